"""A reply streamed the way a provider streams it gives what the same reply gives not streamed: the
same `ChatResponse` from `ChatClient.stream()` as from `chat()`, and through the loop the same answer,
memory, trace and next request. Each provider's stream is written from its public docs:

- OpenAI: a role chunk (`content: ""`, `refusal: null`), text in pieces, each call's first delta
  (`index`, `id`, name, `arguments: ""`) then its argument fragments, a chunk with `finish_reason`,
  then `usage` in a chunk whose `choices` is empty (`stream_options.include_usage`).
- Azure OpenAI: a first chunk with empty `choices` and `prompt_filter_results` (its `id` and `model`
  empty), `content_filter_results` on every choice.
- OpenRouter: `: OPENROUTER PROCESSING` comments between events, `native_finish_reason`.
- Groq: usage in the last chunk's `x_groq.usage`, not `usage`.
- Mistral: each call whole in one delta, its id of 9 letters and digits, usage on the last chunk.
- Gemini's OpenAI-compatible endpoint: each call whole in one chunk, without `index`.
- Ollama: each call whole, every one at `index: 0`.
- DeepSeek / vLLM: `reasoning_content` pieces (and `reasoning_content: null` beside the text).
- TGI before 2.2: no `data: [DONE]`, the body ends after the chunk with `finish_reason`.

Replies are generated (Hypothesis): text with quotes, backslashes, line separators and emoji, any
JSON arguments (or null; the last call's cut off by `finish_reason` "length" or "content_filter"),
reasoning, usage; the pieces are cut at random places.
"""

import json
import random
import string

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.chat.client import ChatClient
from toolkit.chat.sse import StreamDone
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool
from toolkit.tools.execute import Policies, report_argument_error, report_unknown_tool
from toolkit.views.trace import render_trace_text

STYLES = ("openai", "azure", "openrouter", "groq", "mistral", "gemini", "ollama", "deepseek", "tgi")
TEXT = st.text(alphabet=st.sampled_from(list('ab z"\\{}[]\n\u2028é日😀')), min_size=1, max_size=24)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3),
    max_leaves=6,
)
ARGUMENTS = st.one_of(
    st.fixed_dictionaries({"city": TEXT}),
    st.dictionaries(st.sampled_from(["city", "order_id", "verbose", "x"]), JSON_VALUES, max_size=3),
).map(lambda value: json.dumps(value, ensure_ascii=False))
CALL = st.fixed_dictionaries(
    {"name": st.sampled_from(["get_weather", "query_order"]), "arguments": ARGUMENTS | st.none()}
)


@st.composite
def replies(draw):
    calls = draw(st.lists(CALL, max_size=3))
    content = draw(st.none() | TEXT) if calls else draw(TEXT)
    ids = draw(
        st.lists(
            st.text(string.ascii_letters + string.digits, min_size=9, max_size=9), min_size=3, max_size=3, unique=True
        )
    )
    finish = "tool_calls" if calls else draw(st.sampled_from(["stop", "length", "content_filter"]))
    if calls and calls[-1]["arguments"] and draw(st.booleans()):  # cut inside the last call's arguments
        cut = draw(st.integers(0, len(calls[-1]["arguments"]) - 1))
        calls[-1] = {**calls[-1], "arguments": calls[-1]["arguments"][:cut]}
        finish = draw(st.sampled_from(["length", "content_filter"]))
    return {
        "content": content,
        "reasoning": draw(st.none() | TEXT),
        "calls": [{**call, "id": ids[i]} for i, call in enumerate(calls)],
        "usage": {"prompt_tokens": draw(st.integers(0, 10**6)), "completion_tokens": draw(st.integers(0, 10**6))},
        "finish": finish,
    }


def whole(reply):
    """The reply as one chat.completion body."""
    message = {"role": "assistant", "content": reply["content"]}
    if reply["calls"]:
        message["tool_calls"] = [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in reply["calls"]
        ]
    if reply["reasoning"] is not None:
        message["reasoning_content"] = reply["reasoning"]
    choice = {"index": 0, "message": message, "finish_reason": reply["finish"]}
    return {"id": "chatcmpl-1", "object": "chat.completion", "model": "m", "choices": [choice], "usage": reply["usage"]}


def pieces(rng, text):
    """`text` cut at up to six random places (no piece for no text)."""
    if not text:
        return []
    cuts = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, rng.randint(0, 6))))
    return [text[i:j] for i, j in zip([0, *cuts], [*cuts, len(text)])]


def chunk(delta, finish=None, **more):
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "m", "choices": [choice], **more}


