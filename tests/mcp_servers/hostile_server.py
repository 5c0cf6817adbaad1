"""A hand-written stdio MCP server that misbehaves on purpose: `python hostile_server.py MODE`.

MODE `not-json`: writes a line that is not JSON (a stray `print`) just before its answer to
`initialize`, so the client has read it before the handshake ends, and never answers `tools/list`.
MODE `null-result`: lists one tool, `t`, and answers every call with `"result": null`, which
is not JSON-RPC. In both modes the request never gets a reply the client can read.
MODE `list-init`: answers `initialize` with `"result": [1, 2, 3]`, JSON-RPC in form but no
result object, so the handshake never gets a reply the client can read.
MODE `nan`: lists `t` and `n`, whose schema holds `NaN` — what Python's `json.dumps` writes
for `float("nan")` by default.
MODE `float-id`: lists `t` and answers every call under its id as a fraction (`2.0` for `2`), as
a server keeping numbers as floats (JavaScript's, through a double-typed field) may.
MODE `error-CODE` (`error--32000`): lists `t` and answers every call with a JSON-RPC error of that
code, "Server error: database is locked" (-32000 is the usual "Server error" of JSON-RPC libraries).
"""

import json
import sys

MODE = sys.argv[1]
TAKES_X = {"type": "object", "properties": {"x": {"type": "string"}}}
TOOLS = [{"name": "t", "inputSchema": TAKES_X}]
if MODE == "nan":
    TOOLS.append({"name": "n", "inputSchema": {"type": "object", "properties": {"a": {"minimum": float("nan")}}}})


def send(reply):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **reply}) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    request = json.loads(line)
    method, rid = request.get("method"), request.get("id")
    if rid is None:
        continue  # a notification
    if method == "initialize" and MODE == "list-init":
        send({"id": rid, "result": [1, 2, 3]})
    elif method == "initialize":
        if MODE == "not-json":  # before the answer: read before the handshake ends, whatever the load
            sys.stdout.write("listing tools now\n")
        info = {"name": "hostile", "version": "1"}
        version = request["params"]["protocolVersion"]
        send({"id": rid, "result": {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": info}})
    elif method == "tools/list" and MODE == "not-json":
        pass  # never answered: the request waits out its timeout
    elif method == "tools/list":
        send({"id": rid, "result": {"tools": TOOLS}})
    elif method == "tools/call" and MODE == "null-result":
        send({"id": rid, "result": None})
    elif method == "tools/call" and MODE.startswith("error-"):
        send({"id": rid, "error": {"code": int(MODE[len("error-") :]), "message": "Server error: database is locked"}})
    elif method == "tools/call" and MODE == "float-id":
        send({"id": float(rid), "result": {"content": [{"type": "text", "text": "ok"}]}})
    elif method == "tools/call":
        send({"id": rid, "result": {"content": [{"type": "text", "text": "ok"}]}})
    else:
        send({"id": rid, "error": {"code": -32601, "message": f"Method not found: {method}"}})
