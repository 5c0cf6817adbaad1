"""`toolkit.services.results.TokenStream` built by hand from the wrong parts.

`TokenStream(None, finish)` was taken, and reading it failed with a raw `TypeError: 'NoneType' object
is not an iterator`; a `finish` or `failed` that is no function failed only at the end of the stream
(or when it was stopped). Each is now a `ConfigurationError` where the stream is made."""

import pytest

from toolkit.chat.scripted import ScriptedModel
from toolkit.errors import ConfigurationError
from toolkit.loop.run import iter_loop
from toolkit.services.results import TokenStream


def said(make) -> str:
    with pytest.raises(ConfigurationError) as caught:
        make()
    return str(caught.value)


@pytest.mark.parametrize(("events", "kind"), [(None, "None"), ([], "a list")])
def test_events_that_are_no_iterator_are_refused(events, kind):
    assert said(lambda: TokenStream(events, lambda loop: loop)) == (
        f"TokenStream(events={kind}): events is the generator iter_loop(...) returns (an iterator of loop events "
        "ending in the LoopResult). Fix: TokenStream(iter_loop(model, messages, ...), finish), or let ai_service "
        "make it: declare a method returning TokenStream"
    )


def test_finish_and_failed_that_are_no_functions_are_refused():
    events = iter(())
    assert said(lambda: TokenStream(events, None)) == (  # type: ignore[arg-type]
        "TokenStream(finish=NoneType): finish is a function of the LoopResult, returning the Result. Fix: pass a "
        "function"
    )
    assert said(lambda: TokenStream(events, print, failed=3)) == (  # type: ignore[arg-type]
        "TokenStream(failed=int): failed is a function of the exception that stopped the stream. Fix: pass a "
        "function, or leave it out"
    )


def test_a_stream_built_by_hand_from_iter_loop_still_works():
    stream = TokenStream(iter_loop(ScriptedModel(["Hello."]), "hi"), lambda loop: loop.answer)  # type: ignore[arg-type,return-value]
    list(stream)
    assert stream.result == "Hello."
