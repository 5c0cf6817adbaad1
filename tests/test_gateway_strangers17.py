"""The embedded gateway on strangers' queries (round 17): catalogues of their own (flights, payments, trading, maps,
weather, restaurants, loans, discounts, smart homes, trains, taxis, CRM, HR, recipes, fitness, banking, shipping,
code search, todo, translation, units) asked in English and Chinese.

The defects found are tested first, by exact replies: a value corrected in the same message ("Paris, I mean Rome",
北京的天气，我是说上海: `corrected`); a percentage in words ("eighteen percent", 百分之十八) for a required
percentage field; a required number named by its field's word ("for 30 years" to `years`); a route's place run on
into its condition ("to Lyon avoiding tolls") or its day ("to LAX next Friday"); an origin written before "to"
without "from" ("fly NYC to LAX", 上海到北京的机票); a Chinese trade order (卖出100股茅台) answered with a greeting; a
question about a state that called the tool changing it ("is the front door locked?" to lock_door:
`state_question`), and the thing it names ("the front door") taken as the whole question (`named_thing`). The probes
answered as a model would are kept below as a regression; those answered otherwise are named in the round's report.
"""

import json

import pytest
from test_gateway_generic_asks import S, fn, turn
from test_gateway_strangers15 import D, E

from toolkit.gateway.core import GatewayConfig, respond

N, I, B = {"type": "number"}, {"type": "integer"}, {"type": "boolean"}


WEATHER = [fn("get_weather", "Get the weather for a city", {"city": S}, ["city"])]
FLIGHTS = [
    fn(
        "search_flights",
        "Search flights between two airports",
        {"origin": S, "destination": S, "depart_date": D("", format="date")},
        ["origin", "destination", "depart_date"],
    )
]
TABLE = [
    fn(
        "book_table",
        "Book a restaurant table",
        {"restaurant": S, "party_size": I, "time": D("", format="time")},
        ["restaurant", "party_size"],
    )
]
TIP = [
    fn(
        "calc_tip",
        "Calculate a tip",
        {"bill": N, "percent": {"type": "number", "minimum": 0, "maximum": 100}},
        ["bill", "percent"],
    )
]
TIP_OPTIONAL = [fn("calc_tip", "Calculate a tip", {"bill": N, "tip_pct": D("Tip percentage", "number")}, ["bill"])]
LOAN = [
    fn(
        "loan_payment",
        "Monthly payment of a loan",
        {"principal": N, "annual_rate_percent": {"type": "number", "minimum": 0, "maximum": 30}, "years": I},
    )
]
TRADE = [
    fn("get_quote", "Get a stock quote", {"symbol": S}),
    fn(
        "place_order",
        "Buy or sell shares",
        {"symbol": S, "side": E("buy", "sell"), "quantity": I},
        ["symbol", "side", "quantity"],
    ),
]
ROUTE = [fn("get_route", "Route between two places", {"from": S, "to": S, "avoid_tolls": B}, ["from", "to"])]
DOOR = [
    fn("lock_door", "Lock or unlock a door", {"door": S, "locked": B}, ["door", "locked"]),
    fn("get_door_status", "Get whether a door is locked", {"door": S}, ["door"]),
]
LOCK_ONLY = DOOR[:1]
LIGHTS = [fn("turn_on_light", "Turn a light on or off", {"light": S, "on": B}, ["light", "on"])]
CONVERT = [fn("convert", "Convert currency", {"amount": N, "from": S, "to": S})]
TRAIN = [
    fn(
        "search_trains",
        "Search train tickets",
        {"from_station": S, "to_station": S, "date": D("", format="date")},
        ["from_station", "to_station"],
    )
]


# --- a value corrected in the same message ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tools", "call"),
    [
        ("weather in Paris, I mean Rome", WEATHER, ("get_weather", {"city": "Rome"})),
        ("weather in Paris, no wait, Rome", WEATHER, ("get_weather", {"city": "Rome"})),
        ("weather in New York, I mean Boston", WEATHER, ("get_weather", {"city": "Boston"})),
        ("weather in not Paris, London", WEATHER, ("get_weather", {"city": "London"})),
        ("weather in London, not Paris", WEATHER, ("get_weather", {"city": "London"})),
        ("weather not in Paris but in London", WEATHER, ("get_weather", {"city": "London"})),
        ("北京的天气，我是说上海", WEATHER, ("get_weather", {"city": "上海"})),
        ("查一下北京天气，不对，是上海", WEATHER, ("get_weather", {"city": "上海"})),
        ("不是北京，是上海的天气", WEATHER, ("get_weather", {"city": "上海"})),
        ("book a table at Nopa for 4, I mean 5", TABLE, ("book_table", {"restaurant": "Nopa", "party_size": 5})),
        (
            "book a table at Nopa for 4 people, make that 6",
            TABLE,
            ("book_table", {"restaurant": "Nopa", "party_size": 6}),
        ),
        (
            "flights from Boston to Denver tomorrow, sorry, next Friday",
            FLIGHTS,
            ("search_flights", {"origin": "Boston", "destination": "Denver", "depart_date": "2026-12-11"}),
        ),
        (
            "flights from Boston to Denver on Monday, I mean Wednesday",
            FLIGHTS,
            ("search_flights", {"origin": "Boston", "destination": "Denver", "depart_date": "2026-12-02"}),
        ),
    ],
)
def test_the_corrected_value_wins(text, tools, call):
    """ "weather in Paris, I mean Rome" called get_weather(city="Paris"); 不是北京，是上海的天气 the city 是上海."""
    assert turn(text, tools)[0] == [call]


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("Hi, sorry to bother you, what's the weather in Oslo?", "Oslo"),
        ("weather in Paris, actually I need Rome", "Paris"),
        ("I'm not sure, is it raining in Oslo?", "Oslo"),
        ("what do you mean by weather in Oslo", "Oslo"),
    ],
)
def test_words_of_a_correction_that_correct_nothing_leave_the_text_as_it_is(text, city):
    assert turn(text, WEATHER)[0] == [("get_weather", {"city": city})]


