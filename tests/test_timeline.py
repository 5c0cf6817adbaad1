"""Timelines: retries on one axis (deterministic with a fake sleep); sequential vs concurrent tool calls."""

import threading
import time

from toolkit.chat.messages import ToolCall, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.chat.switch import fake_client
from toolkit.gateway.core import GatewayConfig
from toolkit.gateway.server import Gateway
from toolkit.loop.run import LoopOptions, iter_loop
from toolkit.tools.decorator import tool
from toolkit.views.timeline import Span, Timeline, retry_spans, timed_loop


def test_retries_put_attempts_and_waits_end_to_end():
    waits = []
    gateway = Gateway(config=GatewayConfig(retry_after_s=2), faults=["rate_limit", "rate_limit"])
    client = fake_client(gateway=gateway, sleep=waits.append)
    client.chat([UserMessage(content="你好")])
    spans = retry_spans(client.exchanges, waits)
    assert [(s.lane, s.start, s.end, s.label) for s in spans] == [
        ("attempts", 0.0, 0.1, "attempt 1: HTTP 429"),
        ("waits", 0.1, 2.1, "wait 2 s after HTTP 429"),
        ("attempts", 2.1, 2.2, "attempt 2: HTTP 429"),
        ("waits", 2.2, 4.2, "wait 2 s after HTTP 429"),
        ("attempts", 4.2, 4.3, "attempt 3: HTTP 200"),
    ]
    view = Timeline([("429, 429, answer", spans)], "retries")
    bundle = view._repr_mimebundle_()
    assert bundle["text/html"].startswith("<svg") and bundle["text/html"].count("<rect") == 5
    assert "0.10–  2.10 s  waits            wait 2 s after HTTP 429" in bundle["text/plain"]


@tool("Sleep a little.")
def nap(label: str, seconds: float) -> str:
    time.sleep(seconds)
    return label


def run(concurrent: bool):
    """Three naps of 0.3 s; concurrent ones meet at a barrier first, so they overlap however late a
    loaded machine starts a thread (a barrier the sequential ones would never pass: they skip it)."""
    met = threading.Barrier(3, timeout=60) if concurrent else None

    @tool("Sleep a little.")
    def nap(label: str, seconds: float) -> str:
        if met:
            met.wait()
        time.sleep(seconds)
        return label

    calls = [call("nap", label=x, seconds=0.3) for x in "ABC"]
    events = iter_loop(
        ScriptedModel([calls, "ok"]),
        [UserMessage(content="q")],
        tools=[nap],
        options=LoopOptions(concurrent=concurrent),
    )
    return timed_loop(events)


def overlaps(spans):
    ordered = sorted(spans, key=lambda s: s.start)
    return any(b.start < a.end - 0.01 for a, b in zip(ordered, ordered[1:]))


def test_sequential_calls_follow_each_other_concurrent_ones_overlap():
    result, sequential = run(False)
    assert result.answer == "ok" and [s.lane for s in sequential] == ["nap #1", "nap #2", "nap #3"]
    assert not overlaps(sequential)
    _, concurrent = run(True)
    assert overlaps(concurrent)
    assert max(s.end for s in concurrent) < max(s.end for s in sequential)


def test_text_fallback_lists_every_span():
    view = Timeline([("run", [Span("a", 0.0, 1.5, "first"), Span("b", 1.5, 2.0, "second", "error")])])
    assert view.text() == "run:\n    0.00–  1.50 s  a                first\n    1.50–  2.00 s  b                second"


def test_lanes_name_each_call_by_its_number_not_its_random_id():
    """Lanes were `nap · call_17`: a real gateway's ids are random, so the text and the SVG
    changed every run; a gateway that reuses an id across rounds merged two calls in one lane."""

    def lanes(ids):
        replies = [[ToolCall(id=i, name="nap", arguments='{"label": "x", "seconds": 0}')] for i in ids]
        still = LoopOptions(clock=lambda: 0.0)  # each call's duration 0: the real clock made "nap 0.01 s" under load
        events = iter_loop(ScriptedModel([*replies, "ok"]), [UserMessage(content="q")], tools=[nap], options=still)
        ticks = iter(range(100))
        _, spans = timed_loop(events, clock=lambda: float(next(ticks)))
        return Timeline([("run", spans)]).text()

    assert lanes(["call_Zx81", "call_Qp02"]) == lanes(["toolu_01", "toolu_02"])
    reused = lanes(["call_0", "call_0"])
    assert "nap #1" in reused and "nap #2" in reused


