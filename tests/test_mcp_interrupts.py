"""MCP calls that do not end normally: a server that goes away during a call or before it, a
tool or server that calls `sys.exit`, a connection loop that dies, and Ctrl-C while a server
connects or while a call runs. Servers: in-process, or stdio scripts started by the test."""

import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from ctrl_c import ctrl_c_when, main_thread_waits_in
from test_mcp import _wait_for

from toolkit.chat.messages import ToolCall
from toolkit.errors import McpConnectionError
from toolkit.mcp.client import McpClient, McpConnectionLost
from toolkit.mcp.provider import McpToolProvider
from toolkit.mcp.server import tools_server
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from

SERVERS = Path(__file__).parent / "mcp_servers"
QUIRKY = str(SERVERS / "quirky_server.py")
sys.path.insert(0, str(SERVERS))
from quirky_server import make_server  # noqa: E402

HANG_S = 120
"""How long a test here lets a request or connection hang when the code under test does not stop
waiting for it: far beyond what stopping takes on a loaded machine. A bound on a stop is half of it
(no speed is measured, only "waited or not")."""

UNKNOWN = (
    "Its outcome is unknown: the server may have done the work already. Do not call it again: it is not "
    "marked read-only or idempotent, so a second call could do the work twice. Tell the user the outcome "
    "is unknown and must be checked."
)
CHARGE_SERVER = """
import os, sys
import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(name="charge", input_schema={"type": "object"})])

async def call_tool(ctx, params):
    with open(sys.argv[1], "w") as f:
        f.write("charged")  # the work is done...
    os._exit(9)  # ...and the server dies before it answers

async def serve():
    from mcp.server.stdio import stdio_server
    async with stdio_server() as (r, w):
        await Server("pay", version="1", on_list_tools=list_tools, on_call_tool=call_tool).run(
            r, w, Server("pay", version="1").create_initialization_options())
anyio.run(serve)
"""


def _tools(provider) -> dict:
    return {t.name: t for t in provider.provide()}


def _run(tools: dict, name: str, arguments: str = "{}"):
    return tools[name].execute(ToolCall(id="c1", name=name, arguments=arguments))


# --- #7: a server that goes away during a call --------------------------------------------


def test_a_server_that_dies_during_a_call_leaves_the_outcome_unknown(tmp_path):
    """Audit 8 #7: the work was done, yet the model read 'failed: went away' and could charge again."""
    script, receipt = tmp_path / "charge_server.py", tmp_path / "receipt"
    script.write_text(CHARGE_SERVER)
    with McpClient.stdio(sys.executable, [str(script), str(receipt)], name="pay") as client:
        tools = _tools(McpToolProvider([client]))
        result = _run(tools, "charge")
        again = _run(tools, "charge")
    assert receipt.read_text() == "charged"
    assert result.is_error
    assert result.content == (
        "Tool 'charge' failed: MCP server 'pay' went away during the call (Connection closed). " + UNKNOWN
    )
    assert again.is_error  # the connection was already gone: nothing was sent, so nothing is unknown
    assert again.content == (
        "Tool 'charge' failed: MCP server 'pay' went away before this call (Connection closed); it was not sent"
    )


def test_a_server_that_died_between_calls_is_a_plain_failure(tmp_path):
    pid_file = tmp_path / "pid"
    launcher = (
        "import os, runpy, sys; "
        f"open({str(pid_file)!r}, 'w').write(str(os.getpid())); "
        f"sys.argv = [{QUIRKY!r}]; runpy.run_path({QUIRKY!r}, run_name='__main__')"
    )
    with McpClient.stdio(sys.executable, ["-c", launcher], name="quirky") as client:
        tools = _tools(McpToolProvider([client]))
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
        deadline = time.monotonic() + HANG_S / 2  # at once when things are right
        while time.monotonic() < deadline:  # the SDK notices the end of its stdout
            result = _run(tools, "echo")
            if "before this call" in result.content:
                break
            time.sleep(0.05)
    assert result.is_error
    assert result.content == (
        "Tool 'echo' failed: MCP server 'quirky' went away before this call (Connection closed); it was not sent"
    )


def test_a_server_seen_gone_between_calls_is_not_sent_the_next_one(tmp_path):
    """Once the transport's read stream ended (noted by `toolkit.mcp.ids`, not read from the SDK's
    private dispatcher state), the very next call is not sent: "went away before this call"."""
    pid_file = tmp_path / "pid"
    launcher = (
        "import os, runpy, sys; "
        f"open({str(pid_file)!r}, 'w').write(str(os.getpid())); "
        f"sys.argv = [{QUIRKY!r}]; runpy.run_path({QUIRKY!r}, run_name='__main__')"
    )
    with McpClient.stdio(sys.executable, ["-c", launcher], name="quirky") as client:
        tools = _tools(McpToolProvider([client]))
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
        deadline = time.monotonic() + HANG_S / 2  # at once when things are right
        while not client._closed and time.monotonic() < deadline:
            time.sleep(0.02)
        result = _run(tools, "echo")
    assert result.is_error
    assert result.content == (
        "Tool 'echo' failed: MCP server 'quirky' went away before this call (Connection closed); it was not sent"
    )


