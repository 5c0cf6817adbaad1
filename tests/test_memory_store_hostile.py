"""`SqliteStore` and `TokenWindow` on strange input: free-form values JSON cannot hold, another
program's database, token counts that are not counts. Each is one typed line, and nothing stored is lost."""

import datetime
import math
import sqlite3

import pytest

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ConfigurationError, MemoryStoreError
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory, InMemoryStore, MessageWindow, TokenWindow, evict
from toolkit.tokens import estimate_tokens

CALL = AssistantMessage(content=None, tool_calls=(ToolCall(id="c1", name="f"),))
KEEP = "Keep attributes and extra fields to JSON values: text, whole or finite numbers, True/False, None, lists, and dicts with text keys"


class Opaque:
    pass


def _result(**attributes):
    return ToolResultMessage(tool_call_id="c1", content="r", attributes=attributes)


def assert_refused_as_another_programs(path, listed):
    """`SqliteStore(path)` refuses another program's database, naming what it holds (`listed`)."""
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path)
    assert str(caught.value) == (
        f"{path}: an SQLite database of another program ({listed}), not a memory store; it was left "
        "as it is. Give the memory a file of its own, e.g. 'memory.db'"
    )


def test_a_nan_attribute_is_refused_with_its_key_instead_of_coming_back_as_none(tmp_path):
    store = SqliteStore(tmp_path / "m.db")
    store.append("u", [UserMessage(content="hi")])
    with pytest.raises(ConfigurationError) as caught:
        store.append("u", [CALL, _result(score=math.nan)])
    assert str(caught.value) == (
        "SqliteStore.append: message 1 (ToolResultMessage): attributes['score'] is nan, which JSON cannot hold "
        f"(it would come back as None); nothing was written. {KEEP}"
    )
    assert SqliteStore(tmp_path / "m.db").get("u") == [UserMessage(content="hi")]


@pytest.mark.parametrize(
    "message, problem",
    [
        (_result(deep={"list": [1, -math.inf]}), "attributes['deep']['list'][1] is -inf"),
        (AssistantMessage(content="x", extra={"logprob": math.inf}), "extra['logprob'] is inf"),
        (
            AssistantMessage(content=None, tool_calls=(ToolCall(id="c1", name="f", extra={"k": math.nan}),)),
            "tool_calls[0].extra['k'] is nan",
        ),
        (_result(**{"\udc80": 1}), "attributes has the key '\\udc80', which holds a lone surrogate"),
        (_result(blob=b"\xff\xfe"), "attributes['blob'] cannot be written as JSON (UnicodeDecodeError"),
        (_result(thing=Opaque()), "attributes['thing'] cannot be written as JSON (PydanticSerializationError"),
    ],
)
def test_a_free_form_value_json_cannot_hold_is_a_typed_error_on_every_write(tmp_path, message, problem):
    """Before: NaN and infinity came back as None and a surrogate key as other text, silently;
    bytes and objects raised pydantic's or the codec's own exception from deep inside a write."""
    store = SqliteStore(tmp_path / "m.db")
    messages = [message] if isinstance(message, AssistantMessage) else [CALL, message]
    for write in (
        lambda: store.set("u", messages),
        lambda: store.append("u", messages),
        lambda: ChatMemory("u", store=store).add(*messages),
        lambda: ChatMemory("u", store=store, window=MessageWindow(8)).add(*messages),
    ):
        with pytest.raises(ConfigurationError, match="nothing was written") as caught:
            write()
        assert problem in str(caught.value)
    assert store.get("u") == [] and "\n" not in str(caught.value)


def test_values_json_holds_in_another_form_are_stored_as_before(tmp_path):
    store = SqliteStore(tmp_path / "m.db")
    store.append("u", [CALL, _result(pair=(1, 2), day=datetime.date(2026, 1, 2), big=10**30, text="a\udcffb")])
    assert SqliteStore(tmp_path / "m.db").get("u")[1].attributes == {
        "pair": [1, 2],
        "day": "2026-01-02",
        "big": 10**30,
        "text": "a\udcffb",
    }


