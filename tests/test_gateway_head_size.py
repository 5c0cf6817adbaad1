"""`toolkit.gateway.head_size`: uvicorn's h11 refused a request head (request line and headers) past 16 KiB
only while it was incomplete, so the same 64 KB request line or 10,000 headers got a 200 when they came in one
read and a plain-text 400 ("Invalid HTTP request received.") when they came in two. Now any head past
`MAX_HEAD_BYTES` gets the same 431 in OpenAI's error shape, however it arrived."""

import json
import socket

import pytest

from toolkit.gateway.head_size import MAX_HEAD_BYTES
from toolkit.gateway.server import running_gateway

BODY = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode()
MESSAGE = (
    "The request line and headers are larger than 16384 bytes (toolkit.gateway.head_size.MAX_HEAD_BYTES); send "
    "fewer or shorter headers, and put long values in the JSON body."
)


@pytest.fixture(scope="module")
def address():
    with running_gateway() as url:
        host, port = url.split("//")[1].split("/")[0].rsplit(":", 1)
        yield host, int(port)


def _answer(address, target=b"/v1/chat/completions", headers=b""):
    """The status line and body of the answer to one request, read until the server closes or answers whole."""
    head = (
        b"POST " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n" % len(BODY) + headers + b"\r\n"
    )
    with socket.create_connection(address, timeout=30) as sock:
        try:
            sock.sendall(head + BODY)
        except OSError:  # the server answered and closed before reading it all
            pass
        data = b""
        while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < _length(data):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    status, _, rest = data.partition(b"\r\n")
    return status.decode(), rest.partition(b"\r\n\r\n")[2]


def _length(data):
    head = data.partition(b"\r\n\r\n")[0].lower()
    found = [line for line in head.split(b"\r\n") if line.startswith(b"content-length:")]
    return int(found[0][15:]) if found else 1 << 30


@pytest.mark.parametrize(
    "target, headers",
    [
        (b"/v1/chat/completions?q=" + b"a" * 65_536, b""),  # a 64 KB request line
        (b"/v1/chat/completions", b"".join(b"X-H%d: v\r\n" % i for i in range(10_000))),  # 10,000 headers
        (b"/v1/chat/completions", b"X-Big: " + b"b" * 400_000 + b"\r\n"),  # past one read: h11 gives up mid-way
    ],
    ids=["64KB-line", "10k-headers", "400KB-header"],
)
def test_a_head_past_the_limit_is_a_431_in_openai_s_shape_however_it_arrives(address, target, headers):
    status, body = _answer(address, target, headers)
    assert status == "HTTP/1.1 431 Request Header Fields Too Large"
    assert json.loads(body) == {
        "error": {
            "message": MESSAGE,
            "type": "invalid_request_error",
            "param": None,
            "code": "request_header_fields_too_large",
        }
    }


def test_a_head_within_the_limit_is_answered(address):
    assert MAX_HEAD_BYTES == 16 * 1024
    status, _ = _answer(address, headers=b"X-Big: " + b"b" * (MAX_HEAD_BYTES - 400) + b"\r\n")
    assert status == "HTTP/1.1 200 OK"


MALFORMED = (
    "The request is not HTTP/1.1 this server can read (a malformed request line or header, a chunk size that is not "
    "hex, or bytes left over after a Content-Length that was too short); send the request as an HTTP client "
    "library writes it."
)


def test_a_request_that_is_not_http_is_a_400_in_openai_s_shape(address):
    """Before: uvicorn's plain text, "Invalid HTTP request received.", without a hint, in no shape an SDK reads."""
    with socket.create_connection(address, timeout=30) as sock:
        sock.sendall(b"HELLO THERE\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 400 Bad Request"
    assert json.loads(body)["error"] == {
        "message": MALFORMED,
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_http_request",
    }
