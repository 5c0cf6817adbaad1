"""Where `class <Name>` stands in a module's file, read from the file's bytes instead of its joined lines.

Before Python 3.13 a class does not say where its statement is, so the attribute-docstring reader
(`json_schema.attribute_docstrings`) looks for it by name in the module's text, as `inspect` does: the
lines `linecache` holds, joined. Joining costs a pass over the whole file, two bytes a character once
one character is beyond Latin-1 (a `µ` in a docstring), and then each look-up is another pass. The
file's own bytes answer the same questions for an ASCII name at a fraction of the cost: an ASCII
name's bytes stand in UTF-8 exactly where its characters stand, the lines are the same lines, and
reading a file is one system call. `file_bytes` says when the bytes are what `linecache` read (the
same size, UTF-8 without a byte order mark or a coding line, lines ended by `\\n` or `\\r\\n` only);
otherwise nothing here is used and the reader joins the lines as before.

`class_lines` is `json_schema._class_starts` on the bytes, as line numbers (`class_line` finds the line
of a class stated once without counting); `never_defined` is
`json_schema._never_defined`. Tests hold each equal to the text's answer on generated files.
`after_class_word` and `class_words` read a text and its bytes alike: the reader's text path and
this module's bytes path share them.

What is read from a file is kept while `linecache` keeps the same lines for it (a changed file is
read again, as `linecache.checkcache` finds it changed), for the last `KEPT_FILES` files: a module's
tools are reflected one after the other, and `reflect.clear_cache` (a benchmark's "cold") does not
forget it, as it does not forget `linecache`'s lines. `statement` answers, once per name and file,
where the name's one class statement is, and whether none can be (`never_defined`).

Leaves out: names beyond ASCII (the reader joins the lines for them), and files `linecache` did not
read from the disk itself (a module's loader gave them).
"""

import linecache
import os
import re
import unicodedata
from typing import Any, AnyStr

_READ: dict[str, tuple[list[str], bytes]] = {}
_WORDS: dict[str, tuple[bytes, frozenset[str] | None]] = {}
_NAMES: dict[str, tuple[bytes, dict[str, "Statement"]]] = {}
KEPT_FILES = 16
"""How many files' bytes, and what was found in them, are kept (the least recently read go first)."""
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=]")
"""A coding line (PEP 263), which the bytes would have to be decoded by: left to the joined lines."""
_CLASS_HEAD = re.compile(rb"[ \t]*class[ \t]+")
_CLASS_BEYOND_ASCII_TEXT = re.compile(r"class(?:[ \t\f]|\\(?:\r\n?|\n))+[0-9A-Z_a-z]*[^\x00-\x7f]")
"""`class`, blanks or backslash line joins, then a name (`_CLASS_TAIL`'s run) with a character beyond ASCII."""
_CLASS_TAIL_TEXT = re.compile(r"(?:[ \t\f]|\\(?:\r\n?|\n))+([^\x00-/:-@\[-^`{-\x7f]+)")
"""Blanks or backslash line joins, then a run of characters that may make a name: ASCII letters,
digits and `_`, and anything beyond ASCII."""
_CLASS_BEYOND_ASCII = re.compile(_CLASS_BEYOND_ASCII_TEXT.pattern.encode())
"""The same on the bytes (a byte beyond ASCII starts the first character beyond it)."""
_CLASS_TAIL = re.compile(_CLASS_TAIL_TEXT.pattern.encode())


def file_bytes(file: str, lines: list[str]) -> bytes | None:
    """The bytes of the file `linecache` read `lines` from, when they stand for those lines as the
    module docstring says (read once while `linecache` keeps the same lines); else None."""
    cached = _READ.get(file)
    if cached is not None and cached[0] is lines:
        return cached[1]
    entry = linecache.cache.get(file)
    if entry is None or len(entry) != 4 or entry[1] is None or entry[2] is not lines or not os.path.isabs(entry[3]):
        return None  # not read from the disk by `linecache` (a loader's source, another list, a path the cwd decides)
    head = lines[:2]
    if head and ("coding" in head[0] or "coding" in head[-1]) and any(_COOKIE.match(line) for line in head):
        return None
    try:
        data = _read(entry[3], entry[0])
    except OSError:
        return None
    if len(data) != entry[0] or data.startswith(b"\xef\xbb\xbf"):
        return None  # changed since `linecache` read it, or a byte order mark its first line lost
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
        return None  # a lone carriage return ends a line for `linecache`, not for a count of "\n"
    keep(_READ, file, (lines, data))
    return data


def keep(cache: dict[str, Any], file: str, entry: Any) -> None:
    """`cache[file] = entry`, the oldest file's entry dropped first when `KEPT_FILES` are kept."""
    if file not in cache and len(cache) >= KEPT_FILES:
        del cache[next(iter(cache))]
    cache[file] = entry


