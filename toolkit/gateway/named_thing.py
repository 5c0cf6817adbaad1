"""A string field named for a thing takes the thing as the text names it: "lock the front door" to `door` is
"front door", "is the kitchen light on?" to `light_name` "kitchen light".

A string field no fact, label, phrase, default or example fills takes the user's whole words, so "is the front door
locked?" called get_door_status(door="is the front door locked?"). A model passes the thing the user named, with the
words that tell it apart. `named_thing(name, text)` finds a word of the field's name (three letters or more, none of
`_PLAIN`: an `id`, a `name`, a `text` are no thing) written in the text after an article or a possessive, with up to
two words before it ("the front door", "my living room lamp", "our garage door"), its plural too ("the kitchen
lights"). Left out: Chinese (its words are not split), a thing written without an article ("lock front door"), and
a field named for no thing the text writes.
"""

from __future__ import annotations

import functools
import re

_PLAIN = frozenset(
    "name text query value the and for with from into type kind mode state status input output data info string"
    " message content description title label key code number".split()
)
_WORDS = re.compile(r"[a-z]+|[A-Z][a-z]+|[A-Z]+(?![a-z])")
_NOT_BEFORE = r"(?!(?:the|a|an|my|our|your|is|are|it|this|that|and|or|to|in|on|of|for)\b)"


@functools.lru_cache(maxsize=512)
def _thing_pattern(name: str) -> re.Pattern[str] | None:
    words = [w.lower() for w in _WORDS.findall(name) if len(w) > 2 and w.lower() not in _PLAIN]
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(
        rf"(?i)\b(?:the|my|our|your|this|that)\s+((?:{_NOT_BEFORE}[A-Za-z][\w'’-]*\s+){{0,2}}(?:{alternatives})(?:s|es)?)\b"
    )


def named_thing(name: str, text: str) -> str | None:
    """The thing the text names for the field `name` ("front door" for `door`), or None."""
    pattern = _thing_pattern(name)
    if pattern is None:
        return None
    match = pattern.search(text[:2_000])
    return match.group(1) if match is not None else None
