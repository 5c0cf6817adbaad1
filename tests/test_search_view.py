"""Search views: pure renderers, deterministic, escaped."""

import xml.etree.ElementTree as ET

import pytest
from html_tree import Tree

from toolkit.search.catalog import ALL_TOOLS, EvalRow
from toolkit.search.keyword import Match
from toolkit.search.tool import SearchOutcome
from toolkit.views.search import (
    COLOURS,
    SearchView,
    SelectionChart,
    render_search_html,
    render_search_text,
    render_selection_chart_svg,
    render_selection_html,
    render_selection_table,
)

FOUND = SearchOutcome(
    "KeywordSearch",
    '{"terms": ["cancel", "<b>"]}',
    ["cancel", "<b>"],
    329,
    (Match("cancel_order", "Cancel an order.", 6), Match("cancel_subscription", "", 2)),
)
ERROR = SearchOutcome("VectorSearch", "{}", None, 12, error="Missing required tool argument 'query'. Retry.")


def test_search_html_shows_matches_scores_found_tools_and_the_model_text():
    tree = Tree(render_search_html(FOUND)).root
    cells = [c.text() for c in tree.find_all("tk-td")]
    assert ["1", "cancel_order", "6", "Cancel an order.", "2", "cancel_subscription", "2", ""] == cells[3:11]
    assert [b.text() for b in tree.find_all("tk-badge")] == ["cancel_order", "cancel_subscription"]
    assert tree.find_all("tk-card")[-1].find_all("tk-text")[0].text() == FOUND.text()
    html = render_search_html(FOUND)
    assert "&quot;&lt;b&gt;&quot;" in html and "<b>" not in html


def test_an_argument_error_is_a_red_card_without_a_table():
    html = render_search_html(ERROR)
    tree = Tree(html).root
    assert tree.find_all("tk-error")[0].find_all("tk-text")[0].text() == ERROR.error
    assert "cancel" not in html and len(tree.find_all("tk-table")) == 1


def test_text_summary_and_widget_bundle():
    assert render_search_text(FOUND) == (
        'KeywordSearch {"terms": ["cancel", "<b>"]} → searched 329 tools\n'
        "1. cancel_order (6)\n2. cancel_subscription (2)\n"
        "found_tools: ['cancel_order', 'cancel_subscription']"
    )
    assert render_search_text(ERROR).endswith("error: " + ERROR.error)
    bundle = SearchView(FOUND)._repr_mimebundle_()
    assert bundle["text/html"] == render_search_html(FOUND) and bundle["text/plain"] == render_search_text(FOUND)


def test_vector_scores_show_three_decimals():
    outcome = SearchOutcome("VectorSearch", "{}", "q", 3, (Match("a", "", 0.81234),))
    assert "0.812" in render_search_html(outcome)


ROWS = [
    EvalRow(100, ALL_TOOLS, 1.0, 1.0, 9000.0),
    EvalRow(100, "keyword", 0.9, 0.8, 300.0),
    EvalRow(100, "vector", 0.7, 0.5, 500.0),
    EvalRow(300, ALL_TOOLS, 1.0, 1.0, 27000.0),
    EvalRow(300, "keyword", 0.85, 0.8, 320.0),
    EvalRow(300, "vector", 0.5, 0.4, 510.0),
]


def test_chart_is_valid_deterministic_svg_with_two_lines_per_strategy():
    svg = render_selection_chart_svg(ROWS)
    assert svg == render_selection_chart_svg(list(ROWS))
    root = ET.fromstring(svg)
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert [l.get("stroke") for l in lines] == list(COLOURS[:3]) * 2
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {ALL_TOOLS, "keyword", "vector", "tools in the catalogue", "100", "1,000", "100,000"} <= set(texts)
    left_keyword = [tuple(map(float, p.split(","))) for p in lines[1].get("points").split()]
    assert left_keyword[0][1] == 40 + 200 - 0.9 * 200 and left_keyword[1][1] == 40 + 200 - 0.85 * 200


def test_chart_bundle_and_tables():
    bundle = SelectionChart(ROWS)._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/plain"}
    assert bundle["text/plain"] == render_selection_table(ROWS)
    assert render_selection_table(ROWS).splitlines()[2] == "  100  keyword                      90%    80%     300"
    cells = [c.text() for c in Tree(render_selection_html(ROWS)).root.find_all("tk-td")]
    assert cells[5:10] == ["100", "keyword", "90%", "80%", "300"]


SVG = "{http://www.w3.org/2000/svg}"


def test_a_chart_of_no_rows_is_empty_panels_and_a_note():
    """`render_selection_chart_svg([])` raised ValueError (min() of an empty list)."""
    root = ET.fromstring(render_selection_chart_svg([]))
    assert root.findall(f"{SVG}polyline") == []
    assert "no rows to draw" in [t.text for t in root.iter(f"{SVG}text")]


def test_values_that_are_not_finite_are_left_out_of_the_drawing():
    """NaN or inf tokens raised (int() of NaN / inf on the log axis); NaN accuracy wrote `nan`
    into a polyline's points, which a browser refuses."""
    nan, inf = float("nan"), float("inf")
    rows = [EvalRow(10, "all", nan, 1.0, nan), EvalRow(20, "all", 0.5, 0.5, inf), EvalRow(30, "all", 1.0, 1.0, 900.0)]
    svg = render_selection_chart_svg(rows)
    root = ET.fromstring(svg)
    left, right = (line.get("points").split() for line in root.findall(f"{SVG}polyline"))
    assert (len(left), len(right)) == (2, 1)
    assert "nan" not in svg and "inf" not in svg
    assert render_selection_table(rows).splitlines()[1] == "   10  all                         nan%   100%     nan"


