"""Type → JSON Schema: the fast path must equal pydantic's own output, type by type."""

import collections.abc
import datetime
import decimal
import enum
import json
import pathlib
import typing
import uuid
from typing import Annotated, Any, Literal, Optional, Union

import annotated_types as at
import pytest
from pydantic import BaseModel, Field

from toolkit.tools.fast_schema import fast_schema, type_schema
from toolkit.tools.json_schema import clean, map_schema, pydantic_schema


class Colour(enum.Enum):
    """Paint colours."""

    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Address(BaseModel):
    city: str
    title: str = "home"  # a *field* called title must survive the cleaning


class Node(BaseModel):
    name: str
    kids: list["Node"] = []


FAST = [
    str,
    int,
    float,
    bool,
    type(None),
    Any,
    datetime.date,
    datetime.datetime,
    datetime.time,
    datetime.timedelta,
    uuid.UUID,
    Literal["a", "b"],
    Literal["a"],
    Literal[1, 2],
    Colour,
    Level,
    list[int],
    set[str],
    frozenset[int],
    dict[str, int],
    Optional[int],
    Union[int, str],
    int | None,
    list[Colour] | None,
    dict[str, list[Colour]],
    Optional[Literal["x", "y"]],
    list[Address],
    Optional[Address],
    list[Node],
    Annotated[int, Field(ge=1, le=50)],
    Annotated[float, Field(gt=0, lt=1, multiple_of=0.25)],
    Annotated[str, Field(min_length=2, max_length=9)],
    Annotated[list[int], Field(min_length=1)],
    Annotated[int, Field(description="How many")],
]
FAST += [tuple[int, str], Literal[True], Literal["a", 1]]  # on the fast path since the class/tuple work
FAST += [  # the Field constraints added to the fast path (issue 16, target 4)
    Annotated[str, Field(pattern="^a")],
    Annotated[str, Field(pattern=r"^\d{3}-\w+$", min_length=1, max_length=8, description="A code")],
    Annotated[str, Field(pattern=r"\p{L}+")],  # pydantic-core's Rust engine takes it, Python's `re` would not
    Annotated[dict[str, int], Field(min_length=1, max_length=3)],
    Annotated[set[str], Field(max_length=2)],
    Annotated[int, Field(title="ignored", examples=[1, 2])],
    Annotated[float, Field(ge=0, examples=[0.5], description="d")],
    Annotated[int, Field(ge=1), Field(le=9)],
    Annotated[int, Field(ge=1), Field(ge=2)],
    Annotated[bytes, Field(min_length=1)],
    Annotated[int, Field(description="")],  # pydantic keeps an empty description
    Annotated[int, Field(description="a"), Field(description="b")],
    Annotated[dict, Field(min_length=1)],
    Annotated[tuple, Field(max_length=2)],
    Annotated[Colour, Field(description="A colour")],
    Annotated[Literal["a"], Field(description="d", examples=["a"])],
]
FAST += [  # what strangers write (benchmarks/reflection_speed.py, the "stranger" rows)
    pathlib.Path,
    Optional[pathlib.Path],
    pathlib.PurePath,
    collections.abc.Sequence[int],
    collections.abc.MutableSequence[str],
    collections.abc.Mapping[str, int],
    collections.abc.MutableMapping[str, list[int]],
    collections.abc.Set[str],
    collections.abc.MutableSet[int],
    typing.List[str],  # noqa: UP006 (as older code writes it)
    typing.Dict[str, int],  # noqa: UP006
    typing.FrozenSet[str],  # noqa: UP006
    typing.Tuple[int, str],  # noqa: UP006
    typing.Sequence[Colour],  # noqa: UP006
    dict[str, Any],
    typing.Mapping[str, Any],  # noqa: UP006
    dict[int, str],
    dict[int, Any],
    dict[Any, str],
    dict[float, int],
    dict[bool, int],
    collections.abc.Mapping[int, str],
    dict[str, dict[int, list[Any]]],
    Annotated[str, at.Len(1, 20)],
    Annotated[str, at.Len(0, 5)],
    Annotated[float, at.Interval(ge=0, le=1)],
    Annotated[int, at.Interval(gt=0, lt=10)],
    Annotated[int, at.Gt(0)],
    Annotated[list[int], at.Len(1, 3)],
    Annotated[str, at.Len(1, 8), Field(description="d")],
    Annotated[int, at.Interval(ge=1), Field(le=9)],
    Optional[Annotated[str, at.Len(2)]],
    Annotated[collections.abc.Sequence[int], Field(min_length=1)],
    Annotated[collections.abc.Mapping[str, int], Field(max_length=3)],
    Annotated[dict[int, str], Field(min_length=1)],
    Annotated[collections.abc.Set[str], at.MaxLen(2)],
    Annotated[pathlib.Path, Field(description="p")],
    Annotated[decimal.Decimal, Field(max_digits=10, decimal_places=2)],
    Annotated[decimal.Decimal, Field(ge=0, max_digits=5)],
    Annotated[decimal.Decimal, Field(gt=0.5, lt=10, multiple_of=0.25, description="m")],
    Annotated[decimal.Decimal, Field(decimal_places=2), Field(le=3)],
    Annotated[decimal.Decimal, at.Interval(ge=1, le=2)],
    Optional[Annotated[decimal.Decimal, Field(max_digits=4)]],
]
SLOW = [
    Annotated[bytes, Field(pattern="^a")],  # pydantic drops it
    Annotated[Literal[1, 2], Field(ge=1)],  # pydantic writes `"ge": 1`, not `minimum`
    Annotated[Literal["a", "b"], Field(max_length=3)],
    Annotated[datetime.date, Field(max_length=3)],
    Annotated[datetime.datetime, Field(ge=1)],  # pydantic drops it
    Annotated[tuple[int, str], Field(min_length=1)],
    Annotated[str, Field(max_digits=3)],
    Annotated[int, Field(examples={"a": 1})],
    Annotated[int, Field(examples=[1]), Field(examples=[2])],
    dict[uuid.UUID, str],  # keys pydantic describes (`propertyNames`)
    dict[Colour, int],
    dict[Literal["a", "b"], int],
    collections.abc.Iterable[int],
    typing.Deque[int],  # noqa: UP006
    Annotated[int, at.Predicate(str.isdigit)],
    Annotated[pathlib.Path, Field(min_length=1)],
    Annotated[decimal.Decimal, Field(ge=decimal.Decimal("0.01"))],
    Annotated[decimal.Decimal, Field(max_digits=3, pattern="x")],
    Annotated[decimal.Decimal, Field(min_length=1)],
    Annotated[float, Field(decimal_places=2)],
    # bounds that are not plain int / float values: pydantic writes them (a Decimal as a JSON number)
    Annotated[float, Field(ge=decimal.Decimal("0.01"))],
    Annotated[float, Field(multiple_of=decimal.Decimal("0.5"), lt=decimal.Decimal("10"))],
    Annotated[int, Field(ge=decimal.Decimal("2"))],
    Annotated[int, Field(ge=2.0)],
    Annotated[int, Field(le=True)],
    Annotated[str, Field(max_length=True)],
]


