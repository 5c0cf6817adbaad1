"""The fast path = the pydantic path, over generated classes and signatures.

Each generated module (a seed) holds TypedDicts and dataclasses with random field types
(scalars, containers, Literals, enums, `Field` constraints, classes defined before or after,
a class inside itself), `total=False`, `Required` / `NotRequired`, defaults and
`field(default_factory=...)`, attribute docstrings in every quoting, comments, and sometimes a
method or a `;` (the parsed path), with and without `from __future__ import annotations`; then
functions taking them. Every piece of the fast path is compared with its reference:

- `fast_schema.evaluated_hints(C)` with `typing.get_type_hints(C, include_extras=True)`;
- `json_schema.attribute_docstrings(C)` with pydantic's reader (`reference_docstrings`);
- `fast_schema.type_schema(T)` with `json_schema.pydantic_schema(T)`, key order included;
- the reflected tool spec with the one reflection gives when every type goes to pydantic.

`SEEDS` modules by default; `FAST_SCHEMA_SEEDS=500` runs more (the broad check).
"""

import ast
import dataclasses
import decimal
import importlib
import importlib.util
import json
import os
import pathlib
import random
import re
import sys
import typing
import warnings
from inspect import Parameter

import jsonschema
import pytest
from pydantic._internal._docs_extraction import DocstringVisitor, _dedent_source_lines

from toolkit.tools import fast_schema, json_schema
from toolkit.tools import reflect as reflect_module
from toolkit.tools.json_schema import attribute_docstrings, pydantic_schema, reference_docstrings

inspect_empty = Parameter.empty
SEEDS = int(os.environ.get("FAST_SCHEMA_SEEDS", "40"))

# (annotation, a default that fits it or None): the field and parameter types drawn from
TYPES = [
    ("str", '"x"'),
    ("int", "3"),
    ("float", "1.5"),
    ("bool", "True"),
    ("int | None", "None"),
    ("Optional[str]", "None"),
    ("list[int]", "dataclasses.field(default_factory=list)"),
    ("dict[str, float]", "dataclasses.field(default_factory=dict)"),
    ('Literal["a", "b"]', '"a"'),
    ("Literal[1, 2]", "2"),
    ("Literal[True, False]", "False"),
    ("Colour", "Colour.RED"),
    ("Level", "Level.LOW"),
    ("datetime.date", None),
    ("tuple[int, str]", "(1, 'a')"),
    ("tuple[int, ...]", "()"),
    ("set[str]", "dataclasses.field(default_factory=set)"),
    ("bytes", 'b""'),
    ("decimal.Decimal", None),
    ("uuid.UUID", None),
    ("Any", "None"),
    ("Annotated[int, Field(ge=0, le=9)]", "3"),
    ("Annotated[str, Field(min_length=1, max_length=5)]", '"ab"'),
    ('Annotated[str, Field(pattern="^a")]', '"a"'),
    ('Annotated[float, Field(gt=0, description="positive")]', "1.0"),
    ("Annotated[list[str], Field(min_length=1)]", None),
    ('Annotated[int, Field(examples=[1, 2], title="T")]', "1"),
    ("Union[int, str, None]", "None"),
    ("ClassVar[int]", "0"),
    # what strangers write (the "stranger" rows of benchmarks/reflection_speed.py)
    ("Annotated[str, at.Len(1, 8)]", '"ab"'),
    ("Annotated[float, at.Interval(ge=0, le=1)]", "0.5"),
    ("Sequence[int]", None),
    ("Mapping[str, Any]", None),
    ("dict[int, str]", "dataclasses.field(default_factory=dict)"),
    ("pathlib.Path", None),
    ("datetime.timedelta", "datetime.timedelta(minutes=5)"),
    ("Annotated[decimal.Decimal, Field(max_digits=5, decimal_places=2)]", None),
]
PYDANTIC_TYPES = [  # drawn less often: each sends its whole class to pydantic (or is refused)
    ('Annotated[str, Field(pattern="(?=a)a")]', None),
    ("Annotated[Literal[1, 2], Field(ge=1)]", None),
    ("dict[int, str]", None),
    ("Annotated[int, Field(ge=1.5)]", None),
]


def _draw(rng: random.Random) -> tuple[str, str | None]:
    return rng.choice(PYDANTIC_TYPES if rng.random() < 0.04 else TYPES)


