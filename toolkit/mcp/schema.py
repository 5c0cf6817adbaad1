"""An MCP tool's `inputSchema` → the parameters schema toolkit sends to the model.

MCP servers are written by strangers, in every SDK and by hand; their schemas are valid JSON
Schema but rarely in the dialect toolkit writes itself (`toolkit.tools.reflect`). `translate_schema()`
rewrites one, walking every subschema:

1. references: `#/definitions/X` (draft-07) and `#/$defs/X` (2019-09+) both become
   `#/$defs/X`, and `definitions` join `$defs` at the root. Any other reference into the same
   document — `#/properties/x`, or into `definitions` nested below the root, the default style
   of zod-to-json-schema — has its target copied into the root's `$defs` (named after the
   path, e.g. `properties_x`) and points there; nested `definitions` / `$defs` are then dropped.
   A reference is kept, never inlined, so recursive schemas (a tree node whose children are
   nodes, or `"$ref": "#"`) stay finite. A reference to another file or a URL cannot be sent
   on, and a `$defs` / `definitions` that is not an object of named schemas cannot be read:
   `SchemaTranslationError`;
2. missing `type`: the root is an object (a root that only refers to a definition takes
   that definition's body); below it, `properties` / `required` / `additionalProperties` mean
   object and `items` means array. A *property* that says nothing about its type (`{}`, or
   only a description) becomes an object, as LangChain4j's MCP mapping does;
3. type arrays: `null` is dropped, as LangChain4j does (an optional argument is left out, not
   sent as null); `{"type": ["integer", "string"]}` becomes `{"anyOf": [{"type": "integer"},
   {"type": "string"}]}`; other keywords stay beside it (JSON Schema applies `minimum` to
   numbers only, so the meaning does not change);
4. older drafts: draft-4's boolean `exclusiveMinimum: true` + `minimum: 5` becomes
   `exclusiveMinimum: 5` (and the same for maximum); draft-07's `dependencies` becomes
   `dependentRequired` (a list of names) and `dependentSchemas` (a schema);
5. `anyOf` / `oneOf` / `allOf` branches are translated like any subschema. At the root the
   model needs a plain object (OpenAI refuses a root `anyOf`), so composition there is
   rewritten: `allOf` branches merge into the root (properties, and `required` joined);
   `anyOf` / `oneOf` branches lend the root their properties, a property required by every
   branch stays required, and the alternatives are written into the root's `description`
   ("exactly one of these forms: 1) …; 2) …"), so the model still reads the rule the schema
   can no longer enforce. A branch that refers to a definition (`{"$ref": "#/$defs/ById"}`, a
   union of models) is read as that definition. The server still validates;
6. the result is JSON Schema 2020-12 (draft-07's tuple `items` becomes `prefixItems`), root
   `$schema` / `$id` dropped; `None` when the tool takes no arguments (toolkit never sends `{}`;
   an empty `properties` with no declared `additionalProperties` means none). Every result is
   checked against the 2020-12 metaschema before it is returned: a schema that still is not
   valid (`"minimum": "5"`) is a `SchemaTranslationError` saying where. So is a NaN or Infinity
   anywhere in the input (Python servers write `NaN` by default): JSON cannot carry it, so
   every request offering the tool would fail;
7. an array that says nothing of its items gets `items: {}` (any value: what leaving it out
   means), alone or as a branch of a type array. OpenAI refuses, strict or not, every request
   offering a tool with an array without `items` (`toolkit.gateway.parameters`).

8. a reference by name: to an `$anchor` (`#addr`), or to a subschema's `$id` (`item.json`,
   `urn:shop:sku`, the root's own `$id` with a pointer after it), read against the root's `$id`,
   points at that subschema as any pointer does (`#/$defs/Address`, or a copy hoisted there);
   the `$id`s and `$anchor`s are then dropped. A reference inside a subschema with an `$id` of its
   own is read against that `$id`, as JSON Schema 2020-12 reads it (`#/$defs/n` there is that
   subschema's `n`, `#` that subschema), unless it names nothing so (then against the root's). Definitions that only refer on, round a loop that
   never reaches a schema (`A` → `B` → `A`), are any value (`{}`).

A schema past `MAX_SCHEMA_CHARS` characters of JSON (100,000), as given or as translated, is a
`SchemaTranslationError` saying how long it is: it would be sent with every request.

`translate_schema` never changes its input; it keeps its translations (and failures), so a provider
asking at every turn pays once for each schema, whichever tools have it (`_Kept`, up to 16 million characters of them). Leaves out: `$dynamicRef`, external references
(another file, a URL no `$id` here names); tool *names* (see
`toolkit.mcp.provider.wire_names`).

The model's arguments to an MCP tool are checked against the tool's `inputSchema` before they
are sent (`checked_arguments`). A wrong type or a missing required field went to the server, which answered in whatever words
its SDK writes (a pydantic dump, a zod issue list, "Internal error"), or did the wrong thing.
`checked_arguments(schema, arguments)` says what is wrong in the words toolkit uses for its own
tools' arguments (`toolkit.errors.ArgumentProblem`: `- qty: got "many", expected an integer`,
`- sku: missing, expected a string`, an unknown field with the valid ones when the schema has
`additionalProperties: false`), so the executor raises the same `ArgumentError` a local tool does.

The check is made against the schema the server gave (what the server itself allows), never
against the translation the model is shown (`translate_schema`, which drops `null` from type
arrays), by `jsonschema` for the draft the schema names (2020-12 by default). It is lenient
wherever it cannot be sure the server refuses:

- a schema `jsonschema` cannot read (a `$ref` to another file, a keyword of the wrong kind)
  checks nothing: the arguments are sent as they are;
- `format` and `pattern` are not checked (a format toolkit does not know; a pattern that would
  take hours on a long string): the server checks them; nor are arguments holding a key that a
  pattern of `patternProperties` could not be searched in quickly (`^(a+)+$`, any key);
- a value of another type that toolkit's own coercion would accept (`"27"` for an integer) is
  not refused: a server written with pydantic (the Python SDK) accepts it too;
- `null` for a field that is not required, where the schema does not take it, is left out of
  the call, as `null` for a local tool's optional parameter means "use the default".

A server that checks its tools' arguments itself, in words written for the model, says so in a
tool's `_meta` (`CHECKED_BY_SERVER`: true): its words are kept, and nothing is checked here.
`toolkit.mcp.server` does, so the week-3 shop served over MCP answers a wrong call with the
course's own messages (a missing order id: ask the user, do not make one up), as it does locally.
"""

