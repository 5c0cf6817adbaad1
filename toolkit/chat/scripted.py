"""`ScriptedModel`: a chat model that plays back a script, for tests and notebooks.

Each turn of the script is what the model "says" next: a string (text), a `ToolCall` or a list
of them (tool calls), an `AssistantMessage`, a full `ChatResponse`, an exception to raise (or its class), or a
function of the request (`Request -> any of those`) for replies that depend on what was sent.
`stream()` plays the same turn as stream events. Every request is
recorded (messages, tool names, tool_choice) so a test can check what the model saw. Usage is
the deterministic estimate of `toolkit.tokens` (an image counts `IMAGE_TOKENS`, not its base64),
worked out from what changed since the last conversation counted (by any scripted model: it keeps
that one conversation), so a long history is written as JSON once, not once per request. A reply's
message is built once per turn object (a str, a `ToolCall`) and given again when that very turn is
played again (a test that builds a model per run replays the same turns): it is a frozen record,
as a scripted `AssistantMessage` is, and the same object is cheaper to send on and count again.
The reply and its usage (and a new turn's message) are written as records directly, not validated
by pydantic again: every value in them is one this module built (`_made`).

A turn with nothing in it (`""`, an `AssistantMessage()` or a `ChatResponse` without text, tool
calls or a refusal) raises the `BadResponseError` the client raises for such a reply
(`toolkit.chat.sse.not_empty`), so code run on a script meets what it would meet on a gateway;
a test that wants that failure can also script the exception itself.

Helpers make scripts short: `call("query_order", orderId="SN…")` builds a `ToolCall` with a
counter-based id (`call_1`, `call_2`, … per model).

Leaves out: SSE framing (the client's streaming is tested against the gateway), and any "intelligence": a script that runs out
raises `ScriptExhausted`, so a loop that asks once too often fails loudly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import is_
from typing import Any, NamedTuple

import orjson
from pydantic import BaseModel

from toolkit.chat.client import chat_messages, tool_payload
from toolkit.chat.images import IMAGE_TOKENS
from toolkit.chat.messages import (
    MESSAGE_TYPES,
    AssistantMessage,
    ChatResponse,
    Message,
    TokenUsage,
    ToolCall,
    UserMessage,
    misfit_error,
    to_openai,
)
from toolkit.chat.sent import SentTool, tools_tokens
from toolkit.chat.sse import StreamDone, StreamEvent, TextDelta, ToolCallDelta, not_empty
from toolkit.errors import ConfigurationError, ScriptExhausted, a_or_an
from toolkit.tokens import (
    array_tokens,
    estimate_json_tokens,
    estimate_tokens,
    json_counts,
    text_counts,
)
from toolkit.unicode import cut


@dataclass(frozen=True)
class Request:
    """What one request to the scripted model contained."""

    messages: tuple[Message, ...]
    tools: tuple[str, ...]
    tool_choice: Any = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Any other request fields (e.g. `response_format`)."""

    @classmethod
    def _of(
        cls, messages: tuple[Message, ...], tools: tuple[str, ...], tool_choice: Any, extra: dict[str, Any]
    ) -> Request:
        """`Request(messages, tools, tool_choice, extra)`, written to the instance's `__dict__` at
        once, as `ToolSpec._of` is: the generated `__init__` of a frozen dataclass sets each field
        through `object.__setattr__`, and a scripted model records one per request."""
        request = object.__new__(cls)
        fields = request.__dict__
        fields["messages"], fields["tools"] = messages, tools
        fields["tool_choice"], fields["extra"] = tool_choice, extra
        return request


Turn = Any  # str | ToolCall | Sequence[ToolCall] | AssistantMessage | ChatResponse | Callable


