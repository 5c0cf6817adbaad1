"""toolkit.gateway.locked: a lock's boolean takes the state the user asks for."""

import pytest
from test_gateway_generic_asks import S, fn, turn

from toolkit.gateway.locked import asked_lock

DOOR = [fn("lock_door", "Lock or unlock a door", {"door": S, "locked": {"type": "boolean"}})]


@pytest.mark.parametrize(
    ("name", "text", "state"),
    [
        ("locked", "lock the front door", True),
        ("locked", "unlock the garage door", False),
        ("is_locked", "unlock it, no wait, lock it", True),
        ("lock", "把前门锁上", True),
        ("locked", "解锁车库门", False),
        ("locked", "is the door locked?", None),
        ("on", "lock the front door", None),
        ("locked", "open the door", None),
    ],
)
def test_the_last_lock_word_gives_the_state(name, text, state):
    assert asked_lock(name, text) is state


@pytest.mark.parametrize(
    ("text", "state"), [("lock the front door", True), ("解锁车库门", False), ("把前门锁上", True)]
)
def test_lock_door_is_called_with_the_state_asked(text, state):
    """ "lock the front door" called lock_door(locked=false): every boolean was its default or false."""
    calls = turn(text, DOOR)[0]
    assert [(n, a["locked"]) for n, a in calls] == [("lock_door", state)]
