"""Real gateways' documented quirks, one at a time, on 127.0.0.1: the stranger gateway's answers
(`tests.stranger_gateway`) changed the way one provider or local server changes them.

`quirky(*names)` is a handler class for `tests.loopback.serving`; each name turns on one quirk:

- `think`: no reasoning parser: every answer's text starts with `<think>…</think>` (every other
  one with the closing `</think>` only, as DeepSeek-R1's template leaves it); calls stay in `tool_calls`;
- `reasoning`: DeepSeek's thinking mode: every reply has `reasoning_content`, and a request whose
  assistant turn with tool calls lacks it is a 400;
- `no_tools_openrouter` / `no_tools_llamacpp` / `no_tools_ollama`: a request with `tools` is refused
  (404 "No endpoints found that support tool use" / 500 "tools param requires --jinja flag" /
  400 "does not support tools");
- `refuse_options`: `tool_choice`, `parallel_tool_calls`, `response_format` or `stream_options`
  in a request is a 422 naming the field (some local servers validate strictly);
- `no_usage`: `usage` never sent; `object_args`: arguments sent as a JSON object; `no_ids`: calls
  without `id`; `no_index`: streamed call deltas without `index`; `function_call`: the reply's
  finish_reason is `"function_call"` when it calls;
- `limited_once`: the first request is a 429 with `Retry-After: 1`;
- `never_calls`: the model never calls a tool (tools accepted, answered with text);
- `mistral_ids`: Mistral's rule on call ids: its own are 9 letters and digits, and a request with
  an assistant call id or a tool message's `tool_call_id` of any other shape is a 400 "Tool call
  id was … but must be a-z, A-Z, 0-9, with a length of 9." (the text and body as Mistral's API
  sends them: langchain-ai/langchain#24668, jackmpcollins/magentic#276, nearai/ironclaw#1241).
  With `no_ids` it is a local server running a Mistral chat template that sends calls without
  ids yet refuses any other shape when the history comes back (ml-explore/mlx-lm#1375);
- `no_done`: a stream ends after the chunk with `finish_reason` (and usage), without `data: [DONE]`
  (TGI before 2.2, llama-box, ik_llama.cpp; `tests/test_client_stream_endings.py`);
- `gemini_schema`: a relay that turns the request into Gemini's native one (one-api and its forks):
  a tool schema holding `additionalProperties` is a 400 "Invalid JSON payload received. Unknown
  name "additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find
  field." (Laisky/one-api#60, chataize/generative-cs#1: Gemini's function declarations take an
  OpenAPI subset without it);
- `openrouter_comments`: OpenRouter's stream: an SSE comment `: OPENROUTER PROCESSING` before the
  first chunk and between chunks ("OpenRouter occasionally sends comments to prevent connection
  timeouts", openrouter.ai/docs/api-reference/streaming), chunks naming their `provider` and each
  choice's `native_finish_reason`;
- `tool_use_failed`: every third request with `tools` (the first, the fourth, …) is Groq's 400 for
  a tool call the model wrote malformed (`failed_generation`, `"code": "tool_use_failed"`:
  console.groq.com/docs/tool-use, "Error Handling", whose retry strategy sends the request again);
- `hallucinate`: every third reply that calls a tool calls `get_order_status` instead of its first
  call's tool, a name the request never offered (the SPEC's "unknown (hallucinated) tool name").
- `functions_prefix`: every other reply's calls name their tool `functions.<name>` (models
  post-trained on OpenAI's own format do: tontinton/maki#505), and carry no `type`;
- `said_with_calls`: a reply that calls a tool says a sentence first, in `content`;
- `other_model`: every reply names a model other than the one asked (a relay's routing: `quirky` →
  `quirky-2026-01-01`); `usage_strings`: usage counts sent as strings (`"12"`);
- `gzip`: every plain answer gzip-encoded (`Content-Encoding: gzip`), and starting with a UTF-8 BOM;
- `chinese`: every text answer in Chinese (a model that answers in the prompt's language, or its own);
- `tiny_pieces`: streamed call arguments and text one character a chunk (vLLM, llama.cpp stream so);
- `refuse_options_400`: as `refuse_options`, with OpenAI's own 400 body ("Unrecognized request argument
  supplied: tool_choice") instead of a 422;
- `extra_call`: every reply that calls a tool calls, besides, one more offered tool the question did not
  ask for (its first other tool), as a model that calls more than it was asked to;
- `null_finish`: DashScope's stream: every chunk before the one that ends the reply says
  `"finish_reason": "null"` (the JSON null written as text);
- `azure_filter`: Azure OpenAI's content filter annotations: a stream starts with a chunk of no
  choices holding `prompt_filter_results`, and every choice (streamed or not) carries
  `content_filter_results`; a whole reply has `prompt_filter_results` too;
- `litellm_fields`: LiteLLM proxy's extra fields: `provider_specific_fields` on the message (or delta)
  and on each call, `function_call: null` beside the calls;
- `empty_calls`: vLLM's `"tool_calls": []` on a reply (or the first delta) that calls no tool;
- `litellm_thinking`: LiteLLM's proxy in front of Claude with thinking on: every reply has
  `reasoning_content` and `thinking_blocks` (one signed block; streamed as pieces of its text, then
  its signature on a piece of empty text), and a request whose assistant turn with tool calls lacks
  the signed block is Anthropic's 400 as LiteLLM relays it ("Expected `thinking` or
  `redacted_thinking`, but found `tool_use`");
- `groq_reasoning`: every reply has `reasoning` (Groq's, vLLM's and Ollama's field; streamed as
  `reasoning` deltas), and a request with `reasoning` on an assistant message is Groq's 400 for a
  model that takes none ("property 'reasoning' is unsupported");
- `tgi_overloaded`: text-generation-inference shedding load on every fifth request (the second, the
  seventh, …): streamed, a 200 whose only event is its error with its kind beside it (`data:
  {"error": "Model is overloaded", "error_type": "overloaded"}`), else its 424 for a generation that
  failed on the server (`"error_type": "generation"`);
- `gemini_retry_delay`: the third request is Gemini's 429 in its one-item list, its wait said only as
  `RetryInfo`'s `retryDelay` ("1s") in the body, no `Retry-After`;
- `stream_thinking`: DashScope serving Qwen3's open models: a request not streamed is a 400
  "parameter.enable_thinking must be set to false for non-streaming calls" unless it says
  `"enable_thinking": false`;
- `text_calls`: vLLM or SGLang started without its tool-call parser: every call is written into
  the reply's text as the model wrote it (`<tool_call>{"name": …, "arguments": {…}}</tool_call>`,
  the Hermes format), with no `tool_calls` and `finish_reason: "stop"`;
- `qianfan_limited`: the second request is Baidu Qianfan's QPS limit, answered in a 200
  (`{"error_code": 18, "error_msg": "Open api qps request limit reached"}`);
- `stream_tools_refused`: llama.cpp's llama-server before May 2025: a request with both `tools` and
  `stream: true` is a 500 "Cannot use tools with stream" (the same request not streamed is answered).
- `numeric_ids`: every call's id is a JSON number (`"id": 1697377797897`), streamed or not, as NVIDIA NIM
  serving Kimi K2.5 or GLM-5.1, MiniMax behind OpenRouter and LM Studio send them
  (anomalyco/opencode#19947, #25786; Kilo-Org/kilocode#5816);
- `ping_events`: a server built on sse-starlette before 1.4 (llama-cpp-python's, until its
  `disable_ping_events`: abetlen/llama-cpp-python#1256): its stream's lines end with CRLF, and its
  keep-alive is an event of its own, `event: ping` with the time as data (not JSON), before the first
  chunk and between chunks (every 15 s of a slow answer);
- `fenced_calls`: a small model on Ollama without tool parsing (llama3.2:3b, ollama/ollama#13519): a
  reply that calls is a ```json code block of `{"name": …, "parameters": {…}}` (a list for several) and
  nothing else (after the thinking, with `think`), with no `tool_calls` and `finish_reason: "stop"`; `pythonic_calls`: the same written
  as Llama 3.2's and Llama 4's Python list of calls (`[query_order(order_id='A-1001')]`); `joined_calls`:
  the same written as Llama 3.x's JSON calls after `<|python_tag|>`, several joined by `; ` (vLLM's
  `llama3_json` and SGLang's `llama3` parsers read them so), ended by `<|eom_id|>`;
- `gzip_twice`: a proxy that gzips what the gateway already gzipped and keeps one `Content-Encoding:
  gzip` (drpcorg/nodecore#268, apex/up#278): every answer, plain or streamed, is gzip inside gzip.

- `gemini_refs`: as `gemini_schema`, for `$defs`, `$ref` and `const` (a relay to Gemini's function
  declarations, an OpenAPI subset without them: "Unknown name "const"", zed-industries/zed#44875);
- `null_text_422` / `null_text_400`: a reply that calls has `content: null` (as OpenAI answers), and a
  request whose assistant turn has calls and null text is mistral-common's OpenAI app's 422 ("body.messages.1.
  content.str: Input should be a valid string": mistralai/mistral-common#324) / a relay's 400 in OpenAI's
  words ("Invalid value for 'content': expected a string, got null.");
- `xai_names` / `groq_names`: a request with `name` on a message of another role than the user's (the
  package names a tool result's tool) is xAI's 400 "Only messages of role 'user' can have a name."
  (BerriAI/litellm#9720, microsoft/autogen#4715) / Groq's "'messages.2' : for 'role:tool' the following
  must be satisfied[('messages.2' : property 'name' is unsupported)]" (console.groq.com/docs/openai:
  `messages[].name` is a 400);
- `gemini_strict` / `fastapi_strict`: a request whose tools carry `strict` is a relay to Gemini's 400
  "Invalid JSON payload received. Unknown name "strict" at 'request.tools[0].function_declarations[0]':
  Cannot find field." (one line a tool: GewoonJaap/gemini-cli-openai#157, router-for-me/CLIProxyAPI#102) /
  a FastAPI server's 422 `extra_forbidden` at `body.tools.0.function.strict` (microsoft/autogen#5814).

Requests are kept in `handler.seen` (the bodies, in order). Leaves out: authentication, slow answers.
"""

