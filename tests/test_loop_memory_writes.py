"""`toolkit.loop.run`: how a turn writes to its memory.

The turn holds the memory's lock from start to end, so its own writes do not take it again
(`ChatMemory.add_all_held`); a subclass of `ChatMemory` with an `add_all` of its own still has it
called for every write, as before.
"""

from toolkit.chat.messages import AssistantMessage, ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop.run import iter_loop, run_loop
from toolkit.memory.turns import TurnRLock
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool


@tool("look an order up")
def lookup(order: str) -> str:
    return f"order {order}: shipped"


def script():
    return ScriptedModel([call("lookup", order="1"), "shipped"])


class CountingLock(TurnRLock):
    __slots__ = ("taken",)

    def __init__(self):
        super().__init__()
        self.taken = 0

    def acquire(self, blocking=True, timeout=-1):
        self.taken += 1
        return super().acquire(blocking, timeout)

    __enter__ = acquire


def test_a_turn_takes_the_lock_once_and_writes_everything():
    memory = ChatMemory("chat")
    memory.lock = CountingLock()
    run_loop(script(), [UserMessage(content="where is order 1?")], tools=[lookup], memory=memory)
    assert memory.lock.taken == 1
    kinds = [type(m) for m in memory.messages()]
    assert kinds == [UserMessage, AssistantMessage, ToolResultMessage, AssistantMessage]
    memory.add(UserMessage(content="thanks"))  # a write from outside a turn takes it
    assert memory.lock.taken == 2


class LoggedMemory(ChatMemory):
    def __init__(self, memory_id):
        super().__init__(memory_id)
        self.log = []

    def add_all(self, messages):
        self.log.append([type(m).__name__ for m in messages])
        super().add_all(messages)


def test_a_subclass_add_all_sees_every_write_of_the_turn():
    for run in (run_loop, lambda *a, **k: list(iter_loop(*a, **k))):
        memory = LoggedMemory("chat")
        run(script(), [UserMessage(content="where is order 1?")], tools=[lookup], memory=memory)
        assert memory.log == [["UserMessage"], ["AssistantMessage"], ["ToolResultMessage"], ["AssistantMessage"]]
        assert len(memory.messages()) == 4
