"""`toolkit.chat.schema_keywords`: a gateway that refuses a keyword of the tools' JSON Schema (a
relay to Gemini's native API refuses `additionalProperties`) is asked again without it, once per
keyword, and never sent it again; what the keyword said is still checked by the package."""

import enum
import json
from typing import Literal

import httpx
import pytest
from pydantic import BaseModel

from tests.loopback import serving
from tests.quirk_gateway import quirky
from toolkit import ChatClient, LoopOptions, run_loop, tool
from toolkit.chat.schema_keywords import inlined, without_keywords
from toolkit.course.assistant import TOOL_SPECS
from toolkit.course.validation import validate
from toolkit.errors import ArgError, CallerError


@tool("Look up an order")
def query_order(orderId: str) -> str:
    return f"{orderId}: shipped"


@pytest.mark.parametrize("stream", [False, True])
def test_a_relay_to_gemini_that_refuses_additional_properties_gets_the_tools_without_it(stream):
    """Before: the loop's first request was a 400 "Unknown name "additionalProperties" at
    'tools[0].function_declarations[0].parameters'", raised as a CallerError, on every request.
    Now the request goes again at once without the keyword, and later ones leave it out."""
    handler = quirky("gemini_schema")
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        result = run_loop(client, "query order SN202610200001", tools=[query_order], options=LoopOptions(stream=stream))
    assert result.answer == "Here is what the tools said: SN202610200001: shipped."
    assert len(handler.seen) == 3  # the refused one, then the two of the loop
    assert ['"additionalProperties"' in str(b["tools"]).replace("'", '"') for b in handler.seen] == [True, False, False]


def test_the_course_tools_on_such_a_relay_and_an_unknown_field_is_still_an_argument_error():
    """Week 3's hand-written specs say `additionalProperties: false`; without it the model is no
    longer told, but `validate` still refuses a stray field (intent drift) before any tool runs."""
    handler = quirky("gemini_schema")
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        first = client.chat("query order SN202610200001", tools=TOOL_SPECS)
        again = client.chat("query order SN202610200002", tools=TOOL_SPECS)
    assert first.message.tool_calls and again.message.tool_calls
    assert len(handler.seen) == 3 and "additionalProperties" not in json.dumps(handler.seen[2]["tools"])
    with pytest.raises(ArgError) as refused:
        validate("query_order", '{"orderId": "SN202610200001", "refundAmount": 5}')
    assert "refundAmount" in str(refused.value)


def test_a_refusal_of_a_keyword_the_tools_do_not_hold_is_raised_as_it_was():
    """A 400 naming `additionalProperties` when no tool schema has it: nothing to leave out, so
    the caller error is raised at once, after one request."""
    sent = []

    def gateway(request):
        sent.append(request)
        text = 'Invalid JSON payload received. Unknown name "additionalProperties": Cannot find field.'
        return httpx.Response(400, json={"error": {"code": 400, "message": text, "status": "INVALID_ARGUMENT"}})

    client = ChatClient("http://gw.test/v1", "sk-quirky-key", "m", transport=httpx.MockTransport(gateway))
    spec = {"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}
    with pytest.raises(CallerError, match="^HTTP 400: Invalid JSON payload received"):
        client.chat("hi", tools=[spec])
    assert len(sent) == 1


def test_without_keywords_leaves_a_property_named_like_a_keyword():
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "additionalProperties": {"type": "string"},
            "items": {"type": "array", "items": {"type": "object", "additionalProperties": False}},
        },
        "$defs": {"additionalProperties": {"type": "object", "additionalProperties": False}},
        "default": {"additionalProperties": 1},
    }
    tools = [{"type": "function", "function": {"name": "f", "parameters": schema}}]
    lean = without_keywords(tools, {"additionalProperties"})
    assert lean[0]["function"]["parameters"] == {
        "type": "object",
        "properties": {
            "additionalProperties": {"type": "string"},
            "items": {"type": "array", "items": {"type": "object"}},
        },
        "$defs": {"additionalProperties": {"type": "object"}},
        "default": {"additionalProperties": 1},
    }
    assert schema["additionalProperties"] is False  # the caller's tools are not changed


