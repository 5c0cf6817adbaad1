"""A compensation's own name is never a tool name the model sees: any Python name is taken.

Reading its parameters as its tool's went through `function_tool`, which applied OpenAI's rule for
tool names to the compensation's name: `def 取消酒店(guest: str, nights: int)` was refused."""

import pytest

from toolkit.chat.messages import ToolCall, ToolResultMessage
from toolkit.errors import ToolDefinitionError
from toolkit.loop.saga import ToolExecution, compensates, compensations_from
from toolkit.tools.decorator import tool
from toolkit.tools.execute import function_tool, tools_from

UNDONE: list[tuple[str, int]] = []


@tool("预订酒店。")
def book_hotel(guest: str, nights: int) -> str:
    return f"{guest} {nights}"


@compensates("book_hotel")
def 取消酒店(guest: str, nights: int) -> None:
    UNDONE.append((guest, nights))


def test_a_compensation_with_a_chinese_name_is_run_with_its_calls_arguments():
    found = compensations_from([取消酒店], {t.name: t for t in tools_from(book_hotel)})
    call = ToolCall(id="c1", name="book_hotel", arguments='{"guest": "alice", "nights": 2}')
    UNDONE.clear()
    result = ToolResultMessage(tool_call_id="c1", tool_name="book_hotel", content="alice 2")
    found["book_hotel"].run(ToolExecution(round=1, call=call, result=result))
    assert UNDONE == [("alice", 2)]


def test_the_compensations_name_is_still_checked_when_it_is_made_a_tool():
    with pytest.raises(ToolDefinitionError, match="the tool name '取消酒店' is not 1-64 ASCII letters"):
        function_tool(取消酒店)


def test_one_function_marked_for_two_tools_is_refused_where_it_is_written():
    """`@compensates("a")` over `@compensates("b")`: the outer mark replaced the inner one, and tool
    'b' was silently left without its compensation."""
    with pytest.raises(ToolDefinitionError) as info:

        @compensates("charge")
        @compensates("book_hotel")
        def undo(execution: ToolExecution) -> None: ...

    assert str(info.value) == (
        "@compensates('charge') undo: it already compensates 'book_hotel', and a function compensates one tool "
        "(the second mark would silently replace the first). Fix: write one function per tool, e.g. "
        "@compensates('charge') def undo_charge(execution): return undo(execution)"
    )
