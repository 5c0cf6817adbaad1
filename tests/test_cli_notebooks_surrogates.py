"""`toolkit notebooks` given a notebook whose JSON holds a lone surrogate escape (`"\\ud800"`: valid JSON,
which a cut emoji or a tool's output pasted into a cell leaves): nbformat reads it as that code point,
and writing it back as UTF-8 failed: "error: UnicodeEncodeError: 'utf-8' codec can't encode character
'\\ud800' … (set TOOLKIT_DEBUG=1 for the traceback)", the notebook not cleaned (after its run, when it
was run). It is written back with the escape it was read from, so nothing of it is lost."""

import json

import nbformat

from toolkit.cli.main import main

NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "id": "a1",
            "source": "print('\\ud800 and 😀')",
            "metadata": {"collapsed": True},
            "outputs": [],
            "execution_count": None,
        }
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}, "x": 1},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_a_lone_surrogate_is_written_back_escaped_and_the_notebook_cleaned(tmp_path, capsys):
    path = tmp_path / "pasted.ipynb"
    text = json.dumps(NOTEBOOK, ensure_ascii=False).replace("\\\\ud800", "\\ud800")
    path.write_text(text, encoding="utf-8")
    assert "\\ud800" in path.read_text(encoding="utf-8")
    assert main(["notebooks", "--no-execute", str(path)]) == 0
    assert capsys.readouterr() == (f"cleaned: {path}\n", "")
    written = path.read_text(encoding="utf-8")
    assert "\\ud800" in written and "😀" in written
    notebook = nbformat.reads(written, as_version=4)
    assert notebook.cells[0].source == "print('\ud800 and 😀')"
    assert notebook.metadata == {"kernelspec": NOTEBOOK["metadata"]["kernelspec"]}  # cleaned
