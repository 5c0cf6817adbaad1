"""Offering skills to the model in three levels, each costing more tokens than the last.

    skills = Skills.from_directory("data/skills", tools={"logistics-complaint": [open_logistics_ticket]})
    messages = [SystemMessage(content=PROMPT + "\\n\\n" + skills.system_prompt()), UserMessage(...)]
    run_loop(model, messages, providers=[skills.provider()])

* Level 0 — `system_prompt()`: names and descriptions only, XML-escaped, in
  `<available_skills>`.
* Level 1 — the tool `activate_skill(name)` returns the SKILL.md body and records the name in
  the result's `activated_skill` attribute (stored with memory, never sent).
* Level 2 — the tool `read_skill_resource(skill, path)` returns one resource's text, of an
  *active* skill only (activated in this call, or found activated in the conversation when
  the provider was last asked); and a skill's own tools join the call once it is active.

Whose activations: a conversation's, by its memory id, found again by a later call with the
same memory; a call without a memory has its own, by its turn (`ProviderRequest.turn`,
`InvocationContext.turn`), so two users of one `Skills` without memories (a web server) never
read each other's skills' files, and a later call inherits nothing. Kept for the newest
`MAX_CONVERSATIONS` conversations and turns that have an active skill; tools run by hand
(`InvocationContext()`: no memory id, turn 0) share one.

`provider()` is dynamic when some skill owns tools (otherwise asking again each round would
change nothing): before every request it scans the conversation for `activated_skill` and
offers those skills' tools. The loop only ever adds tools, so an activated skill's tools stay
for the rest of the call; a new call with the same memory finds the activation again. The two
management tools carry `metadata={"always_visible": True}`, so tool search never hides the way in.

A wrong skill name or path is an error result listing what exists, so the model can correct
itself; a skill's name in other capitals names it (an `enum`, read case-insensitively as every
tool's). The arguments' text is read as every tool's (a trailing comma, an object written again
as a JSON string); wrong argument *types*, missing arguments and arguments the tools do not have
(`additionalProperties: false` is enforced) are named as for any tool, but as a `SkillError`, an
execution error: by default the text goes back to the model, which calls again, where an
`ArgumentError` would end the call (langchain4j-skills' executors throw `ToolExecutionException`
for them unless built with `throwToolArgumentsExceptions(true)`; tool search does the same). A skill's own tool whose name is
taken by any other tool of the call (a registry, an MCP server) is a `ConfigurationError` when
the call's tools are put together (`possible_tools()`), not a silent shadow.

When the memory window drops the `activate_skill` result, the conversation no longer shows
the activation: the skill's tools are not offered to a new call, and its files cannot be read
until the model activates it again.

Where LangChain4j's `Skills` differs: its `read_skill_resource` serves any skill's files, here only an
active one's (the model reads the instructions before the files they name); it offers that tool only
when some skill has files, here always (one tool list whatever the folders hold). As it does, no skills at
all (`Skills([])`, a folder whose skill folders were all left out) is a `ConfigurationError`.

Leaves out: deactivating a skill; loading skills (`toolkit.skills.folders`).
"""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from toolkit.chat.messages import Message, ToolCall, ToolResultMessage
from toolkit.errors import ArgumentError, ArgumentProblem, ConfigurationError, SkillError, a_kind_of
from toolkit.loop.sources import ALWAYS_VISIBLE, ProviderRequest
from toolkit.skills.folders import Skill, available_resources, folder_path, scan_skills, shown
from toolkit.tools.arguments import json_text, parse_arguments
from toolkit.tools.coercion import ascii_lower
from toolkit.tools.decorator import InvocationContext, a_or_an
from toolkit.tools.execute import Tool, ToolOutput
from toolkit.tools.reflect import ToolSpec
from toolkit.unicode import cut

ACTIVATED_SKILL = "activated_skill"
"""Result attribute naming the skill an `activate_skill` call activated (do not rename: stored)."""
ACTIVATE_SKILL, READ_SKILL_RESOURCE = "activate_skill", "read_skill_resource"
MAX_CONVERSATIONS = 10_000
"""Conversations and turns without a memory whose active skills are kept (a conversation's are
re-read from it when a call starts; a turn's last as long as the turn)."""
PROMPT = (
    "You have skills: instructions and files for particular tasks. When a task matches a skill "
    "below, call activate_skill with its name before anything else and follow its instructions; "
    "read the files they mention with read_skill_resource."
)


