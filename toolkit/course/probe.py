"""The gateway probe (week 3, section 1): does this gateway really support tool calling?

    python -m toolkit probe [--base-url URL --api-key K --model M] [--fake-mode A-E]

One raw HTTP exchange — the week-3 course's question about a made-up order and a single `query_order`
tool — printed as it came back, then classified by `classify(status, body)`:

    A  real support   tool_calls whose arguments are a JSON object
    B  fake support   200, no tool_calls, a generic reply ("I'll look it up")
    C  rejects tools  an error that names the tools field (`rejects_tools`): a 400/422, and as
                      real gateways send it, a 404 (OpenRouter: "No endpoints found that support
                      tool use") or a 500 (llama.cpp without --jinja: "tools param requires …")
    D  ignores tools  200, no tool_calls, and a concrete status for an order it cannot know
    E  half support   tool_calls whose arguments are not a JSON object
                      (or calls not in OpenAI's shape: no name, not objects)

A 200 that reports an error instead of a reply (OpenRouter's, on the body or on the choice, as
the client reads it) is C when it names the tools field, else unclassified (run the probe again).
An error for the tool call the model wrote (Groq's `failed_generation`: the gateway checked the
call and refused it) is no refusal of `tools`: it is left unclassified, and the reason says to run
the probe again. A reply's legacy `function_call` counts as its one call (the client reads it as one); an event
stream answering the plain request (a gateway that always streams) is read as the client assembles it.

The question's order id is made up, so a concrete status without a tool call is invented (D).
B and D look identical in code (no tool_calls); only the text tells them apart. The text is
`content`, or its text parts when a gateway sends a list of parts, without the model's reasoning
(`<think>…</think>`: a status weighed there is not one stated). A call the model wrote as text (a server
whose tool-call parser is off: vLLM or SGLang without it) is judged as the chat client reads it: one it reads
as the call (`toolkit.chat.text_calls`: Hermes `<tool_call>`, Llama 3's JSON, Mistral's `[TOOL_CALLS]`, of the
offered tool) is A, said as such (`ProbeResult.written`: the course's loop works, other clients see only
text); one it does not read, though the prompt-protocol fallback would, is B, and the reason says so. Raw HTTP, not
the chat client's parsed objects: a framework turns "the gateway does not know `tools`" into a
vague error, and diagnosing needs the real response.

Leaves out: retries (a probe shows what one request gets), multi-tool and streaming checks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from toolkit.chat.client import (
    ChatClient,
    Exchange,
    error_message,
    event_stream,
    model_call_refused,
    parse_completion,
    reported_instead,
)
from toolkit.chat.messages import AssistantMessage, UserMessage
from toolkit.chat.other_api import NOT_CHAT_HINT, RESPONSES_HINT, not_chat, responses_only
from toolkit.chat.sse import choice_zero, error_detail
from toolkit.chat.text_calls import offered_names, written_calls
from toolkit.chat.tool_refusal import names_tools
from toolkit.course.assistant import TOOL_SPECS
from toolkit.course.prompt_protocol import extract_call, without_reasoning
from toolkit.errors import CallerError, ModelCallError
from toolkit.views.html import showable

QUESTION = "帮我查一下订单 SN202610200001 现在到哪了？"
PROBE_TOOLS = [TOOL_SPECS[0]]  # query_order only: no "wrong tool" noise
VERDICTS = {
    "A": ("real support", "Use native tools: the course's main route works with this gateway."),
    "B": (
        "fake support",
        "The most dangerous case: tools are accepted but never called — take this "
        "log to the gateway team, and meanwhile use the prompt-protocol fallback.",
    ),
    "C": (
        "rejects tools",
        "Use the prompt-protocol fallback: describe the tools in the system "
        "prompt and extract the JSON call from the reply.",
    ),
    "D": (
        "ignores tools",
        "Never trust this gateway's answers about orders (it invents them); use the prompt-protocol fallback.",
    ),
    "E": (
        "half support",
        "Tool calls arrive with broken JSON arguments: validate strictly and "
        "let the repair round feed the error back, or ask the gateway team to fix it.",
    ),
}
CONCLUSIONS = {
    "A": "支持标准 OpenAI tools 协议。",
    "B": "疑似「假支持」：接受了 tools 但模型没有选择工具。",
    "C": "网关拒绝 tools 字段。",
    "D": "网关静默忽略 tools：没有调用工具，却给出了一个编造的状态。",
    "E": "半支持：返回了 tool_calls，但 arguments 不是合法的 JSON 对象。",
}
"""The conclusion block's verdict sentence, as the course's source prints it (`=== 结论 ===`)."""
UNCLASSIFIED = "无法判断：这次请求没有说明网关是否支持 tools。"
WRITTEN = (
    "calls written as text",
    "The course's main route works: toolkit's chat client reads calls written as text (toolkit.chat.text_calls). "
    "Other clients (the openai SDK, LangChain4j) see only text: ask for the server's tool-call parser (vLLM: "
    "--enable-auto-tool-choice --tool-call-parser hermes; SGLang: --tool-call-parser; llama.cpp: --jinja).",
)
"""The label and advice of an A whose call came as text the gateway did not parse (`ProbeResult.written`)."""
WRITTEN_CONCLUSION = "模型把工具调用写进了回复文本，网关没有解析成 tool_calls；toolkit 的客户端会把它读成调用。"
"""The conclusion block's sentence for such an A."""
_INVENTED = re.compile(
    r"已发货|已签收|已送达|运输中|运输途中|派送中|正在派送|已到达|已揽收|中转|预计.{0,8}(送达|到达|到货)"
    r"|in transit|out for delivery|has been (shipped|delivered)|expected to arrive",
    re.IGNORECASE,
)


