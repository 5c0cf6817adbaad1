"""`toolkit.views.truth_table`: the truth-table widget and renderers given rows that are no rows.

`TruthTableWidget(5)` (the number of calls, most likely) was a raw `TypeError`; `TruthTableWidget("x")`
and `TruthTableWidget([None])` were taken, the widget showed its controls as if nothing were wrong, and
its saved output failed (`'str' object has no attribute 'behaviors'`); the renderers read a str letter
by letter. Each is now a `ConfigurationError` naming the fix; a generator of rows is read once."""

import pytest

from toolkit.errors import ConfigurationError
from toolkit.loop.returns import truth_table
from toolkit.views.truth_table import TruthTableWidget, render_truth_table_html, render_truth_table_text

TAKES = "takes a list of TruthRow (truth_table() makes them)"


def said(make) -> str:
    with pytest.raises(ConfigurationError) as caught:
        make()
    return str(caught.value)


def test_a_number_points_at_truth_table_of_that_many_calls():
    assert said(lambda: TruthTableWidget(5)) == (
        f"TruthTableWidget(5): {TAKES}, and got an int. Fix: for rounds of up to 5 calls: "
        "TruthTableWidget(truth_table(5))"
    )


@pytest.mark.parametrize(
    ("rows", "text"),
    [
        ("x", f"TruthTableWidget('x'): {TAKES}, and got a str. Fix: leave it out for the whole table, or pass "
         "some of its rows, e.g. TruthTableWidget(truth_table()[:3])"),
        ([None], "TruthTableWidget([...]): row 0 is None, not a TruthRow. Fix: leave it out for the whole table, "
         "or pass some of its rows, e.g. TruthTableWidget(truth_table()[:3])"),
        (truth_table()[0], f"TruthTableWidget(TruthRow(...)): {TAKES}, and got a TruthRow. Fix: put it in a list: "
         "TruthTableWidget([row])"),
    ],
)  # fmt: skip
def test_rows_that_are_no_list_of_rows_are_refused_at_construction(rows, text):
    assert said(lambda: TruthTableWidget(rows)) == text


def test_the_renderers_refuse_them_too():
    assert said(lambda: render_truth_table_text("x")).startswith(
        f"render_truth_table_text('x'): {TAKES}, and got a str"
    )
    assert said(lambda: render_truth_table_html([None])).startswith("render_truth_table_html([...]): row 0 is None")


def test_a_generator_of_rows_is_read_once_and_shown_whole():
    rows = truth_table()[:3]
    widget = TruthTableWidget(r for r in rows)
    assert widget._repr_mimebundle_()["text/plain"].endswith(render_truth_table_text(rows))
