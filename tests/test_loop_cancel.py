"""`toolkit.loop.cancel`: a turn run in a thread whose awaiting task is cancelled.

`asyncio.to_thread(service.chat, ...)` cancelled (a `wait_for` timing out, `task.cancel()`) stops
the waiting, not the thread: the turn ran on to its end, every later tool call and model request
with it, its answer dropped. `await in_thread(service.chat, ...)` cancelled stops the turn at its
next step instead; memory stays valid and the next turn on the id goes on from it.
"""

import asyncio
import threading
from typing import Annotated, Protocol

import pytest

from toolkit.chat.messages import AssistantMessage, ToolResultMessage, UserMessage, to_openai
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.gateway.validate import check_request
from toolkit.loop.cancel import STOP, TurnCancelled, in_thread
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import run_loop
from toolkit.memory.windows import ChatMemory
from toolkit.services.results import TokenStream
from toolkit.services.service import ai_service, memory_per_id
from toolkit.tools.decorator import MemoryId, tool

LIMIT = 60.0  # seconds: only a deadlock reaches it


class Gate:
    """A tool that waits, in its thread, until the test lets it finish."""

    def __init__(self):
        self.started, self.go, self.ran = threading.Event(), threading.Event(), []

    def tools(self):
        @tool("charge the card")
        def charge(order: str) -> str:
            self.ran.append(f"charge {order}")
            self.started.set()
            assert self.go.wait(LIMIT)
            return "charged"

        @tool("ship the order")
        def ship(order: str) -> str:
            self.ran.append(f"ship {order}")
            return "shipped"

        return [charge, ship]


class Assistant(Protocol):
    def chat(self, user: Annotated[str, MemoryId], question: str) -> str: ...

    def stream(self, user: Annotated[str, MemoryId], question: str) -> TokenStream: ...


def valid(messages):
    check_request({"model": "m", "messages": to_openai([*messages, UserMessage(content="next")])})
    return True


async def cancelled_while_charging(gate, run, *args):
    """`run(*args)` in a task cancelled while `charge` runs; the turn's thread is then let go on."""
    task = asyncio.ensure_future(run(*args))
    assert await asyncio.to_thread(gate.started.wait, LIMIT)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    gate.go.set()


def script():
    """One reply asks for both calls (run one after the other), then the answer, then the next turn's."""
    return ScriptedModel([[call("charge", {"order": "A1"}), call("ship", {"order": "A1"})], "done", "and now?"])


def test_a_cancelled_in_thread_stops_the_turn_at_its_next_step_and_the_next_turn_goes_on():
    gate, model = Gate(), script()
    service = ai_service(Assistant, model=model, tools=gate.tools(), memory=(memories := memory_per_id()))

    async def main():
        await cancelled_while_charging(gate, in_thread, service.chat, "u1", "buy A1")
        return await asyncio.wait_for(in_thread(service.chat, "u1", "and?"), LIMIT)  # waits for the turn's step

    assert asyncio.run(main()) == "done"
    assert gate.ran == ["charge A1"]  # the call running finished; the next one never started
    stored = memories("u1").messages()
    assert [type(m).__name__ for m in stored] == [
        "UserMessage",
        "AssistantMessage",
        "ToolResultMessage",
        "ToolResultMessage",
        "UserMessage",
        "AssistantMessage",
    ]
    assert stored[2].content == "charged" and not stored[2].is_error  # its real result is kept
    assert stored[3].content == "Not completed: the turn was interrupted by TurnCancelled." and stored[3].is_error
    assert stored[4].content == "and?" and stored[5].content == "done"
    assert len(model.requests) == 2
    assert valid(stored)
    assert STOP.get() is None  # the task's context is as it was


def test_a_token_stream_read_in_one_cancelled_in_thread_stops_as_a_plain_call_does():
    gate, model = Gate(), script()
    service = ai_service(Assistant, model=model, tools=gate.tools(), memory=(memories := memory_per_id()))

    async def main():
        await cancelled_while_charging(gate, in_thread, list, service.stream("u1", "buy A1"))
        return await asyncio.wait_for(in_thread(service.chat, "u1", "and?"), LIMIT)

    assert asyncio.run(main()) == "done"
    assert gate.ran == ["charge A1"]
    stored = memories("u1").messages()
    assert stored[3].content == "Not completed: the turn was interrupted by TurnCancelled." and valid(stored)


