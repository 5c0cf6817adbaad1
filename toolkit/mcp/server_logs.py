"""What MCP servers log (`notifications/message`), on one Python logger, each line naming its server.

A server may send log messages (`level`, an optional `logger` name, any JSON `data`). The SDK
drops them unless its client is given a callback; `McpClient` gives `forward`, which writes each
on the `toolkit.mcp.server_logs` logger, at the Python level nearest MCP's (RFC 5424's eight: notice
is INFO, alert and emergency CRITICAL):

    MCP server 'orders' (logger 'db'): connection pool exhausted

The server is named as its client is (`McpClient.name`, unique within a provider), never by the
name the server gives itself or its logger: two servers logging under one logger name (`db`, or
none) are told apart, and a server cannot pass its lines off as another's. The record carries the
same in `extra` (`mcp_server`, `mcp_logger`, `mcp_level`) for a handler that filters by server.

A line is one line: the data's lines joined by " / ", other control characters escaped (no
terminal escape sequence, no forged second line), at most `MAX_LOG_CHARS` characters. What it
quotes has the secrets masked as the client masks what the server wrote (`McpClient._quoted`),
and then what the trace masks (`scrub_secrets`: `password=…`, a bearer token, a secret-named
field of JSON data). The logger has a `NullHandler`: the lines go only where the application
configured logging, never to stderr through logging's last resort.

A server sending a storm of messages (a loop logging each step, 100,000 in a second) has at most
`MAX_LOG_LINES` of them written a second (`LogFlood`, one per client), and one line saying the rest
are left out when a storm begins; what was left out is counted (`McpClient.logs_left_out`). A line
was written for each: the learner's log (a notebook's cell) filled, and the connection's loop spent
its time masking them.

A 2026-07-28 server sends log messages only for requests that ask for them: `McpClient`'s
`log_level` (default `"info"`) asks, on every request; an older server sends what it chooses.

Leaves out: `logging/setLevel` (deprecated with MCP's logging in 2026-07-28), and a logger per
server logger name (a server could make this process hold any number of loggers).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from time import monotonic
from typing import Any

from toolkit.tools.redact import scrub_secrets
from toolkit.unicode import cut, well_formed

SERVER_LOG: logging.Logger = logging.getLogger("toolkit.mcp.server_logs")
SERVER_LOG.addHandler(logging.NullHandler())

MAX_LOG_CHARS = 2000
"""How many characters of one server log message a line holds at most."""

LEVELS: dict[str, int] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL,
    "emergency": logging.CRITICAL,
}
"""MCP's log levels (RFC 5424's) → Python's."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


MAX_LOG_LINES = 100
"""How many of one server's log messages are written within a second at most (`LogFlood`)."""


class LogFlood:
    """One server's budget of log lines: `MAX_LOG_LINES` a second (a window that begins with the
    first message after the last one ended). `admit()` says whether a message is written, and whether
    a storm begins with it: the first message left out in a second that follows one without any."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self._clock = clock
        self._began: float | None = None
        self._written = 0
        self._flooding = False  # this window, or the last one, left messages out
        self._dropping = False  # this window left messages out
        self.left_out = 0
        """How many messages were left out in all."""

    def admit(self) -> tuple[bool, bool]:
        """(this message is written, a storm begins with it)."""
        now = (self._clock or monotonic)()
        if self._began is None or not 0 <= now - self._began < 1.0:
            self._began, self._written = now, 0
            self._flooding, self._dropping = self._dropping, False
        if self._written < MAX_LOG_LINES:
            self._written += 1
            return True, False
        self.left_out += 1
        begins = not (self._flooding or self._dropping)
        self._dropping = True
        return False, begins


def forward(
    server: str, level: str, logger: Any, data: Any, hide: Callable[[str], str], *, flood: LogFlood | None = None
) -> None:
    """Write one log message of `server` on `SERVER_LOG` (see the module docstring); `hide` masks
    the secrets the server was given in what it wrote; `flood` is the server's budget of lines (None: none)."""
    python_level = LEVELS.get(level, logging.WARNING)
    if not SERVER_LOG.isEnabledFor(python_level):
        return  # nothing is written: the data is not read
    if flood is not None:
        written, begins = flood.admit()
        if begins:
            SERVER_LOG.warning(
                "MCP server %r sends more than %d log messages a second: only the first %d of each second are "
                "written while it does",
                server,
                MAX_LOG_LINES,
                MAX_LOG_LINES,
                extra={"mcp_server": server, "mcp_logger": None, "mcp_level": "warning"},
            )
        if not written:
            return
    logger = one_line(str(logger), hide, 80) if logger is not None else None
    named = f" (logger {logger!r})" if logger is not None else ""
    SERVER_LOG.log(
        python_level,
        "MCP server %r%s: %s",
        server,
        named,
        one_line(_text(data), hide, MAX_LOG_CHARS),
        extra={"mcp_server": server, "mcp_logger": logger, "mcp_level": level},
    )


def _text(data: Any) -> str:
    """The data as text: a str as it is, any other JSON value as JSON (`one_line` masks it)."""
    if isinstance(data, str):
        return data
    try:
        return json.dumps(data, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return repr(data)


READ_TIMES = 8
"""How many times `limit` characters of a text `one_line` masks before it cuts: enough that a secret
begun before the cut is masked whole, few enough that a server's 10 MB message costs no seconds on
the connection's loop (masking it whole took 2.3 s)."""


def one_line(text: str, hide: Callable[[str], str], limit: int) -> str:
    """`text` masked, on one line (its lines joined by " / ", control characters escaped), cut to `limit`."""
    text = scrub_secrets(hide(well_formed(text[: READ_TIMES * limit])))
    text = " / ".join(line.strip() for line in text.splitlines() if line.strip())
    text = _CONTROL.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), text)
    return cut(text, limit)