@dataclass
class ScriptedModel:
    """Replays `script` one turn per request; records every request in `requests`."""

    script: list[Turn]
    requests: list[Request] = field(default_factory=list)
    name: str = "scripted"
    _counts: _Counts = field(default_factory=lambda: _Counts(), init=False, repr=False, compare=False)
    """What each message and tools-array entry already sent adds to the input tokens."""

    def __post_init__(self) -> None:
        self.script = list(self.script) if type(self.script) is list else _script_list(self.script)
        if type(self.requests) is not list or type(self.name) is not str:  # two type tests, once per model
            _check_keywords(self.requests, self.name)
        for number, turn in enumerate(self.script, 1):
            if not _is_turn(turn):
                raise ConfigurationError(f"ScriptedModel: turn {number} of the script is {_bad_turn(turn)}")

    def describe(self) -> str:
        """One line naming the model and how many turns of its script are left."""
        left = len(self.script)
        return f"scripted model ({left} turn{'' if left == 1 else 's'} left)"

    def chat(
        self, messages: Sequence[Message], *, tools: Sequence[Any] | None = None, tool_choice: Any = None, **extra: Any
    ) -> ChatResponse:
        """Record the request in `requests` and answer with the next turn of the script."""
        if type(messages) is not list and type(messages) is not tuple:  # a str is the user's message, as for the client
            messages = chat_messages(messages, "ScriptedModel.chat")
        known = _tools_again(tools)
        if known is None:
            payload = tool_payload(tools) or []
            names, tools_count = _tools_sent(payload)
        else:  # the very entries of the last array: what reading them gives is known (`_tools_again`)
            payload, (names, tools_count) = tools, known  # type: ignore[assignment]
        request = Request._of(tuple(messages), names, tool_choice, extra)
        self.requests.append(request)
        if not self.script:
            raise ScriptExhausted(_exhausted(len(self.requests)))
        turn = self.script.pop(0)
        if callable(turn) and not isinstance(turn, (ToolCall, AssistantMessage, ChatResponse)):
            if isinstance(turn, type):  # an exception class: raised as `raise ValueError` raises it
                raise turn
            turn = turn(request)
        if isinstance(turn, BaseException):  # KeyboardInterrupt() too: what a test of Ctrl-C scripts
            raise turn
        if isinstance(turn, ChatResponse):  # as scripted, usage and all
            return not_empty(turn)
        try:
            input_tokens = self._counts.input_tokens(request.messages, payload, tools_count)
        except (AttributeError, TypeError) as failure:  # a dict in the list, say: looked for only now
            misfit = misfit_error(request.messages, "ScriptedModel.chat")
            if misfit is None:
                raise
            raise misfit from failure
        return _response(turn, input_tokens, len(self.requests))

    def stream(self, messages: Sequence[Message], **kwargs: Any) -> Iterator[StreamEvent]:
        """The next turn as a stream: text (a refusal's, when it has no content) in 4-character
        deltas, then each call, then done."""
        response = self.chat(messages, **kwargs)
        text = response.message.text or ""
        for start in range(0, len(text), 4):
            yield TextDelta(text[start : start + 4])
        for index, c in enumerate(response.message.tool_calls):
            yield ToolCallDelta(index, c.id, c.name, c.arguments)
        yield StreamDone(response)


def _tools_sent(payload: list[dict[str, Any]]) -> tuple[tuple[str, ...], int | None]:
    """The names of a request's tools, and the tokens of its tools array when they are worked out
    already: a loop sends the same read-only entries (`SentTool`) request after request, so the
    last such array's names and count are kept by its entries' ids (the entry keeps them alive)
    and given again for the very same entries. Any other array (a plain dict may change) is read
    as it is, its count left to `_Counts.input_tokens` (where a failure is looked into)."""
    global _last_tools
    ids = tuple(map(id, payload))
    last = _last_tools
    if last[0] == ids:
        return last[2], last[3]
    names = tuple([t["function"]["name"] for t in payload])
    if not payload or not all(type(t) is SentTool for t in payload):
        return names, None
    _last_tools = (ids, tuple(payload), names, tools_tokens(payload))
    return names, _last_tools[3]


def _tools_again(tools: Any) -> tuple[tuple[str, ...], int] | None:
    """`_tools_sent(tool_payload(tools))` when `tools` is a list of the very entries of the last array
    of `SentTool`s (`_last_tools`), as a loop sends them request after request: their names and tokens,
    without the payload's copy of the list and a tuple of ids (an `int` made per entry). None for any
    other list: `tool_payload` and `_tools_sent` read it."""
    last = _last_tools[1]
    if type(tools) is list and len(tools) == len(last) and tools and all(map(is_, tools, last)):
        return _last_tools[2], _last_tools[3]
    return None