def test_a_cancelled_in_thread_before_the_tools_answers_them_not_completed():
    """Cancelled while the model is asked: the request finishes (it cannot be stopped), its calls never run."""
    asked, go = threading.Event(), threading.Event()

    class Slow(ScriptedModel):
        def chat(self, messages, **kwargs):
            asked.set()
            assert go.wait(LIMIT)
            return super().chat(messages, **kwargs)

    ran = []

    @tool("ship the order")
    def ship(order: str) -> str:
        ran.append(order)
        return "shipped"

    memory = ChatMemory("u1")
    turn = threading.Event()

    def run():
        try:
            run_loop(Slow([call("ship", {"order": "A1"}), "done"]), "ship A1", tools=[ship], memory=memory)
        except TurnCancelled as exc:
            turn.error = exc
        turn.set()

    async def main():
        task = asyncio.ensure_future(in_thread(run))
        assert await asyncio.to_thread(asked.wait, LIMIT)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        go.set()
        assert await asyncio.to_thread(turn.wait, LIMIT)

    asyncio.run(main())
    assert ran == []
    *_, last = memory.messages()
    assert str(turn.error) == (
        f"the turn was cancelled (the task awaiting in_thread() was): it stopped before tool call {last.tool_call_id} "
        "(ship) of model request 1; a request or call already running when it was cancelled finished"
    )
    assert turn.error.loop_result.stopped_at == "round 1"
    *_, last = memory.messages()
    assert isinstance(last, ToolResultMessage) and last.is_error
    assert last.content == "Not completed: the turn was interrupted by TurnCancelled."
    assert valid(memory.messages())


def test_a_cancelled_in_thread_between_rounds_stops_before_the_next_request():
    gate = Gate()
    model = ScriptedModel([call("charge", {"order": "A1"}), "done"])
    memory = ChatMemory("u1")
    errors = []

    def run():
        try:
            run_loop(model, "buy A1", tools=gate.tools()[:1], memory=memory)
        except TurnCancelled as exc:
            errors.append(exc)

    async def main():
        await cancelled_while_charging(gate, in_thread, run)
        await asyncio.to_thread(lambda: memory.lock.acquire(timeout=LIMIT) and memory.lock.release())

    asyncio.run(main())
    assert str(errors[0]).startswith(
        "the turn was cancelled (the task awaiting in_thread() was): it stopped before model request 2;"
    )
    assert errors[0].loop_result.stopped_at == "after round 1"
    assert [m.content for m in memory.messages()][-1] == "charged"
    assert len(model.requests) == 1
    assert valid(memory.messages())


def test_a_service_turn_cancelled_before_it_began_stores_and_sends_nothing():
    model = ScriptedModel(["never sent"])
    service = ai_service(Assistant, model=model, memory=(memories := memory_per_id()))
    stop = threading.Event()
    stop.set()
    token = STOP.set(stop)
    try:
        with pytest.raises(TurnCancelled, match="it never began, and nothing of it was stored or sent"):
            service.chat("u1", "hi")
    finally:
        STOP.reset(token)
    assert model.requests == [] and memories("u1").messages() == []


def test_plain_to_thread_cancelled_runs_the_whole_turn_on_as_documented():
    """What `in_thread` is for: without it, the thread's turn runs every later step, its answer dropped."""
    gate, model = Gate(), script()
    service = ai_service(Assistant, model=model, tools=gate.tools(), memory=(memories := memory_per_id()))

    async def main():
        await cancelled_while_charging(gate, asyncio.to_thread, service.chat, "u1", "buy A1")
        return await asyncio.wait_for(asyncio.to_thread(service.chat, "u1", "and?"), LIMIT)

    assert asyncio.run(main()) == "and now?"
    assert gate.ran == ["charge A1", "ship A1"]
    assert [m.content for m in memories("u1").messages() if isinstance(m, AssistantMessage) and m.content] == [
        "done",
        "and now?",
    ]


def test_in_thread_gives_the_value_and_the_error_as_to_thread_does():
    def fails():
        raise ValueError("bad")

    async def main():
        assert await in_thread(lambda a, b=0: a + b, 1, b=2) == 3
        with pytest.raises(ValueError, match="bad"):
            await in_thread(fails)

    asyncio.run(main())


def test_the_usual_turn_reads_no_stop_and_a_concurrent_round_runs_whole():
    gate = Gate()
    gate.go.set()
    stop = threading.Event()
    token = STOP.set(stop)
    try:
        model = ScriptedModel([[call("charge", {"order": "A1"}), call("ship", {"order": "A1"})], "done"])
        result = run_loop(model, "buy", tools=gate.tools(), options=LoopOptions(concurrent=True))
    finally:
        STOP.reset(token)
    assert result.answer == "done" and sorted(gate.ran) == ["charge A1", "ship A1"]


