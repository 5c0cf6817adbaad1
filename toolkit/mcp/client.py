"""A synchronous MCP client: the official `mcp.Client` driven from ordinary code.

toolkit's loop and executors are synchronous; the `mcp` SDK is async. `McpClient` keeps one
`mcp.Client` open on an event loop of its own (a daemon thread), so the same object works in a
script, in a test and in a Jupyter kernel whose loop is already running. Three ways to reach a
server, as the SDK spells them:

    McpClient.stdio("python", ["-m", "mcp_server_time"])   # launch a command, talk over stdin/stdout
    McpClient.http("http://127.0.0.1:8765/mcp")             # streamable HTTP
    McpClient(server)                                       # an `MCPServer` / low-level `Server`, in-process

It connects on first use (or `connect()`), lists tools through a cache that only
`evict_tool_list_cache()` empties, and calls a tool with a deadline: when it passes, the SDK
sends the `notifications/cancelled` message so the server stops working. Errors::

    McpError                  the server answered with an error, or broke the protocol
    ├── McpConnectionError    it cannot be reached, or went away
    └── McpTimeout            a request outlived its deadline (and was cancelled)

Leaves out: reconnecting after the server died (make a new client), resources, prompts,
sampling; turning tools into toolkit `Tool`s (`toolkit.mcp.provider`).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import math
import shlex
import tempfile
import threading
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import anyio
import mcp
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT, CallToolResult
from mcp_types import Tool as McpTool
from pydantic import ValidationError

from toolkit.errors import McpConnectionError, McpError, McpTimeout


class McpClient:
    """One MCP server, used synchronously (see the module docstring)."""

    def __init__(
        self, server: Any, *, name: str | None = None, connect_timeout: float = 10.0, request_timeout: float = 30.0
    ) -> None:
        self.server = server
        """What `mcp.Client` connects to: `StdioServerParameters`, a URL or a server object."""
        self.name = name or _default_name(server)
        """How logs, errors and tool metadata call this server."""
        self.connect_timeout = connect_timeout
        self.request_timeout = request_timeout
        """Default deadline of one request (listing tools, or a call without its own)."""
        self._tools: list[McpTool] | None = None
        self._client: mcp.Client | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._owner: concurrent.futures.Future[None] | None = None
        self._scope: anyio.CancelScope | None = None
        """The connection's cancel scope: `close()` cancels it from outside the loop."""
        self._stderr: Any = None
        """A stdio server's stderr goes to a temporary file, quoted when it cannot be reached."""
        self._lock = threading.Lock()

    @classmethod
    def stdio(
        cls,
        command: str,
        args: Sequence[str] = (),
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        **kwargs: Any,
    ) -> McpClient:
        """A server started as `command args...`, spoken to over its stdin/stdout."""
        params = mcp.StdioServerParameters(command=command, args=list(args), env=env, cwd=cwd)
        return cls(params, name=kwargs.pop("name", None) or _command_name(command, args), **kwargs)

    @classmethod
    def from_command_line(cls, line: str, **kwargs: Any) -> McpClient:
        """`McpClient.stdio` from one shell-quoted string, e.g. `"python -m mcp_server_time"`."""
        parts = shlex.split(line)
        if not parts:
            raise McpConnectionError("empty MCP server command line")
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
        """Close the connection and stop the server process, if this client started one."""
        with self._lock:
            loop, owner, scope = self._loop, self._owner, self._scope
            self._client = self._loop = self._owner = self._scope = None
            self._tools = None
        if loop is None:
            return
        atexit.unregister(self.close)
        _stop(loop, owner, scope)

    def __enter__(self) -> McpClient:
        return self.connect()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        loop = asyncio.new_event_loop()
        threading.Thread(target=_run_forever, args=(loop,), name=f"mcp-{self.name}", daemon=True).start()
        ready: concurrent.futures.Future[mcp.Client] = concurrent.futures.Future()
        owner = asyncio.run_coroutine_threadsafe(self._own(ready), loop)
        try:
            client = ready.result(timeout=self.connect_timeout + 15)
        except BaseException as exc:
            _stop(loop, owner, self._scope)
            raise McpConnectionError(self._unreachable(exc)) from None
        self._client, self._loop, self._owner = client, loop, owner
        atexit.register(self.close)

    async def _own(self, ready: concurrent.futures.Future[mcp.Client]) -> None:
        """The task that holds the connection: open it, report, wait until `close()` cancels."""
        try:
            with anyio.CancelScope(deadline=anyio.current_time() + self.connect_timeout) as scope:
                self._scope = scope
                async with mcp.Client(self._transport(), read_timeout_seconds=self.request_timeout) as client:
                    scope.deadline = math.inf  # connected: only close() ends it now
                    ready.set_result(client)
                    await anyio.sleep_forever()
            if not ready.done():
                ready.set_exception(TimeoutError(f"no answer within {self.connect_timeout:g} s"))
        except BaseException as exc:  # noqa: BLE001 - reported to the waiting caller
            if not ready.done():
                ready.set_exception(exc)

    def _transport(self) -> Any:
        if isinstance(self.server, mcp.StdioServerParameters):
            if self._stderr is None:
                self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
            return stdio_client(self.server, errlog=self._stderr)
        return self.server

    def _unreachable(self, exc: BaseException) -> str:
        reason, tail = describe(exc), ""
        if self._stderr is not None:
            self._stderr.flush()
            self._stderr.seek(0)
            tail = self._stderr.read()[-400:].strip()
        return f"cannot reach MCP server {self.name!r}: {reason}" + (f"; its stderr: {tail}" if tail else "")

    # -- requests ------------------------------------------------------------------------
    def _call(self, request: Callable[[mcp.Client], Coroutine[Any, Any, Any]], timeout: float) -> Any:
        """Run `request(client)` on the connection's loop and wait for it (a little past `timeout`)."""
        self.connect()
        client, loop = self._client, self._loop
        if client is None or loop is None or not loop.is_running():
            raise McpConnectionError(f"MCP server {self.name!r}: the client is closed")
        future = asyncio.run_coroutine_threadsafe(request(client), loop)
        try:
            return future.result(timeout=timeout + 5)  # the SDK's own deadline comes first
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise McpTimeout(f"MCP server {self.name!r} did not answer within {timeout:g} s") from None
        except MCPError as exc:
            if exc.code == REQUEST_TIMEOUT:
                raise McpTimeout(f"MCP server {self.name!r} did not answer within {timeout:g} s") from None
            if exc.code == CONNECTION_CLOSED:
                raise McpConnectionError(f"MCP server {self.name!r} went away: {exc}") from None
            raise McpError(f"MCP server {self.name!r} answered with an error: {exc}") from None
        except ValidationError as exc:
            raise McpError(f"MCP server {self.name!r} broke the protocol: {describe(exc)}") from None
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError, BaseExceptionGroup) as exc:
            raise McpConnectionError(f"MCP server {self.name!r} went away: {describe(exc)}") from None

    def list_tools(self, timeout: float | None = None) -> list[McpTool]:
        """The server's tools (every page), from the cache when it holds them.

        Listing every page must finish within `timeout` s (default `request_timeout`), else
        `McpTimeout`; a failed listing is not cached, so the next call asks again.
        """
        if self._tools is None:
            seconds = self.request_timeout if timeout is None else timeout

            async def within(client: mcp.Client) -> list[McpTool]:
                try:
                    with anyio.fail_after(seconds):
                        return await _list_all(client)
                except TimeoutError:
                    raise MCPError(REQUEST_TIMEOUT, "listing tools timed out") from None

            self._tools = self._call(within, timeout=seconds)
        return list(self._tools)

    def evict_tool_list_cache(self) -> None:
        """Forget the cached tool list: the next `list_tools()` asks the server again."""
        self._tools = None

    def call_tool(self, name: str, arguments: dict[str, Any], timeout: float | None = None) -> CallToolResult:
        """Call `name` with `arguments` (send `{}` for none); `McpTimeout` after `timeout` s."""
        seconds = self.request_timeout if timeout is None else timeout
        return self._call(lambda c: c.call_tool(name, arguments, read_timeout_seconds=seconds), seconds)


