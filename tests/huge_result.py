"""A turn whose one tool returns a huge text, and the lengths `redact.scrub` is then given: shared by
the view tests that check a view scrubs only as much of a result as it shows."""

from __future__ import annotations

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop.records import LoopResult
from toolkit.loop.run import run_loop
from toolkit.tools import redact
from toolkit.tools.decorator import tool


def dumped(text: str) -> LoopResult:
    """The result of a turn that calls `dump`, which returns `text`, then answers "Done."."""

    @tool
    def dump() -> str:
        """Dump."""
        return text

    return run_loop(ScriptedModel([call("dump"), "Done."]), [UserMessage(content="go")], tools=[dump])


def scrub_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the length of every text `redact.scrub` is given (it still scrubs it)."""
    read: list[int] = []
    real = redact.scrub
    monkeypatch.setattr(redact, "scrub", lambda given: read.append(len(given)) or real(given))
    return read