def test_an_empty_timeline_says_so_in_text():
    assert Timeline([]).text() == "(no spans)"
    assert Timeline([], title="t").text() == "t"


def test_the_unit_is_escaped_in_the_svg():
    """The axis labels wrote `unit` into the SVG raw (a `<` made the whole image invalid XML)."""
    from xml.etree import ElementTree

    svg = Timeline([("run", [Span("a", 0.0, 1.0, "first")])], unit="<ms & more>").svg()
    ElementTree.fromstring(svg)  # raised ParseError
    assert "1.00 &lt;ms &amp; more&gt;</text>" in svg


def test_a_span_that_is_not_a_finite_number_is_left_out_of_the_drawing_not_drawn_at_nan():
    """An inf end made the axis end inf: every tick and span was drawn at x="nan"; the text keeps it."""
    spans = [Span("a", 0.0, 2.0, "first"), Span("a", 1.0, float("inf"), "forever"), Span("b", float("nan"), 1.0, "?")]
    view = Timeline([("run", spans)])
    svg = view.svg()
    assert "nan" not in svg and "inf" not in svg
    assert [t.split(">")[1] for t in svg.split("<title")[1:]] == ["first</title"]
    assert '<text x="730.0" y="86" text-anchor="middle">2.00 s</text>' in svg  # the axis ends at the finite end
    assert "inf s  a                forever" in view.text() and "nan–" in view.text()


def test_the_text_keeps_labels_in_one_column_after_a_chinese_lane():
    view = Timeline([("run", [Span("查询订单", 0.0, 1.0, "looked up"), Span("ab", 1.0, 2.0, "then")])])
    assert view.text().splitlines() == [
        "run:",
        "    0.00–  1.00 s  查询订单         looked up",
        "    1.00–  2.00 s  ab               then",
    ]


def test_a_timeline_of_thousands_of_calls_draws_the_first_and_last_500():
    """3,000 calls (one lane each) drew 3,000 lanes, a picture 66,000 px high, and listed them all;
    now the first and last 500 spans of all rows and a note, in the text and the picture."""
    spans = [Span(f"echo #{i}", i, i + 1, f"echo {i}") for i in range(1, 3001)]
    view = Timeline([("run", spans), ("other", [Span("x", 0.0, 1.0, "left out")]), ("empty", [])])
    note = "… 2,001 spans not shown: spans 501 to 2,501"
    lines = view.text().splitlines()
    assert len(lines) == 1004 and lines[:2] == ["run:", "    1.00–  2.00 s  echo #1          echo 1"]
    assert lines[500:503] == [
        "  500.00–501.00 s  echo #500        echo 500",
        f"  {note}",
        "  2502.00–2503.00 s  echo #2502       echo 2502",
    ]
    assert lines[-3:] == ["other:", "    0.00–  1.00 s  x                left out", "empty:"]
    svg = view.svg()
    assert svg.count("<rect") == 1000 and svg.endswith(f'<text x="4" y="22058">{note}</text></svg>')
    assert "<title>echo 500</title>" in svg and "<title>echo 501</title>" not in svg


def test_spans_without_their_row_name_or_no_rows_at_all_are_one_readable_line():
    """Timeline(spans), forgetting the (name, spans) rows, raised "cannot unpack non-iterable Span
    object"; Timeline(None) "'NoneType' object is not iterable"; a row of numbers drew nothing and
    then raised "'int' object has no attribute 'start'"."""
    import pytest

    from toolkit.errors import ConfigurationError

    spans = [Span("attempt 1", 0.0, 0.1, "429", "error")]
    fix = 'e.g. Timeline([("attempts and waits", retry_spans(client.exchanges, waits))])'
    cases = [
        (spans, f"Timeline(rows): row 0 is a Span; each row is (name, spans): {fix}"),
        (None, f"Timeline(rows): takes a list of (name, spans) rows, and got None; {fix}"),
        ([("a", [1, 2])], f"Timeline(rows): row 0's span 0 is an int, not a Span; {fix}"),
        ([("a", None)], f"Timeline(rows): row 0 is a tuple, not (name, list of Span); {fix}"),
    ]
    for rows, text in cases:
        with pytest.raises(ConfigurationError) as caught:
            Timeline(rows)
        assert str(caught.value) == text


