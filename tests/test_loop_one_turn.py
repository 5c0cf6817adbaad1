"""`toolkit.loop.run`: one turn at a time on a memory id, in one thread too.

The turn lock is reentrant, so a suspended `iter_loop` generator (a consumer that broke out of
its `for` and kept it) did not stop a second turn of the same thread on that memory id: the new
question came between the first turn's calls and their results, and those results were written
after the second turn when the generator was closed. A strict gateway refuses that history.
"""

import gc
import threading

import pytest

from toolkit.chat.messages import SystemMessage, ToolResultMessage, UserMessage, to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError
from toolkit.gateway.validate import check_request
from toolkit.loop.run import LoopOptions, iter_loop, run_loop
from toolkit.memory.windows import ChatMemory, InMemoryStore
from toolkit.tools.decorator import tool

BUSY = (
    "memory id 'chat': a turn on it is still in progress in this thread (an iter_loop generator, or a "
    "streamed answer, not read to its end); read it to the end or call its close() before starting another "
    "turn on this memory"
)


@tool("look an order up")
def lookup(order: str) -> str:
    return f"order {order}: shipped"


def valid(messages):
    check_request({"model": "m", "messages": to_openai(list(messages))})
    return True


def first_turn(memory):
    model = ScriptedModel([[call("lookup", order="1"), call("lookup", order="2")], "both shipped"])
    return iter_loop(model, [UserMessage(content="where are my orders?")], tools=[lookup], memory=memory)


def test_a_second_turn_while_a_generator_is_suspended_is_refused_and_stores_nothing():
    memory = ChatMemory("chat")
    events = first_turn(memory)
    for _ in events:
        break  # the consumer stops at the first event and keeps the generator
    before = memory.messages()
    with pytest.raises(ConfigurationError) as caught:
        run_loop(ScriptedModel(["hello"]), [UserMessage(content="hi")], memory=memory)
    assert str(caught.value) == BUSY
    assert memory.messages() == before  # the refused question is not stored
    events.close()
    assert valid(memory.messages())
    run_loop(ScriptedModel(["hello"]), [UserMessage(content="hi")], memory=memory)
    assert valid(memory.messages())
    results = [m.content for m in memory.messages() if isinstance(m, ToolResultMessage)]
    assert results == ["Not completed: the turn was interrupted by GeneratorExit."] * 2


def test_a_generator_dropped_in_a_reference_cycle_does_not_block_the_next_turn():
    memory = ChatMemory("chat")
    events = first_turn(memory)
    next(events)
    holder = {"events": events}
    holder["self"] = holder  # only the garbage collector frees it
    del events, holder
    gc.disable()
    try:
        result = run_loop(ScriptedModel(["hello"]), [UserMessage(content="hi")], memory=memory)
    finally:
        gc.enable()
    assert result.answer == "hello"
    assert valid(memory.messages())


def test_turns_one_after_another_and_other_memory_ids_are_not_refused():
    memory, other = ChatMemory("chat"), ChatMemory("other")
    events = first_turn(memory)
    next(events)
    assert run_loop(ScriptedModel(["hello"]), [UserMessage(content="hi")], memory=other).answer == "hello"
    assert list(events)  # the first turn goes on to its end
    assert run_loop(ScriptedModel(["again"]), [UserMessage(content="hi")], memory=memory).answer == "again"
    assert valid(memory.messages())


def asking_helper(memory, seen):
    """A tool `helper` that starts a turn on `memory` (a turn inside a tool of the turn on it), the
    error it meets added to `seen`."""

    @tool("ask a helper")
    def helper(question: str) -> str:
        try:
            return run_loop(ScriptedModel(["inner answer"]), question, memory=memory).answer
        except ConfigurationError as exc:
            seen.append(str(exc))
            raise

    return helper


