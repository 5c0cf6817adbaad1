"""`toolkit.services`: a service given the wrong shapes, at creation and at call time.

A model class (not an instance), `options=` that is no `LoopOptions`, a registry that is no
`ToolRegistry`, a tool among the providers were accepted and failed at the first call (a raw
`TypeError` for the first two); `tools=None` failed with a raw `TypeError`, `providers=None` at the
first call. A method called with `None`, a number or a list for a parameter declared `str` sent it to
the model as JSON (`"null"`) without a word. `@user_message(None)` was silently no template, and
`UserText()` / `MemoryId()` (the markers as instances) were not recognised; `V` without a name
pointed at the template; `fixed_clock("yesterday")` was a raw `ValueError`. Each is now accepted
where the meaning is obvious (`None` is no tools, an instance marker is the marker) and otherwise
a `ConfigurationError` naming the fix."""

import datetime as dt
from typing import Annotated, Protocol

import pytest

from toolkit.chat.scripted import ScriptedModel
from toolkit.errors import ConfigurationError, ToolDefinitionError
from toolkit.services.declare import UserText, V, user_message
from toolkit.services.service import ai_service, memory_per_id
from toolkit.services.templates import fixed_clock
from toolkit.tools.decorator import MemoryId, tool


class Ask(Protocol):
    def ask(self, question: str) -> str: ...


@tool
def lookup(order_id: str) -> str:
    """Look an order up."""
    return "shipped"


def error_of(declaration=Ask, kind=ConfigurationError, **kw):
    kw.setdefault("model", ScriptedModel([]))
    with pytest.raises(kind) as info:
        ai_service(declaration, **kw)
    return str(info.value)


def test_a_model_class_is_refused_at_creation():
    assert error_of(model=ScriptedModel) == (
        "ai_service(Ask, model=the class ScriptedModel): that is the class; pass a model instance, "
        "e.g. model=connect() or model=ScriptedModel(...)"
    )


@pytest.mark.parametrize(("options", "shown"), [(None, "None"), ({"max_round_trips": 3}, "{'max_round_trips': 3}")])
def test_options_that_are_no_loop_options_are_refused_at_creation(options, shown):
    assert error_of(options=options) == (
        f"ai_service(Ask, options={shown}): options is a LoopOptions; pass one, e.g. "
        "options=LoopOptions(max_round_trips=3), or leave it out for the defaults"
    )


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (dict(registry=[lookup]), "registry=list object: registry= takes a ToolRegistry, and got a list. "
         "Fix: pass tools as tools=[...] and providers as providers=[...]"),
        (dict(providers=[lookup]), "providers=[test_service_given.lookup]: it is a tool, not a provider. "
         "Fix: pass it as tools=[lookup], or as StaticProvider([lookup])"),
    ],
)  # fmt: skip
def test_tool_sources_of_the_wrong_kind_are_refused_at_creation(given, said):
    assert error_of(kind=ToolDefinitionError, **given) == said


def test_none_is_no_tools_and_no_providers():
    service = ai_service(Ask, model=ScriptedModel(["Hello."]), tools=None, providers=None)
    assert service.ask("hi") == "Hello."


@pytest.mark.parametrize(("value", "shown"), [(None, "None"), (5, "5"), (["hi"], "['hi']"), (b"hi", "b'hi'")])
def test_a_value_that_is_no_str_for_a_str_parameter_is_refused_before_anything_is_sent(value, shown):
    model = ScriptedModel(["Hello."])
    with pytest.raises(ConfigurationError) as info:
        ai_service(Ask, model=model).ask(value)
    assert str(info.value) == (
        f"ask(question={shown}): the parameter is declared str, and got {type(value).__name__}; pass the text "
        "itself (str(...) of a value you mean as text), or declare the parameter's real type"
    )
    assert model.requests == []


def test_a_template_variable_declared_str_is_checked_too_and_its_default_passes():
    class Summary(Protocol):
        @user_message("Summarize order {{order_id}} {{note}}")
        def summarize(self, order_id: str, note: str = None) -> str: ...  # type: ignore[assignment]

    service = ai_service(Summary, model=ScriptedModel(["Done."]))
    assert service.summarize("SN1") == "Done."
    with pytest.raises(ConfigurationError, match=r"^summarize\(order_id=None\): the parameter is declared str"):
        service.summarize(None)


