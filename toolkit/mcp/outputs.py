"""The SDK's check of a tool's answer against the `outputSchema` it listed, with bounded searches.

The `mcp` SDK checks every `structuredContent` against the tool's listed `outputSchema` with
`jsonschema`, on the connection's event loop, and `jsonschema` searches a `pattern` with `re`,
which holds the GIL while it backtracks. A stranger's schema with a pattern of catastrophic
backtracking (`^(a+)+$`) and an answer of forty `a`s and a `!` held the whole process for
hours: the call's deadline could not even fire. `guard(session)` has the session build its
validators from its own validator class extended so that a regular expression is searched only
within the pattern's `search_limit` (`toolkit.gateway.patterned`, as the gateway's schema filler
searches) and, in one answer, at most `SEARCHES` searches at that limit in all. A search past
either gives no verdict: the value passes that one check, and the `toolkit.mcp` logger says so,
once per tool and pattern (100 lines a session at most); reading a pattern the session has not
read counts too (`_READ`: a schema may hold thousands). `patternProperties`, and `additionalProperties` /
`unevaluatedProperties`, which search an object's keys with the key patterns anywhere in the
schema, give no verdict for an object whose keys cannot all be searched so. `uniqueItems` is
checked in time linear in the array (`unique_items`; `jsonschema` compares objects each with each:
2,000 of them took 16 s), and `enum` with a set of its values (`one_of_enum`); both check the
model's arguments too (`toolkit.mcp.schema`). `matcher` checks a value so for `toolkit.mcp.server`,
which serves another server's tools again with their schema.

Every validator is made with an empty `referencing.Registry` of its own, as the SDK makes its: a
`$ref` resolves within the schema and the bundled metaschemas, never by fetching a URL (`jsonschema`'s
default fetches `http://…` refs with `urllib` and no timeout: a stranger's `outputSchema` served again
by `matcher` had the server fetch what it named, and wait on it for ever).

Leaves out: `format` (the SDK checks none), everything else the SDK checks as it did (the schema
checked first: one that is not valid JSON Schema is still refused). The SDK offers no public way to
check answers otherwise: `_hook` is the one place that reads and replaces its private
`ClientSession._output_schema_validator(name, output_schema)` (the builder `validate_tool_result`
calls); `sdk_shape_problem` says, in one line, how an SDK differs from that shape, and a session of
such an SDK checks as the SDK does, unbounded, the `toolkit.mcp` logger saying so once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from toolkit import lazy_iri
from toolkit.gateway.judge import json_key
from toolkit.gateway.patterned import compiled, search_limit
from toolkit.unicode import cut

SEARCHES = 50.0
"""The searches of one answer, counted at their pattern's `search_limit` (about 10 ms each at most;
a shorter text counts for its share of it), past which a pattern gives no verdict."""
_EACH = 1e-4
"""What any one search counts for at least (a short text in a simple pattern: a microsecond)."""
_READ = 0.05
"""What reading a pattern the session has not read counts for (`search_limit`: up to a millisecond)."""
_LIMITS = 4096
"""The patterns whose `search_limit` a session keeps at most."""
_TOLD = 100
"""The log lines a session writes at most (one per tool and pattern)."""

log = logging.getLogger("toolkit.mcp")


class _Budget:
    """What one session's checks may still search in the answer being checked, and what it told."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.left = SEARCHES
        self.tool = ""
        self.key_patterns: list[str] = []
        self.told: set[tuple[str, str]] = set()
        self.limits: dict[str, int] = {}

    def spend(self, pattern: str, length: int) -> bool:
        """Whether a text of `length` characters may be searched with `pattern` (and count it)."""
        limit = self.limits.get(pattern)
        if limit is None and self.left >= _READ:  # reading a pattern costs too: a schema may hold thousands
            self.left -= _READ
            if len(self.limits) >= _LIMITS:
                self.limits.clear()
            limit = self.limits[pattern] = search_limit(pattern) if compiled(pattern) is not None else 0
        cost = _EACH + (length / limit if limit else 0.0)
        if limit and length <= limit and cost <= self.left:
            self.left -= cost
            return True
        if (self.tool, pattern) not in self.told and len(self.told) < _TOLD:
            self.told.add((self.tool, pattern))
            shared = limit is None or (limit and length <= limit)
            why = "this answer's searches had taken their share" if shared else "it could take hours"
            log.warning(
                "MCP tool %r of server %r: its outputSchema's pattern %r was not searched in a text of %d characters "
                "(%s); the text passed that check",
                self.tool,
                self.server,
                cut(pattern, 60, "..."),
                length,
                why,
            )
        return False

    def keys_searchable(self, instance: Mapping[str, Any]) -> bool:
        """Whether every key of `instance` may be searched with every key pattern of the schema."""
        return all(self.spend(pattern, len(key)) for key in instance for pattern in self.key_patterns)


