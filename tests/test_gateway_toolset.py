"""A request's tool list, read once: the same answers as reading it every time, a bounded store."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.course.accuracy import load_cases
from toolkit.gateway import generic, toolset
from toolkit.gateway.core import GatewayConfig, respond
from toolkit.gateway.decide import decide
from toolkit.gateway.generic import pick
from toolkit.gateway.rules import load_rules
from toolkit.gateway.toolset import ToolSet, prepare
from toolkit.gateway.validate import RequestError, check_request
from toolkit.search.catalog import load_catalog
from toolkit.tokens import estimate_tokens

RULES = load_rules()
CATALOG = load_catalog()
TOOLS = [spec.to_openai() for spec in CATALOG.tools]
WORDS = sorted(
    {w for q in CATALOG.queries for w in q.query.split()}
    | {"天气", "会议", "订单", "时间", "the", "a", "time", "12:00", "UTC", "Tokyo", "dollars", "42", "record"}
    | {"rain", "train", "model", "weather", "get_weather", "getweather", "e-mail", "mail", "sunny"}
    | {"what's", "put", "calendar", "calendar?", "明天日历上有什么安排？"}
    | {"find", "movies", "flights", "search", "km", "mi", "5km", "FT", "convert"}
    | {"films", "film", "movie", "forecast", "reserve", "price", "cost"}  # synonyms: a verb alone gives way
    | {"trading", "shares", "quote", "股价", "TSLA", "ticker"}  # hints and a synonym to a stock tool
    | {"15%", "of", "80", "7", "times", "2+3", "加", "3/4"}  # a sum picks a calculator when no word finds a tool
    | {"提醒", "开会", "明天下午3点", "pizza", "reminder", "web"}  # tied by everything: the term written first
    | {"I", "have", "2 + 2", "kids", "我有"}  # a sum in a statement about oneself computes nothing
    | {"NVDA", "$AMZN", "NASA", "$F", "USD"}  # a ticker written picks a stock tool when no word finds a tool
)
SHOP = [
    {"type": "function", "function": {"name": n, "description": d, "parameters": {"type": "object", "properties": {}}}}
    for n, d in [("query_order", "查询订单"), ("query_logistics", "查询物流"), ("query_refund_policy", "退换货政策")]
]
ENUMS = {
    "type": "function",
    "function": {
        "name": "use_skill",
        "description": "Use one of the skills listed in the system prompt",
        "parameters": {
            "type": "object",
            "properties": {"skill": {"type": "string", "enum": ["refunds", "weather-report", "calendar", 7]}},
        },
    },
}


def _fn(name, description, properties, required):
    schema = {"type": "object", "properties": properties, "required": required}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}


ZONE = {"type": "string", "description": "IANA timezone name"}
# tools that tie by the words, which the arguments the text answers break (`generic.best_answered`)
TIED = [
    _fn("get_current_time", "Get current time in a timezone", {"timezone": ZONE}, ["timezone"]),
    _fn(
        "convert_time",
        "Convert time between timezones",
        {"source_timezone": ZONE, "time": {"type": "string"}, "target_timezone": ZONE},
        ["source_timezone", "time", "target_timezone"],
    ),
    _fn("get_record", "Get a record by number", {"n": {"type": "integer"}}, ["n"]),
    _fn("list_records", "Get a record list", {}, []),
    _fn("convert_units", "Convert an amount of dollars or units", {"amount": {"type": "number"}}, ["amount"]),
]
# names and descriptions whose words hold other words' letters (a term is found where a word starts only)
WORDED = [
    _fn("train_model", "Train a model on a dataset", {"dataset": {"type": "string"}}, ["dataset"]),
    _fn("getWeather", "Weather report (rainfall, sunny spells)", {"city": {"type": "string"}}, ["city"]),
    _fn("send_email", "Send an e-mail", {"to": {"type": "string"}}, ["to"]),
    _fn("pick_mode", "Pick a mode", {"mode": {"type": "string", "enum": ["strain", "rain-check", "retrain"]}}, []),
    # tied by "calendar": a question reads (`list_events`), whichever is listed first
    _fn("create_event", "Create a calendar event", {"title": {"type": "string"}}, ["title"]),
    _fn("list_events", "List the events on the calendar", {}, []),
]
# names whose verb two tools share ("find"): a term in a name's verb only scores 1, in its object 2; a unit's
# code shorter than a search term ("km") picks by its hints
VERBED = [
    _fn("find_flights", "Find flights to a city", {"city": {"type": "string"}}, ["city"]),
    _fn("search_movies", "Search films by title", {"query": {"type": "string"}}, ["query"]),
    _fn("find", "Find anything", {"query": {"type": "string"}}, ["query"]),
    _fn("convert_units", "Convert between units", {"value": {"type": "number"}}, ["value"]),
    _fn("convert_currency", "Convert between currencies", {"amount": {"type": "number"}}, ["amount"]),
    _fn("get_forecast", "Get the weather forecast", {"city": {"type": "string"}}, ["city"]),
    _fn("get_price", "Get a stock price", {"ticker": {"type": "string"}}, ["ticker"]),
    _fn("quote", "Get a quote", {"symbol": {"type": "string"}}, ["symbol"]),
    _fn("calculate", "Evaluate a math expression", {"expression": {"type": "string"}}, ["expression"]),
]
# tied by the words, the object and the answers: the tool the text names first (`generic.first_named`)
FIRST = [
    _fn("list_events", "List calendar events", {"date": {"type": "string"}}, ["date"]),
    _fn("set_reminder", "Set a reminder", {"time": {"type": "string"}, "message": {"type": "string"}}, ["time"]),
    _fn("order_pizza", "Order a pizza for delivery", {"size": {"type": "string"}}, ["size"]),
    _fn("web_search", "Search the web for information", {"query": {"type": "string"}}, ["query"]),
]
CONTEXT = "Skills: refunds — handle a refund request. weather-report — a forecast for a city. calendar: book a meeting."


@pytest.fixture(autouse=True)
def empty_store():
    toolset.clear()
    yield
    toolset.clear()


def _offered_plainly(tools):
    return {
        t["function"]["name"]: toolset.ToolInfo(
            t["function"].get("description") or "", t["function"].get("parameters") or {}
        )
        for t in tools
    }


def _unruled(tools):
    return {n: i for n, i in _offered_plainly(tools).items() if n not in RULES.ruled_tools}


@settings(max_examples=300, deadline=None)
@given(
    indices=st.lists(st.integers(0, len(TOOLS) - 1), min_size=1, max_size=12),
    words=st.lists(st.sampled_from(WORDS) | st.text(max_size=6), max_size=6),
    extra=st.sampled_from(
        [[], [ENUMS], SHOP, [ENUMS, *SHOP], TIED, TIED[::-1], [*TIED[2:], ENUMS, *TIED[:2]], WORDED, WORDED[::-1]]
        + [VERBED, VERBED[::-1], FIRST, FIRST[::-1]]
    ),
    context=st.sampled_from(["", CONTEXT, "refunds calendar"]),
)
def test_prepared_pick_is_the_plain_pick(indices, words, extra, context):
    tools = [TOOLS[i] for i in indices] + extra
    text = " ".join(words)
    prepared = prepare(tools)
    assert prepared is not None and prepared.problem is None
    assert prepared.pick(text, context, RULES) == pick(text, _unruled(tools), context, RULES)


@settings(max_examples=100, deadline=None)
@given(indices=st.lists(st.integers(0, len(TOOLS) - 1), min_size=2, max_size=10, unique=True), data=st.data())
def test_prepared_pick_among_a_part_is_the_plain_pick_of_that_part(indices, data):
    tools = [TOOLS[i] for i in indices] + [ENUMS, *TIED, *WORDED, *VERBED, *FIRST]
    names = [t["function"]["name"] for t in tools]
    among = set(data.draw(st.lists(st.sampled_from(names), min_size=1)))
    text = " ".join(data.draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5)))
    part = {n: i for n, i in _unruled(tools).items() if n in among}
    assert prepare(tools).pick(text, CONTEXT, RULES, among) == pick(text, part, CONTEXT, RULES)


def _conversations(count):
    """Shop and catalogue requests, some ending on a tool result, some forcing a choice."""
    rng = random.Random(5)
    questions = [c.question for c in load_cases()] + [q.query for q in CATALOG.queries]
    apps = [rng.sample(TOOLS, 8) + [ENUMS] for _ in range(3)] + [SHOP, SHOP + rng.sample(TOOLS, 4)]
    requests = []
    for n in range(count):
        tools = rng.choice(apps)
        messages = [{"role": "system", "content": CONTEXT}, {"role": "user", "content": rng.choice(questions)}]
        if n % 3 == 1:
            name = rng.choice(tools)["function"]["name"]
            call = {"id": "c1", "type": "function", "function": {"name": name, "arguments": "{}"}}
            result = f"Found: {rng.choice(tools)['function']['name']}. 状态：已发货"
            messages += [
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "c1", "content": result},
            ]
        request = {"model": "m", "tools": tools, "messages": messages}
        if n % 5 == 2:
            request["tool_choice"] = rng.choice(
                ["required", "none", {"type": "function", "function": {"name": tools[-1]["function"]["name"]}}]
            )
        requests.append(request)
    return requests


def test_decisions_are_the_same_with_the_list_read_once():
    for request in _conversations(400):
        assert decide(request, RULES, prepare(request["tools"])) == decide(request, RULES), request


def test_replies_are_the_same_byte_for_byte_whether_the_list_was_seen_before():
    config = GatewayConfig()
    for request in _conversations(60):
        toolset.clear()
        first = respond(request, config).encode()
        assert respond(copy.deepcopy(request), config).encode() == first  # read again, and kept
        assert respond(copy.deepcopy(request), config).encode() == first  # served from the store


def test_the_same_list_is_read_once_and_a_different_one_again():
    tools = [TOOLS[0], TOOLS[1]]
    first = prepare(tools)  # met once: read, not kept
    kept = prepare(copy.deepcopy(tools))  # met again: read and kept
    assert kept is not first and prepare(copy.deepcopy(tools)) is kept
    renamed = copy.deepcopy(tools)
    renamed[1]["function"]["description"] += "!"
    assert prepare(renamed) is not kept and prepare(renamed) is not kept
    assert prepare(None) is None


def test_tokens_are_those_of_the_compact_json():
    prepared = prepare(SHOP)
    assert prepared.compact.decode().startswith('[{"type":"function","function":{"name":"query_order"')
    assert prepared.tokens == estimate_tokens(prepared.compact.decode())


def test_a_bad_list_keeps_its_problem_and_raises_it_afresh_in_its_turn():
    bad = [{"type": "function", "function": {"name": "no spaces allowed"}}]
    prepared = prepare(bad)
    assert prepared.offered == {}
    assert prepared.problem == (
        "Invalid 'tools[0].function.name': string does not match pattern. "
        "Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.",
        "tools[0].function.name",
        "invalid_value",
    )
    with pytest.raises(RequestError) as first:
        prepared.raise_problem()
    with pytest.raises(RequestError) as second:
        prepared.raise_problem()
    assert first.value is not second.value and first.value.message == second.value.message
    # a message problem comes first, as without the prepared list
    request = {"model": "m", "tools": bad, "messages": [{"role": "robot", "content": "hi"}]}
    for tools in (None, prepared):
        with pytest.raises(RequestError, match="Invalid value: 'robot'"):
            check_request(request, tools)


def _nested(depth):
    deep: dict = {}
    node = deep
    for _ in range(depth):
        node["x"] = {}
        node = node["x"]
    return [{"type": "function", "function": {"name": "deep", "parameters": deep}}]


def test_a_list_too_deep_to_write_is_left_to_the_plain_path():
    tools = _nested(50_000)  # too deep for JSON on every Python (3.13's encoder writes 3,000 levels)
    assert prepare(tools) is None
    request = {"model": "m", "tools": tools, "messages": [{"role": "user", "content": "hi"}]}
    reply = respond(request, GatewayConfig())
    assert reply.status == 400 and b"nested too deeply" in reply.encode()


@pytest.mark.parametrize("depth", [300, 3_000, 50_000])
def test_a_deep_list_gets_the_same_reply_as_without_the_store(depth, monkeypatch):
    request = {"model": "m", "tools": _nested(depth), "messages": [{"role": "user", "content": "hi"}]}
    with_store = respond(request, GatewayConfig()).encode()
    monkeypatch.setattr("toolkit.gateway.core.prepare", lambda tools: None)
    assert respond(request, GatewayConfig()).encode() == with_store


def test_the_store_is_bounded_in_lists_and_in_bytes(monkeypatch):
    monkeypatch.setattr(toolset, "MAX_ENTRIES", 5)
    for n in range(12):
        for _ in range(2):  # kept from the second sighting on
            prepare([{"type": "function", "function": {"name": f"t{n}"}}])
    assert len(toolset._store) == 5
    assert [next(iter(p.offered)) for p in toolset._store.values()] == [f"t{n}" for n in range(7, 12)]
    toolset.clear()
    monkeypatch.setattr(toolset, "MAX_ENTRIES", 100)
    monkeypatch.setattr(toolset, "MAX_BYTES", 400)
    for n in range(12):
        for _ in range(2):
            prepare([{"type": "function", "function": {"name": f"t{n}", "description": "x" * 100}}])
    assert toolset._store_bytes <= 400 and sum(len(k) for k in toolset._store) == toolset._store_bytes
    monkeypatch.setattr(toolset, "MAX_LIST_BYTES", 50)
    big = [{"type": "function", "function": {"name": "big", "description": "y" * 100}}]
    assert isinstance(prepare(big), ToolSet) and prepare(big) is not prepare(big)


def test_a_list_is_kept_from_its_second_sighting_and_those_met_once_are_bounded(monkeypatch):
    """A new choice of tools in every request (a tool search's finds) is read and dropped with
    its request: the store keeps none of it, only a hash of each list met once (`MAX_SEEN`)."""
    monkeypatch.setattr(toolset, "MAX_SEEN", 3)
    lists = [[{"type": "function", "function": {"name": f"t{n}"}}] for n in range(5)]
    for tools in lists:
        prepare(tools)
    assert toolset._store == {} and len(toolset._seen) == 3
    assert all(type(key) is int for key in toolset._seen)
    prepare(copy.deepcopy(lists[0]))  # forgotten (the oldest of five): met once again, not kept
    assert toolset._store == {}
    again = prepare(copy.deepcopy(lists[4]))  # still remembered: kept now
    assert list(toolset._store.values()) == [again] and prepare(lists[4]) is again
    assert len(toolset._seen) <= 3


def test_a_bad_list_is_not_kept_so_it_cannot_make_a_good_one_look_bad():
    good = [{"type": "function", "function": {"name": "ok", "parameters": {"type": "object", "properties": {}}}}]
    same_json = tuple(good)  # not a list to `check_tools`, the same JSON array to `dumps`
    assert toolset.dumps(same_json) == toolset.dumps(good)
    config = GatewayConfig()
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    bad_reply = respond({**request, "tools": same_json}, config)
    assert bad_reply.status == 400 and toolset._store == {}
    assert respond({**request, "tools": good}, config).status == 200


def test_a_list_the_rules_cover_picks_nothing_and_reads_no_terms(monkeypatch):
    """Every tool is a shop tool: nothing is left to pick, so the text is not even read."""
    prepared = prepare(SHOP)
    assert prepared is not None
    monkeypatch.setattr(toolset, "pick_terms", lambda *_: pytest.fail("read the text for nothing"))
    assert prepared.pick("天气 weather 订单", CONTEXT, RULES) is None
    assert pick("天气 weather 订单", _unruled(SHOP), CONTEXT, RULES) is None


def test_enum_values_are_read_only_when_the_picker_needs_them():
    """A request the shop's rules answer never reads the list's `enum` values (most of a list sent
    once is such a request's); the picker reads them once, and the pick is the plain one's."""
    enum_tool = {
        "type": "function",
        "function": {
            "name": "set_units",
            "description": "Set the units",
            "parameters": {
                "type": "object",
                "properties": {"unit": {"type": "string", "enum": ["metric", "imperial"]}},
            },
        },
    }
    tools = [*SHOP, enum_tool]
    prepared = prepare(tools)
    shop = {"model": "m", "tools": tools, "messages": [{"role": "user", "content": "订单 SN202610200001 到哪了？"}]}
    assert decide(shop, RULES, prepared).calls and prepared._enums is None
    text = "please use imperial units"
    assert prepared.pick(text, CONTEXT, RULES) == pick(text, _unruled(tools), CONTEXT, RULES) == "set_units"
    assert prepared._enums == {"set_units": [["metric", "imperial"]]}


def test_the_tools_tokens_are_counted_only_for_a_reply_that_reports_usage():
    """A streamed request without `stream_options.include_usage` sends no token counts: its tool
    list's tokens are never counted; a plain reply's usage counts them, as `estimate_tokens` does."""
    request = {"model": "m", "tools": SHOP, "messages": [{"role": "user", "content": "hi"}]}
    prepared = prepare(SHOP)
    kept = prepare(copy.deepcopy(SHOP))  # the one the store keeps, which respond() gets
    assert respond({**request, "stream": True}, GatewayConfig()).status == 200 and kept._tokens is None
    assert respond(request, GatewayConfig()).status == 200
    assert kept._tokens == estimate_tokens(kept.compact.decode()) == prepared.tokens


FINDER = {
    "type": "function",
    "function": {
        "name": "tool_search_tool",
        "description": "Search the tools by keywords",
        "parameters": {"type": "object", "properties": {"terms": {"type": "array", "items": {"type": "string"}}}},
    },
}


@settings(max_examples=100, deadline=None)
@given(
    indices=st.lists(st.integers(0, len(TOOLS) - 1), min_size=1, max_size=10),
    extra=st.sampled_from([[], [FINDER], SHOP, [*SHOP, FINDER]]),
)
def test_the_prepared_tool_finder_is_the_plain_one_and_read_once(indices, extra):
    tools = [TOOLS[i] for i in indices] + extra
    prepared = prepare(tools)
    assert prepared is not None and prepared.problem is None
    plain = generic.tool_finder(_offered_plainly(tools), RULES)
    assert prepared.tool_finder(RULES) == plain
    if extra and extra[-1] is FINDER:
        assert plain is not None  # the finder is offered: some tool finds tools
    prepared.offered.clear()  # read once: the answer is kept, not read again from the tools
    assert prepared.tool_finder(RULES) == plain
