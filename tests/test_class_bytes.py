"""`toolkit.tools.class_bytes`: the class statements found in a module's bytes are those the joined lines give.

Before, the attribute-docstring reader joined every line of a class's module (two bytes a character once one
character is beyond Latin-1) and searched the text for the class's name, on Python 3.11 and 3.12, at each first
reflection: 743k of the 1,246k instructions of a reflection of two classes made by a call. The file's bytes answer
the same questions; these tests hold every answer equal to the text's on generated files.
"""

import linecache
import os
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.tools import class_bytes
from toolkit.tools.json_schema import (
    _class_starts,
    _class_words,
    _never_defined,
    attribute_docstrings,
    clear_source_cache,
    reference_docstrings,
)

PIECES = (
    "class", "class ", "class\t", "class\f", "class\\\n", "class\\\r\n", "class\\", "sub", "Name", "Name:", "Names",
    "Ｎａｍｅ", "é", "e\u0301", "ﬁle", "x", "_", "1", " ", "  ", "\t", "\n", "\r\n", ":", "(", "#", "。", "\u3000",
    "𝐍ame", "Nameé", "Name—", "classé", "xclass", "\\", "# coding: latin-1\n", "\ufeff", "\nclass Name",
    "\n    class Name(", "\n\tclass  Name:", "\nclass\\\n Name", "\nclass Ｎａｍｅ", "\r", "µ",
)  # fmt: skip
TEXTS = st.lists(
    st.sampled_from(PIECES) | st.sampled_from(PIECES) | st.text(st.characters(exclude_categories=("Cs",)), max_size=3),
    max_size=40,
).map("".join)


def _lines_of(path: str) -> list[str]:
    linecache.checkcache(path)
    return linecache.getlines(path)


def _answers(path: str, name: str = "Name") -> tuple[object, object, object] | None:
    """(class lines, never defined, class words) from the bytes, and from the joined lines; None when the bytes
    cannot stand for the lines."""
    clear_source_cache()
    lines = _lines_of(path)
    data = class_bytes.file_bytes(path, lines)
    if data is None:
        return None
    text = "".join(lines)
    cls = type(name, (), {})
    at = class_bytes.mentions(data, name)
    from_bytes = (class_bytes.class_lines(data, at), class_bytes.never_defined(path, data, name, at))
    from_text = ([text.count("\n", 0, s) for s in _class_starts(path, text, name)], _never_defined(path, text, cls))
    assert from_bytes == from_text, (text, from_bytes, from_text)
    starts = class_bytes.class_starts(data, at)
    if len(starts) == 1:
        assert class_bytes.class_line(data, lines, starts[0]) == from_bytes[0][0], text
    for _ in range(2):  # looked for, then remembered: the same answers
        found = class_bytes.statement(path, data, lines, name)
        assert (found.starts, found.line, found.at) == (len(starts), from_bytes[0][0] if len(starts) == 1 else None, at)
        assert class_bytes.never_defined_name(path, data, name, found) == from_bytes[1], text
    assert class_bytes._class_words(path, data) == _class_words(path, text)
    return from_bytes


@given(TEXTS)
@settings(max_examples=300, deadline=None)
def test_the_bytes_find_what_the_joined_lines_find(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "generated.py")
        Path(path).write_bytes(text.encode("utf-8"))
        _answers(path)


@pytest.mark.parametrize(
    "text",
    ["class\\\nName\n", "class\\\r\nName\n", "class\fName\n", "class \\\n\tName\n",
     "x = class_(Name)\n", 'T = TypedDict("Name", {})\n', "className = 1\n", "Name = 1\n", "# class\n#Name\n"],
)  # fmt: skip
def test_a_name_after_any_byte_is_judged_as_the_text_judges_it(tmp_path, text):
    """`never_defined` asks `after_class_word` only of a name after a blank or a line end (a join ends
    with one): after any other byte it is false; the answers stay the text's."""
    path = tmp_path / "module.py"
    path.write_bytes(text.encode())
    assert _answers(str(path)) is not None


