"""The one switch: a real gateway when `LLM_BASE_URL`, `LLM_API_KEY` and `LLM_MODEL` are set,
the embedded fake keyword gateway otherwise — through the very same `ChatClient` code path.

The fake gateway is reached through an httpx transport that calls its core in process (no
socket, no port), so retries, triage, streaming and the raw-exchange log behave identically.
Notebooks call `connect()` and never say which one they get.

Leaves out: reading a `.env` file (export the variables, or pass them as arguments).
"""
from __future__ import annotations

import os
from typing import Mapping

from toolkit.client import ChatClient
from toolkit.errors import ConfigurationError

ENV_VARS = ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL")
FAKE_BASE_URL = "http://fake-gateway.local/v1"
FAKE_MODEL = "fake-keyword"


def connect(*, mode: str = "A", env: Mapping[str, str] | None = None, **client_options) -> ChatClient:
    """A `ChatClient` for the real gateway if all three variables are set, else the fake one.

    `mode` (A–E) only applies to the fake gateway; `client_options` (timeout, retry, sleep)
    are passed to `ChatClient` either way.
    """
    env = os.environ if env is None else env
    values = {name: env.get(name, "").strip() for name in ENV_VARS}
    present = [name for name, value in values.items() if value]
    if len(present) == len(ENV_VARS):
        return ChatClient(values["LLM_BASE_URL"], values["LLM_API_KEY"], values["LLM_MODEL"],
                          label=f"real gateway {values['LLM_BASE_URL']}, model {values['LLM_MODEL']}",
                          **client_options)
    if present:
        missing = ", ".join(n for n in ENV_VARS if n not in present)
        raise ConfigurationError(
            f"connect(): {', '.join(present)} set but {missing} not; the real gateway needs all "
            f"three of {', '.join(ENV_VARS)}. Set the missing ones, or unset all three to use the "
            "embedded fake gateway.")
    return fake_client(mode=mode, **client_options)


def fake_client(*, mode: str = "A", gateway=None, **client_options) -> ChatClient:
    """A `ChatClient` wired to an in-process fake gateway (a new one unless `gateway` is given)."""
    from toolkit.gateway_server import Gateway
    from toolkit.gateway_transport import InProcessTransport

    gateway = gateway or Gateway(mode=mode)
    sleep = client_options.get("sleep")
    transport = InProcessTransport(gateway, sleep=sleep) if sleep else InProcessTransport(gateway)
    return ChatClient(FAKE_BASE_URL, "not-needed", FAKE_MODEL, transport=transport,
                      label=f"embedded fake keyword gateway (in-process, mode {gateway.mode})",
                      **client_options)
