"""The search-first wrapper through the real loop: hide, search, reveal, restore, errors."""

import json

import pytest

from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError
from toolkit.loop.run import COURSE, FOUND_TOOLS, LoopOptions, run_loop
from toolkit.loop.sources import StaticProvider
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory
from toolkit.search.catalog import catalog_tools, load_catalog
from toolkit.search.keyword import KeywordSearch
from toolkit.search.tool import ALWAYS_VISIBLE, FOUND_HEADER, NOT_FOUND_TEXT, ToolSearch
from toolkit.tools.decorator import tool
from toolkit.tools.execute import Policies, raise_error, tools_from
from toolkit.tools.reflect import ToolSpec


@tool("Cancel an order that has not shipped yet.")
def cancel_order(order_id: str) -> str:
    return f"order {order_id} cancelled"


@tool("Track a parcel by its tracking number.")
def track_shipment(tracking_number: str) -> str:
    return f"{tracking_number}: in transit"


@tool("Refund a payment to the original card.")
def refund_payment(payment_id: str) -> str:
    return f"{payment_id} refunded"


@tool("Hand the conversation to a human agent.", metadata={ALWAYS_VISIBLE: True})
def hand_over() -> str:
    return "a human will take over"


TOOLS = [cancel_order, track_shipment, refund_payment, hand_over]
ASK = [UserMessage(content="Please cancel order SO-1")]


def searching_model(*then):
    return ScriptedModel([call("tool_search_tool", terms=["cancel"]), *then])


def results(result):
    return [m for m in result.new_messages if isinstance(m, ToolResultMessage)]


def test_first_request_sees_only_the_search_tool_and_always_visible_ones():
    model = ScriptedModel(["hello"])
    context = ToolSearch().context(TOOLS)
    assert sorted(context.hidden) == ["cancel_order", "refund_payment", "track_shipment"]
    run_loop(model, ASK, context=context)
    assert model.requests[0].tools == ("hand_over", "tool_search_tool")


def test_search_result_lists_names_and_descriptions_and_records_found_tools():
    model = searching_model(call("cancel_order", order_id="SO-1"), "Cancelled.")
    result = run_loop(model, ASK, context=ToolSearch().context(TOOLS))
    found, done = results(result)
    assert found.content == f"{FOUND_HEADER}\n- cancel_order: Cancel an order that has not shipped yet."
    assert found.attributes == {FOUND_TOOLS: ["cancel_order"]} and not found.is_error
    assert model.requests[1].tools == ("cancel_order", "hand_over", "tool_search_tool")
    assert done.content == "order SO-1 cancelled" and result.answer == "Cancelled."


def test_nothing_found_is_an_ordinary_result_with_an_empty_list():
    model = ScriptedModel([call("tool_search_tool", terms=["teleport"]), "I cannot do that."])
    (found,) = results(run_loop(model, ASK, context=ToolSearch().context(TOOLS)))
    assert (found.content, found.attributes, found.is_error) == (NOT_FOUND_TEXT, {FOUND_TOOLS: []}, False)


def test_a_second_search_looks_only_at_what_is_still_hidden():
    search = ToolSearch()
    model = ScriptedModel(
        [
            call("tool_search_tool", terms=["order", "refund"]),
            call("tool_search_tool", terms=["order", "refund", "track"]),
            "ok",
        ]
    )
    run_loop(model, ASK, context=search.context(TOOLS))
    assert [o.found for o in search.outcomes] == [["cancel_order", "refund_payment"], ["track_shipment"]]
    assert [o.searched for o in search.outcomes] == [3, 1]


@pytest.mark.parametrize(
    "options", [LoopOptions(), COURSE, LoopOptions(policies=Policies(raise_error, raise_error, raise_error))]
)
def test_argument_mistakes_go_back_to_the_model_whatever_the_policies(options):
    model = ScriptedModel(
        [
            call("tool_search_tool", terms="cancel"),
            call("tool_search_tool", {}),
            call("tool_search_tool", terms=["cancel"]),
            call("cancel_order", order_id="SO-1"),
            "Cancelled.",
        ]
    )
    result = run_loop(model, ASK, context=ToolSearch().context(TOOLS), options=options)
    wrong_type, missing, found, _ = results(result)
    assert wrong_type.is_error and wrong_type.content == (
        "Tool argument 'terms' must be an array of strings. Call tool_search_tool again with arguments like "
        '{"terms": ["refund", "payment"]}.'
    )
    assert missing.is_error and missing.content.startswith("Missing required tool argument 'terms'. ")
    assert wrong_type.attributes == {} and found.attributes == {FOUND_TOOLS: ["cancel_order"]}
    assert result.answer == "Cancelled."


