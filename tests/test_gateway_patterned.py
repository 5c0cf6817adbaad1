"""`toolkit.gateway.patterned`: how long a text a `pattern` is searched in, and the strings built.
The old `risky` check saw only nested repeats (`(a+)+$`), so a polynomially backtracking pattern was searched in
the user's words: `^\\d*\\d*\\d*\\d*\\d*\\d*x$` in 40 digits took 0.1 s of one request, in 100 digits
20 s, `.*a.*b` in 1,000 letters 0.3 s, and `[a-z]+\\.com` in a 6,000-character URL fact 60 ms (a
60,000-character one: seconds). Now every value is searched only up to the pattern's `search_limit`;
no test here times anything: the limits are counted, and the answers are the built strings.
Also: pydantic's `ipvanyaddress` / `ipvanyinterface` / `ipvanynetwork` formats, a built empty string,
and a repeat taken 0 times after a string built 1,000 long."""

import json

import pytest
from pydantic import BaseModel, IPvAnyAddress, IPvAnyInterface, IPvAnyNetwork, conset

from toolkit.gateway.core import GatewayConfig, respond
from toolkit.gateway.generic import _MAX_WORDS_CHARS, fill_arguments
from toolkit.gateway.patterned import pattern_string, search_limit
from toolkit.gateway.rules import load_rules, read_text

RULES = load_rules()
HOSTILE = [
    r"^\d*\d*\d*\d*\d*\d*x$",
    r"a*a*a*a*a*b",
    r".*.*.*=.*",
    r".*a.*b",
    r"\s*\s*x",
    r"(\w+\s?)*$",
    r"[^@]+@[^@]+\.[^@]+",
    r"(?i)A*a*b",
    r"(?:\d*x)?\d*y",
    r"(?:ab)*(?:ab)*c",
    r"(?m)^\d*\d*x",
    r".*(red|green).*x",
    "a?" * 30 + "a" * 30,
]


def call(pattern: str, said: str, name: str = "code") -> dict:
    parameters = {"type": "object", "properties": {name: {"type": "string", "pattern": pattern}}, "required": [name]}
    tool = {"type": "function", "function": {"name": "lookup_record", "description": "Look up a record by its code"}}
    tool["function"]["parameters"] = parameters
    request = {"model": "m", "messages": [{"role": "user", "content": said}], "tools": [tool]}
    function = respond(request, GatewayConfig()).body["choices"][0]["message"]["tool_calls"][0]["function"]
    assert function["name"] == "lookup_record"
    return json.loads(function["arguments"])


def fill(field: dict, text: str):
    schema = {"type": "object", "properties": {"x": field}, "required": ["x"]}
    return fill_arguments(schema, text, read_text(text, RULES), RULES)["x"]


# --- how long a text a pattern is searched in ----------------------------------------------------


@pytest.mark.parametrize("pattern", HOSTILE)
def test_each_hostile_shape_is_risky(pattern):
    assert search_limit(pattern) < _MAX_WORDS_CHARS == 1_000  # the user's words are not searched whole


@pytest.mark.parametrize(
    ("pattern", "limit"),
    [
        (r"a*a*a*a*a*b", 10),  # n⁶ within 2,000,000 steps
        (r"^\d*\d*\d*\d*\d*\d*x$", 10),
        (r".*.*.*=.*", 17),
        (r".*a.*b", 125),
        (r"\d+x", 1_413),  # every start, and the digits given back: n²
        (r"^\d*\d*x", 1_413),  # anchored: one start
        (r"^[a-z ]+$", 1 << 20),  # one start, one repeat: any text up to a MiB
        (r"^[A-Z]{3}-\d{4}$", 1 << 20),
        (r"(a+)+$", 0),  # exponential
        (r"(?=x)y", 0),  # not read
    ],
)
def test_the_search_limit_counts_starts_and_linked_repeats(pattern, limit):
    assert search_limit(pattern) == limit


@pytest.mark.parametrize(
    "pattern",
    [
        r"^\w+@\w+\.[a-z]{2,}$",  # `@` and `.` are no word characters: nothing links
        r"^(?:\+?1[-. ]?)?\(?\d{3}\)?[-. ]?\d{3}[-. ]?\d{4}$",
        r"^.*\S.*$",
        r"[a-z]+$",
        r"(?>\d*)\d*x",  # an atomic group gives nothing back
        r"\d*+\d*x",
        r"[\u4e01-\u9fff]*[\u4e00]*x",  # ranges that only touch each other's ends: no overlap
        r"(?i)[ß]*S*x",
        r"^(red|green|blue)$",
        "order",
    ],
)
def test_patterns_that_do_not_backtrack_for_long_are_not_risky(pattern):
    assert search_limit(pattern) >= _MAX_WORDS_CHARS  # the user's words are searched


