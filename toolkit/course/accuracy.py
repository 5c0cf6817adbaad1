"""The accuracy suite (week 3, section 6; the course's `W3ToolAccuracy`): 25 support questions through the course
loop, judged from the tool calls the model *actually* made — never from its answer text.

    python -m toolkit eval [--cases FILE] [--out FILE.csv] [--concurrency N] [--protocol prompt]

Cases: `id,group,question,expect_tool,expect_order_id[,expect_args]` — groups `normal` (15),
`edge` (5) and `no_call` (5); an empty `expect_tool` means no tool should be called; the optional
`expect_args` is a JSON object of arguments the expected tool must receive (a file without the
column is judged on tool and order id alone). Real models make several calls in one round, in
any order, so `judge()` reads the whole set of calls (never only the first: the course's `W3ToolAccuracy`
compares `called.get(0)`, and would fail a model that checked the order before its logistics), in this order:

    should not call, but called                       → unwanted_call
    should call, called nothing                       → missed_call
    the expected tool is not among the calls          → wrong_tool
    every call of it has arguments that are not JSON  → malformed_arguments
    any call carries an order id the user never gave,
    or the expected id never reached the tool          → invented_argument   (the quietest failure)
    no call of it has the `expect_args` values        → wrong_argument
    otherwise                                         → pass

The cases file is read as UTF-8 with or without a byte-order mark (Excel writes one). The
expected order id is compared as validation normalises it (`sn 2026-1020-0001` in the file is
`SN202610200001`); an id in the question counts as given with the separators validation removes
(spaces, ASCII and Unicode dashes); `expect_args` values are compared as JSON values (`true` is
not `1`), strings through the field's normaliser.

Extra calls of other tools are allowed (a question may need two tools) as long as they invent
nothing. (`error`: the gateway failed on that case, e.g. a timeout or a 400 — its message is in
the CSV.) An order id counts once it passed validation — what a tool really received. Results
go to a CSV (a cell that starts like a spreadsheet formula written as text:
`toolkit.course.spreadsheet`); the report gives the table by group, tool-selection accuracy
against the 85% pass line, average model calls per case and the number of calls with invented
arguments (every such call, in every case, whatever its verdict). Real
gateways are asked concurrently (bounded threads) with progress on stderr; the fake one's
output is deterministic. Its keyword rules are NOT tuned to this suite: a case it fails stays
failed (measure real accuracy on a real gateway).

Ctrl-C keeps what finished: `run_suite` stops at once — cases not started are not run, and a
request still waiting is abandoned (its thread is a daemon: it never holds up the exit) — and
raises `SuiteInterrupted` (a `KeyboardInterrupt`) carrying every case in order, the finished
ones judged and the others with the verdict `not_run`. `toolkit eval` writes them to the CSV.

Leaves out: scoring answer text, retries of failed cases.
"""

from __future__ import annotations

import csv
import io
import json
import queue
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit import data as course_data
from toolkit.chat.messages import ToolCall
from toolkit.course.assistant import TOOL_SPECS, ask
from toolkit.course.case_rows import read_rows
from toolkit.course.csv_header import found_header, header_fix
from toolkit.course.drill import percent
from toolkit.course.shop import Shop, load_shop
from toolkit.course.spreadsheet import as_text, csv_encoding
from toolkit.course.validation import (
    FIELDS,
    Rejected,
    normalize_category,
    normalize_date,
    normalize_order_id,
    to_half_width,
)
from toolkit.errors import ConfigurationError, ModelCallError
from toolkit.files import write_whole
from toolkit.views.html import flat, flat_name, showable

CASE_COLUMNS = ["id", "group", "question", "expect_tool", "expect_order_id"]
OPTIONAL_COLUMNS = ["expect_args"]
CSV_COLUMNS = CASE_COLUMNS + ["called_tools", "called_order_id", "verdict", "model_calls"]
CSV_COLUMNS += ["invented_arguments", "expect_args", "error"]  # new columns follow the original ones
GROUPS = ("normal", "edge", "no_call")
VERDICTS = (
    "pass",
    "missed_call",
    "wrong_tool",
    "malformed_arguments",
    "invented_argument",
    "wrong_argument",
    "unwanted_call",
    "error",
)
NOT_RUN = "not_run"
"""The verdict of a case an interrupted suite did not finish (never counted in a summary)."""
NOT_RUN_ERROR = "not run: the suite was stopped (Ctrl-C, or a signal such as SIGTERM) before this case finished"
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
    expect_args: dict[str, Any] = field(default_factory=dict)
    """Arguments the expected tool must receive ({} = none checked)."""


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
    invented: int = 0
    """How many calls carried an order id the user never gave."""
    error: str = ""
    """Why the case could not run (`error` verdict), e.g. the gateway's 400 message."""

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
            "invented_arguments": self.invented,
            "expect_args": json.dumps(c.expect_args, ensure_ascii=False) if c.expect_args else "",
            "error": self.error,
        }


