"""`toolkit.unicode`: text that can leave the process."""

import json
import os

import pytest

from toolkit.unicode import columns, is_utf8, padded


def test_text_with_a_lone_surrogate_is_not_utf8():
    assert is_utf8("订单 SN1 ✓ 😀")
    assert is_utf8("")
    assert not is_utf8(json.loads('"cut \\ud83d"'))
    assert not is_utf8(os.fsdecode(b"name-\xff"))
    assert not is_utf8("\udc80")


def test_well_formed_text_is_utf8_pairs_joined_lone_halves_replaced():
    from toolkit.unicode import well_formed

    plain = "退款 😀 ok"
    assert well_formed(plain) is plain
    assert well_formed("\ud83d\ude00") == "😀"
    assert well_formed("a\ud83d b\ude00 \udce9") == "a\ufffd b\ufffd \ufffd"
    assert is_utf8(well_formed("".join(map(chr, range(0xD7F0, 0xE010)))))


# What a terminal draws, as `wcwidth.wcswidth` (the reference terminals' libraries use) counts it.
DRAWN = [
    ("查询天气", 8),
    ("ｗｅａｔｈｅｒ", 14),  # full-width Latin
    ("ｱｲｳ", 3),  # half-width katakana
    ("cafe\u0301", 4),  # a combining accent is drawn onto the e
    ("A\u0300\u0301", 1),
    ("नमस्ते", 4),  # Devanagari: a virama and vowel signs take no column
    ("שָׁלוֹם", 4),  # Hebrew with points
    ("مرحبا", 5),
    ("\u1100\u1161\u11a8", 2),  # a Hangul syllable written as three jamo
    ("👍🏽", 2),  # a skin tone on the emoji before it
    ("🏽", 2),  # a skin tone alone
    ("👨\u200d👩\u200d👧", 2),  # one family emoji: three joined by zero-width joiners
    ("👩🏽\u200d💻", 2),
    ("🏳\ufe0f\u200d🌈", 2),
    ("🇨🇳", 2),  # a flag: two regional indicators
    ("☃\ufe0f", 2),  # U+FE0F asks for the emoji look
    ("1\ufe0f\u20e3", 2),
    ("a\ufe0f", 1),  # a letter has no emoji look
    ("a\u200b", 1),  # a zero-width space
    ("\u200e", 0),
    ("", 0),
]


@pytest.mark.parametrize("text, drawn", DRAWN)
def test_columns_counts_what_a_terminal_draws(text, drawn):
    """A combining accent, a joined emoji, a skin tone counted a column each: `show_table`'s text
    and the timeline's lanes were pushed out of line by every one of them."""
    assert columns(text) == drawn
    assert columns(padded(text, 10)) == max(10, drawn)


# Cuts: what a reader sees as one character stays whole (or goes whole).
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # 👨‍👩‍👧
CUTS = [
    ("ab" + FAMILY + "cd", 6, "ab…"),  # not a man and a dangling joiner
    ("x🇯🇵🇫🇷", 4, "x🇯🇵…"),  # not Japan's flag and a lone F
    ("x🇯🇵🇫🇷", 3, "x…"),
    ("Cafe\u0301 bar", 5, "Caf…"),  # not a bare e for é
    ("key 1\ufe0f\u20e3 ok", 7, "key …"),  # not a plain 1 for the keycap
    ("ok 👍🏽 yes", 5, "ok …"),  # not a yellow thumb
    ("\u1100\u1161\u11a8 x", 3, "…"),  # not 가 for 각
    ("A" * 10, 5, "AAAA…"),
    ("short", 5, "short"),
    ("line\r\nnext", 6, "line…"),
]


@pytest.mark.parametrize(("text", "limit", "expected"), CUTS)
def test_a_cut_ends_where_a_character_a_reader_sees_ends(text, limit, expected):
    from toolkit.unicode import cut

    assert cut(text, limit) == expected


PIECES = [
    "a",
    "é",
    "e\u0301",
    FAMILY,
    "🇯🇵",
    "🇫🇷",
    "1\ufe0f\u20e3",
    "👍🏽",
    "\u1100\u1161\u11a8",
    "한",
    "\r\n",
    "\n",
    " ",
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "ก\u0e33",
    "क्ष",
    "\u0301",
]


def test_cuts_agree_with_wcwidth_graphemes():
    """Against `wcwidth.iter_graphemes` (UAX #29): the kept start is whole graphemes, as many as fit."""
    import random

    from wcwidth import iter_graphemes

    from toolkit.unicode import cut

    rng = random.Random(7)
    for _ in range(2000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 12)))
        limit = rng.randrange(1, len(text) + 2)
        shown = cut(text, limit)
        if len(text) <= limit:
            assert shown == text
            continue
        kept, fits = shown[:-1], ""
        for grapheme in iter_graphemes(text):
            if len(fits) + len(grapheme) > limit - 1:
                break
            fits += grapheme
        assert kept == fits, (text, limit)


def test_escaped_surrogates_writes_a_lone_one_as_its_escape_and_joins_a_pair():
    from toolkit.unicode import escaped_surrogates

    text = "plain 汉字"
    assert escaped_surrogates(text) is text
    assert escaped_surrogates("a\ud800b\ud83d\ude00c\udcff") == "a\\ud800b😀c\\udcff"
    assert escaped_surrogates("\ude00\ud83d") == "\\ude00\\ud83d"  # reversed: no pair
