"""A request's `tools`, read once per distinct list, as a server reads a schema once.

An application sends the same tool list with every request: every round of the tool loop,
every conversation. What the gateway learns from the list alone is the same each time, so
`prepare(tools)` reads it once and keeps a `ToolSet`: the list's compact JSON, the hash state
after it (`toolkit.gateway.digest`) and its prompt tokens, what `check_request` says about it
(its first problem, if any), the offered tools by name, the tools no shop rule names, and what
the generic picker needs to score them (names and descriptions lower-cased, `enum` values).

`ToolSet.pick(text, context, rules)` is `toolkit.gateway.generic.pick` over the prepared tools:
the same answer for every text (a test holds them equal). It differs only in how it finds the
hits: a term found in none of the lower-cased names (descriptions) joined together is in none
of them, so only the terms found in the joined text are looked for tool by tool (and the same
for the `enum` values with their windows). A list whose tools the shop's rules all name has
nothing to pick from, and the text is not read at all.

The key is the list's compact JSON, so two lists are the same only when every byte is. The
lists are values parsed from JSON (as `respond` gets them); a Python caller's tuple is read as
the JSON array it writes. Only a list without problems is kept (a bad one is answered with a
400 each time anyway), so no caller can make a good list look bad. A list is kept from its
second sighting on: one sent once (a client that sends a tool search's finds, a new choice of tools,
with every request) is read, used and dropped with its request. Kept at once, a stream of new lists
filled the store with parsed lists that lived just long enough to reach the garbage collector's
oldest generation, whose full collections then walked them all (100 new tools a request: 1,600 µs
in process, 650 without; `_met_before` remembers only a hash of each list met once, at most
`MAX_SEEN` of them). The store is bounded (at most `MAX_ENTRIES` lists, `MAX_BYTES` of JSON in all;
the oldest goes first; a list larger than `MAX_LIST_BYTES` is read but not kept), so a stream of
ever new lists costs one lookup each and never grows memory. Nothing keyed by the rest of the
request (the conversation, the user's text) is kept.

Leaves out: sharing prepared lists between processes; telling apart two lists that differ only
in key order (they are two lists).
"""

from __future__ import annotations

import threading
from typing import Any

import orjson

from toolkit.gateway.digest import tools_state
from toolkit.gateway.generic import (
    ToolInfo,
    broken_tie,
    by_object,
    capitalised,
    first_enum_groups,
    last_terms,
    name_parts,
    object_hits,
    own_terms,
    pick_terms,
    placed_out,
    synonym_terms,
    term_keys,
    tool_finder,
    windows,
    worded,
)
from toolkit.gateway.rules import Rules
from toolkit.gateway.validate import RequestError, check_tools
from toolkit.gateway.wire import dumps
from toolkit.tokens import estimate_tokens

MAX_ENTRIES = 256
MAX_BYTES = 8 << 20
MAX_LIST_BYTES = 256 << 10
MAX_SEEN = 4096
"""How many lists met once (not yet kept) are remembered, by a hash each (`_met_before`)."""
_CONTEXTS = 8
"""How many system texts a tool set keeps the `enum` windows of."""


