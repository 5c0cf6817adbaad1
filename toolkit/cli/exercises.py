"""`python -m toolkit exercises [--week N] [--solutions DIR] [--update NOTEBOOK…]`: the course's exercises.

Without options: one line per exercise — id, week, kind, task. `--solutions DIR` writes every
course notebook (from `--notebooks`, default `notebooks`) into DIR with each exercise cell's
starter code replaced by its solution (not executed: run `toolkit notebooks` or `toolkit grade`
on them); DIR must not be the notebooks folder itself (refused: it would overwrite the starters). `--update` rewrites the Exercises section at the end of the given course notebooks
from the registry, leaving every other cell as it is (then run `toolkit notebooks` on them). An
option that would do nothing here (`--week` with `--solutions` or `--update`, `--notebooks`
without `--solutions`, both `--solutions` and `--update`) is one line and exit 2.

Leaves out: executing anything.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from toolkit.cli.arguments import given_path

EXIT_STATUS = "0 when the list or the notebooks are written"
"""What `--help` says of this command's exit status, before what every command shares
(`toolkit.cli.main.SHARED_EXIT_STATUS`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--week", type=int, help="list only this week's exercises")
    parser.add_argument(
        "--solutions", type=given_path, metavar="DIR", help="write the notebooks with solutions into DIR"
    )
    parser.add_argument(
        "--notebooks",
        type=given_path,
        default=None,
        metavar="DIR",
        help="where --solutions reads the course notebooks (default: notebooks)",
    )
    parser.add_argument(
        "--update",
        type=given_path,
        nargs="+",
        action="extend",  # given twice, both options' notebooks (argparse's "store" kept the last's alone)
        metavar="NOTEBOOK",
        help="rewrite the Exercises section of these course notebooks (repeatable)",
    )


def run(args: argparse.Namespace) -> int:
    from toolkit.exercises.core import all_exercises

    if problem := _unused_option(args):
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if args.solutions is not None:
        return write_solutions(args.notebooks or Path("notebooks"), args.solutions)
    if args.update:
        return update(args.update)
    rows = [e for e in all_exercises() if args.week is None or e.week == args.week]
    if not rows:
        weeks = sorted({e.week for e in all_exercises()})
        print(f"error: no exercises in week {args.week}: the weeks are {weeks[0]} to {weeks[-1]}", file=sys.stderr)
        return 2
    width = max((len(e.id) for e in rows), default=2)
    print(f"{'id':{width}}  week  {'kind':8}  task")
    for e in rows:
        print(f"{e.id:{width}}  {e.week:>4}  {e.kind:8}  {e.task}")
    print(f"\n{len(rows)} exercise{'' if len(rows) == 1 else 's'}")
    return 0


def _unused_option(args: argparse.Namespace) -> str:
    """What is wrong when an option given would do nothing ("" when none): each would be ignored
    without a word, and `--week 3 --solutions DIR` would write every week's notebooks."""
    if args.solutions is not None and args.update:
        return "give --solutions DIR or --update NOTEBOOK..., not both"
    if args.week is not None and (args.solutions is not None or args.update):
        return (
            "--week lists one week's exercises; --solutions and --update write every exercise of the notebooks "
            "they are given: leave --week out"
        )
    if args.notebooks is not None and args.solutions is None:
        return "--notebooks says where --solutions reads the course notebooks from; give --solutions DIR too"
    return ""


def write_solutions(source: Path, target: Path) -> int:
    from toolkit.errors import ConfigurationError
    from toolkit.exercises import notebook_file
    from toolkit.exercises.catalog import NOTEBOOKS
    from toolkit.exercises.notebook import fill_solutions

    if not source.is_dir():
        raise FileNotFoundError(f"no notebooks folder {source}; pass --notebooks DIR")
    if target.is_dir() and target.resolve() == source.resolve():
        raise ConfigurationError(
            f"exercises --solutions {target}: that is the notebooks folder itself, and the solutions would "
            "overwrite the course notebooks' starter code; give another folder, e.g. --solutions solutions"
        )
    if target.exists() and not target.is_dir():
        raise ConfigurationError(
            f"exercises --solutions {target}: that is a file, and the solutions are a folder of notebooks; give a "
            "folder (a new one is made), e.g. --solutions solutions"
        )
    _make_folder(target)
    for name in NOTEBOOKS.values():
        path = source / name
        if not path.is_file():
            raise FileNotFoundError(f"no course notebook {path}")
        notebook = read(path)
        filled = fill_solutions(notebook)
        notebook_file.write(notebook, target / name)
        print(f"{target / name}: {filled} exercise{'' if filled == 1 else 's'} solved")
    return 0


def _make_folder(target: Path) -> None:
    """Make the `--solutions` folder (and its parents); one line saying why when it cannot be made."""
    from toolkit import files
    from toolkit.errors import ConfigurationError

    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a link loop says "File exists" here: the link itself is what exists
        why = files.not_a_file(target) if target.is_symlink() else (exc.strerror or str(exc))
        raise ConfigurationError(
            f"exercises --solutions {target}: cannot make that folder ({why}); give a folder you may write, "
            "e.g. --solutions solutions"
        ) from None


def update(paths: list[Path]) -> int:
    from toolkit.errors import ConfigurationError
    from toolkit.exercises import notebook_file
    from toolkit.exercises.catalog import week_of_notebook
    from toolkit.exercises.notebook import with_exercises

    for path in paths:
        week = week_of_notebook(path.name)
        if week is None:
            raise ConfigurationError(f"{path.name} is not a course notebook: its name starts with no week number")
        notebook = read(path)
        notebook_file.write(with_exercises(notebook, week), path)
        print(f"{path}: Exercises section of week {week} written")
    return 0


def read(path: Path) -> Any:
    """The notebook at `path`; one line naming the file when it is missing or not a notebook."""
    from toolkit.cli import notebooks
    from toolkit.errors import ConfigurationError
    from toolkit.exercises import notebook_file

    notebooks.check_file(path)
    try:
        return notebook_file.read(path)  # a byte-order mark too, as `grade` reads it
    except ConfigurationError:  # too large (it names the file and the cap)
        raise
    except Exception as exc:  # not JSON, not UTF-8, not a notebook, an unknown nbformat version
        raise ConfigurationError(notebook_file.unreadable(path, exc)) from None
