"""A compensation for a tool a dynamic provider adds later in the turn (a skill's own tool after
activation): checked when the tool joins, not refused at the start as "no tool named"."""

import pytest

from toolkit.chat.messages import ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ConfigurationError
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.loop.saga import compensates, rolled_back_text
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from

LOG: list[str] = []


@tool("扣减库存")
def reserve_stock(sku: str, qty: int) -> str:
    LOG.append("reserve")
    return "reserved"


@tool("发货")
def ship(order_id: str) -> str:
    raise RuntimeError("carrier down")


@tool("打开仓库工具")
def unlock() -> str:
    return "unlocked"


@compensates("reserve_stock")
def release_stock(sku: str, qty: int) -> None:
    LOG.append("release")


@compensates("reserve_stock")
def release_mismatched(sku: str) -> None:
    LOG.append("release")


class AfterUnlock:
    """Offers reserve_stock and ship once unlock has run (as a skill's tools after activation)."""

    dynamic = True

    def provide(self, request):
        opened = any(isinstance(m, ToolResultMessage) and m.tool_name == "unlock" for m in request.messages)
        return tools_from(reserve_stock, ship) if opened else []


SCRIPT = [
    call("unlock", id="c0"),
    [call("reserve_stock", sku="A1", qty=2, id="c1"), call("ship", order_id="SN1", id="c2")],
    "已取消",
]


def setup_function():
    LOG.clear()


def _run(*compensations):
    return run_loop(
        ScriptedModel(list(SCRIPT)),
        [UserMessage(content="下单")],
        tools=[unlock],
        providers=[AfterUnlock()],
        options=LoopOptions(compensate=True, compensations=compensations),
    )


def test_a_compensation_for_a_tool_a_dynamic_provider_adds_later_runs():
    result = _run(release_stock)
    assert LOG == ["reserve", "release"]
    by_id = {m.tool_call_id: m.content for m in result.messages if isinstance(m, ToolResultMessage)}
    assert by_id["c1"] == rolled_back_text("reserve_stock", "ship")


def test_it_is_checked_when_its_tool_joins_before_the_tool_runs():
    with pytest.raises(ConfigurationError, match="differ from those of tool 'reserve_stock'"):
        _run(release_mismatched)
    assert LOG == []


def test_without_a_dynamic_provider_an_unknown_target_is_refused_at_the_start():
    with pytest.raises(ConfigurationError, match="there is no tool named 'reserve_stock' in this call"):
        run_loop(
            ScriptedModel(list(SCRIPT)),
            [UserMessage(content="下单")],
            tools=[unlock],
            options=LoopOptions(compensate=True, compensations=(release_stock,)),
        )
