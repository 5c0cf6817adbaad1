"""The embedded gateway and images (issue 15 item 14): `image_url` parts are checked for shape in
user messages, refused elsewhere, and a user message carrying tool images after the tool results
is not read as a new question (`toolkit.gateway.validate`, `toolkit.gateway.content`)."""

import json

import pytest
from openai.types.chat import ChatCompletion

from toolkit.gateway.content import without_tool_images
from toolkit.gateway.core import GatewayConfig, respond

PNG = "data:image/png;base64,iVBORw0KGgo="
PROBE = "帮我查一下订单 SN202610200001 现在到哪了？"
QUERY_LOGISTICS = {
    "type": "function",
    "function": {
        "name": "query_logistics",
        "description": "query_logistics",
        "parameters": {"type": "object", "properties": {"orderId": {"type": "string"}}, "required": ["orderId"]},
    },
}


def image(url=PNG, **extra):
    return {"type": "image_url", "image_url": {"url": url, **extra}}


def user_with(*parts):
    return {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": PROBE}, *parts]}]}


def error(reply):
    assert reply.status == 400, reply.body
    body = json.loads(reply.encode())["error"]
    return body["message"], body["param"]


def test_a_user_message_with_an_image_is_accepted_and_its_text_still_decides():
    request = {**user_with(image(detail="low"), image("https://example.com/a.png")), "tools": [QUERY_LOGISTICS]}
    reply = respond(request, GatewayConfig())
    assert reply.status == 200, reply.body
    calls = ChatCompletion.model_validate(reply.body).choices[0].message.tool_calls
    assert [(c.function.name, c.function.arguments) for c in calls] == [
        ("query_logistics", '{"orderId":"SN202610200001"}')
    ]


@pytest.mark.parametrize(
    "part, message, param",
    [
        (
            image("ftp://example.com/a.png"),
            "Invalid 'messages[0].content[1].image_url.url': expected a URL starting with 'data:', 'http://' or "
            "'https://', but got 'ftp://example.com/a.png' instead.",
            "messages[0].content[1].image_url.url",
        ),
        (
            image(detail="huge"),
            "Invalid value: 'huge'. Supported values are: 'auto', 'low', and 'high'.",
            "messages[0].content[1].image_url.detail",
        ),
        (
            {"type": "image_url", "image_url": {"url": 7}},
            "Invalid type for 'messages[0].content[1].image_url.url': expected a string, but got a number instead.",
            "messages[0].content[1].image_url.url",
        ),
        (
            {"type": "image_url"},
            "Missing required parameter: 'messages[0].content[1].image_url'.",
            "messages[0].content[1].image_url",
        ),
        (
            {"type": "image_url", "image_url": PNG},
            "Invalid type for 'messages[0].content[1].image_url': expected an object, but got a string instead.",
            "messages[0].content[1].image_url",
        ),
        (
            {"type": "video_url", "video_url": {"url": "https://example.com/a.mp4"}},  # input_audio: OpenAI's
            "Invalid value for 'messages[0].content[1].type': only 'text', 'image_url' and 'file' content parts are supported.",
            "messages[0].content[1].type",
        ),
    ],
)
def test_a_bad_image_part_is_400_saying_what_is_wrong(part, message, param):
    assert error(respond(user_with(part), GatewayConfig())) == (message, param)


def test_an_image_outside_a_user_message_is_400():
    request = {"model": "m", "messages": [{"role": "system", "content": [image()]}, {"role": "user", "content": "hi"}]}
    assert error(respond(request, GatewayConfig())) == (
        "Invalid 'messages[0]': image URLs are only allowed for messages with role 'user', but this message with "
        "role 'system' contains an image URL.",
        "messages[0].content[0].type",
    )
    request = {"model": "m", "messages": [{"role": "system", "content": [{"type": "input_audio"}]}]}
    assert error(respond(request, GatewayConfig()))[0] == (
        "Invalid value for 'messages[0].content[0].type': only 'text' content parts are supported."
    )


def after_images(carrier_text="Images returned by tool call call_1 (query_logistics): 1"):
    return {
        "model": "m",
        "tools": [QUERY_LOGISTICS],
        "messages": [
            {"role": "user", "content": PROBE},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "query_logistics", "arguments": '{"orderId":"SN202610200001"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "当前位置：上海转运中心"},
            {"role": "user", "content": [{"type": "text", "text": carrier_text}, image()]},
        ],
    }


def test_tool_images_after_the_results_are_not_a_new_question():
    """The carrier names the tool literally: read as a question, it would call the tool again."""
    reply = respond(after_images(), GatewayConfig())
    message = ChatCompletion.model_validate(reply.body).choices[0].message
    assert message.tool_calls is None
    assert message.content == "为您查到：当前位置：上海转运中心。"


def test_only_image_messages_right_after_tool_results_are_left_out():
    request = after_images()
    assert without_tool_images(request["messages"]) == request["messages"][:3]
    photo = {"role": "user", "content": [{"type": "text", "text": "看这张图"}, image()]}
    assert without_tool_images([photo]) == [photo]  # a user's own photo is a question
    plain = request["messages"][:3] + [{"role": "user", "content": "还有别的吗"}]
    assert without_tool_images(plain) is plain
