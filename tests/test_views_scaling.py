"""The views' hot paths are linear, and their output is what the plain (quadratic) code gave:
lint reads each description once, the schema view groups warnings by tool once, the stepper
reads a run's executions once, the timeline groups spans by lane once, and the conversation
view looks orphans up in a set. Each is checked against the plain scan it replaced."""

import random
import re

import pytest
from html_tree import Tree

import toolkit.tools.lint as lint
from toolkit.chat.messages import AssistantMessage, TokenUsage, ToolCall, ToolResultMessage, UserMessage
from toolkit.loop.records import LoopResult, RoundTrace
from toolkit.loop.saga import ToolExecution
from toolkit.tools.reflect import ToolSpec
from toolkit.views.conversation import ORPHAN, pair_results, render_conversation_text
from toolkit.views.schema import render_schema_html, render_schema_text
from toolkit.views.stepper import steps
from toolkit.views.timeline import Span, Timeline

WORDS = ["order", "query", "search", "label", "status", "customer", "ship", "date", "查询", "订单", "物流"]


def random_specs(rng, n):
    """Tools with short, overlapping descriptions; some share a name, some parameters are nameless."""
    specs = []
    for i in range(n):
        description = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(0, 7)))
        props = {rng.choice(["arg0", "orderId", "x"]): {"type": "string"} for _ in range(rng.randrange(0, 3))}
        parameters = {"type": "object", "properties": props} if props else None
        specs.append(ToolSpec(f"tool_{i % max(1, n - 3)}", description, parameters))
    return specs


# --- lint -----------------------------------------------------------------------------------


def test_lint_reads_each_description_once(monkeypatch):
    read = []
    words = lint.words
    monkeypatch.setattr(lint, "words", lambda text: (read.append(text), words(text))[1])
    specs = random_specs(random.Random(0), 60)
    lint.lint_tools(specs)
    assert len(read) == 60  # not once per pair (60 * 59)


@pytest.mark.parametrize("seed", range(10))
def test_lint_overlaps_are_the_plain_jaccard_of_every_pair(seed):
    specs = random_specs(random.Random(seed), 25)
    expected = []
    for i, a in enumerate(specs):
        for b in specs[i + 1 :]:
            wa, wb = lint.words(a.description), lint.words(b.description)
            share = len(wa & wb) / len(wa | wb) if wa and wb else 0.0
            if share >= lint.OVERLAP:
                expected.append((f"{a.name}, {b.name}", f"share {share:.0%} of"))
    got = [w for w in lint.lint_tools(specs) if "share" in w.message]
    assert [(w.tool, re.search(r"share \d+% of", w.message)[0]) for w in got] == expected
    for a, b in zip(specs, specs[1:]):
        wa, wb = lint.words(a.description), lint.words(b.description)
        assert lint.overlap(a.description, b.description) == (len(wa & wb) / len(wa | wb) if wa and wb else 0.0)


# --- schema view ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_each_tool_card_and_line_gets_the_warnings_that_name_it(seed):
    shared = random_specs(random.Random(seed), 12)  # the view refuses two tools of one name: each its own
    specs = [ToolSpec(f"{s.name}_{i}", s.description, s.parameters) for i, s in enumerate(shared)]
    warnings = lint.lint_tools(specs)
    mine = [[w.message for w in warnings if s.name in w.tool.split(", ")] for s in specs]  # the plain scan
    lines = render_schema_text(specs).splitlines()[1:]
    assert [int(re.search(r"(\d+) lint warning", line)[1]) for line in lines] == [len(m) for m in mine]
    cards = Tree(render_schema_html(specs)).find_all("tk-tool")
    for card, messages in zip(cards, mine, strict=True):
        expected = "\n".join(f"⚠ {m}" for m in messages) if messages else "✓ no lint warnings"
        assert expected in card.text()


# --- stepper --------------------------------------------------------------------------------


def random_run(rng, rounds):
    """A run whose calls fail, and are rolled back by other tools' failures, at random."""
    names = [f"t{k}" for k in range(5)]
    traces = []
    for r in range(1, rounds + 1):
        last = r == rounds
        calls = () if last else tuple(ToolCall(id=f"c{r}_{j}", name=rng.choice(names)) for j in range(3))
        executions = [
            ToolExecution(
                r,
                c,
                ToolResultMessage(tool_call_id=c.id, content="x"),
                error_kind=rng.choice([None, None, "execution"]),
                rolled_back_by=rng.choice([None, None, *names]),
            )
            for c in calls
        ]
        reply = AssistantMessage(content="answer" if last else None, tool_calls=calls)
        traces.append(RoundTrace(r, names[:3], [], None, reply, TokenUsage(), executions, "" if last else "continue"))
    return LoopResult("answer", "answer", [], [], TokenUsage(), traces)


def plain_rolled_back(result, round_index):
    """The scan `steps` used to run for every round: each rolled-back call whose saga ran there
    (the last round in which the tool that caused it failed)."""
    rolled = []
    for e in result.executions:
        failed = [f.round for f in result.executions if f.error_kind and f.call.name == e.rolled_back_by]
        if e.rolled_back_by and failed and max(failed) == round_index:
            rolled.append(e.call.name)
    return rolled


@pytest.mark.parametrize("seed", range(10))
def test_the_saga_steps_are_the_plain_scans(seed):
    result = random_run(random.Random(seed), 12)
    walked = {s.round: s.detail for s in steps(result) if s.name == "saga"}
    expected = {
        t.index: "rolled back: " + ", ".join(names)
        for t in result.rounds
        if t.executions and (names := plain_rolled_back(result, t.index))
    }
    assert walked == expected


def test_steps_read_the_run_executions_once(monkeypatch):
    result = random_run(random.Random(0), 40)
    reads = []
    plain = LoopResult.executions
    monkeypatch.setattr(LoopResult, "executions", property(lambda self: (reads.append(1), plain.fget(self))[1]))
    steps(result)
    assert len(reads) == 1


# --- timeline -------------------------------------------------------------------------------


def test_each_lane_draws_its_spans_as_the_plain_scan_does():
    rng = random.Random(0)
    rows = [
        (name, [Span(f"lane{rng.randrange(4)}", i, i + 1, f"{name} span {i}") for i in range(12)])
        for name in ("first", "second", "first")  # two rows share a name: their lanes are drawn twice
    ]
    view = Timeline(rows, "t")
    lanes = [(name, lane) for name, row in view.rows for lane in dict.fromkeys(s.lane for s in row)]
    expected = [
        (24 + i * 22 + 3, s.label)
        for i, (name, lane) in enumerate(lanes)
        for s in (s for row_name, row in view.rows if row_name == name for s in row if s.lane == lane)
    ]
    drawn = [
        (int(y), label) for y, label in re.findall(r'<rect x="[^"]*" y="(\d+)".*?<title>(.*?)</title>', view.svg())
    ]
    assert drawn == expected


# --- conversation ---------------------------------------------------------------------------


def test_every_orphan_in_a_long_conversation_is_marked():
    messages = []
    for i in range(300):
        messages.append(UserMessage(content=f"q{i}"))
        messages.append(AssistantMessage(tool_calls=(ToolCall(id=f"c{i}", name="query_order"),)))
        messages.append(ToolResultMessage(tool_call_id=f"c{i}" if i % 3 else f"lost{i}", content="ok"))
    orphans = pair_results(messages)[1]
    lines = render_conversation_text(messages).splitlines()
    assert len(orphans) == 100 and sum(ORPHAN in line for line in lines) == 100