class ToolSet:
    """One distinct tool list, read: see the module docstring."""

    __slots__ = (
        "compact",
        "digest_state",
        "spliceable",
        "_tokens",
        "problem",
        "offered",
        "_enums",
        "_ruled",
        "_pickable",
        "_windows",
        "_finder",
        "_lock",
        "strict",
    )

    compact: bytes
    """The list's compact JSON (`dumps` of it)."""
    digest_state: Any
    """The hash state after the list: where `toolkit.gateway.digest` goes on from."""
    spliceable: bool
    """Whether `compact` is what orjson writes for the list inside a request (one level down)."""

    def __init__(self, compact: bytes, tools: Any, spliceable: bool = False) -> None:
        self.compact = compact
        self.digest_state = tools_state(compact)
        self.spliceable = spliceable
        self._tokens: int | None = None
        """`estimate_tokens` of the list's compact JSON, counted when first asked for (`tokens`)."""
        self.problem: tuple[str, str | None, str | None] | None = None
        """`check_tools`' first problem with the list (message, param, code), or None."""
        self.offered: dict[str, ToolInfo] = {}
        """Tool name → description and parameter schema (empty when the list has a problem)."""
        try:
            check_tools(tools, compact)
        except RequestError as exc:
            self.problem = (exc.message, exc.param, exc.code)
        except RecursionError:  # a check met a value deeper than Python's recursion: `core.TOO_DEEP`'s words
            self.problem = ("The request body is nested too deeply.", None, "invalid_value")
        else:
            self.offered = offered(tools)
        self._enums: dict[str, list[list[str]]] | None = None
        """`first_enum_groups(offered)`, made when the picker first needs it (`enums`)."""
        self._ruled: frozenset[str] | None = None
        self._pickable: tuple[list[_Pickable], str, str] = ([], "", "")
        self._windows: dict[str, tuple[dict[str, list[tuple[str, str]]], str]] = {}
        self._finder: tuple[Rules, str | None] | None = None
        """The rules last asked with and `generic.tool_finder`'s answer for them (`tool_finder`)."""
        self._lock = threading.Lock()
        self.strict: frozenset[str] = frozenset()
        """The names of the list's strict tools (`"strict": true`), found once per list (none when
        its compact JSON does not hold `"strict":true`)."""
        if b'"strict":true' in compact and self.problem is None:
            self.strict = frozenset(t["function"]["name"] for t in tools if t["function"].get("strict") is True)

    def raise_problem(self) -> None:
        """Raise the list's problem as a fresh `RequestError` (no-op when it has none)."""
        if self.problem is not None:
            message, param, code = self.problem
            raise RequestError(message, param=param, code=code)

    def pick(
        self, text: str, context: str, rules: Rules, among: set[str] | None = None, least: int | None = None
    ) -> str | None:
        """`generic.pick(text, unruled tools, context, rules, least)`, only among `among` if given."""
        return self.picks(text, context, rules, among, least)[0]

    def picks(
        self,
        text: str,
        context: str,
        rules: Rules,
        among: set[str] | None = None,
        least: int | None = None,
        also: int = 0,
    ) -> tuple[str | None, int]:
        """`generic.picks(text, unruled tools, context, rules, least, also)`, only among `among` if given."""
        tools, names, descriptions = self._prepared(rules)
        if among is not None:
            tools = [p for p in tools if p.name in among]
            names, descriptions = _joined(tools)
        if not tools:  # nothing to pick from (the rules name every tool): the text is not read
            return None, 0
        return self._picks(tools, names, descriptions, text, context, rules, least, also, frozenset())

    def _picks(
        self,
        tools: list[_Pickable],
        names: str,
        descriptions: str,
        text: str,
        context: str,
        rules: Rules,
        least: int | None,
        also: int,
        drop: frozenset[str],
    ) -> tuple[str | None, int]:
        """`generic._picks` over the prepared tools."""
        terms = pick_terms(text, rules, drop)
        least = rules.generic.min_score if least is None else least
        if not terms:  # "what is 15% of 80": no word, but a sum
            summed = last_terms(text, terms, rules) if not drop else None
            if not summed:
                return None, 0
            return self._chosen(
                tools, self._totals(tools, summed, names, descriptions, context), summed, least, also, text, rules
            )
        totals = self._totals(tools, terms, names, descriptions, context)
        found = self._chosen(tools, totals, terms, least, also, text, rules)
        own = own_terms(text, rules, drop) if found[0] is not None else None  # read only when a tool is found
        if own is not None and len(terms) > len(own):
            by_own = self._totals(tools, own, names, descriptions, context)
            found = (self._hint_decides(tools, totals, by_own, terms, least, text, rules) or found[0], found[1])
        if (more := synonym_terms(terms, rules)) is not None and (
            found[0] is None or also > 0 or not object_hits(found[0], terms)
        ):
            again = self._chosen(
                tools, self._totals(tools, more, names, descriptions, context), more, least, also, text, rules
            )
            found = again if found[0] is None or by_object(found[0], again[0], terms, more) else (found[0], again[1])
        if found[0] is None and not drop and (summed := last_terms(text, terms, rules)) is not None:
            found = self._chosen(
                tools, self._totals(tools, summed, names, descriptions, context), summed, least, also, text, rules
            )
        name = found[0]
        if name is None or drop or not (capital := capitalised(text, own_terms(text, rules) if own is None else own)):
            return found  # the usual case
        tool = next(p for p in tools if p.name == name)
        if _keyword_totals([tool], term_keys(capital), tool.name_words, tool.description_words)[0] and (
            placed := placed_out(text, capital, rules)
        ):
            again = self._picks(tools, names, descriptions, text, context, rules, least, also, placed)
            return again if again[0] is not None else found
        return found

    def _chosen(
        self,
        tools: list[_Pickable],
        totals: list[int],
        terms: list[str],
        least: int,
        also: int,
        text: str,
        rules: Rules,
    ) -> tuple[str | None, int]:
        """The tool with the best of `totals` (by `terms`), if it reaches `least` (of several, `generic.broken_tie`);
        and how many reach `also` (0 when it is 0)."""
        best = max(totals)
        contenders = sum(1 for t in totals if t >= also) if also > 0 else 0
        if best < least:
            return None, contenders
        tied = [tools[i].name for i, total in enumerate(totals) if total == best]
        return (tied[0] if len(tied) < 2 else broken_tie(tied, self.offered, terms, text, rules)), contenders

    def _hint_decides(
        self,
        tools: list[_Pickable],
        by_hints: list[int],
        by_own: list[int],
        hinted: list[str],
        least: int,
        text: str,
        rules: Rules,
    ) -> str | None:
        """`generic._hint_decides` from the scores already made: of the tools scoring most by the user's own
        words (`by_own`), the one scoring most by the words and their hints (`hinted`, `by_hints`; of several,
        `generic.broken_tie`); None when the own words find no tool (the hints pick alone)."""
        top = max(by_own)
        if top < least:
            return None
        tied = [i for i, total in enumerate(by_own) if total == top]
        most = max(by_hints[i] for i in tied)
        named = [tools[i].name for i in tied if by_hints[i] == most]
        return named[0] if len(named) < 2 else broken_tie(named, self.offered, hinted, text, rules)

    def _totals(
        self, tools: list[_Pickable], terms: list[str], names: str, descriptions: str, context: str
    ) -> list[int]:
        """Each tool's score by `terms`: its name and description (`_keyword_totals`), and its best `enum` value."""
        keys = term_keys(terms)
        totals = _keyword_totals(tools, keys, names, descriptions)
        windows, joined = self._enum_windows(context) if self.enums else ({}, "")
        hits = [k for k in keys if k in joined] if joined else []  # the terms any enum value or its window holds
        if hits:
            for i, tool in enumerate(tools):
                values = windows.get(tool.name)
                if values:
                    totals[i] += max([0, *(sum([2 * (t in w) + (t in around) for t in hits]) for w, around in values)])
        return totals

    @property
    def tokens(self) -> int:
        """`estimate_tokens` of the list's compact JSON: what the tools add to the prompt. Counted
        when first asked for: a streamed request that asks for no usage never counts them."""
        tokens = self._tokens
        if tokens is None:  # two threads may both count: the same number either way
            tokens = self._tokens = estimate_tokens(self.compact.decode("utf-8"))
        return tokens

    @property
    def enums(self) -> dict[str, list[list[str]]]:
        """Tool name → its parameters' `enum` values (`generic.first_enum_groups`), read when the
        picker first needs them: a request the rules answer (a shop question, a tool's result)
        never reads them, and a list sent once is mostly such a request's."""
        enums = self._enums
        if enums is None:  # two threads may both read them: the same value either way
            enums = self._enums = first_enum_groups(self.offered)
        return enums

    def tool_finder(self, rules: Rules) -> str | None:
        """`generic.tool_finder(offered, rules)`, read once per list and rules: the rule's two-sided
        search tries every place in each tool's text (a quarter of a request's work when read anew)."""
        found = self._finder
        if found is None or found[0] is not rules:  # two threads may both read: the same answer
            found = self._finder = (rules, tool_finder(self.offered, rules))
        return found[1]

    def picks_from(self, rules: Rules) -> bool:
        """Whether any tool is left to `pick` (else it answers None without reading the text)."""
        return bool(self._prepared(rules)[0])

    def _prepared(self, rules: Rules) -> tuple[list[_Pickable], str, str]:
        """The unruled tools, and their lower-cased names (descriptions) joined by newlines."""
        ruled = rules.ruled_tools
        if self._ruled is not ruled:
            pickable = [_Pickable(name, info) for name, info in self.offered.items() if name not in ruled]
            with self._lock:
                self._pickable, self._ruled = (pickable, *_joined(pickable)), ruled
        return self._pickable

    def _enum_windows(self, context: str) -> tuple[dict[str, list[tuple[str, str]]], str]:
        """Tool name → every `enum` value of its parameters with its context window, both
        `generic.worded` (as `generic.word_score` reads them); and all of them joined by newlines: a term
        found in none of the joined text scores in none of them."""
        found = self._windows.get(context)
        if found is None:
            by_name = {
                name: [
                    (worded(w), worded(around)) for words in groups for w, around in zip(words, windows(words, context))
                ]
                for name, groups in self.enums.items()
            }
            found = by_name, "\n".join([text for values in by_name.values() for pair in values for text in pair])
            with self._lock:
                if len(self._windows) >= _CONTEXTS:
                    self._windows.pop(next(iter(self._windows)), None)
                self._windows[context] = found
        return found


