"""`InMemoryStore.append` and `ChatMemory.add` fast paths keep the plain paths' results and checks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ConfigurationError
from toolkit.memory.windows import ChatMemory, InMemoryStore, with_system


class MySystem(SystemMessage):
    pass


class MyUser(UserMessage):
    pass


def plain_append(current: list, messages) -> list:
    """The append before the fast paths: a system message through `with_system`."""
    for m in messages:
        current = with_system(current, m) if isinstance(m, SystemMessage) else current + [m]
    return current


MESSAGES = [
    SystemMessage(content="s1"),
    SystemMessage(content="s2"),
    MySystem(content="s3"),
    UserMessage(content="u"),
    MyUser(content="u2"),
    AssistantMessage(tool_calls=(ToolCall(id="c1", name="f", arguments="{}"),)),
    ToolResultMessage(tool_call_id="c1", tool_name="f", content="r"),
    AssistantMessage(content="a"),
]
message_lists = st.lists(st.sampled_from(MESSAGES), max_size=6)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("append"), message_lists),
        st.tuples(st.just("set"), message_lists),  # may put a system message anywhere
        st.tuples(st.just("update"), message_lists),
        st.tuples(st.just("delete"), st.just([])),
    ),
    max_size=12,
)


@settings(max_examples=400, deadline=None)
@given(operations)
def test_the_store_holds_what_the_plain_append_gives(ops):
    store, expected = InMemoryStore(), []
    for op, messages in ops:
        if op == "append":
            store.append("id", messages)
            expected = plain_append(expected, messages)
        elif op == "set":
            store.set("id", messages)
            expected = list(messages)
        elif op == "update":
            store.update("id", lambda current, extra=messages: current[::-1] + extra)
            expected = expected[::-1] + list(messages)
        else:
            store.delete("id")
            expected = []
        got = store.get("id")
        assert got == expected and [type(m) for m in got] == [type(m) for m in expected]


def test_a_system_message_costs_no_copy_of_a_long_conversation():
    store = InMemoryStore()
    store.set("id", [UserMessage(content=str(i)) for i in range(1000)])
    store.append("id", [SystemMessage(content="first")])  # one rebuild: the set list is unknown
    held = store._data["id"]
    store.append("id", [SystemMessage(content="second"), UserMessage(content="x")])
    assert store._data["id"] is held and held[0].content == "second" and len(held) == 1002


def test_add_accepts_subclasses_and_refuses_what_is_not_a_message():
    memory = ChatMemory("id")
    memory.add(MyUser(content="u"), UserMessage(content="v"))
    assert [type(m) for m in memory.messages()] == [MyUser, UserMessage]
    for bad in ("text", {"role": "user", "content": "x"}, None):
        with pytest.raises(ConfigurationError, match="not a message record"):
            memory.add(UserMessage(content="w"), bad)  # type: ignore[arg-type]
    assert len(memory.messages()) == 2  # refused before the store is touched
    memory.add(*[UserMessage(content=str(i)) for i in range(5000)])
    assert len(memory.messages()) == 5002


def test_append_takes_any_sequence():
    store = InMemoryStore()
    store.append("id", (m for m in [UserMessage(content="a"), SystemMessage(content="s")]))  # type: ignore[arg-type]
    assert [m.content for m in store.get("id")] == ["s", "a"]