NESTED = (
    "memory id 'chat': a turn on it is still in progress in this thread (a tool of that turn, or code it calls, "
    "started this one); a turn inside a tool needs its own memory: pass e.g. memory=ChatMemory('chat-inner'), "
    "or none"
)
NESTED_ROUND = (
    "memory id 'chat': a turn on it is still in progress (a tool of that turn, run on another thread while the "
    "turn waits for it, started this one); a turn inside a tool needs its own memory: pass e.g. "
    "memory=ChatMemory('chat-inner'), or none"
)


def test_a_tool_that_starts_a_turn_on_its_own_memory_is_told_so_not_to_close_a_generator():
    memory = ChatMemory("chat")
    seen = []
    helper = asking_helper(memory, seen)

    model = ScriptedModel([[call("helper", question="why?")], "done"])
    result = run_loop(model, [UserMessage(content="q")], tools=[helper], memory=memory)
    assert seen == [NESTED]
    assert result.answer == "done"
    assert valid(memory.messages())
    inner = ChatMemory("chat-inner")
    assert run_loop(ScriptedModel(["inner answer"]), "why?", memory=inner).answer == "inner answer"  # the fix works


def test_a_tool_of_an_iter_loop_turn_that_starts_a_turn_on_its_memory_is_told_so_too():
    memory = ChatMemory("chat")
    seen = []
    helper = asking_helper(memory, seen)

    model = ScriptedModel([[call("helper", question="why?")], "done"])
    events = iter_loop(model, [UserMessage(content="q")], tools=[helper], memory=memory)
    assert [type(e).__name__ for e in events] == ["ToolStarted", "ToolFinished"]
    assert seen == [NESTED]
    assert valid(memory.messages())


def test_a_tool_of_a_concurrent_round_that_starts_a_turn_on_its_memory_is_refused_not_deadlocked():
    memory = ChatMemory("chat")
    seen = []
    helper = asking_helper(memory, seen)

    model = ScriptedModel([[call("helper", question="a?"), call("helper", question="b?")], "done"])
    outcome = []
    turn = threading.Thread(
        target=lambda: outcome.append(
            run_loop(
                model,
                [UserMessage(content="q")],
                tools=[helper],
                memory=memory,
                options=LoopOptions(concurrent=True, max_workers=2),
            )
        ),
        daemon=True,
    )
    turn.start()
    turn.join(60)  # a hang guard: it ends at once when things are right
    assert not turn.is_alive(), "the round waited for its own tools: a deadlock"
    assert seen == [NESTED_ROUND, NESTED_ROUND]
    assert outcome[0].answer == "done"
    assert valid(memory.messages())


class ThreadLockStore(InMemoryStore):
    """A store of the application's own whose turn lock is a plain `threading.RLock` (no `adopt`:
    its turns stay in the thread that began them), as `toolkit.memory.turns` allows."""

    def __init__(self):
        super().__init__()
        self.locks = {}

    def turn_lock(self, memory_id):
        return self.locks.setdefault(memory_id, threading.RLock())


def test_a_concurrent_tool_that_starts_a_turn_on_its_memory_is_refused_with_a_plain_rlock_too():
    memory = ChatMemory("chat", store=ThreadLockStore())
    seen = []
    helper = asking_helper(memory, seen)

    model = ScriptedModel([[call("helper", question="a?"), call("helper", question="b?")], "done"])
    options = LoopOptions(concurrent=True, max_workers=2)
    outcome = []
    turn = threading.Thread(
        target=lambda: outcome.append(
            run_loop(model, [UserMessage(content="q")], tools=[helper], memory=memory, options=options)
        ),
        daemon=True,
    )
    turn.start()
    turn.join(60)  # a hang guard: it ends at once when things are right
    assert not turn.is_alive(), "the round waited for its own tools: a deadlock"
    assert seen == [NESTED_ROUND, NESTED_ROUND]
    assert outcome[0].answer == "done"
    assert valid(memory.messages())
    assert run_loop(ScriptedModel(["again"]), "hi", memory=memory).answer == "again"  # the lock is free


