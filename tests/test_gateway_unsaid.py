"""toolkit.gateway.unsaid: a required number the user never gives, or gives only outside its bounds, is asked for."""

import pytest
from test_gateway_generic_asks import S, fn, turn

from toolkit.gateway.unsaid import bounds_words

I = {"type": "integer"}
TABLE = fn(
    "book_table",
    "Reserve a table at a restaurant",
    {"restaurant": S, "party_size": {"type": "integer", "minimum": 1, "maximum": 12}},
)
TRANSFER = fn(
    "transfer_money",
    "Transfer money to an account",
    {"account_id": S, "amount": {"type": "number", "exclusiveMinimum": 0, "maximum": 10000}},
)
PAGES = fn(
    "list_users",
    "List users",
    {"page_size": {"type": "integer", "minimum": 10, "maximum": 100, "multipleOf": 10}},
)
CALL = fn("log_call", "Log a sales call with a contact", {"contact_id": S, "duration_min": {"type": "integer"}})


@pytest.mark.parametrize(
    ("text", "tools", "reply"),
    [
        ("book a table at Nobu", [TABLE], 'What should I use for "party size"? Your message does not say.'),
        ("log a call with contact C-889", [CALL], 'What should I use for "duration min"? Your message does not say.'),
        ("list users", [PAGES], 'What should I use for "page size"? Your message does not say.'),
        ("在海底捞订座", [TABLE], "请告诉我“party size”应该填什么，您的消息里没有提到。"),
        (
            "在海底捞订一张桌子，十五个人",
            [TABLE],
            "“party size”必须在 1 到 12 之间，您的消息里没有符合的数。请问用多少？",
        ),
        (
            "book a table at Nobu for 20 people",
            [TABLE],
            '"party size" must be between 1 and 12, and your message gives no such number. What should I use?',
        ),
        (
            "book a table at Nobu for zero people",
            [TABLE],
            '"party size" must be between 1 and 12, and your message gives no such number. What should I use?',
        ),
        (
            "transfer 50000 to account A-1",
            [TRANSFER],
            '"amount" must be more than 0 and at most 10000, and your message gives no such number. What should I use?',
        ),
        (
            "list users 25 per page",
            [PAGES],
            '"page size" must be between 10 and 100 and a multiple of 10, and your message gives no such number. '
            "What should I use?",
        ),
        ("给账户A-1转五万块", [TRANSFER], "“amount”必须大于 0，且不大于 10000，您的消息里没有符合的数。请问用多少？"),
    ],
)
def test_a_required_number_not_given_is_asked_for(text, tools, reply):
    """ "book a table at Nobu" called book_table(party_size=1), "for 20 people" with at most 12 the same, "transfer
    50000" transfer_money(amount=1): a number the filler made up (the bounds' least) where a model asks."""
    assert turn(text, tools) == ([], reply)


@pytest.mark.parametrize(
    ("text", "tools", "calls"),
    [
        ("book a table at Nobu for 4", [TABLE], [("book_table", {"restaurant": "Nobu", "party_size": 4})]),
        ("book a table at Nobu for four", [TABLE], [("book_table", {"restaurant": "Nobu", "party_size": 4})]),
        (
            "book a table at Nobu for two people at 7pm",
            [TABLE],
            [("book_table", {"restaurant": "Nobu", "party_size": 2})],
        ),
        ("list users 30 per page", [PAGES], [("list_users", {"page_size": 30})]),
        ("transfer 三百五十 to account A-1", [TRANSFER], [("transfer_money", {"account_id": "A-1", "amount": 350})]),
        ("转账两千元到账户12345", [TRANSFER], [("transfer_money", {"account_id": "12345", "amount": 2000})]),
        ("在海底捞订座，三个人", [TABLE], [("book_table", {"restaurant": "海底捞", "party_size": 3})]),
    ],
)
def test_a_number_given_is_called_with(text, tools, calls):
    """A number in words counts before an hour of the day: "for two people at 7pm" was a party of 7."""
    assert turn(text, tools)[0] == calls


def test_a_time_alone_is_no_number():
    assert turn("book a table at Nobu at 7pm", [TABLE]) == (
        [],
        'What should I use for "party size"? Your message does not say.',
    )


