"""What a stranger declares: defaults, async, catch-all parameters, names in any script, nested
models, unresolved annotations, blank templates. Each is a working method or a `ConfigurationError`
at creation naming the method and the fix, never a `KeyError` or `NameError` at call time."""

from pathlib import Path
from typing import Annotated, Protocol

import pytest
from pydantic import BaseModel, PydanticUserError, TypeAdapter

from toolkit.chat.messages import SystemMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel
from toolkit.errors import ConfigurationError
from toolkit.services.declare import UserText, V, system_message, user_message
from toolkit.services.results import Result, TokenStream
from toolkit.services.service import ai_service
from toolkit.services.templates import fixed_clock


def create(declaration, script=()):
    model = ScriptedModel(list(script))
    return ai_service(declaration, model=model, clock=fixed_clock("2026-10-20T10:00:00")), model


def error_of(declaration):
    with pytest.raises(ConfigurationError) as info:
        create(declaration)
    return str(info.value)


def sent(model):
    return [m.content for m in model.requests[0].messages]


# --- defaults -------------------------------------------------------------------------------------


def test_an_omitted_argument_fills_the_template_with_its_default():
    class A(Protocol):
        @system_message("语气：{{tone}}")
        @user_message("总结订单 {{order_id}}")
        def summarize(self, order_id: str, tone: str = "简洁") -> str: ...

    assistant, model = create(A, ["好", "好"])
    assert assistant.summarize("SN1") == "好"
    assert sent(model) == ["语气：简洁", "总结订单 SN1"]
    assistant.summarize("SN2", tone="热情")
    assert [m.content for m in model.requests[1].messages] == ["语气：热情", "总结订单 SN2"]


def test_a_user_text_parameter_with_a_default_is_sent_when_omitted():
    class A(Protocol):
        def ask(self, question: str = "你好") -> str: ...

    assistant, model = create(A, ["在"])
    assert assistant.ask() == "在" and sent(model) == ["你好"]


# --- what a method cannot be ------------------------------------------------------------------------


def test_an_async_method_is_refused_at_creation():
    class A(Protocol):
        async def ask(self, question: str) -> str: ...

    assert error_of(A) == (
        "A.ask: is declared with async def, but a service's methods run synchronously (async is left out); "
        "declare it with def, and from async code call it as await in_thread(service.ask, ...) (from toolkit.loop.cancel: "
        "asyncio.to_thread that also stops the turn when the task is cancelled)"
    )


def test_an_async_generator_method_is_refused_at_creation():
    class A(Protocol):
        async def ask(self, question: str):
            yield question

    assert error_of(A).startswith("A.ask: is declared with async def")


@pytest.mark.parametrize("star", ["*", "**"])
def test_catch_all_parameters_are_refused_at_creation(star):
    namespace: dict = {}
    exec(f"def ask(self, {star}rest: str) -> str: ...", namespace)
    A = type("A", (), {"ask": namespace["ask"]})
    assert error_of(A) == (
        f"A.ask: parameter {star}rest takes any number of arguments, which can be neither the one user message "
        "nor one template variable; declare each value as its own parameter"
    )


def test_an_annotation_that_cannot_be_resolved_is_a_configuration_error():
    class A(Protocol):
        def ask(self, question: str) -> "NoSuchModel": ...  # type: ignore[name-defined]  # noqa: F821

    assert error_of(A) == (
        "A.ask: its annotations cannot be resolved (NameError: name 'NoSuchModel' is not defined); define or "
        "import every type they name in the declaration's module before calling ai_service()"
    )


@pytest.mark.parametrize("template", ["", "  \n"])
def test_a_blank_user_message_template_is_refused_where_it_is_written(template):
    with pytest.raises(ConfigurationError) as info:

        class A(Protocol):
            @user_message(template)
            def ask(self) -> str: ...

    assert str(info.value) == (
        f"A.ask: @user_message({template!r}) has no text; write the user message's template, "
        "or remove the decorator and mark a parameter Annotated[str, UserText]"
    )


