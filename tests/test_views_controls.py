"""Views show characters that act instead of being seen (terminal controls, bidi overrides,
invisible characters) as their code points, and their text tables keep wide characters aligned.

Found as a stranger: a tool's output `"\\x1b[2J"` reached the text/plain a terminal shows and
cleared it, a lone `"\\r"` wrote a fake line over a real one, `U+202E` made a tool name read
backwards (`"\\u202eredro_yreuq"` read as `query_order`), and a zero-width space made `"ec\\u200bho"`
look like `echo`. Chinese and emoji cells pushed `show_table`'s text columns out of line."""

import pytest

from toolkit.chat.client import Exchange
from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call, reset_call_ids
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import run_loop
from toolkit.tools.decorator import tool
from toolkit.tools.execute import FEED_BACK_ALL
from toolkit.views.conversation import ORPHAN, ConversationView, render_conversation_html, render_conversation_text
from toolkit.views.display import show_exchange, show_table
from toolkit.views.html import SHOWN_CHARS, SHOWN_ITEMS, escape, showable
from toolkit.views.trace import TraceView

HOSTILE = "ok\x1b[2J\x1b[1A\rFAKE\x07 \u202eredro\u202c"


@tool("Echo a word")
def echo(word: str) -> str:
    return HOSTILE


def run():
    reset_call_ids()
    model = ScriptedModel([call("echo", word="a"), call("ec\u200bho", word="b"), "done \x1b]0;title\x07"])
    return run_loop(model, [UserMessage(content="hi")], tools=[echo], options=LoopOptions(policies=FEED_BACK_ALL))


def test_a_tool_result_cannot_clear_the_terminal_or_fake_a_line_in_the_trace_text():
    text = TraceView(run())._repr_mimebundle_()["text/plain"]
    lines = text.splitlines()
    assert lines[2] == "  echo [ok]: ok⟨U+001B⟩[2J⟨U+001B⟩[1A FAKE⟨U+0007⟩ ⟨U+202E⟩redro⟨U+202C⟩"
    assert lines[-1] == "answer: done ⟨U+001B⟩]0;title⟨U+0007⟩"
    assert not any(ch in text for ch in "\x1b\x07\r\u202e")


def test_an_invisible_character_in_a_tool_name_is_shown_in_the_trace_text():
    lines = TraceView(run())._repr_mimebundle_()["text/plain"].splitlines()
    assert lines[6] == '  model → ec⟨U+200B⟩ho({"word": "b"})'
    assert lines[7].startswith("  ec⟨U+200B⟩ho [unknown tool]: ")


def test_a_reversed_tool_name_reads_as_sent_in_the_transcript():
    messages = [
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "\u202eredro_yreuq", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "fine"},
    ]
    assert render_conversation_text(messages) == "assistant → ⟨U+202E⟩redro_yreuq({})\ntool[⟨U+202E⟩redro_yreuq]: fine"
    html = ConversationView(messages)._repr_mimebundle_()["text/html"]
    assert "\u202e" not in html and "⟨U+202E⟩redro_yreuq" in html


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("a\x1bb", "a⟨U+001B⟩b"),
        ("a\rb", "a⟨U+000D⟩b"),
        ("a\r\nb\tc\nd", "a\r\nb\tc\nd"),  # line ends and tabs are layout, kept
        ("x\u2066y\u2069", "x⟨U+2066⟩y⟨U+2069⟩"),
        ("\ufeffecho\u2060", "⟨U+FEFF⟩echo⟨U+2060⟩"),
        ("👨\u200d👩\u200d👧 ❤\ufe0f", "👨\u200d👩\u200d👧 ❤\ufe0f"),  # joiners and emoji presentation kept
        ("مرحبا שלום 查询", "مرحبا שלום 查询"),  # right-to-left text itself is kept
        ("x\U000e0041y", "x⟨U+E0041⟩y"),  # tag characters: text a reader cannot see
    ],
)
def test_showable_marks_what_acts_instead_of_showing(given, shown):
    assert showable(given) == shown
    assert escape(given) == shown


