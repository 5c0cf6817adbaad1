"""What `run_loop` and `iter_loop` are given, read before the turn begins.

The loop takes the conversation as a list (or a `str`: the user's question) and its keywords as
`ChatMemory`, `LoopOptions`, a dict of parameters and a `ToolContext`. The usual call passes the
usual types, and the loop tests them with `type(x) is` alone; these functions are the slow path,
for anything else: they take what is meant (`options=None` is the default options), and refuse the
rest with a `ConfigurationError` that names the keyword, what it got, and the fix, before anything
is stored or sent.

Leaves out: the messages inside the conversation (`toolkit.chat.messages.misfit_error` names a
misfit there, and only when the model fails on it).
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence

from toolkit.chat.messages import Message, given_conversation
from toolkit.errors import ConfigurationError, a_or_an
from toolkit.loop.records import LoopOptions
from toolkit.loop.sources import ToolContext
from toolkit.memory.windows import ChatMemory, shown


def given_messages(messages: object, where: str) -> Sequence[Message]:
    """What `run_loop` / `iter_loop` were given that is not a list or a tuple: a `str` is the
    user's question; another sequence is taken as it is; anything else (a dict: one message in
    the OpenAI format, `None`, a number) is a `ConfigurationError` naming the fix."""
    fix = "pass [UserMessage(content=...)], the conversation so far ending with the user's question"
    return given_conversation(messages, where, alone="the question", fix=fix)


def nothing_to_ask(where: str, memory: ChatMemory | None) -> ConfigurationError:
    """The error for a turn whose conversation is empty: no messages given, and no memory holding
    any. It went to the model as `"messages": []`, which a gateway answers with a 400 (OpenAI: "[] is
    too short"), after the turn had begun; pydantic-ai refuses a run with neither a prompt nor a
    history the same way, before sending. With messages in memory, an empty list is a turn that
    goes on from them (nothing new to add)."""
    held = "" if memory is None else f", and memory {shown(memory.id)} holds none"
    return ConfigurationError(
        f"{where}: the conversation is empty (no messages given{held}): there is nothing to ask the model; "
        f"pass the question, {where}(model, 'your question'), or the conversation so far ending with it, "
        f"{where}(model, [UserMessage(content=...)])"
    )


_DEFAULT_OPTIONS = LoopOptions()
"""The options `options=None` stands for (one instance: checking a new one's fields on every turn cost more than
the rest of a short turn's set-up)."""


def given_keywords(where: str, memory: object, options: object, parameters: object, context: object) -> LoopOptions:
    """`run_loop` / `iter_loop`'s `memory=`, `options=`, `parameters=` and `context=` when one is not
    of its usual type: a subclass passes, `options=None` is the default options (as `tools=None` is
    no tools), anything else is a `ConfigurationError` naming the keyword and the fix, raised before
    anything is stored or sent (it was an `AttributeError` inside the turn, after the question was
    stored: `'str' object has no attribute 'lock'`). Returns the options to use."""
    if memory is not None and not isinstance(memory, ChatMemory):
        raise ConfigurationError(
            f"{where}: memory= takes a ChatMemory, and got {described(memory)}; {memory_fix(memory)}"
        )
    if options is None:
        options = _DEFAULT_OPTIONS  # frozen: the one instance `run_loop`'s own default is
    elif not isinstance(options, LoopOptions):
        fix = (
            "pass options=LoopOptions(**options)"
            if isinstance(options, Mapping)
            else "pass an instance: options=LoopOptions()"
            if options is LoopOptions
            else "pass options=LoopOptions(...), e.g. options=LoopOptions(max_round_trips=5)"
        )
        raise ConfigurationError(f"{where}: options= takes a LoopOptions, and got {described(options)}; {fix}")
    if parameters is not None and not isinstance(parameters, Mapping):
        raise ConfigurationError(
            f"{where}: parameters= takes a dict (the values a tool's InvocationContext.parameters holds), and got "
            f"{described(parameters)}; pass e.g. parameters={{'user_name': 'Ann'}}"
        )
    for key in parameters or ():  # a tool reads them by name: another key was taken, and never found
        if not isinstance(key, str):
            shown = "None" if key is None else f"{described(key)} ({key!r:.40})"
            raise ConfigurationError(
                f"{where}: parameters= names each value with a str (what a tool reads from "
                f"InvocationContext.parameters), and got the key {shown}; pass e.g. parameters={{'user_name': 'Ann'}}"
            )
    if context is not None and not isinstance(context, ToolContext):
        raise ConfigurationError(
            f"{where}: context= takes the ToolContext that build_context() made, and got {described(context)}; "
            "give the tools as tools=[...], providers=[...] or registry=..., and leave context out"
        )
    return options


def described(value: object) -> str:
    """How an error names what it was given: the class itself, a function, or an instance's class."""
    if value is None:
        return "None"
    if isinstance(value, type):
        return f"the class {value.__name__}"
    if isinstance(value, (types.FunctionType, types.MethodType)):
        return f"the function {value.__name__}"
    return a_or_an(type(value).__name__)


def memory_fix(memory: object) -> str:
    """What to pass as `memory=` instead of `memory`."""
    if isinstance(memory, str) and memory:
        return f"pass memory=ChatMemory({memory!r}) (the conversation of that memory id)"
    if memory is ChatMemory:
        return "pass an instance, one per conversation: memory=ChatMemory('user-1')"
    if callable(getattr(memory, "weights", None)):  # a window
        return "give the window to the memory: memory=ChatMemory('user-1', window=...)"
    if callable(memory):  # memory_per_id(), say: a function of the id is what ai_service takes
        return (
            "a function of the memory id is what ai_service(memory=...) takes; pass one conversation's memory, "
            "e.g. memory=ChatMemory('user-1') (or memory=memories('user-1') with memories = memory_per_id())"
        )
    return "pass memory=ChatMemory('user-1'), one per conversation (or leave memory out)"
