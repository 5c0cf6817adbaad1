"""check / hint / solution: ✓, ✗ with feedback specific to the mistake, "not attempted" for starters."""

import pytest

from toolkit.errors import ConfigurationError
from toolkit.exercises import check, hint, solution
from toolkit.exercises.core import MIME, Exercise, has_placeholder, register, right


def test_placeholder_anywhere_is_not_attempted_without_a_hint():
    result = check("w6.round_trips", ...)
    assert result.status == "not attempted" and not result.passed and result.hint == ""
    assert "not attempted yet" in result.text()
    assert check("w3.csv_rows", {"normal": 15, "edge": ..., "no_call": 5}).status == "not attempted"
    assert has_placeholder([1, {"a": (2, ...)}]) and not has_placeholder([1, {"a": (2, None)}])


def test_a_function_returning_the_placeholder_is_not_attempted():
    assert check("w6.truth_table", lambda behaviors, any_error: ...).status == "not attempted"


def test_failed_try_gives_specific_feedback_and_the_hint():
    result = check("w6.round_trips", 4)
    assert result.status == "failed"
    assert "you counted tool calls; the bound counts model responses that ask for tools" in result.feedback
    assert result.hint == hint("w6.round_trips") and "hint:" in result.text()


def test_truth_table_feedback_names_the_broken_rule():
    def ignores_errors(b, err):  # the rule without its first line: an error changes nothing
        return b[-1].name == "IMMEDIATE_IF_LAST" or all(x.name != "TO_LLM" for x in b)

    ignores_errors = check("w6.truth_table", ignores_errors)
    assert "a failed call's error must reach the model" in ignores_errors.feedback
    first_not_last = check("w6.truth_table", lambda b, err: not err and b[0].name == "IMMEDIATE_IF_LAST")
    assert not first_not_last.passed


def test_a_constant_answer_never_passes_a_build_exercise():
    for value in (True, False, 0, 1.0):
        assert not check("w6.truth_table", lambda b, e, v=value: v).passed
        assert not check("w2.backoff", lambda n, r, v=value: v).passed
        assert not check("w8.score", lambda n, d, t, v=value: v).passed


def test_backoff_feedback_names_the_cap():
    def uncapped(n, r):
        backoff = 0.5 * 2 ** (n - 1)
        return backoff if r is None else min(30.0, max(backoff, r))

    result = check("w2.backoff", uncapped)
    assert not result.passed and "the backoff is capped at 8.0 s" in result.feedback


def test_keyword_score_feedback_on_counting_occurrences():
    def counts(name, description, terms):
        return sum(2 * name.lower().count(t) + description.lower().count(t) for t in terms)

    result = check("w8.score", counts)
    assert not result.passed and "once per field, not once per occurrence" in result.feedback


def test_keyword_score_feedback_on_a_name_hit_that_skips_the_description():
    """`if … in name: +2 elif … in description: +1` got no tip: only the case and the score."""

    def name_or_description(name, description, terms):
        total = 0
        for term in terms:
            if term in name.lower():
                total += 2
            elif term in description.lower():
                total += 1
        return total

    assert check("w8.score", name_or_description).feedback == (
        "score('respond_to_invitation', …, ['rain', 'tax', 'zzz', 'cancel', 'invitation']) gave 2, "
        "LangChain4j's rule gives 3 — a term in both the name and the description scores in both: 2 + 1"
    )


def test_learner_exception_is_a_failed_try_not_a_traceback():
    result = check("w6.truth_table", lambda b, e: 1 / 0)
    assert result.status == "failed" and result.feedback == "your code raised ZeroDivisionError: division by zero"


def test_wrong_shape_answers_never_crash():
    for answer in ("2", None, [1, 2], {"x": 1}, object()):
        assert check("w3.model_calls", answer).status == "failed"
        assert check("w5.required", answer).status == "failed"


def test_solution_only_on_request():
    result = check("w6.round_trips", 4)
    assert "return" not in result.text() or "answer = 2" not in result.text()
    shown = solution("w6.round_trips")
    assert "answer = 2" in repr(shown) and shown._repr_mimebundle_()["text/plain"].startswith("# one solution")


def test_result_bundle_has_html_text_and_the_grading_record():
    bundle = check("w6.round_trips", 2)._repr_mimebundle_()
    assert bundle[MIME] == {
        "exercise": "w6.round_trips",
        "status": "passed",
        "passed": True,
        "feedback": bundle[MIME]["feedback"],
    }
    assert bundle["text/plain"].startswith("✓ w6.round_trips: correct")
    assert "<div" in bundle["text/html"] and "object at 0x" not in bundle["text/plain"]


