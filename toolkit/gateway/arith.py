"""Arithmetic a user asks for, read from the text for a calculator tool: "what is 15% of 80", "7 times 6",
"2+3*4", "12 divided by 4", "80 的 15%", "百分之15乘以80", "3 加 5".

`read(text)` gives the `Sum`: the expression in the usual symbols (`0.15 * 80`, `2 + 3 * 4`) for a field that
asks for one, its numbers in order, and its operations (`add`, `sub`, `mul`, `div`) for a tool of two numbers
and an operation's `enum` (`operation_value`: `mul`, `"*"`, `multiply`). A percentage of a number is its
fraction times the number. None when the text holds no sum: a bare number, a date (2026-12-04, 12/03/2026),
"version 2-3" (a minus needs blanks around it). A sum written with brackets is given as written ("(12.5+7)/3").
Left out: powers, roots and functions (a text holding them gives its sum up to there), and numbers written in
words ("seven").
"""

from __future__ import annotations

import re
from typing import NamedTuple

_NUMBER = r"-?\d+(?:\.\d+)?"
_OPS = {
    "add": r"\+|plus|added\s+to|加上?",
    "sub": r"(?<=\s)-(?=\s)|−|minus|less|减去?",
    "mul": r"\*|×|(?<=\d)\s*x(?=\s*\d)|(?<=\s)x(?=\s)|times|multiplied\s+by|乘以?",
    "div": r"/|÷|divided\s+by|over|除以",
}
_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
_OP = "|".join(f"(?P<{name}>{pattern})" for name, pattern in _OPS.items())
_CHAIN = re.compile(rf"(?<![\w.:/-])({_NUMBER})((?:\s*(?:{_OP})\s*{_NUMBER})+)(?![\w.:/-])", re.I)
_STEP = re.compile(rf"\s*(?:{_OP})\s*({_NUMBER})", re.I)
_PERCENT_OF = re.compile(
    rf"(?<![\w.])({_NUMBER})\s*(?:%|％|percent\b|per\s+cent\b)\s*of\s*({_NUMBER})(?![\w.])"
    rf"|(?<![\w.])({_NUMBER})\s*的\s*({_NUMBER})\s*[%％]|百分之\s*({_NUMBER})\s*(?:的|乘以?|×|\*)?\s*({_NUMBER})?",
    re.I,
)
_MAY_PERCENT = re.compile(r"[%％]|per|百分之", re.I)
"""What every `_PERCENT_OF` match holds (`%`, `％`, "per" of "percent" or "per cent", 百分之): a text without it
is not searched (the search tries three alternatives at every place, as none starts with a literal)."""
_MAY_CHAIN = re.compile(r"\d(?=\s*[-+−*×/÷加减乘除pamlxtdo])", re.I)
"""What every `_CHAIN` match holds: a digit, blanks, and a character an operation of `_OPS` starts with (any
case, as `_CHAIN` reads them): a text without one is not searched (`_CHAIN` tries every operation at each digit)."""
_MAX_READ = 2_000
_DIGIT = re.compile(r"\d")
_DATED = re.compile(r"\d/\d+/\d")
"""Two slashes between numbers with no blank: a date (12/03/2026, 2026/12/04), no sum."""
_NAMES = {
    "add": ("add", "addition", "plus", "sum", "+"),
    "sub": ("sub", "subtract", "subtraction", "minus", "difference", "-"),
    "mul": ("mul", "multiply", "multiplication", "times", "product", "*", "x", "×"),
    "div": ("div", "divide", "division", "quotient", "/", "÷"),
}
_OPERATION_OF = {name: operation for operation, names in _NAMES.items() for name in names}


class Sum(NamedTuple):
    """A sum the text asks for: `expression` in symbols, its `numbers` and `operations` in order."""

    expression: str
    numbers: tuple[float, ...]
    operations: tuple[str, ...]
    span: tuple[int, int] = (0, 0)
    """Where the sum is written in the text (start, end)."""


