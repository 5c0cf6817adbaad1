import pytest

from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.memory.windows import (
    ChatMemory,
    InMemoryStore,
    MessageWindow,
    TokenWindow,
    _merged,
    _round_part,
    _without_leading_results,
    evict,
    message_tokens,
    with_system,
)

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
    assert memory.messages() == [SYSTEM, *turn(2)]  # 回答1 without its question leaves too


def test_a_tool_call_leaves_with_all_its_results():
    memory = ChatMemory(window=MessageWindow(5))
    memory.add(SYSTEM, *turn(1, calls=2), *turn(2))
    kept = memory.messages()
    assert kept == [SYSTEM, *turn(2)]
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


def test_default_token_count_includes_what_an_assistant_message_sends_back():
    """Before: `reasoning_content` (sent back with a thinking model's tool-call reply, often
    thousands of tokens) and a refusal (sent as the text when there is none) counted nothing: a
    `TokenWindow` kept far more than it was sized for."""
    call = ToolCall(id="x", name="abcd", arguments='{"a":1}')
    reasoning = "先查订单，再查物流。" * 100  # 1,000 wide characters
    thinking = AssistantMessage(tool_calls=(call,), extra={"reasoning_content": reasoning})
    wire = '{"reasoning_content":"' + reasoning + '"}'
    assert message_tokens(thinking) == 1 + 2 + 1000 + (len(wire) - 1000 + 3) // 4
    signed = ToolCall(id="x", name="abcd", arguments='{"a":1}', extra={"extra_content": {"sig": "s" * 400}})
    assert (
        message_tokens(AssistantMessage(tool_calls=(signed,)))
        == 1 + 2 + (len('{"extra_content":{"sig":""}}') + 403) // 4
    )
    assert message_tokens(AssistantMessage(refusal="我不能帮你做这件事")) == 9
    assert message_tokens(AssistantMessage(content="好的", refusal="不")) == 2  # the content goes, not the refusal


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


# --- issue 14 "Windows" and issue 19 item 2 --------------------------------------------------


def test_a_window_never_drops_the_current_user_message_or_round():
    """MessageWindow(6) with 100 calls in one round used to evict everything and send `messages: []`."""
    from toolkit.chat.scripted import ScriptedModel
    from toolkit.loop.run import run_loop
    from toolkit.tools.decorator import tool

    @tool
    def query_order(order_id: str) -> str:
        """Look an order up."""
        return "已发货"

    calls = [ToolCall(id=f"c{k}", name="query_order", arguments=f'{{"order_id": "SN{k}"}}') for k in range(100)]
    model = ScriptedModel([calls, "全部已发货"])
    memory = ChatMemory("u1", window=MessageWindow(6))
    memory.add(*turn(0))
    run_loop(model, [SYSTEM, UserMessage(content="查 100 个订单")], tools=[query_order], memory=memory)
    second = model.requests[1].messages
    assert second[:2] == (SYSTEM, UserMessage(content="查 100 个订单"))
    assert len(second) == 2 + 1 + 100 and orphan_free(second)
    assert memory.messages()[-1] == AssistantMessage(content="全部已发货")


def test_earlier_rounds_of_the_current_turn_leave_before_the_user_message():
    rounds = turn(1, calls=1)[:-1] + turn(2, calls=1)[1:-1]  # u1, call, result, call, result
    kept = evict([SYSTEM, *turn(0), *rounds], MessageWindow(4))
    assert kept == [SYSTEM, rounds[0], *rounds[3:]]


@pytest.mark.parametrize("size", [0, 1, 2, 3])
def test_a_message_window_too_small_for_one_round_is_refused(size):
    from toolkit.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as info:
        MessageWindow(size)
    assert str(info.value) == (
        f"MessageWindow({size}): too small to hold one round (system message, user message, a tool call and "
        "its result); use MessageWindow(4) or more"
    )


def test_a_token_window_must_be_positive():
    from toolkit.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match=r"TokenWindow\(0\): max_tokens must be a positive int"):
        TokenWindow(0)