DOCSTRINGS = [
    '"""The {name}."""',
    '"The {name}."',
    "'''It's the {name}.'''",
    "'say \"{name}\"'",
    '"""  Spaced {name}.  """',
    '"""The {name},\n{indent}over two lines.\n{indent}"""',
    '""',
    '"""a""" # a comment',
]
NOISE = ['# a comment with "quotes"', "# it's", "", '"""A loose string."""']
HEADER = """import dataclasses
import datetime
import decimal
import enum
import pathlib
import uuid
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal, Optional, Union

import annotated_types as at

from pydantic import Field
from typing_extensions import NotRequired, Required, TypedDict


class Colour(str, enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2
"""


@dataclasses.dataclass
class Generated:
    module: typing.Any
    classes: list[type]
    functions: list[typing.Any]


def _class_source(rng: random.Random, name: str, known: list[str], later: list[str], future: bool) -> str:
    kind = rng.choice(["typeddict", "dataclass"])
    lines = ["@dataclasses.dataclass"] if kind == "dataclass" else []
    total = ", total=False" if kind == "typeddict" and rng.random() < 0.3 else ""
    lines.append(f"class {name}({'TypedDict' + total if kind == 'typeddict' else ''}):")
    if rng.random() < 0.5:
        lines.append(f'    """The {name} class."""')
    defaulted = False
    for i in range(rng.randint(1, 6)):
        field, (annotation, default) = f"f{i}", _draw(rng)
        roll = rng.random()
        if roll < 0.25 and known:
            annotation, default = (
                rng.choice(["{}", "list[{}]", "{} | None", "dict[str, {}]"]).format(rng.choice(known)),
                None,
            )
        elif roll < 0.32 and later:
            target = rng.choice(later)
            annotation, default = (f"list[{target}]" if future else f'list["{target}"]'), None
        elif roll < 0.35:
            annotation, default = (f"list[{name}]" if future else f'list["{name}"]'), None  # inside itself
        if kind == "typeddict":
            if annotation.startswith("ClassVar"):
                continue
            if rng.random() < 0.3:
                annotation = f"{rng.choice(['Required', 'NotRequired'])}[{annotation}]"
            default = None
        elif annotation.startswith("ClassVar"):
            default = "0"  # not a field: the order of defaults does not apply
        elif defaulted and default is None:
            continue  # a field without a default cannot follow one with
        elif defaulted or (default is not None and rng.random() < 0.4):
            defaulted = True
        else:
            default = None
        tail = rng.choice(["", "", "  # it's a comment"])
        lines.append(f"    {field}: {annotation}" + (f" = {default}" if default else "") + tail)
        if rng.random() < 0.45:
            lines.append("    " + rng.choice(DOCSTRINGS).format(name=field, indent="    "))
        if rng.random() < 0.15:
            lines.append("    " + rng.choice(NOISE) if rng.random() < 0.8 else "")
    if not any(line.startswith("    f") for line in lines):
        lines.append("    f9: int = 0" if kind == "dataclass" else "    f9: int")
    if rng.random() < 0.08:
        lines.append(
            "    x9: int; 'after a semicolon'" if kind == "typeddict" else "    def method(self):\n        return 'm'"
        )
    return "\n".join(lines) + "\n"


def _function_source(rng: random.Random, index: int, classes: list[str]) -> str:
    params, defaulted = [], False
    for i in range(rng.randint(0, 4)):
        annotation, default = _draw(rng)
        if annotation.startswith("ClassVar"):
            continue
        if classes and rng.random() < 0.5:
            annotation, default = rng.choice(["{}", "list[{}]", "{} | None"]).format(rng.choice(classes)), None
            default = "None" if annotation.endswith("None") and rng.random() < 0.5 else None
        if default and default.startswith("dataclasses.field"):
            default = None
        if default is None and defaulted:
            default = "None" if "None" in annotation or annotation == "Any" else None
            if default is None:
                continue
        if default is not None and (defaulted or rng.random() < 0.4):
            defaulted = True
            if rng.random() < 0.3:  # a `Field` default: the type gets an empty `Field` in `Annotated`
                extra = rng.choice(["", ", description='d'", ", ge=0"])
                default = f"Field({default}{extra})"
            params.append(f"p{i}: {annotation} = {default}")
        elif default is None:
            params.append(f"p{i}: {annotation}")
    return f'def tool_{index}({", ".join(params)}) -> str:\n    """Tool {index}."""\n    return \'\'\n'


