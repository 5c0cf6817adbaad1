"""How much of a tool's result the model reads: `LoopOptions.max_result_chars` (`MAX_RESULT_CHARS`,
100,000 characters, by default; None sends every result whole).

A tool that returned 100 MB (a log file, a table of ten million rows written as JSON) sent it all
to the model, in this request and, from memory, in every later one: a request no gateway takes (or
one that is paid for). The loop keeps a result's first `max_result_chars` characters, never
splitting what a reader sees as one character (`toolkit.unicode.boundary`), and adds a line
telling the model how long the result was and to ask for less (`LoopTexts.result_cut`); the
learner reads a warning naming the call. That is what memory stores and later requests send.
The trace (`LoopResult.rounds[i].executions`) and an immediate return's `immediate_results` keep
the text as the tool wrote it: nothing the tool gave is lost to the caller.

The cut is a length check on the usual path (`cut_results`): a result is copied only when it is
cut. An MCP tool's result is cut by its provider first (`McpToolProvider(max_result_chars=...)`,
the same default, with the same English note): a text that ends with such a note, and is within
the limit without it, is not cut again (`already_cut`), which lost the provider's note and had the
loop's name the wrong length.

LangChain4j cuts nothing; the OpenAI Agents SDK neither; Claude Code cuts a tool's output (its
MCP tools at 25,000 tokens, about as much as 100,000 characters).

A tool's handled error (`ToolOutput(..., is_error=True)`), and the text of an error policy of
one's own, has its secrets masked before anyone reads it, and masking 10 MB took up to a minute
(look-alike characters). `Tool.run` is given the turn's limit and note (`Cutting`): a text within
`READ_PAST` characters past the limit (or any, with None) is masked whole and cut by the loop as any
result is; a longer one has only a head masked, `READ_PAST` characters past the limit, cut there
with the turn's note naming the whole length (`cut_cleaned`), which the loop leaves as it is (it
warns only for what it cuts itself). A secret straddling the cut is masked whole (the mask read past
it); one straddling where the read stopped is left out whole (the head is read further until what
is kept ends `READ_PAST // 2` characters before it: masking shrinks a head of tokens). That text,
cut, is the error result the trace keeps too. (Until the forty-ninth session the cut there was at
`MAX_RESULT_CHARS` whatever the turn's limit: with None an error was still cut at 100,000.)

Leaves out: bounding the work of writing a value as text (a list of ten million items is still
written as JSON once, then cut: `toolkit.tools.result_text` reads an iterator to `ITEMS_READ`
items, not a list), and cutting by tokens (characters are what every gateway counts the same).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from toolkit.chat.messages import ToolResultMessage
from toolkit.unicode import boundary

MAX_RESULT_CHARS = 100_000
"""How many characters of a tool's result the model reads by default (`LoopOptions.max_result_chars`)."""

CUT_NOTE = (
    "\n[cut here: the result has {total} characters, and only the first {kept} are shown; if you need the rest, "
    "call the tool again for less at a time]"
)
"""The line after a cut result, in English (`LoopTexts.result_cut`; MCP's provider writes it too)."""

_NOTE_AT_END = re.compile(
    re.escape(CUT_NOTE).replace(re.escape("{total}"), "[0-9,]+").replace(re.escape("{kept}"), "[0-9,]+") + r"\Z"
)


def cut_result(text: str, limit: int | None, note: str = CUT_NOTE) -> str:
    """`text`'s first `limit` characters and `note` (formatted with `total` and `kept`, each written
    with thousands separators); `text` itself when it is not longer, or already cut within `limit`."""
    return _cut(text, limit, note)[0]


def _cut(text: str, limit: int | None, note: str) -> tuple[str, int]:
    """`(cut_result(...), how many of text's characters it keeps)`."""
    if limit is None or len(text) <= limit or already_cut(text, limit, note):
        return text, len(text)
    kept = boundary(text, limit)  # where a character a reader sees ends (not inside an emoji)
    return text[:kept] + note.format(total=f"{len(text):,}", kept=f"{kept:,}"), kept


def already_cut(text: str, limit: int, note: str = CUT_NOTE) -> bool:
    """Whether `text` ends with the note of a cut (`CUT_NOTE`, or `note`: the turn's own, `LoopTexts.result_cut`)
    and is within `limit` without it."""
    for template in (CUT_NOTE,) if note == CUT_NOTE else (CUT_NOTE, note):
        found = _note_at_end(template).search(text, max(0, len(text) - len(template) - 60))
        if found is not None and found.start() <= limit:
            return True
    return False


