"""`toolkit.mcp` over streamable HTTP against servers that answer badly: the official SDK's server
returning a file name read with `surrogateescape`, and a hand-written server (`Stranger`, on
127.0.0.1, in this process) whose answers are not JSON, not JSON-RPC, empty, huge, of the wrong
shape or type, as a JSON body or as an event stream. Also `toolkit.mcp.http`'s byte rewriting."""

from __future__ import annotations

import asyncio
import gzip
import json
import sys
import time
import zlib
from http.server import BaseHTTPRequestHandler

import pytest
from loopback import announced, serving

import toolkit.mcp.http
from toolkit.errors import McpError
from toolkit.mcp.client import McpClient, McpConnectionLost
from toolkit.mcp.http import _SurrogatesRead, surrogates_replaced

FILE_NAME = b"caf\xe9.txt".decode("utf-8", "surrogateescape")
"""A file name read with `surrogateescape`: `json.dumps` writes it as `"caf\\udce9.txt"`."""
HUGE = 5_000_000

SDK_SERVER = f"""
import socket, sys, uvicorn
import mcp_types as types
from mcp.server.lowlevel import Server

async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(name="file_name", input_schema={{"type": "object"}})])

async def call_tool(ctx, params):
    return types.CallToolResult(content=[types.TextContent(text={FILE_NAME!r})])

app = Server("files", version="1", on_list_tools=list_tools, on_call_tool=call_tool).streamable_http_app()
sock = socket.create_server(("127.0.0.1", 0))  # any free port, bound here, then announced (`loopback.announced`)
print(f"files on http://127.0.0.1:{{sock.getsockname()[1]}}/mcp", file=sys.stderr, flush=True)
uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
"""


def _result(rid: object, result: object) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode()


def _text(text: str) -> dict:
    return {"content": [{"type": "text", "text": text}]}


def _event(body: bytes) -> bytes:
    return b"event: message\ndata: " + body + b"\n\n"


JSON, EVENTS = "application/json", "text/event-stream"
ANSWERS = {  # tool name -> (Content-Type, body) for the call's id
    "ok": lambda rid: (JSON, _result(rid, _text("ok"))),
    "file_name": lambda rid: (JSON, _result(rid, _text(FILE_NAME))),
    "file_name_events": lambda rid: (EVENTS, _event(_result(rid, _text(FILE_NAME)))),
    "not_json": lambda rid: (JSON, b"<html>502 Bad Gateway</html>"),
    "not_json_events": lambda rid: (EVENTS, _event(b"oops")),
    "not_json_rpc": lambda rid: (JSON, b'{"hello": 1}'),
    "null_result": lambda rid: (JSON, _result(rid, None)),
    "empty": lambda rid: (JSON, b""),
    "empty_events": lambda rid: (EVENTS, b""),
    "html": lambda rid: ("text/html", b"<html>hello</html>"),
    "no_type": lambda rid: ("", b"hello"),
    "content_not_list": lambda rid: (JSON, _result(rid, {"content": "text"})),
    "error_content_not_list": lambda rid: (JSON, _result(rid, {"content": "boom", "isError": True})),
    "wrong_id": lambda rid: (JSON, _result(424242, _text("ok"))),
    "null_id_error": lambda rid: (
        JSON,
        json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}).encode(),
    ),
    "huge": lambda rid: (JSON, _result(rid, _text("x" * HUGE))),
    "huge_events": lambda rid: (EVENTS, _event(_result(rid, _text("x" * HUGE)))),
    # an HTTP error status (status, Content-Type, body)
    "unauthorized": lambda rid: (401, "text/html", b"<html>Please log in</html>"),
    "forbidden_json": lambda rid: (403, JSON, b'{"error": "invalid_token", "error_description": "expired"}'),
    "crashed": lambda rid: (500, "text/plain", b"Traceback (most recent call last): ..."),
    "crashed_gzip": lambda rid: (502, "text/html", b"\x1f\x8bnot really gzip"),
    "rpc_error_at_400": lambda rid: (
        400,
        JSON,
        json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "Invalid params: x"}}).encode(),
    ),
}


