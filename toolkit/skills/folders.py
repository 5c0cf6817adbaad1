"""Agent Skills as folders, read once into memory: the model can never reach the file system.

A skill is a folder whose `SKILL.md` starts with YAML front matter (`name`, `description`);
its body is the instructions, and every other file in the folder is a resource:

    data/skills/logistics-complaint/
        SKILL.md                       ---\\nname: logistics-complaint\\ndescription: …\\n---\\n…
        playbook/stuck-parcel.md       resources, nested folders welcome
        references/carriers/sf-express.md

The front matter is YAML read safely (no tags that build objects); a key given twice is refused,
not the last one kept, and a value YAML reads as no text (`description: yes` is a bool) is refused
with the value quoted as it is written; so is one YAML cannot build at all (`2026-02-30` read as a date, a
5,000-digit number), where PyYAML raises no YAMLError but a ValueError. An alias bomb costs nothing: the error never writes it out;
'<<' merges of merges (each copying the last) are counted before YAML copies them (`MAX_MERGED`);
nesting 100,000 deep is a `ConfigurationError` too, not a `RecursionError` that stops every skill;
front matter past `MAX_FRONT_MATTER` characters is refused before PyYAML (pure Python) reads it.
The rules are the Agent Skills specification's (agentskills.io/specification): a name is 1-64
Unicode lowercase letters, digits and hyphens (`pdf-processing`, `café`, `技能`), no hyphen at
either end nor two in a row, equal to the folder's name in NFKC form (a Mac writes `é` decomposed);
a description is at most 1024 characters as written, and an optional `compatibility` 1 to 500.
The other optional keys (`license`, `metadata`, `allowed-tools`) are read past, not checked.

`load_skills(root)` loads every sub-folder of `root` that has a `SKILL.md` (a `root` that has
one itself is a skill's folder, not the folder of skills: a `ConfigurationError`, not no skills). Everything is read
*here*, at construction, into an allow-list: `Skill.resources` maps each relative POSIX path to
its text. A request for a resource is a lookup among those names — no path joining, no resolving
against the disk, no `open()`. The rule is Agent Skills': a path is relative to the skill's folder,
read as a disk reads it (`\\` a separator, `./` and `//` skipped, a `..` that stays inside, capitals
as a case-insensitive disk reads them, `é` decomposed as a Mac writes it; `Skill.resource`); an absolute
path or a `..` leading out is refused, naming the path meant when one names a file. Percent-encoding, NUL
bytes and look-alike sibling folders (`skill-a-evil` beside `skill-a`) simply are no names. `SKILL.md` asked for
as a resource is the body. Text reads as Python's text mode reads it: every line ending `\\n`
(a Windows checkout gives the model the same text as a Linux one), and a leading byte-order mark
(Notepad's "UTF-8 with BOM") left out, as the `utf-8-sig` codec leaves it.

What is served: only regular files with a single link, opened with `O_NOFOLLOW` and checked
again on the opened descriptor (`fstat`: still a regular file, still one link, the same file
`lstat` saw). Everything else is refused, kept in `Skill.refused` with its reason (one warning per skill), and a
request for it names that reason: symbolic links (files and folders), hard links (a second
name for a file that may live outside the folder), devices and pipes, files over 256 KiB,
binary files and text not in UTF-8 (one rule for SKILL.md too, `not_utf8`), files the user running Python may not read, files whose name is not UTF-8, the files past `MAX_SKILL_BYTES` of one skill in
all. Dotfiles and dot-folders are skipped silently (`.git`, editor files), and so are blank files
(LangChain4j's `FileSystemSkillLoader` skips them too): read, one would be an empty tool result, which
some gateways refuse and a model reads as a failure; asked for, it is said to be empty. A file
swapped for a link *while* loading is a `ConfigurationError` for that skill, never a raw
`OSError`. A `SKILL.md` that is a link is refused the same way, and said so.

One broken skill folder does not stop the others: `load_skills` logs it, leaves that skill
out and lists it in `rejected` when asked (`scan_skills`). A skill folder that is itself a
symbolic link is left out with a warning; so is a folder that is no skill but holds skill folders
(`document-skills/pdf`: only the root's own sub-folders are read), with the call that loads them.

Which tools a skill owns is decided in code (`load_skills(root, tools={"name": [...]})`):
a folder holds text, never code that would run. Offering skills to the model is
`toolkit.skills.offer`.

Leaves out: running scripts from a skill, reloading a changed folder (load again). Unlike LangChain4j's
`FileSystemSkillLoader`, which keeps files under `scripts/` out of the resources (a tool of its own runs
them), a script here is a resource like any file: the model may read it, nothing runs it.
"""

from __future__ import annotations

import codecs
import datetime as dt
import errno
import json
import logging
import os
import re
import reprlib
import stat
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

import yaml

from toolkit.errors import ConfigurationError, SkillError, ToolDefinitionError, a_kind_of, a_or_an
from toolkit.loop.sources import check_collection
from toolkit.tools.execute import Tool, tools_from
from toolkit.unicode import cut, is_utf8

log: logging.Logger = logging.getLogger("toolkit.skills.folders")

SKILL_FILE = "SKILL.md"
MAX_RESOURCE_BYTES = 256 * 1024
"""Bigger files are not loaded (a skill's resources are read by a model, not streamed)."""
MAX_SKILL_BYTES = 8 * 1024 * 1024
"""All of one skill's resources together: a folder of data (a dataset, `node_modules`) is not
read whole into memory; the files past this are refused, each saying so."""
MAX_LOGGED = 5
"""The warning for a skill's files not served names at most this many (`Skill.refused` holds them all)."""
MAX_LISTED = 40
"""An error naming a skill's resources lists at most this many (by folder past it)."""
MAX_MERGED = 10_000
"""The keys front matter's '<<' merges may copy in all (a merge of merges copies them again)."""
MAX_NAME = 64
"""Agent Skills' limit on a name, in characters."""
MAX_DESCRIPTION = 1024
"""Agent Skills' limit on a description, in characters (it is in the system prompt of every request)."""
MAX_COMPATIBILITY = 500
"""Agent Skills' limit on the optional `compatibility` (what the skill needs to run), in characters."""
MAX_FRONT_MATTER = 16 * 1024
"""The longest front matter read, in characters: PyYAML reads in pure Python (some 10 ms a kilobyte on a slow
machine), and name, description and a few short fields take far less."""
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(?:(.*?)\r?\n)?---[ \t]*(?:\r?\n|\Z)(.*)\Z", re.S)
"""Front matter between two '---' lines (empty too: then it lacks a name), and the body after it."""


