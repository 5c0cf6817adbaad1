"""A boolean field named for a lock takes the state the user asks for: "lock the front door" to `lock_door(door,
locked: bool)` is locked=true, "unlock the garage" false, 锁上/锁门 true, 解锁/打开门锁 false.

The filler gave every boolean its default, else false, so "lock the front door" called lock_door(locked=false) and
left the door open; `switched` reads on/off switches only. `asked_lock(name, text)` reads the text for a field whose
name is a lock's (`locked`, `lock`, `is_locked`, `lockState`: `_LOCKS`): the last lock or unlock word it writes.
Left out: a field named for the open state (`unlocked`, `open`), whose true is the word "unlock".
"""

from __future__ import annotations

import re

_LOCKS = frozenset(("locked", "lock", "is_locked", "islocked", "lock_state", "lockstate", "should_lock"))
_STATE = re.compile(
    r"(?i)(?<![a-z])(?:(?P<off>unlock)|(?P<on>lock))(?![a-z])|(?P<zh_off>解锁|开锁)|(?P<zh_on>锁上|锁门|上锁|锁好|锁)"
)
_CUE = re.compile(r"(?i)lock|锁")


def asked_lock(name: str, text: str) -> bool | None:
    """True or False when the field `name` is a lock's and the text asks to lock or unlock (its last such word); None
    otherwise (the field is made as before)."""
    if name.lower() not in _LOCKS or _CUE.search(text) is None:
        return None
    state = None
    for m in _STATE.finditer(text):
        state = m.group("on") is not None or m.group("zh_on") is not None
    return state
