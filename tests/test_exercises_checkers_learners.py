"""Learners' cells the checkers must judge right: wrong-but-plausible solutions that passed before
(a count of 0 read as missing, a fixed tool whose body still reads `arg0`, a compensation that
finds its booking by one field), and correct ones written unlike the reference. Each is the
text a learner types in the exercise cell, run as the notebook runs it."""

import textwrap

import pytest

from toolkit.exercises import check, get


def run_cell(code: str):
    """Run a learner's cell (it ends `result = check(...)`) and give its CheckResult."""
    namespace: dict = {"__name__": "__main__"}
    exec(compile(textwrap.dedent(code), "<cell>", "exec"), namespace)
    return namespace["result"]


# --- w1.usage_build: a reported zero is a count ---------------------------------------------------


def test_a_usage_that_turns_a_reported_zero_into_none_fails():
    result = run_cell(
        """
        from toolkit import TokenUsage
        from toolkit.exercises import check

        def usage_from_body(body):
            usage = body.get("usage") or {}
            return TokenUsage(input_tokens=usage.get("prompt_tokens") or None,
                              output_tokens=usage.get("completion_tokens") or None)

        result = check("w1.usage_build", usage_from_body)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        'for usage {"prompt_tokens": 1418, "completion_tokens": 0, "total_tokens": 1418} you returned '
        "TokenUsage(input_tokens=1418, output_tokens=None), expected TokenUsage(input_tokens=1418, output_tokens=0)"
        " — 0 is a count the gateway reported, not a missing one",
    )


def test_a_usage_written_with_match_and_no_helper_passes():
    result = run_cell(
        """
        from toolkit import TokenUsage
        from toolkit.exercises import check

        def usage_from_body(body: dict) -> TokenUsage:
            match body:
                case {"usage": {**usage}}:
                    pass
                case _:
                    usage = {}
            ok = lambda v: int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 and v == int(v) else None
            return TokenUsage(input_tokens=ok(usage.get("prompt_tokens")), output_tokens=ok(usage.get("completion_tokens")))

        result = check("w1.usage_build", usage_from_body)
        """
    )
    assert (result.status, result.feedback) == (
        "passed",
        "same as TokenUsage.from_openai on 61 bodies, including missing and null usage, zero, null, whole-float and "
        "broken counts.",
    )


def test_a_usage_that_takes_ints_only_fails_on_a_whole_float():
    """Before: passed, told 'same as TokenUsage.from_openai' — the check sent no count written 12.0, which
    from_openai reads as 12 (JSON has one number type; a gateway counting in JavaScript sends one), and the
    reference solution itself took ints only."""
    result = run_cell(
        """
        from toolkit import TokenUsage
        from toolkit.exercises import check

        def usage_from_body(body):
            usage = body.get("usage") or {}
            ok = lambda v: v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None
            return TokenUsage(input_tokens=ok(usage.get("prompt_tokens")), output_tokens=ok(usage.get("completion_tokens")))

        result = check("w1.usage_build", usage_from_body)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        'for usage {"prompt_tokens": 4166.0, "completion_tokens": 111, "total_tokens": 4277.0} you returned '
        "TokenUsage(input_tokens=None, output_tokens=111), expected TokenUsage(input_tokens=4166, "
        "output_tokens=111) — prompt_tokens is 4166.0, a whole number: JSON has one number type, so a gateway "
        "that counts in JavaScript sends 4166.0 for 4166, and from_openai reads it as that count",
    )


@pytest.mark.parametrize(
    ("count", "said"),
    [
        (  # every count trusted: a gateway's -1 crashes it
            "value",
            'for usage {"prompt_tokens": 4496, "completion_tokens": -1, "total_tokens": 4495} your code raised '
            "RecordError: TokenUsage: output_tokens was given an int (-1); it should be greater than or equal to 0 — "
            "completion_tokens is not a count (a whole number, 0 or more): a broken count is not reported (None), "
            "as from_openai reads it",
        ),
        (  # a negative count read as not reported, but a count sent as text taken as one
            "value if value is None or int(value) >= 0 else None",
            'for usage {"prompt_tokens": "4496", "completion_tokens": 720, "total_tokens": 5216} you returned '
            "TokenUsage(input_tokens=4496, output_tokens=720), expected TokenUsage(input_tokens=None, "
            "output_tokens=720) — prompt_tokens is not a count (a whole number, 0 or more): a broken count is not "
            "reported (None), as from_openai reads it",
        ),
        (  # a whole number of 0 or more, by isinstance: JSON's true passes it (Python's bool is an int)
            "value if isinstance(value, int) and value >= 0 else None",
            'for usage {"prompt_tokens": 3596, "completion_tokens": true, "total_tokens": 3597} you returned '
            "TokenUsage(input_tokens=3596, output_tokens=1), expected TokenUsage(input_tokens=3596, "
            "output_tokens=None) — completion_tokens is not a count (a whole number, 0 or more): a broken count is "
            "not reported (None), as from_openai reads it; true is a bool, which Python's isinstance(…, int) "
            "accepts",
        ),
    ],
)
def test_a_usage_that_trusts_a_broken_count_fails(count, said):
    """Before: both passed — the check sent only whole counts of 0 or more, or null; TokenUsage.from_openai
    reads a negative or non-integer count as not reported."""
    result = run_cell(
        f"""
        from toolkit import TokenUsage
        from toolkit.exercises import check

        def usage_from_body(body):
            usage = body.get("usage") or {{}}
            count = lambda value: {count}
            return TokenUsage(input_tokens=count(usage.get("prompt_tokens")),
                              output_tokens=count(usage.get("completion_tokens")))

        result = check("w1.usage_build", usage_from_body)
        """
    )
    assert (result.status, result.feedback) == ("failed", said)


# --- w5.fix_arg0: the fixed tool still answers for the order it is given --------------------------

FIXED_TOOL = """
    from typing import Annotated
    from toolkit import Param, tool
    from toolkit.exercises import check

    @tool("Look up one order by its id and return its status.")
    def query_order(order_id: Annotated[str, Param("Order id, e.g. SN202610200001")]) -> str:
        return {body}

    result = check("w5.fix_arg0", query_order)
    """


def test_a_fixed_tool_that_prints_its_answer_is_asked_whether_it_prints():
    # a None result is sent as 'Success': the feedback did not say where that came from
    result = run_cell(FIXED_TOOL.format(body='print(f"order {order_id}: shipped")'))
    assert (result.status, result.feedback) == (
        "failed",
        "called as the model calls it, query_order(order_id='SN202683604450') answered 'Success'; the original "
        "answered 'order SN202683604450: shipped' — a fix renames and describes, the tool still answers for the "
        "order it is given; 'Success' is what a tool that returns None sends: does yours print its answer instead "
        "of returning it?",
    )


def test_a_fixed_tool_whose_body_still_reads_arg0_fails():
    result = run_cell(FIXED_TOOL.format(body='f"order {arg0}: shipped"'))
    assert (result.status, result.feedback) == (
        "failed",
        "called as the model calls it, query_order(order_id='SN202683604450') answered \"Tool 'query_order' failed: "
        "NameError: name 'arg0' is not defined\"; the original answered 'order SN202683604450: shipped' — a fix "
        "renames and describes, the tool still answers for the order it is given",
    )


def test_a_fixed_tool_that_ignores_its_parameter_fails():
    result = run_cell(FIXED_TOOL.format(body='"order: shipped"'))
    assert result.status == "failed"
    assert result.feedback.startswith("called as the model calls it, query_order(order_id='SN202683604450') answered")


@pytest.mark.parametrize("default", ['""', '"SN202610200001"'])
def test_a_fixed_tool_whose_order_id_got_a_default_fails(default):
    """Before: passed — the parameter was renamed and described, but a default made it optional, so the
    model may call the tool without the order id it needs (arg0 was required)."""
    cell = FIXED_TOOL.format(body='f"order {order_id}: shipped"')
    cell = cell.replace('SN202610200001")]) -> str', f'SN202610200001")] = {default}) -> str')
    assert f"= {default}) -> str" in cell
    result = run_cell(cell)
    assert (result.status, result.feedback) == (
        "failed",
        "the parameter order_id is now optional (it has a default), but the tool needs an order id to look up: "
        "keep it required, as arg0 was, and say what it holds",
    )


