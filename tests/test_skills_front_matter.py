"""A SKILL.md a stranger writes: YAML that is broken, or reads as something other than text, a
SKILL.md too big, two skills of one name. Each error is one line that says what to fix."""

import unicodedata

import pytest

from toolkit.errors import ConfigurationError
from toolkit.skills.folders import (
    MAX_MERGED,
    MAX_RESOURCE_BYTES,
    SKILL_FILE,
    Skill,
    load_skill,
    parse_skill_md,
    scan_skills,
)
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
    # a hang guard, not a speed target: 9**9 strings written out took 94 s; refused, it takes milliseconds,
    # so a bound this generous never fails on a loaded machine and still catches the bomb written out
    assert time.perf_counter() - started < 60
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
        "skill folder 's': front matter needs a non-empty 'name' (keys are lowercase: it has 'Name'). "
        "Fix: write it 'name:'"
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


@pytest.mark.parametrize("folder_name", ["My-Skill", "refund escalation", "退款 流程"])
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


@pytest.mark.parametrize("nested", ["z: " + "[" * 5000 + "]" * 5000, "? " + "{a: " * 2000 + "}" * 2000 + "\n: 1"])
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


@pytest.mark.parametrize("nested", ["z: " + "[" * 150 + "]" * 150, "? " + "{a: " * 150 + "}" * 150 + "\n: 1"])
def test_the_bound_on_nesting_is_the_same_where_a_library_raised_the_recursion_limit(tmp_path, nested):
    """Before: "too deep" was wherever PyYAML's recursion hit Python's limit, so where Hypothesis or torch had raised
    it, front matter nested thousands deep was read (or refused with untrue advice about quoting ': '). Now front
    matter nesting past `MOST_NESTED` is refused in every process."""
    import sys

    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / SKILL_FILE).write_text(f"---\nname: deep\ndescription: d\n{nested}\n---\nbody\n")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)
    try:
        skills, rejected = scan_skills(tmp_path)
    finally:
        sys.setrecursionlimit(limit)
    assert skills == []
    assert rejected == {
        "deep": f"skill folder {str(tmp_path / 'deep')!r}: its front matter nests deeper than YAML can be read "
        "here. Fix: front matter holds 'name: …' and 'description: …' lines, not nested lists or mappings"
    }


# --- against the published Agent Skills specification (agentskills.io/specification) -----------


@pytest.mark.parametrize("name", ["café", "技能", "物流-投诉", "schritt-2"])
def test_a_name_of_unicode_lowercase_letters_and_digits_loads(tmp_path, name):
    """The spec: `name` "may only contain unicode lowercase alphanumeric characters and hyphens";
    its reference validator (skills-ref) takes any letter that has no upper case (`技能`, `café`)."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / SKILL_FILE).write_text(f"---\nname: {name}\ndescription: d\n---\nbody\n", encoding="utf-8")
    assert load_skill(folder).name == name


def test_a_name_and_folder_in_other_unicode_forms_are_the_same_name(tmp_path):
    """A Mac writes a folder's name decomposed (`e` and an accent), an editor writes SKILL.md composed:
    the spec's reference validator compares them in NFKC form; tools given by that name join the skill."""
    folder = tmp_path / unicodedata.normalize("NFD", "café")
    folder.mkdir()
    (folder / SKILL_FILE).write_text("---\nname: café\ndescription: d\n---\nbody\n", encoding="utf-8")

    def brew() -> str:
        """Brew a coffee."""
        return "ok"

    skills, rejected = scan_skills(tmp_path, tools={"café": [brew]})
    assert rejected == {}
    assert [(s.name, [t.name for t in s.tools]) for s in skills] == [("café", ["brew"])]


