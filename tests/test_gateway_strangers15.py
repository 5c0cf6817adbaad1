"""The embedded gateway on strangers' queries (round 15): catalogues of their own (booking, maps, units, todo, IoT,
CRM, tickets, HR, translation, stocks, money, mail, calendar) asked in English and Chinese.

The probes it answers as a model would are kept here as a regression; the defects found are tested beside their fix
(`test_gateway_unsaid`, `test_gateway_zh_numbers`, `test_gateway_listed`, `test_gateway_ordinal_days`) and below
(an email's subject and body).
"""

import pytest
from test_gateway_generic_asks import S, fn, turn

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
