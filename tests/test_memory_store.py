import json
import random
import sqlite3
import subprocess
import sys
import threading

import pytest

from toolkit.chat.messages import (
    AssistantMessage,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    dump_message,
)
from toolkit.errors import MemoryStoreError
from toolkit.memory import store as store_module
from toolkit.memory.store import SqliteStore, _dropped
from toolkit.memory.windows import ChatMemory, MessageWindow

CONVERSATION = [
    SystemMessage(content="你是电商客服。"),
    UserMessage(content="帮我找查物流的工具"),
    AssistantMessage(
        content=None, tool_calls=(ToolCall(id="c1", name="tool_search_tool", arguments='{"terms":["物流"]}'),)
    ),
    ToolResultMessage(
        tool_call_id="c1",
        tool_name="tool_search_tool",
        content="query_logistics",
        attributes={"found_tools": ["query_logistics"], "activated_skill": "ecom"},
    ),
    AssistantMessage(content="找到了 ✓"),
]


def test_round_trip_across_a_process_restart_is_exact(tmp_path):
    path = tmp_path / "memory.db"
    store = SqliteStore(path)
    store.set("user-1", CONVERSATION)
    store.close()
    dumped = [json.dumps(dump_message(m), sort_keys=True) for m in CONVERSATION]
    code = (
        "import sys, json; from toolkit.memory.store import SqliteStore; from toolkit.chat.messages import dump_message;"
        "[print(json.dumps(dump_message(m), sort_keys=True)) for m in SqliteStore(sys.argv[1]).get('user-1')]"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == dumped
    assert SqliteStore(path).get("user-1") == CONVERSATION


def test_attributes_survive(tmp_path):
    store = SqliteStore(tmp_path / "m.db")
    store.set("x", CONVERSATION)
    assert store.get("x")[3].attributes == {"found_tools": ["query_logistics"], "activated_skill": "ecom"}


def test_32_concurrent_writers_on_distinct_ids_do_not_mix(tmp_path):
    store = SqliteStore(tmp_path / "m.db")
    errors = []

    def writer(i):
        try:
            memory = ChatMemory(f"id-{i}", store=store)
            for k in range(10):
                memory.add(UserMessage(content=f"{i}:{k}"))
        except Exception as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(store.memory_ids()) == 32
    for i in range(32):
        assert [m.content for m in store.get(f"id-{i}")] == [f"{i}:{k}" for k in range(10)]


def test_a_file_that_is_not_a_database_is_reported(tmp_path):
    path = tmp_path / "m.db"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(MemoryStoreError) as info:
        SqliteStore(path)
    assert str(info.value) == (
        f"cannot open memory database {path}: file is not a database (the file may be "
        "corrupted or truncated; move it away to start a fresh one)"
    )


def test_a_truncated_database_is_reported_not_crashed(tmp_path):
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("x", CONVERSATION * 200)
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(MemoryStoreError, match="may be corrupted or truncated"):
        SqliteStore(path).get("x")


def test_a_corrupted_payload_names_the_id_and_row(tmp_path):
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("x", CONVERSATION)
    payload = '{"role": "robot"}'
    checksum = store_module._checksum("x", 2, payload)  # a consistent row that is still not a message
    store._db.execute("UPDATE messages SET payload = ?, checksum = ? WHERE seq = 2", (payload, checksum))
    with pytest.raises(MemoryStoreError) as info:
        store.get("x")
    assert str(info.value) == (
        f"{path}: memory id 'x', row 2 holds a message this toolkit does not read (role 'robot', not one of "
        "system, user, assistant, tool): its checksum is right, so a toolkit wrote it, maybe a newer one; read it "
        "with that toolkit (pip install -U toolkit-course), or delete that id or restore the file from a backup. "
        "The file was left as it was"
    )


@pytest.mark.parametrize(
    ("payload", "named"),
    [
        ('{"content":"hi","role":"user","lang":"en"}', "a user message with a field 'lang' this toolkit does not know"),
        ('{"content":"hi","role":"developer"}', "role 'developer', not one of system, user, assistant, tool"),
    ],
)
def test_a_row_a_newer_toolkit_wrote_is_named_so_and_never_called_damaged(tmp_path, payload, named):
    """A newer toolkit's message (a field, or a role, this one does not know) in a row whose checksum is right
    was "not a valid message (ValidationError); delete that id": a learner told to delete a conversation that
    is whole. Now the error names what this toolkit does not read and says to read it with the newer one."""
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("x", CONVERSATION)
    store._db.execute(
        "UPDATE messages SET payload = ?, checksum = ? WHERE seq = 1",
        (payload, store_module._checksum("x", 1, payload)),
    )
    for read in (lambda: SqliteStore(path).get("x"), lambda: store.get("x")):
        with pytest.raises(MemoryStoreError) as info:
            read()
        assert f"row 1 holds a message this toolkit does not read ({named}): its checksum is right" in str(info.value)
        assert "pip install -U toolkit-course" in str(info.value)
    memory = ChatMemory("x", store=store, window=MessageWindow(4))
    with pytest.raises(MemoryStoreError, match="does not read"):
        memory.add(UserMessage(content="and now?"))
    raw = sqlite3.connect(path).execute("SELECT payload FROM messages WHERE memory_id = 'x' AND seq = 1").fetchone()
    assert raw == (payload,)  # left as it was


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "m.db"
    SqliteStore(path)._db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(MemoryStoreError, match="schema version 99, this toolkit reads 2"):
        SqliteStore(path)


def test_delete_and_ids(tmp_path):
    store = SqliteStore(tmp_path / "m.db")
    store.set("a", CONVERSATION[:1])
    store.set("b", CONVERSATION[:2])
    store.delete("a")
    assert store.memory_ids() == ["b"] and store.get("a") == []


# --- issue 14, "Memory store" -------------------------------------------------------------

WRITER = """
import sys
from toolkit.chat.messages import UserMessage
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory, MessageWindow
memory = ChatMemory("shared", store=SqliteStore(sys.argv[1]))
sys.stdout.write("ready\\n"); sys.stdout.flush(); sys.stdin.readline()
for k in range(200):
    memory.add(UserMessage(content=f"{sys.argv[2]}:{k}"))
"""


def test_two_processes_appending_to_one_id_lose_nothing(tmp_path):
    path = tmp_path / "m.db"
    SqliteStore(path).close()
    env_path = {"PYTHONPATH": str(__import__("pathlib").Path(__file__).resolve().parents[1])}
    env = {**__import__("os").environ, **env_path}
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), name], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        )
        for name in ("a", "b")
    ]
    for w in writers:
        assert w.stdout.readline() == b"ready\n"
    for w in writers:  # both start appending at once
        w.stdin.write(b"go\n")
        w.stdin.flush()
    for w in writers:
        assert w.wait(timeout=120) == 0
    contents = [m.content for m in SqliteStore(path).get("shared")]
    assert len(contents) == 400
    for name in ("a", "b"):
        assert [c for c in contents if c.startswith(f"{name}:")] == [f"{name}:{k}" for k in range(200)]


