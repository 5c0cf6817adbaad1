"""Scrubbing text that arrives in pieces: a key split over two deltas never shows, whole or in part.

`scrub` on each piece alone misses a key cut in two (`"sk-proj-AbCd"`, then `"Ef0123…"`: neither
piece is a key, and printed one after the other they are). `StreamScrubber` holds back what may
still turn out to be a secret and shows the rest scrubbed:

    scrubber = StreamScrubber()
    for piece in pieces:
        print(scrubber.feed(piece), end="")   # what can be shown now
    print(scrubber.flush())                   # the rest, at the end of the stream

1. What is held back: the text's last *run* (from its last `_DELIMITER_BACK` on): every secret
   `scrub` knows (a token, a labelled value, a URL's password, a path, an environment variable's
   value) is a run of characters without a blank, a closing double quote or a JSON bracket, and,
   outside a path, without a Chinese, Japanese or Korean letter or punctuation mark. So a piece
   is shown up to its last such character: English streams word by word, Chinese as it comes. A
   run is never cut, however long.
2. What is shown: the new text scrubbed *with what came before it* (`_CONTEXT` characters of it,
   or an open private key's `BEGIN` line), so a label in one piece and its value in the next are
   read together (`password is ` … `hunter2`). The text shown for the new part is what `scrub` of
   context and part adds to `scrub` of the context alone (after what the two start with alike).
3. `flush()` shows what is still held, scrubbed with its context: everything that is not secret
   comes out, in the end, exactly once.

The text shown, joined, is `scrub` of the whole text wherever each secret ends in a blank, a
line break or a letter of those scripts (the tests hold this on random streams), but that a
private key's `BEGIN` line shows its words (`-----BEGIN RSA PRIVATE [REDACTED]`: its blanks cut it).

A quoted value with blanks in it after a label (`password: 'two words'`) is held from its opening
quote until the closing one comes (`_open_quote`: at most `_OPEN_AT_MOST` characters; `scrub`
decides whether the value closed would be masked), so none of its words shows on the way.

Leaves out: the words of a secret environment variable's value that holds a blank, and a quoted
value still open after `_OPEN_AT_MOST` characters. Those are masked when the whole text is
scrubbed (the trace view, the final state of `StreamView`), not while it streams.
"""

from __future__ import annotations

import os
import re
from collections import deque

from toolkit.tools.redact import _CJK_LETTERS, _CJK_QUOTES, scrub

_DELIMITER_BACK = re.compile(
    "[\\s{}\\[\\]"
    + _CJK_LETTERS
    + "\u3000-\u303f\u2018-\u201f\uff01-\uff0c\uff1a-\uff20\uff3b-\uff3e\uff40\uff5b-\uff65]"
    '|"(?![\\s=:(,\\[{]|\\Z)'
)
"""What ends a run, read on the reversed text (the last one is the first found): a blank, a JSON
brace or bracket, a closing double quote (one after a blank, `=`, `:`, `(`, `,`, `[`, `{` or at
the start opens a value, which the run then holds), a letter of Chinese, Japanese or Korean, or a
punctuation mark of those scripts (`，`, `。`, `：`, `“`, `「`, full-width brackets). No key holds
one, so a call's JSON arguments show string by string. Full-width letters, digits, `－`, `＿` and
`．` do not end a run: a key can be written in them."""
_CONTEXT = 256
"""Characters of the text already shown that a new part is scrubbed with (a label, a `Bearer`, a
command line: what makes the next word a secret is on the same line, close before it)."""
_PRIVATE_BEGIN = re.compile(r"-{4,5} ?BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)? ?-{4,5}")
_PRIVATE_END = re.compile(r"-{4,5} ?END [A-Z0-9 ]*PRIVATE KEY")