def invents_status(text: str) -> bool:
    """Whether `text` states a concrete delivery status ("已发货", "in transit", …): the probe's
    rule for an answer that invented one. Judge a real model's answer by this, not by wording.
    The model's reasoning (`<think>…</think>`) is not read: a status weighed there is not stated."""
    return bool(_INVENTED.search(without_reasoning(text)))


@dataclass(frozen=True)
class ProbeResult:
    """One probe: the raw exchange and what it says about the gateway."""

    verdict: str | None
    """A–E, or None when the exchange says nothing about tools (unreachable, bad key...)."""
    reason: str
    """Why, in one sentence, from the response."""
    advice: str
    """What to do next, in one sentence."""
    exchange: Exchange | None
    """The raw request and response (no API key)."""
    written: bool = False
    """Whether the call (verdict A) came as text the gateway did not parse into `tool_calls`, which the
    chat client reads as the call (`toolkit.chat.text_calls`)."""

    @property
    def label(self) -> str:
        """The verdict's name ("real support", …; "calls written as text" when `written`), "no verdict" for None."""
        if self.verdict is None:
            return "no verdict"
        return WRITTEN[0] if self.written else VERDICTS[self.verdict][0]


def classify(status: int | None, body: str, *, model: str = "", tools: Any = PROBE_TOOLS) -> tuple[str | None, str]:
    """(verdict, reason) from a status code and a raw response body; `model` is the model the
    request named (its name may hold "tool": it is not read as naming the tools field), `tools` the
    tools it offered (a call written as text of one of them is read as the chat client reads it)."""
    return _classified(status, body, model, tools)[:2]


def _classified(status: int | None, body: str, model: str, tools: Any) -> tuple[str | None, str, bool]:
    """`classify`'s (verdict, reason), and whether the call came as text the client reads (`ProbeResult.written`)."""
    found = _verdict(status, body, model)
    if isinstance(found, tuple):
        return (*found, False)
    raw = _text(found.get("content"))
    text = without_reasoning(raw).strip()
    read = written_calls(AssistantMessage(content=raw), offered_names(tools)) if raw else None
    if read is not None:  # what `chat()` answers with: calls (`toolkit.chat.text_calls`)
        calls = ", ".join(f"{call.name}({call.arguments})" for call in read.tool_calls)
        return (
            "A",
            (
                f"tools accepted, and the model wrote its call as text ({text[:80]!r}), which the gateway did not parse "
                f"into tool_calls (its tool-call parser is off or does not fit the model); toolkit's chat client reads "
                f"it as the call {calls[:120]}"
            ),
            True,
        )
    if invents_status(text):
        return "D", f"no tool call, and a concrete status for a made-up order: {text[:80]!r}", False
    if extract_call(text) is not None:
        return (
            "B",
            (
                f"tools accepted, no tool_calls: the model wrote its call as text in the reply ({text[:80]!r}), which "
                "the gateway did not parse into tool_calls (its tool-call parser is off or does not fit the model), "
                "nor does toolkit's chat client read it as one; the prompt-protocol fallback reads such calls"
            ),
            False,
        )
    return "B", f"tools accepted, no tool call, a generic reply: {text[:80]!r}", False


