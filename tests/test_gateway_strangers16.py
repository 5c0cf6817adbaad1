"""The embedded gateway on strangers' queries (round 16): catalogues of their own (meetings, parking, trips, timers,
tickets, flights, maps, units, todo, translation, stocks, IoT, CRM, events, HR leave, recipes, fitness, banking,
shipping, code search, reminders, weather) asked in English and Chinese.

The defects found are tested first, by exact replies: an optional number the user gave left out ("tip on $80 at 18%",
"with a 15 minute buffer": `named_numbers`); a duration not converted to the unit its field is named in ("5 hours"
to `minutes` was 5: `durations`); a required choice the user never named given its first value (`unnamed`); a
month's name read as a place ("weather in May": `months`); a required string built from its pattern
("track my package" tracked AAAAAAAAAA: `unpatterned`). The probes answered as a model would are kept below as a
regression; those answered otherwise are named in the round's report.
"""

import pytest
from test_gateway_generic_asks import S, fn, turn
from test_gateway_strangers15 import TIP, D, E

from toolkit.gateway.core import GatewayConfig, respond

N, I, B = {"type": "number"}, {"type": "integer"}, {"type": "boolean"}


MEET = [
    fn(
        "schedule_meeting",
        "Schedule a meeting",
        {
            "title": S,
            "date": D("", format="date"),
            "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 480},
            "buffer_minutes": {"type": "integer", "minimum": 0, "maximum": 60},
        },
        ["title", "date", "duration_minutes"],
    )
]
PARK = [
    fn(
        "start_parking",
        "Start a parking session",
        {"zone": D("Zone code, e.g. B4"), "duration_hours": {"type": "number", "minimum": 0.5, "maximum": 12}},
    )
]
TRIP = [fn("plan_trip", "Plan a trip", {"city": S, "days": {"type": "integer", "minimum": 1, "maximum": 60}})]
TIMER = [fn("set_timer", "Set a timer", {"minutes": {"type": "integer", "minimum": 1, "maximum": 600}})]
TICKET = [fn("create_ticket", "Open a ticket", {"title": S, "priority": E("low", "medium", "high")})]
DEFAULTED = [
    fn(
        "create_ticket",
        "Open a ticket",
        {"title": S, "priority": E("low", "medium", "high", description="default low")},
    )
]
WEATHER = [fn("get_weather", "Get the weather for a city", {"city": S, "unit": E("celsius", "fahrenheit")}, ["city"])]
FLIGHTS = [
    fn(
        "search_flights",
        "Search flights between two airports",
        {
            "origin": S,
            "destination": S,
            "depart_date": D("", format="date"),
            "cabin": E("economy", "premium", "business", "first"),
            "adults": {"type": "integer", "minimum": 1, "maximum": 9},
        },
        ["origin", "destination", "depart_date"],
    )
]
FLY = [fn("search_flights", "Search flights", {"origin": S, "destination": S, "month": S}, ["origin", "destination"])]


# --- an optional number the user gives by its field's name ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        ("tip on $80 at 18%", {"bill": 80, "percent": 18}),
        ("what's an 18% tip on 80 dollars", {"bill": 80, "percent": 18}),
        ("calculate a 20 percent tip on a $45 bill", {"bill": 45, "percent": 20}),
        ("tip on 45 dollars", {"bill": 45}),
    ],
)
def test_an_optional_percentage_the_user_gives_is_passed(text, arguments):
    """ "tip on $80 at 18%" called calc_tip(bill=80): the optional percent was left out, so the tool used its own."""
    assert turn(text, TIP)[0] == [("calc_tip", arguments)]


def test_an_optional_duration_beside_its_fields_word_is_passed_and_the_other_takes_the_rest():
    """ "for 2 hours with a 15 minute buffer" gave duration_minutes 15 (the first number within its bounds) and no
    buffer: the duration beside "buffer" is the buffer's, the other the meeting's, in minutes."""
    text = "schedule a meeting called Sync tomorrow for 2 hours with a 15 minute buffer"
    arguments = {"title": "Sync", "date": "2026-12-02", "duration_minutes": 120, "buffer_minutes": 15}
    assert turn(text, MEET)[0] == [("schedule_meeting", arguments)]


