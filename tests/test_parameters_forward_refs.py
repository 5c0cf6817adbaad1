"""Quoted names in annotations, read in the learner's module.

A class defined below the tool is written as a quoted name: `items: list["Item"]`,
`one: Optional["Item"]`. Only a wholly quoted annotation (`one: "Item"`) was looked up; a quoted
name inside a type went to pydantic as it was, which looked for it in the package's module and
failed, and the tool was refused with "use a JSON-friendly type" (pydantic-ai, LangChain and
the OpenAI Agents SDK all read such a function). A text annotation of a function wrapped by a
decorator from another module (`functools.wraps`) or by `functools.lru_cache` was read in the
decorator's module, so a class of the learner's module "could not be resolved"; it is read
where the wrapped function was written, as `typing.get_type_hints` reads it.

No `from __future__ import annotations` here: the quoted names must stay inside real types."""

import dataclasses
import enum
import functools
import json
from typing import Annotated, Optional

import pytest
from pydantic import BaseModel

from toolkit.chat.messages import ToolCall
from toolkit.errors import ToolDefinitionError
from toolkit.tools.decorator import Param, tool
from toolkit.tools.execute import FEED_BACK_ALL, execute, tools_from


def many(items: list["Item"], one: Optional["Item"] = None) -> str:
    """Count items."""
    return f"{len(items)} {one!r}"


def keyed(by_sku: dict[str, "Item"], described: Annotated[list["Item"], Param("the items")]) -> str:
    """Key items."""
    return f"{sorted(by_sku)} {len(described)}"


def missing(one: Optional["NoSuchItem"] = None) -> str:  # noqa: F821 (the name found nowhere)
    """Refers to a class that is nowhere."""
    return "never"


def text_annotation(item: "Item") -> str:
    """A wholly quoted annotation, as `from __future__ import annotations` writes every one."""
    return repr(item)


class Item(BaseModel):
    n: int


ITEM_DEF = {
    "properties": {"n": {"type": "integer"}},
    "required": ["n"],
    "type": "object",
    "additionalProperties": False,
}


def _call(tools, name, arguments):
    return execute(ToolCall(id="c1", name=name, arguments=json.dumps(arguments)), tools, policies=FEED_BACK_ALL)


