"""Type → JSON Schema for the types added to the fast path (TypedDict, dataclasses, tuples,
`Decimal`, `bytes`, Literals of any JSON scalars): fast path = pydantic path, and the fast
attribute-docstring reader = pydantic's."""

import dataclasses
import datetime
import decimal
import enum
import json
import sys
import textwrap
import types
from typing import Annotated, Any, ClassVar, Literal, NotRequired, Optional, Required, Union

import annotated_types as at
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field
from test_type_schema import Level
from typing_extensions import ReadOnly, TypedDict

from toolkit.tools import fast_schema as fs
from toolkit.tools.fast_schema import _Slow, fast_schema, type_schema
from toolkit.tools.json_schema import attribute_docstrings, pydantic_schema, reference_docstrings


class Colour(enum.Enum):
    RED = "red"
    GREEN = "green"


class Addr(TypedDict):
    """A postal address."""

    street: str
    """The street, with the number."""
    city: str
    zip: Optional[str]


class Person(TypedDict):
    name: str
    addresses: list[Addr]
    colour: NotRequired[Colour]


class Partial(TypedDict, total=False):
    a: int
    b: Required[list[Addr]]
    c: Annotated[int, Field(ge=1, description="at least one")]
    d: Literal[True, False]


class Child(Partial):
    e: tuple[int, ...]  # a comment "with quotes"


class Plain(TypedDict):
    x: int
    y: dict[str, list[float]]


class Tricky(TypedDict):
    x: list[int]
    """After a bracket that spans lines."""


class WithReadOnly(TypedDict):
    x: ReadOnly[int]


@dataclasses.dataclass
class Box:
    w: int
    """The width."""
    h: float = 1.5
    label: str = "x"
    sizes: tuple[int, ...] = ()
    flag: bool = False
    note: Optional[str] = None
    kind: Literal["a", "b"] = "a"
    items: list[int] = dataclasses.field(default_factory=list)
    LIMIT: ClassVar[int] = 3


@dataclasses.dataclass
class Shelf:
    """A shelf of boxes."""

    boxes: list[Box]
    main: Optional[Box] = None
    level: Level = Level.LOW


@dataclasses.dataclass
class Odd:
    when: decimal.Decimal = decimal.Decimal("1.5")  # default not a JSON scalar: pydantic's job


class Model(BaseModel):
    addr: Addr


FAST = [
    bytes,
    decimal.Decimal,
    list,
    tuple,
    set,
    dict,
    tuple[int, ...],
    tuple[int, str],
    tuple[()],
    tuple[Colour, list[str]],
    Literal[True, False],
    Literal[True],
    Literal[None],
    Literal["a", None],
    Literal[1, "a", True],
    Literal[1, 2, 3],
    Optional[Literal[True]],
    Annotated[bytes, Field(max_length=3)],
    Annotated[tuple[int, ...], Field(min_length=1)],
    Optional[decimal.Decimal],
    Union[int, bytes, None],
    Union[int, None, str],
    Union[decimal.Decimal, str, None],
    Union[Literal[1], Literal[True]],
    Optional[Union[int, str]],
    Optional[Any],
    Union[None, Literal[None]],
    Optional[Union[int, None]],
    Addr,
    Person,
    Partial,
    Child,
    Plain,
    Tricky,
    list[Addr],
    Optional[Person],
    dict[str, Addr],
    Box,
    Shelf,
    list[Box] | None,
    tuple[Box, Addr],
    list[Model],
    dict[int, str],
    Annotated[decimal.Decimal, Field(ge=1)],
]
SLOW = [
    Literal[Colour.RED],
    Literal[b"x"],
    WithReadOnly,
    Odd,
    Model,
]


def _normal(result):
    return json.loads(json.dumps(result, sort_keys=True))


@pytest.mark.parametrize("annotation", FAST, ids=repr)
def test_fast_path_equals_pydantic(annotation):
    defs: dict = {}
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        pytest.skip("models are pydantic's")
    got = (fast_schema(annotation, defs), defs)
    assert got == pydantic_schema(annotation)
    assert type_schema(annotation) == got
    assert json.dumps(type_schema(annotation)) == json.dumps(pydantic_schema(annotation))  # key order too