class _Pickable:
    """One tool the picker may call: its name and description as `generic.word_score` reads them
    (`generic.name_worded`, `generic.worded`)."""

    __slots__ = ("name", "name_words", "verb_words", "object_words", "description_words")

    def __init__(self, name: str, info: ToolInfo) -> None:
        self.name, self.description_words = name, worded(info.description)
        self.verb_words, self.object_words = name_parts(name)
        self.name_words = self.verb_words + self.object_words


def _joined(tools: list[_Pickable]) -> tuple[str, str]:
    return "\n".join([p.name_words for p in tools]), "\n".join([p.description_words for p in tools])


def _keyword_totals(tools: list[_Pickable], keys: list[str], names: str, descriptions: str) -> list[int]:
    """`generic.word_score` of each tool (2 per term in the name's object, 1 in its verb only, 1 per term in the
    description, where a word starts), looking tool by tool only for the terms' `keys` found in `names`
    (`descriptions`): the tools' worded names (descriptions) joined. A key in none of the joined text is in
    none of the tools."""
    totals = [0] * len(tools)
    for key in keys:
        if key in names:
            for i, tool in enumerate(tools):
                if key in tool.object_words:
                    totals[i] += 2
                elif key in tool.verb_words:
                    totals[i] += 1
        if key in descriptions:
            for i, tool in enumerate(tools):
                if key in tool.description_words:
                    totals[i] += 1
    return totals


