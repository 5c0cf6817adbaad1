"""Reflection: a Python function → `ToolSpec` (name, description, JSON Schema of its parameters).

`reflect(fn)` reads the signature once (cached per function) in five steps; 2–4 happen per
parameter, in `toolkit.tools.parameters`:

1. the parameters, refusing the ones a JSON object cannot fill (`*args`, `**kwargs`)
   (`declared_parameters`: a plain function's are read from its code, as `inspect.signature`
   reads them, without building a `Signature`). A positional-only parameter (before `/`) is
   described by its name as any other, and the executor passes the model's value by position, as
   both peers do (pydantic-ai: `pydantic_ai/_function_schema.py`, `positional_fields` and
   `FunctionSchema._call_args`; the OpenAI Agents SDK: `agents/function_schema.py`,
   `FuncSchema.to_call_args`). `*args` and `**kwargs` both peers take, on purpose not here:
   pydantic-ai makes `*args` an array property and `**kwargs` the object's `additionalProperties`;
   the Agents SDK does the first and refuses `**kwargs` in its default strict mode. Here a tool's arguments are one
   named property each (SPEC section 3), every one in the schema the model reads and in the
   required table below: an array named after `*args`, or keys nobody listed, are arguments the
   model must guess, and a `*args, **kwargs` signature is most often a decorator that forgot
   `functools.wraps`. Each is a `ToolDefinitionError` saying so, with the fix;
2. each parameter's type, its `Param` / `Field` / bare-string metadata and docstring description
   (Google, NumPy or Sphinx style, read as `griffe` reads them: see `parse_docstring`);
3. the required rules (LangChain4j's, as a table, in Python):

       declaration                                      required?  model omits it → function gets
       x: int                                           yes        an argument error
       x: int | None                                    yes        an argument error (null is fine)
       x: int = 5                                       no         5 (the default, also in the schema)
       x: Annotated[int | None, Param(required=False)]  no         None

   One row differs from LangChain4j on purpose (SPEC: no default → required): an `Optional<T>`
   parameter is left out of `required` there and gets `Optional.empty()` (`ToolSpecifications.java`,
   `parametersFrom`: `isOptional`; `DefaultToolExecutor.java`, `createOptional`), while `int | None`
   here says what the value may be, not that it may be left out. pydantic-ai
   (`pydantic_ai/_function_schema.py`) and the OpenAI Agents SDK (`agents/function_schema.py`) read
   it so too: both list such a parameter in `required`. A parameter the model may leave out has
   `= None` or `Param(required=False)`;
4. the injected parameters (`MemoryId`, `InvocationContext`) left out of the schema;
5. the parameters object: `None` when nothing is left for the model — never `{}`.

Every mistake found on the way is a `ToolDefinitionError` naming the function, the rule and
the fix (e.g. an `async def`, also behind a `functools.wraps` wrapper; a `functools.singledispatch`
function, which the executor's keyword call could never dispatch; a tool name outside
OpenAI's rule, decorated or not). Type → JSON Schema is `toolkit.tools.json_schema`
(pydantic's; `toolkit.tools.fast_schema` gives the same result sooner); strict mode is
`toolkit.tools.strict`.

Leaves out: executing calls (`toolkit.tools.execute`), collecting tools (`toolkit.tools.execute.tools_from`).
"""

from __future__ import annotations

import inspect
import re
import types
import typing
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import typing_extensions
from griffe import Docstring, DocstringSectionKind, Parser, infer_docstring_style

from toolkit.errors import ToolDefinitionError, a_kind_of
from toolkit.tools import coercion, docstring_style, fast_schema, numpy_docstring, strict
from toolkit.tools.decorator import (
    ReturnBehavior,
    ToolOptions,
    check_name,
    dispatch_error,
    function_label,
    is_single_dispatch,
    not_synchronous,
    tool_options,
)
from toolkit.tools.parameters import EMPTY, Declared, ParamInfo, class_names, parameter, without_secret_defaults


