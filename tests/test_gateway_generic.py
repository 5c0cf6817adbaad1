"""The embedded gateway calls tools it was never written for: keyword pick, schema-filled arguments."""

import json
import re
from dataclasses import replace

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openai.types.chat import ChatCompletion

from toolkit.gateway import generic
from toolkit.gateway.core import GatewayConfig, respond
from toolkit.gateway.generic import fill_arguments, search_terms
from toolkit.gateway.rules import Facts, load_rules, read_text
from toolkit.search.keyword import KeywordSearch, clean_terms
from toolkit.skills.folders import Skill
from toolkit.skills.offer import Skills


def fn(name, description, properties, required=None, **extra):
    schema = {"type": "object", "properties": properties, "required": list(required or properties), **extra}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}


WEATHER = fn(
    "get_weather",
    "Get the current weather forecast for a city",
    {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
    required=["city"],
)
CALENDAR = [
    fn(
        "create_event",
        "Create a calendar event (a meeting or appointment) on a date",
        {
            "title": {"type": "string"},
            "date": {"type": "string", "format": "date"},
            "duration_minutes": {"type": "integer", "minimum": 15, "maximum": 480},
        },
    ),
    fn("list_events", "List the calendar events of one day", {"date": {"type": "string", "format": "date"}}),
]
# mcp-server-time's two tools, as its tools/list describes them
TIME = [
    fn(
        "get_current_time",
        "Get current time in a specific timezones",
        {
            "timezone": {
                "type": "string",
                "description": "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). "
                "Use 'Asia/Shanghai' as local timezone if no timezone provided by the user.",
            }
        },
    ),
    fn(
        "convert_time",
        "Convert time between timezones",
        {
            "source_timezone": {
                "type": "string",
                "description": "Source IANA timezone name (e.g., 'America/New_York')",
            },
            "time": {"type": "string", "description": "Time to convert in 24-hour format (HH:MM)"},
            "target_timezone": {"type": "string", "description": "Target IANA timezone name (e.g., 'Asia/Tokyo')"},
        },
    ),
]


def skills():
    made = [
        Skill(
            "logistics-complaint",
            "Handle a complaint about a delivery: a parcel stuck in transit, lost or damaged.",
            "body",
        ),
        Skill("refund-escalation", "Hand a refund request over to a human agent when the amount is high.", "body"),
    ]
    return Skills(made)


def ask(text, tools, system=None, mode="A", **extra):
    messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": text}]
    reply = respond({"model": "m", "messages": messages, "tools": tools, **extra}, GatewayConfig(mode=mode))
    assert reply.status == 200, reply.body
    message = ChatCompletion.model_validate(reply.body).choices[0].message
    return [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or ()]


def valid(calls, tools):
    """Every call's arguments validate against its tool's schema."""
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in tools}
    for name, arguments in calls:
        jsonschema.validate(arguments, schemas[name])
    return calls


def test_weather_in_english_and_chinese():
    assert valid(ask("What's the weather in Paris today?", [WEATHER]), [WEATHER]) == [
        ("get_weather", {"city": "Paris"})
    ]
    assert valid(ask("北京明天天气怎么样？", [WEATHER]), [WEATHER]) == [("get_weather", {"city": "北京"})]


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("现在UTC几点？", "UTC"),
        ("Asia/Tokyo现在几点？", "Asia/Tokyo"),
        ("帮我看看Europe/Berlin的时间", "Europe/Berlin"),
    ],
)
def test_a_timezone_written_right_against_chinese_is_read(text, zone):
    """Chinese is written without blanks, and `\\b` counts a Chinese character as a word character:
    the timezone fact found no boundary beside `UTC` in "现在UTC几点", and the call took the
    description's example (America/New_York) instead of the timezone the user named."""
    assert valid(ask(text, TIME), TIME) == [("get_current_time", {"timezone": zone})]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What time is it in Tokyo?", [("get_current_time", {"timezone": "Asia/Tokyo"})]),
        ("what time is it in los angeles?", [("get_current_time", {"timezone": "America/Los_Angeles"})]),
        (
            "Convert 09:30 from Tokyo to London",
            [
                (
                    "convert_time",
                    {"source_timezone": "Asia/Tokyo", "time": "09:30", "target_timezone": "Europe/London"},
                )
            ],
        ),
        # a zone written and a city named: each field its own, in the text's order
        (
            "Convert 14:00 from Asia/Tokyo to Paris",
            [
                (
                    "convert_time",
                    {"source_timezone": "Asia/Tokyo", "time": "14:00", "target_timezone": "Europe/Paris"},
                )
            ],
        ),
        # a small city the tz database does not name: asked about, never a guess (nor another city's zone, the
        # example); a major one keeps its zone's time (`zones.CITY_ZONES`); no place at all: the default the
        # description states ("Use 'Asia/Shanghai' ... if no timezone provided"), never its example (New York)
        ("What time is it in Lhasa?", []),
        ("What time is it in Beijing?", [("get_current_time", {"timezone": "Asia/Shanghai"})]),
        ("What's the time at the office?", [("get_current_time", {"timezone": "Asia/Shanghai"})]),
    ],
)
def test_a_city_named_for_a_timezone_field_is_its_iana_zone(text, expected):
    """A timezone field took the description's example (America/New_York) for "What time is it in Tokyo?",
    and "from Asia/Tokyo to Paris" gave the target Asia/Tokyo again: a city the tz database names is its zone."""
    assert valid(ask(text, TIME), TIME) == expected


@pytest.mark.parametrize("order", [1, -1])
@pytest.mark.parametrize(
    ("text", "name", "arguments"),
    [
        ("What time is 12:00 UTC in Tokyo?", "convert_time", ("UTC", "12:00", "Asia/Tokyo")),
        ("When it is 9:30 in London, what time is it in New York?", "convert_time", ("Europe/London", "09:30")),
        ("What time is it in Tokyo?", "get_current_time", ("Asia/Tokyo",)),
    ],
)
def test_a_tie_by_the_words_goes_to_the_tool_whose_arguments_the_text_answers(text, name, arguments, order):
    """Both time tools score alike by "time", and the first listed was called: "What time is 12:00 UTC in
    Tokyo?" asked for the current time in UTC, dropping 12:00 and Tokyo. A tie now goes to the tool whose
    required arguments the text all answers, then takes most of it, whichever is listed first."""
    tools = TIME[::order]
    calls = valid(ask(text, tools), tools)
    assert [c[0] for c in calls] == [name]
    assert tuple(calls[0][1].values())[: len(arguments)] == arguments


FIND_FLIGHTS = fn(
    "find_flights",
    "Find flights from an origin to a destination",
    {"origin": {"type": "string"}, "destination": {"type": "string"}, "date": {"type": "string", "format": "date"}},
)
TAXI = fn("book_taxi", "Book a taxi", {"pickup_location": {"type": "string"}, "dropoff_location": {"type": "string"}})


@pytest.mark.parametrize("order", [1, -1])
@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("book a flight from NYC to LAX tomorrow", "find_flights"),
        ("book me a taxi from the hotel to the station", "book_taxi"),
    ],
)
def test_a_tie_goes_to_the_tool_whose_object_the_user_names(text, name, order):
    """ "book a flight from NYC to LAX" scored `book_taxi` (book) and `find_flights` (flight) alike, and the first
    listed was called: a taxi. A tie goes to the tool whose name's object (the words after its verb) the user's
    words name, before the arguments the text answers (the taxi's places are given). The flight's day is given
    ("tomorrow"): without one the flight is asked about, not booked on a made-up day."""
    tools = [TAXI, FIND_FLIGHTS][::order]
    assert [c[0] for c in ask(text, tools)] == [name]
    # a word of a place the text names is no object: "new" of New York is no news
    news = fn("get_news", "Latest news headlines on a topic", {"topic": {"type": "string"}})
    tools = [news, *TIME][::order]
    assert [c[0] for c in ask("convert 14:30 from London to New York", tools)] == ["convert_time"]
    assert generic.object_hits("getCurrentTime", ["time", "get"]) == 1
    assert generic.object_hits("weather", ["weather"]) == 1


def test_a_tie_the_arguments_do_not_break_goes_to_the_first_listed():
    """Two tools alike by the words, of which the text answers neither (free text asks for nothing a text
    lacks; a text that gives no value tells nothing): the first listed, as before. A number given is an answer."""
    search = fn("search_records", "Look up a record", {"q": {"type": "string"}})
    listing = fn("list_records", "Look up a record", {})
    numbered = fn("get_record", "Look up a record", {"n": {"type": "integer"}})
    assert ask("look up the record", [search, listing])[0][0] == "search_records"
    assert ask("look up the record", [listing, search])[0][0] == "list_records"
    assert ask("look up the record", [numbered, listing]) == []  # get_record, first: it asks for its n, never given
    assert ask("look up record 42", [listing, numbered])[0] == ("get_record", {"n": 42})
    assert generic.answered(numbered["function"]["parameters"], "4 or 4", RULES) == (True, 1)
    assert generic.answered(listing["function"]["parameters"], "4 or 4", RULES) == (False, 0)
    # "rain" is in train_model's name: the tie stays the first listed's, not the tool no value answers
    weather = fn("get_weather", "Get the current weather for a city", {"city": {"type": "string"}})
    train = fn("train_model", "Train a machine learning model on a dataset", {"dataset": {"type": "string"}})
    assert ask("下雨了，我们去看电影吧", [weather, train]) == []


@pytest.mark.parametrize(
    "description",
    [
        "城市名，例如“上海”",
        "城市名，例如「上海」",
        "城市名，比如『上海』",
        "城市名，例如：「上海」",
        "City, e.g. '上海'",
    ],
)
def test_an_example_quoted_in_chinese_is_the_fallback_of_a_typed_field(description):
    """The example reader knew 例如 and 比如 and the curly quotes, but not the corner brackets
    Chinese also quotes with (and the `quoted` fact reads): `例如「上海」` was no example, and a
    city field with no place in the text took the user's whole sentence."""
    schema = {"type": "object", "properties": {"city": {"type": "string", "description": description}}}
    schema["required"] = ["city"]
    assert fill(schema, "明天会下雨吗") == {"city": "上海"}


def test_calendar_picks_by_words_and_fills_date_and_bounded_integer():
    calls = valid(ask('Schedule a meeting "Team sync" on 2026-12-01 for 30 minutes', CALENDAR), CALENDAR)
    assert calls == [("create_event", {"title": "Team sync", "date": "2026-12-01", "duration_minutes": 30})]
    assert ask("明天的日程有哪些？", CALENDAR)[0][0] in ("create_event", "list_events")


def test_mcp_time_tools_take_facts_or_the_documented_example():
    assert valid(ask("What time is it in Europe/Berlin?", TIME), TIME) == [
        ("get_current_time", {"timezone": "Europe/Berlin"})
    ]
    # no timezone in the text: the default the description states ("Use 'Asia/Shanghai' ... if no timezone
    # provided"), never its example (New York) nor free text in a timezone field
    assert ask("现在几点了？", TIME) == [("get_current_time", {"timezone": "Asia/Shanghai"})]
    calls = valid(ask("Convert 09:30 from Asia/Tokyo to Europe/London", TIME), TIME)
    assert calls == [
        ("convert_time", {"source_timezone": "Asia/Tokyo", "time": "09:30", "target_timezone": "Europe/London"})
    ]


def test_a_skill_is_activated_by_its_description_in_the_system_prompt():
    offer = skills()
    tools = [t.spec.to_openai() for t in offer.management_tools()]
    system = offer.system_prompt()
    calls = ask("My parcel is stuck in transit, I want to complain", tools, system=system)
    assert valid(calls, tools) == [("activate_skill", {"name": "logistics-complaint"})]
    assert ask("包裹丢了，我要投诉", tools, system=system) == [("activate_skill", {"name": "logistics-complaint"})]
    assert ask("I need a human agent for my refund", tools, system=system) == [
        ("activate_skill", {"name": "refund-escalation"})
    ]


def test_the_search_tool_gets_the_users_words_as_terms():
    search = KeywordSearch().spec.to_openai()
    calls = valid(ask("Search for a tool to convert currency", [search]), [search])
    assert calls == [("tool_search_tool", {"terms": ["search", "tool", "convert", "currency"]})]


def test_a_tool_found_by_a_search_is_called_next():
    search, found = KeywordSearch().spec.to_openai(), WEATHER
    messages = [
        {"role": "user", "content": "Search the weather tool for London"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "tool_search_tool", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "get_weather: Get the current weather forecast for a city"},
    ]
    reply = respond({"model": "m", "messages": messages, "tools": [search, found]}, GatewayConfig())
    calls = ChatCompletion.model_validate(reply.body).choices[0].message.tool_calls
    assert [(c.function.name, json.loads(c.function.arguments)) for c in calls] == [("get_weather", {"city": "London"})]


@pytest.mark.parametrize(
    "text",
    ["hello", "你好", "谢谢", "Tell me a joke", "What is 2 + 2?", "今天心情不错"],
)
def test_questions_that_should_call_nothing(text):
    tools = [WEATHER, *CALENDAR, *TIME]
    assert ask(text, tools) == []


def test_shop_rules_still_come_first():
    shop = fn("query_order", "查询订单", {"orderId": {"type": "string"}})
    assert ask("订单 SN202610200001 的状态", [WEATHER, shop]) == [("query_order", {"orderId": "SN202610200001"})]
    # a shop question with no shop tool offered does not stray to an unrelated tool
    assert ask("我的订单 SN202610200001 到哪了", [WEATHER]) == []


def test_modes_apply_to_generic_calls_too():
    reply = respond(
        {"model": "m", "messages": [{"role": "user", "content": "weather in Paris"}], "tools": [WEATHER]},
        GatewayConfig(mode="E"),
    )
    assert reply.body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == "{city: Paris}"


# --- fill_arguments on its own -----------------------------------------------------------------

RULES = load_rules()


def fill(schema, text):
    return fill_arguments(schema, text, read_text(text, RULES), RULES)


