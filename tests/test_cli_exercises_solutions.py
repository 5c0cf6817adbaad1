"""`toolkit exercises --solutions DIR` never writes over the course notebooks it reads."""

import shutil
from pathlib import Path

import pytest

from toolkit.cli.main import main

COURSE = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.mark.parametrize("spelling", [".", "./", "../notebooks"])
def test_solutions_into_the_notebooks_folder_itself_are_refused_and_the_starters_kept(
    tmp_path, monkeypatch, capsys, spelling
):
    """Before: `--notebooks . --solutions .` replaced every course notebook's starter code with
    its solution, in place, with exit status 0."""
    notebooks = tmp_path / "notebooks"
    shutil.copytree(COURSE, notebooks)
    before = {p.name: p.read_bytes() for p in notebooks.glob("*.ipynb")}
    monkeypatch.chdir(notebooks)
    assert main(["exercises", "--notebooks", ".", "--solutions", spelling]) == 2
    assert capsys.readouterr().err == (
        f"error: exercises --solutions {Path(spelling)}: that is the notebooks folder itself, and the solutions "
        "would overwrite the course notebooks' starter code; give another folder, e.g. --solutions solutions\n"
    )
    assert {p.name: p.read_bytes() for p in notebooks.glob("*.ipynb")} == before
