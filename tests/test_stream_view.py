"""The stream view: segments, exact text, HTML structure, escaping, determinism, the live widget."""

import re
from typing import Protocol

import pytest
from html_tree import Tree

import toolkit.views.stream as stream_view
from toolkit.chat.messages import ToolCall, ToolResultMessage
from toolkit.chat.scripted import ScriptedModel, call, reset_call_ids
from toolkit.chat.sse import TextDelta, ToolCallDelta
from toolkit.chat.switch import fake_client
from toolkit.errors import ConfigurationError, TruncatedStreamError
from toolkit.gateway.server import Gateway
from toolkit.loop.run import ToolFinished, ToolStarted
from toolkit.loop.saga import ToolExecution
from toolkit.services.results import Result
from toolkit.services.service import TokenStream, ai_service
from toolkit.tools.decorator import tool
from toolkit.views.stream import (
    StreamView,
    TextSegment,
    ToolSegment,
    event_line,
    event_lines,
    fold_events,
    render_stream_html,
    render_stream_text,
)

LOGISTICS = "帮我查一下订单 SN202610200001 现在到哪了？"
RUNS = []


@tool("查询订单的物流")
def query_logistics(orderId: str) -> str:
    RUNS.append(orderId)
    return f"订单 {orderId}：运输中 <b>杭州</b>"


class Streamer(Protocol):
    def stream(self, question: str) -> TokenStream: ...


def setup_function():
    RUNS.clear()


def scripted_stream(script):
    reset_call_ids()
    return ai_service(Streamer, model=ScriptedModel(script), tools=[query_logistics]).stream("q")


def mid_stream_events():
    """Text, a call (id, then argument fragments), its run, then more text."""
    call_ = ToolCall(id="call_x", name="query_logistics", arguments='{"orderId":"SN1"}')
    result = ToolResultMessage(tool_call_id="call_x", tool_name="query_logistics", content="运输中")
    return [
        TextDelta("我查"),
        TextDelta("一下。"),
        ToolCallDelta(0, "call_x", "query_logistics", ""),
        ToolCallDelta(0, None, None, '{"orderId"'),
        ToolCallDelta(0, None, None, ':"SN1"}'),
        ToolStarted(1, call_),
        ToolFinished(ToolExecution(1, call_, result)),
        TextDelta("已发货"),
        TextDelta("，在路上。"),
    ]


# --- folding --------------------------------------------------------------------------------


def test_events_fold_into_segments_in_arrival_order():
    segments = fold_events(mid_stream_events())
    assert [type(s).__name__ for s in segments] == ["TextSegment", "ToolSegment", "TextSegment"]
    assert segments[0] == TextSegment("我查一下。") and segments[2] == TextSegment("已发货，在路上。")
    tool_ = segments[1]
    assert (tool_.name, tool_.arguments, tool_.state) == ("query_logistics", '{"orderId":"SN1"}', "done")
    assert tool_.execution.result.content == "运输中"


@pytest.mark.parametrize(
    "upto,state,arguments", [(3, "asked", ""), (5, "asked", '{"orderId":"SN1"}'), (6, "running", '{"orderId":"SN1"}')]
)
def test_a_tool_segment_goes_asked_running_done(upto, state, arguments):
    (tool_,) = [s for s in fold_events(mid_stream_events()[:upto]) if isinstance(s, ToolSegment)]
    assert (tool_.state, tool_.arguments) == (state, arguments)


def test_calls_without_deltas_and_parallel_calls_get_their_own_segments():
    a = ToolCall(id="c1", name="query_order", arguments="{}")
    b = ToolCall(id="c2", name="query_logistics", arguments="{}")
    done = ToolExecution(1, a, ToolResultMessage(tool_call_id="c1", tool_name="query_order", content="ok"))
    segments = fold_events(
        [
            ToolCallDelta(0, "c1", "query_order", "{}"),
            ToolCallDelta(1, "c2", "query_logistics", "{"),
            ToolCallDelta(1, None, None, "}"),
            ToolStarted(1, a),
            ToolFinished(done),
            ToolStarted(1, b),
        ]
    )
    assert [(s.name, s.state, s.arguments) for s in segments] == [
        ("query_order", "done", "{}"),
        ("query_logistics", "running", "{}"),
    ]
    (lone,) = fold_events([ToolStarted(2, a)])
    assert (lone.name, lone.state) == ("query_order", "running")


# --- text -----------------------------------------------------------------------------------


def test_the_transcript_while_streaming_and_at_the_end():
    events = mid_stream_events()
    assert render_stream_text(events[:4]) == (
        'assistant: 我查一下。\ntool query_logistics({"orderId") [arguments arriving]\nstreaming…'
    )
    assert render_stream_text(events[:6]) == (
        'assistant: 我查一下。\ntool query_logistics({"orderId": "SN1"}) [running]\nstreaming…'
    )
    assert render_stream_text(events, done=True) == (
        "assistant: 我查一下。\n"
        'tool query_logistics({"orderId": "SN1"}) [ok] → 运输中\n'
        "assistant: 已发货，在路上。\n"
        "done"
    )


def test_the_transcript_of_a_scripted_stream_with_its_result():
    stream = scripted_stream([call("query_logistics", orderId="SN1"), "您的订单已发货"])
    events = list(stream)
    assert RUNS == ["SN1"]
    u = stream.result.usage
    assert render_stream_text(events, stream.result) == (
        'tool query_logistics({"orderId": "SN1"}) [ok] → 订单 SN1：运输中 <b>杭州</b>\n'
        "assistant: 您的订单已发货\n"
        f"done · finish reason: stop · tokens: input {u.input_tokens} · output {u.output_tokens} · "
        f"total {u.total_tokens}"
    )


def test_an_error_stops_the_stream_and_marks_unexecuted_calls():
    events = mid_stream_events()[:4]
    error = TruncatedStreamError("stream ended before [DONE]")
    assert render_stream_text(events, error=error) == (
        "assistant: 我查一下。\n"
        'tool query_logistics({"orderId") [not executed]\n'
        "stopped · TruncatedStreamError: stream ended before [DONE]"
    )