def test_a_message_changed_in_place_to_other_valid_json_is_reported(tmp_path):
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("x", CONVERSATION)
    changed = json.dumps(dump_message(UserMessage(content="退款到我的账户")), ensure_ascii=False, sort_keys=True)
    store._db.execute("UPDATE messages SET payload = ? WHERE memory_id = 'x' AND seq = 0", (changed,))
    with pytest.raises(MemoryStoreError) as info:
        store.get("x")
    assert str(info.value) == (
        f"{path}: memory id 'x', row 0: the checksum does not match, the row was changed outside toolkit; "
        "delete that id or restore the file from a backup"
    )


@pytest.mark.parametrize("seq", [0, 2, 3])
def test_a_row_deleted_outside_toolkit_is_reported(tmp_path, seq):
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("x", CONVERSATION)
    store._db.execute("DELETE FROM messages WHERE memory_id = 'x' AND seq = ?", (seq,))
    with pytest.raises(MemoryStoreError) as info:
        store.get("x")
    assert str(info.value) == (
        f"{path}: memory id 'x': row {seq} is missing or out of place (rows 0..3 expected, found 3); "
        "delete that id or restore the file"
    )


def test_an_orphaned_tool_result_is_reported_even_with_consistent_checksums(tmp_path):
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("x", CONVERSATION)
    rows = store._db.execute("SELECT seq, payload FROM messages WHERE memory_id = 'x' ORDER BY seq").fetchall()
    store._db.execute("DELETE FROM messages WHERE memory_id = 'x'")
    kept = [payload for seq, payload in rows if seq != 1]  # the assistant's tool call goes
    for seq, payload in enumerate(kept):
        store._insert("x", seq, payload)
    store._db.execute("UPDATE conversations SET next_seq = ? WHERE memory_id = 'x'", (len(kept),))
    with pytest.raises(MemoryStoreError) as info:
        store.get("x")
    assert str(info.value) == (
        f"{path}: memory id 'x', row 1: tool result for call 'c1' answers no earlier call (a row was removed); "
        "delete that id or restore the file from a backup"
    )


