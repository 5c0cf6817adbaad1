"""Week 9 exercises: renaming, a provider chain, a server that dies, names the chat API refuses,
a call that hangs.

Every check talks to real MCP servers: week 3's shop served in-process (`shop_server`), a
stdio process that exits at once, and an in-process server whose tools never answer.

Leaves out: the HTTP transport (the same client over another transport; the week-9 notebook
starts `toolkit mcp-server --http` and connects to it).
"""

import datetime
import sys
from typing import Any

from toolkit.exercises.answers import counted, dict_answer_problem, misses, number_problem, same_text
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import Verdict, attempt, exercise, right, wrong
from toolkit.exercises.values import show

TODAY = datetime.date(2026, 10, 25)


def shop_provider(received: list[str] | None = None) -> Any:
    """A provider of the shop server's tools; the name of each tool the server is asked to run is added to
    `received`, when given."""
    from toolkit.mcp.client import McpClient
    from toolkit.mcp.provider import McpToolProvider
    from toolkit.mcp.server import shop_server

    client = McpClient(shop_server(TODAY), name="shop")
    if received is not None:
        call_tool = client.call_tool

        def recorded(name: str, arguments: dict[str, Any], timeout: float | None = None) -> Any:
            received.append(name)
            return call_tool(name, arguments, timeout=timeout)

        client.call_tool = recorded  # type: ignore[method-assign]
    return McpToolProvider([client])


@answer_exercise(
    "w9.rename",
    'after rename_tools(shop, {"query_order": "order_lookup"}): which name does the model call, which does the '
    "server receive?",
    answer={"the model calls": "order_lookup", "the server receives": "query_order"},
    hint="renaming changes what the model sees; the call is translated back for the server.",
)
def check_rename(answer: Any) -> Verdict:
    from toolkit.loop.sources import ProviderRequest
    from toolkit.mcp.provider import original_name, rename_tools

    shop = shop_provider()
    try:
        tools = {t.name: t for t in rename_tools(shop, {"query_order": "order_lookup"}).provide(ProviderRequest(()))}
    finally:
        shop.close()
    renamed = tools["order_lookup"]
    actual = {"the model calls": renamed.name, "the server receives": original_name(renamed)}
    if problem := dict_answer_problem(answer, actual):
        return problem
    if not misses(answer, actual, lambda key, said, real: key):
        return right("the model sees order_lookup; the server still gets query_order.")
    return wrong("; ".join(misses(answer, actual, lambda key, said, real: f"{key}: not {show(said)}")))


@exercise(
    "w9.chain",
    9,
    "write",
    "write expose(provider) so the model sees only query_order, renamed order_lookup, and calling it works",
    starter="""
        from toolkit.exercises import check
        from toolkit.mcp.provider import always_visible, filter_tools, rename_tools


        def expose(provider):
            return ...   # wrap provider with filter_tools / rename_tools


        check("w9.chain", expose)
        """,
    solution="""
        from toolkit.exercises import check
        from toolkit.mcp.provider import always_visible, filter_tools, rename_tools


        def expose(provider):
            return rename_tools(filter_tools(provider, {"query_order"}), {"query_order": "order_lookup"})


        check("w9.chain", expose)
        """,
    hint="filter_tools and rename_tools take a tool's current name, the one the provider they wrap gives it "
    "(here the server's own, query_order); filter first, then rename.",
)
def check_chain(fn: Any) -> Verdict:
    from toolkit.chat.messages import ToolCall
    from toolkit.errors import ConfigurationError, ToolDefinitionError
    from toolkit.loop.sources import ProviderRequest, check_provider, provided

    received: list[str] = []  # the tools the server ran
    shop = shop_provider(received)
    try:
        exposed = attempt(fn, shop)
        if isinstance(exposed, type):  # its provide() is a plain function: the request would be its `self`
            return wrong(
                f"expose() returned the class {exposed.__name__} itself, not a provider made with it: return an "
                f"instance ({exposed.__name__}(provider)), as filter_tools / rename_tools return one"
            )
        if not callable(getattr(exposed, "provide", None)):
            return wrong(
                f"expose() returned {show(exposed)}, not a tool provider; return the provider that "
                "filter_tools / rename_tools give"
            )
        try:  # as the loop asks a provider: provide(request), its tools checked
            check_provider(exposed)
            tools = provided(exposed, ProviderRequest(()))
        except (ToolDefinitionError, ConfigurationError) as error:
            return wrong(str(error))
        names = [t.name for t in tools]
        if names != ["order_lookup"]:
            return wrong(f"the model sees {names}{_seen_tip(names)}")
        result = tools[0].execute(ToolCall(id="c1", name="order_lookup", arguments='{"orderId": "SN202610200001"}'))
    finally:
        shop.close()
    if result.is_error or "SN202610200001" not in result.content:
        return wrong(f"calling order_lookup failed: {result.content[:100]}")
    if "query_order" not in received:  # a tool of the learner's own, named order_lookup, answered instead
        return wrong(
            "calling order_lookup never reached the server's query_order: the provider expose() returns must pass "
            "the call on to the provider it is given (filter_tools and rename_tools do), not answer it with a tool "
            "of its own"
        )
    return right("one tool, the new name, and the server still runs query_order.")


