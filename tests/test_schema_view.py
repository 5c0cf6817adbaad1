"""The schema explainer: pure HTML (three columns, lint, token counts) and its thin widget."""

import json
from typing import Annotated

import ipywidgets as widgets
import tool_fixtures as F
from html_tree import Tree

from toolkit.errors import ToolDefinitionError
from toolkit.tokens import estimate_json_tokens
from toolkit.tools.decorator import Param, tool
from toolkit.tools.execute import Tool, tools_from
from toolkit.tools.reflect import ToolSpec
from toolkit.views.schema import (
    SchemaExplainer,
    render_schema_html,
    render_schema_text,
    schema_explainer,
    signature_text,
    summary,
)

TOOLS = tools_from(F.query_order, F.search_orders, F.label_orders)


def test_one_card_per_tool_with_three_columns():
    tree = Tree(render_schema_html(TOOLS))
    cards = tree.find_all("tk-tool")
    assert [c.find_all("tk-title")[0].text() for c in cards] == ["query_order", "search_orders", "label_orders"]
    heads = [th.text() for th in cards[0].find_all("tk-th")]
    assert heads == ["Python signature", "JSON Schema", "strict mode"]
    assert len(cards[0].find_all("tk-td")) == 3


def test_columns_show_signature_schema_and_strict_schema():
    card = Tree(render_schema_html(TOOLS, only="query_order")).find_all("tk-tool")
    assert len(card) == 1
    cells = [td.text() for td in card[0].find_all("tk-td")]
    assert cells[0] == (
        "def query_order(\n    order_id: Annotated[str, Param('Order id, e.g. "
        "SN202610200001', name='orderId')],\n) -> str"
    )
    assert '"orderId": {\n' in cells[1] and '"strict"' not in cells[1]
    assert '"strict": true' in cells[2]


def test_a_tool_that_cannot_be_strict_shows_why():
    card = Tree(render_schema_html(TOOLS, only="label_orders")).find_all("tk-tool")[0]
    error = card.find_all("tk-error")
    assert len(error) == 1 and "cannot be strict" in error[0].text()
    assert "free-form dict" in error[0].text()


def test_lint_warnings_and_the_ok_badge():
    @tool
    def query(arg0: str) -> str:
        """Query data."""
        return ""

    html = render_schema_html(tools_from(query, F.query_order))
    tree = Tree(html)
    lint = tree.find_all("tk-warn")
    assert lint and "⚠ query: the description 'Query data.' is too vague" in lint[0].text()
    assert "⚠ query.arg0: the name 'arg0' says nothing about the value" in lint[0].text()
    assert "✓ no lint warnings" in tree.find_all("tk-tool")[1].text()


def test_summary_counts_tokens_of_the_tools_block():
    specs = [t.spec for t in TOOLS]
    normal = estimate_json_tokens([s.to_openai() for s in specs])
    assert summary(specs) == f"3 tools · tools block ≈ {normal} tokens (strict: not possible for every tool)"
    one = [TOOLS[0].spec]
    strict = estimate_json_tokens([one[0].to_openai(strict=True)])
    assert summary(one) == (
        f"1 tool · tools block ≈ {estimate_json_tokens([one[0].to_openai()])} tokens (strict: {strict} tokens)"
    )
    assert summary(specs) in render_schema_html(TOOLS)


def test_text_rendering():
    """A tool of one parameter read "1 parameters" (week 5 showed it under every one-parameter tool)."""
    assert render_schema_text(TOOLS).splitlines()[1:] == [
        "- query_order: 1 parameter (1 required), 0 lint warnings",
        "- search_orders: 5 parameters (1 required), 3 lint warnings",
        "- label_orders: 2 parameters (1 required), 2 lint warnings",
    ]


def test_hand_written_specs_and_escaping():
    spec = ToolSpec("evil", "<script>alert(1)</script> does things for users", None)
    tool_spec = ToolSpec("evil_tool", "<script>alert(1)</script> does things for users", None)  # a name of its own
    html = render_schema_html([spec, Tool(tool_spec, lambda c, ctx: None)])
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "(hand-written spec: no Python function)" in Tree(html).text


def test_rendering_is_deterministic():
    assert render_schema_html(TOOLS) == render_schema_html(tools_from(F.query_order, F.search_orders, F.label_orders))


def test_signature_text():
    def f(a: int, b: Annotated[str, Param("x")] = "y") -> None: ...

    assert signature_text(f) == "def f(\n    a: int,\n    b: Annotated[str, Param('x')] = 'y',\n) -> None"
    assert signature_text(F.current_time) == "def current_time() -> str"


