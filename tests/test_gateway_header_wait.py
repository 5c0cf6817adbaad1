"""`toolkit.gateway.header_wait`: a client that sent a request's headers a byte at a time (or nothing
after connecting) held its connection to the HTTP gateway for ever: uvicorn has no header timeout.
Now it gets a 408 and the connection closes `headers_timeout_s` after the connection opened."""

import json
import socket
import time

import pytest

from toolkit.gateway import header_wait
from toolkit.gateway.server import Gateway, running_gateway

REQUEST = (
    b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: %d\r\n\r\n%s"
)
BODY = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode()


def _address(url):
    host, port = url.split("//")[1].split("/")[0].rsplit(":", 1)
    return host, int(port)


def _read_all(sock):
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _status(sock):
    """The status line of the next whole response on `sock` (its body read to its Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))[15:])
    while len(body) < length:
        body += sock.recv(65536)
    return head.split(b"\r\n")[0]


@pytest.fixture(scope="module")
def gateway_url():
    """One server for the module (each start costs some 0.2 s), its headers waited for 1 s (a margin of 0.2–0.4 s a
    loaded CI worker's scheduling cannot eat: 0.3 s with 0.2 s sleeps left 0.1 s)."""
    gateway = Gateway()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(header_wait, "HEADERS_TIMEOUT_S", 1.0)
        with running_gateway(gateway=gateway) as url:
            yield url, gateway


@pytest.mark.parametrize("pieces", [[], [b"POST /v1/chat/", b"completions HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n"]])
def test_headers_that_never_come_whole_are_a_408_and_the_connection_closes(gateway_url, pieces):
    """A byte now and then does not renew the wait: it runs from the connection's opening."""
    url, gateway = gateway_url
    gateway.schedule("rate_limit")
    with socket.create_connection(_address(url), timeout=5) as sock:
        for piece in pieces:
            sock.sendall(piece)
            time.sleep(0.4)  # three pieces outlast the 1 s wait (the last sent 0.2 s before it ends)
        answer = _read_all(sock)  # the server closes: recv returns b"" instead of waiting for ever
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 408 Request Timeout"
    assert b"connection: close" in head
    assert json.loads(body) == {
        "error": {
            "message": "The request headers did not arrive whole within 1 s of the connection opening (or of the "
            "last response on it); send the whole request at once.",
            "type": "invalid_request_error",
            "param": None,
            "code": "request_timeout",
        }
    }
    assert gateway.pending_faults == ["rate_limit"]  # no request reached the gateway
    with socket.create_connection(_address(url), timeout=5) as sock:  # the next one does
        sock.sendall(REQUEST % (len(BODY), BODY))
        assert _status(sock) == b"HTTP/1.1 429 Too Many Requests"


def test_requests_on_a_kept_connection_are_answered_past_the_first_wait(gateway_url):
    """The wait starts again at each response: a connection used for longer than it is never cut off."""
    url, _ = gateway_url
    statuses = []
    with socket.create_connection(_address(url), timeout=5) as sock:
        for _ in range(2):
            sock.sendall(REQUEST % (len(BODY), BODY))
            statuses.append(_status(sock))
            time.sleep(0.6)  # 1.2 s in all: past one wait from the opening
        sock.sendall(REQUEST % (len(BODY), BODY))
        statuses.append(_status(sock))
    assert statuses == [b"HTTP/1.1 200 OK"] * 3
