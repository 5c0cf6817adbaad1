"""Tool calls a model wrote into its text (a vLLM or SGLang server started without its tool-call
parser) are read as the calls they are, on `chat()` and `stream()`; anything else stays text."""

import json

import httpx
import pytest

from tests.loopback import serving
from tests.quirk_gateway import THINKING, quirky
from toolkit.chat.client import ChatClient
from toolkit.chat.messages import AssistantMessage, UserMessage
from toolkit.chat.sse import StreamDone
from toolkit.chat.text_calls import written_calls
from toolkit.tools.reflect import ToolSpec

QUESTION = [UserMessage(content="where is SN1?")]
TOOLS = [ToolSpec(name="query_order", description="Look up an order.", parameters={"type": "object"})]
NAMES = frozenset({"query_order", "cancel_order"})
HERMES = '<tool_call>\n{"name": "query_order", "arguments": {"order_id": "SN1"}}\n</tool_call>'


def _completion(content):
    message = {"role": "assistant", "content": content}
    return {"id": "x", "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}


def _client(answer):
    return ChatClient("http://gw.test/v1", "k", "m", transport=httpx.MockTransport(lambda request: answer))


def test_a_hermes_call_written_as_text_is_a_call_on_chat():
    """Before: the reply was the text `<tool_call>{…}</tool_call>` and the loop ended the turn on it."""
    reply = _client(httpx.Response(200, json=_completion(HERMES))).chat(QUESTION, tools=TOOLS)
    assert reply.message.content is None and reply.finish_reason == "stop"
    assert [(call.name, json.loads(call.arguments)) for call in reply.message.tool_calls] == [
        ("query_order", {"order_id": "SN1"})
    ]


def test_a_hermes_call_written_as_text_is_a_call_on_a_stream():
    pieces = ["<tool_", 'call>\n{"name": "query_order", ', '"arguments": {"order_id": "SN1"}}\n</tool_call>']
    lines = [{"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]} for piece in pieces]
    lines.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    body = "".join(f"data: {json.dumps(line)}\n\n" for line in lines) + "data: [DONE]\n\n"
    answer = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body.encode())
    done = list(_client(answer).stream(QUESTION, tools=TOOLS))[-1]
    assert isinstance(done, StreamDone) and done.response.message.content is None
    assert [call.name for call in done.response.message.tool_calls] == ["query_order"]


def test_a_call_written_in_a_code_block_is_a_call_on_a_stream():
    """llama3.2:3b on Ollama writes its call as JSON in a code block (ollama/ollama#13519): before, the
    loop ended the turn on the code block as the answer."""
    pieces = ["``", '`json\n{"name": "query_', 'order", "parameters": {"order_id": "SN1"}}', "\n```"]
    lines = [{"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]} for piece in pieces]
    lines.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    body = "".join(f"data: {json.dumps(line)}\n\n" for line in lines) + "data: [DONE]\n\n"
    answer = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body.encode())
    done = list(_client(answer).stream(QUESTION, tools=TOOLS))[-1]
    assert isinstance(done, StreamDone) and done.response.message.content is None
    assert [(call.name, json.loads(call.arguments)) for call in done.response.message.tool_calls] == [
        ("query_order", {"order_id": "SN1"})
    ]


@pytest.mark.parametrize(
    "content",
    [
        '<think>\nThe user wants SN1.\n</think>\n\n{"name": "query_order", "parameters": {"order_id": "SN1"}}',
        '<think>SN1.</think>\n```json\n{"name": "query_order", "arguments": {"order_id": "SN1"}}\n```',
        'The user wants SN1.\n</THINKING>\n[{"name": "query_order", "arguments": {"order_id": "SN1"}}]',
        '<think>SN1.</think>\n\n[query_order(order_id="SN1")]',
    ],
)
def test_a_call_written_after_the_thinking_is_a_call_on_chat(content):
    """A reasoning model with no reasoning parser writes its thinking first: before, only a reply starting
    with the JSON was looked at, and the turn ended on the thinking and the call as the answer."""
    reply = _client(httpx.Response(200, json=_completion(content))).chat(QUESTION, tools=TOOLS)
    assert [(call.name, json.loads(call.arguments)) for call in reply.message.tool_calls] == [
        ("query_order", {"order_id": "SN1"})
    ]
    assert "SN1" in (reply.message.content or "") and "query_order" not in (reply.message.content or "")


def test_without_tools_offered_the_text_is_the_answer():
    reply = _client(httpx.Response(200, json=_completion(HERMES))).chat(QUESTION)
    assert reply.message.content == HERMES and reply.message.tool_calls == ()


@pytest.mark.parametrize(
    "content, calls, left",
    [
        (  # text around the blocks stays; two blocks are two calls
            'Let me look.\n<tool_call>{"name": "query_order", "arguments": {"order_id": "SN1"}}</tool_call>'
            '<tool_call>{"name": "cancel_order", "arguments": {}}</tool_call>',
            [("query_order", {"order_id": "SN1"}), ("cancel_order", {})],
            "Let me look.",
        ),
        (  # a call quoted in the thinking is none; the one answered is; the thinking stays in the text
            '<think>maybe <tool_call>{"name": "cancel_order", "arguments": {}}</tool_call>? no.</think>\n' + HERMES,
            [("query_order", {"order_id": "SN1"})],
            '<think>maybe <tool_call>{"name": "cancel_order", "arguments": {}}</tool_call>? no.</think>',
        ),
        ('{"name": "query_order", "parameters": {"order_id": "SN1"}}', [("query_order", {"order_id": "SN1"})], None),
        ('[{"name": "cancel_order", "parameters": {}}]', [("cancel_order", {})], None),
        (  # Mistral's marker, after a sentence
            'Checking. [TOOL_CALLS] [{"name": "query_order", "arguments": {"order_id": "SN1"}}]',
            [("query_order", {"order_id": "SN1"})],
            "Checking.",
        ),
        ('<|python_tag|>{"name": "cancel_order", "parameters": {}}', [("cancel_order", {})], None),  # Llama 3.1
        (  # special tokens left in the text: the end of a Llama 3.1 call is no part of its JSON
            'Looking it up.<|python_tag|>{"name": "query_order", "parameters": {"order_id": "SN1"}}<|eom_id|>\n',
            [("query_order", {"order_id": "SN1"})],
            "Looking it up.",
        ),
        (  # llama3.2 on Ollama (ollama/ollama#13519): the call in a code block, and nothing else
            '```json\n{"name": "query_order", "parameters": {"order_id": "SN1"}}\n```',
            [("query_order", {"order_id": "SN1"})],
            None,
        ),
        ('\n```\n[{"name": "cancel_order", "arguments": {}}]```\n', [("cancel_order", {})], None),
        (
            '<think>A lookup.</think>\n```JSON\n{"name": "cancel_order", "arguments": {}}\n```',
            [("cancel_order", {})],
            "<think>A lookup.</think>",
        ),
        (  # Llama 3.2's and Llama 4's pythonic calls (vLLM's `pythonic` parser), literals only
            "[query_order(order_id=\"SN1\"), cancel_order(reason='late', notify=True, items=[1, 2.5, None])]",
            [
                ("query_order", {"order_id": "SN1"}),
                ("cancel_order", {"reason": "late", "notify": True, "items": [1, 2.5, None]}),
            ],
            None,
        ),
        ("<think>Cancel it.</think>\n[cancel_order()]", [("cancel_order", {})], "<think>Cancel it.</think>"),
        (  # Llama 3.1's JSON as its repository documents it (meta-llama/llama-models#266)
            '<|python_tag|>{"type": "function", "name": "query_order", "parameters": {"order_id": "SN1"}}<|eom_id|>',
            [("query_order", {"order_id": "SN1"})],
            None,
        ),
        ('{"type": "function", "name": "cancel_order", "parameters": {}}', [("cancel_order", {})], None),
        (  # written as OpenAI writes a call (Llama 3.2 Vision on vLLM: vllm-project/vllm#11786)
            '{"type": "function", "function": {"name": "query_order", "parameters": {"order_id": "SN1"}}}',
            [("query_order", {"order_id": "SN1"})],
            None,
        ),
        (
            '[{"id": "c1", "type": "function", "function": {"name": "query_order", "arguments": "{\\"order_id\\": \\"SN1\\"}"}}]',
            [("query_order", {"order_id": "SN1"})],
            None,
        ),
        ('<|python_tag|>query_order(order_id="SN1")', [("query_order", {"order_id": "SN1"})], None),  # Llama 3.3
        (  # Llama 3.x's several calls joined by `;` (vLLM's llama3_json, SGLang's llama3 parser)
            '<|python_tag|>{"name": "query_order", "parameters": {"order_id": "SN1"}}; '
            '{"name": "cancel_order", "parameters": {}}<|eom_id|>',
            [("query_order", {"order_id": "SN1"}), ("cancel_order", {})],
            None,
        ),
        (
            'One moment.<|python_tag|>{"name": "cancel_order", "arguments": {}};\n'
            '{"type": "function", "name": "query_order", "parameters": {"order_id": "SN2"}};',
            [("cancel_order", {}), ("query_order", {"order_id": "SN2"})],
            "One moment.",
        ),
        (  # without the marker (a server that skips special tokens)
            '{"name": "query_order", "parameters": {"order_id": "SN1"}};{"name": "query_order", "parameters": '
            '{"order_id": "SN2"}}',
            [("query_order", {"order_id": "SN1"}), ("query_order", {"order_id": "SN2"})],
            None,
        ),
        ('<|python_tag|>{"name": "cancel_order", "parameters": {}};', [("cancel_order", {})], None),
    ],
)
def test_written_calls_are_read_as_a_parser_reads_them(content, calls, left):
    read = written_calls(AssistantMessage(content=content), NAMES)
    assert read is not None and read.content == left
    assert [(call.name, json.loads(call.arguments)) for call in read.tool_calls] == calls


@pytest.mark.parametrize(
    "content",
    [
        '<tool_call>{"name": "drop_tables", "arguments": {}}</tool_call>',  # a tool not offered
        HERMES + '<tool_call>{"name": "query_order", "arguments": "SN1"}</tool_call>',  # one is no call: none is
        '<tool_call>{"name": "query_order", "arguments": {"order_id": "SN1"}',  # cut: never closed
        '<think><tool_call>{"name": "query_order", "arguments": {}}</tool_call></think>No need.',
        '{"name": "query_order"}',  # an answer about a tool, not a call
        '{"name": "query_order", "arguments": {}, "status": "shipped"}',  # another field: an answer
        "The order SN1 shipped today.",
        '[TOOL_CALLS] [{"name": "query_order", "arguments": {}}] and more',  # not JSON after the marker
        'The call would be:\n```json\n{"name": "query_order", "arguments": {}}\n```',  # a block in an answer
        '```json\n{"name": "query_order", "arguments": {}}\n```\nShall I run it?',
        '```python\n{"name": "query_order", "arguments": {}}\n```',  # another language: code, not a call
        '```json\n{"order_id": "SN1", "status": "shipped"}\n```',  # JSON that is no call
        '[query_order("SN1")]',  # pythonic, but positional: not the format
        'query_order(order_id="SN1")',  # one call alone, with no marker before it: perhaps code in an answer
        '{"type": "object", "name": "query_order", "parameters": {}}',
        '{"type": "function", "function": {"name": "query_order", "parameters": {}}, "status": "shipped"}',
        '{"type": "function", "function": {"name": "query_order", "arguments": "SN1"}}',  # no JSON object
        '{"type": "function", "function": "query_order", "parameters": {}}',
        "[drop_tables()]",  # a tool not offered
        '[query_order(order_id=open("/etc/passwd").read())]',  # no literal: never run
        '[query_order(**{"order_id": "SN1"})]',
        "[query_order(order_id={1, 2})]",  # a set: no JSON
        "[query_order(order_id=1e999)]",  # infinity: no JSON
        "[query_order(order_id=" + "[" * 50_000 + "]" * 50_000 + ")]",  # too long, or too deep, to parse
        "[query_order(order_id=" + "[" * 1_000 + "]" * 1_000 + ")]",
        '[query_order(order_id="SN1")] and then I will tell you.',
        '```json\n{"name": "query_order", "arguments": {}}\n``` ```json\n{"name": "cancel_order", "arguments": {}}\n```',
        # calls joined by `;`: all of them calls of offered tools, and nothing else, or none is one
        '<|python_tag|>{"name": "query_order", "parameters": {}}; {"name": "drop_tables", "parameters": {}}',
        '<|python_tag|>{"name": "query_order", "parameters": {}}; {"name": "query_order"}',
        '{"name": "query_order", "parameters": {}}; and then I will tell you.',
        '{"name": "query_order", "parameters": {}};; {"name": "cancel_order", "parameters": {}}',
        '{"name": "query_order", "parameters": {}} {"name": "cancel_order", "parameters": {}}',  # no `;`
        '{"order_id": "SN1"}; {"status": "shipped"}',
        "1; 2",
        "{" * 10_000 + ";",
    ],
)
def test_anything_else_stays_text(content):
    assert written_calls(AssistantMessage(content=content), NAMES) is None


def test_many_tags_are_read_in_one_pass():
    """Before (a regex per block): 20,000 opening tags never closed before 200 KB of text took 270 s, each
    tag scanning the rest for its closing one; now one pass, and many blocks are taken out in one pass too."""
    assert written_calls(AssistantMessage(content="<tool_call>" * 20_000 + "x" * 200_000), NAMES) is None
    block = '<tool_call>{"name": "cancel_order", "arguments": {}}</tool_call>'
    read = written_calls(AssistantMessage(content="Cancelling all. " + block * 2_000), NAMES)
    assert read is not None and read.content == "Cancelling all." and len(read.tool_calls) == 2_000


HARMONY_CALL = (
    "<|channel|>analysis<|message|>Need to look up SN1.<|end|>"
    '<|start|>assistant<|channel|>commentary to=functions.query_order <|constrain|>json<|message|>{"order_id": "SN1"}'
    "<|call|>"
)


@pytest.mark.parametrize(
    "content, calls, left",
    [  # gpt-oss's Harmony call passed through as text (a server without its parser)
        (
            HARMONY_CALL,
            [("query_order", {"order_id": "SN1"})],
            "<|channel|>analysis<|message|>Need to look up SN1.<|end|>",
        ),
        (  # the recipient in the header before the channel, no constraint, no end marker (cut at the stop token)
            "<|start|>assistant to=functions.cancel_order<|channel|>commentary json<|message|>{}",
            [("cancel_order", {})],
            None,
        ),
    ],
)
def test_harmony_calls_written_as_text_are_calls(content, calls, left):
    read = written_calls(AssistantMessage(content=content), NAMES)
    assert read is not None and read.content == left
    assert [(call.name, json.loads(call.arguments)) for call in read.tool_calls] == calls


@pytest.mark.parametrize(
    "content",
    [
        HARMONY_CALL.replace("query_order", "drop_tables"),  # a tool not offered
        HARMONY_CALL.replace('{"order_id": "SN1"}', '"SN1"'),  # arguments that are no object
        "<|channel|>analysis<|message|>I could use to=functions.query_order<|end|><|start|>assistant<|channel|>final"
        "<|message|>It shipped.",  # named while thinking, then answered
    ],
)
def test_anything_else_in_harmony_stays_text(content):
    assert written_calls(AssistantMessage(content=content), NAMES) is None


def test_many_harmony_headers_without_a_message_are_read_in_one_pass():
    assert written_calls(AssistantMessage(content="to=functions." * 20_000), NAMES) is None
    header = "<|channel|>commentary to=functions.query_order" + " " * 99
    assert written_calls(AssistantMessage(content=header * 2_000), NAMES) is None


ORDER_TOOL = ToolSpec(
    name="query_order",
    description="Look up an order by its id.",
    parameters={"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
)


CANCEL_TOOL = ToolSpec(name="cancel_order", description="Cancel an order.", parameters={"type": "object"})


def _asked(quirks, stream):
    """The reply of the quirk gateway to a question that calls `query_order`, and the body as it came (with
    `extra_call`, `cancel_order` is offered too, and called besides)."""
    tools = [ORDER_TOOL, CANCEL_TOOL] if "extra_call" in quirks else [ORDER_TOOL]
    question = [UserMessage(content="Where is order A-1001?")]
    with serving(quirky(*quirks)) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-quirky-key", "quirky")
        reply = list(client.stream(question, tools=tools))[-1].response if stream else None
        reply = reply or client.chat(question, tools=tools)
    return reply, client.exchanges[-1].response_text


@pytest.mark.parametrize(
    "quirks", [("think", "fenced_calls"), ("pythonic_calls", "tiny_pieces"), ("joined_calls", "extra_call")]
)
@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_a_small_model_s_calls_written_as_text_are_its_calls_on_a_stand_in(quirks, stream):
    """`tests/quirk_gateway.py`'s `fenced_calls` (llama3.2 on Ollama) after `<think>`, `pythonic_calls`
    one character a chunk, and `joined_calls` (Llama 3.x's calls joined by `;`) with two calls: the calls
    read are those the stand-in's model makes without the quirk."""
    reply, raw = _asked(quirks, stream)
    plain, _ = _asked([quirk for quirk in quirks if not quirk.endswith("_calls")], stream)
    if not stream:  # the calls came as text (a stream carries it in pieces)
        assert '"tool_calls"' not in raw and ("```json" in raw) == ("fenced_calls" in quirks)
    assert [call.name for call in reply.message.tool_calls][:1] == ["query_order"]
    assert len(reply.message.tool_calls) == (2 if "extra_call" in quirks else 1)
    assert [(c.name, c.arguments) for c in reply.message.tool_calls] == [
        (c.name, c.arguments) for c in plain.message.tool_calls
    ]
    assert reply.message.content == (f"<think>{THINKING}</think>" if "think" in quirks else None)
