"""Run the fake keyword gateway over HTTP (loopback by default); stop it with Ctrl-C or SIGTERM.

toolkit gateway [--host 127.0.0.1] [--port 18083] [--mode A-E] [--fault F ...]

A port that is taken is one line on stderr and exit status 2 (`cannot_listen`, as `mcp-server`).
"""

from __future__ import annotations

import argparse

from toolkit.cli.arguments import cannot_listen, count, host, port, seconds
from toolkit.gateway.core import FAULTS, MODES
from toolkit.gateway.server import DEFAULT_HOST, DEFAULT_PORT


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", type=host, default=DEFAULT_HOST, help="default: %(default)s (loopback)")
    parser.add_argument("--port", type=port, default=DEFAULT_PORT, help="default: %(default)s; 0 = any free port")
    parser.add_argument(
        "--mode", default="A", choices=MODES, type=str.upper, help="A real / B fake / C rejects / D ignores / E half"
    )
    parser.add_argument(
        "--fault", action="append", default=[], choices=FAULTS, help="a fault for the next request (repeatable)"
    )
    parser.add_argument("--retry-after", type=count, default=1, help="rate_limit's Retry-After, seconds")
    parser.add_argument("--slow-delay", type=seconds, default=5.0, help="slow's delay, seconds")


def run(args: argparse.Namespace) -> int:
    from toolkit.gateway.core import GatewayConfig
    from toolkit.gateway.server import Gateway, serve

    config = GatewayConfig(mode=args.mode, retry_after_s=args.retry_after, slow_delay_s=args.slow_delay)
    try:
        serve(args.host, args.port, gateway=Gateway(config=config, faults=args.fault))
    except OSError as exc:  # the port is taken, or the address is not this machine's
        return cannot_listen(args.host, args.port, exc)
    except KeyboardInterrupt:
        pass
    return 0
