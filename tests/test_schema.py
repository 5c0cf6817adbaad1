"""Reflection: required rules, injected parameters, nesting, strict mode, meta-schema validity,
and the exact text of every registration error."""

import datetime
import enum
import functools
import json
import typing
from typing import Annotated, Any

import jsonschema
import pytest
import tool_fixtures as F
import typing_extensions
from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from toolkit.chat.messages import ToolCall
from toolkit.errors import ConfigurationError, ToolDefinitionError
from toolkit.tools.decorator import InvocationContext, MemoryId, Param, ReturnBehavior
from toolkit.tools.execute import FEED_BACK_ALL, function_tool, tools_from
from toolkit.tools.reflect import ToolSpec, griffe_docstring, parse_docstring, reflect

HERE = __name__
META = [jsonschema.Draft202012Validator, jsonschema.Draft7Validator]


def spec(fn):
    return reflect(fn).spec


def params(fn):
    return spec(fn).parameters


# --- the required rules ------------------------------------------------------------------


def r_plain(x: int) -> str:
    return repr(x)


def r_optional_type(x: int | None) -> str:
    return repr(x)


def r_default(x: int = 5) -> str:
    return repr(x)


def r_not_required(x: Annotated[int | None, Param(required=False)]) -> str:
    return repr(x)


def r_not_required_default(x: Annotated[int, Param(required=False)] = 3) -> str:
    return repr(x)


def r_required_param_with_default(x: Annotated[int, Param(required=True)] = 7) -> str:
    return repr(x)


@pytest.mark.parametrize(
    "fn, required, default_in_schema, passed_when_omitted",
    [
        (r_plain, True, None, None),
        (r_optional_type, True, None, None),
        (r_default, False, 5, "5"),
        (r_not_required, False, None, "None"),
        (r_not_required_default, False, 3, "3"),
        (r_required_param_with_default, False, 7, "7"),  # a default always makes it optional (seed)
    ],
)
def test_required_rules(fn, required, default_in_schema, passed_when_omitted):
    p = params(fn)
    assert ("x" in p.get("required", [])) is required
    assert p["properties"]["x"].get("default") == default_in_schema
    result = function_tool(fn).execute(ToolCall(id="1", name=fn.__name__, arguments="{}"), policies=FEED_BACK_ALL)
    if passed_when_omitted is None:
        assert result.is_error and "- x: missing, expected an integer" in result.content
    else:
        assert (result.is_error, result.content) == (False, passed_when_omitted)


def test_optional_type_without_default_is_required_but_accepts_null():
    seen = []

    def f(x: int | None) -> None:
        seen.append(x)

    tool_ = function_tool(f)
    assert not tool_.execute(ToolCall(id="1", name="f", arguments='{"x": null}')).is_error
    assert seen == [None]


def test_default_is_used_when_omitted_and_recorded_in_schema():
    seen = []

    def f(limit: int = 5, when: datetime.date = datetime.date(2026, 1, 2)) -> None:
        seen.append((limit, when))

    function_tool(f).execute(ToolCall(id="1", name="f", arguments="{}"))
    assert seen == [(5, datetime.date(2026, 1, 2))]
    assert params(f)["properties"]["when"] == {"format": "date", "type": "string", "default": "2026-01-02"}


# --- what the model sees -----------------------------------------------------------------


def test_name_description_metadata_and_return_behavior():
    s = spec(F.create_ticket)
    assert (s.name, s.description) == ("create_ticket", "Open a support ticket about some items of an order.")
    assert s.metadata == {"side_effect": True}
    assert spec(F.schedule_callback).return_behavior is ReturnBehavior.IMMEDIATE
    assert spec(F.query_order).return_behavior is ReturnBehavior.TO_LLM


def test_docstring_supplies_description_and_parameter_descriptions():
    s = spec(F.query_refund_policy)
    assert s.description == "The refund policy of a product category, as it was on a given date."
    assert s.parameters["properties"]["category"]["description"] == "The product category."
    assert s.parameters["properties"]["as_of"]["description"] == (
        "The date the policy must be valid on; today when omitted."
    )


def test_parse_docstring_google_style():
    doc = """Summary line.

    More text.

    Args:
        city (str): The city,
            spelled in English.
        *args: ignored
        days: How many days.

    Returns:
        A forecast.
    """
    assert parse_docstring(doc) == (
        "Summary line.\n\nMore text.",
        {"city": "The city, spelled in English.", "args": "ignored", "days": "How many days."},
    )
    assert parse_docstring(None) == ("", {})


@pytest.mark.parametrize(
    "title", ["Keyword Arguments", "Other Args", "Other Arguments", "Other Params", "Type Parameters"]
)
def test_every_google_parameters_title_griffe_reads_describes_the_parameter(title):
    """griffe's Google titles (`_section_kind` in griffe/_internal/docstrings/google.py): a
    docstring whose one section was `Keyword Arguments:` or `Other Args:` was taken for plain text,
    the section put into the tool's description and the parameter left undescribed (pydantic-ai
    and griffe read the entry as the parameter's description)."""
    doc = f"Look up an order.\n\n{title}:\n    order_id: The order's id."
    summary, args = parse_docstring(doc)
    assert summary == "Look up an order."
    assert args == ({} if title == "Type Parameters" else {"order_id": "The order's id."})
    assert (summary, args) == griffe_docstring(doc)


@pytest.mark.parametrize(
    "title", ["Exceptions", "Warns", "Receives", "Functions", "Methods", "Classes", "Modules", "Type Aliases"]
)
def test_every_google_section_title_griffe_reads_stays_out_of_the_description(title):
    """The other Google titles griffe reads (`Exceptions:` is its `Raises:`): the section went
    into the tool's description when it was the docstring's only one."""
    doc = f"Look up an order.\n\n{title}:\n    KeyError: no such order."
    assert parse_docstring(doc) == ("Look up an order.", {}) == griffe_docstring(doc)