from __future__ import annotations

import gzip
import hashlib
import http.server
import json
import re
import threading
from typing import Any

from tests.stranger_gateway import chunks, completion

THINKING = "The user asks about an order. I should look it up, not guess."
SIGNATURE = "EqoBCkgIARABGAIiQL2UoU0b1OHYi+"
LITELLM_THINKING_400 = {
    "error": {
        "message": 'litellm.BadRequestError: AnthropicException - {"type":"error","error":{"type":'
        '"invalid_request_error","message":"messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, '
        "but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking "
        'block (preceeding the lastmost set of `tool_use` and `tool_result` blocks)."}}',
        "type": None,
        "param": None,
        "code": "400",
    }
}
GROQ_REASONING_400 = {
    "error": {
        "message": "'messages.2' : for 'role:assistant' the following must be satisfied[('messages.2' : property "
        "'reasoning' is unsupported, did you mean 'role'?)]",
        "type": "invalid_request_error",
    }
}
XAI_NAMES = "Only messages of role 'user' can have a name."
PING_EVENT = "event: ping\ndata: 2024-03-05 10:00:00.123456\n\n"
"""sse-starlette's keep-alive before 1.4 (its lines end with CRLF on the wire: `ping_events`)."""
CHINESE = "您好，我已经查到了：订单状态正常，预计三天内送达。如有其他问题请告诉我。"
MISTRAL_ID = re.compile(r"[a-zA-Z0-9]{9}")


