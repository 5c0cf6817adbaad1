"""Week 5 exercises: required rules, the coercion table, arg0, a target schema, error channels.

The arg0 fix passes the lint and then says what this tool is: the lint counts words, so its description
speaks of orders, and its parameter's name and description of an order or an id ("Query data." repeated, a
TODO, a parameter `s` described as "a string" fail, saying which).

The target schema is met by the function as written, not only by what @tool made of it: @tool converts a default
(`limit: int = 10.0` or `= "10"` shows as 10), but a direct call still gets the value as written, so such a
default fails, saying so.

Leaves out: strict mode (week 5's notebook shows which types cannot be strict).
"""

from __future__ import annotations

import inspect
import json
import random
import re
from typing import Annotated, Any

from toolkit.errors import a_or_an
from toolkit.exercises.answers import dict_answer_problem, misses, verdict_of
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import Verdict, exercise, right, wrong
from toolkit.exercises.values import library_of, show
from toolkit.exercises.values import plain as plain_value
from toolkit.tools.decorator import Param


def plain(x: int) -> str:
    return repr(x)


def optional_type(x: int | None) -> str:
    return repr(x)


def with_default(x: int = 5) -> str:
    return repr(x)


def not_required(x: Annotated[int | None, Param(required=False)]) -> str:
    return repr(x)


DECLARATIONS = {
    "x: int": plain,
    "x: int | None": optional_type,
    "x: int = 5": with_default,
    "x: Annotated[int | None, Param(required=False)]": not_required,
}


@answer_exercise(
    "w5.required",
    "for four declarations of x, is x in the schema's `required` list?",
    answer={
        "x: int": True,
        "x: int | None": True,
        "x: int = 5": False,
        "x: Annotated[int | None, Param(required=False)]": False,
    },
    comment="True or False",
    column=59,
    hint="`| None` says the value may be null, not that it may be left out; a default or required=False does.",
)
def check_required(answer: Any) -> Verdict:
    from toolkit.tools.execute import function_tool

    if problem := dict_answer_problem(
        answer, DECLARATIONS, (True, False), expected="the starter's dict, True or False per declaration"
    ):
        return problem
    actual = {
        text: "x" in (function_tool(fn).spec.parameters or {}).get("required", []) for text, fn in DECLARATIONS.items()
    }

    def say(text: str, said: Any, required: bool) -> str:
        tip = (
            " (None is a value the model must send; only a default makes it optional)"
            if "| None" in text and "Param" not in text
            else ""
        )
        return f"{text}: not {show(said)}{tip}"

    return verdict_of(misses(answer, actual, say), "required = no default and not required=False.")


COERCION_ROWS = (("int", "27"), ("int", 27.5), ("int", "27.5"), ("bool", "true"), ("bool", 1), ("str", 202610200001))


def _annotation(name: str) -> Any:
    return {"int": int, "bool": bool, "str": str}[name]


@answer_exercise(
    "w5.coercion",
    "the model sends these values for these types: which are accepted (True) and which are argument errors?",
    answer={
        ("int", "27"): True,
        ("int", 27.5): False,
        ("int", "27.5"): False,
        ("bool", "true"): False,
        ("bool", 1): False,
        ("str", 202610200001): False,
    },
    comment="True = accepted, False = argument error",
    column=33,
    hint="a string of digits is an exact integer, so it is accepted; nothing is ever rounded, and a bool "
    "is only true or false — a word or a number could mean anything.",
)
def check_coercion(answer: Any) -> Verdict:
    from toolkit.errors import ArgumentError
    from toolkit.tools.arguments import coerce_one

    if problem := dict_answer_problem(
        answer, COERCION_ROWS, (True, False), expected="the starter's dict, True or False per row"
    ):
        return problem

    def accepted(type_name: str, sent: Any) -> bool:
        try:
            coerce_one(_annotation(type_name), sent)
        except ArgumentError:
            return False
        return True

    def say(row: tuple[str, Any], said: Any, actual: bool) -> str:
        type_name, sent = row
        tip = ""
        if type_name == "bool" and sent == "true":
            tip = (
                ' — "27" → 27 is exact and unambiguous; "true" for a bool is refused because lax string '
                'booleans ("yes", "on", "1") hide a model that does not know the schema'
            )
        elif sent == 27.5:
            tip = " — 27.5 is not an integer and is never rounded"
        return f"{type_name} ← {json.dumps(sent)}: not {'accepted' if said else 'an argument error'}{tip}"

    found = misses(answer, {row: accepted(*row) for row in COERCION_ROWS}, say)
    return verdict_of(found, "exact conversions only: nothing is rounded or guessed.")


