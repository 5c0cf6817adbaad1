"""toolkit.gateway.encoding: a compressed body as a stranger's client may send it (several gzip members,
bytes after the stream, a bomb spread over members) is read whole or refused with one clear sentence,
never read in part and never past the body limit."""

import gzip
import json
import zlib

import pytest

from toolkit.gateway.core import GatewayConfig, handle_http
from toolkit.gateway.encoding import MAX_MEMBERS, decoded
from toolkit.gateway.validate import RequestError

BODY = json.dumps({"model": "m", "messages": [{"role": "user", "content": "查询订单 SN202610200001"}]}).encode()
JSON = {"content-type": "application/json"}
HALF = len(BODY) // 2


def post(body, encoding, method="POST", path="/v1/chat/completions"):
    return handle_http(method, path, {**JSON, "content-encoding": encoding}, body, GatewayConfig())


def refusal(body, encoding, limit=1 << 20):
    with pytest.raises(RequestError) as caught:
        decoded(body, encoding, limit)
    return caught.value.status, str(caught.value)


def test_a_gzip_body_of_several_members_is_read_whole():
    """Before: the second member was dropped, and the first half of the JSON was a 400 'Unterminated string'."""
    two = gzip.compress(BODY[:HALF], mtime=0) + gzip.compress(BODY[HALF:], mtime=0)
    reply = post(two, "gzip")
    assert (reply.status, reply.encode()) == (200, post(gzip.compress(BODY), "gzip").encode())


def not_encoded(name):
    return (
        400,
        f"We could not parse the JSON body of your request: its Content-Encoding is {name}, but the body is not "
        f"{name} data (or is cut short).",
    )


def after_end(name):
    return (
        400,
        f"We could not parse the JSON body of your request: its Content-Encoding is {name}, but bytes follow the "
        f"end of its {name} data; send the compressed body alone.",
    )


@pytest.mark.parametrize(
    "body, encoding, expected",
    [
        (gzip.compress(BODY) + b"garbage", "gzip", after_end("gzip")),  # before: 200, the bytes dropped unread
        (zlib.compress(BODY) + b"garbage", "deflate", after_end("deflate")),
        (gzip.compress(BODY) + gzip.compress(BODY)[:-12], "gzip", not_encoded("gzip")),  # a second member cut short
        (gzip.compress(BODY) + b"\x1f\x8b", "gzip", not_encoded("gzip")),
    ],
    ids=["gzip then garbage", "zlib then garbage", "second member cut", "a member's magic alone"],
)
def test_bytes_after_the_compressed_data_are_refused_not_dropped(body, encoding, expected):
    assert refusal(body, encoding) == expected
    assert post(body, encoding).body["error"]["code"] == "invalid_json"


def test_a_bomb_spread_over_members_stops_at_the_limit():
    """Each member inflates within the limit; together they pass it: 413, and no more than limit + 1 bytes read."""
    member = gzip.compress(b" " * 600, mtime=0)
    assert len(decoded(member * 3, "gzip", 1000)) == 1001
    config = GatewayConfig(max_body_bytes=1000)
    reply = handle_http("POST", "/v1/chat/completions", {**JSON, "content-encoding": "gzip"}, member * 3, config)
    assert (reply.status, reply.body["error"]["message"]) == (413, "The request body is larger than 1000 bytes.")


def test_a_body_of_very_many_members_is_refused_past_the_most_members():
    """Each empty member costs a decompressor: a 64 MB body of them was minutes of work."""
    empty = gzip.compress(b"", mtime=0)
    assert len(decoded(empty * (MAX_MEMBERS - 1) + gzip.compress(BODY), "gzip", 1 << 20)) == len(BODY)
    assert refusal(empty * MAX_MEMBERS + gzip.compress(BODY), "gzip") == (
        400,
        f"We could not parse the JSON body of your request: its gzip data is in more than {MAX_MEMBERS} "
        "members; send it as one.",
    )


@pytest.mark.parametrize("encoding", ["gzip", "br", "x-nope"])
def test_an_encoding_on_a_get_is_no_matter(encoding):
    """A GET has no body to undo: the model list is answered, whatever the header says."""
    reply = post(b"\x00junk", encoding, method="GET", path="/v1/models")
    assert reply.status == 200 and reply.body["object"] == "list"