@pytest.mark.parametrize(
    ("annotation", "said"),
    [
        ("Optional[str]", "a string or null"),
        ("str | None", "a string or null"),
        ("int", "an integer"),
        ("OrderQuery", "an object (OrderQuery)"),
    ],
)
def test_a_fixed_tool_whose_order_id_changed_type_is_told_what_it_takes_in_words(annotation, said):
    """Before: the parameter's schema was quoted as JSON cut at 80 characters, mid-string
    ('... "description": "Order id, e.g., but the tool takes ...'): a nullable order id read as nonsense."""
    cell = FIXED_TOOL.format(body='f"order {order_id}: shipped"').replace("Annotated[str,", f"Annotated[{annotation},")
    cell = cell.replace(
        "from toolkit import Param, tool",
        "from typing import Optional\n    from pydantic import BaseModel\n    from toolkit import Param, tool\n\n"
        "    class OrderQuery(BaseModel):\n        order_id: str",
    )
    result = run_cell(cell)
    assert (result.status, result.feedback) == (
        "failed",
        f"the parameter order_id now takes {said}, but the tool takes an order id such as SN202610200001: "
        "keep it a str, and say what it holds",
    )


def test_a_fixed_tool_that_refuses_other_order_ids_is_told_in_one_line():
    """Before: a pattern narrower than the ids the tool took (a digit miscounted) failed with
    'running your answer failed with ArgumentError: Invalid arguments ...' over three lines."""
    cell = FIXED_TOOL.format(body='f"order {order_id}: shipped"').replace(
        'Annotated[str, Param("Order id, e.g. SN202610200001")]',
        'Annotated[str, Field(description="Order id, e.g. SN202610200001", pattern=r"^SN\\d{14}$")]',
    )
    cell = cell.replace(
        "from toolkit import Param, tool", "from pydantic import Field\n    from toolkit import Param, tool"
    )
    assert "pattern=" in cell
    result = run_cell(cell)
    assert (result.status, result.feedback) == (
        "failed",
        "called as the model calls it, query_order(order_id='SN202683604450') was refused (order_id: got "
        '"SN202683604450", expected a string matching ^SN\\d{14}$); the original took any order id — a fix '
        "renames and describes, the tool still answers for the order it is given",
    )


def test_a_fixed_tool_with_a_chinese_parameter_and_a_helper_passes():
    result = run_cell(
        """
        from typing import Annotated
        from toolkit import Param, tool
        from toolkit.exercises import check

        def _text(order_id):
            return "order %s: shipped" % order_id

        @tool
        def order_status(订单号: Annotated[str, Param("The order id to look up, such as SN202610200001")]) -> str:
            '''Return the shipping status of one order, given its order id.'''
            print("looking up", 订单号)
            return _text(订单号)

        result = check("w5.fix_arg0", order_status)
        """
    )
    assert (result.status, result.feedback) == (
        "passed",
        "the model now reads order_status(订单号): Return the shipping status of one order, given its order id.",
    )


# --- w7.compensation: the booking with both its guest and its nights ------------------------------

COMPENSATION = """
    from toolkit import compensates
    from toolkit.exercises import check
    from toolkit.exercises.week07 import BOOKINGS

    @compensates("book_hotel")
    def cancel_hotel(guest: str, nights: int) -> None:
        {body}

    result = check("w7.compensation", cancel_hotel)
    """


def test_a_compensation_that_finds_the_booking_by_its_nights_alone_fails():
    result = run_cell(
        COMPENSATION.format(body="BOOKINGS.remove(next(b for b in reversed(BOOKINGS) if b[1] == nights))")
    )
    assert (result.status, result.feedback) == (
        "failed",
        "after the rollback grace's booking of 2 nights and judy's booking of 1 night are gone, but no undone call "
        "booked them: undo only this call's effect — the booking with its own guest and nights",
    )


def test_a_compensation_that_removes_the_guests_latest_booking_fails():
    result = run_cell(COMPENSATION.format(body="del BOOKINGS[max(i for i, b in enumerate(BOOKINGS) if b[0] == guest)]"))
    assert (result.status, result.feedback) == (
        "failed",
        "after the rollback frank's booking of 7 nights and grace's booking of 2 nights are gone, but no undone "
        "call booked them: undo only this call's effect — the booking with its own guest and nights",
    )


REBOUND = (
    "BOOKINGS in your code is no longer the list book_hotel appends to: something assigned BOOKINGS = ...; "
    "run from toolkit.exercises.week07 import BOOKINGS again, then change that list in place (BOOKINGS.remove), "
    "never assign it"
)


@pytest.mark.parametrize(
    "before, body",
    [
        ("BOOKINGS = []   # a learner's reset, in a cell before", "BOOKINGS.remove((guest, nights))"),
        (
            "",
            "global BOOKINGS\n        BOOKINGS = [b for b in BOOKINGS if b != (guest, nights)]",
        ),
    ],
    ids=["a-cell-before", "the-compensation-itself"],
)
def test_a_compensation_whose_bookings_were_assigned_is_told_so(before, body):
    """A right remove() on a BOOKINGS a cell had reassigned read "your compensation failed: ValueError:
    list.remove(x): x not in list", or that the trip's bookings were still there: true of the package's
    list, but the learner's own code looked right and the cause was elsewhere."""
    code = COMPENSATION.replace("@compensates", before + "\n\n    @compensates").format(body=body)
    result = run_cell(code)
    assert (result.status, result.feedback) == ("failed", REBOUND)


def test_a_compensation_with_a_chinese_name_passes():
    """A compensation is never shown to the model: its name need not be a tool name."""
    result = run_cell(
        """
        from toolkit import compensates
        from toolkit.exercises import check
        from toolkit.exercises.week07 import BOOKINGS

        @compensates("book_hotel")
        def 取消酒店(guest: str, nights: int) -> None:
            位置 = len(BOOKINGS) - 1 - BOOKINGS[::-1].index((guest, nights))
            del BOOKINGS[位置]

        result = check("w7.compensation", 取消酒店)
        """
    )
    assert (result.status, result.feedback) == (
        "passed",
        "each call's own booking undone on failure, kept on success, nobody else's touched.",
    )


# --- predictions outside the choices are told the choices, not that the prediction is wrong -------


def test_a_channel_spelled_raises_is_told_the_two_choices():
    result = check("w5.channels", {"unknown tool": "raises", "argument error": "raise", "execution error": "feed back"})
    assert (result.status, result.feedback) == (
        "failed",
        "answer 'raise' or 'feed back' for 'unknown tool', not 'raises'",
    )


def test_a_switch_outcome_outside_the_three_is_told_them():
    answer = {"no variables": "fake", "all three": "real", "only LLM_BASE_URL": "raises an error"}
    result = check("w0.switch", answer)
    assert (result.status, result.feedback) == (
        "failed",
        "answer 'fake', 'real' or 'error' for 'only LLM_BASE_URL', not 'raises an error'",
    )


def test_yes_no_predictions_given_as_text_are_told_true_or_false():
    level0 = check(
        "w10.level0", {"name": "True", "description": "True", "SKILL.md body": "False", "resources": "False"}
    )
    assert (level0.status, level0.feedback) == ("failed", "answer True or False for 'name', not 'True'")
    reads = check("w7.model_reads", {"reserve_stock": "yes", "charge_payment": True, "create_shipment": True})
    assert (reads.status, reads.feedback) == ("failed", "answer True or False for 'reserve_stock', not 'yes'")


def test_a_tool_answered_inside_a_list_is_told_to_answer_the_function():
    result = run_cell(
        """
        from typing import Annotated
        from toolkit import Param, tool
        from toolkit.exercises import check

        @tool("Search the user's orders by words in item names; returns at most `limit` order ids.")
        def search_orders(query: Annotated[str, Param("Words to look for in item names")],
                          limit: Annotated[int, Param("At most this many results")] = 10) -> list[str]:
            return []

        result = check("w5.schema_target", [search_orders])
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "answer with the @tool function itself, not [<function search_orders>]",
    )


def test_a_skill_written_straight_into_the_root_is_told_where_skills_go():
    """The loader's words named a call the learner never made and the temporary folder's parent
    (`load_skills('/tmp')`, another path under another TMPDIR)."""
    result = run_cell(
        """
        from pathlib import Path
        from toolkit.exercises import check

        def make_skill(root):
            (Path(root) / "SKILL.md").write_text(
                "---\\nname: gift-wrapping\\ndescription: Gift wrap an order.\\n---\\nAsk for the card text.\\n"
            )

        result = check("w10.skill_folder", make_skill)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "your function wrote SKILL.md straight into the folder it was given: that folder holds skills, each in a "
        "folder of its own (a skill is <folder>/<name>/SKILL.md)",
    )


# --- w6.window: a kept message is judged by what it says, not by which object it is -------------------


def test_a_window_that_keeps_copies_of_the_messages_is_not_told_the_system_message_was_dropped():
    result = run_cell(
        """
        from toolkit.exercises import check

        def keep(messages, n):
            return [m.model_copy() for m in messages]   # keeps everything, as copies

        result = check("w6.window", keep)
        """
    )
    assert (result.status, result.feedback) == ("failed", "for n=17 your window keeps 18 messages")


# --- weeks 3 and 4: feedback that names the learner's real mistake ------------------------------


