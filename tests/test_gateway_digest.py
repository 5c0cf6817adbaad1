"""The request's hash, going on from its prepared tool list's state, is the hash of the request written whole."""

import hashlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.gateway import toolset
from toolkit.gateway.core import MODES
from toolkit.gateway.digest import plain_digest, request_digest
from toolkit.gateway.toolset import ToolSet, prepare


@pytest.fixture(autouse=True)
def empty_store():
    toolset.clear()
    yield
    toolset.clear()


def _listed(prepared: ToolSet | None) -> Any:
    """What the server hands `request_digest`: the prepared list's hash state."""
    return prepared.digest_state if prepared is not None else None


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=12,
)
keys = st.sampled_from(["model", "messages", "stream", "n", "stop", "user", "metadata", "\x00", "tools\x00", "é"])


@settings(max_examples=400, deadline=None)
@given(
    fields=st.lists(st.tuples(keys, json_values), max_size=5),
    tools=st.lists(json_values, max_size=4),
    at=st.integers(0, 5),
    mode=st.sampled_from(MODES),
)
def test_the_hash_around_the_list_is_the_hash_of_the_whole_request(fields, tools, at, mode):
    pairs = [(k, v) for k, v in fields if k != "tools"]
    said = dict([*pairs[:at], ("tools", tools), *pairs[at:]])
    prepared = prepare(tools)
    assert request_digest(mode, said, _listed(prepared)) == plain_digest(mode, said)


def test_every_way_round_the_hash_is_the_same():
    tools = [{"type": "function", "function": {"name": "f", "description": '天气 \u0000 "x"'}}]
    said = {"model": "m", "tools": tools, "messages": [{"role": "user", "content": "hi"}]}
    prepared = prepare(tools)
    assert request_digest("A", said, _listed(prepared)) == plain_digest("A", said)
    assert request_digest("E", said, _listed(prepared)) == plain_digest("E", said) != plain_digest("A", said)
    other = {"model": "n", "tools": tools, "messages": said["messages"]}
    assert request_digest("A", other, _listed(prepared)) == plain_digest("A", other) != plain_digest("A", said)
    assert request_digest("A", said, None) == plain_digest("A", said)
    moved = {"tools": tools, "model": "m", "messages": said["messages"]}  # the list's place is hashed
    assert request_digest("A", moved, _listed(prepared)) == plain_digest("A", moved) != plain_digest("A", said)


def test_the_hash_is_the_list_then_the_mode_and_the_rest():
    said = {"model": "m", "tools": [{"a": "天"}], "n": 1}
    whole = '[{"a":"天"}]\x00A{"model":"m","tools":null,"n":1}'.encode()
    assert plain_digest("A", said) == hashlib.sha256(whole).hexdigest()
    assert request_digest("A", said, _listed(prepare(said["tools"]))) == plain_digest("A", said)
    without = {"model": "m", "n": 1}
    assert plain_digest("A", without) == hashlib.sha256(b'A{"model":"m","n":1}').hexdigest()
    assert plain_digest("A", {**without, "tools": None}) != plain_digest("A", without)


def _nested(depth: int) -> list:
    value: list = [1e-7]  # written `1e-7` by orjson, `1e-07` by the standard library
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [250, 252, 253, 254, 255, 256])
def test_a_list_nested_as_deep_as_orjson_goes_is_hashed_as_the_whole_request(depth):
    tools = _nested(depth)
    said = {"model": "m", "tools": tools}
    assert request_digest("A", said, _listed(prepare(tools))) == plain_digest("A", said)


class _Odd:
    def __str__(self) -> str:
        return "a"


def _tool(description: object) -> dict:
    return {"type": "function", "function": {"name": "f", "description": description}}


def test_values_orjson_refuses_are_hashed_the_plain_way():
    huge = {"tools": [1], "n": 2**70}
    assert request_digest("A", huge, _listed(prepare([1]))) == plain_digest("A", huge)
    spliced = prepare([_tool("a")])  # kept: the same bytes as the odd list's `dumps` below
    assert spliced is not None and spliced.spliceable and spliced.problem is None
    odd = prepare([_tool(_Odd())])
    assert odd is not spliced and odd is not None and not odd.spliceable
    said = {"tools": [_tool(_Odd())], "x": 1e-7}  # written whole by the standard library: `1e-07`
    assert request_digest("A", said, _listed(odd)) == plain_digest("A", said)
