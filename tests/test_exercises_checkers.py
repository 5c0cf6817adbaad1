"""Checkers that must not be fooled: a hard-coded or argument-blind answer fails, the reference
solution agrees with the package, a value of the wrong type is named, and feedback says what is wrong."""

import pytest

from toolkit import compensates
from toolkit.exercises import check, get
from toolkit.exercises.week07 import BOOKINGS

# --- w7.compensation: undo this call's booking, nothing else -------------------------------------


def compensation_of(undo):
    @compensates("book_hotel")
    def cancel(guest: str, nights: int) -> None:
        undo(guest, nights)

    return cancel


def test_the_reference_compensation_passes():
    result = check("w7.compensation", compensation_of(lambda guest, nights: BOOKINGS.remove((guest, nights))))
    assert (result.status, result.feedback) == (
        "passed",
        "each call's own booking undone on failure, kept on success, nobody else's touched.",
    )


def test_a_compensation_that_removes_a_fixed_booking_fails():
    result = check("w7.compensation", compensation_of(lambda guest, nights: BOOKINGS.remove(("alice", 2))))
    assert result.feedback == (  # said once, and what a booking is
        "your compensation failed: ValueError: list.remove(x): x not in list — what your code looked for is not in "
        "BOOKINGS: each booking is the tuple (guest, nights) book_hotel appended for its own call, in that order; a "
        "list [guest, nights] never equals one, and another call's booking is not this call's"
    )


def test_a_compensation_that_reports_its_own_failure_is_told_so_once():
    from toolkit.tools.execute import ToolOutput

    @compensates("book_hotel")
    def cancel(guest: str, nights: int) -> ToolOutput:
        return ToolOutput(f"no booking for {guest}", is_error=True)

    result = check("w7.compensation", cancel)
    assert result.feedback == "your compensation reported a failure: no booking for carol"


def test_a_compensation_that_removes_the_last_booking_fails():
    result = check("w7.compensation", compensation_of(lambda guest, nights: BOOKINGS.pop()))
    assert result.feedback == (
        "after the rollback erin's booking of 1 night is gone, but no undone call booked it: undo only this "
        "call's effect — the booking with its own guest and nights"
    )


def test_a_compensation_that_removes_the_guests_first_booking_fails():
    def first_of_guest(guest, nights):
        BOOKINGS.remove(next(b for b in BOOKINGS if b[0] == guest))

    result = check("w7.compensation", compensation_of(first_of_guest))
    assert result.feedback == (
        "after the rollback alice's booking of 3 nights is gone, but no undone call booked it: undo only this "
        "call's effect — the booking with its own guest and nights"
    )


def test_a_compensation_that_does_nothing_names_the_bookings_left():
    result = check("w7.compensation", compensation_of(lambda guest, nights: None))
    assert result.feedback == (
        "after the rollback alice's booking of 2 nights and carol's booking of 4 nights are still in BOOKINGS: "
        "each undone call must remove its own booking"
    )


def test_a_compensation_that_removes_every_equal_booking_fails():
    def every_equal(guest, nights):  # Carol's earlier stay of the same nights goes with the trip's
        BOOKINGS[:] = [b for b in BOOKINGS if b != (guest, nights)]

    result = check("w7.compensation", compensation_of(every_equal))
    assert (result.status, result.feedback) == (
        "failed",
        "after the rollback carol's earlier booking of 4 nights is gone too: an undone call removes its own booking "
        "— one, not every equal one",
    )


def test_a_compensation_that_empties_the_bookings_is_told_what_else_went_not_equal_ones():
    """BOOKINGS.clear() took everyone's stays: it was told only that Carol's earlier stay of the same nights
    went too, "one, not every equal one" — a diagnosis of another mistake."""
    result = check("w7.compensation", compensation_of(lambda guest, nights: BOOKINGS.clear()))
    assert result.feedback == (
        "after the rollback alice's booking of 3 nights and erin's booking of 1 night and someone else's booking "
        "of 3 nights are gone, but no undone call booked them: undo only this call's effect — the booking with "
        "its own guest and nights"
    )