@pytest.mark.filterwarnings("ignore:.*ReadOnly:UserWarning")  # pydantic says it does not enforce ReadOnly
@pytest.mark.parametrize("annotation", SLOW, ids=repr)
def test_other_types_go_to_pydantic(annotation):
    if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
        with pytest.raises(_Slow):
            fast_schema(annotation, {})
    assert type_schema(annotation) == pydantic_schema(annotation)


def test_two_classes_of_one_name_go_to_pydantic():
    first = Addr
    namespace: dict = {}
    exec("from typing_extensions import TypedDict\nclass Addr(TypedDict):\n    other: int\n", namespace)
    both = tuple[first, namespace["Addr"]]
    with pytest.raises(_Slow):
        fast_schema(both, {})
    assert type_schema(both) == pydantic_schema(both)


RECURSIVE = """
from __future__ import annotations
import dataclasses, enum
from typing import Optional
from typing_extensions import NotRequired, TypedDict
class Alpha(enum.Enum):
    A = "a"
class Zeta(enum.Enum):
    Z = "z"
class Tree(TypedDict):
    \"\"\"A tree.\"\"\"
    label: str
    kids: list[Tree]
class Node(TypedDict):
    z: Zeta
    a: Alpha
    next: Optional[Node]
class Bee(TypedDict):
    z: Zeta
    kids: NotRequired[list[Bee]]
class Ping(TypedDict):
    pong: Pong | None
    z: Zeta
class Pong(TypedDict):
    ping: Ping
    a: Alpha
@dataclasses.dataclass
class Dir:
    name: str
    subdirs: list[Dir] = dataclasses.field(default_factory=list)
    parent: Dir | None = None
@dataclasses.dataclass
class Mid:
    dir: Dir
    zeta: Zeta
"""


def test_recursive_classes_take_the_fast_path_as_pydantic_writes_them(monkeypatch):
    """A class inside itself is a `$ref` to it; pydantic then files the class among the other
    `$defs` (sorted), not last (`Node` between `Alpha` and `Zeta`)."""
    module = types.ModuleType("recursive_classes")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(RECURSIVE, module.__dict__)
    for name in ("Tree", "Node", "Bee", "Ping", "Pong", "Dir", "Mid"):
        cls = getattr(module, name)
        for annotation in (cls, list[cls], Optional[cls], tuple[cls, module.Tree], dict[str, cls]):
            fs.clear_cache()
            fast_schema(annotation, {})  # no _Slow
            assert json.dumps(type_schema(annotation)) == json.dumps(pydantic_schema(annotation)), annotation
    assert list(type_schema(module.Node)[1]) == ["Alpha", "Node", "Zeta"]
    assert type_schema(module.Tree) == (
        {"$ref": "#/$defs/Tree"},
        {
            "Tree": {
                "description": "A tree.",
                "properties": {
                    "label": {"type": "string"},
                    "kids": {"items": {"$ref": "#/$defs/Tree"}, "type": "array"},
                },
                "required": ["label", "kids"],
                "type": "object",
                "additionalProperties": False,
            }
        },
    )


def test_a_redefined_class_gets_its_own_schema():
    made = []
    for field in ("a", "b"):

        class Again(TypedDict):
            pass

        Again.__annotations__[field] = int  # same name, same source line, new class
        Again.__required_keys__ = frozenset({field})
        made.append(Again)
    schemas = [type_schema(c)[1]["Again"]["properties"] for c in made]
    assert schemas[0] != schemas[1]


# --- attribute docstrings: the fast reader = pydantic's ----------------------------------------


def _local_classes():
    class Local(TypedDict):
        a: int
        """Local a."""

    @dataclasses.dataclass
    class LocalBox:
        b: int
        "single-quoted"
        c: int = 0

    return [Local, LocalBox]


DOCUMENTED = [Addr, Person, Partial, Child, Plain, Tricky, Box, Shelf, Odd, *_local_classes()]


@pytest.mark.parametrize("cls", DOCUMENTED, ids=lambda c: c.__qualname__)
def test_attribute_docstrings_equal_pydantic(cls):
    fast = attribute_docstrings(cls)
    assert fast is None or fast == reference_docstrings(cls)


def test_fast_reader_answers_for_plain_classes():
    for cls in (Addr, Person, Plain, Box, Shelf, *_local_classes()):
        assert attribute_docstrings(cls) is not None, cls


