"""Unicode text that can leave the process, and JSON escapes a learner can read.

A Python `str` may hold a lone surrogate (U+D800–U+DFFF): `os.fsdecode` writes undecodable bytes
of a file name that way, and `json.loads('"\\ud83d"')` gives one. UTF-8 cannot encode it, so a
model, a database, a tokenizer or a notebook cannot take it. `is_utf8` says whether a text is
free of them; each caller decides what to do (refuse with its own error, or show an escape).

`unescaped(arguments)` writes the JSON `\\uXXXX` escapes of printable characters in a call's
arguments as the characters (many gateways send `{"category": "\\u670d\\u88c5"}`), for the
lines and views that show a call.

`columns(text)` and `padded(text, width)` lay text out in a terminal's columns, where a wide
character (学, Ｓ, an emoji) takes two and a combining accent none.

`well_formed(text)` is the repair, for text that must leave whatever it holds: a surrogate pair
given as two code points joined into its character, a lone surrogate replaced by U+FFFD (what a
browser's `toWellFormed()` does). The chat client sends a request so, and the views show text so.
`escaped_surrogates(text)` writes a lone surrogate as its escape instead (`\\ud800`), for an
error's message, which must still say what it was given.

`cut(text, limit)` shortens a text to `limit` characters with "…", at the end of a character
as a reader sees it (a grapheme): never between a letter and its accent, inside a joined emoji
(👨‍👩‍👧), between a flag's two letters (🇯🇵) or inside a keycap (1️⃣). Every preview and one-line
summary in the package cuts through it.

Leaves out: repairing where a refusal is the better answer (a memory id, a file name): each
caller decides. The full Unicode grapheme rules (UAX #29): `cut` keeps what a reader sees as
one character whole by a few rules that cover letters, emoji and Hangul, without a dependency.
"""

from __future__ import annotations

import re
import unicodedata


def is_utf8(text: str) -> bool:
    """True when `text` can be written as UTF-8 (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_SURROGATE = re.compile("[\ud800-\udfff]")


def well_formed(text: str) -> str:
    """`text` as UTF-8 can carry it: a surrogate pair given as two code points joined into its
    character, a lone surrogate replaced by U+FFFD; any other text unchanged (the same object)."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def escaped_surrogates(text: str) -> str:
    """`text` as UTF-8 can carry it and a reader can still tell what it held: a surrogate pair given as two code
    points joined into its character, a lone surrogate written as its escape (`\\ud800`); any other text
    unchanged (the same object). For an error's message: Jupyter drops an error whose text UTF-8 cannot encode."""
    if not _SURROGATE.search(text):
        return text
    joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return joined.encode("utf-8", "backslashreplace").decode("utf-8")


_ESCAPE = re.compile(
    r"(?<!\\)(?P<lead>(?:\\\\)*)"  # an even run of backslashes before it: the escape is not escaped
    r"(?:\\u(?P<high>[dD][89abAB][0-9a-fA-F]{2})\\u(?P<low>[dD][c-fC-F][0-9a-fA-F]{2})|\\u(?P<one>[0-9a-fA-F]{4}))"
)
"""A JSON `\\uXXXX` escape, or a surrogate pair of them (an emoji)."""


def unescaped(arguments: str) -> str:
    """A call's arguments with JSON `\\u` escapes of printable characters written as the characters:
    many gateways send `{"category": "\\u670d\\u88c5"}` for `{"category": "服装"}`, which a learner
    cannot read. Everything else stays exactly as the model sent it (spacing, key order); an
    escape of a control character, a quote, a backslash or a lone surrogate stays an escape."""
    return _ESCAPE.sub(_character, arguments)


def _character(found: re.Match[str]) -> str:
    if found["high"]:
        code = 0x10000 + ((int(found["high"], 16) - 0xD800) << 10) + (int(found["low"], 16) - 0xDC00)
    else:
        code = int(found["one"], 16)
    char = chr(code)
    keep = 0xD800 <= code <= 0xDFFF or not char.isprintable() or char in '"\\'
    return found.group(0) if keep else found["lead"] + char