def test_event_lines():
    assert (
        list(event_lines(mid_stream_events()))
        == [event_line(e) for e in mid_stream_events()]
        == [
            "TextDelta     '我查'",
            "TextDelta     '一下。'",
            "ToolCallDelta #0 query_logistics ''",
            "ToolCallDelta #0 '{\"orderId\"'",
            "ToolCallDelta #0 ':\"SN1\"}'",
            'ToolStarted   round 1: query_logistics({"orderId": "SN1"})',
            "ToolFinished  round 1: query_logistics [ok] 运输中",
            "TextDelta     '已发货'",
            "TextDelta     '，在路上。'",
        ]
    )


# --- HTML -----------------------------------------------------------------------------------


def titles(html, cls):
    return [c.find_all("tk-title")[0].text() for c in Tree(html).root.find_all(cls)]


def test_html_structure_in_order_with_status():
    html = render_stream_html(mid_stream_events(), done=True, title="stream")
    tree = Tree(html)
    blocks = tree.root.find_all("tk-card")
    assert [n.find_all("tk-title")[0].text() for n in blocks] == ["assistant", "query_logistics ok", "assistant"]
    tool_card = tree.root.find_all("tk-stream-tool")[0]
    assert [b.text() for b in tool_card.find_all("tk-badge")] == ["ok"]
    assert "tk-ok" in tool_card.find_all("tk-badge")[0].classes
    texts = [t.text() for t in tree.root.find_all("tk-text")]
    assert texts == ["我查一下。", "运输中", "已发货，在路上。"]
    assert tree.root.find_all("tk-code")[0].text() == '{\n  "orderId": "SN1"\n}'
    (status,) = tree.root.find_all("tk-stream-status")
    assert status.find_all("tk-badge")[0].text() == "done" and status.text() == "statusdone "
    assert tree.root.find_all("tk-heading")[0].text() == "stream"


def test_html_while_streaming_shows_a_cursor_and_the_call_being_written():
    events = mid_stream_events()
    assert titles(render_stream_html(events[:2]), "tk-stream-text") == ["assistant"]
    assert "我查一下。▍" in render_stream_html(events[:2])
    assert titles(render_stream_html(events[:4]), "tk-stream-tool") == [
        "asking for query_logistics… arguments arriving"
    ]
    assert titles(render_stream_html(events[:6]), "tk-stream-tool") == ["calling query_logistics… running"]
    assert "▍" not in render_stream_html(events[:8], done=True)
    assert "nothing yet" in render_stream_html([]) and "streaming…" in render_stream_html([])


def test_html_of_a_stopped_stream():
    error = TruncatedStreamError("ended before [DONE]")
    html = render_stream_html(mid_stream_events()[:4], error=error)
    assert titles(html, "tk-stream-tool") == ["query_logistics not executed"]
    (status,) = Tree(html).root.find_all("tk-stream-status")
    assert status.text() == "statusstopped TruncatedStreamError: ended before [DONE]"
    assert "tk-error" in status.find_all("tk-badge")[0].classes


def test_a_call_running_when_the_stream_stopped_is_not_shown_running():
    """Ctrl-C while a tool ran left its card "calling query_logistics… running" under "stopped": the
    stream had ended, and the tool's outcome is unknown."""
    events = mid_stream_events()[:6]
    html = render_stream_html(events, error=KeyboardInterrupt())
    assert titles(html, "tk-stream-tool") == ["query_logistics not finished"]
    assert render_stream_text(events, error=KeyboardInterrupt()) == (
        'assistant: 我查一下。\ntool query_logistics({"orderId": "SN1"}) [not finished]\nstopped · KeyboardInterrupt'
    )
    assert titles(render_stream_html(events), "tk-stream-tool") == ["calling query_logistics… running"]


def test_everything_from_the_model_and_the_tools_is_escaped():
    call_ = ToolCall(id="c", name="q<i>", arguments='{"a": "<b>"}')
    result = ToolResultMessage(tool_call_id="c", tool_name="q<i>", content="<script>alert(1)</script>")
    events = [
        TextDelta("<img src=x onerror=alert(1)>"),
        ToolStarted(1, call_),
        ToolFinished(ToolExecution(1, call_, result)),
    ]
    html = render_stream_html(events, error=ValueError("<b>boom</b>"), title="<t>")
    for raw in ("<script>", "<img", "<b>", "<i>", "<t>"):
        assert raw not in html
    tree = Tree(html)
    assert tree.root.find_all("tk-text")[0].text() == "<img src=x onerror=alert(1)>"
    assert "<script>alert(1)</script>" in tree.root.text() and "ValueError: <b>boom</b>" in tree.root.text()


def test_output_is_deterministic_and_carries_no_call_ids():
    first = list(scripted_stream([call("query_logistics", orderId="SN1"), "好的"]))
    second = list(scripted_stream([call("query_logistics", orderId="SN1", id="call_zz9"), "好的"]))
    assert render_stream_html(first, done=True) == render_stream_html(second, done=True)
    assert render_stream_text(first, done=True) == render_stream_text(second, done=True)
    html = render_stream_html(first, done=True)
    assert "call_" not in html and not re.search(r"0x[0-9a-f]{6,}", html)


# --- the widget -----------------------------------------------------------------------------


def test_the_widget_redraws_after_each_push():
    view = StreamView("live")
    seen = [view.value]
    for event in mid_stream_events():
        view.push(event)
        seen.append(view.value)
    assert len(set(seen)) == len(seen)  # every event changed what is shown
    assert "nothing yet" in seen[0] and "我查一下。▍" in seen[2] and ">live<" in seen[-1]
    view.finish()
    bundle = view._repr_mimebundle_()
    assert bundle["text/html"] == view.value == render_stream_html(view.events, done=True, title="live")
    assert bundle["text/plain"] == render_stream_text(view.events, done=True)
    model_id = bundle["application/vnd.jupyter.widget-view+json"]["model_id"]
    assert model_id not in bundle["text/html"] + bundle["text/plain"]


