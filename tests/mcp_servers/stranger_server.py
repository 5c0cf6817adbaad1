"""A hand-written stdio MCP server (plain JSON-RPC lines, no SDK) that a stranger could have
written: `python stranger_server.py MODE`.

MODE `junk`: writes lines that are not JSON to stdout before the handshake, after it, and
before each answer; its tool `t` answers "ok t". MODE `json-logs`: the same, as JSON log records.
MODE `exit-in-call`: a call to `t` writes half an answer and exits.
MODE `silent`: never answers a call, and ignores `notifications/cancelled`, a closed stdin and
SIGTERM (it must be killed); it writes its process id to the file `$PID_FILE` names, if any.
MODE `names`: a tool list with every name and schema a stranger may write.
MODE `contents`: one tool per kind of result content (`CONTENTS`).
MODE `notify`: a call sends progress and log notifications before its answer.
MODE `bad-notify`: a call sends a log notification MCP has no level for (winston's "verbose")
before its answer.
MODE `tasks`: tools whose `execution.taskSupport` is "required", "optional" and "forbidden"; a call
to the first without a task is refused with -32601, as @modelcontextprotocol/server-everything
2026.8.31 refuses `simulate-research-query` (the others answer "ok NAME").
MODE `env`: its tool `env` answers with its `SHOP_*` environment variables as indented JSON, as
@modelcontextprotocol/server-everything 2026.8.31's `get-env` answers with all of them (`env_error`:
the same as an error result).
MODE `deep`: the same, as a line of JSON nested 50,000 levels deep that holds `"\\ud800"`.
MODE `deep-listing`: answers `tools/list` with a tool whose inputSchema nests `properties` 150 deep (past the
200 levels the SDK reads JSON to); a second `tools/list` gets a plain tool `t`.
MODE `version`: answers `initialize` with protocol version 2099-01-01, whatever it was asked.
MODE `ids`: its tool `t` answers "ok t"; `answered` answers with the id of `initialize`, `never_sent`
with an id the client never sent, `null` with a parse error whose id is `null`; `slow` answers
"ok slow" after 1 s, whatever was cancelled meanwhile.
"""

import base64
import json
import os
import signal
import sys
import time

