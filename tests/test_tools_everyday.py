"""Tools written the way people usually write them: each case an audit found, with exact texts.

Developer mistakes fail at registration (`ToolDefinitionError`, naming the function, the rule
and the fix); model mistakes come back as short argument errors; nothing crashes.
"""

import dataclasses
import decimal
import enum
import functools
import json
import pathlib
import sqlite3
import sys
import threading
import typing
from typing import Annotated, Any, Literal, NotRequired, Optional, Union

import pytest
from pydantic import BaseModel, Field, HttpUrl
from typing_extensions import TypedDict

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError, ToolDefinitionError
from toolkit.tools.arguments import fresh, parse_arguments
from toolkit.tools.decorator import Param, tool, tool_options
from toolkit.tools.execute import FEED_BACK_ALL, tools_from
from toolkit.tools.reflect import parse_docstring
from toolkit.tools.result_text import to_text

HERE = __name__


def run(fn: Any, arguments: str, **kwargs: Any) -> Any:
    t = tools_from(fn)[0]
    return t.execute(ToolCall(id="1", name=t.name, arguments=arguments), **kwargs)


def argument_error(fn: Any, arguments: str) -> str:
    with pytest.raises(ArgumentError) as info:
        run(fn, arguments)
    return str(info.value)


def definition_error(*sources: Any) -> str:
    with pytest.raises(ToolDefinitionError) as info:
        tools_from(*sources)
    return str(info.value)


# --- 1, 6. Decimal parameters ------------------------------------------------------------------


def refund(order_id: str, amount: decimal.Decimal, qty: int) -> str:
    return f"{amount!r} x {qty}"


def priced(price: decimal.Decimal, payload: dict[str, Any], extra: list[Any]) -> str:
    return json.dumps({"price": str(price), "payload": payload, "extra": extra})


def test_a_wrong_number_next_to_a_decimal_is_an_argument_error():
    assert argument_error(refund, '{"order_id": "A", "amount": 9.99, "qty": 1.5}') == (
        "Invalid arguments for tool 'refund':\n- qty: got 1.5, expected an integer\n"
        "Fix the arguments and call refund again."
    )


def test_a_decimal_out_of_range_shows_its_digits():
    def pay(amount: Annotated[decimal.Decimal, Field(le=10)]) -> str:
        return "ok"

    assert argument_error(pay, '{"amount": 12.345678901234567890, "tip": 0.5}') == (
        "Invalid arguments for tool 'pay':\n"
        "- tip: unknown field (got 0.5), valid fields: amount\n"
        "- amount: got 12.345678901234567890, expected a number <= 10\n"
        "Fix the arguments and call pay again."
    )


def test_only_decimal_parameters_receive_decimal():
    text = run(priced, '{"price": 1.10, "payload": {"w": 2.5, "n": [0.1]}, "extra": [1.5]}').content
    assert json.loads(text) == {"price": "1.10", "payload": {"w": 2.5, "n": [0.1]}, "extra": [1.5]}
    assert run(refund, '{"order_id": "A", "amount": 1234567890.123456789, "qty": 2}').content == (
        "Decimal('1234567890.123456789') x 2"
    )


# --- 2. Decimal and other odd bounds -----------------------------------------------------------


def test_a_decimal_bound_is_a_json_number_in_the_schema():
    def set_price(price: Annotated[float, Field(ge=decimal.Decimal("0.01"))]) -> str:
        return "ok"

    spec = tools_from(set_price)[0].spec
    assert spec.parameters is not None and spec.parameters["properties"]["price"] == {"type": "number", "minimum": 0.01}
    json.dumps(spec.to_openai())
    json.dumps(spec.to_openai(strict=True))