def test_a_normalize_that_answers_a_rejected_id_with_an_empty_text_is_told_to_return_none():
    result = run_cell(
        """
        import re
        from toolkit.exercises import check

        def normalize(raw):
            text = raw.translate({0x3000: 0x20, **{c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}})
            text = re.sub(r"[\\s\\-\\u2010-\\u2015\\u2212]", "", text).upper()
            text = re.sub(r"^订单号?[:：是为]?", "", text)
            return text if re.fullmatch(r"SN[0-9]{12}", text) else ""

        result = check("w3.normalize", normalize)
        """
    )
    assert result.feedback == (
        "normalize('ＳＮ２０２６１０２０００１') returned '', but validation rejects it: "
        "return None for an id that is rejected, not ''"
    )


def test_a_normalize_reading_arabic_indic_digits_is_not_told_nfkc_reads_them():
    result = run_cell(
        """
        import re
        import unicodedata
        from toolkit.exercises import check

        def normalize(raw):
            text = re.sub(r"^订单号?\\s*[:：是为]?\\s*", "", unicodedata.normalize("NFKC", raw).strip())
            text = re.sub(r"[\\s\\-\\u2010-\\u2015\\u2212]", "", text.upper())
            return text if re.fullmatch(r"SN\\d{12}", text) else None

        result = check("w3.normalize", normalize)
        """
    )
    assert result.feedback.endswith(
        "but validation rejects it: '٢' is a digit to \\d (NFKC leaves it as it is), but neither an ASCII nor a "
        "full-width one"
    )


def test_a_normalize_written_with_loops_and_str_methods_passes():
    result = run_cell(
        """
        from toolkit.exercises import check

        def normalize(raw):
            chars = []
            for ch in raw:
                if ch == "\\u3000":
                    chars.append(" ")
                elif 0xFF01 <= ord(ch) <= 0xFF5E:
                    chars.append(chr(ord(ch) - 0xFEE0))
                else:
                    chars.append(ch)
            text = "".join(chars).strip()
            for label in ("订单号", "订单"):
                if text.startswith(label):
                    text = text[len(label):].lstrip()
                    if text[:1] in (":", "：", "是", "为"):
                        text = text[1:]
                    break
            text = "".join(c for c in text if not c.isspace() and c not in "-‐‑‒–—―−").upper()
            if len(text) == 14 and text.startswith("SN") and all(c in "0123456789" for c in text[2:]):
                return text
            return None

        result = check("w3.normalize", normalize)
        """
    )
    assert result.passed, result.feedback


def test_csv_rows_given_as_texts_are_told_to_be_numbers():
    result = check("w3.csv_rows", {"normal": "15", "edge": "5", "no_call": "5"})
    assert result.feedback == "answer each group's rows with a number, not '15' for 'normal'"


def test_csv_rows_given_as_floats_are_added_up():
    result = check("w3.csv_rows", {"normal": 16.0, "edge": 5.0, "no_call": 5.0})
    assert result.feedback == "the CSV written by write_csv has 25 rows; yours add up to 26 — check each group"


def test_csv_rows_of_the_right_total_in_the_wrong_groups_are_told_the_total_is_right():
    """It read 'has 25 rows; yours add up to 25 — check each group', as if the total were the mistake."""
    result = check("w3.csv_rows", {"normal": 16, "edge": 4, "no_call": 5})
    assert result.feedback == (
        "your counts add up to the 25 rows the CSV written by write_csv has, but the groups are not split so "
        "— check each group"
    )


def test_a_declared_chat_returning_a_result_is_told_so_in_one_line():
    result = run_cell(
        """
        from typing import Annotated, Protocol
        from toolkit import MemoryId, Result, UserText
        from toolkit.exercises import check

        class Assistant(Protocol):
            def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> Result[str]: ...

        result = check("w4.declare", Assistant)
        """
    )
    assert result.feedback == (
        "chat() should return the answer as a str, it returned a Result; declare the method -> str"
    )


def test_a_declaration_with_a_plain_class_and_an_unmarked_question_passes():
    result = run_cell(
        """
        from typing import Annotated
        from toolkit import MemoryId
        from toolkit.exercises import check

        class Assistant:
            def chat(self, uid: Annotated[str, MemoryId], text: str) -> str: ...

        result = check("w4.declare", Assistant)
        """
    )
    assert result.passed, result.feedback


def test_course_bound_says_why_a_count_off_by_one_is_wrong():
    """An answer of 6 reached a branch written for a 6th request COURSE never sends: it got the
    generic "count the tools" line; 4 got it too."""
    six = run_cell("from toolkit.exercises import check\nresult = check('w6.course_bound', 6)")
    four = run_cell("from toolkit.exercises import check\nresult = check('w6.course_bound', 4)")
    assert (six.passed, six.feedback, four.passed, four.feedback) == (
        False,
        "not 6: COURSE stops asking the model at its max_model_requests, so no reply after that brings a call to run",
        False,
        "not 4: the last allowed reply's call runs too, before the hand-over",
    )


def test_course_bound_far_too_low_is_not_told_about_the_last_reply():
    """3, 1 or 0 got "the last allowed reply's call runs too", a hint meant for 4 only."""
    for said in (0, 1, 3):
        result = check("w6.course_bound", said)
        assert (result.passed, result.feedback) == (
            False,
            f"not {said}: COURSE does not hand over that early; count the replies it allows to ask for tools",
        )


# --- weeks 1 to 5: feedback that is true of what the learner wrote --------------------------------

COERCION = {
    ("int", "27"): True,
    ("int", 27.5): False,
    ("int", "27.5"): False,
    ("bool", "true"): False,
    ("bool", 1): False,
    ("str", 202610200001): False,
}


@pytest.mark.parametrize("said", ["argument error", "False", "accepted", 0])
def test_a_coercion_row_answered_other_than_true_or_false_is_told_the_two_choices(said):
    """A row answered "argument error" (the right outcome, in words) was told "not accepted"."""
    result = check("w5.coercion", {**COERCION, ("str", 202610200001): said})
    assert (result.status, result.feedback) == (
        "failed",
        f"answer True or False for ('str', 202610200001), not {said!r}",
    )


def test_a_stream_with_a_kind_in_two_runs_is_not_told_to_merge_its_runs():
    """No run of a kind is written twice here: the learner expects a second tool call after the answer."""
    result = check("w4.stream_order", ["ToolCallDelta", "ToolStarted", "ToolFinished", "TextDelta", "ToolCallDelta"])
    assert (result.status, result.feedback) == (
        "failed",
        "ToolCallDelta arrives in 1 run here, not 2: the model calls query_order once, then writes its answer",
    )
    repeated = check("w4.stream_order", ["ToolCallDelta", "ToolCallDelta", "ToolStarted", "ToolFinished", "TextDelta"])
    assert repeated.feedback == "write each run of a kind once"


@pytest.mark.parametrize("ids", [{"B3", "A03", "A04", "A05"}, {"X99"}])
def test_a_no_call_id_that_is_not_one_of_the_six_is_named(ids):
    """An id with a typo was dropped without a word ("4 more of the six should call no tool")."""
    result = check("w3.no_call", ids)
    unknown = sorted(ids - {"A03", "A04", "A05"})[0]
    assert (result.status, result.feedback) == (
        "failed",
        f"{unknown!r} is not one of the six cases; use their ids: N05, B03, A03, A04, N11, A05",
    )


def test_csv_rows_with_a_group_left_out_are_told_which():
    result = check("w3.csv_rows", {"normal": 15, "edge": 5})
    assert (result.status, result.feedback) == ("failed", "answer for every group: 'no_call' is missing")


def test_a_keyword_rule_naming_no_offered_tool_is_told_the_choices():
    """A misspelt tool was told "the fake model does not call 'refund_policy'", as if the prediction were wrong."""
    answer = {
        "SN202610200004 发货了吗？": "query_logistics",
        "数码产品能不能退？": "refund_policy",
        "你好": None,
        "订单 SN202610200001 付了多少钱？": "query_order",
    }
    result = check("w1.keyword_rules", answer)
    assert (result.status, result.feedback) == (
        "failed",
        "answer 'query_order', 'query_logistics', 'query_refund_policy' or None for '数码产品能不能退？', "
        "not 'refund_policy'",
    )
    assert check("w1.keyword_rules", {**answer, "数码产品能不能退？": "query_refund_policy", "你好": "none"}).passed


def test_a_timeout_outcome_named_by_the_base_class_is_told_so():
    result = check("w2.timeout", {"requests sent": 2, "outcome": "ModelCallError"})
    assert (result.status, result.feedback) == (
        "failed",
        "chat() did not end with 'ModelCallError' — that is the base class of the client's three kinds; "
        "name the kind chat() raises (type(error).__name__)",
    )


