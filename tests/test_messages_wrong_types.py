"""A message record given a field of the wrong type (`UserMessage(content=5)`, `None`, a dict, a list of
wrong parts, an `AssistantMessage` whose calls are numbers): it was pydantic's many-line `ValidationError`
("1 validation error for UserMessage / content / Input should be a valid string [type=string_type,
input_value=5, input_type=int] / For further information visit https://errors.pydantic.dev/…"). It is
one line naming the record, the field, what was given and what is valid; still a `ValidationError`
(its `errors()` as before, so an `except ValidationError` holds) and a `ConfigurationError` (a
notebook shows it as a line and a hint, not a traceback)."""

import copy
import pickle

import pytest
from pydantic import ValidationError

from toolkit.chat.messages import AssistantMessage, SystemMessage, TokenUsage, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ConfigurationError, RecordError


@pytest.mark.parametrize(
    ("make", "text"),
    [
        (lambda: UserMessage(content=5), "UserMessage: content was given an int (5); it should be a valid string"),
        (
            lambda: UserMessage(content=None),
            "UserMessage: content was given None; it should be a valid string",
        ),
        (
            lambda: SystemMessage(content={"text": "hi"}),
            "SystemMessage: content was given a dict ({'text': 'hi'}); it should be a valid string",
        ),
        (
            lambda: UserMessage(content=b"\xff\xfe"),
            "UserMessage: content was given a bytes (b'\\xff\\xfe'); it should be a valid string, unable to parse "
            "raw data as a unicode string",
        ),
        (
            lambda: UserMessage(content=[1, 2]),
            "UserMessage: content[0] is not an object (int): a user message's content parts may only be "
            "{'type': 'text', 'text': ...} or {'type': 'image_url', 'image_url': {'url': ...}}",
        ),
        (lambda: UserMessage(), "UserMessage: content is required and was not given"),
        (
            lambda: UserMessage(content="hi", text="hi"),
            "UserMessage: text is not one of its fields (role, content, images, from_tool_calls)",
        ),
        (
            lambda: AssistantMessage(tool_calls=[5]),
            "AssistantMessage: tool_calls[0] was given an int (5); it should be a valid dictionary or instance "
            "of ToolCall",
        ),
        (
            lambda: ToolResultMessage(tool_call_id=7, content="x" * 100),
            "ToolResultMessage: tool_call_id was given an int (7); it should be a valid string",
        ),
        (
            lambda: ToolCall(id="c1", name=["a" * 60]),
            f"ToolCall: name was given a list (['{'a' * 38}…); it should be a valid string",
        ),
        (
            lambda: TokenUsage(input_tokens=-3, output_tokens="x"),
            "TokenUsage: input_tokens was given an int (-3); it should be greater than or equal to 0; "
            "output_tokens was given a str ('x'); it should be a valid integer, unable to parse string as an integer",
        ),
    ],
)
def test_a_field_of_the_wrong_type_is_one_line_naming_field_given_and_valid(make, text):
    with pytest.raises(RecordError) as caught:
        make()
    assert str(caught.value) == text
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValidationError) and isinstance(caught.value, ConfigurationError)


def test_the_errors_are_pydantics_as_before():
    with pytest.raises(ValidationError) as caught:
        UserMessage(content=5)
    (problem,) = caught.value.errors()
    assert (problem["type"], problem["loc"], problem["msg"], problem["input"]) == (
        "string_type",
        ("content",),
        "Input should be a valid string",
        5,
    )
    assert caught.value.title == "UserMessage"


def test_a_notebook_shows_the_line_and_a_hint():
    with pytest.raises(RecordError) as caught:
        UserMessage(content=5)
    assert caught.value._render_traceback_() == [
        "RecordError: UserMessage: content was given an int (5); it should be a valid string",
        f"Hint: {ConfigurationError.hint} (%tb shows the full traceback)",
    ]


@pytest.mark.parametrize("again", [copy.copy, copy.deepcopy, lambda error: pickle.loads(pickle.dumps(error))])
def test_a_copy_or_a_pickled_error_reads_the_same(again):
    """A learner's code graded in a worker process sends its exception back pickled; pydantic's own
    `__reduce__` made it again without the line (its many-line text)."""
    with pytest.raises(RecordError) as caught:
        UserMessage(content=5)
    made = again(caught.value)
    assert type(made) is RecordError
    assert str(made) == "UserMessage: content was given an int (5); it should be a valid string"
    assert made.errors() == caught.value.errors()


@pytest.mark.parametrize(
    ("wire", "text"),
    [
        (
            {"role": "user", "content": 5},
            "message_from_openai: UserMessage: content was given an int (5); it should be a valid string",
        ),
        (
            {"role": "developer", "content": None},
            "message_from_openai: SystemMessage: content was given None; it should be a valid string",
        ),
        (
            {"role": "tool", "content": "ok"},
            "message_from_openai: ToolResultMessage: tool_call_id is required and was not given",
        ),
        (
            {"role": "robot", "content": "beep"},
            "message_from_openai: Input tag 'robot' found using 'role' does not match any of the expected tags: "
            "'system', 'user', 'assistant', 'tool'",
        ),
    ],
)
def test_a_wire_message_of_the_wrong_shape_is_one_line_too(wire, text):
    """`message_from_openai` (week 1's converter) validated through pydantic directly: its error was the
    many-line one, the record's name a "tagged-union[SystemMessage,UserMessage,…]"."""
    from toolkit.chat.messages import message_from_openai

    with pytest.raises(RecordError) as caught:
        message_from_openai(wire)
    assert str(caught.value) == text
    assert isinstance(caught.value, ValidationError)
