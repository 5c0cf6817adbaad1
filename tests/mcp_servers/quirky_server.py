"""An MCP server with the schemas and behaviours real servers throw at a client.

Built on the official SDK's low-level `Server`, so every tool list is exactly what we write.
Run: `python quirky_server.py [--cancel-file PATH] [--http [--port P]]` (over HTTP it says its URL on
stderr; port 0, any free one, by default), or import `make_server()`
for the in-process client.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

ADDRESS = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
    "required": ["city"],
}
SCHEMAS = {
    "ship_defs": {
        "type": "object",
        "properties": {"to": {"$ref": "#/$defs/Address"}},
        "required": ["to"],
        "$defs": {"Address": ADDRESS},
    },
    "ship_definitions": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"to": {"$ref": "#/definitions/Address"}},
        "definitions": {"Address": ADDRESS},
    },
    "tree": {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
            }
        },
    },
    "nullable": {
        "type": "object",
        "properties": {"limit": {"type": ["integer", "null"], "minimum": 1}, "key": {"type": ["string", "number"]}},
    },
    "any_of": {
        "type": "object",
        "properties": {
            "target": {
                "anyOf": [
                    {"properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
                    {"type": "array", "items": {"type": "string"}},
                ]
            }
        },
    },
    "sep2106": {
        "type": "object",
        "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
        "anyOf": [{"required": ["email"]}, {"required": ["phone"]}],
    },
    "nested_no_type": {
        "type": "object",
        "properties": {
            "filter": {"properties": {"status": {"enum": ["open", "closed"]}}, "additionalProperties": False},
            "anything": {},
        },
    },
    "files.read": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    "no_args": {"type": "object", "properties": {}},
    "echo": {"type": "object", "properties": {"text": {"type": "string"}}},
    "fail": {"type": "object", "properties": {}},
    "hang": {"type": "object", "properties": {}},
    "crash": {"type": "object", "properties": {}},
    "image": {"type": "object", "properties": {}},
    "structured": {"type": "object", "properties": {}},
    "list_calls": {"type": "object", "properties": {}},
    "bad_ref": {"type": "object", "properties": {"x": {"$ref": "https://example.com/other.json"}}},
}
ANNOTATIONS = {"echo": types.ToolAnnotations(read_only_hint=True, destructive_hint=False, title="Echo")}
META = {"echo": {"team": "course", "cost": 0}}


def make_server(cancel_file: str | None = None, hanging: Any = None, hang_file: str | None = None) -> Server:
    """The quirky server; `cancel_file` is written when a `hang` call gets cancelled, and `hanging`
    (a `threading.Event`, in process only) is set, and `hang_file` written, when a `hang` call has arrived."""
    lists = [0]

    async def list_tools(ctx, params) -> types.ListToolsResult:
        lists[0] += 1
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=name,
                    description=f"Quirky tool {name}.",
                    input_schema=schema,
                    annotations=ANNOTATIONS.get(name),
                    _meta=META.get(name),
                )
                for name, schema in SCHEMAS.items()
            ]
        )

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        name, arguments = params.name, params.arguments
        if name == "fail":
            return _text("the warehouse is closed today", error=True)
        if name == "hang":
            if hanging is not None:
                hanging.set()
            if hang_file:
                with open(hang_file, "w") as f:
                    f.write("hanging")
            try:
                await anyio.sleep(600)  # past any timeout a test sets: ends only when cancelled
            except anyio.get_cancelled_exc_class():
                if cancel_file:
                    with open(cancel_file, "w") as f:
                        f.write("cancelled")
                raise
        if name == "crash":
            os._exit(7)
        if name == "image":
            return types.CallToolResult(
                content=[
                    types.TextContent(text="a chart:"),
                    types.ImageContent(data="iVBORw0KGgo=", mime_type="image/png"),
                ]
            )
        if name == "list_calls":
            return _text(str(lists[0]))
        if name == "structured":
            return types.CallToolResult(content=[], structured_content={"ok": True})
        return _text(json.dumps({"tool": name, "arguments": arguments}, sort_keys=True))

    return Server("quirky", version="1.0", on_list_tools=list_tools, on_call_tool=call_tool)


def _text(text: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=error)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cancel-file")
    parser.add_argument("--hang-file")
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    server = make_server(args.cancel_file, hang_file=args.hang_file)
    if args.http:  # bound here, then announced on stderr: port 0 (any free one) is told (`loopback.announced`)
        import socket

        import uvicorn

        sock = socket.create_server(("127.0.0.1", args.port))
        print(f"quirky on http://127.0.0.1:{sock.getsockname()[1]}/mcp", file=sys.stderr, flush=True)
        uvicorn.Server(uvicorn.Config(server.streamable_http_app(), log_level="warning")).run(sockets=[sock])
    else:
        from mcp.server.stdio import stdio_server

        async def serve() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        anyio.run(serve)


if __name__ == "__main__":
    main(sys.argv[1:])
