"""`toolkit.loop.records.LoopOptions` given the wrong shapes the first checks let through.
`request_extra={1: 2}` (a key that is no str) was taken, and failed at the first request with a raw
`TypeError: keywords must be strings` (the fields go in as keywords); it is a `ConfigurationError`
when the options are built. A `repair_template` that cannot be formatted with its fields (a name it does
not have, a literal brace of a JSON example) was a raw `KeyError` / `ValueError` in the middle of a turn, at
the model's first wrong argument; it is one too, when the options are built."""

import dataclasses
import pickle

import pytest

from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import run_loop
from toolkit.tools.decorator import tool


@tool
def lookup(order_id: str) -> str:
    """Look an order up."""
    return "shipped"


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({1: 2}, "{1: 2}): its keys must be the request's field names, as str, not an int (1)"),
        ({"seed": 7, None: 1}, "{'seed': 7, None: 1}): its keys must be the request's field names, as str, not None"),
        ({b"seed": 7}, "{b'seed': 7}): its keys must be the request's field names, as str, not a bytes (b'seed')"),
    ],
)
def test_a_request_field_not_named_by_a_str_is_a_configuration_error(extra, said):
    with pytest.raises(ConfigurationError) as caught:
        LoopOptions(request_extra=extra)
    assert (
        str(caught.value)
        == f"LoopOptions(request_extra={said}; name each field with a str, e.g. request_extra={{'seed': 7}}"
    )


def test_request_fields_named_by_a_str_go_out():
    model = ScriptedModel(["hi"])
    run_loop(model, "q", tools=[], options=LoopOptions(request_extra={"seed": 7}))
    assert model.requests[0].extra == {"seed": 7}


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("Wrong {orderId}: {error}", "it has no field 'orderId'"),
        ('参数错误：{error}。格式：{"orderId": "SN…"}', "it has no field '\"orderId\"'"),
        ("{error", "ValueError: expected '}' before end of string"),
        ("{error.reason}", "AttributeError: 'ArgumentError' object has no attribute 'reason'"),
    ],
)
def test_a_repair_template_that_cannot_be_formatted_is_a_configuration_error(template, problem):
    with pytest.raises(ConfigurationError) as caught:
        LoopOptions(argument_repair=1, repair_template=template)
    assert str(caught.value) == (
        f"LoopOptions(repair_template={template!r}): it is formatted with {{error}}, {{tool}}, {{field}}, "
        f"{{received}}, {{expected}}, and this one cannot be ({problem}); use only those names in braces, and "
        "double a brace meant as text: {{ and }}"
    )


def test_a_repair_template_that_formats_is_the_models_text():
    template = '{tool}: {field} got {received}. Write it as {{"orderId": "SN…"}}. ({error.field})'
    model = ScriptedModel([call("lookup", order_id=3), "done"])
    run_loop(model, "q", tools=[lookup], options=LoopOptions(argument_repair=1, repair_template=template))
    (result,) = [m for m in model.requests[1].messages if m.role == "tool"]
    assert result.content == 'lookup: order_id got 3. Write it as {"orderId": "SN…"}. (order_id)'


READ_ONLY = (
    "LoopOptions.request_extra is read-only: the options are frozen, and every turn given them sends it; "
    "make new options instead: dataclasses.replace(options, request_extra={...})"
)


def test_request_extra_changed_after_the_options_were_built_changes_nothing_they_send():
    extra = {"seed": 7}
    options = LoopOptions(request_extra=extra)
    extra["seed"], extra["tools"] = 8, []  # the caller's dict, reused: the options keep what they checked
    model = ScriptedModel(["hi"])
    run_loop(model, "q", options=options)
    assert model.requests[0].extra == {"seed": 7}
    assert options.request_extra == {"seed": 7}


@pytest.mark.parametrize(
    "change",
    [
        lambda e: e.__setitem__("tools", []),
        lambda e: e.update(seed=8),
        lambda e: e.pop("seed"),
        lambda e: e.clear(),
        lambda e: e.setdefault("tool_choice", "none"),
    ],
)
def test_the_options_request_extra_refuses_changes_as_the_options_do(change):
    options = LoopOptions(request_extra={"seed": 7})
    with pytest.raises(TypeError) as caught:
        change(options.request_extra)
    assert str(caught.value) == READ_ONLY
    assert options.request_extra == {"seed": 7}
    copied = dict(options.request_extra)
    copied["seed"] = 8  # a copy is the caller's own
    assert dataclasses.replace(options, request_extra=copied).request_extra == {"seed": 8}
    assert pickle.loads(pickle.dumps(options)) == options


@pytest.mark.parametrize("extra", [None, [], ()])
def test_request_extra_that_is_no_dict_is_refused_when_the_options_are_built(extra):
    with pytest.raises(ConfigurationError) as caught:
        LoopOptions(request_extra=extra)
    assert str(caught.value) == (
        f"LoopOptions(request_extra={extra!r}): it must be a dict of request fields; pass e.g. request_extra={{'seed': 7}}"
    )


def test_an_empty_request_extra_given_and_filled_later_changes_nothing_either():
    extra = {}
    options = LoopOptions(request_extra=extra)
    extra["tools"] = []
    model = ScriptedModel(["hi"])
    run_loop(model, "q", options=options)
    assert model.requests[0].extra == {}