@dataclass(frozen=True)
class ToolSpec:
    """What the model is told about one tool."""

    name: str
    """The tool name the model calls (`^[A-Za-z0-9_-]{1,64}$`)."""
    description: str = ""
    """When and why to use the tool; "" sends no description."""
    parameters: dict[str, Any] | None = None
    """JSON Schema of the arguments object; `None` when the tool takes no arguments."""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    """Facts for the application (never sent to the model), e.g. MCP annotations."""
    return_behavior: ReturnBehavior = ReturnBehavior.TO_LLM
    """What the loop does with the result (see `ReturnBehavior`)."""

    @classmethod
    def _of(
        cls,
        name: str,
        description: str,
        parameters: dict[str, Any] | None,
        metadata: Mapping[str, Any],
        return_behavior: ReturnBehavior,
    ) -> ToolSpec:
        """`ToolSpec(...)` with every field given, written to the instance's `__dict__` at once:
        the generated `__init__` of a frozen dataclass sets each field through `object.__setattr__`
        (some 1.5k instructions a field), and reflection makes one per function."""
        spec = object.__new__(cls)
        fields = spec.__dict__
        fields["name"], fields["description"], fields["parameters"] = name, description, parameters
        fields["metadata"], fields["return_behavior"] = metadata, return_behavior
        return spec

    def to_openai(self, strict: bool = False) -> dict[str, Any]:
        """`{"type": "function", "function": {...}}` as chat-completions `tools` expects."""
        fn: dict[str, Any] = {"name": self.name}
        if self.description:
            fn["description"] = self.description
        parameters = self.strict_parameters if strict else self.parameters
        if parameters is not None:
            fn["parameters"] = parameters
        if strict:
            fn["strict"] = True
        return {"type": "function", "function": fn}

    @cached_property
    def strict_parameters(self) -> dict[str, Any]:
        """The OpenAI strict-mode form of `parameters` (see `toolkit.tools.strict`). A tool with no
        parameters gets an empty object's schema: OpenAI refuses `"strict": true` without one (`In
        context=(), 'additionalProperties' is required to be supplied and to be false.`), and the
        OpenAI Agents SDK sends the same empty object for a function without arguments."""
        if self.parameters is None:
            return {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
        return strict.strict_schema(self.parameters, f"tool {self.name!r}")

    @classmethod
    def from_openai(cls, data: Mapping[str, Any], **kwargs: Any) -> ToolSpec:
        """A hand-written spec from its OpenAI form (either the outer or the `function` dict).
        One without a name (or not a mapping) is a `ToolDefinitionError` saying the form."""
        fn = data.get("function", data) if isinstance(data, Mapping) else None
        if not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str):
            raise ToolDefinitionError(
                "ToolSpec.from_openai",
                f"{_shown_spec(data)} is not a tool in its OpenAI form (it has no function name)",
                'write it as {"type": "function", "function": {"name": "...", "description": "...", '
                '"parameters": {...}}}',
            )
        return cls(fn["name"], fn.get("description", ""), fn.get("parameters"), **kwargs)


def _shown_spec(data: Any) -> str:
    """A short view of what `from_openai` was given: its keys, or its type."""
    if isinstance(data, Mapping):
        keys = ", ".join(repr(k) for k in list(data)[:6])
        return f"a mapping with the keys {keys}" if keys else "an empty mapping"
    return a_kind_of(data)


@dataclass(frozen=True)
class Reflection:
    """A reflected function: its spec and how to call it."""

    function: Callable[..., Any]
    """The function (unbound for methods)."""
    spec: ToolSpec
    """What the model sees."""
    params: tuple[ParamInfo, ...]
    """Every parameter after `self`, injected ones included, in order."""
    positional_only: tuple[str, ...] = ()
    """The Python names of the parameters before `/` (after `self`), in order: passed by position."""

    def __init__(
        self,
        function: Callable[..., Any],
        spec: ToolSpec,
        params: tuple[ParamInfo, ...],
        positional_only: tuple[str, ...] = (),
    ) -> None:
        """The dataclass's own `__init__`, each field written to `__dict__` (see `ToolSpec._of`)."""
        fields = self.__dict__
        fields["function"], fields["spec"], fields["params"] = function, spec, params
        fields["positional_only"] = positional_only