def test_consume_returns_the_result_and_shows_it():
    view = StreamView()
    result = view.consume(scripted_stream([call("query_logistics", orderId="SN1"), "您的订单已发货"]))
    assert result.content == "您的订单已发货" and view.result is result
    u = result.usage
    assert view._repr_mimebundle_()["text/plain"].endswith(
        f"done · finish reason: stop · tokens: input {u.input_tokens} · output {u.output_tokens} · "
        f"total {u.total_tokens}"
    )


def test_consume_shows_an_error_then_reraises_it():
    view = StreamView()
    with pytest.raises(RuntimeError, match="gateway exploded"):
        view.consume(scripted_stream([RuntimeError("gateway exploded")]))
    assert view._text == "stopped · RuntimeError: gateway exploded" and view.done


def test_an_interrupted_stream_says_where_it_stopped():
    def interrupted():
        yield TextDelta("我查")
        raise KeyboardInterrupt

    view = StreamView()
    with pytest.raises(KeyboardInterrupt):
        view.consume(interrupted())
    assert view._text == "assistant: 我查\nstopped · KeyboardInterrupt"


def test_a_stream_closed_before_its_end_is_shown_stopped_not_done():
    """A TokenStream closed mid-turn (its stop button, pressed by a tool or another thread) ends the
    reader's loop quietly, with no result: the view said "done", as if the turn had answered."""
    streams: list[TokenStream] = []

    @tool("stops the turn")
    def stop_here(x: str) -> str:
        streams[0].close()
        return "stopping"

    reset_call_ids()
    streamer = ai_service(Streamer, model=ScriptedModel([call("stop_here", x="a"), "never said"]), tools=[stop_here])
    streams.append(streamer.stream("q"))
    view = StreamView()
    assert view.consume(streams[0]) is None
    assert view._text == 'tool stop_here({"x": "a"}) [ok] → stopping\nstopped · ' + stream_view.CLOSED
    assert view.done and view.error is None and view.result is None


def test_consume_can_pace_a_fast_stream(monkeypatch):
    waits = []
    monkeypatch.setattr(stream_view.time, "sleep", waits.append)
    StreamView().consume(mid_stream_events(), pace=0.05)
    assert waits == [0.05] * len(mid_stream_events())
    view = StreamView()
    assert view.consume(mid_stream_events()) is None  # a plain list of events has no result
    assert len(waits) == len(mid_stream_events()) and view._text.endswith("\ndone")


class FakeHandle:
    def __init__(self, log):
        self.log = log

    def update(self, obj, **kwargs):
        self.log.append(("update", obj, kwargs))


def test_display_shows_only_the_live_widget_then_the_final_state(monkeypatch):
    import IPython.display

    log = []

    def fake_display(obj, **kwargs):
        bundle = obj if kwargs.get("raw") else obj._repr_mimebundle_()
        log.append(("display", sorted(bundle), kwargs))
        return FakeHandle(log)

    monkeypatch.setattr(IPython.display, "display", fake_display)
    view = StreamView()
    view.display()
    view.consume(mid_stream_events())
    assert log == [
        ("display", ["application/vnd.jupyter.widget-view+json"], {"raw": True, "display_id": True}),
        ("update", {}, {"raw": True}),
        ("display", ["application/vnd.jupyter.widget-view+json", "text/html", "text/plain"], {}),
    ]


# --- through the real SSE client --------------------------------------------------------------


def test_a_tool_call_mid_stream_through_the_fake_gateway():
    assistant = ai_service(Streamer, model=fake_client(mode="A"), tools=[query_logistics])
    view = StreamView()
    result = view.consume(assistant.stream(LOGISTICS))
    assert RUNS == ["SN202610200001"]
    lines = view._text.splitlines()
    assert lines[0] == (
        'tool query_logistics({"orderId": "SN202610200001"}) [ok] → 订单 SN202610200001：运输中 <b>杭州</b>'
    )
    assert lines[1] == f"assistant: {result.content}" and lines[2].startswith("done · finish reason: stop")
    kinds = [type(e).__name__ for e in view.events]
    assert kinds.index("ToolFinished") < kinds.index("TextDelta") and kinds.count("ToolCallDelta") > 1


def test_a_truncated_stream_shows_the_unexecuted_call():
    assistant = ai_service(
        Streamer, model=fake_client(gateway=Gateway(mode="A", faults=["truncate"])), tools=[query_logistics]
    )
    view = StreamView()
    with pytest.raises(TruncatedStreamError):
        view.consume(assistant.stream(LOGISTICS))
    assert RUNS == [] and not any(isinstance(e, (ToolStarted, ToolFinished)) for e in view.events)
    first, status = view._text.splitlines()
    assert first.startswith("tool query_logistics(") and first.endswith("[not executed]")
    assert status.startswith("stopped · TruncatedStreamError: stream ended before [DONE]")


# --- folding once, drawing only what changed ----------------------------------------------------


def plain_fold(events):
    """`fold_events` as first written (every fragment `+=`, every call found by a scan): the
    reference the incremental fold and the live view must match."""
    segments, writing = [], {}
    for event in events:
        if isinstance(event, TextDelta):
            if segments and isinstance(segments[-1], TextSegment):
                segments[-1].text += event.text
            else:
                segments.append(TextSegment(event.text))
        elif isinstance(event, ToolCallDelta):
            current = writing.get(event.index)
            another = current is not None and event.id and current.call_id not in (None, event.id) and event.name
            repeated = any(s.call_id == event.id for s in writing.values())  # the loop gives it an id of its own
            if current is None or another:
                current = writing[event.index] = ToolSegment(
                    event.name or "", "", call_id=None if repeated else event.id
                )
                segments.append(current)
            elif event.id is not None and not repeated:
                current.call_id = event.id
            if event.name and event.name != current.name:  # pieces joined, a restated name kept (sse._named)
                current.name += event.name
            current.arguments += event.arguments
        elif isinstance(event, ToolStarted):
            writing.clear()
            segment = plain_tool(segments, event.call.id, event.call.name, ("asked",))
            segment.name, segment.arguments, segment.state = event.call.name, event.call.arguments, "running"
        elif isinstance(event, ToolFinished):
            call_ = event.execution.call
            segment = plain_tool(segments, call_.id, call_.name, ("running", "asked"))
            segment.arguments, segment.state, segment.execution = call_.arguments, "done", event.execution
    return segments


