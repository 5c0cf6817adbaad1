"""`toolkit.mcp.streams.Hooked`: a read stream, each item through a hook, its end told."""

import anyio
import pytest

from toolkit.mcp.streams import Hooked


def _hooked(items, ended):
    send, receive = anyio.create_memory_object_stream(10)
    for item in items:
        send.send_nowait(item)
    send.close()
    return Hooked(receive, lambda item: item * 10, lambda: ended.append(True))


def test_each_item_goes_through_the_hook_and_the_end_is_told_by_receive_and_by_iteration():
    async def main():
        ended = []
        stream = _hooked([1, 2], ended)
        assert await stream.receive() == 10
        with pytest.raises(anyio.EndOfStream):
            await stream.receive(), await stream.receive()
        assert ended == [True]
        ended.clear()
        async with _hooked([3, 4], ended) as again:
            assert [item async for item in again] == [30, 40]
        assert ended == [True]
        assert stream.statistics().tasks_waiting_receive == 0  # the stream's own

    anyio.run(main)
