"""The accuracy suite (seed 003 §6, `W3ToolAccuracy`): 25 support questions through the course
loop, judged from the tool calls the model *actually* made — never from its answer text.

    python -m toolkit eval [--cases FILE] [--out FILE.csv] [--concurrency N] [--protocol prompt]

Cases: `id,group,question,expect_tool,expect_order_id` — groups `normal` (15), `edge` (5) and
`no_call` (5); an empty `expect_tool` means no tool should be called. `judge()`, in order:

    should not call, but called        → unwanted_call
    should call, called nothing        → missed_call
    first tool called is another one   → wrong_tool
    right tool, order id not expected  → invented_argument   (the quietest failure)
    otherwise                          → pass

(`error`: the gateway failed on that case, e.g. a timeout.) The order id judged is the first
one that passed validation — what a tool really received — else the first one sent.
Results go to a CSV; the report gives the table by group, tool-selection accuracy against the
85% pass line, average model calls per case and the number of invented arguments. Real
gateways are asked concurrently (bounded threads) with progress on stderr; the fake one's
output is deterministic. Its keyword rules are NOT tuned to this suite: a case it fails stays
failed (measure real accuracy on a real gateway).

Leaves out: scoring answer text, retries of failed cases.
"""

from __future__ import annotations

import csv
import json
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit import data as course_data
from toolkit.chat.messages import ToolCall
from toolkit.course.assistant import ask
from toolkit.course.shop import Shop, load_shop
from toolkit.course.validation import Rejected, normalize_order_id
from toolkit.errors import ConfigurationError, ModelCallError

CASE_COLUMNS = ["id", "group", "question", "expect_tool", "expect_order_id"]
CSV_COLUMNS = CASE_COLUMNS + ["called_tools", "called_order_id", "verdict", "model_calls"]
GROUPS = ("normal", "edge", "no_call")
VERDICTS = ("pass", "missed_call", "wrong_tool", "invented_argument", "unwanted_call", "error")
PASS_LINE = 0.85


@dataclass(frozen=True)
class AccuracyCase:
    """One question and the tool call it should lead to."""

    id: str
    group: str
    """`normal`, `edge` or `no_call`."""
    question: str
    expect_tool: str
    """"" = no tool should be called."""
    expect_order_id: str = ""
    """"" = no order id to check."""


@dataclass(frozen=True)
class CaseResult:
    """What happened to one case."""

    case: AccuracyCase
    called_tools: tuple[str, ...]
    """Every tool call the model made, in order."""
    called_order_id: str
    verdict: str
    model_calls: int
    answer: str = ""
    """The final answer (shown, never judged)."""

    def row(self) -> dict[str, Any]:
        """The CSV row."""
        c = self.case
        return {
            "id": c.id,
            "group": c.group,
            "question": c.question,
            "expect_tool": c.expect_tool,
            "expect_order_id": c.expect_order_id,
            "called_tools": "|".join(self.called_tools),
            "called_order_id": self.called_order_id,
            "verdict": self.verdict,
            "model_calls": self.model_calls,
        }


def load_cases(path: Path | str | None = None) -> list[AccuracyCase]:
    """Read the cases file; a wrong header or group is a `ConfigurationError` naming the row."""
    path = course_data.path("accuracy_cases.csv") if path is None else path
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != CASE_COLUMNS:
            raise ConfigurationError(
                f"accuracy cases {path}: columns are {reader.fieldnames}, "
                f"expected {','.join(CASE_COLUMNS)}. Fix the header row"
            )
        cases = [AccuracyCase(**{k: (row[k] or "").strip() for k in CASE_COLUMNS}) for row in reader]
    for number, case in enumerate(cases, start=2):
        if case.group not in GROUPS:
            raise ConfigurationError(
                f"accuracy cases {path}, line {number} ({case.id}): group "
                f"{case.group!r} is not one of {', '.join(GROUPS)}. Fix that row"
            )
    return cases


def judge(case: AccuracyCase, calls: Sequence[ToolCall]) -> tuple[str, str]:
    """(verdict, order id judged) from the calls the model made."""
    order_id = called_order_id(calls)
    if not case.expect_tool:
        return ("unwanted_call" if calls else "pass"), order_id
    if not calls:
        return "missed_call", order_id
    if calls[0].name != case.expect_tool:
        return "wrong_tool", order_id
    if case.expect_order_id and order_id != case.expect_order_id:
        return "invented_argument", order_id
    return "pass", order_id


