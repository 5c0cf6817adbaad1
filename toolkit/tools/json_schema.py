"""From one Python type to the JSON Schema fragment the model reads: pydantic writes it.

`type_schema(T)` returns `(schema, defs)`: the fragment for `T` and the named definitions it
refers to with `{"$ref": "#/$defs/Name"}` (enums, models; a recursive model appears once).
It is pydantic's own `TypeAdapter(T).json_schema()`, cleaned:

- `title` keys dropped (noise the model pays tokens for);
- a `Decimal` pydantic leaves in a keyword (a `Field(ge=Decimal("0.01"))` bound) written as the
  JSON number it is (`0.01`), so the schema stays JSON;
- every object with `properties` gets `additionalProperties: false` unless it says otherwise —
  the validator rejects unknown fields at every depth, so the schema says so;
- attribute docstrings of a `TypedDict` or dataclass become field descriptions, as pydantic's
  `use_attribute_docstrings` does for a model that sets it (and as pydantic-ai does), wherever
  the class is, a model's field too (pydantic-ai reads it there by the model's config: one class
  would get two bodies in one schema); a class with a pydantic config of its own (a pydantic
  dataclass, `@with_config`) is read by that config alone, as pydantic reads it;
- a named type (model, enum, TypedDict) is filed under `$defs` and referred to;
- an `enum.Flag` / `IntFlag` lists every combination of its flags (`0` is none of them), not its
  members alone as pydantic's does (`Perm.R | Perm.W`, 3, could not be sent, while pydantic's
  validation takes it); past `LISTED_BITS` flags, the range (0 to all of them). The validation
  (`toolkit.tools.coercion`) takes exactly those numbers: a bit that is no flag's (which an
  `IntFlag` kept) and a negative number (Python's `~`, all flags) are refused, the flags named.

This is the whole rule. `toolkit.tools.fast_schema` gives the same result faster for the
common types (the tests compare both over a table of types); reflection calls it, and it
falls back to `pydantic_schema` here for everything else.

Leaves out: descriptions and defaults of parameters (added by `toolkit.tools.parameters`),
strict mode (`toolkit.tools.strict`), and `$defs` name clashes between two different types of
one name (the caller detects and reports those).
"""

from __future__ import annotations

import ast
import dataclasses
import decimal
import enum
import inspect
import keyword
import linecache
import re
import sys
import types
import typing
import unicodedata
import warnings
from collections.abc import Callable
from typing import Any, TypeGuard, Union

from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import GenerateJsonSchema

from toolkit.tools import class_bytes
from toolkit.tools.class_lines import own_statements
from toolkit.tools.set_order import holds_set, sets_sorted

Schema = dict[str, Any]
Defs = dict[str, Schema]
UNION_TYPES = (Union, types.UnionType)


def type_schema(annotation: Any) -> tuple[Schema, Defs]:
    """The JSON Schema of `annotation` and the `$defs` it uses (the reference path)."""
    return pydantic_schema(annotation)


def pydantic_schema(annotation: Any) -> tuple[Schema, Defs]:
    """The schema pydantic generates for `annotation`, cleaned, named types filed in `$defs`."""
    schema = clean(TypeAdapter(annotation).json_schema(schema_generator=_SetsSorted))
    defs = schema.pop("$defs", {})
    if isinstance(annotation, type) and ("properties" in schema or "enum" in schema or is_flag(annotation)):
        defs[schema_name(annotation)] = schema
        schema = {"$ref": f"#/$defs/{schema_name(annotation)}"}
    _attribute_docs(annotation, schema, defs)
    return schema, defs


