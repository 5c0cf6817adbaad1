"""check() against learners' code that never ends, fakes equality, replaces the reference, or mistypes an id.

Each is a failed try with one readable line (or a one-line ConfigurationError for an id),
never a hang, a ✓, or the package's warnings printed under the cell.
"""

import contextlib
import copy
import logging
import signal
import subprocess
import sys

import pytest

from toolkit.errors import ConfigurationError
from toolkit.exercises import check


@contextlib.contextmanager
def watchdog(seconds):
    """Raise in the main thread after `seconds` through SIGUSR1 (SIGALRM is the limit's own)."""
    import threading

    def bark(*_):
        raise RuntimeError("watchdog: the check did not stop by itself")

    previous = signal.signal(signal.SIGUSR1, bark)
    main = threading.main_thread().ident
    timer = threading.Timer(seconds, lambda: signal.pthread_kill(main, signal.SIGUSR1))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        signal.signal(signal.SIGUSR1, previous)


class AlwaysEqual:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__


@pytest.mark.parametrize("deadline", [30], indirect=True)
def test_a_window_that_yields_forever_is_cut_and_fails(deadline):
    def keep(messages, n):
        while True:
            yield messages[0]

    result = check("w6.window", keep)
    assert (result.status, result.feedback) == (
        "failed",
        "for n=4 your window keeps more messages than the conversation has (5)",
    )


def test_a_window_that_yields_objects_equal_to_anything_fails():
    from toolkit.memory.windows import MessageWindow, evict

    result = check("w6.window", lambda messages, n: (AlwaysEqual() for _ in evict(messages, MessageWindow(n))))
    assert result.status == "failed"
    assert result.feedback.startswith("your function returned an AlwaysEqual, a class of your own")


def test_a_window_that_returns_no_list_says_so():
    assert check("w6.window", lambda messages, n: None).feedback == (
        "keep() returned None; return the list of messages it keeps"
    )


def test_an_error_raised_while_the_window_generator_runs_is_the_learners():
    def keep(messages, n):
        yield from messages
        raise ValueError("ran out")

    assert check("w6.window", keep).feedback == "your code raised ValueError: ran out"


@pytest.mark.parametrize(
    ("exercise", "module", "name", "mine"),
    [
        ("w6.truth_table", "toolkit.loop.returns", "should_return_immediately", lambda b, e: not e),
        ("w8.score", "toolkit.search.keyword", "score", None),
        ("w3.normalize", "toolkit.course.validation", "normalize_order_id", None),
        ("w6.window", "toolkit.memory.windows", "evict", None),
        ("w1.records", "toolkit.chat.messages", "message_from_openai", None),
    ],
)
def test_a_reference_the_learner_replaced_is_not_compared_with(monkeypatch, exercise, module, name, mine):
    import importlib

    def replacement(*args):
        return args[0] if mine is None else mine(*args)

    monkeypatch.setattr(importlib.import_module(module), name, replacement)
    answer = replacement if exercise != "w1.records" else []
    result = check(exercise, answer)
    assert (result.status, result.feedback) == ("failed", changed(f"{module}.{name}"))


def test_a_method_or_classmethod_the_learner_replaced_is_not_compared_with(monkeypatch):
    from toolkit.chat.client import RetryPolicy
    from toolkit.chat.messages import TokenUsage

    monkeypatch.setattr(RetryPolicy, "wait", lambda self, n, r: 1.0)
    assert check("w2.backoff", lambda n, r: 1.0).feedback == changed("toolkit.chat.client.RetryPolicy.wait")
    monkeypatch.undo()
    monkeypatch.setattr(TokenUsage, "from_openai", classmethod(lambda cls, usage: None))
    assert check("w1.usage_build", lambda body: None).feedback == changed(
        "toolkit.chat.messages.TokenUsage.from_openai"
    )


def changed(where: str, more: int = 0, when: str = "") -> str:
    """What a check says when code in the kernel changed the package (`pristine`)."""
    return (
        f"code in this kernel changed the package{when}: {where}{f' (and {more} more)' if more else ''} is not the "
        "package's own any more, and the check compares your answer with the package as it was imported — "
        "restart the kernel and run the cells again, leaving the package as it is"
    )


def test_a_package_constant_the_learner_replaced_makes_no_prediction_pass(monkeypatch):
    """learner11's find: COURSE replaced with a copy allowing 2 requests made the prediction 2 (truly 5) pass."""
    import dataclasses

    import toolkit.loop.run

    monkeypatch.setattr(toolkit.loop.run, "COURSE", dataclasses.replace(toolkit.loop.run.COURSE, max_model_requests=2))
    result = check("w6.course_bound", 2)
    assert (result.status, result.feedback) == ("failed", changed("toolkit.loop.run.COURSE"))
    monkeypatch.undo()
    assert check("w6.course_bound", 5).passed


def _wrong_default(monkeypatch):
    from toolkit.chat.messages import TokenUsage

    monkeypatch.setattr(TokenUsage.model_fields["input_tokens"], "default", 7)


def _new_method(monkeypatch):
    from toolkit.memory.windows import ChatMemory

    monkeypatch.setattr(ChatMemory, "add", lambda self, message: None)


def _function_replaced(monkeypatch):
    import toolkit.loop.run

    monkeypatch.setattr(toolkit.loop.run, "run_loop", lambda *args, **kwargs: None)


def _code_replaced(monkeypatch):
    from toolkit.loop.returns import should_return_immediately

    monkeypatch.setattr(should_return_immediately, "__code__", (lambda behaviors, errors: False).__code__)


def _builtin_shadowed(monkeypatch):
    import toolkit.loop.run

    monkeypatch.setattr(toolkit.loop.run, "len", lambda value: 2, raising=False)


def _a_default_argument(monkeypatch):
    from toolkit.course.validation import normalize_order_id

    monkeypatch.setattr(normalize_order_id, "__defaults__", (None,) * len(normalize_order_id.__defaults__ or (None,)))


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (_wrong_default, "toolkit.chat.messages.TokenUsage.model_fields['input_tokens'].default"),
        (_new_method, "toolkit.memory.windows.ChatMemory.add"),
        (_function_replaced, "toolkit.loop.run.run_loop"),
        (_code_replaced, "toolkit.loop.returns.should_return_immediately.__code__"),
        (_builtin_shadowed, "toolkit.loop.run.len"),
        (_a_default_argument, "toolkit.course.validation.normalize_order_id.__defaults__"),
    ],
)
def test_any_change_to_the_package_in_the_kernel_is_named_and_no_check_runs(monkeypatch, change, where):
    change(monkeypatch)
    result = check("w6.course_bound", 5)
    assert (result.status, result.feedback) == ("failed", changed(where))


