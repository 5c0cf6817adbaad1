"""The argument drill: the seed's 32 cases pass, in-process and through the CLI; the drill can fail."""

import csv
import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit import data
from toolkit.course.drill import (
    COLUMNS,
    DrillCase,
    DrillOutcome,
    load_cases,
    percent,
    run_case,
    run_drill,
    summary_lines,
)
from toolkit.errors import ConfigurationError

ROOT = Path(__file__).resolve().parents[1]
TODAY = datetime.date(2026, 10, 25)


def drill_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    return subprocess.run(
        [sys.executable, "-m", "toolkit", "drill", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_cases_file_holds_the_seeds_32_cases():
    with open(data.path("drill_cases.csv"), encoding="utf-8", newline="") as f:
        assert next(csv.reader(f)) == COLUMNS
    cases = load_cases()
    assert len(cases) == 32 and len({c.id for c in cases}) == 32
    raw = {json.loads(c.arguments).get("orderId") if c.arguments.startswith('{"') else c.arguments for c in cases}
    seed_formats = {
        "SN202610200001 ",
        "订单SN202610200001",
        "订单号：SN202610200001",
        "SN2026-1020-0001",
        "ＳＮ２０２６１０２００００１",
        "202610200001",
        "SN2026102000011",
        "{orderId:SN202610200001}",
    }
    assert seed_formats <= raw
    assert any("refundAmount" in c.arguments for c in cases)
    assert {c.expect for c in cases} == {"ok", "reject"}


def test_all_32_pass_and_every_invalid_argument_is_blocked():
    outcomes = run_drill(load_cases(), TODAY)
    assert [o.case.id for o in outcomes if not o.passed] == []
    assert summary_lines(outcomes) == ["invalid arguments blocked: 15 / 15 (100%)", "32 passed, 0 failed"]


def test_a_case_fails_when_validation_disagrees():
    lenient = DrillCase("X1", "query_order", '{"orderId": "SN20261020001"}', "ok", "orderId", "SN20261020001")
    wrong_field = DrillCase("X2", "query_order", '{"orderId": 1}', "reject", "arguments")
    any_field = DrillCase("X3", "query_order", '{"orderId": 1}', "reject", "*")
    wrong_value = DrillCase("X4", "query_order", '{"orderId": "sn202610200001"}', "ok", "orderId", "sn202610200001")
    results = [run_case(c, TODAY) for c in (lenient, wrong_field, any_field, wrong_value)]
    assert [r.passed for r in results] == [False, False, True, False]
    assert results[0].line() == ('FAIL X1 query_order reject (expected ok orderId): 字段=orderId，收到="SN20261020001"')
    assert results[3].line() == "FAIL X4 query_order ok (expected ok orderId): orderId=SN202610200001"


def test_today_is_injected_for_an_omitted_as_of():
    case = DrillCase("T", "query_refund_policy", '{"category": "家居"}', "ok", "asOf", "{today}")
    assert run_case(case, TODAY).value == "2026-10-25" and run_case(case, TODAY).passed


def test_a_malformed_cases_file_names_the_row(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text(
        "id,tool,arguments,expect,expect_field,expect_value\nZ1,query_order,{},maybe,orderId,\n", encoding="utf-8"
    )
    with pytest.raises(ConfigurationError, match=r"line 2 \(Z1\): expect is 'maybe', not ok or reject"):
        load_cases(path)
    path.write_text("id,tool,args\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="Fix the header row"):
        load_cases(path)


def test_cli_prints_one_line_per_case_and_the_total_last():
    done = drill_cli("--today", "2026-10-25")
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(lines) == 34 and lines[-1] == "32 passed, 0 failed"
    assert lines[-2] == "invalid arguments blocked: 15 / 15 (100%)"
    assert lines[0] == "PASS D01 query_order ok: orderId=SN202610200001"
    assert all(line.startswith("PASS D") for line in lines[:32])


def test_cli_exits_1_on_a_deliberately_wrong_cases_file(tmp_path):
    wrong = tmp_path / "wrong.csv"
    with open(wrong, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        writer.writerow(["W1", "query_order", '{"orderId": "202610200001"}', "ok", "orderId", "SN202610200001"])
        writer.writerow(["W2", "query_order", '{"orderId": "SN202610200001"}', "ok", "orderId", "SN202610200001"])
    done = drill_cli("--cases", str(wrong))
    assert done.returncode == 1
    assert done.stdout.splitlines()[0].startswith("FAIL W1 query_order reject (expected ok orderId)")
    assert done.stdout.splitlines()[-1] == "1 passed, 1 failed"


def test_cli_exits_2_when_the_file_is_missing(tmp_path):
    done = drill_cli("--cases", str(tmp_path / "nope.csv"))
    assert done.returncode == 2 and "error:" in done.stderr and done.stdout == ""


def test_a_cases_file_saved_by_excel_is_read(tmp_path):
    """Excel's "CSV UTF-8" starts with a byte-order mark: the header read `\\ufeffid` and the file
    was refused as having the wrong columns."""
    from pathlib import Path

    from toolkit import data
    from toolkit.course.drill import load_cases as load

    text = Path(data.path("drill_cases.csv")).read_text(encoding="utf-8")
    saved = tmp_path / "drill.csv"
    saved.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert load(saved) == load()


def test_a_cases_file_with_no_case_is_refused(tmp_path):
    """It printed "0 passed, 0 failed" and exited 0: a drill that checked nothing passed."""
    path = tmp_path / "cases.csv"
    path.write_text("id,tool,arguments,expect,expect_field,expect_value\n", encoding="utf-8")
    with pytest.raises(ConfigurationError) as raised:
        load_cases(path)
    assert str(raised.value) == (
        f"drill cases {path}: no case, only the header row. Add one row per raw argument string, e.g. "
        'D01,query_order,"{""orderId"": ""SN202610200001""}",ok,orderId,SN202610200001'
    )


def test_a_share_of_blocked_arguments_is_never_rounded_up_to_all_nor_down_to_none():
    """Before: 199 of 200 blocked read "(100%)", 1 of 201 "(0%)"."""
    case = DrillCase("D", "query_order", "{}", "reject", "*")
    blocked, through = DrillOutcome(case, True, "reject", "orderId", ""), DrillOutcome(case, False, "ok", "orderId", "")
    assert summary_lines([blocked] * 199 + [through])[0] == "invalid arguments blocked: 199 / 200 (99%)"
    assert summary_lines([blocked] + [through] * 200)[0] == "invalid arguments blocked: 1 / 201 (<1%)"
    assert summary_lines([blocked] * 2 + [through])[0] == "invalid arguments blocked: 2 / 3 (66%)"  # rounded down


def test_percent_rounds_down_and_never_shows_a_share_above_nothing_as_nothing():
    assert [percent(339, 399, 1), percent(22, 25, 1), percent(17, 20, 1), percent(2, 3, 2)] == [
        "84.9%",
        "88.0%",
        "85.0%",
        "66.66%",
    ]
    assert [percent(199, 200), percent(200, 200), percent(0, 7), percent(1, 201), percent(1, 2001, 1)] == [
        "99%",
        "100%",
        "0%",
        "<1%",
        "<0.1%",
    ]


def test_a_cases_file_written_with_a_space_after_each_comma_reads_as_written_without_it(tmp_path):
    """Before: 'D01, query_order, …, ok, orderId, SN…' was refused with "expect must be ok or reject", of a
    row whose expect read ok; its tool ' query_order' would be no tool. The fields around the raw
    arguments are read without surrounding blanks (the accuracy suite's are too); the arguments as sent."""
    path = tmp_path / "cases.csv"
    path.write_text(
        'id,tool,arguments,expect,expect_field,expect_value\nD01, query_order, " {""orderId"": ""SN202610200001""}",'
        " ok , orderId , SN202610200001 \n",
        encoding="utf-8",
    )
    assert load_cases(path) == [
        DrillCase("D01", "query_order", ' {"orderId": "SN202610200001"}', "ok", "orderId", "SN202610200001")
    ]
    assert run_drill(load_cases(path), TODAY)[0].passed


@pytest.mark.parametrize(
    ("expect", "field", "said"),
    [
        ("maybe", "orderId", "expect is 'maybe', not ok or reject"),
        ("OK", "orderId", "expect is 'OK', not ok or reject"),
        (
            "ok",
            "",
            "expect_field is empty; name the field to compare (ok) or the field the error names (reject, * for any)",
        ),
    ],
)
def test_a_row_that_expects_nothing_valid_says_what_it_holds(tmp_path, expect, field, said):
    path = tmp_path / "cases.csv"
    path.write_text(f"id,tool,arguments,expect,expect_field,expect_value\nZ1,query_order,{{}},{expect},{field},\n")
    with pytest.raises(ConfigurationError) as raised:
        load_cases(path)
    assert str(raised.value) == f"drill cases {path}, line 2 (Z1): {said}. Fix that row"


def test_arguments_written_over_two_lines_are_one_line_of_the_report():
    """Before: a raw arguments string with a line break (a model's fenced JSON) split its case's report line."""
    case = DrillCase("D9", "query_order", '```json\n{"orderId": "SN202610200001"}\n```', "reject", "arguments")
    line = run_case(case, TODAY).line()
    assert line == 'PASS D9 query_order reject: 字段=arguments，收到=```json {"orderId": "SN202610200001"} ```'