def _one_tool(answer: Any) -> Any:
    """The one tool the learner's answer declares, or the ✗ saying why there is not exactly one."""
    from toolkit.errors import ToolDefinitionError
    from toolkit.tools.execute import tools_from

    # tools_from's own words would name a call the learner never wrote (`tools_from(int())`, `tools=[...]`)
    if isinstance(answer, (list, tuple, set, frozenset, dict)):
        return wrong(f"answer with the @tool function itself, not {show(answer)}")
    if isinstance(answer, type):
        name = answer.__name__
        return wrong(
            f"answer with the @tool function itself, not the class {name} (a class's @tool methods: answer {name}())"
        )
    if isinstance(answer, (str, bytes)):
        return wrong(f"answer with the @tool function itself (its name, without quotes), not {show(answer)}")
    if answer is None or isinstance(answer, (int, float, complex)):  # what a call of the function returned
        return wrong(f"answer with the @tool function itself (its name, without a call), not {show(answer)}")
    try:
        tools = tools_from(answer)
    except ToolDefinitionError as error:
        if not callable(answer) and (package := library_of(type(answer))) not in (None, "toolkit"):
            # another library's tool (LangChain's @tool makes a StructuredTool): "no @tool methods" would send
            # the learner to decorate methods it does not have
            return wrong(
                "answer with a function marked with the course's @tool (from toolkit import tool), not "
                f"{a_or_an(type(answer).__name__)} object (from {package}): another library's tool is not reflected "
                "here"
            )
        return wrong(f"the tool definition is refused: {error}")
    if len(tools) != 1:
        return wrong(f"answer with one function, not {len(tools)} tools")
    return tools[0]


@exercise(
    "w5.fix_arg0",
    5,
    "fix",
    "fix a tool `query(arg0)` so the lint has nothing to say: say what it does and name the parameter",
    starter="""
        from typing import Annotated

        from toolkit import Param, tool
        from toolkit.exercises import check

        # the broken tool, as a model would see it: name `query`, description "Query data.", parameter `arg0`
        # def query(arg0: str) -> str:
        #     '''Query data.'''
        #     return f"order {arg0}: shipped"

        answer = ...   # your fixed function, decorated with @tool
        check("w5.fix_arg0", answer)
        """,
    solution="""
        from typing import Annotated

        from toolkit import Param, tool
        from toolkit.exercises import check


        @tool("Look up one order by its id and return its status, items and total.")
        def query_order(order_id: Annotated[str, Param("Order id, e.g. SN202610200001")]) -> str:
            return f"order {order_id}: shipped"


        answer = query_order
        check("w5.fix_arg0", answer)
        """,
    hint="describe the tool (what, when, what it returns) and the parameter (what, which format); name it for "
    "what it holds.",
)
def check_fix_arg0(answer: Any) -> Verdict:
    from toolkit.tools.lint import lint_tools

    tool = _one_tool(answer)
    if isinstance(tool, Verdict):
        return tool
    spec = tool.spec
    props = (spec.parameters or {}).get("properties", {})
    if len(props) != 1:
        return wrong(f"the tool should keep one parameter; the model sees {list(props)}")
    warnings = lint_tools([spec])
    if warnings:
        return wrong("lint: " + "; ".join(w.message for w in warnings))
    name, schema = next(iter(props.items()))
    if schema.get("type") != "string":  # the fix is to say what the tool takes, not to change it
        return wrong(
            f"the parameter {name} now takes {_takes(schema)}, but the tool takes an order id such as "
            "SN202610200001: keep it a str, and say what it holds"
        )
    if name not in (spec.parameters or {}).get("required", []):  # a default lets the model call it without an id
        return wrong(
            f"the parameter {name} is now optional (it has a default), but the tool needs an order id to look up: "
            "keep it required, as arg0 was, and say what it holds"
        )
    if problem := _says_what_it_is(spec.description, name, schema.get("description", "")):
        return problem
    if problem := _still_works(tool, name):
        return problem
    return right(f"the model now reads {spec.name}({name}): {spec.description}")


