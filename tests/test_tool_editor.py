"""Try a tool: the schema, the lint, and the package's own message for a refused definition."""

from toolkit.views.tool_editor import START, ToolEditor, inspect_code


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
    assert (
        error.startswith("ToolDefinitionError: @tool")
        and "the default <your_tool.C object> is not a valid str" in error
    )
    assert not re.search(r"0x[0-9a-fA-F]+", error)
    assert inspect_code("raise ValueError(object())")["error"] == "ValueError: <object object>"


def test_what_the_code_imports_is_not_taken_for_a_tool():
    """`from typing import Optional` above a tool made the editor reflect `Optional` itself
    ("@tool typing._SpecialForm.__call__, parameter '*args' ..."), and `from os.path import join`
    made `join` a tool: every callable the code imported was taken for one it defined."""
    code = (
        "from typing import Optional, List\nfrom os.path import join\nfrom dataclasses import dataclass\n"
        "from toolkit.tools.decorator import tool as make_tool\n"
        '@tool("Find orders by customer name.")\n'
        "def find_orders(name: Optional[str] = None) -> List[str]:\n    return []\n"
    )
    report = inspect_code(code)
    assert report["error"] == "" and [t["function"]["name"] for t in report["tools"]] == ["find_orders"]
    assert inspect_code("from os.path import join")["error"] == "define a function (with @tool) to see its schema"


def test_what_the_code_defines_is_still_a_tool_however_it_is_made():
    """A lambda, a partial and a callable object made here are still reflected (or refused with the
    package's own message); an underscore name is a helper unless it is decorated with @tool."""
    assert inspect_code("f = lambda x: x")["error"].startswith(
        "ToolDefinitionError: @tool your_tool.<lambda>, parameter 'x'"
    )
    partial = "import functools\ndef g(a: int, b: int) -> int:\n    return a\nh = functools.partial(g, 1)"
    assert inspect_code(partial)["error"].startswith("ToolDefinitionError: tools_from(functools.partial(your_tool.g))")
    helper = (
        'def _clean(s: str) -> str:\n    return s.strip()\n@tool("Echo.")\ndef echo(s: str) -> str:\n    return s\n'
    )
    assert [t["function"]["name"] for t in inspect_code(helper)["tools"]] == ["echo"]
    private = '@tool("Look up one order.")\ndef _lookup(order_id: str) -> str:\n    return ""\n'
    assert [t["function"]["name"] for t in inspect_code(private)["tools"]] == ["_lookup"]


def test_any_failure_of_the_code_is_one_line_in_the_editor():
    """An exception whose str() raises, a BaseException of the learner's own and GeneratorExit
    escaped the widget's callback as a traceback; a NUL byte said "on line None"."""
    raises = "class E(Exception):\n    def __str__(self):\n        raise ValueError('no')\nraise E()"
    assert inspect_code(raises)["error"] == "E"
    assert inspect_code("class Stop(BaseException):\n    pass\nraise Stop('boom')")["error"] == "Stop: boom"
    assert inspect_code("raise GeneratorExit")["error"] == "GeneratorExit"
    assert inspect_code("x = 1\x00")["error"] == "SyntaxError: source code string cannot contain null bytes"
    editor = ToolEditor()
    editor.code.value = "raise GeneratorExit"
    assert editor.text() == "GeneratorExit"


def test_ctrl_c_still_interrupts():
    import pytest

    with pytest.raises(KeyboardInterrupt):
        inspect_code("raise KeyboardInterrupt")


def test_the_code_box_sends_its_text_when_left_not_at_each_keystroke():
    """A half-typed statement (`shutil.rmtree("tmp/` on the way to `"tmp/cache")`) must never run."""
    assert ToolEditor().code.continuous_update is False


