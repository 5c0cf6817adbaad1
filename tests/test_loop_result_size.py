"""`toolkit.loop.result_size`: a local tool's result is cut to `LoopOptions.max_result_chars`
before the model reads it (a tool returning 100 MB made a request no gateway takes); the model
reads a note saying so, the learner a warning, and the trace keeps the whole text."""

import dataclasses
import logging

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call, reset_call_ids
from toolkit.errors import ConfigurationError
from toolkit.loop.result_size import MAX_RESULT_CHARS, READ_PAST, cut_result
from toolkit.loop.run import COURSE, LoopOptions, run_loop
from toolkit.loop.texts import EN, ZH
from toolkit.memory.windows import ChatMemory
from toolkit.tools import redact
from toolkit.tools.decorator import ReturnBehavior, tool
from toolkit.tools.execute import Policies, ToolOutput

NOTE = (
    "\n[cut here: the result has {total:,} characters, and only the first {kept:,} are shown; if you need the rest, "
    "call the tool again for less at a time]"
)
WARNING = (
    "memory id 'u1': the result of call call_1 (dump) has {total:,} characters; the model reads the first "
    "{kept:,} and a note saying it was cut (LoopOptions.max_result_chars={limit}; None sends every result whole)"
)


@pytest.fixture(autouse=True)
def _call_ids():
    reset_call_ids()


def _dump_tool(value):
    @tool
    def dump() -> object:
        """Dump everything."""
        return value

    return dump


def _run(value, options=LoopOptions(), memory=None):
    model = ScriptedModel([call("dump"), "Done."])
    outcome = run_loop(
        model, [UserMessage(content="dump it")], tools=[_dump_tool(value)], memory=memory, options=options
    )
    return model.requests[1].messages[-1].content, outcome


def test_a_huge_str_is_cut_for_the_model_and_the_trace_keeps_it_whole(caplog):
    """A tool's 1 MB went whole to the model (and to memory, and to every later request)."""
    memory = ChatMemory("u1")
    with caplog.at_level(logging.WARNING, logger="toolkit.loop"):
        sent, outcome = _run("x" * 1_000_000, memory=memory)
    assert MAX_RESULT_CHARS == 100_000
    assert sent == "x" * 100_000 + NOTE.format(total=1_000_000, kept=100_000)
    assert memory.messages()[2].content == sent  # what later turns send is the cut text too
    assert outcome.rounds[0].executions[0].result.content == "x" * 1_000_000  # nothing of the tool's is lost
    assert [r.getMessage() for r in caplog.records] == [WARNING.format(total=1_000_000, kept=100_000, limit="100000")]


@pytest.mark.parametrize(
    "value, text",
    [
        (b"y" * 300, "y" * 300),
        (list(range(200)), "[" + ", ".join(map(str, range(200))) + "]"),
        ({"k": "z" * 300}, '{"k": "' + "z" * 300 + '"}'),
    ],
    ids=["bytes", "list", "dict"],
)
def test_a_value_written_as_json_is_cut_as_its_text(value, text):
    sent, _ = _run(value, LoopOptions(max_result_chars=100))
    assert sent == text[:100] + NOTE.format(total=len(text), kept=100)


def test_none_sends_every_result_whole_and_a_short_one_is_untouched(caplog):
    with caplog.at_level(logging.WARNING, logger="toolkit.loop"):
        assert _run("x" * 150_000, LoopOptions(max_result_chars=None))[0] == "x" * 150_000
        assert _run("x" * 100, LoopOptions(max_result_chars=100))[0] == "x" * 100
    assert caplog.records == []


def test_the_course_writes_the_note_in_chinese():
    sent, _ = _run("订" * 1200, dataclasses.replace(COURSE, max_result_chars=1000))
    assert (
        sent
        == "订" * 1000
        + "\n[结果在此截断：共 1,200 个字符，只显示前 1,000 个；如需其余部分，请分几次调用工具，每次少取一些]"
    )


def test_a_cut_never_splits_what_a_reader_sees_as_one_character():
    flag = "\U0001f1e8\U0001f1f3"  # two regional indicators: one flag
    assert cut_result("a" + flag * 3, 4, EN.result_cut) == "a" + flag + NOTE.format(total=7, kept=3)


