"""Agent Skills as folders, read once into memory: the model can never reach the file system.

A skill is a folder whose `SKILL.md` starts with YAML front matter (`name`, `description`);
its body is the instructions, and every other file in the folder is a resource:

    data/skills/logistics-complaint/
        SKILL.md                       ---\\nname: logistics-complaint\\ndescription: …\\n---\\n…
        playbook/stuck-parcel.md       resources, nested folders welcome
        references/carriers/sf-express.md

`load_skills(root)` loads every sub-folder of `root` that has a `SKILL.md`. Everything is read
*here*, at construction, into an allow-list: `Skill.resources` maps each relative POSIX path to
its text. A request for a resource is one dictionary lookup — no path joining, no resolving,
no `open()` — so `../`, absolute and Windows paths, percent-encoding, NUL bytes and look-alike
sibling folders (`skill-a-evil` beside `skill-a`) all simply are not keys. Loading never
follows a symbolic link and skips hidden, binary and oversized files.

Which tools a skill owns is decided in code (`load_skills(root, tools={"name": [...]})`):
a folder holds text, never code that would run. Offering skills to the model is
`toolkit.skills.offer`.

Leaves out: running scripts from a skill, reloading a changed folder (load again).
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from toolkit.errors import ConfigurationError, SkillError
from toolkit.tools.execute import Tool, tools_from

log = logging.getLogger("toolkit.skills.folders")

SKILL_FILE = "SKILL.md"
MAX_RESOURCE_BYTES = 256 * 1024
"""Bigger files are not loaded (a skill's resources are read by a model, not streamed)."""
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
"""Agent Skills names: lowercase letters, digits and single hyphens, as the folder is called."""
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)(.*)\Z", re.S)


@dataclass(frozen=True)
class Skill:
    """One skill, fully in memory."""

    name: str
    """What the model activates it by; equals the folder name."""
    description: str
    """When to use it: the only part the model sees before activation (level 0)."""
    body: str
    """SKILL.md without its front matter: the instructions activation returns (level 1)."""
    resources: Mapping[str, str] = field(default_factory=dict)
    """Relative POSIX path → text, for every loaded file but SKILL.md (level 2)."""
    tools: tuple[Tool, ...] = ()
    """Tools that join the call only once the skill is active."""

    def resource(self, path: str) -> str:
        """A resource's text; an unknown path raises `SkillError` listing the known ones."""
        key = path[2:] if path.startswith("./") else path
        if key in self.resources:
            return self.resources[key]
        known = ", ".join(sorted(self.resources)) or "(none)"
        raise SkillError(f"Skill {self.name!r} has no resource {_shown(path)}. Available resources: {known}.")


def load_skills(root: Path | str, tools: Mapping[str, Sequence[Any]] | None = None) -> list[Skill]:
    """Every skill under `root`, sorted by name; `tools` gives skills their own tools."""
    root = Path(root)
    if not root.is_dir():
        raise ConfigurationError(
            f"load_skills({str(root)!r}): no such folder. Fix: pass the folder that holds one sub-folder per skill"
        )
    folders = sorted(p for p in root.iterdir() if not p.is_symlink() and (p / SKILL_FILE).is_file())
    skills = [load_skill(folder, (tools or {}).get(folder.name, ())) for folder in folders]
    unknown = set(tools or {}) - {s.name for s in skills}
    if unknown:
        raise ConfigurationError(
            f"load_skills({str(root)!r}): tools given for {sorted(unknown)}, "
            f"but there is no such skill (found: {[s.name for s in skills]})"
        )
    return skills


def load_skill(folder: Path | str, tools: Sequence[Any] = ()) -> Skill:
    """One skill folder: SKILL.md checked, every other readable text file loaded."""
    folder = Path(folder)
    where = f"skill folder {str(folder)!r}"
    skill_file = folder / SKILL_FILE
    if skill_file.is_symlink() or not skill_file.is_file():
        raise ConfigurationError(f"{where}: no {SKILL_FILE}. Fix: add one with front matter 'name' and 'description'")
    meta, body = parse_skill_md(skill_file.read_text(encoding="utf-8"), where)
    if meta["name"] != folder.name:
        raise ConfigurationError(
            f"{where}: its SKILL.md is named {meta['name']!r}; the name must "
            f"equal the folder name. Fix: name it {folder.name!r}"
        )
    return Skill(
        meta["name"], meta["description"], body, dict(_resources(folder)), tuple(tools_from(*tools)) if tools else ()
    )


def parse_skill_md(text: str, where: str = "SKILL.md") -> tuple[dict[str, str], str]:
    """(front matter, body) of a SKILL.md; `name` and `description` are required."""
    match = _FRONT_MATTER.match(text.lstrip("\ufeff"))
    if not match:
        raise ConfigurationError(
            f"{where}: SKILL.md must start with front matter between '---' "
            "lines. Fix: add '---\\nname: …\\ndescription: …\\n---'"
        )
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
        raise ConfigurationError(f"{where}: its front matter is not valid YAML ({exc})") from None
    for key in ("name", "description"):
        if not isinstance(meta, dict) or not isinstance(meta.get(key), str) or not meta[key].strip():
            raise ConfigurationError(f"{where}: front matter needs a non-empty '{key}'")
    if not NAME.fullmatch(meta["name"]) or len(meta["name"]) > 64:
        raise ConfigurationError(
            f"{where}: skill name {meta['name']!r} must be lowercase letters, digits and hyphens (at most 64)"
        )
    return {"name": meta["name"], "description": " ".join(meta["description"].split())}, match.group(2).strip()


def _resources(folder: Path) -> Iterator[tuple[str, str]]:
    """(relative path, text) of every regular, visible, small, UTF-8 file; links never followed."""
    for directory, subdirs, files in os.walk(folder, followlinks=False):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(directory, name)
            relative = path.relative_to(folder).as_posix()
            if relative == SKILL_FILE or name.startswith("."):
                continue
            text = _read_text(path, f"{folder.name}/{relative}")
            if text is not None:
                yield relative, text


def _read_text(path: Path, shown: str) -> str | None:
    """The file's text, or None (logged): links, devices, pipes, big or binary files are skipped.

    Checked with `lstat` before opening, and opened with `O_NOFOLLOW`, so a file swapped for a
    link in between is refused too.
    """
    info = path.lstat()
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_RESOURCE_BYTES:
        log.warning("not loaded (a link, not a regular file, or over %d bytes): %s", MAX_RESOURCE_BYTES, shown)
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    with os.fdopen(os.open(path, flags), "rb") as f:
        data = f.read(MAX_RESOURCE_BYTES + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        log.warning("not loaded (not UTF-8 text): %s", shown)
        return None


def _shown(text: str, limit: int = 80) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"