def guard(session: Any, server: str) -> None:
    """Have `session` (an `mcp.ClientSession` of the server named `server`) check answers with bounded
    searches (see the module)."""
    lazy_iri.defer()  # before the SDK imports jsonschema to check an answer
    budget, classes = _Budget(server), {}
    made: dict[str, tuple[Any, Any, list[str]]] = {}  # a tool's name: its schema, validator, key patterns

    def bounded(build: Callable[[str, dict[str, Any]], Any]) -> Callable[[str, dict[str, Any]], Any]:
        def validator(name: str, output_schema: dict[str, Any]) -> Any:
            budget.left, budget.tool = SEARCHES, name  # one answer's check follows at once, on this loop
            kept = made.get(name)
            if kept is None or (kept[0] is not output_schema and kept[0] != output_schema):  # listed anew
                checked = build(name, output_schema)  # the SDK's: checks the schema (RuntimeError), compiles it
                kind = type(checked)
                if kind not in classes:
                    classes[kind] = _bounded(kind, budget)
                if len(made) >= _VALIDATORS:
                    made.clear()
                validator = classes[kind](output_schema, registry=_registry())
                kept = made[name] = (output_schema, validator, _key_patterns(output_schema))
            budget.key_patterns = kept[2]
            return kept[1]

        return validator

    _hook(session, bounded)


def sdk_shape_problem(session_class: Any) -> str | None:
    """None while `session_class` (the SDK's `ClientSession`) builds its output validators where `_hook`
    replaces the builder, else one line saying what differs."""
    build = getattr(session_class, _BUILDER, None)
    check = getattr(getattr(session_class, "validate_tool_result", None), "__code__", None)
    names = getattr(getattr(build, "__code__", None), "co_varnames", ())[:3]
    if names != ("self", "name", "output_schema"):
        return f"{_BUILDER}(self, name, output_schema) is gone (found {names or build!r})"
    if check is None or _BUILDER not in check.co_names:
        return f"validate_tool_result no longer calls {_BUILDER}"
    return None


_BUILDER = "_output_schema_validator"
"""The SDK's private `ClientSession` method that builds (and caches) a tool's output validator."""


