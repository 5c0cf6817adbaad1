"""Views of JSON nested deeper than Python reads, and of values that hold themselves.

Found as a stranger: a model that sent 100,000 nested brackets as a call's arguments got an
argument error back from the loop (which reads at most 32 levels), but the conversation view,
the trace, the stream view and the sequence diagram raised RecursionError (`json.loads` in the
view); an `attributes` value holding itself, or nested 5,000 levels, did the same in the
conversation view and in `show_table`. Now deep text is shown as it came, with a badge saying
so, and a deep or circular value is written with a marker where it was cut."""

from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel
from toolkit.chat.sse import ToolCallDelta
from toolkit.loop.run import LoopOptions, ToolStarted, run_loop
from toolkit.tools.decorator import tool
from toolkit.tools.execute import FEED_BACK_ALL
from toolkit.views.conversation import render_conversation_html, render_conversation_text
from toolkit.views.display import show_table
from toolkit.views.html import CIRCULAR, DEEPER, DEPTH, escape
from toolkit.views.sequence import sequence_source
from toolkit.views.stream import event_line, render_stream_html, render_stream_text
from toolkit.views.trace import render_trace_html, render_trace_text

DEEP = "[" * 100_000 + "]" * 100_000
TOO_DEEP = f"nested deeper than {DEPTH} levels"


def nested(levels: int) -> dict[str, object]:
    top: dict[str, object] = {}
    node = top
    for _ in range(levels):
        node["a"] = node = {}
    return top


@tool("Echo a word")
def echo(word: str) -> str:
    return DEEP


def deep_run():
    model = ScriptedModel(
        [
            ToolCall(id="c1", name="echo", arguments=DEEP),
            ToolCall(id="c2", name="echo", arguments='{"word": "a"}'),
            "ok",
        ]
    )
    return run_loop(model, [UserMessage(content="q")], tools=[echo], options=LoopOptions(policies=FEED_BACK_ALL))


def test_the_conversation_shows_deep_arguments_as_they_came_with_a_badge():
    messages = [
        AssistantMessage(tool_calls=(ToolCall(id="c1", name="f", arguments=DEEP),)),
        ToolResultMessage(tool_call_id="c1", tool_name="f", content=DEEP),
    ]
    html = render_conversation_html(messages)
    assert html.count(DEEP) == 2 and escape(TOO_DEEP) in html and "invalid JSON" not in html
    assert render_conversation_text(messages).splitlines()[0].endswith(f"[{TOO_DEEP}]")


def test_the_conversation_writes_deep_or_circular_values_with_a_marker():
    loop: list[object] = ["x"]
    loop.append(loop)
    messages = [
        ToolResultMessage(tool_call_id="c1", content="ok", attributes={"deep": nested(5_000), "loop": loop}),
        {"role": "developer", "content": nested(5_000)},
    ]
    html = render_conversation_html(messages)
    assert html.count(DEEPER) == 2 and CIRCULAR in html
    assert render_conversation_text(messages).splitlines()[1].startswith("(not a message this view can read: ")


def test_a_message_dict_nested_too_deep_to_read_is_shown_where_it_stood():
    """Reading it as a message raised RecursionError (a repr or a `json.dumps` of the whole call).
    50,000 levels: past the recursion limit of every supported Python (3.13 writes 5,000 levels)."""
    items = [
        {"role": "assistant", "tool_calls": [nested(50_000)]},
        {
            "role": "assistant",
            "tool_calls": [{"id": "a", "type": "function", "function": {"arguments": nested(50_000)}}],
        },
    ]
    lines = render_conversation_text(items).splitlines()
    reason = (
        "(not a message this view can read: the message is nested too deep to read (past Python's recursion limit)) "
        '{"role": "assistant", "tool_calls": [{'
    )
    assert [line[: len(reason)] for line in lines] == [reason] * 2
    assert render_conversation_html(items).count(DEEPER) == 2


def test_a_table_cell_nested_too_deep_or_holding_itself_is_shown():
    loop: list[object] = []
    loop.append(loop)
    shown = show_table([{"deep": nested(5_000), "loop": loop}])
    assert DEEPER in shown.html and CIRCULAR in shown.html and CIRCULAR in shown.text


def test_the_trace_and_the_sequence_diagram_of_a_run_with_deep_arguments_and_results():
    result = deep_run()
    assert [e.error_kind for e in result.executions] == ["argument", None]
    html, text = render_trace_html(result), render_trace_text(result)
    assert html.count(DEEP) == 2  # the first call's arguments, the second call's result
    assert "echo [argument error]" in text and "echo [ok]: [[[[" in text
    # brackets are Mermaid syntax: the label keeps only the cut mark
    assert "    L->>T_echo: …\n    T_echo-->>L: ✗ Invalid arguments" in sequence_source(result)


def test_the_stream_view_shows_deep_arguments_as_they_came():
    deltas = [ToolCallDelta(index=0, id="c1", name="f", arguments=DEEP)]
    assert DEEP in render_stream_html(deltas, done=True)
    assert f"tool f({DEEP}) [not executed]" in render_stream_text(deltas, done=True)
    assert event_line(ToolStarted(round=1, call=ToolCall(id="c1", name="f", arguments=DEEP))).endswith(f"f({DEEP})")
