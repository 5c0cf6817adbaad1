"""What `ai_service` is given, checked at creation: the class (not an instance), a chat model, a
memory, `structured`, a class that declares something, a prompt file inside data/prompts/.
Each mistake is a `ConfigurationError` naming the argument and the fix, never an
`AttributeError` or a `TypeError` at the first call, nor a setting silently ignored."""

import datetime as dt
from typing import Annotated, Protocol, TypeVar

import pytest
from pydantic import BaseModel

from toolkit.chat.scripted import ScriptedModel
from toolkit.errors import ConfigurationError
from toolkit.memory.windows import ChatMemory, InMemoryStore, MessageWindow
from toolkit.services.declare import UserText, system_message
from toolkit.services.service import ai_service, memory_per_id
from toolkit.services.templates import fixed_clock
from toolkit.tools.decorator import MemoryId


class Ask(Protocol):
    def ask(self, question: str) -> str: ...


class Plain:
    def ask(self, question: str) -> str: ...


def error_of(declaration=Ask, **kw):
    kw.setdefault("model", ScriptedModel([]))
    with pytest.raises(ConfigurationError) as info:
        ai_service(declaration, **kw)
    return str(info.value)


def ask_function(question: str) -> str: ...


@pytest.mark.parametrize(
    "given, shown", [(Plain(), "an instance of Plain"), (ask_function, "the function ask_function"), ("Ask", "'Ask'")]
)
def test_the_class_itself_is_required(given, shown):
    assert error_of(given) == (
        f"ai_service(...) takes the declared class itself, and got {shown}; pass the class, as in "
        "ai_service(Assistant, model=...), not an instance or a function"
    )


@pytest.mark.parametrize("model, shown", [(None, "None"), ("gpt-4o", "'gpt-4o'")])
def test_the_model_must_be_a_chat_model(model, shown):
    assert error_of(model=model) == (
        f"ai_service(Ask, model={shown}): that is not a chat model (it has no chat() method); pass one, "
        "e.g. model=connect() or a ScriptedModel([...])"
    )


@pytest.mark.parametrize("memory", ["u1", 3])
def test_memory_must_be_a_chat_memory_or_a_provider(memory):
    assert error_of(memory=memory) == (
        f"ai_service(Ask, memory={memory!r}): memory is a ChatMemory (one conversation) or a function "
        "memory_id -> ChatMemory; use memory=memory_per_id() for one per id"
    )


@pytest.mark.parametrize("structured", ["json", "schema", None])
def test_structured_must_be_one_of_the_two_ways(structured):
    assert error_of(structured=structured) == (
        f"ai_service(Ask, structured={structured!r}): use one of 'response_format', 'instructions'"
    )


def test_a_class_that_declares_no_public_method_is_refused():
    class Empty(Protocol):
        def _helper(self, question: str) -> str: ...

    assert error_of(Empty) == (
        "ai_service(Empty): the class declares no public method, so the service could do nothing; declare one, "
        "e.g. def chat(self, question: str) -> str: ..."
    )


class StaticChat(Protocol):
    @staticmethod
    def chat(user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...


class ClassChat(Protocol):
    @classmethod
    def chat(cls, question: str) -> str: ...


@pytest.mark.parametrize(("declaration", "kind"), [(StaticChat, "staticmethod"), (ClassChat, "classmethod")])
def test_a_class_whose_only_method_is_static_is_told_so_not_that_it_declares_none(declaration, kind):
    """It read 'the class declares no public method': it declares chat, as a static or class method."""
    assert error_of(declaration) == (
        f"ai_service({declaration.__name__}): its public method chat is a {kind}, which ai_service leaves "
        f"as it is (only plain methods taking self are declared), so the service could do nothing; remove "
        f"@{kind} and declare it def chat(self, ...)"
    )


@pytest.mark.parametrize("file", ["../../../../etc/passwd", "/etc/hostname", "../prompts/../../pyproject.toml"])
def test_a_system_message_file_outside_data_prompts_is_refused(file):
    class Outside(Protocol):
        @system_message(file=file)
        def ask(self, question: str) -> str: ...

    assert error_of(Outside) == (
        f"Outside.ask: @system_message(file={file!r}) points outside data/prompts/; name a file in that folder, "
        "or pass the text itself: @system_message(Path(...).read_text())"
    )


def test_a_system_message_file_name_holding_a_nul_byte_is_not_found():
    class Nul(Protocol):
        @system_message(file="ecom\x00support.txt")
        def ask(self, question: str) -> str: ...

    assert error_of(Nul).startswith(  # was: a raw ValueError ("embedded null byte")
        "Nul.ask: @system_message(file='ecom\\x00support.txt') not found in data/prompts/ (available: "
    )


def _plain(order_id):  # no annotation: the model would not be told what to send
    return order_id


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"tools": _plain}, "tools= takes a list"),
        ({"providers": _plain}, "providers= takes a list"),
        ({"tools": [_plain]}, "parameter 'order_id': it has no type annotation"),
        ({"tools": [42]}, r"42 \(an int\) is not a tool"),
    ],
)
def test_a_tool_the_loop_could_not_use_is_refused_at_creation_not_at_the_first_call(kw, message):
    from toolkit.errors import ToolDefinitionError

    model = ScriptedModel([])
    with pytest.raises(ToolDefinitionError, match=message):
        ai_service(Ask, model=model, **kw)
    assert model.requests == []


