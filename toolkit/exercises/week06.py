"""Week 6 exercises: round trips, the return-behaviour rule, eviction without orphans, COURSE's bound,
IMMEDIATE_IF_LAST.

Leaves out: concurrency (the week-6 timeline shows it).
"""

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product
from typing import Any, cast

from toolkit.errors import a_or_an
from toolkit.exercises.answers import PRINTED, counted, dict_answer_problem, misses, number_problem, verdict_of
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import (
    LearnerError,
    Verdict,
    answers_first,
    attempt,
    exercise,
    items_of,
    left_as_given,
    own_work,
    reference,
    right,
    wrong,
)
from toolkit.exercises.values import is_number, show

QUESTION = "订单 SN202610200001 能退吗？"


def _order_tools() -> list[Any]:
    from typing import Annotated

    from toolkit.tools.decorator import Param, tool

    @tool("查询订单状态。只读。")
    def query_order(order_id: Annotated[str, Param("订单号", name="orderId")]) -> str:
        return f"订单 {order_id}：已发货"

    @tool("查询物流轨迹。只读。")
    def query_logistics(order_id: Annotated[str, Param("订单号", name="orderId")]) -> str:
        return f"订单 {order_id}：运输中"

    return [query_order, query_logistics]


@answer_exercise(
    "w6.round_trips",
    "the model asks for 3 tools at once, then 1 more, then answers: how many round trips count toward the bound?",
    answer=2,
    comment="a number",
    hint="the bound counts model responses that ask for tools — not tool calls, and not the final answer.",
)
def check_round_trips(answer: Any) -> Verdict:
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.loop.run import run_loop

    model = ScriptedModel(
        [
            [
                call("query_order", orderId="SN202610200001"),
                call("query_logistics", orderId="SN202610200001"),
                call("query_order", orderId="SN202610200002"),
            ],
            call("query_logistics", orderId="SN202610200002"),
            "两个订单都已发货。",
        ]
    )
    result = run_loop(model, [UserMessage(content=QUESTION)], tools=_order_tools())
    if problem := number_problem(answer):
        return problem
    if answer == result.round_trips:
        return right(
            f"{result.round_trips} round trips, {len(result.executions)} tool calls, "
            f"{len(model.requests)} model requests."
        )
    if answer == len(result.executions):
        return wrong("you counted tool calls; the bound counts model responses that ask for tools")
    if answer == len(model.requests):
        return wrong("you counted every model request; the last one answers and asks for nothing")
    return wrong(f"result.round_trips is not {answer}")


@exercise(
    "w6.truth_table",
    6,
    "build",
    "write returns_now(behaviors, any_error): does the loop return right after this round of tool calls?",
    starter="""
        from toolkit import ReturnBehavior
        from toolkit.exercises import check

        TO_LLM, IMMEDIATE, IMMEDIATE_IF_LAST = ReturnBehavior.TO_LLM, ReturnBehavior.IMMEDIATE, ReturnBehavior.IMMEDIATE_IF_LAST


        def returns_now(behaviors, any_error):
            # behaviors: the ReturnBehavior of each call of the round, in order; any_error: did a call fail?
            return ...


        check("w6.truth_table", returns_now)
        """,
    solution="""
        from toolkit import ReturnBehavior
        from toolkit.exercises import check

        TO_LLM, IMMEDIATE, IMMEDIATE_IF_LAST = ReturnBehavior.TO_LLM, ReturnBehavior.IMMEDIATE, ReturnBehavior.IMMEDIATE_IF_LAST


        def returns_now(behaviors, any_error):
            if any_error or not behaviors:
                return False
            if behaviors[-1] == IMMEDIATE_IF_LAST:
                return True
            return all(b in (IMMEDIATE, IMMEDIATE_IF_LAST) for b in behaviors)


        check("w6.truth_table", returns_now)
        """,
    hint="three rules: an error always goes back to the model; the LAST call being IMMEDIATE_IF_LAST returns; "
    "otherwise every call must be IMMEDIATE or IMMEDIATE_IF_LAST.",
)
def check_truth_table(fn: Any) -> Verdict:
    import sys

    from toolkit.tools.decorator import ReturnBehavior as RB

    should_return_immediately = reference("toolkit.loop.returns", "should_return_immediately")

    def run(row: tuple[tuple[Any, ...], bool]) -> Any:
        given = list(row[0])
        with own_work(sys.modules[should_return_immediately.__module__], "the loop's return rule"):
            got = attempt(fn, given, row[1])
        call = f"returns_now({_behaviors(row[0])}, any_error={row[1]})"
        left_as_given(call, "behaviors", list(row[0]), given, "its caller may read that list again", _behaviors)
        return got

    rows = [(combo, err) for err in (False, True) for n in range(1, 4) for combo in product(list(RB), repeat=n)]
    for (combo, err), got in answers_first(rows, run):
        if isinstance(got, LearnerError):
            raise got
        want = should_return_immediately(combo, err)
        if bool(got) != want:
            names = _behaviors(combo)
            tip = _not_a_bool(got) or _rule_tip(combo, err, bool(got))
            return wrong(f"returns_now({names}, any_error={err}) gave {show(got)}, the loop says {want}{tip}")
    return right(f"identical to toolkit.loop.returns on all {len(rows)} rounds of 1–3 calls, with and without errors.")


