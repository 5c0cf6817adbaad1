"""`toolkit.loop.same_call`: the quick key makes the same calls the same as the plain definition."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.chat.messages import ToolCall
from toolkit.loop.same_call import same_call_key, same_call_key_plainly

EDGES = [
    '{"a":1,"b":2}',
    '{"b":2,"a":1}',
    '{ "a" : 1 , "b" : 2 }',
    '{"a":1,"a":2}',  # duplicate keys: the last one counts, in both readings
    '{"a":2}',
    '{"a":1.0,"b":2}',  # 1.0 is not 1
    '{"a":"1","b":2}',
    "[1e16, -0.0, 0.1]",
    "[1E16, -0.0, 1e-1]",
    "[10000000000000000.0, 0.0, 0.1]",
    "[1e16, 0.0, 0.1]",
    "18446744073709551615",  # the largest integer orjson reads as one
    "18446744073709551616",  # orjson reads it as a float: the plain way
    "1.8446744073709552e19",
    "18446744073709551616.0",
    "-9223372036854775808",
    "-9223372036854775809",
    "-9.223372036854776e18",
    '{"n": 123456789012345678901234567890}',
    '{"n": 1.2345678901234568e29}',
    '{"x": 1e300, "s": "1234567890123456789"}',
    '{"s": "\\u0031234567890123456789", "x": 1e300}',  # the same value, no run of digits in the text
    "NaN",
    "[NaN]",
    "[null]",
    "Infinity",
    "1e400",
    '"\\ud800"',
    '"\\u00e9"',
    '"é"',
    '{"é":1,"e":2}',
    '{"e":2,"\\u00e9":1}',
    '"\\u0000"',
    "",
    "   ",
    "{}",
    "{ }",
    "not json",
    "{'a': 1}",
    "[" * 300 + "]" * 300,  # orjson reads it but will not write it
    "[" * 1100 + "]" * 1100,  # too deep for orjson to read; json reads it or stops
    "[" * 5000 + "]" * 5000,  # too deep for json too: the text stands for itself
    '{"a":[1,{"d":2,"c":3}],"b":true}',
    '{"b":true,"a":[1,{"c":3,"d":2}]}',
    '{"b":true,"a":[1,{"c":3,"d":2.0}]}',
]


def same_relation(texts: list[str]) -> None:
    calls = [ToolCall(id=f"c{i}", name="t", arguments=text) for i, text in enumerate(texts)]
    quick = [same_call_key(c) for c in calls]
    plain = [same_call_key_plainly(c) for c in calls]
    for i in range(len(calls)):
        for j in range(len(calls)):
            assert (quick[i] == quick[j]) == (plain[i] == plain[j]), (texts[i], texts[j])


def test_the_edges_are_the_same_calls_both_ways():
    same_relation(EDGES)


def test_the_name_counts():
    assert same_call_key(ToolCall(id="a", name="x", arguments="{}")) != same_call_key(
        ToolCall(id="b", name="y", arguments="{}")
    )


def test_a_repeated_call_written_in_another_key_order_is_the_same_call():
    first = ToolCall(id="a", name="book", arguments='{"room": 12, "guests": ["Li", "Wang"]}')
    again = ToolCall(id="b", name="book", arguments='{ "guests": ["Li", "Wang"], "room": 12 }')
    assert same_call_key(first) == same_call_key(again)
    assert same_call_key(first) != same_call_key(ToolCall(id="c", name="book", arguments='{"room": 12.0}'))


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=4),
    max_leaves=12,
)


def _written(value: object, rng: random.Random) -> str:
    """`value` as JSON text, its keys shuffled, numbers and strings written one of several ways."""
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return "{" + ", ".join(f"{_written(k, rng)}:{_written(v, rng)}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_written(v, rng) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=rng.random() < 0.5)
    if isinstance(value, float) and rng.random() < 0.3 and value == value and abs(value) != float("inf"):
        return f"{value:e}" if rng.random() < 0.5 else repr(value)
    return json.dumps(value)


@settings(max_examples=300, deadline=None)
@given(st.lists(JSON, min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_generated_arguments_are_the_same_calls_both_ways(values, rng):
    texts = [_written(v, rng) for v in values for _ in range(2)]  # each value twice, written differently
    texts += [t[:-1] for t in texts[:2]]  # cut short: not JSON
    same_relation(texts)