def test_a_frozen_constant_changed_in_place_is_named_where_it_is_defined():
    from toolkit.loop.records import COURSE

    before = COURSE.max_model_requests
    object.__setattr__(COURSE, "max_model_requests", 2)
    try:
        result = check("w6.course_bound", 2)
    finally:
        object.__setattr__(COURSE, "max_model_requests", before)
    assert (result.status, result.feedback) == ("failed", changed("toolkit.loop.records.COURSE.max_model_requests"))


def test_a_frozen_constant_is_named_beside_its_class_whichever_importer_was_imported_first():
    """Before: in a process that had imported `toolkit.course.assistant` (which imports `COURSE`) before the checks,
    the change was named `toolkit.course.assistant.COURSE…`, in another `toolkit.loop.records.COURSE…`: the
    feedback changed with what the kernel had imported."""
    script = (
        "import toolkit.course.assistant, toolkit.views.playground\n"
        "from toolkit.exercises import pristine\n"
        "from toolkit.loop.records import COURSE\n"
        "object.__setattr__(COURSE, 'max_model_requests', 2)\n"
        "print(pristine.changes())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "['toolkit.loop.records.COURSE.max_model_requests']"


def test_what_python_caches_on_a_class_is_no_change():
    """Before: `copy.deepcopy` of a package object with `__slots__` made Python cache `__slotnames__` on its class,
    and every check after it in the kernel said the package had been changed."""
    from toolkit.exercises import pristine
    from toolkit.loop.records import LoopOptions

    copy.deepcopy(LoopOptions())
    copy.copy(LoopOptions())
    assert pristine.changes() == []
    assert check("w6.course_bound", 5).status == "passed"


def test_a_change_the_learners_code_makes_while_the_check_runs_is_named_too():
    import toolkit.loop.returns

    real = toolkit.loop.returns.should_return_immediately

    def returns_now(behaviors, errors):  # the package made to agree with a rule that is wrong
        toolkit.loop.returns.should_return_immediately = lambda behaviors, errors: False
        return False

    try:
        result = check("w6.truth_table", returns_now)
    finally:
        toolkit.loop.returns.should_return_immediately = real
    assert (result.status, result.feedback) == (
        "failed",
        changed("toolkit.loop.returns.should_return_immediately", when=" while the check ran"),
    )


def test_a_builtin_the_learner_replaced_makes_no_wrong_answer_pass(monkeypatch):
    """Before: `builtins.abs = lambda x: 0` in a cell made the backoff check's `abs(got - want) <= 1e-9` hold for any
    number: a wait of 0.5 s on every attempt got ✓ (and was sealed so under `toolkit grade`). Python's built-in
    functions and classes are noted with the package, and a check does not run on ones the kernel replaced."""
    import builtins

    monkeypatch.setattr(builtins, "abs", lambda x: 0)
    result = check("w2.backoff", lambda attempt, retry_after: 0.5)
    assert (result.status, result.feedback) == (
        "failed",
        "code in this kernel changed Python's builtins: builtins.abs is not Python's own any more, and the check "
        "computes with them — restart the kernel and run the cells again, leaving the builtins as they are",
    )
    monkeypatch.undo()
    from toolkit.exercises import pristine

    monkeypatch.delattr(builtins, "divmod")  # one taken away is a change too
    assert pristine.changes() == ["builtins.divmod"]


def test_a_standard_library_function_the_learner_replaced_makes_no_check_run(monkeypatch):
    """Before: `json.dumps = lambda *a, **k: "x"` in a cell made every tool call the checks run send the arguments
    `x`: seven right answers failed, and w10.escape's said "refused: ['notes/todo.md']"; a `time.monotonic` frozen
    made w9.dead_server's check wait for ever (its time limit counts with it). The standard library's modules the
    package uses are noted with it, and a check does not run on a function of theirs the kernel replaced."""
    import json
    import random
    import time

    from toolkit.exercises import pristine

    right = {"notes/todo.md"}
    monkeypatch.setattr(json, "dumps", lambda *args, **kwargs: "x")
    result = check("w10.escape", right)
    assert (result.status, result.feedback) == (
        "failed",
        "code in this kernel changed Python's standard library: json.dumps is not Python's own any more, and the "
        "check computes with it — restart the kernel and run the cells again, leaving the standard library as it is",
    )
    monkeypatch.undo()
    assert check("w10.escape", right).status == "passed"
    monkeypatch.setattr(time, "monotonic", lambda: 0.0)
    monkeypatch.setattr(random, "Random", lambda seed: None)  # the checks' own (week 8 draws its cases with it)
    monkeypatch.delattr(json, "loads")  # one taken away is a change too
    assert pristine.changes() == ["json.loads", "random.Random", "time.monotonic"]
    assert check("w6.course_bound", 5).feedback.startswith(
        "code in this kernel changed Python's standard library: json.loads (and 2 more) is not Python's own"
    )


def test_the_hooks_kernels_and_test_runners_set_are_no_change(monkeypatch):
    """ipykernel sets `getpass.getpass` for each cell it runs (as it does `input`), pytest `threading.excepthook`
    for each test, `logging.captureWarnings` `warnings.showwarning`: the standard library's hooks, meant to be
    set; nor is state a module keeps a change (`random.seed`, `os.environ`), and no check relies on it."""
    import getpass
    import random
    import threading
    import warnings

    from toolkit.exercises import pristine

    monkeypatch.setattr(getpass, "getpass", lambda prompt="": "")
    monkeypatch.setattr(threading, "excepthook", lambda args: None)
    monkeypatch.setattr(warnings, "showwarning", lambda *args, **kwargs: None)
    monkeypatch.setenv("LLM_API_KEY", "sk-anything")
    random.seed(0)
    assert pristine.changes() == []
    assert check("w6.course_bound", 5).status == "passed"


def test_names_added_to_the_builtins_are_no_change(monkeypatch):
    """IPython adds `display` and `get_ipython` to the builtins, `gettext.install` adds `_`, and `site` put `help`
    there: none is one of Python's built-in functions, and each may come and go."""
    import builtins

    from toolkit.exercises import pristine

    monkeypatch.setattr(builtins, "display", print, raising=False)
    monkeypatch.setattr(builtins, "_", lambda text: text, raising=False)
    monkeypatch.setattr(builtins, "help", None)
    assert pristine.changes() == []
    assert check("w6.course_bound", 5).status == "passed"


def test_the_package_unchanged_is_read_once_per_look_and_costs_little():
    from toolkit.exercises import pristine

    assert pristine.changes() == []
    assert 1_000 < pristine.size() < 40_000  # the package's members, each an identity test: milliseconds


@pytest.mark.parametrize(
    ("typed", "nearest"),
    [("w6.round_trip", "w6.round_trips"), ("W6.Truth_Table", "w6.truth_table"), (" w8.score", "w8.score")],
)
def test_a_mistyped_id_suggests_the_nearest(typed, nearest):
    with pytest.raises(ConfigurationError) as info:
        check(typed, 1)
    assert str(info.value).startswith(f"no exercise {typed!r} (did you mean {nearest!r}?); this week's are: ")


def test_an_id_of_no_week_says_what_ids_look_like():
    with pytest.raises(ConfigurationError) as info:
        check("homework", 1)
    assert str(info.value) == "no exercise 'homework'; ids look like 'w6.truth_table': the weeks are w0 to w10"


@pytest.mark.parametrize(
    ("exercise", "answer"),
    [("w6.course_bound", 5), ("w10.escape", {"notes/todo.md"})],
)
def test_a_check_prints_none_of_the_packages_warnings(caplog, exercise, answer):
    caplog.set_level(logging.WARNING)
    assert check(exercise, answer).passed
    assert [r.getMessage() for r in caplog.records] == []


def test_a_skill_folder_left_out_says_why_in_the_feedback():
    def make_skill(root):
        (root / "gift-wrapping").mkdir()
        (root / "gift-wrapping" / "SKILL.md").write_text("---\nname: gift-wrapping\n---\nAsk for the order id.\n")

    assert check("w10.skill_folder", make_skill).feedback == (
        "no skill 'gift-wrapping' was loaded; found []; 'gift-wrapping' was left out: skill folder "
        "'gift-wrapping': front matter needs a non-empty 'description'. Fix: add a line 'description: …' saying "
        "what the skill does and when to use it"
    )


def test_nfkc_digits_are_named_when_normalize_reads_them():
    import re
    import unicodedata

    def normalize(raw):
        text = re.sub(r"^订单号?\s*[:：是为]?\s*", "", unicodedata.normalize("NFKC", raw).strip())
        text = re.sub(r"[\s\-\u2010-\u2015\u2212]", "", text.upper())
        return text if re.fullmatch(r"SN[0-9]{12}", text) else None

    feedback = check("w3.normalize", normalize).feedback
    assert feedback.endswith(
        "but validation rejects it: '𝟐' is a digit to \\d and to NFKC, but neither an ASCII nor a full-width one"
    )


@pytest.mark.parametrize(
    ("exercise", "endless"),
    [
        ("w6.truth_table", "def f(behaviors, any_error):\n    while True:\n        pass"),
        ("w2.backoff", "def f(attempt, retry_after):\n    import time\n    time.sleep(3600)"),
        (
            "w10.skill_folder",
            "def f(root):\n    while True:\n        try:\n            pass\n        except Exception:\n            pass",
        ),
    ],
)
def test_a_check_that_runs_past_its_limit_is_stopped_and_fails(monkeypatch, exercise, endless):
    import time

    import toolkit.exercises.core as core

    monkeypatch.setattr(core, "CHECK_LIMIT_S", 1)
    namespace: dict = {}
    exec(endless, namespace)
    started = time.monotonic()
    with watchdog(120):  # without the limit, fail in 120 s rather than hang the test run
        result = check(exercise, namespace["f"])
    assert time.monotonic() - started < 60  # stopped by the 1 s limit, not by the watchdog
    assert (result.status, result.feedback) == (
        "failed",
        "the check was stopped after 1 s: does your code loop forever, or wait for something that never comes?",
    )
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL
    monkeypatch.undo()  # the usual limit again: on a loaded machine a first check can take a second
    assert check("w6.round_trips", 2).passed  # the next check runs as usual


def not_written(*args):
    raise NotImplementedError


@pytest.mark.parametrize(
    ("exercise", "answer"),
    [
        ("w6.truth_table", not_written),
        ("w8.score", lambda name, description, terms: NotImplemented),
        ("w6.round_trips", NotImplemented),
        ("w0.switch", {"no variables": NotImplemented, "all three": "real", "only LLM_BASE_URL": "error"}),
        ("w10.skill_folder", not_written),
    ],
)
def test_the_not_written_yet_markers_are_not_attempted_like_the_starter(exercise, answer):
    assert check(exercise, answer).status == "not attempted"


def test_check_without_an_answer_says_how_to_call_it():
    with pytest.raises(ConfigurationError) as info:
        check("w6.round_trips")
    assert str(info.value) == "check('w6.round_trips') needs your answer too: check('w6.round_trips', answer)"


@pytest.mark.parametrize(
    ("args", "text"),
    [
        ((2, "w6.round_trips"), "check('w6.round_trips', 2)"),
        (("confirm the id", "w3.unknown_order"), "check('w3.unknown_order', 'confirm the id')"),
    ],
)
def test_check_with_its_arguments_the_other_way_round_says_so(args, text):
    with pytest.raises(ConfigurationError) as info:
        check(*args)
    assert str(info.value) == f"check() takes the exercise id first, then your answer: {text}"


def test_a_normalize_that_returns_the_one_id_it_was_shown_fails_on_ids_it_was_not():
    from toolkit.exercises import get

    solution: dict = {}  # the learner's own rule (the reference cell's), not the package's function
    exec(get("w3.normalize").solution.replace('check("w3.normalize", normalize)', ""), solution)

    def accepts(raw):
        return solution["normalize"](raw) is not None

    result = check("w3.normalize", lambda raw: "SN202610200001" if accepts(raw) else None)
    assert (result.status, result.feedback) == (
        "failed",
        "normalize('SN535943533334') returned 'SN202610200001', validation accepts it as 'SN535943533334'",
    )


def test_search_terms_written_as_one_phrase_are_split_into_words_as_langchain4j_does():
    """A term of several words was looked for as a whole, and the check told the learner so; LangChain4j's
    `SimpleToolSearchStrategy` splits each term at whitespace, and so does the package now: the phrase finds the tool."""
    result = check("w8.find_query", ["refund payment"])
    assert result.passed
    assert result.feedback.startswith("found: refund_payment (6), ")


def test_a_declaration_with_keyword_only_parameters_is_told_how_chat_is_called():
    from typing import Annotated, Protocol

    from toolkit import MemoryId, UserText

    class Assistant(Protocol):
        def chat(self, *, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

    assert check("w4.declare", Assistant).feedback == (
        'chat("alice", "我叫 Alice") failed: chat() too many positional arguments; '
        "declare chat(self, user_id, question), both positional"
    )


def test_an_async_function_is_told_to_be_a_plain_def_without_a_never_awaited_warning(recwarn):
    import gc
    import warnings

    warnings.simplefilter("always")

    async def wait(attempt, retry_after):
        return 0.5

    result = check("w2.backoff", wait)
    gc.collect()
    assert (result.status, result.feedback) == (
        "failed",
        "your function is `async def`: it returned a coroutine that never ran; write it with `def`",
    )
    mine = f"{wait.__qualname__}' was never awaited"  # not an earlier test's coroutine the collection frees
    assert [str(w.message) for w in recwarn if mine in str(w.message)] == []


def test_feedback_holds_no_character_the_kernel_cannot_send():
    import json

    def keep(messages, n):
        raise ValueError("half an emoji \ud83d, a NUL \x00 and a bell \x07")

    feedback = check("w6.window", keep).feedback
    assert feedback == "your code raised ValueError: half an emoji \\ud83d, a NUL \\x00 and a bell \\x07"
    json.dumps(feedback, ensure_ascii=False).encode("utf-8")  # what a kernel sends must encode


def test_feedback_writes_a_bidi_override_or_an_invisible_character_as_its_escape():
    """Before: a right-to-left override in what the learner's code raised went raw into the feedback, its box
    and the grade CSV, so the text after it read backwards (`\\u202edessap` showed as 'passed'); a zero-width
    space hid inside a word. Now written as escapes, as the control characters are."""

    def keep(messages, n):
        raise ValueError("\u202edessap\u202c and ec\u200bho \u2066x\u2069")

    result = check("w6.window", keep)
    assert result.feedback == "your code raised ValueError: \\u202edessap\\u202c and ec\\u200bho \\u2066x\\u2069"
    assert "\u202e" not in result.html() and "\u202e" not in result.text()


def test_a_skill_folder_refused_whole_is_told_without_the_temporary_path():
    import shutil

    result = check("w10.skill_folder", lambda root: shutil.rmtree(root))
    assert result.feedback == (
        "Skills.from_directory refused the folder: load_skills('root'): no such folder. "
        "Fix: pass the folder that holds one sub-folder per skill"
    )


def test_a_set_in_an_answer_reads_the_same_in_every_kernel():
    import os
    import subprocess
    import sys

    script = (
        "from toolkit.exercises import check\n"
        "print(check('w6.round_trips', {'alpha', 'beta', 'gamma', 'delta'}).feedback)\n"
        "print(check('w0.switch', {'no variables': {'x', 'y', 'z'}, 'all three': 'real',"
        " 'only LLM_BASE_URL': 'error'}).feedback)\n"
        "print(check('w8.score', lambda n, d, t: frozenset({'q', 'r', 's', 't'})).feedback)\n"
    )
    texts = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3", "4")
    }
    assert len(texts) == 1, texts
    assert "not {'alpha', 'beta', 'delta', 'gamma'}" in texts.pop()


def test_a_function_that_changes_the_working_directory_leaves_the_kernel_where_it_was(tmp_path, monkeypatch):
    """make_skill moving into the check's temporary folder (deleted when the check ends) must not leave
    the kernel in a folder that no longer exists, where every relative path of the next cells fails."""
    import os
    from pathlib import Path

    monkeypatch.chdir(tmp_path)

    def make_skill(root):
        os.chdir(root)
        Path("gift-wrapping").mkdir()
        Path("gift-wrapping/SKILL.md").write_text(
            "---\nname: gift-wrapping\ndescription: Use when a customer asks to gift-wrap an order.\n---\n"
            "Ask for the order id and the card text.\n",
            encoding="utf-8",
        )

    assert check("w10.skill_folder", make_skill).status == "passed"
    assert os.getcwd() == str(tmp_path)
    assert check("w6.truth_table", lambda behaviors, any_error: os.chdir("/")).status == "failed"
    assert os.getcwd() == str(tmp_path)


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (
            lambda root: (root / "gift-wrapping").mkdir() or (root / "gift-wrapping" / "skill.md").write_text("x"),
            "; 'gift-wrapping' was left out: skill folder 'gift-wrapping': no SKILL.md (it has 'skill.md'; the "
            "file's name is SKILL.md, in capitals). Fix: rename 'skill.md' to SKILL.md",
        ),
        (lambda root: None, "; your function made no file in the folder it was given"),
    ],
)
def test_a_skill_folder_that_loads_nothing_shows_what_the_function_made(make, said):
    assert check("w10.skill_folder", make).feedback == "no skill 'gift-wrapping' was loaded; found []" + said


