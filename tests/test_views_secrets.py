"""No secret a tool returns (or the model repeats) reaches a view of a loop run: the trace (HTML
and text alike), the saga log, the sequence diagram, the stepper and the stream view.

Found as a stranger: the trace's HTML scrubbed a call's arguments but its text printed them
raw; what an immediate return hands the caller, and the diagram's labels, were never scrubbed."""

from toolkit.chat.messages import ToolCall, UserMessage
from toolkit.chat.scripted import ScriptedModel, reset_call_ids
from toolkit.chat.sse import TextDelta, ToolCallDelta
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.loop.saga import compensates
from toolkit.tools.decorator import ReturnBehavior, tool
from toolkit.views.sequence import sequence_source
from toolkit.views.stepper import LoopStepper
from toolkit.views.stream import event_line, render_stream_html, render_stream_text
from toolkit.views.trace import render_saga_html, render_saga_text, render_trace_html, render_trace_text

KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"
PASSWORD = "Tr0ub4dor&3xyz"
SECRETS = (KEY, PASSWORD, "Tr0ub4dor")


@tool("Read the settings", return_behavior=ReturnBehavior.IMMEDIATE)
def settings(section: str) -> str:
    return f"DB_PASS={PASSWORD} api key {KEY}"


@tool("Look up a setting")
def lookup(section: str) -> str:
    return f"DB_PASS={PASSWORD}"


def leaked(*texts: str) -> list[str]:
    return [s for s in SECRETS if any(s in t for t in texts)]


def call(name: str, arguments: str) -> ToolCall:
    return ToolCall(id="c1", name=name, arguments=arguments)


def immediate_run():
    """The model sends a key in the arguments; the tool returns secrets and returns at once."""
    model = ScriptedModel([call("settings", f'{{"section": "password={PASSWORD} {KEY}"}}')])
    return run_loop(model, [UserMessage(content="show the settings")], tools=[settings])


def echoed_run():
    """The tool returns a secret and the model repeats it in its answer."""
    model = ScriptedModel([call("lookup", '{"section": "db"}'), f"The password: DB_PASS={PASSWORD}"])
    return run_loop(model, [UserMessage(content="db?")], tools=[lookup])


def test_the_trace_text_and_html_show_no_secret_of_arguments_results_or_what_the_caller_receives():
    result = immediate_run()
    text, html = render_trace_text(result), str(render_trace_html(result))
    assert leaked(text) == [] and leaked(html) == []
    assert "caller receives: settings: DB_PASS=[REDACTED] api key [REDACTED]" in text
    assert 'model → settings({"section": "password=[REDACTED] [REDACTED]"})' in text


def test_the_trace_shows_no_secret_the_model_repeats():
    result = echoed_run()
    assert leaked(render_trace_text(result), str(render_trace_html(result))) == []
    assert render_trace_text(result).endswith("answer: The password: [REDACTED]")


def test_the_sequence_diagram_shows_no_secret():
    assert leaked(sequence_source(immediate_run()), sequence_source(echoed_run())) == []


def test_the_stepper_shows_no_secret():
    stepper = LoopStepper(immediate_run())
    assert leaked(stepper.text(), *(s.detail for s in stepper.steps)) == []


def test_the_saga_log_shows_no_secret_of_a_rewritten_result():
    @tool("Charge the card")
    def charge(amount: int) -> str:
        return f"charged, card token {KEY}"

    @compensates("charge")
    def refund(amount: int) -> None:
        pass

    @tool("Ship it")
    def ship() -> str:
        raise RuntimeError("no courier")

    def run(compensate: bool):
        reset_call_ids()
        script = [[ToolCall(id="c1", name="charge", arguments='{"amount": 5}'), ToolCall(id="c2", name="ship")], "no"]
        options = LoopOptions(compensate=compensate, compensations=(refund,))
        return run_loop(ScriptedModel(script), [UserMessage(content="buy")], tools=[charge, ship], options=options)

    before, result = run(False).messages, run(True)
    assert [e.ok for e in result.saga] == [True]
    shown = render_saga_text(result, before) + str(render_saga_html(result, before))
    assert leaked(shown) == []
    assert "card token [REDACTED]" in shown


def test_the_stream_view_shows_no_secret():
    events = [
        TextDelta(f"the key is {KEY}"),
        ToolCallDelta(index=0, id="c1", name="lookup", arguments=f'{{"section": "{KEY}"}}'),
    ]
    shown = [render_stream_text(events), render_stream_html(events), *map(event_line, events)]
    assert leaked(*shown) == []


def test_the_stream_view_shows_no_secret_of_the_error_that_stopped_it():
    """The status line printed the exception's text raw: a connection string, a key, an address."""
    error = RuntimeError(f"could not reach postgres://admin:{PASSWORD}@db/prod with {KEY} for <Foo object at 0x7f3a9c>")
    events = [TextDelta("hi")]
    shown = [render_stream_text(events, error=error), render_stream_html(events, error=error)]
    assert leaked(*shown) == []
    assert shown[0].splitlines()[-1] == (
        "stopped · RuntimeError: could not reach postgres://[REDACTED]@db/prod with [REDACTED] for <Foo object>"
    )
