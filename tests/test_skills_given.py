"""`toolkit.skills`: loading and offering skills given the wrong shapes, refused where they are made.

`load_skill(None)` (a number, bytes, a list of folders), `load_skills(None)` and
`Skills.from_directory(None)` were pathlib's raw `TypeError` ("expected str, bytes or os.PathLike object");
`load_skills(root, tools=[...])` (a list, not a dict by skill name) a raw `AttributeError`; `Skills(None)`
a raw `TypeError`, and `Skills("data/skills")` (a folder, where `from_directory` belongs) and
`Skills([None])` a raw `AttributeError` ("'str' object has no attribute 'name'"). Each is now a
`ConfigurationError` naming the fix; a generator of skills is read once, in order."""

import pytest

from toolkit import data
from toolkit.errors import ConfigurationError
from toolkit.skills.course import open_logistics_ticket
from toolkit.skills.folders import load_skill, load_skills
from toolkit.skills.offer import Skills

ROOT = data.path("skills")


def said(make) -> str:
    with pytest.raises(ConfigurationError) as caught:
        make()
    return str(caught.value)


@pytest.mark.parametrize(
    ("folder", "shown", "kind", "fix"),
    [
        (None, "None", "None", "e.g. load_skill('data/skills/my-skill')"),
        (5, "5", "an int", "e.g. load_skill('data/skills/my-skill')"),
        (b"x", "b'x'", "a bytes", "decode it: load_skill(b'x'.decode())"),
        (["a", "b"], "['a', 'b']", "a list",
         "load one folder at a time, or the folder that holds them all with load_skills(root)"),
    ],
)  # fmt: skip
def test_load_skill_given_no_path_says_so(folder, shown, kind, fix):
    assert said(lambda: load_skill(folder)) == (
        f"load_skill({shown}): folder is one skill's folder (a str or a Path), and got {kind}. Fix: {fix}"
    )


@pytest.mark.parametrize(("root", "shown", "kind"), [(None, "None", "None"), (5, "5", "an int")])
def test_a_folder_of_skills_that_is_no_path_is_refused(root, shown, kind):
    assert said(lambda: Skills.from_directory(root)) == (
        f"Skills.from_directory({shown}): root is the folder of skill folders (a str or a Path), and got {kind}. "
        "Fix: e.g. Skills.from_directory('data/skills')"
    )
    assert said(lambda: load_skills(root)) == (
        f"load_skills({shown}): root is the folder of skill folders (a str or a Path), and got {kind}. "
        "Fix: e.g. load_skills('data/skills')"
    )


def test_tools_as_a_list_not_a_dict_by_skill_is_refused():
    assert said(lambda: load_skills(ROOT, tools=[print])) == (
        f"load_skills({str(ROOT)!r}, tools=list): tools maps each skill's name to a list of its own tools, and got "
        "a list. Fix: e.g. tools={'logistics-complaint': [open_logistics_ticket]}"
    )


def test_skills_given_a_folder_points_at_from_directory():
    assert said(lambda: Skills("skills")) == (
        "Skills('skills'): Skills takes loaded skills, and got a folder. Fix: load the folder: "
        "Skills.from_directory('skills')"
    )


HOW = "Skills.from_directory('data/skills'), or Skills([load_skill(folder), ...])"


@pytest.mark.parametrize(
    ("skills", "text"),
    [
        (None, f"Skills(None): Skills takes a list of skills, and got None. Fix: {HOW}"),
        (5, f"Skills(5): Skills takes a list of skills, and got an int. Fix: {HOW}"),
        ([None], f"Skills([...]): item 0 is None, not a Skill. Fix: {HOW}"),
        ([Skills], f"Skills([...]): item 0 is the class Skills, not a Skill. Fix: {HOW}"),
        (["skills/a"], "Skills([...]): item 0 is a str, not a Skill. Fix: load it: load_skill('skills/a')"),
    ],
)
def test_skills_that_are_no_list_of_skills_are_refused(skills, text):
    assert said(lambda: Skills(skills)) == text


def test_a_generator_of_skills_keeps_them_in_order():
    loaded = load_skills(ROOT)
    assert list(Skills(s for s in loaded).by_name) == [s.name for s in loaded]


