"""Week 4 exercises: declare an assistant, memory per id, the structured-output repair, IMMEDIATE,
the events of a stream with a tool call in the middle.

Leaves out: a stream cut short (week 2's `w2.truncated` covers it; the notebook shows it with StreamView).
"""

import inspect
import typing
from typing import Any, cast

from toolkit.exercises.answers import as_list, counted, made_a_list, number_problem, one_of
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import Verdict, exercise, right, wrong
from toolkit.exercises.values import show

ORDER_QUESTION = "帮我查一下订单 SN202610200001 现在到哪了？"
NO_CALL_UNASKED = "the tool runs only when the model calls it, and the model calls it in its answer to a request"
"""Said to a count of model requests below one, where a tool ran."""


@exercise(
    "w4.declare",
    4,
    "write",
    "declare a Protocol with chat(user_id, question) -> str so each user id gets its own conversation",
    starter="""
        from typing import Annotated, Protocol

        from toolkit import MemoryId, UserText
        from toolkit.exercises import check

        answer = ...   # replace with your Protocol class (a method `chat` taking a user id and a question)
        check("w4.declare", answer)
        """,
    solution="""
        from typing import Annotated, Protocol

        from toolkit import MemoryId, UserText
        from toolkit.exercises import check


        class Assistant(Protocol):
            def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...


        answer = Assistant
        check("w4.declare", answer)
        """,
    hint="mark the user id with Annotated[str, MemoryId] and the question with Annotated[str, UserText].",
)
def check_declare(answer: Any) -> Verdict:
    from toolkit.chat.scripted import ScriptedModel
    from toolkit.errors import ConfigurationError, OutputParsingError
    from toolkit.services.declare import has_own_body
    from toolkit.services.service import ai_service, memory_per_id

    if not isinstance(answer, type):
        return wrong(_not_a_class(answer))
    model = ScriptedModel(["好的 1", "好的 2", "好的 3"])
    per_id, memory_ids = memory_per_id(), []

    def memory(memory_id: Any) -> Any:
        memory_ids.append(memory_id)
        return per_id(memory_id)

    try:
        service: Any = ai_service(answer, model=model, memory=memory)
    except ConfigurationError as error:
        return wrong(f"ai_service() refused the declaration: {error}")
    if not hasattr(service, "chat"):
        return wrong("the class needs a method named `chat`")
    declared = inspect.getattr_static(answer, "chat", None)
    if "chat" not in type(service).__plans__ and inspect.isfunction(declared) and has_own_body(declared):
        return wrong(
            "chat() has a body of its own, which ai_service keeps as written (as LangChain4j runs an interface's "
            "default method), so the model is never asked; write its body as ..."
        )
    try:
        reply = service.chat("alice", "我叫 Alice")
    except TypeError as error:  # keyword-only parameters, or more than two
        return wrong(
            f'chat("alice", "我叫 Alice") failed: {error}; declare chat(self, user_id, question), both positional'
        )
    except OutputParsingError:  # `-> str | None`, `-> dict`: structured output, and the answer is prose
        return wrong(
            f"chat() is declared -> {_return_type(answer)}, not -> str: for any other type ai_service asks the "
            "model for JSON (structured output), and a plain answer is refused; declare the method -> str"
        )
    service.chat("bob", "我叫 Bob")
    service.chat("alice", "我叫什么？")
    if reply != "好的 1":
        what = f"a {type(reply).__name__}" if not isinstance(reply, (str, type(None))) else show(reply)
        return wrong(f"chat() should return the answer as a str, it returned {what}; declare the method -> str")
    if memory_ids[:1] == ["我叫 Alice"]:
        return wrong(
            "chat() takes the user id first, then the question, and MemoryId marks the user id; yours marks its "
            f'{_memory_id_parameter(answer)} (chat("alice", "我叫 Alice") used the question as the memory id)'
        )
    alice, bob = (_sent(model.requests[i]) for i in (0, 1))  # as sent: a @user_message template wraps the question
    third = [m.content for m in model.requests[2].messages]
    if bob in third:
        return wrong("Alice's third request carried Bob's message: the memory id is not the user id parameter")
    if alice not in third:
        return wrong("Alice's second question was sent without her first: is the user id marked MemoryId?")
    return right("ai_service built chat() from its declaration, and each memory id has its own conversation.")