@pytest.mark.parametrize(
    ("undo", "said"),
    [
        (lambda guest, nights: BOOKINGS.append(f"cancelled {guest}"), "'cancelled carol'"),
        (
            lambda guest, nights: BOOKINGS.append({"guest": guest, "nights": nights, "cancelled": True}),
            "{'guest': 'carol', 'nights': 4, 'cancelled': True}",
        ),
        (lambda guest, nights: BOOKINGS.append((guest, -nights)), "('carol', -4)"),
        (
            lambda guest, nights: (BOOKINGS.remove((guest, nights)), BOOKINGS.append(("cancelled", guest, nights))),
            "('cancelled', 'carol', 4)",
        ),
        (lambda guest, nights: (BOOKINGS.remove((guest, nights)), BOOKINGS.append([guest, nights])), "['carol', 4]"),
    ],
)
def test_a_compensation_that_adds_to_the_bookings_is_told_what_it_added(undo, said):
    """A cancellation recorded beside the booking (a text, a marked dict, a negative stay; Carol's is undone
    first) was 'running your answer failed with TypeError: unhashable type' or '… not supported between
    instances', or named as a booking 'still in BOOKINGS' that no call had made: the check's sorting failed."""
    result = check("w7.compensation", compensation_of(undo))
    assert (result.status, result.feedback) == (
        "failed",
        f"after the rollback BOOKINGS holds {said} and 1 more, which no call booked: your compensation added them "
        "— undo book_hotel by removing its booking, the (guest, nights) it appended, not by adding to BOOKINGS",
    )


# --- w3.normalize: the reference solution is the package's rule ---------------------------------


def reference_normalize():
    namespace: dict = {}
    exec(get("w3.normalize").solution.replace('check("w3.normalize", normalize)', ""), namespace)
    return namespace["normalize"]


def test_the_reference_normalize_agrees_with_validation_on_every_input():
    from toolkit.course.validation import Rejected, normalize_order_id
    from toolkit.exercises.week03 import ORDER_ID_INPUTS

    def package(raw):
        try:
            return normalize_order_id(raw)
        except Rejected:
            return None

    normalize = reference_normalize()
    assert [normalize(raw) for raw in ORDER_ID_INPUTS] == [package(raw) for raw in ORDER_ID_INPUTS]
    assert check("w3.normalize", normalize).passed


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (  # the reference solution as it was: 订单号 with ：or : only
            "^订单号?\\s*[:：是为]?\\s*",
            "^订单号\\s*[:：]?\\s*",
            "normalize('订单号是SN202610200001') returned None, validation accepts it as 'SN202610200001'",
        ),
        (  # \d takes any Unicode digit
            "SN[0-9]{12}",
            "SN\\d{12}",
            "normalize('SN٢٠٢٦١٠٢٠٠٠٠١') returned 'SN٢٠٢٦١٠٢٠٠٠٠١', but validation rejects it",
        ),
        (  # full-width digits only: the full-width letters ＳＮ stay, and the id is rejected
            '"\\uff01" <= c <= "\\uff5e"',
            '"\\uff10" <= c <= "\\uff19"',
            "normalize('ＳＮ２０２６１０２００００１') returned None, validation accepts it as 'SN202610200001'",
        ),
    ],
)
def test_the_old_reference_a_unicode_digit_rule_and_half_a_full_width_rule_fail(old, new, said):
    source = get("w3.normalize").solution.replace('check("w3.normalize", normalize)', "")
    assert old in source
    namespace: dict = {}
    exec(source.replace(old, new), namespace)
    assert check("w3.normalize", namespace["normalize"]).feedback.startswith(said)


# --- numbers: an int or a float, not a bool or a string -----------------------------------------


