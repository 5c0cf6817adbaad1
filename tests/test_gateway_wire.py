"""`ChunkStream` (the gateway's fast SSE encoding) writes exactly the bytes of the plain path:
`completion_chunks` built as dicts, each dumped as `data: {json}`."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.gateway.wire import ChunkStream, Reply, Turn, completion_chunks, dumps

SPECIAL = ["", "退款", 'say "hi"\n', 'say "hi"', "\\", "\ud800 lone", "\udfff", "\x00\x1f", "a\x1f", "\x7f\u2028", "😀"]
SPECIAL += ["\\u0000", "\x00", "a\\\x00b", "\\u0000\x00", '"\\u0000"']  # a NUL, and text that reads as its escape
"""Each of the characters orjson escapes (or refuses) alone, and some it writes as they are."""
texts = st.text(max_size=40) | st.sampled_from(SPECIAL)
calls = st.lists(
    st.builds(
        lambda i, name, arguments: {
            "id": f"call_{i}",
            "type": "function",
            "function": {"name": name, "arguments": arguments},
        },
        st.integers(0, 10**6),
        st.text(min_size=1, max_size=12),
        texts,
    ),
    max_size=3,
)
turns = st.builds(
    Turn,
    id=st.text(max_size=10).map(lambda t: "chatcmpl-" + t),
    model=texts,
    created=st.integers(0, 2**40),
    content=st.none() | texts,
    tool_calls=calls.map(tuple),
    usage=st.fixed_dictionaries({"prompt_tokens": st.integers(0, 10**6), "total_tokens": st.integers(0, 10**6)}),
    fingerprint=st.just("fp_fake_keyword"),
    finish=st.none() | st.sampled_from(["length", "stop"]),
)


def plain(turn: Turn, include_usage: bool, piece: int) -> list[bytes]:
    return [b"data: " + dumps(e) + b"\n\n" for e in completion_chunks(turn, include_usage=include_usage, piece=piece)]


@settings(max_examples=400, deadline=None)
@given(turn=turns, include_usage=st.booleans(), piece=st.integers(1, 12))
def test_spliced_lines_are_the_plain_encoding_byte_for_byte(turn, include_usage, piece):
    stream = ChunkStream(turn, include_usage=include_usage, piece=piece)
    assert stream.lines() == plain(turn, include_usage, piece)
    assert stream.data() == b"".join(plain(turn, include_usage, piece))
    assert list(stream) == completion_chunks(turn, include_usage=include_usage, piece=piece)


@pytest.mark.parametrize("text", SPECIAL)
def test_each_special_text_is_spliced_as_the_plain_encoding_writes_it(text):
    for content in (text, f"ab{text}cd", text * 3):
        for piece in (1, 3, 8):
            turn = Turn("chatcmpl-1", "m", 0, content, (), {"prompt_tokens": 1}, "fp")
            assert ChunkStream(turn, include_usage=False, piece=piece).data() == b"".join(plain(turn, False, piece))


def test_a_reply_with_a_chunk_stream_encodes_as_the_same_events_as_dicts():
    turn = Turn("chatcmpl-1", "m", 0, "你好，世界", (), {"prompt_tokens": 1}, "fp")
    fast = Reply(200, events=ChunkStream(turn, include_usage=True, piece=2))
    slow = Reply(200, events=tuple(completion_chunks(turn, include_usage=True, piece=2)))
    assert fast.encode() == slow.encode() == b"".join(slow.iter_bytes()) == b"".join(fast.iter_bytes())
    assert fast.encode().endswith(b"data: [DONE]\n\n")


def test_the_splice_is_taken_not_the_fallback_on_ordinary_text():
    """Guards the speed-up itself: without a lone surrogate, no dict is ever built."""
    turn = Turn("chatcmpl-1", "m", 0, "到哪了？", (), {"prompt_tokens": 1}, "fp")
    stream = ChunkStream(turn, include_usage=False, piece=3)
    stream.data()
    stream.lines()
    assert stream._events is None
