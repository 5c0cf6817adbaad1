"""`InMemoryStore` and `SqliteStore` are one protocol: the same operations, hostile ones included,
give the same stored messages and the same errors (type and text, the store's name aside), and
what a write stored is in the file when it is opened again. A hypothesis state machine drives
both stores, directly and through `ChatMemory` with and without a window."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from toolkit.chat.messages import AssistantMessage, Message, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ConfigurationError
from toolkit.memory.store import SqliteStore, _checksum
from toolkit.memory.windows import ChatMemory, InMemoryStore, MessageWindow, TokenWindow

IDS = ["a", "b", "a\x00b", "😀 id", "x" * 300, "DROP TABLE conversations;--", "\ud800x", " ", ""]
"""Memory ids, odd ones and refused ones among them."""
VALID_IDS = IDS[:6]
texts = st.one_of(
    st.sampled_from(["", "hi", "\ud800lone", "two halves \ud83d\ude00", "nul\x00here", "\\u0000", '{"role":"system"}']),
    st.text(max_size=12),
    st.just(30_000).map(lambda n: "长" * n),
)
call_ids = st.sampled_from(["c0", "c1", "c2", "call_0", "", "\udcff", "c\ud83d\ude00"])
messages = st.one_of(
    st.builds(SystemMessage, content=texts),
    st.builds(UserMessage, content=texts),
    st.builds(AssistantMessage, content=texts),
    st.builds(
        lambda ids, text: AssistantMessage(
            content=text, tool_calls=tuple(ToolCall(id=i, name="f", arguments="{}") for i in ids)
        ),
        st.lists(call_ids, min_size=1, max_size=2, unique=True),
        st.none() | texts,
    ),
    st.builds(
        lambda call_id, text, error, attributes: ToolResultMessage(
            tool_call_id=call_id, tool_name="f", content=text, is_error=error, attributes=attributes
        ),
        call_ids,
        texts,
        st.booleans(),
        st.sampled_from([{}, {"found_tools": ["a", "\ud800"]}, {"n": {"deep": [1, None, 2.5]}}, {"x": float("nan")}]),
    ),
)
batches = st.lists(messages, max_size=4)


class LetterWindow:
    """A window of one's own: at most `limit` letters of text, each message weighing 1 at least."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def weights(self, messages: Sequence[Message]) -> list[int]:
        return [max(1, len(m.content or "")) for m in messages]


windows = st.sampled_from(
    [None, MessageWindow(4), MessageWindow(7), TokenWindow(40), TokenWindow(100_000), LetterWindow(30)]
)


def _outcome(write: Callable[[], object]) -> tuple[str, str] | None:
    """None when `write` succeeds, else its error's type and text with the store's name left out."""
    try:
        write()
    except Exception as exc:
        text = str(exc).replace("InMemoryStore", "<store>").replace("SqliteStore", "<store>")
        return type(exc).__name__, text
    return None