def test_fill_follows_refs_any_of_enums_and_nested_objects():
    schema = {
        "type": "object",
        "$defs": {
            "Unit": {"enum": ["celsius", "fahrenheit"]},
            "Where": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
        "properties": {
            "unit": {"$ref": "#/$defs/Unit"},
            "where": {"$ref": "#/$defs/Where"},
            "days": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 7}, {"type": "null"}]},
            "flag": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "integer"}, "minItems": 2},
            "optional": {"type": "string"},
        },
        "required": ["unit", "where", "days", "flag", "tags"],
    }
    # (the place rule takes the first capitalised name after in/at/for: "in Fahrenheit" would win)
    arguments = fill(schema, "Forecast for Oslo in Fahrenheit, 3 days")
    jsonschema.validate(arguments, schema)
    assert arguments == {"unit": "fahrenheit", "where": {"city": "Oslo"}, "days": 3, "flag": False, "tags": [3, 3]}


def test_fill_respects_bounds_lengths_and_types():
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 10, "maximum": 20},
            "x": {"type": "number", "exclusiveMinimum": 0},
            "code": {"type": "string", "maxLength": 4},
        },
        "required": ["n", "x", "code"],
    }
    arguments = fill(schema, "give me 5 of them")
    jsonschema.validate(arguments, schema)
    assert arguments == {"n": 10, "x": 5, "code": "give"}


def test_search_terms_drop_stopwords_and_read_chinese():
    assert search_terms("What is the weather in Paris?", RULES) == ["weather", "paris"]
    assert search_terms("北京天气", RULES) == ["天气", "weather", "forecast", "北京", "京天"]


def plain_search_terms(text: str, rules) -> list[str]:
    """`search_terms` as first written: every term found, then `clean_terms` of them all."""
    generic = rules.generic
    terms = [
        w.strip("'-")
        for w in re.findall(r"[A-Za-z][A-Za-z0-9_'-]*", text)
        if len(w) >= generic.min_word and w.lower() not in generic.stopwords
    ]
    for word, translations in generic.glossary:
        if word in text:
            terms += [word, *translations]
    for run in re.findall(r"[\u4e00-\u9fff]+", text):
        kept = [ch not in generic.chinese_stop_chars for ch in run]
        terms += [run[i : i + 2] for i in range(len(run) - 1) if kept[i] and kept[i + 1]]
    return clean_terms(terms)


_WORDS = [
    "Weather",
    "the",
    "it's",
    "-re-",
    "Paris",
    "weather",
    "天气",
    "北京天气",
    "时区",
    "的",
    "查一下",
    "\t",
    "é",
    "ÉTÉ",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_WORDS) | st.text(max_size=6), max_size=8).map(" ".join))
def test_search_terms_equal_every_term_cleaned_at_the_end(text):
    assert search_terms(text, RULES) == plain_search_terms(text, RULES)


@settings(max_examples=400, deadline=None)
@given(
    text=st.lists(st.sampled_from([*_WORDS, "a", "ab", "3abc", "x1", "o'k", "--ab"]), max_size=8).map(" ".join)
    | st.text(alphabet="aAbK3_'- .\u212a天气", max_size=16),
    min_word=st.integers(0, 5),
)
def test_search_terms_find_the_words_long_enough_as_filtering_every_word_does(text, min_word):
    rules = replace(RULES, generic=replace(RULES.generic, min_word=min_word))
    assert search_terms(text, rules) == plain_search_terms(text, rules)


_CHINESE_TEXT = st.text(
    alphabet=st.sampled_from("北京天气的了吗查一下时区一鿿丁丐 ，。aB\u4dff\ua000")
    | st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
    max_size=40,
)


@settings(max_examples=400, deadline=None)
@given(
    text=_CHINESE_TEXT,
    stop=st.sets(
        st.sampled_from("的了吗一鿿丁京,a") | st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), max_size=6
    ),
)
def test_chinese_pieces_are_the_pairs_of_neighbours_without_a_stop_character(text, stop):
    """`_kept_pairs` (the range cut around each stop character, pairs found in C) against pairing
    each run of Chinese characters, character by character, whatever the stop characters (at the ends of
    the range, outside it, none)."""
    from unittest import mock

    from toolkit.gateway import generic

    rules = replace(RULES, generic=replace(RULES.generic, chinese_stop_chars=frozenset(stop)))
    assert search_terms(text, rules) == plain_search_terms(text, rules)
    for read in (1, 2, 3, 7):  # a pair across the end of a part read is found once, in the next part
        with mock.patch.object(generic, "_PIECES_READ", read):
            assert search_terms(text, rules) == plain_search_terms(text, rules)


def test_chinese_pieces_stop_at_the_most_terms_as_all_of_them_cut_would():
    """A long text: the first `_MAX_TERMS` terms, as every piece cleaned and then cut gives."""
    import random

    from toolkit.gateway.generic import _MAX_TERMS

    rng = random.Random(7)
    text = "".join(chr(rng.randrange(0x4E00, 0x9FFF)) + ("的" if rng.random() < 0.1 else "") for _ in range(3000))
    terms = search_terms("weather 天气 " + text, RULES)
    assert len(terms) == _MAX_TERMS
    assert terms == plain_search_terms("weather 天气 " + text, RULES)[:_MAX_TERMS]
    every = "".join(chr(c) for c in range(0x4E00, 0x4E00 + 50))
    none = replace(RULES, generic=replace(RULES.generic, chinese_stop_chars=frozenset(map(chr, range(0x4E00, 0xA000)))))
    assert search_terms(every, none) == plain_search_terms(every, none) == []


def test_search_terms_of_an_ascii_text_find_ascii_glossary_words():
    rules = replace(RULES, generic=replace(RULES.generic, glossary=(("tz", ("timezone",)), ("天气", ("weather",)))))
    assert search_terms("tz of Paris", rules) == plain_search_terms("tz of Paris", rules) == ["paris", "tz", "timezone"]


def test_fill_reads_labelled_lines_of_a_tool_result():
    schema = {
        "type": "object",
        "properties": {
            "status": {"type": "string"},
            "total_yuan": {"type": "number"},
            "items": {"type": "array", "items": {"type": "string"}},
            "shipDate": {"type": "string"},
        },
        "required": ["status", "total_yuan", "items", "shipDate"],
    }
    text = (
        "订单号：SN202610200001\n状态：已发货\n商品：智能手机 ×1（¥2999.00）\n实付金额：¥2999.00\nShip date: 2026-10-21"
    )
    assert fill(schema, text) == {
        "status": "已发货",
        "total_yuan": 2999.0,
        "items": ["智能手机 ×1（¥2999.00）"],
        "shipDate": "2026-10-21",
    }


