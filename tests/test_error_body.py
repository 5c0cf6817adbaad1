"""An error body walked once (`toolkit.chat.error_body`): the error object and the words, in each shape the
readers of errors (waits, spent accounts, filters, LiteLLM's wrapper, the client's message) meet."""

import pytest

from toolkit.chat.error_body import error_object, message_of, parsed

OPENAI = {"error": {"message": "Invalid key", "type": "invalid_request_error"}}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (OPENAI, OPENAI["error"]),
        ([OPENAI], OPENAI["error"]),  # Google's one-item list
        ([1, OPENAI], OPENAI["error"]),  # its first object
        ({"error": "model not found"}, None),  # Ollama's string
        ({"message": "x"}, None),
        ([], None),
        (None, None),
    ],
)
def test_the_error_object_of_each_shape(data, expected):
    assert error_object(data) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (OPENAI, ("Invalid key", OPENAI["error"])),
        ([OPENAI], ("Invalid key", OPENAI["error"])),
        ({"error": "model 'x' not found"}, ("model 'x' not found", None)),
        ({"code": 429, "msg": "请求过于频繁"}, ("请求过于频繁", None)),
        ({"error": {"msg": "busy"}}, ("busy", None)),
        ({"error_msg": "Open api qps request limit reached"}, ("Open api qps request limit reached", None)),
        ({"message": {"detail": [{"loc": ["body", "x"], "msg": "bad"}]}}, ("body.x: bad", None)),
        ({"errors": [{"code": 7003, "message": "No route for the URI"}]}, ("No route for the URI", None)),
        ({"error": {"message": {"detail": "deep"}}}, ("deep", None)),
        ({"error": {"code": 1}, "note": 2}, ("", None)),
        ("text", ("", None)),
    ],
)
def test_the_words_of_each_shape_and_the_object_that_said_them(data, expected):
    assert message_of(data) == expected


@pytest.mark.parametrize(("text", "expected"), [('{"a": 1}', {"a": 1}), ("not json", None), ("[" * 5_000, None)])
def test_a_body_that_is_not_json_parses_to_none(text, expected):
    assert parsed(text) == expected
