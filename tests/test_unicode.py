"""`toolkit.unicode`: text that can leave the process."""

import json
import os

from toolkit.unicode import is_utf8


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