def test_a_quoted_name_inside_a_type_is_read_in_the_module_of_the_function():
    [made] = tools_from(many)
    assert made.spec.parameters == {
        "type": "object",
        "properties": {
            "items": {"items": {"$ref": "#/$defs/Item"}, "type": "array"},
            "one": {"anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}], "default": None},
        },
        "required": ["items"],
        "additionalProperties": False,
        "$defs": {"Item": ITEM_DEF},
    }
    result = _call([made], "many", {"items": [{"n": 1}, {"n": "2"}], "one": {"n": 3}})
    assert (result.is_error, result.content) == (False, "2 Item(n=3)")


def test_quoted_names_in_a_dict_and_under_annotated_metadata():
    [made] = tools_from(keyed)
    properties = made.spec.parameters["properties"]
    assert properties["by_sku"] == {"additionalProperties": {"$ref": "#/$defs/Item"}, "type": "object"}
    assert properties["described"] == {"items": {"$ref": "#/$defs/Item"}, "type": "array", "description": "the items"}
    result = _call([made], "keyed", {"by_sku": {"b": {"n": 1}, "a": {"n": 2}}, "described": [{"n": 1}]})
    assert (result.is_error, result.content) == (False, "['a', 'b'] 1")


def test_a_quoted_name_found_nowhere_is_one_developer_error_naming_it():
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(missing)
    assert str(caught.value) == (
        f"@tool {__name__}.missing, parameter 'one': its annotation Optional['NoSuchItem'] cannot be resolved "
        "(NameError: name 'NoSuchItem' is not defined). Fix: import the type at module level (not under TYPE_CHECKING)"
    )


def test_a_quoted_name_of_a_class_local_to_the_enclosing_function_says_why():
    class Local(BaseModel):
        n: int

    def add(items: list["Local"]) -> str:
        """Add."""
        return "never"

    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(add)
    assert str(caught.value) == (
        f"@tool {__name__}.test_a_quoted_name_of_a_class_local_to_the_enclosing_function_says_why.<locals>.add, "
        "parameter 'items': its annotation list['Local'] cannot be resolved (NameError: name 'Local' is not "
        "defined). Fix: define or import the type at module level: a quoted name in an annotation is read in "
        "the module, where a class made inside the enclosing function is not found"
    )


def test_a_quoted_field_type_of_a_local_dataclass_names_the_name_and_why():
    """A dataclass or TypedDict made inside a function whose field names another local class as
    text (quoted, or any field under `from __future__ import annotations`): pydantic's
    "class-not-fully-defined" was told as "pydantic cannot describe Paint as JSON Schema
    (PydanticUserError). Fix: use a JSON-friendly type", of a dataclass, and named no name."""

    class Color(enum.Enum):
        RED = "red"

    @dataclasses.dataclass
    class Paint:
        color: "Color"

    def paint(p: list[Paint]) -> str:
        """Paint."""
        return "never"

    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(paint)
    assert str(caught.value) == (
        f"@tool {__name__}.test_a_quoted_field_type_of_a_local_dataclass_names_the_name_and_why.<locals>.paint, "
        "parameter 'p': a field of Paint names a type that cannot be found (NameError: name 'Color' is not "
        "defined). Fix: define or import the type at module level: a quoted field type (every one under "
        "`from __future__ import annotations`) is read in the module of Paint, where a class made inside a "
        "function is not found"
    )


def _decorator_of_another_module():
    """A logging decorator written in another module: its wrapper's globals are that module's."""
    namespace: dict = {"functools": functools}
    exec(  # noqa: S102 - a module of its own, as `from helpers import logged` would give
        "def logged(fn):\n"
        "    @functools.wraps(fn)\n"
        "    def wrapper(*args, **kwargs):\n"
        "        return fn(*args, **kwargs)\n"
        "    return wrapper\n",
        namespace,
    )
    return namespace["logged"]


def test_a_text_annotation_under_a_decorator_of_another_module_is_read_where_the_function_was_written():
    wrapped = _decorator_of_another_module()(text_annotation)
    [made] = tools_from(wrapped)
    assert made.spec.parameters["properties"]["item"] == {"$ref": "#/$defs/Item"}
    result = _call([made], "text_annotation", {"item": {"n": 4}})
    assert (result.is_error, result.content) == (False, "Item(n=4)")


def test_a_text_annotation_under_lru_cache_is_read_where_the_function_was_written():
    cached = functools.lru_cache(text_annotation)
    [made] = tools_from(cached)
    assert made.spec.parameters["$defs"] == {"Item": ITEM_DEF}


class Shop:
    """A class with its own types: `from __future__ import annotations` makes every annotation of
    its methods text, and `s: Status` (a name of the class body, which Python evaluates there
    without that import) was "not defined": the module has no `Status`."""

    class Status(enum.Enum):
        OPEN = "open"
        CLOSED = "closed"

    @tool
    def set_status(self, status: "Status", also: list["Status"] | None = None) -> str:
        """Set the status."""
        return f"{status!r} {also!r}"

    @tool
    def unknown(self, status: "Stat") -> str:  # noqa: F821 (the name found nowhere)
        """Refers to a class that is nowhere."""
        return "never"


def test_a_name_of_the_methods_class_body_is_read_there():
    [made] = tools_from(Shop().set_status)
    assert made.spec.parameters["properties"]["status"] == {"$ref": "#/$defs/Status"}
    assert made.spec.parameters["$defs"]["Status"] == {"enum": ["open", "closed"], "type": "string"}
    result = _call([made], "set_status", {"status": "open", "also": ["closed"]})
    assert (result.is_error, result.content) == (False, "<Status.OPEN: 'open'> [<Status.CLOSED: 'closed'>]")


def test_a_name_found_neither_in_the_class_nor_the_module_is_the_modules_error():
    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(Shop().unknown)
    assert str(caught.value) == (
        f"@tool {__name__}.Shop.unknown, parameter 'status': its annotation 'Stat' cannot be resolved "
        "(NameError: name 'Stat' is not defined). Fix: import the type at module level (not under TYPE_CHECKING)"
    )


@pytest.mark.parametrize(
    "text, error",
    [
        ("tuple[int, ...][0]", "TypeError: tuple[int, ...] is not a generic class"),
        ("1 / 0", "ZeroDivisionError: division by zero"),
    ],
)
def test_a_text_annotation_that_is_no_type_is_told_to_be_written_as_one(text, error):
    """A text annotation that names nothing missing but is no type (it raised TypeError, ...)
    was told to "define or import the type at module level", which mends nothing."""

    def make():
        def add(items):
            """Add."""
            return "never"

        add.__annotations__ = {"items": text}
        return add

    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(make())
    assert str(caught.value).endswith(
        f"parameter 'items': its annotation {text!r} cannot be resolved ({error}). Fix: write the annotation "
        "as a Python type, e.g. 'list[str]'"
    )
