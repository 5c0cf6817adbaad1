"""No path the model can write reads a byte outside a skill's folder.

The reference is the interpreter itself: an audit hook (`sys.addaudithook`) sees every `open`
in the process. Loading may open files inside the skill folders only; serving requests opens
nothing at all. Around the skills sit the bait: a secret beside the skills root, a sibling
folder whose name starts like a skill's (`skill-a-evil`), real symbolic links (a file and a
folder) pointing out of a skill, and another skill's files."""

import json
import os
import sys
from pathlib import Path

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.skills.folders import SKILL_FILE
from toolkit.skills.offer import Skills

SECRET = "TOP-SECRET-7f3a"
_OPENED: list[str] | None = None


def _audit(event, args):
    if _OPENED is not None and event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


class _Recording:
    def __enter__(self):
        global _OPENED
        _OPENED = []
        return _OPENED

    def __exit__(self, *exc):
        global _OPENED
        _OPENED = None


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """root/secret.txt, root/skills/{skill-a, skill-b, skill-a-evil (no SKILL.md)}, links out of skill-a."""
    root = tmp_path_factory.mktemp("world")
    (root / "secret.txt").write_text(SECRET)
    skills = root / "skills"
    for name in ("skill-a", "skill-b"):
        folder = skills / name
        (folder / "notes").mkdir(parents=True)
        (folder / SKILL_FILE).write_text(f"---\nname: {name}\ndescription: Skill {name}.\n---\nBody of {name}.\n")
        (folder / "notes" / "readme.md").write_text(f"readme of {name}")
    (skills / "skill-a" / "deep" / "nested" / "more").mkdir(parents=True)
    (skills / "skill-a" / "deep" / "nested" / "more" / "ok.txt").write_text("deeply nested, legitimately")
    (skills / "skill-a-evil").mkdir()
    (skills / "skill-a-evil" / "secret.txt").write_text(SECRET)
    (skills / "skill-a-evil" / "SKILL.md.bak").write_text(SECRET)
    (skills / "skill-a" / "escape-link").symlink_to(root / "secret.txt")
    (skills / "skill-a" / "dirlink").symlink_to(skills / "skill-a-evil", target_is_directory=True)
    (skills / "skill-a" / "notes" / "up").symlink_to(Path("..") / ".." / ".." / "secret.txt")
    (skills / "skill-b" / "secret.txt").write_text(SECRET)
    with _Recording() as opened:
        loaded = Skills.from_directory(skills)
    activate = loaded.management_tools()[0]
    for name in ("skill-a", "skill-b"):  # resources are served for active skills only
        activate.execute(ToolCall(id="a", name="activate_skill", arguments=json.dumps({"name": name})))
    return root, skills, loaded, opened


def _hostile(root: Path, skills: Path) -> list[str]:
    a = skills / "skill-a"
    return [
        # relative escapes
        "..",
        "../",
        "../secret.txt",
        "../../secret.txt",
        "../../../secret.txt",
        "../" * 20 + "etc/passwd",
        "notes/../../secret.txt",
        "notes/../../../secret.txt",
        "notes/./../../secret.txt",
        "deep/nested/../../../secret.txt",
        "notes/readme.md/../../../secret.txt",
        "./../secret.txt",
        ".../secret.txt",
        "....//secret.txt",
        "..././secret.txt",
        "..;/secret.txt",
        "/..",
        "/../secret.txt",
        # the look-alike sibling and the other skill
        "../skill-a-evil/secret.txt",
        "../skill-a-evil/SKILL.md.bak",
        "../skill-b/secret.txt",
        "../skill-b/SKILL.md",
        "../skill-b/notes/readme.md",
        "skill-a/../skill-a-evil/secret.txt",
        "../skill-a/../skill-a-evil/secret.txt",
        "../skill-a-evil",
        f"{a}-evil/secret.txt",
        # absolute paths, also to files that exist and to the skill's own files
        "/etc/passwd",
        "/etc/shadow",
        "/proc/self/environ",
        "/dev/zero",
        "/dev/urandom",
        str(root / "secret.txt"),
        str(skills / "skill-a-evil" / "secret.txt"),
        str(a / "notes" / "readme.md"),
        str(a / SKILL_FILE),
        "//etc/passwd",
        "file:///etc/passwd",
        f"file://{root}/secret.txt",
        "~/.bashrc",
        "~root/.bashrc",
        "$HOME/.bashrc",
        "${HOME}/.bashrc",
        # Windows: drives, UNC, device names, backslashes, mixed separators
        "C:\\Windows\\win.ini",
        "C:/Windows/win.ini",
        "c:secret.txt",
        "C:..\\secret.txt",
        "\\\\server\\share\\secret.txt",
        "//server/share/secret.txt",
        "\\\\?\\C:\\secret.txt",
        "\\\\.\\pipe\\x",
        "CON",
        "NUL",
        "AUX.txt",
        "..\\secret.txt",
        "..\\..\\secret.txt",
        "notes\\..\\..\\secret.txt",
        "\\etc\\passwd",
        "../notes\\..\\../secret.txt",
        "..\\/secret.txt",
        "notes/..\\..\\secret.txt",
        # encodings
        "%2e%2e%2fsecret.txt",
        "%2e%2e/secret.txt",
        "..%2fsecret.txt",
        "%2E%2E%2F%2E%2E%2Fsecret.txt",
        "%252e%252e%252fsecret.txt",
        "..%5csecret.txt",
        "%c0%ae%c0%ae/secret.txt",
        "..%c0%afsecret.txt",
        "notes%2freadme.md",
        "．．/secret.txt",
        "‥/secret.txt",
        "..／secret.txt",
        "..\u2215secret.txt",
        # NUL bytes and other control characters
        "notes/readme.md\x00.png",
        "../secret.txt\x00",
        "\x00",
        "notes/\x00/../../secret.txt",
        "..\x00/secret.txt",
        "notes/readme.md\n",
        "notes/readme.md ",
        " notes/readme.md",
        # real symbolic links out of the skill
        "escape-link",
        "dirlink",
        "dirlink/secret.txt",
        "dirlink/SKILL.md.bak",
        "notes/up",
        "./escape-link",
        # sizes
        "x" * 10_000,
        "a/" * 2_000,
        "",
    ]


