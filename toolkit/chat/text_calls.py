"""Tool calls a model wrote into its text, read as the calls they are when the gateway did not.

A model served without its tool-call parser (vLLM without `--enable-auto-tool-choice
--tool-call-parser hermes`, SGLang without `--tool-call-parser`, a relay that passes the model's
text through) writes its calls in its chat template's own format into `content`, and the gateway
answers them as text with `finish_reason: "stop"`: the loop would end the turn on
`<tool_call>{"name": "get_weather", …}</tool_call>` as the model's answer. `written_calls(message,
tools)` reads them as the parser would have, when the request offered tools and the reply holds
no call: each `<tool_call>…</tool_call>` block (the Hermes format Qwen, Hermes and many others
write) whose JSON names an offered tool and gives its `arguments` (or `parameters`) as an object
becomes a call (with `"type": "function"` beside its name, or around it as OpenAI writes a call:
`{"type": "function", "function": {…}}`, its arguments then an object or its JSON text); the text
around the blocks stays the reply's text (None when nothing is left). A whole reply that is one such JSON object alone, or a list of them (Llama 3's JSON tool calling,
without vLLM's `llama3_json` parser), is read the same way, also when it is one Markdown code block
and nothing else (```json …```: llama3.2 on Ollama writes its calls so, ollama/ollama#13519), and so
is the JSON after Mistral's `[TOOL_CALLS]` or Llama's `<|python_tag|>` (the text before the marker
stays the reply's text; a `<|eom_id|>` or `<|eot_id|>` after it is no part of it), and so are several
such calls joined by `;` (`<|python_tag|>{"name": …}; {"name": …}`: Llama 3.x's, as vLLM's `llama3_json`
and SGLang's `llama3` parsers read them), with the marker or without. A whole reply
that is a Python list of calls with literal keyword arguments (`[get_weather(city="Paris")]`: Llama
3.2's and Llama 4's format, without vLLM's `pythonic` parser) is parsed as such, never run, and so
is one such call alone after `<|python_tag|>` (Llama 3.3's). The thinking a reply begins with
(`</think>`) is passed over to find where its calls begin.
gpt-oss's Harmony call (`<|start|>assistant<|channel|>commentary to=functions.query_order
<|constrain|>json<|message|>{"order_id": "SN1"}<|call|>`, the recipient before or after the
channel) is read too: its message is the arguments object, the name after `to=functions.`.

Only what the model answered is read: a block inside its `<think>` thinking
(`toolkit.chat.thinking.split_thinking`) is a call it quoted while thinking, not one it made. All or
nothing: when one block is not such a call (no JSON, a tool not offered, arguments that are no
object), the reply stays text, as the gateway gave it. Linear in the text's length.

Leaves out: the other formats a parser reads that are not JSON (Mistral's newer `[TOOL_CALLS]name[ARGS]{…}`,
DeepSeek's `<｜tool▁call▁begin｜>`, Qwen3-Coder's `<function=…>` XML), and a reply cut in a block (`finish_reason: "length"`: the block never closes).
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from toolkit.chat.messages import AssistantMessage, ToolCall
from toolkit.chat.thinking import split_thinking

_OPEN, _CLOSE = "<tool_call>", "</tool_call>"
"""A Hermes-format call's tags: its JSON between them (the next closing tag ends it)."""
_ARGUMENT_KEYS = ("arguments", "parameters")
_MARKERS = ("[TOOL_CALLS]", "<|python_tag|>")
"""What starts the calls a model writes after its text as JSON: Mistral's `[TOOL_CALLS]` (a list of
calls), Llama 3's `<|python_tag|>` (a call)."""