def test_a_zero_byte_file_is_a_new_empty_store(tmp_path):
    """Documented in the module docstring: SQLite treats a 0-byte file as an empty database."""
    path = tmp_path / "m.db"
    path.write_bytes(b"")
    store = SqliteStore(path)
    assert store.get("x") == [] and store.memory_ids() == []
    store.set("x", CONVERSATION)
    assert SqliteStore(path).get("x") == CONVERSATION


def test_text_with_a_lone_surrogate_is_stored_losslessly(tmp_path):
    import os

    name = os.fsdecode(b"report-\xff.txt")  # what a non-UTF-8 file name becomes
    path = tmp_path / "m.db"
    asked = AssistantMessage(tool_calls=(ToolCall(id="c", name="ls", arguments="{}"),))
    SqliteStore(path).set("x", [UserMessage(content="list files"), asked])
    ChatMemory("x", store=SqliteStore(path)).add(ToolResultMessage(tool_call_id="c", tool_name="ls", content=name))
    assert SqliteStore(path).get("x")[2].content == name


def test_a_tool_result_with_a_lone_surrogate_keeps_the_loop_and_memory_valid(tmp_path):
    import os

    from toolkit.chat.scripted import ScriptedModel
    from toolkit.loop.run import run_loop
    from toolkit.tools.decorator import tool

    @tool
    def list_files() -> str:
        """List the files."""
        return os.fsdecode(b"report-\xff.txt")

    memory = ChatMemory("x", store=SqliteStore(tmp_path / "m.db"))
    model = ScriptedModel([ToolCall(id="c1", name="list_files", arguments="{}"), "有一个文件"])
    assert (
        run_loop(model, [UserMessage(content="有哪些文件？")], tools=[list_files], memory=memory).answer == "有一个文件"
    )
    stored = SqliteStore(tmp_path / "m.db").get("x")
    assert [type(m).__name__ for m in stored] == [
        "UserMessage",
        "AssistantMessage",
        "ToolResultMessage",
        "AssistantMessage",
    ]
    assert stored[2].content == os.fsdecode(b"report-\xff.txt")


def version_1_db(path, rows=""):
    """A store file in the version-1 layout (`schema_version` 1, payloads by memory id and seq), `rows`
    (SQL) run in it too: the open connection, for the caller to add to, commit and close."""
    import sqlite3

    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE messages (memory_id TEXT NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL,"
        " PRIMARY KEY (memory_id, seq));"
        "INSERT INTO meta VALUES ('schema_version', '1');" + rows
    )
    return db


