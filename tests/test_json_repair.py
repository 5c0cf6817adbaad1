"""Lenient in: the one JSON repair shared by tool-call arguments and the prompt protocol, its
limits, and the argument channel it feeds (never RecursionError)."""

import functools
import json
import random
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentError
from toolkit.tools import json_repair
from toolkit.tools.arguments import parse_arguments
from toolkit.tools.execute import FEED_BACK_ALL, function_tool, tools_from


@pytest.mark.parametrize(
    "text, value",
    [
        ('{"foo":"bar", "qux": 12,}', {"foo": "bar", "qux": 12}),
        ('{"key":[{"foo":"bar", "qux": 12,},{"foo":"bar", "qux": 12,},]}', {"key": [{"foo": "bar", "qux": 12}] * 2}),
        ("{,}", {}),
        ("[,]", []),
        ('{"a":[{"b":{"c":[],},"d":{},},],"e":"value",}', {"a": [{"b": {"c": []}, "d": {}}], "e": "value"}),
        ('{\n  "name": "John",\n  "age": 30,\n}', {"name": "John", "age": 30}),
        ('"{"a": 1}"', {"a": 1}),
        (json.dumps(json.dumps({"a": 1, "b": [1, 2]})), {"a": 1, "b": [1, 2]}),
        ("{“a”: “x”}", {"a": "x"}),
        ("{'a': 'x'}", {"a": "x"}),
    ],
)
def test_the_slips_langchain4j_repairs_are_read(text, value):
    """LangChain4j langchain4j/src/test/java/dev/langchain4j/service/tool/ToolExecutionRequestUtilTest.java::
    test_argument_comma, ::test_argument_comma_array, ::should_remove_trailing_comma (the `{,}`,
    `[,]` and nested rows), and DefaultToolExecutorTest's quoted and double-encoded arguments."""
    assert json_repair.loads(text) == value


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"sku": "PH-001", "quantity": 2}\n```',
        '```\n{"sku": "PH-001", "quantity": 2}\n```',
        '  ```JSON {"sku": "PH-001", "quantity": 2,} ```  ',
        '```json\n{"sku": "PH-001", "quantity": 2}```',
    ],
)
def test_arguments_in_a_code_fence_are_read(text):
    """Some open models (and gateways in front of them) write tool arguments as Markdown."""
    assert json_repair.loads(text) == {"sku": "PH-001", "quantity": 2}


@pytest.mark.parametrize("text", ['```json\n{"a": 1}\n``` and more', 'x ```{"a": 1}```', "```", "``````"])
def test_a_fence_around_part_of_the_text_is_no_json(text):
    with pytest.raises(ValueError):
        json_repair.loads(text)


def test_a_long_fenced_text_is_read_in_linear_time():
    """A regex reading the fence's body lazily before blanks and the closing fence took 142 s on this."""
    text = "```json\n" + "`" * 300_000 + " " * 300_000 + "\n```"
    with pytest.raises(ValueError):
        json_repair.loads(text)
    assert json_repair.loads("```json\n" + " " * 300_000 + '{"a": 1}' + " " * 300_000 + "\n```") == {"a": 1}


def test_a_comma_inside_a_string_is_kept():
    assert json_repair.loads('{"a": "x,}", "b": 1,}') == {"a": "x,}", "b": 1}


@pytest.mark.parametrize(
    "text, value",
    [
        ('{"note": "客户说“尽快”", "orderId": "SN1",}', {"note": "客户说“尽快”", "orderId": "SN1"}),
        ('```json\n{"title": "„Faust“"}\n```', {"title": "„Faust“"}),
        ('{"a": "it’s",}', {"a": "it’s"}),
        ("{'a': 'it\\'s'}", {"a": "it's"}),
        ("{'a': 'don’t'}", {"a": "don’t"}),
        ("{'a': 'say \\\\'}", {"a": "say \\"}),
        ("{“a”: “it's”}", {"a": "it's"}),
        ("{‘a’: ‘x’}", {"a": "x"}),
    ],
)
def test_a_repair_leaves_the_quotes_inside_strings_as_written(text, value):
    """Curly quotes were translated everywhere once a repair was needed: a Chinese “…” inside a
    value broke the string (a trailing comma made the call unreadable), an apostrophe ’ became ',
    and a single-quoted `'it\\'s'` reached the tool as `it"s`."""
    assert json_repair.loads(text) == value


