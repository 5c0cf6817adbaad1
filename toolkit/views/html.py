"""The one shared look of every toolkit view: tiny helpers that return HTML strings.

Each helper returns `Html`, a `str` that already is markup, and escapes anything else it is
given: `card("note", "<script>")` shows the text `<script>`, `card("note", table(...))` nests the
table, and `Html + str` escapes the `str`.

Styles are inline, from one table (`STYLES`), not a `<style>` block: Jupyter's sanitizer
(untrusted notebooks) and GitHub drop `<style>` but keep `style` attributes. Elements also carry
`tk-*` classes, for tests and restyling. The root, table cells and code blocks set their own
colours, so a view reads the same in JupyterLab's dark theme. The root carries MathJax's ignore
classes (`NO_MATH`): JupyterLab typesets HTML outputs, and a reply's `$25 … $5` is no formula.
Output is deterministic: no ids, no random names, no timestamps, JSON with sorted keys.

Every text a view shows can be sent to the notebook: a lone surrogate (a reply cut inside an
escaped emoji, `json.loads('"\\ud83d"')`) cannot be written as UTF-8, so the kernel failed to send
the whole output. `escape` and `showable_bundle` (which every view's `_repr_mimebundle_`
returns through) write each one as U+FFFD, and a pair written as two code points as its
character. They also write each character that acts instead of being seen (`ACTING`: a
terminal control, a bidi override, a zero-width space) as its code point, `⟨U+202E⟩`, so a
tool's output cannot clear a terminal or fake a line, and a name reads as it was sent.

A run of more than `SHOWN_ITEMS` (1,000) rounds or messages is drawn as its first and last 500,
with a note saying which are left out (`kept`): 10,000 rounds made a 29 MB trace.
A text longer than `SHOWN_CHARS` (250,000) characters is cut there with a marker saying how
many are left out (`shortened`): a tool's 10 MB result makes a view of about 250 KB, not 10 MB.

JSON is laid out at most `DEPTH` (100) levels deep, so no view recurses without bound: JSON text
nested deeper (a model's 100,000 brackets) is shown as it came, with `json_problem` saying so,
and a value nested deeper or holding itself is cut there with a marker (`DEEPER`, `CIRCULAR`).

Leaves out: interactivity (the ipywidgets wrappers live in `toolkit.views.conversation`), themes, icons.
"""

from __future__ import annotations

import html as _html
import json
import math
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any

from toolkit.unicode import boundary, cut, well_formed

KINDS = ("system", "user", "assistant", "tool", "error", "info", "warn", "ok")
"""The kinds a `card` or `badge` can have: four roles, then error / info / warn / ok."""

_ACCENT = {
    "system": "#6e7781",
    "user": "#0969da",
    "assistant": "#1a7f37",
    "tool": "#8250df",
    "error": "#cf222e",
    "info": "#57606a",
    "warn": "#9a6700",
    "ok": "#1a7f37",
}
_TINT = {
    "system": "#f6f8fa",
    "user": "#ddf4ff",
    "assistant": "#dafbe1",
    "tool": "#fbefff",
    "error": "#ffebe9",
    "info": "#f6f8fa",
    "warn": "#fff8c5",
    "ok": "#dafbe1",
}
_INK, _PAPER, _LINE = "#1f2328", "#ffffff", "#d0d7de"
_MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,monospace"