def test_a_tool_name_streamed_in_pieces_shows_whole_while_its_arguments_arrive():
    events = [ToolCallDelta(0, "c1", "get_wea", ""), ToolCallDelta(0, None, "ther", '{"city": "杭州"')]
    assert [s.name for s in fold_events(events)] == ["get_weather"]
    assert "asking for get_weather…" in render_stream_html(events)
    assert render_stream_text(events).splitlines()[0] == 'tool get_weather({"city": "杭州") [arguments arriving]'


def test_a_name_restated_on_every_delta_is_kept_and_a_call_without_one_shows_a_question_mark():
    events = [ToolCallDelta(0, "c1", "get_weather", "{"), ToolCallDelta(0, "c1", "get_weather", "}")]
    assert [s.name for s in fold_events(events)] == ["get_weather"]
    nameless = [ToolCallDelta(0, None, None, "{")]
    assert render_stream_text(nameless).splitlines()[0] == "tool ?({) [arguments arriving]"
    assert "asking for ?…" in render_stream_html(nameless)
    assert render_stream_text(nameless, done=True).splitlines()[0] == "tool ?({) [not executed]"


def plain_tool(segments, call_id, name, states):
    for segment in reversed(segments):
        if isinstance(segment, ToolSegment) and segment.call_id == call_id and segment.state in states:
            return segment
    unnamed = [s for s in segments if isinstance(s, ToolSegment) and s.call_id is None and s.state in states]
    if unnamed:  # streamed without an id: the first such call (of this name if one is) takes the loop's id
        segment = next((s for s in unnamed if s.name == name), unnamed[0])
        segment.call_id = call_id
        return segment
    segment = ToolSegment(name, "", call_id=call_id)
    segments.append(segment)
    return segment


FRAGMENTS = ["", "我查", "<b>&amp;", "\n", " ", "{", '"orderId"', ":", '"SN1"', "}", "▍"]


def random_events(rng, n):
    """Text, deltas of up to three parallel calls (ids and names present or not), and calls
    started and finished (ok, failed, rolled back, not run), in any order."""
    events = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.4:
            events.append(TextDelta(rng.choice(FRAGMENTS)))
        elif kind < 0.75:
            id_, name = rng.choice(["c1", "c2", "c3", None]), rng.choice(["query_logistics", "q<i>", None])
            events.append(ToolCallDelta(rng.randrange(3), id_, name, rng.choice(FRAGMENTS)))
        else:
            id_ = rng.choice(["c1", "c2", "c3"])
            call_ = ToolCall(
                id=id_, name=rng.choice(["query_logistics", "q<i>"]), arguments=rng.choice(['{"a": 1}', "{"])
            )
            if kind < 0.87:
                events.append(ToolStarted(rng.randrange(1, 3), call_))
            else:
                content = rng.choice(["运输中", '{"b": [1]}', "<script>"])
                result = ToolResultMessage(tool_call_id=id_, tool_name=call_.name, content=content)
                kinds = [None, "argument", "not_run"]
                events.append(
                    ToolFinished(
                        ToolExecution(
                            1, call_, result, error_kind=rng.choice(kinds), rolled_back_by=rng.choice([None, "x"])
                        )
                    )
                )
    return events


@pytest.mark.parametrize("seed", range(40))
def test_fold_events_is_the_plain_fold_after_every_event(seed):
    import random

    events = random_events(random.Random(seed), 40)
    for upto in range(len(events) + 1):
        assert fold_events(events[:upto]) == plain_fold(events[:upto])


@pytest.mark.parametrize("seed", range(40))
def test_the_live_view_after_each_push_is_the_plain_render_of_all_events_so_far(seed, monkeypatch):
    import random

    rng = random.Random(seed)
    events = random_events(rng, 40)
    view = StreamView("live")
    monkeypatch.setattr(stream_view, "fold_events", plain_fold)  # the renderers below fold plainly
    assert (view.value, view._text) == (render_stream_html([], title="live"), render_stream_text([]))
    for upto, event in enumerate(events, 1):
        view.push(event)
        assert view.value == render_stream_html(events[:upto], title="live")
        assert view._text == render_stream_text(events[:upto])
    error = rng.choice([None, TruncatedStreamError("stream ended before [DONE]")])
    view.finish(error=error)
    assert view.value == render_stream_html(events, error=error, done=True, title="live")
    assert view._text == render_stream_text(events, error=error, done=True)


def test_the_live_view_with_a_result_is_the_plain_render(monkeypatch):
    stream = scripted_stream([call("query_logistics", orderId="SN1"), "您的订单已发货"])
    view = StreamView("live")
    view.consume(stream)
    monkeypatch.setattr(stream_view, "fold_events", plain_fold)
    assert view.value == render_stream_html(view.events, stream.result, title="live")
    assert view._text == render_stream_text(view.events, stream.result)


def test_the_live_view_folds_each_event_once_and_draws_only_what_changed(monkeypatch):
    folded, drawn = [], []
    add, draw = stream_view.EventFold.add, stream_view._segment_html
    monkeypatch.setattr(stream_view.EventFold, "add", lambda self, e: (folded.append(e), add(self, e))[1])
    monkeypatch.setattr(stream_view, "_segment_html", lambda *a: (drawn.append(a[0]), draw(*a))[1])
    ticks = iter(range(0, 10**6))
    monkeypatch.setattr(stream_view, "_clock", lambda: next(ticks) * 2 * stream_view.REDRAW_EVERY)  # each one drawn
    view = StreamView()
    view.consume([TextDelta(f"w{i} ") for i in range(200)])
    assert len(folded) == 200  # not 200 * 201 / 2
    assert len(drawn) == 201  # the growing text once per push, then once more without its cursor
    drawn.clear()
    view = StreamView()
    view.consume(mid_stream_events() * 3)
    assert len(drawn) <= 2 * len(view.events) + len(fold_events(view.events))


