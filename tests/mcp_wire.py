"""A low-level MCP `Server` reached over in-memory streams, as over a wire: the client's messages go
through the JSON-RPC dispatcher a stdio or HTTP connection uses (an in-process server object does
not), without a process or a socket. `McpClient(wire(server))`."""

import contextlib

import anyio
from mcp.shared.memory import create_client_server_memory_streams


@contextlib.asynccontextmanager
async def wire(server):
    """`server` run on one end of a pair of memory streams; the client's end is yielded."""
    async with create_client_server_memory_streams() as (client_streams, server_streams):
        async with anyio.create_task_group() as group:
            group.start_soon(
                lambda: server.run(*server_streams, server.create_initialization_options(), raise_exceptions=False)
            )
            try:
                yield client_streams
            finally:
                group.cancel_scope.cancel()


@contextlib.asynccontextmanager
async def closing_on_call():
    """A 2025-06-18 server written by hand over JSON-RPC messages: it answers `initialize` and `tools/list`
    (one tool `t`), and on `tools/call` closes its end of the connection without an answer, as a server
    that crashed mid-call does (the client reads the end of its stream)."""
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    def message(data):
        return SessionMessage(types.jsonrpc_message_adapter.validate_python({"jsonrpc": "2.0", **data}, by_name=False))

    to_server, requests = anyio.create_memory_object_stream(100)
    to_client, answers = anyio.create_memory_object_stream(100)

    async def serve():
        async with to_client:
            async for item in requests:
                data = item.message.model_dump(by_alias=True, mode="json", exclude_none=True)
                method, rid = data.get("method"), data.get("id")
                if method == "initialize":
                    info = {"name": "closing", "version": "1"}
                    result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": info}
                    await to_client.send(message({"id": rid, "result": result}))
                elif method == "tools/list":
                    tools = [{"name": "t", "inputSchema": {"type": "object"}}]
                    await to_client.send(message({"id": rid, "result": {"tools": tools}}))
                elif method == "tools/call":
                    return  # the end of the stream: the client reads "Connection closed"
                elif method is not None and rid is not None:
                    await to_client.send(message({"id": rid, "error": {"code": -32601, "message": "Method not found"}}))

    async with anyio.create_task_group() as group:
        group.start_soon(serve)
        try:
            yield answers, to_server
        finally:
            group.cancel_scope.cancel()
