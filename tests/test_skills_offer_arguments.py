"""The skill tools' arguments nested deeper than Python reads: an `ArgumentError` like any other
arguments that are not a JSON object, not a `RecursionError` reported as the tool failing."""

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError
from toolkit.skills.course import course_skills


@pytest.mark.parametrize("arguments", ["[" * 100_000, '{"name": ' + "[" * 100_000 + "}"])
@pytest.mark.parametrize("which", [0, 1])
def test_arguments_nested_too_deeply_are_an_argument_error(arguments, which):
    tool = course_skills().management_tools()[which]
    with pytest.raises(ArgumentError) as caught:
        tool.execute(ToolCall(id="c", name=tool.name, arguments=arguments))
    assert f"- arguments: got {arguments[:60]}, expected a JSON object" in str(caught.value)
