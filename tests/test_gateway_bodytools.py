"""A tool list recognised by its bytes in the body: the same request as parsing the body whole."""

import json
import random

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.gateway import bodytools, toolset
from toolkit.gateway.bodytools import read_body, read_body_plainly
from toolkit.search.catalog import load_catalog

CATALOG = load_catalog()
TOOLS = [spec.to_openai() for spec in CATALOG.tools[:6]]
OTHER = [spec.to_openai() for spec in CATALOG.tools[6:9]]
MESSAGES = [{"role": "user", "content": "hello"}]


@pytest.fixture(autouse=True)
def empty_stores():
    toolset.clear()
    bodytools.clear()
    yield
    toolset.clear()
    bodytools.clear()


def same(body: bytes) -> tuple:
    """`read_body(body)` as it must be: what parsing the body whole gives, to the byte and type."""
    try:
        plain, plain_tools = read_body_plainly(body)
    except orjson.JSONDecodeError:
        with pytest.raises(orjson.JSONDecodeError):
            read_body(body)
        return None, None
    request, tools = read_body(body)
    assert type(request) is type(plain)
    assert orjson.dumps(request) == orjson.dumps(plain)  # keys in the same order, the same types
    assert list(request) == list(plain) if type(plain) is dict else True
    assert (tools is None) == (plain_tools is None)
    if tools is not None:
        assert tools.compact == plain_tools.compact and tools.problem == plain_tools.problem
    return request, tools


def test_a_list_met_before_is_not_parsed_again():
    body = json.dumps({"messages": MESSAGES, "model": "m", "tools": TOOLS}).encode()
    same(body)  # met once: nothing learned
    assert not bodytools._order
    first, _ = same(body)  # met again: its bytes are learned
    again, tools = same(
        json.dumps({"messages": [{"role": "user", "content": "bye"}], "model": "m", "tools": TOOLS}).encode()
    )
    second, _ = same(body)
    assert first["tools"] is not second["tools"]  # the first was parsed; the second is the list learned
    assert again["tools"] is second["tools"] and toolset.is_kept(tools)


def test_a_long_conversation_is_parsed_the_plain_way():
    """Past `_WORTH` times the list's bytes, looking for its place costs more than parsing it."""

    def body(history: int) -> bytes:
        said = [{"role": "user", "content": "订单 " + "x" * 100}] * history
        return json.dumps({"messages": [*said, *MESSAGES], "model": "m", "tools": TOOLS}).encode()

    for _ in range(2):
        same(body(0))  # learned
    raw = len(bodytools._order[-1].raw)
    short = next(n for n in range(100) if len(body(n + 1)) > bodytools._WORTH * raw)
    assert short > 0
    assert same(body(short))[0]["tools"] is bodytools._order[-1].value
    long, _ = same(body(short + 1))
    assert long["tools"] is not bodytools._order[-1].value and long["tools"] == TOOLS


@pytest.mark.parametrize(
    "dumps",
    [
        lambda v: json.dumps(v).encode(),
        lambda v: json.dumps(v, separators=(",", ":")).encode(),
        lambda v: json.dumps(v, ensure_ascii=False).encode(),
        lambda v: json.dumps(v, indent=2).encode(),
        lambda v: orjson.dumps(v),
    ],
)
def test_every_way_of_writing_is_learned_on_its_own(dumps):
    for _ in range(3):
        request, _ = same(dumps({"model": "m", "messages": MESSAGES, "tools": TOOLS, "stream": True}))
    assert request["tools"] is bodytools._order[-1].value


