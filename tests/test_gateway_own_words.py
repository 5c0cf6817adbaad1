"""toolkit.gateway.own_words: the words a tool's schema writes are no values of a list the user's words fill."""

import pytest

from toolkit.gateway.own_words import schema_words, without_own

RECIPES = {
    "type": "object",
    "properties": {
        "ingredients": {"type": "array", "items": {"type": "string"}},
        "maxMinutes": {"type": "integer"},
        "diet": {"type": "string", "enum": ["vegan", "low-carb", 3]},
    },
}


def test_the_words_of_the_fields_names_and_choices():
    assert schema_words(RECIPES) == {"ingredients", "max", "minutes", "diet", "vegan", "low", "carb"}
    assert schema_words({"properties": []}) == frozenset()
    assert schema_words(None) == frozenset()


@pytest.mark.parametrize(
    ("terms", "kept"),
    [
        (["vegan", "eggs", "spinach", "minutes"], ["eggs", "spinach"]),
        (["Vegan", "tofu"], ["tofu"]),
        (["vegan", "minutes"], ["vegan", "minutes"]),
        ([], []),
    ],
)
def test_terms_the_schema_writes_are_left_out_unless_none_is_left(terms, kept):
    assert without_own(terms, RECIPES) == kept