def test_a_backoff_returning_strings_or_none_is_told_to_return_a_number():
    def as_text(attempt, retry_after):
        return str(min(8.0, 0.5 * 2 ** (attempt - 1)) if retry_after is None else 0.0)

    assert check("w2.backoff", as_text).feedback == (
        "wait(1, None) returned '0.5'; return the seconds as a number (an int or a float)"
    )
    assert check("w2.backoff", lambda attempt, retry_after: None).feedback == (
        "wait(1, None) returned None; return the seconds as a number (an int or a float) — does your function "
        "print its answer instead of returning it?"
    )


def test_a_backoff_is_quoted_as_it_returned_the_number():
    from decimal import Decimal

    # was 'returned -1.0' and 'returned inf': the float the check made of it, not what the function returned
    assert check("w2.backoff", lambda attempt, retry_after: -1).feedback == (
        "wait(1, None) returned -1, RetryPolicy().wait gives 0.5"
    )
    assert check("w2.backoff", lambda attempt, retry_after: Decimal("Infinity")).feedback == (
        "wait(1, None) returned Decimal('Infinity'), RetryPolicy().wait gives 0.5 — the backoff is capped at 8.0 s"
    )


def test_false_is_not_a_number_of_tool_calls():
    assert check("w2.truncated", False).feedback == "answer with a number of tool calls, e.g. 3, not False"
    assert check("w2.truncated", 0).passed


def test_csv_rows_that_no_float_can_add_up_are_told_the_rows_differ():
    """A count beyond a float was "running your answer failed with OverflowError: int too large to convert
    to float": the sum shown in the feedback could not be written."""
    assert check("w3.csv_rows", {"normal": 15, "edge": 5, "no_call": 10**400}).feedback == (
        "the CSV written by write_csv has 25 rows; yours do not add up to it — check each group"
    )


def test_waits_must_be_numbers():
    assert check("w2.waits", ["2", "2"]).feedback == "answer with a list of numbers (ints or floats), e.g. [0.5, 1.0]"
    assert check("w2.waits", [2, 2.0]).passed


# --- BaseException from the learner's code: a failed try, never a traceback ----------------------


class Boom(BaseException):
    pass


def test_a_base_exception_of_the_learners_own_is_a_failed_try():
    def learner(behaviors, any_error):
        raise Boom("bye")

    result = check("w6.truth_table", learner)
    assert (result.status, result.feedback) == ("failed", "your code raised Boom: bye")


@pytest.mark.parametrize(("error", "named"), [(SystemExit(4), "SystemExit: 4"), (Boom("bye"), "Boom: bye")])
def test_a_returned_value_that_raises_inside_the_check_is_a_failed_try(error, named):
    class Falsy:
        def __bool__(self):
            raise error

    result = check("w6.truth_table", lambda behaviors, any_error: Falsy())
    assert (result.status, result.feedback) == ("failed", f"running your answer failed with {named}")


def test_ctrl_c_still_stops_the_cell():
    def learner(behaviors, any_error):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        check("w6.truth_table", learner)


# --- == decided by the learner's code, through a trusted base class -------------------------------


def test_a_userlist_whose_data_is_equal_to_everything_is_a_failed_try():
    from collections import UserDict, UserList

    class Liar:
        def __eq__(self, other):
            return True

    class Answer(UserList):
        @property
        def data(self):
            return Liar()

        @data.setter
        def data(self, value):
            pass

    result = check("w6.round_trips", Answer())
    assert (result.status, result.feedback) == (
        "failed",
        "your answer holds an Answer, a class of your own that can decide == by its own code; answer with plain "
        "values or the package's objects",
    )
    assert not check("w3.unknown_order", type("Mapping", (UserDict,), {})()).passed


def test_a_learners_class_with_identity_equality_is_still_an_answer():
    from toolkit.exercises.values import untrusted_class

    class Plain:
        pass

    assert untrusted_class([Plain(), Plain]) is None


