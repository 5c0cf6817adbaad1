"""Declaration mistakes fail when the service is created, with the method's name and the fix."""

from typing import Annotated, Protocol

import pytest

from toolkit.chat.scripted import ScriptedModel
from toolkit.errors import ConfigurationError
from toolkit.services.declare import UserText, V, system_message, user_message
from toolkit.services.service import Result, TokenStream, ai_service, memory_per_id
from toolkit.tools.decorator import MemoryId


def create(declaration, **kw):
    return ai_service(declaration, model=ScriptedModel([]), **kw)


def error_of(declaration, **kw):
    with pytest.raises(ConfigurationError) as info:
        create(declaration, **kw)
    return str(info.value)


def test_two_user_messages():
    class A(Protocol):
        def chat(self, a: Annotated[str, UserText], b: Annotated[str, UserText]) -> str: ...

    assert error_of(A) == (
        "A.chat: parameters a, b are all marked UserText; a method has one user message: "
        "mark one, and use the others as template variables"
    )


def test_template_and_marked_parameter():
    class A(Protocol):
        @user_message("hi {{a}}")
        def chat(self, a: str, b: Annotated[str, UserText]) -> str: ...

    assert error_of(A) == "A.chat: has both @user_message(...) and parameter 'b' marked UserText; keep one of the two"


def test_no_user_message():
    class A(Protocol):
        def chat(self, a: str, b: str) -> str: ...

    assert error_of(A) == (
        "A.chat: has no user message; mark one parameter Annotated[str, UserText] or add @user_message('...')"
    )


def test_unknown_template_variable():
    class A(Protocol):
        @system_message("今天是 {{today}}")
        def chat(self, q: str) -> str: ...

    assert error_of(A) == (
        "A.chat: @system_message uses {{today}}, which is neither a parameter nor a built-in; "
        "add a parameter 'today' (or Annotated[..., V('today')]), or use one of current_date, "
        "current_datetime, current_time"
    )


def test_unused_parameter():
    class A(Protocol):
        def chat(self, q: Annotated[str, UserText], tone: str) -> str: ...

    assert error_of(A) == (
        "A.chat: parameter 'tone' is not used by any template; use it as {{tone}} in a template, or remove it"
    )


def test_memory_id_without_memory():
    class A(Protocol):
        def chat(self, user: Annotated[str, MemoryId], q: Annotated[str, UserText]) -> str: ...

    assert error_of(A) == (
        "A.chat: parameter 'user' is a MemoryId, but the service has no per-id memory; pass "
        "memory=memory_per_id(...) (or a function memory_id -> ChatMemory) to ai_service()"
    )
    assert create(A, memory=memory_per_id())  # fine once memory is configured


def test_missing_return_annotation():
    class A(Protocol):
        def chat(self, q: str): ...

    assert error_of(A) == (
        "A.chat: has no return annotation; declare one: str, None, Result[T], TokenStream or a pydantic model"
    )


def test_missing_prompt_file_lists_what_exists():
    class A(Protocol):
        @system_message(file="nope.txt")
        def chat(self, q: str) -> str: ...

    message = error_of(A)
    assert message.startswith("A.chat: @system_message(file='nope.txt') not found in data/prompts/ (available: ")
    assert "ecom_support.txt" in message and message.endswith(
        "; fix the name, or pass your own prompt's text: "
        '@system_message(Path("prompt.txt").read_text(encoding="utf-8"))'
    )  # before: "or add the file", into the installed package's own data folder (site-packages)


def test_a_token_stream_method_is_planned_as_a_stream():
    class A(Protocol):
        def chat(self, q: str) -> TokenStream: ...

    assert type(create(A)).__plans__["chat"].kind == "stream"


def test_renamed_variables_and_plans_are_cached_on_the_class():
    class A(Protocol):
        @user_message("订单 {{order}} 的状态？")
        def status(self, order_id: Annotated[str, V("order")]) -> Result[str]: ...

    service = create(A)
    plan = type(service).__plans__["status"]
    assert plan.variables == {"order_id": "order"} and plan.kind == "result" and plan.user_param is None
