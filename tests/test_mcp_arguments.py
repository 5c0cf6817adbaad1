"""What `McpToolProvider` and `McpClient` are given (`toolkit.mcp.provider`, `toolkit.mcp.client`):
a client alone, a command line, a server object or a number of seconds that is not one is a
developer error where it is given. They were a TypeError or AttributeError at the first
`provide()`, or (a string timeout) "the server cannot be reached"."""

import math

import pytest
from mcp.server.lowlevel import Server

from toolkit.chat.client import LONGEST_SLEEP_S
from toolkit.errors import ToolDefinitionError
from toolkit.loop.run import run_loop
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider


def _client():
    return McpClient(Server("s", version="1"), name="s")  # never connected: nothing here needs the server


@pytest.mark.parametrize(
    "clients, text",
    [
        (
            _client(),
            "McpToolProvider(McpClient object): McpToolProvider takes a list of McpClient objects, and got a "
            "McpClient. Fix: put it in a list: McpToolProvider([client])",
        ),
        (
            ["python -m mcp_server_time"],
            "McpToolProvider([str object]): a str is not an MCP client. Fix: make a client of it: "
            "McpClient.from_command_line('python -m mcp_server_time')",
        ),
        (
            [Server("s", version="1")],
            "McpToolProvider([Server object]): a Server is not an MCP client. Fix: make a client of it: "
            "McpClient(server), McpClient.stdio(...) or McpClient.http(url)",
        ),
    ],
    ids=["client-alone", "command-line", "server-object"],
)
def test_what_is_not_a_list_of_clients_is_refused_when_the_provider_is_made(clients, text):
    with pytest.raises(ToolDefinitionError) as caught:
        McpToolProvider(clients)
    assert str(caught.value) == text


@pytest.mark.parametrize("keyword", ["timeout", "list_timeout", "retry_after_s"])
@pytest.mark.parametrize("seconds", [-1, math.nan, math.inf, "5", None, True])
def test_a_provider_s_seconds_must_be_a_finite_number(keyword, seconds):
    at_least = "at least 0" if keyword == "retry_after_s" else "above 0"
    with pytest.raises(ToolDefinitionError) as caught:
        McpToolProvider([_client()], **{keyword: seconds})
    assert str(caught.value) == (
        f"McpToolProvider({keyword}={seconds!r}): {keyword} is a finite number of seconds {at_least}. "
        f"Fix: give a number, e.g. {keyword}=30"
    )


@pytest.mark.parametrize("limit", [0, -5, 1.5, "100", True, math.inf])
def test_max_result_chars_must_be_a_whole_number_above_zero_or_none(limit):
    with pytest.raises(ToolDefinitionError) as caught:
        McpToolProvider([_client()], max_result_chars=limit)
    assert str(caught.value) == (
        f"McpToolProvider(max_result_chars={limit!r}): max_result_chars is how many characters of a tool's result "
        "the model reads at most, a whole number above 0, or None for all of them. Fix: give one, e.g. "
        "max_result_chars=100_000"
    )


@pytest.mark.parametrize("keyword", ["connect_timeout", "request_timeout"])
@pytest.mark.parametrize("seconds", [0, -2.5, math.inf, "10"])
def test_a_client_s_seconds_must_be_a_finite_number_above_zero(keyword, seconds):
    with pytest.raises(ToolDefinitionError) as caught:
        McpClient("http://127.0.0.1:9/mcp", **{keyword: seconds})
    assert str(caught.value) == (
        f"McpClient({keyword}={seconds!r}): {keyword} is a finite number of seconds above 0. "
        f"Fix: give a number, e.g. {keyword}=30"
    )


