"""Week 2's checks with other learners' answers: a wait given in another unit, or one wait of two the backoff alone,
is told what is wrong with it, not only that the client did not wait so."""

import pytest

from toolkit.exercises import check


@pytest.mark.parametrize(
    ("answer", "feedback"),
    [
        (
            [2000, 2000],
            "[2000, 2000] counts milliseconds; the client's waits (the backoff, Retry-After) are seconds: answer "
            "in seconds",
        ),
        (
            [0.5, 2],
            "your wait 1, 0.5 s, is the backoff alone; that 429 carried Retry-After: 2 too, and the client honours it",
        ),
        (
            [2.0, 1],
            "your wait 2, 1 s, is the backoff alone; that 429 carried Retry-After: 2 too, and the client honours it",
        ),
        ([2, 4], "the client did not wait [2, 4]"),  # wrong, and neither of those: no hint beyond it
    ],
)
def test_waits_in_another_unit_or_one_the_backoff_alone_are_told_what_is_wrong(answer, feedback):
    """Before: each of these read "the client did not wait [...]": a learner who had the waits right in
    milliseconds, or honoured Retry-After on one 429 and not the other, was not told which."""
    assert check("w2.waits", answer).feedback == feedback


def test_a_backoff_written_in_milliseconds_is_told_its_unit_not_the_cap():
    """Before: wait() returning 500 for 0.5 s read "— the backoff is capped at 8.0 s", sending the learner to a cap
    their code had (8000 ms) instead of to the unit."""

    def wait(attempt, retry_after):
        backoff = min(8000, 500 * 2 ** (attempt - 1))
        return backoff if retry_after is None else min(30_000, max(backoff, retry_after * 1000))

    assert check("w2.backoff", wait).feedback == (
        "wait(1, None) returned 500, RetryPolicy().wait gives 0.5 — that is milliseconds: wait() returns seconds, "
        "as retry_after is given in"
    )