class _SetsSorted(GenerateJsonSchema):
    """pydantic's schema writer, a default holding a set (a model's field default that is a model
    with a set field, say) written with each set sorted: pydantic sorts only a default that is a
    set itself, and a set of strings iterates in another order in each process."""

    def encode_default(self, dft: Any) -> Any:
        try:
            if holds_set(dft):
                dft = sets_sorted(dft, by_alias=bool(self.by_alias))
        except RecursionError:  # a default that holds itself: pydantic's own answer
            pass
        return super().encode_default(dft)

    def enum_schema(self, schema: Any) -> Any:
        """pydantic's, but a flag's lists its combinations too (`flag_schema`)."""
        body = super().enum_schema(schema)
        return flag_schema(schema["cls"], body) if is_flag(schema["cls"]) else body


def _attribute_docs(annotation: Any, schema: Schema, defs: Defs) -> None:
    """Fill missing property descriptions of TypedDicts and dataclasses from attribute docstrings.

    pydantic does this for a model that sets `use_attribute_docstrings=True`; a TypedDict or a
    plain dataclass cannot say so, so reflection reads them as pydantic-ai does. A class that
    can say so (its own `__pydantic_config__`) is left to pydantic, which reads its config."""
    for cls in _documented_classes(annotation):
        body = defs.get(schema_name(cls)) or (schema if annotation is cls else None)
        properties = (body or {}).get("properties") or {}
        for name, doc in _docstrings(cls).items():
            prop = properties.get(name)
            if isinstance(prop, dict) and "description" not in prop:
                prop["description"] = doc


def _is_typeddict(cls: type) -> bool:
    """A `TypedDict` class from `typing` or `typing_extensions` (their metaclasses differ)."""
    return issubclass(cls, dict) and hasattr(cls, "__required_keys__") and hasattr(cls, "__total__")


def _documented_classes(annotation: Any, seen: set[int] | None = None) -> list[type]:
    seen = set() if seen is None else seen
    if id(annotation) in seen:
        return []
    seen.add(id(annotation))
    found: list[type] = []
    if isinstance(annotation, type) and (
        _is_typeddict(annotation) or dataclasses.is_dataclass(annotation) or issubclass(annotation, BaseModel)
    ):
        if getattr(annotation, "__pydantic_config__", None) is None and not issubclass(annotation, BaseModel):
            found.append(annotation)  # a class with a config of its own is read by it (pydantic does that)
        try:
            hints = typing.get_type_hints(annotation)
        except Exception:
            hints = {}
        for hint in hints.values():
            found += _documented_classes(hint, seen)
    for arg in typing.get_args(annotation):
        found += _documented_classes(arg, seen)
    return found


def _docstrings(cls: type) -> dict[str, str]:
    """The attribute docstrings of `cls`: `attribute_docstrings`, else pydantic's reader."""
    found = attribute_docstrings(cls)
    return reference_docstrings(cls) if found is None else found


def reference_docstrings(cls: type) -> dict[str, str]:
    """pydantic's `extract_docstrings_from_cls(cls, use_inspect=True)`: the reference, slow
    (`inspect` parses the class's whole module to find it, then the class again)."""
    try:
        from pydantic._internal._docs_extraction import extract_docstrings_from_cls

        with warnings.catch_warnings():  # Python warned once of the source's own "\d", when it compiled it
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)  # its category before Python 3.12
            return extract_docstrings_from_cls(cls, use_inspect=True)
    except Exception:  # no source (e.g. defined in a REPL), or pydantic moved the helper
        return {}


