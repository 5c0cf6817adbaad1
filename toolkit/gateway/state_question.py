"""A yes/no question about a state is not an order to change it: "is the front door locked?" calls no setter.

The words of "is the front door locked?" found `lock_door(door, locked)` (it was the only tool they score), and the
filler made the call: a question about the lock's state locked or unlocked the door. A model reads no order in it;
with a tool that reads the state it calls that one (the question rule picks a reading verb, `[generic] question`),
and with only a tool that changes it, it says it cannot check and offers the change. `asks_state(text)` is true of
a question whose only content is a thing and a state ("is the garage door open?", "are the lights on?", 前门锁了吗？,
空调开着吗); `sets_state(name)` of a tool whose name starts with a verb that changes a state (lock, unlock, set,
turn, toggle, open, close, switch, enable, disable, arm, disarm, start, stop, mute). Left out: a question that also
asks for a change ("is the door locked? if not, lock it"), and states not in `_STATES`.
"""

from __future__ import annotations

import re

_STATES = (
    r"locked|unlocked|on|off|open|opened|closed|shut|running|armed|disarmed|enabled|disabled|muted|unmuted"
    r"|plugged\s+in|charging|connected|online|offline|active|paused"
)
_QUESTION = re.compile(
    rf"(?i)^\s*(?:is|are|was|were)\s+(?:the\s+|my\s+|our\s+|your\s+)?[\w'’ -]{{1,40}}?\s+(?:still\s+)?"
    rf"(?:{_STATES})(?:\s+(?:now|right\s+now|yet))?\s*[?？]+\s*$"
    r"|(?:锁了|锁上了|锁好了|开着|关着|关了|关上了|开了|打开了|在线|离线|在运行|开启了|关闭了)(?:吗|没有?)\s*[?？]?\s*$"
)
_SETTERS = frozenset(
    "lock unlock set turn toggle open close switch enable disable arm disarm start stop mute unmute shut".split()
)
_FIRST_WORD = re.compile(r"[a-z]+|[A-Z][a-z]*")


def asks_state(text: str) -> bool:
    """Whether `text` only asks whether a thing is in a state ("is the front door locked?", 前门锁了吗)."""
    return len(text) <= 200 and _QUESTION.search(text) is not None


def sets_state(name: str) -> bool:
    """Whether the tool `name` starts with a verb that changes a state (`lock_door`, `turnOnLight`, `set-mode`)."""
    first = _FIRST_WORD.match(name)
    return first is not None and first.group().lower() in _SETTERS