class Skills:
    """Loaded skills and the tools that disclose them (see the module docstring)."""

    def __init__(self, skills: Sequence[Skill], rejected: Mapping[str, str] | None = None) -> None:
        skills = _skill_list(skills)
        if not skills:
            raise ConfigurationError(f"Skills([]): {NO_SKILLS}. Fix: {HOW}; with no skills, leave Skills out")
        self.by_name: dict[str, Skill] = {s.name: s for s in skills}
        if len(self.by_name) != len(skills):
            names = [s.name for s in skills]
            twice = sorted({n for n in names if names.count(n) > 1})
            raise ConfigurationError(
                f"Skills(...): two skills share the name {', '.join(map(repr, twice))}; skill names must be unique. "
                "Fix: rename one skill's folder and its SKILL.md name, or leave one of them out"
            )
        self.rejected: dict[str, str] = dict(rejected or {})
        """Skill folders that were left out, and why (`from_directory` fills it)."""
        _check_tool_names(skills)
        self._active: OrderedDict[str | int, set[str]] = OrderedDict()
        """`_activations_key` → active skills (none: no entry): what the provider last saw, plus this call's
        activations."""
        self._lock = threading.Lock()
        self._management = self._management_tools()

    def __repr__(self) -> str:
        """Its skills' names (a notebook shows it; the default held a memory address)."""
        return f"Skills({list(self.by_name)!r})"

    @classmethod
    def from_directory(cls, root: Path | str, tools: Mapping[str, Sequence[Any]] | None = None) -> Skills:
        """The skills under `root`; a broken folder is left out and listed in `rejected`. None at all is a
        `ConfigurationError` saying why each folder was left out, or that there was none."""
        folder = folder_path(
            root, "Skills.from_directory", "root is the folder of skill folders", "Skills.from_directory('data/skills')"
        )
        skills, rejected = scan_skills(root, tools)
        if not skills:
            raise ConfigurationError(_none_loaded(folder, rejected))
        return cls(skills, rejected)

    def get(self, name: str) -> Skill:
        """The skill called `name`; otherwise `SkillError` listing the skills there are.

        A name in another Unicode form (`café` decomposed, as a model may write it) names that skill:
        skill names are kept in NFKC form, as the folders are compared; and so does a name in other
        capitals (`PDF-Processing`: a skill name is lowercase, and the tools' `enum` is case-insensitive
        as every tool's is)."""
        if not isinstance(name, str):
            raise ConfigurationError(
                f"Skills.get({name!r:.40}): name is a skill's name (a str), and got {a_kind_of(name)}. Fix: e.g. "
                f"skills.get({next(iter(sorted(self.by_name)), 'my-skill')!r})"
            )
        found = self.by_name.get(name) or self.by_name.get(unicodedata.normalize("NFKC", name))
        if found is None:  # an enum's value in other capitals, as every tool takes one (SPEC section 4)
            found = self.by_name.get(ascii_lower(unicodedata.normalize("NFKC", name)))
        if found is not None:
            return found
        raise SkillError(
            f"There is no skill named {shown(name)}. Available skills: {', '.join(sorted(self.by_name)) or '(none)'}."
        )

    def system_prompt(self, intro: str = PROMPT) -> str:
        """Level 0: `intro` and every skill's name and description, XML-escaped."""
        if not isinstance(intro, str):
            raise ConfigurationError(
                f"Skills.system_prompt({intro!r:.40}): intro is the text before the list of skills (a str), and got "
                f"{a_kind_of(intro)}. Fix: leave it out for the default, or pass your own text"
            )
        entries = "".join(
            f"  <skill>\n    <name>{escape(s.name)}</name>\n"
            f"    <description>{escape(s.description)}</description>\n  </skill>\n"
            for s in self.by_name.values()
        )
        return f"{intro}\n<available_skills>\n{entries}</available_skills>"

    def management_tools(self) -> list[Tool]:
        """`activate_skill` and `read_skill_resource`, both always visible."""
        return list(self._management)

    def _management_tools(self) -> list[Tool]:
        skill_param = {"type": "string", "enum": sorted(self.by_name), "description": "The skill's name."}
        activate = ToolSpec(
            ACTIVATE_SKILL,
            "Load a skill's instructions. Call it before working on a "
            "task that matches the skill's description; its own tools become available "
            "after it.",
            {
                "type": "object",
                "properties": {"name": skill_param},
                "required": ["name"],
                "additionalProperties": False,
            },
            metadata={ALWAYS_VISIBLE: True},
        )
        read = ToolSpec(
            READ_SKILL_RESOURCE,
            "Read a file of an activated skill, by the path its instructions give (e.g. templates/reply.md).",
            {
                "type": "object",
                "properties": {
                    "skill": skill_param,
                    "path": {"type": "string", "description": "The file's path inside the skill."},
                },
                "required": ["skill", "path"],
                "additionalProperties": False,
            },
            metadata={ALWAYS_VISIBLE: True},
        )
        return [Tool(activate, self._activate, "skills"), Tool(read, self._read, "skills")]

    def provider(self) -> SkillsProvider:
        """A tool provider for `run_loop(providers=[...])`: the management tools always, a skill's own tools once activated."""
        return SkillsProvider(self)

    def activated(self, messages: Sequence[Message]) -> list[str]:
        """Names of the skills activated in `messages`, in order, each once."""
        found = [m.attributes.get(ACTIVATED_SKILL) for m in messages if isinstance(m, ToolResultMessage)]
        return list(dict.fromkeys(n for n in found if isinstance(n, str) and n in self.by_name))

    def remember(self, memory_id: Any, active: Sequence[str], turn: int = 0) -> None:
        """Set which skills are active in the conversation `memory_id`, or without one in the turn
        `turn` (the provider calls this)."""
        self._note(_activations_key(memory_id, turn), set(active))

    def _note(self, key: str | int, active: set[str], *, adding: bool = False) -> None:
        """Set (or with `adding`, add to) the active skills of `key`. Only the newest entries are kept,
        and only with an active skill: a call re-reads its conversation's activations when it starts."""
        with self._lock:  # a round's calls may run at once, and one `Skills` serves many calls
            if adding:
                active |= self._active.get(key, set())
            if not active:
                self._active.pop(key, None)
                return
            self._active[key] = active
            self._active.move_to_end(key)
            while len(self._active) > MAX_CONVERSATIONS:
                self._active.popitem(last=False)

    def is_active(self, name: str, memory_id: Any = None, turn: int = 0) -> bool:
        """Whether `name` is active in the conversation `memory_id`, or without one in the turn `turn`."""
        return name in self._active.get(_activations_key(memory_id, turn), ())

    def _activate(self, call: ToolCall, context: InvocationContext) -> ToolOutput:
        skill = self.get(_strings_for_model(call, "name")["name"])
        self._note(_activations_key(context.memory_id, context.turn), {skill.name}, adding=True)
        return ToolOutput(skill.body or _no_instructions(skill), {ACTIVATED_SKILL: skill.name})

    def _read(self, call: ToolCall, context: InvocationContext) -> str:
        args = _strings_for_model(call, "skill", "path")
        skill = self.get(args["skill"])
        if not self.is_active(skill.name, context.memory_id, context.turn):
            raise SkillError(
                f"Skill {skill.name!r} is not active. Call activate_skill with name {skill.name!r} "
                "first, then read the files its instructions mention."
            )
        return skill.resource(args["path"])


