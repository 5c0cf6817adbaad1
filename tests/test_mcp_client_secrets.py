"""`toolkit.mcp.client`: the credentials of an MCP server's URL, and the secrets a stdio server is
started with, never show in its name or errors."""

import base64
import http.server
import json
import logging
import os
import sys
from pathlib import Path

import pytest
from loopback import announced, serving

from toolkit.errors import McpConnectionError, McpError
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider

QUIRKY = Path(__file__).parent / "mcp_servers" / "quirky_server.py"


def test_an_unreachable_url_server_is_named_without_its_credentials():
    from loopback import closed_port

    with closed_port() as port:  # held while the client connects: no other test's server can take it
        url = f"http://learner:pw-s3cret-42@127.0.0.1:{port}/mcp?token=tok-abcdef-99&v=1"
        client = McpClient(url, connect_timeout=30)
        assert "pw-s3cret-42" not in client.name and "tok-abcdef-99" not in client.name
        with pytest.raises(McpConnectionError) as raised:
            client.list_tools()
    text = str(raised.value)
    assert text.startswith("cannot reach MCP server 'http://learner:***@127.0.0.1:")
    assert "/mcp?token=***&v=1'" in text
    assert "pw-s3cret-42" not in text and "tok-abcdef-99" not in text


class _EchoingAuthorization(http.server.BaseHTTPRequestHandler):
    """An MCP server behind a password that answers every request with a JSON-RPC error quoting the
    `Authorization` header it got, as a misconfigured proxy's or a debugging server's error does."""

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        said = f"unauthorized: {self.headers.get('Authorization')}"
        body = json.dumps({"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": -32001, "message": said}})
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())


def test_a_url_server_echoing_the_basic_credential_of_its_password_shows_it_masked():
    """httpx2 sends `learner:pw-s3cret-42@` as `Authorization: Basic <base64>`: the password in
    another spelling, masked in the error as the password itself is."""
    basic = base64.b64encode(b"learner:pw-s3cret-42").decode()
    with serving(_EchoingAuthorization) as port:
        client = McpClient(f"http://learner:pw-s3cret-42@127.0.0.1:{port}/mcp", connect_timeout=30)
        try:
            with pytest.raises(McpConnectionError) as raised:
                client.list_tools()
        finally:
            client.close()
    assert str(raised.value) == (
        f"cannot reach MCP server 'http://learner:***@127.0.0.1:{port}/mcp': MCPError: unauthorized: Basic ***"
    )
    assert basic not in repr(raised.value.__cause__) + repr(raised.value.__context__)


def test_a_name_given_explicitly_is_kept():
    assert McpClient("http://127.0.0.1:1/mcp", name="orders").name == "orders"


# A server that cannot start and says why on stderr, quoting what it was given (as many do).
SAYS_WHAT_IT_GOT = "import os, sys; print('bad config:', sys.argv[1:], os.environ['SERVICE_TOKEN'], file=sys.stderr)"
STDIO_SECRETS = ("tok-abcdef-99", "pw-s3cret-42", "db-pa55word", "env-t0ken-77")


def test_a_stdio_server_s_secret_args_and_env_never_show_in_its_name_errors_or_log(caplog):
    """The name was the whole command line, `--token` value and all, in every error, log line and
    `left_out` key; the stderr tail quoted the secrets the server was given in `env=`."""
    secrets = ["--token", "tok-abcdef-99", "--password=pw-s3cret-42", "postgres://u:db-pa55word@db"]
    args = ["-c", SAYS_WHAT_IT_GOT, *secrets]
    env = {"SERVICE_TOKEN": "env-t0ken-77", "PATH": os.environ.get("PATH", "")}
    client = McpClient.stdio(sys.executable, args, env=env, connect_timeout=30)
    shown = f"{Path(sys.executable).name} -c {SAYS_WHAT_IT_GOT} --token *** --password=*** postgres://u:***@db"
    assert client.name == shown
    with caplog.at_level(logging.WARNING, "toolkit.mcp"):
        provider = McpToolProvider([client])
        assert provider.provide() == []
    assert provider.left_out == {
        shown: f"cannot reach MCP server {shown!r}: MCPError: Connection closed; its stderr: bad config: ['--token', "
        "'***', '--password=***', 'postgres://u:***@db'] *** (left out for 60 s, then tried again)"
    }
    for secret in STDIO_SECRETS:
        assert secret not in caplog.text


