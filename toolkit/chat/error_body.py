"""An error response's body walked to what it holds: its error object, and the words it says.

Gateways write an error in many shapes: OpenAI's `{"error": {"message": …}}`, Google's one-item list
of that (`[{"error": {…}}]`, Gemini's OpenAI endpoint), Ollama's `{"error": "…"}`, a bare `message`,
`msg` or `detail` (FastAPI's, DashScope's, a `{"code": 429, "msg": …}`), Baidu Qianfan's `error_msg`,
Mistral's `{"message": {"detail": [...]}}`, FastAPI's list of problems and Cloudflare's `errors`.
Each reader of an error (the wait it asks, a spent account, a content filter, a LiteLLM proxy's
wrapped body, the client's one-line message) walks the body here, once:

- `parsed(text)`: the body as JSON, None when it is not JSON;
- `error_object(data)`: its error object (`error` when that is an object; in Google's list, its first);
- `message_of(data)`: the words it says, and the error object whose `message` said them.

Leaves out: how the words are shown (one line, a router's relayed provider words, a LiteLLM wrapper
read down: `toolkit.chat.client.error_message`), and what an error means (`credit`, `rate_limits`).
"""

from __future__ import annotations

import json
from typing import Any


def parsed(text: str) -> Any:
    """`text` as JSON; None when it is not JSON (or nested deeper than the parser goes)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def error_object(data: Any) -> dict[str, Any] | None:
    """The error object of a parsed error body: its `error` when that is an object, Google's one-item
    list of a body read by its first object; None when there is none."""
    if isinstance(data, list):
        data = next((item for item in data if isinstance(item, dict)), None)
    error = data.get("error") if isinstance(data, dict) else None
    return error if isinstance(error, dict) else None


def message_of(data: Any, nested: bool = True) -> tuple[str, dict[str, Any] | None]:
    """What a parsed error body says, and the error object whose `message` said it (a router's error
    carries the provider's words beside it) or None when another field did; ("", None) when it says
    nothing in a shape known here. A message that is itself an object (Mistral's 422) is read once more."""
    if isinstance(data, list) and data and nested:  # Google's one-item list
        data = data[0]
    if not isinstance(data, dict):
        return "", None
    error = data.get("error")
    if isinstance(error, dict) and isinstance(error.get("message"), dict) and nested:
        return message_of(error["message"], nested=False)
    if isinstance(error, dict) and error.get("message"):
        return str(error["message"]), error
    for value in (error, data.get("detail"), data.get("message"), data.get("msg"), data.get("error_msg")):
        if isinstance(value, str) and value.strip():
            return value, None
        if isinstance(value, dict) and nested:
            said = message_of(value, nested=False)
            if said[0]:
                return said
    for problems in (data.get("detail"), data.get("errors")):  # FastAPI's list; Cloudflare's `errors` envelope
        words = "; ".join(filter(None, map(_problem, problems))) if isinstance(problems, list) else ""
        if words:
            return words, None
    return "", None


def _problem(problem: Any) -> str:
    """One entry of FastAPI's `detail` list (`body.messages: field required`), or of Cloudflare's
    `errors` (`{"code": 7003, "message": "No route for the URI"}`)."""
    if not isinstance(problem, dict):
        return ""
    said = problem.get("msg", problem.get("message"))
    if not isinstance(said, str):
        return ""
    where = problem.get("loc")
    at = ".".join(map(str, where)) if isinstance(where, list) else ""
    return f"{at}: {said}" if at else said