@pytest.mark.parametrize("bound", [decimal.Decimal("1.5"), 1.5])
def test_a_bound_an_int_cannot_take_is_refused_at_registration(bound):
    def stock(n: Annotated[int, Field(ge=bound)]) -> str:
        return "ok"

    assert definition_error(stock) == (
        f"@tool {HERE}.test_a_bound_an_int_cannot_take_is_refused_at_registration.<locals>.stock, "
        f"parameter 'n': pydantic refuses Annotated[int, Field(ge={bound!r})]: 'ge' must be coercible "
        "to an integer. Fix: give each constraint a value of the parameter's type (e.g. an int bound for an int)"
    )


# --- 3. bare @tool above @classmethod ----------------------------------------------------------


class Shop:
    @tool
    @classmethod
    def catalogue(cls, page: int) -> str:
        """List products."""
        return f"page {page}"

    @tool
    def search(self, q: str) -> str:
        """Search."""
        return q


def test_bare_tool_above_classmethod_marks_the_method():
    assert isinstance(Shop.__dict__["catalogue"], classmethod)
    assert Shop.catalogue(2) == "page 2"
    assert tool_options(Shop.catalogue) is not None
    assert [t.name for t in tools_from(Shop())] == ["catalogue", "search"]
    assert [t.name for t in tools_from(Shop.catalogue)] == ["catalogue"]


# --- 4, 5. TypedDict ---------------------------------------------------------------------------


class Filter(TypedDict):
    status: str
    sku: NotRequired[str]
    note: NotRequired[str | None]


class Open(TypedDict):
    __pydantic_config__ = {"extra": "allow"}  # type: ignore[misc]
    status: str


def search(f: Filter) -> str:
    return repr(f)


def loose(f: Open) -> str:
    return repr(f)


def test_typeddict_refuses_unknown_keys():
    assert argument_error(search, '{"f": {"status": "open", "refundAmount": 2999}}') == (
        "Invalid arguments for tool 'search':\n- f.refundAmount: unknown field (got 2999), remove it\n"
        "Fix the arguments and call search again."
    )


def test_typeddict_that_allows_extra_keys_keeps_them():
    assert run(loose, '{"f": {"status": "open", "x": 1}}').content == "{'status': 'open', 'x': 1}"


