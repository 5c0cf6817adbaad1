"""The schema explainer: Python signature | JSON Schema | strict schema, side by side.

`render_schema_html(tools)` is a pure function (tools in, HTML out — unit-tested and stable
under nbval), built from the shared `toolkit.views.html` helpers: one card per tool with its three
columns and its lint warnings (`toolkit.tools.lint`; the first `CARD_LINT`, the rest counted), and on top the size of the whole `tools`
block in estimated tokens, normal and strict; of more than `SHOWN_ITEMS` tools, the first and last
500 cards (and lines of text) and a note naming the rest, the summary counting all. A tool that cannot be strict shows the
registration error in the strict column instead (the lint warnings are grouped by tool once, not
searched per tool). `render_schema_text` is the plain-text twin.
`schema_explainer(tools)` is the thin ipywidgets wrapper: a dropdown picks the tool. Each takes
`Tool`s, `ToolSpec`s and `@tool` functions, in a list or one alone (`given_tools`); two tools
of one name are refused as a registry refuses them.

Leaves out: editing specs, exact token counts (`toolkit.tokens` estimates).
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from toolkit.errors import ToolDefinitionError, shown_name
from toolkit.tokens import estimate_json_tokens
from toolkit.tools.execute import Tool, tools_from
from toolkit.tools.lint import LintWarning, lint_tools
from toolkit.tools.parameters import type_name
from toolkit.tools.reflect import ToolSpec
from toolkit.views.conversation import TextRepr
from toolkit.views.html import (
    Html,
    badge,
    card,
    code_block,
    join,
    kept,
    page,
    showable,
    showable_bundle,
    small,
    table,
    text_block,
    without_addresses,
)

COLUMNS = ("Python signature", "JSON Schema", "strict mode")
CARD_LINT = 20
"""Most lint warnings one tool's card lists; it counts the rest. Alike descriptions make a warning
per pair of tools: 400 alike tools put 399 on every card, a 15 MB view."""


def given_tools(tools: Any) -> list[Tool | ToolSpec]:
    """The tools a schema view shows: `Tool`s and `ToolSpec`s as they are, anything else (a `@tool`
    function, an object with `@tool` methods) through `tools_from`, which says what is wrong with
    the rest; one alone is a list of one."""
    items = list(tools) if isinstance(tools, (list, tuple)) else [tools]
    given = [t for item in items for t in ([item] if isinstance(item, (Tool, ToolSpec)) else tools_from(item))]
    _one_name_each(given)
    return given


def _one_name_each(tools: list[Tool | ToolSpec]) -> None:
    """Two tools of one name refused, as a registry refuses them (`tools_from`'s own words for two
    `Tool`s): no request sends such a tools block, and each card would list the other's lint warnings."""
    tools_from(*(t for t in tools if isinstance(t, Tool)))
    seen: set[str] = set()
    for t in tools:
        name = _spec(t).name
        if name in seen:
            raise ToolDefinitionError(
                f"tool {shown_name(name)!r}",
                "the name is given to two tools (a tools block names each tool once: "
                "the model could not tell them apart)",
                "give one of them another name, or pass it once",
            )
        seen.add(name)


def render_schema_html(tools: Sequence[Tool | ToolSpec], only: str | None = None) -> Html:
    """HTML for `tools` (or just the one named `only`): columns, lint warnings, token counts."""
    tools = given_tools(tools)
    specs = [_spec(t) for t in tools]
    warnings = _lint_by_tool(lint_tools(specs))
    picked = [t for t in tools if only is None or _spec(t).name == only]
    cards = [
        small(k) if isinstance(k, str) else _tool_card(picked[k], warnings.get(_spec(picked[k]).name, []))
        for k in kept(len(picked), "tools")  # of thousands: the first and last 500, and a note
    ]
    return page(join([small(summary(specs)), *cards]), title="Tool schemas")


def render_schema_text(tools: Sequence[Tool | ToolSpec]) -> str:
    """The same, as a few lines of text: the summary, then one line per tool."""
    specs = [_spec(t) for t in given_tools(tools)]
    warnings = _lint_by_tool(lint_tools(specs))
    lines = [summary(specs)]
    for k in kept(len(specs), "tools"):
        if isinstance(k, str):
            lines.append(k)
            continue
        spec = specs[k]
        props = (spec.parameters or {}).get("properties", {})
        required = len((spec.parameters or {}).get("required", []))
        count = len(warnings.get(spec.name, []))
        lines.append(
            f"- {spec.name}: {len(props)} parameter{'s' if len(props) != 1 else ''} ({required} required), "
            f"{count} lint warning{'s' if count != 1 else ''}"
        )
    return showable("\n".join(lines))


def _lint_by_tool(warnings: list[LintWarning]) -> dict[str, list[str]]:
    """The warnings' messages under each tool they name (an overlap names two), in order."""
    by_tool: dict[str, list[str]] = {}
    for w in warnings:
        for name in dict.fromkeys(w.tool.split(", ")):
            by_tool.setdefault(name, []).append(w.message)
    return by_tool


def summary(specs: Sequence[ToolSpec]) -> str:
    """`3 tools · tools block ≈ 412 tokens (strict: 455 tokens)`."""
    if not specs:
        return "0 tools · no tools block (a request without tools sends none)"
    normal = estimate_json_tokens([s.to_openai() for s in specs])
    try:
        strict = f"{estimate_json_tokens([s.to_openai(strict=True) for s in specs])} tokens"
    except ToolDefinitionError:
        strict = "not possible for every tool"
    count = f"{len(specs)} tool{'s' if len(specs) != 1 else ''}"
    return f"{count} · tools block ≈ {normal} tokens (strict: {strict})"