@pytest.mark.parametrize(
    "name, problem",
    [
        ("a" * 65, "is 65 characters, over 64 (Agent Skills' limit). Fix: shorten it, and the folder's name with it"),
        ("-pdf", "must not start or end with a hyphen. Fix: name it 'pdf'"),
        ("pdf-", "must not start or end with a hyphen. Fix: name it 'pdf'"),
        ("pdf--processing", "must not hold two hyphens in a row. Fix: name it 'pdf-processing'"),
        ("PDF-Processing", "must be lowercase letters, digits and hyphens. Fix: name it 'pdf-processing'"),
        ("my_skill v2", "must be lowercase letters, digits and hyphens. Fix: name it 'my-skill-v2'"),
    ],
)
def test_a_name_that_breaks_a_rule_of_the_spec_says_which_rule(name, problem):
    """The spec's `name` rules, one each: 1-64 characters; lowercase letters, digits and hyphens;
    not starting or ending with `-`; no `--`. The error names the rule broken, not all of them."""
    assert error_of(f"---\nname: {name}\ndescription: d\n---\n") == f"skill folder 's': skill name {name!r} {problem}"


def test_a_description_is_measured_as_written_not_as_shown():
    """The spec: `description` "must be 1-1024 characters". Its blank lines count: the limit is on the
    field, not on the one line the system prompt shows it as."""
    text = "".join(f"{'w' * 9}\n\n" for _ in range(95)).strip()  # 1043 characters, 949 on one line
    front = "---\nname: s\ndescription: |\n" + "".join(f"  {line}\n" for line in text.split("\n")) + "---\n"
    assert error_of(front).startswith("skill folder 's': front matter 'description' is 1043 characters, over 1024")


@pytest.mark.parametrize(
    "value, problem",
    [
        (
            "x" * 501,
            "is 501 characters, over 500 (Agent Skills' limit). Fix: name only what the skill needs (a product, "
            "system packages, network access) in a sentence",
        ),
        ('""', "is empty; when given it holds 1 to 500 characters. Fix: say what the skill needs, or leave it out"),
        ("", "is empty; when given it holds 1 to 500 characters. Fix: say what the skill needs, or leave it out"),
        (
            "[git, docker]",
            "is read by YAML as a list (['git', 'docker']), not text. Fix: quote it, compatibility: \"[git, docker]\"",
        ),
    ],
)
def test_compatibility_over_500_characters_or_empty_is_refused(value, problem):
    """The spec: `compatibility` "must be 1-500 characters if provided" (a MUST, like the 1024 of a
    description); 500 loads."""
    assert parse_skill_md(f"---\nname: s\ndescription: d\ncompatibility: {'x' * 500}\n---\n")[0]["name"] == "s"
    assert error_of(f"---\nname: s\ndescription: d\ncompatibility: {value}\n---\n") == (
        f"skill folder 's': front matter 'compatibility' {problem}"
    )


def test_the_optional_fields_of_the_spec_load():
    """The spec's example front matter, with every optional field: `license`, `compatibility`,
    `metadata` (a map), `allowed-tools` (experimental). None is refused."""
    meta, body = parse_skill_md(
        "---\nname: pdf-processing\ndescription: Extract text and tables from PDF files.\nlicense: Apache-2.0\n"
        "compatibility: Requires git, docker, jq, and access to the internet\n"
        'metadata:\n  author: example-org\n  version: "1.0"\nallowed-tools: Bash(git:*) Bash(jq:*) Read\n---\n# PDF\n'
    )
    assert meta == {"name": "pdf-processing", "description": "Extract text and tables from PDF files."}
    assert body == "# PDF"


def test_two_folders_of_one_name_in_two_unicode_forms_reject_the_second_only(tmp_path):
    """`café` composed and decomposed are two folders on Linux and one skill name: the first (in sorted
    order) loads, the second is rejected naming the first, and the other skills still load."""
    nfc, nfd = unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")
    for name, description in ((nfc, "composed"), (nfd, "decomposed"), ("pdf", "p")):
        (tmp_path / name).mkdir()
        (tmp_path / name / SKILL_FILE).write_text(f"---\nname: {name}\ndescription: {description}\n---\n")
    first, second = sorted([nfc, nfd])
    skills = Skills.from_directory(tmp_path)
    assert [(s.name, s.description) for s in skills.by_name.values()] == [
        ("café", "composed" if first == nfc else "decomposed"),
        ("pdf", "p"),
    ]
    assert skills.rejected == {
        second: f"skill folder {str(tmp_path / second)!r}: its skill name 'café' is taken by the skill folder "
        f"{first!r} (one name written in two Unicode forms). Fix: keep one of the two folders"
    }