STYLES = {
    "root": f"color:{_INK};background:{_PAPER};font-family:system-ui,-apple-system,'Segoe UI',"
    "'Noto Sans','Noto Sans CJK SC',sans-serif;font-size:13px;line-height:1.45;"
    "white-space:normal;padding:8px 10px;border:1px solid #d0d7de;border-radius:6px",
    "heading": "font-size:14px;font-weight:600;margin:0 0 6px 0",
    "card": "color:{ink};background:{tint};border:1px solid {line};border-left:4px solid {accent};"
    "border-radius:6px;padding:6px 10px;margin:6px 0",
    "title": "font-weight:600;margin:0 0 4px 0;color:{accent}",
    "text": "white-space:pre-wrap;overflow-wrap:break-word",
    "badge": "display:inline-block;color:{accent};background:{paper};border:1px solid {accent};"
    "border-radius:9px;padding:0 6px;margin:0 2px;font-size:11px;font-weight:600;"
    "line-height:16px;vertical-align:middle",
    "code": "display:block;color:{ink};background:#f6f8fa;border:1px solid {line};border-radius:4px;"
    f"font-family:{_MONO};font-size:12px;line-height:1.4;padding:6px 8px;margin:4px 0;"
    "white-space:pre-wrap;overflow-wrap:break-word",
    "table": "color:{ink};background:{paper};border-collapse:collapse;table-layout:auto;margin:4px 0;font-size:12px",
    "th": "color:{ink};background:#f6f8fa;text-align:left;vertical-align:top;font-weight:600;"
    "padding:3px 8px;border:1px solid {line}",
    "td": "color:{ink};background:{paper};text-align:left;vertical-align:top;padding:3px 8px;"
    "border:1px solid {line};white-space:pre-wrap;overflow-wrap:break-word",
    "small": "font-size:11px;color:#57606a",
    "details": "margin:4px 0",
    "summary": "cursor:pointer;font-weight:600",
}


class Html(str):
    """Text that already is HTML: helpers insert it as is instead of escaping it."""

    def __add__(self, other: Any) -> Html:
        return Html(str.__add__(self, escape(other)))

    def __radd__(self, other: Any) -> Html:
        return Html(str.__add__(escape(other), self))


ACTING = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e"
    "\u2028\u2029\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]|\r(?!\n)"
)
"""Characters that act instead of being seen: control characters (`\\x1b[2J` clears a terminal, a
lone `\\r` writes over a line, U+2028 breaks one where a reader sees none), bidi embeddings, overrides and isolates (U+202E reads a name
backwards) and invisible ones (a zero-width space makes `ec\\u200bho` look like `echo`; tag
characters hide text). Kept: line ends, tabs, joiners and variation selectors (emoji)."""


def code_point(char: str) -> str:
    """`char` as a view names it: `⟨U+202E⟩`."""
    return f"⟨U+{ord(char):04X}⟩"


def showable(text: str) -> str:
    """`text` as UTF-8 can carry it (`toolkit.unicode.well_formed`) and as a reader sees it: each
    `ACTING` character written as its `code_point` (any other text is the same object)."""
    text = well_formed(text)
    return ACTING.sub(lambda found: code_point(found.group(0)), text) if ACTING.search(text) else text


def flat(text: str) -> str:
    """`text` on one line, as a text view writes a name or a table cell: `showable`, with its line
    breaks and tabs written as `\\n`, `\\r`, `\\t` (a model's tool name with a line break in it
    made a line of its own in a transcript: a fake round in a trace)."""
    return showable(text).replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


NAME_CHARS = 200
"""Most characters of a tool name a transcript shows (`flat_name`): a real one has at most 64, a
model can send two million."""


def flat_name(name: str) -> str:
    """A tool name as a transcript writes it: `flat`, cut at `NAME_CHARS` with "…" (where a
    character a reader sees ends: `toolkit.unicode.cut`)."""
    return flat(cut(name, NAME_CHARS))


def showable_bundle(bundle: dict[str, Any]) -> dict[str, Any]:
    """A mime bundle with every text value `showable` (a widget's JSON entry as it is)."""
    return {mime: showable(value) if isinstance(value, str) else value for mime, value in bundle.items()}


SHOWN_CHARS = 250_000
"""Most characters of one text a view shows: a longer one (a tool's 10 MB result) is cut there,
with a marker saying how much is left out, so a view stays small enough to store and draw."""


_SHORTENED = re.compile(r"…\([0-9,]+ more characters not shown\)\Z")


def shortened(text: str) -> str:
    """`text`, or its first `SHOWN_CHARS` characters and `…(9,750,000 more characters not shown)`."""
    if len(text) <= SHOWN_CHARS:
        return text
    marked = _SHORTENED.search(text, max(0, len(text) - 60))
    if marked is not None and marked.start() <= SHOWN_CHARS:  # shortened already (a trace scrubs a head alone)
        return text
    shown = boundary(text, SHOWN_CHARS)  # where a character a reader sees ends
    return f"{text[:shown]}…({len(text) - shown:,} more characters not shown)"


