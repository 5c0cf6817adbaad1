"""Try a tool: the schema, the lint, and the package's own message for a refused definition."""

from toolkit.views.tool_editor import ToolEditor, inspect_code


def test_the_starting_tool_shows_its_schema_and_no_warnings():
    editor = ToolEditor()
    [spec] = editor.report["tools"]
    assert spec["function"]["name"] == "query_order" and editor.report["warnings"] == []
    assert "no warnings" in editor.text() and "query_order" in editor._repr_mimebundle_()["text/html"]


def test_typing_updates_the_view_with_lint_warnings():
    editor = ToolEditor()
    editor.code.value = '@tool\ndef query(arg0: str) -> str:\n    """Query data."""\n    return ""\n'
    assert "query.arg0: the name 'arg0' says nothing about the value; name it for what it holds" in editor.text()


def test_a_refused_definition_shows_the_developer_message():
    code = '@tool("x")\ndef f(limit: Annotated[int, Param(required=False)]) -> str:\n    return ""\n'
    error = inspect_code(code)["error"]
    assert error.startswith("ToolDefinitionError: @tool") and "Fix: annotate it as `int | None`" in error


def test_broken_code_never_breaks_the_widget():
    assert inspect_code("def f(:")["error"] == "SyntaxError on line 1: invalid syntax"
    assert inspect_code("1 / 0")["error"] == "ZeroDivisionError: division by zero"
    assert inspect_code("x = 1")["error"] == "define a function (with @tool) to see its schema"


def test_exit_in_the_code_is_reported_not_obeyed():
    """`sys.exit()` (or `exit()`) in the box raised SystemExit out of the widget's callback."""
    assert inspect_code("import sys\nsys.exit(3)")["error"] == (
        "SystemExit: the code called exit() or sys.exit(3); a tool definition must not end the kernel"
    )
    editor = ToolEditor()
    editor.code.value = "raise SystemExit"
    assert editor.text() == (
        "SystemExit: the code called exit() or sys.exit(None); a tool definition must not end the kernel"
    )
    editor.code.value = '@tool("Say hi")\ndef hi(name: str) -> str:\n    return name\n'
    assert editor.report["tools"][0]["function"]["name"] == "hi"  # the widget still works


def test_a_refused_default_object_is_shown_without_its_memory_address():
    """The package's message quotes the default's repr, `<C object at 0x7f…>`: the editor's text
    changed on every run."""
    import re

    code = 'class C:\n    pass\n@tool("d")\ndef f(x: str = C()) -> str:\n    return x\n'
    error = inspect_code(code)["error"]
    assert error.startswith("ToolDefinitionError: @tool") and "the default <C object> is not a valid str" in error
    assert not re.search(r"0x[0-9a-fA-F]+", error)
    assert inspect_code("raise ValueError(object())")["error"] == "ValueError: <object object>"