@pytest.mark.parametrize(
    "sources, text",
    [
        (
            {"tools": [_client()]},
            "tools_from(McpClient object): it is an MCP client, not a tool. "
            "Fix: wrap it in a provider: run_loop(..., providers=[McpToolProvider([client])])",
        ),
        (
            {"providers": [_client()]},
            "providers=[McpClient object]: it is an MCP client, not a provider. "
            "Fix: wrap it: providers=[McpToolProvider([client])]",
        ),
    ],
    ids=["tools", "providers"],
)
def test_a_client_given_as_a_tool_or_a_provider_is_pointed_at_mcp_tool_provider(sources, text):
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel

    with pytest.raises(ToolDefinitionError) as caught:
        run_loop(ScriptedModel(["done"]), [UserMessage(content="?")], **sources)
    assert str(caught.value) == text


@pytest.mark.parametrize(
    "make, where, keyword",
    [
        (lambda s: McpClient("http://127.0.0.1:9/mcp", connect_timeout=s), "McpClient", "connect_timeout"),
        (lambda s: McpClient("http://127.0.0.1:9/mcp", request_timeout=s), "McpClient", "request_timeout"),
        (lambda s: McpToolProvider([_client()], timeout=s), "McpToolProvider", "timeout"),
        (lambda s: McpToolProvider([_client()], list_timeout=s), "McpToolProvider", "list_timeout"),
        (lambda s: McpToolProvider([_client()], retry_after_s=s), "McpToolProvider", "retry_after_s"),
        (lambda s: _client().list_tools(timeout=s), "McpClient.list_tools", "timeout"),
    ],
    ids=["connect", "request", "call", "list", "retry", "list_tools"],
)
def test_seconds_past_the_longest_wait_are_refused_as_chat_client_refuses_them(make, where, keyword):
    """`McpClient(connect_timeout=1e10)` was taken, and connecting failed later with "OverflowError:
    timestamp out of range for platform time_t", where `ChatClient(timeout=1e10)` is refused at once
    (`LONGEST_SLEEP_S`, 1e9 s): every time the package takes has that bound."""
    assert LONGEST_SLEEP_S == 1e9
    with pytest.raises(ToolDefinitionError) as caught:
        make(1e10)
    assert str(caught.value) == (
        f"{where}({keyword}=10000000000.0): {keyword} is at most 1e+09 seconds (about 32 years): a longer wait "
        f"overflows the clock that counts it. Fix: give a number, e.g. {keyword}=30"
    )
    if where != "McpClient.list_tools":  # the bound itself is taken (listing would connect)
        make(LONGEST_SLEEP_S)


@pytest.mark.parametrize(
    "text, problems",
    [
        ('{"n": 1e-400}', [("n", "1e-400", "an integer")]),
        ('{"n": 1.0000000000000000001}', [("n", "1.0000000000000000001", "an integer")]),
        ('{"n": 1e23, "x": 1e-400}', []),  # 1e23 is whole as written; a number's float is its float
        ('{"n": 27.0}', []),
    ],
)
def test_an_mcp_integer_is_read_as_the_model_wrote_it(text, problems):
    """Before: `1e-400` for an MCP tool's integer passed the client's check as its float, 0.0, and was sent."""
    from toolkit.mcp.schema import checked_arguments
    from toolkit.tools.arguments import parse_arguments

    schema = {"type": "object", "properties": {"n": {"type": "integer"}, "x": {"type": "number"}}, "required": ["n"]}
    _, found = checked_arguments(schema, parse_arguments("f", text))
    assert [(p.field, p.received, p.expected) for p in found] == problems


@pytest.mark.parametrize("value", [10**400, 10**5000], ids=["400-digits", "5000-digits"])
def test_an_int_no_float_holds_is_refused_as_too_long_not_an_overflow(value):
    """`math.isfinite(10**400)` raised OverflowError ("int too large to convert to float") out of the
    check itself; 10**5000 has no repr (Python's digit limit): its size is said in bits."""
    with pytest.raises(ToolDefinitionError) as caught:
        McpClient("http://127.0.0.1:9/mcp", request_timeout=value)
    assert str(caught.value) == (
        f"McpClient(request_timeout=<an int of {value.bit_length()} bits>): request_timeout is at most 1e+09 "
        "seconds (about 32 years): a longer wait overflows the clock that counts it. Fix: give a number, e.g. "
        "request_timeout=30"
    )