# --- percentages in words, a number named by its field's word ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tools", "call"),
    [
        ("tip on 80 dollars at eighteen percent", TIP, ("calc_tip", {"bill": 80, "percent": 18})),
        ("80块钱的账单，小费百分之十八", TIP, ("calc_tip", {"bill": 80, "percent": 18})),
        ("tip on a 60 dollar bill, twenty percent", TIP_OPTIONAL, ("calc_tip", {"bill": 60, "tip_pct": 20})),
        ("tip on a 60 dollar bill, twenty-five per cent", TIP_OPTIONAL, ("calc_tip", {"bill": 60, "tip_pct": 25})),
        (
            "monthly payment on a 300000 loan at five percent for 30 years",
            LOAN,
            ("loan_payment", {"principal": 300000, "annual_rate_percent": 5, "years": 30}),
        ),
        (
            "monthly payment on a 300000 loan at 4.5% for 30 years",
            LOAN,
            ("loan_payment", {"principal": 300000, "annual_rate_percent": 4.5, "years": 30}),
        ),
    ],
)
def test_a_percentage_in_words_and_a_number_by_its_fields_word(text, tools, call):
    """ "at eighteen percent" to a required `percent` was 80 (the bill), "for 30 years" to `years` 300000."""
    assert turn(text, tools)[0] == [call]


# --- places: a route's condition, a day, an origin before "to" ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tools", "call"),
    [
        ("route from Paris to Lyon avoiding tolls", ROUTE, ("get_route", {"from": "Paris", "to": "Lyon"})),
        ("route from Paris to Lyon via Dijon", ROUTE, ("get_route", {"from": "Paris", "to": "Lyon"})),
        (
            "fly NYC to LAX next Friday",
            FLIGHTS,
            ("search_flights", {"origin": "NYC", "destination": "LAX", "depart_date": "2026-12-11"}),
        ),
        (
            "flights SFO to JFK tomorrow",
            FLIGHTS,
            ("search_flights", {"origin": "SFO", "destination": "JFK", "depart_date": "2026-12-02"}),
        ),
        (
            "Boston to Denver on Friday, any flights?",
            FLIGHTS,
            ("search_flights", {"origin": "Boston", "destination": "Denver", "depart_date": "2026-12-04"}),
        ),
        (
            "上海到北京的机票，明天",
            FLIGHTS,
            ("search_flights", {"origin": "上海", "destination": "北京", "depart_date": "2026-12-02"}),
        ),
        (
            "查一下上海到北京明天的航班",
            FLIGHTS,
            ("search_flights", {"origin": "上海", "destination": "北京", "depart_date": "2026-12-02"}),
        ),
        ("convert 100 USD to EUR", CONVERT, ("convert", {"amount": 100, "from": "USD", "to": "EUR"})),
    ],
)
def test_a_place_ends_where_its_condition_or_day_starts_and_an_origin_needs_no_from(text, tools, call):
    """ "to Lyon avoiding tolls" was the destination "Lyon avoiding tolls"; "fly NYC to LAX next Friday" got the
    greeting, then asked for the origin NYC; "convert 100 USD to EUR" to `from`/`to` asked for "from"."""
    assert turn(text, tools)[0] == [call]


def test_a_flight_with_no_origin_is_still_asked_about():
    assert turn("book a flight to Paris next Friday", FLIGHTS) == (
        [],
        'What should I use for "origin"? Your message does not say.',
    )


# --- a Chinese trade order -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        ("卖出100股茅台", {"symbol": "600519.SS", "side": "sell", "quantity": 100}),
        ("买入200股腾讯", {"symbol": "0700.HK", "side": "buy", "quantity": 200}),
        ("帮我买进50股苹果", {"symbol": "AAPL", "side": "buy", "quantity": 50}),
    ],
)
def test_a_chinese_trade_order_is_placed(text, arguments):
    """卖出100股茅台 got the greeting: no word of the tools' was read in it."""
    assert turn(text, TRADE)[0] == [("place_order", arguments)]


# --- a question about a state ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tools", "reply"),
    [
        (
            "is the front door locked?",
            LOCK_ONLY,
            "I can't check that: lock_door can only change it, and no tool here reads its state. Should I change it?",
        ),
        (
            "is the kitchen light on?",
            LIGHTS,
            "I can't check that: turn_on_light can only change it, and no tool here reads its state. "
            "Should I change it?",
        ),
        (
            "前门锁了吗？",
            LOCK_ONLY,
            "抱歉，我无法查看它现在的状态：lock_door 只能更改它，这里没有读取状态的工具。需要更改吗？",
        ),
    ],
)
def test_a_question_about_a_state_changes_nothing(text, tools, reply):
    """ "is the front door locked?" to lock_door alone called lock_door(door="is the front door locked?",
    locked=false): the question unlocked the door."""
    assert turn(text, tools) == ([], reply)


def test_a_question_about_a_state_calls_the_tool_that_reads_it_with_the_thing_named():
    assert turn("is the front door locked?", DOOR)[0] == [("get_door_status", {"door": "front door"})]
    assert turn("lock the front door", LOCK_ONLY)[0] == [("lock_door", {"door": "front door", "locked": True})]
    assert turn("turn on the kitchen light", LIGHTS)[0] == [("turn_on_light", {"light": "kitchen light", "on": True})]