def test_user_message_none_is_no_template_text():
    with pytest.raises(ConfigurationError) as info:

        class Odd(Protocol):
            @user_message(None)  # type: ignore[arg-type]
            def ask(self, question: str) -> str: ...

    assert str(info.value) == (
        "Odd.ask: @user_message takes the template text (a str), and got NoneType; read a file first, "
        "e.g. @user_message(Path(...).read_text())"
    )


def test_markers_given_as_instances_are_the_markers():
    class Chat(Protocol):
        def chat(self, user: Annotated[str, MemoryId()], text: Annotated[str, UserText()]) -> str: ...

    model = ScriptedModel(["Hello."])
    assert ai_service(Chat, model=model, memory=memory_per_id()).chat("u1", "hi") == "Hello."
    assert model.requests[0].messages[-1].content == "hi"


def test_v_without_a_name_says_so():
    class Summary(Protocol):
        @user_message("Summarize order {{order_id}}")
        def summarize(self, order_id: Annotated[str, V]) -> str: ...

    assert error_of(Summary) == (
        "Summary.summarize: parameter 'order_id' is marked V without a name; V takes the placeholder's name: "
        "Annotated[..., V('order_id')] fills {{order_id}} (or leave V out: the parameter's own name is used)"
    )


@pytest.mark.parametrize("moment", ["yesterday", None, dt.date(2026, 10, 20)])
def test_a_fixed_clock_of_no_iso_moment_is_a_configuration_error(moment):
    with pytest.raises(ConfigurationError) as info:
        fixed_clock(moment)  # type: ignore[arg-type]
    assert str(info.value) == (
        f"fixed_clock({moment!r}): the moment is an ISO date and time; write e.g. fixed_clock('2026-10-20T10:00:00') "
        "(or pass a datetime)"
    )


def test_a_fixed_clock_of_a_datetime_says_that_moment():
    moment = dt.datetime(2026, 10, 20, 10, 0)
    assert fixed_clock(moment)() == moment


class Labelled(Protocol):
    @user_message("{{question}} for {{name}}")
    def ask(self, question: str, name: str) -> str: ...


@pytest.mark.parametrize(
    ("args", "kwargs", "said"),
    [
        ((), {"question": "x"}, "ask() missing a required argument: 'name'"),
        (("a", "b", "c"), {}, "ask() too many positional arguments"),
        ((), {"question": "x", "name": "y", "extra": 1}, "ask() got an unexpected keyword argument 'extra'"),
        (("x",), {"question": "y", "name": "z"}, "ask() multiple values for argument 'question'"),
        # a misspelt keyword was told only 'missing a required argument: 'name'' (bind checks those first)
        ((), {"question": "x", "nmae": "y"}, "ask() got an unexpected keyword argument 'nmae'"),
    ],
)
def test_a_call_that_does_not_fit_the_declared_method_names_the_method(args, kwargs, said):
    """As Python says it of a plain function (`ask() missing 1 required ...`); the bare text of
    `Signature.bind` ("missing a required argument: 'name'") did not say which method."""
    service = ai_service(Labelled, model=ScriptedModel(["ok"]))
    with pytest.raises(TypeError) as info:
        service.ask(*args, **kwargs)
    assert str(info.value) == said


class Polite(Protocol):
    def chat(self, question: str) -> str: ...

    def shout(self, question: str) -> str:
        """A method with a body of its own (LangChain4j's default method): it runs as written."""
        return self.chat(question).upper() + "!"

    def stub_with_pass(self, question: str) -> str:
        """Declared: a docstring and pass are no body of its own."""
        pass

    def stub_raising(self, question: str) -> str:
        raise NotImplementedError


def test_a_method_with_a_body_of_its_own_runs_as_written_calling_the_declared_ones():
    """LangChain4j's proxy invokes an interface's default method itself; the service replaced the
    body with a model call, so `shout` returned the model's 'hello', not 'HELLO!'."""
    from toolkit.chat.scripted import ScriptedModel

    model = ScriptedModel(["hello", "stub one", "stub two"])
    polite = ai_service(Polite, model=model)
    assert polite.shout("hi") == "HELLO!" and len(model.requests) == 1
    assert polite.stub_with_pass("a") == "stub one" and polite.stub_raising("b") == "stub two"
    assert sorted(type(polite).__plans__) == ["chat", "stub_raising", "stub_with_pass"]