def test_a_concurrent_tool_that_writes_to_its_turns_memory_writes_under_the_turns_hold_not_deadlocked():
    memory = ChatMemory("chat")

    @tool("keep a note for later")
    def remember(note: str) -> str:
        memory.add(SystemMessage(content=f"The user's note: {note}"))  # as a tool of a sequential round may
        return "noted"

    model = ScriptedModel([[call("remember", note="a"), call("remember", note="b")], "done"])
    options = LoopOptions(concurrent=True, max_workers=2)
    outcome = []
    turn = threading.Thread(
        target=lambda: outcome.append(
            run_loop(model, [UserMessage(content="q")], tools=[remember], memory=memory, options=options)
        ),
        daemon=True,
    )
    turn.start()
    turn.join(60)  # a hang guard: it ends at once when things are right
    assert not turn.is_alive(), "the tool's write waited for its own turn: a deadlock"
    assert outcome[0].answer == "done"
    stored = memory.messages()
    assert type(stored[0]) is SystemMessage and stored[0].content in ("The user's note: a", "The user's note: b")
    assert [m.content for m in stored if isinstance(m, ToolResultMessage)] == ["noted", "noted"]
    assert valid(stored)
    assert run_loop(ScriptedModel(["again"]), "hi", memory=memory).answer == "again"  # the lock is free


SUSPENDED_WRITE = (
    "ChatMemory.add: memory id 'chat': a turn on it is still in progress in this thread (an iter_loop generator, "
    "or a streamed answer, not read to its end), and this write would come between its tool calls and their "
    "results; read it to the end or call its close() before writing to this memory"
)


@pytest.mark.parametrize(
    "write, where",
    [
        (lambda m: m.add(UserMessage(content="by the way")), "ChatMemory.add"),
        (lambda m: m.add_all([UserMessage(content="by the way")]), "ChatMemory.add"),
        (lambda m: m.set([UserMessage(content="start over")]), "ChatMemory.set"),
        (lambda m: m.update(lambda current: current[:1]), "ChatMemory.update"),
        (lambda m: m.clear(), "ChatMemory.clear"),
    ],
)
def test_a_write_while_a_generator_of_this_thread_is_suspended_is_refused_and_changes_nothing(write, where):
    memory = ChatMemory("chat")
    events = first_turn(memory)
    next(events)  # suspended between the calls and their results
    before = memory.messages()
    with pytest.raises(ConfigurationError) as raised:
        write(memory)
    assert str(raised.value) == SUSPENDED_WRITE.replace("ChatMemory.add", where)
    assert memory.messages() == before
    assert [type(e).__name__ for e in events] == ["ToolFinished", "ToolStarted", "ToolFinished"]
    assert valid(memory.messages())
    write(memory)  # the turn is over: the write goes through


def test_a_write_after_a_suspended_generator_was_dropped_in_a_reference_cycle_goes_through():
    memory = ChatMemory("chat")
    events = first_turn(memory)
    next(events)
    cycle = [events]
    cycle.append(cycle)
    del events, cycle
    memory.add(UserMessage(content="by the way"))
    assert valid(memory.messages()[:-1])


@pytest.mark.parametrize("concurrent", [False, True])
def test_a_tool_of_another_turn_writing_to_a_memory_whose_turn_is_suspended_here_is_refused(concurrent):
    memory = ChatMemory("chat")
    events = first_turn(memory)
    next(events)  # this thread's turn on "chat" is suspended
    seen = []

    @tool("keep a note for later")
    def remember(note: str) -> str:
        try:
            memory.add(UserMessage(content=note))
        except ConfigurationError as exc:
            seen.append(str(exc))
            raise
        return "noted"

    model = ScriptedModel([[call("remember", note="a"), call("remember", note="b")], "done"])
    options = LoopOptions(concurrent=concurrent, max_workers=2)
    assert run_loop(model, "q", tools=[remember], memory=ChatMemory("other"), options=options).answer == "done"
    assert seen == [SUSPENDED_WRITE, SUSPENDED_WRITE]
    assert list(events)
    assert valid(memory.messages())


