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