def _memory_id_parameter(declaration: Any) -> str:
    """Which of chat's parameters MemoryId marks, as "second parameter, 'question'": the parameters may be in the
    other order (question, user id) or in this one with the markers swapped; "second parameter" when not read."""
    from toolkit.tools.decorator import MemoryId

    try:
        parameters = list(inspect.signature(declaration.chat).parameters.values())[1:]  # after self
        hints = typing.get_type_hints(declaration.chat, include_extras=True)
    except Exception:  # a signature not read, a name only ai_service's own reading resolves: said without its name
        return "second parameter"
    for place, parameter in zip(("first", "second", "third"), parameters, strict=False):
        if MemoryId in getattr(hints.get(parameter.name), "__metadata__", ()):
            return f"{place} parameter, {parameter.name!r}"
    return "second parameter"


def _sent(request: Any) -> Any:
    """The text of the user message a request ends with: the question as the service sent it."""
    return request.messages[-1].content


def _not_a_class(answer: Any) -> str:
    """What to say when a learner gave something else where the declaring class goes: an instance of
    their class (the class called), the service `ai_service()` made of it, or any other value as `show`
    quotes it."""
    cls = type(answer)
    if "__plans__" in vars(cls):  # ai_service's class: a subclass of the declaration
        return (
            f"answer with the class itself ({cls.__bases__[0].__name__}), not the service ai_service() made of it: "
            "the check makes its own, with a scripted model"
        )
    if cls.__module__ != "builtins" and callable(getattr(cls, "chat", None)):
        return f"answer with the class itself, not an instance of it: answer = {cls.__name__}, without the ()"
    return f"answer with the class itself, not {show(answer)}"


def _return_type(declaration: Any) -> str:
    """The return type `chat` declares, as written (`str | None`, `Optional[str]`, `dict`)."""
    import inspect
    import typing

    try:
        declared = typing.get_type_hints(declaration.chat).get("return")
    except Exception:  # a name only ai_service's own reading resolves: show the annotation as written
        declared = inspect.signature(declaration.chat).return_annotation
    if isinstance(declared, type):
        return declared.__name__
    return repr(declared).replace("typing.", "")


@answer_exercise(
    "w4.memory_count",
    "on the embedded gateway, Alice asks an order question, then says 谢谢: how many messages does her memory hold "
    "(system included)?",
    answer=7,
    comment="a number",
    solution_comment="system, user, assistant (tool call), tool result, assistant, user, assistant",
    hint="memory keeps the tool-call message and the tool result too, not only what the user sees.",
)
def check_memory_count(answer: Any) -> Verdict:
    from typing import Annotated, Protocol

    from toolkit.chat.switch import fake_client
    from toolkit.course.assistant import shop_registry
    from toolkit.course.shop import load_shop
    from toolkit.loop.records import COURSE
    from toolkit.services.declare import UserText, system_message
    from toolkit.services.service import ai_service, memory_per_id
    from toolkit.tools.decorator import MemoryId

    class Support(Protocol):
        @system_message(file="ecom_support.txt")
        def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

    memories = memory_per_id()
    service = ai_service(
        cast(Any, Support), model=fake_client(), registry=shop_registry(load_shop()), memory=memories, options=COURSE
    )
    service.chat("alice", ORDER_QUESTION)
    service.chat("alice", "谢谢")
    roles = [m.role for m in memories("alice").messages()]
    if problem := number_problem(answer):
        return problem
    if answer == len(roles):
        return right(f"{len(roles)} messages: {', '.join(roles)}.")
    seen = roles.count("user") + roles.count("assistant") - 1  # the questions and answers, not the tool call
    if answer == seen:
        return wrong("memory keeps more than what the user sees — the tool-call turn counts too")
    if answer == seen + 1:  # those and the system message: "the system message too" would be untrue of it
        return wrong(
            f"memory does not hold {counted(answer, 'message')}: it keeps every message of both turns, the "
            "tool-call turn (the model's call and the tool's result) too, beside the system message"
        )
    if answer > len(roles):  # "the system message too" would read as if one were missing
        return wrong(
            f"memory does not hold {counted(answer, 'message')}: that is more than it keeps — count each message "
            "once (the system message is stored once, however many times chat() is called)"
        )
    return wrong(
        f"memory does not hold {counted(answer, 'message')}: count every message it keeps, the system message too"
    )


