"""The gateway as other clients call it: what the `openai` SDK, curl and HTTP libraries send
that a strict OpenAI-compatible server must accept (or refuse with a useful error)."""

import base64
import gzip
import json
import zlib
from typing import Literal

import httpx
import openai
import pydantic
import pytest
from openai.types.chat import ChatCompletion, completion_create_params

from toolkit.gateway.core import GatewayConfig, handle_http, respond
from toolkit.gateway.server import Gateway, running_gateway
from toolkit.gateway.transport import InProcessTransport
from toolkit.loop.images import MAX_IMAGE_BYTES, MAX_IMAGES

HI = [{"role": "user", "content": "你好"}]
BODY = json.dumps({"model": "m", "messages": HI}, ensure_ascii=False).encode()
JSON = {"content-type": "application/json"}


@pytest.fixture
def sdk():
    http = httpx.Client(transport=InProcessTransport(Gateway()))
    return openai.OpenAI(base_url="http://fake.local/v1", api_key="sk-test", http_client=http, max_retries=0)


def error(reply):
    return reply.status, reply.body["error"]["message"], reply.body["error"]["param"], reply.body["error"]["code"]


def post(body, headers=JSON, path="/v1/chat/completions"):
    return handle_http("POST", path, headers, body, GatewayConfig())


# --- request fields ----------------------------------------------------------------------------


def test_every_request_field_of_the_installed_sdk_is_known():
    fields = completion_create_params.CompletionCreateParamsBase.__annotations__
    refused = {
        key: reply.body["error"]["message"]
        for key in fields.keys() - {"model", "messages"}
        if (reply := respond({"model": "m", "messages": HI, key: None}, GatewayConfig())).status != 200
    }
    assert refused == {}


def test_the_sdks_prompt_cache_retention_is_accepted(sdk):
    reply = sdk.chat.completions.create(model="m", messages=HI, prompt_cache_retention="24h")
    assert reply.choices[0].finish_reason == "stop"


# --- a refused turn sent back ---------------------------------------------------------------------


def refused(turn):
    return {"model": "m", "messages": [*HI, {"role": "assistant", **turn}, *HI]}


@pytest.mark.parametrize(
    "turn",
    [
        {"content": None, "refusal": "I can't help with that."},
        {"refusal": "I can't help with that."},
        {"content": [{"type": "refusal", "refusal": "I can't help with that."}]},
        {"content": [{"type": "text", "text": "Well,"}, {"type": "refusal", "refusal": "no."}]},
    ],
)
def test_an_assistant_refusal_sent_back_is_accepted(turn):
    reply = respond(refused(turn), GatewayConfig())
    assert reply.status == 200
    ChatCompletion.model_validate(reply.body)


def test_the_sdks_own_refused_message_goes_back_as_it_is(sdk):
    message = openai.types.chat.ChatCompletionMessage(role="assistant", content=None, refusal="No.")
    reply = sdk.chat.completions.create(model="m", messages=[*HI, message, *HI])
    assert reply.choices[0].finish_reason == "stop"


@pytest.mark.parametrize(
    "request_, expected",
    [
        (
            refused({"content": [{"type": "refusal"}]}),
            ("Missing required parameter: 'messages[1].content[0].refusal'.", "messages[1].content[0].refusal"),
        ),
        (
            refused({"content": None, "refusal": 5}),
            (
                "Invalid type for 'messages[1].refusal': expected a string, but got a number instead.",
                "messages[1].refusal",
            ),
        ),
        (
            refused({"content": [{"type": "input_audio"}]}),
            (
                "Invalid value for 'messages[1].content[0].type': only 'text' and 'refusal' content parts are supported.",
                "messages[1].content[0].type",
            ),
        ),
        (
            {"model": "m", "messages": [{"role": "user", "content": [{"type": "refusal", "refusal": "x"}]}]},
            (
                "Invalid value for 'messages[0].content[0].type': only 'text', 'image_url' and 'file' content parts are supported.",
                "messages[0].content[0].type",
            ),
        ),
        (
            refused({"content": None}),
            ("Invalid value for 'messages[1].content': expected a string, got null.", "messages[1].content"),
        ),
    ],
)
def test_a_bad_refusal_is_400_saying_what_is_wrong(request_, expected):
    status, message, param, _ = error(respond(request_, GatewayConfig()))
    assert (status, message, param) == (400, *expected)


# --- an audio turn sent back (https://platform.openai.com/docs/guides/audio: the next turn sends
# {"role": "assistant", "audio": {"id": ...}} with no content; the API reference's assistant message
# has an optional audio {id}) ----------------------------------------------------------------------


@pytest.mark.parametrize("turn", [{"content": None, "audio": {"id": "audio_abc123"}}, {"audio": {"id": "audio_abc"}}])
def test_an_assistant_audio_turn_sent_back_is_accepted(turn, sdk):
    reply = sdk.chat.completions.create(model="m", messages=refused(turn)["messages"])
    assert reply.choices[0].finish_reason == "stop"


@pytest.mark.parametrize(
    "turn, expected",
    [
        ({"audio": {}}, ("Missing required parameter: 'messages[1].audio.id'.", "messages[1].audio.id")),
        (
            {"audio": "audio_abc"},
            (
                "Invalid type for 'messages[1].audio': expected an object, but got a string instead.",
                "messages[1].audio",
            ),
        ),
        (
            {"audio": {"id": 7}},
            (
                "Invalid type for 'messages[1].audio.id': expected a string, but got a number instead.",
                "messages[1].audio.id",
            ),
        ),
    ],
)
def test_a_bad_audio_turn_is_400_saying_what_is_wrong(turn, expected):
    status, message, param, _ = error(respond(refused(turn), GatewayConfig()))
    assert (status, message, param) == (400, *expected)


# --- compressed request bodies ------------------------------------------------------------------


def raw_deflate(data):
    squeezer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return squeezer.compress(data) + squeezer.flush()