def test_files_whose_bytes_are_not_their_lines_are_left_to_the_lines(tmp_path):
    """A byte order mark (its first line loses it), a coding line, a lone carriage return (a line end for
    `linecache`), a file changed since `linecache` read it, and lines a loader gave: None, the text is searched."""
    cases = {
        "bom.py": "\ufeffclass Name: pass\n".encode(),
        "cookie.py": b"# -*- coding: latin-1 -*-\nclass Name: pass\n",
        "lone_cr.py": b"x = 1\rclass Name: pass\n",
    }
    for name, data in cases.items():
        path = str(tmp_path / name)
        Path(path).write_bytes(data)
        assert class_bytes.file_bytes(path, _lines_of(path)) is None, name
    crlf = str(tmp_path / "crlf.py")
    Path(crlf).write_bytes(b"x = 1\r\nclass Name: pass\r\n")
    assert class_bytes.file_bytes(crlf, _lines_of(crlf)) == b"x = 1\r\nclass Name: pass\r\n"
    assert _answers(crlf) == ([1], False)
    changed = str(tmp_path / "changed.py")
    Path(changed).write_text("class Name: pass\n")
    lines = _lines_of(changed)
    Path(changed).write_text("class Name: pass  # longer now\n")
    class_bytes.clear()
    assert class_bytes.file_bytes(changed, lines) is None
    linecache.cache["<loader>"] = (10, None, ["class Name: pass\n"], "<loader>")
    assert class_bytes.file_bytes("<loader>", linecache.cache["<loader>"][2]) is None


def test_the_line_of_a_class_stated_once_is_found_among_the_lines_as_counting_finds_it(tmp_path):
    """`class_line` looks the statement's text up among `linecache`'s lines (near where the bytes before it put
    it, then wider) instead of counting the newlines before it: the same number after lines alike but for the
    name, with CRLF ends, with the guess off by more than each window (a long line after), on a last line without a newline."""
    cases = {
        "alike.py": b"class Names: pass\nclass Name_: pass\n  class Name: pass\n# class Name: pass\n",
        "crlf.py": b"x = '\xc2\xb5'\r\nclass Name(object):\r\n    pass\r\n",
        "far.py": b"y = 1\n" * 600 + b"class Name: pass\n" + b"x = '" + b"a" * 9000 + b"'\n",
        "farther.py": b"y = 1\n" * 600 + b"class Name: pass\n" + b"x = '" + b"a" * 90000 + b"'\n",
        "last.py": b"y = 2\n\nclass Name",
        "twice.py": b"class Name: pass\nclass Name: pass\n",
    }
    expected = {
        "alike.py": [2],
        "crlf.py": [1],
        "far.py": [600],
        "farther.py": [600],
        "last.py": [2],
        "twice.py": [0, 1],
    }
    for file, data in cases.items():
        path = str(tmp_path / file)
        Path(path).write_bytes(data)
        assert _answers(path) == (expected[file], False), file  # class_line checked there, for one start


def test_a_file_read_in_short_pieces_is_read_whole(tmp_path, monkeypatch):
    """`os.read` may give fewer bytes than asked (a signal, a network disk): the file is read on to its end."""
    path = str(tmp_path / "short.py")
    Path(path).write_bytes(b"class Name:\n    x: int\n" * 5)
    lines = _lines_of(path)
    real = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: real(fd, min(n, 7)))
    class_bytes.clear()
    assert class_bytes.file_bytes(path, lines) == b"class Name:\n    x: int\n" * 5


def test_a_name_followed_by_a_character_beyond_ascii_ends_as_the_text_says(tmp_path):
    path = str(tmp_path / "ends.py")
    Path(path).write_text("class Name—x: pass\nclass Nameé: pass\nclass Name。\n", encoding="utf-8")
    assert _answers(path) == ([0, 2], False)  # "—" and "。" are no letters: the name ends there; "é" is one


def test_classes_read_through_the_bytes_get_pydantics_docstrings(tmp_path, monkeypatch):
    """End to end, on a file with CRLF line ends and a `µ` (two bytes a character in the joined text)."""
    source = textwrap.dedent(
        '''
        """Speeds in µs."""
        import dataclasses
        from typing_extensions import TypedDict

        class Tree(TypedDict):
            label: str
            """The label."""
            children: "list[Tree]"

        Made = TypedDict("Made", {"a": int})
        Built = dataclasses.make_dataclass("Built", [("b", int)])
        '''
    )
    (tmp_path / "bytes_docs_mod.py").write_bytes(source.replace("\n", "\r\n").encode("utf-8"))
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    mod = importlib.import_module("bytes_docs_mod")
    clear_source_cache()
    for cls in (mod.Tree, mod.Made, mod.Built):
        assert attribute_docstrings(cls) == reference_docstrings(cls), cls
    assert attribute_docstrings(mod.Tree) == {"label": "The label."}
    if sys.version_info < (3, 13):  # 3.13 finds the class by its own line and reads no file
        assert class_bytes._READ  # the bytes were read, not the lines joined


