"""Reading a cases CSV (the drill's, the accuracy suite's) as a stranger may hand it over: each
problem is a `ConfigurationError` naming the file (and the line), never a raw `OSError`,
`UnicodeDecodeError` or `csv.Error`.

- a missing file or a folder (a pipe is read: `--cases <(...)` is how a shell hands one over);
- a file (or a pipe) of more than `MAX_CASES_BYTES`: refused, read no further (`toolkit.files`);
- a file that is not UTF-8 (Excel on a Chinese Windows saves "CSV" as GBK): says how to save it;
- a field over `csv.field_size_limit()` (128 KiB): names the line;
- a row with more fields than the header (an unquoted comma in a question): names the line,
  rather than dropping the fields past the header.

A UTF-8 byte order mark (Excel's "CSV UTF-8") is read as such.

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
    path: Path | str, what: str, check_header: Callable[[Sequence[str] | None], None]
) -> list[dict[str, str | None]]:
    """The rows of the CSV at `path` as dicts; `check_header(fieldnames)` raises for a header that is
    not the reader's, before any row is read. `what` names the file in errors ("drill cases")."""
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
            reader = csv.DictReader(f)
            try:
                check_header(reader.fieldnames)
                rows = []
                for row in reader:
                    if None in row:  # DictReader keeps the fields past the header under the key None
                        raise ConfigurationError(
                            f"{where}, line {reader.line_num}: {len(reader.fieldnames or ()) + len(row[None])} fields, "
                            f"the header has {len(reader.fieldnames or ())}. Fix: put double quotes around a value "
                            "that holds a comma"
                        )
                    rows.append(row)
            except csv.Error as exc:  # raised before the line it was reading is counted
                raise ConfigurationError(f"{where}, line {reader.line_num + 1}: {exc}. Fix that row") from None
    except OSError as exc:
        raise ConfigurationError(f"{where}: cannot read the file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ConfigurationError(f"{where}: the file is not UTF-8 text. Fix: {SAVE_AS}") from None
    return rows
