"""The course's tool catalogue (`data/tool_catalog.json`) and how well each search strategy does on it.

    catalog = load_catalog()                 # 329 hand-written tools, 70 labelled queries
    rows = evaluate(catalog, sizes=[70, 100, 200, 329], strategies={"keyword": ..., "vector": ...})

A labelled query is what a user typed, the terms a model would send to a keyword search, and
the one tool that should answer it. `evaluate` measures, per catalogue size:

- **accuracy**: the share of queries whose expected tool is among the tools the search returns
  (so it reaches the model). With every tool in the prompt that is 100% by construction — the
  model still has to pick, which this does not measure;
- **tokens**: the estimated size of the `tools` block the model reads when it picks: the whole
  catalogue, or the search tool plus the tools found (averaged over the queries).

Smaller catalogues keep every expected tool and a seeded random sample of the others, so none
is smaller than the number of expected tools (70 in the course's): a row's `size` is the size measured.
`scaled_catalog(n)` grows the catalogue to n tools for benchmarks, the way many connected
systems would: `jira_create_task`, `zendesk_create_task`, ….

A catalogue file is read only if it is a regular file of at most `MAX_CATALOG_BYTES`; it is UTF-8
(a byte order mark is fine) or UTF-16, and JSON proper: NaN, Infinity and a key given twice are refused.

Leaves out: asking a real model to pick (see the accuracy week for that).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import Any

from toolkit import data as course_data
from toolkit import files
from toolkit.errors import ConfigurationError
from toolkit.search.keyword import catalogue, catalogue_misfit, clean_terms
from toolkit.search.strategy import SearchStrategy, call_misfit, found_matches
from toolkit.tokens import estimate_json_tokens
from toolkit.tools.arguments import parse_arguments
from toolkit.tools.decorator import TOOL_NAME
from toolkit.tools.execute import Tool
from toolkit.tools.reflect import ToolSpec
from toolkit.unicode import cut

SYSTEMS = (
    "shopify",
    "zendesk",
    "jira",
    "salesforce",
    "hubspot",
    "stripe",
    "sap",
    "netsuite",
    "slack",
    "github",
    "gitlab",
    "datadog",
    "pagerduty",
    "workday",
    "bamboohr",
    "dropbox",
    "box",
    "outlook",
    "gmail",
    "notion",
    "asana",
    "linear",
    "intercom",
    "freshdesk",
    "quickbooks",
    "xero",
    "mailchimp",
    "okta",
    "aws",
    "azure",
    "gcp",
)
ALL_TOOLS = "all tools in the prompt"


@dataclass(frozen=True)
class LabelledQuery:
    """A user request and the one tool that should answer it."""

    query: str
    """What the user typed (a vector search embeds this)."""
    terms: tuple[str, ...]
    """What a model would send to a keyword search."""
    expected: str
    """The tool's name."""


@dataclass(frozen=True)
class Catalog:
    tools: tuple[ToolSpec, ...]
    queries: tuple[LabelledQuery, ...]
    domains: Mapping[str, str]
    """Tool name → domain (orders, logistics, payments, …)."""


FORMAT = (
    '{"tools": [{"name", "description", "parameters", "domain"}, ...], '
    '"queries": [{"query", "terms", "expected"}, ...]}'
)
"""The shape of a catalogue file, as error messages show it."""


def load_catalog(path: str | Path | None = None) -> Catalog:
    """The catalogue in `path` (default: the course's); a file that cannot be one is a
    `ConfigurationError` naming the file, the entry and what is wrong (never a `KeyError`)."""
    path = course_data.path("tool_catalog.json") if path is None else path
    where = f"load_catalog({str(path)!r})"
    try:
        raw = _read_bounded(Path(path), where)
    except OSError as exc:
        raise ConfigurationError(f"{where}: cannot read the file ({exc.strerror or exc})") from None
    try:  # bytes: a UTF-8 byte order mark, or UTF-16 written by Windows tools, is read as the text it is
        data = json.loads(raw, object_pairs_hook=_once_each, parse_constant=_no_constant)
    except ValueError as exc:  # not JSON, or not UTF-8
        raise ConfigurationError(f"{where}: the file is not UTF-8 JSON ({exc}); it must be {FORMAT}") from None
    except RecursionError:
        raise ConfigurationError(
            f"{where}: the file nests deeper than JSON can be read here; it must be {FORMAT}"
        ) from None
    try:
        rows, asked = _entries(data, "tools"), _entries(data, "queries")
    except _Misshapen as exc:
        raise ConfigurationError(
            f"{where}: the file does not have the catalogue's shape ({exc}); it must be {FORMAT}"
        ) from None
    _check_entries(where, rows, asked)
    tools = tuple(ToolSpec(name, description, parameters) for name, description, parameters, _ in rows)
    queries = tuple(LabelledQuery(text, tuple(terms), expected) for text, terms, expected in asked)
    _check_catalog(where, tools, queries)
    return Catalog(tools, queries, {row[0]: row[3] for row in rows})


