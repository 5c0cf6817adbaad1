"""Week 3's views: well-formed, escaped, coloured by verdict, with a text fallback."""

import datetime

import pytest
from html_tree import Tree

from toolkit.chat.switch import fake_client
from toolkit.course.accuracy import AccuracyCase, CaseResult
from toolkit.course.drill import DrillCase, load_cases, run_case, run_drill
from toolkit.course.probe import probe
from toolkit.views.week3 import (
    accuracy_view,
    confusion,
    drill_view,
    probe_view,
    render_accuracy_html,
    render_drill_html,
    render_probe_html,
)

TODAY = datetime.date(2026, 10, 25)


def result(id, expect, called, verdict, group="normal", order_id=""):
    case = AccuracyCase(id, group, f"问题 {id} <b>", expect, order_id)
    invented = int(verdict == "invented_argument")
    return CaseResult(case, tuple(called), order_id, verdict, 1 + bool(called), invented=invented)


RESULTS = [
    result("N1", "query_order", ["query_order"], "pass", order_id="SN202610200001"),
    result("N2", "query_order", [], "missed_call"),
    result("N3", "query_logistics", ["query_order"], "wrong_tool"),
    result(
        "N4",
        "query_logistics",
        ["query_logistics", "query_refund_policy"],
        "invented_argument",
        order_id="SN209999999999",
    ),
    result("A1", "", ["query_order"], "unwanted_call", group="no_call"),
    result("A2", "", [], "pass", group="no_call"),
]


def badges(tree, kind):
    return [b.text() for b in tree.find_all("tk-badge") if f"tk-{kind}" in b.classes]


def test_accuracy_view_colours_each_verdict():
    tree = Tree(render_accuracy_html(RESULTS))
    cases_table = tree.find_all("tk-table")[-1]
    verdicts = [b.text() for b in cases_table.find_all("tk-badge")]
    assert verdicts == ["pass", "missed_call", "wrong_tool", "invented_argument", "unwanted_call", "pass"]
    kinds = [
        next(c for c in b.classes if c in ("tk-ok", "tk-warn", "tk-error")) for b in cases_table.find_all("tk-badge")
    ]
    assert kinds == ["tk-ok", "tk-warn", "tk-error", "tk-error", "tk-warn", "tk-ok"]
    assert "2 / 6 = 33.3%" in badges(tree, "error")
    assert "NOT met" in tree.root.text() and "问题 N1 <b>" in tree.root.text()


def test_the_group_summary_and_the_confusion_view():
    labels, counts = confusion(RESULTS)
    assert labels == ["query_logistics", "query_order", "(no call)"]
    assert counts == [[1, 1, 0], [0, 1, 1], [0, 1, 1]]
    text = Tree(render_accuracy_html(RESULTS)).root.text()
    assert "expected \\ called" in text and "normal" in text and "no_call" in text


def test_drill_view_rows_and_totals():
    outcomes = run_drill(load_cases(), TODAY)
    tree = Tree(render_drill_html(outcomes))
    assert badges(tree, "ok").count("PASS") == 32 and "32 passed, 0 failed" in tree.root.text()
    bad = run_case(DrillCase("X1", "query_order", '{"orderId": "1"}', "ok", "orderId", "1"), TODAY)
    tree = Tree(render_drill_html([bad]))
    assert badges(tree, "error") == ["FAIL"] and "0 passed, 1 failed" in tree.root.text()
    assert '字段=orderId，收到="1"' in tree.root.text()


@pytest.mark.parametrize("mode, kind", [("A", "ok"), ("B", "warn"), ("C", "error"), ("D", "error"), ("E", "warn")])
def test_probe_card_shows_the_verdict_and_the_raw_exchange(mode, kind):
    res = probe(fake_client(mode=mode))
    tree = Tree(render_probe_html(res))
    assert badges(tree, kind)[0].startswith(f"{mode} · ")
    assert "raw response" in tree.root.text() and "帮我查一下订单 SN202610200001 现在到哪了？" in tree.root.text()