def test_unknown_id_names_the_weeks_exercises():
    with pytest.raises(ConfigurationError, match=r"no exercise 'w6.nope'; this week's are: w6\.round_trips"):
        check("w6.nope", 1)


def test_register_refuses_duplicates_and_unknown_kinds():
    with pytest.raises(ConfigurationError) as info:
        register(Exercise("w6.round_trips", 6, "predict", "t", "", "", "", lambda a: right()))
    assert str(info.value) == "register(): exercise id 'w6.round_trips' is taken; give each exercise its own id."
    with pytest.raises(ConfigurationError) as info:
        register(Exercise("w6.new_one", 6, "quiz", "t", "", "", "", lambda a: right()))
    assert (
        str(info.value) == "register(): exercise 'w6.new_one' has kind 'quiz'; use one of predict, write, fix, build."
    )


# --- hostile answers: a failed try with one readable line, never a traceback -----------------


def test_an_answer_that_contains_itself_is_a_failed_try():
    looped: list = []
    looped.append(looped)
    result = check("w0.switch", looped)
    assert result.status == "failed"
    assert result.feedback == "your answer contains itself (or is nested thousands deep); answer with plain values"


def test_an_answer_whose_mapping_methods_raise_is_read_as_the_dict_it_holds():
    """Was "running your answer failed with ValueError: nope": a dict of the learner's class is read by dict's own
    code now (`values.plain`), so its `items` never runs, and the feedback is about what the dict holds."""

    class Broken(dict):
        def items(self):
            raise ValueError("nope")

    result = check("w0.switch", Broken(a=1))
    assert (result.status, result.feedback) == (
        "failed",
        "answer with a dict with exactly these keys: 'no variables', 'all three', 'only LLM_BASE_URL'; 'a' is not an "
        "expected key",
    )


def test_an_exception_whose_message_fails_is_still_named():
    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no")

    def learner(*args, **kwargs):
        raise Unprintable()

    result = check("w6.truth_table", learner)
    assert result.feedback == "your code raised Unprintable: (its message could not be shown)"


def test_exit_inside_the_learners_function_is_a_failed_try_not_the_end_of_the_kernel():
    import sys

    def learner(*args, **kwargs):
        sys.exit(3)

    result = check("w6.truth_table", learner)
    assert (result.status, result.feedback) == ("failed", "your code raised SystemExit: 3")


def test_feedback_quoting_a_huge_answer_is_cut():
    from toolkit.exercises.values import SHOW_LIMIT

    answer = {"no variables": "x" * 5000, "all three": "real", "only LLM_BASE_URL": "error"}
    result = check("w0.switch", answer)
    assert result.status == "failed"
    assert (
        result.feedback == "answer 'fake', 'real' or 'error' for 'no variables', not '" + "x" * (SHOW_LIMIT - 2) + "…"
    )


def test_huge_feedback_is_cut_at_the_limit():
    from toolkit.exercises.core import FEEDBACK_LIMIT

    def learner(*args, **kwargs):
        raise ValueError("x" * 5000)

    result = check("w6.truth_table", learner)
    assert result.status == "failed"
    assert (
        result.feedback
        == "your code raised ValueError: " + "x" * (FEEDBACK_LIMIT - 1 - len("your code raised ValueError: ")) + "…"
    )


def test_a_long_value_quoted_mid_sentence_leaves_the_rest_of_the_sentence_readable():
    result = check("w9.chain", lambda provider: list(provider.provide()))
    assert result.status == "failed"
    assert result.feedback.startswith("expose() returned [Tool(spec=ToolSpec(name='query_order', ")
    assert result.feedback.endswith("…, not a tool provider; return the provider that filter_tools / rename_tools give")


