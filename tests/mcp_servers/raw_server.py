"""A hand-written MCP server: plain JSON-RPC lines over stdio, no SDK, 2025 handshake only.

Stands for the servers written in other languages or by hand, which send what no SDK server
may: a root `inputSchema` without `"type"`. The official client refuses such a tool (the 2025
protocol requires `"type": "object"` at the root); toolkit reads it as an object (arguments are
one all the same) and offers it. Answers `server/discover` with "method not found", as servers from
before the 2026 protocol do, so the client falls back to `initialize`.
"""

import json
import sys

TOOLS = [
    {
        "name": "lookup",
        "description": "Root schema without a type.",
        "inputSchema": {"properties": {"sku": {"type": "string"}}, "required": ["sku"]},
    },
    {"name": "ping", "description": "No schema keywords at all.", "inputSchema": {}},
]


def answer(request):
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "raw", "version": "0.1"},
        }
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        text = json.dumps({"tool": params.get("name"), "arguments": params.get("arguments")}, sort_keys=True)
        return {"content": [{"type": "text", "text": text}], "isError": False}
    if method == "ping":
        return {}
    return None


for line in sys.stdin:
    request = json.loads(line)
    if "id" not in request:
        continue  # a notification
    result = answer(request)
    reply = {"jsonrpc": "2.0", "id": request["id"]}
    if result is None:
        reply["error"] = {"code": -32601, "message": f"Method not found: {request.get('method')}"}
    else:
        reply["result"] = result
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
