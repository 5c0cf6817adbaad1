"""Numbers written in Chinese numerals, for a number field the text gives no digits for: "转三百五十块", "两千美元",
"一万二日元" (12,000), "客厅调到二十二度", "选第三个", "三个人".

`worded.worded_numbers` reads English words only, so "两千美元换成欧元" made up an amount of 1. `chinese_numbers(text)`
gives each number the text writes in Chinese numerals, in its order. A numeral run is read as a number where it cannot
be part of a word: a run of two characters or more with a place (十, 百, 千, 万, 亿) that starts with a digit or 十
(三百五十, 两千, 十五; not 万一 "in case" or 千万 "by all means"), or one digit after 第 (第三个: 3) or before a
measure word or unit (三个, 两位, 五天, 三块; not 三星, 三明治, 一下). A digit after the last place is that place's
tenth, as it is said (一万二: 12,000, 三千五: 3,500, 两百五: 250; 一千零五: 1,005).
Left out: fractions and decimals (三点五, 百分之五 is `arith`'s), digits mixed with numerals (3千 and 5万 are the
`number` fact's scale), 一 alone before a measure word read as "a" where it is a count (一个房间 is one room), and
traditional or financial numerals (壹, 贰, 萬).
"""

from __future__ import annotations

import re

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_PLACES = {"十": 10, "百": 100, "千": 1_000}
_SECTIONS = {"万": 10_000, "亿": 100_000_000}
_MEASURES = (
    "个|位|名|人|张|本|件|份|天|晚|夜|次|台|块|元|美元|欧元|日元|英镑|度|公里|千米|米|公斤|千克|克|斤|岁|小时|分钟|秒|"
    "周|星期|间|瓶|杯|碗|辆|条|双|套|盒|箱|页|层|站|颗|只|把|节|场|首|篇|项"
)
_NUMERALS = "零〇一二两三四五六七八九十百千万亿"
_RUN = re.compile(
    rf"[零〇一二两三四五六七八九十][{_NUMERALS}]+|(?<=第)[一二两三四五六七八九十]|[二两三四五六七八九十](?=(?:{_MEASURES}))"
)
_CUE = re.compile(f"[{_NUMERALS}]")
_MAX_READ = 2_000


def chinese_numbers(text: str) -> list[int]:
    """The numbers `text` writes in Chinese numerals (its first 2,000 characters), in order; [] when none (the usual:
    an ASCII text is not searched)."""
    if text.isascii() or _CUE.search(text) is None:
        return []
    found = (_value(m.group()) for m in _RUN.finditer(text[:_MAX_READ]) if _placed(m.group()))
    return [n for n in found if n is not None]


def _placed(run: str) -> bool:
    """Whether a run is a number: one character (a digit after 第 or before a measure word), or one with a place."""
    return len(run) == 1 or any(c in _PLACES or c in _SECTIONS for c in run)


def _value(run: str) -> int | None:
    """三百五十 as 350, 一万二 as 12,000, 十五 as 15; None for a run that is no one number (二三, 五五五)."""
    total, section, digit, last, zero = 0, 0, None, None, False
    for char in run:
        if char in _DIGITS:
            if digit is not None and not (digit == 0 or _DIGITS[char] == 0):
                return None  # two digits together: 二三 is "two or three", no number
            zero = zero or _DIGITS[char] == 0
            digit = _DIGITS[char] if _DIGITS[char] else digit
        elif char in _PLACES:
            section += (1 if digit is None else digit) * _PLACES[char]
            digit, last, zero = None, _PLACES[char], False
        else:
            section = (section + (digit or 0)) * _SECTIONS[char]
            total, section, digit, last, zero = total + section, 0, None, _SECTIONS[char], False
    if digit is not None and last is not None and last >= 100 and not zero:
        digit *= last // 10  # 一万二 is 12,000, 三千五 3,500: the digit said after the last place is its tenth
    return total + section + (digit or 0)
