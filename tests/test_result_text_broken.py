"""A value whose own methods fail when it is looked at or written (`toolkit.tools.result_text`):
the tool returned, so it ran, and its call succeeded.

`to_text` promises never to raise, and `Tool.run` that the call of a tool that returned succeeds
(an iterator in the value failing while read aside). A list subclass whose `__len__` raises ended
the turn with a raw `RuntimeError` (the look for awaitables in the value), its call answered
"outcome unknown"; an object whose `__class__` raises did the same from `to_text`; and a `__str__`
that ends with `sys.exit()` (code written for the command line) raised `SystemExit` out of the loop,
where a tool ending so is an execution error fed back.
"""

import sys

import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import run_loop
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool
from toolkit.tools.result_text import to_text


class NoLength(list):
    def __len__(self):
        raise RuntimeError("no length")


class NoClass:
    @property
    def __class__(self):
        raise RuntimeError("no class")


class Exits:
    def __str__(self):
        sys.exit(3)


class Interrupts:
    def __str__(self):
        raise KeyboardInterrupt


CASES = [
    (lambda: NoLength([1, 2]), "[1, 2]"),
    (lambda: {"rows": NoLength([1])}, "{'rows': [1]}"),  # JSON asks its length: its str()
    (lambda: NoClass(), "<a NoClass that cannot be shown as text>"),
    (lambda: Exits(), "<an Exits that cannot be shown as text>"),
]


@pytest.mark.parametrize("make, text", CASES)
def test_to_text_writes_a_value_whose_own_methods_fail(make, text):
    assert to_text(make()) == text


@pytest.mark.parametrize("make, text", CASES)
@pytest.mark.parametrize("limit", [None, 5.0])
def test_the_call_of_a_tool_returning_it_succeeds_with_that_text(make, text, limit):
    @tool("odd")
    def odd() -> object:
        return make()

    memory = ChatMemory()
    options = LoopOptions(tool_timeout=limit)
    result = run_loop(
        ScriptedModel([call("odd", id="c1"), "done"]),
        [UserMessage(content="q")],
        tools=[odd],
        memory=memory,
        options=options,
    )
    assert result.answer == "done"
    assert result.executions[0].error_kind is None
    assert [(m.tool_call_id, m.content) for m in memory.messages() if isinstance(m, ToolResultMessage)] == [
        ("c1", text)
    ]


def test_an_interrupt_while_its_value_is_written_still_stops_the_turn():
    with pytest.raises(KeyboardInterrupt):
        to_text(Interrupts())
