"""Answers of a shape a checker does not take — a window of non-messages, search terms that are not
texts, an expose() that returns no provider — are told so in one line, never an AttributeError from
inside the checker."""

import pytest

from toolkit.exercises import check


@pytest.mark.parametrize(
    ("keep", "shown"),
    [
        (lambda messages, n: (x for x in [1, 2]), "1"),
        (lambda messages, n: [None], "None"),
        (lambda messages, n: [m.role for m in messages[-1:]], "'assistant'"),  # roles, not messages
    ],
)
def test_a_window_of_things_that_are_not_messages_is_told_so(keep, shown):
    result = check("w6.window", keep)
    assert (result.status, result.feedback) == (
        "failed",
        f"keep() returned a list holding {shown}; keep messages of the list it was given",
    )


@pytest.mark.parametrize(("terms", "shown"), [(["refund", 3], "3"), ([None], "None"), ((["refund"],), "['refund']")])
def test_search_terms_that_are_not_texts_are_told_so(terms, shown):
    result = check("w8.find_query", terms)
    assert (result.status, result.feedback) == ("failed", f'a search term is a text, such as "order", not {shown}')


def test_search_terms_given_as_a_tuple_still_pass():
    assert check("w8.find_query", ("refund", "payment")).status == "passed"


@pytest.mark.parametrize(("returned", "shown"), [(None, "None"), (3, "3"), ("shop", "'shop'")])
def test_an_expose_that_returns_no_provider_is_told_so(returned, shown):
    result = check("w9.chain", lambda provider: returned)
    assert (result.status, result.feedback) == (
        "failed",
        f"expose() returned {shown}, not a tool provider; return the provider that filter_tools / rename_tools give",
    )