def generate(seed: int, directory) -> Generated:
    """One module of random classes and functions, written to `directory` and imported."""
    rng = random.Random(seed)
    future = rng.random() < 0.5
    names = [f"C{seed}x{i}" for i in range(rng.randint(1, 4))]
    parts = ["from __future__ import annotations\n" if future else "", HEADER]
    for i, name in enumerate(names):
        parts.append("\n\n" + _class_source(rng, name, names[:i], names[i + 1 :], future))
    functions = [f"tool_{i}" for i in range(rng.randint(1, 4))]
    for i in range(len(functions)):
        parts.append("\n\n" + _function_source(rng, i, names))
    module_name = f"gen_fast_schema_{seed}"
    (directory / f"{module_name}.py").write_text("".join(parts))
    # importlib keeps a listing of each folder on sys.path, read again only when the folder's mtime
    # changes; a filesystem that stamps times at the kernel's tick (ext4: some 4 ms) can give the
    # folder the same mtime after the next module is written, and the import then failed now and
    # then (ModuleNotFoundError). Forget the listings, as importlib's docs say to after writing one.
    importlib.invalidate_caches()
    sys.modules.pop(module_name, None)
    module = importlib.import_module(module_name)
    return Generated(module, [getattr(module, n) for n in names], [getattr(module, f) for f in functions])


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    directory = tmp_path_factory.mktemp("generated")
    sys.path.insert(0, str(directory))
    try:
        yield [generate(seed, directory) for seed in range(SEEDS)]
    finally:
        sys.path.remove(str(directory))


