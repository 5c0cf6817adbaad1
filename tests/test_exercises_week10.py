"""Week 10's checks with other learners' code: honest folders written another way pass, a description that says
nothing of the skill fails with feedback saying what a description is for."""

import pytest

from toolkit.exercises import check


def skill_with(description: str):
    """A learner's make_skill writing a gift-wrapping skill with this description (and real instructions)."""

    def make_skill(root):
        folder = root / "gift-wrapping"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: gift-wrapping\ndescription: {description}\n---\nAsk for the order id and the card text.\n",
            encoding="utf-8",
        )

    return make_skill


@pytest.mark.parametrize(
    "description",
    [
        "Use when a customer asks to gift-wrap an order.",
        "Wraps an order as a present; use it when the user wants gift wrapping or a card.",
        "Wrap gifts.",
        "当顾客要求礼品包装或贺卡时使用。",
    ],
)
def test_a_description_saying_what_the_skill_does_passes(description):
    assert check("w10.skill_folder", skill_with(description)).status == "passed"


@pytest.mark.parametrize("description", ["A demo skill.", "TODO", "d", "when to use it", "Use it when asked."])
def test_a_description_that_says_nothing_of_gift_wrapping_fails(description):
    assert check("w10.skill_folder", skill_with(description)).feedback == (
        f"the description {description!r} says nothing of what the skill does: at level 0 the model chooses a skill "
        "by its name and description alone, so the description says what the skill does and when to use it"
    )


@pytest.mark.parametrize("description", ["gift-wrapping", "Gift wrapping.", "The gift-wrapping skill"])
def test_a_description_that_only_repeats_the_name_fails(description):
    assert check("w10.skill_folder", skill_with(description)).feedback == (
        f"the description {description!r} only repeats the skill's name: say what the skill does and when to use "
        "it (at level 0 the model chooses a skill by its description)"
    )
