"""Declaring an assistant: decorators and parameter markers, read once into a `MethodPlan`.

    class Assistant(Protocol):
        @system_message("你是电商客服。今天是 {{current_date}}。")
        def chat(self, user: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

        @user_message("用一句话总结订单 {{order_id}}")
        def summarize(self, user: Annotated[str, MemoryId], order_id: str) -> OrderSummary: ...

Rules, checked when the service is created (`plan_method`), never at call time (a template that
is no text, or a decorator written without its parentheses, is refused earlier, where it is written):

- exactly one user message: a parameter marked `UserText`, or an `@user_message` template, or —
  when there is neither — the method's only parameter;
- every other parameter is a template variable (its own name, or `V("name")`) and must be used
  by a template; every `{{placeholder}}` must be a parameter or a built-in (`current_date` …);
  the user text's and the memory id's parameters may be used by their own names too
  (`@system_message("Answer {{question}} briefly")`), or by the name of a `V("…")` they carry,
  a variable of the same name winning;
  `{{it}}` is the method's only parameter when it carries no marker (LangChain4j's rule:
  `@user_message("讲一个关于{{it}}的笑话") def joke(self, topic: str)`); no two parameters fill
  one placeholder (two `V("order")`: one value would never reach the model); such a name with one
  brace on a side (`{current_date}`, as an f-string writes it, `{{current_date}`) is refused, since
  it would be sent as written;
- a `MemoryId` parameter needs the service to have per-id memory, and takes no default value
  (LangChain4j refuses one too: a default id is the cross-user bug in disguise);
- with per-id memory, every method needs a `MemoryId` parameter, unless the service opts in to
  one shared conversation for the methods without one (`ai_service(..., shared_memory_id="…")`);
- a return type must be declared: `str`, `None`, `Result[T]`, `TokenStream` or any type
  pydantic can validate and write as a JSON Schema (structured output: a `socket`, a `Callable`
  cannot be); an iterator (`Iterable[T]`, a generator) or an awaitable is refused, its values
  being checked only after the call; every annotation must resolve (a name the module
  does not define is a `ConfigurationError`, not a `NameError`); `Annotated[str, ...]` (and of
  `None`, `Result[...]`, `TokenStream`) is read as the type inside, while `Annotated[int, Field(gt=0)]`
  keeps its constraints in the schema; a type pydantic refuses with a rule of its own (a
  `typing.TypedDict` on Python < 3.12) gets pydantic's sentence in the error; a return type holding a
  type variable (`-> T` in a generic `Protocol[T]`) is refused, pydantic reading it as any JSON;
- a placeholder's name is an identifier in any script (`{{订单号}}`), and so must a `V("…")` name be;
  one that reads into a parameter or a built-in (`{{customer.name}}`, `{{current_date.year}}`, a Jinja
  filter `{{ customer | upper }}`) is refused, and so is a Jinja statement naming one (`{% if vip %}`): attributes,
  filters and statements are not read, and the text would reach the model as written;
- a template, when given (inline, or `file=` a file in `data/prompts/` for either decorator), has text in it; an omitted argument of a parameter with a default value
  fills the templates with that default;
- methods are plain `def`s with named parameters: `async def`, a name declared only with
  `@overload` (one signature, one return type per method), and `*args` / `**kwargs` are refused
  (a method runs the loop synchronously; a catch-all parameter is neither one message nor one variable);
  the first parameter is the instance, whatever it is called, and a method without one
  (`def ask(question: str)`) is refused;
- `@system_message` and `@user_message` are given once each (refused where written the second time).

Only the declaration's plain functions are declared methods: nested classes (an output model
declared inside the interface), static and class methods, properties are left as they are; one
of them (or a method named `_…`) carrying `@user_message` / `@system_message` is refused by
`ai_service`, since a call would run the declaration's body (None) without asking the model, and
so is a public one whose body is a stub (`@property def name(self) -> str: ...`).
So is a method with a body of its own (`has_own_body`: more than a docstring, `...`, `pass` or
`raise NotImplementedError`): it runs as written, as LangChain4j's proxy runs an interface's
default method, and may call the declared ones (`return self.chat(q).upper()`).

Leaves out: running anything (`toolkit.services.service`), async methods.
"""

from __future__ import annotations

import collections.abc
import dis
import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from pydantic import PydanticUserError

from toolkit import data as course_data
from toolkit.errors import ConfigurationError, a_or_an
from toolkit.services import templates
from toolkit.services.results import Result, TokenStream
from toolkit.services.structured import OutputType
from toolkit.tools.decorator import MemoryId
from toolkit.tools.parameters import type_name

