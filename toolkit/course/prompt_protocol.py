"""The prompt-protocol fallback (week 3, section 7): tool calling for gateways without `tools`.

When the probe says C (the gateway rejects `tools`) or D (it ignores them), describe the tools
as text in the system prompt and ask for one line of JSON, `{"tool": "...", "args": {...}}`:

    model = PromptProtocol(connect())           # wraps any chat model
    ask(model, "SN202610200001 到哪了？")         # the very same loop, validation and tools

`PromptProtocol.chat()` has the chat-model signature the loop calls. Per request it
1. turns the `tools` into text (`tools_as_text`) and adds it to the system prompt;
2. rewrites the history into plain messages: an assistant tool call becomes the text the
   model wrote, a tool result becomes a user message that says whose result it is;
3. sends the request *without* `tools`, and without a structured request's `response_format`,
   which goes into the system prompt as words instead (a gateway enforcing it would let the
   model write only the answer, never a call);
4. extracts one JSON call from the reply (`extract_call`) — tolerantly: prefix text, code
   fences, comments after or inside it, curly or single quotes, trailing commas, `name`/`arguments`
   keys, arguments given as a JSON string — and returns it as an ordinary `ToolCall`; the
   model's reasoning (`<think>…</think>`, as reasoning models write it) is not read for calls.

Parsing is lenient, execution is strict: the extracted arguments go through the same
`validate()` as native calls, so a sloppy reply costs one repair round, never a wrong lookup.

Leaves out: several calls per reply (the first one wins), streaming.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from toolkit.chat.messages import (
    AssistantMessage,
    ChatResponse,
    Message,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from toolkit.chat.sse import StreamDone, StreamEvent
from toolkit.chat.thinking import split_thinking
from toolkit.tools import json_repair
from toolkit.tools.reflect import ToolSpec

PROTOCOL = (
    "你可以使用以下工具。需要调用工具时，只输出一行 JSON，格式为：\n"
    '{"tool":"工具名","args":{...}}\n'
    "不要输出任何其它文字。不需要工具时，直接用中文回答用户。"
)
ANSWER_FORMAT = "不需要工具、直接回答时，只输出一个符合下面 JSON Schema 的 JSON 对象，不要输出其它文字：\n{schema}"
"""The answer format a structured request's `response_format` asked for, in the manual instead
(`PromptProtocol.chat`): while tools are offered, a gateway that enforces the format could
never write a call."""
ANSWER_JSON = "不需要工具、直接回答时，只输出一个 JSON 对象，不要输出其它文字。"
"""`response_format={"type": "json_object"}` in the manual, likewise."""
RESULT_HEADER = "以下是工具 {tool} 的返回结果（请如实告知用户，不要编造；还需要查询时仍然只输出一行 JSON）："
_TYPES = {
    "string": "字符串",
    "integer": "整数",
    "number": "数字",
    "boolean": "布尔值",
    "array": "数组",
    "object": "对象",
}
_NAME_KEYS = ("tool", "name", "tool_name", "function")
_ARGS_KEYS = ("args", "arguments", "parameters", "input")
_FENCE = re.compile(r"```[A-Za-z]*+[ \t]*+\n?+(.*?)```", re.S)
"""A fenced block's text, after its language tag, blanks and line break, each read possessively
(`*+`): given back a character at a time after a fence left open, the body was searched to the end
again for each (a reply of "```" and 100,000 blanks took 69 s, letters 123 s)."""


def tools_as_text(tools: Sequence[Any]) -> str:
    """The week-3 course's tool manual: the protocol, then each tool's purpose and parameters.

    `tools` are OpenAI tool dicts, `ToolSpec`s or `Tool`s. A parameter's type may be a list
    (`["string", "null"]`) or variants (`anyOf`, as an optional or strict parameter has): the
    manual names each type and keeps every variant's allowed values; a `$ref` (an Enum, a model)
    is read in the schema's `$defs`."""
    specs = [_spec(t) for t in tools]
    blocks = [PROTOCOL] + [_tool_text(i, spec) for i, spec in enumerate(specs, 1)]
    return "\n\n".join(blocks)


