"""toolkit.gateway.switched: a boolean switch takes the state the user asks for."""

import pytest
from test_gateway_generic_asks import S, fn, turn

from toolkit.gateway.switched import asked_state

B = {"type": "boolean"}
LIGHT = fn("toggle_light", "Turn a light on or off", {"device_id": S, "on": B})
ALARM = fn("set_alarm_state", "Enable or disable the alarm", {"enabled": B})


@pytest.mark.parametrize(
    ("text", "tool", "arguments"),
    [
        ("turn on light lamp-7", LIGHT, {"device_id": "lamp-7", "on": True}),
        ("turn the light lamp-7 on", LIGHT, {"device_id": "lamp-7", "on": True}),
        ("switch lamp-7 off", LIGHT, {"device_id": "lamp-7", "on": False}),
        ("打开灯lamp-7", LIGHT, {"device_id": "lamp-7", "on": True}),
        ("关掉灯lamp-7", LIGHT, {"device_id": "lamp-7", "on": False}),
        ("enable the alarm", ALARM, {"enabled": True}),
        ("disable the alarm", ALARM, {"enabled": False}),
        ("打开闹钟", ALARM, {"enabled": True}),
        ("关闭闹钟", ALARM, {"enabled": False}),
    ],
)
def test_a_switch_takes_the_state_asked_for(text, tool, arguments):
    """ "turn on light lamp-7" called toggle_light(on=false): every boolean was its default, else false."""
    assert turn(text, [tool])[0] == [(tool["function"]["name"], arguments)]


@pytest.mark.parametrize(
    ("name", "text", "state"),
    [
        ("on", "turn it on, no, turn it off", False),
        ("recursive", "turn on recursion", None),
        ("enabled", "what is the alarm set to?", None),
        ("power", "power the TV on", True),
    ],
)
def test_asked_state(name, text, state):
    assert asked_state(name, text) == state