_FIELDS = {"tools": ("name", "description", "parameters", "domain"), "queries": ("query", "terms", "expected")}
"""Each part of a catalogue file, and the fields of its entries, in the order they are read."""


class _Misshapen(Exception):
    """A part of a catalogue file that is not of the catalogue's shape: the text names it."""


def _entries(data: Any, part: str) -> list[tuple[Any, ...]]:
    """The entries of `part` ("tools" or "queries") as tuples of their fields (`_FIELDS`), or `_Misshapen`
    naming the first thing of the wrong shape: the file, the part or the entry (its place), in JSON's words."""
    if not isinstance(data, dict):
        raise _Misshapen(f"the file holds {_json_kind(data)}, not an object")
    if part not in data:
        raise _Misshapen(f"no {part!r}")
    entries, fields = data[part], _FIELDS[part]
    if not isinstance(entries, list):
        raise _Misshapen(f"{part!r} is {_json_kind(entries)}, not an array")
    rows = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise _Misshapen(f"{part}[{i}] is {_json_kind(entry)}, not an object")
        missing = next((field for field in fields if field not in entry), None)
        if missing is not None:
            raise _Misshapen(f"{part}[{i}] has no {missing!r}")
        rows.append(tuple(entry[field] for field in fields))
    return rows


def _json_kind(value: Any) -> str:
    """What a value read from JSON is, in JSON's words ("an array", "null")."""
    if value is None:
        return "null"
    kinds = (
        (bool, "a boolean"),
        (dict, "an object"),
        (list, "an array"),
        (str, "a string"),
        (int | float, "a number"),
    )
    return next((kind for types, kind in kinds if isinstance(value, types)), type(value).__name__)


MAX_CATALOG_BYTES = 32 * 1024 * 1024
"""A catalogue file larger than this is refused unread (the course's is 166 KB; a file of 100,000
tools is about 50 MB of JSON, more than any tools block a model reads)."""