def _bodies(raw: bytes, other: bytes) -> list[bytes]:
    """Bodies that hold a known list's bytes where it is not the request's `tools`, or not alone."""
    messages = json.dumps(MESSAGES).encode()
    quoted = json.dumps('"tools": ' + raw.decode()).encode()
    return [
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw + b"}",
        b'{"model": "m", "messages": ' + messages + b', "metadata": {"tools": ' + raw + b'}, "tools": ' + other + b"}",
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + other + b', "metadata": {"tools": ' + raw + b"}}",
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw + b', "metadata": {"tools": ' + raw + b"}}",
        b'{"model": "m", "messages": ' + messages + b', "\\u0074ools": ' + other + b', "x": {"tools": ' + raw + b"}}",
        b'{"model": "m", "messages": ' + messages + b', "t\\u006Fols": ' + other + b', "x": {"tools": ' + raw + b"}}",
        b'{"model": "m", "tools": ' + raw + b', "messages": ' + messages + b', "tools": ' + other + b"}",
        b'{"model": "m", "tools": ' + other + b', "messages": ' + messages + b', "tools": ' + raw + b"}",
        b'{"model": "m", "tools": ' + raw + b', "messages": ' + messages + b', "tools": null}',
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw + b', "stream": tru}',
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw + b"",
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw + b"}}",
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw + b"] }",
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw + b', "foo": 1}',
        b'{"model": "m", "messages": ' + messages + b', "tools" : ' + raw + b"}",
        b'{"model": "m", "messages": ' + messages + b', "tools":\n\t ' + raw + b"}",
        b'{"model": "m", "messages": ' + messages + b', "x": ' + quoted + b"}",
        b'{"model": "m", "messages": ' + messages + b', "x": "' + raw + b'"}',
        b'{"model": "m", "messages": ' + messages + b', "x": "\\"tools\\": ' + raw + b'"}',
        b'[{"model": "m", "messages": ' + messages + b', "tools": ' + raw + b"}]",
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw + b"}\n",
        b'\xef\xbb\xbf{"model": "m", "messages": ' + messages + b', "tools": ' + raw + b"}",
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw + raw + b"}",
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw[:-1] + b", 1]}",
        b'{"model": "m", "messages": ' + messages + b', "tools": ' + raw[:-1] + b"}",
    ]


def _reordered(tools: list) -> list:
    """The same list with each function's keys in another order: equal in Python, not in bytes."""
    return [{"function": dict(reversed(list(t["function"].items()))), "type": t["type"]} for t in tools]


@pytest.mark.parametrize("write", [json.dumps, lambda v: json.dumps(v, separators=(",", ":"))])
def test_a_known_list_elsewhere_in_the_body_is_not_taken_for_the_tools(write):
    raw = write(TOOLS).encode()
    for other in (write(OTHER), write(_reordered(TOOLS)), "[]", "null", '"x"', "1"):
        same(b'{"model": "m", "messages": [], "tools": ' + raw + b"}")  # learned
        same(b'{"model": "m", "messages": [], "tools": ' + raw + b"}")
        for body in _bodies(raw, other.encode()):
            same(body)


def _naming(key: str) -> list:
    """A list that writes "tools" itself: as an `enum` value, in `required`, as the key `key`."""
    schema = {"type": "object", "properties": {key: {"type": "string", "enum": ["tools"]}}, "required": [key]}
    return [{"type": "function", "function": {"name": "pick", "description": "Pick tools", "parameters": schema}}]


@pytest.mark.parametrize("key", ["tools", "toolset"])
def test_a_list_that_writes_tools_itself_is_not_mistaken(key):
    raw = json.dumps(_naming(key)).encode()
    for _ in range(2):
        same(b'{"model": "m", "messages": [], "tools": ' + raw + b"}")
    request, _ = same(b'{"model": "m", "messages": [{"role": "user", "content": "x"}], "tools": ' + raw + b"}")
    assert request["tools"] is bodytools._order[-1].value  # recognised: the first `"tools":` is the request's
    for other in (json.dumps(OTHER).encode(), json.dumps(bodytools._PLACEHOLDER).encode()):
        for body in _bodies(raw, other):
            same(body)


def test_a_list_written_with_the_placeholder_is_no_trouble():
    raw = json.dumps(TOOLS).encode()
    for _ in range(2):
        same(b'{"model": "m", "messages": [], "tools": ' + raw + b"}")
    assert bodytools._order
    placeholder = json.dumps(bodytools._PLACEHOLDER).encode()
    for body in _bodies(raw, placeholder):
        same(body)


