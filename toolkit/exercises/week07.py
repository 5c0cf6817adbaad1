"""Week 7 exercises: rollback order, writing a compensation, what the model reads, when it runs.

A compensation is checked on a trip that books twice (Alice, who already has another stay, and
Carol, who already has a stay of the same nights), then registers a walk-in that has no
compensation, then fails: each booking of the trip must go and nothing else — so a compensation
that removes a fixed booking, the last one, the guest's first one or every equal one fails, and one
that records the cancellation beside the booking (a text, a marked dict) is told what it added. A
compensation whose module's `BOOKINGS` is another list (a cell, or the compensation itself, assigned
it) is told so before its remove() is judged. BOOKINGS holds after the check what it held before it: the trips are the check's, not the learner's.

Leaves out: a compensation that fails (the week-7 notebook shows it).
"""

import inspect
import json
import random
import re
from collections import Counter
from typing import Any

from toolkit.exercises.answers import as_list, dict_answer_problem, made_a_list, misses, one_of, verdict_of
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import Verdict, exercise, right, wrong
from toolkit.exercises.values import is_number, show

STOCK = {"PH-001": 5}
PAYMENTS: list[tuple[str, int]] = []
BOOKINGS: list[tuple[str, int]] = []
"""The hotel of `w7.compensation`: (guest, nights) booked and not cancelled."""


def _shop(fail_shipment: bool = True) -> tuple[list[Any], tuple[Any, ...]]:
    from toolkit.loop.saga import ToolExecution, compensates
    from toolkit.tools.decorator import tool

    @tool("扣减库存：为订单预留商品。")
    def reserve_stock(sku: str, qty: int) -> str:
        STOCK[sku] -= qty
        return f"已预留 {qty} 件 {sku}"

    @tool("扣款：按订单金额扣款。")
    def charge_payment(order_id: str, amount: int) -> str:
        PAYMENTS.append((order_id, amount))
        return f"已扣款 {amount} 元"

    @tool("发货：创建物流单。")
    def create_shipment(order_id: str, address: str) -> str:
        if fail_shipment:
            raise ConnectionError("carrier API timed out after 30 s")
        return "已发货"

    @compensates("reserve_stock")
    def release_stock(sku: str, qty: int) -> None:
        STOCK[sku] += qty

    @compensates("charge_payment")
    def refund_payment(execution: ToolExecution) -> None:
        arguments = json.loads(execution.call.arguments)
        PAYMENTS.remove((arguments["order_id"], arguments["amount"]))

    return [reserve_stock, charge_payment, create_shipment], (release_stock, refund_payment)


def place_order(compensate: bool = True, fail_shipment: bool = True) -> tuple[Any, Any]:
    """The week-7 order: reserve, then charge + ship in one round; returns (model, result)."""
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.loop.run import LoopOptions, run_loop

    STOCK["PH-001"] = 5
    PAYMENTS.clear()
    tools, compensations = _shop(fail_shipment)
    model = ScriptedModel(
        [
            call("reserve_stock", sku="PH-001", qty=2),
            [
                call("charge_payment", order_id="SN202610200001", amount=5998),
                call("create_shipment", order_id="SN202610200001", address="杭州市西湖区文三路 1 号"),
            ],
            "好的。",
        ]
    )
    options = LoopOptions(compensate=compensate, compensations=compensations if compensate else ())
    return model, run_loop(model, [UserMessage(content="下单：PH-001 两件")], tools=tools, options=options)


TOOL_NAMES = ("reserve_stock", "charge_payment", "create_shipment")


@answer_exercise(
    "w7.rollback_order",
    "reserve_stock (round 1), then charge_payment + create_shipment (round 2, shipment fails): "
    "which calls are rolled back, in what order?",
    answer=["charge_payment", "reserve_stock"],
    comment="tool names, in the order their compensations run",
    hint="every successful compensable call of the turn is undone, the newest first — like a stack.",
)
def check_rollback_order(answer: Any) -> Verdict:
    _, result = place_order()
    actual = [entry.tool for entry in result.saga]
    names = as_list(answer)
    if names is None or not all(isinstance(name, str) for name in names):
        return wrong(f"answer with a list of tool names{made_a_list(answer)}")
    unknown = next((name for name in names if one_of(name, TOOL_NAMES) is None), None)
    if unknown is not None:  # an empty name ("") is one too, though it reads as false
        return wrong(f"{show(unknown)} is not a tool of this order: answer with tool names ({', '.join(TOOL_NAMES)})")
    answer = [one_of(name, TOOL_NAMES) for name in names]
    if answer == actual:
        return right(f"rolled back {' then '.join(actual)}: reverse order of execution, across rounds.")
    if sorted(answer) == sorted(actual):
        return wrong("the right calls, in the wrong order: compensations run in reverse")
    if "create_shipment" in answer:
        return wrong("create_shipment failed: there is nothing of it to undo")
    if answer == actual[:1]:
        return wrong("the round-1 reserve_stock is part of the same turn: it is undone too")
    return wrong(f"the saga log does not list {answer}")


