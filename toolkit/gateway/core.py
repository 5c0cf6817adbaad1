"""The fake keyword gateway's core: an OpenAI-compatible chat-completions endpoint as two
pure functions, so that the HTTP server and the in-process transport are thin shells.

`respond(request, config)` answers one parsed request with a `Reply`; `handle_http(method,
path, headers, body, config, fault, request_id)` adds the envelope: routing (`POST
/v1/chat/completions`, `GET /v1/models`, `GET /v1/models/{id}`, an id such as `org/model` too; HEAD where GET is; a 404 for a
near miss — no /v1, a trailing slash — names the route meant; a target in absolute form, `http://host/v1/…`, is its path), content type (415), size
(413, after a gzip or deflate body is undone), JSON (400; a number JSON cannot hold, `NaN` or `1e999`, is named with its parameter), headers (`x-request-id` from the shell's counter), faults. Bad input is
always a typed OpenAI-style error, never a 500. Same request → same bytes: ids come from a
hash of the request, `created` is fixed, `usage` is `estimate_tokens` (with OpenAI's
`prompt_tokens_details` / `completion_tokens_details`, all zero). `max_tokens`, `stop` and
`response_format` shape the reply (`toolkit.gateway.shape`), and no answer is longer than the
model's output limit (`GatewayConfig.max_output_tokens`: cut there, finish_reason "length"); `n` > 1 answers that many choices,
all the same turn (the rules are deterministic), each tool call with an id of its own.

Modes (`GatewayConfig.mode`, or per request the `X-Fake-Mode` header), as week 3's probe (section 1) tells them apart:
    A  real support     tool_calls with valid JSON arguments
    B  fake support     accepts `tools`, never calls; says it will look it up
    C  rejects tools    400 "unknown field: tools" (requests without tools answered normally)
    D  ignores tools    answers with a confident, invented status
    E  half support     tool_calls whose `arguments` is not valid JSON
Faults (`X-Fake-Fault` header, or `fault=`), chat route only:
    rate_limit   429 with Retry-After         server_error  500
    slow         answer after `delay_s`       truncate      stream without [DONE] / half a body

Leaves out: sockets and sleeping (`gateway_server`, `gateway_transport`), state such as a
fault schedule (`gateway_server.Gateway`), authentication (any API key is accepted).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time
from typing import Any
from urllib.parse import unquote

import orjson

from toolkit.chat.finite import first_non_finite
from toolkit.errors import ConfigurationError
from toolkit.gateway.bodytools import read_body
from toolkit.gateway.decide import Decision, content_text, decide, reply_text
from toolkit.gateway.digest import request_digest
from toolkit.gateway.encoding import decoded
from toolkit.gateway.rules import Rules, load_rules
from toolkit.gateway.shape import cut_calls, cut_to_tokens, formatted, stopped, token_limit
from toolkit.gateway.toolset import ToolSet, prepare
from toolkit.gateway.validate import RequestError, check_request
from toolkit.gateway.wire import (
    JSON_TYPE,
    SSE_TYPE,
    ChunkStream,
    Reply,
    Turn,
    completion_body,
    completion_chunks,
    dumps,
    error_reply,
    model_reply,
    models_reply,
    rate_limit_reply,
    server_error_reply,
    truncate_events,
)
from toolkit.tokens import estimate_tokens
from toolkit.unicode import cut

MODES = ("A", "B", "C", "D", "E")
FAULTS = ("rate_limit", "server_error", "slow", "truncate")
MODE_HEADER = "x-fake-mode"
FAULT_HEADER = "x-fake-fault"
CHAT_PATH = "/v1/chat/completions"
MODELS_PATH = "/v1/models"
MODEL_PREFIX = MODELS_PATH + "/"
REQUEST_ID_HEADER = "x-request-id"
FINGERPRINT = "fp_fake_keyword"


@dataclass(frozen=True)
class GatewayConfig:
    """How the fake gateway behaves; every field has a sensible default."""

    mode: str = "A"
    """One of `MODES`."""
    rules: Rules = field(default_factory=load_rules)
    """The keyword rules (default: `data/gateway_rules.toml`)."""
    model_name: str = "fake-keyword"
    """The model listed by `GET /v1/models` (any requested model name is accepted and echoed)."""
    retry_after_s: int = 1
    """The `Retry-After` header of the `rate_limit` fault, in seconds."""
    slow_delay_s: float = 5.0
    """How long the `slow` fault waits before answering."""
    max_body_bytes: int = 64 << 20
    """Larger request bodies get 413. 64 MiB holds what the loop may pass on in one round (up
    to `toolkit.loop.images.MAX_IMAGES` images of `MAX_IMAGE_BYTES` each, as base64 data URLs),
    which OpenAI accepts too (its limit is 50 MB of images a request)."""
    created: int | None = None
    """The fixed `created` timestamp of every response, in whole seconds: by default the midnight UTC of the rules'
    fixed today (`Rules.today`: `rules.FIXED_TODAY`, 2026-12-01T00:00:00Z, 1796083200), the day relative days
    ("tomorrow") are read against, so that one clock is shown; filled in when the config is made (never None
    after), never the wall clock."""
    delta_chars: int = 8
    """Characters per streamed content delta / argument fragment."""
    max_output_tokens: int = 32_768
    """The most tokens one answer holds (its text, or its tool calls), as a model's output limit
    (gpt-4.1's): a longer one (a structured answer or arguments of huge `minLength`s) is cut there,
    finish_reason "length", as a lower `max_tokens` cuts it."""

    def __post_init__(self) -> None:
        if self.created is None:
            midnight = datetime.combine(self.rules.today, time(), tzinfo=UTC)
            object.__setattr__(self, "created", int(midnight.timestamp()))
        if self.mode not in MODES:
            raise ConfigurationError(f"GatewayConfig: unknown mode {self.mode!r}; use one of {', '.join(MODES)}")
        for name, least in (
            ("retry_after_s", 0),
            ("max_body_bytes", 1),
            ("delta_chars", 1),
            ("created", 0),
            ("max_output_tokens", 1),
        ):
            value = getattr(self, name)
            if type(value) is not int or value < least:
                raise ConfigurationError(f"GatewayConfig: {name}={value!r}; use a whole number of at least {least}")
        if not (isinstance(self.slow_delay_s, (int, float)) and 0 <= self.slow_delay_s < math.inf):
            raise ConfigurationError(
                f"GatewayConfig: slow_delay_s={self.slow_delay_s!r}; use a finite number of seconds, 0 or more"
            )

    @property
    def stamp(self) -> int:
        """`created` as filled in by `__post_init__` (a whole number of seconds, never None)."""
        return self.created if self.created is not None else 0


def respond(request: Any, config: GatewayConfig) -> Reply:
    """The gateway's answer to one request body parsed from JSON (no envelope, no faults); its
    `tools` list is read once per distinct list (`toolkit.gateway.toolset`)."""
    return _respond(request, config, prepare(request.get("tools")) if type(request) is dict else None)


def _respond(request: Any, config: GatewayConfig, tools: ToolSet | None) -> Reply:
    """`respond`, given the request's `tools` prepared (`toolkit.gateway.toolset.prepare`)."""
    try:
        if config.mode == "C":
            _reject_tool_fields(request)
        check_request(request, tools)
    except RequestError as exc:
        return error_reply(exc.status, exc.message, param=exc.param, code=exc.code)
    except RecursionError:  # a check that met a value deeper than Python's recursion (orjson took 1,024 levels)
        return _too_deep()
    stream = bool(request.get("stream"))
    include_usage = stream and bool((request.get("stream_options") or {}).get("include_usage"))
    try:  # a stream without usage sends no token counts: nothing is counted
        digest, prompt = _read_prompt(request, config.mode, tools, count=include_usage or not stream)
        turn = _turn(request, digest, prompt, decide(request, config.rules, tools), config)
    except RecursionError:  # parsed fine, but far too deep to be a real request
        return _too_deep()
    n = request.get("n") or 1
    if n > 1:  # rare: each choice the same turn (the rules are deterministic), its calls with their own ids
        return _choices(turn, n, stream, include_usage, config.delta_chars)
    if stream:
        events = ChunkStream(turn, include_usage=include_usage, piece=config.delta_chars)
        return Reply(200, {"content-type": SSE_TYPE, "cache-control": "no-cache"}, events=events)
    return Reply(200, {"content-type": JSON_TYPE}, body=completion_body(turn))


def _too_deep() -> Reply:
    return error_reply(400, TOO_DEEP, code="invalid_value")


TOO_DEEP = "The request body is nested too deeply."


def _choices(turn: Turn, n: int, stream: bool, include_usage: bool, piece: int) -> Reply:
    """`n` choices of `turn`, numbered 0 to n - 1 (completion tokens counted for each)."""
    turns = [turn, *(_renamed(turn, c) for c in range(1, n))]
    usage = _n_usage(turn.usage, n)
    if stream:
        events: list[dict[str, Any]] = []
        for c, each in enumerate(turns):
            for event in completion_chunks(each, include_usage=include_usage, piece=piece):
                if event["choices"]:
                    event["choices"] = [{**event["choices"][0], "index": c}]
                    events.append(event)
        if include_usage:
            events.append({**turn._envelope("chat.completion.chunk"), "choices": [], "usage": usage})
        return Reply(200, {"content-type": SSE_TYPE, "cache-control": "no-cache"}, events=events)
    body = completion_body(turn)
    body["choices"] = [{**completion_body(each)["choices"][0], "index": c} for c, each in enumerate(turns)]
    body["usage"] = usage
    return Reply(200, {"content-type": JSON_TYPE}, body=body)


def _renamed(turn: Turn, choice: int) -> Turn:
    """`turn` as choice number `choice`: its tool calls with ids of their own."""
    calls = tuple({**call, "id": f"call_{_short(turn.id, f'{choice}:{i}')}"} for i, call in enumerate(turn.tool_calls))
    return replace(turn, tool_calls=calls)


def _n_usage(usage: dict[str, Any], n: int) -> dict[str, Any]:
    if not usage:
        return usage
    completion = usage["completion_tokens"] * n
    return {**usage, "completion_tokens": completion, "total_tokens": usage["prompt_tokens"] + completion}


def _reject_tool_fields(request: Any) -> None:
    """Mode C: a gateway that has never heard of tools."""
    for key in ("tools", "tool_choice"):
        if isinstance(request, dict) and request.get(key) is not None:
            raise RequestError(f"unknown field: {key}", param=key, code="unknown_field")


def _turn(request: dict, digest: str, prompt: int | None, decision: Decision, config: GatewayConfig) -> Turn:
    """Apply the mode to the rules' decision and dress it for the wire (`prompt` None: the
    tokens were not counted, as no usage is sent; the turn's `usage` is then empty)."""
    content: str | None = decision.text
    calls: tuple[dict[str, Any], ...] = ()
    if decision.calls and config.mode in ("B", "D"):
        key = "fake_support" if config.mode == "B" else "invented_status"
        content = reply_text(config.rules, key, decision.order_id)
    elif decision.calls:
        encode = _broken_json if config.mode == "E" else _json_arguments
        calls = tuple(
            {
                "id": f"call_{_short(digest, i)}",
                "type": "function",
                "function": {"name": c.name, "arguments": encode(c.arguments)},
            }
            for i, c in enumerate(decision.calls)
        )
    content, calls, finish = _shaped(request, content, calls, config)
    return Turn(
        id=f"chatcmpl-{digest[:24]}",
        model=request["model"],
        created=config.stamp,
        content=content,
        tool_calls=calls,
        usage={} if prompt is None else _usage(prompt, content, calls),
        fingerprint=FINGERPRINT,
        finish=finish,
    )


def _usage(prompt: int, content: str | None, calls: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    completion = _tokens(content or "")
    for c in calls:
        completion += _tokens(c["function"]["name"] + c["function"]["arguments"])
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


def _shaped(
    request: dict, content: str | None, calls: tuple[dict[str, Any], ...], config: GatewayConfig
) -> tuple[str | None, tuple[dict[str, Any], ...], str | None]:
    """`response_format`, `stop` and the token limit (the request's, at most the model's own
    `max_output_tokens`) applied (see `toolkit.gateway.shape`); the finish reason when it is not the
    usual one ("length")."""
    most = config.max_output_tokens
    if _SHAPING.isdisjoint(request.keys()) and _chars(content, calls) <= most:  # the common case: nothing
        return content, calls, None  # to shape (a text has at most as many tokens as characters)
    if content is not None and not calls:
        if request.get("response_format") is not None:
            content = formatted(content, request, _said(request["messages"]), config.rules)
        if request.get("stop") is not None:
            content = stopped(content, request["stop"])
    asked = token_limit(request)
    limit = most if asked is None else min(asked, most)
    if _chars(content, calls) <= limit:
        return content, calls, None
    cut = False
    if content is not None and _tokens(content) > limit:
        content, cut = cut_to_tokens(content, limit), True
    if calls:
        calls, cut_call = cut_calls(calls, limit)
        cut = cut or cut_call
    return content, calls, "length" if cut else None


_SHAPING = frozenset(("response_format", "stop", "max_tokens", "max_completion_tokens"))


def _chars(content: str | None, calls: tuple[dict[str, Any], ...]) -> int:
    """How many characters an answer has (its text, each call's name and arguments): at least its tokens."""
    total = len(content) if content else 0
    for call in calls:  # a loop, not a generator: one reply at a time, every reply
        function = call["function"]
        total += len(function["name"]) + len(function["arguments"])
    return total


def _said(messages: list[dict]) -> str:
    """The last user message and the tool results after it: what a structured answer is filled from."""
    said: list[str] = []
    for message in reversed(messages):
        if message["role"] in ("user", "tool"):
            said.append(content_text(message.get("content")))
        if message["role"] == "user":
            break
    return "\n".join(reversed(said))


def _json_arguments(arguments: dict[str, Any]) -> str:
    return _compact(arguments)


def _broken_json(arguments: dict[str, Any]) -> str:
    """Mode E: `{orderId: SN202610200001}` — keys and values unquoted (empty: `""`)."""
    if not arguments:
        return ""
    return "{" + ", ".join(f"{key}: {value}" for key, value in arguments.items()) + "}"


def _read_prompt(
    request: dict, mode: str, prepared: ToolSet | None = None, count: bool = True
) -> tuple[str, int | None]:
    """A hash of the request (ids are made from it; `stream` left out, so a conversation gets
    the same ids streamed or not; the tool list not hashed again: `toolkit.gateway.digest`),
    and its prompt tokens (None unless `count`): `estimate_tokens` of every message
    text and tool call, plus the tools as compact JSON (counted once per tool list: `prepared`)."""
    said = request
    if not _DELIVERY.isdisjoint(request):
        said = request.copy()  # in the same order, without the delivery fields
        for key in _DELIVERY:
            said.pop(key, None)
    digest = request_digest(mode, said, prepared.digest_state if prepared is not None else None)
    if not count:
        return digest, None
    tools = request.get("tools")
    tokens = (prepared.tokens if prepared is not None else _tokens(_compact(tools))) if tools else 0
    for message in request["messages"]:
        content = message.get("content")
        tokens += _tokens(content if type(content) is str else content_text(content))
        if message["role"] == "assistant" and message.get("tool_calls"):
            for call in message["tool_calls"]:
                tokens += _tokens(call["function"]["name"] + call["function"]["arguments"])
    return digest, tokens


_DELIVERY = frozenset(("stream", "stream_options"))


def _tokens(text: str) -> int:
    return _counted(text) if len(text) <= 16_384 else estimate_tokens(text)


# The same texts (tools, system prompt, history) come back every round: count them once.
_counted = functools.lru_cache(maxsize=512)(estimate_tokens)


def _compact(value: Any) -> str:
    return dumps(value).decode("utf-8")


def _short(digest: str, salt: object) -> str:
    return hashlib.sha256(f"{digest}:{salt}".encode()).hexdigest()[:24]


# --- the HTTP envelope -----------------------------------------------------------------------


def handle_http(
    method: str,
    path: str,
    headers: Mapping[str, str],
    body: bytes,
    config: GatewayConfig,
    fault: str | None = None,
    request_id: str | None = None,
) -> Reply:
    """One HTTP exchange: route, check the envelope, apply mode and fault, `respond`.

    `fault` (a shell's scheduled fault) wins over the `X-Fake-Fault` header; `request_id`
    (the shell's counter) goes out as the `x-request-id` header."""
    reply = _handle(method, path, headers, body, config, fault)
    if request_id is not None:
        reply.headers[REQUEST_ID_HEADER] = request_id  # every Reply is built with its own dict
    return reply


def _handle(
    method: str, path: str, headers: Mapping[str, str], body: bytes, config: GatewayConfig, fault: str | None
) -> Reply:
    headers = {k.lower(): v for k, v in headers.items()}
    path = request_path(path)
    try:
        _route(method.upper(), path)
        if path == MODELS_PATH:
            return models_reply(config.model_name, config.stamp)
        if path.startswith(MODEL_PREFIX):
            return model_reply(unquote(path[len(MODEL_PREFIX) :]), config.model_name, config.stamp)
        config, fault = _overrides(headers, config, fault)
        if fault == "rate_limit":
            return rate_limit_reply(config.model_name, config.retry_after_s)
        if fault == "server_error":
            return server_error_reply()
        request, tools = _parse(headers, body, config)
    except RequestError as exc:
        return error_reply(
            exc.status,
            exc.message,
            param=exc.param,
            code=exc.code,
            headers={"allow": "POST" if path == CHAT_PATH else "GET, HEAD"} if exc.status == 405 else None,
        )
    return _apply_fault(_respond(request, config, tools), fault, config)


_ALLOWED = {CHAT_PATH: "POST", MODELS_PATH: "GET"}


def request_path(target: str) -> str:
    """The path a request target names, without its query: `/v1/models` of `/v1/models?x=1`, and of
    the absolute form `http://host:port/v1/models` (a proxy's, which RFC 9112 3.2.2 says a server must
    take too; `/` when it names no path)."""
    path = target.partition("?")[0]
    if path[:1] == "/":  # the origin form, every client's but a proxy's
        return path
    scheme, sep, rest = path.partition("://")
    if sep and scheme.lower() in ("http", "https"):
        return "/" + rest.partition("/")[2]
    return path


def _route(method: str, path: str) -> None:
    allowed = _ALLOWED.get(path)
    if allowed is None and path.startswith(MODEL_PREFIX):
        allowed = "GET" if path[len(MODEL_PREFIX) :].strip("/") else None  # an id may hold "/": org/model
    if allowed is None:
        raise RequestError(
            f"Unknown request URL: {method} {path}. Please check the URL for typos.{_meant(path)}",
            code="unknown_url",
            status=404,
        )
    if method != allowed and not (method == "HEAD" and allowed == "GET"):  # HEAD: GET's headers, no body
        raise RequestError(
            f"Method {method} not allowed for {path}; use {allowed}.", code="method_not_allowed", status=405
        )


def _meant(path: str) -> str:
    """A hint when `path` ends in one of the routes (a base URL without /v1, or with the route
    already in it, or a trailing slash), else ""."""
    tail = path.rstrip("/")
    for route, method in _ALLOWED.items():
        if tail.endswith(route[len("/v1") :]):
            return f" Did you mean {method} {route}? A client's base URL ends in /v1 (the client adds {route[3:]})."
    return ""


def _overrides(headers: dict[str, str], config: GatewayConfig, fault: str | None) -> tuple[GatewayConfig, str | None]:
    if MODE_HEADER not in headers and FAULT_HEADER not in headers:  # the common case
        return config, fault
    mode = as_sent(headers.get(MODE_HEADER, "")).strip().upper()
    if mode and mode not in MODES:
        raise RequestError(
            f"Unknown {MODE_HEADER} {mode!r}; use one of {', '.join(MODES)}.",
            param=MODE_HEADER,
            code="invalid_header",
        )
    fault = fault or as_sent(headers.get(FAULT_HEADER, "")).strip().lower() or None
    if fault is not None and fault not in FAULTS:
        raise RequestError(
            f"Unknown {FAULT_HEADER} {fault!r}; use one of {', '.join(FAULTS)}.",
            param=FAULT_HEADER,
            code="invalid_header",
        )
    return (replace(config, mode=mode) if mode and mode != config.mode else config), fault


def as_sent(value: str) -> str:
    """A header's value as the client wrote it, to quote in an error: the HTTP server reads a header's
    bytes as latin-1 (each byte one character), so UTF-8 bytes (`é`, a zero-width space pasted along)
    are read again as UTF-8; bytes that are no UTF-8 (and a value a transport gave as text) stay as they are."""
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return value


def _parse(headers: dict[str, str], body: bytes, config: GatewayConfig) -> tuple[Any, ToolSet | None]:
    """The body parsed, and its `tools` prepared (a list met before not parsed again:
    `toolkit.gateway.bodytools`)."""
    media = headers.get("content-type", "")
    if media != JSON_TYPE:  # else the common case, exactly
        media = media.split(";", 1)[0].strip().lower()
    if media != JSON_TYPE:
        raise RequestError(
            f"Unsupported content type {as_sent(media) or '(none)'!r}; send '{JSON_TYPE}'.",
            code="unsupported_media_type",
            status=415,
        )
    if len(body) > config.max_body_bytes:
        _within(body, config)
    if "content-encoding" in headers:  # else the common case: sent as it is
        body = decoded(body, headers["content-encoding"], config.max_body_bytes)
        _within(body, config)
    try:
        return read_body(body)  # orjson's: strict, UTF-8 only, no NaN, no lone surrogates
    except orjson.JSONDecodeError:
        raise unparsable(body, headers.get("content-type", "")) from None


def _within(body: bytes, config: GatewayConfig) -> None:
    if len(body) > config.max_body_bytes:
        raise RequestError(
            f"The request body is larger than {config.max_body_bytes} bytes.", code="request_too_large", status=413
        )


CANNOT_PARSE = "We could not parse the JSON body of your request"
MAX_NESTING = 1024
"""orjson's limit: a body with arrays and objects nested deeper is refused."""


def _nested_past(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest in `value` more than `limit` levels deep (`[]` is one level),
    read level by level, without recursion."""
    level, depth = [value], 0
    while True:
        containers = [v for v in level if isinstance(v, (list, dict))]
        if not containers:
            return False
        depth += 1
        if depth > limit:
            return True
        level = [item for v in containers for item in (v.values() if isinstance(v, dict) else v)]


def _invalid(why: str) -> RequestError:
    return RequestError(f"{CANNOT_PARSE}: {why}", code="invalid_json")


class _NonFinite(float):
    """A number JSON cannot hold, as the body wrote it (`1e999`, `NaN`, `-Infinity`)."""

    literal: str

    def __new__(cls, literal: str) -> _NonFinite:
        number = super().__new__(cls, literal.replace("Infinity", "inf"))
        number.literal = literal
        return number


def _finite_or_marked(literal: str) -> float:
    number = float(literal)
    return number if math.isfinite(number) else _NonFinite(literal)


def _int_or_marked(literal: str) -> float:
    """An integer too long for a double is refused by orjson as infinity, like `1e999`."""
    return int(literal) if len(literal) < 300 else _finite_or_marked(literal)


def unparsable(body: bytes, content_type: str = "") -> RequestError:
    """Why orjson refused `body`, as the 400 to answer. Runs on the error path only: a body
    whose syntax is JSON but holds NaN, Infinity or a number past a double's range (`1e999`)
    is named with the parameter holding it; a syntax error is told with its line and column (the
    standard library's words), a byte order mark and a nesting past orjson's limit as such; a body
    in UTF-16 or UTF-32 (`_other_encoding`), or not UTF-8 under a `content_type` naming another
    charset, as such; other bytes that are no UTF-8, or a lone surrogate, keep the plain message."""
    other = _other_encoding(body)
    if other is not None:
        return _invalid(f"{other}, and {_UTF8_ONLY}")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        charset = _charset(content_type)
        if charset is not None and charset.lower().replace("-", "") != "utf8":
            return _invalid(
                f"it is not valid UTF-8: its Content-Type says charset={cut(charset, 40)}, and {_UTF8_ONLY}"
            )
        return _invalid("it is not valid UTF-8 JSON.")
    if text.startswith("\ufeff"):
        return _invalid("it starts with a byte order mark (BOM), which JSON does not allow. Send it without.")
    try:
        value = json.loads(text, parse_constant=_NonFinite, parse_float=_finite_or_marked, parse_int=_int_or_marked)
    except RecursionError:
        return _invalid(f"it is nested too deeply: more than {MAX_NESTING} levels of arrays and objects.")
    except json.JSONDecodeError as exc:
        return _invalid(f"{exc.msg.removesuffix(' at')} at line {exc.lineno}, column {exc.colno}.")  # "starting at"
    except ValueError:
        value = None
    if _nested_past(value, MAX_NESTING):  # Python 3.12's parser reads deeper than 3.11's, and than orjson
        return _invalid(f"it is nested too deeply: more than {MAX_NESTING} levels of arrays and objects.")
    path, number = first_non_finite(value) or ([], 0.0)
    if not isinstance(number, _NonFinite):
        return _invalid("it is not valid UTF-8 JSON.")
    param = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path).lstrip(".") or None
    where = f"'{param}'" if param else "the body"
    why = "JSON does not allow" if number.literal in ("NaN", "Infinity", "-Infinity") else "overflows to infinity"
    shown = (
        number.literal if len(number.literal) <= 40 else f"{number.literal[:20]}… ({len(number.literal)} characters)"
    )
    return RequestError(
        f"{CANNOT_PARSE}: {where} is {shown}, which {why}. Send a finite number.",
        param=param,
        code="invalid_json",
    )


_UTF8_ONLY = "JSON is read as UTF-8 only. Send the body as UTF-8."
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)
_ZEROS: dict[tuple[bool, ...], str] = {
    (True, True, True, False): "UTF-32",
    (False, True, True, True): "UTF-32",
    (True, False, True, False): "UTF-16",
    (False, True, False, True): "UTF-16",
}
"""Which of a body's first four bytes are zero → its encoding: RFC 4627's way to tell them, since JSON
starts with two ASCII characters (UTF-8 JSON starts with no zero byte)."""


def _other_encoding(body: bytes) -> str | None:
    """What `body` is, when it is JSON in UTF-16 or UTF-32 (PowerShell and .NET write UTF-16), else None."""
    for bom, name in _BOMS:
        if body.startswith(bom):
            return f"it is {name} (it starts with {name}'s byte order mark)"
    zeros: tuple[bool, ...] = tuple(byte == 0 for byte in body[:4])
    guess = _ZEROS.get(zeros)
    return f"it is {guess} (the zero bytes among its first four say so)" if guess else None


def _charset(content_type: str) -> str | None:
    """The `charset` parameter of a Content-Type header (`application/json; charset="latin-1"`), or None."""
    for parameter in content_type.split(";")[1:]:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"') or None
    return None


def _apply_fault(reply: Reply, fault: str | None, config: GatewayConfig) -> Reply:
    if fault == "slow":
        return replace(reply, delay_s=config.slow_delay_s)
    if fault == "truncate" and reply.status == 200:
        events = truncate_events(list(reply.events)) if reply.events is not None else None
        return replace(reply, events=events, truncated=True)
    return reply
