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
from toolkit.tools.redact import scrub
from toolkit.views.sequence import sequence_source
from toolkit.views.stepper import LoopStepper
from toolkit.views.stream import StreamView, event_line, event_lines, render_stream_html, render_stream_text
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


def split_everywhere(text: str) -> list[list[str]]:
    """`text` cut in two at every place, and in pieces of 1 to 5 characters."""
    return [[text[:at], text[at:]] for at in range(1, len(text))] + [
        [text[i : i + n] for i in range(0, len(text), n)] for n in range(1, 6)
    ]


def parts_of(secret: str, text: str) -> list[str]:
    """The runs of 5 characters of `secret` that `text` holds (a key printed in two halves)."""
    return [secret[i : i + 5] for i in range(len(secret) - 4) if secret[i : i + 5] in text]


def test_a_key_split_over_text_deltas_shows_in_no_printed_line_whole_or_in_part():
    """`event_line` scrubbed each delta alone, so the notebook's "print every event" cell printed a
    key cut over two deltas in its two halves; `event_lines` scrubs the run of deltas as one stream."""
    text = f"您的密钥是 {KEY} ，请保管好。"
    for pieces in split_everywhere(text):
        events = [TextDelta(p) for p in pieces]
        lines = list(event_lines(events))
        printed = "\n".join(lines)
        assert len(lines) == len(events)
        assert parts_of(KEY, printed) == [], pieces
        assert "".join(eval(line.removeprefix("TextDelta").strip()) for line in lines) == scrub(text)


def test_a_key_split_over_argument_deltas_shows_in_no_printed_line():
    arguments = f'{{"section": "{KEY}"}}'
    for pieces in split_everywhere(arguments):
        events = [
            ToolCallDelta(index=0, id="c1", name="lookup", arguments=""),
            *(ToolCallDelta(index=0, id=None, name=None, arguments=p) for p in pieces),
            TextDelta("ok"),
        ]
        printed = "\n".join(event_lines(events))
        assert parts_of(KEY, printed) == [], pieces
        assert '"section": "[REDACTED]"' in printed.replace("'", "").replace("\nToolCallDelta #0 ", "")


def test_a_key_split_over_the_deltas_of_interleaved_parallel_calls_shows_in_no_printed_line():
    """Parallel calls streamed interleaved (0, 1, 0, 1): each switch of call started a new scrubber,
    so a key cut over call 0's fragments printed in its two halves around call 1's line."""
    arguments = f'{{"section": "{KEY}"}}'
    for pieces in split_everywhere(arguments):
        events = [ToolCallDelta(index=0, id="c1", name="lookup", arguments="")]
        for n, piece in enumerate(pieces):
            events += [
                ToolCallDelta(index=0, id=None, name=None, arguments=piece),
                ToolCallDelta(index=1, id="c2" if not n else None, name="lookup" if not n else None, arguments=" "),
            ]
        lines = list(event_lines(events))
        assert len(lines) == len(events)
        assert parts_of(KEY, "\n".join(lines)) == [], pieces
        heads = ("ToolCallDelta #0 lookup ", "ToolCallDelta #0 ")
        shown = [
            eval(line.removeprefix(heads[0]).removeprefix(heads[1])) for line in lines if line.startswith(heads[1])
        ]
        assert "".join(shown) == f'{{"section": "{scrub(KEY)}"}}'


def test_lines_of_a_stream_are_given_in_event_order_as_soon_as_they_are_final():
    given = []
    events = iter(
        [TextDelta("ok, "), TextDelta("fine. "), ToolCallDelta(0, "c1", "f", "{}"), ToolCallDelta(1, "c2", "g", "{}")]
    )

    def told():
        for event in events:
            given.append(event)
            yield event

    lines = event_lines(told())
    assert (next(lines), len(given)) == ("TextDelta     'ok, '", 2)  # the text went on: its first line is final
    assert (next(lines), len(given)) == ("TextDelta     'fine. '", 3)  # the text ended with the first call's delta
    assert list(lines) == ["ToolCallDelta #0 f '{}'", "ToolCallDelta #1 g '{}'"]


def test_the_live_view_never_shows_the_first_half_of_a_key_still_arriving():
    """The view scrubbed the text so far: `sk-proj-abcdefghij` (too short to be a key yet) was on
    screen until the rest arrived."""
    half = 12  # `sk-proj-abcd`: too short to be a key yet
    for events, rest in (
        ([TextDelta("the key is "), TextDelta(KEY[:half])], TextDelta(KEY[half:] + " ok")),
        (
            [ToolCallDelta(index=0, id="c1", name="lookup", arguments=f'{{"section": "{KEY[:half]}')],
            ToolCallDelta(index=0, id=None, name=None, arguments=f'{KEY[half:]}"}}'),
        ),
    ):
        view = StreamView("live")
        for event in events:
            view.push(event)
        shown = [view.value, view._repr_mimebundle_()["text/plain"], render_stream_text(events)]
        assert parts_of(KEY, "".join(shown)) == []
        view.push(rest)
        view.finish()
        assert parts_of(KEY, view.value + view._repr_mimebundle_()["text/plain"]) == []
        assert "[REDACTED]" in view.value


def test_the_conversation_view_masks_the_secrets_a_tool_or_the_model_wrote():
    """`ConversationView(result.messages)` showed a loop run's messages as they were: a tool's
    `DB_PASS=…`, a key the model repeated, a password in a call's arguments, in the HTML and the
    transcript alike, where the trace of the same run masks them. Masked as the trace masks them;
    a path stays (a secret only: `redact.scrub_secrets`)."""
    from toolkit.chat.messages import AssistantMessage, ChatResponse, SystemMessage, ToolResultMessage
    from toolkit.views.conversation import render_conversation_html, render_conversation_text, render_response_html

    asks = AssistantMessage(
        content=f"the key is {KEY}",
        tool_calls=(call("login", f'{{"password": "{PASSWORD}", "file": "/srv/app.cfg"}}'),),
    )
    messages = [
        SystemMessage(content="Orders live in /srv/orders.csv"),
        UserMessage(content=f"log in, my password is {PASSWORD}"),
        asks,
        ToolResultMessage(tool_call_id="c1", tool_name="login", content=f"DB_PASS={PASSWORD} read /srv/app.cfg"),
        AssistantMessage(refusal=f"I will not repeat {KEY}"),
    ]
    html, text = render_conversation_html(messages), render_conversation_text(messages)
    assert leaked(html, text, render_response_html(ChatResponse(message=asks))) == []
    assert text.splitlines() == [
        "system: Orders live in /srv/orders.csv",
        "user: log in, my password is [REDACTED]",
        "assistant: the key is [REDACTED]",
        'assistant → login({"file": "/srv/app.cfg", "password": "[REDACTED]"})',
        "tool[login]: DB_PASS=[REDACTED] read /srv/app.cfg",
        "assistant (refusal): I will not repeat [REDACTED]",
    ]
