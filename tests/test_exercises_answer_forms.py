"""Right answers in another form get ✓, near misses ✗ — as twenty different learners write them.

A text answer is the same words whatever the spacing and case; a number may be numpy's, a
Fraction or a Decimal (but True is not 1, and "2" is not 2); a tuple is a list, a frozenset a
set; numpy arrays and a pandas Series are the plain values they hold.
"""

from collections import namedtuple
from decimal import Decimal
from enum import IntEnum, StrEnum
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pandas as pd
import pytest

from toolkit.chat.messages import message_from_openai
from toolkit.exercises import check
from toolkit.exercises.week01 import WIRE

SWITCH = {"no variables": "fake", "all three": "real", "only LLM_BASE_URL": "error"}
TRIAGE = {
    "HTTP 429 (rate limited)": "retried",
    "HTTP 500 (server error)": "retried",
    "HTTP 400 (mode C rejects tools)": "not retried",
    "a body cut in half": "bad response",
}
REQUIRED = {
    "x: int": True,
    "x: int | None": True,
    "x: int = 5": False,
    "x: Annotated[int | None, Param(required=False)]": False,
}


def spaced(answer: dict) -> dict:
    """Each text value with spaces around it and its first letter upper-cased."""
    return {k: f"  {v[0].upper()}{v[1:]} " if isinstance(v, str) else v for k, v in answer.items()}


@pytest.mark.parametrize(
    ("exercise", "answer"),
    [
        ("w0.switch", spaced(SWITCH)),
        ("w0.switch", {k: v.upper() for k, v in SWITCH.items()}),
        ("w2.triage", {**TRIAGE, "HTTP 400 (mode C rejects tools)": "Not  retried"}),
        ("w2.timeout", {"requests sent": 2, "outcome": " TransientError\n"}),
        ("w3.probe", {m: m.lower() for m in "ABCDE"}),
        ("w3.unknown_order", "Confirm the ID "),
        ("w5.channels", {"unknown tool": "Raise", "argument error": " raise", "execution error": "feed  back"}),
        ("w6.if_last", {"query_order, notify_user": "IMMEDIATE", "notify_user, query_order": "Answer"}),
        ("w7.rollback_order", [" charge_payment", "reserve_stock "]),
        ("w8.found_where", "The search tool result's attributes "),
        ("w9.rename", {"the model calls": "order_lookup ", "the server receives": " query_order"}),
        ("w9.dotted_name", " find_customer\n"),
        ("w1.usage_path", " usage.prompt_tokens "),
        ("w4.stream_order", ["ToolCallDelta ", "toolstarted", "ToolFinished", "TextDelta"]),
        ("w3.no_call", {"b03", " A03", "a04", "A05"}),
        ("w10.escape", {" notes/todo.md "}),
    ],
)
def test_a_text_answer_is_the_same_words_whatever_the_spacing_and_case(exercise, answer):
    result = check(exercise, answer)
    assert result.passed, result.feedback


@pytest.mark.parametrize(
    ("exercise", "answer"),
    [
        ("w1.records", "tuple"),
        ("w2.waits", (2, 2)),
        ("w2.waits", np.array([2.0, 2.0])),
        ("w2.waits", [np.int64(2), Decimal("2.0")]),
        ("w2.waits", [Fraction(2), 2]),
        ("w2.truncated", np.int64(0)),
        ("w4.stream_order", ("ToolCallDelta", "ToolStarted", "ToolFinished", "TextDelta")),
        ("w7.rollback_order", ("charge_payment", "reserve_stock")),
        ("w3.no_call", frozenset({"B03", "A03", "A04", "A05"})),
        ("w10.escape", frozenset({"notes/todo.md"})),
        ("w8.hidden_callable", np.True_),
        ("w5.required", {k: np.bool_(v) for k, v in REQUIRED.items()}),
        ("w3.csv_rows", pd.Series({"normal": 15, "edge": 5, "no_call": 5})),
    ],
)
def test_tuples_frozensets_and_the_numbers_of_numpy_fractions_and_decimals_are_plain_answers(exercise, answer):
    if isinstance(answer, str) and answer == "tuple":
        from toolkit.chat.messages import message_from_openai
        from toolkit.exercises.week01 import WIRE

        answer = tuple(message_from_openai(m) for m in WIRE)
    result = check(exercise, answer)
    assert result.passed, result.feedback