def called_order_id(calls: Sequence[ToolCall]) -> str:
    """The first order id that passed validation, else the first one sent (raw), else ""."""
    sent = [_order_argument(c) for c in calls]
    sent = [s for s in sent if s is not None]
    for value in sent:
        try:
            return normalize_order_id(value)
        except Rejected:
            continue
    return sent[0] if sent else ""


def _order_argument(call: ToolCall) -> str | None:
    try:
        data = json.loads(call.arguments)
    except ValueError:
        return call.arguments if "orderId" in call.arguments else None  # broken JSON, shown raw
    if isinstance(data, dict) and "orderId" in data:
        value = data["orderId"]
        return value if isinstance(value, str) else json.dumps(value)
    return None


def run_case(model: Any, case: AccuracyCase, shop: Shop) -> CaseResult:
    """Ask one question through the course loop and judge the calls it made."""
    try:
        result = ask(model, case.question, shop=shop)
    except ModelCallError as exc:
        return CaseResult(case, (), "", "error", 0, f"{type(exc).__name__}: {exc}")
    calls = [e.call for e in result.executions]
    verdict, order_id = judge(case, calls)
    return CaseResult(case, tuple(c.name for c in calls), order_id, verdict, len(result.rounds), result.answer or "")


def run_suite(
    model: Any,
    cases: Sequence[AccuracyCase],
    shop: Shop | None = None,
    *,
    concurrency: int = 1,
    progress: Callable[[int, int, CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Every case, at most `concurrency` at a time; results in the cases' order."""
    shop = shop or load_shop()
    done, lock = [0], threading.Lock()

    def one(case: AccuracyCase) -> CaseResult:
        result = run_case(model, case, shop)
        with lock:  # one progress line at a time, counted in finishing order
            done[0] += 1
            if progress:
                progress(done[0], len(cases), result)
        return result

    if concurrency <= 1:
        return [one(c) for c in cases]
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        return list(pool.map(one, cases))


@dataclass(frozen=True)
class Summary:
    """The suite in numbers."""

    by_group: dict[str, tuple[int, int]]
    """group → (passed, total)."""
    passed: int
    total: int
    average_model_calls: float
    invented_arguments: int
    verdicts: dict[str, int]

    @property
    def accuracy(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def meets_pass_line(self) -> bool:
        return self.accuracy >= PASS_LINE


def summarize(results: Sequence[CaseResult]) -> Summary:
    groups = [g for g in GROUPS if any(r.case.group == g for r in results)]
    by_group = {
        g: (sum(r.verdict == "pass" for r in results if r.case.group == g), sum(r.case.group == g for r in results))
        for g in groups
    }
    total = len(results)
    return Summary(
        by_group,
        sum(r.verdict == "pass" for r in results),
        total,
        sum(r.model_calls for r in results) / total if total else 0.0,
        sum(r.verdict == "invented_argument" for r in results),
        {v: sum(r.verdict == v for r in results) for v in VERDICTS},
    )


def case_line(r: CaseResult) -> str:
    """`[PASS] N01 帮我查… → query_logistics (SN202610200001)`."""
    mark = "PASS" if r.verdict == "pass" else "FAIL"
    called = " + ".join(r.called_tools) or "(no call)"
    called += f" ({r.called_order_id})" if r.called_order_id else ""
    why = "" if r.verdict == "pass" else f"  [{r.verdict}: expected {r.case.expect_tool or 'no call'}]"
    return f"[{mark}] {r.case.id} {r.case.question} → {called}{why}"


def report_lines(results: Sequence[CaseResult]) -> list[str]:
    """What the CLI prints: one line per case, the groups, the headline numbers."""
    s = summarize(results)
    lines = [case_line(r) for r in results]
    lines += [f"{group:<8} {p} / {t}" for group, (p, t) in s.by_group.items()]
    verdict = "met" if s.meets_pass_line else "NOT met"
    lines += [
        f"tool-selection accuracy: {s.passed} / {s.total} = {s.accuracy:.1%} (pass line {PASS_LINE:.0%}: {verdict})",
        f"average model calls: {s.average_model_calls:.1f} per case",
        f"invented arguments: {s.invented_arguments}",
    ]
    return lines


def write_csv(results: Sequence[CaseResult], path: Path | str) -> Path:
    """One row per case, columns `CSV_COLUMNS`; parent folders are created."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(r.row() for r in results)
    return path