def test_a_return_type_pydantic_cannot_write_as_a_schema_is_refused_at_creation():
    import socket
    from collections.abc import Callable

    def declared(returns):
        def ask(self, question: str): ...

        ask.__annotations__ = {"question": str, "return": returns}
        return type("A", (), {"ask": ask})

    rule = (
        "a structured answer is read from JSON, so its type must be one pydantic can write as a JSON Schema and "
        "validate. Fix: declare str, None, TokenStream, a pydantic model, or a type of JSON values (list[...], "
        "dict[str, ...], an enum, int ...), or Result[...] of one"
    )
    assert error_of(declared(socket.socket)) == (
        f"A.ask: returns socket, which pydantic cannot read from JSON (PydanticSchemaGenerationError); {rule}"
    )
    assert error_of(declared(Callable[[int], int])) == (
        "A.ask: returns Callable[[int], int], which pydantic cannot read from JSON (PydanticInvalidForJsonSchema); "
        f"{rule}"
    )
    assert error_of(declared(Result[TokenStream])) == (
        "A.ask: returns Result[TokenStream], whose content TokenStream pydantic cannot read from JSON "
        f"(PydanticSchemaGenerationError); {rule}"
    )


@pytest.mark.parametrize("returns", ["Iterator[str]", "Iterable[int]", "Generator[str, None, None]"])
def test_an_iterator_return_type_is_refused_at_creation(returns):
    from collections.abc import Generator, Iterable, Iterator  # noqa: F401  (read by eval)

    def ask(self, question: str): ...

    ask.__annotations__ = {"question": str, "return": eval(returns)}
    assert error_of(type("A", (), {"ask": ask})) == (
        f"A.ask: returns {returns}, an iterator, which a call cannot return (its values would be checked only "
        "as they are read, after the call). Fix: declare list[...] for the values at once, or TokenStream for "
        "the text as it arrives"
    )


@pytest.mark.parametrize("returns", ["Awaitable[str]", "Coroutine[None, None, str]"])
def test_an_awaitable_return_type_is_refused_at_creation(returns):
    from collections.abc import Awaitable, Coroutine  # noqa: F401  (read by eval)

    def ask(self, question: str): ...

    ask.__annotations__ = {"question": str, "return": eval(returns)}
    assert error_of(type("A", (), {"ask": ask})) == (
        f"A.ask: returns {returns}, but a service's methods run synchronously (async is left out). Fix: declare "
        "the answer's type (-> str), and from async code call it as await in_thread(service.ask, ...) (from "
        "toolkit.loop.cancel: asyncio.to_thread that also stops the turn when the task is cancelled)"
    )


@pytest.mark.parametrize("decorator, text", [(system_message, "Be brief."), (user_message, "Hi {{q}}")])
def test_a_decorator_given_twice_is_refused_where_it_is_written(decorator, text):
    with pytest.raises(ConfigurationError) as info:

        class A(Protocol):
            @decorator("one")
            @decorator(text)
            def ask(self, q: str) -> str: ...

    name = decorator.__name__
    assert str(info.value) == (
        f"A.ask: has two @{name}(...); a method has one {name.replace('_', ' ')}, and the outer one would "
        "silently replace the inner one. Fix: keep one, with all the text in it"
    )


def test_a_method_without_self_is_refused_at_creation():
    class A:
        def ask(question: str) -> str: ...  # type: ignore[misc]  # noqa: N805

    assert error_of(A) == (
        "A.ask: has no self parameter, so a call's first argument would be taken for the instance. "
        "Fix: declare it as def ask(self, question: str) -> str: ..."
    )


def test_the_first_parameter_is_the_instance_whatever_its_name():
    class A:
        def ask(this, question: str) -> str: ...  # noqa: N805

    assistant, model = create(A, ["ok"])
    assert assistant.ask("hi") == "ok" and sent(model) == ["hi"]


# --- what is not a declared method --------------------------------------------------------------


def test_a_model_nested_in_the_declaration_static_and_class_methods_stay_as_they_are():
    class A(Protocol):
        class Answer(BaseModel):
            status: str

        @staticmethod
        def normalize(text: str) -> str:
            return text.strip()

        @classmethod
        def label(cls) -> str:
            return cls.__name__

        @property
        def version(self) -> str:
            return "v1"

        def ask(self, question: str) -> Answer: ...

        def ask_later(self, question: str) -> "Answer": ...  # as `from __future__ import annotations` writes it

    assistant, _ = create(A, ['{"status": "ok"}', '{"status": "later"}'])
    assert sorted(type(assistant).__plans__) == ["ask", "ask_later"]
    assert assistant.normalize("  x ") == "x" and assistant.label() == "AService" and assistant.version == "v1"
    assert assistant.ask("q") == A.Answer(status="ok")
    assert assistant.ask_later("q") == A.Answer(status="later")


