"""The Exercises section of a course notebook: written from the registry, filled with solutions.

Every cell this module writes carries a tag, so the section can be rewritten without touching
any other cell, and a grader can find the exercises in a submission:

    exercises-section     the "## Exercises" introduction
    exercise-task         the task of one exercise (markdown)
    exercise:<id>         the exercise's code cell (starter code, or the solution)
    next-notebook         the closing links: the next notebook and the week's checklist

The cells keep to the notebook's nbformat version: in one saved before cell ids (4.0–4.4: classic
Jupyter, JupyterLab 3, Colab, the course's own files) no cell has an id, as its schema wants; in a
4.5 one (JupyterLab 4, VS Code) each cell this module writes has an id made from its tag
(`exercise-w6-round_trips`), so rewriting the section gives the same file every time.

Leaves out: executing the notebook (`toolkit notebooks` does that).
"""

from __future__ import annotations

import re

import nbformat

from toolkit.exercises.catalog import NOTEBOOKS
from toolkit.exercises.core import Exercise, all_exercises

SECTION_TAG = "exercises-section"
TASK_TAG = "exercise-task"
CODE_PREFIX = "exercise:"
NEXT_TAG = "next-notebook"
OWN_TAGS = (SECTION_TAG, TASK_TAG, NEXT_TAG)
CHECKLIST = "README.md#self-check-week-by-week"

TITLES = {
    0: "Welcome",
    1: "Week 1 — The first call",
    2: "Week 2 — Reliable calls",
    3: "Week 3 — Tool calling",
    4: "Week 4 — AI services",
    5: "Week 5 — Schema reflection",
    6: "Week 6 — The round-trip loop",
    7: "Week 7 — Compensation",
    8: "Week 8 — Tool search",
    9: "Week 9 — MCP",
    10: "Week 10 — Agent Skills",
}

INTRO = """## Exercises

Each code cell below is one exercise. Replace every `...` with your answer and run the cell:
`check` answers ✓ or ✗, says what is wrong, and gives a hint after a failed try. Until you
change it, a cell says *not attempted yet*.

- `hint("{first}")` shows an exercise's hint at any time;
- `solution("{first}")` shows one answer — only when you ask for it.

The checks run your code against the package's own functions, or run the real thing and
compare it with your prediction: *predict* exercises want your guess **before** you run
anything.
"""


LAST_TAG = "toolkit-grade-last"
"""The tag of the cell `toolkit grade`'s worker adds at the end of a submission (it shows every check's record)."""
TIMED_OUT = "toolkit_grade_timed_out"
"""The cell metadata key `toolkit grade`'s worker sets (True) on a cell it interrupted at the time limit."""


CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](w\d+\.\w+)["']""")
"""A code cell's call of check() with an exercise id, as every starter cell writes it: `check("w6.window", answer)`."""


def cell_exercises(notebook: nbformat.NotebookNode) -> list[str]:
    """The exercises the notebook has a cell for: tagged exercise cells, then the course's exercises whose
    check() a code cell names."""
    ids = [i for i in (exercise_id(c) for c in notebook.cells) if i]
    known = {e.id for e in all_exercises()}
    for cell in notebook.cells:
        source = cell.get("source")
        if cell.get("cell_type") == "code" and isinstance(source, str):
            ids += [i for i in CHECK_CALL.findall(source) if i in known]
    return ids


def exercise_id(cell: nbformat.NotebookNode) -> str | None:
    """The exercise id of a tagged code cell, else None."""
    for tag in cell_tags(cell):
        if tag.startswith(CODE_PREFIX):
            return str(tag[len(CODE_PREFIX) :])
    return None