_OF_ORDERS = re.compile(r"(?i:order|purchase|订单|单号)|\bSN")
"""What a description of this tool speaks of: orders (English or Chinese), or their SN ids."""
_OF_AN_ID = re.compile(r"(?i:order|purchase|\bids?\b|identifier|number|订单|单号|编号)|\bSN")
"""What a description of its parameter speaks of: an order, an id, a number."""
_ID_WORDS = frozenset({"id", "ids", "sn", "no", "num", "number", "identifier"})
"""Words of a parameter name (split at `_` and camelCase humps) that say it holds an id."""


def _says_what_it_is(description: str, name: str, described: str) -> Verdict | None:
    """The ✗ for a fix the lint lets through yet that says nothing of this tool: the lint counts words, so a
    description repeating "Query data.", a TODO, a parameter named `s` or described as "a string" or by its
    own name ("order_id", "Order ID.") passed it.
    This tool looks up an order by its id: its description speaks of orders, its parameter's name and
    description of an order or an id. None when they do; the prose itself is not judged."""
    if not _OF_ORDERS.search(description):
        return wrong(
            f"the description {show(description)} passes the lint but does not say what the tool works on: the "
            "model chooses by it, so say that it looks up an order (and what it returns)"
        )
    parts = {part.lower() for part in re.split(r"_+|(?<=[a-z0-9])(?=[A-Z])", name)}
    if "order" not in name.lower() and "订单" not in name and not parts & _ID_WORDS:
        return wrong(
            f"the name {show(name)} does not say what the parameter holds: the model reads it beside the "
            "description, so name it for what it holds (an order id)"
        )
    if _words(described) == _words(name):
        return wrong(
            f"the parameter's description {show(described)} only repeats its name: the model reads the name already, "
            "so say what it holds beyond it: an order id, and its format"
        )
    if not _OF_AN_ID.search(described):
        return wrong(
            f"the parameter's description {show(described)} does not say what it holds: the model fills the "
            "parameter by it, so say that it is an order id, and its format"
        )
    return None


def _words(text: str) -> list[str]:
    """The words of a name or a short text, lower case: split at what is not a letter or digit and at camelCase
    humps (`orderId`, `order_id` and "Order ID." are all `order id`)."""
    split = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    return [word.lower() for word in re.split(r"[\W_]+", split) if word]


def _takes(schema: dict[str, Any]) -> str:
    """What a parameter's schema lets the model send, in words: `a string or null` (for `str | None`),
    `an integer`, `an object (OrderQuery)` — never the schema's JSON cut mid-string."""
    words: list[str] = []
    for branch in schema.get("anyOf") or schema.get("oneOf") or [schema]:
        kinds = branch.get("type") if isinstance(branch, dict) else None
        if isinstance(branch, dict) and "$ref" in branch:
            words.append(f"an object ({str(branch['$ref']).rsplit('/', 1)[-1]})")
        elif isinstance(kinds, (str, list)):
            words += [_KINDS.get(kind, str(kind)) for kind in ([kinds] if isinstance(kinds, str) else kinds)]
        else:
            words.append("any value")
    return " or ".join(dict.fromkeys(words))


_KINDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "array": "a list",
    "object": "an object",
    "null": "null",
}
"""A JSON Schema type, as said in feedback."""