def nodes(value) -> int:
    """How many values make up `value` (itself, and everything in it)."""
    if isinstance(value, dict):
        return 1 + sum(nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(nodes(v) for v in value)
    return 1


def test_a_schema_that_refers_to_itself_from_every_property_is_filled_within_the_budget():
    """Five required properties, each the whole schema again: 5**8 values at the depth limit
    alone. One call makes at most `_MAX_STEPS` values; past the budget, each property still to
    fill (five at each of the nine levels above it, at most) is None."""
    schema = {"type": "object", "properties": {f"p{i}": {"$ref": "#"} for i in range(5)}, "required": []}
    schema["required"] = list(schema["properties"])
    arguments = fill(schema, "widget report please")
    assert set(arguments) == {f"p{i}" for i in range(5)}
    assert generic._MAX_STEPS / 4 < nodes(arguments) <= generic._MAX_STEPS + 5 * 9


def written(value, seen=None) -> int:
    """`nodes(value)`, counted once per distinct list or dict (a value repeated in an array is one
    object many times over): how many values the JSON written from it holds, in linear time."""
    seen = {} if seen is None else seen
    if not isinstance(value, (dict, list)):
        return 1
    if id(value) not in seen:
        children = value.values() if isinstance(value, dict) else value
        seen[id(value)] = 1 + sum(written(v, seen) for v in children)
    return seen[id(value)]


@pytest.mark.parametrize("many", [10, 1000])
def test_an_array_of_itself_with_many_items_is_written_within_the_budget(many):
    """Before: `minItems` was reached by repeating one made item, whatever its size: an array of
    at least 10 arrays of itself wrote 10**9 values at the depth limit (the answer's JSON never
    ended; the gateway, which answers on one thread, answered nobody else). Each repeat now costs
    its size from the budget: past it, the array stops short."""
    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"]}
    schema["$defs"] = {"A": {"type": "array", "minItems": many, "items": {"$ref": "#/$defs/A"}}}
    arguments = fill(schema, "widget report please")
    assert written(arguments) <= 2 * generic._MAX_STEPS
    assert nodes(arguments) == written(arguments) and len(arguments["a"]) >= 1


def test_long_strings_repeated_in_arrays_of_arrays_are_written_within_the_budget():
    """1,000 arrays of 1,000 strings of 10,000 characters: 10 GB of JSON, made in a moment of one
    string and one array repeated. Each repeat costs its characters too: a few megabytes at most."""
    inner = {"type": "array", "minItems": 1000, "items": {"type": "string", "minLength": 10_000}}
    schema = {"type": "object", "properties": {"a": {"type": "array", "minItems": 1000, "items": inner}}}
    schema["required"] = ["a"]
    arguments = fill(schema, "widget report please")
    assert len(json.dumps(arguments)) <= generic._MAX_STEPS * generic._CHARS_A_STEP


def test_repeated_items_within_the_budget_are_all_made():
    schema = {"type": "object", "properties": {"a": {"type": "array", "minItems": 50, "items": {
        "type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "string"}}, "required": ["x", "y"]}}},
        "required": ["a"]}  # fmt: skip
    assert len(fill(schema, "widget report please")["a"]) == 50


def test_all_of_chains_and_cycles_are_followed_a_bounded_depth():
    """`allOf` of two references to the next definition, twenty deep (2**20 paths), and an
    `allOf` that refers to itself (it used to raise RecursionError: a 500)."""
    chain = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]} for i in range(20)}
    chain["d20"] = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
    assert fill({"$ref": "#/$defs/d0", "$defs": chain}, "x marks it") == {}  # past the depth limit: nothing required
    shallow = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]} for i in range(3)}
    shallow["d3"] = chain["d20"]
    assert fill({"$ref": "#/$defs/d0", "$defs": shallow}, "x marks it") == {"x": "x marks it"}
    cycle = {"$ref": "#/$defs/a", "$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}}}
    assert fill(cycle, "hello") == {}
    tool = fn("loop_tool", "hello tool", {})
    tool["function"]["parameters"] = cycle
    reply = respond(
        {"model": "m", "messages": [{"role": "user", "content": "hello tool"}], "tools": [tool]}, GatewayConfig()
    )
    assert reply.status == 200


def test_sizes_a_schema_asks_for_are_capped():
    schema = {
        "type": "object",
        "properties": {
            "xs": {"type": "array", "items": {"type": "integer"}, "minItems": 10**9},
            "s": {"type": "string", "minLength": 10**9},
        },
        "required": ["xs", "s"],
    }
    arguments = fill(schema, "widget")
    assert len(arguments["xs"]) == generic._MAX_ITEMS
    assert arguments["s"] == "widget" + "_" * (generic._MAX_CHARS - len("widget"))


def test_the_users_words_fill_a_string_at_most_a_thousand_characters_each():
    many = {f"field_{i}": {"type": "string"} for i in range(50)}
    text = "请帮我处理这个问题 " * 1000
    arguments = fill({"type": "object", "properties": many, "required": list(many)}, text)
    assert {len(v) for v in arguments.values()} == {generic._MAX_WORDS_CHARS}
    assert all(text.startswith(v) for v in arguments.values())


@pytest.mark.parametrize("before", ["", "x" * 5000 + " ", "a.b-c_d%e+" * 500 + " ", "@@ "])
def test_an_email_is_found_after_a_long_run_of_address_characters(before):
    schema = {"type": "object", "properties": {"email": {"type": "string"}}, "required": ["email"]}
    assert fill(schema, before + "write to first.last+tag@example.co.uk please") == {
        "email": "first.last+tag@example.co.uk"
    }


@pytest.mark.parametrize("seed", range(200))
def test_a_window_is_cut_where_the_next_value_starts_as_the_plain_search_cuts_it(seed):
    """Each other value is looked for only before the window's end (it was looked for in all the
    rest of the context: 16 s for 1,000 values named in a 38 KB prompt); the windows are the same."""
    import random

    rng = random.Random(seed)
    values = ["".join(rng.choice("ab c") for _ in range(rng.randrange(0, 4))) for _ in range(rng.randrange(1, 6))]
    context = "".join(rng.choice(["a", "b", " ", "c", "ab", "x" * 150]) for _ in range(rng.randrange(0, 12)))

    def plain(value):
        start = context.find(value) if value else -1
        if start == -1:
            return ""
        end = min(start + len(value) + generic._WINDOW, len(context))
        for other in values:
            at = context.find(other, start + len(value)) if other and other != value else -1
            if at != -1:
                end = min(end, at)
        return context[start + len(value) : end]

    assert [generic.window(v, values, context) for v in values] == [plain(v) for v in values]


def test_windows_are_each_values_window_looking_only_for_the_values_named():
    """`windows` looks each value up once and, in a window, only for the values the context
    holds (a prompt naming 2,000 values took 4.6 s); every window is `window`'s."""
    import random

    for seed in range(400):
        rng = random.Random(seed)
        values = ["".join(rng.choice("ab c") for _ in range(rng.randrange(0, 4))) for _ in range(rng.randrange(1, 12))]
        context = "".join(rng.choice(["a", "b", " ", "c", "ab", "x" * 150]) for _ in range(rng.randrange(0, 12)))
        assert generic.windows(values, context) == [generic.window(v, values, context) for v in values]


def test_only_the_first_values_named_get_a_window_within_the_first_characters(monkeypatch):
    monkeypatch.setattr(generic, "_MAX_NAMED", 2)
    monkeypatch.setattr(generic, "_MAX_CONTEXT", 40)
    values = ["red", "green", "blue", "pink"]
    context = "pink is loud. green is calm. red is hot. blue is cold."
    assert generic.windows(values, context) == [" is hot.", " is calm. ", "", ""]


def test_a_value_far_down_a_long_enum_is_still_pointed_at():
    zones = [f"Zone/City{i}" for i in range(600)]
    assert generic.pick_enum(zones, "meet me at Zone/City543 please", "", load_rules()) == "Zone/City543"


@pytest.mark.parametrize(
    ("values", "text", "expected"),
    [
        # a short value inside a longer word is no mention of it ("en" in "sentence", "s" in "shirt")
        (["en", "fr", "de"], "translate the sentence into de", "de"),
        (["s", "m", "l", "xl"], "order a shirt in size L", "l"),
        (["on", "off"], "turn the monitor off", "off"),
        (["c", "f"], "weather in Paris, in f", "f"),
        # a whole word, a value with blanks or signs, and Chinese are found as before
        (["economy", "premium economy", "business"], "premium economy please", "premium economy"),
        (["Zone/City1", "Zone/City2"], "meet at zone/city2.", "Zone/City2"),
        (["服装", "数码"], "手机是数码产品吗", "数码"),
        (["usd", "eur"], "pay in EUR!", "eur"),
    ],
)
def test_an_enum_value_is_mentioned_as_a_word_not_inside_a_longer_one(values, text, expected):
    assert generic.pick_enum(values, text, "", load_rules()) == expected


TOOL_SEARCH = fn(
    "tool_search_tool",
    "Finds available tools whose name or description contains given search terms",
    {"terms": {"type": "array", "items": {"type": "string"}}},
)
FIND_TOOLS = fn("find_tools", "Search the tool catalogue by a text query", {"query": {"type": "string"}})


def test_a_question_nothing_else_answers_searches_for_tools_first():
    # week 8's search first: with only a tool search offered, the question was answered with the shop's greeting
    assert ask("What's the weather in Paris?", [TOOL_SEARCH]) == [("tool_search_tool", {"terms": ["weather", "paris"]})]
    assert ask("Please cancel my order SO-10023", [TOOL_SEARCH]) == [
        ("tool_search_tool", {"terms": ["cancel", "order", "so-10023"]})
    ]
    [(name, arguments)] = ask("北京明天的天气怎么样", [TOOL_SEARCH])
    assert name == "tool_search_tool" and "weather" in arguments["terms"]
    assert ask("convert 100 USD to EUR", [FIND_TOOLS]) == [("find_tools", {"query": "convert 100 USD to EUR"})]


def test_a_tool_search_waits_for_the_tools_and_rules_that_answer_and_for_a_greeting():
    weather = WEATHER
    assert ask("What's the weather in Paris?", [TOOL_SEARCH, weather]) == [("get_weather", {"city": "Paris"})]
    order = fn("query_order", "查询订单", {"orderId": {"type": "string"}})
    assert ask("SN202610200001 什么状态", [TOOL_SEARCH, order]) == [("query_order", {"orderId": "SN202610200001"})]
    for greeting in ("你好", "hi", "谢谢", "我要投诉"):
        assert ask(greeting, [TOOL_SEARCH]) == []
    # a tool that searches something else is no tool search
    products = fn("search_products", "Search the product catalogue", {"query": {"type": "string"}})
    assert ask("what's the weather in Paris?", [products]) == []


THANKS_REPLY = "不客气！还有其他问题随时找我。"
GREETING_REPLY = "您好！我是售后助手，可以帮您查询订单状态、物流进度和退换货政策。请问有什么可以帮您？"
SMALL_TALK_REPLY = "好的！还有其他问题随时找我。"
# an English text reads the English reply (a decline's `reply_en`, the `default_en`)
THANKS_REPLY_EN = "You're welcome! Ask me any time you have another question."
GREETING_REPLY_EN = (
    "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. "
    "How can I help?"
)


def after_an_answer(text):
    """A weather question, its call and result, the answer, then `text`."""
    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}}
    return [
        {"role": "user", "content": "What's the weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "Paris: 18°C, sunny"},
        {"role": "assistant", "content": "It is 18°C and sunny in Paris."},
        {"role": "user", "content": text},
    ]


@pytest.mark.parametrize(
    "text, reply",
    [
        *[(t, THANKS_REPLY_EN) for t in ("thanks!", "Thank you so much!", "great, cheers", "awesome, thanks", "thx")],
        *[(t, THANKS_REPLY_EN) for t in ("thank you",)],
        *[(t, THANKS_REPLY) for t in ("好的，谢谢", "太感谢了")],
        *[(t, GREETING_REPLY_EN) for t in ("hey there", "Good morning!", "hello")],
        *[(t, GREETING_REPLY) for t in ("早上好", "嗨")],
        # English acknowledgements are stopwords: nothing to search for, the default reply (the greeting's text)
        *[(t, GREETING_REPLY_EN) for t in ("ok", "OK, got it.", "perfect", "bye!", "Great!", "cool, nice")],
        *[(t, SMALL_TALK_REPLY) for t in ("好的", "明白了", "再见", "嗯嗯，收到")],
    ],
)
def test_thanks_greetings_and_small_talk_get_a_short_reply_never_a_tool_call(text, reply):
    # English thanks were answered with the shop's greeting, and with a tool search offered most small talk
    # ("great, cheers", "perfect", "good morning", "明白了") was searched for as if it were a question
    tools = [WEATHER, *TIME, TOOL_SEARCH]
    for messages in ([{"role": "user", "content": text}], after_an_answer(text)):
        answer = respond({"model": "m", "messages": messages, "tools": tools}, GatewayConfig())
        message = ChatCompletion.model_validate(answer.body).choices[0].message
        assert (message.tool_calls, message.content) == (None, reply)


@pytest.mark.parametrize("text", ["ok, what's the weather in Paris?", "thanks! and the weather in Paris?"])
def test_small_talk_gives_way_to_a_question(text):
    assert ask(text, [WEATHER, TOOL_SEARCH]) == [("get_weather", {"city": "Paris"})]


CONVERT = fn(
    "convert_currency",
    "Convert an amount of money between currencies",
    {"amount": {"type": "number"}, "from_currency": {"type": "string"}, "to_currency": {"type": "string"}},
)


def follow_up(first, call, text, tools):
    """`first` answered by `call` (name, arguments) and its result, then the follow-up `text`."""
    made = {"id": "c1", "type": "function", "function": {"name": call[0], "arguments": json.dumps(call[1])}}
    messages = [
        {"role": "user", "content": first},
        {"role": "assistant", "content": None, "tool_calls": [made]},
        {"role": "tool", "tool_call_id": "c1", "content": "done"},
        {"role": "assistant", "content": "Here it is."},
        {"role": "user", "content": text},
    ]
    reply = respond({"model": "m", "messages": messages, "tools": tools}, GatewayConfig())
    message = ChatCompletion.model_validate(reply.body).choices[0].message
    return [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or ()]


PARIS = ("What's the weather in Paris in celsius?", ("get_weather", {"city": "Paris", "unit": "celsius"}))
AMOUNT = ("convert 100 USD to EUR", ("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}))


@pytest.mark.parametrize(
    "asked, text, expected",
    [
        (PARIS, "And in London?", ("get_weather", {"city": "London", "unit": "celsius"})),
        (PARIS, "What about Berlin?", ("get_weather", {"city": "Berlin", "unit": "celsius"})),
        (PARIS, "how about in new york?", ("get_weather", {"city": "new york", "unit": "celsius"})),
        (("北京天气怎么样", ("get_weather", {"city": "北京"})), "那上海呢？", ("get_weather", {"city": "上海"})),
        (("北京天气怎么样", ("get_weather", {"city": "北京"})), "广州的呢", ("get_weather", {"city": "广州"})),
        (AMOUNT, "and 250?", ("convert_currency", {**AMOUNT[1][1], "amount": 250})),
        (
            ("time in Asia/Tokyo", ("get_current_time", {"timezone": "Asia/Tokyo"})),
            "and Europe/Paris?",
            ("get_current_time", {"timezone": "Europe/Paris"}),
        ),
        (
            ("time in Asia/Tokyo", ("get_current_time", {"timezone": "Asia/Tokyo"})),
            "and in London?",
            ("get_current_time", {"timezone": "Europe/London"}),
        ),
    ],
)
def test_a_follow_up_without_a_keyword_calls_the_previous_turns_tool_with_what_it_changes(asked, text, expected):
    # "And in London?" after a weather call was answered with the shop's greeting, or searched for with a tool search
    tools = [WEATHER, *TIME, CONVERT, TOOL_SEARCH]
    assert follow_up(*asked, text, tools) == [expected]


def test_a_follow_up_call_carries_every_required_argument():
    # the previous call's arguments lacked the amount: the follow-up's call is still valid
    previous = ("convert_currency", {"from_currency": "USD", "to_currency": "EUR"})
    calls = follow_up("convert 100 USD to EUR", previous, "and 250?", [CONVERT])
    assert valid(calls, [CONVERT]) and calls == [("convert_currency", {**previous[1], "amount": 250})]


def test_a_follow_up_whose_call_would_send_its_words_as_a_currency_asks_for_it():
    # neither the previous call nor "and 250?" gives a currency: the question is no currency code
    assert follow_up("convert 100 USD to EUR", ("convert_currency", {}), "and 250?", [CONVERT]) == []


@pytest.mark.parametrize("text", ["What about tomorrow?", "ok", "明天呢？", "why?"])
def test_a_follow_up_that_changes_nothing_the_tool_takes_calls_nothing(text):
    assert follow_up(*PARIS, text, [WEATHER, *TIME, CONVERT]) == []
    # and a tool no longer offered is not called
    assert follow_up(*PARIS, "And in London?", [CONVERT]) == []


@pytest.mark.parametrize(
    "asked, text",
    [
        (PARIS, "What do you know about Python?"),
        (AMOUNT, "I have 3 cats"),
        (AMOUNT, "I was born in 1990"),
        (AMOUNT, "what is 2+2?"),
        (AMOUNT, "Is it 5 degrees?"),
    ],
)
def test_a_question_of_its_own_after_a_call_does_not_repeat_that_call(asked, text):
    # the follow-up carry-over took any later question for one: "I have 3 cats" after a conversion called
    # convert_currency(amount=3), "What do you know about Python?" after a weather call get_weather(city=Python)
    tools = [WEATHER, *TIME, CONVERT, TOOL_SEARCH]
    assert asked[1][0] not in [name for name, _ in follow_up(*asked, text, tools)]


@pytest.mark.parametrize(
    "text", ["and in fahrenheit?", "And in Fahrenheit?", "in fahrenheit please", "what about Fahrenheit?"]
)
def test_a_unit_asked_for_after_a_weather_call_is_no_new_place(text):
    """A unit after a weather call: "and in fahrenheit?" after get_weather(city=Paris) was picked afresh by the unit's value, and the place
    reader took "fahrenheit" (a name ending the question after "in") for the city: get_weather(city="and in
    fahrenheit?" / "fahrenheit", unit=fahrenheit). A value the text names of one of the tool's enums is no
    place, and a pick of the tool the turn before called, by a follow-up, carries that call's arguments."""
    asked = ("What's the weather in Paris?", ("get_weather", {"city": "Paris"}))
    assert follow_up(*asked, text, [WEATHER, *TIME, CONVERT]) == [
        ("get_weather", {"city": "Paris", "unit": "fahrenheit"})
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a new place with the unit: both changed
        ("and in London, in fahrenheit?", {"city": "London", "unit": "fahrenheit"}),
        # a question of its own about the same tool: a fresh call, nothing carried over
        ("What's the weather in Oslo?", {"city": "Oslo"}),
    ],
)
def test_a_follow_up_naming_a_unit_still_reads_a_new_place(text, expected):
    asked = ("What's the weather in Paris?", ("get_weather", {"city": "Paris"}))
    assert follow_up(*asked, text, [WEATHER, *TIME, CONVERT]) == [("get_weather", expected)]


def test_a_place_holding_an_option_the_text_names_is_no_place():
    # no follow-up: the unit is no city; the city is left to the user's words, as with no place at all
    schema = WEATHER["function"]["parameters"]
    assert fill(schema, "what's the weather in fahrenheit?")["city"] != "fahrenheit"
    assert fill(schema, "weather in Oslo in fahrenheit") == {"city": "Oslo", "unit": "fahrenheit"}


@pytest.mark.parametrize(
    "text, city",
    [
        ("帮我查一下北京天气", "北京"),
        ("查一下上海天气", "上海"),
        ("请问北京的天气", "北京"),
        ("帮我看看广州天气", "广州"),
        ("我想知道北京天气", "北京"),
        ("今天北京天气", "北京"),
        ("帮我查询一下深圳的天气", "深圳"),
        ("东京明天的天气", "东京"),
        ("哈尔滨天气", "哈尔滨"),
        ("乌鲁木齐天气怎么样", "乌鲁木齐"),
    ],
)
def test_a_chinese_place_is_read_without_the_words_that_ask_for_it(text, city):
    # the characters just before 天气 were read from the leftmost place they could start: "帮我查一下北京天气"
    # gave city '一下北京', "请问北京的天气" '请问北京', "今天北京天气" '今天北京'
    assert ask(text, [WEATHER, *TIME]) == [("get_weather", {"city": city})]


NO_LOOKUP_REPLY = "好的，这次不查询。没有查到的信息我不能编造，需要准确结果时请告诉我，我再帮您查。"
NO_LOOKUP_REPLY_EN = (
    "All right, I will not look it up this time. I cannot make up what I have not looked up; tell me when you want "
    "an exact answer and I will check."
)


@pytest.mark.parametrize(
    "text",
    [
        "don't look it up, just guess the weather in Paris",
        "Without looking it up, what time is it in Asia/Tokyo?",
        "no need to look that up, what's the weather in London?",
        "Do not use any tools: convert 100 USD to EUR",
        "不用查了，随便猜一下北京天气",
        "别查了，北京天气大概怎样",
        "不要调用工具，直接回答上海现在几点",
        "不用查，SN202610200001 大概什么时候到",
    ],
)
def test_a_question_asked_not_to_be_looked_up_calls_no_tool(text):
    # the tools were called anyway: "don't look it up, just guess the weather in Paris" called get_weather
    tools = [WEATHER, *TIME, CONVERT, TOOL_SEARCH, fn("query_logistics", "物流", {"orderId": {"type": "string"}})]
    reply = respond({"model": "m", "messages": [{"role": "user", "content": text}], "tools": tools}, GatewayConfig())
    message = ChatCompletion.model_validate(reply.body).choices[0].message
    assert (message.tool_calls, message.content) == (None, NO_LOOKUP_REPLY_EN if text.isascii() else NO_LOOKUP_REPLY)


@pytest.mark.parametrize(
    "text", ["why don't you look up the weather in Paris?", "check the weather in Paris, don't guess"]
)
def test_a_question_asked_to_be_looked_up_still_calls(text):
    assert ask(text, [WEATHER]) == [("get_weather", {"city": "Paris"})]


def test_a_tool_list_reads_its_first_enum_values_in_the_tools_order():
    from toolkit.gateway.toolset import prepare

    def tool(name, count):
        values = [f"{name}{i}" for i in range(count)]
        schema = {"type": "object", "properties": {"v": {"type": "string", "enum": values}}}
        return {"type": "function", "function": {"name": name, "description": name, "parameters": schema}}

    tools = prepare([tool("a", 2000), tool("b", 2000), tool("c", 2000), tool("d", 5)])
    assert {name: [len(g) for g in groups] for name, groups in tools.enums.items()} == {
        "a": [2000],
        "b": [2000],
        "c": [96],
    }


def _plain_wants_fact(name, schema, rules):
    """`_Filler.wants_fact` as first written: every word of `[generic.params]` looked for in turn (a
    string `format` the filler knows decides first)."""
    fmt = schema.get("format")
    if fmt in generic._FORMATS:
        return generic._FORMAT_FACTS.get(fmt)
    return next((fact for word, fact in rules.generic.params if word in name.lower()), None)


@settings(max_examples=300, deadline=None)
@given(
    name=st.text(alphabet="adtezy_.ITDA", max_size=10) | st.sampled_from(["startDate", "tz", "city_name", "order_id"]),
    fmt=st.sampled_from([None, "date", "time", "email", "date-time", "int32"]),
    words=st.none()
    | st.lists(st.tuples(st.sampled_from(["date", "tz", "a.e", "", "Dy", "zz"]), st.sampled_from("xyz"))),
)
def test_the_fact_a_parameter_wants_is_the_first_word_of_the_list_its_name_holds(name, fmt, words):
    from toolkit.gateway.generic import _Filler

    rules = RULES if words is None else replace(RULES, generic=replace(RULES.generic, params=tuple(words)))
    schema = {} if fmt is None else {"format": fmt}
    filler = _Filler({}, "", Facts(), rules, "")
    assert filler.wants_fact(name, schema) == _plain_wants_fact(name, schema, rules)


def test_resolving_a_schema_with_nothing_to_follow_is_one_step():
    """As the loop's first step: the budget counts it, and a spent budget resolves it to `{}`."""
    from toolkit.gateway.generic import _Filler

    filler = _Filler({}, "", Facts(), RULES, "")
    for schema in [{}, {"type": "string"}, {"properties": {"a": {"$ref": "#"}}}, {"$ref": 1}]:
        before = filler.steps
        assert filler.resolve(schema, 0) is schema
        assert filler.steps == before + 1
    filler.steps = generic._MAX_STEPS
    assert filler.resolve({"type": "string"}, 0) == {}
    assert filler.resolve("not a schema", 0) == {}


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("What's the weather in Paris?", "Paris"),
        ("what's the weather in paris?", "paris"),  # typed in lower case, as people type
        ("what is the weather like in san francisco", "san francisco"),
        ("weather in new york right now", "new york"),
        ("weather in 東京 in fahrenheit", "東京"),
        ("北京天气怎么样", "北京"),
        # a day word and 的 between the place and what is asked about it
        ("东京明天的天气", "东京"),
        ("北京今天的气温怎么样", "北京"),
        ("上海现在的时间", "上海"),
        ("广州的天气", "广州"),
        # a lower-case name is read only where it ends the question, and never an article
        ("weather at the office", "weather at the office"),
        ("weather in paris for my trip", "weather in paris for my trip"),
    ],
)
def test_a_place_is_read_in_the_ways_people_write_it(text, city):
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    assert fill(schema, text) == {"city": city}


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("What's the weather like in São Paulo?", "São Paulo"),
        ("Is it cold in Zürich today?", "Zürich"),
        ("weather for Malmö, Sweden", "Malmö"),
        ("forecast in Kraków tomorrow", "Kraków"),
        ("weather at Łódź", "Łódź"),
        ("weather in Île-de-France", "Île-de-France"),
        ("Wie ist das Wetter in München?", "München"),
        ("what's the weather in reykjavík?", "reykjavík"),
        ("weather in bogotá right now", "bogotá"),
        # a day word after a one-word name is no second word of it (was "paris right")
        ("weather in paris right now", "paris"),
        ("weather in lima tomorrow", "lima"),
    ],
)
def test_a_place_named_with_letters_beyond_ascii_is_the_place(text, city):
    """A place was a capitalised name in ASCII letters only: São Paulo, Zürich, Malmö were no place, and a
    weather tool's city was the user's whole sentence. Its letters are now any Latin letter (accents,
    Polish, Czech ...), not Chinese ones (東京 after in, or 北京 before 天气, as before)."""
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    assert fill(schema, text) == {"city": city}