def _seen_tip(names: list[str]) -> str:
    """What is wrong with the tools `expose()` lets the model see, when they are not just order_lookup: more than
    one (no filter), the server's own name (no rename), a spelling that differs in case, or another name."""
    if len(names) > 1:
        kept = "renamed order_lookup" if "order_lookup" in names else "then rename it order_lookup (rename_tools)"
        return f": keep only query_order (filter_tools), {kept}"
    if not names:
        return ": keep query_order (filter_tools), renamed order_lookup (rename_tools)"
    if names[0] == "query_order":
        return ": rename it order_lookup (rename_tools)"
    if names[0].casefold() == "order_lookup":
        return ": name it exactly order_lookup (a tool's name is compared as written, case and all)"
    return ": the one tool it sees is named order_lookup"


@answer_exercise(
    "w9.dead_server",
    "a provider of two servers, one of which exits at start-up: how many tools does provide() list?",
    answer=3,
    comment="a number (the shop server offers 3 tools)",
    hint="by default a server that cannot be reached is left out (with a warning), and the others still work.",
)
def check_dead_server(answer: Any) -> Verdict:
    import logging

    from toolkit.mcp.client import McpClient
    from toolkit.mcp.provider import McpToolProvider
    from toolkit.mcp.server import shop_server

    dead = McpClient.stdio(sys.executable, ["-c", "import sys; sys.exit('config file missing')"], name="billing")
    shop = McpClient(shop_server(TODAY), name="shop")
    provider = McpToolProvider([dead, shop])
    logging.disable(logging.WARNING)
    try:
        n = len(provider.provide())
    finally:
        logging.disable(logging.NOTSET)
        provider.close()
    if problem := number_problem(answer):
        return problem
    if answer == n:
        return right(f"{n}: the dead server is skipped; fail_if_one_server_fails=True would raise instead.")
    if answer == 0:
        return wrong("one dead server does not take the others down")
    if answer > n:  # the dead server counted as if it had tools to offer
        return wrong(
            f"provide() did not list {counted(answer, 'tool')}: that is more than it lists — the server that exited "
            "at start-up never answered, so it lists no tools"
        )
    return wrong(f"provide() did not list {counted(answer, 'tool')}")


@answer_exercise(
    "w9.dotted_name",
    'an MCP server offers a tool named "find.customer": under which name does the model see it?',
    answer="find_customer",
    comment="a tool name",
    hint="the chat API accepts names of letters, digits, _ and - only.",
)
def check_dotted_name(answer: Any) -> Verdict:
    from toolkit.mcp.provider import openai_name

    actual = openai_name("find.customer")
    if same_text(answer, actual):
        return right(f"{actual!r}; original_name() still gives 'find.customer' for the server.")
    if same_text(answer, "find.customer"):
        return wrong("a dot is not allowed in a chat-API tool name: the provider translates it")
    return wrong(f"the model does not see {show(answer)}")