# --- feedback that says what is wrong ----------------------------------------------------------


@pytest.mark.parametrize(("exercise_id", "answer"), [("w8.hidden_callable", 1), ("w8.repeat_search", 0)])
def test_a_yes_no_question_answered_with_a_number_asks_for_true_or_false(exercise_id, answer):
    assert check(exercise_id, answer).feedback == f"answer True or False, not {answer}"


def test_required_answered_with_numbers_asks_for_true_or_false():
    from toolkit.exercises.week05 import DECLARATIONS

    answer = dict.fromkeys(DECLARATIONS, 1)
    assert check("w5.required", answer).feedback == "answer True or False for 'x: int', not 1"


def test_if_last_with_other_keys_names_the_starters_keys():
    assert check("w6.if_last", {"a": "answer", "b": "answer"}).feedback == (
        "answer with the starter's dict: its keys ['query_order, notify_user', 'notify_user, query_order']; "
        "'a' is not an expected key"
    )


def test_declare_with_the_parameters_swapped_says_so():
    from typing import Annotated, Protocol

    from toolkit import MemoryId, UserText

    class Assistant(Protocol):
        def chat(self, question: Annotated[str, UserText], uid: Annotated[str, MemoryId]) -> str: ...

    assert check("w4.declare", Assistant).feedback == (
        "chat() takes the user id first, then the question, and MemoryId marks the user id; yours marks its second "
        'parameter, \'uid\' (chat("alice", "我叫 Alice") used the question as the memory id)'
    )


def test_declare_whose_chat_has_a_body_says_the_body_is_kept_and_the_model_never_asked():
    from typing import Annotated, Protocol

    from toolkit import MemoryId, UserText

    class Assistant(Protocol):
        def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str:
            return "hi"

        def other(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

    # was "chat() should return the answer as a str, it returned 'hi'; declare the method -> str" (it is)
    assert check("w4.declare", Assistant).feedback == (
        "chat() has a body of its own, which ai_service keeps as written (as LangChain4j runs an interface's "
        "default method), so the model is never asked; write its body as ..."
    )


def test_declare_answered_with_what_is_not_the_class_says_what_it_is():
    from typing import Annotated, Protocol

    import toolkit
    from toolkit import MemoryId, UserText, ai_service, memory_per_id
    from toolkit.chat.scripted import ScriptedModel

    class Assistant(Protocol):
        def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

    class Desk:
        def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

    service = ai_service(Assistant, model=ScriptedModel(["好"]), memory=memory_per_id())
    # was 'not Desk' (the class's own name, for its instance), 'not AssistantService', 'not module', 'not function'
    assert check("w4.declare", Desk()).feedback == (
        "answer with the class itself, not an instance of it: answer = Desk, without the ()"
    )
    assert check("w4.declare", service).feedback == (
        "answer with the class itself (Assistant), not the service ai_service() made of it: the check makes its "
        "own, with a scripted model"
    )
    assert check("w4.declare", toolkit).feedback == "answer with the class itself, not the module toolkit"
    assert check("w4.declare", Assistant.chat).feedback == "answer with the class itself, not a function named chat"
    assert check("w4.declare", None).feedback == "answer with the class itself, not None"
    assert check("w4.declare", Desk).passed


def test_declare_with_the_question_in_a_user_message_template_passes():
    from typing import Annotated, Protocol

    from toolkit import MemoryId, V, user_message

    class Assistant(Protocol):
        @user_message("顾客说：{{question}}")
        def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, V("question")]) -> str: ...

    class Shared(Protocol):  # the same template, one conversation for everyone: still told
        @user_message("顾客说：{{question}}")
        def chat(self, user_id: str, question: Annotated[str, V("question")]) -> str: ...

    # was "Alice's second question was sent without her first: is the user id marked MemoryId?" (it is)
    result = check("w4.declare", Assistant)
    assert result.passed, result.feedback
    assert not check("w4.declare", Shared).passed


