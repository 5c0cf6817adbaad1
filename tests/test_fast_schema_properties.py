"""The fast path = the plain path, over input hypothesis draws (`toolkit.tools.fast_schema`).

Three promises, each checked over generated input (derandomized, so CI sees the same cases):

1. `fast_schema.type_schema(T)` gives `json_schema.pydantic_schema(T)`, key order included, or the
   same refusal: `T` drawn from the fast path's grammar and just outside it (nested containers,
   `Optional` / unions / `Literal` / `Annotated` with constraints, enums of every kind, TypedDicts,
   dataclasses, recursive ones, string annotations, generated classes);
2. `obviously_valid` / `obviously_within` never call a default valid that the validator
   (`coercion.validate_value`) refuses (or would change);
3. `google_docstring` / `sphinx_docstring` give griffe's reading or decline (`None`).

Classes here are written under `from __future__ import annotations`: their annotations are strings.
Each failing example hypothesis found is kept below as a fixed test.
"""

from __future__ import annotations

import builtins
import collections.abc
import dataclasses
import datetime
import decimal
import enum
import json
import math
import pathlib  # noqa: F401 (the drawn annotations name it)
import sys
import types
import typing
import uuid
from collections.abc import Mapping, Sequence  # noqa: F401 (the drawn annotations name them)
from typing import Annotated, Any, Literal, NotRequired, Optional, Required, Union
from unittest import mock

import annotated_types as at
import pytest
import typing_extensions
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from plain_reflection import without_shortcuts
from pydantic import BaseModel, Field, Strict  # noqa: F401 (Strict: a drawn annotation names it)
from typing_extensions import TypedDict

from toolkit.tools import coercion, fast_schema, parameters, reflect
from toolkit.tools.json_schema import pydantic_schema

pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.UnsupportedFieldAttributeWarning")
SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _outcome(call: typing.Callable[[], Any]) -> str:
    """A result as JSON text (key order counts, anything else as its repr), or the error it raised."""
    try:
        return json.dumps(call(), default=repr)
    except Exception as exc:
        return f"raised {type(exc).__name__}: {exc}"


def _same_schema(annotation: Any) -> None:
    fast_schema.clear_cache()
    fast = _outcome(lambda: fast_schema.type_schema(annotation))
    assert fast == _outcome(lambda: pydantic_schema(annotation)), annotation


# --- the types drawn from ----------------------------------------------------------------------


class Colour(enum.Enum):
    """Paint colours."""

    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Mixed(enum.Enum):
    A = "a"
    B = 1


class Aliased(enum.Enum):
    """Two names for one value."""

    SMALL = "s"
    LITTLE = "s"
    LARGE = "l"


class Access(enum.IntFlag):
    READ = 1
    WRITE = 2
    BOTH = 3


class Blank(enum.Enum):
    """ """

    ONLY = "only"


class Unit(enum.StrEnum):
    KG = "kg"
    LB = "lb"


class Ratio(float, enum.Enum):
    HALF = 0.5


@dataclasses.dataclass
class Point:
    """A point."""

    x: int
    y: int = 0
    tags: list[str] = dataclasses.field(default_factory=list)
    label: Optional[str] = None
    """Shown beside it."""


@dataclasses.dataclass
class Tree:
    name: str
    kids: list[Tree] = dataclasses.field(default_factory=list)
    parent: Tree | None = None


@dataclasses.dataclass
class Shape:
    colour: Colour = Colour.RED
    corners: tuple[int, ...] = (1, 2)
    size: float = 1.5
    unit: Unit = Unit.KG


class Movie(TypedDict):
    """A film."""

    title: str
    year: NotRequired[int]
    rating: Annotated[float, Field(ge=0, le=10)]


class Partial(TypedDict, total=False):
    name: Required[str]
    note: str
    """What to remember."""
    level: Level


class Address(BaseModel):
    city: str
    zip: str = "00000"