SHOWN_ITEMS = 1_000
"""Most rounds (or messages) a view draws: of a longer run, the first and the last
`SHOWN_ITEMS // 2`, with a note between them saying which it left out (`kept`)."""


def kept(count: int, what: str, also: int | None = None) -> list[int | str]:
    """The positions a view draws of `count` rounds, messages or steps (`what`, a plural): all of
    them, or the first and last `SHOWN_ITEMS // 2` and the position `also` (a stepper's current
    step), with, where some are left out, the note saying which, numbered from 1:
    `… 9,000 rounds not shown: rounds 501 to 9,500`."""
    if count <= SHOWN_ITEMS:
        return list(range(count))
    half = SHOWN_ITEMS // 2
    shown = sorted({*range(half), *range(count - half, count), *([also] if also is not None else [])})
    out: list[int | str] = []
    for before, position in zip([-1, *shown], shown, strict=False):  # each position after the one before it
        if position > before + 1:
            out.append(f"… {position - before - 1:,} {what} not shown: {what} {before + 2:,} to {position:,}")
        out.append(position)
    return out


def escape(value: Any) -> Html:
    """`value` as safe HTML text (`shortened`, and `showable`); an `Html` value is returned unchanged.
    A value that is not text is shown as its `str()` without a memory address (`plain`)."""
    if isinstance(value, Html):
        return value
    return Html(_html.escape(showable(shortened(plain(value))), quote=True))


def join(parts: Iterable[Any], sep: str = "") -> Html:
    """Concatenate `parts`, escaping those that are not `Html` (`sep` is markup)."""
    return Html(sep.join(escape(p) for p in parts))


