"""A gateway's body is read in the encoding its bytes show (a byte-order mark; UTF-8, which JSON and
server-sent events are), before the `charset` its `Content-Type` claims: a relay labelling UTF-8
JSON `charset=iso-8859-1` or `gbk` (a server's default left in place) turned every non-ASCII reply
into mojibake without a word, where the `openai` SDK reads the bytes as JSON and gets it right. A
body the label fits and UTF-8 does not (real GBK) is still read by its label."""

import json

import httpx
import pytest

from toolkit.chat.charset import body_encoding
from toolkit.chat.client import ChatClient, RetryPolicy
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import StreamDone, TextDelta

SAID = "订单已发货 ✓ — café"
REPLY = json.dumps(
    {"choices": [{"index": 0, "message": {"role": "assistant", "content": SAID}, "finish_reason": "stop"}]},
    ensure_ascii=False,
)


def _client(content: bytes, content_type: str) -> ChatClient:
    transport = httpx.MockTransport(
        lambda r: httpx.Response(200, content=content, headers={"content-type": content_type})
    )
    return ChatClient("http://gw.test/v1", "k", "m", transport=transport, retry=RetryPolicy(max_retries=0))


GBK_REPLY = REPLY.replace(SAID, "订单已发货")


@pytest.mark.parametrize(
    ("content", "content_type", "said"),
    [
        (REPLY.encode(), "application/json; charset=iso-8859-1", SAID),
        (REPLY.encode(), "application/json; charset=gbk", SAID),
        (REPLY.encode(), "application/json; charset=nonsense", SAID),
        (b"\xef\xbb\xbf" + REPLY.encode(), "application/json; charset=gbk", SAID),
        (REPLY.encode("utf-16"), "application/json", SAID),
        (REPLY.encode("utf-16-le"), "application/json", SAID),
        (REPLY.encode("utf-16-be"), "application/json; charset=utf-16be", SAID),
        (GBK_REPLY.encode("gbk"), "application/json; charset=gbk", "订单已发货"),
    ],
    ids=["utf8-as-latin1", "utf8-as-gbk", "utf8-as-unknown", "bom-over-gbk", "utf16-bom", "utf16le", "utf16be", "gbk"],
)
def test_a_reply_is_read_in_the_encoding_its_bytes_show_before_the_label(content, content_type, said):
    client = _client(content, content_type)
    assert client.chat([UserMessage(content="q")]).message.content == said
    assert said in client.exchanges[-1].response_text


def test_a_stream_is_utf8_whatever_its_label_says():
    events = (
        "".join(
            f"data: {json.dumps({'choices': [{'index': 0, 'delta': {'content': part}}]}, ensure_ascii=False)}\n\n"
            for part in ("订单已发货", " ✓ — café")
        )
        + "data: [DONE]\n\n"
    )
    client = _client(events.encode(), "text/event-stream; charset=iso-8859-1")
    got = list(client.stream([UserMessage(content="q")]))
    assert "".join(e.text for e in got if isinstance(e, TextDelta)) == SAID
    assert isinstance(got[-1], StreamDone) and got[-1].response.message.content == SAID
    assert " ✓ — café" in client.exchanges[-1].response_text


@pytest.mark.parametrize(
    ("content", "label", "encoding"),
    [
        (b"\xef\xbb\xbf{}", "gbk", "utf-8-sig"),
        (b"\xff\xfe{\x00}\x00", None, "utf-16"),
        (b"\xfe\xff\x00{\x00}", "utf-8", "utf-16"),
        (b"\xff\xfe\x00\x00{\x00\x00\x00", None, "utf-32"),
        (b"{\x00}\x00", None, "utf-16-le"),
        (b"\x00{\x00}", "utf-8", "utf-16-be"),
        ('{"a": "é"}'.encode(), "iso-8859-1", "utf-8"),
        (b"{}", "gbk", "utf-8"),
        ('{"a": "订单"}'.encode("gbk"), "gbk", "gbk"),
        ('{"a": "订单"}'.encode("gbk"), "x-unknown", None),
        ('{"a": "订单"}'.encode("gbk"), None, None),
        (b"", "gbk", "utf-8"),
    ],
)
def test_body_encoding(content, label, encoding):
    assert body_encoding(content, label) == encoding