_CACHE: weakref.WeakKeyDictionary[Any, dict[tuple[bool, str | None, str | None], Reflection]] = (
    weakref.WeakKeyDictionary()
)


def reflect(
    fn: Callable[..., Any], *, skip_first: bool = False, name: str | None = None, doc: str | None = None
) -> Reflection:
    """Reflect `fn` once; `skip_first` drops `self`/`cls` of a method; `name` (a valid tool name)
    stands for the function's own, for a function no model sees by its name (a compensation,
    reflected to read its parameters as its tool's); `doc` stands for its docstring (a callable
    object's class docstring, for a `__call__` without one). Raises `ToolDefinitionError`."""
    try:
        per_fn = _CACHE.setdefault(fn, {})
    except TypeError:  # not weakly referable (a callable written in C): nothing to cache it by
        return _reflect(fn, skip_first, name, doc)
    key = (skip_first, name, doc)
    if key not in per_fn:
        per_fn[key] = _reflect(fn, skip_first, name, doc)
    return per_fn[key]


_generation = 0


def clear_cache() -> None:
    """Forget every reflection and type schema (benchmarks measure first-time reflection); what a
    module's file says of its class statements is kept as `linecache` keeps its lines."""
    global _generation
    _CACHE.clear()
    fast_schema.clear_cache()
    coercion.clear_cache()
    _generation += 1


def cache_generation() -> int:
    """How many times `clear_cache()` ran: anything built from an earlier generation's
    reflections is stale."""
    return _generation


_NO_OPTIONS = ToolOptions()
"""An undecorated function's options (read, never changed: one made per function cost some 6k instructions)."""


def _reflect(fn: Callable[..., Any], skip_first: bool, name: str | None = None, doc: str | None = None) -> Reflection:
    options = tool_options(fn) or _NO_OPTIONS
    label = f"@tool {function_label(fn)}"
    if not plainly_synchronous(fn):  # a wrapper, among others
        _check_synchronous(fn, label)
        if is_single_dispatch(fn):  # `@singledispatch` over `@tool`, or no `@tool` at all
            raise dispatch_error(fn)
    summary, arg_docs = parse_docstring(_docstring(fn) if doc is None else doc)
    params: list[ParamInfo] = []
    properties: dict[str, Any] = {}
    required: list[str] = []
    defs: dict[str, Any] = {}
    positional_only: list[str] = []  # before `/`: passed by position
    for p in _parameters(fn, label, skip_first):  # step 1
        if p.kind is _KIND.POSITIONAL_ONLY:
            positional_only.append(p.name)
        try:
            info, prop, prop_defs = parameter(fn, label, p, arg_docs.get(p.name))  # steps 2-4
        except RecursionError:  # `list[list[...]]` past the limit: no model sends that, and no reader reads it
            raise ToolDefinitionError(
                f"{label}, parameter {p.name!r}",
                "its type nests deeper than Python's recursion limit lets it be read",
                "give it a flatter type (a model's arguments are never that deep), e.g. `list[Any]`, and check the "
                "nesting in the tool",
            ) from None
        params.append(info)
        if info.inject is None:
            _check_unique(label, info.wire_name, properties)
            properties[info.wire_name] = prop
            if info.required:
                required.append(info.wire_name)
            if prop_defs:  # most parameters have none
                _merge_defs(label, defs, prop_defs)
    name = name or options.name or fn.__name__
    check_name(label, name)
    spec = ToolSpec._of(
        name=name,
        description=described if (described := options.description) and not described.isspace() else summary,
        parameters=_object(properties, required, defs),  # step 5
        metadata=dict(options.metadata),
        return_behavior=options.return_behavior,
    )
    return Reflection(fn, spec, tuple(params), tuple(positional_only))


