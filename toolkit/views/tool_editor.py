"""Try a tool: type a Python function with `@tool`, see its schema, the lint, and what the model sees.

    ToolEditor()                     # or ToolEditor(code) to start from your own text

When the box loses focus (a click outside it) after a change, the code runs in a fresh namespace that already holds `tool`,
`Param`, `MemoryId`, `InvocationContext`, `ReturnBehavior`, `Annotated`, `Literal` and `Field`;
every function it defines becomes a tool (`tools_from`), but for helpers: one named `_like_this`
without `@tool`, and, beside a decorated one, any without `@tool` (as `tools_from(module)` takes
only those). So does every object it makes with `@tool` methods (a class of them alone is
not a tool: the view says to make an instance). What it imports (`from typing import Optional`,
`from os.path import join`) is not a tool: an object its own module holds is imported, not
defined here. The code is compiled with its own `__future__` imports only, and its module is in
`sys.modules` while it runs and is reflected (as a cell's `__main__` is), so a dataclass or a
pydantic model resolves its annotations as in a cell. The view shows:

- the `tools` entry the model receives (`spec.to_openai()`),
- the lint warnings (`toolkit.tools.lint`),
- the schema as the week-5 explainer renders it;
- what the code printed while it ran (a widget's callback reaches no cell: it would be lost);

and for a definition the package refuses, its own developer-facing message
(`ToolDefinitionError`), or the line of a syntax error; an error's secrets are masked
(`redact.scrub_secrets`: a connection string the code failed on). Nothing the code does can break the
widget (an `exit()` or any exception included: it is reported, not obeyed; Ctrl-C still
interrupts). The code is the learner's own, run in their own kernel, as any cell is, with no time
limit; it runs when the learner leaves the box, never at each keystroke (a half-typed
`shutil.rmtree("tmp/cache")` would have removed `tmp/` on the way). Code that acts (deletes a
file, loops for ever) still belongs in a cell.

Leaves out: running the tool (call it in a cell), strict mode.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import types
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import ipywidgets as widgets

from toolkit.errors import ConfigurationError, ToolDefinitionError
from toolkit.tools import redact
from toolkit.tools.decorator import a_kind_of
from toolkit.views.conversation import TextRepr
from toolkit.views.html import NO_MATH, code_block, escape, kept, shortened, showable_bundle, without_addresses

START = """@tool("Look up one order by its id and return its status, items and total.")
def query_order(order_id: Annotated[str, Param("Order id, e.g. SN202610200001")]) -> str:
    return "shipped"
"""


EDITOR_MODULE = "your_tool"
"""The module the editor's code is run as (in `sys.modules` only while it runs and is reflected)."""


def _namespace() -> dict[str, Any]:
    from typing import Annotated, Literal

    from pydantic import Field

    from toolkit.tools.decorator import InvocationContext, MemoryId, Param, ReturnBehavior, tool

    return {
        "__name__": EDITOR_MODULE,  # what a refusal names the function by (`@tool your_tool.f`), not `?.f`
        "tool": tool,
        "Param": Param,
        "MemoryId": MemoryId,
        "InvocationContext": InvocationContext,
        "ReturnBehavior": ReturnBehavior,
        "Annotated": Annotated,
        "Literal": Literal,
        "Field": Field,
    }


def inspect_code(code: str) -> dict[str, Any]:
    """`{"tools": [...openai...], "warnings": [...], "error": str, "text": str, "printed": str}` for the
    code; `printed` is what it wrote to stdout and stderr (a print, a warning) while it ran: from a
    widget's callback that reaches no cell, so the editor shows it (secrets masked, cut as an error is)."""
    _check_code(code, "inspect_code")
    module = types.ModuleType(EDITOR_MODULE)
    module.__dict__.update(_namespace())
    out = io.StringIO()
    with _importable(module), contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        report = _inspect(code, module.__dict__)
    printed = out.getvalue()
    return {**report, "printed": _line(printed) if printed else ""}


