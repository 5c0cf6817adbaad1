"""A synchronous MCP client: the official `mcp.Client` driven from ordinary code.

toolkit's loop and executors are synchronous; the `mcp` SDK is async. `McpClient` keeps one
`mcp.Client` open on an event loop of its own (a daemon thread), so the same object works in a
script, in a test and in a Jupyter kernel whose loop is already running. Three ways to reach a
server, as the SDK spells them:

    McpClient.stdio("python", ["-m", "mcp_server_time"])   # launch a command, talk over stdin/stdout
    McpClient.http("http://127.0.0.1:8765/mcp")             # streamable HTTP
    McpClient(server)                                       # an `MCPServer` / low-level `Server`, in-process

A stdio server is named after its command line, with the secrets it was given masked
(`--token ***`, `--api-key=***`, a URL's password); neither those nor the values of its
secret-named `env` variables (`GITHUB_TOKEN`) show in an error, the server's stderr quoted in
one included, where a key of a well-known format the server wrote of its own (`sk-…`, `ghp_…`,
read from its config) is masked too; `mask(text)` masks the given ones in any other text (`McpToolProvider` masks what a tool
answers with it). An HTTP server's URL is shown masked (`http://me:***@host/mcp?token=***`), in
the log lines of the SDK and of httpx2 as well.

It connects on first use (or `connect()`), lists tools through a cache (a tool the SDK cannot
read, say one with no `inputSchema`, costs that tool alone: it goes into `unreadable`, with the
reason; a `nextCursor` that is a number is given back as it came, one of another kind costs the later
pages alone, `listing_cut` saying so, as it says a listing cut at `MAX_PAGES` pages, `MAX_TOOLS` tools
or `MAX_LISTING_CHARS` characters of JSON in all; an `inputSchema` that does not say `"type": "object"` (`{}`, `["object", "null"]`) is read
as saying it, since arguments are an object all the same), and calls a tool with a deadline for the whole call (the SDK's is per round: a server
asking for more input round after round held it for ten): when it passes, the SDK sends the
`notifications/cancelled` message so the server stops working. The cache is emptied by
`evict_tool_list_cache()` and, as in LangChain4j's client, by the server's
`notifications/tools/list_changed`: a server that added or removed tools is listed again at the
next `list_tools()` (a 2026-07-28 server sends it only with a call's answer: no subscription is
opened), and by a call answered with -32602, MCP's error for an unknown tool (a server that
removed a tool without saying so: the model was offered it, and not its replacement, turn after
turn; `McpToolProvider`'s executor then lists the server again, and a tool no longer listed is said
to be gone in what the model reads, not to be called again). What the server logs (`notifications/message`) goes to the `toolkit.mcp.server_logs`
logger, each line naming this client's server (`toolkit.mcp.server_logs`); a 2026-07-28 server
is asked for messages of `log_level` and above ("info"; None asks for none), and a storm of them is
written in part (`MAX_LOG_LINES` a second, `logs_left_out` counts the rest). Errors::

    McpError                  the server answered with an error, or broke the protocol
    ├── McpConnectionError    it cannot be reached, or went away (before the request was sent)
    │   └── McpConnectionLost it went away while a request waited for its answer
    └── McpTimeout            a request outlived its deadline (and was cancelled)

An answer the SDK refuses (`structuredContent` that does not match the tool's `outputSchema`, or
is missing; an `outputSchema` that is not valid JSON Schema; `InputRequiredResult` round after
round) is an `McpError` too, in one line (`refused_answer`), not the SDK's `RuntimeError`. That
check searches an `outputSchema`'s patterns within bounds (`toolkit.mcp.outputs`): `^(a+)+$` in
a stranger's schema held the whole process.

`McpConnectionLost`, like `McpTimeout`, leaves the outcome unknown: the server may have done
the work before it went away. A connection the client already knew was gone sends nothing,
so that request is a plain `McpConnectionError` ("it was not sent"); so is a request over HTTP
whose POST could not connect (the server stopped) while no other was sent and unanswered. Such a
failure ends the SDK's transport: later requests are not sent, and listing tools says so.
A request an HTTP server answers with 404 for its session (the server ended the session, or
restarted and forgot it) was not handled: it is sent once more in a new session, as the MCP
specification says a client must (every later request failed with "Session terminated").

A stdio server's bytes that are not UTF-8 are read as U+FFFD (the SDK's strict default stopped
reading: every later request waited out its deadline), and so is an unpaired surrogate it
wrote as a JSON escape (`"\\udce9"`, which the SDK's parser refuses); over HTTP that escape
is read as U+FFFD too (`toolkit.mcp.http`, which also words an answer the SDK cannot parse in
one line). Arguments JSON cannot carry (an unpaired surrogate, NaN) are refused before a call is
sent, as an `McpError`: the SDK would fail to write them after, in a task whose failure ends the
connection.

A content block of a type the SDK does not read (a later MCP version's, a server's own) is named
in a text block, and the rest of the answer is read (`toolkit.mcp.blocks`): the SDK refused the
whole answer.

Ctrl-C (or any other exception that is not an `Exception`) is never turned into an `McpError`:
while connecting, the half-open connection is stopped and the interrupt goes on; during a
request, the request is cancelled first (the server receives `notifications/cancelled`, as on
a timeout), waiting at most `CANCEL_GRACE_S` for that message to be written. A server object
served in-process whose handler raises `SystemExit` fails that request (`McpConnectionLost`,
the loop goes on); should anything else on the connection's loop raise it, the loop stops and
the requests waiting on it fail at once instead of running into their deadline.

A JSON-RPC message from the server that is malformed (a reply with `"result": null`) fails
every request then waiting for an answer at once, as an `McpError` saying what was wrong:
which request it answered cannot be known, and waiting would only turn it into a timeout; one
that comes while connecting (an `initialize` answered with `"result": [1, 2, 3]`) fails the
connection at once, as an `McpConnectionError` saying so. So does a batch (a JSON array, which MCP
has not had since 2025-06-18 and the SDK does not read) holding an answer; one of notifications alone
answers nothing, as a stray line does (below). So does an answer whose id no request
waits for (one answered already, one never sent, `null`: `toolkit.mcp.ids`), which the SDK
drops, leaving the request it was meant for to wait out its deadline. A line that is not JSON at all (a
stray `print` on a stdio server's stdout), or JSON that answers no request (no object, or one
without an `id`: a JSON logger writing to stdout, `{"level": 30, "msg": "…"}`), answers
nothing: the requests go on (their real answer may still come), and a timeout then says that
the server wrote such a line, as does a failure to connect (a server that printed its usage
and exited). The SDK's own log record of either (with a traceback) goes only where the
application configured logging, never to stderr through logging's last resort, and at most
`SDK_REPEATS` of one kind per connection, then one line saying the rest are left out (`_Repeats`).

Leaves out: reconnecting by itself after the server died (`gone` says why; `close()` and use it
again, or make a new client: `McpToolProvider` closes it when it tries the server again; a transport
given as an object opens once, and a second time is one line saying so, `ONE_USE_TRANSPORT`),
resources, prompts, sampling, elicitation and roots (a server asking for one during a call is told
no by the SDK, and the call's error says what it asked for and that this client does not give it,
not that the server failed; a server that goes on without it has one warning line per connection
and kind saying it asked, `toolkit.mcp.asks`); turning tools into toolkit `Tool`s (`toolkit.mcp.provider`).

A stdio server's process group is ended with the server (POSIX; `group_ended`). The MCP SDK starts a
stdio server in a session of its own (`start_new_session`: its process group's id is its pid) and
ends the whole group only when the server outlives its grace after its stdin closes. A server that
exits at once, as it should, left its own children running: a shell script that runs a helper in the
background (`sleep 1000 &`) and then `exec`s the server, or a Python server that spawned a
subprocess. `group_ended(transport, killed)` notes the pid of the process the SDK starts inside
`transport` and, once the transport has closed (the server stopped), ends what is left of its group
as the SDK would: SIGTERM, then SIGKILL after the SDK's `FORCE_KILL_TIMEOUT` for members still
there. Only that group is signalled: the caller's own processes are never in it.

On Windows the SDK's job object already ends a server's children with it: nothing is done there.
Should the SDK no longer start its servers through `_create_platform_compatible_process`, no pid is
noted and nothing is done (the SDK's own behaviour).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import contextvars
import functools
import inspect
import json
import logging
import math
import os
import re
import shlex
import signal
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx2
import mcp
import mcp.client.stdio
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp_types import (
    CONNECTION_CLOSED,
    INVALID_PARAMS,
    INVALID_REQUEST,
    REQUEST_TIMEOUT,
    CallToolResult,
    ListToolsRequest,
    ListToolsResult,
    LoggingMessageNotificationParams,
    PaginatedRequestParams,
    ToolListChangedNotification,
    jsonrpc_message_adapter,
)
from mcp_types import Tool as McpTool
from mcp_types.methods import parse_server_result
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from toolkit import lazy_iri
from toolkit.chat.client import LONGEST_SLEEP_S, host_problem
from toolkit.chat.masking import (
    HTTPX2_LOGGERS,
    MASK,
    mask_tokens,
    mask_url,
    mask_url_in,
    mask_urls_in_logs,
    url_secrets,
)
from toolkit.errors import McpConnectionError, McpError, McpTimeout, ToolDefinitionError, huge_int
from toolkit.mcp import deep
from toolkit.mcp.asks import asked_line, asks_noted
from toolkit.mcp.blocks import unknown_blocks_named
from toolkit.mcp.http import SESSION_ENDED, http_transport, unreadable_answer
from toolkit.mcp.ids import ids_checked
from toolkit.mcp.lines import framed, lines_capped
from toolkit.mcp.outputs import guard
from toolkit.mcp.schema import json_type
from toolkit.mcp.server_logs import LEVELS, LogFlood, forward, one_line
from toolkit.tools.decorator import a_or_an
from toolkit.tools.redact import (
    drop_tracebacks_plainly,
    is_secret_name,
    is_secret_variable,
    mask_secret,
    secrets_in,
)
from toolkit.unicode import cut

MAX_PAGES = 100
"""How many pages of tools a listing reads at most: a paginator that never ends (a new cursor
and new tools on every page) stops here, and `McpClient.listing_cut` says so."""
MAX_TOOLS = 10_000
"""How many tools a listing reads at most, across its pages, those the SDK cannot read (`unreadable`)
counted too: 100 pages of 10,000 tools were all read, kept and translated (a chat API takes 128 tools
a request; the largest servers list a few hundred)."""
MAX_LISTING_CHARS = 10_000_000
"""How many characters of JSON a listing's tools take at most in all (each tool as MCP writes it):
100 pages of 1 MB descriptions were all read and kept. The tool that passes it, and every later one,
is not read, and `McpClient.listing_cut` says so."""
CANCEL_GRACE_S = 2.0
"""How long an interrupted request may take to tell the server it is cancelled."""
SIGNAL_CHECK_S = 0.1
"""The caller's waits (`_result`) return to Python this often, to look at its signals."""

T = TypeVar("T")

log: logging.Logger = logging.getLogger("toolkit.mcp")
for _sdk_logger in ("mcp", "client"):  # the SDK's client session logs under the bare name "client"
    logging.getLogger(_sdk_logger).addHandler(logging.NullHandler())
"""The SDK logs a line it cannot parse, or a notification that is not valid MCP (a log level
MCP does not have), with a traceback; with no handler anywhere, logging's last resort would
print it on stderr. This client reports the problems that matter itself (`_on_message`; a bad
notification changes no call), so the SDK's records go only where the application configured
logging."""
SDK_REPEATS = 3
"""How many log records of one kind (one message template, one logger) the SDK may write from one
connection's thread before the rest are left out (`_Repeats`)."""