def test_a_replaced_event_list_is_folded_again():
    events = mid_stream_events()
    view = StreamView(events=events[:6])
    view.events = events[6:8]
    view.push(events[8])
    assert view._text == render_stream_text(events[6:])
    del view.events[1:]
    view.push(TextDelta("!"))
    assert view._text == render_stream_text([events[6], TextDelta("!")])


def assembled_deltas(pieces):
    """The `ToolCallDelta`s `toolkit.chat.sse.assemble` makes of streamed `tool_calls` pieces."""
    import json

    from toolkit.chat.sse import assemble

    lines = []
    for piece in pieces:
        lines += ["data: " + json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [piece]}}]}), ""]
    lines += ['data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}', "", "data: [DONE]", ""]
    return [e for e in assemble(lines) if isinstance(e, ToolCallDelta)]


FRAGMENTS_OF_ONE_CALL = ['{"orderId"', ': "SN2026102000', '01"}']


@pytest.mark.parametrize(
    "gateway",
    [
        lambda i, f: {"index": 0, "id": "c1", "function": {"name": "query_order", "arguments": f}},  # repeats both
        lambda i, f: {
            "index": 0,
            "id": f"c{i}",
            "function": {"arguments": f, **({"name": "query_order"} if not i else {})},
        },
    ],
    ids=["id and name on every fragment", "a fresh id on every fragment"],
)
def test_one_call_streamed_by_gateways_that_repeat_or_renew_the_id_is_one_card(gateway):
    """The assembler reads both as one call (toolkit.chat.sse); the view drew one card per
    fragment, and after the stream each stale card said "not executed"."""
    deltas = assembled_deltas([gateway(i, f) for i, f in enumerate(FRAGMENTS_OF_ONE_CALL)])
    assert (
        render_stream_text(deltas) == 'tool query_order({"orderId": "SN202610200001"}) [arguments arriving]\nstreaming…'
    )
    call_ = ToolCall(id=deltas[-1].id or "c1", name="query_order", arguments='{"orderId": "SN202610200001"}')
    result = ToolResultMessage(tool_call_id=call_.id, tool_name="query_order", content="已发货")
    events = [*deltas, ToolStarted(1, call_), ToolFinished(ToolExecution(1, call_, result))]
    assert render_stream_text(events, done=True) == (
        'tool query_order({"orderId": "SN202610200001"}) [ok] → 已发货\ndone'
    )


def test_calls_streamed_without_ids_are_the_cards_the_loop_runs_under_its_own_ids():
    """llama.cpp's server and others stream calls without an `id`; the loop names them
    `r000001c1`, `r000001c2`. Before: the streamed cards were never matched to the runs, so each
    call was drawn twice and the streamed one said "not executed" although it ran."""
    a = ToolCall(id="r000001c1", name="query_order", arguments='{"orderId":"SN1"}')
    b = ToolCall(id="r000001c2", name="query_logistics", arguments='{"orderId":"SN1"}')
    events = [
        ToolCallDelta(0, None, "query_order", '{"orderId"'),
        ToolCallDelta(0, None, None, ':"SN1"}'),
        ToolCallDelta(1, None, "query_logistics", '{"orderId":"SN1"}'),
    ]
    for call_ in (a, b):
        result = ToolResultMessage(tool_call_id=call_.id, tool_name=call_.name, content="ok")
        events += [ToolStarted(1, call_), ToolFinished(ToolExecution(1, call_, result))]
    assert render_stream_text(events, done=True) == (
        'tool query_order({"orderId": "SN1"}) [ok] → ok\ntool query_logistics({"orderId": "SN1"}) [ok] → ok\ndone'
    )


@pytest.mark.parametrize(
    "pieces",
    [
        [
            {"index": 0, "id": "call_0", "function": {"name": "query_order", "arguments": ""}},
            {"index": 1, "id": "call_0", "function": {"name": "query_order", "arguments": ""}},
            {"index": 0, "function": {"arguments": '{"orderId":"SN1"}'}},
            {"index": 1, "id": "call_0", "function": {"arguments": '{"orderId":"SN2"}'}},
        ],
        [
            {"index": 0, "id": "call_0", "function": {"name": "query_order", "arguments": '{"orderId":"SN1"}'}},
            {"index": 0, "id": "call_0", "function": {"name": "query_order", "arguments": '{"orderId":"SN2"}'}},
        ],
    ],
    ids=["interleaved, the id on a fragment too", "one index and id for both (local servers)"],
)
def test_two_calls_streamed_under_one_id_are_the_two_cards_the_loop_runs(pieces):
    """A model (or a local server) that gives two calls of a reply one id: the loop runs the
    second under an id of its own (`unique_call_ids`). Before: the first run was drawn on the
    second card, the second run got a third card, and the first card said "not executed"."""
    deltas = assembled_deltas(pieces)
    a = ToolCall(id="call_0", name="query_order", arguments='{"orderId":"SN1"}')
    b = ToolCall(id="r000001c2", name="query_order", arguments='{"orderId":"SN2"}')
    events = list(deltas)
    for call_ in (a, b):
        result = ToolResultMessage(tool_call_id=call_.id, tool_name=call_.name, content=call_.arguments[-5:-2])
        events += [ToolStarted(1, call_), ToolFinished(ToolExecution(1, call_, result))]
    assert render_stream_text(events, done=True) == (
        'tool query_order({"orderId": "SN1"}) [ok] → SN1\ntool query_order({"orderId": "SN2"}) [ok] → SN2\ndone'
    )