@functools.lru_cache(maxsize=16)
def _note_at_end(note: str) -> re.Pattern[str]:
    """A pattern finding `note` (its `{total}` and `{kept}` any numbers) at a text's end."""
    if note == CUT_NOTE:
        return _NOTE_AT_END
    pattern = re.escape(note).replace(re.escape("{total}"), "[0-9,]+").replace(re.escape("{kept}"), "[0-9,]+")
    pattern = pattern.replace(re.escape("{{"), re.escape("{")).replace(re.escape("}}"), re.escape("}"))
    return re.compile(pattern + r"\Z")


READ_PAST = 40_000
"""How far past a cut a text is masked (`cut_cleaned`); half of it is longer than any secret it
masks (an RSA private key of 16,384 bits is some 13,000 characters)."""


def scrubbed_cut(text: str, limit: int, scrub: Callable[[str], str], ending: Callable[[int, int], str]) -> str:
    """`scrub(text)` when it is read whole (`scrubbed_head`); else a head of it scrubbed, cut to its first
    `limit` characters (never inside a character a reader sees) and followed by `ending(total, kept)`,
    `total` being `text`'s own length. The one walk behind `cut_cleaned` (what the model reads of a long
    error) and `toolkit.views.conversation.scrubbed_text` (what a view shows)."""
    head, whole = scrubbed_head(text, limit, scrub)
    if whole:
        return head
    kept = boundary(head, limit)
    return head[:kept] + ending(len(text), kept)


def scrubbed_head(text: str, limit: int, scrub: Callable[[str], str]) -> tuple[str, bool]:
    """`(scrub(text), True)`, or, for a long text, `(scrub(a head of it), False)` whose first `limit`
    characters hold no piece of a secret: `scrub` is given the first `limit + READ_PAST` characters
    (more, doubled, while masking leaves fewer than `limit + READ_PAST // 2`)."""
    read = limit + READ_PAST
    if len(text) <= read:
        return scrub(text), True
    head = scrub(text[:read])
    while len(head) < limit + READ_PAST // 2 and read < len(text):  # a secret cut where the read stopped is in
        read *= 2  # the head's last READ_PAST // 2 characters: past what is kept only when the head is that long
        head = scrub(text[:read])
    return head, read >= len(text)


class Cutting(NamedTuple):
    """Where a turn cuts a result (`LoopOptions.max_result_chars`; None: nowhere) and the line after
    a cut (`LoopTexts.result_cut`): `Tool.run` cuts a long error text by it while masking its secrets."""

    limit: int | None
    note: str


DEFAULT_CUTTING = Cutting(MAX_RESULT_CHARS, CUT_NOTE)
"""A turn's cutting under the default options (and `Tool.run`'s outside a turn)."""


def cut_cleaned(text: str, cutting: Cutting, scrub: Callable[[str], str]) -> str:
    """`scrub(text)`, the whole text when that is quick (within `limit + READ_PAST`, or no limit): the loop
    cuts it as any result (`cut_results`: the turn's note, a warning for the learner). A longer text has
    only a head masked (`scrubbed_head`), cut here at the turn's limit with the turn's note naming the
    text's whole length, which the loop then leaves as it is (`already_cut`)."""
    limit = cutting.limit
    if limit is None or len(text) <= limit + READ_PAST:
        return scrub(text)
    return scrubbed_cut(
        text, limit, scrub, lambda total, kept: cutting.note.format(total=f"{total:,}", kept=f"{kept:,}")
    )


class Cut(NamedTuple):
    """A result the loop cut (`cut_results`): the call it answers, how long its text was, how much is kept."""

    call_id: str
    tool_name: str
    total: int
    kept: int


def cut_results(
    results: Sequence[ToolResultMessage], limit: int | None, note: str
) -> tuple[list[ToolResultMessage], list[Cut]]:
    """`(results, cuts)`: the results with each text past `limit` cut (`cut_result`), and what was
    cut. The usual round (every text within the limit) is one length check a result."""
    out = list(results)
    if limit is None:
        return out, []
    cuts: list[Cut] = []
    for i, result in enumerate(out):
        if len(result.content) > limit:
            text, kept = _cut(result.content, limit, note)
            if text is not result.content:
                out[i] = result.model_copy(update={"content": text})
                cuts.append(Cut(result.tool_call_id, result.tool_name, len(result.content), kept))
    return out, cuts