def attribute_docstrings(cls: type) -> dict[str, str] | None:
    """`reference_docstrings(cls)` without parsing the module: `None` when unsure.

    The class statement is the only line of its file matching `class <Name>` (a name defined
    twice in one file is left to `inspect`; `_class_starts` finds them; a class made by a call,
    which no class statement can name, has no docstrings: `_never_defined`), at the margin
    exactly when the class is at module level. Its body runs to the first
    statement line at or left of that indentation. A body without quotes has no docstrings
    (checked only when no comment, backslash or open bracket can hide a continuation); a body
    of one-line fields and strings is read line by line (`_read_simple_block`); else the body
    alone is parsed and read by pydantic's own visitor (a body that does not parse is left to
    `inspect`)."""
    try:
        file = source_file(cls)
        if not file:
            return None
        linecache.checkcache(file)
        module = sys.modules.get(cls.__module__)
        lines = linecache.getlines(file, module.__dict__ if module else None)
    except Exception:
        return None
    name = cls.__name__
    if not lines or not name.isidentifier():
        return None
    block = _block_at_first_line(cls, lines, name)
    if block is None:
        if _NO_LINE_NO_SOURCE and "__firstlineno__" not in cls.__dict__:
            return {}  # made by a call: `inspect` (3.13 on) finds a class by its own line only
        block, made_by_a_call = _block_from_bytes(cls, file, lines, name)
        if made_by_a_call:
            return {}
    if block is None:
        text = _source_text(file, lines)
        mentions = _mentions(text, name)  # one search of the file for both questions
        found = _class_starts(file, text, name, mentions)
        if len(found) > 1:  # a name stated twice: the statement that made this class, if it can be told
            found = own_statements(cls, file, text, found, lambda start: _class_block(text, start))
        if len(found) != 1:
            return {} if not found and _never_defined(file, text, cls, mentions) else None
        block = _class_block(text, found[0])
    indent = len(block[0]) - len(block[0].lstrip())
    if (indent == 0) == ("." in cls.__qualname__):
        return None
    body = "".join(block)
    if "'" not in body and '"' not in body:
        if "#" not in body and "\\" not in body and _balanced(body):
            return {}
        return None
    simple = _read_simple_block(block)
    return _read_block(block, name) if simple is None else simple


def _block_from_bytes(cls: type, file: str, lines: list[str], name: str) -> tuple[list[str] | None, bool]:
    """What the search of the joined lines below finds, from the file's bytes when they can say it
    (`class_bytes`: an ASCII name, a file as `linecache` read it): the class's block when one
    statement names it, or whether none can (made by a call); `(None, False)` to search the text."""
    data = class_bytes.file_bytes(file, lines) if name.isascii() else None
    if data is None:
        return None, False
    found = class_bytes.statement(file, data, lines, name)
    if found.line is not None:
        return _class_block_of_lines(lines, found.line), False
    made = not found.starts and cls.__qualname__.rpartition(".")[2] == name
    return None, made and class_bytes.never_defined_name(file, data, name, found)


def source_file(cls: type) -> str | None:
    """`inspect.getsourcefile(cls)`; for a class of a module loaded from a `.py` file, its answer
    without its checks: that file, whether it is still there (`inspect` asks the disk first) or
    not (then the module's loader vouches for it)."""
    module = sys.modules.get(cls.__module__) if isinstance(cls, type) else None
    file = getattr(module, "__file__", None)
    if type(file) is str and file.endswith(".py") and getattr(module, "__loader__", None) is not None:
        return file
    return inspect.getsourcefile(cls)


def _block_at_first_line(cls: type, lines: list[str], name: str) -> list[str] | None:
    """The class's block (as `_class_block` cuts it) found from the line the compiler gave it
    (`__firstlineno__`, Python 3.13 on: its first decorator's line, or its `class` line), without
    joining the file or looking through it; None when the class has no line of its own (made by a
    call, or an older Python) or the statement is not found where the line says (the file changed,
    `__module__` was set to another module's): the search by name decides then.

    The line given must start a decorator or a class statement, and the first class statement
    from there on must be `class <name>` (what `_class_starts` matches): else the line was not
    this class's."""
    first = cls.__dict__.get("__firstlineno__")  # its own: an inherited one is another class's
    if type(first) is not int or not 0 < first <= len(lines):
        return None
    decorated = lines[first - 1].lstrip().startswith("@")
    for index in range(first - 1, min(len(lines), first - 1 + (_DECORATOR_LINES if decorated else 1))):
        line = lines[index]
        head = _CLASS_HEAD.match(line)
        if head is not None:  # the first class statement from there on: this class's, or the line was not
            ours = line.startswith(name, head.end()) and _name_ends(line, head.end() + len(name))
            return _class_block_of_lines(lines, index) if ours else None
    return None  # no class statement where the line says