def test_an_optional_count_beside_its_fields_word_is_passed():
    text = "flights from Boston to Denver on 2026-12-18 in business class for 2 adults"
    arguments = {
        "origin": "Boston",
        "destination": "Denver",
        "depart_date": "2026-12-18",
        "cabin": "business",
        "adults": 2,
    }
    assert turn(text, FLIGHTS)[0] == [("search_flights", arguments)]


# --- a duration in its field's unit ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tools", "call"),
    [
        ("set a timer for 5 hours", TIMER, ("set_timer", {"minutes": 300})),
        ("set a timer for 2 hours 30 minutes", TIMER, ("set_timer", {"minutes": 150})),
        ("plan a trip to Rome for 2 weeks", TRIP, ("plan_trip", {"city": "Rome", "days": 14})),
        ("plan a trip to Rome for a week", TRIP, ("plan_trip", {"city": "Rome", "days": 7})),
        ("plan a 3 day trip to Rome", TRIP, ("plan_trip", {"city": "Rome", "days": 3})),
        (
            "明天安排一个会议叫周会，一个半小时",
            MEET,
            ("schedule_meeting", {"title": "周会", "date": "2026-12-02", "duration_minutes": 90}),
        ),
        (
            "schedule Sync on 2026-12-10 for an hour and a half",
            MEET,
            (
                "schedule_meeting",
                {
                    "title": "schedule Sync on 2026-12-10 for an hour and a half",
                    "date": "2026-12-10",
                    "duration_minutes": 90,
                },
            ),
        ),
    ],
)
def test_a_duration_is_given_in_the_unit_its_field_is_named_in(text, tools, call):
    """ "set a timer for 5 hours" to set_timer(minutes) was 5 minutes, "2 weeks" to `days` 2, 一个半小时 asked for the
    minutes: the number was passed as written, whatever its unit."""
    assert turn(text, tools)[0] == [call]


def test_a_duration_in_minutes_to_a_field_in_hours_is_a_fraction_of_an_hour():
    calls = turn("park in zone C2 for 45 minutes", PARK)[0]
    assert [(n, a["duration_hours"]) for n, a in calls] == [("start_parking", 0.75)]


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        (
            "set a timer for 90 seconds",
            '"minutes" must be between 1 and 600, and your message gives no such number. What should I use?',
        ),
        (
            "set a timer for 11 hours",
            '"minutes" must be between 1 and 600, and your message gives no such number. What should I use?',
        ),
    ],
)
def test_a_duration_its_field_cannot_take_is_asked_about(text, reply):
    """90 seconds is no whole number of minutes, 11 hours more than 600 of them: asked, never 90 or 11 minutes."""
    assert turn(text, TIMER) == ([], reply)


# --- a required choice never named -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        (
            "open a ticket called Printer jammed",
            'Which "priority" should I use: low, medium, high? Your message does not say.',
        ),
        ("开个工单：打印机卡纸", "请问“priority”选哪一个：low, medium, high？您的消息里没有提到。"),
    ],
)
def test_a_required_choice_the_user_never_names_is_asked_for(text, reply):
    """ "open a ticket called Printer jammed" called create_ticket(priority="low"): the enum's first value, chosen by
    nobody."""
    assert turn(text, TICKET) == ([], reply)


def test_a_required_choice_named_or_with_a_described_default_is_called():
    assert turn("open a ticket called Printer jammed, high priority", TICKET)[0][0][1]["priority"] == "high"
    assert turn("open a ticket called Printer jammed", DEFAULTED)[0] == [
        ("create_ticket", {"title": "Printer jammed", "priority": "low"})
    ]


@pytest.mark.parametrize("description", ["Priority, default medium", "Priority (default: 'medium')", "默认为 medium"])
def test_a_choice_the_user_never_names_takes_the_default_its_description_names(description):
    """ "Priority, default medium" gave a low-priority ticket: the enum's first value, not the one described."""
    tool = fn(
        "create_ticket", "Open a ticket", {"title": S, "priority": E("low", "medium", "high", description=description)}
    )
    assert turn("open a ticket called Printer jammed", [tool])[0] == [
        ("create_ticket", {"title": "Printer jammed", "priority": "medium"})
    ]
    assert turn("open a ticket called Printer jammed, high priority", [tool])[0][0][1]["priority"] == "high"