@dataclass(frozen=True)
class Skill:
    """One skill, fully in memory."""

    name: str
    """What the model activates it by; equals the folder name (NFKC: the same text in any Unicode form)."""
    description: str
    """When to use it: the only part the model sees before activation (level 0)."""
    body: str
    """SKILL.md without its front matter: the instructions activation returns (level 1)."""
    resources: Mapping[str, str] = field(default_factory=dict)
    """Relative POSIX path → text, for every loaded file but SKILL.md (level 2)."""
    tools: tuple[Tool, ...] = ()
    """Tools that join the call only once the skill is active."""
    refused: Mapping[str, str] = field(default_factory=dict)
    """Relative POSIX path → why that file is not served (a link, a hard link, too big ...)."""
    _names: _Names = field(init=False, repr=False, compare=False)
    _refused_names: _Names = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_names", _Names(self.resources))
        object.__setattr__(self, "_refused_names", _Names(self.refused))

    def resource(self, path: str) -> str:
        """A resource's text; an unknown path raises `SkillError` saying why, listing the known ones.

        The rule (Agent Skills': paths relative to the skill's folder) as a disk reads a path: `/` or `\\`
        between parts, `.` and empty parts skipped, `..` a step back that stays inside the folder, capitals
        as a case-insensitive disk (a Mac's, Windows') reads them when one file matches, and a name in
        another Unicode form (`é` as one character or as `e` and an accent: a Mac writes names decomposed,
        a model composed) naming that file. An absolute path, a `..` leading out, or one starting with
        the skill's own name is refused, naming the relative path meant when one names a file. It is all
        text matched against the names loaded: nothing is opened. `SKILL.md` itself (a resource may say
        "see SKILL.md") is the body, as activation gives it; a `Path` names the file it names
        (`PureWindowsPath('templates\\reply.md')` too)."""
        asked = _posix(path)
        key, problem = _relative(asked)
        found = self._text(asked)
        if found is None and not problem:
            found = self._text(key)
        if found is not None:
            return found
        known = available_resources(self.resources, key)
        refused = None if problem else self._refused_names.find(key)
        if refused is not None:
            raise SkillError(
                f"Skill {self.name!r} does not serve {shown(asked)}: {self.refused[refused]}. "
                f"Available resources: {known}."
            )
        several = [] if problem else self._names.matching(key)
        if len(several) > 1:
            listed = ", ".join(map(repr, several[:-1])) + f" and {several[-1]!r}"
            raise SkillError(
                f"Skill {self.name!r} has no resource {shown(asked)}: it differs only in capitals or Unicode form "
                f"from {cut(listed, 200, '...')}; write one exactly. Available resources: {known}."
            )
        meant = self._meant(asked)
        why = problem or ("paths are relative to the skill's folder" if meant else "")
        reason = f": {why}." + (f" Did you mean {shown(meant)}?" if meant else "") if why else "."
        raise SkillError(f"Skill {self.name!r} has no resource {shown(asked)}{reason} Available resources: {known}.")

    def _text(self, key: str) -> str | None:
        """The text `key` names under the rule's names (Unicode form, capitals), SKILL.md's body too; else None."""
        found = self._names.find(key)
        if found is not None:
            return self.resources[found]
        return self.body if key.casefold() == SKILL_FILE.casefold() else None

    def _meant(self, asked: str) -> str | None:
        """The relative path an absolute path, one leading out, or one starting with the skill's name most
        likely means (what follows the last part that is the skill's name, or the leading '/', drive and
        '..' parts), when it names a file; else None."""
        parts = [p for p in re.split(r"[/\\]", asked) if p not in ("", ".")]
        named = [i for i, p in enumerate(parts) if unicodedata.normalize("NFKC", p).casefold() == self.name]
        if named and named[-1] < len(parts) - 1:
            parts = parts[named[-1] + 1 :]
        else:
            parts = parts[1:] if parts and _DRIVE.fullmatch(parts[0]) else parts
            while parts and parts[0] == "..":
                parts = parts[1:]
        key, problem = _relative("/".join(parts))
        if problem or not key or self._text(key) is None:
            return None
        found = self._names.find(key)
        return found if found is not None else SKILL_FILE


_DRIVE = re.compile(r"[A-Za-z]:")
"""A Windows drive (`C:`), which starts an absolute path as '/' does."""


def _relative(path: str) -> tuple[str, str]:
    """(the resource's name `path` gives under the rule, "") or ("", why the rule refuses it): an absolute path
    (a leading '/' or '\\', a drive) or a '..' stepping out of the skill's folder."""
    if path[:1] in ("/", "\\") or _DRIVE.match(path):
        return "", "paths are relative to the skill's folder, with no leading '/' or drive"
    parts: list[str] = []
    for part in re.split(r"[/\\]", path):
        if part == "..":
            if not parts:
                return "", "paths are relative to the skill's folder, and '..' leads out of it"
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts), ""


def _posix(path: object) -> str:
    """A resource's path as text: a `Path` as its POSIX form; anything else but a str a `ConfigurationError`."""
    if isinstance(path, PurePath):
        return path.as_posix()
    if isinstance(path, str):
        return path
    raise ConfigurationError(
        f"Skill.resource({path!r:.40}): path is a resource's path inside the skill (a str or a Path), and got "
        f"{a_kind_of(path)}. Fix: e.g. skill.resource('templates/reply.md')"
    )


