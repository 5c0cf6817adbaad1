"""Structured output whose type is a union of models (`A | B`, a discriminated union, a list of
either): an answer that is the second branch is accepted, and a field no branch declares is
still refused, named against the branch the answer is."""

import json
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from toolkit.errors import OutputParsingError
from toolkit.services.structured import OutputType


class Refund(BaseModel):
    order_id: str
    amount: float


class Exchange(BaseModel):
    order_id: str
    new_sku: str


class Decision(BaseModel):
    action: Refund | Exchange


class Cat(BaseModel):
    kind: Literal["cat"]
    meow: int


class Dog(BaseModel):
    kind: Literal["dog"]
    bark: int


class Pet(BaseModel):
    pet: Annotated[Cat | Dog, Field(discriminator="kind")]


@pytest.mark.parametrize(
    "declared, answer, value",
    [
        (
            Decision,
            '{"action": {"order_id": "SN1", "new_sku": "X"}}',
            Decision(action=Exchange(order_id="SN1", new_sku="X")),
        ),
        (Refund | Exchange, '{"value": {"order_id": "SN1", "new_sku": "X"}}', Exchange(order_id="SN1", new_sku="X")),
        (
            list[Refund | Exchange],
            '{"value": [{"order_id": "A", "amount": 1}, {"order_id": "B", "new_sku": "Y"}]}',
            [Refund(order_id="A", amount=1), Exchange(order_id="B", new_sku="Y")],
        ),
        (Pet, '{"pet": {"kind": "dog", "bark": 2}}', Pet(pet=Dog(kind="dog", bark=2))),
        (Refund | dict[str, int], '{"value": {"anything": 1}}', {"anything": 1}),
    ],
)
def test_an_answer_of_any_branch_is_accepted(declared, answer, value):
    assert OutputType(declared).parse(answer) == value


@pytest.mark.parametrize(
    "declared, answer, problem",
    [
        (Decision, '{"action": {"order_id": "SN1", "new_sku": "X", "coupon": "VIP"}}', "action.coupon: not a field"),
        (Pet, '{"pet": {"kind": "dog", "bark": 1, "meow": 2}}', "pet.meow: not a field"),
        (Refund | None, '{"value": {"order_id": "A", "amount": 1, "note": "x"}}', "value.note: not a field"),
    ],
)
def test_a_field_no_branch_declares_is_named_against_the_branch_the_answer_is(declared, answer, problem):
    with pytest.raises(OutputParsingError) as info:
        OutputType(declared).parse(answer)
    assert str(info.value) == f"the JSON does not match the schema ({problem})"


@pytest.mark.parametrize(
    "declared, answer, problem",
    [
        (Decision, '{"action": {"order_id": "SN1"}}', "action.amount: Field required; action.new_sku: Field required"),
        (
            Refund | Exchange,
            '{"value": {"order_id": 3, "amount": 1}}',
            "value.order_id: Input should be a valid string, got 3; value.new_sku: Field required",
        ),
        (Pet, '{"pet": {"kind": "dog", "bark": "x"}}', 'pet.bark: Input should be a valid integer, got "x"'),
        (
            list[int | str],
            '{"value": [1, null]}',
            "value.1: Input should be a valid integer, got null; value.1: Input should be a valid string, got null",
        ),
        (
            dict[str, Refund | Exchange],
            '{"value": {"a": {"order_id": "x"}}}',
            "value.a.amount: Field required; value.a.new_sku: Field required",
        ),
    ],
)
def test_an_error_inside_a_union_names_the_path_the_model_wrote_not_the_branch(declared, answer, problem):
    """pydantic puts the branch it tried into an error's location (`action.Refund.amount`,
    `pet.dog.bark`, `value.1.int`): a field the model's JSON does not have, and the schema neither."""
    with pytest.raises(OutputParsingError) as info:
        OutputType(declared).parse(answer)
    assert str(info.value) == f"the JSON does not match the schema ({problem})"


class Left(BaseModel):
    left: int
    kids: "list[Left | Right]" = []


class Right(BaseModel):
    right: int
    kids: "list[Left | Right]" = []


Left.model_rebuild()


def test_a_deep_answer_of_unions_is_checked_for_undeclared_fields_once_per_place(monkeypatch):
    """A tree whose nodes are `Left | Right` (a thread of comments, a category tree): each branch of
    each node was checked again for every branch above it, 2^depth walks (depth 18 took 8 s).
    Counted as walks of a (place, schema) pair: a few per node, whatever the depth."""
    from toolkit.services import structured

    walks = []
    walk = structured._undeclared
    monkeypatch.setattr(structured, "_undeclared", lambda *a: walks.append(1) or walk(*a))
    node: dict = {"left": 0, "kids": []}
    for depth in range(1, 12):  # deeper, pydantic's own smart-mode union validation doubles at each level too
        node = {"left": depth, "kids": [node]}
    node = {"left": 12, "kids": [node, {"right": 0, "kids": [], "extra": 1}]}
    with pytest.raises(OutputParsingError) as info:
        OutputType(Left).parse(json.dumps(node))
    assert str(info.value) == "the JSON does not match the schema (kids.1.extra: not a field)"
    assert len(walks) < 10 * 14  # 2^12 walks and more before