_last_tools: tuple[tuple[int, ...], tuple[dict[str, Any], ...], tuple[str, ...], int] = ((), (), (), 0)
"""The last array of `SentTool` entries a scripted model was sent: their ids, themselves, their names
and their tokens (`_tools_sent`). Replaced, never changed: another thread reads the old one or the new."""


def _response(turn: Turn, input_tokens: int, n: int) -> ChatResponse:
    """The reply a turn stands for, its usage the estimate: the records
    `ChatResponse(message=AssistantMessage(...), usage=TokenUsage(...), finish_reason=..., model=..., id=...)`
    builds (the same fields, fields set and defaults), the response and its usage written directly
    (`_made`): every value in them is one the package built and knows valid (a message validated as
    an `AssistantMessage`, counts of 0 or more, strings), and pydantic-core's validation of the two
    (some 15k instructions a request, more than the rest of the reply) would only check them again.

    A turn object whose message is kept (`_built_reply`: a str, a `ToolCall`) keeps the last reply made
    of it too, given again for the same input tokens and request number (a test that builds a model
    per run plays the same turns on the same conversation): every field of the reply is a function of
    those three, and the records are frozen (as the message given again is)."""
    kind = type(turn)
    if kind is str or kind is ToolCall:
        known = _BUILT.get(id(turn))
        if known is not None and known[0] is turn:
            tokens, number, reply = known[2]
            if tokens == input_tokens and number == n and reply is not None:
                return reply
    message, content, calls, output_tokens = _built_reply(turn)
    if type(message) is dict:  # a list of calls: its fields (`_reply`), for pydantic to build
        message = AssistantMessage.__pydantic_validator__.validate_python(message)
    fields = {
        "message": message,
        "finish_reason": "tool_calls" if calls else "stop",
        "usage": _usage(input_tokens, output_tokens),
        "model": "scripted",
        "id": f"scripted-{n}",
        "sources": (),
    }
    response: ChatResponse = _made(ChatResponse, fields, set(_RESPONSE_GIVEN))
    if not content and not calls:
        return not_empty(response)
    if kind is str or kind is ToolCall:
        known = _BUILT.get(id(turn))
        if known is not None and known[0] is turn:  # replaced whole: another thread reads the old entry or this
            _BUILT[id(turn)] = (turn, known[1], (input_tokens, n, response))
    return response


def _usage(input_tokens: int, output_tokens: int) -> TokenUsage:
    """`TokenUsage(input_tokens=..., output_tokens=...)`, written directly (`_made`); the same record
    for the same counts while it is kept (`_USAGES_KEPT`): it is frozen, and holds two ints."""
    key = (input_tokens, output_tokens)
    usage = _USAGES.get(key)
    if usage is None:
        usage = _made(TokenUsage, {"input_tokens": input_tokens, "output_tokens": output_tokens}, set(_USAGE_GIVEN))
        if len(_USAGES) >= _USAGES_KEPT:
            _USAGES.clear()
        _USAGES[key] = usage
    return usage


_USAGES: dict[tuple[int, int], TokenUsage] = {}
"""`_usage` by its counts."""
_USAGES_KEPT = 256
"""How many usage records `_USAGES` keeps before it forgets them all."""

_USAGE_GIVEN = frozenset(("input_tokens", "output_tokens"))
_RESPONSE_GIVEN = frozenset(("message", "finish_reason", "usage", "model", "id"))
"""The fields `_response` gives its records (their `model_fields_set`; `sources` is the default)."""


def _made(cls: type[Any], fields: dict[str, Any], given: set[str]) -> Any:
    """A record of `cls` holding `fields` (every field, in the class's order), `given` its fields
    set: what pydantic's validation makes of the same values (no extra fields, no private
    attributes: the records have none), without checking them again. Written through the slots'
    own setters: `object.__setattr__` (a frozen record refuses its own) costs twice as much a call."""
    record = _new(cls)
    _set_dict(record, fields)
    _set_fields_set(record, given)
    _set_extra(record, None)
    _set_private(record, None)
    return record


