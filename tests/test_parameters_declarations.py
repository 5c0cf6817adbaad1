"""How strangers declare parameters: a type pydantic cannot describe given a default, several
`Param`s or `Field`s in one declaration, `typing_extensions.Doc` (PEP 727). Each is a developer
error naming the function, the rule and the fix, or read as what it says; the fast path and the
plain pydantic path give the same answer."""

import enum
import json
import sys
import typing
from typing import Annotated

import pytest
import typing_extensions
from plain_reflection import without_shortcuts
from pydantic import BaseModel, Field

from toolkit.errors import ToolDefinitionError
from toolkit.tools.decorator import MemoryId, Param
from toolkit.tools.reflect import clear_cache, reflect

HERE = __name__


def _spec(fn: typing.Any) -> str:
    clear_cache()
    try:
        return json.dumps(reflect(fn).spec.to_openai())
    except ToolDefinitionError as exc:
        return f"raised ToolDefinitionError: {exc}"


def _both(fn: typing.Any) -> str:
    """The spec (or the refusal), the same with and without the fast path."""
    fast = _spec(fn)
    with without_shortcuts():
        assert _spec(fn) == fast
    return fast


class Session:
    """A class of the learner's own that pydantic cannot describe (a database session, a client)."""


def session_or_none(db: Session | None = None) -> str:
    return ""


def session_default(db: Session = None) -> str:  # type: ignore[assignment]
    return ""


def literal_string_default(text: typing.LiteralString = "a") -> str:
    return ""


def described_session(db: Annotated[Session, "the session"] = None) -> str:  # type: ignore[assignment]
    return ""


UNDESCRIBABLE = [
    (session_or_none, "Session | None"),
    (session_default, "Session"),
    (literal_string_default, "LiteralString"),
    (described_session, "Session"),
]


@pytest.mark.parametrize("fn, shown", UNDESCRIBABLE)
def test_a_type_pydantic_cannot_describe_is_refused_as_such_also_with_a_default(fn, shown):
    """A default used to be checked first: the validator pydantic could not build either raised its
    own multi-paragraph text ("checking the default None against Session raised
    PydanticSchemaGenerationError: Unable to generate pydantic-core schema ... Set
    `arbitrary_types_allowed=True` ..."), and the fast path (which takes `None` for `X | None`
    without a validator) said something else again."""
    name = "db" if "session" in fn.__name__ else "text"
    assert _both(fn) == (
        f"raised ToolDefinitionError: @tool {HERE}.{fn.__name__}, parameter {name!r}: pydantic cannot describe "
        f"{shown} as JSON Schema (PydanticSchemaGenerationError). Fix: use a JSON-friendly type: str, int, float, "
        "bool, list/dict of them, an Enum, a pydantic model"
    )


# --- a marker (Param, MemoryId) inside the type, where pydantic drops it --------------------------


def memory_id_or_none(question: str, memory: Annotated[str, MemoryId] | None = None) -> str:
    return ""


def memory_id_optional(question: str, memory: typing.Optional[Annotated[str, MemoryId()]] = None) -> str:  # noqa: UP045
    return ""


def param_in_a_list(ids: list[Annotated[str, Param("an order id")]]) -> str:
    return ""


def param_in_a_dict_value(counts: dict[str, Annotated[int, Param("how many")]]) -> str:
    return ""


MARKERS_INSIDE = [
    (
        memory_id_or_none,
        "memory",
        "its MemoryId is inside a union (Optional[...] or X | None), where it is not seen (the model would be "
        "asked for it). Fix: put MemoryId outermost: `Annotated[str | None, MemoryId]`",
    ),
    (
        memory_id_optional,
        "memory",
        "its MemoryId is inside a union (Optional[...] or X | None), where it is not seen (the model would be "
        "asked for it). Fix: put MemoryId outermost: `Annotated[str | None, MemoryId]`",
    ),
    (
        param_in_a_list,
        "ids",
        "its Param is inside list[...], where it is not seen. Fix: put Param outermost, on the parameter's "
        "whole type: `Annotated[list[str], Param(...)]`",
    ),
    (
        param_in_a_dict_value,
        "counts",
        "its Param is inside dict[...], where it is not seen. Fix: put Param outermost, on the parameter's "
        "whole type: `Annotated[dict[str, int], Param(...)]`",
    ),
]


@pytest.mark.parametrize("fn, name, said", MARKERS_INSIDE)
def test_a_marker_inside_the_type_is_refused(fn, name, said):
    """pydantic drops metadata it does not know without a word: a `MemoryId` inside `X | None` made
    the memory id a property the model was asked to fill (any conversation's id), and a `Param`
    inside `list[...]` lost its description. Only a `Param` inside a union was refused."""
    assert _both(fn) == f"raised ToolDefinitionError: @tool {HERE}.{fn.__name__}, parameter {name!r}: {said}"


