"""The skill tools' arguments read as every tool's: nested deeper than Python reads, an `ArgumentError`
like any other arguments that are not a JSON object, not a `RecursionError` reported as the tool failing;
a trailing comma, a double-encoded object, a skill's name in capitals taken as any @tool takes them."""

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


@pytest.mark.parametrize("arguments", ["[" * 100_000, '{"name": ' + "[" * 100_000 + "}"])
@pytest.mark.parametrize("which", [0, 1])
def test_arguments_nested_too_deeply_are_an_argument_error(arguments, which):
    tool = course_skills().management_tools()[which]
    own = tools_from(activate)[0]
    assert _problems(tool, arguments) == _problems(own, arguments)  # the limits every tool's arguments have
    assert _problems(tool, arguments)[0].expected.startswith("a JSON object at most")


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
    problems = _problems(course_skills().management_tools()[0], '{"name": ["技能"]}')
    assert [(p.field, p.received, p.expected) for p in problems] == [("name", '["技能"]', "a string")]


@pytest.mark.parametrize("which, arguments", [(0, {"name": "x" * 2000}), (1, {"skill": "x" * 2000, "path": "a.md"})])
def test_a_long_wrong_skill_name_is_shown_short_and_the_skills_there_are_still_listed(which, arguments):
    import json

    tool = course_skills().management_tools()[which]
    result = tool.run(ToolCall(id="c", name=tool.name, arguments=json.dumps(arguments))).result
    assert result.content == (
        f"Tool {tool.name!r} failed: There is no skill named '{'x' * 75}...'. "
        "Available skills: logistics-complaint, refund-escalation."
    )
