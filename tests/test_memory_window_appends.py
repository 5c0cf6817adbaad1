"""Appending in a window without reading the whole conversation (`front_drop`, each store's
`append_in_window`): the same messages and the same errors as the read-evict-write path, for
random conversations, windows and batches; the fast path taken in the steady state; what a
store knows of a conversation forgotten when anything else writes it.

`WINDOW_APPEND_SEEDS=3000` runs the broad equivalence check (default: a few hundred)."""

from __future__ import annotations

import os
import random
import sqlite3
from pathlib import Path

import pytest

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ConfigurationError, MemoryStoreError
from toolkit.memory.answers import asks_for
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import (
    ChatMemory,
    InMemoryStore,
    Joined,
    MessageWindow,
    TokenWindow,
    evict,
    front_drop,
    message_tokens,
)

SEEDS = int(os.environ.get("WINDOW_APPEND_SEEDS", "0")) or None


def _batch(rng: random.Random, counter: list[int]) -> list:
    """One `add` of a random kind: a question, a tool round (some results missing, ids reused
    across rounds), an answer, a system message, an orphan result, images for tool results (with
    their round, or later)."""
    roll = rng.random()
    out: list = []
    if roll < 0.3:
        out.append(UserMessage(content="u" * rng.randint(1, 60)))
    elif roll < 0.6:
        calls = []
        for _ in range(rng.randint(1, 3)):
            counter[0] += 1
            calls.append(ToolCall(id=f"c{counter[0] % rng.choice([3, 1000])}", name="f", arguments="{}"))
        out.append(AssistantMessage(tool_calls=tuple(calls)))
        out += [
            ToolResultMessage(tool_call_id=c.id, tool_name="f", content="r" * rng.randint(1, 40))
            for c in calls
            if rng.random() < 0.9
        ]
        if rng.random() < 0.1:
            out.append(UserMessage(content="images", from_tool_calls=tuple(c.id for c in calls)))
    elif roll < 0.85:
        out.append(AssistantMessage(content="a" * rng.randint(1, 80)))
    elif roll < 0.9:
        out.append(SystemMessage(content="s" * rng.randint(1, 30)))
    elif roll < 0.95:
        out.append(ToolResultMessage(tool_call_id=f"c{rng.randint(0, 5)}", tool_name="f", content="orphan"))
    else:  # images for a call made long ago (or never): a user message, valid alone
        out.append(UserMessage(content="late images", from_tool_calls=(f"c{rng.randint(0, 5)}",)))
    if rng.random() < 0.2:
        out = out[: rng.randint(0, len(out))]
    return out


def _lockstep(seed: int, make_store, reread=None) -> tuple[int, int]:
    """Add the same random batches through the fast path and through `update` (a store whose
    `append_in_window` is switched off): same error text, same messages after every add.
    `reread()`, when given, reads the fast store's conversation through a new connection: what
    the store keeps of it must be what the file holds. Returns (adds, adds the fast path left
    to `update`)."""
    rng = random.Random(seed)
    windows = [
        MessageWindow(rng.randint(4, 14)) if rng.random() < 0.5 else TokenWindow(rng.randint(5, 200)) for _ in range(2)
    ]
    fast_store, slow_store = make_store("fast"), make_store("slow")
    slow_store.append_in_window = None  # ChatMemory then reads, evicts and writes back
    updates = [0]
    update = fast_store.update

    def counted(*args, **kwargs):
        updates[0] += 1
        return update(*args, **kwargs)

    fast_store.update = counted
    pairs = [
        (ChatMemory("m", store=fast_store, window=w), ChatMemory("m", store=slow_store, window=w)) for w in windows
    ]
    counter, adds = [0], 0
    for step in range(rng.randint(1, 40)):
        batch = _batch(rng, counter)
        errors = []
        window = windows[0] if rng.random() < 0.6 else windows[1]  # another window on the same id, now and then
        fast, slow = pairs[windows.index(window)]
        for memory in (fast, slow):
            try:
                memory.add(*batch)
                errors.append(None)
            except ConfigurationError as exc:
                errors.append(str(exc))
        assert errors[0] == errors[1], (seed, step)
        assert fast.messages() == slow.messages(), (seed, step, window)
        if reread is not None:
            assert fast.messages() == reread(), (seed, step)
        adds += 1
    return adds, updates[0]


def test_in_memory_appends_equal_the_evict_path():
    adds = slow = 0
    for seed in range(SEEDS or 400):
        a, s = _lockstep(seed, lambda _: InMemoryStore())
        adds, slow = adds + a, slow + s
    assert slow < adds / 3  # the fast path decides most adds, even on these adversarial batches