@dataclass
class SkillsProvider:
    """Management tools always; a skill's own tools once the conversation activated it."""

    skills: Skills

    @property
    def dynamic(self) -> bool:
        return any(s.tools for s in self.skills.by_name.values())

    def provide(self, request: ProviderRequest = ProviderRequest(())) -> list[Tool]:
        active = self.skills.activated(request.messages)
        self.skills.remember(request.memory_id, active, request.turn)
        return self.skills.management_tools() + [t for name in active for t in self.skills.get(name).tools]

    def possible_tools(self) -> list[Tool]:
        """Every tool this provider may ever offer (checked for name clashes when a call starts)."""
        return self.skills.management_tools() + [t for s in self.skills.by_name.values() for t in s.tools]


def _no_instructions(skill: Skill) -> str:
    """What activating a skill whose SKILL.md has no body returns: not an empty tool result (a gateway that
    makes it an empty text block refuses it; a model reads it as a failure), and its files by name."""
    files = f" Its files, for {READ_SKILL_RESOURCE}: {available_resources(skill.resources)}." if skill.resources else ""
    return f"Skill {skill.name!r} is active; its SKILL.md holds no instructions beyond its description.{files}"


NO_SKILLS = (
    "no skills, and Skills needs at least one: with none, the model is told it has skills and offered "
    "activate_skill and read_skill_resource, which could only fail"
)
HOW = "Skills.from_directory('data/skills'), or Skills([load_skill(folder), ...])"


