"""`toolkit.memory.windows`: what `ChatMemory` takes. The class given for an instance
(`window=MessageWindow`, `store=SqliteStore`) was taken, then a raw `TypeError` at the first write (the
window) or at once (the store's `turn_lock`); `add_all(message)` read the record field by field
("message 0 (tuple) is not a message record"); `add_all({...})` stored a set in hash order (another
order in each process); `update(3)` was a raw "'int' object is not callable"; `set({...})` said "wrap a single
message in a list". Each is a `ConfigurationError` naming the fix."""

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.errors import ConfigurationError
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory, MessageWindow, TokenWindow


def error_of(make):
    with pytest.raises(ConfigurationError) as caught:
        make()
    return str(caught.value)


def test_a_window_or_store_class_is_refused_at_construction():
    assert error_of(lambda: ChatMemory("a", window=MessageWindow)) == (
        "ChatMemory('a'): window MessageWindow is the class, not a window; make one: window=MessageWindow(20)"
    )
    assert error_of(lambda: ChatMemory("a", window=TokenWindow)) == (
        "ChatMemory('a'): window TokenWindow is the class, not a window; make one: window=TokenWindow(4000)"
    )
    assert error_of(lambda: ChatMemory("a", store=SqliteStore)) == (
        "ChatMemory('a', store=SqliteStore): that is the class, not a store; make one: store=SqliteStore('memory.db')"
    )


def test_one_message_or_a_set_given_to_add_all_is_refused():
    memory = ChatMemory("b")
    assert error_of(lambda: memory.add_all(UserMessage(content="hi"))) == (
        "ChatMemory.add: expected a list of messages, got UserMessage; wrap a single message in a list"
    )
    assert error_of(lambda: memory.add_all({UserMessage(content="a"), UserMessage(content="b")})) == (
        "ChatMemory.add: expected a list of messages, got a set, which has no order (its messages would be stored "
        "in another order in each process); give a list, in the conversation's order"
    )
    assert memory.messages() == []
    memory.add_all(m for m in [UserMessage(content="a")])  # a generator is read in order
    assert memory.messages() == [UserMessage(content="a")]


def test_update_takes_a_function():
    assert error_of(lambda: ChatMemory("c").update([UserMessage(content="a")])) == (
        "ChatMemory.update: change must be a function of the current messages returning the new ones, not list; "
        "to replace them all, use set(messages)"
    )


@pytest.mark.parametrize("kind", [set, frozenset])
@pytest.mark.parametrize("write", ["set", "update"])
def test_a_set_given_to_set_or_returned_by_update_names_the_order(kind, write):
    memory = ChatMemory("d")
    memory.add(UserMessage(content="kept"))
    given = kind({UserMessage(content="a"), UserMessage(content="b")})
    with pytest.raises(ConfigurationError) as caught:  # it said "wrap a single message in a list"
        memory.set(given) if write == "set" else memory.update(lambda current: given)
    assert str(caught.value) == (
        f"ChatMemory.{write}: expected a list of messages, got a {kind.__name__}, which has no order (its messages "
        "would be stored in another order in each process); give a list, in the conversation's order"
    )
    assert memory.messages() == [UserMessage(content="kept")]


def test_a_set_given_to_a_store_names_the_order(tmp_path):
    from toolkit.memory.windows import InMemoryStore

    for store, name in ((InMemoryStore(), "InMemoryStore"), (SqliteStore(str(tmp_path / "m.db")), "SqliteStore")):
        with pytest.raises(ConfigurationError, match=rf"^{name}.set: expected a list of messages, got a set, which"):
            store.set("a", {UserMessage(content="a")})


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("hi", "got str; a text goes in a message record: pass [UserMessage(content=...)]"),
        ({"role": "user", "content": "hi"}, "got dict; a dict is no message record: pass records, e.g. "
         "[UserMessage(content=...)]"),
    ],
)  # fmt: skip
def test_a_text_or_a_dict_given_to_memory_names_the_record_to_make(given, said):
    """Both said "wrap a single message in a list": a text or a dict in a list is no message either."""
    with pytest.raises(ConfigurationError) as caught:
        ChatMemory("ann").add_all(given)
    assert str(caught.value) == f"ChatMemory.add: expected a list of messages, {said}"