_new = object.__new__
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def _reply(turn: Turn) -> _Reply:
    """The message a turn stands for (an `AssistantMessage`, or the fields of one for pydantic to
    build), its text, its calls and its output tokens (the estimate): the plain definition, which
    `_built_reply` gives quicker for a turn it has built before."""
    message, content, calls = _message(turn)
    output_tokens = estimate_tokens(content or "")
    for call in calls:
        output_tokens += estimate_tokens(call.name + call.arguments)
    return message, content, calls, output_tokens


_Reply = tuple[AssistantMessage | dict[str, Any], str | None, tuple[ToolCall, ...], int]
"""A turn's message (or its fields), text, calls and output tokens (`_reply`)."""


def _built_reply(turn: Turn) -> _Reply:
    """`_reply(turn)`, the message built, kept for the turn object (a str, or a `ToolCall` of the
    package's own class: both immutable) and given again when the same object is played again: a
    test that builds a model per run replays the same turns, and the same message object then
    costs memory and the usage count (`_Counts`, `Prefix`) a pointer's comparison, not a record's.
    The message is a frozen record, as a scripted `AssistantMessage` (played as it is) is; other
    turns (a list may change, a learner's class may be mutable) are built each time."""
    kind = type(turn)
    if kind is not str and kind is not ToolCall:
        return _reply(turn)
    known = _BUILT.get(id(turn))
    if known is not None and known[0] is turn:
        return known[1]
    message, content, calls, output_tokens = _reply(turn)
    if not content and not calls:  # an empty turn: `not_empty` raises for it, nothing to keep
        return message, content, calls, output_tokens
    fields: dict[str, Any] = {
        "role": "assistant",
        "content": content,
        "tool_calls": calls,
        "extra": {},
        "refusal": None,
    }
    # the message a str or a `ToolCall` stands for, written directly as `_response` writes the reply: a str
    # (exactly one) as its text or one call of the package's class is what its validation would keep
    given = {"content"} if kind is str else {"tool_calls"}
    built: _Reply = (_made(AssistantMessage, fields, given), content, calls, output_tokens)
    if len(_BUILT) >= _BUILT_KEPT:
        _BUILT.clear()
    _BUILT[id(turn)] = (turn, built, _NO_RESPONSE)  # the entry keeps the turn, and so its id, alive
    return built


_BUILT: dict[int, tuple[Turn, _Reply, tuple[int, int, ChatResponse | None]]] = {}
"""`_built_reply` by the turn's id, with the last reply `_response` made of it: (input tokens, request
number, the reply)."""
_NO_RESPONSE: tuple[int, int, ChatResponse | None] = (-1, -1, None)
"""An entry's last reply before it has one (no request has the number -1)."""

_BUILT_KEPT = 64
"""How many turns `_BUILT` keeps before it forgets them all: a script replayed has a few turns, and a
script built anew each run (`call()` in a learner's test) only adds to it. 4,096 kept that many turns
and their messages alive for the garbage collector to walk: loop_overhead's `scriptedcall` took 59.5 µs
a round trip in its full run against 42.7 before the cache; 43.1 with 64."""


def _input_tokens(messages: Sequence[Message]) -> int:
    """The messages' estimate, each image counted as `IMAGE_TOKENS` (not as its base64 text):
    the plain definition, which `_Counts.input_tokens` is held equal to by a test."""
    images = sum(len(m.images) for m in messages if isinstance(m, UserMessage))
    if not images:
        return estimate_json_tokens(to_openai(list(messages)))
    plain = [m.model_copy(update={"images": ()}) if isinstance(m, UserMessage) else m for m in messages]
    return estimate_json_tokens(to_openai(plain)) + IMAGE_TOKENS * images