_DECORATOR_LINES = 64
"""How far past `__firstlineno__` the `class` line is looked for (decorators spread over lines)."""


def _class_block_of_lines(lines: list[str], index: int) -> list[str]:
    """`_class_block` of the file's text at the start of `lines[index]`, read from the lines."""
    block = [lines[index]]
    indent = len(block[0]) - len(block[0].lstrip())
    for at in range(index + 1, len(lines)):  # not a copy of the rest of the file
        if _ends_block(lines[at], indent):
            break
        block.append(lines[at])
    return block


_NO_LINE_NO_SOURCE = sys.version_info >= (3, 13)
"""Whether `inspect` finds a class's source by its `__firstlineno__` alone (Python 3.13 on): a
class without one (made by `type()`, `TypedDict("Name", {...})`, `make_dataclass`) has none."""


def _never_defined(file: str, text: str, cls: type, mentions: list[int] | None = None) -> bool:
    """Whether no class statement of the file's text can define `cls`, so `inspect` finds no
    source for it (a class made by a call: `TypedDict("Name", {...})`, `type()`,
    `make_dataclass`), which it learns only by parsing the whole module, each time.

    `inspect` (before Python 3.13) looks for a class statement named as the last part of the
    class's `__qualname__`: the word `class`, blanks or backslash line joins, then the name, in
    the form the compiler reads it in (NFKC: `class Ｐerson` defines `Person`). None can be
    there when the name, where it stands in the text (in code, a string or a comment alike),
    never follows `class` so, and no other spelling of it can be there: the text is ASCII, or
    NFKC already, or no name after a word `class` is it in that form (`_class_words`). A class
    whose `__name__` is not that part is not judged. `mentions`: `_mentions(text, cls.__name__)`,
    if already known."""
    name = cls.__qualname__.rpartition(".")[2]
    if name != cls.__name__:
        return False
    if any(class_bytes.after_class_word(text, at) for at in (_mentions(text, name) if mentions is None else mentions)):
        return False
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        return True
    return name not in _class_words(file, text)


def _class_words(file: str, text: str) -> frozenset[str]:
    """`class_bytes.class_words` of the text: the names beyond ASCII after the letters `class`, in
    their NFKC form. Read once per text (`clear_source_cache` forgets them)."""
    cached = _WORDS.get(file)
    if cached is not None and cached[0] is text:
        return cached[1]
    words = class_bytes.class_words(text)
    class_bytes.keep(_WORDS, file, (text, words))
    return words


_WORDS: dict[str, tuple[str, frozenset[str]]] = {}


def _name_ends(text: str, end: int) -> bool:
    """Whether a name that ends at `end` ends there (`\\b`): no letter, digit or `_` follows."""
    after = text[end : end + 1]
    return not (after.isalnum() or after == "_")


def _ends_block(line: str, indent: int) -> bool:
    """Whether `line` ends a block indented by `indent`: a statement line at or left of it."""
    stripped = line.lstrip()
    return bool(stripped) and not stripped.startswith("#") and len(line) - len(stripped) <= indent


_CLASS_WORD = re.compile(r"class[ \t]+(\w+)")
_WORD = re.compile(r"\w+")
_CLASS_HEAD = re.compile(r"[ \t]*class[ \t]+")
_TEXTS: dict[str, tuple[list[str], str]] = {}
_SOURCES: dict[str, tuple[str, dict[str, list[int]]]] = {}


def _source_text(file: str, lines: list[str]) -> str:
    """The lines of a file (as `linecache` holds them) as one text, joined once while
    `linecache` keeps the same lines (`clear_source_cache` forgets it)."""
    cached = _TEXTS.get(file)
    if cached is not None and cached[0] is lines:
        return cached[1]
    text = "".join(lines)
    class_bytes.keep(_TEXTS, file, (lines, text))
    return text