@pytest.mark.parametrize("written", ["skill.md", "Skill.md", "SKILL.MD"])
def test_a_skill_md_named_in_other_capitals_is_named_not_skipped(tmp_path, written):
    """On Linux `skill.md` is not `SKILL.md`: the folder is rejected saying so (was: skipped without a
    word, as a folder of notes is), and `load_skill` says to rename it, not to add a SKILL.md."""
    folder = tmp_path / "pdf"
    folder.mkdir()
    (folder / written).write_text("---\nname: pdf\ndescription: d\n---\n")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.md").write_text("not a skill")
    message = (
        f"skill folder {str(folder)!r}: no {SKILL_FILE} (it has {written!r}; the file's name is {SKILL_FILE}, "
        f"in capitals). Fix: rename {written!r} to {SKILL_FILE}"
    )
    assert scan_skills(tmp_path) == ([], {"pdf": message})
    with pytest.raises(ConfigurationError) as info:
        load_skill(folder)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "front, where",
    [
        ("name: s\ndescription:\tUse it", "line 3, column 13"),  # YAML 1.2 reads it; PyYAML (YAML 1.1) does not
        ("name: s\ndescription: d\nmetadata:\n\tauthor: me", "line 5, column 1"),
    ],
)
def test_a_tab_in_the_front_matter_says_to_write_spaces_not_to_quote(front, where):
    """A tab before a value or as indentation (an editor set to tabs): the fix is spaces, not quotes."""
    assert error_of(f"---\n{front}\n---\nbody") == (
        "skill folder 's': its front matter is not valid YAML (found character '\\t' that cannot start any token "
        f"at SKILL.md {where}). Fix: write spaces there, not a tab (YAML reads no tab before a value or as indentation)"
    )


@pytest.mark.parametrize(
    "encoding, which",
    [
        ("utf-16", "is UTF-16 text, not UTF-8"),
        ("utf-16-le", "is UTF-16 text, not UTF-8"),
        ("gbk", "is not UTF-8 text"),
        ("latin-1", "is not UTF-8 text"),
    ],
)
def test_a_skill_md_that_is_not_utf8_says_to_save_it_as_utf8(tmp_path, encoding, which):
    """Windows PowerShell 5's `>` and Notepad's "Unicode" write UTF-16: the error says which, and the fix."""
    folder = tmp_path / "pdf"
    folder.mkdir()
    description = "退款" if encoding == "gbk" else "café"
    (folder / SKILL_FILE).write_bytes(f"---\nname: pdf\ndescription: {description}\n---\n".encode(encoding))
    with pytest.raises(ConfigurationError) as info:
        load_skill(folder)
    assert str(info.value) == (
        f"skill folder {str(folder)!r}: its SKILL.md {which}. Fix: open it in the editor that "
        "saved it and save it as UTF-8"
    )


@pytest.mark.parametrize("text", ["---\n---\nbody", "---\r\n---\r\n", "---\n---"])
def test_empty_front_matter_says_what_it_lacks(text):
    """Front matter with nothing between its '---' lines is there, and empty: it lacks a name (was: "must
    start with front matter between '---' lines", which it does)."""
    assert error_of(text) == f"skill folder 's': front matter needs a non-empty 'name'. {NAME_FIX}"


NAME_FIX = "Fix: add a line 'name: …' with the skill folder's name (lowercase letters, digits and hyphens)"
DESCRIPTION_FIX = "Fix: add a line 'description: …' saying what the skill does and when to use it"


