import pytest

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.memory.windows import ChatMemory, InMemoryStore, MessageWindow, TokenWindow, evict, message_tokens

SYSTEM = SystemMessage(content="你是电商客服。")


def turn(i, calls=0):
    """A user question, optionally an assistant tool-call message with its results, then an answer."""
    out = [UserMessage(content=f"问题{i}")]
    if calls:
        ids = [f"c{i}_{k}" for k in range(calls)]
        out.append(AssistantMessage(tool_calls=tuple(ToolCall(id=x, name="query_order", arguments="{}") for x in ids)))
        out += [ToolResultMessage(tool_call_id=x, tool_name="query_order", content="结果") for x in ids]
    out.append(AssistantMessage(content=f"回答{i}"))
    return out


def orphan_free(messages):
    seen = set()
    for m in messages:
        if isinstance(m, AssistantMessage):
            seen |= {c.id for c in m.tool_calls}
        if isinstance(m, ToolResultMessage) and m.tool_call_id not in seen:
            return False
    return True


def test_message_window_keeps_system_and_newest():
    memory = ChatMemory(window=MessageWindow(4))
    memory.add(SYSTEM, *turn(1), *turn(2))
    assert memory.messages() == [SYSTEM, AssistantMessage(content="回答1"), *turn(2)]


def test_a_tool_call_leaves_with_all_its_results():
    memory = ChatMemory(window=MessageWindow(5))
    memory.add(SYSTEM, *turn(1, calls=2), *turn(2))
    kept = memory.messages()
    assert kept == [SYSTEM, AssistantMessage(content="回答1"), *turn(2)]
    assert orphan_free(kept)


@pytest.mark.parametrize("size", range(4, 14))
@pytest.mark.parametrize("window_kind", ["messages", "tokens"])
def test_eviction_never_orphans_a_tool_result(size, window_kind):
    window = MessageWindow(size) if window_kind == "messages" else TokenWindow(size * 3)
    history = [SYSTEM] + turn(1, 3) + turn(2, 1) + turn(3, 2) + turn(4)
    kept = evict(history, window)
    assert orphan_free(kept)
    assert kept[0] == SYSTEM
    assert window.fits(kept) or kept == [SYSTEM, *turn(4)]  # the current turn is never cut
    assert history[len(history) - len(kept) + 1 :] == kept[1:]  # a suffix: newest kept, in order


def test_a_new_system_message_replaces_the_old_one():
    memory = ChatMemory()
    memory.add(SYSTEM, UserMessage(content="hi"))
    memory.add(SystemMessage(content="新规则"))
    assert memory.messages() == [SystemMessage(content="新规则"), UserMessage(content="hi")]


def test_token_window_counts_with_the_given_counter():
    memory = ChatMemory(window=TokenWindow(2, count=lambda m: 1))
    memory.add(UserMessage(content="a"), UserMessage(content="b"), UserMessage(content="c"))
    assert [m.content for m in memory.messages()] == ["b", "c"]


def test_default_token_count_includes_tool_calls():
    call = AssistantMessage(tool_calls=(ToolCall(id="x", name="abcd", arguments='{"a":1}'),))
    assert message_tokens(call) == 1 + 2
    assert message_tokens(UserMessage(content="订单")) == 2


def test_ids_are_isolated_and_set_and_clear_work():
    store = InMemoryStore()
    a, b = ChatMemory("a", store=store), ChatMemory("b", store=store)
    a.add(UserMessage(content="for a"))
    b.add(UserMessage(content="for b"))
    assert [m.content for m in a.messages()] == ["for a"]
    a.set([UserMessage(content="rewritten")])
    assert [m.content for m in a.messages()] == ["rewritten"]
    a.clear()
    assert a.messages() == [] and len(b.messages()) == 1


def test_messages_returns_a_copy():
    memory = ChatMemory()
    memory.add(UserMessage(content="x"))
    memory.messages().append(UserMessage(content="y"))
    assert len(memory.messages()) == 1
