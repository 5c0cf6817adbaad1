"""`toolkit.chat.messages` records given the wrong shapes. `UserMessage(images={...})` took a set and sent
its images in hash order (a str's hash is salted per process: another order in each run, and another
cassette match); it is refused as `tools=` refuses a set, when the record is made. A list, a tuple or a
generator keeps its order."""

import pytest
from pydantic import ValidationError

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage

A = "data:image/png;base64,QQ=="
B = "https://example.com/b.png"


@pytest.mark.parametrize("images", [{A, B}, frozenset({A})])
def test_a_set_of_images_is_refused(images):
    with pytest.raises(ValidationError) as caught:
        UserMessage(content="what is in these?", images=images)
    (problem,) = caught.value.errors()
    assert problem["loc"] == ("images",)
    assert problem["msg"] == (
        f"Value error, UserMessage(images=...) takes a list, and got a {type(images).__name__}, which has no order: "
        "the model would be sent the images in another order in each process; give a list, in the order you want"
    )


@pytest.mark.parametrize("images", [[B, A], (B, A), (url for url in (B, A))])
def test_ordered_images_keep_their_order(images):
    message = UserMessage(content="what is in these?", images=images)
    assert message.images == (B, A)
    assert [part["image_url"]["url"] for part in message.to_openai()["content"][1:]] == [B, A]


def test_a_set_put_in_order_is_taken():
    assert UserMessage(content="x", images=sorted({A, B})).images == (A, B)


# A learner's first message is often written as LangChain's `HumanMessage("hi")` or LangChain4j's
# `new UserMessage("hi")` reads; it was pydantic's "BaseModel.__init__() takes 1 positional argument
# but 2 were given" (the learner gave one), with nothing saying what to write instead.
@pytest.mark.parametrize(
    ("make", "text"),
    [
        (
            lambda: UserMessage("你好"),
            "UserMessage takes its fields by name, not by position: write UserMessage(content='你好')",
        ),
        (
            lambda: SystemMessage("你是一个电商售后助手，回答简短。"),
            "SystemMessage takes its fields by name, not by position: write "
            "SystemMessage(content='你是一个电商售后助手，回答简短。')",
        ),
        (
            lambda: AssistantMessage("x" * 60),
            f"AssistantMessage takes its fields by name, not by position: write AssistantMessage(content='{'x' * 39}…)",
        ),
        (
            lambda: ToolResultMessage("call_1", "已发货"),
            "ToolResultMessage takes its fields by name, not by position: write "
            "ToolResultMessage(tool_call_id=..., content=...)",
        ),
        (
            lambda: ToolCall("c1", "query_order"),
            "ToolCall takes its fields by name, not by position: write ToolCall(id=..., name=...)",
        ),
        (
            lambda: UserMessage("你好", content="你好"),
            "UserMessage takes its fields by name, not by position: write UserMessage(content=...)",
        ),
    ],
)
def test_a_record_given_by_position_says_to_name_its_fields(make, text):
    with pytest.raises(TypeError) as caught:
        make()
    assert str(caught.value) == text


def test_records_given_by_name_are_made_as_before():
    assert UserMessage(content="你好").to_openai() == {"role": "user", "content": "你好"}
    assert ToolResultMessage(tool_call_id="c1", content="ok").tool_call_id == "c1"
    with pytest.raises(ValidationError):
        UserMessage(content=1)


def test_a_record_inside_another_is_still_made_in_pydantic_core():
    """The positional-field message comes from a Python `__init__` of the records' own; marked as
    pydantic's base one, so a record inside another (a reply's message and usage, read from a
    gateway's JSON or a store) is made in pydantic-core, not through a Python call each (it cost
    5% of a scripted turn)."""
    from toolkit.chat import messages

    for cls in messages._PLAIN_RECORDS:
        assert cls.__pydantic_custom_init__ is False, cls
    made = messages.ChatResponse.model_validate({"message": {"content": "x"}, "usage": {"input_tokens": 1}})
    assert (made.message.content, made.usage.input_tokens) == ("x", 1)


# SPEC §1: "Chat messages as pydantic models that round-trip losslessly to and from the OpenAI
# chat-completions wire format". `message_from_openai` promises "a `ValueError`, pydantic's
# `ValidationError` among them, when it is not one": a tool message without its `tool_call_id` or
# `content` was a bare `KeyError('tool_call_id')`, and a list or a str an `AttributeError` (`'list'
# object has no attribute 'get'`), so a learner's `except ValueError` (week 1's exercise points at
# this converter) missed them.
@pytest.mark.parametrize(
    ("wire", "loc", "msg"),
    [
        ({"role": "tool", "content": "ok"}, ("tool_call_id",), "Field required"),
        ({"role": "tool", "tool_call_id": "c1"}, ("content",), "Field required"),
        (
            {"role": "tool", "tool_call_id": "c1", "content": "ok", "name": None},
            ("tool_name",),
            "Input should be a valid string",
        ),
    ],
)
def test_a_tool_message_missing_a_field_is_a_validation_error_naming_it(wire, loc, msg):
    from toolkit.chat.messages import message_from_openai

    with pytest.raises(ValidationError) as caught:
        message_from_openai(wire)
    (problem,) = caught.value.errors()
    assert (problem["loc"], problem["msg"]) == (loc, msg)


@pytest.mark.parametrize(
    ("wire", "kind"), [([{"role": "user", "content": "hi"}], "a list"), ("hi", "a str"), (None, "None")]
)
def test_what_is_no_message_dict_is_a_value_error_saying_what_it_takes(wire, kind):
    from toolkit.chat.messages import message_from_openai

    with pytest.raises(ValueError) as caught:
        message_from_openai(wire)
    assert str(caught.value) == (
        "message_from_openai() reads one chat-completions message, a dict such as "
        f"{{'role': 'user', 'content': 'hi'}}; it was given {kind}"
    )


def test_a_tool_message_read_from_the_wire_is_as_before():
    from toolkit.chat.messages import message_from_openai

    wire = {"role": "tool", "tool_call_id": "c1", "content": "ok", "name": "query_order"}
    assert message_from_openai(wire) == ToolResultMessage(tool_call_id="c1", content="ok", tool_name="query_order")
    assert message_from_openai(wire).to_openai() == wire
