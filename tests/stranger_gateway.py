"""A stranger gateway for tests: an OpenAI-compatible chat API on 127.0.0.1 that answers the way
real providers do and unlike the course's embedded gateway.

What differs from ours, on purpose:
- tool-call ids in other formats, in turn: `call_` + 24 chars, `toolu_01…`, a bare 40-char id, and
  the same id reused across requests (`call_0`, as some local servers do);
- text AND tool calls in one reply; several parallel calls when more than one tool matches;
  `finish_reason` "stop" with tool calls (as local servers send it); `""` as the arguments of a
  call without parameters;
- `usage` missing on every third reply, otherwise with extra fields (`prompt_tokens_details`,
  `completion_tokens_details`); a stream ends with a usage-only chunk (empty `choices`);
- `finish_reason` "length" on a long answer (cut at `max_tokens` words, or 60 words);
- answers in English whatever the prompt's language; ignores the tools on every fifth request;
- `system_fingerprint`, `refusal: null`, `logprobs: null`, a `created` that varies.

The policy is deterministic: call every offered tool whose name shares a word (split on `_` and
case) with the last user text, arguments built from its schema; else answer with text. A turn
whose last message is a tool result is answered with text that quotes the results.

Leaves out: authentication (any key works), images, the Responses API, and `/embeddings`.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from toolkit.gateway.server import listen

MODEL = "stranger-1"


class Policy:
    """The gateway's deterministic state: a request counter that picks id formats and quirks.
    `one_slot` plays a local server that gives every call of a reply the id `call_0` and, in a
    stream, `index: 0`."""

    def __init__(self, one_slot: bool = False) -> None:
        self.requests = 0
        self.one_slot = one_slot
        self.lock = threading.Lock()

    def next(self) -> int:
        with self.lock:
            self.requests += 1
            return self.requests


def call_id(n: int, k: int) -> str:
    """The id of call `k` in reply `n`, in one of four real-world formats."""
    digest = hashlib.sha1(f"{n}:{k}".encode()).hexdigest()
    kind = n % 4
    if kind == 0:
        return "call_" + digest[:24]
    if kind == 1:
        return "toolu_01" + digest[:22].upper()
    if kind == 2:
        return digest  # 40 characters, no prefix
    return f"call_{k}"  # the same ids in every reply


def words(text: str) -> set[str]:
    """Lower-case words of `text` (`snake_case` and `camelCase` split) and its CJK character pairs."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    latin = {w for w in re.split(r"[^a-zA-Z0-9]+", spaced.lower()) if len(w) > 2}
    cjk = re.findall(r"[\u4e00-\u9fff]+", text)
    return latin | {run[i : i + 2] for run in cjk for i in range(len(run) - 1)}


def pick(tools: list[dict[str, Any]], asked: set[str]) -> list[dict[str, Any]]:
    """The tools whose name and description share the most words with the question (several when
    close: parallel calls), best first, at most three."""
    scores = [(len(words(t["name"] + " " + (t.get("description") or "")) & asked), i) for i, t in enumerate(tools)]
    top = max((s for s, _ in scores), default=0)
    return [tools[i] for s, i in sorted(scores, key=lambda x: (-x[0], x[1])) if s and s * 2 >= top][:3]


def example(schema: dict[str, Any], name: str = "x", defs: dict[str, Any] | None = None, text: str = "") -> Any:
    """A value that fits `schema` (first enum value, minimum, a short string...); a string named
    like an id takes the first code-like token of the question `text` (`SN2026…`)."""
    defs = defs if defs is not None else schema.get("$defs", {})
    code = re.search(r"\b[A-Za-z]*\d[A-Za-z0-9-]{3,}\b", text)
    if code and schema.get("type") == "string" and re.search(r"id|number|no$|code", name, re.I):
        return code.group(0)
    if "$ref" in schema:
        return example(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), name, defs)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
            return example(options[0], name, defs)
    kind = schema.get("type", "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "object":
        props = schema.get("properties", {})
        required = schema.get("required", list(props))
        return {k: example(props[k], k, defs, text) for k in props if k in required}
    if kind == "array":
        return [example(schema.get("items", {}), name, defs)] * max(1, schema.get("minItems", 1))
    if kind == "integer":
        return int(schema.get("minimum", 2))
    if kind == "number":
        return float(schema.get("minimum", 2.5))
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    if schema.get("format") == "date":
        return "2025-01-15"
    return name[:1].upper() + name[1:] if schema.get("minLength", 1) <= len(name) else name * 3


def user_text(messages: list[dict[str, Any]]) -> str:
    """The text of the last user message (content parts joined)."""
    for message in reversed(messages):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
            return str(content or "")
    return ""


def decide(body: dict[str, Any], n: int, one_slot: bool = False) -> tuple[str | None, list[dict[str, Any]], str]:
    """(text, tool calls, finish_reason) for request number `n`."""
    messages = body.get("messages") or []
    last = messages[-1] if messages else {}
    tools = [t["function"] for t in body.get("tools") or [] if t.get("type") == "function"]
    if last.get("role") == "tool":
        results = [m.get("content") for m in messages[-4:] if m.get("role") == "tool"]
        return f"Here is what the tools said: {'; '.join(str(r)[:80] for r in results)}.", [], "stop"
    asked = words(user_text(messages))
    chosen = pick(tools, asked)
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        forced = choice.get("function", {}).get("name")
        chosen = [t for t in tools if t["name"] == forced]
    elif choice == "required" and tools and not chosen:
        chosen = tools[:1]
    if chosen and choice != "none" and (n % 5 or choice is not None):
        calls = [
            {
                "id": "call_0" if one_slot else call_id(n, k),
                "type": "function",
                "function": {
                    "name": t["name"],
                    "arguments": json.dumps(
                        example(t.get("parameters") or {"type": "object"}, text=user_text(messages))
                    ),
                },
            }
            for k, t in enumerate(chosen[:3])
        ]
        for call in calls:  # a no-parameter call's arguments: "" on some servers
            if call["function"]["arguments"] == "{}" and n % 2 == 0:
                call["function"]["arguments"] = ""
        text = "Let me check that for you." if n % 2 else None
        return text, calls, "stop" if n % 4 == 3 else "tool_calls"  # local servers say "stop" with calls
    limit = body.get("max_tokens") or body.get("max_completion_tokens") or 60
    answer = (
        "I can help with that. In English: the answer depends on the details you gave, so here is a short "
        "summary of what I understood from your request and what I would do next, step by step, "
        "with care. " + " ".join(f"point{i}" for i in range(80))
    ).split()
    if len(answer) > limit:
        return " ".join(answer[:limit]), [], "length"
    return " ".join(answer), [], "stop"


def usage(n: int, body: dict[str, Any]) -> dict[str, Any] | None:
    """Token counts with extra fields, or None (missing) on every third reply."""
    if n % 3 == 0:
        return None
    prompt = len(json.dumps(body)) // 4
    return {
        "prompt_tokens": prompt,
        "completion_tokens": 17,
        "total_tokens": prompt + 17,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0, "accepted_prediction_tokens": 0},
    }


