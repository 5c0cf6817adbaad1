"""The scripted model's replies, written without validating again what the package built (`_response`):
each is the record the plain construction builds (the same classes, fields in their order, fields set,
repr and JSON form), for every kind of turn."""

import random
from typing import Any, ClassVar

import pytest

from toolkit.chat import scripted
from toolkit.chat.messages import AssistantMessage, ChatResponse, TokenUsage, ToolCall, UserMessage
from toolkit.chat.scripted import ScriptedModel, _built_reply, _reply, _response
from toolkit.chat.sse import StreamDone, TextDelta, ToolCallDelta, not_empty
from toolkit.errors import BadResponseError
from toolkit.tokens import estimate_tokens


class Quoted(ToolCall):
    """A learner's own tool call class."""

    quote: ClassVar[str] = "'"

    def to_openai(self) -> dict[str, Any]:
        return {**super().to_openai(), "note": Quoted.quote}


def plain_response(turn: Any, input_tokens: int, n: int) -> ChatResponse:
    """The construction `_response` stands for: each record built on its own."""
    if isinstance(turn, AssistantMessage):
        message = turn
    elif isinstance(turn, str):
        message = AssistantMessage(content=turn)
    elif isinstance(turn, ToolCall):
        message = AssistantMessage(tool_calls=(turn,))
    else:
        message = AssistantMessage(tool_calls=tuple(turn))
    usage = TokenUsage(
        input_tokens=input_tokens,
        output_tokens=estimate_tokens(message.content or "")
        + sum(estimate_tokens(c.name + c.arguments) for c in message.tool_calls),
    )
    reason = "tool_calls" if message.tool_calls else "stop"
    return not_empty(
        ChatResponse(message=message, finish_reason=reason, usage=usage, model="scripted", id=f"scripted-{n}")
    )


CALL = ToolCall(id="call_1", name="query_order", arguments='{"orderId": "SN1"}')
TURNS = [
    "done",
    "订单 SN202610200001 已发货",
    "lone \ud800 and \u2028",
    CALL,
    [CALL, ToolCall(id="call_2", name="f", arguments="{oops")],
    (CALL,),
    [Quoted(id="q1", name="f")],
    ToolCall(id="c", name="f", arguments="", extra={"extra_content": {"google": {"thought_signature": "s"}}}),
    AssistantMessage(content="x", tool_calls=(CALL,)),
    AssistantMessage(refusal="I can't"),
    AssistantMessage(content="想", extra={"reasoning_content": "想一想"}),
]


def assert_same_record(got: Any, want: Any) -> None:
    assert type(got) is type(want)
    assert got == want
    assert got.model_fields_set == want.model_fields_set
    assert got.model_dump(exclude_unset=True) == want.model_dump(exclude_unset=True)
    assert list(got.__dict__) == list(want.__dict__)  # the fields in the class's order, defaults too
    assert (got.__pydantic_extra__, got.__pydantic_private__) == (want.__pydantic_extra__, want.__pydantic_private__)
    assert repr(got) == repr(want) and got.model_dump(mode="json") == want.model_dump(mode="json")


def assert_same_response(got: ChatResponse, want: ChatResponse) -> None:
    assert_same_record(got, want)
    assert_same_record(got.message, want.message)
    assert_same_record(got.usage, want.usage)
    assert [type(c) for c in got.message.tool_calls] == [type(c) for c in want.message.tool_calls]
    assert all(a is b for a, b in zip(got.message.tool_calls, want.message.tool_calls, strict=True))


@pytest.mark.parametrize("turn", TURNS)
def test_a_reply_is_the_record_the_plain_construction_builds(turn):
    got = _response(turn, 17, 3)
    assert_same_response(got, plain_response(turn, 17, 3))
    if isinstance(turn, AssistantMessage):
        assert got.message is turn  # as scripted


