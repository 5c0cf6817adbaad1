"""An answer compressed one way and labelled another (`toolkit.chat.not_compressed.compressed_as`):
zlib's deflate or zstd sent as `Content-Encoding: gzip`, gzip sent as `deflate` or `zstd`. Before, the
learner read the decoder's words ("the response body cannot be decoded: Error -3 while decompressing
data: incorrect header check") and the hint to check LLM_BASE_URL; now the error names what the header
said and what the bytes are, and the hint says who must change what. A body that fits no compression
its header names and that no magic tells (raw DEFLATE under gzip, a damaged gzip) keeps the decoder's
words, with a hint about the bytes, not the URL. Nothing from any of them is used."""

import gzip
import json
import zlib

import pytest
from test_cassette_encodings import ANSWER, QUESTION, STREAM, streamed
from test_client_reply_size import _client, _Pieces

from toolkit.chat.client import UNDECODABLE_HINT
from toolkit.chat.not_compressed import OTHER_HINT, compressed_as
from toolkit.errors import BadResponseError

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
SQUEEZE = {
    "gzip": lambda data: gzip.compress(data, mtime=0),
    "deflate": zlib.compress,
    "zstd": lambda data: ZSTD_MAGIC + b"\x04\x00\x51\x00\x00" + zlib.compress(data)[2:],  # its magic, then junk
}
WORDS = {
    "gzip": "gzip (what Content-Encoding: gzip names)",
    "deflate": "zlib's deflate (what Content-Encoding: deflate names)",
    "zstd": "zstd (what Content-Encoding: zstd names)",
}


GZIPPED = gzip.compress(json.dumps(ANSWER).encode(), mtime=0)
DAMAGED = GZIPPED[:12] + bytes(b ^ 0xFF for b in GZIPPED[12:40]) + GZIPPED[40:]


def asked(header, data, stream):
    client = _client(200, "text/event-stream" if stream else "application/json", _Pieces(data, 7), header)
    with pytest.raises(BadResponseError) as caught:
        streamed(client) if stream else client.chat(QUESTION)
    return caught.value, client


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize(
    ("said", "sent"),
    [("gzip", "deflate"), ("gzip", "zstd"), ("x-gzip", "deflate"), ("deflate", "gzip"), ("br", "gzip")],
)
def test_a_body_compressed_otherwise_than_its_header_says_is_named(said, sent, stream):
    data = SQUEEZE[sent]((STREAM if stream else json.dumps(ANSWER)).encode())
    error, client = asked({"content-encoding": said}, data, stream)
    assert str(error) == (
        f"the response body cannot be decoded: the gateway said it was compressed as {said} (Content-Encoding) but "
        f"its bytes are {WORDS[sent]}; nothing from it was used"
    )
    assert (
        error.hint
        == OTHER_HINT
        == (
            "The server, or a proxy on the way, names one compression in its Content-Encoding header and uses another: "
            "have it name what it sends, or send what it names. Nothing on your side needs to change."
        )
    )
    assert "Elle arrive" not in client.exchanges[-1].response_text


@pytest.mark.parametrize(
    "data",
    [zlib.compress(json.dumps(ANSWER).encode())[2:-4], DAMAGED],
    ids=["raw-deflate", "damaged-gzip"],
)
def test_a_body_no_magic_tells_keeps_the_decoder_s_words_with_a_hint_about_the_bytes(data):
    error, _ = asked({"content-encoding": "gzip"}, data, False)
    assert str(error).startswith("the response body cannot be decoded: ")
    assert "said it was compressed" not in str(error)
    assert error.hint == UNDECODABLE_HINT
    assert "LLM_BASE_URL" not in error.hint


@pytest.mark.parametrize("said", ["gzip", "x-gzip", "deflate", "zstd"])
def test_the_compression_the_header_names_is_never_called_another(said):
    same = {"x-gzip": "gzip"}.get(said, said)
    assert compressed_as(SQUEEZE[same](b'{"choices": []}'), [said]) is None


@pytest.mark.parametrize("text", [b'{"choices": []}', b"data: {}", b"<html>", b"xylophone", b"x^ plain", b""])
def test_text_and_json_are_no_compression(text):
    assert compressed_as(text, ["br"]) in (None, "deflate")
    assert compressed_as(b'{"id": 1}', ["gzip"]) is None


def test_a_zlib_header_is_told_by_its_check_bits_for_every_level():
    for level in range(10):
        assert compressed_as(zlib.compress(b"x" * 100, level), ["gzip"]) == "deflate"
    assert compressed_as(b"\x78\x9d", ["gzip"]) is None  # check bits wrong