@pytest.mark.parametrize("kind", [np.float32, Fraction, lambda x: Decimal(str(x))])
def test_a_wait_returned_as_any_kind_of_real_number_is_compared_by_its_value(kind):
    def wait(attempt, retry_after):
        backoff = min(8.0, 0.5 * 2 ** (attempt - 1))
        return kind(backoff if retry_after is None else min(30.0, max(backoff, retry_after)))

    result = check("w2.backoff", wait)
    assert result.passed, result.feedback


@pytest.mark.parametrize(
    ("exercise", "answer", "feedback"),
    [
        ("w4.immediate", True, "answer with a number, not True"),
        ("w4.memory_count", "7", "answer with a number, not '7'"),
        ("w6.round_trips", None, "answer with a number, not None"),
        ("w9.dead_server", [3], "answer with a number, not [3]"),
        ("w8.vector_k", "5", "answer with a number, not '5'"),
        ("w10.owned_tool", "2", "answer with a request number, not '2'"),
        ("w4.repair_requests", np.True_, "answer with a number, not True"),
    ],
)
def test_a_number_question_answered_with_something_else_says_so_and_keeps_the_number_to_itself(
    exercise, answer, feedback
):
    result = check(exercise, answer)
    assert (result.status, result.feedback) == ("failed", feedback)


def test_true_is_not_one_and_false_is_not_zero_in_a_dict_of_numbers():
    calls = check("w3.model_calls", {"帮我查一下订单 SN202610200001 现在到哪了？": 2, "你好": True})
    assert not calls.passed and calls.feedback == "你好: answer with a number, not True"
    when = check("w7.when", {"all succeed": False, "shipment fails": 2, "shipment fails, compensate=False": 0})
    assert not when.passed and when.feedback == "all succeed: answer with a number, not False"


def test_spacing_case_and_container_are_forgiven_but_a_different_answer_is_not():
    assert check("w3.unknown_order", " Confirm the id").passed
    assert not check("w0.switch", {**SWITCH, "only LLM_BASE_URL": "fake"}).passed
    assert not check("w3.unknown_order", "the status").passed
    assert not check("w9.dotted_name", "find-customer").passed
    assert not check("w7.rollback_order", ("reserve_stock", "charge_payment")).passed
    assert not check("w10.escape", {"Notes/todo.md"}).passed  # a path is not read case-insensitively
    assert not check("w2.waits", (2, 2, 2)).passed
    assert not check("w3.no_call", frozenset({"B03", "A03", "A04"})).passed


def test_a_set_answer_of_things_that_are_not_texts_says_what_to_answer():
    assert check("w3.no_call", [["B03"]]).feedback == "answer with a set of case ids"
    assert check("w10.escape", {1, 2}).feedback == "answer with a set of paths"


def test_a_group_the_csv_does_not_have_is_a_wrong_prediction():
    result = check("w3.csv_rows", {"normal": 15, "edge": 5, "no_call": 5, "refunds": 3})
    assert (result.status, result.feedback) == (
        "failed",
        "the CSV has no group 'refunds'; answer for normal, edge, no_call only",
    )


def test_the_standard_librarys_other_containers_are_the_plain_ones_they_stand_for():
    import collections
    import types

    assert check("w0.switch", types.MappingProxyType(SWITCH)).passed
    assert check("w0.switch", collections.UserDict(SWITCH)).passed
    assert check("w7.rollback_order", collections.deque(["charge_payment", "reserve_stock"])).passed
    assert check("w3.no_call", dict.fromkeys(["B03", "A03", "A04", "A05"]).keys()).passed
    assert not check("w7.rollback_order", collections.deque(["reserve_stock", "charge_payment"])).passed


@pytest.mark.parametrize(
    "path",
    [
        "$.usage.prompt_tokens",
        'usage["prompt_tokens"]',
        "['usage']['prompt_tokens']",
        "/usage/prompt_tokens",
        "usage/prompt_tokens",
        "`usage.prompt_tokens`",  # as the feedback and the notebook write a path: was "no '`usage' at the top level"
        "'usage.prompt_tokens'",
        "“usage.prompt_tokens”",
    ],
)
def test_a_path_in_jsonpath_bracket_or_pointer_form_is_the_dotted_path(path):
    result = check("w1.usage_path", path)
    assert result.passed, result.feedback