@pytest.mark.parametrize(
    ("answer", "feedback"),
    [
        ("query_order", "answer with the @tool function itself (its name, without quotes), not 'query_order'"),
        (None, "answer with the @tool function itself (its name, without a call), not None"),
        (3, "answer with the @tool function itself (its name, without a call), not 3"),
        (int, "answer with the @tool function itself, not the class int (a class's @tool methods: answer int())"),
    ],
)
def test_a_tool_answer_that_is_no_tool_is_not_told_about_tools_from(answer, feedback):
    """The words were tools_from's ("Fix: pass an instance, e.g. tools_from(int())", "tools=[...]"): a call
    the learner never wrote."""
    for exercise_id in ("w5.fix_arg0", "w5.schema_target"):
        result = check(exercise_id, answer)
        assert (result.status, result.feedback) == ("failed", feedback)


def test_the_usage_path_hint_quotes_code_that_runs_in_a_fresh_kernel(capsys, monkeypatch):
    """It said "print json.loads(client.exchanges[-1].response_text)": where the exercise stands in week 1
    the client's last exchange is a stream (SSE lines), so that raised JSONDecodeError, and after a kernel
    restart there is no `client` at all. The code it quotes now runs on its own and prints a JSON body."""
    import re

    from toolkit.exercises import hint

    for name in ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    code = re.findall(r"`([^`]+)`", hint("w1.usage_path"))
    assert code, hint("w1.usage_path")
    exec(code[-1], {"__name__": "__main__"})
    shown = capsys.readouterr().out
    assert shown.startswith("{") and "'usage'" in shown and "'prompt_tokens'" in shown


# --- w2.backoff: a Retry-After beyond the cap, as the week's text tells it ---------------------------

BEYOND = (
    " — a Retry-After beyond 30.0 s is capped at it: the retry loop raises before it asks, and wait() answers "
    "for callers that plan their own waits"
)


@pytest.mark.parametrize(
    ("beyond_the_cap", "feedback"),
    [
        ("raise ValueError('Retry-After too long')", "wait(1, 45.0) raised ValueError: Retry-After too long"),
        ("return None", "wait(1, 45.0) returned None; return the seconds as a number (an int or a float)"),
        ("return 0", "wait(1, 45.0) returned 0, RetryPolicy().wait gives 30.0"),
    ],
)
def test_a_wait_that_refuses_a_retry_after_beyond_the_cap_is_told_wait_caps_it(beyond_the_cap, feedback):
    """Week 2 says a gateway asking for more than 30 s "is not retried at all: the error is raised at once";
    a wait() written from that was told only "your code raised ValueError: …", or the number, with no why."""
    result = run_cell(
        f"""
        from toolkit.exercises import check

        BACKOFF_S, MAX_BACKOFF_S, MAX_RETRY_AFTER_S = 0.5, 8.0, 30.0

        def wait(attempt, retry_after):
            backoff = min(MAX_BACKOFF_S, BACKOFF_S * 2 ** (attempt - 1))
            if retry_after is None:
                return backoff
            if retry_after > MAX_RETRY_AFTER_S:
                {beyond_the_cap}
            return max(backoff, retry_after)

        result = check("w2.backoff", wait)
        """
    )
    assert (result.status, result.feedback) == ("failed", feedback + BEYOND)


def test_counts_of_one_are_written_in_the_singular():
    """A count of one reads in the singular ("your list has 1 waits", "did not receive 1 requests" were not)."""
    assert check("w2.waits", [2.0]).feedback.startswith("your list has 1 wait; the client waits once")
    assert check("w4.repair_requests", 1).feedback == "the model did not receive 1 request"
    assert check("w4.repair_requests", 7).feedback == "the model did not receive 7 requests"


def test_the_records_hint_says_where_message_from_openai_comes_from():
    """The hint named `message_from_openai()`, which `toolkit` does not export: in a fresh kernel a
    learner could not find it."""
    from toolkit.exercises.catalog import load
    from toolkit.exercises.core import get

    load()
    assert "message_from_openai() (from toolkit.chat.messages)" in get("w1.records").hint.replace("`", "")


def test_the_keyword_rules_hint_teaches_the_reading_without_giving_predictions():
    """The hint shown after a wrong try said "发货 is a logistics word; an order id with no other intent asks
    query_order": two of the four predictions. It points at where to read instead."""
    from toolkit.exercises import hint

    text = hint("w1.keyword_rules")
    assert text == (
        "look for each question's words among the `keywords` of the [[intent]] tables in gateway_rules.toml "
        "(a match calls that intent's `tool`); for an order id that no intent's words match, read [fallback]."
    )
    assert not any(word in text for word in ("发货", "退", "你好", "query_logistics", "query_order"))


@pytest.mark.parametrize(("returns", "shown"), [("str | None", "str | None"), ("Optional[str]", "Optional[str]")])
def test_a_declared_chat_returning_another_type_than_str_is_told_it_asked_for_json(returns, shown):
    """`-> str | None` made the service ask for JSON (structured output) and fail to read the plain
    answer: the feedback read "running your answer failed with OutputParsingError: the answer is not a
    JSON object", which names neither the return type nor the fix."""
    result = run_cell(
        f"""
        from typing import Annotated, Optional, Protocol
        from toolkit import MemoryId, UserText
        from toolkit.exercises import check

        class Assistant(Protocol):
            def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> {returns}: ...

        result = check("w4.declare", Assistant)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        f"chat() is declared -> {shown}, not -> str: for any other type ai_service asks the model for JSON "
        "(structured output), and a plain answer is refused; declare the method -> str",
    )


def test_a_skill_folder_function_written_as_a_generator_is_told_its_body_never_ran():
    """A make_skill holding `yield` read "your function made no file in the folder it was given",
    true but not why: calling it only made the generator."""
    result = run_cell(
        """
        from toolkit.exercises import check

        def make_skill(root):
            folder = root / "gift-wrapping"
            folder.mkdir()
            (folder / "SKILL.md").write_text("---\\nname: gift-wrapping\\ndescription: Wrap gifts.\\n---\\nAsk.\\n")
            yield folder

        result = check("w10.skill_folder", make_skill)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "your function is a generator (it holds `yield`): calling it only made the generator, and its body "
        "never ran, so it made nothing; write it without `yield`",
    )


# --- w6.truth_table: an answer that is not a bool is told so, not "gave 'False', the loop says False" ---


def test_a_returns_now_that_returns_the_words_true_and_false_is_told_they_are_not_bools():
    result = run_cell(
        """
        from toolkit import ReturnBehavior
        from toolkit.exercises import check

        def returns_now(behaviors, any_error):
            if any_error or not behaviors:
                return "False"
            if behaviors[-1] == ReturnBehavior.IMMEDIATE_IF_LAST:
                return "True"
            return str(all(b != ReturnBehavior.TO_LLM for b in behaviors))

        result = check("w6.truth_table", returns_now)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "returns_now([TO_LLM], any_error=False) gave 'False', the loop says False — a text is not a bool, and any "
        "text but '' counts as True: return True or False",
    )


def test_a_returns_now_that_prints_its_answer_is_asked_whether_it_prints_instead_of_returning():
    result = run_cell(
        """
        from toolkit.exercises import check

        def returns_now(behaviors, any_error):
            print(not any_error and all(b.name != "TO_LLM" for b in behaviors))

        result = check("w6.truth_table", returns_now)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "returns_now([IMMEDIATE], any_error=False) gave None, the loop says True — does your function print its "
        "answer instead of returning it? return True or False",
    )


def test_a_returns_now_that_returns_a_one_item_list_is_told_it_is_not_a_bool():
    result = run_cell(
        """
        from toolkit.exercises import check

        def returns_now(behaviors, any_error):
            return [not any_error and all(b.name != "TO_LLM" for b in behaviors)]

        result = check("w6.truth_table", returns_now)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "returns_now([TO_LLM], any_error=False) gave [False], the loop says False — a list is not a bool, and a "
        "list that is not empty counts as True: return True or False",
    )


# --- w8.score: a score that is not a number is told so, not "gave '3', LangChain4j's rule gives 3" ----


def test_a_score_returned_as_text_is_told_to_be_a_number():
    result = run_cell(
        """
        from toolkit.exercises import check

        def score(name, description, terms):
            name, description = name.lower(), description.lower()
            return str(sum(2 * (t in name) + (t in description) for t in terms))

        result = check("w8.score", score)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "score('respond_to_invitation', …, ['rain', 'tax', 'zzz', 'cancel', 'invitation']) returned '3'; "
        "return the score as a number (an int)",
    )


