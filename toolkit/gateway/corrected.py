"""A value the user corrects in the same message: the corrected one is read, the one taken back is not.

"weather in Paris, I mean Rome" called get_weather(city="Paris"): the first place was read, the correction
dropped. `corrected(text)` is the text with each correction applied: the words after the cue ("I mean",
"I meant", "no wait", "sorry", "actually", "make that", "or rather", 我是说, 我的意思是, 不对, 说错了) up to the
clause's end take the place of the last value of their own kind before it: a number (with its unit, if the
correction writes one: "5 pm, I mean 6 pm"), a day ("Monday", "tomorrow", "next Friday"), a run of capitalised
words ("New York"), a run of Chinese characters as long as the correction's, that is no glossary word and holds
no stop character (北京 in 北京的天气), else as many words as the correction has. A value taken back by "not"
is dropped too ("not Paris, London", "London, not Paris", "not in Paris but in London", "not a suite, a double",
不是北京，是上海). `cancelled(text)` is true of a text that takes back all it asked at its end ("weather in Paris?
actually no, never mind", "forget it", 算了): nothing is asked for.
Leaves out: a correction of a value of another kind than the one written ("Paris, I mean tomorrow" replaces
no place), two corrections of one value, and texts over 2,000 characters (read as written).
"""

from __future__ import annotations

import re

from toolkit.gateway.rules import Rules

_CUE = re.compile(
    r"(?i)\b(?:mean|meant|wait|sorry|actually|make\s+that|rather|not)\b|我是说|我的意思是|不对|说错了|不是"
)
"""Every correction holds one of these: a text without it is returned as it is (the usual)."""
_MAX_TEXT = 2_000
_CORRECTION = re.compile(
    r"(?i)\s*(?:[,;—–-]+|\.\.\.)\s*(?:(?:no|oh|er|um|uh)[,\s]+)?"
    r"(?:i\s+mean[t]?|no\s+wait|wait|sorry|actually|make\s+(?:that|it)|or\s+rather|rather)\b[,:\s]*"
    r"(?:(?:in|at|to|on|from|for)\s+)?(?P<value>[^,;.!?\n]+?)(?=\s*(?:[,;.!?\n]|$))"
    r"|\s*[，,]?\s*(?:我是说|我的意思是|不对[，,]?\s*是?|说错了[，,]?\s*是?)\s*(?P<zh>[^，,。；;！!？?\s]+)"
)
_TAKEN_BACK = re.compile(
    r"(?:(?<=\s)|^)(?i:not)\s+(?i:(?:in|at|to|on|from)\s+)?"
    r"(?P<gone>(?=[A-Z0-9]|(?i:today|tomorrow|tonight|next|this|monday|tuesday|wednesday|thursday|friday|saturday"
    r"|sunday)\b)(?:[\w'’-]+\s+){0,2}[\w'’-]+)\s*(?:,\s*(?i:but\s+)?|\s+(?i:but)\s+)(?=\S)"
    r"|,\s*(?i:not)\s+(?i:(?:in|at|to|on|from)\s+)?(?=[A-Z0-9])(?:[\w'’-]+\s+){0,2}[\w'’-]+(?=\s*(?:[.!?]|$))"
    r"|(?<=\s)(?i:not)\s+(?:a|an|the)\s+[\w'’-]+\s*(?:,\s*(?i:but\s+)?|\s+(?i:but)\s+)(?=(?:a|an|the)\s)"
    r"|不是(?P<zh>[^，,。；;！!？?\s是]{1,8})[，,]?\s*而?是"
)
_PRONOUNS = frozenset({"i", "we", "you", "he", "she", "they", "let", "let's", "lets"})
_NUMBER = re.compile(r"\d[\d.,:]*")
_DAY = re.compile(
    r"(?i)\b(?:(?:next|this|last)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|weekend)\b"
    r"|\b(?:today|tomorrow|tonight|yesterday)\b"
)
_CAPITALISED = re.compile(r"(?<![\w'’])[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*")
_WORD = re.compile(r"[\w'’-]+")
_HAN = re.compile(r"[\u4e00-\u9fff]+")


