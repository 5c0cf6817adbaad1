"""A key of the model's arguments searched with an MCP tool's `patternProperties` (`toolkit.mcp.schema.
checked_arguments`). `pattern` was left to the server (a catastrophic one would take hours here), but
`patternProperties`, and `additionalProperties` or `unevaluatedProperties` beside it, were searched with
Python's `re` in whatever key the model wrote: `^(a+)+$` against 30 'a's and a '!' hung the loop. A key
such a pattern cannot be searched in quickly (`toolkit.gateway.patterned.search_limit`) leaves the
arguments to the server, as a pattern does; a pattern searched quickly is checked as before."""

import signal

import pytest

from toolkit.mcp.schema import checked_arguments

KEY = "a" * 30 + "!"
CATASTROPHIC = "^(a+)+$"


class Hung(BaseException):
    """Not an `Exception`: the check reads any `Exception` as a schema it cannot read (the conftest's
    `deadline` raises `TimeoutError`, which it would take for an answer)."""


@pytest.fixture
def watchdog():
    """Code that should return in milliseconds raises `Hung` after 10 s instead of hanging the run."""

    def stop(*_: object) -> None:
        raise Hung("did not return within 10 s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "patternProperties": {CATASTROPHIC: {"type": "integer"}}, "additionalProperties": False},
        {"type": "object", "patternProperties": {CATASTROPHIC: {"type": "integer"}}},
        {"type": "object", "patternProperties": {CATASTROPHIC: {"type": "integer"}}, "unevaluatedProperties": False},
        {
            "type": "object",
            "properties": {"inner": {"type": "object", "patternProperties": {"(x+x+)+y": {"type": "string"}}}},
        },
    ],
)
def test_a_key_a_catastrophic_pattern_cannot_be_searched_in_quickly_is_left_to_the_server(schema, watchdog):
    arguments = {"inner": {"x" * 30: 1}} if "inner" in schema.get("properties", {}) else {KEY: "s"}
    assert checked_arguments(schema, arguments) == (arguments, [])


def test_a_pattern_searched_quickly_is_checked_as_before(watchdog):
    schema = {"type": "object", "patternProperties": {"^x_": {"type": "integer"}}, "additionalProperties": False}
    lines = [problem.line() for problem in checked_arguments(schema, {"x_1": "many", "y" * 5000: 1})[1]]
    assert lines[1] == '- x_1: got "many", expected an integer'
    assert lines[0].startswith("- yyyy") and "unknown" in lines[0]


def test_a_property_named_like_a_value_keyword_is_still_looked_into(watchdog):
    """An `enum` list is not walked for patterns (10,000 values cost a walk of each); a property named
    `enum` or `default` is a schema, and its patterns count."""
    inner = {"type": "object", "patternProperties": {CATASTROPHIC: {"type": "integer"}}, "additionalProperties": False}
    schema = {"type": "object", "properties": {"enum": inner, "default": {"enum": list(range(10_000))}}}
    arguments = {"enum": {KEY: "s"}, "default": 3}
    assert checked_arguments(schema, arguments) == (arguments, [])
