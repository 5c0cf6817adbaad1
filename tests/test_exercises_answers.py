"""dict_answer_problem / misses / verdict_of: the shape of a dict answer and its misses, by exact text."""

import pytest

from toolkit.exercises import check
from toolkit.exercises.answers import dict_answer_problem, either, matches, misses, verdict_of
from toolkit.exercises.core import Verdict


def test_the_right_shape_is_no_problem():
    assert dict_answer_problem({"a": 1, "b": 2}, ["a", "b"]) is None
    assert dict_answer_problem({"a": True}, ["a"], (True, False)) is None


def test_a_wrong_shape_names_the_keys_or_what_the_checker_expects():
    want = "answer with a dict with exactly these keys: 'a', 'b'"
    for answer in (None, [("a", 1), ("b", 2)]):
        assert dict_answer_problem(answer, ["a", "b"]) == Verdict(False, want)
    assert dict_answer_problem({"a": 1}, ["a", "b"]) == Verdict(False, want + "; the key 'b' is missing")
    assert dict_answer_problem({"a": 1, "b": 2, "c": 3}, ["a", "b"]) == Verdict(
        False, want + "; 'c' is not an expected key"
    )
    assert dict_answer_problem({"a": 1, "B": 2}, ["a", "b"]) == Verdict(
        False, want + "; 'B' is not an expected key: the key is 'b', as written (a key's case and spaces count)"
    )
    assert dict_answer_problem("x", ["a"], expected="the starter's dict") == Verdict(
        False, "answer with the starter's dict"
    )


def test_a_key_retyped_with_a_space_at_its_end_or_another_case_is_told_the_key():
    """Before: "'no variables ' is not an expected key" — the space at its end all but invisible in the quotes, and
    the values of the same answer are read whatever their case and spacing (`'Fake '` is 'fake')."""
    said = {"no variables ": "fake", "all three": "real", "Only LLM_BASE_URL": "error"}
    assert check("w0.switch", said).feedback == (
        "answer with a dict with exactly these keys: 'no variables', 'all three', 'only LLM_BASE_URL'; "
        "'no variables ' is not an expected key: the key is 'no variables', as written (a key's case and spaces count)"
    )


def test_a_value_outside_the_choices_names_its_key_and_the_choices():
    assert dict_answer_problem({"a": "x", "b": "yes"}, "ab", ("x", "y", "z")) == Verdict(
        False, "answer 'x', 'y' or 'z' for 'b', not 'yes'"
    )
    assert dict_answer_problem({"flag": 1}, ["flag"], (True, False)) == Verdict(
        False, "answer True or False for 'flag', not 1"
    )


def test_misses_in_the_order_of_the_real_values():
    answer = {"b": 2, "a": 9, "c": 3}
    found = misses(answer, {"a": 1, "b": 2, "c": 4}, lambda k, said, real: f"{k}: {real}, not {said}")
    assert found == ["a: 1, not 9", "c: 4, not 3"]
    assert verdict_of(found, "fine") == Verdict(False, "a: 1, not 9; c: 4, not 3")
    assert verdict_of([], "fine") == Verdict(True, "fine")


def test_a_real_bool_is_matched_only_by_that_bool():
    assert matches(True, True) and not matches(1, True) and not matches(0, False)
    assert matches(1, 1) and matches(2.0, 2) and matches(None, None) and not matches(None, "x")
    assert either([True, False]) == "True or False" and either(["a"]) == "'a'"


def test_model_calls_refuses_questions_that_are_not_the_starters():
    # before: any two questions without an order id passed (each costs one model call)
    result = check("w3.model_calls", {"what is 1+1": 1, "hi": 1})
    assert not result.passed
    assert result.feedback == (
        "answer with the dict of the starter, two numbers filled in; 'what is 1+1' is not an expected key"
    )