@exercise(
    "w7.compensation",
    7,
    "write",
    "write the compensation of book_hotel(guest, nights): it must remove the booking from BOOKINGS",
    starter="""
        from toolkit import compensates
        from toolkit.exercises import check
        from toolkit.exercises.week07 import BOOKINGS   # book_hotel appends (guest, nights) here

        answer = ...   # a function marked @compensates("book_hotel")
        check("w7.compensation", answer)
        """,
    solution="""
        from toolkit import compensates
        from toolkit.exercises import check
        from toolkit.exercises.week07 import BOOKINGS   # book_hotel appends (guest, nights) here


        @compensates("book_hotel")
        def cancel_hotel(guest: str, nights: int) -> None:
            BOOKINGS.remove((guest, nights))


        answer = cancel_hotel
        check("w7.compensation", answer)
        """,
    hint="a compensation takes the tool's own parameters (or the recorded ToolExecution) and undoes its effect.",
)
def check_compensation(answer: Any) -> Verdict:
    kept = list(BOOKINGS)  # the learner's own bookings (a cell that booked by hand): theirs again after the check
    try:
        return _compensation_verdict(answer)
    finally:
        BOOKINGS[:] = kept


def _compensation_verdict(answer: Any) -> Verdict:
    """`check_compensation`'s verdict, its trips run on BOOKINGS (`_hotel_trip` resets it to each trip's own)."""
    from toolkit.errors import ConfigurationError

    if not callable(answer):  # said as every check says it (a number of 5,000 digits too, which no repr writes)
        return wrong(
            f"answer with a function marked @compensates('book_hotel') (its name, without calling it), not {show(answer)}"
        )
    if problem := _rebound(answer) or _refused(answer):
        return problem
    greedy: list[str] = []  # a call of the compensation that removed more than one booking
    for earlier, trip in [(EARLIER_BOOKINGS, TRIP_BOOKED), *_other_trips()]:
        try:
            result = _hotel_trip(
                _one_each(answer, greedy), trip + [("pay_deposit", {"guest": trip[0][1]["guest"]})], earlier
            )
        except ConfigurationError as error:
            return wrong(f"the loop refused the compensation: {error}")
        if problem := _rebound(answer):
            return problem
        if failed := next((entry for entry in result.saga if not entry.ok), None):
            return wrong(
                _said_of_yours(failed.detail) + _json_text_tip(answer, failed.detail) + _no_such_tip(failed.detail)
            )
        walk_ins = [(arguments["guest"], arguments["nights"]) for name, arguments in trip if name == "walk_in"]
        if problem := _added_problem(earlier + [(arguments["guest"], arguments["nights"]) for _, arguments in trip]):
            return problem
        if problem := _bookings_problem(earlier + walk_ins, trip):
            return problem
        if greedy:  # BOOKINGS ends as it should, but not by each call undoing its own booking
            return wrong(greedy[0])
    _hotel_trip(answer, [("book_hotel", {"guest": "bob", "nights": 5})], EARLIER_BOOKINGS)
    if ("bob", 5) not in BOOKINGS:
        return wrong("with no failure nothing may be undone, yet Bob's booking is gone")
    return right("each call's own booking undone on failure, kept on success, nobody else's touched.")


def _one_each(answer: Any, greedy: list[str]) -> Any:
    """`answer` as the loop calls it, adding to `greedy` what is wrong when one call removed more than one booking
    from BOOKINGS: each call undoes its own (a compensation that set BOOKINGS to what the check expects after the
    whole rollback, read from the check's frame, got ✓ without undoing its call)."""
    import functools

    @functools.wraps(answer)
    def undo(*args: Any, **kwargs: Any) -> Any:
        before = _tally()
        try:
            return answer(*args, **kwargs)
        finally:
            if (removed := (before - _tally()).total()) > 1 and not greedy:
                called = ", ".join(show(value) for value in (*args, *kwargs.values()))
                greedy.append(
                    f"{getattr(answer, '__name__', 'your compensation')}({called}) removed {removed} bookings from "
                    "BOOKINGS: each call undoes its own booking, one, and leaves the others to their own calls"
                )

    return undo


