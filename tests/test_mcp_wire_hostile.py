"""Strangers' MCP servers reached over a wire (in-memory streams, through the SDK's JSON-RPC dispatcher,
as over stdio or HTTP): a server that closes mid-call, a result that comes after the call's deadline,
a flood of progress notifications; and a caller's own transport, which opens only once."""

import anyio
import pytest
from mcp_wire import closing_on_call

from toolkit.chat.messages import ToolCall
from toolkit.errors import McpConnectionError
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider

ONCE = (
    "cannot reach MCP server 's': it was given to McpClient as a transport (an async context manager), which "
    "was opened before, and such a transport (one made with @asynccontextmanager, as the SDK's stdio_client and "
    "streamable_http_client are) opens only once; give McpClient a URL, McpClient.stdio(...) or a server object, "
    "which it connects to anew, or make a new McpClient with a new transport"
)


def test_a_server_that_closes_mid_call_leaves_the_outcome_unknown_and_a_used_transport_is_said_in_one_line():
    """The provider tries a server that went away again (`_try_list` closes and reconnects): a transport
    object (`McpClient(stdio_client(params))`) cannot be entered twice, and the server was left out with
    "AttributeError: '_AsyncGeneratorContextManager' object has no attribute 'args'"."""
    client = McpClient(closing_on_call(), name="s")
    provider = McpToolProvider([client], retry_after_s=0)
    (tool,) = provider.provide()
    got = tool.execute(ToolCall(id="1", name="t", arguments="{}"))
    assert got.is_error and got.content.startswith(
        "Tool 't' failed: MCP server 's' went away during the call (Connection closed). Its outcome is unknown"
    )
    assert client.gone == "Connection closed"
    assert provider.provide() == []
    assert provider.left_out == {"s": f"{ONCE} (left out for 0 s, then tried again)"}
    with pytest.raises(McpConnectionError) as raised:
        client.connect()
    assert str(raised.value) == ONCE
    provider.close()


def test_a_result_that_comes_after_the_deadline_is_dropped_and_the_next_call_is_answered():
    """The late answer's id is one this client gave up on (it sent `notifications/cancelled`): it is no
    broken protocol, fails no later request, and the connection stays usable. The late answer is sent
    once the caller has its timeout (a condition, not a longer sleep), and the second call is given far
    more than the 0.1 s (a loaded worker may not get its answer around in 0.1 s, in-process or not)."""
    import threading

    from test_mcp_unusual import _by_hand

    gave_up, sent_late, calls = threading.Event(), threading.Event(), []

    async def on_call(rid, send, answers):
        calls.append(rid)
        if len(calls) == 1:
            while not gave_up.is_set():
                await anyio.sleep(0.01)
            await send({"id": rid, "result": {"content": [{"type": "text", "text": "late"}]}})
            sent_late.set()
            return
        await send({"id": rid, "result": {"content": [{"type": "text", "text": f"answer {len(calls)}"}]}})

    with McpClient(_by_hand(on_call), name="hand") as client:
        (tool,) = McpToolProvider([client], timeout=0.1).provide()
        first = tool.execute(ToolCall(id="1", name="t", arguments="{}"))
        gave_up.set()
        assert sent_late.wait(60)
        (patient,) = McpToolProvider([client], timeout=60).provide()
        second = patient.execute(ToolCall(id="2", name="t", arguments="{}"))
        assert client.gone == ""
    assert first.is_error and first.content.startswith("Tool 't' failed: no answer within 0.1 s, so the call was")
    assert (second.is_error, second.content) == (False, "answer 2")


def test_a_flood_of_notifications_the_sdk_cannot_read_logs_a_few_lines_not_one_traceback_each(caplog):
    """A server sending progress the SDK refuses (`"progress": "50%"`) had the SDK log a warning with its
    traceback for each one: 200 tracebacks in a notebook that configured logging (week 9 does). The first
    few are logged, then one line says the rest are not; the call is answered."""
    import logging

    from test_mcp_unusual import _by_hand

    async def on_call(rid, send, answers):
        for _ in range(200):
            await send({"method": "notifications/progress", "params": {"progressToken": "p", "progress": "50%"}})
        await send({"id": rid, "result": {"content": [{"type": "text", "text": "done"}]}})

    with caplog.at_level(logging.WARNING):
        with McpClient(_by_hand(on_call), name="flood") as client:
            assert client.call_tool("t", {}).content[0].text == "done"
            assert client.call_tool("t", {}).content[0].text == "done"  # a second call: nothing more is logged
    said = [(r.name, r.getMessage(), bool(r.exc_info)) for r in caplog.records if r.name == "client"]
    validate = ("client", "Failed to validate notification: notifications/progress", True)
    assert said == [
        validate,
        validate,
        validate,
        (
            "client",
            "Failed to validate notification: notifications/progress (and later log lines like it on this MCP "
            "connection's thread 'mcp-flood' are left out)",
            False,
        ),
    ]


def _as_a_line(data):
    """What the SDK's stdio reader passes on for a line of `data` (JSON) that is no JSON-RPC message: its error."""
    import json

    import mcp_types as types
    from pydantic import ValidationError

    try:
        types.jsonrpc_message_adapter.validate_json(json.dumps(data), by_name=False)
    except ValidationError as exc:
        return exc
    raise AssertionError(f"{data!r} was read")