SAYS_ITS_VALUES = "import sys; print('using', [a.split()[-1].split('=')[-1] for a in sys.argv[2::2]], file=sys.stderr)"


def test_a_stdio_server_given_a_header_or_setting_holding_a_secret_never_shows_its_value():
    """`npx mcp-remote URL --header "Authorization: Bearer <token>"` is how a remote server is reached
    over stdio: the whole argument was the secret, so the server's stderr quoting the token alone (as
    mcp-remote logs it) showed it. The secrets of an argument are the values `scrub` masks in it."""
    given = ["Authorization: Bearer zzTop998877", "X-Api-Key: abcdef123456", "token=tok-in-config-77"]
    args = ["-c", SAYS_ITS_VALUES, *(word for value in given for word in ("--header", value))]
    client = McpClient.stdio(sys.executable, args, connect_timeout=30)
    shown = (
        f"{Path(sys.executable).name} -c {SAYS_ITS_VALUES} --header Authorization: Bearer *** --header X-Api-Key: ***"
    )
    assert client.name == shown + " --header token=***"
    with pytest.raises(McpConnectionError) as raised:
        client.list_tools()
    assert str(raised.value).endswith("MCPError: Connection closed; its stderr: using ['***', '***', '***']")
    for secret in ("zzTop998877", "abcdef123456", "tok-in-config-77"):
        assert secret not in str(raised.value)


def test_a_stdio_server_given_an_env_value_holding_a_secret_never_shows_it():
    """An `env` variable whose name says nothing (`MCP_HEADERS`) may hold a header with a token:
    its secrets, as `scrub` finds them, are masked too."""
    code = "import os, sys; print('headers', os.environ['MCP_HEADERS'].split()[-1], file=sys.stderr)"
    env = {"MCP_HEADERS": "Authorization: Bearer envTok556677", "PATH": os.environ.get("PATH", "")}
    client = McpClient.stdio(sys.executable, ["-c", code], env=env, connect_timeout=30)
    with pytest.raises(McpConnectionError) as raised:
        client.list_tools()
    assert str(raised.value).endswith("MCPError: Connection closed; its stderr: headers ***")


def test_the_sdk_s_and_httpx2_s_log_lines_never_hold_an_http_server_s_url_secrets(caplog):
    """The SDK logs the URL it connects to at DEBUG and httpx2 each request's URL at INFO, as given:
    the user info's password and a `?token=` value were in a learner's log. Shown as `mask_url`
    shows them (`learner:***@`, `token=***`)."""
    with announced([sys.executable, str(QUIRKY), "--http", "--cancel-file", os.devnull]) as (url, _):
        port = url.split(":")[2].split("/")[0]
        with caplog.at_level(logging.DEBUG):
            client = McpClient(
                f"http://learner:pw-s3cret-42@127.0.0.1:{port}/mcp?token=tok-abcdef-99", connect_timeout=10
            )
            assert client.list_tools()
    shown = f"http://learner:***@127.0.0.1:{port}/mcp?token=***"
    said = {r.name: r.getMessage() for r in caplog.records if r.name in ("mcp.client.streamable_http", "httpx2")}
    assert f"Connecting to StreamableHTTP endpoint: {shown}" in [
        r.getMessage() for r in caplog.records if r.name == "mcp.client.streamable_http"
    ]
    assert said["httpx2"].startswith(f"HTTP Request: POST {shown} ")
    assert [
        r.getMessage() for r in caplog.records if "pw-s3cret-42" in r.getMessage() or "tok-abcdef-99" in r.getMessage()
    ] == []