def _class_words_plainly(text: str) -> frozenset[str]:
    """The names beyond ASCII after `class`, written plainly: every `class` of the text visited, the run of name
    characters after its blanks and joins read, kept if beyond ASCII, in NFKC form."""
    import re
    import unicodedata

    tail = re.compile(r"(?:[ \t\f]|\\(?:\r\n?|\n))+([^\x00-/:-@\[-^`{-\x7f]+)")
    found = set()
    at = text.find("class")
    while at >= 0:
        run = tail.match(text, at + 5)
        if run is not None and not run.group(1).isascii():
            found.add(unicodedata.normalize("NFKC", run.group(1)))
        at = text.find("class", at + 5)
    return frozenset(found)


@given(TEXTS, st.integers(1, 12))
@settings(max_examples=50, deadline=None)
def test_class_words_read_in_blocks_are_those_every_class_gives(text: str, span: int) -> None:
    """`class_words` searches only the blocks of `span` characters beyond ASCII, each from its line's start (its
    backslash joins followed back): small blocks put their edges inside `class`, its blanks, joins and names."""
    text = "x = 'µ' \\\n" * (span % 3) + text  # a block beyond ASCII, a joined line, before the rest
    plain = _class_words_plainly(text)
    assert class_bytes.class_words(text, span) == plain
    assert class_bytes.class_words(text.encode("utf-8"), span) == plain


def test_a_long_line_beyond_ascii_is_one_stretch_read_once():
    """A line of many blocks beyond ASCII is one stretch (read once, not from its start again for each block);
    a line that a backslash joins to the one before starts where that one starts."""
    line = ("é" + "a" * 15) * 40
    assert class_bytes._beyond_ascii(line, 16) == [[0, 640]]
    text = "x = 1\n" + "a" * 40 + "\n" + "y = 2 \\\n" + "class é: pass\n"
    assert class_bytes._beyond_ascii(text.encode(), 8) == [[47, 64]]
    assert class_bytes.class_words(text, 8) == {"é"}


def test_what_a_file_says_is_kept_after_clear_cache_and_read_again_once_the_file_changed(tmp_path, monkeypatch):
    """`reflect.clear_cache` keeps what was read from a module's file (as `linecache` keeps its lines): the next
    class of that file reads no byte again; a changed file (another size, a later time, the class two lines down) is
    read again, and its new docstrings are the ones given, as pydantic's reader gives them."""
    from toolkit.tools.reflect import clear_cache

    path = tmp_path / "kept_docs_mod.py"
    path.write_text('from typing_extensions import TypedDict\n\nclass Kept(TypedDict):\n    x: int\n    """First."""\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    mod = importlib.import_module("kept_docs_mod")
    clear_source_cache()
    reads: list[str] = []
    real = class_bytes._read
    monkeypatch.setattr(class_bytes, "_read", lambda file, size: reads.append(file) or real(file, size))
    expected = {"x": "First."}
    assert attribute_docstrings(mod.Kept) == expected == reference_docstrings(mod.Kept)
    clear_cache()
    assert attribute_docstrings(mod.Kept) == expected
    assert len(reads) == (1 if sys.version_info < (3, 13) else 0)  # 3.13 finds the class by its own line
    path.write_text(
        'from typing_extensions import TypedDict\n\nX = 1\n\nclass Kept(TypedDict):\n    x: int\n    """Second."""\n'
    )
    later = os.stat(path).st_mtime + 10
    os.utime(path, (later, later))
    clear_cache()
    assert attribute_docstrings(mod.Kept) == {"x": "Second."}
    if sys.version_info < (3, 13):  # 3.13's inspect finds a class by the line it was made on (`__firstlineno__`),
        # which the class moved down in the changed file no longer is: pydantic's reader reads other lines there
        assert reference_docstrings(mod.Kept) == {"x": "Second."}


def test_the_bytes_of_at_most_kept_files_are_kept(tmp_path):
    """The cache of files' bytes is bounded: past `KEPT_FILES`, the oldest file's go first."""
    class_bytes.clear()
    paths = []
    for n in range(class_bytes.KEPT_FILES + 3):
        path = str(tmp_path / f"m{n}.py")
        Path(path).write_text(f"class Name{n}: pass\n")
        data = class_bytes.file_bytes(path, _lines_of(path))
        assert data is not None
        class_bytes.statement(path, data, _lines_of(path), f"Name{n}")
        paths.append(path)
    for cache in (class_bytes._READ, class_bytes._NAMES):
        assert list(cache) == paths[-class_bytes.KEPT_FILES :]
