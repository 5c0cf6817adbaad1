"""Week 10 exercises: a skill folder, what level 0 shows, paths that cannot escape, skill-owned tools.

For the skill folder only the folder counts: what make_skill returns is ignored (a starter's
`return ...` left below working code is fine); it is "not attempted" only while it returns `...`
and creates nothing. A make_skill holding `yield` is told its body never ran (calling it only
made the generator), not only that the folder is empty. The description is what the model chooses the
skill by at level 0: one that speaks neither of gifts nor of wrapping ("A demo skill.", "TODO"; English or
Chinese) or only repeats the name ("Gift wrapping.") fails; the prose itself is not judged.

Leaves out: the token costs per level (the week-10 notebook prints them).
"""

import inspect
import json
import os
import re
import shutil
import tempfile
from pathlib import Path, PurePath
from typing import Any, cast

from toolkit.exercises.answers import as_set, dict_answer_problem, misses, number_problem, set_problem, verdict_of
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import (
    LearnerError,
    NotAttempted,
    Verdict,
    call_learner,
    exercise,
    has_placeholder,
    right,
    wrong,
)
from toolkit.exercises.values import show


@exercise(
    "w10.skill_folder",
    10,
    "write",
    "write make_skill(root): create the skill 'gift-wrapping' (a SKILL.md with name and description) under root",
    starter="""
        from pathlib import Path

        from toolkit.exercises import check


        def make_skill(root: Path):
            # create root / "gift-wrapping" / "SKILL.md": front matter (name, description) + instructions
            return ...


        check("w10.skill_folder", make_skill)
        """,
    solution="""
        from pathlib import Path

        from toolkit.exercises import check


        def make_skill(root: Path):
            folder = root / "gift-wrapping"
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_text(
                "---\\nname: gift-wrapping\\ndescription: Use when a customer asks to gift-wrap an order.\\n---\\n"
                "Ask for the order id and the card text, then confirm the price (10 yuan).\\n", encoding="utf-8")


        check("w10.skill_folder", make_skill)
        """,
    hint="SKILL.md starts with a front matter block between two `---` lines: `name:` (the folder's name) and "
    "`description:` (when to use it); the instructions follow.",
)
def check_skill_folder(fn: Any) -> Verdict:
    from toolkit.skills.folders import scan_skills
    from toolkit.skills.offer import Skills

    root = Path(tempfile.mkdtemp())
    try:
        try:
            returned = call_learner(fn, root)  # what it returns does not matter: the folder does
        except LearnerError as error:  # it may name the folder, a new temporary one on every run
            return wrong(f"your code raised {_named_root(root, str(error))}")
        if inspect.isgenerator(returned) and not any(root.iterdir()):  # its body waits for a next() never made
            returned.close()
            return wrong(
                "your function is a generator (it holds `yield`): calling it only made the generator, and its "
                "body never ran, so it made nothing; write it without `yield`"
            )
        if has_placeholder(returned) and not any(root.iterdir()):
            raise NotAttempted
        if (root / "SKILL.md").is_file():  # the loader's own words would say which call to make, and name /tmp
            return wrong(
                "your function wrote SKILL.md straight into the folder it was given: that folder holds skills, "
                "each in a folder of its own (a skill is <folder>/<name>/SKILL.md)"
            )
        try:  # read as Skills.from_directory reads it; it refuses no skills at all, said here in the check's words
            loaded, rejected = scan_skills(root)
        except Exception as error:
            return wrong(f"Skills.from_directory refused the folder: {_without(root, str(error))}")
        if "gift-wrapping" not in (names := [s.name for s in loaded]):
            why = "".join(
                f"; {folder!r} was left out: {_without(root, reason)}" for folder, reason in sorted(rejected.items())
            )
            return wrong(f"no skill 'gift-wrapping' was loaded; found {names}{why or _made(root)}")
        skills = Skills(loaded, rejected)
        skill = skills.get("gift-wrapping")
        if not skill.body.strip():  # the loader already refuses an empty description, saying so
            return wrong(
                "the skill has no instructions: write them in SKILL.md after the front matter's closing `---` "
                "(its body, level 1)"
            )
        if problem := _description_problem(skill.name, skill.description):
            return problem
        if skill.description not in skills.system_prompt():
            return wrong("the description does not reach the level-0 prompt")
        return right(f"level 0 shows: gift-wrapping — {skill.description}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


ABOUT_GIFTS = re.compile(r"\b(?:gift|wrap|present)|礼|包装|赠", re.IGNORECASE)
"""What a description of the gift-wrapping skill names, in English or in Chinese (礼品, 包装): gifts, wrapping."""
FILLER = frozenset({"a", "an", "the", "skill"})
"""Words that, beside the name's own, add nothing to a description ("The gift-wrapping skill")."""


def _description_problem(name: str, description: str) -> Verdict | None:
    """The ✗ for a description the model could not choose the skill by: one naming neither gifts nor wrapping
    ("A demo skill.", "TODO"), or one made of the name's own words alone ("Gift wrapping."); None when it will do.
    It cannot judge the prose, only that it speaks of the skill and says more than its name."""
    if not ABOUT_GIFTS.search(description):
        return wrong(
            f"the description {show(description)} says nothing of what the skill does: at level 0 the model chooses "
            "a skill by its name and description alone, so the description says what the skill does and when to "
            "use it"
        )
    words = {word.lower() for word in re.findall(r"[^\W_]+", description)}
    if words <= FILLER | set(name.lower().split("-")):
        return wrong(
            f"the description {show(description)} only repeats the skill's name: say what the skill does and when "
            "to use it (at level 0 the model chooses a skill by its description)"
        )
    return None


def _made(root: Path) -> str:
    """What the learner's function made in `root` (at most 8 paths, relative, sorted), so a
    misnamed `skill.md` or a folder one level too deep shows; "" when it made nothing."""
    made = sorted(path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file())
    if not made:
        return "; your function made no file in the folder it was given"
    shown = ", ".join(made[:8]) + (f" and {len(made) - 8} more" if len(made) > 8 else "")
    return f"; your function made {shown} (a skill is <folder>/<name>/SKILL.md, in capitals)"


def _named_root(root: Path, text: str) -> str:
    """`text` with the temporary folder's path (as given, or resolved through a symlink) written `root`, the
    parameter's name: what the learner's code raised then reads the same on every run."""
    for path in sorted({str(root), str(root.resolve())}, key=len, reverse=True):
        text = text.replace(path, "root")
    return text


def _without(root: Path, text: str) -> str:
    """`text` without the temporary folder's path (`root/…` → `…`, `root` → "root"): the same on every run."""
    return text.replace(str(root) + os.sep, "").replace(str(root), "root")


@answer_exercise(
    "w10.level0",
    "at level 0 (the system prompt), which of a skill's parts does the model see? (True/False each)",
    answer={"name": True, "description": True, "SKILL.md body": False, "resources": False},
    comment="True or False",
    hint="level 0 is paid on every request, so it holds only what lets the model choose a skill.",
)
def check_level0(answer: Any) -> Verdict:
    from toolkit.skills.course import course_skills

    skills = course_skills()
    prompt = skills.system_prompt()
    skill = skills.get("logistics-complaint")
    actual = {
        "name": skill.name in prompt,
        "description": skill.description in prompt,
        "SKILL.md body": skill.body.strip()[:80] in prompt,
        "resources": any(text.strip()[:80] in prompt for text in skill.resources.values()),
    }
    if problem := dict_answer_problem(answer, actual, (True, False)):
        return problem
    found = misses(answer, actual, lambda key, said, seen: f"{key}: {'in' if seen else 'not in'} the level-0 prompt")
    return verdict_of(found, "names and descriptions only; the rest is loaded on demand.")


PATHS = ["notes/todo.md", "../../secret.txt", "notes/../../../secret.txt", "escape-link", "%2e%2e%2fsecret.txt"]
_PATHS = tuple(PATHS)
"""The checker's own copy: a learner who changes PATHS (the notebook prints it) cannot change the truth."""


@exercise(
    "w10.escape",
    10,
    "predict",
    "which of these paths can read_skill_resource read from skill-a? (secret.txt lies outside the skill)",
    starter="""
        from toolkit.exercises import check
        from toolkit.exercises.week10 import PATHS

        print(PATHS)
        answer = {...}   # the set of paths that can be read
        check("w10.escape", answer)
        """,
    solution="""
        from toolkit.exercises import check
        from toolkit.exercises.week10 import PATHS

        print(PATHS)
        answer = {"notes/todo.md"}
        check("w10.escape", answer)
        """,
    hint="a resource is a key in a list made when the skill was loaded: only the skill's own regular files.",
)
def check_escape(answer: Any) -> Verdict:
    from toolkit.chat.messages import ToolCall
    from toolkit.skills.offer import Skills

    world = Path(tempfile.mkdtemp())
    try:
        (world / "secret.txt").write_text("TOP SECRET")
        folder = world / "skills" / "skill-a"
        (folder / "notes").mkdir(parents=True)
        (folder / "SKILL.md").write_text("---\nname: skill-a\ndescription: A demo skill.\n---\nRead notes/todo.md.\n")
        (folder / "notes" / "todo.md").write_text("1. check the trace")
        (folder / "escape-link").symlink_to(world / "secret.txt")
        activate, read = Skills.from_directory(world / "skills").management_tools()
        activate.execute(ToolCall(id="a", name="activate_skill", arguments=json.dumps({"name": "skill-a"})))
        readable = set()
        for path in _PATHS:
            result = read.execute(
                ToolCall(id="c", name="read_skill_resource", arguments=json.dumps({"skill": "skill-a", "path": path}))
            )
            if not result.is_error:
                readable.add(path)
    finally:
        shutil.rmtree(world, ignore_errors=True)
    if isinstance(answer, (set, frozenset, list, tuple)):  # a pathlib path is the text of its path, `/` between parts
        answer = type(answer)(p.as_posix() if isinstance(p, PurePath) else p for p in answer)
    if problem := set_problem(answer, "paths"):
        return problem
    said = as_set(answer) or set()
    if other := sorted(said - set(_PATHS)):  # never tried: "refused" would be a guess
        return wrong(
            f"{other[0]!r} is not one of PATHS; answer with those of its paths that can be read, as PATHS writes them"
        )
    if said == readable:
        return right(f"only {sorted(readable)}: nothing escapes the skill.")
    leaks = sorted(said - readable)
    more = len(readable - said)
    return wrong(f"refused: {leaks}" if leaks else f"{more} more of the paths can be read")


@answer_exercise(
    "w10.owned_tool",
    "activate logistics-complaint in request 1's reply: in which request is open_logistics_ticket first offered?",
    answer=2,
    comment="the request number (1 = the first request of the turn)",
    hint="a skill's own tools join the effective set at the refresh after its activation result.",
)
def check_owned_tool(answer: Any) -> Verdict:
    import datetime

    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.course.assistant import shop_registry
    from toolkit.course.shop import load_shop
    from toolkit.loop.run import COURSE, run_loop
    from toolkit.skills.course import course_skills

    model = ScriptedModel(
        [
            call("activate_skill", {"name": "logistics-complaint"}),
            call("open_logistics_ticket", orderId="SN202610200002", problem="stuck"),
            "已登记。",
        ]
    )
    run_loop(
        model,
        [UserMessage(content="我的快递 SN202610200002 三天没动了！")],
        registry=shop_registry(load_shop(today=datetime.date(2026, 10, 25))),
        providers=[cast(Any, course_skills().provider())],
        options=COURSE,
    )
    first = next((i for i, r in enumerate(model.requests, 1) if "open_logistics_ticket" in r.tools), None)
    if problem := number_problem(answer, "a request number", least=1):
        return problem
    if answer == first:
        return right(f"request {first}: the activation result is in the conversation, so the tool is offered.")
    return wrong(f"it is not first offered in request {answer}" + (" — not before activation" if answer == 1 else ""))