def test_a_text_already_cut_within_the_limit_is_not_cut_again():
    """An MCP tool's result is cut by its provider (`McpToolProvider(max_result_chars=...)`): cut
    again by the loop, its note was lost and the loop's named the wrong length."""
    once = cut_result("x" * 500, 100, EN.result_cut)
    assert cut_result(once, 100, EN.result_cut) == once
    assert cut_result(once, 50, EN.result_cut) == "x" * 50 + NOTE.format(total=len(once), kept=50)
    assert cut_result(once, 100, ZH.result_cut) == once  # MCP writes its note in English


def test_an_immediate_return_gives_the_caller_the_whole_text():
    @tool(return_behavior=ReturnBehavior.IMMEDIATE)
    def export() -> str:
        """Export everything to the caller."""
        return "x" * 300

    model = ScriptedModel([call("export")])
    outcome = run_loop(model, "export", tools=[export], options=LoopOptions(max_result_chars=100))
    assert [r.content for r in outcome.immediate_results] == ["x" * 300]
    assert outcome.messages[-1].content == "x" * 100 + NOTE.format(total=300, kept=100)  # what the model reads next


@pytest.mark.parametrize("limit", [0, -5, 1.5, "100", True])
def test_max_result_chars_must_be_a_whole_number_above_zero_or_none(limit):
    with pytest.raises(ConfigurationError) as caught:
        LoopOptions(max_result_chars=limit)
    assert str(caught.value) == (
        f"LoopOptions(max_result_chars={limit!r}): it must be a whole number (int) of at least 1: None or the "
        "characters of a tool's result the model reads at most; pass e.g. max_result_chars=100_000"
    )


def test_a_text_set_of_one_s_own_must_format_the_note():
    with pytest.raises(ConfigurationError) as caught:
        dataclasses.replace(EN, result_cut="[cut: {count}]")
    assert str(caught.value) == (
        "LoopTexts(result_cut='[cut: {count}]'): it is formatted with {total}, {kept}, and this one cannot be (it has "
        "no field 'count'); use only those names in braces, and double a brace meant as text: {{ and }}"
    )


TOKEN = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f"  # masked whole; its first dozen characters are not


def _failing_dump(text):
    @tool
    def dump() -> object:
        """Dump everything."""
        return ToolOutput(text, is_error=True)

    return dump


def _run_error(text, monkeypatch, options=LoopOptions()):
    """What the model reads of a handled error `text`, and the lengths of the texts scrubbed."""
    scrubbed: list[int] = []
    real = redact.scrub_secrets

    def counting(given):
        scrubbed.append(len(given))
        return real(given)

    monkeypatch.setattr(redact, "scrub_secrets", counting)
    model = ScriptedModel([call("dump"), "Done."])
    outcome = run_loop(model, [UserMessage(content="dump it")], tools=[_failing_dump(text)], options=options)
    return model.requests[1].messages[-1].content, outcome, scrubbed


def test_a_huge_handled_error_is_cut_before_its_secrets_are_masked_not_after(monkeypatch):
    """A tool's 10 MB error text (`ToolOutput(..., is_error=True)`) had its secrets masked whole, regexes over
    10 MB (a minute for some texts), and only then was cut to 100,000 characters."""
    text = "x" * (MAX_RESULT_CHARS - 20) + " " + TOKEN + " " + "y" * 10_000_000
    sent, outcome, scrubbed = _run_error(text, monkeypatch)
    assert max(scrubbed) <= MAX_RESULT_CHARS + READ_PAST  # a head is read, not the 10 MB
    assert sent == ("x" * (MAX_RESULT_CHARS - 20) + " [REDACTED] " + "y" * 8) + NOTE.format(
        total=len(text), kept=MAX_RESULT_CHARS
    )
    assert TOKEN[:12] not in sent  # the token straddling the cut was masked whole, not cut in half
    assert outcome.rounds[0].executions[0].result.content == sent  # the trace keeps the masked head


def test_a_head_that_masking_shrinks_is_read_further_so_no_secret_is_halved(monkeypatch):
    """Tokens masked to `[REDACTED]` shrink the head below the limit: the head read grows until what is
    kept ends well before where the read stopped, so no token cut where the read stopped shows half of itself."""
    text = (TOKEN + " ") * 20_000  # 980,000 characters, masked to 220,000
    sent, _, scrubbed = _run_error(text, monkeypatch)
    assert scrubbed == [140_000, 280_000, 560_000]  # masked, the first two heads are shorter than 120,000
    assert sent == ("[REDACTED] " * 10_000)[:MAX_RESULT_CHARS] + NOTE.format(total=len(text), kept=MAX_RESULT_CHARS)
    assert "sk-" not in sent