Method = TypeVar("Method", bound=Callable[..., Any])
"""What `@system_message` / `@user_message` decorate, kept as it is for the type checker."""


class UserText:
    """Marker: `Annotated[str, UserText]` is the user's message."""


@dataclass(frozen=True)
class V:
    """Marker: `Annotated[T, V("name")]` fills `{{name}}` in the templates."""

    name: str


IN_THREAD = "(from toolkit.loop.cancel: asyncio.to_thread that also stops the turn when the task is cancelled)"
"""What the fix for an async method says of `in_thread`, the way to call a service from async code."""


def system_message(text: str | None = None, *, file: str | None = None) -> Callable[[Method], Method]:
    """The system message of a method: inline template text, or a file in `data/prompts/`. What
    can be no system message (no text, both, a number, a bare `@system_message`) is refused where
    it is written; the file itself is looked for when the service is created."""
    if inspect.isfunction(text) and file is None:  # a bare @system_message: the method would become `mark`
        raise ConfigurationError(
            f'{_method_name(text)}: @system_message needs its text; write @system_message("…") or '
            '@system_message(file="name.txt") (a file in data/prompts/)'
        )

    def mark(fn: Method) -> Method:
        check_system(_once(fn, "system_message", "__toolkit_system__"), text, file)
        marked: Any = fn  # a function takes the attribute; the type checker keeps seeing the method
        marked.__toolkit_system__ = (text, file)
        return fn

    return mark


@dataclass(frozen=True)
class PromptFile:
    """`@user_message(file=...)`: the template is a file in `data/prompts/`, read when the service is created."""

    name: str


def user_message(template: str | None = None, *, file: str | None = None) -> Callable[[Method], Method]:
    """The user message as a template filled from the method's parameters: inline text, or a file in
    `data/prompts/` (LangChain4j's `@UserMessage(fromResource=...)`). A template that is no text (None, a
    number, a blank, a bare `@user_message`), or both a text and a file, is refused where it is written."""
    if inspect.isfunction(template) and file is None:  # a bare @user_message: the method would become `mark`
        raise ConfigurationError(
            f"{_method_name(template)}: @user_message needs the template text; write "
            '@user_message("… {{question}} …"), or remove it and mark a parameter Annotated[str, UserText]'
        )

    def mark(fn: Method) -> Method:
        where = _once(fn, "user_message", "__toolkit_user__")
        if file is None:
            check_user(where, template)
        else:
            _check_user_file(where, template, file)
        marked: Any = fn
        marked.__toolkit_user__ = template if file is None else PromptFile(file)
        return fn

    return mark


def _check_user_file(where: str, template: Any, file: Any) -> None:
    """`@user_message(file=...)` as given: no text beside it, and the file's name a str."""
    if template is not None:
        raise ConfigurationError(
            f'{where}: @user_message takes the template text or file=..., not both; write @user_message("…") or '
            '@user_message(file="name.txt") (a file in data/prompts/)'
        )
    if not isinstance(file, str):
        raise ConfigurationError(
            f"{where}: @user_message(file=...) takes the name of a file in data/prompts/ (a str), and got "
            f'{type(file).__name__}; e.g. @user_message(file="summary.txt")'
        )


def _method_name(fn: Any) -> str:
    """`A.ask` for a method, as `plan_method` names it (the function it is declared in left out)."""
    return str(getattr(fn, "__qualname__", None) or type(fn).__name__).rsplit(".<locals>.", 1)[-1]


def _decorated(fn: Any, decorator: str) -> str:
    """How errors name the method a decorator is put on; what is no function is refused."""
    if not callable(fn) or isinstance(fn, type):
        kind = f"the class {fn.__name__}" if isinstance(fn, type) else type(fn).__name__
        raise ConfigurationError(
            f"@{decorator}(...) decorates a method, and got {kind}; write it on the line above the method's def"
        )
    return _method_name(fn)


def _once(fn: Any, decorator: str, attribute: str) -> str:
    """`_decorated`, and a `ConfigurationError` when the method has that decorator already (the outer
    one would replace the inner one's text without a word)."""
    where = _decorated(fn, decorator)
    if hasattr(fn, attribute):
        raise ConfigurationError(
            f"{where}: has two @{decorator}(...); a method has one {decorator.replace('_', ' ')}, and the outer one "
            "would silently replace the inner one. Fix: keep one, with all the text in it"
        )
    return where