def load_cases(path: Path | str | None = None) -> list[AccuracyCase]:
    """Read the cases file; a wrong header, group, expected tool, expected order id or `expect_args`
    no call could match is a `ConfigurationError` naming the row; so is a file with no case."""
    path = course_data.path("accuracy_cases.csv") if path is None else path

    def check_header(fieldnames: Sequence[str] | None) -> None:
        if fieldnames not in (CASE_COLUMNS, CASE_COLUMNS + OPTIONAL_COLUMNS):
            raise ConfigurationError(
                f"accuracy cases {path}: {found_header(fieldnames)}, "
                f"expected {','.join(CASE_COLUMNS)} (optionally followed by expect_args). {header_fix(fieldnames)}"
            )

    rows = read_rows(path, "accuracy cases", check_header, optional=OPTIONAL_COLUMNS)
    cases = []
    for number, row in rows:
        values = {k: row[k].strip() for k in CASE_COLUMNS}
        where = f"accuracy cases {path}, line {number} ({values['id']})"
        if values["group"] not in GROUPS:
            raise ConfigurationError(
                f"{where}: group {values['group']!r} is not one of {', '.join(GROUPS)}. Fix that row"
            )
        _check_expectations(values, where)
        expect_args = _expect_args(row.get("expect_args", "").strip(), where)
        _check_expect_args(expect_args, values["expect_tool"], where)
        cases.append(AccuracyCase(**values, expect_args=expect_args))
    if not cases:
        raise ConfigurationError(
            f"accuracy cases {path}: no case, only the header row. Add one row per question, e.g. "
            "N01,normal,帮我查一下订单 SN202610200001 现在到哪了？,query_logistics,SN202610200001"
        )
    return cases


def _check_expectations(values: dict[str, str], where: str) -> None:
    """A case's expected tool is one the assistant has (or empty), its expected id an order id
    (or empty): a typo would otherwise fail that case quietly on every run, as the model's fault."""
    tools = [spec["function"]["name"] for spec in TOOL_SPECS]
    if values["expect_tool"] and values["expect_tool"] not in tools:
        raise ConfigurationError(
            f"{where}: expect_tool {values['expect_tool']!r} is not one of the assistant's tools "
            f"({', '.join(tools)}). Fix that row, or leave it empty for a question that needs no tool"
        )
    try:
        normalize_order_id(values["expect_order_id"]) if values["expect_order_id"] else None
    except Rejected:
        raise ConfigurationError(
            f"{where}: expect_order_id {values['expect_order_id']!r} is not an order id (SN and 12 digits). "
            "Fix that row, or leave it empty"
        ) from None


def _expect_args(text: str, where: str) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text, parse_constant=_not_json)  # NaN is no JSON, and never equal to itself
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        raise ConfigurationError(
            f'{where}: expect_args {text!r} is not a JSON object. Write it like {{"category": "服装"}}, or leave it empty'
        )
    return value


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _check_expect_args(expect_args: dict[str, Any], tool: str, where: str) -> None:
    """Arguments some call could match: the expected tool's own, each a value its validation accepts
    (a call carrying anything else is refused before the tool runs). Otherwise the case would fail
    on every run, as the model's mistake."""
    if expect_args and not tool:
        raise ConfigurationError(
            f"{where}: expect_args is set but expect_tool is empty: a question that needs no tool has no "
            "arguments to check. Fix that row"
        )
    fields = FIELDS.get(tool, {})
    for name, value in expect_args.items():
        if name not in fields:
            raise ConfigurationError(
                f"{where}: expect_args names {name}, which {tool} does not take (it takes {', '.join(fields)}). "
                "Fix that row"
            )
        problem = "a string" if not isinstance(value, str) else _rejected(fields[name][1], value)
        if problem:
            shown = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            raise ConfigurationError(
                f"{where}: expect_args {name} {shown} is a value {tool} never accepts ({problem}). Fix that row"
            )


