"""An int's one-frame check (`refusing_whole`) against its plain reference: rule 2's refusal
(`no_bool_refusal`) before pydantic's int, and `whole_if_refused` around both, as two wrappers."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from pydantic_core import SchemaValidator, core_schema

from toolkit.tools.coercion import no_bool_refusal, refusing_whole, whole_if_refused
from toolkit.tools.json_repair import Written


class _Text(str):
    """A str of one's own: rule 2 refuses its underscores as a plain str's."""


class _Count(int):
    """An int of one's own: not the exact int the usual value is."""


_VALUES: list[Any] = [
    True, False, 0, 27, -3, 10**30, 27.0, 27.5, 1e20, 1e300, float("nan"), float("inf"),
    "27", " 27 ", "1_000", "1e3", "1E3", "-2.5e1", "1.25e1", "1e400", "x", "", "true",
    None, [], {}, [1], b"7", 7j, _Text("1_000"), _Text("27"), _Count(27), _Count(-3),
    Written(0.0, "1e-400"), Written(1e23, "1e23"), Written(1.0, "1.0000000000000000001"),
    Written(float("inf"), "1e400"), Written(float("inf"), "1e99999"), Written(2.0**53, "9007199254740993.0"),
]  # fmt: skip


def _outcome(validator: SchemaValidator, value: Any) -> tuple[str, Any]:
    try:
        return "value", validator.validate_python(value)
    except ValidationError as error:
        return "error", [(e["type"], e["msg"], e["loc"], repr(e["input"])) for e in error.errors()]


def _pair(**bounds: Any) -> tuple[SchemaValidator, SchemaValidator]:
    inner = core_schema.int_schema(**bounds)
    plain = core_schema.no_info_wrap_validator_function(
        whole_if_refused, core_schema.no_info_before_validator_function(no_bool_refusal("int", "integer"), inner)
    )
    fast = core_schema.no_info_wrap_validator_function(refusing_whole, inner)
    return SchemaValidator(fast), SchemaValidator(plain)


@pytest.mark.parametrize("bounds", [{}, {"ge": 0, "le": 100}, {"multiple_of": 5}, {"gt": 2000}])
def test_the_one_frame_check_answers_as_the_refusal_and_the_whole_number_wrapped_around_each_other(bounds):
    fast, plain = _pair(**bounds)
    for value in _VALUES:
        assert _outcome(fast, value) == _outcome(plain, value), value


def _tool_outcome_garbage(arguments: str) -> tuple[str, int]:
    """The text of a call of an int tool with `arguments`, and how many objects the garbage collector
    finds once the outcome is dropped (a cycle through the refusal's traceback keeps the caller's frames)."""
    import gc

    from toolkit.chat.messages import ToolCall
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import FEED_BACK_ALL, run_call, tools_from

    def add(a: int, b: int = 0) -> int:
        """Add two integers."""
        return a + b

    tools = tools_from(tool(add))
    call = ToolCall(id="c1", name="add", arguments=arguments)
    run_call(call, tools, None, FEED_BACK_ALL)  # the validators looked up, once
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        text = run_call(call, tools, None, FEED_BACK_ALL).result.content
        return text, gc.collect()
    finally:
        if enabled:
            gc.enable()


@pytest.mark.parametrize("value", ['"x"', '"1e3x"', "[1]", '"1_000"', "27.5", '"2.5"', "1e-400", "{}", "true"])
def test_a_refused_int_leaves_no_cycle_for_the_garbage_collector(value):
    """A refusal raised again by the frame that holds it made a cycle (error, traceback, frame):
    every failing call left the loop's frames, its round and memory for the garbage collector."""
    text, garbage = _tool_outcome_garbage(f'{{"a": {value}}}')
    assert text.startswith("Invalid arguments for tool 'add':\n- a: got "), text
    assert garbage == 0
