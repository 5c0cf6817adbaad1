"""Write pytest's assertion-rewritten bytecode of the test files once, before pytest-xdist's workers start.

Every worker imports every test module, and pytest rewrites each module's asserts before compiling it:
about half of a worker's collection. Where PYTHONDONTWRITEBYTECODE is set (a CI image, a container)
pytest keeps none of that work, so each worker of each run rewrites every file again. pytest reads a
rewritten file it finds in `__pycache__` whatever that setting says (its files are checked against the
source's hash, not its time), so `course.py test` runs this first: the files are rewritten once, on every
core, by pytest's own functions, and each worker reads them.

Leaves out: files other than `test_*.py`, `*_test.py` and `conftest.py` (pytest's default patterns, which
this project keeps); the plugins' own modules, which pytest rewrites itself; the
`enable_assertion_pass_hook` setting (off here: this writes what pytest writes with it off). An
optimisation only: with a pytest whose internal functions differ it writes nothing, and the workers
rewrite as they would have.

    python tests/prewrite_asserts.py FOLDER...     (prints nothing; exit status 0 unless misused)
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor
from fnmatch import fnmatch
from pathlib import Path

PATTERNS = ("test_*.py", "*_test.py", "conftest.py")


class _Quiet:
    """What pytest's writer reports its errors to (`state.trace`); a file it cannot write is skipped."""

    def trace(self, message: str) -> None:
        pass


def files_to_rewrite(folders: list[str]) -> list[Path]:
    """The files under `folders` pytest would rewrite, absolute as pytest imports them, largest first."""
    found = [
        Path(os.path.abspath(path))
        for folder in folders
        for path in Path(folder).rglob("*.py")
        if any(fnmatch(path.name, pattern) for pattern in PATTERNS) and "__pycache__" not in path.parts
    ]
    return sorted(found, key=lambda path: (-path.stat().st_size, str(path)))


def prewrite(path: Path) -> bool:
    """Rewrite `path` and write it where pytest looks for it, unless a current one is there; whether written."""
    from _pytest.assertion import rewrite

    pyc = rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
    if rewrite._read_pyc(path, pyc) is not None:
        return False
    try:
        source_hash, code = rewrite._rewrite_test(path, None)  # type: ignore[arg-type]  # None: the pass hook off
    except (SyntaxError, ValueError, OSError):  # left to the test run, which reports it
        return False
    try:
        pyc.parent.mkdir(exist_ok=True)
    except OSError:
        return False
    return rewrite._write_pyc(_Quiet(), code, source_hash, pyc)  # type: ignore[arg-type]


def _prewrite_all(paths: list[Path]) -> int:
    return sum(prewrite(path) for path in paths)


def main(folders: list[str]) -> int:
    """Rewrite the test files under `folders` on every core this process may use; how many were written."""
    paths = files_to_rewrite(folders)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    shares = [paths[i :: max(1, cores)] for i in range(max(1, cores))]
    if len(paths) < 8 or cores == 1:
        return _prewrite_all(paths)
    with ProcessPoolExecutor(max_workers=cores) as pool:
        return sum(pool.map(_prewrite_all, shares))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        sys.exit(2)
    try:
        main(sys.argv[1:])
    except (ImportError, AttributeError, TypeError):  # another pytest: its workers rewrite the files themselves
        pass