def test_a_stdio_server_s_stderr_is_masked_before_it_is_cut_and_shown_on_one_line():
    """The stderr tail was cut to its last 400 characters before the secrets were masked: a secret
    the cut went through was no longer found, and its end showed ("0ken-77…"). Its lines were
    quoted as they were, a traceback and all, in an error meant to be one line."""
    crash = (
        "import os, sys; sys.stderr.write(os.environ['SERVICE_TOKEN'] + ' ' + 'x' * 393 + '\\n'); "
        'sys.stderr.write(\'Traceback (most recent call last):\\n  File "server.py", line 3, in <module>\\n'
        "ModuleNotFoundError: No module named \\'shop\\'\\n'); sys.exit(1)"
    )
    env = {"SERVICE_TOKEN": "env-t0ken-77", "PATH": os.environ.get("PATH", "")}
    client = McpClient.stdio(sys.executable, ["-c", crash], env=env, name="shop", connect_timeout=30)
    with pytest.raises(McpConnectionError) as caught:
        client.list_tools()
    assert str(caught.value) == (
        "cannot reach MCP server 'shop': MCPError: Connection closed; its stderr: Traceback (most recent call last): "
        "/ File \"server.py\", line 3, in <module> / ModuleNotFoundError: No module named 'shop'"
    )
    short = "import os, sys; sys.stderr.write(os.environ['SERVICE_TOKEN'] + ' ' + 'x' * 393); sys.exit(1)"
    client = McpClient.stdio(sys.executable, ["-c", short], env=env, name="shop", connect_timeout=30)
    with pytest.raises(McpConnectionError) as caught:
        client.list_tools()
    assert (
        str(caught.value) == "cannot reach MCP server 'shop': MCPError: Connection closed; its stderr: *** " + "x" * 393
    )


def test_a_stray_stdout_line_is_masked_before_it_is_cut():
    """A line a stdio server wrote on stdout that is not JSON is quoted in an error, cut to 80
    characters, and it was cut before the secrets were masked: a secret the cut went through was no
    longer found, and its start showed ("env-t…")."""
    says = "import os; print('config: ' + 'x' * 66 + os.environ['SERVICE_TOKEN'] + ' more', flush=True)"
    env = {"SERVICE_TOKEN": "env-t0ken-77", "PATH": os.environ.get("PATH", "")}
    client = McpClient.stdio(sys.executable, ["-c", says], env=env, name="shop", connect_timeout=30)
    with pytest.raises(McpConnectionError) as caught:
        client.list_tools()
    line = "config: " + "x" * 66 + "*** m…"
    assert str(caught.value) == (
        f"cannot reach MCP server 'shop': MCPError: Connection closed; it wrote a line that is not JSON ({line!r}); "
        "a stdio server must write only MCP messages to stdout (logs go to stderr)"
    )


def test_an_error_with_no_request_s_id_is_masked_before_it_is_cut():
    """The message of an error answering no request is quoted, cut to 200 characters, and it was cut
    before the secrets were masked: a secret the cut went through showed its start."""
    server = (
        "import json, os, sys\n"
        "for line in sys.stdin:\n"
        "    words = 'bad config: ' + 'x' * 180 + os.environ['SERVICE_TOKEN']\n"
        "    print(json.dumps({'jsonrpc': '2.0', 'id': None, 'error': {'code': -32600, 'message': words}}), flush=True)\n"
    )
    env = {"SERVICE_TOKEN": "env-t0ken-77", "PATH": os.environ.get("PATH", "")}
    client = McpClient.stdio(sys.executable, ["-c", server], env=env, name="s", connect_timeout=30)
    with pytest.raises(McpConnectionError) as caught:
        client.connect()
    words = "bad config: " + "x" * 180 + "***"
    assert str(caught.value) == (
        f"cannot reach MCP server 's': it broke the protocol while connecting: it sent an error with id null "
        f"({words!r}), the id of no request waiting for an answer; a server answers each request with that request's id"
    )


OUTPUT_MISMATCH_SERVER = """
import os, anyio, mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

async def list_tools(ctx, params):
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    return types.ListToolsResult(tools=[types.Tool(name="o", input_schema={"type": "object"}, output_schema=schema)])

async def call_tool(ctx, params):
    value = "x" * 190 + os.environ["SERVICE_TOKEN"]
    return types.CallToolResult(content=[types.TextContent(text="hi")], structured_content={"n": value})

async def main():
    server = Server("s", version="1", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
"""


