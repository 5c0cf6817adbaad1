"""A tool that raises, under the default execution policy, is a warning for the developer as well as an
error result for the model: LangChain4j's `DEFAULT_TOOL_EXECUTION_ERROR_HANDLER`
(langchain4j/src/main/java/dev/langchain4j/service/tool/ToolService.java) does `log.warn("Tool '{}' execution
failed. The error message is being returned to the LLM. To customize this behavior (and silence this log),
configure a custom ToolExecutionErrorHandler ...")`, and seed 000 §3.5's table gives the default as "打一条 warn
日志,把异常 message 当结果回喂模型". Before, a tool failing on every call in production left no trace outside
the conversation. A policy of one's own is silent, as a custom handler is there; the log holds the sanitised
text the model reads, never the secret the exception quoted."""

import asyncio
import logging

import pytest

from toolkit.chat.messages import ToolCall
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import ToolExecutionError
from toolkit.loop.run import run_loop
from toolkit.tools.execute import FEED_BACK_ALL, Policies, Tool, raise_error
from toolkit.tools.reflect import ToolSpec

HINT = (
    " (sent back to the model as the call's result; to handle a failing tool otherwise, and silence this "
    "log, give Policies(execution_error=...) a policy of your own)"
)


def failing(message: str) -> Tool:
    def run(call, context):
        raise RuntimeError(message)

    return Tool(ToolSpec("stock", "Reads the stock."), run)


def warnings(caplog) -> list[tuple[str, int, str]]:
    return [(r.name, r.levelno, r.getMessage()) for r in caplog.records if r.name.startswith("toolkit")]


def test_a_failing_tool_under_the_default_policy_is_one_warning_saying_what_the_model_reads(caplog):
    caplog.set_level(logging.WARNING, logger="toolkit")
    result = run_loop(ScriptedModel([call("stock"), "sorry"]), "how many?", tools=[failing("db down")])
    assert result.answer == "sorry"
    assert warnings(caplog) == [("toolkit.tools", logging.WARNING, "Tool 'stock' failed: RuntimeError: db down" + HINT)]


def test_the_warning_holds_the_sanitised_text_never_the_secret(caplog):
    caplog.set_level(logging.WARNING, logger="toolkit")
    secret = "sk-proj-" + "a1B2c3D4e5" * 4
    failing("upstream refused api_key=" + secret).execute(ToolCall(id="c1", name="stock"), policies=FEED_BACK_ALL)
    [(_, _, text)] = warnings(caplog)
    assert secret not in text and secret[:12] not in text
    assert text.startswith("Tool 'stock' failed: RuntimeError: upstream refused api_key=") and text.endswith(HINT)


def own_words(error: ToolExecutionError, call: ToolCall) -> str:
    return "The stock service is down; try later."


@pytest.mark.parametrize("policy", [own_words, raise_error], ids=["own-policy", "raise"])
def test_a_policy_of_ones_own_is_not_logged(caplog, policy):
    """As in LangChain4j, where configuring a handler silences the log (raising reaches the caller anyway)."""
    caplog.set_level(logging.WARNING, logger="toolkit")
    try:
        failing("db down").execute(ToolCall(id="c1", name="stock"), policies=Policies(execution_error=policy))
    except ToolExecutionError:
        pass
    assert warnings(caplog) == []


IN_A_RUNNING_LOOP = (
    " (this turn runs inside a running event loop, as a Jupyter cell does, where asyncio.run cannot start "
    "another: run the coroutine on a thread of its own inside the tool, "
    "ThreadPoolExecutor(1).submit(asyncio.run, coro).result(), or give the turn LoopOptions(tool_timeout=...), "
    "which runs each call on a thread of its own)"
)


def test_a_tool_calling_asyncio_run_in_a_running_event_loop_is_logged_with_the_fix(caplog):
    """A tool that runs its async client with asyncio.run (the fix the toolkit gives for an async call)
    works in a script but fails in a Jupyter cell, whose thread runs an event loop: the developer's
    warning says why and what works there; the model reads the tool's failure as ever."""
    caplog.set_level(logging.WARNING, logger="toolkit")

    def run(call, context):
        async def stock() -> str:
            return "12"

        coro = stock()
        try:
            return asyncio.run(coro)
        finally:
            coro.close()

    async def cell():
        model = ScriptedModel([call("stock", id="c1"), "sorry"])
        run_loop(model, "how many?", tools=[Tool(ToolSpec("stock", "Reads the stock."), run)])
        return model.requests[1].messages[-1].content

    read = asyncio.run(cell())
    assert read == "Tool 'stock' failed: RuntimeError: asyncio.run() cannot be called from a running event loop"
    assert warnings(caplog) == [("toolkit.tools", logging.WARNING, read + IN_A_RUNNING_LOOP + HINT)]


@pytest.mark.parametrize(
    "raised, said",
    [
        ("no stock for caf\udce9.csv", "no stock for caf\ufffd.csv"),  # a file name decoded with surrogateescape
        ("bad name \ud83d", "bad name \ufffd"),  # half of an emoji, read from JSON
        ("bad name \ud83d\ude00", "bad name 😀"),  # an emoji's two halves as two code points: joined
    ],
)
def test_a_lone_surrogate_in_a_tools_error_is_a_replacement_character_everywhere_it_goes(
    caplog, raised, said, tmp_path
):
    """The warning, the result memory keeps and the raised error held the lone surrogate: a log file's
    handler printed "--- Logging error ---" with a traceback, and the error could not be printed to a
    UTF-8 terminal (the client made the model's copy well-formed; nothing else did)."""
    caplog.set_level(logging.WARNING, logger="toolkit")
    handler = logging.FileHandler(tmp_path / "run.log", encoding="utf-8")
    errors = []
    handler.handleError = lambda record: errors.append(record)  # what prints "--- Logging error ---"
    logging.getLogger("toolkit").addHandler(handler)
    try:
        result = run_loop(ScriptedModel([call("stock", id="c1"), "done"]), "stock?", tools=[failing(raised)])
    finally:
        logging.getLogger("toolkit").removeHandler(handler)
        handler.close()
    text = f"Tool 'stock' failed: RuntimeError: {said}"
    assert result.new_messages[1].content == text
    assert warnings(caplog) == [("toolkit.tools", logging.WARNING, text + HINT)]
    assert errors == []
    assert (tmp_path / "run.log").read_text(encoding="utf-8") == text + HINT + "\n"
    stopped = failing(raised).run(ToolCall(id="c1", name="stock"), policies=Policies(execution_error=raise_error))
    assert str(stopped.raised) == text
    str(stopped.raised).encode("utf-8")  # printable on a UTF-8 terminal
