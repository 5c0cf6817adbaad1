"""`toolkit.tools.addresses`: a repr reads the same in every run."""

import functools

import pytest

from toolkit.tools.addresses import without_addresses


def sample() -> None:
    """A function whose repr holds an address."""


class Shop:
    def open(self) -> None:
        """A method whose bound repr holds two addresses."""


@pytest.mark.parametrize(
    "value, shown",
    [
        (sample, "sample"),
        (Shop().open, "Shop.open"),
        (Shop(), "<test_addresses.Shop object>"),
        (functools.partial(sample), "functools.partial(sample)"),
        ([sample, 1], "[sample, 1]"),
        ("no address here", "'no address here'"),
    ],
)
def test_a_repr_is_the_same_in_every_run(value, shown):
    assert without_addresses(repr(value)) == shown


def test_an_address_outside_angle_brackets_is_kept():
    """Only a repr's own `<… at 0x…>` is an address; other text that looks like one is the value's."""
    assert without_addresses("moved at 0x10 bytes") == "moved at 0x10 bytes"
    assert without_addresses("<Future at 0x7f3a9c pending>") == "<Future pending>"


def made_here():
    """A class and a function made inside a function, as a notebook's factory or a test makes them."""

    class Row:
        def total(self) -> None:
            """A method of a local class."""

    def inner() -> None:
        """A local function."""

    return Row, inner


@pytest.mark.parametrize(
    "value, shown",
    [
        (made_here()[0](), "<test_addresses.made_here.<locals>.Row object>"),
        (made_here()[1], "made_here.<locals>.inner"),
        (made_here()[0]().total, "made_here.<locals>.Row.total"),
        (lambda: 1, "<lambda>"),
        ((x for x in ()), "<generator object <genexpr>>"),
        ({"rows": [made_here()[0]()]}, "{'rows': [<test_addresses.made_here.<locals>.Row object>]}"),
    ],
)
def test_a_name_python_writes_with_angle_brackets_loses_its_address_too(value, shown):
    """Before: `<locals>` or `<lambda>` in a name stopped the match, so a tool returning an object of a class made in a
    function (`<app.make.<locals>.Row object at 0x7f…>`) or a lambda read another text to the model, the views and a
    cassette's request in every run: a cassette recorded with it never replayed."""
    assert without_addresses(repr(value)) == shown


def test_a_text_of_many_bracketed_names_is_read_in_one_pass():
    """Each `<` a match may start at reads past at most 8 bracketed parts (a name nested 8 functions deep), so
    100,000 `<locals>` with no repr's end are read once, not once from each; a name nested deeper keeps its
    address."""
    text = "<locals>" * 100_000 + "> at 0x1"
    assert without_addresses(text) == text
    eight, nine = ("<m." + "f.<locals>." * n + "Row object at 0x7f01>" for n in (8, 9))
    assert without_addresses(eight) == eight.replace(" at 0x7f01", "")
    assert without_addresses(nine) == nine
