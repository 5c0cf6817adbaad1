"""The texts a rules file writes for the gateway to fill (`[order_ref]`, `[replies]`, `[[decline]]`, `[[answer]]`),
checked when the file is loaded: each placeholder one the gateway fills there, written plainly, and every text the
gateway needs present. A mistake is a `ValueError` naming the text and what to write (`load_rules` makes it a
`ConfigurationError` naming the file), never a `KeyError` or a 300 MB reply out of a request later.

What is filled where (`toolkit.gateway.decide.fill`):

    [order_ref] with_id, without_id (and their _en)   {order_id}
    [replies] ask_*                                   {order} {order_id} {summary} {field} {values}
    every other reply, decline and answer template    {order} {order_id} {summary}

A placeholder is a name in braces: no format spec or conversion (`{order:>9}`, `{order!r}`: a spec's width is
filled however large it is), no attribute or index (`{order.x}`, `{order[0]}`). `{{` and `}}` are braces.

Leaves out: what the texts say.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping

ORDER_REF = ("with_id", "without_id")
"""The `[order_ref]` texts the gateway reads (`{order}`: a reply about an order, with its id or without)."""
NEEDED_REPLIES = ("ask_order_id", "cannot_lookup", "default", "fake_support", "invented_status")
"""The `[replies]` the gateway reads whatever a request holds (the `ask_*` questions and `_en` variants are read
where the rules have them)."""
_FILLED = frozenset({"order", "order_id", "summary"})
_ASKS = _FILLED | {"field", "values"}
_ORDER_REF = frozenset({"order_id"})


def check_templates(
    order_ref: Mapping[str, object],
    replies: Mapping[str, object],
    templates: Iterable[object],
) -> None:
    """A `ValueError` for the first text the gateway could not fill (see the module docstring): `templates` are the
    declines' and answers' texts."""
    for key in (*ORDER_REF, *NEEDED_REPLIES):
        table, section = (order_ref, "order_ref") if key in ORDER_REF else (replies, "replies")
        if key not in table:
            raise ValueError(f'[{section}] has no {key}; the gateway needs it: write {key} = "…"')
    for key, text in order_ref.items():
        _check(f"[order_ref] {key}", text, _ORDER_REF)
    for key, text in replies.items():
        _check(f"[replies] {key}", text, _ASKS if key.startswith("ask_") else _FILLED)
    for text in templates:
        _check("template", text, _FILLED)


def _check(where: str, text: object, allowed: frozenset[str]) -> None:
    if not isinstance(text, str):
        raise ValueError(f"{where} is {type(text).__name__}, not text; write it in quotes")
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:  # a lone brace
        raise ValueError(f"{where} {_shown(text)}: {exc}; write a brace itself as {{{{ or }}}}") from None
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in allowed:
            filled = ", ".join("{" + n + "}" for n in sorted(allowed))
            raise ValueError(
                f"{where} {_shown(text)} uses {{{name}}}; only {filled} {'is' if len(allowed) == 1 else 'are'} "
                "filled there"
            )
        if spec or conversion:
            raise ValueError(
                f"{where} {_shown(text)} writes {{{name}{'!' + conversion if conversion else ''}"
                f"{':' + spec if spec else ''}}}; write the placeholder alone: {{{name}}}"
            )


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 80 else repr(text[:77] + "...")