def test_invalid_json_goes_back_too():
    model = ScriptedModel([call("tool_search_tool", '{"terms": ['), "sorry"])
    (error,) = results(run_loop(model, ASK, context=ToolSearch().context(TOOLS)))
    assert error.is_error and error.content == (
        "Failed to parse tool search arguments as a JSON object: '{\"terms\": ['. Call tool_search_tool again "
        'with arguments like {"terms": ["refund", "payment"]}.'
    )


def test_arguments_nested_too_deeply_go_back_even_when_the_policies_raise():
    """Hostile-input audit #8: deep JSON raised RecursionError, which a raising policy turned into a stop."""
    strict = LoopOptions(policies=Policies(raise_error, raise_error, raise_error))
    deep = '{"terms": ' + "[" * 100_000 + "]" * 100_000 + "}"
    model = ScriptedModel([call("tool_search_tool", deep), "sorry"])
    (error,) = results(run_loop(model, ASK, context=ToolSearch().context(TOOLS), options=strict))
    assert error.is_error and error.content == (
        "Tool search arguments are nested too deeply to read. Call tool_search_tool again with arguments like "
        '{"terms": ["refund", "payment"]}.'
    )


def test_a_failure_inside_the_strategy_follows_the_execution_policy():
    class Broken(KeywordSearch):
        def search(self, index, terms, allowed=None):
            raise RuntimeError("index corrupted")

    model = ScriptedModel([call("tool_search_tool", terms=["x"]), "sorry"])
    (error,) = results(run_loop(model, ASK, context=ToolSearch(Broken()).context(TOOLS)))
    assert error.is_error and "index corrupted" in error.content and error.attributes == {}


def test_a_new_call_restores_found_tools_from_memory():
    memory = ChatMemory("customer-1")
    search = ToolSearch()
    run_loop(searching_model("Which order?"), ASK, context=search.context(TOOLS), memory=memory)
    later = ScriptedModel([call("cancel_order", order_id="SO-1"), "Cancelled."])
    result = run_loop(later, [UserMessage(content="SO-1")], context=search.context(TOOLS), memory=memory)
    assert later.requests[0].tools == ("cancel_order", "hand_over", "tool_search_tool")
    assert result.answer == "Cancelled."


def test_found_tools_survive_a_restart_through_sqlite(tmp_path):
    path = tmp_path / "memory.db"
    store = SqliteStore(path)
    run_loop(
        searching_model("Which order?"),
        ASK,
        context=ToolSearch().context(TOOLS),
        memory=ChatMemory("customer-1", store=store),
    )
    store.close()
    # "restart": a new store on the same file, a new wrapper, new tools
    store = SqliteStore(path)
    later = ScriptedModel([call("cancel_order", order_id="SO-1"), "Cancelled."])
    run_loop(
        later,
        [UserMessage(content="SO-1")],
        context=ToolSearch().context(tools_from(*TOOLS)),
        memory=ChatMemory("customer-1", store=store),
    )
    assert later.requests[0].tools == ("cancel_order", "hand_over", "tool_search_tool")
    other = ScriptedModel(["hi"])
    run_loop(other, ASK, context=ToolSearch().context(TOOLS), memory=ChatMemory("customer-2", store=store))
    assert other.requests[0].tools == ("hand_over", "tool_search_tool")
    store.close()


def test_found_tools_of_a_removed_tool_are_ignored():
    memory = ChatMemory("m")
    memory.add(
        UserMessage(content="q"),
        AssistantMessage(tool_calls=(ToolCall(id="c", name="tool_search_tool", arguments="{}"),)),
        ToolResultMessage(
            tool_call_id="c", tool_name="tool_search_tool", content="…", attributes={FOUND_TOOLS: ["gone"]}
        ),
    )
    model = ScriptedModel(["ok"])
    run_loop(model, ASK, context=ToolSearch().context(TOOLS), memory=memory)
    assert model.requests[0].tools == ("hand_over", "tool_search_tool")