def test_attribute_docstrings_from_generated_modules(tmp_path, monkeypatch):
    """Classes written to a file and imported: nested, decorated, strings at the margin."""
    source = textwrap.dedent(
        '''
        import dataclasses
        from typing_extensions import TypedDict

        class A(TypedDict):
            x: int
            """X.
        at the margin"""
            y: int

        def make():
            class B(TypedDict):
                p: int
                "P."
            return B

        @dataclasses.dataclass
        class C:
            z: int  # no docs
            w: str = "#"

        class D(TypedDict): q: int; "Q."

        class E(TypedDict):
            r: int
        # a comment at the margin
            s: int
            """S."""
        '''
    )
    (tmp_path / "gen_docs_mod.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    mod = importlib.import_module("gen_docs_mod")
    for cls in (mod.A, mod.make(), mod.C, mod.D, mod.E):
        fast = attribute_docstrings(cls)
        assert fast is None or fast == reference_docstrings(cls), cls
    assert attribute_docstrings(mod.E) == {"s": "S."}


def test_reading_a_docstring_with_an_invalid_escape_warns_nothing_more(tmp_path, monkeypatch):
    """Python warns of `"\\d"` once, when it compiles the module; reading the class body again must not."""
    (tmp_path / "escape_docs_mod.py").write_text(
        'import dataclasses\n\n@dataclasses.dataclass\nclass Box:\n    code: str\n    "like \\d+"\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mod = importlib.import_module("escape_docs_mod")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = attribute_docstrings(mod.Box)
    assert (docs, [str(w.message) for w in caught]) == ({"code": "like \\d+"}, [])


def test_a_class_with_no_statement_has_no_docstrings():
    cls = types.new_class("Nowhere", (dict,))  # made in `types`, whose source has no `class Nowhere`
    assert attribute_docstrings(cls) == reference_docstrings(cls) == {}


def test_clear_cache_forgets_class_schemas():
    type_schema(Addr)
    fs.clear_cache()
    assert Addr not in fs._CACHE


def test_schemas_are_json():
    for annotation in FAST:
        result = type_schema(annotation)
        assert _normal(list(result)) == list(result)


Any  # noqa: B018 (imported for readers of the table)


DEFAULTS = [
    (bytes, b"abc"),
    (decimal.Decimal, decimal.Decimal("1.50")),
    (list[str], ["x", "y"]),
    (Annotated[list[str], Field(min_length=1)], ["x"]),
    (Annotated[list[str], Field(min_length=2)], ["x"]),
    (tuple[int, ...], (1, 2)),
    (tuple[int, str], (1, "a")),
    (tuple[int, str], (1, 2)),
    (set[int], {1}),
    (Literal[True, False], True),
    (Literal[1, 2], True),
    (Literal[1, 2], 2),
    (datetime.date, datetime.date(2026, 1, 2)),
    (int | str, "a"),
    (float | None, 1.5),
    (list[int], [True]),
    (Annotated[bytes, Field(ge=0)], b""),  # a bound that cannot compare: not obvious (no TypeError)
    (Annotated[str, Field(pattern="^[0-9]{5}$")], "10115"),
    (Annotated[str, Field(pattern="^[0-9]{5}$")], "1011"),
    (Annotated[str, Field(pattern="^[0-9]{5}$")], "10115\n"),  # Python's `$` would take it, pydantic's does not
    (Annotated[str, Field(pattern="(?=1)1")], "1"),  # a pattern pydantic refuses: never obvious
    (datetime.timedelta, datetime.timedelta(minutes=5)),
    (datetime.timedelta, datetime.timedelta(days=-1, microseconds=7)),
    (Annotated[str, at.Len(1, 3)], "ab"),
    (Annotated[str, at.Len(1, 3)], "abcd"),
    (Annotated[float, at.Interval(ge=0, le=1)], 0.5),
    (Annotated[float, at.Interval(ge=0, le=1)], 1.5),
    (Annotated[decimal.Decimal, Field(max_digits=3)], decimal.Decimal("1.5")),
]


@pytest.mark.parametrize("annotation, default", DEFAULTS, ids=repr)
def test_obviously_valid_defaults_are_valid_and_unchanged(annotation, default):
    from pydantic import ValidationError

    from toolkit.tools.coercion import validate_value
    from toolkit.tools.fast_schema import obviously_valid

    if obviously_valid(annotation, default, False):  # may say no to a valid one: the validator decides
        assert validate_value(annotation, default) == default
    elif (annotation, default) in INVALID:
        with pytest.raises(ValidationError):
            validate_value(annotation, default)


def test_a_default_matching_its_pattern_needs_no_validator():
    from toolkit.tools.fast_schema import obviously_valid

    assert obviously_valid(Annotated[str, Field(pattern="^[0-9]{5}$", max_length=5)], "10115", False)


INVALID = [
    (Annotated[list[str], Field(min_length=2)], ["x"]),
    (tuple[int, str], (1, 2)),
    (Annotated[str, Field(pattern="^[0-9]{5}$")], "1011"),
    (Annotated[str, Field(pattern="^[0-9]{5}$")], "10115\n"),
    (Annotated[str, at.Len(1, 3)], "abcd"),
    (Annotated[float, at.Interval(ge=0, le=1)], 1.5),
]


def test_source_file_equals_inspect(tmp_path, monkeypatch):
    """`source_file` = `inspect.getsourcefile` for classes of every kind of module: a `.py` file,
    one deleted after import, a compiled-only or extension module, the standard library, a
    module without a file, a class whose module is not imported."""
    import importlib
    import inspect
    import json as json_module
    import pathlib

    from toolkit.tools.json_schema import source_file

    (tmp_path / "src_file_mod.py").write_text("class A:\n    pass\n")
    (tmp_path / "src_gone_mod.py").write_text("class G:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    here = importlib.import_module("src_file_mod")
    gone = importlib.import_module("src_gone_mod")
    (tmp_path / "src_gone_mod.py").unlink()
    nowhere = types.new_class("Nowhere", (dict,))
    unimported = types.new_class("Unimported")
    unimported.__module__ = "not_a_module_anyone_imported"
    classes = [here.A, gone.G, Addr, pathlib.Path, json_module.JSONDecoder, nowhere, unimported, decimal.Decimal]
    for cls in classes:
        try:
            expected = inspect.getsourcefile(cls)
        except Exception as exc:
            with pytest.raises(type(exc)):
                source_file(cls)
        else:
            assert source_file(cls) == expected, cls


def test_attribute_docstrings_follow_an_edited_file(tmp_path, monkeypatch):
    """A module rewritten on disk and imported again: its class's attribute docstrings are read
    from the new text (linecache sees the change; `clear_cache` forgets what was read)."""
    import importlib
    import os

    from toolkit.tools import reflect as reflect_module

    path = tmp_path / "edited_docs_mod.py"
    monkeypatch.syspath_prepend(str(tmp_path))
    versions = [
        'from typing_extensions import TypedDict\n\nclass Order(TypedDict):\n    id: str\n    """The old id."""\n',
        "from typing_extensions import TypedDict\n\n\n# moved down a line\nclass Order(TypedDict):\n"
        '    id: str\n    """The new id, longer."""\n    note: str\n    "A note."\n',
    ]
    found = []
    for i, text in enumerate(versions):
        path.write_text(text)
        os.utime(path, (1_000_000 + i, 1_000_000 + i))  # a different mtime, whatever the clock
        sys.modules.pop("edited_docs_mod", None)
        importlib.invalidate_caches()
        mod = importlib.import_module("edited_docs_mod")

        def take(order: mod.Order) -> str:
            return ""

        reflect_module.clear_cache()
        schema = reflect_module.reflect(take).spec.parameters["$defs"]["Order"]["properties"]
        found.append({name: prop.get("description") for name, prop in schema.items()})
        assert attribute_docstrings(mod.Order) == reference_docstrings(mod.Order)
    assert found == [{"id": "The old id."}, {"id": "The new id, longer.", "note": "A note."}]


def test_attribute_docstrings_at_the_compilers_line(tmp_path, monkeypatch):
    """Python 3.13 gives each class its first line (`__firstlineno__`): a class defined twice in
    one file, under decorators over several lines, is read from its own lines, without looking
    through the file by name, and equals pydantic's reader; before 3.13 that reader takes the first
    statement of the name (`inspect`), and each class is read from its own lines all the same."""
    source = textwrap.dedent(
        '''
        import dataclasses
        from typing_extensions import TypedDict

        class Twice(TypedDict):
            a: int
            """The first."""

        FIRST = Twice

        @dataclasses.dataclass(
            frozen=True,
        )
        # a comment between
        class Twice:
            b: int
            """The second."""

        class Inside:
            class Twice(TypedDict):
                c: int
                "Nested."

        class LoneDoc(TypedDict):
            d: int
            "D."
        '''
    )
    (tmp_path / "twice_docs_mod.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    mod = importlib.import_module("twice_docs_mod")
    classes = (mod.FIRST, mod.Twice, mod.Inside.Twice, mod.LoneDoc)
    found = [attribute_docstrings(cls) for cls in classes]
    assert found == [{"a": "The first."}, {"b": "The second."}, {"c": "Nested."}, {"d": "D."}]
    if sys.version_info >= (3, 13):  # pydantic's reader finds each class by its own line too
        assert found == [reference_docstrings(cls) for cls in classes]
    else:
        assert reference_docstrings(mod.Twice) == {"a": "The first."}  # the first `class Twice`


def test_a_class_defined_twice_in_a_file_is_read_from_its_own_lines_on_every_python(tmp_path, monkeypatch):
    """Before Python 3.13 `inspect` finds a class by name, the first statement of that name: a
    dataclass written again lower in its file (a field added, its texts reworded) gave the model the
    first one's field descriptions on 3.11 and 3.12, and its own on 3.13. Its own lines are found on
    every version now: by a method's line, else by the fields it declares, else (at module level)
    by the statement that ran last."""
    source = textwrap.dedent(
        '''
        import dataclasses
        from toolkit import tool

        @dataclasses.dataclass
        class Item:
            sku: str
            """Old: the stock-keeping unit."""

        FIRST = Item

        @dataclasses.dataclass
        class Item:
            sku: str
            """The product code."""
            qty: int = 1
            """How many."""

        @tool("buy")
        def buy(item: Item) -> str:
            return "ok"

        class Note:
            """First."""

            text: str
            """Old text."""

            def show(self) -> str:
                return self.text

        OLD_NOTE = Note

        class Note:
            text: str
            """The note's text."""

            def show(self) -> str:
                return self.text.upper()

        class Same(TypedDict):
            a: int
            """Before."""

        class Same(TypedDict):
            a: int
            """After."""

        class Base(TypedDict):
            a: int

        class Kid(Base):
            b: int
            """Old b."""

        OLD_KID = Kid

        class Kid(Base):
            b: int
            """New b."""
            c: int
            """C."""
        '''
    ).replace("import dataclasses\n", "import dataclasses\nfrom typing_extensions import TypedDict\n", 1)
    (tmp_path / "defined_twice_mod.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    mod = importlib.import_module("defined_twice_mod")
    from toolkit.tools.execute import tools_from

    [buy] = tools_from(mod.buy)
    assert buy.spec.to_openai()["function"]["parameters"]["$defs"]["Item"]["properties"] == {
        "sku": {"type": "string", "description": "The product code."},
        "qty": {"default": 1, "type": "integer", "description": "How many."},
    }
    classes = (mod.FIRST, mod.Item, mod.OLD_NOTE, mod.Note, mod.Same, mod.OLD_KID, mod.Kid)
    assert [attribute_docstrings(c) for c in classes] == [
        {"sku": "Old: the stock-keeping unit."},
        {"sku": "The product code.", "qty": "How many."},
        {"text": "Old text."},
        {"text": "The note's text."},
        {"a": "After."},
        {"b": "Old b."},
        {"b": "New b.", "c": "C."},
    ]


def test_a_line_that_is_not_the_class_s_is_not_taken(tmp_path, monkeypatch):
    """A `__firstlineno__` that points elsewhere (the file edited since, `__module__` set to
    another module) is not read: the search by name answers, as before."""
    from toolkit.tools.json_schema import _block_at_first_line

    lines = ["x = 1\n", "class Other:\n", "    pass\n", "@decorate\n", "class Box:\n", "    a: int\n"]
    made = {name: type(name, (), {"__firstlineno__": line}) for name, line in (("Box", 1), ("Box2", 4))}
    assert _block_at_first_line(made["Box"], lines, "Box") is None  # `x = 1`: no class there
    assert _block_at_first_line(made["Box2"], lines, "Box") == ["class Box:\n", "    a: int\n"]
    assert _block_at_first_line(type("Box", (), {"__firstlineno__": 2}), lines, "Box") is None  # `class Other`
    assert _block_at_first_line(type("Box", (), {"__firstlineno__": 99}), lines, "Box") is None  # past the end
    assert _block_at_first_line(type("Box", (), {}), lines, "Box") is None  # no line of its own


def test_a_block_read_from_lines_is_the_block_read_from_the_text():
    """`_class_block_of_lines` (3.13's path) cuts what `_class_block` cuts from the joined text,
    at every line of real files (this one: classes in strings, nested, at the margin)."""
    from toolkit.tools import json_schema
    from toolkit.tools.json_schema import _class_block, _class_block_of_lines

    for path in (__file__, json_schema.__file__):
        lines = open(path, encoding="utf-8").readlines() + ["class Last:  # no newline at the end"]
        text = "".join(lines)
        start = 0
        for index, line in enumerate(lines):
            assert _class_block_of_lines(lines, index) == _class_block(text, start), (path, index)
            start += len(line)


def test_classes_made_by_a_call_are_read_without_parsing_the_module(tmp_path, monkeypatch):
    """A class made by a call (`TypedDict("Name", {...})`, `make_dataclass`, `type()`) has no
    class statement: `inspect` parsed the whole module to learn that, each time (90 ms a
    reflection in a 6,000-line file). The reader answers `{}` itself, as pydantic's reader does,
    unless a class statement may name it; then it leaves the class to pydantic's reader."""
    source = textwrap.dedent(
        '''
        import dataclasses
        from typing_extensions import TypedDict

        Made = TypedDict("Made", {"a": int})
        Built = dataclasses.make_dataclass("Built", [("b", int)])
        Typed = type("Typed", (dict,), {})
        Mentioned = TypedDict("Mentioned", {"m": int})  # not the class Mentioned of a statement
        Stated = TypedDict("Stated", {"s": int})

        if False:
            class\\
                Stated(TypedDict):
                s: int
                "A statement over a line join."

        class Ｗide(TypedDict):
            w: int
            """Wide."""
        '''
    )
    (tmp_path / "made_docs_mod.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    mod = importlib.import_module("made_docs_mod")
    made = (mod.Made, mod.Built, mod.Typed)
    for cls in (*made, mod.Mentioned, mod.Stated, mod.Wide):
        fast = attribute_docstrings(cls)
        assert fast is None or fast == reference_docstrings(cls), cls
    assert [attribute_docstrings(cls) for cls in made] == [{}, {}, {}]
    # the compiler's NFKC name, `Wide`: not found by name, so not judged "made by a call"
    assert (attribute_docstrings(mod.Wide), reference_docstrings(mod.Wide)) == (None, {"w": "Wide."})
    if sys.version_info < (3, 13):  # a statement may name them: pydantic's reader decides
        assert [attribute_docstrings(mod.Mentioned), attribute_docstrings(mod.Stated)] == [None, None]


def test_a_class_statement_is_seen_however_it_is_written():
    """`_never_defined` says "no statement" only when none can name the class: blanks, tabs,
    form feeds and backslash joins after `class`, and a name the compiler normalises, all count
    (`subclass Name` too: a superset does no harm); `className` and a name that only begins with
    it do not."""
    from toolkit.tools.json_schema import _never_defined

    def never(text: str, cls: type) -> bool:
        return _never_defined(f"<text {text!r}>", text, cls)

    cls = type("Name", (), {})
    for text in (
        "class Name: pass",
        "x = 1\nclass\tName(dict): pass",
        "class \f Name: pass",
        "class\\\nName: pass",
        "class \\\r\n  Name: pass",
        "class \\\rName: pass",
        "x = 1\nclass \\\n\\\n Name: pass",
        "class Ｎａｍｅ: pass",
        "class Name[T]: pass",
        "# class Name",
        "subclass Name",
    ):
        assert not never(text, cls), text
    for text in ("className = 1", "class Names: pass", "Name = type('Name', (), {})", ""):
        assert never(text, cls), text
    renamed = type("Name", (), {"__qualname__": "Outer.Other"})
    assert not never("", renamed)  # a __name__ unlike its qualname: not judged


def _class_words_plainly(text: str) -> frozenset[str]:
    """`_class_words` written plainly: every `class` of the text visited, its name read if one follows."""
    import re
    import unicodedata

    tail = re.compile(r"(?:[ \t\f]|\\(?:\r\n?|\n))+([^\x00-/:-@\[-^`{-\x7f]+)")
    found = set()
    at = text.find("class")
    while at >= 0:
        if text[at + 5 : at + 6] in (" ", "\t", "\f", "\\"):
            run = tail.match(text, at + 5)
            if run is not None and not run.group(1).isascii():
                found.add(unicodedata.normalize("NFKC", run.group(1)))
        at = text.find("class", at + 5)
    return frozenset(found)


_CLASS_TEXT_PIECES = (
    "class", "class ", "class\t", "class\f", "class\\\n", "class\\\r\n", "class\\\r", "class\\", "sub",
    "Name", "Ｎａｍｅ", "é", "e\u0301", "ﬁle", "x", "_", "1", " ", "\n", "\r", ":", "(", "#", "。", "\u3000",
    "𝐍ame", "ⓐ", "classé", "xclass", "\\",
)  # fmt: skip


@given(st.lists(st.sampled_from(_CLASS_TEXT_PIECES) | st.text(max_size=3), max_size=30).map("".join))
@settings(max_examples=400, deadline=None)
def test_class_words_are_those_a_plain_loop_finds(text: str) -> None:
    """`_class_words` visits only where a name beyond ASCII follows `class`; it finds exactly what
    visiting every `class` finds (overlaps such as `class éclass Ｙ` included)."""
    from toolkit.tools.json_schema import _class_words

    assert _class_words(f"<text {text!r}>", text) == _class_words_plainly(text)


def test_class_words_after_a_name_that_ends_in_class() -> None:
    from toolkit.tools.json_schema import _class_words

    text = "class éclass Ｙ: pass\nclass myclass Ｚ\nclass\\\n\tＡb: pass\nclass_ Ｃ\nclass ok\nclass _9é\fclass\fｘ"
    assert _class_words("<overlaps>", text) == _class_words_plainly(text) == {"éclass", "Y", "Z", "Ab", "_9é", "x"}


def test_a_class_with_its_own_pydantic_config_keeps_its_attribute_docstrings_rule():
    """A pydantic dataclass or a `with_config` TypedDict carries its own config, and pydantic reads
    its attribute docstrings by that config alone: with `use_attribute_docstrings` off or unset,
    none; on, each. Checked against pydantic-ai 2.68.0, whose tool schemas read a plain
    TypedDict's or dataclass's docstrings and leave these out. A plain class in its fields is read
    as everywhere else (pydantic-ai leaves it out here: one class, one body in `$defs`)."""
    import pydantic
    from pydantic import ConfigDict, with_config

    @dataclasses.dataclass
    class Inner:
        depth: int
        """how deep"""

    @pydantic.dataclasses.dataclass(config=ConfigDict(use_attribute_docstrings=False))
    class Off:
        w: float
        """off w"""
        inner: Inner

    @pydantic.dataclasses.dataclass
    class Unset:
        w: float
        """unset w"""

    @pydantic.dataclasses.dataclass(config=ConfigDict(use_attribute_docstrings=True))
    class On:
        w: float
        """on w"""

    @with_config(ConfigDict(extra="forbid"))
    class Closed(TypedDict):
        x: int
        """closed x"""

    def described(cls: type) -> dict[str, Any]:
        schema, defs = type_schema(cls)
        return {name: {k: v.get("description") for k, v in body["properties"].items()} for name, body in defs.items()}

    assert described(Off) == {"Off": {"w": None, "inner": None}, "Inner": {"depth": "how deep"}}
    assert described(Unset) == {"Unset": {"w": None}}
    assert described(On) == {"On": {"w": "on w"}}
    assert described(Closed) == {"Closed": {"x": None}}
    assert described(Inner) == {"Inner": {"depth": "how deep"}}


@dataclasses.dataclass
class Cupboard:
    width: float
    """width in cm"""


class Room(BaseModel):
    cupboard: Cupboard


def test_a_documented_dataclass_in_a_model_and_on_its_own_is_one_type():
    """A plain dataclass with attribute docstrings, a parameter of its own and a field of a model
    parameter, is one type with one body in `$defs`, in either order (it was two bodies, one
    read inside the model without the docstrings, refused as two types named 'Cupboard'). pydantic-ai
    2.68.0 gives the body of whichever comes first."""
    from toolkit.tools.reflect import reflect

    def place(room: Room, cupboard: Cupboard) -> str:
        return ""

    def place_first(cupboard: Cupboard, room: Room) -> str:
        return ""

    for fn in (place, place_first):
        defs = reflect(fn).spec.parameters["$defs"]
        assert defs["Cupboard"]["properties"]["width"] == {"description": "width in cm", "type": "number"}
        assert defs["Room"]["properties"]["cupboard"] == {"$ref": "#/$defs/Cupboard"}