class StoresAgree(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
        self.path = self.folder / "m.db"
        self.memory = InMemoryStore()
        self.sqlite = SqliteStore(self.path)
        self.other = SqliteStore(self.path)
        """A second connection to the file, as another process has: what the first keeps of a
        conversation must give way to what this one writes."""
        self.touched = "a"

    def teardown(self) -> None:
        self.sqlite.close()
        self.other.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def both(
        self, memory_id: str, write: Callable[[InMemoryStore | SqliteStore], object], *, elsewhere: bool = False
    ) -> None:
        sqlite = self.other if elsewhere else self.sqlite
        outcomes = [_outcome(lambda store=store: write(store)) for store in (self.memory, sqlite)]
        assert outcomes[0] == outcomes[1]
        if memory_id in VALID_IDS:
            self.touched = memory_id

    @rule(memory_id=st.sampled_from(IDS), batch=batches)
    def append(self, memory_id: str, batch: list[Message]) -> None:
        self.both(memory_id, lambda store: store.append(memory_id, batch))

    @rule(memory_id=st.sampled_from(IDS), batch=batches, window=windows)
    def add_elsewhere(self, memory_id: str, batch: list[Message], window: MessageWindow | TokenWindow | None) -> None:
        self.both(
            memory_id, lambda store: ChatMemory(memory_id, store=store, window=window).add(*batch), elsewhere=True
        )

    @rule(memory_id=st.sampled_from(IDS), batch=batches, window=windows)
    def add(self, memory_id: str, batch: list[Message], window: MessageWindow | TokenWindow | None) -> None:
        self.both(memory_id, lambda store: ChatMemory(memory_id, store=store, window=window).add(*batch))

    @rule(memory_id=st.sampled_from(VALID_IDS), keep=st.integers(0, 12), batch=batches, window=windows)
    def set(self, memory_id: str, keep: int, batch: list[Message], window: MessageWindow | TokenWindow | None) -> None:
        new = self.memory.get(memory_id)[:keep] + batch
        self.both(memory_id, lambda store: ChatMemory(memory_id, store=store, window=window).set(new))

    @rule(memory_id=st.sampled_from(IDS), drop=st.integers(0, 3), batch=batches)
    def update(self, memory_id: str, drop: int, batch: list[Message]) -> None:
        self.both(memory_id, lambda store: store.update(memory_id, lambda current: current[drop:] + batch))

    @rule(memory_id=st.sampled_from(IDS), drop=st.integers(0, 3), batch=batches, window=windows)
    def update_in_window(
        self, memory_id: str, drop: int, batch: list[Message], window: MessageWindow | TokenWindow | None
    ) -> None:
        def change(current: list[Message]) -> list[Message]:
            return current[drop:] + batch

        self.both(memory_id, lambda store: ChatMemory(memory_id, store=store, window=window).update(change))

    @rule(memory_id=st.sampled_from(IDS))
    def delete(self, memory_id: str) -> None:
        self.both(memory_id, lambda store: store.delete(memory_id))

    @rule(memory_id=st.sampled_from(VALID_IDS))
    def change_what_was_read(self, memory_id: str) -> None:
        """What `get` gave is the caller's own: changing it changes no store."""
        for store in (self.memory, self.sqlite):
            got = store.get(memory_id)
            got.append(UserMessage(content="mine"))
            got.reverse()

    @rule()
    def reopen(self) -> None:
        self.sqlite.close()
        self.sqlite = SqliteStore(self.path)

    @invariant()
    def the_same_messages_are_stored_and_in_the_file(self) -> None:
        for memory_id in VALID_IDS:
            assert self.memory.get(memory_id) == self.sqlite.get(memory_id), memory_id
        reopened = SqliteStore(self.path)
        assert reopened.get(self.touched) == self.memory.get(self.touched)  # nothing lost: in the file
        reopened.close()


StoresAgree.TestCase.settings = settings(max_examples=30, stateful_step_count=40, deadline=None)
TestStoresAgree = StoresAgree.TestCase


KINDS = pytest.mark.parametrize("kind", ["InMemoryStore", "SqliteStore"])


def _store(kind: str, folder: Path) -> InMemoryStore | SqliteStore:
    return InMemoryStore() if kind == "InMemoryStore" else SqliteStore(folder / "m.db")


@KINDS
def test_a_result_that_answers_no_call_is_refused_by_every_store_alike(tmp_path: Path, kind: str) -> None:
    """Before: `InMemoryStore` kept it (a conversation a strict gateway refuses), `SqliteStore` refused it."""
    orphan = ToolResultMessage(tool_call_id="zz", tool_name="f", content="r")
    store = _store(kind, tmp_path)
    for where, write in [
        ("append", lambda: store.append("o", [UserMessage(content="q"), orphan])),
        ("set", lambda: store.set("o", [UserMessage(content="q"), orphan])),
        ("update", lambda: store.update("o", lambda old: [UserMessage(content="q"), orphan])),
        (
            "append",
            lambda: ChatMemory("o", store=store, window=MessageWindow(4)).add(UserMessage(content="q"), orphan),
        ),
    ]:
        with pytest.raises(ConfigurationError) as caught:
            write()
        assert str(caught.value) == (
            f"{kind}.{where}: message 1 is a tool result for call 'zz', which no earlier assistant message asked "
            "for; store the assistant message with that call first (a strict gateway refuses a conversation with "
            "such a result)"
        )
    assert store.get("o") == []  # nothing was written


@KINDS
def test_append_reads_any_iterable_once_in_every_store(tmp_path: Path, kind: str) -> None:
    """Before: `InMemoryStore.append` took a generator, `SqliteStore.append` refused it."""
    store = _store(kind, tmp_path)
    store.append("g", (m for m in [UserMessage(content="a"), SystemMessage(content="s")]))  # type: ignore[arg-type]
    assert [m.content for m in store.get("g")] == ["s", "a"]


CALL = AssistantMessage(tool_calls=(ToolCall(id="k", name="f", arguments="{}"),))


@pytest.mark.parametrize(
    ("attributes", "problem"),
    [
        ({"x": float("nan")}, "attributes['x'] is nan, which JSON cannot hold (it would come back as None)"),
        (
            {"x": object()},
            "attributes['x'] cannot be written as JSON (PydanticSerializationError: Unable to serialize unknown type: "
            "<class 'object'>)",
        ),
        (  # before: SqliteStore kept [] (the check read it), InMemoryStore the emptied generator
            {"x": [(r for r in "ab")]},
            "attributes['x'][0] is a generator, which is read only once (writing it empties it: what a later write "
            "keeps is what is left of it); give a list: list(...)",
        ),
        (
            {"\udcff": 1},
            "attributes has the key '\\udcff', which holds a lone surrogate (it would come back as other text)",
        ),
        (  # before: SqliteStore raised a bare ValueError (int to text), InMemoryStore kept it
            {"x": [10**5000]},
            "attributes['x'][0] is a whole number of 5001 digits, more than Python reads back from JSON (4300); "
            "give it as text, str(number)",
        ),
        (
            {"x": -(10**4300)},
            "attributes['x'] is a whole number of 4301 digits, more than Python reads back from JSON (4300); "
            "give it as text, str(number)",
        ),
    ],
)
@KINDS
def test_attributes_a_store_cannot_keep_are_refused_by_every_store_alike(
    tmp_path: Path, kind: str, attributes: dict, problem: str
) -> None:
    """Before: `InMemoryStore` kept them; the same tool, its memory moved to `SqliteStore`, failed at
    the loop's write, after the tool had run."""
    result = ToolResultMessage(tool_call_id="k", tool_name="f", content="r", attributes=attributes)
    store = _store(kind, tmp_path)
    for where, write in [
        ("append", lambda: store.append("o", [CALL, result])),
        ("set", lambda: store.set("o", [CALL, result])),
        ("append", lambda: ChatMemory("o", store=store).add(CALL, result)),
        ("append", lambda: ChatMemory("o", store=store, window=MessageWindow(4)).add(CALL, result)),
    ]:
        with pytest.raises(ConfigurationError) as caught:
            write()
        assert str(caught.value) == (
            f"{kind}.{where}: message 1 (ToolResultMessage): {problem}; nothing was written. Keep attributes and "
            "extra fields to JSON values: text, whole or finite numbers, True/False, None, lists, and dicts with "
            "text keys"
        )
    assert store.get("o") == []


def test_a_store_of_ones_own_gets_no_result_that_answers_no_call() -> None:
    """`ChatMemory` on a store with only get, set and delete refuses it as the stores here do, naming `add`."""

    class Plain:
        def __init__(self) -> None:
            self.data: dict[str, list[Message]] = {}

        def get(self, memory_id: str) -> list[Message]:
            return list(self.data.get(memory_id, []))

        def set(self, memory_id: str, messages: Sequence[Message]) -> None:
            self.data[memory_id] = list(messages)

        def delete(self, memory_id: str) -> None:
            self.data.pop(memory_id, None)

    memory = ChatMemory("p", store=Plain())
    memory.add(UserMessage(content="q"), CALL)
    with pytest.raises(ConfigurationError) as caught:
        memory.add(
            ToolResultMessage(tool_call_id="k", tool_name="f", content="r"),
            ToolResultMessage(tool_call_id="zz", content="r"),
        )
    assert str(caught.value) == (
        "ChatMemory.add: message 1 is a tool result for call 'zz', which no earlier assistant message asked for; "
        "store the assistant message with that call first (a strict gateway refuses a conversation with such a result)"
    )
    memory.add(ToolResultMessage(tool_call_id="k", tool_name="f", content="r"))
    assert len(memory.messages()) == 3


def test_a_whole_number_of_4300_digits_is_kept_and_a_longer_one_written_by_hand_is_a_typed_error(
    tmp_path: Path,
) -> None:
    """4,300 digits is what `json.loads` reads back by default (`sys.int_info.default_max_str_digits`);
    a payload with more (written by a process that raised the limit) was a bare ValueError on read."""
    import sqlite3

    from toolkit.errors import MemoryStoreError

    path = tmp_path / "m.db"
    kept = ToolResultMessage(tool_call_id="k", tool_name="f", content="r", attributes={"x": -(10**4300 - 1)})
    SqliteStore(path).set("o", [CALL, kept])
    assert SqliteStore(path).get("o") == [CALL, kept]
    with sqlite3.connect(path) as db:  # the number one digit longer, its checksum made as the store makes it
        payload = db.execute("SELECT payload FROM messages WHERE seq = 1").fetchone()[0].replace('"x":-9', '"x":-99')
        db.execute("UPDATE messages SET payload = ?, checksum = ? WHERE seq = 1", (payload, _checksum("o", 1, payload)))
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path).get("o")
    assert str(caught.value) == (
        f"{path}: memory id 'o', row 1 is not a valid message (ValueError); delete that id or restore the file "
        "from a backup"
    )
