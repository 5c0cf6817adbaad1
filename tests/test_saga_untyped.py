"""A compensation without type annotations is refused in the saga's words, not @tool's.

A compensation is never offered to the model, so "the model is not told what to send" (what
function_tool says of an unannotated tool parameter) sent a learner looking in the wrong place.
"""

import functools

import pytest

from toolkit.errors import ConfigurationError
from toolkit.loop.saga import ToolExecution, compensates, compensations_from
from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from


@tool("预订酒店。")
def book_hotel(guest: str, nights: int) -> str:
    return f"{guest} {nights}"


TOOLS = {t.name: t for t in tools_from(book_hotel)}


def untyped_execution(execution):
    pass


def untyped_second(guest: str, nights):
    pass


@pytest.mark.parametrize(("fn", "name"), [(untyped_execution, "execution"), (untyped_second, "nights")])
def test_an_unannotated_compensation_parameter_names_the_types_to_take(fn, name):
    with pytest.raises(ConfigurationError) as info:
        compensations_from([compensates("book_hotel")(fn)], TOOLS)
    assert str(info.value) == (
        f"@compensates('book_hotel') {__name__}.{fn.__name__}: its parameter {name!r} has no type annotation; "
        "take the parameters of tool 'book_hotel' with their types, "
        "{'guest': {'type': 'string'}, 'nights': {'type': 'integer'}}, or one parameter typed ToolExecution"
    )


class CancelHotel:
    """A compensation written as a callable object, as a learner who likes classes writes it."""

    def __init__(self) -> None:
        self.undone: list[tuple[str, int]] = []

    def __call__(self, guest: str, nights: int) -> None:
        self.undone.append((guest, nights))


def cancel_by_execution(execution: ToolExecution) -> str:
    return execution.call.name


def cancel(guest: str, nights: int, note: str) -> None:
    pass


def test_a_callable_object_or_a_partial_is_checked_as_its_signature_reads_not_refused_by_typing():
    from toolkit.chat.messages import ToolCall, ToolResultMessage

    instance = CancelHotel()
    found = compensations_from([compensates("book_hotel")(instance)], TOOLS)
    call = ToolCall(id="c1", name="book_hotel", arguments='{"guest": "alice", "nights": 2}')
    result = ToolResultMessage(tool_call_id="c1", tool_name="book_hotel", content="ok")
    execution = ToolExecution(round=1, call=call, result=result)
    found["book_hotel"].run(execution)
    assert instance.undone == [("alice", 2)]
    by_execution = compensations_from([compensates("book_hotel")(functools.partial(cancel_by_execution))], TOOLS)
    assert by_execution["book_hotel"].run(execution) == "book_hotel"
    with pytest.raises(ConfigurationError) as info:  # reflected as a tool is: a partial is refused, saying why
        compensations_from([compensates("book_hotel")(functools.partial(cancel, note="x"))], TOOLS)
    assert "a functools.partial cannot be reflected" in str(info.value)


class Hotel:
    @tool("预订酒店。")
    def book_hotel(self, guest: str, nights: int) -> str:
        return f"{guest} {nights}"

    @compensates("book_hotel")
    def cancel(self, guest: str, nights: int) -> None: ...


def test_a_method_taken_from_the_class_is_told_to_be_bound_not_to_type_self():
    """`compensations=(Hotel.cancel,)`: its `self` is no parameter to annotate; the fix is the bound
    method, or nothing at all (an object given as tools= gives its compensations)."""
    tools = {t.name: t for t in tools_from(Hotel())}
    with pytest.raises(ConfigurationError) as info:
        compensations_from([Hotel.cancel], tools)
    assert str(info.value) == (
        "@compensates('book_hotel') test_saga_untyped.Hotel.cancel: it is a method taken from the class, so the "
        "saga would pass the call's first argument as self; pass it bound to the object whose tool it undoes "
        "(hotel.cancel, with hotel = Hotel()), or leave it out and give the object as tools=[hotel]: the "
        "compensations of an object given as a tool source are found there"
    )


def undo_hidden_type(execution: "HiddenExecution") -> None:  # noqa: F821 - imported under TYPE_CHECKING
    pass


def undo_hidden_second(guest: str, nights: "Nights") -> None:  # noqa: F821
    pass


@pytest.mark.parametrize(("fn", "name"), [(undo_hidden_type, "HiddenExecution"), (undo_hidden_second, "Nights")])
def test_an_annotation_that_cannot_be_resolved_is_refused_in_the_saga_s_words(fn, name):
    """`from __future__ import annotations` with the type imported under TYPE_CHECKING: reading the
    signature was a raw NameError out of run_loop."""
    with pytest.raises(ConfigurationError) as info:
        compensations_from([compensates("book_hotel")(fn)], TOOLS)
    assert str(info.value) == (
        f"@compensates('book_hotel') {__name__}.{fn.__name__}: its annotations cannot be resolved "
        f"(NameError: name {name!r} is not defined); import the types they name at module level (not under "
        "TYPE_CHECKING)"
    )


def undo_with_a_switch(execution: ToolExecution, dry_run: bool = False) -> None:
    pass


def undo_with_the_execution_last(guest: str, nights: int, execution: ToolExecution) -> None:
    pass


@pytest.mark.parametrize(
    ("fn", "name", "others"),
    [(undo_with_a_switch, "execution", "'dry_run'"), (undo_with_the_execution_last, "execution", "'guest', 'nights'")],
)
def test_a_tool_execution_beside_other_parameters_is_refused_in_the_saga_s_words(fn, name, others):
    """It was @tool's "pydantic cannot describe ToolExecution as JSON Schema": the wrong place to look."""
    with pytest.raises(ConfigurationError) as info:
        compensations_from([compensates("book_hotel")(fn)], TOOLS)
    assert str(info.value) == (
        f"@compensates('book_hotel') {__name__}.{fn.__name__}: it takes a ToolExecution ({name!r}) beside "
        f"other parameters ({others}); take one parameter typed ToolExecution alone, or the parameters of tool "
        "'book_hotel' with their types, {'guest': {'type': 'string'}, 'nights': {'type': 'integer'}}"
    )


def cancel_by_keywords(**kw: int) -> None:
    pass


def cancel_with_bad_default(guest: str, nights: int, note: str = None) -> None:  # type: ignore[assignment]
    pass


@pytest.mark.parametrize(
    ("fn", "where"),
    [(cancel_by_keywords, "parameter '**kw'"), (cancel_with_bad_default, "parameter 'note'")],
)
def test_a_compensation_that_reflection_refuses_is_named_as_the_compensation_not_as_a_tool(fn, where):
    """@tool's own refusal (a **kw, a default of the wrong type) named the function '@tool …', a
    decorator the learner never wrote on it: the saga's label names it as it was marked."""
    with pytest.raises(ConfigurationError) as info:
        compensations_from([compensates("book_hotel")(fn)], TOOLS)
    text = str(info.value)
    assert text.startswith(f"@compensates('book_hotel') {__name__}.{fn.__name__}, {where}: "), text
    assert "@tool" not in text
