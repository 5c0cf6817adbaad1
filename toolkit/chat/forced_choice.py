"""A `tool_choice` that forces a call, sent in a form the gateway takes when it refuses the one asked.

A request can force a tool call three ways, and gateways take different ones: OpenAI's `"required"`
(any offered tool), a named function (`{"type": "function", "function": {"name": …}}`: that tool),
and Mistral's `"any"` (as `"required"`; an older Mistral enum, and relays modelled on it, have no
`"required"`). Refusals seen on real servers:

- LM Studio takes strings only: 400 "Invalid tool_choice type: 'object'. Supported string values:
  none, auto, required" (a named function);
- vLLM before 0.8.3: 400 "`tool_choice` must either be a named tool, "auto", or "none"" ("required");
- a FastAPI server with Mistral's older enum: 422 "Input should be 'auto', 'none' or 'any'" ("required").

Each has a form that asks the same: a named function is `"required"` with only that tool offered;
`"required"` is `"any"` (where the error names `'any'` among the values it takes), or, with one tool
offered, that tool named. Forbidding a call is said one way, `"none"`, which an older vLLM refused
too ("`tool_choice` must either be a named tool or "auto". `tool_choice="none"` is not supported."):
the same ask is a request without tools. `ForcedChoice` remembers the forms a gateway refused
(`refused`) and whether it offered `"any"`, and `sent` gives a request's choice and tools in a form not refused, or
as they were when none is left (the gateway's error is then raised, with `CANNOT_FORCE`). Only an
error about the field's value counts (it quotes values, or says "named tool"): one refusing the field
itself (a strict server's "extra fields not permitted") is refused whatever the form.

Leaves out: turning a forced call into `"auto"` (the model may then answer without a call: a
different request, the caller's to choose), and `"auto"` (`ChatClient` leaves a refused `"auto"` out,
which means the same).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

NAMED = "named"
"""The form of a named function, in `ForcedChoice.refused`."""
FORMS = (NAMED, "required", "any", "none")
_OFFERS_ANY = re.compile(r"""(?<![\w])(['"`])any\1""")
"""An error's list of the values it takes, `'any'` quoted among them."""
_OF_A_VALUE = re.compile(r"""named tool|(['"`])(?:auto|none|required|any|object)\1""", re.IGNORECASE)
"""Words of a refusal of the field's value, not of the field (a strict server's "extra fields not
permitted", OpenAI's "Unrecognized request argument supplied: tool_choice": no form would pass)."""
CANNOT_FORCE = (
    "this gateway refuses the tool_choice that forces a call, and no other form it may take asks the same: use "
    'tool_choice="auto" and let the model choose (not retried)'
)
"""The hint on a refusal of the last form left."""


@dataclass
class ForcedChoice:
    """What one gateway refused of the forms that force a call, or forbid one (see the module docstring)."""

    refused: set[str] = field(default_factory=set)
    any_offered: bool = False

    def sent(self, choice: Any, tools: list[Any] | None) -> tuple[Any, list[Any] | None]:
        """`choice` and `tools` as they go to this gateway: in the first form not refused that asks the same."""
        if not self.refused or not tools:
            return choice, tools
        if choice == "none" and "none" in self.refused:
            return None, None  # no call allowed: the same as no tools offered
        name = _named(choice)
        if name is not None and NAMED in self.refused:
            only = [tool for tool in tools if _tool_name(tool) == name]
            if not only:  # a tool not offered: the gateway's own error says so
                return choice, tools
            choice, tools = "required", only
        if choice == "required" and "required" in self.refused:
            if self.any_offered and "any" not in self.refused:
                return "any", tools
            only_name = _tool_name(tools[0]) if len(tools) == 1 else None
            if only_name and NAMED not in self.refused:
                return {"type": "function", "function": {"name": only_name}}, tools
        return choice, tools

    def refuse(self, body: dict[str, Any], said: str) -> bool | None:
        """Note that the gateway refused `body`'s forcing `tool_choice` (the error's text: `said`), and
        put the body in the next form that asks the same: True; False when none is left; None when the
        refusal is not of a form (it forces nothing, or names a tool the request does not offer)."""
        choice, tools = body.get("tool_choice"), body.get("tools")
        name = _named(choice)
        form = NAMED if name is not None else choice
        if form not in FORMS or not tools or (name is not None and name not in map(_tool_name, tools)):
            return None
        if not _OF_A_VALUE.search(said):
            return None
        if form in self.refused:
            return False
        self.refused.add(form)
        self.any_offered = self.any_offered or bool(_OFFERS_ANY.search(said))
        sent_choice, sent_tools = self.sent(choice, body.get("tools"))
        if sent_choice == choice and sent_tools == body.get("tools"):
            return False
        put(body, sent_choice, sent_tools)
        return True


def put(body: dict[str, Any], choice: Any, tools: list[Any] | None) -> None:
    """`body` with `choice` and `tools` (both left out, with `parallel_tool_calls`, when `choice` is None)."""
    if choice is None:
        for key in ("tool_choice", "tools", "parallel_tool_calls"):
            body.pop(key, None)
        return
    body["tool_choice"], body["tools"] = choice, tools


def _named(choice: Any) -> str | None:
    if not isinstance(choice, Mapping) or choice.get("type") != "function":
        return None
    function = choice.get("function")
    name = function.get("name") if isinstance(function, Mapping) else None
    return name if isinstance(name, str) and name else None


def _tool_name(tool: Any) -> str | None:
    function = tool.get("function") if isinstance(tool, Mapping) else None
    name = function.get("name") if isinstance(function, Mapping) else None
    return name if isinstance(name, str) else None
