"""`toolkit.course.validation.validate` given the wrong shapes by its caller. It checks what the
*model* wrote (an `ArgError` the model reads; a tool name it made up is an `UnknownToolError`), so
a `tool` or `raw` that is no str, or a `today` that is no date, is the developer's mistake: a
`ConfigurationError` naming the fix. `validate(3, "{}")` was a raw `TypeError` from inside the
model-facing error text (`len()` of an int), a dict as `raw` a plain `TypeError`, `today="2026-10-20"`
a raw `AttributeError` (only when `asOf` was left out), and a `datetime` put its time in `asOf`."""

import datetime

import pytest

from toolkit.course.validation import validate
from toolkit.errors import ConfigurationError

POLICY = '{"category": "服装"}'


def error_of(*args, **kwargs):
    with pytest.raises(ConfigurationError) as caught:
        validate(*args, **kwargs)
    return str(caught.value)


@pytest.mark.parametrize(
    ("tool", "shown", "kind"),
    [(3, "3", "int"), (None, "None", "NoneType"), (["query_order"], "['query_order']", "list")],
)
def test_a_tool_that_is_no_name_is_a_configuration_error(tool, shown, kind):
    assert error_of(tool, "{}") == (
        f"validate({shown}, raw): tool must be the tool's name as a str (ToolCall.name), not {kind}; pass e.g. "
        "validate(call.name, call.arguments)"
    )


def test_arguments_that_are_no_text_are_a_configuration_error():
    assert error_of("query_order", 3) == (
        "validate('query_order', raw): raw must be the arguments *string* the model sent (ToolCall.arguments), "
        "not int; pass e.g. validate('query_order', call.arguments)"
    )
    assert error_of("query_order", {"orderId": "SN202610200001"}) == (
        "validate('query_order', raw): raw must be the arguments *string* the model sent (ToolCall.arguments), "
        "not dict; pass e.g. validate('query_order', json.dumps(arguments, ensure_ascii=False))"
    )


def test_a_today_that_is_no_date_is_a_configuration_error_even_when_unused():
    expected = (
        "validate('query_order', raw, today='2026-10-20'): today must be a datetime.date (the day an omitted asOf "
        "means), not str; pass e.g. today=datetime.date(2026, 10, 20), or leave it out (the session's today)"
    )
    assert error_of("query_order", '{"orderId": "SN202610200001"}', today="2026-10-20") == expected


def test_a_datetime_as_today_is_its_date():
    day = validate("query_refund_policy", POLICY, today=datetime.datetime(2026, 10, 20, 13, 5))
    assert day["asOf"] == "2026-10-20"
    assert day == validate("query_refund_policy", POLICY, today=datetime.date(2026, 10, 20))
