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
