"""`toolkit.views`: a view given the wrong object shows a readable line or a fallback, never a traceback.

`TraceView(result.messages)`, `show_exchange(None)` and `StreamView(events=None)` were a raw
`AttributeError` / `TypeError`; `ConversationView(None)` and `ConversationView(result)` (the
`LoopResult` itself) a raw `TypeError`, `ConversationView("hi")` five unreadable items, one per
letter; `show_table(None)` a raw `TypeError`, `show_table({...})` (one row, not in a list) "row 1 is
a str". The views now take a `LoopResult`'s messages, one message or text as one item, and show
None as one unreadable item; what cannot be shown is a `ConfigurationError` naming what to pass.
`ConversationView({m1, m2})` showed a set's messages in hash order (another in each process): it is one
unreadable item saying to pass a list, in the conversation's order."""

import pytest

from toolkit.chat.messages import SystemMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel
from toolkit.errors import ConfigurationError
from toolkit.loop.run import run_loop
from toolkit.views.conversation import ConversationView, render_conversation_text
from toolkit.views.display import show_exchange, show_table
from toolkit.views.stream import StreamView
from toolkit.views.trace import TraceView


@pytest.fixture
def result():
    return run_loop(ScriptedModel(["Hi there."]), "hello")


def test_a_conversation_view_of_a_loop_result_shows_its_messages(result):
    assert ConversationView(result)._text == ConversationView(result.messages)._text


def test_a_str_is_one_item_and_none_says_what_to_pass():
    assert render_conversation_text("hello").count("\n") == 0
    assert ConversationView(None)._text == render_conversation_text(None)
    assert "a NoneType, not a list of messages: pass ConversationView(result.messages)" in render_conversation_text(
        None
    )


@pytest.mark.parametrize(("given", "kind"), [("messages", "list"), (None, "NoneType")])
def test_a_trace_view_of_no_loop_result_is_a_configuration_error(result, given, kind):
    with pytest.raises(ConfigurationError) as caught:
        TraceView(result.messages if given == "messages" else given)
    assert str(caught.value) == (
        f"TraceView: takes the LoopResult run_loop returns, and got {kind}; pass it: TraceView(run_loop(...)) "
        "(a list of messages is for ConversationView)"
    )


def test_show_exchange_of_no_exchange_is_a_configuration_error(result):
    with pytest.raises(ConfigurationError) as caught:
        show_exchange(result)
    assert str(caught.value) == (
        "show_exchange(): takes one Exchange (client.exchanges[-1], what the chat client recorded), and got "
        "LoopResult; for a response use show_response(...), for a loop's result TraceView(result)"
    )


@pytest.mark.parametrize("events", [None, 5])
def test_stream_view_of_no_events_is_a_configuration_error(events):
    with pytest.raises(ConfigurationError) as caught:
        StreamView(events=events)
    assert str(caught.value) == (
        f"StreamView(events=...): takes the events of a stream (a list, or the TokenStream itself), and got "
        f"{type(events).__name__}; pass StreamView(events=list(stream)), or call view.consume(stream)"
    )


@pytest.mark.parametrize(
    ("rows", "fix"),
    [(None, "pass a list of dicts"), ({"tool": "x"}, "put it in a list: show_table([row])")],
)
def test_show_table_of_no_list_of_rows_is_a_configuration_error(rows, fix):
    with pytest.raises(ConfigurationError) as caught:
        show_table(rows)
    assert str(caught.value) == (
        f"show_table(): takes a list of rows, and got {type(rows).__name__}. "
        f'Fix: {fix}, e.g. show_table([{{"tool": "query_order", "tokens": 51}}])'
    )


