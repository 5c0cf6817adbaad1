"""The notebooks' live sections: cells that talk to whatever gateway `connect()` gave.

Two helpers keep every notebook running top to bottom on any gateway — the learner's own, the
embedded one in any mode A–E, or one that is down:

- `gateway_cell(client)` wraps the cells that send requests. A `ModelCallError` inside it is
  printed as one readable line with what to do (check `LLM_BASE_URL`, the key, or use the
  prompt-protocol fallback), and the notebook goes on. Nothing after such a cell depends on it.
- `course_model(client)` probes the gateway once (week 3's probe) and returns the model the course
  should use: the client itself when tool calling works (A, E), the prompt-protocol fallback
  when the probe advises it (B, C, D), with one sentence saying which and why.

Leaves out: retrying (the client already did), and deciding for the learner on a gateway the
probe cannot classify (it stays as it is, and the sentence says so).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from toolkit.errors import CallerError, ModelCallError, TransientError

FALLBACK_VERDICTS = ("B", "C", "D")
"""Probe verdicts whose advice is the prompt-protocol fallback."""


def explain(error: ModelCallError, client: Any = None) -> str:
    """The error as one line for a learner: what happened, then what to do."""
    url = getattr(client, "base_url", None)
    where = f" at {url}" if url else ""
    first = str(error).splitlines()[0] if str(error) else type(error).__name__
    if isinstance(error, TransientError) and error.status is None:
        hint = (
            f"Cannot reach the gateway{where} ({first}). Check LLM_BASE_URL, or unset the LLM_* variables "
            "to use the embedded gateway."
        )
        return hint
    if isinstance(error, CallerError) and error.status in (401, 403):
        return f"The gateway{where} refused the key (HTTP {error.status}). Check LLM_API_KEY."
    if isinstance(error, CallerError) and error.status in (400, 422) and "tool" in str(error).lower():
        return (
            f"The gateway{where} rejects the `tools` field ({first}). This cell needs native tool calling; "
            "week 3's prompt-protocol fallback works on such a gateway."
        )
    return f"The gateway{where} failed this cell: {type(error).__name__}: {first}"


@contextmanager
def gateway_cell(client: Any = None) -> Iterator[None]:
    """Run a notebook cell's requests; a gateway failure is printed as one line, not raised."""
    try:
        yield
    except ModelCallError as error:
        print(explain(error, client))


def course_model(client: Any, result: Any = None) -> tuple[Any, str]:
    """(model to use, one sentence why): the client, or `PromptProtocol(client)` when the probe
    says native tool calling cannot be trusted. `result` is a `ProbeResult` (probed if None)."""
    from toolkit.course.probe import VERDICTS, probe
    from toolkit.course.prompt_protocol import PromptProtocol

    result = probe(client) if result is None else result
    if result.verdict is None:
        return client, f"The probe could not classify this gateway ({result.reason}); the course uses it as it is."
    name = VERDICTS[result.verdict][0]
    if result.verdict in FALLBACK_VERDICTS:
        return PromptProtocol(client), (
            f"Probe verdict {result.verdict} ({name}): the course switched to the prompt-protocol fallback "
            "by itself — tools are described in the system prompt and the call is read from the reply."
        )
    return client, f"Probe verdict {result.verdict} ({name}): the course uses native tool calling."