class SchemaExplainer(TextRepr, widgets.VBox):
    """Pick a tool, see its three columns. A saved notebook keeps the HTML of every tool
    (`text/html`) and the text summary (`text/plain`) beside the live widget."""

    def __init__(self, tools: Sequence[Tool | ToolSpec], **kwargs: Any) -> None:
        self._tools = given_tools(tools)
        names = [_spec(t).name for t in self._tools]
        self._pick = widgets.Dropdown(options=names, description="tool")
        self._view = widgets.HTML(render_schema_html(self._tools, only=names[0] if names else None))
        self._pick.observe(self._show, names="value")
        super().__init__([self._pick, self._view], **kwargs)

    def _show(self, change: dict[str, Any]) -> None:
        self._view.value = render_schema_html(self._tools, only=change["new"])

    def _plain_text(self) -> str:
        return render_schema_text(self._tools)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = self._widget_bundle(**kwargs)
        text, html = self._plain_text(), render_schema_html(self._tools)
        return showable_bundle({**bundle, "text/plain": text, "text/html": html})


def schema_explainer(tools: Sequence[Tool | ToolSpec]) -> SchemaExplainer:
    """The widget above (a function, like every other view constructor)."""
    return SchemaExplainer(tools)


def _spec(t: Tool | ToolSpec) -> ToolSpec:
    return t.spec if isinstance(t, Tool) else t


def _tool_card(t: Tool | ToolSpec, mine: list[str]) -> Html:
    """The tool's card; `mine` are its lint messages."""
    spec = _spec(t)
    function = t.function if isinstance(t, Tool) else None
    signature = signature_text(function) if function else "(hand-written spec: no Python function)"
    row = [
        code_block(signature, lang="python"),
        code_block(_json(spec.to_openai()["function"]), lang="text"),
        _strict_cell(spec),
    ]
    lint = card("lint", text_block(_lint_lines(mine)), "warn") if mine else badge("✓ no lint warnings", "ok")
    return card(spec.name, _side_by_side(row) + lint, "tool")


def _lint_lines(mine: list[str]) -> str:
    """A card's lint warnings, one a line: the first `CARD_LINT`, and how many more there are."""
    lines = [f"⚠ {m}" for m in mine[:CARD_LINT]]
    if len(mine) > CARD_LINT:
        more = len(mine) - CARD_LINT
        lines.append(
            f"… {more:,} more lint warning{'s' if more != 1 else ''} for this tool "
            "(toolkit.tools.lint.lint_tools lists every one)"
        )
    return "\n".join(lines)


_WRAPPING = "white-space:pre-wrap;overflow-wrap:break-word"
_STYLE = re.compile(r'style="([^"]*)"')
"""A `style` attribute: text in the markup is escaped (`"` as `&quot;`), so only attributes match."""


def _unwrapped(markup: Html) -> Html:
    """`markup` whose elements keep their lines (a long line scrolls instead of breaking a word
    in two); only their `style` attributes change, never the text they show."""
    return Html(_STYLE.sub(lambda m: f'style="{m[1].replace(_WRAPPING, "white-space:pre;overflow-x:auto")}"', markup))


def _side_by_side(cells: list[Html]) -> Html:
    """`toolkit.views.html.table`, but three equal columns that never squeeze one to a sliver;
    code keeps its lines (`_unwrapped`)."""
    markup = table(COLUMNS, [[_unwrapped(c) for c in cells]])
    return Html(markup.replace("table-layout:auto", "table-layout:fixed;width:100%", 1))


def _strict_cell(spec: ToolSpec) -> Html:
    try:
        return code_block(_json(spec.to_openai(strict=True)["function"]), lang="text")
    except ToolDefinitionError as exc:
        return card("cannot be strict", text_block(str(exc)), "error")


def _json(value: Any, indent: str = "", width: int = 56) -> str:
    """JSON, indented, but a container that fits in `width` characters stays on one line
    (a property's schema is one line, so a tool fits on a screen)."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + len(indent) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_json(v, inner, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    items = [f"{inner}{_json(v, inner, width)}" for v in value]
    return "[\n" + ",\n".join(items) + f"\n{indent}]"


def _default_text(default: Any) -> str:
    """` = 10`; a `Field(10, ...)` default shows its value (its description and bounds are in
    the schema column), a required `Field(...)` shows nothing; no repr shows a memory address."""
    if default is inspect.Parameter.empty:
        return ""
    if isinstance(default, FieldInfo):
        if default.default_factory is not None:
            return f" = {getattr(default.default_factory, '__name__', 'factory')}()"
        return "" if default.default in (PydanticUndefined, Ellipsis) else f" = {_repr(default.default)}"
    return f" = {_repr(default)}"


def _repr(value: Any) -> str:
    """`repr(value)` without a memory address (`<Marker object at 0x7f…>` differed in every run), or
    `<Code object>` when that repr raises (a class of the learner's)."""
    try:
        return without_addresses(repr(value))
    except Exception:
        return f"<{type(value).__name__} object>"


def signature_text(fn: Callable[..., Any]) -> str:
    """`def name(\n    param: type = default,\n) -> type`, types as written, without module prefixes."""
    sig = inspect.signature(fn)
    lines = []
    for p in sig.parameters.values():
        text = p.name if p.annotation is p.empty else f"{p.name}: {type_name(p.annotation)}"
        lines.append(f"    {text}{_default_text(p.default)},")
    ret = "" if sig.return_annotation is sig.empty else f" -> {type_name(sig.return_annotation)}"
    body = "\n".join(lines)
    return f"def {fn.__name__}(\n{body}\n){ret}" if lines else f"def {fn.__name__}(){ret}"
