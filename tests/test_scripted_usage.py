"""The scripted model's input tokens: counted message by message and kept, equal to the plain
definition (`_input_tokens` of the messages plus `estimate_json_tokens` of the tools array)."""

import json
import random
from typing import Any, ClassVar

import orjson
import pytest

from toolkit.chat import scripted
from toolkit.chat.images import IMAGE_TOKENS
from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, _Counts, _input_tokens, _strings_counts
from toolkit.chat.sent import SentTool
from toolkit.tokens import estimate_json_tokens, json_counts

IMAGE = "data:image/png;base64,iVBORw0KGgo="
TEXTS = [
    "",
    "订单 SN202610200001 到哪了？",
    'quote " and \\ back',
    "line\nbreak\ttab\x00\x1f",
    "\u2028é",
    "lone \ud800",
]


class Shouting(UserMessage):
    """A learner's own message class, with its own wire form (which may change between requests)."""

    volume: ClassVar[int] = 1

    def to_openai(self) -> dict[str, Any]:
        return {"role": "user", "content": self.content.upper() + "!" * Shouting.volume, "note": 1.5e16}


def plain(messages: list, tools: list) -> int:
    return _input_tokens(messages) + (estimate_json_tokens(tools) if tools else 0)


def a_message(rng: random.Random, n: int) -> Any:
    text = rng.choice(TEXTS) + f" {n}"
    kind = rng.randrange(8)
    if kind == 0:
        return SystemMessage(content=text)
    if kind == 1:
        return UserMessage(content=text, images=(IMAGE,) * rng.randrange(1, 3))
    if kind == 2:
        return Shouting(content=text)
    if kind in (3, 4):
        calls = tuple(
            ToolCall(
                id=f"c{n}_{i}",
                name="query_order",
                arguments=rng.choice(['{"orderId":"SN1"}', "", "{oops", '{"x": 1.5e16}']),
                extra={"index": i, "score": 1e-07} if rng.random() < 0.3 else {},
            )
            for i in range(rng.randrange(3))
        )
        extra = {"reasoning_content": "想一想"} if rng.random() < 0.3 else {}
        content = None if calls and rng.random() < 0.5 else text
        return AssistantMessage(content=content, tool_calls=calls, extra=extra)
    if kind == 5:
        return ToolResultMessage(tool_call_id=f"c{n}", tool_name=rng.choice(["", "query_order"]), content=text)
    return UserMessage(content=text)


def tools_array(rng: random.Random) -> list:
    entry = {
        "type": "function",
        "function": {"name": "f", "description": "查询", "parameters": {"type": "object", "minimum": 0.5}},
    }
    shared = SentTool(entry, function=SentTool(entry["function"]))
    return rng.choice([[], [shared], [shared, dict(entry)], [entry]])


@pytest.mark.parametrize("seed", range(40))
def test_input_tokens_equal_the_plain_definition_request_after_request(seed):
    """A conversation that grows (the same message objects sent again, as a loop sends them),
    with every kind of message, images, provider fields, a learner's subclass, escapes, lone
    surrogates; shared, plain and changed tools entries."""
    rng = random.Random(seed)
    model = ScriptedModel(["ok"] * 12)
    conversation: list = []
    tools = tools_array(rng)
    for n in range(12):
        conversation += [a_message(rng, n) for _ in range(rng.randrange(1, 4))]
        if tools and type(tools[-1]) is dict and rng.random() < 0.5:
            tools[-1]["function"]["description"] += " 更多"  # a plain entry may change: counted again
        sent = list(conversation)
        Shouting.volume = rng.randrange(1, 4)
        response = model.chat(sent, tools=tools)
        assert response.usage.input_tokens == plain(sent, tools)


def test_a_message_gone_is_not_mistaken_for_a_new_one_in_its_place():
    """Ids are reused once an object is freed: a count is kept with its message (so its id is
    its own while kept), and a message sent once and gone is counted right each time."""
    model = ScriptedModel(["ok"] * 200)
    for n in range(200):
        message = UserMessage(content="订单" * (n % 7) + "x" * n)
        assert model.chat([message]).usage.input_tokens == plain([message], [])
        del message
        model.requests.clear()  # the model keeps nothing of it: its id is free again


def test_known_messages_are_forgotten_past_the_limit_and_still_counted():
    counts = _Counts()
    counts.KEEP = 3
    messages = [UserMessage(content=f"第 {i} 条") for i in range(10)]
    for end in range(1, 11):
        assert counts.input_tokens(messages[:end], []) == plain(messages[:end], [])
    assert len(counts._known) <= 3