class _Repeats(logging.Filter):
    """Lets the SDK log a record of one kind at most `SDK_REPEATS` times from one MCP connection's thread
    (named `mcp-<server>`), and a last one saying the later ones are left out. A server that sends what
    the SDK cannot read, again and again (a progress of "50%", a stdio server printing to its stdout),
    had the SDK log a warning with a traceback for each one: hundreds in a notebook that configured
    logging. Records from other threads pass as they are."""

    KEPT = 4096
    """The kinds remembered at most; past that, counting starts again."""

    def __init__(self) -> None:
        super().__init__()
        self._counts: dict[tuple[int | None, str, str, Any], int] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        thread = record.threadName or ""
        if not thread.startswith("mcp-"):
            return True
        key = (record.thread, thread, record.name, record.msg)
        with self._lock:
            if len(self._counts) >= self.KEPT and key not in self._counts:
                self._counts.clear()
            count = self._counts[key] = self._counts.get(key, 0) + 1
        if count <= SDK_REPEATS:
            return True
        if count > SDK_REPEATS + 1:
            return False
        record.msg = (
            f"{record.getMessage()} (and later log lines like it on this MCP connection's thread {thread!r} are "
            "left out)"
        )
        record.args, record.exc_info, record.exc_text = None, None, None
        return True


_REPEATS = _Repeats()
for _sdk_logger in ("client", "mcp.client.stdio", "mcp.client.streamable_http", "mcp.shared.jsonrpc_dispatcher"):
    logging.getLogger(_sdk_logger).addFilter(_REPEATS)
mask_urls_in_logs(*HTTPX2_LOGGERS, "mcp.client.streamable_http", "mcp.client.sse", "mcp.client.stdio", "client")
"""httpx2 logs each request's URL (INFO), the SDK the URL it connects to and every message it sends
or reads (DEBUG): a server URL's password and `?token=` value are masked there as in this client's
own errors, and the secrets in a message's arguments or results as the trace masks them."""


class McpConnectionLost(McpConnectionError):
    """The server went away while a request waited for its answer: the request was sent, and
    whether the server did its work is unknown."""

    def __init__(self, server: str, reason: str) -> None:
        super().__init__(f"MCP server {server!r} went away during the call: {reason}")
        self.server = server
        self.reason = reason
        """Why, in a few words ("Connection closed")."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.server, self.reason))


NOT_FOUND_HINT = (
    "nothing answers MCP at that path: check the URL's path (a server made with the MCP SDK answers at /mcp, "
    "e.g. http://127.0.0.1:8000/mcp)"
)
"""Said after a 404 while connecting over HTTP: a URL without the server's path is the usual slip."""


ONE_USE_TRANSPORT = (
    "it was given to McpClient as a transport (an async context manager), which was opened before, and such a "
    "transport (one made with @asynccontextmanager, as the SDK's stdio_client and streamable_http_client are) "
    "opens only once; give McpClient a URL, McpClient.stdio(...) or a server object, which it connects to anew, "
    "or make a new McpClient with a new transport"
)
"""Why a caller's transport failed to open a second time (after `close()`, or when `McpToolProvider` tries a
server that went away again): entering it again raised contextlib's `AttributeError` ('args')."""