def test_a_static_or_class_method_with_a_template_is_refused_not_left_to_return_none():
    class A(Protocol):
        def chat(self, question: str) -> str: ...

        @classmethod
        @user_message("翻译 {{text}}")
        def translate(cls, text: str) -> str: ...

    class B(Protocol):
        def chat(self, question: str) -> str: ...

        @staticmethod
        @system_message("Be brief.")
        def brief(question: str) -> str: ...

    class C(Protocol):
        def chat(self, question: str) -> str: ...

        @property
        @system_message("Be brief.")
        def brief(self) -> str: ...

    def rule(method, decorator, kind, fix):
        return (
            f"{method}: has @{decorator}(...), but is a {kind}, which ai_service leaves as it is (only plain "
            "methods taking self are declared), so a call would return the declaration's own body without asking "
            f"the model. Fix: {fix}"
        )

    plain = "remove @{} and declare it def {}(self, ...)"
    assert error_of(A) == rule("A.translate", "user_message", "classmethod", plain.format("classmethod", "translate"))
    assert error_of(B) == rule("B.brief", "system_message", "staticmethod", plain.format("staticmethod", "brief"))
    assert error_of(C) == rule("C.brief", "system_message", "property", plain.format("property", "brief"))


def test_a_stub_property_static_or_class_method_is_refused_not_left_to_return_none():
    # `@property def name(self) -> str: ...` on a Protocol: service.name was None, with no word, and a stub
    # @staticmethod beside declared methods returned None at every call (the model never asked)
    class A(Protocol):
        def chat(self, question: str) -> str: ...

        @property
        def name(self) -> str: ...

    class B(Protocol):
        def chat(self, question: str) -> str: ...

        @staticmethod
        def ask(question: str) -> str: ...

    class C(Protocol):
        def chat(self, question: str) -> str: ...

        @classmethod
        def greet(cls, who: str) -> str:
            raise NotImplementedError

    def rule(method, kind, name):
        return (
            f"{method}: is a {kind} with no body of its own, which ai_service leaves as it is (only plain methods "
            f"taking self are declared), so using it would run the stub (None, or NotImplementedError) without asking the "
            f"model. Fix: give it a body, or "
            f"remove @{kind} and declare it def {name}(self, ...)"
        )

    assert error_of(A) == rule("A.name", "property", "name")
    assert error_of(B) == rule("B.ask", "staticmethod", "ask")
    assert error_of(C) == rule("C.greet", "classmethod", "greet")


def test_a_private_method_with_a_template_is_refused_not_left_to_return_none():
    class A(Protocol):
        def chat(self, question: str) -> str: ...

        @user_message("总结 {{text}}")
        def _summarize(self, text: str) -> str: ...

    assert error_of(A) == (
        "A._summarize: has @user_message(...), but its name starts with _, and ai_service declares public methods "
        "only, so a call would return the declaration's own body without asking the model. Fix: rename it "
        "without the leading _ (e.g. summarize)"
    )


# --- placeholder names ---------------------------------------------------------------------------


def test_a_chinese_parameter_name_is_a_placeholder():
    class A(Protocol):
        @user_message("查询订单 {{订单号}}，今天是 {{ current_date }}")
        def ask(self, 订单号: str) -> str: ...

    assistant, model = create(A, ["好"])
    assistant.ask("SN1")
    assert sent(model) == ["查询订单 SN1，今天是 2026-10-20"]


def test_a_v_name_in_any_script_fills_its_placeholder():
    class A(Protocol):
        @system_message("客户：{{客户}}")
        def ask(self, question: Annotated[str, UserText], name: Annotated[str, V("客户")]) -> str: ...

    assistant, model = create(A, ["好"])
    assistant.ask("在吗", "张三")
    assert model.requests[0].messages == (SystemMessage(content="客户：张三"), UserMessage(content="在吗"))


def test_a_v_name_that_cannot_be_a_placeholder_is_refused():
    class A(Protocol):
        @user_message("{{order-id}}")
        def ask(self, order: Annotated[str, V("order-id")]) -> str: ...

    assert error_of(A) == (
        "A.ask: parameter 'order' is marked V('order-id'), which cannot be a placeholder's name; use an identifier "
        "(letters of any script, digits, _; not starting with a digit), e.g. V('order_id')"
    )


