"""The web sources a search-grounded model cited, kept on its reply (Perplexity's Sonar models).

Perplexity's chat completions answer in OpenAI's shape with two fields of their own beside `choices`
(docs.perplexity.ai, "Chat Completions"): `search_results`, the pages its search read (`title`, `url`,
`date`), and `citations`, their URLs alone (the older field, still sent). The answer's text cites them
by number (`… is 8,849 m [1][2].`), so dropping them left the learner with markers that point nowhere.
`sources_of(data)` reads them, `search_results` first (it has the titles), else `citations`, into
`ChatResponse.sources`, numbered as the text numbers them; a stream's chunks carry them too, and the
last chunk that does is the one kept. The response view lists them under the answer; the loop keeps each
reply's on its `RoundTrace.sources`, and `LoopResult.sources` gives the answer's.

What is kept is bounded (`MAX_SOURCES` entries; a URL, a title and a date cut to `MAX_CHARS`) and
only what is a string: a source without a URL, or of another shape, is left out. Sources are never
sent back to the model (they are not the message's).

Leaves out: Perplexity's `images` and `related_questions` (asked for with `return_images` /
`return_related_questions`), OpenAI's own `annotations` of `url_citation` inside the message.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

MAX_SOURCES = 50
"""At most this many sources are kept (Perplexity sends some 5 to 20)."""
MAX_CHARS = 2000
"""A source's URL, title or date is cut to this many characters."""


class Source(BaseModel):
    """One web page a reply cites: its URL, and its title and date when the gateway gave them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str
    title: str = ""
    date: str = ""

    def line(self, number: int) -> str:
        """`[1] title (date) — url`, as the views list it."""
        named = " ".join(filter(None, [self.title, f"({self.date})" if self.date else ""]))
        return f"[{number}] {named} — {self.url}" if named else f"[{number}] {self.url}"


def sources_of(data: dict[str, Any]) -> tuple[Source, ...]:
    """The sources a completion (or a stream's chunk) names: its `search_results`, else its `citations`;
    () when it names none in a shape read here."""
    results = data.get("search_results")
    if isinstance(results, list) and results:
        found = tuple(filter(None, map(_result, results[:MAX_SOURCES])))
        if found:
            return found
    citations = data.get("citations")
    if isinstance(citations, list):
        return tuple(Source(url=url[:MAX_CHARS]) for url in citations[:MAX_SOURCES] if _text(url))
    return ()


def _result(entry: Any) -> Source | None:
    """One of `search_results`, or None when it has no URL."""
    if not isinstance(entry, dict) or not _text(entry.get("url")):
        return None
    title, date = entry.get("title"), entry.get("date")
    return Source(
        url=entry["url"][:MAX_CHARS],
        title=" ".join(title.split())[:MAX_CHARS] if isinstance(title, str) else "",
        date=date.strip()[:MAX_CHARS] if isinstance(date, str) else "",
    )


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())
