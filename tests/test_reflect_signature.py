"""`reflect.declared_parameters` reads a plain function's parameters from its code, as
`inspect.signature` does: the same names, kinds, defaults and annotations for every shape of
signature, and `inspect.signature` itself for anything that is not a plain function."""

from __future__ import annotations

import functools
import inspect
from typing import Annotated, Any

import pytest
from pydantic import Field

from toolkit.tools.decorator import tool
from toolkit.tools.parameters import Declared
from toolkit.tools.reflect import declared_parameters, plainly_synchronous


def plain(a: int, b: str = "x") -> str:
    return ""


def no_annotations(a, b=1, *, c, d=2):  # noqa: ANN001, ANN202
    return None


def every_kind(p: int, /, q: str, r: float = 1.5, *args: int, k: bool, m: list[int] | None = None, **kw: str) -> None:
    return None


def positional_only_defaults(a: int, b: int = 1, /, c: int = 2) -> None:
    return None


def only_star(*args: Any, **kwargs: Any) -> None:
    return None


def keyword_only_no_defaults(*, a: int, b: str) -> None:
    return None


def field_default(limit: Annotated[int, "n"] = Field(10, ge=1)) -> None:  # noqa: B008
    return None


def with_locals(a: int) -> None:
    x = 1
    y = [x]
    del y


def nothing() -> None:
    return None


def _wrapped(fn: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper


def _with_signature() -> Any:
    def f(*args: Any) -> None:
        return None

    f.__signature__ = inspect.Signature([inspect.Parameter("z", inspect.Parameter.KEYWORD_ONLY, annotation=int)])
    return f


def _annotations_replaced() -> Any:
    def f(a, b=2):  # noqa: ANN001, ANN202
        return None

    f.__annotations__ = {"a": int, "b": "str", "return": None}
    return f


class Callable_:
    def __call__(self, a: int, b: str = "y") -> None:
        return None

    def method(self, a: int) -> None:
        return None


@tool
def decorated(a: int) -> None:
    return None


FUNCTIONS = [
    plain,
    no_annotations,
    every_kind,
    positional_only_defaults,
    only_star,
    keyword_only_no_defaults,
    field_default,
    with_locals,
    nothing,
    lambda a, b=3: a,
    _wrapped(plain),
    _with_signature(),
    _annotations_replaced(),
    Callable_(),
    Callable_.method,
    Callable_().method,
    functools.partial(plain, 1),
    decorated,
    len,
    dict.get,
]


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: getattr(fn, "__name__", type(fn).__name__))
def test_declared_parameters_are_inspects(fn):
    expected = [Declared(p.name, p.kind, p.default, p.annotation) for p in inspect.signature(fn).parameters.values()]
    assert declared_parameters(fn) == expected
    for got, want in zip(declared_parameters(fn), expected):
        assert got.kind is want.kind
        assert got.default is want.default
        assert got.annotation is want.annotation


def test_a_function_without_kwdefaults_or_defaults():
    def f(a: int, *, b: int) -> None:
        return None

    f.__kwdefaults__ = None
    f.__defaults__ = None
    expected = [Declared(p.name, p.kind, p.default, p.annotation) for p in inspect.signature(f).parameters.values()]
    assert (
        declared_parameters(f)
        == expected
        == [
            Declared(
                "a", inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.empty, "int"
            ),  # this module's are strings
            Declared("b", inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.empty, "int"),
        ]
    )


async def coroutine_function(a: int) -> None:
    return None


def generator_function(a: int) -> Any:
    yield a


async def async_generator_function(a: int) -> Any:
    yield a


def _marked() -> Any:
    def f(a: int) -> None:
        return None

    mark = getattr(inspect, "markcoroutinefunction", None)  # Python 3.12+
    if mark is not None:
        return mark(f)
    f._is_coroutine_marker = object()  # what a mark sets, as far as the shortcut can tell
    return f


SYNC_OR_NOT = [
    *FUNCTIONS,
    coroutine_function,
    generator_function,
    async_generator_function,
    _wrapped(coroutine_function),
    _wrapped(generator_function),
    functools.partial(coroutine_function, 1),
    _marked(),
]


def _inspect_says_synchronous(fn: Any) -> bool:
    wrapped_async = hasattr(fn, "__wrapped__") and inspect.iscoroutinefunction(inspect.unwrap(fn))
    return not (
        inspect.iscoroutinefunction(fn)
        or wrapped_async
        or inspect.isgeneratorfunction(fn)
        or inspect.isasyncgenfunction(fn)
    )


@pytest.mark.parametrize("fn", SYNC_OR_NOT, ids=lambda fn: getattr(fn, "__name__", type(fn).__name__))
def test_plainly_synchronous_only_when_inspect_finds_nothing(fn):
    """The shortcut skips `inspect`'s async and generator checks only for functions they pass."""
    if plainly_synchronous(fn):
        assert _inspect_says_synchronous(fn)


def test_plainly_synchronous_takes_the_plain_functions():
    assert all(plainly_synchronous(fn) for fn in (plain, every_kind, nothing, decorated, with_locals))
    assert not any(plainly_synchronous(fn) for fn in SYNC_OR_NOT[len(FUNCTIONS) :])


def test_a_type_nested_past_the_recursion_limit_is_a_tool_definition_error():
    """Before: a RecursionError out of `tools_from` for `list[list[...int...]]` 1,200 deep."""
    from toolkit.errors import ToolDefinitionError
    from toolkit.tools.execute import tools_from

    deep: Any = int
    for _ in range(1200):
        deep = list[deep]

    def nested(x: int) -> str:
        return "ok"

    nested.__annotations__ = {"x": deep, "return": str}
    with pytest.raises(ToolDefinitionError) as raised:
        tools_from(tool("a tool")(nested))
    assert str(raised.value) == (
        f"@tool {__name__}.test_a_type_nested_past_the_recursion_limit_is_a_tool_definition_error.<locals>.nested, "
        "parameter 'x': its type nests deeper than Python's recursion limit lets it be read. Fix: give it a flatter "
        "type (a model's arguments are never that deep), e.g. `list[Any]`, and check the nesting in the tool"
    )