class _Counts:
    """The input tokens of a request, `_input_tokens` of its messages plus `estimate_json_tokens`
    of its tools array, without writing the whole conversation as JSON again each request.

    A JSON array's counts are its items' added up (`toolkit.tokens.array_tokens`), so each
    message is counted on its own, once: the four message records are frozen, so what one adds
    (its `json_counts`, and its images) is kept with the message itself, whose id stays its own
    while it is kept (at most `KEEP`, then all forgotten; the model's `requests` hold them anyway).
    A loop's tools-array entry (`SentTool`) keeps its own counts. A message of another class
    (its own `to_openai`) and any other tools entry (a plain dict may change) are counted each
    time. `tests/test_scripted_usage.py` holds the counts equal to the plain definition.

    A conversation goes on from the last one counted (the same messages first, then new ones),
    often in a new model (a test builds one per run): `_last` keeps that conversation's running
    totals, so only what follows the part the two agree on is read, message by message (`Prefix`)."""

    KEEP = 4096

    def __init__(self) -> None:
        self._known: dict[int, _Known] = {}

    def input_tokens(self, messages: Sequence[Message], tools: list[dict[str, Any]], known: int | None = None) -> int:
        """`_input_tokens(messages)` plus `estimate_json_tokens(tools)` (`known`, when worked out already)."""
        wide, narrow, images = self.messages_counts(messages if type(messages) is tuple else tuple(messages))
        total = array_tokens(wide, narrow, len(messages)) + IMAGE_TOKENS * images
        if known is not None:
            return total + known
        return total + tools_tokens(tools) if tools else total

    def messages_counts(self, messages: tuple[Message, ...]) -> tuple[int, int, int]:
        """The wide and narrow characters of the messages' JSON items, and their images, added
        up: the last conversation's totals as far as the two agree, then message by message."""
        global _last
        last = _last
        start = last.agreeing(messages)
        if start == len(messages):  # nothing new: `_last` is kept, for a conversation that starts
            if start and messages[-1] is not last.messages[start - 1]:  # again (a test run once more)
                _last = last.sent_again(messages)  # to go on along, with the copies it sends
            return last.totals[start]
        wide, narrow, images = last.totals[start]
        running: list[tuple[int, int, int]] = []
        fixed = True  # every message so far has a fixed wire form (`Prefix`)
        for message in messages[start:]:
            known = self._known.get(id(message))
            if known is None or known[0] is not message:
                known = self._count(message)
            wide, narrow, images = wide + known[1][0], narrow + known[1][1], images + known[2]
            fixed = fixed and known[3]
            if fixed:
                running.append((wide, narrow, images))
        _last = Prefix(messages[: start + len(running)], last.totals[: start + 1] + tuple(running))
        return wide, narrow, images

    def _count(self, message: Message) -> _Known:
        images = len(message.images) if isinstance(message, UserMessage) else 0
        own, fixed = _kind(message)
        if images:
            count = json_counts(message.model_copy(update={"images": ()}).to_openai())
        elif fixed:
            count = _strings_counts(message.to_openai())
        else:
            count = json_counts(message.to_openai())
        known = (message, count, images, fixed)
        if own:
            if len(self._known) >= self.KEEP:
                self._known.clear()
            self._known[id(message)] = known
        return known


_Known = tuple[Message, tuple[int, int], int, bool]
"""A message, its JSON item's (wide, narrow) characters, its images, whether its wire form is fixed."""


class Prefix(NamedTuple):
    """A conversation counted, as far as every message's wire form is fixed (one of the four
    records, not a subclass, with no provider fields: strings only, a function of the fields),
    and its running totals: `totals[k]` is the (wide, narrow, images) of its first `k` messages.

    A later conversation that starts with the same messages takes their totals from here. Same
    is `==`, compared in C (identical messages at the cost of comparing two pointers): two records
    of one class with equal fields have the same wire form when it is fixed (an equal message
    carries no provider fields either), so an equal copy counts the same. One conversation is
    kept, the last counted by any scripted model (a new model often goes on with it); it is
    replaced, never changed, so a model in another thread reads either the old one or the new
    one whole. Equal copies sent again may take the place of its own messages (`sent_again`)."""

    messages: tuple[Message, ...]
    totals: tuple[tuple[int, int, int], ...]

    def agreeing(self, messages: tuple[Message, ...]) -> int:
        """How many messages `messages` starts with that this conversation starts with too.

        Usually all that both have, in one comparison: a conversation that goes on sends the
        same objects again (and a test run once more, equal copies). Else the two part
        somewhere (at once when a window dropped the first messages): where the same objects
        end is found by halves, comparing pointers only (comparing two records field by field
        costs about as much as counting one), and checked."""
        known = self.messages
        shared = len(messages) if len(messages) < len(known) else len(known)
        if _starts(known, messages) if shared == len(messages) else _starts(messages, known):
            return shared
        same, other = 0, shared  # the same objects end between these
        while same < other:
            half = (same + other) // 2
            if known[half] is messages[half]:
                same = half + 1
            else:
                other = half
        return same if known[:same] == messages[:same] else 0  # else one in the middle was replaced

    def sent_again(self, messages: tuple[Message, ...]) -> Prefix:
        """This conversation, `messages` (equal copies of its first messages, some of them) in
        their place, so a request that goes on from the copies finds the same objects here; but
        itself when a part of it, not all, is sent again from the same first message (a few
        copies at its end, compared again, cost less than copying a long conversation)."""
        if len(messages) < len(self.messages) and messages[0] is self.messages[0]:
            return self
        return Prefix(messages + self.messages[len(messages) :], self.totals)