HUNG_TIMEOUT_S = 0.3


def hung_server() -> Any:
    """An in-process MCP server whose two tools never answer in time: charge_card and get_balance."""
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server

    amount = {"type": "object", "properties": {"amount": {"type": "number"}}}
    tools = [
        types.Tool(name="charge_card", description="Charge the customer's card.", input_schema=amount),
        types.Tool(
            name="get_balance",
            description="Read the customer's balance.",
            input_schema={"type": "object", "properties": {}},
            annotations=types.ToolAnnotations(readOnlyHint=True),
        ),
    ]

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: Any) -> Any:
        await anyio.sleep(60)  # the work may be done, but no answer comes back in time
        return types.CallToolResult(content=[types.TextContent(text="done")])

    return Server("payments", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def hung_results() -> dict[str, Any]:
    """What the model receives for each hung tool, called through McpToolProvider(timeout=0.3)."""
    from toolkit.chat.messages import ToolCall
    from toolkit.mcp.client import McpClient
    from toolkit.mcp.provider import McpToolProvider

    provider = McpToolProvider([McpClient(hung_server(), name="payments")], timeout=HUNG_TIMEOUT_S)
    try:
        tools = {t.name: t for t in provider.provide()}
        return {
            name: tools[name].execute(ToolCall(id=f"c{i}", name=name, arguments=arguments))
            for i, (name, arguments) in enumerate((("charge_card", '{"amount": 99}'), ("get_balance", "{}")))
        }
    finally:
        provider.close()


HUNG_KEYS = ("is_error", "the outcome is known", "charge_card: call again?", "get_balance: call again?")


@exercise(
    "w9.hung_call",
    9,
    "predict",
    "a charge_card call never answers and McpToolProvider(timeout=0.3) gives up: what does the model receive?",
    starter="""
        from toolkit.exercises import check

        # McpToolProvider([payments], timeout=0.3): both tools hang for a minute.
        # charge_card has no annotations; get_balance is marked readOnlyHint=True.
        answer = {
            "is_error": ...,                   # True or False: is charge_card's result an error result?
            "the outcome is known": ...,       # True or False: does the result say whether the card was charged?
            "charge_card: call again?": ...,   # True or False: does its result say calling again is safe?
            "get_balance: call again?": ...,   # True or False
        }
        check("w9.hung_call", answer)
        """,
    solution="""
        from toolkit.exercises import check

        answer = {
            "is_error": True,                    # a timeout is not a success
            "the outcome is known": False,       # cancelling undoes nothing the server already did
            "charge_card: call again?": False,   # not read-only, not idempotent: it could charge twice
            "get_balance: call again?": True,    # readOnlyHint: reading twice is harmless
        }
        check("w9.hung_call", answer)
        """,
    hint="the client cancels the call, but cannot know what the server did before; whether a second call is "
    "safe comes from the tool's MCP annotations (readOnlyHint, idempotentHint).",
)
def check_hung_call(answer: Any) -> Verdict:
    if problem := dict_answer_problem(answer, HUNG_KEYS, (True, False)):
        return problem
    results = hung_results()
    charge = results["charge_card"]
    actual = {
        "is_error": charge.is_error,
        "the outcome is known": "outcome is unknown" not in charge.content,
        "charge_card: call again?": "calling it again is safe" in charge.content,
        "get_balance: call again?": "calling it again is safe" in results["get_balance"].content,
    }
    why = {
        "is_error": "a call that timed out is an error result: treating it as a success would let the model "
        "tell the user the card was charged",
        "the outcome is known": "the server may have charged the card before the call was cancelled: the "
        "result says the outcome is unknown",
        "charge_card: call again?": "charge_card is not marked read-only or idempotent: a second call could "
        "charge twice, so the result says not to call it again",
        "get_balance: call again?": "get_balance is marked readOnlyHint, so the result says calling again is safe",
    }
    found = misses(answer, actual, lambda key, said, real: why[key])
    if found:
        return wrong("; ".join(found) + f". charge_card's result reads: {charge.content}")
    return right(f"the model reads: {charge.content}")