@pytest.mark.parametrize("annotation", FAST, ids=repr)
def test_fast_path_equals_pydantic(annotation):
    defs: dict = {}
    assert (fast_schema(annotation, defs), defs) == pydantic_schema(annotation)
    assert json.dumps(type_schema(annotation)) == json.dumps(pydantic_schema(annotation))  # key order too


def test_a_mapping_of_any_allows_any_value_as_pydantic_writes_it():
    assert type_schema(dict[str, Any]) == ({"additionalProperties": True, "type": "object"}, {})


@pytest.mark.parametrize("annotation", SLOW, ids=repr)
def test_other_types_go_to_pydantic(annotation):
    from toolkit.tools.fast_schema import _Slow

    with pytest.raises(_Slow):
        fast_schema(annotation, {})
    assert type_schema(annotation) == pydantic_schema(annotation)


@pytest.mark.parametrize(
    "annotation, schema",
    [
        (Annotated[float, Field(ge=decimal.Decimal("0.01"))], {"minimum": 0.01, "type": "number"}),
        (Annotated[int, Field(ge=decimal.Decimal("2"))], {"minimum": 2, "type": "integer"}),
        (Annotated[float, Field(multiple_of=decimal.Decimal("0.5"))], {"multipleOf": 0.5, "type": "number"}),
    ],
    ids=repr,
)
def test_decimal_bounds_are_json_numbers(annotation, schema):
    assert type_schema(annotation) == pydantic_schema(annotation) == (schema, {})
    assert json.loads(json.dumps(schema)) == schema