@pytest.mark.parametrize(
    ("usage", "said"),
    [
        ("12 tokens", "a str; pass usage=result.usage (a TokenUsage), or leave it out"),
        ({"prompt_tokens": 12, "completion_tokens": 3}, "a dict; pass usage=result.usage (a TokenUsage), or leave it "
         "out; an OpenAI usage dict becomes one with TokenUsage.from_openai(usage)"),
    ],
)  # fmt: skip
def test_a_usage_that_is_no_token_usage_is_a_configuration_error(result, usage, said):
    """It was a raw `AttributeError` (`'dict' object has no attribute 'input_tokens'`) from inside the view."""
    with pytest.raises(ConfigurationError) as caught:
        ConversationView(result, usage=usage)
    assert str(caught.value) == f"ConversationView: usage= takes a TokenUsage, and got {said}"
    view = ConversationView(result)
    with pytest.raises(ConfigurationError):
        view.update(result.messages, usage)


def test_a_token_usage_is_shown(result):
    assert ConversationView(result, usage=result.usage)._text.endswith(
        f"tokens: input {result.usage.input_tokens}, output {result.usage.output_tokens}, total {result.usage.total_tokens}"
    )


@pytest.mark.parametrize("kind", [set, frozenset])
def test_a_set_of_messages_is_one_item_saying_it_has_no_order(kind):
    messages = kind([SystemMessage(content="Be brief."), UserMessage(content="hello")])  # shown in hash order: another
    # order in each process
    text = ConversationView(messages)._text
    assert text.count("\n") == 0
    assert text.startswith(
        f"(not a message this view can read: a {kind.__name__}, which has no order, not a list of messages: pass them "
        "in a list, in the conversation's order (e.g. ConversationView(result.messages))) "
    )


@pytest.fixture
def service_result():
    """What an AI service's call returns: a `Result`, the run in its `.loop`."""
    from toolkit.chat.messages import TokenUsage
    from toolkit.services.results import Result

    return Result(content="Hi there.", usage=TokenUsage(), tool_executions=[], finish_reason="stop")


@pytest.mark.parametrize("view", ["TraceView", "SagaView", "SequenceDiagram", "LoopStepper"])
@pytest.mark.parametrize("given", ["messages", "none", "service", "error"])
def test_every_view_of_a_run_given_no_loop_result_is_a_configuration_error(result, service_result, view, given):
    """`SagaView`, `SequenceDiagram` and `LoopStepper` of a list, None, a service's `Result` or an error the loop
    raised were a raw AttributeError (`'Result' object has no attribute 'executions'`); TraceView of a service's
    `Result` or of the error said to pass `run_loop(...)`, where its `.loop` (`.loop_result`) is the run."""
    from toolkit.views.sequence import SequenceDiagram
    from toolkit.views.stepper import LoopStepper
    from toolkit.views.trace import SagaView

    views = {
        "TraceView": TraceView,
        "SagaView": SagaView,
        "SequenceDiagram": SequenceDiagram,
        "LoopStepper": LoopStepper,
    }
    service_result.loop = result
    error = RuntimeError("tool exploded")
    error.loop_result = result  # type: ignore[attr-defined]  # as the loop attaches it
    value = {"messages": result.messages, "none": None, "service": service_result, "error": error}[given]
    with pytest.raises(ConfigurationError) as caught:
        views[view](value)
    kind = {"messages": "list", "none": "NoneType", "service": "Result", "error": "RuntimeError"}[given]
    fix = {
        "service": f"pass its loop: {view}(result.loop) (a service's Result keeps the run there)",
        "error": f"pass its loop_result: {view}(error.loop_result) (the turn up to the error)",
    }.get(given, f"pass it: {view}(run_loop(...)) (a list of messages is for ConversationView)")
    assert str(caught.value) == f"{view}: takes the LoopResult run_loop returns, and got {kind}; {fix}"
    assert views[view](result)  # what the fix passes


