"""Each turn (one `run_loop` / `iter_loop` call) has its own number, the same in every provider
request and every tool's `InvocationContext` of that turn; built by hand, both say 0."""

from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.loop.run import iter_loop, run_loop
from toolkit.loop.sources import ProviderRequest, StaticProvider
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import InvocationContext, tool


def _recorded(loop, **memory):
    """The turns the providers and the tools of one call saw, over two tool rounds."""
    requests, contexts = [], []

    @tool
    def note(context: InvocationContext) -> str:
        """Note the context."""
        contexts.append(context)
        return "noted"

    def provide(request):
        requests.append(request)
        return [note]

    model = ScriptedModel([call("note"), call("note"), "好"])
    loop(model, [UserMessage(content="hi")], providers=[StaticProvider(provide, dynamic=True)], **memory)
    return {r.turn for r in requests}, {c.turn for c in contexts}, len(requests)


def _run_iter(model, messages, **kwargs):
    events = iter_loop(model, messages, **kwargs)
    for _ in events:
        pass


def test_one_turn_one_number_in_every_request_and_context():
    seen = [_recorded(run_loop), _recorded(_run_iter), _recorded(run_loop, memory=ChatMemory("u1"))]
    for requests, contexts, asked in seen:
        assert asked == 3 and len(requests) == 1 and requests == contexts  # the start, then after each round
    numbers = [next(iter(requests)) for requests, _, _ in seen]
    assert len(set(numbers)) == 3 and all(n > 0 for n in numbers) and numbers == sorted(numbers)


def test_built_by_hand_the_turn_is_zero():
    assert ProviderRequest(()).turn == 0 and InvocationContext().turn == 0
    assert InvocationContext("u1", {}, None, 5).turn == 5 and ProviderRequest((), "u1", 5).turn == 5