def test_an_origin_and_a_destination_are_the_places_the_text_names_in_turn():
    """A flight's or a freight's `origin` and `destination` wanted no fact (only city, location, place,
    country did), and "from" introduced no place: both were the user's whole sentence."""
    flights = fn(
        "search_flights",
        "Search flights between two cities",
        {"origin": {"type": "string"}, "destination": {"type": "string"}, "date": {"type": "string", "format": "date"}},
    )
    assert valid(ask("search flights from Paris to Tokyo on 2026-12-20", [flights]), [flights]) == [
        ("search_flights", {"origin": "Paris", "destination": "Tokyo", "date": "2026-12-20"})
    ]
    trip = fn("plan_trip", "Plan a trip", {"from_city": {"type": "string"}, "to_city": {"type": "string"}})
    assert ask("plan a trip from São Paulo to Lima", [trip]) == [
        ("plan_trip", {"from_city": "São Paulo", "to_city": "Lima"})
    ]
    rates = fn("get_shipping_rates", "Get shipping rates", {"weight_kg": {"type": "number"}, "destination": {}})
    assert ask("shipping rates for 3 kg to Germany", [rates]) == [
        ("get_shipping_rates", {"weight_kg": 3, "destination": "Germany"})
    ]


@pytest.mark.parametrize(
    "line", [" " * 20_000 + "\n" + "status: shipped", "\t " * 10_000 + ":x", "a" + " " * 20_000 + "b:c"]
)
def test_a_long_line_of_blanks_in_a_tool_result_is_read_in_linear_time(line):
    """Every start of a label was tried with every split of the blanks after it: two minutes on a
    line of 20,000 blanks, a fake gateway stuck on one request."""
    schema = {"type": "object", "properties": {"status": {"type": "string"}}, "required": ["status"]}
    assert fill(schema, line)["status"] == ("shipped" if "status" in line else line[:1_000])


def test_a_schema_that_refers_back_to_itself_ends_in_an_empty_array_or_null():
    """A `$ref` back to the root (`#`, or the root's own `$ref`) is not filled again; it was, down to
    the depth limit, where the values still to make were None (no string, no array)."""
    name = {"type": "string"}
    tree = {"type": "object", "properties": {"name": name, "kids": {"type": "array", "items": {"$ref": "#"}}}}
    tree["required"] = ["name", "kids"]
    assert fill(tree, "widget") == {"name": "widget", "kids": []}
    nullable = {"anyOf": [{"$ref": "#/$defs/L"}, {"type": "null"}]}
    link = {"type": "object", "properties": {"v": {"type": "integer"}, "next": nullable}, "required": ["v", "next"]}
    chain = {"$ref": "#/$defs/L", "$defs": {"L": link}}
    assert fill(chain, "take 3") == {"v": 3, "next": None}


def test_a_child_minitems_asks_for_is_made_even_when_it_refers_back():
    kids = {"type": "array", "items": {"$ref": "#"}, "minItems": 1}
    tree = {"type": "object", "properties": {"name": {"type": "string"}, "kids": kids}, "required": ["name", "kids"]}
    value = fill(tree, "widget")
    assert value["name"] == "widget" and value["kids"][0]["name"] == "widget"


@pytest.mark.parametrize(
    ("name", "fmt", "text", "expected"),
    [
        ("start_time", "date-time", "Meet at 14:30 please", "2026-01-01T00:00:00Z"),  # no date: not "14:30"
        ("start_time", "date-time", "Meet on 2026-12-24 at 9:30", "2026-12-24T09:30:00Z"),
        ("when", "date", "Book a room for Alice", "2026-01-01"),
        ("at", "time", "Wake me at 7:05", "07:05:00Z"),  # a `time` is RFC 3339's full-time: seconds, offset
        ("at", "time", "Wake me early", "00:00:00Z"),
        ("contact", "email", "Write to bob@example.org about it", "bob@example.org"),
        ("contact", "email", "Write to Bob about it", "user@example.com"),
        ("page", "uri", "Read https://example.org/a then", "https://example.org/a"),
        ("page", "uri", "打开 https://example.org/a。", "https://example.org/a"),  # a URI ends where Chinese starts
        ("page", "uri", "网址是https://example.org/docs，请总结一下", "https://example.org/docs"),
        ("page", "uri", "https://例子.example/a", "https://example.com/"),  # no ASCII host: no URI in the text
        ("ref", "uuid", "Cancel my booking", "00000000-0000-4000-8000-000000000000"),
        ("wait", "duration", "Wait a while", "P1D"),
    ],
)
def test_a_string_of_a_known_format_is_of_that_format_never_the_users_words(name, fmt, text, expected):
    schema = {"type": "object", "properties": {name: {"type": "string", "format": fmt}}, "required": [name]}
    assert fill(schema, text) == {name: expected}
    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    if fmt in checker.checkers:  # the formats its installed packages check
        jsonschema.Draft202012Validator(schema, format_checker=checker).validate(fill(schema, text))


@pytest.mark.parametrize(
    ("text", "url"),
    [
        ("Open https://example.org/a.", "https://example.org/a"),
        ("See (https://example.org/a), then answer", "https://example.org/a"),
        ("See https://en.wikipedia.org/wiki/Rust_(language).", "https://en.wikipedia.org/wiki/Rust_(language)"),
        ("Is 'https://example.org/a?q=1&b=2' up?", "https://example.org/a?q=1&b=2"),
        ("打开https://example.org/a看看", "https://example.org/a"),
        ("链接（https://example.org/a）里写了什么？", "https://example.org/a"),
        ("总结一下 https://example.org/a#part-2！", "https://example.org/a#part-2"),
    ],
)
def test_a_url_is_read_without_the_sentence_around_it(text, url):
    """The URL fact took every character up to a blank: Chinese has none, so the words and the
    punctuation after a link (`…/docs，请总结一下`) were part of it, and a `format: uri` string
    was no URI at all; an English sentence's full stop or closing bracket was part of it too."""
    schema = {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]}
    assert fill(schema, text) == {"url": url}


def test_a_time_read_from_the_text_is_hh_mm_where_no_format_asks_more():
    schema = {"type": "object", "properties": {"time": {"type": "string"}}, "required": ["time"]}
    assert fill(schema, "convert 9:30 please") == {"time": "09:30"}


def test_a_tuple_fills_each_place_from_its_own_schema():
    pair = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "minItems": 2, "maxItems": 2}
    more = {"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "boolean"}, "minItems": 3}
    schema = {"type": "object", "properties": {"pair": pair, "more": more}, "required": ["pair", "more"]}
    assert fill(schema, "page 7") == {"pair": [7, "page 7"], "more": [7, False, False]}
    jsonschema.validate(fill(schema, "page 7"), schema)


@pytest.mark.parametrize(
    ("number", "text", "expected"),
    [
        ({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}, "rate it", 0.5),
        ({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.5}, "rate it", 0.25),
        ({"type": "integer", "minimum": 2.5}, "how many", 3),
        ({"type": "integer", "multipleOf": 6, "minimum": 6}, "7 boxes", 6),
        ({"type": "integer", "multipleOf": 6}, "12 boxes", 12),
        ({"type": "number", "multipleOf": 0.25, "exclusiveMinimum": 1}, "more", 2),
        ({"type": "number", "multipleOf": 0.25, "exclusiveMinimum": 1, "maximum": 1.5}, "more", 1.5),
    ],
)
def test_a_number_meets_its_exclusive_bounds_and_multiple(number, text, expected):
    assert fill({"type": "object", "properties": {"n": number}, "required": ["n"]}, text) == {"n": expected}


def _formatted_valid(calls, tools):
    """`valid`, with the formats checked too (a uuid, a date-time)."""
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in tools}
    for name, arguments in calls:
        jsonschema.validate(arguments, schemas[name], format_checker=jsonschema.FormatChecker())


def test_a_shop_tool_whose_schema_refuses_a_fact_is_called_with_what_its_schema_takes():
    # a stranger's tools under the shop's names: the order id, category and date facts do not fit them
    order = fn("query_order", "Query an order", {"orderId": {"type": "integer"}})
    logistics = fn("query_logistics", "Track an order", {"orderId": {"type": "string", "format": "uuid"}})
    policy = fn(
        "query_refund_policy",
        "Refund policy",
        {
            "category": {"type": "string", "enum": ["clothes", "digital"]},
            "asOf": {"type": "string", "format": "date-time"},
        },
        required=["category"],
    )
    for tools, text in [
        ([order], "订单 SN202610200001 的状态"),
        ([logistics], "SN202610200001 物流到哪了"),
        ([policy], "衣服 7天能退吗 2026-11-01"),
    ]:
        calls = ask(text, tools)
        assert [name for name, _ in calls] == [tools[0]["function"]["name"]]
        _formatted_valid(calls, tools)
    assert ask("衣服 7天能退吗 2026-11-01", [policy]) == [
        ("query_refund_policy", {"category": "clothes", "asOf": "2026-11-01T00:00:00Z"})
    ]


def test_a_shop_tool_whose_schema_takes_the_facts_keeps_them_alone():
    policy = fn(
        "query_refund_policy",
        "Refund policy",
        {
            "category": {"type": "string", "enum": ["服装", "数码"]},
            "asOf": {"type": "string"},
            "note": {"type": "string"},
        },
    )
    assert ask("衣服 7天能退吗 2026-11-01", [policy]) == [
        ("query_refund_policy", {"category": "服装", "asOf": "2026-11-01"})
    ]