def mistral_refusal(body: dict[str, Any]) -> dict[str, Any] | None:
    """Mistral's 400 for the first call id in `body` that is not 9 letters and digits, or None."""
    for message in body.get("messages") or []:
        ids = [c.get("id") for c in message.get("tool_calls") or []] + [message.get("tool_call_id")]
        for given in ids:
            if given is not None and not MISTRAL_ID.fullmatch(str(given)):
                text = f"Tool call id was {given} but must be a-z, A-Z, 0-9, with a length of 9."
                return {
                    "object": "error",
                    "message": text,
                    "type": "invalid_request_error",
                    "param": None,
                    "code": None,
                }
    return None


def thought_deltas(quirks: set[str]) -> list[dict[str, Any]]:
    """The deltas a stream carries its thinking in: LiteLLM's `thinking_blocks` pieces, then the signature
    (`litellm_thinking`); Groq's `reasoning` pieces (`groq_reasoning`)."""
    half = len(THINKING) // 2
    deltas: list[dict[str, Any]] = []
    if "litellm_thinking" in quirks:
        deltas += [
            {
                "reasoning_content": piece,
                "thinking_blocks": [{"type": "thinking", "thinking": piece, "signature": None}],
            }
            for piece in (THINKING[:half], THINKING[half:])
        ]
        deltas.append({"thinking_blocks": [{"type": "thinking", "thinking": "", "signature": SIGNATURE}]})
    if "groq_reasoning" in quirks:
        deltas += [{"reasoning": THINKING[:half]}, {"reasoning": THINKING[half:]}]
    return deltas


