"""Week 7 exercises: rollback order, writing a compensation, what the model reads, when it runs.

Leaves out: a compensation that fails (the week-7 notebook shows it).
"""

import json
from typing import Any

from toolkit.exercises.answers import dict_answer_problem, misses, verdict_of
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import Verdict, exercise, right, wrong

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
    if not isinstance(answer, list):
        return wrong("answer with a list of tool names")
    if answer == actual:
        return right(f"rolled back {' then '.join(actual)}: reverse order of execution, across rounds.")
    if sorted(answer) == sorted(actual):
        return wrong("the right calls, in the wrong order: compensations run in reverse")
    if "create_shipment" in answer:
        return wrong("create_shipment failed: there is nothing of it to undo")
    if answer == actual[:1]:
        return wrong("the round-1 reserve_stock is part of the same turn: it is undone too")
    return wrong(f"the saga log lists {actual}")


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
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.errors import ConfigurationError
    from toolkit.loop.run import LoopOptions, run_loop
    from toolkit.tools.decorator import tool

    @tool("预订酒店。")
    def book_hotel(guest: str, nights: int) -> str:
        BOOKINGS.append((guest, nights))
        return f"已为 {guest} 预订 {nights} 晚"

    @tool("支付押金。")
    def pay_deposit(guest: str) -> str:
        raise ConnectionError("payment gateway down")

    def trip(fail: bool) -> Any:
        BOOKINGS.clear()
        BOOKINGS.append(("someone else", 3))
        calls = [call("book_hotel", guest="alice", nights=2)] + ([call("pay_deposit", guest="alice")] if fail else [])
        model = ScriptedModel([calls, "好的"])
        return run_loop(
            model,
            [UserMessage(content="订酒店")],
            tools=[book_hotel, pay_deposit],
            options=LoopOptions(compensate=True, compensations=(answer,)),
        )

    try:
        result = trip(fail=True)
    except ConfigurationError as error:
        return wrong(f"the loop refused the compensation: {error}")
    if result.saga and not result.saga[0].ok:
        return wrong(f"your compensation failed: {result.saga[0].detail}")
    if ("alice", 2) in BOOKINGS:
        return wrong("after the rollback Alice's booking is still in BOOKINGS")
    if ("someone else", 3) not in BOOKINGS:
        return wrong("your compensation removed someone else's booking: undo only this call's effect")
    trip(fail=False)
    if ("alice", 2) not in BOOKINGS:
        return wrong("with no failure nothing may be undone, yet the booking is gone")
    return right("undone on failure, kept on success, nobody else's booking touched.")


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
    if problem := dict_answer_problem(answer, read):
        return problem
    found = misses(
        answer,
        {name: m.is_error for name, m in read.items()},
        lambda name, said, is_error: f"{name}: is_error={is_error} — it reads {read[name].content!r}",
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
    found = misses(
        answer, {k: len(r.saga) for k, r in cases.items()}, lambda k, said, ran: f"{k}: {ran} ran, you said {said!r}"
    )
    return verdict_of(found, "on, and a failure after successes: that is when.")