class McpClient:
    """One MCP server, used synchronously (see the module docstring)."""

    def __init__(
        self,
        server: Any,
        *,
        name: str | None = None,
        connect_timeout: float = 10.0,
        request_timeout: float = 30.0,
        log_level: str | None = "info",
    ) -> None:
        check_seconds("McpClient", "connect_timeout", connect_timeout)
        check_seconds("McpClient", "request_timeout", request_timeout)
        check_server(server)
        if log_level is not None and log_level not in LEVELS:
            raise ToolDefinitionError(
                f"McpClient(log_level={log_level!r:.40})",
                "log_level is the least level of the log messages the server is asked to send, one of MCP's: "
                f"{', '.join(LEVELS)} (or None for none)",
                "give one, e.g. log_level='warning'",
            )
        if name is not None and not (isinstance(name, str) and (name == "" or name.strip())):
            raise ToolDefinitionError(  # an int, a list (unhashable: McpToolProvider's left_out failed raw), a blank
                f"McpClient(name={name!r:.40})",
                "name is how logs, errors and tool metadata call the server, a str, and got "
                + ("a blank str" if isinstance(name, str) else a_or_an(type(name).__name__)),
                "give a word, e.g. name='time', or leave it out for one made from the server",
            )
        self.server = server
        """What `mcp.Client` connects to: `StdioServerParameters`, a URL or a server object."""
        self._secrets = _server_secrets(server)
        """What the server was given that is secret (a URL's password, `--token` values, `env`
        values of secret-named variables), longest first: masked in its name and every error."""
        self.name: str = name or self._hide(_default_name(server))
        """How logs, errors and tool metadata call this server."""
        self.connect_timeout = connect_timeout
        self.log_level = log_level
        """The least level of the log messages a 2026-07-28 server is asked to send with each request
        (None: none); each goes to the `toolkit.mcp.server_logs` logger (`toolkit.mcp.server_logs`)."""
        self.request_timeout = request_timeout
        """Default deadline of one request (listing tools, or a call without its own)."""
        self._tools: list[McpTool] | None = None
        self._log_flood = LogFlood()
        """The server's budget of log lines (`toolkit.mcp.server_logs`): a storm of messages is not written whole."""
        self._tools_changed = 0
        """How many times the server said its tools changed: a listing that one overtook is not cached."""
        self.unreadable: dict[str, str] = {}
        """The tools the last listing could not read (a listing that is not valid MCP for them
        alone): their names → why. The others are listed; `McpToolProvider` reports these. A tool
        offered without a field that says nothing a call needs (`title`, `icons`, `annotations`,
        `execution`), which was not valid MCP, is here too, as `name (field)`."""
        self.listing_cut: str = ""
        """Why the last listing is not whole ("" when it is): the server had more than `MAX_PAGES`
        pages of tools. `McpToolProvider` reports it."""
        self._client: mcp.Client | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._owner: concurrent.futures.Future[None] | None = None
        self._scope: anyio.CancelScope | None = None
        """The connection's cancel scope: `close()` cancels it from outside the loop."""
        self._closing: anyio.Event | None = None
        """Set by `close()` to end an HTTP connection gently (its session ended with a DELETE)."""
        self._stderr: Any = None
        """A stdio server's stderr goes to a temporary file, quoted when it cannot be reached."""
        self._waiting: set[_Waiting] = set()
        """The requests waiting for an answer (touched on the connection's loop only)."""
        self._stray = ""
        """What the last line the server wrote that is not JSON said (for a timeout's message)."""
        self._gone = ""
        """Why the connection is known to be gone ("" while it is not): later requests are not sent."""
        self._closed = ""
        """"Connection closed" once the transport's read stream ended (`toolkit.mcp.ids`), "" before
        (and always for a server object served in-process: a request finds out, as lost)."""
        self._unsent = ""
        """Why a request could not be sent ("" while none failed so): over HTTP, a POST that could not
        connect while no other request was sent and unanswered (`toolkit.mcp.http`)."""
        self._broken = ""
        """What was wrong with a message that broke the protocol while connecting ("" if none did)."""
        self._pending: dict[concurrent.futures.Future[Any], asyncio.AbstractEventLoop] = {}
        """Requests submitted to a loop and not finished: failed at once if their loop stops."""
        self._stopped: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, str] = weakref.WeakKeyDictionary()
        """Loops that stopped → why, recorded before their waiting requests are failed: a request
        recorded in `_pending` after that (its caller was slower than the loop) fails itself."""
        self._connecting: concurrent.futures.Future[mcp.Client] | None = None
        """While a thread opens the connection: what it waits for (`abandon_connecting`)."""
        self._killing_s = 0.0
        """How long closing waited for processes the server left running to end (`_children_killed`)."""
        self._opened = self._reopening = False
        """Whether a transport of the caller's (`server` with `__aenter__`) was opened before, and whether the
        connection being opened is such a second one: most open only once (`_unreachable`)."""
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        """Its name, secrets masked (a notebook shows it; the default held a memory address)."""
        return f"McpClient(name={self._hide(self.name)!r})"

    @classmethod
    def stdio(
        cls,
        command: str | os.PathLike[str],
        args: Sequence[str | os.PathLike[str]] = (),
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        **kwargs: Any,
    ) -> McpClient:
        """A server started as `command args...`, spoken to over its stdin/stdout. The command
        and each argument is a str or a path (as `subprocess` takes them); `env` maps names to strs."""
        command = _stdio_command(command)
        if isinstance(args, str | bytes) or not isinstance(args, Iterable):
            shown = f"[{args!r}]" if isinstance(args, str) else "[...]"
            read = ", which would be read letter by letter" if isinstance(args, str) else ""
            raise ToolDefinitionError(
                f"McpClient.stdio({command!r}, {type(args).__name__})",
                f"args takes a list of arguments, and got {a_or_an(type(args).__name__)}{read}",
                f"put it in a list: McpClient.stdio({command!r}, {shown}), or give the whole line to "
                "McpClient.from_command_line(...)",
            )
        words = _stdio_args(command, list(args))
        _check_env(command, env)
        params = mcp.StdioServerParameters(
            command=command, args=words, env=dict(env) if env is not None else None, cwd=cwd
        )
        return cls(params, **kwargs)  # its name, made from the command, with its secrets masked

    @classmethod
    def from_command_line(cls, line: str, **kwargs: Any) -> McpClient:
        """`McpClient.stdio` from one shell-quoted string, e.g. `"python -m mcp_server_time"`."""
        if not isinstance(line, str):  # shlex.split(None) would read the command from stdin
            raise ToolDefinitionError(
                f"McpClient.from_command_line({type(line).__name__} object)",
                f"it takes the command line as one str, and got {a_or_an(type(line).__name__)}",
                'write it as a shell would, e.g. McpClient.from_command_line("python -m mcp_server_time"); for a '
                "list of words use McpClient.stdio(words[0], words[1:])",
            )
        try:
            parts = shlex.split(line)
        except ValueError as exc:  # "No closing quotation", "No escaped character"
            raise ToolDefinitionError(
                f"McpClient.from_command_line({line!r:.80})",
                f"the line cannot be split as a shell would ({exc})",
                "close the quote, or give the words as a list: McpClient.stdio(command, [arg, ...])",
            ) from None
        if not parts:
            raise ToolDefinitionError(
                f"McpClient.from_command_line({line!r:.80})",
                "the line holds no command",
                'write the command line, e.g. McpClient.from_command_line("python -m mcp_server_time")',
            )
        return cls.stdio(parts[0], parts[1:], **kwargs)

    @classmethod
    def http(cls, url: str, **kwargs: Any) -> McpClient:
        """A server at a streamable-HTTP endpoint (usually ending in `/mcp`)."""
        return cls(url, **kwargs)

    # -- connection ----------------------------------------------------------------------
    def connect(self) -> McpClient:
        """Open the connection now (it otherwise opens on first use)."""
        with self._lock:
            if self._client is None:
                self._start()
        return self

    def close(self) -> None:
        """Close the connection and stop the server process, if this client started one.

        A stdio server is asked to stop by closing its stdin (the MCP specification's shutdown);
        one that does not exit costs the SDK's grace periods (`mcp.client.stdio`: 2 s, then
        SIGTERM, 2 s more, then SIGKILL), and a warning on the `toolkit.mcp` logger says so. What
        it started and left running (a helper run in the background) ends with it: its process
        group is sent SIGTERM, then SIGKILL after the SDK's grace, with a warning (`group_ended`)."""
        with self._lock:
            loop, owner, scope, closing = self._loop, self._owner, self._scope, self._closing
            gently = isinstance(self.server, str) and self._client is not None and not self.gone
            self._client = self._loop = self._owner = self._scope = self._closing = None
            self._tools = None
        if loop is None:
            return
        atexit.unregister(self.close)
        started, self._killing_s = time.monotonic(), 0.0
        _stop(loop, owner, scope, closing if gently else None)
        self._drop_stderr()
        grace = getattr(mcp.client.stdio, "PROCESS_TERMINATION_TIMEOUT", None)
        stdio = isinstance(self.server, mcp.StdioServerParameters)
        took = time.monotonic() - started - self._killing_s  # the server's own stop, not its children's
        if stdio and isinstance(grace, int | float) and took >= grace:
            log.warning("%s", self._slow_to_close(grace))

    def _drop_stderr(self) -> None:
        """Close the file a stdio server's stderr went to (the server stopped, or never started): its
        descriptor is not held until the client is garbage, and the next connection writes a new one, so
        a failure quotes what that server said, not a previous session's log."""
        stderr, self._stderr = self._stderr, None
        if stderr is not None:
            stderr.close()

    def _slow_to_close(self, grace: float) -> str:
        kill = getattr(mcp.client.stdio, "FORCE_KILL_TIMEOUT", None)
        later = f" {kill:g} s later" if isinstance(kill, int | float) else ""
        return (
            f"MCP server {self.name!r} was slow to close: a stdio server is asked to stop by closing its stdin, and "
            f"it did not exit within the MCP SDK's {grace:g} s grace, so it was sent SIGTERM (and SIGKILL{later}, "
            "if still running); a server should exit when its stdin closes"
        )

    @property
    def logs_left_out(self) -> int:
        """How many of the server's log messages were not written: it sent more than `MAX_LOG_LINES` a second."""
        return self._log_flood.left_out

    @property
    def gone(self) -> str:
        """Why the open connection is known to be gone ("" while it is not, or none is open): no
        request is sent on it. `close()` and use the client again to connect anew."""
        return (self._gone or self._closed) if self._client is not None else ""

    def __enter__(self) -> McpClient:
        return self.connect()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        loop = asyncio.new_event_loop()
        self._gone = self._broken = self._stray = self._closed = self._unsent = ""
        ended = functools.partial(self._loop_ended, loop)
        threading.Thread(target=_run_forever, args=(loop, ended), name=f"mcp-{self.name}", daemon=True).start()
        ready: concurrent.futures.Future[mcp.Client] = concurrent.futures.Future()
        self._connecting = ready
        owner = asyncio.run_coroutine_threadsafe(self._own(ready), loop)
        try:
            client = _result(ready, self.connect_timeout + 15)
        except BaseException as exc:
            _stop(loop, owner, self._scope)
            try:
                if not isinstance(exc, Exception) and not _raised_by(ready, exc):
                    raise  # Ctrl-C while waiting: the caller's interrupt, not the server's failure
                raise McpConnectionError(self._unreachable(exc)) from None
            finally:
                self._drop_stderr()
        finally:
            self._connecting = None
        self._client, self._loop, self._owner = client, loop, owner
        atexit.register(self.close)

    def abandon_connecting(self) -> None:
        """Give up a connection another thread is opening (its caller was interrupted): that
        thread stops it and raises `McpConnectionError`. An open connection is left alone."""
        ready = self._connecting
        if ready is not None:  # unless it connected (or failed) meanwhile
            _fail(ready, McpConnectionError("connecting was abandoned"))

    def _loop_ended(self, loop: asyncio.AbstractEventLoop, reason: BaseException | None) -> None:
        """`loop` stopped (its thread is ending): fail the requests still waiting on it."""
        why = f"its event loop stopped ({describe(reason)})" if reason is not None else "its event loop stopped"
        if reason is not None and self._loop is loop:
            self._gone = self._gone or why
        self._stopped[loop] = why  # before the look at `_pending`: `_call` looks here after adding to it
        for future, on in list(self._pending.items()):
            if on is loop:
                _fail(future, McpConnectionLost(self.name, why))

    async def _own(self, ready: concurrent.futures.Future[mcp.Client]) -> None:
        """The task that holds the connection: open it, report, wait until `close()` cancels."""
        closing = self._closing = anyio.Event()
        try:
            with anyio.CancelScope(deadline=anyio.current_time() + self.connect_timeout) as scope:
                self._scope = scope
                async with mcp.Client(
                    self._transport(),
                    read_timeout_seconds=self.request_timeout,
                    message_handler=self._on_message,
                    logging_callback=self._on_log,
                    log_level=self.log_level,  # type: ignore[arg-type]  # one of LEVELS, checked in __init__
                ) as client:
                    guard(client.session, self.name)  # a stranger's outputSchema's pattern searched within bounds
                    scope.deadline = math.inf  # connected: only close() ends it now
                    ready.set_result(client)
                    await closing.wait()  # close() over HTTP: the SDK's DELETE ends the session on the way out
            if not ready.done():
                ready.set_exception(
                    _BrokenWhileConnecting(self._broken)
                    if self._broken
                    else TimeoutError(f"no answer within {self.connect_timeout:g} s{self._slow_start_hint()}")
                )
        except BaseException as exc:  # noqa: BLE001 - reported to the waiting caller
            if not ready.done():
                ready.set_exception(exc)
            elif isinstance(exc, Exception):  # the connection ended (an HTTP server that stopped): nothing more is sent
                self._gone = self._gone or self._hide(_without_url_secrets(describe(exc), self.server))

    def _slow_start_hint(self) -> str:
        """What to change when a stdio server did not answer in time: one that installs itself on its
        first start (`npx -y`, `uvx`) takes longer than the default; "" for any other server."""
        if not isinstance(self.server, mcp.StdioServerParameters):
            return ""
        return (
            "; a server that installs itself on its first start (npx -y, uvx) may need longer: "
            "McpClient.stdio(..., connect_timeout=120)"
        )

    def _transport(self) -> Any:
        if isinstance(self.server, mcp.StdioServerParameters):
            if self._stderr is None:
                self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
            server = self.server
            if server.encoding_error_handler == "strict":  # a byte that is not UTF-8 stopped reading: every call hung
                server = server.model_copy(update={"encoding_error_handler": "replace"})
            transport = _surrogates_read(stdio_client(server, errlog=self._stderr))
            transport = group_ended(lines_capped(transport, self._line_too_long), self._children_killed)
        elif isinstance(self.server, str):
            transport = http_transport(self.server, self._refused)
        elif hasattr(self.server, "__aenter__"):  # a transport of the caller's: its answers are read off a wire too
            self._reopening, self._opened = self._opened, True
            transport = self.server
        else:
            return self.server  # a server object, served in-process: the SDK checks its answers where they are made
        transport = asks_noted(unknown_blocks_named(transport), self._asked)
        return ids_checked(transport, self._broke_protocol, self._transport_ended, self._quoted)

    def _asked(self, method: str) -> None:
        """The server asked for what this client does not give (`toolkit.mcp.asks`): said once per connection."""
        log.warning("%s", asked_line(self.name, method))

    def _children_killed(self, grace: float) -> None:
        """Processes the stdio server left running in its process group ignored SIGTERM (`group_ended`)."""
        self._killing_s += grace
        log.warning(
            "MCP server %r left processes of its own running after it stopped, and they ignored SIGTERM, so they "
            "were sent SIGKILL %g s later; a server should end what it started when its stdin closes",
            self.name,
            grace,
        )

    def _line_too_long(self, size: int, cap: int) -> None:
        """The stdio server wrote a line longer than `cap` bytes (`toolkit.mcp.lines`): it was not read, its
        stdout is closed, and every request waiting (or the handshake) fails at once with this."""
        self._broke_protocol(
            f"it wrote a line of more than {cap:,} bytes on stdout ({size:,} read before it was cut; "
            f"the most one line may take is toolkit.mcp.lines.MAX_LINE_BYTES = {cap:,}), so its output is "
            "no longer read: have it answer with less, or raise that cap"
        )
        self._gone = self._gone or f"it wrote a line of more than {cap:,} bytes on stdout"

    def _transport_ended(self) -> None:
        self._closed = "Connection closed"

    def _refused(self, reason: str) -> None:
        """Over HTTP, no request could be sent (the server stopped): the SDK's transport ends with it."""
        self._unsent = self._hide(_without_url_secrets(reason, self.server))

    def _unreachable(self, exc: BaseException) -> str:
        reason, tail = describe(exc), ""
        leaf = _leaf(exc)
        if folder := _missing_cwd(self.server, leaf):  # not "command not found": the command may be there
            reason = f"its working folder does not exist (cwd={folder!r})"
        if isinstance(leaf, ValidationError):  # an answer to `initialize` that is not valid MCP
            reason += _first_error(leaf, "the answer")
        elif isinstance(leaf, MCPError) and (unread := unreadable_answer(leaf)):  # a web page, say
            reason = unread
        elif (version := _unspoken_version(leaf)) is not None:
            reason = _version_problem(self._quoted(version))
        if self._reopening and isinstance(leaf, AttributeError | RuntimeError | TypeError):  # what contextlib raises
            reason = ONE_USE_TRANSPORT
        if isinstance(exc, _BrokenWhileConnecting):
            reason = f"it broke the protocol while connecting: {exc}"
        elif isinstance(self.server, str) and reason.endswith("Not Found"):  # an HTTP 404 before any session
            reason += f"; {NOT_FOUND_HINT}"
        if self._stderr is not None:
            self._stderr.flush()
            self._stderr.seek(max(0, self._stderr.seek(0, 2) - 2000))  # the tail only: a chatty server logs much
            tail = stderr_tail(self._quoted(self._stderr.read()))  # masked before it is cut: no half secret shows
        # a line it wrote on stdout is often the only clue ("usage: server --port N"), as on a request's timeout
        stray = f"; {self._stray}" if self._stray else ""
        text = f"cannot reach MCP server {self.name!r}: {reason}{stray}" + (f"; its stderr: {tail}" if tail else "")
        return self._hide(_without_url_secrets(text, self.server))

    def mask(self, text: str) -> str:
        """`text` with every secret the server was given masked: what its tools answer goes to the
        model, and a server may echo its environment or arguments (`get-env`)."""
        return self._hide(_without_url_secrets(text, self.server))

    def _quoted(self, text: str) -> str:
        """What the server wrote, to be quoted in an error or a log: the secrets it was given masked
        (`_hide`), then the keys of a well-known format (`sk-…`, `ghp_…`: `mask_tokens`), which a
        server may print of its own, read from its config."""
        return mask_tokens(self._hide(text))

    def _hide(self, text: str) -> str:
        """`text` with every secret the server was given masked (an error, its stderr, its name)."""
        for secret in self._secrets:
            text = mask_secret(text, secret, MASK)  # a placeholder (`--api-key none`) only as a credential
        return text

    async def _on_log(self, params: LoggingMessageNotificationParams) -> None:
        """The SDK's logging callback: the server's log message on `toolkit.mcp.server_logs`, naming this server."""
        forward(self.name, params.level, params.logger, params.data, self._quoted, flood=self._log_flood)

    async def _on_message(self, message: Any) -> None:
        """The SDK's message handler. A message the server sent that cannot be read fails every
        request waiting for an answer at once: which of them it answered cannot be known, and
        waiting would turn a broken reply into a timeout. The server saying its tools changed
        empties the tool list's cache."""
        if isinstance(message, ToolListChangedNotification):
            self._tools_changed += 1
            self._tools = None
            return
        if not isinstance(message, ValidationError):
            return
        if (batch := _batch(message)) is not None:
            what = _batch_words(batch)
            if _answers_in(batch):
                self._broke_protocol(what)  # an answer among them: the request it answers would wait in vain
            else:
                self._stray = what
            return
        if (line := _stray_line(message)) is not None and (why := deep.too_deep(message.errors())) is not None:
            if deep.answers(line):  # its request would wait in vain
                self._broke_protocol(deep.DEEP.format(why=why))
            else:
                self._stray = deep.DEEP.format(why=why)
            return
        if _stray_line(message) is not None or _stray_json(message) is not None:
            # a stray print (or JSON log record) answers nothing: the real answer may follow
            self._stray = _unreadable(message, self._quoted)
            return
        self._broke_protocol(_unreadable(message, self._quoted))

    def _broke_protocol(self, what: str) -> None:
        """The server sent a message that answers no request it can be matched with (`what` it
        did): every request waiting for an answer fails at once, and so does a handshake."""
        what = self._hide(what)
        connecting = self._connecting
        if connecting is not None and not connecting.done() and self._scope is not None:
            # the answer to `initialize` (or a message before it): the handshake waits in the SDK,
            # not among `_waiting`, and would run into the connect deadline ("no answer within 10 s")
            self._broken = self._broken or what
            self._scope.cancel()
        for waiting in list(self._waiting):
            waiting.fail(f"MCP server {self.name!r} broke the protocol: {what}")

    async def _guarded(
        self,
        request: Callable[[mcp.Client], Coroutine[Any, Any, Any]],
        client: mcp.Client,
        interrupt: _Waiting | None = None,
    ) -> Any:
        """`request(client)`, failed with `McpError` when `_on_message` gives up on it; `interrupt`
        gets the request's cancel scope, so an interrupted caller can cancel it (`_interrupt`)."""
        with anyio.CancelScope() as scope:
            waiting = _Waiting(scope)
            if interrupt is not None:
                interrupt.scope = scope
            self._waiting.add(waiting)
            try:
                return await request(client)
            except (SystemExit, KeyboardInterrupt) as exc:  # an in-process server's code, on this task
                raise McpConnectionLost(self.name, f"its code raised {describe(exc)}") from None
            finally:
                self._waiting.discard(waiting)
        raise McpError(waiting.problem or f"MCP server {self.name!r}: the request was cancelled")

    # -- requests ------------------------------------------------------------------------
    def _call(self, request: Callable[[mcp.Client], Coroutine[Any, Any, Any]], timeout: float) -> Any:
        """`_call_once`; over HTTP, a request answered 404 for its session (the server ended it, or
        restarted) is sent once more in a new session, as MCP says a client must: it was not handled."""
        try:
            return self._call_once(request, timeout)
        except _SessionEnded as exc:
            if self._client is exc.client:  # not done by another request meanwhile
                self.close()  # the next request connects again: a new session
        try:
            return self._call_once(request, timeout)
        except _SessionEnded as exc:
            raise McpError(f"{exc} (in a new session too)") from None

    def _call_once(self, request: Callable[[mcp.Client], Coroutine[Any, Any, Any]], timeout: float) -> Any:
        """Run `request(client)` on the connection's loop and wait for it (a little past `timeout`)."""
        self.connect()
        client, loop = self._client, self._loop
        if client is None or loop is None:
            raise McpConnectionError(f"MCP server {self.name!r}: the client is closed")
        if self._gone or self._closed or not loop.is_running():
            raise self._not_sent(loop)
        interrupt = _Waiting(None)
        guarded = self._guarded(request, client, interrupt)
        try:
            future = asyncio.run_coroutine_threadsafe(guarded, loop)
        except RuntimeError:  # "Event loop is closed": it stopped since the look above
            guarded.close()
            raise self._not_sent(loop) from None
        self._pending[future] = loop
        if (stopped := self._stopped.get(loop)) is not None:  # the loop ran the request, then stopped,
            _fail(future, McpConnectionLost(self.name, stopped))  # before this thread recorded it
        try:
            return _result(future, timeout + 5)  # the SDK's own deadline comes first
        except McpConnectionLost:
            if loop.is_closed() and inspect.getcoroutinestate(guarded) == inspect.CORO_CREATED:
                guarded.close()  # the loop stopped before it started the request: it was never sent
                raise self._not_sent(loop) from None
            raise
        except concurrent.futures.TimeoutError:
            _cancel(loop, future)
            raise self._timed_out(timeout) from None
        except MCPError as exc:
            if _sdk_said(exc, REQUEST_TIMEOUT):
                raise self._timed_out(timeout) from None
            if _sdk_said(exc, CONNECTION_CLOSED) and self._unsent:  # no request was sent (`_refused`)
                self._gone = self._gone or self._unsent
                raise McpConnectionError(
                    f"MCP server {self.name!r} cannot be reached ({self._unsent}); it was not sent"
                ) from None
            if _sdk_said(exc, CONNECTION_CLOSED):
                raise self._lost(_describe_mcp(exc), ended=self._ended()) from None
            if isinstance(self.server, str) and exc.code == INVALID_REQUEST and exc.message == SESSION_ENDED:
                raise _SessionEnded(
                    self._hide(f"MCP server {self.name!r} answered with an error: {exc}"), client
                ) from None
            if unread := unreadable_answer(exc):
                raise McpError(self._hide(f"MCP server {self.name!r} broke the protocol: {unread}")) from None
            if (asked := _REFUSED_INPUT.get(exc.message)) is not None and exc.code == INVALID_REQUEST:
                raise McpError(
                    f"MCP server {self.name!r} asked this client during the request for {asked}, which this client "
                    "does not give (it declares no such capability), so the request did not finish; the tool needs "
                    "an MCP client that supports it"
                ) from None
            error = McpError(
                self._quoted(f"MCP server {self.name!r} answered with an error: {_error_words(exc, self._quoted)}")
            )
            error.code = exc.code  # -32602 to a call: maybe a tool no longer listed
            raise error from None
        except ValidationError as exc:
            if exc.title.startswith("union["):  # a 2026 answer, read as one of several models: their names say nothing
                wrong = f"its answer is not valid MCP{_first_error(exc, 'the result', models=True)}"
            else:
                wrong = describe(exc) + _first_error(exc, "the result")  # what, not only where
            raise McpError(self._hide(f"MCP server {self.name!r} broke the protocol: {wrong}")) from None
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError, BaseExceptionGroup) as exc:
            raise self._lost(describe(exc)) from None
        except BaseException as exc:
            if not isinstance(exc, Exception) and not _raised_by(future, exc):  # Ctrl-C while waiting
                _interrupt(loop, future, interrupt)  # the server is told to cancel, then the interrupt goes on
            raise
        finally:
            self._pending.pop(future, None)

    def _not_sent(self, loop: asyncio.AbstractEventLoop) -> McpConnectionError:
        """The connection is known to be gone (or `loop` stopped): the request is not sent, nor later
        ones on this connection (a connection opened since, after a `close()`, is not marked)."""
        gone = self._gone or self._closed or self._stopped.get(loop, "its event loop stopped")
        if self._loop is loop:
            self._gone = gone
        return McpConnectionError(f"MCP server {self.name!r} went away before this call ({gone}); it was not sent")

    def _lost(self, reason: str, *, ended: bool = True) -> McpConnectionLost:
        """The connection went away while the request waited: it was sent, its outcome is unknown.
        Later requests are not sent when the connection `ended` with it."""
        if ended:
            self._gone = self._gone or self._hide(reason)
        return McpConnectionLost(self.name, self._hide(reason))

    def _ended(self) -> bool:
        """Whether a request's "Connection closed" ended the connection. Over HTTP it may be the
        request's stream alone (an event stream that ended without an answer, or held an event
        too large): the next request is a new POST, so the connection ends only when its
        transport's read stream ended; a stdio or in-process connection ends with any."""
        return not isinstance(self.server, str) or bool(self._closed)

    def _timed_out(self, timeout: float) -> McpTimeout:
        """The timeout, and the stray line the server wrote meanwhile, if it wrote one."""
        stray = f"; {self._hide(self._stray)}" if self._stray else ""
        return McpTimeout(f"MCP server {self.name!r} did not answer within {timeout:g} s{stray}")

    def list_tools(self, timeout: float | None = None) -> list[McpTool]:
        """The server's tools (every page), from the cache when it holds them.

        Listing every page must finish within `timeout` s (default `request_timeout`), else
        `McpTimeout`; a failed listing is not cached, so the next call asks again. Once the
        connection is known to be gone, it is `McpConnectionError`, not the cache: no call
        could reach the tools it holds.
        """
        if timeout is not None:
            check_seconds("McpClient.list_tools", "timeout", timeout)
        if self._client is not None and (gone := self._gone or self._closed):  # the cache: tools no call reaches
            raise McpConnectionError(
                f"MCP server {self.name!r} went away ({gone}), and its tools cannot be listed; to reconnect, call "
                "its client's close() and use it again, or make a new client"
            )
        cached = self._tools  # read once: the server's word that its tools changed empties it on another thread
        if cached is not None:
            return list(cached)
        seconds = self.request_timeout if timeout is None else timeout
        unreadable: dict[str, str] = {}

        async def within(client: mcp.Client) -> tuple[list[McpTool], bool]:
            try:
                with anyio.fail_after(seconds):
                    return await _list_all(client, unreadable)
            except TimeoutError:
                raise MCPError(REQUEST_TIMEOUT, "Request 'tools/list' timed out") from None  # as the SDK says it

        changed = self._tools_changed
        tools, cut_at = self._call(within, timeout=seconds)
        if changed == self._tools_changed:  # else they changed while being listed: asked again next time
            self._tools = tools
        if isinstance(cut_at, _TooMuch):
            self.listing_cut = (
                f"MCP server {self.name!r} lists {cut_at.what}; only the first {len(tools) + len(unreadable):,} were read (on "
                f"{cut_at.pages} page{'' if cut_at.pages == 1 else 's'}), and the others are not offered"
            )
        elif cut_at is _TOO_MANY_PAGES:
            self.listing_cut = (
                f"MCP server {self.name!r} lists its tools on more than {MAX_PAGES} pages; only the first "
                f"{MAX_PAGES} pages ({len(tools)} tools) were read, and the tools on later pages are not offered"
            )
        elif cut_at is not None:
            self.listing_cut = self._quoted(
                f"MCP server {self.name!r} answered tools/list with a nextCursor that is "
                f"{cut(json.dumps(cut_at, ensure_ascii=False, default=str), 60)}, where MCP's cursor is a string (or "
                "a whole number, given back as it came); the tools on later pages cannot be asked for, and are not offered"
            )
        else:
            self.listing_cut = ""
        self.unreadable = {
            _unread_key(name): self._hide(f"MCP tool {_unread_key(name, alone=True)!r} of server {self.name!r}: {why}")
            for name, why in unreadable.items()
        }
        return list(tools)

    def evict_tool_list_cache(self) -> None:
        """Forget the cached tool list: the next `list_tools()` asks the server again."""
        self._tools = None

    def call_tool(self, name: str, arguments: dict[str, Any], timeout: float | None = None) -> CallToolResult:
        """Call `name` with `arguments` (send `{}` for none); `McpTimeout` after `timeout` s."""
        _check_call(name, arguments)
        if timeout is not None:
            check_seconds("McpClient.call_tool", "timeout", timeout)
        seconds = self.request_timeout if timeout is None else timeout
        arguments = dict(arguments) if isinstance(arguments, Mapping) else arguments
        if problem := _not_json(arguments):
            raise McpError(f"the call to {name!r} was not sent to MCP server {self.name!r}: {problem}")

        async def call(client: mcp.Client) -> CallToolResult:
            try:
                with anyio.fail_after(seconds):  # the whole call: the SDK's deadline is per round (an answer
                    # asking for more input, a re-list after HEADER_MISMATCH each get one of their own)
                    return await client.call_tool(name, arguments, read_timeout_seconds=seconds)
            except TimeoutError:
                raise MCPError(REQUEST_TIMEOUT, "Request 'tools/call' timed out") from None  # as the SDK says it
            except RuntimeError as exc:  # the SDK refused the answer (`refused_answer`)
                refused = refused_answer(name, exc, self._quoted)
                raise McpError(self._hide(f"MCP server {self.name!r} broke the protocol: {refused}")) from None
            except MCPError as exc:
                if exc.code == INVALID_PARAMS:  # MCP's answer to an unknown tool: the list may have changed
                    self._tools = None
                raise

        result: CallToolResult = self._call(call, seconds)
        return result