def _stays(messages: list[Any], got: list[Any]) -> str:
    """Which of what always stays a window dropped ("" when it kept both): the latest user message, or a message of
    the current round (from the latest reply after it that calls tools)."""
    users = [i for i, m in enumerate(messages) if m.role == "user"]
    if users and messages[users[-1]] not in got:
        return " — the latest user message never leaves, even when that keeps more than n"
    start = users[-1] if users else 0
    calls = [i for i, m in enumerate(messages[start:], start) if m.role == "assistant" and m.tool_calls]
    if calls and any(m not in got for m in messages[calls[-1] :]):
        return " — the current round (from the latest reply that calls tools on) never leaves, even when that keeps more than n"
    return ""


def _earlier_rounds(messages: list[Any], got: list[Any], want: list[Any]) -> str:
    """The rule a window missed when all it kept beyond the memory's are rounds of the current turn before its
    current round (between the latest user message and the latest reply that calls tools; "" otherwise)."""
    users = [i for i, m in enumerate(messages) if m.role == "user"]
    if not users:
        return ""
    calls = [i for i, m in enumerate(messages[users[-1] :], users[-1]) if m.role == "assistant" and m.tool_calls]
    earlier = messages[users[-1] + 1 : calls[-1]] if calls else []
    extra = [m for m in got if m not in want]
    if extra and all(m in earlier for m in extra):
        return (
            " — the current turn's earlier rounds (after the latest user message, before the current round) leave "
            "too, a call with its results, while more than n would be kept"
        )
    return ""


def _starts(messages: list[Any], got: list[Any], want: list[Any]) -> str:
    """The rule a window missed when messages left and what it kept (after the system message) starts with no user
    message where the memory's does ("" otherwise)."""

    def first(kept: list[Any]) -> Any:
        rest = [m for m in kept if m.role != "system"]
        return rest[0].role if rest else None

    if len(got) < len(messages) and first(want) == "user" and first(got) not in (None, "user"):
        return (
            " — once messages leave, what is kept starts with a user message: a reply left without its question "
            "answers nothing the model can see"
        )
    return ""


def _behaviors(behaviors: Any) -> str:
    """A round's behaviours as the task writes them, `[TO_LLM, IMMEDIATE]` (anything else the learner's code put
    in the list by its repr)."""
    from toolkit.tools.decorator import ReturnBehavior as RB

    return "[" + ", ".join(b.name if isinstance(b, RB) else show(b) for b in behaviors) + "]"


def _roles(messages: Any) -> str:
    """A conversation by its roles, `[system user assistant]` (anything else the learner's code put in it by its
    repr)."""
    kinds = _message_classes()
    return "[" + " ".join(cast(Any, m).role if isinstance(m, kinds) else show(m) for m in messages) + "]"


def _orphaned(got: list[Any], orphans: list[int]) -> str:
    """What is wrong with the tool results at `orphans` in a kept window: their call is gone, or (every one's
    call kept, after it: a window kept in another order) they come before it."""
    asked = {call.id for message in got if message.role == "assistant" for call in message.tool_calls}
    if all(got[i].tool_call_id in asked for i in orphans):
        return "before its call: keep the messages in the conversation's order"
    return "whose call is gone"