def one_char_chunks(event: dict[str, Any]) -> list[dict[str, Any]]:
    """`event` as many chunks: its text, and each call's arguments, one character a chunk."""
    if not event["choices"]:
        return [event]
    delta = event["choices"][0]["delta"]
    calls = delta.get("tool_calls") or []
    text = delta.get("content") or ""
    if len(calls) == 1 and len(calls[0].get("function", {}).get("arguments") or "") > 1 and "id" not in calls[0]:
        args = calls[0]["function"]["arguments"]
        return [
            {
                **event,
                "choices": [
                    {**event["choices"][0], "delta": {"tool_calls": [{**calls[0], "function": {"arguments": c}}]}}
                ],
            }
            for c in args
        ]
    if not calls and len(text) > 1:
        return [{**event, "choices": [{**event["choices"][0], "delta": {**delta, "content": c}}]} for c in text]
    return [event]


def extra_call(reply: dict[str, Any], body: dict[str, Any]) -> dict[str, Any] | None:
    """A call to the first offered tool that `reply` does not call, its arguments from the schema."""
    from tests.stranger_gateway import example

    message = reply["choices"][0]["message"]
    called = {c["function"]["name"] for c in message["tool_calls"]}
    for spec in body.get("tools") or []:
        function = spec.get("function") or {}
        if function.get("name") and function["name"] not in called:
            arguments = json.dumps(example(function.get("parameters") or {"type": "object"}))
            number = len(message["tool_calls"])
            given = f"call_extra{number}{hashlib.sha1(reply['id'].encode()).hexdigest()[:8]}"
            return {"id": given, "type": "function", "function": {"name": function["name"], "arguments": arguments}}
    return None


GEMINI_QUOTA = {
    "code": 429,
    "message": "Resource has been exhausted (e.g. check quota).",
    "status": "RESOURCE_EXHAUSTED",
}
RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"
FILTER_RESULTS = {name: {"filtered": False, "severity": "safe"} for name in ("hate", "self_harm", "sexual", "violence")}
PROMPT_FILTER = [{"prompt_index": 0, "content_filter_results": FILTER_RESULTS}]


def litellm_fields(message: dict[str, Any], quirks: set[str]) -> None:
    """`message` (a reply's, or a stream's delta) as LiteLLM's proxy (`litellm_fields`) and vLLM
    (`empty_calls`) change it."""
    if "litellm_fields" in quirks:
        message["provider_specific_fields"] = {"refusal": None}
        for call in message.get("tool_calls") or []:
            call["provider_specific_fields"] = {}
        if message.get("tool_calls"):
            message["function_call"] = None
    if "empty_calls" in quirks and "role" in message and not message.get("tool_calls"):
        message["tool_calls"] = []