def _check_call(name: Any, arguments: Any) -> None:
    """A name that is a str and arguments that are a dict (or None), else refused before anything is
    sent: the SDK refused them as the server's fault ("broke the protocol: ValidationError …")."""
    if not isinstance(name, str):
        raise ToolDefinitionError(
            f"McpClient.call_tool({name!r:.40})",
            f"name is the tool's name as the server lists it, a str, and got {a_or_an(type(name).__name__)}",
            "give the name, e.g. client.call_tool('get_current_time', {})",
        )
    if arguments is None or isinstance(arguments, Mapping):
        return
    kind = type(arguments).__name__
    fix = (
        f"parse JSON text first: client.call_tool({name!r}, json.loads(text))"
        if isinstance(arguments, str | bytes)
        else f"give a dict of names to values, e.g. client.call_tool({name!r}, {{'city': 'Paris'}}), or {{}} for none"
    )
    raise ToolDefinitionError(
        f"McpClient.call_tool({name!r:.40}, {kind})",
        f"arguments is a dict of the tool's arguments, and got {a_or_an(kind)}",
        fix,
    )


def refused_answer(tool: str, exc: RuntimeError, hide: Callable[[str], str] = str) -> str:
    """Why the SDK refused a tool's answer, in one line. It raises `RuntimeError` when the answer's
    `structuredContent` does not match the tool's listed `outputSchema` (or is missing), when that
    schema is not valid JSON Schema (then no answer of the tool can be checked), and when the server
    kept answering `InputRequiredResult`; its text holds jsonschema's many-line report. What it
    quotes has its secrets masked (`hide`) before it is cut."""
    lazy_iri.defer()
    from jsonschema.exceptions import SchemaError
    from jsonschema.exceptions import ValidationError as InstanceError

    cause, ran = exc.__cause__ or exc.__context__, "; the call ran, but its result cannot be used"
    unusable = "so no answer of it can be checked; ask its author to fix it"
    if isinstance(cause, InstanceError):
        at = "/".join(str(part) for part in cause.absolute_path) or "the root"
        return (
            f"tool {tool!r} answered with structured content that does not match its outputSchema "
            f"({cut(hide(cause.message), 200)}, at {at}){ran}"
        )
    if isinstance(cause, SchemaError):
        at = "/".join(str(part) for part in cause.absolute_path) or "the root"
        wrong = f"{cut(hide(cause.message), 200)}, at {at}"
        return f"tool {tool!r} lists an outputSchema that is not valid JSON Schema ({wrong}), {unusable}"
    if isinstance(ref := getattr(cause, "ref", None), str):  # referencing's Unresolvable (jsonschema's dependency)
        ref = "#" + ref if ref.startswith("/") else ref
        return f"tool {tool!r} lists an outputSchema that refers to {ref!r}, which it does not define, {unusable}"
    if isinstance(rounds := getattr(exc, "max_rounds", None), int):  # InputRequiredRoundsExceededError
        return (
            f"tool {tool!r} answered that it needs more input (InputRequiredResult) more than {rounds} times in a "
            "row; this client stopped asking"
        )
    if "did not return structured content" in str(exc):
        return f"tool {tool!r} has an outputSchema but answered without structured content{ran}"
    return cut(hide((str(exc).strip().splitlines() or [type(exc).__name__])[0]), 300)