class Statement:
    """What a file's bytes say of one ASCII name: `line`, the number (from 0) of its one class
    statement's line, or None (none, or several: `starts` says how many); `at`, its `mentions`;
    `never`, `never_defined`'s answer once asked (None before)."""

    __slots__ = ("line", "starts", "at", "never")

    def __init__(self, line: int | None, starts: int, at: list[int]) -> None:
        self.line, self.starts, self.at = line, starts, at
        self.never: bool | None = None


def statement(file: str, data: bytes, lines: list[str], name: str) -> Statement:
    """Where the ASCII `name`'s class statements are in the file's bytes (`data`, which stand for
    `lines`: `file_bytes`), looked for once per name while the same bytes are kept."""
    known = _NAMES.get(file)
    if known is None or known[0] is not data:
        known = (data, {})
        keep(_NAMES, file, known)
    found = known[1].get(name)
    if found is None:
        at = mentions(data, name)
        starts = class_starts(data, at)
        line = class_line(data, lines, starts[0]) if len(starts) == 1 else None
        found = known[1][name] = Statement(line, len(starts), at)
    return found


def never_defined_name(file: str, data: bytes, name: str, found: Statement) -> bool:
    """`never_defined(file, data, name, found.at)`, asked once per name while the same bytes are kept."""
    if found.never is None:
        found.never = never_defined(file, data, name, found.at)
    return found.never


def _read(path: str, size: int) -> bytes:
    """The file's first `size + 1` bytes (all of them when it is no longer): enough to tell that it
    is `size` bytes long. `os.read` on the descriptor, not `open()`, whose buffered reader costs
    some 16k instructions a file (a first reflection reads one or two)."""
    fd = os.open(path, _READ_FLAGS)
    try:
        data = os.read(fd, size + 1)
        while 0 < (got := len(data)) <= size and (more := os.read(fd, size + 1 - got)):
            data += more  # a short read (a signal, a network disk): read on to the end
    finally:
        os.close(fd)
    return data


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)


def mentions(data: bytes, name: str) -> list[int]:
    """Where the ASCII `name` stands in the bytes with no letter, digit or `_` right after it."""
    word = name.encode("ascii")
    found: list[int] = []
    at = data.find(word)
    while at >= 0:
        if _name_ends(data, at + len(word)):
            found.append(at)
        at = data.find(word, at + 1)
    return found


def _name_ends(data: bytes, end: int) -> bool:
    """Whether a name ends at `end`: the character there (decoded, if beyond ASCII) is no letter,
    digit or `_`, as `json_schema._name_ends` asks of the text."""
    after = data[end : end + 1]
    if after and after[0] >= 0x80:  # the file is UTF-8: a whole character is within four bytes
        return not data[end : end + 4].decode("utf-8", "ignore")[:1].isalnum()
    return not (after.isalnum() or after == b"_")


def class_starts(data: bytes, at: list[int]) -> list[int]:
    """Where the lines start (offsets in the bytes) that the multiline regex
    `^[ \\t]*class[ \\t]+<name>\\b` matches, `at` being the name's `mentions`."""
    found: list[int] = []
    for place in at:
        start = data.rfind(b"\n", 0, place) + 1
        if _CLASS_HEAD.fullmatch(data, start, place):
            found.append(start)
    return found


def class_lines(data: bytes, at: list[int]) -> list[int]:
    """The numbers (from 0) of the lines `class_starts` gives: the newlines before each, counted."""
    return [data.count(b"\n", 0, start) for start in class_starts(data, at)]


def class_line(data: bytes, lines: list[str], start: int) -> int:
    """`class_lines(...)[0]` of a class stated once: the line at `start` is its name's one
    `class_starts`; `lines` being the lines `file_bytes(file, lines)` stands for.

    Counting the newlines before the line reads every byte up to it (some 5 instructions a byte:
    80k for a class 17 KB into its file). Its text is looked for among `lines` instead, first near
    where the share of the bytes before it puts it (64 lines either side: the benchmark module's
    classes are within 45), in a wider window then, then anywhere: that
    text stands on no other line (one equal to it would hold the name in the same place after the
    same `class`, and be a start too), so the first line equal to it is it."""
    end = data.find(b"\n", start) + 1 or len(data)
    try:
        text = data[start:end].decode()
    except UnicodeDecodeError:  # not as `file_bytes` vouched (never seen): count
        return data.count(b"\n", 0, start)
    if text[-1:] != "\n":
        text += "\n"  # the file's last line: `linecache` ends it
    elif text[-2:] == "\r\n":
        text = text[:-2] + "\n"  # `linecache` read the file with universal newlines
    guess = start * len(lines) // len(data)
    for width in (64, 512):
        try:
            return lines.index(text, guess - width if guess > width else 0, guess + width)
        except ValueError:
            continue
    try:
        return lines.index(text)
    except ValueError:  # never seen (see above): count
        return data.count(b"\n", 0, start)


