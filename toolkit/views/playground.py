"""The assistant playground: chat with the week-3 assistant through the real loop, and watch each turn.

    AssistantPlayground()            # weeks 3, 4 and 6

A question box and a Send button; beside the conversation, the trace of the last turn (each
round: tools sent, calls, results, tokens, decision) and a status line that follows the loop
live ("asking the model…", "calling query_order…"). Controls: which of the three tools are offered, `tool_choice`,
the bound on model requests per turn (`COURSE`'s `max_model_requests`, the week-3 course's
`MAX_ROUNDS = 5`), and the fake gateway's mode A–E. The model is `connect()`, at each turn: the
embedded fake gateway, or the learner's own gateway when the `LLM_*` variables are set (the mode
then does nothing); the status after a turn names the gateway that answered it. The conversation is kept in a `ChatMemory` across turns; Reset starts again.
Every turn uses `COURSE` (one argument repair, an honest hand-over at the bound).

A failed turn (mode C rejects tools, a gateway is down, any other exception, its text scrubbed)
is shown as one line in the status (cut at `STATUS_CHARS`); it never raises into the notebook (from a click, ipywidgets
would only log it). Ctrl-C (`KeyboardInterrupt`) still stops the cell, after the widget is left
as for a failed turn. The trace is then that turn's, up to the failure, and the question
is back in the box for Send to ask again; a turn that got no reply at all leaves memory as it was
(no unanswered question left in it: a gateway that wants user and assistant to take turns would
refuse every later turn). The widget's stored output is the conversation and the trace as HTML,
and as text.

Leaves out: streaming the answer's text (week 4's StreamView shows that).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from toolkit.chat.messages import Message, SystemMessage, UserMessage
from toolkit.chat.switch import check_env, connect
from toolkit.course.assistant import TOOL_SPECS, shop_registry, system_prompt
from toolkit.course.shop import Shop, load_shop
from toolkit.errors import ConfigurationError, ToolkitError
from toolkit.loop.records import COURSE, LoopResult, ToolFinished, ToolStarted
from toolkit.loop.run import iter_loop
from toolkit.memory.windows import ChatMemory
from toolkit.tools import redact
from toolkit.views.conversation import TextRepr, one_line, render_conversation_html, render_conversation_text
from toolkit.views.html import NO_MATH, escape, showable_bundle
from toolkit.views.trace import render_trace_html, render_trace_text

TOOL_NAMES = tuple(spec["function"]["name"] for spec in TOOL_SPECS)
CHOICES = ("auto", "required", "none")
TODAY = datetime.date(2026, 10, 25)
"""The demo data lives in October 2026."""
AGAIN = "(your question is back in the box: Send asks again)"
STATUS_CHARS = 1_000
"""Most characters of a failed turn's error in the status line, which is one line (a third-party
error may run over lines and megabytes)."""


def _answered(run: LoopResult, gateway: str) -> str:
    """The status of a turn that ended: how, after how many requests, and to which gateway (the
    mode picked does nothing once `LLM_*` or `LLM_REPLAY` is set, even after the playground was made)."""
    requests = len(run.rounds)
    return f"{run.finish} after {requests} model request{'s' if requests != 1 else ''} · {gateway}"


class AssistantPlayground(TextRepr, widgets.VBox):
    """Chat with the week-3 assistant; every control changes the next turn."""

    shop: Shop
    """The shop the tools read and change."""
    today: datetime.date
    """The shop's day."""
    env: Mapping[str, str] | None
    """The environment `connect` reads (None: the process's)."""
    question: widgets.Text
    send: widgets.Button
    reset_button: widgets.Button
    tools: widgets.SelectMultiple
    """The tools offered."""
    tool_choice: widgets.Dropdown
    max_rounds: widgets.IntSlider
    """Model requests per turn at most."""
    mode: widgets.Dropdown
    """The fake gateway's mode."""
    status: widgets.HTML
    conversation: widgets.HTML
    trace: widgets.HTML
    """The last turn's trace."""
    last: LoopResult | None
    """The last turn, or its trace so far if it failed (None: no turn yet, or a failure left none)."""
    error: str
    """The last turn's error ("" if none)."""
    memory: ChatMemory
    """The conversation."""
    status_text: str
    """What the status line says, as text."""

    def __init__(
        self, *, today: datetime.date | str | None = TODAY, env: dict[str, str] | None = None, **kwargs: Any
    ) -> None:
        self.shop = load_shop(today=today)  # a date, a datetime's date, ISO text; None: the session's day
        self.today, self.env = self.shop.today, None if env is None else check_env("AssistantPlayground", env)
        self.question = widgets.Text(placeholder="帮我查一下订单 SN202610200001 现在到哪了？", description="you")
        self.send = widgets.Button(description="Send", button_style="primary")
        self.reset_button = widgets.Button(description="Reset")
        self.tools = widgets.SelectMultiple(options=TOOL_NAMES, value=TOOL_NAMES, description="tools", rows=3)
        self.tool_choice = widgets.Dropdown(options=CHOICES, value="auto", description="tool_choice")
        self.max_rounds = widgets.IntSlider(  # COURSE's own bound: model requests per turn, not tool round trips
            value=COURSE.max_model_requests, min=1, max=10, description="max requests"
        )
        self.mode = widgets.Dropdown(options=tuple("ABCDE"), value="A", description="fake mode")
        self.status = widgets.HTML()
        self.conversation = widgets.HTML()
        self.trace = widgets.HTML()
        self.last = None
        self.error = ""
        self.send.on_click(lambda _: self.ask(self.question.value))
        self.reset_button.on_click(lambda _: self.reset())
        controls = widgets.HBox([self.tools, widgets.VBox([self.tool_choice, self.max_rounds, self.mode])])
        chat = widgets.HBox([self.question, self.send, self.reset_button])
        panes = widgets.HBox([self.conversation, self.trace])
        super().__init__([controls, chat, self.status, panes], **kwargs)
        self.reset()

    # --- what the buttons do -------------------------------------------------------------

    def reset(self) -> None:
        """Forget the conversation."""
        self.memory = ChatMemory("playground")
        self.memory.add(SystemMessage(content=system_prompt(self.today)))
        self.last, self.error = None, ""
        self._set_status("a new conversation")
        self._redraw()

    def ask(self, text: str) -> LoopResult | None:
        """One turn through the loop with the current controls (what Send does)."""
        if text is not None and not isinstance(text, str):
            raise ConfigurationError(
                f"AssistantPlayground.ask(text): takes the question as text, and got {type(text).__name__}; "
                "e.g. playground.ask('帮我查一下订单 SN202610200001 现在到哪了？')"
            )
        text = (text or "").strip()
        if not text:
            self._set_status("type a question first")
            return None
        self.question.value = ""
        before = self.memory.messages()
        offered = [t for t in shop_registry(self.shop).tools() if t.name in self.tools.value]
        choice = self.tool_choice.value if offered else None  # no tools: no tool_choice either
        options = replace(COURSE, max_model_requests=self.max_rounds.value, tool_choice=choice)
        self._set_status("asking the model…")  # not the turn before's line while the first request waits
        try:
            client = connect(mode=self.mode.value, env=self.env)
            events = iter_loop(client, [UserMessage(content=text)], tools=offered, memory=self.memory, options=options)
            self.last = self._drain(events)
            self.error = ""
            self._set_status(_answered(self.last, client.describe()))
        except Exception as error:  # a gateway down, mode C, or a failure of no toolkit type: one line, never lost
            self._failed(error, text, before)
            self._redraw()
            return None
        except KeyboardInterrupt as error:  # Ctrl-C stops the cell, and the widget shows where it stopped
            self._failed(error, text, before)
            self._redraw()
            raise
        self._redraw()
        return self.last

    def _failed(self, error: BaseException, text: str, before: list[Message]) -> None:
        """The failed turn's trace so far becomes the last; with no reply, memory goes back to `before`."""
        run = getattr(error, "loop_result", None)
        self.last = run if isinstance(run, LoopResult) else None
        if self.last is None or not self.last.rounds:
            self.memory.set(before)
        self.question.value = text
        said = str(error) if isinstance(error, ToolkitError) else redact.scrub(str(error))  # not written for a view
        self.error = one_line(f"{type(error).__name__}: {said or 'the turn was stopped'}", STATUS_CHARS)
        self._set_status(f"{self.error} {AGAIN}", kind="error")

    def _drain(self, events: Any) -> LoopResult:
        while True:
            try:
                event = next(events)
            except StopIteration as done:
                return done.value
            if isinstance(event, ToolStarted):
                self._set_status(f"round {event.round}: calling {event.call.name}…")
            elif isinstance(event, ToolFinished):
                self._set_status(f"{event.execution.call.name} answered")

    # --- what it shows ---------------------------------------------------------------------

    def _set_status(self, text: str, kind: str = "info") -> None:
        colour = "#cf222e" if kind == "error" else "#57606a"
        self.status.value = f'<span class="{NO_MATH}" style="color:{colour}">{escape(text)}</span>'
        self.status_text = text

    def _redraw(self) -> None:
        messages = self.memory.messages()[1:]  # the system message is long and always the same
        self.conversation.value = render_conversation_html(messages, title="conversation")
        self.trace.value = render_trace_html(self.last) if self.last else f'<i class="{NO_MATH}">no turn yet</i>'

    def text(self) -> str:
        """The conversation and the last turn's trace, as text."""
        parts = [f"[{self.status_text}]", render_conversation_text(self.memory.messages()[1:])]
        if self.last is not None:
            parts.append(render_trace_text(self.last))
        return "\n\n".join(parts)

    def _plain_text(self) -> str:
        return self.text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = self._widget_bundle(**kwargs)
        html = "".join((self.status.value, self.conversation.value, self.trace.value))  # `Html +` escapes a str
        return showable_bundle({**bundle, "text/plain": self.text(), "text/html": html})
