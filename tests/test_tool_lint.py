"""Lint warnings: missing and vague descriptions, meaningless names, overlapping tools."""

from toolkit.tools.lint import LintWarning, lint_tools, overlap, words
from toolkit.tools.reflect import ToolSpec


def spec(name, description, **props):
    parameters = {"type": "object", "properties": props} if props else None
    return ToolSpec(name, description, parameters)


GOOD = spec(
    "query_order",
    "Look up one order by its id and return its status and total.",
    orderId={"type": "string", "description": "e.g. SN202610200001"},
)


def test_a_good_spec_has_no_warnings():
    assert lint_tools([GOOD]) == []


def test_missing_and_vague_descriptions():
    assert lint_tools([spec("a", ""), spec("b", "Query data."), spec("c", "查询数据")]) == [
        LintWarning("a", "a has no description; the model has only its name to go on"),
        LintWarning(
            "b", "b: the description 'Query data.' is too vague; say what it does, when to use it, and what it returns"
        ),
        LintWarning(
            "c", "c: the description '查询数据' is too vague; say what it does, when to use it, and what it returns"
        ),
    ]
    assert lint_tools([spec("d", "根据订单号查询订单的状态和金额")]) == []


def test_parameter_names_and_descriptions():
    s = spec("t", GOOD.description, arg0={"type": "string", "description": "x"}, city={"type": "string"})
    assert lint_tools([s]) == [
        LintWarning("t", "t.arg0: the name 'arg0' says nothing about the value; name it for what it holds"),
        LintWarning("t", "t.city has no description; say what it is and in which format"),
    ]


def test_overlapping_descriptions():
    a = spec("query_order", "Look up an order by its id and return the order status.")
    b = spec("query_order_status", "Look up the status of an order by its id.")
    c = spec("get_weather", "Weather forecast for a city, one line per day.")
    warnings = lint_tools([a, b, c])
    assert warnings == [
        LintWarning(
            "query_order, query_order_status",
            "the descriptions of query_order and query_order_status share 83% of their words; say when to use each",
        )
    ]


def test_words_and_overlap():
    assert words("Look up THE order, 订单状态") == {"look", "up", "order", "订单", "单状", "状态"}
    assert overlap("", "x") == 0.0 and overlap("a b", "a b") == 1.0


def test_boolean_property_schemas_read_as_undescribed_instead_of_crashing():
    """`{"a": true}` (any value) and `{"b": false}` (none) are valid JSON Schema; lint raised AttributeError."""
    s = ToolSpec("t", GOOD.description, {"type": "object", "properties": {"city": True, "zone": False}})
    assert lint_tools([s]) == [
        LintWarning("t", "t.city has no description; say what it is and in which format"),
        LintWarning("t", "t.zone has no description; say what it is and in which format"),
    ]
    odd = ToolSpec("u", GOOD.description, {"type": "object", "properties": ["city"]})
    assert lint_tools([odd]) == []


def test_specs_in_their_openai_form_or_as_tools_are_linted_too():
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import tools_from

    @tool(GOOD.description)
    def lookup(city: str) -> str:
        return city

    (as_tool,) = tools_from(lookup)
    expected = [LintWarning("lookup", "lookup.city has no description; say what it is and in which format")]
    assert lint_tools([as_tool]) == expected
    assert lint_tools([as_tool.spec.to_openai()]) == expected


def test_what_is_not_a_spec_is_a_developer_error_naming_the_forms():
    import pytest

    from toolkit.errors import ConfigurationError, ToolDefinitionError

    with pytest.raises(ConfigurationError) as raised:
        lint_tools(["lookup"])
    assert str(raised.value) == (
        'lint_tools: got str; give it ToolSpecs (tool.spec), Tools, or tools in their OpenAI form ({"type": '
        '"function", "function": {...}})'
    )
    with pytest.raises(ToolDefinitionError) as raised:
        lint_tools([{"function": {"description": "no name"}}])
    assert str(raised.value) == (
        "ToolSpec.from_openai: a mapping with the keys 'function' is not a tool in its OpenAI form (it has no "
        'function name). Fix: write it as {"type": "function", "function": {"name": "...", "description": "...", '
        '"parameters": {...}}}'
    )
