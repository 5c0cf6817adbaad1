"""Week 8's checks with other learners' terms: terms that score refund_payment above every other tool pass, terms
that only tie it with others fail, saying which tie."""

import pytest

from toolkit.exercises import check


@pytest.mark.parametrize("terms", [["refund", "payment"], ["refund"], ("REFUND",), {"refund", "captured"}])
def test_terms_that_rank_refund_payment_above_the_rest_pass(terms):
    assert check("w8.find_query", terms).status == "passed"


@pytest.mark.parametrize(
    ("terms", "tied"),
    [
        (["ref"], "create_referral_link (3)"),
        (["captured", "method"], "save_payment_method (2), remove_payment_method (2)"),
        (["payment", "the"], "get_payment (4), retry_failed_payment (4)"),
    ],
)
def test_terms_that_only_tie_refund_payment_with_others_fail(terms, tied):
    """Before: refund_payment listed first in a tie (the catalogue's order breaks it) passed, though the terms do not
    rank it above those tools."""
    result = check("w8.find_query", terms)
    assert result.status == "failed"
    assert result.feedback.startswith(
        f"refund_payment only ties with {tied}: a tie is broken by the catalogue's order, not by your terms; find "
        "terms that score refund_payment higher than every other tool — keyword search returns refund_payment"
    )


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (
            "refund payment",
            "answer with a list of one or two terms, not one text: each term is a text of its own in the list",
        ),
        (["refund", "payment", "money"], "answer with a list of one or two terms; yours has 3"),
        ([], "answer with a list of one or two terms; yours is empty"),
        ({"refund": 1}, "answer with a list of one or two terms"),
    ],
)
def test_search_terms_in_one_text_or_too_many_are_told_which(answer, said):
    """Before: 'answer with a list of one or two terms' for each — a learner who wrote both words in one text, or
    a third term, was not told which."""
    result = check("w8.find_query", answer)
    assert (result.status, result.feedback) == ("failed", said)


@pytest.mark.parametrize(
    ("terms", "said"),
    [
        (["payment"], ": refund_payment scores as much as capture_payment (3) but is listed after it"),
        (["capture", "payment"], ": refund_payment scores 4, capture_payment more (6)"),
        (["order"], ": refund_payment is not among them"),
    ],
)
def test_terms_that_rank_refund_payment_below_another_are_told_where_it_is(terms, said):
    """Before: terms that ranked refund_payment second, lower or not at all were told only the ranking ("keyword
    search returns capture_payment (3), refund_payment (3), …"), not what was wrong with it."""
    feedback = check("w8.find_query", terms).feedback
    assert feedback.startswith("keyword search returns ") and said in feedback, feedback


def test_a_score_with_the_name_and_description_weights_swapped_is_told_which_is_worth_2():
    """Before: +1 for the name and +2 for the description read only "gave 5, LangChain4j's rule gives 4"."""

    def score(name, description, terms):
        return sum((t in name.lower()) + 2 * (t in description.lower()) for t in terms)

    assert check("w8.score", score).feedback.endswith(
        " — a hit in the name is worth 2 and one in the description 1: yours has them the other way round"
    )