def test_a_marker_outermost_or_metadata_inside_that_is_not_one_is_fine():
    def f(
        memory: Annotated[str | None, MemoryId] = None,
        ids: Annotated[list[Annotated[str, Field(min_length=2), "an id"]], Param("order ids")] = (),  # type: ignore[assignment]
        kind: typing.Literal["Param", "MemoryId"] = "Param",
    ) -> str:
        return ""

    spec = json.loads(_both(f))["function"]["parameters"]
    assert list(spec["properties"]) == ["ids", "kind"]
    assert spec["properties"]["ids"]["description"] == "order ids"


# --- several Params or Fields in one declaration --------------------------------------------------


def params_apart(limit: Annotated[int | None, Param("max rows"), Param(required=False)]) -> str:
    return ""


def params_named_apart(limit: Annotated[int, Param(name="maxRows"), Param(name="max_rows")]) -> str:
    return ""


def fields_described_apart(limit: Annotated[int, Field(description="max rows"), Field(description="rows")]) -> str:
    return ""


def field_default_described_apart(
    limit: Annotated[int, Field(description="max rows")] = Field(10, description="rows"),  # noqa: B008
) -> str:
    return ""


def fields_aliased_apart(limit: Annotated[int, Field(alias="maxRows"), Field(alias="max_rows")]) -> str:
    return ""


SEVERAL = [
    (
        params_apart,
        "it has two different Params (Param('max rows') and Param(required=False)), and only one is read. "
        "Fix: write one Param with every option: Param('max rows', required=False)",
    ),
    (
        params_named_apart,
        "it has two different Params (Param(name='maxRows') and Param(name='max_rows')), and only one is read. "
        "Fix: keep one of them",
    ),
    (
        fields_described_apart,
        "its Fields give two different descriptions ('max rows' and 'rows'). Fix: keep one of them",
    ),
    (
        field_default_described_apart,
        "its Fields give two different descriptions ('max rows' and 'rows'). Fix: keep one of them",
    ),
    (
        fields_aliased_apart,
        "its Fields give it two different names ('maxRows' and 'max_rows'). Fix: keep one of them",
    ),
]


@pytest.mark.parametrize("fn, said", SEVERAL)
def test_several_params_or_fields_that_disagree_are_a_developer_error(fn, said):
    """The first Param was read and the others dropped (`Param(required=False)` after
    `Param("...")` left the parameter required); of several Fields the last description and alias
    won (pydantic's merge), whatever the others said."""
    assert _both(fn) == f"raised ToolDefinitionError: @tool {HERE}.{fn.__name__}, parameter 'limit': {said}"


def test_several_params_or_fields_that_agree_are_read_as_one():
    def f(
        a: Annotated[int, Param("rows"), Param("rows")],
        b: Annotated[int, Field(description="rows", ge=1), Field(le=9)],
        c: Annotated[int, Field(description="rows")] = Field(3, description="rows"),  # noqa: B008
    ) -> str:
        return ""

    properties = json.loads(_both(f))["function"]["parameters"]["properties"]
    assert properties == {
        "a": {"type": "integer", "description": "rows"},
        "b": {"description": "rows", "maximum": 9, "minimum": 1, "type": "integer"},
        "c": {"description": "rows", "type": "integer", "default": 3},
    }


# --- PEP 695 generic functions (Python 3.12+) -----------------------------------------------------

GENERIC = """
from __future__ import annotations
from typing import TypeVar

T = TypeVar("T")  # the module's own T: the function's type parameter hides it, as in its body

def pick[T: int](x: T, xs: list[T] | None = None) -> str:
    return ""

def either[S: (int, str)](x: S = 1) -> str:
    return ""

class Shop:
    def rows[N: int](self, n: N) -> str:
        return ""
"""


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 695 syntax")
def test_a_generic_functions_type_parameters_are_found_in_text_annotations():
    """With `from __future__ import annotations` the annotation `'T'` was looked up in the module
    alone: "its annotation 'T' cannot be resolved (NameError ...). Fix: import the type at module
    level", a fix that cannot work; the type parameter lives in the function's own scope."""
    namespace: dict[str, typing.Any] = {"__name__": HERE}
    exec(compile(GENERIC, "<generic>", "exec"), namespace)
    pick = json.loads(_both(namespace["pick"]))["function"]["parameters"]["properties"]
    assert pick == {
        "x": {"type": "integer"},
        "xs": {"anyOf": [{"items": {"type": "integer"}, "type": "array"}, {"type": "null"}], "default": None},
    }
    either = json.loads(_both(namespace["either"]))["function"]["parameters"]["properties"]
    assert either == {"x": {"anyOf": [{"type": "integer"}, {"type": "string"}], "default": 1}}
    rows = json.loads(_both(namespace["Shop"]().rows))["function"]["parameters"]["properties"]
    assert rows == {"n": {"type": "integer"}}