def check_system(where: str, text: Any, file: Any) -> None:
    """`@system_message`'s text or file, as given: exactly one of them, and a str."""
    if (text is None) == (file is None):
        raise ConfigurationError(
            f"{where}: @system_message takes the text or file=..., {'not both' if file else 'and got neither'}; "
            'write @system_message("…") or @system_message(file="name.txt") (a file in data/prompts/)'
        )
    if file is None and not isinstance(text, str):
        raise ConfigurationError(
            f"{where}: @system_message takes the template text (a str), and got {type(text).__name__}; "
            'for a file write @system_message(file="name.txt")'
        )
    if text is None and not isinstance(file, str):
        raise ConfigurationError(
            f"{where}: @system_message(file=...) takes the name of a file in data/prompts/ (a str), and got "
            f'{type(file).__name__}; e.g. @system_message(file="ecom_support.txt")'
        )


def check_user(where: str, template: Any) -> str:
    """`@user_message`'s template, as given: a str with text in it (returned)."""
    if not isinstance(template, str):  # @user_message(None) too: it is no template, not a missing one
        raise ConfigurationError(
            f"{where}: @user_message takes the template text (a str), and got {type(template).__name__}; "
            "read a file first, e.g. @user_message(Path(...).read_text())"
        )
    if not template.strip():
        raise ConfigurationError(
            f"{where}: @user_message({template!r}) has no text; write the user message's template, "
            "or remove the decorator and mark a parameter Annotated[str, UserText]"
        )
    return template


@dataclass(frozen=True)
class MethodPlan:
    """Everything the service needs to run one declared method, computed once."""

    name: str
    signature: inspect.Signature
    system: str | None
    """System message template, or None."""
    user_template: str | None
    user_param: str | None
    memory_param: str | None
    variables: dict[str, str]
    """Parameter name → template variable name."""
    kind: str
    """`text`, `none`, `result`, `stream` or `structured`."""
    output: OutputType | None
    """For `structured` and `result` of a non-str type: how to ask for and parse the answer."""
    texts: tuple[tuple[str, Any], ...] = ()
    """The parameters declared `str` that fill a message, with their default values: a call
    giving one of them something else (None, a number, a list) is refused (`check_texts`)."""
    aliases: dict[str, str] | None = None
    """Placeholder → parameter for the other names a parameter fills: `it` (the method's only one,
    unmarked) and the `V("…")` names of the user text and the memory id."""


def plan_method(
    owner: type, name: str, fn: Any, *, has_memory_provider: bool, shared_memory_id: str | None = None
) -> MethodPlan:
    """Read one method's declaration; raise `ConfigurationError` naming the method and the fix."""
    where = f"{owner.__name__}.{name}"
    _check_shape(where, fn)
    hints = _hints(where, owner, fn)
    params = _without_self(where, owner, fn)
    system, given = _system_text(where, fn), getattr(fn, "__toolkit_user__", _NO_TEMPLATE)
    user_template: str | None = None
    if isinstance(given, PromptFile):
        given = _prompt_file(where, "@user_message", given.name)
    if given is not _NO_TEMPLATE:  # checked again: the attribute may have been set by hand
        user_template = check_user(where, given)
    user_param, memory_param, variables = _roles(where, params, hints, user_template)
    if memory_param and not has_memory_provider:
        raise ConfigurationError(
            f"{where}: parameter {memory_param!r} is a MemoryId, but the service has no per-id memory; "
            "pass memory=memory_per_id(...) (or a function memory_id -> ChatMemory) to ai_service()"
        )
    default = next((p.default for p in params if p.name == memory_param), inspect.Parameter.empty)
    if memory_param and default is not inspect.Parameter.empty:
        raise ConfigurationError(
            f"{where}: the MemoryId parameter {memory_param!r} has a default value ({default!r}); a memory id "
            "must come from each caller, never from a default: remove the default"
        )
    _check_memory_type(where, memory_param, hints)
    if has_memory_provider and not memory_param and shared_memory_id is None:
        raise ConfigurationError(
            f"{where}: the service has per-id memory, but this method has no MemoryId parameter, so every "
            "caller would share one conversation; add a parameter Annotated[str, MemoryId], or opt in to a "
            'shared conversation with ai_service(..., shared_memory_id="shared")'
        )
    aliases = _aliases(where, params, hints, variables, {user_param, memory_param} - {None})
    _check_templates(where, system, user_template, variables, {user_param, memory_param} - {None}, aliases)
    kind, output = _output(where, hints.get("return", inspect.Signature.empty))
    texts = tuple((p.name, p.default) for p in params if p.name != memory_param and _bare(hints.get(p.name)) is str)
    return MethodPlan(
        name,
        inspect.signature(fn),
        system,
        user_template,
        user_param,
        memory_param,
        variables,
        kind,
        output,
        texts,
        aliases,
    )


