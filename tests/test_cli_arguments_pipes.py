"""An input file given as a pipe (`--cases <(command)`, `--cases /dev/stdin` fed by `|`) reaches
the command whole: the argument check does not read it first."""

import os
from pathlib import Path

from toolkit.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "data"


def test_drill_cases_from_a_pipe_are_read_by_the_drill(capsys):
    """Before: the check read the pipe to the end to see it was UTF-8, so the drill found it
    empty: 'columns are None ... Fix the header row', exit 2."""
    read, write = os.pipe()
    os.write(write, (DATA / "drill_cases.csv").read_bytes())  # a few kB: the pipe holds it
    os.close(write)
    try:
        assert main(["drill", "--cases", f"/dev/fd/{read}", "--today", "2026-10-25"]) == 0
    finally:
        os.close(read)
    assert capsys.readouterr().out.endswith(" passed, 0 failed\n")
