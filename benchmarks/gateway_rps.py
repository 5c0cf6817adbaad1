"""How much does the fake gateway's core cost? Requests/s against a bare endpoint.

Runs three servers with the same uvicorn settings, each in its own process on a free loopback
port: the fake gateway app; a bare Starlette endpoint returning a fixed body of the same size
(the target's reference); and the gateway's own ASGI glue replaying that fixed reply (so the
difference to it is the core alone). A loopback load generator (a few threads, one keep-alive
raw socket each) sends chat requests, a fixed number of times, to each, in alternating rounds;
the best requests/s of each counts. The requests are `workload()`: all different (fresh order
ids and reference numbers, so nothing keyed by a request can help), to the shop's three tools
or to one of four apps offering eight catalogue tools (so the generic keyword picker runs),
some continuing with a tool result or carrying history. `--fixed` sends one request over and
over instead, the workload of earlier runs (it hides what the generic picker costs);
`--fresh-tools K` gives every request a new choice of K tools (a tool search's finds, a list
rebuilt per request), so nothing the gateway keeps per tool list can help; `--long N` adds about
N characters to every request, in turn a long tool result (a JSON list of records), a long history
and a long pasted text (a conversation that has gone on, or a page read: the core's cost per KB).
Plain and streamed replies are measured one after the other (or only one of them, with `--plain`
/ `--stream`).
Target, for each: the gateway reaches at least 70% of the bare endpoint. Each server's own
CPU time per request is measured too (from /proc): on a machine shared with other work the
request rates swing with the load, while CPU time per request does not, so the capacity
ratio (bare's CPU time per request / the gateway's) is printed beside the rate ratio. The event loop and
HTTP parser are whatever uvicorn finds: uvloop + httptools when `uvicorn[standard]` is
installed, asyncio + h11 otherwise (printed first); run it in both environments.

`--profile` instead times the core in process, stage by stage, and prints where each
microsecond of one request goes (no sockets, no server). `--ablate` measures the same stages
inside the running server: one server per stage, with that stage replaced by its first result
(replayed), so the server CPU time each stage costs under load shows as the difference to the
full gateway. In a server a stage costs two to three times what it costs in a tight loop in
process (its code and data are no longer in the CPU caches when the next request arrives).
Give it `--requests 16000` or more: the CPU clock ticks every 10 ms, too coarse for 4,000.

`--instructions` counts instead of timing (valgrind's callgrind, which counts the same on a busy
host as on a quiet one): each server runs under callgrind twice, serving `--requests` (500 are
enough) and then three times as many requests of the workload over one keep-alive connection;
the difference of the two totals, divided by the extra requests, is what one request costs
inside that server (start-up drops out; runs differ by a few per cent). Kernel time (the socket
work) is not counted, and an instruction of the core's may take longer than one of uvicorn's, so
the ratio by instructions is what the gateway asks of the CPU, not its rate. Needs `valgrind`
on the PATH; slow (several minutes).

    python benchmarks/gateway_rps.py [--requests 4000] [--threads 2] [--rounds 5] [--fixed | --fresh-tools K] [--long N]
                                     [--plain | --stream] [--profile | --ablate | --instructions]

Run on demand; not a test (timings depend on the machine).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

KINDS = ("bare", "glue", "gateway")
STAGES = {  # --ablate: a stage of the core (a function in toolkit.gateway.core) -> what it is
    "_parse": "parse JSON, tool list (bodytools)",
    "check_request": "validate",
    "_read_prompt": "hash + prompt tokens",
    "decide": "decide (rules)",
    "_turn": "turn (mode, shape, usage)",
    "respond": "all of respond (validate .. reply)",
}
TARGET = 0.70
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": name,
            "description": about,
            "parameters": {"type": "object", "properties": props, "required": list(props)[:1]},
        },
    }
    for name, about, props in [
        ("query_order", "查询订单的状态、金额、商品、付款日期", {"orderId": {"type": "string"}}),
        ("query_logistics", "查询物流轨迹", {"orderId": {"type": "string"}}),
        ("query_refund_policy", "查询退换货政策", {"category": {"type": "string"}, "asOf": {"type": "string"}}),
    ]
]
SYSTEM = "你是电商售后助手。不要编造订单号。"
REQUEST = {
    "model": "fake-keyword",
    "messages": [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "帮我查一下订单 SN202610200001 现在到哪了？"},
    ],
    "tools": TOOLS,
}
APPS = 4  # catalogue "apps": each offers its own fixed set of catalogue tools
APP_TOOLS = 8


def workload(count: int, seed: int = 0, fresh_tools: int = 0, long: int = 0) -> list[dict]:
    """`count` different chat requests, none repeated (so nothing keyed by a request can help):
    half to the shop (its three tools; the course's labelled questions, each with a fresh order
    id), half to one of `APPS` apps offering catalogue tools (the catalogue's queries, each with
    a fresh number); a third of each continue the conversation with the tool's result, as a
    loop's second request does, and a quarter carry an earlier exchange as history. The fields
    come in the order clients send them, the conversation before the tools: the OpenAI SDK's
    (`messages`, `model`, `tools`) for half, `toolkit.chat.client`'s (`model`, `messages`,
    `tools`) for the rest. `fresh_tools=k`: every request offers a new choice of `k` tools instead
    (`--fresh-tools`: a sample of the catalogue's tools for an app, the shop's three tools and
    `k - 3` of the catalogue's in a shuffled order for the shop), as a client sends a tool
    search's finds, or rebuilds its list, with every request: nothing kept per list can help.
    `long=n` (`--long`): every request also carries about `n` more characters (`_lengthen`)."""
    import random
    import re

    from toolkit.course.accuracy import load_cases
    from toolkit.search.catalog import load_catalog

    rng = random.Random(seed)
    questions = [case.question for case in load_cases()]
    catalogue = load_catalog()
    apps = [[spec.to_openai() for spec in rng.sample(catalogue.tools, APP_TOOLS)] for _ in range(APPS)]
    queries = [q.query for q in catalogue.queries]
    order_id = re.compile(r"SN\d{12}")
    requests = []
    for n in range(count):
        if n % 2:
            tools, system = rng.choice(apps), "You are a helpful assistant. Use the tools when they help."
            question = f"{rng.choice(queries)} (ref {100000 + n})"
            if fresh_tools:
                tools = [spec.to_openai() for spec in rng.sample(catalogue.tools, fresh_tools)]
        else:
            tools, system = TOOLS, SYSTEM
            if fresh_tools:
                tools = TOOLS + [spec.to_openai() for spec in rng.sample(catalogue.tools, max(0, fresh_tools - 3))]
                rng.shuffle(tools)
            asked = rng.choice(questions)
            question = order_id.sub(f"SN2026{n:08d}", asked) if order_id.search(asked) else f"{asked}（{n}）"
        messages = [{"role": "system", "content": system}]
        if n % 4 == 3:
            messages += [{"role": "user", "content": rng.choice(questions)}, {"role": "assistant", "content": "好的。"}]
        messages.append({"role": "user", "content": question})
        if n % 3 == 2:
            tool = rng.choice(tools)["function"]["name"]
            call = {"id": f"call_{n}", "type": "function", "function": {"name": tool, "arguments": "{}"}}
            messages += [
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": f"call_{n}", "content": f"状态：已发货\n单号：{n}\n请勿编造。"},
            ]
        if long:
            _lengthen(messages, n, long, rng, [*questions, *queries, *(s.description for s in catalogue.tools)])
        if n % 4 < 2:  # the OpenAI SDK's order of fields, else toolkit.chat.client's: the conversation before the tools
            requests.append({"messages": messages, "model": "fake-keyword", "tools": tools})
        else:
            requests.append({"model": "fake-keyword", "messages": messages, "tools": tools})
    return requests


def _lengthen(messages: list[dict], n: int, size: int, rng, texts: list[str]) -> None:
    """About `size` more characters in a request, as a long conversation carries them, in turn:
    a long tool result (a JSON list of records, for a request that ends with a result), a long
    history (earlier questions and answers), a long pasted text before the user's question. Made
    of the course's questions and the catalogue's queries and descriptions (Chinese and English),
    each piece marked with the request's number: no two requests hold the same text."""

    def text() -> str:
        parts: list[str] = []
        while sum(map(len, parts)) < size:
            parts.append(f"{rng.choice(texts)} [{n}-{len(parts)}]")
        return "\n".join(parts)[:size]

    if messages[-1]["role"] == "tool":
        records, length = [], 0
        while length < size:
            records.append({"id": f"{n}-{len(records)}", "name": rng.choice(texts), "score": rng.random()})
            length += len(records[-1]["name"]) + 40
        messages[-1]["content"] = json.dumps(records, ensure_ascii=False)
    elif n % 2:
        history = []
        while sum(len(m["content"]) for m in history) < size:
            history += [{"role": "user", "content": rng.choice(texts)}, {"role": "assistant", "content": text()[:400]}]
        messages[1:1] = history
    else:
        messages[-1]["content"] = f"{text()}\n\n{messages[-1]['content']}"


def _serve(kind: str, stream: bool) -> None:
    """Child process: run one server on a free port, print its URL, serve until killed."""
    from toolkit.gateway.server import listen

    _orphan_watch()
    server = server_for(kind, stream)
    sock = listen("127.0.0.1", 0)
    print(f"http://127.0.0.1:{sock.getsockname()[1]}/v1", flush=True)
    server.run(sockets=[sock])


def server_for(kind: str, stream: bool):
    """The uvicorn server of one kind (`KINDS`, or a stage of `STAGES`, which replaces that stage of
    the gateway's core in this process), not yet started."""
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route

    from toolkit.gateway.server import Gateway, _server, create_app

    gateway = Gateway()
    reply = gateway.handle("POST", "/v1/chat/completions", {"content-type": "application/json"}, _payload(stream))
    if kind == "gateway":
        app = create_app(gateway)
    elif kind in STAGES:  # the gateway with one stage replayed from its first result
        _replay(kind)
        app = create_app(Gateway())
    elif kind == "bare":  # a plain Starlette endpoint: Request in, Response out
        body = reply.encode()

        async def bare(request):
            await request.body()
            return Response(body, media_type=reply.headers["content-type"])

        app = Starlette(routes=[Route("/v1/chat/completions", bare, methods=["POST"])])
    else:  # "glue": the gateway's own ASGI glue around a gateway that only replays one reply
        app = create_app(SimpleNamespace(config=gateway.config, handle=lambda *_: reply))
    return _bare_server(app) if kind == "bare" else _server(app)


def _bare_server(app):
    """The bare endpoint served as uvicorn serves any app (the gateway's server adds its header
    timeout, `toolkit.gateway.header_wait`, which a bare endpoint has not): otherwise the same config."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=2)
    return uvicorn.Server(config)


def _replay(name: str) -> None:
    """Replace `toolkit.gateway.core.<name>` by a function returning its first result again."""
    from toolkit.gateway import core

    original, first = getattr(core, name), []

    def replayed(*args, **kwargs):
        if not first:
            first.append(original(*args, **kwargs))
        return first[0]

    setattr(core, name, replayed)


def _payload(stream: bool, request: dict = REQUEST) -> bytes:
    return json.dumps({**request, "stream": True} if stream else request).encode()


def _payloads(stream: bool, count: int, fixed: bool, fresh_tools: int = 0, long: int = 0) -> list[bytes]:
    """The request bodies to send: the one fixed request, or `workload(count, fresh_tools=..., long=...)`."""
    if fixed:
        return [_payload(stream)]
    return [_payload(stream, r) for r in workload(count, fresh_tools=fresh_tools, long=long)]


def _request_bytes(url: str, payload: bytes) -> tuple[tuple[str, int], bytes]:
    host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    head = (
        f"POST /v1/chat/completions HTTP/1.1\r\nhost: {host}:{port}\r\n"
        f"content-type: application/json\r\ncontent-length: {len(payload)}\r\n\r\n"
    )
    return (host, int(port)), head.encode() + payload


def _exchange(sock: socket.socket, request: bytes, buffer: bytearray) -> int:
    """Send one request on a keep-alive socket, read one whole response; its status."""
    sock.sendall(request)
    while (end := buffer.find(b"\r\n\r\n")) < 0:
        buffer += sock.recv(65536)
    head = bytes(buffer[:end]).lower()
    del buffer[: end + 4]
    length = int(head.split(b"content-length:", 1)[1].split(b"\r\n", 1)[0])
    while len(buffer) < length:
        buffer += sock.recv(65536)
    del buffer[:length]
    return int(head.split(b" ", 2)[1])


def _drive(url: str, total: int, threads: int, payloads: list[bytes]) -> float:
    """Requests/s for `total` requests over `threads` keep-alive raw sockets.

    Raw sockets, not httpx: with two cores, an httpx client costs as much CPU per request
    as the server does, and the benchmark would measure the client."""
    requests = [_request_bytes(url, payload) for payload in payloads]
    address = requests[0][0]
    failures: list[int] = []

    def worker(count: int, first: int) -> None:
        with socket.create_connection(address) as sock:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            buffer = bytearray()
            sent = (requests[(first + i) % len(requests)][1] for i in range(count))
            failures.extend(s for s in (_exchange(sock, request, buffer) for request in sent) if s != 200)

    worker(100, 0)  # warm up
    share = total // threads
    workers = [threading.Thread(target=worker, args=(share, i * share)) for i in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - start
    if failures:
        raise SystemExit(f"{len(failures)} requests failed, e.g. HTTP {failures[0]}")
    return (total // threads) * threads / elapsed


def positive(text: str) -> int:
    """A count of at least 1, as `toolkit.cli.arguments.positive` has it (not imported: the bare server's process
    imports nothing of toolkit)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed here: use a whole number, 1 or more")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=positive, default=4000, help="per round and server")
    parser.add_argument("--threads", type=positive, default=2, help="load-generator connections")
    parser.add_argument("--rounds", type=positive, default=5, help="alternating rounds; best counts")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--stream", action="store_true", help="only streamed replies")
    only.add_argument("--plain", action="store_true", help="only plain replies")
    parser.add_argument("--fixed", action="store_true", help="send one request over and over (the old workload)")
    parser.add_argument(
        "--fresh-tools", type=int, default=0, metavar="K", help="a new choice of K tools in every request (K >= 3)"
    )
    parser.add_argument(
        "--long",
        type=int,
        default=0,
        metavar="N",
        help="N more characters in every request (history, a result, a text)",
    )
    instead = parser.add_mutually_exclusive_group()
    instead.add_argument("--profile", action="store_true", help="where the core's microseconds go, in process")
    instead.add_argument("--ablate", action="store_true", help="what each stage costs inside the server")
    instead.add_argument(
        "--instructions", action="store_true", help="instructions a request inside each server (callgrind)"
    )
    parser.add_argument("--serve", choices=KINDS + tuple(STAGES), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.fresh_tools and (args.fresh_tools < 3 or args.fixed):
        parser.error("--fresh-tools takes K >= 3, and not with --fixed")
    if args.long < 0 or (args.long and args.fixed):
        parser.error("--long takes N >= 0, and not with --fixed")
    if args.serve:
        _serve(args.serve, args.stream)
        return 0
    _stop_on_signals()
    if args.profile:
        return _profile(args)
    print(_environment())
    if args.ablate:
        return _ablate(args.stream, args)
    if args.instructions:
        return _instructions(args)
    kinds = [False] if args.plain else [True] if args.stream else [False, True]
    met = [_measure(stream, args) for stream in kinds]
    return 0 if all(met) else 1


def _stop_on_signals() -> None:
    """SIGTERM and SIGHUP end the run as Ctrl-C does: through the `finally` blocks that stop the
    servers it started (Python's default ends the process at once, and left them serving)."""
    import signal

    def stop(number: int, frame: object) -> None:
        raise SystemExit(128 + number)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)


def _orphan_watch() -> None:
    """In a server child: end it when the process that started it is gone (killed with SIGKILL, say,
    when no `finally` runs), instead of serving on forever."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (Linux /proc; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _environment() -> str:
    import importlib.util

    import uvicorn

    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    http = "httptools" if importlib.util.find_spec("httptools") else "h11"
    return f"uvicorn {uvicorn.__version__}, loop {loop}, http {http} (python {sys.version.split()[0]})"


def _measure(stream: bool, args: argparse.Namespace) -> bool:
    """One side-by-side run (plain or streamed); prints the rates and the verdict."""
    rates, cpu = _rounds(KINDS, stream, args)
    best = {kind: max(values) for kind, values in rates.items()}
    print(f"{'streamed' if stream else 'plain'} replies:")
    for kind, values in rates.items():
        print(f"{kind:>10}: {best[kind]:6.0f} requests/s best  ({', '.join(f'{v:.0f}' for v in values)})")
    ratio = best["gateway"] / best["bare"]
    met = ratio >= TARGET
    print(
        f"     ratio: {ratio:6.1%} of the bare Starlette endpoint (target >= {TARGET:.0%}): {'met' if met else 'not met'}"
    )
    core = 1e6 / best["gateway"] - 1e6 / best["glue"]
    print(f"      core: {core:6.1f} us per request (the gateway's time minus the same glue replaying a fixed reply)")
    if all(cpu.values()):
        least = {kind: min(values) for kind, values in cpu.items()}
        print(
            "  server CPU time per request (least of the rounds, includes the warm-up): "
            + ", ".join(f"{kind} {us:.0f} us" for kind, us in least.items())
        )
        capacity = least["bare"] / least["gateway"]
        verdict = "met" if capacity >= TARGET else "not met"
        print(
            f"  capacity: {capacity:6.1%} of the bare endpoint by CPU time per request (target >= {TARGET:.0%}): {verdict}"
        )
        print(f"            core {least['gateway'] - least['glue']:.0f} us of CPU per request")
    return met


def _ablate(stream: bool, args: argparse.Namespace) -> int:
    """Server CPU time per request of the gateway, and without each stage (replayed)."""
    _, cpu = _rounds(("bare", "glue", "gateway", *STAGES), stream, args)
    if not all(cpu.values()):
        raise SystemExit("--ablate needs /proc (Linux) to read a server's CPU time")
    least = {kind: min(values) for kind, values in cpu.items()}
    print(f"{'streamed' if stream else 'plain'} replies, server CPU time per request (least of {args.rounds} rounds):")
    for kind in ("bare", "glue", "gateway"):
        print(f"  {kind:<44} {least[kind]:6.1f} us")
    print(f"  {'the core (gateway - glue)':<44} {least['gateway'] - least['glue']:6.1f} us")
    for name, what in STAGES.items():
        print(f"  {what:<44} {least['gateway'] - least[name]:6.1f} us  (gateway with it replayed: {least[name]:.1f})")
    return 0


def _instructions(args: argparse.Namespace) -> int:
    """Instructions a request inside each server, plain and streamed (module docstring)."""
    import shutil

    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    for stream in [False] if args.plain else [True] if args.stream else [False, True]:
        payloads = _payloads(stream, args.requests, args.fixed, args.fresh_tools, args.long)
        counts = {kind: _server_instructions(kind, stream, payloads, args.requests) for kind in KINDS}
        print(f"{'streamed' if stream else 'plain'} replies, instructions a request inside the server:")
        for kind, count in counts.items():
            print(f"{kind:>10}: {count / 1000:8.1f}k")
        print(f"      core: {(counts['gateway'] - counts['glue']) / 1000:8.1f}k (the gateway minus the glue)")
        ratio = counts["bare"] / counts["gateway"]
        print(f"     ratio: {ratio:6.1%} of the bare endpoint's instructions (the target, >= {TARGET:.0%}, is by time)")
    return 0


def _server_instructions(kind: str, stream: bool, payloads: list[bytes], requests: int) -> float:
    """The instructions one request costs inside a `kind` server: two runs under callgrind,
    serving `requests` and `3 * requests` requests; the difference per extra request."""
    first, second = (_callgrind_total(kind, stream, payloads, n) for n in (requests, 3 * requests))
    return (second - first) / (2 * requests)


def _callgrind_total(kind: str, stream: bool, payloads: list[bytes], count: int) -> int:
    """All the instructions a `kind` server ran, start to stop, having served `count` requests."""
    import glob
    import signal
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p", sys.executable, __file__]
        command += ["--serve", kind] + (["--stream"] if stream else [])
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        try:
            url = process.stdout.readline().strip() if process.stdout else ""
            requests = [_request_bytes(url, payload)[1] for payload in payloads]
            with socket.create_connection(_request_bytes(url, payloads[0])[0]) as sock:
                buffer = bytearray()
                for i in range(count):
                    status = _exchange(sock, requests[i % len(requests)], buffer)
                    if status != 200:
                        raise SystemExit(f"a request failed under callgrind: HTTP {status}")
        finally:
            process.send_signal(signal.SIGINT)  # uvicorn stops, callgrind writes its totals
            process.wait(timeout=300)
        totals = [_callgrind_summary(path) for path in glob.glob(out + ".*")]
    return max(totals, default=0)


def _callgrind_summary(path: str) -> int:
    """The event total a callgrind output file ends with (`summary:` or `totals:`)."""
    with open(path) as f:
        return max((int(line.split()[1]) for line in f if line.startswith(("summary:", "totals:"))), default=0)


def _rounds(
    kinds: tuple[str, ...], stream: bool, args: argparse.Namespace
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """One server per kind, driven in alternating rounds: requests/s and server CPU us per request
    (the CPU list stays empty where /proc cannot tell)."""
    servers = {kind: _start(kind, stream) for kind in kinds}
    rates: dict[str, list[float]] = {kind: [] for kind in kinds}
    cpu: dict[str, list[float]] = {kind: [] for kind in kinds}
    count = args.requests // args.threads * args.threads
    payloads = _payloads(stream, args.requests, args.fixed, args.fresh_tools, args.long)
    try:
        for _ in range(args.rounds):  # alternate, so all see the same machine weather
            for kind, (process, url) in servers.items():
                before = _cpu_seconds(process.pid)
                rates[kind].append(_drive(url, args.requests, args.threads, payloads))
                after = _cpu_seconds(process.pid)
                if before is not None and after is not None:
                    cpu[kind].append((after - before) / count * 1e6)
    finally:
        for process, _ in servers.values():
            process.terminate()
            process.wait(timeout=10)
    return rates, cpu


def _profile(args: argparse.Namespace) -> int:
    """Time each stage of the core on the benchmark's requests, in process."""
    for stream in (False, True):
        _profile_one(stream, _payloads(stream, 2000, args.fixed, args.fresh_tools, args.long))
    return 0


def _profile_one(stream: bool, bodies: list[bytes]) -> None:
    import orjson

    from toolkit.gateway import bodytools, core, decide, toolset, validate, wire

    config = core.GatewayConfig()
    headers = {"content-type": "application/json"}
    requests = [orjson.loads(body) for body in bodies]
    tool_sets = [toolset.prepare(request.get("tools")) for request in requests]
    pairs = list(zip(requests, tool_sets))
    prompts = [core._read_prompt(request, "A", tools) for request, tools in pairs]
    decisions = [decide.decide(request, config.rules, tools) for request, tools in pairs]
    turns = [core._turn(r, d, p, c, config) for r, (d, p), c in zip(requests, prompts, decisions)]
    completions = [wire.completion_body(turn) for turn in turns]
    chunks = lambda turn: wire.ChunkStream(turn, include_usage=False, piece=config.delta_chars)  # noqa: E731
    if stream:
        render = ("SSE chunk stream", turns, chunks)
        encode = (
            "encode (chunks spliced into SSE lines)",
            turns,
            lambda t: wire.Reply(200, {}, events=chunks(t)).encode(),
        )
    else:
        render = ("completion body", turns, wire.completion_body)
        encode = ("encode", completions, wire.dumps)
    stages = [
        ("parse JSON, tool list (bodytools.read_body)", bodies, bodytools.read_body),
        ("validate", pairs, lambda x: validate.check_request(*x)),
        ("hash + prompt tokens", pairs, lambda x: core._read_prompt(x[0], "A", x[1])),
        ("decide (rules)", pairs, lambda x: decide.decide(x[0], config.rules, x[1])),
        (
            "turn (mode, shape, usage)",
            list(zip(requests, prompts, decisions)),
            lambda x: core._turn(x[0], *x[1], x[2], config),
        ),
        render,
        encode,
    ]
    whole = _per_call(
        bodies, lambda body: core.handle_http("POST", core.CHAT_PATH, headers, body, config, None, "r").encode()
    )
    times = [(name, _per_call(inputs, fn)) for name, inputs, fn in stages]
    # route, headers and Reply are about 5% of a request's instructions (callgrind); the rest of
    # this row is what the stages cost together more than apart (each alone runs in warm caches)
    rest = max(0.0, whole - sum(t for _, t in times))
    times.append(("the rest: route, headers, Reply; colder caches", rest))
    print(
        f"{'streamed' if stream else 'plain'}: {whole:.1f} us per request in the core ({len(bodies)} different requests)"
    )
    for name, t in times:
        print(f"  {name:<44} {t:6.1f} us  {t / whole:4.0%}")


def _per_call(inputs: list, fn, least: int = 20_000) -> float:
    """Mean us per call of `fn` over `inputs` (cycled to at least `least` calls), best of three."""
    inputs = inputs * max(1, least // len(inputs))
    for x in inputs[: len(inputs) // 10]:
        fn(x)
    best = float("inf")
    for _ in range(3):  # best of three: the least disturbed by other processes
        start = time.perf_counter()
        for x in inputs:
            fn(x)
        best = min(best, (time.perf_counter() - start) / len(inputs) * 1e6)
    return best


def _start(kind: str, stream: bool) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, __file__, "--serve", kind] + (["--stream"] if stream else [])
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    return process, process.stdout.readline().strip()


if __name__ == "__main__":
    sys.exit(main())