def test_sqlite_appends_equal_the_evict_path(memory_dir: Path):
    tmp_path = memory_dir
    adds = slow = 0
    for seed in range((SEEDS or 400) // 4):
        a, s = _lockstep(
            seed,
            lambda tag, seed=seed: SqliteStore(tmp_path / f"{tag}{seed}.db"),
            lambda seed=seed: SqliteStore(tmp_path / f"fast{seed}.db").get("m"),
        )
        adds, slow = adds + a, slow + s
    assert slow < adds / 3


def _conversation(rounds: int) -> list:
    out: list = []
    for k in range(rounds):
        call = ToolCall(id=f"call_{k}", name="query_order", arguments='{"orderId": "SN1"}')
        out += [
            UserMessage(content=f"where is my order {k}?"),
            AssistantMessage(tool_calls=(call,)),
            ToolResultMessage(tool_call_id=call.id, tool_name="query_order", content="shipped"),
            AssistantMessage(content="It has shipped."),
        ]
    return out


def _stores(tmp_path: Path):
    return [InMemoryStore(), SqliteStore(tmp_path / "m.db")]


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
@pytest.mark.parametrize("window_kind", ["messages", "tokens"])
def test_a_full_window_evicts_without_reading_the_conversation(tmp_path: Path, kind: str, window_kind: str):
    store = InMemoryStore() if kind == "memory" else SqliteStore(tmp_path / "m.db")
    history = [SystemMessage(content="Be brief."), *_conversation(250)]
    window = (
        MessageWindow(len(history)) if window_kind == "messages" else TokenWindow(sum(map(message_tokens, history)))
    )
    memory = ChatMemory("u1", store=store, window=window)
    memory.set(history)
    expected = list(history)
    loads, updates = [0], [0]
    store.update = lambda *a, **k: updates.__setitem__(0, updates[0] + 1)  # must not be called
    if kind == "sqlite":
        load = store._load

        def counted(*args):
            loads[0] += 1
            return load(*args)

        store._load = counted
    for i in range(20):
        message = UserMessage(content=f"and order {i}?") if i % 2 == 0 else AssistantMessage(content=f"answer {i}")
        memory.add(message)
        expected = evict([*expected, message], window)
    assert updates[0] == 0
    if kind == "sqlite":  # the first add counts the tokens once; then a few rows per add
        assert loads[0] - (len(history) if window_kind == "tokens" else 0) < 20 * 12
    assert memory.messages() == expected
    assert expected[0] == SystemMessage(content="Be brief.") and len(expected) < len(history) + 20


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
@pytest.mark.parametrize("window_kind", ["messages", "tokens"])
def test_a_round_over_the_window_is_appended_without_rewriting_the_turn(tmp_path: Path, kind: str, window_kind: str):
    """A round of 10 calls, its first result large (a 10 MB tool result), in a window it overflows: `evict`
    keeps the current turn whole, but the fast path could not say so, and `update` read, encoded and wrote
    the whole turn again for each further result (SqliteStore: ~1 s an append with 10 MB). Now appended
    alone, each message encoded once."""
    from toolkit.memory import store as store_module

    store = InMemoryStore() if kind == "memory" else SqliteStore(tmp_path / "m.db")
    window = MessageWindow(4) if window_kind == "messages" else TokenWindow(40)
    memory = ChatMemory("u1", store=store, window=window)
    calls = tuple(ToolCall(id=f"c{i}", name="f", arguments="{}") for i in range(10))
    expected = [UserMessage(content="q"), AssistantMessage(tool_calls=calls)]
    memory.add(*expected)
    memory.messages()  # as the loop reads memory before each request
    updates, encoded = [0], []
    update, encode = store.update, store_module._encode
    store.update = lambda *a, **k: (updates.__setitem__(0, updates[0] + 1), update(*a, **k))[1]
    store_module._encode = lambda m, *a: (encoded.append(m), encode(m, *a))[1]
    try:
        for i, call in enumerate(calls):
            message = ToolResultMessage(tool_call_id=call.id, tool_name="f", content="r" * (5000 if i == 0 else 5))
            memory.add(message)
            expected = evict([*expected, message], window)
    finally:
        store_module._encode = encode
    assert updates[0] == 0
    assert len(encoded) == (10 if kind == "sqlite" else 0)
    assert memory.messages() == expected and len(expected) == 12


@pytest.mark.parametrize("window_kind", ["messages", "tokens"])
def test_appends_without_a_read_between_read_each_kept_row_once(tmp_path: Path, window_kind: str):
    """A program adding message after message without reading memory: each SqliteStore append in a full
    window read the rows it looks at again (the window's front, the current turn back to the question),
    so a 10 MB result in the turn was parsed and verified again on every append (0.25 s each). Read once."""
    store = SqliteStore(tmp_path / "m.db")
    window = MessageWindow(4) if window_kind == "messages" else TokenWindow(40)
    memory = ChatMemory("u1", store=store, window=window)
    calls = tuple(ToolCall(id=f"c{i}", name="f", arguments="{}") for i in range(10))
    expected = [UserMessage(content="q"), AssistantMessage(tool_calls=calls)]
    memory.add(*expected)
    loaded, load = [], store._load
    store._load = lambda *args: (loaded.append(args[2]), load(*args))[1]
    for i, call in enumerate(calls):
        message = ToolResultMessage(tool_call_id=call.id, tool_name="f", content="r" * (5000 if i == 0 else 5))
        memory.add(message)
        expected = evict([*expected, message], window)
    assert sorted(loaded) == sorted(set(loaded))  # no row read twice
    assert memory.messages() == expected


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_any_other_write_is_seen_by_the_next_windowed_add(tmp_path: Path, kind: str):
    store = InMemoryStore() if kind == "memory" else SqliteStore(tmp_path / "m.db")
    window = TokenWindow(200)
    memory = ChatMemory("u1", store=store, window=window)
    memory.add(*_conversation(2))
    heavy = [UserMessage(content="word " * 150), AssistantMessage(content="ok")]
    store.set("u1", heavy)  # behind the memory's back: the running total is stale now
    memory.add(UserMessage(content="next"))
    assert memory.messages() == evict([*heavy, UserMessage(content="next")], window)
    store.append("u1", [AssistantMessage(content="word " * 100)])
    memory.add(UserMessage(content="again"))
    assert memory.messages() == evict(
        [
            *evict([*heavy, UserMessage(content="next")], window),
            AssistantMessage(content="word " * 100),
            UserMessage(content="again"),
        ],
        window,
    )
    store.delete("u1")
    memory.add(UserMessage(content="fresh"))
    assert memory.messages() == [UserMessage(content="fresh")]


def test_another_connection_writing_is_seen_by_the_next_windowed_add(tmp_path: Path):
    path = tmp_path / "shared.db"
    mine, theirs = SqliteStore(path), SqliteStore(path)
    window = TokenWindow(150)
    memory = ChatMemory("u1", store=mine, window=window)
    memory.add(*_conversation(2))
    theirs.append("u1", [UserMessage(content="word " * 120)])  # another process, in effect
    memory.add(AssistantMessage(content="seen"))
    assert memory.messages() == evict(
        [*_conversation(2), UserMessage(content="word " * 120), AssistantMessage(content="seen")], window
    )
    assert mine.get("u1") == theirs.get("u1")


def test_a_second_result_for_a_call_that_leaves_leaves_with_it_on_both_paths(tmp_path: Path):
    """The store refuses to read back a result whose call is gone; the fast path must not write one.
    It leaves with its call (`evict`), on both paths: this add was refused, and every add after it."""
    call = ToolCall(id="c1", name="f", arguments="{}")
    late = ToolResultMessage(tool_call_id="c1", tool_name="f", content="late")
    history = [
        UserMessage(content="q"),
        AssistantMessage(tool_calls=(call,)),
        ToolResultMessage(tool_call_id="c1", tool_name="f", content="r"),
        UserMessage(content="q2"),
        late,
    ]
    for in_window in (True, False):
        store = SqliteStore(tmp_path / f"{in_window}.db")
        if not in_window:
            store.append_in_window = None
        memory = ChatMemory("u1", store=store, window=MessageWindow(4))
        memory.set(history)
        assert store.get("u1") == [UserMessage(content="q2")]  # the first turn left, the late result with its call
        memory.add(AssistantMessage(content="a"))
        assert store.get("u1") == [UserMessage(content="q2"), AssistantMessage(content="a")]
        assert SqliteStore(tmp_path / f"{in_window}.db").get("u1") == store.get("u1")  # readable


def test_a_call_asked_again_later_keeps_its_later_results(tmp_path: Path):
    """Call ids repeat across turns (a counter per turn); a later turn's result answers the later call."""
    history = _conversation(1) + [
        UserMessage(content="again"),
        AssistantMessage(tool_calls=(ToolCall(id="call_0", name="query_order", arguments="{}"),)),
        ToolResultMessage(tool_call_id="call_0", tool_name="query_order", content="delivered"),
        AssistantMessage(content="Delivered."),
    ]
    store = SqliteStore(tmp_path / "m.db")
    store.update = lambda *a, **k: pytest.fail("the fast path should decide this add")
    memory = ChatMemory("u1", store=store, window=MessageWindow(len(history)))
    memory.set(history)
    memory.add(UserMessage(content="thanks"))
    assert memory.messages() == evict([*history, UserMessage(content="thanks")], MessageWindow(len(history)))


def test_front_drop_drops_whole_groups_and_leaves_the_rest_to_evict():
    window = MessageWindow(4)
    call = ToolCall(id="c", name="f", arguments="{}")
    stored = [
        UserMessage(content="q1"),
        AssistantMessage(tool_calls=(call,)),
        ToolResultMessage(tool_call_id="c", tool_name="f", content="r"),
        AssistantMessage(content="a1"),
    ]
    new = [UserMessage(content="q2")]
    rest = Joined(stored, 0, new)
    assert front_drop(rest, 4, 5, window) == (4, 1)  # the question leaves, and its turn up to the next question
    assert front_drop(Joined(stored[1:], 0, new), 3, 4, window) == (0, 4)  # fits: nothing leaves
    assert front_drop(Joined(stored[1:], 0, new), 3, 5, window) == (3, 2)  # the call with its result, then a1
    assert front_drop(Joined(stored[2:], 0, new), 2, 3, window) is None  # an orphan result leads: evict decides
    assert front_drop(Joined(stored[:1], 0, [AssistantMessage(content="a")] * 4), 1, 5, window) == (
        0,
        5,
    )  # the current turn is kept whole over the limit, as evict keeps it (it has no round before its current one)
    turn = [UserMessage(content="q2"), AssistantMessage(tool_calls=(call,)), stored[2], stored[2]]
    assert front_drop(Joined(stored, 0, turn), 6, 8, window) == (4, 4)  # q1's turn leaves; q2's stays whole
    assert front_drop(Joined(turn[:3], 0, [stored[1], stored[2]]), 3, 5, window) is None  # a round before
    # the current one: evict drops it from the middle of the turn
    no_user = [AssistantMessage(content="a"), AssistantMessage(content="b")]
    assert front_drop(Joined(no_user, 0, no_user), 2, 5, window) is None  # no question left after the cut


def test_joined_reads_head_after_skip_then_tail_by_plain_index():
    joined = Joined(["s", "a", "b"], 1, ["c"])
    assert len(joined) == 3 and [joined[i] for i in range(3)] == ["a", "b", "c"]
    for bad in (-1, 3, slice(0, 1)):
        with pytest.raises(IndexError):
            joined[bad]


def test_what_the_store_knows_is_kept_for_the_most_recent_ids_only(tmp_path: Path, monkeypatch):
    import toolkit.memory.store as store_module

    monkeypatch.setattr(store_module, "KNOWN_IDS", 3)
    store = SqliteStore(tmp_path / "m.db")
    window = TokenWindow(1000)
    for k in range(6):
        ChatMemory(f"user-{k}", store=store, window=window).add(UserMessage(content=f"hello {k}"))
    assert list(store._known) == ["user-3", "user-4", "user-5"]
    assert list(store._row_tokens) == ["user-3", "user-4", "user-5"]
    memory = ChatMemory("user-0", store=store, window=window)  # forgotten: read again, still right
    memory.add(AssistantMessage(content="hi"))
    assert memory.messages() == [UserMessage(content="hello 0"), AssistantMessage(content="hi")]
    assert list(store._known)[-1] == "user-0"


class CharacterWindow(MessageWindow):
    """A window of one's own: a `MessageWindow` subclass weighing characters, not messages."""

    def weights(self, messages):
        return [len(m.content or "") for m in messages]

    def fits(self, messages):
        return sum(self.weights(messages)) <= self.max_messages


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_a_window_class_of_ones_own_is_weighed_by_its_own_weights(tmp_path: Path, kind: str):
    store = InMemoryStore() if kind == "memory" else SqliteStore(tmp_path / "m.db")
    window = CharacterWindow(40)
    memory = ChatMemory("u1", store=store, window=window)
    expected: list = []
    for k in range(12):
        message = UserMessage(content=f"question {k}") if k % 2 == 0 else AssistantMessage(content=f"answer {k}")
        memory.add(message)
        expected = evict([*expected, message], window)
        assert memory.messages() == expected
    assert sum(window.weights(expected)) <= 40 < 12 * 10


def test_get_reads_again_only_what_changed(tmp_path: Path):
    """`get` keeps the list it read; a write of this store extends it, another connection's
    write (or a write it cannot follow) makes the next `get` read the file again."""
    path = tmp_path / "m.db"
    mine, theirs = SqliteStore(path), SqliteStore(path)
    mine.set("u1", _conversation(50))
    loads = [0]
    load = mine._load

    def counted(*args):
        loads[0] += 1
        return load(*args)

    mine._load = counted
    first = mine.get("u1")
    assert loads[0] == 200 and first == _conversation(50)
    assert mine.get("u1") == first and loads[0] == 200  # nothing changed: nothing read
    first.append(UserMessage(content="the caller's own list"))  # a copy: the store's is unchanged
    assert mine.get("u1") == _conversation(50)
    mine.append("u1", [UserMessage(content="one more")])
    assert mine.get("u1") == [*_conversation(50), UserMessage(content="one more")] and loads[0] == 200
    theirs.append("u1", [AssistantMessage(content="from another process")])
    expected = [*_conversation(50), UserMessage(content="one more"), AssistantMessage(content="from another process")]
    assert mine.get("u1") == expected and loads[0] == 402  # read again, once
    mine.append("u1", [SystemMessage(content="Be brief.")])  # goes first: read again when asked
    assert mine.get("u1") == [SystemMessage(content="Be brief."), *expected] == theirs.get("u1")
    mine.delete("u1")
    assert mine.get("u1") == [] == theirs.get("u1")


def _counted_loads(store: SqliteStore) -> list[int]:
    loads = [0]
    load = store._load

    def counted(*args):
        loads[0] += 1
        return load(*args)

    store._load = counted
    return loads


def test_another_connection_writing_another_conversation_keeps_what_get_read(tmp_path: Path):
    """Another kernel (another connection) writing conversation u2 changes `PRAGMA data_version`:
    every conversation `get` had read was read and verified again (a 2,000-message u1 re-read
    each time another kernel answered u2). A conversation whose row is as it was, with no
    rewrite (`set`, `delete`) anywhere since, is kept."""
    path = tmp_path / "m.db"
    mine, theirs = SqliteStore(path), SqliteStore(path)
    mine.set("u1", _conversation(50))
    loads = _counted_loads(mine)
    assert mine.get("u1") == _conversation(50) and loads[0] == 200
    theirs.append("u2", [UserMessage(content="another kernel's user")])
    theirs.append("u2", [AssistantMessage(content="hi")])
    statements: list[str] = []
    mine._db.set_trace_callback(statements.append)
    assert mine.get("u1") == _conversation(50) and loads[0] == 200  # u1 untouched: nothing read
    assert mine.get("u1") == _conversation(50) and loads[0] == 200
    assert [s for s in statements if "meta" in s] == ["SELECT value FROM meta WHERE key = 'rewrites'"]
    assert len(statements) == 9  # the count read once, when another connection had written; 4 a get
    mine._db.set_trace_callback(None)
    mine.append("u1", [UserMessage(content="one more")])
    theirs.append("u2", [UserMessage(content="and again")])
    assert mine.get("u1") == [*_conversation(50), UserMessage(content="one more")] and loads[0] == 200
    theirs.append("u1", [AssistantMessage(content="from another process")])
    assert mine.get("u1")[-1] == AssistantMessage(content="from another process") and loads[0] == 402


@pytest.mark.parametrize("rewrite", ["set", "delete and add", "update"])
def test_another_connection_rewriting_a_conversation_to_the_same_shape_is_never_read_stale(
    tmp_path: Path, rewrite: str
):
    """A rewrite by another connection that leaves the conversation row as it was (the same
    number of rows from 0, no system message) is seen by the next `get` and windowed add."""
    path = tmp_path / "m.db"
    mine, theirs = SqliteStore(path), SqliteStore(path)
    old = [UserMessage(content="old question"), AssistantMessage(content="old answer")]
    new = [UserMessage(content="new question"), AssistantMessage(content="new answer")]
    mine.set("u1", old)
    assert mine.get("u1") == old
    theirs.append("u2", [UserMessage(content="unrelated")])  # data_version moves on: u1 kept
    assert mine.get("u1") == old
    if rewrite == "set":
        theirs.set("u1", new)
    elif rewrite == "delete and add":
        theirs.delete("u1")
        theirs.append("u1", new)
    else:
        theirs.update("u1", lambda messages: new)
    assert mine.get("u1") == new == theirs.get("u1")
    memory = ChatMemory("u1", store=mine, window=MessageWindow(4))
    memory.add(UserMessage(content="next"))  # what the windowed add knows of u1, kept
    theirs.set("u1", [*old, UserMessage(content="next")])
    memory.add(AssistantMessage(content="answer"))
    assert mine.get("u1") == [*old, UserMessage(content="next"), AssistantMessage(content="answer")]


def test_get_keeps_at_most_cached_messages(tmp_path: Path, monkeypatch):
    import toolkit.memory.store as store_module

    monkeypatch.setattr(store_module, "CACHED_MESSAGES", 100)
    store = SqliteStore(tmp_path / "m.db")
    for k in range(4):
        store.set(f"u{k}", _conversation(10))  # 40 messages each
        assert store.get(f"u{k}") == _conversation(10)
    assert list(store._lists.lists) == ["u2", "u3"] and store._lists.size == 80
    store.set("big", _conversation(30))
    assert store.get("big") == _conversation(30)  # 120: kept alone (see the test below)
    assert list(store._lists.lists) == ["big"] and store._lists.size == 120
    assert store.get("u3") == _conversation(10)
    assert list(store._lists.lists) == ["u3"] and store._lists.size == 40


def test_a_conversation_longer_than_the_cache_is_not_read_again_at_every_get(tmp_path: Path, monkeypatch):
    """A conversation over `CACHED_MESSAGES` was never kept: every `get` read and verified all of it
    again (a loop turn on 100,001 messages reads memory four times: 25 s, against 0.03 s on 99,999).
    The conversation read last is kept even alone over the bound, the others leaving for it."""
    import toolkit.memory.store as store_module

    monkeypatch.setattr(store_module, "CACHED_MESSAGES", 100)
    path = tmp_path / "m.db"
    store, theirs = SqliteStore(path), SqliteStore(path)
    store.set("big", _conversation(30))  # 120 messages
    loads = [0]
    load = store._load

    def counted(*args):
        loads[0] += 1
        return load(*args)

    store._load = counted
    assert store.get("big") == _conversation(30) and loads[0] == 120
    memory = ChatMemory("big", store=store)
    memory.add(UserMessage(content="one more"))
    assert store.get("big") == store.get("big") == [*_conversation(30), UserMessage(content="one more")]
    assert loads[0] == 120  # the append extended what was read; nothing read again
    theirs.append("big", [AssistantMessage(content="from another process")])
    assert store.get("big")[-1] == AssistantMessage(content="from another process") and loads[0] == 242


class _FailingCommit:
    """A connection whose next COMMIT fails (a full disk, say), as SQLite would report it."""

    def __init__(self, db):
        self.db, self.armed = db, True

    def execute(self, sql, *args):
        if self.armed and sql == "COMMIT":
            self.armed = False
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    @property
    def in_transaction(self):
        return self.db.in_transaction


@pytest.mark.parametrize("window", [None, MessageWindow(6), TokenWindow(40)])
def test_a_failed_commit_leaves_nothing_kept_that_the_file_does_not_hold(tmp_path: Path, window):
    store = SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("u1", store=store, window=window)
    memory.add(*_conversation(1))
    before = memory.messages()  # kept now
    real = store._db
    store._db = _FailingCommit(real)
    with pytest.raises(MemoryStoreError, match="disk is full"):
        memory.add(UserMessage(content="lost"))
    store._db = real
    assert not real.in_transaction  # rolled back: the next write can begin
    assert memory.messages() == before == SqliteStore(tmp_path / "m.db").get("u1")
    after = [UserMessage(content="kept"), AssistantMessage(content="ok")]
    memory.add(*after)  # what the store knew before the failure is not used
    expected = [*before, *after] if window is None else evict([*before, *after], window)
    assert memory.messages() == expected == SqliteStore(tmp_path / "m.db").get("u1")


def test_the_in_memory_store_refuses_what_is_not_a_message_as_sqlite_does():
    """Written straight to the store, bypassing `ChatMemory`: refused before anything is kept."""
    store = InMemoryStore()
    with pytest.raises(ConfigurationError, match=r"InMemoryStore.set: message 1 \(dict\) is not a message record"):
        store.set("u1", [UserMessage(content="q"), {"role": "user", "content": "x"}])
    with pytest.raises(ConfigurationError, match=r"InMemoryStore.append: message 0 \(str\) is not a message record"):
        store.append("u1", ["hello"])
    with pytest.raises(ConfigurationError, match=r"InMemoryStore.update: message 0 \(int\) is not a message record"):
        store.update("u1", lambda current: [*current, 42])
    assert store.get("u1") == []


def _round(k: int) -> list:
    call = ToolCall(id=f"call_{k}", name="query_order", arguments="{}")
    return [
        UserMessage(content=f"and order {k}?"),
        AssistantMessage(tool_calls=(call,)),
        ToolResultMessage(tool_call_id=call.id, tool_name="query_order", content="shipped"),
        AssistantMessage(content="It has shipped."),
    ]


@pytest.mark.parametrize("window", [MessageWindow(10), TokenWindow(60)])
def test_what_a_windowed_sqlite_memory_keeps_beside_its_rows_stays_as_small_as_its_window(tmp_path: Path, window):
    """What `append_in_window` knows of a conversation (its results per call id, the calls its rows
    ask for) kept an entry for every call the conversation ever made, the window's or long gone:
    a memory serving one user for days grew without bound beside a window of ten messages."""
    store = SqliteStore(tmp_path / "m.db")
    store._db.execute("PRAGMA synchronous = OFF")  # 1,200 commits: no need to wait for the disk
    memory = ChatMemory("u1", store=store, window=window)
    for k in range(300):
        memory.add(*_round(k))
    kept = len(memory.messages())
    assert len(store._known["u1"].results) <= kept
    assert len(store._asked["u1"].calls) <= 2 * kept + 8
    memory.add(ToolResultMessage(tool_call_id="call_299", content="once more"))  # still answers the kept call
    with pytest.raises(ConfigurationError):
        memory.add(ToolResultMessage(tool_call_id="call_1", content="late"))  # its call left long ago


@pytest.mark.parametrize("window", [MessageWindow(40), TokenWindow(400)])
def test_another_connection_writing_another_conversation_keeps_what_a_windowed_add_knows(tmp_path: Path, window):
    """What `append_in_window` knows of u1 (its tool results per call, its tokens) was read again
    from every row of u1 after another connection wrote to u2; it is kept now, as `get`'s list is."""
    path = tmp_path / "m.db"
    mine, theirs = SqliteStore(path), SqliteStore(path)
    memory = ChatMemory("u1", store=mine, window=window)
    for k in range(10):
        memory.add(*_round(k))
    memory.add(UserMessage(content="and now?"))
    statements: list[str] = []
    mine._db.set_trace_callback(statements.append)
    theirs.append("u2", [UserMessage(content="another kernel's user")])
    memory.add(AssistantMessage(content="still here"))
    assert not [s for s in statements if "GROUP BY" in s or s.startswith("SELECT seq, checksum")]
    assert memory.messages()[-1] == AssistantMessage(content="still here")
    assert mine.get("u1") == theirs.get("u1")


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
@pytest.mark.parametrize("window", [MessageWindow(8), TokenWindow(40)])
def test_a_new_round_in_a_window_full_of_the_turns_earlier_rounds_writes_only_its_own_rows(
    tmp_path: Path, kind: str, window
):
    """One question answered over many rounds (an agent's long turn) in a window its rounds fill: `evict`
    drops the turn's oldest round from between the question and the rounds after it. The fast path could
    not say so, and each new round's add read, evicted and wrote the window again (`SqliteStore`: every kept
    row deleted and inserted anew, the whole window on every add). Now the rows that leave are deleted, the
    question's row moves up beside the kept rounds, and only the new messages are inserted."""
    store = InMemoryStore() if kind == "memory" else SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("u1", store=store, window=window)
    expected: list = [SystemMessage(content="Be brief."), UserMessage(content="Check my three orders, please.")]
    memory.add(*expected)
    update = store.update
    store.update = lambda *a, **k: pytest.fail("the fast path should decide this add")
    statements: list[str] = []
    if kind == "sqlite":
        store._db.set_trace_callback(statements.append)
    for k in range(12):
        call = ToolCall(id=f"call_{k}", name="query_order", arguments=f'{{"orderId": "SN{k}"}}')
        for message in (
            AssistantMessage(tool_calls=(call,)),
            ToolResultMessage(tool_call_id=call.id, tool_name="query_order", content=f"order {k} shipped"),
        ):
            statements.clear()
            memory.add(message)
            expected = evict([*expected, message], window)
            assert len([s for s in statements if s.startswith("INSERT INTO messages")]) <= 2  # it, and the question
            if k % 3 == 0:
                assert memory.messages() == expected, (k, message)  # as the loop reads before each request
    store.update = update
    assert memory.messages() == expected
    assert expected[1] == UserMessage(content="Check my three orders, please.")
    assert expected[-1].content == "order 11 shipped" and len(expected) < 12
    if kind == "sqlite":
        assert SqliteStore(tmp_path / "m.db").get("u1") == expected  # what the file holds, read anew
        memory.add(AssistantMessage(content="All three have shipped."))
        with pytest.raises(ConfigurationError, match="which no earlier assistant message asked for"):
            memory.add(ToolResultMessage(tool_call_id="call_0", content="late"))  # its call left the window


def test_a_result_for_an_unanswered_call_that_left_the_turn_is_refused_after_the_question_moved(tmp_path: Path):
    """A middle drop moves the question's row into the seq of the last row that left: there, an
    unanswered call (a round cut off before its result). Its late result must still be refused, as the
    read-evict-write path refuses it, not taken as answering a call the row at that seq no longer asks."""
    for fast in (True, False):
        store = SqliteStore(tmp_path / f"{fast}.db")
        if not fast:
            store.append_in_window = None
        memory = ChatMemory("u1", store=store, window=MessageWindow(6))
        cut, calls = (
            ToolCall(id="cut", name="f", arguments="{}"),
            [ToolCall(id=f"c{k}", name="f", arguments="{}") for k in range(4)],
        )
        memory.add(UserMessage(content="q"), AssistantMessage(tool_calls=(calls[0],)))
        memory.add(ToolResultMessage(tool_call_id="c0", content="r0"), AssistantMessage(tool_calls=(cut,)))
        for call in calls[1:3]:
            memory.add(AssistantMessage(tool_calls=(call,)))
            memory.add(ToolResultMessage(tool_call_id=call.id, content="r"))
        memory.add(AssistantMessage(tool_calls=(calls[3],)))  # the cut call leaves: the question takes its row
        assert not any(asks_for(m, "cut") for m in memory.messages()) and len(memory.messages()) == 6
        with pytest.raises(ConfigurationError, match="'cut', which no earlier assistant message asked for"):
            memory.add(ToolResultMessage(tool_call_id="cut", content="late"))
        assert SqliteStore(tmp_path / f"{fast}.db").get("u1") == memory.messages()


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_a_long_turns_new_round_reads_no_more_of_it_than_a_short_turns(tmp_path: Path, kind: str, monkeypatch):
    """Finding the user's last message read the whole current turn from the end on every add to a full
    window: an agent's turn of 400 messages cost 400 reads per add (InMemoryStore: 11× the add at 10 messages).
    Where it is is kept from one add to the next, as the conversation's weight is."""
    from toolkit.memory import windows

    store = InMemoryStore() if kind == "memory" else SqliteStore(tmp_path / "m.db")
    calls = [ToolCall(id=f"c{k}", name="f", arguments="{}") for k in range(230)]
    turn: list = [UserMessage(content="q")]
    for call in calls[:200]:
        turn += [AssistantMessage(tool_calls=(call,)), ToolResultMessage(tool_call_id=call.id, content="r")]
    memory = ChatMemory("u1", store=store, window=MessageWindow(len(turn)))
    memory.set(turn)
    memory.add(AssistantMessage(tool_calls=(calls[200],)))  # the first add looks for it once
    asked, said = [0], windows._said_by_user
    monkeypatch.setattr(windows, "_said_by_user", lambda m: (asked.__setitem__(0, asked[0] + 1), said(m))[1])
    expected = memory.messages()
    for call, following in zip(calls[200:], calls[201:]):
        for message in (
            ToolResultMessage(tool_call_id=call.id, content="r"),
            AssistantMessage(tool_calls=(following,)),
        ):
            memory.add(message)
            counted = asked[0]
            expected = evict([*expected, message], MessageWindow(len(turn)))
            asked[0] = counted  # (evict reads the whole turn: not counted)
    assert asked[0] <= 4 * 2 * 29
    assert memory.messages() == expected and expected[0] == UserMessage(content="q")


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
@pytest.mark.parametrize("window", [MessageWindow(9), TokenWindow(45)])
def test_a_turns_rounds_pushing_earlier_turns_out_then_its_own_rounds_keep_what_evict_keeps(
    tmp_path: Path, kind: str, window
):
    """Where the user's last message is, kept from one add to the next, moves as the messages before it
    leave: earlier turns leave one by one as the current turn's rounds come, then its own earlier rounds.
    Every add is decided by the fast path (a wrong place made it give up, and `update` rewrote the window)."""
    store = InMemoryStore() if kind == "memory" else SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("u1", store=store, window=window)
    store.update = lambda *a, **k: pytest.fail("the fast path should decide this add")
    expected: list = []
    for message in [
        *[m for k in range(3) for m in (UserMessage(content=f"q{k}"), AssistantMessage(content=f"a{k}"))],
        UserMessage(content="Check every order."),
        *[
            m
            for k in range(12)
            for m in (
                AssistantMessage(tool_calls=(ToolCall(id=f"c{k}", name="f", arguments="{}"),)),
                ToolResultMessage(tool_call_id=f"c{k}", content=f"r{k}"),
            )
        ],
        AssistantMessage(content="All shipped."),
        UserMessage(content="thanks"),
    ]:
        memory.add(message)
        expected = evict([*expected, message], window)
        assert memory.messages() == expected, message
    if kind == "sqlite":
        assert SqliteStore(tmp_path / "m.db").get("u1") == expected


@pytest.mark.parametrize("window", [MessageWindow(5), TokenWindow(14)])
def test_a_failed_commit_of_a_round_that_drops_earlier_rounds_keeps_the_file_and_memory_alike(tmp_path: Path, window):
    """The add that drops the turn's earlier rounds and moves its question's row fails at COMMIT (a full
    disk): nothing of it is kept, in the file or in what the store knows; the next add goes on from the file."""
    store = SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("u1", store=store, window=window)
    memory.add(UserMessage(content="Check every order."))
    for k in range(3):
        call = ToolCall(id=f"c{k}", name="f", arguments="{}")
        memory.add(AssistantMessage(tool_calls=(call,)), ToolResultMessage(tool_call_id=call.id, content="shipped"))
    before = memory.messages()
    call = ToolCall(id="c3", name="f", arguments="{}")
    real = store._db
    store._db = _FailingCommit(real)
    with pytest.raises(MemoryStoreError, match="disk is full"):
        memory.add(AssistantMessage(tool_calls=(call,)))
    store._db = real
    assert memory.messages() == before == SqliteStore(tmp_path / "m.db").get("u1")
    assert evict([*before, AssistantMessage(tool_calls=(call,))], window)[1] != before[1]  # it drops a round
    after = [AssistantMessage(tool_calls=(call,)), ToolResultMessage(tool_call_id="c3", content="shipped")]
    memory.add(*after)
    assert memory.messages() == evict([*before, *after], window) == SqliteStore(tmp_path / "m.db").get("u1")
    assert memory.messages()[0] == UserMessage(content="Check every order.")