def test_a_score_that_prints_is_asked_whether_it_prints_instead_of_returning(capsys):
    result = run_cell(
        """
        from toolkit.exercises import check

        def score(name, description, terms):
            name, description = name.lower(), description.lower()
            print(sum(2 * (t in name) + (t in description) for t in terms))

        result = check("w8.score", score)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "score('respond_to_invitation', …, ['rain', 'tax', 'zzz', 'cancel', 'invitation']) returned None — does "
        "your function print its answer instead of returning it? return the score as a number (an int)",
    )


# --- w10.skill_folder: an error naming the check's temporary folder reads the same on every run ------


def test_a_make_skill_that_writes_before_it_makes_the_folder_is_told_without_the_temporary_path():
    result = run_cell(
        """
        from toolkit.exercises import check

        def make_skill(root):
            (root / "gift-wrapping" / "SKILL.md").write_text("---\\nname: gift-wrapping\\n---\\n")

        result = check("w10.skill_folder", make_skill)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "your code raised FileNotFoundError: [Errno 2] No such file or directory: 'root/gift-wrapping/SKILL.md'",
    )


# --- w6.window: a window of the memory's roles but other messages says which, not "[user …], [user …]" ---


def test_a_window_that_keeps_older_messages_of_the_same_roles_is_told_which_message_differs():
    result = run_cell(
        """
        from toolkit.exercises import check
        from toolkit.exercises.core import get

        reference = {}
        exec(get("w6.window").solution.replace('check("w6.window", keep)', ""), reference)

        def keep(messages, n):
            want = reference["keep"](messages, n)
            front = messages[: len(want)]
            return front if [m.role for m in front] == [m.role for m in want] else want

        result = check("w6.window", keep)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "for n=5 and [system user assistant tool tool assistant user assistant tool assistant tool assistant user "
        "assistant tool tool tool assistant tool tool assistant user assistant] you keep the roles the memory keeps, "
        "but your message 2 (user) is the conversation's message 2, where the memory keeps its message 22",
    )


def test_a_window_that_rewrites_a_message_is_told_to_keep_them_unchanged():
    result = run_cell(
        """
        from toolkit import UserMessage
        from toolkit.exercises import check
        from toolkit.exercises.core import get

        reference = {}
        exec(get("w6.window").solution.replace('check("w6.window", keep)', ""), reference)

        def keep(messages, n):
            kept = reference["keep"](messages, n)
            return [m.model_copy(update={"content": m.content.strip() + "?"}) if isinstance(m, UserMessage) else m
                    for m in kept]

        result = check("w6.window", keep)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "for n=4 and [user assistant tool tool assistant] you keep the roles the memory keeps, but your message 1 "
        "(user) is none of the conversation's messages: keep them as they are, unchanged",
    )


# --- w8.score: a score that lower-cases the description but not the name fails --------------------


def test_a_score_that_leaves_the_name_in_its_case_fails():
    """Every name of the catalogue is lower-case, so `t in name` without `.lower()` agreed with the rule
    there; a camelCase name (an MCP server's `refundPayment`) shows the miss."""
    result = run_cell(
        """
        from toolkit.exercises import check

        def score(name, description, terms):
            description = description.lower()
            return sum(2 * (t in name) + (t in description) for t in terms)

        result = check("w8.score", score)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "score('runHealthCheck', …, ['get', 'report', 'check']) gave 1, LangChain4j's rule gives 3 — compare in "
        "lower case: the terms are lower-cased, names and descriptions may not be",
    )


def test_a_score_that_lower_cases_both_fields_passes_on_camel_case_names_too():
    result = run_cell(
        """
        from toolkit.exercises import check

        def score(name: str, description: str, terms: list[str]) -> int:
            total = 0
            for term in terms:
                if term in name.casefold():
                    total += 2
                if term in description.casefold():
                    total += 1
            return total

        result = check("w8.score", score)
        """
    )
    assert (result.status, result.feedback) == (
        "passed",
        "identical to toolkit.search.keyword.score on 380 tool/terms pairs: 240 of the catalogue, 60 with its "
        "names in camelCase, 60 searching a whole name or a word such as read-only, 20 a word ended by '?' or '*'.",
    )


# --- w8.score: a term is looked for as it is: a whole name, a phrase, punctuation ------------------


def test_a_score_that_reads_the_name_with_spaces_for_underscores_fails():
    """Every term the check sent was one word of letters, so a name read as words (`refund payment`) agreed
    with the rule; a model searching a tool by its whole name (`refund_payment`) then found nothing."""
    result = run_cell(
        """
        from toolkit.exercises import check

        def score(name, description, terms):
            name, description = name.lower().replace("_", " "), description.lower()
            return sum(2 * (t in name) + (t in description) for t in terms)

        result = check("w8.score", score)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "score('get_stock_level', …, ['get_stock_level', 'on-hand', 'payment']) gave 1, LangChain4j's rule gives 3"
        " — compare the fields as they are written, '_' and punctuation kept: a model may search a tool's "
        "whole name (refund_payment) or a word such as read-only",
    )


def test_a_score_that_reads_each_term_as_a_regular_expression_fails():
    """Before: ✓ on all 360 pairs — no term held a character a pattern reads otherwise, so re.search(term, …)
    agreed with `in`; a model searching 'refund?' or 'order*' (a question, a wildcard) then finds tools whose
    fields never hold that text (the pattern 'refund?' is in 'refun')."""
    result = run_cell(
        """
        import re
        from toolkit.exercises import check

        def score(name, description, terms):
            return sum(2 * bool(re.search(t, name, re.IGNORECASE)) + bool(re.search(t, description, re.IGNORECASE))
                       for t in terms)

        result = check("w8.score", score)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "score('delete_personal_data', …, ['data?']) gave 3, LangChain4j's rule gives 0 — a term is text to look "
        "for, not a pattern: '?' and '*' in it are characters, so test it with `in` (or re.escape it)",
    )


def test_a_score_that_splits_a_camel_case_name_into_words_fails():
    result = run_cell(
        """
        import re
        from toolkit.exercises import check

        def score(name, description, terms):
            name = " ".join(re.findall(r"[A-Z]?[a-z0-9]+", name)).lower()
            return sum(2 * (t in name) + (t in description.lower()) for t in terms)

        result = check("w8.score", score)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "score('get_stock_level', …, ['get_stock_level', 'on-hand', 'payment']) gave 1, LangChain4j's rule gives 3",
    )