def test_the_user_text_and_the_memory_id_can_be_used_in_a_template_by_their_own_names():
    from toolkit.services.service import memory_per_id
    from toolkit.tools.decorator import MemoryId

    class A(Protocol):
        @system_message("用户 {{user}} 的问题：{{question}}")
        def chat(self, user: Annotated[str, MemoryId], question: Annotated[str, UserText]) -> str: ...

        @system_message("Answer briefly: {{question}}")
        def ask(self, question: str) -> str: ...

    model = ScriptedModel(["好", "ok"])
    assistant = ai_service(A, model=model, memory=memory_per_id(), shared_memory_id="shared")
    assistant.chat("u1", "在吗")
    assistant.ask("why?")
    assert model.requests[0].messages == (SystemMessage(content="用户 u1 的问题：在吗"), UserMessage(content="在吗"))
    assert model.requests[1].messages[0] == SystemMessage(content="Answer briefly: why?")

    # a variable of the same name wins over the user text
    class B(Protocol):
        @system_message("{{question}}")
        def ask(self, question: Annotated[str, UserText], topic: Annotated[str, V("question")]) -> str: ...

    other, model = create(B, ["ok"])
    other.ask("the text", "the topic")
    assert sent(model) == ["the topic", "the text"]


@pytest.mark.parametrize(
    "decorator, message",
    [
        (
            system_message(),
            "@system_message takes the text or file=..., and got neither; "
            'write @system_message("…") or @system_message(file="name.txt") (a file in data/prompts/)',
        ),
        (
            system_message("你是客服", file="ecom_support.txt"),
            "@system_message takes the text or file=..., not both; "
            'write @system_message("…") or @system_message(file="name.txt") (a file in data/prompts/)',
        ),
        (
            system_message(Path("prompt.txt")),  # type: ignore[arg-type]
            "@system_message takes the template text (a str), and got PosixPath; "
            'for a file write @system_message(file="name.txt")',
        ),
        (
            user_message(Path("question.txt")),  # type: ignore[arg-type]
            "@user_message takes the template text (a str), and got PosixPath; "
            "read a file first, e.g. @user_message(Path(...).read_text())",
        ),
    ],
)
def test_a_decorator_given_no_text_both_or_a_path_is_refused_where_it_is_written(decorator, message):
    with pytest.raises(ConfigurationError) as info:

        class A(Protocol):
            @decorator
            def ask(self, question: str) -> str: ...

    assert str(info.value) == f"A.ask: {message}"


def test_a_template_set_by_hand_is_still_checked_at_creation():
    class A(Protocol):
        def ask(self, question: str) -> str: ...

    A.ask.__toolkit_user__ = 3  # type: ignore[attr-defined]
    assert error_of(A) == (
        "A.ask: @user_message takes the template text (a str), and got int; read a file first, e.g. "
        "@user_message(Path(...).read_text())"
    )


# --- what a placeholder cannot do ------------------------------------------------------------------


class Customer(BaseModel):
    name: str


@pytest.mark.parametrize(
    "written",
    [
        "{{customer.name}}",
        "{{ customer.name }}",
        "{{customer['name']}}",
        "{{ customer | upper }}",  # a Jinja filter: was 'parameter customer is not used by any template'
        "{{ customer['first name'] }}",
        "{{ customer.name | title }}",
    ],
)
def test_a_placeholder_reading_an_attribute_of_a_parameter_is_refused_at_creation(written):
    def ask(self, question: str, customer: Customer): ...

    ask.__annotations__ = {"question": Annotated[str, UserText], "customer": Customer, "return": str}
    # used whole elsewhere too: the attribute would otherwise reach the model as the raw text
    A = type("A", (), {"ask": system_message("Customer: {{customer}}. Greet " + written)(ask)})
    assert error_of(A) == (
        f"A.ask: @system_message uses {written}, which reads into 'customer', but a placeholder is one name: "
        "{{customer}} is the whole value (a model as its JSON); attributes, indexes and filters are not read. "
        "Fix: pass the part as its own parameter and use it by its name, or write {{customer}}"
    )


def test_a_placeholder_reading_into_a_built_in_is_refused_at_creation():
    class A(Protocol):
        @user_message("{{q}} on {{current_date.year}}")
        def ask(self, q: str) -> str: ...

    assert error_of(A).startswith(
        "A.ask: @user_message uses {{current_date.year}}, which reads into 'current_date', but a placeholder is one name"
    )