def _starts(longer: tuple[Message, ...], shorter: tuple[Message, ...]) -> bool:
    """Whether `longer` starts with `shorter`, without cutting `longer` to its length (a copy of a
    long history): `shorter <= longer` compares the pairs in C up to the shorter's length (the same
    objects cost two pointers' comparison) and, all equal, says the shorter is no longer. A pair
    that differs is asked for its order instead, which a record has not (pydantic defines none:
    `TypeError`), so any difference is False, as `longer[:len(shorter)] == shorter` is."""
    if len(longer) == len(shorter):
        return longer == shorter
    try:
        return bool(shorter <= longer)
    except TypeError:
        return False


_last = Prefix((), ((0, 0, 0),))
"""The last conversation a scripted model counted (`Prefix`)."""

_OWN_MESSAGES = frozenset(MESSAGE_TYPES)


def _kind(message: Message) -> tuple[bool, bool]:
    """Whether the message is one of the four records, its tool calls `ToolCall`s (not a
    learner's subclasses, whose wire form may change): what it adds can be kept with it; and
    whether its wire form is fixed too: such a record without a provider's own fields (`extra`,
    any JSON) is written as strings, `None`, and lists and dicts of them, fixed by its fields."""
    if type(message) is not AssistantMessage:
        own = type(message) in _OWN_MESSAGES
        return own, own
    own, fixed = True, not message.extra
    for call in message.tool_calls:
        own = own and type(call) is ToolCall
        fixed = fixed and not call.extra
    return own, own and fixed


def _strings_counts(data: dict[str, Any]) -> tuple[int, int]:
    """`json_counts(data)` for data of strings, `None`, lists and dicts: orjson writes such data
    as the standard library does (every character escaped alike, checked over all of Unicode by
    a test), quicker; a lone surrogate, which orjson refuses, is counted the plain way."""
    try:
        text = orjson.dumps(data)
    except TypeError:  # orjson.JSONEncodeError
        return json_counts(data)
    return (0, len(text)) if text.isascii() else text_counts(text.decode("utf-8"))


def _message(turn: Turn) -> tuple[AssistantMessage | dict[str, Any], str | None, tuple[ToolCall, ...]]:
    """The reply's message (as scripted, or the fields of the one a turn stands for), its text and its calls."""
    if isinstance(turn, AssistantMessage):
        return turn, turn.content, turn.tool_calls
    if isinstance(turn, str):
        return {"content": turn}, turn, ()
    if isinstance(turn, ToolCall):
        return {"tool_calls": (turn,)}, None, (turn,)
    if isinstance(turn, (list, tuple)) and all(isinstance(c, ToolCall) for c in turn):
        calls = tuple(turn)
        return {"tool_calls": calls}, None, calls
    raise ConfigurationError(f"ScriptedModel: a turn is {_bad_turn(turn)}")


def _script_list(script: Any) -> list[Turn]:
    """The script as a list when it is not one: a tuple, a generator or another ordered iterable is
    read in order; one turn alone (`"hi"`, a `ToolCall`: a record is iterable, field by field), a set
    (hash order: another order in each process), a dict, bytes or a number is a `ConfigurationError`
    (a str was played letter by letter, a dict key by key)."""
    fix = (
        "give the turns in a list, one per request: ScriptedModel(['the answer']) or ScriptedModel([call(...), '...'])"
    )
    kind = type(script).__name__
    if isinstance(script, (str, ToolCall, AssistantMessage, ChatResponse, BaseException)):
        raise ConfigurationError(f"ScriptedModel: the script is one turn ({kind}), not a list of turns; {fix}")
    if isinstance(script, (set, frozenset)):
        raise ConfigurationError(
            f"ScriptedModel: the script is a {kind}, which has no order (its turns would play in another order in "
            f"each process); {fix}"
        )
    if isinstance(script, (bytes, bytearray, Mapping)) or not isinstance(script, Iterable):
        raise ConfigurationError(f"ScriptedModel: the script is {a_or_an(kind)}, not a list of turns; {fix}")
    return list(script)