def test_a_default_integer_too_long_for_json_shows_the_tool_without_it():
    """`limit: int = 10**5000` raised ValueError out of the editor (the schema's token count
    writes the tools block as JSON, which refuses an integer of more than 4,300 digits)."""
    report = inspect_code('@tool("Scan.")\ndef scan(limit: int = 10**5000) -> str:\n    return ""\n')
    assert report["error"] == ""
    assert report["tools"][0]["function"]["parameters"]["properties"]["limit"] == {"type": "integer"}


def test_a_huge_exception_message_is_cut_in_the_editor_and_its_text():
    """`raise ValueError("x" * 10_000_000)` put all ten million characters in the text/plain
    fallback (the HTML was cut): the editor's report says how much it left out."""
    from toolkit.views.html import SHOWN_CHARS

    editor = ToolEditor('raise ValueError("x" * 10_000_000)')
    error = editor.report["error"]
    assert error.startswith("ValueError: xxx")
    assert error.endswith(f"…({10_000_000 + len('ValueError: ') - SHOWN_CHARS:,} more characters not shown)")
    bundle = editor._repr_mimebundle_()
    assert bundle["text/plain"] == error
    assert len(bundle["text/html"]) < SHOWN_CHARS + 200


def test_code_that_is_not_text_is_one_readable_line():
    """ToolEditor(5) raised ipywidgets' TraitError ("The 'value' trait of a Textarea instance
    expected a unicode string"); inspect_code(None) a TypeError from compile()."""
    import pytest

    from toolkit.errors import ConfigurationError

    text = "ToolEditor(code): takes the tool's Python source as text, and got an int; e.g. ToolEditor('@tool(\"...\")\\ndef f(x: int) -> str: ...')"
    with pytest.raises(ConfigurationError) as caught:
        ToolEditor(5)
    assert str(caught.value) == text
    with pytest.raises(ConfigurationError) as caught:
        inspect_code(None)
    assert str(caught.value) == text.replace("ToolEditor(code)", "inspect_code(code)").replace(
        "an int", "None"
    ).replace("ToolEditor('", "inspect_code('")


def test_the_lint_of_many_alike_tools_is_drawn_in_bounded_size():
    """100 KB of code (800 tools with alike descriptions) made 320,000 overlap warnings, all drawn:
    a 28 MB view and a 27 MB text fallback. The report keeps every warning; the view draws the first
    and last `SHOWN_ITEMS // 2` with a note saying which it left out."""
    from toolkit.views.html import SHOWN_ITEMS

    code = "".join(
        f'@tool("Look up thing number {i} and return it")\n'
        f'def f{i}(order_id: Annotated[str, Param("id of the order")]) -> str:\n    return ""\n'
        for i in range(50)
    )
    editor = ToolEditor(code)
    count = len(editor.report["warnings"])
    assert count == 50 * 49 // 2
    note = f"… {count - SHOWN_ITEMS:,} warnings not shown: warnings 501 to {count - 500:,}"
    lint = editor.text().split("\nlint:\n")[1].split("\n\n")[0].splitlines()
    assert len(lint) == SHOWN_ITEMS + 1 and lint[500] == note
    assert lint[0] == f"- {editor.report['warnings'][0]}" and lint[-1] == f"- {editor.report['warnings'][-1]}"
    html = editor.html()
    assert html.count("<li>") == SHOWN_ITEMS + 1 and f"<li><i>{note}</i></li>" in html


SHOP = (
    "class Shop:\n"
    '    @tool("Look up one order by its id and return its status.")\n'
    '    def query_order(self, order_id: Annotated[str, Param("Order id, e.g. SN202610200001")]) -> str:\n'
    '        return "shipped"\n'
)


def test_an_object_with_tool_methods_shows_its_tools():
    """Tools written as `@tool` methods of a class (as LangChain4j writes them, and as `tools_from`
    takes them: an instance) made the editor say "define a function (with @tool) to see its schema"."""
    report = inspect_code(SHOP + "shop = Shop()\n")
    assert report["error"] == "" and [t["function"]["name"] for t in report["tools"]] == ["query_order"]
    private = inspect_code(SHOP + "_shop = Shop()\n")
    assert [t["function"]["name"] for t in private["tools"]] == ["query_order"]