def test_a_bound_pydantic_refuses_is_refused_on_both_paths():
    from pydantic_core import SchemaError

    refused = [
        Annotated[int, Field(ge=1.5)],
        Annotated[int, Field(ge=decimal.Decimal("1.5"))],
        Annotated[str, Field(pattern="(?=a)a")],  # a look-ahead: pydantic-core's Rust engine refuses it
        Annotated[str, Field(pattern=r"(a)\1")],
        Annotated[str, Field(pattern="[")],
    ]
    for annotation in refused:
        with pytest.raises(SchemaError):
            pydantic_schema(annotation)
        with pytest.raises(SchemaError):
            type_schema(annotation)


def test_a_named_type_under_an_empty_field_is_written_in_place_as_pydantic_does():
    """`x: Colour = Field(Colour.RED)` reaches the schema as `Annotated[Colour, Field()]`:
    pydantic writes the enum itself there (no `$ref`), so the fast path leaves it to pydantic."""
    for annotation in (Annotated[Colour, Field()], Annotated[Colour, Field(title="T")]):
        assert json.dumps(type_schema(annotation)) == json.dumps(pydantic_schema(annotation))
    assert "$ref" not in type_schema(Annotated[Colour, Field()])[0]


def test_models_are_filed_under_defs_and_titles_removed():
    schema, defs = type_schema(Address)
    assert schema == {"$ref": "#/$defs/Address"}
    assert defs == {
        "Address": {
            "properties": {"city": {"type": "string"}, "title": {"default": "home", "type": "string"}},
            "required": ["city"],
            "type": "object",
            "additionalProperties": False,
        }
    }


def test_recursive_model_is_defined_once():
    schema, defs = type_schema(Node)
    assert schema == {"$ref": "#/$defs/Node"} and list(defs) == ["Node"]


def test_cache_returns_the_same_object():
    assert type_schema(list[Colour]) is type_schema(list[Colour])


def test_map_schema_never_touches_name_maps():
    schema = {"type": "object", "properties": {"title": {"type": "string", "title": "T"}}, "title": "X"}
    assert clean(schema) == {
        "type": "object",
        "properties": {"title": {"type": "string"}},
        "additionalProperties": False,
    }
    assert map_schema(True, lambda n: n) is True


GOOGLE_DOCS = [
    "Summary line.\n\nMore text.\n\nArgs:\n    city (str): The city,\n        spelled in English.\n    *args: ignored\n"
    "    days: How many days.\n\nReturns:\n    A forecast.",
    "Look up one order by id.\n\nArgs:\n    order_id: The order id, e.g. SN202610200001.",
    "Do it.\n\nParameters:\n    x: The x.\n\nRaises:\n    ValueError: never.\n\nExamples:\n    >>> do(1)",
    "Only a summary, with a colon: here.",
    "Two lines\nof summary.\n\nArguments:\n    a (int, optional): First.\n    b: Second,\n        continued.",
]
NOT_FAST = [
    "Greet.\n\nParameters\n----------\nname : str\n    The name.",
    "Greet.\n\n:param name: The name.",
    "Returns:\n    Only this.",
    "Summary.\nArgs:\n    x: no blank line before the section.",
    "Summary.\n\nTodo:\n    an unknown section.",
    "Summary.\n\nArgs:\n    x:\n        description on the next line.",
]


@pytest.mark.parametrize("doc", GOOGLE_DOCS)
def test_fast_google_docstrings_equal_griffe(doc):
    from toolkit.tools.fast_schema import google_docstring
    from toolkit.tools.reflect import griffe_docstring

    assert google_docstring(doc) == griffe_docstring(doc)


@pytest.mark.parametrize("doc", NOT_FAST)
def test_other_docstrings_go_to_griffe(doc):
    from toolkit.tools.fast_schema import google_docstring

    assert google_docstring(doc) is None


