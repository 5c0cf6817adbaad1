"""Loop overhead per round trip: toolkit vs a hand-written loop, pydantic-ai, openai-agents and langchain-core.

The workload is the same everywhere: a scripted model answers with a tool call (`add(1, 2)`),
another tool call (`add(3, 4)`), then text — 3 round trips, 2 tool executions. toolkit runs
with a `ChatMemory` on; the peers keep history their own default way (pydantic-ai's message
list, openai-agents' in-run items, a plain list for langchain-core), which only favours them.
No network, no tracing. Time is per whole call divided by 3.

The **hand-written loop** is the floor: the same scripted replies and tool, a plain list as
memory, `json.loads` of the arguments, a direct call, one `ToolResultMessage` per call — no
validation, policies, trace, window or events. It runs in every environment.

Run on demand, the peers in a throw-away environment (never a dependency of the package):

    python3 -m venv /tmp/peers && /tmp/peers/bin/pip install pydantic-ai-slim openai-agents langchain-core
    PYTHONPATH=. /tmp/peers/bin/python benchmarks/loop_overhead.py

(with the package's own dependencies installed there too). A peer that is not installed is
skipped with a message. Cases run interleaved, `BATCHES` batches each; the median counts (nine
batches, not five: on a shared host a neighbour's burst can land in two of five).

Targets: toolkit ≤ 8× the hand-written loop, and ≤ 0.2 of the fastest peer. Each is printed
as met / not met. A second workload (`varied_replies`: three calls in two rounds, string, bool
and float arguments, dict results) checks the first target again, toolkit against its own
hand-written loop, so the ratio is not one workload's.

More workloads (issue 16, target 3, on workloads the first two do not choose), each toolkit
against a hand-written loop doing the same work, each printed met / NOT MET:

- `tools20` / `tools50` / `tools100`: `add` plus 19 / 49 / 99 registered filler tools of four
  parameters; the hand-written loop sends the same tools' JSON (their `to_openai()` form, written
  once, as a hand-written loop writes its tools array) in every request. `tools100` also checks
  the peer target against langchain-core when it is installed (its loop sends no tools).
- `history5000`: 5,000 earlier messages passed in with the question; the hand-written loop
  copies them into its list. `nomemory5000`: the same without a `ChatMemory` (the caller keeps
  its own list, as pydantic-ai's `message_history` or a LangChain message list has it).
- `pydantic`: the tool returns a pydantic model (a list of five dicts in it); the hand-written
  loop writes it with `model_dump_json()`.
- `scripted` / `course`: the package's own `ScriptedModel` plays the model (as the notebooks and a
  learner's tests do), its script the same two calls and answer as `ToolCall`s and text, so it
  builds each reply and estimates its usage; `course` also runs with `options=COURSE`, as the
  README's example does (request limit, hand-over, repair, the loop guard, Chinese texts). The
  hand-written loop is the same floor as the first workload's. `scripted5000`: the same after
  5,000 earlier messages (as `history5000`), a new `ScriptedModel` each run, as a test makes one.
  `scriptedcall`: the script written as a learner's test writes it, anew each run with `call()`
  (fresh calls with counter-based ids) and a fresh question, so nothing kept from an earlier run
  by an object's identity helps; the hand-written loop builds the same script and question each
  run (the same setup on both sides).
- `course300`: one turn of 300 round trips with `COURSE`'s options (its limits raised), so
  whatever a round reads of the rounds before it shows; the same hand-written loop.
- `raising` / `badargs` / `unknown`: both calls fail (the tool raises; the arguments do not fit;
  the name is no tool's; `raisinghttp`: the tool raises a `ConnectionError` with urllib3's
  254-character "Max retries exceeded with url" text, which the redaction reads whole) and the errors go back to the model (`FEED_BACK_ALL`); the hand-written
  loop sends `f"Error: {exc}"`, without the package's redaction or field-by-field messages.
  `bigargs`: each call's one argument is 40 KB of Chinese text.
- `fresh`: a model of one's own that builds each reply anew (a new `ChatResponse`, usage
  included, per request, as any fake or real client does), so nothing the loop keeps by a reply's
  identity helps; the hand-written loop asks the same model. `bigresult`: the tool returns 2,000
  records (a list of dicts with nested lists); the hand-written loop writes them with `json.dumps`.
- `window20` / `tokens300`: one conversation that goes on, the question asked again each run,
  its memory kept between runs in a `MessageWindow(20)` / `TokenWindow(300)`, so once it is
  full every message added pushes older ones out; the hand-written loop keeps a plain list
  between runs and, after each message, drops the oldest ones (and any tool result left at the
  front) while it is over 20 messages / 300 tokens (a running total of `estimate_tokens`).
- `concurrent`: one round of both calls at once (`LoopOptions(concurrent=True)`), then the
  answer (2 round trips); the hand-written loop runs the calls on a `ThreadPoolExecutor` it
  keeps between runs (`pool.map`), the quickest way it has.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel

ROUND_TRIPS = 3
BATCHES = 9
QUESTION = "what is 1+2+3+4?"
VARIED_QUESTION = "where is my order, and refund the broken one"


def calibrate(fn: Callable[[], object], seconds: float = 0.4) -> int:
    """How many calls of `fn` fill about `seconds` (after a warm-up call)."""
    fn()
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < 0.1:
        fn()
        n += 1
    return max(1, int(n * seconds / 0.1))


def batch_us(fn: Callable[[], object], n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n * 1e6


def scripted_replies() -> list:
    from toolkit.chat.messages import AssistantMessage, ChatResponse, ToolCall

    return [
        ChatResponse(message=AssistantMessage(tool_calls=(ToolCall(id="c1", name="add", arguments='{"a":1,"b":2}'),))),
        ChatResponse(message=AssistantMessage(tool_calls=(ToolCall(id="c2", name="add", arguments='{"a":3,"b":4}'),))),
        ChatResponse(message=AssistantMessage(content="10")),
    ]


def handwritten_case() -> Callable[[], object]:
    def add(a: int, b: int) -> int:
        return a + b

    return handwritten_loop(scripted_replies(), {"add": add}, QUESTION)


def handwritten_loop(
    replies: list,
    functions: dict[str, Callable[..., object]],
    question: str,
    *,
    tools_json: list | None = None,
    history: tuple = (),
    dump: Callable[[object], str] | None = None,
) -> Callable[[], object]:
    """The floor: the scripted replies, a plain list as memory, `json.loads` of the arguments, a
    direct call, one `ToolResultMessage` per call. `tools_json` is the tools array it sends
    (written once), `history` the earlier messages it copies in, `dump` how it writes a result."""
    import json

    from toolkit.chat.messages import ToolResultMessage, UserMessage

    tools = tools_json or [{"type": "function", "function": {"name": name, "parameters": {}}} for name in functions]
    write = dump or json.dumps

    def chat(messages: list, tools: list, turn: int) -> object:
        return replies[turn]

    def run() -> object:
        memory: list = [*history, UserMessage(content=question)]
        turn = 0
        while True:
            reply = chat(memory, tools, turn).message  # type: ignore[attr-defined]
            turn += 1
            memory.append(reply)
            if not reply.tool_calls:
                return reply.content
            for call in reply.tool_calls:
                result = functions[call.name](**json.loads(call.arguments))
                memory.append(ToolResultMessage(tool_call_id=call.id, tool_name=call.name, content=write(result)))

    return run


class Replaying:
    """A model that answers with the scripted replies, one per request."""

    def __init__(self, replies: list) -> None:
        self.turn = iter(replies)

    def chat(self, messages, tools=None, tool_choice=None):
        return next(self.turn)


def toolkit_case() -> Callable[[], object]:
    from toolkit.tools.decorator import tool

    @tool("Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    return toolkit_loop(scripted_replies(), [add], QUESTION)


def toolkit_loop(
    replies: list, tools: list, question: str, history: tuple = (), memory=None, options=None
) -> Callable[[], object]:
    """`run_loop` with memory on, its model answering with the scripted replies (after `history`):
    a new `ChatMemory` each run, or `memory`, kept from run to run; `options` (None: the defaults)."""
    from toolkit.chat.messages import UserMessage
    from toolkit.loop.run import run_loop
    from toolkit.memory.windows import ChatMemory

    messages = [*history, UserMessage(content=question)]
    chosen = {} if options is None else {"options": options}  # as a user who sets none writes it
    if memory is not None:
        return lambda: run_loop(Replaying(replies), messages, tools=tools, memory=memory, **chosen).answer
    return lambda: run_loop(Replaying(replies), messages, tools=tools, memory=ChatMemory(), **chosen).answer


def pydantic_ai_case() -> Callable[[], object]:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import FunctionModel

    def script(messages, info):
        done = sum(isinstance(p, ToolReturnPart) for m in messages for p in getattr(m, "parts", []))
        if done == 0:
            return ModelResponse(parts=[ToolCallPart("add", {"a": 1, "b": 2}, tool_call_id="c1")])
        if done == 1:
            return ModelResponse(parts=[ToolCallPart("add", {"a": 3, "b": 4}, tool_call_id="c2")])
        return ModelResponse(parts=[TextPart("10")])

    agent = Agent(FunctionModel(script))

    @agent.tool_plain
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return lambda: agent.run_sync(QUESTION).output


def openai_agents_case() -> Callable[[], object]:
    from agents import Agent, Runner, function_tool, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)

    class Scripted(Model):
        async def get_response(self, system_instructions, input, *args, **kwargs):
            done = sum(1 for item in input if isinstance(item, dict) and item.get("type") == "function_call_output")
            if done < 2:
                args_text = '{"a":1,"b":2}' if done == 0 else '{"a":3,"b":4}'
                out = [
                    ResponseFunctionToolCall(
                        type="function_call", call_id=f"c{done}", name="add", arguments=args_text, id=f"fc{done}"
                    )
                ]
            else:
                out = [
                    ResponseOutputMessage(
                        id="m",
                        type="message",
                        role="assistant",
                        status="completed",
                        content=[ResponseOutputText(type="output_text", text="10", annotations=[])],
                    )
                ]
            return ModelResponse(output=out, usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    @function_tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    agent = Agent(name="bench", model=Scripted(), tools=[add])
    return lambda: Runner.run_sync(agent, QUESTION).final_output


def langchain_case() -> Callable[[], object]:
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.tools import tool as lc_tool

    class Scripted(BaseChatModel):
        @property
        def _llm_type(self) -> str:
            return "scripted"

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            done = sum(isinstance(m, ToolMessage) for m in messages)
            if done < 2:
                args = {"a": 1, "b": 2} if done == 0 else {"a": 3, "b": 4}
                message = AIMessage(content="", tool_calls=[{"name": "add", "args": args, "id": f"c{done}"}])
            else:
                message = AIMessage(content="10")
            return ChatResult(generations=[ChatGeneration(message=message)])

    @lc_tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    model, tools = Scripted(), {"add": add}

    def run():
        messages = [HumanMessage(QUESTION)]
        while True:
            reply = model.invoke(messages)
            messages.append(reply)
            if not reply.tool_calls:
                return reply.content
            for call in reply.tool_calls:
                messages.append(tools[call["name"]].invoke(call))

    return run


def varied_replies() -> list:
    """A second workload: three calls in two rounds, with string, bool and float arguments and
    dict results (the first workload's `add(1, 2)` reads and writes ints only)."""
    from toolkit.chat.messages import AssistantMessage, ChatResponse, ToolCall

    def calls(*specs: tuple[str, str, str]) -> ChatResponse:
        return ChatResponse(
            message=AssistantMessage(tool_calls=tuple(ToolCall(id=i, name=n, arguments=a) for i, n, a in specs))
        )

    return [
        calls(
            ("c1", "lookup", '{"order_id": "SN202610200001", "verbose": true}'),
            ("c2", "refund", '{"order_id": "SN202610200001", "amount": 12.5, "reason": "arrived broken"}'),
        ),
        calls(("c3", "lookup", '{"order_id": "SN202610200002"}')),
        ChatResponse(message=AssistantMessage(content="10")),
    ]


def lookup(order_id: str, verbose: bool = False) -> dict:
    """Look up an order."""
    return {"id": order_id, "status": "shipped", "items": [{"sku": "A1", "qty": 2}], "verbose": verbose}


def refund(order_id: str, amount: float, reason: str) -> dict:
    """Refund part of an order."""
    return {"id": order_id, "refunded": amount, "reason": reason, "ok": True}


def varied_toolkit_case() -> Callable[[], object]:
    from toolkit.tools.decorator import tool

    return toolkit_loop(varied_replies(), [tool(lookup), tool(refund)], VARIED_QUESTION)


def varied_handwritten_case() -> Callable[[], object]:
    return handwritten_loop(varied_replies(), {"lookup": lookup, "refund": refund}, VARIED_QUESTION)


CASES = {
    "toolkit": toolkit_case,
    "hand-written": handwritten_case,
    "pydantic-ai": pydantic_ai_case,
    "openai-agents": openai_agents_case,
    "langchain-core": langchain_case,
}


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def interleaved_medians(runs: dict[str, Callable[[], object]], round_trips: int = ROUND_TRIPS) -> dict[str, float]:
    """µs per round trip of each case: the median of `BATCHES` batches, run in turn (interleaved,
    so a busy machine slows every case alike)."""
    for name, fn in runs.items():
        assert fn() == "10", f"{name} did not finish the scripted conversation"
    counts = {name: calibrate(fn) for name, fn in runs.items()}
    samples: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(BATCHES):
        for name, fn in runs.items():
            samples[name].append(batch_us(fn, counts[name]) / round_trips)
    return {name: statistics.median(s) for name, s in samples.items()}


def main() -> None:
    runs: dict[str, Callable[[], object]] = {}
    for name, make in CASES.items():
        try:
            runs[name] = make()
        except ImportError as exc:
            print(f"{name:<15} skipped ({exc.name} not installed; see the docstring)")
    results = interleaved_medians(runs)
    for name, us in results.items():
        print(f"{name:<15} {us:9.1f} µs per round trip")
    ours = results["toolkit"]
    floor = ours / results["hand-written"]
    print("targets:")
    print(f"  toolkit ≤ 8× the hand-written loop: {floor:.1f}× → {verdict(floor <= 8)}")
    peers = {k: v for k, v in results.items() if k not in {"toolkit", "hand-written"}}
    if peers:
        fastest = min(peers, key=lambda k: peers[k])
        ratio = ours / peers[fastest]
        print(f"  toolkit ≤ 0.2 of the fastest peer ({fastest}): {ratio:.3f} → {verdict(ratio <= 0.2)}")
    else:
        print("  toolkit ≤ 0.2 of the fastest peer: no peer installed, not measured")
    varied()


def varied() -> None:
    """The second workload: toolkit against its own hand-written loop, interleaved."""
    results = interleaved_medians({"toolkit": varied_toolkit_case(), "hand-written": varied_handwritten_case()})
    ours, floor = results["toolkit"], results["hand-written"]
    print("second workload (3 calls in 2 rounds; str, bool and float arguments; dict results):")
    print(f"  toolkit {ours:.1f} µs, hand-written {floor:.1f} µs per round trip")
    print(f"  toolkit ≤ 8× the hand-written loop: {ours / floor:.1f}× → {verdict(ours / floor <= 8)}")


def filler(i: int) -> Callable[..., object]:
    """A registered tool the model never calls: four parameters, as a real catalogue has."""

    def f(order_id: str, quantity: int = 1, note: str | None = None, mode: Literal["fast", "slow"] = "fast") -> dict:
        return {"i": i}

    f.__name__ = f"filler_tool_{i}"
    f.__doc__ = f"Filler tool number {i}: does something with an order."
    return f


def many_tools_cases(n: int) -> tuple[Callable[[], object], Callable[[], object]]:
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import tools_from

    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    functions = [tool(add)] + [tool(filler(i)) for i in range(n - 1)]
    tools_json = [t.spec.to_openai() for t in tools_from(*functions)]  # written once, sent every request
    return (
        toolkit_loop(scripted_replies(), functions, QUESTION),
        handwritten_loop(scripted_replies(), {f.__name__: f for f in functions}, QUESTION, tools_json=tools_json),
    )


def history(n: int) -> tuple:
    from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage

    out: list = []
    for k in range(n // 4 + 1):
        call = ToolCall(id=f"h{k}", name="add", arguments='{"a":1,"b":2}')
        out += [
            UserMessage(content=f"question {k} " * 10),
            AssistantMessage(tool_calls=(call,)),
            ToolResultMessage(tool_call_id=call.id, tool_name="add", content="3"),
            AssistantMessage(content="answer " * 10),
        ]
    return tuple(out[:n])


def history_cases(n: int, memory: bool = True) -> tuple[Callable[[], object], Callable[[], object]]:
    """`n` earlier messages passed in with the question, with a new `ChatMemory` each run or
    (`memory=False`) none: the loop keeps the history itself, as a caller who keeps its own list does."""
    from toolkit.tools.decorator import tool

    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    earlier = history(n)
    if memory:
        ours = toolkit_loop(scripted_replies(), [tool(add)], QUESTION, history=earlier)
    else:
        from toolkit.chat.messages import UserMessage
        from toolkit.loop.run import run_loop

        messages, tools = [*earlier, UserMessage(content=QUESTION)], [tool(add)]

        def ours() -> object:
            return run_loop(Replaying(scripted_replies()), messages, tools=tools).answer

    return ours, handwritten_loop(scripted_replies(), {"add": add}, QUESTION, history=earlier)


class Sum(BaseModel):
    """The `pydantic` workload's result."""

    total: int
    items: list[dict]
    note: str


def pydantic_cases() -> tuple[Callable[[], object], Callable[[], object]]:
    from toolkit.tools.decorator import tool

    def add(a: int, b: int) -> Sum:
        """Add two integers."""
        return Sum(total=a + b, items=[{"sku": "A", "qty": 1}] * 5, note="ok")

    return (
        toolkit_loop(scripted_replies(), [tool(add)], QUESTION),
        handwritten_loop(scripted_replies(), {"add": add}, QUESTION, dump=lambda r: r.model_dump_json()),  # type: ignore[attr-defined]
    )


def window_cases(kind: str) -> tuple[Callable[[], object], Callable[[], object]]:
    """A conversation that goes on in a full window, toolkit's and a hand-written one."""
    from toolkit.chat.messages import ToolResultMessage, UserMessage
    from toolkit.memory.windows import ChatMemory, MessageWindow, TokenWindow, message_tokens
    from toolkit.tools.decorator import tool

    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    limit, weigh = (20, lambda m: 1) if kind == "messages" else (300, message_tokens)
    memory = ChatMemory(window=MessageWindow(limit) if kind == "messages" else TokenWindow(limit))
    replies, question = scripted_replies(), UserMessage(content=QUESTION)
    ours = toolkit_loop(replies, [tool(add)], QUESTION, memory=memory)

    kept: list = []
    weights: list[int] = []

    def keep(message: object) -> None:
        kept.append(message)
        weights.append(weigh(message))
        total = sum(weights)
        while total > limit or (kept and isinstance(kept[0], ToolResultMessage)):
            total -= weights.pop(0)
            del kept[0]

    import json

    def floor() -> object:
        keep(question)
        turn = 0
        while True:
            reply = replies[turn].message
            turn += 1
            keep(reply)
            if not reply.tool_calls:
                return reply.content
            for call in reply.tool_calls:
                result = add(**json.loads(call.arguments))
                keep(ToolResultMessage(tool_call_id=call.id, tool_name=call.name, content=json.dumps(result)))

    return ours, floor


def scripted_cases(options: str, earlier: int = 0) -> tuple[Callable[[], object], Callable[[], object]]:
    """toolkit with `ScriptedModel` (and `COURSE`, for "course"; after `earlier` messages of
    history) against the hand-written loop."""
    from toolkit import COURSE, LoopOptions, UserMessage, run_loop
    from toolkit.chat.messages import ToolCall
    from toolkit.chat.scripted import ScriptedModel
    from toolkit.memory.windows import ChatMemory
    from toolkit.tools.decorator import tool

    @tool("Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    chosen = COURSE if options == "course" else LoopOptions()
    first = ToolCall(id="c1", name="add", arguments='{"a":1,"b":2}')
    second = ToolCall(id="c2", name="add", arguments='{"a":3,"b":4}')
    past = history(earlier)
    question = [*past, UserMessage(content=QUESTION)]

    def ours() -> object:
        model = ScriptedModel([first, second, "10"])
        return run_loop(model, question, tools=[add], memory=ChatMemory(), options=chosen).answer

    floor = handwritten_loop(scripted_replies(), {"add": add}, QUESTION, history=past)
    return ours, floor


def scripted_call_cases() -> tuple[Callable[[], object], Callable[[], object]]:
    """toolkit with `ScriptedModel` as a learner's test writes it: the script built anew each run
    with `call()` (fresh `ToolCall`s, counter-based ids) and a fresh question, so nothing kept by
    a script's or a message's identity from an earlier run helps. The floor builds the same calls
    each run (setup, the same on both sides), then runs the first floor (which makes the question)."""
    from toolkit import UserMessage, run_loop
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.memory.windows import ChatMemory
    from toolkit.tools.decorator import tool

    @tool("Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    def ours() -> object:
        model = ScriptedModel([call("add", a=1, b=2), call("add", a=3, b=4), "10"])
        return run_loop(model, [UserMessage(content=QUESTION)], tools=[add], memory=ChatMemory()).answer

    plain = handwritten_loop(scripted_replies(), {"add": add}, QUESTION)  # it makes the question each run

    def floor() -> object:  # the same setup each run: the script's calls
        _ = [call("add", a=1, b=2), call("add", a=3, b=4), "10"]
        return plain()

    return ours, floor


def long_turn_cases(rounds: int) -> tuple[Callable[[], object], Callable[[], object], int]:
    """One turn of `rounds` round trips (a call of `add` each, then the answer) with `COURSE`'s
    options (its limits raised to let the turn run), against the hand-written loop."""
    from dataclasses import replace

    from toolkit import COURSE, UserMessage, run_loop
    from toolkit.chat.messages import AssistantMessage, ChatResponse, ToolCall
    from toolkit.memory.windows import ChatMemory
    from toolkit.tools.decorator import tool

    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    calls = [ToolCall(id=f"c{i}", name="add", arguments=f'{{"a":{i},"b":1}}') for i in range(rounds - 1)]
    replies = [ChatResponse(message=AssistantMessage(tool_calls=(c,))) for c in calls]
    replies.append(ChatResponse(message=AssistantMessage(content="10")))
    options = replace(COURSE, max_round_trips=rounds, max_model_requests=rounds)
    question, tools = [UserMessage(content=QUESTION)], [tool(add)]

    def ours() -> object:
        return run_loop(Replaying(replies), question, tools=tools, memory=ChatMemory(), options=options).answer

    return ours, handwritten_loop(replies, {"add": add}, QUESTION), rounds


HTTP_ERROR = (
    "HTTPSConnectionPool(host='api.shop.internal', port=443): Max retries exceeded with url: /v1/orders "
    "(Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f>: "
    "Failed to establish a new connection: [Errno 111] Connection refused'))"
)
"""What `requests` raises when nothing listens (`raisinghttp`): a URL path, quotes, `host=`, `port=`."""


def failing_cases(kind: str) -> tuple[Callable[[], object], Callable[[], object]]:
    """Both calls fail and their errors go back to the model (`FEED_BACK_ALL`): the tool raises
    (`raising`; `raisinghttp`: a `ConnectionError` with urllib3's text, `HTTP_ERROR`), the arguments do not fit (`badargs`: a string for an int, a missing field), or the
    name is no tool's (`unknown`); or one argument is 40 KB of Chinese text (`bigargs`). The
    hand-written loop catches any exception around `json.loads` and the call, and sends
    `f"Error: {exc}"` (no redaction, no field-by-field message)."""
    import json

    from toolkit import LoopOptions, run_loop
    from toolkit.chat.messages import AssistantMessage, ChatResponse, ToolCall, ToolResultMessage, UserMessage
    from toolkit.memory.windows import ChatMemory
    from toolkit.tools.decorator import tool
    from toolkit.tools.execute import FEED_BACK_ALL

    def add(a: int, b: int) -> int:
        """Add two integers."""
        if kind == "raising":
            raise ValueError("out of stock")
        if kind == "raisinghttp":
            raise ConnectionError(HTTP_ERROR)
        return a + b

    def size(text: str) -> int:
        """Count the characters of a text."""
        return len(text)

    long = json.dumps({"text": "订单 SN2026 已发货。" * 2000}, ensure_ascii=False)
    name = {"unknown": "sub", "bigargs": "size"}.get(kind, "add")
    arguments = {"badargs": ['{"a":"x","b":2}', '{"a":3}'], "bigargs": [long, long]}.get(kind, ['{"a":1,"b":2}'] * 2)
    replies = [
        ChatResponse(message=AssistantMessage(tool_calls=(ToolCall(id=f"c{i}", name=name, arguments=a),)))
        for i, a in enumerate(arguments)
    ]
    replies.append(ChatResponse(message=AssistantMessage(content="10")))
    functions = {"add": add, "size": size}
    tools, options, question = (
        [tool(add), tool(size)],
        LoopOptions(policies=FEED_BACK_ALL),
        [UserMessage(content=QUESTION)],
    )

    def ours() -> object:
        return run_loop(Replaying(replies), question, tools=tools, memory=ChatMemory(), options=options).answer

    def floor() -> object:
        memory: list = [UserMessage(content=QUESTION)]
        for response in replies:
            reply = response.message
            memory.append(reply)
            if not reply.tool_calls:
                return reply.content
            for call in reply.tool_calls:
                try:
                    result = json.dumps(functions[call.name](**json.loads(call.arguments)))
                except Exception as exc:
                    result = f"Error: {exc}"
                memory.append(ToolResultMessage(tool_call_id=call.id, tool_name=call.name, content=result))
        return None

    return ours, floor


class Fresh:
    """A model that builds each reply anew: the first workload's two calls and answer, usage included."""

    def __init__(self) -> None:
        self.turn = 0

    def chat(self, messages, tools=None, tool_choice=None):
        from toolkit.chat.messages import AssistantMessage, ChatResponse, TokenUsage, ToolCall

        self.turn += 1
        if self.turn < 3:
            arguments = '{"a":1,"b":2}' if self.turn == 1 else '{"a":3,"b":4}'
            message = AssistantMessage(tool_calls=(ToolCall(id=f"c{self.turn}", name="add", arguments=arguments),))
        else:
            message = AssistantMessage(content="10")
        return ChatResponse(message=message, usage=TokenUsage(input_tokens=20 * self.turn, output_tokens=8))


def fresh_cases() -> tuple[Callable[[], object], Callable[[], object]]:
    """toolkit and the hand-written loop, both asking a new `Fresh` model each run."""
    import json

    from toolkit import UserMessage, run_loop
    from toolkit.chat.messages import ToolResultMessage
    from toolkit.memory.windows import ChatMemory
    from toolkit.tools.decorator import tool

    @tool("Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    question = [UserMessage(content=QUESTION)]
    tools = [{"type": "function", "function": {"name": "add", "parameters": {}}}]

    def ours() -> object:
        return run_loop(Fresh(), question, tools=[add], memory=ChatMemory()).answer

    def floor() -> object:
        model, memory = Fresh(), [UserMessage(content=QUESTION)]
        while True:
            reply = model.chat(memory, tools).message
            memory.append(reply)
            if not reply.tool_calls:
                return reply.content
            for call in reply.tool_calls:
                result = json.dumps(add(**json.loads(call.arguments)))
                memory.append(ToolResultMessage(tool_call_id=call.id, tool_name=call.name, content=result))

    return ours, floor


def big_result_cases() -> tuple[Callable[[], object], Callable[[], object]]:
    """The tool returns 2,000 records; toolkit writes them as its results are written, the
    hand-written loop with `json.dumps`. Their 187,002 characters pass the loop's default
    `max_result_chars` (100,000): toolkit sends them whole too (`max_result_chars=None`), the same
    work as the hand-written loop's."""
    from toolkit.loop.records import LoopOptions
    from toolkit.tools.decorator import tool

    rows = [
        {"sku": f"SN{i:06d}", "name": f"商品 {i}", "price": i * 1.25, "tags": ["new", "sale"], "stock": i % 7}
        for i in range(2000)
    ]

    @tool("List the catalogue's products.")
    def add(a: int, b: int) -> list:
        return rows

    whole = LoopOptions(max_result_chars=None)
    return toolkit_loop(scripted_replies(), [add], QUESTION, options=whole), handwritten_loop(
        scripted_replies(), {"add": add}, QUESTION
    )


def concurrent_cases() -> tuple[Callable[[], object], Callable[[], object], int]:
    """Both calls in one round, run at once: toolkit with `concurrent=True`, the hand-written
    loop on a thread pool it keeps (2 round trips)."""
    import json
    from concurrent.futures import ThreadPoolExecutor

    from toolkit import LoopOptions, UserMessage, run_loop
    from toolkit.chat.messages import AssistantMessage, ChatResponse, ToolCall, ToolResultMessage
    from toolkit.memory.windows import ChatMemory
    from toolkit.tools.decorator import tool

    @tool("Add two integers.")
    def add(a: int, b: int) -> int:
        return a + b

    both = (
        ToolCall(id="c1", name="add", arguments='{"a":1,"b":2}'),
        ToolCall(id="c2", name="add", arguments='{"a":3,"b":4}'),
    )
    replies = [
        ChatResponse(message=AssistantMessage(tool_calls=both)),
        ChatResponse(message=AssistantMessage(content="10")),
    ]
    question, options = [UserMessage(content=QUESTION)], LoopOptions(concurrent=True)
    pool = ThreadPoolExecutor(4)

    def ours() -> object:
        return run_loop(Replaying(replies), question, tools=[add], memory=ChatMemory(), options=options).answer

    def result(call: ToolCall) -> ToolResultMessage:
        content = json.dumps(add(**json.loads(call.arguments)))
        return ToolResultMessage(tool_call_id=call.id, tool_name=call.name, content=content)

    def floor() -> object:
        memory: list = [UserMessage(content=QUESTION)]
        for response in replies:
            reply = response.message
            memory.append(reply)
            if not reply.tool_calls:
                return reply.content
            memory.extend(pool.map(result, reply.tool_calls))
        return None

    return ours, floor, 2


MORE = {
    "tools20": lambda: many_tools_cases(20),
    "tools50": lambda: many_tools_cases(50),
    "tools100": lambda: many_tools_cases(100),
    "history5000": lambda: history_cases(5000),
    "nomemory5000": lambda: history_cases(5000, memory=False),
    "pydantic": pydantic_cases,
    "scripted": lambda: scripted_cases("default"),
    "course": lambda: scripted_cases("course"),
    "scripted5000": lambda: scripted_cases("default", earlier=5000),
    "scriptedcall": scripted_call_cases,
    "course300": lambda: long_turn_cases(300),
    "raising": lambda: failing_cases("raising"),
    "raisinghttp": lambda: failing_cases("raisinghttp"),
    "badargs": lambda: failing_cases("badargs"),
    "unknown": lambda: failing_cases("unknown"),
    "bigargs": lambda: failing_cases("bigargs"),
    "fresh": fresh_cases,
    "bigresult": big_result_cases,
    "window20": lambda: window_cases("messages"),
    "tokens300": lambda: window_cases("tokens"),
    "concurrent": concurrent_cases,
}


def more(names: list[str] | None = None) -> None:
    """The further workloads: toolkit against the hand-written loop doing the same work."""
    print("more workloads (toolkit ≤ 8× a hand-written loop doing the same work):")
    for name in names or list(MORE):
        ours, floor, *trips = MORE[name]()
        runs = {"toolkit": ours, "hand-written": floor}
        if name == "tools100":
            try:
                runs["langchain-core"] = langchain_case()
            except ImportError:
                pass
        results = interleaved_medians(runs, *trips)
        ratio = results["toolkit"] / results["hand-written"]
        line = (
            f"  {name:<12} toolkit {results['toolkit']:8.1f} µs, hand-written {results['hand-written']:6.1f} µs: "
            f"{ratio:5.1f}× → {verdict(ratio <= 8)}"
        )
        if "langchain-core" in results:
            peer = results["toolkit"] / results["langchain-core"]
            line += f"; {peer:.3f} of langchain-core → {verdict(peer <= 0.2)}"
        print(line, flush=True)


if __name__ == "__main__":
    import argparse
    import logging

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--more",
        nargs="*",
        choices=list(MORE),
        metavar="NAME",
        help=f"run only these further workloads (all of them if none is named): {', '.join(MORE)}",
    )
    args = parser.parse_args()
    # The failing-call workloads fail thousands of times: the default policy's warning for each (as LangChain4j
    # logs it) would bury the table. Below the logger's level a warning costs one level check.
    logging.getLogger("toolkit.tools").setLevel(logging.ERROR)
    if args.more is not None:
        more(args.more)
    else:
        main()
        more()
