"""A hand-written stdio MCP server whose `tools/list` answer is one huge line: `huge_line_server.py SIZE`
answers with one tool `big` whose description is SIZE characters long (the line a little longer);
`huge_line_server.py SIZE endless METHOD` answers METHOD (`initialize`, `tools/list`) with a line that
never ends (SIZE unused)."""

import json
import sys

size, endless = int(sys.argv[1]), sys.argv[3] if sys.argv[2:3] == ["endless"] else None
for line in sys.stdin:
    request = json.loads(line)
    rid, method = request.get("id"), request.get("method")
    if method == endless:
        chunk = "x" * 65536
        while True:
            sys.stdout.write(chunk)
            sys.stdout.flush()
    elif method == "initialize":
        info = {"name": "huge", "version": "1"}
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": info}
    elif method == "tools/list":
        result = {"tools": [{"name": "big", "description": "d" * size, "inputSchema": {"type": "object"}}]}
    elif rid is not None:
        result = {}
    else:
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}) + "\n")
    sys.stdout.flush()