@pytest.mark.parametrize(
    ("text", "tools", "calls"),
    [
        (
            "return item SKU-9",
            [fn("return_item", "Return an item", {"sku": S, "quantity": {"type": "integer", "minimum": 1}})],
            [("return_item", {"sku": "SKU-9", "quantity": 1})],
        ),
        (
            "how many km is a mile?",
            [fn("convert_length", "Convert a length between units", {"value": I, "from_unit": S, "to_unit": S})],
            [("convert_length", {"value": 1, "from_unit": "mile", "to_unit": "km"})],
        ),
    ],
)
def test_a_count_and_a_conversions_amount_are_one_when_not_said(text, tools, calls):
    assert turn(text, tools)[0] == calls


def test_a_default_or_an_optional_number_is_not_asked_for():
    table = fn(
        "book_table",
        "Reserve a table at a restaurant",
        {"restaurant": S, "party_size": {"type": "integer", "minimum": 1, "default": 2}},
    )
    assert turn("book a table at Nobu", [table])[0] == [("book_table", {"restaurant": "Nobu", "party_size": 2})]
    optional = fn("book_table", "Reserve a table", TABLE["function"]["parameters"]["properties"], ["restaurant"])
    assert turn("book a table at Nobu", [optional])[0] == [("book_table", {"restaurant": "Nobu"})]


@pytest.mark.parametrize(
    ("schema", "english", "chinese"),
    [
        ({"minimum": 1, "maximum": 12}, "between 1 and 12", "在 1 到 12 之间"),
        ({"exclusiveMinimum": 0}, "more than 0", "大于 0"),
        ({"maximum": 5.5, "multipleOf": 0.5}, "at most 5.5 and a multiple of 0.5", "不大于 5.5，且是 0.5 的倍数"),
        ({"exclusiveMaximum": 3.0}, "less than 3", "小于 3"),
        ({}, "", ""),
    ],
)
def test_bounds_words(schema, english, chinese):
    assert (bounds_words(schema, True), bounds_words(schema, False)) == (english, chinese)


def _answer(tools, *said):
    """(calls, text) of a conversation of alternate user and assistant texts, the last the user's."""
    import json

    from toolkit.gateway.core import GatewayConfig, respond

    messages = [{"role": "user" if k % 2 == 0 else "assistant", "content": t} for k, t in enumerate(said)]
    message = respond({"model": "m", "messages": messages, "tools": tools}, GatewayConfig()).body["choices"][0]
    calls = message["message"].get("tool_calls") or ()
    return [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls], message["message"][
        "content"
    ]


@pytest.mark.parametrize(
    ("said", "tools", "calls"),
    [
        (
            ("book a table at Nobu", 'What should I use for "party size"? Your message does not say.', "4 people"),
            [TABLE],
            [("book_table", {"restaurant": "Nobu", "party_size": 4})],
        ),
        (
            ("在海底捞订座", "请告诉我“party size”应该填什么，您的消息里没有提到。", "三个人"),
            [TABLE],
            [("book_table", {"restaurant": "海底捞", "party_size": 3})],
        ),
        (
            ("list users", 'What should I use for "page size"? Your message does not say.', "20"),
            [PAGES],
            [("list_users", {"page_size": 20})],
        ),
    ],
)
def test_the_answer_to_the_question_completes_the_call(said, tools, calls):
    """ "4 people" after the question about the party size was answered with the greeting: an answer names no
    tool, and only the previous turn's calls were carried, never the question asked instead of one."""
    assert _answer(tools, *said) == (calls, None)


def test_an_answer_out_of_bounds_is_asked_about_again():
    said = ("book a table at Nobu", 'What should I use for "party size"? Your message does not say.', "20")
    assert _answer([TABLE], *said) == (
        [],
        '"party size" must be between 1 and 12, and your message gives no such number. What should I use?',
    )


@pytest.mark.parametrize("before", ["Done: table R-1 for 2.", "Hello! I am the after-sales assistant. How can I help?"])
def test_a_reply_after_none_of_the_gateways_questions_is_read_alone(before):
    """Only the rules' own questions (`ask_*`) are answered by the next text: a greeting's "How can I help?" is none."""
    assert _answer([TABLE], "book a table at Nobu", before, "4")[0] == []
