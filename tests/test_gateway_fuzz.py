"""Bad input never crashes the gateway: arbitrary bytes, arbitrary JSON and mutated requests get an
answer the openai SDK accepts, or an OpenAI-shaped 4xx — never a 5xx, never an exception."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from starlette.testclient import TestClient

from toolkit.gateway.core import FAULTS, MODES, GatewayConfig, handle_http
from toolkit.gateway.server import Gateway, create_app

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CONFIG = GatewayConfig()
JSON_HEADERS = {"content-type": "application/json"}
TOOL = {
    "type": "function",
    "function": {
        "name": "query_order",
        "description": "查询订单",
        "parameters": {"type": "object", "properties": {"orderId": {"type": "string"}}, "required": ["orderId"]},
    },
}
VALID = {
    "model": "m",
    "tools": [TOOL],
    "tool_choice": "auto",
    "stream": False,
    "messages": [
        {"role": "system", "content": "你是售后助手"},
        {"role": "user", "content": "帮我查一下订单 SN202610200001 现在到哪了？"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "query_order", "arguments": '{"orderId":"SN202610200001"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "订单号：SN202610200001\n状态：已发货"},
        {"role": "user", "content": "谢谢，那 SN202610200002 的物流呢"},
    ],
}

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
words = st.sampled_from(
    [
        "SN202610200001",
        "物流",
        "订单状态",
        "退货",
        "你好",
        "投诉",
        "query_order",
        "{",
        "\ud800",
        "帮我把",
        "退款",
        "2026-10-01",
        "手机",
        " ",
    ]
)
texts = st.lists(words | st.text(max_size=8), max_size=8).map("".join)


def check(status, body: bytes, stream: bool = False) -> None:
    """The one property: a good answer, or a well-formed client error."""
    assert status < 500, body[:300]
    if status != 200:
        error = json.loads(body)["error"]
        assert set(error) == {"message", "type", "param", "code"} and error["message"]
    elif stream:
        events = [e for e in body.decode().split("\n\n") if e]
        assert events[-1] == "data: [DONE]"
        for event in events[:-1]:
            ChatCompletionChunk.model_validate_json(event.removeprefix("data: "))
    else:
        ChatCompletion.model_validate_json(body)


def send(body: bytes, headers=JSON_HEADERS, method="POST", path="/v1/chat/completions"):
    reply = handle_http(method, path, headers, body, CONFIG)
    stream = reply.events is not None
    check(reply.status, reply.encode(), stream)
    return reply


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes(body):
    send(body)


@FUZZ
@given(json_values)
def test_arbitrary_json(value):
    send(json.dumps(value).encode())


def paths(value, prefix=()):
    """Every path into a JSON value (the root included), so each node is equally likely."""
    yield prefix
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from paths(child, prefix + (key,))


KEYS = st.sampled_from(
    [
        "role",
        "content",
        "tool_calls",
        "tool_call_id",
        "function",
        "arguments",
        "name",
        "tools",
        "tool_choice",
        "stream",
        "stream_options",
        "parallel_tool_calls",
        "include_usage",
        "model",
        "messages",
    ]
)


def mutate(draw, value, path):
    """`value` with the node at `path` deleted, replaced by arbitrary JSON, or (an object)
    given one more key."""
    if not path:
        if isinstance(value, dict) and draw(st.booleans()):
            return {**value, draw(KEYS): draw(json_values | texts)}
        return draw(json_values | texts)
    copy = dict(value) if isinstance(value, dict) else list(value)
    if len(path) > 1 or draw(st.booleans()):
        copy[path[0]] = mutate(draw, value[path[0]], path[1:])
    elif draw(st.booleans()):
        del copy[path[0]]
    else:
        copy[path[0]] = draw(json_values | texts)
    return copy


@st.composite
def mutated_requests(draw):
    request = VALID
    for _ in range(draw(st.integers(1, 3))):
        request = mutate(draw, request, draw(st.sampled_from(list(paths(request)))))
    return request


@st.composite
def requests_with_extra_keys(draw):
    """A valid request with unexpected keys (any value) added to some of its objects."""
    request = VALID
    for _ in range(draw(st.integers(1, 3))):
        objects = [p for p in paths(request) if isinstance(_at(request, p), dict)]
        request = _with_key(request, draw(st.sampled_from(objects)), draw(KEYS), draw(json_values | texts))
    return request


def _at(value, path):
    for key in path:
        value = value[key]
    return value


def _with_key(value, path, key, new):
    if not path:
        return {**value, key: new}
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _with_key(value[path[0]], path[1:], key, new)
    return copy


@FUZZ
@given(requests_with_extra_keys(), st.sampled_from(MODES))
def test_requests_with_extra_keys(request, mode):
    send(json.dumps(request).encode(), headers={**JSON_HEADERS, "x-fake-mode": mode})


@FUZZ
@given(mutated_requests(), st.sampled_from(MODES))
def test_mutated_requests(request, mode):
    send(json.dumps(request).encode(), headers={**JSON_HEADERS, "x-fake-mode": mode})


@FUZZ
@given(
    texts,
    st.lists(
        st.sampled_from(["query_order", "query_logistics", "query_refund_policy", "x-y"]),
        min_size=1,
        max_size=3,
        unique=True,
    ),
    st.sampled_from([None, "auto", "none", "required"]),
    st.booleans(),
    st.sampled_from(MODES),
)
def test_any_user_text_with_any_tools(text, names, choice, stream, mode):
    tools = [{"type": "function", "function": {"name": n}} for n in names]
    request = {
        "model": "m",
        "messages": [{"role": "user", "content": text}],
        "tools": tools,
        "stream": stream,
        **({"tool_choice": choice} if choice else {}),
    }
    body = json.dumps(request).encode()
    reply = send(body, headers={**JSON_HEADERS, "x-fake-mode": mode})
    refused = mode == "C" or "\ud800" in text  # a lone surrogate is not valid UTF-8 JSON
    assert reply.status == (400 if refused else 200)
    assert send(body, headers={**JSON_HEADERS, "x-fake-mode": mode}).encode() == reply.encode()


@FUZZ
@given(
    st.text(max_size=12),
    st.text(max_size=30),
    st.dictionaries(
        st.sampled_from(["content-type", "x-fake-mode", "x-fake-fault", "X-Other"]), st.text(max_size=20), max_size=4
    ),
)
def test_arbitrary_method_path_and_headers(method, path, headers):
    reply = handle_http(method, path, headers, json.dumps(VALID).encode(), CONFIG)
    if headers.get("x-fake-fault", "").strip().lower() == "server_error" and reply.status == 500:
        return  # the one 5xx that is asked for
    check(reply.status, reply.encode(), reply.events is not None)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=200) | mutated_requests().map(lambda r: json.dumps(r).encode()))
def test_the_starlette_app_never_answers_5xx(client, body):
    response = client.post("/v1/chat/completions", content=body, headers=JSON_HEADERS)
    check(response.status_code, response.content, response.headers["content-type"].startswith("text/event"))


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(Gateway()))


@pytest.mark.parametrize("fault", [f for f in FAULTS if f != "server_error"])
def test_faults_on_bad_input_still_give_no_5xx(fault):
    reply = handle_http("POST", "/v1/chat/completions", JSON_HEADERS, b"{bad", CONFIG, fault=fault)
    assert reply.status in (400, 429)


DEEP_LIST = "[" * 1000 + "1" + "]" * 1000
DEEP_SCHEMA_BODY = {"type": "object", "properties": {"x": "@"}}


@pytest.mark.parametrize(
    "field, value",
    [
        ("n", "@"),
        ("modalities", "@"),
        ("modalities", ["@"]),
        ("temperature", "@"),
        ("tool_choice", "@"),
        ("tools", [{"type": "function", "function": {"name": "f", "parameters": DEEP_SCHEMA_BODY}}]),
        ("tools", [{"type": "function", "function": {"name": "f", "parameters": {"type": "@"}}}]),
        ("tools", [{"type": "@", "function": {"name": "f"}}]),
        ("response_format", {"type": "json_schema", "json_schema": {"name": "r", "schema": DEEP_SCHEMA_BODY}}),
        ("response_format", {"type": "@"}),
    ],
)
def test_a_value_nested_a_thousand_deep_where_a_field_is_read_is_a_400(field, value):
    """Before: RecursionError out of `handle_http` (the HTTP server's 500) where an error quoted the value
    (`n`, `modalities`, a schema keyword): Python's `repr` of a list 1,000 deep (within orjson's 1,024 levels)."""
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], field: value}
    reply = send(json.dumps(body).replace('"@"', DEEP_LIST).encode())
    assert reply.status == 400 and reply.body["error"]["type"] == "invalid_request_error"


@pytest.mark.parametrize("where", ["toolkit.gateway.core.check_request", "toolkit.gateway.toolset.check_tools"])
def test_a_check_that_meets_too_deep_a_value_is_a_400_not_a_crash(where, monkeypatch):
    """A check no fix above foresaw, meeting a value too deep for Python's recursion, still answers."""

    def too_deep(*args):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(where, too_deep)
    unkept = {**TOOL, "function": {**TOOL["function"], "description": where}}  # a list no earlier test had kept
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}], "tools": [unkept]}).encode()
    reply = send(body)
    assert (reply.status, reply.body["error"]["message"], reply.body["error"]["code"]) == (
        400,
        "The request body is nested too deeply.",
        "invalid_value",
    )