@pytest.mark.parametrize("answer", ["high", "high priority", "make it high"])
def test_the_answer_to_the_choice_asked_completes_the_call_asked_about(answer):
    """ "high" after the question picked create_ticket by its enum's word on its own, and opened a ticket titled
    "high"; the joined question's title ran on past its line ("Printer jammed\nhigh")."""
    messages = [
        {"role": "user", "content": "open a ticket called Printer jammed"},
        {
            "role": "assistant",
            "content": 'Which "priority" should I use: low, medium, high? Your message does not say.',
        },
        {"role": "user", "content": answer},
    ]
    reply = respond({"model": "m", "messages": messages, "tools": TICKET}, GatewayConfig())
    call = reply.body["choices"][0]["message"]["tool_calls"][0]["function"]
    assert (call["name"], call["arguments"]) == ("create_ticket", '{"title":"Printer jammed","priority":"high"}')


def test_another_question_after_the_ask_is_its_own():
    messages = [
        {"role": "user", "content": "open a ticket called Printer jammed"},
        {
            "role": "assistant",
            "content": 'Which "priority" should I use: low, medium, high? Your message does not say.',
        },
        {"role": "user", "content": "never mind, what's the weather in Paris?"},
    ]
    reply = respond({"model": "m", "messages": messages, "tools": TICKET + WEATHER}, GatewayConfig())
    call = reply.body["choices"][0]["message"]["tool_calls"][0]["function"]
    assert (call["name"], call["arguments"]) == ("get_weather", '{"city":"Paris"}')


def test_translate_with_no_language_named_asks_which():
    tool = fn("translate_text", "Translate text", {"text": S, "target_language": E("en", "fr", "de")})
    assert turn("translate hello", [tool]) == (
        [],
        'Which "target language" should I use: en, fr, de? Your message does not say.',
    )


# --- a month is no place -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("weather in May", "Which city (or place) do you mean? Tell me and I'll look it up."),
        ("what's the weather like in May?", "Which city (or place) do you mean? Tell me and I'll look it up."),
        ("weather in march", "Which city (or place) do you mean? Tell me and I'll look it up."),
        ("五月的天气", "请问您想查询哪个城市（或地点）？告诉我之后我再为您查询。"),
    ],
)
def test_a_months_name_is_no_place(text, reply):
    """ "weather in May" called get_weather(city="May"), 五月的天气 the city 五月."""
    assert turn(text, WEATHER) == ([], reply)


@pytest.mark.parametrize(
    ("text", "city"), [("北京十月的天气", "北京"), ("十月北京天气", "北京"), ("5月的上海天气", "上海")]
)
def test_a_month_glued_to_a_chinese_place_is_no_part_of_it(text, city):
    """北京十月的天气 called get_weather(city="北京十月"), 5月的上海天气 the city 月的上海."""
    assert turn(text, WEATHER)[0] == [("get_weather", {"city": city})]


def test_a_month_after_a_place_leaves_the_place():
    assert turn("weather in Paris in May", WEATHER)[0] == [("get_weather", {"city": "Paris"})]
    assert turn("flights to Nice in March", FLY) == ([], 'What should I use for "origin"? Your message does not say.')
    assert turn("flights from London to Nice in March", FLY)[0] == [
        ("search_flights", {"origin": "London", "destination": "Nice"})
    ]


# --- a required string built from its pattern ------------------------------------------------------------------

PARCEL = [
    fn(
        "track_package",
        "Track a shipment",
        {"tracking_number": {"type": "string", "pattern": "^[A-Z0-9]{10,22}$"}, "carrier": E("ups", "fedex", "dhl")},
        ["tracking_number"],
    )
]
PATTERNED_CONVERT = [
    fn(
        "convert",
        "Convert money",
        {
            "amount": N,
            "from": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "to": {"type": "string", "pattern": "^[A-Z]{3}$"},
        },
    )
]


