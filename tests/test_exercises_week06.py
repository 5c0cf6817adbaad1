"""Week 6's checks with other learners' code: a window that drops messages from a conversation that fits in n is
told that nothing leaves, not only both lists of roles to compare."""

import pytest
from test_exercises_checkers import window_mutant

from toolkit.exercises import check


@pytest.mark.parametrize(
    ("loop", "said"),
    [
        (  # the oldest turns' loop; the current turn's earlier rounds (`while middle and`) are told the same
            "while before and",
            "for n=18 and [system user assistant user assistant user assistant tool tool tool assistant user assistant "
            "tool tool assistant tool assistant] you keep 16 messages, but all 18 fit in n=18: none leaves until more "
            "than n would be kept",
        ),
    ],
)
def test_a_window_that_drops_while_n_are_kept_is_told_the_conversation_fits(loop, said):
    """Before: 'you keep [16 roles], the memory keeps [18 roles]' — the learner was left to count both lists to
    find that nothing should have left (their loop dropped while n were kept: >= for >)."""
    keep = window_mutant(
        f"{loop} len(system + before + head + middle + tail) > n",
        f"{loop} len(system + before + head + middle + tail) >= n",
    )
    result = check("w6.window", keep)
    assert (result.status, result.feedback) == ("failed", said)


def keep_last_n(messages, n):
    """A learner's window: the system message, then the last n-1 messages, without a tool result at its start."""
    from toolkit import SystemMessage, ToolResultMessage

    system = [m for m in messages[:1] if isinstance(m, SystemMessage)]
    kept = list(messages[len(system) :])[len(system) - n :]
    while kept and isinstance(kept[0], ToolResultMessage):
        kept = kept[1:]
    return system + kept


def keep_from_the_latest_user(messages, n):
    """A learner's window that keeps the latest user message and what follows, but drops the current round's
    earlier messages past n."""
    from toolkit import SystemMessage

    system = [m for m in messages[:1] if isinstance(m, SystemMessage)]
    rest = list(messages[len(system) :])
    users = [i for i, m in enumerate(rest) if m.role == "user"]
    if not users:
        return system + rest[-(n - len(system)) :]
    kept = rest[users[-1] :]
    return system + kept[: max(1, n - len(system))]


@pytest.mark.parametrize(
    ("keep", "said"),
    [
        (
            keep_last_n,
            "for n=4 and [user assistant tool tool assistant] you keep [assistant tool tool assistant], the memory "
            "keeps [user assistant tool tool assistant] — the latest user message never leaves, even when that keeps "
            "more than n",
        ),
        (
            keep_from_the_latest_user,
            "for n=4 and [user assistant tool tool assistant] you keep [user assistant tool tool], the memory keeps "
            "[user assistant tool tool assistant] — the current round (from the latest reply that calls tools on) "
            "never leaves, even when that keeps more than n",
        ),
    ],
)
def test_a_window_that_drops_what_always_stays_is_told_what_that_is(keep, said):
    """Before: only both lists of roles, 'you keep [assistant tool tool assistant], the memory keeps [user …]': the
    learner was left to find which message should have stayed, and that it stays whatever n is."""
    result = check("w6.window", keep)
    assert (result.status, result.feedback) == ("failed", said)


def test_a_window_that_keeps_a_reply_without_its_question_is_told_the_kept_part_starts_with_a_user_message():
    """Before: a window that dropped the oldest messages but not up to the next user message was told only both
    lists of roles ('you keep [system assistant tool tool …], the memory keeps [system user …]'): the rule it missed
    was left to be found by comparing them."""
    keep = window_mutant(
        "while user is not None and len(before) < full and before and not isinstance(before[0], UserMessage):",
        "while False:",
    )
    result = check("w6.window", keep)
    assert result.status == "failed"
    assert result.feedback.startswith("for n=17 and [system user assistant tool tool assistant"), result.feedback
    assert result.feedback.endswith(
        " — once messages leave, what is kept starts with a user message: a reply left without its question "
        "answers nothing the model can see"
    ), result.feedback


def test_a_window_that_keeps_the_current_turns_earlier_rounds_is_told_they_leave_too():
    """Before: a window that never dropped the rounds between the latest user message and the current round was told
    only 'for n=4 your window keeps 8 messages', not which messages should have left."""
    keep = window_mutant("while middle and len(", "while False and len(")
    result = check("w6.window", keep)
    assert result.status == "failed"
    assert result.feedback.startswith("for n=4 your window keeps 8 messages"), result.feedback
    assert result.feedback.endswith(
        " — the current turn's earlier rounds (after the latest user message, before the current round) leave too, "
        "a call with its results, while more than n would be kept"
    ), result.feedback