def offered_names(tools: Any) -> frozenset[str]:
    """The function names of a request's `tools` array (entries of another shape named none)."""
    names = set()
    for entry in tools if isinstance(tools, list) else ():
        function = entry.get("function") if isinstance(entry, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        if isinstance(name, str):
            names.add(name)
    return frozenset(names)


def may_hold_calls(content: str | None) -> bool:
    """Whether a reply's text may hold written calls (one look, for the usual reply to pay nothing more):
    tags or markers in it, or JSON or a code fence at its start or after its `</think>` (`split_thinking`)."""
    if content is None:
        return False
    if (
        "<tool_call>" in content
        or content.lstrip()[:1] in _BARE_STARTS
        or any(m in content for m in _MARKERS)
        or _HARMONY_TO in content
    ):
        return True
    if "</" not in content:
        return False
    closed = content.lower().rfind("</think")  # thinking first (a reasoning model without a parser): what follows
    return closed >= 0 and content[content.find(">", closed) + 1 :].lstrip()[:1] in _BARE_STARTS


_BARE_STARTS = ("{", "[", "`")
"""How a reply that is nothing but its calls' JSON begins (a code fence: `_FENCED`)."""


def written_calls(message: AssistantMessage, names: frozenset[str]) -> AssistantMessage | None:
    """`message` with the calls of offered tools `names` it wrote as text read as its tool calls,
    and its text without them; None when it wrote none (or holds calls already)."""
    text = message.content
    if message.tool_calls or not text or not names:
        return None
    answer = split_thinking(text)[1]
    blocks = _blocks(answer)
    harmony = list(_HARMONY_CALL.finditer(answer)) if not blocks and _HARMONY_TO in answer else []
    if harmony:
        read = [_harmony_call(m.group(1), m.group(2), names) for m in harmony]
        calls = [call for call in read if call is not None]
        if len(calls) < len(read):
            return None
        left = _without(text, [m.group(0) for m in harmony])
    elif blocks:
        read = [_call(block[len(_OPEN) : -len(_CLOSE)], names) for block in blocks]
        calls = [call for call in read if call is not None]
        if len(calls) < len(read):
            return None
        left = _without(text, blocks)
    else:
        written, piece = _written_json(answer)
        calls = _bare(written, names, marked=piece.startswith(_MARKERS))
        if not calls:
            return None
        left = _without(text, [piece.strip()])
    return message.model_copy(update={"content": left.strip() or None, "tool_calls": tuple(calls)})


_HARMONY_TO = "to=functions."
_HARMONY_CALL = re.compile(
    r"(?:<\|start\|>assistant)?(?:<\|channel\|>[A-Za-z]{1,40}(?![A-Za-z]))?\s?to=functions\.([\w.-]{1,200})(?![\w.-])"
    r"[^<]{0,100}+(?:<\|channel\|>[A-Za-z]{1,40}(?![A-Za-z])[^<]{0,100}+)?(?:<\|constrain\|>[^<]{0,50})?<\|message\|>"
    r"(.*?)(?:<\|call\|>|<\|end\|>|(?=<\|start\|>|<\|channel\|>)|\Z)",
    re.DOTALL,
)
"""A Harmony call: its header naming `functions.<name>` (before or after its channel), its arguments up to
its end marker (or the next message, or the end)."""


def _harmony_call(name: str, written: str, names: frozenset[str]) -> ToolCall | None:
    """The call a Harmony message writes (`name`, its arguments object `written`), or None when it is
    no call of an offered tool."""
    try:
        arguments = json.loads(written)
    except (ValueError, RecursionError):
        return None
    if name not in names or not isinstance(arguments, dict):
        return None
    return ToolCall(id="", name=name, arguments=json.dumps(arguments, ensure_ascii=False))


def _blocks(answer: str) -> list[str]:
    """The `<tool_call>…</tool_call>` blocks of `answer`, tags included, in one pass: an opening tag
    never closed ends the search (no later one can close either; a regex would scan the rest again
    from each of them)."""
    blocks, at = [], answer.find(_OPEN)
    while at >= 0:
        end = answer.find(_CLOSE, at + len(_OPEN))
        if end < 0:
            break
        blocks.append(answer[at : end + len(_CLOSE)])
        at = answer.find(_OPEN, end + len(_CLOSE))
    return blocks


def _call(written: str, names: frozenset[str]) -> ToolCall | None:
    """The call one block's JSON writes, or None when it is no call of an offered tool."""
    try:
        data = json.loads(written)
    except (ValueError, RecursionError):
        return None
    return _as_call(data, names)


def _as_call(data: Any, names: frozenset[str]) -> ToolCall | None:
    """The call `data` writes: `{"name": …, "arguments"|"parameters": {…}}`, with `"type": "function"`
    beside them (Llama 3.1's documented JSON: meta-llama/llama-models#266) or around them as OpenAI
    writes a call (`{"type": "function", "function": {…}}`: Llama 3.2 Vision, vllm-project/vllm#11786)."""
    if isinstance(data, dict) and data.get("type") == "function":
        inner = data.get("function")
        if isinstance(inner, dict) and not set(data) - {"type", "function", "id"}:
            data = inner
        else:
            data = {key: value for key, value in data.items() if key != "type"}
    if not isinstance(data, dict) or data.get("name") not in names:
        return None
    keys = [key for key in _ARGUMENT_KEYS if key in data]
    if len(keys) > 1 or set(data) - {"name", *keys}:  # another field: not the format, perhaps an answer
        return None
    arguments = data[keys[0]] if keys else {}
    if isinstance(arguments, str):  # as OpenAI writes them: JSON text of the object
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError):
            return None
    if not isinstance(arguments, dict):
        return None
    return ToolCall(id="", name=data["name"], arguments=json.dumps(arguments, ensure_ascii=False))


