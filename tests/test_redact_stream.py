"""`StreamScrubber`: text scrubbed as it streams in pieces. A secret split across pieces never
shows, whole or in part; everything else comes out, exactly once, by the final flush."""

import random

import pytest
from secret_corpus import CORPUS, ENVIRONMENT

from toolkit.tools import redact_stream
from toolkit.tools.redact import REDACTED, scrub
from toolkit.tools.redact_stream import StreamScrubber, settled

KEY = "sk-proj-AbCdEf0123456789xyzQ"


def streamed(pieces: list[str]) -> list[str]:
    scrubber = StreamScrubber()
    return [scrubber.feed(piece) for piece in pieces] + [scrubber.flush()]


def cut(text: str, rng: random.Random, most: int = 6) -> list[str]:
    pieces, at = [], 0
    while at < len(text):
        step = rng.randint(1, most)
        pieces.append(text[at : at + step])
        at += step
    return pieces


def test_a_key_cut_in_two_at_every_place_never_shows():
    text = f"好的，您的密钥是 {KEY} 请妥善保管。"
    for at in range(1, len(text)):
        out = streamed([text[:at], text[at:]])
        shown = "".join(out)
        assert shown == f"好的，您的密钥是 {REDACTED} 请妥善保管。", at
        assert not any(KEY[i : i + 4] in shown for i in range(3, len(KEY) - 3)), at


def test_a_piece_is_shown_at_once_up_to_its_last_blank_or_chinese_letter():
    assert streamed(["订单 SN2026", "10200001 已发货，预计明天送达", "。Order SN2026", "10200001"]) == [
        "订单 ",
        "SN202610200001 已发货，预计明天送达",
        "。Order ",
        "",
        "SN202610200001",
    ]
    assert streamed(["the key is sk-pr", "oj-AbCdEf0123456789xyzQ and", " more"]) == [
        "the key is ",
        f"{REDACTED} ",
        "and ",
        "more",
    ]


def test_a_label_in_one_piece_and_its_value_in_the_next_are_read_together():
    assert "".join(streamed(["my password is ", "hun", "ter2 ok"])) == f"my password is {REDACTED} ok"
    assert "".join(streamed(["数据库密码：", "Zh-pw", "-8848，请勿外传"])) == f"数据库密码：{REDACTED}，请勿外传"
    assert (
        "".join(streamed(["Authorization: Bearer ", "abcdef", "123456bear\n"])) == f"Authorization: Bearer {REDACTED}\n"
    )


def test_a_private_key_streamed_line_by_line_never_shows_its_body():
    body = ["MIIEowIBAAKCAQEAsecretbodyline1", "line2secretbody", "line3secretbody"]
    text = "key:\n-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END RSA PRIVATE KEY-----\nafter it\n"
    for size in (1, 3, 8, 40):
        shown = "".join(streamed(cut(text, random.Random(size), size)))
        assert not any(line in shown for line in body), shown
        assert shown.startswith("key:\n") and shown.endswith("\nafter it\n"), shown


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("password: 'two words' end", ["two", "words"]),
        ('the password is "correct horse battery" ok then', ["correct", "horse", "battery"]),
        ('DB_PASS="correct horse" next', ["correct", "horse"]),
        ("密码是「正确 马 甲」好的", ["正确", "马", "甲"]),
        ('{"client_secret": "alpha beta gamma", "city": "Paris"} done', ["alpha", "beta", "gamma"]),
    ],
)
def test_a_quoted_secret_with_blanks_never_shows_a_word(text, words):
    """Before: the words before the closing quote showed (`password: 'two [REDACTED]' end`): each
    was shown when its blank came, before the quote that made it a secret's. Now a quoted value
    after a label is held from its opening quote until the closing one comes."""
    for size in (1, 2, 3, 5, 8):
        for seed in range(10):
            out = streamed(cut(text, random.Random(seed), size))
            assert "".join(out) == scrub(text), (size, seed)
            assert not any(word in piece for piece in out for word in words), (size, seed, out)


def test_an_apostrophe_or_a_json_string_is_no_open_secret():
    assert streamed(["don't tell him, ", "it's fine ", "ok"]) == ["don't tell him, ", "it's fine ", "", "ok"]
    assert "".join(streamed(['{"note": "a b', ' c", "x": 1} done'])) == '{"note": "a b c", "x": 1} done'
    assert streamed(['{"note": "a b', ' c", "x": 1} done'])[0] == '{"note": "a '


ORDINARY = [
    "您好！订单 SN202610200001 已于 10 月 20 日发货，快递单号 SF1234567890，预计 2 天内送达。",
    "commit 3f2c9a1b7d4e5f60718293a4b5c6d7e8f9012345 and uuid 123e4567-e89b-12d3-a456-426614174000.",
    "Skills, sklearn and the npm_install step; hfile readers.\n\nNew paragraph — “quoted” 「引号」 ok",
    "a line ending without a blank",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_text_without_secrets_comes_out_whole_and_once_however_it_is_cut(text):
    for seed in range(200):
        out = streamed(cut(text, random.Random(seed)))
        assert "".join(out) == text, seed


@pytest.fixture
def secret_environment(monkeypatch):
    for name, value in ENVIRONMENT.items():
        monkeypatch.setenv(name, value)


@pytest.mark.usefixtures("secret_environment")
def test_no_planted_secret_shows_however_the_stream_is_cut():
    """The secret corpus, each text followed by a blank (a secret ends where its run does): what
    is shown holds no planted secret, and, joined, is the whole text scrubbed (but that a private
    key's `BEGIN` line shows its words: `-----BEGIN RSA PRIVATE [REDACTED]`). A quoted secret with
    blanks in it is held whole until its closing quote (before: its first words showed)."""
    for kind, exc, secret in CORPUS:
        if kind == "traceback":
            continue
        text = f"{exc} \n"
        for seed in range(20):
            shown = "".join(streamed(cut(text, random.Random(seed))))
            assert secret not in shown, (kind, secret, seed)
            if "PRIVATE KEY" not in text:
                assert shown == scrub(text), (kind, secret, seed)


def test_a_long_run_in_small_pieces_is_read_in_linear_time(monkeypatch):
    """Counted, not timed: the characters that `scrub` and the run search read, over all pieces,
    stay a small multiple of the text's length (re-reading the held run at every piece would read
    30,000 times more)."""
    read = [0]

    def counting(function):
        def counted(text, *rest):
            read[0] += len(text)
            return function(text, *rest)

        return counted

    monkeypatch.setattr(redact_stream, "scrub", counting(redact_stream.scrub))
    monkeypatch.setattr(redact_stream, "_last_end", counting(redact_stream._last_end))
    payload = "QUJD" * 30_000  # 120,000 characters of base64 in one run
    pieces = [payload[i : i + 4] for i in range(0, len(payload), 4)]
    out = streamed(["image: ", *pieces, " done"])
    assert "".join(out) == f"image: {payload} done"
    assert read[0] <= 4 * len(payload)


def test_settled_text_stops_at_an_open_quoted_secret():
    """The live view shows `scrub(settled(text))` while a text streams: an open quoted secret is
    not part of it until its quote closes; an ordinary open quote is."""
    assert settled("password: 'two wo") == "password: '"
    assert settled("password: 'two words' and ") == "password: 'two words' and "
    assert settled('{"note": "a b c') == '{"note": "a b '