class StreamScrubber:
    """`feed(piece)` → the text that can be shown now, scrubbed; `flush()` → the rest."""

    def __init__(self) -> None:
        self._held: list[str] = []
        """Pieces received but not shown: together, the last run so far."""
        self._context = ""
        """The end of the text already shown, as it came (not scrubbed)."""
        self._last = ""
        """The last character received (is a quote at a piece's start an opening one?)."""
        self._start = 0
        """Where `_context` starts in the whole text (counted in characters)."""
        self._judged: dict[int, bool] = {}
        """Opening quotes already judged by `_open_quote` (where in the whole text → opens a secret)."""

    def feed(self, piece: str) -> str:
        """Take one more piece; return what of the text so far can be shown (maybe "")."""
        end = _last_end(piece, self._last)
        self._last = piece[-1:] or self._last
        if end == 0:  # the run goes on: nothing more can be shown yet
            if piece:
                self._held.append(piece)
            return ""
        shown = "".join(self._held) + piece[:end]
        rest = [piece[end:]] if end < len(piece) else []
        opened = _open_quote(self._context + shown, self._start, self._judged)
        if opened is not None:  # a quoted secret still open: held from its opening quote on
            at = max(0, opened - len(self._context))
            shown, rest = shown[:at], [shown[at:], *rest]
        self._held = rest
        return self._show(shown) if shown else ""

    def flush(self) -> str:
        """The text still held back, scrubbed: call it once the stream has ended."""
        held, self._held = "".join(self._held), []
        return self._show(held) if held else ""

    def _show(self, part: str) -> str:
        """`part` scrubbed as the text shown before it reads it, and the context moved on."""
        before = scrub(self._context) if self._context else ""
        after = scrub(self._context + part)
        whole = self._context + part
        self._context = _kept(whole)
        self._start += len(whole) - len(self._context)
        self._judged = {at: secret for at, secret in self._judged.items() if at >= self._start}
        same = len(os.path.commonprefix([before, after]))
        return after[same:]  # what was shown already may read otherwise now: what follows the same start


def _kept(text: str) -> str:
    """The context to keep: an open private key's `BEGIN` line and the current line (all that
    follows the `BEGIN` is masked until its `END` line, which may be arriving), else the last
    `_CONTEXT` characters, from a blank on."""
    begin = next(iter(deque(_PRIVATE_BEGIN.finditer(text), maxlen=1)), None)  # the last one
    if begin is not None and _PRIVATE_END.search(text, begin.end()) is None:
        return begin.group(0) + "\n" + text[max(begin.end(), text.rfind("\n") + 1) :]  # and the line so far
    if len(text) <= _CONTEXT:
        return text
    blank = _BLANK.search(text, len(text) - _CONTEXT)
    return text[blank.end() :] if blank is not None else text[len(text) - _CONTEXT :]


_BLANK = re.compile(r"\s")


def settled(text: str) -> str:
    """What of a text still arriving can be shown scrubbed whole: all of it up to its last
    `_DELIMITER_BACK` (the last run may still grow into a secret). A live view shows `scrub` of this
    while the text streams, and `scrub` of all of it once it has ended."""
    end = _last_end(text, "")
    opened = _open_quote(text[:end])
    return text[: end if opened is None else opened]


_QUOTES = {'"': '"', "'": "'", "\u2018": "\u2019", **_CJK_QUOTES}
"""Opening quotes and their closing ones: ASCII, ‘…’, and those `scrub` reads around a Chinese value (“…”, 「…」, 『…』)."""
_OPEN_AT_MOST = 256
"""Characters after an opening quote, at most, while its value is held for the closing one."""
_LABEL_REACH = 64
"""Characters before an opening quote read with it (a label is close before its value)."""


def _open_quote(text: str, start: int = 0, judged: dict[int, bool] | None = None) -> int | None:
    """Where the value of a quoted secret still open at the end of `text` starts (the index after
    its opening quote), or `None`: the last opening quote of each kind with no closing one after it
    (within `_OPEN_AT_MOST`), whose value `scrub` masks once the quote is closed (`password: 'two `
    closed is `password: '[REDACTED]'`). `scrub`'s own rules decide, so every label it reads
    (`DB_PASS="`, `password is "`, `密码是「`) holds its value, and an apostrophe does not.

    `judged` keeps, by where each quote stands in the whole text (`text` starts at `start`), the
    quotes found to open no secret: a stream judges each once (an apostrophe, a JSON string's quote),
    not at every piece; one that opens a secret is judged again until its value closes."""
    found = None
    for opening, closing in _QUOTES.items():
        at = text.rfind(opening)
        if at < 0 or len(text) - at > _OPEN_AT_MOST or (closing != opening and closing in text[at:]):
            continue
        if judged is not None and judged.get(start + at) is False:
            continue
        window = text[max(0, at - _LABEL_REACH) :]
        secret = scrub(window + closing) != scrub(window) + closing
        if judged is not None:
            judged[start + at] = secret
        if secret:
            found = at + 1 if found is None else min(found, at + 1)
    return found


def _last_end(text: str, before: str) -> int:
    """Where the last delimiter of `text` ends (0: none); `before` is the character before `text`."""
    last = _DELIMITER_BACK.search((before + text)[::-1])  # the last delimiter: the first read backward
    return len(text) - last.start() if last is not None and last.start() < len(text) else 0