def _spec(tool: Any) -> ToolSpec:
    if isinstance(tool, ToolSpec):
        return tool
    if isinstance(getattr(tool, "spec", None), ToolSpec):  # a Tool
        return tool.spec
    return ToolSpec.from_openai(tool)


def _tool_text(number: int, spec: ToolSpec) -> str:
    lines = [f"{number}) {spec.name}", f"用途：{spec.description or '（无说明）'}"]
    schema = spec.parameters or {}
    required = set(schema.get("required", ()))
    defs = {**_mapping(schema.get("definitions")), **_mapping(schema.get("$defs"))}
    for name, prop in (schema.get("properties") or {}).items():
        prop = prop if isinstance(prop, dict) else {}  # `true` is a schema too: anything goes
        kind, values = _kind(prop, defs)
        need = "必填" if name in required else "可选"
        choices = "，取值：" + " / ".join(values) if values else ""
        lines.append(f"参数 {name}（{kind}，{need}{choices}）：{prop.get('description', '')}".rstrip("："))
    if not schema.get("properties"):
        lines.append("参数：无")
    return "\n".join(lines)


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _resolved(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """`{"$ref": "#/$defs/Category"}` (an Enum, a model: pydantic files them under `$defs`) as the
    definition it names (`#/definitions/…` too); any other schema as it is."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(("#/$defs/", "#/definitions/")):
        target = defs.get(ref.rsplit("/", 1)[1])
        if isinstance(target, dict):
            return target
    return schema


def _kind(prop: dict[str, Any], defs: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    """`("字符串或 null", ["paid", "shipped"])`: a property's types (its own, or its `anyOf` /
    `oneOf` variants'; a list of types too; a `$ref` read in `defs`) and its allowed values, in order."""
    defs = defs or {}
    prop = _resolved(prop, defs)
    variants = [_resolved(v, defs) for v in prop.get("anyOf") or prop.get("oneOf") or [prop] if isinstance(v, dict)]
    kinds: list[str] = []
    values: list[str] = []
    for variant in variants:
        types = variant.get("type")
        for name in types if isinstance(types, list) else [types]:
            if isinstance(name, str):
                kinds.append("null" if name == "null" else _TYPES.get(name, "任意值"))
        values += [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in variant.get("enum") or ()]
    named = list(dict.fromkeys(k for k in kinds if k != "null"))
    nullable = "null" in kinds
    if not named:
        return ("null" if nullable else "任意值"), list(dict.fromkeys(values))
    return "或".join(named) + ("或 null" if nullable else ""), list(dict.fromkeys(values))


# --- extraction: lenient parsing of one call ---------------------------------------------------


@dataclass(frozen=True)
class TextCall:
    """A tool call found in a reply: the tool name and its arguments as JSON text."""

    tool: str
    arguments: str
    """JSON text, as `ToolCall.arguments` (validation decides whether it is acceptable)."""


def extract_call(reply: str | None) -> TextCall | None:
    """The first `{"tool": …, "args": …}` object in a chatty reply, or None (a plain answer); the
    model's reasoning (`<think>…</think>`) is not read (`without_reasoning`)."""
    reply = without_reasoning(reply or "")
    if not reply:
        return None
    fenced = [m.group(1) for m in _FENCE.finditer(reply)]
    for text in [*fenced, reply]:
        for obj in _objects(text):
            call = _as_call(obj)
            if call is not None:
                return call
    return None


def without_reasoning(reply: str) -> str:
    """The reply without the model's reasoning: a reasoning model served without a reasoning
    parser (DeepSeek-R1, QwQ, Qwen3 on Ollama or vLLM) writes its thinking into the reply, in
    `<think>…</think>`, and may quote a call there that it then decides against; a reply cut off
    while thinking has no answer (`toolkit.chat.thinking.split_thinking`)."""
    return split_thinking(reply)[1]


def _objects(text: str) -> Iterator[Any]:
    """Every JSON object that starts at a `{`, strict first, then with common slips repaired.

    Each `{` is read on its own (a quote before it must not hide it), so a `{` that never closes
    costs a read to the end: the characters read in all are bounded (`_SCAN_PER_CHAR` times the
    text, plus `_SCAN_EXTRA`), so a reply of thousands of unclosed `{` costs milliseconds, not
    seconds; what is past the bound is read as plain text."""
    left = _SCAN_PER_CHAR * len(text) + _SCAN_EXTRA
    start = text.find("{")
    while start != -1 and left > 0:
        snippet = _balanced(text, start, left)
        left -= len(snippet) if snippet else min(left, len(text) - start)
        value = _loads(snippet) if snippet else None
        if snippet and value is not None:
            yield value
            start = text.find("{", start + len(snippet))
        else:
            start = text.find("{", start + 1)


_SCAN_PER_CHAR = 8
_SCAN_EXTRA = 65_536


def _balanced(text: str, start: int, most: int | None = None) -> str | None:
    """`text[start:]` up to the `}` that closes the `{` at `start` (quotes respected; `//` and
    `/* */` comments outside strings skipped, so a brace or an apostrophe in one counts for
    nothing), reading at most `most` characters (None: to the end)."""
    depth = 0
    for i, c, _ in _unquoted(text, start, len(text) if most is None else min(len(text), start + most)):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def _without_comments(snippet: str) -> str:
    """`snippet` with its `//` and `/* */` comments outside strings left out (`_balanced`'s reading)."""
    kept, since = [], 0
    for i, c, after in _unquoted(snippet, 0, len(snippet)):
        if c in ("//", "/*"):
            kept.append(snippet[since:i])
            since = after
    return "".join([*kept, snippet[since:]])


def _unquoted(text: str, start: int, end: int) -> Iterator[tuple[int, str, int]]:
    """`(index, character, index after it)` of each character of `text[start:end]` outside a
    string (a quote's own character included; a backslash in a string escapes the next one,
    quote or not); a `//` or `/* */` comment outside strings is one item, `"//"` or `"/*"`,
    whose end is its line break (kept), the end of its `*/`, or `end` for one left open."""
    quote, escaped, i = "", False, start
    while i < end:
        c = text[i]
        if quote:  # inside a string
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == quote:
                quote = ""
            i += 1
            continue
        if c == "/" and text.startswith(("//", "/*"), i):
            close = "\n" if text[i + 1] == "/" else "*/"
            found = text.find(close, i + 2, end)
            after = end if found == -1 else found + (len(close) if close == "*/" else 0)
            yield i, text[i : i + 2], after
            i = after
            continue
        if c in "\"'":
            quote = c
        yield i, c, i + 1
        i += 1


def _loads(snippet: str) -> Any:
    """The snippet as JSON, with the slips `toolkit.tools.json_repair` repairs (one repair for
    this and for native tool-call arguments), and, in a reply, comments (`//`, `/* */`): models
    annotate the JSON they write."""
    try:
        return json_repair.loads(snippet)
    except ValueError:
        if "/" not in snippet:
            return None
    try:
        return json_repair.loads(_without_comments(snippet))
    except ValueError:
        return None


def _as_call(obj: Any) -> TextCall | None:
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("function"), dict):  # {"function": {"name": …, "arguments": …}}
        return _as_call(obj["function"])
    name = next((obj[k].strip() for k in _NAME_KEYS if isinstance(obj.get(k), str)), None)
    if not name:  # no name, or only whitespace
        return None
    args: Any = next((obj[k] for k in _ARGS_KEYS if k in obj), {})
    text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
    return TextCall(name, text)