def test_an_error_message_of_several_lines_is_told_on_one_line():
    def wait(attempt, retry_after):
        raise ValueError("first line\r\nsecond line\n\tthird")

    result = check("w2.backoff", wait)
    # was three lines under the ✗, the second and third out of the result's indented block
    assert result.feedback == "wait(1, None) raised ValueError: first line\\r\\nsecond line\\n\tthird"
    assert len(result.text().splitlines()) == 4  # the ✗ line, the feedback, the hint, the solution pointer


def test_a_validation_error_in_the_learners_code_is_told_in_one_line():
    """It was pydantic's whole text: four lines, the last a link to errors.pydantic.dev."""
    from toolkit import TokenUsage

    def usage_from_body(body):
        usage = body.get("usage") or {}
        return TokenUsage(
            input_tokens=usage.get("prompt_tokens"),
            output_tokens=usage.get("completion_tokens"),
            total_tokens=usage.get("total_tokens"),
        )

    assert check("w1.usage_build", usage_from_body).feedback == (
        "for {} your code raised RecordError: TokenUsage: total_tokens is not one of its fields (input_tokens, "
        "output_tokens)"
    )

    def two_wrong(body):
        return TokenUsage(input_tokens="many", output_tokens=-1)

    assert check("w1.usage_build", two_wrong).feedback == (
        "for {} your code raised RecordError: TokenUsage: input_tokens was given a str ('many'); it should be a valid "
        "integer, unable to parse string as an integer; output_tokens was given an int (-1); it should be greater "
        "than or equal to 0"
    )


