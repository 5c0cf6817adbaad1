"""`python -m toolkit grade NOTEBOOK_OR_FOLDER… [--out grades.csv] [--scores scores.csv] [--update] [--timeout S] [--memory SIZE]`.

Runs each notebook in a fresh kernel, offline (the LLM_* variables are removed), with a time
limit per cell (`--timeout`) and one for the whole notebook that follows from it (that limit for each code cell,
plus a minute; a notebook in which no cell finished for the limit plus a minute is stopped then; each counting
the seconds the notebook had, not a loaded host's wait for a CPU: `toolkit.exercises.clock`), and writes
`notebook,exercise,passed,feedback` — one row per notebook and exercise — then prints a
summary table. A file that is not a notebook, crashes or hangs gets a row saying so
and grading goes on. An `--out` that names one of the submissions is refused before anything
runs: the CSV would overwrite a learner's work (as would its partial file, below). So is an `--out` or a
`--scores` holding something else than a CSV of its kind (`held_otherwise`: a roster named by mistake, a
link to `/etc/passwd`), which the CSV would replace, and a path that
does not exist (a typo) and a set of paths with no notebook in them: one line, exit status 2, and
the CSV left as it was. Rows are written as each notebook is graded, to `OUT.partial` next to the
CSV, which replaces it when the run ends: Ctrl-C half-way keeps the rows of every notebook graded
before, and says how far it got (exit 130), as SIGTERM (`kill`, a CI job's time limit: exit 143) and
SIGHUP (the terminal or SSH session closed: exit 129) do, and a submission that changed the installed course or
one still to grade (the summary and that line, then the error, exit 2);
a run killed hard (SIGKILL, power loss) leaves the previous CSV as it was, and the partial file (the
next run overwrites it). See
`toolkit.exercises.grade`. `--out -` (or `/dev/stdout`, or the file stdout goes to) writes the CSV
alone on stdout, as the rows come, and the summary on stderr. `--scores FILE` writes, when the run ends,
one line per learner: `learner`, the exercises passed in each week graded (`w0` … `w10`), `total` and how many
were `graded` (`toolkit.exercises.grade.week_scores`). `--memory SIZE` (`2G`, `512M`) is the memory each process of
a submission may take (`toolkit.exercises.grade.MEMORY_LIMIT_BYTES` when not given). `--update` merges the rows
graded into the `--out` an earlier run wrote (`toolkit.exercises.regrade`: one learner regraded; a stop merges
those of the notebooks graded before it; one ending while a whole run writes that CSV says so, waits for it and merges
into its rows: `WAITING`), and `--scores` then counts every row of it.

Leaves out: uploading grades anywhere (the CSV is the interface).
"""

from __future__ import annotations

import argparse
import errno
import os
import re
from collections.abc import Callable, Iterator, Sized
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from toolkit.cli.arguments import given_path, held_otherwise, is_stdout, out_file, whole

if TYPE_CHECKING:
    from toolkit.exercises.grade import Row

MAX_TIMEOUT_S = 86_400
"""One day: a longer limit is a slip (and overflows the clocks that wait on the kernel)."""


EXIT_STATUS = (
    "0 when the run ended (failed exercises included); 2 when a submission changed the installed course; "
    "143 after SIGTERM, 129 after SIGHUP (as Ctrl-C: the rows graded are kept)"
)
"""What `--help` says of this command's exit status, before what every command shares
(`toolkit.cli.main.SHARED_EXIT_STATUS`)."""

