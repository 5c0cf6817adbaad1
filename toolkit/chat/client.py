"""The chat-model client: one real implementation over httpx, for any OpenAI-compatible gateway.

`ChatClient.chat()` sends one chat-completions request and returns a `ChatResponse`;
`ChatClient.stream()` yields `TextDelta` / `ToolCallDelta` events and ends with `StreamDone`.
Failures are triaged three ways (see `toolkit.errors`):

    transient   timeout, dropped connection,           → retried with exponential backoff,
                408, 409, 429, 498 (Groq: at            honouring Retry-After, then raised
                capacity), 424 (TGI: its server
                failed while generating), 5xx;
                a 4xx refusing
                the tool call the model wrote
                (Groq's `failed_generation`)
    caller      any other 4xx; a 402, or a 429 that    → raised at once, never retried
                says the account is out of credit;       (`OutOfCreditError`, a hint on billing)
                a proxy refusing an https gateway's
                tunnel (407, 403: `proxy_refusal`);
                tools refused by a server started
                without an option (llama.cpp's 500
                "requires --jinja flag")

A 400 (or a FastAPI server's 422) naming a field the client may leave out without changing what is
asked — `stream_options`, `tool_choice: "auto"` — is asked again at once without it, and that field
is not sent to the gateway again (`_without_refused`); so is a tool-schema keyword a relay refuses
(`additionalProperties`, which the package checks itself: `toolkit.chat.schema_keywords`). A
`tool_choice` in a form the gateway refuses by its value (a named function, "required", "none") goes
again at once in a form that asks the same, and so do the later ones (`toolkit.chat.forced_choice`). A call
not streamed that a gateway refuses until its `enable_thinking` is false (DashScope serving Qwen3's
open models) is asked again with it false, and so are the later ones (`thinking_off_unstreamed`).

A response's own `x-should-retry` header decides first, as OpenAI's SDKs read it: `false` on a 5xx or
a 429 is not retried (`NO_RETRY_HINT`), `true` on another 4xx is.

408 (the gateway timed out waiting) and 409 (a conflict; OpenAI uses it for a lock that timed
out) are retried as the official OpenAI SDKs retry them. A 429 that says the account has no
credit or quota left (`"code": "insufficient_quota"`, "余额不足") is no rate limit: waiting cannot
help, so it is not retried (`toolkit.chat.credit` tells them apart, by the error's fields first). The wait the server asks for is read
from `retry-after-ms` (OpenAI-compatible gateways) or `Retry-After` (seconds, or an HTTP date,
measured against the response's own `Date`). A wait longer than `RetryPolicy.max_retry_after_s`
is not shortened: the error is raised at once, carrying `retry_after`, so the caller decides (so is,
with no cap, one longer than `LONGEST_SLEEP_S`, which `time.sleep` cannot count).
    bad body    200 but unusable                       → raised at once, naming what was wrong
                (not JSON, no choices, an empty reply:
                no text, no tool calls, no refusal)

An empty reply names its `finish_reason` and the likely fix ("length": raise max_tokens). A 200 that
is a web page (a proxy's sign-in page, a web UI) is named by its title (`toolkit.chat.pages`), to
`chat()` and `stream()` alike, with what to check (`PAGE_HINT`). A 200
that reports an error instead of a completion (OpenRouter and other proxies: a JSON body, an
`error` on the choice beside `finish_reason: "error"` and the text so far, or a `data: {"error": …}`
event mid-stream) is triaged by what the error names: an overload or a rate
limit (`"code": 502`, `"rate_limit_exceeded"`, `"type": "server_error"`) is transient and retried
like that status — a stream only while nothing has been yielded yet —, anything else is a bad body.

The API is synchronous (httpx.Client), so it also works inside Jupyter's running event loop.
Every exchange is kept in `exchanges` so a notebook can show the raw HTTP (secrets and paths
scrubbed by `toolkit.tools.redact.scrub`). The key goes in `Authorization: Bearer` (for an Azure
host in `api-key` too: `auth_headers`) — unless the base URL carries user info
(`https://alice:pw@proxy/v1`, a gateway behind a password): httpx then sends `Authorization:
Basic <user:password>` in its place, as curl does, and the key is not sent (but in Azure's
`api-key`); a 401 or 403 then says so (`URL_AUTH_HINT`) instead of blaming LLM_API_KEY. The API key (and
any credentials in the base URL) never appear in an exchange, an error text or `describe()`,
even when the gateway echoes the key back (`toolkit.chat.masking`); nor on an error's exception
chain (the httpx exception kept as `__cause__` carries a copy of its request with the key
masked); nor in the messages sent to the model, should a tool's result or the learner quote it
(keys of 16 characters or more); nor, those keys, in a reply the gateway wrote them into, whole or
streamed, even split over two chunks (`toolkit.chat.stream_scrub`).

A gateway on this machine (`127.0.0.1`, `localhost`, `[::1]`) is asked directly, whatever
`HTTP_PROXY` / `ALL_PROXY` say (`toolkit.chat.proxies`): a company proxy would get the key in clear
and could not reach it; any other host follows httpx's proxy rules.

A body is read in the encoding its bytes show before the `charset` its label claims
(`toolkit.chat.charset`): a relay that labels UTF-8 JSON `iso-8859-1` or `gbk` is read right, and
an event stream is always UTF-8.

Errors read as one line a learner can act on: an unreachable gateway names its URL and says
to check `LLM_BASE_URL` or unset the `LLM_*` variables (an answer that broke off after it began
says the gateway answered, instead); a timeout names which timeout ran out
and after how long, mid-stream too ("stream ended before [DONE]: the read timed out
(ReadTimeout) after 30.0s"); a gateway that answers a stream request with plain JSON says so
(`NotAStreamError`), instead of looking like a cut stream — unless that JSON reports an error
(a proxy's 200 with an error body): then it is worded and triaged as on `chat()`. The other way round, a gateway that
answers `chat()` with an event stream (a relay that always streams) gets its events assembled.

A reply is read up to `ChatClient.max_reply_bytes` (`MAX_REPLY_BYTES`, 64 MiB: OpenAI's longest
completions, 128k tokens, stream in about 32 MB of chunks; an audio reply's base64 fits too), counted
as the bytes arrive, inflated (`capped`: a gzip, deflate, br or zstd body is undone step by step, so
1 MB of gzip that inflates to 1 GB is stopped at the bound, not inflated whole): a gateway that sends more
(a 200 MB body, an error as long, an event stream that never ends) gets a `ReplyTooLongError` (a
`BadResponseError`) there, and its exchange records that the rest was not read.

Leaves out: `n > 1`, logprobs, a bound on a reply's time (a stream that sends a keep-alive every
minute for ever is stopped only by its bytes), and retrying a stream once its first byte has arrived (a stream that breaks is truncated, and a truncated stream is never executed).
"""

from __future__ import annotations

import codecs
import email.utils
import json
import math
import numbers
import re
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NoReturn

import httpx
from pydantic import ValidationError

from toolkit.chat.added_fields import refused_addition, without_additions
from toolkit.chat.call_id_shape import refuses_ids, shaped_ids
from toolkit.chat.charset import (
    ACCEPTED,
    OLD_BROTLI,
    PACKAGES,
    READ_AT_MOST,
    body_encoding,
    inflated,
    left_undone,
    undone,
)
from toolkit.chat.chat_template import TEMPLATE_HINT, refused_roles
from toolkit.chat.context_limit import CONTEXT_HINT, over_context
from toolkit.chat.credit import credit_fix, out_of_credit
from toolkit.chat.empty_text import refuses_empty_text, refuses_null_text, with_empty_text, with_null_text
from toolkit.chat.error_body import error_object, message_of, parsed
from toolkit.chat.finite import first_non_finite
from toolkit.chat.forced_choice import CANNOT_FORCE, ForcedChoice, put
from toolkit.chat.json_arguments import refuses_unparsed, with_json_arguments
from toolkit.chat.litellm_errors import unwrapped
from toolkit.chat.masking import (
    HTTPX_LOGGERS,
    mask_json,
    mask_key,
    mask_keys,
    mask_tokens,
    mask_url,
    mask_urls_in_logs,
    url_secrets,
)
from toolkit.chat.messages import (
    KEPT_ASSISTANT_FIELDS,
    AssistantMessage,
    ChatResponse,
    Message,
    TokenUsage,
    UnsupportedCallError,
    given_conversation,
    misfit_error,
    to_openai,
)
from toolkit.chat.model import TOOL_CHOICES, ToolChoice, is_tool_choice
from toolkit.chat.model_memory import MEMORY_HINT, too_big
from toolkit.chat.native_shapes import NativeReplyError, native_shape
from toolkit.chat.not_compressed import (
    HEAD_BYTES,
    OTHER_HINT,
    NotCompressedError,
    OtherCompressionError,
    compressed_as,
    plain_kind,
)
from toolkit.chat.not_compressed import HINT as NOT_COMPRESSED_HINT
from toolkit.chat.other_api import NOT_CHAT_HINT, RESPONSES_HINT, not_chat, responses_only
from toolkit.chat.pages import cdn_code_text, page_text
from toolkit.chat.proxies import direct_mounts
from toolkit.chat.rate_limits import relayed_reset, reset_wait, said_delay, worded_wait
from toolkit.chat.reasoning_fields import asked_field, refused_field, with_fields, without_fields
from toolkit.chat.schema_keywords import refused_keyword, without_keywords
from toolkit.chat.sources import sources_of
from toolkit.chat.sse import (
    MALFORMED_CALL,
    StreamAssembler,
    StreamDone,
    StreamEvent,
    choice_zero,
    error_of,
    failed_generation,
    listed_error,
    no_choice_zero,
    not_cut,
    not_empty,
    plainly_error,
    read_json,
    relayed,
    reported_error,
    said_instead,
    sse_lines,
    stated_reason,
)
from toolkit.chat.stream_scrub import HeldEcho, scrub_event_stream, unechoed_response
from toolkit.chat.text_calls import may_hold_calls, offered_names, written_calls
from toolkit.chat.thought_signatures import refuses_unsigned, signed
from toolkit.chat.tool_refusal import names_tools, refuses_tools
from toolkit.chat.unstreamed_tools import STREAM_TOOLS_HINT, events_of, refuses_streamed_tools
from toolkit.errors import (
    BadResponseError,
    CallerError,
    ConfigurationError,
    ModelCallError,
    NotAStreamError,
    OutOfCreditError,
    TransientError,
)
from toolkit.tools import redact
from toolkit.unicode import cut, well_formed

mask_urls_in_logs(*HTTPX_LOGGERS)  # httpx logs each request's URL at INFO (`?api-key=` too), httpcore headers


MAX_REPLY_BYTES = 64 << 20
"""How many bytes of one reply `ChatClient` reads at most (`ChatClient.max_reply_bytes`)."""
TOO_LONG_HINT = (
    "The gateway, or something between it and you, sent far more than a reply: check that LLM_BASE_URL is the "
    "chat API's base URL; if its replies really are this long, raise ChatClient.max_reply_bytes."
)


class ReplyTooLongError(BadResponseError):
    """A reply that went on past `ChatClient.max_reply_bytes` (`too_long`): the gateway's fault, as
    any bad body is."""


class _Capped(httpx.SyncByteStream):
    """`inner`'s bytes, with the encodings `names` undone (`toolkit.chat.charset.inflated`), until
    more than `limit` of them have come (then `too_long`): the bound holds on what the reply inflates to."""

    def __init__(self, inner: httpx.SyncByteStream, limit: int, status: int, names: list[str]) -> None:
        self.inner, self.limit, self.status, self.names = inner, limit, status, names

    def __iter__(self) -> Iterator[bytes]:
        size, head, raw = 0, bytearray(), iter(self.inner)
        try:
            for piece in inflated(_noted(raw, head), self.names):
                size += len(piece)
                if size > self.limit:
                    raise too_long(self.limit, self.status)
                yield piece
        except httpx.DecodingError as exc:  # nothing inflated yet: the bytes may be plainly uncompressed
            if size or isinstance(exc, NotCompressedError) or str(exc) == OLD_BROTLI:  # the package's, not the bytes'
                raise
            whole = bytes(head) + _more(raw, HEAD_BYTES - len(head))
            kind = plain_kind(whole)
            if kind is not None:
                raise NotCompressedError(self.names, kind) from exc
            other = compressed_as(whole, self.names)
            if other is None:
                raise
            raise OtherCompressionError(self.names, other) from exc

    def close(self) -> None:
        self.inner.close()


def _noted(raw: Iterator[bytes], head: bytearray) -> Iterator[bytes]:
    """`raw`'s bytes, the first `HEAD_BYTES` of them kept in `head` (what `plain_kind` reads)."""
    for piece in raw:
        if len(head) < HEAD_BYTES:
            head += piece[: HEAD_BYTES - len(head)]
        yield piece


def _raw_head(response: httpx.Response) -> bytes:
    """The first `HEAD_BYTES` of an unread `response` as they came (b"" when they do not come)."""
    try:
        return _head(response.iter_raw(), HEAD_BYTES)
    except httpx.HTTPError:
        return b""


def _more(raw: Iterator[bytes], wanted: int) -> bytes:
    """Up to `wanted` more bytes of `raw` (fewer when it ends or breaks off)."""
    more = b""
    try:
        while len(more) < wanted:
            more += next(raw)
    except (StopIteration, httpx.TransportError):
        pass
    return more[:wanted]


_REFUSAL_BYTES = 65_536
"""How much of a refusal's body `ChatClient.model_refused` quotes from (an error body is short; a page may not be)."""
_MODELS_BYTES = 8 << 20
"""How much of `GET …/models` the checks read (OpenRouter's list of every model is about 1 MB)."""


def _refuses_key(status: int | None, body: str) -> bool:
    """Whether an answer refuses the key: a 401, or a 400 saying the key is not valid (Gemini's)."""
    return status == 401 or (status == 400 and bool(_BAD_KEY.search(error_message(body))))


def _model_ids(status: int | None, body: str) -> list[str]:
    """The model ids of a `GET …/models` answer (OpenAI's `{"data": [{"id": …}]}`, or Together's bare
    list of the same entries), or [] when it is none."""
    try:
        data = json.loads(body) if status == 200 else None
    except (ValueError, RecursionError):
        return []
    if isinstance(data, dict):
        data = data.get("data")
    if not isinstance(data, list):
        return []
    return [m["id"] for m in data if isinstance(m, dict) and isinstance(m.get("id"), str)]


def _head(chunks: Iterator[bytes], limit: int) -> bytes:
    """The first `limit` bytes of `chunks`, the rest left unread."""
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= limit:
            break
    return head[:limit]