def test_a_conversation_view_of_a_memory_or_a_service_result_says_the_fix_that_works(result, service_result):
    """All said "pass ConversationView(result.messages)": a memory's messages are a method, a service's
    `Result` and a loop's error have none (they are in `.loop`, `.loop_result`)."""
    from toolkit.memory.windows import ChatMemory

    memory = ChatMemory("u1")
    memory.add(UserMessage(content="hello"))
    assert render_conversation_text(memory) == (
        "(not a message this view can read: a ChatMemory, not a list of messages: pass "
        "ConversationView(memory.messages())) \"ChatMemory('u1', window=None)\""
    )
    assert render_conversation_text(memory.messages()) == "user: hello"
    service_result.loop = result
    assert render_conversation_text(service_result).startswith(
        "(not a message this view can read: a Result, not a list of messages: pass "
        "ConversationView(result.loop.messages)) "
    )
    assert render_conversation_text(service_result.loop.messages) == render_conversation_text(result)
    error = RuntimeError("tool exploded")
    error.loop_result = result  # type: ignore[attr-defined]
    assert render_conversation_text(error) == (
        "(not a message this view can read: a RuntimeError, not a list of messages: pass "
        'ConversationView(error.loop_result.messages)) "tool exploded"'
    )


RUN = "{0}: takes the LoopResult run_loop returns, and got NoneType; pass it: {0}(run_loop(...)) (a list of messages is for ConversationView)"


@pytest.mark.parametrize(
    "where, said",
    [
        ("toolkit.views.trace.render_trace_html", RUN),
        ("toolkit.views.trace.render_trace_text", RUN),
        ("toolkit.views.trace.render_saga_html", RUN),
        ("toolkit.views.trace.render_saga_text", RUN),
        ("toolkit.views.sequence.sequence_source", RUN),
        ("toolkit.views.stepper.steps", RUN),
        (
            "toolkit.views.search.render_search_html",
            "{0}(): takes one SearchOutcome (what ToolSearch.search returns), and got None; "
            'e.g. SearchView(search.search(\'{{"terms": ["refund"]}}\', index))',
        ),
        (
            "toolkit.views.search.render_search_text",
            "{0}(): takes one SearchOutcome (what ToolSearch.search returns), and got None; "
            'e.g. SearchView(search.search(\'{{"terms": ["refund"]}}\', index))',
        ),
        (
            "toolkit.views.display.render_exchange_html",
            "{0}(): takes one Exchange (client.exchanges[-1], what the chat client recorded), and got NoneType; "
            "for a response use show_response(...), for a loop's result TraceView(result)",
        ),
        (
            "toolkit.views.display.render_exchange_text",
            "{0}(): takes one Exchange (client.exchanges[-1], what the chat client recorded), and got NoneType; "
            "for a response use show_response(...), for a loop's result TraceView(result)",
        ),
        (
            "toolkit.views.conversation.render_response_html",
            "{0}(): takes one ChatResponse (what client.chat(...) returns), and got None; "
            "for a list of messages use ConversationView(messages), for a loop's result TraceView(result)",
        ),
        (
            "toolkit.views.stream.fold_events",
            "{0}(events): takes the events of a stream (a list, or the TokenStream itself), and got NoneType; "
            "e.g. {0}(list(stream))",
        ),
        (
            "toolkit.views.stream.render_stream_html",
            "{0}(events): takes the events of a stream (a list, or the TokenStream itself), and got NoneType; "
            "e.g. {0}(list(stream))",
        ),
        (
            "toolkit.views.stream.render_stream_text",
            "{0}(events): takes the events of a stream (a list, or the TokenStream itself), and got NoneType; "
            "e.g. {0}(list(stream))",
        ),
    ],
)
def test_a_renderer_given_none_says_what_it_takes(where, said):
    """The pure renderers each widget is built on took None (or a list, a str) and raised
    "'NoneType' object has no attribute 'rounds'" / "… is not iterable": as their widgets do, they
    name what they take."""
    import importlib

    module, name = where.rsplit(".", 1)
    renderer = getattr(importlib.import_module(module), name)
    with pytest.raises(ConfigurationError) as caught:
        renderer(None)
    assert str(caught.value) == said.format(name)