def test_a_uuid_the_text_holds_is_the_uuid_argument():
    refund = fn(
        "create_refund",
        "Create a refund for an order",
        {"order_id": {"type": "string", "format": "uuid"}, "reason": {"type": "string", "enum": ["damaged", "late"]}},
    )
    text = "I want a refund for order 123E4567-e89b-12d3-a456-426614174000, it arrived damaged"
    assert ask(text, [refund]) == [
        ("create_refund", {"order_id": "123E4567-e89b-12d3-a456-426614174000", "reason": "damaged"})
    ]
    # none in the text: asked for, never the user's words nor a made-up uuid (the format's own value)
    assert ask("refund order 42, it was late", [refund]) == []


def test_a_patterned_string_takes_the_words_of_the_text_its_pattern_finds_in_turn():
    convert = fn(
        "convert_currency",
        "Convert an amount between currencies",
        {
            "amount": {"type": "number"},
            "from": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "to": {"type": "string", "pattern": "^[A-Z]{3}$"},
        },
    )
    assert ask("please convert 100 USD to EUR", [convert]) == [
        ("convert_currency", {"amount": 100, "from": "USD", "to": "EUR"})
    ]
    # one such word for two fields, or none: the other is asked for (was both USD; both built from the pattern)
    assert ask("convert 100 USD", [convert]) == []
    assert ask("convert 100 dollars", [convert]) == []  # was from AAA to AAA, both built from the pattern
    stock = fn("check_stock", "Check the stock of a SKU", {"sku": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]+$"}})
    assert ask("is sku AB-123, in stock?", [stock]) == [("check_stock", {"sku": "AB-123"})]


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        # a code glued to its amount, or to the other code by a sign ("100USD" was no word the pattern takes)
        ("convert 100USD to JPY", ("USD", "JPY")),
        ("把100USD换算成JPY", ("USD", "JPY")),
        ("convert 100 USD→EUR", ("USD", "EUR")),
        ("convert 100 USD/EUR", ("USD", "EUR")),
        # full-width letters, as a Chinese input method types them
        ("换算１００ ＵＳＤ 到 ＪＰＹ", ("USD", "JPY")),
        ("把１００ＵＳＤ换算成ＪＰＹ", ("USD", "JPY")),
    ],
)
def test_a_patterned_string_takes_a_word_glued_to_others_or_typed_in_full_width(text, codes):
    convert = fn(
        "convert_currency",
        "Convert an amount between currencies",
        {
            "amount": {"type": "number"},
            "from": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "to": {"type": "string", "pattern": "^[A-Z]{3}$"},
        },
    )
    assert ask(text, [convert]) == [("convert_currency", {"amount": 100, "from": codes[0], "to": codes[1]})]


def test_a_number_written_in_full_width_digits_is_the_number():
    # a Chinese input method types １２３; the user's number, not one made up within the bounds
    convert = fn("convert_currency", "Convert money", {"amount": {"type": "number", "minimum": 1}})
    assert ask("convert １２３ dollars", [convert]) == [("convert_currency", {"amount": 123})]
    assert ask("换算 ２５0.5 美元", [convert]) == [("convert_currency", {"amount": 250.5})]


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("convert 1,200.50 EUR to CNY", "number", 1200.5),
        ("convert ¥1,299 to USD", "number", 1299),
        ("set the amount to 3,000", "integer", 3000),
        ("order 1,000,000 screws", "integer", 1000000),
        ("order -2,500 units", "number", -2500),
        # no group of three digits after the comma: a list of numbers, the first taken
        ("numbers 1,2,3", "integer", 1),
        ("scores 12,34", "integer", 12),
    ],
)
def test_a_number_written_with_thousands_separators_is_the_whole_number(text, kind, expected):
    # "1,200.50" was read as 1 (the comma ended the number): an amount a thousand times too small
    schema = {"type": "object", "properties": {"amount": {"type": kind}}, "required": ["amount"]}
    assert fill(schema, text) == {"amount": expected}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Trip to Paris on 2026/12/03 costing $1,250.00", 1250),
        ("2026年12月3日去东京，预算8000元", 8000),
        ("meeting at 14:30 for 45 minutes", 45),
        ("refund order 123e4567-e89b-12d3-a456-426614174000 by 30 dollars", 30),
        ("mail bob2@x.org the 7 files", 7),
        # no number but those a date or time is written with: theirs, as before
        ("holidays of 2026-12-03", 2026),
    ],
)
def test_a_number_is_one_the_text_says_before_the_digits_of_a_date_time_or_address(text, expected):
    # "on 2026/12/03 costing $1,250.00" gave 2026, the date's year, as the amount
    schema = {"type": "object", "properties": {"amount": {"type": "number"}}, "required": ["amount"]}
    assert fill(schema, text) == {"amount": expected}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("reserve SKU-9 twice, 4 units", 4),
        ("预留库存：SKU-9，数量 2", 2),
        ("COVID-19 tests, order 50", 50),
        ("型号X-200 买 3 台", 3),
        # a range or a negative number is still a number
        ("2-3 nights", 2),
        ("set it to -5", -5),
    ],
)
def test_a_number_joined_to_a_word_by_a_hyphen_is_part_of_the_word(text, expected):
    # "SKU-9 two units" gave qty 9, the SKU's digits
    schema = {"type": "object", "properties": {"qty": {"type": "number"}}, "required": ["qty"]}
    assert fill(schema, text) == {"qty": expected}


@pytest.mark.parametrize(
    ("text", "made"),
    [
        ("book it on 2026/12/03", "2026-12-03"),
        ("book it on 2026.12.3", "2026-12-03"),
        ("book it on 2026-12-3", "2026-12-03"),
        ("book it on 2026/1/9 please", "2026-01-09"),
        ("订在２０２６年１２月３日", "2026-12-03"),  # full-width digits, as a Chinese input method types them
        ("订在２０２６-１２-０３", "2026-12-03"),
        ("book it on 2026/2/30", "2026-01-01"),  # no day of the calendar
        ("book it on 2026/12-03", "2026-01-01"),  # separators that differ: no date
        ("book it on 12/03/2026", "2026-01-01"),  # day and month in an order the text does not say
        # a month by its English name, before or after the day
        ("add 'Team lunch' on Dec 3, 2026 at 12:00", "2026-12-03"),
        ("book it for 3 December 2026", "2026-12-03"),
        ("book it for December 3rd 2026", "2026-12-03"),
        ("book it on Sept. 9, 2026", "2026-09-09"),
        ("book it on 21st of june, 2026", "2026-01-01"),  # "of" between: not a form read
        ("book it on Feb 30, 2026", "2026-01-01"),  # no day of the calendar
        ("book it in May 2026", "2026-01-01"),  # no day
    ],
)
def test_a_date_is_read_with_slashes_dots_one_digit_parts_and_full_width_digits(text, made):
    schema = {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}, "required": ["day"]}
    assert fill(schema, text) == {"day": made}


def test_a_choice_of_consts_takes_the_one_the_text_points_at_as_an_enum_does():
    # TypeBox's Union of Literals and zod's union of literals write anyOf / oneOf of consts, not an enum
    for keyword in ("anyOf", "oneOf"):
        cabin = {keyword: [{"const": "economy", "type": "string"}, {"const": "business", "type": "string"}]}
        book = fn("book_flight", "Book a flight", {"cabin": cabin})
        assert ask("book a flight in business class", [book]) == [("book_flight", {"cabin": "business"})]
        assert ask("book a flight", [book]) == [("book_flight", {"cabin": "economy"})]


def test_a_draft_07_tuple_has_each_place_filled_from_its_own_schema():
    # zod-to-json-schema (a TypeScript MCP server's tools) writes a tuple as draft-07 does: `items` a list
    point = {"type": "array", "items": [{"type": "integer"}, {"type": "string"}], "minItems": 2, "maxItems": 2}
    place = fn("mark_place", "Mark a place on the map", {"point": point})
    place["function"]["parameters"]["$schema"] = "http://json-schema.org/draft-07/schema#"
    calls = ask("mark place 12 as home", [place])
    assert calls == [("mark_place", {"point": [12, "mark place 12 as home"]})]
    jsonschema.Draft7Validator(place["function"]["parameters"]).validate(calls[0][1])
    more = {"type": "array", "items": [{"type": "boolean"}], "additionalItems": {"type": "integer"}, "minItems": 2}
    assert ask("mark place", [fn("mark_place", "Mark a place", {"point": more})]) == [
        ("mark_place", {"point": [False, 1]})
    ]


def test_a_property_another_depends_on_is_filled_too():
    # dependentRequired (2019-09) and draft-07's dependencies of names: a card asks for its cvv, which asks for a zip
    card = {"card": {"type": "string"}, "cvv": {"type": "string", "pattern": "^[0-9]{3}$"}, "zip": {"type": "string"}}
    for keyword in ("dependentRequired", "dependencies"):
        pay = fn("pay_order", "Pay an order", card, required=["card"], **{keyword: {"card": ["cvv"], "cvv": ["zip"]}})
        calls = ask("pay order with card 4111, cvv 123", [pay])
        assert calls == [
            (
                "pay_order",
                {"card": "pay order with card 4111, cvv 123", "cvv": "123", "zip": "pay order with card 4111, cvv 123"},
            )
        ]
        valid(calls, [pay])


def test_a_choice_the_text_has_a_value_for_wins_over_one_whose_value_is_made_up():
    # Union[UUID, int]: "record 42" holds no uuid, only the integer choice's value; a uuid it holds wins
    for keyword in ("oneOf", "anyOf"):
        key = {keyword: [{"type": "string", "format": "uuid"}, {"type": "integer", "minimum": 1}]}
        lookup = fn("lookup_record", "Look up a record by key", {"key": key})
        assert ask("lookup record 42", [lookup]) == [("lookup_record", {"key": 42})]
        uuid = "123e4567-e89b-12d3-a456-426614174000"
        assert ask(f"lookup record {uuid}", [lookup]) == [("lookup_record", {"key": uuid})]
        # neither: the first choice's made-up value, as before (null is no better: Optional[date] stays a date)
        assert ask("lookup record", [lookup]) == [("lookup_record", {"key": "00000000-0000-4000-8000-000000000000"})]
    day = fn("plan_day", "Plan a day", {"day": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]}})
    # Optional[date], required and never given: asked for as a plain date is (it took the format's made-up 2026-01-01)
    assert ask("plan day", [day]) == []
    assert ask("plan day on 2026-12-24", [day]) == [("plan_day", {"day": "2026-12-24"})]


def test_more_patterned_items_are_the_text_s_other_words_the_pattern_finds():
    codes = {"type": "array", "items": {"type": "string", "pattern": "^[A-Z]{3}$"}, "minItems": 2, "uniqueItems": True}
    rates = fn("get_rates", "Exchange rates for currency codes", {"codes": codes})
    assert ask("exchange rates for USD and EUR", [rates]) == [("get_rates", {"codes": ["USD", "EUR"]})]
    assert ask("exchange rates for USD", [rates]) == [("get_rates", {"codes": ["USD", "AAA"]})]


def test_an_array_of_a_format_takes_every_value_of_it_the_text_holds():
    mail = fn(
        "send_mail",
        "Send an email",
        {"to": {"type": "array", "items": {"type": "string", "format": "email"}, "maxItems": 2}},
    )
    text = "send an email to bob@x.org, amy@y.org and bob@x.org and cy@z.org"
    assert ask(text, [mail]) == [("send_mail", {"to": ["bob@x.org", "amy@y.org"]})]
    assert ask("send an email to the team", [mail]) == [("send_mail", {"to": ["user@example.com"]})]
    days = fn("book_days", "Book days", {"days": {"type": "array", "items": {"type": "string", "format": "date"}}})
    assert ask("book days 2026-12-24, 2026-02-30 and 2026年12月31日", [days]) == [
        ("book_days", {"days": ["2026-12-24", "2026-12-31"]})
    ]


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("order_id", "Please cancel my order SO-10023, I ordered the wrong size.", "SO-10023"),
        ("user_id", "delete user ab12_cd3 now", "ab12_cd3"),
        ("ticket_id", "what is the status of ticket 48213?", "48213"),
        ("order_id", "订单SO-10023还没发货", "SO-10023"),  # glued to Chinese: still a token of its own
        ("item_identifier", "ship A1B2 on 2026-12-03, 2 of them", "A1B2"),  # not the date, not the quantity
        # no identifier in the text: the user's words, as before
        ("order_id", "cancel my last order please", "cancel my last order please"),
        ("order_id", "cancel 2 orders from 2026-12-03", "cancel 2 orders from 2026-12-03"),
    ],
)
def test_a_parameter_named_for_an_id_takes_the_identifier_the_text_holds(name, text, expected):
    # "cancel_order" was called with order_id = the whole question (week 8's tool search, a stranger's catalogue)
    schema = {"type": "object", "properties": {name: {"type": "string"}}, "required": [name]}
    assert fill(schema, text) == {name: expected}


CURRENCIES = ["USD", "EUR", "JPY", "CNY", "GBP"]


