"""One learner regraded into the class's grades CSV (`toolkit grade submissions/alice --update`).

The class's `grades.csv` is read as it is (`read_grades`: the header `grade` writes, UTF-8 after a byte-order mark),
and the rows of the notebooks graded again — and of any notebook in a folder graded again, one she has renamed or
removed since — are replaced by the new ones, where the first of them stood (the class's order kept); a learner
graded for the first time is added in the class's order of names (`merged`). Every other row is kept as its text
was. A notebook is named by its path as the class's run gave it (`submissions/alice/06_….ipynb`) or by the same file
from another working folder (an absolute path): both name one file, and the CSV keeps its name for it. The merged
CSV replaces the class's only once written whole (`write_grades`).

Two runs may update one CSV at once (alice regraded in one terminal while bob is in another, or a script regrading
learners side by side): each merges its rows into the CSV as it is when its grading ends, not as it was read when
its grading began, and holds the file (`locked`, an advisory lock) from that read to the write, so no run's rows are
replaced by another's older copy of the class (`update_grades`).

Leaves out: grading (`toolkit.exercises.grade`), and telling apart two notebooks of the class whose rows name them
as a different working folder did (the class's run from `~`, the learner's from `~/sub`): run both from one folder.
"""

from __future__ import annotations

import csv
import io
import os
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

from toolkit import files
from toolkit.course.spreadsheet import CSV_ENCODING, as_text, csv_encoding
from toolkit.errors import ConfigurationError
from toolkit.exercises.csv_lock import locked
from toolkit.exercises.grade import HEADER, Row, path_order, path_text

NOT_A_GRADES_CSV = (
    "grade --update {out}: {why}; --update merges the rows graded now into the CSV an earlier `toolkit grade` "
    "wrote — grade the class without --update first, or give that CSV with --out"
)
"""The teacher's error when the CSV to update is missing or is not one `grade` wrote (nothing is graded)."""


def read_grades(out: Path) -> list[list[str]]:
    """The rows of the grades CSV `out` as their text (the header left out); `NOT_A_GRADES_CSV` when there is no
    such file, it is not UTF-8 (saved again by a spreadsheet in another encoding) or its first line is not `HEADER`."""
    limit = csv.field_size_limit(2**31 - 1)  # a learner's cell tag of any length is a field grade wrote (a C long)
    try:
        with open(out, encoding=CSV_ENCODING, newline="") as f:
            table = list(csv.reader(f))
    except FileNotFoundError:
        raise ConfigurationError(NOT_A_GRADES_CSV.format(out=out, why="there is no such file")) from None
    except UnicodeDecodeError:
        why = "it is not UTF-8 text (saved again in another encoding?)"
        raise ConfigurationError(NOT_A_GRADES_CSV.format(out=out, why=why)) from None
    except (OSError, csv.Error) as exc:
        why = f"it cannot be read ({type(exc).__name__}: {exc})"
        raise ConfigurationError(NOT_A_GRADES_CSV.format(out=out, why=why)) from None
    finally:
        csv.field_size_limit(limit)
    if not table or table[0] != HEADER:
        why = f"its first line is not {','.join(HEADER)}"
        raise ConfigurationError(NOT_A_GRADES_CSV.format(out=out, why=why))
    return table[1:]


def _key(text: str) -> str:
    """The file a notebook's path names, however it is written: relative or absolute, its accents composed or not
    (NFC: `José/` unzipped from a Mac's archive, `e` and a combining accent, is the `José/` typed on the command line
    and one learner, as `grade.learners` reads her), in the system's case."""
    return os.path.normcase(os.path.abspath(unicodedata.normalize("NFC", text)))


def is_regraded(notebook: str, graded: Sequence[Path], folders: Sequence[Path]) -> bool:
    """Whether a row of the CSV (its `notebook` text) is one the run replaces: a notebook graded now, or one inside
    a folder graded now."""
    key = _key(notebook)
    if any(key in (_key(path_text(p)), _key(as_text(path_text(p)))) for p in graded):
        return True
    return any(key.startswith(os.path.join(_key(path_text(f)), "")) for f in folders)