def test_widget_switches_tool_and_keeps_readable_outputs():
    view = schema_explainer(TOOLS)
    assert isinstance(view, SchemaExplainer) and isinstance(view, widgets.VBox)
    pick, html = view.children
    assert list(pick.options) == ["query_order", "search_orders", "label_orders"]
    assert html.value == render_schema_html(TOOLS, only="query_order")
    pick.value = "label_orders"
    assert html.value == render_schema_html(TOOLS, only="label_orders")
    bundle = view._repr_mimebundle_()
    assert bundle["text/plain"] == render_schema_text(TOOLS)
    assert bundle["text/html"] == render_schema_html(TOOLS)
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_signature_never_shows_a_fieldinfo_repr():
    """Polish issue (week 5): an optional `limit` with default 10 shows `limit: ... = 10`."""
    from pydantic import Field

    def search(
        query: str,
        limit: Annotated[int, Field(ge=1, le=50, description="At most this many")] = 10,
        page: int = Field(1, ge=1, description="Page"),
        since: int = Field(..., ge=0),
    ) -> str:
        return ""

    text = signature_text(search)
    assert "FieldInfo" not in text
    assert text.splitlines()[1:5] == [
        "    query: str,",
        "    limit: Annotated[int, Field(ge=1, le=50, description='At most this many')] = 10,",
        "    page: int = 1,",
        "    since: int,",
    ]


def test_json_columns_keep_their_lines_and_stay_short():
    card = render_schema_html(TOOLS, only="search_orders")
    assert "white-space:pre;overflow-x:auto" in card
    code = Tree(card).find_all("tk-tool")[0].find_all("tk-td")[1].text()
    assert all(len(line) <= 90 for line in code.splitlines() if '"description"' not in line)
    spec = tools_from(F.search_orders)[0].spec.to_openai()["function"]
    assert len(code.splitlines()) < 0.8 * len(json.dumps(spec, indent=2).splitlines())


class Marker:
    pass


SENTINEL = Marker()


def test_a_default_shows_no_memory_address():
    """`y: Any = SENTINEL` showed `<…Marker object at 0x7f…>`: another text in every run (nbval)."""
    from typing import Any

    @tool("Echo")
    def echo(y: Any = SENTINEL, callback: Any = print) -> str:
        return ""

    assert signature_text(echo).splitlines()[1:3] == [
        "    y: Any = <test_schema_view.Marker object>,",
        "    callback: Any = <built-in function print>,",
    ]
    assert " at 0x" not in render_schema_html(tools_from(echo))


def test_a_description_that_reads_like_the_css_of_a_cell_is_shown_as_written():
    """The columns' no-wrap style was put in by replacing the wrap style in the cells' markup,
    so a description holding that text was shown changed."""
    css = "white-space:pre-wrap;overflow-wrap:break-word"
    spec = ToolSpec("styled", f"Sets {css} on the page", None)
    columns = Tree(render_schema_html([spec])).find_all("tk-tool")[0].find_all("tk-td")
    assert [f"Sets {css} on the page" in column.text() for column in columns] == [False, True, True]


def test_a_tool_function_is_shown_as_its_tool_alone_or_in_a_list():
    """`render_schema_html([query_order])` (the `@tool` function itself) was lint_tools' error "give it
    ToolSpecs (tool.spec), Tools, or…", and `schema_explainer(query_order)` a raw TypeError."""
    import pytest

    tools = tools_from(F.query_order)
    assert render_schema_html([F.query_order]) == render_schema_html(tools)
    assert render_schema_text(F.query_order) == render_schema_text(tools)
    assert schema_explainer(F.query_order)._repr_mimebundle_()["text/html"] == render_schema_html(tools)
    with pytest.raises(ToolDefinitionError) as caught:  # the name, not the function: tools_from's readable line
        render_schema_html(["query_order"])
    assert str(caught.value).startswith("tools_from(str object): 'query_order' is a str, not a tool")


def test_a_card_lists_a_bounded_number_of_lint_warnings():
    """Alike descriptions make one overlap warning per pair, and each card listed all of its own:
    400 alike tools made a 15 MB view (399 warnings on each card). A card lists `CARD_LINT` and
    counts the rest; the text fallback counts them all."""
    from toolkit.tools.lint import lint_tools
    from toolkit.views.schema import CARD_LINT

    specs = [ToolSpec(f"look_up_{i}", f"Look up thing number {i} and return it") for i in range(CARD_LINT + 6)]
    assert len(lint_tools(specs)) == len(specs) * (len(specs) - 1) // 2
    cards = Tree(render_schema_html(specs)).find_all("tk-tool")
    lines = cards[0].find_all("tk-warn")[0].find_all("tk-text")[0].text().split("\n")
    assert lines[:-1] == [
        f"⚠ the descriptions of look_up_0 and look_up_{i} share 71% of their words; say when to use each"
        for i in range(1, CARD_LINT + 1)
    ]
    assert lines[-1] == "… 5 more lint warnings for this tool (toolkit.tools.lint.lint_tools lists every one)"
    assert f"- look_up_0: 0 parameters (0 required), {len(specs) - 1} lint warnings" in render_schema_text(specs)