def never_defined(file: str, data: bytes, name: str, at: list[int]) -> bool:
    """`json_schema._never_defined` for a class whose `__name__` is the ASCII `name` (and the last
    part of its `__qualname__`), `at` being the name's `mentions`: no class statement can name it."""
    for place in at:
        if data[place - 1 : place] in _BEFORE_NAME and after_class_word(data, place):
            return False
    if data.isascii():
        return True
    words = _class_words(file, data)
    return words is not None and name not in words


def after_class_word(text: AnyStr, at: int) -> bool:
    """Whether the letters `class` end where the blanks and backslash line joins before `at` begin
    (in a text or in its UTF-8 bytes alike)."""
    if isinstance(text, bytes):
        blanks, joins, short_joins, word = b" \t\f", _BYTE_JOINS, _BYTE_SHORT_JOINS, b"class"
    else:
        blanks, joins, short_joins, word = " \t\f", _JOINS, _SHORT_JOINS, "class"
    start = at
    while start > 0:
        if text[start - 1 : start] in blanks:
            start -= 1
        elif text.endswith(joins, 0, start):
            start -= 2 if text.endswith(short_joins, 0, start) else 3
        else:
            break
    return start < at and text.endswith(word, 0, start)


_JOINS = ("\\\n", "\\\r\n", "\\\r")
"""A backslash line join (the first and last are two characters)."""
_BYTE_JOINS = tuple(join.encode() for join in _JOINS)
_SHORT_JOINS, _BYTE_SHORT_JOINS = _JOINS[::2], _BYTE_JOINS[::2]
"""The two-character joins."""
_BEFORE_NAME = b" \t\f\n\r"
"""The bytes that can stand right before a name `after_class_word` is true of: a blank, or the last
byte of a backslash line join (anywhere else it is false, and `never_defined` does not ask it)."""


def _class_words(file: str, data: bytes) -> frozenset[str] | None:
    """`class_words` of the bytes, None if a name there is not UTF-8. Read once per file's bytes."""
    cached = _WORDS.get(file)
    if cached is not None and cached[0] is data:
        return cached[1]
    words: frozenset[str] | None
    try:
        words = class_words(data)
    except UnicodeDecodeError:
        words = None
    keep(_WORDS, file, (data, words))
    return words


def class_words(text: AnyStr, span: int = 2048) -> frozenset[str]:
    """The names beyond ASCII that follow the letters `class` in a text or its UTF-8 bytes (in code,
    a string or a comment alike; `subclass` too), then blanks or backslash line joins (`_CLASS_TAIL`),
    in their NFKC form (UnicodeDecodeError if such a name's bytes are not UTF-8).

    Plainly: every place `class` stands, visited (tests/test_type_schema_classes.py holds this equal
    to that loop). Only the places where a name beyond ASCII follows are visited (one regex search
    each), and only within the stretches of the text `_beyond_ascii` gives: the blocks of `span`
    characters that are not all ASCII, each from the start of its line, where most files have few
    such blocks (a `µ` or an `é` in a docstring) and the search would otherwise read every byte."""
    if isinstance(text, bytes):
        search, tail = _CLASS_BEYOND_ASCII.search, _CLASS_TAIL.match
    else:
        search, tail = _CLASS_BEYOND_ASCII_TEXT.search, _CLASS_TAIL_TEXT.match
    found: set[str] = set()
    for start, end in _beyond_ascii(text, span):
        hit = search(text, start, end)
        while hit is not None:
            at = hit.start() + 5  # past `class`
            run = tail(text, at)
            if run is not None:  # always: the search matched it
                word = run.group(1)
                found.add(unicodedata.normalize("NFKC", word.decode("utf-8") if isinstance(word, bytes) else word))
            hit = search(text, at, end)
    return frozenset(found)


def _beyond_ascii(text: AnyStr, span: int) -> list[list[int]]:
    """Stretches `[start, end)` of the text, in order, that hold every `class`, blanks, name and first
    character beyond ASCII `_CLASS_BEYOND_ASCII` can match: each block of `span` characters not all
    ASCII, from the start of its line (such a match holds no newline but in a backslash join), blocks
    whose stretches meet made one (so a long line is read once, not once a block)."""
    stretches: list[list[int]] = []
    for block in range(0, len(text), span):
        if text[block : block + span].isascii():
            continue
        floor = stretches[-1][1] if stretches else 0
        start = _line_start(text, block, floor)
        if stretches and start <= floor:
            stretches[-1][1] = block + span
        else:
            stretches.append([start, block + span])
    return stretches


def _line_start(text: AnyStr, at: int, floor: int) -> int:
    """Where the line holding `at` starts (backslash joins followed back), when after `floor`; else
    at most `floor` (the newlines before it are not looked at)."""
    newline, joined = (b"\n", (b"\\", b"\\\r")) if isinstance(text, bytes) else ("\n", ("\\", "\\\r"))
    end = text.rfind(newline, floor, at)
    while end >= 0 and text.endswith(joined, 0, end):
        end = text.rfind(newline, floor, end)
    return end + 1


def clear() -> None:
    """Forget the bytes read and the names found in them."""
    _READ.clear()
    _WORDS.clear()
    _NAMES.clear()