@pytest.mark.parametrize(
    "encoding, squeeze",
    [("gzip", gzip.compress), ("x-gzip", gzip.compress), ("deflate", zlib.compress), ("Deflate", raw_deflate)],
)
def test_a_compressed_body_gets_the_same_answer(encoding, squeeze):
    plain = post(BODY)
    squeezed = post(squeeze(BODY), {**JSON, "content-encoding": encoding})
    assert (squeezed.status, squeezed.encode()) == (200, plain.encode())


def test_a_gzip_body_over_http():
    with running_gateway() as url:
        reply = httpx.post(
            f"{url}/chat/completions", content=gzip.compress(BODY), headers={**JSON, "content-encoding": "gzip"}
        )
    assert reply.status_code == 200 and reply.json()["choices"][0]["finish_reason"] == "stop"


@pytest.mark.parametrize(
    "body, encoding, expected",
    [
        (
            BODY,
            "br",
            (
                415,
                "Unsupported Content-Encoding 'br'; send the body uncompressed, or as gzip or deflate.",
                None,
                "unsupported_content_encoding",
            ),
        ),
        (
            BODY,
            "gzip",
            (
                400,
                "We could not parse the JSON body of your request: its Content-Encoding is gzip, but the body is "
                "not gzip data (or is cut short).",
                None,
                "invalid_json",
            ),
        ),
        (
            gzip.compress(BODY, mtime=0)[:-12],
            "gzip",
            (
                400,
                "We could not parse the JSON body of your request: its Content-Encoding is gzip, but the body is "
                "not gzip data (or is cut short).",
                None,
                "invalid_json",
            ),
        ),
        (
            gzip.compress(b" " * (65 << 20), mtime=0),  # 64 KB that inflate to 65 MB
            "gzip",
            (413, "The request body is larger than 67108864 bytes.", None, "request_too_large"),
        ),
    ],
    ids=["unknown encoding", "not gzip", "cut short", "inflates past the limit"],
)
def test_a_body_not_as_its_encoding_says_is_a_clear_error(body, encoding, expected):
    assert error(post(body, {**JSON, "content-encoding": encoding})) == expected


def test_identity_is_no_encoding():
    assert post(BODY, {**JSON, "content-encoding": "identity"}).encode() == post(BODY).encode()


# --- URLs a misconfigured client sends ----------------------------------------------------------


@pytest.mark.parametrize(
    "method, path, route",
    [
        ("POST", "/chat/completions", "POST /v1/chat/completions"),  # base URL without /v1
        ("POST", "/v1/chat/completions/", "POST /v1/chat/completions"),
        ("POST", "/v1/v1/chat/completions", "POST /v1/chat/completions"),
        ("POST", "/v1/chat/completions/chat/completions", "POST /v1/chat/completions"),  # the route in the base URL
        ("GET", "/models", "GET /v1/models"),
        ("GET", "/v1/models/", "GET /v1/models"),
    ],
)
def test_a_near_miss_url_is_404_naming_the_route(method, path, route):
    reply = handle_http(method, path, JSON, BODY, GatewayConfig())
    assert error(reply) == (
        404,
        f"Unknown request URL: {method} {path}. Please check the URL for typos. Did you mean {route}? "
        f"A client's base URL ends in /v1 (the client adds {route.split(' ')[1][3:]}).",
        None,
        "unknown_url",
    )


def test_the_sdk_without_v1_in_its_base_url_is_told_so():
    http = httpx.Client(transport=InProcessTransport(Gateway()))
    sdk = openai.OpenAI(base_url="http://fake.local", api_key="sk-test", http_client=http, max_retries=0)
    with pytest.raises(openai.NotFoundError, match="Did you mean POST /v1/chat/completions"):
        sdk.chat.completions.create(model="m", messages=HI)


@pytest.mark.parametrize("over", ["http", "in-process"])
def test_a_model_id_with_a_slash_is_retrieved_as_listed(over):
    """Gateways in front of open models name them `org/model` (vLLM, OpenRouter, LiteLLM): the id the
    gateway lists is retrieved, and another such id is OpenAI's 404 naming it, not an unknown URL."""
    name = "Qwen/Qwen2.5-7B-Instruct"
    gateway = Gateway(config=GatewayConfig(model_name=name))
    with running_gateway(gateway=gateway) as url:
        http = httpx.Client(transport=InProcessTransport(gateway)) if over == "in-process" else httpx.Client()
        sdk = openai.OpenAI(base_url=url, api_key="sk-test", http_client=http, max_retries=0)
        assert [m.id for m in sdk.models.list()] == [name]
        assert sdk.models.retrieve(name).id == name
        with pytest.raises(openai.NotFoundError) as caught:
            sdk.models.retrieve("openai/gpt-4o")
    assert caught.value.body == {
        "message": "The model 'openai/gpt-4o' does not exist or you do not have access to it.",
        "type": "invalid_request_error",
        "param": "model",
        "code": "model_not_found",
    }


# --- HEAD --------------------------------------------------------------------------------------


@pytest.mark.parametrize("over", ["http", "in-process"])
def test_head_answers_as_get_without_a_body(over):
    with running_gateway() as url:
        if over == "in-process":
            http, url = httpx.Client(transport=InProcessTransport(Gateway())), "http://fake.local/v1"
        else:
            http = httpx.Client()
        with http:
            for path in ("/models", "/models/fake-keyword"):
                got, head = http.get(url + path), http.head(url + path)
                assert (head.status_code, head.content) == (200, b"")
                assert head.headers["content-length"] == str(len(got.content))
                assert head.headers["content-type"] == got.headers["content-type"]
            assert http.post(url + "/models").headers["allow"] == "GET, HEAD"
            assert http.head(url + "/chat/completions").status_code == 405


# --- large bodies ------------------------------------------------------------------------------