def capped(response: httpx.Response, limit: int) -> None:
    """Bound what reading `response` may take to `limit` bytes (a response not read yet): whichever
    reader asks, `read()` for a whole reply or an error, `iter_text()` for a stream. The bytes
    counted are those the body inflates to: its gzip, deflate, br or zstd is undone here, step by step
    (and its `Content-Encoding` taken off, for httpx not to undo it again), not by httpx a piece at once."""
    stream = response.stream
    if isinstance(stream, httpx.SyncByteStream):
        names = undone(response.headers)
        if names:
            del response.headers["content-encoding"]
        response.stream = _Capped(stream, limit, response.status_code, names)


def cannot_undo(names: list[str]) -> BadResponseError:
    """The error for an answer compressed in encodings `names` that the client cannot undo."""
    packages = [PACKAGES[name] for name in names if name in PACKAGES]
    fix = f"; installing the {' and '.join(packages)} package would let it" if packages else ""
    error = BadResponseError(
        f"the gateway compressed its answer as {', '.join(names)}, which the client did not ask for (it asks for "
        f"{ACCEPTED}) and cannot undo{fix}; nothing from it was used"
    )
    error.hint = (
        f"Have the gateway, or the proxy in front of it, send {ACCEPTED} or no compression when asked for gzip and "
        "deflate (Accept-Encoding), as HTTP has it."
    )
    return error


def too_long(limit: int, status: int | None = None) -> ReplyTooLongError:
    """The error for a reply that went on past `limit` bytes."""
    error = ReplyTooLongError(
        f"the reply went on past {limit:,} bytes (ChatClient.max_reply_bytes) and was not read further: no chat "
        "completion is that long; nothing from it was used",
        status=status,
    )
    error.hint = TOO_LONG_HINT
    return error


def too_long_note(limit: int) -> str:
    """What an exchange records in place of a reply that went on past `limit` bytes."""
    return f"<the reply went on past {limit:,} bytes: not read further>"


@dataclass(frozen=True)
class Exchange:
    """One HTTP request/response pair, as a notebook shows it (no API key)."""

    url: str
    request: dict[str, Any]
    status: int | None
    response_text: str
    attempt: int