def test_unified_texts_of_a_wrong_shape_and_a_wrong_choice():
    assert check("w3.probe", None).feedback == ("answer with a dict with exactly these keys: 'A', 'B', 'C', 'D', 'E'")
    triage = {
        "HTTP 429 (rate limited)": "retried",
        "HTTP 500 (server error)": "retry",
        "HTTP 400 (mode C rejects tools)": "not retried",
        "a body cut in half": "bad response",
    }
    assert check("w2.triage", triage).feedback == (
        "answer 'retried', 'not retried' or 'bad response' for 'HTTP 500 (server error)', not 'retry'"
    )


def test_both_tool_exercises_say_the_same_when_an_answer_declares_two_tools():
    from toolkit import tool

    class Desk:
        @tool("Look up one order by its id.")
        def query_order(self, order_id: str) -> str:
            return order_id

        @tool("Look up the parcel of one order by its id.")
        def query_logistics(self, order_id: str) -> str:
            return order_id

    for exercise_id in ("w5.fix_arg0", "w5.schema_target"):
        assert check(exercise_id, Desk()).feedback == "answer with one function, not 2 tools"


def test_a_fixed_tool_that_no_longer_takes_the_order_id_as_text_fails():
    """Renaming and describing `arg0` is the fix; making it an int (or a list) passed the lint but
    refuses every order id such as SN202610200001."""
    from typing import Annotated

    from toolkit import Param, tool

    @tool("Look up one order by its id and return its status, items and total.")
    def query_order(order_id: Annotated[int, Param("Order id, e.g. SN202610200001")]) -> str:
        return f"order {order_id}: shipped"

    result = check("w5.fix_arg0", query_order)
    assert result.status == "failed"
    assert result.feedback == (
        "the parameter order_id now takes an integer, but the tool takes an order id such as SN202610200001: "
        "keep it a str, and say what it holds"
    )

    @tool("Look up one order by its id and return its status, items and total.")
    def query_order_text(order_id: Annotated[str, Param("Order id, e.g. SN202610200001")]) -> str:
        return f"order {order_id}: shipped"

    assert check("w5.fix_arg0", query_order_text).feedback.startswith("the model now reads query_order_text(order_id)")


def test_keys_that_hold_commas_are_quoted_and_a_mistyped_key_is_named():
    """w7.when's keys hold commas: joined unquoted, "all succeed, shipment fails, shipment fails,
    compensate=False" read as four keys, and a key with one typo got only that list back."""
    said = {"all succeed": 0, "shipment fails": 2, "shipment fails, compensate = False": 0}
    assert check("w7.when", said).feedback == (
        "answer with a dict with exactly these keys: 'all succeed', 'shipment fails', "
        "'shipment fails, compensate=False'; 'shipment fails, compensate = False' is not an expected key"
    )


# --- a number too long to write out: told so, not "Exceeds the limit (4300 digits)" -----------------


@pytest.mark.parametrize(
    ("exercise_id", "feedback"),
    [
        ("w6.round_trips", "answer with a number of a few digits, not an int of 5001 digits"),
        ("w8.vector_k", "answer with a number of a few digits, not an int of 5001 digits"),
        ("w10.owned_tool", "answer with a request number of a few digits, not an int of 5001 digits"),
        ("w2.truncated", "answer with a number of a few digits, not an int of 5001 digits"),
        (
            "w7.compensation",
            "answer with a function marked @compensates('book_hotel') (its name, without calling it), not an int "
            "of 5001 digits",
        ),
    ],
)
def test_a_number_too_long_to_write_out_is_told_so(exercise_id, feedback):
    result = check(exercise_id, 10**5000)
    assert (result.status, result.feedback) == ("failed", feedback)


def test_a_function_that_returns_a_number_too_long_to_write_out_is_told_its_size():
    result = check("w8.score", lambda name, description, terms: -(10**5000))
    assert result.feedback == (
        "score('respond_to_invitation', …, ['rain', 'tax', 'zzz', 'cancel', 'invitation']) gave an int of 5001 "
        "digits, LangChain4j's rule gives 3"
    )


@pytest.mark.parametrize("huge", [10**400, 10**5000], ids=["401 digits", "5001 digits"])
def test_waits_too_large_for_a_float_are_told_so(huge):
    result = check("w2.waits", [huge, 2])
    assert (result.status, result.feedback) == (
        "failed",
        "a wait in your list is larger than any float: answer with the seconds waited, e.g. [0.5, 1.0]",
    )