def available_resources(names: Iterable[str], asked: str = "") -> str:
    """The resources an error lists: all of them, or over `MAX_LISTED` those in the folder `asked` is in
    (the deepest that holds any; else the skill's own), a sub-folder as one entry with its count. A skill
    of thousands of files does not send them all to the model with every wrong path."""
    listed = sorted(names)
    if len(listed) <= MAX_LISTED:
        return ", ".join(listed) or "(none)"
    parts = asked.split("/")[:-1]
    folders = ("/".join(parts[:i]) + "/" for i in range(len(parts), 0, -1))
    folder = next((f for f in folders if any(n.startswith(f) for n in listed)), "")
    entries: dict[str, int] = {}
    for name in listed:
        if name.startswith(folder):
            head, slash, _ = name[len(folder) :].partition("/")
            entries[folder + head + slash] = entries.get(folder + head + slash, 0) + 1
    shown = [f"{e} ({n} file{'' if n == 1 else 's'})" if e.endswith("/") else e for e, n in entries.items()]
    more = f" and {len(shown) - MAX_LISTED} more" if len(shown) > MAX_LISTED else ""
    return f"{len(listed)} in all; {f'in {folder}' if folder else 'by folder'}: {', '.join(shown[:MAX_LISTED])}{more}"


class _Names:
    """A skill's file names found by the rule's spellings: the name itself, the same text in another Unicode
    form, or (as a case-insensitive disk reads it) in other capitals. Indexed once, so a wrong path costs
    a lookup, not a pass over a skill's thousands of names."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = set(names)
        self.composed: dict[str, list[str]] = {}
        self.folded: dict[str, list[str]] = {}
        for name in sorted(self.names):
            self.composed.setdefault(_composed(name), []).append(name)
            self.folded.setdefault(_folded(name), []).append(name)

    def find(self, key: str) -> str | None:
        """`key` if it is a name, else the one name that is the same text in another Unicode form, else the
        one that differs in capitals only; None when none or several."""
        found = self.matching(key)
        return found[0] if len(found) == 1 else None

    def matching(self, key: str) -> list[str]:
        """`[key]` if it is a name, else the names that are the same text in another Unicode form, else those
        that differ in capitals only (sorted; several on a case-sensitive disk: `Notes.md`, `notes.md`)."""
        if key in self.names:
            return [key]
        return self.composed.get(_composed(key)) or self.folded.get(_folded(key)) or []


def _composed(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def load_skills(root: Path | str, tools: Mapping[str, Sequence[Any]] | None = None) -> list[Skill]:
    """Every skill under `root`, sorted by name; `tools` gives skills their own tools.

    A broken skill folder is logged and left out; the others load (see `scan_skills`).
    """
    return scan_skills(root, tools)[0]


def scan_skills(
    root: Path | str, tools: Mapping[str, Sequence[Any]] | None = None
) -> tuple[list[Skill], dict[str, str]]:
    """(the skills under `root`, {folder name: why it was rejected}) — one bad folder rejects itself only."""
    as_given = root
    root = folder_path(root, "load_skills", "root is the folder of skill folders", "load_skills('data/skills')")
    if tools is not None and not isinstance(tools, Mapping):
        raise ConfigurationError(
            f"load_skills({str(root)!r}, tools={type(tools).__name__}): tools maps each skill's name to a list of "
            f"its own tools, and got {a_or_an(type(tools).__name__)}. Fix: e.g. "
            "tools={'logistics-complaint': [open_logistics_ticket]}"
        )
    _check_tools_given(root, tools or {})
    if not root.is_dir():
        if root.exists():
            what = f"load_skills({str(root)!r}): that is a file, not a folder"
        elif os.path.lexists(root):
            what = f"load_skills({str(root)!r}): that is a symbolic link to no folder (a loop, or its target is gone)"
        else:
            what = f"load_skills({os.fspath(as_given)!r}): no such folder{_looked_in(as_given, root)}"
        raise ConfigurationError(f"{what}. Fix: pass the folder that holds one sub-folder per skill")
    if os.path.lexists(root / SKILL_FILE):  # a skill's own folder: its sub-folders are no skills, none would load
        raise ConfigurationError(
            f"load_skills({str(root)!r}): that folder is one skill (it has a {SKILL_FILE}), not the folder of "
            f"skills. Fix: pass its parent, load_skills({os.path.normpath(root / os.pardir)!r}), or load it alone "
            "with load_skill(...)"
        )
    skills: list[Skill] = []
    rejected: dict[str, str] = {}
    # Each name `tools` gives, in NFKC form: the same text in any Unicode form (a Mac writes `café`
    # decomposed, a notebook composed); a name given twice so keeps its first tools.
    asked = tools or {}
    named = {k: unicodedata.normalize("NFKC", k) for k in asked if isinstance(k, str)}
    given: dict[str, Sequence[Any]] = {}
    for key, name in named.items():
        given.setdefault(name, asked[key])
    loaded: dict[str, str] = {}  # skill name → the folder it was loaded from
    for folder in _sub_folders(root):
        has_skill_md = os.path.lexists(folder / SKILL_FILE) or _misnamed_skill_md(folder)  # via a link too
        if folder.name.startswith("."):
            continue  # hidden
        try:
            if not has_skill_md:
                _no_group_of_skills(folder)
                continue  # not a skill (a plain file, a folder of notes)
            skill = _load_listed(folder, given, loaded)
        except ConfigurationError as exc:
            rejected[folder.name] = str(exc)
            log.warning("skill left out: %s", exc)
            continue
        skills.append(skill)
        loaded[skill.name] = folder.name
    names = {s.name for s in skills}
    unknown = {k for k in asked if named.get(k) not in names}
    if unknown:
        why = "".join(f"; {name!r} was rejected: {rejected[name]}" for name in sorted(unknown) if name in rejected)
        raise ConfigurationError(
            f"load_skills({str(root)!r}): tools given for {sorted(unknown)}, "
            f"but there is no such skill (found: {[s.name for s in skills]}){why}"
        )
    return skills, rejected


def _sub_folders(root: Path) -> list[Path]:
    """What `root` holds, sorted; a root that cannot be listed is a `ConfigurationError`, not a raw `OSError`."""
    try:
        with os.scandir(root) as listing:
            return sorted(root / entry.name for entry in listing)
    except OSError as error:
        raise ConfigurationError(
            f"load_skills({str(root)!r}): the folder cannot be listed: {error.strerror or error}. "
            "Fix: let the user running Python list it"
        ) from None


def _check_tools_given(root: Path, tools: Mapping[Any, Any]) -> None:
    """`tools`' keys are skill names and its values lists of tools, checked before any folder is read: a wrong one
    is the caller's mistake, not a skill to reject (nor a raw `TypeError` sorting names of two types)."""
    for key, value in tools.items():
        if not isinstance(key, str):
            raise ConfigurationError(
                f"load_skills({str(root)!r}, tools=...): each key is a skill's name, and {key!r:.40} is "
                f"{a_kind_of(key)}. Fix: e.g. tools={{'logistics-complaint': [open_logistics_ticket]}}"
            )
        check_collection(f"tools[{key!r}]", value)
        try:  # a tool given twice, a name for a function: the caller's mistake, not a skill to reject
            tools_from(*value)
        except ToolDefinitionError as exc:
            raise ToolDefinitionError(f"tools[{key!r}], {exc.where}", exc.problem, exc.fix) from None