LONG_ID = "x" * 4_000  # long, yet within MAX_ID_CHARS
LONG_SHOWN = "'" + "x" * 78 + "…"


def test_a_busy_memory_with_a_long_id_is_named_cut_not_whole():
    """The refusals of a second turn on a memory named its id whole: a 4,000-character id made an
    8,000-character line (the fix named it twice); it is shown cut, and the fix is written so."""
    memory = ChatMemory(LONG_ID)
    events = first_turn(memory)
    next(events)
    with pytest.raises(ConfigurationError) as caught:
        run_loop(ScriptedModel(["hello"]), [UserMessage(content="hi")], memory=memory)
    assert str(caught.value) == BUSY.replace("'chat'", LONG_SHOWN)
    events.close()
    seen = []
    helper = asking_helper(memory, seen)

    run_loop(ScriptedModel([[call("helper", question="why?")], "done"]), "q", tools=[helper], memory=memory)
    assert seen == [
        NESTED.replace("'chat'", LONG_SHOWN).replace("ChatMemory('chat-inner')", "ChatMemory(memory.id + '-inner')")
    ]


TOOL_WRITE = (
    "ChatMemory.add: memory id 'chat': a tool of the turn on it is running, and this write would come between "
    "the turn's tool calls and their results (or remove the calls), which a strict gateway refuses; give what the "
    "tool has to say in its result, or write to this memory after the turn (a SystemMessage may be added: it goes "
    "first)"
)


@pytest.mark.parametrize("concurrent", [False, True])
@pytest.mark.parametrize(
    "write, where",
    [
        (lambda m: m.add(UserMessage(content="by the way")), "ChatMemory.add"),
        (lambda m: m.add_all(iter([SystemMessage(content="s"), UserMessage(content="by the way")])), "ChatMemory.add"),
        (lambda m: m.set([UserMessage(content="start over")]), "ChatMemory.set"),
        (lambda m: m.update(lambda current: current[:1]), "ChatMemory.update"),
        (lambda m: m.clear(), "ChatMemory.clear"),
    ],
)
def test_a_tool_that_writes_into_its_own_turn_is_refused_and_the_turn_stays_valid(write, where, concurrent):
    """A tool of the turn writing to the turn's memory: a message went in between the calls and
    their results (a history a strict gateway refuses), and a clear or set removed the calls, so the
    loop's write of the results failed with a ConfigurationError blaming the store's use. Refused
    where it is written (the tool fails, the model is told); only a system message, which goes
    first, may be added."""
    memory = ChatMemory("chat")
    seen = []

    @tool("keep a note for later")
    def remember(note: str) -> str:
        try:
            write(memory)
        except ConfigurationError as exc:
            seen.append(str(exc))
            raise
        return "noted"

    model = ScriptedModel([[call("remember", note="a"), call("remember", note="b")], "done"])
    options = LoopOptions(concurrent=concurrent, max_workers=2)
    assert run_loop(model, "q", tools=[remember], memory=memory, options=options).answer == "done"
    assert seen == [TOOL_WRITE.replace("ChatMemory.add", where)] * 2
    stored = memory.messages()
    assert [type(m).__name__ for m in stored] == [
        "UserMessage",
        "AssistantMessage",
        "ToolResultMessage",
        "ToolResultMessage",
        "AssistantMessage",
    ]
    assert valid(stored)
    write(memory)  # the turn is over: the write goes through


def test_a_tool_of_a_sequential_round_may_add_a_system_message():
    memory = ChatMemory("chat")

    @tool("keep a note for later")
    def remember(note: str) -> str:
        memory.add(SystemMessage(content=f"The user's note: {note}"))
        return "noted"

    model = ScriptedModel([[call("remember", note="a"), call("remember", note="b")], "done"])
    assert run_loop(model, "q", tools=[remember], memory=memory).answer == "done"
    stored = memory.messages()
    assert stored[0] == SystemMessage(content="The user's note: b") and valid(stored)
