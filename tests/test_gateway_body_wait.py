"""`toolkit.gateway.body_wait`: an ASGI app's requests whose bodies do not arrive in time are answered
without the app, and the others reach it as they came; the MCP server over HTTP answers so (`late_body`)."""

from __future__ import annotations

import asyncio
import json

from toolkit.gateway.body_wait import body_timed
from toolkit.mcp.server import late_body


def served(messages, seconds=0.2, most=100, stall=True):
    """What `body_timed(app)` sends for a request whose `receive()` gives `messages` (then waits for ever, or
    gives a disconnect), and what the app read."""
    seen, sent = [], []

    async def app(scope, receive, send):
        while True:
            message = await receive()
            seen.append(message)
            if message["type"] != "http.request" or not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})

    async def run():
        left = list(messages)

        async def receive():
            if left:
                return left.pop(0)
            if stall:
                await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        await body_timed(app, seconds, late_body, most)({"type": "http"}, receive, send)

    asyncio.run(run())
    return seen, sent


def test_a_body_that_never_ends_is_answered_408_without_the_app():
    """Before: `Content-Length: 1000` and two bytes sent held the MCP server's connection for ever."""
    seen, sent = served([{"type": "http.request", "body": b"{}", "more_body": True}])
    assert seen == []
    assert sent[0]["status"] == 408
    assert (b"connection", b"close") in sent[0]["headers"]
    assert json.loads(sent[1]["body"]) == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": -32600,
            "message": "Invalid Request: the request body did not arrive whole within 0.2 s (a Content-Length or "
            "chunk size larger than the bytes sent?); send the whole body with the request",
        },
    }


def test_a_body_in_pieces_reaches_the_app_as_it_came_and_the_app_reads_on_past_it():
    pieces = [
        {"type": "http.request", "body": b'{"a":', "more_body": True},
        {"type": "http.request", "body": b"1}", "more_body": False},
    ]
    seen, sent = served(pieces, stall=False)
    assert seen == pieces and sent == [{"type": "http.response.start", "status": 200, "headers": []}]


def test_a_body_past_the_most_it_holds_is_handed_on_for_the_app_to_refuse():
    pieces = [{"type": "http.request", "body": b"x" * 60, "more_body": True} for _ in range(3)]
    pieces.append({"type": "http.request", "body": b"", "more_body": False})
    seen, sent = served(pieces, most=100, stall=False)
    assert seen == pieces and sent[0]["status"] == 200  # two pieces read first, the rest by the app itself


def test_other_scopes_pass_through():
    calls = []

    async def app(scope, receive, send):
        calls.append(scope["type"])

    asyncio.run(body_timed(app, 0.1, late_body, 10)({"type": "lifespan"}, None, None))
    assert calls == ["lifespan"]
