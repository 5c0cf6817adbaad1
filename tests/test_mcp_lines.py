"""toolkit.mcp.lines: a stdio server's stdout reaches the SDK one whole line at a time (its reader,
which joins and splits its whole buffer for every chunk, is then linear), and a line past the cap is
refused with one error naming the server, the size and the cap."""

import re
import sys
from pathlib import Path

import anyio
import anyio.abc
import pytest

import toolkit.mcp.client as mcp_client
import toolkit.mcp.lines as lines
from toolkit.errors import McpError
from toolkit.mcp.client import McpClient
from toolkit.mcp.lines import FramedLines

SERVER = str(Path(__file__).parent / "mcp_servers" / "huge_line_server.py")
CHUNK = 65536
MIB = 1024 * 1024


class Chunks(anyio.abc.ByteReceiveStream):
    """Bytes given in pieces of at most CHUNK, as a pipe gives them; `endless`: 'x' for ever."""

    def __init__(self, data=b"", endless=False):
        self.data, self.at, self.endless, self.closed, self.read = data, 0, endless, False, 0

    async def receive(self, max_bytes=CHUNK):
        if self.closed:
            raise anyio.ClosedResourceError
        if self.endless:
            piece = b"x" * max_bytes
        elif self.at >= len(self.data):
            raise anyio.EndOfStream
        else:
            piece, self.at = self.data[self.at : self.at + max_bytes], self.at + max_bytes
        self.read += len(piece)
        return piece

    async def aclose(self):
        self.closed = True


def pieces_of(stream):
    async def read():
        got = []
        while True:
            try:
                got.append(await stream.receive())
            except anyio.EndOfStream:
                return got

    return anyio.run(read)


def test_a_4_mib_line_is_given_whole_in_one_piece_and_short_lines_end_each_piece():
    line = b'{"a": "' + b"y" * (4 * MIB) + b'"}\n'
    data = b"one\ntwo\n" + line + b"three\nfour"
    told = []
    stream = FramedLines(Chunks(data), 64 * MIB, lambda size, cap: told.append((size, cap)))
    got = pieces_of(stream)
    assert b"".join(got) == data and not told
    # each piece ends at a newline (the last line, unended, at the end): the SDK's buffer is empty when one
    # comes, so the 4 MiB line is joined and split once, not once per 64 KiB chunk (64 times)
    assert got == [b"one\ntwo\n", line + b"three\n", b"four"] and stream.pieces == 3


@pytest.mark.parametrize(("length", "refused"), [(MIB, False), (MIB + 1, True)])
def test_a_line_of_exactly_the_cap_is_read_and_one_byte_more_is_refused(length, refused):
    data = b"z" * length + b"\nafter\n"
    told = []
    inner = Chunks(data)
    got = pieces_of(FramedLines(inner, MIB, lambda size, cap: told.append((size, cap))))
    if refused:
        assert got == [] and told == [(MIB + 1, MIB)] and inner.closed
    else:
        assert b"".join(got) == data and told == [] and not inner.closed


def test_a_line_that_never_ends_is_cut_at_the_cap_with_memory_bounded_and_told_once():
    told = []
    inner = Chunks(endless=True)
    stream = FramedLines(inner, MIB, lambda size, cap: told.append((size, cap)))
    assert pieces_of(stream) == []
    assert told == [(MIB + CHUNK, MIB)] and inner.closed and inner.read == MIB + CHUNK
    with pytest.raises(anyio.EndOfStream):  # read again (the SDK's drain): ended, nothing more read
        anyio.run(stream.receive)
    assert told == [(MIB + CHUNK, MIB)] and inner.read == MIB + CHUNK


def test_a_12_mib_tools_list_line_from_a_stdio_server_reaches_the_sdk_in_one_piece(monkeypatch):
    given = []

    class Counted(FramedLines):
        def _given(self, piece):
            given.append(len(piece) if piece.endswith(b"\n") else -1)
            return super()._given(piece)

    monkeypatch.setattr(lines, "FramedLines", Counted)
    monkeypatch.setattr(mcp_client, "MAX_LISTING_CHARS", 30_000_000)
    with McpClient.stdio(sys.executable, [SERVER, str(12 * MIB)], name="huge") as client:
        (tool,) = client.list_tools()
    assert tool.name == "big" and len(tool.description) == 12 * MIB
    assert -1 not in given and max(given) > 12 * MIB  # whole lines only: the 12 MiB answer in one piece


def test_a_stdio_server_writing_a_line_past_the_cap_fails_the_request_at_once_naming_server_size_and_cap(
    monkeypatch,
):
    monkeypatch.setattr(lines, "MAX_LINE_BYTES", MIB)
    client = McpClient.stdio(sys.executable, [SERVER, "0", "endless", "tools/list"], name="huge", request_timeout=60)
    try:
        with pytest.raises(McpError) as caught:
            client.list_tools()
        # how much was read before the cut depends on how the pipe cut the chunks: up to one more chunk
        read = re.fullmatch(
            r"MCP server 'huge' broke the protocol: it wrote a line of more than 1,048,576 bytes on stdout "
            r"\(([\d,]+) read before it was cut; the most one line may take is toolkit\.mcp\.lines\.MAX_LINE_BYTES = "
            r"1,048,576\), so its output is no longer read: have it answer with less, or raise that cap",
            str(caught.value),
        )
        assert read and MIB < int(read[1].replace(",", "")) <= MIB + CHUNK
        assert client.gone == "it wrote a line of more than 1,048,576 bytes on stdout"
    finally:
        client.close()


def test_a_stdio_server_answering_initialize_with_a_line_past_the_cap_cannot_be_reached_and_says_why(monkeypatch):
    monkeypatch.setattr(lines, "MAX_LINE_BYTES", MIB)
    client = McpClient.stdio(sys.executable, [SERVER, "0", "endless", "initialize"], name="huge", connect_timeout=60)
    try:
        with pytest.raises(McpError) as caught:
            client.list_tools()
        assert str(caught.value).startswith(
            "cannot reach MCP server 'huge': it broke the protocol while connecting: it wrote a line of more than "
            "1,048,576 bytes on stdout ("
        )
    finally:
        client.close()