def test_generate_imports_a_module_written_within_one_clock_tick(tmp_path, monkeypatch):
    """The next module is imported even when writing it leaves its folder's mtime as it was (a
    coarse filesystem clock): `generate` does not rely on the folder's mtime changing."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # no __pycache__ to change the mtime itself
    monkeypatch.syspath_prepend(str(tmp_path))
    assert generate(0, tmp_path).classes
    stamp = os.stat(tmp_path)
    write_text = pathlib.Path.write_text

    def within_one_tick(path, *args, **kwargs):
        written = write_text(path, *args, **kwargs)
        os.utime(path.parent, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
        return written

    monkeypatch.setattr(pathlib.Path, "write_text", within_one_tick)
    assert generate(1, tmp_path).classes


def _outcome(call):
    """A result as JSON text (key order counts, anything else as its repr), or the kind of error it raised."""
    try:
        return json.dumps(call(), default=repr)
    except Exception as exc:
        return f"raised {type(exc).__name__}: {exc}"


def test_generated_hints_equal_typing(generated):
    answered = 0
    for gen in generated:
        for cls in gen.classes:
            fast = fast_schema.evaluated_hints(cls)
            if fast is not None:
                answered += 1
                assert fast == typing.get_type_hints(cls, include_extras=True), cls
    assert answered >= len(generated) // 2  # the fast reading is the common case


def test_generated_attribute_docstrings_equal_pydantic(generated):
    answered = 0
    for gen in generated:
        for cls in gen.classes:
            fast = attribute_docstrings(cls)
            answered += fast is not None
            assert fast is None or fast == reference_docstrings(cls), cls
    assert answered >= len(generated)


def test_generated_classes_fast_equals_pydantic(generated):
    for gen in generated:
        for cls in gen.classes:
            for annotation in (cls, list[cls], cls | None):
                fast_schema.clear_cache()
                fast = _outcome(lambda a=annotation: fast_schema.type_schema(a))
                assert fast == _outcome(lambda a=annotation: pydantic_schema(a)), annotation


def _spec(fn):
    reflect_module.clear_cache()
    try:
        return json.dumps(reflect_module.reflect(fn).spec.to_openai())
    except Exception as exc:  # a ToolDefinitionError, or what pydantic raised (both paths alike)
        return f"raised {type(exc).__name__}: {exc}"


def _pydantic_only(monkeypatch):
    """Reflection without the fast path: pydantic writes every schema (a type whose `Field` had a
    default or an alias to take off built first), and a default is checked against the `Field`s
    with those taken off by copying them (`parameters._plain`), not by reading around them, its
    constraints read again (not handed over by `fast_schema.parts_schema`)."""
    from toolkit.tools import parameters

    monkeypatch.setattr(fast_schema, "type_schema", json_schema.pydantic_schema)
    monkeypatch.setattr(fast_schema, "parts_schema", lambda annotation, metadata, written: (None, fast_schema.UNREAD))
    original = fast_schema.obviously_within

    def copied_first(annotation, metadata, default, nullable, taken_off=False, found=fast_schema.UNREAD):
        assert found is fast_schema.UNREAD  # the constraints are read here, from the copies
        if taken_off:
            metadata = tuple(parameters._plain(m) for m in metadata)
        return original(annotation, metadata, default, nullable)

    monkeypatch.setattr(fast_schema, "obviously_within", copied_first)


def test_generated_signatures_fast_equals_pydantic(generated, monkeypatch):
    specs = [_spec(fn) for gen in generated for fn in gen.functions]
    _pydantic_only(monkeypatch)
    assert specs == [_spec(fn) for gen in generated for fn in gen.functions]


def _strangers():
    """The "stranger" signatures of benchmarks/reflection_speed.py (kinds anyone writes: 40
    parameters, deep nesting, enums, paths, `collections.abc`, recursive TypedDicts, reST and NumPy
    docstrings, `annotated_types` and `Decimal` constraints...), each as written (string
    annotations) and with its annotations evaluated."""
    path = pathlib.Path(__file__).parent.parent / "benchmarks" / "reflection_speed.py"
    spec = importlib.util.spec_from_file_location("reflection_speed_strangers", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and TypedDicts look their module up
    spec.loader.exec_module(module)
    functions = []
    for fn in module.STRANGERS:
        evaluated = module.copy_function(fn)
        evaluated.__annotations__ = typing.get_type_hints(fn, include_extras=True)
        functions += [fn, evaluated]
    return module, functions


def test_stranger_signatures_fast_equals_pydantic(monkeypatch):
    module, functions = _strangers()
    specs = [_spec(fn) for fn in functions]
    assert not [s for s in specs if s.startswith("raised")]
    for text in specs:
        parameters = json.loads(text)["function"].get("parameters")
        jsonschema.Draft202012Validator.check_schema(parameters or {})
    _pydantic_only(monkeypatch)
    assert specs == [_spec(fn) for fn in functions]


def test_stranger_signatures_that_took_pydantic_take_the_fast_path(monkeypatch):
    """Paths, `collections.abc` types, int-keyed dicts, `Len`/`Interval`, `Decimal` digits, a
    recursive TypedDict: written out, never sent to pydantic's generator (`dict[str, Any]`'s
    values: `true`, as pydantic writes them)."""
    module, _ = _strangers()
    calls: list = []
    monkeypatch.setattr(fast_schema, "pydantic_schema", lambda a: calls.append(a) or pydantic_schema(a))
    for fn in module.STRANGERS:
        reflect_module.clear_cache()
        reflect_module.reflect(fn)
    assert calls == []
    reflect_module.clear_cache()
    spec = reflect_module.reflect(module.any_params).spec
    assert spec.parameters["properties"]["meta"] == {"additionalProperties": True, "type": "object"}


# --- the pieces, against their references ----------------------------------------------------

BODY_LINES = [
    "x: int",
    'y: str = "a"',
    "z: str = 'it''s'",
    'w: Literal["a", "b"] = "a"  # pick "a"',
    '"""Doc."""',
    "'single'",
    '"double"',
    '""',
    "''",
    "'''it\"s'''",
    'r"raw"',
    'f"fmt"',
    'b"bytes"',
    '("paren")',
    '"a" "b"',
    '"""a""" ; v: int',
    'u: int; "semi"',
    'if True: "x"',
    "pass",
    "...",
    "q = 1",
    "def m(self):",
    "    return 'x'",
    '# comment "q"',
    "",
    'd: dict = {"k": 1}',
    "e: dict = {",
    '    "k": 1}',
    "else_: int",
    "lambda_: int",
    "match: int",
    'fwd: "Fwd"',
    "fwd2: 'Fwd' = None",
    "sp : int",
    'h:str="#"',
    "q2: str = '\"'",
    'q3: str = "a#b"  # c',
    'q4: str = """a"""',
    '"""a""" # c',
    '"""a"b"""',
    '"\\tescaped"',
    '"""open',
    'close"""',
    "n: Annotated[int, 'meta']",
    "x2: int = 1 if True else 2",
    'rx: str = r"^a"',
    'r"""raw doc"""',
    'u"u doc"',
    'B"bytes doc"',
    'bx: bytes = rb"a"',
    'fx: str = f"{1}"',
    'fy: str = f"{1}"; "after"',
    'rr: str = r"\\d"',
    "Rq: str = R'a'  # r'",
    '"""Say "hi"."""',
    '"""a"" """',
    '"""x"""""',
    "'''it''s'''",
    "'''a'' '''",
]


def _reference_docs(block: list[str]) -> dict[str, str]:
    """pydantic's reader over a class block (what `extract_docstrings_from_cls` does)."""
    with warnings.catch_warnings():  # a random block may hold "\d" outside a raw string, as the package's reader allows
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        stmt = ast.parse(_dedent_source_lines(block)).body[0]
    if isinstance(stmt, ast.FunctionDef) and stmt.name == "dedent_workaround":
        stmt = stmt.body[0]
    visitor = DocstringVisitor()
    visitor.generic_visit(stmt)
    return visitor.attrs


