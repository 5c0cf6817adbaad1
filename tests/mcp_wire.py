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