def _class_starts(file: str, text: str, name: str, mentions: list[int] | None = None) -> list[int]:
    """Where the lines of a file's text start that the multiline regex
    `^[ \t]*class[ \t]+<name>\\b` matches: each place the name stands (`mentions`, one string
    search, if not given) is checked, its line up to there. A name of other characters than
    `\\w` is looked up in the index of every class statement (`_class_statements`)."""
    if not _WORD.fullmatch(name):
        return _class_statements(file, text).get(name, [])
    found: list[int] = []
    for at in _mentions(text, name) if mentions is None else mentions:
        start = text.rfind("\n", 0, at) + 1
        if _CLASS_HEAD.fullmatch(text, start, at):
            found.append(start)
    return found


def _mentions(text: str, name: str) -> list[int]:
    """Where `name` stands in the text with no letter, digit or `_` right after it (`\\b`)."""
    found: list[int] = []
    at = text.find(name)
    while at >= 0:
        if _name_ends(text, at + len(name)):
            found.append(at)
        at = text.find(name, at + 1)
    return found


def _class_statements(file: str, text: str) -> dict[str, list[int]]:
    """Where the `class <Name>` lines of a file's text start, by name: the lines the multiline
    regex `^[ \t]*class[ \t]+<Name>\\b` matches, for every name at once. Read once per text
    (`clear_source_cache` forgets them)."""
    cached = _SOURCES.get(file)
    if cached is not None and cached[0] is text:
        return cached[1]
    found: dict[str, list[int]] = {}
    for match in _CLASS_WORD.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        if not text[start : match.start()].strip(" \t"):  # first on its line
            found.setdefault(match.group(1), []).append(start)
    class_bytes.keep(_SOURCES, file, (text, found))
    return found


def _class_block(text: str, start: int) -> list[str]:
    """The class statement's line (at `start`) and its body's: the lines up to the first
    statement line at or left of the statement's indentation."""
    first_end = text.find("\n", start) + 1 or len(text)
    block = [text[start:first_end]]
    indent = len(block[0]) - len(block[0].lstrip())
    at = first_end
    while at < len(text):
        end = text.find("\n", at) + 1 or len(text)
        line = text[at:end]
        if _ends_block(line, indent):
            break
        block.append(line)
        at = end
    return block


def clear_source_cache() -> None:
    """Forget the source texts and the class statements found in them."""
    _TEXTS.clear()
    _SOURCES.clear()
    _WORDS.clear()
    class_bytes.clear()


_BRACKETS = re.compile(r"[][(){}]")


def _balanced(text: str) -> bool:
    if not _BRACKETS.search(text):
        return True
    return (
        text.count("(") == text.count(")") and text.count("[") == text.count("]") and text.count("{") == text.count("}")
    )


_QUOTED = r"""(?:"{3}(?:[^"\\\n]|"(?!""))*"{3}|'{3}(?:[^'\\\n]|'(?!''))*'{3}|"(?!"")[^"\\\n]*"|'(?!'')[^'\\\n]*')"""
"""A one-line string literal without backslashes, its quotes read as Python's tokenizer reads them."""
_STRINGS = re.compile(rf"(?<!\w)(?:[rRuUbB]|[bB][rR]|[rR][bB])?{_QUOTED}")  # in code: any but an f-string
_DOCSTRING_LINE = re.compile(rf"[ \t]*[rRuU]?({_QUOTED})[ \t]*(?:#.*)?\n?")  # a str, not bytes
_FIELD_LINE = re.compile(r"[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*:(.*)\n?")  # ASCII: no NFKC to redo
_HEADER_LINE = re.compile(r"[ \t]*+class[ \t]++\w++[ \t]*+(?:\([^()'\"#;\\]*+\))?+[ \t]*+:[ \t]*+(?:#.*)?\n?")
r"""`[ \t]*class[ \t]+\w+[ \t]*(?:\([^()'"#;\\]*\))?[ \t]*:[ \t]*(?:#.*)?\n?`, every run possessive: what
follows each can never be what it gives back, and the two blank runs around the bases split a long
run of blanks every way (0.9 s for 20,000)."""