NAMES = ["Colour", "Level", "Mixed", "Aliased", "Access", "Blank", "Unit", "Ratio"]
NAMES += ["Point", "Tree", "Shape", "Movie", "Partial", "Address"]
SCALARS = ["str", "int", "float", "bool", "None", "type(None)", "Any", "bytes", "object", "complex"]
SCALARS += ["datetime.date", "datetime.datetime", "datetime.time", "datetime.timedelta", "uuid.UUID"]
SCALARS += ["decimal.Decimal", "pathlib.Path", "pathlib.PurePath", "list", "dict", "tuple", "set", "frozenset"]
LITERAL_VALUES = ["'a'", "''", "'é'", "0", "1", "-1", "2**70", "True", "False", "None", "1.5", "b'x'", "Colour.RED"]
KEYS = ["str", "int", "float", "bool", "Any", "bytes", "Literal['a']", "Colour", "uuid.UUID"]
PATTERNS = ["'^a'", r"r'^\d+$'", "'(?=a)a'", r"r'\p{L}'", "'['", "'a{,3}'", r"r'\Z'", "'(?i)a'", "'é+'", "''"]
NUMBERS = ["0", "1", "-1", "2**70", "1.5", "-0.5", "-0.0", "float('inf')", "-float('inf')", "float('nan')", "True"]
NUMBERS += ["decimal.Decimal('0.5')", "10**400"]
LENGTHS = ["0", "1", "3", "True", "-1", "2**64"]
METADATA = [
    *(f"Field({key}={n})" for key in ("ge", "gt", "le", "lt", "multiple_of") for n in NUMBERS),
    *(f"at.{name}({n})" for name in ("Ge", "Gt", "Le", "Lt", "MultipleOf") for n in NUMBERS),
    *(f"Field({key}={n})" for key in ("min_length", "max_length") for n in LENGTHS),
    *(f"at.{name}({n})" for name in ("MinLen", "MaxLen") for n in LENGTHS),
    *(f"Field(pattern={p})" for p in PATTERNS),
    "at.Len(1, 3)",
    "at.Interval(ge=0, lt=10)",
    "at.Interval(gt=0.5)",
    "Field(description='d')",
    "Field(description='')",
    "Field(title='T')",
    "Field(examples=[1, 'a'])",
    "Field(examples=[])",
    "Field(examples=[1.5, None])",
    "Field(strict=True)",
    "Strict()",
    "Field(alias='a')",
    "Field(default=1)",
    "Field(max_digits=3, decimal_places=1)",
    "Field(ge=1, description='x')",
    "Field(min_length=1, pattern='^a')",
    "'a bare string'",
    "at.Predicate(str.isupper)",
]


def _extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    one = children
    keys = st.sampled_from(KEYS)
    return st.one_of(
        st.builds("list[{}]".format, one),
        st.builds("typing.List[{}]".format, one),
        st.builds("Sequence[{}]".format, one),
        st.builds("collections.abc.MutableSequence[{}]".format, one),
        st.builds("set[{}]".format, one),
        st.builds("frozenset[{}]".format, one),
        st.builds("typing.Set[{}]".format, one),
        st.builds("tuple[{}, ...]".format, one),
        st.builds(lambda xs: f"tuple[{', '.join(xs)}]", st.lists(one, min_size=1, max_size=3)),
        st.just("tuple[()]"),
        st.builds("dict[{}, {}]".format, keys, one),
        st.builds("typing.Dict[{}, {}]".format, keys, one),
        st.builds("Mapping[{}, {}]".format, keys, one),
        st.builds("Optional[{}]".format, one),
        st.builds("{} | None".format, one),
        st.builds("None | {}".format, one),
        st.builds(lambda xs: f"Union[{', '.join(xs)}]", st.lists(one, min_size=1, max_size=4)),
        st.builds(
            lambda x, ms: f"Annotated[{x}, {', '.join(ms)}]",
            one,
            st.lists(st.sampled_from(METADATA), min_size=1, max_size=3),
        ),
    )


LEAVES = st.one_of(
    st.sampled_from(SCALARS),
    st.sampled_from(NAMES),
    st.builds(
        lambda vs: f"Literal[{', '.join(vs)}]", st.lists(st.sampled_from(LITERAL_VALUES), min_size=1, max_size=4)
    ),
    st.builds(
        "Annotated[{}, {}]".format,
        st.sampled_from(["int", "float", "str", "bytes", "decimal.Decimal", "list[int]"]),
        st.sampled_from(METADATA),
    ),
)
ANNOTATION_TEXTS = st.recursive(LEAVES, _extend, max_leaves=6)


def _evaluated(text: str) -> Any:
    """The annotation `text` names here, or `None` when Python refuses to build it."""
    try:
        return eval(text, globals())
    except Exception:
        return None


DEFAULTS = [1, 0, -1, 2**70, True, False, 1.5, -0.0, math.nan, math.inf, "a", "", "é", None, b"x", (1, 2), ()]
DEFAULTS += [("a", None), (1, (2,)), frozenset(), Colour.RED, Level.LOW, Unit.KG, Access.READ, Access.BOTH]
DEFAULTS += [Mixed.B, Ratio.HALF, Aliased.LITTLE, decimal.Decimal("1.5"), datetime.date(2026, 12, 4)]
FACTORIES = [list, dict, set, tuple, lambda: [1], lambda: {"a": 1}]


_DRAWN = types.ModuleType("drawn_classes")
"""The module drawn classes say they are from: this one's names, no source file (so no class
statement of this file is taken for theirs, and none is looked for)."""