@pytest.mark.parametrize(
    "text, key, fix",
    [
        ("---\ndescription: d\n---\n", "name", NAME_FIX),
        ("---\nname: ''\ndescription: d\n---\n", "name", NAME_FIX),
        ("---\nname: s\n---\n", "description", DESCRIPTION_FIX),
        ("---\nname: s\ndescription:\n---\n", "description", DESCRIPTION_FIX),
    ],
)
def test_a_missing_name_or_description_names_the_fix(text, key, fix):
    assert error_of(text) == f"skill folder 's': front matter needs a non-empty '{key}'. {fix}"


def test_a_folder_of_skill_folders_under_the_root_is_named_not_skipped_unsaid(tmp_path, caplog):
    """Skills grouped in folders (`document-skills/pdf/SKILL.md`): only the root's own sub-folders are
    skills, so these did not load, without a word. The folder is listed in `rejected`, with the call
    that loads them; a folder of plain notes is still skipped silently."""
    for path in ("document-skills/pdf", "document-skills/xlsx", "refunds"):
        folder = tmp_path / path
        folder.mkdir(parents=True)
        (folder / SKILL_FILE).write_text(f"---\nname: {folder.name}\ndescription: d\n---\n")
    (tmp_path / "notes" / "old").mkdir(parents=True)
    (tmp_path / "notes" / "todo.md").write_text("x")
    skills, rejected = scan_skills(tmp_path)
    group = tmp_path / "document-skills"
    assert [s.name for s in skills] == ["refunds"]
    assert rejected == {
        "document-skills": f"folder {str(group)!r} is no skill (it has no {SKILL_FILE}) but holds skill folders: "
        f"pdf, xlsx; only the folders right under the root are read. Fix: move them up into the root, or load "
        f"them with load_skills({str(group)!r})"
    }
    assert rejected["document-skills"] in caplog.text


def test_a_skill_written_with_windows_line_endings_loads_as_the_same_text(tmp_path):
    """A Windows checkout (git's core.autocrlf) writes the course's skills with CRLF: the body and the
    resources kept their '\\r', so the tool results, and the requests a cassette matches, were other
    text than on Linux. They read as Python's text mode reads them: every line ending is '\\n'."""
    made = {}
    for name, end in (("unix", "\n"), ("windows", "\r\n"), ("old-mac", "\r")):
        folder = tmp_path / name
        (folder / "templates").mkdir(parents=True)
        text = f"---\nname: {name}\ndescription: |\n  Two\n  lines\n---\n# Title\n\nStep 1\nStep 2\n"
        (folder / SKILL_FILE).write_bytes(text.replace("\n", end).encode())
        (folder / "templates" / "reply.md").write_bytes("Dear customer,\n\nRegards\n".replace("\n", end).encode())
        skill = load_skill(folder)
        made[name] = (skill.description, skill.body, dict(skill.resources))
    assert (
        made["windows"]
        == made["old-mac"]
        == made["unix"]
        == (
            "Two lines",
            "# Title\n\nStep 1\nStep 2",
            {"templates/reply.md": "Dear customer,\n\nRegards\n"},
        )
    )


@pytest.mark.parametrize("given", [".", "./", "../refunds"])
def test_a_skill_folder_given_as_dot_is_named_by_its_real_name(tmp_path, monkeypatch, given):
    """`load_skill('.')` run inside the skill's folder: its name is the folder's, not '' (was: "the name must
    equal the folder name. Fix: name it ''")."""
    folder = tmp_path / "refunds"
    (folder / "templates").mkdir(parents=True)
    (folder / SKILL_FILE).write_text("---\nname: refunds\ndescription: d\n---\nbody\n")
    (folder / "templates" / "reply.md").write_text("R")
    monkeypatch.chdir(folder)
    skill = load_skill(given)
    assert (skill.name, dict(skill.resources)) == ("refunds", {"templates/reply.md": "R"})