def test_strict_null_for_a_not_required_typeddict_key_means_absent():
    spec = tools_from(search)[0].spec.to_openai(strict=True)["function"]["parameters"]
    assert spec["$defs"]["Filter"]["properties"]["sku"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    sent = '{"f": {"status": "open", "sku": null, "note": null}}'
    assert run(search, sent).content == "{'status': 'open', 'note': None}"
    assert run(search, '{"f": {"status": null}}', policies=FEED_BACK_ALL).content == (
        "Invalid arguments for tool 'search':\n- f.status: got null, expected a string\n"
        "Fix the arguments and call search again."
    )


class Tree(TypedDict, total=False):
    name: str
    kids: list["Tree"]


def test_recursive_typeddict_drops_nulls_and_refuses_unknown_keys_at_every_depth():
    def walk(t: Tree) -> str:
        return repr(t)

    assert run(walk, '{"t": {"name": null, "kids": [{"name": "a", "kids": null}]}}').content == (
        "{'kids': [{'name': 'a'}]}"
    )
    assert argument_error(walk, '{"t": {"kids": [{"x": 1}]}}') == (
        "Invalid arguments for tool 'walk':\n- t.kids[0].x: unknown field (got 1), remove it\n"
        "Fix the arguments and call walk again."
    )


# --- 7. return values JSON cannot write --------------------------------------------------------


class Order:
    def __init__(self, sku: str) -> None:
        self.sku = sku

    def __str__(self) -> str:
        return f"Order({self.sku})"


class Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no")


def test_a_tool_that_ran_succeeds_whatever_it_returns():
    orders: list[Order] = []

    def create_order(sku: str) -> Order:
        orders.append(Order(sku))
        return orders[-1]

    result = run(create_order, '{"sku": "A"}')
    assert (result.content, result.is_error, len(orders)) == ("Order(A)", False, 1)


cycle: list[Any] = [1]
cycle.append(cycle)


@pytest.mark.parametrize(
    "value, text",
    [
        (b"\x89PNG\r\n", "<binary data, 6 bytes>"),
        (b"\xff", "<binary data, 1 byte>"),  # one of a unit in the singular, as the other texts
        ("hi".encode("utf-16-le"), "<binary data, 4 bytes>"),  # valid UTF-8, but a NUL says binary (as git, grep)
        (bytearray(b"\x7fELF\x02\x01\x01\x00"), "<binary data, 8 bytes>"),
        (b"\x1b[31mfailed\x1b[0m\f", "\x1b[31mfailed\x1b[0m\f"),  # other control characters are text's (colours)
        ("订单".encode(), "订单"),
        (bytearray(b"ok"), "ok"),
        (Order("B"), "Order(B)"),
        ({"order": Order("C")}, "{'order': <"),
        (ValueError("out of stock"), "out of stock"),
        (Order, "<class 'test_tools_everyday.Order'>"),
        (cycle, "[1, [...]]"),
        (10**5000, "<an int that cannot be shown as text>"),
        (Unprintable(), "<an Unprintable that cannot be shown as text>"),
        (float("nan"), '"NaN"'),
        ({"a": float("inf"), "b": [float("-inf"), 1.5]}, '{"a": "Infinity", "b": ["-Infinity", 1.5]}'),
    ],
    ids=lambda v: type(v).__name__,
)
def test_to_text_never_fails(value, text):
    assert to_text(value).startswith(text)


# --- 8. defaults that cannot be copied ---------------------------------------------------------

DB = sqlite3.connect(":memory:")
LOCK = threading.Lock()


def count_orders(status: str, db: Any = DB, lock: Any = LOCK) -> str:
    return str((db is DB, lock is LOCK))


def test_a_default_deepcopy_refuses_is_passed_as_it_is():
    assert fresh(DB) is DB
    assert run(count_orders, '{"status": "open"}').content == "(True, True)"
    assert fresh(mutable := [[1]]) == mutable and fresh(mutable) is not mutable


# --- 9. OpenAI's name rule for undecorated functions -------------------------------------------


def 查询订单(order_id: str) -> str:
    """查询订单"""
    return order_id


def look_up_the_current_status_of_an_order_by_its_identifier_in_the_shop(order_id: str) -> str:
    return order_id


@pytest.mark.parametrize("fn", [查询订单, look_up_the_current_status_of_an_order_by_its_identifier_in_the_shop])
def test_undecorated_names_follow_openais_rule_with_the_decorators_message(fn):
    message = (
        f"@tool {HERE}.{fn.__name__}: the tool name {fn.__name__!r} is not 1-64 ASCII letters, digits, '_' or '-' "
        "(OpenAI's rule). Fix: pass a valid name, e.g. @tool(name='query_order')"
    )
    assert definition_error(fn) == message
    with pytest.raises(ToolDefinitionError) as info:
        tool(fn)
    assert str(info.value) == message
    assert tools_from(tool(name="query_order")(fn))[0].name == "query_order"


# --- 10. typing.TypedDict on Python < 3.12 -----------------------------------------------------


class OldFilter(typing.TypedDict):
    status: str


def old_search(f: OldFilter) -> str:
    return ""


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="pydantic reads typing.TypedDict from Python 3.12 on")
def test_typing_typeddict_gets_pydantics_fix():
    assert definition_error(old_search) == (
        f"@tool {HERE}.old_search, parameter 'f': pydantic cannot read OldFilter, a typing.TypedDict, "
        "on Python < 3.12. Fix: define it with `from typing_extensions import TypedDict`"
    )


# --- 11. argument-error texts ------------------------------------------------------------------


@dataclasses.dataclass
class Line:
    sku: str