def test_the_lost_connection_text_follows_the_annotations():
    from toolkit.mcp.provider import lost_text

    assert lost_text("pay", "Connection closed", {"readOnlyHint": True}) == (
        "MCP server 'pay' went away during the call (Connection closed). Its outcome is unknown: the server "
        "may have done the work already. The tool only reads, so calling it again is safe."
    )


# --- #10: sys.exit inside a served tool, or on the connection's loop ----------------------


@tool("bad")
def bad(x: str) -> str:
    """Exits as command-line code does on a bad flag."""
    sys.exit(3)


@tool("good")
def good(x: str) -> str:
    """Answers."""
    return "fine"


def test_a_served_tool_that_calls_sys_exit_is_an_error_result_and_the_client_goes_on():
    """Audit 8 #10: it killed the client's loop (then a wrong timeout, 'client is closed', a traceback)."""
    with McpClient(tools_server(tools_from(bad, good)), name="srv", request_timeout=HANG_S) as client:
        started = time.monotonic()
        failed = client.call_tool("bad", {"x": "1"})
        assert time.monotonic() - started < HANG_S / 2  # not the request timeout
        fine = client.call_tool("good", {"x": "1"})
    assert failed.is_error and failed.content[0].text == "SystemExit: 3"  # the client adds "Tool 'bad' failed: "
    assert not fine.is_error and fine.content[0].text == "fine"


def test_an_in_process_handler_that_calls_sys_exit_fails_only_its_call():
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name=n, input_schema={"type": "object"}) for n in "ab"])

    async def call_tool(ctx, params):
        if params.name == "a":
            sys.exit(3)
        return types.CallToolResult(content=[types.TextContent(text="b ran")])

    server = Server("x", version="1", on_list_tools=list_tools, on_call_tool=call_tool)
    with McpClient(server, name="srv", request_timeout=30) as client:
        with pytest.raises(McpConnectionLost) as caught:
            client.call_tool("a", {})
        assert str(caught.value) == "MCP server 'srv' went away during the call: its code raised SystemExit: 3"
        assert client.call_tool("b", {}).content[0].text == "b ran"


def test_a_dead_connection_loop_fails_waiting_calls_at_once_and_close_does_not_raise():
    hanging = threading.Event()
    with McpClient(make_server(hanging=hanging), name="quirky", request_timeout=HANG_S) as client:
        client.list_tools()
        caught: list[BaseException] = []

        def hang():
            try:
                client.call_tool("hang", {})
            except BaseException as exc:  # noqa: BLE001 - the test looks at it
                caught.append(exc)

        waiting = threading.Thread(target=hang)
        waiting.start()
        assert hanging.wait(HANG_S)  # the server has the call: it is under way, not yet to be sent
        client._loop.call_soon_threadsafe(sys.exit, 3)  # something on the loop raises SystemExit
        waiting.join(HANG_S / 2)
        assert not waiting.is_alive()  # it did not wait out the request timeout
        assert [str(e) for e in caught] == [
            "MCP server 'quirky' went away during the call: its event loop stopped (SystemExit: 3)"
        ]
        with pytest.raises(McpConnectionError) as later:
            client.call_tool("echo", {})
        assert str(later.value) == (
            "MCP server 'quirky' went away before this call (its event loop stopped (SystemExit: 3)); it was not sent"
        )
    # leaving the `with` closed the client: no "Event loop is closed" from close()
    client.close()


def test_a_loop_that_dies_before_the_caller_records_its_request_still_fails_it_at_once(monkeypatch):
    """CI (Python 3.12, xdist) waited out the request timeout: the loop thread ran the call and died
    between `run_coroutine_threadsafe` and the caller's recording of the request, so nothing failed
    it. Here the caller is held at exactly that point until the loop thread has ended."""
    import asyncio

    hanging = threading.Event()
    # 30 s: a timeout is what a regression shows, and a loaded machine reaches no 3 s one first
    with McpClient(make_server(hanging=hanging), name="quirky", request_timeout=30) as client:
        client.list_tools()
        submit = asyncio.run_coroutine_threadsafe
        loop_thread = next(t for t in threading.enumerate() if t.name == "mcp-quirky")

        def submit_then_lose_the_race(coro, loop):
            future = submit(coro, loop)
            assert hanging.wait(HANG_S)  # the server has the call
            loop.call_soon_threadsafe(sys.exit, 3)
            loop_thread.join(HANG_S / 2)  # the loop ended and failed what it knew of
            return future

        monkeypatch.setattr(asyncio, "run_coroutine_threadsafe", submit_then_lose_the_race)
        with pytest.raises(McpConnectionLost) as caught:  # not McpTimeout after 30 s
            client.call_tool("hang", {})
        assert str(caught.value) == (
            "MCP server 'quirky' went away during the call: its event loop stopped (SystemExit: 3)"
        )


