"""A dict whose keys are the same once written as JSON text (`{1: "a", "1": "b"}`) keeps every
entry (`toolkit.tools.result_text.to_text`): JSON keys are strings, and converting the dict to
one with str keys first kept only the last value, silently. Each entry is written, in order, as
`json.dumps` (LangChain) and pydantic's `to_json` (pydantic-ai) write it: the key twice."""

import dataclasses
import decimal
import enum
import json

import pydantic
import pydantic_core
import pytest

from toolkit.tools.result_text import call_text, to_text


@dataclasses.dataclass
class Counts:
    by_id: dict[object, str]


class Report(pydantic.BaseModel):
    by_id: dict[int | str, str]


@pytest.mark.parametrize(
    "value, text",
    [
        ({1: "a", "1": "b"}, '{"1": "a", "1": "b"}'),
        ({True: "yes", "true": "t"}, '{"true": "yes", "true": "t"}'),
        ({1: "a", "1": {2: "x", "2": "y"}}, '{"1": "a", "1": {"2": "x", "2": "y"}}'),
        ([{1: "a", "1": "b"}, {"k": 1}], '[{"1": "a", "1": "b"}, {"k": 1}]'),
        ({"rows": {1: decimal.Decimal("2.50"), "1": {3}}}, '{"rows": {"1": 2.50, "1": [3]}}'),
        (Counts({1: "a", "1": "b"}), '{"by_id": {"1": "a", "1": "b"}}'),
        (Report(by_id={1: "a", "1": "b"}), '{"by_id": {"1": "a", "1": "b"}}'),
        ({1: "名", "1": float("nan")}, '{"1": "名", "1": "NaN"}'),
    ],
    ids=["int-and-str", "bool-and-str", "nested", "in-a-list", "decimal-and-set", "dataclass", "model", "unicode-nan"],
)
def test_keys_that_write_alike_keep_every_entry(value, text):
    assert to_text(value) == text
    assert call_text(value) == text


def test_the_text_is_what_the_peers_write():
    value = {1: "a", "1": "b", 2: "c"}
    assert to_text(value) == json.dumps(value, ensure_ascii=False)
    assert json.loads(to_text(value), object_pairs_hook=list) == json.loads(
        pydantic_core.to_json(value), object_pairs_hook=list
    )


@pytest.mark.parametrize(
    "value, text",
    [({1: "a", 2: "b"}, '{"1": "a", "2": "b"}'), ({1: "a", "x": "b"}, '{"1": "a", "x": "b"}')],
    ids=["int-keys", "mixed-distinct"],
)
def test_keys_that_differ_as_text_are_written_once(value, text):
    assert to_text(value) == text


class _Label(str):
    """A str of one's own: written as it is, as a plain str."""


class _Level(enum.IntEnum):
    HIGH = 3


@pytest.mark.parametrize(
    "value, text",
    [
        (None, "Success"),
        ("as is", "as is"),
        (_Label("mine"), "mine"),
        (7, "7"),
        (True, "true"),
        (2.5, "2.5"),
        (float("nan"), '"NaN"'),
        (b"ok", "ok"),
        (bytearray(b"\xff\xfe"), "<binary data, 2 bytes>"),
        (_Level.HIGH, "3"),
        ({"n": 1}, '{"n": 1}'),
    ],
)
def test_a_scalar_is_written_alike_whether_the_call_wrote_it_or_not(value, text):
    """`call_text` skips marking the call for a value that holds no iterator (a str, number,
    bool, None): its text is `to_text`'s, and the exact-type tests come before the others."""
    assert to_text(value) == text
    assert call_text(value) == text
