"""The embedded gateway on strangers' queries (round 14): catalogues of their own (calendar, shop, files,
mail, maps, stocks, units, todo, search, calculator, translation, travel) asked in English and Chinese.

The probes it answers as a model would are kept here as a regression; the defects found are tested beside
their fix (`test_gateway_negated`, `test_gateway_language`, `test_gateway_worded`, `test_gateway_arith`) and
below (a parameter named `expr` or `sku`).
"""

import pytest
from test_gateway_generic_asks import S, fn, turn

N, I, B = {"type": "number"}, {"type": "integer"}, {"type": "boolean"}


def D(description, kind="string", **more):
    return {"type": kind, "description": description, **more}


CAL = [
    fn(
        "create_event",
        "Create a calendar event",
        {
            "title": S,
            "start": D("Start time", format="date-time"),
            "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 480},
            "attendees": {"type": "array", "items": {"type": "string", "format": "email"}},
        },
        ["title", "start"],
    ),
    fn("list_events", "List calendar events on a day", {"day": D("Day", format="date")}),
    fn("cancel_event", "Cancel a calendar event by id", {"event_id": S}),
]
WX = [
    fn(
        "get_forecast",
        "Weather forecast for a location",
        {
            "location": S,
            "days": {"type": "integer", "minimum": 1, "maximum": 7},
            "units": {"enum": ["metric", "imperial"]},
        },
        ["location"],
    )
]
FX = [
    fn(
        "convert",
        "Convert money between currencies",
        {"amount": N, "from": D("ISO 4217 code"), "to": D("ISO 4217 code")},
    )
]
SHOP = [
    fn("get_order", "Look up an order by its number", {"order_number": D("e.g. A-12345")}),
    fn(
        "cancel_order",
        "Cancel an order",
        {"order_number": S, "reason": {"type": "string", "enum": ["changed_mind", "other"]}},
        ["order_number"],
    ),
    fn(
        "return_item",
        "Start a return for an item of an order",
        {"order_number": S, "sku": S, "quantity": {"type": "integer", "minimum": 1}},
    ),
]
FILES = [
    fn("read_file", "Read a text file", {"path": S}),
    fn("list_dir", "List files in a directory", {"directory": S, "recursive": B}, ["directory"]),
    fn("delete_file", "Delete a file", {"path": S}),
]
MAIL = [
    fn("send_email", "Send an email", {"to": {"type": "string", "format": "email"}, "subject": S, "body": S}),
    fn(
        "search_inbox",
        "Search emails in the inbox",
        {"query": S, "limit": {"type": "integer", "minimum": 1, "maximum": 50}},
        ["query"],
    ),
]
STK = [fn("stock_quote", "Get a stock quote", {"ticker": D("Ticker symbol, e.g. AAPL")})]
UNIT = [fn("convert_units", "Convert a value between units", {"value": N, "from_unit": S, "to_unit": S})]
TODO = [
    fn(
        "add_task",
        "Add a task to the todo list",
        {
            "text": S,
            "due": D("Due date", format="date"),
            "priority": {"type": "string", "enum": ["low", "medium", "high"]},
        },
        ["text"],
    ),
    fn("list_tasks", "List open tasks", {}),
    fn("complete_task", "Mark a task done", {"task_id": I}),
]
CALC = [fn("calculator", "Evaluate an arithmetic expression", {"expr": S})]
TR = [fn("translate", "Translate text", {"text": S, "target_language": D("ISO 639-1 code like 'fr'")})]
TRAVEL = [
    fn(
        "search_flights",
        "Search flights",
        {
            "from_airport": D("IATA code"),
            "to_airport": D("IATA code"),
            "date": D("date", format="date"),
            "passengers": {"type": "integer", "minimum": 1, "maximum": 9},
        },
        ["from_airport", "to_airport", "date"],
    ),
    fn(
        "book_hotel",
        "Book a hotel room",
        {"city": S, "check_in": D("", format="date"), "nights": {"type": "integer", "minimum": 1}},
    ),
]
GREETING = "Hello! I am the after-sales assistant: I can look up an order's status, its delivery and the return policy. How can I help?"
GREETING_ZH = "您好！我是售后助手，可以帮您查询订单状态、物流进度和退换货政策。请问有什么可以帮您？"


