import enum

import jsonschema
import pytest
from pydantic import BaseModel

from toolkit.errors import OutputParsingError
from toolkit.services.structured import OutputType, extract_json, repair_message


class OrderSummary(BaseModel):
    order_id: str
    status: str
    amount: float


class Status(enum.Enum):
    PAID = "paid"
    SHIPPED = "shipped"


@pytest.mark.parametrize(
    "text",
    [
        '{"order_id": "SN1", "status": "shipped", "amount": 99}',
        '好的，结果如下：\n```json\n{"order_id": "SN1", "status": "shipped", "amount": 99}\n```\n希望有帮助',
        'Sure! {"order_id": "SN1", "status": "shipped", "amount": 99} -- done',
    ],
)
def test_models_parse_from_chatty_answers(text):
    assert OutputType(OrderSummary).parse(text) == OrderSummary(order_id="SN1", status="shipped", amount=99)


@pytest.mark.parametrize(
    "annotation, answer, value",
    [
        (list[str], '{"value": ["a", "b"]}', ["a", "b"]),
        (bool, '{"value": true}', True),
        (int, '{"value": 3}', 3),
        (Status, '{"value": "shipped"}', Status.SHIPPED),
    ],
)
def test_non_object_types_are_wrapped_in_value(annotation, answer, value):
    output = OutputType(annotation)
    assert output.parse(answer) == value
    assert output.schema["required"] == ["value"]
    jsonschema.validate({"value": value.value if isinstance(value, enum.Enum) else value}, output.schema)


def test_schemas_are_valid_json_schema_and_sent_as_response_format():
    for annotation in (OrderSummary, list[OrderSummary], Status):
        schema = OutputType(annotation).schema
        jsonschema.Draft202012Validator.check_schema(schema)
    fmt = OutputType(OrderSummary).response_format()
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "OrderSummary"
    assert fmt["json_schema"]["schema"]["required"] == ["order_id", "status", "amount"]


@pytest.mark.parametrize(
    "answer, message",
    [
        ("I don't know", "the answer is not a JSON object"),
        ('{"order_id": "SN1"}', "the JSON does not match the schema (status: Field required; amount: Field required)"),
        (
            '{"order_id": "SN1", "status": "x", "amount": "lots"}',
            'the JSON does not match the schema (amount: Input should be a valid number, got "lots")',
        ),
        (None, "the answer is not a JSON object"),
    ],
)
def test_failures_say_what_is_wrong(answer, message):
    with pytest.raises(OutputParsingError) as info:
        OutputType(OrderSummary).parse(answer)
    assert str(info.value) == message
    assert repair_message(info.value) == (
        f"Your answer could not be used: {message}. Reply again with only the JSON object, matching the schema."
    )


def test_missing_value_field_is_named():
    with pytest.raises(OutputParsingError, match='has no "value" field'):
        OutputType(list[int]).parse('{"items": [1]}')


def test_instructions_carry_the_schema():
    assert '"order_id"' in OutputType(OrderSummary).instructions()
    assert extract_json("no braces") == "no braces"


def test_a_root_model_is_asked_for_and_read_as_the_value_field():
    """A `RootModel` is no object with fields: it is asked for as `{"value": …}` like a list or an
    int (the schema `response_format` sends has an object at its root), and read back from it."""
    from pydantic import RootModel

    class Tags(RootModel[list[str]]):
        pass

    class Line(BaseModel):
        sku: str

    class Wrapped(RootModel[Line]):
        pass

    tags = OutputType(Tags)
    assert tags.schema["type"] == "object" and tags.schema["required"] == ["value"]
    assert tags.parse('{"value": ["新品", "包邮"]}') == Tags(["新品", "包邮"])
    assert OutputType(Wrapped).parse('{"value": {"sku": "A1"}}') == Wrapped(Line(sku="A1"))
    with pytest.raises(OutputParsingError, match=r"the JSON does not match the schema \(value\.0\.note: not a field\)"):
        OutputType(RootModel[list[Line]]).parse('{"value": [{"sku": "A1", "note": "x"}]}')