def test_a_required_string_the_text_gives_none_for_is_asked_not_built_from_its_pattern():
    """ "track my package" tracked the parcel AAAAAAAAAA, a string built to match the pattern."""
    assert turn("track my package", PARCEL) == (
        [],
        'What should I use for "tracking number"? Your message does not say.',
    )
    assert turn("track 1Z999AA10123456784", PARCEL)[0] == [("track_package", {"tracking_number": "1Z999AA10123456784"})]


def test_a_patterned_string_the_text_names_in_words_or_of_one_string_is_still_called():
    calls = turn("convert 100 euros to yen", PATTERNED_CONVERT)[0]
    assert calls == [("convert", {"amount": 100, "from": "EUR", "to": "JPY"})]
    deploy = fn("deploy", "Deploy the service", {"version": {"type": "string", "pattern": "^v1$"}})
    assert turn("deploy the service", [deploy])[0] == [("deploy", {"version": "v1"})]


# --- probes answered as a model would: kept as a regression ---------------------------------------------

ROUTE = [
    fn("get_route", "Route between two places", {"from": S, "to": S, "avoid_tolls": B}, ["from", "to"]),
    fn(
        "nearby_places",
        "Find places near a location",
        {
            "category": E("restaurant", "cafe", "pharmacy", "atm", "gas_station"),
            "near": S,
            "radius_km": {"type": "number", "minimum": 0.1, "maximum": 50},
        },
        ["category", "near"],
    ),
]
CONVERT = [fn("convert_units", "Convert a quantity between units", {"quantity": N, "from_unit": S, "to_unit": S})]
TODO = [
    fn(
        "add_task",
        "Add a task to the todo list",
        {
            "task": S,
            "due": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
            "estimate_minutes": {"type": "integer", "minimum": 5, "maximum": 600},
        },
        ["task"],
    ),
    fn("complete_task", "Mark a task as done", {"task_id": I}),
]
TRANSLATE = [
    fn(
        "translate",
        "Translate text",
        {"text": S, "to_lang": D("Target language code, e.g. fr"), "formal": B},
        ["text", "to_lang"],
    )
]
STOCKS = [
    fn("stock_quote", "Get a stock quote", {"ticker": S}),
    fn(
        "place_order",
        "Buy or sell shares",
        {
            "ticker": S,
            "side": E("buy", "sell"),
            "shares": {"type": "integer", "minimum": 1},
            "limit_price": {"type": "number", "exclusiveMinimum": 0},
        },
        ["ticker", "side", "shares"],
    ),
]
EVENTS = [
    fn(
        "buy_tickets",
        "Buy event tickets",
        {
            "event_id": S,
            "count": {"type": "integer", "minimum": 1, "maximum": 10},
            "section": E("floor", "balcony", "vip"),
        },
        ["event_id", "count"],
    )
]
LEAVE = [
    fn(
        "submit_leave",
        "Submit a leave request",
        {
            "from_date": D("", format="date"),
            "to_date": D("", format="date"),
            "leave_type": E("annual", "sick", "unpaid", description="Type of leave, default annual"),
        },
    )
]
RECIPES = [
    fn(
        "find_recipes",
        "Find recipes",
        {
            "ingredients": {"type": "array", "items": S},
            "max_minutes": {"type": "integer", "minimum": 5, "maximum": 240},
            "diet": E("none", "vegetarian", "vegan", "gluten_free"),
        },
        ["ingredients"],
    )
]
WORKOUT = [
    fn(
        "log_workout",
        "Log a workout",
        {
            "activity": E("run", "ride", "swim", "walk"),
            "duration_min": {"type": "integer", "minimum": 1, "maximum": 600},
            "distance_km": {"type": "number", "minimum": 0},
        },
        ["activity", "duration_min"],
    )
]
BANK = [
    fn(
        "transfer_money",
        "Transfer money to a payee",
        {
            "payee": S,
            "amount": {"type": "number", "exclusiveMinimum": 0},
            "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "memo": S,
        },
        ["payee", "amount", "currency"],
    ),
    fn("get_balance", "Get account balance", {"account": E("checking", "savings")}),
]
SHIP = [
    fn(
        "track_package",
        "Track a shipment",
        {
            "tracking_number": {"type": "string", "pattern": "^[A-Z0-9]{10,22}$"},
            "carrier": E("ups", "fedex", "dhl", "usps"),
        },
        ["tracking_number"],
    )
]
CODE = [
    fn(
        "search_code",
        "Search the code base",
        {
            "query": S,
            "language": E("python", "go", "rust", "typescript"),
            "max_results": {"type": "integer", "minimum": 1},
        },
        ["query"],
    )
]
REMIND = [
    fn("set_reminder", "Set a reminder", {"text": S, "in_minutes": {"type": "integer", "minimum": 1, "maximum": 10080}})
]

