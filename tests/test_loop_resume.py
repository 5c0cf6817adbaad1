"""`toolkit.loop.resume`: a request to the model that fails after this turn's tools ran (a 5xx or a 429
whose retries are spent, a stream cut off) says so in its hint, and how to go on from their results
without running them again. Before, the hint said only "running the cell again may work": running it
again asks the question again, and the embedded gateway (as a real model would) calls the tool again.
Driven by the package's own client over the embedded gateway and its scheduled faults."""

import pytest

from toolkit.chat.messages import SystemMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.chat.switch import fake_client
from toolkit.errors import CallerError, OutOfCreditError, TransientError, TruncatedStreamError
from toolkit.gateway.server import Gateway
from toolkit.loop.run import ANSWER_KEPT, LoopOptions, run_loop
from toolkit.loop.texts import EN, ZH
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool

QUESTION = "帮我查一下订单 SN202610200001"
SPENT = ["server_error"] * 3  # the first try and the client's two retries
RETRIED = (
    "It was sent 3 times, waiting 1.5 s in all between them, before giving up; running the cell again later may work."
)
WITH_MEMORY = (
    "But this turn's tools already ran (query_order), and running it again asks the question again, which may run "
    "them again: to go on from their results, which memory holds, call run_loop(model, [], memory=...) with the "
    "same memory."
)
WITHOUT_MEMORY = (
    "But this turn's tools already ran (query_order), and running it again asks the question again, which may run "
    "them again: to go on from their results, call run_loop(model, error.loop_result.messages, ...)."
)


@pytest.fixture
def ran():
    return []


@pytest.fixture
def query_order(ran):
    @tool("查询订单的状态、金额、商品")
    def query_order(orderId: str) -> str:
        ran.append(orderId)
        return f"订单 {orderId}：已发货"

    return query_order


def client_failing(*faults):
    return fake_client(gateway=Gateway(faults=[None, *faults]), sleep=lambda s: None)


@pytest.mark.parametrize("stream", [False, True])
def test_a_request_failing_after_the_tools_ran_says_how_to_go_on_without_running_them_again(stream, ran, query_order):
    client, memory = client_failing(*SPENT), ChatMemory("ann")
    with pytest.raises(TransientError) as caught:
        run_loop(client, QUESTION, tools=[query_order], memory=memory, options=LoopOptions(stream=stream))
    assert caught.value.hint == f"{RETRIED} {WITH_MEMORY}"
    assert caught.value.__notes__ == [WITH_MEMORY]
    assert ran == ["SN202610200001"]
    result = run_loop(client, [], tools=[query_order], memory=memory, options=LoopOptions(stream=stream))
    assert result.answer == "为您查到：订单 SN202610200001：已发货。"
    assert ran == ["SN202610200001"]  # gone on from the result: not run again


def test_without_memory_the_hint_points_at_the_error_s_messages_and_they_go_on(ran, query_order):
    client = client_failing(*SPENT)
    with pytest.raises(TransientError) as caught:
        run_loop(client, QUESTION, tools=[query_order])
    assert caught.value.hint == f"{RETRIED} {WITHOUT_MEMORY}"
    result = run_loop(client, caught.value.loop_result.messages, tools=[query_order])
    assert result.answer == "为您查到：订单 SN202610200001：已发货。"
    assert ran == ["SN202610200001"]


def test_a_stream_cut_off_after_the_tools_ran_says_so_too(ran, query_order):
    client, memory = client_failing("truncate"), ChatMemory("bob")
    with pytest.raises(TruncatedStreamError) as caught:
        run_loop(client, QUESTION, tools=[query_order], memory=memory, options=LoopOptions(stream=True))
    assert (
        caught.value.hint == f"Nothing from the cut stream was executed; running the cell again may work. {WITH_MEMORY}"
    )
    assert ran == ["SN202610200001"]