def _tally() -> Counter[str]:
    """BOOKINGS as a multiset of the entries' reprs (what a learner's code adds may be unhashable); empty when an
    entry's repr fails (what the learner put there is told of by `_added_problem`)."""
    try:
        return Counter(map(repr, BOOKINGS))
    except Exception:
        return Counter()


_STR_AS_DICT = re.compile(r"string indices must be integers|'str' object (has no attribute|is not a mapping)|not str\b")
"""What Python says when a text is read as a dict: `text["guest"]`, `text.get("guest")`, `dict(**text)`."""


def _json_text_tip(answer: Any, detail: str) -> str:
    """Why a compensation that takes the recorded ToolExecution failed reading its call's arguments as a dict: they
    are the JSON text the model sent (`ToolCall.arguments`, as LangChain4j keeps them) — "" for another failure."""
    if not _STR_AS_DICT.search(detail) or not _takes_execution(answer):
        return ""
    return (
        " — execution.call.arguments is the JSON text the model sent, not a dict: read it with "
        "json.loads(execution.call.arguments), or take book_hotel's own parameters (guest: str, nights: int)"
    )


_NOT_IN_LIST = re.compile(r"(^|: )ValueError: (list\.remove\(x\): x not in list|.* is not in list)$")
"""What Python says when `BOOKINGS.remove(x)` or `BOOKINGS.index(x)` finds no item equal to x."""


def _no_such_tip(detail: str) -> str:
    """Why a compensation found no booking to remove: it looked for something no booking equals (a list where
    each is a tuple, the fields swapped, another call's booking: the visible example's) — "" for another failure."""
    if not _NOT_IN_LIST.search(detail):
        return ""
    return (
        " — what your code looked for is not in BOOKINGS: each booking is the tuple (guest, nights) book_hotel "
        "appended for its own call, in that order; a list [guest, nights] never equals one, and another call's "
        "booking is not this call's"
    )


def _takes_execution(answer: Any) -> bool:
    """Whether `answer` has a parameter annotated ToolExecution (the class, or its name as a string annotation)."""
    from toolkit.loop.saga import ToolExecution

    try:
        parameters = inspect.signature(answer).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(
        p.annotation is ToolExecution or (isinstance(p.annotation, str) and p.annotation.endswith("ToolExecution"))
        for p in parameters
    )


def _said_of_yours(detail: str) -> str:
    """The saga log's detail of a failed attempt, said once: "your compensation failed: …" or "your
    compensation reported a failure: …", not "…failed: compensation reported a failure: …"."""
    if detail.startswith("compensation "):
        return "your " + detail
    return f"your compensation failed: {detail}"


def _rebound(answer: Any) -> Verdict | None:
    """✗ when the name BOOKINGS in the compensation's module is another list than this module's (a cell
    or the compensation assigned it): its remove() then fails or changes nothing, and the code looks right."""
    import inspect

    try:
        function = inspect.unwrap(answer)
    except ValueError:  # a __wrapped__ chain that loops: nothing to read
        return None
    names = getattr(function, "__globals__", None)
    if not isinstance(names, dict) or names.get("BOOKINGS", BOOKINGS) is BOOKINGS:
        return None
    return wrong(
        "BOOKINGS in your code is no longer the list book_hotel appends to: something assigned BOOKINGS = ...; "
        "run from toolkit.exercises.week07 import BOOKINGS again, then change that list in place (BOOKINGS.remove), "
        "never assign it"
    )


EARLIER_BOOKINGS = [("alice", 3), ("someone else", 3), ("carol", 4)]
"""In BOOKINGS before the trip: Alice's earlier stay (same guest, other nights), another guest's, and
Carol's earlier stay of the very nights the trip books again (an equal booking: one of the two goes)."""

TRIP_BOOKED = [
    ("book_hotel", {"guest": "alice", "nights": 2}),
    ("book_hotel", {"guest": "carol", "nights": 4}),
    ("walk_in", {"guest": "erin", "nights": 1}),
]
"""The failed trip's calls before the failing deposit: two bookings to undo, then one made after them
that has no compensation and must stay."""

Trip = list[tuple[str, dict[str, Any]]]