# --- a place near which to look, a todo's title, a parcel -----------------------------------------------------------

MAPS = [
    fn(
        "get_directions",
        "Get directions between two places",
        {"origin": S, "destination": S, "mode": E("driving", "walking", "transit", "cycling")},
        ["origin", "destination"],
    ),
    fn(
        "find_nearby",
        "Find places near a location",
        {"query": S, "near": S, "radius_m": {"type": "integer", "minimum": 100, "maximum": 50000}},
        ["query", "near"],
    ),
]
TODO = [
    fn(
        "add_todo",
        "Add an item to the todo list",
        {
            "title": S,
            "due_date": D("", format="date"),
            "priority": E("low", "normal", "high", description="default normal"),
        },
        ["title"],
    ),
    fn("complete_todo", "Mark a todo item done", {"todo_id": I}, ["todo_id"]),
]
SHIP = [
    fn(
        "track_shipment",
        "Track a shipment",
        {"tracking_number": {"type": "string", "minLength": 8}, "carrier": E("ups", "fedex", "dhl", "usps")},
        ["tracking_number"],
    )
]


@pytest.mark.parametrize(
    ("text", "tools", "call"),
    [
        ("coffee shops near Union Square within 500 m", MAPS, ("find_nearby", "near", "Union Square")),
        ("find places around Times Square", MAPS, ("find_nearby", "near", "Times Square")),
        ("从天安门到颐和园怎么走", MAPS, ("get_directions", "destination", "颐和园")),
        ("add buy milk to my todo list", TODO, ("add_todo", "title", "buy milk")),
        ("remind me to call mom tomorrow, high priority", TODO, ("add_todo", "title", "call mom")),
        ("添加待办：交电费，明天", TODO, ("add_todo", "title", "交电费")),
        ("where is my package 1Z999AA10123456784?", SHIP, ("track_shipment", "tracking_number", "1Z999AA10123456784")),
    ],
)
def test_the_part_of_the_text_a_field_is_named_for(text, tools, call):
    """ "coffee shops near Union Square" gave `near` the whole question, 颐和园怎么走 was the destination, "add buy milk
    to my todo list" the title, and "where is my package 1Z…?" got the greeting (no word of "Track a shipment")."""
    name, field, value = call
    calls = turn(text, tools)[0]
    assert [(n, a[field]) for n, a in calls] == [(name, value)]


def test_near_me_names_no_place_and_is_asked_for():
    assert turn("find pharmacies near me", MAPS) == ([], 'What should I use for "near"? Your message does not say.')


# --- a value taken back, a request cancelled, an id its pattern refuses, a look-up by "show" --------------------------

HOTEL = [
    fn(
        "book_hotel",
        "Book a hotel room",
        {
            "city": S,
            "check_in": D("", format="date"),
            "nights": {"type": "integer", "minimum": 1, "maximum": 30},
            "room_type": E("single", "double", "suite"),
        },
        ["city", "check_in", "nights"],
    )
]
TICKETS = [
    fn("create_ticket", "Create a support ticket", {"subject": S, "severity": E("sev1", "sev2", "sev3")}),
    fn("get_ticket", "Get a support ticket by id", {"ticket_id": {"type": "string", "pattern": "^TCK-\\d{4,}$"}}),
]


def test_a_choice_taken_back_is_not_chosen():
    """ "not a suite, a double" booked a suite."""
    text = "hotel in Nice on 24 December for 2 nights, not a suite, a double"
    arguments = {"city": "Nice", "check_in": "2026-12-24", "nights": 2, "room_type": "double"}
    assert turn(text, HOTEL)[0] == [("book_hotel", arguments)]


@pytest.mark.parametrize(
    "text", ["weather in Paris? actually no, never mind", "weather in Rome, forget it", "查一下北京天气，算了"]
)
def test_a_request_taken_back_at_its_end_calls_nothing(text):
    """ "weather in Paris? actually no, never mind" looked the weather up."""
    calls, said = turn(text, WEATHER)
    assert calls == [] and said


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("show ticket TCK-12", ([], 'What should I use for "ticket id"? Your message does not say.')),
        ("show ticket TCK-1234", ([("get_ticket", {"ticket_id": "TCK-1234"})], None)),
    ],
)
def test_a_look_up_by_show_reads_and_an_id_its_pattern_refuses_is_asked_about(text, reply):
    """ "show ticket TCK-12" asked which severity a new ticket should have (create_ticket, listed first, tied on
    "ticket"), then called get_ticket(ticket_id="TCK-0000"), an id built from the pattern."""
    assert turn(text, TICKETS) == reply


# --- probes answered as a model would: kept as a regression --------------------------------------------------------