def _docstring(fn: Callable[..., Any]) -> str | None:
    """fn's docstring; for a method without one, the docstring of the method it overrides, as
    `inspect.getdoc` finds it (the OpenAI Agents SDK and LangChain read it so). An empty docstring
    of its own is kept."""
    doc = fn.__doc__
    return inspect.getdoc(fn) if doc is None and "." in getattr(fn, "__qualname__", "") else doc


_NOT_PLAIN_CALL = inspect.CO_COROUTINE | inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR


def plainly_synchronous(fn: Callable[..., Any]) -> bool:
    """True for a plain function whose code is neither async nor a generator and that wraps
    nothing (no `__wrapped__`) and carries no coroutine mark (`inspect.markcoroutinefunction`):
    `_check_synchronous` would find nothing, so it is not asked."""
    return (
        type(fn) is types.FunctionType
        and not fn.__code__.co_flags & _NOT_PLAIN_CALL
        and "__wrapped__" not in fn.__dict__
        and "_is_coroutine_marker" not in fn.__dict__
    )


def _check_synchronous(fn: Callable[..., Any], label: str) -> None:
    """An async function, a wrapper of one, or a generator: a `ToolDefinitionError`."""
    error = not_synchronous(fn, label)
    if error is not None:
        raise error


def _parameters(fn: Callable[..., Any], label: str, skip_first: bool) -> list[Declared]:
    try:
        params = declared_parameters(fn)[1 if skip_first else 0 :]
    except (ValueError, TypeError) as exc:  # `inspect.signature` of a builtin type, of a `__signature__` that is none
        raise ToolDefinitionError(
            label,
            f"its signature cannot be read ({exc})",
            "write a small def with typed parameters and a docstring that calls it, and use that",
        ) from None
    if params and not skip_first and _unbound_method(fn, params[0]):
        owner = fn.__qualname__.rsplit(".", 1)[0]
        raise ToolDefinitionError(
            f"{label}, parameter {params[0].name!r}",
            f"{owner}.{fn.__name__} is a method taken from its class, so nothing fills {params[0].name!r}: "
            "it must be bound to an instance, or decorated on the class",
            f"pass `{owner}().{fn.__name__}`, or decorate the method with @tool and pass an instance: "
            f"tools_from({owner}())",
        )
    for p in params:
        unpacked = _unpacked(p.annotation) if p.kind is _KIND.VAR_KEYWORD else None
        if unpacked is not None:
            raise ToolDefinitionError(
                f"{label}, parameter '**{p.name}'",
                f"**{p.name}: Unpack[{unpacked}] passes the arguments as the keys of a TypedDict, which a "
                "tool's schema cannot read",
                f"declare each key of {unpacked} as a keyword parameter (def f(..., *, key: type = default)), "
                f"or take it as one parameter: {p.name}: {unpacked}",
            )
        if p.kind is _KIND.VAR_POSITIONAL or p.kind is _KIND.VAR_KEYWORD:
            star = "*" if p.kind is _KIND.VAR_POSITIONAL else "**"
            raise ToolDefinitionError(
                f"{label}, parameter '{star}{p.name}'",
                f"{star}{p.name} cannot be filled from named JSON arguments (a decorator without "
                "functools.wraps hides the real parameters this way)",
                "declare each argument as a named parameter, and use functools.wraps in decorators",
            )
    return params


_UNPACK_TEXT = re.compile(r"\s*(?:[\w.]+\.)?Unpack\[\s*(?:[\w.]+\.)?(\w+)\s*\]\s*")
"""`**kwargs: "Unpack[Options]"` as text (`from __future__ import annotations`), the TypedDict's name read."""
_UNPACKS = tuple({getattr(typing, "Unpack", None), typing_extensions.Unpack} - {None})


def _unpacked(annotation: Any) -> str | None:
    """The name of the TypedDict a `**kwargs: Unpack[TD]` (PEP 692) annotation unpacks, else None."""
    if isinstance(annotation, str):
        found = _UNPACK_TEXT.fullmatch(annotation)
        return found.group(1) if found else None
    if typing.get_origin(annotation) in _UNPACKS:
        inner = typing.get_args(annotation)[0]
        return str(getattr(inner, "__name__", inner))
    return None


