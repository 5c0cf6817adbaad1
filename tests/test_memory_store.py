import json
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
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory

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
    store._db.execute('UPDATE messages SET payload = \'{"role": "robot"}\' WHERE seq = 2')
    with pytest.raises(MemoryStoreError) as info:
        store.get("x")
    assert str(info.value) == (
        f"{path}: message 2 of memory id 'x' is not a valid message (ValidationError); "
        "delete that id or restore the file from a backup"
    )


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "m.db"
    SqliteStore(path)._db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(MemoryStoreError, match="schema version 99, this toolkit reads 1"):
        SqliteStore(path)


def test_delete_and_ids(tmp_path):
    store = SqliteStore(tmp_path / "m.db")
    store.set("a", CONVERSATION[:1])
    store.set("b", CONVERSATION[:2])
    store.delete("a")
    assert store.memory_ids() == ["b"] and store.get("a") == []