def quirky(*names: str) -> type[http.server.BaseHTTPRequestHandler]:
    quirks = set(names)
    state = {"n": 0, "with_tools": 0}
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        seen: list[dict[str, Any]] = []

        def log_message(self, *args: object) -> None:
            pass

        def send(self, code: int, body: Any, headers: dict[str, str] | None = None) -> None:
            data = (body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)).encode()
            if "gzip" in quirks:
                data = gzip.compress("\ufeff".encode() + data, mtime=0)
                headers = {**(headers or {}), "Content-Encoding": "gzip"}
            if "gzip_twice" in quirks:
                data = gzip.compress(gzip.compress(data, mtime=0), mtime=0)
                headers = {**(headers or {}), "Content-Encoding": "gzip"}
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self.send(200, {"object": "list", "data": [{"id": "quirky", "object": "model"}]})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            Handler.seen.append(body)
            with lock:
                state["n"] += 1
                n = state["n"]
            refused = self.refusal(body, n)
            if refused is not None:
                self.send(*refused)
                return
            if "tgi_overloaded" in quirks and n % 5 == 2 and body.get("stream"):
                self.events('data: {"error": "Model is overloaded", "error_type": "overloaded"}\n\n')
                return
            reply = completion(body, n)
            if "never_calls" in quirks and reply["choices"][0]["message"].get("tool_calls"):
                reply = completion({**body, "tools": []}, n)
            self.change(reply, n, bool(body.get("stream")), body)
            if not body.get("stream"):
                self.send(200, reply)
                return
            include = bool((body.get("stream_options") or {}).get("include_usage")) and "no_usage" not in quirks
            events = chunks(reply, include)
            if "reasoning" in quirks:
                events.insert(1, {**events[0], "choices": [{"index": 0, "delta": {"reasoning_content": THINKING}}]})
            events[1:1] = [{**events[0], "choices": [{"index": 0, "delta": d}]} for d in thought_deltas(quirks)]
            if "tiny_pieces" in quirks:
                events = [piece for event in events for piece in one_char_chunks(event)]
            for event in events:
                for choice in event["choices"]:
                    for call in choice["delta"].get("tool_calls") or []:
                        if "no_index" in quirks:
                            call.pop("index", None)
                        if "no_ids" in quirks:
                            call.pop("id", None)
            for event in events[:-1] if "null_finish" in quirks else []:
                for choice in event["choices"]:
                    if choice.get("finish_reason") is None:
                        choice["finish_reason"] = "null"
            if "azure_filter" in quirks:
                for event in events:
                    for choice in event["choices"]:
                        choice["content_filter_results"] = FILTER_RESULTS
                events.insert(
                    0, {"id": "", "object": "", "model": "", "choices": [], "prompt_filter_results": PROMPT_FILTER}
                )
            if "litellm_fields" in quirks or "empty_calls" in quirks:
                for event in events:
                    for choice in event["choices"]:
                        litellm_fields(choice["delta"], quirks)
            if "openrouter_comments" in quirks:
                for event in events:
                    event["provider"] = "Quirky"
                    for choice in event["choices"]:
                        choice["native_finish_reason"] = choice.get("finish_reason")
            comment = ": OPENROUTER PROCESSING\n\n" if "openrouter_comments" in quirks else ""
            comment += PING_EVENT if "ping_events" in quirks else ""
            text = "".join(f"{comment}data: {json.dumps(e, ensure_ascii=False)}\n\n" for e in events)
            text += "" if "no_done" in quirks else "data: [DONE]\n\n"
            self.events(text.replace("\n", "\r\n") if "ping_events" in quirks else text)

        def events(self, text: str) -> None:
            data = text.encode()
            self.send_response(200)
            if "gzip_twice" in quirks:
                data = gzip.compress(gzip.compress(data, mtime=0), mtime=0)
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def refusal(self, body: dict[str, Any], n: int) -> tuple[int, Any] | tuple[int, Any, dict[str, str]] | None:
            if "stream_thinking" in quirks and not body.get("stream") and body.get("enable_thinking") is not False:
                text = "parameter.enable_thinking must be set to false for non-streaming calls"
                return 400, {"error": {"code": "invalid_parameter_error", "param": None, "message": text}}
            if "limited_once" in quirks and n == 1:
                return 429, {"error": {"message": "Rate limit reached", "type": "rate_limit"}}, {"Retry-After": "1"}
            if "tgi_overloaded" in quirks and n % 5 == 2 and not body.get("stream"):
                failed = "Request failed during generation: Server error: CUDA out of memory"
                return 424, {"error": failed, "error_type": "generation"}
            if "qianfan_limited" in quirks and n == 2:
                return 200, {"error_code": 18, "error_msg": "Open api qps request limit reached"}
            if "gemini_retry_delay" in quirks and n == 3:
                return 429, [{"error": {**GEMINI_QUOTA, "details": [{"@type": RETRY_INFO, "retryDelay": "1s"}]}}]
            if "stream_tools_refused" in quirks and body.get("tools") and body.get("stream"):
                return 500, {"error": {"code": 500, "message": "Cannot use tools with stream", "type": "server_error"}}
            if body.get("tools"):
                with lock:
                    state["with_tools"] += 1
                    fails = state["with_tools"] % 3 == 1
                if "tool_use_failed" in quirks and fails:
                    return 400, {
                        "error": {
                            "message": "Failed to call a function. Please adjust your prompt. "
                            "See 'failed_generation' for more details.",
                            "type": "invalid_request_error",
                            "code": "tool_use_failed",
                            "failed_generation": '<function=query_order{"order_id": "SN1"}</function>',
                        }
                    }
                if "no_tools_openrouter" in quirks:
                    return 404, {"error": {"message": "No endpoints found that support tool use.", "code": 404}}
                if "no_tools_llamacpp" in quirks:
                    return 500, {
                        "error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}
                    }
                if "no_tools_ollama" in quirks:
                    return 400, {
                        "error": {
                            "message": "registry.ollama.ai/library/gemma:2b does not support tools",
                            "type": "api_error",
                        }
                    }
            for message in body.get("messages") or []:
                if message.get("role") != "assistant":
                    continue
                blocks = message.get("thinking_blocks") or []
                signed = any(b.get("signature") == SIGNATURE for b in blocks if isinstance(b, dict))
                if "litellm_thinking" in quirks and message.get("tool_calls") and not signed:
                    return 400, LITELLM_THINKING_400
                if "groq_reasoning" in quirks and "reasoning" in message:
                    return 400, GROQ_REASONING_400
            if "mistral_ids" in quirks and (refused := mistral_refusal(body)) is not None:
                return 400, refused
            if "gemini_schema" in quirks:
                for i, spec in enumerate(body.get("tools") or []):
                    if '"additionalProperties"' in json.dumps(spec):
                        where = f"tools[0].function_declarations[{i}].parameters"
                        text = f'Invalid JSON payload received. Unknown name "additionalProperties" at {where!r}: '
                        return 400, {
                            "error": {"code": 400, "message": text + "Cannot find field.", "status": "INVALID_ARGUMENT"}
                        }
            named = [m for m in body.get("messages") or [] if m.get("role") != "user" and "name" in m]
            if "xai_names" in quirks and named:
                return 400, {"code": "Client specified an invalid argument", "error": XAI_NAMES}
            if "groq_names" in quirks and named:
                at, role = body["messages"].index(named[0]), named[0]["role"]
                text = f"'messages.{at}' : for 'role:{role}' the following must be satisfied[('messages.{at}' : "
                return 400, {
                    "error": {"message": text + "property 'name' is unsupported)]", "type": "invalid_request_error"}
                }
            strict = [i for i, spec in enumerate(body.get("tools") or []) if "strict" in (spec.get("function") or {})]
            if "gemini_strict" in quirks and strict:
                text = "\n".join(
                    f'Invalid JSON payload received. Unknown name "strict" at \'request.tools[0].function_declarations'
                    f"[{i}]': Cannot find field."
                    for i in strict
                )
                return 400, {"error": {"code": 400, "message": text, "status": "INVALID_ARGUMENT"}}
            if "fastapi_strict" in quirks and strict:
                loc = ["body", "tools", strict[0], "function", "strict"]
                return 422, {
                    "detail": [{"type": "extra_forbidden", "loc": loc, "msg": "Extra inputs are not permitted"}]
                }
            if "gemini_refs" in quirks:
                for i, spec in enumerate(body.get("tools") or []):
                    written = json.dumps(spec)
                    unknown = [key for key in ("$defs", "$ref", "const") if f'"{key}"' in written]
                    if unknown:
                        where = f"tools[0].function_declarations[{i}].parameters"
                        text = f'Invalid JSON payload received. Unknown name "{unknown[0]}" at {where!r}: '
                        return 400, {
                            "error": {"code": 400, "message": text + "Cannot find field.", "status": "INVALID_ARGUMENT"}
                        }
            for at, message in enumerate(body.get("messages") or []):
                if message.get("role") == "assistant" and message.get("tool_calls") and message["content"] is None:
                    if "null_text_422" in quirks:
                        loc = ["body", "messages", at, "content"]
                        return 422, {
                            "detail": [
                                {"type": "string_type", "loc": [*loc, "str"], "msg": "Input should be a valid string"},
                                {"type": "list_type", "loc": [*loc, "list"], "msg": "Input should be a valid list"},
                            ]
                        }
                    if "null_text_400" in quirks:
                        text = "Invalid value for 'content': expected a string, got null."
                        return 400, {"error": {"message": text, "type": "invalid_request_error", "param": None}}
            if "refuse_options_400" in quirks:
                for field in ("tool_choice", "parallel_tool_calls", "response_format", "stream_options"):
                    if field in body:
                        text = f"Unrecognized request argument supplied: {field}"
                        return 400, {"error": {"message": text, "type": "invalid_request_error", "param": None}}
            if "refuse_options" in quirks:
                for field in ("tool_choice", "parallel_tool_calls", "response_format", "stream_options"):
                    if field in body:
                        return 422, {
                            "detail": [
                                {
                                    "loc": ["body", field],
                                    "msg": "extra fields not permitted",
                                    "type": "value_error.extra",
                                }
                            ]
                        }
            if "reasoning" in quirks:
                for message in body.get("messages") or []:
                    if message.get("role") == "assistant" and message.get("tool_calls"):
                        if not message.get("reasoning_content"):
                            return 400, {
                                "error": {
                                    "message": "Missing `reasoning_content` field in the assistant "
                                    "message at message index 2.",
                                    "type": "invalid_request_error",
                                }
                            }
            return None

        def change(self, reply: dict[str, Any], n: int, stream: bool, body: dict[str, Any]) -> None:
            message = reply["choices"][0]["message"]
            if "no_usage" in quirks:
                reply.pop("usage", None)
            if "think" in quirks:
                opening = "<think>" if n % 2 else ""
                message["content"] = f"{opening}{THINKING}</think>\n\n" + (message.get("content") or "")
            if "reasoning" in quirks:
                message["reasoning_content"] = THINKING
            if "litellm_thinking" in quirks:
                message["reasoning_content"] = THINKING
                message["thinking_blocks"] = [{"type": "thinking", "thinking": THINKING, "signature": SIGNATURE}]
            if "groq_reasoning" in quirks:
                message["reasoning"] = THINKING
            for k, call in enumerate(message.get("tool_calls") or []):
                if "mistral_ids" in quirks:
                    call["id"] = hashlib.sha1(f"{n}:{k}".encode()).hexdigest()[:9]
                if "numeric_ids" in quirks:
                    call["id"] = int(hashlib.sha1(f"{n}:{k}".encode()).hexdigest()[:11], 16)
                if "object_args" in quirks and not stream:
                    call["function"]["arguments"] = json.loads(call["function"]["arguments"] or "{}")
                if "no_ids" in quirks and not stream:
                    call.pop("id", None)
            if "chinese" in quirks and message.get("content") and not message.get("tool_calls"):
                message["content"] = CHINESE
            if "extra_call" in quirks and message.get("tool_calls"):
                extra = extra_call(reply, body)
                if extra is not None:
                    message["tool_calls"].append(extra)
            if "hallucinate" in quirks and message.get("tool_calls") and n % 3 == 1:
                message["tool_calls"][0]["function"]["name"] = "get_order_status"
            if "functions_prefix" in quirks and n % 2 == 0:
                for call in message.get("tool_calls") or []:
                    call["function"]["name"] = "functions." + call["function"]["name"]
                    call.pop("type", None)
            if ("null_text_422" in quirks or "null_text_400" in quirks) and message.get("tool_calls"):
                message["content"] = None  # as OpenAI answers a call: the history then holds it so
            if "said_with_calls" in quirks and message.get("tool_calls"):
                message["content"] = "Let me look that up."
            if "other_model" in quirks:
                reply["model"] = f"{reply.get('model') or 'quirky'}-2026-01-01"
            if "usage_strings" in quirks and isinstance(reply.get("usage"), dict):
                reply["usage"] = {k: str(v) if isinstance(v, int) else v for k, v in reply["usage"].items()}
            if "function_call" in quirks and message.get("tool_calls"):
                reply["choices"][0]["finish_reason"] = "function_call"
            if "azure_filter" in quirks and not stream:
                reply["prompt_filter_results"] = PROMPT_FILTER
                reply["choices"][0]["content_filter_results"] = FILTER_RESULTS
            if "text_calls" in quirks and message.get("tool_calls"):
                message["content"] = (message.get("content") or "") + "".join(
                    f"<tool_call>\n{json.dumps(written_call(call), ensure_ascii=False)}\n</tool_call>"
                    for call in message.pop("tool_calls")
                )
                reply["choices"][0]["finish_reason"] = "stop"
            written_as = [quirk for quirk in ("fenced_calls", "pythonic_calls", "joined_calls") if quirk in quirks]
            if written_as and message.get("tool_calls"):
                written = [written_call(call) for call in message.pop("tool_calls")]
                said = message.get("content") or ""  # the block alone, after the thinking (`think`)
                thought = said[: said.find("</think>") + len("</think>\n\n")] if "</think>" in said else ""
                message["content"] = thought + WRITERS[written_as[0]](written)
                reply["choices"][0]["finish_reason"] = "stop"
            if not stream:
                litellm_fields(message, quirks)

    return Handler