def _not_json(arguments: Any) -> str:
    """What keeps `arguments` from being sent as JSON ("" when nothing does). The SDK serialises a
    request in the transport's writer task, where a failure ends the connection: one argument
    holding an unpaired surrogate (`"\\ud800"`, valid JSON a model may write) cost every later
    call. A NaN would be sent as null."""
    try:
        json.dumps(arguments, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.end] if isinstance(exc.object, str) else ""
        return f"its arguments hold {bad!r}, an unpaired surrogate, which is no character; send text"
    except ValueError as exc:  # NaN, Infinity; a value that contains itself (a direct caller's)
        if "ircular" in str(exc):
            return "its arguments contain themselves, which JSON cannot write; send JSON values"
        return "its arguments hold a number JSON cannot carry (NaN or Infinity); send a finite number"
    except TypeError as exc:  # a set, bytes, an object (a direct caller's)
        return f"its arguments are not JSON ({exc}); send JSON values"
    return ""


def check_server(server: Any) -> None:
    """What `McpClient(server)` connects to, refused at construction when it cannot be one: None,
    a number, bytes, a list of words, a class (each failed only on connecting, with the SDK's "does
    not support the asynchronous context manager protocol"), or a str that is no http(s) URL."""
    if isinstance(server, str):
        if server.strip().lower().startswith(("http://", "https://")):
            if problem := url_problem(server):
                raise ToolDefinitionError(
                    f"McpClient({shown_url(server)!r:.80})",
                    f"the URL{problem}",
                    "give one like http://127.0.0.1:8000/mcp",
                )
            return
        raise ToolDefinitionError(
            f"McpClient({_default_name(server)!r:.80})",
            "a str is the URL of a streamable-HTTP server (http://…/mcp)",
            "give the URL, or for a command to start: McpClient.from_command_line(...)",
        )
    if server is None or isinstance(server, type | bytes | bytearray | int | float | list | tuple | dict | set):
        kind = f"the class {server.__name__}" if isinstance(server, type) else type(server).__name__
        fix = (
            "for a command: McpClient.stdio(words[0], words[1:])"
            if isinstance(server, list | tuple)
            else "give a URL (McpClient.http(url)), a command (McpClient.stdio(...)) or a server object"
        )
        raise ToolDefinitionError(f"McpClient({kind})", f"{kind} is no MCP server to connect to", fix)


def url_problem(url: str) -> str:
    """What keeps an MCP server's `url` from being connected to, said after "the URL" ("" when
    nothing does): one rule, in the same words, for `McpClient` and the CLI's `--mcp-http`. Each
    failed only on connecting, as if the server could not be reached ("OverflowError: connect():
    port must be 0-65535", "Name or service not known" for a host no name can be). The parser's
    words have the URL's secrets masked."""
    if url != url.strip():
        return " starts or ends with a space"
    if not url.lower().startswith(("http://", "https://")):
        return " does not start with http:// or https://"
    try:
        parsed = httpx2.URL(url)
    except (httpx2.InvalidURL, ValueError) as exc:
        reason = (str(exc).splitlines() or [""])[0]
        for secret in url_secrets(url):
            reason = mask_secret(reason, secret, MASK)
        return f" cannot be read ({cut(reason, 80)})"
    if not parsed.host:
        return " names no host"
    if parsed.port is not None and not 0 < parsed.port < 65536:
        return f"'s port is {parsed.port}, and a port is 1-65535"
    if unreadable := host_problem(parsed.host):  # a space (written %20), an empty or too long part
        return f"'s host cannot be looked up {unreadable}"
    return ""


def shown_url(url: str) -> str:
    """`url` with its credentials masked, and the spaces around it kept (they may be the mistake)."""
    core = url.strip()
    start = url.index(core) if core else 0
    return url[:start] + mask_url(core) + url[start + len(core) :]


_STDIO_EXAMPLE = "name it, e.g. McpClient.stdio('python', ['server.py'])"


def _stdio_command(command: Any) -> str:
    """`McpClient.stdio`'s command as a str: a path is taken as `subprocess` takes it; anything
    else, or a blank str, is refused here (it was pydantic's "Input should be a valid string", or
    "Permission denied: ''" on connecting)."""
    if isinstance(command, os.PathLike) and isinstance(os.fspath(command), str):
        command = os.fspath(command)
    if isinstance(command, str) and command.strip():
        return command
    if isinstance(command, str):
        raise ToolDefinitionError(
            f"McpClient.stdio({command!r})", "command is the program to start, and got a blank str", _STDIO_EXAMPLE
        )
    raise ToolDefinitionError(
        f"McpClient.stdio({command!r:.60})",
        f"command is the program to start, a str or a path, and got {a_or_an(type(command).__name__)}",
        _STDIO_EXAMPLE,
    )


def _stdio_args(command: str, args: list[Any]) -> list[str]:
    """Each argument as a str (a path as `subprocess` takes it); one that is neither is refused, a
    number with its value (`8080`), anything else by its type alone (an argument may be a secret)."""
    words = [os.fspath(arg) if isinstance(arg, os.PathLike) else arg for arg in args]
    for index, word in enumerate(words):
        if not isinstance(word, str):
            number = isinstance(word, int | float) and not isinstance(word, bool)
            shown = f" ({word!r})" if number else ""
            raise ToolDefinitionError(
                f"McpClient.stdio({command!r}, [...])",
                f"each argument is a str (or a path), and args[{index}] is {a_or_an(type(word).__name__)}{shown}",
                f"write it as a str, e.g. {str(word)!r:.40}",
            )
    return words


def _check_env(command: str, env: Any) -> None:
    """`env` is None or a dict of str → str; a value is never shown (it may be a secret)."""
    if env is None:
        return
    example = "env={'DEBUG': '1'}"
    if not isinstance(env, Mapping):
        raise ToolDefinitionError(
            f"McpClient.stdio({command!r}, env={type(env).__name__})",
            f"env maps variable names to str values, and got {a_or_an(type(env).__name__)}",
            f"give a dict, e.g. {example}",
        )
    for key, value in env.items():
        if not isinstance(key, str) or not isinstance(value, str):
            wrong = f"the name {key!r:.40} is" if not isinstance(key, str) else f"env[{key!r:.40}] is"
            kind = key if not isinstance(key, str) else value
            raise ToolDefinitionError(
                f"McpClient.stdio({command!r}, env={{...}})",
                f"env maps variable names to str values, and {wrong} {a_or_an(type(kind).__name__)}",
                f"write each value as a str, e.g. {example}",
            )


def check_seconds(where: str, keyword: str, seconds: Any, *, zero: bool = False) -> None:
    """A finite number of seconds above 0 (or 0 too, when `zero`), at most `LONGEST_SLEEP_S` (as
    `ChatClient`'s timeout). Anything else is refused where it is given: a string failed later as
    "cannot be reached", `inf` and `1e10` as an OverflowError ("timestamp out of range for platform time_t")."""
    number = isinstance(seconds, int | float) and not isinstance(seconds, bool)
    if number and isinstance(seconds, int) and seconds > LONGEST_SLEEP_S:  # `math.isfinite(10**400)` raises
        shown = huge_int(seconds) if seconds > sys.float_info.max else repr(seconds)
        raise _too_long(where, keyword, shown)
    if not number or not math.isfinite(seconds) or seconds < 0 or (seconds == 0 and not zero):
        raise ToolDefinitionError(
            f"{where}({keyword}={seconds!r})",
            f"{keyword} is a finite number of seconds {'at least 0' if zero else 'above 0'}",
            f"give a number, e.g. {keyword}=30",
        )
    if seconds > LONGEST_SLEEP_S:
        raise _too_long(where, keyword, repr(seconds))


def _too_long(where: str, keyword: str, shown: str) -> ToolDefinitionError:
    """`check_seconds`' refusal of more seconds than `LONGEST_SLEEP_S` (`shown` as given)."""
    return ToolDefinitionError(
        f"{where}({keyword}={shown})",
        f"{keyword} is at most {LONGEST_SLEEP_S:g} seconds (about 32 years): a longer wait overflows the clock "
        "that counts it",
        f"give a number, e.g. {keyword}=30",
    )


class _SessionEnded(McpError):
    """An HTTP server answered 404 for the client's session: it ended it (`McpClient._call`)."""

    def __init__(self, message: str, client: mcp.Client) -> None:
        super().__init__(message)
        self.client = client
        """The connection whose session ended."""


class _BrokenWhileConnecting(Exception):
    """The server sent a message that is not JSON-RPC before the handshake finished (its text: what was wrong)."""


@dataclass(eq=False)
class _Waiting:
    """A request waiting for its answer, and why it was given up (set by `fail`)."""

    scope: anyio.CancelScope | None
    problem: str = ""

    def fail(self, problem: str) -> None:
        self.problem = problem
        if self.scope is not None:
            self.scope.cancel()