def test_a_score_that_drops_the_description_s_punctuation_fails():
    result = run_cell(
        """
        import re
        from toolkit.exercises import check

        def score(name, description, terms):
            description = re.sub(r"[^\\w\\s]", " ", description.lower())
            return sum(2 * (t in name.lower()) + (t in description) for t in terms)

        result = check("w8.score", score)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "score('get_stock_level', …, ['get_stock_level', 'on-hand', 'payment']) gave 2, LangChain4j's rule gives 3"
        " — compare the fields as they are written, '_' and punctuation kept: a model may search a tool's "
        "whole name (refund_payment) or a word such as read-only",
    )


# --- w3.normalize: rules that differ from validation's only on inputs the check did not try ---------

_NORMALIZE_PARTS = """
import re

def half(raw):
    return "".join(" " if c == "\\u3000" else chr(ord(c) - 0xFEE0) if "\\uff01" <= c <= "\\uff5e" else c
                   for c in raw).strip()

def finish(text, spaces=r"\\s", dashes="\\u2010-\\u2015\\u2212", upper=True):
    text = re.sub(f"[{spaces}\\\\-{dashes}]", "", text.upper() if upper else text)
    return text if re.fullmatch(r"SN[0-9]{12}", text) else None
"""


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (  # the label dropped wherever it is: no ^
            'finish(re.sub(r"订单号?\\s*[:：是为]?\\s*", "", half(raw)))',
            "normalize('SN202610200001订单号') returned 'SN202610200001', but validation rejects it",
        ),
        (  # the label's separators dropped wherever they are
            'finish(re.sub(r"[:：是为]", "", re.sub(r"^订单号?", "", half(raw))))',
            "normalize('SN2026：1020：0001') returned 'SN202610200001', but validation rejects it",
        ),
        (  # any number of separators after the label
            'finish(re.sub(r"^订单号?\\s*[:：是为]*\\s*", "", half(raw)))',
            "normalize('订单号：是SN202610200001') returned 'SN202610200001', but validation rejects it",
        ),
        (  # only the space bar's space
            'finish(re.sub(r"^订单号?\\s*[:：是为]?\\s*", "", half(raw)), spaces=" ")',
            "normalize('SN\\t2026\\t1020\\t0001') returned None, validation accepts it as 'SN202610200001'",
        ),
        (  # the em dash, but not the en dash or the minus sign
            'finish(re.sub(r"^订单号?\\s*[:：是为]?\\s*", "", half(raw)), dashes="—")',
            "normalize('SN2026–1020–0001') returned None, validation accepts it as 'SN202610200001'",
        ),
        (  # a separator dropped at the start with no label before it
            'finish(re.sub(r"^(订单号?)?\\s*[:：是为]?\\s*", "", half(raw)))',
            "normalize('：SN202610200001') returned 'SN202610200001', but validation rejects it",
        ),
        (  # every label at the start, not one
            'finish(re.sub(r"^(订单号?\\s*[:：是为]?\\s*)+", "", half(raw)))',
            "normalize('订单号订单SN202610200001') returned 'SN202610200001', but validation rejects it",
        ),
        (  # no space between the label and its separator
            'finish(re.sub(r"^订单号?[:：是为]?", "", half(raw)))',
            "normalize('订单号 ：SN202610200001') returned None, validation accepts it as 'SN202610200001'",
        ),
        (  # every space dropped before the label is looked for: a space inside the label too
            'finish(re.sub(r"^订单号?[:：是为]?", "", re.sub(r"\\s", "", half(raw))))',
            "normalize('订单 号：SN202610200001') returned 'SN202610200001', but validation rejects it",
        ),
        (  # the label looked for before the spaces around the text are dropped
            'finish(re.sub(r"^订单号?\\s*[:：是为]?\\s*", "", half("#" + raw)[1:]))',
            "normalize(' 订单号：SN202610200001') returned None, validation accepts it as 'SN202610200001'",
        ),
        (  # a dot or a slash taken for a dash (the date-like SN2026.1020.0001)
            'finish(re.sub(r"^订单号?\\s*[:：是为]?\\s*", "", half(raw)), dashes="\\u2010-\\u2015\\u2212./")',
            "normalize('SN2026.1020.0001') returned 'SN202610200001', but validation rejects it",
        ),
        (  # 单号 taken for a label too
            'finish(re.sub(r"^(订单号?|单号)\\s*[:：是为]?\\s*", "", half(raw)))',
            "normalize('单号：SN202610200001') returned 'SN202610200001', but validation rejects it",
        ),
        (  # 订单号码 and 订单编号 taken for labels too
            'finish(re.sub(r"^订单(号码?|编号)?\\s*[:：是为]?\\s*", "", half(raw)))',
            "normalize('订单号码：SN202610200001') returned 'SN202610200001', but validation rejects it",
        ),
        (  # 'sn' replaced, not the text upper-cased: 'Sn' is left
            'finish(re.sub(r"^订单号?\\s*[:：是为]?\\s*", "", half(raw)).replace("sn", "SN"), upper=False)',
            "normalize('Sn202610200001') returned None, validation accepts it as 'SN202610200001'",
        ),
    ],
)
def test_a_normalize_that_differs_from_validation_off_the_notebooks_examples_fails(body, said):
    namespace: dict = {}
    exec(_NORMALIZE_PARTS + f"\ndef normalize(raw):\n    return {body}\n", namespace)
    result = check("w3.normalize", namespace["normalize"])
    assert result.status == "failed"
    assert result.feedback.startswith(said), result.feedback


# --- w9.chain: expose() that returns a class, not a provider made with it -------------------------


def test_an_expose_that_returns_its_provider_class_uncalled_is_told_to_make_one():
    result = run_cell(
        """
        from toolkit.exercises import check
        from toolkit.mcp.provider import filter_tools, rename_tools

        class OrderLookup:
            def __init__(self, provider):
                self.inner = rename_tools(filter_tools(provider, {"query_order"}), {"query_order": "order_lookup"})

            def provide(self, request):
                return self.inner.provide(request)

        def expose(provider):
            return OrderLookup

        result = check("w9.chain", expose)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "expose() returned the class OrderLookup itself, not a provider made with it: return an instance "
        "(OrderLookup(provider)), as filter_tools / rename_tools return one",
    )


@pytest.mark.parametrize(
    ("returned", "said"),
    [
        (
            'rename_tools(filter_tools(provider, {"query_order"}), {"query_order": "Order_Lookup"})',
            "the model sees ['Order_Lookup']: name it exactly order_lookup (a tool's name is compared as written, "
            "case and all)",
        ),
        (
            'filter_tools(provider, {"query_order"})',
            "the model sees ['query_order']: rename it order_lookup (rename_tools)",
        ),
        (
            'rename_tools(provider, {"query_order": "order_lookup"})',
            "the model sees ['order_lookup', 'query_logistics', 'query_refund_policy']: keep only query_order "
            "(filter_tools), renamed order_lookup",
        ),
        (
            'rename_tools(filter_tools(provider, {"query_order"}), {"query_order": "lookup_order"})',
            "the model sees ['lookup_order']: the one tool it sees is named order_lookup",
        ),
    ],
)
def test_an_expose_that_shows_the_wrong_tools_is_told_what_is_wrong_with_them(returned, said):
    """Before: each of these was told only "the model sees [...]", which says what it sees but not what is wrong
    with it (a capital letter, no rename, no filter)."""
    result = run_cell(
        f"""
        from toolkit.exercises import check
        from toolkit.mcp.provider import filter_tools, rename_tools

        def expose(provider):
            return {returned}

        result = check("w9.chain", expose)
        """
    )
    assert (result.status, result.feedback) == ("failed", said)


def test_an_expose_whose_class_takes_the_provider_passes():
    result = run_cell(
        """
        from toolkit.exercises import check
        from toolkit.mcp.provider import filter_tools, rename_tools

        class OrderLookup:
            def __init__(self, provider):
                self.inner = filter_tools(rename_tools(provider, {"query_order": "order_lookup"}), {"order_lookup"})

            def provide(self, request):
                return self.inner.provide(request)

        result = check("w9.chain", OrderLookup)
        """
    )
    assert result.passed, result.feedback


# --- w4.memory_count: a count above the memory's is not told to add the system message ------------


@pytest.mark.parametrize("count", [8, 14])
def test_a_memory_count_above_the_real_one_is_not_told_to_count_the_system_message_too(count):
    result = check("w4.memory_count", count)
    assert (result.status, result.feedback) == (
        "failed",
        f"memory does not hold {count} messages: that is more than it keeps — count each message once (the "
        "system message is stored once, however many times chat() is called)",
    )


def test_a_memory_count_below_the_real_one_is_still_told_to_count_every_message():
    assert check("w4.memory_count", 6).feedback == (
        "memory does not hold 6 messages: count every message it keeps, the system message too"
    )


def test_a_memory_count_of_what_the_user_sees_and_the_system_message_is_told_the_tool_call_turn():
    """5 is the system message and the four the user sees (or the first turn alone): it was told 'the system
    message too', which the learner had counted."""
    assert check("w4.memory_count", 5).feedback == (
        "memory does not hold 5 messages: it keeps every message of both turns, the tool-call turn (the "
        "model's call and the tool's result) too, beside the system message"
    )


# --- week 4: a name of the package's top level that a learner's cell reassigned -------------------


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [("w4.memory_count", 7), ("w4.repair_requests", 3), ("w4.immediate", 1)],
)
def test_week4_checks_run_the_package_not_what_toolkit_ai_service_was_reassigned_to(monkeypatch, exercise_id, answer):
    """A learner's cell `toolkit.ai_service = my_logging_wrapper` (or a stub) must not change what the
    check runs: the checks import the package's own function from its module, as every other week's do."""
    import toolkit

    def stub(*args, **kwargs):
        raise RuntimeError("a learner's stand-in")

    for name in ("ai_service", "memory_per_id", "system_message"):
        monkeypatch.setattr(toolkit, name, stub)
    result = check(exercise_id, answer)
    assert result.passed, result.feedback


def test_the_declare_check_builds_the_service_with_the_packages_ai_service(monkeypatch):
    import toolkit

    namespace: dict = {"__name__": "__main__"}
    exec(get("w4.declare").solution.replace('check("w4.declare", answer)', ""), namespace)
    monkeypatch.setattr(toolkit, "ai_service", lambda *args, **kwargs: None)
    result = check("w4.declare", namespace["answer"])
    assert result.passed, result.feedback


# --- w5: a tool object of another library is told to use the course's @tool ------------------------


@pytest.mark.parametrize("exercise_id", ["w5.fix_arg0", "w5.schema_target"])
def test_a_tool_object_of_another_library_is_told_to_use_the_courses_tool(exercise_id):
    """LangChain's @tool makes an object (a StructuredTool with name and description), as a stdlib
    SimpleNamespace stands in for here: it read "the tool definition is refused: tools_from(SimpleNamespace
    object): SimpleNamespace has no @tool methods. Fix: decorate its tool methods with @tool", a call the
    learner never wrote and methods the object does not have."""
    from types import SimpleNamespace

    made = SimpleNamespace(name="query_order", description="Look up one order by its id.", func=lambda order_id: "")
    result = check(exercise_id, made)
    assert (result.status, result.feedback) == (
        "failed",
        "answer with a function marked with the course's @tool (from toolkit import tool), not a SimpleNamespace "
        "object (from types): another library's tool is not reflected here",
    )