@answer_exercise(
    "w4.repair_requests",
    "structured output: the model calls a tool, answers in prose, then in JSON — how many model requests?",
    answer=3,
    comment="a number",
    solution_comment="tool call, prose (cannot be parsed), the repair round's JSON",
    hint="prose cannot become an OrderSummary: the service asks once more, with the parsing error.",
)
def check_repair_requests(answer: Any) -> Verdict:
    from typing import Protocol

    from pydantic import BaseModel

    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.course.assistant import shop_registry
    from toolkit.course.shop import load_shop
    from toolkit.loop.records import COURSE
    from toolkit.services.service import ai_service

    class OrderSummary(BaseModel):
        order_id: str
        status: str

    class Desk(Protocol):
        def summarize(self, question: str) -> OrderSummary: ...

    model = ScriptedModel(
        [
            call("query_order", orderId="SN202610200001"),
            "订单已发货。",
            '{"order_id": "SN202610200001", "status": "已发货"}',
        ]
    )
    ai_service(cast(Any, Desk), model=model, registry=shop_registry(load_shop()), options=COURSE).summarize(
        "SN202610200001?"
    )
    n = len(model.requests)
    if problem := number_problem(answer):
        return problem
    if answer == n:
        return right(f"{n} requests: the last one is the repair round.")
    if answer == n - 1:
        return wrong("you left out the repair round: prose does not parse, so the service asks again")
    below = f": {NO_CALL_UNASKED}" if answer < 1 else ""
    return wrong(f"the model did not receive {answer} request{'' if answer == 1 else 's'}{below}")


@answer_exercise(
    "w4.immediate",
    "a tool marked IMMEDIATE makes a return label: how many model requests does label() make?",
    answer=1,
    comment="a number",
    hint="IMMEDIATE: the tool's result is the answer; nobody asks the model to repeat it.",
)
def check_immediate(answer: Any) -> Verdict:
    from typing import Protocol

    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.services.service import ai_service
    from toolkit.tools.decorator import ReturnBehavior, tool

    @tool("为订单生成退货快递单，结果直接交给用户", return_behavior=ReturnBehavior.IMMEDIATE)
    def create_return_label(orderId: str) -> str:
        return f"退货单 RL-{orderId}"

    class ReturnDesk(Protocol):
        def label(self, request: str) -> str: ...

    model = ScriptedModel([call("create_return_label", orderId="SN202610200005"), "不该用到"])
    ai_service(cast(Any, ReturnDesk), model=model, tools=[create_return_label]).label("SN202610200005 我要退货")
    n = len(model.requests)
    if problem := number_problem(answer):
        return problem
    if answer == n:
        return right("one request: the tool result is returned as is.")
    if answer < 1:  # "returns at once" would read as the reason for fewer requests
        return wrong(f"not {answer}: {NO_CALL_UNASKED}")
    return wrong(f"not {answer}: after an IMMEDIATE tool the loop returns at once")


STREAM_KINDS = ("TextDelta", "ToolCallDelta", "ToolStarted", "ToolFinished", "StreamDone")