def test_words_after_a_parameter_s_name_in_double_braces_stay_text():
    class A(Protocol):
        @user_message("{{ q }} {{ q is the question }}")
        def ask(self, q: str) -> str: ...

    model = ScriptedModel(["ok"])
    ai_service(A, model=model).ask("Why?")
    assert model.requests[0].messages[-1].content == "Why? {{ q is the question }}"


def test_dotted_words_naming_no_parameter_stay_text():
    class A(Protocol):
        @user_message("{{q}} (write {{os.path}} as it is)")
        def ask(self, q: str) -> str: ...

    assistant, model = create(A, ["ok"])
    assistant.ask("x")
    assert sent(model) == ["x (write {{os.path}} as it is)"]


@pytest.mark.parametrize("statement", ["{% if vip %}", "{%- if vip -%}", "{% for x in vip %}"])
def test_a_jinja_statement_naming_a_parameter_is_refused_at_creation(statement):
    class A(Protocol):
        @user_message("{{q}}" + statement + " (a VIP){% endif %}")
        def ask(self, q: str, vip: bool) -> str: ...

    assert error_of(A) == (  # was: "parameter 'vip' is not used by any template"
        f"A.ask: @user_message has {statement}, a Jinja statement, which would reach the model as written: a "
        "template fills {{name}} placeholders only (no conditionals, loops or filters). Fix: work the text out "
        "in Python and pass it as a parameter, used as {{its_name}}"
    )


def test_a_jinja_statement_naming_no_parameter_stays_text():
    class A(Protocol):
        @user_message("{{q}} (Jinja writes {% if x %}…{% endif %})")
        def ask(self, q: str) -> str: ...

    assistant, model = create(A, ["ok"])
    assistant.ask("x")
    assert sent(model) == ["x (Jinja writes {% if x %}…{% endif %})"]


def test_a_method_declared_only_with_overload_is_refused_naming_overload_not_args():
    from typing import overload

    class A(Protocol):
        @overload
        def ask(self, question: str) -> str: ...
        @overload
        def ask(self, question: int) -> int: ...

    assert error_of(A) == (
        "A.ask: is declared only with @overload, so it has no signature of its own (Python keeps a placeholder "
        "taking *args, **kwargs); a declared method has one signature and one return type. Fix: declare it once, "
        "without @overload, or as methods of different names"
    )


def test_a_typed_dict_pydantic_refuses_gets_pydantics_own_fix_in_the_error():
    from typing import TypedDict

    class Reply(TypedDict):  # typing.TypedDict: pydantic wants typing_extensions' on Python < 3.12
        status: str

    def ask(self, question: str): ...

    ask.__annotations__ = {"question": str, "return": Reply}
    try:
        TypeAdapter(Reply).json_schema()
    except PydanticUserError as exc:
        said = str(exc).splitlines()[0]
    else:
        pytest.skip("this Python's typing.TypedDict is one pydantic reads")
    assert error_of(type("A", (), {"ask": ask})) == (
        f"A.ask: returns Reply, which pydantic cannot read from JSON (PydanticUserError: {said}); a structured "
        "answer is read from JSON, so its type must be one pydantic can write as a JSON Schema and validate. "
        "Fix: declare str, None, TokenStream, a pydantic model, or a type of JSON values (list[...], "
        "dict[str, ...], an enum, int ...), or Result[...] of one"
    )


class Reply(BaseModel):
    status: str


def test_an_annotated_str_return_is_a_text_method_not_structured_output():
    class A(Protocol):
        def ask(self, question: str) -> Annotated[str, "the reply"]: ...

        def result(self, question: str) -> Result[Annotated[str, "the reply"]]: ...

    service, model = create(A, ["你好", "再见"])
    assert service.ask("hi") == "你好" and service.result("hi").content == "再见"
    assert [r.extra for r in model.requests] == [{}, {}]  # no response_format: no JSON mode asked for


def test_an_annotated_result_or_stream_return_is_read_as_the_type_inside():
    class A(Protocol):
        def ask(self, question: str) -> Annotated[Result[Reply], "doc"]: ...

        def stream(self, question: str) -> Annotated[TokenStream, "doc"]: ...

        def tell(self, question: str) -> Annotated[None, "doc"]: ...

    service, _ = create(A, ['{"status": "ok"}', "流", "x"])
    assert service.ask("hi").content == Reply(status="ok")
    assert "".join(service.stream("hi").text()) == "流"
    assert service.tell("hi") is None


