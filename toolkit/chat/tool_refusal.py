"""Whether a gateway's error message is about the request's tools: the model (or the server) takes none.

Gateways refuse a request with `tools` for a model without tool support in their own words and
with their own status: a 400 or 422 ("does not support tools", Ollama), a 404 (OpenRouter: "No
endpoints found that support tool use"), a 500 (llama.cpp started without `--jinja`: "tools param
requires --jinja flag"). `names_tools(message, model)` is the one test the chat client's hint and
the course's probe share: the message names tools or function calling once the model's own name
is taken out of it (a model called `xlam-tool-7b` that is not found is not a refusal of tools).

Leaves out: the status (the probe leaves out those about the key, credit, load or time; the client
asks only of a 404, whose usual hint blames the URL), and messages that name no tools at all.
"""

from __future__ import annotations

import re

_NAMES_TOOLS = re.compile(r"tool|function[ _-]?call|工具|函数调用", re.IGNORECASE)


def names_tools(message: str, model: str = "") -> bool:
    """Whether `message` names tools or function calling, the model's name `model` left out of it."""
    if model.strip():
        message = re.sub(re.escape(model.strip()), "", message, flags=re.IGNORECASE)
    return bool(_NAMES_TOOLS.search(message))
