"""Structured output on what a stranger declares and what a model says: schema names OpenAI accepts
whatever the type is called, and one JSON object found in chatter that has braces of its own."""

import json
import re
import sys
from typing import Generic, Literal, TypeVar

import pytest
from pydantic import BaseModel

from toolkit.errors import OutputParsingError
from toolkit.services.structured import OutputType, extract_json

T = TypeVar("T")
OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


class Page(BaseModel, Generic[T]):
    items: list[T]


class Item(BaseModel):
    sku: str


class 订单摘要(BaseModel):
    status: str


class Order_Summary2(BaseModel):
    status: str


@pytest.mark.parametrize(
    "declared, name",
    [
        (Page[Item], "Page_Item"),
        (订单摘要, "answer"),
        (int | None, "answer"),
        (Literal["a", "b"], "Literal"),
        (type("X" * 80, (BaseModel,), {"__annotations__": {"a": int}}), "X" * 64),
        (Order_Summary2, "Order_Summary2"),
        (list[Item], "list"),
    ],
)
def test_the_schema_name_is_one_openai_accepts(declared, name):
    output = OutputType(declared)
    assert output.name == name and OPENAI_NAME.match(output.response_format()["json_schema"]["name"])


def test_a_generic_model_is_asked_for_under_a_name_openai_accepts_and_answers_as_usual():
    assert OutputType(Page[Item]).response_format()["json_schema"]["name"] == "Page_Item"
    assert OutputType(Page[Item]).parse('{"items": [{"sku": "1"}]}') == Page[Item](items=[Item(sku="1")])


@pytest.mark.parametrize(
    "answer",
    [
        '订单 {SN1} 的结果：{"status": "ok"}',
        'Here is the {JSON}: {"status": "ok"} {done}',
        '{note} ```json\n{"status": "ok"}\n``` {end}',
        '{"status": "ok"} — 以上 {完}',
    ],
)
def test_one_object_in_chatter_with_braces_is_found(answer):
    assert OutputType(订单摘要).parse(answer) == 订单摘要(status="ok")


def test_one_object_is_found_whole_but_two_are_not_chosen_between():
    assert extract_json('say {x}: {"a": {"b": {}}} ok') == '{"a": {"b": {}}}'  # nested: one object
    text = '{"status": "a"} or {"status": "b"}'
    assert extract_json(text) == text
    with pytest.raises(OutputParsingError) as info:
        OutputType(订单摘要).parse(text)
    assert str(info.value) == 'the answer\'s JSON object is not valid JSON (Extra data near \'{"status": "a"} or {\')'

    hostile = "{" * 200_000 + '"status": "ok"}' + " {x" * 100_000  # only the first braces are tried
    with pytest.raises(OutputParsingError):
        OutputType(订单摘要).parse(hostile)


class Node(BaseModel):
    name: str
    children: list["Node"] = []


def nested(depth):
    return '{"name": "a", "children": [' * depth + '{"name": "b"}' + "]}" * depth


@pytest.mark.parametrize("depth", [500, 2000, 100_000])
def test_an_answer_nested_too_deeply_is_an_output_parsing_error(depth):
    with pytest.raises(OutputParsingError) as info:
        OutputType(Node).parse(nested(depth))
    assert str(info.value) == "the JSON is nested too deeply to read"


@pytest.mark.parametrize("depth", [200, 500, 2000])
def test_the_bound_on_nesting_is_the_same_where_a_library_raised_the_recursion_limit(depth):
    """Before: "too deep" was wherever `json.loads` hit Python's recursion limit, so in a process where Hypothesis
    or torch had raised it, an answer nested 500 or 2,000 deep was read instead of refused (and the test's order
    decided). Now an answer nesting more than `MOST_NESTED` objects and arrays is refused in every process."""
    from toolkit.services.structured import MOST_NESTED, nests_deeper

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)
    try:
        if 2 * depth + 1 > MOST_NESTED:
            with pytest.raises(OutputParsingError) as info:
                OutputType(Node).parse(nested(depth))
            assert str(info.value) == "the JSON is nested too deeply to read"
        else:
            assert not nests_deeper(json.loads(nested(depth)), MOST_NESTED)
    finally:
        sys.setrecursionlimit(limit)
    assert nests_deeper([[[]]], 2) and not nests_deeper([[[]]], 3) and not nests_deeper({"a": 1}, 1)


def test_a_service_given_too_deep_an_answer_repairs_then_raises_output_parsing_error():
    from typing import Protocol

    from toolkit.chat.scripted import ScriptedModel
    from toolkit.services.service import ai_service

    class Tree(Protocol):
        def grow(self, question: str) -> Node: ...

    model = ScriptedModel([nested(500), nested(500)])
    with pytest.raises(OutputParsingError) as info:
        ai_service(Tree, model=model).grow("q")
    assert (
        str(info.value) == "grow: the answer is no Node after one repair round: the JSON is nested too deeply to read"
        and len(info.value.answers) == 2
    )
    assert model.requests[1].messages[-1].content == (
        "Your answer could not be used: the JSON is nested too deeply to read. "
        "Reply again with only the JSON object, matching the schema."
    )