# --- requests ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "said", "built"),
    [
        (r"^\d*\d*\d*\d*\d*\d*x$", "1" * 100 + " lookup the record by code", "x"),
        (r"a*a*a*a*a*b", "a" * 3_000 + " lookup the record by code", "b"),
        (r".*.*.*=.*", "x" * 3_000 + " lookup the record by code", "="),
        (r".*a.*b", "a" * 3_000 + " lookup the record by code", "ab"),
        (r"\s*\s*x", "lookup the record by code" + " " * 3_000 + "y", "x"),
    ],
)
def test_a_hostile_pattern_is_built_not_searched_in_the_user_s_words(pattern, said, built):
    assert call(pattern, said) == {"code": built}


def test_a_pattern_that_is_not_risky_still_keeps_the_user_s_words():
    said = "lookup the record by code " + "a" * 974
    assert call(r"^[a-z ]+$", said) == {"code": said}
    assert call(r"\d+x", "lookup the record by code 12x") == {"code": "lookup the record by code 12x"}
    # risky in 1,000 characters, but searched in a value within its limit (125)
    said = "lookup the record for bob@example.com"
    assert call(r"[^@]+@[^@]+\.[^@]+", said) == {"code": said}


def test_a_fact_longer_than_the_search_limit_is_not_searched():
    pattern = r"[a-z]+\.com"  # a limit of 1,413: a 6,000-character URL took 60 ms, 60,000 seconds
    assert call(pattern, "lookup the record https://" + "a" * 6_000, "url") == {"url": "a.com"}
    assert call(pattern, "lookup the record https://shop.com/x", "url") == {"url": "https://shop.com/x"}


def test_the_values_of_one_request_are_searched_for_a_bounded_total():
    """A schema of many slow patterns: each value within its limit, all of them together not (each
    search costs `len / search_limit` of one at the limit): the first `_MAX_SEARCHES` searches' worth
    keep the user's words, the rest are built; a second request starts afresh."""
    from toolkit.gateway.generic import _MAX_SEARCHES

    said = "lookup " + "a" * 90 + " b"  # `.*a.*b` is found in it; its limit is 125 characters
    share = len(said) / search_limit(".*a.*b")
    schema = {
        "type": "object",
        "properties": {f"p{i}": {"type": "string", "pattern": ".*a.*b"} for i in range(200)},
        "required": [f"p{i}" for i in range(200)],
    }
    for _ in range(2):
        filled = fill_arguments(schema, said, read_text(said, RULES), RULES)
        kept = [name for name, value in filled.items() if value == said]
        assert kept == [f"p{i}" for i in range(int(_MAX_SEARCHES / share))]
        assert all(value == pattern_string(".*a.*b", 0, 0) for name, value in filled.items() if name not in kept)


def test_a_built_empty_string_is_given():
    assert fill({"type": "string", "pattern": "^(a+)*$"}, "please look up my order") == ""


def test_a_repeat_taken_no_times_after_a_full_length_string_is_built():
    assert pattern_string(".*=.*", 0, 1_000) == "A" * 999 + "="
    assert pattern_string("a{1000}(?:b)?", 0, 1_000) == "a" * 1_000


# --- IP address formats --------------------------------------------------------------------------


class Network(BaseModel):
    address: IPvAnyAddress
    interface: IPvAnyInterface
    network: IPvAnyNetwork
    networks: conset(IPvAnyNetwork, min_length=3)
    addresses: conset(IPvAnyAddress, min_length=2)
    interfaces: conset(IPvAnyInterface, min_length=2)


def test_pydantic_s_ip_formats_are_filled_with_valid_values():
    arguments = fill_arguments(Network.model_json_schema(), "set up the office network", read_text("", RULES), RULES)
    assert arguments == {
        "address": "192.0.2.1",
        "interface": "192.0.2.1/24",
        "network": "192.0.2.0/24",
        "networks": ["192.0.2.0/24", "192.0.3.0/24", "192.0.4.0/24"],
        "addresses": ["192.0.2.1", "192.0.2.2"],
        "interfaces": ["192.0.2.1/24", "192.0.2.2/24"],
    }
    Network.model_validate(arguments)


@pytest.mark.parametrize(
    ("fmt", "made"),
    [
        ("ipv4interface", "192.0.2.1/24"),
        ("ipv4network", "192.0.2.0/24"),
        ("ipv6interface", "2001:db8::1/64"),
        ("ipv6network", "2001:db8::/64"),
    ],
)
def test_the_other_ip_formats_pydantic_writes_are_filled(fmt, made):
    assert fill({"type": "string", "format": fmt}, "set up the office network") == made