def columns(text: str) -> int:
    """How many terminal columns `text` takes, as `wcwidth.wcswidth` counts them: a wide character
    (学, Ｓ, an emoji) takes two; a character drawn onto the one before it takes none (a combining
    accent, a joiner and what it joins, a skin tone, a Hangul vowel or final consonant, an invisible
    format character); U+FE0F asks for the emoji look of the narrow symbol before it (☃️: two).
    A control character takes one (views write them out as code points first)."""
    total, last, before = 0, 0, ""  # the columns the character before took (0: none), and it
    for char in text:
        width = 0 if before == "\u200d" and last else _width(char, last)
        if char == "\ufe0f" and last == 1 and unicodedata.category(before)[0] in "SPN":
            width, last = 1, 2  # a symbol, a mark or a digit has an emoji look (©️ ‼️ 1️⃣), a letter none
        elif width:
            last = width
        total, before = total + width, char
    return total


def _width(char: str, last: int) -> int:
    """The columns one character takes, after one that took `last` (see `columns`)."""
    if unicodedata.category(char) in ("Mn", "Me", "Cf") or "\u1160" <= char <= "\u11ff":
        return 0
    if last and "\U0001f3fb" <= char <= "\U0001f3ff":  # a skin tone, on the emoji before it
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def padded(text: str, width: int) -> str:
    """`text` with spaces after it up to `width` columns (`columns`); longer text as it is."""
    return text + " " * max(0, width - columns(text))


def cut(text: str, limit: int, mark: str = "…") -> str:
    """`text`, or its start and `mark` in `limit` characters in all, cut where one character a
    reader sees ends (`boundary`): `cut("family 👨‍👩‍👧", 9)` is `"family …"`, never a man alone."""
    if len(text) <= limit:
        return text
    return text[: boundary(text, max(0, limit - len(mark)))] + mark


def boundary(text: str, end: int) -> int:
    """The last place at or before `end` where `text` can be cut without splitting what a reader
    sees as one character: not before an accent or after a virama (क्ष), a variation selector, a skin tone, a keycap or
    emoji tag, nor after a joiner (U+200D), nor between a flag's two regional indicators or the
    jamo of one Hangul syllable, nor inside a surrogate pair. 0 when the first character alone
    is longer (a letter under hundreds of accents): none of it rather than another character."""
    at = max(0, min(end, len(text)))
    while 0 < at < len(text) and _joined(text, at):
        at -= 1
    return at


_LINKERS = "\u094d\u09cd\u0acd\u0b4d\u0c4d\u0d4d"  # Indic viramas that join consonants (UAX #29 GB9c)
_L = ("ᄀ", "ᅟ"), ("ꥠ", "꥿")  # Hangul leading consonants
_VT = ("ᅠ", "ᇿ"), ("ힰ", "퟿")  # Hangul vowels and final consonants


def _joined(text: str, at: int) -> bool:
    """Whether `text[at - 1]` and `text[at]` belong to one character a reader sees."""
    before, char = text[at - 1], text[at]
    if before == "\r" and char == "\n":
        return True
    if unicodedata.category(before) == "Cc":
        return False  # after a control character (a line end) a new one starts, accent or not
    if before in _LINKERS and unicodedata.category(char) == "Lo":
        return True  # a virama joins two consonants into one conjunct (क्ष)
    if before == "\u200d" or ("\ud800" <= before <= "\udbff" and "\udc00" <= char <= "\udfff"):
        return True
    if unicodedata.category(char) in ("Mn", "Me", "Mc") or char in "\u200c\u200d\u0e33\u0eb3\uff9e\uff9f":
        return True
    if "\U0001f3fb" <= char <= "\U0001f3ff" or "\U000e0020" <= char <= "\U000e007f":
        return True  # a skin tone; an emoji tag (🏴 and gbsct: Scotland's flag)
    if _among(char, _VT) or (_among(before, _L) and (_among(char, _L) or "\uac00" <= char <= "\ud7a3")):
        return True
    return _regional(char) and _regional(before) and _regional_run(text, at) % 2 == 1


def _among(char: str, ranges: tuple[tuple[str, str], ...]) -> bool:
    return any(low <= char <= high for low, high in ranges)


def _regional(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def _regional_run(text: str, at: int) -> int:
    """How many regional indicators stand right before `at` (an odd count: `at` splits a flag)."""
    start = at
    while start > 0 and _regional(text[start - 1]):
        start -= 1
    return at - start