def test_a_request_failing_before_any_tool_ran_keeps_its_own_hint(ran, query_order):
    client = fake_client(gateway=Gateway(faults=SPENT), sleep=lambda s: None)
    with pytest.raises(TransientError) as caught:
        run_loop(client, QUESTION, tools=[query_order], memory=ChatMemory("cy"))
    assert caught.value.hint == RETRIED
    assert not hasattr(caught.value, "__notes__")
    assert ran == []


# --- a question whose first request failed, asked again: stored once ------------------------------


def questions_in(memory):
    return [m.content for m in memory.messages() if isinstance(m, UserMessage)]


@pytest.mark.parametrize(
    ("stream", "faults", "error"), [(False, SPENT, TransientError), (True, ["truncate"], TruncatedStreamError)]
)
def test_a_question_asked_again_after_its_first_request_failed_is_stored_once(stream, faults, error, ran, query_order):
    client, memory = fake_client(gateway=Gateway(faults=faults), sleep=lambda s: None), ChatMemory("dee")
    options = LoopOptions(stream=stream)
    with pytest.raises(error):
        run_loop(client, QUESTION, tools=[query_order], memory=memory, options=options)
    assert questions_in(memory) == [QUESTION]  # kept: run_loop(model, [], memory=...) can go on from it
    result = run_loop(client, QUESTION, tools=[query_order], memory=memory, options=options)  # the cell run again
    assert result.answer == "为您查到：订单 SN202610200001：已发货。"
    assert questions_in(memory) == [QUESTION]
    assert [m.content for m in result.messages if isinstance(m, UserMessage)] == [QUESTION]


def test_a_question_asked_again_with_its_system_message_keeps_one_of_each():
    model, memory = ScriptedModel([TransientError("down"), "好的"]), ChatMemory("eve")
    asked = [SystemMessage(content="你是电商客服。"), UserMessage(content=QUESTION)]
    with pytest.raises(TransientError):
        run_loop(model, asked, memory=memory)
    run_loop(model, asked, memory=memory)
    assert [(m.role, m.content) for m in memory.messages()] == [
        ("system", "你是电商客服。"),
        ("user", QUESTION),
        ("assistant", "好的"),
    ]


@pytest.mark.parametrize(
    "texts, note",
    [
        (EN, "(No answer: the turn that asked this ended before the model replied.)"),
        (ZH, "（没有回答：提出这个问题的那一轮在模型回复之前就结束了。）"),
    ],
)
def test_another_question_after_a_failed_one_is_stored_after_it_and_a_note_that_it_got_no_answer(texts, note):
    """Before: the two questions stood in a row, user after user: the model read the failed one as
    still asked, and a gateway whose chat template wants user and assistant in turn (vLLM serving
    Mistral or Gemma: "Conversation roles must alternate") refused every later request of this
    memory. Both questions are kept (as LangChain4j's memory and the OpenAI Agents SDK's session
    keep them), and the loop's own note between them says the first got no answer (`LoopTexts.unanswered`)."""
    model, memory = ScriptedModel([TransientError("down"), "好的"]), ChatMemory("fay")
    options = LoopOptions(texts=texts)
    with pytest.raises(TransientError):
        run_loop(model, QUESTION, memory=memory, options=options)
    run_loop(
        model,
        [SystemMessage(content="你是电商客服。"), UserMessage(content="还有别的订单吗？")],
        memory=memory,
        options=options,
    )
    stored = [(m.role, m.content) for m in memory.messages()]
    assert stored == [
        ("system", "你是电商客服。"),
        ("user", QUESTION),
        ("assistant", note),
        ("user", "还有别的订单吗？"),
        ("assistant", "好的"),
    ]
    assert [(m.role, m.content) for m in model.requests[-1].messages] == stored[:-1]


