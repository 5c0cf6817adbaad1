"""Static displays for notebooks: HTML in the course's look, with a text fallback that means something.

`Shown(html, text)` is what a notebook cell returns when nothing is interactive: JupyterLab
renders the HTML, a plain-text reader (and nbval) sees the text — never
`<IPython.core.display.HTML object>`. Two builders use it:

- `show_table(rows, title)`: a list of dicts as a table (text: an aligned plain table); the
  columns are every key of every row (none is dropped), a row that is not a dict is refused;
- `show_response(response)`: one model response, as `toolkit.views.conversation` renders it;
- `show_exchange(exchange)`: one raw HTTP exchange from `ChatClient.exchanges` — URL, status,
  attempt, the request body and the response body (pretty JSON, or the SSE lines of a stream).

Leaves out: anything live (see `toolkit.views.conversation.HtmlView` for widgets).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolkit import unicode
from toolkit.chat.client import Exchange
from toolkit.chat.messages import ChatResponse
from toolkit.errors import ConfigurationError
from toolkit.tools.decorator import a_kind_of
from toolkit.views.conversation import (
    blobs_marked,
    check_response,
    one_line,
    render_conversation_text,
    render_response_html,
    source_lines,
)
from toolkit.views.html import (
    Html,
    badge,
    card,
    code_block,
    flat,
    join,
    json_text,
    kept,
    kv_table,
    page,
    plain,
    shortened,
    showable,
    showable_bundle,
    table,
)

PADDED_COLUMNS = 200
"""Most terminal columns the text table pads a column to: a wider cell (a tool's 1 MB result) is
written whole, cut at `SHOWN_CHARS`, and pushes the rest of its own line right, instead of every
other row being padded to its width (1,000 rows: a 250 MB text)."""


class Shown:
    """HTML for people, text for everything else."""

    def __init__(self, html: str, text: str) -> None:
        self.html: str = html
        self.text: str = text

    def _repr_mimebundle_(self, **_: Any) -> dict[str, str]:
        return showable_bundle({"text/html": self.html, "text/plain": self.text})

    def __repr__(self) -> str:
        return showable(self.text)


def show_table(rows: Sequence[Mapping[str, Any]], title: str | None = None) -> Shown:
    """Rows (dicts) as a table in the course's look. The columns are every key of every row, in
    the order they first appear (a key only some rows have is an empty cell in the others)."""
    if isinstance(rows, str | bytes | Mapping) or not isinstance(rows, Iterable):
        # a dict was read by its keys ("row 1 is a str"), None and a number were a raw TypeError
        fix = "put it in a list: show_table([row])" if isinstance(rows, Mapping) else "pass a list of dicts"
        raise ConfigurationError(
            f"show_table(): takes a list of rows, and got {type(rows).__name__}. "
            f'Fix: {fix}, e.g. show_table([{{"tool": "query_order", "tokens": 51}}])'
        )
    rows = list(rows)
    for number, row in enumerate(rows, 1):
        if not isinstance(row, Mapping):
            raise ConfigurationError(
                f"show_table(): row {number} is {a_kind_of(row)}, not a dict. "
                'Fix: pass one dict per row, e.g. show_table([{"tool": "query_order", "tokens": 51}])'
            )
    columns = list(dict.fromkeys(key for row in rows for key in row))
    shown = kept(len(rows), "rows")  # past SHOWN_ITEMS rows: the first and last 500, and a note
    cells = [i if isinstance(i, str) else [_cell(rows[i].get(c, "")) for c in columns] for i in shown]
    text = _text_table(columns, cells) if rows else "(no rows)"
    drawn = [row if isinstance(row, list) else [row, *[""] * (len(columns) - 1)] for row in cells]
    return Shown(page(table(columns, drawn), title), f"{title}\n{text}" if title else text)


def _text_table(columns: list[Any], cells: list[list[str] | str]) -> str:
    """The aligned plain table, each column as wide as its widest cell and each cell set to its
    right, as pandas' `to_string` sets them: widths measured as a terminal draws them
    (`toolkit.unicode.columns`: Chinese and emoji take two, a combining accent none), a character
    that acts instead of being seen written out first, and line breaks and tabs as `\\n`, `\\t`.
    A column is padded to `PADDED_COLUMNS` at most. A note among the rows (rows left out) is a line of its own."""
    if not columns:
        return "(no columns)"
    lines = [
        [flat(plain(c)) for c in columns],
        *([flat(shortened(cell)) for cell in row] for row in cells if isinstance(row, list)),
    ]
    widths = [min(max(map(unicode.columns, column)), PADDED_COLUMNS) for column in zip(*lines)]
    aligned = iter(" ".join(" " * (w - unicode.columns(t)) + t for t, w in zip(line, widths)) for line in lines)
    return "\n".join([next(aligned), *(row if isinstance(row, str) else next(aligned) for row in cells)])


def _cell(value: Any) -> str:
    return value if isinstance(value, str) else json_text(value, sort_keys=False)


def _check_exchange(exchange: object, where: str) -> None:
    """A `ConfigurationError` unless `exchange` is an `Exchange` (a readable line, not "'NoneType'
    object has no attribute 'status'")."""
    if not isinstance(exchange, Exchange):
        kind = f"the class {exchange.__name__}" if isinstance(exchange, type) else type(exchange).__name__
        raise ConfigurationError(
            f"{where}(): takes one Exchange (client.exchanges[-1], what the chat client recorded), and got "
            f"{kind}; for a response use show_response(...), for a loop's result TraceView(result)"
        )


def render_exchange_html(exchange: Exchange) -> Html:
    """One request/response pair, as the wire saw it (no API key: the client never stores it), but
    an image or other base64 data it sent as a marker (`blobs_marked`), not its base64."""
    _check_exchange(exchange, "render_exchange_html")
    status = "timeout / no answer" if exchange.status is None else str(exchange.status)
    kind = "ok" if exchange.status and exchange.status < 400 else "error"
    facts = kv_table([("POST", exchange.url), ("status", badge(status, kind)), ("attempt", str(exchange.attempt))])
    request = card("request body", code_block(blobs_marked(exchange.request)))  # images as markers
    response = card(
        "response body",
        code_block(exchange.response_text),  # SSE lines stay raw
        kind="assistant" if kind == "ok" else "error",
    )
    return page(join([facts, request, response]), "HTTP exchange")


def render_exchange_text(exchange: Exchange) -> str:
    """The exchange in three lines (its bodies cut at `SHOWN_CHARS`)."""
    _check_exchange(exchange, "render_exchange_text")
    status = "no answer" if exchange.status is None else exchange.status
    return showable(
        f"POST {exchange.url} (attempt {exchange.attempt}) -> {status}\n"
        f"request: {shortened(blobs_marked(exchange.request))}\n"
        f"response: {shortened(exchange.response_text)}"
    )


def show_exchange(exchange: Exchange) -> Shown:
    """One recorded HTTP exchange (`client.exchanges[-1]`): URL, attempt, status, the request body and the response text."""
    _check_exchange(exchange, "show_exchange")
    return Shown(render_exchange_html(exchange), render_exchange_text(exchange))


def show_response(response: ChatResponse) -> Shown:
    """One model response: finish reason, tokens and the message (text: a one-line transcript)."""
    check_response(response, "show_response")
    text = render_conversation_text([response.message], response.usage)
    if response.sources:  # the pages the answer's [1], [2] cite (Perplexity's)
        text += "\nsources:\n" + "\n".join(map(one_line, source_lines(response.sources).splitlines()))
    return Shown(render_response_html(response), text)
