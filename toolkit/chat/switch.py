"""The one switch: a real gateway when `LLM_BASE_URL`, `LLM_API_KEY` and `LLM_MODEL` are set,
the embedded fake keyword gateway otherwise — through the very same `ChatClient` code path.

The fake gateway is reached through an httpx transport that calls its core in process (no
socket, no port), so retries, triage, streaming and the raw-exchange log behave identically.
Notebooks call `connect()` and never say which one they get.

Two more variables record and replay sessions (`toolkit.chat.cassette`):

    LLM_RECORD=session.jsonl   record every exchange of this run (real or fake gateway)
    LLM_REPLAY=session.jsonl   replay a recorded run offline (wins over everything else)

and one chooses the embedded gateway's behaviour mode (see `toolkit.gateway`), so a whole
notebook can be run against a gateway that rejects tools, fakes them, ... without a network:

    LLM_FAKE_MODE=C            the embedded gateway in mode C (A–E; default A)

Leaves out: reading a `.env` file (export the variables, or pass them as arguments).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, Unpack

import httpx

from toolkit.chat.cassette import RECORD_VAR, REPLAY_VAR, RecordingTransport, ReplayTransport
from toolkit.chat.client import ChatClient, RetryPolicy, with_raw_path
from toolkit.chat.masking import mask_url
from toolkit.errors import CassetteError, ConfigurationError

if TYPE_CHECKING:  # imported when a fake client is made, not with `connect`
    from toolkit.gateway.server import Gateway

ENV_VARS = ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL")
FAKE_MODE_VAR = "LLM_FAKE_MODE"
FAKE_MODES = ("A", "B", "C", "D", "E")
REPLAY_BASE_URL = "http://replay.local/v1"
FAKE_BASE_URL = "http://fake-gateway.local/v1"
FAKE_MODEL = "fake-keyword"


def connect(
    *, mode: str | None = None, env: Mapping[str, str] | None = None, **client_options: Unpack[ClientOptions]
) -> ChatClient:
    """A `ChatClient` for the real gateway if all three variables are set, else the fake one.

    `mode` (A–E) only applies to the fake gateway: the argument, else `LLM_FAKE_MODE`, else A.
    `client_options` (timeout, retry, sleep) are passed to `ChatClient` either way.
    """
    check_client_options("connect", client_options)
    env = os.environ if env is None else check_env("connect", env)
    if env.get(REPLAY_VAR, "").strip():
        try:
            return replay_client(env[REPLAY_VAR].strip(), **client_options)
        except CassetteError as exc:  # it names the file; the learner sets the variable
            named = CassetteError(
                f"{exc} (set by {REPLAY_VAR}: give a cassette {RECORD_VAR} wrote, or unset {REPLAY_VAR})"
            )
            named.hint = exc.hint  # the cassette's own (another tool's file has no line to fix)
            raise named from None
    record = env.get(RECORD_VAR, "").strip()
    values = {name: env.get(name, "").strip() for name in ENV_VARS}
    present = [name for name, value in values.items() if value]
    if len(present) == len(ENV_VARS):
        _check_not_endpoint(values["LLM_BASE_URL"])
        transport = RecordingTransport(record) if record else None
        label = f"real gateway {mask_url(values['LLM_BASE_URL'])}, model {values['LLM_MODEL']}"
        return ChatClient(
            values["LLM_BASE_URL"],
            values["LLM_API_KEY"],
            values["LLM_MODEL"],
            transport=transport,
            label=label + (f", recording to {record}" if record else ""),
            **client_options,
        )
    if present:
        missing = ", ".join(n for n in ENV_VARS if n not in present)
        raise ConfigurationError(
            f"connect(): {', '.join(present)} set but {missing} not; the real gateway needs all "
            f"three of {', '.join(ENV_VARS)}. Set the missing ones, or unset all three to use the "
            "embedded fake gateway."
        )
    return fake_client(mode=mode or fake_mode(env), record=record or None, **client_options)


_ENDPOINT = "/chat/completions"


def _check_not_endpoint(base_url: str) -> None:
    """A `ConfigurationError` when `LLM_BASE_URL` is the chat endpoint itself (as a provider's docs
    or Azure's portal show it: `…/v1/chat/completions`), naming the base URL to set (its query kept):
    the client adds the endpoint's path, and every request would go to `…/chat/completions/chat/completions`.
    A URL httpx cannot read is left to `ChatClient`, which says why."""
    try:
        url = httpx.URL(base_url)
    except (httpx.InvalidURL, ValueError):
        return
    if not url.raw_path.partition(b"?")[0].rstrip(b"/").endswith(_ENDPOINT.encode()):
        return
    base = with_raw_path(url, _before_endpoint)
    raise ConfigurationError(
        f"connect(): LLM_BASE_URL {mask_url(base_url)!r} ends in {_ENDPOINT}, which the client adds itself; set it "
        f"to the part before: {mask_url(str(base))}"
    )


def _before_endpoint(path: str) -> str:
    """A path (as written) without the chat endpoint at its end, nor any written twice."""
    path = path.rstrip("/")
    while path.endswith(_ENDPOINT):
        path = path.removesuffix(_ENDPOINT).rstrip("/")
    return path


def check_env(where: str, env: object) -> Mapping[str, str]:
    """`env` if it can stand for the environment: a mapping whose values for the variables read
    here are strings (`os.environ`, or a dict of them); else a `ConfigurationError` naming `where`
    (it was an `AttributeError` from inside, at the first request)."""
    if not isinstance(env, Mapping):
        raise ConfigurationError(
            f"{where}(env=...): takes a mapping of environment variables to their values, like os.environ or "
            f"{{'LLM_BASE_URL': 'https://host/v1', ...}}, and got {type(env).__name__}"
        )
    for name in (*ENV_VARS, REPLAY_VAR, RECORD_VAR, FAKE_MODE_VAR):
        value = env.get(name)
        if value is not None and not isinstance(value, str):
            raise ConfigurationError(
                f"{where}(env=...): {name} is {type(value).__name__}, not text; environment values are strings: "
                f"write it as one (the value is not shown: it may be a key)"
            )
    return env


CLIENT_OPTIONS = ("timeout", "retry", "sleep")
"""What `connect()` and `fake_client()` pass on to `ChatClient` (the gateway, key and model are theirs to choose)."""


class ClientOptions(TypedDict, total=False):
    """`CLIENT_OPTIONS` with their types, for the type checker (`**client_options: Unpack[ClientOptions]`)."""

    timeout: float
    retry: RetryPolicy
    sleep: Callable[[float], None]


def check_client_options(where: str, options: Mapping[str, object]) -> None:
    """`connect(base_url=...)` and the like failed inside with `ChatClient.__init__() got multiple
    values for argument 'base_url'`: the gateway is chosen from the environment, and naming one in
    code is what `ChatClient(...)` is for. An option `ChatClient` does not know is named too."""
    for name in options:
        if name in ("base_url", "api_key", "model"):
            raise ConfigurationError(
                f"{where}(): {name}= is not an option of {where}(), which reads the gateway from LLM_BASE_URL, "
                "LLM_API_KEY and LLM_MODEL (or uses the embedded fake one); set those, or name the gateway in code: "
                "ChatClient(base_url, api_key, model)"
            )
        if name not in CLIENT_OPTIONS:
            raise ConfigurationError(
                f"{where}(): {name}= is not an option; it takes mode=, env= and the client's "
                f"{', '.join(n + '=' for n in CLIENT_OPTIONS)}"
                if where == "connect"
                else f"{where}(): {name}= is not an option; it takes mode=, gateway=, record= and the client's "
                f"{', '.join(n + '=' for n in CLIENT_OPTIONS)}"
            )


def fake_mode(env: Mapping[str, str] | None = None) -> str:
    """The embedded gateway's mode from `LLM_FAKE_MODE` (A when unset); any other value is an error."""
    env = os.environ if env is None else env
    value = env.get(FAKE_MODE_VAR, "").strip().upper() or "A"
    if value not in FAKE_MODES:
        raise ConfigurationError(
            f"connect(): {FAKE_MODE_VAR}={env.get(FAKE_MODE_VAR)!r} is not a mode of the embedded gateway; "
            f"use one of {', '.join(FAKE_MODES)}, or unset it for A"
        )
    return value


def fake_client(
    *,
    mode: str = "A",
    gateway: Gateway | None = None,
    record: str | None = None,
    **client_options: Unpack[ClientOptions],
) -> ChatClient:
    """A `ChatClient` wired to an in-process fake gateway (a new one unless `gateway` is given)."""
    from toolkit.gateway.server import Gateway, check_gateway
    from toolkit.gateway.transport import InProcessTransport

    check_client_options("fake_client", client_options)
    if gateway is None:
        gateway = Gateway(mode=mode)
    else:  # named here (the transport named itself), and a falsy misfit (0, "") is no longer a new gateway
        check_gateway(gateway, "fake_client")
    sleep = client_options.get("sleep")
    transport: httpx.BaseTransport = (
        InProcessTransport(gateway, sleep=sleep) if sleep is not None else InProcessTransport(gateway)
    )
    shown = getattr(gateway, "mode", None)  # a stand-in (`handle` and `config`, what check_gateway takes) may have none
    label = f"embedded fake keyword gateway (in-process{'' if shown is None else f', mode {shown}'})"
    if record:
        transport, label = RecordingTransport(record, transport), f"{label}, recording to {record}"
    return ChatClient(FAKE_BASE_URL, "not-needed", FAKE_MODEL, transport=transport, label=label, **client_options)


def _no_wait(seconds: float) -> None:
    """A replay's `sleep`: the retries happen as recorded, without the waits between them."""


def replay_client(path: str, **client_options: Unpack[ClientOptions]) -> ChatClient:
    """A `ChatClient` that replays a cassette: no network, the recorded model's exact answers.
    The waits the recorded gateway asked for (`Retry-After`) and the backoffs between retries
    are not slept again, unless `sleep=` is given: a cassette answers at once."""
    client_options.setdefault("sleep", _no_wait)
    transport = ReplayTransport(path)
    if not transport.exchanges:
        raise ConfigurationError(f"{REPLAY_VAR}={path}: the cassette is empty; record one with {RECORD_VAR}")
    body = transport.exchanges[0]["request"]["body"]
    model = body.get("model", "unknown") if isinstance(body, dict) else "unknown"
    return ChatClient(
        REPLAY_BASE_URL,
        "not-needed",
        model,
        transport=transport,
        label=f"replay of cassette {Path(path).name}, model {model}",
        **client_options,
    )
