"""The streamable-HTTP transport `McpClient.http` connects with: the SDK's, reading what its parser refuses.

Python's `json.dumps` writes a file name read with `surrogateescape` as `"caf\\udce9.txt"`: an
escaped unpaired surrogate, valid JSON that the SDK's parser refuses. Over stdio the client reads
it as U+FFFD (`toolkit.mcp.client._surrogates_read`); over HTTP the SDK turned the answer into
its own error ("Failed to parse JSON response"), so the result was lost. Here each such escape in
a response body (a JSON body or a server-sent event stream) is rewritten as `\\ufffd` before the
SDK parses it: the same text stdio gives. A pair of surrogates (one character) and an escaped
backslash (`\\\\udce9`, which is text, not an escape) are left as they are.

An answer the SDK cannot parse at all (a body that is not JSON, an empty one, JSON that is no
JSON-RPC message, a body of another type) reaches the caller as the SDK's stand-in error, whose
text is a pydantic dump of a dozen lines, or reads as if the server had answered with an error;
`unreadable_answer` says in a few words what was wrong instead.

An HTTP error status (a gateway's 401, a crashed server's 500) reached the caller as the SDK's
"Server returned an error response", whatever the status: a learner could not tell a missing
token from a crash. Such a body is read whole when the SDK reads it, and unless it is a JSON-RPC
error (which the SDK passes on as the server's own), it is replaced by one saying the status
(`HTTP 401 Unauthorized`, with a word on credentials for 401 and 403). The body itself is
not quoted (a login page, a stack trace, perhaps a token). A 404 is left to the SDK before a
session ("Not Found"); in one it is "Session terminated", whatever its body (the SDK's own server
sends a JSON-RPC error, "Session not found"), so `McpClient` starts a new session.

A compressed body (`Content-Encoding: gzip`, as a reverse proxy sends it) is read the same way:
the hook has it decoded by httpx2 itself first (a `Response` of its own over the body's bytes,
with whatever decoders httpx2 has), then drops the header, so the SDK reads plain bytes. Before,
an escaped surrogate in a compressed body was left to the SDK's error, where a plain one read.

The hook is the SDK's own: `streamable_http_client(url, http_client=...)` with an `httpx2`
client whose response hook replaces the body's byte stream, through public attributes only
(`response.stream`, `response.headers`). Its timeouts are the SDK's defaults
(`create_mcp_http_client`: 30 s, 300 s to read); an event may be as large as `MAX_EVENT_BYTES`.

Leaves out: headers and authentication (the SDK's client takes them; `McpClient` gives none).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx2
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR

from toolkit.chat.proxies import direct_mounts

TIMEOUT = httpx2.Timeout(30.0, read=300.0)
"""The SDK's default timeouts for an MCP HTTP client (a server may hold a stream open)."""
MAX_EVENT_BYTES = 64 * 1024 * 1024
"""The largest server-sent event read. The SDK's default (1 MB) failed a 5 MB text result sent as an
event, which arrives whole as a JSON body (the SDK puts no limit on those)."""

_ESCAPES = re.compile(
    rb"\\\\"  # an escaped backslash: what follows it is text
    rb"|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"  # a surrogate pair: one character
    rb"|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"  # an unpaired surrogate
)
_READ_AS_TEXT = ("application/json", "text/event-stream")
_UNPARSED = re.compile(r"Failed to parse (?:JSON response|SSE message): ")
"""How the SDK's stand-in error for an answer it could not parse begins."""
_OTHER_TYPE = re.compile(r"Unexpected content type: (.*)", re.DOTALL)
_NOT_JSON = re.compile(r"Invalid JSON: (.*?) \[type=json_invalid, input_value=(b?''|b?\"\")?")