# --- the adapter -------------------------------------------------------------------------------


class PromptProtocol:
    """A chat model that does tool calling through text, for the same loop on top."""

    def __init__(self, model: Any) -> None:
        self.model = model
        """The wrapped chat model (a `ChatClient`, usually one the probe classified C or D)."""

    def __repr__(self) -> str:
        return f"PromptProtocol({self.model!r})"

    def describe(self) -> str:
        inner = getattr(self.model, "describe", lambda: repr(self.model))()
        return f"{inner}, tools described in the system prompt"

    def stream(
        self, messages: Sequence[Message], *, tools: Sequence[Any] | None = None, tool_choice: Any = None, **extra: Any
    ) -> Iterator[StreamEvent]:
        """The protocol needs the whole reply to find a call in it: one event, `StreamDone`."""
        yield StreamDone(self.chat(messages, tools=tools, tool_choice=tool_choice, **extra))

    def chat(
        self, messages: Sequence[Message], *, tools: Sequence[Any] | None = None, tool_choice: Any = None, **extra: Any
    ) -> ChatResponse:
        """One request without `tools`; a JSON call in the reply comes back as a `ToolCall` (when the
        request asks for a JSON answer, `response_format`, only a call of an offered tool: an answer
        with a `name` field is no call of a tool named after its value).
        With `tool_choice="none"` the manual is left out too: the model must answer in words
        (told to write JSON, it would, and the JSON would be the answer)."""
        offered = tools if tool_choice != "none" else None
        extra, answer_format = _answer_format(extra) if offered else (extra, "")
        response = self.model.chat(protocol_messages(messages, offered, answer_format), **extra)
        found = extract_call(response.message.content) if offered else None
        if found is None or (answer_format and found.tool not in {_spec(t).name for t in offered or ()}):
            return response  # a JSON answer was asked for: one that names no offered tool is it
        made = sum(len(m.tool_calls) for m in messages if isinstance(m, AssistantMessage))
        call = ToolCall(id=f"text_call_{made + 1}", name=found.tool, arguments=found.arguments)
        message = AssistantMessage(content=response.message.content, tool_calls=(call,))
        return response.model_copy(update={"message": message, "finish_reason": "tool_calls"})