def _fail(future: concurrent.futures.Future[Any], exc: BaseException) -> None:
    """Finish `future` with `exc`, unless it finished already."""
    try:
        future.set_exception(exc)
    except concurrent.futures.InvalidStateError:  # finished meanwhile
        pass


def _raised_by(future: concurrent.futures.Future[Any], exc: BaseException) -> bool:
    """True when `exc` is what `future` finished with (not an interrupt of the thread waiting on it)."""
    return future.done() and not future.cancelled() and future.exception() is exc


def _interrupt(loop: asyncio.AbstractEventLoop, future: concurrent.futures.Future[Any], waiting: _Waiting) -> None:
    """Cancel an interrupted request and give the SDK `CANCEL_GRACE_S` to write
    `notifications/cancelled` (a second Ctrl-C ends the wait)."""

    def cancel() -> None:
        if waiting.scope is not None:
            waiting.fail("the request was interrupted")
        elif not future.done():
            future.cancel()  # not started yet: it never will be

    try:
        loop.call_soon_threadsafe(cancel)
    except RuntimeError:  # the loop is closed: nothing left to cancel
        return
    _waited(future, CANCEL_GRACE_S)


def _result(future: concurrent.futures.Future[T], seconds: float) -> T:
    """`future.result(timeout=seconds)`, waited for in slices (`_waited`)."""
    _waited(future, seconds)
    return future.result(timeout=0)


def _waited(future: concurrent.futures.Future[Any], seconds: float) -> None:
    """Wait until `future` is done or `seconds` have passed, returning to Python every `SIGNAL_CHECK_S`:
    a blocked wait is woken by a signal only when it comes after the wait began, on this thread, so a
    Ctrl-C (or SIGTERM) landing just before, or taken by another thread, was seen only when it ended:
    `connect_timeout` + 15 s later, or the call's timeout + 5 s. Done at once: one look, no wait."""
    deadline = time.monotonic() + seconds
    while not future.done():
        left = deadline - time.monotonic()
        if left <= 0:
            return
        concurrent.futures.wait([future], timeout=min(SIGNAL_CHECK_S, left))


def _cancel(loop: asyncio.AbstractEventLoop, future: concurrent.futures.Future[Any]) -> None:
    """`future.cancel()`, on its loop's thread; nothing once the loop has closed (nothing there is left to
    cancel). Not a look at `loop.is_closed()` first: a loop closing just after it made the future's
    callback fail, and `concurrent.futures` logged its traceback."""
    with contextlib.suppress(RuntimeError):  # "Event loop is closed"
        loop.call_soon_threadsafe(future.cancel)


@contextlib.asynccontextmanager
async def _surrogates_read(transport: Any) -> AsyncIterator[tuple[Any, Any]]:
    """`transport`'s streams, with each message that holds an unpaired surrogate read, the
    surrogate as U+FFFD. Python's `json.dumps` writes one as `"\\udce9"` (a file name read with
    `surrogateescape`); the SDK's parser refuses the line as "not JSON", so the answer was lost
    and its request waited out its deadline."""
    async with transport as (read, write):
        sender, inbox = anyio.create_memory_object_stream[Any](0)

        async def forward() -> None:
            async with sender:
                async for item in read:
                    await sender.send(_with_surrogates_read(item))

        async with anyio.create_task_group() as group:
            group.start_soon(forward)
            try:
                yield inbox, write
            finally:
                group.cancel_scope.cancel()


def _with_surrogates_read(item: Any) -> Any:
    """A message the SDK could not parse, parsed with its unpaired surrogates as U+FFFD; any other
    item (a message, a line that is really not JSON) as it is."""
    line = _stray_line(item) if isinstance(item, ValidationError) else None
    if not line or "\\ud" not in line.lower():
        return item
    try:
        message = json.loads(line, object_pairs_hook=lambda pairs: {k: unicode_text(v) for k, v in pairs})
        return SessionMessage(jsonrpc_message_adapter.validate_python(message, by_name=False))
    except (ValueError, RecursionError):  # still no message (a ValidationError is a ValueError), or one
        return item  # nested deeper than Python's parser goes (it ended the connection): as the SDK said


def unicode_text(value: Any) -> Any:
    """`value` with each unpaired surrogate in a str as U+FFFD (lists' items too); other values as
    they are. JSON escapes can carry one; no UTF-8 writer can."""
    if isinstance(value, list):
        return [unicode_text(v) for v in value]
    if not isinstance(value, str):
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return value


def stderr_tail(text: str, most: int = 400) -> str:
    """The end of a server's stderr on one line: its last lines that are not blank, as many as fit
    in `most` characters, joined by " / " (a traceback's last frame and its error, say); a last
    line longer than that alone is cut from its start, after "…"."""
    kept: list[str] = []
    size = 0
    for line in reversed([line.strip() for line in text.splitlines() if line.strip()]):
        if kept and size + 3 + len(line) > most:
            break
        kept.append(line)
        size += len(line) + (3 if len(kept) > 1 else 0)
    shown = " / ".join(reversed(kept))
    return shown if len(shown) <= most else "…" + shown[len(shown) - most + 1 :]


_SDK_WORDS = {
    CONNECTION_CLOSED: re.compile(r"Connection closed|SSE stream (failed: .*|ended without a response)", re.DOTALL),
    REQUEST_TIMEOUT: re.compile(r"Request '.*' timed out|Timed out after .*", re.DOTALL),
}
"""What the SDK says when it raises these codes itself (its dispatchers, its HTTP transport)."""


def _sdk_said(exc: MCPError, code: int) -> bool:
    """Whether `exc` is the SDK's own `code`, -32000 (the connection closed) or -32001 (the request
    outlived its deadline), and not a server's error answer with that code: JSON-RPC leaves -32000
    to -32099 to servers, and -32000 is their usual "Server error". Such an answer was read as the
    connection's end (every later call not sent) or as a timeout, though the server had answered."""
    return exc.code == code and bool(_SDK_WORDS[code].fullmatch(exc.message))


_REFUSED_INPUT = {
    "Elicitation not supported": "elicitation (a question put to the user)",
    "Sampling not supported": "sampling (a completion from the client's own model)",
    "List roots not supported": "roots (the folders the client shares)",
}
"""How the SDK's default callbacks refuse what a server asks the client for (-32600, with these words):
a 2026-07-28 server's `InputRequiredResult`, which the SDK raises as an error of the server's; an older
server's request during a call, which such a server may answer the call with. Both are this client's
refusal: it declares none of these capabilities (a callback of its own would declare one)."""


def _describe_mcp(exc: MCPError) -> str:
    """The SDK's error in a few words ("Connection closed")."""
    return str(exc).strip() or type(exc).__name__


def _stray_line(exc: ValidationError) -> str | None:
    """The line, when the SDK could not parse a message because it is not JSON at all."""
    return next((str(e.get("input", "")) for e in exc.errors() if e["type"] == "json_invalid"), None)


def _stray_json(exc: ValidationError) -> str | None:
    """The JSON, when the SDK could not read a message that is JSON but answers no request: it
    has no `id` (a JSON log record, `{"level": 30, "msg": "…"}`), or is no object at all."""
    for error in exc.errors():
        if len(error["loc"]) == 1 or (error["type"] == "missing" and len(error["loc"]) == 2):
            whole = error.get("input")  # the whole message: the union's branch refused it whole
            return None if isinstance(whole, dict) and "id" in whole else json.dumps(whole, ensure_ascii=False)
    return None


def _batch(exc: ValidationError) -> list[Any] | None:
    """The messages of a batch (a JSON array), when the SDK could not read one: MCP has none since 2025-06-18."""
    whole = next((e.get("input") for e in exc.errors() if len(e["loc"]) == 1), None)
    return whole if isinstance(whole, list) else None


def _answers_in(batch: list[Any]) -> bool:
    """Whether a batch holds an answer (a message with an id and no method)."""
    return any(isinstance(item, dict) and "id" in item and "method" not in item for item in batch)


def _batch_words(batch: list[Any]) -> str:
    """What a server that sent `batch` did, in a few words (whether answers were among its messages)."""
    return (
        f"it sent a batch (a JSON array of {len(batch)} message{'s' * (len(batch) != 1)}"
        f"{', answers among them' if _answers_in(batch) else ''}), which MCP has not had since its 2025-06-18 version: none "
        f"of them was read; a server sends each message on its own"
    )


def _unreadable(exc: ValidationError, hide: Callable[[str], str]) -> str:
    """What was wrong with a message the SDK could not parse, in a few words; the line it quotes
    has its secrets masked (`hide`) before it is cut, so a secret the cut goes through is still found."""
    line = _stray_line(exc)
    stray = _stray_json(exc) if line is None else None
    if line is not None or stray is not None:
        shown = line if line is not None else stray or ""
        shown = cut(hide(shown), 80)
        kind = "is not JSON" if line is not None else "is no JSON-RPC message"
        return (
            f"it wrote a line that {kind} ({shown!r}); a stdio server must write only MCP messages "
            "to stdout (logs go to stderr)"
        )
    if (rid := _bad_reply_id(exc)) is not None:
        return (
            f"it sent a reply whose id is {cut(rid, 40)}, where a JSON-RPC id is a string or an integer (the id "
            "of the request it answers)"
        )
    return "it sent a message that is not valid JSON-RPC 2.0 (a reply with a malformed result or error)"


def _bad_reply_id(exc: ValidationError) -> str | None:
    """A refused reply's id, as JSON, when the id is what was wrong (`2.0`, `true`, `null`): the
    SDK reads one only as a string or an integer."""
    for error in exc.errors():
        if error["loc"][:2] in (("JSONRPCResponse", "id"), ("JSONRPCError", "id")):
            return json.dumps(error.get("input"))
    return None


_TOO_MANY_PAGES = object()
"""`_list_all`'s word for a listing cut at `MAX_PAGES` pages."""


@dataclass(frozen=True)
class _TooMuch:
    """`_list_all`'s word for a listing cut at `MAX_TOOLS` tools or `MAX_LISTING_CHARS` characters."""

    what: str
    """What was past the cap ("more than 5 tools")."""
    pages: int
    """How many pages were read."""


def _cursor(after: Any) -> str | int | None:
    """A page's `nextCursor` as the next request gives it back: a string, or a number as it came (MCP's
    cursor is an opaque string, and a server of another SDK or written by hand sent an offset); None
    when it ends the listing, absent, null or empty (some servers send `""` on their last page, and
    refuse it as a cursor; LangChain's adapters read it so too). Anything else: ValueError."""
    if after is None or after == "":
        return None
    if isinstance(after, str) or (isinstance(after, int) and not isinstance(after, bool)):
        return after
    raise ValueError(after)


async def _list_all(client: mcp.Client, unreadable: dict[str, str]) -> tuple[list[McpTool], Any]:
    """Every page of tools (the tools a page cannot give go into `unreadable`), and where the listing
    was cut: None when it was not, `_TOO_MANY_PAGES` at `MAX_PAGES` pages with more to come, a
    `_TooMuch` past `MAX_TOOLS` tools or `MAX_LISTING_CHARS` characters in all (no later page is asked
    for), or the `nextCursor` that cannot be given back (`_cursor`: `1.5`, an object). A paginator that
    repeats a cursor or a page is stopped there: it would repeat forever, and it lists nothing new."""
    tools: list[McpTool] = []
    cursors: set[str] = set()
    pages: set[tuple[str, ...]] = set()
    cursor: str | int | None = None
    chars = 0
    for number in range(1, MAX_PAGES + 1):
        page, after = await _readable_page(client, cursor, unreadable)
        names = tuple(t.name for t in page.tools)
        if names and names in pages:
            return tools, None
        pages.add(names)
        if len(unreadable) > MAX_TOOLS - len(tools):  # tools the SDK cannot read count too (`unreadable`)
            for name in list(unreadable)[MAX_TOOLS - len(tools) :]:
                del unreadable[name]
            return tools, _TooMuch(f"more than {MAX_TOOLS:,} tools", number)
        for tool in page.tools:
            if len(tools) + len(unreadable) >= MAX_TOOLS:
                return tools, _TooMuch(f"more than {MAX_TOOLS:,} tools", number)
            chars += len(tool.model_dump_json(by_alias=True, exclude_none=True))
            if chars > MAX_LISTING_CHARS:
                return tools, _TooMuch(
                    f"tools taking more than {MAX_LISTING_CHARS:,} characters of JSON in all", number
                )
            tools.append(tool)
        try:
            cursor = _cursor(after)
        except ValueError:
            return tools, after
        if cursor is None or json.dumps(cursor) in cursors:  # 7 and "7" are two cursors
            return tools, None
        cursors.add(json.dumps(cursor))
    return tools, _TOO_MANY_PAGES