def _still_works(tool: Any, name: str) -> Verdict | None:
    """✗ when the fixed tool, called as the model calls it with order ids it has not seen, fails or
    answers without the id (a body still reading `arg0`, or one that ignores its parameter): the fix
    renames and describes, the tool still looks up the order it is given. None when it does."""
    from toolkit.chat.messages import ToolCall
    from toolkit.errors import ArgumentError
    from toolkit.tools.result_text import to_text

    rng = random.Random(5)
    for order_id in [f"SN2026{rng.randrange(10**8):08d}" for _ in range(3)]:
        call = ToolCall(id="c1", name=tool.spec.name, arguments=json.dumps({name: order_id}))
        try:
            result = tool.execute(call)
        except ArgumentError as error:  # a pattern, length or choice narrower than an order id
            return wrong(
                f"called as the model calls it, {tool.spec.name}({name}={order_id!r}) was refused "
                f"({error.problems[0].line().removeprefix('- ')}); the original took any order id — a fix renames "
                "and describes, the tool still answers for the order it is given"
            )
        if result.is_error or order_id not in result.content:
            returned_none = not result.is_error and result.content == to_text(None)
            return wrong(
                f"called as the model calls it, {tool.spec.name}({name}={order_id!r}) answered "
                f"{result.content[:120]!r}; the original answered 'order {order_id}: shipped' — a fix renames and "
                "describes, the tool still answers for the order it is given"
                + (
                    f"; {result.content!r} is what a tool that returns None sends: does yours print its answer "
                    "instead of returning it?"
                    if returned_none
                    else ""
                )
            )
    return None


def _target_tool() -> Any:
    from toolkit.tools.decorator import tool

    @tool("Search the user's orders by words in item names; returns at most `limit` order ids.")
    def search_orders(
        query: Annotated[str, Param("Words to look for in item names")],
        limit: Annotated[int, Param("At most this many results")] = 10,
    ) -> list[str]:
        return []

    return search_orders


def target_schema() -> dict[str, Any]:
    """The schema the learner's function must produce (from the reference function)."""
    from toolkit.tools.execute import tools_from

    return tools_from(_target_tool())[0].spec.to_openai()


@exercise(
    "w5.schema_target",
    5,
    "write",
    "write a @tool function whose schema is exactly target_schema()",
    starter="""
        import json
        from typing import Annotated

        from toolkit import Param, tool
        from toolkit.exercises import check
        from toolkit.exercises.week05 import target_schema

        print(json.dumps(target_schema(), indent=2, ensure_ascii=False))

        answer = ...   # your @tool function
        check("w5.schema_target", answer)
        """,
    solution="""
        import json
        from typing import Annotated

        from toolkit import Param, tool
        from toolkit.exercises import check
        from toolkit.exercises.week05 import target_schema

        print(json.dumps(target_schema(), indent=2, ensure_ascii=False))


        @tool("Search the user's orders by words in item names; returns at most `limit` order ids.")
        def search_orders(query: Annotated[str, Param("Words to look for in item names")],
                          limit: Annotated[int, Param("At most this many results")] = 10) -> list[str]:
            return []


        answer = search_orders
        check("w5.schema_target", answer)
        """,
    hint="the name is the function's name, the description is @tool's text, a default makes a parameter "
    "optional and appears as `default`.",
)
def check_schema_target(answer: Any) -> Verdict:
    t = _one_tool(answer)
    if isinstance(t, Verdict):
        return t
    got, want = t.spec.to_openai()["function"], target_schema()["function"]
    for key in ("name", "description"):
        if got.get(key) != want.get(key):
            return wrong(f"{key}: yours is {got.get(key)!r}, the target's is {want.get(key)!r}")
    gp, wp = got.get("parameters") or {}, want["parameters"]
    if sorted(gp.get("required", [])) != sorted(wp.get("required", [])):
        return wrong(
            f"required: yours is {gp.get('required', [])}, the target's is {wp.get('required', [])}"
            + _required_why(gp.get("required", []), wp.get("required", []))
        )
    for name, prop in wp["properties"].items():
        mine = gp.get("properties", {}).get(name)
        if mine is None:
            return wrong(f"the target has a parameter {name!r}; yours has {list(gp.get('properties', {}))}")
        if mine != prop:
            return wrong(f"parameter {name!r}: yours is {json.dumps(mine)}, the target's is {json.dumps(prop)}")
    if gp != wp:
        return wrong(f"extra parameters: {sorted(set(gp.get('properties', {})) - set(wp['properties']))}")
    if problem := _default_problem(t.function, wp["properties"]):
        return problem
    return right("the schema is identical to the target, key for key.")