async def _list_all(client: mcp.Client) -> list[McpTool]:
    tools: list[McpTool] = []
    cursor = None
    for _ in range(100):  # a paginator that never ends
        page = await client.list_tools(cursor=cursor, cache_mode="bypass")  # our cache, not the SDK's
        tools += page.tools
        cursor = page.next_cursor
        if cursor is None:
            break
    return tools


def _stop(
    loop: asyncio.AbstractEventLoop, owner: concurrent.futures.Future[None] | None, scope: anyio.CancelScope | None
) -> None:
    """Cancel the connection, let it wind down (the SDK stops a stdio server), stop the loop."""
    if scope is not None:
        loop.call_soon_threadsafe(scope.cancel)
    if owner is not None:
        concurrent.futures.wait([owner], timeout=10)
    loop.call_soon_threadsafe(loop.stop)


def describe(exc: BaseException) -> str:
    """One line for an exception, looking inside the exception groups anyio wraps errors in."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):
        return f"command not found ({exc.filename or exc})"
    text = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _run_forever(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
    finally:
        loop.close()


def _default_name(server: Any) -> str:
    if isinstance(server, mcp.StdioServerParameters):
        return _command_name(server.command, server.args)
    if isinstance(server, str):
        return server
    return str(getattr(server, "name", None) or type(server).__name__)


def _command_name(command: str, args: Sequence[str]) -> str:
    return " ".join([command.rsplit("/", 1)[-1], *args])