def _rejected(normalise: Callable[[str], str], value: str) -> str:
    """What the field expects when `normalise` rejects `value`, else ""."""
    try:
        normalise(value)
    except Rejected as exc:
        return exc.expected
    return ""


def judge(case: AccuracyCase, calls: Sequence[ToolCall]) -> tuple[str, str]:
    """(verdict, order id judged) from the whole set of calls the model made, in any order."""
    return judge_calls(case, calls)[:2]


def judge_calls(case: AccuracyCase, calls: Sequence[ToolCall]) -> tuple[str, str, int]:
    """(verdict, order ids received, number of calls carrying an invented id).

    The verdict never depends on the calls' order; every call's arguments are read."""
    parsed = [(c.name, _arguments_object(c.arguments)) for c in calls]
    given = user_order_ids(case)
    expected_id = _normalized_id(case.expect_order_id)
    received = _received_ids(parsed)
    invented = sum(1 for _, args in parsed if args is not None and _invents(args, given))
    order_id = "|".join(received) if received else _first_raw_id(parsed)
    if not case.expect_tool:
        return ("unwanted_call" if calls else "pass"), order_id, invented
    if not calls:
        return "missed_call", order_id, invented
    if case.expect_tool not in {name for name, _ in parsed}:
        return "wrong_tool", order_id, invented
    expected = [args for name, args in parsed if name == case.expect_tool]
    well_formed = [args for args in expected if args is not None]
    if not well_formed:
        return "malformed_arguments", order_id, invented
    if invented or (expected_id and not any(_order_id(a) == expected_id for a in well_formed)):
        return "invented_argument", order_id, invented
    if case.expect_args and not any(_matches(a, case.expect_args) for a in well_formed):
        return "wrong_argument", order_id, invented
    return "pass", order_id, invented


def user_order_ids(case: AccuracyCase) -> set[str]:
    """The order ids the user gave: the expected one and every id written in the question."""
    ids = {_normalized_id(case.expect_order_id)} - {""}
    for match in _QUESTION_ID.finditer(to_half_width(case.question)):
        try:
            ids.add(normalize_order_id(match.group()))
        except Rejected:
            continue
    return ids


_SEPARATOR = r"[\s\-\u2010-\u2015\u2212]*"
"""What `normalize_order_id` removes between an id's characters: spaces and dashes (ASCII, Unicode)."""
_QUESTION_ID = re.compile(rf"[Ss][Nn]{_SEPARATOR}(?:[0-9]{_SEPARATOR}){{11}}[0-9]")
_NORMALIZERS: dict[str, Callable[[str], str]] = {
    "orderId": normalize_order_id,
    "category": normalize_category,
    "asOf": normalize_date,
}


def _normalized_id(raw: str) -> str:
    """An order id as validation normalises it; text that is not one (or "") as it is."""
    try:
        return normalize_order_id(raw) if raw else raw
    except Rejected:
        return raw


def called_order_id(calls: Sequence[ToolCall]) -> str:
    """The valid order ids the calls carried (`|`-joined), else the first one sent, else "".

    Arguments that are not a JSON object are never shown here (their verdict says so)."""
    parsed = [(c.name, _arguments_object(c.arguments)) for c in calls]
    received = _received_ids(parsed)
    return "|".join(received) if received else _first_raw_id(parsed)


def _arguments_object(arguments: str) -> dict[str, Any] | None:
    try:
        data = json.loads(arguments)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _raw_id(args: dict[str, Any]) -> str | None:
    if "orderId" not in args:
        return None
    value = args["orderId"]
    return value if isinstance(value, str) else json.dumps(value)


def _order_id(args: dict[str, Any]) -> str | None:
    """The order id a tool really received (after validation), or None."""
    raw = _raw_id(args)
    try:
        return normalize_order_id(raw) if raw is not None else None
    except Rejected:
        return None


def _received_ids(parsed: Sequence[tuple[str, dict[str, Any] | None]]) -> list[str]:
    ids = [_order_id(args) for _, args in parsed if args is not None]
    return list(dict.fromkeys(i for i in ids if i))


