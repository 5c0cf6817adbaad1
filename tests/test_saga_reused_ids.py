"""`toolkit.loop.run`'s saga when the model reuses a call id in later rounds and turns.

Some gateways number calls per reply (`call_0` every round), and a call sent without an id gets
`r<round>c<position>`, the same in every turn. The saga must undo and rewrite exactly the
calls it compensated: not an earlier turn's result with the same id, not the failing tool's own
result, and not skip a later call because an earlier one with its id was already undone.
"""

import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage, to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.gateway.validate import check_request
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.loop.saga import compensates
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory, MessageWindow
from toolkit.tools.decorator import tool

UNDONE: list[str] = []
ROLLED = "Tool 'reserve' was executed successfully but was rolled back due to failure of tool 'pay'"
DECLINED = "Tool 'pay' failed: RuntimeError: card declined"


@tool("reserve an item")
def reserve(item: str) -> str:
    return f"reserved {item}"


@compensates("reserve")
def release(item: str) -> None:
    UNDONE.append(item)


@tool("pay for an item")
def pay(item: str) -> str:
    if item == "declined":
        raise RuntimeError("card declined")
    return f"paid {item}"


SAGA = LoopOptions(compensate=True, compensations=(release,))


def setup_function():
    UNDONE.clear()


def results(messages):
    return [m.content for m in messages if isinstance(m, ToolResultMessage)]


def valid(messages):
    check_request({"model": "m", "messages": to_openai(list(messages))})
    return True


def a_turn_with_one_id(*items):
    """Reserve each item in its own round, then pay (declined): every call has the id `call_0`."""
    rounds = [[call("reserve", item=item, id="call_0")] for item in items]
    return ScriptedModel([*rounds, [call("pay", item="declined", id="call_0")], "sorry"])


@pytest.mark.parametrize(
    "window, kept",
    [
        (None, ["reserved old", ROLLED, ROLLED, DECLINED]),
        (8, [ROLLED, ROLLED, DECLINED]),  # the window dropped the first turn, then round 1 of this one
        (6, [ROLLED, DECLINED]),
    ],
)
@pytest.mark.parametrize("sqlite", [False, True])
def test_memory_rewrites_only_this_turns_undone_results(window, kept, sqlite, tmp_path):
    store = SqliteStore(tmp_path / "memory.db") if sqlite else None
    memory = ChatMemory(store=store, window=MessageWindow(window) if window else None)
    first = ScriptedModel([[call("reserve", item="old", id="call_0")], "reserved"])
    run_loop(first, [UserMessage(content="t1")], tools=[reserve, pay], memory=memory)
    result = run_loop(
        a_turn_with_one_id("A", "B"), [UserMessage(content="t2")], tools=[reserve, pay], memory=memory, options=SAGA
    )
    assert UNDONE == ["B", "A"]
    assert results(memory.messages()) == kept
    assert results(result.new_messages) == [ROLLED, ROLLED, DECLINED]
    assert [e.rolled_back_by for e in result.executions] == ["pay", "pay", None]
    assert valid(memory.messages())


def test_without_memory_the_callers_earlier_turn_is_not_rewritten():
    history = run_loop(
        ScriptedModel([[call("reserve", item="old", id="call_0")], "reserved"]),
        [UserMessage(content="t1")],
        tools=[reserve, pay],
    ).messages
    result = run_loop(
        a_turn_with_one_id("A"), [*history, UserMessage(content="t2")], tools=[reserve, pay], options=SAGA
    )
    assert results(result.messages) == ["reserved old", ROLLED, DECLINED]


def test_a_later_call_with_an_undone_calls_id_is_undone_too():
    """Round 2's failure undoes A (fed back); B, reserved in round 3 under A's id, must still be
    undone when round 4 fails: each call is compensated once, none skipped."""
    model = ScriptedModel(
        [
            [call("reserve", item="A", id="call_0")],
            [call("pay", item="declined", id="call_1")],
            [call("reserve", item="B", id="call_0")],
            [call("pay", item="declined", id="call_1")],
            "sorry",
        ]
    )
    memory = ChatMemory()
    result = run_loop(model, [UserMessage(content="q")], tools=[reserve, pay], memory=memory, options=SAGA)
    assert UNDONE == ["A", "B"]
    assert [(s.tool, s.ok) for s in result.saga] == [("reserve", True), ("reserve", True)]
    assert results(memory.messages()) == [ROLLED, DECLINED, ROLLED, DECLINED]


def test_an_interrupt_tells_a_call_never_started_even_if_its_id_ran_in_an_earlier_round():
    @tool("stop")
    def stop(item: str) -> str:
        raise KeyboardInterrupt

    model = ScriptedModel(
        [[call("reserve", item="A", id="call_0")], [call("stop", item="x"), call("reserve", item="B", id="call_0")]]
    )
    memory = ChatMemory()
    with pytest.raises(KeyboardInterrupt):
        run_loop(model, [UserMessage(content="q")], tools=[reserve, stop], memory=memory)
    assert results(memory.messages())[-1] == "Not completed: the turn was interrupted by KeyboardInterrupt."
    assert valid(memory.messages())