@pytest.mark.parametrize(
    ("tools", "text"),
    [
        (
            {1: [open_logistics_ticket], "nope": [open_logistics_ticket]},  # was a raw TypeError sorting 1 and 'nope'
            f"load_skills({str(ROOT)!r}, tools=...): each key is a skill's name, and 1 is an int. Fix: e.g. "
            "tools={'logistics-complaint': [open_logistics_ticket]}",
        ),
        (
            # was: the skill rejected, then "tools given for ['logistics-complaint'], but there is no such skill"
            {"logistics-complaint": [open_logistics_ticket, open_logistics_ticket]},
            "tools['logistics-complaint'], @tool toolkit.skills.course.open_logistics_ticket: it is given twice (a "
            "tool name, here 'open_logistics_ticket', is used once in a call). Fix: give it once (two instances of "
            "one class give the same tools: pass one of them)",
        ),
        (
            {"logistics-complaint": ["open_logistics_ticket"]},
            "tools['logistics-complaint'], tools_from(str object): 'open_logistics_ticket' is a str, not a tool: "
            "tools are given as the functions themselves, not their names. Fix: pass the function: "
            "tools=[open_logistics_ticket], not tools=['open_logistics_ticket']",
        ),
        (
            {"logistics-complaint": open_logistics_ticket},  # was: the skill rejected, then "there is no such skill"
            "tools['logistics-complaint']=toolkit.skills.course.open_logistics_ticket: tools['logistics-complaint']= "
            "takes a list, and got a function. Fix: put it in a list: "
            "tools['logistics-complaint']=[open_logistics_ticket]",
        ),
    ],
)
def test_tools_given_by_skill_are_checked_before_any_folder_is_read(tools, text):
    assert said(lambda: load_skills(ROOT, tools=tools)) == text


def test_an_empty_path_is_refused_not_read_as_the_current_folder():
    """`Path("")` is `.`: load_skills(os.environ.get("SKILLS", "")) read the current folder's skills unsaid."""
    assert said(lambda: load_skills("")) == (
        "load_skills(''): root is the folder of skill folders, and got an empty path. Fix: e.g. load_skills('data/skills')"
    )
    assert said(lambda: load_skill("")) == (
        "load_skill(''): folder is one skill's folder, and got an empty path. Fix: e.g. "
        "load_skill('data/skills/my-skill')"
    )


def test_load_skill_given_its_skill_md_or_no_folder_says_so(tmp_path):
    folder = tmp_path / "pdf"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: pdf\ndescription: d\n---\n")
    assert said(lambda: load_skill(folder / "SKILL.md")) == (  # was: "no SKILL.md. Fix: add one"
        f"skill folder {str(folder / 'SKILL.md')!r}: that is a file, not a folder. Fix: pass the skill's folder, "
        f"load_skill({str(folder)!r})"
    )
    assert said(lambda: load_skill(tmp_path / "nope")) == (  # was: "no SKILL.md. Fix: add one"
        f"skill folder {str(tmp_path / 'nope')!r}: no such folder. Fix: pass the folder that holds the skill's SKILL.md"
    )


def test_a_resource_asked_by_path_object_is_that_resource_and_a_non_text_is_refused():
    from pathlib import Path, PureWindowsPath

    skill = Skills.from_directory(ROOT).get("logistics-complaint")
    text = skill.resource("templates/complaint-reply.md")
    assert skill.resource(Path("templates/complaint-reply.md")) == text  # was a raw AttributeError
    assert skill.resource(PureWindowsPath("templates\\complaint-reply.md")) == text
    assert said(lambda: skill.resource(None)) == (
        "Skill.resource(None): path is a resource's path inside the skill (a str or a Path), and got None. "
        "Fix: e.g. skill.resource('templates/reply.md')"
    )


@pytest.mark.parametrize("name, kind", [(None, "None"), (1, "an int")])
def test_a_skill_asked_by_no_name_is_refused(name, kind):
    assert said(lambda: Skills.from_directory(ROOT).get(name)) == (  # was a raw TypeError from normalize()
        f"Skills.get({name!r}): name is a skill's name (a str), and got {kind}. Fix: e.g. "
        "skills.get('logistics-complaint')"
    )


def test_a_system_prompt_intro_that_is_no_text_is_refused():
    assert said(lambda: Skills.from_directory(ROOT).system_prompt(None)) == (  # was 'None' written in the prompt
        "Skills.system_prompt(None): intro is the text before the list of skills (a str), and got None. "
        "Fix: leave it out for the default, or pass your own text"
    )