def test_a_store_in_the_version_1_layout_is_migrated(tmp_path):
    path = tmp_path / "m.db"
    db = version_1_db(path)
    for seq, message in enumerate(CONVERSATION):
        payload = json.dumps(dump_message(message), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        db.execute("INSERT INTO messages VALUES ('user-1', ?, ?)", (seq, payload))
    db.commit()
    db.close()
    store = SqliteStore(path)
    assert store.get("user-1") == CONVERSATION
    assert store._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("2",)
    ChatMemory("user-1", store=store).add(UserMessage(content="还有吗"))
    assert SqliteStore(path).get("user-1") == [*CONVERSATION, UserMessage(content="还有吗")]


def test_append_writes_one_row_per_message_and_rewrites_nothing(tmp_path):
    store = SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("x", store=store)
    memory.add(*CONVERSATION)
    before = store._db.execute("SELECT seq, checksum FROM messages ORDER BY seq").fetchall()
    memory.add(UserMessage(content="再问一句"))
    after = store._db.execute("SELECT seq, checksum FROM messages ORDER BY seq").fetchall()
    assert after[: len(before)] == before and len(after) == len(before) + 1


def test_a_windowed_memory_on_sqlite_deletes_evicted_rows(tmp_path):
    from toolkit.memory.windows import MessageWindow

    store = SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("x", store=store, window=MessageWindow(4))
    for k in range(10):
        memory.add(UserMessage(content=f"q{k}"), AssistantMessage(content=f"a{k}"))
    assert [m.content for m in SqliteStore(tmp_path / "m.db").get("x")] == ["q8", "a8", "q9", "a9"]
    assert store._db.execute("SELECT MIN(seq), COUNT(*) FROM messages").fetchone() == (16, 4)


def test_a_user_message_with_images_survives_and_plain_rows_stay_as_they_were(tmp_path):
    """Issue 15.14: images and the loop's marker are stored; a message without images is stored
    exactly as before (no empty `images` key), so old rows and new rows read the same."""
    store = SqliteStore(tmp_path / "m.db")
    call = AssistantMessage(tool_calls=(ToolCall(id="c1", name="chart"),))
    result = ToolResultMessage(
        tool_call_id="c1",
        tool_name="chart",
        content="ok",
        attributes={"images": ["data:image/png;base64,iVBORw0KGgo="]},
    )
    carrier = UserMessage(
        content="Images returned by tool call c1 (chart): 1",
        images=("data:image/png;base64,iVBORw0KGgo=",),
        from_tool_calls=("c1",),
    )
    conversation = [UserMessage(content="画图"), call, result, carrier, AssistantMessage(content="好")]
    store.set("u", conversation)
    assert SqliteStore(tmp_path / "m.db").get("u") == conversation
    payloads = [json.loads(p) for (p,) in store._db.execute("SELECT payload FROM messages ORDER BY seq")]
    assert payloads[0] == {"role": "user", "content": "画图"}


# --- hostile files and arguments: typed errors, nothing lost -----------------------------------


@pytest.mark.parametrize("payload", [b'{"role": "user"}', b"\xff\xfe", 5])
def test_a_payload_changed_to_another_type_is_reported(tmp_path, payload):
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("x", CONVERSATION)
    store._db.execute("UPDATE messages SET payload = ? WHERE seq = 0", (payload,))
    with pytest.raises(MemoryStoreError) as info:
        store.get("x")
    assert str(info.value) == (
        f"{path}: memory id 'x', row 0: the checksum does not match, the row was changed outside toolkit; "
        "delete that id or restore the file from a backup"
    )


@pytest.mark.parametrize(
    ("change", "shown"),
    [
        ("first_seq = 'x'", "first_seq 'x', next_seq 4"),
        ("next_seq = -5", "first_seq 0, next_seq -5"),
        ("next_seq = 2.5", "first_seq 0, next_seq 2.5"),
        ("system = x'00'", "first_seq 0, next_seq 4"),
        # was OverflowError out of append (next_seq + 1 past SQLite's 64-bit integers)
        ("next_seq = 9223372036854775807", "first_seq 0, next_seq 9223372036854775807"),
        (
            "first_seq = 4611686018427387904, next_seq = 4611686018427387904",
            "first_seq 4611686018427387904, next_seq 4611686018427387904",
        ),
    ],
)
def test_a_conversation_row_with_wrong_types_is_reported(tmp_path, change, shown):
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("x", CONVERSATION)
    store._db.execute(f"UPDATE conversations SET {change}")
    for action in (lambda: store.get("x"), lambda: store.append("x", [UserMessage(content="more")])):
        with pytest.raises(MemoryStoreError) as info:
            action()
        assert str(info.value) == (
            f"{path}: memory id 'x': its conversation row was changed outside toolkit ({shown}); "
            "delete that id or restore the file from a backup"
        )


def test_a_huge_next_seq_is_reported_without_building_the_range(tmp_path):
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("x", CONVERSATION)
    store._db.execute("UPDATE conversations SET next_seq = 100000000000")  # was a MemoryError
    with pytest.raises(MemoryStoreError) as info:
        store.get("x")
    assert str(info.value) == (
        f"{path}: memory id 'x': row 4 is missing or out of place (rows 0..99999999999 expected, found 4); "
        "delete that id or restore the file"
    )


def test_a_version_1_payload_that_is_not_utf8_stops_the_migration_with_one_line(tmp_path):
    path = tmp_path / "m.db"
    db = version_1_db(path, "INSERT INTO messages VALUES ('a', 0, x'ff');")
    db.commit()
    db.close()
    with pytest.raises(MemoryStoreError) as info:
        SqliteStore(path)
    assert str(info.value) == (
        f"{path}: cannot migrate from version 1: memory id 'a', row 0 is not a valid message; "
        "repair or delete that row first"
    )


def test_a_version_1_memory_id_that_is_not_text_stops_the_migration_with_one_line(tmp_path):
    """Version 1 took any id: `ChatMemory(b"u")` wrote a blob id, which the migration hashed as JSON
    (a bare `TypeError` from opening the store); it is refused naming the id and the fix, and the
    file is left as it was."""
    import sqlite3

    path = tmp_path / "m.db"
    db = version_1_db(
        path,
        """INSERT INTO messages VALUES ('a', 0, '{"content":"hi","role":"user"}');"""
        """INSERT INTO messages VALUES (x'75', 0, '{"content":"hi","role":"user"}');""",
    )
    db.commit()
    db.close()
    with pytest.raises(MemoryStoreError) as info:
        SqliteStore(path)
    assert str(info.value) == (
        f"{path}: cannot migrate from version 1: memory id b'u' (row 0) is bytes, not text, as memory ids are now; "
        "give its rows a text id or delete them first, e.g. UPDATE messages SET memory_id = CAST(memory_id AS "
        "TEXT) WHERE typeof(memory_id) = 'blob'"
    )
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta").fetchall() == [("1",)]  # left as it was
    db.execute("UPDATE messages SET memory_id = CAST(memory_id AS TEXT) WHERE typeof(memory_id) = 'blob'")
    db.commit()
    db.close()
    assert SqliteStore(path).get("u") == [UserMessage(content="hi")]  # the fix works


def test_a_memory_id_sqlite_cannot_store_is_a_memory_id_error(tmp_path):
    from toolkit.errors import MemoryIdError
    from toolkit.memory.windows import MAX_ID_CHARS

    store = SqliteStore(tmp_path / "m.db")
    with pytest.raises(MemoryIdError) as info:
        store.append("user-\udcff", [UserMessage(content="hi")])
    assert str(info.value) == (
        "SqliteStore.append: memory id 'user-\\udcff' is not valid Unicode text (it holds a lone surrogate, e.g. "
        "from os.fsdecode), which SqliteStore cannot store; decode the bytes it came from properly"
    )
    for odd in ("a/b", "../x", "a\x00b", "é中🙂", "x" * MAX_ID_CHARS):  # the longest id (a longer one: MemoryIdError)
        store.append(odd, [UserMessage(content=odd[:10])])
        assert store.get(odd) == [UserMessage(content=odd[:10])]


@pytest.mark.parametrize(
    ("messages", "problem"),
    [
        ([UserMessage(content="ok"), 5], "message 1 (int) is not a message record"),
        ("hello", "expected a list of messages, got str"),
        (None, "expected a list of messages, got NoneType"),
    ],
)
def test_appending_something_that_is_not_a_message_is_refused_and_loses_nothing(tmp_path, messages, problem):
    from toolkit.errors import ConfigurationError

    store = SqliteStore(tmp_path / "m.db")
    store.set("x", CONVERSATION)
    for action, where in (
        (lambda: store.append("x", messages), "SqliteStore.append"),
        (lambda: store.set("x", messages), "SqliteStore.set"),
        (lambda: store.update("x", lambda current: messages), "SqliteStore.update"),
    ):
        with pytest.raises(ConfigurationError) as info:
            action()
        assert str(info.value).startswith(f"{where}: {problem}")
    assert store.get("x") == CONVERSATION


def test_a_folder_or_a_nul_in_the_path_is_one_line_that_does_not_blame_the_file(tmp_path):
    with pytest.raises(MemoryStoreError) as info:
        SqliteStore(tmp_path)
    assert str(info.value) == (
        f"cannot open memory database {tmp_path}: {tmp_path} is a folder, where SQLite needs a file; name another "
        "file for the store, or move the folder away"
    )
    with pytest.raises(MemoryStoreError) as info:
        SqliteStore("memory\x00.db")
    assert str(info.value) == (
        "SqliteStore('memory\\x00.db'): the path must be a str or Path without NUL characters, e.g. 'memory.db'"
    )


def test_a_message_too_large_for_sqlite_loses_nothing_and_says_so(tmp_path):
    import sqlite3

    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("x", CONVERSATION)
    store._db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 5000)  # SQLite's own limit is about 1 GB
    with pytest.raises(MemoryStoreError) as info:
        store.append("x", [UserMessage(content="a"), UserMessage(content="长" * 10_000)])
    assert str(info.value) == (
        f"cannot append to 'x' in memory database {path}: string or blob too big "
        "(a message is larger than SQLite stores (about 1 GB); nothing was written)"
    )
    assert store.get("x") == CONVERSATION
    store.close()
    with pytest.raises(MemoryStoreError, match=r"\(this store was closed; open a new SqliteStore\)$"):
        store.get("x")


