"""NumPy-style docstrings read as griffe's NumPy parser reads them, for reflection's two needs.

`toolkit.tools.reflect.parse_docstring` wants only the description (the text sections) and
each parameter's text; griffe's parser (`griffe`'s `parse_numpy`) builds every section, parses
each type annotation and checks each entry, which is most of the cost of reflecting a function
documented this way. `numpy_docstring(lines)` walks griffe's own lines (`Docstring.lines`) the
way `parse_numpy` walks them (code fences, section headers underlined with dashes, admonitions,
entries and their indented continuation lines, each section reader's end) and keeps only those
two things; `None` when there is no description (griffe then writes one from `Returns`).

The tests compare it with griffe over tables of docstrings and generated ones
(`tests/test_numpy_docstring.py`). Leaves out: annotations, defaults, returns, raises (reflection
never reads them from a docstring).
"""

from __future__ import annotations

import re

_SECTIONS = {
    "deprecated",
    "parameters",
    "other parameters",
    "type parameters",
    "returns",
    "yields",
    "receives",
    "raises",
    "warns",
    "examples",
    "attributes",
    "functions",
    "methods",
    "classes",
    "type aliases",
    "modules",
}
"""The section titles griffe knows (lower case); any other underlined title is an admonition."""
_PARAMETERS = ("parameters", "other parameters")
_NAMES = re.compile(r"\*{0,2}[_a-z][_a-z0-9]*(?:,\s\*{0,2}[_a-z][_a-z0-9]*)*", re.IGNORECASE)
"""The names of a parameter entry (`x`, `x, y`, `*args`), as griffe's `_RE_PARAMETER` takes them."""


def numpy_docstring(lines: list[str]) -> tuple[str, dict[str, str]] | None:
    """(description, {parameter: description}) of a docstring griffe reads as NumPy style, from
    griffe's lines, as `parse_numpy` and `reflect`'s section reading give them; `None` when
    the description is empty."""
    texts: list[str] = []
    entries: list[tuple[str, str]] = []
    current: list[str] = []
    admonition = False
    in_code = False
    offset = 0
    while offset < len(lines):
        line = lines[offset]
        fence = line.lstrip(" ").startswith("```")
        if in_code or fence:  # code fences hide section headers
            in_code = in_code != fence
            current.append(line)
        elif not line.strip():  # `_is_empty`, written in place (a call a line cost more than the test)
            current.append("")
        elif offset == len(lines) - 1:
            current.append(line)
            _finish(texts, current, admonition)
            current, admonition = [], False
        elif "-" in (after := lines[offset + 1]) and not after.replace("-", "").strip():  # `_is_dash`, in place
            _finish(texts, current, admonition)
            current = []
            title = line.lower()
            admonition = title not in _SECTIONS
            if admonition:
                offset += 1  # the dash line
            elif title == "examples":
                offset = _block_end(lines, offset + 2)
            else:
                items, offset = _items(lines, offset + 2)
                if title in _PARAMETERS:
                    entries += _parameters(items)
        else:
            current.append(line)
        offset += 1
    _finish(texts, current, admonition)
    summary = "\n\n".join(text.strip() for text in texts if text.strip())
    if not summary:
        return None
    return summary, {name.lstrip("*"): " ".join(text.split()) for name, text in entries if text}


def _is_empty(line: str) -> bool:
    return not line or line.isspace()


def _is_dash(line: str) -> bool:
    return "-" in line and _is_empty(line.replace("-", ""))


def _finish(texts: list[str], current: list[str], admonition: bool) -> None:
    """The lines read since the last header: a text section unless an admonition's."""
    if not admonition and current and any(current):
        texts.append("\n".join(current).rstrip("\n"))


def _items(lines: list[str], offset: int) -> tuple[list[list[str]], int]:
    """griffe's `_read_block_items`: the entries of a section (each its first line and its
    continuation lines, unindented), and the offset of its last line."""
    if offset >= len(lines):
        return [], offset
    while _is_empty(lines[offset]):
        offset += 1
    items: list[list[str]] = []
    item = [lines[offset]]
    offset += 1
    while offset < len(lines):
        line = lines[offset]
        if not line.strip():  # `_is_empty`, in place
            item.append("")
        elif line.startswith("    "):
            item.append(line[4:])
        elif line.startswith(" "):
            item.append(line[len(line) - len(line.lstrip()) :])
        elif offset + 1 < len(lines) and "-" in (after := lines[offset + 1]) and not after.replace("-", "").strip():
            break  # the next section's header
        else:
            items.append(item)
            item = [line]
        offset += 1
    items.append(item)
    return items, offset - 1


def _block_end(lines: list[str], offset: int) -> int:
    """The offset of the last line of a section read as one block (griffe's `_read_block`)."""
    if offset >= len(lines):
        return offset
    while _is_empty(lines[offset]):
        offset += 1
    while offset < len(lines):
        if _is_empty(lines[offset]) and (
            (offset < len(lines) - 1 and _is_dash(lines[offset + 1]))
            or (offset < len(lines) - 2 and _is_dash(lines[offset + 2]))
        ):
            break  # the next section
        offset += 1
    return offset - 1


def _parameters(items: list[list[str]]) -> list[tuple[str, str]]:
    """(name, description) of each name of each entry griffe reads as a parameter."""
    found: list[tuple[str, str]] = []
    for item in items:
        names = _NAMES.match(item[0])
        if names is None:
            continue  # griffe skips a line it cannot read
        text = "\n".join(item[1:]).rstrip() if len(item) > 1 else ""
        found += [(name, text) for name in names.group().split(", ")]
    return found