def _with(place: str, text: str) -> dict:
    request = json.loads(json.dumps(VALID))
    tool, call = request["tools"][0]["function"], request["messages"][2]["tool_calls"][0]
    if place == "tool name":
        tool["name"] = call["function"]["name"] = text
    elif place == "parameter name":
        tool["parameters"] = {"type": "object", "properties": {text: {"type": "string"}}, "required": [text]}
    elif place == "arguments":
        call["function"]["arguments"] = json.dumps({"orderId": text})
    elif place == "call id":
        call["id"] = request["messages"][3]["tool_call_id"] = text
    else:
        request["messages"][-1]["content"] = text
    return request


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    "place, text",
    [
        ("tool name", "query_order\ud800"),
        ("parameter name", "\u202eorderId\x00"),
        ("arguments", "SN2026\udfff\ud800\u2028"),
        ("call id", "call_\ufeff\uffff\u200d"),
        ("content", "物流" + "\u0301" * 180_000),  # 1 MB of combining marks, each written as an escape
    ],
)
def test_hostile_unicode_escaped_in_valid_json_gets_an_answer_or_a_client_error(place, text, stream):
    """The fuzzer's fourteenth kind (`unicode`), a case of each place: valid JSON, every character
    escaped (`\\ud800` as six characters, so the body is UTF-8), hostile only in what it holds."""
    body = json.dumps({**_with(place, text), "stream": stream}).encode()
    send(body)
