"""`toolkit eval --out` never writes over the `--cases` file it reads."""

import shutil
from pathlib import Path

from toolkit.cli.main import main

CASES = Path(__file__).resolve().parents[1] / "data" / "accuracy_cases.csv"


def test_an_out_that_names_the_cases_file_is_refused_before_anything_runs(tmp_path, monkeypatch, capsys):
    """Before: `eval --cases mine.csv --out ./mine.csv` ran the suite and replaced the teacher's
    cases with the results."""
    mine = tmp_path / "mine.csv"
    shutil.copy(CASES, mine)
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--cases", "mine.csv", "--out", "./mine.csv"]) == 2
    assert capsys.readouterr() == (
        "",
        "error: eval --out mine.csv: that is the --cases file, and the results would overwrite it; give another "
        "file, e.g. --out out/w3-tool-accuracy.csv\n",
    )
    assert mine.read_bytes() == CASES.read_bytes()
