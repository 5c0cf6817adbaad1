"""The truth-table view: the static table agrees with the rules; the widget reacts to its controls."""

import re

import pytest
from html_tree import Tree

from tests.test_returns import EXPECTED
from toolkit.loop.returns import truth_table
from toolkit.tools.decorator import ReturnBehavior
from toolkit.views.truth_table import (
    TruthTableWidget,
    render_decision_html,
    render_truth_table_html,
    render_truth_table_text,
)

T, I, L = ReturnBehavior.TO_LLM, ReturnBehavior.IMMEDIATE, ReturnBehavior.IMMEDIATE_IF_LAST


def body_rows(html):
    return [[td.text() for td in tr.find_all("tk-td")] for tr in Tree(html).find_all("tk-tr")[1:]]


def test_static_table_has_every_round_and_agrees_with_the_seed():
    rows = body_rows(render_truth_table_html())
    assert len(rows) == 24
    expected = [
        (", ".join(b.name for b in behaviors), "no", "return immediately" if v else "continue")
        for behaviors, v in EXPECTED.items()
    ]
    expected += [(calls, "yes", "continue") for calls, _, _ in expected]
    assert sorted(tuple(r[:3]) for r in rows) == sorted(expected)
    assert rows[:3] == [
        ["TO_LLM", "no", "continue", "neither rule holds → continue"],
        ["IMMEDIATE", "no", "return immediately", "every call is IMMEDIATE* → return"],
        ["IMMEDIATE_IF_LAST", "no", "return immediately", "last call is IMMEDIATE_IF_LAST → return"],
    ]


def test_decision_badges_are_coloured():
    badges = Tree(render_truth_table_html()).find_all("tk-badge")
    assert {b.text(): b.classes[-1] for b in badges} == {"continue": "tk-info", "return immediately": "tk-ok"}


def test_text_table():
    lines = render_truth_table_text().split("\n")
    assert len(lines) == 24
    assert (
        "TO_LLM, IMMEDIATE_IF_LAST | fails: no → return immediately (last call is IMMEDIATE_IF_LAST → return)" in lines
    )
    assert (
        lines[-1]
        == "IMMEDIATE_IF_LAST, IMMEDIATE_IF_LAST | fails: yes → continue (an error must reach the model → continue)"
    )


def test_decision_card():
    tree = Tree(render_decision_html((I, L), any_error=False))
    assert (
        tree.text
        == "decisioncalls: IMMEDIATE, IMMEDIATE_IF_LAST · a call fails: noreturn immediately last call is IMMEDIATE_IF_LAST → return"
    )


def test_widget_starts_on_the_seeds_first_example():
    widget = TruthTableWidget()
    assert widget.behaviors == (T, L) and widget.decision == "return immediately"
    assert "last call is IMMEDIATE_IF_LAST → return" in widget.output.value


@pytest.mark.parametrize(
    "first, second, count, fails, decision, rule",
    [
        ("IMMEDIATE_IF_LAST", "TO_LLM", 2, False, "continue", "neither rule holds → continue"),
        ("IMMEDIATE", "IMMEDIATE_IF_LAST", 2, False, "return immediately", "last call is IMMEDIATE_IF_LAST → return"),
        ("IMMEDIATE", "IMMEDIATE", 2, False, "return immediately", "every call is IMMEDIATE* → return"),
        ("IMMEDIATE", "TO_LLM", 1, False, "return immediately", "every call is IMMEDIATE* → return"),
        ("IMMEDIATE", "IMMEDIATE", 2, True, "continue", "an error must reach the model → continue"),
    ],
)
def test_widget_reacts_to_its_controls(first, second, count, fails, decision, rule):
    widget = TruthTableWidget()
    before = widget.output.value
    widget.first.value, widget.second.value = first, second
    widget.count.value, widget.fails.value = count, fails
    assert widget.decision == decision
    text = Tree(widget.output.value).text
    assert f"{decision} {rule}" in text
    assert widget.output.value != before
    assert widget.second.disabled is (count == 1)


def test_widget_bundle_carries_the_decision_and_the_whole_table():
    widget = TruthTableWidget()
    widget.first.value = "IMMEDIATE_IF_LAST"
    widget.second.value = "TO_LLM"
    bundle = widget._repr_mimebundle_()
    assert bundle["text/plain"].split("\n")[0] == (
        "decision: IMMEDIATE_IF_LAST, TO_LLM | fails: no → continue (neither rule holds → continue)"
    )
    assert bundle["text/plain"].endswith(render_truth_table_text())
    assert len(body_rows(bundle["text/html"])) == 24
    model_id = bundle["application/vnd.jupyter.widget-view+json"]["model_id"]
    for text in (bundle["text/html"], bundle["text/plain"]):
        assert model_id not in text and not re.search(r"0x[0-9a-f]{6,}", text)


def test_widget_bundle_is_deterministic():
    a, b = TruthTableWidget(), TruthTableWidget()
    bundle_a, bundle_b = a._repr_mimebundle_(), b._repr_mimebundle_()
    assert bundle_a["text/html"] == bundle_b["text/html"] and bundle_a["text/plain"] == bundle_b["text/plain"]


def test_a_custom_row_list():
    rows = [r for r in truth_table(1) if not r.any_error]
    assert len(body_rows(render_truth_table_html(rows))) == 3


def note(html):
    return Tree(html).find_all("tk-small")[0].text()


def test_the_note_says_which_rounds_the_table_holds():
    """Every table said "every combination of one and two calls, without and with a failing
    call": of three rows without a failure too, and of truth_table(3)'s 78 rounds."""
    assert note(render_truth_table_html()) == (
        "24 rounds: every combination of one and two calls, without and with a failing call"
    )
    assert note(render_truth_table_html(truth_table(3))) == (
        "78 rounds: every combination of 1 to 3 calls, without and with a failing call"
    )
    assert note(render_truth_table_html(truth_table(1))) == (
        "6 rounds: every combination of one call, without and with a failing call"
    )
    rows = [r for r in truth_table(1) if not r.any_error]
    assert note(render_truth_table_html(rows)) == "3 rounds of one call, without a failing call"
    assert note(render_truth_table_html(truth_table()[-2:])) == "2 rounds of two calls, with a failing call"
    mixed = [truth_table()[0], truth_table()[-1]]
    assert note(render_truth_table_html(mixed)) == "2 rounds of one and two calls, without and with a failing call"
    assert note(render_truth_table_html([])) == "no rounds"
