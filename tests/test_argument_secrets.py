"""An argument error's secrets are masked, the package's own words are not (`toolkit.tools.argument_secrets`).

Scrubbed whole, `- api_key: got 5.5, expected an integer` read `- api_key: [REDACTED] 5.5, expected an
integer`: the word `got` masked as the secret's value, the value shown; a missing `password` read
`- password: [REDACTED], expected a string`."""

import json

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError, ArgumentProblem
from toolkit.tools.argument_secrets import masked_argument_text, secret_field
from toolkit.tools.decorator import tool
from toolkit.tools.execute import Policies, report_argument_error, run_call, tools_from
from toolkit.tools.redact import scrub_secrets


@tool("Store a credential.")
def store(api_key: int, password: str, token: int = 1, note: str = "") -> str:
    return "ok"


def feedback(arguments: dict) -> str:
    call = ToolCall(id="c1", name="store", arguments=json.dumps(arguments))
    outcome = run_call(call, tools_from(store), policies=Policies(argument_error=report_argument_error))
    assert outcome.error_kind == "argument"
    return outcome.result.content


@pytest.mark.parametrize(
    "arguments, lines",
    [
        ({"api_key": 5.5, "password": "p"}, ["- api_key: got [REDACTED], expected an integer"]),
        ({"api_key": 5}, ["- password: missing, expected a string"]),
        (
            {"api_key": 5, "password": 3, "token": "hunter2hunter2"},
            ["- password: got [REDACTED], expected a string", "- token: got [REDACTED], expected an integer"],
        ),
        (
            {"api_key": "x", "password": "p", "note": 4},
            ["- api_key: got [REDACTED], expected an integer", "- note: got 4, expected a string"],
        ),
    ],
    ids=["wrong-type", "missing", "two-secrets", "secret-and-plain"],
)
def test_a_secret_named_parameter_has_its_value_masked_and_the_template_kept(arguments, lines):
    assert feedback(arguments) == "\n".join(
        ["Invalid arguments for tool 'store':", *lines, "Fix the arguments and call store again."]
    )


def test_an_unknown_field_named_like_a_secret_keeps_its_words():
    text = feedback({"api_key": 5, "password": "p", "client_secret": "abc123"})
    assert text.splitlines()[1] == (
        "- client_secret: unknown field (got [REDACTED]), valid fields: api_key, password, token, note"
    )


def test_a_reason_quoting_a_connection_string_is_still_scrubbed():
    error = ArgumentError("store", [ArgumentProblem("api_key", "7", "postgres://u:pw99@db/x", "refused")])
    assert masked_argument_text(error, str(error)).splitlines()[1] == (
        "- api_key: got [REDACTED], refused: postgres://[REDACTED]@db/x"
    )


def test_a_text_of_its_own_is_scrubbed_whole_as_before():
    error = ArgumentError("store", [ArgumentProblem("api_key", "5.5", "an integer")])
    own = "字段=api_key，收到=5.5 — api_key: 5.5"
    assert masked_argument_text(error, own) == scrub_secrets(own)


@pytest.mark.parametrize(
    "field, secret",
    [
        ("api_key", True),
        ("creds.password", True),
        ("keys[0].api_key", True),
        ("api_key[3]", True),
        ("order_id", False),
        ("items[2].qty", False),
        ("", False),
    ],
)
def test_a_field_path_is_judged_by_its_last_name(field, secret):
    assert secret_field(field) is secret


@pytest.mark.parametrize("seed", range(40))
def test_a_text_the_scrubber_leaves_is_the_same_text(seed):
    """Every error with no secret in it reads as it always did: same text, no second pass."""
    names = ["order_id", "qty", "city", "items[1].sku", "when", "note"]
    values = ["5.5", '"abc"', "null", "[1, 2]", '"2024-13-01"', "true", ""]
    kinds = ["invalid", "missing", "unknown", "refused"]
    problems = [
        ArgumentProblem(names[(seed + i) % 6], values[(seed * 3 + i) % 7], "an integer", kinds[(seed + i) % 4])
        for i in range(1 + seed % 4)
    ]
    error = ArgumentError("lookup", problems)
    assert masked_argument_text(error, str(error)) == scrub_secrets(str(error)) == str(error)