def offered(tools: Any) -> dict[str, ToolInfo]:
    """Tool name → its description and parameter schema, from a checked `tools` list."""
    functions = [tool["function"] for tool in tools]
    return {fn["name"]: ToolInfo(fn.get("description") or "", fn.get("parameters") or {}) for fn in functions}


# --- the store -------------------------------------------------------------------------------

_store: dict[bytes, ToolSet] = {}
_store_bytes = 0
_seen: dict[int, bool] = {}
"""The hashes of the good lists met once and not kept (`_met_before`), oldest first."""
_store_lock = threading.Lock()


def prepare(tools: Any) -> ToolSet | None:
    """The `ToolSet` of a request's `tools` (None when there are none, or the list is nested too
    deeply to write as JSON: the plain path then answers as it always did)."""
    if tools is None:
        return None
    try:  # written as an item of a list, as deep as in the request (orjson's depth is limited)
        compact, spliceable = orjson.dumps([tools])[1:-1], True
    except TypeError:  # orjson.JSONEncodeError: `dumps` knows what to do
        spliceable = False
        try:
            compact = dumps(tools)
        except RecursionError:
            return None
    found = _store.get(compact)
    if found is not None and (spliceable or not found.spliceable):  # else the bytes came from `dumps`' other path
        return found
    prepared = ToolSet(compact, tools, spliceable)
    if prepared.problem is None and len(compact) <= MAX_LIST_BYTES and _met_before(compact):
        _keep(prepared)
    return prepared


def _met_before(compact: bytes) -> bool:
    """Whether a good list written as `compact` was met before (and not kept then): its hash is
    remembered at the first sighting and forgotten at the second, when the list is kept. Two
    lists with the same hash only make the second kept at its first sighting (the store is keyed
    by the whole bytes); at most `MAX_SEEN` are remembered, the oldest forgotten first."""
    key = hash(compact)  # a bytes object keeps its hash: the store's lookup has made it already
    with _store_lock:
        if _seen.pop(key, False):
            return True
        _seen[key] = True
        if len(_seen) > MAX_SEEN:
            del _seen[next(iter(_seen))]
    return False


def is_kept(prepared: ToolSet) -> bool:
    """Whether `prepared` is the one kept for its list (a later request gets this very one)."""
    return _store.get(prepared.compact) is prepared


def _keep(prepared: ToolSet) -> None:
    global _store_bytes
    with _store_lock:
        if prepared.compact in _store:
            return
        while _store and (len(_store) >= MAX_ENTRIES or _store_bytes + len(prepared.compact) > MAX_BYTES):
            _store_bytes -= len(_store.pop(next(iter(_store))).compact)
        _store[prepared.compact] = prepared
        _store_bytes += len(prepared.compact)


def clear() -> None:
    """Forget every prepared list (tests; a long-running server never needs to)."""
    global _store_bytes
    with _store_lock:
        _store.clear()
        _seen.clear()
        _store_bytes = 0