@pytest.mark.parametrize(
    "answer",
    [
        '先算一下：\n```python\nprices = {"a": 1}\nprint(prices)\n```\n结果：\n```json\n{"status": "ok"}\n```',
        '{"status": "ok"}\n```text\n以上为订单状态\n```',
        '```json\n{"status": "ok ``` done"}\n```',
    ],
)
def test_the_fenced_block_or_text_that_holds_the_object_is_the_one_read(answer):
    assert OutputType(订单摘要).parse(answer) == 订单摘要(status=answer.split('"status": "')[1].split('"')[0])


@pytest.mark.parametrize("body", ["a" * 100_000, "json" + " " * 100_000, "x." * 50_000])
def test_a_fence_left_open_before_a_long_text_is_read_in_linear_time(body):
    """The language tag was given back a letter at a time, the body searched to the end for each:
    137 s on "```" and 100,000 letters."""
    with pytest.raises(OutputParsingError):
        OutputType(dict).parse("```" + body)


# --- what the JSON holds ---------------------------------------------------------------------------


class Price(BaseModel):
    amount: float
    history: list[float] = []


@pytest.mark.parametrize(
    "declared, answer, where, shown",
    [
        (Price, '{"amount": NaN}', "amount", "NaN"),
        (Price, '{"amount": 1e999}', "amount", "Infinity"),
        (Price, '```json\n{"amount": 1, "history": [2, -Infinity]}\n```', "history.1", "-Infinity"),
        (float, '{"value": NaN}', "value", "NaN"),
        (dict[str, float], '{"value": {"a": Infinity}}', "value.a", "Infinity"),
    ],
)
def test_a_number_json_cannot_hold_is_refused_not_read_as_nan_or_infinity(declared, answer, where, shown):
    with pytest.raises(OutputParsingError) as info:
        OutputType(declared).parse(answer)
    assert str(info.value) == f"the JSON does not match the schema ({where}: got {shown}, expected a finite number)"


@pytest.mark.parametrize(
    "answer, kind",
    [
        ('[{"status": "ok"}]', "an array"),
        ('```json\n[{"status": "ok"}]\n```', "an array"),
        ('[{"status": "a"}, {"status": "b"}]', "an array"),
        ('"{\\"status\\": \\"ok\\"}"', "a string"),
        ("42", "a number"),
        ("null", "null"),
    ],
)
def test_json_that_is_no_object_is_named_never_unwrapped(answer, kind):
    with pytest.raises(OutputParsingError) as info:
        OutputType(订单摘要).parse(answer)
    assert str(info.value) == f"the answer is {kind}, not a JSON object"


def test_a_value_not_wrapped_in_value_is_named():
    with pytest.raises(OutputParsingError) as info:
        OutputType(list[str]).parse('["a", "b"]')
    assert str(info.value) == 'the answer is an array, not a JSON object with a "value" field'


class Verdict(BaseModel):
    ok: bool


@pytest.mark.parametrize(
    "answer",
    [
        '<think>The user wants {"ok": false}? No: the order exists.</think>\n{"ok": true}',
        'Checking {"ok": false} against the order.</think>```json\n{"ok": true}\n```',  # <think> was in the prompt
        '<think>draft: {"ok": false}</think>Here it is: {"ok": true} <think>done</think>',
    ],
)
def test_a_reasoning_models_thinking_in_the_answer_is_not_read_as_the_answer(answer):
    assert OutputType(Verdict).parse(answer) == Verdict(ok=True)


def test_an_answer_that_is_all_thinking_is_no_json_object_and_keeps_its_text():
    answer = '<think>maybe {"ok": true}</think>'
    with pytest.raises(OutputParsingError) as caught:
        OutputType(Verdict).parse(answer)
    assert caught.value.args[0] == "the answer is not a JSON object"
    assert caught.value.answer == answer  # the repair message shows what the model said, thinking and all


def _json_words(text: str) -> str:
    """What this Python's `json` says of `text` (its words for a trailing comma changed in 3.13)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return error.msg
    raise AssertionError(f"{text!r} is valid JSON")


_TRAILING_COMMA = _json_words("[1,]")


@pytest.mark.parametrize(
    "declared, answer, said",
    [
        (Node, '{"name": "root", "children": [{"name": "leaf"},]}', f"not valid JSON ({_TRAILING_COMMA} near "),
        (Node, 'Result: {"name": "root", "children": [{"name": "leaf"}] ', "not valid JSON (Expecting ',' delimiter"),
        (Item, '[{"sku": "1"},]', "the answer is not a JSON object"),  # a broken array, not the object inside it
        (Item, 'Here: [{"sku": "1"}, {"sku": 2', "the answer is not a JSON object"),
    ],
)
def test_an_object_inside_a_broken_one_is_never_taken_for_the_answer(declared, answer, said):
    with pytest.raises(OutputParsingError) as info:
        OutputType(declared).parse(answer)
    assert said in str(info.value)


@pytest.mark.parametrize(
    "answer, near",
    [
        ('{"status": "ok",}', '{"status": "ok",}'),  # a trailing comma
        ('好的：{"status": "第一行\n第二行"}', '{"status": "第一行\n第二行'),  # a raw line break in a string
        ("{'status': 'ok'}", "{'sta"),  # single quotes
    ],
)
def test_a_broken_json_object_is_told_apart_from_no_object_and_shown_where_it_breaks(answer, near):
    with pytest.raises(OutputParsingError) as info:
        OutputType(订单摘要).parse(answer)
    assert str(info.value).startswith("the answer's JSON object is not valid JSON (")
    assert str(info.value).endswith(f" near {near!r})")