BATCH_ANSWER = (
    "Tool 't' failed: MCP server 'hand' broke the protocol: it sent a batch (a JSON array of 2 messages, answers "
    "among them), which MCP has not had since its 2025-06-18 version: none of them was read; a server sends each "
    "message on its own"
)


@pytest.mark.parametrize("batched", ["the answer", "log messages alone"])
def test_a_batch_is_not_read_and_one_holding_the_answer_fails_the_call_at_once(batched, caplog):
    """A server sending a batch (MCP dropped them in 2025-06-18): the SDK reads no message of it. One that
    held the call's answer was taken for a stray line that answers nothing, and the call waited out its
    whole deadline (30 s by default) for an answer that had come; it now fails at once, saying so. A batch of
    notifications alone answers nothing: the call goes on and its answer is read."""
    from test_mcp_unusual import _by_hand

    async def on_call(rid, send, answers):
        log = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}}
        answer = {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "in a batch"}]}}
        await send(_as_a_line([log, answer] if batched == "the answer" else [log, log]))
        if batched != "the answer":
            await send({"id": rid, "result": {"content": [{"type": "text", "text": "after it"}]}})

    with McpClient(_by_hand(on_call), name="hand") as client:
        (tool,) = McpToolProvider([client], timeout=5).provide()  # waited out, the error says "no answer within 5 s"
        got = tool.execute(ToolCall(id="1", name="t", arguments="{}"))
        later = tool.execute(ToolCall(id="2", name="t", arguments="{}"))
    if batched == "the answer":
        assert (got.is_error, got.content) == (True, BATCH_ANSWER)
        assert later.content == BATCH_ANSWER  # the server goes on sending batches: each call says so at once
    else:
        assert (got.is_error, got.content, later.content) == (False, "after it", "after it")


@pytest.mark.parametrize(
    ("method", "params", "what", "refusal"),
    [
        (
            "sampling/createMessage",
            {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5},
            "sampling (a completion from the client's own model)",
            "Sampling not supported",
        ),
        ("roots/list", None, "roots (the folders the client shares)", "List roots not supported"),
    ],
)
def test_a_server_asking_for_what_this_client_does_not_give_is_refused_the_call_goes_on_and_one_line_says_so(
    method, params, what, refusal, caplog
):
    """A 2025-11-25 server asking during a call for sampling or roots, which this client declares no
    capability for, is told no (the SDK's -32600) and may go on without it: the model reads what the
    server then answers. Nothing said the server had asked: a learner whose server answered less than
    its documentation promised had no clue why. One warning line per connection and kind of request says
    it, however often the server asks."""
    import logging

    from test_mcp_unusual import _by_hand

    refusals = []

    async def on_call(rid, send, answers):
        answers["a" + str(rid)], answered = anyio.create_memory_object_stream(1)
        await send({"id": "a" + str(rid), "method": method, **({"params": params} if params else {})})
        refusals.append((await answered.receive())["error"])
        await send({"id": rid, "result": {"content": [{"type": "text", "text": "went on without it"}]}})

    caplog.set_level(logging.WARNING, "toolkit.mcp")
    with McpClient(_by_hand(on_call, version="2025-11-25"), name="hand") as client:
        (tool,) = McpToolProvider([client]).provide()
        got = [tool.execute(ToolCall(id=str(n), name="t", arguments="{}")) for n in range(3)]
    assert [(g.is_error, g.content) for g in got] == [(False, "went on without it")] * 3
    assert refusals == [{"code": -32600, "message": refusal}] * 3
    assert [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"] == [
        f"MCP server 'hand' asked this client for {what} ({method}), which this client does not give (it "
        "declares no such capability): the server was told so and decides what its call answers without it "
        "(said once per connection)"
    ]


@pytest.mark.parametrize("still_listed", [False, True])
def test_a_tool_the_server_removed_while_offered_is_said_gone_to_the_model(still_listed):
    """A server whose tools changed between its listing and the model's call (a tool removed) answers the
    call -32602 "Unknown tool": the model read only that error, with the tool still among those it was
    offered for the rest of the turn, and called it again. The server is listed again on that answer;
    a tool no longer listed is said to be gone, not to be called again. A -32602 for a tool still listed
    (its arguments were wrong) says nothing more."""
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    names = ["t", "u"]

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name=n, input_schema={"type": "object"}) for n in names])

    async def call_tool(ctx, params):
        raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")

    with McpClient(Server("s", version="1", on_list_tools=list_tools, on_call_tool=call_tool), name="s") as client:
        (t, _) = McpToolProvider([client]).provide()
        if not still_listed:
            names.remove("t")
        got = t.execute(ToolCall(id="1", name="t", arguments="{}"))
    assert (got.is_error, got.content) == (
        True,
        "Tool 't' failed: MCP server 's' answered with an error: Unknown tool: t"
        + (
            ""
            if still_listed
            else ". MCP server 's' no longer offers this tool (its tools changed after they were "
            "offered): do not call it again"
        ),
    )