def test_an_image_counts_image_tokens_not_its_text():
    with_image = UserMessage(content="看图", images=(IMAGE,))
    without = UserMessage(content="看图")
    model = ScriptedModel(["a", "b"])
    assert model.chat([with_image]).usage.input_tokens == model.chat([without]).usage.input_tokens + IMAGE_TOKENS


def test_a_shared_tools_entry_is_counted_once():
    entry = {"type": "function", "function": {"name": "f", "parameters": {}}}
    shared = SentTool(entry, function=SentTool(entry["function"]))
    assert shared.json_counts() is shared.json_counts()
    assert ScriptedModel(["a"]).chat([], tools=[shared]).usage.input_tokens == 1 + estimate_json_tokens([entry])


def test_orjson_writes_every_character_as_the_standard_library_does():
    """What the counts of a message of strings rely on: every character but a lone surrogate
    (which orjson refuses) is escaped alike, in chunks over all of Unicode."""
    characters = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    for start in range(0, len(characters), 4096):
        text = "".join(characters[start : start + 4096])
        assert orjson.dumps(text).decode("utf-8") == json.dumps(text, ensure_ascii=False)
    with pytest.raises(TypeError):
        orjson.dumps("\ud800")


def a_copy(message: Any) -> Any:
    """An equal record that is not the same object (a learner rebuilt it, or loaded it back)."""
    return message.model_copy()


@pytest.mark.parametrize("seed", range(40))
def test_conversations_that_go_on_from_the_last_one_counted_by_any_model(seed):
    """The last conversation counted is kept for the next request of any model: one that goes on
    from it, goes back to a part of it, leaves it at any point, drops its first messages (a
    window) or sends equal copies of its messages is counted as the plain definition says."""
    rng = random.Random(seed)
    conversation: list = []
    model = ScriptedModel(["ok"] * 400)
    tools = tools_array(rng)
    for n in range(60):
        step = rng.randrange(7)
        if step == 0 and conversation:
            conversation = conversation[: rng.randrange(len(conversation) + 1)]  # back to a part of it
        elif step == 1 and conversation:
            conversation = conversation[rng.randrange(len(conversation)) :]  # a window dropped the first
        elif step == 2 and conversation:
            i = rng.randrange(len(conversation))
            conversation[i] = a_copy(conversation[i])
        elif step == 3:
            model = ScriptedModel(["ok"] * 400)  # a new model goes on with the same conversation
        conversation += [a_message(rng, n) for _ in range(rng.randrange(3))]
        Shouting.volume = rng.randrange(1, 4)
        sent = list(conversation)
        assert model.chat(sent, tools=tools).usage.input_tokens == plain(sent, tools)


def test_equal_provider_fields_written_differently_are_counted_apart():
    """`1 == 1.0 == True`, so two messages that compare equal may be written differently when
    they carry provider fields: only messages of strings are taken from the last conversation."""
    question = UserMessage(content="订单到哪了？")
    for extra in ({"n": 1}, {"n": 1.0}, {"n": True}, {"n": 1}):
        reply = AssistantMessage(content="好的", extra=extra)
        call = ToolCall(id="c1", name="f", extra=extra)
        for sent in ([question, reply], [question, AssistantMessage(tool_calls=(call,))]):
            assert ScriptedModel(["ok"]).chat(sent).usage.input_tokens == plain(sent, [])


class Quoted(ToolCall):
    """A learner's own tool call class, whose wire form may change between requests."""

    quote: ClassVar[str] = "'"

    def to_openai(self) -> dict[str, Any]:
        return {**super().to_openai(), "note": Quoted.quote * 3}


def test_a_learners_tool_call_class_is_counted_each_time():
    message = AssistantMessage(tool_calls=(Quoted(id="c1", name="f"),))
    model = ScriptedModel(["ok"] * 4)
    for quote in ("'", "quoted at length", "'", "quoted at length"):
        Quoted.quote = quote
        sent = [UserMessage(content="hi"), message]
        assert model.chat(sent).usage.input_tokens == plain(sent, [])


def test_a_long_history_sent_again_by_a_new_model_is_not_read_again(monkeypatch):
    """What the last conversation counted is taken from it: a new model that goes on with a long
    history reads only its new messages (each message is written as JSON once, not per model)."""
    history = [UserMessage(content=f"第 {i} 条") if i % 2 else AssistantMessage(content=f"好 {i}") for i in range(500)]
    ScriptedModel(["ok"]).chat(history)
    written = []
    monkeypatch.setattr(scripted, "_strings_counts", lambda data: written.append(data) or _strings_counts(data))
    sent = [*history, UserMessage(content="还有吗？")]
    assert ScriptedModel(["ok"]).chat(sent).usage.input_tokens == plain(sent, [])
    assert written == [{"role": "user", "content": "还有吗？"}]


