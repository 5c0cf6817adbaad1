"""The fake gateway with state, and over real HTTP: `python -m toolkit gateway`.

`Gateway` is the stateful shell both transports share: a `GatewayConfig` (mode included), a
fault schedule — faults consumed one per chat request, in order, so a test can say "the
next two requests get 429, then answer" — and a request counter, which makes each reply's
`x-request-id` (`req_` + the count in 32 hex digits: deterministic, unlike OpenAI's). `create_app()` wraps it in a bare ASGI app;
`serve()` runs that app with uvicorn (blocking); `running_gateway()` runs it in a background
thread on a free loopback port for tests, notebooks and benchmarks. Everything binds to
127.0.0.1 unless told otherwise.

Browsers (a learner's own web page, JupyterLite) call it too. As Ollama does by default, the app
answers a CORS preflight (`OPTIONS`) from a page served on this machine — an `Origin` of `http://`
or `https://` `localhost`, `127.0.0.1` or `[::1]`, any port (not `null`, which a sandboxed frame of
any site sends: serve a page from a file over `python -m http.server`) — with 204 and the CORS
headers (the methods, the headers the page asked for), and tags every answer to such a page with
`Access-Control-Allow-Origin` (and exposes `x-request-id` and `retry-after`). vLLM and LiteLLM allow
every origin by default; they are servers meant to be reached from elsewhere. A preflight never
reaches `Gateway.handle`: no fault consumed, no request counted. An `OPTIONS` without an `Origin`
is told what the gateway allows (`allow`), 204.

Any request from a page of another site — an `Origin` header that is not one of those, whatever
its method and content type — gets a 403 (`origin_not_allowed`, OpenAI's error shape) before it
reaches the gateway: no fault consumed, no request counted, no CORS header. The gateway listens on
loopback so that only this machine uses it, and a site the learner happens to open must not drive
it; refusing its preflight is not enough, as a browser sends a "simple" cross-site POST
(`Content-Type: text/plain` or a form type) without one. Such a body is a 415 anyway, JSON or not:
the gateway reads `application/json` only, which every SDK sends (and which a page may send only
after a preflight). Requests without an `Origin` (SDKs, curl) pass. Against DNS rebinding (a site
whose name first points at its own server, then at 127.0.0.1, so that its page's requests are
same-origin and carry its own name), a request that arrived on a loopback address must have
`localhost` or an IP address (`127.0.0.1`, `[::1]`, `0.0.0.0`; no rebinding goes without a name)
as its `Host`, any port, or gets a 403 (`host_not_allowed`), as Jupyter server checks; a request
that arrived on another address (a gateway served on 0.0.0.0 and reached from the network) may
name any host.
Cost for an SDK's request: one lookup of `origin` and one of `Host` in a set of the hosts met.

A request whose body does not arrive whole within `BODY_TIMEOUT_S` (30 to 45 s: a `Content-Length`
larger than the bytes sent, a chunk size past its chunk, `Expect: 100-continue` and no body) is
answered 408 (`request_timeout`) and its connection closed; uvicorn waits for such a body for ever.
Malformed framing uvicorn itself refuses (a chunk size that is not hex, two `Content-Length`s, a
header line past its limit) is its own plain-text 400, never reaching the app.

A request whose headers do not arrive whole within `HEADERS_TIMEOUT_S` (30 s) of the connection
opening (30 to 60 s of its last response) is answered 408 and its connection closed
(`toolkit.gateway.header_wait`: uvicorn has no such timeout, and a client sending its headers a
byte at a time held the connection for ever).

Leaves out: TLS, authentication, anything not on the loopback interface by default, CORS
credentials (the fake gateway takes no cookies), other origins and other host names on loopback (no
setting for them: a port forwarder that keeps a public name in `Host`, such as a Codespaces URL, is
refused).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from toolkit.errors import ConfigurationError, a_or_an
from toolkit.gateway import head_size, header_wait
from toolkit.gateway.core import CHAT_PATH, FAULTS, GatewayConfig, as_sent, handle_http, request_path
from toolkit.gateway.wire import Reply, error_reply
from toolkit.unicode import cut

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 18083


class Gateway:
    """A fake gateway: its config (mode included) and a schedule of faults to come."""

    def __init__(
        self, mode: str | None = None, *, faults: Iterable[str | None] = (), config: GatewayConfig | None = None
    ) -> None:
        """`faults=None` is no faults, as leaving it out is; anything but a list of fault names (or a
        tuple, or a generator) is a `ConfigurationError` here, never a failure at the first request."""
        if config is not None and not isinstance(config, GatewayConfig):
            raise ConfigurationError(
                f"Gateway(config={_shown(config)}): config takes a GatewayConfig, and got {_kind(config)}. "
                "Fix: pass one, e.g. config=GatewayConfig(retry_after_s=2), or leave it out for the defaults"
            )
        config = config or GatewayConfig()
        self.config: GatewayConfig = replace(config, mode=mode) if mode else config
        self._faults: deque[str | None] = deque()
        self._requests = 0
        self._lock = threading.Lock()
        self.schedule(*_fault_list(faults))

    def __repr__(self) -> str:
        """Its mode and the faults to come (a notebook shows it; the default held a memory address)."""
        return f"Gateway(mode={self.mode!r}, pending_faults={self.pending_faults!r})"

    @property
    def mode(self) -> str:
        """The tool-support mode (A-E) the gateway answers in; set it to switch for the next requests."""
        return self.config.mode

    @mode.setter
    def mode(self, mode: str) -> None:
        self.config = replace(self.config, mode=mode)

    def schedule(self, *faults: str | None) -> None:
        """Queue faults for the next chat requests, one each; `None` means "answer normally"."""
        listed = next((f for f in faults if isinstance(f, (list, tuple))), None)
        if listed is not None:  # schedule(["slow"]): the list is one argument, not the faults
            raise ConfigurationError(
                f"Gateway.schedule({_shown(listed)}): schedule takes the faults one by one, and got a "
                f"{type(listed).__name__} of them. Fix: unpack it, schedule(*faults), or "
                f"schedule({', '.join(map(repr, listed)) or 'rate_limit'})"
            )
        unknown = [f for f in faults if f is not None and f not in FAULTS]
        if unknown:
            raise ConfigurationError(
                f"Gateway.schedule: unknown fault {unknown[0]!r}; use one of {', '.join(FAULTS)} (or None)"
            )
        with self._lock:
            self._faults.extend(faults)

    @property
    def pending_faults(self) -> list[str | None]:
        """The faults `schedule` queued and no request has met yet, next first (`None`: a normal answer)."""
        with self._lock:
            return list(self._faults)

    def handle(self, method: str, path: str, headers: Mapping[str, str], body: bytes) -> Reply:
        """One HTTP exchange; a chat request consumes the next scheduled fault."""
        fault, number = self._next(method, path)
        return handle_http(method, path, headers, body, self.config, fault=fault, request_id=f"req_{number:032x}")

    def _next(self, method: str, path: str) -> tuple[str | None, int]:
        """The fault for this request (chat requests only) and its number, counting from 1 (whether it
        is a chat request is asked only when a fault waits: `handle_http` routes it anyway)."""
        with self._lock:
            self._requests += 1
            fault = None
            if self._faults and method.upper() == "POST" and request_path(path) == CHAT_PATH:
                fault = self._faults.popleft()
            return fault, self._requests


def _fault_list(faults: object) -> Iterable[str | None]:
    """`Gateway(faults=...)` as a sequence of faults, in order: None is none; a str would be read letter
    by letter, a set in hash order (another schedule in each process), anything else is no list."""
    if faults is None:
        return ()
    if isinstance(faults, (str, bytes)):
        raise ConfigurationError(
            f"Gateway(faults={_shown(faults)}): faults takes a list of fault names, and got a "
            f"{type(faults).__name__}, which would be read letter by letter. Fix: put it in a list: "
            f"faults=[{_shown(faults)}]"
        )
    if isinstance(faults, (set, frozenset, Mapping)) or not isinstance(faults, Iterable):
        why = (
            ", which has no order: the faults would come in another order in each process"
            if isinstance(faults, (set, frozenset))
            else ""
        )
        raise ConfigurationError(
            f"Gateway(faults={_shown(faults)}): faults takes a list of fault names, one per chat request in order "
            f"(None: answer normally), and got {_kind(faults)}{why}. Fix: e.g. faults=['rate_limit', None], "
            f"or leave it out for none; the faults are {', '.join(FAULTS)}"
        )
    return faults


def check_gateway(gateway: object, where: str) -> None:
    """What serves the requests must be a gateway (anything with `handle` and `config`, as a benchmark's
    stand-in has); a class, a mode letter or a config is refused where it is given."""
    if not isinstance(gateway, type) and callable(getattr(gateway, "handle", None)) and hasattr(gateway, "config"):
        return
    fix = (
        f"Gateway({gateway!r})"
        if isinstance(gateway, str)
        else "Gateway(config=config)"
        if isinstance(gateway, GatewayConfig)
        else "Gateway()"
        if gateway is Gateway
        else "Gateway(), Gateway('B') or Gateway(faults=['rate_limit'])"
    )
    raise ConfigurationError(
        f"{where}(gateway={_shown(gateway)}): that is {_kind(gateway)}, not a fake gateway. Fix: make one: {fix}"
    )


def _kind(value: object) -> str:
    """`an int`, `the class X`: what a wrong value is, in an error text."""
    if isinstance(value, type):
        return f"the class {value.__name__}"
    return a_or_an(type(value).__name__)


def _shown(value: object) -> str:
    """A wrong value, short: its repr up to 40 characters, or a class by its name."""
    if isinstance(value, type):
        return value.__name__
    text = repr(value)
    if len(text) <= 40:
        return text
    name = type(value).__name__
    return f"{name}(...)" if text.startswith(name + "(") else cut(text, 40, "...")


def create_app(gateway: Gateway) -> GatewayApp:
    """An ASGI app sending every HTTP request, any path and method, to `gateway`."""
    return GatewayApp(gateway)


class GatewayApp:
    """A bare ASGI app: bytes in, `gateway.handle`, bytes out. No framework, no Request /
    Response objects: the gateway does its own routing and envelope, and this is the hot path
    (a Starlette router around it cost more per request than the gateway's own routing)."""

    def __init__(self, gateway: Gateway) -> None:
        check_gateway(gateway, "create_app")  # here, once: not a 500 at every request
        self.gateway = gateway
        self._hosts: set[str | None] = {None}
        """`Host` headers met that name this machine (None: no Host, as HTTP/1.0 may send)."""
        self.body_timeout_s: float = BODY_TIMEOUT_S
        """How long a request's body may take to arrive whole (`BODY_TIMEOUT_S`)."""
        self.headers_timeout_s: float = header_wait.HEADERS_TIMEOUT_S
        """How long a request's headers may take to arrive whole over HTTP (`toolkit.gateway.header_wait`)."""
        self._waiting: dict[asyncio.Task[Any] | None, int] = {}
        """The requests waiting for their body, each with the count of sweeps when it began (`_sweep`)."""
        self._late: set[asyncio.Task[Any] | None] = set()
        self._sweeps = 0
        self._swept_on: asyncio.AbstractEventLoop | None = None

    def _start_sweeping(self) -> None:
        self._swept_on = asyncio.get_running_loop()
        self._swept_on.call_later(self.body_timeout_s / 2, self._sweep, self._swept_on)

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        """Every half `body_timeout_s`: cancel each request seen waiting for its body at three sweeps
        (it waited `body_timeout_s` to one and a half of it), and come again. A request pays a dict
        entry, not a timer of its own (`asyncio.timeout` cost about 6 µs a request)."""
        if loop is not self._swept_on or loop.is_closed():
            return
        self._sweeps += 1
        for task, began in list(self._waiting.items()):
            if self._sweeps - began >= 3 and task is not None and task.get_loop() is loop:  # not another thread's
                del self._waiting[task]
                self._late.add(task)
                task.cancel()
        loop.call_later(self.body_timeout_s / 2, self._sweep, loop)

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":  # lifespan is off; a websocket is refused
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1003})
            return
        if head_size.too_large(scope):  # the same 431 h11 gives when such a head comes in two reads
            await _send_reply(send, head_size.refused(), [])
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        # The common case (an SDK, on 127.0.0.1): no Origin, and a Host met before: two lookups.
        if "origin" in headers or headers.get("host") not in self._hosts:
            refused = self._refused(scope, headers)
            if refused is not None:  # no CORS header: the page may not read it
                await _send_reply(send, refused, [])
                return
        if scope["method"] == "OPTIONS":  # a preflight: one str test for every other request
            await _preflight(headers, send)
            return
        if self._swept_on is not asyncio.get_running_loop():  # one sweep a loop, not a timer a request
            self._start_sweeping()
        task = asyncio.current_task()
        waiting = self._waiting
        waiting[task] = self._sweeps
        try:
            message = await receive()
            if (
                message["type"] == "http.request"
                and not message.get("more_body")
                and type(message.get("body")) is bytes
            ):
                body = message["body"]  # the common case: the whole body in one message
            else:
                body = await _read_body(receive, self.gateway.config.max_body_bytes, message)
        except asyncio.CancelledError:
            if task not in self._late:
                raise
            self._late.discard(task)
            task.uncancel()  # type: ignore[union-attr]  # a request runs in a task
            await _send_reply(send, _body_late(self.body_timeout_s), [])
            return
        finally:
            waiting.pop(task, None)
        reply = self.gateway.handle(scope["method"], scope["path"], headers, body)
        if reply.delay_s:
            await asyncio.sleep(reply.delay_s)
        # a page on this machine (any other was refused): it may read the answer
        await _send_reply(send, reply, _cors(headers["origin"]) if "origin" in headers else [])

    def _refused(self, scope: dict[str, Any], headers: dict[str, str]) -> Reply | None:
        """The error to answer a request that must not reach the gateway, else None (a Host that
        passes is remembered, so the next request with it pays one set lookup)."""
        origin = headers.get("origin")
        if origin is not None and not local_origin(origin):
            message = (
                f"Origin {cut(as_sent(origin), 100)!r} may not call this gateway: it answers pages served on this machine "
                "(http(s)://localhost, 127.0.0.1 or [::1], any port)."
            )
            return error_reply(403, message, code="origin_not_allowed")
        host = headers.get("host")
        if host is None or local_host(host):
            if len(self._hosts) < _MAX_HOSTS_KEPT:
                self._hosts.add(host)
            return None
        server = scope.get("server")
        if not server or not _loopback_address(str(server[0])):  # reached from elsewhere: any name
            return None
        message = (
            f"Host {cut(as_sent(host), 100)!r} may not call this gateway: on this machine's loopback interface it answers "
            "requests to localhost or an IP address such as 127.0.0.1 (any port), so that a web page whose "
            "domain name points at 127.0.0.1 cannot reach it."
        )
        return error_reply(403, message, code="host_not_allowed")


