"""The embedded gateway on strangers' queries (round 15): catalogues of their own (booking, maps, units, todo, IoT,
CRM, tickets, HR, translation, stocks, money, mail, calendar) asked in English and Chinese.

The probes it answers as a model would are kept here as a regression (and a few it answers otherwise are left out,
named in the round's report: "convert 100 C to F", "find pizza near Times Square", "set the Kitchen thermostat to 21.5");
the defects found are tested beside their fix (`test_gateway_unsaid`, `test_gateway_zh_numbers`, `test_gateway_listed`,
`test_gateway_ordinal_days`, `test_gateway_yearless`, `test_gateway_ranges`, `test_gateway_switched`) and below (an
email's subject and body).
"""

import pytest
from test_gateway_generic_asks import S, fn, turn

N, I, B = {"type": "number"}, {"type": "integer"}, {"type": "boolean"}


def D(description, kind="string", **more):
    return {"type": kind, "description": description, **more}


def E(*values, **more):
    return {"type": "string", "enum": list(values), **more}


HOTEL = [
    fn(
        "search_hotels",
        "Search hotels in a city",
        {
            "city": S,
            "check_in": D("", format="date"),
            "check_out": D("", format="date"),
            "guests": {"type": "integer", "minimum": 1, "maximum": 8},
            "max_price": {"type": "number", "minimum": 0},
        },
        ["city", "check_in", "check_out"],
    ),
    fn(
        "book_room",
        "Book a hotel room",
        {
            "hotel_id": S,
            "room_type": E("single", "double", "suite"),
            "guests": {"type": "integer", "minimum": 1, "maximum": 4},
        },
        ["hotel_id", "room_type", "guests"],
    ),
]
MAPS = [
    fn(
        "get_directions",
        "Directions between two places",
        {"origin": S, "destination": S, "mode": E("driving", "walking", "transit", "bicycling")},
        ["origin", "destination"],
    ),
    fn(
        "find_nearby",
        "Find places of a kind near a location",
        {"query": S, "location": S, "radius_m": {"type": "integer", "minimum": 100, "maximum": 50000}},
        ["query", "location"],
    ),
]
UNITS = [
    fn("convert_temperature", "Convert a temperature", {"value": N, "from": E("C", "F", "K"), "to": E("C", "F", "K")}),
    fn(
        "convert_length",
        "Convert a length",
        {
            "value": N,
            "from_unit": E("m", "km", "mi", "ft", "in", "cm"),
            "to_unit": E("m", "km", "mi", "ft", "in", "cm"),
        },
    ),
]
TODO = [
    fn(
        "create_todo",
        "Create a todo item",
        {
            "title": S,
            "due_date": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
            "priority": {"type": "integer", "minimum": 1, "maximum": 5},
        },
        ["title"],
    ),
    fn("delete_todo", "Delete a todo item", {"id": I}),
    fn("list_todos", "List todo items", {"status": E("open", "done", "all")}, []),
]
IOT = [
    fn(
        "set_thermostat",
        "Set the thermostat target temperature",
        {"room": S, "celsius": {"type": "number", "minimum": 10, "maximum": 30, "multipleOf": 0.5}},
        ["room", "celsius"],
    ),
    fn("toggle_light", "Turn a light on or off", {"device_id": S, "on": B}),
    fn(
        "set_brightness",
        "Set a lamp's brightness",
        {"device_id": S, "percent": {"type": "integer", "minimum": 0, "maximum": 100}},
    ),
]
CRM = [
    fn(
        "create_contact",
        "Create a CRM contact",
        {"name": S, "email": {"type": "string", "format": "email"}, "phone": S, "company": S},
        ["name"],
    ),
    fn(
        "log_call",
        "Log a sales call with a contact",
        {"contact_id": S, "notes": S, "duration_min": {"type": "integer", "minimum": 1}},
        ["contact_id", "duration_min"],
    ),
    fn(
        "update_deal_stage",
        "Move a deal to another stage",
        {"deal_id": S, "stage": E("lead", "qualified", "proposal", "won", "lost")},
    ),
]
TICK = [
    fn(
        "create_ticket",
        "Open a support ticket",
        {"title": S, "severity": E("low", "medium", "high", "critical"), "tags": {"type": "array", "items": S}},
        ["title", "severity"],
    ),
    fn(
        "assign_ticket",
        "Assign a ticket to an agent",
        {"ticket_id": I, "assignee": {"type": "string", "format": "email"}},
    ),
]
HR = [
    fn(
        "request_leave",
        "Request time off",
        {
            "start_date": D("", format="date"),
            "end_date": D("", format="date"),
            "type": E("vacation", "sick", "personal"),
            "note": S,
        },
        ["start_date", "end_date", "type"],
    ),
    fn("leave_balance", "How many leave days an employee has left", {"employee_id": S}, []),
]
TRANS = [
    fn(
        "translate_text",
        "Translate text into another language",
        {
            "text": S,
            "target": E("en", "zh", "fr", "de", "ja", "es"),
            "source": {"anyOf": [E("en", "zh", "fr", "de", "ja", "es"), {"type": "null"}]},
        },
        ["text", "target"],
    )
]
STOCK = [
    fn("get_price", "Latest price of a stock", {"symbol": D("Ticker, e.g. AAPL")}),
    fn(
        "price_history",
        "Daily closing prices of a stock between two dates",
        {"symbol": S, "start": D("", format="date"), "end": D("", format="date")},
    ),
]
CONV = [
    fn(
        "convert_currency",
        "Convert money",
        {
            "amount": {"type": "number", "exclusiveMinimum": 0},
            "from_currency": D("ISO code"),
            "to_currency": D("ISO code"),
        },
    )
]
TABLE = [
    fn(
        "book_table",
        "Reserve a table at a restaurant",
        {
            "restaurant": S,
            "party_size": {"type": "integer", "minimum": 1, "maximum": 12},
            "time": D("time", format="date-time"),
        },
        ["restaurant", "party_size"],
    )
]
CART = [
    fn(
        "add_to_cart",
        "Add a product to the shopping cart",
        {"product_id": S, "quantity": {"type": "integer", "minimum": 1, "maximum": 99}},
        ["product_id"],
    ),
    fn("view_cart", "Show the shopping cart", {}, []),
]
NOTE = [fn("create_note", "Create a note", {"title": S, "content": S}, ["content"])]
TIMER = [
    fn(
        "set_timer",
        "Set a countdown timer",
        {"minutes": {"type": "integer", "minimum": 1, "maximum": 180}},
        ["minutes"],
    )
]
TIP = [
    fn(
        "calc_tip",
        "Calculate a tip",
        {
            "bill": {"type": "number", "exclusiveMinimum": 0},
            "percent": {"type": "number", "minimum": 0, "maximum": 100},
        },
        ["bill"],
    )
]
RATE = [
    fn(
        "rate_movie",
        "Rate a movie from 1 to 5 stars",
        {"title": S, "stars": {"type": "integer", "minimum": 1, "maximum": 5}},
    )
]
WX = [
    fn(
        "get_forecast",
        "Weather forecast for a location",
        {"location": S, "days": {"type": "integer", "minimum": 1, "maximum": 7}, "units": E("metric", "imperial")},
        ["location"],
    )
]
QUOTES = [
    fn(
        "get_quotes",
        "Get stock quotes for several symbols",
        {"symbols": {"type": "array", "items": S, "description": "Ticker symbols"}},
    )
]
MAIL = [
    fn(
        "send_email",
        "Send an email",
        {"to": {"type": "string", "format": "email"}, "subject": S, "body": S},
    )
]


