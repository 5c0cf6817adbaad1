"""Week 3 exercises: the six self-checks of week 3's section 8, one exercise each.

1 the probe's verdicts, 2 lenient-in order ids (the drill's rule), 3 model calls per question,
4 an unknown order id, 5 the should-not-call group, 6 the accuracy CSV's rows.

Leaves out: the real-gateway rerun (a learner does it with the LLM_* variables set).
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections import Counter
from typing import Any

from toolkit.exercises.answers import (
    as_set,
    counted,
    dict_answer_problem,
    matches,
    misses,
    one_of,
    set_problem,
    verdict_of,
)
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import (
    LearnerError,
    Verdict,
    answers_first,
    attempt,
    exercise,
    own_work,
    reference,
    right,
    wrong,
)
from toolkit.exercises.values import is_number, show


@answer_exercise(
    "w3.probe",
    "predict the probe's verdict (A–E) for the fake gateway in each of its five modes",
    answer={"A": "A", "B": "B", "C": "C", "D": "D", "E": "E"},
    comment="one verdict letter per mode",
    hint="the probe reads only the status and the raw body; each mode plays one of the five gateways.",
)
def check_probe(answer: Any) -> Verdict:
    from toolkit.chat.switch import fake_client
    from toolkit.course.probe import probe

    if problem := dict_answer_problem(answer, "ABCDE"):
        return problem
    results = {mode: probe(fake_client(mode=mode)) for mode in "ABCDE"}
    found = misses(
        answer,
        {mode: result.verdict for mode, result in results.items()},
        lambda mode, said, verdict: f"mode {mode}: the probe's verdict is not {show(said)}",
    )
    return verdict_of(found, "five modes, five clear verdicts.")


ORDER_ID_INPUTS = (
    "SN202610200001",
    "sn202610200001",
    " SN202610200001 ",
    "ＳＮ２０２６１０２００００１",
    "ｓｎ２０２６１０２００００１",
    "ＳＮ２０２６１０２０００１",
    "SN2026-1020-0001",
    "订单号：SN202610200001",
    "订单号:sn 2026 1020 0001",
    "202610200001",
    "SN20261020000",
    "SN2026102000011",
    "SN202610200001 SN202610200002",
    "XX202610200001",
    "",
    "订单号是202610200001",
    "SN２０２６—１０２０—０００１",
    "SN 2026 1020 0001",
    "SN202610200001。",
    "SN_202610200001",
    "订单号是SN202610200001",
    "订单号为SN202610200001",
    "订单号是 SN202610200001",
    "订单 SN202610200001",
    "订单：SN202610200001",
    "订单SN202610200001",
    "SN٢٠٢٦١٠٢٠٠٠٠١",
    "SN𝟐𝟎𝟐𝟔𝟏𝟎𝟐𝟎𝟎𝟎𝟎𝟏",
    "SN202610200001订单号",
    "SN2026订单10200001",
    "SN2026：1020：0001",
    "SN202610200001是",
    "订单号：是SN202610200001",
    "SN\t2026\t1020\t0001",
    "SN 2026\u00a01020\u00a00001",
    "SN2026–1020–0001",
    "SN2026−1020−0001",
    "：SN202610200001",
    "是SN202610200001",
    "订单号订单SN202610200001",
    "订单号 ：SN202610200001",
    "订单 号：SN202610200001",
    " 订单号：SN202610200001",
    "SN2026.1020.0001",
    "SN2026/1020/0001",
    "单号：SN202610200001",
    "订单号码：SN202610200001",
    "订单编号：SN202610200001",
    "Sn202610200001",
    "ＳＮ２０２６－１０２０－０００１",
)
"""The inputs `w3.normalize` is compared on: every label form validation accepts (订单 / 订单号, then
：: 是 为), full-width ids (its letters too: ＳＮ, ｓｎ; and one a digit short), digits that are
digits to `\\d` but not ASCII (Arabic-Indic, mathematical bold); a label or its separator anywhere
but at the start, or two separators (rejected: only a leading label goes), and the other spaces and
dashes validation drops (a tab, a no-break space, an en dash, a minus sign); a separator with no label
before it, and a label twice (rejected: the one label goes, with what follows it); a space between the
label and its separator or before the label (accepted), and one inside the label (rejected); a dot or a slash
between the digits (rejected: not a dash), other words for the id (单号, 订单号码, 订单编号: rejected, not the
label), 'Sn' (accepted: the letters are upper-cased, whatever their case), and an id typed all full-width, its
dashes too (－, U+FF0D: accepted, it is '-' made wide; a half-width table of only letters and digits misses it)."""


@exercise(
    "w3.normalize",
    3,
    "build",
    "write normalize(raw) → the canonical order id (SN + 12 digits) or None, lenient in, strict out",
    starter="""
        import re

        from toolkit.exercises import check


        def normalize(raw):
            # full-width → half-width; drop a label (订单 or 订单号, then ：, :, 是 or 为), spaces and
            # dashes; upper-case; return "SN" + 12 ASCII digits, or None unless it is exactly one order id
            return ...


        check("w3.normalize", normalize)
        """,
    solution="""
        import re

        from toolkit.exercises import check


        def normalize(raw):
            text = "".join(" " if c == "\\u3000" else chr(ord(c) - 0xFEE0) if "\\uff01" <= c <= "\\uff5e" else c
                           for c in raw).strip()
            text = re.sub(r"^订单号?\\s*[:：是为]?\\s*", "", text)
            text = re.sub(r"[\\s\\-\\u2010-\\u2015\\u2212]", "", text.upper())
            return text if re.fullmatch(r"SN[0-9]{12}", text) else None   # \\d would take ٢ or 𝟐 too


        check("w3.normalize", normalize)
        """,
    hint="compare with toolkit.course.validation.normalize_order_id: accept what is clearly one id, "
    "reject what would need a guess.",
)
def check_normalize(fn: Any) -> Verdict:
    from toolkit.course.validation import Rejected

    normalize_order_id = reference("toolkit.course.validation", "normalize_order_id")

    def run(raw: str) -> Any:
        with own_work(normalize_order_id):
            return attempt(fn, raw)

    inputs = normalize_inputs()
    for raw, got in answers_first(inputs, run):
        try:
            want: str | None = normalize_order_id(raw)
        except Rejected:
            want = None
        if isinstance(got, LearnerError):  # named with its input; validation raises Rejected, normalize returns None
            if want is None:
                return wrong(
                    f"normalize({raw!r}) raised {got}; validation rejects it too, but normalize returns None "
                    "for an id it rejects, it does not raise"
                )
            return wrong(f"normalize({raw!r}) raised {got}; validation accepts it as {want!r}")
        if got != want:
            if want is None:
                why = (
                    "only a label at the start (订单 or 订单号, then one of ：: 是 为), spaces and dashes may go; "
                    "anything more (text elsewhere, SN added, a digit cut) is a guess, and a guess is how a "
                    "wrong order gets looked up"
                )
                if not got and not is_number(got):  # '' or False: a "no", but not the None asked for
                    why = f"return None for an id that is rejected, not {show(got)}"
                elif isinstance(got, str) and (odd := _other_digit(raw)):
                    why = f"{odd!r} is a digit to \\d{_nfkc_says(odd)}, but neither an ASCII nor a full-width one"
                return wrong(f"normalize({raw!r}) returned {show(got)}, but validation rejects it: {why}")
            return wrong(f"normalize({raw!r}) returned {show(got)}, validation accepts it as {want!r}")
    return right(f"agrees with validation on all {len(inputs)} inputs: lenient in, strict out.")


def normalize_inputs() -> list[str]:
    """ORDER_ID_INPUTS, then each again with other digits (the same shape, another id): a
    normalize() that returns the one id it was shown for whatever it accepts is caught."""
    shifted = [_shifted(raw, by) for by in (3, 7) for raw in ORDER_ID_INPUTS]
    return list(dict.fromkeys([*ORDER_ID_INPUTS, *shifted]))


def _shifted(raw: str, by: int) -> str:
    """`raw` with each decimal digit moved `by` within its own script: 2 → 5, ２ → ５, ٢ → ٥, 𝟐 → 𝟓."""
    out = []
    for c in raw:
        d = unicodedata.decimal(c, -1)
        out.append(chr(ord(c) - d + (d + by) % 10) if d >= 0 else c)
    return "".join(out)


def _nfkc_says(digit: str) -> str:
    """What NFKC does to a digit that is neither ASCII nor full-width: makes it ASCII (𝟐 → 2), or
    leaves it (٢): said, as a learner who normalised with NFKC reads the feedback for their bug."""
    return " and to NFKC" if unicodedata.normalize("NFKC", digit) != digit else " (NFKC leaves it as it is)"


def _other_digit(raw: str) -> str:
    """The first digit in `raw` that is neither ASCII nor full-width (٢, 𝟐), or ""."""
    return next((c for c in raw if c.isdigit() and not "0" <= c <= "9" and not "０" <= c <= "９"), "")


MODEL_CALL_QUESTIONS = ("帮我查一下订单 SN202610200001 现在到哪了？", "你好")


@answer_exercise(
    "w3.model_calls",
    "on the embedded gateway, how many model calls does the assistant make for an order question, and for 你好?",
    answer={"帮我查一下订单 SN202610200001 现在到哪了？": 2, "你好": 1},
    comment="model calls (numbers)",
    hint="count requests to the model: one that asks for the tool, one that reads the result and answers.",
)
def check_model_calls(answer: Any) -> Verdict:
    from toolkit.chat.switch import fake_client
    from toolkit.course.assistant import ask

    if problem := dict_answer_problem(
        answer, MODEL_CALL_QUESTIONS, expected="the dict of the starter, two numbers filled in"
    ):
        return problem
    results = {question: ask(fake_client(), question) for question in answer}

    def say(question: str, said: Any, calls: int) -> str:
        tip = " (you counted tool calls; count model requests)" if said == len(results[question].executions) else ""
        if not is_number(said):
            return f"{question}: answer with a number, not {show(said)}"
        return f"{question}: not {counted(said, 'model call')}{tip}"

    found = misses(answer, {question: len(result.rounds) for question, result in results.items()}, say)
    return verdict_of(found, "a tool question costs a round trip more than small talk.")


@answer_exercise(
    "w3.unknown_order",
    "on the embedded gateway, for SN202610209999 (no such order), does the answer give a status or ask to confirm "
    "the id?",
    answer="confirm the id",
    comment='"status" or "confirm the id"',
    hint="read what query_order returns for an id that is not in data/orders.json — it is written for the model.",
)
def check_unknown_order(answer: Any) -> Verdict:
    from toolkit.chat.switch import fake_client
    from toolkit.course.assistant import ask

    result = ask(fake_client(), "SN202610209999 这个订单什么状态？")
    tool_said = result.executions[0].result.content if result.executions else ""
    actual = "confirm the id" if "确认订单号" in (result.answer or "") else "status"
    said = one_of(answer, ("status", "confirm the id"))
    if said == actual:
        return right(f"the tool said {tool_said[:40]!r}…, and the answer passes it on; nothing invented.")
    if said is None:
        return wrong("answer 'status' or 'confirm the id'")
    return wrong(f"not {show(said)}: read what query_order returns for SN202610209999, and what the answer passes on")


NO_CALL_CHOICES = ("N05", "B03", "A03", "A04", "N11", "A05")


@exercise(
    "w3.no_call",
    3,
    "predict",
    "of six accuracy cases, which must call no tool at all? (answer their ids)",
    starter="""
        from toolkit.course.accuracy import load_cases
        from toolkit.exercises import check
        from toolkit.exercises.week03 import NO_CALL_CHOICES

        for case in load_cases():
            if case.id in NO_CALL_CHOICES:
                print(case.id, case.question)

        answer = {...}   # the set of ids that should call no tool, e.g. {"N05"}
        check("w3.no_call", answer)
        """,
    solution="""
        from toolkit.course.accuracy import load_cases
        from toolkit.exercises import check
        from toolkit.exercises.week03 import NO_CALL_CHOICES

        for case in load_cases():
            if case.id in NO_CALL_CHOICES:
                print(case.id, case.question)

        answer = {"B03", "A03", "A04", "A05"}
        check("w3.no_call", answer)
        """,
    hint="the tools can only look things up: a complaint, an address change or a refund is an action "
    "none of them can do, and an order or parcel question without an order id has nothing to look up yet "
    "(a question about the refund rules needs no order id).",
)
def check_no_call(answer: Any) -> Verdict:
    from toolkit.course.accuracy import load_cases

    cases = {c.id: c for c in load_cases() if c.id in NO_CALL_CHOICES}
    truth = {i for i, c in cases.items() if not c.expect_tool}
    if problem := set_problem(answer, "case ids"):
        return problem
    texts = as_set(answer) or set()
    said = {one_of(i, NO_CALL_CHOICES) or i for i in texts}
    if unknown := sorted(said - set(NO_CALL_CHOICES)):
        return wrong(f"{unknown[0]!r} is not one of the six cases; use their ids: {', '.join(NO_CALL_CHOICES)}")
    extra, missing = said - truth, truth - said
    if not extra and not missing:
        return right("a tool call here would do nothing useful or the wrong thing: the answer is words.")
    parts = [f"{i} ({cases[i].question}) should call {cases[i].expect_tool}" for i in sorted(extra) if i in cases]
    if missing:
        parts.append(f"{len(missing)} more of the six should call no tool")
    return wrong("; ".join(parts))


@answer_exercise(
    "w3.csv_rows",
    "how many rows of each group (normal, edge, no_call) does the accuracy CSV hold?",
    answer={"normal": 15, "edge": 5, "no_call": 5},
    hint="one row per case of data/accuracy_cases.csv; read its `group` column.",
)
def check_csv_rows(answer: Any) -> Verdict:
    import tempfile
    from pathlib import Path

    from toolkit.chat.switch import fake_client
    from toolkit.course.accuracy import load_cases, run_suite, write_csv
    from toolkit.course.shop import load_shop

    suite = run_suite(fake_client(), load_cases(), load_shop())
    with tempfile.TemporaryDirectory() as folder:
        path = write_csv(suite, Path(folder) / "w3.csv")
        import csv

        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.DictReader(f))
    counts = dict(Counter(r["group"] for r in rows))
    if not isinstance(answer, dict):
        return wrong("answer with the dict of the starter")
    if extra := sorted(map(str, set(answer) - set(counts))):
        return wrong(f"the CSV has no group {extra[0]!r}; answer for {', '.join(counts)} only")
    if missing := [k for k in counts if k not in answer]:
        return wrong(f"answer for every group: {missing[0]!r} is missing")
    if all(matches(answer.get(k), count) for k, count in counts.items()):
        return right(f"{counted(len(rows), 'row')}: {json.dumps(counts)}.")
    if text := next((k for k in counts if k in answer and not is_number(answer[k])), None):
        return wrong(f"answer each group's rows with a number, not {show(answer[text])} for {text!r}")
    try:
        added = sum(float(v) for v in answer.values())  # a Decimal and a float add up too
    except OverflowError:  # 10**400: no float holds it
        added = math.inf
    if added == len(rows):  # the total is right: saying it again read as if it were the mistake
        return wrong(
            f"your counts add up to the {counted(len(rows), 'row')} the CSV written by write_csv has, but the groups are not "
            "split so — check each group"
        )
    total = f"add up to {added:g}" if math.isfinite(added) else "do not add up to it"
    return wrong(f"the CSV written by write_csv has {counted(len(rows), 'row')}; yours {total} — check each group")