MODE = sys.argv[1]
TAKES_X = {"type": "object", "properties": {"x": {"type": "string"}}}
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n").decode()
CONTENTS = {
    "error": {"content": [{"type": "text", "text": "no such order"}], "isError": True},
    "error_empty": {"content": [], "isError": True},
    "image": {"content": [{"type": "image", "data": PNG, "mimeType": "image/png"}]},
    "audio": {"content": [{"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}]},
    "video": {"content": [{"type": "video", "uri": "https://example.com/v.mp4"}, {"type": "text", "text": "a clip"}]},
    "resource": {
        "content": [
            {"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "inside"}}
        ]
    },
    "blob": {"content": [{"type": "resource", "resource": {"uri": "file:///a.bin", "blob": "AAAA"}}]},
    "text_blob": {  # server-everything's text resources "as a blob": text, base64-encoded, with a text/* type
        "content": [
            {
                "type": "resource",
                "resource": {
                    "uri": "demo://blob/2",
                    "mimeType": "text/plain",
                    "blob": base64.b64encode(b"caf\xc3\xa9").decode(),
                },
            }
        ]
    },
    "latin1_blob": {  # a text/* type whose bytes are not UTF-8: not shown
        "content": [
            {"type": "resource", "resource": {"uri": "demo://blob/3", "mimeType": "text/plain", "blob": "6Q=="}}
        ]
    },
    "wrapped_blob": {  # base64 in lines of 76 characters (Python's base64.encodebytes, a MIME encoder)
        "content": [
            {
                "type": "resource",
                "resource": {
                    "uri": "demo://blob/4",
                    "mimeType": "text/markdown",
                    "blob": base64.encodebytes(("# Notes\n" + "café " * 20).encode()).decode(),
                },
            }
        ]
    },
    "declared_latin1_blob": {  # a text type whose charset is said: read in it
        "content": [
            {
                "type": "resource",
                "resource": {"uri": "demo://blob/5", "mimeType": "text/plain; charset=ISO-8859-1", "blob": "Y2Fm6Q=="},
            }
        ]
    },
    "link": {"content": [{"type": "resource_link", "uri": "file:///b.txt", "name": "b.txt", "mimeType": "text/plain"}]},
    "signed_link": {
        "content": [
            {"type": "resource_link", "uri": "https://files.example/r.pdf?token=tok-abcdef-99", "name": "report"}
        ]
    },
    "structured": {"content": [], "structuredContent": {"total": 3}},
    "huge": {"content": [{"type": "text", "text": "x" * 10_000_000}]},
    "no_content": {},
    "bad_utf8": None,
    # a file name read with `surrogateescape`: json.dumps writes it as "caf\\udce9.txt", a lone surrogate
    "file_name": {"content": [{"type": "text", "text": b"caf\xe9.txt".decode("utf-8", "surrogateescape")}]},
}
TASK_SUPPORT = {"research": "required", "summarize": "optional", "add": "forbidden"}
WRONG_IDS = {"answered": 0, "never_sent": 424242, "null": None}
"""MODE `ids`: the id each of these tools answers with (`answered`: that of `initialize`)."""
NAMES = [
    {"name": "twice", "description": "first", "inputSchema": TAKES_X},
    {"name": "twice", "description": "second", "inputSchema": TAKES_X},
    {"name": "with space", "inputSchema": TAKES_X},
    {"name": "a.b.c", "inputSchema": TAKES_X},
    {"name": "查询订单", "inputSchema": TAKES_X},
    {"name": "n" * 200, "inputSchema": TAKES_X},
    {"name": "no_schema"},
    {"name": "schema_list", "inputSchema": [1, 2]},
    {"name": "schema_string", "inputSchema": "object"},
    {"name": "schema_array_type", "inputSchema": {"type": "array", "items": {"type": "string"}}},
    {
        "name": "refs",
        "inputSchema": {
            "type": "object",
            "properties": {"to": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "object", "properties": {"city": {"type": "string"}}}},
        },
    },
    {
        "name": "one_of",
        "inputSchema": {
            "type": "object",
            "oneOf": [
                {"properties": {"id": {"type": "string"}}, "required": ["id"]},
                {"properties": {"email": {"type": "string"}}, "required": ["email"]},
            ],
        },
    },
    {"name": "good", "inputSchema": TAKES_X},
]


def send(message):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


def junk(text):
    if MODE == "junk":
        sys.stdout.write(text + "\n")
    elif MODE == "json-logs":  # a JSON logger writing to stdout (pino's default)
        sys.stdout.write(json.dumps({"level": 30, "msg": text}) + "\n")
    elif MODE == "deep":  # JSON nested deeper than Python's parser goes, with an escaped lone surrogate
        sys.stdout.write('{"a": ' * 50_000 + '"\\ud800"' + "}" * 50_000 + "\n")
    sys.stdout.flush()


def tools():
    if MODE == "names":
        return NAMES
    if MODE == "contents":
        return [{"name": name, "inputSchema": TAKES_X} for name in CONTENTS]
    if MODE == "tasks":
        return [
            {"name": name, "inputSchema": TAKES_X, "execution": {"taskSupport": support}}
            for name, support in TASK_SUPPORT.items()
        ]
    if MODE == "env":
        return [{"name": name, "inputSchema": TAKES_X} for name in ("env", "env_error")]
    if MODE == "ids":
        return [{"name": name, "inputSchema": TAKES_X} for name in ["t", "slow", *WRONG_IDS]]
    return [{"name": "t", "inputSchema": TAKES_X}]


def call(rid, params):
    name = params.get("name")
    if MODE == "exit-in-call":
        sys.stdout.write('{"jsonrpc": "2.0", "id": ')
        sys.stdout.flush()
        sys.exit(4)
    if MODE == "silent":
        return
    if MODE == "notify":
        token = (params.get("_meta") or {}).get("progressToken", "none")
        for done in (1, 2):
            send({"method": "notifications/progress", "params": {"progressToken": token, "progress": done, "total": 2}})
            send({"method": "notifications/message", "params": {"level": "info", "data": f"step {done}"}})
    if MODE == "bad-notify":
        send({"method": "notifications/message", "params": {"level": "verbose", "data": "cache warmed"}})
    if MODE == "contents" and name == "bad_utf8":  # a text cut inside a character, and a Latin-1 byte
        text = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "caf@ é"}]}})
        sys.stdout.buffer.write(text.encode().replace(b"@", b"\xe9").replace(b"\\u00e9", b"\xc3") + b"\n")
        sys.stdout.flush()
        return
    if MODE == "contents":
        send({"id": rid, "result": CONTENTS[name]})
        return
    if MODE == "env":
        shown = json.dumps({k: v for k, v in sorted(os.environ.items()) if k.startswith("SHOP_")}, indent=2)
        send({"id": rid, "result": {"content": [{"type": "text", "text": shown}], "isError": name == "env_error"}})
        return
    if MODE == "tasks" and TASK_SUPPORT.get(name) == "required":
        message = f"Tool {name} requires task augmentation (taskSupport: 'required')"
        send({"id": rid, "error": {"code": -32601, "message": message}})
        return
    if MODE == "ids" and name in WRONG_IDS:
        wrong = WRONG_IDS[name]
        send(
            {"id": wrong, "error": {"code": -32700, "message": "Parse error"}}
            if wrong is None
            else {"id": wrong, "result": {"content": []}}
        )
        return
    if MODE == "ids" and name == "slow":
        time.sleep(1)
    junk("answering now")
    send({"id": rid, "result": {"content": [{"type": "text", "text": f"ok {name}"}]}})


if MODE == "silent":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.environ.get("PID_FILE"):  # for a test that checks the process is gone after close()
        with open(os.environ["PID_FILE"], "w") as f:
            f.write(str(os.getpid()))
LISTED: list[object] = []
"""MODE `deep-listing`: the id of the listing answered too deep (the first)."""
junk("starting the stranger server")
for line in sys.stdin:
    request = json.loads(line)
    method, rid = request.get("method"), request.get("id")
    if rid is None:
        junk(f"got {method}")
        continue  # a notification
    if method == "initialize":
        WRONG_IDS["answered"] = rid
        info = {"name": "stranger", "version": "1"}
        version = "2099-01-01" if MODE == "version" else request["params"]["protocolVersion"]
        send({"id": rid, "result": {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": info}})
    elif method == "tools/list" and MODE == "deep-listing" and not LISTED:
        LISTED.append(rid)
        nested = '{"type": "object", "properties": {"a": ' * 150 + "{}" + "}}" * 150
        sys.stdout.write(f'{{"jsonrpc": "2.0", "id": {json.dumps(rid)}, "result": {{"tools": [{{"name": "deep", ')
        sys.stdout.write(f'"inputSchema": {nested}}}]}}}}\n')
        sys.stdout.flush()
    elif method == "tools/list":
        junk("listing")
        send({"id": rid, "result": {"tools": tools()}})
    elif method == "tools/call":
        call(rid, request.get("params") or {})
    elif method == "ping":
        send({"id": rid, "result": {}})
    else:
        send({"id": rid, "error": {"code": -32601, "message": f"Method not found: {method}"}})
junk("bye")
if MODE == "silent":
    while True:  # ignores a closed stdin too
        time.sleep(1)
