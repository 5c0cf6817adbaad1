"""Compensations found where LangChain4j finds `@CompensateFor`: beside the tools, on the objects
(and modules) given as `tools=`; and a compensation given as a tool is refused, never shown to the model."""

import types

import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError, ToolDefinitionError
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.loop.saga import ToolExecution, compensates, rolled_back_text
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from

LOG: list[str] = []


class Shop:
    @tool("扣减库存")
    def reserve_stock(self, sku: str, qty: int) -> str:
        LOG.append(f"reserve {sku}")
        return "reserved"

    @compensates("reserve_stock")
    def release_stock(self, sku: str, qty: int) -> None:
        LOG.append(f"release {sku}")

    @tool("发货")
    def ship(self, order_id: str) -> str:
        raise RuntimeError("carrier down")


SCRIPT = [[call("reserve_stock", sku="A1", qty=2, id="c1"), call("ship", order_id="SN1", id="c2")], "已取消"]


def setup_function():
    LOG.clear()


def _contents(result):
    return {m.tool_call_id: m.content for m in result.messages if isinstance(m, ToolResultMessage)}


def test_a_compensation_declared_beside_the_tools_on_the_object_is_found():
    result = run_loop(
        ScriptedModel(list(SCRIPT)), [UserMessage(content="下单")], tools=[Shop()], options=LoopOptions(compensate=True)
    )
    assert LOG == ["reserve A1", "release A1"]
    assert _contents(result)["c1"] == rolled_back_text("reserve_stock", "ship")


def test_the_found_compensation_is_bound_to_the_very_object_given():
    class Counting(Shop):
        def __init__(self) -> None:
            self.released = 0

        @compensates("reserve_stock")
        def release_stock(self, sku: str, qty: int) -> None:
            self.released += qty

    shop = Counting()
    run_loop(
        ScriptedModel(list(SCRIPT)), [UserMessage(content="下单")], tools=[shop], options=LoopOptions(compensate=True)
    )
    assert shop.released == 2


def test_one_given_in_compensations_too_runs_once():
    shop = Shop()
    options = LoopOptions(compensate=True, compensations=(shop.release_stock,))
    run_loop(ScriptedModel(list(SCRIPT)), [UserMessage(content="下单")], tools=[shop], options=options)
    assert LOG == ["reserve A1", "release A1"]


def test_a_module_given_as_tools_gives_its_compensations_too():
    module = types.ModuleType("shop_tools")

    @tool("扣减库存")
    def reserve_stock(sku: str, qty: int) -> str:
        LOG.append(f"reserve {sku}")
        return "reserved"

    @compensates("reserve_stock")
    def undo(execution: ToolExecution) -> None:
        LOG.append(f"undo {execution.call.name}")

    @tool("发货")
    def ship(order_id: str) -> str:
        raise RuntimeError("carrier down")

    for fn in (reserve_stock, undo, ship):
        fn.__module__ = module.__name__
        setattr(module, fn.__name__, fn)
    run_loop(
        ScriptedModel(list(SCRIPT)), [UserMessage(content="下单")], tools=[module], options=LoopOptions(compensate=True)
    )
    assert LOG == ["reserve A1", "undo reserve_stock"]


def test_found_compensations_are_not_read_while_compensation_is_off():
    class Broken(Shop):
        @compensates("no_such_tool")
        def release_stock(self, sku: str, qty: int) -> None: ...

    result = run_loop(ScriptedModel(list(SCRIPT)), [UserMessage(content="下单")], tools=[Broken()])
    assert _contents(result)["c1"] == "reserved"
    with pytest.raises(ConfigurationError, match="there is no tool named 'no_such_tool'"):
        run_loop(
            ScriptedModel(list(SCRIPT)),
            [UserMessage(content="下单")],
            tools=[Broken()],
            options=LoopOptions(compensate=True),
        )


def test_a_compensation_given_as_a_tool_is_refused():
    @compensates("reserve_stock")
    def release_stock(sku: str, qty: int) -> None: ...

    with pytest.raises(ToolDefinitionError) as caught:
        tools_from(release_stock)
    assert str(caught.value) == (
        "tools_from(release_stock): it is the compensation of tool 'reserve_stock' (@compensates), which the "
        "model must never call. Fix: pass it as LoopOptions(compensate=True, compensations=(release_stock,))"
    )