def test_a_class_with_tool_methods_and_no_instance_says_to_make_one():
    """The class alone was passed over in silence: "define a function (with @tool)", though it has one."""
    assert inspect_code(SHOP)["error"] == (
        "the class Shop has @tool methods, which need an instance to be bound to: "
        "make one below it, e.g. `tools = Shop()`, to see its tools"
    )
    assert inspect_code(SHOP + "class Other(Shop):\n    pass\nother = Other()\n")["error"] == ""
    assert inspect_code("class Plain:\n    pass\n")["error"] == "define a function (with @tool) to see its schema"


def test_the_code_runs_with_its_own_future_imports_not_the_editor_s():
    """compile() passed on the editor module's `from __future__ import annotations`: every annotation
    of the learner's code became a string, so a `@dataclass` raised "AttributeError: 'NoneType' object
    has no attribute '__dict__'" (it looks string annotations up in a module that is not imported)."""
    code = (
        "from dataclasses import dataclass\n@dataclass\nclass Point:\n    x: int\n    y: int\n"
        '@tool("Mark a point on the map.")\ndef mark(point: Annotated[Point, Param("Where to mark")]) -> str:\n'
        '    return ""\n'
    )
    report = inspect_code(code)
    assert report["error"] == "" and report["tools"][0]["function"]["name"] == "mark"
    assert inspect_code("class A:\n    x: int\nassert A.__annotations__ == {'x': int}, 'postponed'")["error"] == (
        "define a function (with @tool) to see its schema"
    )


def test_the_code_s_own_postponed_annotations_resolve_as_in_a_cell():
    """With `from __future__ import annotations` in the box, a `@dataclass` raised "AttributeError:
    'NoneType' object has no attribute '__dict__'" and a pydantic model holding another was "pydantic
    cannot describe Order as JSON Schema": both look the class's module up in `sys.modules`, and the
    editor's was not there (a cell's `__main__` is). It is while the code runs, and only then."""
    import sys

    from toolkit.views.tool_editor import EDITOR_MODULE

    future = "from __future__ import annotations\n"
    point = "from dataclasses import dataclass\n@dataclass\nclass Point:\n    x: int\n"
    order = "from pydantic import BaseModel\nclass Item(BaseModel):\n    sku: str\nclass Order(BaseModel):\n    items: list[Item]\n"
    use = '@tool("Mark a point and place an order.")\ndef mark(point: Point, order: Order) -> str:\n    return ""\n'
    report = inspect_code(future + point + order + use)
    assert report["error"] == "" and report["tools"][0]["function"]["name"] == "mark"
    assert "Item" in report["tools"][0]["function"]["parameters"]["$defs"]
    assert EDITOR_MODULE not in sys.modules
    inspect_code("__name__ = 'elsewhere'\n")
    assert EDITOR_MODULE not in sys.modules and "elsewhere" not in sys.modules


def test_a_huge_refusal_message_is_cut_in_the_editor_and_its_text():
    """The package's refusal quotes the default it refused: `limit: int = "x" * 10_000_000` put all
    ten million characters in the report and the text/plain fallback (the HTML was cut)."""
    from toolkit.views.html import SHOWN_CHARS

    editor = ToolEditor('@tool("Scan.")\ndef scan(limit: int = "x" * 10_000_000) -> str:\n    return ""\n')
    error = editor.report["error"]
    assert error.startswith("ToolDefinitionError: @tool your_tool.scan, parameter 'limit': the default 'xxx")
    assert len(error) < SHOWN_CHARS + 100 and error.endswith(" more characters not shown)")
    assert editor._repr_mimebundle_()["text/plain"] == error