def style(name: str, kind: str = "info") -> str:
    """The inline style called `name` ("" if none), coloured for `kind` (one of `KINDS`)."""
    if kind not in _ACCENT:
        raise ValueError(f"style(): unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    return STYLES.get(name, "").format(ink=_INK, paper=_PAPER, line=_LINE, accent=_ACCENT[kind], tint=_TINT[kind])


def element(tag: str, name: str, body: Any = "", kind: str = "info", extra_class: str = "") -> Html:
    """`<tag class="tk-name ..." style="...">body</tag>`; `body` is escaped unless `Html`."""
    classes = escape(" ".join(c for c in (f"tk-{name}", extra_class) if c))
    css = style(name, kind)
    attrs = f'class="{classes}"' + (f' style="{css}"' if css else "")
    return Html(f"<{tag} {attrs}>{escape(body)}</{tag}>")


NO_MATH = "tex2jax_ignore mathjax_ignore"
"""The classes on the root of every view's HTML: MathJax leaves an element carrying them alone
(its `ignoreHtmlClass`: `tex2jax_ignore` before MathJax 3.2, `mathjax_ignore` since; pandas sets
both). JupyterLab typesets each `text/html` output as math: a reply reading "$25, shipping $5"
showed "25, shipping" as an italic formula, a tool's `$$\\href{https://…}{…}$$` drew a link."""


def page(body_html: Any, title: Any = None) -> Html:
    """The root every view is wrapped in: fixed colours and font, an optional heading, kept from
    MathJax (`NO_MATH`)."""
    heading = element("div", "heading", title) if title is not None else ""
    return Html(f'<div class="tk {NO_MATH}" style="{style("root")}">{heading}{escape(body_html)}</div>')


def card(title: Any, body: Any, kind: str = "info") -> Html:
    """A bordered box with a coloured left edge: a message, a tool call, a summary."""
    head = element("div", "title", title, kind)
    return element("div", "card", head + body, kind, extra_class=f"tk-{kind}")


def badge(text: Any, kind: str = "info") -> Html:
    """A small rounded label, e.g. `badge("invalid JSON", "error")`."""
    return element("span", "badge", text, kind, extra_class=f"tk-{kind}")


def text_block(text: Any) -> Html:
    """Message text with its line breaks kept."""
    return element("div", "text", text)


def small(text: Any) -> Html:
    """A small grey note."""
    return element("div", "small", text)


def table(columns: Iterable[Any], rows: Iterable[Iterable[Any]]) -> Html:
    """A table with a header row; cells are escaped unless they are `Html`."""
    head = element("tr", "tr", join(element("th", "th", c) for c in columns))
    body = join(element("tr", "tr", join(element("td", "td", c) for c in row)) for row in rows)
    return element("table", "table", element("thead", "thead", head) + element("tbody", "tbody", body))


def kv_table(rows: Iterable[tuple[Any, Any]]) -> Html:
    """A two-column table of `(key, value)` pairs, keys as header cells, in the given order."""
    body = join(element("tr", "tr", element("th", "th", k) + element("td", "td", v)) for k, v in rows)
    return element("table", "table", element("tbody", "tbody", body))


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


class JsonNumber(str):
    """A JSON number kept as it was written, where Python's number would show it otherwise:
    `1e400` (a float would be infinity, written `Infinity`, which is not JSON), an integer of more
    digits than Python converts (4,300). `json_text` writes it bare, as it came."""


def _float(text: str) -> float | JsonNumber:
    value = float(text)
    return value if math.isfinite(value) else JsonNumber(text)


def _int(text: str) -> int | JsonNumber:
    try:
        return int(text)
    except ValueError:  # past `sys.get_int_max_str_digits()`
        return JsonNumber(text)


DEPTH = 100
"""Deepest nesting of arrays and objects a view lays out: JSON text nested deeper is shown as it
came (`TooDeep`), a value's containers past it are written as `DEEPER`."""
DEEPER = f"…(nested deeper than {DEPTH} levels)"
"""What `json_text` writes for a container nested deeper than `DEPTH` levels."""
CIRCULAR = "…(contains itself)"
"""What `json_text` writes for a container found inside itself."""


class TooDeep(ValueError):
    """JSON text nested deeper than `DEPTH` levels (or than Python's recursion limit reads)."""


def read_json(text: str) -> Any:
    """`text` as JSON; `ValueError` if it is not JSON (NaN and Infinity are not), `TooDeep` if
    it nests deeper than `DEPTH` levels (`json.loads` raised RecursionError past ~1,000)."""
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_float, parse_int=_int)
    except RecursionError:
        raise TooDeep(f"nested deeper than {DEPTH} levels") from None
    if text.count("[") + text.count("{") > DEPTH and _depth(value) > DEPTH:
        raise TooDeep(f"nested deeper than {DEPTH} levels")
    return value


def json_problem(text: str) -> str | None:
    """None when `text` is JSON a view lays out; else what is wrong with it, in a few words
    (`invalid JSON`, or `nested deeper than 100 levels`: too deep to read, valid or not)."""
    try:
        read_json(text)
    except TooDeep as error:
        return str(error)
    except ValueError:
        return "invalid JSON"
    return None


def _depth(value: Any) -> int:
    """How deeply lists and dicts nest in `value`, counted up to `DEPTH + 1` (iterative)."""
    deepest, stack = 0, [(value, 1)]
    while stack and deepest <= DEPTH:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


_ADDRESS = re.compile(r" at 0x[0-9A-Fa-f]+")


def without_addresses(text: str) -> str:
    """`text` without memory addresses: `<Foo object at 0x7f3a…>` → `<Foo object>`."""
    return _ADDRESS.sub("", text)


def plain(value: Any) -> str:
    """`value` as a view writes it: text as it is, anything else its `str()` without a memory
    address (`<Foo object at 0x7f…>` → `<Foo object>`, the same on every run), or that
    `<Foo object>` when its `str()` fails (a learner's class raising, or returning no text);
    `json_text` writes what JSON cannot so."""
    if isinstance(value, str):
        return value
    try:
        return _long_integer(value) or without_addresses(str(value))
    except Exception:  # a learner's __str__: the view is still drawn
        return f"<{type(value).__name__} object>"