def _read_bounded(path: Path, where: str) -> bytes:
    """The file's bytes, if it is a regular file of at most `MAX_CATALOG_BYTES`: a pipe, a device
    (`/dev/zero` never ends) or a huge file is a `ConfigurationError`, not a hang or a `MemoryError`."""
    return files.read_bytes(
        path,
        MAX_CATALOG_BYTES,
        where=where,
        cap_name="toolkit.search.catalog.MAX_CATALOG_BYTES",
        fix="pass a smaller catalogue, or grow one in memory with scaled_catalog(specs, size)",
        error=ConfigurationError,
    )


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once (`json` keeps the last of two silently)."""
    found = dict(pairs)
    if len(found) < len(pairs):
        twice = sorted(key for key, n in Counter(key for key, _ in pairs).items() if n > 1)
        raise ValueError(f"an object gives the key {', '.join(map(repr, twice))} more than once")
    return found


def _no_constant(name: str) -> Any:
    """NaN and Infinity are no JSON (a model's API refuses a tools block holding one)."""
    raise ValueError(f"{name} is not a JSON value")


def _check_entries(where: str, tools: list[tuple[Any, ...]], queries: list[tuple[Any, ...]]) -> None:
    """Each entry's values of the kind its field needs, checked before any is used: a name no model
    can call, terms given as one string (searched letter by letter), an expected tool that is a list
    (unhashable) would otherwise load, or fail later naming no file and no entry."""
    for i, (name, description, parameters, domain) in enumerate(tools):
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            rule = 'a tool name is a string of 1-64 ASCII letters, digits, "_" or "-"'
            raise _entry_error(where, f"tools[{i}] has the name {_json(name)}; {rule}")
        for field, value, fits, rule in (
            ("description", description, isinstance(description, str | None), "a string (or null)"),
            ("parameters", parameters, isinstance(parameters, dict | None), "a JSON Schema object (or null)"),
            ("domain", domain, isinstance(domain, str), "a string"),
        ):
            if not fits:
                raise _entry_error(
                    where, f"tools[{i}] ({_json(name)}) has the {field} {_json(value)}; it must be {rule}"
                )
    for i, (text, terms, expected) in enumerate(queries):
        for field, value, fits, rule in (
            ("query", text, isinstance(text, str) and bool(text.strip()), "a string, not blank"),
            ("terms", terms, _are_terms(terms), "a list of strings, one of them not blank"),
            ("expected", expected, isinstance(expected, str), "a string"),
        ):
            if not fits:
                raise _entry_error(where, f"queries[{i}] has the {field} {_json(value)}; it must be {rule}")


def _are_terms(terms: Any) -> bool:
    """A list of str with a term the keyword search keeps (`clean_terms`: one not blank)."""
    return isinstance(terms, list) and all(isinstance(t, str) for t in terms) and bool(clean_terms(terms))


def _json(value: Any) -> str:
    """A value read from the file, as JSON, cut short."""
    shown = json.dumps(value, ensure_ascii=False)
    return cut(shown, 42)


def _entry_error(where: str, problem: str) -> ConfigurationError:
    return ConfigurationError(f"{where}: {problem}; correct that entry in the file")


def _check_catalog(where: str, tools: Sequence[ToolSpec], queries: Sequence[LabelledQuery]) -> None:
    """Tool names once each, and every query's expected tool among them."""
    counts = Counter(t.name for t in tools)
    twice = sorted(name for name, n in counts.items() if n > 1)
    if twice:
        raise ConfigurationError(
            f"{where}: tool names must be unique; more than one tool is named {', '.join(map(repr, twice))}"
        )
    unknown = sorted({q.expected for q in queries} - set(counts))
    if unknown:
        raise ConfigurationError(
            f"{where}: queries expect tools the catalogue does not have: {', '.join(map(repr, unknown))}"
        )


def catalog_tools(specs: Iterable[ToolSpec]) -> list[Tool]:
    """Runnable `Tool`s for the specs: each answers with a short canned JSON result."""
    specs = _specs(specs, "catalog_tools")

    def answer(call: Any, context: Any) -> dict[str, Any]:
        # read as every tool's arguments are (double-encoded, trailing commas, …); not JSON: an ArgumentError
        return {"tool": call.name, "ok": True, "arguments": parse_arguments(call.name, call.arguments)}

    return [Tool(spec, answer, f"catalog {spec.name}") for spec in specs]


def _specs(specs: Iterable[ToolSpec], where: str) -> list[ToolSpec]:
    """The tool specs given, as a list, or a `ConfigurationError` naming the fix (`catalogue`): a
    `Catalog` for its tools, one spec alone, a str; an item that is no spec (each looked at: the
    callers read their fields one by one)."""
    specs = catalogue(specs, where)
    misfit = catalogue_misfit(specs, where)
    if misfit is not None:
        raise misfit
    return specs


def _checked_catalog(catalog: Catalog, where: str) -> None:
    """A `ConfigurationError` unless `catalog` is a `Catalog`: its tools alone have no queries to measure."""
    if not isinstance(catalog, Catalog):
        raise ConfigurationError(
            f"{where}: takes a Catalog (its tools and labelled queries), and got {type(catalog).__name__}; "
            "pass load_catalog(), or load_catalog(path) for your own file"
        )


def subset(catalog: Catalog, size: int, seed: int = 0) -> list[ToolSpec]:
    """`size` tools: every expected tool plus a seeded sample of the rest, in catalogue order."""
    _checked_catalog(catalog, "subset")
    expected = {q.expected for q in catalog.queries}
    others = [t.name for t in catalog.tools if t.name not in expected]
    wanted = min(len(others), max(0, size - len(expected)))  # a size past the catalogue keeps it all
    keep = expected | set(random.Random(seed).sample(others, wanted))
    return [t for t in catalog.tools if t.name in keep]


def scaled_catalog(specs: Iterable[ToolSpec], size: int) -> list[ToolSpec]:
    """`size` tools: the originals, then copies prefixed with a system name (`jira_create_task`).

    Past one copy per system, further instances are numbered (`jira2_create_task`, "(Jira 2)").
    A copy whose name is taken (a catalogue may hold `jira_create_task` already) or longer than a
    model takes (64 characters) is left out; a `ConfigurationError` when too few can be made.
    """
    if isinstance(size, bool) or not isinstance(size, Integral) or size < 0:  # np.int64 is one (evaluate's sizes)
        raise ConfigurationError(f"scaled_catalog(..., size={size!r}): use a whole number, 0 or more")
    size = int(size)
    specs = _specs(specs, "scaled_catalog")
    out = list(specs[:size])
    if size and not specs:
        raise ConfigurationError(
            f"scaled_catalog(..., size={size}): no tools given, so none can be made; pass the tools to copy, "
            f"e.g. scaled_catalog(load_catalog().tools, {size})"
        )
    taken = {s.name for s in specs}
    instance = 1
    while len(out) < size:
        before = len(out)
        for system in SYSTEMS:
            prefix, label = (
                (system, system.capitalize())
                if instance == 1
                else (f"{system}{instance}", f"{system.capitalize()} {instance}")
            )
            fresh = [(f"{prefix}_{s.name}", s) for s in specs]
            fresh = [(name, s) for name, s in fresh if name not in taken and TOOL_NAME.match(name)]
            taken.update(name for name, _ in fresh)
            out += [ToolSpec(name, f"{s.description} ({label})", s.parameters) for name, s in fresh]
            if len(out) >= size:
                break
        if len(out) == before:  # every copy too long or taken: longer prefixes would not help
            raise ConfigurationError(
                f"scaled_catalog(..., size={size}): only {len(out)} tools can be made of the {len(specs)} given: a "
                "copy is named '<system>_<name>', and every further copy's name would be longer than 64 characters "
                f"or taken; ask for {len(out)} or fewer, or shorten the tools' names"
            )
        instance += 1
    return out[:size]


@dataclass(frozen=True)
class EvalRow:
    """One point of the accuracy / tokens chart."""

    size: int
    strategy: str
    accuracy: float
    """Share of queries whose expected tool was returned (recall at `max_results`)."""
    top1: float
    """Share of queries whose expected tool came first."""
    tokens: float
    """Average estimated tokens of the tools block the model reads when it picks."""


def tools_tokens(specs: Sequence[ToolSpec]) -> int:
    return estimate_json_tokens([s.to_openai() for s in specs]) if specs else 0


def evaluate(catalog: Catalog, sizes: Sequence[int], strategies: Mapping[str, Any], seed: int = 0) -> list[EvalRow]:
    """Rows for every size: all tools in the prompt, then each strategy (see the module docstring)."""
    _checked_catalog(catalog, "evaluate(...)")
    if not catalog.queries:
        raise ConfigurationError("evaluate(...): the catalogue has no labelled queries, so there is nothing to measure")
    rows = []
    for size in _check_settings(sizes, strategies):
        specs = subset(catalog, size, seed)
        rows.append(EvalRow(len(specs), ALL_TOOLS, 1.0, 1.0, float(tools_tokens(specs))))
        rows += [_evaluate_one(catalog, specs, name, strategy) for name, strategy in strategies.items()]
    return rows


def _check_settings(sizes: Any, strategies: Any) -> list[int]:
    """`evaluate`'s sizes (as ints) and strategies, checked before any is run (a class for its instance,
    a strategy without `takes`, a size that is a str failed inside, some after an index was built)."""
    given = list(sizes) if isinstance(sizes, Iterable) and not isinstance(sizes, str | bytes | Mapping) else None
    if given is None or not all(isinstance(n, Integral) and not isinstance(n, bool) and int(n) >= 0 for n in given):
        raise ConfigurationError(
            f"evaluate(..., sizes={sizes!r:.60}): sizes is a list of whole numbers, 0 or more; e.g. [50, 100, 200]"
        )
    if not isinstance(strategies, Mapping):
        raise ConfigurationError(
            f"evaluate(...): strategies is a dict of names to strategies, and got {type(strategies).__name__}; "
            "e.g. {'keyword': KeywordSearch()}"
        )
    for name, strategy in strategies.items():
        if isinstance(strategy, type):
            raise ConfigurationError(
                f"evaluate(...): strategies[{name!r}] is the class {strategy.__name__}; "
                f"pass an instance: {{{name!r}: {strategy.__name__}()}}"
            )
        if getattr(strategy, "takes", None) not in ("terms", "text") or not (
            hasattr(strategy, "spec")
            and callable(getattr(strategy, "index", None))
            and callable(getattr(strategy, "search", None))
        ):
            raise ConfigurationError(
                f"evaluate(...): strategies[{name!r}] is {type(strategy).__name__}, not a search strategy (it needs "
                "takes 'terms' or 'text', spec, index and search); pass KeywordSearch(), VectorSearch() or an "
                "object with those members"
            )
        misfit = call_misfit(strategy, "index", 1) or call_misfit(
            strategy, "search", 2
        )  # as `_evaluate_one` calls them
        if misfit:
            raise ConfigurationError(f"evaluate(...): strategies[{name!r}]: {misfit}")
    return [int(n) for n in given]


def _evaluate_one(catalog: Catalog, specs: list[ToolSpec], name: str, strategy: SearchStrategy) -> EvalRow:
    index = strategy.index(specs)
    by_name = {s.name: s for s in specs}
    hits = top1 = tokens = 0
    for q in catalog.queries:
        query = list(q.terms) if strategy.takes == "terms" else q.query
        answer = strategy.search(index, query)
        found = [m.name for m in found_matches(answer, strategy, by_name, f"evaluate(...): strategies[{name!r}]")]
        hits += q.expected in found
        top1 += bool(found) and found[0] == q.expected
        tokens += tools_tokens([strategy.spec] + [by_name[n] for n in found])
    n = len(catalog.queries)
    return EvalRow(len(specs), name, hits / n, top1 / n, tokens / n)
