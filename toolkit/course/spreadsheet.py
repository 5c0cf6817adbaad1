"""CSV cells a spreadsheet opens as text, never as a formula.

The course writes CSV files a teacher opens in Excel, LibreOffice or Google Sheets: the grades
(`toolkit grade`) and the accuracy results (`toolkit eval`). Their cells hold text from others — a
learner's file name and cell tags, a model's tool arguments, a gateway's error message, a question
from a cases file — and a spreadsheet runs a cell that starts like a formula (`=HYPERLINK(…)`
sends the next cell's data away when clicked). `as_text(cell)` puts a `'` in front of such a cell
(OWASP's advice for CSV injection), which the spreadsheet shows as the text it was.

Leaves out: cells that are not text (numbers are written as they are), and reading the `'` back
off (the CSV is for people; programs read the values before they are written).
"""

from __future__ import annotations

from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's list for CSV injection)."""


def as_text(cell: Any) -> Any:
    """`cell` as a spreadsheet shows text: a `str` that starts like a formula gets a `'` in front;
    anything else (a number, a bool) is returned as it is."""
    return "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell
