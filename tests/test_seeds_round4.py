"""Round 4 of the sources' rules: statements of the seeds and of the peers' code that no test pinned.

Each test cites the seed section (`/work/shared/seeds/000_*` LangChain4j's tool machinery, `003_*` week 3,
`004_*` the declarative agent) or the peer's file it states.
"""

import logging

import pytest

from toolkit.chat.messages import ToolCall, ToolResultMessage
from toolkit.chat.scripted import ScriptedModel
from toolkit.loop.run import run_loop
from toolkit.search.keyword import KeywordIndex, naive_search
from toolkit.skills.folders import SKILL_FILE, load_skill
from toolkit.skills.offer import Skills
from toolkit.tools.decorator import InvocationContext
from toolkit.tools.execute import execute
from toolkit.tools.reflect import ToolSpec


def _skill(root, name="forms"):
    folder = root / name
    (folder / "templates").mkdir(parents=True)
    (folder / SKILL_FILE).write_text(f"---\nname: {name}\ndescription: Fill in forms.\n---\nRead templates/a.md.\n")
    (folder / "templates" / "a.md").write_text("A")
    return folder


def test_a_blank_resource_is_not_served_as_an_empty_result_and_is_not_logged(tmp_path, caplog):
    """langchain4j-skills `FileSystemSkillLoader`: "Empty files are silently skipped" (`isNullOrBlank(content)`
    → no resource). Here a blank file was listed among the resources and read as an empty tool result,
    which a gateway that makes it an empty text block refuses (400) and a model reads as a failure. Now it
    is left out of `resources` and of the warning; asked for, it says it is empty."""
    folder = _skill(tmp_path)
    (folder / "templates" / "empty.md").write_bytes(b"")
    (folder / "templates" / "blank.md").write_text("  \n\n\t\n")
    with caplog.at_level(logging.WARNING):
        skill = load_skill(folder)
    assert dict(skill.resources) == {"templates/a.md": "A"}
    assert dict(skill.refused) == {"templates/blank.md": "it is empty", "templates/empty.md": "it is empty"}
    assert not caplog.records  # silently, as the peer: an empty placeholder file is nothing to warn about
    skills = Skills([skill])
    activate, read = skills.management_tools()
    context = InvocationContext()
    execute(ToolCall(id="a", name="activate_skill", arguments='{"name": "forms"}'), [activate], context)
    result = execute(
        ToolCall(id="b", name="read_skill_resource", arguments='{"skill": "forms", "path": "templates/empty.md"}'),
        [read],
        context,
    )
    assert (result.is_error, result.content) == (
        True,
        "Tool 'read_skill_resource' failed: Skill 'forms' does not serve 'templates/empty.md': it is empty. "
        "Available resources: templates/a.md.",
    )


def test_a_skill_tool_called_with_wrong_arguments_is_told_so_and_the_call_goes_on(tmp_path):
    """Seed 000 §3.9: both skill executors' errors are hints for the model to correct itself; langchain4j-skills
    `AbstractSkillToolExecutor.throwException` raises `ToolExecutionException` unless the builder's
    `throwToolArgumentsExceptions` (default false) is set, so a missing or unknown argument goes back to the
    model as the execution error handler's result (as the tool search strategies do, seed 000 §3.7).
    Here it was an `ArgumentError`, which fails fast by default: a model writing `skill_name` (the peer's
    parameter) ended the whole call."""
    _skill(tmp_path)
    skills = Skills.from_directory(tmp_path)
    model = ScriptedModel(
        [
            ToolCall(id="a", name="activate_skill", arguments='{"skill_name": "forms"}'),
            ToolCall(id="b", name="read_skill_resource", arguments='{"skill": "forms"}'),
            ToolCall(id="c", name="activate_skill", arguments='{"name": "forms"}'),
            "done",
        ]
    )
    result = run_loop(model, "fill in the form", providers=[skills.provider()])
    assert result.answer == "done"
    first, second, third = [m for m in result.new_messages if isinstance(m, ToolResultMessage)]
    assert (first.is_error, first.content) == (
        True,
        "Tool 'activate_skill' failed: Invalid arguments for tool 'activate_skill':\n"
        '- skill_name: unknown field (got "forms"), valid fields: name\n'
        "- name: missing, expected a string\n"
        "Fix the arguments and call activate_skill again.",
    )
    assert (second.is_error, second.content) == (
        True,
        "Tool 'read_skill_resource' failed: Invalid arguments for tool 'read_skill_resource':\n"
        "- path: missing, expected a string\n"
        "Fix the arguments and call read_skill_resource again.",
    )
    assert (third.is_error, third.content, third.attributes) == (
        False,
        "Read templates/a.md.",
        {"activated_skill": "forms"},
    )


@pytest.mark.parametrize(
    "terms, found",
    [
        (["order status"], ["query_order"]),  # "order" +2 +1, "status" +1: the phrase was in neither text
        (["  Create\tTask "], ["create_task", "cancel_task"]),  # 2+1+2+1 = 6, then "task" alone 2+1 = 3
        (["order", "ORDER status"], ["query_order"]),  # "order" once: the terms are de-duplicated after the split
        (["order\u00a0status"], []),  # Java's \\s is ASCII whitespace: a no-break space splits nothing
    ],
)
def test_a_search_term_of_several_words_is_one_term_per_word(terms, found):
    """langchain4j `SimpleToolSearchStrategy.clean` (the version that searches `request.searchableTools()`,
    seed 000 §3.7's `calculateSearchableTools`): `terms.stream().flatMap(term -> stream(term.split("\\\\s+")))`,
    then trim, drop blanks, lower-case, distinct. A model writes ["order status"] although the argument asks
    for single words; it was one phrase here, found in no tool. The index answers as the rule written out."""
    specs = [
        ToolSpec("query_order", "Look up the status of an order.", None),
        ToolSpec("cancel_task", "Cancel a task.", None),
        ToolSpec("create_task", "Create a new task.", None),
    ]
    assert [m.name for m in naive_search(terms, specs)] == found
    assert [m.name for m in KeywordIndex(specs).search(terms, 5, 1, None)] == found