def test_a_resource_saved_with_a_byte_order_mark_loads_as_the_same_text(tmp_path):
    """Notepad's "UTF-8 with BOM": SKILL.md was read past its mark, but a resource kept it ('\\ufeffDear …'),
    an invisible character the model read and a cassette's request did not match. Now it is left out, as
    the utf-8-sig codec leaves it; a mark inside the text is text."""
    folder = tmp_path / "replies"
    folder.mkdir()
    (folder / SKILL_FILE).write_bytes(b"\xef\xbb\xbf---\nname: replies\ndescription: d\n---\nbody\n")
    (folder / "reply.md").write_bytes("\ufeffDear customer,\r\n\ufeffok\r\n".encode())
    (folder / "plain.md").write_bytes(b"Dear customer,\n")
    skill = load_skill(folder)
    assert dict(skill.resources) == {"plain.md": "Dear customer,\n", "reply.md": "Dear customer,\n\ufeffok\n"}
    assert skill.body == "body"


NOT_OPENED = "skill folder 's': SKILL.md must start with front matter between '---' lines. "


@pytest.mark.parametrize(
    "text",
    [
        "---\nname: s\ndescription: d\nthe body, no closing line\n",
        "---\nname: s\ndescription: d\n",
        "---\r\nname: s\r\ndescription: d",
        "---\n",
    ],
)
def test_front_matter_without_its_closing_line_says_so(text):
    assert error_of(text) == (
        "skill folder 's': its front matter opens with '---' on line 1 but has no closing '---' line. "
        "Fix: add a line '---' after the front matter ('name: …', 'description: …'), before the body"
    )


@pytest.mark.parametrize(
    "text, where",
    [
        ("\n---\nname: s\ndescription: d\n---\nbody", "line 2, after a blank line"),
        ("\n \n\t\n---\nname: s\ndescription: d\n---\nbody", "line 4, after 3 blank lines"),
        ("  ---\nname: s\ndescription: d\n---\nbody", "line 1, indented"),
        ("\ufeff\r\n---\r\nname: s\r\ndescription: d\r\n---\r\n", "line 2, after a blank line"),
        ("\n\t---\nname: s\ndescription: d\n---\n", "line 2, after a blank line, indented"),
    ],
)
def test_front_matter_opened_after_blank_lines_names_where(text, where):
    assert error_of(text) == (
        f"skill folder 's': its front matter's opening '---' must be the very first line of SKILL.md; it is on "
        f"{where}. Fix: delete what comes before it"
    )


def test_a_skill_md_that_never_opens_front_matter_keeps_its_error():
    assert error_of("# My skill\n\nname: s\n").startswith(NOT_OPENED)
    assert error_of("+++\nname = 's'\n+++\n").startswith(NOT_OPENED)
    assert error_of("---\u3000\nname: s\ndescription: d\n---\n").startswith(NOT_OPENED)  # not an opening line


@pytest.mark.parametrize(
    "data, which",
    [
        # UTF-16 without a byte-order mark, ASCII only: valid UTF-8 (NUL bytes), was 'must start with front matter'
        ("---\nname: pdf\ndescription: d\n---\n".encode("utf-16-le"), "is UTF-16 text, not UTF-8"),
        ("---\nname: pdf\ndescription: d\n---\n".encode("utf-16-be"), "is UTF-16 text, not UTF-8"),
        (b"---\nname: pdf\ndescription: d\n---\nbody\x00more", "is binary (it holds a NUL byte), not text"),
    ],
)
def test_a_skill_md_holding_nul_bytes_is_not_read_as_text(tmp_path, data, which):
    folder = tmp_path / "pdf"
    folder.mkdir()
    (folder / SKILL_FILE).write_bytes(data)
    with pytest.raises(ConfigurationError) as info:
        load_skill(folder)
    assert str(info.value) == (
        f"skill folder {str(folder)!r}: its SKILL.md {which}. Fix: open it in the editor that "
        "saved it and save it as UTF-8"
    )