def _check_memory_type(where: str, memory_param: str | None, hints: dict[str, Any]) -> None:
    """A `MemoryId` declared a class other than str (`Annotated[int, MemoryId]`): every call would be
    refused (`check_memory_id` takes strings only), so the declaration is refused at creation."""
    declared = _bare(hints.get(memory_param)) if memory_param else None
    if isinstance(declared, type) and declared is not object and not issubclass(declared, str):
        name = type_name(declared)
        raise ConfigurationError(
            f"{where}: the MemoryId parameter {memory_param!r} is declared {name}, but a memory id is a str "
            f"({a_or_an(name)} is refused at every call); declare Annotated[str, MemoryId] and pass str(...) of your id"
        )


_NO_TEMPLATE = object()
"""No `@user_message` at all (`@user_message(None)` is a template that is not text)."""


def _bare(hint: Any) -> Any:
    """An annotation without its `Annotated[...]` markers."""
    return hint.__origin__ if typing.get_origin(hint) is Annotated else hint


def check_texts(where: str, plan: MethodPlan, arguments: dict[str, Any]) -> None:
    """Refuse a value that is not a str for a parameter declared `str` (it would reach the model
    as JSON: `None` as "null", a list as its JSON text). Its own default value passes."""
    for name, default in plan.texts:
        value = arguments[name]
        if not isinstance(value, str) and value is not default:
            shown = repr(value) if len(repr(value)) <= 40 else f"<a {type(value).__name__}>"
            raise ConfigurationError(
                f"{where}({name}={shown}): the parameter is declared str, and got {type(value).__name__}; pass "
                "the text itself (str(...) of a value you mean as text), or declare the parameter's real type"
            )


def _check_shape(where: str, fn: Any) -> None:
    """Refuse what a declared method cannot be: async, only `@overload`s, or with a catch-all parameter."""
    if _is_overload_placeholder(fn):  # what a name declared only with @overload holds
        raise ConfigurationError(
            f"{where}: is declared only with @overload, so it has no signature of its own (Python keeps a "
            "placeholder taking *args, **kwargs); a declared method has one signature and one return type. Fix: "
            "declare it once, without @overload, or as methods of different names"
        )
    if inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
        raise ConfigurationError(
            f"{where}: is declared with async def, but a service's methods run synchronously (async is left out); "
            f"declare it with def, and from async code call it as await in_thread(service.{where.rsplit('.', 1)[-1]}, ...) "
            f"{IN_THREAD}"
        )
    catch_all = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    for p in inspect.signature(fn).parameters.values():
        if p.kind in catch_all:
            raise ConfigurationError(
                f"{where}: parameter {catch_all[p.kind]}{p.name} takes any number of arguments, which can be "
                "neither the one user message nor one template variable; declare each value as its own parameter"
            )


def has_own_body(fn: Any) -> bool:
    """Whether a method has a body of its own (LangChain4j's default method, which its proxy runs as
    written): anything but a stub, which is a docstring and/or `...`, `pass` or `raise NotImplementedError`.
    Read from the compiled code, so a method made by `exec` (a cell run without its source kept) is judged
    as one in a file: a stub compiles to returning `None` (`return None` written out is one too: it does
    nothing else) or to raising `NotImplementedError`, called or not. An `async def` or a generator counts
    as a stub (declared, to be refused as such: a service's methods run synchronously and return once)."""
    if inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn) or inspect.isgeneratorfunction(fn):
        return False
    code = getattr(fn, "__code__", None)
    if code is None:
        return False
    steps = [(i.opname, i.argval) for i in dis.get_instructions(code) if i.opname not in _NO_WORK]
    if steps in ([("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RETURN_CONST", None)]):
        return False
    return not _raises_not_implemented(steps)


def _raises_not_implemented(steps: list[tuple[str, Any]]) -> bool:
    """Whether compiled steps are `raise NotImplementedError` or `raise NotImplementedError(<constants>)`."""
    if len(steps) < 2 or steps[0] not in (("LOAD_GLOBAL", "NotImplementedError"), ("LOAD_NAME", "NotImplementedError")):
        return False
    return steps[-1][0] == "RAISE_VARARGS" and all(op in ("LOAD_CONST", "CALL") for op, _ in steps[1:-1])


_NO_WORK = frozenset({"RESUME", "NOP", "CACHE", "PRECALL", "PUSH_NULL", "COPY_FREE_VARS", "MAKE_CELL", "EXTENDED_ARG"})
"""Compiled steps that do no work of the body's own (the frame's start, the call protocol's padding)."""


def _is_overload_placeholder(fn: Any) -> bool:
    """Whether `fn` is the function `@typing.overload` leaves in a class body (one for every overload)."""
    return getattr(fn, "__module__", None) in ("typing", "typing_extensions") and (
        getattr(fn, "__name__", None) == "_overload_dummy"
    )


