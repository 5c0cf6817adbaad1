"""Record real-gateway sessions to a cassette, and replay them offline through the same client.

A cassette is a JSON Lines file, one HTTP exchange per line:

    {"request": {"method": "POST", "path": "/chat/completions", "body": {...}},
     "response": {"status": 200, "content_type": "...", "retry_after": null, "body": "..."},
     "elapsed_ms": 812, "format": 1}

and, if the run read the clock, one line saying what it read: `{"clock": {"now": "…"}, "format": 1}`.
`format` is the cassette format the line was written in (`PLAIN_FORMAT`, 1; `UNREAD_FORMAT`, 2, for an
`unread` one; a line without one, from before it was written, is format 1): a line of a format newer
than this toolkit reads (`CASSETTE_FORMAT`) is refused, naming it, not misread.

A response that asked for a wait also keeps `retry_after_ms` and the `date` it was sent at (or,
from a server that sends no `Date`, the time it arrived: a `Retry-After` date replays the same wait);
a 429 keeps its `x-ratelimit-*` headers as `rate_limits` (the reset of a limit used up is its wait)
and an error its `x-should-retry` (`"false"`: not retried), so a replayed one waits or raises as the
recorded one did (a body's wait, Google's `RetryInfo` or the words, is in the body already); a
redirect keeps its `location` (keys in it masked), which its error names; one that broke off (a timeout, a dropped connection) keeps how, as `broke` (`"ReadTimeout"`), and
replay breaks it off there the same way. One its reader stopped at its bound (a reply past
`ChatClient.max_reply_bytes`, which the client tells the transport as the request extension
`charset.READ_AT_MOST`: the gateway went on; not one a loop left early) keeps `"unread": true` and
at most its first `UNREAD_KEPT` bytes (1 MiB, so a cassette holds it within its own cap), and
replay serves them a line at a time, then goes on until just past the replaying client's bound, so
it stops there again with the same `ReplyTooLongError`. A request that got no answer at all (refused,
timed out) is a line with `failed` (`"ConnectError"`) and `why` (its text) instead of a response, and replay
fails it the same way. Both name httpx's own class (a transport's subclass of `ReadTimeout` is
`"ReadTimeout"`); a name that is none of httpx's transport errors is refused when read.
The body is kept as the client read it: decompressed (gateways gzip their answers) and decoded
by its charset; replay serves it as UTF-8. A body that does not fit its `Content-Encoding`
is kept as it came, with `content_encoding`, so replay fails on it as the recorded run did.

Only the request *body* and path are kept — never headers, so never the API key; and should
the gateway echo the key back ("Incorrect API key provided: sk-…") from any credential header
(`Authorization`, Azure's `api-key`, `x-api-key`, ...), it is masked before the body is written,
in the response and in any later request that quotes it. Paths are kept relative to the API root
(`/chat/completions`, whatever the base URL's own path: `/v1`, `/api/v1`, …), so a cassette
replays under any base URL, with the request's keys masked and keys of known formats scrubbed. Streamed
responses are recorded chunk for chunk as they pass through (the learner still sees them
stream) and written when the stream is finished.

`RecordingTransport` wraps the real transport; `ReplayTransport` serves a cassette with no
network at all. Replay matches a request to the first unused recording with the same path and
body (so concurrent runs replay too); a request sent more often than it was recorded says so;
a request nobody recorded fails with `CassetteMismatch` and a diff against the nearest
recording. A shared cassette lets a class without keys see a real model's behaviour, mistakes
included. A cassette that cannot be read, or holds a line that is not an exchange (a run killed
mid-write, a hand edit, a key given twice in one object), is a `CassetteError` naming the file and
the line (a last line the file ends inside, as a killed run leaves it, is said to be that, with the fix: delete
it to replay the lines before it); so is one recorded with another tool (VCR.py's JSON, a HAR file: no line is an
exchange). It is never rewritten.

A recording is only ever added to a cassette (`not_a_cassette`, checked before the first request
and before the clock's line): a file whose first line is no cassette line is refused, whether named
itself (`LLM_RECORD=notes.txt`) or reached through a link (a link to `/etc/passwd` had an exchange
appended to it by a run as root, as a link to `~/.bashrc` would); so is a link to a file still to be
made in another folder than the link's. A link to a cassette, or to a file to be made beside it, is
followed, once: each line goes to the file checked, never through a link or another file put in its place
while the run records (`toolkit.chat.cassette_append`).

The run's clock (`toolkit.chat.clock`) is recorded in the cassette and
reused on replay, so a cassette recorded today replays tomorrow.

Request and response bodies pass through `toolkit.tools.redact.scrub` before they are written
(labelled secrets, known key formats, credentials in URLs, file paths); replay scrubs the request
it is asked for the same way, so matching is unchanged. A JSON body (or stream line) is scrubbed
string by string (`scrubbed_body`), so it stays JSON; a streamed reply's text is scrubbed across
its chunks (`toolkit.chat.stream_scrub`), so a key written in pieces is recorded in none.

Leaves out: secrets the sanitiser cannot recognise (don't record conversations with secrets).
"""

from __future__ import annotations