def test_a_pushed_text_is_scrubbed_once_for_its_card_and_its_line():
    """A live view draws a changed text segment's card and its transcript line on every push: the
    text is scrubbed once for both (a long answer's was scrubbed twice per delta)."""
    stream_view._scrubbed.cache_clear()
    view = stream_view.StreamView("q")
    view.push(TextDelta("password is Tr0ub4dor&3, shipped"))
    info = stream_view._scrubbed.cache_info()
    assert (info.misses, info.hits) == (1, 1)
    assert "Tr0ub4dor" not in view._repr_mimebundle_()["text/plain"]


def test_consume_draws_pieces_that_pour_in_together_and_always_the_first_tools_and_end(monkeypatch):
    drawn = []
    redraw = StreamView._redraw
    monkeypatch.setattr(StreamView, "_redraw", lambda self: (drawn.append(len(self.events)), redraw(self))[1])
    monkeypatch.setattr(stream_view, "_clock", lambda: 7.0)  # every event at the same instant
    events = [TextDelta(f"w{i} ") for i in range(500)]
    view = StreamView()
    drawn.clear()
    view.consume(events)
    assert drawn == [1, 500]  # the first piece, then the end: not 500 drawings of a growing page
    assert view.value == render_stream_html(events, done=True)
    assert view._text == render_stream_text(events, done=True)
    drawn.clear()
    view = StreamView()
    drawn.clear()
    view.consume(mid_stream_events())
    tools = [n for n, e in enumerate(mid_stream_events(), 1) if isinstance(e, ToolStarted | ToolFinished)]
    assert tools and drawn == [1, *tools, len(mid_stream_events())]


def test_consume_draws_again_once_redraw_every_has_passed(monkeypatch):
    drawn = []
    redraw = StreamView._redraw
    monkeypatch.setattr(StreamView, "_redraw", lambda self: (drawn.append(len(self.events)), redraw(self))[1])
    ticks = iter(range(10**6))
    monkeypatch.setattr(stream_view, "REDRAW_EVERY", 1.0)
    monkeypatch.setattr(stream_view, "_clock", lambda: next(ticks) / 4)  # exact in binary: no rounding at the edge
    view = StreamView()
    drawn.clear()
    view.consume([TextDelta("x") for _ in range(10)])
    assert drawn == [1, 5, 9, 10]  # every fourth piece (a quarter of REDRAW_EVERY apart), then the end


def test_consume_shows_every_event_that_came_before_an_error(monkeypatch):
    monkeypatch.setattr(stream_view, "_clock", lambda: 7.0)

    def broken():
        yield from (TextDelta(f"w{i} ") for i in range(50))
        raise TruncatedStreamError("stream ended before [DONE]")

    view = StreamView()
    with pytest.raises(TruncatedStreamError):
        view.consume(broken())
    events = [TextDelta(f"w{i} ") for i in range(50)]
    error = view.error
    assert view._text == render_stream_text(events, error=error, done=True)


def test_a_paced_stream_draws_every_event(monkeypatch):
    drawn = []
    redraw = StreamView._redraw
    monkeypatch.setattr(StreamView, "_redraw", lambda self: (drawn.append(len(self.events)), redraw(self))[1])
    monkeypatch.setattr(stream_view, "_clock", lambda: 7.0)  # a sleep that seems to take no time
    monkeypatch.setattr(stream_view.time, "sleep", lambda seconds: None)
    view = StreamView()
    drawn.clear()
    view.consume([TextDelta("x") for _ in range(5)], pace=0.01)
    assert drawn == [1, 2, 3, 4, 5, 5]  # each piece, then the end


@pytest.mark.parametrize("pace", [-1, "0.1", True, float("inf"), float("nan")])
def test_a_bad_pace_is_refused_before_the_stream_is_read(pace):
    """pace=-1 read the first event, then stopped the stream with a raw `ValueError: sleep length must
    be non-negative` (pace="0.1": a TypeError), leaving the loop behind it half run."""
    read = []

    def events():
        for event in mid_stream_events():
            read.append(event)
            yield event

    view = StreamView()
    with pytest.raises(ConfigurationError) as caught:
        view.consume(events(), pace=pace)
    assert str(caught.value) == (
        f"StreamView.consume(pace={pace!r}): pace is the seconds to wait after each event, a finite number "
        "of 0 or more; e.g. view.consume(stream, pace=0.03), or leave it out to show the stream as it arrives"
    )
    assert read == [] and view.events == []


def test_no_pace_is_none_or_zero():
    for pace in (None, 0, 0.0):
        view = StreamView()
        assert view.consume(mid_stream_events(), pace=pace) is None and view._text.endswith("\ndone")


def many_calls_events(n):
    """`n` rounds of a call, its run and its result, then a line of text: `2 * n` parts."""
    events = []
    for i in range(1, n + 1):
        call_ = ToolCall(id=f"c{i}", name="query_logistics", arguments=f'{{"orderId":"SN{i}"}}')
        result = ToolResultMessage(tool_call_id=f"c{i}", tool_name="query_logistics", content=f"r{i}")
        events += [ToolStarted(i, call_), ToolFinished(ToolExecution(i, call_, result)), TextDelta(f"t{i}")]
    return events


def test_a_stream_of_thousands_of_parts_is_drawn_as_its_first_and_last_500():
    """3,000 calls drew 6,000 cards (a 3 MB page, drawn again on every event: 100 s to consume);
    now the first and last 500 parts and a note, as the trace and the conversation do."""
    events = many_calls_events(3000)
    note = "… 5,000 parts not shown: parts 501 to 5,500"
    text = render_stream_text(events, done=True)
    lines = text.splitlines()
    assert lines[499:502] == ["assistant: t250", note, 'tool query_logistics({"orderId": "SN2751"}) [ok] → r2751']
    assert len(lines) == 1002 and lines[-2:] == ["assistant: t3000", "done"]
    html = render_stream_html(events, done=True)
    assert html.count('class="tk-card') == 1000 and note in html
    assert "SN250&" in html and "SN251&" not in html and "SN2750&" not in html and "SN2751&" in html