def call_deltas(style, rng, reply):
    """The tool-call chunks of `reply` as `style` streams them."""
    chunks = []
    for i, call in enumerate(reply["calls"]):
        named = {"id": call["id"], "type": "function", "function": {"name": call["name"]}}
        if style in ("mistral", "gemini", "ollama"):  # each call whole in one delta
            named["function"]["arguments"] = call["arguments"]
            index = {"mistral": {"index": i}, "gemini": {}, "ollama": {"index": 0}}[style]
            chunks.append(chunk({"tool_calls": [{**index, **named}]}))
            continue
        named["function"]["arguments"] = None if call["arguments"] is None else ""
        chunks.append(chunk({"tool_calls": [{"index": i, **named}]}))
        for piece in pieces(rng, call["arguments"] or ""):
            chunks.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}))
    return chunks


def streamed(style, rng, reply):
    """The reply as `style`'s event stream."""
    chunks = [chunk({"role": "assistant", "content": "", "refusal": None})]
    if style == "azure":
        filters = {"prompt_index": 0, "content_filter_results": {"hate": {"filtered": False, "severity": "safe"}}}
        chunks.insert(
            0, {"choices": [], "created": 0, "id": "", "model": "", "object": "", "prompt_filter_results": [filters]}
        )
    for piece in pieces(rng, reply["reasoning"] or ""):
        chunks.append(chunk({"content": None, "reasoning_content": piece}))
    for piece in pieces(rng, reply["content"] or ""):
        chunks.append(chunk({"content": piece, **({"reasoning_content": None} if reply["reasoning"] else {})}))
    chunks += call_deltas(style, rng, reply)
    last = chunk({}, reply["finish"])
    usage = reply["usage"]
    if style == "groq":
        last["x_groq"] = {"id": "req_1", "usage": {"queue_time": 0.01, **usage}}
    elif style in ("mistral", "gemini", "deepseek", "tgi"):
        last["usage"] = usage
    if style == "openrouter":
        last["choices"][0]["native_finish_reason"] = reply["finish"].upper()
    chunks.append(last)
    if style in ("openai", "azure", "openrouter", "ollama"):
        chunks.append(
            {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "m", "choices": [], "usage": usage}
        )
    if style == "azure":
        for c in chunks[1:]:
            for choice in c["choices"]:
                choice["content_filter_results"] = {}
    events = []
    for c in chunks:
        if style == "openrouter" and rng.random() < 0.4:
            events.append(": OPENROUTER PROCESSING\n\n")
        events.append(f"data: {json.dumps(c, ensure_ascii=rng.random() < 0.5)}\n\n")
    return "".join(events) + ("" if style == "tgi" else "data: [DONE]\n\n")


def client(*bodies):
    sent = []

    def answer(request):
        sent.append({k: v for k, v in json.loads(request.content).items() if k not in ("stream", "stream_options")})
        body = bodies[min(len(sent), len(bodies)) - 1]
        if isinstance(body, dict):
            return httpx.Response(200, json=body)
        return httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})

    transport = httpx.MockTransport(answer)
    return ChatClient("http://gw.test/v1", "sk-test", "m", transport=transport, sleep=lambda s: None), sent


def outcome(call):
    try:
        return call()
    except Exception as error:  # the same error on both paths is equivalence too
        return type(error).__name__, str(error)


def response_of(response):
    return response.message, response.finish_reason, response.usage, response.model, response.id


@settings(max_examples=150, deadline=None)
@given(replies(), st.sampled_from(STYLES), st.randoms(use_true_random=False))
def test_a_streamed_reply_is_the_same_response_as_the_reply_not_streamed(reply, style, rng):
    plain, _ = client(whole(reply))
    stream, _ = client(streamed(style, rng, reply))
    expected = outcome(lambda: response_of(plain.chat("hi")))
    events = outcome(lambda: list(stream.stream("hi")))
    got = response_of(events[-1].response) if isinstance(events[-1], StreamDone) else events
    assert got == expected


@tool("The weather in a city")
def get_weather(city: str) -> str:
    return f"sunny in {city}"


@tool("An order's status")
def query_order(order_id: str, verbose: bool = False) -> str:
    return f"order {order_id} shipped" + (" (verbose)" if verbose else "")


ANSWER = {"content": "Done.", "reasoning": None, "calls": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2}}


def turn(model, stream):
    memory = ChatMemory()
    policies = Policies(argument_error=report_argument_error, unknown_tool=report_unknown_tool)
    options = LoopOptions(stream=stream, policies=policies)
    result = run_loop(model, "What now?", tools=[get_weather, query_order], memory=memory, options=options)
    return result.answer, result.usage, render_trace_text(result), [m.to_openai() for m in memory.messages()]


@settings(max_examples=100, deadline=None)
@given(replies(), st.sampled_from(STYLES), st.randoms(use_true_random=False))
def test_a_streamed_turn_leaves_the_same_memory_and_trace_as_the_turn_not_streamed(reply, style, rng):
    final = {**ANSWER, "finish": "stop"}
    plain, plain_sent = client(whole(reply), whole(final))
    stream, stream_sent = client(streamed(style, rng, reply), streamed(style, random.Random(0), final))
    assert outcome(lambda: turn(stream, True)) == outcome(lambda: turn(plain, False))
    assert stream_sent == plain_sent