def _read_simple_block(block: list[str]) -> dict[str, str] | None:
    """pydantic's `DocstringVisitor` over a class body of one-line statements, read line by line
    instead of parsed: `name: annotation [= value]` and one-line string literals (no prefix, no
    backslash), blank and comment lines, every statement at one indentation. `None` for anything
    else (a method, a statement over several lines, `;`, a string left open): then it is parsed.

    As the visitor reads it, a string statement right after an annotated name documents it."""
    if not _HEADER_LINE.fullmatch(block[0]):
        return None
    docs: dict[str, str] = {}
    target, indent = None, None
    for line in block[1:]:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        margin = line[: len(line) - len(line.lstrip())]
        indent = margin if indent is None else indent
        if margin != indent:
            return None
        field = _FIELD_LINE.fullmatch(line)
        if field and not keyword.iskeyword(field.group(1)) and _one_statement(field.group(2)):
            target = field.group(1)
            continue
        string = _DOCSTRING_LINE.fullmatch(line)
        if string is None:
            return None
        if target is not None:
            docs[target] = one_line_cleandoc(_literal_text(string.group(1)))
        target = None
    return docs


def one_line_cleandoc(text: str) -> str:
    """`inspect.cleandoc(text)` for a text of one line (no `\\n`): its tabs expanded, its leading
    blanks stripped, as `cleandoc` leaves its first line, without the walk over the other lines
    (some 40 Python steps a call). `tests/test_docstring_patterns.py` holds the two equal. Python 3.13's
    `cleandoc` strips only spaces from the first line (3.11's and 3.12's every blank: `\u3000`, `\x0b`)."""
    return text.expandtabs().lstrip(_FIRST_LINE_BLANKS) if "\n" not in text else inspect.cleandoc(text)


_FIRST_LINE_BLANKS = " " if sys.version_info >= (3, 13) else None
"""What `inspect.cleandoc` strips from the start of a docstring's first line on this Python."""


def _literal_text(literal: str) -> str:
    quotes = 3 if literal[:3] in ('"""', "'''") else 1
    return literal[quotes:-quotes]


def _one_statement(text: str) -> bool:
    """The rest of a `name: ...` line ends its statement: with its string literals and comment
    taken out, no quote, `;`, backslash or unclosed bracket is left (and it is not `:=`)."""
    code = _STRINGS.sub("0", text) if "'" in text or '"' in text else text
    code = code.partition("#")[0].strip()
    return bool(code) and not code.startswith("=") and not _UNSAFE.search(code) and _balanced(code)


_UNSAFE = re.compile(r"['\";\\]")


def _read_block(block: list[str], name: str) -> dict[str, str] | None:
    try:
        from pydantic._internal._docs_extraction import DocstringVisitor, _dedent_source_lines

        with warnings.catch_warnings():  # Python warned once of the source's own "\d", when it compiled it
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)  # its category before Python 3.12
            tree = ast.parse(_dedent_source_lines(block))
    except Exception:  # not the whole class (a continuation left of it), or pydantic moved the helpers
        return None
    if len(tree.body) != 1:
        return None
    stmt = tree.body[0]
    if isinstance(stmt, ast.FunctionDef) and stmt.name == "dedent_workaround" and len(stmt.body) == 1:
        stmt = stmt.body[0]
    if not isinstance(stmt, ast.ClassDef) or stmt.name != name:
        return None
    visitor = DocstringVisitor()  # as `visitor.generic_visit(stmt)`, without walking bases and decorators:
    before = [*stmt.bases, *stmt.keywords]  # expressions (no statement inside), visited before the body
    visitor.previous_node_type = type(before[-1]) if before else None
    for node in stmt.body:
        visitor.visit(node)
    return visitor.attrs


_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9_.-]")


def schema_name(cls: type) -> str:
    """The `$defs` key of a named type: its class name, made safe for a JSON pointer."""
    name = cls.__name__
    if name.isascii() and name.isidentifier():
        return name  # letters, digits and `_`: nothing to replace
    return _UNSAFE_IN_NAME.sub("_", name)