import difflib
import email.utils
import json
import os
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from toolkit.chat.cassette_append import SNIFFED, append_line, cassette_head, target
from toolkit.chat.charset import READ_AT_MOST, inflated, left_undone, undone
from toolkit.chat.masking import header_secrets, mask_json, mask_keys, url_secrets
from toolkit.chat.proxies import EnvironmentTransport
from toolkit.chat.stream_scrub import scrub_event_stream

__all__ = [
    "RECORD_VAR",
    "REPLAY_VAR",
    "RecordingTransport",
    "ReplayTransport",
    "relative_path",
]
from toolkit import files
from toolkit.errors import CassetteError, CassetteMismatch
from toolkit.tools import redact

RECORD_VAR, REPLAY_VAR = "LLM_RECORD", "LLM_REPLAY"
CASSETTE_FORMAT = 2
"""The newest cassette format this toolkit reads (this one and older; a line without one is format 1).
A change that older toolkits would misread raises it, and a line that holds it says so (2: a reply
cut at the client's bound, `"unread"`); every other line is written as `PLAIN_FORMAT`, which older
toolkits read."""
PLAIN_FORMAT = 1
"""The format of a line that needs nothing newer (`"format": 1`)."""

API_ENDPOINTS = ("/chat/completions", "/completions", "/embeddings", "/models")
"""The OpenAI API's own paths; what comes before them is the base URL's path."""


def relative_path(path: str) -> str:
    """`path` relative to the API root: `/api/v1/chat/completions` → `/chat/completions`."""
    for endpoint in API_ENDPOINTS:
        at = path.find(endpoint)
        if at != -1:
            return path[at:]
    return path


def _canonical(body: bytes, secrets: list[str | None]) -> Any:
    """The body as JSON, the request's own key (should the conversation quote it), other secrets
    and paths scrubbed (the same at record and replay, so they match)."""
    try:
        return redact.scrub_json(mask_json(json.loads(body), secrets)) if body else None
    except ValueError:
        return redact.scrub(mask_keys(body.decode("utf-8", "replace"), secrets))


def _secrets(request: httpx.Request) -> list[str | None]:
    """The keys a request carries: the credentials of its headers (`header_secrets`: a bearer key,
    Azure's `api-key`, an `x-api-key`, ...) and any in its URL (as they are, and as the `Basic`
    credential httpx sends for them)."""
    url = str(request.url)
    return [*header_secrets(request.headers.multi_items()), *url_secrets(url)]


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1)


class _Tee(httpx.SyncByteStream):
    """Passes chunks through and records the whole body once the stream is done, how it broke off
    if it did (a timeout, a dropped connection: the name of httpx's error), and whether its reader
    stopped before its end at its bound (`unread`: a reply past `ChatClient.max_reply_bytes`, `_past`)."""

    def __init__(self, stream: Any, done: Any, read_at_most: int | None, headers: httpx.Headers) -> None:
        self._stream, self._done = stream, done
        self._chunks: list[bytes] = []
        self._broke: str | None = None
        self._ended = False
        self._read_at_most, self._headers = read_at_most, headers

    def __iter__(self) -> Iterator[bytes]:
        try:
            for chunk in self._stream:
                self._chunks.append(chunk)
                yield chunk
        except httpx.TransportError as exc:
            self._broke = _httpx_name(exc)
            raise
        self._ended = True

    def close(self) -> None:
        if self._done is not None:
            content = b"".join(self._chunks)
            unread = not self._ended and self._broke is None and _past(self._headers, content, self._read_at_most)
            self._done(content, self._broke, unread)
            self._done = None
        self._stream.close()


def _past(headers: httpx.Headers, content: bytes, limit: int | None) -> bool:
    """Whether `content` (as it came, its encoding undone step by step) goes past `limit` bytes: a
    reply its reader stopped at the bound, not one it left (a loop that broke off early)."""
    if limit is None:
        return False
    size = 0
    try:
        for piece in inflated([content], undone(headers)):
            size += len(piece)
            if size > limit:
                return True
    except httpx.DecodingError:  # the reader stopped on that (and it replays the same)
        return False
    return False