def _other_message(messages: list[Any], got: list[Any], want: list[Any]) -> str:
    """Where a window that keeps the memory's roles keeps another message: the first that differs, said by
    its place in the conversation (or as none of its messages: one the learner's code rewrote)."""
    i = next(i for i, (mine, kept) in enumerate(zip(got, want, strict=True)) if mine != kept)
    head = f"you keep the roles the memory keeps, but your message {i + 1} ({got[i].role})"
    if got[i] not in messages:
        return f"{head} is none of the conversation's messages: keep them as they are, unchanged"
    return (
        f"{head} is the conversation's message {messages.index(got[i]) + 1}, where the memory keeps its message "
        f"{messages.index(want[i]) + 1}"
    )


def _rule_tip(combo: tuple[Any, ...], err: bool, got: bool) -> str:
    """Which of the three rules a wrong `returns_now` answer broke, or "" when it is none of the usual ones."""
    from toolkit.tools.decorator import ReturnBehavior as RB

    if err and got:
        return " — a failed call's error must reach the model, whatever the behaviours"
    if not err and combo[0] == RB.IMMEDIATE_IF_LAST and combo[-1] != RB.IMMEDIATE_IF_LAST and got:
        return " — IMMEDIATE_IF_LAST counts only when it is the LAST call"
    if not err and combo[-1] == RB.IMMEDIATE_IF_LAST and not got:
        return " — the last call is IMMEDIATE_IF_LAST: that alone returns"
    if not err and RB.TO_LLM in combo and got:
        return " — a TO_LLM call's result must go back to the model"
    return ""


def _not_a_bool(got: Any) -> str:
    """Why a `returns_now` answer that is not a bool read as the other one ("" for a bool): the check
    reads it as the loop would (its truth), so "False" is True — said so, or "gave 'False', the loop says
    False" reads as a wrong ✗; None asks whether the function prints its answer."""
    if isinstance(got, bool):
        return ""
    if got is None:
        return f"{PRINTED} return True or False"
    if isinstance(got, str):
        why = "a text is not a bool, and any text but '' counts as True"
    elif is_number(got):
        why = "a number is not a bool, and any number but 0 counts as True"
    elif isinstance(got, (list, tuple, set, frozenset, dict)):
        kind = type(got).__name__
        why = f"{a_or_an(kind)} is not a bool, and {a_or_an(kind)} that is not empty counts as True"
    else:
        why = f"{a_or_an(type(got).__name__)} is not a bool, and it counts as {bool(got)}"
    return f" — {why}: return True or False"


def _message_classes() -> tuple[type, ...]:
    from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolResultMessage, UserMessage

    return (SystemMessage, UserMessage, AssistantMessage, ToolResultMessage)


def random_conversation(rng: random.Random, rounds: int = 2) -> list[Any]:
    """A conversation of 1–4 turns, each with up to `rounds` rounds of tool calls, then the answer."""
    from toolkit.chat.messages import AssistantMessage, SystemMessage, ToolCall, ToolResultMessage, UserMessage

    messages: list[Any] = [SystemMessage(content="sys")] if rng.random() < 0.7 else []
    n = 0
    for turn in range(rng.randint(1, 4)):
        messages.append(UserMessage(content=f"q{turn}"))
        for _ in range(rng.randint(0, rounds)):
            calls = tuple(ToolCall(id=f"c{n + i}", name="t", arguments="{}") for i in range(rng.randint(1, 3)))
            n += len(calls)
            messages.append(AssistantMessage(tool_calls=calls))
            messages += [ToolResultMessage(tool_call_id=c.id, tool_name="t", content="r") for c in calls]
        messages.append(AssistantMessage(content=f"a{turn}"))
    return messages


WINDOW_CASES = 302
"""How many conversations `w6.window` compares on: 200 finished, 100 cut mid-turn, and two without a user message."""


@dataclass(frozen=True)
class NotAList:
    """What a learner's keep() returned that is no list of messages (a str, a dict, None)."""

    value: Any


def window_conversations(rng: random.Random) -> Iterator[list[Any]]:
    """The conversations `w6.window` compares on: 200 that end with the model's answer (drawn from
    `rng` one by one, as the check draws each one's n from it too); then 100 with up to four rounds
    of tool calls in a turn (earlier rounds of the current turn leave one by one), cut at a random
    message — the memory evicts on every `add`, so it is also given a conversation that ends with the
    user's question, a reply that asks for tools, or a tool result (the current round, which never
    leaves); then one holding only the system message, and the empty one: a keep() that assumes a
    user message is caught."""
    from toolkit.chat.messages import SystemMessage

    for _ in range(200):
        yield random_conversation(rng)
    cuts = random.Random(66)
    for _ in range(100):
        messages = random_conversation(cuts, rounds=4)
        yield messages[: cuts.randint(1, len(messages))]
    yield [SystemMessage(content="sys")]
    yield []