def test_a_model_s_huge_tool_name_is_cut_in_the_lane_label_and_row():
    """A model may call a name of any length: a 1,000,000-character name (fed back as unknown) made
    a 3 MB picture and text, and so did a learner's own label or row name. Each is cut at
    `NAME_CHARS`, the duration kept."""
    from toolkit.tools.execute import FEED_BACK_ALL
    from toolkit.views.html import NAME_CHARS

    name = "x" * 1_000_000
    events = iter_loop(
        ScriptedModel([[ToolCall(id="c1", name=name, arguments="{}")], "ok"]),
        [UserMessage(content="q")],
        tools=[nap],
        options=LoopOptions(policies=FEED_BACK_ALL),
    )
    _, [span] = timed_loop(events, clock=lambda: 0.0)
    short = "x" * (NAME_CHARS - 1) + "…"
    assert (span.lane, span.label) == (f"{short} #1", f"{short} 0.00 s")
    view = Timeline([("r" * 1_000_000, [Span("y" * 1_000_000, 0.0, 1.0, "z" * 1_000_000)])])
    lines = view.text().splitlines()
    assert lines[0] == "r" * (NAME_CHARS - 1) + "…:"
    assert lines[1] == "    0.00–  1.00 s  " + "y" * (NAME_CHARS - 1) + "… " + "z" * (NAME_CHARS - 1) + "…"
    svg = view.svg()
    assert len(svg) < 2_000 and f"<title>{'z' * (NAME_CHARS - 1)}…</title>" in svg


def test_a_span_or_row_name_of_the_wrong_type_is_one_readable_line():
    """`Span("a", "0", "1", "x")` raised "must be real number, not str" out of the drawing, a label
    or row name of None "'NoneType' object has no attribute 'replace'", a bool start drew at 0/1."""
    import pytest

    from toolkit.errors import ConfigurationError

    span = 'e.g. Span("attempts", 0.0, 0.1, "attempt 1: HTTP 429")'
    cases = [
        (
            [("a", [Span("l", "0", 1.0, "x")])],
            f"Timeline(rows): row 0's span 0: its start is a str, not a number; {span}",
        ),
        ([("a", [Span("l", 0, None, "x")])], f"Timeline(rows): row 0's span 0: its end is None, not a number; {span}"),
        (
            [("a", [Span("l", True, 1, "x")])],
            f"Timeline(rows): row 0's span 0: its start is a bool, not a number; {span}",
        ),
        ([("a", [Span("l", 0, 1, None)])], f"Timeline(rows): row 0's span 0: its label is None, not text; {span}"),
        ([("a", [Span(3, 0, 1, "x")])], f"Timeline(rows): row 0's span 0: its lane is an int, not text; {span}"),
        (
            [("a", []), (None, [])],
            'Timeline(rows): row 1\'s name is None, not text; e.g. Timeline([("attempts and waits", '
            "retry_spans(client.exchanges, waits))])",
        ),
    ]
    for rows, text in cases:
        with pytest.raises(ConfigurationError) as caught:
            Timeline(rows)
        assert str(caught.value) == text
    import numpy as np

    assert (
        Timeline([("a", [Span("l", np.float32(0.5), 2**70, "x")])]).text()
        == "a:\n    0.50–1180591620717411303424.00 s  l                x"
    )


def test_a_span_near_the_largest_float_is_drawn_across_the_axis():
    """`Span("l", 0, 1e308, "x")` raised "cannot convert float NaN to integer": the x position was
    worked out as width * t / end, and 560 * 1e308 is infinite."""
    svg = Timeline([("a", [Span("l", 0, 1e308, "x")])]).svg()
    assert '<rect x="170.0" y="27" width="560.0"' in svg


