"""Week 9 exercises: renaming, a provider chain, a server that dies, names the chat API refuses.

Every check talks to real MCP servers: week 3's shop served in-process (`shop_server`), and a
stdio process that exits at once.

Leaves out: the HTTP transport and hung calls (the week-9 notebook shows both).
"""

import datetime
import sys
from typing import Any

from toolkit.exercises.core import Verdict, attempt, exercise, right, wrong

TODAY = datetime.date(2026, 10, 25)


def shop_provider() -> Any:
    from toolkit.mcp.client import McpClient
    from toolkit.mcp.provider import McpToolProvider
    from toolkit.mcp.server import shop_server

    return McpToolProvider([McpClient(shop_server(TODAY), name="shop")])


@exercise(
    "w9.rename",
    9,
    "predict",
    'after rename_tools(shop, {"query_order": "order_lookup"}): which name does the model call, which does the '
    "server receive?",
    starter="""
        from toolkit.exercises import check

        answer = {"the model calls": ..., "the server receives": ...}
        check("w9.rename", answer)
        """,
    solution="""
        from toolkit.exercises import check

        answer = {"the model calls": "order_lookup", "the server receives": "query_order"}
        check("w9.rename", answer)
        """,
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
    if answer == actual:
        return right("the model sees order_lookup; the server still gets query_order.")
    if not isinstance(answer, dict) or set(answer) != set(actual):
        return wrong(f"answer with a dict with keys {', '.join(actual)}")
    return wrong("; ".join(f"{k}: {v!r}" for k, v in actual.items()))


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
    hint="filter by the server's own names, then rename.",
)
def check_chain(fn: Any) -> Verdict:
    from toolkit.chat.messages import ToolCall

    shop = shop_provider()
    try:
        tools = attempt(fn, shop).provide()
        names = [t.name for t in tools]
        if names != ["order_lookup"]:
            return wrong(f"the model sees {names}")
        result = tools[0].execute(ToolCall(id="c1", name="order_lookup", arguments='{"orderId": "SN202610200001"}'))
    finally:
        shop.close()
    if result.is_error or "SN202610200001" not in result.content:
        return wrong(f"calling order_lookup failed: {result.content[:100]}")
    return right("one tool, the new name, and the server still runs query_order.")


@exercise(
    "w9.dead_server",
    9,
    "predict",
    "a provider of two servers, one of which exits at start-up: how many tools does provide() list?",
    starter="""
        from toolkit.exercises import check

        answer = ...   # a number (the shop server offers 3 tools)
        check("w9.dead_server", answer)
        """,
    solution="""
        from toolkit.exercises import check

        answer = 3
        check("w9.dead_server", answer)
        """,
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
    if answer == n:
        return right(f"{n}: the dead server is skipped; fail_if_one_server_fails=True would raise instead.")
    if answer == 0:
        return wrong(f"one dead server does not take the others down: {n} tools")
    return wrong(f"provide() listed {n} tools")


@exercise(
    "w9.dotted_name",
    9,
    "predict",
    'an MCP server offers a tool named "find.customer": under which name does the model see it?',
    starter="""
        from toolkit.exercises import check

        answer = ...   # a tool name
        check("w9.dotted_name", answer)
        """,
    solution="""
        from toolkit.exercises import check

        answer = "find_customer"
        check("w9.dotted_name", answer)
        """,
    hint="the chat API accepts names of letters, digits, _ and - only.",
)
def check_dotted_name(answer: Any) -> Verdict:
    from toolkit.mcp.provider import openai_name

    actual = openai_name("find.customer")
    if answer == actual:
        return right(f"{actual!r}; original_name() still gives 'find.customer' for the server.")
    if answer == "find.customer":
        return wrong("a dot is not allowed in a chat-API tool name: the provider translates it")
    return wrong(f"the model sees {actual!r}")
