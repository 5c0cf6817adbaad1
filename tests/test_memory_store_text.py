"""`SqliteStore` keeps text exactly, surrogate code points too: a reply streamed in pieces can
hold the two halves of an emoji as two code points of their own (`"\\ud83d"` and `"\\ude00"`
arrived in two chunks), and reading it back must give those two, not the emoji."""

import json
import sqlite3

import pytest

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.memory.store import SqliteStore, _checksum
from toolkit.memory.windows import ChatMemory, InMemoryStore, MessageWindow

HALVES = "\ud83d\ude00"  # two code points: not the same text as "😀"
TEXTS = [HALVES, "a" + HALVES + "😀\udc80b", "\\ud83d\\ude00 as typed", '"\\\n\t\x00/' + HALVES]


def _conversation(text):
    call = ToolCall(id="c" + text, name="f", arguments=json.dumps({"q": text}), extra={"k": text})
    return [
        SystemMessage(content=text),
        UserMessage(content=text),
        AssistantMessage(content=text, tool_calls=(call,), extra={"r": [text, {"n": text}]}),
        ToolResultMessage(tool_call_id=call.id, tool_name=text, content=text, attributes={"a": text}),
        AssistantMessage(content=None, refusal=text),
    ]


@pytest.mark.parametrize("text", TEXTS)
def test_surrogate_code_points_come_back_as_written_after_a_restart(tmp_path, text):
    """Before: the halves came back joined into "😀" (JSON reads a pair of escapes as one character)."""
    assert HALVES != "😀"
    store = SqliteStore(tmp_path / "m.db")
    store.append("u", _conversation(text))
    assert store.get("u") == _conversation(text)
    back = SqliteStore(tmp_path / "m.db").get("u")
    assert back == _conversation(text)
    assert back[1].content == text


def test_a_windowed_memory_keeps_them_as_the_in_memory_store_does(tmp_path):
    memories = [
        ChatMemory("u", store=s, window=MessageWindow(4)) for s in (SqliteStore(tmp_path / "m.db"), InMemoryStore())
    ]
    for memory in memories:
        for message in _conversation(HALVES) + _conversation("x" + HALVES):
            memory.add(message)
    assert memories[0].messages() == memories[1].messages() == SqliteStore(tmp_path / "m.db").get("u")


def test_such_a_payload_is_json_any_reader_takes_and_older_payloads_read_as_before(tmp_path):
    path = tmp_path / "m.db"
    SqliteStore(path).append("u", [UserMessage(content=HALVES)])
    db = sqlite3.connect(path)
    (payload,) = db.execute("SELECT payload FROM messages").fetchone()
    assert json.loads(payload) == {"content": "😀", "role": "user"}  # an older toolkit reads it as it did before
    assert db.execute("SELECT json_valid(payload) FROM messages").fetchone() == (1,)
    old = json.dumps({"content": "é\udc80", "role": "user"}, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    db.execute("UPDATE messages SET payload = ?, checksum = ?", (old, _checksum("u", 0, old)))  # as written before
    db.commit()
    assert SqliteStore(path).get("u") == [UserMessage(content="é\udc80")]


@pytest.mark.parametrize("call_id", ["\udcff", "é\udc80", "c" + HALVES])
def test_a_call_id_with_a_surrogate_does_not_stop_a_windowed_memory(tmp_path, call_id):
    """Before: SQLite's JSON functions read such an id as text that is not UTF-8, and every windowed
    add raised "Could not decode to UTF-8 … an edit made outside toolkit" (a late result for the
    call: UnicodeEncodeError out of the store)."""
    call = AssistantMessage(tool_calls=(ToolCall(id=call_id, name="f", arguments="{}"),))
    result = ToolResultMessage(tool_call_id=call_id, tool_name="f", content="r")
    late = ToolResultMessage(tool_call_id=call_id, tool_name="f", content="late")
    memories = [
        ChatMemory("u", store=s, window=MessageWindow(5)) for s in (SqliteStore(tmp_path / "m.db"), InMemoryStore())
    ]
    for memory in memories:
        memory.add(UserMessage(content="q"), call, result, UserMessage(content="q2"), late)
    memories[0] = ChatMemory("u", store=SqliteStore(tmp_path / "m.db"), window=MessageWindow(5))  # a restart
    for memory in memories:
        for k in range(4):
            memory.add(UserMessage(content=f"u{k}"))
    assert [m.content for m in memories[0].messages()] == ["q2", "u0", "u1", "u2", "u3"]
    assert memories[0].messages() == memories[1].messages() == SqliteStore(tmp_path / "m.db").get("u")
