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

`class_lines` is `json_schema._class_starts` on the bytes, as line numbers; `never_defined` is
`json_schema._never_defined`. Tests hold each equal to the text's answer on generated files.

Leaves out: names beyond ASCII (the reader joins the lines for them), and files `linecache` did not
read from the disk itself (a module's loader gave them).
"""

import linecache
import os
import re
import unicodedata

_READ: dict[str, tuple[list[str], bytes]] = {}
_WORDS: dict[str, tuple[bytes, frozenset[str] | None]] = {}
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=]")
"""A coding line (PEP 263), which the bytes would have to be decoded by: left to the joined lines."""
_CLASS_HEAD = re.compile(rb"[ \t]*class[ \t]+")
_CLASS_BEYOND_ASCII = re.compile(rb"class(?:[ \t\f]|\\(?:\r\n?|\n))+[0-9A-Z_a-z]*[\x80-\xff]")
_CLASS_TAIL = re.compile(rb"(?:[ \t\f]|\\(?:\r\n?|\n))+([^\x00-/:-@\[-^`{-\x7f]+)")
_JOINS = (b"\\\n", b"\\\r\n", b"\\\r")


def file_bytes(file: str, lines: list[str]) -> bytes | None:
    """The bytes of the file `linecache` read `lines` from, when they stand for those lines as the
    module docstring says (read once while `linecache` keeps the same lines); else None."""
    cached = _READ.get(file)
    if cached is not None and cached[0] is lines:
        return cached[1]
    entry = linecache.cache.get(file)
    if entry is None or len(entry) != 4 or entry[1] is None or entry[2] is not lines or not os.path.isabs(entry[3]):
        return None  # not read from the disk by `linecache` (a loader's source, another list, a path the cwd decides)
    if any(_COOKIE.match(line) for line in lines[:2]):
        return None
    try:
        with open(entry[3], "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if len(data) != entry[0] or data.startswith(b"\xef\xbb\xbf"):
        return None  # changed since `linecache` read it, or a byte order mark its first line lost
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
        return None  # a lone carriage return ends a line for `linecache`, not for a count of "\n"
    _READ[file] = (lines, data)
    return data


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


def class_lines(data: bytes, at: list[int]) -> list[int]:
    """The numbers (from 0) of the lines that the multiline regex `^[ \\t]*class[ \\t]+<name>\\b`
    matches, `at` being the name's `mentions`."""
    found: list[int] = []
    for place in at:
        start = data.rfind(b"\n", 0, place) + 1
        if _CLASS_HEAD.fullmatch(data, start, place):
            found.append(data.count(b"\n", 0, start))
    return found


def never_defined(file: str, data: bytes, name: str, at: list[int]) -> bool:
    """`json_schema._never_defined` for a class whose `__name__` is the ASCII `name` (and the last
    part of its `__qualname__`), `at` being the name's `mentions`: no class statement can name it."""
    if any(_after_class_word(data, place) for place in at):
        return False
    if data.isascii():
        return True
    words = _class_words(file, data)
    return words is not None and name not in words


def _after_class_word(data: bytes, at: int) -> bool:
    """Whether the letters `class` end where the blanks and backslash line joins before `at` begin."""
    start = at
    while start > 0:
        if data[start - 1] in b" \t\f":
            start -= 1
        elif data.endswith(_JOINS, 0, start):
            start -= 2 if data.endswith((b"\\\n", b"\\\r"), 0, start) else 3
        else:
            break
    return start < at and data.endswith(b"class", 0, start)


def _class_words(file: str, data: bytes) -> frozenset[str] | None:
    """The names beyond ASCII after the letters `class` and blanks or joins, in their NFKC form
    (`json_schema._class_words`); None if one is not UTF-8. Read once per file's bytes."""
    cached = _WORDS.get(file)
    if cached is not None and cached[0] is data:
        return cached[1]
    found: set[str] = set()
    words: frozenset[str] | None
    try:
        hit = _CLASS_BEYOND_ASCII.search(data)
        while hit is not None:
            at = hit.start() + 5  # past `class`
            run = _CLASS_TAIL.match(data, at)
            if run is not None:  # always: the search matched it
                found.add(unicodedata.normalize("NFKC", run.group(1).decode("utf-8")))
            hit = _CLASS_BEYOND_ASCII.search(data, at)
        words = frozenset(found)
    except UnicodeDecodeError:
        words = None
    _WORDS[file] = (data, words)
    return words


def clear() -> None:
    """Forget the bytes read and the names found in them."""
    _READ.clear()
    _WORDS.clear()