def test_the_table_text_keeps_wide_characters_in_their_columns():
    shown = show_table([{"name": "查询订单", "n": 1}, {"name": "ab", "n": 22}, {"name": "😀😀", "n": 3}])
    assert shown._repr_mimebundle_()["text/plain"] == "    name  n\n查询订单  1\n      ab 22\n    😀😀  3"


BIG = "x" * 10_000_000


@tool("Return a big text")
def big() -> str:
    return BIG


def test_a_ten_megabyte_result_is_cut_in_the_view_and_says_so():
    reset_call_ids()
    result = run_loop(ScriptedModel([call("big"), "done"]), "hi", tools=[big])
    html = TraceView(result)._repr_mimebundle_()["text/html"]
    assert len(html) < 2 * SHOWN_CHARS
    assert "x" * SHOWN_CHARS + f"…({10_000_000 - SHOWN_CHARS:,} more characters not shown)" in html
    assert result.executions[0].result.content == BIG  # the record keeps every character


def test_escape_cuts_a_long_text_with_a_marker_and_leaves_a_short_one():
    assert escape("<" * (SHOWN_CHARS + 2)) == "&lt;" * SHOWN_CHARS + "…(2 more characters not shown)"
    assert escape("a" * SHOWN_CHARS) == "a" * SHOWN_CHARS


def test_a_ten_megabyte_exchange_or_table_cell_is_cut_in_the_text_too():
    note = "x " * 5_000_000  # text: a run of base64's letters this long would be shown as a marker
    exchange = Exchange("http://x/v1/chat/completions", {"model": "m", "note": note}, 200, BIG, 1)
    shown = show_exchange(exchange)
    lines = shown.text.splitlines()
    left_out = f"…({10_000_000 - SHOWN_CHARS:,} more characters not shown)"
    assert lines[2] == "response: " + "x" * SHOWN_CHARS + left_out
    assert lines[1].endswith("…(9,750,026 more characters not shown)") and len(shown.text) < 3 * SHOWN_CHARS
    assert len(shown.html) < 3 * SHOWN_CHARS
    table_text = show_table([{"result": BIG}]).text
    assert left_out in table_text and len(table_text) < 3 * SHOWN_CHARS  # the header is padded as wide