# --- #13, #14: Ctrl-C ----------------------------------------------------------------------


@pytest.mark.parametrize("servers", [1, 2])
def test_ctrl_c_while_a_server_connects_goes_on_and_leaves_no_server_out(servers):
    """Audit 8 #13: it became McpConnectionError, the server was left out for 60 s, the turn went on."""
    slow = [
        McpClient.stdio(
            sys.executable, ["-c", f"import time; time.sleep({2 * HANG_S})"], name=f"slow{i}", connect_timeout=HANG_S
        )
        for i in range(servers)
    ]
    provider = McpToolProvider(slow)
    started = time.monotonic()

    def connecting() -> bool:  # pressed then, not after a fixed delay: a loaded machine may not be there yet
        return any(client._connecting is not None for client in slow)

    with pytest.raises(KeyboardInterrupt), ctrl_c_when(connecting):
        provider.provide()
    assert time.monotonic() - started < HANG_S / 2  # not the connect timeout
    assert provider.left_out == {} and provider._down == {}  # no circuit breaker tripped by Ctrl-C
    for client in slow:
        client.close()


def test_ctrl_c_during_a_call_tells_the_server_to_cancel(tmp_path):
    """Audit 8 #14: the server never got notifications/cancelled and went on working. Ctrl-C comes once
    the server has the call (after a fixed delay, a loaded machine could press it before it was sent)."""
    cancel_file, hang_file = tmp_path / "cancelled", tmp_path / "hanging"
    quirky = [QUIRKY, "--cancel-file", str(cancel_file), "--hang-file", str(hang_file)]
    with McpClient.stdio(sys.executable, quirky, name="quirky") as client:
        client.list_tools()
        with pytest.raises(KeyboardInterrupt), ctrl_c_when(hang_file.exists):
            client.call_tool("hang", {}, timeout=HANG_S)
        assert _wait_for(cancel_file), "the server never saw the cancellation"
        assert client.call_tool("echo", {}).content[0].text == '{"arguments": {}, "tool": "echo"}'


def test_ctrl_c_during_an_in_process_call_cancels_it_before_it_goes_on(tmp_path):
    cancel_file, hanging = tmp_path / "cancelled", threading.Event()
    with McpClient(make_server(str(cancel_file), hanging=hanging), name="quirky") as client:
        client.list_tools()
        with pytest.raises(KeyboardInterrupt), ctrl_c_when(hanging.is_set):  # once the server has the call
            client.call_tool("hang", {}, timeout=HANG_S)
        assert cancel_file.exists()  # written before the interrupt went on


def test_a_loop_that_dies_after_the_caller_saw_it_running_refuses_the_call_in_one_line(monkeypatch):
    """The loop thread can stop and close between `_call`'s look at `loop.is_running()` and its
    `run_coroutine_threadsafe`: that raised asyncio's bare `RuntimeError: Event loop is closed`.
    Here the caller is held at exactly that point until the loop thread has ended."""
    import asyncio
    import gc
    import warnings

    with McpClient(make_server(), name="quirky", request_timeout=HANG_S) as client:
        client.list_tools()
        submit = asyncio.run_coroutine_threadsafe
        loop_thread = next(t for t in threading.enumerate() if t.name == "mcp-quirky")

        def lose_the_race_then_submit(coro, loop):
            loop.call_soon_threadsafe(sys.exit, 3)
            loop_thread.join(HANG_S / 2)  # the loop ended (and closed) after the caller looked
            return submit(coro, loop)

        monkeypatch.setattr(asyncio, "run_coroutine_threadsafe", lose_the_race_then_submit)
        gc.collect()  # an earlier test's garbage (a coroutine in a cycle) is not counted as this one's
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            with pytest.raises(McpConnectionError) as caught:
                client.call_tool("echo", {"text": "hi"})
            said = str(caught.value)
            del caught  # its traceback holds the request's coroutine: freed here, and never awaited?
            gc.collect()
        assert said == (
            "MCP server 'quirky' went away before this call (its event loop stopped (SystemExit: 3)); it was not sent"
        )
        assert [str(w.message) for w in warned if "never awaited" in str(w.message)] == []