def _answer_format(extra: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """`extra` without its `response_format`, and that format as words for the manual ("" when there
    is none): a gateway that enforces the format (grammar-constrained decoding) would let the model
    write only the answer's shape, never the `{"tool": …}` line of a call."""
    if "response_format" not in extra:
        return extra, ""
    rest = {k: v for k, v in extra.items() if k != "response_format"}
    fmt = extra["response_format"]
    spec = fmt.get("json_schema") if isinstance(fmt, dict) else None
    schema = spec.get("schema") if isinstance(spec, dict) else None
    if isinstance(schema, dict):
        return rest, ANSWER_FORMAT.format(schema=json.dumps(schema, ensure_ascii=False, sort_keys=True))
    return rest, ANSWER_JSON


def protocol_messages(
    messages: Sequence[Message], tools: Sequence[Any] | None, answer_format: str = ""
) -> list[Message]:
    """The conversation as plain text messages, with the tool manual in the system prompt (and the
    answer's format, when a request's `response_format` asked for one)."""
    out: list[Message] = []
    for m in messages:
        if isinstance(m, AssistantMessage) and m.tool_calls:
            out.append(AssistantMessage(content=m.content or _as_json(m.tool_calls[0])))
        elif isinstance(m, ToolResultMessage):
            header = RESULT_HEADER.format(tool=m.tool_name or "?")
            out.append(UserMessage(content=f"{header}\n{m.content}"))
        else:
            out.append(m)
    if not tools:
        return out
    manual = tools_as_text(tools) + (f"\n{answer_format}" if answer_format else "")
    if out and isinstance(out[0], SystemMessage):
        return [SystemMessage(content=f"{out[0].content}\n\n{manual}"), *out[1:]]
    return [SystemMessage(content=manual), *out]


def _as_json(call: ToolCall) -> str:
    try:
        args = json.loads(call.arguments or "{}")
    except ValueError:
        args = call.arguments
    return json.dumps({"tool": call.name, "args": args}, ensure_ascii=False)