def _without_self(where: str, owner: type, fn: Any) -> list[inspect.Parameter]:
    """The method's parameters after the first, the instance (whatever it is called: `self`, `this`);
    a method without one is a `ConfigurationError` (a call's first argument would be the instance).
    A first parameter annotated with a type other than the class (`question: str`) is no instance."""
    signature = inspect.signature(fn)
    params = list(signature.parameters.values())
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    first = params[0] if params and params[0].kind in positional else None
    instance = (inspect.Parameter.empty, owner, owner.__name__, typing.Self, "Self")
    if first is not None and (
        first.name == "self" or any(first.annotation is a or first.annotation == a for a in instance)
    ):
        return params[1:]
    name, written = where.rsplit(".", 1)[-1], str(_as_typed(signature))
    raise ConfigurationError(
        f"{where}: has no self parameter, so a call's first argument would be taken for the instance. "
        f"Fix: declare it as def {name}(self{', ' if params else ''}{written[1:]}: ..."
    )


class _Typed(str):
    """An annotation's text as a developer types it; `inspect.Signature` shows it by its repr."""

    def __repr__(self) -> str:
        return str(self)


def _as_typed(signature: inspect.Signature) -> inspect.Signature:
    """`signature` with its annotations as typed (`Annotated[str, MemoryId]`), not as their reprs
    (`typing.Annotated[str, <class 'toolkit.tools.decorator.MemoryId'>]`): for the fix a message shows."""

    def typed(annotation: Any) -> Any:
        if annotation is inspect.Signature.empty:
            return annotation
        if typing.get_origin(annotation) is Annotated:  # a marker written `UserText()` is shown as its class
            base, *extras = typing.get_args(annotation)
            markers = [type(m) if isinstance(m, (UserText, MemoryId)) else m for m in extras]
            annotation = Annotated[(base, *markers)]
        return _Typed(type_name(annotation))

    params = [p.replace(annotation=typed(p.annotation)) for p in signature.parameters.values()]
    return signature.replace(parameters=params, return_annotation=typed(signature.return_annotation))


def _hints(where: str, owner: type, fn: Any) -> dict[str, Any]:
    """The method's annotations, resolved; a name that cannot be resolved is a `ConfigurationError`.

    Names are looked up in the module, then in the declaration's class bodies (a model declared
    inside it: `-> "Answer"`, as `from __future__ import annotations` writes every annotation)."""
    inside = {name: value for klass in reversed(owner.__mro__) for name, value in vars(klass).items()}
    try:
        return typing.get_type_hints(fn, localns={owner.__name__: owner, **inside}, include_extras=True)
    except Exception as exc:  # NameError for an undefined name, TypeError/SyntaxError for a broken string
        raise ConfigurationError(
            f"{where}: its annotations cannot be resolved ({type(exc).__name__}: {exc}); define or import "
            "every type they name in the declaration's module before calling ai_service()"
        ) from None


def _system_text(where: str, fn: Any) -> str | None:
    if not hasattr(fn, "__toolkit_system__"):
        return None
    text, file = fn.__toolkit_system__
    check_system(where, text, file)  # again: the attribute may have been set by hand
    if file is None:
        return text
    return _prompt_file(where, "@system_message", file)


def _prompt_file(where: str, decorator: str, file: str) -> str:
    """The text of `decorator(file=...)`'s file, which must be in `data/prompts/`."""
    prompts = course_data.path("prompts")
    path = prompts / file
    try:
        outside = not path.resolve().is_relative_to(prompts.resolve())
        found = path.is_file()
    except (OSError, ValueError):  # a NUL byte in the name, a name too long: no such file
        outside, found = False, False
    if outside:
        raise ConfigurationError(
            f"{where}: {decorator}(file={file!r}) points outside data/prompts/; name a file in that "
            f"folder, or pass the text itself: {decorator}(Path(...).read_text())"
        )
    if not found:
        available = ", ".join(sorted(p.name for p in prompts.glob("*"))) or "none"
        raise ConfigurationError(
            f"{where}: {decorator}(file={file!r}) not found in data/prompts/ "
            f"(available: {available}); fix the name, or pass your own prompt's text: "
            f'{decorator}(Path("prompt.txt").read_text(encoding="utf-8"))'
        )
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigurationError(
            f"{where}: {decorator}(file={file!r}) is not UTF-8 text (byte {exc.start}: {exc.reason}); save the file "
            "as UTF-8 (a prompt is text)"
        ) from None