_PLAIN_FUNCTION_ATTRS = ("__wrapped__", "__signature__", "_partialmethod", "__text_signature__")
"""Attributes that make `inspect.signature` read a function otherwise than from its code."""
_KIND = inspect.Parameter


def declared_parameters(fn: Callable[..., Any]) -> list[Declared]:
    """`inspect.signature(fn)`'s parameters; a plain function (none of `_PLAIN_FUNCTION_ATTRS`
    set) is read from its code object, defaults and annotations, as `inspect` reads it, without
    building a `Signature` and its `Parameter`s."""
    if type(fn) is not types.FunctionType or not fn.__dict__.keys().isdisjoint(_PLAIN_FUNCTION_ATTRS):
        return [Declared(p.name, p.kind, p.default, p.annotation) for p in inspect.signature(fn).parameters.values()]
    code = fn.__code__
    names, positional, keyword_only = code.co_varnames, code.co_argcount, code.co_kwonlyargcount
    annotations = fn.__annotations__  # what `inspect.get_annotations(fn)` copies: a function's is always a dict
    defaults = fn.__defaults__ or ()
    first_default = positional - len(defaults)
    params = []
    for i, name in enumerate(names[:positional]):
        kind = _KIND.POSITIONAL_ONLY if i < code.co_posonlyargcount else _KIND.POSITIONAL_OR_KEYWORD
        default = defaults[i - first_default] if i >= first_default else EMPTY
        params.append(Declared(name, kind, default, annotations.get(name, EMPTY)))
    star = positional + keyword_only  # where *args, then **kwargs, are in co_varnames
    if code.co_flags & inspect.CO_VARARGS:
        params.append(Declared(names[star], _KIND.VAR_POSITIONAL, EMPTY, annotations.get(names[star], EMPTY)))
        star += 1
    kwdefaults = fn.__kwdefaults__ or {}
    for name in names[positional : positional + keyword_only]:
        params.append(Declared(name, _KIND.KEYWORD_ONLY, kwdefaults.get(name, EMPTY), annotations.get(name, EMPTY)))
    if code.co_flags & inspect.CO_VARKEYWORDS:
        params.append(Declared(names[star], _KIND.VAR_KEYWORD, EMPTY, annotations.get(names[star], EMPTY)))
    return params


def _unbound_method(fn: Callable[..., Any], first: Declared) -> bool:
    """`Dummy.method` given as a function: its first parameter unannotated, defined in a class, and
    named `self`/`cls` or held by the class as a plain function (not a `staticmethod`): `this` is
    the instance just the same."""
    qualname = getattr(fn, "__qualname__", "")
    owner = qualname.rsplit(".", 1)[0] if "." in qualname else ""
    if first.annotation is not EMPTY or not owner or owner.endswith(">"):
        return False
    if first.name in ("self", "cls"):
        return True
    names = class_names(fn)
    return names is not None and names.get(getattr(fn, "__name__", "")) is fn


def _check_unique(label: str, wire: str, properties: dict[str, Any]) -> None:
    if wire in properties:
        raise ToolDefinitionError(
            label, f"two parameters are both called {wire!r} in the schema", "give them different Param(name=...)"
        )


def _merge_defs(label: str, defs: dict[str, Any], new: dict[str, Any]) -> None:
    for name, body in new.items():
        if defs.setdefault(name, body) != body:
            raise ToolDefinitionError(
                label, f"two different types are both named {name!r} in its schema", "rename one of the classes"
            )


def _object(properties: dict[str, Any], required: list[str], defs: dict[str, Any]) -> dict[str, Any] | None:
    if not properties:
        return None
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    if defs:
        out["$defs"] = {name: without_secret_defaults(body) for name, body in defs.items()}
    return out