@contextlib.asynccontextmanager
async def http_transport(
    url: str, refused: Callable[[str], None] = lambda reason: None
) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's streamable-HTTP transport to `url`, reading unpaired surrogates as U+FFFD; a server
    on this machine is asked directly, whatever a learner's proxy variables say
    (`toolkit.chat.proxies.direct_mounts`, as the chat client asks a loopback gateway).
    `refused(reason)` is called when a request could not connect while no other was sent and
    unanswered (`_RefusalsNoted`): then no request was sent."""
    async with (
        _RefusalsNoted(
            refused,
            timeout=TIMEOUT,
            event_hooks={"response": [_read_surrogates, _status_said]},
            mounts=direct_mounts(url),
        ) as client,
        streamable_http_client(url, http_client=client, max_sse_event_size=MAX_EVENT_BYTES) as streams,
    ):
        yield streams


class _RefusalsNoted(httpx2.AsyncClient):
    """An `httpx2` client telling `refused(reason)` when a POST could not connect (a server that
    stopped: nothing of it was sent) while no other POST was being sent or waited for its answer:
    then no request of the connection's was sent. The SDK's transport ends with that error, and
    its requests read only "Connection closed", which says nothing of whether they were sent."""

    def __init__(self, refused: Callable[[str], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._refused = refused
        self._sending = 0
        self._answering: list[httpx2.Response] = []

    async def send(self, request: httpx2.Request, **kwargs: Any) -> httpx2.Response:
        if request.method != "POST":
            return await super().send(request, **kwargs)
        self._sending += 1
        try:
            response = await super().send(request, **kwargs)
        except (httpx2.ConnectError, httpx2.ConnectTimeout) as exc:
            self._answering = [r for r in self._answering if not r.is_closed]
            if self._sending == 1 and not self._answering:
                self._refused(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
            raise
        finally:
            self._sending -= 1
        self._answering = [r for r in self._answering if not r.is_closed] + [response]
        return response


async def _read_surrogates(response: httpx2.Response) -> None:
    """The response hook: a JSON or event-stream body, decoded, read through `_SurrogatesRead`."""
    if response.headers.get("content-type", "").lower().startswith(_READ_AS_TEXT):
        response.stream = _SurrogatesRead(_decoded(response))


async def _status_said(response: httpx2.Response) -> None:
    """The response hook: an error status (404 aside) that is no JSON-RPC error becomes one naming it;
    a 404 to a request in a session is said as the SDK says a bare one, whatever the body
    (`_session_ended`)."""
    status = response.status_code
    if status == 404 and response.request.headers.get("mcp-session-id"):
        _session_ended(response)
        return
    if status < 400 or status == 404:
        return
    words = f"HTTP {status} {response.reason_phrase}".strip()
    if status in (401, 403):
        words += " (it wants credentials, which McpClient.http does not send)"
    error = {"jsonrpc": "2.0", "id": None, "error": {"code": INTERNAL_ERROR, "message": words}}
    said = json.dumps(error).encode()
    if not response.headers.get("content-type", "").lower().startswith("application/json"):
        response.headers["content-type"] = "application/json"  # the SDK reads a JSON body only
        response.stream = _Replaced(_decoded(response), lambda body: said)
    else:
        response.stream = _Replaced(_decoded(response), lambda body: body if _rpc_error(body) else said)


SESSION_ENDED = "Session terminated"
"""How the SDK words a 404 to a request in a session: the server ended it (or restarted and forgot it)."""


def _session_ended(response: httpx2.Response) -> None:
    """A 404 in a session, as the SDK reads a bare one: "Session terminated" (`McpClient` then
    starts a new session, as MCP says). The SDK's own server sends a JSON-RPC error, "Session
    not found" (another SDK's another code), which the SDK passed on as the server's answer."""
    error = {"jsonrpc": "2.0", "id": None, "error": {"code": INVALID_REQUEST, "message": SESSION_ENDED}}
    said = json.dumps(error).encode()
    response.headers["content-type"] = "application/json"
    response.stream = _Replaced(_decoded(response), lambda body: said)


def _decoded(response: httpx2.Response) -> Any:
    """`response`'s body stream, decoded from its Content-Encoding by httpx2 itself (a fresh
    `Response` over the same bytes); the header is removed, so the body reads as plain bytes."""
    if response.headers.get("content-encoding", "identity").strip().lower() in ("", "identity"):
        return response.stream
    raw = httpx2.Response(
        response.status_code, headers=response.headers.copy(), stream=response.stream, request=response.request
    )
    del response.headers["content-encoding"]
    return _Decoded(raw)


class _Decoded(httpx2.AsyncByteStream):
    """A compressed body's bytes as they arrive, decoded (`_decoded`)."""

    def __init__(self, raw: httpx2.Response) -> None:
        self._raw = raw

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._raw.aiter_bytes():
            yield chunk

    async def aclose(self) -> None:
        await self._raw.aclose()


class _Replaced(httpx2.AsyncByteStream):
    """A body read whole and given as `replace(body)` (a body that cannot be decoded: `b""`)."""

    def __init__(self, stream: Any, replace: Callable[[bytes], bytes]) -> None:
        self._stream, self._replace = stream, replace

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            body = b"".join([chunk async for chunk in self._stream])
        except httpx2.DecodingError:  # a body its Content-Encoding does not fit: no JSON-RPC error either
            body = b""
        yield self._replace(body)

    async def aclose(self) -> None:
        await self._stream.aclose()


def _rpc_error(body: bytes) -> bool:
    try:
        message = json.loads(body)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("jsonrpc") == "2.0" and isinstance(message.get("error"), dict)


class _SurrogatesRead(httpx2.AsyncByteStream):
    """A body's bytes, each escaped unpaired surrogate as `\\ufffd`. A line is rewritten once it
    is whole (an escape never spans a line break, and an event ends with one), so a chunk that
    ends inside an escape is not misread."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        held: list[bytes] = []
        async for chunk in self._stream:
            end = max(chunk.rfind(b"\n"), chunk.rfind(b"\r")) + 1
            if not end:
                held.append(chunk)
                continue
            yield surrogates_replaced(b"".join([*held, chunk[:end]]))
            held = [chunk[end:]]
        if rest := b"".join(held):
            yield surrogates_replaced(rest)

    async def aclose(self) -> None:
        await self._stream.aclose()


def surrogates_replaced(text: bytes) -> bytes:
    """`text` (JSON, or lines of it) with each escaped unpaired surrogate as `\\ufffd`."""
    if b"\\u" not in text:
        return text
    return _ESCAPES.sub(lambda m: m[0] if len(m[0]) != 6 else rb"\ufffd", text)


def unreadable_answer(exc: MCPError) -> str:
    """What was wrong with an answer, when `exc` is the SDK's stand-in for one it could not parse
    ("Failed to parse JSON response: <pydantic's dump>", "Unexpected content type: text/html");
    "" for any other error."""
    if exc.code == INVALID_REQUEST and (other := _OTHER_TYPE.fullmatch(exc.message)):
        kind = f"of type {other[1]!r}" if other[1] else "with no Content-Type"
        return f"it answered with a body {kind}, where JSON or an event stream belongs"
    if exc.code != PARSE_ERROR or not _UNPARSED.match(exc.message):
        return ""
    if not (found := _NOT_JSON.search(exc.message)):
        return "it sent a message that is not valid JSON-RPC 2.0 (a reply with a malformed result or error)"
    if found[2]:
        return "it answered with an empty body, where a JSON-RPC message belongs"
    return f"it answered with a body that is not JSON ({found[1]})"