def _roles(
    where: str, params: list[inspect.Parameter], hints: dict[str, Any], user_template: str | None
) -> tuple[str | None, str | None, dict[str, str]]:
    marked = {p.name: _markers(hints.get(p.name)) for p in params}
    users = [n for n, m in marked.items() if _marks(m, UserText)]
    memory = [n for n, m in marked.items() if _marks(m, MemoryId)]
    unnamed = next((n for n, m in marked.items() if V in m), None)
    if unnamed is not None:
        raise ConfigurationError(
            f"{where}: parameter {unnamed!r} is marked V without a name; V takes the placeholder's name: "
            f"Annotated[..., V({unnamed!r})] fills {{{{{unnamed}}}}} (or leave V out: the parameter's own name is used)"
        )
    if len(users) > 1:
        raise ConfigurationError(
            f"{where}: parameters {', '.join(users)} are all marked UserText; a method "
            "has one user message: mark one, and use the others as template variables"
        )
    if users and user_template is not None:
        raise ConfigurationError(
            f"{where}: has both @user_message(...) and parameter {users[0]!r} marked UserText; keep one of the two"
        )
    if len(memory) > 1:
        raise ConfigurationError(f"{where}: parameters {', '.join(memory)} are all MemoryId; keep one")
    rest = [n for n in marked if n not in users and n not in memory]
    if not users and user_template is None:
        if len(rest) != 1:
            raise ConfigurationError(
                f"{where}: has no user message; mark one parameter Annotated[str, UserText] or add @user_message('...')"
            )
        users, rest = rest, []
    variables = {n: next((m.name for m in marked[n] if isinstance(m, V)), n) for n in rest}
    _check_variables(where, variables)
    return (users[0] if users else None), (memory[0] if memory else None), variables


def _check_variables(where: str, variables: dict[str, str]) -> None:
    """Each template variable's name is a placeholder's, and no two parameters fill the same one
    (`V("order")` twice: one value would be dropped without a word)."""
    filled: dict[str, str] = {}
    for param, var in variables.items():
        if not (isinstance(var, str) and templates.is_name(var)):
            raise ConfigurationError(
                f"{where}: parameter {param!r} is marked V({var!r}), which cannot be a placeholder's name; "
                "use an identifier (letters of any script, digits, _; not starting with a digit), e.g. V('order_id')"
            )
        if var in filled:
            raise ConfigurationError(
                f"{where}: parameters {filled[var]!r} and {param!r} both fill {{{{{var}}}}} (V({var!r})); a "
                "placeholder takes one value, so one of them would never reach the model. Fix: give each "
                "parameter its own placeholder name"
            )
        filled[var] = param


def _marks(markers: list[Any], marker: type) -> bool:
    """Whether `marker` is among `markers`, as the class or an instance (`UserText()` is read as `UserText`)."""
    return any(m is marker or isinstance(m, marker) for m in markers)


def _markers(hint: Any) -> list[Any]:
    if typing.get_origin(hint) is Annotated:
        return list(hint.__metadata__)
    return []


def _check_templates(
    where: str,
    system: str | None,
    user: str | None,
    variables: dict[str, str],
    also: set[str | None],
    aliases: dict[str, str] | None = None,
) -> None:
    """Every placeholder known, every variable used; `also` (the user text's and the memory id's
    parameters) may be used too, by their own names, and need not be, as may `aliases` (`_aliases`)."""
    aliases = aliases or {}
    known = set(variables.values()) | set(templates.BUILT_INS) | {name for name in also if name} | set(aliases)
    used: set[str] = set()
    for label, text in (("@system_message", system), ("@user_message", user)):
        for match in _EXPRESSION.finditer(text or ""):
            held = match.group(1).strip()
            head = _HEAD.match(held)
            rest = held[head.end() :].lstrip() if head else ""
            if head and head.group(0) in known and rest and not (rest[0].isalnum() or rest[0] == "_"):
                raise ConfigurationError(
                    f"{where}: {label} uses {match.group(0)}, which reads into {head.group(0)!r}, but a placeholder "
                    f"is one name: {{{{{head.group(0)}}}}} is the whole value (a model as its JSON); attributes, "
                    "indexes and filters are not read. Fix: pass the part as its own parameter and use it by its "
                    f"name, or write {{{{{head.group(0)}}}}}"
                )
        _check_braces(f"{where}: {label}", text or "", known)
        _check_statements(f"{where}: {label}", text or "", known)
        for name in templates.variables(text or ""):
            if name not in known:
                raise _unknown(f"{where}: {label} uses {{{{{name}}}}}", name, variables, also)
            used.add(variables.get(aliases.get(name, ""), name))  # `{{it}}` uses the variable it names
    unused = [p for p, v in variables.items() if v not in used]
    if unused:
        raise ConfigurationError(
            f"{where}: parameter {unused[0]!r} is not used by any template; use it as "
            f"{{{{{variables[unused[0]]}}}}} in a template, or remove it"
        )