def test_a_window_size_read_from_numpy_or_pandas_is_taken_as_the_int_it_is():
    """Before: `MessageWindow(np.int64(10))` (a size read from a data frame or a config array) was
    refused with "max_messages must be an int", where `range` and `list * n` take it."""
    import numpy as np

    from toolkit.errors import ConfigurationError

    assert MessageWindow(np.int64(10)) == MessageWindow(10)
    assert type(MessageWindow(np.int64(10)).max_messages) is int
    assert TokenWindow(np.uint16(400)) == TokenWindow(400)
    with pytest.raises(ConfigurationError) as caught:
        MessageWindow(np.float64(10))
    assert str(caught.value) == "MessageWindow(np.float64(10.0)): max_messages must be an int"


@pytest.mark.parametrize("bad", [None, "", "  ", 1, 1.0, ("u",)])
def test_a_memory_id_must_be_a_non_empty_string(bad):
    from toolkit.errors import MemoryIdError

    with pytest.raises(MemoryIdError):
        ChatMemory(bad)


def test_the_memory_id_errors_say_why():
    from toolkit.errors import MemoryIdError

    with pytest.raises(MemoryIdError) as missing:
        ChatMemory(None)
    assert str(missing.value) == (
        "ChatMemory: memory id None is missing; every conversation needs its own id (e.g. the user's id) — "
        "with a missing id, every anonymous user would share one conversation"
    )
    with pytest.raises(MemoryIdError) as typed:
        ChatMemory(1)
    assert str(typed.value) == (
        "ChatMemory: memory id 1 is not a string (int); memory ids are strings, so pass str(1) explicitly "
        "(1 and '1' are never merged silently)"
    )


PNG = "data:image/png;base64,iVBORw0KGgo="


def imaged_turn(i):
    """A turn whose tool returned an image: the loop's image message follows the results."""
    out = turn(i, calls=1)
    carrier = UserMessage(
        content=f"Images returned by tool call c{i}_0 (shot): 1", images=(PNG,), from_tool_calls=(f"c{i}_0",)
    )
    return out[:3] + [carrier] + out[3:]


def test_the_image_message_of_a_round_is_not_the_current_users_message():
    """Issue 15.14: the loop's image message is not the user's question, so the window keeps the
    question of the current turn (before, the image message was taken for it and the question left)."""
    current = imaged_turn(2)[:-1]  # the question, the call, its result, the images; no answer yet
    kept = evict([SYSTEM, *turn(1), *current], MessageWindow(4))
    assert kept == [SYSTEM, *current]


def test_the_image_message_leaves_with_its_round():
    kept = evict([SYSTEM, *imaged_turn(1), *turn(2)], MessageWindow(4))
    assert kept == [SYSTEM, *turn(2)]
    rounds = imaged_turn(1)[:-1] + imaged_turn(2)[1:-1]  # u1, call, result, images, call, result, images
    kept = evict([SYSTEM, *rounds], MessageWindow(5))
    assert kept == [SYSTEM, rounds[0], *rounds[4:]]  # no image message without its call


def test_an_image_counts_as_a_low_detail_image_in_tokens():
    with_image = UserMessage(content="看图", images=(PNG, PNG))
    assert message_tokens(with_image) == message_tokens(UserMessage(content="看图")) + 2 * 85


@pytest.mark.parametrize("window", [None, MessageWindow(4)])
def test_anything_but_messages_is_refused_before_the_store_is_touched(window):
    from toolkit.errors import ConfigurationError

    memory = ChatMemory("u", window=window)
    memory.add(UserMessage(content="hi"))
    with pytest.raises(ConfigurationError) as info:
        memory.add(UserMessage(content="ok"), "not a message")
    assert str(info.value) == (
        "ChatMemory.add: message 1 (str) is not a message record; store SystemMessage, UserMessage, "
        "AssistantMessage or ToolResultMessage records"
    )
    with pytest.raises(ConfigurationError, match=r"^ChatMemory.set: message 0 \(dict\) is not a message record"):
        memory.set([{"role": "user", "content": "x"}])
    with pytest.raises(ConfigurationError, match=r"^ChatMemory.update: expected a list of messages, got NoneType"):
        memory.update(lambda current: None)
    assert memory.messages() == [UserMessage(content="hi")]