def test_a_tool_result_that_answers_no_call_is_refused_before_it_is_written(tmp_path):
    """The store would refuse to read it back (see above), so it never writes it."""
    from toolkit.errors import ConfigurationError

    store = SqliteStore(tmp_path / "m.db")
    orphan = ToolResultMessage(tool_call_id="zz", tool_name="t", content="r")
    expected = (
        "message 1 is a tool result for call 'zz', which no earlier assistant message asked for; store the "
        "assistant message with that call first (a strict gateway refuses a conversation with such a result)"
    )
    for where, write in [
        ("SqliteStore.append", lambda: store.append("o", [UserMessage(content="q"), orphan])),
        ("SqliteStore.set", lambda: store.set("o", [UserMessage(content="q"), orphan])),
        ("SqliteStore.update", lambda: store.update("o", lambda old: [UserMessage(content="q"), orphan])),
    ]:
        with pytest.raises(ConfigurationError) as info:
            write()
        assert str(info.value) == f"{where}: {expected}"
    assert store.get("o") == []  # nothing was written


def test_a_tool_result_appended_after_its_call_was_stored_is_accepted(tmp_path):
    """The loop stores the reply, then its results, in two appends; the call is found in the store."""
    store = SqliteStore(tmp_path / "m.db")
    calls = (ToolCall(id="c1", name="query_order", arguments="{}"), ToolCall(id="c2", name="query_order"))
    store.append("o", [UserMessage(content="q"), AssistantMessage(tool_calls=calls)])
    store.append("o", [ToolResultMessage(tool_call_id="c1", tool_name="query_order", content="ok")])
    store.append("o", [ToolResultMessage(tool_call_id="c2", tool_name="query_order", content="ok")])
    assert [m.tool_call_id for m in store.get("o")[2:]] == ["c1", "c2"]


