"""A skill folder a stranger fills: a folder of data far bigger than a model reads, and file names
that are not UTF-8. What is served stays bounded and writable back by the model; the rest is
refused, each file saying why, in a fixed order."""

import os

import pytest

from toolkit.errors import ConfigurationError, SkillError
from toolkit.skills import folders
from toolkit.skills.folders import MAX_RESOURCE_BYTES, MAX_SKILL_BYTES, SKILL_FILE, load_skill


def _skill(root, name="data"):
    folder = root / name
    folder.mkdir()
    (folder / SKILL_FILE).write_text(f"---\nname: {name}\ndescription: d\n---\nbody\n")
    return folder


def test_a_skill_holds_at_most_max_skill_bytes_the_files_after_are_refused_unread(tmp_path, monkeypatch):
    folder = _skill(tmp_path)
    (folder / "rows").mkdir()
    chunk = "行" * (MAX_RESOURCE_BYTES // 3 - 1)  # 3 bytes each in UTF-8: just under the per-file limit
    count = MAX_SKILL_BYTES // len(chunk.encode()) + 3
    for i in range(count):
        (folder / "rows" / f"{i:04d}.md").write_text(chunk)
    (folder / "readme.md").write_text("read me first")
    read = []
    original = folders._read_regular
    monkeypatch.setattr(folders, "_read_regular", lambda path, shown: read.append(shown) or original(path, shown))
    skill = load_skill(folder)
    served = sum(len(t.encode()) for t in skill.resources.values())
    assert served <= MAX_SKILL_BYTES and "readme.md" in skill.resources  # names sorted, folder by folder
    kept = sorted(p for p in skill.resources if p.startswith("rows/"))
    assert kept == [f"rows/{i:04d}.md" for i in range(len(kept))] and len(kept) == (MAX_SKILL_BYTES - 13) // len(
        chunk.encode()
    )
    why = f"it would take the skill's files over {MAX_SKILL_BYTES} bytes in all"
    assert skill.refused == {f"rows/{i:04d}.md": why for i in range(len(kept), count)}
    assert len(read) == 1 + len(skill.resources) + 1  # SKILL.md, the served, the first over the limit; none after
    with pytest.raises(SkillError) as info:
        skill.resource(f"rows/{count - 1:04d}.md")
    assert str(info.value).startswith(f"Skill 'data' does not serve 'rows/{count - 1:04d}.md': {why}.")


@pytest.mark.skipif(os.name != "posix", reason="bytes file names")
def test_a_file_whose_name_is_not_utf8_is_refused_and_never_listed(tmp_path, caplog):
    folder = _skill(tmp_path)
    (folder / "ok.md").write_text("fine")
    with open(os.path.join(os.fsencode(folder), b"\xff\xfe.md"), "wb") as f:
        f.write(b"text")
    os.mkdir(os.path.join(os.fsencode(folder), b"\xe9t\xe9"))
    with open(os.path.join(os.fsencode(folder), b"\xe9t\xe9", b"notes.md"), "wb") as f:
        f.write(b"text")
    skill = load_skill(folder)
    assert dict(skill.resources) == {"ok.md": "fine"}
    assert sorted(skill.refused.values()) == ["its name is not UTF-8 text"] * 2
    with pytest.raises(SkillError) as info:
        skill.resource("nope.md")
    assert str(info.value) == "Skill 'data' has no resource 'nope.md'. Available resources: ok.md."
    assert "'data': 2 files not loaded (Skill.refused says why): \\udcff\\udcfe.md (its name is not UTF-8 text)" in (
        caplog.text
    )


def test_a_skill_folder_given_as_the_folder_of_skills_is_refused_not_empty(tmp_path):
    from toolkit.errors import ConfigurationError
    from toolkit.skills.offer import Skills

    folder = _skill(tmp_path, "refunds")
    (folder / "templates").mkdir()
    (folder / "templates" / "reply.md").write_text("reply")
    with pytest.raises(ConfigurationError) as info:
        Skills.from_directory(folder)
    assert str(info.value) == (
        f"load_skills({str(folder)!r}): that folder is one skill (it has a SKILL.md), not the folder of skills. "
        f"Fix: pass its parent, load_skills({str(tmp_path)!r}), or load it alone with load_skill(...)"
    )
    assert list(Skills.from_directory(tmp_path).by_name) == ["refunds"]


