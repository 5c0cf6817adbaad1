"""Skill activations without a memory belong to the turn that made them: two calls without a
memory (two users of one `Skills` in a web server) never see each other's activations, whether
their turns interleave in one thread or run in two, and a later call does not inherit them.
A conversation with a memory id still finds its activations across calls (`test_skills.py`)."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from toolkit import data
from toolkit.chat.messages import ToolCall, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop.records import ToolFinished, ToolStarted
from toolkit.loop.run import iter_loop, run_loop
from toolkit.memory.windows import ChatMemory
from toolkit.skills import offer
from toolkit.skills.course import course_skills
from toolkit.skills.offer import Skills
from toolkit.tools.decorator import InvocationContext

SKILL, PAGE = "logistics-complaint", "playbook/stuck-parcel.md"  # the skill owns open_logistics_ticket
REFUSED = (
    f"Tool 'read_skill_resource' failed: Skill {SKILL!r} is not active. Call activate_skill with name {SKILL!r} "
    "first, then read the files its instructions mention."
)


def _activate():
    return call("activate_skill", {"name": SKILL})


def _read():
    return call("read_skill_resource", skill=SKILL, path=PAGE)


def _results(result):
    """The tool results of a call, by tool name, in order."""
    return [(m.tool_name, m.is_error, m.content) for m in result.new_messages if m.role == "tool"]


def _finish(events):
    """Read an `iter_loop` generator to its end; its `LoopResult`."""
    while True:
        try:
            next(events)
        except StopIteration as done:
            return done.value


def _until(events, kind, tool):
    """Read `events` until a `kind` event for a call of `tool`."""
    for event in events:
        if isinstance(event, kind) and (event.call if kind is ToolStarted else event.execution.call).name == tool:
            return event
    raise AssertionError(f"no {kind.__name__} for {tool}")


def _question():
    return [UserMessage(content="我的快递三天没动了 SN202610200002")]


@pytest.mark.parametrize(
    "skills", [course_skills(), Skills.from_directory(data.path("skills"))], ids=["dynamic", "static"]
)
def test_interleaved_calls_without_memory_keep_their_activations_apart(skills):
    """B reads after A activated, in the middle of A's call; A reads after B's call asked the
    provider (a static one only at B's start): each sees its own activations only."""
    a_model = ScriptedModel([_activate(), _read(), "A 好的"])
    b_model = ScriptedModel([_read(), "B 好的"])
    a = iter_loop(a_model, _question(), providers=[skills.provider()])
    b = iter_loop(b_model, _question(), providers=[skills.provider()])
    _until(b, ToolStarted, "read_skill_resource")  # B's provider was asked, its read about to run
    _until(a, ToolFinished, "activate_skill")  # A activated the skill
    b_result = _finish(b)
    a_result = _finish(a)
    assert _results(b_result) == [("read_skill_resource", True, REFUSED)]
    assert all("open_logistics_ticket" not in r.tools for r in b_model.requests)
    assert [(name, error) for name, error, _ in _results(a_result)] == [
        ("activate_skill", False),
        ("read_skill_resource", False),
    ]
    assert ("open_logistics_ticket" in a_model.requests[-1].tools) == skills.provider().dynamic


def test_two_threads_without_memory_keep_their_activations_apart():
    """In this order: B's provider is asked, A activates, B reads, B's provider is asked again, A reads."""
    skills = course_skills()
    b_asked, a_activated, b_done = threading.Event(), threading.Event(), threading.Event()

    def a_activates_after_b_started(request):
        assert b_asked.wait(60)
        return _activate()

    def a_reads_after_b(request):
        a_activated.set()
        assert b_done.wait(60)
        return _read()

    def b_reads_after_a(request):
        b_asked.set()
        assert a_activated.wait(60)
        return _read()

    def b_answers(request):
        b_done.set()
        return "B 好的"

    a_model = ScriptedModel([a_activates_after_b_started, a_reads_after_b, "A 好的"])
    b_model = ScriptedModel([b_reads_after_a, b_answers])
    with ThreadPoolExecutor(2) as pool:
        a = pool.submit(run_loop, a_model, _question(), providers=[skills.provider()])
        b = pool.submit(run_loop, b_model, _question(), providers=[skills.provider()])
        a_result, b_result = a.result(20), b.result(20)
    assert _results(b_result) == [("read_skill_resource", True, REFUSED)]
    assert all("open_logistics_ticket" not in r.tools for r in b_model.requests)
    assert [error for _, error, _ in _results(a_result)] == [False, False]
    assert "open_logistics_ticket" in a_model.requests[-1].tools


@pytest.mark.parametrize("offered", ["providers", "tools"])
def test_a_later_call_without_memory_does_not_inherit_an_activation(offered):
    skills = course_skills()
    given = {"providers": [skills.provider()]} if offered == "providers" else {"tools": skills.management_tools()}
    first = run_loop(ScriptedModel([_activate(), _read(), "好的"]), _question(), **given)
    assert [error for _, error, _ in _results(first)] == [False, False]  # active for the rest of its own call
    later_model = ScriptedModel([_read(), "好的"])
    later = run_loop(later_model, _question(), **given)
    assert _results(later) == [("read_skill_resource", True, REFUSED)]
    assert all("open_logistics_ticket" not in r.tools for r in later_model.requests)
    assert not skills.is_active(SKILL)


def test_a_conversation_still_finds_its_activation_in_a_later_call():
    skills = course_skills()
    memory = ChatMemory("u1")
    run_loop(ScriptedModel([_activate(), "好的"]), _question(), providers=[skills.provider()], memory=memory)
    later = run_loop(ScriptedModel([_read(), "好的"]), _question(), providers=[skills.provider()], memory=memory)
    assert [error for _, error, _ in _results(later)] == [False]
    assert skills.is_active(SKILL, "u1")


def _activate_by_hand(skills, context):
    activate, _ = skills.management_tools()
    assert not activate.execute(
        ToolCall(id="a", name="activate_skill", arguments=_activate().arguments), context
    ).is_error


def _turn_of(result):
    """The turn number the loop gave a call (its tools' `InvocationContext.turn`)."""
    return result.rounds[0].executions[0].context.turn


def test_turns_without_memory_are_kept_for_a_bounded_number(monkeypatch):
    monkeypatch.setattr(offer, "MAX_CONVERSATIONS", 3)
    skills = course_skills()
    turns = [
        _turn_of(run_loop(ScriptedModel([_activate(), "好的"]), _question(), providers=[skills.provider()]))
        for _ in range(4)
    ]
    assert len(set(turns)) == 4
    assert not skills.is_active(SKILL, turn=turns[0])  # the oldest was forgotten
    assert all(skills.is_active(SKILL, turn=t) for t in turns[1:])


def test_turns_that_activate_nothing_keep_nothing(monkeypatch):
    """Memory-less calls that never activate a skill (most of them) push out no conversation."""
    monkeypatch.setattr(offer, "MAX_CONVERSATIONS", 3)
    skills = course_skills()
    _activate_by_hand(skills, InvocationContext("u1"))
    for _ in range(5):
        run_loop(ScriptedModel(["你好"]), _question(), providers=[skills.provider()])
    assert skills.is_active(SKILL, "u1")


def test_a_memory_id_is_the_key_whatever_the_turn():
    skills = course_skills()
    _activate_by_hand(skills, InvocationContext("u1", turn=7))
    assert skills.is_active(SKILL, "u1") and skills.is_active(SKILL, "u1", turn=8)
    assert not skills.is_active(SKILL, turn=7)  # the turn of a conversation keys nothing of its own