def test_a_usage_path_that_stops_inside_usage_lists_the_keys_of_usage():
    feedback = check("w1.usage_path", "usage.input_tokens").feedback
    assert feedback == (
        "the body has no 'input_tokens' under 'usage'; the keys there are "
        "['completion_tokens', 'completion_tokens_details', 'prompt_tokens', 'prompt_tokens_details', 'total_tokens']"
    )


@pytest.mark.parametrize(
    ("fourth", "said"),
    [
        ("None", "message 4 has role 'user': that is a UserMessage, you wrote None"),
        (
            "UserMessage",
            "message 4 has role 'user': that is a UserMessage, you wrote the class UserMessage itself, not a record made with it",
        ),
        (
            "SystemMessage",
            "message 4 has role 'user': that is a UserMessage, you wrote the class SystemMessage itself, not a record made with it",
        ),
    ],
)
def test_records_with_none_or_a_class_where_a_record_goes_say_what_was_written(fourth, said):
    """Before: 'you wrote a NoneType', 'you wrote a ModelMetaclass' (a class left uncalled)."""
    from toolkit import AssistantMessage, SystemMessage, UserMessage
    from toolkit.exercises.week01 import WIRE

    first = [SystemMessage(content=WIRE[0]["content"]), UserMessage(content=WIRE[1]["content"])]
    last = {"None": None, "UserMessage": UserMessage, "SystemMessage": SystemMessage}[fourth]
    answer = [*first, AssistantMessage(content=WIRE[2]["content"]), last]
    assert check("w1.records", answer).feedback == said


@pytest.mark.parametrize(
    ("path", "said"),
    [
        (
            "usage",
            "'usage' is an object, not the input token count; its keys are ['completion_tokens', "
            "'completion_tokens_details', 'prompt_tokens', 'prompt_tokens_details', 'total_tokens']",
        ),
        ("choices", "'choices' is a list of 1, not the input token count; go on with an index from 0 to 0"),
    ],
)
def test_a_usage_path_that_stops_at_an_object_or_a_list_says_to_go_on_without_its_values(path, said):
    """Before: 'that path holds {'prompt_tokens': 2, ...}, not the input token count (2)': every value of
    usage (or the whole reply) in one long line, the input count beside its key — the answer read off it."""
    assert check("w1.usage_path", path).feedback == said


def test_a_skill_folder_made_by_a_function_that_keeps_the_starters_return_is_checked():
    def make_skill(root):
        folder = root / "gift-wrapping"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            "---\nname: gift-wrapping\ndescription: Use when a customer asks to gift-wrap.\n---\nAsk for the text.\n",
            encoding="utf-8",
        )
        return ...

    assert check("w10.skill_folder", make_skill).passed
    assert check("w10.skill_folder", lambda root: ...).status == "not attempted"


def test_a_rollback_order_with_a_name_that_is_no_tool_names_it():
    """A typo, or the compensations' names instead of the tools', read "the saga log does not list
    [...]", as if the order were wrong."""
    tools = "(reserve_stock, charge_payment, create_shipment)"
    assert check("w7.rollback_order", ["charge_payment", "reserve_stok"]).feedback == (
        f"'reserve_stok' is not a tool of this order: answer with tool names {tools}"
    )
    assert check("w7.rollback_order", ["refund_payment", "release_stock"]).feedback == (
        f"'refund_payment' is not a tool of this order: answer with tool names {tools}"
    )
    assert check("w7.rollback_order", ["Charge_Payment", " reserve_stock"]).passed