def test_a_live_stream_view_draws_the_same_first_and_last_parts_as_the_renderers(monkeypatch):
    """Pushed one event at a time, the live view slides its last parts along and ends as the
    renderers draw the whole stream (SHOWN_ITEMS made small, so thousands of redraws are not needed)."""
    import toolkit.views.html

    monkeypatch.setattr(toolkit.views.html, "SHOWN_ITEMS", 20)
    events = many_calls_events(30)
    view = StreamView()
    for event in events:
        view.push(event)
        assert view._text.count("\n") <= 22
    view.finish()
    bundle = view._repr_mimebundle_()
    text = render_stream_text(events, done=True)
    assert "… 40 parts not shown: parts 11 to 50" in text
    assert (bundle["text/html"], bundle["text/plain"]) == (render_stream_html(events, done=True), text)


@pytest.mark.parametrize("given, kind", [(None, "NoneType"), ("您好", "str"), (Result, "the class Result")])
def test_consume_of_something_that_is_no_stream_is_refused_before_drawing(given, kind):
    """view.consume(None) (or the result of assistant.chat instead of .stream) raised a raw
    "'NoneType' object is not iterable", after drawing the view as stopped; a str was shown as
    nothing, its characters ignored as no events."""
    view = StreamView()
    with pytest.raises(ConfigurationError) as caught:
        view.consume(given)
    assert str(caught.value) == (
        f"StreamView.consume(stream): takes the events of a stream (a list, or the TokenStream itself), and got "
        f"{kind}; e.g. view.consume(assistant.stream('u1', question))"
    )
    assert view.events == [] and not view.done


def test_a_five_megabyte_answer_or_arguments_are_cut_in_the_transcript_as_in_the_html():
    """The HTML cut a long text at SHOWN_CHARS, the transcript (text/plain) kept all 5 MB."""
    from toolkit.views.html import SHOWN_CHARS

    left_out = f"…({5_000_000 - SHOWN_CHARS:,} more characters not shown)"
    text = render_stream_text([TextDelta("x" * 1000) for _ in range(5000)], done=True)
    assert text.splitlines()[0] == "assistant: " + "x" * SHOWN_CHARS + left_out
    calls = render_stream_text([ToolCallDelta(0, "c1", "f", "a" * 1000) for _ in range(5000)], done=True)
    assert calls.splitlines()[0] == "tool f(" + "a" * SHOWN_CHARS + left_out + ") [not executed]"


def test_the_error_that_stopped_a_stream_is_one_bounded_line_of_the_transcript():
    """An error text of several lines (a gateway quoting its body) wrote them as lines of the
    transcript, a fake tool line among them, and one of 3 MB went whole into it (the HTML cut it)."""
    error = RuntimeError("gateway said:\ntool fake({}) [ok] → faked\n" + "x" * 3_000_000)
    lines = render_stream_text([], error=error).splitlines()
    assert len(lines) == 1 and len(lines[0]) == len("stopped · ") + stream_view.ERROR_CHARS
    assert lines[0].startswith("stopped · RuntimeError: gateway said: tool fake({}) [ok] → faked xxx")
    assert render_stream_text([], error=RuntimeError("refused")) == "stopped · RuntimeError: refused"


def test_arguments_that_are_not_json_stay_on_their_tool_line():
    """A model that writes its arguments over lines (pretty-printed, cut off by the stream's end)
    had them written as lines of the transcript, one of them able to read as a line of its own."""
    events = [
        ToolCallDelta(0, "c1", "query", '{\n  "orderId": "SN1",\n  "note": "a'),
        ToolCallDelta(0, None, None, "\nx"),
    ]
    assert render_stream_text(events, error=RuntimeError("cut")).splitlines() == [
        'tool query({\\n  "orderId": "SN1",\\n  "note": "a\\nx) [not executed]',
        "stopped · RuntimeError: cut",
    ]


def test_a_tool_started_events_line_keeps_arguments_that_are_not_json_on_it():
    """event_line(ToolStarted) wrote a call's raw arguments with their line breaks: one event, several lines."""
    started = ToolStarted(1, ToolCall(id="c", name="query", arguments='{\n  "orderId": "SN1"\n'))
    assert event_line(started) == 'ToolStarted   round 1: query({\\n  "orderId": "SN1"\\n)'


def test_items_that_are_not_events_are_refused_not_dropped():
    """view.consume(stream.text()) (the text alone, as str pieces) showed "done" and nothing else:
    every piece was dropped without a word; a list holding a dict or None the same."""
    message = (
        "stream view: each event is a TextDelta, ToolCallDelta, ToolStarted or ToolFinished, and got {kind} "
        "(stream.text() yields the text alone); pass the stream itself, e.g. view.consume(assistant.stream('u1', "
        "question))"
    )

    def pieces():
        yield "你好"

    view = StreamView()
    with pytest.raises(ConfigurationError) as refused:
        view.consume(pieces())
    assert str(refused.value) == message.format(kind="a str")
    assert view._text == "stopped · ConfigurationError: " + message.format(kind="a str")
    for item, kind in (({"text": "x"}, "a dict"), (None, "None")):
        with pytest.raises(ConfigurationError) as refused:
            render_stream_text([TextDelta("a"), item])
        assert str(refused.value) == message.format(kind=kind)
    from toolkit.chat.messages import ChatResponse

    done = stream_view.StreamDone(ChatResponse(message={"role": "assistant", "content": "a"}))
    assert render_stream_text([TextDelta("a"), done], done=True) == "assistant: a\ndone"  # a chat stream's end


