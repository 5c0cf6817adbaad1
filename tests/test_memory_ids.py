"""Memory ids and windows a caller got wrong: the error is one short line with the fix that suits
what was passed (a whole conversation, bytes, a huge object), whatever its size."""

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.errors import ConfigurationError, MemoryIdError
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory, InMemoryStore, check_memory_id

HISTORY = [UserMessage(content=f"question {i}") for i in range(2000)]


def test_the_conversation_passed_as_the_id_is_named_as_such_in_a_short_line():
    """Before: a 300,000-character message (the whole history's repr, twice) advising str(history)."""
    with pytest.raises(MemoryIdError) as caught:
        ChatMemory(HISTORY)
    assert str(caught.value) == (
        "ChatMemory: memory id [UserMessage(role='user', content='question 0', images=(), from_tool_calls=()),… is "
        "not a string (list); the first argument is the conversation's id, not its messages: "
        "ChatMemory('user-1'), then memory.add(*messages)"
    )


@pytest.mark.parametrize("make", [InMemoryStore, lambda: SqliteStore(":memory:")])
def test_bytes_as_the_id_are_told_to_be_decoded_not_wrapped_in_str(make):
    """Before: `pass str(b'user-1') explicitly`, which makes the id "b'user-1'"."""
    with pytest.raises(MemoryIdError) as caught:
        make().get(b"user-1")
    assert str(caught.value).endswith(
        "memory id b'user-1' is not a string (bytes); memory ids are strings, so decode the bytes first, "
        "e.g. memory_id.decode('utf-8')"
    )


def test_a_huge_window_or_store_is_shown_cut_short():
    huge = list(range(100_000))
    with pytest.raises(ConfigurationError) as caught:
        ChatMemory("u", window=huge)
    assert len(str(caught.value)) < 300 and "[0, 1, 2, 3" in str(caught.value)
    with pytest.raises(ConfigurationError) as caught:
        ChatMemory("u" * 4_000, store=huge)
    assert len(str(caught.value)) < 400 and "not a store (no get, set, delete)" in str(caught.value)


@pytest.mark.parametrize("make", [InMemoryStore, lambda: SqliteStore(":memory:")])
def test_an_id_with_a_lone_surrogate_is_refused_by_every_store_alike(make):
    """Before: `InMemoryStore` kept it, and the same code moved to `SqliteStore` failed at its first write."""
    store = make()
    name = type(store).__name__
    for write in (
        lambda: store.append("user-\udcff", [UserMessage(content="hi")]),
        lambda: store.set("user-\udcff", [UserMessage(content="hi")]),
        lambda: store.get("user-\udcff"),
    ):
        with pytest.raises(MemoryIdError) as caught:
            write()
        assert str(caught.value).endswith(
            "memory id 'user-\\udcff' is not valid Unicode text (it holds a lone surrogate, e.g. from os.fsdecode), "
            "which SqliteStore cannot store; decode the bytes it came from properly"
        )
        assert str(caught.value).startswith(name)
    with pytest.raises(MemoryIdError, match=r"^ChatMemory: memory id '\\ud800' is not valid Unicode text"):
        ChatMemory("\ud800")


LONG_ID = "user-" + "7" * 4_000  # long, yet within MAX_ID_CHARS
SHOWN_ID = repr(LONG_ID)[:79] + "…"


def test_a_long_id_is_shown_cut_short_in_a_store_error(tmp_path):
    """Before: every `SqliteStore` error wrote the whole id: a 100,000-character line."""
    import sqlite3

    path = tmp_path / "m.db"
    SqliteStore(path).set(LONG_ID, [UserMessage(content="hi")])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE messages SET payload = '{}'")
    with pytest.raises(Exception) as caught:
        SqliteStore(path).get(LONG_ID)
    assert str(caught.value) == (
        f"{path}: memory id {SHOWN_ID}, row 0: the checksum does not match, the row was changed outside "
        "toolkit; delete that id or restore the file from a backup"
    )


def test_a_long_blank_id_is_shown_cut_short():
    with pytest.raises(MemoryIdError) as caught:
        ChatMemory(" " * 100_000)
    assert str(caught.value) == (
        f"ChatMemory: memory id {repr(' ' * 100_000)[:79]}… is missing; every conversation needs its own id (e.g. "
        "the user's id) — with a missing id, every anonymous user would share one conversation"
    )