class Stranger(BaseHTTPRequestHandler):
    """A hand-written streamable-HTTP MCP server: `initialize`, `tools/list`, and `tools/call`
    answered as `ANSWERS` says."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def _reply(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        if kind:
            self.send_header("Content-Type", kind)
        if encoding := getattr(self, "_encoding", None):
            self.send_header("Content-Encoding", encoding)
            self._encoding = None
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Mcp-Session-Id", "s1")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._reply(405, "", b"")

    def do_DELETE(self) -> None:
        self._reply(200, "", b"")

    def do_POST(self) -> None:
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        rid, method = message.get("id"), message.get("method")
        if rid is None:  # a notification
            self._reply(202, "", b"")
        elif method == "initialize":
            info = {"name": "stranger", "version": "1"}
            version = message["params"]["protocolVersion"]
            capabilities = {"tools": {}}
            self._reply(
                200, JSON, _result(rid, {"protocolVersion": version, "capabilities": capabilities, "serverInfo": info})
            )
        elif method == "tools/list":
            tools = [{"name": name, "inputSchema": {"type": "object"}} for name in ANSWERS]
            self._reply(200, JSON, _result(rid, {"tools": tools}))
        elif method == "tools/call":
            name = message["params"]["name"]
            answer = ANSWERS[name](rid)
            if name == "crashed_gzip":
                self._encoding = "gzip"
            if len(answer) == 2:
                answer = (200, *answer)
            self._reply(*answer)
        else:
            error = {"code": -32601, "message": f"Method not found: {method}"}
            self._reply(200, JSON, json.dumps({"jsonrpc": "2.0", "id": rid, "error": error}).encode())


@pytest.fixture(scope="module")
def stranger_url():
    with serving(Stranger) as port:
        yield f"http://127.0.0.1:{port}/mcp"


@pytest.fixture(scope="module")
def stranger(stranger_url):
    with McpClient.http(stranger_url, name="stranger", request_timeout=10) as client:
        yield client


@pytest.fixture(scope="module")
def sdk_server_url():
    with announced([sys.executable, "-c", SDK_SERVER]) as (url, _):
        yield url


def _text_of(client: McpClient, name: str) -> str:
    return client.call_tool(name, {}).content[0].text


# --- an escaped unpaired surrogate: read as U+FFFD, as over stdio ---------------------------


def test_the_sdk_server_s_escaped_unpaired_surrogate_is_read_as_over_stdio(sdk_server_url):
    """The SDK server writes the file name as `"caf\\udce9.txt"`; over stdio it read as "caf\ufffd.txt",
    over HTTP the SDK's parser refused the body and the call failed: "MCP server 'files' answered with
    an error: Failed to parse JSON response: 1 validation error … lone leading surrogate …"."""
    with McpClient.http(sdk_server_url, name="files", request_timeout=10) as client:
        assert _text_of(client, "file_name") == "caf\ufffd.txt"


@pytest.mark.parametrize("name", ["file_name", "file_name_events"])
def test_an_escaped_unpaired_surrogate_in_a_json_body_or_an_event_is_read_as_a_replacement_character(stranger, name):
    assert _text_of(stranger, name) == "caf\ufffd.txt"


@pytest.mark.parametrize(
    "text, read",
    [
        (rb'"caf\udce9.txt"', rb'"caf\ufffd.txt"'),
        (rb'"\uD800 and \uDFFF"', rb'"\ufffd and \ufffd"'),
        (rb'"\ud800\ud800"', rb'"\ufffd\ufffd"'),
        (rb'"\ud83d\ude00"', rb'"\ud83d\ude00"'),  # a pair: one character, kept
        (rb'"\\udce9"', rb'"\\udce9"'),  # an escaped backslash, then text
        (rb'"\\\udce9"', rb'"\\\ufffd"'),  # an escaped backslash, then an escape
        (rb'"\"\udce9"', rb'"\"\ufffd"'),
        (rb'"\u00e9\ud7ff\ue000"', rb'"\u00e9\ud7ff\ue000"'),  # no surrogates
        (b'"caf\xc3\xa9"', b'"caf\xc3\xa9"'),
    ],
)
def test_surrogates_replaced_rewrites_only_unpaired_surrogate_escapes(text, read):
    assert surrogates_replaced(text) == read
    assert json.loads(read) == json.loads(text.decode()).encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _streamed(chunks: list[bytes]) -> bytes:
    class Chunks:
        async def __aiter__(self):
            for chunk in chunks:
                yield chunk

        async def aclose(self) -> None:
            pass

    async def read() -> bytes:
        return b"".join([part async for part in _SurrogatesRead(Chunks())])

    return asyncio.run(read())


