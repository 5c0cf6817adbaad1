"""The argument drill (week 3, section 3; the course's `W3ToolDrill`): 32 raw argument strings, each either
normalised to an expected value or rejected naming an expected field.

    python -m toolkit drill [--cases data/drill_cases.csv] [--today 2026-10-25]

Cases CSV (UTF-8, with or without Excel's byte-order mark): `id,tool,arguments,expect,expect_field,expect_value`. `arguments` is the raw
string the model sent; `expect` is `ok` or `reject`. For `ok`, `expect_field`'s normalised value
must equal `expect_value` (`{today}` stands for the injected date); for `reject`, the error must
name `expect_field` (`*`: any field). One line per case, then the share of invalid arguments
blocked, then `N passed, M failed`; exit 1 if any case fails.

A share is shown rounded down, counting in integers (`percent`, the accuracy suite's too):
`f"{part / whole:.0%}"` reads 199 of 200 blocked as "100%", and 339 of 399 passed (84.96%) as
"85.0%" beside "pass line 85%: NOT met"; rounded down, a share reaches a line only when it does,
and one above nothing never reads as 0 ("<1%").

Leaves out: running the tools (the drill checks validation only, so it needs no data).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from toolkit import data as course_data
from toolkit.course.case_rows import read_rows
from toolkit.course.csv_header import found_header, header_fix
from toolkit.course.validation import validate
from toolkit.errors import ArgumentError, ConfigurationError, UnknownToolError

COLUMNS = ["id", "tool", "arguments", "expect", "expect_field", "expect_value"]


@dataclass(frozen=True)
class DrillCase:
    """One row of the cases file."""

    id: str
    tool: str
    arguments: str
    """The raw arguments string, exactly as a model might send it."""
    expect: str
    """`ok` (normalised) or `reject`."""
    expect_field: str
    """ok: the field to compare; reject: the field the error must name, or `*`."""
    expect_value: str = ""
    """ok: the normalised value expected (`{today}` = the drill's date)."""


@dataclass(frozen=True)
class DrillOutcome:
    """What validation did with one case, and whether that is what the case expected."""

    case: DrillCase
    passed: bool
    got: str
    """`ok` or `reject`."""
    field: str
    """The field compared (ok) or named by the error (reject)."""
    value: str
    """ok: the normalised value; reject: what the error says was received."""
    message: str = ""
    """reject: the whole error text, as the model reads it."""

    def line(self) -> str:
        """`PASS D01 query_order ok: orderId=SN202610200001` and the like."""
        mark = "PASS" if self.passed else "FAIL"
        wanted = "" if self.passed else f" (expected {self.case.expect} {self.case.expect_field})"
        value = " ".join(self.value.splitlines())  # a raw string's line breaks: one line per case
        shown = f"{self.field}={value}" if self.got == "ok" else f"字段={self.field}，收到={value}"
        return f"{mark} {self.case.id} {self.case.tool} {self.got}{wanted}: {shown}"


def load_cases(path: Path | str | None = None) -> list[DrillCase]:
    """Read and check the cases file; a malformed file (or one with no case) is a `ConfigurationError`
    naming the row."""
    path = course_data.path("drill_cases.csv") if path is None else path

    def check_header(fieldnames: Sequence[str] | None) -> None:
        if fieldnames != COLUMNS:
            raise ConfigurationError(
                f"drill cases {path}: {found_header(fieldnames)}, expected {','.join(COLUMNS)}. {header_fix(fieldnames)}"
            )

    rows = read_rows(path, "drill cases", check_header)
    # the raw arguments as the model sent them; the other fields without blanks around them
    cases = [DrillCase(**{k: row[k] if k == "arguments" else row[k].strip() for k in COLUMNS}) for _, row in rows]
    if not cases:
        raise ConfigurationError(
            f"drill cases {path}: no case, only the header row. Add one row per raw argument string, e.g. "
            'D01,query_order,"{""orderId"": ""SN202610200001""}",ok,orderId,SN202610200001'
        )
    for (number, _), case in zip(rows, cases):
        problem = _problem(case)
        if problem:
            raise ConfigurationError(f"drill cases {path}, line {number} ({case.id}): {problem}. Fix that row")
    return cases


def _problem(case: DrillCase) -> str:
    """What makes a case expect nothing a run could show ("" when it is well formed)."""
    if case.expect not in ("ok", "reject"):
        return f"expect is {case.expect!r}, not ok or reject"
    if not case.expect_field:
        return "expect_field is empty; name the field to compare (ok) or the field the error names (reject, * for any)"
    return ""


def run_case(case: DrillCase, today: datetime.date) -> DrillOutcome:
    """Validate the case's raw arguments and compare with what it expects."""
    try:
        v = validate(case.tool, case.arguments, today=today)
    except (ArgumentError, UnknownToolError) as exc:
        field, received = (exc.field, exc.received) if isinstance(exc, ArgumentError) else ("tool", case.tool)
        passed = case.expect == "reject" and case.expect_field in ("*", field)
        return DrillOutcome(case, passed, "reject", field, received, str(exc))
    value = v.values.get(case.expect_field, "(no such field)")
    expected = case.expect_value.replace("{today}", today.isoformat())
    return DrillOutcome(case, case.expect == "ok" and value == expected, "ok", case.expect_field, value)


def run_drill(cases: list[DrillCase], today: datetime.date) -> list[DrillOutcome]:
    return [run_case(case, today) for case in cases]


def summary_lines(outcomes: list[DrillOutcome]) -> list[str]:
    """The blocked share of invalid arguments (rounded down: `percent`), then the last line
    `N passed, M failed`."""
    rejects = [o for o in outcomes if o.case.expect == "reject"]
    blocked = sum(o.got == "reject" for o in rejects)
    share = percent(blocked, len(rejects)) if rejects else "n/a"
    passed = sum(o.passed for o in outcomes)
    return [
        f"invalid arguments blocked: {blocked} / {len(rejects)} ({share})",
        f"{passed} passed, {len(outcomes) - passed} failed",
    ]


def percent(part: int, whole: int, decimals: int = 0) -> str:
    """`part / whole` as a percentage with `decimals` places, rounded down; "<1%" (or "<0.1%" …)
    for a share above nothing that rounds down to it. `whole` is above 0."""
    scale = 10**decimals
    units = part * 100 * scale // whole  # exact: no float between the counts and the text
    if units == 0 and part > 0:
        return f"<{_shown(1, decimals)}%"
    return f"{_shown(units, decimals)}%"


def _shown(units: int, decimals: int) -> str:
    """`units` hundredths-of-a-percent (for 2 decimals) and the like, written with its decimals."""
    if not decimals:
        return str(units)
    whole, rest = divmod(units, 10**decimals)
    return f"{whole}.{rest:0{decimals}d}"