def test_a_skill_without_instructions_is_told_only_that():
    """A SKILL.md with a description but an empty body read "the skill needs a description (level 0)
    and instructions in its body (level 1)": the description was there."""

    def make_skill(root):
        folder = root / "gift-wrapping"
        folder.mkdir()
        (folder / "SKILL.md").write_text("---\nname: gift-wrapping\ndescription: Wrap gifts.\n---\n  \n")

    assert check("w10.skill_folder", make_skill).feedback == (
        "the skill has no instructions: write them in SKILL.md after the front matter's closing `---` "
        "(its body, level 1)"
    )


def test_an_escape_answer_of_empty_braces_is_told_it_is_a_dict():
    """`{}` — "none can be read" — is an empty dict; it read "answer with a set of paths"."""
    assert check("w10.escape", {}).feedback == "{} is an empty dict, not a set: an empty set is written set()"
    assert check("w10.escape", set()).feedback == "1 more of the paths can be read"


def test_a_no_call_answer_of_empty_braces_is_told_it_is_a_dict_too():
    """The same `{}` for week 3's "which call no tool" read "answer with a set of case ids": week 10's
    rule was its checker's own."""
    assert check("w3.no_call", {}).feedback == "{} is an empty dict, not a set: an empty set is written set()"
    assert check("w3.no_call", set()).feedback == "4 more of the six should call no tool"


# --- no memory addresses: the same answer reads the same on every run ---------------------------


def test_feedback_names_a_function_instead_of_its_address():
    def helper(behaviors, any_error):
        return False

    result = check("w6.truth_table", lambda behaviors, any_error: helper)
    assert "0x" not in result.feedback
    assert result.feedback.startswith("returns_now(") and "gave a function named helper," in result.feedback


def test_show_describes_values_whose_repr_holds_an_address():
    from toolkit.exercises.values import show

    class Thing:
        pass

    assert show([1, "a", None]) == "[1, 'a', None]"
    assert show(Thing()) == "a Thing object"
    assert show(test_show_describes_values_whose_repr_holds_an_address) == (
        "a function named test_show_describes_values_whose_repr_holds_an_address"
    )
    assert (
        show([Thing()])
        == "[<test_exercises_checkers.test_show_describes_values_whose_repr_holds_an_address.<locals>.Thing>]"
    )


# --- w9.chain: the provider is called as the loop calls it ------------------------------------------


def test_an_expose_returning_a_provider_class_of_the_learners_own_passes():
    from toolkit.mcp.provider import filter_tools, rename_tools

    class OrderLookupOnly:  # a provider as the loop takes it: provide(request)
        def __init__(self, provider):
            self.inner = rename_tools(filter_tools(provider, {"query_order"}), {"query_order": "order_lookup"})

        def provide(self, request):
            return self.inner.provide(request)

    result = check("w9.chain", OrderLookupOnly)
    assert (result.status, result.feedback) == (
        "passed",
        "one tool, the new name, and the server still runs query_order.",
    )


def test_an_expose_whose_provider_cannot_take_the_request_is_told_how_the_loop_calls_it():
    class NoRequest:
        def __init__(self, provider):
            self.provider = provider

        def provide(self):
            return []

    result = check("w9.chain", NoRequest)
    assert (result.status, result.feedback) == (
        "failed",
        "providers=[NoRequest object]: its provide() cannot take the request: the loop calls "
        "provider.provide(request) (a ProviderRequest: the messages so far). Fix: give it the parameter: "
        "def provide(self, request): ...",
    )


def test_an_expose_whose_provider_returns_a_dict_is_told_to_return_a_list():
    from toolkit.mcp.provider import filter_tools, rename_tools

    class ByName:
        def __init__(self, provider):
            self.inner = rename_tools(filter_tools(provider, {"query_order"}), {"query_order": "order_lookup"})

        def provide(self, request):
            return {t.name: t for t in self.inner.provide(request)}

    result = check("w9.chain", ByName)
    assert result.status == "failed"
    assert result.feedback.startswith("ByName.provide() returned a dict; it must return a list of Tool objects")


