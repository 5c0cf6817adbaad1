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


def plain_orphan(messages: list) -> bool:
    """Whether a tool result in `messages` answers no call of an earlier message (refused)."""
    asked: set = set()
    for m in messages:
        asked |= {c.id for c in getattr(m, "tool_calls", ())}
        if isinstance(m, ToolResultMessage) and m.tool_call_id not in asked:
            return True
    return False


@settings(max_examples=400, deadline=None)
@given(operations)
def test_the_store_holds_what_the_plain_append_gives(ops):
    """The plain append's list, or a `ConfigurationError` (nothing changed) exactly when it
    would hold a tool result that answers no earlier call."""
    store, expected = InMemoryStore(), []
    for op, messages in ops:
        if op == "append":
            write, new = (lambda m=messages: store.append("id", m)), plain_append(expected, messages)
        elif op == "set":
            write, new = (lambda m=messages: store.set("id", m)), list(messages)
        elif op == "update":
            write = lambda extra=messages: store.update("id", lambda current: current[::-1] + extra)  # noqa: E731
            new = expected[::-1] + list(messages)
        else:
            write, new = (lambda: store.delete("id")), []
        if plain_orphan(new):
            with pytest.raises(ConfigurationError, match="which no earlier assistant message asked for"):
                write()
        else:
            write()
            expected = new
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


@settings(max_examples=200, deadline=None)
@given(st.lists(message_lists, max_size=5))
def test_add_all_keeps_what_add_gives(batches):
    by_add, by_list, by_tuple = ChatMemory("a"), ChatMemory("b"), ChatMemory("c")
    for batch in batches:
        refusals = []
        for add in (
            lambda b=batch: by_add.add(*b),
            lambda b=batch: by_list.add_all(list(b)),
            lambda b=batch: by_tuple.add_all(tuple(b)),
        ):
            try:
                add()
                refusals.append(None)
            except ConfigurationError as exc:  # a tool result that answers no call
                refusals.append(str(exc))
        assert refusals[0] == refusals[1] == refusals[2]
    assert by_list.messages() == by_add.messages() == by_tuple.messages()


def test_add_all_copies_the_callers_list_and_checks_it_as_add_does():
    memory = ChatMemory("id")
    mine = [UserMessage(content="u"), AssistantMessage(content="a")]
    memory.add_all(mine)
    mine.append(UserMessage(content="later"))  # the caller's list is not memory's
    mine[0] = "junk"  # type: ignore[call-overload]
    assert [m.content for m in memory.messages()] == ["u", "a"]
    with pytest.raises(ConfigurationError, match="message 1 .* not a message record"):
        memory.add_all([UserMessage(content="w"), "text"])  # type: ignore[list-item]
    with pytest.raises(ConfigurationError, match=r"got str; a text goes in a message record"):
        memory.add_all("text")  # type: ignore[arg-type]  # no longer read letter by letter
    memory.add_all(m for m in [UserMessage(content="g")])  # any iterable, as unpacking takes
    assert [m.content for m in memory.messages()] == ["u", "a", "g"]


def test_a_store_of_its_own_gets_a_tuple_never_the_callers_list():
    class Keeping(InMemoryStore):
        def append(self, memory_id, messages):
            self.given = messages
            super().append(memory_id, messages)

    store = Keeping()
    memory = ChatMemory("id", store=store)
    mine = [UserMessage(content="u")]
    memory.add_all(mine)
    assert type(store.given) is tuple and list(store.given) == mine