def test_a_body_is_told_from_a_stub_by_its_code_when_its_source_is_not_kept():
    """A declaration made by `exec` (a cell run without its source kept): the body was read from the
    source, which is not there, so `shout`'s body counted as a stub and was replaced by a model call."""
    namespace: dict[str, object] = {"Protocol": Protocol}
    exec(  # noqa: S102 (the point: code whose source inspect cannot find)
        "class Polite(Protocol):\n"
        "    def chat(self, question: str) -> str: ...\n"
        "    def shout(self, question: str) -> str:\n"
        "        return self.chat(question).upper() + '!'\n"
        "    def stub_documented(self, question: str) -> str:\n"
        '        """Only a docstring."""\n'
        "    def stub_raising(self, question: str) -> str:\n"
        "        raise NotImplementedError('later')\n",
        namespace,
    )
    model = ScriptedModel(["hello", "stub one", "stub two"])
    polite = ai_service(namespace["Polite"], model=model)  # type: ignore[call-overload]
    assert polite.shout("hi") == "HELLO!" and len(model.requests) == 1
    assert polite.stub_documented("a") == "stub one" and polite.stub_raising("b") == "stub two"
    assert sorted(type(polite).__plans__) == ["chat", "stub_documented", "stub_raising"]


def test_a_method_with_a_body_and_a_template_is_refused_saying_which_one_wins():
    from toolkit.chat.scripted import ScriptedModel

    class Mixed(Protocol):
        def chat(self, question: str) -> str: ...

        @user_message("Shout {{question}}")
        def shout(self, question: str) -> str:
            return self.chat(question).upper()

    with pytest.raises(ConfigurationError) as caught:
        ai_service(Mixed, model=ScriptedModel([]))
    assert str(caught.value) == (
        "Mixed.shout: has @user_message(...) and a body of its own, which ai_service keeps as written (as "
        "LangChain4j runs an interface's default method), so the template would never be sent. Fix: write its "
        "body as ... to have the model answer it, or remove @user_message and call the declared methods from the body"
    )


def test_a_class_whose_methods_all_have_bodies_is_told_why_nothing_asks_the_model():
    class Helpers(Protocol):
        def shout(self, question: str) -> str:
            return question.upper()

    with pytest.raises(ConfigurationError) as caught:
        ai_service(Helpers, model=ScriptedModel([]))
    assert str(caught.value) == (
        "ai_service(Helpers): its public methods (shout) have bodies of their own, which ai_service keeps as written "
        "(as LangChain4j runs an interface's default method), so no method asks the model; declare one with ... as "
        "its body, e.g. def chat(self, question: str) -> str: ..."
    )


class Trip(Protocol):
    @user_message("出发日期：{{day}}，今天 {{current_date}}")
    def plan(self, day: dt.date) -> str: ...

    def on(self, day: dt.date) -> str: ...


def test_a_date_argument_reaches_the_prompt_as_its_text_not_a_json_string():
    # a user message read '出发日期："2026-10-20"' (the date's JSON); the seed turns a simple value into its text
    model = ScriptedModel(["好", "好"])
    trip = ai_service(Trip, model=model, clock=fixed_clock("2026-10-01T08:00:00"))
    trip.plan(dt.date(2026, 10, 20))
    trip.on(dt.date(2026, 10, 21))
    assert [r.messages[-1].content for r in model.requests] == ["出发日期：2026-10-20，今天 2026-10-01", "2026-10-21"]


class Maybe(Protocol):
    def ask(self, question: str | None) -> str: ...


def test_none_as_the_whole_user_message_is_refused_before_anything_is_sent():
    # the model was asked 'null' (None as JSON); LangChain4j refuses a null user message too
    model = ScriptedModel(["?"])
    maybe = ai_service(Maybe, model=model)
    with pytest.raises(ConfigurationError) as info:
        maybe.ask(None)
    assert str(info.value) == (
        "ask(question=None): the user message is None, so the model would be asked 'null'; pass the text to ask "
        "(a None inside a template, {{name}}, is written null)"
    )
    assert model.requests == [] and maybe.ask("在吗") == "?"


def test_a_fixed_clock_whose_date_is_another_iso_spelling_is_refused_naming_the_day():
    with pytest.raises(ConfigurationError) as info:
        fixed_clock("2026-W43-1T10:00")
    assert str(info.value) == (
        "fixed_clock('2026-W43-1T10:00'): the moment is an ISO date and time (an ISO week date, for 2026-10-19); "
        "write e.g. fixed_clock('2026-10-20T10:00:00') (or pass a datetime)"
    )
    assert fixed_clock(" 2026-10-20 10:00 ")() == dt.datetime(2026, 10, 20, 10, 0)  # as before: a space for the T