BODY_TIMEOUT_S = 30
"""Seconds a request's body may take to arrive whole (looked at every half of it: 30 to 45 s), past which the answer is a 408
(`request_timeout`) and the connection closes: a `Content-Length` larger than the bytes sent, a
chunk size past its chunk, or `Expect: 100-continue` with no body after it held the connection
open for ever (uvicorn has no body timeout; nginx's `client_body_timeout` is 60 s). An SDK on this
machine sends its body at once."""


def _body_late(seconds: float) -> Reply:
    return error_reply(
        408,
        f"The request body did not arrive whole within {seconds:g} s (a Content-Length or chunk size larger than "
        "the bytes sent?); send the whole body with the request.",
        code="request_timeout",
    )


_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})
_METHODS = "GET, POST, OPTIONS"
_MAX_HOSTS_KEPT = 64


def local_origin(origin: str) -> bool:
    """Whether a page from `origin` may call the gateway: an http(s) origin on this machine
    (`http://localhost:8888`, `https://127.0.0.1`, `http://[::1]:3000`). Not `null`: a sandboxed
    frame of any site sends that too."""
    scheme, sep, rest = origin.partition("://")
    if not sep or scheme.lower() not in ("http", "https"):
        return False
    host, port = _host_port(rest)
    return host.lower() in _LOCAL_HOSTS and (port == "" or port.isdigit())


