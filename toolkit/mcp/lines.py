"""A stdio server's stdout, handed to the MCP SDK one whole line at a time, each at most `MAX_LINE_BYTES`.

The SDK's stdio reader keeps the unfinished line in a str and, for every chunk the pipe gives (64 KiB
at most), joins it to that str and splits the whole again: reading one line costs the square of its
length (a 10 MB `tools/list` answer took seconds, a 50 MB one burned a core for minutes), and a line
that never ends grew its memory without limit. `FramedLines` sits between the server's pipe and the
SDK: it keeps the chunks of an unfinished line in a list (each byte copied once, when the line
ends) and gives the SDK only bytes that end at a newline, so the SDK's own buffer is always empty
and its join and split are linear. A line longer than `MAX_LINE_BYTES` is not read: the stream is
closed, the server is sent SIGTERM (it could only write on into a full pipe), the SDK sees the end
of the server's output (its requests fail as on a closed connection), and `too_long(size, cap)` is
told once; the memory held is at most the cap and one chunk.

`framed(process)` is the process the SDK started, its stdout framed, when a `lines_capped` around
the transport asked for it (a context variable carries its callback to where the SDK starts the
server: `toolkit.mcp.client` wraps that function); any other process is returned as it is.

Leaves out: how long a line may take to arrive (the request's deadline says that); a line's
content (the SDK parses it); the server's stdin and stderr.
"""

from __future__ import annotations

import contextlib
import contextvars
import signal
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import anyio.abc

MAX_LINE_BYTES = 64 * 1024 * 1024
"""The longest line read from a stdio server, in bytes without its newline (64 MiB)."""

TooLong = Callable[[int, int], None]
"""Told `(bytes read of the line so far, the cap)` when a line passes the cap."""

_too_long: contextvars.ContextVar[TooLong | None] = contextvars.ContextVar("toolkit_mcp_too_long", default=None)
"""The callback of the `lines_capped` the server is being started in (None outside one)."""


class FramedLines(anyio.abc.ByteReceiveStream):
    """`stream`'s bytes, each piece received ending at a newline (the last one may not, at the end of
    the stream); a line past `cap` bytes closes `stream`, tells `too_long` and ends the stream."""

    def __init__(self, stream: anyio.abc.ByteReceiveStream, cap: int, too_long: TooLong) -> None:
        self._stream = stream
        self._cap = cap
        self._too_long = too_long
        self._parts: list[bytes] = []
        """The chunks of the unfinished line."""
        self._size = 0
        """How many bytes `_parts` holds."""
        self._cut = False
        """Whether a line passed the cap: nothing more is read."""
        self.pieces = 0
        """How many pieces were given out (each one line or more)."""

    async def receive(self, max_bytes: int = 65536) -> bytes:
        while not self._cut:
            try:
                chunk = await self._stream.receive(max_bytes)
            except anyio.EndOfStream:
                if not self._parts:
                    raise
                return self._given(self._taken())  # the last line, with no newline after it
            first = chunk.find(b"\n")
            if self._size + (len(chunk) if first < 0 else first) > self._cap:
                await self._refuse(self._size + (len(chunk) if first < 0 else first))
                break
            if first < 0:
                self._parts.append(chunk)
                self._size += len(chunk)
                continue
            last = chunk.rfind(b"\n") + 1  # lines within one chunk are shorter than the cap: it is far above 64 KiB
            head, tail = chunk[:last], chunk[last:]
            if self._parts:
                self._parts.append(head)
                head = self._taken()
            if tail:
                self._parts, self._size = [tail], len(tail)
            return self._given(head)
        raise anyio.EndOfStream

    def _taken(self) -> bytes:
        whole = b"".join(self._parts)
        self._parts, self._size = [], 0
        return whole

    def _given(self, piece: bytes) -> bytes:
        self.pieces += 1
        return piece

    async def _refuse(self, size: int) -> None:
        self._cut = True
        self._parts, self._size = [], 0
        with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await self._stream.aclose()
        self._too_long(size, self._cap)

    async def aclose(self) -> None:
        self._parts, self._size = [], 0
        await self._stream.aclose()


class _FramedProcess(anyio.abc.Process):
    """`process` with its stdout read through `FramedLines`; all else is `process`'s own."""

    def __init__(self, process: anyio.abc.Process, stdout: FramedLines) -> None:
        self._inner = process
        self._framed = stdout

    def __getattr__(self, name: str) -> Any:  # what the SDK reads of its backend's process (`_process`)
        return getattr(self._inner, name)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def wait(self) -> int:
        return await self._inner.wait()

    def terminate(self) -> None:
        self._inner.terminate()

    def kill(self) -> None:
        self._inner.kill()

    def send_signal(self, signal: signal.Signals) -> None:
        self._inner.send_signal(signal)

    @property
    def pid(self) -> int:
        return self._inner.pid

    @property
    def returncode(self) -> int | None:
        return self._inner.returncode

    @property
    def stdin(self) -> anyio.abc.ByteSendStream | None:
        return self._inner.stdin

    @property
    def stdout(self) -> anyio.abc.ByteReceiveStream | None:
        return self._framed

    @property
    def stderr(self) -> anyio.abc.ByteReceiveStream | None:
        return self._inner.stderr


def framed(process: Any) -> Any:
    """`process` with its stdout framed (`FramedLines`, capped at `MAX_LINE_BYTES`) inside a
    `lines_capped`; as it is outside one, or when it is not an anyio process with a stdout."""
    too_long = _too_long.get()
    if too_long is None or not isinstance(process, anyio.abc.Process) or process.stdout is None:
        return process

    def cut(size: int, cap: int) -> None:  # its output is no longer read: the server is stopped, not left blocked
        with contextlib.suppress(OSError):  # it ended meanwhile
            process.terminate()
        too_long(size, cap)

    return _FramedProcess(process, FramedLines(process.stdout, MAX_LINE_BYTES, cut))


@contextlib.asynccontextmanager
async def lines_capped(transport: Any, too_long: TooLong) -> AsyncIterator[Any]:
    """`transport`'s streams; a stdio server it starts has its stdout framed (`framed`), and a line
    past the cap is told to `too_long`."""
    token, reset = _too_long.set(too_long), False
    try:
        async with transport as streams:
            _too_long.reset(token)  # the server is started: nothing more to frame
            reset = True
            yield streams
    finally:
        if not reset:
            _too_long.reset(token)