def _check_keywords(requests: Any, name: Any) -> None:
    """`requests=` and `name=` when one is not of its usual type: a subclass passes; anything else
    is a `ConfigurationError` here (`requests=None` was a raw `AttributeError` at the first request,
    `name=3` was taken)."""
    if not isinstance(requests, list):
        raise ConfigurationError(
            f"ScriptedModel: requests= is the list each request is recorded in, and got "
            f"{a_or_an(type(requests).__name__)}; leave it out (model.requests starts empty) or pass a list"
        )
    if not isinstance(name, str):
        raise ConfigurationError(
            f"ScriptedModel: name= is the model's name, a str, and got {a_or_an(type(name).__name__)}; "
            "pass e.g. name='scripted'"
        )


def _is_turn(turn: Any) -> bool:
    """Whether `turn` is one of the kinds a script holds (see the module docstring). A class is
    one only when it is an exception's (raised when its turn comes)."""
    if isinstance(turn, type):
        return issubclass(turn, BaseException)
    if isinstance(turn, (str, ToolCall, AssistantMessage, ChatResponse, BaseException)) or callable(turn):
        return True
    return isinstance(turn, (list, tuple)) and all(isinstance(c, ToolCall) for c in turn)


def _exhausted(request: int) -> str:
    """Why request `request` finds the script empty: every earlier request used one turn."""
    used = request - 1
    why = {0: "it is empty", 1: "its 1 turn was used by request 1"}.get(
        used, f"its {used} turns were used by requests 1 to {used}"
    )
    return f"the script has no turn left for request {request}: {why}"


def _bad_turn(turn: Any) -> str:
    shown = f"the class {turn.__name__}" if isinstance(turn, type) else repr(turn)
    shown = cut(shown, 80, "...")
    return (
        f"{shown}; a turn is text, a ToolCall or a list of them, an AssistantMessage, a ChatResponse, an "
        "exception to raise, or a function of the request returning one of those"
    )


class CallIds:
    """Counter-based tool-call ids: `call_1`, `call_2`, …"""

    prefix: str
    """What every id starts with."""
    count: int
    """How many ids were handed out (the last one's number)."""

    def __init__(self, prefix: str = "call_") -> None:
        self.prefix, self.count = prefix, 0

    def __call__(self) -> str:
        self.count += 1
        return f"{self.prefix}{self.count}"


_IDS = CallIds()


def call(name: str, arguments: str | dict[str, Any] | None = None, *, id: str | None = None, **kwargs: Any) -> ToolCall:
    """A `ToolCall` for scripts: `call("query_order", orderId="SN…")` or raw argument text."""
    if isinstance(arguments, str):
        text = arguments  # raw, possibly invalid JSON: exactly what a sloppy model might send
    else:
        if arguments is not None and not isinstance(arguments, Mapping):
            raise ConfigurationError(
                f"call({name!r}, ...): the arguments are the JSON text the model sends (a str) or a dict of them, "
                f"and got {a_or_an(type(arguments).__name__)}; pass call({name!r}, a=1) or call({name!r}, {{'a': 1}})"
            )
        try:
            text = json.dumps({**(arguments or {}), **kwargs}, ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError) as failure:  # a set, an object, a circular list: no JSON for them
            raise ConfigurationError(
                f"call({name!r}, ...): the arguments cannot be written as JSON ({failure}); give JSON values (str, "
                "int, float, bool, None, and lists and dicts of them), or the model's raw text as a str"
            ) from None
    return ToolCall(id=id or _IDS(), name=name, arguments=text)


def reset_call_ids() -> None:
    """Start `call()` ids from `call_1` again (notebooks do this so outputs stay stable)."""
    _IDS.count = 0