def _check_braces(said: str, text: str, known: set[str]) -> None:
    """Refuse a name a placeholder would fill with one brace on a side: `{current_date}` (as an
    f-string writes it), `{{current_date}` (one lost): it would reach the model as written. More
    braces are a placeholder and braces of the text (`{"order": {{order}}}`: JSON around it); other
    words in braces stay text."""
    for match in _BRACED.finditer(text):
        if match.group(2) in known and 1 in (len(match.group(1)), len(match.group(3))):
            raise ConfigurationError(
                f"{said} has {match.group(0)}, with one brace on a side, which would reach the model as written; a "
                f"placeholder has two each side: write {{{{{match.group(2)}}}}}"
            )


def _check_statements(said: str, text: str, known: set[str]) -> None:
    """Refuse a Jinja statement naming a parameter or a built-in (`{% if vip %}`): it would reach the model
    as written, and its parameter be called unused. One naming nothing known stays text."""
    for match in _STATEMENT.finditer(text):
        if any(word in known for word in _HEAD.findall(match.group(1))):
            raise ConfigurationError(
                f"{said} has {match.group(0)}, a Jinja statement, which would reach the model as written: a "
                "template fills {{name}} placeholders only (no conditionals, loops or filters). Fix: work the "
                "text out in Python and pass it as a parameter, used as {{its_name}}"
            )


_STATEMENT = re.compile(r"\{%([^{}]*)%\}")
"""A Jinja statement (`{% if vip %}`, `{%- for x in items -%}`)."""
_BRACED = re.compile(r"(?<!\{)(\{+)\s*([^{}\s]+)\s*(\}+)(?!\})")
"""One word in braces, with all the braces on each side (`{x}`, `{{x}}`, `{{x}`, `{{{x}}}`)."""


def _unknown(said: str, name: str, variables: dict[str, str], also: set[str | None]) -> ConfigurationError:
    """The error for a placeholder no parameter and no built-in fills (`said`: where it is used)."""
    if variables.get(name, name) != name:
        return ConfigurationError(
            f"{said}, but parameter {name!r} is marked V({variables[name]!r}), so it fills "
            f"{{{{{variables[name]}}}}}; write {{{{{variables[name]}}}}} in the template, or remove the V to use "
            "the parameter's own name"
        )
    if name == "it":
        named = [*variables.values(), *sorted(n for n in also if n)]
        example = f" ({{{{{named[0]}}}}})" if named else ""
        has = "its one parameter is marked" if len(named) == 1 else f"this method has {len(named)}"
        return ConfigurationError(
            f"{said}, which names a method's only parameter when it has no marker (as in LangChain4j), and {has}; "
            f"write the parameter's placeholder{example}, or mark one V('it')"
        )
    return ConfigurationError(
        f"{said}, which is neither a parameter nor a built-in; add a parameter {name!r} (or "
        f"Annotated[..., V({name!r})]), or use one of {', '.join(sorted(templates.BUILT_INS))}"
    )


def _aliases(
    where: str, params: list[inspect.Parameter], hints: dict[str, Any], variables: dict[str, str], own: set[str | None]
) -> dict[str, str]:
    """Placeholder → parameter for the names a parameter fills besides its variable's: `it`
    (`_it_param`), and a `V("…")` on the user text or the memory id (LangChain4j's `@UserMessage
    @V("question")`); a variable of the same name wins."""
    named = {p: m.name for p in own if p for m in _markers(hints.get(p)) if isinstance(m, V)}
    _check_variables(where, named)
    aliases = {name: p for p, name in named.items() if name not in variables.values()}
    it = _it_param(params, hints, variables)
    return {**aliases, "it": it} if it else aliases


def _it_param(params: list[inspect.Parameter], hints: dict[str, Any], variables: dict[str, str]) -> str | None:
    """The parameter `{{it}}` names, as LangChain4j reads it: the method's only one, when it is
    marked neither UserText, MemoryId nor V (and no parameter or V is called `it`), else None."""
    if len(params) != 1 or "it" in variables.values() or params[0].name == "it":
        return None
    markers = _markers(hints.get(params[0].name))
    if _marks(markers, UserText) or _marks(markers, MemoryId) or _marks(markers, V) or V in markers:
        return None
    return params[0].name


_HEAD = re.compile(r"[^\W\d]\w*")
"""The name a placeholder's word starts with (`customer` of `customer.name`)."""
_EXPRESSION = re.compile(r"\{\{([^{}]*)\}\}")
"""What double braces hold, spaces too: `{{ customer | upper }}` (a Jinja filter) reads into `customer`."""