def test_a_handled_error_within_the_limit_is_masked_whole(monkeypatch):
    sent, _, scrubbed = _run_error("failed: " + TOKEN, monkeypatch)
    assert (sent, scrubbed) == ("failed: [REDACTED]", [len("failed: " + TOKEN)])


def _boom():
    @tool
    def boom(n: int) -> str:
        """Fail."""
        raise RuntimeError("down")

    return boom


BIG_ERROR = "abc def " * 125_000  # 1 MB that cleaning leaves as it is


@pytest.mark.parametrize(
    ("policies", "arguments", "text", "cleaner"),
    [
        (Policies(execution_error=lambda error, call: "failed: " + BIG_ERROR), {"n": 1}, "failed: ", "cleaned"),
        (Policies(argument_error=lambda error, call: "bad: " + BIG_ERROR), {"n": "x"}, "bad: ", "scrub_secrets"),
    ],
)
def test_a_policy_s_huge_text_is_cut_before_it_is_cleaned(monkeypatch, policies, arguments, text, cleaner):
    """A learner's own error policy returning 10 MB had it cleaned whole (50 s for look-alike text) before the cut."""
    read: list[int] = []
    real = getattr(redact, cleaner)
    monkeypatch.setattr(redact, cleaner, lambda given: read.append(len(given)) or real(given))
    model = ScriptedModel([call("boom", arguments), "Done."])
    run_loop(model, [UserMessage(content="go")], tools=[_boom()], options=LoopOptions(policies=policies))
    text += BIG_ERROR
    assert max(read) <= MAX_RESULT_CHARS + READ_PAST
    assert model.requests[1].messages[-1].content == text[:MAX_RESULT_CHARS] + NOTE.format(
        total=len(text), kept=MAX_RESULT_CHARS
    )


ZH_NOTE = "\n[结果在此截断：共 {total:,} 个字符，只显示前 {kept:,} 个；如需其余部分，请分几次调用工具，每次少取一些]"


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (LoopOptions(max_result_chars=None), "e" * 150_000),
        (LoopOptions(max_result_chars=None, tool_timeout=60), "e" * 150_000),  # run on a thread of its own
        (LoopOptions(max_result_chars=500), "e" * 500 + NOTE.format(total=150_000, kept=500)),
        (dataclasses.replace(COURSE, max_result_chars=500), "e" * 500 + ZH_NOTE.format(total=150_000, kept=500)),
    ],
    ids=["none", "none-timed", "500", "course"],
)
def test_a_handled_error_is_cut_at_the_turn_s_limit_as_any_result_is(monkeypatch, options, expected):
    """A tool's handled error was cut at 100,000 characters inside `Tool.run` whatever the turn's
    `max_result_chars`: with None the model read 100,000 of 150,000 characters and an English note; with
    500 the loop cut that cut text again, its note naming 100,152 characters, not the 150,000 there were,
    and the course's note came after an English one."""
    sent, outcome, _ = _run_error("e" * 150_000, monkeypatch, options)
    assert sent == expected
    assert outcome.rounds[0].executions[0].result.content == expected  # the masked text, as the trace keeps it


@pytest.mark.parametrize("limit", [None, 300])
def test_a_policy_s_text_is_cut_at_the_turn_s_limit(limit):
    """An error policy's text was cut at 100,000 inside `Tool.run`, not at the turn's limit (None: whole)."""
    text = "failed: " + BIG_ERROR[:149_999]  # (cleaning takes a last blank off)
    policies = Policies(execution_error=lambda error, call: text)
    model = ScriptedModel([call("boom", {"n": 1}), "Done."])
    options = LoopOptions(policies=policies, max_result_chars=limit)
    run_loop(model, [UserMessage(content="go")], tools=[_boom()], options=options)
    expected = text if limit is None else text[:limit] + NOTE.format(total=len(text), kept=limit)
    assert model.requests[1].messages[-1].content == expected


def test_a_text_cut_with_the_turn_s_own_note_is_not_cut_again():
    """`Tool.run` cuts a long error text with the turn's note (`LoopTexts.result_cut`), braces and all:
    the loop must know it as cut, as it knows MCP's English note."""
    note = "\n{{cut: {total} -> {kept}}}"
    once = cut_result("x" * 500, 100, note)
    assert once == "x" * 100 + "\n{cut: 500 -> 100}"
    assert cut_result(once, 100, note) == once
    assert cut_result(once, 50, note) == "x" * 50 + "\n{cut: " + str(len(once)) + " -> 50}"