# --- an email's subject and body ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "subject", "body"),
    [
        ("email bob@example.com with subject Lunch saying see you at noon", "Lunch", "see you at noon"),
        (
            'send an email to bob@example.com, subject "Q3 report", body "Attached is the report."',
            "Q3 report",
            "Attached is the report.",
        ),
        (
            "email bob@example.com about the offsite: subject Offsite plan, body Let's meet on Friday",
            "Offsite plan",
            "Let's meet on Friday",
        ),
        ("send bob@example.com an email titled Hello with the message How are you?", "Hello", "How are you?"),
        ("email bob@example.com, subject: Invoice 42, message: 'Paid today'", "Invoice 42", "Paid today"),
        ("给 bob@example.com 发邮件，主题：周报，内容：本周完成了登录模块", "周报", "本周完成了登录模块"),
        ("给bob@example.com发一封邮件，主题是会议改期，内容是会议改到周五", "会议改期", "会议改到周五"),
    ],
)
def test_an_emails_subject_and_body_are_the_parts_the_text_names(text, subject, body):
    """ "email bob@example.com with subject Lunch saying see you at noon" called send_email with the whole text as
    its subject and as its body, and so did 主题：…，内容：…: only "about …" was read, as a topic."""
    assert turn(text, MAIL)[0] == [("send_email", {"to": "bob@example.com", "subject": subject, "body": body})]