@pytest.mark.parametrize(
    "doc",
    [
        "查询天气。\n\nArgs:\n    城市：城市名，如 上海\n    days (int)： 天数，1 到 7",
        "查询天气。\n\nArgs：\n    城市：城市名，如 上海\n    days (int)： 天数，1 到 7",
        "查询天气。\n\nArgs：\n    城市: 城市名，如 上海\n    days (int): 天数，1 到 7",
    ],
    ids=["entries", "title and entries", "title"],
)
def test_a_google_docstring_written_with_full_width_colons_keeps_its_parameters(doc):
    """A Chinese input method types `：` (U+FF1A): under `Args:` the entries `城市：…` were not
    entries to griffe, and the section, descriptions and all, went nowhere (not in the schema, not
    in the description); `Args：` was no section at all."""
    assert parse_docstring(doc) == ("查询天气。", {"城市": "城市名，如 上海", "days": "天数，1 到 7"})


def test_full_width_colons_in_a_docstring_s_text_stay_as_written():
    doc = "查询天气：按城市。\n\n注意：只查国内。\n\nArgs:\n    city: 城市名：中文或拼音"
    assert parse_docstring(doc) == ("查询天气：按城市。\n\n注意：只查国内。", {"city": "城市名：中文或拼音"})


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["CRLF", "CR"])
@pytest.mark.parametrize(
    "lines",
    [
        ["Find orders.", "", "    Args:", "        city: the city"],
        ["Find orders.", "", "    Parameters", "    ----------", "    city : str", "        the city"],
        ["Find orders.", "", "    :param city: the city"],
    ],
    ids=["google", "numpy", "sphinx"],
)
def test_a_docstring_with_windows_or_old_mac_line_ends_reads_as_with_newlines(lines, newline):
    """A docstring given as text (`function_tool(fn, doc=...)` read from a file, `fn.__doc__ = ...`)
    with CRLF line ends kept its sections as description on Python 3.13 (`inspect.cleandoc` no
    longer takes the margin off a line ending in CR) and, as NumPy, on every Python; with CR alone,
    everywhere. Line ends are read as newlines first: one reading on 3.11, 3.12 and 3.13."""
    assert parse_docstring(newline.join([*lines, ""])) == ("Find orders.", {"city": "the city"})


def test_param_wins_over_docstring_and_renames():
    def f(order_id: Annotated[str, Param("From Param", name="orderId")]) -> None:
        """Look up.

        Args:
            order_id: From the docstring.
        """

    p = params(f)
    assert p == {
        "type": "object",
        "properties": {"orderId": {"type": "string", "description": "From Param"}},
        "required": ["orderId"],
        "additionalProperties": False,
    }


def test_field_description_and_alias_are_used():
    def f(order_id: Annotated[str, Field(description="The id", alias="orderId")]) -> None: ...

    assert params(f)["properties"] == {"orderId": {"type": "string", "description": "The id"}}


def test_injected_parameters_are_not_in_the_schema():
    p = params(F.query_logistics)
    assert list(p["properties"]) == ["orderId"]
    assert [i.inject for i in reflect(F.create_ticket).params] == [None] * 5 + ["context"]
    assert [i.inject for i in reflect(F.query_logistics).params] == [None, "memory_id"]


def test_memory_id_marker_may_be_an_instance():
    def f(q: str, m: Annotated[str, MemoryId()]) -> None: ...

    assert list(params(f)["properties"]) == ["q"]


def test_no_model_facing_parameters_means_no_parameters_object():
    def only_injected(ctx: InvocationContext, m: Annotated[Any, MemoryId]) -> str:
        """Who am I."""
        return ""

    assert spec(F.current_time).parameters is None
    assert spec(only_injected).parameters is None
    assert spec(F.current_time).to_openai() == {
        "type": "function",
        "function": {"name": "current_time", "description": "The current date and time in the shop's time zone."},
    }