@contextmanager
def _importable(module: types.ModuleType) -> Iterator[None]:
    """`module` in `sys.modules` while the code runs and is reflected, as a cell's `__main__` is: a
    dataclass or a pydantic model looks its module up there to resolve string annotations (`from
    __future__ import annotations`); whatever held the name before is put back after."""
    name = module.__name__  # read once: the code may rebind `__name__`
    previous = sys.modules.get(name)
    sys.modules[name] = module
    try:
        yield
    finally:
        if previous is not None:
            sys.modules[name] = previous
        elif sys.modules.get(name) is module:
            del sys.modules[name]


def _inspect(code: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """`inspect_code` of `code`, run in `namespace`."""
    from toolkit.tools.execute import tools_from
    from toolkit.tools.lint import lint_tools
    from toolkit.views.schema import render_schema_text

    given = set(namespace)
    try:
        exec(compile(code, "<your tool>", "exec", dont_inherit=True), namespace)  # not this module's __future__
        defined = {k: v for k, v in namespace.items() if k not in given}
        named = {id(v): v for k, v in defined.items() if _defined_tool(k, v)}  # `lookup = query_order`: one tool
        functions = _tools_among(list(named.values()))
        if not functions:
            return {"tools": [], "warnings": [], "error": _nothing_to_show(defined.values()), "text": ""}
        tools = tools_from(*functions)
    except ToolDefinitionError as error:  # its text may show a default's repr: no address (determinism)
        return {"tools": [], "warnings": [], "error": _refused(error), "text": ""}
    except SyntaxError as error:
        where = f" on line {error.lineno}" if error.lineno else ""
        return {"tools": [], "warnings": [], "error": f"SyntaxError{where}: {error.msg}", "text": ""}
    except KeyboardInterrupt:  # Ctrl-C: the learner stops the kernel's work, not just this code
        raise
    except BaseException as error:  # the learner's code raised (or called exit()) while being defined
        return {"tools": [], "warnings": [], "error": _raised(error), "text": ""}
    return {
        "tools": [t.spec.to_openai() for t in tools],
        "warnings": [w.message for w in lint_tools(t.spec for t in tools)],
        "error": "",
        "text": render_schema_text(tools),
    }


def _check_code(code: object, where: str) -> None:
    """A `ConfigurationError` unless `code` is text (ipywidgets' TraitError, or compile()'s TypeError, said less)."""
    if not isinstance(code, str):
        raise ConfigurationError(
            f"{where}(code): takes the tool's Python source as text, and got {a_kind_of(code)}; "
            f"e.g. {where}('@tool(\"...\")\\ndef f(x: int) -> str: ...')"
        )


def _defined_tool(name: str, value: Any) -> bool:
    """`value`, bound to `name` by the code, is a function (or callable object) it defined to be a tool."""
    from toolkit.tools.decorator import tool_options
    from toolkit.tools.execute import tool_attributes

    if isinstance(value, type) or _imported(value):
        return False
    if tool_attributes(type(value)):  # an object with @tool methods (`tools_from` takes it whole)
        return True
    return callable(value) and (not name.startswith("_") or tool_options(value) is not None)


def _tools_among(candidates: list[Any]) -> list[Any]:
    """The decorated ones (`@tool` functions, objects with `@tool` methods) when there are any, as
    `tools_from(module)` takes them: a plain function beside them is a helper they call. Else all."""
    from toolkit.tools.decorator import tool_options
    from toolkit.tools.execute import tool_attributes

    decorated = [v for v in candidates if tool_options(v) is not None or tool_attributes(type(v))]
    return decorated or candidates


def _nothing_to_show(defined: Iterable[Any]) -> str:
    """Why the code gave no tool: a class with @tool methods it made no instance of, or no function at all."""
    from toolkit.tools.execute import tool_attributes

    unbound = [v for v in defined if isinstance(v, type) and not _imported(v) and tool_attributes(v)]
    if unbound:
        name = unbound[0].__name__
        return (
            f"the class {name} has @tool methods, which need an instance to be bound to: "
            f"make one below it, e.g. `tools = {name}()`, to see its tools"
        )
    return "define a function (with @tool) to see its schema"


def _imported(value: Any) -> bool:
    """`value` is an object of another module (the module it names holds it): imported, not defined here."""
    module = getattr(value, "__module__", None)
    if module == EDITOR_MODULE:  # defined by the code (its module is in sys.modules while it runs)
        return False
    home = sys.modules.get(module or "")
    return home is not None and any(v is value for v in getattr(home, "__dict__", {}).values())


def _refused(error: ToolDefinitionError) -> str:
    """The package's refusal, as one line of the editor: no memory address (its text may quote a
    default's repr), no secret, cut at `SHOWN_CHARS` (a default of ten million characters is quoted whole)."""
    return _line(f"ToolDefinitionError: {error}")


def _raised(error: BaseException) -> str:
    """One line for an exception the learner's code raised, whatever its `__str__` does (its class
    name alone when that fails or says nothing), cut at `SHOWN_CHARS`; `exit()` is named as such (it would end the
    widget's callback, or the kernel, instead of showing anything)."""
    if isinstance(error, SystemExit):
        return (
            f"SystemExit: the code called exit() or sys.exit({error.code!r}); a tool definition must not end the kernel"
        )
    try:
        message = str(error)
    except Exception:  # an exception class of the learner's whose __str__ raises
        message = ""
    name = type(error).__name__
    return _line(f"{name}: {message}" if message else name)


def _line(error: str) -> str:
    """An error as the editor shows it: no memory address (determinism), its secrets masked as the
    trace, the playground and exercise feedback mask them (a connection string the code failed on
    at import: `redact.scrub_secrets`, the learner's own paths kept), cut at `SHOWN_CHARS` (a 10 MB message)."""
    return shortened(redact.scrub_secrets(without_addresses(error)))


def _drawn(report: dict[str, Any]) -> list[tuple[str, bool]]:
    """The report's lint warnings a view draws, each with whether it is the note saying which are
    left out (`kept`: alike tools make a warning per pair, 320,000 for 800 of them)."""
    warnings: list[str] = report["warnings"]
    return [(w, True) if isinstance(w, str) else (warnings[w], False) for w in kept(len(warnings), "warnings")]


class ToolEditor(TextRepr, widgets.VBox):
    """A code box and what the model would see, updated when the box loses focus after a change."""

    code: widgets.Textarea
    """The code box."""
    view: widgets.HTML
    """What the model would see, as `html()`."""
    report: dict[str, Any]
    """`inspect_code` of the box's code, as last refreshed."""

    def __init__(self, code: str = START, **kwargs: Any) -> None:
        _check_code(code, "ToolEditor")
        self.code = widgets.Textarea(  # sent when the box loses focus: half-typed code never runs
            value=code, continuous_update=False, layout=widgets.Layout(width="100%", height="140px")
        )
        self.view = widgets.HTML()
        self.code.observe(lambda change: self.refresh(), names="value")
        super().__init__([self.code, self.view], **kwargs)
        self.refresh()

    def refresh(self) -> None:
        self.report = inspect_code(self.code.value)
        self.view.value = self.html()

    def html(self) -> str:
        r = self.report
        printed = f"<b>printed</b>{code_block(r['printed'], 'text')}" if r.get("printed") else ""
        if r["error"]:
            error = f'<div style="color:#cf222e;white-space:pre-wrap">{escape(r["error"])}</div>'
            return f'<div class="{NO_MATH}">{error}{printed}</div>'
        lint = "".join(f"<li><i>{escape(w)}</i></li>" if n else f"<li>{escape(w)}</li>" for w, n in _drawn(r)) or (
            "<li>no warnings</li>"
        )
        return (
            f'<div class="{NO_MATH}"><b>what the model receives</b>'
            f"{code_block(json.dumps(r['tools'], indent=2, ensure_ascii=False))}<b>lint</b><ul>{lint}</ul>{printed}</div>"
        )

    def text(self) -> str:
        r = self.report
        printed = f"\n\nprinted:\n{r['printed']}" if r.get("printed") else ""
        if r["error"]:
            return r["error"] + printed
        lint = "\n".join(w if n else f"- {w}" for w, n in _drawn(r)) or "- no warnings"
        return f"{json.dumps(r['tools'], indent=2, ensure_ascii=False)}\nlint:\n{lint}\n\n{r['text']}{printed}"

    def _plain_text(self) -> str:
        return self.text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = self._widget_bundle(**kwargs)
        return showable_bundle({**bundle, "text/plain": self.text(), "text/html": self.html()})