def _verdict(status: int | None, body: str, model: str) -> tuple[str | None, str] | dict[str, Any]:
    """(verdict, reason) of every answer but a reply without calls: that reply's message, judged by its text."""
    if status is None:
        return None, f"no HTTP response ({body[:120]})"
    if status != 200 and model_call_refused(body):  # tools taken; the model's call was not
        return None, (
            f"HTTP {status}: the gateway takes tools, but refused the tool call the model wrote (failed_generation); "
            f"run the probe again: {_error_message(body)}"
        )
    if status != 200 and (responses_only(error_message(body)) or not_chat(error_message(body))):
        hint = RESPONSES_HINT if responses_only(error_message(body)) else NOT_CHAT_HINT
        return None, f"HTTP {status}: {_error_message(body)} — {hint}"  # no probe of tools reaches the model
    if status != 200 and rejects_tools(status, error_message(body), model):
        return "C", f"HTTP {status} naming the tools field: {_error_message(body)}"
    if status in (400, 422):
        return None, f"HTTP {status} without naming tools: {_error_message(body)}"
    if status != 200:
        return None, f"HTTP {status}: {_error_message(body)}"
    said = _reported(body)
    if said is not None:  # OpenRouter and other proxies: an error in a 200, on the body or on the choice
        detail = error_detail(said)[:160]
        if names_tools(detail, model):
            return "C", f"HTTP 200 with an error naming the tools field: {detail}"
        return None, f"HTTP 200 with an error instead of a reply; run the probe again: {detail}"
    message = _message(body)
    if message is None:
        return None, "HTTP 200 but the body is not a chat completion"
    calls = message.get("tool_calls") or []
    if not calls and isinstance(message.get("function_call"), dict):
        return _calls_verdict([{"function": message["function_call"]}], "a legacy function_call (not tool_calls)")
    if calls:
        return _calls_verdict(calls, "tool_calls")
    return message


NOT_ABOUT_TOOLS = (401, 402, 403, 407, 408, 409, 429, 498)
"""Error statuses about the key, the account's credit, the load (Groq's 498: at capacity) or time: never a
refusal of `tools`, whatever the message says."""


def rejects_tools(status: int | None, message: str, model: str = "") -> bool:
    """Whether an error answer refuses the request's tools: an error status (not one about the key,
    credit, load or time: `NOT_ABOUT_TOOLS`) whose message names tools or function calling once the
    model's own name is taken out of it. Real gateways refuse with a 400 or 422, with a 404
    (OpenRouter: "No endpoints found that support tool use") or a 500 (llama.cpp: "tools param
    requires --jinja flag")."""
    if status is None or status < 400 or status in NOT_ABOUT_TOOLS:
        return False
    return names_tools(message, model)


def _calls_verdict(calls: Any, what: str) -> tuple[str, str]:
    """A (E, why) for calls the client cannot use as they came, else (A, why)."""
    if not isinstance(calls, list):
        return "E", f"{what} is not a list: {calls!r:.80}"
    shape = next((problem for problem in map(_call_problem, calls) if problem), None)
    if shape:
        return "E", f"{what} not in OpenAI's shape: {shape}"
    broken = [c for c in calls if not _json_object(c["function"].get("arguments"))]
    if broken:
        return "E", f"{what} with invalid JSON arguments: {_arguments(broken[0])!r:.80}"
    note = (
        " (sent as an object, not a JSON string: non-standard)"
        if any(isinstance(c["function"].get("arguments"), dict) for c in calls)
        else ""
    )
    return "A", f"{what} with valid JSON arguments{note}"


def probe(client: ChatClient) -> ProbeResult:
    """Send the probe request through `client` and classify the raw answer."""
    body = client.build_request([UserMessage(content=QUESTION)], tools=PROBE_TOOLS)
    refused: ModelCallError | None = None
    try:
        client.send(body)
    except ModelCallError as exc:  # a 400 is an answer too: the exchange log has it
        refused = exc
    exchange = client.exchanges[-1] if client.exchanges else None
    status, text = (exchange.status, exchange.response_text) if exchange else (None, "")
    verdict, reason, written = _classified(status, text, client.model, PROBE_TOOLS)
    advice = VERDICTS[verdict][1] if verdict else (TIMED_OUT if _TIMEOUT.fullmatch(text) else _no_answer(refused))
    return ProbeResult(verdict, reason, WRITTEN[1] if written else advice, exchange, written)


NO_ANSWER = "Fix the connection first (URL, key, model), then probe again."