def test_an_escape_cut_between_two_chunks_is_read_whole():
    """Every cut of two events, a pair, an escaped backslash and a lone surrogate: the same bytes as
    rewriting it whole (a cut inside an escape, or between `\\\\` and `udce9`, must not change it)."""
    body = _event(rb'{"a": "\ud83d\ude00 \\udce9 x\udce9"}') + _event(b'{"b": "\\ud800"}\r\n')
    whole = surrogates_replaced(body)
    assert whole.count(rb"\ufffd") == 2
    for cut in range(len(body) + 1):
        for second in (cut, min(cut + 3, len(body))):
            assert _streamed([body[:cut], body[cut:second], body[second:]]) == whole


# --- answers that are not JSON-RPC: a short McpError, and the connection goes on -------------


@pytest.mark.parametrize(
    "name, problem",
    [
        ("not_json", "it answered with a body that is not JSON (expected value at line 1 column 1)"),
        ("not_json_events", "it answered with a body that is not JSON (expected value at line 1 column 1)"),
        ("not_json_rpc", "it sent a message that is not valid JSON-RPC 2.0 (a reply with a malformed result or error)"),
        ("null_result", "it sent a message that is not valid JSON-RPC 2.0 (a reply with a malformed result or error)"),
        ("empty", "it answered with an empty body, where a JSON-RPC message belongs"),
        ("html", "it answered with a body of type 'text/html', where JSON or an event stream belongs"),
        ("no_type", "it answered with a body with no Content-Type, where JSON or an event stream belongs"),
        (
            "content_not_list",
            "ValidationError: 1 validation error for CallToolResult (content: Input should be a valid list)",
        ),
        (
            "error_content_not_list",
            "ValidationError: 1 validation error for CallToolResult (content: Input should be a valid list)",
        ),
    ],
)
def test_an_answer_that_is_no_json_rpc_message_is_a_short_error_and_the_next_call_is_answered(stranger, name, problem):
    """These read "MCP server … answered with an error: Failed to parse JSON response: 11 validation
    errors for union[JSONRPCRequest, …" (a dozen lines of pydantic, and the server had sent no error)."""
    with pytest.raises(McpError) as raised:
        stranger.call_tool(name, {})
    assert type(raised.value) is McpError
    assert str(raised.value) == f"MCP server 'stranger' broke the protocol: {problem}"
    assert _text_of(stranger, "ok") == "ok"


@pytest.mark.parametrize(
    "name, what", [("wrong_id", "an answer with id 424242"), ("null_id_error", "an error with id null ('Parse error')")]
)
def test_a_json_body_with_another_request_s_id_fails_the_call_at_once_and_the_next_is_answered(
    stranger_url, name, what
):
    """The SDK reads a JSON body's id as it is, and drops an answer whose id no request waits for:
    the call waited out its whole deadline, though the server had answered at once."""
    with McpClient.http(stranger_url, name="stranger", request_timeout=120) as client:
        started = time.monotonic()
        with pytest.raises(McpError) as raised:
            client.call_tool(name, {})
        assert time.monotonic() - started < 60  # not the 120 s request timeout
        assert str(raised.value) == (
            f"MCP server 'stranger' broke the protocol: it sent {what}, the id of no request waiting for an answer; "
            "a server answers each request with that request's id"
        )
        assert _text_of(client, "ok") == "ok"


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("unauthorized", "HTTP 401 Unauthorized (it wants credentials, which McpClient.http does not send)"),
        ("forbidden_json", "HTTP 403 Forbidden (it wants credentials, which McpClient.http does not send)"),
        ("crashed", "HTTP 500 Internal Server Error"),
        ("crashed_gzip", "HTTP 502 Bad Gateway"),
        ("rpc_error_at_400", "Invalid params: x"),
    ],
)
def test_an_http_error_status_is_named_and_the_next_call_is_answered(stranger, name, error):
    """Every status but 404 read "Server returned an error response": a learner could not tell a
    missing token from a crashed server. A JSON-RPC error sent with the status is the server's own."""
    with pytest.raises(McpError) as raised:
        stranger.call_tool(name, {})
    assert str(raised.value) == f"MCP server 'stranger' answered with an error: {error}"
    assert _text_of(stranger, "ok") == "ok"