def stream_kinds() -> list[str]:
    """The kinds of event a streamed service call yields, consecutive repeats merged."""
    from typing import Annotated, Protocol

    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.course.assistant import shop_registry
    from toolkit.course.shop import load_shop
    from toolkit.loop.records import COURSE
    from toolkit.services.declare import UserText
    from toolkit.services.results import TokenStream
    from toolkit.services.service import ai_service

    class Desk(Protocol):
        def stream(self, question: Annotated[str, UserText]) -> TokenStream: ...

    model = ScriptedModel([call("query_order", orderId="SN202610200001"), "订单 SN202610200001 已发货，正在路上。"])
    service: Any = ai_service(cast(Any, Desk), model=model, registry=shop_registry(load_shop()), options=COURSE)
    kinds: list[str] = []
    for event in service.stream(ORDER_QUESTION):
        if not kinds or kinds[-1] != type(event).__name__:
            kinds.append(type(event).__name__)
    return kinds


@exercise(
    "w4.stream_order",
    4,
    "predict",
    "a streamed answer that calls query_order once: which kinds of event arrive, in which order?",
    starter="""
        from toolkit.exercises import check

        # the model first calls query_order, then answers in prose; the method is declared -> TokenStream.
        # Kinds to choose from: "TextDelta", "ToolCallDelta", "ToolStarted", "ToolFinished", "StreamDone".
        # List the kinds that arrive, in order; write a kind once for a run of it ("TextDelta" for 3 in a row).
        answer = [...]
        check("w4.stream_order", answer)
        """,
    solution="""
        from toolkit.exercises import check

        answer = ["ToolCallDelta", "ToolStarted", "ToolFinished", "TextDelta"]
        check("w4.stream_order", answer)
        """,
    hint="the first reply is the tool call (streamed as ToolCallDelta fragments); the tool runs; only then does "
    "the model write the answer, in a second reply.",
)
def check_stream_order(answer: Any) -> Verdict:
    kinds = as_list(answer)
    if kinds is not None:  # the event classes themselves (imported from toolkit) name their kinds too
        kinds = [k.__name__ if isinstance(k, type) else k for k in kinds]
    if kinds is None or not all(isinstance(k, str) for k in kinds):
        return wrong(f'answer with a list of kind names, e.g. ["TextDelta"]{made_a_list(answer)}')
    answer = [one_of(k, STREAM_KINDS) or k for k in kinds]
    unknown = [k for k in answer if k not in STREAM_KINDS]
    if unknown:
        return wrong(f"{unknown[0]!r} is not one of {', '.join(STREAM_KINDS)}")
    actual = stream_kinds()
    if answer == actual:
        return right(
            f"{' → '.join(actual)}: a UI can show 'calling query_order…' between ToolStarted and ToolFinished, "
            "and every TextDelta belongs to the answer written after the tool ran."
        )
    if "StreamDone" in answer and "StreamDone" not in actual:
        return wrong(
            "no StreamDone reaches you: the service assembles each reply from the SSE client's events and "
            "passes on the deltas and the tool events only"
        )
    missing = [k for k in actual if k not in answer]
    if "ToolCallDelta" in missing:
        return wrong("the tool call is streamed too, before it can run: its fragments arrive as ToolCallDelta")
    if "ToolStarted" in missing or "ToolFinished" in missing:
        return wrong("the service tells you when the tool runs: ToolStarted before it, ToolFinished after it")
    if "TextDelta" in missing:
        return wrong("the answer itself streams: its text arrives as TextDelta events")
    if "TextDelta" in answer and "ToolFinished" in answer and answer.index("TextDelta") < answer.index("ToolFinished"):
        return wrong(
            "no TextDelta comes before ToolFinished here: the answer is a second reply, written only after "
            "the tool's result went back to the model"
        )
    if any(a == b for a, b in zip(answer, answer[1:])):
        return wrong("write each run of a kind once")
    for kind in dict.fromkeys(answer):  # a kind in more runs than arrive: one call, one answer
        if (said := answer.count(kind)) > (runs := actual.count(kind)):
            return wrong(
                f"{kind} arrives in {runs} run{'s' * (runs != 1)} here, not {said}: the model calls query_order "
                "once, then writes its answer"
            )
    return wrong(f"the stream is not {' → '.join(answer)}")