from __future__ import annotations

import copy
import decimal
import functools
import json
import math
import re
import threading
import urllib.parse
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from toolkit import lazy_iri
from toolkit.chat.finite import first_non_finite
from toolkit.errors import ArgumentProblem, SchemaTranslationError
from toolkit.gateway.patterned import search_limit
from toolkit.mcp.outputs import one_of_enum, unique_items
from toolkit.tools import json_repair
from toolkit.tools.arguments import describe, json_text
from toolkit.tools.coercion import one_unit, validator_for
from toolkit.unicode import cut

_DEFS_PREFIXES = ("#/$defs/", "#/definitions/")
_OBJECT_WORDS = ("properties", "required", "additionalProperties", "patternProperties")
_COMPOSITION = ("anyOf", "oneOf", "allOf")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_VALUES = (
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
)
_SCHEMA_MAPS = ("properties", "patternProperties", "dependentSchemas")
_TYPE_WORDS = ("type", "$ref", *_COMPOSITION, "enum", "const", "not", "if", "items", "prefixItems")
"""A subschema with any of these says what type its value has (step 2 for properties)."""
_DATA_KEYS = ("enum", "const", "default", "examples")
"""Values that are data, not schemas: a `$ref` inside them is left alone."""
_DROPPED = ("$defs", "definitions", "$id", "$anchor")
"""Keywords a translated subschema loses: definitions are the root's; names are read into pointers
(`_places`), and an `$id` left would change what the pointers below it mean."""
_NAMED_SCHEMAS = (*_SCHEMA_MAPS, "$defs", "definitions")
"""Keywords whose value maps names to schemas: a name there is no keyword."""


def translate_schema(schema: dict[str, Any] | None, where: str = "MCP tool") -> dict[str, Any] | None:
    """The parameters schema for an MCP `inputSchema` (see the module docstring); one nested past what
    the walk's recursion reaches is a `SchemaTranslationError` too. Translations are kept (`_Kept`): a
    provider translates its servers' tools at every `provide()`, each turn, and a schema of 20 KB took
    half a second (a stranger's 5 MB, ten seconds; 10,000 tools of one small schema, thirty), though it
    had not changed."""
    text, size = _text(schema)
    if text is not None and (kept := _KEPT.get(text)) is not None:
        if isinstance(kept, str):  # what was wrong, for any tool of this schema
            raise SchemaTranslationError(f"{where}: {kept}") from None
        return copy.deepcopy(kept)
    try:
        _check_size(size, where)  # before translating: a 5 MB schema took ten seconds
        result = _translated(schema, where)
        # again once translated: pointer targets are copied into $defs
        _check_size(len(json.dumps(result, ensure_ascii=False)) if result is not None else 0, where)
    except RecursionError:
        failure = SchemaTranslationError(
            f"{where}: its schema nests too deeply to translate (past Python's recursion limit; no model takes "
            "arguments that deep); ask its author to flatten it"
        )
        _KEPT.failed(text, where, failure)
        raise failure from None
    except SchemaTranslationError as exc:
        _KEPT.failed(text, where, exc)
        raise
    _KEPT.put(text, copy.deepcopy(result))
    return result


def _text(schema: Any) -> tuple[str | None, int]:
    """`schema`'s key among the kept translations: its `repr` (which tells a tuple from a list, `True`
    from `1`); None when JSON cannot write it (an object of another kind may change behind its repr);
    and the characters of its JSON (0 then)."""
    try:
        size = len(json.dumps(schema, ensure_ascii=False))
        return repr(schema), size
    except (TypeError, ValueError, RecursionError):
        return None, 0


MAX_SCHEMA_CHARS = 100_000
"""The characters of JSON one tool's schema may take, as the server wrote it and as translated: every
request of the run carries it (a stranger's 5 MB schema was sent with every turn, past what any gateway
takes). As much as one result may take (`toolkit.mcp.provider.MAX_RESULT_CHARS`); the largest schemas of
well-known servers take a few thousand."""


def _check_size(size: int, where: str) -> None:
    """A `SchemaTranslationError` for a schema of `size` characters past `MAX_SCHEMA_CHARS`."""
    if size > MAX_SCHEMA_CHARS:
        raise SchemaTranslationError(
            f"{where}: its inputSchema takes {size:,} characters of JSON, past the {MAX_SCHEMA_CHARS:,} a tool may "
            "send the model with every request; it is not offered (ask its author for a shorter schema)"
        )


class _Kept:
    """Translations by the input's text (`_text`), or what was wrong with it (the error's words after
    the tool's name, which alone depends on the tool), the last used kept, the rest dropped past
    `KEPT_CHARS` of input text in all."""

    KEPT_CHARS = 16_000_000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, Any] = OrderedDict()
        self._chars = 0

    def get(self, text: str) -> Any:
        with self._lock:
            found = self._kept.get(text)
            if found is not None:
                self._kept.move_to_end(text)
            return found

    def failed(self, text: str | None, where: str, exc: SchemaTranslationError) -> None:
        if str(exc).startswith(f"{where}: "):
            self.put(text, str(exc)[len(where) + 2 :])

    def put(self, text: str | None, outcome: Any) -> None:
        if text is None or outcome is None or len(text) > self.KEPT_CHARS:
            return  # None (no arguments) is cheap to find again
        with self._lock:
            if text in self._kept:
                return
            self._kept[text] = outcome
            self._chars += len(text)
            while self._chars > self.KEPT_CHARS:
                old, _ = self._kept.popitem(last=False)
                self._chars -= len(old)


_KEPT = _Kept()