def _no_group_of_skills(folder: Path) -> None:
    """A `ConfigurationError` when `folder`, no skill itself, holds skill folders (`document-skills/pdf`):
    they would not load, and nothing would say why."""
    try:
        inside = sorted(folder.iterdir()) if folder.is_dir() and not folder.is_symlink() else []
    except OSError:
        inside = []
    names = [p.name for p in inside if not p.name.startswith(".") and os.path.lexists(p / SKILL_FILE)]
    if names:
        listed = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        raise ConfigurationError(
            f"folder {str(folder)!r} is no skill (it has no {SKILL_FILE}) but holds skill folders: {listed}; only "
            f"the folders right under the root are read. Fix: move them up into the root, or load them with "
            f"load_skills({str(folder)!r})"
        )


def _load_listed(folder: Path, given: Mapping[str, Sequence[Any]], loaded: Mapping[str, str]) -> Skill:
    """One skill folder `scan_skills` found, with its tools; a `ConfigurationError` when it is a link, or
    its name is one a folder before it has in another Unicode form (`café` composed and decomposed)."""
    if folder.is_symlink():
        raise ConfigurationError(f"skill folder {str(folder)!r} is a symbolic link; links are never followed")
    skill = load_skill(folder, given.get(unicodedata.normalize("NFKC", folder.name), ()))
    if skill.name in loaded:
        raise ConfigurationError(
            f"skill folder {str(folder)!r}: its skill name {skill.name!r} is taken by the skill folder "
            f"{loaded[skill.name]!r} (one name written in two Unicode forms). Fix: keep one of the two folders"
        )
    return skill


def load_skill(folder: Path | str, tools: Sequence[Any] = ()) -> Skill:
    """One skill folder: SKILL.md checked, every other readable text file loaded."""
    check_collection("tools", tools)  # a set's order changes from process to process; a generator is read once
    given = folder
    folder = folder_path(folder, "load_skill", "folder is one skill's folder", "load_skill('data/skills/my-skill')")
    where = f"skill folder {str(folder)!r}"
    named = Path(os.path.abspath(folder)).name  # '.' (run inside it) is a folder with a name, not ''
    skill_file = folder / SKILL_FILE
    if not folder.is_dir():
        if not os.path.lexists(folder):
            raise ConfigurationError(
                f"skill folder {os.fspath(given)!r}: no such folder{_looked_in(given, folder)}. "
                "Fix: pass the folder that holds the skill's SKILL.md"
            )
        raise ConfigurationError(f"{where}: {_no_folder(folder)}")
    if not os.path.lexists(skill_file):
        other = _misnamed_skill_md(folder)
        if other is not None:
            raise ConfigurationError(
                f"{where}: no {SKILL_FILE} (it has {other!r}; the file's name is {SKILL_FILE}, in capitals). "
                f"Fix: rename {other!r} to {SKILL_FILE}"
            )
        raise ConfigurationError(f"{where}: no {SKILL_FILE}. Fix: add one with front matter 'name' and 'description'")
    try:
        data = _read_regular(skill_file, f"{named}/{SKILL_FILE}")
    except _Refused as exc:
        raise ConfigurationError(f"{where}: its {SKILL_FILE} {exc}. Fix: {exc.fix}") from None
    problem = not_utf8(data)
    if problem is not None:
        raise ConfigurationError(
            f"{where}: its {SKILL_FILE} {problem}. Fix: open it in the editor that saved it and save it as UTF-8"
        )
    text = data.decode("utf-8")
    meta, body = parse_skill_md(text, where)
    if meta["name"] != unicodedata.normalize("NFKC", named):  # a Mac writes a folder's name decomposed
        fix = (  # the folder's own name may be no skill name ("My Skill"): then the folder is what to rename
            f"name it {named!r}"
            if name_problem(unicodedata.normalize("NFKC", named)) is None
            else f"rename the folder to {meta['name']!r} (a skill name is lowercase letters, digits and hyphens)"
        )
        raise ConfigurationError(
            f"{where}: its SKILL.md is named {meta['name']!r}; the name must equal the folder name. Fix: {fix}"
        )
    resources: dict[str, str] = {}
    refused: dict[str, str] = {}
    for relative, text_or_reason, ok in _resources(folder, named):
        (resources if ok else refused)[relative] = text_or_reason
    _log_refused(named, refused)
    return Skill(
        meta["name"], meta["description"], body, resources, tuple(tools_from(*tools)) if tools else (), refused
    )


def _looked_in(given: Path | str, folder: Path) -> str:
    """' /the/folder/read' when `given` (checked by `folder_path`) names it otherwise (relative, `~`, `$HOME`):
    which folder was looked for; "" when `given` already says it."""
    read = os.path.abspath(folder)
    return "" if read == os.fspath(given) else f" {read!r}"


def _no_folder(folder: Path) -> str:
    """What is wrong with a `load_skill` path that exists and is no folder, and the fix."""
    what = "that is a file, not a folder" if folder.is_file() else "that is no folder (a link to none, a device)"
    if folder.name.lower() == SKILL_FILE.lower():
        return f"{what}. Fix: pass the skill's folder, load_skill({str(folder.parent)!r})"
    return f"{what}. Fix: pass the skill's folder, the one that holds its SKILL.md"


def _misnamed_skill_md(folder: Path) -> str | None:
    """The name of `folder`'s `skill.md` written in other capitals (`Skill.md`), if it has one and is a
    folder: on a case-sensitive file system it is no `SKILL.md`, and the skill would not load unsaid."""
    try:
        names = os.listdir(folder) if folder.is_dir() else []
    except OSError:
        return None
    return next((n for n in sorted(names) if n.lower() == SKILL_FILE.lower() and n != SKILL_FILE), None)


