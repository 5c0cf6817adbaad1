"""toolkit tools served over stdio by `toolkit.mcp.server` (`python served_tools.py`): tools that
answer what real tools answer now and then."""

import anyio

from toolkit.mcp.server import serve_stdio, tools_server
from toolkit.tools.decorator import tool


@tool
def file_name() -> str:
    """The name of a file whose bytes are not UTF-8, as `os.listdir` gives it (`surrogateescape`)."""
    return b"caf\xe9.txt".decode("utf-8", "surrogateescape")


@tool
def echo(text: str) -> str:
    """Give the text back."""
    return text


if __name__ == "__main__":
    anyio.run(serve_stdio, tools_server([file_name, echo]))