def _required_why(yours: list[str], target: list[str]) -> str:
    """Which parameter is required in one `required` list and not the other, and how @tool decides it."""
    if more := [n for n in yours if n not in target]:
        return (
            f" — {_names(more)} {'is' if len(more) == 1 else 'are'} required in yours: @tool lists a parameter "
            "as required when it has no default"
        )
    if fewer := [n for n in target if n not in yours]:
        return (
            f" — {_names(fewer)} {'is' if len(fewer) == 1 else 'are'} not required in yours: a parameter "
            "with a default is optional"
        )
    return ""


def _names(names: list[str]) -> str:
    return ", ".join(repr(n) for n in names)


def _default_problem(fn: Any, properties: dict[str, Any]) -> Verdict | None:
    """The ✗ for a default written as another type than the schema shows (`limit: int = 10.0`, `= "10"`): @tool
    converts it, so the schema matches, yet the function called directly gets the value as written. None when each
    default is the schema's, type and all (numpy's whole numbers read as ints)."""
    for wire, written in _written_defaults(fn).items():
        if "default" not in properties.get(wire, {}):
            continue
        want, have = properties[wire]["default"], plain_value(written)
        if type(have) is not type(want) or have != want:
            return wrong(
                f"parameter {wire!r}: your default is written {show(written)}; the schema shows {json.dumps(want)} "
                f"because @tool converted it, but your function called directly gets {show(written)}: write the "
                f"default as the schema has it, {json.dumps(want)}"
            )
    return None


def _written_defaults(fn: Any) -> dict[str, Any]:
    """Each parameter's default as written in `fn`'s signature, by the name the model sees (a `Param(name=...)`'s,
    else its own); a pydantic `Field(...)` default is left out (pydantic reads it, not a direct call)."""
    import typing

    from pydantic.fields import FieldInfo

    if fn is None:
        return {}
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:  # a name the hints refer to that cannot be resolved here: the Python names are kept
        hints = {}
    written = {}
    for p in inspect.signature(fn).parameters.values():
        if p.default is p.empty or isinstance(p.default, FieldInfo):
            continue
        meta = getattr(hints.get(p.name), "__metadata__", ())
        wire = next((m.name for m in meta if isinstance(m, Param) and m.name), p.name)
        written[wire] = p.default
    return written


@answer_exercise(
    "w5.channels",
    "with the default Policies, which failures raise and which are fed back to the model?",
    answer={"unknown tool": "raise", "argument error": "raise", "execution error": "feed back"},
    comment='"raise" or "feed back"',
    hint="the defaults are LangChain4j's: a misconfiguration should be loud, a tool that fails at run time "
    "is something the model can react to.",
)
def check_channels(answer: Any) -> Verdict:
    from toolkit.chat.messages import ToolCall
    from toolkit.errors import ToolkitError
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import execute, tools_from

    @tool("Read an order.")
    def read_order(order_id: str) -> str:
        raise ConnectionError("db down")

    tools = tools_from(read_order)
    calls = {
        "unknown tool": ToolCall(id="1", name="cancel_order", arguments="{}"),
        "argument error": ToolCall(id="2", name="read_order", arguments='{"order_id": 1}'),
        "execution error": ToolCall(id="3", name="read_order", arguments='{"order_id": "SN1"}'),
    }
    if problem := dict_answer_problem(answer, calls, ("raise", "feed back")):
        return problem

    def channel(c: ToolCall) -> str:
        try:
            execute(c, tools)
        except ToolkitError:
            return "raise"
        return "feed back"

    found = misses(
        answer,
        {case: channel(c) for case, c in calls.items()},
        lambda case, said, actual: f"{case}: by default it is not {show(said)}",
    )
    return verdict_of(found, "two raise, one feeds back — FEED_BACK_ALL changes that.")
