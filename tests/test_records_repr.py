"""`LoopOptions` and `Policies` as `repr` shows them (`help(run_loop)`, a notebook's output): only
the options that differ from the defaults, functions by their qualified names, the package's text sets
by name. Before, `help(run_loop)` printed 1,500 characters of defaults with three functions' memory
addresses, different in every process."""

import pydoc

from toolkit import COURSE, FEED_BACK_ALL, run_loop
from toolkit.loop.records import LoopOptions
from toolkit.tools.execute import Policies


def shop_clock() -> float:
    return 0.0


def test_the_defaults_read_as_the_call_that_makes_them():
    assert repr(LoopOptions()) == "LoopOptions()"
    assert (
        repr(Policies())
        == "Policies(unknown_tool=raise_error, argument_error=raise_error, execution_error=report_execution_error)"
    )


def test_only_the_changed_options_are_shown_in_declaration_order():
    options = LoopOptions(stream=True, max_round_trips=3, policies=FEED_BACK_ALL, clock=shop_clock)
    assert repr(options) == (
        "LoopOptions(max_round_trips=3, policies=Policies(unknown_tool=report_unknown_tool, "
        "argument_error=report_argument_error, execution_error=report_execution_error), clock=shop_clock, stream=True)"
    )


def test_the_course_options_name_their_chinese_texts():
    shown = repr(COURSE)
    assert shown.startswith("LoopOptions(max_model_requests=5, on_limit='handover', tool_choice='auto', ")
    assert shown.endswith(", loop_guard=True, texts=ZH)")
    assert "unknown_tool=LoopTexts.report_unknown_tool" in shown


def test_help_of_run_loop_holds_no_memory_address():
    text = pydoc.render_doc(run_loop, renderer=pydoc.plaintext)
    assert "options: 'LoopOptions' = LoopOptions()" in text
    assert " at 0x" not in text


def test_a_lambda_reads_as_its_qualified_name():
    options = LoopOptions(clock=lambda: 1.0, request_extra={"seed": 7})
    assert repr(options) == (
        "LoopOptions(clock=test_a_lambda_reads_as_its_qualified_name.<locals>.<lambda>, request_extra={'seed': 7})"
    )