def test_an_email_without_a_named_subject_keeps_the_users_words():
    text = "email bob@example.com saying I'll be late"
    assert turn(text, MAIL)[0] == [("send_email", {"to": "bob@example.com", "subject": text, "body": "I'll be late"})]


# --- probes answered as a model would: kept as a regression ---------------------------------------------

PROBE_CALLS = [
    (
        "find hotels in Lisbon from 2026-12-20 to 2026-12-23 for 2 guests",
        HOTEL,
        [("search_hotels", {"city": "Lisbon", "check_in": "2026-12-20", "check_out": "2026-12-23", "guests": 2})],
    ),
    (
        "hotels in Rome from Dec 27 to Dec 30",
        HOTEL,
        [("search_hotels", {"city": "Rome", "check_in": "2026-12-27", "check_out": "2026-12-30"})],
    ),
    (
        "any hotels in Kyoto from January 5 to January 9?",
        HOTEL,
        [("search_hotels", {"city": "Kyoto", "check_in": "2027-01-05", "check_out": "2027-01-09"})],
    ),
    (
        "book a double room at hotel H-204 for 3 guests",
        HOTEL,
        [("book_room", {"hotel_id": "H-204", "room_type": "double", "guests": 3})],
    ),
    (
        "book a single room at hotel H-9 for one guest",
        HOTEL,
        [("book_room", {"hotel_id": "H-9", "room_type": "single", "guests": 1})],
    ),
    (
        "directions from the Louvre to the Eiffel Tower by bike",
        MAPS,
        [("get_directions", {"origin": "the Louvre", "destination": "the Eiffel Tower"})],
    ),
    (
        "how do I walk from Central Station to the museum",
        MAPS,
        [("get_directions", {"origin": "Central Station", "destination": "the museum"})],
    ),
    (
        "driving directions from Boston to New York",
        MAPS,
        [("get_directions", {"origin": "Boston", "destination": "New York", "mode": "driving"})],
    ),
    ("convert 10 km to mi", UNITS, [("convert_length", {"value": 10, "from_unit": "km", "to_unit": "mi"})]),
    ("how many cm in 3 ft", UNITS, [("convert_length", {"value": 3, "from_unit": "ft", "to_unit": "cm"})]),
    ("delete todo 14", TODO, [("delete_todo", {"id": 14})]),
    ("show my finished todos", TODO, [("list_todos", {})]),
    ("show all my todos", TODO, [("list_todos", {})]),
    ("remove todo number 9", TODO, [("delete_todo", {"id": 9})]),
    ("create a todo called Pay rent due 2026-12-31", TODO, [("create_todo", {"title": "Pay rent due 2026-12-31"})]),
    ("turn off light lamp-2", IOT, [("toggle_light", {"device_id": "lamp-2", "on": False})]),
    ("turn on light lamp-7", IOT, [("toggle_light", {"device_id": "lamp-7", "on": True})]),
    ("set brightness of lamp-3 to 40", IOT, [("set_brightness", {"device_id": "lamp-3", "percent": 40})]),
    (
        "log a 15 minute call with contact C-889: discussed pricing",
        CRM,
        [("log_call", {"contact_id": "C-889", "duration_min": 15})],
    ),
    (
        "log a call with contact C-889 that lasted twenty minutes",
        CRM,
        [("log_call", {"contact_id": "C-889", "duration_min": 20})],
    ),
    ("move deal D-42 to won", CRM, [("update_deal_stage", {"deal_id": "D-42", "stage": "won"})]),
    ("mark deal D-42 as lost", CRM, [("update_deal_stage", {"deal_id": "D-42", "stage": "lost"})]),
    ("move deal D-42 to proposal stage", CRM, [("update_deal_stage", {"deal_id": "D-42", "stage": "proposal"})]),
    (
        "open a high severity ticket called Login broken",
        TICK,
        [("create_ticket", {"title": "Login broken", "severity": "high"})],
    ),
    (
        "assign ticket 4521 to maria@corp.com",
        TICK,
        [("assign_ticket", {"ticket_id": 4521, "assignee": "maria@corp.com"})],
    ),
    ("把工单4521指派给maria@corp.com", TICK, [("assign_ticket", {"ticket_id": 4521, "assignee": "maria@corp.com"})]),
    (
        "I need next Monday to Wednesday off for vacation",
        HR,
        [("request_leave", {"start_date": "2026-12-07", "end_date": "2026-12-09", "type": "vacation"})],
    ),
    (
        "我下周一到周三请年假",
        HR,
        [("request_leave", {"start_date": "2026-12-07", "end_date": "2026-12-09", "type": "vacation"})],
    ),
    (
        "vacation from Friday to Monday",
        HR,
        [("request_leave", {"start_date": "2026-12-04", "end_date": "2026-12-07", "type": "vacation"})],
    ),
    (
        "sick leave from 2026-12-14 to 2026-12-15",
        HR,
        [("request_leave", {"start_date": "2026-12-14", "end_date": "2026-12-15", "type": "sick"})],
    ),
    ("how many vacation days do I have left", HR, [("leave_balance", {})]),
    (
        "vacation from Dec 21 to Dec 24",
        HR,
        [("request_leave", {"start_date": "2026-12-21", "end_date": "2026-12-24", "type": "vacation"})],
    ),
    (
        "12月21号到24号请年假",
        HR,
        [("request_leave", {"start_date": "2026-12-21", "end_date": "2026-12-24", "type": "vacation"})],
    ),
    (
        "translate 'where is the train station' into German",
        TRANS,
        [("translate_text", {"text": "where is the train station", "target": "de"})],
    ),
    ("把“早上好”翻译成日语", TRANS, [("translate_text", {"text": "早上好", "target": "ja"})]),
    ('translate "merci beaucoup" to English', TRANS, [("translate_text", {"text": "merci beaucoup", "target": "en"})]),
    ("what's MSFT trading at", STOCK, [("get_price", {"symbol": "MSFT"})]),
    (
        "TSLA closing prices from 2026-11-01 to 2026-11-30",
        STOCK,
        [("price_history", {"symbol": "TSLA", "start": "2026-11-01", "end": "2026-11-30"})],
    ),
    ("特斯拉股价", STOCK, [("get_price", {"symbol": "TSLA"})]),
    ("price of NVDA", STOCK, [("get_price", {"symbol": "NVDA"})]),
    (
        "convert 1,250.50 usd to eur",
        CONV,
        [("convert_currency", {"amount": 1250.5, "from_currency": "USD", "to_currency": "EUR"})],
    ),
    (
        "how much is 三百五十 dollars in yen",
        CONV,
        [("convert_currency", {"amount": 350, "from_currency": "USD", "to_currency": "JPY"})],
    ),
    ("两千美元换成欧元", CONV, [("convert_currency", {"amount": 2000, "from_currency": "USD", "to_currency": "EUR"})]),
    (
        "一万二日元是多少人民币",
        CONV,
        [("convert_currency", {"amount": 12000, "from_currency": "JPY", "to_currency": "CNY"})],
    ),
    (
        "convert 2k GBP to USD",
        CONV,
        [("convert_currency", {"amount": 2000, "from_currency": "GBP", "to_currency": "USD"})],
    ),
    (
        "convert twenty five pounds to euros",
        CONV,
        [("convert_currency", {"amount": 25, "from_currency": "GBP", "to_currency": "EUR"})],
    ),
    ("book a table at Nobu for 4 tomorrow at 8pm", TABLE, [("book_table", {"restaurant": "Nobu", "party_size": 4})]),
    ("table for six at Chez Marcel", TABLE, [("book_table", {"restaurant": "Chez Marcel", "party_size": 6})]),
    ("在海底捞订座，两个人", TABLE, [("book_table", {"restaurant": "海底捞", "party_size": 2})]),
    ("add product P-100 to my cart", CART, [("add_to_cart", {"product_id": "P-100"})]),
    ("what's in my cart?", CART, [("view_cart", {})]),
    ("set a timer for 25 minutes", TIMER, [("set_timer", {"minutes": 25})]),
    ("定一个十分钟的计时器", TIMER, [("set_timer", {"minutes": 10})]),
    ("what's the tip on 45 dollars", TIP, [("calc_tip", {"bill": 45})]),
    ("weather in Oslo", WX, [("get_forecast", {"location": "Oslo"})]),
    ("上海天气", WX, [("get_forecast", {"location": "上海"})]),
    ("quotes for AAPL, MSFT and NVDA", QUOTES, [("get_quotes", {"symbols": ["AAPL", "MSFT", "NVDA"]})]),
    ("price of TSLA and GOOG", QUOTES, [("get_quotes", {"symbols": ["TSLA", "GOOG"]})]),
    ("查一下 600519 和 000858 的股价", QUOTES, [("get_quotes", {"symbols": ["600519", "000858"]})]),
    ("compare apple and microsoft stock", QUOTES, [("get_quotes", {"symbols": ["AAPL", "MSFT"]})]),
    (
        "email bob@example.com with subject Lunch saying see you at noon",
        MAIL,
        [("send_email", {"to": "bob@example.com", "subject": "Lunch", "body": "see you at noon"})],
    ),
    ("book a tabel at Nobu for 2", TABLE, [("book_table", {"restaurant": "Nobu", "party_size": 2})]),
    (
        "convert 50 usd to eur and set a timer for 5 minutes",
        CONV + TIMER,
        [
            ("convert_currency", {"amount": 50, "from_currency": "USD", "to_currency": "EUR"}),
            ("set_timer", {"minutes": 5}),
        ],
    ),
    ("AAPL MSFT NVDA quotes", QUOTES, [("get_quotes", {"symbols": ["AAPL", "MSFT", "NVDA"]})]),
    (
        "vacation from Wednesday to Friday",
        HR,
        [("request_leave", {"start_date": "2026-12-02", "end_date": "2026-12-04", "type": "vacation"})],
    ),
    (
        "vacation from 2026-12-10 to Monday",
        HR,
        [("request_leave", {"start_date": "2026-12-10", "end_date": "2026-12-14", "type": "vacation"})],
    ),
    (
        "请病假，周四到下周二",
        HR,
        [("request_leave", {"start_date": "2026-12-03", "end_date": "2026-12-08", "type": "sick"})],
    ),
    ("delete todo 3 please", TODO, [("delete_todo", {"id": 3})]),
    ("move deal D-7 to qualified", CRM, [("update_deal_stage", {"deal_id": "D-7", "stage": "qualified"})]),
    ("assign ticket 12 to bob@corp.com", TICK, [("assign_ticket", {"ticket_id": 12, "assignee": "bob@corp.com"})]),
    ("turn the light lamp-7 on", IOT, [("toggle_light", {"device_id": "lamp-7", "on": True})]),
    ("switch lamp-7 off", IOT, [("toggle_light", {"device_id": "lamp-7", "on": False})]),
    ("打开灯lamp-7", IOT, [("toggle_light", {"device_id": "lamp-7", "on": True})]),
    ("关掉灯lamp-7", IOT, [("toggle_light", {"device_id": "lamp-7", "on": False})]),
    ("how is Tesla stock doing", STOCK, [("get_price", {"symbol": "TSLA"})]),
    (
        "how much is 100 euros in yen",
        CONV,
        [("convert_currency", {"amount": 100, "from_currency": "EUR", "to_currency": "JPY"})],
    ),
    (
        "100美元换成人民币是多少",
        CONV,
        [("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "CNY"})],
    ),
]
PROBE_REPLIES = [
    (
        "book a suite at hotel H-204 for 6 guests",
        HOTEL,
        '"guests" must be between 1 and 4, and your message gives no such number. What should I use?',
    ),
    (
        "book a room at hotel H-204",
        HOTEL,
        'Which "room type" should I use: single, double, suite? Your message does not say.',
    ),
    ("hotel in Paris", HOTEL, 'What should I use for "check in"? Your message does not say.'),
    (
        "set lamp-3 brightness to 140 percent",
        IOT,
        '"percent" must be between 0 and 100, and your message gives no such number. What should I use?',
    ),
    ("set the thermostat", IOT, 'What should I use for "room"? Your message does not say.'),
    ("log a call with contact C-889", CRM, 'What should I use for "duration min"? Your message does not say.'),
    (
        "translate hello into Korean",
        TRANS,
        '"target" can only be one of: en, zh, fr, de, ja, es. What you asked for is not one of them; which should I use?',
    ),
    (
        "convert 0 dollars to euros",
        CONV,
        '"amount" must be more than 0, and your message gives no such number. What should I use?',
    ),
    (
        "convert -20 euros to dollars",
        CONV,
        '"amount" must be more than 0, and your message gives no such number. What should I use?',
    ),
    (
        "book a table at Nobu for 13",
        TABLE,
        '"party size" must be between 1 and 12, and your message gives no such number. What should I use?',
    ),
    ("book a table at Nobu", TABLE, 'What should I use for "party size"? Your message does not say.'),
    ("book a table at Nobu at 7pm", TABLE, 'What should I use for "party size"? Your message does not say.'),
    ("在海底捞订座，十五个人", TABLE, "“party size”必须在 1 到 12 之间，您的消息里没有符合的数。请问用多少？"),
    ("set a timer", TIMER, 'What should I use for "minutes"? Your message does not say.'),
    (
        "set a timer for 500 minutes",
        TIMER,
        '"minutes" must be between 1 and 180, and your message gives no such number. What should I use?',
    ),
    ("定一个计时器", TIMER, "请告诉我“minutes”应该填什么，您的消息里没有提到。"),
    (
        "tip on a bill of zero dollars",
        TIP,
        '"bill" must be more than 0, and your message gives no such number. What should I use?',
    ),
    (
        "rate Inception 10 stars",
        RATE,
        '"stars" must be between 1 and 5, and your message gives no such number. What should I use?',
    ),
    ("rate Inception", RATE, 'What should I use for "stars"? Your message does not say.'),
    (
        "rate Inception zero stars",
        RATE,
        '"stars" must be between 1 and 5, and your message gives no such number. What should I use?',
    ),
    (
        "what's the capital of Peru?",
        WX,
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?",
    ),
    (
        "tell me a joke",
        WX,
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?",
    ),
    (
        "don't set a timer",
        TIMER,
        "All right, I will not look it up this time. I cannot make up what I have not looked up; tell me when you want an exact answer and I will check.",
    ),
    ("不用订座了", TABLE, "好的，这次不查询。没有查到的信息我不能编造，需要准确结果时请告诉我，我再帮您查。"),
    ("thanks!", TIMER, "You're welcome! Ask me any time you have another question."),
    ("谢谢", TIMER, "不客气！还有其他问题随时找我。"),
    (
        "who won the world cup in 2018?",
        TABLE,
        "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?",
    ),
]


@pytest.mark.parametrize(("text", "tools", "calls"), PROBE_CALLS)
def test_a_strangers_question_calls_what_a_model_would(text, tools, calls):
    assert turn(text, tools) == (calls, None)


@pytest.mark.parametrize(("text", "tools", "reply"), PROBE_REPLIES)
def test_a_strangers_question_is_asked_about_or_answered_in_text(text, tools, reply):
    assert turn(text, tools) == ([], reply)


def _chosen(text, tools, **extra):
    import json

    from toolkit.gateway.core import GatewayConfig, respond

    request = {"model": "m", "messages": [{"role": "user", "content": text}], "tools": tools, **extra}
    message = respond(request, GatewayConfig()).body["choices"][0]["message"]
    calls = [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message.get("tool_calls") or ()]
    return calls, message.get("content")


def test_tool_choice_and_parallel_tool_calls_on_a_strangers_tools():
    greeting = "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?"
    assert _chosen("book a table at Nobu for 4", TABLE, tool_choice="none") == ([], greeting)
    named = {"type": "function", "function": {"name": "view_cart"}}
    assert _chosen("book a table at Nobu for 4", TABLE + CART, tool_choice=named) == ([("view_cart", {})], None)
    close = fn("close_tickets", "Close support tickets", {"ticket_ids": {"type": "array", "items": I}})
    assert _chosen("close tickets 101, 102 and 107", [close], parallel_tool_calls=False) == (
        [("close_tickets", {"ticket_ids": [101, 102, 107]})],
        None,
    )
    both = _chosen("convert 50 usd to eur and set a timer for 5 minutes", CONV + TIMER, parallel_tool_calls=False)
    assert both == ([("convert_currency", {"amount": 50, "from_currency": "USD", "to_currency": "EUR"})], None)
