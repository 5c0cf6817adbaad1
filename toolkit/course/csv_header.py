"""What a cases file's header row was, said for an error: the drill's and the accuracy suite's
CSV readers refuse a header that is not theirs and say what they found.

Leaves out: reading the file (each reader has its own columns and rows).
"""

from __future__ import annotations

from collections.abc import Sequence


def found_header(fieldnames: Sequence[str] | None) -> str:
    """`csv.DictReader.fieldnames` as an error says it: the columns found, or that the file has
    no header row at all (it is empty: `DictReader` gives None, not a list)."""
    if fieldnames is None:
        return "the file is empty (no header row)"
    return f"columns are {list(fieldnames)}"