def _translated(schema: dict[str, Any] | None, where: str) -> dict[str, Any] | None:
    _check_finite(schema, where)
    original = copy.deepcopy(schema) if isinstance(schema, dict) else {}
    _rebase(original)
    root = copy.deepcopy(original)
    raw_defs = _collect_defs(root, where)
    refs = _hoist_pointers(original, raw_defs)
    defs = _loops_cut({name: _walk(body, where, refs) for name, body in raw_defs.items()})
    root = _flatten_root(_resolved(_walk(root, where, refs), defs), defs)
    for key in ("$schema", "$id"):
        root.pop(key, None)
    root["type"] = "object"
    if defs:
        root["$defs"] = defs
    _check_refs(root, set(defs), where)
    if not _takes_arguments(root):
        return None
    lazy_iri.defer()
    from jsonschema import Draft202012Validator  # here, not at import: it costs seconds on a slow machine
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(root)
    except SchemaError as exc:
        at = "/".join(str(p) for p in exc.path) or "the root"
        raise SchemaTranslationError(
            f"{where}: its schema is not valid JSON Schema 2020-12 after translation ({exc.message}, at {at}); "
            "ask its author to fix it"
        ) from None
    return root


def _takes_arguments(root: dict[str, Any]) -> bool:
    """Named properties, or free-form ones declared on purpose (`additionalProperties: {...}`)."""
    extra = root.get("additionalProperties")
    return bool(root.get("properties") or root.get("patternProperties") or extra is True or isinstance(extra, dict))


def _loops_cut(defs: dict[str, Any]) -> dict[str, Any]:
    """`defs` with each definition that only refers on (`{"$ref": "#/$defs/B"}`), round a loop that
    never reaches a schema, made any value (its words kept): nothing can be said of such a value,
    and a validator following the loop never ends."""

    def onward(name: str) -> str | None:
        body = defs.get(name)
        if not isinstance(body, dict) or set(body) - {"$ref", *_WORDS}:
            return None
        ref = body.get("$ref")
        if not isinstance(ref, str) or not ref.startswith(_DEFS_PREFIXES[0]):
            return None
        return _unescape(ref[len(_DEFS_PREFIXES[0]) :])

    looped: set[str] = set()
    for start in defs:
        path: list[str] = []
        name: str | None = start
        while name is not None and name not in path and name not in looped:
            path.append(name)
            name = onward(name)
        if name is not None and name in path:
            looped.update(path[path.index(name) :])
    return {
        name: {k: v for k, v in body.items() if k != "$ref"} if name in looped else body for name, body in defs.items()
    }


_WORDS = ("description", "title", "$comment")
"""Keywords that only say something to a reader."""


def _collect_defs(root: dict[str, Any], where: str) -> dict[str, Any]:
    """Step 1: `definitions` and `$defs` of the root, merged (a clash of two bodies is an error)."""
    defs = _definitions(root, "$defs", where)
    for name, body in _definitions(root, "definitions", where).items():
        if defs.setdefault(name, body) != body:
            raise SchemaTranslationError(
                f"{where}: its schema defines {name!r} twice, differently, under 'definitions' "
                "and '$defs'; the server's schema is ambiguous — ask its author to fix it"
            )
    return defs


def _definitions(root: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    """The root's `$defs` or `definitions`, taken out of it: an object of named schemas, or nothing."""
    value = root.pop(key, None)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise SchemaTranslationError(
            f"{where}: its schema's {key!r} is {json_type(value)}, not an object of named schemas; "
            "ask its author to fix it"
        )
    return dict(value)


def json_type(value: Any) -> str:
    """A value's JSON type, with its article (for error texts)."""
    kinds = (
        (bool, "a boolean"),
        ((int, float), "a number"),
        (str, "a string"),
        (list, "an array"),
        (dict, "an object"),
    )
    return next((name for kind, name in kinds if isinstance(value, kind)), "null")


def _check_finite(schema: Any, where: str) -> None:
    """No NaN or Infinity anywhere: JSON cannot carry them, so every model request would fail."""
    found = first_non_finite(schema)
    if found is not None:
        at = "/".join(str(key) for key in found[0])
        raise SchemaTranslationError(
            f"{where}: its schema has a non-finite number at {at or 'the root'} (NaN and Infinity "
            "are not JSON); ask its author to fix it"
        )


def _hoist_pointers(original: dict[str, Any], defs: dict[str, Any]) -> dict[str, str]:
    """Step 1 for references that are not `#/$defs/NAME`: copy each target into `defs`.

    Returns {the reference as written → the `#/$defs/...` reference replacing it}. A pointer
    that leads nowhere is left as it is (`_check_refs` then names it).
    """
    refs: dict[str, str] = {}
    places = _places(original)
    for ref in _all_refs(original):
        if ref in refs:
            continue
        pointer = ref if ref.startswith("#/") else _located(ref, places)
        if pointer is None or pointer == ref == "#":
            continue
        if pointer == "#" or _def_name(pointer, defs) is not None:
            if pointer != ref:  # an anchor or an `$id` naming the root, or one of its definitions
                refs[ref] = "#" if pointer == "#" else _DEFS_PREFIXES[0] + pointer.split("/", 2)[2]
            continue
        tokens = [_unescape(t) for t in pointer[2:].split("/")]
        target = _pointed(original, pointer)
        if target is not None:
            if isinstance(target, (dict, bool)):
                name = base = re.sub(r"[^A-Za-z0-9_.-]", "_", "_".join(tokens)) or "ref"
                n = 1
                while name in defs:
                    n += 1
                    name = f"{base}_{n}"
                defs[name] = copy.deepcopy(target)
                refs[ref] = "#/$defs/" + name
    return refs


def _pointed(root: Any, pointer: str) -> Any:
    """What the JSON Pointer reference `pointer` (`#/properties/a`) names in `root`; None when nothing."""
    target = root
    for token in (_unescape(t) for t in pointer[2:].split("/")) if pointer != "#" else ():
        if isinstance(target, dict) and token in target:
            target = target[token]
        elif isinstance(target, list) and token.isdigit() and int(token) < len(target):
            target = target[int(token)]
        else:
            return None
    return target


def _rebase(root: dict[str, Any]) -> None:
    """Each `$ref` below a subschema with an `$id` of its own, read against that `$id` (JSON Schema
    2020-12: it is the base URI of what it holds), rewritten in place as the JSON Pointer reference
    into the whole document it then names (`#/$defs/n` under `{"$id": "a.json", "$defs": {"n": …}}` is
    `#/properties/a/$defs/n`; `#` there is that subschema, not the root). A reference that names
    nothing read so, but something read against the root's base, is left as it is: read there, as
    a server author who did not mean the `$id` to change it expects (a validator finds nothing)."""
    places = _places(root)
    root_id = root.get("$id")
    root_base = root_id.split("#")[0] if isinstance(root_id, str) else ""
    if len(places) < 2:  # no `$id` below the root, no anchor: every base is the root's
        return

    def visit(node: Any, base: str) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item, base)
            return
        if not isinstance(node, dict):
            return
        if isinstance(node.get("$id"), str) and node is not root:
            base = _joined(base, node["$id"]).split("#")[0]
        ref = node.get("$ref")
        if isinstance(ref, str) and base != root_base:
            pointer = _located(_joined(base, ref), places)
            if pointer is not None and _pointed(root, pointer) is not None:
                node["$ref"] = pointer
        for key, value in node.items():
            if key in _NAMED_SCHEMAS and isinstance(value, dict):
                for sub in value.values():
                    visit(sub, base)
            elif key not in _DATA_KEYS:
                visit(value, base)

    visit(root, root_base)