@pytest.mark.parametrize("huge", [10**400, 10**5000], ids=["401 digits", "5001 digits"])
def test_a_backoff_that_returns_more_seconds_than_a_float_holds_is_told_so(huge):
    from toolkit.exercises.values import show

    result = check("w2.backoff", lambda attempt, retry_after: huge)
    assert (result.status, result.feedback) == (
        "failed",
        f"wait(1, None) returned {show(huge)}, more than a float holds; return the seconds as a number (an int or a "
        "float)",
    )


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [
        ("w3.unknown_order", "confirm the id."),
        ("w3.unknown_order", "Confirm the ID。"),
        ("w8.found_where", "The search tool result's attributes."),
        ("w9.dotted_name", "`find_customer`"),
        ("w9.dotted_name", '"find_customer"'),
        ("w0.switch", {"no variables": "fake.", "all three": "'real'", "only LLM_BASE_URL": "error!"}),
    ],
)
def test_a_text_answer_written_as_a_sentence_or_quoted_is_the_same_words(exercise_id, answer):
    """A full stop at the end, or quotes around the words, are how a text is written, not another answer:
    'confirm the id.' was told "answer 'status' or 'confirm the id'", a false ✗."""
    assert check(exercise_id, answer).status == "passed"


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [
        ("w9.rename", {"the model calls": "order_lookup()", "the server receives": "`query_order( )`"}),
        ("w7.rollback_order", ["charge_payment()", "reserve_stock()"]),
        (
            "w1.keyword_rules",
            {
                "SN202610200004 发货了吗？": "query_logistics()",
                "数码产品能不能退？": "query_refund_policy()",
                "你好": None,
                "订单 SN202610200001 付了多少钱？": "query_order()",
            },
        ),
    ],
)
def test_a_tool_named_as_it_is_called_is_that_tool(exercise_id, answer):
    """Before: 'order_lookup()' was told "the model calls: not 'order_lookup()'", and 'charge_payment()' "is not a
    tool of this order": the right name, written as code calls it (as w2.timeout already reads 'TransientError()')."""
    result = check(exercise_id, answer)
    assert result.status == "passed", result.feedback


def test_a_call_with_arguments_or_another_name_is_still_not_the_tool():
    said = {"the model calls": "order_lookup(order_id)", "the server receives": "query_order"}
    assert check("w9.rename", said).feedback == "the model calls: not 'order_lookup(order_id)'"
    assert check("w7.rollback_order", ["charge()", "reserve_stock"]).feedback.startswith("'charge()' is not a tool")


@pytest.mark.parametrize(
    ("exercise_id", "items", "said"),
    [
        ("w7.rollback_order", ["charge_payment", "reserve_stock"], "answer with a list of tool names"),
        ("w8.find_query", ["refund", "payment"], "answer with a list of one or two terms"),
    ],
)
def test_a_list_answer_given_as_a_generator_is_told_to_make_it_a_list(exercise_id, items, said):
    """Before: "answer with a list of tool names" and nothing more for `(name for name in names)` — the names may
    be right, in a form that is no list (the other list predictions said so already: `made_a_list`)."""
    assert check(exercise_id, (item for item in items)).feedback == (
        f"{said}, not a generator object: make it one with list(...)"
    )


def test_punctuation_inside_a_text_answer_still_counts():
    assert check("w9.dotted_name", "find.customer").status == "failed"
    assert check("w9.dotted_name", "find.customer.").status == "failed"
    assert check("w3.unknown_order", "confirm").status == "failed"


