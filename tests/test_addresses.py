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