def test_clean_json_is_read_strictly_first():
    assert json_repair.loads('{"a": "it\'s"}') == {"a": "it's"}


@pytest.mark.parametrize("text", ["[" * 1000 + "]" * 1000, '{"a":' * 40 + "1" + "}" * 40, "[" * 100000])
def test_deep_nesting_is_too_large_not_a_recursion_error(text):
    with pytest.raises(json_repair.TooLarge):
        json_repair.loads(text)


def test_size_limit():
    with pytest.raises(json_repair.TooLarge):
        json_repair.loads('{"a": "' + "x" * json_repair.MAX_CHARS + '"}')


def test_deep_arguments_are_an_argument_error_through_the_argument_channel():
    """Issue: `"[" * 1000 + "]" * 1000` as arguments raised RecursionError."""
    with pytest.raises(ArgumentError) as info:
        parse_arguments("f", "[" * 1000 + "]" * 1000)
    assert info.value.problems[0].line() == (
        f"- arguments: got {'[' * 57}..., expected a JSON object at most 32 levels deep and 1000000 characters long"
    )

    def f(x: list) -> str:
        return "ran"

    result = function_tool(f).execute(
        ToolCall(id="1", name="f", arguments='{"x": ' + "[" * 5000 + "]" * 5000 + "}"), policies=FEED_BACK_ALL
    )
    assert result.is_error and result.content.startswith("Invalid arguments for tool 'f':")


def test_repaired_arguments_still_meet_strict_validation():
    def f(n: int) -> str:
        return str(n)

    [t] = tools_from(f)
    assert t.execute(ToolCall(id="1", name="f", arguments='{"n": 2,}')).content == "2"
    bad = t.execute(ToolCall(id="1", name="f", arguments='{"n": "two",}'), policies=FEED_BACK_ALL)
    assert bad.is_error and '- n: got "two", expected an integer' in bad.content