def test_a_refused_structured_answer_is_masked_before_it_is_cut():
    """The SDK's words for structured content its outputSchema refuses quote the value, cut to 200
    characters: masked first, so a secret the cut goes through is still found."""
    env = {"SERVICE_TOKEN": "env-t0ken-77", "PATH": os.environ.get("PATH", "")}
    with McpClient.stdio(sys.executable, ["-c", OUTPUT_MISMATCH_SERVER], env=env, name="s", connect_timeout=30) as c:
        c.list_tools()
        with pytest.raises(McpError) as caught:
            c.call_tool("o", {})
    quoted = ("'" + "x" * 190 + "***' is not of type 'integer'")[:199] + "…"
    assert str(caught.value) == (
        f"MCP server 's' broke the protocol: tool 'o' answered with structured content that does not match its "
        f"outputSchema ({quoted}, at n); the call ran, but its result cannot be used"
    )


# A server that says on stderr (or stdout) what it holds, though it was never given it here: a key
# read from its own config file, a token from a file. Its script builds them from pieces, so no
# argument it is started with holds them (an argument's secrets count as given: `secrets_in`).
TELLS_ITS_OWN = (
    "import sys; print('auth failed for key sk-' + 'proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd, token ' + "
    "'ghp_' + 'abcdefghijklmnopqrstuvwxyz0123456789', file=sys.{stream}, flush=True); sys.exit(1)"
)
OWN_SECRETS = ("sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd", "ghp_abcdefghijklmnopqrstuvwxyz0123456789")


@pytest.mark.parametrize("stream", ["stderr", "stdout"])
def test_a_key_of_a_known_format_a_server_writes_is_masked_where_its_words_are_quoted(stream, caplog):
    """Only the secrets the server was given were masked: a key of a well-known format it wrote
    itself (`sk-…`, `ghp_…`) was quoted whole in the error, `left_out` and the log."""
    client = McpClient.stdio(sys.executable, ["-c", TELLS_ITS_OWN.format(stream=stream)], name="own")
    with caplog.at_level(logging.WARNING, "toolkit.mcp"):
        provider = McpToolProvider([client])
        assert provider.provide() == []
    said = provider.left_out["own"]
    assert "auth failed for key [REDACTED], token [REDACTED]" in said
    for secret in OWN_SECRETS:
        assert secret not in said and secret not in caplog.text


def test_a_key_of_a_known_format_in_a_server_s_error_answer_is_masked():
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name="t", input_schema={"type": "object"})])

    async def call_tool(ctx, params):
        raise MCPError(-32000, f"upstream refused key {OWN_SECRETS[0]}")

    server = Server("keys", version="1", on_list_tools=list_tools, on_call_tool=call_tool)
    with McpClient(server, name="keys") as client, pytest.raises(McpError) as caught:
        client.call_tool("t", {})
    assert str(caught.value) == "MCP server 'keys' answered with an error: upstream refused key [REDACTED]"


def test_a_stdio_server_given_a_placeholder_key_keeps_the_word_elsewhere_in_what_it_says():
    """`--api-key none` (a local model server's placeholder) made every "none" the server wrote
    `***`: "*** of the tools loaded"; the key is still masked where it stands as a credential."""
    code = "import sys; print('none of the tools loaded; sent Authorization: Bearer none', file=sys.stderr)"
    client = McpClient.stdio(sys.executable, ["-c", code, "--api-key", "none"], connect_timeout=30)
    shown_code = code.replace("Bearer none", "Bearer ***")
    assert client.name == f"{Path(sys.executable).name} -c {shown_code} --api-key ***"
    with pytest.raises(McpConnectionError) as raised:
        client.list_tools()
    assert str(raised.value).endswith(
        "MCPError: Connection closed; its stderr: none of the tools loaded; sent Authorization: Bearer ***"
    )