def test_providers_and_the_catalogue_work_through_the_same_wrapper():
    catalog = catalog_tools(load_catalog().tools)
    search = ToolSearch()
    model = ScriptedModel(
        [
            call("tool_search_tool", terms=["track", "package"]),
            call("track_shipment", tracking_number="1Z9"),
            "On its way.",
        ]
    )
    context = search.context(providers=[StaticProvider(catalog)])
    result = run_loop(model, ASK, context=context)
    assert len(model.requests[0].tools) == 1 and "track_shipment" in model.requests[1].tools
    assert json.loads(results(result)[1].content)["tool"] == "track_shipment"


def test_the_index_is_reused_while_the_catalogue_is_the_same():
    search = ToolSearch()
    first = search.index([t.spec for t in tools_from(*TOOLS)])
    assert search.index([t.spec for t in tools_from(*TOOLS)]) is first
    assert search.index([t.spec for t in tools_from(cancel_order)]) is not first


def test_a_catalogue_tool_named_like_the_search_tool_is_a_configuration_error():
    clash = tool("Not the real one.", name="tool_search_tool")(lambda: "x")
    with pytest.raises(ConfigurationError, match="tool_search_tool"):
        ToolSearch().context([clash])


def test_an_unknown_name_lists_the_tools_the_model_was_shown_not_the_held_back_ones():
    from toolkit.tools.execute import FEED_BACK_ALL, Tool
    from toolkit.tools.reflect import ToolSpec

    hidden = [Tool(ToolSpec(f"tool_{i}", f"does thing {i}"), lambda c, ctx: "ok") for i in range(300)]
    model = ScriptedModel([call("nonexistent"), call("tool_250"), "done"])
    search = ToolSearch(KeywordSearch())
    question = [UserMessage(content="q")]
    result = run_loop(model, question, context=search.context(hidden), options=LoopOptions(policies=FEED_BACK_ALL))
    unknown, direct = [m for m in result.messages if isinstance(m, ToolResultMessage)]
    assert unknown.content == "There is no tool named 'nonexistent'. Available tools: tool_search_tool."
    assert (direct.content, direct.is_error) == ("ok", False)  # a held-back tool named directly still runs


def test_a_renamed_search_tool_asks_to_be_called_again_by_the_name_the_model_used():
    """The retry text named `tool_search_tool` even when a wrapper had renamed the tool."""
    from toolkit import StaticProvider
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.loop.run import run_loop
    from toolkit.loop.wrappers import rename_tools
    from toolkit.search.tool import ToolSearch
    from toolkit.tools.decorator import tool

    @tool("Look up an order by its id.")
    def query_order(orderId: str) -> str:
        return "ok"

    searcher = ToolSearch().context(tools=[query_order]).available["tool_search_tool"]
    provider = rename_tools(StaticProvider([searcher]), {"tool_search_tool": "find_tools"})
    model = ScriptedModel([call("find_tools", terms="order"), "done"])
    result = run_loop(model, [UserMessage(content="hi")], providers=[provider])
    assert result.messages[2].content == (
        "Tool argument 'terms' must be an array of strings. Call find_tools again with arguments like "
        '{"terms": ["refund", "payment"]}.'
    )


def test_a_description_of_several_lines_stays_inside_its_tool_entry():
    """An OpenAPI description lists its parameters as "- status: ..." lines: written as they were, the
    model read them as more tools found. Each further line is indented under its tool; a blank
    description (spaces, line breaks) is no description."""
    specs = [
        ToolSpec("list_orders", "Lists orders.\n\nParameters:\n- status: filter by status\n- limit: at most this many"),
        ToolSpec("ship_order", "Ships an order.\r\nUse after payment.  "),
        ToolSpec("get_order", " \n "),
    ]
    search = ToolSearch()
    outcome = search.search(json.dumps({"terms": ["order"]}), search.index(specs))
    assert outcome.text() == (
        f"{FOUND_HEADER}\n"
        "- list_orders: Lists orders.\n\n  Parameters:\n  - status: filter by status\n  - limit: at most this many\n"
        "- ship_order: Ships an order.\n  Use after payment.\n"
        "- get_order"
    )
    assert [line for line in outcome.text().splitlines() if line.startswith("- ")] == [
        "- list_orders: Lists orders.",
        "- ship_order: Ships an order.",
        "- get_order",
    ]