def folder_path(value: object, where: str, what: str, example: str) -> Path:
    """`value` as a `Path`, if it is a str or a path, read as a shell reads it (`~/skills` and `$HOME/skills` in
    the home folder, not a folder named '~' or '$HOME' here); anything else a `ConfigurationError` naming `where`,
    not pathlib's raw `TypeError` ("expected str, bytes or os.PathLike object, not NoneType")."""
    if isinstance(value, (str, os.PathLike)) and not isinstance(os.fspath(value), bytes):
        if os.fspath(value) == "":  # Path("") is ".": the current folder, read unsaid
            raise ConfigurationError(f"{where}({value!r:.40}): {what}, and got an empty path. Fix: e.g. {example}")
        return Path(os.path.expanduser(os.path.expandvars(os.fspath(value))))  # as a shell reads it
    kind = a_kind_of(value)
    if isinstance(value, bytes):
        fix = f"decode it: {where}({value!r:.40}.decode())"
    elif isinstance(value, (list, tuple)) and where == "load_skill":
        fix = "load one folder at a time, or the folder that holds them all with load_skills(root)"
    else:
        fix = f"e.g. {example}"
    raise ConfigurationError(f"{where}({value!r:.40}): {what} (a str or a Path), and got {kind}. Fix: {fix}")


MOST_NESTED = 100
"""How many mappings and sequences deep front matter may nest: a bound of its own, not the interpreter's recursion
limit (which Hypothesis or torch may have raised), so one SKILL.md is read or refused alike in every process."""


class _TooDeep(Exception):
    """Front matter nesting past `MOST_NESTED`."""


def _check_nesting(front: str) -> None:
    """`_TooDeep` when the front matter's mappings and sequences nest past `MOST_NESTED`: read from PyYAML's events,
    which its parser makes without recursion (a `yaml.YAMLError` is left to the composing that follows)."""
    depth = 0
    loader = yaml.SafeLoader(front)
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MOST_NESTED:
                    raise _TooDeep
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return
    finally:
        loader.dispose()


def parse_skill_md(text: str, where: str = "SKILL.md") -> tuple[dict[str, str], str]:
    """(front matter, body) of a SKILL.md; `name` and `description` are required."""
    text = _newlines(text).lstrip("\ufeff")
    match = _FRONT_MATTER.match(text)
    if not match:
        raise ConfigurationError(f"{where}: {_no_front_matter(text)}")
    front = match.group(1) or ""
    if len(front) > MAX_FRONT_MATTER:
        raise ConfigurationError(
            f"{where}: its front matter is {len(front):,} characters, over {MAX_FRONT_MATTER:,} (it holds 'name: …', "
            "'description: …' and a few short fields). Fix: move the rest into the body of SKILL.md"
        )
    try:
        _check_nesting(front)  # before composing: PyYAML composes by recursion, bounded only by the recursion limit
        loader = yaml.SafeLoader(front)  # its reader refuses a NUL byte at once
        try:
            node = loader.get_single_node()
            pairs = _top_level(node, where)  # before constructing: a merge key (`<<`) rewrites the node
            _check_merges(node, where)
            try:
                meta = (loader.construct_document(node) if node is not None else None) or {}
            except (ValueError, KeyError, AttributeError, OverflowError, TypeError):  # PyYAML's, for a bad scalar
                raise ConfigurationError(_unbuildable(node, front, where)) from None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        raise ConfigurationError(
            f"{where}: its front matter is not valid YAML ({_yaml_problem(exc)}). {_yaml_fix(exc)}"
        ) from None
    except (RecursionError, _TooDeep):  # PyYAML composes and builds nested values by recursion, without a bound
        raise ConfigurationError(
            f"{where}: its front matter nests deeper than YAML can be read here. Fix: front matter holds "
            "'name: …' and 'description: …' lines, not nested lists or mappings"
        ) from None
    if not isinstance(meta, dict):
        raise ConfigurationError(
            f"{where}: its front matter is {a_or_an(type(meta).__name__)}, not a mapping of keys to values. "
            "Fix: write 'name: …' and 'description: …' lines"
        )
    for key in ("name", "description", "compatibility"):
        value = meta.get(key)
        if value is not None and not isinstance(value, str):
            fix = (  # a YAML double-quoted text of what is written; a value merged in (`<<: *base`) is elsewhere
                f"quote it, {key}: {json.dumps(_as_written(pairs[key], front), ensure_ascii=False)}"
                if key in pairs
                else "quote it where it is written (it is merged in by a '<<' key)"
            )
            raise ConfigurationError(
                f"{where}: front matter '{key}' is read by YAML as {a_or_an(type(value).__name__)} "
                f"({_brief(value)}), not text. Fix: {fix}"
            )
        if key == "compatibility":
            continue  # optional: checked below
        if not isinstance(value, str) or not value.strip():
            other = next((k for k in meta if isinstance(k, str) and k != key and k.lower() == key), None)
            case = f" (keys are lowercase: it has {other!r})" if other and value is None else ""
            fix = f"write it '{key}:'" if case else _MISSING_FIX[key]
            raise ConfigurationError(f"{where}: front matter needs a non-empty '{key}'{case}. Fix: {fix}")
    name = unicodedata.normalize("NFKC", meta["name"])  # as the spec's reference validator compares names
    problem = name_problem(name)
    if problem is not None:
        raise ConfigurationError(f"{where}: skill name {meta['name']!r} {problem}")
    written = meta["description"].strip()  # the limit is on the field as written, blank lines and all
    if len(written) > MAX_DESCRIPTION:
        raise ConfigurationError(
            f"{where}: front matter 'description' is {len(written)} characters, over {MAX_DESCRIPTION} "
            "(Agent Skills' limit: every request carries every skill's description). Fix: say what the skill does "
            "and when to use it in a sentence or two, and move the rest into the body of SKILL.md"
        )
    compatibility = meta.get("compatibility", "")
    if "compatibility" in meta and not (compatibility or "").strip():
        raise ConfigurationError(
            f"{where}: front matter 'compatibility' is empty; when given it holds 1 to {MAX_COMPATIBILITY} "
            "characters. Fix: say what the skill needs, or leave it out"
        )
    if len(compatibility) > MAX_COMPATIBILITY:
        raise ConfigurationError(
            f"{where}: front matter 'compatibility' is {len(compatibility)} characters, over {MAX_COMPATIBILITY} "
            "(Agent Skills' limit). Fix: name only what the skill needs (a product, system packages, network "
            "access) in a sentence"
        )
    return {"name": name, "description": " ".join(written.split())}, match.group(2).strip()


