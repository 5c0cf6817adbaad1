"""`InMemoryStore`'s one-pass check of a short write (a loop's appends, a learner's adds) (`_loop_messages_answered`) is the plain
checks (`check_storable`, then `answered`) made quicker: whenever it says a batch passes, the
plain checks pass it too, and a batch it does not pass is left to them (a store then says what
they say). Generated batches of assistant messages and tool results, against generated stored lists."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.errors import ConfigurationError
from toolkit.memory.answers import CallIndex, answered
from toolkit.memory.storable import check_storable
from toolkit.memory.windows import InMemoryStore, _loop_messages_answered

IDS = st.sampled_from(["c1", "c2", "c3", ""])
calls = st.builds(
    lambda i, extra: ToolCall(id=i, name="f", arguments="{}", extra=extra),
    IDS,
    st.sampled_from([{}, {"k": 1}, {"k": math.nan}]),
)
assistants = st.builds(
    lambda cs, extra: AssistantMessage(content="x", tool_calls=tuple(cs), extra=extra),
    st.lists(calls, max_size=2),
    st.sampled_from([{}, {"reasoning_content": "r"}]),
)
results = st.builds(
    lambda i, attrs: ToolResultMessage(tool_call_id=i, tool_name="f", content="r", attributes=attrs),
    IDS,
    st.sampled_from([{}, {"a": 1}, {"a": math.inf}]),
)
images = st.builds(
    lambda ids: UserMessage(content="images", from_tool_calls=tuple(ids)), st.lists(IDS, min_size=1, max_size=2)
)


def _plain_passes(batch, stored) -> bool:
    try:
        check_storable(batch, "InMemoryStore.append")
        answered(batch, "InMemoryStore.append", CallIndex.of(stored).asks)
    except ConfigurationError:
        return False
    return True


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    stored=st.lists(st.one_of(assistants, results, images), max_size=6),
    batch=st.lists(st.one_of(assistants, results, images), min_size=1, max_size=3),
    indexed=st.booleans(),
)
def test_the_one_pass_check_passes_nothing_the_plain_checks_refuse(stored, batch, indexed):
    calls = CallIndex.of(stored) if indexed else None
    if _loop_messages_answered(batch, calls, stored):
        assert _plain_passes(batch, stored)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(batch=st.lists(st.one_of(assistants, results, images), min_size=1, max_size=3))
def test_a_store_refuses_what_the_plain_checks_refuse_and_keeps_what_they_pass(batch):
    store = InMemoryStore()
    store.append("x", [UserMessage(content="q"), AssistantMessage(tool_calls=(ToolCall(id="c1", name="f"),))])
    before = store.get("x")
    try:
        store.append("x", batch)
    except ConfigurationError:
        assert not _plain_passes(batch, before)
        assert store.get("x") == before
    else:
        assert _plain_passes(batch, before)
        assert store.get("x") == before + batch