@pytest.mark.parametrize(
    ("tool", "text", "expected"),
    [
        # two fields of one fact: a timezone each, a date each, a date-time each (from the dates and times)
        (TIME[1], "Convert 09:30 from Asia/Tokyo to Europe/London", ("Asia/Tokyo", "09:30", "Europe/London")),
        (TIME[1], "现在Asia/Shanghai是09:30，换算成Europe/Paris时间", ("Asia/Shanghai", "09:30", "Europe/Paris")),
        (
            fn(
                "book_room",
                "Book a room",
                {"check_in": {"type": "string", "format": "date"}, "check_out": {"type": "string", "format": "date"}},
            ),
            "Book a room from Dec 7, 2026 to 2026-12-09",
            ("2026-12-07", "2026-12-09"),
        ),
        (
            fn(
                "create_event",
                "Create a calendar event",
                {
                    "start": {"type": "string", "format": "date-time"},
                    "end": {"type": "string", "format": "date-time"},
                },
            ),
            "Create a calendar event on 2026-12-07 from 10:00 to 11:30",
            ("2026-12-07T10:00:00Z", "2026-12-07T11:30:00Z"),
        ),
        (
            fn(
                "create_event",
                "Create a calendar event",
                {
                    "start": {"type": "string", "format": "date-time"},
                    "end": {"type": "string", "format": "date-time"},
                },
            ),
            "2026年12月7日 09:00 到 2026年12月8日 18:00 创建一个日程 event",
            ("2026-12-07T09:00:00Z", "2026-12-08T18:00:00Z"),
        ),
        # two fields of one enum: the values the text names, in its order
        (
            fn(
                "convert_currency",
                "Convert money between currencies",
                {
                    "amount": {"type": "number"},
                    "from_currency": {"type": "string", "enum": CURRENCIES},
                    "to_currency": {"type": "string", "enum": CURRENCIES},
                },
            ),
            "Convert 100 GBP to EUR",
            (100, "GBP", "EUR"),
        ),
        (
            fn(
                "convert_currency",
                "Convert money between currencies",
                {
                    "amount": {"type": "number"},
                    "source": {"type": "string", "enum": CURRENCIES},
                    "target": {"type": "string", "enum": CURRENCIES[::-1]},
                },
            ),
            "把 100 usd 换算成 jpy",
            (100, "USD", "JPY"),
        ),
    ],
)
def test_fields_asking_one_fact_or_enum_take_the_values_the_text_names_in_turn(tool, text, expected):
    """Every field asking for one fact (a timezone, a date) took the text's first value, and every
    field of one enum its longest value named: convert_time was called from Asia/Tokyo to Asia/Tokyo,
    a room booked from Dec 7 to Dec 7, 100 GBP converted to GBP. The k-th field asking takes the
    k-th value the text names (the last when it names fewer), as a pattern's fields take its words."""
    calls = valid(ask(text, [tool]), [tool])
    assert calls == [(tool["function"]["name"], dict(zip(tool["function"]["parameters"]["properties"], expected)))]


def test_fields_asking_one_fact_the_text_names_once_all_take_it():
    one = fn(
        "create_event",
        "Create a calendar event",
        {"start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"}},
    )
    assert ask("Create a calendar event on 2026-12-07 at 10:00", [one]) == [
        ("create_event", {"start": "2026-12-07T10:00:00Z", "end": "2026-12-07T10:00:00Z"})
    ]
    # an enum value named inside a longer one is that one (pro in pro max), not a second value
    plan = fn(
        "change_plan",
        "Change the plan",
        {
            "old": {"type": "string", "enum": ["pro", "pro max", "basic"]},
            "new": {"type": "string", "enum": ["pro", "pro max", "basic"]},
        },
    )
    assert ask("change plan from basic to pro max", [plan]) == [("change_plan", {"old": "basic", "new": "pro max"})]
    assert ask("change plan to pro max", [plan]) == [("change_plan", {"old": "pro max", "new": "pro max"})]


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("What's the weather in Tokyo in fahrenheit?", "fahrenheit"),
        ("weather in Berlin, Celsius please", "celsius"),
        ("北京天气怎么样？用 fahrenheit", "fahrenheit"),
        # none named: the tool's default is its to use, nothing is sent
        ("What's the weather in Tokyo?", None),
    ],
)
def test_an_optional_enum_the_text_names_a_value_of_is_sent(text, unit):
    """Only required fields were filled, so a user who asked for fahrenheit got the tool's default
    (celsius) from a call that left `unit` out. An optional field with an `enum` (inline, a `$ref`, or
    a choice of one and null, as pydantic writes `Unit | None = None`) whose value the text names as a
    word is sent with it; a stopword ("in", "to") names nothing."""
    for unit_schema, defs in [
        ({"type": "string", "enum": ["celsius", "fahrenheit"]}, {}),
        ({"$ref": "#/$defs/Unit"}, {"Unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}),
        (
            {"anyOf": [{"$ref": "#/$defs/Unit"}, {"type": "null"}], "default": None},
            {"Unit": {"enum": ["celsius", "fahrenheit"]}},
        ),
    ]:
        weather = fn(
            "get_weather", "Get the weather for a city", {"city": {"type": "string"}, "unit": unit_schema}, ["city"]
        )
        if defs:
            weather["function"]["parameters"]["$defs"] = defs
        ((name, arguments),) = valid(ask(text, [weather]), [weather])
        assert arguments.get("unit") == unit


def test_an_optional_enum_value_that_is_a_stopword_names_nothing():
    ruler = fn(
        "measure",
        "Measure a length",
        {"length": {"type": "number"}, "unit": {"type": "string", "enum": ["cm", "in", "ft"]}},
        ["length"],
    )
    assert ask("measure 12 in the kitchen", [ruler]) == [("measure", {"length": 12})]
    assert ask("measure 12 ft", [ruler]) == [("measure", {"length": 12, "unit": "ft"})]


def test_an_optional_property_whose_choices_are_both_null_is_filled_without_values():
    """Found by the oracle's generated schemas in CI: `anyOf: [null, null]` raised a raw StopIteration while the
    gateway looked for the enum values an optional property may take."""
    schema = {"type": "object", "properties": {"city": {"anyOf": [{"type": "null"}, {"type": "null"}]}}, "required": []}
    text = "please look up my order for tomorrow"
    rules = load_rules()
    assert generic.fill_arguments(schema, text, read_text(text, rules), rules) == {}  # optional: left out


FORECAST = fn("get_forecast", "Get the forecast for a location", {"location": {"type": "string"}})
CODE = {"type": "string", "pattern": "^[A-Z]{3}$"}
FX = fn(
    "convert_currency",
    "Convert an amount of money from one currency to another",
    {"amount": {"type": "number"}, "from_currency": CODE, "to_currency": CODE},
)
RATE = fn(
    "exchange",
    "Exchange rate lookup",
    {
        "base": {"type": "string", "description": "ISO 4217 code"},
        "quote": {"type": "string", "description": "ISO 4217 code"},
    },
)
UNITS = fn(
    "convert_units",
    "Convert a quantity between units of measure",
    {"value": {"type": "number"}, "from_unit": {"type": "string"}, "to_unit": {"type": "string"}},
)


@pytest.mark.parametrize(
    ("text", "tools", "expected"),
    [
        ("What's the weather in Paris?", [FORECAST], ("get_forecast", {"location": "Paris"})),
        ("北京天气怎么样", [FORECAST], ("get_forecast", {"location": "北京"})),
        (
            "exchange 20 USD to EUR",
            [FX],
            ("convert_currency", {"amount": 20, "from_currency": "USD", "to_currency": "EUR"}),
        ),
        ("convert 100 dollars to euros", [RATE], ("exchange", {"base": "USD", "quote": "EUR"})),
    ],
)
def test_a_tool_is_found_by_a_synonym_of_its_words(text, tools, expected):
    """ "What's the weather in Paris?" offered only `get_forecast` got the shop's greeting, "exchange 20 USD to
    EUR" no call of `convert_currency`: a tool is picked by the `[generic] synonyms` of the user's words too."""
    assert valid(ask(text, tools), tools) == [expected]


@pytest.mark.parametrize(
    ("text", "tools", "expected"),
    [
        # "pound" weighs too: no currency tool for it; miles are no dollars
        ("convert 5 pounds to kg", [UNITS, FX], "convert_units"),
        ("convert 10 miles to km", [UNITS, FX], "convert_units"),
        ("convert 10 dollars to euros", [UNITS, FX], "convert_currency"),
    ],
)
def test_a_currency_synonym_picks_a_currency_tool_only_for_money(text, tools, expected):
    assert [name for name, _ in ask(text, tools)] == [expected]


def _fx(amount, source, target):
    return ("convert_currency", {"amount": amount, "from_currency": source, "to_currency": target})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("convert 10 usd to eur and 20 gbp to jpy", [_fx(10, "USD", "EUR"), _fx(20, "GBP", "JPY")]),
        ("把10美元换成欧元，再把20英镑换成日元", [_fx(10, "USD", "EUR"), _fx(20, "GBP", "JPY")]),
        # near misses: a second clause without its own amount and currencies, a clause of no value, one asked twice
        ("convert 10 usd to eur, please", [_fx(10, "USD", "EUR")]),
        ("convert 10 usd to eur. Then convert 10 usd to eur", [_fx(10, "USD", "EUR")]),
        ("convert 10 usd to eur and thanks", [_fx(10, "USD", "EUR")]),
    ],
)
def test_each_clause_that_answers_the_whole_tool_is_a_call_of_its_own(text, expected):
    """ "convert 10 usd to eur and 20 gbp to jpy" made one call, of 10 USD to GBP: two questions of one tool,
    each answering all it asks, are two calls (parallel), each filled from its own clause."""
    assert valid(ask(text, [FX, UNITS]), [FX]) == expected


def test_synonyms_pick_a_tool_and_stay_out_of_its_arguments():
    # the search tool gets the user's own words, not "exchange" for "convert"
    search = KeywordSearch().spec.to_openai()
    assert ask("convert 10 dollars", [search]) == [("tool_search_tool", {"terms": ["convert", "dollars"]})]


@pytest.mark.parametrize(
    ("text", "amount", "source", "target"),
    [
        ("Convert 100 dollars to yen", 100, "USD", "JPY"),
        # the currency beside the amount is the one converted from, wherever it stands
        ("How many euros is 50 pounds?", 50, "GBP", "EUR"),
        ("how many yen do I get for 20 bucks", 20, "USD", "JPY"),
        ("$20 in euros", 20, "USD", "EUR"),
        ("100欧元是多少人民币", 100, "EUR", "CNY"),
        ("把100美元换成人民币", 100, "USD", "CNY"),
        ("convert 100 SEK to NOK", 100, "SEK", "NOK"),
    ],
)
def test_currencies_named_in_words_fill_iso_4217_fields(text, amount, source, target):
    """ "Convert 100 dollars to yen" gave from_currency and to_currency "AAA" (a string built from the
    pattern), and a field described "ISO 4217 code" the question itself: a currency named in words, English
    or Chinese, is its code."""
    assert valid(ask(text, [FX]), [FX]) == [
        ("convert_currency", {"amount": amount, "from_currency": source, "to_currency": target})
    ]


def test_an_enum_of_currency_codes_takes_the_currency_named_in_words():
    rates = fn(
        "get_rates", "Latest rates for a base currency", {"base": {"type": "string", "enum": ["USD", "EUR", "JPY"]}}
    )
    assert ask("latest rates for the euro", [rates]) == [("get_rates", {"base": "EUR"})]
    assert ask("rates for yen", [rates]) == [("get_rates", {"base": "JPY"})]


def test_a_three_letter_code_field_that_is_no_currency_takes_no_currency():
    flights = fn(
        "search_flights",
        "Search flights between two airports",
        {"origin": CODE, "destination": CODE, "date": {"type": "string", "format": "date"}},
    )
    text = "Find a flight from LAX to JFK on 2026-12-20 under 500 dollars"
    assert ask(text, [flights, FX]) == [
        ("search_flights", {"origin": "LAX", "destination": "JFK", "date": "2026-12-20"})
    ]


CLOCK = fn("get_time", "Get the current local time for an IANA timezone", {"timezone": {"type": "string"}})
FLIGHTS = fn(
    "search_flights",
    "Search flights between two airports on a date",
    {"origin": CODE, "destination": CODE, "date": {"type": "string", "format": "date"}},
)
HOTEL = fn(
    "book_hotel",
    "Book a hotel room in a city",
    {"city": {"type": "string"}, "check_in": {"type": "string", "format": "date"}},
)
MUSIC = fn("play_music", "Play a song or playlist", {"query": {"type": "string"}})
STOCK = fn("get_stock_quote", "Latest stock quote for a ticker symbol", {"symbol": {"type": "string"}})
MANY = [WEATHER, CLOCK, FX, FLIGHTS, HOTEL, MUSIC, STOCK]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "What's the weather in Paris and the time in Tokyo?",
            [("get_weather", {"city": "Paris"}), ("get_time", {"timezone": "Asia/Tokyo"})],
        ),
        (
            "查一下北京天气，再把100美元换成人民币",
            [
                ("get_weather", {"city": "北京"}),
                ("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "CNY"}),
            ],
        ),
        # a thousands comma is no clause's end; the first tool named is called first
        (
            "Convert 1,200 USD to EUR and tell me the time in London",
            [
                ("convert_currency", {"amount": 1200, "from_currency": "USD", "to_currency": "EUR"}),
                ("get_time", {"timezone": "Europe/London"}),
            ],
        ),
        (
            "Book a hotel in Rome on 2026-12-20, then find flights from JFK to FCO on 2026-12-19",
            [
                ("book_hotel", {"city": "Rome", "check_in": "2026-12-20"}),
                ("search_flights", {"origin": "JFK", "destination": "FCO", "date": "2026-12-19"}),
            ],
        ),
        # what one clause leaves out, the whole text gives: the weather in Tokyo too
        (
            "What's the weather and the time in Tokyo?",
            [("get_weather", {"city": "Tokyo"}), ("get_time", {"timezone": "Asia/Tokyo"})],
        ),
    ],
)
def test_two_questions_in_one_message_call_both_tools_each_with_its_own_arguments(text, expected):
    """ "What's the weather in Paris and the time in Tokyo?" called get_weather alone (the picker calls the
    one best tool), and "查一下北京天气，再把100美元换成人民币" left the money out: each clause is picked for,
    and two clauses that pick two tools call both, each filled from its own clause."""
    assert valid(ask(text, MANY), MANY) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # two places for one tool: one clause picks it, a call for each place (not a second tool with mixed fields)
        ("weather in Paris and London", ["get_weather", "get_weather"]),
        ("北京和上海的天气", ["get_weather", "get_weather"]),
        # a clause that only shares a description's word with a tool calls nothing beside the question
        # (and the time of no zone and no place: the zone is asked for, not the question sent as one)
        ("What's the time? I need to leave for the airport", []),
        ("The stock market crashed and I lost money", []),  # the quote's symbol is asked for: no ticker named
        ("Thanks, and have a nice day!", []),
    ],
)
def test_a_clause_that_asks_for_no_other_tool_adds_no_call(text, expected):
    assert [name for name, _ in ask(text, MANY)] == expected


def test_two_questions_with_parallel_calls_off_call_the_first_tool():
    text = "What's the weather in Paris and the time in Tokyo?"
    assert ask(text, MANY, parallel_tool_calls=False) == [("get_weather", {"city": "Paris"})]