def read(text: str) -> Sum | None:
    """The first sum the text asks for (a percentage of a number first), or None (the usual case)."""
    head = text[:_MAX_READ]
    if _DIGIT.search(head) is None:
        return None
    percent = _PERCENT_OF.search(head) if _MAY_PERCENT.search(head) else None
    if percent is not None:
        found = _percent(percent)
        if found is not None:
            return found
    if _MAY_CHAIN.search(head) is None:
        return None
    chain = next((c for c in _CHAIN.finditer(head) if _DATED.search(c.group()) is None), None)
    if chain is None:
        return None
    numbers, operations = [_number(chain.group(1))], []
    for step in _STEP.finditer(chain.group(2)):
        operations.append(next(name for name in _OPS if step.group(name) is not None))
        numbers.append(_number(step.group(step.lastindex or 0)))
    parts = [written(numbers[0])]
    for operation, number in zip(operations, numbers[1:]):
        parts += [_SYMBOLS[operation], written(number)]
    bracketed = _bracketed(head, chain.span())
    if bracketed is not None:  # "(12.5+7)/3": the sum as written, not its first bracket's "12.5 + 7"
        return Sum(head[bracketed[0] : bracketed[1]], tuple(numbers), tuple(operations), bracketed)
    return Sum(" ".join(parts), tuple(numbers), tuple(operations), chain.span())


_IN_BRACKETS = re.compile(r"[\d\s.+*/×÷()-]")


def _bracketed(text: str, span: tuple[int, int]) -> tuple[int, int] | None:
    """Where the sum at `span` is written with brackets around or beside it ("(12.5+7)/3", "2*(3+4)"): the
    whole run of digits, operators and brackets holding it when its brackets pair up, blanks left out; None
    when no bracket touches the sum (the usual), or they do not pair up."""
    start, end = span
    if "(" not in text[max(0, start - 3) : start] and ")" not in text[end : end + 3]:
        return None
    first = start
    while first > 0 and _IN_BRACKETS.fullmatch(text[first - 1]):
        first -= 1
    last = end
    while last < len(text) and _IN_BRACKETS.fullmatch(text[last]):
        last += 1
    while first < last and text[first].isspace():
        first += 1
    while last > first and text[last - 1].isspace():
        last -= 1
    run, depth = text[first:last], 0
    for char in run:
        depth += (char == "(") - (char == ")")
        if depth < 0:
            return None
    return (first, last) if depth == 0 else None


def operations(values: list[object]) -> bool:
    """Whether `values` (an `enum`'s) are operations: two or more of them name one (`add`, `"+"`, `"multiply"`)."""
    return sum(isinstance(v, str) and v.strip().lower() in _OPERATION_OF for v in values) >= 2


def operation_value(values: list[object], operation: str) -> object | None:
    """The value of an `enum` of operations (`operations`; any case) that names `operation`, or None (no such
    enum, or none of its values is that operation)."""
    if not operations(values):
        return None
    return next((v for v in values if isinstance(v, str) and _OPERATION_OF.get(v.strip().lower()) == operation), None)


def _percent(match: re.Match[str]) -> Sum | None:
    """ "15% of 80", "80 的 15%", "百分之15 的 80" as 0.15 * 80; "百分之15" alone is no sum."""
    if match.group(1) is not None:
        share, whole = match.group(1), match.group(2)
    elif match.group(3) is not None:
        whole, share = match.group(3), match.group(4)
    elif match.group(6) is not None:
        share, whole = match.group(5), match.group(6)
    else:
        return None
    fraction = _number(share) / 100
    return Sum(f"{written(fraction)} * {whole}", (fraction, _number(whole)), ("mul",), match.span())


def _number(written: str) -> float:
    return float(written)


def written(number: float) -> str:
    """A number as a person writes it: 7, not 7.0; 0.15."""
    return str(int(number)) if number.is_integer() else repr(number)
