"""`toolkit.errors`: every error a learner can meet shows one line and a hint in a notebook."""

import inspect
import os
from pathlib import Path

import pytest

import toolkit.errors as errors

MODEL_TEXTS = {errors.SearchArgumentError, errors.SkillError}
"""Texts written for the model: they go back as tool results, not up to the learner."""
DYNAMIC = {errors.ModelCallError, errors.CallerError, errors.TransientError}
"""A model call's hint depends on the response (`ModelCallError.hint`), its message says what to do."""

RAISED = sorted(
    (
        cls
        for _, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, errors.ToolkitError) and cls is not errors.ToolkitError and cls not in MODEL_TEXTS | DYNAMIC
    ),
    key=lambda cls: cls.__name__,
)


@pytest.mark.parametrize("cls", RAISED, ids=lambda cls: cls.__name__)
def test_each_error_class_has_a_one_sentence_hint(cls):
    hint = cls.__dict__.get("hint") or next(c.__dict__["hint"] for c in cls.__mro__ if "hint" in c.__dict__)
    assert isinstance(hint, str) and hint, f"{cls.__name__} has no hint"
    assert "\n" not in hint and len(hint) <= 240


def test_the_notebook_shows_the_line_and_the_hint_not_a_traceback():
    error = errors.ScriptExhausted("the script has no turn left for request 3")
    assert error._render_traceback_() == [
        "ScriptExhausted: the script has no turn left for request 3",
        "Hint: Each turn answers one request: if you ran a cell again, run the cell that makes the model again; "
        f"else add a turn (text for an answer, call(...) for a tool call). model.requests shows each request. "
        f"{errors.TB_NOTE}",
    ]


def test_an_unknown_tool_raised_to_the_learner_says_how_to_feed_it_back_instead():
    from toolkit.tools import execute

    error = errors.UnknownToolError("track", ["query_order"])
    assert "report_unknown_tool" in error.hint and "report_argument_error" in error.hint
    assert callable(execute.report_unknown_tool) and callable(execute.report_argument_error)
    assert callable(execute.report_execution_error)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("int", "an int"),
        ("str", "a str"),
        ("object", "an object"),
        ("ImportError", "an ImportError"),
        ("UserMessage", "a UserMessage"),  # said "you": was "an UserMessage"
        ("Union", "a Union"),
        ("UnicodeDecodeError", "a UnicodeDecodeError"),
        ("Usage", "a Usage"),
        ("uint8", "a uint8"),
        ("UUID", "a UUID"),
        ("URL", "a URL"),
        ("Unprintable", "an Unprintable"),
        ("UnboundLocalError", "an UnboundLocalError"),
        ("HTTPError", "an HTTPError"),  # an acronym, by its first letter's name
        ("SSLError", "an SSLError"),
        ("OSError", "an OSError"),
        ("IPv4Address", "an IPv4Address"),
        ("MCPServer", "an MCPServer"),
        ("NDArray", "an NDArray"),
        ("JSONDecodeError", "a JSONDecodeError"),
        ("NaN", "a NaN"),
        ("NoneType", "a NoneType"),
        ("", "a "),
        ("U", "a U"),  # a one-letter class of a learner's, said by the letter's name: was "an U", "a M"
        ("M", "an M"),
        ("A", "an A"),
        ("T", "a T"),
        ("X2", "an X2"),
        ("U_1", "a U_1"),
    ],
)
def test_a_type_name_takes_the_article_it_is_said_with(word, expected):
    assert errors.a_or_an(word) == expected


def test_an_int_past_every_float_is_shown_by_its_size():
    assert errors.huge_int(10**400) == "<an int of 1329 bits>"
    assert errors.huge_int(-(10**5000)) == "<an int of 16610 bits>"  # its repr would raise ValueError


def test_a_message_quoting_a_lone_surrogate_is_escaped_once_ipython_shows_it():
    """Jupyter dropped an error whose text UTF-8 cannot encode: the cell showed nothing. Once IPython asks for its
    lines, the message writes a lone surrogate as its escape; before (a command line, a tool result), as it was."""
    error = errors.ArgumentError("echo", [errors.ArgumentProblem("\ud800", '"\udfff"', "x")])
    assert (
        str(error)
        == "Invalid arguments for tool 'echo':\n- \ud800: got \"\udfff\", expected x\nFix the arguments and call echo again."
    )
    assert error._render_traceback_()[0] == (
        "ArgumentError: Invalid arguments for tool 'echo':\n- \\ud800: got \"\\udfff\", expected x\n"
        "Fix the arguments and call echo again."
    )
    assert (
        str(error)
        == "Invalid arguments for tool 'echo':\n- \\ud800: got \"\\udfff\", expected x\nFix the arguments and call echo again."
    )
    assert all(line.isprintable() or not line for line in error._render_traceback_())  # %tb: the chain, escaped too
    zh = errors.ArgError("query_order", "orderId", "SN\ud83d\ude00\udc80", "SN 开头加 12 位数字")
    zh._render_traceback_()
    assert "SN😀\\udc80" in str(zh)  # a pair given as two code points is its character


def test_a_kernel_shows_the_error_of_a_models_call_with_a_lone_surrogate(tmp_path):
    from jupyter_client.manager import start_new_kernel

    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    code = (
        "from toolkit import ScriptedModel, ToolCall, run_loop, tool\n"
        "@tool('echo')\ndef echo(x: str) -> str:\n    return x\n"
        "run_loop(ScriptedModel([[ToolCall(id='c1', name='echo', arguments='{\"\\\\ud800\": 1}')], 'ok']), 'q', "
        "tools=[echo])"
    )
    shown = []

    def hook(message):
        if message["msg_type"] == "error":
            shown.append((message["content"]["ename"], message["content"]["evalue"], message["content"]["traceback"]))

    manager, client = start_new_kernel(kernel_name="python3", env=env, cwd=str(tmp_path))
    try:
        reply = client.execute_interactive(code, timeout=180, output_hook=hook)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert reply["content"]["status"] == "error"
    message = (
        "Invalid arguments for tool 'echo':\n- \\ud800: unknown field (got 1), valid fields: x\n- x: missing, "
        "expected a string\nFix the arguments and call echo again."
    )
    assert shown == [("ArgumentError", message, [f"ArgumentError: {message}", shown[0][2][-1]])]