_HOTEL = [
    fn(
        "book_hotel",
        "Book a hotel room",
        {
            "city": S,
            "check_in": D("", format="date"),
            "nights": {"type": "integer", "minimum": 1, "maximum": 30},
            "guests": {"type": "integer", "minimum": 1, "maximum": 8},
            "room_type": E("single", "double", "suite"),
        },
        ["city", "check_in", "nights"],
    )
]
_MAPS = [
    fn(
        "get_directions",
        "Get directions between two places",
        {"origin": S, "destination": S, "mode": E("driving", "walking", "transit", "cycling")},
        ["origin", "destination"],
    ),
    fn(
        "find_nearby",
        "Find places near a location",
        {"query": S, "near": S, "radius_m": {"type": "integer", "minimum": 100, "maximum": 50000}},
        ["query", "near"],
    ),
]
_UNITS = [
    fn(
        "convert_units",
        "Convert a value between units",
        {"value": N, "from_unit": S, "to_unit": S},
        ["value", "from_unit", "to_unit"],
    )
]
_TODO = [
    fn(
        "add_todo",
        "Add an item to the todo list",
        {
            "title": S,
            "due_date": D("", format="date"),
            "priority": E("low", "normal", "high", description="default normal"),
        },
        ["title"],
    ),
    fn("list_todos", "List todo items", {"status": E("open", "done", "all")}),
    fn("complete_todo", "Mark a todo item done", {"todo_id": I}, ["todo_id"]),
]
_TRANSL = [
    fn(
        "translate",
        "Translate text to another language",
        {"text": S, "target": E("en", "fr", "de", "es", "zh", "ja")},
        ["text", "target"],
    )
]
_STOCK = [
    fn("get_stock_price", "Get the latest price of a stock", {"ticker": S}, ["ticker"]),
    fn(
        "place_trade",
        "Buy or sell a stock",
        {
            "ticker": S,
            "action": E("buy", "sell"),
            "shares": {"type": "integer", "minimum": 1},
            "limit_price": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        },
        ["ticker", "action", "shares"],
    ),
]
_IOT = [
    fn(
        "set_thermostat",
        "Set the thermostat temperature",
        {"temperature_c": {"type": "number", "minimum": 10, "maximum": 30, "multipleOf": 0.5}, "room": S},
        ["temperature_c"],
    ),
    fn("toggle_light", "Turn a light on or off", {"light": S, "on": B}, ["light", "on"]),
    fn("get_sensor", "Read a sensor value", {"sensor": E("temperature", "humidity", "co2")}, ["sensor"]),
]
_CRM = [
    fn(
        "create_contact",
        "Create a CRM contact",
        {"name": S, "email": D("", format="email"), "phone": S, "company": S},
        ["name", "email"],
    ),
    fn("find_contact", "Search contacts by name or email", {"query": S}, ["query"]),
    fn(
        "log_call",
        "Log a call with a contact",
        {"contact_email": D("", format="email"), "notes": S, "duration_minutes": I},
        ["contact_email", "notes"],
    ),
]
_TICKETS = [
    fn(
        "create_ticket",
        "Create a support ticket",
        {"subject": S, "description": S, "severity": E("sev1", "sev2", "sev3")},
        ["subject", "severity"],
    ),
    fn(
        "get_ticket",
        "Get a support ticket by id",
        {"ticket_id": {"type": "string", "pattern": "^TCK-\\d{4,}$"}},
        ["ticket_id"],
    ),
    fn(
        "close_ticket",
        "Close a support ticket",
        {"ticket_id": {"type": "string", "pattern": "^TCK-\\d{4,}$"}, "resolution": S},
        ["ticket_id"],
    ),
]
_HR = [
    fn(
        "request_leave",
        "Submit a leave request",
        {
            "start_date": D("", format="date"),
            "end_date": D("", format="date"),
            "leave_type": E("vacation", "sick", "personal"),
            "note": S,
        },
        ["start_date", "end_date", "leave_type"],
    ),
    fn("leave_balance", "Get remaining leave days", {"year": {"type": "integer", "minimum": 2020, "maximum": 2030}}),
]
_RECIPE = [
    fn(
        "search_recipes",
        "Search recipes",
        {
            "ingredients": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "max_minutes": I,
            "diet": E("vegan", "vegetarian", "keto", "none"),
        },
        ["ingredients"],
    )
]
_FIT = [
    fn(
        "log_workout",
        "Log a workout",
        {
            "activity": E("run", "walk", "bike", "swim", "yoga"),
            "minutes": {"type": "integer", "minimum": 1, "maximum": 600},
            "distance_km": {"type": "number", "minimum": 0},
        },
        ["activity", "minutes"],
    )
]
_BANK = [
    fn("get_balance", "Get an account balance", {"account": E("checking", "savings")}, ["account"]),
    fn(
        "transfer_funds",
        "Transfer money between accounts",
        {
            "from_account": E("checking", "savings"),
            "to_account": E("checking", "savings"),
            "amount": {"type": "number", "exclusiveMinimum": 0},
        },
        ["from_account", "to_account", "amount"],
    ),
]
_SHIP = [
    fn(
        "track_shipment",
        "Track a shipment",
        {"tracking_number": {"type": "string", "minLength": 8}, "carrier": E("ups", "fedex", "dhl", "usps")},
        ["tracking_number"],
    )
]
_CODE = [
    fn(
        "search_code",
        "Search the code base",
        {"query": S, "language": E("python", "go", "rust", "java"), "path": S},
        ["query"],
    )
]
_EVENT = [
    fn(
        "create_event",
        "Create a calendar event",
        {
            "title": S,
            "start": D("", format="date-time"),
            "attendees": {"type": "array", "items": D("", format="email")},
        },
        ["title", "start"],
    )
]
_REF = [
    {
        "type": "function",
        "function": {
            "name": "create_order",
            "description": "Create a shipping order",
            "parameters": {
                "type": "object",
                "$defs": {"addr": {"type": "object", "properties": {"city": S, "zip": S}, "required": ["city"]}},
                "properties": {"to": {"$ref": "#/$defs/addr"}, "weight_kg": {"type": "number", "minimum": 0.1}},
                "required": ["to", "weight_kg"],
            },
        },
    }
]
_NULLENUM = [
    fn(
        "set_fan",
        "Set the fan speed",
        {"speed": {"anyOf": [{"type": "string", "enum": ["low", "medium", "high"]}, {"type": "null"}]}},
        ["speed"],
    )
]
_WEATHER = [
    fn("get_weather", "Get the current weather for a city", {"city": S, "unit": E("celsius", "fahrenheit")}, ["city"])
]