EXAMPLES = (
    "python -m toolkit grade submissions/ --out grades.csv --scores scores.csv (a class); python -m toolkit grade "
    "submissions/alice --out grades.csv --update --scores scores.csv (one learner again: her rows in the class's "
    "CSV replaced, every other row kept, the scores counted over the whole class)"
)
"""What `--help` shows before the exit status: a class graded, and one learner regraded into the class's CSV
(without `--update` an `--out` is written whole: `--out grades.csv` there would keep her rows alone)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=given_path, help="notebooks, or folders of notebooks")
    parser.add_argument(
        "--out",
        type=out_file,
        default="grades.csv",
        help="the CSV to write (default grades.csv), columns notebook, exercise, passed (1 or 0), feedback: one row "
        "per notebook and exercise; it is replaced when the run ends, Ctrl-C included, and a run killed hard leaves "
        "it as it was",
    )
    parser.add_argument(
        "--scores",
        type=out_file,
        default=None,
        help="also write one line per learner to this CSV, columns learner, one per week graded (w0 … w10: "
        "exercises passed that week), "
        "total (passed in all), graded (exercises graded); a learner is the first folder below the one the notebooks "
        "share (or, where its subfolders hand in the same exercise twice, each subfolder: class-a/alice; notebooks all in one "
        "folder under the course's names, or a copy's, one a week, are that folder's learner: alice), and an "
        "exercise counts once per learner; written when the run ends, not after a stop",
    )
    parser.add_argument(
        "--update",
        action="store_true",
        help="merge into the grades CSV (--out) an earlier run wrote, instead of replacing it: the rows of the "
        "notebooks graded now, and of any in a folder graded now, are replaced where they stood; every other row is "
        "kept as it was (regrade one learner: grade submissions/alice --update); --scores then counts every row of "
        "the CSV; after a stop (Ctrl-C) it holds the rows of the notebooks graded before it",
    )
    parser.add_argument(
        "--timeout",
        type=time_limit,
        default=120,
        help="seconds each cell may run (default 120); a notebook may run that long for each of its code cells, "
        "plus a minute, and is stopped when no cell has finished for that long plus a minute (a cell that does not "
        "stop when interrupted); what it checked before still counts; a loaded host's wait for a CPU is not counted "
        "(up to a minute a cell)",
    )

    parser.add_argument(
        "--memory",
        type=memory_size,
        default=None,
        help="the memory each process of a submission (its kernel, what it starts) may take, e.g. 2G or 512M "
        "(default 4G; at least 256M); past it an allocation fails with a MemoryError in that cell (Unix only)",
    )


MEMORY_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
"""The units `--memory` takes (binary, as `free -h` and Docker's `--memory` count them): 1G = 1024M."""
LEAST_MEMORY_BYTES = 256 * 1024**2
"""The least `--memory`: a kernel with the course's imports needs about that to start at all (under it every
notebook would read "could not be executed")."""
MOST_MEMORY_BYTES = 2**63 - 1
"""The most the system's limit can hold."""
MEMORY_FORMS = (
    "use a number of bytes with K, M, G or T (binary: 1G = 1024M), e.g. 2G or 512M, from 256M "
    "(what a kernel needs to start)"
)


def memory_size(text: str) -> int:
    """Bytes from a size written `2G`, `512M`, `1.5G`, `4GiB` or `4gb` (K, M, G, T: binary), or a number of bytes;
    at least `LEAST_MEMORY_BYTES`."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", text, re.IGNORECASE | re.ASCII)
    size = int(float(found[1]) * MEMORY_UNITS[found[2].upper()]) if found else 0
    if not LEAST_MEMORY_BYTES <= size <= MOST_MEMORY_BYTES:
        raise argparse.ArgumentTypeError(f"{text!r} is not a memory size: {MEMORY_FORMS}")
    return size


def time_limit(text: str) -> int:
    """Seconds per cell: a whole number from 1 to `MAX_TIMEOUT_S`."""
    return whole(
        text, 1, f"is not a time limit: use a whole number of seconds from 1 to {MAX_TIMEOUT_S}", MAX_TIMEOUT_S
    )


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from toolkit.errors import ConfigurationError
    from toolkit.exercises.grade import (
        find_notebooks,
        grade_each,
        grade_into_csv,
        partial_path,
        summary,
        write_scores,
    )

    _check_paths(args.paths, args.out)
    to_stdout = is_stdout(args.out)  # the CSV alone on stdout; the summary and the count on stderr
    scores_to_stdout = args.scores is not None and is_stdout(args.scores)
    say = sys.stderr if to_stdout or scores_to_stdout else sys.stdout
    where = "stdout" if to_stdout else str(args.out)
    notebooks = find_notebooks(args.paths)
    if not notebooks:
        raise ConfigurationError(
            f"grade: no notebook to grade in {_listed(args.paths)} (a folder is searched for *.ipynb); "
            f"nothing was graded and {args.out} was left as it was"
        )
    out = os.path.realpath(args.out)
    partial = str(partial_path(Path(out)))
    if not to_stdout and any(os.path.realpath(path) == out for path in notebooks):
        raise ConfigurationError(
            f"grade --out {args.out}: that is one of the notebooks to grade, and the CSV would overwrite it; "
            "give another file, e.g. --out grades.csv"
        )
    if args.scores is not None:
        _check_scores(args.scores, args.out, notebooks)
    for option, example, fits, what in _REPLACED:
        given = getattr(args, option)
        if given is not None and (held := held_otherwise(given, fits)):
            raise ConfigurationError(
                f"grade --{option} {given}: {held}, not a {what} CSV an earlier run wrote, and the CSV would replace "
                f"it; give another file, e.g. --{option} {example}, or move that one away first"
            )
    if not to_stdout and any(partial in (os.path.realpath(path), os.path.abspath(path)) for path in notebooks):
        raise ConfigurationError(
            f"grade --out {args.out}: the CSV is written first to {partial}, one of the files to grade, and "
            "would overwrite it; give another file, e.g. --out grades.csv"
        )
    kept = _kept_rows(args) if args.update else None
    rows: list[Row] = []
    graded: list[Path] = []  # under --update: the notebooks whose rows are in `rows`
    try:
        with signals_stop(), memory_limit(args.memory):
            if kept is None:
                grade_into_csv(notebooks, sys.stdout if to_stdout else args.out, args.timeout, rows)
            else:
                for path, done in zip(notebooks, grade_each(notebooks, args.timeout)):
                    rows += done
                    graded.append(path)
    except (KeyboardInterrupt, Terminated) as stop:
        how, status = (stop.name, 128 + stop.number) if isinstance(stop, Terminated) else ("Ctrl-C", 130)
        _stopped_update(kept, rows, graded, args)
        _say_stopped(f" ({how})", rows, len(notebooks), where, say)
        return status
    except ConfigurationError:  # a submission changed the install or one still to grade: the rows before it kept
        _stopped_update(kept, rows, graded, args)
        _say_stopped("", rows, len(notebooks), where, say)
        raise  # its error line next, exit status 2 (`toolkit.cli.main`)
    print(summary(rows), file=say)
    every = rows
    if kept is None:
        print(f"\n{_rows(rows)} written to {where}", file=say)
    else:
        every = _write_update(kept, rows, graded, args, say)
    if args.scores is not None:
        write_scores(every, sys.stdout if scores_to_stdout else args.scores)
        print(f"scores per week written to {'stdout' if scores_to_stdout else args.scores}", file=say)
    return 0


@contextmanager
def memory_limit(size: int | None) -> Iterator[None]:
    """`toolkit.exercises.grade.MEMORY_LIMIT_BYTES` set to `size` (when given) for the block, then as it was."""
    from toolkit.exercises import grade

    before = grade.MEMORY_LIMIT_BYTES
    grade.MEMORY_LIMIT_BYTES = before if size is None else size
    try:
        yield
    finally:
        grade.MEMORY_LIMIT_BYTES = before


def _say_stopped(how: str, rows: list[Row], notebooks: int, where: str, say: TextIO) -> None:
    """The summary of what was graded before the run stopped, and where its rows are."""
    import sys

    from toolkit.exercises.grade import summary

    done = len(dict.fromkeys(r.notebook for r in rows))
    print(summary(rows), file=say)
    print(
        f"\nstopped{how} after {done} of {notebooks} notebook{'' if notebooks == 1 else 's'}: "
        f"{'its' if done == 1 else 'their'} {_rows(rows)} {'is' if len(rows) == 1 else 'are'} in {where}",
        file=sys.stderr,
    )


def _stopped_update(
    kept: list[list[str]] | None, rows: list[Row], graded: list[Path], args: argparse.Namespace
) -> None:
    """Under `--update`, the rows of the notebooks graded before a stop merged into the CSV (those of the notebooks
    not reached, and of a renamed one in a folder not finished, kept as they were), as a stop without `--update`
    keeps them; a second Ctrl-C while it is written leaves the CSV as it was (`regrade.write_grades`)."""
    from toolkit.exercises.regrade import update_grades

    if kept is not None:
        update_grades(Path(args.out), kept, rows, graded, [], _waiting(args.out, rows))


def _kept_rows(args: argparse.Namespace) -> list[list[str]]:
    """The rows of the CSV `--update` merges into (`regrade.read_grades`), read before anything is graded;
    `ConfigurationError` when the CSV goes to standard output (there is none to read)."""
    from toolkit.errors import ConfigurationError
    from toolkit.exercises.regrade import read_grades

    if is_stdout(args.out):
        raise ConfigurationError(
            f"grade --update --out {args.out}: the CSV to update is standard output, which holds no earlier rows; "
            "give the grades CSV to merge into, e.g. --out grades.csv"
        )
    return read_grades(Path(args.out))


def _write_update(
    kept: list[list[str]], rows: list[Row], notebooks: list[Path], args: argparse.Namespace, say: TextIO
) -> list[Row]:
    """The CSV of `--update` written (`regrade.merged`: the rows of `notebooks`, all graded, and of any notebook in a
    folder graded), said, and its rows returned (for the scores)."""
    from toolkit.exercises.regrade import as_rows, update_grades

    folders = [path for path in args.paths if path.is_dir()]
    table = update_grades(Path(args.out), kept, rows, notebooks, folders, _waiting(args.out, rows))
    others = len(table) - len(rows)
    print(f"\n{_rows(rows)} written to {args.out}, with {_rows(range(others))} of other notebooks kept", file=say)
    return as_rows(table)


_REPLACED = (
    ("out", "grades.csv", lambda cells: cells[:2] == ["notebook", "exercise"], "grades"),
    ("scores", "scores.csv", lambda cells: cells[:1] == ["learner"], "scores"),
)
"""The CSVs `grade` replaces whole: the option, an example file, whether a header row is theirs, and their name."""


WAITING = (
    "{out}: another `toolkit grade` run is writing this CSV now; waiting for it to end, then the {rows} graded here "
    "are merged into the rows it wrote (Ctrl-C: they are not, and the CSV is left as that run writes it)"
)
"""What `--update` says when the CSV is held by another run (a whole `toolkit grade --out` of the class, which
holds it until it ends): its rows are merged into that run's, not overwritten by them."""


def _waiting(out: Path, rows: Sized) -> Callable[[], None]:
    """What `regrade.update_grades` calls before it waits for another run holding the CSV: `WAITING`, on stderr."""
    import sys

    return lambda: print(WAITING.format(out=out, rows=_rows(rows)), file=sys.stderr, flush=True)


def _check_scores(scores: Path, out: Path, notebooks: list[Path]) -> None:
    """`ConfigurationError` when `--scores` names the grades CSV or a notebook to grade, or its partial file is the
    grades CSV (`--out scores.csv.partial`): either would be overwritten."""
    import os

    from toolkit.errors import ConfigurationError
    from toolkit.exercises.grade import partial_path

    if is_stdout(scores) and is_stdout(out):
        raise ConfigurationError(
            f"grade --scores {scores}: the grades CSV (--out) is written to standard output already; give a file, "
            "e.g. --scores scores.csv"
        )
    target = os.path.realpath(scores)
    partial = str(partial_path(Path(target)))
    if not is_stdout(out) and not is_stdout(scores) and partial == os.path.realpath(out):
        raise ConfigurationError(
            f"grade --scores {scores}: the scores are written first to {partial_path(Path(scores))}, the grades CSV "
            "(--out), and would overwrite it; give another file, e.g. --scores scores.csv"
        )
    if target == os.path.realpath(out) or any(os.path.realpath(path) == target for path in notebooks):
        what = "the grades CSV (--out)" if target == os.path.realpath(out) else "one of the notebooks to grade"
        raise ConfigurationError(
            f"grade --scores {scores}: that is {what}, which the scores would overwrite; give another file, "
            "e.g. --scores scores.csv"
        )


class Terminated(BaseException):
    """SIGTERM (`kill`, a CI job's time limit) or SIGHUP (the terminal or SSH session closed) reached the
    grader: raised where it was, so the run stops as on Ctrl-C — the notebook's worker and kernel killed, the
    CSV holding the rows graded — not ended where it stood, leaving the previous run's CSV as if it were this
    one's, and the worker running. A `BaseException`, as KeyboardInterrupt is: no `except Exception` on the way
    swallows it."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number
        self.name = signal_name(number)


def signal_name(number: int) -> str:
    """The signal's name (`SIGTERM`), as the stop line says it."""
    import signal

    return signal.Signals(number).name


STOPPING = ("SIGTERM", "SIGHUP")
"""The signals that stop a run as Ctrl-C does (those of them this system has: Windows has no SIGHUP)."""


@contextmanager
def signals_stop() -> Iterator[None]:
    """Each of `STOPPING` raises `Terminated` inside the block (`grade`'s run, `eval`'s suite) (in the main thread, the only one a handler can be
    set in); the handlers before are put back after."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(number: int, frame: object) -> None:
        raise Terminated(number)

    numbers = [getattr(signal, name) for name in STOPPING if hasattr(signal, name)]
    before = {number: signal.signal(number, stop) for number in numbers}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def _check_paths(paths: list[Path], out: Path) -> None:
    """`ConfigurationError` naming the paths that do not exist (a dangling link is a submission:
    it gets its row), before anything runs or the CSV is touched."""
    from toolkit.errors import ConfigurationError

    for path in paths:
        try:
            os.lstat(path)
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ENOTDIR):  # a name too long, a folder not searchable
                fix = " (each name at most 255 bytes)" if exc.errno == errno.ENAMETOOLONG else ""
                raise ConfigurationError(
                    f"grade: cannot look at {_listed([path])} ({exc.strerror or exc}); give a path the system can "
                    f"open{fix}; nothing was graded and {out} was left as it was"
                ) from None
        except ValueError:  # a NUL in it: argparse cannot pass one, a caller of this function can
            raise ConfigurationError(
                f"grade: {_listed([path])} holds a NUL character, which no path can; nothing was graded and {out} "
                "was left as it was"
            ) from None
    missing = [path for path in paths if not os.path.lexists(path)]  # a dangling link is a submission
    if missing:
        raise ConfigurationError(
            f"grade: no such file or folder: {_listed(missing)}; nothing was graded and {out} was left as it was"
        )


def _listed(paths: list[Path]) -> str:
    from toolkit.exercises.grade import path_text

    return ", ".join(path_text(path) for path in paths)


def _rows(rows: Sized) -> str:
    return f"{len(rows)} row{'' if len(rows) == 1 else 's'}"
