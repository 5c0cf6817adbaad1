"""A SKILL.md a stranger writes: YAML that is broken, or reads as something other than text, a
SKILL.md too big, two skills of one name. Each error is one line that says what to fix."""

import pytest

from toolkit.errors import ConfigurationError
from toolkit.skills.folders import MAX_RESOURCE_BYTES, SKILL_FILE, Skill, load_skill, parse_skill_md
from toolkit.skills.offer import Skills

QUOTE_FIX = "Fix: put quotes around a value that holds ': ' or ' #', or starts with one of [ { * & ! | > % @"


def error_of(text):
    with pytest.raises(ConfigurationError) as info:
        parse_skill_md(text, "skill folder 's'")
    return str(info.value)


@pytest.mark.parametrize(
    "front, problem",
    [
        (
            "name: s\ndescription: Use when: the parcel is late",
            "mapping values are not allowed here at SKILL.md line 3, column 22",
        ),
        ("name: [s\ndescription: d", "expected ',' or ']', but got ':' at SKILL.md line 3, column 12"),
        (
            "name: s\ndescription: !!python/object/apply:os.system ['id']",
            "could not determine a constructor for the tag",
        ),
    ],
)
def test_invalid_yaml_is_one_line_with_where_and_the_fix(front, problem):
    message = error_of(f"---\n{front}\n---\nbody")
    assert "\n" not in message
    assert message.startswith(f"skill folder 's': its front matter is not valid YAML ({problem}")
    assert message.endswith(f"). {QUOTE_FIX}")


@pytest.mark.parametrize(
    "front, key, read_as",
    [
        ("name: 123\ndescription: d", "name", "an int (123)"),
        ("name: s\ndescription: 2026-01-01", "description", "a date (2026-01-01)"),
        ("name: s\ndescription: yes", "description", "a bool (True)"),
        ("name: s\ndescription: 1.5", "description", "a float (1.5)"),
        ("name: s\ndescription: [a, b]", "description", "a list (['a', 'b'])"),
    ],
)
def test_a_value_yaml_reads_as_something_else_than_text_says_so_and_how_to_quote_it(front, key, read_as):
    value = read_as[read_as.index("(") + 1 : -1]
    assert error_of(f"---\n{front}\n---\n") == (
        f"skill folder 's': front matter '{key}' is read by YAML as {read_as}, not text. "
        f'Fix: quote it, {key}: "{value}"'
    )


@pytest.mark.parametrize("front, kind", [("- a\n- b", "a list"), ("just text", "a str"), ("42", "an int")])
def test_front_matter_that_is_not_a_mapping_says_what_it_is(front, kind):
    assert error_of(f"---\n{front}\n---\n") == (
        f"skill folder 's': its front matter is {kind}, not a mapping of keys to values. "
        "Fix: write 'name: …' and 'description: …' lines"
    )


def test_a_skill_md_too_big_says_how_to_split_it(tmp_path):
    folder = tmp_path / "big"
    folder.mkdir()
    (folder / SKILL_FILE).write_text("---\nname: big\ndescription: d\n---\n" + "x" * MAX_RESOURCE_BYTES)
    with pytest.raises(ConfigurationError) as info:
        load_skill(folder)
    assert str(info.value) == (
        f"skill folder {str(folder)!r}: its SKILL.md is over {MAX_RESOURCE_BYTES} bytes. Fix: keep it under "
        f"{MAX_RESOURCE_BYTES} bytes: move long material into files beside it, read as resources"
    )


def test_two_skills_of_one_name_are_named():
    a, b, c = Skill("refunds", "one", ""), Skill("refunds", "two", ""), Skill("logistics", "three", "")
    with pytest.raises(ConfigurationError) as info:
        Skills([a, c, b])
    assert str(info.value) == (
        "Skills(...): two skills share the name 'refunds'; skill names must be unique. "
        "Fix: rename one skill's folder and its SKILL.md name, or leave one of them out"
    )


@pytest.mark.parametrize("folder_name", ["My-Skill", "refund escalation", "退款"])
def test_a_folder_whose_name_is_no_skill_name_is_what_to_rename(tmp_path, folder_name):
    folder = tmp_path / folder_name
    folder.mkdir()
    (folder / SKILL_FILE).write_text("---\nname: refunds\ndescription: d\n---\n")
    with pytest.raises(ConfigurationError) as info:
        load_skill(folder)
    assert str(info.value) == (
        f"skill folder {str(folder)!r}: its SKILL.md is named 'refunds'; the name must equal the folder name. "
        "Fix: rename the folder to 'refunds' (a skill name is lowercase letters, digits and hyphens)"
    )