class Liar:
    """Equal to everything: a check that compares with == must not be fooled by it."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__


class LiarStr(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


def test_an_answer_equal_to_everything_is_a_failed_try():
    result = check("w9.dotted_name", Liar())
    assert (result.status, result.feedback) == (
        "failed",
        "your answer holds a Liar, a class of your own that can decide == by its own code; answer with plain "
        "values or the package's objects",
    )
    assert check("w9.dotted_name", LiarStr("x")).status == "failed"


def test_a_dict_answer_whose_values_are_equal_to_everything_is_a_failed_try():
    answer = {"no variables": Liar(), "all three": "real", "only LLM_BASE_URL": "error"}
    result = check("w0.switch", answer)
    assert result.status == "failed" and result.feedback.startswith("your answer holds a Liar")


def test_a_function_returning_an_object_equal_to_everything_is_a_failed_try():
    result = check("w3.normalize", lambda raw: Liar())
    assert (result.status, result.feedback) == (
        "failed",
        "your function returned a Liar, a class of your own that can decide == by its own code; return plain "
        "values or the package's objects",
    )


def test_a_learners_class_without_its_own_equality_is_still_an_answer():
    from toolkit.exercises.values import untrusted_class

    class Provider:
        def provide(self):
            return []

    assert untrusted_class([Provider(), {"a": (1, 2.0, None)}]) is None
    assert untrusted_class({"k": [Liar()]}) is Liar


def test_a_function_that_empties_its_inputs_cannot_change_the_expected_answer():
    from toolkit.chat.messages import TokenUsage

    def usage_from_body(body):
        body.clear()  # with the body gone, the reference would expect "nothing reported"
        return TokenUsage(input_tokens=None, output_tokens=None)

    def score(name, description, terms):
        terms.clear()  # with no terms, the reference would score 0
        return 0

    assert check("w1.usage_build", usage_from_body).status == "failed"
    assert check("w8.score", score).status == "failed"


def test_a_usage_returned_as_a_dict_is_told_to_be_a_token_usage():
    def usage_from_body(body):
        usage = body.get("usage") or {}
        return {"input_tokens": usage.get("prompt_tokens"), "output_tokens": usage.get("completion_tokens")}

    result = check("w1.usage_build", usage_from_body)
    assert (result.status, result.feedback) == (
        "failed",
        "for {} you returned {'input_tokens': None, 'output_tokens': None}, not a TokenUsage: return "
        "TokenUsage(input_tokens=..., output_tokens=...)",
    )


def test_a_function_returning_nan_does_not_pass_a_numeric_check():
    result = check("w2.backoff", lambda attempt, retry_after: float("nan"))
    assert result.status == "failed"
    assert result.feedback == "wait(1, None) returned nan, RetryPolicy().wait gives 0.5"


@pytest.mark.parametrize("exercise_id", [123, None, ["w6.truth_table"]])
def test_an_exercise_id_that_is_not_a_string_is_one_readable_error(exercise_id):
    with pytest.raises(ConfigurationError) as info:
        check(exercise_id, 1)
    assert str(info.value) == (
        f"no exercise {exercise_id!r}: an exercise id is a string such as 'w6.truth_table' (see the cell's check call)"
    )


def test_a_learner_who_empties_the_imported_reference_data_cannot_pass_with_an_empty_answer():
    from toolkit.exercises import week01, week03, week10

    wire, paths = list(week01.WIRE), list(week10.PATHS)
    try:
        week01.WIRE.clear()  # the notebook imports WIRE and PATHS; a learner can change them
        week10.PATHS.clear()
        assert check("w1.records", []).feedback == "WIRE has 4 messages, your list has 0"
        assert check("w10.escape", set()).status == "failed"
    finally:
        week01.WIRE[:], week10.PATHS[:] = wire, paths
    for constant in (week01.QUESTIONS, week03.ORDER_ID_INPUTS, week03.NO_CALL_CHOICES):
        assert isinstance(constant, tuple)


def test_keyword_score_feedback_on_whole_words_names_that_mistake_not_another():
    import re

    def whole_words(name, description, terms):
        words, said = re.findall(r"[a-z0-9]+", name.lower()), re.findall(r"[a-z0-9]+", description.lower())
        return sum(2 * (t in words) + (t in said) for t in terms)

    def split_words(name, description, terms):  # the first miss gives what "a name hit worth 1" gives too
        return sum(2 * (t in name.lower().split("_")) + (t in description.lower().split()) for t in terms)

    result = check("w8.score", whole_words)
    assert result.status == "failed"
    assert result.feedback.endswith(
        "a term counts wherever it occurs in a field, inside a word too ('rain' is in 'book_train')"
    )
    result = check("w8.score", split_words)
    assert (result.status, result.feedback) == (
        "failed",
        "score('respond_to_invitation', …, ['rain', 'tax', 'zzz', 'cancel', 'invitation']) gave 2, "
        "LangChain4j's rule gives 3",
    )


def test_records_feedback_names_the_record_classes_with_their_article():
    """It read "that is a AssistantMessage, you wrote a UserMessage"."""
    from toolkit import AssistantMessage, SystemMessage, UserMessage
    from toolkit.exercises.week01 import WIRE

    texts = [m["content"] for m in WIRE]
    swapped = [SystemMessage(content=texts[0]), UserMessage(content=texts[1]), UserMessage(content=texts[2])]
    assert check("w1.records", [*swapped, UserMessage(content=texts[3])]).feedback == (
        "message 3 has role 'assistant': that is an AssistantMessage, you wrote a UserMessage"
    )
    flipped = [UserMessage(content=texts[0])]
    assert check("w1.records", [*flipped, *swapped[1:], UserMessage(content=texts[3])]).feedback == (
        "message 1 has role 'system': that is a SystemMessage, you wrote a UserMessage"
    )
    answer = [SystemMessage(content=texts[0]), AssistantMessage(content=texts[1])]
    assert check(
        "w1.records", [*answer, AssistantMessage(content=texts[2]), UserMessage(content=texts[3])]
    ).feedback == ("message 2 has role 'user': that is a UserMessage, you wrote an AssistantMessage")


LEARNER_KEY = "sk-proj-" + "Q3learnerKEY" * 3


def test_feedback_never_quotes_a_secret_the_learner_answered_with_or_raised():
    def window(messages, limit):
        raise ValueError(f"DB_PASS=hunter2xyz and {LEARNER_KEY}")

    assert check("w8.vector_k", LEARNER_KEY).feedback == "answer with a number, not '[REDACTED]'"
    switch = {"no variables": LEARNER_KEY, "all three": "real", "only LLM_BASE_URL": "error"}
    assert (
        check("w0.switch", switch).feedback == "answer 'fake', 'real' or 'error' for 'no variables', not '[REDACTED]'"
    )
    raised = check("w6.window", window)
    assert raised.feedback == "your code raised ValueError: DB_PASS=[REDACTED] and [REDACTED]"
    bundle = str(raised._repr_mimebundle_())
    assert "Q3learnerKEY" not in bundle and "hunter2" not in bundle


def test_feedback_keeps_ordinary_values_as_they_are():
    assert check("w8.vector_k", "3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f").feedback == (
        "answer with a number, not '3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f'"
    )
    assert check("w8.vector_k", "订单 A1024 的物流").feedback == "answer with a number, not '订单 A1024 的物流'"


def test_feedback_keeps_the_paths_it_quotes_and_masks_only_the_secrets():
    """Exercise feedback went through the full `scrub`, which also turns every absolute path into
    `<path>`: a learner answering paths (week 10's skill escape) or whose code raised about a file
    was told about `<path>`. Only the secret goes."""
    assert check("w8.vector_k", "/etc/passwd").feedback == "answer with a number, not '/etc/passwd'"
    assert check("w8.vector_k", "C:\\Users\\ana\\notes.md").feedback == (
        "answer with a number, not 'C:\\\\Users\\\\ana\\\\notes.md'"
    )
    key = "sk-proj-" + "Q3learnerKEY" * 3
    assert check("w8.vector_k", f"/home/ana/{key}").feedback == "answer with a number, not '/home/ana/[REDACTED]'"


def test_a_not_attempted_check_after_a_tried_answer_keeps_that_answer_as_the_exercises_last_result():
    from toolkit.exercises.core import LAST

    LAST.pop("w6.round_trips", None)
    assert check("w6.round_trips", ...).status == "not attempted"
    assert LAST["w6.round_trips"].status == "not attempted"
    check("w6.round_trips", 2)
    assert check("w6.round_trips", ...).status == "not attempted"  # a copy of the starter cell, left below
    assert LAST["w6.round_trips"].status == "passed"
    check("w6.round_trips", 3)
    assert LAST["w6.round_trips"].status == "failed"  # a tried answer is the latest, right or wrong


@pytest.mark.parametrize(
    ("error", "said"),
    [(RuntimeError("can't start new thread"), "RuntimeError: can't start new thread"), (MemoryError(), "MemoryError")],
)
def test_a_check_that_finds_no_memory_left_says_the_kernel_is_full_not_that_the_answer_failed(monkeypatch, error, said):
    """Before: 'running your answer failed with RuntimeError: can't start new thread' — under `toolkit grade`'s
    memory limit, a cell that kept a large value left no memory for the check's own time-limit thread, and each
    exercise after it was told its answer failed."""
    import threading

    from toolkit import ReturnBehavior

    def refused(self):
        raise error

    monkeypatch.setattr(threading.Thread, "start", refused)
    result = check("w6.truth_table", lambda behaviors, any_error: behaviors[-1] is ReturnBehavior.IMMEDIATE)
    assert (result.status, result.feedback) == (
        "failed",
        f"the check could not run ({said}): the kernel is out of memory — does a cell before this one keep a large "
        "value? Restart the kernel and run the cells again",
    )


@pytest.mark.parametrize(
    ("exercise", "printing", "said"),
    [
        ("w1.usage_build", lambda body: print(body), "for {} you returned None, not a TokenUsage"),
        ("w2.backoff", lambda attempt, retry_after: print(0.5), "wait(1, None) returned None"),
        ("w6.window", lambda messages, n: print(messages[-n:]), "keep() returned None"),
        ("w8.score", lambda name, description, terms: print(3), "returned None — does your function print"),
    ],
)
def test_a_function_that_prints_its_answer_prints_once_not_once_a_case(capsys, exercise, printing, said):
    """Before: a learner's function that printed its answer instead of returning it ran on every case before the
    verdict (answers_first): 61 to 380 lines of its prints above the ✗ in the notebook. A None where the check asks
    for a number, a TokenUsage or a list now ends the run at once (`settled`), with the same verdict."""
    result = check(exercise, printing)
    assert result.status == "failed" and said in result.feedback, result.feedback
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_a_failed_try_after_a_pass_says_the_last_check_is_the_one_graded():
    """The same exercise answered twice in one notebook (solved, then a variant tried below): the notebook showed ✓
    then ✗, and `toolkit grade` counts the last check() — 0 for work the learner saw pass. The ✗ now says that it
    replaces the ✓; the record the grade reads is unchanged, and a pass after a failure (or a first failure) says
    nothing more."""
    from toolkit.exercises.core import LAST, REPLACES_PASS

    LAST.pop("w6.round_trips", None)
    first = check("w6.round_trips", 3)
    assert REPLACES_PASS.format(id="w6.round_trips") not in first.text()
    assert check("w6.round_trips", 2).passed
    again = check("w6.round_trips", 3)
    assert again.text().endswith("\n  " + REPLACES_PASS.format(id="w6.round_trips"))
    assert REPLACES_PASS.format(id="w6.round_trips") in again.html()
    assert again.record() == first.record()
    assert REPLACES_PASS.format(id="w6.round_trips") not in check("w6.round_trips", 4).text()  # the ✓ is gone already


# --- a check called from another thread: refused at once, nothing of the answer run -----------------------------------


def off_main_thread(run):
    """What `run()` returned or raised, run in a thread of its own (joined: it never waits for anything)."""
    import threading

    got = []

    def target():
        try:
            got.append(run())
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            got.append(exc)

    thread = threading.Thread(target=target, name="learner-thread")
    thread.start()
    thread.join()
    return got[0]


def test_a_check_called_from_another_thread_is_refused_before_the_learners_code_runs():
    """Before: it ran without a time limit (SIGALRM rings only in the main thread): a function that never ended hung
    the thread that awaited it, and the notebook or the grader with it."""
    from toolkit.exercises.core import LAST

    ran, before = [], LAST.get("w6.truth_table")

    def forever(behaviors, any_error):
        ran.append(behaviors)
        while True:
            pass

    refused = off_main_thread(lambda: check("w6.truth_table", forever))
    assert isinstance(refused, ConfigurationError) and ran == []
    assert str(refused) == (
        "check('w6.truth_table', ...) was called from the thread 'learner-thread', and runs only in the kernel's main "
        "thread: its time limit (a SIGALRM timer) rings only there, so code of yours that never ended could not be "
        "stopped here; call check('w6.truth_table', answer) in a cell, not in a thread (asyncio.to_thread, a thread "
        "of your own)"
    )
    assert LAST.get("w6.truth_table") is before  # no try recorded


def test_a_check_awaited_through_asyncio_to_thread_is_refused_and_one_in_the_cell_runs():
    import asyncio

    from toolkit import ReturnBehavior

    def answer(behaviors, any_error):
        return not any_error and behaviors[-1] is ReturnBehavior.IMMEDIATE

    with pytest.raises(
        ConfigurationError, match=r"^check\('w6.truth_table', \.\.\.\) was called from the thread 'asyn"
    ):
        asyncio.run(asyncio.to_thread(check, "w6.truth_table", answer))
    assert check("w6.truth_table", answer).status in ("passed", "failed")  # the main thread's check runs