def _other_trips() -> list[tuple[list[tuple[str, int]], Trip]]:
    """More failed trips (seeded, other guests and nights), each with bookings that match the undone
    ones in one field only: the guest's own later walk-in, another guest's stay of the same nights,
    before the trip and after its bookings. Only the booking with both the guest and the nights is
    the call's own; a compensation that finds it by one field removes the wrong one here. The last trip's guests
    are written with capitals, a space and in Chinese, beside the same names in other letter case: a compensation
    that changes the name it is given (`guest.lower()`) removes someone else's booking there."""
    rng = random.Random(7)
    trips = []
    for _ in range(3):
        a, b, c, d = rng.sample(["dave", "frank", "grace", "heidi", "ivan", "judy"], 4)
        n, m, k = rng.sample(range(1, 10), 3)
        earlier = [(c, n), (a, k)]  # another guest, the same nights; the same guest, other nights
        trip: Trip = [
            ("book_hotel", {"guest": a, "nights": n}),
            ("book_hotel", {"guest": b, "nights": m}),
            ("walk_in", {"guest": a, "nights": m}),
            ("walk_in", {"guest": d, "nights": n}),
            ("walk_in", {"guest": b, "nights": k}),
        ]
        trips.append((earlier, trip))
    # guests as a model writes them, capitals, a space, Chinese: the booking is (guest, nights) exactly as booked,
    # and an earlier stay of the same nights by the guest's name in lower case is someone else's (a compensation
    # that lower-cased the name removed it: every name above is already lower case)
    capitals = [("book_hotel", {"guest": "Alice Wang", "nights": 3}), ("book_hotel", {"guest": "李雷", "nights": 2})]
    trips.append(
        ([("alice wang", 3), ("Alice Wang", 5)], [*capitals, ("walk_in", {"guest": "ALICE WANG", "nights": 3})])
    )
    return trips


def _hotel_trip(answer: Any, calls: Trip, earlier: list[tuple[str, int]]) -> Any:
    """Run `calls` (one a round) with `answer` as book_hotel's compensation, BOOKINGS reset to `earlier` first."""
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.loop.run import LoopOptions, run_loop

    BOOKINGS[:] = earlier
    model = ScriptedModel([*(call(name, **arguments) for name, arguments in calls), "好的"])
    return run_loop(
        model,
        [UserMessage(content="订酒店")],
        tools=_hotel_tools(),
        options=LoopOptions(compensate=True, compensations=(answer,)),
    )


def _refused(answer: Any) -> Verdict | None:
    """✗ in the loop's own words when it refuses the compensation as the learner wrote it; None when it takes it.
    Asked before `_one_each` wraps it: the loop's refusal of that wrapper would describe the check's code ("a
    functools.wraps wrapper of an async function", of a plain `async def`)."""
    from toolkit.errors import ConfigurationError
    from toolkit.loop.saga import compensations_from
    from toolkit.tools.execute import function_tool

    try:
        compensations_from([answer], {"book_hotel": function_tool(_hotel_tools()[0])})
    except ConfigurationError as error:
        return wrong(f"the loop refused the compensation: {error}")
    return None


def _hotel_tools() -> list[Any]:
    """The trip's tools: book_hotel (its compensation the learner's), walk_in (not undoable), and pay_deposit,
    which fails."""
    from toolkit.tools.decorator import tool

    @tool("预订酒店。")
    def book_hotel(guest: str, nights: int) -> str:
        BOOKINGS.append((guest, nights))
        return f"已为 {guest} 预订 {nights} 晚"

    @tool("前台登记散客入住（不可撤销）。")
    def walk_in(guest: str, nights: int) -> str:
        BOOKINGS.append((guest, nights))
        return f"{guest} 已入住 {nights} 晚"

    @tool("支付押金。")
    def pay_deposit(guest: str) -> str:
        raise ConnectionError("payment gateway down")

    return [book_hotel, walk_in, pay_deposit]


def _added_problem(made: list[tuple[str, int]]) -> Verdict | None:
    """✗ naming what BOOKINGS holds after the rollback that no call booked (`made`: the bookings before the
    trip and those its calls made), as the compensation put it there — a cancellation recorded beside the
    booking (a text, a marked dict, a negative stay) instead of the booking removed; None when there is none.
    Compared with `==` one by one: what a learner's code adds may be unhashable, or not comparable in order."""
    pool, added = list(made), []
    for entry in BOOKINGS:
        if entry in pool:
            pool.remove(entry)
        else:
            added.append(entry)
    if not added:
        return None
    more = f" and {len(added) - 1} more" if len(added) > 1 else ""
    return wrong(
        f"after the rollback BOOKINGS holds {show(added[0])}{more}, which no call booked: your compensation added "
        f"{_it(added)} — undo book_hotel by removing its booking, the (guest, nights) it appended, not by adding to "
        "BOOKINGS"
    )


