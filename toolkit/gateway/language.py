"""Which language the gateway answers in: English, unless the user wrote Chinese (or Japanese, Korean).

The replies come in two languages, Chinese and English. An ASCII text was English and any other Chinese, so "how
much is ¥5000 in GBP", "weather in Zürich?" or "50 € to dollars" were answered, or asked back, in Chinese.
`in_english(text)`: the text holds no CJK character (ideographs, kana, hangul, CJK punctuation and full-width
forms, which a Chinese input method types). Left out: other languages (French, Russian are answered in
English), and a text mixing English with one Chinese word (Chinese).
"""

from __future__ import annotations

import re

_CJK = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


def in_english(text: str) -> bool:
    """Whether to answer `text` in English: it is ASCII (the usual), or holds no CJK character."""
    return text.isascii() or _CJK.search(text) is None