def test_a_path_index_written_with_a_digit_that_is_no_number_is_told_the_indexes():
    # '²' is a digit to str.isdigit but int('²') fails: was "running your answer failed with ValueError"
    assert check("w1.usage_path", "choices.²").feedback == (
        "the body has no '²' under 'choices'; that is a list of 1, so use an index from 0 to 0"
    )
    assert check("w1.usage_path", "choices.０.message").feedback == (
        "'choices.０.message' is an object, not the input token count; its keys are ['content', 'refusal', 'role']"
    )


def test_a_bracketed_path_to_the_wrong_number_is_still_wrong():
    assert check("w1.usage_path", 'usage["completion_tokens"]').feedback == (
        "completion_tokens are the tokens the model wrote (output), not the ones it read"
    )


def test_none_written_as_text_is_none():
    from toolkit.exercises.week01 import QUESTIONS

    called = ["query_logistics", "query_refund_policy", " none", "query_order"]
    assert check("w1.keyword_rules", dict(zip(QUESTIONS, called, strict=True))).passed
    called[2] = "nothing"
    assert not check("w1.keyword_rules", dict(zip(QUESTIONS, called, strict=True))).passed


@pytest.mark.parametrize("outcome", ["toolkit.errors.TransientError", "TRANSIENT"])
def test_an_outcome_named_by_its_class_or_its_dotted_name_is_that_class(outcome):
    from toolkit.errors import TransientError

    said = TransientError if outcome == "TRANSIENT" else outcome
    result = check("w2.timeout", {"requests sent": 2, "outcome": said})
    assert result.passed, result.feedback


def test_stream_kinds_given_as_the_event_classes_are_their_names():
    from toolkit.chat.sse import TextDelta, ToolCallDelta
    from toolkit.loop.records import ToolFinished, ToolStarted

    result = check("w4.stream_order", [ToolCallDelta, ToolStarted, ToolFinished, TextDelta])
    assert result.passed, result.feedback


FUNCTION_EXERCISES = [
    "w1.usage_build",
    "w2.backoff",
    "w3.normalize",
    "w6.truth_table",
    "w6.window",
    "w8.score",
    "w9.chain",
    "w10.skill_folder",
]


@pytest.mark.parametrize("exercise", FUNCTION_EXERCISES)
@pytest.mark.parametrize(("answer", "shown"), [(3, "3"), (None, "None"), ("keep", "'keep'"), ([1, 2], "[1, 2]")])
def test_a_function_exercise_answered_with_something_else_says_what_to_answer_not_that_it_crashed(
    exercise, answer, shown
):
    """Before: "running your answer failed with TypeError: expected a function, got int" — worded
    like a crash of the learner's code, where the other checks say what to answer with."""
    result = check(exercise, answer)
    assert (result.status, result.feedback) == (
        "failed",
        f"answer with a function (its name, without calling it), not {shown}",
    )
    assert result.hint  # a failed try: the hint follows


def test_an_outcome_given_as_the_exception_chat_raised_is_its_class():
    """`except ModelCallError as error: outcome = error` read "chat() did not end with TransientError(...)"."""
    from toolkit.errors import TransientError

    assert check("w2.timeout", {"requests sent": 2, "outcome": TransientError("timed out")}).passed
    result = check("w2.timeout", {"requests sent": 2, "outcome": ValueError("boom")})
    assert result.feedback == (
        "chat() did not end with 'ValueError' — use 'answer' or the class name of the exception chat() raises "
        "(type(error).__name__)"
    )


def test_search_terms_given_as_a_set_are_the_terms():
    """A set of terms (their order never changes a score) read "answer with a list of one or two terms"."""
    assert check("w8.find_query", {"refund", "payment"}).passed
    assert check("w8.find_query", frozenset({"payment"})).feedback.startswith("keyword search returns ")
    assert check("w8.find_query", {"refund", "payment", "order"}).feedback == (
        "answer with a list of one or two terms; yours has 3"
    )


def test_a_dict_answer_given_as_a_simple_namespace_is_told_to_be_a_dict():
    """types.SimpleNamespace read "a class of your own that can decide == by its own code": it is the
    standard library's, and the answer wanted is a dict."""
    import types

    answer = types.SimpleNamespace(**{"requests sent": 2, "outcome": "TransientError"})
    assert check("w2.timeout", answer).feedback == (
        "answer with a dict with exactly these keys: 'requests sent', 'outcome'"
    )


