"""The skill tools' arguments read as every tool's: nested deeper than Python reads, the problems of any
other arguments that are not a JSON object, not a `RecursionError` reported as the tool failing; a trailing
comma, a double-encoded object, a skill's name in capitals taken as any @tool takes them. The skill tools
give those problems back to the model as an execution error (the peer's `ToolExecutionException`), where
an @tool raises an `ArgumentError` (tests/test_seeds_round4.py)."""

import json

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError
from toolkit.skills.course import course_skills
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from


@tool
def activate(name: str) -> str:
    """A tool of one's own, with the skill tool's parameter: what every tool does with arguments."""
    return name


def _problems(tool, arguments):
    with pytest.raises(ArgumentError) as caught:
        tool.execute(ToolCall(id="c", name=tool.name, arguments=arguments))
    return caught.value.problems


def _told(tool, arguments):
    """What a skill tool gives the model for `arguments`: an error result."""
    result = tool.execute(ToolCall(id="c", name=tool.name, arguments=arguments))
    assert result.is_error
    return result.content


def _as_told(tool, problems):
    return f"Tool {tool.name!r} failed: {ArgumentError(tool.name, problems)}"


@pytest.mark.parametrize("arguments", ["[" * 100_000, '{"name": ' + "[" * 100_000 + "}"])
@pytest.mark.parametrize("which", [0, 1])
def test_arguments_nested_too_deeply_are_an_argument_error(arguments, which):
    tool = course_skills().management_tools()[which]
    own = tools_from(activate)[0]
    problems = _problems(own, arguments)
    assert _told(tool, arguments) == _as_told(tool, problems)  # the limits every tool's arguments have
    assert problems[0].expected.startswith("a JSON object at most")


SKILL = "logistics-complaint"


PATH = "templates/complaint-reply.md"


@pytest.mark.parametrize(
    "write",
    [
        lambda args: json.dumps(args)[:-1] + ",}",  # a trailing comma
        lambda args: json.dumps(json.dumps(args)),  # the object written again as a JSON string
        lambda args: repr(args),  # Python's quotes
        lambda args: f"```json\n{json.dumps(args)}\n```",  # in a code fence
        lambda args: json.dumps({k: v.upper() if v == SKILL else v for k, v in args.items()}),  # an enum in capitals
    ],
    ids=["trailing-comma", "double-encoded", "python-quotes", "code-fence", "capitals"],
)
def test_the_skill_tools_read_arguments_as_every_tool_reads_them(write):
    """Was: 'expected a JSON object' (and 'no skill named LOGISTICS-COMPLAINT') from activate_skill, while
    every @tool took these arguments (json_repair; enums case-insensitive, SPEC section 4)."""
    skills = course_skills()
    activate_skill, read = skills.management_tools()
    own = tools_from(activate)[0].execute(ToolCall(id="c", name="activate", arguments=write({"name": SKILL})))
    assert own.content.lower() == SKILL
    result = activate_skill.execute(ToolCall(id="c", name=activate_skill.name, arguments=write({"name": SKILL})))
    assert (result.content, result.attributes) == (skills.get(SKILL).body, {"activated_skill": SKILL})
    read_arguments = write({"skill": SKILL, "path": PATH})
    assert read.execute(ToolCall(id="c", name=read.name, arguments=read_arguments)).content == (
        skills.get(SKILL).resource(PATH)
    )


def test_a_wrong_value_is_shown_as_written():
    assert _told(course_skills().management_tools()[0], '{"name": ["技能"]}') == (
        "Tool 'activate_skill' failed: Invalid arguments for tool 'activate_skill':\n"
        '- name: got ["技能"], expected a string\n'
        "Fix the arguments and call activate_skill again."
    )


@pytest.mark.parametrize("which, arguments", [(0, {"name": "x" * 2000}), (1, {"skill": "x" * 2000, "path": "a.md"})])
def test_a_long_wrong_skill_name_is_shown_short_and_the_skills_there_are_still_listed(which, arguments):
    import json

    tool = course_skills().management_tools()[which]
    result = tool.run(ToolCall(id="c", name=tool.name, arguments=json.dumps(arguments))).result
    assert result.content == (
        f"Tool {tool.name!r} failed: There is no skill named '{'x' * 75}...'. "
        "Available skills: logistics-complaint, refund-escalation."
    )