_MISSING_FIX = {
    "name": "add a line 'name: …' with the skill folder's name (lowercase letters, digits and hyphens)",
    "description": "add a line 'description: …' saying what the skill does and when to use it",
}


def _no_front_matter(text: str) -> str:
    """Why `text` (line endings made `\\n`) has no front matter `_FRONT_MATTER` reads, and the fix: an
    opening '---' without its closing line, or after blank lines or indentation, is said so, not told to
    add the front matter it has."""
    lines = text.split("\n")
    if re.fullmatch(r"---[ \t]*", lines[0]):
        return (
            "its front matter opens with '---' on line 1 but has no closing '---' line. Fix: add a line '---' "
            "after the front matter ('name: …', 'description: …'), before the body"
        )
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    blank = {0: [], 1: ["after a blank line"]}.get(first, [f"after {first} blank lines"])
    indented = ["indented"] if lines[first][:1] in (" ", "\t") else []
    if lines[first].strip() == "---" and blank + indented:
        return (
            f"its front matter's opening '---' must be the very first line of SKILL.md; it is on line {first + 1}, "
            f"{', '.join(blank + indented)}. Fix: delete what comes before it"
        )
    return "SKILL.md must start with front matter between '---' lines. Fix: add '---\\nname: …\\ndescription: …\\n---'"


def _newlines(text: str) -> str:
    """`text` with every line ending '\n', as Python's text mode reads a file: a Windows checkout (CRLF)
    gives the model the same text, and a cassette the same request, as a Linux one."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def name_problem(name: str) -> str | None:
    """What is wrong with `name` as an Agent Skills name and how to fix it; None when it is one.

    The spec's rules: 1-64 characters, Unicode lowercase letters and digits and hyphens (`café`,
    `技能`), not starting or ending with a hyphen, no two hyphens in a row."""
    hyphens = "-".join(re.split(r"-+", name.strip("-")))
    if not all(c.isalnum() or c == "-" for c in name) or name != name.lower():
        better = "-".join(re.split(r"[^\w]+|_+", name.lower())).strip("-")
        better = "-".join(re.split(r"-+", better))
        fix = f"name it {better!r}" if better and name_problem(better) is None else "e.g. name it 'my-skill'"
        return f"must be lowercase letters, digits and hyphens. Fix: {fix}"
    if name.startswith("-") or name.endswith("-"):
        return f"must not start or end with a hyphen. Fix: name it {hyphens!r}"
    if "--" in name:
        return f"must not hold two hyphens in a row. Fix: name it {hyphens!r}"
    if len(name) > MAX_NAME:
        return (
            f"is {len(name)} characters, over {MAX_NAME} (Agent Skills' limit). "
            "Fix: shorten it, and the folder's name with it"
        )
    return None


def _check_merges(node: yaml.Node | None, where: str) -> None:
    """A `ConfigurationError` when the '<<' merges would copy over `MAX_MERGED` keys: PyYAML copies each
    merged mapping's keys, its own merges included, so a chain of merges of merges costs the square of
    its length. Counted on the composed nodes, in the order they end (what a merge names ended before it)."""
    mappings = [n for n in _nodes(node) if isinstance(n, yaml.MappingNode)]
    keys: dict[int, int] = {}  # mapping → its keys once its merges are copied in
    copied = 0
    for mapping in sorted(mappings, key=lambda m: m.end_mark.index):
        merged = [v for k, v in mapping.value if k.tag == "tag:yaml.org,2002:merge"]
        sources = [s for v in merged for s in (v.value if isinstance(v, yaml.SequenceNode) else [v])]
        keys[id(mapping)] = len(mapping.value) - len(merged) + sum(keys.get(id(s), 0) for s in sources)
        copied += keys[id(mapping)] if merged else 0
        if copied > MAX_MERGED:
            raise ConfigurationError(
                f"{where}: its front matter's '<<' merges copy over {MAX_MERGED} keys (merges of merges). Fix: write "
                "the keys out; front matter holds 'name: …' and 'description: …' lines, not merged mappings"
            )


def _top_level(node: yaml.Node | None, where: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    """The front matter's top-level keys (plain text keys) → (key, value) nodes; a key given twice is a
    `ConfigurationError` (PyYAML keeps the last one silently, so a second `description:` would
    replace the first)."""
    if not isinstance(node, yaml.MappingNode):
        return {}
    found: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    lines: dict[str, int] = {}
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode) or key.tag != "tag:yaml.org,2002:str":
            continue  # a merge key (`<<`), a number, a list: not a key of ours
        if key.value in found:
            raise ConfigurationError(
                f"{where}: front matter gives {key.value!r} twice (SKILL.md lines {lines[key.value]} and "
                f"{key.start_mark.line + 2}); YAML would keep only the last one. Fix: keep one {key.value!r} line"
            )
        found[key.value], lines[key.value] = (key, value), key.start_mark.line + 2
    return found


def _as_written(key_and_value: tuple[yaml.Node, yaml.Node], front: str) -> str:
    """A value as SKILL.md writes it, on one line and short: `yes`, not the `True` YAML read it as."""
    key, node = key_and_value
    if node.start_mark.index < key.end_mark.index:  # an alias (`*big`): its node is where the anchor is
        text = front[key.end_mark.index :].lstrip(" \t").removeprefix(":").split("\n", 1)[0].split(" #", 1)[0]
    else:  # its tag too (`!!binary aGVsbG8=`)
        text = front[node.start_mark.index : node.end_mark.index]
    return _at_most_60(" ".join(text.split()))


def _brief(value: Any) -> str:
    """What YAML read, short: a list of lists nested by aliases (an alias bomb) is never written out whole,
    nor a number past Python's 4,300 digits (`str` refuses it)."""
    if isinstance(value, int) and value.bit_length() > 10_000:
        text = "a number over 3,000 digits long"
    elif isinstance(value, (int, float, dt.date)):
        text = str(value)
    else:
        text = _REPR.repr(value)
    return _at_most_60(text)


