"""The embedded gateway behaves like the OpenAI API where learners notice, checked with the `openai` SDK."""

import json

import httpx
import jsonschema
import openai
import pytest
from openai.types import Model
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from pydantic import BaseModel

from toolkit.gateway.server import Gateway
from toolkit.gateway.transport import InProcessTransport
from toolkit.tokens import estimate_tokens

ORDER = {
    "type": "function",
    "function": {
        "name": "query_order",
        "description": "查询订单",
        "parameters": {"type": "object", "properties": {"orderId": {"type": "string"}}, "required": ["orderId"]},
    },
}
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
            "required": ["city", "days"],
        },
    },
}


@pytest.fixture
def client():
    gateway = Gateway()
    http = httpx.Client(transport=InProcessTransport(gateway))
    return openai.OpenAI(base_url="http://fake.local/v1", api_key="sk-test", http_client=http, max_retries=0)


def user(text):
    return [{"role": "user", "content": text}]


def strict(completion):
    """Strict validation of the raw body, as the SDK's types define it."""
    return ChatCompletion.model_validate(completion.model_dump(mode="json", exclude_unset=True), strict=True)


LONG = "你好"  # the default reply is a long sentence


def test_max_tokens_cuts_the_reply_with_finish_reason_length(client):
    full = client.chat.completions.create(model="m", messages=user(LONG))
    assert full.choices[0].finish_reason == "stop" and estimate_tokens(full.choices[0].message.content) > 5
    for key in ("max_tokens", "max_completion_tokens"):
        cut = strict(client.chat.completions.create(model="m", messages=user(LONG), **{key: 5}))
        text = cut.choices[0].message.content
        assert cut.choices[0].finish_reason == "length"
        assert full.choices[0].message.content.startswith(text) and estimate_tokens(text) == 5
        assert cut.usage.completion_tokens == 5


def test_max_tokens_cuts_a_tool_call_too(client):
    reply = client.chat.completions.create(
        model="m", messages=user("订单 SN202610200001 的状态"), tools=[ORDER], max_completion_tokens=4
    )
    choice = reply.choices[0]
    assert choice.finish_reason == "length"
    with pytest.raises(json.JSONDecodeError):
        json.loads(choice.message.tool_calls[0].function.arguments)


def test_a_streamed_reply_is_cut_the_same_way(client):
    chunks = list(client.chat.completions.create(model="m", messages=user(LONG), max_tokens=5, stream=True))
    for chunk in chunks:
        ChatCompletionChunk.model_validate_json(chunk.model_dump_json(exclude_unset=True), strict=True)
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == (
        client.chat.completions.create(model="m", messages=user(LONG), max_tokens=5).choices[0].message.content
    )
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "length"


def test_stop_sequences_are_honoured(client):
    full = client.chat.completions.create(model="m", messages=user(LONG)).choices[0].message.content
    cut = client.chat.completions.create(model="m", messages=user(LONG), stop=["查询", "售后"])
    assert cut.choices[0].message.content == full[: full.index("售后")]
    assert cut.choices[0].finish_reason == "stop"
    assert (
        client.chat.completions.create(model="m", messages=user(LONG), stop="no such").choices[0].message.content
        == full
    )


def test_n_above_one_answers_n_choices_and_above_128_is_a_400(client):
    reply = strict(client.chat.completions.create(model="m", messages=user("hi"), n=2))
    assert [c.index for c in reply.choices] == [0, 1]
    assert reply.choices[0].message.content == reply.choices[1].message.content
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="m", messages=user("hi"), n=129)
    assert caught.value.body["message"] == (
        "Invalid 'n': integer above maximum value. Expected a value <= 128, but got 129 instead."
    )
    assert len(client.chat.completions.create(model="m", messages=user("hi"), n=1).choices) == 1


def test_json_object_returns_json(client):
    reply = client.chat.completions.create(
        model="m", messages=user("Answer in JSON: 你好"), response_format={"type": "json_object"}
    )
    assert isinstance(json.loads(reply.choices[0].message.content), dict)
    with pytest.raises(openai.BadRequestError, match="must contain the word 'json'"):
        client.chat.completions.create(model="m", messages=user("你好"), response_format={"type": "json_object"})


class Summary(BaseModel):
    order_id: str
    status: str
    urgent: bool
    items: int


def test_json_schema_returns_json_that_validates_and_the_sdk_parses(client):
    parsed = client.beta.chat.completions.parse(
        model="m", messages=user("订单 SN202610200001 有 2 件商品"), response_format=Summary
    )
    value = parsed.choices[0].message.parsed
    assert isinstance(value, Summary) and value.order_id == "SN202610200001" and value.items == 2
    schema = Summary.model_json_schema()
    jsonschema.validate(json.loads(parsed.choices[0].message.content), schema)


def test_tool_choice_required_or_named_never_misses_a_required_field(client):
    for choice in ("required", {"type": "function", "function": {"name": "get_weather"}}):
        reply = client.chat.completions.create(model="m", messages=user("你好"), tools=[WEATHER], tool_choice=choice)
        arguments = json.loads(reply.choices[0].message.tool_calls[0].function.arguments)
        jsonschema.validate(arguments, WEATHER["function"]["parameters"])


def test_unknown_request_fields_get_a_400_naming_them(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="m", messages=user("hi"), extra_body={"temprature": 0, "foo": 1})
    assert caught.value.body["message"] == "Unrecognized request arguments supplied: temprature, foo"
    assert caught.value.body["param"] == "temprature"


def test_known_but_ignored_fields_are_accepted(client):
    reply = client.chat.completions.create(
        model="m", messages=user("hi"), temperature=0.2, top_p=1, seed=1, user="u", presence_penalty=0
    )
    assert reply.choices[0].finish_reason == "stop"


def test_models_retrieve_and_list(client):
    assert Model.model_validate(client.models.retrieve("fake-keyword").model_dump(), strict=True).id == "fake-keyword"
    assert [m.id for m in client.models.list()] == ["fake-keyword"]
    with pytest.raises(openai.NotFoundError, match="The model 'gpt-9' does not exist"):
        client.models.retrieve("gpt-9")


def test_responses_carry_service_tier_usage_details_and_a_counted_request_id(client):
    raw = client.chat.completions.with_raw_response.create(model="m", messages=user("hi"))
    completion = strict(raw.parse())
    assert completion.service_tier == "default"
    assert completion.usage.prompt_tokens_details.cached_tokens == 0
    assert completion.usage.completion_tokens_details.reasoning_tokens == 0
    assert raw.headers["x-request-id"] == "req_" + "0" * 31 + "1"
    again = client.chat.completions.with_raw_response.create(model="m", messages=user("hi"))
    assert again.headers["x-request-id"] == "req_" + "0" * 31 + "2"
    assert again.request_id == again.headers["x-request-id"]


def test_every_streamed_chunk_validates_strictly(client):
    stream = client.chat.completions.create(
        model="m",
        messages=user("订单 SN202610200001 的状态"),
        tools=[ORDER],
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    for chunk in chunks:
        ChatCompletionChunk.model_validate_json(chunk.model_dump_json(exclude_unset=True), strict=True)
    assert chunks[-1].usage.completion_tokens_details is not None and chunks[0].service_tier == "default"
