"""`ToolExecution`, `Outcome`, `InvocationContext` and `ProviderRequest` write their fields into `__dict__` at once (a frozen dataclass's
own `__init__` sets each through `object.__setattr__`): they are the records the dataclasses
make, equal, with the same defaults, still frozen, and `dataclasses.replace` still works."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from toolkit.chat.messages import ToolCall, ToolResultMessage
from toolkit.loop.saga import ToolExecution
from toolkit.loop.sources import ProviderRequest
from toolkit.tools.decorator import InvocationContext
from toolkit.tools.execute import Outcome

CALL = ToolCall(id="c1", name="add", arguments='{"a": 1}')
RESULT = ToolResultMessage(tool_call_id="c1", tool_name="add", content="3")


def _reference(cls: type) -> type:
    """`cls` made again as a plain frozen dataclass: its generated `__init__`."""
    fields = dataclasses.fields(cls)
    return dataclasses.make_dataclass(cls.__name__, [(f.name, f.type, f) for f in fields], frozen=True)


@pytest.mark.parametrize(
    ("cls", "args", "kwargs"),
    [
        (ToolExecution, (1, CALL, RESULT), {}),
        (ToolExecution, (2, CALL, RESULT, 0.5, "execution"), {"raised": ValueError("x")}),
        (ToolExecution, (), {"round": 3, "call": CALL, "result": RESULT, "context": InvocationContext("u", {}, CALL)}),
        (ToolExecution, (1, CALL, RESULT, 0.0, None, "refund", None, None), {}),
        (Outcome, (RESULT,), {}),
        (Outcome, (RESULT, "argument"), {"raised": KeyError("k")}),
        (InvocationContext, (), {}),
        (InvocationContext, ("u", {"tenant": "t"}, CALL, 7), {}),
        (InvocationContext, (), {"tool_call": CALL, "turn": 2}),
        (InvocationContext, (None, None), {}),  # None given is kept, as the dataclass keeps it
        (ProviderRequest, ((),), {}),
        (ProviderRequest, ((RESULT,), "chat", 3), {}),
        (ProviderRequest, (), {"messages": (), "turn": 1}),
    ],
)
def test_the_written_out_constructor_makes_the_dataclasses_record(cls, args, kwargs):
    made = cls(*args, **kwargs)
    reference = _reference(cls)(*args, **kwargs)
    assert vars(made) == vars(reference)
    assert list(vars(made)) == [f.name for f in dataclasses.fields(cls)]
    assert made == cls(*args, **kwargs)
    assert repr(made).split("(", 1)[1] == repr(reference).split("(", 1)[1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.result = RESULT  # type: ignore[misc]


def test_a_left_out_parameters_dict_is_new_each_time():
    first, second = InvocationContext(), InvocationContext("u")
    assert first.parameters == {} and second.parameters == {}
    assert first.parameters is not second.parameters
    assert type(first.parameters) is dict


def test_the_written_out_constructors_take_every_field_in_order_with_its_default():
    for cls in (ToolExecution, Outcome, ProviderRequest):
        signature = list(inspect.signature(cls.__init__).parameters.values())[1:]
        fields = dataclasses.fields(cls)
        assert [p.name for p in signature] == [f.name for f in fields]
        assert [p.default for p in signature] == [
            inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields
        ]


def test_replace_goes_through_the_written_out_constructor():
    done = ToolExecution(1, CALL, RESULT, 0.25)
    undone = dataclasses.replace(done, rolled_back_by="charge")
    assert (undone.rolled_back_by, undone.duration_s, undone.call) == ("charge", 0.25, CALL)
    assert done.rolled_back_by is None