def _at_most_60(text: str) -> str:
    """`text`, or its first 57 characters and "..." when it is longer than 60."""
    return cut(text, 60, "...")


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother = 3, 40, 40
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxfrozenset = _REPR.maxdict = 4


_KINDS = {"timestamp": "a date", "int": "a whole number", "float": "a number", "bool": "true or false"}
"""What YAML reads a plain or tagged value as, by its tag, for `_unbuildable`."""


def _unbuildable(node: yaml.Node | None, front: str, where: str) -> str:
    """The error for front matter that composed but whose values PyYAML could not build: the first scalar it
    cannot (`2026-02-30` read as a date, a 5,000-digit number, `!!bool maybe`), where it is and how to quote it.
    PyYAML raises no `YAMLError` there but a ValueError, KeyError, AttributeError or OverflowError."""
    for scalar in _scalars(node):
        try:
            yaml.constructor.SafeConstructor().construct_object(scalar, deep=True)
        except (ValueError, KeyError, AttributeError, OverflowError, TypeError) as exc:
            written = _at_most_60(" ".join(front[scalar.start_mark.index : scalar.end_mark.index].split()))
            kind = _KINDS.get(scalar.tag.rsplit(":", 1)[-1], scalar.tag)
            why = f" ({str(exc).split(';')[0]})" if isinstance(exc, (ValueError, OverflowError)) else ""
            key = next((k.value for k, v in getattr(node, "value", ()) if v is scalar), None)
            return (
                f"{where}: its front matter holds {written} (SKILL.md line {scalar.start_mark.line + 2}), which YAML "
                f"reads as {kind} and cannot make one of{why}. Fix: quote it, "
                f"{f'{key}: ' if isinstance(key, str) else ''}{json.dumps(written, ensure_ascii=False)}"
            )
    return f"{where}: its front matter could not be read by YAML. Fix: put quotes around each value"


def _scalars(node: yaml.Node | None) -> Iterator[yaml.ScalarNode]:
    """Every scalar in `node`, each once, in the order they are written."""
    found = [n for n in _nodes(node) if isinstance(n, yaml.ScalarNode)]
    return iter(sorted(found, key=lambda n: n.start_mark.index))


def _nodes(node: yaml.Node | None) -> Iterator[yaml.Node]:
    """Every node composed under `node`, each once: an alias is the node it names, so an alias bomb is
    walked in the size of its text (iterative: no recursion limit)."""
    seen: set[int] = set()
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, yaml.MappingNode):
            stack.extend(n for pair in current.value for n in pair)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)


def _yaml_problem(exc: yaml.YAMLError) -> str:
    """PyYAML's several-line report as one line: what is wrong, and where in SKILL.md (the front
    matter starts on its second line, after the opening '---')."""
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    mark = getattr(exc, "problem_mark", None)
    return f"{problem} at SKILL.md line {mark.line + 2}, column {mark.column + 1}" if mark is not None else problem


def _yaml_fix(exc: yaml.YAMLError) -> str:
    """What to do about a YAML error: spaces for a tab (PyYAML reads YAML 1.1, where no value follows
    `key:<tab>`), otherwise quotes around a value YAML read as syntax."""
    if "'\\t'" in str(getattr(exc, "problem", None)):
        return "Fix: write spaces there, not a tab (YAML reads no tab before a value or as indentation)"
    return "Fix: put quotes around a value that holds ': ' or ' #', or starts with one of [ { * & ! | > % @"


class _Refused(Exception):
    """A file that is not served; the message says why (private: becomes `refused` or a config error)."""

    def __init__(self, why: str, fix: str = "make it a plain file in the folder") -> None:
        super().__init__(why)
        self.fix = fix
        """For a SKILL.md refused this way: what to do."""


def _resources(folder: Path, named: str) -> Iterator[tuple[str, str, bool]]:
    """(relative path, text or why refused, served?) for every visible entry; links never followed.

    Files are read in a fixed order (folder by folder, names sorted) while the skill holds less
    than `MAX_SKILL_BYTES`; a file that would take it past that is refused, and so is every file
    after it, unread (what is served does not depend on the file system's order)."""
    total = 0
    for relative, path in _visible(folder):
        shown = f"{named}/{relative}"
        if isinstance(path, OSError):
            yield relative, f"it is a folder that cannot be listed: {path.strerror or path}", False
            continue
        if total >= MAX_SKILL_BYTES:
            yield relative, _OVER_TOTAL, False
            continue
        text, why = _text(path, shown)
        if text is not None and total + len(text.encode("utf-8")) > MAX_SKILL_BYTES:
            total, text, why = MAX_SKILL_BYTES, None, _OVER_TOTAL
        if text is None:
            yield relative, why, False
            continue
        if not text.strip():
            yield relative, EMPTY, False
            continue
        total += len(text.encode("utf-8"))
        yield relative, text, True


def _visible(folder: Path) -> Iterator[tuple[str, Path | OSError]]:
    """(relative POSIX path, path) of every entry but SKILL.md and dotfiles, folder by folder (depth first),
    names sorted; a sub-folder that cannot be listed comes as (its relative path, the error), not left out
    unsaid. A stack, not `os.walk`, which recurses once per level in Python 3.11 (a RecursionError)."""
    stack = [folder]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as listing:
                names = sorted(entry.name for entry in listing)
        except OSError as error:
            if directory == folder:
                raise ConfigurationError(
                    f"skill folder {str(folder)!r} cannot be listed: {error.strerror or error}. "
                    "Fix: let the user running Python list it"
                ) from None
            yield directory.relative_to(folder).as_posix(), error
            continue
        subdirs = []
        for name in names:
            path = directory / name
            if name.startswith("."):
                continue
            if _is_folder(path):  # a link to a folder is not one: it is refused, as a file
                subdirs.append(path)
            elif (relative := path.relative_to(folder).as_posix()) != SKILL_FILE:
                yield relative, path
        stack.extend(reversed(subdirs))


