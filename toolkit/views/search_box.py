"""A search box over the tool catalogue: keyword and vector results side by side.

    SearchBox()                      # the 329-tool catalogue of week 8

Type a query and press Search or Enter: keyword search gets the query's words as its terms,
vector search the whole query. Each column shows the tools found with their scores (keyword:
+2 per term in the name, +1 in the description; vector: cosine similarity) and, below, the
text the model reads as the search tool's result.

Leaves out: the loop (week 8's notebook runs search inside it).
"""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as widgets

from toolkit.errors import ConfigurationError, a_kind_of
from toolkit.search.keyword import KeywordIndex, KeywordSearch, catalogue
from toolkit.search.tool import SearchOutcome, ToolSearch, built_index
from toolkit.search.vector import VectorIndex, VectorSearch
from toolkit.views.conversation import TextRepr
from toolkit.views.html import NO_MATH, escape, showable_bundle
from toolkit.views.search import render_search_html, render_search_text

_SPECS = "SearchBox(specs)"
"""What an error about the catalogue a search box was given names."""


class SearchBox(TextRepr, widgets.VBox):
    """Keyword and vector search over one catalogue, for one query at a time."""

    keyword: ToolSearch
    """The keyword search tool."""
    vector: ToolSearch
    """The vector search tool."""
    keyword_index: KeywordIndex
    """The catalogue, indexed for `keyword`."""
    vector_index: VectorIndex
    """The catalogue, indexed for `vector`."""
    query: widgets.Text
    """The query box (Enter, or leaving it, searches)."""
    button: widgets.Button
    """Search."""
    left: widgets.HTML
    """The keyword outcome."""
    right: widgets.HTML
    """The vector outcome."""
    outcomes: tuple[SearchOutcome, SearchOutcome]
    """The last search's outcomes: keyword, then vector."""

    def __init__(self, specs: Any = None, query: str = "where is my parcel", **kwargs: Any) -> None:
        if not isinstance(query, str):  # ipywidgets' TraitError would not name SearchBox
            raise ConfigurationError(
                f"SearchBox(query): takes the query as text, and got {a_kind_of(query)}; "
                "e.g. SearchBox(query='where is my parcel')"
            )
        if specs is None:
            from toolkit.search.catalog import load_catalog

            specs = load_catalog().tools
        specs = catalogue(specs, _SPECS)  # a generator, read once: the vector index got what the keyword one left
        self.keyword, self.vector = ToolSearch(KeywordSearch()), ToolSearch(VectorSearch())
        self.keyword_index = built_index(self.keyword, specs, _SPECS)
        self.vector_index = built_index(self.vector, specs, _SPECS)
        self.query = widgets.Text(value=query, description="query", continuous_update=False)
        self.button = widgets.Button(description="Search", button_style="primary")
        self.left, self.right = widgets.HTML(), widgets.HTML()
        self.button.on_click(lambda _: self.search())
        self.query.observe(lambda _: self.search(), names="value")  # Enter (or leaving the box) searches
        super().__init__([widgets.HBox([self.query, self.button]), widgets.HBox([self.left, self.right])], **kwargs)
        self.search()

    def search(self) -> tuple[SearchOutcome, SearchOutcome]:
        text = self.query.value.strip()
        terms = text.split() or [""]
        self.outcomes = (
            self.keyword.search(json.dumps({"terms": terms}), self.keyword_index),
            self.vector.search(json.dumps({"query": text}), self.vector_index),
        )
        for pane, outcome, title in (
            (self.left, self.outcomes[0], f"keyword: {terms}"),
            (self.right, self.outcomes[1], f"vector: {text!r}"),
        ):
            reads = f"<b>the model reads</b><pre style='white-space:pre-wrap'>{escape(outcome.text())}</pre>"
            pane.value = render_search_html(outcome, title=title) + reads
        return self.outcomes

    def text(self) -> str:
        keyword, vector = self.outcomes
        return "\n\n".join(
            f"{name} search\n{render_search_text(o)}\nthe model reads:\n{o.text()}"
            for name, o in (("keyword", keyword), ("vector", vector))
        )

    def _plain_text(self) -> str:
        return self.text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = self._widget_bundle(**kwargs)
        html = f'<div class="{NO_MATH}" style="display:flex;gap:12px"><div>{self.left.value}</div><div>{self.right.value}</div></div>'
        return showable_bundle({**bundle, "text/plain": self.text(), "text/html": html})