def answering(status: int, body: bytes, headers: dict[str, str]) -> type[BaseHTTPRequestHandler]:
    """A web server that answers every request with `status`, `body` and `headers`, whatever it was asked."""

    class Answering(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _answer(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(status)
            for name, value in {**headers, "Content-Length": str(len(body))}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_DELETE = _answer

    return Answering


Refusing = answering(401, b"<html>Sign in</html>", {"Content-Type": "text/html", "WWW-Authenticate": "Bearer"})
"""A gateway in front of an MCP server that wants a token: 401 with a login page, to everything."""


def connecting_error(handler: type[BaseHTTPRequestHandler], path: str) -> tuple[int, str]:
    """(the port, the error) of listing the tools of a server `handler` serves, at `path` on it."""
    with serving(handler) as port:
        client = McpClient.http(f"http://127.0.0.1:{port}{path}", connect_timeout=10)
        with pytest.raises(McpError) as raised:
            client.list_tools(timeout=10)
        client.close()
    return port, str(raised.value)


def test_a_server_that_wants_credentials_says_so_when_connecting_and_its_url_s_token_is_masked():
    port, error = connecting_error(Refusing, "/mcp?token=s3cret")
    assert error == (
        f"cannot reach MCP server 'http://127.0.0.1:{port}/mcp?token=***': MCPError: HTTP 401 Unauthorized "
        "(it wants credentials, which McpClient.http does not send)"
    )


def test_an_event_stream_that_ends_without_an_answer_costs_that_call_alone(stranger_url):
    """The call's outcome is unknown (`McpConnectionLost`), but the server is still there: every
    later call read "went away before this call (SSE stream ended without a response); it was not
    sent", though each is a new POST it would have answered."""
    with McpClient.http(stranger_url, name="stranger", request_timeout=10) as client:
        with pytest.raises(McpConnectionLost) as raised:
            client.call_tool("empty_events", {})
        assert str(raised.value) == (
            "MCP server 'stranger' went away during the call: SSE stream ended without a response"
        )
        assert [_text_of(client, "ok") for _ in range(2)] == ["ok", "ok"]


# --- a compressed body (a reverse proxy's gzip): read as a plain one -----------------------------


class Compressing(Stranger):
    """The stranger server behind a proxy that compresses every body the client accepts compressed."""

    coding = "gzip"

    def _reply(self, status: int, kind: str, body: bytes) -> None:
        if body and self.coding in self.headers.get("Accept-Encoding", "") and not getattr(self, "_encoding", None):
            body = gzip.compress(body) if self.coding == "gzip" else zlib.compress(body)
            self._encoding = self.coding
        super()._reply(status, kind, body)


@pytest.fixture(scope="module", params=["gzip", "deflate"])
def compressing(request):
    handler = type("Compressing", (Compressing,), {"coding": request.param})
    with serving(handler) as port:
        with McpClient.http(f"http://127.0.0.1:{port}/mcp", name="stranger", request_timeout=10) as client:
            yield client


@pytest.mark.parametrize(
    "name, text",
    [("ok", "ok"), ("file_name", "caf\ufffd.txt"), ("file_name_events", "caf\ufffd.txt"), ("huge_events", "x" * HUGE)],
)
def test_a_compressed_answer_is_read_as_a_plain_one(compressing, name, text):
    """An escaped unpaired surrogate in a compressed body was left to the SDK (the hook rewrote only
    plain bodies): "broke the protocol: it answered with a body that is not JSON (lone leading surrogate
    in hex escape …)", where the same body sent plain read "caf\ufffd.txt"."""
    assert _text_of(compressing, name) == text


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("unauthorized", "HTTP 401 Unauthorized (it wants credentials, which McpClient.http does not send)"),
        ("crashed", "HTTP 500 Internal Server Error"),
        ("rpc_error_at_400", "Invalid params: x"),
    ],
)
def test_a_compressed_error_status_is_named_as_a_plain_one(compressing, name, error):
    with pytest.raises(McpError) as raised:
        compressing.call_tool(name, {})
    assert str(raised.value) == f"MCP server 'stranger' answered with an error: {error}"
    assert _text_of(compressing, "ok") == "ok"