def test_another_programs_database_is_refused_and_left_untouched(tmp_path):
    """Before: the store added its tables and schema row to the file, then failed on the first
    read with advice about write permissions."""
    path = tmp_path / "app.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE messages (author TEXT, body TEXT)")
        other.execute("INSERT INTO messages VALUES ('ann', 'hello')")
    other.close()
    assert_refused_as_another_programs(path, "tables: messages")
    with sqlite3.connect(path) as other:
        assert other.execute("SELECT name FROM sqlite_master").fetchall() == [("messages",)]
        assert other.execute("SELECT * FROM messages").fetchall() == [("ann", "hello")]
    other.close()


def test_a_schema_version_stored_as_a_number_is_read_as_that_version(tmp_path):
    """A meta table made by hand (columns without types keep 2 as a number). Before: `schema
    version 2, this toolkit reads 2`, a refusal that contradicts itself."""
    path = tmp_path / "m.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key PRIMARY KEY, value)")
        db.execute("INSERT INTO meta VALUES ('schema_version', 2)")
    db.close()
    store = SqliteStore(path)
    store.append("u", [UserMessage(content="hi")])
    assert SqliteStore(path).get("u") == [UserMessage(content="hi")]


@pytest.mark.parametrize(
    "count, said",
    [
        (
            estimate_tokens,
            "count raised AttributeError ('UserMessage' object has no attribute 'isascii') for a UserMessage",
        ),
        (len, "count raised TypeError (object of type 'UserMessage' has no len()) for a UserMessage"),
        (lambda m: [1, 2], "count gave [1, 2] for a UserMessage"),
        (lambda m: math.nan, "count gave nan for a UserMessage"),
        (lambda m: -1, "count gave -1 for a UserMessage"),
    ],
)
def test_a_count_that_is_not_a_token_count_is_refused_when_the_window_is_made(count, said):
    """Before: `TokenWindow(n, count=estimate_tokens)` (a text function) raised AttributeError at
    the first `add`, mid-turn; a count giving NaN or a negative number made a window that never fills."""
    with pytest.raises(ConfigurationError) as caught:
        TokenWindow(100, count=count)
    assert said in str(caught.value) and str(caught.value).startswith("TokenWindow(100, count=")


def test_the_count_is_checked_at_use_too_by_evict_and_both_stores(tmp_path):
    def count(message):
        return 1 if isinstance(message, UserMessage) else "many"

    window = TokenWindow(100, count=count)  # right for the user message it is tried on
    said = "TokenWindow(100, count=test_the_count_is_checked_at_use_too_by_evict_and_both_stores.<locals>.count): count gave 'many' for an AssistantMessage"
    with pytest.raises(ConfigurationError, match="count gave 'many'") as caught:
        evict([UserMessage(content="q"), AssistantMessage(content="a")], window)
    assert str(caught.value).startswith(said)
    for store in (InMemoryStore(), SqliteStore(tmp_path / "m.db")):
        memory = ChatMemory("u", store=store, window=window)
        memory.add(UserMessage(content="q"))
        with pytest.raises(ConfigurationError, match="count gave 'many'"):
            memory.add(AssistantMessage(content="a"))
        assert memory.messages() == [UserMessage(content="q")]


def test_counts_of_other_number_types_still_work():
    assert TokenWindow(10, count=lambda m: len(m.content or "") / 4).weights([UserMessage(content="abcdef")]) == [1.5]
    assert TokenWindow(10, count=lambda m: True).weights([UserMessage(content="x")]) == [True]