def local_host(host: str) -> bool:
    """Whether a `Host` header may reach the gateway on loopback: `localhost` or an IP address
    (`127.0.0.1`, `[::1]`, `0.0.0.0`, which a client may connect to), with or without a port. DNS
    rebinding needs a domain name, so an address is never one; any other name is refused."""
    name, port = _host_port(host)
    if not (port == "" or port.isdigit()):
        return False
    name = name.lower()
    return name == "localhost" or _address(name[1:-1] if name.startswith("[") and name.endswith("]") else name)


def _host_port(rest: str) -> tuple[str, str]:
    """`host[:port]` as (host, port); an IPv6 host keeps its brackets (its own colons are inside
    them). A bracket not closed, or followed by anything but a colon, is no host: ("", "")."""
    if rest.startswith("["):
        inside, closed, tail = rest.partition("]")
        if not closed or (tail and not tail.startswith(":")):
            return "", ""
        return inside + "]", tail[1:]
    host, _, port = rest.partition(":")
    return host, port


def _address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=64)
def _loopback_address(address: str) -> bool:
    """Whether `address` (a connection's own address) is on the loopback interface."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def _cors(origin: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"access-control-allow-origin", origin.encode("latin-1")),
        (b"access-control-expose-headers", b"x-request-id, retry-after"),
        (b"vary", b"origin"),
    ]


async def _preflight(headers: dict[str, str], send: Callable) -> None:
    """Answer an `OPTIONS` request (see the module docstring) that passed the origin check: 204, with
    the CORS headers for a page on this machine."""
    origin = headers.get("origin")
    raw = [(b"allow", _METHODS.encode())]
    if origin is not None:
        raw += _cors(origin)
        raw += [(b"access-control-allow-methods", _METHODS.encode()), (b"access-control-max-age", b"600")]
        asked = headers.get("access-control-request-headers")
        raw += [(b"access-control-allow-headers", asked.encode("latin-1"))] if asked else []
    raw.append((b"content-length", b"0"))
    await send({"type": "http.response.start", "status": 204, "headers": raw})
    await send({"type": "http.response.body", "body": b""})


async def _send_reply(send: Callable, reply: Reply, extra: list[tuple[bytes, bytes]]) -> None:
    """Send a reply whole (a stream is ready in full at once, so it goes out in one piece: the same
    bytes), with `extra` headers (the CORS ones, for a page on this machine)."""
    data = reply.encode()
    raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in reply.headers.items()]
    raw.append((b"content-length", b"%d" % len(data)))
    await send({"type": "http.response.start", "status": reply.status, "headers": raw + extra})
    await send({"type": "http.response.body", "body": data})


async def _read_body(receive: Callable, limit: int, message: dict) -> bytes:
    """The body, from its first `message` on, but no more than `limit + 1` bytes of it (enough to say 413)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        if chunks:
            message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > limit or not message.get("more_body", False):
            break
    return b"".join(chunks)