def refusing_once_both_sent(both_sent):
    """A gateway that refuses `additionalProperties` as Gemini's relay does, each refusal sent once
    both threads' requests are in (`both_sent`, a barrier of two), and answers "ok" without it."""

    def gateway(request):
        if "additionalProperties" in json.dumps(json.loads(request.content)["tools"]):
            both_sent.wait()  # each thread's first request waits here for the other's
            text = 'Invalid JSON payload received. Unknown name "additionalProperties": Cannot find field.'
            return httpx.Response(400, json={"error": {"code": 400, "message": text, "status": "INVALID_ARGUMENT"}})
        message = {"role": "assistant", "content": "ok"}
        return httpx.Response(200, json={"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})

    return gateway


def answers_from_two_threads(client):
    """What `client.chat` answers in two threads at once, each sending a tool whose schema holds
    `additionalProperties`."""
    import threading

    schema = {"type": "object", "properties": {}, "additionalProperties": False}
    spec = {"type": "function", "function": {"name": "f", "parameters": schema}}
    answers: list[str | None] = []
    threads = [
        threading.Thread(target=lambda: answers.append(client.chat("hi", tools=[spec]).message.content))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_two_threads_refused_the_same_keyword_at_once_remember_it_once():
    """One client shared by threads: both requests went out with the keyword before either was
    refused, and each refusal appended it again (`["additionalProperties", "additionalProperties"]`).
    Now it is remembered once; both requests are asked again without it and answered."""
    import threading

    both_sent = threading.Barrier(2, timeout=60)  # met at once when things are right

    client = ChatClient(
        "http://gw.test/v1", "sk-quirky-key", "m", transport=httpx.MockTransport(refusing_once_both_sent(both_sent))
    )
    assert answers_from_two_threads(client) == ["ok", "ok"]
    assert client.schema_keywords_refused == ["additionalProperties"]


def test_two_threads_that_both_looked_before_either_remembered_still_remember_it_once(monkeypatch):
    """The look (`keyword not in refused`) and the append were two steps: a thread could look between
    another's look and its append, and both appended. Here the first thread to get there (its look,
    or the lock that now comes before it) is held until the other one is there too."""
    import threading

    import toolkit.chat.client as client_module

    both_sent = threading.Barrier(2, timeout=60)  # both requests go out with the keyword
    other_there, order, first = threading.Event(), threading.Lock(), []

    def arrived() -> None:
        with order:
            me_first = not first or first[0] is threading.current_thread()
            first[:] = first or [threading.current_thread()]
        if not me_first:
            other_there.set()
        elif not other_there.is_set():
            assert other_there.wait(60)

    class Held(list):
        def __contains__(self, item):
            found = super().__contains__(item)
            arrived()
            return found

    class Watched:
        def __init__(self, lock):
            self.lock = lock

        def __enter__(self):
            arrived()
            return self.lock.__enter__()

        def __exit__(self, *exc):
            return self.lock.__exit__(*exc)

    monkeypatch.setattr(client_module, "_REFUSED_LOCK", Watched(client_module._REFUSED_LOCK))
    client = ChatClient(
        "http://gw.test/v1", "sk-quirky-key", "m", transport=httpx.MockTransport(refusing_once_both_sent(both_sent))
    )
    client.schema_keywords_refused = Held()
    assert answers_from_two_threads(client) == ["ok", "ok"]
    assert client.schema_keywords_refused == ["additionalProperties"]


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Address(BaseModel):
    city: str


@tool
def ship_order(order_id: str, speed: Literal["fast"], color: Color, address: Address) -> str:
    """Ship an order."""
    return f"shipped {order_id} {speed} {color.value} to {address.city}"


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_a_relay_refusing_refs_and_const_gets_the_same_schema_written_out(stream):
    """Before: "HTTP 400: Invalid JSON payload received. Unknown name "$defs" …: Cannot find field. — the
    gateway rejected the request body; fix it (not retried)" for any tool with an enum, a model or a
    one-value Literal parameter. Now each keyword is refused once and said another way: the definitions
    written in place, `const` as an `enum` of its value; the model is asked the same, and the call runs."""
    handler = quirky("gemini_refs", "gemini_schema")
    with serving(handler) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        result = run_loop(client, "ship order A-1001", tools=[ship_order], options=LoopOptions(stream=stream))
    assert result.answer == "Here is what the tools said: shipped 1001 fast red to City."
    assert [e.status for e in client.exchanges] == [400, 400, 400, 200, 200]
    assert client.schema_keywords_refused == ["additionalProperties", "$defs", "const"]
    assert handler.seen[-1]["tools"][0]["function"]["parameters"] == {
        "type": "object",
        "properties": {
            "order_id": {"type": "string"},
            "speed": {"enum": ["fast"], "type": "string"},
            "color": {"enum": ["red", "blue"], "type": "string"},
            "address": {"properties": {"city": {"type": "string"}}, "required": ["city"], "type": "object"},
        },
        "required": ["order_id", "speed", "color", "address"],
    }


def test_inlining_keeps_what_sits_beside_a_reference_and_the_definitions_of_a_recursive_one():
    schema = {
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/A", "description": "Mine."},
            "tree": {"$ref": "#/definitions/Node"},
            "odd": {"$ref": "#/$defs/Missing"},
        },
        "$defs": {"A": {"type": "string", "description": "Its own."}},
        "definitions": {"Node": {"type": "object", "properties": {"kids": {"items": {"$ref": "#/definitions/Node"}}}}},
    }
    out = inlined(schema)
    assert out["properties"]["a"] == {"type": "string", "description": "Mine."}
    assert out["properties"]["tree"] == {
        "type": "object",
        "properties": {"kids": {"items": {"$ref": "#/definitions/Node"}}},
    }
    assert out["properties"]["odd"] == {"$ref": "#/$defs/Missing"}
    assert out["$defs"] == schema["$defs"] and out["definitions"] == schema["definitions"]  # still referred to
    assert inlined({"properties": {"x": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"enum": [{"$ref": "data"}]}}}) == {
        "properties": {"x": {"enum": [{"$ref": "data"}]}}  # an enum's values are data, never followed
    }


def test_definitions_that_double_at_each_level_are_sent_as_they_were():
    defs = {
        f"D{i}": {
            "type": "object",
            "properties": {"l": {"$ref": f"#/$defs/D{i + 1}"}, "r": {"$ref": f"#/$defs/D{i + 1}"}},
        }
        for i in range(40)
    }
    defs["D40"] = {"type": "string"}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/D0"}}, "$defs": defs}
    assert inlined(schema) is schema


def test_const_beside_an_enum_keeps_the_enum():
    tools = [
        {
            "type": "function",
            "function": {"name": "f", "parameters": {"properties": {"m": {"const": "a", "enum": ["a"]}}}},
        }
    ]
    assert without_keywords(tools, ["const"])[0]["function"]["parameters"] == {"properties": {"m": {"enum": ["a"]}}}