def cell_tags(cell: nbformat.NotebookNode) -> list[str]:
    """The cell's string tags (a hand-edited notebook may hold anything there)."""
    metadata = cell.get("metadata", {})
    tags = metadata.get("tags", []) if isinstance(metadata, dict) else []
    return [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []


def is_own(cell: nbformat.NotebookNode) -> bool:
    return exercise_id(cell) is not None or any(t in OWN_TAGS for t in cell_tags(cell))


def week_exercises(week: int) -> list[Exercise]:
    return [e for e in all_exercises() if e.week == week]


def section_cells(week: int, *, solved: bool = False) -> list[nbformat.NotebookNode]:
    """The Exercises section of a week, then the closing links."""
    exercises = week_exercises(week)
    cells = []
    if exercises:
        intro = INTRO.replace("{first}", exercises[0].id)
        cells.append(nbformat.v4.new_markdown_cell(intro, metadata={"tags": [SECTION_TAG]}, id=SECTION_TAG))
        cells.append(
            nbformat.v4.new_code_cell(
                "from toolkit.exercises import check, hint, solution", metadata={"tags": [SECTION_TAG]}, id=SECTION_TAG
            )
        )
    for n, ex in enumerate(exercises, 1):
        text = sentence(ex.task)
        task = f"**{n}. `{ex.id}`** — *{ex.kind_text}*. {text}"
        cells.append(nbformat.v4.new_markdown_cell(task, metadata={"tags": [TASK_TAG]}, id=cell_id(TASK_TAG, ex.id)))
        source = (ex.solution if solved else ex.starter).rstrip("\n")
        code_id = cell_id("exercise", ex.id)
        cells.append(nbformat.v4.new_code_cell(source, metadata={"tags": [CODE_PREFIX + ex.id]}, id=code_id))
    cells.append(nbformat.v4.new_markdown_cell(closing(week), metadata={"tags": [NEXT_TAG]}, id=NEXT_TAG))
    return cells


def cell_id(*parts: str) -> str:
    """A cell id from words: what the schema allows (letters, digits, `-`, `_`; at most 64), `.` as `-`."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", "-".join(parts))[:64]


def fit_ids(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The cells' ids as the notebook's version wants them (in place, returned): none before 4.5; from 4.5
    on, each own cell's id unique (a second `exercises-section` is `exercises-section-2`), the others' kept."""
    if (notebook.get("nbformat", 4), notebook.get("nbformat_minor", 0)) < (4, 5):
        for cell in notebook.cells:
            cell.pop("id", None)
        return notebook
    taken = {c.get("id") for c in notebook.cells if not is_own(c)}
    for cell in notebook.cells:
        if is_own(cell):
            base, n = str(cell.get("id") or "cell"), 2
            while cell.get("id") in taken:
                cell["id"] = f"{base[:60]}-{n}"
                n += 1
            taken.add(cell["id"])
    return notebook


def sentence(task: str) -> str:
    """A task as the start of a sentence: a first plain word capitalised ("write" → "Write"), a first
    name kept as the code spells it (`query_order`, never "Query_order": that names nothing); a full stop
    added unless it ends in one."""
    first = task.split(maxsplit=1)[0] if task.strip() else ""
    text = f"{task[0].upper()}{task[1:]}" if first.isalpha() else task
    return text + ("" if text.endswith((".", "?", "!", ")")) else ".")


def closing(week: int) -> str:
    """The last cell: where to go next, and the week's checklist."""
    checklist = f"[the self-check list]({CHECKLIST}) in the course map"
    if week + 1 in NOTEBOOKS:
        nxt = NOTEBOOKS[week + 1]
        return f"---\n**Next:** [{TITLES[week + 1]}]({nxt}) · before you go, tick this week in {checklist}."
    return f"---\n**This was the last week.** Tick it in {checklist}, and go back to [the course map](README.md)."


def with_exercises(notebook: nbformat.NotebookNode, week: int, *, solved: bool = False) -> nbformat.NotebookNode:
    """The notebook with its Exercises section (re)written at the end; other cells untouched (but for
    their ids in a notebook saved before cell ids, which its schema has no place for: `fit_ids`)."""
    notebook.cells = [c for c in notebook.cells if not is_own(c)] + section_cells(week, solved=solved)
    return fit_ids(notebook)


def fill_solutions(notebook: nbformat.NotebookNode) -> int:
    """Replace every exercise cell's code with its solution (in place); returns how many."""
    from toolkit.exercises.core import get

    filled = 0
    for cell in notebook.cells:
        ex_id = exercise_id(cell)
        if cell.cell_type == "code" and ex_id is not None:
            cell.source = get(ex_id).solution.rstrip("\n")
            cell.outputs, cell.execution_count = [], None
            filled += 1
    return filled
