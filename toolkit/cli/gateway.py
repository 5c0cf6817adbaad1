"""Run the fake keyword gateway over HTTP (loopback by default); stop it with Ctrl-C or SIGTERM.

toolkit gateway [--host 127.0.0.1] [--port 18083] [--mode A-E] [--fault F ...]

A port that is taken is one line on stderr and exit status 2 (`cannot_listen`, as `mcp-server`); so
is `--retry-after` or `--slow-delay` without the fault it sets. Ctrl-C stops it with one line and exit
status 130, as it stops every command (a shell script that runs it stops too); SIGTERM ends it as that signal.
"""

from __future__ import annotations

import argparse

from toolkit.cli.arguments import cannot_listen, count, host, port, seconds
from toolkit.gateway.core import FAULTS, MODES
from toolkit.gateway.server import DEFAULT_HOST, DEFAULT_PORT

EXIT_STATUS = "it runs until stopped: 143 after SIGTERM; 2 when the port cannot be listened on"
"""What `--help` says of this command's exit status, before what every command shares
(`toolkit.cli.main.SHARED_EXIT_STATUS`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", type=host, default=DEFAULT_HOST, help="default: %(default)s (loopback)")
    parser.add_argument("--port", type=port, default=DEFAULT_PORT, help="default: %(default)s; 0 = any free port")
    parser.add_argument(
        "--mode", default="A", choices=MODES, type=str.upper, help="A real / B fake / C rejects / D ignores / E half"
    )
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        choices=FAULTS,
        metavar="FAULT",  # the choices are in the help: in the usage line they ran past 80 columns
        help=f"a fault for the next request: {', '.join(FAULTS[:-1])} or {FAULTS[-1]} (repeatable)",
    )
    parser.add_argument(
        "--retry-after", type=count, default=None, help="rate_limit's Retry-After, seconds (default 1), with --fault"
    )
    parser.add_argument(
        "--slow-delay", type=seconds, default=None, help="slow's delay, seconds (default 5), with --fault"
    )


def run(args: argparse.Namespace) -> int:
    import sys

    from toolkit.gateway.core import GatewayConfig
    from toolkit.gateway.server import Gateway, serve

    if problem := _unused_option(args):
        print(f"error: {problem}", file=sys.stderr)
        return 2
    tuned = {"retry_after_s": args.retry_after, "slow_delay_s": args.slow_delay}
    config = GatewayConfig(mode=args.mode, **{k: v for k, v in tuned.items() if v is not None})
    try:
        serve(args.host, args.port, gateway=Gateway(config=config, faults=args.fault))
    except OSError as exc:  # the port is taken, or the address is not this machine's
        return cannot_listen(args.host, args.port, exc)
    return 0  # Ctrl-C is `main`'s: one line and exit 130, as for every command


def _unused_option(args: argparse.Namespace) -> str:
    """What is wrong when a fault's setting is given without the fault ("" when nothing is): it would
    change nothing, without a word."""
    if args.retry_after is not None and "rate_limit" not in args.fault:
        return "--retry-after is the Retry-After of a rate_limit fault; add --fault rate_limit"
    if args.slow_delay is not None and "slow" not in args.fault:
        return "--slow-delay is the delay of a slow fault; add --fault slow"
    return ""