def base_url(host: str, port: int) -> str:
    """The gateway's base URL on `host:port`; an IPv6 address in brackets (`http://[::1]:18083/v1`),
    as a URL must have it."""
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/v1"


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host:port` (port 0: any free one) and listening, for a uvicorn server
    to take (`sockets=[...]`): the port is known, and a taken one is an `OSError`, before any banner.
    Shared by the gateway and the MCP server."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto=IPPROTO_TCP, or asyncio skips TCP_NODELAY and Nagle adds ~40 ms per response
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def _server(app: GatewayApp):
    import uvicorn  # imported here: the in-process transport never needs it
    from uvicorn.protocols.http.auto import AutoHTTPProtocol  # h11's, or httptools' when it is installed

    http = header_wait.headers_timed(AutoHTTPProtocol, app.headers_timeout_s)
    return uvicorn.Server(
        uvicorn.Config(
            app,
            http=http,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
            h11_max_incomplete_event_size=head_size.MAX_HEAD_BYTES,
        )
    )


def serve(
    host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, mode: str = "A", *, gateway: Gateway | None = None
) -> None:
    """Run the gateway over HTTP until interrupted; prints its base URL first."""
    gateway = Gateway(mode) if gateway is None else gateway
    check_gateway(gateway, "serve")
    sock = listen(host, port)
    url = base_url(host, sock.getsockname()[1])
    print(f"fake keyword gateway (mode {gateway.mode}) listening on {url}", flush=True)
    try:
        _server(create_app(gateway)).run(sockets=[sock])
    finally:
        sock.close()


@contextmanager
def running_gateway(
    mode: str = "A", port: int = 0, *, gateway: Gateway | None = None, host: str = DEFAULT_HOST
) -> Iterator[str]:
    """Run the gateway in a background thread; yields its base URL (`http://…/v1`).

    Pass `gateway` to keep a handle on it (its mode, its fault schedule); `mode` is then unused.
    `port=0` picks a free port."""
    gateway = Gateway(mode) if gateway is None else gateway
    check_gateway(gateway, "running_gateway")
    sock = listen(host, port)
    server = _server(create_app(gateway))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="fake-gateway")
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the fake gateway's server thread stopped during startup")
            time.sleep(0.005)
        yield base_url(host, sock.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