@pytest.mark.parametrize("seed", range(4))
def test_class_body_readers_equal_pydantic(seed):
    """Random class bodies that parse: the line reader (when it answers) and the body-only
    visit give pydantic's docstrings."""
    rng = random.Random(seed)
    compared = answered = 0
    headers = ["class K(TypedDict):\n", "class K:\n", "class K(Base, total=False):  # c\n", "    class K(A):\n"]
    while compared < 500:
        header = rng.choice(headers)
        indent = header[: len(header) - len(header.lstrip())] + rng.choice(["    ", "  ", "\t"])
        block = [header] + [indent + rng.choice(BODY_LINES) + "\n" for _ in range(rng.randint(1, 8))]
        try:
            expected = _reference_docs(block)
        except SyntaxError:
            continue
        compared += 1
        simple = json_schema._read_simple_block(block)
        answered += simple is not None
        assert simple is None or simple == expected, block
        assert json_schema._read_block(block, "K") == expected, block
    assert answered > 50


@pytest.mark.parametrize("seed", range(8))
def test_class_statement_index_equals_the_regex(seed):
    """The index of every class statement, and the search for one name (`class <name>` searched
    for directly, or the index when the spacing is odd), find the lines the regex finds."""
    rng = random.Random(seed)
    words = ["class", "class ", " ", "\n", "Foo", "Bar", "Foo2", "_x", "é", "#", "(", ":", "sub", "Foo_", "xFoo"]
    words += ["\nclass ", "\n  class "] * 3  # statements often
    words += ["class\t", "\t"] if seed % 2 else []  # odd seeds: odd spacing too
    searched = 0
    for _ in range(300):
        lines = "".join(rng.choice(words) for _ in range(rng.randint(1, 40))).split("\n")
        lines = [line + "\n" for line in lines]
        text = "".join(lines)
        index = json_schema._class_statements(f"<text {seed}>", text)
        for name in ("Foo", "Bar", "Foo2", "_x", "é"):
            expected = [m.start() for m in re.finditer(rf"^[ \t]*class[ \t]+{name}\b", text, re.M)]
            assert index.get(name, []) == expected, (name, text)
            json_schema.clear_source_cache()
            assert json_schema._class_starts(f"<text {seed}>", text, name) == expected, (name, text)
            searched += bool(expected)
        json_schema.clear_source_cache()
    assert searched > 50