def test_widgets_carry_html_and_the_cli_text():
    for view, last in [
        (accuracy_view(RESULTS), "invented arguments: 1"),
        (drill_view(run_drill(load_cases(), TODAY)), "32 passed, 0 failed"),
        (probe_view(probe(fake_client(mode="B"))), "verdict: B"),
    ]:
        bundle = view._repr_mimebundle_()
        assert bundle["text/html"].startswith('<div class="tk tex2jax_ignore mathjax_ignore"')
        assert bundle["text/plain"].splitlines()[-1] == last


def test_the_drill_shows_whitespace_and_keeps_ids_on_one_line():
    spaced = run_case(DrillCase("S1", "query_order", '{"orderId": "SN 2026\u3000X"}', "ok", "orderId", "x"), TODAY)
    tree = Tree(render_drill_html([spaced]))
    raw = [s for s in tree.find_all("tk-one-line") if "orderId" in s.text()]
    assert [s.text() for s in raw] == ['{"orderId":␣"SN␣2026□X"}']
    assert "white-space:pre" in raw[0].attrs["style"]


def test_wide_accuracy_tables_scroll_inside_their_card():
    html = render_accuracy_html(RESULTS)
    tree = Tree(html)
    assert len(tree.find_all("tk-scroll")) == 3
    assert all("overflow-x:auto" in d.attrs["style"] for d in tree.find_all("tk-scroll"))
    ids = [s.text() for s in tree.find_all("tk-one-line")]
    assert "SN202610200001" in ids and "SN209999999999" in ids


def test_an_interrupted_suite_shows_its_unfinished_cases_without_counting_them():
    """`SuiteInterrupted.results` holds `not_run` cases: the view raised KeyError('not_run')."""
    from toolkit.course.accuracy import not_run

    results = [*RESULTS, not_run(AccuracyCase("N9", "normal", "问题 N9", "query_order", ""))]
    tree = Tree(render_accuracy_html(results))
    cases_table = tree.find_all("tk-table")[-1]
    assert [b.text() for b in cases_table.find_all("tk-badge")][-1] == "not_run"
    assert "2 / 6 = 33.3%" in badges(tree, "error")
    assert "1 case (the suite was interrupted): not counted" in tree.root.text()
    assert confusion(results) == confusion(RESULTS)
    assert accuracy_view(results)._repr_mimebundle_()["text/plain"].splitlines()[-6] == "[NOT RUN] N9 问题 N9"


def test_the_drill_shows_every_character_you_could_not_see():
    """A no-break space looked like a space, a zero-width space and a carriage return like
    nothing: `SN\\u200b2026…` read as a clean id in the raw-arguments column."""
    from toolkit.views.week3 import visible_whitespace

    assert visible_whitespace("SN\u00a02026\u200b10\r\n\u2028x") == "SN⟨U+00A0⟩2026⟨U+200B⟩10⟨U+000D⟩↵⟨U+2028⟩x"
    assert visible_whitespace("SN 2026\u3000\t订单") == "SN␣2026□⇥订单"
    odd = run_case(DrillCase("S2", "query_order", '{"orderId": "SN\u200b202610200001"}', "reject", "orderId"), TODAY)
    text = Tree(render_drill_html([odd])).root.text()
    assert '{"orderId":␣"SN⟨U+200B⟩202610200001"}' in text and "⟨U+…⟩ another character you could not see" in text
    plain = Tree(render_drill_html(run_drill(load_cases(), TODAY))).root.text()
    assert "⟨U+" not in plain  # the course's cases use only the four marks