def test_an_object_of_the_learners_own_without_tool_methods_is_still_told_to_mark_them():
    class Shop:
        def query_order(self, order_id: str) -> str:
            return f"order {order_id}: shipped"

    result = check("w5.fix_arg0", Shop())
    assert (result.status, result.feedback) == (
        "failed",
        "the tool definition is refused: tools_from(Shop object): Shop has no @tool methods. Fix: decorate its "
        "tool methods with @tool, or pass functions",
    )


# --- w6.window: messages kept, but out of the conversation's order ----------------------------------

_WINDOW_REFERENCE = """
from toolkit import SystemMessage
from toolkit.exercises import check, get

namespace = {}
exec(get("w6.window").solution.replace('check("w6.window", keep)', ""), namespace)
right_keep = namespace["keep"]
"""


def test_a_window_that_puts_the_system_message_last_is_told_it_comes_first():
    """`kept + [system]` was told 'the system message was dropped; it always stays', of a window that kept it."""
    result = run_cell(
        _WINDOW_REFERENCE
        + """
def keep(messages, n):
    kept = right_keep(messages, n)
    return kept[1:] + kept[:1] if kept and isinstance(kept[0], SystemMessage) else kept

result = check("w6.window", keep)
"""
    )
    assert (result.status, result.feedback) == (
        "failed",
        "for n=17 and [system user assistant tool tool assistant tool tool assistant user assistant user assistant "
        "tool tool assistant user assistant] the system message is kept, but as your message 10: it comes first",
    )


def test_a_window_that_puts_a_tool_result_before_its_call_is_told_the_order():
    """A window kept newest first was told it 'keeps a tool result whose call is gone', of a call it kept."""
    result = run_cell(
        _WINDOW_REFERENCE
        + """
def keep(messages, n):
    return list(reversed(right_keep(messages, n)))

result = check("w6.window", keep)
"""
    )
    assert (result.status, result.feedback) == (
        "failed",
        "for n=4 and [user assistant tool tool assistant] your window keeps a tool result before its call: keep "
        "the messages in the conversation's order",
    )


# --- w3.normalize: a normalize that raises, as validation's own rule does -------------------------


@pytest.mark.parametrize(
    ("when", "body", "said"),
    [
        (  # raises for an id it rejects, as normalize_order_id raises Rejected
            "finish(text) is None",
            "raise ValueError(f'not an order id: {raw}')",
            "normalize('ＳＮ２０２６１０２０００１') raised ValueError: not an order id: ＳＮ２０２６１０２０００１; "
            "validation rejects it too, but normalize returns None for an id it rejects, it does not raise",
        ),
        (  # fails on an input validation accepts
            "text.startswith('订单号')",
            "raise KeyError(raw)",
            "normalize('订单号：SN202610200001') raised KeyError: '订单号：SN202610200001'; validation accepts it as "
            "'SN202610200001'",
        ),
    ],
)
def test_a_normalize_that_raises_is_told_the_input_and_what_validation_does(when, body, said):
    """Before: 'your code raised ValueError: …' — no input named, and a learner who raised for a rejected
    id as normalize_order_id does (Rejected) was not told to return None."""
    namespace: dict = {}
    exec(
        _NORMALIZE_PARTS + "\ndef normalize(raw):\n"
        "    text = half(raw)\n"
        f"    if {when}:\n"
        f"        {body}\n"
        "    return finish(text)\n",
        namespace,
    )
    result = check("w3.normalize", namespace["normalize"])
    assert (result.status, result.feedback) == ("failed", said)


# --- w4.immediate / w4.repair_requests: a count below the first request ----------------------------


@pytest.mark.parametrize(
    ("exercise_id", "said"),
    [
        (
            "w4.immediate",
            "not 0: the tool runs only when the model calls it, and the model calls it in its answer to a request",
        ),
        (
            "w4.repair_requests",
            "the model did not receive 0 requests: the tool runs only when the model calls it, and the model calls "
            "it in its answer to a request",
        ),
    ],
)
def test_a_count_of_no_model_request_is_told_the_model_calls_the_tool(exercise_id, said):
    """Before: w4.immediate's 0 was told 'after an IMMEDIATE tool the loop returns at once', which reads as
    the reason for fewer requests, not more."""
    assert (check(exercise_id, 0).status, check(exercise_id, 0).feedback) == ("failed", said)


# --- w4.declare: a chat() written with a body --------------------------------------------------------


def test_a_declaration_whose_chat_has_a_body_is_told_nothing_asks_the_model():
    """Before: '✓ one class, no body: ai_service built it' — of a class whose chat() returned "hi". A body
    of one's own runs as written (LangChain4j's default method), so no method asks the model: the cell's
    source is not kept here (as in a class made by `exec`), and the body is still seen, from its code."""
    result = run_cell(
        """
        from typing import Annotated, Protocol
        from toolkit import MemoryId, UserText
        from toolkit.exercises import check

        class Assistant(Protocol):
            def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str:
                return "hi"

        result = check("w4.declare", Assistant)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "ai_service() refused the declaration: ai_service(Assistant): its public methods (chat) have bodies of "
        "their own, which ai_service keeps as written (as LangChain4j runs an interface's default method), so no "
        "method asks the model; declare one with ... as its body, e.g. def chat(self, question: str) -> str: ...",
    )


def test_a_usage_that_fails_on_a_null_usage_is_told_the_body():
    """Before: 'your code raised AttributeError: 'NoneType' object has no attribute 'get'' — not which body:
    `body.get("usage", {})` is the usual slip, and `usage: null` is the body it fails on."""
    result = run_cell(
        """
        from toolkit import TokenUsage
        from toolkit.exercises import check

        def usage_from_body(body):
            usage = body.get("usage", {})
            return TokenUsage(input_tokens=usage.get("prompt_tokens"), output_tokens=usage.get("completion_tokens"))

        result = check("w1.usage_build", usage_from_body)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        """for {"usage": null} your code raised AttributeError: 'NoneType' object has no attribute 'get'""",
    )


def test_a_wait_that_raises_on_a_missing_retry_after_is_told_the_call():
    """Before: 'your code raised TypeError: …' — not which call: a Retry-After compared before its None
    is looked at fails on wait(1, None)."""
    result = run_cell(
        """
        from toolkit.exercises import check

        def wait(attempt, retry_after):
            backoff = min(8.0, 0.5 * 2 ** (attempt - 1))
            return min(30.0, retry_after) if retry_after > backoff else backoff

        result = check("w2.backoff", wait)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "wait(1, None) raised TypeError: '>' not supported between instances of 'NoneType' and 'float'",
    )


def test_a_usage_that_prints_its_usage_is_asked_whether_it_prints():
    """Before: 'for {} you returned None, not a TokenUsage' — the learner saw their TokenUsage printed under
    the cell, and was not told why it did not count (w2.backoff asks; this did not)."""
    result = run_cell(
        """
        from toolkit import TokenUsage
        from toolkit.exercises import check

        def usage_from_body(body):
            usage = body.get("usage") or {}
            print(TokenUsage(input_tokens=usage.get("prompt_tokens"), output_tokens=usage.get("completion_tokens")))

        result = check("w1.usage_build", usage_from_body)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "for {} you returned None, not a TokenUsage: return TokenUsage(input_tokens=..., output_tokens=...) — does "
        "your function print its answer instead of returning it?",
    )


def test_a_wait_with_jitter_is_told_so_in_the_same_words_on_every_run():
    """Before: 'wait(1, None) returned 0.5226363483563348, RetryPolicy().wait gives 0.5' — another number on
    each run (the notebook's output changed with every run), and jitter, which retry libraries add, not named."""
    result = run_cell(
        """
        import random
        from toolkit.exercises import check

        def wait(attempt, retry_after):
            backoff = min(8.0, 0.5 * 2 ** (attempt - 1)) * random.uniform(0.5, 1.5)
            return backoff if retry_after is None else min(30.0, max(backoff, retry_after))

        result = check("w2.backoff", wait)
        """
    )
    assert (result.status, result.feedback) == ("failed", f"wait(1, None) {VARIES}")


VARIES = (
    "gave another wait each time it was called with the same arguments: RetryPolicy().wait keeps no state and adds "
    "no jitter — the same attempt and Retry-After always wait the same (a count kept in a global changes between "
    "calls; so does a random number)"
)


def test_a_wait_that_doubles_a_global_on_each_call_is_told_it_keeps_state():
    """Before: a learner's wait() that doubled a global on each call (right for attempts 1, 2, 3 from a fresh
    kernel, the visible examples) was told 'RetryPolicy().wait adds no jitter' — about random numbers it never
    used; what was wrong, the state its global kept between the check's calls, was not said."""
    result = run_cell(
        """
        from toolkit.exercises import check

        current = 0.5

        def wait(attempt, retry_after):
            global current
            backoff = min(8.0, current)
            current *= 2
            return backoff if retry_after is None else min(30.0, max(backoff, retry_after))

        result = check("w2.backoff", wait)
        """
    )
    assert (result.status, result.feedback) == ("failed", f"wait(1, 0.0) {VARIES}")