_PARAMETER_TITLES = (
    "Args|Arguments|Parameters|Params|Other Args|Other Arguments|Other Parameters|Other Params|"
    "Keyword Args|Keyword Arguments"
)
"""The Google section titles whose entries are parameters (griffe's `_section_kind`, in
griffe/_internal/docstrings/google.py: `parameters` and `other_parameters`)."""
_SECTION_TITLES = (
    f"{_PARAMETER_TITLES}|Type Args|Type Arguments|Type Parameters|Type Params|Returns?|Raises|Exceptions|"
    "Yields?|Receives|Examples?|Notes?|Attributes|Functions|Methods|Classes|Modules|Type Aliases|See Also|"
    "Warns|Warnings?|References"
)
"""Every section title: griffe's Google ones (`Exceptions:` is its `Raises:`), and NumPy's."""
_SECTION_START = rf"(?:(?i:{_SECTION_TITLES})[^\S\n]*+:?\s*$|-{{3,}}\s*$|:\w[^:]*+:)"
r"""A section header, a rule or a field: `(?:(?i:Args|...)\s*:?\s*$|-{3,}\s*$|:\w+[^:]*:)`, linear.
A title in any case (`args:`, `ARGS:`): griffe reads Google titles case-insensitively.
The blanks after a title stop at the line's end and are not given back (the two `\s*` around the
colon could split a long run of blanks every way); the title matches either way when the rest of
its line is blank. A field is a colon, a word character, then anything but a colon up to one."""
_SECTIONS = re.compile(r"^\s*+" + _SECTION_START, re.M)
"""A section at the text's start, after any blanks (spaces taken possessively: no alternative
starts with a space)."""
_SECTIONS_LINE = fast_schema.line_start_pattern(r"[^\S\n]*+" + _SECTION_START)
r"""`_SECTIONS` searched for (`fast_schema.at_a_line_start`) from newline to newline: a line's blanks
only (`\s` ran on over the blank lines after it, from every line start: the time squared); a
section after blank lines is found from its own line start."""
_DESCRIBED = (DocstringSectionKind.text,)
_PARAMETERS = (DocstringSectionKind.parameters, DocstringSectionKind.other_parameters)


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """(description, {parameter: description}) from a Google, NumPy or Sphinx docstring (or an
    Epytext one, read as its Sphinx twin: `_as_sphinx_field`).

    The style is detected (griffe's `infer_docstring_style`, Google when unsure) and only the
    text sections make the description: no `Parameters`/`:param:`/`Raises` block leaks into
    what the model reads, also when `Args:` starts on the docstring's first line or follows
    another section without a blank line. A docstring with nothing but a `Returns` section gives
    `Returns: <its description>`. A docstring without any section is its own description
    (the common case, answered without a parser); plain Google, Sphinx and NumPy docstrings are
    read without griffe's parsers, as they read them (`fast_schema.google_docstring`,
    `fast_schema.sphinx_docstring`, `toolkit.tools.numpy_docstring`), their style told as
    griffe tells it (`toolkit.tools.docstring_style`). Full-width colons where Google style has its
    colon (`Args：`, `城市：城市名`) are read as that colon (`_ascii_colons`); section titles are
    Google's English ones (`参数:` is text, kept in the description). CRLF line ends are read as
    newlines, and so is CR in a text without a newline (a lone CR among newlines is text, as griffe reads it).

    A parameter's description is one line, its words joined by single spaces: its line wraps follow the
    source's width. pydantic-ai and the OpenAI Agents SDK, reading through griffe, keep them as "\n"
    (`tests/test_peers_round5.py`); the summary keeps its lines and paragraphs, as theirs does."""
    if not doc:
        return "", {}
    if "\r" in doc:  # CRLF line ends, or CR alone (a text read from a file): `cleandoc` reads "\n" only (3.13 strictly)
        doc = (
            doc.replace("\r\n", "\n") if "\n" in doc else doc.replace("\r", "\n")
        )  # a lone CR among "\n"s ends no line
    text = inspect.cleandoc(doc)
    if "\uff1a" in text:
        text = _ascii_colons(text)
    if "@" in text:
        text = _EPYTEXT_FIELD.sub(_as_sphinx_field, text)
    if not fast_schema.at_a_line_start(_SECTIONS_LINE, text):
        return text.strip(), {}
    text = _sections_apart(_first_section_indented(text))
    plain = fast_schema.google_docstring(text)
    if plain is not None:
        return plain
    given = _griffe_text(text)
    value = docstring_style.griffe_value(given)  # what griffe's `Docstring(given)` holds
    style = docstring_style.docstring_style(value + "\n")  # griffe's inference, the last line ended (`_griffe_read`)
    plain = None
    if style is Parser.sphinx:
        plain = fast_schema.sphinx_text(value)
    elif style is Parser.numpy:
        plain = numpy_docstring.numpy_docstring(value.split("\n"))
    return _griffe_sections(Docstring(given), style) if plain is None else plain