def test_a_class_the_service_cannot_be_made_from_is_a_configuration_error():
    from abc import ABC, abstractmethod

    class Named:
        def __init__(self, name):
            self.name = name

        def ask(self, question: str) -> str: ...

    class Versioned(ABC):
        @abstractmethod
        def ask(self, question: str) -> str: ...

        @property
        @abstractmethod
        def version(self) -> str: ...

    rule = (
        "declare the methods on a Protocol (or a class) whose __init__ takes no arguments and with no abstract "
        "attribute other than the declared methods"
    )
    assert error_of(Named) == (
        "ai_service(Named): the service cannot be made from the class (test_a_class_the_service_cannot_be_made_from_"
        "is_a_configuration_error.<locals>.Named.__init__() missing 1 required positional argument: 'name'); " + rule
    )
    message = error_of(Versioned)  # Python's own wording of the abstract-class error differs by version
    prefix = "ai_service(Versioned): the service cannot be made from the class (Can't instantiate abstract class "
    assert message.startswith(prefix) and "version" in message and message.endswith("); " + rule)


class Chat(Protocol):
    def chat(self, user: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...


def _no_id():
    return None


def _keyword_only(*, memory_id):
    return None


@pytest.mark.parametrize(
    "memory, message",
    [
        (
            memory_per_id,
            "ai_service(Chat, memory=the function memory_per_id): that makes providers; call it: memory=memory_per_id()",
        ),
        (
            ChatMemory,  # a new conversation at every call: everything said before would be forgotten
            "ai_service(Chat, memory=the class ChatMemory): memory is a ChatMemory (one conversation) or a function "
            "memory_id -> ChatMemory; use memory=memory_per_id() for one per id",
        ),
        (
            _no_id,
            "ai_service(Chat, memory=the function _no_id): it cannot be called with one memory id; memory is a "
            "ChatMemory (one conversation) or a function memory_id -> ChatMemory",
        ),
        (
            _keyword_only,
            "ai_service(Chat, memory=the function _keyword_only): it cannot be called with one memory id; memory is "
            "a ChatMemory (one conversation) or a function memory_id -> ChatMemory",
        ),
    ],
)
def test_a_memory_that_is_no_provider_is_refused_at_creation(memory, message):
    assert error_of(Chat, memory=memory) == message


def test_a_provider_that_returns_no_chat_memory_is_refused_before_anything_is_sent():
    model = ScriptedModel(["好"])
    service = ai_service(Chat, model=model, memory=lambda memory_id: {"id": memory_id})
    with pytest.raises(ConfigurationError) as info:
        service.chat("u1", "在吗")
    assert str(info.value) == (
        "chat(user=...): the memory provider returned dict, not a ChatMemory; make it return "
        "ChatMemory(memory_id, ...), or use memory=memory_per_id()"
    )
    assert model.requests == []


class Dated(Protocol):
    @system_message("今天是 {{current_date}}")
    def ask(self, question: str) -> str: ...


CLOCK_RULE = "clock is a function of no arguments returning a datetime, e.g. fixed_clock('2026-10-20T10:00:00')"


@pytest.mark.parametrize(
    "clock, message",
    [
        (
            fixed_clock,
            "the function fixed_clock): that makes clocks; call it with the moment: fixed_clock('2026-10-20T10:00:00')",
        ),
        ("2026-10-20", f"'2026-10-20'): {CLOCK_RULE}"),
        (dt.datetime, f"the class datetime): {CLOCK_RULE}"),
        (lambda moment: moment, f"the function <lambda>): it cannot be called without arguments; {CLOCK_RULE}"),
    ],
)
def test_a_clock_that_is_no_clock_is_refused_at_creation(clock, message):
    assert error_of(Dated, clock=clock) == f"ai_service(Dated, clock={message}"


@pytest.mark.parametrize(
    "clock, got",
    [
        (lambda: dt.date(2026, 10, 20), "date datetime.date(2026, 10, 20)"),
        (lambda: 1796282948.5, "float 1796282948.5"),
        (lambda: "2026-10-20", "str '2026-10-20'"),
    ],
)
def test_a_clock_that_returns_no_datetime_is_a_configuration_error_before_anything_is_sent(clock, got):
    model = ScriptedModel(["好"])
    service = ai_service(Dated, model=model, clock=clock)
    with pytest.raises(ConfigurationError) as info:
        service.ask("在吗")
    assert str(info.value) == (
        f"the clock '<lambda>' returned {got}, not a datetime; use a clock returning one, "
        "e.g. fixed_clock('2026-10-20T10:00:00')"
    )
    assert model.requests == []


FRESH_EVERY_CALL = (
    "chat(user=...): the memory provider gave memory id 'u1' a new ChatMemory on a new InMemoryStore each time it "
    "was called, so every call would start a new conversation and lose the ones before; keep one memory per id: "
    "memory=memory_per_id(window=...), or make one store and share it: store = InMemoryStore(), then "
    "memory=lambda memory_id: ChatMemory(memory_id, store=store, window=...)"
)


def test_a_provider_that_makes_a_new_in_memory_conversation_each_call_is_refused_before_anything_is_sent():
    """LangChain4j's `chatMemoryProvider(id -> MessageWindowChatMemory...)` written as a lambda: the
    service kept nothing of the first call (the second one asked without it)."""
    model = ScriptedModel(["你好，Ann", "你叫 Ann"])
    service = ai_service(Chat, model=model, memory=lambda memory_id: ChatMemory(memory_id, window=MessageWindow(10)))
    with pytest.raises(ConfigurationError) as info:
        service.chat("u1", "我叫 Ann")
    assert str(info.value) == FRESH_EVERY_CALL
    assert model.requests == []


def test_providers_that_keep_the_conversation_are_called_as_before():
    store = InMemoryStore()
    calls: list[str] = []

    def shared_store(memory_id: str) -> ChatMemory:
        calls.append(memory_id)
        return ChatMemory(memory_id, store=store)

    model = ScriptedModel(["你好，Ann", "你叫 Ann"])
    service = ai_service(Chat, model=model, memory=shared_store)
    service.chat("u1", "我叫 Ann")
    service.chat("u1", "我叫什么？")
    assert [m.content for m in model.requests[-1].messages] == ["我叫 Ann", "你好，Ann", "我叫什么？"]
    assert calls == ["u1", "u1", "u1"]  # asked once more on its first use only
    memories = memory_per_id()
    kept = ai_service(Chat, model=ScriptedModel(["好", "好"]), memory=memories)
    kept.chat("u2", "一")
    kept.chat("u2", "二")
    assert len(memories("u2").messages()) == 4


T = TypeVar("T")


class Extractor(Protocol[T]):
    def extract(self, text: str) -> T: ...


class Order(BaseModel):
    order_id: str


def test_a_generic_class_with_type_arguments_is_refused_as_such_not_as_a_function():
    assert error_of(Extractor[Order]) == (
        "ai_service(...) takes the declared class itself, and got Extractor[Order], a generic class with type "
        "arguments, which ai_service does not fill in; declare a class whose methods name the concrete types "
        "(-> Order, not -> T)"
    )


def test_a_shared_memory_id_without_per_id_memory_is_refused_not_ignored():
    """`shared_memory_id` names one conversation of a per-id memory; without one there is nothing it
    could name, and every call would quietly forget the ones before."""
    assert error_of(shared_memory_id="kiosk") == (
        "ai_service(Ask, shared_memory_id='kiosk'): names the shared conversation of a per-id memory, and the "
        "service has no memory, so every call would start afresh; pass memory=memory_per_id() too (or leave "
        "shared_memory_id out)"
    )
    assert error_of(shared_memory_id="kiosk", memory=ChatMemory("desk")) == (
        "ai_service(Ask, shared_memory_id='kiosk'): names the shared conversation of a per-id memory, and the "
        "service has one ChatMemory ('desk'), which every call shares already; leave shared_memory_id out (or "
        "pass memory=memory_per_id() for one conversation per id)"
    )


def test_a_pydantic_model_as_the_declaration_is_refused_before_anything_is_sent():
    """A declaration written as a `BaseModel`: its own methods (`copy`, `model_post_init` ...) were read as
    declared ones ('B.copy: its annotations cannot be resolved'), and `model_post_init`, run by the
    model's __init__, could ask the model at creation."""

    class Desk(BaseModel):
        def ask(self, question: str) -> str: ...

    model = ScriptedModel(["ok"])
    assert error_of(Desk, model=model) == (
        "ai_service(Desk): Desk is a pydantic model, whose own methods (model_dump, model_post_init ...) would be "
        "read as declared ones; declare the methods on a Protocol (class Desk(Protocol)) or a plain class (a pydantic "
        "model is what a method may return, -> OrderSummary)"
    )
    assert model.requests == []