def _bookings_problem(expected: list[tuple[str, int]], trip: Trip) -> Verdict | None:
    """✗ naming the bookings the rollback removed that no undone call made, else an earlier one equal to an
    undone call's that went with it, else one of the trip it left; None when BOOKINGS is right."""
    from collections import Counter

    left, wanted = Counter(BOOKINGS), Counter(expected)
    booked: Counter[Any] = Counter(
        (arguments["guest"], arguments["nights"]) for name, arguments in trip if name == "book_hotel"
    )
    gone = wanted - left
    if lost := sorted(gone - booked):  # first: bookings no undone call made (BOOKINGS.clear() took them all)
        return wrong(
            f"after the rollback {_stays(lost)} {_is(lost)} gone, but no undone call booked {_it(lost)}: undo only this call's "
            "effect — the booking with its own guest and nights"
        )
    if again := sorted(gone & booked):  # only an equal booking of the trip's went with it
        return wrong(
            f"after the rollback {_stays(again, 'earlier ')} {_is(again)} gone too: an undone call removes its own "
            "booking — one, not every equal one"
        )
    if kept := sorted(left - wanted):
        return wrong(
            f"after the rollback {_stays(kept)} {_is(kept)} still in BOOKINGS: each undone call must remove its own "
            "booking"
        )
    return None


def _is(bookings: list[Any]) -> str:
    return "is" if len(bookings) == 1 else "are"


def _it(bookings: list[Any]) -> str:
    return "it" if len(bookings) == 1 else "them"


def _stays(bookings: list[tuple[str, int]], which: str = "") -> str:
    return " and ".join(
        f"{guest}'s {which}booking of {nights} night{'s' * (nights != 1)}" for guest, nights in bookings
    )


@answer_exercise(
    "w7.model_reads",
    "after the rollback, which of the three tool results does the model read as errors (is_error)?",
    answer={"reserve_stock": True, "charge_payment": True, "create_shipment": True},
    comment="True or False",
    hint="the history is rewritten: a call that succeeded but was undone must not read as done.",
)
def check_model_reads(answer: Any) -> Verdict:
    from toolkit.chat.messages import ToolResultMessage

    model, _ = place_order()
    read = {m.tool_name: m for m in model.requests[2].messages if isinstance(m, ToolResultMessage)}
    if problem := dict_answer_problem(answer, read, (True, False)):
        return problem
    found = misses(
        answer,
        {name: m.is_error for name, m in read.items()},
        lambda name, said, is_error: f"{name}: is_error is not {show(said)}",
    )
    return verdict_of(found, "every result says what is true now: nothing is done.")


@answer_exercise(
    "w7.when",
    "how many compensations run: (a) everything succeeds, (b) shipment fails, (c) shipment fails, compensate off?",
    answer={"all succeed": 0, "shipment fails": 2, "shipment fails, compensate=False": 0},
    comment="numbers",
    hint="compensation runs only when it is switched on and a call of the turn failed after others succeeded.",
)
def check_when(answer: Any) -> Verdict:
    cases = {
        "all succeed": place_order(fail_shipment=False)[1],
        "shipment fails": place_order()[1],
        "shipment fails, compensate=False": place_order(compensate=False)[1],
    }
    if problem := dict_answer_problem(answer, cases):
        return problem
    failed = {k: next((e.call.name for e in r.executions if e.error_kind), None) for k, r in cases.items()}

    def say(k: str, said: Any, ran: int) -> str:
        if not is_number(said):
            return f"{k}: answer with a number, not {show(said)}"
        if failed[k] is not None and ran > 0 and said == ran + 1:  # the failed call counted as undone too
            return (
                f"{k}: not {show(said)} — the call that failed ({failed[k]}) changed nothing, so there is nothing of "
                "it to undo"
            )
        return f"{k}: not {show(said)}"

    found = misses(answer, {k: len(r.saga) for k, r in cases.items()}, say)
    return verdict_of(found, "on, and a failure after successes: that is when.")