def test_readable_paths_given_as_path_objects_are_their_texts():
    """A set of pathlib paths read "answer with a set of paths": it was one."""
    from pathlib import Path, PurePosixPath, PureWindowsPath

    assert check("w10.escape", {Path("notes/todo.md")}).passed
    assert check("w10.escape", [PureWindowsPath("notes\\todo.md")]).passed
    assert check("w10.escape", {PurePosixPath("notes/todo.md"), Path("../../secret.txt")}).feedback == (
        "refused: ['../../secret.txt']"
    )


@pytest.mark.parametrize("path", ["todo.md", "./notes/todo.md", "Notes/todo.md", "notes\\todo.md"])
def test_a_path_that_is_none_of_paths_is_told_so_not_that_the_tool_refused_it(path):
    """The check reads only the paths of PATHS: 'refused: ['todo.md']' said of a path it never tried."""
    assert check("w10.escape", {path}).feedback == (
        f"{path!r} is not one of PATHS; answer with those of its paths that can be read, as PATHS writes them"
    )


@pytest.mark.parametrize(
    "path",
    ["usage[" + " " * 3000 + "x", "usage[" + "\n" * 3000 + "x", "[ " * 3000 + "x"],
    ids=["spaces", "line breaks", "brackets"],
)
def test_a_path_of_a_bracket_then_thousands_of_spaces_is_read_at_once(deadline, path):
    """Before: the bracket's pattern (`\\[\\s*…([^\\]'"]*?)\\s*\\]`) tried every way to share a run of spaces
    between its three parts — cubic: 2,000 spaces took 9 s, 3,000 past any watchdog, and the check's time
    limit then asked whether the learner's code loops forever. The deadline is a watchdog, not a measure."""
    result = check("w1.usage_path", path)
    assert result.status == "failed"
    assert result.feedback.startswith("the body has no "), result.feedback


@pytest.mark.parametrize("outcome", ["TransientError()", "toolkit.errors.TransientError()", " TransientError( ) "])
def test_an_outcome_written_as_a_call_of_its_class_is_that_class(outcome):
    """Was "chat() did not end with 'TransientError()' — use 'answer' or the class name of the exception
    chat() raises": the class named right, written as it is raised."""
    result = check("w2.timeout", {"requests sent": 2, "outcome": outcome})
    assert result.passed, result.feedback


def test_an_outcome_in_other_letter_case_is_told_its_misconception():
    """'transienterror' passes, as any text answer in any case; httpx's 'readtimeout' was told only 'use the
    class name of the exception chat() raises', its misconception kept for 'ReadTimeout'."""
    assert check("w2.timeout", {"requests sent": 2, "outcome": "readtimeout"}).feedback == (
        "chat() did not end with 'ReadTimeout' — httpx's timeout is caught and raised as one of the client's own "
        "three kinds, once the retries run out"
    )


@pytest.mark.parametrize(
    ("exercise_id", "answer", "said"),
    [
        (
            "w1.records",
            lambda: (message_from_openai(m) for m in WIRE),
            "answer with a list of records, not a generator object: make it one with list(...)",
        ),
        (
            "w1.records",
            lambda: map(message_from_openai, WIRE),
            "answer with a list of records, not a map object: make it one with list(...)",
        ),
        (
            "w2.waits",
            lambda: (float(s) for s in "22"),
            "answer with a list of numbers (ints or floats), e.g. [0.5, 1.0], not a generator object: make it one "
            "with list(...)",
        ),
        (
            "w4.stream_order",
            lambda: iter(["ToolCallDelta"]),
            'answer with a list of kind names, e.g. ["TextDelta"], not a list_iterator object: make it one with '
            "list(...)",
        ),
    ],
)
def test_a_list_answer_given_as_an_iterator_is_told_to_make_it_a_list(exercise_id, answer, said):
    """Was only "answer with a list of records" of `map(message_from_openai, WIRE)`: the records were
    there, in a form the learner did not see was not a list."""
    assert check(exercise_id, answer()).feedback == said


class OrderId(str):
    pass


class Count(int):
    pass


class Outcome(StrEnum):
    RETRIED = "retried"
    NOT_RETRIED = "not retried"
    BAD_RESPONSE = "bad response"


class Fragments(IntEnum):
    NONE = 0


class Waits(NamedTuple):
    first: float
    second: float


class Names(list):
    pass


class Rows(dict):
    pass


class Ids(frozenset):
    pass