@pytest.mark.parametrize("turn", ["", AssistantMessage(), AssistantMessage(content=""), [], ()])
def test_an_empty_turn_raises_what_the_plain_construction_raises(turn):
    with pytest.raises(BadResponseError) as got:
        _response(turn, 1, 1)
    with pytest.raises(BadResponseError) as want:
        plain_response(turn, 1, 1)
    assert str(got.value) == str(want.value) and got.value.hint == want.value.hint


@pytest.mark.parametrize("seed", range(20))
def test_many_replies_are_the_records_the_plain_construction_builds(seed):
    rng = random.Random(seed)
    alphabet = 'ab 1{}"\\\n订单号é\u3000\uff01'

    def text(most: int) -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(most)))

    for n in range(50):
        calls = [ToolCall(id=text(6), name=text(9) or "f", arguments=text(30)) for _ in range(rng.randrange(4))]
        turn = rng.choice([text(40) or "x", *calls[:1], calls, AssistantMessage(content=text(5) or None)])
        if turn in ([], AssistantMessage()):
            continue
        assert_same_response(_response(turn, n, n), plain_response(turn, n, n))


def test_the_model_and_its_stream_reply_as_the_plain_construction_does():
    script = [CALL, "订单已发货", [CALL, CALL]]
    model = ScriptedModel(list(script))
    question = [UserMessage(content="where is it?")]
    for n, turn in enumerate(script[:2], start=1):
        response = model.chat(question)
        assert_same_response(response, plain_response(turn, response.usage.input_tokens, n))
    events = list(model.stream(question))
    done = events[-1]
    assert isinstance(done, StreamDone) and [type(e) for e in events[:-1]] == [ToolCallDelta, ToolCallDelta]
    assert_same_response(done.response, plain_response(script[2], done.response.usage.input_tokens, 3))
    text = list(ScriptedModel(["订单已发货了吗"]).stream(question))
    assert [e.text for e in text if isinstance(e, TextDelta)] == ["订单已发", "货了吗"]


@pytest.mark.parametrize("turn", TURNS)
def test_a_turn_played_again_is_the_record_the_plain_construction_builds(turn):
    first, again = _response(turn, 17, 3), _response(turn, 18, 4)
    assert_same_response(first, plain_response(turn, 17, 3))
    assert_same_response(again, plain_response(turn, 18, 4))
    if type(turn) is str or type(turn) is ToolCall:  # built once for the turn object, then given again
        assert again.message is first.message
    assert again.model_fields_set is not first.model_fields_set  # each record's own set
    assert again.usage.model_fields_set is not first.usage.model_fields_set
    assert _built_reply(turn)[1:] == _reply(turn)[1:]


def test_a_list_turn_changed_between_plays_is_built_anew():
    turn = [CALL]
    first = _response(turn, 1, 1)
    turn.append(ToolCall(id="call_2", name="f", arguments="{}"))
    again = _response(turn, 1, 2)
    assert len(first.message.tool_calls) == 1
    assert_same_response(again, plain_response(turn, 1, 2))


def test_a_built_reply_is_forgotten_past_the_limit_and_built_again(monkeypatch):
    monkeypatch.setattr(scripted, "_BUILT_KEPT", 2)
    turns = [f"answer {i}" for i in range(5)]
    for n, turn in enumerate(turns * 2, start=1):
        assert_same_response(_response(turn, n, n), plain_response(turn, n, n))
    assert len(scripted._BUILT) <= 2


@pytest.mark.parametrize("turn", TURNS)
def test_a_turn_played_again_on_the_same_request_is_the_plain_reply_each_time(turn):
    """A str or `ToolCall` turn keeps its last reply (`_response`), given again for the same input
    tokens and request number: each play, the same ones or others, is the record the plain
    construction builds."""
    plays = [(17, 3), (17, 3), (18, 3), (17, 4), (17, 3), (0, 1), (0, 1)]
    replies = [_response(turn, tokens, n) for tokens, n in plays]
    for reply, (tokens, n) in zip(replies, plays, strict=True):
        assert_same_response(reply, plain_response(turn, tokens, n))
    if type(turn) is str or type(turn) is ToolCall:
        assert replies[1] is replies[0] and replies[6] is replies[5]  # the same request again: the kept reply
        assert replies[2] is not replies[1] and replies[3] is not replies[2]


