"""`toolkit.gateway.server`: a request whose body never comes whole (a `Content-Length` larger than
what was sent, a chunk size past the chunk, `Expect: 100-continue` and no body) held its connection
open for ever: uvicorn has no body timeout. The app waits `BODY_TIMEOUT_S` for it, then answers 408."""

import asyncio
import json

from toolkit.gateway.server import BODY_TIMEOUT_S, Gateway, create_app

SCOPE = {
    "type": "http",
    "method": "POST",
    "path": "/v1/chat/completions",
    "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"), (b"content-length", b"500")],
    "server": ("127.0.0.1", 18083),
}
BODY = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode()


def _run(app, messages):
    """What `app` sends for a request whose body comes as `messages`, then never any more."""
    sent = []

    async def receive():
        if messages:
            return messages.pop(0)
        await asyncio.Event().wait()  # the rest of the body never arrives

    async def send(message):
        sent.append(message)

    asyncio.run(app(dict(SCOPE), receive, send))
    return sent


def test_a_body_that_never_comes_whole_is_a_408_after_the_wait():
    gateway = Gateway(faults=["rate_limit"])
    app = create_app(gateway)
    assert BODY_TIMEOUT_S == 30
    app.body_timeout_s = 0.02
    for first in ([], [{"type": "http.request", "body": BODY[:10], "more_body": True}]):
        start, body = _run(app, list(first))
        assert start["status"] == 408
        assert json.loads(body["body"]) == {
            "error": {
                "message": "The request body did not arrive whole within 0.02 s (a Content-Length or chunk size "
                "larger than the bytes sent?); send the whole body with the request.",
                "type": "invalid_request_error",
                "param": None,
                "code": "request_timeout",
            }
        }
    assert gateway.pending_faults == ["rate_limit"]  # no chat request was counted


def test_a_body_in_pieces_within_the_wait_is_answered():
    app = create_app(Gateway())
    app.body_timeout_s = 5
    pieces = [
        {"type": "http.request", "body": BODY[:10], "more_body": True},
        {"type": "http.request", "body": BODY[10:]},
    ]
    assert _run(app, pieces)[0]["status"] == 200