def _places(root: dict[str, Any]) -> dict[str, str]:
    """Where each subschema named by an `$id` or an `$anchor` is: {its absolute URI, its anchor's
    as `URI#anchor` → a JSON Pointer reference to it (`#/$defs/Item`, `#` for the root)}. The
    root's own `$id` is the base the others are read against."""
    places: dict[str, str] = {}

    def visit(node: Any, base: str, pointer: str) -> None:
        if isinstance(node, list):
            for n, item in enumerate(node):
                visit(item, base, f"{pointer}/{n}")
            return
        if not isinstance(node, dict):
            return
        if isinstance(node.get("$id"), str):
            base = _joined(base, node["$id"]).split("#")[0]
            places.setdefault(base, pointer)
        if isinstance(node.get("$anchor"), str):
            places.setdefault(f"{base}#{node['$anchor']}", pointer)
        for key, value in node.items():
            if key in _NAMED_SCHEMAS and isinstance(value, dict):
                for name, sub in value.items():
                    visit(sub, base, f"{pointer}/{_escaped(key)}/{_escaped(name)}")
            elif key not in _DATA_KEYS:
                visit(value, base, f"{pointer}/{_escaped(key)}")

    root_id = root.get("$id")
    base = root_id.split("#")[0] if isinstance(root_id, str) else ""
    places[base] = "#"
    visit({k: v for k, v in root.items() if k != "$id"}, base, "#")
    return places


def _located(ref: str, places: dict[str, str]) -> str | None:
    """`ref` (an anchor `#name`, an `$id`, maybe with a pointer or an anchor after it) as a JSON
    Pointer reference into the same document (`_places`); None when it names nothing there."""
    root = next((uri for uri, where in places.items() if where == "#"), "")
    uri, _, fragment = _joined(root, ref).partition("#")
    if uri not in places:
        return None
    if not fragment:
        return places[uri]
    if fragment.startswith("/"):
        return places[uri] + fragment  # a pointer below the subschema the URI names
    return places.get(f"{uri}#{fragment}")


def _joined(base: str, ref: str) -> str:
    """`ref` read against the URI `base` (`#x` after it; a URI with a scheme as it is; a relative path
    beside it). `urljoin` drops the base of a `#x` when it is a URN."""
    if ref.startswith("#"):
        return base.split("#")[0] + ref
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", ref) or not base:
        return ref
    return urllib.parse.urljoin(base, ref)


def _escaped(token: str) -> str:
    """A name as a token of a JSON Pointer in a URI fragment (`_unescape` reads it back)."""
    return urllib.parse.quote(token.replace("~", "~0").replace("/", "~1"), safe="$~!*'()@,;:=+&")


def _all_refs(node: Any) -> list[str]:
    if isinstance(node, list):
        return [r for item in node for r in _all_refs(item)]
    if not isinstance(node, dict):
        return []
    found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
    return found + [r for sub in _subschemas(node) for r in _all_refs(sub)]


def _subschemas(node: dict[str, Any]) -> list[Any]:
    """What in `node` may hold schemas: each keyword's value but data (`enum`, `default`…); under
    a map of named schemas (`properties`, `$defs`), each schema, whatever its name (a parameter
    may be called `default`)."""
    found: list[Any] = []
    for key, value in node.items():
        if key in _NAMED_SCHEMAS and isinstance(value, dict):
            found += value.values()
        elif key not in _DATA_KEYS:
            found.append(value)
    return found


def _def_name(ref: str, defs: dict[str, Any]) -> str | None:
    """The definition a `#/$defs/NAME` or `#/definitions/NAME` reference names, if it exists."""
    for prefix in _DEFS_PREFIXES:
        if ref.startswith(prefix) and "/" not in ref[len(prefix) :]:
            name = _unescape(ref[len(prefix) :])
            return name if name in defs else None
    return None


def _walk(node: Any, where: str, refs: dict[str, str], is_property: bool = False) -> Any:
    """Steps 1–4 for one subschema and, recursively, its children."""
    if not isinstance(node, dict):
        return node  # `true` / `false` schemas
    node = _older_drafts(node)
    out = {key: _children(key, value, where, refs) for key, value in node.items() if key not in _DROPPED}
    if isinstance(out.get("items"), list):  # draft-07 tuple → 2020-12 prefixItems
        out["prefixItems"] = out.pop("items")
        if "additionalItems" in out:
            out["items"] = out.pop("additionalItems")
    if isinstance(out.get("$ref"), str):
        out["$ref"] = refs.get(out["$ref"]) or _ref(out["$ref"])
    if "type" not in out:
        out.update(_inferred_type(out))
    if is_property and not any(k in out for k in _TYPE_WORDS):
        out = {"type": "object", **out}  # an untyped property, as LangChain4j maps it
    if isinstance(out.get("type"), list):
        out = _type_array(out)
    return _with_items(out)