def test_a_reply_kept_for_a_turn_is_forgotten_with_its_message(monkeypatch):
    monkeypatch.setattr(scripted, "_BUILT_KEPT", 2)
    turns = [f"answer {i}" for i in range(5)]
    for _ in range(3):
        for turn in turns:
            assert_same_response(_response(turn, 9, 2), plain_response(turn, 9, 2))
    assert len(scripted._BUILT) <= 2


def test_usage_records_are_the_plain_ones_and_shared_by_their_counts(monkeypatch):
    monkeypatch.setattr(scripted, "_USAGES_KEPT", 3)
    rng = random.Random(5)
    for _ in range(200):
        counts = (rng.randrange(6), rng.randrange(3))
        usage = scripted._usage(*counts)
        assert_same_record(usage, TokenUsage(input_tokens=counts[0], output_tokens=counts[1]))
        assert scripted._usage(*counts) is usage  # kept: the same record for the same counts
    assert len(scripted._USAGES) <= 3
    assert scripted._usage(*next(iter(scripted._USAGES))) is next(iter(scripted._USAGES.values()))


def test_a_loop_run_again_on_new_models_gives_what_it_gives_with_nothing_kept():
    """The replies given again across runs (a test that builds a model per run) change nothing the loop
    records: each run's result, requests and memory are those of a run after every cache is emptied."""
    from toolkit import run_loop
    from toolkit.memory.windows import ChatMemory
    from toolkit.tools.decorator import tool

    @tool("Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    first, second = (
        ToolCall(id="c1", name="add", arguments='{"a":1,"b":2}'),
        ToolCall(id="c2", name="add", arguments='{"a":3,"b":4}'),
    )
    question = [UserMessage(content="what is 1+2+3+4?")]

    def run() -> tuple[Any, ...]:
        model, memory = ScriptedModel([first, second, "10"]), ChatMemory()
        result = run_loop(model, question, tools=[add], memory=memory)
        rounds = [(r.reply, r.usage, r.finish_reason, r.tools_sent, r.decision) for r in result.rounds]
        return result.answer, result.usage, rounds, model.requests, memory.messages(), result.new_messages

    def emptied() -> None:
        scripted._BUILT.clear()
        scripted._USAGES.clear()
        scripted._last_tools = ((), (), (), 0)

    emptied()
    want = run()
    for _ in range(3):
        got = run()
        assert repr(got) == repr(want) and got == want
    emptied()
    assert repr(run()) == repr(want)


def test_tools_sent_again_read_as_the_plain_reading_does():
    """`_tools_again` (the very entries of the last array of read-only entries) is what
    `_tools_sent(tool_payload(tools))` gives, on arrays that are, and are not, the last one."""
    from toolkit.chat.client import tool_payload
    from toolkit.chat.sent import SentTool

    def entry(name: str) -> SentTool:
        plain = {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}
        return SentTool(plain, function=SentTool(plain["function"]))

    f, g, h = entry("f"), entry("g"), entry("订单")
    rng = random.Random(3)
    pool: list[Any] = [f, g, h, entry("f"), {"type": "function", "function": {"name": "d"}}]
    for _ in range(300):
        tools: Any = [rng.choice(pool) for _ in range(rng.randrange(4))]
        tools = rng.choice([tools, tuple(tools), tools or None])
        want = scripted._tools_sent(tool_payload(list(tools) if tools else tools) or [])
        again = scripted._tools_again(tools)
        if again is not None:
            assert again == want
            assert type(tools) is list and all(a is b for a, b in zip(tools, scripted._last_tools[1], strict=True))
        assert scripted._tools_sent(tool_payload(tools) or []) == want