def test_the_prompt_protocol_uses_the_same_repair():
    from toolkit.course import prompt_protocol

    assert prompt_protocol._loads is not None
    assert prompt_protocol.extract_call('{"tool": "f", "args": {"n": 2,},}').arguments == '{"n": 2}'
    assert not hasattr(prompt_protocol, "_repaired")


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab{}[]"\\', max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet="k{[", max_size=2), inner, max_size=3),
    max_leaves=60,
)


@settings(max_examples=300, deadline=None)
@given(_JSON, st.integers(min_value=0, max_value=40))
def test_the_bracket_count_shortcut_gives_the_same_verdict_as_measuring_the_depth(value, wrap):
    """`_strict` only measures the depth when the text has more brackets than `MAX_DEPTH`; the
    verdict (read or `TooLarge`) is the one measuring every text would give. (A text that is a
    JSON string holding an object or array, `"{}"`, is read as double-encoded: not this test's.)"""
    assume(not (wrap == 0 and isinstance(value, str) and value.lstrip().startswith(("{", "["))))
    value = functools.reduce(lambda inner, _: [inner], range(wrap), value)
    text = json.dumps(value)
    if json_repair._depth(value) > json_repair.MAX_DEPTH:
        with pytest.raises(json_repair.TooLarge):
            json_repair.loads(text)
    else:
        assert json_repair.loads(text) == value


@pytest.mark.parametrize("levels", [json_repair.MAX_DEPTH, json_repair.MAX_DEPTH + 1])
def test_the_depth_limit_holds_at_its_edge(levels):
    text = "[" * levels + "]" * levels
    if levels > json_repair.MAX_DEPTH:
        with pytest.raises(json_repair.TooLarge):
            json_repair.loads(text)
    else:
        assert json_repair.loads(text) == functools.reduce(lambda inner, _: [inner], range(levels - 1), [])


def _outcome(read, text):
    try:
        return "ok", repr(read(text))
    except RecursionError:
        return "error", "RecursionError"
    except ValueError:
        return "error", "ValueError"


_EDGES = [
    '{"a": 1, "a": 2}',
    "1e400",
    "-1e400",
    "[1e-400]",
    "NaN",
    "[Infinity, -Infinity]",
    '"\\ud800"',
    '"\\ud83d\\ude00"',
    '"\ud800"',
    "\ufeff{}",
    ' {"a": 1} \n',
    "123456789012345678901234567890",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "-0",
    "-0.0",
    "5e-324",
    "1.0000000000000002",
    '"\x01"',
    '{"a": "\\u0000"}',
    "[" * 2000 + "]" * 2000,
    "[1,]",
    "[]\x00",
    '{"数量": "１２"}',
    '"' + "1" * 25 + '"',
    '{"a": 1e19, "b": "12345678901234567890123"}',
    "[1e19, -1e30, 9.3e18]",
    '{"x": "' + "1" * 25 + '", "y": 2.5}',
    "[[[[1e30, 123456789012345678901234]]]]",
    '{"a": [{"b": -18446744073709551617}]}',
]


class _Searches:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def search(self, text: str) -> None:
        self.texts.append(text)


def test_a_long_text_is_searched_for_long_numbers_only_when_a_whole_float_was_read(monkeypatch):
    """Searching a long text for a long number cost milliseconds per call; the text is searched only
    when orjson read a whole float (what an integer past 64 bits becomes, and `1e-400`)."""
    searches = _Searches()
    monkeypatch.setattr(json_repair, "_MAY_BE_INEXACT", searches)
    text = json.dumps({"text": "订单 SN2026 已发货。" * 2000, "n": 12345678901234567, "x": 2.5}, ensure_ascii=False)
    assert json_repair._parse(text, None) == json.loads(text)
    assert searches.texts == []
    assert json_repair._parse('{"big": 1e19, "ok": 1}', None) == {"big": 1e19, "ok": 1}
    assert searches.texts == ['{"big": 1e19, "ok": 1}']


@pytest.mark.parametrize("text", _EDGES)
def test_orjson_reads_only_what_json_reads_the_same(text):
    """`_parse` gives what `json.loads` gives, value and type, or fails where it fails."""
    assert _outcome(lambda t: json_repair._parse(t, None), text) == _outcome(json.loads, text)


_TEXTS = st.one_of(
    _JSON.map(json.dumps),
    _JSON.map(lambda v: json.dumps(v, ensure_ascii=False)),
    st.text(alphabet='{}[]",:0123456789.eE-+ \\ntrufalsN\ud800é', max_size=40),
    st.integers().map(str),
    st.floats().map(repr),
)


@settings(max_examples=500, deadline=None)
@given(_TEXTS)
def test_orjson_parsing_equals_json_on_any_text(text):
    assert _outcome(lambda t: json_repair._parse(t, None), text) == _outcome(json.loads, text)


_OLD_STRING_OR_TRAILING_COMMA = re.compile(r'"(?:\\.|[^"\\])*"|,(\s*[}\]])')
_JSON_PIECES = ['"', '\\"', "\\", "\\\\", ",", "}", "]", "{", "[", ":", " ", "a", "1", "'", "“", "null", '"k":', ", }"]


def _read_as(text: str) -> object:
    try:
        return ("value", json_repair._strict(text, None))
    except ValueError:
        return ("refused",)


def test_a_string_left_open_reads_as_before():
    """A string left open now runs to the end of the text instead of being tried again from each
    quote inside it (quadratic: 6 s for 10,000 escaped quotes); what the repaired text reads as
    is the same (a string left open is no JSON either way)."""
    for seed in range(300):  # one test, many cases (a test each cost more to collect than to run)
        rng = random.Random(seed)
        text = "".join(rng.choice(_JSON_PIECES) for _ in range(rng.randrange(1, 30)))
        old = _OLD_STRING_OR_TRAILING_COMMA.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(0), text)
        new = json_repair._STRING_OR_TRAILING_COMMA.sub(
            lambda m: m.group(1) if m.group(1) is not None else m.group(0), text
        )
        assert _read_as(new) == _read_as(old)