def clean(schema: Schema) -> Schema:
    """Drop `title`s; `Decimal`s as JSON numbers; close objects that list properties
    (`additionalProperties: false`)."""

    def fix(node: Schema) -> Schema:
        node = {k: _json_number(v) for k, v in node.items() if k != "title"}
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        return node

    return map_schema(schema, fix)


def _json_number(value: Any) -> Any:
    """A `Decimal` pydantic left in a keyword (`Field(ge=Decimal("0.01"))` → `minimum`) as a JSON number."""
    if isinstance(value, decimal.Decimal) and value.is_finite():
        return int(value) if value == value.to_integral_value() else float(value)
    return value


_MAP_KEYS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LIST_KEYS = ("anyOf", "oneOf", "allOf", "prefixItems")
_ONE_KEYS = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
)


def map_schema(node: Any, fn: Callable[[Schema], Schema]) -> Any:
    """Rebuild a schema bottom-up, applying `fn` to every sub-schema (never to name maps)."""
    if not isinstance(node, dict):
        return node  # `true` / `false` schemas
    out: Schema = {}
    for key, value in node.items():
        if key in _MAP_KEYS and isinstance(value, dict):
            out[key] = {name: map_schema(sub, fn) for name, sub in value.items()}
        elif key in _LIST_KEYS and isinstance(value, list):
            out[key] = [map_schema(sub, fn) for sub in value]
        elif key in _ONE_KEYS:
            out[key] = map_schema(value, fn)
        else:
            out[key] = value
    return fn(out)


# --- enum.Flag ----------------------------------------------------------------------------

LISTED_BITS = 6
"""Up to this many flags, the schema lists every combination (64 numbers at most); past it, the range."""


def is_flag(cls: Any) -> TypeGuard[type[enum.Flag]]:
    """`cls` is an `enum.Flag` class (an `IntFlag` too) whose values are ints."""
    return isinstance(cls, type) and issubclass(cls, enum.Flag) and all(type(m.value) is int for m in cls)


def every_bit(cls: type[enum.Flag]) -> int:
    """The bits of all the flags of `cls` together (a named combination adds none)."""
    bits = 0
    for member in cls.__members__.values():
        bits |= int(member.value)
    return bits


def _flags(cls: type[enum.Flag]) -> list[tuple[int, str]]:
    """The one-bit members of `cls` (its flags), as (value, name), by value."""
    found = {int(m.value): m.name or "" for m in cls.__members__.values() if int(m.value).bit_count() == 1}
    return sorted(found.items())


def _combinations(bits: int) -> list[int]:
    """Every number made of some of `bits` (0 and `bits` included), ascending."""
    found, part = [], bits
    while True:
        found.append(part)
        if part == 0:
            return sorted(found)
        part = (part - 1) & bits


def flags_text(cls: type[enum.Flag]) -> str:
    """The flags in words, as the schema and an argument error show them: `1 (R), 2 (W), 4 (X)`."""
    return ", ".join(f"{value} ({name})" for value, name in _flags(cls))


def flag_schema(cls: type[enum.Flag], body: dict[str, Any]) -> dict[str, Any]:
    """`body`, pydantic's schema of the flag class `cls` (its members' `enum`), with every
    combination listed instead, or the range past `LISTED_BITS` flags (as for any enum of numbers,
    the schema holds no names: the class's docstring can say what each flag means)."""
    bits = every_bit(cls)
    out = {k: v for k, v in body.items() if k not in ("enum", "type")}
    if bits.bit_count() <= LISTED_BITS:
        return out | {"enum": _combinations(bits), "type": "integer"}
    return out | {"maximum": bits, "minimum": 0, "type": "integer"}


def is_flag_value(bits: int, value: int) -> bool:
    """`value` is made of some of the flags `bits` (0 is none of them): not negative, no other bit."""
    return value >= 0 and not value & ~bits