@pytest.mark.parametrize(
    ("text", "tools", "calls"),
    [
        (
            "schedule a meeting called Budget review tomorrow at 3pm",
            CAL,
            [("create_event", {"title": "Budget review", "start": "2026-12-02T15:00:00Z"})],
        ),
        ("what's on my calendar next Friday?", CAL, [("list_events", {"day": "2026-12-11"})]),
        ("cancel event ev_829", CAL, [("cancel_event", {"event_id": "ev_829"})]),
        ("forecast for Oslo for 10 days", WX, [("get_forecast", {"location": "Oslo"})]),
        ("weather in Zürich?", WX, [("get_forecast", {"location": "Zürich"})]),
        ("100美元换成人民币是多少", FX, [("convert", {"amount": 100, "from": "USD", "to": "CNY"})]),
        ("how many yen is 30 pounds", FX, [("convert", {"amount": 30, "from": "GBP", "to": "JPY"})]),
        ("how much is 50 € in dollars", FX, [("convert", {"amount": 50, "from": "EUR", "to": "USD"})]),
        ("convert fifty euros to dollars", FX, [("convert", {"amount": 50, "from": "EUR", "to": "USD"})]),
        ("convert 2.5k USD to JPY", FX, [("convert", {"amount": 2500, "from": "USD", "to": "JPY"})]),
        ("convert 5万日元 to CNY", FX, [("convert", {"amount": 50000, "from": "JPY", "to": "CNY"})]),
        (
            "I don't need the weather, convert 20 gbp to usd",
            WX + FX,
            [("convert", {"amount": 20, "from": "GBP", "to": "USD"})],
        ),
        ("where is my order A-55012?", SHOP, [("get_order", {"order_number": "A-55012"})]),
        ("cancel order A-10001 because it's taking too long", SHOP, [("cancel_order", {"order_number": "A-10001"})]),
        ("don't cancel it, just check order A-20202", SHOP, [("get_order", {"order_number": "A-20202"})]),
        (
            "return order A-1 item SKU-9",
            SHOP,
            [("return_item", {"order_number": "A-1", "sku": "SKU-9", "quantity": 1})],
        ),
        ("how is apple stock doing", STK, [("stock_quote", {"ticker": "AAPL"})]),
        ("腾讯股价", STK, [("stock_quote", {"ticker": "0700.HK"})]),
        ("convert 5 miles to km", UNIT, [("convert_units", {"value": 5, "from_unit": "miles", "to_unit": "km"})]),
        ("how many pounds is 70 kg", UNIT, [("convert_units", {"value": 70, "from_unit": "kg", "to_unit": "pounds"})]),
        ("what's on my todo list", TODO, [("list_tasks", {})]),
        ("mark task 7 as done", TODO, [("complete_task", {"task_id": 7})]),
        ("mark task seven done", TODO, [("complete_task", {"task_id": 7})]),
        ("what is 17 times 23", CALC, [("calculator", {"expr": "17 * 23"})]),
        ("calculate (12.5+7)/3", CALC, [("calculator", {"expr": "(12.5+7)/3"})]),
        (
            "translate 'good morning' into Japanese",
            TR,
            [("translate", {"text": "good morning", "target_language": "Japanese"})],
        ),
        ("把“谢谢你的帮助”翻译成英文", TR, [("translate", {"text": "谢谢你的帮助", "target_language": "英文"})]),
        (
            "find flights from SFO to JFK on 2026-12-20 for 2 people",
            TRAVEL,
            [("search_flights", {"from_airport": "SFO", "to_airport": "JFK", "date": "2026-12-20"})],
        ),
        (
            "don't book anything yet, just search flights from LHR to CDG tomorrow",
            TRAVEL,
            [("search_flights", {"from_airport": "LHR", "to_airport": "CDG", "date": "2026-12-02"})],
        ),
    ],
)
def test_a_strangers_question_calls_what_a_model_would(text, tools, calls):
    assert turn(text, tools)[0] == calls


@pytest.mark.parametrize(
    ("text", "tools", "reply"),
    [
        ("what is the capital of France?", WX, GREETING),
        ("tell me a joke", WX + FX + STK, GREETING),
        ("who wrote Hamlet?", WX + FX + STK, GREETING),
        ("谢谢你", WX + FX, "不客气！还有其他问题随时找我。"),
        ("cancel my order", SHOP, 'What should I use for "order number"? Your message does not say.'),
        ("send an email to Bob", MAIL, 'What should I use for "to"? Your message does not say.'),
        (
            "how much is ¥5000 in GBP",
            FX,
            "Which currency do you want on the other side (for example EUR or JPY)? Your message names only one.",
        ),
        ("show me what's in notes.txt but don't delete anything", FILES, GREETING),
    ],
)
def test_a_strangers_question_no_tool_answers_is_answered_in_text(text, tools, reply):
    assert turn(text, tools) == ([], reply)


# --- a parameter named `expr` takes the sum, one named `sku` an identifier ------------------------


@pytest.mark.parametrize(
    ("text", "expr"),
    [("what is 17 times 23", "17 * 23"), ("what's 15% of 80", "0.15 * 80"), ("3 加 5 等于几", "3 + 5")],
)
def test_a_field_named_expr_takes_the_sum(text, expr):
    """ "what is 17 times 23" called calculator(expr="what is 17 times 23"): `expression`, `formula` and
    `equation` asked for the sum, the short `expr` did not."""
    assert turn(text, CALC)[0] == [("calculator", {"expr": expr})]