def test_a_call_its_loop_never_started_before_stopping_is_not_sent_not_an_unknown_outcome(monkeypatch):
    """The loop can stop with the request's start still queued behind what stopped it: the request
    was never sent, yet the caller read "went away during the call" (outcome unknown: the model is
    told not to call again) and its coroutine was never awaited (a RuntimeWarning). Here the loop is
    held while the stop and then the request are queued on it."""
    import asyncio
    import gc
    import warnings

    with McpClient(make_server(), name="quirky", request_timeout=HANG_S) as client:
        client.list_tools()
        submit = asyncio.run_coroutine_threadsafe
        loop_thread = next(t for t in threading.enumerate() if t.name == "mcp-quirky")

        def stop_queued_first(coro, loop):
            gate = threading.Event()
            loop.call_soon_threadsafe(gate.wait, HANG_S)  # the loop waits here...
            loop.call_soon_threadsafe(sys.exit, 3)  # ...with the stop queued first...
            future = submit(coro, loop)  # ...and the request's start after it
            gate.set()
            loop_thread.join(HANG_S / 2)
            return future

        monkeypatch.setattr(asyncio, "run_coroutine_threadsafe", stop_queued_first)
        gc.collect()  # an earlier test's garbage (a coroutine in a cycle) is not counted as this one's
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            with pytest.raises(McpConnectionError) as caught:
                client.call_tool("echo", {"text": "hi"})
            said, lost = str(caught.value), isinstance(caught.value, McpConnectionLost)
            del caught  # its traceback may hold the request's coroutine: freed here, and never awaited?
            gc.collect()
        assert (said, lost) == (
            "MCP server 'quirky' went away before this call (its event loop stopped (SystemExit: 3)); it was not sent",
            False,
        )
        assert [str(w.message) for w in warned if "never awaited" in str(w.message)] == []


@pytest.mark.parametrize("giving_up", ["a request that timed out", "a connection that failed"])
def test_a_loop_that_closed_after_it_was_looked_at_costs_no_traceback_when_its_request_is_cancelled(giving_up, caplog):
    """`_cancel` (a request given up) and `_stop` (a connection given up) looked at `loop.is_closed()`,
    then cancelled the request's future: a loop that closed in between made the future's callback
    fail, and `concurrent.futures` logged its traceback on stderr. Here the look answers as it did
    just before the loop closed."""
    import asyncio

    from toolkit.mcp.client import _cancel, _stop

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    future = asyncio.run_coroutine_threadsafe(asyncio.sleep(HANG_S), loop)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(HANG_S / 2)
    loop.close()
    loop.is_closed = lambda: False  # what the look said, a moment before the loop closed
    try:
        with caplog.at_level(logging.ERROR):
            _cancel(loop, future) if giving_up == "a request that timed out" else _stop(loop, future, None)
    finally:
        del loop.is_closed
        for task in asyncio.all_tasks(loop):  # pending on a closed loop for good: not reported when collected
            task._log_destroy_pending = False
            task.get_coro().close()
    assert [r.getMessage() for r in caplog.records if r.name == "concurrent.futures"] == []


def test_ctrl_c_taken_by_another_thread_while_a_server_connects_is_seen_at_once():
    """A Ctrl-C the main thread did not see as it came (taken by another thread, or landing just before
    the connect's wait began) was seen only when that wait ended: `connect_timeout` + 15 s. A stress
    loop of the second shape (press, then a blocking wait) lost 3 of 2000 presses; pressed at another
    thread, every one waits so, so the test presses there (once the connect waits, again until the
    handler has run)."""
    silent = "import sys; sys.stdin.buffer.read()"  # never answers; ends once its stdin closes (no 2 s grace)
    client = McpClient.stdio(sys.executable, ["-c", silent], name="silent", connect_timeout=HANG_S)
    armed, stop = threading.Event(), threading.Event()
    armed.set()

    def handler(signum, frame):
        if armed.is_set():
            armed.clear()
            raise KeyboardInterrupt

    def press() -> None:  # a thread of its own: the signal runs the C handler here, the Python one on main
        while not main_thread_waits_in(threading.Condition.wait, outside=(threading.Thread.start,)):
            if stop.wait(0.005):  # blocked in the connect's wait: a press before it began would be seen at once
                return
        pressed.append(time.monotonic())
        while armed.is_set() and not stop.wait(0.05):
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)

    pressed: list[float] = []
    previous = signal.signal(signal.SIGINT, handler)
    presser = threading.Thread(target=press, daemon=True)
    presser.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            client.connect()
        assert time.monotonic() - pressed[0] < HANG_S / 4  # not the wait's end (42 s here before, or 135 s)
    finally:
        stop.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)
        client.close()