@pytest.mark.parametrize(
    "returns, shown",
    [("T", "T"), ("list[T]", "list[T]"), ("Result[T]", "Result[T]"), ("dict[str, T | None]", "dict[str, Optional[T]]")],
)
def test_a_return_type_holding_a_type_variable_is_refused_not_read_as_any_json(returns, shown):
    from typing import TypeVar

    T = TypeVar("T")

    def ask(self, question: str): ...

    ask.__annotations__ = {"question": str, "return": eval(returns, {"T": T, "Result": Result})}
    assert error_of(type("A", (), {"ask": ask})) == (
        f"A.ask: returns {shown}, which holds the type variable T; a structured answer is checked against the "
        "declared type, and a type variable would let any JSON through (ai_service does not fill in a generic "
        "class's type arguments). Fix: declare the concrete type, e.g. -> Order"
    )


def test_the_fix_for_a_method_without_self_writes_its_markers_as_they_are_typed():
    from toolkit.tools.decorator import MemoryId

    class A:
        def chat(user_id: Annotated[str, MemoryId], question: Annotated[str, UserText()]) -> str: ...  # type: ignore[misc]  # noqa: N805

    with pytest.raises(ConfigurationError) as info:
        ai_service(A, model=ScriptedModel([]), memory=lambda memory_id: None)
    assert str(info.value) == (
        "A.chat: has no self parameter, so a call's first argument would be taken for the instance. "
        "Fix: declare it as def chat(self, user_id: Annotated[str, MemoryId], question: Annotated[str, UserText]) "
        "-> str: ..."
    )


@pytest.mark.parametrize(("declared", "name", "article"), [(int, "int", "an"), (bytes, "bytes", "a")])
def test_a_memory_id_declared_other_than_str_is_refused_at_creation(declared, name, article):
    from toolkit.tools.decorator import MemoryId

    class A(Protocol):
        def chat(self, user_id: Annotated[declared, MemoryId], question: Annotated[str, UserText]) -> str: ...  # type: ignore[valid-type]

    with pytest.raises(ConfigurationError) as info:
        ai_service(A, model=ScriptedModel([]), memory=lambda memory_id: None)
    assert str(info.value) == (
        f"A.chat: the MemoryId parameter 'user_id' is declared {name}, but a memory id is a str ({article} {name} is "
        "refused at every call); declare Annotated[str, MemoryId] and pass str(...) of your id"
    )


def test_two_parameters_filling_one_placeholder_are_refused_at_creation():
    class A(Protocol):
        @user_message("订单 {{order}}")
        def ask(self, mine: Annotated[str, V("order")], theirs: Annotated[str, V("order")]) -> str: ...

    assert error_of(A) == (
        "A.ask: parameters 'mine' and 'theirs' both fill {{order}} (V('order')); a placeholder takes one value, "
        "so one of them would never reach the model. Fix: give each parameter its own placeholder name"
    )


def test_a_parameter_renamed_by_v_and_used_by_its_own_name_is_told_its_placeholder():
    class A(Protocol):
        @user_message("订单 {{order}}")
        def ask(self, order: Annotated[str, V("order_id")]) -> str: ...

    assert error_of(A) == (
        "A.ask: @user_message uses {{order}}, but parameter 'order' is marked V('order_id'), so it fills "
        "{{order_id}}; write {{order_id}} in the template, or remove the V to use the parameter's own name"
    )


def test_it_names_the_only_parameter_as_in_langchain4j():
    class A(Protocol):
        @user_message("讲一个关于{{it}}的笑话")
        def joke(self, topic: str) -> str: ...

        @system_message("只回答关于 {{it}} 的问题")
        def ask(self, question: str) -> str: ...

        @user_message("{{it}}：{{current_date}}")
        def dated(self, event: Annotated[str, "what happened"]) -> str: ...

    assistant, model = create(A, ["好", "好", "好"])
    assistant.joke("猫")
    assistant.ask("退款")
    assistant.dated("发货")
    assert [m.content for r in model.requests for m in r.messages] == [
        "讲一个关于猫的笑话",
        "只回答关于 退款 的问题",
        "退款",
        "发货：2026-10-20",
    ]