def test_nested_and_recursive_models_are_defined_once_and_referenced():
    p = params(F.browse_categories)
    assert p["properties"]["root"] == {"$ref": "#/$defs/Category"}
    assert list(p["$defs"]) == ["Category"]
    assert p["$defs"]["Category"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Category"}
    assert json.dumps(p).count('"name": {"type": "string"}') == 1


def test_enums_literals_lists_dates_unions():
    p = params(F.search_orders)["properties"]
    assert p["status"] == {"anyOf": [{"$ref": "#/$defs/OrderStatus"}, {"type": "null"}], "default": None}
    assert params(F.search_orders)["$defs"]["OrderStatus"] == {
        "description": "Where an order is in its life.",
        "enum": ["pending", "shipped", "delivered"],
        "type": "string",
    }
    assert p["limit"] == {
        "maximum": 50,
        "minimum": 1,
        "type": "integer",
        "description": "At most this many",
        "default": 10,
    }
    assert p["tags"] == {"items": {"type": "string"}, "type": "array", "default": []}
    assert params(F.query_refund_policy)["properties"]["category"]["enum"] == ["phone", "laptop", "clothes"]
    assert params(F.rate_delivery)["properties"]["stars"] == {"enum": [1, 2, 3, 4, 5], "type": "integer"}
    assert params(F.rate_delivery)["properties"]["order_id"] == {"format": "uuid", "type": "string"}


def test_to_openai_shape():
    out = spec(F.query_order).to_openai()
    assert out == {
        "type": "function",
        "function": {
            "name": "query_order",
            "description": "Look up one order by its id and return its status, items and total.",
            "parameters": {
                "type": "object",
                "properties": {"orderId": {"type": "string", "description": "Order id, e.g. SN202610200001"}},
                "required": ["orderId"],
                "additionalProperties": False,
            },
        },
    }


def test_hand_written_spec_from_openai_round_trips():
    data = spec(F.get_weather).to_openai()
    assert ToolSpec.from_openai(data).to_openai() == data
    assert ToolSpec.from_openai(data["function"]).parameters == data["function"]["parameters"]


def test_reflection_is_cached_per_function():
    assert reflect(F.search_orders) is reflect(F.search_orders)
    assert spec(F.search_orders).strict_parameters is spec(F.search_orders).strict_parameters


# --- every schema is valid JSON Schema, and legitimate calls validate ---------------------


def _strict_call(value: Any, schema: dict, defs: dict) -> Any:
    """A legitimate call in strict form: every missing optional property sent as null."""
    if "$ref" in schema:
        return _strict_call(value, defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    for branch in schema.get("anyOf", []):
        if branch != {"type": "null"} and value is not None:
            return _strict_call(value, branch, defs)
    if "properties" in schema and isinstance(value, dict):
        return {k: _strict_call(value.get(k), s, defs) for k, s in schema["properties"].items()}
    if "items" in schema and isinstance(value, list):
        return [_strict_call(v, schema["items"], defs) for v in value]
    return value


@pytest.mark.parametrize("fn", F.FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("validator", META, ids=lambda v: v.__name__)
def test_schemas_are_valid_json_schema(fn, validator):
    s = spec(fn)
    if s.parameters is None:
        return
    validator.check_schema(s.parameters)
    if fn.__name__ not in F.NOT_STRICT:
        validator.check_schema(s.strict_parameters)


@pytest.mark.parametrize("fn", F.FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("which", ["MINIMAL", "FULL"])
def test_legitimate_calls_validate_and_execute(fn, which):
    call = getattr(F, which)[fn.__name__]
    s = spec(fn)
    if s.parameters is not None:
        checker = jsonschema.Draft202012Validator(s.parameters, format_checker=jsonschema.FormatChecker())
        checker.validate(call)
    result = function_tool(fn).execute(ToolCall(id="1", name=s.name, arguments=json.dumps(call)))
    assert not result.is_error, result.content


@pytest.mark.parametrize("fn", [f for f in F.FUNCTIONS if f.__name__ not in F.NOT_STRICT], ids=lambda f: f.__name__)
@pytest.mark.parametrize("which", ["MINIMAL", "FULL"])
def test_legitimate_calls_in_strict_form_validate_and_execute(fn, which):
    s = spec(fn)
    if s.parameters is None:
        return
    strict = s.strict_parameters
    call = _strict_call(getattr(F, which)[fn.__name__], strict, strict.get("$defs", {}))
    jsonschema.Draft202012Validator(strict, format_checker=jsonschema.FormatChecker()).validate(call)
    result = function_tool(fn).execute(ToolCall(id="1", name=s.name, arguments=json.dumps(call)))
    assert not result.is_error, result.content


def test_a_call_the_schema_rejects_is_rejected_by_the_executor_too():
    bad = {"orderId": "SN1", "refundAmount": 2999}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, params(F.query_order))
    assert (
        function_tool(F.query_order)
        .execute(ToolCall(id="1", name="query_order", arguments=json.dumps(bad)), policies=FEED_BACK_ALL)
        .is_error
    )


# --- strict mode --------------------------------------------------------------------------


def test_strict_rendering():
    out = spec(F.search_orders).to_openai(strict=True)["function"]
    assert out["strict"] is True
    p = out["parameters"]
    assert p["required"] == ["query", "status", "limit", "since", "tags"]
    assert p["additionalProperties"] is False
    assert p["properties"]["limit"] == {
        "anyOf": [{"maximum": 50, "minimum": 1, "type": "integer"}, {"type": "null"}],
        "description": "At most this many",
    }
    assert p["properties"]["status"] == {"anyOf": [{"$ref": "#/$defs/OrderStatus"}, {"type": "null"}]}
    assert "default" not in json.dumps(p)


def test_strict_moves_unsupported_keywords_into_the_description():
    p = spec(F.create_ticket).strict_parameters
    assert p["properties"]["title"] == {"type": "string", "description": "minLength=3, maxLength=80"}
    assert p["$defs"]["LineItem"]["required"] == ["sku", "quantity", "gift"]


def test_strict_recursive_model_keeps_refs():
    p = spec(F.browse_categories).strict_parameters
    children = p["$defs"]["Category"]["properties"]["children"]
    assert children == {"anyOf": [{"items": {"$ref": "#/$defs/Category"}, "type": "array"}, {"type": "null"}]}


def test_strict_ref_with_description_moves_into_any_of():
    class Point(BaseModel):
        x: int

    def f(p: Annotated[Point, Param("Where")]) -> None: ...

    assert spec(f).strict_parameters["properties"]["p"] == {
        "description": "Where",
        "anyOf": [{"$ref": "#/$defs/Point"}],
    }


# --- registration errors, exact text ------------------------------------------------------


def _error(fn) -> str:
    with pytest.raises(ToolDefinitionError) as info:
        reflect(fn)
    assert isinstance(info.value, ConfigurationError)
    return str(info.value)


def star_args(*args: str) -> None: ...
def star_kwargs(city: str, **kwargs: Any) -> None: ...
def positional_only(city: str, /) -> None: ...
def no_annotation(city) -> None: ...
def unresolved(city: "NoSuchType") -> None: ...  # noqa: F821
def two_descriptions(city: Annotated[str, Param("A"), Field(description="B")]) -> None: ...
def two_names(city: Annotated[str, Param(name="town"), Field(alias="place")]) -> None: ...
def not_nullable(limit: Annotated[int, Param(required=False)]) -> None: ...
def bad_default(limit: int = 2.5) -> None: ...  # type: ignore[assignment]
def none_default(limit: int = None) -> None: ...  # type: ignore[assignment]
def bad_bool_default(flag: bool = "yes") -> None: ...  # type: ignore[assignment]
def bad_bound_default(days: Annotated[int, Field(ge=1)] = 0) -> None: ...
def unsupported_type(callback: functools.partial) -> None: ...
def same_wire_name(a: Annotated[str, Param(name="b")], b: str) -> None: ...


async def an_async_tool(city: str) -> str: ...


def test_async_functions_are_refused():
    assert _error(an_async_tool) == (
        f"@tool {HERE}.an_async_tool: it is async, and the executor calls tools synchronously. "
        "Fix: make it a plain function (async tools are left out for now)"
    )


def a_generator_tool(city: str):
    """Yields forecasts."""
    yield city


def test_generator_functions_are_refused():
    """A generator used to register, then send the model '<generator object … at 0x…>'."""
    assert _error(a_generator_tool) == (
        f"@tool {HERE}.a_generator_tool: it is a generator (it yields), and a tool call needs one return value. "
        "Fix: return a list (or a string) instead of yielding"
    )


def test_a_partial_is_refused_by_name_without_a_memory_address():
    from toolkit import tool, tools_from

    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    bound = functools.partial(add, b=1)
    expected = (
        "a functools.partial cannot be reflected (its name, docstring and type hints are partial's own, "
        "not the function's). Fix: write a small def with the remaining parameters that calls the function, "
        "and decorate that"
    )
    label = f"functools.partial({HERE}.test_a_partial_is_refused_by_name_without_a_memory_address.<locals>.add)"
    with pytest.raises(ToolDefinitionError) as info:
        tool(bound)
    assert str(info.value) == f"@tool {label}: {expected}"
    with pytest.raises(ToolDefinitionError) as info:
        tools_from(bound)
    assert str(info.value) == f"tools_from({label}): {expected}"
    assert "0x" not in str(info.value)


def test_star_args():
    assert _error(star_args) == (
        f"@tool {HERE}.star_args, parameter '*args': *args cannot be filled from named JSON arguments "
        "(a decorator without functools.wraps hides the real parameters this way). "
        "Fix: declare each argument as a named parameter, and use functools.wraps in decorators"
    )


def test_star_kwargs():
    assert _error(star_kwargs) == (
        f"@tool {HERE}.star_kwargs, parameter '**kwargs': **kwargs cannot be filled from named JSON "
        "arguments (a decorator without functools.wraps hides the real parameters this way). "
        "Fix: declare each argument as a named parameter, and use functools.wraps in decorators"
    )


class _Options(typing_extensions.TypedDict):
    limit: int
    sort: typing_extensions.NotRequired[str]


def unpacked(query: str, **options: typing_extensions.Unpack[_Options]) -> str:
    return query


def unpacked_text(query: str, **options: "typing_extensions.Unpack[_Options]") -> str:
    return query


@pytest.mark.parametrize("fn", [unpacked, unpacked_text])
def test_star_kwargs_of_a_typed_dict_names_it(fn):
    """`**options: Unpack[_Options]` (PEP 692) was told that a decorator without functools.wraps
    hides the real parameters, and to use functools.wraps: neither is so. pydantic-ai and the
    OpenAI Agents SDK refuse it too (pydantic cannot describe `Unpack[...]`); the fix names the
    TypedDict and the two ways that work."""
    assert _error(fn) == (
        f"@tool {HERE}.{fn.__name__}, parameter '**options': **options: Unpack[_Options] passes the "
        "arguments as the keys of a TypedDict, which a tool's schema cannot read. Fix: declare each key of "
        "_Options as a keyword parameter (def f(..., *, key: type = default)), or take it as one "
        "parameter: options: _Options"
    )


def test_decorator_without_wraps_is_caught_and_with_wraps_is_fine():
    def logged(fn):
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        return wrapper

    def logged_properly(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        return wrapper

    def lookup(order_id: str) -> str:
        return order_id

    assert "'*args'" in _error(logged(lookup))
    tool_ = function_tool(logged_properly(lookup))
    assert tool_.execute(ToolCall(id="1", name="lookup", arguments='{"order_id": "SN1"}')).content == "SN1"


def test_positional_only():
    """Described by its name, as any other parameter (the executor passes it by position: test_peers_round6)."""
    assert reflect(positional_only).spec.parameters == {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    }


def test_no_annotation():
    assert _error(no_annotation) == (
        f"@tool {HERE}.no_annotation, parameter 'city': it has no type annotation, so the model is "
        "not told what to send. Fix: annotate it, e.g. `city: str` (or `Any`)"
    )


def test_unresolved_annotation():
    assert _error(unresolved) == (
        f"@tool {HERE}.unresolved, parameter 'city': its annotation 'NoSuchType' cannot be resolved "
        "(NameError: name 'NoSuchType' is not defined). "
        "Fix: import the type at module level (not under TYPE_CHECKING)"
    )


def unclosed(city: "list[str") -> None: ...  # noqa: F722


def test_an_annotation_that_is_not_python_says_so_not_to_import_it():
    """A string annotation with a typo was told "Fix: import the type at module level", which
    cannot mend a bracket never closed."""
    assert _error(unclosed) == (
        f"@tool {HERE}.unclosed, parameter 'city': its annotation 'list[str' cannot be resolved "
        "(SyntaxError: '[' was never closed (<annotation>, line 1)). "
        "Fix: write the annotation as a Python type, e.g. 'list[str]'"
    )


def test_two_descriptions():
    assert _error(two_descriptions) == (
        f"@tool {HERE}.two_descriptions, parameter 'city': Param and Field give it two different "
        "descriptions (Param('A') and Field(description='B')). Fix: keep one of them"
    )


def test_two_names():
    assert _error(two_names) == (
        f"@tool {HERE}.two_names, parameter 'city': Param(name='town') and Field(alias='place') give "
        "it two different names. Fix: keep one of them"
    )


def test_required_false_on_a_type_that_cannot_be_none():
    assert _error(not_nullable) == (
        f"@tool {HERE}.not_nullable, parameter 'limit': Param(required=False) passes None when the "
        "model omits it, but int does not accept None. Fix: annotate it as `int | None`, or give it "
        "a default"
    )


def test_default_that_is_not_valid_for_its_type():
    assert _error(bad_default) == (
        f"@tool {HERE}.bad_default, parameter 'limit': the default 2.5 is not a valid int: Input "
        "should be a valid integer, got a number with a fractional part. "
        "Fix: give a default of that type, or change the type"
    )
    assert _error(none_default) == (
        f"@tool {HERE}.none_default, parameter 'limit': the default None is not a valid int: Input "
        "should be a valid integer. Fix: give a default of that type, or change the type "
        "(e.g. `int | None = None`)"
    )
    assert _error(bad_bool_default) == (
        f"@tool {HERE}.bad_bool_default, parameter 'flag': the default 'yes' is not a valid bool: "
        "Input should be a valid boolean. Fix: give a default of that type, or change the type"
    )
    assert _error(bad_bound_default) == (
        f"@tool {HERE}.bad_bound_default, parameter 'days': the default 0 is not a valid "
        "Annotated[int, Field(ge=1)]: Input should be greater than or equal to 1. "
        "Fix: give a default of that type, or change the type"
    )


def test_unsupported_type():
    assert _error(unsupported_type) == (
        f"@tool {HERE}.unsupported_type, parameter 'callback': pydantic cannot describe partial as "
        "JSON Schema (PydanticSchemaGenerationError). Fix: use a JSON-friendly type: str, int, "
        "float, bool, list/dict of them, an Enum, a pydantic model"
    )


class PhoneNumber(str):
    """A type whose validation needs a package not installed, as pydantic's `EmailStr` without
    email-validator, or pydantic-extra-types' `PhoneNumber` without phonenumbers."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        raise ImportError("phonenumbers is not installed, run `pip install 'pydantic-extra-types[phonenumbers]'`")


def needs_a_package(phone: PhoneNumber) -> None: ...


def test_a_type_that_needs_a_package_not_installed_says_which():
    """`EmailStr` without email-validator was told 'pydantic cannot describe EmailStr as JSON
    Schema (ImportError). Fix: use a JSON-friendly type', though EmailStr is one: pydantic's
    own message names the package to install."""
    assert _error(needs_a_package) == (
        f"@tool {HERE}.needs_a_package, parameter 'phone': pydantic needs a package that is not "
        "installed to read PhoneNumber (phonenumbers is not installed, run `pip install "
        "'pydantic-extra-types[phonenumbers]'`). Fix: install it, or take a str and check the value in the tool"
    )


def test_two_parameters_with_one_wire_name():
    assert _error(same_wire_name) == (
        f"@tool {HERE}.same_wire_name: two parameters are both called 'b' in the schema. "
        "Fix: give them different Param(name=...)"
    )


def test_two_types_with_one_name():
    class Item(BaseModel):
        a: int

    first = Item

    class Item(BaseModel):  # noqa: F811 - a second, different class of the same name
        b: str

    def clash(x: first, y: Item) -> None: ...

    assert _error(clash) == (
        f"@tool {HERE}.test_two_types_with_one_name.<locals>.clash: two different types are both "
        "named 'Item' in its schema. Fix: rename one of the classes"
    )


class Options(BaseModel):
    extra: dict[str, str]


def free_dict(filters: dict[str, str]) -> None: ...
def any_value(value: Any) -> None: ...
def bare_list(values: list) -> None: ...
def a_tuple(point: tuple[int, int]) -> None: ...
def nested_free_dict(options: Options) -> None: ...


@pytest.mark.parametrize(
    "fn, message",
    [
        (
            free_dict,
            "@tool {m}.free_dict, parameter 'filters': OpenAI strict mode needs every object to "
            "list its properties, but this is a free-form dict. Fix: use a pydantic model with "
            "named fields, or register the tool without strict mode",
        ),
        (
            any_value,
            "@tool {m}.any_value, parameter 'value': OpenAI strict mode needs a type for every "
            "value, but this one accepts any value. Fix: give it a concrete type (not Any, a bare "
            "list or a bare dict), or register the tool without strict mode",
        ),
        (
            bare_list,
            "@tool {m}.bare_list, parameter 'values[]': OpenAI strict mode needs a type for every "
            "value, but this one accepts any value. Fix: give it a concrete type (not Any, a bare "
            "list or a bare dict), or register the tool without strict mode",
        ),
        (
            a_tuple,
            "@tool {m}.a_tuple, parameter 'point': OpenAI strict mode does not support tuples "
            "(prefixItems). Fix: use list[...] or a pydantic model, or register the tool without "
            "strict mode",
        ),
        (
            nested_free_dict,
            "@tool {m}.nested_free_dict, parameter '$defs.Options.extra': OpenAI strict "
            "mode needs every object to list its properties, but this is a free-form "
            "dict. Fix: use a pydantic model with named fields, or register the tool "
            "without strict mode",
        ),
    ],
)
def test_types_that_cannot_be_strict(fn, message):
    with pytest.raises(ToolDefinitionError) as info:
        tools_from(fn, strict=True)
    assert str(info.value) == message.format(m=HERE)
    with pytest.raises(ToolDefinitionError) as info:  # rendering names the tool instead
        spec(fn).to_openai(strict=True)
    assert str(info.value).startswith(f"tool {fn.__name__!r}, parameter ")
    assert spec(fn).to_openai()["function"]["name"] == fn.__name__  # normal mode still works


def test_object_without_properties_cannot_be_strict():
    from toolkit.tools.strict import strict_schema

    with pytest.raises(ToolDefinitionError) as info:
        strict_schema({"type": "object", "properties": {"x": {"type": "object"}}}, "tool 'x'")
    assert str(info.value) == (
        "tool 'x', parameter 'x': OpenAI strict mode needs every object to list its properties, "
        "but this object lists none. Fix: use a pydantic model with named fields, or register the "
        "tool without strict mode"
    )


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


def test_optional_spelling_and_int_enum():
    def f(level: Level | None = None) -> None: ...

    assert params(f)["$defs"] == {"Level": {"enum": [1, 2], "type": "integer"}}


# --- cases from the peers' own test suites (issue: tools written the way people write them) ----


def call(fn, arguments: str):
    return function_tool(fn).execute(ToolCall(id="1", name=fn.__name__, arguments=arguments), policies=FEED_BACK_ALL)


def test_field_as_a_required_default_gives_constraints():
    """openai-agents tests/test_function_schema.py::test_function_with_field_required_constraints."""

    def func_with_field_constraints(my_number: int = Field(..., gt=10, le=100)) -> int:
        return my_number * 2

    p = params(func_with_field_constraints)
    assert p["properties"]["my_number"] == {"exclusiveMinimum": 10, "maximum": 100, "type": "integer"}
    assert p["required"] == ["my_number"]
    assert call(func_with_field_constraints, '{"my_number": 50}').content == "100"
    assert "a number > 10" in call(func_with_field_constraints, '{"my_number": 5}').content
    assert "a number <= 100" in call(func_with_field_constraints, '{"my_number": 150}').content


def test_field_as_an_optional_default_gives_the_default_and_constraints():
    """openai-agents tests/test_function_schema.py::test_function_with_field_optional_with_default."""

    def func_with_optional_field(required_param: str, optional_param: float = Field(default=5.0, ge=0.0)) -> str:
        return f"{required_param}: {optional_param}"

    p = params(func_with_optional_field)
    assert p["properties"]["optional_param"] == {"default": 5.0, "minimum": 0.0, "type": "number"}
    assert p["required"] == ["required_param"]
    assert call(func_with_optional_field, '{"required_param": "test"}').content == "test: 5.0"
    assert call(func_with_optional_field, '{"required_param": "test", "optional_param": 10.5}').content == "test: 10.5"
    assert call(func_with_optional_field, '{"required_param": "t", "optional_param": -1}').is_error


def test_field_description_as_default_and_string_constraints():
    """openai-agents tests/test_function_schema.py::test_function_with_field_description_only and
    ::test_function_with_field_string_constraints and ::test_function_with_field_multiple_constraints."""

    def func(
        param_with_field_desc: int = Field(..., description="Field description only"),
        param_without_desc: str = Field(default="hello"),
        name: str = Field(..., min_length=3, max_length=20, pattern=r"^[A-Za-z]+$"),
        factor: float = Field(default=1.0, gt=0.0, description="Positive multiplier"),
    ) -> str:
        return f"{param_with_field_desc} {param_without_desc} {name} {factor}"

    props = params(func)["properties"]
    assert props["param_with_field_desc"] == {"description": "Field description only", "type": "integer"}
    assert props["param_without_desc"] == {"default": "hello", "type": "string"}
    assert props["name"] == {"maxLength": 20, "minLength": 3, "pattern": "^[A-Za-z]+$", "type": "string"}
    assert props["factor"] == {
        "default": 1.0,
        "description": "Positive multiplier",
        "exclusiveMinimum": 0.0,
        "type": "number",
    }
    assert params(func)["required"] == ["param_with_field_desc", "name"]
    assert call(func, '{"param_with_field_desc": 1, "name": "Alice"}').content == "1 hello Alice 1.0"


def test_field_default_factory_is_a_fresh_default():
    """pydantic docs idiom `Field(default_factory=list)` (openai-agents function_schema accepts it)."""

    def add(item: str, seen: list[str] = Field(default_factory=list)) -> str:
        seen.append(item)
        return str(len(seen))

    assert call(add, '{"item": "a"}').content == "1"
    assert call(add, '{"item": "b"}').content == "1"


def test_field_default_factory_runs_for_each_call_and_is_not_shown_as_a_default():
    """pydantic calls a `default_factory` each time the value is left out, and its JSON Schema (so
    pydantic-ai's and openai-agents' tool schema) shows no `default` for it: the factory's value is
    not a constant. It was called once, at registration: every call got that one value (the same
    stamp, the same number), and the schema showed it (a wall-clock time in a spec)."""
    made = iter(range(100))

    def stamp(
        n: int = Field(default_factory=lambda: next(made)), tag: Annotated[str, Field(default_factory=str)] = ""
    ) -> str:
        return f"{n}{tag}"

    assert params(stamp)["properties"] == {"n": {"type": "integer"}, "tag": {"type": "string"}}
    assert "required" not in params(stamp)
    tool = function_tool(stamp)
    first, second = (
        tool.execute(ToolCall(id=str(i), name="stamp", arguments="{}"), policies=FEED_BACK_ALL).content for i in (1, 2)
    )
    assert first != second
    assert tool.execute(
        ToolCall(id="3", name="stamp", arguments='{"n": null}'), policies=FEED_BACK_ALL
    ).content not in (
        first,
        second,
    )


def test_field_default_factory_that_takes_the_data_is_a_developer_error():
    """pydantic's `default_factory=lambda data: ...` reads the other fields of a model; a tool's
    parameters are no model, so it is refused at registration (it was a bare TypeError there)."""

    def f(a: int, b: int = Field(default_factory=lambda data: data["a"] + 1)) -> str:
        return ""

    with pytest.raises(ToolDefinitionError) as info:
        spec(f)
    assert str(info.value) == (
        f"@tool {f.__module__}.{f.__qualname__}, parameter 'b': its Field's default_factory takes the validated data, which only a "
        "pydantic model has (a tool's parameters are not one). Fix: give a default_factory without "
        "parameters, or compute the value in the function from `b: int | None = None`"
    )


def test_annotated_field_default_is_not_required_and_is_used():
    """openai-agents tests/test_function_schema.py::test_function_with_annotated_field_optional_with_default."""

    def func_with_annotated_optional_field(
        required_param: str, optional_param: Annotated[float, Field(default=5.0, ge=0.0)]
    ) -> str:
        return f"{required_param}: {optional_param}"

    t = function_tool(func_with_annotated_optional_field)
    assert t.spec.parameters["required"] == ["required_param"]
    assert t.spec.parameters["properties"]["optional_param"] == {"default": 5.0, "minimum": 0.0, "type": "number"}
    strict = t.spec.strict_parameters["properties"]["optional_param"]
    assert {"type": "null"} in strict["anyOf"]
    assert call(func_with_annotated_optional_field, '{"required_param": "test"}').content == "test: 5.0"
    assert (
        call(func_with_annotated_optional_field, '{"required_param": "t", "optional_param": null}').content == "t: 5.0"
    )


def test_field_default_and_signature_default_that_differ_are_a_developer_error():
    def f(x: Annotated[int, Field(default=1)] = 2) -> str:
        return ""

    with pytest.raises(ToolDefinitionError) as info:
        reflect(f)
    assert str(info.value) == (
        "@tool test_schema.test_field_default_and_signature_default_that_differ_are_a_developer_error.<locals>.f, "
        "parameter 'x': Field gives the default 1 and the signature gives 2. Fix: keep one of them"
    )


def test_bare_string_in_annotated_is_the_description():
    """openai-agents tests/test_function_schema.py::test_function_uses_annotated_descriptions_without_docstring."""

    def add(a: Annotated[int, "First number to add"], b: Annotated[int, "Second number to add"]) -> int:
        return a + b

    props = params(add)["properties"]
    assert props["a"] == {"description": "First number to add", "type": "integer"}
    assert props["b"] == {"description": "Second number to add", "type": "integer"}


def test_docstring_wins_over_a_bare_string_and_param_wins_over_both():
    """openai-agents tests/test_function_schema.py::test_function_prefers_docstring_descriptions_over_annotated_metadata;
    the precedence is Param, Field, docstring, bare string."""

    def add(
        a: Annotated[int, "Annotated description for a"],
        b: Annotated[int, "Annotated description for b"],
        c: Annotated[int, Param("Param for c")],
    ) -> int:
        """Adds two integers.

        Args:
            a: Docstring provided description.
            c: Docstring for c.
        """
        return a + b + c

    props = params(add)["properties"]
    assert props["a"]["description"] == "Docstring provided description."
    assert props["b"]["description"] == "Annotated description for b"
    assert props["c"]["description"] == "Param for c"


def test_field_description_wins_over_the_docstring():
    """A `Field(description=...)`, in `Annotated` or as the default, wins over the docstring's entry:
    pydantic-ai 2.68.0's order. The OpenAI Agents SDK 0.24.0 differs (its `function_schema` takes
    `field_description or field_info.description`, the docstring's entry first), and so does
    langchain-core 1.8.3's `tool(parse_docstring=True)`; the README names each peer for the part
    of the order it shares."""

    def weather(
        city: Annotated[str, Field(description="Field says city")],
        days: int = Field(3, description="Field says days"),  # noqa: B008
    ) -> str:
        """Weather.

        Args:
            city: Docstring says city.
            days: Docstring says days.
        """
        return ""

    props = params(weather)["properties"]
    assert props["city"] == {"description": "Field says city", "type": "string"}
    assert props["days"] == {"default": 3, "description": "Field says days", "type": "integer"}


def test_bare_string_and_param_that_disagree_are_a_developer_error():
    def f(x: Annotated[int, Param("one"), "two"]) -> str:
        return ""

    with pytest.raises(ToolDefinitionError) as info:
        reflect(f)
    assert str(info.value).endswith(
        "parameter 'x': its declaration gives two different descriptions ('one' and 'two'). "
        "Fix: keep one of them (Param, Field, Doc or a bare string in Annotated)"
    )


def test_bare_string_and_field_default_stay_on_the_fast_path():
    """The reflection benchmark's rule: these must not fall back to pydantic's schema generator."""
    from toolkit.tools import fast_schema

    def f(amount: Annotated[float, "Amount in the source currency"], limit: int = Field(10, ge=1)) -> str:
        return ""

    fast_schema.clear_cache()
    calls = []
    original = fast_schema.pydantic_schema
    fast_schema.pydantic_schema = lambda a: calls.append(a) or original(a)
    try:
        function_tool(f)
    finally:
        fast_schema.pydantic_schema = original
    assert calls == []


NUMPY_DOC = """Greet a person.

    Parameters
    ----------
    name : str
        The person's name.
    times : int
        How often.

    Returns
    -------
    str
        The greeting.
    """

SPHINX_DOC = """Greet a person.

    :param name: The person's name.
    :param times: How often.
    :returns: The greeting.
    :raises ValueError: when times is negative.
    """


@pytest.mark.parametrize("doc", [NUMPY_DOC, SPHINX_DOC], ids=["numpy", "sphinx"])
def test_numpy_and_sphinx_docstrings(doc):
    """pydantic-ai tests/test_tools.py::test_docstring_numpy (and its Sphinx twin), openai-agents
    tests/test_function_schema.py (docstring styles): the parameter descriptions are read and no
    unparsed section leaks into the tool's description."""

    def greet(name: str, times: int) -> str:
        return ""

    greet.__doc__ = doc
    s = reflect(greet).spec
    assert s.description == "Greet a person."
    assert s.parameters["properties"]["name"]["description"] == "The person's name."
    assert s.parameters["properties"]["times"]["description"] == "How often."


def test_docstring_with_only_returns_gives_a_description():
    """pydantic-ai tests/test_tools.py::test_only_returns_type (the same docstring: a blank line,
    then only `Returns:` with a typed entry)."""

    def only_returns_type() -> str:
        """

        Returns:
            str: The result as a string.
        """
        return "foo"

    assert reflect(only_returns_type).spec.description == "Returns: The result as a string."


def test_attribute_docstrings_of_a_typeddict_parameter():
    """Attribute docstrings as pydantic's `ConfigDict.use_attribute_docstrings` reads them (the
    convention pydantic-ai's tool schemas follow), for a TypedDict, which cannot set a config."""
    from typing_extensions import TypedDict

    class Location(TypedDict):
        city: str
        """The city name."""
        country: str

    def find(where: Location) -> str:
        return ""

    body = params(find)["$defs"]["Location"]
    assert body["properties"]["city"] == {"description": "The city name.", "type": "string"}
    assert body["properties"]["country"] == {"type": "string"}


class Dummy:
    def dummy_function(self, x: int) -> str:
        return str(x)


def test_an_unbound_method_must_be_bound_or_decorated_on_the_class():
    """LangChain4j-style and openai-agents: `Dummy.dummy_function` given as a tool."""
    with pytest.raises(ToolDefinitionError) as info:
        tools_from(Dummy.dummy_function)
    assert str(info.value) == (
        "@tool test_schema.Dummy.dummy_function, parameter 'self': Dummy.dummy_function is a method "
        "taken from its class, so nothing fills 'self': it must be bound to an instance, or decorated on "
        "the class. Fix: pass `Dummy().dummy_function`, or decorate the method with @tool and pass an "
        "instance: tools_from(Dummy())"
    )
    assert tools_from(Dummy().dummy_function)[0].spec.parameters["required"] == ["x"]


class Borrowed:
    def area(this, width: float) -> str:  # noqa: N805 (a first parameter not named self)
        return str(width)

    @staticmethod
    def plain(this: int) -> str:
        return str(this)


def test_an_unbound_method_whose_first_parameter_is_not_named_self_is_told_as_such():
    """`this` first: "parameter 'this': it has no type annotation ... annotate it", a fix that makes
    the model fill the instance; it is a method taken from its class, as with `self`."""
    with pytest.raises(ToolDefinitionError) as info:
        tools_from(Borrowed.area)
    assert str(info.value) == (
        "@tool test_schema.Borrowed.area, parameter 'this': Borrowed.area is a method "
        "taken from its class, so nothing fills 'this': it must be bound to an instance, or decorated on "
        "the class. Fix: pass `Borrowed().area`, or decorate the method with @tool and pass an "
        "instance: tools_from(Borrowed())"
    )
    assert tools_from(Borrowed.plain)[0].spec.parameters["required"] == ["this"]


def test_the_validated_type_keeps_only_the_types_own_metadata():
    """`ParamInfo.annotation` (what arguments are validated against) is the type with its own
    metadata: `Param`, bare strings and `MemoryId` taken out, a `Field`'s alias and default
    taken off; the annotation as written when nothing is taken out."""
    bound = Field(ge=0)
    named = Field(ge=1, alias="n")
    as_written = Annotated[int, bound]

    def fn(
        a: as_written,
        b: Annotated[int, Param("B"), bound],
        c: Annotated[str, "a note", Field(max_length=3)],
        d: Annotated[int, named],
        e: Annotated[int, bound] = Field(5),
    ) -> str:
        """Metadata of every kind."""
        return ""

    a, b, c, d, e = (p.annotation for p in reflect(fn).params)
    assert a is as_written
    assert typing.get_args(b) == (int, bound)
    assert typing.get_args(c)[0] is str and [type(m) for m in typing.get_args(c)[1:]] == [FieldInfo]
    (plain,) = typing.get_args(d)[1:]
    assert plain is not named and plain.alias is None and plain.metadata == named.metadata
    assert typing.get_args(e)[:2] == (int, bound) and len(typing.get_args(e)) == 3


def test_a_default_factorys_value_reaches_the_function_as_a_default_would():
    """A plain default is read into its type once (`x: Level = "2"` gives `Level(2)`); a factory's
    value went to the function as the factory made it (a str where an enum was declared)."""

    def pick(level: Level = Field(default_factory=lambda: "2")) -> str:
        return repr(level)

    assert call(pick, "{}").content == call(pick, '{"level": 2}').content == repr(Level(2))


@pytest.mark.parametrize(
    "pattern, reason",
    [
        (r"^(?=.*\d).{8,}$", "look-around, including look-ahead and look-behind, is not supported"),
        (r"(a)\1", "backreferences are not supported"),
    ],
    ids=["look-ahead", "backreference"],
)
def test_a_pattern_pydantics_regex_engine_cannot_read_is_told_as_such(pattern, reason):
    """`Field(pattern=...)` with a look-ahead (a password rule) is valid Python `re`, but pydantic
    reads patterns with Rust's regex engine: the fix said "give each constraint a value of the
    parameter's type (e.g. an int bound for an int)", which has nothing to do with it."""

    def set_password(password: Annotated[str, Field(pattern=pattern)]) -> str:
        """Set it."""
        return "ok"

    with pytest.raises(ToolDefinitionError) as info:
        reflect(set_password)
    assert str(info.value).endswith(
        f"parameter 'password': pydantic cannot read the pattern {pattern!r}: {reason} (it reads patterns "
        "with Rust's regex engine, which has no look-around or backreferences). Fix: write the pattern "
        "without them, or take a str and check the value in the tool (raise ValueError with the rule)"
    )