def test_a_conversation_run_again_from_its_start_is_not_read_again(monkeypatch):
    """A test that runs the same conversation again (a new model, its first request the question
    alone) goes on along the last conversation counted: the first request, a part of it, does not
    replace it, so the equal replies and results that follow are taken from it too."""
    run = [UserMessage(content="1+2?"), AssistantMessage(tool_calls=(ToolCall(id="c1", name="add"),))]
    run.append(ToolResultMessage(tool_call_id="c1", tool_name="add", content="3"))
    ScriptedModel(["ok"]).chat(run)
    written = []
    monkeypatch.setattr(scripted, "_strings_counts", lambda data: written.append(data) or _strings_counts(data))
    model = ScriptedModel(["ok"] * 2)
    again = [a_copy(message) for message in run]
    for sent in (again[:1], again):
        assert model.chat(sent).usage.input_tokens == plain(sent, [])
    assert written == []


@pytest.mark.parametrize("seed", range(20))
def test_a_tools_arrays_tokens_are_the_plain_estimate(seed):
    """`tools_tokens` (what a trace shows each round, and what a scripted model adds) adds each
    entry's counts up, a shared entry's worked out once: the estimate of the whole array."""
    from toolkit.chat.sent import tools_tokens

    tools = tools_array(random.Random(seed))
    assert tools_tokens(tools) == estimate_json_tokens(tools)


def counts_of(messages: list) -> tuple[int, int, int]:
    """The (wide, narrow, images) of messages' JSON items, the plain way: what `Prefix.totals` holds."""
    wide = narrow = images = 0
    for message in messages:
        if isinstance(message, UserMessage) and message.images:
            images += len(message.images)
            message = message.model_copy(update={"images": ()})
        w, n = json_counts(message.to_openai())
        wide, narrow = wide + w, narrow + n
    return wide, narrow, images


@pytest.mark.parametrize("seed", range(30))
def test_the_last_conversation_kept_holds_its_own_totals(seed):
    """Whatever requests come (growing, going back, windows, equal copies in place of the same
    objects, replaced messages, new models), the conversation kept holds, at each length, the
    counts of its own first messages, and agrees with a request only on messages equal to its own."""
    rng = random.Random(seed)
    conversation: list = []
    for n in range(40):
        step = rng.randrange(6)
        if step == 0 and conversation:
            conversation = conversation[: rng.randrange(len(conversation) + 1)]
        elif step == 1 and conversation:
            conversation = conversation[rng.randrange(len(conversation)) :]
        elif step == 2 and conversation:
            conversation = [a_copy(m) if rng.random() < 0.5 else m for m in conversation]
        elif step == 3 and conversation:
            conversation[rng.randrange(len(conversation))] = a_message(rng, n)
        conversation += [a_message(rng, n) for _ in range(rng.randrange(3))]
        sent = tuple(conversation)
        before = scripted._last
        agree = before.agreeing(sent)
        assert before.messages[:agree] == sent[:agree]
        if before.messages[: len(sent)] == sent[: len(before.messages)]:
            assert agree == min(len(sent), len(before.messages))
        assert ScriptedModel(["ok"]).chat(list(sent)).usage.input_tokens == plain(list(sent), [])
        kept = scripted._last
        assert len(kept.totals) == len(kept.messages) + 1
        assert all(kept.totals[k] == counts_of(list(kept.messages[:k])) for k in range(len(kept.totals)))


def test_equal_copies_sent_again_take_the_place_of_the_conversations_own():
    """A test run once more sends equal copies: the conversation kept goes on with them in place
    of its own messages (the rest kept), so the next request, which sends those copies again,
    finds the same objects."""
    run = [UserMessage(content="1+2?"), AssistantMessage(tool_calls=(ToolCall(id="c1", name="add"),))]
    run.append(ToolResultMessage(tool_call_id="c1", tool_name="add", content="3"))
    ScriptedModel(["ok"]).chat(run)
    again = [a_copy(run[0])]
    ScriptedModel(["ok"]).chat(again)
    assert scripted._last.messages[0] is again[0] and scripted._last.messages[1:] == tuple(run[1:])
    assert scripted._last.totals[-1] == counts_of(run)


