"""Every view's output can be sent to the notebook, whatever text it is given.

Found as a stranger: a reply cut inside an escaped emoji (`json.loads('"\\ud83d"')`) holds a lone
surrogate; UTF-8 cannot carry it, so the kernel failed to send the view at all (jupyter_client
packs messages as UTF-8). Now it shows as U+FFFD, and the rest of the view as it was."""

import json

import pytest
from jupyter_client.session import json_packer

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call, reset_call_ids
from toolkit.chat.sse import TextDelta
from toolkit.loop.run import run_loop
from toolkit.tools.decorator import tool
from toolkit.views.conversation import ConversationView
from toolkit.views.display import show_table
from toolkit.views.html import escape
from toolkit.views.sequence import SequenceDiagram
from toolkit.views.stepper import LoopStepper
from toolkit.views.stream import StreamView
from toolkit.views.timeline import Span, Timeline
from toolkit.views.trace import TraceView

CUT = json.loads('"cut emoji \\ud83d"')
PAIR = "two halves \ud83d\ude00"  # a pair written as two code points


@tool("Echo a word")
def echo(word: str) -> str:
    return f"{word} {CUT}"


def run():
    reset_call_ids()
    model = ScriptedModel([call("echo", word=CUT), CUT])
    return run_loop(model, [UserMessage(content=CUT)], tools=[echo])


VIEWS = {
    "conversation": lambda: ConversationView(
        [{"role": "user", "content": CUT}, {"role": "assistant", "content": PAIR}]
    ),
    "table": lambda: show_table([{"text": CUT}], title=CUT),
    "trace": lambda: TraceView(run()),
    "sequence": lambda: SequenceDiagram(run()),
    "stepper": lambda: LoopStepper(run()),
    "stream": lambda: StreamView(CUT, events=[TextDelta(CUT)]),
    "timeline": lambda: Timeline([(CUT, [Span(CUT, 0.0, 1.0, CUT)])], title=CUT),
}


@pytest.mark.parametrize("name", VIEWS)
def test_a_view_of_text_with_a_lone_surrogate_can_be_sent_to_the_notebook(name):
    bundle = VIEWS[name]()._repr_mimebundle_()
    json_packer(bundle)  # raised UnicodeEncodeError
    assert any("cut emoji \ufffd" in value for value in bundle.values() if isinstance(value, str))


def test_a_live_widget_value_can_be_sent_too():
    json_packer({"value": ConversationView([{"role": "user", "content": CUT}]).value})


def test_showable_joins_a_pair_replaces_a_lone_half_and_keeps_other_text():
    from toolkit.views.html import showable

    assert showable(PAIR) == "two halves 😀"
    assert showable("\udc80 a \ud800") == "\ufffd a \ufffd"
    assert showable("订单 😀 ok") == "订单 😀 ok"
    assert escape(f"<{CUT}>") == "&lt;cut emoji \ufffd&gt;"


def test_the_trace_and_the_stepper_show_escaped_arguments_as_their_characters():
    """A gateway that sends `{"category": "\\u670d\\u88c5"}` showed the escapes in the trace's text."""
    from toolkit.chat.messages import ToolCall, UserMessage
    from toolkit.chat.scripted import ScriptedModel
    from toolkit.loop.run import run_loop
    from toolkit.tools.decorator import tool
    from toolkit.views.stepper import LoopStepper
    from toolkit.views.trace import TraceView

    @tool("Refund policy of a category.")
    def query_refund_policy(category: str) -> str:
        return f"{category}: 7 days"

    escaped = '{"category": "\\u670d\\u88c5"}'
    model = ScriptedModel([ToolCall(id="c1", name="query_refund_policy", arguments=escaped), "ok"])
    result = run_loop(model, [UserMessage(content="退货")], tools=[query_refund_policy])
    text = TraceView(result)._repr_mimebundle_()["text/plain"]
    assert 'query_refund_policy({"category": "服装"})' in text
    assert "\\u670d" not in text
    stepped = LoopStepper(result)._repr_mimebundle_()["text/plain"]
    assert '{"category": "服装"}' in stepped and "\\u670d" not in stepped


FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"


def test_a_transcript_cut_does_not_split_a_joined_emoji_or_a_flag():
    """One-line previews were cut by code point: a family became a man and a dangling joiner, a
    flag a lone letter, é a bare e. Now the cut ends where a character a reader sees ends."""
    from toolkit.views.conversation import one_line, render_conversation_text

    text = render_conversation_text([UserMessage(content="a" * 198 + FAMILY)])
    assert text == "user: " + "a" * 198 + "…"
    assert one_line("x" * 8 + "🇯🇵🇫🇷", 10) == "x" * 8 + "…"
    assert one_line("Cafe\u0301 au lait", 5) == "Caf…"


def test_a_transcript_cut_does_not_leave_half_a_code_point_marker():
    from toolkit.views.conversation import one_line

    assert one_line("abc\u202edef", 8) == "abc…"
    assert one_line("abc\u202edef", 13) == "abc⟨U+202E⟩d…"


def test_a_timeline_label_cut_to_its_bar_is_whole_characters_and_marked():
    """A bar 560 px wide holds 93 characters: the label was cut at the 93rd code point, inside a
    family, with nothing saying it was cut."""
    svg = Timeline([("run", [Span("lane", 0.0, 1.0, "lookup " + FAMILY * 20)])]).svg()
    drawn = svg.split('fill="#fff">')[1].split("</text>")[0]
    assert drawn == "lookup " + FAMILY * 17 + "…"