@dataclass(frozen=True)
class RetryPolicy:
    """How transient failures are retried: `max_retries` extra attempts, doubling waits."""

    max_retries: int = 2
    backoff_s: float = 0.5
    max_backoff_s: float = 8.0
    max_retry_after_s: float = 30.0

    def __post_init__(self) -> None:
        """Counts and seconds, checked where the policy is made: `max_retries="2"` or `backoff_s=None` was a
        TypeError out of `chat()` at the first 429."""
        retries = self.max_retries
        if isinstance(retries, bool) or not isinstance(retries, numbers.Integral) or retries < 0:
            raise ConfigurationError(
                f"RetryPolicy(max_retries={retries!r:.40}): max_retries is how many times to try again, a whole "
                "number 0 or more; e.g. RetryPolicy(max_retries=2)"
            )
        for name, default in (("backoff_s", 0.5), ("max_backoff_s", 8.0), ("max_retry_after_s", 30.0)):
            seconds = getattr(self, name)
            if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real) or not seconds >= 0:  # NaN too
                raise ConfigurationError(
                    f"RetryPolicy({name}={seconds!r:.40}): {name} is a number of seconds, 0 or more; "
                    f"e.g. RetryPolicy({name}={default})"
                )

    def wait(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before attempt `attempt + 1` (attempts count from 1).

        The retry loop never asks about a `retry_after` beyond `max_retry_after_s` (it raises);
        here such a value is capped, for callers that plan their own waits.
        """
        doubling = 2.0 ** min(attempt - 1, _LARGEST_DOUBLING)  # 2 ** 1100 is no float: a late attempt overflowed
        backoff = min(self.max_backoff_s, self.backoff_s * doubling)
        if retry_after is None:
            return backoff
        return min(self.max_retry_after_s, max(backoff, retry_after))


_LARGEST_DOUBLING = 1023
"""The largest power of two a float holds (2.0 ** 1024 overflows); a backoff doubled that often is past any cap."""


def parse_retry_after(value: str | None, date: str | None = None) -> float | None:
    """`Retry-After` as seconds: a number, or an HTTP date.

    A date is measured from the response's own `Date` header when there is one (the server's
    clock, so a skewed local clock does not matter), otherwise from now. Unreadable: `None`.
    """
    if not value:
        return None
    seconds = _number(value)
    if seconds is not None:
        return seconds
    when = _http_date(value)
    if when is None:
        return None  # unreadable: fall back to our own backoff
    now = _http_date(date) if date else None
    return max(0.0, when - (time.time() if now is None else now))


def _number(value: str) -> float | None:
    """A wait written as a number (`12`, `1.5`; below zero is no wait), or `None`. HTTP's digits are
    ASCII (RFC 9110's `delay-seconds`): "١٢" is no number, nor "inf" or "1e400"; more digits than a
    float holds are a wait past any limit (infinity), not an unreadable one."""
    try:
        seconds = float(value) if value.isascii() else math.nan
    except ValueError:
        return None
    if math.isfinite(seconds):
        return max(0.0, seconds)
    return math.inf if _WAIT_DIGITS.fullmatch(value) else None


_WAIT_DIGITS = re.compile(r"\s*[0-9]+(?:\.[0-9]*)?\s*")
"""A `Retry-After` of seconds (ASCII digits, a decimal part allowed as some gateways send one)."""


def _http_date(value: str) -> float | None:
    try:
        return email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _wait_text(seconds: float) -> str:
    """A wait a gateway asked for, as said in an error: `3600 s`; from a day on in digits and days
    or years (`2,592,000 s (about 30 days)`, not `2.592e+06 s`); for one too long to count a phrase
    instead of `inf s`."""
    if not math.isfinite(seconds):
        return "longer than can be counted (a huge Retry-After)"
    if seconds < _DAY_S:
        return f"{seconds:g} s"
    days = seconds / _DAY_S
    about = f"{days:,.0f} day{'' if round(days) == 1 else 's'}" if days < 3650 else f"{days / 365.25:,.0f} years"
    return f"{seconds:,.0f} s (about {about})"


_DAY_S = 86400


def retry_after(headers: httpx.Headers) -> float | None:
    """The wait a response asks for: `retry-after-ms` (milliseconds) first, then `Retry-After`."""
    millis = _number(headers.get("retry-after-ms") or "")
    if millis is not None:
        return millis / 1000
    return parse_retry_after(headers.get("retry-after"), headers.get("date"))


def auth_headers(base_url: str, api_key: str) -> dict[str, str]:
    """`Authorization: Bearer <key>`, and for Azure (a host under `azure.com`, or an API Management
    gateway under `azure-api.net`; in China's and the US government's clouds too: `_AZURE_HOSTS`) the key in
    `api-key` too: Azure OpenAI's deployment URLs
    (`…/openai/deployments/<name>?api-version=…`) take a key only there (a Bearer token must be
    Entra ID's), as the `openai` SDK's `AzureOpenAI` sends it."""
    headers = {"Authorization": f"Bearer {api_key}"}
    host = httpx.URL(base_url).host.lower().rstrip(".")
    if host.endswith(_AZURE_HOSTS):
        headers["api-key"] = api_key
    return headers


_AZURE_HOSTS = (".azure.com", ".azure-api.net", ".azure.cn", ".azure-api.cn", ".azure.us", ".azure-api.us")
"""Azure's domains: the global cloud's, Azure in China's (operated by 21Vianet: `<resource>.openai.azure.cn`)
and Azure Government's (`<resource>.openai.azure.us`), each with its API Management gateways'."""


def tool_payload(tools: Sequence[Any] | None) -> list[dict[str, Any]] | None:
    """OpenAI `tools` array from dicts or objects with `to_openai()`."""
    if not tools:
        return None
    if type(tools) is not list and type(tools) is not tuple:
        _check_tools(tools)
    try:
        return [t if isinstance(t, dict) else t.to_openai() for t in tools]
    except AttributeError:
        index, kind = next(((i, type(t).__name__) for i, t in enumerate(tools) if not _sendable(t)), (None, ""))
        if index is None:  # a spec's own `to_openai` failed: not the caller's list
            raise
        raise ConfigurationError(
            f"ChatClient.chat: tools[{index}] ({kind}) is neither an OpenAI tool dict nor a tool spec; send a tool's "
            "schema with tools=[t.spec for t in tools_from(f)] (or give f to run_loop(tools=[f]), which runs it)"
        ) from None


THINKING_SWITCH = "enable_thinking"
"""The request field DashScope reads to turn a Qwen3 model's thinking on or off; sent false to a
gateway that refuses a call not streamed without it."""


def _sendable(tool: Any) -> bool:
    return isinstance(tool, dict) or callable(getattr(tool, "to_openai", None))


def _check_tools(tools: Any) -> None:
    """`tools=` of `chat()` / `stream()` takes a list: a set would send the tools in hash order (another
    order in each process), a dict or a str would be read key by key or letter by letter."""
    kind = type(tools).__name__
    if isinstance(tools, (set, frozenset)):
        raise ConfigurationError(
            f"ChatClient.chat: tools= takes a list, and got a {kind}, which has no order: the model would be sent "
            "its tools in another order in each process; give a list, in the order you want"
        )
    if isinstance(tools, (str, bytes, dict)) or not isinstance(tools, Sequence):
        raise ConfigurationError(f"ChatClient.chat: tools= takes a list, and got {kind}; put the tools in a list")


def chat_messages(messages: Any, where: str = "ChatClient.chat") -> Sequence[Message]:
    """What `chat()` / `stream()` were given as the conversation that is not a list or a tuple: a
    `str` is the user's message; anything else that is no sequence is a `ConfigurationError`."""
    return given_conversation(messages, where, alone="one user message", fix="pass [UserMessage(content=...)]")


class ChatClient:
    """A chat-completions client for one gateway and one model."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        model: str,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy = RetryPolicy(),
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        label: str | None = None,
    ) -> None:
        self.base_url: str = check_base_url(base_url).rstrip("/")
        check_api_key(api_key)
        _check_options(model, timeout, retry, sleep)
        self.model = model
        self.retry = retry
        self._secrets = (api_key, *url_secrets(self.base_url))  # its `Basic <base64>` form too
        self._unsaid = [secret for secret in self._secrets if len(secret) >= _UNSAID_LENGTH]
        """The secrets masked in what the model is sent (a placeholder key such as "not-needed" is not)."""
        self.shown_url: str = mask_url(self.base_url)
        """The base URL as it may be shown: credentials in it masked."""
        self.endpoint: str = _endpoint(self.base_url)
        """Where requests go: the base URL's path + `/chat/completions`, its query kept (Azure's
        `?api-version=…`)."""
        self.label: str = self.scrub(label or f"gateway {self.shown_url}, model {model}")
        self.exchanges: deque[Exchange] = deque(maxlen=100)
        self.usage_in_stream: bool = True
        """Whether a stream request asks for usage (`stream_options`); set False by itself when the
        gateway refuses that field (older vLLM, TGI, some proxies), so streaming still works."""
        self.auto_choice_sent: bool = True
        """Whether `tool_choice="auto"` goes into a request; set False by itself when the gateway
        refuses the field (a strict server's 400 or 422 naming it): "auto" is what a request with
        tools means when it names no choice (OpenAI's default), so leaving it out changes nothing."""
        self.forced_choice = ForcedChoice()
        """The forms of a `tool_choice` this gateway refused (LM Studio takes no named function, older vLLM
        no "required" or "none", Mistral's older enum "any" in place of "required"), and the same ask sent
        in another form from then on (`toolkit.chat.forced_choice`)."""
        self.schema_keywords_refused: list[str] = []
        """Tool-schema keywords this gateway refused (a relay to Gemini refuses
        `additionalProperties`); left out of every later request (`toolkit.chat.schema_keywords`)."""
        self.empty_text_refused: bool = False
        """Whether an assistant turn that only calls tools goes with its empty text null; set True by
        itself when the gateway refuses the empty text (a strict relay to Anthropic or Bedrock:
        `toolkit.chat.empty_text`)."""
        self.null_text_refused: bool = False
        """Whether an assistant turn that only calls tools goes with its null text as ""; set True by itself
        when the gateway refuses the null (mistral-common's OpenAI app, Cloudflare's AI Gateway:
        `toolkit.chat.empty_text`), unless it refused the empty text first."""
        self.fields_refused: list[str] = []
        """A history's reasoning fields this gateway refused (`KEPT_ASSISTANT_FIELDS`: Groq refuses
        `reasoning` another gateway asked back); left out of every later request
        (`toolkit.chat.reasoning_fields`)."""
        self.fields_asked: list[str] = []
        """Reasoning fields this gateway asked back on assistant turns that had none (DeepSeek's thinking
        mode: `reasoning_content`); given empty to such turns from then on (`toolkit.chat.reasoning_fields`)."""
        self.ids_shaped: bool = False
        """Whether tool call ids go in Mistral's shape (9 letters and digits); set True by itself when the
        gateway refuses an id of another shape (a history written elsewhere: `toolkit.chat.call_id_shape`)."""
        self.signatures_stood_in: bool = False
        """Whether an assistant turn whose tool calls carry no thought signature goes with Google's stand-in
        on its first call; set True by itself when the gateway refuses one unsigned (Gemini 3, on a history
        written elsewhere: `toolkit.chat.thought_signatures`)."""
        self.thinking_off_unstreamed: bool = False
        """Whether a request not streamed says `enable_thinking: false`; set True by itself when the
        gateway refuses one without it (DashScope serving Qwen3's open models, which think by default
        and think only when streaming), so `chat()` still answers, without the model's thinking."""
        self.arguments_as_json: bool = False
        """Whether a history's tool-call arguments that are not JSON go as `{"INVALID_JSON": text}`; set
        True by itself when the gateway refuses them (llama.cpp's 500 "Failed to parse tool call
        arguments as JSON": `toolkit.chat.json_arguments`)."""
        self.tools_unstreamed: bool = False
        """Whether a stream request with tools is asked without streaming, its reply given as events;
        set True by itself when the gateway refuses tools with a stream (llama.cpp's llama-server before
        May 2025: "Cannot use tools with stream"; `toolkit.chat.unstreamed_tools`)."""
        self.additions_refused: list[str] = []
        """Fields the package adds on its own that this gateway refused (a tool result's `name`: xAI, Groq;
        a tool's `strict`: a relay to Gemini, a strict FastAPI server); left out of every later request
        (`toolkit.chat.added_fields`)."""
        self._max_reply_bytes = MAX_REPLY_BYTES
        self._sleep = sleep
        self._http = httpx.Client(
            transport=transport,
            mounts=None if transport else direct_mounts(self.base_url),  # a loopback gateway: no proxy
            timeout=timeout,
            headers=auth_headers(self.base_url, api_key),
        )

    def __repr__(self) -> str:
        return f"ChatClient({self.label})"

    @property
    def max_reply_bytes(self) -> int:
        """How many bytes of one reply (a body, an error, an event stream; inflated, if compressed)
        are read at most; a gateway that sends more (a stream that never ends) gets a
        `ReplyTooLongError` there (`capped`). A whole number, at least 1, checked where it is set."""
        return self._max_reply_bytes

    @max_reply_bytes.setter
    def max_reply_bytes(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigurationError(
                "ChatClient.max_reply_bytes must be a whole number of bytes, at least 1 (64 MiB, "
                f"{MAX_REPLY_BYTES:,}, unless set), not {value!r}"
            )
        self._max_reply_bytes = value

    def describe(self) -> str:
        """One line saying where requests go (never the key)."""
        return self.label

    def close(self) -> None:
        """Close the HTTP connections; the client sends no request after this."""
        self._http.close()

    def scrub(self, text: str) -> str:
        """`text` with the API key and the URL's password masked."""
        return mask_keys(text, self._secrets)

    def key_refused(self, timeout: float = 5.0, answer: tuple[int | None, str] | None = None) -> CallerError | None:
        """The gateway's refusal of this client's key, or None: one `GET …/models` with the key, as
        every request sends it (free: no model runs), neither retried nor recorded. Only a 401, or a
        400 saying the key is not valid (Gemini's), is a refusal; any other answer (a 403 for a key
        that may not list models, a 404 from a gateway without the route, a list open to all) says
        nothing about the key, nor does a gateway that cannot be reached (`chat()` says that). A
        refusal there is confirmed by one chat request of one token (`_one_token`), whose answer
        decides: a models list may want other auth than the chat endpoint (Anthropic's wants
        x-api-key). `answer`: `models_answer()` already read (`model_refused` reads the same answer)."""
        status, body = self.models_answer(timeout) if answer is None else answer
        if not _refuses_key(status, body):
            return None  # a 400 about something else (a gateway that wants a parameter) is not about the key
        status, body = self._one_token()  # the models list may want other auth (Anthropic's: x-api-key)
        if not _refuses_key(status, body):
            return None
        return CallerError(f"HTTP {status}: {error_message(self.scrub(body))}", status=status, body=self.scrub(body))

    def _one_token(self) -> tuple[int | None, str]:
        """The status and (the head of) the body of one chat request of one token (`max_tokens: 1`),
        neither retried nor recorded; `(None, "")` with no answer."""
        body = {"model": self.model, "messages": [{"role": "user", "content": "hi"}], "max_tokens": 1}
        try:
            with self._direct(self._http.timeout) as http:
                response = http.post(self.endpoint, content=encode_body(body), headers=_JSON_HEADERS)
        except httpx.HTTPError:
            return None, ""
        return response.status_code, response.text[:_REFUSAL_BYTES]

    def model_refused(
        self, timeout: float = 5.0, answer: tuple[int | None, str] | None = None
    ) -> tuple[CallerError, list[str]] | None:
        """The gateway's refusal of this client's model and the models it lists, or None. Asked only
        when `GET …/models` lists models and this one is not among them (a list may leave out what
        the gateway serves: a deployment's name, an alias): one request of one token (`max_tokens:
        1`), neither retried nor recorded, confirms. A 404, or a 400 or 422 whose message names the
        model, is a refusal; any other answer (a 400 about `max_tokens`, a 200) keeps the model.
        `answer`: `models_answer()` already read."""
        listed = _model_ids(*(self.models_answer(timeout) if answer is None else answer))
        if not listed or not {self.model, f"models/{self.model}", f"{self.model}:latest"}.isdisjoint(listed):
            return None  # Gemini lists `models/<id>`, Ollama `<name>:latest` for the `<name>` it serves
        status, text = self._one_token()
        said = error_message(self.scrub(text))
        if status is None or (status != 404 and not (status in (400, 422) and self.model in said)):
            return None
        return CallerError(f"HTTP {status}: {said}", status=status), listed

    def _direct(self, timeout: float | httpx.Timeout) -> httpx.Client:
        """A client of its own for a check: this one's headers (the key), not its transport (a
        recording one would put the check in the cassette)."""
        return httpx.Client(timeout=timeout, mounts=direct_mounts(self.base_url), headers=self._http.headers)

    def models_answer(self, timeout: float = 5.0) -> tuple[int | None, str]:
        """The status and (the head of) the body of `GET …/models` with the key, neither retried nor
        recorded; `(None, "")` with no answer (what `key_refused` and `model_refused` read)."""
        try:
            with self._direct(timeout) as http, http.stream("GET", _endpoint(self.base_url, "/models")) as response:
                return response.status_code, _head(response.iter_bytes(), _MODELS_BYTES).decode("utf-8", "replace")
        except httpx.HTTPError:
            return None, ""

    # -- requests -----------------------------------------------------------------------
    def build_request(
        self,
        messages: Sequence[Message] | str,
        *,
        tools: Sequence[Any] | None = None,
        tool_choice: ToolChoice | None = None,
        stream: bool = False,
        **extra: Any,
    ) -> dict[str, Any]:
        """The JSON body that `chat()` / `stream()` would send. A `parallel_tool_calls` in `extra` goes only
        with tools (OpenAI's 400 "'parallel_tool_calls' is only allowed when 'tools' are specified"): a
        round that sends none, with the loop's `request_extra` holding it, leaves it out."""
        if type(messages) is not list and type(messages) is not tuple:
            messages = chat_messages(messages)
        try:
            wire = to_openai(list(messages))
        except (AttributeError, TypeError):  # a dict in the list, or a class: `UserMessage.to_openai()`
            misfit = misfit_error(messages, "ChatClient.chat")
            if misfit is None:  # a message subclass's own `to_openai` failed: not the caller's list
                raise
            raise misfit from None
        if self._unsaid:  # a tool's result or the learner may quote the key: the model never reads it
            wire = mask_json(wire, self._unsaid)
        if self.fields_refused:
            wire = without_fields(wire, self.fields_refused)
        if self.fields_asked:
            wire = with_fields(wire, self.fields_asked)
        if self.empty_text_refused:
            wire = with_null_text(wire)
        elif self.null_text_refused:
            wire = with_empty_text(wire)
        if self.signatures_stood_in:
            wire = signed(wire)
        if self.ids_shaped:
            wire = shaped_ids(wire)
        if self.arguments_as_json:
            wire = with_json_arguments(wire)
        body: dict[str, Any] = {"model": self.model, "messages": wire}
        if tools:
            body["tools"] = tool_payload(tools)
            if self.schema_keywords_refused:
                body["tools"] = without_keywords(body["tools"], self.schema_keywords_refused)
        if tool_choice is not None and (tool_choice != "auto" or self.auto_choice_sent):
            body["tool_choice"] = _check_tool_choice(tool_choice)
        if stream:
            body["stream"] = True
            if self.usage_in_stream:
                body["stream_options"] = {"include_usage": True}
        elif self.thinking_off_unstreamed:
            body[THINKING_SWITCH] = False
        if extra:
            body.update(extra)
            if "parallel_tool_calls" in extra and "tools" not in body:  # OpenAI's rule: it goes with tools only
                del body["parallel_tool_calls"]
        if self.forced_choice.refused and "tools" in body and "tool_choice" in body:  # asked in a form it takes
            put(body, *self.forced_choice.sent(body["tool_choice"], body["tools"]))
        if self.additions_refused:
            without_additions(body, self.additions_refused)
        return body

    def chat(
        self,
        messages: Sequence[Message] | str,
        *,
        tools: Sequence[Any] | None = None,
        tool_choice: ToolChoice | None = None,
        **extra: Any,
    ) -> ChatResponse:
        """Send one request; return the parsed response (retrying transient failures)."""
        body = self.build_request(messages, tools=tools, tool_choice=tool_choice, **extra)
        attempts = _Attempts(self, body, stream=False, parse=parse_completion)
        with self._masked(), attempts:  # a 200 body may echo the key too
            assert attempts.parsed is not None
            return _with_written_calls(attempts.parsed, body)

    def stream(
        self,
        messages: Sequence[Message] | str,
        *,
        tools: Sequence[Any] | None = None,
        tool_choice: ToolChoice | None = None,
        **extra: Any,
    ) -> Iterator[StreamEvent]:
        """Yield text and tool-call deltas as they arrive, then `StreamDone`.

        An overload or rate limit the gateway reports inside the stream (`data: {"error": {"code":
        502, …}}`) is retried like that status, as long as nothing was yielded yet."""
        body = self.build_request(messages, tools=tools, tool_choice=tool_choice, stream=True, **extra)
        if self.tools_unstreamed and body.get("tools"):
            yield from self._unstreamed(body)
            return
        state = _StreamState()
        while True:
            try:
                yield from self._stream_once(body, state)
                return
            except CallerError as exc:  # tools refused with a stream: the same ask not streamed is answered
                if state.yielded or not body.get("tools") or not refuses_streamed_tools(str(exc)):
                    raise
                self.tools_unstreamed = True
                yield from self._unstreamed(body)
                return
            except TransientError as exc:
                if exc.waited is None:  # raised before the retry loop's own waits were counted
                    exc.waited = state.waited
                if not state.opened or state.yielded or state.attempt > self.retry.max_retries:
                    raise
                if _not_waited(exc, self.retry):  # an error event's own wait beyond the cap: said at once
                    raise
                wait = self.retry.wait(state.attempt, exc.retry_after)
                self._sleep(wait)
                state = _StreamState(first=state.attempt + 1, waited=exc.waited + wait)

    def _unstreamed(self, body: dict[str, Any]) -> Iterator[StreamEvent]:
        """A stream request's `body` asked without streaming, its reply given as the events a stream of
        it would hold (`toolkit.chat.unstreamed_tools`)."""
        plain = {key: value for key, value in body.items() if key not in ("stream", "stream_options")}
        attempts = _Attempts(self, plain, stream=False, parse=parse_completion)
        with self._masked(), attempts:
            assert attempts.parsed is not None
            response = _with_written_calls(attempts.parsed, plain)
        yield from events_of(response)

    def _stream_once(self, body: dict[str, Any], state: _StreamState) -> Iterator[StreamEvent]:
        """One streamed request (its HTTP-level retries included); `state` says how far it got."""
        with self._masked(), self._stream_response(body, state) as (response, attempt):
            state.attempt, state.opened = attempt, True
            whole, cut = None, None
            if _plain_json(response.headers.get("content-type")):
                text, cut = self._whole_text(body, response, attempt)
                if not event_stream(text):  # events labelled JSON (some proxies) are still events
                    broke_off = f"<connection broke: {type(cut).__name__}>" if cut else ""
                    self._plain_instead_of_stream(body, response, attempt, text + broke_off)
                whole = list(sse_lines([text]))
            assembler, recorded, broke = StreamAssembler(), False, None
            echo = HeldEcho(self._unsaid)  # a piece echoing the key given masked, even split over two
            lines: list[str] = []
            started = False  # a line with anything on it read (not `any(lines)`: blank lines made that quadratic)
            try:
                received = iter(whole) if whole is not None else sse_lines(response.iter_text())
                for line in received:
                    if not started:
                        if line.lstrip().startswith("{"):  # no content type, but JSON
                            recorded = True  # the rest is read from the same lines: the body streams only once
                            self._plain_instead_of_stream(body, response, attempt, "\n".join([line, *received]))
                        started = line != ""
                    lines.append(line)
                    for event in assembler.feed_line(mask_keys(line, self._unsaid)):  # masked before an error cuts it
                        for shown in echo.feed(event):
                            state.yielded = True
                            yield shown
                    if assembler.done:  # [DONE]: nothing after it counts, and a relay may hold the body open
                        break
                if cut is not None:  # the events labelled JSON broke off: as a stream that breaks
                    raise cut
            except httpx.TransportError as exc:
                lines.append(f"<connection broke: {type(exc).__name__}>")
                broke = self._broke(exc)
            except ReplyTooLongError:
                lines.append(too_long_note(self.max_reply_bytes))
                raise
            except httpx.DecodingError as exc:
                lines.append(f"<{type(exc).__name__}: {exc}>")
                self._forget_key(exc)
                raise _undecodable(exc, response.status_code) from exc
            except TransientError as exc:  # an overload reported in the stream: retried unless shown
                _reported_in_stream(exc, attempt, state)
                raise
            finally:
                if not recorded:
                    self._record(body, response.status_code, self._stream_text(lines), attempt)
            if broke is None and not assembler.done:
                _check_event_stream(lines, response.status_code, self.scrub)
            try:
                done = assembler.finish(broke)
            except TransientError as exc:  # an overload said instead of a reply, or after its events (a tail)
                _reported_in_stream(exc, attempt, state)
                raise
            yield from echo.flush()
            yield StreamDone(_with_written_calls(unechoed_response(done, self._unsaid), body))

    def _stream_text(self, lines: list[str]) -> str:
        """A stream's lines as its exchange records them: the secrets masked, across chunks too."""
        return scrub_event_stream(self.scrub("\n".join(lines)), self._secrets)

    def _broke(self, exc: httpx.TransportError) -> str:
        """Why a stream stopped arriving, for `TruncatedStreamError`'s text."""
        if isinstance(exc, httpx.TimeoutException):
            return f"the read timed out ({type(exc).__name__}) after {_limit(self._http.timeout, exc)}s"
        return f"the connection broke ({type(exc).__name__})"

    @contextmanager
    def _stream_response(self, body: dict[str, Any], state: _StreamState) -> Iterator[tuple[httpx.Response, int]]:
        """`_open(body, stream=True)` with its retries (`_Attempts`), the response closed after."""
        attempts = _Attempts(self, body, stream=True, first=state.first, waited=state.waited)
        opened = attempts.__enter__()
        state.waited = attempts.waited
        try:
            yield opened
        finally:
            attempts.__exit__(None, None, None)

    def _without_refused(self, body: dict[str, Any], exc: CallerError) -> bool:
        """Whether `body` lost a field the gateway refused (`exc`: a 400, or a FastAPI server's 422,
        naming it) that the client may leave out without changing what is asked, so the request
        can go again: `stream_options` (usage then reads "not reported") and `tool_choice: "auto"`
        (the default of a request with tools), and a tool-schema keyword a relay refuses
        (`toolkit.chat.schema_keywords`), a reasoning field of the history's assistant turns
        (`toolkit.chat.reasoning_fields`), and the empty text of a turn that only calls tools (sent
        null: `toolkit.chat.empty_text`), and a field the package adds on its own, a tool result's `name`
        or a tool's `strict` (`toolkit.chat.added_fields`). Remembered: none is sent to this gateway again. A turn's
        tool calls Gemini 3 refuses unsigned get Google's stand-in signature, assistant turns DeepSeek
        asks a reasoning field of get it empty (`toolkit.chat.reasoning_fields`), and tool call ids Mistral
        refuses are sent in its shape, from then on too (`toolkit.chat.thought_signatures`,
        `toolkit.chat.call_id_shape`)."""
        if "stream_options" in body and exc.refuses("stream_options"):
            self.usage_in_stream = False
            del body["stream_options"]
            return True
        if body.get("tool_choice") == "auto" and exc.refuses("tool_choice"):
            self.auto_choice_sent = False
            del body["tool_choice"]
            return True
        if exc.refuses("tool_choice"):
            with _REFUSED_LOCK:  # one client, many threads: the look and the change are one step
                again = self.forced_choice.refuse(body, f"{exc} {exc.body}")
            if again:
                return True
            if again is False:
                _rehint(exc, CANNOT_FORCE)
        if (
            exc.status == 400
            and not body.get("stream")
            and THINKING_SWITCH not in body
            and exc.refuses(THINKING_SWITCH)
        ):
            self.thinking_off_unstreamed = True  # it thinks only when streaming: a call not streamed, without
            body[THINKING_SWITCH] = False  # its thinking, is the answer the gateway gives
            return True
        added = refused_addition(f"{exc} {exc.body}", body) if exc.status in (400, 422) else None
        if added is not None:  # a tool result's `name` (xAI, Groq), a tool's `strict` (a relay to Gemini)
            with _REFUSED_LOCK:
                if added not in self.additions_refused:
                    self.additions_refused.append(added)
            without_additions(body, self.additions_refused)
            return True
        messages = body.get("messages")
        if not isinstance(messages, list):  # a body given to `send` as it is
            messages = []
        kept = refused_field(f"{exc} {exc.body}", messages, KEPT_ASSISTANT_FIELDS) if exc.status in (400, 422) else None
        if kept is not None:  # a history's reasoning another gateway asked back (Groq refuses `reasoning`)
            with _REFUSED_LOCK:
                if kept not in self.fields_refused:
                    self.fields_refused.append(kept)
            body["messages"] = without_fields(messages, self.fields_refused)
            return True
        asked = asked_field(f"{exc} {exc.body}", messages) if exc.status in (400, 422) else None
        if asked is not None:  # DeepSeek's thinking mode, a turn without its reasoning: given it empty
            with _REFUSED_LOCK:
                if asked not in self.fields_asked:
                    self.fields_asked.append(asked)
            body["messages"] = with_fields(messages, self.fields_asked)
            return True
        said = f"{exc} {exc.body}"
        if exc.status in (400, 422) and not self.null_text_refused and refuses_empty_text(said, messages):
            self.empty_text_refused = True  # a strict relay's empty text block: the turn's text goes null
            body["messages"] = with_null_text(messages)
            return True
        if exc.status in (400, 422) and not self.empty_text_refused and refuses_null_text(said, messages):
            self.null_text_refused = True  # a strict server's null refused: the turn's text goes ""
            body["messages"] = with_empty_text(messages)
            return True
        if exc.status in (400, 422) and refuses_ids(f"{exc} {exc.body}", messages):
            self.ids_shaped = True  # Mistral, ids made elsewhere: each in its shape, the same one each time
            body["messages"] = shaped_ids(messages)
            return True
        if exc.status in (400, 422, 500) and refuses_unparsed(str(exc), messages):
            self.arguments_as_json = True  # llama.cpp reads a history's arguments as JSON: those that are not, as JSON
            body["messages"] = with_json_arguments(messages)
            return True
        if exc.status == 400 and refuses_unsigned(f"{exc} {exc.body}", messages):
            self.signatures_stood_in = True  # Gemini 3, a call made elsewhere: Google's stand-in signature
            body["messages"] = signed(messages)
            return True
        keyword = refused_keyword(f"{exc} {exc.body}", body.get("tools")) if exc.status == 400 else None
        if keyword is not None:  # a relay to Gemini refuses `additionalProperties`: the package checks it itself
            with _REFUSED_LOCK:  # another thread's request, sent with it too, may have been refused first
                if keyword not in self.schema_keywords_refused:  # (one client, many threads): the look and
                    self.schema_keywords_refused.append(keyword)  # the append are one step
            body["tools"] = without_keywords(body["tools"], self.schema_keywords_refused)
            return True
        return False

    def _whole_text(
        self, body: dict[str, Any], response: httpx.Response, attempt: int
    ) -> tuple[str, httpx.TransportError | None]:
        """All of an answer labelled JSON to a stream request, and the error it broke off with
        (then the text is what arrived before)."""
        pieces: list[str] = []
        try:
            for piece in response.iter_text():
                pieces.append(piece)
        except httpx.TransportError as exc:
            return "".join(pieces), exc
        except (ReplyTooLongError, httpx.DecodingError) as exc:
            self._unread(exc, body, response.status_code, attempt)
        return "".join(pieces), None

    def _unread(
        self, exc: ReplyTooLongError | httpx.DecodingError, body: dict[str, Any], status: int, attempt: int
    ) -> NoReturn:
        """A body that could not be read, recorded, raised: too long (as it is), or not decodable in
        the encoding it named (`_undecodable`, the key forgotten if its text named it)."""
        if isinstance(exc, ReplyTooLongError):
            self._record(body, status, too_long_note(self.max_reply_bytes), attempt)
            raise exc
        self._record(body, status, f"<{type(exc).__name__}: {exc}>", attempt)
        self._forget_key(exc)
        raise _undecodable(exc, status) from exc

    def _plain_instead_of_stream(
        self, body: dict[str, Any], response: httpx.Response, attempt: int, text: str
    ) -> NoReturn:
        """A plain answer to a stream request: the error it reports (a proxy's 200 with an error
        body, worded and triaged as on `chat()`), else `NotAStreamError`."""
        text = self.scrub(text)
        self._record(body, response.status_code, text, attempt)
        response.close()
        try:
            said = reported_instead(json.loads(text))
        except (ValueError, RecursionError):
            said = None
        if said:
            error = reported_error(said, "answered 200 with an error", text[:2000], status=response.status_code)
            error.attempts = attempt
            _unknown_address(error, response)
            raise error
        shape = native_shape(text)
        if shape is not None:  # Ollama's native NDJSON stream: not a gateway to ask without streaming
            native = NativeReplyError(shape, text)
            native.at(response.request.url)
            raise native
        raise _not_a_stream(text, self.shown_url)

    def send(self, body: dict[str, Any]) -> httpx.Response:
        """POST `body` as is, with retries and triage; returns the successful response."""
        with self._open(body, stream=False) as (response, _):
            return response

    # -- the retry loop -----------------------------------------------------------------
    def _open(self, body: dict[str, Any], *, stream: bool):
        return _Attempts(self, body, stream)

    def _attempt(self, body: dict[str, Any], stream: bool, attempt: int) -> httpx.Response:
        request = self._http.build_request(
            "POST",
            self.endpoint,
            content=encode_body(body),
            headers=_JSON_HEADERS,
            extensions={READ_AT_MOST: self.max_reply_bytes},  # for a recording transport (`capped`)
        )
        try:  # the body is read below, so that an answer that breaks off is told from no answer at all
            response = self._http.send(request, stream=True)
        except httpx.TimeoutException as exc:
            self._record(body, None, f"<{type(exc).__name__}>", attempt)
            self._forget_key(exc)
            raise TransientError(
                f"request timed out ({type(exc).__name__}) after {_limit(self._http.timeout, exc)}s", attempts=attempt
            ) from exc
        except httpx.InvalidURL as exc:  # only a redirect's Location can be one here (`no_url_redirect`)
            self._record(body, None, self.scrub(f"<{type(exc).__name__}: {exc}>"), attempt)
            raise BadResponseError(NO_URL_REDIRECT) from None
        except httpx.TransportError as exc:
            self._record(body, None, self.scrub(f"<{type(exc).__name__}: {exc}>"), attempt)
            self._forget_key(exc)
            if no_url_redirect(exc):
                raise BadResponseError(NO_URL_REDIRECT) from None
            refused = proxy_refusal(self.shown_url, exc, attempt)
            if refused is not None:
                raise refused from exc
            raise TransientError(unreachable(self.shown_url, exc), attempts=attempt) from exc
        except httpx.DecodingError as exc:  # the body does not fit its Content-Encoding
            self._record(body, None, f"<{type(exc).__name__}: {exc}>", attempt)
            self._forget_key(exc)
            raise _undecodable(exc) from exc
        left = left_undone(response.headers)
        if left and response.status_code < 300:  # an answer that cannot be read: not read (its head looked at)
            head = _raw_head(response)
            kind, other = plain_kind(head), compressed_as(head, left)
            response.close()
            self._record(body, response.status_code, f"<compressed as {', '.join(left)}: not read>", attempt)
            if kind is not None:
                raise _undecodable(NotCompressedError(left, kind))
            raise cannot_undo(left) if other is None else _undecodable(OtherCompressionError(left, other))
        capped(response, self.max_reply_bytes)
        if response.status_code >= 300 or not stream:
            try:
                response.read()
            except (ReplyTooLongError, httpx.DecodingError) as exc:
                self._unread(exc, body, response.status_code, attempt)
            except httpx.TransportError as exc:  # the body broke off (or stopped arriving) after its head
                self._record(body, response.status_code, f"<connection broke: {type(exc).__name__}>", attempt)
                self._forget_key(exc)
                raise self._broke_off(response.status_code, exc, attempt) from exc
            finally:
                response.close()
            _read_as(response, body_encoding(response.content, response.charset_encoding))  # the bytes first
            self._record(body, response.status_code, self.scrub(response.text), attempt)
        else:  # server-sent events are UTF-8 whatever the label says (and so is the JSON some send instead)
            _read_as(response, "utf-8")
        with self._masked():
            triage_status(response, attempt, self._shown)
        return response

    def _broke_off(self, status: int, exc: httpx.TransportError, attempt: int) -> TransientError:
        """The error for a body that broke off after the response's head came: an error's body
        names its status; an answer's says the gateway answered (it was reached: `unreachable`
        would send the learner to check LLM_BASE_URL), or that it stopped arriving (a read timeout,
        worded as one before anything came)."""
        kind = type(exc).__name__
        if status >= 300:
            return TransientError(
                f"HTTP {status}, and the connection broke while the error was read ({kind})",
                status=status,
                attempts=attempt,
            )
        if isinstance(exc, httpx.TimeoutException):
            return TransientError(
                f"request timed out ({kind}) after {_limit(self._http.timeout, exc)}s", attempts=attempt
            )
        return TransientError(
            f"The gateway at {self.shown_url} answered, but its answer broke off before it was complete ({kind}); "
            "nothing from it was used.",
            attempts=attempt,
        )

    @contextmanager
    def _masked(self) -> Iterator[None]:
        """Any `ModelCallError` raised inside, with the key masked in its text and its body:
        a gateway may echo the key in an error, with any status, or in a stream chunk; and any
        token of a well-known format (`mask_tokens`): a relay may quote its own upstream key."""
        try:
            yield
        except ModelCallError as exc:
            exc.args = (self._shown(str(exc)),)
            exc.body = self._shown(exc.body or "")
            raise

    def _shown(self, text: str) -> str:
        """`text` as an error may show it: the key and the URL's secrets masked (`scrub`), and tokens
        of a well-known format (`mask_tokens`)."""
        return mask_tokens(self.scrub(text))

    def _forget_key(self, exc: httpx.HTTPError) -> None:
        """`exc` (about to become an error's `__cause__`) without the key: its request is replaced
        by a copy with no body, its headers and URL masked (the original's `Authorization` header
        holds the key in clear, and anything that walks an exception chain would find it); its
        text, and that of every exception below it (httpcore's, h11's: `Illegal header value
        b'Bearer …'`), masked."""
        below: BaseException | None = exc
        seen: set[int] = set()
        while below is not None and id(below) not in seen:
            seen.add(id(below))
            below.args = tuple(self.scrub(arg) if isinstance(arg, str) else arg for arg in below.args)
            below = below.__cause__ or below.__context__
        try:
            request = exc.request
        except RuntimeError:  # raised without a request
            return
        headers = [(name, self.scrub(value)) for name, value in request.headers.multi_items()]
        exc.request = httpx.Request(request.method, self.scrub(mask_url(str(request.url))), headers=headers)

    def _record(self, body: dict[str, Any], status: int | None, text: str, attempt: int) -> None:
        url = mask_url(self.endpoint)
        request = redact.scrub_json(mask_json(body, self._secrets))  # the conversation may quote the key
        self.exchanges.append(Exchange(url, request, status, redact.scrub(text), attempt))


_REFUSED_LOCK = threading.Lock()
"""Held while a refused schema keyword is looked for and remembered (`ChatClient.schema_keywords_refused`)."""
_JSON_HEADERS = {"Content-Type": "application/json", "Accept-Encoding": ACCEPTED}  # what `capped` undoes
_UNSAID_LENGTH = 16
"""A secret this long or longer is masked in the messages sent; real API keys are longer, and a
shorter one (a placeholder) would mask ordinary words."""


@dataclass
class _StreamState:
    """How far one streamed request got: its attempt number, whether the response was opened,
    whether anything was yielded to the caller (then an in-stream overload is not retried)."""

    first: int = 1
    attempt: int = 1
    opened: bool = False
    yielded: bool = False
    waited: float = 0.0
    """Seconds slept between this request's attempts so far."""


def _with_written_calls(response: ChatResponse, body: dict[str, Any]) -> ChatResponse:
    """`response` with the calls its model wrote as text read as calls, when the request offered
    tools and the gateway read none (its tool-call parser off: `toolkit.chat.text_calls`)."""
    if "tools" not in body or response.message.tool_calls or not may_hold_calls(response.message.content):
        return response
    message = written_calls(response.message, offered_names(body["tools"]))
    return response if message is None else response.model_copy(update={"message": message})


def _reported_in_stream(exc: TransientError, attempt: int, state: _StreamState) -> None:
    """`exc`, an overload the gateway reported in a stream, with its attempts counted, and, when
    part of the reply was already shown (then it is not retried: `ChatClient.stream`), saying so."""
    exc.attempts = attempt
    if state.yielded:
        exc.args = (f"{exc}; not retried: part of the reply had already arrived",)


def _read_as(response: httpx.Response, encoding: str | None) -> None:
    """`response`'s text to be decoded with `encoding` (None: as httpx would), unless it is that
    already, or its text was decoded before (a response object a test's transport hands out twice)."""
    if encoding is None or codecs.lookup(encoding).name == codecs.lookup(response.encoding or "utf-8").name:
        return
    try:
        response.encoding = encoding
    except ValueError:  # httpx keeps the text it decoded first
        pass


def _limit(timeout: httpx.Timeout, exc: httpx.TimeoutException) -> float | None:
    """The timeout, in seconds, that `exc` ran out: connect, write, pool or read."""
    if isinstance(exc, httpx.ConnectTimeout):
        return timeout.connect
    if isinstance(exc, httpx.WriteTimeout):
        return timeout.write
    if isinstance(exc, httpx.PoolTimeout):
        return timeout.pool
    return timeout.read


def _endpoint(base_url: str, path: str = "/chat/completions") -> str:
    """`base_url` with `path` added to its path: a query stays a query (Azure's
    `…/deployments/gpt-4o?api-version=2024-10-21`), a `#fragment` is dropped. The path is added to as
    written (`with_raw_path`): its `%XX` escapes stay as they are."""
    return str(with_raw_path(httpx.URL(base_url), lambda raw: raw.rstrip("/") + path))


def with_raw_path(url: httpx.URL, change: Callable[[str], str]) -> httpx.URL:
    """`url` with its path, as written (`%XX` escapes and all), changed by `change`; its query kept, its fragment
    dropped. Not `url.path`, which httpx gives decoded: written back, `%2F` became a `/` and `%2541` a `%41` (another
    URL), and a `%0d` a carriage return httpx refuses (`InvalidURL`, past every error said in words)."""
    raw, mark, query = url.raw_path.decode("ascii").partition("?")
    return url.copy_with(raw_path=(change(raw) + (mark + query if query else "")).encode("ascii"), fragment=None)


def _check_event_stream(lines: list[str], status: int, scrub: Callable[[str], str]) -> None:
    """A 200 answer to a stream request that holds text but not one line of an event stream (a
    `data:`, `event:`, `id:` or `retry:` field, or a `:` comment: a keep-alive) is not a cut
    stream (nothing to retry): a web page, or some other endpoint. Say so, quoting it."""
    text = "\n".join(lines).lstrip("\ufeff")
    if not text.strip() or any(line.lstrip("\ufeff").startswith(_SSE_LINES) for line in lines):
        return
    said = page_text(text) or repr(_one_line(text)[:200])  # a page by its title: its markup says nothing
    raise BadResponseError(
        f"the gateway answered a stream request with no server-sent events ({scrub(said)}); {PAGE_HINT}",
        status=status,
        body=scrub(text)[:2000],
    )


PAGE_HINT = (
    "check LLM_BASE_URL: it should be the API's base URL (often ending in /v1), not a web page such as a proxy's "
    "sign-in page"
)
"""What to check when a 200 answer is a web page (or other text), not the API's JSON or events."""


_SSE_LINES = ("data:", "event:", "id:", "retry:", ":")
"""How the lines of a server-sent event stream begin (its fields, and comments)."""


def event_stream(text: str) -> bool:
    """Whether a body is server-sent events (its first line a field or a comment), whatever its
    content type says."""
    return text.lstrip("\ufeff \t\r\n").startswith(_SSE_LINES)


def check_base_url(url: str) -> str:
    """`url` if it is an http(s) URL with a host, else a `ConfigurationError` saying so (credentials
    in it masked): a mistyped `LLM_BASE_URL` is a mistake to fix, not a gateway to retry."""
    if not isinstance(url, str):
        raise ConfigurationError(f"ChatClient: base_url must be a string, not {type(url).__name__}")
    why, parsed = "", None
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError) as exc:
        reason = _one_line(str(exc))
        for secret in url_secrets(url):
            reason = mask_key(reason, secret)
        why = f" ({reason})"
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.host:
        raise ConfigurationError(
            f"ChatClient: base_url {_shown_url(url)!r} is not an http(s) URL with a host{why}; "
            "use one like http://127.0.0.1:8000/v1 or https://api.openai.com/v1 (check LLM_BASE_URL)"
        )
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise ConfigurationError(
            f"ChatClient: base_url {_shown_url(url)!r} has port {parsed.port}; a port is 1-65535 (check LLM_BASE_URL)"
        )
    unreadable = host_problem(parsed.host)
    if unreadable:
        raise ConfigurationError(
            f"ChatClient: base_url {_shown_url(url)!r} has a host name that cannot be looked up {unreadable}; use one "
            "like http://127.0.0.1:8000/v1 or https://api.openai.com/v1 (check LLM_BASE_URL)"
        )
    return url


_SHOWN_URL = 200
"""How many characters of a base URL its error quotes (a 100 KB `LLM_BASE_URL` was quoted whole)."""


def _shown_url(url: str) -> str:
    """`url` as an error quotes it: credentials masked, cut to `_SHOWN_URL` characters."""
    return cut(mask_url(url), _SHOWN_URL, "...")


def host_problem(host: str) -> str | None:
    """Why the socket cannot look `host` up, with the rule it breaks (a space, which httpx writes as
    %20; a part of more than 63 characters, or an empty one: `gw..example.com`, as its IDNA encoding
    says), or None. The socket raised the last as a bare `UnicodeError` at the first request, past
    every error the client turns into its own, and the first as "Name or service not known"."""
    if "%" in host:  # `http:// gw/v1`: no name holds a space
        return "(it holds a space or a character written as %XX; a host name has letters, digits, '-' and '.')"
    if ":" in host:  # an IPv6 address: no name to encode
        return None
    try:
        host.encode("idna")
    except UnicodeError:  # said in our words: the codec's differ from one Python to the next
        labels = (host[:-1] if host.endswith(".") else host).split(".")  # a last dot names the root: allowed
        if "" in labels:
            why = "a part between dots is empty"
        elif any(len(label) > 63 for label in labels):
            why = "a part between dots is longer than 63 characters"
        else:  # the codec's words differ from one Python to the next: the character, in ours
            bad = next((c for c in host if not _encodes(c)), None)
            why = (
                f"it holds {bad!r}, which no host name may hold"
                if bad is not None
                else "a part mixes characters as no international host name may (IDNA)"
            )
        return f"({why}): each part between dots is 1-63 characters"
    return None


def _encodes(character: str) -> bool:
    """Whether the IDNA codec takes `character` alone (a right-to-left mark, a control character: not)."""
    try:
        character.encode("idna")
    except UnicodeError:
        return False
    return True


_NO_NAME_HOLDS = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
"""The Unicode categories of characters no model's name holds: controls (a newline, an escape), format
characters (a right-to-left override, a zero-width space), line and paragraph separators, surrogates
(unassigned code points are left alone: which are differs between Pythons' Unicode versions)."""


def _check_options(model: Any, timeout: Any, retry: Any, sleep: Any) -> None:
    """`ChatClient`'s `model`, `timeout`, `retry` and `sleep`, each of its type, else a `ConfigurationError`
    naming it and the fix: `model=None` went out as `"model": null` (a 400 from the gateway), `timeout="30"`
    failed inside httpx at the first request, `timeout=-1` / `0` timed every request out at once, and
    `timeout=1e10` raised OverflowError from the socket at the first request."""
    if not isinstance(model, str) or not model.strip():
        shown = repr(model) if model is None or isinstance(model, str) else type(model).__name__
        raise ConfigurationError(
            f"ChatClient: model must be the model's name as a str, e.g. 'gpt-4o-mini', not {shown} (check LLM_MODEL)"
        )
    unprintable = next((c for c in model if unicodedata.category(c) in _NO_NAME_HOLDS), None)
    if unprintable is not None:  # `LLM_MODEL` pasted with a newline or an escape: a second line in every banner
        raise ConfigurationError(
            f"ChatClient: model {cut(model, 80, '...')!r} holds {unprintable!r}, a character no model's name has (a "
            "control or invisible character: pasted with it?); give the name alone, e.g. 'gpt-4o-mini' "
            "(check LLM_MODEL)"
        )
    if timeout is not None and not isinstance(timeout, httpx.Timeout):
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= LONGEST_SLEEP_S:
            raise ConfigurationError(
                f"ChatClient: timeout must be the seconds to wait for the gateway, a number above 0 and at most "
                f"{LONGEST_SLEEP_S:g} (about 32 years; e.g. timeout=30), or None to wait for ever; not {timeout!r:.40}"
            )
    if not isinstance(retry, RetryPolicy):
        raise ConfigurationError(
            f"ChatClient: retry must be a RetryPolicy, e.g. retry=RetryPolicy(max_retries=2), not "
            f"{type(retry).__name__}"
        )
    if not callable(sleep):
        raise ConfigurationError(
            f"ChatClient: sleep must be a function of the seconds to wait (time.sleep), not {type(sleep).__name__}"
        )


def check_api_key(key: str) -> None:
    """A `ConfigurationError` if `key` cannot go in an HTTP header (a pasted quote, a line break) or
    starts or ends with a space (one pasted after it: h11 refuses the header mid-request, which read
    as an unreachable gateway; one before it is sent and refused as a wrong key). A space inside is
    a header's own (`not needed`, for a local gateway that takes any key). The message names the
    position and the character, never the key."""
    if not isinstance(key, str):
        raise ConfigurationError(f"ChatClient: api_key must be a string, not {type(key).__name__}")
    bad = next(((i, ch) for i, ch in enumerate(key) if not (" " <= ch <= "~")), None)
    if bad is None and key != key.strip(" "):
        bad = (0 if key.startswith(" ") else len(key) - 1, " ")
    if bad is not None:
        i, ch = bad
        raise ConfigurationError(
            f"ChatClient: the API key has a character that cannot go in an HTTP header (U+{ord(ch):04X} at "
            f"position {i + 1} of {len(key)}); API keys are printable ASCII: check LLM_API_KEY for a pasted "
            "quote, space or line break"
        )
    pasted = _pasted_around(key)
    if pasted:
        raise ConfigurationError(f"ChatClient: the API key {pasted}")


def _pasted_around(key: str) -> str:
    """What was pasted with the key that a gateway would read as part of it ("" when nothing):
    its quotes (`%env LLM_API_KEY="sk-…"` keeps them), or the `Bearer ` the client adds itself."""
    if len(key) > 2 and key[0] == key[-1] and key[0] in "\"'":
        return f"is wrapped in quotes ({key[0]}…{key[0]}): set LLM_API_KEY to the key without them (%env keeps them)"
    if key[:7].lower() == "bearer ":
        return f"starts with {key[:7]!r}, which the client adds itself: set LLM_API_KEY to the key alone"
    return ""


def encode_body(body: dict[str, Any]) -> bytes:
    """The request body as UTF-8 JSON, the bytes httpx's `json=` sends. Text holding a lone
    surrogate cannot be UTF-8 (a model's reply can carry an escaped `\\ud83d` cut from its pair,
    and it goes back in the next request; a tool's output can hold one, from bytes decoded with
    `surrogateescape`): strict gateways refuse its escape with a 400 ("no low surrogate in
    string"), so it is sent as U+FFFD, as clients do (`toolkit.unicode.well_formed`). What memory
    keeps is unchanged."""
    try:
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except RecursionError:  # a learner's message field or tool schema thousands of levels deep
        raise ConfigurationError(
            "ChatClient: the request is nested too deeply to write as JSON (past Python's recursion limit); look "
            "for a message field, a tool schema or an option nested thousands of levels deep"
        ) from None
    except ValueError as exc:  # NaN or an infinity (JSON has no such number), or a value inside itself
        if "ircular" in str(exc):
            raise ConfigurationError(
                "ChatClient: the request holds a list or dict that contains itself, which JSON cannot write; look "
                "for a value put inside itself in a message field, a tool schema or an option"
            ) from None
        raise ConfigurationError(
            f"ChatClient: the request holds {_non_finite(body)}, which JSON cannot carry; fix where it comes "
            "from (a tool's schema, an option such as temperature) to a finite number"
        ) from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return well_formed(text).encode("utf-8")


def _non_finite(value: Any) -> str:
    """Where the first NaN or infinity in `value` is, as `nan at tools[0].function…`."""
    found = first_non_finite(value)
    if found is None:
        return "no NaN or infinity"
    path, number = found
    at = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path).lstrip(".")
    return f"{number!r} at {at or 'the top level'}"


class _Attempts:
    """Context manager running the retry loop; yields (response, attempt) and closes it.

    With `parse`, each 200 body is parsed inside the loop (into `parsed`), so an overload that a
    gateway reports inside a 200 (`TransientError` from `parse_completion`) is retried too.
    `first` numbers the first attempt and `waited` is the time already slept (a stream retried after an
    in-stream overload goes on counting both).
    """

    def __init__(
        self,
        client: ChatClient,
        body: dict[str, Any],
        stream: bool,
        *,
        parse: Callable[[str], ChatResponse] | None = None,
        first: int = 1,
        waited: float = 0.0,
    ) -> None:
        self.client, self.body, self.stream, self.parse, self.first = client, body, stream, parse, first
        self.waited = waited
        """Seconds slept between attempts so far (`TransientError.waited` when retries run out)."""
        self.response: httpx.Response | None = None
        self.parsed: ChatResponse | None = None

    def __enter__(self) -> tuple[httpx.Response, int]:
        policy, attempt = self.client.retry, self.first
        while True:
            try:
                self.response = self.client._attempt(self.body, self.stream, attempt)
                if self.parse is not None:  # a reply echoing the key gives it masked (`toolkit.chat.stream_scrub`)
                    self.parsed = self.parse(mask_keys(self.response.text, self.client._unsaid))
                return self.response, attempt
            except CallerError as exc:  # asked again at once (no wait, the same attempt) without a field it refused
                if not self.client._without_refused(self.body, exc):
                    _callers_field(exc, self.body)
                    raise
            except BadResponseError as exc:
                _unknown_address(exc, self.response)
                if isinstance(exc, NativeReplyError) and self.response is not None:
                    exc.at(self.response.request.url)
                raise
            except TransientError as exc:
                exc.attempts, exc.waited = attempt, self.waited
                if attempt > policy.max_retries:
                    raise
                if _not_waited(exc, policy):
                    raise
                wait = policy.wait(attempt, exc.retry_after)
                self.client._sleep(wait)
                self.waited += wait
                attempt += 1

    def __exit__(self, *exc_info: object) -> None:
        if self.response is not None:
            self.response.close()


def _callers_field(error: CallerError, body: dict[str, Any]) -> None:
    """Make `error`, a 400 or 422 that names a field of `body` the caller added (`LoopOptions.request_extra`,
    a keyword of `chat()` / `stream()`: `seed`, `parallel_tool_calls`, `max_tokens`), say which and what to
    do, in place of its status's usual hint. Never dropped and sent again: the caller asked for it."""
    if error.status not in (400, 422):
        return
    said = f"{error} {error.body}"
    for field in body:
        if field in _OWN_FIELDS or not isinstance(field, str) or not field:
            continue
        if re.search(rf"{_NAMING}{re.escape(field)}(?![\w-])", said, re.IGNORECASE):
            _rehint(error, CALLERS_FIELD_HINT.format(field=field))
            return


_NAMING = r"(?:['\"`]|(?<![\w-])[\w-]*\.|(?:supplied|parameter|argument|field|property|name)s?:? )"
"""What an error writes before a field it names: a quote, a path (`body.user`), or a word naming it
("argument supplied: seed"); a field's name as a word of a sentence ("from the user") is none."""


_OWN_FIELDS = frozenset({"model", "messages", "tools", "tool_choice", "stream", "stream_options", THINKING_SWITCH})
"""The fields `ChatClient.build_request` writes itself (a refusal of one is handled, or hinted, elsewhere)."""
CALLERS_FIELD_HINT = (
    "the gateway refuses {field!r}, a field this call added (LoopOptions.request_extra, or a keyword of chat() / "
    "stream()): change it, or leave it out for this gateway (not retried)"
)


def _rehint(error: CallerError, hint: str) -> None:
    """`error` saying `hint` in place of its status's usual one ("fix it (not retried)")."""
    said, _, usual = str(error).rpartition(" — ")
    if said and usual == _CALLER_HINTS.get(error.status or 0, _DEFAULT_HINT):
        error.args = (f"{said} — {hint}",)


def _unknown_address(error: ModelCallError, response: httpx.Response | None) -> None:
    """Make `error`, a 200's reported error, say to check LLM_BASE_URL when its words say the gateway
    serves no such address as the request's (LM Studio answers any other path with a 200 `{"error":
    "Unexpected endpoint or method. (POST /chat/completions)"}`): it names the request's method and
    path and calls them unknown (`_NO_ROUTE`)."""
    if type(error) is not BadResponseError or response is None or not _NO_ROUTE.search(str(error)):
        return
    try:
        asked = f"{response.request.method} {response.request.url.path}"
    except RuntimeError:  # a response built without a request
        return
    if asked not in str(error):
        return
    error.args = (f"{error} — the gateway serves no such address: check LLM_BASE_URL (it usually ends in /v1)",)
    error.hint = BadResponseError.hint


_NO_ROUTE = re.compile(r"unexpected endpoint|unknown (?:endpoint|route|url|path)|not found|no such|invalid url", re.I)
"""A gateway's words for an address it does not serve."""


def _not_waited(error: TransientError, policy: RetryPolicy) -> bool:
    """Whether the wait `error` asks for is beyond what `policy` waits (`_too_long`): then its text says
    so, to be raised at once."""
    too_long = _too_long(error.retry_after, policy)
    if too_long:
        error.args = (
            f"{error} — the gateway asks to wait {_wait_text(error.retry_after or 0)}, {too_long}; not "
            "retried, try again later (the wait is in .retry_after)",
        )
    return bool(too_long)


def _too_long(wait: float | None, policy: RetryPolicy) -> str:
    """Why a wait the gateway asked for is not waited ("" when it is): beyond the policy's cap, or
    (with no cap: `max_retry_after_s=inf`) beyond what `time.sleep` can count (it overflows)."""
    if wait is None:
        return ""
    if wait > policy.max_retry_after_s:
        return f"more than RetryPolicy.max_retry_after_s={policy.max_retry_after_s:g}"
    if wait > LONGEST_SLEEP_S:
        return f"longer than a program can sleep (more than {_wait_text(LONGEST_SLEEP_S)})"
    return ""


LONGEST_SLEEP_S = 1e9
"""The longest wait ever slept (about 32 years): `time.sleep` overflows not far beyond (292 years on
64-bit Linux, less elsewhere), and no call waits that long to be retried; the longest `timeout` too (a
socket waits at most about 9.2e9 s)."""


UNREACHABLE = (
    "Cannot reach the gateway at {url} ({reason}). Check LLM_BASE_URL, or unset the LLM_* variables "
    "to use the embedded gateway."
)


def unreachable(url: str, exc: httpx.TransportError) -> str:
    """The one line saying the gateway at `url` cannot be reached, and why, in plain words."""
    return UNREACHABLE.format(url=url, reason=_reason(exc))


def proxy_refusal(url: str, exc: httpx.TransportError, attempt: int = 1) -> CallerError | None:
    """The `CallerError` for a proxy that answered the tunnel to an https gateway (`CONNECT`) with a 4xx:
    its credentials (407) or its rules (403) refuse, and asking again cannot change that, as a
    plain-http gateway's 407 through the same proxy is a caller error; None for anything else (a
    proxy's 502 or 503 may pass: retried, `unreachable`)."""
    status = _proxy_status(exc)
    if status is None or not 400 <= status < 500 or status in _TRANSIENT:
        return None
    hint = _CALLER_HINTS[407] if status == 407 else _PROXY_HINTS.get(status, _PROXY_HINT)
    said = _one_line(str(exc))[:120]
    return CallerError(f"{PROXY_REFUSED} {url}: {said} — {hint}", status=status, attempts=attempt)


PROXY_REFUSED = "The proxy refused to open a tunnel to the gateway at"
"""How `proxy_refusal`'s line starts (a notebook's `explain` shows it as it is: the status is the proxy's)."""


def _proxy_status(exc: httpx.TransportError) -> int | None:
    """The status a proxy answered a tunnel with (httpx's `ProxyError("407 Proxy Authentication Required")`)."""
    found = re.match(r"\s*([1-5][0-9][0-9])\b", str(exc)) if isinstance(exc, httpx.ProxyError) else None
    return int(found.group(1)) if found else None


_PROXY_HINTS = {
    403: (
        "the proxy does not let this machine reach that host: ask whoever runs it, or name the gateway's host in "
        "NO_PROXY if it needs no proxy (not retried)"
    ),
}
"""What to do about a proxy's refusal of a tunnel, by its status (a 407's as `_CALLER_HINTS` says it)."""
_PROXY_HINT = "check HTTPS_PROXY / HTTP_PROXY / ALL_PROXY (not retried)"


def _reason(exc: httpx.TransportError) -> str:
    if isinstance(exc, httpx.ProxyError):  # the proxy answered the tunnel's CONNECT with an error (a 407, a 403)
        said = _one_line(str(exc))[:120] or type(exc).__name__
        return f"the proxy refused to connect to it: {said}; check HTTPS_PROXY / HTTP_PROXY / ALL_PROXY"
    text = str(exc).lower()
    for needle, reason in _REASONS:
        if needle in text:
            return reason
    if isinstance(exc, httpx.ConnectError):
        return "could not connect"
    return f"the connection failed: {type(exc).__name__}"


_REASONS = (
    ("refused", "connection refused"),
    ("name or service not known", "unknown host"),
    ("nodename nor servname", "unknown host"),
    ("temporary failure in name resolution", "unknown host"),
    ("getaddrinfo failed", "unknown host"),
    ("no route to host", "no route to host"),
    ("network is unreachable", "network unreachable"),
    ("certificate", "TLS certificate problem"),
    ("ssl", "TLS problem"),
    ("reset by peer", "connection reset"),
    ("server disconnected", "the server closed the connection"),
)


def _plain_json(content_type: str | None) -> bool:
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


def _not_a_stream(text: str, url: str) -> NotAStreamError:
    return NotAStreamError(
        f"the gateway answered a stream request with a plain response (JSON, not server-sent events) at {url}; "
        "it ignores `stream: true`. Use chat() instead of stream() with this gateway.",
        status=200,
        body=text[:2000],
    )


def _undecodable(exc: httpx.DecodingError, status: int | None = None) -> BadResponseError:
    """A body that its `Content-Encoding` does not fit (a proxy that says gzip and sends plain text)."""
    error = BadResponseError(f"the response body cannot be decoded: {_one_line(str(exc))}", status=status)
    if isinstance(exc, NotCompressedError):
        error.hint = OTHER_HINT if isinstance(exc, OtherCompressionError) else NOT_COMPRESSED_HINT
    elif str(exc) == OLD_BROTLI:
        error.hint = "Install brotli 1.2 or later (pip install -U brotli), or have the gateway send gzip."
    else:  # the decoder's own words ("incorrect header check"): the bytes, not LLM_BASE_URL
        error.hint = UNDECODABLE_HINT
    return error


UNDECODABLE_HINT = (
    "Its bytes do not fit the compression its Content-Encoding header names (compressed otherwise, or damaged on "
    "the way): have the server, or the proxy in front of it, send what the header says; running the cell again "
    "may work if the body was cut."
)


def triage_status(response: httpx.Response, attempt: int = 1, mask: Callable[[str], str] = str) -> None:
    """Raise the right error for a non-2xx response; return quietly for 2xx. What the error quotes of
    the body is `mask`ed before it is cut (`ChatClient` masks its secrets: a key echoed across a cut
    would show its head)."""
    status = response.status_code
    if status < 300:
        return
    body = mask(response.text)[:2000]
    if status < 400:
        raise CallerError(redirect_text(response), status=status, body=body, attempts=attempt)
    detail = error_message(body)
    if status in _CREDIT_STATUSES and not _content_filtered(response.text):  # a filter's words may name credits
        credit = _out_of_credit(response)
        if credit is not None:
            raise OutOfCreditError(
                f"HTTP {status}: {detail} — {credit_fix(credit)}", status=status, body=body, attempts=attempt
            )
    started = _started_without(response, detail) if status not in _TRANSIENT else None
    if started:  # llama.cpp's 500 without --jinja: no wait or other body changes it
        raise CallerError(
            f"HTTP {status}: {detail} — {STARTED_WITHOUT_HINT.format(options=started)}",
            status=status,
            body=body,
            attempts=attempt,
        )
    if status in (400, 422, 500) and refuses_streamed_tools(detail):  # llama.cpp's: no retry streams tools
        raise CallerError(f"HTTP {status}: {detail} — {STREAM_TOOLS_HINT}", status=status, body=body, attempts=attempt)
    roles = refused_roles(detail) if status in (400, 422, 500) else None
    if roles is not None:  # the model's chat template refused the conversation: no retry, no field changes it
        said = f"the model's chat template refused the conversation: {roles}"
        raise CallerError(f"HTTP {status}: {said} — {TEMPLATE_HINT}", status=status, body=body, attempts=attempt)
    if status in (400, 422, 500) and _refuses_unparsed(response, detail):  # no retry makes the history's JSON
        raise CallerError(f"HTTP {status}: {detail} — {ARGUMENTS_HINT}", status=status, body=body, attempts=attempt)
    if status == 500 and too_big(detail):  # a local server's model larger than its free memory: no retry loads it
        raise CallerError(f"HTTP {status}: {detail} — {MEMORY_HINT}", status=status, body=body, attempts=attempt)
    if status == 500 and over_context(detail):  # DeepInfra's 500 for a conversation past the context: no retry fits it
        raise CallerError(f"HTTP {status}: {detail} — {CONTEXT_HINT}", status=status, body=body, attempts=attempt)
    if status < 500 and model_call_refused(response.text):  # the model's call was refused, not the request
        raise TransientError(f"HTTP {status} ({MALFORMED_CALL}): {detail}", status=status, body=body, attempts=attempt)
    says = (
        response.headers.get("x-should-retry", "").strip().lower()
    )  # the gateway's own word, as OpenAI's SDKs read it
    if says == "false" and (status in _TRANSIENT or status >= 500):
        raise CallerError(f"HTTP {status}: {detail} — {NO_RETRY_HINT}", status=status, body=body, attempts=attempt)
    if status in _TRANSIENT or status >= 500 or says == "true":
        error = TransientError(f"HTTP {status} (transient): {detail}", status=status, body=body, attempts=attempt)
        error.retry_after = retry_after(response.headers)
        if error.retry_after is None:  # Google's RetryInfo in the body; OpenAI's, Groq's reset of the limit
            error.retry_after = said_delay(response.text)  # whole: a long QuotaFailure may pass 2,000
            if error.retry_after is None and status == 429:
                error.retry_after = reset_wait(response.headers)
                if error.retry_after is None:  # OpenRouter's: its limit's headers inside the error
                    date = response.headers.get("date")
                    now = (_http_date(date) if date else None) or time.time()
                    error.retry_after = relayed_reset(response.text, now)
            if error.retry_after is None and status in (429, 503):  # "Please try again in 1.8s."
                error.retry_after = worded_wait(detail)
        raise error
    hint = _CALLER_HINTS.get(status, _DEFAULT_HINT)
    if status in (401, 403) and sent_basic_auth(response):
        hint = URL_AUTH_HINT
    elif status in (401, 403) and page_text(response.text) is not None:  # a CDN's block page, a proxy's sign-in
        hint = PAGE_REFUSAL_HINT
    elif status in (401, 403) and cdn_code_text(response.text) is not None:  # Cloudflare's bare "error code: 1010"
        hint = CDN_REFUSAL_HINT
    if status in (404, 405) and _DOUBLED in str(response.request.url):  # no such route, or none taking a POST
        hint = "LLM_BASE_URL ends in /chat/completions: set it to the part before, e.g. https://host/v1 (not retried)"
    elif status in (400, 404, 405, 422) and responses_only(detail):  # OpenAI's o1-pro, a relay of Responses only
        hint = RESPONSES_HINT
    elif status in (400, 404, 422) and not_chat(detail):  # a completion model; Azure's embedding deployment
        hint = NOT_CHAT_HINT
    elif status == 404 and _refuses_tools(response, detail):
        hint = TOOLS_REFUSED_HINT
    elif status in (400, 422) and _refuses_tools(response, detail, refuses_tools):
        hint = TOOLS_REFUSED_HINT
    elif status == 404 and _unversioned_azure(response.request.url):
        hint = AZURE_VERSION_HINT
    elif status in (400, 404) and _OTHER_VERSION.search(detail) and _versioned_or_azure(response.request.url):
        hint = AZURE_OTHER_VERSION_HINT  # Azure's "API version not supported"
    elif status == 404 and '"DeploymentNotFound"' in response.text:  # Azure's `code` for a name it has no deployment of
        where = "the name in LLM_BASE_URL" if "/deployments/" in response.request.url.path else "LLM_MODEL"
        hint = AZURE_DEPLOYMENT_HINT.format(where=where)
    elif status == 400 and _BAD_KEY.search(detail):  # Gemini's wrong key: a 400, "API key not valid"
        hint = _CALLER_HINTS[401]
    elif status in (400, 403) and (_REGION.search(detail) or "unsupported_country" in response.text):
        hint = REGION_HINT  # Gemini's 400 "User location is not supported", OpenAI's 403
    elif status in (400, 403) and (_content_filtered(response.text) or _BLOCKED.search(detail)):  # Azure's, Cohere's
        hint = FILTERED_HINT  # Azure's filter, OpenRouter's moderation, Cohere's "blocked input", Zhipu's 1301
    elif status in (400, 413, 422) and over_context(body):  # each provider's words for a context window overrun
        hint = CONTEXT_HINT
    elif status in (400, 403) and (_RESTRICTED.search(detail) or '"organization_restricted"' in response.text):
        hint = RESTRICTED_HINT  # Groq's 400, Anthropic's: the account, not the request
    elif status in (400, 404) and (_RETIRED.search(detail) or '"model_decommissioned"' in response.text):  # Groq's
        hint = _CALLER_HINTS[410]  # a model retired: as a 410 says it
    elif status in (400, 404) and _NOT_PULLED.search(detail):  # Ollama's: a model it has not downloaded
        hint = PULL_HINT
    elif status in (400, 404, 422) and (_NO_MODEL.search(detail) or _MODEL_CODE.search(response.text)):  # DeepSeek's
        hint = MODEL_HINT
    raise CallerError(
        f"HTTP {status}: {detail} — {hint}",
        status=status,
        body=body,
        attempts=attempt,
    )


def model_call_refused(body: str) -> bool:
    """Whether an error response's whole body reports the model's failed generation
    (`toolkit.chat.sse.failed_generation`). The body is parsed only when it can say so: it holds
    one of the names (TGI's `tool_error` too), or a `\\u` escape that could spell one (every 4xx comes here)."""
    if all(word not in body for word in ("failed_generation", "tool_use_failed", "tool_error", "\\u")):
        return False
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and failed_generation(error_of(data))  # TGI's error string and its kind: one


def _refuses_tools(response: httpx.Response, detail: str, said: Callable[[str, str], bool] = names_tools) -> bool:
    """Whether an error (a 404, whose usual hint blames the URL or the model) is about the request's
    `tools`: the request carried tools and the answer names them (`toolkit.chat.tool_refusal`; OpenRouter: "No endpoints found
    that support tool use"); `said=refuses_tools` for a 400 or 422, which must refuse them in so many words."""
    try:
        sent = json.loads(response.request.content)
    except (RuntimeError, ValueError, RecursionError):  # no request kept, or a body that is no JSON
        return False
    if not isinstance(sent, dict) or not sent.get("tools"):
        return False
    return said(detail, str(sent.get("model") or ""))


def _refuses_unparsed(response: httpx.Response, detail: str) -> bool:
    """Whether an error refuses tool-call arguments of the request's history that are not JSON
    (`toolkit.chat.json_arguments`); the request is parsed only when the words say so."""
    if "json" not in detail.lower():
        return False
    try:
        sent = json.loads(response.request.content)
    except (RuntimeError, ValueError, RecursionError):  # no request kept, or a body that is no JSON
        return False
    messages = sent.get("messages") if isinstance(sent, dict) else None
    return isinstance(messages, list) and refuses_unparsed(detail, messages)


ARGUMENTS_HINT = (
    "the server refuses a conversation holding a tool call whose arguments are not JSON (the model wrote them so); "
    "start a new conversation, or leave that turn out (not retried)"
)


def _started_without(response: httpx.Response, detail: str) -> str:
    """The command-line options an error refusing the request's tools names (`--jinja`, llama.cpp's
    500; `--enable-auto-tool-choice and --tool-call-parser`, vLLM's 400), joined; "" when it names
    none or is not about the tools: the server was started without what tool calling needs, and
    only restarting it changes that."""
    options = list(dict.fromkeys(_OPTION.findall(detail)))
    if not options or not _refuses_tools(response, detail):
        return ""
    return " and ".join([", ".join(options[:-1]), options[-1]] if len(options) > 1 else options)


_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
"""A server's command-line option named in its error (`--jinja`, `--tool-call-parser`)."""


def _versioned_or_azure(url: httpx.URL) -> bool:
    """Whether `url` is on an Azure host or names an `api-version` (an Azure API Management front of its own)."""
    return url.host.lower().rstrip(".").endswith(_AZURE_HOSTS) or "api-version" in url.params


def _unversioned_azure(url: httpx.URL) -> bool:
    """Whether `url` is an Azure OpenAI deployment's (`…/openai/deployments/<name>/…` on an Azure host)
    without the `api-version` query Azure requires there (it answers 404 "Resource not found")."""
    host = url.host.lower().rstrip(".")
    return host.endswith(_AZURE_HOSTS) and "/openai/deployments/" in url.path and "api-version" not in url.params


def _content_filtered(body: str) -> bool:
    """Whether an error body says a content filter refused the prompt: its `code` or `type` names
    one (`_FILTER_CODES`: Azure OpenAI's and Moonshot's `content_filter`, DashScope's
    `data_inspection_failed`), its `innererror` is coded `ResponsibleAIPolicyViolation` (Azure), or its
    `metadata` holds the `flagged_input` of a moderation (OpenRouter's 403: "Your input was flagged")."""
    if not any(code in body for code in (*_FILTER_CODES, "ResponsibleAIPolicyViolation", "flagged_input")):
        return False
    error = error_object(parsed(body))
    if error is None:
        return False
    inner, metadata = error.get("innererror"), error.get("metadata")
    if isinstance(inner, dict) and inner.get("code") == "ResponsibleAIPolicyViolation":
        return True
    if isinstance(metadata, dict) and "flagged_input" in metadata:  # OpenRouter's ModerationErrorMetadata
        return True
    return error.get("code") in _FILTER_CODES or error.get("type") in _FILTER_CODES


_FILTER_CODES = ("content_filter", "data_inspection_failed")
_BLOCKED = re.compile(r"\bblocked (?:input|output): please adjust your prompt|不安全或敏感内容")
"""Words for a prompt (or an answer) a provider's review blocked, in a 400 whose code names no filter: Cohere's
"blocked input: please adjust your prompt …", Zhipu's (code 1301) "系统检测到输入或生成内容可能包含不安全或敏感内容"."""


def _out_of_credit(response: httpx.Response) -> str | None:
    """How a 400, 402, 403 or 429 says the account is out of credit (`toolkit.chat.credit`), or None.
    A 402 (Payment Required) always does; a 400 (DashScope's `Arrearage`, Anthropic's "credit balance
    is too low") or a 403 by its fields, else by its message naming spent money (its words of quota
    may be about the request, or a model's plan); a 429 by its fields, else by its text when it asks
    for no wait."""
    status = response.status_code
    data = parsed(response.text)
    money_only = status in (400, 403)
    text = error_message(response.text[:2000]) if money_only else response.text[:2000] if status == 429 else ""
    named = out_of_credit(data, text, waits=retry_after(response.headers) is not None, money_only=money_only)
    return "" if named is None and status == 402 else named


def sent_basic_auth(response: httpx.Response) -> bool:
    """Whether the request went with `Authorization: Basic …`: httpx builds it from a base URL's
    user info (`https://alice:pw@proxy/v1`), in place of the `Bearer` key the client set."""
    try:
        authorization = response.request.headers.get("authorization", "")
    except RuntimeError:  # a response built without a request
        return False
    return authorization[:6].lower() == "basic "


def redirect_target(response: httpx.Response) -> str | None:
    """Where a redirect points, as an absolute URL a learner can paste (credentials masked): a
    `Location` is often relative (`/v2/chat/completions`, as most servers write it), and it is
    resolved against the request's URL as a browser does. None when there is no `Location`."""
    location = response.headers.get("location", "").strip()
    if not location:
        return None
    try:
        return mask_url(str(response.request.url.join(location)))
    except (RuntimeError, httpx.InvalidURL, ValueError):  # no request to resolve against, or no URL at all
        return mask_url(location)


def redirect_text(response: httpx.Response) -> str:
    """What a redirect (never followed: the key is not sent on) says to do: set LLM_BASE_URL to where
    it points, unless that is plain http from https (the key would travel unencrypted), another
    host (the key would go to someone else: only if the learner trusts it), or no chat endpoint at
    all (`_no_endpoint`: a sign-in page, the address asked)."""
    location = redirect_target(response)
    said = f"HTTP {response.status_code}: the gateway redirects to {location or '(no Location given)'}"
    elsewhere = _elsewhere(response, location)
    if elsewhere is not None:
        return f"{said}, {elsewhere}"
    nowhere = _no_endpoint(response, location)
    if nowhere is not None:
        return f"{said} — {nowhere}"
    return f"{said} — set LLM_BASE_URL to the address it redirects to (without /chat/completions; not followed, not retried)"


REDIRECT_TO_ITSELF = (
    "not followed: that is the address asked, so the gateway (or a proxy in front of it) sends the request back "
    "to itself; check the gateway (not retried)"
)
REDIRECT_TO_NO_ENDPOINT = (
    "not followed: no address the client sends to (LLM_BASE_URL and /chat/completions), perhaps a proxy's or a "
    "network's sign-in page; check LLM_BASE_URL (it usually ends in /v1), and sign in to the network first if a "
    "browser asks you to (not retried)"
)


def _no_endpoint(response: httpx.Response, location: str | None) -> str | None:
    """Why LLM_BASE_URL cannot be set to where a redirect on the same host points, or None when it can:
    no `Location`; the address asked (a loop); a path that does not end in /chat/completions, which the
    client adds to LLM_BASE_URL (a sign-in page, a front page, the endpoint with a trailing slash)."""
    if location is None:
        return "not followed; check LLM_BASE_URL (it usually ends in /v1) (not retried)"
    try:
        asked, target = response.request.url, httpx.URL(location)
    except (RuntimeError, httpx.InvalidURL, ValueError):  # no request, or no URL at all
        return None
    if (target.scheme, target.path, target.query) == (asked.scheme, asked.path, asked.query):
        return REDIRECT_TO_ITSELF
    if not target.path.endswith("/chat/completions"):
        return REDIRECT_TO_NO_ENDPOINT
    return None


NO_URL_REDIRECT = (
    "the gateway answered with a redirect (not followed) to an address that is no URL: check LLM_BASE_URL "
    "(it usually ends in /v1)"
)


def no_url_redirect(exc: httpx.TransportError) -> bool:
    """Whether `exc`, raised by sending, is httpx building the redirect it will not follow from a
    `Location` that is no URL (`http://[::1`): the gateway answered, so it is neither unreachable nor
    worth retrying. For others (`mailto:x`) httpx raises `InvalidURL`, whose only source there it is
    (the base URL is checked when the client is made)."""
    return isinstance(exc, httpx.RemoteProtocolError) and str(exc).startswith("Invalid URL in location header")


def _elsewhere(response: httpx.Response, location: str | None) -> str | None:
    """Why the key must not go where a redirect points (from https to plain http, or to another
    host), or None."""
    try:
        asked, target = response.request.url, httpx.URL(location or "")
    except (RuntimeError, httpx.InvalidURL, ValueError):  # no request, or no URL at all
        return None
    if asked.scheme == "https" and target.scheme == "http":
        return (
            "plain http, where LLM_API_KEY would travel unencrypted — not followed; keep LLM_BASE_URL on https (ask "
            "the gateway's owner for its https address; not retried)"
        )
    if target.host and target.host.rstrip(".") != asked.host.rstrip("."):  # `host.` is the same host
        return (
            f"another host than LLM_BASE_URL's ({asked.host}) — not followed, so LLM_API_KEY was not sent there; "
            "only if you trust that host with your key, set LLM_BASE_URL to that address (without "
            "/chat/completions; not retried)"
        )
    return None


_DOUBLED = "/chat/completions/chat/completions"
"""A base URL that already names the endpoint: the most common LLM_BASE_URL slip."""
_CREDIT_STATUSES = frozenset({400, 402, 403, 429})
"""Statuses that may say the account is out of credit: never retried then (`_out_of_credit`)."""
RETRIED_STATUSES: Mapping[int, str] = MappingProxyType(
    {
        408: "request timeout: the gateway timed out waiting",
        409: "conflict: a lock on the gateway timed out (OpenAI)",
        424: "the generation failed on the model's server (text-generation-inference)",
        429: "rate limited",
        498: "the flex tier is at capacity (Groq)",
    }
)
"""The 4xx statuses retried, like every 5xx, and why: request timeout, conflict (a lock that timed out),
text-generation-inference's 424 (a generation that failed on its server, `"error_type": "generation"`:
a shard's CUDA out of memory, a lost connection to it; "Failed Dependency", not the request's fault),
rate limit, and Groq's 498 (its flex tier at capacity, `capacity_exceeded`:
console.groq.com/docs/flex-processing says to retry). Week 2's notebook shows its table from here."""
_TRANSIENT = frozenset(RETRIED_STATUSES)
_DEFAULT_HINT = "the request was rejected; fix it (not retried)"
NO_RETRY_HINT = (
    "the gateway says asking again will not help (x-should-retry: false); the message says what failed (not retried)"
)
"""A status retried as a rule (a 5xx, a 429) that the gateway's `x-should-retry: false` says not to retry."""
TOOLS_REFUSED_HINT = (
    "the model (or every provider serving it) takes no tools: choose a model with tool calling, or use the "
    "prompt-protocol fallback, which sends none (not retried)"
)
AZURE_VERSION_HINT = (
    "an Azure OpenAI deployment URL takes the API version in its query: add it to LLM_BASE_URL, e.g. "
    "https://<resource>.openai.azure.com/openai/deployments/<deployment>?api-version=2024-10-21 (not retried)"
)
AZURE_OTHER_VERSION_HINT = (
    "the api-version in LLM_BASE_URL is one this Azure resource, or this model, does not take: set one it does, "
    "e.g. ?api-version=2024-10-21, or the newer one the message names (a preview one for the newest models); "
    "on Azure's /openai/v1 address leave api-version out (not retried)"
)
_OTHER_VERSION = re.compile(
    r"\bapi[ -]?version (?:is )?not supported\b|\benabled only for api versions\b|\bunsupported api[ -]?version\b",
    re.IGNORECASE,
)
"""Azure OpenAI's 400 for an `api-version` it does not take ("API version not supported"; "Model o3-mini is
enabled only for api versions 2024-12-01-preview and later")."""
AZURE_DEPLOYMENT_HINT = (
    "Azure OpenAI has no deployment of that name in this resource: {where} must be a deployment's name (the name "
    "given when deploying, not the model's), and a deployment made in the last minutes may not be ready yet "
    "(not retried)"
)
"""Azure's 404 `DeploymentNotFound`: a deployment URL names the deployment in its path
(`…/openai/deployments/<name>`), Azure's `/openai/v1` address in the request's `model`."""
FILTERED_HINT = (
    "the gateway's content filter refused the prompt; rephrase the request, or check the gateway's filter (not retried)"
)
STARTED_WITHOUT_HINT = (
    "the server was started without what tool calling needs ({options}): restart it so, or use the "
    "prompt-protocol fallback, which sends no tools (not retried)"
)
URL_AUTH_HINT = (
    "LLM_BASE_URL carries user info (user:password@), which httpx sends as Basic auth in place of LLM_API_KEY: "
    "check that user and password, or take them out of LLM_BASE_URL to send LLM_API_KEY (not retried)"
)
PAGE_REFUSAL_HINT = (
    "a web page, not the API's answer: a proxy, firewall or sign-in page in front of the gateway refused the "
    "request, not the gateway's key check; check LLM_BASE_URL, and whether this network may reach the gateway "
    "(not retried)"
)
"""A 401 or 403 that is an HTML page: the API answers in JSON, so something in front of it refused."""
CDN_REFUSAL_HINT = (
    "Cloudflare in front of the gateway refused the request, not the gateway's key check: ask whoever runs the "
    "gateway, or try another network (not retried)"
)
"""A 401 or 403 that is Cloudflare's bare `error code: 1xxx`."""
_CALLER_HINTS = {
    400: "the gateway rejected the request body; fix it (not retried)",
    401: "check LLM_API_KEY (not retried)",
    403: (
        "the gateway refuses this request: the key may not use this model, or the account, region or network is "
        "not allowed; check LLM_MODEL and what the key may do (not retried)"
    ),
    404: "check LLM_BASE_URL (it usually ends in /v1) and LLM_MODEL (not retried)",
    405: (
        "the address takes no POST request, so it is not the API's chat endpoint: check LLM_BASE_URL (it usually "
        "ends in /v1) (not retried)"
    ),
    407: (
        "the HTTP proxy between this machine and the gateway asks for its own credentials: check HTTP_PROXY / "
        "HTTPS_PROXY (http://user:password@host:port), or unset them if the gateway needs no proxy (not retried)"
    ),
    410: (
        "the model (or the address) is gone, retired or removed: set LLM_MODEL to one the gateway serves now "
        "(GET <LLM_BASE_URL>/models lists them) (not retried)"
    ),
    412: (
        "the gateway refuses on the account's or the model's state, not the request's: check the account's status "
        "and billing in the provider's console, and that LLM_MODEL (a fine-tuned or LoRA model) is deployed and "
        "loads (not retried)"
    ),
    413: "the request is too large; shorten the conversation, or send fewer or smaller images (not retried)",
}
"""Each refusal status's fix. SambaNova answers 410 for a model it retired; Fireworks 412 for a suspended account
or a LoRA model that failed to load."""


def error_message(body: str) -> str:
    """What an error response says, on one line: the message of OpenAI's `{"error": {"message":
    …}}`, or of the shapes other gateways send (`{"error": "…"}` Ollama, `{"detail": "…"}` and
    FastAPI's list of problems, `{"message": "…"}` DashScope, `{"message": {"detail": [...]}}` Mistral,
    `{"error_msg": "…"}` Baidu Qianfan, `{"errors": [{"message": "…"}]}` Cloudflare); an HTML page (a proxy's, a CDN's) by its title (`toolkit.chat.pages`); else the
    body itself, on one line. Google's gateways wrap the error object in a one-item list."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return page_text(body) or cdn_code_text(body) or _one_line(body[:200]) or "(empty body)"
    if isinstance(data, list) and data and isinstance(data[0], dict):  # Google's: `[{"error": {…}}]`
        data = data[0]
    said = _one_line(_said(data)) if isinstance(data, dict) else ""
    return said or _one_line(body[:200])


_BAD_KEY = re.compile(
    r"\bapi[ _-]?key\b[^.]*\b(?:not valid|invalid|incorrect)\b|\b(?:invalid|incorrect)\b[^.]*\bapi[ _-]?key\b", re.I
)
"""A 400's words for a wrong key (Gemini sends one as a 400: "API key not valid"), not a bad body."""


_NO_MODEL = re.compile(
    r"\bmodel\b[^.]{0,80}\b(?:not exists?|does not exist|doesn't exist|not found|not loaded)\b"
    r"|\b(?:invalid|unknown) model\b|\bno models? (?:is |are )?loaded\b|模型[^。，,]{0,20}不存在",
    re.IGNORECASE,
)
"""A 400's, 404's or 422's words for a model the gateway does not serve (DeepSeek: "Model Not Exist"; Perplexity,
Mistral: "Invalid model"; LM Studio: "No models loaded"; Zhipu: "模型不存在"), not a bad body."""
_RESTRICTED = re.compile(
    r"\b(?:organi[sz]ation|account)\b[^.]{0,40}\b(?:has been|was|is) (?:restricted|disabled|suspended|deactivated|banned)\b",
    re.IGNORECASE,
)
"""A 400's or 403's words for an account its provider restricted (Groq: "Organization has been restricted";
Anthropic: "This organization has been disabled.")."""
RESTRICTED_HINT = (
    "the provider has restricted or disabled the account (organization) behind the key, not the request: check the "
    "account in the provider's console or ask its support, or use another key (not retried)"
)
_RETIRED = re.compile(
    r"\bmodel\b[^.]{0,80}\b(?:has been|was) (?:decommissioned|deprecated|retired|shut down|discontinued)\b",
    re.IGNORECASE,
)
"""A 400's or 404's words for a model its provider retired (Groq: "The model `…` has been decommissioned and is
no longer supported"; OpenAI: "The model `text-davinci-003` has been deprecated"): choose another, as a 410 says."""
_MODEL_CODE = re.compile(r'"code"\s*:\s*"model_not_(?:found|supported|available)"')
"""An error code naming the model as not served, whatever the words (Hugging Face's router: "model_not_supported";
Together's "model_not_available"; OpenAI's "model_not_found")."""
_NOT_PULLED = re.compile(r"\bnot found, try pulling it first\b", re.IGNORECASE)
"""Ollama's 404 for a model it has not downloaded: `model "qwen3:8b" not found, try pulling it first`."""
PULL_HINT = (
    "Ollama has not downloaded this model: run `ollama pull <LLM_MODEL>` where Ollama runs, or set LLM_MODEL to a "
    "name `ollama list` shows (with its tag, e.g. qwen3:8b) (not retried)"
)
MODEL_HINT = (
    "check LLM_MODEL: the gateway serves no model of that name (GET <LLM_BASE_URL>/models lists those it "
    "serves), or, on a local server, none is loaded (not retried)"
)

_REGION = re.compile(
    r"\blocation is not supported\b|\b(?:country|region|territory)\b[^.]{0,40}\bnot (?:supported|available)\b",
    re.IGNORECASE,
)
"""A 400's or 403's words for a provider that does not serve the place the request comes from."""
REGION_HINT = (
    "the provider does not serve the place this request comes from (its network's country or region): the request "
    "itself is fine; run it from a network in a region the provider serves, or use another gateway (not retried)"
)
"""The fix for a refusal of the learner's region (`_REGION`): not the body's, nor the key's."""


def _said(data: Any) -> str:
    """The message an error body holds (`toolkit.chat.error_body.message_of`), a router's relayed provider words
    and a LiteLLM proxy's wrapper read too; "" when it holds none in a shape known here."""
    said, error = message_of(data)
    return relayed(error, said) if error is not None else unwrapped(said)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def parse_completion(text: str) -> ChatResponse:
    """A chat-completion body → `ChatResponse`, or `BadResponseError` naming what is wrong. A
    gateway that streams whatever it is asked (some relays do) sends an event stream: it is
    assembled as `stream()` would assemble it."""
    if event_stream(text):
        return _assembled(text)
    page = page_text(text)
    if page is not None:  # a proxy's sign-in page, a web UI's home page: its title, not its markup
        raise BadResponseError(f"response body is not JSON but {page}; {PAGE_HINT}", status=200, body=text[:2000])
    try:
        data = read_json(text, "response body", status=200)
    except BadResponseError:  # NDJSON: Ollama's native API streams unless told "stream": false
        shape = native_shape(text)
        if shape is not None:
            raise NativeReplyError(shape, text) from None
        raise
    if not isinstance(data, dict):
        if listed_error(data):  # Google's one-item list of an error
            raise reported_error(error_of(data[0]), "answered 200 with an error", text[:2000], status=200)
        shape = native_shape(text)
        if shape is not None:  # the Inference API's list of one `generated_text`
            raise NativeReplyError(shape, text)
        raise BadResponseError("response body is not a JSON object", status=200, body=text[:2000])
    choices = data.get("choices")
    said = reported_instead(data)
    if said:  # OpenRouter and some proxies: 200 with an error body (an overload in it is transient)
        raise reported_error(said, "answered 200 with an error", text[:2000], status=200)
    if not isinstance(choices, list) or not choices:
        shape = native_shape(text)
        if shape is not None:  # a relay to Ollama's /api/chat, Anthropic's Messages, … not to their OpenAI API
            raise NativeReplyError(shape, text)
        said = _one_line(_said(data))[:200]  # a message in a shape of its own (`{"message": …}`, Cloudflare's `errors`)
        raise BadResponseError(
            "response has no choices" + (f"; the gateway says: {said}" if said else ""), status=200, body=text[:2000]
        )
    at = next((i for i, choice in enumerate(choices) if not isinstance(choice, dict) or choice_zero(choice)), None)
    if at is None:  # read as stream() reads it: choice 0, never another
        raise BadResponseError(no_choice_zero(repr(c.get("index"))[:20] for c in choices), status=200, body=text[:2000])
    choice = choices[at]
    if isinstance(choice, dict) and choice.get("error"):  # OpenRouter's `NonStreamingChoice.error`: no answer
        raise reported_error(choice["error"], "answered 200 with an error", text[:2000], status=200)
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        raise BadResponseError(f"choices[{at}] has no message", status=200, body=text[:2000])
    assistant = _assistant(message, text, at)
    given_id = data.get("id") or ""  # written as a number (as some servers write a call's: `ToolCall.from_openai`)
    try:
        response = ChatResponse(
            message=assistant,
            finish_reason=stated_reason(choice.get("finish_reason")),
            usage=TokenUsage.from_openai(data.get("usage")),
            model=data.get("model") or "",
            id=str(given_id) if type(given_id) is int else given_id,
            sources=sources_of(data) if "citations" in data or "search_results" in data else (),
        )
    except ValidationError as exc:
        raise BadResponseError(f"response is malformed: {_problems(exc)}", status=200, body=text[:2000]) from None
    return not_empty(not_cut(response, text[:2000]), text[:2000])


def reported_instead(data: Any) -> Any:
    """The error a 200 body reports instead of a completion (its `error`, or FastAPI's `detail`),
    or None: a body with choices, or that is no JSON object, reports none. A body in another
    error's shape (vLLM's `"object": "error"`, `{"code": 429, "msg": …}`: `said_instead`, as a
    stream's only chunk is read) is one when it names an overload, a rate limit or an empty
    account, or is vLLM's `ErrorResponse` or Baidu Qianfan's error (`_baidus`: a non-zero
    `error_code`, its `error_msg`): then it is retried, or said, as that chunk is; else it is "no
    choices"."""
    if not isinstance(data, dict) or data.get("choices"):
        return None
    said = error_of(data) or data.get("detail")
    if said:
        return said
    other = said_instead(data)
    if other is None or (
        not _baidus(data)
        and data.get("object") != "error"
        and isinstance(reported_error(other, "", ""), BadResponseError)
    ):
        return None
    return other


def _baidus(data: dict[str, Any]) -> bool:
    """Whether a body is Baidu Qianfan's error (a non-zero `error_code` with its `error_msg`), which it
    answers some requests with, in a 200."""
    return plainly_error(data) and isinstance(data.get("error_msg"), str) and bool(data["error_msg"].strip())


def _assembled(text: str) -> ChatResponse:
    """An event stream's reply, with the stream's rules (a cut stream is `TruncatedStreamError`)."""
    assembler = StreamAssembler()
    for line in sse_lines([text]):
        assembler.feed_line(line)
    return assembler.finish()


def _assistant(message: dict[str, Any], text: str, at: int = 0) -> AssistantMessage:
    try:
        return AssistantMessage.from_openai(message)
    except UnsupportedCallError as exc:  # a call OpenAI defines (a custom tool's): named, not "malformed"
        raise BadResponseError(f"choices[{at}].message: {exc}", status=200, body=text[:2000]) from exc
    except (KeyError, TypeError, ValueError) as exc:  # not chained: pydantic's text quotes the input, key and all
        problem = _problems(exc) if isinstance(exc, ValidationError) else _one_line(str(exc))
        raise BadResponseError(f"choices[{at}].message is malformed: {problem}", status=200, body=text[:2000]) from None


def _problems(exc: ValidationError) -> str:
    """pydantic's report on one line: `field: what is wrong (got value)` per problem."""
    return "; ".join(
        f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']} (got {e['input']!r:.60})" for e in exc.errors()
    )


def _check_tool_choice(choice: ToolChoice) -> ToolChoice:
    """`choice`, or a `ConfigurationError` (a developer's mistake, found before anything is sent):
    the rule `LoopOptions(tool_choice=...)` checks (`is_tool_choice`). The usual choice, a str,
    passes on one test."""
    if (type(choice) is str and choice in TOOL_CHOICES) or is_tool_choice(choice):
        return choice
    if isinstance(choice, str):
        problem = f"{choice[:60]!r} is not one of {sorted(TOOL_CHOICES)}"
    else:
        problem = f"{_cut(repr(choice), 80)} is neither one of {sorted(TOOL_CHOICES)} nor a named function"
    raise ConfigurationError(
        f"ChatClient: tool_choice {problem}; pass one of them, "
        'or {"type": "function", "function": {"name": "<tool name>"}} to force one tool'
    )


def _cut(text: str, limit: int) -> str:
    return cut(text, limit, "...")
