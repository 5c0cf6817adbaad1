"""`NaN`, `Infinity` and `-Infinity` are not JSON (RFC 8259 §6: "Numeric values that cannot be represented ...
such as Infinity and NaN are not permitted"); LangChain4j never reads them: its arguments go through Jackson
(`ToolExecutionRequestUtil.argumentsAsMap`, langchain4j-core's JacksonJsonCodec), which refuses the token
unless ALLOW_NON_NUMERIC_NUMBERS is enabled (it is not). Python's `json.loads` reads them, and a float
parameter already refused them ("expected a finite number", rule 3), but a value of any type (`Any`,
`dict[str, Any]`, `list[Any]`) took them as they came: the tool received `nan`, and whatever it stored or
returned as JSON was no JSON either. Now they are refused at every depth, where they sit, as a float's are;
so is a number past a float's range (`1e400`, valid JSON that Python reads as infinity). (An MCP tool's
arguments are checked by its client before they are sent: `toolkit.mcp.client`.)"""

from typing import Any

import pytest
from pydantic import BaseModel

from toolkit.chat.messages import ToolCall
from toolkit.tools.decorator import tool
from toolkit.tools.execute import FEED_BACK_ALL, execute, tools_from


class Reading(BaseModel):
    extra: Any = None


def _run(fn, arguments: str):
    tools = tools_from(fn)
    return execute(ToolCall(id="c1", name=tools[0].name, arguments=arguments), tools, None, FEED_BACK_ALL)


@tool
def store(data: dict[str, Any]) -> str:
    """Store a record."""
    return repr(data)


@tool
def log_values(values: list[Any], note: Any = None, reading: Reading | None = None) -> str:
    """Log values."""
    return repr((values, note, reading))


@pytest.mark.parametrize(
    "fn, arguments, where, got",
    [
        (store, '{"data": {"a": 1, "b": NaN}}', "data.b", "NaN"),
        (store, '{"data": {"a": [1, {"c": Infinity}]}}', "data.a", '[1, {"c": Infinity}]'),
        (log_values, '{"values": [1, -Infinity]}', "values[1]", "-Infinity"),
        (log_values, '{"values": [], "note": {"x": NaN}}', "note", '{"x": NaN}'),
        (log_values, '{"values": [], "reading": {"extra": [NaN]}}', "reading.extra", "[NaN]"),
        (store, '{"data": {"a": 1e400}}', "data.a", "1e400"),  # as written, not as its float
    ],
)
def test_a_nan_or_an_infinity_is_refused_where_any_value_is_taken(fn, arguments, where, got):
    result = _run(fn, arguments)
    assert result.is_error, result.content
    assert f"- {where}: got {got}, expected a finite number" in result.content


def test_finite_numbers_and_every_other_json_value_still_pass_as_they_came():
    result = _run(store, '{"data": {"a": 1.5, "b": [true, null, "NaN", 1e308], "c": {"d": -0.0}}}')
    assert not result.is_error
    assert result.content == repr({"a": 1.5, "b": [True, None, "NaN", 1e308], "c": {"d": -0.0}})