def _with_items(node: dict[str, Any]) -> dict[str, Any]:
    """Step 7: an array without `items` (or `prefixItems`) gets `items: {}`, any value, which is
    what leaving it out means; OpenAI refuses a tool whose array says nothing of its items."""
    if node.get("type") == "array" and "items" not in node and "prefixItems" not in node:
        return {**node, "items": {}}
    return node


def _older_drafts(node: dict[str, Any]) -> dict[str, Any]:
    """Step 4: draft-4 boolean exclusive bounds and draft-07 `dependencies`, in 2020-12 words."""
    node = dict(node)
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        if isinstance(node.get(exclusive), bool):
            if node.pop(exclusive) and bound in node:
                node[exclusive] = node.pop(bound)
    dependencies = node.pop("dependencies", None)
    if isinstance(dependencies, dict):
        for name, value in dependencies.items():
            key = "dependentRequired" if isinstance(value, list) else "dependentSchemas"
            node.setdefault(key, {}).setdefault(name, value)
    return node


def _children(key: str, value: Any, where: str, refs: dict[str, str]) -> Any:
    if key == "properties" and isinstance(value, dict):
        return {name: _walk(sub, where, refs, is_property=True) for name, sub in value.items()}
    if key in _SCHEMA_MAPS and isinstance(value, dict):
        return {name: _walk(sub, where, refs) for name, sub in value.items()}
    if key in _SCHEMA_LISTS and isinstance(value, list):
        return [_walk(sub, where, refs) for sub in value]
    if key == "items":
        return [_walk(s, where, refs) for s in value] if isinstance(value, list) else _walk(value, where, refs)
    if key in _SCHEMA_VALUES or key == "additionalProperties":
        return _walk(value, where, refs)
    return value


def _ref(ref: str) -> str:
    return "#/$defs/" + ref[len("#/definitions/") :] if ref.startswith("#/definitions/") else ref


def _inferred_type(node: dict[str, Any]) -> dict[str, Any]:
    """Step 2 below the root: infer from the keywords, or leave "any value" alone."""
    if "$ref" in node or any(k in node for k in (*_COMPOSITION, "enum", "const", "not")):
        return {}
    if any(k in node for k in _OBJECT_WORDS):
        return {"type": "object"}
    if "items" in node or "prefixItems" in node:
        return {"type": "array"}
    return {}


def _type_array(node: dict[str, Any]) -> dict[str, Any]:
    """Step 3: `null` dropped; `type: [a, b]` → `anyOf [{type: a}, {type: b}]` (one type: just that type)."""
    types = list(dict.fromkeys(node.pop("type")))
    types = [t for t in types if t != "null"] or types
    if len(types) == 1:
        return {"type": types[0], **node}
    branches = [_with_items({"type": t}) for t in types]  # `items` beside them still applies
    if "anyOf" in node:  # both: keep the meaning with allOf
        return {**node, "allOf": [*node.get("allOf", []), {"anyOf": branches}]}
    return {"anyOf": branches, **node}