def test_a_long_history_is_cut_weighing_each_message_once():
    """Quadratic eviction made a 10,000-message history take minutes under a TokenWindow."""
    weighed = []

    def count(message):
        weighed.append(message)
        return 10

    history = [m for i in range(1000) for m in (UserMessage(content=f"q{i}"), AssistantMessage(content=f"a{i}"))]
    window = TokenWindow(100, count=count)
    weighed.clear()  # the window tries its count once when it is made
    kept = evict(history, window)
    assert kept == history[-10:]
    assert len(weighed) == len(history)


def test_a_subclass_of_a_message_record_is_a_message():
    """The check answers the four record classes by a set lookup; their subclasses still pass
    by `isinstance`, with or without a window."""

    class Question(UserMessage):
        pass

    for window in (None, MessageWindow(10)):
        memory = ChatMemory(window=window)
        memory.add(Question(content="在吗"), AssistantMessage(content="在"))
        assert [type(m) for m in memory.messages()] == [Question, AssistantMessage]


def test_the_current_turn_is_found_from_the_end_as_a_forward_scan_finds_it():
    """`evict` reads the latest user message and tool-calling reply from the end of the list; a
    forward scan over the whole list (the plain definition) finds the same places."""
    import random

    from toolkit.memory.windows import _current_round_start, _last_index, _said_by_user

    kinds = [
        UserMessage(content="q"),
        UserMessage(content="images", from_tool_calls=("c",)),
        AssistantMessage(tool_calls=(ToolCall(id="c", name="f", arguments="{}"),)),
        ToolResultMessage(tool_call_id="c", content="r"),
        AssistantMessage(content="a"),
    ]
    rng = random.Random(7)
    for _ in range(500):
        rest = [rng.choice(kinds) for _ in range(rng.randrange(12))]
        user = max((i for i, m in enumerate(rest) if _said_by_user(m)), default=None)
        assert _last_index(rest, _said_by_user) == user
        first = 0 if user is None else user + 1
        calls = [i for i, m in enumerate(rest) if i >= first and isinstance(m, AssistantMessage) and m.tool_calls]
        assert _current_round_start(rest, user) == (calls[-1] if calls else first)


@pytest.mark.parametrize("seed", range(100))
def test_a_batch_with_system_messages_merges_as_one_message_at_a_time_would(seed):
    """`_merged` (one copy) = adding the batch one message at a time (a copy per message: quadratic
    for a long batch); `_without_leading_results` = dropping one leading result at a time."""
    import random

    rng = random.Random(seed)
    pool = [
        SystemMessage(content="s1"),
        SystemMessage(content="s2"),
        UserMessage(content="u"),
        AssistantMessage(content="a"),
        ToolResultMessage(tool_call_id="c", content="r"),
        UserMessage(content="img", images=("data:image/png;base64,AA==",), from_tool_calls=("c",)),
    ]
    current = [rng.choice(pool) for _ in range(rng.randrange(6))]
    batch = [rng.choice(pool) for _ in range(rng.randrange(6))]
    plain = list(current)
    for message in batch:
        plain = with_system(plain, message) if isinstance(message, SystemMessage) else plain + [message]
    assert _merged(current, batch) == plain
    rest = list(plain)
    while rest and _round_part(rest[0]):
        rest = rest[1:]
    assert _without_leading_results(plain) == rest


LATE = [  # a second result for c1, stored after the next question (the stores accept it: c1 was asked)
    UserMessage(content="u1"),
    AssistantMessage(tool_calls=(ToolCall(id="c1", name="f", arguments="{}"),)),
    ToolResultMessage(tool_call_id="c1", tool_name="f", content="r1"),
    UserMessage(content="u2"),
    ToolResultMessage(tool_call_id="c1", tool_name="f", content="late"),
]


def test_a_result_apart_from_its_call_leaves_when_the_call_does():
    """`evict` dropped only the results that lead what is kept: one further down stayed without its call."""
    kept = evict([*LATE, UserMessage(content="u3"), UserMessage(content="u4")], MessageWindow(5))
    assert [m.content for m in kept] == ["u2", "u3", "u4"] and orphan_free(kept)


