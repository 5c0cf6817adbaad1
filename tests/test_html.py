import re

import pytest
from html_tree import Tree

from toolkit.views.html import (
    KINDS,
    Html,
    badge,
    card,
    code_block,
    details,
    element,
    escape,
    join,
    kv_table,
    page,
    pretty_json,
    small,
    style,
    table,
    text_block,
)


def test_escape_and_html_values():
    assert escape('<script>alert("x")</script>') == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"
    assert escape(Html("<b>x</b>")) == "<b>x</b>"
    assert escape("订单 & 物流") == "订单 &amp; 物流"
    assert escape(3) == "3"


def test_concatenating_html_with_str_escapes_the_str():
    assert Html("<b>") + "<i>" == "<b>&lt;i&gt;"
    assert "<i>" + Html("<b>") == "&lt;i&gt;<b>"
    assert isinstance(Html("a") + "b", Html)
    assert join(["<x>", Html("<br>"), 1], sep=" ") == "&lt;x&gt; <br> 1"


def test_helpers_escape_their_arguments():
    out = card("<title>", "<script>alert(1)</script>", "user")
    assert "<script>" not in out and "<title>" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "<script>" not in table(["<th>"], [["<td>"]])
    assert "<script>" not in kv_table([("<script>", "<script>")])
    assert "<script>" not in badge("<script>") + details("<script>", "<script>") + small("<script>")


def test_nested_html_is_not_escaped_twice():
    out = card("t", table(["a"], [[badge("b", "ok")]]))
    tags = [tag for tag, _, _ in Tree(out).elements]
    assert tags == ["div", "div", "table", "thead", "tr", "th", "tbody", "tr", "td", "span"]


@pytest.mark.parametrize("kind", KINDS)
def test_card_and_badge_carry_their_kind(kind):
    tree = Tree(card("title", "body", kind) + badge("b", kind))
    classes = [attrs["class"] for _, attrs, _ in tree.elements]
    assert classes == [f"tk-card tk-{kind}", "tk-title", f"tk-badge tk-{kind}"]


def test_unknown_kind_is_a_developer_error():
    with pytest.raises(ValueError, match="unknown kind 'loud'.*system, user"):
        card("t", "b", kind="loud")


def test_pretty_json_sorts_keys_and_keeps_chinese():
    assert pretty_json('{"b": 1, "a": "中文"}') == '{\n  "a": "中文",\n  "b": 1\n}'
    assert pretty_json({"z": [1], "a": None}) == '{\n  "a": null,\n  "z": [\n    1\n  ]\n}'
    assert pretty_json('{"orderId": ') is None
    assert pretty_json('{"x": NaN}') is None  # Python accepts NaN; JSON does not
    assert pretty_json("") is None


def test_code_block_pretty_prints_valid_json_and_shows_invalid_raw():
    good = code_block('{"b":1,"a":"<x>"}')
    assert good.startswith('<pre class="tk-code tk-lang-json"')
    assert "{\n  &quot;a&quot;: &quot;&lt;x&gt;&quot;,\n  &quot;b&quot;: 1\n}</pre>" in good
    bad = code_block('{orderId: "ORD-1"')
    assert bad.endswith(">{orderId: &quot;ORD-1&quot;</pre>")
    assert code_block('{"b":1}', lang="text").endswith(">{&quot;b&quot;:1}</pre>")


def test_kv_table_keeps_order_and_table_has_header():
    tree = Tree(kv_table([("z", 1), ("a", 2)]))
    assert tree.text == "z1a2"
    tree = Tree(table(["col1", "col2"], [["a", "b"], ["c", "d"]]))
    assert [t for t, _, _ in tree.elements].count("th") == 2
    assert [t for t, _, _ in tree.elements].count("td") == 4


def test_details_is_closed_unless_asked():
    assert '<details class="tk-details"' in details("s", "b")
    assert " open>" not in details("s", "b")
    assert " open>" in details("s", "b", open=True)


def test_page_is_one_root_with_explicit_colours_and_no_style_block():
    out = page(text_block("hello"), title="标题")
    tree = Tree(out)
    root_tag, root_attrs, _ = tree.elements[0]
    assert root_tag == "div" and root_attrs["class"] == "tk tex2jax_ignore mathjax_ignore"
    assert "color:#1f2328" in root_attrs["style"] and "background:#ffffff" in root_attrs["style"]
    assert [depth for _, _, depth in tree.elements].count(0) == 1
    assert "<style" not in out and "标题" in out
    assert "heading" not in page("x")