def test_a_synonym_never_outweighs_the_users_own_word():
    """Synonyms are read only when the user's words find no tool: "汇率" (exchange rate) is the rate tool's
    word, and the converter named "convert" (exchange's synonym) does not win over it; "find" is no synonym
    of "search", so "Find me something to read" searches no flights."""
    rates = fn(
        "get_exchange_rate",
        "Get the exchange rate between two currencies",
        {
            "base": {"type": "string", "enum": ["USD", "GBP", "CNY"]},
            "quote": {"type": "string", "enum": ["USD", "GBP", "CNY"]},
        },
    )
    assert ask("英镑兑人民币汇率是多少", [rates, FX]) == [("get_exchange_rate", {"base": "GBP", "quote": "CNY"})]
    assert ask("Find me something to read", [FLIGHTS]) == []


def test_a_clause_finds_its_tool_by_a_synonym_beside_another_found_by_its_word():
    tools = [FORECAST, CLOCK]
    assert ask("What's the weather in Paris and the time in Tokyo?", tools) == [
        ("get_forecast", {"location": "Paris"}),
        ("get_time", {"timezone": "Asia/Tokyo"}),
    ]


BOOK_HOTEL = fn(
    "book_hotel",
    "Book a hotel room in a city",
    {"city": {"type": "string"}, "check_in": {"type": "string", "format": "date"}},
)
ORDER = fn(
    "get_order_status",
    "Look up the status of a customer order",
    {"order_id": {"type": "string", "pattern": "^ORD-\\d{5}$"}},
)
NEWS = fn("get_news", "Get news headlines about a topic", {"topic": {"type": "string"}})
QUOTE = fn(
    "get_stock_quote",
    "Latest stock quote for a ticker symbol",
    {"symbol": {"type": "string", "pattern": "^[A-Z]{1,5}$"}},
)


@pytest.mark.parametrize(
    ("text", "tools", "expected"),
    [
        # "book" is a noun here: the clause gives a hotel no city and no date, and the order clause is the question
        (
            "I paid 20 dollars for the book, where is my order ORD-12345?",
            [BOOK_HOTEL, ORDER],
            [("get_order_status", {"order_id": "ORD-12345"})],
        ),
        # "its stock price" is Tesla's: a company `[generic.tickers]` lists is its ticker
        (
            "What's the news about Tesla and its stock price?",
            [QUOTE, NEWS],
            [("get_news", {"topic": "Tesla"}), ("get_stock_quote", {"symbol": "TSLA"})],
        ),
        # each clause gives its tool what it asks: both
        (
            "What's the news about Tesla and the stock price of TSLA?",
            [QUOTE, NEWS],
            [("get_news", {"topic": "Tesla"}), ("get_stock_quote", {"symbol": "TSLA"})],
        ),
    ],
)
def test_a_clause_that_only_shares_a_word_with_a_tool_does_not_call_it(text, tools, expected):
    """A clause whose tool asks for what a text gives (a city, a date, a ticker's word) and gets none of it
    only shares a word with the tool: "for the book" called book_hotel(city=<the question>, check_in=2026-01-01)
    beside, or instead of, the order the user asked about."""
    assert valid(ask(text, tools), tools) == expected


def test_two_tools_named_in_one_message_each_take_their_own_part():
    """Two tools named literally were each filled from the whole text: calculate's expression was
    "calculate 2+2 and translate hello into French"."""
    calc = fn("calculate", "Evaluate a math expression", {"expression": {"type": "string"}})
    translate = fn(
        "translate",
        "Translate text",
        {"text": {"type": "string"}, "target": {"type": "string", "enum": ["en", "fr"]}},
    )
    assert ask("calculate 2+2 and translate hello into fr", [calc, translate]) == [
        ("calculate", {"expression": "2 + 2"}),  # the clause's sum (`arith`), not its words
        ("translate", {"text": "hello", "target": "fr"}),  # what to translate: [[generic.phrases]]
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what about yen?", {"amount": 100, "from_currency": "USD", "to_currency": "JPY"}),
        ("那日元呢？", {"amount": 100, "from_currency": "USD", "to_currency": "JPY"}),
        ("and 250?", {"amount": 250, "from_currency": "USD", "to_currency": "EUR"}),
    ],
)
def test_a_follow_up_naming_one_currency_changes_one_field(text, expected):
    """ "what about yen?" after convert(USD → EUR) gave both fields the one currency named: JPY → JPY."""
    asked = (
        "convert 100 USD to EUR",
        ("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}),
    )
    assert follow_up(*asked, text, [FX]) == [("convert_currency", expected)]


@pytest.mark.parametrize(
    ("text", "city"),
    [("查下上海的天气", "上海"), ("看下北京天气", "北京"), ("今天天气怎么样?还有北京时间几点了?", "北京")],
)
def test_a_chinese_place_is_read_without_colloquial_asking_words(text, city):
    # "查下" (查一下) and "还有" were read as part of the name: '下上海', '还有北京'
    assert ask(text, [WEATHER])[0][1]["city"] == city


def test_a_clause_whose_tool_takes_a_choice_it_does_not_name_is_still_called():
    # "英文" names no value of `target` (en, fr): a choice is no reason to think the clause asks for nothing
    translate = fn(
        "translate", "Translate text", {"text": {"type": "string"}, "target": {"type": "string", "enum": ["en", "fr"]}}
    )
    email = fn(
        "send_email", "Send an email", {"to": {"type": "string", "format": "email"}, "subject": {"type": "string"}}
    )
    assert ask("给bob@example.com发邮件，并且把“你好”翻译成英文", [email, translate]) == [
        ("send_email", {"to": "bob@example.com", "subject": "给bob@example.com发邮件"}),
        ("translate", {"text": "你好", "target": "en"}),
    ]


def test_a_long_text_is_read_as_one_question():
    # a page pasted is not picked for clause by clause (each pick of a long clause costs a whole pick)
    from toolkit.gateway import decide

    text = "note " * (decide._MAX_CLAUSE_TEXT // 5) + "What's the weather in Paris and the time in Tokyo?"
    assert [name for name, _ in ask(text, MANY)] == ["get_weather"]
    assert len(ask(text[-60:], MANY)) == 2


@pytest.mark.parametrize(
    ("properties", "text", "expected"),
    [
        # a place by its name, a timezone by its description: the zone
        (
            {"location": {"type": "string", "description": "IANA time zone name"}},
            "What time is it in Tokyo?",
            {"location": "Asia/Tokyo"},
        ),
        # a place described as one stays a place
        (
            {"location": {"type": "string", "description": "City name"}},
            "What time is it in Tokyo?",
            {"location": "Tokyo"},
        ),
        # a field named for nothing, described as a currency code
        (
            {"base": {"type": "string", "description": "ISO 4217 code"}, "amount": {"type": "number"}},
            "how much is 30 euros",
            {"base": "EUR", "amount": 30},
        ),
    ],
)
def test_a_fields_description_says_what_it_asks_for(properties, text, expected):
    schema = {"type": "object", "properties": properties, "required": list(properties)}
    assert fill(schema, text) == expected


AIR = fn("get_air_quality", "Get the air quality index for a city", {"city": {"type": "string"}})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # another tool about the same city: the city carried over, not the question as a city
        ("and the air quality?", [("get_air_quality", {"city": "Paris"})]),
        ("what about the air quality?", [("get_air_quality", {"city": "Paris"})]),
        # a city of its own
        ("and the air quality in London?", [("get_air_quality", {"city": "London"})]),
        # a question of its own (no follow-up's form) that names no city: the one asked about before, not the question
        ("What is the air quality?", [("get_air_quality", {"city": "Paris"})]),
    ],
)
def test_a_follow_up_about_another_tool_carries_the_arguments_it_shares(text, expected):
    """ "and the air quality?" after get_weather(city=Paris) called get_air_quality(city="and the air
    quality?"): a follow-up that picks another tool takes the previous call's argument of the same name."""
    asked = ("What's the weather in Paris?", ("get_weather", {"city": "Paris"}))
    assert follow_up(*asked, text, [WEATHER, AIR, NEWS]) == expected


def test_a_follow_up_about_a_tool_sharing_no_field_carries_nothing():
    asked = ("What's the weather in Paris?", ("get_weather", {"city": "Paris"}))
    assert follow_up(*asked, "and the news about AI?", [WEATHER, AIR, NEWS]) == [("get_news", {"topic": "AI"})]


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("is it raining in Oslo?", "Oslo"),
        ("will it snow in Denver tomorrow?", "Denver"),
        ("Is it sunny in Lisbon right now?", "Lisbon"),
        ("奥斯陆下雨吗？", "奥斯陆"),
        ("明天北京会下雪吗", "北京"),
    ],
)
def test_rain_snow_and_sun_ask_for_the_weather(text, city):
    """ "is it raining in Oslo?" and "下雨吗" found no weather tool: only "weather" (天气) named one. Rain, snow
    and sun are the weather's words too (a hint, one way: "weather" does not find a `train` tool)."""
    tools = [WEATHER, fn("train_model", "Train a model on a dataset", {"dataset": {"type": "string"}})]
    assert ask(text, tools) == [("get_weather", {"city": city})]
    assert ask("what's the weather in Paris?", [tools[1]]) == []


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("the CEO wants to exchange 50 dollars into euros", ("USD", "EUR")),
        ("convert 100 SEK to NOK", ("SEK", "NOK")),
        ("把100 CHF换成HKD", ("CHF", "HKD")),
    ],
)
def test_three_capital_letters_are_a_currency_only_when_iso_4217_lists_them(text, codes):
    """A code of three capital letters standing alone was read as a currency whatever it was: "the CEO", "the
    USA" and "the UAE" filled an ISO 4217 field. Only the codes ISO 4217 lists are (SEK, NOK, CHF)."""
    assert ask(text, [RATE]) == [("exchange", {"base": codes[0], "quote": codes[1]})]


@pytest.mark.parametrize(
    "text",
    ["convert 30 euros, I live in the USA", "convert 100 dollars into the local currency of the UAE, for the API docs"],
)
def test_three_capital_letters_that_are_no_currency_leave_the_other_currency_to_be_asked_for(text):
    """The USA and the UAE are no currency: the one currency the text names is not converted into itself
    (was EUR to EUR, USD to USD); the other is asked for (`generic.missing`)."""
    assert ask(text, [RATE]) == []


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("history of Rome and its weather", "Rome"),
        ("what's the weather of Madrid like?", "Madrid"),
        ("天气怎么样，北京？", "北京"),
        ("现在的天气如何, 上海", "上海"),
        ("what's the weather like over in San Francisco today", "San Francisco"),
    ],
)
def test_a_place_is_read_after_of_and_after_a_chinese_question(text, city):
    """A city field took the whole phrase where the place was written after "of" ("history of Rome and its
    weather") or after the Chinese question it answers ("天气怎么样，北京？")."""
    assert ask(text, [WEATHER]) == [("get_weather", {"city": city})]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ("weather in Paris and in Rome", [("get_weather", "city", "Paris"), ("get_weather", "city", "Rome")]),
        (
            "What's the weather in Paris, Rome and New York?",
            [("get_weather", "city", "Paris"), ("get_weather", "city", "Rome"), ("get_weather", "city", "New York")],
        ),
        ("北京和上海的天气怎么样", [("get_weather", "city", "北京"), ("get_weather", "city", "上海")]),
        (
            "查一下北京、广州和哈尔滨的天气",
            [("get_weather", "city", "北京"), ("get_weather", "city", "广州"), ("get_weather", "city", "哈尔滨")],
        ),
        (
            "time in Tokyo and London",
            [("get_time", "timezone", "Asia/Tokyo"), ("get_time", "timezone", "Europe/London")],
        ),
        # near misses: one place, or places that are not a list of the one field's values
        ("weather in Paris and tell me a joke", [("get_weather", "city", "Paris")]),
        ("weather in Paris for my trip and Rome is next", [("get_weather", "city", "Paris")]),
        ("weather in Paris, please and thanks", [("get_weather", "city", "Paris")]),
        ("what's the weather in Paris and Bob's favourite colour?", [("get_weather", "city", "Paris")]),
        ("把北京和上海的天气告诉我", [("get_weather", "city", "北京"), ("get_weather", "city", "上海")]),
        ("time in Tokyo and Springfield", []),  # Springfield's zone is asked for, not dropped without a word
    ],
)
def test_one_tool_asked_about_several_places_is_called_once_for_each(text, calls):
    """ "weather in Paris and in Rome" made one call, for Paris: a listed place ("A and B", "A, B and C",
    "A和B") of a tool's one place (or timezone) field is a call each, as a model makes them; a tool with
    two place fields (origin, destination) takes its places as before, and a listed place with no zone
    is asked about (its zone), not dropped."""
    made = ask(text, MANY)
    assert [(name, key, arguments[key]) for name, arguments in made for key in [next(iter(arguments))]] == calls
    valid(made, MANY)


@pytest.mark.parametrize(
    ("text", "called"),
    [
        ("I was in Paris last week, the weather was nice.", []),
        ("I love the weather in Rome.", []),
        ("We were in Tokyo at the time, it was late", []),
        ("我上周在巴黎，天气很好。", []),
        # near misses: a question, a request, or what to act on, from the same first person
        ("I was in Paris last week, what's the weather there now?", ["get_weather"]),
        ("I need the weather in Rome.", ["get_weather"]),
        ("I'd like to know the weather in Rome", ["get_weather"]),
        ("I wonder what the time in Tokyo is", ["get_time"]),
        ("我想知道巴黎的天气", ["get_weather"]),
        ("我在北京，天气怎么样", ["get_weather"]),
        ("My stock AAPL2 fell, the quote for AAPL", ["get_stock_quote"]),  # AAPL2 is no ticker: AAPL is
    ],
)
def test_a_statement_in_the_first_person_calls_no_tool(text, called):
    """ "I was in Paris last week, the weather was nice." called get_weather(city=Paris): a sentence that tells
    of the speaker (I, we, my, 我) and asks nothing (no question, no request word, nothing written with digits
    to act on) is talk, answered without a tool, as a model answers it."""
    assert [name for name, _ in ask(text, MANY)] == called