def test_a_default_whose_repr_raises_is_shown_by_its_type():
    """A default of a class whose `__repr__` raises (a str subclass of the learner's) raised that
    error out of the explainer: the signature column wrote the default's repr."""

    class Code(str):
        def __repr__(self):
            raise RuntimeError("no repr")

    @tool("Look a product up by its code.")
    def look_up(code: Annotated[str, Param("The product code")] = Code("A1")) -> str:
        return code

    assert signature_text(look_up) == (
        "def look_up(\n    code: Annotated[str, Param('The product code')] = <Code object>,\n) -> str"
    )
    assert "= &lt;Code object&gt;" in SchemaExplainer(tools_from(look_up))._repr_mimebundle_()["text/html"]


def test_no_tools_send_no_tools_block():
    """With no tool the summary read "0 tools · tools block ≈ 1 tokens (strict: 1 tokens)": the
    estimate of an empty list, though a request without tools sends no block at all."""
    assert summary([]) == "0 tools · no tools block (a request without tools sends none)"


@tool("Look up one order by its id.", name="lookup")
def by_order(order_id: str) -> str:
    return ""


@tool("Look up a parcel's route by its tracking number.", name="lookup")
def by_parcel(tracking: int) -> str:
    return ""


def test_two_tools_of_one_name_are_refused_as_a_registry_refuses_them():
    """`schema_explainer([a, b])` of two `@tool(name="lookup")` functions (each passed through
    tools_from alone) drew two 'lookup' cards, each listing both tools' lint warnings ('lookup.tracking
    has no description' under the card without it), and counted a tools block no registry takes;
    ToolSpecs alike. Refused with tools_from's own words, a spec's naming the rule and the fix."""
    import pytest

    for given in ([by_order, by_parcel], [*tools_from(by_order), *tools_from(by_parcel)]):
        with pytest.raises(ToolDefinitionError) as caught:
            schema_explainer(given)
        assert str(caught.value) == (
            f"@tool {__name__}.by_parcel: the tool name 'lookup' is already used by @tool {__name__}.by_order. "
            "Fix: give one of them another name, e.g. @tool(name=...)"
        )
    specs = [ToolSpec("lookup", "Look up one order by its id."), ToolSpec("lookup", "Look up a parcel.")]
    for render in (render_schema_html, render_schema_text, schema_explainer):
        with pytest.raises(ToolDefinitionError) as caught:
            render(specs)
        assert str(caught.value) == (
            "tool 'lookup': the name is given to two tools (a tools block names each tool once: the model "
            "could not tell them apart). Fix: give one of them another name, or pass it once"
        )
    with pytest.raises(ToolDefinitionError) as caught:
        render_schema_html([specs[0], tools_from(by_order)[0]])
    assert str(caught.value).startswith("tool 'lookup': the name is given to two tools")


def test_a_catalogue_of_thousands_of_tools_draws_the_first_and_last_500_cards():
    """render_schema_html of 2,000 tools drew 2,000 cards (11 MB) and the text 2,000 lines, where
    every other view of many items keeps the first and last SHOWN_ITEMS // 2 and names the rest;
    the summary still counts every tool."""
    from toolkit.views.html import SHOWN_ITEMS

    specs = [ToolSpec(f"tool_{i}", f"w{i}a w{i}b w{i}c w{i}d") for i in range(SHOWN_ITEMS + 3)]
    tree = Tree(render_schema_html(specs))
    cards = tree.find_all("tk-tool")
    assert len(cards) == SHOWN_ITEMS
    assert "… 3 tools not shown: tools 501 to 503" in tree.text
    assert tree.text.startswith(f"Tool schemas{SHOWN_ITEMS + 3} tools")
    lines = render_schema_text(specs).splitlines()
    assert lines[0].startswith(f"{SHOWN_ITEMS + 3} tools · tools block ≈ ")
    assert len(lines) == 1 + SHOWN_ITEMS + 1
    assert lines[501] == "… 3 tools not shown: tools 501 to 503"
    assert lines[502].startswith("- tool_503: 0 parameters")
