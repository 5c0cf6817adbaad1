"""toolkit.gateway.state_question: a yes/no question about a state, and a tool that changes one."""

import pytest

from toolkit.gateway.state_question import asks_state, sets_state


@pytest.mark.parametrize(
    "text",
    ["is the front door locked?", "Are the lights on?", "is my garage door still open?", "前门锁了吗？", "空调开着吗"],
)
def test_a_question_about_a_state(text):
    assert asks_state(text)


@pytest.mark.parametrize(
    "text",
    ["lock the front door", "is it going to rain?", "what is on my calendar?", "is the door locked? if not lock it"],
)
def test_no_question_about_a_state(text):
    assert not asks_state(text)


@pytest.mark.parametrize(
    ("name", "sets"),
    [("lock_door", True), ("turnOnLight", True), ("set-mode", True), ("get_door_status", False), ("locker", False)],
)
def test_a_tool_that_changes_a_state_starts_with_its_verb(name, sets):
    assert sets_state(name) is sets