HOTELS = [
    fn(
        "search_hotels",
        "Search hotels",
        {
            "city": S,
            "nights": {"type": "integer", "minimum": 1, "maximum": 30},
            "guests": {"type": "integer", "minimum": 1, "maximum": 8},
            "max_price": {"type": "number", "minimum": 0},
        },
        ["city", "nights"],
    )
]
PLANS = [fn("cancel_subscription", "Cancel a subscription", {"plan": E("basic", "pro", "team"), "reason": S}, ["plan"])]
ALARM = [
    fn(
        "set_alarm",
        "Set an alarm",
        {"time": D("", format="time"), "snooze_minutes": {"type": "integer", "minimum": 1, "maximum": 30}},
        ["time"],
    )
]
VIDEO = [
    fn(
        "trim_video",
        "Trim a video",
        {"file": S, "start_seconds": {"type": "number", "minimum": 0}, "end_seconds": {"type": "number", "minimum": 0}},
    )
]
STEPS = [fn("get_steps", "Step count for a number of days", {"days": {"type": "integer", "minimum": 1, "maximum": 90}})]
DOOR = [fn("lock_door", "Lock or unlock a door", {"door": S, "locked": B})]
WORKOUT_ZH = [
    fn(
        "log_workout",
        "Log a workout",
        {
            "activity": E("run", "ride", "swim", "walk"),
            "duration_min": {"type": "integer", "minimum": 1, "maximum": 600},
        },
    )
]