def test_beside_a_decorated_tool_an_undecorated_function_is_a_helper():
    """A helper the tool calls (`normalise`, no @tool) was shown as a second tool "the model
    receives", with lint warnings about its missing description; the learner passes the decorated
    one, and `tools_from(module)` takes only those. With no @tool at all, a function is still
    reflected as it is."""
    code = (
        "def normalise(order_id: str) -> str:\n    return order_id.strip().upper()\n"
        '@tool("Look up one order by its id and return its status.")\n'
        'def query_order(order_id: Annotated[str, Param("Order id, e.g. SN202610200001")]) -> str:\n'
        "    return normalise(order_id)\n"
    )
    report = inspect_code(code)
    assert [t["function"]["name"] for t in report["tools"]] == ["query_order"] and report["warnings"] == []
    alone = inspect_code("def normalise(order_id: str) -> str:\n    return order_id\n")
    assert [t["function"]["name"] for t in alone["tools"]] == ["normalise"]
    with_object = inspect_code(SHOP + "shop = Shop()\ndef helper(x: int) -> int:\n    return x\n")
    assert [t["function"]["name"] for t in with_object["tools"]] == ["query_order"]


def test_a_second_name_for_a_tool_is_not_a_second_tool():
    """`lookup = query_order` (or `b = a` for an object) made the editor pass the tool twice, and
    show the package's "it is given twice ... Fix: give it once" for code that gave it once."""
    code = START + "lookup = query_order\n"
    assert [t["function"]["name"] for t in inspect_code(code)["tools"]] == ["query_order"]
    assert [t["function"]["name"] for t in inspect_code(SHOP + "a = Shop()\nb = a\n")["tools"]] == ["query_order"]


def test_a_secret_in_what_the_code_raised_is_masked_in_the_editor():
    """Code that connects at import time (`psycopg.connect(os.environ["DB_URL"])`) and fails showed
    its password and key in the editor, its HTML and the saved notebook's text/plain, where the
    trace, the playground and exercise feedback mask them (`redact.scrub_secrets`; paths kept)."""
    code = (
        'raise RuntimeError("connection to postgresql://admin:Sup3rS3cret@db:5432/shop failed; '
        'api_key=sk-proj-abcdefghijklmnopqrstuvwxyz0123 in /home/alice/shop.env")'
    )
    editor = ToolEditor(code)
    assert editor.report["error"] == (
        "RuntimeError: connection to postgresql://[REDACTED]@db:5432/shop failed; api_key=[REDACTED] "
        "in /home/alice/shop.env"
    )
    bundle = editor._repr_mimebundle_()
    assert "Sup3rS3cret" not in bundle["text/plain"] + bundle["text/html"] + editor.view.value
    refused = '@tool("Look up one order.")\ndef lookup(order_id: int = "sk-proj-abcdefghijklmnopqrstuvwxyz0123") -> str:\n    return ""\n'
    error = inspect_code(refused)["error"]
    assert error.startswith("ToolDefinitionError: @tool your_tool.lookup, parameter 'order_id'")
    assert "sk-proj-abcdef" not in error and "[REDACTED]" in error


def test_what_the_code_prints_is_shown_in_the_editor():
    """The code runs when the box is left, from the widget's callback: what it printed (a learner's
    debugging print, a warning) went to no cell and was lost. The editor shows it, as a cell would."""
    code = 'print("loading <rates>")\n@tool("Look up one order.")\ndef lookup(order_id: str) -> str:\n    return ""\n'
    editor = ToolEditor(code)
    assert editor.report["printed"] == "loading <rates>\n"
    assert "<b>printed</b>" in editor.view.value and "loading &lt;rates&gt;" in editor.view.value
    assert editor.text().endswith("\n\nprinted:\nloading <rates>\n")
    editor.code.value = 'print("connecting with password=hunter2secret")\nraise RuntimeError("no db")'
    assert editor.report["error"] == "RuntimeError: no db"
    assert editor.text() == "RuntimeError: no db\n\nprinted:\nconnecting with password=[REDACTED]\n"
    assert "printed" in editor.view.value and "hunter2secret" not in editor.view.value
    assert inspect_code(START)["printed"] == "" and "printed" not in ToolEditor().text()
