"""Replay finds a request's recording among those that may equal it (`_request_key`), not through
every recording: each request is compared with its own recording only, and which recording serves
which request is what the plain scan gives (the first unused recording equal to it)."""

import json
import random

import httpx
import pytest

from toolkit.chat.cassette import ReplayTransport
from toolkit.errors import CassetteMismatch


def _response(tag):
    body = {"id": tag, "choices": [{"index": 0, "message": {"role": "assistant", "content": tag}}]}
    return {"status": 200, "content_type": "application/json", "retry_after": None, "body": json.dumps(body)}


def _cassette(path, bodies):
    with path.open("w", encoding="utf-8") as out:
        for i, body in enumerate(bodies):
            request = {"method": "POST", "path": "/chat/completions", "body": body}
            out.write(json.dumps({"request": request, "response": _response(f"r{i}"), "elapsed_ms": 1}) + "\n")
    return path


def _served(transport, body):
    request = httpx.Request("POST", "http://x/v1/chat/completions", content=json.dumps(body).encode())
    return json.loads(transport.handle_request(request).read())["id"]


class _CountedRequest(dict):
    """A recorded request that counts the times replay compares it with a request."""

    compared = 0

    def __eq__(self, other):
        _CountedRequest.compared += 1
        return super().__eq__(other)

    __hash__ = None


class _CountedSet(set):
    """The used recordings, counting the times replay asks whether one is used."""

    asked = 0

    def __contains__(self, item):
        _CountedSet.asked += 1
        return super().__contains__(item)


@pytest.mark.parametrize("order", ["in order", "reversed", "shuffled"])
def test_each_request_is_compared_with_its_own_recording_only(tmp_path, order):
    """Replay looked for a request through every recording (10,000 exchanges: 6 s replayed in order,
    63 s in reverse, comparing each request with every recording before its own): now 2 s either way."""
    n = 400
    bodies = [{"model": "m", "messages": [{"role": "user", "content": f"question {i}"}]} for i in range(n)]
    transport = ReplayTransport(_cassette(tmp_path / "c.jsonl", bodies))
    for exchange in transport.exchanges:
        exchange["request"] = _CountedRequest(exchange["request"])
    asked = list(range(n))
    if order == "reversed":
        asked.reverse()
    elif order == "shuffled":
        random.Random(7).shuffle(asked)
    transport._used = _CountedSet(transport._used)
    _CountedRequest.compared = _CountedSet.asked = 0
    assert [_served(transport, bodies[i]) for i in asked] == [f"r{i}" for i in asked]
    assert _CountedRequest.compared == n and _CountedSet.asked <= n
    assert transport.remaining == 0


def _plain_replay(bodies, asked):
    """The plain scan: each request served by the first unused recording equal to it."""
    used, served = set(), []
    for body in asked:
        index = next((i for i, b in enumerate(bodies) if i not in used and b == body), None)
        if index is None:
            served.append("mismatch")
            continue
        used.add(index)
        served.append(f"r{index}")
    return served


def _deep(value, levels):
    for _ in range(levels):
        value = {"a": [value]}
    return value


@pytest.mark.parametrize("seed", range(6))
def test_the_recording_served_is_the_plain_scans(tmp_path, seed):
    """Equal requests recorded several times, numbers that are equal across types (`1`, `1.0`, `true`),
    keys in another order, bodies deeper than the key reads, and requests nobody recorded."""
    rng = random.Random(seed)
    values = [1, 1.0, True, 0, False, "1", None, [1], [1.0], {"x": 1}, {"x": True}]
    pool = [
        {"model": "m", "n": rng.choice(values), "messages": [{"role": "user", "content": rng.choice("ab")}]}
        for _ in range(12)
    ]
    pool += [_deep(rng.choice(values), 34) for _ in range(3)]
    pool += [{"z": 1, "a": 2}, {"a": 2, "z": 1}, "not json", None]
    bodies = [rng.choice(pool) for _ in range(40)]
    asked = [rng.choice(pool) for _ in range(45)]
    transport = ReplayTransport(_cassette(tmp_path / "c.jsonl", [b for b in bodies if b is not None]))
    bodies = [b for b in bodies if b is not None]
    served = []
    for body in asked:
        try:
            if body is None or isinstance(body, str):
                content = b"" if body is None else body.encode()
                request = httpx.Request("POST", "http://x/v1/chat/completions", content=content)
                served.append(json.loads(transport.handle_request(request).read())["id"])
            else:
                served.append(_served(transport, body))
        except CassetteMismatch:
            served.append("mismatch")
    assert served == _plain_replay(bodies, asked)


def test_the_nearest_recording_is_found_by_lines_not_characters(monkeypatch, tmp_path):
    """A request no recording matches is answered with the nearest recording's diff; the nearest was
    found by comparing whole bodies character by character (difflib: seconds for long conversations,
    quadratic in a body's length). It is found by lines, as the diff shows them, then by the
    characters of the differing lines only (at most `_NEAR_CHARS`): never whole texts."""
    import difflib

    from toolkit.chat import cassette

    texts: list[int] = []
    line_lists = 0
    real = difflib.SequenceMatcher

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, isjunk=None, a="", b="", autojunk=True):
            nonlocal line_lists
            if isinstance(a, str):
                texts.extend([len(a), len(b)])
            else:
                line_lists += 1
            super().__init__(isjunk, a, b, autojunk)

    history = [{"role": "user", "content": f"earlier message {i} about an order"} for i in range(300)]
    bodies = [{"messages": [*history, {"role": "user", "content": f"question {i}"}]} for i in range(3)]
    transport = ReplayTransport(_cassette(tmp_path / "c.jsonl", bodies))
    monkeypatch.setattr(cassette.difflib, "SequenceMatcher", Counting)
    with pytest.raises(CassetteMismatch) as caught:
        _served(transport, {"messages": [*history, {"role": "user", "content": "question 1!"}]})
    assert line_lists >= 3 and texts and max(texts) <= cassette._NEAR_CHARS < len(json.dumps(history))
    assert '-    "content": "question 1",' in str(caught.value)  # the nearest: question 1, not 0 or 2
    assert '+    "content": "question 1!",' in str(caught.value)


def test_the_nearest_of_long_conversations_is_found_without_comparing_every_line_with_its_repeats(
    monkeypatch, tmp_path
):
    """The lines of a long conversation repeat (`{`, `"role": "user"` in every message): compared
    with every repeat of themselves (difflib with autojunk off), 100 recordings of 100 messages took
    27 s to answer one request nobody recorded. Counted here: the line pairs difflib looks at."""
    from toolkit.chat import cassette

    looked_at: list[tuple[int, int]] = []
    real = cassette.difflib.SequenceMatcher

    class Counting(real):  # type: ignore[misc, valid-type]
        def get_opcodes(self):
            lines = len(self.a) + len(self.b)
            looked_at.append((sum(len(self.b2j.get(line, ())) for line in self.a), lines))
            return super().get_opcodes()

    def conversation(who: str) -> dict:
        roles = ("user", "assistant")
        return {"messages": [{"role": roles[i % 2], "content": f"message {i} from {who}"} for i in range(100)]}

    transport = ReplayTransport(_cassette(tmp_path / "c.jsonl", [conversation(f"learner {n}") for n in range(5)]))
    monkeypatch.setattr(cassette.difflib, "SequenceMatcher", Counting)
    with pytest.raises(CassetteMismatch):
        _served(transport, conversation("a stranger"))
    assert len(looked_at) >= 5  # one per recording, and the diff shown
    assert all(pairs <= lines for pairs, lines in looked_at)