def _output(where: str, annotation: Any) -> tuple[str, OutputType | None]:
    bare = _bare(annotation)
    if bare in (str, None, type(None), TokenStream, Result) or typing.get_origin(bare) is Result:
        annotation = bare  # `Annotated[str, "doc"]` is a str: its markers say nothing to the service
    if annotation is inspect.Signature.empty:
        raise ConfigurationError(
            f"{where}: has no return annotation; declare one: str, None, Result[T], TokenStream or a pydantic model"
        )
    if annotation is str:
        return "text", None
    if annotation is None or annotation is type(None):
        return "none", None
    if annotation is TokenStream:
        return "stream", None
    if typing.get_origin(annotation) is Result:
        (inner,) = typing.get_args(annotation)
        if _bare(inner) in (None, type(None)):  # it would ask for {"value": null}, and repair every answer
            raise ConfigurationError(
                f"{where}: returns Result[None], a result whose content could only be None; declare Result[str] for "
                "the answer's text with its usage and tool executions, or -> None to ignore the answer"
            )
        return "result", None if _bare(inner) is str else _readable(where, inner, annotation)
    if annotation is Result:
        return "result", None
    return "structured", _readable(where, annotation, annotation)


_ONE_SHOT = (
    collections.abc.Iterator,
    collections.abc.Iterable,
    collections.abc.AsyncIterator,
    collections.abc.AsyncIterable,
)
"""Return types whose values would be produced (and checked) only as they are read: a generator too."""
_ASYNC = (collections.abc.Awaitable, collections.abc.Coroutine)


def _readable(where: str, content: Any, declared: Any) -> OutputType:
    """How a structured answer of type `content` is read, its JSON Schema made now: a type pydantic
    cannot read from JSON is a `ConfigurationError` at creation, not a pydantic error at the first call."""
    shown = _type_text(declared)
    kind = typing.get_origin(content) or content
    if kind in _ASYNC:
        raise ConfigurationError(
            f"{where}: returns {shown}, but a service's methods run synchronously (async is left out). Fix: declare "
            f"the answer's type (-> str), and from async code call it as await in_thread(service."
            f"{where.rsplit('.', 1)[-1]}, ...) {IN_THREAD}"
        )
    if kind in _ONE_SHOT or kind in (collections.abc.Generator, collections.abc.AsyncGenerator):
        raise ConfigurationError(
            f"{where}: returns {shown}, an iterator, which a call cannot return (its values would be checked only "
            "as they are read, after the call). Fix: declare list[...] for the values at once, or TokenStream for "
            "the text as it arrives"
        )
    variable = _type_variable(content)
    if variable is not None:
        raise ConfigurationError(
            f"{where}: returns {shown}, which holds the type variable {variable.__name__}; a structured answer is "
            "checked against the declared type, and a type variable would let any JSON through (ai_service does not "
            "fill in a generic class's type arguments). Fix: declare the concrete type, e.g. -> Order"
        )
    output = OutputType(content)
    try:
        output.schema  # noqa: B018  (made once, here: the request sends it)
    except Exception as exc:  # pydantic's schema errors, and whatever a type's own schema hook raises
        which = "which" if content is declared else f"whose content {_type_text(content)}"
        said = _pydantic_fix(exc)
        raise ConfigurationError(
            f"{where}: returns {shown}, {which} pydantic cannot read from JSON "
            f"({type(exc).__name__}{said}); a structured answer is read from JSON, so its type must be one pydantic "
            "can write as a JSON Schema and validate. Fix: declare str, None, TokenStream, a pydantic model, or a "
            "type of JSON values (list[...], dict[str, ...], an enum, int ...), or Result[...] of one"
        ) from None
    return output


def _type_variable(annotation: Any) -> Any:
    """The first type variable in `annotation` (`T`, `list[T]`), else None (pydantic would read it as Any)."""
    if isinstance(annotation, TypeVar):
        return annotation
    return next((v for v in map(_type_variable, typing.get_args(annotation)) if v is not None), None)


def _pydantic_fix(exc: Exception) -> str:
    """`: ` and the first line of pydantic's own message when it is a rule with its fix (a
    `typing.TypedDict` on Python < 3.12, a model not fully defined), else nothing: a type pydantic
    has no schema for gets its `arbitrary_types_allowed` advice, which is no fix here."""
    if type(exc) is not PydanticUserError:
        return ""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f": {first}" if first else ""


def _type_text(annotation: Any) -> str:
    """A return type as it is written in a declaration: `Iterator[str]`, `Result[Order]`."""
    return type_name(annotation).replace("collections.abc.", "").replace("~", "")  # a type variable: `T`, not `~T`