def test_every_strategy_gets_a_line_and_a_legend_entry_inside_the_chart():
    """Past five strategies the lines were dropped (zip with the five colours), and the legend
    of a fourth ran off the 760-pixel-wide chart."""
    rows = [EvalRow(size, f"s{i}", 0.1 * i, 0.1 * i, 100.0 * (i + 1)) for i in range(7) for size in (10, 20)]
    root = ET.fromstring(render_selection_chart_svg(rows))
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 2 * 7
    assert [line.get("stroke-dasharray") for line in lines[:7]] == [None] * 5 + ["6 3"] * 2
    width, height = int(root.get("width")), int(root.get("height"))
    legend = [t for t in root.iter(f"{SVG}text") if (t.text or "").startswith("s")]
    assert [t.text for t in legend] == [f"s{i}" for i in range(7)]
    assert all(float(t.get("x")) + 60 <= width and float(t.get("y")) <= height for t in legend)


def test_text_shows_escaped_arguments_as_the_characters_the_html_shows():
    """`{"terms": ["\\u9000\\u6b3e"]}` (how many gateways, and `json.dumps`, write 退款) was shown
    escaped in the text, while the HTML showed 退款: the search box's text of a Chinese query read
    as code points."""
    outcome = SearchOutcome("KeywordSearch", '{"terms": ["\\u9000\\u6b3e", "\\ud83d\\ude80", "a\\u0000b"]}', [], 3)
    assert render_search_text(outcome).splitlines()[0] == (
        'KeywordSearch {"terms": ["退款", "🚀", "a\\u0000b"]} → searched 3 tools'
    )


def test_a_search_of_no_arguments_is_shown_as_the_model_sent_none():
    """`ToolSearch.search(None, index)` (a gateway's tool call with `"arguments": null`) is taken and
    answered; its outcome kept None as its arguments, and both views failed on it with a raw TypeError."""
    from toolkit.search.tool import ToolSearch
    from toolkit.tools.reflect import ToolSpec

    search = ToolSearch()
    outcome = search.search(None, search.index([ToolSpec("refund", "Refund a payment")]))
    assert outcome.arguments == ""
    assert render_search_text(outcome) == (
        "KeywordSearch  → searched 1 tool\nerror: Missing required tool argument 'terms'. Call tool_search_tool "
        'again with arguments like {"terms": ["refund", "payment"]}.'
    )
    assert "Missing required tool argument" in render_search_html(outcome)
    found = search.search('{"terms": ["refund"]}', search.index([ToolSpec("refund", "Refund a payment")]))
    assert ">1 hidden tool<" in render_search_html(found)  # "1 hidden tools", "searched 1 tools" before
    assert render_search_text(found).startswith('KeywordSearch {"terms": ["refund"]} → searched 1 tool\n')


@pytest.mark.parametrize("given, kind", [(None, "None"), ("refund", "a str")])
def test_a_search_view_of_something_else_is_one_readable_line(given, kind):
    """SearchView(None) raised "'NoneType' object has no attribute 'strategy'"."""
    from toolkit.errors import ConfigurationError
    from toolkit.views.search import SearchView

    with pytest.raises(ConfigurationError) as caught:
        SearchView(given)
    assert str(caught.value) == (
        f"SearchView(): takes one SearchOutcome (what ToolSearch.search returns), and got {kind}; "
        'e.g. SearchView(search.search(\'{"terms": ["refund"]}\', index))'
    )


@pytest.mark.parametrize(
    "given, said",
    [
        (None, "takes the list of EvalRow evaluate(...) returns, and got None"),
        (5, "takes the list of EvalRow evaluate(...) returns, and got an int"),
        ({"keyword": 1}, "takes the list of EvalRow evaluate(...) returns, and got a dict"),
        ([ALL_TOOLS, 2], "row 0 is a str, not an EvalRow; pass what evaluate(...) returns"),
    ],
)
def test_a_chart_of_something_else_is_one_readable_line(given, said):
    """SelectionChart(None) raised "'NoneType' object is not iterable", and SelectionChart([1, 2]) was
    made, then raised "'int' object has no attribute 'strategy'" when the notebook drew it."""
    from toolkit.errors import ConfigurationError

    for make, where in (
        (SelectionChart, "SelectionChart"),
        (render_selection_table, "render_selection_table"),
        (render_selection_html, "render_selection_html"),
        (render_selection_chart_svg, "render_selection_chart_svg"),
    ):
        with pytest.raises(ConfigurationError) as caught:
            make(given)
        assert str(caught.value) == f"{where}(): {said}"


def test_a_strategy_named_over_lines_keeps_its_row_of_the_text_table_on_one_line():
    rows = [EvalRow(10, "keyword\nsearch", 0.5, 0.25, 100.0)]
    assert render_selection_table(rows).splitlines()[1] == ("   10  keyword\\nsearch              50%    25%     100")