def _denied(monkeypatch, *denied):
    """os.open raising EACCES for `denied` paths (a file another user made, mode 600), as it does for a non-root user."""
    import errno

    real_open = os.open

    def open_(path, flags, *args):
        if os.fspath(path) in {os.fspath(p) for p in denied}:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(folders.os, "open", open_)


def test_a_resource_that_cannot_be_read_is_refused_alone_not_the_whole_skill(tmp_path, monkeypatch):
    """One file the loading user may not read (a root-owned `__pycache__` file, mode 600) was the whole
    skill rejected; it is that file refused, saying why, and the others served."""
    folder = _skill(tmp_path)
    (folder / "a.md").write_text("A")
    (folder / "b.md").write_text("B")
    _denied(monkeypatch, folder / "a.md")
    skill = folders.scan_skills(tmp_path)[0][0]
    assert (dict(skill.resources), dict(skill.refused)) == (
        {"b.md": "B"},
        {"a.md": "it cannot be read: Permission denied"},
    )
    with pytest.raises(SkillError) as caught:
        skill.resource("a.md")
    assert str(caught.value) == (
        "Skill 'data' does not serve 'a.md': it cannot be read: Permission denied. Available resources: b.md."
    )


def test_a_skill_md_that_cannot_be_read_says_so_and_the_fix(tmp_path, monkeypatch):
    folder = _skill(tmp_path)
    _denied(monkeypatch, folder / SKILL_FILE)
    assert folders.scan_skills(tmp_path) == (
        [],
        {
            "data": f"skill folder {str(folder)!r}: its SKILL.md cannot be read: Permission denied. Fix: let the "
            "user running Python read it"
        },
    )


def test_a_file_gone_while_the_skill_loads_is_refused_not_a_raw_os_error(tmp_path, monkeypatch):
    folder = _skill(tmp_path)
    (folder / "gone.md").write_text("G")
    (folder / "kept.md").write_text("K")
    real_visible = folders._visible

    def visible(root):
        for relative, path in real_visible(root):
            if relative == "gone.md":
                path.unlink()  # removed between the listing and the reading
            yield relative, path

    monkeypatch.setattr(folders, "_visible", visible)
    skill = folders.load_skill(folder)
    assert (dict(skill.resources), dict(skill.refused)) == (
        {"kept.md": "K"},
        {"gone.md": "it cannot be read: No such file or directory"},
    )


def test_a_folder_that_cannot_be_listed_is_refused_saying_so_not_skipped_unsaid(tmp_path, monkeypatch):
    """A sub-folder the loading user may not list (mode 700, another owner) was left out without a word:
    its files were simply missing. It is refused, named, and logged like a file."""
    import errno

    folder = _skill(tmp_path)
    (folder / "locked").mkdir()
    (folder / "locked" / "c.md").write_text("C")
    (folder / "z.md").write_text("Z")
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path) == os.fspath(folder / "locked"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    skill = load_skill(folder)
    assert (dict(skill.resources), dict(skill.refused)) == (
        {"z.md": "Z"},
        {"locked": "it is a folder that cannot be listed: Permission denied"},
    )


def test_a_skill_folder_that_cannot_be_listed_is_a_configuration_error(tmp_path, monkeypatch):
    """Mode 711: its SKILL.md can be read, but none of its files found; said, not a skill of no files."""
    import errno

    folder = _skill(tmp_path)
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path) == os.fspath(folder):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    assert folders.scan_skills(tmp_path) == (
        [],
        {
            "data": f"skill folder {str(folder)!r} cannot be listed: Permission denied. Fix: let the user running "
            "Python list it"
        },
    )


