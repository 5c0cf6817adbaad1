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