def _call(skills: Skills, arguments: dict) -> object:
    read = skills.management_tools()[1]
    return read.execute(ToolCall(id="c", name="read_skill_resource", arguments=json.dumps(arguments)))


def test_there_are_at_least_sixty_hostile_paths(world):
    root, skills, *_ = world
    assert len(set(_hostile(root, skills))) >= 60


def test_loading_opened_files_inside_the_skill_folders_only(world):
    root, skills, _, opened = world
    assert opened, "the audit hook saw nothing: is it installed?"
    for path in opened:
        real = Path(os.path.realpath(path))
        assert real.is_relative_to(skills / "skill-a") or real.is_relative_to(skills / "skill-b"), path
    assert not any(
        Path(os.path.realpath(p)) in (root / "secret.txt", skills / "skill-a-evil" / "secret.txt") for p in opened
    )


def test_every_hostile_path_is_refused_and_nothing_is_opened(world):
    root, skills, loaded, _ = world
    with _Recording() as opened:
        results = [(path, _call(loaded, {"skill": "skill-a", "path": path})) for path in _hostile(root, skills)]
    assert opened == []  # not a byte read, inside or outside
    for path, result in results:
        assert result.is_error, path
        assert SECRET not in result.content and "readme of" not in result.content, path
        assert result.content.endswith("Available resources: deep/nested/more/ok.txt, notes/readme.md."), path


@pytest.mark.parametrize(
    "skill",
    [
        "../skill-a-evil",
        "skill-a-evil",
        "skill-a/../skill-b",
        "..",
        "/",
        "",
        "skill-a/",
        " skill-a",
        "skill-a\x00",
        "%73kill-a",
    ],
)
def test_hostile_skill_names_are_refused(world, skill):
    _, _, loaded, _ = world
    with _Recording() as opened:
        result = _call(loaded, {"skill": skill, "path": "notes/readme.md"})
    assert opened == [] and result.is_error
    assert result.content.endswith("There is no skill named " + repr(skill) + ". Available skills: skill-a, skill-b.")


def test_a_skill_name_in_capitals_is_that_skill_and_reads_from_memory_only(world):
    """Skill names are lowercase, and the tools' `enum` of them is read case-insensitively as every tool's
    is (SPEC section 4): `SKILL-A` is skill-a, whose own files it reads, from memory."""
    _, _, loaded, _ = world
    with _Recording() as opened:
        result = _call(loaded, {"skill": "SKILL-A", "path": "notes/readme.md"})
    assert opened == [] and (result.is_error, result.content) == (False, "readme of skill-a")


