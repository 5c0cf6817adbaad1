"""CSV cells a spreadsheet opens as text, never as a formula.

The course writes CSV files a teacher opens in Excel, LibreOffice or Google Sheets: the grades
(`toolkit grade`) and the accuracy results (`toolkit eval`). Their cells hold text from others — a
learner's file name and cell tags, a model's tool arguments, a gateway's error message, a question
from a cases file — and a spreadsheet runs a cell that starts like a formula (`=HYPERLINK(…)`
sends the next cell's data away when clicked). `as_text(cell)` puts a `'` in front of such a cell
(OWASP's advice for CSV injection), which the spreadsheet shows as the text it was.

A CSV *file* the course writes starts with a byte-order mark (`utf-8-sig`, as pandas users write
for Excel: `df.to_csv(path, encoding="utf-8-sig")`): Excel reads UTF-8 without one in the local code
page, and the Chinese questions and feedback became mojibake. pandas, LibreOffice, Google Sheets and
the course's own readers (`utf-8-sig`) read it as before. What is no regular file (a pipe,
`/dev/stdout`) and a stream get none: a program reads those, and the mark would be part of the
first column's name (`csv_encoding`).

Leaves out: cells that are not text (numbers are written as they are), and reading the `'` back
off (the CSV is for people; programs read the values before they are written).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's list for CSV injection)."""


def as_text(cell: Any) -> Any:
    """`cell` as a spreadsheet shows text: a `str` that starts like a formula gets a `'` in front;
    anything else (a number, a bool) is returned as it is."""
    return "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


CSV_ENCODING = "utf-8-sig"
"""How a CSV file for people is written: UTF-8 after a byte-order mark, which Excel needs."""


def csv_encoding(path: Path) -> str:
    """`CSV_ENCODING` for a file (or one to be made), plain UTF-8 for what is there and no regular
    file (a named pipe, `/dev/stdout`): a program reads that."""
    return "utf-8" if path.exists() and not path.is_file() else CSV_ENCODING