# --- a huge result: whole, or a clear error ----------------------------------------------------


@pytest.mark.parametrize("name", ["huge", "huge_events"])
def test_a_five_megabyte_text_arrives_whole_as_a_json_body_or_an_event(stranger, name):
    """As an event it failed: "went away during the call: SSE stream failed: Server-sent event exceeded
    the 1048576 byte limit", and every later call was not sent."""
    assert _text_of(stranger, name) == "x" * HUGE


def test_an_event_larger_than_the_limit_fails_that_call_clearly_and_the_next_is_answered(stranger_url, monkeypatch):
    monkeypatch.setattr(toolkit.mcp.http, "MAX_EVENT_BYTES", 100_000)
    with McpClient.http(stranger_url, name="stranger", request_timeout=10) as client:
        with pytest.raises(McpConnectionLost) as raised:
            client.call_tool("huge_events", {})
        assert str(raised.value) == (
            "MCP server 'stranger' went away during the call: SSE stream failed: Server-sent event exceeded "
            "the 100000 byte limit."
        )
        assert _text_of(client, "ok") == "ok"


Missing = answering(404, b"Not Found", {"Content-Type": "text/plain"})
"""A web server with no MCP endpoint at the path asked: 404 for everything."""


def test_a_404_while_connecting_says_to_check_the_path():
    """It said only "MCPError: Not Found": a URL without the server's path (`/mcp`) is the usual slip."""
    port, error = connecting_error(Missing, "/")
    assert error == (
        f"cannot reach MCP server 'http://127.0.0.1:{port}/': MCPError: Not Found; nothing answers MCP at that "
        "path: check the URL's path (a server made with the MCP SDK answers at /mcp, e.g. http://127.0.0.1:8000/mcp)"
    )


class WebPage(BaseHTTPRequestHandler):
    """A web page where an MCP endpoint was expected: every request answered with HTML (or nothing)."""

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = b"<html>welcome</html>" if self.path.startswith("/page") else b""
        self.send_response(200)
        if body:
            self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_DELETE = do_POST


@pytest.mark.parametrize(
    ("path", "what"),
    [
        ("/page", "it answered with a body of type 'text/html', where JSON or an event stream belongs"),
        ("/empty", "it answered with a body with no Content-Type, where JSON or an event stream belongs"),
    ],
)
def test_a_url_that_answers_no_mcp_while_connecting_is_said_as_for_a_request(path, what):
    """A URL that answers with a web page (the site's root, not its /mcp) failed the connection
    as the SDK words it, "MCPError: Unexpected content type: text/html"; a request's answer of the
    same kind was already said in words."""
    from toolkit.errors import McpConnectionError

    with serving(WebPage) as port:
        with pytest.raises(McpConnectionError) as caught:
            McpClient.http(f"http://127.0.0.1:{port}{path}", name="site", connect_timeout=30).connect()
    assert str(caught.value) == f"cannot reach MCP server 'site': {what}"


# --- a server that stopped between two calls -------------------------------------------------


def test_a_call_to_a_server_that_stopped_says_it_was_not_sent_and_its_tools_are_left_out():
    """Its POST could not connect, so nothing was sent; the model read "went away during the call
    (Connection closed). Its outcome is unknown: ... Tell the user the outcome is unknown and must
    be checked", on that call and on every later one (the SDK's transport had ended, unnoticed), and
    the cache kept offering the tools."""
    from toolkit.chat.messages import ToolCall
    from toolkit.errors import McpConnectionError
    from toolkit.mcp.provider import McpToolProvider

    with announced([sys.executable, "-c", SDK_SERVER]) as (url, process):
        with McpClient.http(url, name="files", request_timeout=10) as client:
            provider = McpToolProvider([client])
            (tool,) = provider.provide()
            process.terminate()
            process.wait(timeout=60)  # a hang guard: it stops at once
            results = [tool.execute(ToolCall(id=f"c{n}", name="file_name", arguments="{}")) for n in range(2)]
            assert [r.is_error for r in results] == [True, True]
            assert [r.content for r in results] == [
                "Tool 'file_name' failed: MCP server 'files' cannot be reached (ConnectError: All connection "
                "attempts failed); it was not sent",
                "Tool 'file_name' failed: MCP server 'files' went away before this call (ConnectError: All "
                "connection attempts failed); it was not sent",
            ]
            with pytest.raises(McpConnectionError, match=r"^MCP server 'files' went away \(ConnectError: All"):
                client.list_tools()
            assert provider.provide() == [] and provider.partial


# --- a server that ends its session --------------------------------------------------------


class Expiring(Stranger):
    """A stranger server with sessions: `initialize` opens `s1`, `s2`, ...; a call to `expire` ends
    the session it came in (a restarted server forgets them all), and every later request in it is
    answered 404, as MCP says. `ok` answers with its session's id."""

    opened: list[str]
    ended: set[str]
    gone: tuple[str, bytes] = ("text/plain", b"Not Found")
    """The 404's Content-Type and body (the SDK's server sends a JSON-RPC error, "Session not found")."""

    def _reply(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        if kind:
            self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Mcp-Session-Id", self._session)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self._session = self.headers.get("Mcp-Session-Id", "")
        if self._session in self.ended:
            self._reply(404, *self.gone)
        elif message.get("method") == "initialize":
            self.opened.append(f"s{len(self.opened) + 1}")
            self._session = self.opened[-1]
            info = {"name": "expiring", "version": "1"}
            result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {}, "serverInfo": info}
            self._reply(200, JSON, _result(message["id"], result))
        elif message.get("method") == "tools/call":
            if message["params"]["name"] == "expire":
                self.ended.add(self._session)
            self._reply(200, JSON, _result(message["id"], _text(self._session)))
        elif message.get("method") == "tools/list":
            tools = [{"name": name, "inputSchema": {"type": "object"}} for name in ("ok", "expire")]
            self._reply(200, JSON, _result(message["id"], {"tools": tools}))
        elif message.get("id") is None:
            self._reply(202, "", b"")
        else:
            error = {"code": -32601, "message": "Method not found"}
            self._reply(200, JSON, json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error}).encode())


SESSION_NOT_FOUND = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Session not found"}}'


@pytest.mark.parametrize("gone", [("text/plain", b"Not Found"), (JSON, SESSION_NOT_FOUND)], ids=["plain", "json-rpc"])
def test_a_request_in_a_session_the_server_ended_is_sent_again_in_a_new_one(gone):
    """MCP: a client answered 404 for its session "MUST start a new session" (the request was not
    handled). Every later call read "answered with an error: Session terminated" (or the server's
    "Session not found", as the SDK's server words it) for as long as the client lived."""
    handler = type("Expiring", (Expiring,), {"opened": [], "ended": set(), "gone": gone})
    with serving(handler) as port:
        with McpClient.http(f"http://127.0.0.1:{port}/mcp", name="expiring", request_timeout=10) as client:
            assert _text_of(client, "ok") == "s1"
            assert _text_of(client, "expire") == "s1"  # the server ends s1 after this answer
            assert [_text_of(client, "ok") for _ in range(2)] == ["s2", "s2"]
            assert [t.name for t in client.list_tools()] == ["ok", "expire"]
    assert handler.opened == ["s1", "s2"]


class Deleting(Expiring):
    """`Expiring`, noting each DELETE (a client ending its session) by the session it names."""

    deleted: list[str]
    _session = ""  # a GET (the client's stream for the server's own messages) names none: refused, 405

    def do_DELETE(self) -> None:
        self._session = self.headers.get("Mcp-Session-Id", "")
        self.deleted.append(self._session)
        self.ended.add(self._session)
        self._reply(200, "", b"")


def test_closing_a_client_ends_its_session_on_the_server():
    """MCP: a client that no longer needs its session SHOULD send a DELETE naming it, so the server can
    let go of it. `close()` cancelled the connection, the SDK's DELETE with it: a server kept every
    session a notebook run had opened (each run of week 9 another one). The DELETE is sent now, bounded
    by `CLOSE_SESSION_S` (a server that does not answer it costs no more)."""
    handler = type("Deleting", (Deleting,), {"opened": [], "ended": set(), "deleted": []})
    with serving(handler) as port:
        client = McpClient.http(f"http://127.0.0.1:{port}/mcp", name="deleting", request_timeout=10)
        assert _text_of(client, "ok") == "s1"
        client.close()
        assert handler.deleted == ["s1"]