def test_lists_with_a_problem_short_lists_and_bad_bodies_are_read_plainly():
    bad = [{"type": "function", "function": {"name": "bad name", "description": "x" * 80}}]
    for tools in (bad, [], [{"type": "function", "function": {"name": "f"}}], TOOLS):
        for _ in range(3):
            same(json.dumps({"model": "m", "messages": MESSAGES, "tools": tools}).encode())
    assert [f.tools.compact for f in bodytools._order] == [toolset.prepare(TOOLS).compact]
    for body in (b"", b"{", b'"tools": []', b'{"tools": ', b'{"tools": []}', b"\xff", b"[1, 2]", b'{"tools": 1e999}'):
        same(body)


def test_a_list_sent_once_is_not_learned_and_the_count_of_lists_met_is_bounded(monkeypatch):
    monkeypatch.setattr(bodytools, "_COUNTED", 5)
    catalogue = [spec.to_openai() for spec in CATALOG.tools]
    for i in range(40):  # a new choice of tools in every request
        same(json.dumps({"model": "m", "messages": MESSAGES, "tools": catalogue[i : i + 3]}).encode())
    assert not bodytools._order and len(bodytools._met) == 5
    assert list(bodytools._met) == [toolset.prepare(catalogue[i : i + 3]).compact for i in range(35, 40)]


def test_tries_to_learn_a_list_are_bounded(monkeypatch):
    learned = []
    monkeypatch.setattr(bodytools, "_keep", learned.append)
    body = json.dumps({"model": "m", "messages": MESSAGES, "tools": TOOLS}).encode()
    for _ in range(10):
        same(body)
    assert len(learned) == bodytools._TRIES  # then the list is not looked for again


def test_the_forms_kept_are_bounded_in_number_and_bytes(monkeypatch):
    monkeypatch.setattr(bodytools, "MAX_FORMS", 3)
    catalogue = [spec.to_openai() for spec in CATALOG.tools]
    for i in range(6):
        tools = catalogue[i : i + 2]
        for _ in range(2):
            same(json.dumps({"model": "m", "messages": MESSAGES, "tools": tools}).encode())
    assert len(bodytools._order) == 3 and sum(len(forms) for forms in bodytools._forms.values()) == 3
    assert bodytools._form_bytes == sum(len(f.raw) for f in bodytools._order)
    monkeypatch.setattr(bodytools, "MAX_FORM_BYTES", 4 * len(bodytools._order[-1].raw))
    for _ in range(2):
        same(json.dumps({"model": "m", "messages": MESSAGES, "tools": catalogue[10:13]}).encode())
    assert bodytools._form_bytes <= bodytools.MAX_FORM_BYTES


_pieces = st.sampled_from(
    [
        b'"tools": ',
        b'"tools":',
        b'"metadata": {"tools": ',
        b'"model": "m", ',
        b'"messages": [{"role": "user", "content": "hi"}], ',
        b", ",
        b"}",
        b"{",
        b"]",
        b'"',
        b"null",
        b'"x": "\\"tools\\": ',
        b"RAW",
        b"OTHER",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_pieces, max_size=12), st.booleans())
def test_bodies_made_of_known_lists_and_pieces_read_as_parsed_whole(pieces, compact):
    write = (lambda v: json.dumps(v, separators=(",", ":"))) if compact else json.dumps
    raw, other = write(TOOLS).encode(), write(_reordered(TOOLS)).encode()
    for _ in range(2):  # learned from the second body that holds it
        same(b'{"model": "m", "messages": [], "tools": ' + raw + b"}")
    assert bodytools._order
    body = b"{" + b"".join(pieces).replace(b"RAW", raw).replace(b"OTHER", other)
    same(body)
    same(body + b"}")


def test_a_random_mix_of_lists_and_formats_reads_as_parsed_whole():
    rng = random.Random(7)
    writers = [json.dumps, lambda v: json.dumps(v, separators=(",", ":")), lambda v: orjson.dumps(v).decode()]
    lists = [TOOLS, OTHER, _reordered(TOOLS), TOOLS[:1], [CATALOG.tools[20].to_openai()]]
    for _ in range(300):
        write = rng.choice(writers)
        request = {"model": "m", "messages": MESSAGES, "tools": rng.choice(lists)}
        if rng.random() < 0.3:
            request["metadata"] = {"tools": rng.choice(lists)}
        items = list(request.items())
        rng.shuffle(items)
        same(write(dict(items)).encode())