def test_a_model_that_invents_a_tool_per_case_gets_a_bounded_confusion_view():
    """800 cases whose model called 800 different made-up tools drew an 801 × 801 confusion table:
    122 MB of HTML in 21 s (the table grew with the square of the names). Past CONFUSION_LABELS
    names, the least used ones are counted together under one label, and no case is lost."""
    from toolkit.views.week3 import CONFUSION_LABELS

    invented = [result(f"X{i}", "query_order", [f"made_up_{i:04}"], "wrong_tool") for i in range(800)]
    labels, counts = confusion([*RESULTS, *invented])
    kept = CONFUSION_LABELS - 1
    assert labels[:3] == ["made_up_0000", "made_up_0001", "made_up_0002"]
    assert labels[-4:] == ["query_logistics", "query_order", "(no call)", f"({800 - kept + 3} other tools)"]
    assert len(labels) == CONFUSION_LABELS and len(counts) == CONFUSION_LABELS
    assert sum(map(sum, counts)) == len(RESULTS) + 800
    assert counts[labels.index("query_order")][-1] == 800 - kept + 3
    assert counts[labels.index("query_logistics")] == [0] * (kept - 3) + [1, 1, 0, 0]
    assert len(render_accuracy_html(invented)) < 3_000_000  # the cases table: some 2.5 kB a case


@pytest.mark.parametrize(
    "view, given, text",
    [
        (accuracy_view, None, "accuracy_view(): takes the list of CaseResult run_suite(...) returns, and got None"),
        (accuracy_view, ["x"], "accuracy_view(): item 0 is a str, not a CaseResult; pass what run_suite(...) returns"),
        (drill_view, None, "drill_view(): takes the list of DrillOutcome run_drill(...) returns, and got None"),
        (
            drill_view,
            [RESULTS[0]],
            "drill_view(): item 0 is a CaseResult, not a DrillOutcome; pass what run_drill(...) returns",
        ),
    ],
)
def test_a_week3_view_of_something_else_is_one_readable_line(view, given, text):
    """accuracy_view(None) raised "'NoneType' object is not iterable", accuracy_view(["x"])
    "'str' object has no attribute 'verdict'"."""
    from toolkit.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as caught:
        view(given)
    assert str(caught.value) == text


def test_a_suite_of_thousands_of_cases_draws_the_first_and_last_500():
    """10,000 cases drew every one: 24 MB of HTML in 5 s. The cases table now draws the first and
    last `SHOWN_ITEMS // 2` and a row saying which it left out; the headline and the confusion view
    still count every case."""
    from toolkit.views.html import SHOWN_ITEMS

    many = [result(f"C{i:04}", "query_order", ["query_order"], "pass") for i in range(SHOWN_ITEMS + 200)]
    tree = Tree(render_accuracy_html(many))
    rows = tree.find_all("tk-card")[-1].find_all("tk-tr")[1:]
    assert len(rows) == SHOWN_ITEMS + 1
    assert rows[500].text().startswith("… 200 cases not shown: cases 501 to 700")
    assert rows[499].find_all("tk-td")[0].text() == "C0499" and rows[501].find_all("tk-td")[0].text() == "C0700"
    assert f"{SHOWN_ITEMS + 200} / {SHOWN_ITEMS + 200} = 100.0%" in tree.find_all("tk-card")[0].text()


def test_a_drill_of_thousands_of_cases_draws_the_first_and_last_500():
    """The drill table drew every case, as the accuracy table did: the first and last
    `SHOWN_ITEMS // 2` now, a row naming the rest, and the totals over all of them."""
    from toolkit.views.html import SHOWN_ITEMS

    case = DrillCase("D", "query_order", '{"orderId": "SN202610200001"}', "ok", "orderId", "SN202610200001")
    outcome = run_case(case, TODAY)
    tree = Tree(render_drill_html([outcome] * (SHOWN_ITEMS + 3)))
    rows = tree.find_all("tk-tr")[1:]
    assert len(rows) == SHOWN_ITEMS + 1 and rows[500].text().startswith("… 3 cases not shown: cases 501 to 503")
    assert f"{SHOWN_ITEMS + 3} passed, 0 failed" in tree.find_all("tk-card")[0].text()