@pytest.mark.parametrize(
    ("found", "shown"),
    [
        ("cancel_order", ("cancel_order",)),  # one name as a str: was read letter by letter, none revealed
        ([{"name": "cancel_order"}, "track_shipment"], ("track_shipment",)),  # a dict: was a raw TypeError
        (["cancel_order", None, 5, ["refund_payment"]], ("cancel_order",)),
        ({"cancel_order": True}, ()),  # no list of names: nothing
        (7, ()),
    ],
)
def test_found_tools_of_another_shape_in_memory_reveal_only_the_names_they_hold(found, shown):
    """A history written by another application (or by hand) may keep `found_tools` as one name, or
    hold objects: the call failed at its start with `unhashable type: 'dict'`, or a str revealed the
    tools named by its letters. Only names (str) are read; one str is one name."""
    memory = ChatMemory("m")
    memory.add(
        UserMessage(content="q"),
        AssistantMessage(tool_calls=(ToolCall(id="c", name="tool_search_tool", arguments="{}"),)),
        ToolResultMessage(tool_call_id="c", tool_name="tool_search_tool", content="…", attributes={FOUND_TOOLS: found}),
    )
    model = ScriptedModel(["ok"])
    run_loop(model, ASK, context=ToolSearch().context(TOOLS), memory=memory)
    sent = {*shown, "hand_over", "tool_search_tool"}
    registered = ("cancel_order", "track_shipment", "refund_payment", "hand_over", "tool_search_tool")
    assert model.requests[0].tools == tuple(name for name in registered if name in sent)


SLIPS = {
    "double-encoded": lambda value: json.dumps(json.dumps(value)),  # a JSON string holding the object
    "trailing-commas": lambda value: json.dumps(value)[:-1] + ",}",
    "single-quotes": lambda value: json.dumps(value).replace('"', "'"),
    "fenced": lambda value: f"```json\n{json.dumps(value)}\n```",  # as some open models write arguments
}


@pytest.mark.parametrize("slip", SLIPS)
def test_the_search_tool_reads_its_arguments_as_leniently_as_every_other_tool(slip):
    """A gateway that double-encodes arguments (or a model writing trailing commas, single quotes, a
    fence) had every tool's call read (`json_repair`) but the search tool's: 'Failed to parse tool search
    arguments as a JSON object', again on every retry, so no tool was ever found. Strict out: what is
    read is checked as before."""
    written = SLIPS[slip]
    model = ScriptedModel(
        [
            call("tool_search_tool", written({"terms": ["cancel"]})),
            call("cancel_order", written({"order_id": "SO-1"})),
            call("tool_search_tool", written({"terms": "cancel"})),
            "Cancelled.",
        ]
    )
    found, cancelled, wrong = results(run_loop(model, ASK, context=ToolSearch().context(TOOLS)))
    assert not found.is_error and found.attributes == {FOUND_TOOLS: ["cancel_order"]}, found.content
    assert cancelled.content == "order SO-1 cancelled"
    assert wrong.is_error and wrong.content.startswith("Tool argument 'terms' must be an array of strings. ")


def test_search_arguments_past_every_tool_s_size_limit_go_back_named():
    from toolkit.tools.json_repair import MAX_CHARS

    arguments = json.dumps({"terms": ["a" * MAX_CHARS]})
    model = ScriptedModel([call("tool_search_tool", arguments), "sorry"])
    (error,) = results(run_loop(model, ASK, context=ToolSearch().context(TOOLS)))
    assert error.is_error and error.content == (
        f"Tool search arguments are too long to read ({len(arguments):,} characters, at most {MAX_CHARS:,}). "
        'Call tool_search_tool again with arguments like {"terms": ["refund", "payment"]}.'
    )
