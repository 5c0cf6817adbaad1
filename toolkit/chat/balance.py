"""Whether a tool call's streamed arguments may be a whole JSON object yet, read fragment by fragment.

The stream assembler asks, for a delta with a fresh id, whether the call it would continue has
complete arguments (`toolkit.chat.sse`). The plain answer, `whole_object(text)`, joins every
fragment and parses them: a gateway that sends a fresh id with each of 10,000 fragments would
have them joined and parsed 10,000 times (quadratic: seconds for 100 KB of arguments).
`Balance` reads each fragment once, as it comes, and keeps how deep in braces the text is
(outside strings, escapes followed); only a text whose braces close at its end, last, can be a
whole object, so only such a text is parsed. Once one is parsed and is not an object, nothing
added after it can make one (its top-level braces closed, so anything more but white space is
extra data): the answer stays no without parsing again. A yes is kept until a fragment that is not
blank comes: a gateway restating a call with `arguments: ""` on every delta after its arguments are
whole does not have them parsed again for each. `tests/test_chat_balance.py` holds the
answers equal to `whole_object` of the joined text after every fragment.

Leaves out: any other JSON check: brackets, commas and literals are for the parser, when the
braces say it is worth parsing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

_STRUCTURE = re.compile(r'[{}"\\]')


def whole_object(text: str) -> bool:
    """Whether `text` (white space around it aside) is one JSON object: the plain definition."""
    text = text.strip()
    if not text.endswith("}"):
        return False
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False


@dataclass
class Balance:
    """The braces of fragments read so far (`read`), outside strings; `whole(fragments)` reads
    the fragments added since and answers `whole_object("".join(fragments))`."""

    read: int = 0
    depth: int = 0
    in_string: bool = False
    escaped: bool = False
    """The last fragment read ended inside a string, just after a backslash."""
    last: str = ""
    """The last character read that is not white space."""
    never: bool = False
    """No text that starts with what was read can be a whole object."""
    answered: bool | None = None
    """The answer for the text read, once it was parsed; blank fragments after it leave it as it is."""

    def whole(self, fragments: list[str]) -> bool:
        for fragment in fragments[self.read :]:
            self._feed(fragment)
        self.read = len(fragments)
        if self.never or self.depth != 0 or self.in_string or self.last != "}":
            return False
        if self.answered is None:  # parsed once for what was read: a delta with blank arguments adds nothing
            self.answered = whole_object("".join(fragments))
        self.never = not self.answered  # its top-level braces closed and it is not an object: nothing added can
        return self.answered  # make one

    def _feed(self, fragment: str) -> None:
        skip = 0  # a position inside a string just after a backslash: the escaped character
        if self.escaped and fragment:
            skip, self.escaped = 1, False
        for found in _STRUCTURE.finditer(fragment, skip):
            at = found.start()
            if at < skip:
                continue
            mark = found.group()
            if self.in_string:
                if mark == "\\":
                    skip = at + 2
                    self.escaped = skip > len(fragment)
                elif mark == '"':
                    self.in_string = False
            elif mark == '"':
                self.in_string = True
            elif mark == "{":
                self.depth += 1
            elif mark == "}":
                self.depth -= 1
                self.never = self.never or self.depth < 0  # more closed than opened: never an object
        stripped = fragment.rstrip()
        if stripped:
            self.last, self.answered = stripped[-1], None