@pytest.mark.parametrize("unit", ["'\\", '"C:\\', '"\\\n'])
def test_escaped_quotes_that_never_close_are_read_in_linear_time(unit):
    """A string left open ending with a lone backslash (or a backslash before a line break) made the
    string pattern fail at every quote after trying to the end: 2.7 s for 20,000 characters."""
    with pytest.raises(ValueError):
        json_repair.loads(unit * 100_000)


_OLD_STRING_OR_TRAILING_COMMA = re.compile(r'"(?:\\.|[^"\\])*(?:"|\Z)|,(\s*[}\]])')


def test_the_linear_string_pattern_reads_every_text_as_the_old_one_did():
    """The new pattern takes a lone final backslash and a backslash before a line break into a string
    left open; the repaired texts then differ, but never what `loads` reads from them (or refuses)."""
    pieces = ['"', "'", "\\", ",", "}", "]", "{", "[", " ", "\n", "a", "1", ":", "“", '\\"', "\\n", ",}", "{,}"]
    differ = 0
    for seed in range(20_000):
        rng = random.Random(seed)
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 14)))
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(json_repair, "_STRING_OR_TRAILING_COMMA", _OLD_STRING_OR_TRAILING_COMMA)
            old = (json_repair.repair(text), _read_or_refused(text))
        new = (json_repair.repair(text), _read_or_refused(text))
        assert old[1] == new[1], text
        differ += old[0] != new[0]
    assert differ > 50  # the texts the two patterns repair differently are among them


def _read_or_refused(text):
    try:
        return ("read", json_repair.loads(text))
    except ValueError:
        return ("refused",)


def test_a_json_string_holding_an_object_is_read_as_the_object():
    """The double-encoding repair, at the top level only: the case the property test leaves out."""
    assert json_repair.loads('"{}"') == {}
    assert json_repair.loads('"[1]"') == [1]
    assert json_repair.loads('["{}"]') == ["{}"]
    assert json_repair.loads('"{a"') == "{a"  # not JSON inside: the string as it is


def test_curly_quotes_outside_the_strings_still_delimit_them():
    assert json_repair.loads('{"a": “x”, "b": "“y”",}') == {"a": "x", "b": "“y”"}


@pytest.mark.parametrize(
    "text, value",
    [
        ('{"code": "def f():\n    return 1"}', {"code": "def f():\n    return 1"}),
        ('{"a": "tab\there", "b": "cr\r\nlf"}', {"a": "tab\there", "b": "cr\r\nlf"}),
        ('{"nul": "a\x00b"}', {"nul": "a\x00b"}),
        ('{\n  "a": 1,\n  "b": "x"\n}', {"a": 1, "b": "x"}),  # breaks between the tokens: strict JSON already
    ],
)
def test_a_control_character_written_raw_in_a_string_is_read_as_json_loads_strict_false_reads_it(text, value):
    """A multi-line argument with its line breaks written raw was refused ("expected a JSON object");
    LangChain reads tool arguments with `json.loads(strict=False)`, which takes them."""
    assert json_repair.loads(text) == value == json.loads(text, strict=False)


def test_a_backslash_before_a_raw_line_break_stays_no_json():
    """Only raw control characters are escaped: `\\` and a line break is no escape JSON has, before
    the repair or after it (as `json.loads(strict=False)` refuses it too)."""
    text = '{"a": "x\\\ny"}'
    with pytest.raises(ValueError):
        json.loads(text, strict=False)
    with pytest.raises(ValueError):
        json_repair.loads(text)