PROBE_CALLS = [
    ("tip 15% on 60", TIP, [("calc_tip", {"bill": 60, "percent": 15})]),
    ("how much tip on a $120 bill at 22 percent", TIP, [("calc_tip", {"bill": 120, "percent": 22})]),
    ("小费百分之二十，账单200块", TIP, [("calc_tip", {"bill": 200, "percent": 20})]),
    ("80块钱的账单，小费百分之十八", TIP, [("calc_tip", {"bill": 80, "percent": 18})]),
    (
        "schedule Retro on 2026-12-11 for 1 hour with a 10 minute buffer",
        MEET,
        [
            (
                "schedule_meeting",
                {
                    "title": "schedule Retro on 2026-12-11 for 1 hour with a 10 minute buffer",
                    "date": "2026-12-11",
                    "duration_minutes": 60,
                    "buffer_minutes": 10,
                },
            )
        ],
    ),
    ("set a timer for 1.5 hours", TIMER, [("set_timer", {"minutes": 90})]),
    ("timer 45 min", TIMER, [("set_timer", {"minutes": 45})]),
    ("set a timer for ten minutes", TIMER, [("set_timer", {"minutes": 10})]),
    ("set a timer for half an hour", TIMER, [("set_timer", {"minutes": 30})]),
    ("定一个半小时的计时器", TIMER, [("set_timer", {"minutes": 90})]),
    ("计时器三十分钟", TIMER, [("set_timer", {"minutes": 30})]),
    ("定时两个小时", TIMER, [("set_timer", {"minutes": 120})]),
    ("plan a 10-day trip to Lisbon", TRIP, [("plan_trip", {"city": "Lisbon", "days": 10})]),
    ("plan a trip to Kyoto for three weeks", TRIP, [("plan_trip", {"city": "Kyoto", "days": 21})]),
    ("weather in London in celsius", WEATHER, [("get_weather", {"city": "London", "unit": "celsius"})]),
    ("hotels in Porto for 3 nights", HOTELS, [("search_hotels", {"city": "Porto", "nights": 3})]),
    (
        "hotels in Porto for 3 nights for 2 guests under max price 150",
        HOTELS,
        [("search_hotels", {"city": "Porto", "nights": 3, "guests": 2, "max_price": 150})],
    ),
    ("hotels in Porto for a week", HOTELS, [("search_hotels", {"city": "Porto", "nights": 7})]),
    ("hotels in Porto for 2 weeks", HOTELS, [("search_hotels", {"city": "Porto", "nights": 14})]),
    ("cancel my pro subscription", PLANS, [("cancel_subscription", {"plan": "pro"})]),
    ("cancel the team plan because it's too expensive", PLANS, [("cancel_subscription", {"plan": "team"})]),
    (
        "set an alarm for 6:30 with 5 minute snooze",
        ALARM,
        [("set_alarm", {"time": "06:30:00Z", "snooze_minutes": 5})],
    ),
    (
        "trim clip.mp4 from 1 minute to 2 minutes",
        VIDEO,
        [
            (
                "trim_video",
                {"file": "trim clip.mp4 from 1 minute to 2 minutes", "start_seconds": 60, "end_seconds": 120},
            )
        ],
    ),
    ("steps for the last 2 weeks", STEPS, [("get_steps", {"days": 14})]),
    ("my steps for 3 days", STEPS, [("get_steps", {"days": 3})]),
    ("lock the front door", DOOR, [("lock_door", {"door": "front door", "locked": True})]),
    ("解锁车库门", DOOR, [("lock_door", {"door": "解锁车库门", "locked": False})]),
    ("跑步半小时", WORKOUT_ZH, [("log_workout", {"activity": "run", "duration_min": 30})]),
    ("在C2区停车两小时", PARK, [("start_parking", {"zone": "在C2区停车两小时", "duration_hours": 2})]),
    (
        "flights from Boston to Denver on 2026-12-18",
        FLIGHTS,
        [("search_flights", {"origin": "Boston", "destination": "Denver", "depart_date": "2026-12-18"})],
    ),
    (
        "从上海到东京的航班，12月20号",
        FLIGHTS,
        [("search_flights", {"origin": "上海", "destination": "东京", "depart_date": "2026-12-20"})],
    ),
    (
        "convert 5 miles to kilometers",
        CONVERT,
        [("convert_units", {"quantity": 5, "from_unit": "miles", "to_unit": "kilometers"})],
    ),
    (
        "how many ounces in 2 pounds",
        CONVERT,
        [("convert_units", {"quantity": 2, "from_unit": "pounds", "to_unit": "ounces"})],
    ),
    ("把3公斤换算成磅", CONVERT, [("convert_units", {"quantity": 3, "from_unit": "公斤", "to_unit": "磅"})]),
    (
        "add task call mom, should take 30 minutes",
        TODO,
        [("add_task", {"task": "add task call mom, should take 30 minutes", "estimate_minutes": 30})],
    ),
    (
        "add task write report estimate 2 hours",
        TODO,
        [("add_task", {"task": "add task write report estimate 2 hours", "estimate_minutes": 120})],
    ),
    ("mark task 12 as done", TODO, [("complete_task", {"task_id": 12})]),
    ("translate good night into fr", TRANSLATE, [("translate", {"text": "good night", "to_lang": "fr"})]),
    ("quote for AAPL", STOCKS, [("stock_quote", {"ticker": "AAPL"})]),
    ("buy 10 shares of AAPL", STOCKS, [("place_order", {"ticker": "AAPL", "side": "buy", "shares": 10})]),
    (
        "sell 5 TSLA at a limit of 250",
        STOCKS,
        [("place_order", {"ticker": "TSLA", "side": "sell", "shares": 5, "limit_price": 250})],
    ),
    ("buy 2 tickets for event E-77", EVENTS, [("buy_tickets", {"event_id": "E-77", "count": 2})]),
    (
        "buy two vip tickets for event E-77",
        EVENTS,
        [("buy_tickets", {"event_id": "E-77", "count": 2, "section": "vip"})],
    ),
    ("get me tickets to E-77", EVENTS, [("buy_tickets", {"event_id": "E-77", "count": 1})]),
    (
        "leave from 2026-12-21 to 2026-12-23",
        LEAVE,
        [("submit_leave", {"from_date": "2026-12-21", "to_date": "2026-12-23", "leave_type": "annual"})],
    ),
    (
        "sick leave from Dec 28 to Dec 30",
        LEAVE,
        [("submit_leave", {"from_date": "2026-12-28", "to_date": "2026-12-30", "leave_type": "sick"})],
    ),
    ("log a 45 minute run", WORKOUT, [("log_workout", {"activity": "run", "duration_min": 45})]),
    ("log a 10 km ride that took 1.5 hours", WORKOUT, [("log_workout", {"activity": "ride", "duration_min": 90})]),
    ("what's my savings balance", BANK, [("get_balance", {"account": "savings"})]),
    ("track 1Z999AA10123456784", SHIP, [("track_package", {"tracking_number": "1Z999AA10123456784"})]),
    (
        "where is my DHL package JD014600006754321",
        SHIP,
        [("track_package", {"tracking_number": "JD014600006754321", "carrier": "dhl"})],
    ),
    (
        "park in zone C2 for 3 hours",
        PARK,
        [("start_parking", {"zone": "park in zone C2 for 3 hours", "duration_hours": 3})],
    ),
    (
        "remind me to call Bob in 15 minutes",
        REMIND,
        [("set_reminder", {"text": "remind me to call Bob in 15 minutes", "in_minutes": 15})],
    ),
    (
        "remind me to stretch in 2 hours",
        REMIND,
        [("set_reminder", {"text": "remind me to stretch in 2 hours", "in_minutes": 120})],
    ),
    (
        "remind me to pay rent in 3 days",
        REMIND,
        [("set_reminder", {"text": "remind me to pay rent in 3 days", "in_minutes": 4320})],
    ),
    ("一个小时后提醒我开会", REMIND, [("set_reminder", {"text": "一个小时后提醒我开会", "in_minutes": 60})]),
    ("weather in Berlin in fahrenheit", WEATHER, [("get_weather", {"city": "Berlin", "unit": "fahrenheit"})]),
    ("not Paris, London weather", WEATHER, [("get_weather", {"city": "London"})]),
    ("weather in Paris in May", WEATHER, [("get_weather", {"city": "Paris"})]),
    ("plan a trip to Rome for 2 weeks", TRIP, [("plan_trip", {"city": "Rome", "days": 14})]),
    ("set a timer for 25 minutes", TIMER, [("set_timer", {"minutes": 25})]),
    ("set a timer for 25", TIMER, [("set_timer", {"minutes": 25})]),
]
PROBE_REPLIES = [
    ("cancel my subscription", PLANS, 'Which "plan" should I use: basic, pro, team? Your message does not say.'),
    ("how hot is it in June", WEATHER, "Which city (or place) do you mean? Tell me and I'll look it up."),
    ("weather in August", WEATHER, "Which city (or place) do you mean? Tell me and I'll look it up."),
    ("十月的天气", WEATHER, "请问您想查询哪个城市（或地点）？告诉我之后我再为您查询。"),
    ("schedule Retro on 2026-12-11", MEET, 'What should I use for "duration minutes"? Your message does not say.'),
    ("steps this week", STEPS, 'What should I use for "days"? Your message does not say.'),
    ("buy AAPL", STOCKS, 'What should I use for "shares"? Your message does not say.'),
    ("log a walk", WORKOUT, 'What should I use for "duration min"? Your message does not say.'),
    ("what's my balance", BANK, 'Which "account" should I use: checking, savings? Your message does not say.'),
    ("thanks!", WEATHER, "You're welcome! Ask me any time you have another question."),
    ("weather in May", WEATHER, "Which city (or place) do you mean? Tell me and I'll look it up."),
    (
        "open a ticket called Printer jammed",
        TICKET,
        'Which "priority" should I use: low, medium, high? Your message does not say.',
    ),
]


@pytest.mark.parametrize(("text", "tools", "calls"), PROBE_CALLS)
def test_a_strangers_question_calls_what_a_model_would(text, tools, calls):
    assert turn(text, tools)[0] == calls


@pytest.mark.parametrize(("text", "tools", "reply"), PROBE_REPLIES)
def test_a_strangers_question_is_asked_about_or_answered_in_text(text, tools, reply):
    assert turn(text, tools) == ([], reply)