def corrected(text: str, rules: Rules) -> str:
    """`text` with its corrections applied and the values it takes back left out: `text` itself when it holds none."""
    if len(text) > _MAX_TEXT or _CUE.search(text) is None:
        return text
    kept = _TAKEN_BACK.sub("", text)
    while (match := _CORRECTION.search(kept)) is not None:
        before, after = kept[: match.start()], kept[match.end() :]
        value = (match.group("value") or match.group("zh") or "").strip()
        replaced = _replaced(before, value, rules) if _a_value(value, rules) else None
        if replaced is None:
            return kept if kept != text else text
        kept = replaced + after
    return kept if kept != text else text


_CANCELLED = re.compile(
    r"(?i)(?:^|[,.;!?，。；！？]|\b(?:actually|oh|no|so|ok|okay|well)\b)\s*(?:no\s*[,.]?\s*)?"
    r"(?:never\s*mind|forget\s+(?:it|that|about\s+it)|cancel\s+that|scratch\s+that|nothing)\s*[.!]*\s*$"
    r"|[，,。.\s]\s*(?:算了|不用了|不查了|没事了)[吧啊。.!！]*\s*$"
)


def cancelled(text: str) -> bool:
    """Whether `text` ends by taking back all it asked ("... actually no, never mind", "... forget it", ……算了)."""
    return len(text) <= _MAX_TEXT and _CANCELLED.search(text) is not None


def _a_value(value: str, rules: Rules) -> bool:
    """A correction's words that can be a value: at most four words, the first no stopword ("I need Rome" after
    "actually" is a sentence of its own, not a value)."""
    words = _WORD.findall(value)
    if _HAN.fullmatch(value):
        return True
    first = words[0].lower() if words else ""
    return 0 < len(words) <= 4 and first not in rules.generic.stopwords and first not in _PRONOUNS


def _replaced(before: str, value: str, rules: Rules) -> str | None:
    """`before` with its last value of `value`'s kind replaced by `value`; None when it has none."""
    span = _last_span(before, value, rules)
    if span is None:
        return None
    return before[: span[0]] + value + before[span[1] :]


def _last_span(before: str, value: str, rules: Rules) -> tuple[int, int] | None:
    if _HAN.fullmatch(value):
        return _han_span(before, len(value), rules)
    if (number := _NUMBER.match(value)) is not None:
        found = list(_NUMBER.finditer(before))
        if not found:
            return None
        start, end = found[-1].span()
        extra = len(_WORD.findall(value[number.end() :]))
        words = list(_WORD.finditer(before, end))[:extra]
        return start, words[-1].end() if words else end
    if _DAY.fullmatch(value):
        days = list(_DAY.finditer(before))
        return days[-1].span() if days else None
    if value[0].isupper():
        runs = [m for m in _CAPITALISED.finditer(before) if m.start() > 0 and not _DAY.fullmatch(m.group())]
        return runs[-1].span() if runs else None
    words = list(_WORD.finditer(before))
    count = len(_WORD.findall(value))
    if not count or len(words) < count + 1:
        return None
    return words[-count].start(), words[-1].end()


def _han_span(before: str, length: int, rules: Rules) -> tuple[int, int] | None:
    """The last run of `length` Chinese characters of `before` that overlaps no glossary word and holds no stop
    character: the place or thing a Chinese correction takes the place of."""
    stop = rules.generic.chinese_stop_chars
    covered: set[int] = set()
    for word, _ in rules.generic.glossary:
        if not word.isascii():
            for found in re.finditer(re.escape(word), before):
                covered.update(range(*found.span()))
    for run in reversed(list(_HAN.finditer(before))):
        for start in range(run.end() - length, run.start() - 1, -1):
            chars = range(start, start + length)
            if not covered.intersection(chars) and not any(before[i] in stop for i in chars):
                return start, start + length
    return None