def test_a_probe_of_a_gateway_that_answers_megabytes_has_a_bounded_text():
    """A gateway answering the probe with a 3 MB error body put all of it in probe_view's text/plain
    (the saved notebook), while its HTML cut it at SHOWN_CHARS → the text cuts it the same way."""
    from toolkit.chat.client import Exchange
    from toolkit.course.probe import ProbeResult, classify
    from toolkit.views.html import SHOWN_CHARS

    body = '{"error": {"message": "' + "x" * 3_000_000 + '"}}'
    verdict, reason = classify(500, body)
    exchange = Exchange("http://gw/v1/chat/completions", {"model": "m"}, 500, body, 1)
    view = probe_view(ProbeResult(verdict, reason, "Fix the connection first.", exchange))
    text = view._repr_mimebundle_()["text/plain"]
    lines = text.splitlines()
    assert lines[3] == body[:SHOWN_CHARS] + f"…({len(body) - SHOWN_CHARS:,} more characters not shown)"
    assert lines[2] == "HTTP 500" and lines[-1] == "verdict: ?"
    assert len(text) < SHOWN_CHARS + 2_000


@pytest.mark.parametrize(
    "render, given, text",
    [
        (
            probe_view,
            None,
            "probe_view(): takes the ProbeResult probe(client) returns, and got None",
        ),
        (
            render_probe_html,
            RESULTS,
            "render_probe_html(): takes the ProbeResult probe(client) returns, and got a list",
        ),
        (
            render_drill_html,
            None,
            "render_drill_html(): takes the list of DrillOutcome run_drill(...) returns, and got None",
        ),
        (
            render_accuracy_html,
            [1],
            "render_accuracy_html(): item 0 is an int, not a CaseResult; pass what run_suite(...) returns",
        ),
    ],
)
def test_a_week3_renderer_of_something_else_is_one_readable_line(render, given, text):
    """probe_view(None) raised "'NoneType' object has no attribute 'exchange'" (drill_view and
    accuracy_view said what they take), and the renderers under all three a raw TypeError/AttributeError."""
    from toolkit.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as caught:
        render(given)
    assert str(caught.value) == text


def test_the_text_of_thousands_of_cases_keeps_the_first_and_last_500_as_the_table_does():
    """accuracy_view and drill_view of 100,000 cases drew 1,000 rows and a note in the HTML, but
    their text/plain (the saved notebook, a plain reader) listed every case: 7.5 MB. The text keeps
    the same rows and note; the totals still count every case."""
    from toolkit.views.html import SHOWN_ITEMS

    many = [result(f"C{i:04}", "query_order", ["query_order"], "pass") for i in range(SHOWN_ITEMS + 200)]
    lines = accuracy_view(many)._repr_mimebundle_()["text/plain"].splitlines()
    assert len(lines) == SHOWN_ITEMS + 1 + 4
    assert lines[499].startswith("[PASS] C0499 ") and lines[501].startswith("[PASS] C0700 ")
    assert lines[500] == "… 200 cases not shown: cases 501 to 700"
    assert (
        lines[-3] == f"tool-selection accuracy: {SHOWN_ITEMS + 200} / {SHOWN_ITEMS + 200} = 100.0% (pass line 85%: met)"
    )
    case = DrillCase("D", "query_order", '{"orderId": "SN202610200001"}', "ok", "orderId", "SN202610200001")
    lines = drill_view([run_case(case, TODAY)] * (SHOWN_ITEMS + 3))._repr_mimebundle_()["text/plain"].splitlines()
    assert len(lines) == SHOWN_ITEMS + 1 + 2
    assert lines[500] == "… 3 cases not shown: cases 501 to 503"
    assert lines[-1] == f"{SHOWN_ITEMS + 3} passed, 0 failed"


def test_a_case_of_a_megabyte_is_cut_in_the_text_as_in_the_table():
    """A model's order id of 300,000 characters (and a question of a million) went whole into the
    case's line of accuracy_view's text/plain; the table cut each cell at SHOWN_CHARS."""
    from toolkit.views.html import SHOWN_CHARS

    case = AccuracyCase("N1", "normal", "问" * 1_000_000, "query_order", "SN202610200001")
    huge = CaseResult(case, ("query_order",), "SN1" * 100_000, "invented_argument", 2, invented=1)
    (line,) = accuracy_view([huge])._repr_mimebundle_()["text/plain"].splitlines()[:1]
    assert line.startswith("[FAIL] N1 问问问") and line.endswith(" more characters not shown)")
    assert len(line) < SHOWN_CHARS + 100
