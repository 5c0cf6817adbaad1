"""toolkit.gateway.named_thing: a field named for a thing takes the thing as the text names it."""

import pytest

from toolkit.gateway.named_thing import named_thing


@pytest.mark.parametrize(
    ("name", "text", "thing"),
    [
        ("door", "lock the front door", "front door"),
        ("door", "is the door locked?", "door"),
        ("light_name", "turn on my living room light", "living room light"),
        ("device", "restart our office printer device", "office printer device"),
        ("light", "switch off the kitchen lights", "kitchen lights"),
        ("door", "open the garage", None),
        ("name", "call the name", None),
        ("id", "the id", None),
    ],
)
def test_the_thing_named_with_its_words(name, text, thing):
    assert named_thing(name, text) == thing