@pytest.mark.parametrize("text", ["拉萨的时间", "what time is it in Lhasa?", "time in Springfield now"])
def test_a_city_with_no_iana_zone_is_asked_about_not_given_an_invented_zone(text):
    """ "上海现在几点？" called get_time(timezone=...) with the description's example zone, another city's time
    given as Shanghai's: the tz database names no Lhasa, no Springfield (and the tables of `zones` name only
    major cities). A model that cannot tell the zone asks for it."""
    assert ask(text, MANY) == []
    reply = respond({"model": "m", "messages": [{"role": "user", "content": text}], "tools": MANY}, GatewayConfig())
    content = reply.body["choices"][0]["message"]["content"]
    assert "IANA" in content and ("时区" in content if not text.isascii() else "time zone" in content)


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("what time is it in Tokyo?", "Asia/Tokyo"),
        ("东京 Asia/Tokyo 现在几点", "Asia/Tokyo"),
        # a major city's Chinese name is the database's city: "现在东京几点？" asked for the zone
        ("现在东京几点？", "Asia/Tokyo"),
        ("纽约现在几点了", "America/New_York"),
        ("上海市的时间", "Asia/Shanghai"),
        # a major city the database does not name keeps its zone's time: China has one zone ("北京现在几点？" asked)
        ("北京现在几点？", "Asia/Shanghai"),
        ("what time is it in Beijing?", "Asia/Shanghai"),
        ("time in San Francisco", "America/Los_Angeles"),
        ("旧金山现在几点", "America/Los_Angeles"),
        # two cities of one zone are one call; a list naming a zone by another of its cities goes on
        ("北京和上海现在几点", "Asia/Shanghai"),
        ("time in Beijing and Tokyo", ["Asia/Shanghai", "Asia/Tokyo"]),
        ("time in Mumbai, Delhi and London", ["Asia/Kolkata", "Europe/London"]),
        # a list of Chinese names is one call a city, as a list of English names is
        ("纽约和伦敦现在几点", ["America/New_York", "Europe/London"]),
        ("现在几点？", []),  # no place, no default stated: asked (`test_a_timezone_never_said_is_asked_for`)
    ],
)
def test_a_zone_the_text_gives_or_none_named_is_called_as_before(text, zone):
    tool = fn(
        "get_time", "Current time", {"timezone": {"type": "string", "description": "IANA zone, e.g. 'Europe/Paris'"}}
    )
    zones = zone if isinstance(zone, list) else [zone]
    assert ask(text, [tool]) == [("get_time", {"timezone": z}) for z in zones]


STRANGERS = [
    fn("get_weather", "Get the current weather for a city", {"city": {"type": "string"}}),
    fn("get_air_quality", "Air quality index for a city", {"location": {"type": "string"}}),
    fn("set_thermostat", "Set the home thermostat temperature", {"celsius": {"type": "number"}}),
    fn(
        "fx_convert",
        "Convert money between currencies",
        {
            "amount": {"type": "number"},
            "src": {"type": "string", "description": "ISO 4217 code"},
            "dst": {"type": "string", "description": "ISO 4217 code"},
        },
    ),
    fn(
        "create_reminder",
        "Create a reminder",
        {"note": {"type": "string"}, "at": {"type": "string", "description": "time HH:MM"}},
        required=["at"],
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("how hot is it in Cairo", ("get_weather", {"city": "Cairo"})),
        ("do I need an umbrella in London today?", ("get_weather", {"city": "London"})),
        ("how is the weather over in Rio de Janeiro these days", ("get_weather", {"city": "Rio de Janeiro"})),
        ("上海今天的空气质量怎么样", ("get_air_quality", {"location": "上海"})),
        ("how much is 250 euros in yen?", ("fx_convert", {"amount": 250, "src": "EUR", "dst": "JPY"})),
        ("100美元等于多少人民币", ("fx_convert", {"amount": 100, "src": "USD", "dst": "CNY"})),
        ("remind me at 07:30 to call mom", ("create_reminder", {"at": "07:30"})),
        ("how much is 10 GBP in EUR", ("fx_convert", {"amount": 10, "src": "GBP", "dst": "EUR"})),
    ],
)
def test_strangers_words_find_their_tools_and_fields(text, expected):
    """Each of these found no tool, or filled a field with the whole question: heat and an umbrella are the
    weather's words, a currency's name is about money ("Convert money between currencies" said neither
    "currency" nor "dollars"), 空气质量 is air quality, a city's name may hold a particle ("Rio de Janeiro"),
    and a field described "HH:MM" asks for a time."""
    assert valid(ask(text, STRANGERS), STRANGERS) == [expected]


LANGS = ["en", "fr", "de", "zh", "ja", "es"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('translate "good morning" into French', {"target": "fr"}),
        ("把这句话翻译成日语：早上好", {"target": "ja"}),
        ("translate 'bonjour' from French to German", {"source": "fr", "target": "de"}),
        ('translate "hola" into en', {"target": "en"}),  # a code written is taken as it is
    ],
)
def test_a_language_named_in_words_is_its_code_in_an_enum_of_codes(text, expected):
    """ "translate into French" sent `en`, the enum's first value: a language named in words (French, 日语)
    is its ISO 639-1 code (`[generic.languages]`) in an enum of codes, as a currency's name is its ISO 4217
    code; the k-th language named for the k-th field."""
    lang = {"type": "string", "enum": LANGS}
    tool = fn("translate", "Translate text", {"text": {"type": "string"}, "source": lang, "target": lang})
    tool["function"]["parameters"]["required"] = ["text", *expected]
    ((name, arguments),) = valid(ask(text, [tool]), [tool])
    assert {k: arguments[k] for k in expected} == expected


def test_a_statement_that_answers_the_assistants_question_is_acted_on():
    """A statement calls no tool, but "I'm in Paris, for the weather." answering "Which city are you in?" is
    what the user was asked for: the weather in Paris."""
    messages = [
        {"role": "user", "content": "what's the weather like?"},
        {"role": "assistant", "content": "Which city are you in?"},
        {"role": "user", "content": "I'm in Paris, for the weather."},
    ]
    reply = respond({"model": "m", "messages": messages, "tools": [WEATHER]}, GatewayConfig())
    calls = reply.body["choices"][0]["message"]["tool_calls"]
    assert [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls] == [
        ("get_weather", {"city": "Paris"})
    ]
    assert ask("I'm in Paris, for the weather.", [WEATHER]) == []


def test_a_chinese_flight_question_finds_the_flight_tool_and_its_two_cities():
    """ "我想订一张 2026-12-20 从北京到上海的机票" found no tool: 机票 and 航班 are flights, and 从 X 到 Y 的机票 names
    the origin, then the destination."""
    flights = fn(
        "search_flights",
        "Search flights between two cities on a date",
        {
            "from_city": {"type": "string"},
            "to_city": {"type": "string"},
            "date": {"type": "string", "format": "date"},
        },
    )
    tools = [flights, WEATHER]
    for text in ["我想订一张 2026-12-20 从北京到上海的机票", "查一下2026-12-20从北京飞上海的航班"]:
        assert ask(text, tools) == [("search_flights", {"from_city": "北京", "to_city": "上海", "date": "2026-12-20"})]
    assert ask("我收到了包裹", tools) == []


MOVIES = fn("search_movies", "Search films by title or actor", {"query": {"type": "string"}})
UNITS = fn("convert_units", "Convert a value between units", {"value": {"type": "number"}, "unit": {"type": "string"}})
MONEY = fn(
    "convert_currency",
    "Convert money between currencies",
    {"amount": {"type": "number"}, "from_currency": {"type": "string"}, "to_currency": {"type": "string"}},
)


@pytest.mark.parametrize(
    ("text", "tools", "picked"),
    [
        ("find movies with Snow White", [WEATHER, MOVIES], "search_movies"),  # "snow" hints the weather
        ("Snow White is my favourite film", [WEATHER, MOVIES], "search_movies"),
        ("is it snowing in Oslo?", [WEATHER, MOVIES], "get_weather"),  # the hint alone finds the tool
        ("convert 10 dollars to euros", [UNITS, MONEY], "convert_currency"),  # a hint breaks the user's words' tie
    ],
)
def test_a_hint_breaks_a_tie_but_never_outweighs_a_word_the_user_wrote(text, tools, picked):
    """Before: a hint's word counted as the user's own, so "snow" (the weather's) took "find movies with Snow
    White" from the film search the user named. Both pickers (the server's prepared one and the plain one)."""
    assert [name for name, _ in ask(text, tools)] == [picked]
    infos = {
        t["function"]["name"]: generic.ToolInfo(t["function"]["description"], t["function"]["parameters"])
        for t in tools
    }
    assert generic.pick(text, infos, "", load_rules()) == picked


# --- a term is found where a word starts ------------------------------------------------------------


def _worded_tools():
    return {
        "train_model": generic.ToolInfo("Train a machine learning model on a dataset", {}),
        "getWeather": generic.ToolInfo("Current conditions for a city", {}),
        "send_email": generic.ToolInfo("Send an e-mail", {}),
    }


@pytest.mark.parametrize(
    ("text", "picked"),
    [
        ("will it rain tomorrow?", "getWeather"),  # "rain" is in train_model's letters, no word of it
        ("train a model on cifar10", "train_model"),
        ("what's the weather?", "getWeather"),  # a camelCase name read as its words
        ("mail Bob", "send_email"),  # a word after a hyphen starts where the hyphen ends
        ("model", "train_model"),
    ],
)
def test_a_term_is_found_only_where_a_word_of_a_tool_starts(text, picked):
    assert generic.pick(text, _worded_tools(), "", load_rules()) == picked


def test_a_term_inside_another_word_of_an_enum_value_scores_nothing():
    schema = {"type": "object", "properties": {"mode": {"type": "string", "enum": ["strain", "rain-check"]}}}
    assert generic.pick_enum(["strain", "rain-check"], "rain", "", load_rules()) == "rain-check"
    tools = {"pick_mode": generic.ToolInfo("Pick a mode", schema)}
    assert generic.pick("a strain", tools, "", load_rules()) == "pick_mode"
    assert generic.pick("train", tools, "", load_rules()) is None


# --- a question of what is there reads --------------------------------------------------------------


def _calendar(order):
    tools = [
        fn("list_events", "List the events on the user's calendar", {}),
        fn("create_event", "Create a calendar event", {"title": {"type": "string"}}, ["title"]),
    ]
    return tools[::order]


@pytest.mark.parametrize("order", [1, -1])
@pytest.mark.parametrize(
    ("text", "called"),
    [
        ("what's on my calendar tomorrow?", "list_events"),
        ("do I have anything on my calendar?", "list_events"),
        ("明天日历上有什么安排？", "list_events"),
        ("put lunch with Ana on my calendar tomorrow at 1pm", "create_event"),
        ("add lunch with Ana to my calendar", "create_event"),
        ("把明天和Ana的午饭加到日历里", "create_event"),
    ],
)
def test_a_calendar_question_lists_and_an_order_creates_whichever_is_listed_first(text, called, order):
    """ "what's on my calendar tomorrow?" called create_event(title="what's on my calendar tomorrow?") when it
    was listed first: both tools tie by "calendar", and the first listed won. A question of what is there keeps
    the tools whose name's verb reads (`[generic] question`, `read_verbs`); an order's verb is a hint (put: create)
    or a word (加到: add, create)."""
    assert [name for name, _ in ask(text, _calendar(order))] == [called]


def test_an_orders_verb_hints_no_word_that_starts_another():
    """The hint add: new picked get_news for "add lunch with Ana on 2026-12-10 at 13:00" (new starts news)."""
    tools = [fn("get_news", "Latest news headlines on a topic", {"topic": {"type": "string"}}), *_calendar(1)]
    for text in ("add lunch with Ana on 2026-12-10 at 13:00", "schedule a meeting with Bob"):
        assert [name for name, _ in ask(text, tools)] == ["create_event"]


FIRST_NAMED = [
    fn("list_events", "List calendar events", {"date": {"type": "string"}}),
    fn("set_reminder", "Set a reminder", {"time": {"type": "string"}, "message": {"type": "string"}}),
    fn("order_pizza", "Order a pizza for delivery", {"size": {"type": "string"}}),
    fn("web_search", "Search the web for information", {"query": {"type": "string"}}),
]


@pytest.mark.parametrize("order", [1, -1])
@pytest.mark.parametrize(
    ("text", "offered", "called"),
    [
        ("明天下午3点提醒我开会", [0, 1], "set_reminder"),
        ("明天有什么会议安排？", [0, 1], "list_events"),
        ("search for the best pizza in NYC", [2, 3], "web_search"),
        ("order a large pizza", [2, 3], "order_pizza"),
    ],
)
def test_of_tools_tied_by_everything_the_one_named_first_is_called(text, offered, called, order):
    """ "明天下午3点提醒我开会" called list_events (by 开会: meeting, event) when it was listed before set_reminder
    (by 提醒: reminder), and "search for the best pizza in NYC" order_pizza before web_search: they tie by the
    words, the object and the arguments the text answers, and the first listed won. Now the tool whose name
    holds the term the text writes first (`generic.first_named`): a request's first words say what is done."""
    tools = [FIRST_NAMED[i] for i in offered][::order]
    assert [name for name, _ in ask(text, tools)] == [called]


@settings(max_examples=500, deadline=None)
@given(
    st.text(alphabet="ab1 _-.éA\u0130事", max_size=60),
    st.text(alphabet="ab1", min_size=1, max_size=3),
)
def test_where_a_term_is_written_is_the_reference_regex_s_answer(text, term):
    """`_written_at` finds a term with `str.find` (no regex compiled for the user's words); the place it gives
    is the reference regex's (`(?<![a-z0-9])term`), also for a term written inside words more often than it
    checks with `find` (then it searches with the regex)."""
    lowered = text.lower()
    assert generic._written_at(lowered, term) == generic._written_at_plainly(lowered, term)


@pytest.mark.parametrize(
    ("lowered", "term", "at"),
    [
        ("prevent the event", "event", 12),
        ("event", "event", 0),
        ("prevent", "event", -1),
        ("_event", "event", 1),
        ("9event event", "event", 7),
        ("ring " * 3 + "sing " * 10 + "ing", "ing", 65),
        ("ring" * 20, "ing", -1),
    ],
)
def test_a_term_is_written_only_where_a_word_starts(lowered, term, at):
    """A term inside a longer word ("event" in "prevent", "ing" in "ring") is not written there; after a
    non-letter (`_`, a blank) it is; past `_FINDS` places inside words the regex answers, alike."""
    assert generic._written_at(lowered, term) == at == generic._written_at_plainly(lowered, term)