def merged(
    kept: list[list[str]], rows: Sequence[Row], graded: Sequence[Path], folders: Sequence[Path]
) -> list[list[str]]:
    """The CSV's rows (`kept`, as read) with those `is_regraded` replaced by `rows` (as `grade` writes them), put where
    the first replaced row stood; when none was (a learner graded for the first time), before the first row whose
    notebook comes after hers in the class's order (`grade.path_order`: carol between bob and dave, her path relative
    or absolute). A notebook the CSV names already keeps its name there
    (`sub/alice/…` regraded as `/home/t/sub/alice/…`: one file, one name in the CSV)."""
    named = {_key(line[0]): line[0] for line in kept if line}
    new = [[_named(r.notebook, named), as_text(r.exercise), str(int(r.passed)), as_text(r.feedback)] for r in rows]
    out: list[list[str]] = []
    placed = False
    for line in kept:
        if line and is_regraded(line[0], graded, folders):
            if not placed:
                out += new
                placed = True
            continue
        out.append(line)
    if placed or not new:
        return out
    first = _order(new[0][0])
    at = next((i for i, line in enumerate(out) if line and _order(line[0]) > first), len(out))
    return out[:at] + new + out[at:]


def _order(notebook: str) -> tuple[object, ...]:
    """Where a notebook comes in the class's order, however its path is written (relative or absolute)."""
    return path_order(Path(os.path.abspath(notebook)))


def _named(notebook: str, named: dict[str, str]) -> str:
    written = as_text(notebook)
    return named.get(_key(written), named.get(_key(notebook), written))


def as_rows(table: list[list[str]]) -> list[Row]:
    """The rows of the merged CSV as `Row`s (for the scores); a line cut short by hand is read as far as it goes."""
    rows = []
    for line in table:
        if line:
            notebook, exercise, passed, feedback = (line + ["", "", ""])[:4]
            rows.append(Row(notebook, exercise, passed == "1", feedback))
    return rows


def update_grades(
    out: Path,
    kept: list[list[str]],
    rows: Sequence[Row],
    graded: Sequence[Path],
    folders: Sequence[Path],
    waiting: Callable[[], object] | None = None,
) -> list[list[str]]:
    """`rows` merged (`merged`) into the grades CSV `out` as it is now, and written (`write_grades`), while this
    process holds it (`locked`): another run that updated it since `kept` was read keeps its rows, and a whole
    `toolkit grade` run writing it now (which holds it until its rows replace it) is waited for — `waiting` called
    first — and its rows merged into. `kept` (the rows read before grading) stands in for a CSV that cannot be read
    any more (removed, or saved over meanwhile): the rows graded are still written. The merged table is returned."""
    with locked(out, waiting):
        try:
            now = read_grades(out)
        except ConfigurationError:
            now = kept
        table = merged(now, rows, graded, folders)
        write_grades(table, out)
    return table


def write_grades(table: list[list[str]], out: Path) -> Path:
    """`table` as the grades CSV `out` (the header first), written whole to a partial file of its own beside it and
    then put in its place (`files.write_whole`): anything that stops the write half-way (Ctrl-C, SIGTERM, a full
    disk) leaves `out` as it was — the class's rows are never replaced by part of them —, and a whole `toolkit grade`
    run writing its rows to `out`'s `.partial` meanwhile keeps them (that file was removed, and the run's rows with
    it). Where no file can be put next to `out` (or it is no regular file), it is written in place."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(HEADER)
    writer.writerows(table)
    text = buffer.getvalue().encode("utf-8", "backslashreplace").decode("utf-8")  # as the CSV's file writes it
    files.write_whole(out, text, encoding=csv_encoding(Path(os.path.realpath(out))), newline="")
    return out