async def _readable_page(
    client: mcp.Client, cursor: str | int | None, unreadable: dict[str, str]
) -> tuple[ListToolsResult, Any]:
    """One page of tools, and its `nextCursor` as the server wrote it. The SDK refuses a whole page
    for one tool that is not valid MCP (no `inputSchema`, a name that is no string), or for a
    `nextCursor` that is no string; that page is asked for again as plain JSON and read tool by tool,
    with the same checks: the tools that pass are listed, each other one goes into `unreadable` with
    the reason. A number for a cursor is sent so, as plain JSON too (the SDK sends strings only).
    Reads the SDK's private session state (`_raw_listing`: the SDK has no public way to ask for a page
    it would not check); without it, the page fails as the SDK failed it."""
    refused: ValueError | None = None
    if not isinstance(cursor, int):
        try:
            page = await client.list_tools(cursor=cursor, cache_mode="bypass")  # our cache, not the SDK's
            return page, page.next_cursor
        except ValueError as exc:  # a ValidationError, or pydantic's "Maximum serialization depth exceeded"
            refused = exc
    if (private := _raw_listing(client.session)) is None:  # another SDK version
        raise refused or ValueError(f"this mcp package cannot send a cursor that is a number ({cursor})")
    stamp, send, absorb = private
    request = ListToolsRequest(params=PaginatedRequestParams(cursor=cursor if isinstance(cursor, str) else None))
    data = request.model_dump(by_alias=True, mode="json", exclude_none=True)
    if isinstance(cursor, int):
        data.setdefault("params", {})["cursor"] = cursor
    options: Any = {}
    stamp(data, options)
    raw = await send(data["method"], data.get("params"), options)
    listed, after = raw.get("tools"), raw.get("nextCursor")
    if not isinstance(listed, list):
        raise refused or ValueError("its tools/list answer holds no list of tools")
    envelope = {key: value for key, value in raw.items() if key not in ("tools", "nextCursor")}
    try:
        _listed_tools(client.protocol_version, envelope, [])
    except ValidationError as exc:  # what the page says besides its tools is broken (a 2026 page without resultType)
        raise refused or exc from None
    tools = []
    for number, item in enumerate(listed[: MAX_TOOLS + 1], 1):  # one past the cap: `_list_all` says it is cut
        try:
            tools.append(_listed_tools(client.protocol_version, envelope, [_object_rooted(item)])[0])
        except ValueError as exc:
            if (bare := _without_extras(item, exc)) is None or not isinstance(exc, ValidationError):
                unreadable[_listed_name(item, number)] = _why_unlisted(exc)
                continue
            try:
                tools.append(_listed_tools(client.protocol_version, envelope, [_object_rooted(bare[0])])[0])
            except ValueError as still:  # something a call needs is wrong too
                unreadable[_listed_name(item, number)] = _why_unlisted(still)
            else:
                unreadable[f"\0{_listed_name(item, number)}\0{', '.join(bare[1])}"] = _why_bare(exc, bare[1])
    page = ListToolsResult(tools=tools, next_cursor=after if isinstance(after, str) else None)
    result: ListToolsResult = absorb(page, complete=cursor is None and after in (None, ""))
    return result, after


_EXTRAS = ("annotations", "execution", "icons", "title")
"""A listed tool's fields that say nothing a call needs (what a person reads, hints): one that is not
valid MCP is dropped, and the tool offered without it (`_without_extras`)."""


def _without_extras(item: Any, exc: ValueError) -> tuple[dict[str, Any], list[str]] | None:
    """`item` without the fields of `_EXTRAS` its errors are in, and their names, sorted; None when an
    error is in another field (or `exc` says nothing of where)."""
    if not isinstance(exc, ValidationError) or not isinstance(item, dict) or not exc.error_count():
        return None
    fields = {error["loc"][2] if len(error["loc"]) > 2 else None for error in exc.errors()}  # past ("tools", 0)
    if not fields <= set(_EXTRAS):
        return None
    dropped = sorted(str(field) for field in fields)
    return {key: value for key, value in item.items() if key not in dropped}, dropped


def _unread_key(key: str, *, alone: bool = False) -> str:
    """A key `_readable_page` wrote into `unreadable`: a tool's name, or `\0name\0fields` for a tool
    offered without fields that are not valid MCP (`_without_extras`), which `McpClient.unreadable`
    holds as `name (fields)`; with `alone`, the tool's name alone."""
    if not key.startswith("\0"):
        return key
    name, fields = key[1:].split("\0", 1)
    return name if alone else f"{name} ({fields})"


def _why_bare(exc: ValidationError, dropped: list[str]) -> str:
    """What was dropped from a listed tool (`_without_extras`), and why, in a line."""
    wrong = _wrong_in_listing(exc)
    one = len(dropped) == 1
    return (
        f"its {' and '.join(dropped)} {'field is' if one else 'fields are'} not valid MCP ({wrong}); the tool is "
        f"offered without {'it' if one else 'them'}. Ask its author to fix it"
    )


def _object_rooted(item: Any) -> Any:
    """A listed tool whose `inputSchema` is an object that does not say `"type": "object"` (no
    `type`: `{}`, or only `properties`; a type list that names it: `["object", "null"]`) with it
    said: the arguments are an object all the same (JSON-RPC's `params`), and the SDK refused the
    tool. Any other item as it is (its root type another one's: still refused)."""
    schema = item.get("inputSchema") if isinstance(item, dict) else None
    if not isinstance(schema, dict):
        return item
    if "type" in schema and not (isinstance(schema["type"], list) and "object" in schema["type"]):
        return item
    return {**item, "inputSchema": {**schema, "type": "object"}}


def _raw_listing(session: Any) -> tuple[Any, Any, Any] | None:
    """The SDK's private pieces `_readable_page` asks for a page with and hands it back with: how a
    request is stamped, sent unchecked, and a listing absorbed (x-mcp-header filtering, output
    schemas kept for checking results). The one place that reads them; None in an SDK version
    shaped otherwise (`raw_listing_problem`)."""
    if raw_listing_problem(session) is not None:
        return None
    return session._stamp, session._dispatcher.send_raw_request, session._absorb_tool_listing


def raw_listing_problem(session: Any) -> str | None:
    """None while `session` (the SDK's `ClientSession`, connected) has the private pieces `_raw_listing`
    reads, called as `_readable_page` calls them; else one line saying what differs. The SDK has no
    public way to ask for a page it would not check, so a test fails on this first when it changes."""
    stamp = getattr(session, "_stamp", None)
    send = getattr(getattr(session, "_dispatcher", None), "send_raw_request", None)
    absorb = getattr(session, "_absorb_tool_listing", None)
    for name, found, called, keywords in (
        ("_stamp", stamp, "(data, opts)", {}),
        ("_dispatcher.send_raw_request", send, "(method, params, opts)", {}),
        ("_absorb_tool_listing", absorb, "(result, complete=...)", {"complete": True}),
    ):
        if not callable(found):
            return f"ClientSession.{name} is gone"
        try:
            signature = inspect.signature(found)
            signature.bind(*range(called.count(",") + 1 - len(keywords)), **keywords)
        except (TypeError, ValueError):
            return f"ClientSession.{name} cannot be called as {called}: it takes {_shown_signature(found)}"
    return None


def _shown_signature(function: Any) -> str:
    try:
        return str(inspect.signature(function))
    except (TypeError, ValueError):
        return "what its signature does not say"


def _listed_tools(version: str, envelope: Mapping[str, Any], items: list[Any]) -> list[McpTool]:
    """Listed tools, checked as the SDK checks a page of them (for the negotiated version), on a page
    that says what the server's page says besides its tools (`envelope`): a 2026-07-28 page must say
    its `resultType`, `ttlMs` and `cacheScope`, and a page of one tool without them failed every tool."""
    data = {**envelope, "tools": items}
    try:
        page = parse_server_result("tools/list", version, data)
    except (KeyError, TypeError):  # a version the SDK has no checks for: the version-free model
        page = ListToolsResult.model_validate(data, by_name=False)
    tools: list[McpTool] = page.tools  # type: ignore[attr-defined]
    return tools


def _listed_name(item: Any, number: int) -> str:
    name = item.get("name") if isinstance(item, dict) else None
    return name if isinstance(name, str) else f"tool #{number} (with no name)"


def _why_unlisted(exc: ValueError) -> str:
    """What is wrong with one listed tool, and the fix, in a line."""
    if not isinstance(exc, ValidationError):  # pydantic could not even walk it (nested too deep)
        return f"its listing cannot be read ({describe(exc)}); ask its author to fix it"
    wrong = _wrong_in_listing(exc)
    fix = (
        'an inputSchema is a JSON Schema object with "type": "object" ({"type": "object"} for no arguments)'
        if wrong.startswith("inputSchema")
        else "see the MCP specification's Tool"
    )
    return f"its listing is not valid MCP ({wrong}); {fix}. Ask its author to fix it"


def _wrong_in_listing(exc: ValidationError) -> str:
    """Where a listed tool is not valid MCP, and what is wrong there (its first error)."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"][2:]) or "the tool"  # past ("tools", 0)
    if first["type"] in ("dict_type", "model_type", "model_attributes_type"):  # "…a valid dictionary or instance of…"
        return f"{where} is {json_type(first['input'])}, not an object"
    return f"{where}: {first['msg']}"


def _stop(
    loop: asyncio.AbstractEventLoop,
    owner: concurrent.futures.Future[None] | None,
    scope: anyio.CancelScope | None,
    closing: anyio.Event | None = None,
) -> None:
    """Cancel the connection, let it wind down (the SDK stops a stdio server), stop the loop.
    A loop that already stopped (something it ran raised `SystemExit`) has nothing left to stop.
    Given `closing` (an HTTP connection's), the connection is ended, not cancelled: the SDK then sends
    its DELETE, within `CLOSE_SESSION_S`, and only then is it cancelled."""
    try:
        if scope is not None and closing is not None:
            asyncio.run_coroutine_threadsafe(_end_within(scope, closing, CLOSE_SESSION_S), loop)
        elif scope is not None:
            loop.call_soon_threadsafe(scope.cancel)
        elif owner is not None:
            loop.call_soon_threadsafe(owner.cancel)  # the connection task has not opened its scope yet
        if owner is not None:
            concurrent.futures.wait([owner], timeout=10)
        loop.call_soon_threadsafe(loop.stop)
    except RuntimeError:  # "Event loop is closed"
        pass


CLOSE_SESSION_S = 1.0
"""Seconds `McpClient.close()` gives an HTTP server to answer the DELETE that ends its session (MCP: a
client that no longer needs its session SHOULD send one); a server that does not answer costs no more."""


async def _end_within(scope: anyio.CancelScope, closing: anyio.Event, seconds: float) -> None:
    """Let the connection's task end its connection (`closing`), cancelled after `seconds` at most."""
    scope.deadline = min(scope.deadline, anyio.current_time() + seconds)
    closing.set()


def _missing_cwd(server: Any, exc: BaseException) -> str:
    """The stdio server's `cwd` when `exc` says it is missing (the process cannot start there), else ""."""
    if not isinstance(server, mcp.StdioServerParameters) or server.cwd is None:
        return ""
    folder = os.fspath(server.cwd)
    named = exc.filename if isinstance(exc, FileNotFoundError) else None
    return folder if isinstance(named, str | os.PathLike) and os.fspath(named) == folder else ""


MAX_ERROR_DATA_CHARS = 300
"""How many characters of an error answer's `data` the model reads at most."""
_DEBUG_KEYS = frozenset({"traceback", "stack", "stacktrace", "backtrace"})
"""Keys of an error's data holding the server's internals (its frames and paths), not the caller's mistake."""


def _error_words(exc: MCPError, hide: Callable[[str], str] = str) -> str:
    """What a server's error answer says: its message, or its code when the message is blank; then
    what its `data` adds (JSON-RPC's "additional information": a validator's list of what was wrong,
    the valid values), on one line of at most `MAX_ERROR_DATA_CHARS`, masked (`hide`, then what the
    trace masks), without a traceback; nothing when it is blank or repeats the message."""
    words = str(exc).strip() or f"code {exc.code}, without a message"
    data = exc.data
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if not (isinstance(k, str) and k.lower().replace("_", "") in _DEBUG_KEYS)}
    if isinstance(data, str):
        text = drop_tracebacks_plainly(data)
    elif data is None or data == {} or data == []:
        return words
    else:
        text = json.dumps(data, ensure_ascii=False, default=str)  # secret-named fields: masked by one_line
    text = one_line(text, hide, MAX_ERROR_DATA_CHARS)
    if not text or text in words:
        return words
    return f"{words} ({text})" if isinstance(data, str) else f"{words} (its data: {text})"