def test_the_body_limit_holds_the_images_the_loop_passes_on_in_one_round():
    base64_bytes = -(-MAX_IMAGE_BYTES // 3) * 4
    assert MAX_IMAGES * (len("data:image/png;base64,") + base64_bytes) < GatewayConfig().max_body_bytes - (1 << 20)


def test_a_photo_of_a_few_megabytes_is_answered(sdk):
    photo = "data:image/jpeg;base64," + base64.b64encode(b"\xff\xd8\xff" + bytes(3_000_000)).decode()
    parts = [{"type": "text", "text": "这是什么？"}, {"type": "image_url", "image_url": {"url": photo}}]
    reply = sdk.chat.completions.create(model="m", messages=[{"role": "user", "content": parts}])
    assert reply.choices[0].finish_reason == "stop"


# --- strict schemas ----------------------------------------------------------------------------


def strict_tool(parameters):
    return {"type": "function", "function": {"name": "f", "parameters": parameters, "strict": True}}


def strict_format(schema):
    return {"type": "json_schema", "json_schema": {"name": "out", "schema": schema, "strict": True}}


STRING = {"type": "string"}
LOOSE_CASES = [
    ({"type": "object", "properties": {"a": STRING}, "required": ["a"]}, "()", "additionalProperties"),
    (
        {"type": "object", "properties": {"a": STRING, "b": STRING}, "required": ["a"], "additionalProperties": False},
        "()",
        "required:b",
    ),
    ({"type": "object", "properties": {"a": STRING}, "additionalProperties": False}, "()", "required:a"),
    (
        {
            "type": "object",
            "properties": {"to": {"type": "object", "properties": {"city": STRING}, "required": ["city"]}},
            "required": ["to"],
            "additionalProperties": False,
        },
        "('properties', 'to')",
        "additionalProperties",
    ),
    (
        {
            "type": "object",
            "properties": {"items": {"type": "array", "items": {"type": "object", "additionalProperties": True}}},
            "required": ["items"],
            "additionalProperties": False,
        },
        "('properties', 'items', 'items')",
        "additionalProperties",
    ),
    (
        {
            "type": "object",
            "properties": {"x": {"anyOf": [STRING, {"$ref": "#/$defs/P"}]}},
            "required": ["x"],
            "additionalProperties": False,
            "$defs": {"P": {"type": "object", "properties": {"n": STRING}, "additionalProperties": False}},
        },
        "('$defs', 'P')",
        "required:n",
    ),
]


def said(rule):
    if rule == "additionalProperties":
        return "'additionalProperties' is required to be supplied and to be false."
    return (
        "'required' is required to be supplied and to be an array including every key in properties. "
        f"Missing '{rule.split(':')[1]}'."
    )


@pytest.mark.parametrize("schema, context, rule", LOOSE_CASES)
def test_a_strict_tool_whose_schema_breaks_strict_mode_is_400_as_openai_says(schema, context, rule):
    reply = respond({"model": "m", "messages": HI, "tools": [ORDER_TOOL, strict_tool(schema)]}, GatewayConfig())
    assert error(reply) == (
        400,
        f"Invalid schema for function 'f': In context={context}, {said(rule)}",
        "tools[1].function.parameters",
        "invalid_function_parameters",
    )
    loose = {**strict_tool(schema), "function": {**strict_tool(schema)["function"], "strict": False}}
    assert respond({"model": "m", "messages": HI, "tools": [loose]}, GatewayConfig()).status == 200


@pytest.mark.parametrize("schema, context, rule", LOOSE_CASES)
def test_a_strict_json_schema_that_breaks_strict_mode_is_400_as_openai_says(schema, context, rule):
    reply = respond({"model": "m", "messages": HI, "response_format": strict_format(schema)}, GatewayConfig())
    assert error(reply) == (
        400,
        f"Invalid schema for response_format 'out': In context={context}, {said(rule)}",
        "response_format",
        "invalid_json_schema",
    )


@pytest.mark.parametrize("kind", ["array", "string"])
def test_a_strict_json_schema_whose_root_is_no_object_is_400_as_openai_says(kind):
    schema = {"type": kind, "items": STRING} if kind == "array" else {"type": kind}
    reply = respond({"model": "m", "messages": HI, "response_format": strict_format(schema)}, GatewayConfig())
    assert error(reply) == (
        400,
        f"""Invalid schema for response_format 'out': schema must be a JSON Schema of 'type: "object"', got """
        f"""'type: "{kind}"'.""",
        "response_format",
        "invalid_json_schema",
    )


ROOTS = [
    {"type": "array", "items": {"type": "string"}, "minItems": 2},
    {"type": "string", "enum": ["shipped", "refunded"]},
    {"type": "integer", "minimum": 3, "maximum": 5},
    {
        "anyOf": [
            {"type": "object", "properties": {"a": STRING}, "required": ["a"], "additionalProperties": False},
            {
                "type": "object",
                "properties": {"b": {"type": "integer"}},
                "required": ["b"],
                "additionalProperties": False,
            },
        ]
    },
    {"$ref": "#/$defs/L", "$defs": {"L": {"type": "array", "items": {"type": "integer"}, "minItems": 1}}},
]


@pytest.mark.parametrize("schema", ROOTS)
@pytest.mark.parametrize("stream", [False, True])
def test_a_json_schema_answer_is_an_instance_of_its_root_whatever_its_type(schema, stream, sdk):
    """Not `{}` (an object) for a schema of an array, a string or a choice of objects."""
    import jsonschema

    fmt = {"type": "json_schema", "json_schema": {"name": "out", "schema": schema, "strict": False}}
    said = [{"role": "user", "content": "订单 SN202610200001 发货了吗"}]
    if stream:
        chunks = sdk.chat.completions.create(model="m", messages=said, response_format=fmt, stream=True)
        content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    else:
        content = sdk.chat.completions.create(model="m", messages=said, response_format=fmt).choices[0].message.content
    jsonschema.validate(json.loads(content), schema)


ORDER_TOOL = {
    "type": "function",
    "function": {"name": "query_order", "parameters": {"type": "object", "properties": {"orderId": STRING}}},
}


def test_every_strict_spec_the_toolkit_builds_passes_the_gateways_strict_check():
    from tool_fixtures import FUNCTIONS, NOT_STRICT

    from toolkit.tools.execute import tools_from

    specs = [t.spec.to_openai(strict=True) for f in FUNCTIONS if f.__name__ not in NOT_STRICT for t in tools_from(f)]
    assert len(specs) == len(FUNCTIONS) - len(NOT_STRICT)
    reply = respond({"model": "m", "messages": HI, "tools": specs}, GatewayConfig())
    assert reply.status == 200, reply.body


def test_the_sdks_strict_helpers_pass(sdk):
    class Where(pydantic.BaseModel):
        city: str
        zip: str | None = None

    class Order(pydantic.BaseModel):
        order_id: str
        to: Where
        history: list[Where]

    said_ = "订单 SN202610200001 寄到北京"
    parsed = sdk.chat.completions.parse(model="m", messages=[{"role": "user", "content": said_}], response_format=Order)
    assert parsed.choices[0].message.parsed.order_id == "SN202610200001"
    tools = [openai.pydantic_function_tool(Order)]
    assert sdk.chat.completions.parse(model="m", messages=HI, tools=tools).choices[0].finish_reason == "stop"


def test_a_strict_tool_named_as_a_shop_tool_gets_every_required_argument(sdk):
    # strict mode's promise: "function calls ... will exactly match the supplied schema"
    # (https://platform.openai.com/docs/guides/function-calling#strict-mode); the SDK's parse
    # validates the arguments with the model, so a missing field was a ValidationError raised by parse
    class Order(pydantic.BaseModel):
        order_id: str
        status: Literal["shipped", "pending"]
        items: list[str]

    said_ = [{"role": "user", "content": "帮我查一下订单 SN202610200001 现在到哪了？"}]
    tools = [openai.pydantic_function_tool(Order, name="query_order")]
    [call] = sdk.chat.completions.parse(model="m", messages=said_, tools=tools).choices[0].message.tool_calls
    assert call.function.name == "query_order" and call.function.parsed_arguments.order_id == "SN202610200001"
    loose = {**tools[0], "function": {**tools[0]["function"], "strict": False}}  # a model may leave fields out
    [call] = sdk.chat.completions.create(model="m", messages=said_, tools=[loose]).choices[0].message.tool_calls
    assert json.loads(call.function.arguments) == {"order_id": "SN202610200001"}


# --- ignored fields are still checked -----------------------------------------------------------


@pytest.mark.parametrize(
    "field, expected",
    [
        (
            {"temperature": "0.7"},
            ("Invalid type for 'temperature': expected a number, but got a string instead.", "invalid_type"),
        ),
        (
            {"temperature": True},
            ("Invalid type for 'temperature': expected a number, but got a boolean instead.", "invalid_type"),
        ),
        (
            {"temperature": 2.5},
            (
                "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 instead.",
                "decimal_above_max_value",
            ),
        ),
        (
            {"top_p": -0.1},
            (
                "Invalid 'top_p': decimal below minimum value. Expected a value >= 0, but got -0.1 instead.",
                "decimal_below_min_value",
            ),
        ),
        (
            {"frequency_penalty": 3},
            (
                "Invalid 'frequency_penalty': decimal above maximum value. Expected a value <= 2, but got 3 instead.",
                "decimal_above_max_value",
            ),
        ),
        ({"seed": 1.5}, ("Invalid type for 'seed': expected an integer, but got a number instead.", "invalid_type")),
        (
            {"logprobs": True, "top_logprobs": 21},
            (
                "Invalid 'top_logprobs': integer above maximum value. Expected a value <= 20, but got 21 instead.",
                "integer_above_max_value",
            ),
        ),
        (
            {"logprobs": "yes"},
            ("Invalid type for 'logprobs': expected a boolean, but got a string instead.", "invalid_type"),
        ),
        ({"user": 42}, ("Invalid type for 'user': expected a string, but got a number instead.", "invalid_type")),
        (
            {"store": "true"},
            ("Invalid type for 'store': expected a boolean, but got a string instead.", "invalid_type"),
        ),
        (
            {"metadata": {"run": 3}},
            ("Invalid type for 'metadata.run': expected a string, but got a number instead.", "invalid_type"),
        ),
        (
            {"logit_bias": [1]},
            ("Invalid type for 'logit_bias': expected an object, but got an array instead.", "invalid_type"),
        ),
        # https://platform.openai.com/docs/api-reference/chat/create#chat-create-top_logprobs: "logprobs
        # must be set to true if this parameter is used"
        (
            {"top_logprobs": 3},
            (
                "Invalid value for 'top_logprobs': 'top_logprobs' is only allowed when 'logprobs' is true.",
                "invalid_value",
            ),
        ),
        (
            {"logprobs": False, "top_logprobs": 0},
            (
                "Invalid value for 'top_logprobs': 'top_logprobs' is only allowed when 'logprobs' is true.",
                "invalid_value",
            ),
        ),
        # #chat-create-logit_bias: a map of integers, "an associated bias value from -100 to 100"
        (
            {"logit_bias": {"50256": "-100"}},
            ("Invalid type for 'logit_bias.50256': expected an integer, but got a string instead.", "invalid_type"),
        ),
        (
            {"logit_bias": {"50256": 101}},
            (
                "Invalid 'logit_bias.50256': integer above maximum value. Expected a value <= 100, but got 101 "
                "instead.",
                "integer_above_max_value",
            ),
        ),
        (
            {"logit_bias": {"50256": -100.5}},
            ("Invalid type for 'logit_bias.50256': expected an integer, but got a number instead.", "invalid_type"),
        ),
        # the other fields the reference types: strings, objects, an array
        (
            {"prompt_cache_key": 42},
            ("Invalid type for 'prompt_cache_key': expected a string, but got a number instead.", "invalid_type"),
        ),
        (
            {"safety_identifier": ["u1"]},
            ("Invalid type for 'safety_identifier': expected a string, but got an array instead.", "invalid_type"),
        ),
        (
            {"service_tier": True},
            ("Invalid type for 'service_tier': expected a string, but got a boolean instead.", "invalid_type"),
        ),
        (
            {"reasoning_effort": 2},
            ("Invalid type for 'reasoning_effort': expected a string, but got a number instead.", "invalid_type"),
        ),
        (
            {"verbosity": {"level": "low"}},
            ("Invalid type for 'verbosity': expected a string, but got an object instead.", "invalid_type"),
        ),
        (
            {"web_search_options": "low"},
            ("Invalid type for 'web_search_options': expected an object, but got a string instead.", "invalid_type"),
        ),
        (
            {"audio": "alloy"},
            ("Invalid type for 'audio': expected an object, but got a string instead.", "invalid_type"),
        ),
        (
            {"modalities": "text"},
            ("Invalid type for 'modalities': expected an array, but got a string instead.", "invalid_type"),
        ),
        # #chat-create-prediction: {"type": "content", "content": a string or text parts}
        (
            {"prediction": "the old file"},
            ("Invalid type for 'prediction': expected an object, but got a string instead.", "invalid_type"),
        ),
        (
            {"prediction": {"type": "content"}},
            ("Missing required parameter: 'prediction.content'.", "missing_required_parameter"),
        ),
        (
            {"prediction": {"type": "content", "content": [{"type": "image_url"}]}},
            (
                "Invalid value for 'prediction.content[0].type': only 'text' content parts are supported.",
                "invalid_value",
            ),
        ),
    ],
)
def test_an_ignored_field_of_the_wrong_type_or_range_is_400_as_openai_says(field, expected):
    status, message, param, code = error(respond({"model": "m", "messages": HI, **field}, GatewayConfig()))
    assert (status, message, code) == (400, *expected) and param in message


def test_ignored_fields_in_range_are_accepted(sdk):
    reply = sdk.chat.completions.create(
        model="m",
        messages=HI,
        temperature=0,
        top_p=1.0,
        presence_penalty=-2,
        frequency_penalty=2.0,
        seed=7,
        logprobs=True,
        top_logprobs=0,
        user="learner-1",
        store=False,
        metadata={"run": "3"},
        logit_bias={"50256": -100},
    )
    assert reply.choices[0].finish_reason == "stop"


@pytest.mark.parametrize(
    "field, expected",
    [
        # https://platform.openai.com/docs/api-reference/chat/create#chat-create-modalities: "text", "audio"
        (
            {"modalities": ["text", "video"]},
            ("Invalid value: 'video'. Supported values are: 'text' and 'audio'.", "modalities[1]"),
        ),
        # #chat-create-prediction: {"type": "content", ...}
        (
            {"prediction": {"type": "text", "content": "the old file"}},
            ("Invalid value: 'text'. Supported values are: 'content'.", "prediction.type"),
        ),
    ],
)
def test_a_closed_choice_of_an_ignored_field_is_400_naming_the_values(field, expected):
    status, message, param, code = error(respond({"model": "m", "messages": HI, **field}, GatewayConfig()))
    assert (status, message, param, code) == (400, *expected, "invalid_value")


def test_the_other_fields_of_the_reference_are_accepted_in_their_documented_forms(sdk):
    reply = sdk.chat.completions.create(
        model="m",
        messages=HI,
        logprobs=True,
        top_logprobs=5,
        logit_bias={"50256": 100, "1": -50},
        prompt_cache_key="course-week-1",
        safety_identifier="hashed-learner",
        service_tier="flex",
        reasoning_effort="minimal",
        verbosity="low",
        modalities=["text", "audio"],
        audio={"voice": "alloy", "format": "wav"},
        prediction={"type": "content", "content": [{"type": "text", "text": "你好"}]},
        web_search_options={"search_context_size": "low"},
        prompt_cache_retention="in_memory",
    )
    assert reply.choices[0].finish_reason == "stop"
    reply = sdk.chat.completions.create(model="m", messages=HI, prediction={"type": "content", "content": "你好"})
    assert reply.choices[0].finish_reason == "stop"


# --- the deprecated function-calling form ---------------------------------------------------------

LEGACY = {"name": "query_order", "parameters": {"type": "object", "properties": {"orderId": STRING}}}
ORDER_TEXT = [{"role": "user", "content": "订单 SN202610200001 的状态"}]


@pytest.mark.parametrize(
    "fields, param", [({"functions": [LEGACY]}, "functions"), ({"function_call": "auto"}, "function_call")]
)
def test_the_deprecated_functions_are_refused_by_name_not_ignored(fields, param):
    assert error(respond({"model": "m", "messages": ORDER_TEXT, **fields}, GatewayConfig())) == (
        400,
        f"'{param}' (the deprecated function-calling form) is not supported by this gateway: send 'tools', each "
        'function as {"type": "function", "function": {...}}, and \'tool_choice\' instead.',
        param,
        "unsupported_parameter",
    )


def test_a_null_deprecated_field_is_no_field():
    reply = respond({"model": "m", "messages": ORDER_TEXT, "functions": None, "function_call": None}, GatewayConfig())
    assert reply.status == 200


def test_a_deprecated_function_call_in_the_history_is_refused_saying_what_to_send():
    turn = {"role": "assistant", "content": None, "function_call": {"name": "query_order", "arguments": "{}"}}
    assert error(respond({"model": "m", "messages": [*ORDER_TEXT, turn, *HI]}, GatewayConfig())) == (
        400,
        "'messages[1].function_call' (the deprecated function-calling form) is not supported by this gateway: "
        "send the call in 'tool_calls', and its result as a message with role 'tool'.",
        "messages[1].function_call",
        "unsupported_parameter",
    )


# --- tool_choice: allowed_tools -----------------------------------------------------------------


def city_tool(name, description):
    parameters = {"type": "object", "properties": {"city": STRING}, "required": ["city"]}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


CITY_TOOLS = [city_tool("get_weather", "Weather for a city"), city_tool("get_time", "Local time in a city")]
TIME_IN_PARIS = [{"role": "user", "content": "What's the local time in Paris?"}]


def allowed(mode, *names):
    tools = [{"type": "function", "function": {"name": name}} for name in names]
    return {"type": "allowed_tools", "allowed_tools": {"mode": mode, "tools": tools}}


def calls_for(choice, sdk):
    reply = sdk.chat.completions.create(model="m", messages=TIME_IN_PARIS, tools=CITY_TOOLS, tool_choice=choice)
    return [(c.function.name, json.loads(c.function.arguments)) for c in reply.choices[0].message.tool_calls or ()]


def test_allowed_tools_offers_only_its_tools_with_its_mode(sdk):
    assert calls_for("auto", sdk) == [("get_time", {"city": "Paris"})]
    assert calls_for(allowed("auto", "get_time", "get_weather"), sdk) == [("get_time", {"city": "Paris"})]
    assert calls_for(allowed("auto", "get_weather"), sdk) == []  # the tool it would pick is not allowed
    assert calls_for(allowed("required", "get_weather"), sdk) == [("get_weather", {"city": "Paris"})]


CUSTOM_REFUSED = (
    "'custom' tools (free-form input, which OpenAI takes) are not supported by this gateway: send 'function' tools, "
    'each as {"type": "function", "function": {...}}.'
)


@pytest.mark.parametrize(
    "choice, message, param",
    [
        (
            allowed("sometimes", "get_time"),
            "Invalid value: 'sometimes'. Supported values are: 'auto' and 'required'.",
            "tool_choice.allowed_tools.mode",
        ),
        (
            allowed("auto", "get_date"),
            "Invalid value for 'tool_choice': tool 'get_date' is not among the 'tools' of this request.",
            "tool_choice.allowed_tools.tools[0].function.name",
        ),
        (
            allowed("auto"),
            "Invalid 'tool_choice.allowed_tools.tools': empty array. Expected an array with minimum length 1, but "
            "got an empty array instead.",
            "tool_choice.allowed_tools.tools",
        ),
        (
            {"type": "allowed_tools"},
            "Missing required parameter: 'tool_choice.allowed_tools'.",
            "tool_choice.allowed_tools",
        ),
        (
            {"type": "custom", "custom": {"name": "get_time"}},
            CUSTOM_REFUSED,
            "tool_choice.type",
        ),
    ],
)
def test_a_bad_allowed_tools_choice_is_400_saying_what_is_wrong(choice, message, param):
    request = {"model": "m", "messages": TIME_IN_PARIS, "tools": CITY_TOOLS, "tool_choice": choice}
    assert error(respond(request, GatewayConfig()))[1:3] == (message, param)


CUSTOM_TOOL = {"type": "custom", "custom": {"name": "run_sql", "description": "Run one SQL query."}}
CUSTOM_CALL = {"id": "call_1", "type": "custom", "custom": {"name": "run_sql", "input": "SELECT 1"}}


@pytest.mark.parametrize(
    "fields, param",
    [
        ({"tools": [*CITY_TOOLS, CUSTOM_TOOL]}, "tools[2].type"),
        (
            {
                "messages": [
                    *TIME_IN_PARIS,
                    {"role": "assistant", "content": None, "tool_calls": [CUSTOM_CALL]},
                    {"role": "tool", "tool_call_id": "call_1", "content": "1"},
                ]
            },
            "messages[1].tool_calls[0].type",
        ),
    ],
)
def test_a_custom_tool_is_refused_without_saying_openai_refuses_it(fields, param):
    # custom tools are part of OpenAI's chat completions
    # (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools): an error here
    # saying "Supported values are: 'function'" read as OpenAI's rule
    request = {"model": "m", "messages": TIME_IN_PARIS, "tools": CITY_TOOLS, **fields}
    assert error(respond(request, GatewayConfig())) == (400, CUSTOM_REFUSED, param, "unsupported_value")


AUDIO_PART = {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}


@pytest.mark.parametrize(
    "messages, message, param, code",
    [
        (
            [{"role": "user", "content": [{"type": "text", "text": "what does it say?"}, AUDIO_PART]}],
            "'input_audio' content parts (spoken input, which OpenAI takes) are not supported by this gateway: send "
            "what was said as a 'text' part.",
            "messages[0].content[1].type",
            "unsupported_value",
        ),
        (
            [*HI, {"role": "function", "name": "get_time", "content": "12:00"}],
            "'messages[1].role' 'function' (the deprecated function-calling form) is not supported by this gateway: "
            "send the result as a message with role 'tool' and the 'tool_call_id' of the call it answers.",
            "messages[1].role",
            "unsupported_value",
        ),
    ],
)
def test_an_audio_part_or_a_function_message_is_refused_without_saying_openai_refuses_it(
    messages, message, param, code
):
    """OpenAI takes both (`input_audio` for its audio models, the `function` role as a deprecated
    form): "only 'text', 'image_url' and 'file' content parts are supported" or "Supported values
    are: 'system', 'developer', ..." read as OpenAI's rule."""
    assert error(respond({"model": "m", "messages": messages}, GatewayConfig())) == (400, message, param, code)


def test_include_obfuscation_is_a_boolean_as_openai_checks_it(sdk):
    options = {"include_usage": True, "include_obfuscation": False}
    stream = sdk.chat.completions.create(model="m", messages=HI, stream=True, stream_options=options)
    assert [chunk for chunk in stream][-1].usage is not None
    request = {"model": "m", "messages": HI, "stream": True, "stream_options": {"include_obfuscation": "no"}}
    assert error(respond(request, GatewayConfig())) == (
        400,
        "Invalid type for 'stream_options.include_obfuscation': expected a boolean, but got a string instead.",
        "stream_options.include_obfuscation",
        "invalid_type",
    )


def test_max_tokens_and_max_completion_tokens_together_are_refused_as_openai_refuses_them(sdk):
    """OpenAI's 400 (quoted in github.com/langchain-ai/langgraph/issues/5943); the gateway took the
    pair and silently used one. Either alone, or one of them null, is fine."""
    request = {"model": "m", "messages": HI, "max_tokens": 50, "max_completion_tokens": 100}
    assert error(respond(request, GatewayConfig())) == (
        400,
        "Setting 'max_tokens' and 'max_completion_tokens' at the same time is not supported.",
        "max_tokens",
        "invalid_parameter_combination",
    )
    for limits in (
        {"max_tokens": 500},
        {"max_completion_tokens": 500},
        {"max_tokens": None, "max_completion_tokens": 500},
    ):
        assert sdk.chat.completions.create(model="m", messages=HI, **limits).choices[0].finish_reason == "stop"


# --- a message's name ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Support Agent", "a/b", "x<y", "pipe|d", "back\\slash", "tab\there", ""])
def test_a_message_name_openai_refuses_is_refused_here_too(name):
    request = {
        "model": "m",
        "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "name": name, "content": "hi"}],
    }
    assert error(respond(request, GatewayConfig())) == (
        400,
        "Invalid 'messages[1].name': string does not match pattern. Expected a string that matches the pattern "
        "'^[^\\s<|\\\\/>]+$'.",
        "messages[1].name",
        "invalid_value",
    )


def test_names_openai_takes_are_taken(sdk):
    messages = [
        {"role": "developer", "name": "policy-v2", "content": "be brief"},
        {"role": "user", "name": "客服小王", "content": "hi"},
        {"role": "assistant", "name": "support_bot.1", "content": "hello"},
        {"role": "user", "name": None, "content": "hi"},
    ]
    assert sdk.chat.completions.create(model="m", messages=messages).choices[0].finish_reason == "stop"
    with pytest.raises(openai.BadRequestError, match="Invalid type for 'messages\\[0\\].name': expected a string"):
        sdk.chat.completions.create(model="m", messages=[{"role": "user", "name": 7, "content": "hi"}])


# --- names OpenAI checks in the request -----------------------------------------------------------


def test_an_empty_model_name_is_400():
    assert error(respond({"model": "", "messages": HI}, GatewayConfig())) == (
        400,
        "Invalid 'model': empty string. Expected a string with minimum length 1, but got an empty string instead. "
        "Any model name is accepted here; a real gateway wants one it serves.",
        "model",
        "invalid_value",
    )


@pytest.mark.parametrize("name", ["my schema", "order.summary", "", "x" * 65, "摘要"])
def test_a_json_schema_name_outside_openais_pattern_is_400(name):
    fmt = {"type": "json_schema", "json_schema": {"name": name, "schema": {"type": "object"}}}
    assert error(respond({"model": "m", "messages": HI, "response_format": fmt}, GatewayConfig())) == (
        400,
        "Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches "
        "the pattern '^[a-zA-Z0-9_-]{1,64}$'.",
        "response_format.json_schema.name",
        "invalid_value",
    )


def test_a_json_schema_strict_that_is_not_a_boolean_is_400():
    fmt = {"type": "json_schema", "json_schema": {"name": "x", "strict": "true", "schema": {"type": "object"}}}
    assert error(respond({"model": "m", "messages": HI, "response_format": fmt}, GatewayConfig())) == (
        400,
        "Invalid type for 'response_format.json_schema.strict': expected a boolean, but got a string instead.",
        "response_format.json_schema.strict",
        "invalid_type",
    )


# --- n > 1 -------------------------------------------------------------------------------------


def test_n_choices_are_numbered_with_their_own_call_ids_and_usage_for_each(sdk):
    one = sdk.chat.completions.create(model="m", messages=ORDER_TEXT, tools=[ORDER_TOOL])
    three = sdk.chat.completions.create(model="m", messages=ORDER_TEXT, tools=[ORDER_TOOL], n=3)
    ChatCompletion.model_validate(three.model_dump(mode="json", exclude_unset=True), strict=True)
    assert [c.index for c in three.choices] == [0, 1, 2]
    calls = [c.message.tool_calls[0] for c in three.choices]
    assert len({c.id for c in calls}) == 3
    assert {(c.function.name, c.function.arguments) for c in calls} == {
        (one.choices[0].message.tool_calls[0].function.name, one.choices[0].message.tool_calls[0].function.arguments)
    }
    assert three.usage.completion_tokens == 3 * one.usage.completion_tokens
    assert three.usage.prompt_tokens == one.usage.prompt_tokens


@pytest.mark.parametrize("include_usage", [True, False])
def test_n_choices_stream_each_choice_with_its_index(sdk, include_usage):
    options = {"include_usage": True} if include_usage else None
    chunks = list(
        sdk.chat.completions.create(model="m", messages=HI, n=2, stream=True, stream_options=options, max_tokens=4)
    )
    texts, finishes = {}, {}
    for chunk in chunks:
        for choice in chunk.choices:
            texts[choice.index] = texts.get(choice.index, "") + (choice.delta.content or "")
            finishes[choice.index] = choice.finish_reason or finishes.get(choice.index)
    whole = sdk.chat.completions.create(model="m", messages=HI, n=2, max_tokens=4)
    assert texts == {0: whole.choices[0].message.content, 1: whole.choices[1].message.content}
    assert finishes == {0: "length", 1: "length"}
    assert [c.usage is not None for c in chunks].count(True) == (1 if include_usage else 0)
    if include_usage:
        assert chunks[-1].choices == [] and chunks[-1].usage.completion_tokens == whole.usage.completion_tokens


def test_n_choices_over_http_end_with_done():
    with running_gateway() as url:
        body = {"model": "m", "messages": HI, "n": 2, "stream": True}
        lines = [line for line in httpx.post(f"{url}/chat/completions", json=body).text.split("\n\n") if line]
    assert lines[-1] == "data: [DONE]"
    for line in lines[:-1]:
        openai.types.chat.ChatCompletionChunk.model_validate_json(line.removeprefix("data: "))


# --- file parts ----------------------------------------------------------------------------------

PDF = "data:application/pdf;base64," + base64.b64encode(b"%PDF-1.7 order SN202610200001").decode()


@pytest.mark.parametrize("file", [{"file_data": PDF, "filename": "invoice.pdf"}, {"file_id": "file-abc123"}])
def test_a_file_part_is_read_around_and_the_text_decides(file, sdk):
    parts = [{"type": "text", "text": "订单 SN202610200001 的状态"}, {"type": "file", "file": file}]
    reply = sdk.chat.completions.create(model="m", messages=[{"role": "user", "content": parts}], tools=[ORDER_TOOL])
    plain = sdk.chat.completions.create(model="m", messages=ORDER_TEXT, tools=[ORDER_TOOL])
    [call] = reply.choices[0].message.tool_calls
    assert (call.function.name, call.function.arguments) == (
        plain.choices[0].message.tool_calls[0].function.name,
        plain.choices[0].message.tool_calls[0].function.arguments,
    )


@pytest.mark.parametrize(
    "part, message, param",
    [
        (
            {"type": "file", "file": {"filename": "a.pdf"}},
            "Invalid 'messages[0].content[0].file': expected 'file_data' (a data URL) or 'file_id', but got neither.",
            "messages[0].content[0].file",
        ),
        (
            {"type": "file", "file": {"file_id": 7}},
            "Invalid type for 'messages[0].content[0].file.file_id': expected a string, but got a number instead.",
            "messages[0].content[0].file.file_id",
        ),
        ({"type": "file"}, "Missing required parameter: 'messages[0].content[0].file'.", "messages[0].content[0].file"),
    ],
)
def test_a_bad_file_part_is_400_saying_what_is_wrong(part, message, param):
    request = {"model": "m", "messages": [{"role": "user", "content": [part]}]}
    assert error(respond(request, GatewayConfig()))[1:3] == (message, param)


def test_a_file_outside_a_user_message_is_refused():
    request = refused({"content": [{"type": "file", "file": {"file_id": "file-1"}}]})
    assert error(respond(request, GatewayConfig()))[1] == (
        "Invalid value for 'messages[1].content[0].type': only 'text' and 'refusal' content parts are supported."
    )


# --- every function's parameters, strict or not (OpenAI checks them all) ------------------------


def numbered_tools(count):
    return [{"type": "function", "function": {"name": f"tool_{i}", "description": "d"}} for i in range(count)]


def test_more_than_128_tools_is_400_as_openai_says(sdk):
    """An agent offering every tool of its MCP servers at once: OpenAI refuses past 128 (a tool search
    is the way), so a gateway that took them would teach what the real API refuses."""
    assert sdk.chat.completions.create(model="m", messages=HI, tools=numbered_tools(128)).choices
    for count, stream in ((129, False), (325, True)):
        with pytest.raises(openai.BadRequestError) as caught:
            sdk.chat.completions.create(model="m", messages=HI, tools=numbered_tools(count), stream=stream)
        assert caught.value.body == {
            "message": "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array "
            f"with length {count} instead.",
            "type": "invalid_request_error",
            "param": "tools",
            "code": "array_above_max_length",
        }


def test_a_tool_description_over_1024_characters_is_400_as_openai_says(sdk):
    """An MCP server's long description passed on as it is: OpenAI refuses it, naming the tool."""
    tools = numbered_tools(3)
    tools[0]["function"]["description"] = "说" * 1024  # characters, not bytes
    assert sdk.chat.completions.create(model="m", messages=HI, tools=tools).choices
    tools[2]["function"]["description"] = "x" * 1103
    with pytest.raises(openai.BadRequestError) as caught:
        sdk.chat.completions.create(model="m", messages=HI, tools=tools)
    assert caught.value.body == {
        "message": "Invalid 'tools[2].function.description': string too long. Expected a string with maximum length "
        "1024, but got a string with length 1103 instead.",
        "type": "invalid_request_error",
        "param": "tools[2].function.description",
        "code": "string_above_max_length",
    }


def test_parallel_tool_calls_without_tools_is_400_as_openai_says():
    reply = respond({"model": "m", "messages": HI, "parallel_tool_calls": False}, GatewayConfig())
    assert error(reply) == (
        400,
        "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
        "parallel_tool_calls",
        "invalid_value",
    )
    assert respond({"model": "m", "messages": HI, "parallel_tool_calls": None}, GatewayConfig()).status == 200


def loose_tool(parameters):
    return {"type": "function", "function": {"name": "f", "parameters": parameters}}


@pytest.mark.parametrize("kind", ["array", "string", "null"])
def test_parameters_that_are_not_an_object_are_400_as_openai_says(kind):
    reply = respond({"model": "m", "messages": HI, "tools": [ORDER_TOOL, loose_tool({"type": kind})]}, GatewayConfig())
    assert error(reply) == (
        400,
        f"""Invalid schema for function 'f': schema must be a JSON Schema of 'type: "object"', got 'type: "{kind}"'.""",
        "tools[1].function.parameters",
        "invalid_function_parameters",
    )


@pytest.mark.parametrize(
    ("parameters", "context"),
    [
        ({"type": "object", "properties": {"paths": {"type": "array"}}}, "('properties', 'paths')"),
        (
            {"type": "object", "properties": {"x": {"anyOf": [{"type": "null"}, {"type": ["array", "null"]}]}}},
            "('properties', 'x', 'anyOf', '1')",
        ),
        ({"type": "object", "$defs": {"L": {"type": "array"}}}, "('$defs', 'L')"),
        (
            {"type": "object", "properties": {"m": {"type": "array", "items": {"type": "array"}}}},
            "('properties', 'm', 'items')",
        ),
    ],
)
def test_an_array_without_items_is_400_as_openai_says_strict_or_not(parameters, context):
    reply = respond({"model": "m", "messages": HI, "tools": [loose_tool(parameters)]}, GatewayConfig())
    assert error(reply) == (
        400,
        f"Invalid schema for function 'f': In context={context}, array schema missing items.",
        "tools[0].function.parameters",
        "invalid_function_parameters",
    )


@pytest.mark.parametrize(
    "parameters",
    [
        {},
        {"type": "object", "properties": {"p": {"type": "array", "items": {}}}},
        {"type": "object", "properties": {"t": {"type": "array", "prefixItems": [{"type": "integer"}]}}},
        {"type": "object", "properties": {"a": {"type": "string", "description": "type: array"}}},
    ],
)
def test_parameters_openai_takes_are_taken(parameters):
    assert respond({"model": "m", "messages": HI, "tools": [loose_tool(parameters)]}, GatewayConfig()).status == 200