def test_hints_of_names_typing_looks_up_in_odd_places(tmp_path, monkeypatch):
    """A class-body name, a shadowed builtin, a base class in another module, `None`, a string
    inside a generic (typing's to evaluate), a `ClassVar` string."""
    (tmp_path / "hints_base.py").write_text(
        "from __future__ import annotations\nimport dataclasses\n\nclass Local: ...\n\n"
        "@dataclasses.dataclass\nclass Base:\n    a: Local\n    b: int\n"
    )
    (tmp_path / "hints_child.py").write_text(
        "from __future__ import annotations\nimport dataclasses\nfrom typing import ClassVar\n"
        "from hints_base import Base\n\nclass Local: ...\nint = str\n\n"
        "@dataclasses.dataclass\nclass Child(Base):\n    Inner = bytes\n    c: Inner\n    d: Local\n    e: int\n"
        "\nclass Plain:\n    n: None\n    g: list['Local']\n\nclass WithClassVar:\n    k: ClassVar[int]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    child = importlib.import_module("hints_child")
    assert fast_schema.evaluated_hints(child.Child) == typing.get_type_hints(child.Child, include_extras=True)
    assert fast_schema.evaluated_hints(child.Child)["a"] is importlib.import_module("hints_base").Local
    assert fast_schema.evaluated_hints(child.Plain) is None  # list['Local']: typing evaluates it
    assert fast_schema.evaluated_hints(child.WithClassVar) is None
    plain = type("P", (), {"__annotations__": {"n": None, "m": list[int]}})
    assert fast_schema.evaluated_hints(plain) == typing.get_type_hints(plain, include_extras=True)


def test_a_class_seen_twice_in_a_signature_is_read_once(monkeypatch):
    from typing_extensions import TypedDict

    class Once(TypedDict):
        a: int

    calls = []
    original = fast_schema._docstrings
    monkeypatch.setattr(fast_schema, "_docstrings", lambda cls: calls.append(cls) or original(cls))
    fast_schema.clear_cache()
    fast_schema.type_schema(Once)
    fast_schema.type_schema(list[Once] | None)
    assert calls == [Once]
    fast_schema.clear_cache()
    fast_schema.type_schema(Once)
    assert calls == [Once, Once]  # clear_cache forgets it


def _random_field(rng: random.Random, **extra: typing.Any) -> typing.Any:
    from pydantic import Field

    return Field(**_random_field_arguments(rng), **extra)


def _random_field_arguments(rng: random.Random) -> dict[str, typing.Any]:
    options = {
        "ge": [0, 1, 2.5, True, decimal.Decimal("1")],
        "gt": [0, -1.5],
        "le": [9, 10.0],
        "lt": [100],
        "multiple_of": [2, 0.5],
        "min_length": [0, 1, True],
        "max_length": [3, 8],
        "pattern": ["^a", r"^\d+$", "(?=a)a", r"\p{L}"],
        "description": ["", "A description"],
        "title": ["T"],
        "examples": [[1, "a"], [], [[1]], {"a": 1}],
        "strict": [True],
        "json_schema_extra": [{"x": 1}],
    }
    chosen = rng.sample(sorted(options), rng.randint(0, 3))
    return {key: rng.choice(options[key]) for key in chosen}


@pytest.mark.parametrize("seed", range(3))
def test_random_field_constraints_fast_equals_pydantic(seed):
    """`Annotated[T, Field(...)]` with random constraints on random bases: the same schema, key
    order included, or the same refusal."""
    import datetime

    from test_type_schema import Colour

    bases = [int, float, str, bytes, list[int], set[str], dict[str, int], tuple[int, ...], tuple[int, str]]
    bases += [typing.Literal["a", "b"], datetime.date, Colour, typing.Optional[int], bool, typing.Any]
    rng = random.Random(seed)
    for _ in range(300):
        metadata = tuple(_random_field(rng) for _ in range(rng.choice([1, 1, 2])))
        annotation = typing.Annotated[(rng.choice(bases), *metadata)]
        fast_schema.clear_cache()
        fast = _outcome(lambda a=annotation: fast_schema.type_schema(a))
        assert fast == _outcome(lambda a=annotation: pydantic_schema(a)), annotation


def _tool(annotation: typing.Any, default: typing.Any = inspect_empty) -> typing.Any:
    if default is inspect_empty:

        def tool(x):
            """A tool."""
            return repr(x)
    else:

        def tool(x=default):
            """A tool."""
            return repr(x)

    tool.__annotations__ = {"x": annotation, "return": str}
    return tool


def _random_field_signatures(seed: int) -> list[typing.Any]:
    """Tools whose `Field` has a default or an alias to take off: `x: T = Field(d, ...)`,
    `x: Annotated[T, Field(default=d, ...)]`, `x: Annotated[T, Field(...)] = Field(d, alias=...)`."""
    import datetime

    from pydantic import Field

    fitting = {  # each base with defaults of its type, most of the time
        int: [0, 1, 5],
        float: [2.5, 1],
        str: ["a", "abc"],
        bytes: [b"ab"],
        list[int]: [[1], []],
        set[str]: [{"a"}],
        dict[str, int]: [{"a": 1}],
        tuple[int, ...]: [(1, 2), ()],
        typing.Optional[int]: [None, 3],
        typing.Literal["a", "b"]: ["a"],
        datetime.date: [datetime.date(2026, 10, 20)],
        bool: [True],
        typing.Any: [None, "x"],
        decimal.Decimal: [decimal.Decimal("1.5")],
    }
    anything = [0, 5, 2.5, "abc", None, [1], True]
    rng = random.Random(seed)
    tools = []
    for _ in range(200):
        base = rng.choice(list(fitting))
        default = rng.choice(fitting[base] if rng.random() < 0.75 else anything)
        alias = {"alias": "n"} if rng.random() < 0.2 else {}
        form = rng.randrange(3)
        if form == 0:
            arguments = _random_field_arguments(rng)
            tools.append(_tool(base, Field(default, **arguments, **alias)))
            if not alias:  # the same parameter as `x: Annotated[T, Field(...)] = default`
                tools[-1].twin = _tool(typing.Annotated[base, Field(**arguments)], default)
        elif form == 1:
            tools.append(_tool(typing.Annotated[base, _random_field(rng, default=default, **alias)]))
        else:
            tools.append(_tool(typing.Annotated[base, _random_field(rng)], Field(default, **alias)))
    return tools


@pytest.mark.parametrize("seed", range(3))
def test_random_field_defaults_fast_equals_pydantic(seed, monkeypatch):
    """A `Field` with a default or an alias: its type is read from its parts (not built), and
    gives the same spec, default check and error text as the built type gives pydantic."""
    tools = _random_field_signatures(seed)
    answered = []
    original = fast_schema.parts_schema

    def counted(annotation, metadata, written):
        found = original(annotation, metadata, written)
        answered.append(found[0] if written is None else None)
        return found

    monkeypatch.setattr(fast_schema, "parts_schema", counted)
    specs = [_spec(fn) for fn in tools]
    assert sum(found is not None for found in answered) > 40  # most are read from their parts
    assert 60 < sum(not s.startswith("raised") for s in specs) < len(specs)  # both outcomes are tried
    _pydantic_only(monkeypatch)
    assert specs == [_spec(fn) for fn in tools]


@pytest.mark.parametrize("seed", range(2))
def test_a_field_default_validates_as_its_annotated_form(seed):
    """`x: T = Field(d, ...)` is `x: Annotated[T, Field(...)] = d`: the same spec, and its type
    (built at the first call) gives the same outcome for every value sent."""
    from toolkit.chat.messages import ToolCall
    from toolkit.tools.execute import function_tool

    rng = random.Random(seed)
    sent = [0, 3, -1, 2.5, "a", "abcdefghij", None, [1], [], True, "2026-10-20", {"k": 1}]
    compared = 0
    for fn in _random_field_signatures(seed):
        twin = getattr(fn, "twin", None)
        if twin is None:
            continue
        spec = _spec(fn)
        assert spec == _spec(twin)
        if spec.startswith("raised"):
            continue
        compared += 1
        reflected = reflect_module.reflect(fn)
        assert "annotation" not in vars(reflected.params[0])  # not built by reflection
        for value in rng.sample(sent, 4):
            call = ToolCall(id="1", name="tool", arguments=json.dumps({"x": value}))
            got, want = (_outcome(lambda t=t, c=call: function_tool(t).execute(c)) for t in (fn, twin))
            assert got == want, (fn.__annotations__, value)
        assert "annotation" in vars(reflected.params[0])
    assert compared > 12


def test_constraints_of_a_field_read_as_its_metadata():
    """A `Field`'s bounds and lengths are taken as they are; anything else among its metadata is
    read as `constraints` reads it (a pattern kept, a `Strict` refused); a `Field` with an alias
    or a default counts as plain only when those are taken off."""
    from pydantic import Field

    for field in (
        Field(ge=1, le=5),
        Field(min_length=1, max_length=3),
        Field(ge=0, pattern="^a"),
        Field(pattern="^a", min_length=2),
        Field(gt=0, strict=True),
        Field(max_digits=4, decimal_places=2),
        Field(description="d"),
    ):
        assert fast_schema.constraints([field]) == fast_schema.constraints(field.metadata), field
    assert fast_schema.constraints([Field(gt=0, strict=True)]) is None
    for field in (Field(3, ge=1), Field(alias="n", ge=1), Field(default_factory=list, min_length=0)):
        assert fast_schema.constraints([field]) is None
        assert fast_schema.constraints([field], taken_off=True) == fast_schema.constraints(field.metadata)


def test_annotated_parameters_fast_equals_pydantic_cold_and_warm(monkeypatch):
    """An `Annotated` parameter's schema read from its parts (`parts_schema`, which also hands its
    constraints to the default check) is pydantic's, reflected cold and again warm (cached):
    an enum written in place, `$defs` kept, defaults inside and outside the bounds."""
    import enum

    from pydantic import Field
    from typing_extensions import TypedDict

    class Color(enum.Enum):
        RED = "red"

    class Point(TypedDict):
        x: int

    cases = [
        (typing.Annotated[Color, Field()], inspect_empty),
        (typing.Annotated[Color, Field(alias="k")], inspect_empty),
        (typing.Annotated[Color, Field(description="c")], inspect_empty),
        (typing.Annotated[Color, Field(description="c", alias="k")], inspect_empty),
        (Color, Field(Color.RED, description="c")),
        (typing.Annotated[list[Point], Field(min_length=1)], inspect_empty),
        (typing.Annotated[list[Point], Field(min_length=1, alias="p")], inspect_empty),
        (typing.Annotated[int, Field(ge=1, le=5)], 3),
        (typing.Annotated[int, Field(ge=1, le=5)], 9),
        (typing.Annotated[str, Field(max_length=2, pattern="^a")], "abc"),
        (typing.Annotated[str, Field(pattern="^a")], "ab"),
        (typing.Annotated[str, Field(pattern="^a")], "b"),
        (int, Field(4, ge=1, le=5)),
        (int, Field(7, ge=1, le=5)),
        (typing.Annotated[int, Field(gt=0, strict=True)], 1),
    ]
    tools = [_tool(annotation, default) for annotation, default in cases]

    def warm(fn):
        first = _spec(fn)  # cold
        if first.startswith("raised"):
            return first, first
        again = _tool(fn.__annotations__["x"], fn.__defaults__[0] if fn.__defaults__ else inspect_empty)
        return first, json.dumps(reflect_module.reflect(again).spec.to_openai())  # warm: the type's schema cached

    specs = [warm(fn) for fn in tools]
    bounded = typing.Annotated[int, Field(ge=1)]
    reflect_module.clear_cache()
    reflect_module.reflect(_tool(bounded))
    assert bounded in fast_schema._CACHE  # a built type's schema is cached as `type_schema` caches it
    assert any(s[0].startswith("raised") for s in specs) and not all(s[0].startswith("raised") for s in specs)
    _pydantic_only(monkeypatch)
    assert specs == [warm(fn) for fn in tools]


def test_hints_of_collections_of_names_as_typing_evaluates_them(tmp_path, monkeypatch):
    """`list[Node]`, `dict[str, Node]` written as strings: read without compiling when each name
    is a class and the collection is the builtin one (also a `list` the class body rebinds, as
    typing looks it up); a name that is not a class, a keyword, `Generic`, `typing.List`, a
    nested or oddly spaced subscript are typing's to evaluate."""
    (tmp_path / "hints_collections.py").write_text(
        "from __future__ import annotations\nimport dataclasses\nfrom typing import Generic\n"
        "from typing_extensions import TypedDict\nimport typing\n\n"
        "class Node(TypedDict):\n    label: str\n    children: list[Node]\n    by_name: dict[str, Node]\n"
        "    pair: tuple[int, Node]\n    seen: frozenset[str]\n\n"
        "@dataclasses.dataclass\nclass Box:\n    Inner = bytes\n    items: set[Inner]\n    nodes: list[Node]\n\n"
        "class Shadow:\n    list = tuple\n    a: list[int]\n\n"
        "NotAClass = 3\n\nclass Odd:\n    a: list[NotAClass]\n\nclass Gen:\n    a: list[Generic]\n\n"
        "class Nested:\n    a: list[list[int]]\n\n"
        "class Typing:\n    a: typing.List[int]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("hints_collections")
    for cls in (mod.Node, mod.Box, mod.Shadow):
        fast = fast_schema.evaluated_hints(cls)
        assert fast is not None, cls
        assert fast == typing.get_type_hints(cls, include_extras=True), cls
        assert [type(v) for v in fast.values()] == [
            type(v) for v in typing.get_type_hints(cls, include_extras=True).values()
        ]
    assert fast_schema.evaluated_hints(mod.Shadow)["a"] == tuple[int]  # the class body's `list`
    assert fast_schema.evaluated_hints(mod.Box)["items"] == set[bytes]
    for cls in (mod.Odd, mod.Gen, mod.Nested, mod.Typing):
        assert fast_schema.evaluated_hints(cls) is None, cls
    for text in ("list[if]", "if[int]", "dict[str,int]", "list[ int]"):
        assert fast_schema.evaluated_hints(type("K", (), {"__annotations__": {"a": text}})) is None, text


def test_a_non_ascii_name_is_left_to_typing(tmp_path, monkeypatch):
    """`eval` reads `ℌ` as `H` (NFKC), so a namespace key spelled `ℌ` is not what it finds."""
    (tmp_path / "hints_nfkc.py").write_text(
        "H = int\nglobals()['\\u210c'] = str\n\nclass C:\n    a: '\\u210c'\n    b: 'list[\\u210c]'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("hints_nfkc")
    assert typing.get_type_hints(mod.C) == {"a": int, "b": list[int]}
    assert fast_schema.evaluated_hints(mod.C) is None
    assert fast_schema.plain_name("\u210c", vars(mod)) is fast_schema.NOT_PLAIN
    assert eval(fast_schema.compiled("\u210c"), vars(mod)) is int


def test_the_reference_reader_keeps_docstrings_when_the_source_has_an_invalid_escape(tmp_path, monkeypatch):
    """Before: pydantic's reader parsed the class's source again, and Python warned of its `"\\d"`
    once more (a DeprecationWarning in the test run); under `-W error` the warning was an error and
    the docstrings came back empty."""
    (tmp_path / "escaped_shop.py").write_text(
        'class Shop:\n    pattern: str = "a"\n    """An id like "\\d+" written in prose."""\n', encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = importlib.import_module("escaped_shop")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert reference_docstrings(module.Shop) == {"pattern": 'An id like "\\d+" written in prose.'}