def test_a_model_validator_s_error_names_the_whole_object_not_a_value_field():
    from pydantic import model_validator

    class Span(BaseModel):
        start: int
        end: int

        @model_validator(mode="after")
        def ordered(self):
            if self.start > self.end:
                raise ValueError("start must not exceed end")
            return self

    with pytest.raises(OutputParsingError) as info:
        OutputType(Span).parse('{"start": 2, "end": 1}')
    assert str(info.value) == "the JSON does not match the schema (the object: Value error, start must not exceed end)"
    with pytest.raises(OutputParsingError) as info:
        OutputType(list[Span]).parse('{"value": [{"start": 2, "end": 1}]}')
    assert str(info.value) == (
        'the JSON does not match the schema (value.0: Value error, start must not exceed end, got {"start": 2, "end": 1})'
    )


def test_a_path_inside_a_wrapped_answer_starts_at_its_value_field_as_the_model_wrote_it():
    """Before: '0.name: Input should be a valid string' and '0.nam: not a field', of an answer whose
    list is under "value": a path the model's JSON does not have."""

    class Item(BaseModel):
        name: str

    with pytest.raises(OutputParsingError) as info:
        OutputType(list[Item]).parse('{"value": [{"name": "a"}, {"nam": "b"}]}')
    assert str(info.value) == (
        "the JSON does not match the schema (value.1.nam: not a field; value.1.name: Field required)"
    )
    with pytest.raises(OutputParsingError) as info:
        OutputType(dict[str, Item]).parse('{"value": {"k": {"name": 1}}}')
    assert str(info.value) == "the JSON does not match the schema (value.k.name: Input should be a valid string, got 1)"
    with pytest.raises(OutputParsingError) as info:
        OutputType(int).parse('{"value": "3"}')
    assert str(info.value) == 'the JSON does not match the schema (value: Input should be a valid integer, got "3")'


def test_a_number_with_no_fraction_is_an_integer_as_json_schema_reads_it():
    """JSON Schema's "integer" is any number with a zero fractional part: `2.0` is one, `2.5` is not."""

    class Line(BaseModel):
        qty: int
        price: float

    assert OutputType(int).parse('{"value": 42.0}') == 42
    assert OutputType(Line).parse('{"qty": 2.0, "price": 3.0}') == Line(qty=2, price=3.0)
    assert isinstance(OutputType(list[int]).parse('{"value": [1e2]}')[0], int)
    with pytest.raises(OutputParsingError, match=r"\(value: Input should be a valid integer"):
        OutputType(int).parse('{"value": 42.5}')
    with pytest.raises(OutputParsingError, match=r"qty: got Infinity, expected a finite number"):
        OutputType(Line).parse('{"qty": 1e999, "price": 1}')


def test_an_any_field_keeps_a_float_with_no_fraction():
    from typing import Any

    assert OutputType(dict[str, Any]).parse('{"value": {"price": 10.0}}') == {"price": 10.0}
    assert isinstance(OutputType(dict[str, Any]).parse('{"value": {"price": 10.0}}')["price"], float)


def test_a_value_of_the_wrong_kind_is_named_with_what_came():
    """Before: 'amount: Input should be a valid number', not saying what the model wrote there."""

    class Span(BaseModel):
        start: int
        end: int

    def problem(declared, answer):
        with pytest.raises(OutputParsingError) as info:
            OutputType(declared).parse(answer)
        return str(info.value).removeprefix("the JSON does not match the schema (").removesuffix(")")

    assert problem(OrderSummary, '{"order_id": "SN1", "status": "x", "amount": "lots"}') == (
        'amount: Input should be a valid number, got "lots"'
    )
    assert problem(int, '{"value": "三"}') == 'value: Input should be a valid integer, got "三"'
    assert problem(list[Span], '{"value": [{"start": 1, "end": [2]}]}') == (
        "value.0.end: Input should be a valid integer, got [2]"
    )
    assert problem(bool, '{"value": null}') == "value: Input should be a valid boolean, got null"
    assert problem(Span, '{"start": 1}') == "end: Field required"  # nothing came
    long = "x" * 100
    assert problem(int, f'{{"value": "{long}"}}') == f'value: Input should be a valid integer, got "{"x" * 38}…'