def test_it_with_more_than_one_parameter_or_a_marked_one_is_refused_saying_what_it_names():
    class Two(Protocol):
        @user_message("{{it}} {{tone}}")
        def ask(self, topic: str, tone: str) -> str: ...

    class Marked(Protocol):
        @user_message("{{it}}")
        def ask(self, topic: Annotated[str, V("subject")]) -> str: ...

    assert error_of(Two) == (
        "Two.ask: @user_message uses {{it}}, which names a method's only parameter when it has no marker (as in "
        "LangChain4j), and this method has 2; write the parameter's placeholder ({{topic}}), or mark one V('it')"
    )
    assert error_of(Marked) == (
        "Marked.ask: @user_message uses {{it}}, which names a method's only parameter when it has no marker (as in "
        "LangChain4j), and its one parameter is marked; write the parameter's placeholder ({{subject}}), or mark "
        "one V('it')"
    )


def _asks_with(system=None, user=None):
    """A declaration whose one method has that system message or that user message template."""
    if system is not None:

        class A(Protocol):
            @system_message(system)
            def ask(self, question: Annotated[str, UserText]) -> str: ...

        return A

    class B(Protocol):
        @user_message(user)
        def ask(self, order_id: str, note: str) -> str: ...

    return B


@pytest.mark.parametrize(
    "declaration, said",
    [
        (_asks_with(system="今天是 {current_date}。"), "A.ask: @system_message has {current_date}"),  # an f-string's
        (
            _asks_with(system="只回答关于 { question } 的问题"),
            "A.ask: @system_message has { question }",
        ),  # the user text
        (_asks_with(user="订单 {order_id}：{{note}}"), "B.ask: @user_message has {order_id}"),
        (_asks_with(system="今天是 {{current_date}。"), "A.ask: @system_message has {{current_date}"),  # one brace lost
        (_asks_with(system='{"q": {question}}'), "A.ask: @system_message has {question}}"),  # in JSON, one lost
    ],
)
def test_a_placeholder_with_one_brace_on_a_side_is_refused_not_sent_as_it_is(declaration, said):
    name = said.rsplit(" has ", 1)[1].strip(" {}")
    assert error_of(declaration) == (
        f"{said}, with one brace on a side, which would reach the model as written; a placeholder has two "
        f"each side: write {{{{{name}}}}}"
    )


def test_single_braces_around_other_words_stay_text():
    class A(Protocol):
        @system_message('回复 JSON：{"status": "…"}，或 {status}、{订单}、{{current_date}}')
        def ask(self, question: str) -> str: ...

    assistant, model = create(A, ["好"])
    assistant.ask("在吗")
    assert sent(model)[0] == '回复 JSON：{"status": "…"}，或 {status}、{订单}、2026-10-20'


def test_a_placeholder_inside_json_braces_is_filled():
    class A(Protocol):
        @user_message('{"order": {{order}}, "items": [{{items}}]}')
        def ask(self, order: dict, items: int) -> str: ...

        @user_message('{"q": {{{question}}}}')
        def wrapped(self, question: str) -> str: ...

    assistant, model = create(A, ["好", "好"])
    assistant.ask({"id": "SN1"}, 2)
    assistant.wrapped("x")
    assert [r.messages[0].content for r in model.requests] == ['{"order": {"id": "SN1"}, "items": [2]}', '{"q": {x}}']


def test_a_v_name_on_the_user_text_or_the_memory_id_fills_its_placeholder_too():
    """As LangChain4j reads `@UserMessage @V("question") String q`: the parameter is the user's
    message, and `{{question}}` in a template."""
    from toolkit.services.service import memory_per_id
    from toolkit.tools.decorator import MemoryId

    class A(Protocol):
        @system_message("客户 {{customer}} 问：{{question}}")
        def chat(
            self, user: Annotated[str, MemoryId, V("customer")], q: Annotated[str, UserText, V("question")]
        ) -> str: ...

    model = ScriptedModel(["好"])
    ai_service(A, model=model, memory=memory_per_id()).chat("u1", "在吗")
    assert [m.content for m in model.requests[0].messages] == ["客户 u1 问：在吗", "在吗"]


def test_a_result_of_none_is_refused_at_creation_not_after_a_repair_round():
    # -> Result[None] asked for {"value": null}: every answer was repaired, then 'the answer is no NoneType'
    class A(Protocol):
        def ask(self, question: str) -> Result[None]: ...

    assert error_of(A) == (
        "A.ask: returns Result[None], a result whose content could only be None; declare Result[str] for the "
        "answer's text with its usage and tool executions, or -> None to ignore the answer"
    )