def _resolved(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A subschema that refers to a root definition (`{"$ref": "#/$defs/Args"}`) with the body of
    `Args` in its place (the definition is kept in `$defs`), through a chain of such references;
    any other subschema as it is. For the root and its composition branches: their properties are
    what the model must see."""
    seen: set[str] = set()
    while isinstance(ref := node.get("$ref"), str) and ref.startswith(_DEFS_PREFIXES[0]):
        name = _unescape(ref[len(_DEFS_PREFIXES[0]) :])
        if name in seen or not isinstance(defs.get(name), dict):
            break
        seen.add(name)
        rest = {k: v for k, v in node.items() if k != "$ref"}
        node = {**copy.deepcopy(defs[name]), **rest}
    return node


def _flatten_root(root: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """Step 5: a plain object at the root; the alternatives it cannot keep go into its description.
    A branch that refers to a definition is read as that definition (a union of models)."""
    root.pop("not", None)
    if root.get("type") != "object":
        root.pop("type", None)
    for branch in [_resolved(b, defs) for b in root.pop("allOf", []) or [] if isinstance(b, dict)]:
        _borrow_properties(root, [branch])
        required = [*root.get("required", []), *branch.get("required", [])]
        if required:
            root["required"] = list(dict.fromkeys(required))
    notes = []
    for key, rule in (("oneOf", "exactly one of these forms"), ("anyOf", "at least one of these forms")):
        branches = [_resolved(b, defs) for b in root.pop(key, []) or [] if isinstance(b, dict)]
        if not branches:
            continue
        _borrow_properties(root, branches)
        everywhere = set.intersection(*(set(b.get("required", [])) for b in branches))
        required = [*root.get("required", []), *sorted(everywhere)]
        if required:
            root["required"] = list(dict.fromkeys(required))
        forms = "; ".join(f"{i}) {_form(b)}" for i, b in enumerate(branches, 1))
        notes.append(f"Arguments: {rule} ({key}): {forms}.")
    if notes:
        root["description"] = " ".join([root["description"], *notes] if root.get("description") else notes)
    return root


def _borrow_properties(root: dict[str, Any], branches: list[dict[str, Any]]) -> None:
    merged = dict(root.get("properties") or {})
    for branch in branches:
        for name, sub in (branch.get("properties") or {}).items():
            merged.setdefault(name, sub)
    if merged:
        root["properties"] = merged


def _form(branch: dict[str, Any]) -> str:
    """One alternative in words: its properties, the required ones marked."""
    required = [r for r in branch.get("required", []) if isinstance(r, str)]
    names = list(dict.fromkeys([*(branch.get("properties") or {}), *required]))
    words = [f"{n} (required)" if n in required else n for n in names]
    return ", ".join(words) or "any object"


def _check_refs(node: Any, names: set[str], where: str) -> None:
    """Every `$ref` left must point at the root (`#`) or at one of the root's `$defs`."""
    if isinstance(node, list):
        for item in node:
            _check_refs(item, names, where)
        return
    if not isinstance(node, dict):
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and ref != "#":
        if not ref.startswith(_DEFS_PREFIXES[0]) or _unescape(ref[len(_DEFS_PREFIXES[0]) :]) not in names:
            known = ", ".join(sorted(names)) or "none"
            raise SchemaTranslationError(
                f"{where}: its schema refers to {ref!r}, which is not one of its definitions "
                f"({known}); only '#', '#/$defs/NAME' and '#/definitions/NAME' can be sent on"
            )
    for sub in _subschemas(node):
        _check_refs(sub, names, where)


def _unescape(token: str) -> str:
    """A JSON Pointer token of a URI fragment back to the name: percent-decoded first (`%20` is a
    space, RFC 6901 section 6), then `~1` is `/` and `~0` is `~`."""
    return urllib.parse.unquote(token).replace("~1", "/").replace("~0", "~")


# -- the model's arguments, checked against a tool's inputSchema ---------------------------------

CHECKED_BY_SERVER = "toolkit-course/argumentsChecked"
"""The `_meta` key by which a server says it checks a tool's arguments itself (true), in words
for the model: the client then leaves them to it (`toolkit.mcp.server` sets it)."""
_TYPES: dict[str, type] = {"integer": int, "number": float, "string": str, "boolean": bool}
"""JSON Schema types whose value toolkit's own coercion may accept in another form (`"27"`)."""
_LIMITS = {
    "minimum": "a number >= {}",
    "exclusiveMinimum": "a number > {}",
    "maximum": "a number <= {}",
    "exclusiveMaximum": "a number < {}",
    "minLength": "a string of at least {} characters",
    "maxLength": "a string of at most {} characters",
    "minItems": "at least {} items",
    "maxItems": "at most {} items",
    "minProperties": "an object of at least {} fields",
    "maxProperties": "an object of at most {} fields",
    "multipleOf": "a multiple of {}",
}
"""A keyword that bounds a value, as the phrase of what is valid (toolkit's own words for its bounds)."""


def checked_arguments(
    schema: Mapping[str, Any], arguments: dict[str, Any]
) -> tuple[dict[str, Any], list[ArgumentProblem]]:
    """The arguments to send (without the `null`s that mean "use the default") and what is wrong
    with them for a tool whose `inputSchema` is `schema` ([] when nothing is, or when the schema
    cannot be read)."""
    errors = _errors(schema, arguments)
    if errors is None:
        return arguments, []
    defaulted = _defaulted(schema, arguments, errors)
    if defaulted:
        arguments = {key: value for key, value in arguments.items() if key not in defaulted}
        errors = _errors(schema, arguments) or []
    try:
        defs = _named_schemas(schema)
        problems = [problem for error in errors for problem in _problems(error, defs, schema)]
    except Exception:  # a schema read in a way this module did not foresee: the server checks
        return arguments, []
    return arguments, sorted(dict.fromkeys(problems), key=_placing(schema, arguments))  # one line per problem


def _defaulted(schema: Mapping[str, Any], arguments: dict[str, Any], errors: list[Any]) -> set[str]:
    """The fields sent as `null` that are not required and whose schema refuses `null` (as `null`
    for a local tool's optional parameter, it means "use the default")."""
    required = schema.get("required")
    needed = set(required) if isinstance(required, list) else set()
    top = {error.absolute_path[0] for error in errors if len(error.absolute_path) == 1}
    return {key for key in top if isinstance(key, str) and arguments.get(key, 0) is None and key not in needed}


def _placing(schema: Mapping[str, Any], arguments: dict[str, Any]) -> Callable[[ArgumentProblem], tuple[bool, int]]:
    """The order of the problems, as toolkit's own: unknown fields first, then parameter by
    parameter (the schema's order; a field it does not name, in the order sent)."""
    properties = schema.get("properties")
    place = {name: n for n, name in enumerate(properties if isinstance(properties, Mapping) else ())}
    for name in arguments:
        place.setdefault(name, len(place))

    def key(problem: ArgumentProblem) -> tuple[bool, int]:
        top = re.split(r"[.\[]", problem.field, maxsplit=1)[0]
        return problem.kind != "unknown", place.get(top, len(place))

    return key


def _errors(schema: Mapping[str, Any], arguments: dict[str, Any]) -> list[Any] | None:
    """`jsonschema`'s errors for `arguments`; None when it cannot read the schema (a `$ref` it
    cannot resolve, a keyword of the wrong kind), or when a key of them could not be searched
    quickly with a pattern of its `patternProperties` (`_unsearchable`): the server checks."""
    try:
        if _unsearchable(schema, arguments):
            return None
        return list(_validator(_without_false(schema)).iter_errors(arguments))
    except Exception:
        return None


def _unsearchable(schema: Mapping[str, Any], arguments: dict[str, Any]) -> bool:
    """Whether a key of `arguments` (at any depth) is longer than a `patternProperties` pattern of
    `schema` may be searched in quickly (`search_limit`: 0 for `^(a+)+$`, whose search in 30 'a's
    and a '!' takes minutes). jsonschema searches every key with every such pattern, for
    `patternProperties` and for the `additionalProperties` or `unevaluatedProperties` beside it;
    a schema without one costs a walk of the schema."""
    patterns = [pattern for pattern in _key_patterns(schema) if isinstance(pattern, str)]
    if not patterns:
        return False
    keys = _keys(arguments)
    return any(len(key) > search_limit(pattern) for pattern in patterns for key in keys)


def _key_patterns(schema: Any) -> list[Any]:
    """The keys of every `patternProperties` mapping in `schema` (walked without recursion)."""
    found: list[Any] = []
    stack, seen = [schema], 0
    while stack and seen < _MOST_NODES:
        node, seen = stack.pop(), seen + 1
        if isinstance(node, Mapping):
            if isinstance(named := node.get("patternProperties"), Mapping):
                found += named
            stack += (value for key, value in node.items() if key not in _VALUES or not isinstance(value, list))
        elif isinstance(node, list):
            stack += node
    return found if seen < _MOST_NODES else found + [_UNREAD]


_VALUES = frozenset({"enum", "const", "default", "examples"})
"""Keywords whose list is values, not schemas: an `enum` of 10,000 items is not walked (a mapping under
one of these names is walked: it may be a property so named, whose schema holds patterns)."""


def _keys(value: Any) -> set[str]:
    """Every key of `value`'s objects, at any depth (walked without recursion)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            found.update(key for key in node if isinstance(key, str))
            stack += node.values()
        elif isinstance(node, list):
            stack += node
    return found


_MOST_NODES = 100_000
"""Schema nodes `_key_patterns` walks at most; past it a pattern it did not read may be there (`_UNREAD`)."""
_UNREAD = "(?!)"
"""A pattern `search_limit` reads as 0 (a lookaround): a schema too large to walk is left to the server."""


_NOTHING: dict[str, Any] = {"not": {}}
"""A `false` subschema (no value is valid) as jsonschema reports with its field: it reports `false`
under `properties` without the field's name, and without a keyword."""
_FALSE_WHERE = ("not", "if", "then", "else", "contains", "propertyNames")
"""Keywords whose `false` is checked as a schema (`items`, `additionalProperties`… have words of their own)."""


def _without_false(node: Any) -> Any:
    """`node` with each `false` that stands for a schema under `properties`, `$defs`, a union's
    branches or `_FALSE_WHERE` written as `_NOTHING`, which means the same."""
    if node is False:
        return dict(_NOTHING)
    if not isinstance(node, Mapping):
        return node
    copied = dict(node)
    for key, value in node.items():
        if key in _NAMED_SCHEMAS and isinstance(value, Mapping):
            copied[key] = {name: _without_false(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            copied[key] = [_without_false(sub) for sub in value]
        elif key in _FALSE_WHERE or (key == "items" and isinstance(value, Mapping)):
            copied[key] = _without_false(value)
    return copied


def _validator(schema: Mapping[str, Any]) -> Any:
    lazy_iri.defer()
    from jsonschema import validators  # here, not at import: it costs seconds

    cls = validators.validator_for(schema, default=_lenient(validators.validator_for({})))
    return _lenient(cls)(schema)


@functools.cache
def _lenient(cls: Any) -> Any:
    """`cls` without `pattern`: a pattern the server checks (one of catastrophic backtracking would
    take hours on a long string here); `uniqueItems` checked in linear time (`unique_items`:
    jsonschema compares objects each with each, and 2,000 of them took 21 s); `enum` with a set of its
    values (`one_of_enum`)."""
    from jsonschema import validators

    def nothing(*_: Any) -> Iterator[Any]:
        return iter(())

    checker = cls.TYPE_CHECKER.redefine("integer", _integer)
    keywords = {"pattern": nothing, "uniqueItems": unique_items, "enum": one_of_enum()}
    return validators.extend(cls, keywords, type_checker=checker)


def _integer(_checker: Any, value: Any) -> bool:
    """JSON Schema's integer (a whole float too, `27.0`), read as the model wrote it: `1e-400`, whose
    float is 0.0, is none (`json_repair.Written`), `1e23` is one."""
    if type(value) is json_repair.Written:
        number = decimal.Decimal(value.text)
        return math.isfinite(value) and number == number.to_integral_value()
    return isinstance(value, int) and not isinstance(value, bool) or isinstance(value, float) and value.is_integer()


def _named_schemas(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The root's named schemas, for `describe` to follow a `$ref` (draft-07's and 2020-12's)."""
    found: dict[str, Any] = {}
    for key in ("definitions", "$defs"):
        if isinstance(schema.get(key), Mapping):
            found.update(schema[key])
    return found


def _problems(error: Any, defs: dict[str, Any], root: Mapping[str, Any]) -> list[ArgumentProblem]:
    """The problems one `jsonschema` error stands for (a `required` error: one per missing field)."""
    path = _path(error.absolute_path)
    keyword, value, sub = error.validator, error.instance, error.schema
    if keyword == "required" and isinstance(value, Mapping):
        return [_missing(error, name, "", defs, root) for name in error.validator_value if name not in value]
    if keyword in ("dependentRequired", "dependencies") and isinstance(value, Mapping) and (needs := _needs(error)):
        return [_missing(error, name, f" (needed when {given} is given)", defs, root) for given, name in needs]
    if keyword in ("additionalProperties", "unevaluatedProperties") and isinstance(value, Mapping):
        known = list(sub.get("properties", {})) if isinstance(sub.get("properties"), Mapping) else []
        return [
            ArgumentProblem(_join(path, key), _short(value[key]), ", ".join(known), kind="unknown")
            for key in _unknown(value, sub)
        ]
    if _taken(error):
        return []  # toolkit's own coercion takes it ("27" for an integer), and so does a pydantic server
    if keyword in ("anyOf", "oneOf") and isinstance(value, Mapping) and error.context:
        return [problem for inner in _nearest(error, value, defs) for problem in _problems(inner, defs, root)]
    if keyword in _LIMITS:
        exclusive = sub.get(f"exclusive{keyword.title()}") is True  # draft-4: minimum 0 + exclusiveMinimum true
        expected = one_unit(_LIMITS[f"exclusive{keyword.title()}" if exclusive else keyword].format(_number(error)))
    elif keyword in ("type", "enum", "const", "anyOf", "oneOf"):
        expected = _words(sub, defs)
    elif keyword == "not" and error.validator_value == {}:  # `false`, or `not: {}`: nothing is valid here
        expected = "no value (its schema takes none)"
    else:
        expected = f"a value its schema allows ({keyword}: {_short(error.validator_value)})"
    return [ArgumentProblem(path or "arguments", _short(value), expected)]


def _missing(error: Any, name: str, why: str, defs: dict[str, Any], root: Mapping[str, Any]) -> ArgumentProblem:
    """The field `name` of the object `error` is about, missing: what it takes (`_property`), and `why`."""
    schema = _property(error, name, defs, root)
    return ArgumentProblem(_join(_path(error.absolute_path), name), "", _words(schema, defs) + why, kind="missing")


def _needs(error: Any) -> list[tuple[str, str]]:
    """The (field sent, field it needs and was not sent) of a `dependentRequired` error (draft-07's
    `dependencies` with a list): jsonschema gives one error per pair, each holding them all."""
    value, needs = error.instance, error.validator_value
    if not isinstance(needs, Mapping):
        return []
    return [
        (given, name)
        for given, names in needs.items()
        if given in value and isinstance(names, list)
        for name in names
        if isinstance(name, str) and name not in value
    ]


def _property(error: Any, name: str, defs: dict[str, Any], root: Mapping[str, Any]) -> Any:
    """The schema of the field `name` a `required` error is about: in its schema's `properties`;
    in a branch of a union that does not name it there, in the union's schema's; for a keyword
    that lists fields only (`allOf: [{required}]`, `then`, `dependentRequired`), in the `properties`
    of the object's schema (found from the root along the error's path)."""
    instance, around = error.instance, error
    while error is not None and error.instance is instance:  # a union around the same object
        properties = error.schema.get("properties") if isinstance(error.schema, Mapping) else None
        if isinstance(properties, Mapping) and name in properties:
            return properties[name]
        error = error.parent
    properties = _at(root, list(around.absolute_path), defs).get("properties")
    return properties.get(name, {}) if isinstance(properties, Mapping) else {}


def _at(root: Mapping[str, Any], parts: list[Any], defs: dict[str, Any]) -> Mapping[str, Any]:
    """The schema of the value at `parts` (field names and item indexes), followed from `root`
    through `properties`, `items` and `#/$defs/NAME` references; {} where it cannot be followed."""
    node: Any = root
    for part in [*parts, None]:
        for _ in range(len(defs) + 1):  # a chain of references, not a loop of them
            if not (isinstance(node, Mapping) and isinstance(node.get("$ref"), str)):
                break
            node = defs.get(node["$ref"].rsplit("/", 1)[-1])
        if part is None or not isinstance(node, Mapping):
            break
        node = (node.get("properties") or {}).get(part) if isinstance(part, str) else node.get("items")
    return node if isinstance(node, Mapping) else {}


def _taken(error: Any) -> bool:
    """Whether toolkit's own coercion reads the value as the type the error wants (one branch of a
    union's, every error of that branch being such)."""
    if error.validator == "type":
        return _coercible(error.instance, error.validator_value)
    if error.validator not in ("anyOf", "oneOf"):
        return False
    return any(all(_taken(inner) for inner in errors) for errors in _branches(error).values())


def _branches(error: Any) -> dict[Any, list[Any]]:
    """A union's errors, by the branch they are of (in the branches' order)."""
    branches: dict[Any, list[Any]] = {}
    for inner in error.context or ():
        branches.setdefault(inner.schema_path[0] if inner.schema_path else None, []).append(inner)
    return branches


def _nearest(error: Any, value: Mapping[str, Any], defs: dict[str, Any]) -> list[Any]:
    """The errors of the branch of a union the model meant for the object it sent: the one naming
    most of the fields it sent (in `properties` or `required`, through a `$ref`), then one for an
    object (not a string), then the one with fewest errors (then the first). Fewest errors alone
    chose a branch of one missing field over the one whose fields were all sent, each of the wrong
    type, and a string's branch over the object's."""
    branches = _branches(error)
    schemas = error.validator_value if isinstance(error.validator_value, list) else []

    def named(index: Any) -> int:
        branch = schemas[index] if isinstance(index, int) and index < len(schemas) else {}
        if isinstance(branch, Mapping) and isinstance(branch.get("$ref"), str):
            branch = defs.get(branch["$ref"].rsplit("/", 1)[-1], {})
        if not isinstance(branch, Mapping):
            return 0
        names = set(branch.get("properties") or ()) | set(branch.get("required") or ())
        return sum(1 for key in value if key in names)

    def other_type(index: Any) -> bool:  # the branch is for another type than the value's
        return any(inner.validator == "type" and not inner.relative_path for inner in branches[index])

    return branches[min(branches, key=lambda index: (-named(index), other_type(index), len(branches[index])))]


def _number(error: Any) -> str:
    """The bound an error's keyword gives, as JSON writes it (draft-4's exclusive bound is the `minimum`'s)."""
    return json_text(error.validator_value) if type(error.validator_value) is not float else str(error.validator_value)


def _unknown(value: Mapping[str, Any], schema: Mapping[str, Any]) -> list[str]:
    """The fields of `value` that neither `properties` nor `patternProperties` name."""
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    named = properties if isinstance(properties, Mapping) else {}
    pattern_list = list(patterns) if isinstance(patterns, Mapping) else []
    return [key for key in value if key not in named and not any(_matches(p, key) for p in pattern_list)]


def _matches(pattern: str, key: str) -> bool:
    if len(key) > search_limit(pattern):  # not searched quickly (`_unsearchable`): the key may be one it names
        return True
    try:
        return re.search(pattern, key) is not None
    except re.error:
        return True  # a pattern Python cannot read: the key may be one it names


def _coercible(value: Any, kinds: Any) -> bool:
    """Whether toolkit's own coercion reads `value` as one of the JSON types `kinds`."""
    for kind in kinds if isinstance(kinds, list) else [kinds]:
        if isinstance(kind, str) and kind in _TYPES and not isinstance(value, bool | type(None)):
            try:
                validator_for(_TYPES[kind]).validate_python(value)
            except ValidationError:
                continue
            return True
    return False


def _words(schema: Any, defs: dict[str, Any]) -> str:
    """A schema in words (`toolkit.tools.arguments.describe`), a type array and `oneOf` read too; an
    untyped one of `properties` (or `items`) is the object (array) its translation tells the model."""
    if not isinstance(schema, Mapping):
        return "any value"
    if "oneOf" in schema and "anyOf" not in schema:
        schema = {**schema, "anyOf": schema["oneOf"]}
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(dict.fromkeys(_words({**schema, "type": one}, defs) for one in kind))
    if "anyOf" in schema and isinstance(schema["anyOf"], list):
        return " or ".join(dict.fromkeys(_words(branch, defs) for branch in schema["anyOf"]))
    if isinstance(schema.get("$ref"), str):
        return _words(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), defs)
    return describe({**_inferred_type(dict(schema)), **schema}, defs)  # untyped with properties: as the model was told


def _path(parts: Any) -> str:
    """`items[2].name`, as toolkit's own argument errors write a field's path."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _short(value: Any) -> str:
    """What the model sent, as JSON, cut as toolkit's own argument errors cut it."""
    try:
        text = value.text if type(value) is json_repair.Written else json_text(value)  # as written: `1e-400`
    except (TypeError, ValueError):
        text = repr(value)
    return cut(text, 60, "...")