def fenced(calls: list[dict[str, Any]]) -> str:
    """Calls as llama3.2 on Ollama writes them in its text (ollama/ollama#13519): a JSON code block of the
    call (or of the list of them), its arguments as `parameters`."""
    written = [{"name": call["name"], "parameters": call["arguments"]} for call in calls]
    return (
        "```json\n" + json.dumps(written[0] if len(written) == 1 else written, ensure_ascii=False, indent=2) + "\n```"
    )


def pythonic(calls: list[dict[str, Any]]) -> str:
    """Calls as Llama 3.2 and Llama 4 write them (vLLM's `pythonic` format): `[name(key=value, …), …]`."""
    return (
        "["
        + ", ".join(f"{c['name']}({', '.join(f'{k}={v!r}' for k, v in c['arguments'].items())})" for c in calls)
        + "]"
    )


def joined(calls: list[dict[str, Any]]) -> str:
    """Calls as Llama 3.x writes them with its JSON tool calling (vLLM's `llama3_json`, SGLang's `llama3`
    parsers): after `<|python_tag|>`, each `{"name": …, "parameters": {…}}`, joined by `; `, then `<|eom_id|>`."""
    written = [json.dumps({"name": c["name"], "parameters": c["arguments"]}, ensure_ascii=False) for c in calls]
    return "<|python_tag|>" + "; ".join(written) + "<|eom_id|>"


WRITERS = {"fenced_calls": fenced, "pythonic_calls": pythonic, "joined_calls": joined}


def written_call(call: dict[str, Any]) -> dict[str, Any]:
    """A call as a Hermes-format model writes it between `<tool_call>` tags: its name and arguments."""
    arguments = call["function"].get("arguments") or "{}"
    arguments = json.loads(arguments) if isinstance(arguments, str) else arguments
    return {"name": call["function"]["name"], "arguments": arguments}