class _GoesOn(httpx.SyncByteStream):
    """A recorded body whose reader stopped at its bound, served a line at a time (the events
    before the bound are shown again), then going on (spaces) as the recorded one did, until just
    past `read_at_most` (the replaying client's bound: it stops there again, `ReplyTooLongError`),
    or, for a reader that gives none, `GOES_ON_BYTES`."""

    def __init__(self, content: bytes, read_at_most: int | None) -> None:
        self._content = content
        self._length = GOES_ON_BYTES if read_at_most is None else read_at_most + 1

    def __iter__(self) -> Iterator[bytes]:
        yield from self._content.splitlines(keepends=True)
        filler = b" " * (64 * 1024)
        for _ in range(-(-max(0, self._length - len(self._content)) // len(filler))):
            yield filler


class _Breaks(httpx.SyncByteStream):
    """A recorded body served as it arrived, then broken off the way the recorded one was."""

    def __init__(self, content: bytes, error: type[httpx.TransportError]) -> None:
        self._content, self._error = content, error

    def __iter__(self) -> Iterator[bytes]:
        yield self._content
        raise self._error("the recorded response broke off here")


class _Whole(httpx.SyncByteStream):
    """A recorded body served unread, as a transport serves one: its client undoes its encoding (and
    tells a body that does not fit it as the recorded run told it: `toolkit.chat.not_compressed`)."""

    def __init__(self, content: bytes) -> None:
        self._content = content

    def __iter__(self) -> Iterator[bytes]:
        yield self._content


def _transport_error(name: Any) -> type[httpx.TransportError] | None:
    """httpx's transport error class named `name` (a cassette's `broke` or `failed`), else None."""
    error = getattr(httpx, name, None) if isinstance(name, str) else None
    return error if isinstance(error, type) and issubclass(error, httpx.TransportError) else None


def _httpx_name(error: BaseException) -> str:
    """The name of httpx's own class that `error` is (a transport's subclass of `ReadTimeout` is
    `"ReadTimeout"`): the name replay raises again (`_transport_error`)."""
    return next((kind.__name__ for kind in type(error).__mro__ if _transport_error(kind.__name__) is kind), "")


class RecordingTransport(httpx.BaseTransport):
    """Forwards to `inner` and appends every exchange to the cassette at `path`."""

    path: Path
    """The cassette file every exchange is appended to."""
    inner: httpx.BaseTransport
    """The transport that really sends (unless given, an `EnvironmentTransport`: the proxy variables
    followed as a client without a transport of its own follows them)."""

    def __init__(self, path: str | Path, inner: httpx.BaseTransport | None = None) -> None:
        self.path = _writable(Path(path))
        self.inner = inner or EnvironmentTransport()
        self._lock = threading.Lock()
        self._target = target(self.path)  # resolved once: a link pointed elsewhere later is not followed
        self._checked: set[tuple[int, ...]] = set()  # the files judged a cassette, its folder (`cassette_append`)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        secrets = _secrets(request)
        start = time.perf_counter()
        try:
            response = self.inner.handle_request(request)
        except httpx.TransportError as exc:  # no answer at all (refused, timed out): replay fails the same
            self._write_failure(request, body, exc, time.perf_counter() - start, secrets)
            raise

        def done(content: bytes, broke: str | None, unread: bool) -> None:
            self._write(request, body, response, content, time.perf_counter() - start, secrets, broke, unread)

        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_Tee(response.stream, done, _read_at_most(request), response.headers),
            extensions=response.extensions,
        )

    def _write_failure(
        self, request: httpx.Request, body: bytes, failed: Exception, elapsed: float, secrets: list[str | None]
    ) -> None:
        text = mask_keys(str(failed), secrets)
        line: dict[str, Any] = {"request": _recorded_request(request, body, secrets), "failed": _httpx_name(failed)}
        line |= {"why": redact.scrub(text), "elapsed_ms": round(elapsed * 1000), "format": PLAIN_FORMAT}
        _append(self, line)

    def _write(
        self,
        request: httpx.Request,
        body: bytes,
        response: httpx.Response,
        content: bytes,
        elapsed: float,
        secrets: list[str | None],
        broke: str | None = None,
        unread: bool = False,
    ) -> None:
        text, undecoded = (unread_text if unread else recorded_text)(response.headers, content)
        text = mask_keys(text, secrets)
        recorded: dict[str, Any] = {
            "status": response.status_code,
            "content_type": response.headers.get("content-type", ""),
            "retry_after": response.headers.get("retry-after"),
            "body": scrubbed_body(text, secrets),
            **_waits(response.headers),
            **_limits(response, secrets),
            **_location(response.headers, secrets),
        }
        if undecoded:
            recorded["content_encoding"] = undecoded
        if broke:
            recorded["broke"] = broke
        if unread:
            recorded["unread"] = True
        line = {"request": _recorded_request(request, body, secrets), "response": recorded}
        written = UNREAD_FORMAT if unread else PLAIN_FORMAT  # an older toolkit would misread "unread": refused
        _append(self, {**line, "elapsed_ms": round(elapsed * 1000), "format": written})

    def close(self) -> None:
        """Close the transport the requests went through."""
        self.inner.close()


def _read_at_most(request: httpx.Request) -> int | None:
    """How much of the reply the client reads (`toolkit.chat.charset.READ_AT_MOST`), if it says."""
    limit = request.extensions.get(READ_AT_MOST)
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def _recorded_request(request: httpx.Request, body: bytes, secrets: list[str | None]) -> dict[str, Any]:
    return {"method": request.method, "path": _recorded_path(request, secrets), "body": _canonical(body, secrets)}


def _recorded_path(request: httpx.Request, secrets: list[str | None]) -> str:
    """The request's path relative to the API root, with the request's own keys masked and keys of
    known formats scrubbed (a gateway may take its key in the path: `/u/<key>/v1/…`); its other
    segments kept as they are (a model's or a deployment's name: `redact.scrub_secrets`)."""
    return redact.scrub_secrets(mask_keys(relative_path(request.url.path), secrets))


_KEPT_HEADERS = ("retry-after-ms", "date", "content-encoding", "location", "x-should-retry")
"""Response headers replay serves when the cassette holds them (as `retry_after_ms`, ...)."""
_LIMITS = "x-ratelimit-"
"""How the rate-limit headers a 429's wait is read from begin (`toolkit.chat.rate_limits.reset_wait`)."""


def _limits(response: httpx.Response, secrets: list[str | None]) -> dict[str, Any]:
    """What else the client reads an error's wait or its retry from: a 429's `x-ratelimit-*` headers
    (as `rate_limits`, by their lower-case names; a value masked as a body is, should a gateway put a
    key there) and an error's `x-should-retry` (the gateway's own word on retrying it); nothing when
    the response sent none, or is no error (a 200's limits say no wait: not kept)."""
    if response.status_code < 400:
        return {}
    kept: dict[str, Any] = {}
    said = response.headers.get("x-should-retry")
    if said is not None:
        kept["x_should_retry"] = said
    if response.status_code == 429:
        limits = {
            name.lower(): redact.scrub_secrets(mask_keys(value, secrets))
            for name, value in response.headers.items()
            if name.lower().startswith(_LIMITS)
        }
        if limits:
            kept["rate_limits"] = limits
    return kept


def _waits(headers: httpx.Headers) -> dict[str, str]:
    """The headers the client reads a wait from besides `Retry-After`, when sent: the wait in
    milliseconds, and the server's `Date` that a `Retry-After` date is measured against — or, from a
    server that sent none, the time it arrived (the client measured it against that; replay, a day
    later, would measure it against its own clock and find the wait long over)."""
    kept = {"retry_after_ms": headers.get("retry-after-ms")}
    if headers.get("retry-after"):
        kept["date"] = headers.get("date") or email.utils.formatdate(time.time(), usegmt=True)
    return {name: value for name, value in kept.items() if value is not None}


def _location(headers: httpx.Headers, secrets: list[str | None]) -> dict[str, str]:
    """Where a redirect points (its error names it), with the request's keys masked and keys of known
    formats scrubbed (a `Location` may carry one in its query); nothing when there is none."""
    location = headers.get("location")
    return {"location": redact.scrub_secrets(mask_keys(location, secrets))} if location else {}


def recorded_text(headers: httpx.Headers, content: bytes, at_most: int | None = None) -> tuple[str, str | None]:
    """(the body as text, None), decoded as the client reads it: its `Content-Encoding` undone as the
    client undoes it (`charset.inflated`: gzip, x-gzip, deflate, br, zstd, and a gzip no header names;
    most gateways compress), at most `at_most` bytes of it when given, and its charset applied. A body
    its encoding does not fit is kept as it came, with that encoding, for replay to fail on the same way."""
    if left_undone(headers):  # the client reads none of it (`cannot_undo`): kept for replay to refuse the same
        return content[:at_most].decode("utf-8", "replace"), headers.get("content-encoding")
    names = undone(headers)
    try:  # a gzip that no header names too (`charset.unwrapped`)
        content = b"".join(_bounded(inflated([content], names), at_most))
    except httpx.DecodingError:
        return content[:at_most].decode("utf-8", "replace"), headers.get("content-encoding")
    if names:
        headers = httpx.Headers(headers)
        del headers["content-encoding"]
    try:
        return httpx.Response(200, headers=headers, content=content[:at_most]).text, None
    except httpx.DecodingError:  # pragma: no cover - an encoding httpx undoes and `undone` does not (none today)
        return content[:at_most].decode("utf-8", "replace"), headers.get("content-encoding")


def _bounded(pieces: Iterator[bytes], at_most: int | None) -> Iterator[bytes]:
    """`pieces`, no more of them than it takes to make `at_most` bytes (all of them for None)."""
    size = 0
    for piece in pieces:
        yield piece
        size += len(piece)
        if at_most is not None and size >= at_most:
            return


UNREAD_KEPT = 1 << 20
"""How many bytes (inflated) of a reply its reader stopped reading a cassette keeps: a reply cut at
`ChatClient.max_reply_bytes` (64 MiB) kept whole would fill a cassette's cap (`MAX_CASSETTE_BYTES`)."""
GOES_ON_BYTES = 4 * 64 * 1024 * 1024
"""How long replay makes an `unread` reply (`_GoesOn`) for a reader that does not say its bound: past
ChatClient's own (64 MiB), short of what a reader with none could not hold."""


def unread_text(headers: httpx.Headers, content: bytes) -> tuple[str, str | None]:
    """As `recorded_text`, for a body its reader stopped reading: its first `UNREAD_KEPT` bytes,
    inflated no further (`charset.inflated`: 64 KB of gzip can be 64 MB)."""
    return recorded_text(headers, content, UNREAD_KEPT)


def scrubbed_body(text: str, secrets: Sequence[str | None] = ()) -> str:
    """A response body with secrets and paths scrubbed (`redact.scrub`), still the JSON (or the
    event stream of JSON) it was. Scrubbed as raw text, a body's JSON can break: a tool call's
    arguments with `\\u` escapes are escaped twice in the body (`\\\\u670d\\\\u88c5\\"}`), which reads
    as a Windows share path and was cut into `<path>"}`, so replay failed on "not JSON". A body
    (or `data:` line) that is JSON has its strings scrubbed one by one instead, and stays as it
    came, byte for byte, when none of them changes. An event stream's texts are first scrubbed
    across its chunks (`scrub_event_stream`): a key the model wrote in two pieces is in neither."""
    text = scrub_event_stream(text, secrets)  # the request's own key too, split over chunks
    scrubbed = redact.scrub(text)
    if scrubbed == text:
        return text
    whole = _scrubbed_json(text)
    if whole is not None:
        return whole
    if "data:" not in text:
        return scrubbed
    return "".join(_scrubbed_line(line) for line in text.splitlines(keepends=True))


def _scrubbed_line(line: str) -> str:
    """One line of an event stream, scrubbed: a `data:` line's JSON string by string."""
    body = line.rstrip("\r\n")
    end = line[len(body) :]
    if body.startswith("data:"):
        payload = body[5:].lstrip(" ")
        whole = _scrubbed_json(payload)
        if whole is not None:
            return body[: len(body) - len(payload)] + whole + end
    return redact.scrub(body) + end


def _scrubbed_json(text: str) -> str | None:
    """`text` with each JSON string scrubbed: `text` itself when nothing changes, None when it
    is not JSON (or is a bare string or number: nothing structural to keep)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, (dict, list)):
        return None
    scrubbed = redact.scrub_json(value)
    if scrubbed == value:
        return text
    return json.dumps(scrubbed, ensure_ascii=False, separators=(",", ":"))


def served_content_type(content_type: str) -> str:
    """`content_type` with any charset said to be UTF-8: a cassette keeps the body as text, and
    replay serves it as UTF-8 whatever charset the gateway used."""
    media, *params = content_type.split(";")
    kept = [p for p in params if p.strip() and not p.strip().lower().startswith("charset=")]
    if len(kept) == len(params):
        return content_type
    return "; ".join([media.strip(), *(p.strip() for p in kept), "charset=utf-8"])


class ReplayTransport(httpx.BaseTransport):
    """Serves the recorded responses of a cassette; never touches the network."""

    path: Path
    """The cassette file read."""
    exchanges: list[dict[str, Any]]
    """The recorded exchanges (the cassette's lines that have a `request`), in order."""
    clock: datetime | None
    """What the recorded run read from the clock (None if it did not)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        lines = read_cassette(self.path)
        self.exchanges = [line for line in lines if "request" in line]
        for exchange in self.exchanges:
            path = redact.scrub_secrets(relative_path(exchange["request"]["path"]))  # as new recordings
            exchange["request"] = {**exchange["request"], "path": path}
            try:
                exchange["request"]["body"] = redact.scrub_json(exchange["request"]["body"])  # as new recordings
            except RecursionError:
                raise CassetteError(f"cassette {self.path}: a request body nests too deeply to read") from None
        self.clock = next((parse_clock(line["clock"]) for line in lines if "clock" in line), None)
        self._used: set[int] = set()
        self._unused: dict[Any, list[int]] = {}
        """The unused recordings, in order, by `_request_key` of their request: a request is looked for
        among those that may equal it, not through every recording (10,000 exchanges replayed took
        6 s in order, 63 s in reverse: each request compared with every recording before its own)."""
        for index, exchange in enumerate(self.exchanges):
            self._unused.setdefault(_request_key(exchange["request"]), []).append(index)
        self._lock = threading.Lock()

    @property
    def remaining(self) -> int:
        """How many recorded exchanges no request has replayed yet."""
        return len(self.exchanges) - len(self._used)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        secrets = _secrets(request)
        body = _canonical(request.read(), secrets)
        wanted = {"method": request.method, "path": _recorded_path(request, secrets), "body": body}
        with self._lock:
            alike = self._unused.get(_request_key(wanted), [])
            index = next((i for i in alike if self.exchanges[i]["request"] == wanted), None)
            if index is None:
                raise CassetteMismatch(self._mismatch(wanted))
            alike.remove(index)
            self._used.add(index)
        if "failed" in self.exchanges[index]:
            failed = _transport_error(self.exchanges[index]["failed"]) or httpx.ConnectError  # checked when read
            why = self.exchanges[index].get("why")
            raise failed(why if isinstance(why, str) else "the recorded request got no answer", request=request)
        recorded = self.exchanges[index]["response"]
        headers = {"content-type": served_content_type(recorded["content_type"])}
        for name in ("retry-after", *_KEPT_HEADERS):
            if isinstance(recorded.get(name.replace("-", "_")), str):
                headers[name] = recorded[name.replace("-", "_")]
        headers.update(recorded.get("rate_limits") or {})  # checked when read: names of x-ratelimit-*, strings
        content = recorded["body"].encode("utf-8")
        broke = _transport_error(recorded.get("broke"))
        if recorded.get("unread") is True:
            return httpx.Response(recorded["status"], headers=headers, stream=_GoesOn(content, _read_at_most(request)))
        if broke is not None:
            return httpx.Response(recorded["status"], headers=headers, stream=_Breaks(content, broke))
        if "content-encoding" in headers:  # a body its encoding does not fit: read by the client, as it came
            return httpx.Response(recorded["status"], headers=headers, stream=_Whole(content))
        return httpx.Response(recorded["status"], headers=headers, content=content)

    def _mismatch(self, wanted: dict[str, Any]) -> str:
        replayed = sum(1 for e in self.exchanges if e["request"] == wanted)
        if replayed:
            times = "once" if replayed == 1 else f"{replayed} times"
            return (
                f"cassette {self.path.name}: this request was already replayed {replayed} "
                f"time{'s' if replayed > 1 else ''} (it was recorded {times}); this run sends it more often "
                "than the recorded run did"
            )
        unused = [e["request"] for i, e in enumerate(self.exchanges) if i not in self._used]
        if not unused:
            return (
                f"cassette {self.path.name}: all {len(self.exchanges)} recorded exchanges are used; "
                "this run sends more requests than the recording did"
            )
        lines = _dump(wanted).splitlines()
        nearest = max(unused, key=lambda r: _nearness(_dump(r).splitlines(), lines))
        diff = "\n".join(
            difflib.unified_diff(_dump(nearest).splitlines(), lines, "recorded", "this request", lineterm="", n=2)
        )
        return f"cassette {self.path.name}: no recording matches this request; nearest differs:\n{diff}"


def _nearness(recorded: list[str], wanted: list[str]) -> tuple[float, float]:
    """How near a recorded body is to the request, as the diff shows them: the share of lines alike,
    then (to tell apart recordings that differ in as many lines) how alike the differing lines are,
    by characters, at most `_NEAR_CHARS` of them. Comparing whole bodies by characters took seconds
    on long conversations (difflib is quadratic in a text's length); so did comparing each line with
    every repeat of it (`{`, `"role": "user"` in each message): in a body of 200 lines or more, the
    lines that make up over 1% of it are only matched next to the lines around them (difflib's
    `autojunk`), 100 recordings of 100 messages took 27 s to tell the nearest, and take about 1 s."""
    matcher = difflib.SequenceMatcher(None, recorded, wanted)
    ours, theirs = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            ours += recorded[i1:i2]
            theirs += wanted[j1:j2]
    alike = difflib.SequenceMatcher(None, "\n".join(ours)[:_NEAR_CHARS], "\n".join(theirs)[:_NEAR_CHARS])
    return matcher.ratio(), alike.ratio()


_NEAR_CHARS = 2_000


_KEY_DEPTH = 32
"""How deep `_request_key` reads a request: below, a list or an object is known by its kind only."""


def _request_key(value: Any, depth: int = _KEY_DEPTH) -> Any:
    """A hashable form of a recorded request (JSON values) that two equal requests share: objects as
    sets of pairs, lists as tuples, numbers as they are (`1 == 1.0` hash alike), and below `_KEY_DEPTH`
    levels a list or an object as its kind. Two requests with the same key may still differ (they are
    compared with `==`); two with different keys never are equal."""
    if isinstance(value, dict):
        return frozenset((k, _request_key(v, depth - 1)) for k, v in value.items()) if depth else dict
    if isinstance(value, list):
        return tuple(_request_key(v, depth - 1) for v in value) if depth else list
    return value


def read_cassette(path: Path) -> list[dict[str, Any]]:
    """The cassette's lines, each an exchange or a clock reading (other objects are kept, unread);
    a file or line that is neither, or a file none of whose lines is either (another tool's
    recording), is a `CassetteError` naming it (the file is not touched)."""
    text = cassette_text(path)
    # Lines end at "\n" only (JSON Lines): `splitlines` would also cut at U+2028, U+2029 and U+0085,
    # which a body recorded with `ensure_ascii=False` holds as they are (a reply quoting a PDF, say).
    numbered = [(number, line) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    try:
        cut = numbered[-1][0] if numbered and not text.endswith("\n") else None  # the file ends inside it
        lines = [_checked_line(path, number, line, number == cut) for number, line in numbered]
    except CassetteError:
        if len(numbered) > 1 and _one_document(text):  # VCR.py's JSON cassette, a HAR file: indented
            raise _foreign(
                path, f"is one JSON document over {len(numbered)} lines, not one exchange per line"
            ) from None
        raise
    if lines and not any("request" in line or "clock" in line for line in lines):
        count = f"{len(lines)} line{'s' if len(lines) > 1 else ''}"
        keys = ", ".join(sorted(map(str, lines[0])))[:80] or "no key"
        raise _foreign(path, f'holds no exchange: none of its {count} has a "request" (line 1 has {keys})')
    return lines


def _one_document(text: str) -> bool:
    """Whether `text` is one JSON object or array written over several lines (not JSON Lines)."""
    try:
        return isinstance(json.loads(text), (dict, list))
    except (ValueError, RecursionError):
        return False


def _foreign(path: Path, problem: str) -> CassetteError:
    """A cassette that is no toolkit cassette: another tool's recording (VCR.py, HAR), or another file."""
    error = CassetteError(
        f"cassette {path} {problem}: it is not a toolkit cassette (JSON Lines, as {RECORD_VAR} writes them); one "
        f"recorded with another tool (VCR.py, a HAR file) cannot be replayed: record one with {RECORD_VAR}"
    )
    error.hint = f"No line of it is to fix: record the session with {RECORD_VAR}=..., or unset {REPLAY_VAR}."
    return error


MAX_CASSETTE_BYTES = 64 * 1024 * 1024
"""A cassette larger than this is refused unread (a long course session with streamed replies is a few
MB; a whole term of one class's runs, tens of MB)."""


def parse_clock(value: Any) -> datetime:
    """A cassette's `clock` entry as a datetime."""
    return datetime.fromisoformat(value["now"])


def cassette_text(path: Path) -> str:
    """The cassette file's text: a regular file of at most `MAX_CASSETTE_BYTES` of UTF-8 (a
    byte-order mark before it left out), else a `CassetteError` naming it."""
    try:
        return files.read_text(
            path,
            MAX_CASSETTE_BYTES,
            where=f"cassette {path} cannot be read",
            cap_name="toolkit.chat.cassette.MAX_CASSETTE_BYTES",
            fix="record shorter sessions, one cassette each (LLM_RECORD=another file)",
            error=CassetteError,
        ).removeprefix("\ufeff")  # a byte-order mark: saved by an editor on Windows
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "it is not UTF-8 text"
        raise CassetteError(f"cassette {path} cannot be read: {reason}") from None


def _checked_line(path: Path, number: int, text: str, cut: bool = False) -> dict[str, Any]:
    """Line `number` read as an exchange (`cut`: the last one, with no line break after it: a run
    that stopped while it wrote it leaves it so, and its not being JSON is said as that)."""
    try:
        line = json.loads(text, object_pairs_hook=_unique_keys)
    except _GivenTwice as twice:
        raise CassetteError(
            f"cassette {path}, line {number}: the key {twice.key!r:.60} is given twice in one object; keep one "
            "(replay would silently use the last)"
        ) from None
    except (ValueError, RecursionError):
        if cut:
            raise CassetteError(
                f"cassette {path}, line {number}: not JSON, and the file ends inside it (a run stopped while "
                f"writing it?): {text[:80]!r}; delete that line to replay the lines before it"
            ) from None
        raise CassetteError(f"cassette {path}, line {number}: not JSON: {text[:80]!r}") from None
    problem = _line_problem(line)
    if problem:
        raise CassetteError(f"cassette {path}, line {number}: {problem}")
    return line


class _GivenTwice(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict, or `_GivenTwice` for a key given twice (json's C scanner calls it)."""
    value = dict(pairs)
    if len(value) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _GivenTwice(key)
            seen.add(key)
    return value


def _line_problem(line: Any) -> str:
    """What makes `line` neither an exchange nor a clock reading, or "" if it is fine."""
    if not isinstance(line, dict):
        return f"not a JSON object but {type(line).__name__}"
    written = _format_problem(line.get("format", 1))
    if written:
        return written
    if "clock" in line:
        try:
            parse_clock(line["clock"])
        except (KeyError, TypeError, ValueError):
            return f'the clock is not {{"now": "<ISO date and time>"}}: {line["clock"]!r:.80}'
    if "request" not in line:
        half = sorted(key for key in _EXCHANGE_KEYS if key in line)
        if half:  # an exchange whose request was dropped: ignored, it made replay fail later, far from here
            return f"an exchange without its request (the line has {', '.join(half)}); {_PUT_BACK}"
        return ""
    request, response = line["request"], line.get("response")
    if not isinstance(request, dict):
        return f"request is not an object of method, path and body but {_kind(request)}; {_PUT_BACK}"
    missing = _field_problem("request", request, method=str, path=str) or (
        "" if "body" in request else "request has no body"
    )
    if missing:
        return f"{missing}; {_PUT_BACK}"
    if "failed" in line:
        return _failed_problem(line)
    if not isinstance(response, dict):
        return f"response is not an object of status, content_type and body but {_kind(response)}; {_PUT_BACK}"
    missing = _field_problem("response", response, status=int, content_type=str, body=str)
    if missing:
        return f"{missing}; {_PUT_BACK}"
    if not 100 <= response["status"] <= 999:  # hand-edited: -1 would replay as a success
        return f"response status {response['status']} is no HTTP status (three digits, 100 to 999)"
    for name in ("retry_after", "retry_after_ms", "date", "content_encoding", "location", "x_should_retry"):
        if response.get(name) is not None and not isinstance(response[name], str):  # replay serves strings only
            return f"response {name} is not a string"
    if not _limits_fit(response.get("rate_limits", {})):
        return f"response rate_limits is not an object of {_LIMITS}* header names and their values (strings)"
    if not isinstance(response.get("unread", False), bool):
        return "response unread is not true or false"
    if "broke" in response and _transport_error(response["broke"]) is None:  # else replayed whole, as not cut
        return f"response broke {response['broke']!r:.40} is not the name of {_BROKE_ERRORS}"
    try:
        response["body"].encode("utf-8")
    except UnicodeEncodeError:  # an escaped lone surrogate: what is served must be UTF-8
        return "response body holds a lone surrogate (\\ud800-\\udfff), which is not text"
    return ""


_EXCHANGE_KEYS = frozenset({"response", "failed", "why", "elapsed_ms"})
"""The keys of an exchange besides its request: a line with one of them and no request lost it."""
_PUT_BACK = "put it back as it was recorded, or record the cassette again (LLM_RECORD=<file>)"
_WORDS = {int: "a number", str: "a string"}


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def _field_problem(part: str, record: dict[str, Any], **types: type) -> str:
    """The first of `types`' keys `record` lacks or holds with another type, said so ("response has no
    status (a number)", "response status is not a number but str"), or ""."""
    for key, kind in types.items():
        if key not in record:
            return f"{part} has no {key} ({_WORDS[kind]})"
        if not isinstance(record[key], kind) or isinstance(record[key], bool):
            return f"{part} {key} is not {_WORDS[kind]} but {_kind(record[key])}"
    return ""


def _limits_fit(limits: Any) -> bool:
    """Whether a line's `rate_limits` is what replay can serve as headers: `x-ratelimit-*` names, string values."""
    return isinstance(limits, dict) and all(
        isinstance(value, str) and name.startswith(_LIMITS) and name.isascii() and "\n" not in value + name
        for name, value in limits.items()
    )


_BROKE_ERRORS = "an httpx transport error (ReadTimeout, ReadError, RemoteProtocolError, ...)"
_FAILED_ERRORS = "an httpx transport error (ConnectError, ConnectTimeout, ReadTimeout, ...)"


def _failed_problem(line: dict[str, Any]) -> str:
    """What is wrong with a line recording a request that got no answer (`failed`, `why`), or ""."""
    if not isinstance(line["failed"], str):
        return "failed is not a string (the name of httpx's error)"
    if _transport_error(line["failed"]) is None:
        return f"failed {line['failed']!r:.40} is not the name of {_FAILED_ERRORS}"
    return "why is not a string" if line.get("why") is not None and not isinstance(line["why"], str) else ""


_READ = " or ".join(map(str, range(1, CASSETTE_FORMAT + 1)))
"""The formats this toolkit reads, as its messages name them ("1 or 2")."""
UNREAD_FORMAT = 2
"""The format of a line holding a reply cut at the client's bound (`"unread"`): older toolkits refuse it."""


def _format_problem(written: Any) -> str:
    """Why a line's `format` is not one this toolkit reads (`CASSETTE_FORMAT` and older), or ""."""
    if isinstance(written, bool) or not isinstance(written, int) or written < 1:
        return f"format {written!r:.20} is no cassette format (a whole number, {_READ} for this toolkit)"
    if written > CASSETTE_FORMAT:
        return (
            f"written in cassette format {written}, by a newer toolkit; this one reads format {CASSETTE_FORMAT}: "
            "upgrade toolkit-course (pip install -U toolkit-course), or record the cassette again with this one"
        )
    return ""


def _typed(record: dict[str, Any], **types: type) -> bool:
    return all(isinstance(record.get(key), kind) and not isinstance(record[key], bool) for key, kind in types.items())


def _writable(path: Path) -> Path:
    """`path` if a cassette can be written there; else a `CassetteError` now, before the first
    (perhaps paid) request rather than after it."""
    problem = ""
    if path.is_dir():
        problem = f"it is a folder; name a file in it, e.g. {path / 'session.jsonl'}"
    elif not path.parent.is_dir():
        problem = f"the folder {path.parent} does not exist; create it, or name a file in a folder that exists"
    elif not os.access(path if path.exists() else path.parent, os.W_OK):
        problem = "it may not be written (permissions); name a file you may write"
    else:
        problem = _unwritable(path) or not_a_cassette(path)
    if problem:
        raise CassetteError(f"cannot record to {path} ({RECORD_VAR}): {problem}")
    return path


def not_a_cassette(path: Path) -> str:
    """Why a recording must not be appended at `path`, or "": the file it names (a link followed) exists,
    holds something, and its first line is no cassette line (an exchange or a clock reading: a notes
    file, `/etc/passwd` or a shell's start-up file reached through a link, each of which the lines
    would have been appended to, as root too); or `path` is a link to a file still to be made in
    another folder than the link's (recording would make a file there, wherever the link points).
    A pipe or a device (`/dev/stdout`) holds nothing to lose. Read: the first line, `SNIFFED` bytes
    of it at most (`cassette_append.cassette_head`); a line longer than that (an image sent in the first request), or a file of one line
    cut short (a run killed as it wrote it), is a cassette's if it starts as every cassette line does (`{"`)."""
    try:
        target = path.resolve()
        head = files.first_line(target, SNIFFED)
    except (OSError, RuntimeError):  # no permission to read, a link loop: `_unwritable` says what it can
        return ""
    if head is None:
        outside = path.is_symlink() and not target.exists() and target.parent != path.absolute().parent.resolve()
        return f"it is a link to {target}, a file outside the link's folder; name that file itself" if outside else ""
    first = head
    if cassette_head(first, _size(target)):
        return ""
    shown = first[:40].decode("utf-8", "replace")
    linked = f" (the link names {target})" if target != path.absolute() else ""
    return (
        f"it is a file of something else{linked}, whose first line is {shown!r}, not a cassette's: "
        "a recording is only added to a cassette; name a new file, e.g. session.jsonl"
    )


def _size(target: Path) -> int:
    try:
        return target.stat().st_size
    except OSError:
        return -1


def _unwritable(path: Path) -> str:
    """Why no cassette can be written at `path` that the checks above let pass (a link loop, a folder
    that takes no new file), tried as `files.try_writing` tries it; "" when it can."""
    try:
        files.try_writing(path)
    except OSError as exc:
        return f"it cannot be written ({exc.strerror or exc})"
    return ""


def _append(recorder: RecordingTransport, line: dict[str, Any]) -> None:
    """One line at the end of the cassette the recorder checked (`cassette_append`: never through a
    link or a file swapped in for it since); after a line cut short (a run killed mid-write) on a line
    of its own, so the new exchange stays readable."""
    try:
        text = json.dumps(line, ensure_ascii=False, sort_keys=True)
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (see `toolkit.chat.client.encode_body`): kept escaped
        text = json.dumps(line, sort_keys=True)
    with recorder._lock:
        append_line(f"cannot record to {recorder.path} ({RECORD_VAR})", recorder._target, text, recorder._checked)