def _none_loaded(root: Path, rejected: Mapping[str, str]) -> str:
    """Why `Skills.from_directory(root)` found no skill: each folder left out and why, or that there was none."""
    if rejected:
        why = "; ".join(f"{name!r}: {reason}" for name, reason in sorted(rejected.items()))
        return f"Skills.from_directory({str(root)!r}): {NO_SKILLS}; every skill folder was left out: {why}"
    return (
        f"Skills.from_directory({str(root)!r}): {NO_SKILLS}; the folder holds no skill folder (a sub-folder with a "
        "SKILL.md). Fix: pass the folder whose sub-folders each hold a SKILL.md, e.g. Skills.from_directory('data/skills')"
    )


def _skill_list(skills: object) -> list[Skill]:
    """`Skills(...)`'s skills as a list, in their order; a folder, None or an item that is no
    `Skill` is refused here, not as a raw `TypeError` / `AttributeError` from reading it."""
    if isinstance(skills, (str, PathLike)):
        raise ConfigurationError(
            f"Skills({skills!r:.40}): Skills takes loaded skills, and got a folder. Fix: load the folder: "
            f"Skills.from_directory({str(skills)!r:.40})"
        )
    if skills is None or isinstance(skills, (bytes, Mapping)) or not isinstance(skills, Iterable):
        kind = "None" if skills is None else a_or_an(type(skills).__name__)
        raise ConfigurationError(f"Skills({skills!r:.40}): Skills takes a list of skills, and got {kind}. Fix: {HOW}")
    listed = list(skills)  # a generator is read once, here
    for i, item in enumerate(listed):
        if not isinstance(item, Skill):
            shown = (
                "None"
                if item is None
                else f"the class {item.__name__}"
                if isinstance(item, type)
                else a_or_an(type(item).__name__)
            )
            fix = f"load it: load_skill({str(item)!r:.40})" if isinstance(item, (str, PathLike)) else HOW
            raise ConfigurationError(f"Skills([...]): item {i} is {shown}, not a Skill. Fix: {fix}")
    return listed


def _activations_key(memory_id: Any, turn: int) -> str | int:
    """Whose activations: the conversation's (its memory id as text), or without a memory the turn's
    (its number). `memory_id=None` alone is no key: every call without a memory has it."""
    return turn if memory_id is None else repr(memory_id)


def _strings_for_model(call: ToolCall, *fields: str) -> dict[str, str]:
    """`_strings`, a mistake in the arguments a `SkillError` (an execution error: by default its text goes
    back to the model, which can call again) rather than an `ArgumentError` (by default the call fails fast).
    As in langchain4j-skills, whose executors throw `ToolExecutionException` unless told otherwise: a model
    that guessed a parameter's name (`skill_name`, the peer's) corrects it instead of ending the call."""
    try:
        return _strings(call, *fields)
    except ArgumentError as mistake:
        raise SkillError(str(mistake)) from None


def _strings(call: ToolCall, *fields: str) -> dict[str, str]:
    """The call's string arguments `fields`, or `ArgumentError` naming what is wrong. The text is read as
    every tool's is (`parse_arguments`: a trailing comma, an object written again as a JSON string, within
    limits of size and depth)."""
    data = parse_arguments(call.name, call.arguments)
    extra = [ArgumentProblem(key, _got(data[key]), ", ".join(fields), "unknown") for key in data if key not in fields]
    problems = extra + [
        ArgumentProblem(
            f, "" if f not in data else _got(data[f]), "a string", "missing" if f not in data else "invalid"
        )
        for f in fields
        if not isinstance(data.get(f), str)
    ]
    if problems:
        raise ArgumentError(call.name, problems)
    return {f: data[f] for f in fields}


def _got(value: Any) -> str:
    """What the model sent for a field, as JSON, short."""
    return cut(json_text(value), 60, "...")


def _check_tool_names(skills: Sequence[Skill]) -> None:
    owner: dict[str, str] = {ACTIVATE_SKILL: "the skills themselves", READ_SKILL_RESOURCE: "the skills themselves"}
    for skill in skills:
        for tool in skill.tools:
            if tool.name in owner:
                raise ConfigurationError(
                    f"skill {skill.name!r}: its tool {tool.name!r} is already "
                    f"provided by {owner[tool.name]}. Fix: rename the tool"
                )
            owner[tool.name] = f"skill {skill.name!r}"