def test_a_question_asked_again_after_an_answer_is_stored_again():
    model, memory = ScriptedModel(["好的", "好的"]), ChatMemory("gus")
    run_loop(model, QUESTION, memory=memory)
    run_loop(model, QUESTION, memory=memory)
    assert questions_in(memory) == [QUESTION, QUESTION]


# --- a refused request (a 4xx) after the tools ran -------------------------------------------------

REFUSED = (
    "HTTP 400: maximum context length is 8192 tokens — the gateway rejected the request body; fix it (not retried)"
)
REFUSED_WITH_MEMORY = (
    "This turn's tools already ran (query_order), and running it again asks the question again, which may run them "
    "again: to go on from their results, which memory holds, call run_loop(model, [], memory=...) with the same "
    "memory once what the error names is fixed."
)


def test_a_refused_request_after_the_tools_ran_says_to_fix_it_before_going_on(ran, query_order):
    """Before: the hint began "But this turn's tools already ran" (after no sentence: a refusal has no
    hint of its own) and sent the learner to go on from memory at once, which sends the refused
    request again as it is."""
    model = ScriptedModel([call("query_order", orderId="SN202610200001"), CallerError(REFUSED, status=400)])
    with pytest.raises(CallerError) as caught:
        run_loop(model, QUESTION, tools=[query_order], memory=ChatMemory("hal"))
    assert caught.value.hint == REFUSED_WITH_MEMORY
    assert caught.value.__notes__ == [REFUSED_WITH_MEMORY]


def test_out_of_credit_after_the_tools_ran_keeps_its_own_hint_first(ran, query_order):
    model = ScriptedModel([call("query_order", orderId="SN202610200001"), OutOfCreditError("HTTP 402", status=402)])
    with pytest.raises(OutOfCreditError) as caught:
        run_loop(model, QUESTION, tools=[query_order])
    assert caught.value.hint == (
        f"{OutOfCreditError.hint} But this turn's tools already ran (query_order), and running it again asks the "
        "question again, which may run them again: to go on from their results, call "
        "run_loop(model, error.loop_result.messages, ...) once what the error names is fixed."
    )


class _ProviderBrokenLater:
    """A dynamic provider whose second answer (asked after round 1's tools ran) is no list."""

    dynamic = True

    def __init__(self, tools):
        self.tools, self.asked = tools, 0

    def provide(self, request):
        self.asked += 1
        return self.tools if self.asked == 1 else None


def test_a_configuration_error_after_the_tools_ran_does_not_say_nothing_was_sent(ran, query_order):
    """A ConfigurationError found mid-turn (a dynamic provider's second answer, a policy returning no text)
    kept its class's hint, 'nothing was sent to the model': the model had been asked and the tools had run."""
    from toolkit.errors import ConfigurationError
    from toolkit.tools.execute import tools_from

    memory = ChatMemory("ann")
    model = ScriptedModel([call("query_order", orderId="SN1"), "已发货"])
    with pytest.raises(ConfigurationError) as caught:
        run_loop(model, QUESTION, providers=[_ProviderBrokenLater(tools_from(query_order))], memory=memory)
    said = WITH_MEMORY.replace(" same memory.", " same memory once what the error names is fixed.")
    assert caught.value.hint == f"Fix the code or setting the message names. {said}"
    assert caught.value.__notes__ == [said]
    assert ran == ["SN1"]


def test_a_configuration_error_of_a_policy_after_its_tool_ran_says_so(ran, query_order):
    from toolkit.errors import ConfigurationError
    from toolkit.tools.execute import Policies

    @tool("坏掉的工具")
    def broken(orderId: str) -> str:
        ran.append(orderId)
        raise RuntimeError("down")

    options = LoopOptions(policies=Policies(execution_error=lambda error, call: None))
    with pytest.raises(ConfigurationError) as caught:
        run_loop(ScriptedModel([call("broken", orderId="SN1")]), QUESTION, tools=[broken], options=options)
    said = WITHOUT_MEMORY.replace("(query_order)", "(broken)").replace(
        "...).", "...) once what the error names is fixed."
    )
    assert caught.value.hint == f"Fix the code or setting the message names. {said}"