GENERIC_CLASS = """
from __future__ import annotations
from typing import Literal

class Shelf[T: int]:
    type Side = Literal["left", "right"]

    def put(self, item: T, side: Side, items: list[T] | None = None) -> str:
        return ""
"""


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 695 syntax")
def test_a_generic_classs_type_parameters_and_aliases_are_found_in_its_methods_text_annotations():
    """`class Shelf[T: int]` and a `type Side = ...` in its body: a method's text annotation `'T'`
    "could not be resolved (NameError ...). Fix: import the type at module level", a fix that
    cannot work; Python evaluates both in the class's scope."""
    namespace: dict[str, typing.Any] = {"__name__": HERE}
    exec(compile(GENERIC_CLASS, "<generic>", "exec"), namespace)
    put = json.loads(_both(namespace["Shelf"]().put))["function"]["parameters"]["properties"]
    assert put == {
        "item": {"type": "integer"},
        "side": {"enum": ["left", "right"], "type": "string"},
        "items": {"anyOf": [{"items": {"type": "integer"}, "type": "array"}, {"type": "null"}], "default": None},
    }


# --- typing_extensions.Doc (PEP 727) --------------------------------------------------------------


def documented(city: Annotated[str, typing_extensions.Doc("The city, e.g. Paris")]) -> str:
    return ""


def documented_apart(city: Annotated[str, typing_extensions.Doc("The city"), Param("A town")]) -> str:
    return ""


def test_a_doc_in_annotated_is_the_description_as_a_bare_string_is():
    """`Doc("...")` said what the parameter is and was dropped without a word (pydantic ignores it)."""
    assert json.loads(_both(documented))["function"]["parameters"]["properties"] == {
        "city": {"type": "string", "description": "The city, e.g. Paris"}
    }
    assert _both(documented_apart) == (
        f"raised ToolDefinitionError: @tool {HERE}.documented_apart, parameter 'city': its declaration gives two "
        "different descriptions ('A town' and 'The city'). Fix: keep one of them (Param, Field, Doc or a bare "
        "string in Annotated)"
    )


# --- an enum without members ------------------------------------------------------------------


class NoKinds(enum.Enum):
    """Kinds to be filled in later."""


class Holder(BaseModel):
    kinds: list[NoKinds] = []


def sort_by(kind: NoKinds) -> str:
    return ""


def sort_holder(holder: Holder | None = None) -> str:
    return ""


def sort_by_each(kinds: list[NoKinds]) -> str:
    return ""


def count_by(counts: dict[str, NoKinds] | None = None) -> str:
    return ""


@pytest.mark.parametrize("fn", [sort_by, sort_holder, sort_by_each, count_by])
def test_an_enum_without_members_is_refused_where_the_tool_is_made(fn):
    """Its schema was `{"enum": []}`: no value the model could send is valid (and a gateway may refuse
    the request for it), so every call would fail, found only when the model calls it. Inside a
    list or a dict (`list[NoKinds]`: pydantic writes it in place, no `$defs`) it went unseen."""
    what, it = ("the enum NoKinds", "NoKinds") if fn is sort_by else ("an enum in its type", "the enum")
    assert _both(fn) == (
        f"raised ToolDefinitionError: @tool {HERE}.{fn.__name__}, parameter '{fn.__code__.co_varnames[0]}': "
        f"{what} has no members, so no value the model sends is one of them. "
        f"Fix: give {it} its members, or use another type"
    )


class Endless(BaseModel):
    """A model whose JSON Schema hook calls itself without end (as one 500 models deep runs pydantic past
    Python's recursion limit: the same RecursionError, at once)."""

    v: int

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        return cls.__get_pydantic_json_schema__(core_schema, handler)


def test_a_type_pydantic_recurses_past_the_limit_on_is_named_so():
    """Before: "pydantic cannot describe Endless as JSON Schema (RecursionError). Fix: use a JSON-friendly
    type: ..., a pydantic model" (which it is)."""

    def f(x: Endless) -> str:
        return "ok"

    with pytest.raises(ToolDefinitionError) as raised:
        reflect(f)
    assert str(raised.value) == (
        f"@tool {HERE}.test_a_type_pydantic_recurses_past_the_limit_on_is_named_so.<locals>.f, parameter 'x': "
        "pydantic ran past Python's recursion limit describing Endless as JSON Schema (its types nest too deeply: "
        "a chain of hundreds of models, each a field of the one before, or a schema hook that calls itself). Fix: "
        "make it flatter: one recursive model (a field of its own type, e.g. `child: Node | None`) describes any "
        "depth once; or take a `dict[str, Any]` and check it in the tool"
    )