@pytest.mark.parametrize("kind", ["InMemoryStore", "SqliteStore"])
def test_a_windowed_memory_goes_on_after_a_late_results_call_leaves(tmp_path, kind):
    """The window dropped c1's call and kept its late result: every later add was refused
    ("….update: message 1 is a tool result for call 'c1', which no earlier assistant message
    asked for"), the conversation stuck for good."""
    from toolkit.memory.store import SqliteStore

    store = InMemoryStore() if kind == "InMemoryStore" else SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("u", store=store, window=MessageWindow(6))
    memory.add(*LATE)
    for k in range(3, 6):
        memory.add(UserMessage(content=f"u{k}"))
    assert [m.content for m in memory.messages()] == ["u2", "u3", "u4", "u5"]


class _Counter:
    def __call__(self, message):
        return 1


def test_a_token_window_and_its_memory_print_without_a_memory_address():
    """`TokenWindow`'s dataclass repr wrote its count as `<function message_tokens at 0x7f…>`, an
    address that changes every run: a notebook printing its memory (or window) showed other
    output each time. The count is named as the window's errors name it."""
    import functools

    assert repr(TokenWindow(4000)) == "TokenWindow(max_tokens=4000)"
    assert repr(ChatMemory("u1", window=TokenWindow(4000))) == "ChatMemory('u1', window=TokenWindow(max_tokens=4000))"

    def words(message):
        return len(message.content.split())

    here = "test_a_token_window_and_its_memory_print_without_a_memory_address.<locals>"
    assert repr(TokenWindow(50, count=words)) == f"TokenWindow(max_tokens=50, count={here}.words)"
    assert repr(TokenWindow(50, count=lambda m: 1)) == f"TokenWindow(max_tokens=50, count={here}.<lambda>)"
    assert repr(TokenWindow(50, count=_Counter())) == "TokenWindow(max_tokens=50, count=_Counter(...))"
    partial = functools.partial(lambda m, k: k, k=1)
    assert repr(TokenWindow(50, count=partial)) == "TokenWindow(max_tokens=50, count=partial(...))"


def test_an_in_memory_store_prints_what_it_holds_not_an_address():
    store = InMemoryStore()
    assert repr(store) == "InMemoryStore(0 conversations)"
    ChatMemory("u1", store=store).add(UserMessage(content="hi"))
    assert repr(store) == "InMemoryStore(1 conversation)"
    ChatMemory("u2", store=store).add(UserMessage(content="hi"))
    assert repr(ChatMemory("u2", store=store).store) == "InMemoryStore(2 conversations)"


def _starts_with_the_user(messages):
    rest = [m for m in messages if not isinstance(m, SystemMessage)]
    return not rest or (isinstance(rest[0], UserMessage) and not rest[0].from_tool_calls)


@pytest.mark.parametrize("kind", ["InMemoryStore", "SqliteStore"])
@pytest.mark.parametrize("window", [MessageWindow(4), MessageWindow(5), MessageWindow(7), TokenWindow(40)])
def test_after_eviction_the_history_starts_with_the_users_message(tmp_path, kind, window):
    """Before: MessageWindow(4) after [system, user, call, result, answer, user] kept [system, call, result, user]
    (or [system, answer, user]): a history whose first turn is the assistant's, which chat templates that
    want user/assistant turns in order refuse ("Conversation roles must alternate user/assistant/…").
    Once messages leave, they leave up to the next message of the user's."""
    from toolkit.memory.store import SqliteStore

    store = InMemoryStore() if kind == "InMemoryStore" else SqliteStore(tmp_path / "m.db")
    memory = ChatMemory("u", store=store, window=window)
    memory.add(SYSTEM)
    for i in range(1, 7):
        for message in turn(i, calls=i % 3):
            memory.add(message)
            kept = memory.messages()
            assert _starts_with_the_user(kept) and orphan_free(kept) and kept[0] == SYSTEM, kept
    assert kept[-len(turn(6)) :] == turn(6)


def test_the_user_first_rule_keeps_the_current_turn_and_the_window_size():
    history = [SYSTEM, *turn(1, calls=1), UserMessage(content="问题2")]
    assert evict(history, MessageWindow(4)) == [SYSTEM, UserMessage(content="问题2")]
    assert evict(history, MessageWindow(6)) == history  # nothing leaves: nothing changes
    without_user = [SYSTEM, AssistantMessage(content="a"), AssistantMessage(content="b"), AssistantMessage(content="c")]
    assert evict(without_user, MessageWindow(2 + 1 + 1)) == without_user