def test_an_error_lists_at_most_forty_resources_by_folder_not_every_one():
    """A skill of 5,000 small files (a folder of data) made every wrong path an error of 95,000 characters
    sent to the model. Over 40 it lists the folder the path asked for (or the skill's own), a sub-folder
    as one entry with its count."""
    from toolkit.skills.folders import Skill

    rows = {f"data/row-{i:03d}.md": "x" for i in range(100)}
    skill = Skill("big", "d", "b", {"README.md": "r", "data/2025/a.md": "a", **rows})
    with pytest.raises(SkillError) as caught:
        skill.resource("nope.md")
    assert str(caught.value) == (
        "Skill 'big' has no resource 'nope.md'. Available resources: 102 in all; by folder: README.md, "
        "data/ (101 files)."
    )
    with pytest.raises(SkillError) as caught:
        skill.resource("data/2025/b/nope.md")
    assert (
        str(caught.value)
        == "Skill 'big' has no resource 'data/2025/b/nope.md'. Available resources: 102 in all; in data/2025/: data/2025/a.md."
    )
    with pytest.raises(SkillError) as caught:
        skill.resource("data/nope.md")
    listed = ", ".join(f"data/row-{i:03d}.md" for i in range(39))
    assert str(caught.value) == (
        f"Skill 'big' has no resource 'data/nope.md'. Available resources: 102 in all; in data/: data/2025/ (1 file), "
        f"{listed} and 61 more."
    )


def test_a_file_holding_nul_bytes_is_refused_as_binary_though_it_decodes(tmp_path):
    """A binary file can be valid UTF-8 (a NUL-padded blob, a tar header): it was served, NULs and all,
    to the model. A NUL byte marks a binary file (as git and grep read it); it is refused, saying so."""
    folder = _skill(tmp_path)
    (folder / "blank.img").write_bytes(b"\x00" * 64)
    (folder / "notes.md").write_text("fine")
    skill = load_skill(folder)
    assert (dict(skill.resources), dict(skill.refused)) == (
        {"notes.md": "fine"},
        {"blank.img": "it is binary (it holds a NUL byte), not text"},
    )


def test_folders_nested_deeper_than_python_recurses_load(tmp_path):
    """Python 3.11's `os.walk` recurses once per folder level: a skill 1,500 folders deep was a raw
    `RecursionError` out of `Skills.from_directory`, every other skill lost with it."""
    folder = _skill(tmp_path)
    levels = [folder]
    for _ in range(1500):  # one at a time: pathlib's mkdir(parents=True) recurses too
        levels.append(levels[-1] / "a")
        levels[-1].mkdir()
    try:
        (levels[-1] / "x.md").write_text("deep")
        (folder / "b.md").write_text("B")
        skill = folders.scan_skills(tmp_path)[0][0]
        assert dict(skill.resources) == {"a/" * 1500 + "x.md": "deep", "b.md": "B"}
    finally:  # removed here, bottom up: pytest's clean-up (shutil.rmtree) recurses, and would fail a later run
        (levels[-1] / "x.md").unlink(missing_ok=True)
        for level in reversed(levels[1:]):
            level.rmdir()


@pytest.mark.parametrize("given, parent", [(".", ".."), ("./", ".."), ("refunds", ".")])
def test_a_skill_folder_given_relatively_as_the_root_names_its_real_parent(tmp_path, monkeypatch, given, parent):
    """`load_skills('.')` run inside a skill's folder: the fix named load_skills('.') again (the parent of
    '.' is '.' to pathlib)."""
    folder = _skill(tmp_path, "refunds")
    monkeypatch.chdir(folder if given.startswith(".") else tmp_path)
    with pytest.raises(folders.ConfigurationError) as info:
        folders.load_skills(given)
    assert str(info.value) == (
        f"load_skills({str(folders.Path(given))!r}): that folder is one skill (it has a SKILL.md), not the folder "
        f"of skills. Fix: pass its parent, load_skills({parent!r}), or load it alone with load_skill(...)"
    )