def test_a_conversation_that_parts_from_the_last_compares_no_record_field_by_field(monkeypatch):
    """A learner's test run once more with `call()` (fresh ids): after its question, the replies
    differ from the last run's; where the same objects end is found comparing pointers, and no
    record is compared field by field but the first that differs."""
    from toolkit.chat.scripted import call

    def run() -> list:
        question = UserMessage(content="1+2+3+4?")
        first = AssistantMessage(tool_calls=(call("add", a=1, b=2),))
        return [question, first, ToolResultMessage(tool_call_id=first.tool_calls[0].id, content="3")]

    ScriptedModel(["ok"]).chat(run())
    compared = []
    original = AssistantMessage.__eq__
    monkeypatch.setattr(AssistantMessage, "__eq__", lambda a, b: compared.append(a) or original(a, b))
    sent = run()
    model = ScriptedModel(["ok"] * 2)
    for request in (sent[:1], sent):
        assert model.chat(request).usage.input_tokens == plain(request, [])
    assert len(compared) == 1


def test_copies_at_the_end_of_a_part_sent_again_leave_the_conversation_as_it_is():
    """A part of the conversation sent again from its same first message, with copies at its end
    (a new model's reply to the same question), leaves the conversation kept as it is: comparing
    those few copies again costs less than copying a long conversation."""
    question = UserMessage(content="1+2?")
    run = [question, AssistantMessage(tool_calls=(ToolCall(id="c1", name="add"),))]
    run += [ToolResultMessage(tool_call_id="c1", tool_name="add", content="3"), AssistantMessage(content="3")]
    ScriptedModel(["ok"]).chat(run)
    kept = scripted._last
    part = [question, a_copy(run[1]), a_copy(run[2])]
    assert ScriptedModel(["ok"]).chat(part).usage.input_tokens == plain(part, [])
    assert scripted._last is kept
    whole = [*part, a_copy(run[3])]
    assert ScriptedModel(["ok"]).chat(whole).usage.input_tokens == plain(whole, [])
    assert scripted._last.messages == tuple(whole) and all(a is b for a, b in zip(scripted._last.messages, whole))


@pytest.mark.parametrize("seed", range(200))
def test_starts_answers_as_cutting_the_longer_one_does(seed):
    """`_starts(longer, shorter)` (no copy of the longer one) is `longer[:len(shorter)] == shorter`,
    for conversations that agree, part anywhere, or hold equal copies and other classes."""
    rng = random.Random(seed)
    pool = [UserMessage(content=str(k % 3)) for k in range(6)] + [
        AssistantMessage(content="a"),
        SystemMessage(content="s"),
    ]
    longer = tuple(rng.choice(pool) for _ in range(rng.randrange(0, 8)))
    size = rng.randrange(0, len(longer) + 1)
    shorter = list(longer[:size])
    if shorter and rng.random() < 0.5:
        where = rng.randrange(size)
        shorter[where] = rng.choice([*pool, shorter[where].model_copy()])
    assert scripted._starts(longer, tuple(shorter)) == (longer[:size] == tuple(shorter))


def test_a_tools_array_sent_again_gives_the_names_and_tokens_of_the_plain_reading():
    """The last array of read-only entries is kept by their ids (`_tools_sent`): the same entries
    sent again, other ones, fewer, a plain dict among them, a plain array changed in place between
    two requests: each request records the names and counts the tokens the plain reading gives."""
    entry = {"type": "function", "function": {"name": "f", "description": "查询", "parameters": {"type": "object"}}}
    other = {"type": "function", "function": {"name": "g", "parameters": {"type": "object", "minimum": 0.5}}}
    f, g = (SentTool(e, function=SentTool(e["function"])) for e in (entry, other))
    plain_array = [dict(other)]
    arrays = [[f, g], [f, g], [f], [g, f], [], [f, g], plain_array, [f, dict(entry)], [f, g]]
    model = ScriptedModel(["ok"] * (len(arrays) + 1))
    question = [UserMessage(content="hi")]
    for tools in arrays:
        response = model.chat(question, tools=list(tools))
        assert model.requests[-1].tools == tuple(t["function"]["name"] for t in tools)
        assert response.usage.input_tokens == plain(question, tools)
    plain_array[0]["function"] = {"name": "renamed", "parameters": {}}  # the same dict, changed: read again
    response = model.chat(question, tools=plain_array)
    assert model.requests[-1].tools == ("renamed",)
    assert response.usage.input_tokens == plain(question, plain_array)