_PAY = [
    fn(
        "send_money",
        "Send money to a contact",
        {"recipient": S, "amount": N, "currency": E("USD", "EUR", "GBP")},
        ["recipient", "amount", "currency"],
    )
]
_FL = [
    fn(
        "search_flights",
        "Search flights",
        {"origin": S, "destination": S, "date": D("", format="date")},
        ["origin", "destination", "date"],
    )
]
_HEAT = [fn("set_heater", "Turn the heater on or off", {"on": B}, ["on"])]

CATALOGUES = {
    "PAY": _PAY,
    "FL": _FL,
    "HEAT": _HEAT,
    "HOTEL": _HOTEL,
    "MAPS": _MAPS,
    "UNITS": _UNITS,
    "TODO": _TODO,
    "TRANSL": _TRANSL,
    "STOCK": _STOCK,
    "IOT": _IOT,
    "CRM": _CRM,
    "TICKETS": _TICKETS,
    "HR": _HR,
    "RECIPE": _RECIPE,
    "FIT": _FIT,
    "BANK": _BANK,
    "SHIP": _SHIP,
    "CODE": _CODE,
    "EVENT": _EVENT,
    "REF": _REF,
    "NULLENUM": _NULLENUM,
    "WEATHER": _WEATHER,
}

PROBES = [
    (
        "book a hotel in Lisbon from December 12 for 3 nights",
        "HOTEL",
        {},
        [("book_hotel", {"city": "Lisbon", "check_in": "2026-12-12", "nights": 3})],
        None,
    ),
    (
        "hotel in Lisbon next Friday for two nights, 2 guests, a suite",
        "HOTEL",
        {},
        [("book_hotel", {"city": "Lisbon", "check_in": "2026-12-11", "nights": 2, "room_type": "suite", "guests": 2})],
        None,
    ),
    (
        "I need a room in Porto tomorrow for a week",
        "HOTEL",
        {},
        [("book_hotel", {"city": "Porto", "check_in": "2026-12-02", "nights": 7})],
        None,
    ),
    (
        "directions from the Louvre to the Eiffel Tower by bike",
        "MAPS",
        {},
        [("get_directions", {"origin": "the Louvre", "destination": "the Eiffel Tower"})],
        None,
    ),
    (
        "how do I walk from Central Station to the museum",
        "MAPS",
        {},
        [("get_directions", {"origin": "Central Station", "destination": "the museum"})],
        None,
    ),
    ("find pharmacies near me", "MAPS", {}, [], 'What should I use for "near"? Your message does not say.'),
    ("从天安门到颐和园怎么走", "MAPS", {}, [("get_directions", {"origin": "天安门", "destination": "颐和园"})], None),
    (
        "convert 5 miles to km",
        "UNITS",
        {},
        [("convert_units", {"value": 5, "from_unit": "miles", "to_unit": "km"})],
        None,
    ),
    (
        "how many pounds is 3 kilograms",
        "UNITS",
        {},
        [("convert_units", {"value": 3, "from_unit": "kilograms", "to_unit": "pounds"})],
        None,
    ),
    ("10英尺换算成米", "UNITS", {}, [("convert_units", {"value": 10, "from_unit": "英尺", "to_unit": "米"})], None),
    ("add buy milk to my todo list", "TODO", {}, [("add_todo", {"title": "buy milk"})], None),
    (
        "remind me to call mom tomorrow, high priority",
        "TODO",
        {},
        [("add_todo", {"title": "call mom", "priority": "high"})],
        None,
    ),
    ("添加待办：交电费，明天", "TODO", {}, [("add_todo", {"title": "交电费"})], None),
    ("完成任务7", "TODO", {}, [("complete_todo", {"todo_id": 7})], None),
    (
        "translate good morning into French",
        "TRANSL",
        {},
        [("translate", {"text": "good morning", "target": "fr"})],
        None,
    ),
    ("把你好翻译成英文", "TRANSL", {}, [("translate", {"text": "你好", "target": "en"})], None),
    (
        "translate 'see you soon' to Italian",
        "TRANSL",
        {},
        [],
        '"target" can only be one of: en, fr, de, es, zh, ja. What you asked for is not one of them; which should I use?',
    ),
    ("what's Apple trading at?", "STOCK", {}, [("get_stock_price", {"ticker": "AAPL"})], None),
    (
        "buy 20 shares of NVDA at 120 dollars",
        "STOCK",
        {},
        [("place_trade", {"ticker": "NVDA", "action": "buy", "shares": 20})],
        None,
    ),
    (
        "sell fifty shares of Tesla",
        "STOCK",
        {},
        [("place_trade", {"ticker": "TSLA", "action": "sell", "shares": 50})],
        None,
    ),
    ("特斯拉股价多少", "STOCK", {}, [("get_stock_price", {"ticker": "TSLA"})], None),
    ("卖出100股茅台", "STOCK", {}, [("place_trade", {"ticker": "600519.SS", "action": "sell", "shares": 100})], None),
    (
        "set the thermostat to 21.5 degrees in the living room",
        "IOT",
        {},
        [("set_thermostat", {"temperature_c": 21.5})],
        None,
    ),
    ("turn off the bedroom light", "IOT", {}, [("toggle_light", {"light": "bedroom light", "on": False})], None),
    ("what's the humidity?", "IOT", {}, [("get_sensor", {"sensor": "humidity"})], None),
    ("把空调调到二十五度", "IOT", {}, [("set_thermostat", {"temperature_c": 25})], None),
    (
        "is the bedroom light on?",
        "IOT",
        {},
        [],
        "I can't check that: toggle_light can only change it, and no tool here reads its state. Should I change it?",
    ),
    ("create a contact for John Smith", "CRM", {}, [], 'What should I use for "email"? Your message does not say.'),
    (
        "close ticket TCK-9981, fixed by restarting the service",
        "TICKETS",
        {},
        [("close_ticket", {"ticket_id": "TCK-9981"})],
        None,
    ),
    (
        "open a ticket about the broken VPN",
        "TICKETS",
        {},
        [],
        'Which "severity" should I use: sev1, sev2, sev3? Your message does not say.',
    ),
    ("close my ticket", "TICKETS", {}, [], 'What should I use for "ticket id"? Your message does not say.'),
    (
        "I want vacation from Dec 21 to Dec 24",
        "HR",
        {},
        [("request_leave", {"start_date": "2026-12-21", "end_date": "2026-12-24", "leave_type": "vacation"})],
        None,
    ),
    (
        "sick leave today and tomorrow",
        "HR",
        {},
        [("request_leave", {"start_date": "2026-12-01", "end_date": "2026-12-02", "leave_type": "sick"})],
        None,
    ),
    (
        "下周一到周三请年假",
        "HR",
        {},
        [("request_leave", {"start_date": "2026-12-07", "end_date": "2026-12-09", "leave_type": "vacation"})],
        None,
    ),
    ("log a 5 km run, 28 minutes", "FIT", {}, [("log_workout", {"activity": "run", "minutes": 28})], None),
    ("did yoga for an hour", "FIT", {}, [("log_workout", {"activity": "yoga", "minutes": 60})], None),
    ("跑步半小时，5公里", "FIT", {}, [("log_workout", {"activity": "run", "minutes": 30})], None),
    ("what's my savings balance?", "BANK", {}, [("get_balance", {"account": "savings"})], None),
    (
        "transfer five hundred dollars from savings to checking",
        "BANK",
        {},
        [("transfer_funds", {"from_account": "savings", "to_account": "checking", "amount": 500})],
        None,
    ),
    (
        "where is my package 1Z999AA10123456784?",
        "SHIP",
        {},
        [("track_shipment", {"tracking_number": "1Z999AA10123456784"})],
        None,
    ),
    (
        "track fedex 789456123012",
        "SHIP",
        {},
        [("track_shipment", {"tracking_number": "789456123012", "carrier": "fedex"})],
        None,
    ),
    ("track my parcel", "SHIP", {}, [], 'What should I use for "tracking number"? Your message does not say.'),
    (
        "create an event called Dentist on 2026-12-09 at 3pm",
        "EVENT",
        {},
        [("create_event", {"title": "Dentist", "start": "2026-12-09T15:00:00Z"})],
        None,
    ),
    (
        "ship a 2.5 kg parcel to Berlin",
        "REF",
        {},
        [("create_order", {"to": {"city": "Berlin"}, "weight_kg": 2.5})],
        None,
    ),
    ("set the fan to high", "NULLENUM", {}, [("set_fan", {"speed": "high"})], None),
    (
        "what's the weather in Oslo in fahrenheit",
        "WEATHER",
        {},
        [("get_weather", {"city": "Oslo", "unit": "fahrenheit"})],
        None,
    ),
    (
        "what is the capital of France?",
        "WEATHER",
        {},
        [],
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?",
    ),
    (
        "tell me a joke",
        "STOCK",
        {},
        [],
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?",
    ),
    ("thanks, that's all", "TODO", {}, [], "You're welcome! Ask me any time you have another question."),
    (
        "buy 5 AAPL and sell 3 TSLA",
        "STOCK",
        {"parallel_tool_calls": False},
        [("place_trade", {"ticker": "AAPL", "action": "buy", "shares": 5})],
        None,
    ),
    (
        "buy 5 AAPL and sell 3 TSLA",
        "STOCK",
        {},
        [
            ("place_trade", {"ticker": "AAPL", "action": "buy", "shares": 5}),
            ("place_trade", {"ticker": "TSLA", "action": "sell", "shares": 3}),
        ],
        None,
    ),
    (
        "weather in Paris and Rome",
        "WEATHER",
        {"parallel_tool_calls": False},
        [("get_weather", {"city": "Paris"})],
        None,
    ),
    ("whats teh weather in berlin", "WEATHER", {}, [("get_weather", {"city": "berlin"})], None),
    (
        "hotel in Nice on 24 December for 2 nights, not a suite, a double",
        "HOTEL",
        {},
        [("book_hotel", {"city": "Nice", "check_in": "2026-12-24", "nights": 2, "room_type": "double"})],
        None,
    ),
    (
        "convert 3 cups to ml",
        "UNITS",
        {},
        [("convert_units", {"value": 3, "from_unit": "cups", "to_unit": "ml"})],
        None,
    ),
    (
        "what is 100 km in miles",
        "UNITS",
        {},
        [("convert_units", {"value": 100, "from_unit": "km", "to_unit": "miles"})],
        None,
    ),
    ("add 'file taxes' to my list", "TODO", {}, [("add_todo", {"title": "file taxes"})], None),
    (
        "translate 'where is the station' into German",
        "TRANSL",
        {},
        [("translate", {"text": "where is the station", "target": "de"})],
        None,
    ),
    ("price of MSFT", "STOCK", {}, [("get_stock_price", {"ticker": "MSFT"})], None),
    ("how's Google stock doing today", "STOCK", {}, [("get_stock_price", {"ticker": "GOOGL"})], None),
    ("buy AAPL", "STOCK", {}, [], 'What should I use for "shares"? Your message does not say.'),
    (
        "buy 10 shares of Apple with a limit of 180",
        "STOCK",
        {},
        [("place_trade", {"ticker": "AAPL", "action": "buy", "shares": 10, "limit_price": 180})],
        None,
    ),
    (
        "set thermostat to 21.3",
        "IOT",
        {},
        [],
        '"temperature c" must be between 10 and 30 and a multiple of 0.5, and your message gives no such number. What should I use?',
    ),
    (
        "set the thermostat to 40",
        "IOT",
        {},
        [],
        '"temperature c" must be between 10 and 30 and a multiple of 0.5, and your message gives no such number. What should I use?',
    ),
    ("turn on the porch light", "IOT", {}, [("toggle_light", {"light": "porch light", "on": True})], None),
    ("what's the CO2 level", "IOT", {}, [("get_sensor", {"sensor": "co2"})], None),
    ("close TCK-0042", "TICKETS", {}, [("close_ticket", {"ticket_id": "TCK-0042"})], None),
    ("show ticket TCK-12", "TICKETS", {}, [], 'What should I use for "ticket id"? Your message does not say.'),
    (
        "request personal leave on December 18",
        "HR",
        {},
        [],
        'What should I use for "end date"? Your message does not say.',
    ),
    (
        "take vacation next Monday through Friday",
        "HR",
        {},
        [("request_leave", {"start_date": "2026-12-07", "end_date": "2026-12-11", "leave_type": "vacation"})],
        None,
    ),
    ("log a 30 minute walk", "FIT", {}, [("log_workout", {"activity": "walk", "minutes": 30})], None),
    ("savings balance please", "BANK", {}, [("get_balance", {"account": "savings"})], None),
    (
        "transfer 100 from checking to savings",
        "BANK",
        {},
        [("transfer_funds", {"from_account": "checking", "to_account": "savings", "amount": 100})],
        None,
    ),
    ("transfer 100 to savings", "BANK", {}, [], 'What should I use for "from account"? Your message does not say.'),
    ("what's my checking account balance", "BANK", {}, [("get_balance", {"account": "checking"})], None),
    (
        "track UPS 1Z999AA10123456784",
        "SHIP",
        {},
        [("track_shipment", {"tracking_number": "1Z999AA10123456784", "carrier": "ups"})],
        None,
    ),
    (
        "has my DHL parcel JD014600006281110000 arrived?",
        "SHIP",
        {},
        [("track_shipment", {"tracking_number": "JD014600006281110000", "carrier": "dhl"})],
        None,
    ),
    (
        "meeting called Budget review on Friday at 2pm",
        "EVENT",
        {},
        [("create_event", {"title": "Budget review", "start": "2026-12-04T14:00:00Z"})],
        None,
    ),
    ("ship a 1 kg box to Paris 75001", "REF", {}, [("create_order", {"to": {"city": "Paris"}, "weight_kg": 1})], None),
    ("set the fan to medium", "NULLENUM", {}, [("set_fan", {"speed": "medium"})], None),
    (
        "who won the world cup in 2018?",
        "STOCK",
        {},
        [],
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?",
    ),
    (
        "what can you do?",
        "TODO",
        {},
        [],
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?",
    ),
    (
        "good morning!",
        "WEATHER",
        {},
        [],
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?",
    ),
    (
        "don't check the weather, just tell me a joke",
        "WEATHER",
        {},
        [],
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?",
    ),
    (
        "weather in Paris? actually no, never mind",
        "WEATHER",
        {},
        [],
        "All right, I will not look it up this time. I cannot make up what I have not looked up; tell me when you want an exact answer and I will check.",
    ),
    ("明天上海天气怎么样", "WEATHER", {}, [("get_weather", {"city": "上海"})], None),
    ("上海和北京的天气", "WEATHER", {}, [("get_weather", {"city": "上海"}), ("get_weather", {"city": "北京"})], None),
    (
        [
            {"role": "user", "content": "weather in Oslo"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"city":"Oslo","temp_c":-3,"sky":"snow"}'},
        ],
        "WEATHER",
        {},
        [],
        "Here is what I found: city: Oslo; temp_c: -3; sky: snow.",
    ),
    (
        [
            {"role": "user", "content": "weather in Oslo"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"city":"Oslo","temp_c":-3}'},
            {"role": "assistant", "content": "Oslo: -3C"},
            {"role": "user", "content": "and in Bergen?"},
        ],
        "WEATHER",
        {},
        [("get_weather", {"city": "Bergen"})],
        None,
    ),
    (
        [
            {"role": "user", "content": "price of NVDA"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_stock_price", "arguments": '{"ticker":"NVDA"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "NVDA 131.20 USD"},
            {"role": "assistant", "content": "NVDA is at 131.20 USD."},
            {"role": "user", "content": "buy 10 of them"},
        ],
        "STOCK",
        {},
        [("place_trade", {"ticker": "NVDA", "action": "buy", "shares": 10})],
        None,
    ),
    (
        [
            {"role": "user", "content": "查一下特斯拉股价"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_stock_price", "arguments": '{"ticker":"TSLA"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "TSLA 250.1 USD"},
        ],
        "STOCK",
        {},
        [],
        "为您查到：TSLA 250.1 USD。",
    ),
    (
        [
            {"role": "user", "content": "track 1Z999AA10123456784"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "track_shipment", "arguments": '{"tracking_number":"1Z999AA10123456784"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "Status: in transit. Expected: Dec 3."},
        ],
        "SHIP",
        {},
        [],
        "Here is what I found: Status: in transit. Expected: Dec 3..",
    ),
    (
        [
            {"role": "user", "content": "book a hotel in Madrid"},
            {"role": "assistant", "content": 'What should I use for "check in"? Your message does not say.'},
            {"role": "user", "content": "next Friday for 2 nights"},
        ],
        "HOTEL",
        {},
        [("book_hotel", {"city": "Madrid", "check_in": "2026-12-11", "nights": 2})],
        None,
    ),
    (
        [
            {"role": "user", "content": "open a ticket about the broken VPN"},
            {
                "role": "assistant",
                "content": 'Which "severity" should I use: sev1, sev2, sev3? Your message does not say.',
            },
            {"role": "user", "content": "sev2"},
        ],
        "TICKETS",
        {},
        [("create_ticket", {"subject": "the broken VPN", "severity": "sev2"})],
        None,
    ),
    (
        "what's the weather like in Cape Town this weekend?",
        "WEATHER",
        {},
        [("get_weather", {"city": "Cape Town"})],
        None,
    ),
    ("Is it snowing in Denver?", "WEATHER", {}, [("get_weather", {"city": "Denver"})], None),
    (
        "hotel in Kyoto from 2026-12-20 for 4 nights",
        "HOTEL",
        {},
        [("book_hotel", {"city": "Kyoto", "check_in": "2026-12-20", "nights": 4})],
        None,
    ),
    (
        "walking directions from Shibuya to Harajuku",
        "MAPS",
        {},
        [("get_directions", {"origin": "Shibuya", "destination": "Harajuku", "mode": "walking"})],
        None,
    ),
    (
        "convert 2 liters to gallons",
        "UNITS",
        {},
        [("convert_units", {"value": 2, "from_unit": "liters", "to_unit": "gallons"})],
        None,
    ),
    (
        "translate 'happy birthday' into German",
        "TRANSL",
        {},
        [("translate", {"text": "happy birthday", "target": "de"})],
        None,
    ),
    ("把谢谢翻译成日语", "TRANSL", {}, [("translate", {"text": "谢谢", "target": "ja"})], None),
    ("what is Microsoft's stock price", "STOCK", {}, [("get_stock_price", {"ticker": "MSFT"})], None),
    (
        "sell 3 shares of AMZN at a limit of 200",
        "STOCK",
        {},
        [("place_trade", {"ticker": "AMZN", "action": "sell", "shares": 3, "limit_price": 200})],
        None,
    ),
    ("turn off the garage light", "IOT", {}, [("toggle_light", {"light": "garage light", "on": False})], None),
    ("set the thermostat to 19 degrees", "IOT", {}, [("set_thermostat", {"temperature_c": 19})], None),
    (
        "log a call with sam@corp.io: asked about pricing",
        "CRM",
        {},
        [("log_call", {"contact_email": "sam@corp.io", "notes": "log a call with sam@corp.io: asked about pricing"})],
        None,
    ),
    (
        "raise a sev3 ticket for a typo on the homepage",
        "TICKETS",
        {},
        [("create_ticket", {"subject": "raise a sev3 ticket for a typo on the homepage", "severity": "sev3"})],
        None,
    ),
    (
        "sick leave from December 3 to December 4",
        "HR",
        {},
        [("request_leave", {"start_date": "2026-12-03", "end_date": "2026-12-04", "leave_type": "sick"})],
        None,
    ),
    ("log a 40 minute swim", "FIT", {}, [("log_workout", {"activity": "swim", "minutes": 40})], None),
    ("what's in my checking account?", "BANK", {}, [("get_balance", {"account": "checking"})], None),
    (
        "track package 9400111899223344556677 with usps",
        "SHIP",
        {},
        [("track_shipment", {"tracking_number": "9400111899223344556677", "carrier": "usps"})],
        None,
    ),
    (
        "I love this app",
        "WEATHER",
        {},
        [],
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?",
    ),
]


@pytest.mark.parametrize(("text", "catalogue", "options", "calls", "said"), PROBES)
def test_a_strangers_question_is_answered_as_a_model_would(text, catalogue, options, calls, said):
    """A stranger's catalogue asked in both languages: the tool, its arguments or the question asked, as the round
    checked them; `options`: the request's tool_choice or parallel_tool_calls. A conversation is its messages."""
    messages = text if isinstance(text, list) else [{"role": "user", "content": text}]
    request = {"model": "m", "messages": messages, "tools": CATALOGUES[catalogue], **options}
    reply = respond(request, GatewayConfig())
    assert reply.status == 200, reply.body
    message = reply.body["choices"][0]["message"]
    made = [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message.get("tool_calls") or ()]
    assert (made, message.get("content")) == (calls, said)


def test_a_list_of_the_users_words_leaves_out_the_words_of_the_tools_other_fields():
    """ "keto recipes with eggs and spinach under 20 minutes" gave `ingredients` keto (the diet chosen) and minutes
    (`max_minutes`' word)."""
    text = "keto recipes with eggs and spinach under 20 minutes"
    arguments = {"ingredients": ["recipes", "eggs", "spinach", "under"], "diet": "keto", "max_minutes": 20}
    assert turn(text, CATALOGUES["RECIPE"])[0] == [("search_recipes", arguments)]


@pytest.mark.parametrize(
    ("text", "catalogue", "call"),
    [
        ("给李雷转账100美元", "PAY", ("send_money", {"recipient": "李雷", "amount": 100, "currency": "USD"})),
        (
            "明天北京飞广州的机票",
            "FL",
            ("search_flights", {"origin": "北京", "destination": "广州", "date": "2026-12-02"}),
        ),
        ("heater on please", "HEAT", ("set_heater", {"on": True})),
        ("heater off", "HEAT", ("set_heater", {"on": False})),
    ],
)
def test_a_payee_in_chinese_a_day_before_the_origin_and_a_switch_word_that_ends_the_request(text, catalogue, call):
    """给李雷转账100美元 asked who to pay, 明天北京飞广州的机票 flew from 明天北京, "heater on please" turned it off."""
    assert turn(text, CATALOGUES[catalogue])[0] == [call]