def test_a_row_edited_into_text_that_is_not_utf8_says_so(tmp_path):
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.append("a", [UserMessage(content="hi")])
    store._db.execute("UPDATE messages SET payload = CAST(x'ff80' AS TEXT)")
    with pytest.raises(MemoryStoreError) as info:
        store.get("a")
    assert str(info.value).endswith(
        "(a row holds text that is not UTF-8, an edit made outside toolkit; delete that id or restore the file)"
    )


class _Row(str):
    """A payload that counts its comparisons."""

    compared = 0

    def __eq__(self, other):
        type(self).compared += 1
        return str.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = str.__hash__


def test_rows_dropped_from_the_front_cost_a_pass_however_the_conversation_repeats():
    """`_dropped` compared a whole tail for every row equal to `new`'s first: a conversation that
    repeats itself (a load test asking the same question, a bot's same answer) whose `update`
    edited a message in the middle cost n²/8 comparisons (10,000 messages: 12 million). Each row is
    now compared a bounded number of times."""
    old = [_Row("hi") if k % 2 == 0 else _Row("hello") for k in range(4_000)]
    new = [*old[:2_000], _Row("[redacted]"), *old[2_001:]]
    _Row.compared = 0
    assert _dropped(old, new) == 2_000  # old[2000:] repeats new[:2000]: those rows stay, the rest is appended
    assert _Row.compared <= 3 * (len(old) + len(new))
    _Row.compared = 0
    assert _dropped(old, [*old[6:], _Row("next")]) == 6  # the window's shape: 6 rows leave
    assert _Row.compared <= 3 * (len(old) + len(old))