def test_a_long_id_is_shown_cut_short_when_a_change_uses_the_store():
    memory = ChatMemory(LONG_ID)
    with pytest.raises(ConfigurationError) as caught:
        memory.update(lambda current: memory.messages())
    assert str(caught.value).startswith(f"InMemoryStore.update({SHOWN_ID}): change used the store while it runs")


class _Name(str):
    """A str of one's own as an id: checked the long way, and kept as given."""


@pytest.mark.parametrize("memory_id", ["u7", " a ", "é", _Name("u7")])
def test_a_valid_id_comes_back_as_given(memory_id):
    """The usual ASCII id passes in two tests (`check_memory_id`'s quick path); any other, the long way."""
    assert check_memory_id(memory_id) is memory_id


@pytest.mark.parametrize(
    "memory_id, said",
    [("", "is missing"), (" \t", "is missing"), ("\x1c", "is missing"), ("\u3000", "is missing"),
     (_Name(" "), "is missing"), (None, "is missing"), (7, "is not a string"), ("a\ud800", "not valid Unicode")],
)  # fmt: skip
def test_an_id_the_quick_path_leaves_is_refused_as_before(memory_id, said):
    with pytest.raises(MemoryIdError, match=said):
        check_memory_id(memory_id)


DECOMPOSED = "Jose\u0301"  # "José" spelt e + combining acute: looks the same, other characters
NOT_COMPOSED = (
    "memory id 'Jose\\u0301' is not in composed Unicode form (NFC): it looks like 'José' but is spelt with other "
    "characters, and the two would be two conversations; if they are one user, pass "
    "unicodedata.normalize('NFC', memory_id) (a conversation stored under this spelling stays readable with "
    "store.get and removable with store.delete)"
)


@pytest.mark.parametrize("make", [InMemoryStore, lambda: SqliteStore(":memory:")])
def test_an_id_not_in_nfc_is_refused_for_writes_never_merged_nor_split(make):
    """Before: "José" in NFC and in NFD were two conversations of one look; composing the id silently
    would merge two ids the caller's system may keep apart, so a write under a non-NFC id is refused."""
    store = make()
    name = type(store).__name__
    store.append("José", [UserMessage(content="composed")])
    for where, write in (
        ("append", lambda: store.append(DECOMPOSED, [UserMessage(content="hi")])),
        ("set", lambda: store.set(DECOMPOSED, [UserMessage(content="hi")])),
        ("update", lambda: store.update(DECOMPOSED, list)),
    ):
        with pytest.raises(MemoryIdError) as caught:
            write()
        assert str(caught.value) == f"{name}.{where}: {NOT_COMPOSED}"
    with pytest.raises(MemoryIdError) as caught:
        ChatMemory(DECOMPOSED, store=store)
    assert str(caught.value) == f"ChatMemory: {NOT_COMPOSED}"
    assert store.get(DECOMPOSED) == [] and [m.content for m in store.get("José")] == ["composed"]
    assert check_memory_id("用户-小明") == "用户-小明" and check_memory_id("ｕｓｅｒ") == "ｕｓｅｒ"  # NFC already


def test_a_conversation_an_older_version_stored_under_a_non_nfc_id_stays_readable(tmp_path, monkeypatch):
    import unicodedata

    import toolkit.memory.store as store_module

    path = tmp_path / "m.db"
    with monkeypatch.context() as older:  # an older version took any spelling
        older.setattr(
            store_module, "check_memory_id", lambda m, where, stored=False: check_memory_id(m, where, stored=True)
        )
        SqliteStore(path).append(DECOMPOSED, [UserMessage(content="kept")])
    store = SqliteStore(path)
    assert store.memory_ids() == [DECOMPOSED]
    assert [m.content for m in store.get(DECOMPOSED)] == ["kept"]
    store.set(unicodedata.normalize("NFC", DECOMPOSED), store.get(DECOMPOSED))  # moved as the error says
    store.delete(DECOMPOSED)
    assert store.memory_ids() == ["José"] and [m.content for m in store.get("José")] == ["kept"]