SPHINX_DOCS = [
    "List the files.\n\nHidden ones are skipped.\n\n:param path: The directory,\n    relative to the root.\n"
    ":param recursive: Whether to descend.\n:type recursive: bool\n:returns: One path a line.\n:rtype: str\n"
    ":raises FileNotFoundError: If it is missing.",
    "Greet.\n\n:param name: The name.",
    "Greet.\n\n:parameter name: The name.\n:arg *args: ignored\n:keyword loud: Shout.\n:param name: again",
    "Greet.\n\n:param name:\n:param other: text: with a colon",
    "Greet.\n:param name: no blank line before it\n\nText after the fields belongs to the last one.",
    "Greet.\n\n:note: an unknown field is description\n:param x: The x.",
]
SPHINX_NOT_FAST = [
    "Greet.\n\n:param str name: a type inside the field",
    "Greet.\n\n:param name : a space before the colon",
    "Greet.\n\n:param  name: two spaces",
    "\n:param name: no description\n:returns: only a return",
    ":param x: on the first line\n\nand what follows is its text: no description",
]


def _parse_docstring_by_griffe(doc, monkeypatch):
    from toolkit.tools import fast_schema
    from toolkit.tools.reflect import parse_docstring

    with monkeypatch.context() as patch:
        patch.setattr(fast_schema, "sphinx_docstring", lambda lines: None)
        patch.setattr(fast_schema, "sphinx_text", lambda value: None)
        return parse_docstring(doc)


@pytest.mark.parametrize("doc", SPHINX_DOCS + SPHINX_NOT_FAST)
def test_fast_sphinx_docstrings_equal_griffe(doc, monkeypatch):
    from griffe import Docstring

    from toolkit.tools.fast_schema import sphinx_docstring
    from toolkit.tools.reflect import parse_docstring

    assert parse_docstring(doc) == _parse_docstring_by_griffe(doc, monkeypatch)
    fast = sphinx_docstring(Docstring(doc).lines)
    assert (fast is None) == (doc in SPHINX_NOT_FAST)


def test_generated_sphinx_docstrings_equal_griffe(monkeypatch):
    """Random reST docstrings (fields of every kind, continuations, blank lines, text after the
    fields, odd spacing): the fast reader gives what griffe gives, or leaves it to griffe."""
    import random

    from griffe import Docstring

    from toolkit.tools.fast_schema import sphinx_docstring
    from toolkit.tools.reflect import parse_docstring

    pieces = [
        "A summary line.",
        "Text: with a colon.",
        "",
        "    indented text",
        "\tTabbed text",
        ":param x: The x.",
        ":param y: The y,",
        "    continued.",
        ":param x: x again",
        ":param *args: The rest.",
        ":param empty:",
        ":parameter z: The z.",
        ":arg a: An a.",
        ":argument b: A b.",
        ":key k: A key.",
        ":keyword w: A keyword.",
        ":type x: int",
        ":returns: Something.",
        ":return: Something else.",
        ":rtype: str",
        ":raises ValueError: Never.",
        ":var v: A variable.",
        ":note: Not a field griffe knows.",
        ":param str typed: A type inside.",
        ":param x : a space",
        ":param\tt: a tab",
        ":param x:no space after",
        ":paramx y: prefix only",
    ]
    rng = random.Random(16)
    answered = 0
    for _ in range(600):
        doc = "\n".join(rng.choice(pieces) for _ in range(rng.randint(1, 9)))
        expected = _parse_docstring_by_griffe(doc, monkeypatch)
        assert parse_docstring(doc) == expected, doc
        answered += sphinx_docstring(Docstring(doc).lines) is not None
    assert answered > 100


def test_plain_name_annotations_resolve_like_eval():
    import builtins

    from toolkit.tools.fast_schema import NOT_PLAIN, plain_name

    namespace = {"Address": Address, "str": int, "__builtins__": builtins}
    for text in ("Address", "str", "float", "Optional"):
        expected = eval(text, namespace) if text != "Optional" else NOT_PLAIN
        assert plain_name(text, namespace) is expected
    assert plain_name("list[int]", namespace) is NOT_PLAIN
    assert plain_name("Missing", namespace) is NOT_PLAIN  # eval then raises the NameError
    assert plain_name("int", {}) is int