@exercise(
    "w6.window",
    6,
    "fix",
    "fix naive_keep: keep at most n messages (the system message stays) without orphaning a tool result, "
    "never dropping the latest user message or the current round; once messages leave, keep the rest starting "
    "with a user message",
    starter="""
        from toolkit import AssistantMessage, SystemMessage, ToolResultMessage
        from toolkit.exercises import check


        def naive_keep(messages, n):          # the broken version: it can keep a tool result without its call
            return messages[-n:]


        def keep(messages, n):
            return ...   # your fixed version


        check("w6.window", keep)
        """,
    solution="""
        from toolkit import AssistantMessage, SystemMessage, ToolResultMessage, UserMessage
        from toolkit.exercises import check


        def keep(messages, n):
            system = [m for m in messages[:1] if isinstance(m, SystemMessage)]
            rest = list(messages[len(system):])
            users = [i for i, m in enumerate(rest) if isinstance(m, UserMessage)]
            user = users[-1] if users else None            # the latest user message never leaves
            first = 0 if user is None else user + 1
            calls = [i for i, m in enumerate(rest[first:], first) if isinstance(m, AssistantMessage) and m.tool_calls]
            current = calls[-1] if calls else first        # nor does the current round
            before = rest[:user] if user is not None else rest[:current]
            head = [rest[user]] if user is not None else []
            middle = rest[user + 1:current] if user is not None else []
            tail = rest[current:]

            def group(ms):                                 # a tool call leaves with its results
                size = 1
                if isinstance(ms[0], AssistantMessage) and ms[0].tool_calls:
                    while size < len(ms) and isinstance(ms[size], ToolResultMessage):
                        size += 1
                return size

            full = len(before)
            while before and len(system + before + head + middle + tail) > n:
                before = before[group(before):]
            while user is not None and len(before) < full and before and not isinstance(before[0], UserMessage):
                before = before[group(before):]            # once some leave, up to the next user message
            while middle and len(system + before + head + middle + tail) > n:
                middle = middle[group(middle):]
            kept = before + head + middle + tail
            while kept and isinstance(kept[0], ToolResultMessage):
                kept = kept[1:]
            return system + kept


        check("w6.window", keep)
        """,
    hint="drop the oldest messages first, but an assistant message with tool calls leaves together with its "
    "results, and once any leave, go on up to the next user message (a history must start with the user's turn); "
    "the system message, the latest user message and the current round (from the latest tool-calling "
    "reply on) always stay, even when that is more than n.",
)
def check_window(fn: Any) -> Verdict:
    import sys

    from toolkit.memory.windows import MessageWindow

    evict = reference("toolkit.memory.windows", "evict")
    from toolkit.views.conversation import pair_results

    def run(case: tuple[list[Any], int]) -> Any:
        messages, n = case
        given = copy.deepcopy(messages)  # a copy: changing its messages must not change the memory's
        with own_work(sys.modules[evict.__module__], "the memory's eviction"):
            got = attempt(fn, given, n)
            try:
                kept: Any = items_of(got, len(messages))  # a generator that never ends is cut after one too many
            except TypeError:
                kept = NotAList(got)
        why = "its caller may read that conversation again"
        left_as_given(f"keep(messages, {n})", "messages", messages, given, why, _roles)
        return kept

    rng = random.Random(6)  # each conversation's n is drawn from it after the conversation
    # MessageWindow needs room for one round: n is 4 or more
    cases = ((messages, rng.randint(4, max(4, len(messages) + 1))) for messages in window_conversations(rng))
    for (messages, n), got in answers_first(cases, run, settled=lambda got: isinstance(got, NotAList)):
        if isinstance(got, LearnerError):
            raise got
        if isinstance(got, NotAList):
            return wrong(f"keep() returned {show(got.value)}; return the list of messages it keeps")
        want = evict(messages, MessageWindow(n))
        if len(got) > len(messages):
            return wrong(f"for n={n} your window keeps more messages than the conversation has ({len(messages)})")
        if odd := [m for m in got if not isinstance(m, _message_classes())]:
            return wrong(f"keep() returned a list holding {show(odd[0])}; keep messages of the list it was given")
        if got != want:
            orphans = pair_results(got)[1]
            roles = _roles(messages)
            if orphans:
                return wrong(f"for n={n} and {roles} your window keeps a tool result {_orphaned(got, orphans)}")
            if messages and messages[0].role == "system" and (not got or got[0] != messages[0]):
                if messages[0] in got:  # kept, elsewhere: `kept + [system]`
                    return wrong(
                        f"for n={n} and {roles} the system message is kept, but as your message "
                        f"{got.index(messages[0]) + 1}: it comes first"
                    )
                return wrong(f"for n={n} and {roles} the system message was dropped; it always stays")
            if len(got) > max(n, len(want)):
                return wrong(
                    f"for n={n} your window keeps {counted(len(got), 'message')}{_earlier_rounds(messages, got, want)}"
                )
            if [m.role for m in got] == [m.role for m in want]:  # "you keep [user …], the memory keeps [user …]"
                return wrong(f"for n={n} and {roles} {_other_message(messages, got, want)}")
            if len(got) < len(want) == len(messages) <= n:  # dropped while n were kept (>= for >): nothing leaves
                return wrong(
                    f"for n={n} and {roles} you keep {counted(len(got), 'message')}, but all {len(messages)} fit in "
                    f"n={n}: none leaves until more than n would be kept"
                )
            return wrong(
                f"for n={n} and {roles} you keep {_roles(got)}, the memory keeps {_roles(want)}"
                f"{_stays(messages, got) or _starts(messages, got, want)}"
            )
    return right(
        f"same as the memory's eviction on {WINDOW_CASES} conversations, finished and mid-turn: never an orphan "
        "tool result."
    )


