"""toolkit.gateway.described_choice: the value a choice's description names as its default."""

import pytest

from toolkit.gateway.described_choice import described_choice

VALUES = ["low", "medium", "high"]


@pytest.mark.parametrize(
    ("description", "value"),
    [
        ("Priority, default medium", "medium"),
        ("Priority (default: 'medium')", "medium"),
        ("Priority. Defaults to High.", "high"),
        ("默认为 medium", "medium"),
        ("默认值是high", "high"),
        ("Priority, default is whatever the team uses", None),
        ("Priority", None),
        (None, None),
        ("low, medium or high; defaults to the queue's own", None),
    ],
)
def test_the_default_a_description_names_among_the_values(description, value):
    assert described_choice(VALUES, description) == value