def _hook(session: Any, bounded: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """Replace `session`'s builder of output validators with `bounded(the SDK's builder)`: the one place
    reading the SDK's private state. A session of an SDK shaped otherwise is left as it is (logged once)."""
    problem = sdk_shape_problem(type(session))
    if problem is not None:
        if not _SHAPE_TOLD:
            _SHAPE_TOLD.append(problem)
            log.warning("MCP outputSchema patterns are searched unbounded: this mcp SDK's ClientSession %s", problem)
        return
    setattr(session, _BUILDER, bounded(getattr(session, _BUILDER)))


_SHAPE_TOLD: list[str] = []
"""The SDK shape problem the log told (once a process)."""
_VALIDATORS = 4096
"""The tools whose bounded validators one session keeps at most."""


def _registry() -> Any:
    """An empty `referencing.Registry`: `$ref`s resolve within the schema, none is fetched (see the module)."""
    from referencing import Registry

    return Registry()


def matcher(output_schema: dict[str, Any], tool: str, server: str) -> Callable[[Any], bool]:
    """Whether a value matches `output_schema` (tool `tool`'s, served by `server`), searched as the
    session's checks search (the validator made once; a schema that cannot be read matches nothing,
    nor does a value the check raises on: a `$ref` that does not resolve)."""
    lazy_iri.defer()
    from jsonschema import validators  # here, not at import: it costs seconds

    budget = _Budget(server)
    budget.tool, budget.key_patterns = tool, _key_patterns(output_schema)
    try:
        cls = validators.validator_for(output_schema)
        cls.check_schema(output_schema)
        validator = _bounded(cls, budget)(output_schema, registry=_registry())
    except Exception:
        return lambda value: False

    def matches(value: Any) -> bool:
        budget.left = SEARCHES
        try:
            return value is not None and bool(validator.is_valid(value))
        except Exception:
            return False

    return matches


def _bounded(cls: Any, budget: _Budget) -> Any:
    """`cls` (a `jsonschema` validator class) with its regular expressions searched within `budget`."""
    from jsonschema import validators
    from jsonschema.exceptions import ValidationError

    def pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not isinstance(instance, str) or not isinstance(pattern, str) or not budget.spend(pattern, len(instance)):
            return
        checker = compiled(pattern)
        if checker is not None and not checker.search(instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")

    def keyed(original: Callable[..., Any]) -> Callable[..., Iterator[Any]]:
        def check(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
            if isinstance(instance, Mapping) and not budget.keys_searchable(instance):
                return
            yield from original(validator, value, instance, schema)

        return check

    changed: dict[str, Any] = {"pattern": pattern, "uniqueItems": unique_items, "enum": one_of_enum()}
    for keyword in ("patternProperties", "additionalProperties", "unevaluatedProperties"):
        if keyword in cls.VALIDATORS:
            changed[keyword] = keyed(cls.VALIDATORS[keyword])
    return validators.extend(cls, changed)


def unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """`uniqueItems` in time linear in the array (`jsonschema` compares items that cannot be sorted, objects
    or mixed types, each with each: 2,000 objects took 16 s, 100,000 would take hours), worded as it words
    it, the array cut and the item found twice named."""
    from jsonschema.exceptions import ValidationError

    if unique is not True or not isinstance(instance, list):
        return
    seen: dict[Any, int] = {}
    for index, item in enumerate(instance):
        first = seen.setdefault(json_key(item), index)
        if first != index:
            twice = f"{cut(repr(item), 60, '...')} at {first} and {index}"
            yield ValidationError(f"{cut(repr(instance), 60, '...')} has non-unique elements ({twice})")
            return


def one_of_enum() -> Callable[[Any, Any, Any, Any], Iterator[Any]]:
    """`enum` checked against a set of the listed values' `json_key`s, made once per list (`jsonschema`
    compares the value with each listed one: 100,000 values of an array under an `enum` of 10,000
    took as many as ten hundred million comparisons); its words `jsonschema`'s, the list shown up to
    `_SHOWN` values."""
    from jsonschema.exceptions import ValidationError

    made: dict[int, tuple[Any, frozenset[Any]]] = {}

    def enum(validator: Any, enums: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not isinstance(enums, list):
            return
        kept = made.get(id(enums))
        if kept is None or kept[0] is not enums:
            if len(made) >= _SETS:
                made.clear()
            kept = made[id(enums)] = (enums, frozenset(json_key(each) for each in enums))
        if json_key(instance) not in kept[1]:
            shown = repr(enums) if len(enums) <= _SHOWN else f"{repr(enums[:_SHOWN])[:-1]}, ... ({len(enums)} in all)]"
            yield ValidationError(f"{cut(repr(instance), 200, '...')} is not one of {shown}")

    return enum


_SHOWN = 5
"""The values of an `enum` an error lists at most."""
_SETS = 256
"""The `enum` lists whose sets one `one_of_enum` keeps at most (each list kept with its set)."""


def _key_patterns(schema: Any) -> list[str]:
    """The `patternProperties` patterns anywhere in `schema`, each once."""
    found: dict[str, None] = {}
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, Mapping):
            keyed = node.get("patternProperties")
            if isinstance(keyed, Mapping):
                found.update(dict.fromkeys(key for key in keyed if isinstance(key, str)))
            stack.extend(node.values())
    return list(found)