def test_timed_loop_takes_iter_loops_events_and_says_so():
    """`timed_loop(run_loop(...))` raised "'LoopResult' object is not an iterator" (a list, None the same)."""
    import pytest

    from toolkit.errors import ConfigurationError
    from toolkit.loop.run import run_loop

    result = run_loop(ScriptedModel(["好的"]), [UserMessage(content="q")])
    fix = "e.g. timed_loop(iter_loop(model, messages, tools=tools))"
    for given, kind in ((result, "a LoopResult"), ([], "a list"), (None, "None")):
        with pytest.raises(ConfigurationError) as refused:
            timed_loop(given)
        assert str(refused.value) == (
            f"timed_loop(events): takes the generator iter_loop(...) returns (the loop's events, then its "
            f"LoopResult), and got {kind}; {fix}"
        )


def test_a_title_or_unit_that_is_not_text_is_refused_where_the_timeline_is_made():
    """Timeline(rows, unit=5) was made, then raised "expected string or bytes-like object, got 'int'"
    when drawn (title=5: "sequence item 0: expected str instance, int found")."""
    import pytest

    from toolkit.errors import ConfigurationError

    rows = [("attempts", [Span("attempts", 0.0, 0.1, "attempt 1")])]
    for field, given in (("title", 5), ("unit", None)):
        with pytest.raises(ConfigurationError) as refused:
            Timeline(rows, **{field: given})
        kind = "an int" if given == 5 else "None"
        assert str(refused.value) == (
            f"Timeline(rows, {field}): {field} is text, and got {kind}; e.g. Timeline(rows, title='retries', unit='s')"
        )
    assert Timeline(rows, title="", unit="ms").text().startswith("attempts:")


def test_a_run_that_raises_keeps_the_spans_measured_before_it_on_the_error():
    """Before: `timed_loop` let the loop's error through and the spans measured so far were lost with
    its frame. Now the same error is raised (a learner's `except MaxRoundTripsError` still catches it),
    carrying them as `spans`; a call the error cut short is drawn up to it, as an error."""
    import pytest

    from toolkit.errors import MaxRoundTripsError

    replies = [[call("nap", label="a", seconds=0)], [call("nap", label="b", seconds=0)]]
    events = iter_loop(
        ScriptedModel(replies), [UserMessage(content="q")], tools=[nap], options=LoopOptions(max_round_trips=1)
    )
    ticks = iter(range(100))
    with pytest.raises(MaxRoundTripsError) as raised:
        timed_loop(events, clock=lambda: float(next(ticks)))
    assert [(s.lane, s.kind) for s in raised.value.spans] == [("nap #1", "ok")]
    assert raised.value.__notes__ == ["timed_loop: the spans measured before this error are its .spans (1)"]


def test_a_call_running_when_the_run_raised_is_drawn_up_to_the_error():
    import pytest

    @tool("Stops the turn.")
    def stop() -> str:
        raise KeyboardInterrupt

    events = iter_loop(ScriptedModel([[call("stop")]]), [UserMessage(content="q")], tools=[stop])
    ticks = iter(range(100))
    with pytest.raises(KeyboardInterrupt) as raised:
        timed_loop(events, clock=lambda: float(next(ticks)))
    assert raised.value.spans == [Span("stop #1", 1.0, 2.0, "stop (cut short by KeyboardInterrupt)", "error")]


def test_a_span_that_ends_before_it_starts_is_refused_where_it_is_given():
    """`Span("a", 5.0, 1.0, ...)` (start and end swapped, as `perf_counter() - t0` pairs easily are) was
    drawn at x=2970, off the picture, with a 2-pixel bar, and listed '5.00– 1.00 s' without a word."""
    import pytest

    from toolkit.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as caught:
        Timeline([("run", [Span("a", 0.0, 1.0, "ok"), Span("a", 5.0, 1.0, "swapped")])])
    assert str(caught.value) == (
        "Timeline(rows): row 0's span 1: its end (1.0) is before its start (5.0); "
        'e.g. Span("attempts", 0.0, 0.1, "attempt 1: HTTP 429")'
    )
    assert Timeline([("run", [Span("a", 1.0, 1.0, "instant")])]).text().splitlines()[1].startswith("    1.00–  1.00 s")