_GOOGLE_HEADER = re.compile(rf"^(?i:{_SECTION_TITLES})\s*:\s*$")

_GOOGLE_HEADER_LINE = fast_schema.line_start_pattern(_GOOGLE_HEADER.pattern.removeprefix("^"))
"""`_GOOGLE_HEADER` on any line (`fast_schema.at_a_line_start`)."""
_COLON_ENDS_LINE = re.compile(r":\s*$", re.M)
"""What ends every `_GOOGLE_HEADER` match, searched from colon to colon (a literal first): a
docstring without it has no header, and the header's search, some 40 titles tried
case-insensitively at every line start (41k instructions on a reST docstring of ten lines, 61k
on a NumPy one), is not asked."""


def _has_google_header(text: str) -> bool:
    """Whether `_GOOGLE_HEADER` (re.M) finds a header on any line of `text`;
    `tests/test_docstring_line_start.py` holds it equal to the plain search."""
    return _COLON_ENDS_LINE.search(text) is not None and fast_schema.at_a_line_start(_GOOGLE_HEADER_LINE, text)


_WIDE_TITLE = re.compile(_GOOGLE_HEADER.pattern.replace(r"\s*:\s*$", r"[^\S\n]*\uff1a\s*$"))
"""A Google section title written with a full-width colon (`Args：`, as a Chinese input method types it)."""
_WIDE_ENTRY = re.compile(r"([^\S\n]+\*{0,2}\w+(?:[^\S\n]*\([^()\n]*\))?[^\S\n]*)\uff1a")
"""An indented entry `name：text` or `name (type)：text`: its name, then a full-width colon."""
_ARGS_TITLE = re.compile(rf"(?i:{_PARAMETER_TITLES})\s*:")


def _ascii_colons(text: str) -> str:
    """The full-width colons (U+FF1A) a Chinese input method types where Google style has its colon
    written as `:`: after a section title (`Args：`), and after an entry's name under a parameters
    section (`城市：城市名`). griffe reads neither, and dropped the entries with their descriptions.
    A full-width colon anywhere else (the summary, inside a description) stays as it was written."""
    lines, under = text.split("\n"), False  # under: inside a parameters section
    for i, line in enumerate(lines):
        if _WIDE_TITLE.match(line):
            lines[i] = line = line.replace("\uff1a", ":", 1)
        if _GOOGLE_HEADER.match(line):
            under = bool(_ARGS_TITLE.match(line))
        elif line[:1] not in ("", " ", "\t"):
            under = False  # text at the margin ends a section
        elif under and (entry := _WIDE_ENTRY.match(line)):
            lines[i] = entry.group(1) + ":" + line[entry.end() :]
    return "\n".join(lines)


_EPYTEXT_FIELD = re.compile(
    r"^([^\S\n]*)@(param|parameter|arg|argument|type|keyword|kwarg|kwparam|returns?|rtype|returntype|"
    r"raises?|except|exception)\b([^:\n]*):",
    re.M,
)
"""An Epytext field at a line's start (`@param order_id:`, `@return:`): Epydoc's names for Sphinx's fields."""
_SPHINX_NAMES = {"kwarg": "keyword", "kwparam": "keyword", "returntype": "rtype"}


