"""A SKILL.md a stranger writes: YAML that is broken, or reads as something other than text, a
SKILL.md too big, two skills of one name. Each error is one line that says what to fix."""

import pytest

from toolkit.errors import ConfigurationError
from toolkit.skills.folders import MAX_RESOURCE_BYTES, SKILL_FILE, Skill, load_skill, parse_skill_md, scan_skills
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
        ("name: s\ndescription: a\x00b", "unacceptable character #x0000: special characters are not allowed"),
    ],
)
def test_invalid_yaml_is_one_line_with_where_and_the_fix(front, problem):
    message = error_of(f"---\n{front}\n---\nbody")
    assert "\n" not in message
    assert message.startswith(f"skill folder 's': its front matter is not valid YAML ({problem}")
    assert message.endswith(f"). {QUOTE_FIX}")


@pytest.mark.parametrize(
    "front, key, read_as, quoted",
    [
        ("name: 123\ndescription: d", "name", "an int (123)", '"123"'),
        ("name: s\ndescription: 2026-01-01", "description", "a date (2026-01-01)", '"2026-01-01"'),
        # the fix quotes the value as it was written, never as YAML read it ("True" is not what was meant)
        ("name: s\ndescription: yes", "description", "a bool (True)", '"yes"'),
        ("name: s\ndescription: Off", "description", "a bool (False)", '"Off"'),
        ("name: s\ndescription: 1.5", "description", "a float (1.5)", '"1.5"'),
        ("name: s\ndescription: .inf", "description", "a float (inf)", '".inf"'),
        ("name: 0x1F\ndescription: d", "name", "an int (31)", '"0x1F"'),
        ("name: s\ndescription: [a, b]", "description", "a list (['a', 'b'])", '"[a, b]"'),
        ('name: s\ndescription: [say "hi"]', "description", "a list (['say \"hi\"'])", '"[say \\"hi\\"]"'),
    ],
)
def test_a_value_yaml_reads_as_something_else_than_text_says_so_and_how_to_quote_it(front, key, read_as, quoted):
    assert error_of(f"---\n{front}\n---\n") == (
        f"skill folder 's': front matter '{key}' is read by YAML as {read_as}, not text. Fix: quote it, {key}: {quoted}"
    )


def test_the_quoted_fix_reads_back_as_the_text_that_was_written():
    import yaml

    message = error_of('---\nname: s\ndescription: [say "hi", 2]\n---\n')
    fix = message.split("Fix: quote it, ")[1]
    assert yaml.safe_load(fix) == {"description": '[say "hi", 2]'}


def test_an_alias_bomb_in_the_front_matter_is_refused_at_once(tmp_path):
    import time

    levels = "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 10))
    text = f"---\nl0: &l0 [x, x, x, x, x, x, x, x, x]\n{levels}name: s\ndescription: *l9\n---\n"
    started = time.perf_counter()
    message = error_of(text)
    assert time.perf_counter() - started < 2  # 9**9 strings if written out: was 94 s to write the message
    assert message.startswith("skill folder 's': front matter 'description' is read by YAML as a list ([[[")
    assert len(message) < 400 and message.endswith('. Fix: quote it, description: "*l9"')


@pytest.mark.parametrize(
    "front, key, lines",
    [
        ("name: s\ndescription: first\ndescription: second", "description", "3 and 4"),
        ("name: s\ndescription: d\nname: t", "name", "2 and 4"),
        ("name: s\ndescription: d\nlicense: MIT\n'license': Apache-2.0", "license", "4 and 5"),
    ],
)
def test_a_key_given_twice_is_refused_not_the_last_one_kept(front, key, lines):
    assert error_of(f"---\n{front}\n---\n") == (
        f"skill folder 's': front matter gives {key!r} twice (SKILL.md lines {lines}); YAML would keep only the "
        f"last one. Fix: keep one {key!r} line"
    )


def test_a_merge_key_may_be_overridden():
    meta, _ = parse_skill_md("---\nbase: &b {name: s, description: d}\n<<: *b\ndescription: mine\n---\n")
    assert meta == {"name": "s", "description": "mine"}


def test_a_merged_value_that_is_no_text_says_where_to_quote_it():
    assert error_of("---\nbase: &b {name: s, description: yes}\n<<: *b\n---\n") == (
        "skill folder 's': front matter 'description' is read by YAML as a bool (True), not text. "
        "Fix: quote it where it is written (it is merged in by a '<<' key)"
    )


def test_a_key_in_another_case_is_named():
    assert error_of("---\nName: s\nDescription: d\n---\n") == (
        "skill folder 's': front matter needs a non-empty 'name' (keys are lowercase: it has 'Name')"
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


def test_a_description_over_1024_characters_is_refused():
    assert parse_skill_md(f"---\nname: s\ndescription: {'d' * 1024}\n---\n")[0]["description"] == "d" * 1024
    assert error_of(f"---\nname: s\ndescription: {'d' * 1025}\n---\n") == (
        "skill folder 's': front matter 'description' is 1025 characters, over 1024 (Agent Skills' limit: every "
        "request carries every skill's description). Fix: say what the skill does and when to use it in a "
        "sentence or two, and move the rest into the body of SKILL.md"
    )


@pytest.mark.parametrize("nested", ["z: " + "[" * 5000 + "]" * 5000, "? " + "{a: " * 5000 + "}" * 5000 + "\n: 1"])
def test_front_matter_nested_too_deep_rejects_its_skill_only(tmp_path, nested):
    for name, front in ("deep", f"name: deep\ndescription: d\n{nested}"), ("fine", "name: fine\ndescription: d"):
        (tmp_path / name).mkdir()
        (tmp_path / name / SKILL_FILE).write_text(f"---\n{front}\n---\nbody\n", encoding="utf-8")
    skills, rejected = scan_skills(tmp_path)
    assert [s.name for s in skills] == ["fine"]
    assert rejected == {
        "deep": f"skill folder {str(tmp_path / 'deep')!r}: its front matter nests deeper than YAML can be read "
        "here. Fix: front matter holds 'name: …' and 'description: …' lines, not nested lists or mappings"
    }