def _home_with_skill(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    folder = tmp_path / "skills" / "pdf"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: pdf\ndescription: d\n---\nbody\n")


@pytest.mark.parametrize("root", ["~/skills", "$HOME/skills", "${HOME}/skills"])
def test_a_folder_given_from_the_home_folder_is_read_as_a_shell_reads_it(tmp_path, monkeypatch, root):
    """`~/skills` (and `$HOME/skills`) was read as a folder named '~' in the current one: 'no such folder'."""
    _home_with_skill(tmp_path, monkeypatch)
    assert [s.name for s in load_skills(root)] == ["pdf"]
    assert list(Skills.from_directory(root).by_name) == ["pdf"]
    assert load_skill(root + "/pdf").body == "body"


def test_no_such_folder_says_which_folder_was_read(tmp_path, monkeypatch):
    """A relative path or `~` is read from somewhere the user may not think of (a notebook runs in
    notebooks/): the error names the folder looked for."""
    _home_with_skill(tmp_path, monkeypatch)
    monkeypatch.chdir(tmp_path / "skills")
    assert said(lambda: load_skills("~/nope")) == (
        f"load_skills('~/nope'): no such folder {str(tmp_path / 'nope')!r}. Fix: pass the folder that holds one "
        "sub-folder per skill"
    )
    assert said(lambda: load_skills("data/skills")) == (
        f"load_skills('data/skills'): no such folder {str(tmp_path / 'skills' / 'data' / 'skills')!r}. Fix: pass the "
        "folder that holds one sub-folder per skill"
    )
    assert said(lambda: load_skill("~/nope")) == (
        f"skill folder '~/nope': no such folder {str(tmp_path / 'nope')!r}. Fix: pass the folder that holds the "
        "skill's SKILL.md"
    )
    assert said(lambda: load_skill(tmp_path / "nope")) == (  # given whole: said once
        f"skill folder {str(tmp_path / 'nope')!r}: no such folder. Fix: pass the folder that holds the skill's SKILL.md"
    )


@pytest.mark.parametrize("target", ["loop", "gone"])
def test_a_root_that_is_a_link_to_no_folder_is_told_so_not_no_such_folder(tmp_path, target):
    """A link to itself (a loop) or to a folder since removed is there: 'no such folder' sent the user
    looking for a typo."""
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "gone").symlink_to("removed")
    assert said(lambda: load_skills(tmp_path / target)) == (
        f"load_skills({str(tmp_path / target)!r}): that is a symbolic link to no folder (a loop, or its target is "
        "gone). Fix: pass the folder that holds one sub-folder per skill"
    )


NONE = (
    "no skills, and Skills needs at least one: with none, the model is told it has skills and offered "
    "activate_skill and read_skill_resource, which could only fail"
)


@pytest.mark.parametrize("empty", [[], (), iter([])], ids=["list", "tuple", "iterator"])
def test_no_skills_at_all_is_refused_as_langchain4j_refuses_them(empty):
    """LangChain4j's `Skills(Builder)` (langchain4j-skills `Skills.java`, `ensureNotEmpty(builder.skills,
    "skills")`) refuses an empty collection; `Skills([])` was taken silently, and a system prompt of an empty
    `<available_skills>` told the model to activate skills there were none of."""
    assert said(lambda: Skills(empty)) == f"Skills([]): {NONE}. Fix: {HOW}; with no skills, leave Skills out"


def test_a_folder_holding_no_skill_folder_is_refused_naming_it(tmp_path):
    """`Skills.from_directory(empty folder)` (a typo'd folder that exists, a checkout without its skills) was an
    empty `Skills`; LangChain4j's `FileSystemSkillLoader` gives no skills, which `Skills.from` refuses."""
    (tmp_path / "notes.md").write_text("not a skill folder")
    assert said(lambda: Skills.from_directory(tmp_path)) == (
        f"Skills.from_directory({str(tmp_path)!r}): {NONE}; the folder holds no skill folder (a sub-folder with a "
        "SKILL.md). Fix: pass the folder whose sub-folders each hold a SKILL.md, e.g. "
        "Skills.from_directory('data/skills')"
    )


def test_a_folder_whose_every_skill_was_left_out_says_why_each_was(tmp_path):
    for name, text in (("a", "no front matter"), ("b", "---\nname: b\n---\nbody")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "SKILL.md").write_text(text)
    assert said(lambda: Skills.from_directory(tmp_path)) == (
        f"Skills.from_directory({str(tmp_path)!r}): {NONE}; every skill folder was left out: "
        f"'a': skill folder {str(tmp_path / 'a')!r}: SKILL.md must start with front matter between '---' lines. "
        "Fix: add '---\\nname: …\\ndescription: …\\n---'; "
        f"'b': skill folder {str(tmp_path / 'b')!r}: front matter needs a non-empty 'description'. "
        "Fix: add a line 'description: …' saying what the skill does and when to use it"
    )
