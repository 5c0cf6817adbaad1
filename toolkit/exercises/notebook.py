"""The Exercises section of a course notebook: written from the registry, filled with solutions.

Every cell this module writes carries a tag, so the section can be rewritten without touching
any other cell, and a grader can find the exercises in a submission:

    exercises-section     the "## Exercises" introduction
    exercise-task         the task of one exercise (markdown)
    exercise:<id>         the exercise's code cell (starter code, or the solution)
    next-notebook         the closing links: the next notebook and the week's checklist

Leaves out: executing the notebook (`toolkit notebooks` does that).
"""

from __future__ import annotations

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
        cells.append(nbformat.v4.new_markdown_cell(intro, metadata={"tags": [SECTION_TAG]}))
        cells.append(
            nbformat.v4.new_code_cell(
                "from toolkit.exercises import check, hint, solution", metadata={"tags": [SECTION_TAG]}
            )
        )
    for n, ex in enumerate(exercises, 1):
        text = sentence(ex.task)
        task = f"**{n}. `{ex.id}`** — *{ex.kind_text}*. {text}"
        cells.append(nbformat.v4.new_markdown_cell(task, metadata={"tags": [TASK_TAG]}))
        source = (ex.solution if solved else ex.starter).rstrip("\n")
        cells.append(nbformat.v4.new_code_cell(source, metadata={"tags": [CODE_PREFIX + ex.id]}))
    cells.append(nbformat.v4.new_markdown_cell(closing(week), metadata={"tags": [NEXT_TAG]}))
    return cells


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
    """The notebook with its Exercises section (re)written at the end; other cells untouched."""
    notebook.cells = [c for c in notebook.cells if not is_own(c)] + section_cells(week, solved=solved)
    return notebook


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