def test_merges_of_merges_are_refused_before_yaml_copies_them():
    """Each '<<' copies the keys of the mapping it merges, itself merged: 6,000 lines (217 KB) of
    `aN: &aN {<<: *aN-1, kN: 1}` were 18 million copies (55 s). The copies are counted first: 400
    lines (within `MAX_FRONT_MATTER`) are 80,000."""
    lines = "".join(f"a{i}: &a{i} {{<<: *a{i - 1}, k{i}: 1}}\n" for i in range(1, 400))
    assert error_of(f"---\nname: s\ndescription: d\na0: &a0 {{k0: 1}}\n{lines}---\n") == (
        f"skill folder 's': its front matter's '<<' merges copy over {MAX_MERGED} keys (merges of merges). "
        "Fix: write the keys out; front matter holds 'name: …' and 'description: …' lines, not merged mappings"
    )


def test_a_few_merges_of_merges_load():
    lines = "".join(f"a{i}: &a{i} {{<<: *a{i - 1}, k{i}: 1}}\n" for i in range(1, 100))
    meta, _ = parse_skill_md(f"---\na0: &a0 {{name: s, description: d}}\n{lines}<<: *a99\n---\n")
    assert meta == {"name": "s", "description": "d"}


@pytest.mark.parametrize(
    "value, line, kind, why",
    [
        # a typo'd date: YAML 1.1 reads a plain yyyy-mm-dd as a date, and datetime refuses it
        ("2026-02-30", 3, "a date", " (day is out of range for month)"),
        ("2026-13-01", 3, "a date", " (month must be in 1..12)"),
        ("2026-01-01 25:00:00", 3, "a date", " (hour must be in 0..23)"),
        ("!!timestamp 99999-01-01", 3, "a date", ""),  # PyYAML's own AttributeError
        ("!!bool maybe", 3, "true or false", ""),  # PyYAML's own KeyError
        (
            "1" + "0" * 5000,
            3,
            "a whole number",
            " (Exceeds the limit (4300 digits) for integer string conversion: value has 5001 digits)",
        ),
        ("!!float 1:" + "30:" * 400 + "1", 3, "a number", " (int too large to convert to float)"),
    ],
)
@pytest.mark.parametrize("key", ["description", "metadata"])
def test_a_value_yaml_cannot_build_is_one_line_naming_it_not_a_crash(value, line, kind, why, key):
    """PyYAML raises ValueError, KeyError, AttributeError or OverflowError (no YAMLError) for a value its
    tag (written or implicit) cannot build: one such SKILL.md stopped every skill from loading."""
    front = f"name: s\ndescription: d\n{key}: {value}" if key == "metadata" else f"name: s\n{key}: {value}"
    written = value if len(value) <= 60 else value[:57] + "..."
    assert error_of(f"---\n{front}\n---\nbody") == (
        f"skill folder 's': its front matter holds {written} (SKILL.md line {line + (key == 'metadata')}), which "
        f'YAML reads as {kind} and cannot make one of{why}. Fix: quote it, {key}: "{written}"'
    )


def test_a_skill_whose_value_yaml_cannot_build_is_left_out_and_the_others_load(tmp_path):
    for name, description in (("good", "d"), ("bad", "2026-02-30")):
        (tmp_path / name).mkdir()
        (tmp_path / name / SKILL_FILE).write_text(f"---\nname: {name}\ndescription: {description}\n---\nbody")
    skills, rejected = scan_skills(tmp_path)
    assert [s.name for s in skills] == ["good"]
    assert list(rejected) == ["bad"] and "day is out of range for month" in rejected["bad"]


def test_a_number_too_long_to_write_is_shown_short():
    message = error_of("---\nname: s\ndescription: 0x" + "f" * 5000 + "\n---\n")
    assert message.startswith("skill folder 's': front matter 'description' is read by YAML as an int (")
    assert "(a number over 3,000 digits long), not text" in message
