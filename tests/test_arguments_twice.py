"""A key the model writes twice in one object, with two values: an argument error naming it
(`toolkit.tools.arguments.parse_arguments`, `toolkit.tools.json_repair.key_twice`), never the
second value taken without a word (every JSON reader keeps the last one)."""

import pytest

from toolkit import tool
from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError
from toolkit.tools import json_repair
from toolkit.tools.arguments import parse_arguments
from toolkit.tools.execute import Policies, report_argument_error, run_call, tools_from


@pytest.mark.parametrize(
    "text, field, received",
    [
        (
            '{"orderId": "SN202610200001", "orderId": "SN202610200002"}',
            "orderId",
            '"SN202610200001" and then "SN202610200002"',
        ),
        ('{"a": {"b": 1, "b": 2}}', "a.b", "1 and then 2"),
        ('{"a": [{"b": 1}, {"c": true, "c": 1}]}', "a[1].c", "true and then 1"),
        ('{"x": 1, "x": 1.0}', "x", "1 and then 1.0"),
        ("{'x': 1, 'x': 2}", "x", "1 and then 2"),  # read after the repair of its quotes
        ('"{\\"x\\": 1, \\"x\\": [2]}"', "x", "1 and then [2]"),  # double-encoded
        ('{"x": 1, "x": 2, "x": 3}', "x", "1 and then 2"),
        ('{"x": "\\u003a", "x": 1}', "x", '":" and then 1'),  # an escape: colons in the text do not tell
        ('{"n": 18446744073709551616, "n": 1}', "n", "18446744073709551616 and then 1"),  # orjson cannot write it
    ],
)
def test_a_key_twice_with_two_values_is_an_argument_error(text, field, received):
    """Before: `{"orderId": A, "orderId": B}` called the tool with B, A dropped without a word."""
    with pytest.raises(ArgumentError) as info:
        parse_arguments("t", text)
    assert [(p.field, p.received, p.expected) for p in info.value.problems] == [
        (field, received, "the field once, with one value")
    ]


def test_numbers_read_exactly_are_shown_with_their_digits():
    with pytest.raises(ArgumentError) as info:
        parse_arguments("t", '{"amount": 0.10, "amount": 0.1000000000000000000001}', exact=True)
    assert info.value.problems[0].received == "0.10 and then 0.1000000000000000000001"


@pytest.mark.parametrize(
    "text, value",
    [
        ('{"x": 1, "x": 1}', {"x": 1}),  # the same value twice: nothing to choose between
        ('{"a": {"b": [1, {"c": 2}]}, "a": {"b": [1, {"c": 2}]}}', {"a": {"b": [1, {"c": 2}]}}),
        (
            '{"t": "10:30", "u": "http://a:b@c:80/", "k": "a\\":b"}',
            {"t": "10:30", "u": "http://a:b@c:80/", "k": 'a":b'},
        ),
        ('{"a": {"x": 1}, "b": {"x": 2}}', {"a": {"x": 1}, "b": {"x": 2}}),  # one key in two objects
    ],
)
def test_no_key_twice_reads_as_before(text, value):
    assert parse_arguments("t", text) == value


@pytest.mark.parametrize(
    "text",
    [
        '{"orderId": "SN202610200001", "page": {"n": 2}}',  # as many colons as keys
        '{"at": "10:30", "url": "https://a.example:8443/x"}',  # more, but in strings: no quote before them
    ],
)
def test_the_usual_text_is_not_read_again(monkeypatch, text):
    """No key can be there twice: the text is read once, as before."""

    def fail(*args, **kwargs):
        raise AssertionError("read again")

    monkeypatch.setattr(json_repair, "_first_twice", fail)
    assert parse_arguments("t", text) == json_repair.loads(text)


@tool
def refund(order_id: str, amount: int) -> str:
    """Refund an order."""
    return f"refunded {amount} on {order_id}"


def test_the_model_is_told_and_the_tool_is_not_called():
    call = ToolCall(id="c1", name="refund", arguments='{"order_id": "SN1", "amount": 5, "amount": 500}')
    outcome = run_call(call, tools_from(refund), policies=Policies(argument_error=report_argument_error))
    assert outcome.result.is_error
    assert outcome.result.content == (
        "Invalid arguments for tool 'refund':\n"
        "- amount: got 5 and then 500, expected the field once, with one value\n"
        "Fix the arguments and call refund again."
    )
