"""`toolkit.gateway.server`: the fake gateway given the wrong shapes, refused where it is made.

`Gateway(faults=None)` and `faults=5` were a raw `TypeError` ("argument after * must be an iterable");
`faults="rate_limit"` was read letter by letter ("unknown fault 'r'"), a set of faults was taken in hash
order (another schedule in each process), `config=5` a raw `AttributeError`, a dict taken as no config
at all (`{}`) or failing inside; `schedule(["slow"])` called the list an unknown fault. `create_app`,
`running_gateway` and `InProcessTransport` took a mode letter, a config or the class for the gateway
and failed at every request (a 500 from the server, a raw `AttributeError` in process). Each is now a
`ConfigurationError` where it is given; `faults=None` is no faults."""

import pytest

from toolkit.errors import ConfigurationError
from toolkit.gateway.core import GatewayConfig
from toolkit.gateway.server import Gateway, create_app, running_gateway
from toolkit.gateway.transport import InProcessTransport


def said(make) -> str:
    with pytest.raises(ConfigurationError) as caught:
        make()
    return str(caught.value)


def test_faults_none_is_no_faults():
    assert Gateway(faults=None).pending_faults == []


def test_faults_in_a_generator_or_a_tuple_keep_their_order():
    assert Gateway(faults=(f for f in ["slow", None, "truncate"])).pending_faults == ["slow", None, "truncate"]


@pytest.mark.parametrize(
    ("faults", "text"),
    [
        (5, "Gateway(faults=5): faults takes a list of fault names, one per chat request in order (None: answer "
         "normally), and got an int. Fix: e.g. faults=['rate_limit', None], or leave it out for none; the faults "
         "are rate_limit, server_error, slow, truncate"),
        ("rate_limit", "Gateway(faults='rate_limit'): faults takes a list of fault names, and got a str, which "
         "would be read letter by letter. Fix: put it in a list: faults=['rate_limit']"),
        ({"slow"}, "Gateway(faults={'slow'}): faults takes a list of fault names, one per chat request in order "
         "(None: answer normally), and got a set, which has no order: the faults would come in another order in "
         "each process. Fix: e.g. faults=['rate_limit', None], or leave it out for none; the faults are "
         "rate_limit, server_error, slow, truncate"),
    ],
)  # fmt: skip
def test_faults_that_are_no_list_are_refused_at_construction(faults, text):
    assert said(lambda: Gateway(faults=faults)) == text


@pytest.mark.parametrize(("config", "shown", "kind"), [(5, "5", "an int"), ({}, "{}", "a dict")])
def test_a_config_that_is_no_gateway_config_is_refused_at_construction(config, shown, kind):
    assert said(lambda: Gateway(config=config)) == (
        f"Gateway(config={shown}): config takes a GatewayConfig, and got {kind}. Fix: pass one, e.g. "
        "config=GatewayConfig(retry_after_s=2), or leave it out for the defaults"
    )


def test_schedule_given_a_list_says_to_unpack_it():
    gateway = Gateway()
    assert said(lambda: gateway.schedule(["slow", "truncate"])) == (
        "Gateway.schedule(['slow', 'truncate']): schedule takes the faults one by one, and got a list of them. "
        "Fix: unpack it, schedule(*faults), or schedule('slow', 'truncate')"
    )
    assert gateway.pending_faults == []


@pytest.mark.parametrize(
    ("gateway", "text"),
    [
        ("B", "that is a str, not a fake gateway. Fix: make one: Gateway('B')"),
        (Gateway, "that is the class Gateway, not a fake gateway. Fix: make one: Gateway()"),
        (GatewayConfig(), "that is a GatewayConfig, not a fake gateway. Fix: make one: Gateway(config=config)"),
        (5, "that is an int, not a fake gateway. Fix: make one: Gateway(), Gateway('B') or "
         "Gateway(faults=['rate_limit'])"),
    ],
)  # fmt: skip
def test_what_is_no_gateway_is_refused_where_it_is_given(gateway, text):
    shown = {str: "'B'", type: "Gateway", GatewayConfig: "GatewayConfig(...)", int: "5"}[type(gateway)]
    assert said(lambda: create_app(gateway)) == f"create_app(gateway={shown}): {text}"
    assert said(lambda: InProcessTransport(gateway)) == f"InProcessTransport(gateway={shown}): {text}"
    with pytest.raises(ConfigurationError, match=r"^running_gateway\(gateway="):
        with running_gateway(gateway=gateway):
            pass