_UNSPOKEN = "Unsupported protocol version from the server: "
"""How the SDK's `ClientSession.initialize` refuses a version it does not speak (a RuntimeError)."""


def _unspoken_version(exc: BaseException) -> str | None:
    """The protocol version a server answered `initialize` with that the SDK refused; None for any other error."""
    text = str(exc)
    return text[len(_UNSPOKEN) :] if isinstance(exc, RuntimeError) and text.startswith(_UNSPOKEN) else None


def _version_problem(version: str) -> str:
    """Why a server answering in `version` cannot be used, what this client asked for and speaks, and what would do.
    A version without `initialize` (2026-07-28: `server/discover`, which the SDK sends first and got no
    usable answer to) is this client's too: the server mixed two versions' handshakes."""
    if version in MODERN_PROTOCOL_VERSIONS:
        return (
            f"it answered initialize in MCP protocol version {version!r}, which has no initialize handshake (a "
            f"{version} server answers server/discover, which this client sent first, without a usable answer); the "
            f"server mixes two versions' handshakes: it may be set to {LATEST_HANDSHAKE_VERSION} or older"
        )
    spoken = HANDSHAKE_PROTOCOL_VERSIONS
    listed = f"{', '.join(spoken[:-1])} and {spoken[-1]}" if len(spoken) > 1 else spoken[0]
    return (
        f"it answered in MCP protocol version {cut(version, 40)!r}, which this client does not speak (it asked for "
        f"{LATEST_HANDSHAKE_VERSION} and speaks {listed}); a newer mcp package may speak it, or the server may be "
        "set to an older version"
    )


def _leaf(exc: BaseException) -> BaseException:
    """The exception inside the exception groups anyio wraps errors in (the first of each)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _first_error(exc: ValidationError, whole: str, *, models: bool = False) -> str:
    """What pydantic's first error says, and where (`whole` when it is about the whole message):
    " (capabilities: Field required)"; "" when it has none. With `models`, the names of the models
    a union tried are left out of where (`CallToolResult.content.0.TextContent.text` is `content.0.text`):
    MCP's fields are camelCase, its models' names capitalised. Of a tagged union's branches (a
    content block's types), those whose tag refused the value (`type`: "Input should be 'text'"
    for an image block) are passed over while another has an error: the value claims that other one."""
    if not exc.error_count():
        return ""
    errors = exc.errors()
    refused = [e["loc"][:-1] for e in errors if e["type"] == "literal_error" and e["loc"][-1:] == ("type",)]
    first = next((e for e in errors if not any(e["loc"][: len(b)] == b for b in refused)), errors[0])
    parts = [
        part
        for part in first["loc"]
        if not (models and isinstance(part, str) and (part[:1].isupper() or "[" in part))  # function-after[…]
    ]
    where = ".".join(str(part) for part in parts)
    return f" ({where or whole}: {first['msg']})"


def describe(exc: BaseException) -> str:
    """One line for an exception, looking inside the exception groups anyio wraps errors in."""
    exc = _leaf(exc)
    if isinstance(exc, FileNotFoundError):
        return f"command not found ({exc.filename or exc})"
    text = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _run_forever(loop: asyncio.AbstractEventLoop, ended: Callable[[BaseException | None], None]) -> None:
    """Run the connection's loop until `_stop` stops it, or something it runs raises `SystemExit`
    or `KeyboardInterrupt` (asyncio lets those end the loop): `ended` then fails the waiting requests."""
    asyncio.set_event_loop(loop)
    reason: BaseException | None = None
    try:
        loop.run_forever()
    except BaseException as exc:  # noqa: BLE001 - this thread ends; the callers are told why
        reason = exc
    finally:
        loop.close()
        ended(reason)


def _default_name(server: Any) -> str:
    if isinstance(server, mcp.StdioServerParameters):
        return _command_name(server.command, server.args)
    if isinstance(server, str):  # a URL: its credentials (user:password@, ?token=) never in a name
        return mask_url(server)
    return str(getattr(server, "name", None) or type(server).__name__)


def _server_secrets(server: Any) -> list[str]:
    """The secrets a server is started or reached with, longest first: a URL's credentials; for
    a command, the value of an option named like a secret (`--token abc`, `--api-key=abc`), the
    secrets `scrub` finds in an argument (`sk-…`, `DB_PASS=…`'s value, `Authorization: Bearer x`'s
    `x`, which the server may quote alone; `postgres://user:pw@…`'s password), and the
    `env` values of secret-named variables (`GITHUB_TOKEN`), of URLs' credentials and of what `scrub`
    finds in any other (`MCP_HEADERS=Authorization: Bearer x`)."""
    if isinstance(server, str):
        return sorted(set(url_secrets(server)), key=len, reverse=True)
    if not isinstance(server, mcp.StdioServerParameters):
        return []
    found: list[str] = []
    args = [str(a) for a in server.args]
    for before, arg in zip(["", *args], args, strict=False):
        option, equals, value = arg.partition("=")
        if before.startswith("-") and "=" not in before and is_secret_name(before.lstrip("-")):
            found.append(arg)
        elif equals and option.startswith("-") and is_secret_name(option.lstrip("-")):
            found.append(value)
        elif pieces := secrets_in(arg):  # a URL's password alone, so the name still says which host; else
            found += (url_secrets(value or arg) if "://" in arg else []) or pieces  # what scrub masks (`Bearer x`: x)
    for key, value in (server.env or {}).items():
        found += (
            [value] if is_secret_variable(key) else (url_secrets(value) if "://" in value else []) or secrets_in(value)
        )
    return sorted({s for s in found if len(s) >= 4}, key=len, reverse=True)


def _without_url_secrets(text: str, server: Any) -> str:
    """`text` with the secrets of a URL server masked (an HTTP error may quote the URL)."""
    return mask_url_in(text, server) if isinstance(server, str) else text


def _command_name(command: str, args: Sequence[str]) -> str:
    return " ".join([command.rsplit("/", 1)[-1], *args])


# -- a stdio server's process group, ended with it -------------------------------------------------

POLL_S = 0.02
"""How often the group is looked at between SIGTERM and SIGKILL."""

_spawned: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("toolkit_mcp_spawned", default=None)
"""The pids of the servers started in this task's `group_ended` (None outside one)."""


_SPAWN = "_create_platform_compatible_process"
"""The SDK's private function in `mcp.client.stdio` that starts a stdio server (`_noting_spawns` wraps it)."""


def spawn_problem() -> str | None:
    """None while `mcp.client.stdio.stdio_client` starts its server through `_SPAWN`, which `_noting_spawns`
    wrapped; else one line saying what differs (a server's own children are then left running, as the
    SDK leaves them). The one place reading the SDK's private spawning: a test fails on this first."""
    spawn = getattr(mcp.client.stdio, _SPAWN, None)
    if spawn is None:
        return f"mcp.client.stdio.{_SPAWN} is gone"
    if not getattr(spawn, "toolkit_notes_pids", False):
        return f"mcp.client.stdio.{_SPAWN} is not the wrapper that notes pids"
    opener = inspect.unwrap(stdio_client)
    if _SPAWN not in getattr(getattr(opener, "__code__", None), "co_names", ()):
        return f"mcp.client.stdio.stdio_client no longer calls {_SPAWN}"
    return None


def _noting_spawns() -> None:
    """Wrap the SDK's spawning function so that a `group_ended` around it learns the server's pid."""
    spawn = getattr(mcp.client.stdio, _SPAWN, None)
    if spawn is None or getattr(spawn, "toolkit_notes_pids", False):
        return

    async def noted(*args: Any, **kwargs: Any) -> Any:
        process = await spawn(*args, **kwargs)
        pids = _spawned.get()
        if pids is not None:
            pids.append(process.pid)
        return framed(process)  # its stdout read one whole line at a time, each capped (`toolkit.mcp.lines`)

    noted.toolkit_notes_pids = True  # type: ignore[attr-defined]
    setattr(mcp.client.stdio, _SPAWN, noted)


@contextlib.asynccontextmanager
async def group_ended(transport: Any, killed: Callable[[float], None]) -> AsyncIterator[Any]:
    """`transport`'s streams; when it has closed, the stdio server's process group is ended.
    `killed(grace)` is told when members outlived SIGTERM by `grace` seconds and were sent SIGKILL."""
    pids: list[int] = []
    token, opened = _spawned.set(pids), False
    try:
        async with transport as streams:
            _spawned.reset(token)  # the server is started: nothing more to note
            opened = True
            yield streams
    finally:
        if not opened:  # the transport failed to open
            _spawned.reset(token)
        with anyio.CancelScope(shield=True):
            for pid in pids:
                if grace := await end_group(pid):
                    killed(grace)


async def end_group(pgid: int) -> float:
    """SIGTERM to the process group `pgid`, SIGKILL to what is left of it after the SDK's grace:
    that grace if it came to SIGKILL, else 0."""
    if os.name != "posix" or not _signalled(pgid, signal.SIGTERM):
        return 0.0
    grace = getattr(mcp.client.stdio, "FORCE_KILL_TIMEOUT", 2.0)
    grace = float(grace) if isinstance(grace, int | float) else 2.0
    if await _ended_within(pgid, grace):
        return 0.0
    _signalled(pgid, signal.SIGKILL)
    await _ended_within(pgid, grace)  # a kill lands at once, but not before killpg returns
    return grace


async def _ended_within(pgid: int, seconds: float) -> bool:
    """Whether no member of the group runs any more within `seconds`."""
    with anyio.move_on_after(seconds):
        while _signalled(pgid, 0) and _running(pgid):
            await anyio.sleep(POLL_S)
        return True
    return False


def _signalled(pgid: int, sig: int) -> bool:
    """Send `sig` to the group; False once it has no member left (a group's id is not reused before)."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:  # no member is ours to signal (each changed user): nothing more can be done
        return False
    return True


def _running(pgid: int) -> bool:
    """Whether a member of the group is still running. A member that died is a zombie until init
    reaps it (a container's init may never do so): on Linux, /proc tells them apart; elsewhere each
    member that answers a signal counts as running."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return True
    for stat in proc.glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):  # it ended meanwhile
            state, _parent, group = stat.read_text().rsplit(")", 1)[1].split()[:3]
            if group == str(pgid) and state not in ("Z", "X"):
                return True
    return False


_noting_spawns()