def _long_integer(value: Any) -> str | None:
    """For an integer longer than Python writes (`sys.get_int_max_str_digits()`, 4,300 digits: `str`
    raises ValueError), what a view writes instead: `…(an integer of 5,001 digits)`; else None."""
    limit = sys.get_int_max_str_digits()
    if not isinstance(value, int) or not limit or value.bit_length() <= 3 * limit:  # fewer digits than that
        return None
    magnitude = abs(value)
    digits = int((magnitude.bit_length() - 1) * math.log10(2)) + 1
    digits += magnitude >= 10**digits
    return None if digits <= limit else f"…(an integer of {digits:,} digits)"


def _viewable(value: Any, depth: int, inside: set[int], strings: Callable[[str], str] | None) -> Any:
    """`value` as `json.dumps` can write it for a view: every dict key a string, written as JSON
    writes it (`1` → `"1"`, `True` → `"true"`: keys of mixed types can then be sorted), a set as a
    sorted list, each string through `strings`; a container inside itself as `CIRCULAR`, one
    `DEPTH` levels down as `DEEPER` (so neither this nor `json.dumps` recurses without bound).
    `inside` holds the ids of the containers being written (a list met twice is no cycle)."""
    if isinstance(value, JsonNumber):
        return _BARE + value + _BARE  # written bare by `json_text`
    if isinstance(value, str):
        return strings(value) if strings is not None else value
    if not isinstance(value, (dict, list, tuple, set, frozenset)):
        return _long_integer(value) or value
    if id(value) in inside:
        return CIRCULAR
    if depth >= DEPTH:
        return DEEPER
    inside.add(id(value))
    try:
        if isinstance(value, dict):
            return {
                k if isinstance(k, str) else _long_integer(k) or json.dumps(k, default=plain): _viewable(
                    v, depth + 1, inside, strings
                )
                for k, v in value.items()
            }
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [_viewable(v, depth + 1, inside, strings) for v in items]
    finally:
        inside.discard(id(value))


def json_text(
    value: Any, indent: int | None = None, sort_keys: bool = True, strings: Callable[[str], str] | None = None
) -> str:
    """`value` as JSON for a view: deterministic (sorted keys of any type, no memory address,
    sets sorted), whatever it holds (a value nested past `DEPTH` levels or holding itself is
    cut there with a marker, `DEEPER` or `CIRCULAR`); non-ASCII text kept as is. `strings`, if
    given, rewrites each string value (in the order they are met)."""
    viewable = _viewable(value, 0, set(), strings)
    text = json.dumps(viewable, indent=indent, sort_keys=sort_keys, ensure_ascii=False, default=plain)
    return _BARE_NUMBER.sub(r"\1", text) if _BARE_JSON in text else text


_BARE = "\x00\ue000"
"""Around a `JsonNumber` while `json.dumps` writes it (as a string), taken off with its quotes after."""
_BARE_JSON = json.dumps(_BARE, ensure_ascii=False)[1:-1]
_BARE_NUMBER = re.compile('"' + re.escape(_BARE_JSON) + r"(-?[0-9][0-9.eE+-]*)" + re.escape(_BARE_JSON) + '"')


def pretty_json(value: Any) -> str | None:
    """`value` (a JSON string, or a Python value) as indented, key-sorted JSON (`json_text`);
    `None` if a string is not valid JSON or nests too deep to lay out (`read_json`). Non-ASCII
    text (Chinese) is kept as is, not `\\u`-escaped."""
    if isinstance(value, str):
        try:
            value = read_json(value)
        except ValueError:
            return None
    return json_text(value, indent=2)


def code_block(text: Any, lang: str = "json") -> Html:
    """A monospaced block; for `lang="json"` valid JSON is pretty-printed, anything else shown raw."""
    pretty = pretty_json(text) if lang == "json" else None
    shown = pretty if pretty is not None else plain(text)
    return element("pre", "code", shown, extra_class=f"tk-lang-{lang}")


def details(summary: Any, body: Any, open: bool = False) -> Html:
    """A collapsible section (`<details>`), closed unless `open`."""
    attr = " open" if open else ""
    inner = element("summary", "summary", summary) + body
    return Html(f'<details class="tk-details" style="{style("details")}"{attr}>{inner}</details>')
