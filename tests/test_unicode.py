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