def test_a_run_of_ten_thousand_rounds_shows_its_first_and_last_rounds_and_says_what_it_left_out():
    reset_call_ids()
    rounds = SHOWN_ITEMS + 100
    model = ScriptedModel([call("echo", word="a")] * (rounds - 1) + ["done"])
    result = run_loop(model, "hi", tools=[echo], options=LoopOptions(max_round_trips=rounds))
    note = f"… 100 rounds not shown: rounds {SHOWN_ITEMS // 2 + 1:,} to {SHOWN_ITEMS // 2 + 100:,}"
    view = TraceView(result)._repr_mimebundle_()
    heads = [line for line in view["text/plain"].splitlines() if line.startswith(("round ", "…"))]
    assert heads[SHOWN_ITEMS // 2 - 1].startswith(f"round {SHOWN_ITEMS // 2:,} ·")
    assert heads[SHOWN_ITEMS // 2] == note
    assert heads[SHOWN_ITEMS // 2 + 1].startswith(f"round {SHOWN_ITEMS // 2 + 101:,} ·")
    assert len(heads) == SHOWN_ITEMS + 1 and view["text/html"].count(note) == 1
    assert view["text/html"].count(">round ") == SHOWN_ITEMS


def test_a_long_conversation_shows_its_first_and_last_messages_and_says_what_it_left_out():
    messages = [UserMessage(content=f"q{i}") for i in range(SHOWN_ITEMS + 10)]
    note = f"… 10 messages not shown: messages {SHOWN_ITEMS // 2 + 1:,} to {SHOWN_ITEMS // 2 + 10:,}"
    lines = render_conversation_text(messages).splitlines()
    assert lines[SHOWN_ITEMS // 2 - 1 : SHOWN_ITEMS // 2 + 2] == [
        f"user: q{SHOWN_ITEMS // 2 - 1}",
        note,
        f"user: q{SHOWN_ITEMS // 2 + 10}",
    ]
    assert len(lines) == SHOWN_ITEMS + 1
    html = ConversationView(messages)._repr_mimebundle_()["text/html"]
    assert html.count(note) == 1 and f">q{SHOWN_ITEMS // 2 + 9}<" not in html and f">q{SHOWN_ITEMS + 9}<" in html


def test_a_result_whose_call_is_left_out_is_still_shown():
    half = SHOWN_ITEMS // 2
    messages = [UserMessage(content=f"q{i}") for i in range(half + 9)]
    messages.append(AssistantMessage(tool_calls=(ToolCall(id="c1", name="query_order", arguments="{}"),)))
    messages.append(ToolResultMessage(tool_call_id="c1", content="shipped on day one"))
    messages += [UserMessage(content=f"r{i}") for i in range(half - 1)]
    html = render_conversation_html(messages)
    assert "tool call · query_order" not in html and "tool result · query_order" in html
    assert ">shipped on day one<" in html and ORPHAN not in html


def test_a_long_text_is_cut_where_a_character_a_reader_sees_ends():
    """The cut at SHOWN_CHARS was by code point: a flag at the edge showed as one lone letter."""
    from toolkit.views.html import shortened

    text = "x" * (SHOWN_CHARS - 1) + "🇯🇵" + "y" * 9
    assert shortened(text) == "x" * (SHOWN_CHARS - 1) + "…(11 more characters not shown)"


FAKE_NAME = "echo\nround 9 · FAKE\n  decision: answer"


def test_a_tool_name_with_line_breaks_stays_on_its_line_in_every_transcript():
    """A model's tool name is one field: its line breaks made lines of their own in the trace, the
    transcript, the stream, the stepper and the timeline (a fake `round 9` with a fake decision)."""
    from toolkit.loop.run import iter_loop
    from toolkit.views.stepper import LoopStepper
    from toolkit.views.stream import event_line, render_stream_text
    from toolkit.views.timeline import Timeline, timed_loop
    from toolkit.views.trace import render_trace_text

    def model():
        reset_call_ids()
        return ScriptedModel([AssistantMessage(tool_calls=(ToolCall(id="c1", name=FAKE_NAME, arguments="{}"),)), "ok"])

    options = LoopOptions(policies=FEED_BACK_ALL)
    result = run_loop(model(), "hi", tools=[echo], options=options)
    shown = r"echo\nround 9 · FAKE\n  decision: answer"
    error = "There is no tool named 'echo\\nround 9 · FAKE\\n decision: answer'. Available tools: echo."
    trace = render_trace_text(result).splitlines()
    assert trace[1:3] == [f"  model → {shown}({{}})", f"  {shown} [unknown tool]: {error}"]
    assert render_conversation_text(result.messages).splitlines()[1:3] == [
        f"assistant → {shown}({{}})",
        f"tool[{shown}] error: {error}",
    ]
    events = list(iter_loop(model(), "hi", tools=[echo], options=options))
    assert render_stream_text(events, done=True).splitlines()[0] == f"tool {shown}({{}}) [unknown tool] → {error}"
    assert event_line(events[0]) == f"ToolStarted   round 1: {shown}({{}})"
    assert LoopStepper(result).text().splitlines()[1] == f"  round 1 · step 2 record: asks for {shown}"
    _, spans = timed_loop(iter(events), clock=lambda: 0.0)
    assert Timeline([("run", spans)]).text().splitlines()[1] == f"    0.00–  0.00 s  {shown} #1 {shown} 0.00 s"


def test_a_line_separator_is_written_out():
    """U+2028 and U+2029 break a line where a reader sees no line break (`str.splitlines` splits there)."""
    assert showable("a\u2028b\u2029c") == "a⟨U+2028⟩b⟨U+2029⟩c"


def test_a_megabyte_tool_name_from_the_model_is_cut_in_every_transcript():
    """A model that asks for a tool named with two million characters put the whole name, twice,
    in the text/plain of the trace, the conversation, the stepper and the stream view (4 MB each;
    their HTML was cut): a name is cut at NAME_CHARS, on one line, like any name in a transcript."""
    from toolkit.chat.sse import ToolCallDelta
    from toolkit.views.html import NAME_CHARS
    from toolkit.views.stepper import LoopStepper
    from toolkit.views.stream import render_stream_text

    reset_call_ids()
    name = "n" * 2_000_000
    model = ScriptedModel([AssistantMessage(tool_calls=[ToolCall(id="c1", name=name, arguments="{}")]), "done"])
    result = run_loop(model, "hi", tools=[echo], options=LoopOptions(policies=FEED_BACK_ALL))
    shown = "n" * (NAME_CHARS - 1) + "…"
    trace = TraceView(result)._repr_mimebundle_()["text/plain"]
    assert f"  model → {shown}({{}})" in trace.splitlines()
    conversation = render_conversation_text(result.messages)
    assert f"assistant → {shown}({{}})" in conversation.splitlines()
    stepper = LoopStepper(result)._repr_mimebundle_()["text/plain"]
    assert f"round 1 · step 2 record: asks for {shown}" in stepper
    stream = render_stream_text([ToolCallDelta(0, "c1", name, "{}")], done=True)
    assert stream.splitlines()[0] == f"tool {shown}({{}}) [not executed]"
    assert max(len(trace), len(conversation), len(stepper), len(stream)) < 20 * NAME_CHARS + SHOWN_CHARS


def test_every_view_is_its_text_in_a_plain_terminal():
    """In a python REPL (or `print(view)`) a widget view was ipywidgets' repr: its HTML source on one
    line (a TraceView: 8 KB of `TraceView(value='<div class="tk" style=...`), and a SelectionChart
    its memory address (`<toolkit.views.search.SelectionChart object at 0x7f…>`). Each is now the
    text/plain it stores in a notebook, acting characters written as code points."""
    from toolkit.course.accuracy import AccuracyCase, CaseResult
    from toolkit.exercises.week06 import _order_tools
    from toolkit.search.catalog import ALL_TOOLS, EvalRow
    from toolkit.views.display import show_table
    from toolkit.views.playground import AssistantPlayground
    from toolkit.views.schema import schema_explainer
    from toolkit.views.search import SelectionChart
    from toolkit.views.search_box import SearchBox
    from toolkit.views.sequence import SequenceDiagram
    from toolkit.views.stepper import LoopStepper
    from toolkit.views.stream import StreamView
    from toolkit.views.timeline import Span, Timeline
    from toolkit.views.tool_editor import ToolEditor
    from toolkit.views.trace import SagaView
    from toolkit.views.truth_table import TruthTableWidget
    from toolkit.views.week3 import accuracy_view

    reset_call_ids()
    result = run_loop(ScriptedModel([call("echo", word="hi"), "done \u202e"]), [UserMessage(content="q")], tools=[echo])
    case = CaseResult(AccuracyCase("c1", "normal", "问题", "query_order", ""), ("query_order",), "", "pass", 2)
    views = [
        TraceView(result),
        SagaView(result),
        ConversationView(result.messages),
        StreamView("t"),
        LoopStepper(result),
        ToolEditor(),
        SearchBox(),
        TruthTableWidget(),
        schema_explainer(_order_tools()),
        AssistantPlayground(env={}),
        accuracy_view([case]),
        SelectionChart([EvalRow(100, ALL_TOOLS, 1.0, 1.0, 9000.0)]),
        Timeline([("run \u202e", [Span("lane", 0.0, 1.0, "label")])], title="t \u202e"),
        SequenceDiagram(result),
        show_table([{"a": "\u202e"}], title="\u202e"),
    ]
    for view in views:
        text = view._repr_mimebundle_()["text/plain"]
        assert repr(view) == str(view) == text, type(view).__name__
        assert "\u202e" not in text and " at 0x" not in text and "<div" not in text, type(view).__name__
