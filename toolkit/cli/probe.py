"""Classify a gateway's tool support (A-E) from one raw exchange, printed in full.

    toolkit probe [--base-url URL --api-key KEY --model M] [--fake-mode A-E] [--timeout SECONDS]

Without a real gateway configured (flags or the LLM_* variables) it probes the embedded one.
Exit 0 when the gateway is classified, 2 when it is not.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from toolkit.cli.arguments import api_key, base_url, positive_seconds
from toolkit.errors import ConfigurationError

if TYPE_CHECKING:
    from toolkit.chat.client import ChatClient, RetryPolicy


GATEWAY_TIMEOUT_S = 30.0
"""How long the client waits on the gateway unless --timeout says (`ChatClient`'s own default)."""


def add_gateway_arguments(parser: argparse.ArgumentParser) -> None:
    """`--base-url --api-key --model` (default: the LLM_* variables), `--fake-mode` and `--timeout`."""
    parser.add_argument("--base-url", type=base_url, help="default: $LLM_BASE_URL")
    parser.add_argument(
        "--api-key",
        type=api_key,
        help="default: $LLM_API_KEY (prefer it: a key given here shows in `ps` and the shell's history)",
    )
    parser.add_argument("--model", help="default: $LLM_MODEL")
    parser.add_argument(
        "--fake-mode",
        default=None,
        type=str.upper,
        choices=("A", "B", "C", "D", "E"),
        help="mode of the embedded gateway, which is used when no real one is configured (given with a real one: one "
        "line, exit 2; default: $LLM_FAKE_MODE, else A)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help=f"how long to wait on the gateway to connect and for each piece of a reply (default: {GATEWAY_TIMEOUT_S:g})",
    )


def client_from_args(args: argparse.Namespace, retry: RetryPolicy | None = None) -> ChatClient:
    """`connect()` with the flags laid over the environment: the real gateway if URL, key and
    model are all set, else the embedded one in `--fake-mode` (no retries by default: a probe
    shows what one request gets), waiting `--timeout` seconds on it."""
    from toolkit.chat.client import RetryPolicy
    from toolkit.chat.switch import connect

    flags = {"LLM_BASE_URL": args.base_url, "LLM_API_KEY": args.api_key, "LLM_MODEL": args.model}
    env = {**os.environ, **{k: v for k, v in flags.items() if v}}
    if problem := _incomplete(flags, env) or _unused_fake_mode(args.fake_mode, env):
        raise ConfigurationError(problem)
    retry = retry or RetryPolicy(max_retries=0)
    timeout = getattr(args, "timeout", None) or GATEWAY_TIMEOUT_S  # a namespace argparse did not make may lack it
    return connect(mode=args.fake_mode, env=env, retry=retry, timeout=timeout)


def _unused_fake_mode(mode: str | None, env: dict[str, str]) -> str:
    """What is wrong when `--fake-mode` is given and `connect` would not use it ("" when it would, or
    it is not given): it picks the embedded gateway's mode, and a real gateway (or a replay) is
    configured, which would be asked instead, without a word (a real gateway's cost, its verdict)."""
    if mode is None:
        return ""
    if env.get("LLM_REPLAY", "").strip():
        used = "LLM_REPLAY replays a cassette"
        fix = "unset LLM_REPLAY"
    elif all(env.get(name, "").strip() for name in FLAGS):
        used = f"a real gateway is configured ({', '.join(FLAGS)})"
        fix = "unset the three"
    else:
        return ""
    return (
        f"--fake-mode {mode} picks the embedded gateway's mode, but {used}, and it would be used: leave "
        f"--fake-mode out, or {fix} for the embedded gateway"
    )


FLAGS = {"LLM_BASE_URL": "--base-url", "LLM_API_KEY": "--api-key", "LLM_MODEL": "--model"}
"""Each gateway variable's flag."""


def _incomplete(flags: dict[str, str | None], env: dict[str, str]) -> str:
    """What is missing when a flag names a real gateway but neither a flag nor a variable gives the
    rest ("" when nothing is, or no flag is given: `connect` then words it for the variables)."""
    given = [FLAGS[name] for name, value in flags.items() if value and value.strip()]
    missing = [f"{FLAGS[name]} (nor {name})" for name in FLAGS if not env.get(name, "").strip()]
    if not given or not missing:
        return ""
    from_variables = any(env.get(name, "").strip() and not flags[name] for name in FLAGS)
    fake = "" if from_variables else ", or none of the three for the embedded fake gateway"  # else connect() refuses
    return (
        f"{', '.join(given)} given but not {', '.join(missing)}: a real gateway needs its URL, key and model; "
        f"give the missing {'one' if len(missing) == 1 else 'ones'}{fake}"
    )


EXIT_STATUS = "0 when the gateway is classified (A-E), 2 when it is not"
"""What `--help` says of this command's exit status, before what every command shares
(`toolkit.cli.main.SHARED_EXIT_STATUS`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    add_gateway_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from toolkit.course.probe import probe, report

    client = client_from_args(args)
    print(f"probing {client.describe()}")
    result = probe(client)
    print(report(result))
    return 0 if result.verdict else 2