def test_a_path_in_the_home_folder_written_with_a_tilde_is_there(tmp_path, monkeypatch):
    """Before: SQLite took '~' as a folder name: 'unable to open database file', or with a folder
    named '~' in the working folder, a store nobody would find again."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(tmp_path)
    SqliteStore("~/memory.db").append("u", [UserMessage(content="hi")])
    assert SqliteStore(tmp_path / "home" / "memory.db").get("u") == [UserMessage(content="hi")]
    assert not (tmp_path / "~").exists()


@pytest.mark.parametrize(
    ("schema", "listed"),
    [
        (["CREATE VIEW report AS SELECT 1 AS total"], "views: report"),
        (["CREATE VIEW messages AS SELECT 1 AS memory_id"], "views: messages"),
        (
            ["CREATE TABLE notes (body TEXT)", "CREATE VIEW messages AS SELECT body FROM notes"],
            "tables and views: messages, notes",
        ),
    ],
)
def test_another_programs_views_are_refused_and_left_untouched(tmp_path, schema, listed):
    """Before: a database of views only got the store's tables added; a view named `messages` failed
    with advice about write permissions."""
    path = tmp_path / "app.db"
    with sqlite3.connect(path) as other:
        for statement in schema:
            other.execute(statement)
        before = other.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    other.close()
    assert_refused_as_another_programs(path, listed)
    with sqlite3.connect(path) as other:
        assert other.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall() == before
    other.close()


def test_a_count_giving_a_tokenizers_whole_output_is_named_in_one_short_line():
    """Before: `count=lambda m: enc.encode(m.content)` (a tiktoken-like tokenizer's list of tokens,
    not their number) made an error holding the whole list: a 100,000-token message, a 600,000-character
    line. A weight whose repr raises was a bare exception from inside the error's own making."""

    class Tokens(list):
        def __repr__(self):
            raise RuntimeError("no repr")

    with pytest.raises(ConfigurationError) as caught:
        TokenWindow(100, count=lambda m: list(range(100_000)))
    assert str(caught.value) == (
        "TokenWindow(100, count=test_a_count_giving_a_tokenizers_whole_output_is_named_in_one_short_line.<locals>."
        "<lambda>): count gave [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, … "
        "for a UserMessage; it must return the message's tokens as a number, 0 or more (a tokenizer's list of "
        "tokens: its len)"
    )
    with pytest.raises(ConfigurationError, match=r"count gave <Tokens object> for a UserMessage; .* its len\)$"):
        TokenWindow(100, count=lambda m: Tokens([1, 2]))
    with pytest.raises(ConfigurationError) as caught:  # a Hugging Face tokenizer's call: an encoding, a mapping
        TokenWindow(100, count=lambda m: {"input_ids": [1, 2], "attention_mask": [1, 1]})
    assert str(caught.value).endswith(
        "0 or more (a tokenizer's encoding: the len of its token ids, e.g. len(tokenizer(text)['input_ids']))"
    )
    with pytest.raises(ConfigurationError, match=r"count gave 'many' for a UserMessage; .* or more \(a window "):
        TokenWindow(100, count=lambda m: "many")


def test_a_count_in_fractions_of_a_token_is_added_up_exactly_by_evict_and_both_stores(tmp_path):
    """Before: a count such as `len(text) / 10` (a common estimate) was added up in floating point,
    so 0.2 + 0.4 + 0.3 + 0.1 tokens made 1.0000000000000002, over a `TokenWindow(1)` they fit, and
    the first question and answer left; the stores' running totals (added to and taken from at each
    append) drifted apart from `evict`'s sums, so `InMemoryStore`, `SqliteStore` and a restart kept
    different conversations → the weights are added up exactly."""
    window = TokenWindow(1, count=lambda m: len(m.content or "") / 10)
    conversation = [
        UserMessage(content="qq"),
        AssistantMessage(content="aaaa"),
        UserMessage(content="qqq"),
        AssistantMessage(content="a"),
    ]
    assert evict(conversation, window) == conversation
    assert window.fits(conversation)
    drift = TokenWindow(8, count=lambda m: len(m.content or "") / 3)  # 7/3 + 8/3 + 2/3 + 1 + 0 + 4/3 = 8
    system = [SystemMessage(content="syssys9")]
    turns = [UserMessage(content="q" * 8), UserMessage(content="qq"), AssistantMessage(content="aaa")]
    call = AssistantMessage(content=None, tool_calls=(ToolCall(id="c1", name="t", arguments="{}"),))
    result = ToolResultMessage(tool_call_id="c1", content="rrrr")
    for store in (InMemoryStore(), SqliteStore(tmp_path / "m.db")):
        memory = ChatMemory("u", store=store, window=window)
        for message in conversation:
            memory.add(message)
        assert memory.messages() == conversation
        memory = ChatMemory("d", store=store, window=drift)
        memory.add(*system)
        for message in turns:
            memory.add(message)
        memory.add(call, result)
        assert memory.messages() == system + turns + [call, result]
    assert ChatMemory("d", store=SqliteStore(tmp_path / "m.db")).messages() == system + turns + [call, result]


