"""A boolean field that switches something takes the state the user asks for: "turn on light lamp-7" to
`toggle_light(device_id, on: bool)` is on=true, "disable the alarm" to `set_alarm(enabled: bool)` enabled=false,
"打开客厅的灯" true, "关掉空调" false.

The filler gave every boolean its `default`, else false, so "turn on light lamp-7" switched the light off. `asked_state`
reads the text for a field whose name says it is a switch (on, enabled, active, power, state: `_SWITCHES`): the last
"turn/switch on|off", "enable|disable", "activate|deactivate", 打开/开启 or 关闭/关掉 it writes, or an on or off
that ends the request ("heater on please", "fan off").
Left out: other booleans (`recursive`, `include_archived`: what would answer them is not a switch's word), and a
switch named for the off state (`disabled`, `muted`), whose true is the word "off".
"""

from __future__ import annotations

import re

_SWITCHES = frozenset(("on", "enabled", "enable", "active", "power", "state", "switch", "powered", "is_on", "turn_on"))
_STATE = re.compile(
    r"(?i)\b(?:(?:turn|switch|power|flip|put)(?:\s+\S+){0,3}?\s+(?P<on>on)\b|(?P<on2>enable|activate|start)\w*"
    r"|(?:turn|switch|power|flip|put)(?:\s+\S+){0,3}?\s+(?P<off>off)\b|(?P<off2>disable|deactivate|stop)\w*)"
    r"|(?P<zh_on>打开|开启|开一下|开灯)|(?P<zh_off>关闭|关掉|关上|关灯)"
    r"|(?i:(?<=\w\s)(?:(?P<on3>on)|(?P<off3>off))(?:\s+(?:please|pls|now|again))?[\s.!]*$)"
)
_CUE = re.compile(r"on|off|able|activ|start|stop|开|关")


def asked_state(name: str, text: str) -> bool | None:
    """True or False when the field `name` is a switch and the text asks to turn it on or off (its last such word);
    None otherwise (the field is made as before)."""
    if name.lower() not in _SWITCHES or _CUE.search(text) is None:
        return None
    state = None
    for m in _STATE.finditer(text):
        state = m.group("on") is not None or m.group("on2") is not None or m.group("zh_on") is not None
        state = state or m.group("on3") is not None
    return state