def completion(body: dict[str, Any], n: int, one_slot: bool = False) -> dict[str, Any]:
    text, calls, finish = decide(body, n, one_slot)
    message: dict[str, Any] = {"role": "assistant", "content": text, "refusal": None}
    if calls:
        message["tool_calls"] = calls
    reply: dict[str, Any] = {
        "id": f"chatcmpl-{hashlib.md5(str(n).encode()).hexdigest()[:20]}",
        "object": "chat.completion",
        "created": 1_700_000_000 + n * 37,
        "model": body.get("model") or MODEL,
        "system_fingerprint": f"fp_{n % 7:08x}",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "service_tier": "default",
    }
    counts = usage(n, body)
    if counts is not None:
        reply["usage"] = counts
    return reply


def chunks(reply: dict[str, Any], include_usage: bool, one_slot: bool = False) -> list[dict[str, Any]]:
    """`reply` as stream chunks: role, text in pieces, each call's name then its arguments in two
    pieces, the finish, then (when asked) a usage-only chunk with empty `choices`."""
    base = {k: reply[k] for k in ("id", "created", "model", "system_fingerprint")}
    base["object"] = "chat.completion.chunk"
    message = reply["choices"][0]["message"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return {**base, "choices": [choice]}

    out = [chunk({"role": "assistant", "content": "", "refusal": None})]
    text = message.get("content") or ""
    out += [chunk({"content": text[i : i + 7]}) for i in range(0, len(text), 7)]
    for position, call in enumerate(message.get("tool_calls") or []):
        k = 0 if one_slot else position
        args = call["function"]["arguments"]
        head = {
            "index": k,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["function"]["name"], "arguments": ""},
        }
        out.append(chunk({"tool_calls": [head]}))
        half = len(args) // 2
        for piece in (args[:half], args[half:]):
            out.append(chunk({"tool_calls": [{"index": k, "function": {"arguments": piece}}]}))
    out.append(chunk({}, reply["choices"][0]["finish_reason"]))
    if include_usage:
        out.append({**base, "choices": [], "usage": reply.get("usage")})
    return out


def make_app(policy: Policy | None = None) -> Starlette:
    policy = policy or Policy()

    async def chat(request: Request):
        body = await request.json()
        n = policy.next()
        reply = completion(body, n, policy.one_slot)
        if not body.get("stream"):
            return JSONResponse(reply)
        include = bool((body.get("stream_options") or {}).get("include_usage"))

        async def events():
            for item in chunks(reply, include, policy.one_slot):
                yield f"data: {json.dumps(item)}\n\n"
            yield "data: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    async def models(request: Request):
        return JSONResponse({"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "stranger"}]})

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"]), Route("/v1/models", models)])


class StrangerGateway:
    """The app served by uvicorn in a thread: `with StrangerGateway() as g: g.env` (the `LLM_*`)."""

    def __init__(self, one_slot: bool = False) -> None:
        self.socket = listen("127.0.0.1", 0)  # bound here: a port picked and bound later could be taken meanwhile
        self.port = self.socket.getsockname()[1]
        self.policy = Policy(one_slot)
        self.server = uvicorn.Server(uvicorn.Config(make_app(self.policy), log_level="error"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    @property
    def env(self) -> dict[str, str]:
        return {
            "LLM_BASE_URL": f"http://127.0.0.1:{self.port}/v1",
            "LLM_API_KEY": "sk-stranger-key",
            "LLM_MODEL": MODEL,
        }

    def __enter__(self) -> StrangerGateway:
        self.thread.start()  # connections wait in the socket's backlog until the server takes them
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(60)  # a hang guard: it stops within a second when things are right
        self.socket.close()


if __name__ == "__main__":  # serve it in the foreground for a manual run
    import sys

    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8765
    uvicorn.run(make_app(), host="127.0.0.1", port=port, log_level="warning")