def _written_json(answer: str) -> tuple[str, str]:
    """(the JSON an answer's calls are written in, the piece of the answer that writes them): after
    Mistral's or Llama's marker (the marker and what follows, less Llama's end-of-message token), else
    the whole answer, inside its code fence when it is one fenced block and nothing else."""
    for marker in _MARKERS:
        at = answer.find(marker)
        if at >= 0:
            written = answer[at + len(marker) :].rstrip()
            for end in _END_TOKENS:
                written = written.removesuffix(end)
            return written, answer[at:]
    fenced = _FENCED.fullmatch(answer)
    return (fenced.group(1), answer) if fenced else (answer, answer)


_END_TOKENS = ("<|eom_id|>", "<|eot_id|>")
"""The tokens Llama 3.1 ends a `<|python_tag|>` call with (a server that does not skip special tokens
leaves them in the text)."""
_FENCED = re.compile(r"\s*```(?:json)?[ \t]*\n(.*?)\n?```\s*", re.DOTALL | re.IGNORECASE)
"""A reply that is one Markdown code block and nothing else (`json` or no language): its text."""


def _bare(answer: str, names: frozenset[str], marked: bool = False) -> list[ToolCall]:
    """The calls a reply that is nothing but one call's JSON (or a list of them) writes, else []:
    each names its arguments (`{"name": …}` alone may be an answer about a tool)."""
    try:
        data = json.loads(answer)
    except (ValueError, RecursionError):
        data = _joined(answer) if ";" in answer else None
        if data is None:
            return _pythonic(answer, names, marked)
    items = data if isinstance(data, list) else [data]
    if not all(isinstance(item, dict) and not set(_ARGUMENT_KEYS).isdisjoint(_named(item)) for item in items):
        return []
    calls = [_as_call(item, names) for item in items]
    if not calls or any(call is None for call in calls):
        return []
    return [call for call in calls if call is not None]


def _joined(answer: str) -> list[Any] | None:
    """The JSON values of a text that is nothing but them joined by `;` (Llama 3.x's several calls after
    `<|python_tag|>`: `{"name": …}; {"name": …}`, read so by vLLM's `llama3_json` and SGLang's `llama3`
    parsers), a `;` after the last allowed; None for any other text. One pass: each value is read once."""
    decoder, values, at = json.JSONDecoder(), [], 0
    while True:
        try:
            value, at = decoder.raw_decode(answer, _blank_end(answer, at))
        except (ValueError, RecursionError):
            return None
        values.append(value)
        at = _blank_end(answer, at)
        if at < len(answer) and answer[at] == ";":
            at = _blank_end(answer, at + 1)
        elif at < len(answer):
            return None
        if at == len(answer):
            return values


def _blank_end(text: str, at: int) -> int:
    """Where the blanks of `text` from `at` end."""
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _named(item: dict[str, Any]) -> dict[str, Any]:
    """A written call's own fields: those of its `function` when it is written as OpenAI writes one."""
    inner = item.get("function")
    return inner if item.get("type") == "function" and isinstance(inner, dict) else item


PYTHONIC_LIMIT = 100_000
"""The longest reply `_pythonic` parses (Python's parser on a long hostile text costs memory)."""


def _pythonic(answer: str, names: frozenset[str], marked: bool = False) -> list[ToolCall]:
    """The calls a reply that is nothing but a Python list of calls writes (`[get_weather(city="Paris")]`:
    Llama 3.2's and Llama 4's own format, read by vLLM's `pythonic` parser), or, after a marker (`marked`),
    one such call alone (Llama 3.3 after `<|python_tag|>`: meta-llama/llama-models#266), else []: each
    calls an offered tool by its name with keyword arguments whose values are literals. Parsed, never run."""
    text = answer.strip()
    if not text.endswith(")]" if not marked else (")", ")]")) or len(text) > PYTHONIC_LIMIT:
        return []
    try:
        tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    nodes = tree.elts if isinstance(tree, ast.List) else [tree] if marked else []
    calls = []
    for node in nodes:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names):
            return []
        if node.args or any(keyword.arg is None for keyword in node.keywords):
            return []
        try:
            arguments = {keyword.arg: ast.literal_eval(keyword.value) for keyword in node.keywords}
            written = json.dumps(arguments, ensure_ascii=False, allow_nan=False)
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return []
        calls.append(ToolCall(id="", name=node.func.id, arguments=written))
    return calls


def _without(text: str, pieces: list[str]) -> str:
    """`text` with each of `pieces` (in their order in it) taken out where it last is, after the
    pieces after it (after any thinking that quotes one): one pass from the end, joined once."""
    spans, limit = [], len(text)
    for piece in reversed(pieces):
        at = text.rfind(piece, 0, limit)
        if at >= 0:
            spans.append((at, at + len(piece)))
            limit = at
    kept, start = [], 0
    for begin, end in reversed(spans):
        kept.append(text[start:begin])
        start = end
    kept.append(text[start:])
    return "".join(kept)
