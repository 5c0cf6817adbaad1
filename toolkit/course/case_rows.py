"""Reading a cases CSV (the drill's, the accuracy suite's) as a stranger may hand it over: each
problem is a `ConfigurationError` naming the file (and the line), never a raw `OSError`,
`UnicodeDecodeError` or `csv.Error`.

- a missing file or a folder (a pipe is read: `--cases <(...)` is how a shell hands one over);
- a file (or a pipe) of more than `MAX_CASES_BYTES`: refused, read no further (`toolkit.files`);
- a file that is not UTF-8 (Excel on a Chinese Windows saves "CSV" as GBK): says how to save it;
- a field over `csv.field_size_limit()` (128 KiB): names the line;
- a row with more fields than the header (an unquoted comma in a question): names the line,
  rather than dropping the fields past the header; a row with fewer (a field left out) too,
  rather than reading the missing ones as empty (`N01,normal,帮我查 SN…` would need no tool);
  only the reader's `optional` columns at the end of a row may be left out.

Each row comes with the line it starts on, as an editor numbers it (blank lines and a quoted
question's own line breaks counted), so an error about a row names that line.

A UTF-8 byte order mark (Excel's "CSV UTF-8") is read as such, and blanks after a comma are
not part of the next field (`D01, query_order, "{…}"`: the quoted field is quoted, the header's
names are the names); each reader strips the blanks it does not mean to keep.

Leaves out: the columns and their values (each reader checks its own, see `found_header`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from pathlib import Path

from toolkit import files
from toolkit.errors import ConfigurationError

MAX_CASES_BYTES = 8 * 1024 * 1024
"""A cases file larger than this is refused unread (the course's 25 cases are about 2 KB; 10,000 cases of a
teacher's own, about 2 MB)."""

SAVE_AS = "save it as 'CSV UTF-8 (Comma delimited)'"


def read_rows(
    path: Path | str,
    what: str,
    check_header: Callable[[Sequence[str] | None], None],
    *,
    optional: Sequence[str] = (),
) -> list[tuple[int, dict[str, str]]]:
    """The rows of the CSV at `path`, each with the line it starts on (blank lines and a field's own
    line breaks counted, as an editor numbers them); `check_header(fieldnames)` raises for a header
    that is not the reader's, before any row is read. A row with more fields than the header, or
    fewer (short of `optional` columns at its end), is refused naming its line. `what` names the
    file in errors ("drill cases")."""
    where = f"{what} {path}"
    try:
        text = files.read_text(
            path,
            MAX_CASES_BYTES,
            where=where,
            cap_name="toolkit.course.case_rows.MAX_CASES_BYTES",
            fix="split the cases into several files",
            error=ConfigurationError,
            streams=True,
            encoding="utf-8-sig",
        )
        with io.StringIO(text, newline="") as f:
            return _rows(f, where, check_header, optional)
    except OSError as exc:
        raise ConfigurationError(f"{where}: cannot read the file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ConfigurationError(f"{where}: the file is not UTF-8 text. Fix: {SAVE_AS}") from None


def _rows(
    text: io.StringIO,
    where: str,
    check_header: Callable[[Sequence[str] | None], None],
    optional: Sequence[str],
) -> list[tuple[int, dict[str, str]]]:
    """The rows of the CSV `text` after its header (its first row that is not blank), each with
    the line it starts on: the line after the one the row before it ended on."""
    reader = csv.reader(text, skipinitialspace=True)  # `a, "b, c"`: the blank after a comma starts no field
    header: list[str] | None = None
    rows: list[tuple[int, dict[str, str]]] = []
    ended = 0
    try:
        for fields in reader:
            line, ended = ended + 1, reader.line_num
            if not fields:  # a blank line
                continue
            if header is None:
                check_header(fields)
                header = fields
                continue
            rows.append((line, _row(fields, header, optional, f"{where}, line {line}")))
        if header is None:
            check_header(None)
    except csv.Error as exc:  # a field over the limit, say: the row after the last one read
        raise ConfigurationError(f"{where}, line {ended + 1}: {exc}. Fix that row") from None
    return rows


def _row(fields: list[str], header: list[str], optional: Sequence[str], where: str) -> dict[str, str]:
    """One row's fields by column name; a row longer than the header, or short of a column that is
    not optional, is a `ConfigurationError`."""
    if len(fields) > len(header):
        raise ConfigurationError(
            f"{where}: {len(fields)} fields, the header has {len(header)}. Fix: put double quotes around a "
            "value that holds a comma"
        )
    if any(name not in optional for name in header[len(fields) :]):
        raise ConfigurationError(
            f"{where}: {len(fields)} fields, the header has {len(header)}. Fix: give the row every field "
            "(an empty one is nothing between two commas)"
        )
    return dict(zip(header, fields + [""] * (len(header) - len(fields))))
