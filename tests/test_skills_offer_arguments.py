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


@pytest.mark.parametrize("which, arguments", [(0, {"name": "x" * 2000}), (1, {"skill": "x" * 2000, "path": "a.md"})])
def test_a_long_wrong_skill_name_is_shown_short_and_the_skills_there_are_still_listed(which, arguments):
    import json

    tool = course_skills().management_tools()[which]
    result = tool.run(ToolCall(id="c", name=tool.name, arguments=json.dumps(arguments))).result
    assert result.content == (
        f"Tool {tool.name!r} failed: There is no skill named '{'x' * 75}...'. "
        "Available skills: logistics-complaint, refund-escalation."
    )