def test_a_result_that_is_no_streams_result_is_refused_naming_the_fix():
    """view.finish(result=loop_result) (iter_loop's return value, for a view fed by push) raised
    "'LoopResult' object has no attribute 'finish_reason'"; the renderers the same."""
    from toolkit.loop.run import run_loop

    loop = run_loop(ScriptedModel(["好"]), "q")
    for where, draw in (
        ("StreamView.finish", lambda given: StreamView().finish(result=given)),
        ("render_stream_html", lambda given: render_stream_html([], result=given)),
        ("render_stream_text", lambda given: render_stream_text([], result=given)),
    ):
        for given, kind in ((loop, "a LoopResult"), ("好", "a str")):
            with pytest.raises(ConfigurationError) as refused:
                draw(given)
            assert str(refused.value) == (
                f"{where}(result): result is the Result a TokenStream ends with (stream.result), or None, and got "
                f"{kind}; e.g. {where}(..., result=stream.result), or leave it out (a view fed by push: "
                "view.finish() marks the end)"
            )


def test_consuming_again_after_a_stopped_stream_shows_the_new_stream_alone():
    """A learner whose stream broke (week 4's 'a stream cut before [DONE]') calls view.consume again:
    while the new stream ran the view still said 'stopped · RuntimeError: gateway down', and its text
    was joined to the broken one's in one card ('assistant: 我查 您的订单…'). A view over shows one stream:
    consume starts it again (streaming…, then the new end)."""

    def broken():
        yield TextDelta("我查")
        raise RuntimeError("gateway down")

    seen = []

    def retried():
        for piece in ("您的订单", "已发货"):
            yield TextDelta(piece)
            seen.append(view._text)

    view = StreamView("retry")
    with pytest.raises(RuntimeError):
        view.consume(broken())
    assert view._text == "assistant: 我查\nstopped · RuntimeError: gateway down"
    assert view.consume(retried()) is None
    assert seen[0] == "assistant: 您的订单\nstreaming…"  # the first piece is drawn at once, the next when due
    assert all(text.endswith("\nstreaming…") and "我查" not in text for text in seen)
    assert view._text == "assistant: 您的订单已发货\ndone" and view.error is None and not view.closed
    assert [e.text for e in view.events] == ["您的订单", "已发货"]
    assert "gateway down" not in view.value


def test_pushing_after_the_end_starts_the_next_stream():
    """A view fed by push for one turn, finished, then pushed the next turn's events: it kept saying
    'stopped · …' (or 'done') over the new text, joined to the last turn's in one card."""
    view = StreamView()
    view.push(TextDelta("我查"))
    view.finish(error=RuntimeError("gateway down"))
    view.push(TextDelta("您的订单"))
    assert view._text == "assistant: 您的订单\nstreaming…" and view.events == [TextDelta("您的订单")]
    view.push(TextDelta("已发货"))
    view.finish()
    assert view._text == "assistant: 您的订单已发货\ndone"


def test_a_loop_of_pushes_draws_at_most_every_redraw_every_and_is_drawn_when_read(monkeypatch):
    """A learner's `for e in stream: view.push(e)` redrew the whole page on every piece, so a long
    answer cost time growing with the square of its pieces (100,000 pushes: minutes). Pieces pushed
    within REDRAW_EVERY of the last drawing wait, as in consume; a tool's start is drawn at once,
    and reading the view (its value, its text, its bundle) or the cell's end draws what waits."""
    drawn = []
    redraw = StreamView._redraw
    monkeypatch.setattr(StreamView, "_redraw", lambda self: (drawn.append(len(self.events)), redraw(self))[1])
    monkeypatch.setattr(stream_view, "_clock", lambda: 1000.0)  # every piece in the same instant
    events = [TextDelta(f"w{i} ") for i in range(2000)]
    view = StreamView("live")
    for event in events:
        view.push(event)
    assert drawn == [0, 1]  # the empty view, then the first piece; not 2,001 drawings
    assert view.value == render_stream_html(events, title="live")
    assert view._text == render_stream_text(events)
    assert drawn == [0, 1, 2000]
    calls = mid_stream_events()[2:6]
    for event in calls:
        view.push(event)
    assert drawn == [0, 1, 2000, 2004]  # the deltas wait, the tool's start is drawn
    view.push(TextDelta("!"))
    stream_view._draw_the_undrawn()  # the notebook's cell ends
    assert drawn == [0, 1, 2000, 2004, 2005]
    bundle = view._repr_mimebundle_()
    assert (bundle["text/html"], bundle["text/plain"]) == (
        render_stream_html([*events, *calls, TextDelta("!")], title="live"),
        render_stream_text([*events, *calls, TextDelta("!")]),
    )
    assert drawn == [0, 1, 2000, 2004, 2005]


def test_a_huge_result_is_scrubbed_only_as_far_as_the_view_shows_it(monkeypatch):
    """A tool's 10 MB result was scrubbed whole (up to a minute for look-alike text) for a card cut at
    SHOWN_CHARS and a transcript line of 160 characters; a head is now, a token across the cut masked whole."""
    from toolkit.loop.result_size import READ_PAST
    from toolkit.tools import redact
    from toolkit.views.html import SHOWN_CHARS

    token = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f"
    text = "x" * (SHOWN_CHARS - 20) + " " + token + " " + "y" * 2_000_000
    call_ = ToolCall(id="call_x", name="query_logistics", arguments='{"orderId":"SN1"}')
    result = ToolResultMessage(tool_call_id="call_x", tool_name="query_logistics", content=text)
    events = [ToolStarted(1, call_), ToolFinished(ToolExecution(1, call_, result))]
    read: list[int] = []
    real = redact.scrub
    monkeypatch.setattr(redact, "scrub", lambda given: read.append(len(given)) or real(given))
    page, transcript = str(render_stream_html(events)), render_stream_text(events)
    assert max(read) <= SHOWN_CHARS + READ_PAST
    assert (
        "x" * (SHOWN_CHARS - 20) + f" [REDACTED] yyyyyyyy…({len(text) - SHOWN_CHARS:,} more characters not shown)"
        in page
    )
    assert token[:12] not in page + transcript
    assert transcript == 'tool query_logistics({"orderId": "SN1"}) [ok] → ' + "x" * 159 + "…\nstreaming…"