def test_rows_dropped_from_the_front_are_the_fewest_the_plain_search_finds():
    """`_dropped` (a row compared whole only when it starts `new`) = the plain search over every
    `k` (which copied two slices per `k`: quadratic for a conversation losing its last message)."""
    for seed in range(200):  # one test, many cases (a test each cost more to collect than to run)
        rng = random.Random(seed)
        old = [rng.choice("aab") for _ in range(rng.randrange(12))]
        shape = rng.randrange(4)
        if shape == 0:
            new = old[rng.randrange(len(old) + 1) :] + [rng.choice("abc") for _ in range(rng.randrange(3))]
        elif shape == 1:
            new = old[: rng.randrange(len(old) + 1)]
        else:
            new = [rng.choice("aab") for _ in range(rng.randrange(12))]
        plain = next(k for k in range(len(old) + 1) if new[: len(old) - k] == old[k:])
        assert _dropped(old, new) == plain


def test_a_file_damaged_in_one_conversations_rows_says_the_others_still_read(tmp_path):
    """The file opens; one conversation's rows sit on a damaged page, another's do not. Its error said
    "move it away to start a fresh one": the learner lost every conversation to one damaged page. It
    now says the others may still read, and how to copy them to a new file; the file is left as it was."""
    path = tmp_path / "m.db"
    store = SqliteStore(path)
    store.set("a", [UserMessage(content=f"a{i} " + "x" * 300) for i in range(300)])
    store.set("b", [UserMessage(content=f"b{i}") for i in range(5)])
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(path.read_bytes())
    data[10 * 4096 + 8 : 11 * 4096] = b"\xff" * (4096 - 8)  # a leaf page of a's rows
    path.write_bytes(bytes(data))
    damaged = SqliteStore(path)
    assert [m.content for m in damaged.get("b")] == [f"b{i}" for i in range(5)]  # still reads
    for action in (lambda: damaged.get("a"), lambda: damaged.delete("a")):
        with pytest.raises(MemoryStoreError) as info:
            action()
        assert "database disk image is malformed (the file is damaged where this conversation's rows are" in str(
            info.value
        )
        assert "other conversations may still read: copy them to a new file" in str(info.value)
    assert path.read_bytes() == bytes(data)
    recovered = SqliteStore(tmp_path / "recovered.db")  # as the advice says
    for memory_id in damaged.memory_ids():
        try:
            recovered.set(memory_id, damaged.get(memory_id))
        except MemoryStoreError:
            continue
    assert recovered.memory_ids() == ["b"] and len(recovered.get("b")) == 5