def _first_raw_id(parsed: Sequence[tuple[str, dict[str, Any] | None]]) -> str:
    raws = [_raw_id(args) for _, args in parsed if args is not None]
    return next((r for r in raws if r is not None), "")


def _invents(args: dict[str, Any], given: set[str]) -> bool:
    order_id = _order_id(args)
    return order_id is not None and order_id not in given


def _matches(args: dict[str, Any], expected: dict[str, Any]) -> bool:
    return all(name in args and _same(name, want, args[name]) for name, want in expected.items())


def _same(name: str, want: Any, got: Any) -> bool:
    if _json_equal(want, got):
        return True
    normalize = _NORMALIZERS.get(name)
    if normalize is None or not isinstance(want, str) or not isinstance(got, str):
        return False
    try:
        return normalize(got) == normalize(want)
    except Rejected:
        return False


def _json_equal(a: Any, b: Any) -> bool:
    """Equal as JSON values: `true` is not `1` (Python's `True == 1`), `1` is `1.0`."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    return bool(a == b)


def run_case(model: Any, case: AccuracyCase, shop: Shop) -> CaseResult:
    """Ask one question through the course loop and judge the calls it made."""
    try:
        result = ask(model, case.question, shop=shop)
    except ModelCallError as exc:
        message = f"{type(exc).__name__}: {exc}"
        return CaseResult(case, (), "", "error", 0, message, error=message)
    calls = [e.call for e in result.executions]
    verdict, order_id, invented = judge_calls(case, calls)
    return CaseResult(
        case, tuple(c.name for c in calls), order_id, verdict, len(result.rounds), result.answer or "", invented
    )


def run_suite(
    model: Any,
    cases: Sequence[AccuracyCase],
    shop: Shop | None = None,
    *,
    concurrency: int = 1,
    progress: Callable[[int, int, CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Every case, at most `concurrency` at a time; results in the cases' order.

    Ctrl-C (any `BaseException` that is not an `Exception`) raises `SuiteInterrupted` with the
    finished cases at once, without waiting for a request in flight (module docstring)."""
    shop = shop or load_shop()
    done, lock = [0], threading.Lock()
    results: dict[int, CaseResult] = {}

    def one(index: int) -> CaseResult:
        result = run_case(model, cases[index], shop)
        with lock:  # one progress line at a time, counted in finishing order
            results[index] = result
            done[0] += 1
            if progress:
                progress(done[0], len(cases), result)
        return result

    try:
        if concurrency <= 1:
            for index in range(len(cases)):
                one(index)
        else:
            _in_daemon_threads(one, len(cases), concurrency)
    except BaseException as exc:
        if isinstance(exc, Exception):
            raise
        with lock:
            finished = dict(results)
        raise SuiteInterrupted([finished.get(i) or not_run(c) for i, c in enumerate(cases)]) from exc
    return [results[i] for i in range(len(cases))]


class SuiteInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped `run_suite`: `results` holds every case in order, the unfinished ones `not_run`."""

    def __init__(self, results: list[CaseResult]) -> None:
        super().__init__("the accuracy suite was interrupted")
        self.results = results

    @property
    def finished(self) -> list[CaseResult]:
        return [r for r in self.results if r.verdict != NOT_RUN]

    @property
    def not_run(self) -> list[CaseResult]:
        return [r for r in self.results if r.verdict == NOT_RUN]


def not_run(case: AccuracyCase) -> CaseResult:
    """The result of a case an interrupted suite did not finish."""
    return CaseResult(case, (), "", NOT_RUN, 0, error=NOT_RUN_ERROR)


def _in_daemon_threads(work: Callable[[int], Any], count: int, concurrency: int) -> None:
    """`work(0)` … `work(count - 1)`, `concurrency` at a time, in daemon threads: an interrupt of
    the waiting thread stops them taking more work and never waits for one still busy (a
    `ThreadPoolExecutor` would be joined at exit). A worker's exception is raised here."""
    todo: queue.SimpleQueue[int] = queue.SimpleQueue()
    for index in range(count):
        todo.put(index)
    finished: queue.SimpleQueue[BaseException | None] = queue.SimpleQueue()
    stop = threading.Event()

    def worker() -> None:
        while not stop.is_set():
            try:
                index = todo.get_nowait()
            except queue.Empty:
                return
            try:
                work(index)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
                finished.put(exc)
                return
            finished.put(None)

    for n in range(min(concurrency, count)):
        threading.Thread(target=worker, name=f"accuracy-{n}", daemon=True).start()
    try:
        for _ in range(count):
            while True:
                try:
                    failure = finished.get(timeout=0.2)  # a short wait: Ctrl-C is seen at once
                    break
                except queue.Empty:
                    continue
            if failure is not None:
                raise failure
    finally:
        stop.set()


