"""`Balance` answers as `whole_object` of the joined fragments, after every fragment, however
the text is cut: strings holding braces and quotes, escapes cut from what they escape, texts
that are not objects, braces closed too often, white space, and garbage after a whole object."""

import json
import random

from toolkit.chat.balance import Balance, whole_object
from toolkit.chat.sse import StreamAssembler

KEY_ENDS = ["", "}", "{", '"']
PIECES = ["{", "}", '"', "\\", '\\"', "\\\\", "\\u00e9", ":", ",", "[", "]", " ", "\n", "a", "1", "é", "null"]


def an_object(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return rng.choice(["", "}{", '"', "\\", 'a"}b', "{\\}", "订单", "\u2028"])
    if kind == 1:
        return rng.choice([0, -1.5, True, None])
    if kind == 2:
        return "".join(rng.choice(PIECES) for _ in range(rng.randrange(6)))
    if kind == 3:
        return [an_object(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {f"k{i}" + rng.choice(KEY_ENDS): an_object(rng, depth + 1) for i in range(rng.randrange(3))}


def a_text(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:  # any mess of the characters that matter
        return "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 30)))
    text = json.dumps({"a": an_object(rng), "b": an_object(rng)}, ensure_ascii=rng.random() < 0.5)
    if kind == 1:
        return text + rng.choice(["}", " ", "{}", "x", "\n\t", '"'])  # something after a whole object
    if kind == 2:
        return rng.choice([" ", "x", "}", "[", '"']) + text
    if kind == 3:
        return json.dumps([an_object(rng)])
    return text


def cut(rng: random.Random, text: str) -> list[str]:
    cuts = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randrange(1, 12))))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


def test_balance_answers_as_the_joined_text_parsed_after_every_fragment():
    for seed in range(300):  # one test, many cases (a test each cost more to collect than to run)
        rng = random.Random(seed)
        pieces = cut(rng, a_text(rng))
        fragments: list[str] = []
        balance = Balance()
        for n, piece in enumerate(pieces, 1):
            fragments.append(piece)
            if n == len(pieces) or rng.random() < 0.7:  # not asked after every fragment: it reads what it missed
                assert balance.whole(fragments) == whole_object("".join(fragments)), fragments


def test_an_escape_cut_from_what_it_escapes():
    balance, fragments = Balance(), []
    for piece in ['{"a": "x\\', '"', "}", '"}']:
        fragments.append(piece)
        assert balance.whole(fragments) == whole_object("".join(fragments))
    assert balance.whole(fragments) is True


def test_a_balanced_text_that_is_not_an_object_is_not_parsed_again(monkeypatch):
    balance, fragments = Balance(), ['{"a" 1}']
    assert balance.whole(fragments) is False
    parsed = []
    monkeypatch.setattr("toolkit.chat.balance.whole_object", lambda text: parsed.append(text) or False)
    fragments += [' {"b": 2}']
    assert balance.whole(fragments) is False and parsed == []


def test_arguments_in_many_fragments_each_with_a_fresh_id_make_one_call(monkeypatch):
    """A proxy that sends a fresh id with each fragment of unfinished arguments: one call, and
    its arguments are parsed only when their braces close (not once per fragment)."""
    arguments = json.dumps({"text": "x}{" * 2000, "n": {"m": 1}})
    parsed = []
    real = whole_object
    monkeypatch.setattr("toolkit.chat.balance.whole_object", lambda text: parsed.append(1) or real(text))
    stream = StreamAssembler()
    for i in range(0, len(arguments), 7):
        delta = {"index": 0, "id": f"c{i}", "function": {"arguments": arguments[i : i + 7]}}
        if i == 0:
            delta["function"]["name"] = "f"
        stream.feed_chunk({"choices": [{"index": 0, "delta": {"tool_calls": [delta]}}]})
    stream.done = True
    (only,) = stream.finish().message.tool_calls
    assert json.loads(only.arguments) == json.loads(arguments)
    assert len(parsed) <= 1


def test_whole_arguments_are_parsed_once_however_many_deltas_follow_them(monkeypatch):
    """A gateway that restates the call (its id and name, `arguments: ""`) on every delta after the
    arguments are whole: each delta joined and parsed all of them again (8,000 deltas after 20 KB
    of arguments: 8,001 parses, 1.2 s; quadratic). Blank fragments change nothing: parsed once."""
    arguments = json.dumps({"text": "x" * 20_000})
    parsed = []
    real = whole_object
    monkeypatch.setattr("toolkit.chat.balance.whole_object", lambda text: parsed.append(1) or real(text))
    stream = StreamAssembler()
    for fragment in [arguments] + ["", " ", "\n"] * 1000:
        delta = {"index": 0, "id": "c1", "function": {"name": "f", "arguments": fragment}}
        stream.feed_chunk({"choices": [{"index": 0, "delta": {"tool_calls": [delta]}}]})
    stream.done = True
    (only,) = stream.finish().message.tool_calls
    assert json.loads(only.arguments) == json.loads(arguments)
    assert len(parsed) == 1
    balance, fragments = Balance(), ['{"a": 1}']
    assert balance.whole(fragments) is True
    fragments += [" ", "x"]  # something after the object: parsed again, and no object
    assert balance.whole(fragments) is False