def test_a_configuration_error_before_the_model_was_asked_keeps_its_hint(query_order):
    from toolkit.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as caught:
        run_loop(
            ScriptedModel(["好"]),
            QUESTION,
            tools=[query_order],
            options=LoopOptions(compensate=True, compensations=(len,)),
        )
    assert caught.value.hint == "Fix the code or setting the message names; nothing was sent to the model."


class RefusesTheAnswer:
    """A memory store (`InMemoryStore`'s) whose disk fills up when the model's answer comes."""

    @staticmethod
    def memory():
        from toolkit.errors import MemoryStoreError
        from toolkit.memory.windows import InMemoryStore

        class Full(InMemoryStore):
            def append(self, memory_id, messages):
                if any(m.role == "assistant" and m.content == "已发货" for m in messages):
                    raise MemoryStoreError("database or disk is full")
                super().append(memory_id, messages)

        return ChatMemory("ann", store=Full())


CHECK_THE_FILE = "Check the database file the message names: its path, its permissions, and what else uses it."


@pytest.mark.parametrize(
    "failing, memory, kind, hint, notes",
    [
        (  # Ctrl-C while the model was asked again: a plain traceback, its note the only word
            KeyboardInterrupt(),
            lambda: ChatMemory("ann"),
            KeyboardInterrupt,
            None,
            ["T" + WITH_MEMORY.removeprefix("But t")],
        ),
        (
            KeyboardInterrupt(),
            lambda: None,
            KeyboardInterrupt,
            None,
            ["T" + WITHOUT_MEMORY.removeprefix("But t")],
        ),
        (  # the disk filled up as the answer came: the store's fix first, then going on
            "已发货",
            RefusesTheAnswer.memory,
            None,
            f"{CHECK_THE_FILE} {WITH_MEMORY.removesuffix('.')} once what the error names is fixed. {ANSWER_KEPT}",
            [f"{WITH_MEMORY.removesuffix('.')} once what the error names is fixed.", ANSWER_KEPT],
        ),
    ],
)
def test_any_failure_after_the_tools_ran_says_how_to_go_on_without_running_them_again(
    failing, memory, kind, hint, notes, ran, query_order
):
    """A 5xx after the tools ran said the tools had run and how to go on from their results; Ctrl-C
    at the same point, or a memory store failing as the answer came, said nothing of them, and
    running the cell again ran the tools again (an order queried, a card charged, twice)."""
    from toolkit.errors import MemoryStoreError

    model = ScriptedModel([call("query_order", orderId="SN1"), failing])
    with pytest.raises(kind or MemoryStoreError) as caught:
        run_loop(model, QUESTION, tools=[query_order], memory=memory())
    assert getattr(caught.value, "hint", None) == hint
    assert caught.value.__notes__ == notes
    assert ran == ["SN1"]


def test_a_tools_own_failure_or_the_round_limit_adds_no_word_on_going_on(ran, query_order):
    from toolkit.errors import MaxRoundTripsError
    from toolkit.tools.execute import Policies, raise_error

    @tool("fails")
    def fails() -> str:
        raise RuntimeError("boom")

    model = ScriptedModel([call("query_order", orderId="SN1"), call("fails")])
    with pytest.raises(Exception) as caught:
        run_loop(
            model,
            QUESTION,
            tools=[query_order, fails],
            options=LoopOptions(policies=Policies(execution_error=raise_error)),
        )
    assert not getattr(caught.value, "__notes__", None)
    model = ScriptedModel([call("query_order", orderId="SN1"), call("query_order", orderId="SN2")])
    with pytest.raises(MaxRoundTripsError) as caught:
        run_loop(model, QUESTION, tools=[query_order], options=LoopOptions(max_round_trips=1))
    assert not getattr(caught.value, "__notes__", None)