def _no_answer(refused: ModelCallError | None) -> str:
    """What to do about an unclassified answer: the chat client's fix for a request it was refused (a 4xx:
    `HTTP 404: message — check LLM_BASE_URL …`, which names the key, the model or a base URL ending in
    /chat/completions), else `NO_ANSWER`."""
    if not isinstance(refused, CallerError):
        return NO_ANSWER
    said, dash, fix = str(refused).rpartition(" — ")
    fix = fix.removesuffix(" (not retried)").rstrip(". ")  # a probe never retries
    return f"Fix the connection first: {fix}; then probe again." if said and dash and fix else NO_ANSWER


TIMED_OUT = (
    "The gateway did not answer within the client's timeout: if it is slow rather than stuck (a local model on a "
    "CPU), allow it longer (--timeout SECONDS on the command line, timeout= for ChatClient or connect), then probe "
    "again."
)
_TIMEOUT = re.compile(r"<\w*Timeout>")
"""What an exchange records for a request that timed out (`ChatClient`: `<ReadTimeout>`)."""


def report(result: ProbeResult) -> str:
    """The probe as the CLI prints it: request, raw response, then the conclusion block as the
    course's source prints it — `=== 结论 ===`, the verdict, `→ advice` — and `verdict: X` last. What
    the gateway sent is `showable`: a control character or a bidi override as its code point (a terminal
    would act on `\\x1b[2J`), its lines kept."""
    ex = result.exchange
    lines = [
        f"POST {ex.url}" if ex else "(no request was sent)",
        json.dumps(ex.request, ensure_ascii=False) if ex else "",
        f"HTTP {ex.status if ex and ex.status is not None else '(none)'}",
        ex.response_text if ex else "",
        "=== 结论 ===",
        f"{_conclusion(result)} ({result.label + ': ' if result.verdict else ''}{result.reason})",
        f"→ {result.advice}",
        f"verdict: {result.verdict or '?'}",
    ]
    return showable("\n".join(lines))


def _conclusion(result: ProbeResult) -> str:
    """The conclusion block's verdict sentence."""
    if result.verdict is None:
        return UNCLASSIFIED
    return WRITTEN_CONCLUSION if result.written else CONCLUSIONS[result.verdict]


def _message(body: str) -> dict[str, Any] | None:
    """The reply's message as it came — choice 0, by its `index`, as the client reads it; an event
    stream (a gateway that always streams) as the client assembles it; None when the body is neither."""
    if event_stream(body):
        try:
            return parse_completion(body).message.to_openai()
        except ModelCallError:
            return None
    choice = _choice_zero(_loaded(body))
    message = choice.get("message") if choice else None
    return message if isinstance(message, dict) else None


def _loaded(body: str) -> Any:
    """The body's JSON, a leading byte-order mark skipped as the client skips it; None when it is no JSON."""
    try:
        return json.loads(body[1:] if body.startswith("\ufeff") else body)
    except (ValueError, RecursionError):
        return None


def _choice_zero(data: Any) -> dict[str, Any] | None:
    """The choice the client reads (choice 0, by its `index`), or None."""
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list):
        return None
    return next((c for c in choices if isinstance(c, dict) and choice_zero(c)), None)


def _reported(body: str) -> Any:
    """The error a 200 reports instead of a reply, as the client reads it (`reported_instead`: on the
    body; OpenRouter's `error` on the choice), or None."""
    if event_stream(body):
        return None
    data = _loaded(body)
    choice = _choice_zero(data)
    return reported_instead(data) or (choice.get("error") if choice else None)


def _call_problem(call: Any) -> str | None:
    """What keeps one entry of `tool_calls` from being a call the client can read, or None."""
    if not isinstance(call, dict):
        return f"a tool call is not an object: {call!r:.60}"
    function = call.get("function")
    if not isinstance(function, dict):
        return f"a tool call's function is not an object: {function!r:.60}"
    if not isinstance(function.get("name"), str) or not function["name"]:
        return f"a tool call has no function name: {function!r:.60}"
    return None


def _text(content: Any) -> str:
    """A reply's text: `content` as is, its text parts joined when it is a list of parts (some
    gateways send one), else nothing."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part["text"] for part in content if isinstance(part, dict) and isinstance(part.get("text"), str))
    return ""


def _json_object(arguments: Any) -> bool:
    """Whether `arguments` are a JSON object: NaN and Infinity are not JSON (Python's `json`
    reads them; a strict parser, and the course's validation, refuse them)."""
    if isinstance(arguments, dict):
        return True
    try:
        return isinstance(json.loads(arguments, parse_constant=_not_json), dict)
    except (TypeError, ValueError):
        return False


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _arguments(call: dict[str, Any]) -> Any:
    return call.get("function", {}).get("arguments")


def _error_message(body: str) -> str:
    return error_message(body)[:160]
