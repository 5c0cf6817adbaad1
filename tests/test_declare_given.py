"""`toolkit.services`: the template decorators and `memory_per_id` given the wrong shapes, refused where written.

A bare `@user_message` / `@system_message` (no parentheses) replaced the method by the decorator's
inner function: the service was created, and the first call failed with a raw "too many positional
arguments". `@user_message(3)` and `@system_message(None)` / `(3)` were accepted where written and
refused only when the service was created; `@system_message(file=3)` was pathlib's raw `TypeError`
then; `user_message("…")(3)` a raw `AttributeError`. `memory_per_id(window=MessageWindow, store=3)`
was checked only when the first memory id wrote its first message. Each is now a `ConfigurationError`
where it is written, in the texts `ai_service` used."""

from typing import Protocol

import pytest

from toolkit.errors import ConfigurationError
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import MessageWindow
from toolkit.services.declare import system_message, user_message
from toolkit.services.service import memory_per_id


def test_a_bare_user_message_is_refused_where_it_is_written():
    with pytest.raises(ConfigurationError) as info:

        class A(Protocol):
            @user_message  # type: ignore[arg-type]
            def ask(self, question: str) -> str: ...

    assert str(info.value) == (
        'A.ask: @user_message needs the template text; write @user_message("… {{question}} …"), or remove it and '
        "mark a parameter Annotated[str, UserText]"
    )


def test_a_bare_system_message_is_refused_where_it_is_written():
    with pytest.raises(ConfigurationError) as info:

        class A(Protocol):
            @system_message  # type: ignore[arg-type]
            def ask(self, question: str) -> str: ...

    assert str(info.value) == (
        'A.ask: @system_message needs its text; write @system_message("…") or @system_message(file="name.txt") '
        "(a file in data/prompts/)"
    )


@pytest.mark.parametrize(
    ("decorator", "text"),
    [
        (lambda: user_message(3), "@user_message takes the template text (a str), and got int; read a file first, "
         "e.g. @user_message(Path(...).read_text())"),
        (lambda: system_message(None), "@system_message takes the text or file=..., and got neither; write "
         '@system_message("…") or @system_message(file="name.txt") (a file in data/prompts/)'),
        (lambda: system_message(3), "@system_message takes the template text (a str), and got int; for a file "
         'write @system_message(file="name.txt")'),
        (lambda: system_message(file=3), "@system_message(file=...) takes the name of a file in data/prompts/ (a "
         'str), and got int; e.g. @system_message(file="ecom_support.txt")'),
    ],
)  # fmt: skip
def test_a_template_that_is_no_text_is_refused_where_it_is_written(decorator, text):
    with pytest.raises(ConfigurationError) as info:

        class A(Protocol):
            @decorator()
            def ask(self, question: str) -> str: ...

    assert str(info.value) == f"A.ask: {text}"


def test_a_decorator_put_on_no_method_says_so():
    with pytest.raises(ConfigurationError) as info:
        user_message("Summarize {{order_id}}")(3)
    assert str(info.value) == (
        "@user_message(...) decorates a method, and got int; write it on the line above the method's def"
    )


@pytest.mark.parametrize(
    ("given", "text"),
    [
        (dict(window=MessageWindow), "memory_per_id(): window MessageWindow is the class, not a window; make one: "
         "window=MessageWindow(20)"),
        (dict(window=5), "memory_per_id(): window 5 is not a window (int); use MessageWindow(n), TokenWindow(n) or "
         "None for no window"),
        (dict(store=3), "memory_per_id(store=3): not a store (no get, set, delete); use InMemoryStore(), "
         "SqliteStore(path) or an object with get, set and delete"),
        (dict(store=SqliteStore), "memory_per_id(store=SqliteStore): that is the class, not a store; make one: "
         "store=SqliteStore('memory.db')"),
    ],
)  # fmt: skip
def test_memory_per_id_checks_its_window_and_store_when_it_is_called(given, text):
    with pytest.raises(ConfigurationError) as info:
        memory_per_id(**given)
    assert str(info.value) == text


def test_a_user_message_template_can_come_from_a_file_as_a_system_message_can(tmp_path, monkeypatch):
    # LangChain4j's @UserMessage(fromResource=...); @user_message(file=...) was a raw TypeError
    # ('user_message() got an unexpected keyword argument') where the class was written
    import toolkit.data
    from toolkit.chat.scripted import ScriptedModel
    from toolkit.services.service import ai_service
    from toolkit.services.templates import fixed_clock

    (tmp_path / "summary.txt").write_text("用一句话总结订单 {{order_id}}。", encoding="utf-8")
    monkeypatch.setattr(toolkit.data, "path", lambda *parts: tmp_path.joinpath(*parts[1:]))

    class Desk(Protocol):
        @user_message(file="summary.txt")
        def summarize(self, order_id: str) -> str: ...

    model = ScriptedModel(["已发货"])
    desk = ai_service(Desk, model=model, clock=fixed_clock("2026-10-20T10:00:00"))
    assert desk.summarize("SN202610200001") == "已发货"
    assert model.requests[0].messages[-1].content == "用一句话总结订单 SN202610200001。"

    class Typo(Protocol):  # the file's placeholders are checked at creation, as a written template's are
        @user_message(file="summary.txt")
        def summarize(self, order: str) -> str: ...

    with pytest.raises(ConfigurationError) as info:
        ai_service(Typo, model=ScriptedModel([]))
    assert str(info.value).startswith("Typo.summarize: @user_message uses {{order_id}}, which is neither a parameter")

    class Missing(Protocol):
        @user_message(file="nope.txt")
        def summarize(self, order_id: str) -> str: ...

    with pytest.raises(ConfigurationError) as info:
        ai_service(Missing, model=ScriptedModel([]))
    assert str(info.value) == (
        "Missing.summarize: @user_message(file='nope.txt') not found in data/prompts/ (available: summary.txt); fix "
        'the name, or pass your own prompt\'s text: @user_message(Path("prompt.txt").read_text(encoding="utf-8"))'
    )

    (tmp_path / "gbk.txt").write_bytes("总结订单 {{order_id}}".encode("gbk"))  # saved by an editor in GBK

    class Encoded(Protocol):
        @system_message(file="gbk.txt")
        def summarize(self, order_id: str) -> str: ...

    with pytest.raises(ConfigurationError) as info:  # was a raw UnicodeDecodeError out of ai_service
        ai_service(Encoded, model=ScriptedModel([]))
    assert str(info.value) == (
        "Encoded.summarize: @system_message(file='gbk.txt') is not UTF-8 text (byte 0: invalid continuation byte); save "
        "the file as UTF-8 (a prompt is text)"
    )


@pytest.mark.parametrize(
    ("decorator", "text"),
    [
        (lambda: user_message("总结 {{question}}", file="a.txt"), "@user_message takes the template text or "
         'file=..., not both; write @user_message("…") or @user_message(file="name.txt") (a file in data/prompts/)'),
        (lambda: user_message(file=3), "@user_message(file=...) takes the name of a file in data/prompts/ (a str), "
         'and got int; e.g. @user_message(file="summary.txt")'),
    ],
)  # fmt: skip
def test_a_user_message_file_given_wrong_is_refused_where_it_is_written(decorator, text):
    with pytest.raises(ConfigurationError) as info:

        class A(Protocol):
            @decorator()
            def ask(self, question: str) -> str: ...

    assert str(info.value) == f"A.ask: {text}"