def test_a_field_named_sku_takes_an_identifier():
    """ "return order A-1 item SKU-9" called return_item(sku="return order A-1 item SKU-9"): the whole text."""
    sku = fn("restock", "Restock an item", {"sku": S, "quantity": I})
    assert turn("restock SKU-4411, 12 units", [sku])[0] == [("restock", {"sku": "SKU-4411", "quantity": 12})]


# --- tool_choice and parallel_tool_calls ------------------------------------------------------------


def _choice(text, tools, **extra):
    import json

    from toolkit.gateway.core import GatewayConfig, respond

    request = {"model": "m", "messages": [{"role": "user", "content": text}], "tools": tools, **extra}
    message = respond(request, GatewayConfig()).body["choices"][0]["message"]
    return [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message.get("tool_calls") or ()]


def test_tool_choice_none_calls_nothing_and_parallel_false_calls_once():
    assert _choice("weather in Rome", WX, tool_choice="none") == []
    assert _choice("weather in Rome and Paris", WX, parallel_tool_calls=False) == [
        ("get_forecast", {"location": "Rome"})
    ]
    both = _choice("convert 10 usd to eur and weather in Rome", WX + FX, parallel_tool_calls=False)
    assert both == [("convert", {"amount": 10, "from": "USD", "to": "EUR"})]


# --- a file's path -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ("read /etc/hosts", [("read_file", {"path": "/etc/hosts"})]),
        ("list everything under ~/projects recursively", [("list_dir", {"directory": "~/projects"})]),
        ("删除 /tmp/a.log 文件", [("delete_file", {"path": "/tmp/a.log"})]),
        ("删除/tmp/a.log文件", [("delete_file", {"path": "/tmp/a.log"})]),
        ("read notes.txt but don't delete anything", [("read_file", {"path": "notes.txt"})]),
        ("read C:\\logs\\app.log please", [("read_file", {"path": "C:\\logs\\app.log"})]),
        ("read the file at ./build/out.txt.", [("read_file", {"path": "./build/out.txt"})]),
        ("read report-2026.pdf, e.g. the summary", [("read_file", {"path": "report-2026.pdf"})]),
        (
            "list the files in /var/log and delete /tmp/x.txt",
            [("list_dir", {"directory": "/var/log"}), ("delete_file", {"path": "/tmp/x.txt"})],
        ),
    ],
)
def test_a_field_named_for_a_path_takes_the_path_written(text, calls):
    """ "list everything under ~/projects recursively" called list_dir(directory=<the whole text>), and
    "删除 /tmp/a.log 文件" called nothing: a `path`, `directory`, `folder` or `filename` field takes the path or
    file name written (`[generic.facts] path`), and 删除 and 文件 read as delete and file."""
    assert turn(text, FILES)[0] == calls


def test_a_path_not_written_is_asked_for():
    assert turn("delete the file", FILES) == ([], 'What should I use for "path"? Your message does not say.')


# --- 订单 and 取消 for a stranger's shop -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ("我的订单A-88888到哪了", [("get_order", {"order_number": "A-88888"})]),
        ("订单A-88888的状态", [("get_order", {"order_number": "A-88888"})]),
        ("取消订单A-88888", [("cancel_order", {"order_number": "A-88888"})]),
    ],
)
def test_a_chinese_question_about_an_order_picks_a_strangers_order_tool(text, calls):
    """ "我的订单A-88888到哪了" was answered "抱歉，这个问题我现在无法查询" with get_order offered: 订单 found no
    tool described in English (the glossary had no 订单, nor 取消)."""
    assert turn(text, SHOP[:2])[0] == calls


# --- a place before the time it is asked for -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "places"),
    [
        ("will it rain in berlin this weekend", ["berlin"]),
        ("weather in paris next week", ["paris"]),
        ("weather in new york tomorrow morning", ["new york"]),
        ("weather in paris and rome this weekend", ["paris", "rome"]),
        ("北京这周末的天气", ["北京"]),
        ("北京周末天气", ["北京"]),
    ],
)
def test_a_place_followed_by_a_week_or_a_weekend_is_read(text, places):
    """ "will it rain in berlin this weekend" and "上海未来五天天气" asked which city: a lower-case place was read
    only before today, tomorrow, tonight or now, and a Chinese one only before a day's name."""
    assert turn(text, WX)[0] == [("get_forecast", {"location": p}) for p in places]


@pytest.mark.parametrize("text", ["weather in this city", "weather in the next town"])
def test_this_or_next_is_no_place(text):
    assert turn(text, WX) == ([], "Which city (or place) do you mean? Tell me and I'll look it up.")


@pytest.mark.parametrize(
    ("text", "path"), [("read the name of the file a.txt", "a.txt"), ("read x.log, e.g. now", "x.log")]
)
def test_a_file_name_of_one_letter_is_a_path_and_an_abbreviation_is_not(text, path):
    assert turn(text, FILES)[0] == [("read_file", {"path": path})]