@pytest.mark.parametrize(
    ("exercise", "answer"),
    [
        ("w9.dotted_name", OrderId("find_customer")),
        ("w2.truncated", Count(0)),
        ("w2.truncated", Fragments.NONE),
        ("w2.triage", {k: Outcome(v) for k, v in TRIAGE.items()}),
        ("w2.waits", Waits(2.0, 2.0)),
        ("w2.waits", namedtuple("Waited", "first second")(2, 2)),
        ("w7.rollback_order", Names(["charge_payment", "reserve_stock"])),
        ("w3.csv_rows", Rows(normal=15, edge=5, no_call=5)),
        ("w3.no_call", Ids(OrderId(i) for i in ("B03", "A03", "A04", "A05"))),
        ("w2.timeout", {"requests sent": Count(2), "outcome": OrderId("TransientError")}),
    ],
)
def test_a_learners_subclass_of_a_plain_value_is_the_value_it_holds(exercise, answer):
    """Was "your answer holds an Outcome, a class of your own that can decide == by its own code": a StrEnum, an
    IntEnum, a namedtuple, `class OrderId(str): pass` decide == by str's, int's, tuple's own. Such an object is read
    as the value it holds, by its base's code (nothing of the learner's class runs)."""
    result = check(exercise, answer)
    assert (result.status, result.feedback[:0]) == ("passed", "")


class Claims(str):
    """Reads as the right path by every method of its own; holds another text."""

    def __str__(self):
        return "usage.prompt_tokens"

    def strip(self, *chars):
        return "usage.prompt_tokens"

    def split(self, *args):
        return ["usage", "prompt_tokens"]


class Counts(dict):
    """Says it holds the right rows; holds one of each."""

    def items(self):
        return {"normal": 15, "edge": 5, "no_call": 5}.items()

    def __getitem__(self, key):
        return {"normal": 15, "edge": 5, "no_call": 5}[key]

    def get(self, key, default=None):
        return {"normal": 15, "edge": 5, "no_call": 5}[key]


class Backwards(list):
    def __iter__(self):
        return iter(["charge_payment", "reserve_stock"])


@pytest.mark.parametrize(
    ("exercise", "answer", "said"),
    [
        (
            "w1.usage_path",
            Claims("usage"),
            "'usage' is an object, not the input token count; its keys are ['completion_tokens', "
            "'completion_tokens_details', 'prompt_tokens', 'prompt_tokens_details', 'total_tokens']",
        ),
        (
            "w3.csv_rows",
            Counts(normal=1, edge=1, no_call=1),
            "the CSV written by write_csv has 25 rows; yours add up to 3 — check each group",
        ),
        ("w7.rollback_order", Backwards(["reserve_stock"]), "the saga log does not list ['reserve_stock']"),
        (
            "w9.dotted_name",
            type("Liar", (str,), {"__eq__": lambda self, other: True, "__hash__": str.__hash__})("x"),
            "your answer holds a Liar, a class of your own that can decide == by its own code; answer with plain "
            "values or the package's objects",
        ),
    ],
)
def test_a_subclass_of_a_plain_value_is_read_by_its_base_not_by_its_own_methods(exercise, answer, said):
    """What such an object holds is what is checked: its own `__str__`, `items`, `__iter__` do not run, so they
    cannot make a wrong answer read as the right one; one that writes its own == is still refused."""
    assert (check(exercise, answer).status, check(exercise, answer).feedback) == ("failed", said)


@pytest.mark.parametrize("key", ["int", "int, 27", "('int', '27')"])
def test_a_coercion_row_written_as_a_text_key_is_told_it_is_not_a_key(key):
    """Was "running your answer failed with AttributeError: 'tuple' object has no attribute 'split'": the rows'
    keys are tuples, and the look for a key written in another case or spacing read each as a text."""
    result = check("w5.coercion", {key: True})
    assert (result.status, result.feedback) == (
        "failed",
        f"answer with the starter's dict, True or False per row; {key!r} is not an expected key",
    )


@pytest.mark.parametrize("empty", ["", "   "])
def test_a_rollback_order_holding_an_empty_name_is_told_it_is_no_tool(empty):
    """Was "running your answer failed with TypeError: '<' not supported between instances of 'NoneType' and
    'str'": an empty name reads as false, so the look for a name that is no tool passed it over."""
    result = check("w7.rollback_order", ["charge_payment", "reserve_stock", empty])
    assert (result.status, result.feedback) == (
        "failed",
        f"{empty!r} is not a tool of this order: answer with tool names (reserve_stock, charge_payment, "
        "create_shipment)",
    )