@answer_exercise(
    "w6.course_bound",
    "under COURSE, a model that never stops calling a tool: how many tools run before the hand-over?",
    answer=5,
    comment="a number",
    hint="COURSE asks the model at most COURSE.max_model_requests times (print it); the call each reply asks for "
    "runs, then it hands over with an honest message instead of raising.",
)
def check_course_bound(answer: Any) -> Verdict:
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.loop.run import COURSE, run_loop

    model = ScriptedModel([call("query_order", orderId=f"SN20261020000{i}") for i in range(10)])
    result = run_loop(model, [UserMessage(content=QUESTION)], tools=_order_tools(), options=COURSE)
    if problem := number_problem(answer):
        return problem
    ran = len(result.executions)
    if answer == ran:
        return right(f"{counted(ran, 'tool')} ran, then finish={result.finish!r}: {result.answer}")
    if answer > ran:
        return wrong(
            f"not {answer}: COURSE stops asking the model at its max_model_requests, so no reply after that brings "
            "a call to run"
        )
    if answer == ran - 1:
        return wrong(f"not {answer}: the last allowed reply's call runs too, before the hand-over")
    return wrong(f"not {answer}: COURSE does not hand over that early; count the replies it allows to ask for tools")


IF_LAST_ORDERS = ("query_order, notify_user", "notify_user, query_order")


@answer_exercise(
    "w6.if_last",
    "query_order is TO_LLM, notify_user IMMEDIATE_IF_LAST: finish for [query, notify] and for [notify, query]?",
    answer={"query_order, notify_user": "immediate", "notify_user, query_order": "answer"},
    comment='"immediate" or "answer"',
    hint="the rule looks at the last call of the round.",
)
def check_if_last(answer: Any) -> Verdict:
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.loop.run import run_loop
    from toolkit.tools.decorator import ReturnBehavior, tool

    @tool("通知用户（短信）。", return_behavior=ReturnBehavior.IMMEDIATE_IF_LAST)
    def notify_user(text: str) -> str:
        return f"已发送：{text}"

    query, notify = call("query_order", orderId="SN202610200001"), call("notify_user", text="已发货")
    if problem := dict_answer_problem(
        answer, IF_LAST_ORDERS, ("immediate", "answer"), expected=f"the starter's dict: its keys {list(IF_LAST_ORDERS)}"
    ):
        return problem

    def finish(calls: list[Any]) -> str:
        model = ScriptedModel([calls, "好的"])
        return run_loop(model, [UserMessage(content=QUESTION)], tools=[_order_tools()[0], notify_user]).finish

    actual = {IF_LAST_ORDERS[0]: finish([query, notify]), IF_LAST_ORDERS[1]: finish([notify, query])}
    found = misses(answer, actual, lambda key, said, real: f"[{key}] → finish is not {show(said)}")
    return verdict_of(found, "order matters: only a LAST IMMEDIATE_IF_LAST call returns.")