@pytest.mark.parametrize(
    "endless",
    [
        "def f(raw):\n    while True:\n        try:\n            time.sleep(0.05)\n        except:\n            pass",
        "def f(raw):\n    while True:\n        try:\n            pass\n        except BaseException:\n            continue",
        "def f(raw):\n    try:\n        time.sleep(3600)\n    except:\n        time.sleep(3600)",
        "def f(raw):\n    try:\n        time.sleep(3600)\n    finally:\n        while True:\n            pass",
    ],
    ids=["bare-except-retry", "except-baseexception", "sleep-again-in-the-handler", "loop-in-finally"],
)
def test_code_that_swallows_the_limit_is_stopped_too(endless):
    """A beginner's retry loop with a bare `except:` caught the limit's TooSlow (and the watchdog's error,
    hence a process with a timeout here) and looped on: the kernel hung for good."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(
        """
        import os, sys, time
        os.environ["TOOLKIT_CHECK_LIMIT_S"] = "1"
        from toolkit.exercises import check
        {endless}
        started = time.monotonic()
        result = check("w3.normalize", f)
        print(time.monotonic() - started < 60, result.status, result.feedback, sep=" | ")
        del os.environ["TOOLKIT_CHECK_LIMIT_S"]  # the next check's first imports may take a second
        after = check("w6.round_trips", 2)
        print(after.status, sys.gettrace(), sep=" | ")
        if after.status != "passed":  # shown in the diff when it fails (seen once on a loaded host)
            print(after.feedback)
        """
    ).format(endless=textwrap.indent(endless, " " * 8).strip())
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)  # a hang guard
    assert done.stdout.splitlines() == [
        "True | failed | the check was stopped after 1 s: does your code loop forever, or wait for something that "
        "never comes?",
        "passed | None",
    ], done.stderr


# --- a huge value: told its size at once, not read for longer than the limit and blamed on a loop ------


def test_a_function_that_returns_a_huge_list_is_told_so_at_once():
    from toolkit.exercises.values import VALUES_LIMIT

    huge = list(range(VALUES_LIMIT + 1))
    result = check("w8.score", lambda name, description, terms: huge)
    assert (result.status, result.feedback) == (
        "failed",
        f"your function returned a list holding more than {VALUES_LIMIT:,} values; no answer here needs that many: "
        "return only what the task asks",
    )


def test_an_answer_that_holds_a_huge_array_is_told_so_at_once():
    import numpy as np

    from toolkit.exercises.values import VALUES_LIMIT

    result = check("w10.escape", {"notes/todo.md": np.zeros(VALUES_LIMIT)})
    assert (result.status, result.feedback) == (
        "failed",
        f"your answer holds more than {VALUES_LIMIT:,} values; no answer here needs that many: "
        "answer with only what the task asks",
    )


class CountedList(list):
    """A list that counts how many of its items were read."""

    reads = 0

    def __iter__(self):
        for item in super().__iter__():
            CountedList.reads += 1
            yield item


def test_a_huge_value_is_measured_without_reading_its_items():
    from toolkit.exercises.values import VALUES_LIMIT, oversized

    CountedList.reads = 0
    assert oversized([[1, 2], CountedList(range(VALUES_LIMIT))])
    assert CountedList.reads == 0
    assert not oversized([CountedList(range(10)), {"a": (1, 2)}])
    assert CountedList.reads == 10
    itself: list = [1]
    itself.append(itself)  # a list that holds itself is counted once: check() says it contains itself
    assert not oversized(itself)
    row = list(range(1000))
    assert oversized([row] * (VALUES_LIMIT // 1000 + 1))  # one list many times is read as many times


def _check_with_setitimer(monkeypatch, stand_in, name):
    """`check("w6.round_trips", 2)` with `signal.setitimer` replaced by `stand_in`'s function `name`
    (compiled as the standard library's code: a test's frame would read as the learner's, and it
    calls the real one as `real`); the result, and the timer and SIGALRM handler the check left.
    Replaced where the check reads it (`core`'s `signal`): a `signal.setitimer` replaced in the kernel is a
    change of the standard library, on which no check runs."""
    import types

    from toolkit.exercises import core

    real = signal.setitimer
    scope = {"signal": signal, "real": real}
    exec(compile(stand_in, signal.__file__, "exec"), scope)
    seen_by_the_check = types.ModuleType("signal")
    vars(seen_by_the_check).update(vars(signal), setitimer=scope[name])
    monkeypatch.setattr(core, "signal", seen_by_the_check)
    try:
        result = check("w6.round_trips", 2)
        left = (signal.getitimer(signal.ITIMER_REAL), signal.getsignal(signal.SIGALRM))
    finally:  # whatever happened, no alarm outlives the test
        real(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
    return result, left


def test_a_limit_reached_just_as_the_check_ends_leaves_no_timer_nor_handler_behind(monkeypatch):
    """The limit's SIGALRM can be handled after the check returned and before its timer is disarmed
    (a check that took just its limit, on a loaded machine). Its `TooSlow` then skipped the rest of
    the clean-up: the timer went on firing every `AGAIN_S` and its handler stayed, so every later check
    in the kernel ran without a limit (`_time_limit` sets one only where SIGALRM has none). Here the
    alarm is raised exactly there: as the timer is about to be disarmed."""
    stand_in = (  # `signal.setitimer` that meets the alarm as it disarms
        "def alarm_first(which, seconds, interval=0.0):\n"
        "    if seconds == 0:\n"
        "        signal.raise_signal(signal.SIGALRM)  # its handler runs here, before the timer is stopped\n"
        "    return real(which, seconds, interval)\n"
    )
    result, left = _check_with_setitimer(monkeypatch, stand_in, "alarm_first")
    assert result.passed  # the check had finished: it is not reported as stopped
    assert left == ((0.0, 0.0), signal.SIG_DFL)


def test_a_limit_reached_as_its_timer_is_armed_leaves_no_handler_behind(monkeypatch):
    """A limit so short (`TOOLKIT_CHECK_LIMIT_S=1e-9`) that its SIGALRM is handled as the timer is
    armed raised `TooSlow` before the clean-up was set up: the handler stayed, and every later check
    in the kernel ran without a limit. Here the alarm is raised exactly there (an alarm long before the limit is
    a learner's own, not the limit: the limit here is that short)."""
    monkeypatch.setenv("TOOLKIT_CHECK_LIMIT_S", "1e-9")
    stand_in = (  # `signal.setitimer` that meets the alarm as it arms
        "def alarm_at_once(which, seconds, interval=0.0):\n"
        "    result = real(which, seconds, interval)\n"
        "    if seconds:\n"
        "        signal.raise_signal(signal.SIGALRM)  # its handler runs here, as the timer is armed\n"
        "    return result\n"
    )
    result, left = _check_with_setitimer(monkeypatch, stand_in, "alarm_at_once")
    assert result.feedback == (
        "the check was stopped after 1e-09 s: does your code loop forever, or wait for something that never comes?"
    )
    assert left == ((0.0, 0.0), signal.SIG_DFL)


def _keep_itself(messages, n):
    kept = list(messages)
    kept.append(kept)
    return kept


def _keep_nested_dicts(messages, n):
    deep: dict = {}
    deep["again"] = deep
    return [deep]


@pytest.mark.parametrize(
    ("fn", "returned"),
    [(_keep_itself, "a list"), (_keep_nested_dicts, "a list")],
)
def test_a_function_that_returns_a_value_holding_itself_is_told_its_return_does(fn, returned):
    """It read 'your answer contains itself': the answer is a function, which holds nothing; what it returned does."""
    result = check("w6.window", fn)
    assert result.status == "failed"
    assert result.feedback == (
        f"your function returned {returned} that contains itself (or is nested thousands deep); return plain values"
    )


def test_a_sigalrm_handler_a_cell_left_behind_does_not_lift_the_limit(monkeypatch):
    """Week 2's timeouts: a learner's cell times its own calls with `signal.signal(SIGALRM, handler)` and
    `signal.alarm(…)`, then cancels the alarm. Before: the handler stayed, so no check in that kernel had a
    limit any more — an endless loop hung the notebook, and when graded, the cell's own limit stopped it and
    every exercise after it was 'not run'. Now the limit stands wherever no timer is running, and the
    learner's handler is theirs again after the check."""
    import toolkit.exercises.core as core

    def learners(*_):
        raise TimeoutError("my own timeout")

    monkeypatch.setattr(core, "CHECK_LIMIT_S", 1)
    signal.signal(signal.SIGALRM, learners)
    try:
        with watchdog(20):
            result = check("w6.truth_table", lambda behaviors, any_error: [0 for _ in iter(int, 1)])
        assert (result.status, result.feedback) == (
            "failed",
            "the check was stopped after 1 s: does your code loop forever, or wait for something that never comes?",
        )
        assert signal.getsignal(signal.SIGALRM) is learners
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


def test_a_sigalrm_timer_that_is_running_keeps_the_check_off_it(monkeypatch):
    """A learner's alarm still pending when the check starts is theirs: the check sets no limit then."""
    fired = []
    signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    signal.setitimer(signal.ITIMER_REAL, 60)
    try:
        assert check("w6.round_trips", 2).passed
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 60
        assert not fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


def test_input_called_where_no_one_can_answer_is_the_learners_error_not_not_attempted():
    """IPython's StdinNotImplementedError (input() in a kernel that takes no input: `toolkit grade`'s) is a
    NotImplementedError; before, the check read it as the learner's "not written yet" and said "not
    attempted" of code that was written. Only NotImplementedError itself means that."""

    class StdinNotImplementedError(IOError, NotImplementedError):  # as IPython's, in IPython.core.error
        pass

    def returns_now(behaviors, any_error):
        raise StdinNotImplementedError("raw_input was called, but this frontend does not support input requests.")

    result = check("w6.truth_table", returns_now)
    assert (result.status, result.feedback) == (
        "failed",
        "your code raised StdinNotImplementedError: raw_input was called, but this frontend does not support input "
        "requests.",
    )


def test_not_implemented_error_itself_is_still_not_written_yet():
    def returns_now(behaviors, any_error):
        raise NotImplementedError("later")

    assert check("w6.truth_table", returns_now).status == "not attempted"


def _from_the_checkers_frame(default):
    """What a frame below the learner's call holds as `want` (the expected value), else `default`."""
    import sys

    frame = sys._getframe(2)
    while frame is not None:
        if "want" in frame.f_locals:
            return frame.f_locals["want"]
        frame = frame.f_back
    return default


def _peeking_answers():
    def wait(attempt, retry_after):
        return _from_the_checkers_frame(-1)

    def usage_from_body(body):
        return _from_the_checkers_frame(None)

    def normalize(raw):
        return _from_the_checkers_frame("SN000000000000")

    def returns_now(behaviors, any_error):
        return _from_the_checkers_frame("maybe")

    def keep(messages, n):
        return list(_from_the_checkers_frame(messages))

    def score(name, description, terms):
        return _from_the_checkers_frame(-1)

    return {
        "w2.backoff": (  # asked again after a miss (is it jitter?), it found the first case's expected value
            wait,
            "wait(1, None) gave another wait each time it was called with the same arguments: RetryPolicy().wait "
            "keeps no state and adds no jitter — the same attempt and Retry-After always wait the same (a count kept "
            "in a global changes between calls; so does a random number)",
        ),
        "w1.usage_build": (
            usage_from_body,
            "for {} you returned None, not a TokenUsage: return TokenUsage(input_tokens=..., output_tokens=...) — "
            "does your function print its answer instead of returning it?",
        ),
        "w3.normalize": (
            normalize,
            "normalize('SN202610200001') returned 'SN000000000000', validation accepts it as 'SN202610200001'",
        ),
        "w6.truth_table": (
            returns_now,
            "returns_now([TO_LLM], any_error=False) gave 'maybe', the loop says False — a text is not a bool, and "
            "any text but '' counts as True: return True or False",
        ),
        "w8.score": (score, None),
        "w6.window": (keep, None),
    }


@pytest.mark.parametrize("exercise", sorted(_peeking_answers()))
def test_a_function_that_reads_the_expected_value_from_the_checkers_frame_finds_none(exercise):
    """The learner's code runs for every case before the checker computes any expected value: walking the
    frames below it (sys._getframe, inspect.stack()) finds none to copy, so it is judged on its own answers."""
    fn, feedback = _peeking_answers()[exercise]
    result = check(exercise, fn)
    assert result.status == "failed"
    if feedback is not None:
        assert result.feedback == feedback


def _cancels_the_timer(behaviors, any_error):
    signal.setitimer(signal.ITIMER_REAL, 0)
    while True:
        pass


def _ignores_the_signal(behaviors, any_error):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass


def _takes_the_signal(behaviors, any_error):
    signal.signal(signal.SIGALRM, lambda *_: None)
    signal.alarm(0)
    while True:
        pass


@pytest.mark.parametrize("fn", [_cancels_the_timer, _ignores_the_signal, _takes_the_signal])
def test_code_that_takes_the_limits_timer_away_is_stopped_all_the_same(monkeypatch, fn):
    """signal.alarm(0), setitimer(…, 0), or a SIGALRM handler of the learner's own inside the check took the limit
    away: the check ran until the notebook was interrupted by hand (or the grade's cell limit). A second guard, a
    thread, stops it then; the kernel's SIGALRM is as it was before the check."""
    import toolkit.exercises.core as core

    monkeypatch.setattr(core, "CHECK_LIMIT_S", 1)
    with watchdog(60):
        result = check("w6.truth_table", fn)
    assert (result.status, result.feedback) == (
        "failed",
        "the check was stopped after 1 s: does your code loop forever, or wait for something that never comes?",
    )
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL
    monkeypatch.undo()
    assert check("w6.round_trips", 2).passed  # the next check runs as usual


def test_an_alarm_of_the_learners_own_that_rings_early_does_not_stop_the_check():
    """A learner's wait() that sets a short alarm of its own (week 2's timeouts) and returns: the alarm rang later,
    in the check, and was taken for the limit — 'stopped after 30 s' of a check that ran a blink."""
    import time

    rung = []

    def wait(attempt, retry_after):
        if not rung:
            rung.append(True)
            signal.setitimer(signal.ITIMER_REAL, 0.01)  # rings in the check's own code, after this returns
            time.sleep(0.05)
        backoff = min(8.0, 0.5 * 2 ** (attempt - 1))
        return backoff if retry_after is None else min(30.0, max(backoff, retry_after))

    with watchdog(60):
        result = check("w2.backoff", wait)
    assert (result.status, result.feedback) == ("passed", "identical to RetryPolicy().wait on 81 inputs.")
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_compensation_that_sets_bookings_to_what_the_check_expects_fails():
    """A compensation that read the trip and the bookings before it from the check's frame and wrote BOOKINGS as
    the check expects them after the rollback (in its first call) got ✓ without undoing its own call."""
    import sys

    from toolkit import compensates
    from toolkit.exercises.week07 import BOOKINGS

    @compensates("book_hotel")
    def cancel_hotel(guest: str, nights: int) -> None:
        frame = sys._getframe(1)
        while frame is not None and "trip" not in frame.f_locals:
            frame = frame.f_back
        earlier, trip = frame.f_locals["earlier"], frame.f_locals["trip"]
        BOOKINGS[:] = earlier + [(a["guest"], a["nights"]) for name, a in trip if name == "walk_in"]

    result = check("w7.compensation", cancel_hotel)
    assert (result.status, result.feedback) == (
        "failed",
        "cancel_hotel('carol', 4) removed 2 bookings from BOOKINGS: each call undoes its own booking, one, and "
        "leaves the others to their own calls",
    )


SWITCH = {"no variables": "fake", "all three": "real", "only LLM_BASE_URL": "error"}
"""w0.switch's right answer."""


@pytest.fixture
def graded_kernel(monkeypatch):
    """A kernel as `toolkit grade` arms it (its records sealed), unarmed again after the test."""
    from toolkit.exercises import seal

    monkeypatch.setattr(seal, "_sealer", None)
    seal.arm("the run's key")


def test_a_graded_check_seals_its_record_and_an_ungraded_one_does_not(monkeypatch):
    from toolkit.exercises import seal

    assert "seal" not in check("w0.switch", SWITCH).record()  # a notebook's stored outputs are as before
    monkeypatch.setattr(seal, "_sealer", None)
    seal.arm("the run's key")
    record = check("w0.switch", SWITCH).record()
    assert record["passed"] and seal.verify(record, "the run's key")


def _passing_checker(answer):
    return Verdict(True)  # noqa: F821  (run as week00's checker, in its globals)


def _passing_copy(exercise):
    import dataclasses

    return dataclasses.replace(exercise, checker=_passing_checker)


def _always_passes(ex, answer):
    from toolkit.exercises.core import CheckResult

    return CheckResult(ex.id, "passed", "")


@pytest.mark.parametrize(
    "change, where",
    [
        (lambda m, core: m.setattr(core, "_check", _always_passes), "toolkit.exercises.core._check"),
        (
            lambda m, core: m.setitem(core._REGISTRY, "w0.switch", _passing_copy(core._REGISTRY["w0.switch"])),
            "toolkit.exercises.core._REGISTRY['w0.switch']",
        ),
        (
            lambda m, core: m.setattr(
                sys.modules["toolkit.exercises.week00"].check_switch, "__code__", _passing_checker.__code__
            ),
            "toolkit.exercises.week00.check_switch.__code__ (and 1 more)",  # and the registry's exercise
        ),
    ],
)
def test_a_graded_check_whose_own_code_was_changed_fails_saying_where(graded_kernel, monkeypatch, change, where):
    """Before: `core._check` replaced by one that always passes (or the registry's exercise, or its checker's
    code) made check() itself return a pass; graded, the checks say what was changed and seal a failed try."""
    from toolkit.exercises import core, seal

    core.all_exercises()  # every week's checks imported
    change(monkeypatch, core)
    record = check("w0.switch", {}).record()
    assert (record["passed"], record["feedback"]) == (False, core.CHECKS_CHANGED.format(where=where))
    assert seal.verify(record, "the run's key")


def kept_waiting(monkeypatch, share):
    """A host so loaded that the checking thread waits for a CPU `share` of the time from now on (as Linux's
    schedstat would say), or a system that does not say (`share` None)."""
    import time

    from toolkit.exercises import clock

    start = time.monotonic()
    monkeypatch.setattr(clock, "waited", lambda *_: None if share is None else share * (time.monotonic() - start))


@pytest.mark.parametrize(
    ("share", "body", "status"),
    [
        # 0.03 s its own, the rest waiting for a CPU: the pauses of a host really loaded may add 1.7 s to the check's
        # wall time before its own share reaches 0.2 s (at 0.5, 0.1 s did: a 3.12 run at load 8 on 2 cores failed)
        (0.9, "import time\n    time.sleep(0.3)", "passed"),
        (0.5, "while True:\n        pass", "failed"),  # its own 0.2 s, had on a loaded host: stopped
        (None, "import time\n    time.sleep(0.3)", "failed"),  # no schedstat: the wall clock, as before
    ],
)
def test_the_check_limit_counts_the_time_the_code_had_not_a_loaded_hosts_wait_for_a_cpu(
    monkeypatch, share, body, status
):
    """Before: the limit was wall time. On a host at load 15 (2 cores), an honest cell's check that needs 0.4 s
    of CPU took 3 s and under `toolkit grade` (its 2 s check limit at a 4 s cell limit) was 'stopped after 2 s:
    does your code loop forever' — the grade-fair time-limit test flaked so. Now the seconds the thread stood
    ready while the host ran others do not count (`clock.Stopwatch`); sleeping and looping still do."""
    import toolkit.exercises.core as core

    namespace: dict = {}
    exec(f"def slow():\n    {body}", namespace)
    calls = []

    def wait(attempt, retry_after):  # slow on its first call only: 81 calls of it would be a slow test
        calls.append(1)
        if len(calls) == 1:
            namespace["slow"]()
        backoff = min(8.0, 0.5 * 2 ** (attempt - 1))
        return backoff if retry_after is None else min(30.0, max(backoff, retry_after))

    calls.append(1)
    assert check("w2.backoff", wait).passed  # the first check of a process imports what it compares with
    calls.clear()
    monkeypatch.setattr(core, "CHECK_LIMIT_S", 0.2)
    kept_waiting(monkeypatch, share)
    with watchdog(60):
        result = check("w2.backoff", wait)
    assert result.status == status
    if status == "failed":
        assert result.feedback == (
            "the check was stopped after 0.2 s: does your code loop forever, or wait for something that never comes?"
        )
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_standard_library_function_an_installed_library_replaced_is_no_change(monkeypatch, tmp_path):
    """Before: torch's `torch.package`, imported with torch (vector search's embeddings), replaces `inspect.getfile`
    with a function of its own, and every check after `import torch` said "code in this kernel changed Python's
    standard library ... restart the kernel" (a restart and the import again gave the same). A function an installed
    library defines is no change; one a cell defines, a lambda, a builtin, a function of a module in the learner's
    own folder or of the package itself still is."""
    import importlib
    import inspect

    import pluggy._hooks  # an installed library's module, as torch.package is

    from toolkit.exercises import pristine
    from toolkit.loop import run

    library = pluggy._hooks.normalize_hookimpl_opts
    monkeypatch.setattr(inspect, "getfile", library)
    assert pristine.changes() == []
    assert check("w10.escape", {"notes/todo.md"}).status == "passed"
    (tmp_path / "my_helpers.py").write_text("def getfile(obj):\n    return 'x'\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    own = importlib.import_module("my_helpers").getfile
    del sys.modules["my_helpers"]  # the module stays alive through `own`
    for replaced in (lambda obj: "x", repr, own, run.run_loop):
        monkeypatch.setattr(inspect, "getfile", replaced)
        assert pristine.changes() == ["inspect.getfile"], replaced


def test_a_builtin_or_standard_function_replaced_before_noting_began_makes_no_check_run(monkeypatch, tmp_path):
    """Before: `builtins.abs = lambda x: 0` in a cell before the first `import toolkit.exercises` (or a function of
    the standard library replaced before the package first imports its module) was noted as Python's own: the
    builtins noted only what was a builtin then, so `abs` was not among them, and w2.backoff gave ✓ to a wait of
    99 s on every attempt. A function of the kernel's own code found there when noting begins is a change from the
    start; Python's own, an installed library's (IPython's `display`) and a name of the kernel's that is no
    function are not."""
    import builtins
    import json

    from toolkit.exercises import pristine

    monkeypatch.setattr(builtins, "abs", lambda x: 0)
    monkeypatch.setattr(json, "dumps", lambda *args, **kwargs: "x")
    monkeypatch.setattr(builtins, "display", print, raising=False)
    monkeypatch.setattr(builtins, "help", None)
    try:
        pristine.again()  # noting begins now, as in a kernel where those cells ran before the first import
        assert pristine.changes() == ["builtins.abs", "json.dumps"]
        result = check("w2.backoff", lambda attempt, retry_after: 99.0)
        assert (result.status, result.feedback) == (
            "failed",
            "code in this kernel changed Python's builtins: builtins.abs (and 1 more) is not Python's own any more, "
            "and the check computes with them — restart the kernel and run the cells again, leaving the builtins as "
            "they are",
        )
    finally:
        monkeypatch.undo()
        pristine.again()
    assert pristine.changes() == []
    assert check("w2.backoff", lambda attempt, retry_after: 99.0).status == "failed"


def test_a_recursion_limit_a_cell_lowered_neither_fails_a_right_answer_nor_stays_raised():
    """Before: after `sys.setrecursionlimit(80)` in a cell (a learner trying recursion out), every check said "your
    answer contains itself (or is nested thousands deep); answer with plain values", right answers too. A check runs
    with Python's default limit at least, and the kernel has its own back after it."""
    import traceback

    low = len(traceback.extract_stack()) + 12  # room for this test's own calls, none for a check's
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(low)
    try:
        right = check("w6.truth_table", lambda behaviors, any_error: _returns_now(behaviors, any_error))
        looped: list = []
        looped.append(looped)
        itself = check("w0.switch", looped)
        after = sys.getrecursionlimit()
    finally:
        sys.setrecursionlimit(before)
    assert (right.status, after) == ("passed", low)
    assert itself.feedback == "your answer contains itself (or is nested thousands deep); answer with plain values"


def _returns_now(behaviors, any_error):
    from toolkit import ReturnBehavior

    if any_error or not behaviors:
        return False
    if behaviors[-1] == ReturnBehavior.IMMEDIATE_IF_LAST:
        return True
    return all(b in (ReturnBehavior.IMMEDIATE, ReturnBehavior.IMMEDIATE_IF_LAST) for b in behaviors)


def test_a_method_of_a_standard_library_class_the_checks_compare_with_makes_no_check_run(monkeypatch):
    """Before: `fractions.Fraction.__eq__ = lambda self, other: True` in a cell made w4.memory_count give ✓ to
    `Fraction(99)` (a Fraction is a number the checks take and compare with ==), and `json.JSONEncoder.encode`
    replaced made right answers fail with "running your answer failed with CallerError: HTTP 400: Missing required
    parameter: 'model'". The members of the classes of answers and of JSON's are noted with the package."""
    import fractions
    import json

    from toolkit.exercises import pristine

    monkeypatch.setattr(fractions.Fraction, "__eq__", lambda self, other: True)
    result = check("w4.memory_count", fractions.Fraction(99))
    assert (result.status, result.feedback) == (
        "failed",
        "code in this kernel changed Python's standard library: fractions.Fraction.__eq__ is not Python's own any "
        "more, and the check computes with it — restart the kernel and run the cells again, leaving the standard "
        "library as it is",
    )
    monkeypatch.setattr(json.JSONEncoder, "encode", lambda self, o: "{}")
    assert pristine.changes() == ["fractions.Fraction.__eq__", "json.JSONEncoder.encode"]
    monkeypatch.undo()
    assert pristine.changes() == []
    assert check("w4.memory_count", fractions.Fraction(7)).status == "passed"