def _dataclass_field(draw: st.DrawFn, name: str) -> tuple[str, Any, Any]:
    text = draw(ANNOTATION_TEXTS)
    annotation = text if draw(st.booleans()) else _evaluated(text)  # a string, as `from __future__` leaves it
    how = draw(st.sampled_from(["none", "default", "factory"]))
    if how == "default":
        return name, annotation, dataclasses.field(default=draw(st.sampled_from(DEFAULTS)))
    if how == "factory":
        return name, annotation, dataclasses.field(default_factory=draw(st.sampled_from(FACTORIES)))
    return name, annotation, dataclasses.field()


@st.composite
def generated_dataclasses(draw: st.DrawFn) -> Any:
    """A dataclass of drawn fields (annotations as objects or as text), defaults and factories."""
    names = draw(
        st.lists(st.sampled_from(["a", "b", "title", "kind", "x_1", "é"]), min_size=1, max_size=4, unique=True)
    )
    fields = [f for f in (_dataclass_field(draw, name) for name in names) if f[1] is not None]
    fields.sort(
        key=lambda f: f[2].default is not dataclasses.MISSING or f[2].default_factory is not dataclasses.MISSING
    )
    doc = draw(st.sampled_from([None, "", " ", "A drawn class.", "Gen(a, b)"]))
    try:
        cls = dataclasses.make_dataclass(draw(st.sampled_from(["Gen", "Point"])), fields, namespace={"__doc__": doc})
    except ValueError:  # a mutable default
        return None
    cls.__module__ = _DRAWN.__name__  # its string annotations are read there
    return cls


@st.composite
def generated_typed_dicts(draw: st.DrawFn) -> Any:
    """A TypedDict (functional form) of drawn fields, `total` drawn, `Required` / `NotRequired` too."""
    names = draw(st.lists(st.sampled_from(["a", "b", "title", "kind"]), min_size=1, max_size=4, unique=True))
    fields = {}
    for name in names:
        text = draw(ANNOTATION_TEXTS)
        text = draw(st.sampled_from(["{}", "Required[{}]", "NotRequired[{}]"])).format(text)
        fields[name] = _evaluated(text)
        if fields[name] is None:
            return None
    try:
        cls = TypedDict(draw(st.sampled_from(["Gen", "Movie"])), fields, total=draw(st.booleans()))  # type: ignore[operator]
    except TypeError:
        return None
    cls.__module__ = _DRAWN.__name__
    return cls


def _validated(annotation: Any, value: Any) -> tuple[bool, Any]:
    """Whether the validator (`coercion.validate_value`) takes `value`, and what it gives."""
    try:
        return True, coercion.validate_value(annotation, value)
    except Exception:
        return False, None


def _same_value(a: Any, b: Any) -> bool:
    """Equal, and of one type all the way down (a NaN equals a NaN here)."""
    return type(a) is type(b) and (a == b or repr(a) == repr(b))


NEAR = {  # each type's values: fitting, and the near misses a stranger writes
    int: [0, 7, -3, 2**70, True, 1.0, "1", decimal.Decimal("1")],
    float: [1.5, 2, -0.0, 1e308, math.nan, True, "1.5"],
    str: ["", "a", "abc", "é" * 4, "1", b"a", Unit.KG],
    bytes: [b"", b"ab", "ab", bytearray(b"a")],
    bool: [True, False, 1, 0, "true"],
    decimal.Decimal: [decimal.Decimal("1.5"), decimal.Decimal("NaN"), decimal.Decimal("12.345"), 1, 1.5],
    datetime.date: [datetime.date(2026, 12, 4), datetime.datetime(2026, 12, 4), "2026-12-04"],
    datetime.datetime: [datetime.datetime(2026, 12, 4, 1), datetime.date(2026, 12, 4)],
    uuid.UUID: [uuid.UUID(int=1), str(uuid.UUID(int=1))],
    type(None): [None, 0, ""],
}


