"""Whether a gateway's error message is about the request's tools: the model (or the server) takes none.

Gateways refuse a request with `tools` for a model without tool support in their own words and
with their own status: a 400 or 422 ("does not support tools", Ollama), a 404 (OpenRouter: "No
endpoints found that support tool use"), a 500 (llama.cpp started without `--jinja`: "tools param
requires --jinja flag"). `names_tools(message, model)` is the one test the chat client's hint and
the course's probe share: the message names tools or function calling once the model's own name
is taken out of it (a model called `xlam-tool-7b` that is not found is not a refusal of tools).

`refuses_tools(message, model)` asks more, for a 400 or 422, whose usual hint is to fix the body: the
message names tools in a refusal's words ("does not support tools", "Tool calling is not supported",
DeepSeek-R1's "does not support Function Calling"), and not only a field about them (`tool_choice`,
`parallel_tool_calls`: refused values the client may send otherwise), so an error about a tool's shape
("Invalid 'tools[0].function.name'") stays the body's to fix.

A tool message's role is not the tools: Groq's 400 for a field of a tool result ("'messages.2' : for
'role:tool' the following must be satisfied[('messages.2' : property 'name' is unsupported)]") refuses
the field, not tools.

Leaves out: the status (the probe leaves out those about the key, credit, load or time; the client
asks `names_tools` only of a 404, whose usual hint blames the URL), and messages that name no tools at all.
"""

from __future__ import annotations

import re

_NAMES_TOOLS = re.compile(r"tool|function[ _-]?call|工具|函数调用", re.IGNORECASE)
_REFUSAL = re.compile(
    r"(?:does|do|is|are)(?: not|n't) (?:support|supported|available|enabled)|unsupported|no endpoints|不支持",
    re.IGNORECASE,
)
_TOOL_FIELDS = re.compile(r"tool_choice|parallel_tool_calls", re.IGNORECASE)


def names_tools(message: str, model: str = "") -> bool:
    """Whether `message` names tools or function calling, the model's name `model` and a tool message's
    role (Groq's "for 'role:tool' the following must be satisfied[…]") left out of it."""
    if model.strip():
        message = re.sub(re.escape(model.strip()), "", message, flags=re.IGNORECASE)
    if "role" in message:
        message = _TOOL_ROLE.sub("", message)
    return bool(_NAMES_TOOLS.search(message))


_TOOL_ROLE = re.compile(r"role\W{0,4}tool\b", re.IGNORECASE)
"""A tool message's role named in an error about one of its fields: no refusal of tools."""


def refuses_tools(message: str, model: str = "") -> bool:
    """Whether `message` refuses tools as such (see the module docstring), the model's name left out."""
    if _TOOL_FIELDS.search(message) or not _REFUSAL.search(message):
        return False
    return names_tools(message, model)