def _is_folder(path: Path) -> bool:
    """Whether `path` is a folder itself, not a link to one."""
    try:
        return stat.S_ISDIR(path.lstat().st_mode)
    except OSError:  # gone: read as a file, it is refused saying so
        return False


def _text(path: Path, shown: str) -> tuple[str | None, str]:
    """(the file's text, "") when it is served; (None, why not) otherwise (logged with the others, `_log_refused`)."""
    why = ""
    if not is_utf8(shown):  # a name the model could not write back (it holds a lone surrogate)
        why = "its name is not UTF-8 text"
    else:
        try:
            data = _read_regular(path, shown)
            problem = not_utf8(data)
            if problem is None:
                return _newlines(data.decode("utf-8").removeprefix("\ufeff")), ""  # Notepad's mark is no text
            why = f"it {problem}" + ("" if "binary" in problem else " (save it as UTF-8)")
        except _Refused as exc:
            why = f"it {exc}"
    return None, why


_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),  # before UTF-16's: it starts with UTF-16's little-endian mark
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def not_utf8(data: bytes) -> str | None:
    """Why `data` is no UTF-8 text, or None when it is: the one rule for SKILL.md and resources alike.

    "is UTF-16 text, not UTF-8" (Notepad's "Unicode", PowerShell 5: a byte-order mark, or NUL-heavy text
    without one, `_utf16_without_mark`), "is UTF-32 text, not UTF-8" (its mark), "is binary (it holds a NUL
    byte), not text" (any other NUL: it marks a binary file though it decodes, as git and grep read it), or
    "is not UTF-8 text" (GBK, Latin-1)."""
    for mark, name in _MARKS:
        if data.startswith(mark):
            return f"is {name} text, not UTF-8"
    if b"\x00" in data:
        return "is UTF-16 text, not UTF-8" if _utf16_without_mark(data) else "is binary (it holds a NUL byte), not text"
    return None if _decodes_as_utf8(data) else "is not UTF-8 text"


def _decodes_as_utf8(data: bytes) -> bool:
    """Whether `data` decodes as UTF-8."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _utf16_without_mark(data: bytes) -> bool:
    """Whether `data`, holding a NUL, is UTF-16 text without a byte-order mark: it decodes as UTF-16 (little or
    big endian) into text without control characters (a blob of NULs, an image header hold them), and at least
    one byte in ten is a NUL (each Latin letter, digit, space and line end brings one; a stray NUL in ASCII
    text, whose pairs of letters would decode as CJK, does not make it UTF-16)."""
    if len(data) % 2 or data.count(0) * 10 < len(data):
        return False
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if all(c in "\t\n\r" or unicodedata.category(c) not in ("Cc", "Cn") for c in text):
            return True
    return False


_OVER_TOTAL = f"it would take the skill's files over {MAX_SKILL_BYTES} bytes in all"
EMPTY = "it is empty"
"""Why a blank file (nothing, or whitespace only) is not served: read, it would be an empty tool result."""


def _log_refused(named: str, refused: Mapping[str, str]) -> None:
    """One warning for the files of the skill folder `named` that are not served, the first `MAX_LOGGED` named:
    not one each (a skill's assets/ of images, a folder of data past `MAX_SKILL_BYTES`, flooded stderr).
    Blank files are left out silently, as LangChain4j's `FileSystemSkillLoader` skips them."""
    refused = {path: why for path, why in refused.items() if why != EMPTY}
    if not refused:
        return
    listed = ", ".join(f"{_printable(path)} ({why})" for path, why in list(refused.items())[:MAX_LOGGED])
    more = f" and {len(refused) - MAX_LOGGED} more" if len(refused) > MAX_LOGGED else ""
    files = f"{len(refused)} file{'' if len(refused) == 1 else 's'}"
    log.warning("skill folder %r: %s not loaded (Skill.refused says why): %s%s", _printable(named), files, listed, more)


def _printable(name: str) -> str:
    """`name` with any lone surrogate written as an escape (a log handler cannot write one)."""
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def _read_regular(path: Path, shown: str) -> bytes:
    """The bytes of a regular, single-link, small file; `_Refused` saying why not.

    Checked with `lstat`, opened with `O_NOFOLLOW`, then checked again on the descriptor
    (`fstat`), so a file swapped for a link or another file in between is refused too: a link
    swapped in makes `open` fail (ELOOP), which is reported as a `ConfigurationError`.
    """
    try:
        info = path.lstat()
    except OSError as exc:  # gone since the folder was listed
        raise _Refused(f"cannot be read: {exc.strerror or exc}", _READABLE) from None
    _check_stat(info)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP or path.is_symlink():
            raise ConfigurationError(
                f"{shown} became a symbolic link while the skill was loading; refused (links are never "
                "followed). Fix: make sure nothing changes the skill folder while it loads"
            ) from None
        raise _Refused(f"cannot be read: {exc.strerror or exc}", _READABLE) from None  # not the readable others
    with os.fdopen(fd, "rb") as f:
        opened = os.fstat(f.fileno())
        _check_stat(opened)
        if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):
            raise ConfigurationError(
                f"{shown} was replaced by another file while the skill was loading; refused. "
                "Fix: make sure nothing changes the skill folder while it loads"
            )
        data = f.read(MAX_RESOURCE_BYTES + 1)
    if len(data) > MAX_RESOURCE_BYTES:
        raise _Refused(f"is over {MAX_RESOURCE_BYTES} bytes", _SHORTER)
    return data


_READABLE = "let the user running Python read it"
_SHORTER = f"keep it under {MAX_RESOURCE_BYTES} bytes: move long material into files beside it, read as resources"


def _check_stat(info: os.stat_result) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise _Refused("is a symbolic link (links are never followed)")
    if not stat.S_ISREG(info.st_mode):
        raise _Refused("is not a regular file")
    if info.st_nlink != 1:
        raise _Refused(f"is a hard link ({info.st_nlink} names for one file; it may live outside the skill)")
    if info.st_size > MAX_RESOURCE_BYTES:
        raise _Refused(f"is over {MAX_RESOURCE_BYTES} bytes", _SHORTER)


def shown(text: str, limit: int = 80) -> str:
    """A name or path the model wrote, as an error repeats it: its repr, at most `limit` characters."""
    shown = repr(text)
    return cut(shown, limit, "...'")