@pytest.mark.parametrize(
    "change, table, column",
    [
        ("ALTER TABLE messages DROP COLUMN checksum", "messages", "checksum"),
        ("ALTER TABLE conversations DROP COLUMN system_checksum", "conversations", "system_checksum"),
        ("ALTER TABLE conversations DROP COLUMN next_seq", "conversations", "next_seq"),
        ("ALTER TABLE messages RENAME COLUMN payload TO body", "messages", "payload"),
    ],
)
def test_a_store_missing_a_column_is_refused_naming_it_and_left_as_it_is(tmp_path, change, table, column):
    """Before: a store whose `checksum` column another program dropped opened, then every read failed
    with SQLite's "no such column: checksum" and advice about permissions and disk room."""
    path = tmp_path / "m.db"
    SqliteStore(path).append("u", [UserMessage(content="hi")])
    with sqlite3.connect(path) as db:
        db.execute("DROP INDEX IF EXISTS system_rows")  # SQLite refuses to drop a column an index or trigger names
        db.execute("DROP TRIGGER IF EXISTS deleted_rows")
        db.execute(change)
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path)
    assert str(caught.value) == (
        f"{path}: the memory store's table {table} has no column {column} (another program changed its layout); it "
        "was left as it is. Restore the file from a backup, or give the memory a new file, e.g. 'memory.db'"
    )
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM messages").fetchone() == (1,)
        assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'system_rows'").fetchone() == (
            0,
        )  # not made again


@pytest.mark.parametrize(
    "payload", ["[" * 100_000 + "]" * 100_000, ' {"content": ' + "[" * 100_000 + "]" * 100_000 + "}"]
)
def test_a_row_nested_too_deep_to_read_is_a_typed_line_and_the_rest_stays(tmp_path, payload):
    """A row another program wrote (its checksum right) nested 100,000 deep raised a bare
    `RecursionError` out of `get`: no path, no id, no row."""
    from toolkit.memory import store as store_module

    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.append("x", [UserMessage(content="hi"), AssistantMessage(content="hello")])
    store.append("y", [UserMessage(content="kept")])
    store._db.execute(
        "UPDATE messages SET payload = ?, checksum = ? WHERE memory_id = 'x' AND seq = 1",
        (payload, store_module._checksum("x", 1, payload)),
    )
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path).get("x")
    assert str(caught.value) == (
        f"{path}: memory id 'x', row 1 is not a valid message (nested too deeply to read); delete that id or "
        "restore the file from a backup"
    )
    assert SqliteStore(path).get("y") == [UserMessage(content="kept")]


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_a_memory_id_past_the_longest_is_refused_in_every_store_before_it_is_touched(tmp_path, store):
    """Before: a 10 MB id (a text pasted where the id goes, a header a stranger fills) was stored with every
    message: 40 messages made an 880 MB SqliteStore."""
    from toolkit.errors import MemoryIdError
    from toolkit.memory.windows import MAX_ID_CHARS

    made = InMemoryStore() if store == "memory" else SqliteStore(tmp_path / "m.db")
    name = type(made).__name__
    longest = "u" * MAX_ID_CHARS
    made.append(longest, [UserMessage(content="hi")])
    assert [m.content for m in made.get(longest)] == ["hi"]
    for huge in ("x" * (MAX_ID_CHARS + 1), "é" * 10_000_000):
        with pytest.raises(MemoryIdError) as caught:
            made.append(huge, [UserMessage(content="hi")])
        start = repr(huge[:80])[:79] + "…"
        assert str(caught.value) == (
            f"{name}.append: memory id {start} is {len(huge):,} characters long, past the 4,096 an id may have "
            "(every stored message carries its id: a 10 MB id made each message of SqliteStore 10 MB); use a short "
            "key for the conversation, e.g. hashlib.sha256(memory_id.encode()).hexdigest()"
        )
    if store == "sqlite":
        assert made.memory_ids() == [longest]
    with pytest.raises(MemoryIdError):
        ChatMemory("y" * (MAX_ID_CHARS + 1))