def add(line: Line, url: HttpUrl, p: pathlib.Path, n: int) -> str:
    return ""


def test_argument_texts_for_dataclasses_urls_and_paths():
    sent = '{"line": {"sku": "A", "qty": 2}, "url": 5, "p": 3, "n": 1}'
    assert argument_error(add, sent) == (
        "Invalid arguments for tool 'add':\n"
        "- line.qty: unknown field (got 2), remove it\n"
        "- url: got 5, expected a URL (a string)\n"
        "- p: got 3, expected a file path (a string)\n"
        "Fix the arguments and call add again."
    )
    assert '- url: got "x", expected a URL like https://example.com\n' in argument_error(
        add, '{"line": {"sku": "A"}, "url": "x", "p": "/x", "n": 1}'
    )
    assert "- url: got \"ftp://x\", expected a URL with the scheme 'http' or 'https'\n" in argument_error(
        add, '{"line": {"sku": "A"}, "url": "ftp://x", "p": "/x", "n": 1}'
    )


def test_an_integer_past_pythons_digit_limit_is_named():
    sent = '{"line": {"sku": "A"}, "url": "http://x", "p": "/x", "n": ' + "9" * 5000 + "}"
    assert argument_error(add, sent) == (
        "Invalid arguments for tool 'add':\n"
        "- arguments: got 99999999999999999... (5000 digits), expected a number of at most 4300 digits\n"
        "Fix the arguments and call add again."
    )
    with pytest.raises(ArgumentError):
        parse_arguments("add", sent)


class Cat(BaseModel):
    kind: Literal["cat"]
    meows: bool


class Dog(BaseModel):
    kind: Literal["dog"]
    barks: bool


def adopt(pet: Annotated[Union[Cat, Dog], Field(discriminator="kind")], pets: list[Cat | Dog]) -> str:
    return ""


def test_paths_leave_out_union_tags_and_name_dict_keys():
    assert argument_error(adopt, '{"pet": {"kind": "cat", "meows": "x"}, "pets": []}') == (
        "Invalid arguments for tool 'adopt':\n- pet.meows: got \"x\", expected true or false\n"
        "Fix the arguments and call adopt again."
    )

    def counts(m: dict[str, dict[int, str]]) -> str:
        return ""

    assert argument_error(counts, '{"m": {"a": {"x": "1"}}}') == (
        "Invalid arguments for tool 'counts':\n- m.a.x (key): got \"x\", expected an integer\n"
        "Fix the arguments and call counts again."
    )


# --- 12. Param inside a union, Field(validation_alias=...) -------------------------------------


def test_param_inside_optional_is_refused():
    def f(limit: Optional[Annotated[int, Param("max rows", name="maxRows")]] = None) -> str:
        return ""

    assert definition_error(f) == (
        f"@tool {HERE}.test_param_inside_optional_is_refused.<locals>.f, parameter 'limit': its Param is "
        "inside a union (Optional[...] or X | None), where it is not seen. Fix: put Param outermost: "
        "`Annotated[int | None, Param(...)]`"
    )


def test_a_string_validation_alias_is_the_wire_name():
    def f(order_id: Annotated[str, Field(validation_alias="orderId", description="The id")] = "") -> str:
        return order_id

    t = tools_from(f)[0]
    assert t.spec.parameters == {
        "type": "object",
        "properties": {"orderId": {"type": "string", "description": "The id", "default": ""}},
        "additionalProperties": False,
    }
    assert run(f, '{"orderId": "A1"}').content == "A1"


# --- 13. a sync wrapper around an async def ----------------------------------------------------