def test_cells_and_code_set_their_own_colours_for_dark_themes():
    out = page(table(["h"], [["c"]]) + kv_table([("k", "v")]) + code_block("{}"))
    for tag, attrs, _ in Tree(out).elements:
        if tag in ("table", "th", "td", "pre"):
            assert re.search(r"(^|;)color:#", attrs["style"]), tag
            assert re.search(r"(^|;)background:#", attrs["style"]), tag


def test_element_without_a_style_has_no_style_attribute():
    assert element("tr", "tr", "x") == '<tr class="tk-tr">x</tr>'
    assert style("tr") == ""


def test_output_is_deterministic():
    def build():
        return page(card("t", code_block({"b": [1, 2], "a": {"y": 1, "x": 2}}) + badge("b")), "T")

    assert build() == build()
    assert not re.search(r"\bid=|0x[0-9a-f]{6,}", build())


def test_json_nested_deeper_than_python_reads_is_too_deep_not_a_crash():
    """`json.loads` of 100,000 nested brackets raised RecursionError out of every view."""
    from toolkit.views.html import DEPTH, TooDeep, json_problem, read_json

    deep = "[" * 100_000 + "]" * 100_000
    assert pretty_json(deep) is None
    assert code_block(deep).endswith(f">{deep}</pre>")  # shown as it came
    with pytest.raises(TooDeep, match=f"nested deeper than {DEPTH} levels"):
        read_json(deep)
    assert json_problem(deep) == f"nested deeper than {DEPTH} levels"
    assert json_problem("[" * DEPTH + "]" * DEPTH) is None  # as deep as a view lays out
    assert json_problem("[" * (DEPTH + 1) + "]" * (DEPTH + 1)) == f"nested deeper than {DEPTH} levels"
    assert json_problem('{"a": NaN}') == "invalid JSON"
    assert json_problem('{"a": 1}') is None


def test_a_value_nested_too_deep_or_holding_itself_is_written_with_a_marker():
    """`json_text` recursed without a bound: a value holding itself, or 5,000 levels, raised RecursionError."""
    from toolkit.views.html import CIRCULAR, DEEPER, DEPTH, json_text

    loop: list[object] = [1]
    loop.append(loop)
    assert json_text({"a": loop}) == f'{{"a": [1, "{CIRCULAR}"]}}'
    shared = [1]
    assert json_text([shared, shared]) == "[[1], [1]]"  # the same list twice is not a cycle
    deep: list[object] = []
    node = deep
    for _ in range(5_000):
        node.append([])
        node = node[0]  # type: ignore[assignment]
    assert json_text(deep) == "[" * DEPTH + f'"{DEEPER}"' + "]" * DEPTH
    assert DEEPER == f"…(nested deeper than {DEPTH} levels)"


def test_an_integer_too_long_to_write_is_named_by_its_digits_not_a_crash():
    """`json_text(10**5000)` and `plain(10**5000)` raised ValueError (Python writes at most
    4,300 digits): a table cell or a header holding such a number stopped the whole view."""
    from toolkit.views.html import json_text, plain

    assert plain(10**5000) == "…(an integer of 5,001 digits)"
    assert plain(-(10**4300) + 1) == str(-(10**4300) + 1)  # 4,300 nines: still written
    assert json_text({"n": [-(10**5000), 12]}) == '{"n": ["…(an integer of 5,001 digits)", 12]}'
    assert json_text({10**5000: 1}) == '{"…(an integer of 5,001 digits)": 1}'


def test_a_value_whose_str_fails_is_named_by_its_type_not_a_crash():
    """Before: a value whose `__str__` raised (a learner's class, half written) or returned no text raised
    out of every view holding it (`show_table([{"order": order}])`: ValueError), the whole view lost. Now
    it is written as the schema view writes a default whose repr fails: `<Order object>`."""
    from toolkit.views.display import show_table
    from toolkit.views.html import json_text, plain

    class Order:
        def __str__(self):
            raise ValueError("not yet")

    class Count:
        def __str__(self):
            return 5

    assert plain(Order()) == "<Order object>" and plain(Count()) == "<Count object>"
    assert escape(Order()) == "&lt;Order object&gt;"
    assert json_text({"order": Order()}) == '{"order": "<Order object>"}'
    assert (
        show_table([{"order": Order(), "count": Count()}]).text.splitlines()[-1] == '"<Order object>" "<Count object>"'
    )