# --- build checks: a function that changes what it is given is wrong, whatever it returns ---------------------


def test_a_score_that_empties_the_terms_it_is_given_fails():
    """Before: ✓ 'identical to toolkit.search.keyword.score on 360 pairs' — each pair got a fresh copy of the terms,
    but the search scores every tool with one list: this score finds the first tool only."""
    result = run_cell(
        """
        from toolkit.exercises import check

        def score(name, description, terms):
            total = 0
            while terms:
                term = terms.pop()
                total += 2 * (term in name.lower()) + (term in description.lower())
            return total

        result = check("w8.score", score)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "score('respond_to_invitation', …, terms) changed the terms it was given: ['rain', 'tax', 'zzz', 'cancel', "
        "'invitation'] became [] — the search scores every tool with the same terms, so the next tool would be scored "
        "with what is left; leave what your function is given as it was (change a copy of your own)",
    )


def test_a_usage_that_pops_the_usage_out_of_the_body_fails():
    """Before: ✓ — the body each call got was a copy, so its loss went unseen."""
    result = run_cell(
        """
        from toolkit import TokenUsage
        from toolkit.exercises import check

        def usage_from_body(body):
            usage = body.pop("usage", None) or {}
            def count(v):
                if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0 or v != int(v):
                    return None
                return int(v)
            return TokenUsage(input_tokens=count(usage.get("prompt_tokens")),
                              output_tokens=count(usage.get("completion_tokens")))

        result = check("w1.usage_build", usage_from_body)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "usage_from_body(body) changed the body it was given: {'usage': None} became {} — its caller may read that "
        "body again; leave what your function is given as it was (change a copy of your own)",
    )


def test_a_returns_now_that_pops_the_behaviors_fails():
    result = run_cell(
        """
        from toolkit import ReturnBehavior
        from toolkit.exercises import check

        def returns_now(behaviors, any_error):
            if any_error or not behaviors:
                return False
            last = behaviors.pop()
            if last == ReturnBehavior.IMMEDIATE_IF_LAST:
                return True
            return last != ReturnBehavior.TO_LLM and ReturnBehavior.TO_LLM not in behaviors

        result = check("w6.truth_table", returns_now)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "returns_now([TO_LLM], any_error=False) changed the behaviors it was given: [TO_LLM] became [] — its caller "
        "may read that list again; leave what your function is given as it was (change a copy of your own)",
    )


def test_a_window_that_pops_the_system_message_off_the_conversation_it_is_given_fails():
    """Before: ✓ — it keeps what the memory keeps, but the conversation it was given lost its system message."""
    result = run_cell(
        """
        from toolkit import AssistantMessage, SystemMessage, ToolResultMessage, UserMessage
        from toolkit.exercises import check
        """
        + WINDOW_BY_GROUPS
        + """
        def keep(messages, n):
            system = [messages.pop(0)] if messages and isinstance(messages[0], SystemMessage) else []
            return system + keep_by_groups(messages, n - len(system))

        result = check("w6.window", keep)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "keep(messages, 17) changed the messages it was given: [system user assistant tool tool assistant tool tool "
        "assistant user assistant user assistant tool tool assistant user assistant] became [user assistant tool "
        "tool assistant tool tool assistant user assistant user assistant tool tool assistant user assistant] — its "
        "caller may read that conversation again; leave what your function is given as it was (change a copy of "
        "your own)",
    )


WINDOW_BY_GROUPS = """
        def groups_of(rest):
            out, i = [], 0
            while i < len(rest):
                j = i + 1
                if isinstance(rest[i], AssistantMessage) and rest[i].tool_calls:
                    while j < len(rest) and isinstance(rest[j], ToolResultMessage):
                        j += 1
                out.append(rest[i:j])
                i = j
            return out

        def keep_by_groups(messages, n):   # drop whole groups, oldest first, then up to a user message
            system = [messages[0]] if messages and isinstance(messages[0], SystemMessage) else []
            groups = groups_of(list(messages[len(system):]))
            users = [k for k, g in enumerate(groups) if isinstance(g[0], UserMessage)]
            user = users[-1] if users else None
            calls = [k for k, g in enumerate(groups) if g[0].role == "assistant" and g[0].tool_calls
                     and (user is None or k > user)]
            start = calls[-1] if calls else (user if user is not None else len(groups))
            protected = set(range(start, len(groups))) | ({user} if user is not None else set())
            kept = list(range(len(groups)))
            dropped = False
            for k in range(len(groups)):
                if len(system) + sum(len(groups[j]) for j in kept) <= n:
                    break
                if k not in protected:
                    kept.remove(k)
                    dropped = True
            while dropped and kept and kept[0] not in protected and not isinstance(groups[kept[0]][0], UserMessage):
                kept.pop(0)
            out = [m for k in kept for m in groups[k]]
            while out and isinstance(out[0], ToolResultMessage):
                out.pop(0)
            return system + out
"""


def test_a_score_and_a_usage_that_leave_their_input_as_given_pass():
    """The rule is about the input, not about changing lists: a copy changed freely, or a dict marked and put
    back, passes."""
    score = run_cell(
        """
        from toolkit.exercises import check

        def score(name, description, terms):
            terms = list(terms)   # a copy of its own, emptied freely
            total = 0
            while terms:
                term = terms.pop()
                total += 2 * (term in name.lower()) + (term in description.lower())
            return total

        result = check("w8.score", score)
        """
    )
    usage = run_cell(
        """
        from toolkit import TokenUsage
        from toolkit.exercises import check

        def usage_from_body(body):
            body["seen"] = True          # marked, then put back as it was
            usage = body.get("usage") or {}
            del body["seen"]
            def count(v):
                if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0 or v != int(v):
                    return None
                return int(v)
            return TokenUsage(input_tokens=count(usage.get("prompt_tokens")),
                              output_tokens=count(usage.get("completion_tokens")))

        result = check("w1.usage_build", usage_from_body)
        """
    )
    assert [score.status, usage.status] == ["passed", "passed"]


def test_a_protocol_declared_with_typing_extensions_passes():
    """Before: ✗ 'your answer holds a _ProtocolMeta (from typing_extensions), whose == is its own code, not a plain
    value's' — typing_extensions.Protocol (what older tutorials and Python 3.7 code import) is typing's own Protocol
    backported; its metaclass's == only says the two Protocols are one."""
    result = run_cell(
        """
        from typing import Annotated

        from typing_extensions import Protocol

        from toolkit import MemoryId, UserText
        from toolkit.exercises import check

        class Assistant(Protocol):
            def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

        result = check("w4.declare", Assistant)
        """
    )
    assert (result.status, result.feedback) == (
        "passed",
        "ai_service built chat() from its declaration, and each memory id has its own conversation.",
    )


@pytest.mark.parametrize(
    ("definition", "kind"),
    [
        (
            "async def cancel_hotel(guest: str, nights: int) -> None:\n    BOOKINGS.remove((guest, nights))",
            "an async function",
        ),
        (
            "def cancel_hotel(guest: str, nights: int):\n    BOOKINGS.remove((guest, nights))\n    yield",
            "a generator (it yields)",
        ),
    ],
)
def test_a_compensation_the_loop_refuses_is_described_as_the_learner_wrote_it(definition, kind):
    """Before: 'it is a functools.wraps wrapper of an async function' — of the wrapper the check puts around each
    compensation (to watch each call), not of the learner's plain `async def`, which has no wrapper."""
    result = run_cell(
        """
        from toolkit import compensates
        from toolkit.exercises import check
        from toolkit.exercises.week07 import BOOKINGS

        @compensates("book_hotel")
"""
        + textwrap.indent(definition, " " * 8)
        + """

        result = check("w7.compensation", cancel_hotel)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "the loop refused the compensation: @compensates('book_hotel') __main__.cancel_hotel: it is "
        f"{kind}, and the saga calls compensations synchronously: its body would never run, and the call would read "
        "'rolled back' when nothing was undone; make it a plain function (async compensations are left out, like "
        "async tools)",
    )


def test_a_wait_that_doubles_from_the_first_attempt_is_told_so_without_the_formula():
    """Before: '— the first wait is the base backoff: 0.5 * 2 ** (attempt - 1)', the solution's own expression in
    the feedback of a learner who was one doubling off."""
    result = run_cell(
        """
        from toolkit.exercises import check

        def wait(attempt, retry_after):
            backoff = min(8.0, 0.5 * 2 ** attempt)
            return backoff if retry_after is None else min(30.0, max(backoff, retry_after))

        result = check("w2.backoff", wait)
        """
    )
    assert (result.status, result.feedback) == (
        "failed",
        "wait(1, None) returned 1.0, RetryPolicy().wait gives 0.5 — the first attempt waits the base backoff "
        "itself; it doubles from the second attempt on",
    )