def test_a_root_that_cannot_be_listed_is_a_configuration_error(tmp_path, monkeypatch):
    """Mode 711 on the folder of skills: was a raw PermissionError out of load_skills."""
    import errno

    _skill(tmp_path)
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path) == os.fspath(tmp_path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(ConfigurationError) as caught:
        folders.load_skills(tmp_path)
    assert str(caught.value) == (
        f"load_skills({str(tmp_path)!r}): the folder cannot be listed: Permission denied. Fix: let the user "
        "running Python list it"
    )


def test_a_root_that_is_a_file_says_so(tmp_path):
    (tmp_path / "SKILL.md").write_text("---\nname: x\ndescription: d\n---\n")
    with pytest.raises(ConfigurationError) as caught:
        folders.load_skills(tmp_path / "SKILL.md")
    assert str(caught.value) == (  # was: "no such folder", of a file that is there
        f"load_skills({str(tmp_path / 'SKILL.md')!r}): that is a file, not a folder. Fix: pass the folder that "
        "holds one sub-folder per skill"
    )


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_resource_saved_as_utf16_is_refused_saying_so_not_called_binary(tmp_path, encoding):
    """Notepad's "Unicode" and PowerShell 5 write UTF-16: without a byte-order mark ASCII text holds a NUL
    before or after every letter, and was refused as 'binary'; with one, as 'not UTF-8 text', no fix."""
    folder = _skill(tmp_path)
    (folder / "notes.md").write_bytes("Dear customer,\n".encode(encoding))
    (folder / "empty.md").write_bytes(b"")
    skill = load_skill(folder)
    assert dict(skill.refused) == {  # an empty file is no UTF-16 (nor binary): it is empty, and not served
        "empty.md": "it is empty",
        "notes.md": "it is UTF-16 text, not UTF-8 (save it as UTF-8)",
    }
    assert dict(skill.resources) == {}


_PROSE = "Dear customer,\n退款 is on its way.\n"


@pytest.mark.parametrize(
    "data, problem",
    [
        (_PROSE.encode("utf-16"), "is UTF-16 text, not UTF-8"),
        (_PROSE.encode("utf-16-le"), "is UTF-16 text, not UTF-8"),  # Chinese too: was 'binary' as a resource
        (_PROSE.encode("utf-16-be"), "is UTF-16 text, not UTF-8"),
        ("退款 policy: 30 天内全额退款，运费由商家承担。\n".encode("utf-16-le"), "is UTF-16 text, not UTF-8"),
        (_PROSE.encode("utf-32"), "is UTF-32 text, not UTF-8"),  # was 'UTF-16' (its mark starts as UTF-16's)
        (b"Dear customer,\nbody\x00more\n", "is binary (it holds a NUL byte), not text"),
        (b"\x00" * 64, "is binary (it holds a NUL byte), not text"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10", "is binary (it holds a NUL byte), not text"),
        (_PROSE.encode("gbk"), "is not UTF-8 text"),
    ],
    ids=["utf-16", "utf-16-le", "utf-16-be", "utf-16-le-chinese", "utf-32", "a-nul", "nuls", "png", "gbk"],
)
def test_skill_md_and_resources_are_told_one_rule_for_text_that_is_not_utf8(tmp_path, data, problem):
    """SKILL.md and a resource were judged by two rules: UTF-16 of Chinese without a byte-order mark was
    'UTF-16' as SKILL.md (a NUL in its first two bytes) and 'binary' as a resource (a NUL not at every
    other place), UTF-32 was 'UTF-16', and the words differed. One rule, one problem text for both."""
    folder = _skill(tmp_path)
    (folder / "notes.md").write_bytes(data)
    fix = "" if "binary" in problem else " (save it as UTF-8)"
    assert dict(load_skill(folder).refused) == {"notes.md": f"it {problem}{fix}"}
    (folder / SKILL_FILE).write_bytes(data)
    with pytest.raises(ConfigurationError) as caught:
        load_skill(folder)
    assert str(caught.value) == (
        f"skill folder {str(folder)!r}: its SKILL.md {problem}. Fix: open it in the editor that saved it and save "
        "it as UTF-8"
    )


def test_the_files_a_skill_does_not_serve_are_one_warning_not_one_each(tmp_path, caplog):
    """A skill's assets/ of images (Agent Skills' own layout) logged a warning per file: 100 lines on
    stderr of a notebook that loads it. One warning per skill names the first few; `Skill.refused` has all."""
    folder = _skill(tmp_path)
    (folder / "assets").mkdir()
    for i in range(100):
        (folder / "assets" / f"{i:03d}.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (folder / "notes.md").write_text("fine")
    with caplog.at_level("WARNING", "toolkit.skills.folders"):
        skill = load_skill(folder)
    assert len(skill.refused) == 100 and list(skill.resources) == ["notes.md"]
    binary = "(it is binary (it holds a NUL byte), not text)"
    assert [r.getMessage() for r in caplog.records] == [
        "skill folder 'data': 100 files not loaded (Skill.refused says why): "
        + ", ".join(f"assets/{i:03d}.png {binary}" for i in range(5))
        + " and 95 more"
    ]