def test_links_are_never_loaded_and_nested_resources_are(world):
    _, _, loaded, _ = world
    assert sorted(loaded.get("skill-a").resources) == ["deep/nested/more/ok.txt", "notes/readme.md"]
    nested = _call(loaded, {"skill": "skill-a", "path": "deep/nested/more/ok.txt"})
    assert nested.content == "deeply nested, legitimately"
    assert _call(loaded, {"skill": "skill-a", "path": "./notes/readme.md"}).content == "readme of skill-a"
    assert _call(loaded, {"skill": "skill-b", "path": "secret.txt"}).content == SECRET  # its own file: fine


def test_a_skill_folder_that_is_a_link_is_not_loaded(tmp_path):
    real = tmp_path / "elsewhere" / "linked"
    real.mkdir(parents=True)
    (real / SKILL_FILE).write_text("---\nname: linked\ndescription: d\n---\nb\n")
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "linked").symlink_to(real, target_is_directory=True)
    (tmp_path / "skills" / "plain").mkdir()  # the others load: a folder of no skill at all is refused whole
    (tmp_path / "skills" / "plain" / SKILL_FILE).write_text("---\nname: plain\ndescription: d\n---\nb\n")
    assert list(Skills.from_directory(tmp_path / "skills").by_name) == ["plain"]


def test_a_hard_link_is_refused_at_load_and_at_read(tmp_path):
    """Hardening issue: a hard link inside a skill folder served a file from outside it."""
    (tmp_path / "secret.txt").write_text(SECRET)
    folder = tmp_path / "skills" / "s"
    folder.mkdir(parents=True)
    (folder / SKILL_FILE).write_text("---\nname: s\ndescription: d\n---\nb\n")
    (folder / "ok.md").write_text("fine")
    os.link(tmp_path / "secret.txt", folder / "notes.md")
    skills = Skills.from_directory(tmp_path / "skills")
    assert sorted(skills.get("s").resources) == ["ok.md"]
    skills.management_tools()[0].execute(ToolCall(id="a", name="activate_skill", arguments='{"name": "s"}'))
    result = _call(skills, {"skill": "s", "path": "notes.md"})
    assert result.is_error and SECRET not in result.content
    assert result.content == (
        "Tool 'read_skill_resource' failed: Skill 's' does not serve 'notes.md': it is a hard link (2 names for "
        "one file; it may live outside the skill). Available resources: ok.md."
    )


def test_a_symlink_swapped_in_while_loading_is_a_clear_error(tmp_path, monkeypatch):
    """Hardening issue: the race between lstat and open used to surface as a raw OSError (ELOOP)."""
    from toolkit.errors import ConfigurationError
    from toolkit.skills import folders

    (tmp_path / "secret.txt").write_text(SECRET)
    folder = tmp_path / "skills" / "s"
    folder.mkdir(parents=True)
    (folder / SKILL_FILE).write_text("---\nname: s\ndescription: d\n---\nb\n")
    target = folder / "notes.md"
    target.write_text("fine")
    real_open = os.open

    def swapping_open(path, flags, *args):
        if Path(path) == target and not target.is_symlink():
            target.unlink()
            target.symlink_to(tmp_path / "secret.txt")  # the attacker wins the race
        return real_open(path, flags, *args)

    monkeypatch.setattr(folders.os, "open", swapping_open)
    with pytest.raises(ConfigurationError) as caught:
        folders.load_skill(folder)
    assert str(caught.value) == (
        "s/notes.md became a symbolic link while the skill was loading; refused (links are never followed). "
        "Fix: make sure nothing changes the skill folder while it loads"
    )
    target.unlink()
    target.write_text("fine again")
    (tmp_path / "skills" / "plain").mkdir()  # the others load: a folder of no skill at all is refused whole
    (tmp_path / "skills" / "plain" / SKILL_FILE).write_text("---\nname: plain\ndescription: d\n---\nb\n")
    skills = Skills.from_directory(tmp_path / "skills")  # the whole root: that skill alone is left out
    assert list(skills.by_name) == ["plain"] and "became a symbolic link" in skills.rejected["s"]


@pytest.mark.parametrize(
    "path", ["notes\\readme.md", "notes//readme.md", "deep/nested/../../notes/readme.md", "NOTES/README.md"]
)
def test_a_path_to_the_skills_own_file_in_another_spelling_reads_it_from_memory(world, path):
    """Windows' separator, a doubled '/', a '..' that stays inside, capitals: the skill's own file, as a disk
    reads the path relative to the skill's folder, still from memory only (were refused as hostile)."""
    _, _, loaded, _ = world
    with _Recording() as opened:
        result = _call(loaded, {"skill": "skill-a", "path": path})
    assert opened == [] and (result.is_error, result.content) == (False, "readme of skill-a")
