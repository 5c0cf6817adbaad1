"""Week 5's checks with other learners' code: a schema written another way passes, a default written as another
type than the schema shows fails, saying why."""

from typing import Annotated

import numpy as np
import pytest

from toolkit import Param, tool
from toolkit.exercises import check

DESCRIPTION = "Search the user's orders by words in item names; returns at most `limit` order ids."


def search_with(default):
    @tool(DESCRIPTION)
    def search_orders(
        query: Annotated[str, Param("Words to look for in item names")],
        limit: Annotated[int, Param("At most this many results")] = default,
    ) -> list[str]:
        return []

    return search_orders


def test_a_schema_from_the_docstring_and_a_method_passes():
    class Shop:
        @tool
        def search_orders(self, query: str, n: Annotated[int, Param(name="limit")] = np.int64(10)) -> list[str]:
            """Search the user's orders by words in item names; returns at most `limit` order ids.

            Args:
                query: Words to look for in item names
                n: At most this many results
            """
            return []

    assert check("w5.schema_target", Shop()).status == "passed"
    assert check("w5.schema_target", search_with(10)).status == "passed"


@pytest.mark.parametrize(("default", "written"), [(10.0, "10.0"), ("10", "'10'")])
def test_a_default_written_as_another_type_than_the_schema_shows_fails(default, written):
    """Before: `limit: int = 10.0` passed, "identical to the target": @tool converts the default, so the schema read 10,
    but the function called directly still got 10.0."""
    assert check("w5.schema_target", search_with(default)).feedback == (
        f"parameter 'limit': your default is written {written}; the schema shows 10 because @tool converted it, but "
        f"your function called directly gets {written}: write the default as the schema has it, 10"
    )