@pytest.mark.parametrize(
    ("exercise_id", "answer", "feedback"),
    [
        (
            "w2.timeout",
            {"requests sent": 1, "outcome": "TransientError"},
            "the client did not send 1 request — a timeout is transient, so the client tries once more (max_retries=1)",
        ),
        ("w3.model_calls", {"帮我查一下订单 SN202610200001 现在到哪了？": 2, "你好": 2}, "你好: not 2 model calls"),
        (
            "w3.model_calls",
            {"帮我查一下订单 SN202610200001 现在到哪了？": 1, "你好": 1},
            "帮我查一下订单 SN202610200001 现在到哪了？: not 1 model call (you counted tool calls; count model requests)",
        ),
        ("w4.memory_count", 1, "memory does not hold 1 message: count every message it keeps, the system message too"),
        ("w8.vector_k", 1, "it did not return 1 tool"),
        ("w9.dead_server", 1, "provide() did not list 1 tool"),
        ("w9.dead_server", 2, "provide() did not list 2 tools"),
    ],
)
def test_a_count_of_one_is_said_in_the_singular(exercise_id, answer, feedback):
    """'did not send 1 requests', 'not 1 model calls', 'did not list 1 tools': the noun follows the number."""
    assert check(exercise_id, answer).feedback == feedback


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize(
    ("exercise_id", "what"),
    [("w6.course_bound", "a number"), ("w4.memory_count", "a number"), ("w10.owned_tool", "a request number")],
)
def test_a_count_that_is_no_finite_number_is_told_so(exercise_id, what, value):
    """Before: nan was told "COURSE does not hand over that early" or to count "the system message too",
    the misconceptions of a count too small; inf, those of one too large."""
    result = check(exercise_id, value)
    assert (result.status, result.feedback) == ("failed", f"answer with {what} that is finite, not {value!r}")


@pytest.mark.parametrize(
    ("exercise_id", "answer", "feedback"),
    [
        ("w6.course_bound", -5, "answer with a number that is whole, 0 or more, not -5"),
        ("w6.course_bound", 4.5, "answer with a number that is whole, 0 or more, not 4.5"),
        ("w6.round_trips", -1, "answer with a number that is whole, 0 or more, not -1"),
        ("w8.vector_k", 4.5, "answer with a number that is whole, 0 or more, not 4.5"),
        ("w9.dead_server", -3, "answer with a number that is whole, 0 or more, not -3"),
        ("w10.owned_tool", 0, "answer with a request number that is whole, 1 or more, not 0"),
        ("w10.owned_tool", 1.5, "answer with a request number that is whole, 1 or more, not 1.5"),
        ("w4.memory_count", -3, "answer with a number that is whole, 0 or more, not -3"),
    ],
)
def test_a_count_that_is_negative_or_not_whole_is_told_so(exercise_id, answer, feedback):
    """Before: -5 tools was told "COURSE does not hand over that early", 4.5 "the last allowed reply's call
    runs too" or "it did not return 4.5 tools", request 0 "it is not first offered in request 0": the
    misconceptions of a count too small or too large, for what counts nothing."""
    result = check(exercise_id, answer)
    assert (result.status, result.feedback) == ("failed", feedback)


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [("w6.course_bound", 5.0), ("w6.round_trips", __import__("fractions").Fraction(2)), ("w10.owned_tool", 2.0)],
)
def test_a_whole_count_written_as_a_float_or_fraction_still_passes(exercise_id, answer):
    assert check(exercise_id, answer).status == "passed"


@pytest.mark.parametrize(
    ("exercise_id", "task"),
    [
        ("w3.model_calls", "on the embedded gateway, how many model calls does the assistant make for an order "
         "question, and for 你好?"),
        ("w3.unknown_order", "on the embedded gateway, for SN202610209999 (no such order), does the answer give a "
         "status or ask to confirm the id?"),
        ("w4.memory_count", "on the embedded gateway, Alice asks an order question, then says 谢谢: how many messages "
         "does her memory hold (system included)?"),
    ],
)  # fmt: skip
def test_a_prediction_of_what_the_model_chooses_names_the_embedded_gateway(exercise_id, task):
    """These checks ask the embedded gateway's keyword model (offline, the same for every learner).
    Their tasks did not say so: a learner on a real gateway, whose model called no tool or made one
    call more, answered what their notebook showed and was told it was wrong."""
    from toolkit.exercises.core import get

    assert get(exercise_id).task == task