def values_for(annotation: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values for `annotation`: ones that fit, near misses (a bool for an int, a tuple for a list,
    an empty or too short container), and anything else now and then."""
    anything = st.sampled_from(DEFAULTS)
    if depth > 3:
        return anything
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Annotated:
        return values_for(args[0], depth + 1)
    if origin is Literal:
        return st.one_of(st.sampled_from(args), anything)
    if origin in (Union, typing.types.UnionType):
        return st.one_of([values_for(a, depth + 1) for a in args])
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return st.one_of(st.sampled_from(list(annotation.__members__.values())), anything)
    if origin in (list, set, frozenset, tuple, collections.abc.Sequence) and args:
        item = values_for(args[0], depth + 1)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            fixed = st.tuples(*(values_for(a, depth + 1) for a in args))
            return st.one_of(fixed, fixed.map(list), st.just(()), st.lists(item, max_size=3).map(tuple))
        made = st.lists(item, max_size=3)
        hashed = made.filter(_hashable)
        return st.one_of(made.map(tuple), made, hashed.map(set), hashed.map(frozenset))
    if origin in (dict, collections.abc.Mapping) and len(args) == 2:
        keys = values_for(args[0], depth + 1).filter(lambda k: _hashable([k]))
        return st.one_of(st.dictionaries(keys, values_for(args[1], depth + 1), max_size=2), st.just({}), anything)
    return st.one_of(st.sampled_from(NEAR.get(annotation, DEFAULTS)), anything)


def _hashable(values: list[Any]) -> bool:
    try:
        hash(tuple(values))
    except TypeError:
        return False
    return True


# --- docstrings ---------------------------------------------------------------------------------

SUMMARIES = (["Look up an order.", "Résumé — ünïcode ✓, 東京.", "Two  spaces.  Here.", "Ends with a colon:"],)
SUMMARIES += (["Note: see below", "Text\twith a tab.", "Form\x0cfeed.", "Line\u2028separator.", "args: lower case"],)
TITLES = (["Args:", "Arguments:", "Parameters:", "Params:", "Returns:", "Raises:", "Examples:", "Attributes:"],)
TITLES += (["Yields:", "Args:  ", "Args :", "Todo:", "Keyword Args:", "args:", "Args: the inputs"],)
NAMES_DOC = (["x", "order_id", "*args", "**kwargs", "é", "_y2"], ["x y", "x-y", "", "1x"])
TYPES_DOC = (["", " (int)", " (int, optional)", "(str)", " (dict[str, int])"],)
TYPES_DOC += ([" (Literal['a:b'])", " (Callable[(int), str])", "  (int)", " (int) ", " int"],)
COLONS = ([": "], [":", " : ", ":  ", ":\t"])
TEXTS_DOC = (["The value.", "Two  spaces.  Here.", "Ends with a colon:", "Has: a colon.", "ünïcode ✓."],)
TEXTS_DOC += (["", " ", "Tab\there.", "Form\x0cfeed.", "Carriage\rreturn.", "Text\x1csep."],)
INDENTS = (["    "], ["  ", "   ", "        "])
DEEPER = (["{0}{0}", "{0}    "], ["{0} ", "{0}", " ", ""])


def _mostly(draw: st.DrawFn, choices: tuple[list[str], ...]) -> str:
    """One of the usual choices nine times in ten, else one of the odd ones."""
    usual, odd = choices
    return draw(st.sampled_from(usual if draw(st.integers(0, 9)) else odd))


@st.composite
def google_docstrings(draw: st.DrawFn) -> str:
    """A Google docstring as people write them, and with the slips they make (an indent of 2 or
    3, a blank line under a title, none above it, a space before a colon, CRLF, tabs...)."""
    lines = [_mostly(draw, SUMMARIES)]
    if draw(st.booleans()):
        lines += ["", _mostly(draw, SUMMARIES)]
    for _ in range(draw(st.integers(1, 3))):
        lines += [""] if draw(st.integers(0, 9)) else []
        lines.append(_mostly(draw, TITLES))
        lines += [""] if not draw(st.integers(0, 9)) else []
        indent = _mostly(draw, INDENTS)
        for _ in range(draw(st.sampled_from([1, 1, 2, 3, 0]))):
            name, kind, colon = _mostly(draw, NAMES_DOC), _mostly(draw, TYPES_DOC), _mostly(draw, COLONS)
            lines.append(f"{indent}{name}{kind}{colon}{_mostly(draw, TEXTS_DOC)}")
            for _ in range(draw(st.integers(0, 2))):
                deeper = _mostly(draw, DEEPER).format(indent)
                lines.append(f"{deeper}{_mostly(draw, TEXTS_DOC)}" if deeper or draw(st.booleans()) else "")
    if draw(st.integers(0, 9)) == 0:
        lines.append(draw(st.sampled_from(["Trailing text.", "    indented trailing text", "```", "    >>> f(1)"])))
    if draw(st.booleans()):  # as written in a source file: the lines after the first indented
        lines = [lines[0], *("    " + line if line else line for line in lines[1:]), "    "]
    if draw(st.booleans()):
        lines[0] = "\n    " + lines[0]  # the summary on the line after the quotes
    return draw(st.sampled_from(["\n", "\n", "\n", "\r\n"])).join(lines)


SPHINX_LINES = (
    [":param x: The x.", ":param y: Two  spaces.  Here.", "    continued.", ":type x: int", ":returns: A thing.", ""],
    [":param x: again", ":param *args: The rest.", ":param é: ünïcode ✓.", ":parameter z: The z.", ":arg a: An a."],
    [":key k: A key.", ":rtype: str", ":raises ValueError: Never.", ":note: unknown field", "Text: with a colon."],
    [
        ":param str typed: A type inside.",
        ":param x : a space",
        ":param\tt: a tab",
        ":param x:no space",
        ":param empty:",
    ],
    [":param x: form\x0cfeed", ":param x: carriage\rreturn", "\tTabbed text", "    indented text", ".. note:: rst"],
)


@st.composite
def sphinx_docstrings(draw: st.DrawFn) -> str:
    """A reST docstring: a summary, fields of every kind (mostly the plain ones), continuations,
    odd spacing, CRLF."""
    lines = [draw(st.sampled_from(["List the files.", "Résumé ✓.", "Two  spaces.", "Ends with a colon:"]))]
    lines += [""] if draw(st.integers(0, 4)) else []
    for _ in range(draw(st.integers(1, 6))):
        lines.append(
            draw(st.sampled_from(SPHINX_LINES[0] if draw(st.integers(0, 2)) else draw(st.sampled_from(SPHINX_LINES))))
        )
    if draw(st.booleans()):
        lines = [lines[0], *("    " + line if line else line for line in lines[1:])]
    return draw(st.sampled_from(["\n", "\n", "\r\n"])).join(lines)


def _non_finite(value: Any) -> bool:
    """A NaN or an infinity anywhere in `value` (`float = math.nan` is taken as it is, by design:
    `test_a_default_json_cannot_carry_stays_out_of_the_schema_and_still_reaches_the_tool`)."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_non_finite(v) for v in value.values())
    return isinstance(value, (list, tuple, set, frozenset)) and any(_non_finite(v) for v in value)


def _tool(annotation: Any, *default: Any) -> Any:
    def tool(x):  # type: ignore[no-untyped-def]
        """A tool."""
        return repr(x)

    tool.__defaults__ = default or None
    tool.__annotations__ = {"x": annotation, "return": str}
    return tool


def _spec(fn: Any) -> str:
    reflect.clear_cache()
    return _outcome(lambda: reflect.reflect(fn).spec.to_openai())


# --- 1. the type path ---------------------------------------------------------------------------


@SETTINGS
@given(ANNOTATION_TEXTS)
def test_drawn_annotations_fast_schema_equals_pydantic(text):
    annotation = _evaluated(text)
    if annotation is not None:
        _same_schema(annotation)


@SETTINGS
@given(st.one_of(generated_dataclasses(), generated_typed_dicts()), st.sampled_from(["{}", "list[{}]", "{} | None"]))
def test_drawn_classes_fast_schema_equals_pydantic(cls, form):
    if cls is not None:
        _same_schema({"{}": cls, "list[{}]": list[cls], "{} | None": Optional[cls]}[form])


def test_an_enum_is_written_with_every_name_and_its_blank_docstring():
    """pydantic lists each name's value (`__members__`): an alias repeats its value, a flag's named
    combination is there; a blank docstring is a description `""`. The fast path listed the
    canonical members only and dropped the blank description."""
    for cls, body in [
        (Aliased, {"description": "Two names for one value.", "enum": ["s", "s", "l"], "type": "string"}),
        (Access, {"enum": [0, 1, 2, 3], "type": "integer"}),  # a flag: every combination (json_schema.flag_schema)
        # Python 3.13 strips a docstring's blanks when it compiles it: `""" """` is `""`, no description then
        (
            Blank,
            {"description": "", "enum": ["only"], "type": "string"}
            if Blank.__doc__
            else {"enum": ["only"], "type": "string"},
        ),
    ]:
        fast_schema.clear_cache()
        assert fast_schema.type_schema(cls) == ({"$ref": f"#/$defs/{cls.__name__}"}, {cls.__name__: body})
        _same_schema(cls)


CONSTRAINTS_PYDANTIC_DECIDES = [
    Annotated[float, at.Ge(math.inf)],  # pydantic leaves an infinite bound out
    Annotated[float, Field(lt=-math.inf)],
    Annotated[decimal.Decimal, at.Le(math.inf)],
    Annotated[float, at.Ge(math.nan)],
    Annotated[float, at.Le(10**400)],  # pydantic-core cannot make it a float
    Annotated[decimal.Decimal, Field(ge=10**400)],
    Annotated[int, at.MultipleOf(0)],  # pydantic-core refuses these: multiple_of > 0, finite
    Annotated[float, Field(multiple_of=-0.5)],
    Annotated[decimal.Decimal, at.MultipleOf(math.nan)],
    Annotated[str, at.MinLen(-1)],  # and lengths in 64 unsigned bits
    Annotated[bytes, Field(max_length=-1)],
    Annotated[list[int], at.MaxLen(2**64)],
    Annotated[dict[str, int], Field(min_length=2**70)],
]


@pytest.mark.parametrize("annotation", CONSTRAINTS_PYDANTIC_DECIDES, ids=repr)
def test_a_constraint_pydantic_writes_otherwise_or_refuses_is_left_to_pydantic(annotation):
    """The fast path wrote `"minimum": Infinity` (not JSON), `"multipleOf": 0` and `"minLength": -1`,
    which pydantic leaves out or refuses: the tool registered, and every call failed."""
    _same_schema(annotation)


TITLED_UNIONS = [
    Union[Annotated[int, Field(title="A")], int],
    Union[list[Annotated[int, Field(title="A")]], list[int]],
    Optional[Annotated[Union[int, str], Field(title="T")]],
    Optional[Annotated[decimal.Decimal, Field(title="T")]],
]


@pytest.mark.parametrize("annotation", TITLED_UNIONS, ids=repr)
def test_a_title_inside_a_union_keeps_its_members_apart_as_pydantic_does(annotation):
    """pydantic compares union members (dropping repeats, spreading a member that is only an
    `anyOf`) while their titles are still there; the fast path, which writes none, dropped or
    spread them."""
    _same_schema(annotation)


_T = typing.TypeVar("_T")
_Qty = typing_extensions.TypeAliasType("_Qty", Annotated[int, Field(ge=1, le=9)])
_Pair = typing_extensions.TypeAliasType("_Pair", tuple[_T, _T], type_params=(_T,))
_Json = typing_extensions.TypeAliasType("_Json", "dict[str, _Json] | list[_Json] | str | int | None")
ALIASES_AND_NULL_CHOICES = [
    (_Qty, 5),
    (Optional[_Qty], None),
    (list[_Qty], [1]),
    (_Pair[int], (1, 2)),
    (_Json, {"a": [1, None]}),
    (Literal["x", None], None),
    (Literal["x", None], "x"),
    (Annotated[Optional[int], Field(description="n")], 3),
]


@pytest.mark.parametrize("annotation, default", ALIASES_AND_NULL_CHOICES, ids=repr)
def test_type_aliases_and_null_choices_reflect_as_without_the_fast_path(annotation, default):
    """Type aliases (`type X = ...` as `TypeAliasType`: generic, recursive, over constraints) and
    `None` among a Literal's choices, found while probing Python 3.11 to 3.13: the fast path gives
    what pydantic and the validator give, with and without a default."""
    _same_schema(annotation)
    for fn in (_tool(annotation), _tool(annotation, default)):
        fast = _spec(fn)
        with without_shortcuts():
            assert fast == _spec(fn)


def test_a_constraint_pydantic_core_refuses_fails_at_registration():
    assert _spec(_tool(Annotated[int, Field(multiple_of=0)])) == (
        "raised ToolDefinitionError: @tool test_fast_schema_properties._tool.<locals>.tool, parameter 'x': "
        "pydantic refuses Annotated[int, Field(multiple_of=0)]: 'multiple_of' must be a finite number greater "
        "than 0. Fix: give each constraint a value of the parameter's type (e.g. an int bound for an int)"
    )
    assert _spec(_tool(Annotated[str, Field(min_length=-1)])).startswith(
        "raised ToolDefinitionError: @tool test_fast_schema_properties._tool.<locals>.tool, parameter 'x': "
        "pydantic refuses Annotated[str, Field(min_length=-1)]: OverflowError: can't convert negative int to unsigned."
    )


# --- 2. the "obviously valid" shortcut ----------------------------------------------------------


@SETTINGS
@given(st.data())
def test_an_obviously_valid_default_is_one_the_validator_takes_as_it_is(data):
    annotation = _evaluated(data.draw(ANNOTATION_TEXTS))
    if annotation is None:
        return
    try:
        coercion.validator_for(annotation)
    except Exception:
        return  # a type pydantic refuses: reflection says so before any default is checked
    default = data.draw(values_for(annotation))
    if not fast_schema.obviously_valid(annotation, default, parameters._accepts_none(annotation)):
        return
    taken, value = _validated(annotation, default)
    assert taken or _non_finite(default), (annotation, default)
    assert not taken or _same_value(value, default), (annotation, default, value)


@SETTINGS
@given(st.data(), st.sampled_from(["x: T = d", "x: T = Field(d, ...)", "x: Annotated[T, Field(default=d)]"]))
def test_drawn_parameters_reflect_as_without_the_fast_path(data, form):
    """The spec, or a refusal, as reflection gives it when pydantic writes every schema and the
    validator checks every default (the wording of a refusal may differ: which check came first)."""
    annotation = _evaluated(data.draw(ANNOTATION_TEXTS))
    if annotation is None:
        return
    default = data.draw(values_for(annotation))
    assume(not _non_finite(default))
    if form == "x: T = d":
        fn = _tool(annotation, default)
    elif form == "x: T = Field(d, ...)":
        fn = _tool(annotation, Field(default, description="d"))
    else:
        fn = _tool(Annotated[annotation, Field(default=default)])
    fast = _spec(fn)
    with without_shortcuts():
        plain = _spec(fn)
    if "KeyError: 'ref'" in plain:
        return  # coercion's validator of an enum under Annotated metadata (not this module's)
    assert fast == plain or (fast.startswith("raised") and plain.startswith("raised")), (fast, plain)


REFUSED_DEFAULTS = [
    (tuple[int, str], (), "the default () is not a valid tuple[int, str]: Field required"),
    (
        Literal[1, 2**70],
        2**70,
        "the default 1180591620717411303424 is not a valid Literal[1, 1180591620717411303424]: Unable to parse "
        "input string as an integer, exceeded maximum size",
    ),
    (
        Union[Annotated[str, at.Ge(1)], str],
        "a",
        "checking the default 'a' against Union[Annotated[str, ge=1], str] raised TypeError: Unable to apply "
        "constraint 'ge' to supplied value a",
    ),
    (
        Annotated[Any, Field(ge=0)],
        None,
        "checking the default None against Annotated[Any, Field(ge=0)] raised TypeError: Unable to apply "
        "constraint 'ge' to supplied value None",
    ),
    (
        Annotated[type(None), at.MaxLen(3)],
        None,
        "checking the default None against Annotated[NoneType, MaxLen(max_length=3)] raised TypeError: "
        "Unable to apply constraint 'max_length' to supplied value None",
    ),
]


@pytest.mark.parametrize("annotation, default, said", REFUSED_DEFAULTS)
def test_a_default_the_validator_refuses_is_never_obviously_valid(annotation, default, said):
    """The shortcut said valid, so the tool registered (and its schema said `minItems: 2` over a
    default `[]`): `()` for a fixed-length tuple; an int beyond 64 bits for a `Literal` of several
    ints (pydantic-core cannot match it); a union with a member whose metadata raises (not refuses);
    `None` for a type whose metadata is run on `None`."""
    assert not fast_schema.obviously_valid(annotation, default, parameters._accepts_none(annotation))
    spec = _spec(_tool(annotation, default))
    with without_shortcuts():
        assert _spec(_tool(annotation, default)) == spec
    where = "raised ToolDefinitionError: @tool test_fast_schema_properties._tool.<locals>.tool, parameter 'x': "
    assert spec.startswith(where + said + ". Fix: "), spec


def test_none_for_a_nullable_type_with_plain_metadata_is_still_obviously_valid():
    for annotation in (Annotated[Optional[int], Field(description="d")], Optional[Annotated[int, Field(ge=1)]]):
        assert fast_schema.obviously_valid(annotation, None, True)


# --- 3. plain Google and Sphinx docstrings ------------------------------------------------------


def _read_both(doc: str) -> tuple[tuple[str, dict[str, str]], list[tuple[str, Any]]]:
    """`parse_docstring(doc)` and each (text, answer) the fast Google reader gave on the way."""
    asked: list[tuple[str, Any]] = []
    original = fast_schema.google_docstring

    def spy(text: str) -> Any:
        asked.append((text, original(text)))
        return asked[-1][1]

    with mock.patch.object(fast_schema, "google_docstring", spy):
        return reflect.parse_docstring(doc), asked


def _by_griffe(doc: str) -> tuple[str, dict[str, str]]:
    with mock.patch.object(fast_schema, "google_docstring", lambda text: None):
        with mock.patch.object(fast_schema, "sphinx_docstring", lambda lines: None):
            with mock.patch.object(fast_schema, "sphinx_text", lambda value: None):
                return reflect.parse_docstring(doc)


@SETTINGS
@given(google_docstrings())
def test_drawn_google_docstrings_read_as_griffe_reads_them(doc):
    parsed, asked = _read_both(doc)
    for text, answer in asked:
        assert answer is None or answer == reflect.griffe_docstring(text), text
    assert parsed == _by_griffe(doc)


@SETTINGS
@given(sphinx_docstrings())
def test_drawn_sphinx_docstrings_read_as_griffe_reads_them(doc):
    assert reflect.parse_docstring(doc) == _by_griffe(doc)


GRIFFE_READS_OTHERWISE = [
    # the blanks of an entry's text as one space (griffe's), not kept
    ("Look up.\n\nArgs:\n    x: Two  spaces.  Here.", ("Look up.", {"x": "Two spaces. Here."})),
    # lines split at \n only: \r, \f, \u2028 end no line (`splitlines` ended one)
    ("Look up.\n\nA\rB\n\nArgs:\n    x: The x.", ("Look up.\n\nA\rB", {"x": "The x."})),
    ("Look up.\n\nMore\x0ctext.\n\nArgs:\n    x: The x.", ("Look up.\n\nMore\x0ctext.", {"x": "The x."})),
    ("Look up.\n\nA\u2028B\n\nArgs:\n    x: The x.", ("Look up.\n\nA\u2028B", {"x": "The x."})),
    # `Note: text` over an indented line is an admonition, not description
    ("Look up.\n\nNote: uses the cache\n    when offline.\n\nArgs:\n    x: The x.", ("Look up.", {"x": "The x."})),
    # a blank line under a section's title: griffe skips the section (it is text)
    ("Look up.\n\nArgs:\n\n    x: The x.", ("Look up.\n\nArgs:\n\n    x: The x.", {})),
    # a title with nothing under it is text
    ("Look up.\n\nArgs:", ("Look up.\n\nArgs:", {})),
    # an item named as griffe splits it: at the first colon
    ("Look up.\n\nArgs:\n    x : spaced.", ("Look up.", {"x ": "spaced."})),
    ("Look up.\n\nArgs:\n    x (Literal['a:b']): The x.", ("Look up.", {"x (Literal['a": "b']): The x."})),
    # items at the first one's indent; a shallower line ends the section
    ("Look up.\n\nArgs:\n  x: The x.\n    y: more of x.", ("Look up.", {"x": "The x. y: more of x."})),
    ("Look up.\n\nReturns:\n    A thing.\n  y: after it.", ("Look up.\n\ny: after it.", {})),
    # no section inside a code fence
    (
        "Look up.\n\n```\n\nArgs:\n    x: in code\n        ```",
        ("Look up.\n\n```\n\nArgs:\n    x: in code\n        ```", {}),
    ),
]


@pytest.mark.parametrize("doc, expected", GRIFFE_READS_OTHERWISE)
def test_a_google_docstring_griffe_reads_otherwise_is_read_as_griffe_does(doc, expected):
    """Each found by the drawn docstrings: the fast reader answered, and not as griffe does."""
    parsed, asked = _read_both(doc)
    assert parsed == _by_griffe(doc) == expected
    for text, answer in asked:
        assert answer is None or answer == reflect.griffe_docstring(text), text


_DRAWN.__dict__.update({k: v for k, v in globals().items() if not k.startswith("__")})
sys.modules[_DRAWN.__name__] = _DRAWN


# --- 4. the annotation cache ---------------------------------------------------------------------

NAME_TEXTS = ["str", "int", "Point", "None", "True", "class", "match", "type", "_", "ﬁle", "Ｓtr", "x.y", " str"]
NAME_TEXTS += ["list[int]", "Missing", "print", "Optional"]
BUILTINS = {"module": builtins, "dict": dict(vars(builtins)), "own dict": {"str": bytes}, "None": None}


@SETTINGS
@given(
    st.sampled_from(NAME_TEXTS),
    st.sampled_from([*BUILTINS, "absent"]),
    st.dictionaries(st.sampled_from(NAME_TEXTS), st.sampled_from([int, str, None, 1, Point]), max_size=3),
)
def test_a_plain_name_is_what_eval_finds(text, given_builtins, names):
    """`plain_name(text, namespace)` is `eval(text, namespace)` or `NOT_PLAIN` (then eval decides)."""
    namespace = dict(names)
    if given_builtins != "absent":
        namespace["__builtins__"] = BUILTINS[given_builtins]
    found = fast_schema.plain_name(text, namespace)
    if found is not fast_schema.NOT_PLAIN:
        assert found is eval(text, dict(namespace)), (text, namespace)


def test_a_keyword_or_odd_builtins_are_left_to_eval():
    """`x: "None"` in a module that holds a global named `None` (`globals()["None"] = ...`) gave that
    global, not None; a `__builtins__` neither a dict nor a module raised a TypeError of its own."""
    assert fast_schema.plain_name("None", {"None": int}) is fast_schema.NOT_PLAIN
    assert fast_schema.plain_name("class", {"class": int}) is fast_schema.NOT_PLAIN
    assert fast_schema.plain_name("str", {"__builtins__": None}) is fast_schema.NOT_PLAIN
    assert fast_schema.plain_name("match", {"match": int}) is int  # a soft keyword is a name


def test_a_keyword_in_a_class_annotation_is_left_to_typing(monkeypatch):
    """`evaluated_hints` looked `"None"` up among the module's globals like a class name."""
    module = types.ModuleType("odd_globals")
    module.__dict__.update({"None": int, "True": str})
    monkeypatch.setitem(sys.modules, module.__name__, module)
    for annotation, typed in [("None", type(None)), ("list[True]", list[True]), ("dict[str, None]", dict[str, None])]:
        cls = types.new_class("Odd")
        cls.__module__ = module.__name__
        cls.__annotations__ = {"a": annotation}
        assert typing.get_type_hints(cls) == {"a": typed}
        assert fast_schema.evaluated_hints(cls) is None