def logged(fn: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(*a: Any, **k: Any) -> Any:
        return fn(*a, **k)

    return wrapper


@logged
async def fetch_page(url: str) -> str:
    return "<html>"


def test_a_wrapped_async_def_is_refused_at_registration():
    assert definition_error(fetch_page) == (
        f"@tool {HERE}.fetch_page: it wraps an async function (functools.wraps), so a call returns a "
        "coroutine, and the executor calls tools synchronously. Fix: make the wrapped function a plain "
        "function (async tools are left out for now); a wrapper that runs the coroutine itself (asyncio.run) "
        "should not set __wrapped__ (drop functools.wraps)"
    )


# --- 14. strict mode drops OpenAPI's discriminator ---------------------------------------------


def test_strict_mode_has_no_discriminator():
    strict = tools_from(adopt, strict=True)[0].spec.to_openai(strict=True)["function"]["parameters"]
    assert strict["properties"]["pet"] == {"anyOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]}
    assert "discriminator" not in json.dumps(strict)


# --- 15. Args: blocks in two common layouts ----------------------------------------------------


def weather(city: str) -> str:
    """Args:
    city: the city name
    """
    return city


def weather2(city: str) -> str:
    """Get the weather.

    Note:
        Cached for 10 minutes.
    Args:
        city: the city name
    Returns:
        the forecast
    """
    return city


def weather3(city: str) -> str:
    """Args:
        city: the city name

    Returns:
        the forecast
    """
    return city


@pytest.mark.parametrize(
    "fn, description",
    [(weather, ""), (weather2, "Get the weather."), (weather3, "Returns: the forecast")],
)
def test_args_blocks_never_leak_into_the_description(fn, description):
    spec = tools_from(fn)[0].spec
    assert spec.description == description
    assert spec.parameters is not None
    assert spec.parameters["properties"]["city"] == {"type": "string", "description": "the city name"}


def test_a_section_right_after_the_summary():
    assert parse_docstring("Get it.\nArgs:\n    city: the city\n") == ("Get it.", {"city": "the city"})


# --- 16. callable instances --------------------------------------------------------------------


class Calc:
    """Adds one."""

    def __call__(self, x: int) -> int:
        return x + 1


class Doubler:
    @tool
    def __call__(self, x: int) -> int:
        """Doubles x."""
        return 2 * x


class Frozen:
    __slots__ = ()

    def __call__(self, x: int) -> int:
        return x


def test_a_callable_instance_is_a_tool_made_of_its_call():
    named = tools_from(tool(name="add_one")(Calc()))[0]
    assert (named.name, named.spec.description) == ("add_one", "Adds one.")
    assert named.execute(ToolCall(id="1", name="add_one", arguments='{"x": 2}')).content == "3"
    assert [(t.name, t.spec.description) for t in tools_from(Calc(), Doubler())] == [
        ("Calc", "Adds one."),
        ("Doubler", "Doubles x."),
    ]
    assert tools_from(tool("Adds.", return_behavior="immediate")(Calc()))[0].spec.return_behavior == "immediate"


class Singleton(type):
    """A metaclass with a Python `__call__` (the singleton pattern): it makes the class callable, not its instances."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return super().__call__(*args, **kwargs)


class Settings(metaclass=Singleton):
    pass


class Colour(enum.Enum):
    RED = 1


def test_an_instance_whose_metaclass_defines_call_is_not_a_callable_instance():
    # the metaclass's __call__ makes the class callable (EnumType's too), not the instance: was AttributeError
    for value, kind in ((Settings(), "Settings"), (Colour.RED, "Colour")):
        with pytest.raises(ToolDefinitionError) as info:
            tools_from(value)
        assert str(info.value) == (
            f"tools_from({kind} object): {kind} has no @tool methods. Fix: decorate its tool methods with @tool, "
            "or pass functions"
        )


def test_a_callable_instance_that_takes_no_attributes_is_refused_with_a_fix():
    with pytest.raises(ToolDefinitionError) as info:
        tool(name="same")(Frozen())
    assert str(info.value) == (
        f"@tool {HERE}.Frozen object: @tool cannot record its options on a Frozen object (it takes no new "
        "attributes). Fix: decorate its __call__ method with @tool instead"
    )