def test_an_expose_whose_tool_of_its_own_never_calls_the_server_fails():
    """A provider of a tool of the learner's own named order_lookup that echoes the id: the model sees one tool of
    the right name, and its answer holds the id, but the server given to expose() never ran query_order."""
    from toolkit import tool, tools_from

    @tool("Look up an order.")
    def order_lookup(orderId: str) -> str:
        return f"order {orderId}: shipped"

    class Echo:
        def __init__(self, provider):
            self.tools = tools_from(order_lookup)

        def provide(self, request):
            return self.tools

    result = check("w9.chain", Echo)
    assert (result.status, result.feedback) == (
        "failed",
        "calling order_lookup never reached the server's query_order: the provider expose() returns must pass the "
        "call on to the provider it is given (filter_tools and rename_tools do), not answer it with a tool of its "
        "own",
    )


# --- hints that agree with the course: following one never leads to a ✗ -------------------------


def test_the_no_call_hint_does_not_send_a_policy_question_without_an_order_id_to_no_call():
    from toolkit.course.accuracy import load_cases
    from toolkit.exercises import hint
    from toolkit.exercises.week03 import NO_CALL_CHOICES

    n11 = next(c for c in load_cases() if c.id == "N11")  # 退货的运费谁出: no order id, yet a lookup
    assert n11.id in NO_CALL_CHOICES and n11.expect_tool == "query_refund_policy" and "SN" not in n11.question
    assert hint("w3.no_call") == (
        "the tools can only look things up: a complaint, an address change or a refund is an action none of them "
        "can do, and an order or parcel question without an order id has nothing to look up yet (a question about "
        "the refund rules needs no order id)."
    )
    assert "N11" in check("w3.no_call", {"B03", "A03", "A04", "A05", "N11"}).feedback


def test_the_chain_hint_names_the_current_name_rule_week_9_teaches():
    from toolkit.exercises import hint

    assert hint("w9.chain") == (
        "filter_tools and rename_tools take a tool's current name, the one the provider they wrap gives it "
        "(here the server's own, query_order); filter first, then rename."
    )


# --- w6.window: conversations cut mid-turn, long turns, and none with a user message -------------


def window_mutant(old, new):
    source = get("w6.window").solution.replace('check("w6.window", keep)', "")
    assert old in source
    namespace: dict = {}
    exec(source.replace(old, new), namespace)
    return namespace["keep"]


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (  # assumes a user message: the memory holds only the system message before the first question
            "user = users[-1] if users else None",
            "user = users[-1]",
            "your code raised IndexError: list index out of range",
        ),
        (  # trims tool results at the end: the current round's results, stored before the next request
            "while kept and isinstance(kept[0], ToolResultMessage)",
            "while kept and isinstance(kept[-1], ToolResultMessage)",
            "for n=4 and [system user assistant tool tool] you keep [system], the memory keeps "
            "[system user assistant tool tool] — the latest user message never leaves, even when that keeps more "
            "than n",
        ),
        (  # drops one message too many from the current turn's earlier rounds (seen with three or more)
            "middle = middle[group(middle):]",
            "middle = middle[group(middle) + 1:]",
            "for n=9 and [user assistant tool tool assistant tool assistant tool tool tool] your window keeps a tool "
            "result whose call is gone",
        ),
    ],
)
def test_a_window_wrong_only_mid_turn_or_in_a_long_turn_fails(old, new, said):
    """Before: each passed — the check compared on finished conversations only (the model's answer last,
    at most two rounds a turn), while the memory evicts on every add."""
    result = check("w6.window", window_mutant(old, new))
    assert (result.status, result.feedback) == ("failed", said)


def test_the_reference_window_passes_on_finished_and_mid_turn_conversations():
    result = check("w6.window", window_mutant("", ""))
    assert (result.status, result.feedback) == (
        "passed",
        "same as the memory's eviction on 302 conversations, finished and mid-turn: never an orphan tool result.",
    )