@dataclass(frozen=True)
class Summary:
    """The suite in numbers."""

    by_group: dict[str, tuple[int, int]]
    """group → (passed, total)."""
    passed: int
    total: int
    average_model_calls: float
    invented_arguments: int
    """Calls carrying an order id the user never gave, in every case (whatever its verdict)."""
    verdicts: dict[str, int]

    @property
    def accuracy(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def shown_accuracy(self) -> str:
        """`accuracy` as a report shows it, `88.0%`: rounded down (`toolkit.course.drill.percent`), so it
        reads as the pass line only when it meets it."""
        return percent(self.passed, self.total, 1) if self.total else "n/a"

    @property
    def meets_pass_line(self) -> bool:
        return self.accuracy >= PASS_LINE


def summarize(results: Sequence[CaseResult]) -> Summary:
    """The numbers of the finished cases (`not_run` ones are left out)."""
    results = [r for r in results if r.verdict != NOT_RUN]
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
        sum(r.invented for r in results),
        {v: sum(r.verdict == v for r in results) for v in VERDICTS},
    )


def case_line(r: CaseResult) -> str:
    """`[PASS] N01 帮我查… → query_logistics (SN202610200001)`; `[NOT RUN] N02 …` for a case an
    interrupted suite did not finish. What the model sent (its tool names, the order id) is written
    `flat`: a control character or a bidi override as its code point, on the case's line (a terminal
    showing the report would act on `\\x1b[2J`)."""
    question = showable(" ".join(r.case.question.splitlines()))  # a quoted question's line breaks: one line per case
    if r.verdict == NOT_RUN:
        return f"[NOT RUN] {r.case.id} {question}"
    mark = "PASS" if r.verdict == "pass" else "FAIL"
    called = " + ".join(flat_name(name) for name in r.called_tools) or "(no call)"
    called += f" ({flat(r.called_order_id)})" if r.called_order_id else ""
    expected = r.case.expect_tool or "no call"
    if r.verdict == "wrong_argument":
        expected += " " + json.dumps(r.case.expect_args, ensure_ascii=False)
    why = "" if r.verdict == "pass" else f"  [{r.verdict}: expected {expected}]"
    return f"[{mark}] {r.case.id} {question} → {called}{why}"


def report_lines(results: Sequence[CaseResult]) -> list[str]:
    """What the CLI prints: one line per case, the groups, the headline numbers."""
    s = summarize(results)
    lines = [case_line(r) for r in results]
    lines += [f"{group:<8} {p} / {t}" for group, (p, t) in s.by_group.items()]
    verdict = "met" if s.meets_pass_line else "NOT met"
    measured = f"{s.passed} / {s.total} = {s.shown_accuracy} (pass line {PASS_LINE:.0%}: {verdict})"
    lines += [
        f"tool-selection accuracy: {measured if s.total else 'no case finished, nothing measured'}",
        f"average model calls: {s.average_model_calls:.1f} per case",
        f"invented arguments: {s.invented_arguments}",
    ]
    return lines


def write_csv(results: Sequence[CaseResult], path: Path | str) -> Path:
    """One row per case, columns `CSV_COLUMNS` (`csv_text`), after a byte-order mark for Excel
    (`toolkit.course.spreadsheet.csv_encoding`); parent folders are created. The file is
    replaced whole or not at all (`toolkit.files.write_whole`): a kill or a full disk part way leaves the
    previous CSV as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_whole(path, csv_text(results), encoding=csv_encoding(path), newline="")


def csv_text(results: Sequence[CaseResult]) -> str:
    """The CSV of `write_csv` as text. A cell that starts like a spreadsheet formula (a model's order
    id, a gateway's message) is written as text (`toolkit.course.spreadsheet.as_text`): a teacher
    opens this file."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: as_text(v) for k, v in r.row().items()} for r in results)
    return text.getvalue()