def test_in_thread_given_the_value_of_a_call_says_to_pass_the_function_and_its_arguments():
    async def main():
        with pytest.raises(TypeError) as caught:
            await in_thread("the answer")  # in_thread(service.chat("u1", "hi")): the turn ran already
        return str(caught.value)

    assert asyncio.run(main()) == (
        "in_thread() takes the function and its arguments apart, and got str, a value: write "
        "await in_thread(service.chat, 'u1', question), not in_thread(service.chat('u1', question)), which ran the "
        "turn at once, in the event loop's thread"
    )


def test_a_turn_cancelled_while_it_waits_for_the_turn_before_it_never_begins():
    gate = Gate()
    model = ScriptedModel([call("charge", order="A1"), "done"])
    memory = ChatMemory("u1")
    second = []

    def run_second():
        try:
            run_loop(model, "and ship it", memory=memory)
        except TurnCancelled as exc:
            second.append(exc)

    async def main():
        first = asyncio.ensure_future(in_thread(run_loop, model, "buy A1", tools=gate.tools()[:1], memory=memory))
        assert await asyncio.to_thread(gate.started.wait, LIMIT)
        waiting = asyncio.ensure_future(in_thread(run_second))
        await asyncio.sleep(0.05)  # its thread now waits for the first turn's lock
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        gate.go.set()
        assert (await asyncio.wait_for(first, LIMIT)).answer == "done"
        await asyncio.to_thread(lambda: memory.lock.acquire(timeout=LIMIT) and memory.lock.release())

    asyncio.run(main())
    assert str(second[0]) == (
        "the turn was cancelled (the task awaiting in_thread() was) while it waited for the turn before it on its "
        "memory: it never began, and nothing of it was stored or sent"
    )
    assert [m.content for m in memory.messages() if m.role == "user"] == ["buy A1"]
    assert len(model.requests) == 2 and valid(memory.messages())


def test_a_timeout_expiring_on_in_thread_raises_timeout_error_and_stops_the_turn():
    """`asyncio.timeout` (as `wait_for`) cancels the task at its deadline: the caller gets `TimeoutError`."""
    gate, model = Gate(), script()
    service = ai_service(Assistant, model=model, tools=gate.tools(), memory=(memories := memory_per_id()))

    async def expire_once_charging(deadline):
        assert await asyncio.to_thread(gate.started.wait, LIMIT)
        deadline.reschedule(asyncio.get_running_loop().time())

    async def main():
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(LIMIT) as deadline:
                expiring = asyncio.ensure_future(expire_once_charging(deadline))
                await in_thread(service.chat, "u1", "buy A1")
        await expiring
        gate.go.set()
        return await asyncio.wait_for(in_thread(service.chat, "u1", "and?"), LIMIT)

    assert asyncio.run(main()) == "done"
    assert gate.ran == ["charge A1"] and valid(memories("u1").messages())


WAITED = (
    "this turn had not begun: it was waiting for the turn before it on memory id 'u1' to end (one turn at a time "
    "on a memory id), and nothing of it was stored or sent; that turn is still running, in another thread or "
    "process (a turn whose task was cancelled runs on until the call it runs returns): a call that may hang can "
    "be given a time limit, LoopOptions(tool_timeout=30), which answers it after 30 s and lets its turn end"
)


class Interrupted:
    """A turn lock's own lock, held by another turn: the wait for it is ended by Ctrl-C."""

    def acquire(self, blocking=True, timeout=-1):
        if blocking:
            raise KeyboardInterrupt
        return False


@pytest.mark.parametrize("through", ["run_loop", "ai_service"])
def test_ctrl_c_while_a_turn_waits_for_the_turn_before_it_says_so(through):
    """A turn whose task was cancelled while its call hangs (a sync tool that never returns) holds its
    memory id: the next turn on it waits, silently; Ctrl-C then said nothing (a bare KeyboardInterrupt)."""
    memories = memory_per_id()
    memory = memories("u1")
    memory.lock._use(Interrupted())  # the turn before holds it
    model = ScriptedModel(["hi"])
    with pytest.raises(KeyboardInterrupt) as raised:
        if through == "run_loop":
            run_loop(model, "next", memory=memory)
        else:
            ai_service(Assistant, model=model, memory=memories).chat("u1", "next")
    assert raised.value.__notes__ == [WAITED]
    assert model.requests == [] and memory.messages() == []
