"""What a cases file's header row was, said for an error: the drill's and the accuracy suite's
CSV readers refuse a header that is not theirs and say what they found, and how to fix it.

A header of one column holding `;`, tabs or `|` is a file separated by that character (a
spreadsheet in a language that writes decimal commas saves "CSV" with semicolons): the names may
be right, so the fix is how to save the file, not the header row.

Leaves out: reading the file (each reader has its own columns and rows).
"""

from __future__ import annotations

from collections.abc import Sequence

SEPARATORS = {";": "';'", "\t": "tabs", "|": "'|'"}
"""Characters a header of one column may be separated by instead of commas, as an error names them."""


def found_header(fieldnames: Sequence[str] | None) -> str:
    """`csv.DictReader.fieldnames` as an error says it: the columns found, that they are separated
    by another character than commas, or that the file has no header row at all (it is empty:
    `DictReader` gives None, not a list)."""
    if fieldnames is None:
        return "the file is empty (no header row)"
    separator = _separator(fieldnames)
    if separator:
        return f"the columns are separated by {SEPARATORS[separator]}, not commas"
    return f"columns are {list(fieldnames)}"


def header_fix(fieldnames: Sequence[str] | None) -> str:
    """The end of the error about a header that is not the reader's: how to save the file when it
    is separated by another character, else to fix the header row."""
    if fieldnames is not None and _separator(fieldnames):
        return "Fix: save it as 'CSV UTF-8 (Comma delimited)'"
    return "Fix the header row"


def _separator(fieldnames: Sequence[str]) -> str | None:
    """The character a one-column header is separated by, the most used of `SEPARATORS`, if any."""
    if len(fieldnames) != 1:
        return None
    counts = {s: fieldnames[0].count(s) for s in SEPARATORS}
    best = max(counts, key=lambda s: counts[s])
    return best if counts[best] else None