def _as_sphinx_field(field: re.Match[str]) -> str:
    """An Epytext field written as its Sphinx twin (`@param x:` → `:param x:`): Epytext is Sphinx's
    field list with `@` for the first colon, and is read as Sphinx is (neither griffe nor the peers
    read it: its fields went into the description, and no parameter was described)."""
    indent, name, argument = field.groups()
    return f"{indent}:{_SPHINX_NAMES.get(name, name)}{argument}:"


def _first_section_indented(text: str) -> str:
    """A section header on the docstring's first line (right after the opening quotes):
    `cleandoc` puts its entries at the margin, so they are indented again, under the header."""
    lines = text.split("\n")
    if len(lines) < 2 or lines[1][:1] in ("", " ") or not _GOOGLE_HEADER.match(lines[0]):
        return text  # the header's search (some 40 titles, case-insensitively) last: the usual second line is blank
    return "\n".join([lines[0], *("    " + line if line.strip() else line for line in lines[1:])])


def _sections_apart(text: str) -> str:
    """A blank line before each Google section header that follows text directly (griffe needs it).

    Plainly: each line of the text visited, a header (`_GOOGLE_HEADER`) over an indented line and
    under a line that is not blank given a blank line above it (some 4k instructions a line, 78k
    for a Google docstring of twenty lines). Only the lines where `_COLON_ENDS_LINE` finds a colon
    are visited, a literal first: every header ends with one (what one match takes past a newline is
    blank, and no header's colon is there), and each is asked as a line.
    `tests/test_docstring_line_start.py` holds this equal to the plain loop."""
    lines: list[str] | None = None
    before: list[int] = []
    for found in _COLON_ENDS_LINE.finditer(text):
        lines = text.split("\n") if lines is None else lines
        i = text.count("\n", 0, found.start())
        if 0 < i < len(lines) - 1 and lines[i + 1].startswith(" ") and lines[i - 1].strip():
            if _GOOGLE_HEADER.match(lines[i]):
                before.append(i)
    if not before or lines is None:
        return text
    for i in reversed(before):
        lines.insert(i, "")
    return "\n".join(lines)


def griffe_docstring(text: str) -> tuple[str, dict[str, str]]:
    """`parse_docstring` by griffe alone (the reference the fast Google, Sphinx and NumPy
    paths are tested against)."""
    return _griffe_sections(*_griffe_read(text))


def _griffe_read(text: str) -> tuple[Docstring, Parser | None]:
    """The docstring as griffe holds it, and the style griffe infers for its text with the last
    line ended: griffe's Sphinx expression wants a line end after a field, and its cleaned text has
    none after its last line, so a docstring whose one field is its last line (a one-parameter
    tool's `:param order_id: ...`) was read as Google style, the field left in the description
    (pydantic-ai reads it so; the OpenAI Agents SDK reads it as Sphinx, as its writer meant)."""
    docstring = Docstring(_griffe_text(text))
    ended = Docstring("")
    ended.value = docstring.value + "\n"  # `Docstring(...)` would strip the line end again
    style, _ = infer_docstring_style(ended)
    return docstring, style


def _griffe_text(text: str) -> str:
    """The text as griffe is given it: griffe skips a section on the first line."""
    return "\n" + text if _SECTIONS.match(text) else text


def _griffe_sections(docstring: Docstring, style: Parser | None) -> tuple[str, dict[str, str]]:
    sections = docstring.parse(style or Parser.google, warnings=False)
    summary = "\n\n".join(s.value.strip() for s in sections if s.kind in _DESCRIBED and s.value.strip())
    args = {
        p.name.lstrip("*"): " ".join(p.description.split())
        for s in sections
        if s.kind in _PARAMETERS
        for p in s.value
        if p.description
    }
    if not summary:
        returns = [r.description.strip() for s in sections if s.kind is DocstringSectionKind.returns for r in s.value]
        summary = f"Returns: {' '.join(r for r in returns if r)}" if any(returns) else ""
    return summary, args
