"""`toolkit.loop.texts`: the Chinese "expected …" phrases cover the argument checker's vocabulary."""

import pytest

from tests.test_loop import Q, query_order
from toolkit.chat.messages import ToolResultMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.errors import MaxRoundTripsError
from toolkit.loop.run import LoopOptions, run_loop
from toolkit.loop.texts import EN, ZH, expected_zh
from toolkit.tools.arguments import _EXPECTED, _NOT_REAL, _SIZES, _TOO_LARGE_FOR_A_FLOAT


@pytest.mark.parametrize(
    "english, chinese",
    [
        ("a string", "字符串"),
        ("an integer", "整数"),
        ("true or false", "true 或 false"),
        ("an integer or a string", "整数 或 字符串"),
        ("an integer >= 1 and <= 50 or one of 'all'", "整数，且 >= 1 且 <= 50 或 以下之一：'all'"),
        ("a number < 1.5 or null", "数字，且 < 1.5 或 null"),
        ("one of 'metric', 'imperial' or an integer", "以下之一：'metric', 'imperial' 或 整数"),
        ("a string of at least 2 characters or an integer", "至少 2 个字符的字符串 或 整数"),
        ("a string matching ^a or b$ or an integer", "匹配 ^a or b$ 的字符串 或 整数"),
        ('one of "shipped", "paid"', '以下之一："shipped", "paid"'),
        ("a number >= 1", "数字，且 >= 1"),
        ("a string of at most 12 characters", "至多 12 个字符的字符串"),
        ("a string of at least 1 character", "至少 1 个字符的字符串"),
        ("at least 1 item", "至少 1 项"),
        ("at most 1 item", "至多 1 项"),
        ("a number with at most 1 decimal place", "至多 1 位小数的数字"),
        ("a number of at most 1 digit", "至多 1 位的数字"),
        ("a date like 2026-10-20", "日期，例如 2026-10-20"),
        ("a real date like 2026-10-20", "真实存在的日期，例如 2026-10-20"),
        ("SN 开头加 12 位数字", "SN 开头加 12 位数字"),  # already Chinese: unchanged
        ("a color, please", "a color, please"),  # unknown: unchanged, never garbled
    ],
)
def test_expected_phrases_in_chinese(english, chinese):
    assert expected_zh(english) == chinese


def test_every_phrase_the_checker_writes_has_a_chinese_form():
    sizes = [
        template.format(
            min_length=2,
            max_length=9,
            pattern="^SN",
            expected_schemes="'https'",
            max_digits=4,
            decimal_places=2,
            whole_digits=2,
            expected_version=4,
        )
        for template in _SIZES.values()
    ]
    digits = "a number of at most 4300 digits"  # an integer longer than Python converts
    for phrase in [*_EXPECTED.values(), *_NOT_REAL.values(), *sizes, digits, _TOO_LARGE_FOR_A_FLOAT]:
        assert expected_zh(phrase) != phrase or phrase == "null", phrase


def test_the_two_bundles_have_the_same_fields_in_every_template():
    for name in (
        "guard",
        "not_run_limit",
        "not_run",
        "interrupted",
        "unknown_tool",
        "rolled_back",
        "unknown_field",
        "no_such_field",
    ):
        fields = lambda t: sorted(part.split("}")[0].split("!")[0] for part in t.split("{")[1:])  # noqa: E731
        assert fields(getattr(EN, name)) == fields(getattr(ZH, name)), name


def test_the_image_texts_have_the_same_fields_in_both_bundles():
    fields = lambda t: sorted(part.split("}")[0].split("!")[0] for part in t.split("{")[1:])  # noqa: E731
    for name in ("images_line", "images_pointer", "images_dropped", "image_item"):
        assert fields(getattr(EN, name)) == fields(getattr(ZH, name)), name
    assert EN.image_why.keys() == ZH.image_why.keys() == {"url", "data", "format", "size", "count"}
    for key in EN.image_why:
        assert fields(EN.image_why[key]) == fields(ZH.image_why[key]), key


# SPEC §5: "one argument-repair round (a validation error is fed back once with field / got / hint and
# 'if you cannot get a valid value, ask the user')". Under `COURSE` a `@tool` function's missing argument
# read "字段=x，收到=。期望：整数" (got: nothing at all), and an argument it does not have read
# "字段=y，收到=2。期望：x" — the list of valid fields standing where a value's format stands, so the
# model reads "y should be x". The shop's own validator words both kinds ("（未提供）", "只接受字段 …；
# … 不是它的参数"); the repair text now words them by the problem's kind, in either language.
def _repair_text(arguments, options):
    from toolkit import ScriptedModel, ToolCall, ToolResultMessage, run_loop, tool

    @tool("a")
    def a(x: int) -> str:
        return "A"

    model = ScriptedModel([[ToolCall(id="c1", name="a", arguments=arguments)], "done"])
    result = run_loop(model, "q", tools=[a], options=options)
    (text,) = [m.content for m in result.messages if isinstance(m, ToolResultMessage)]
    return text


_ASK = "请修正参数后重新调用 a；如果无法得到合法参数，请直接告诉用户需要他提供什么，不要再调用工具。"


@pytest.mark.parametrize(
    "arguments, text",
    [
        ("{}", "参数校验失败。字段=x，收到=（未提供）。期望：整数。" + _ASK),
        (
            '{"x": 1, "y": 2}',
            "参数校验失败。字段=y，收到=2。期望：a 只接受字段 x；y 不是它的参数，请删除这个字段。" + _ASK,
        ),
        ('{"x": "q"}', '参数校验失败。字段=x，收到="q"。期望：整数。' + _ASK),
    ],
)
def test_the_course_repair_text_words_a_missing_and_an_unknown_field_by_their_kind(arguments, text):
    from toolkit import COURSE

    assert _repair_text(arguments, COURSE) == text


def test_a_template_of_ones_own_reads_the_same_words_in_english():
    from dataclasses import replace

    from toolkit import COURSE

    options = replace(COURSE, texts=EN, repair_template="{field}: got {received}, expected {expected}")
    assert _repair_text("{}", options) == "x: got (not given), expected an integer"
    assert _repair_text('{"x": 1, "y": 2}', options) == (
        "y: got 2, expected a takes only the fields x; y is not one of its parameters: remove it"
    )


# "1 tool round trips", "1 images per round", "limit of 1 model requests": a text with a count said
# the plural for 1. The model-facing texts now put the number where no noun agrees with it.
@pytest.mark.parametrize("limit", [1, 2])
def test_the_limit_texts_read_right_for_any_number(limit):
    assert EN.not_run_limit.format(limit=limit) == f"Not executed: the limit on tool round trips ({limit}) was reached."
    assert EN.image_why["count"].format(limit=limit) == f"over the limit on images per round ({limit})"
    assert ZH.not_run_limit.format(limit=limit) == f"未执行：已达到 {limit} 轮工具调用的上限。"


def test_a_loop_stopped_at_one_round_trip_tells_the_model_so():
    result = run_loop(
        ScriptedModel([call("query_order", orderId="SN1")] * 2),
        Q,
        tools=[query_order],
        options=LoopOptions(max_round_trips=1, on_limit="handover"),
    )
    refused = [m.content for m in result.messages if isinstance(m, ToolResultMessage) and m.is_error]
    assert refused == ["Not executed: the limit on tool round trips (1) was reached."]


def test_a_request_limit_of_one_is_one_model_request(caplog):
    with caplog.at_level("WARNING", logger="toolkit"), pytest.raises(MaxRoundTripsError) as caught:
        run_loop(
            ScriptedModel([call("query_order", orderId="SN1")] * 2),
            Q,
            tools=[query_order],
            options=LoopOptions(max_model_requests=1),
        )
    assert caught.value.loop_result.rounds[-1].decision == "limit of 1 model request reached"
    assert [r.getMessage() for r in caplog.records] == [
        "a turn without memory: the limit of 1 model request was reached"
    ]
    assert str(caught.value).startswith("the model still asked for tools after 1 model request; ")


@pytest.mark.parametrize(
    ("changed", "message"),
    [
        (  # a translation that renamed the field: Ctrl-C in a round became KeyError, its calls left unanswered
            {"interrupted": "Pas terminé : interrompu par {erreur}."},
            "LoopTexts(interrupted='Pas terminé : interrompu par {erreur}.'): it is formatted with {error}, and this "
            "one cannot be (it has no field 'erreur'); use only those names in braces, and double a brace meant as "
            "text: {{ and }}",
        ),
        (  # an unknown name's text: every call of a name no tool has stopped the turn with KeyError: 'tools'
            {"unknown_tool": "No tool {tool}; tools: {tools}"},
            "LoopTexts(unknown_tool='No tool {tool}; tools: {tools}'): it is formatted with {tool}, {available}, "
            "and this one cannot be (it has no field 'tools'); use only those names in braces, and double a brace "
            "meant as text: {{ and }}",
        ),
        (
            {"guard": 'Already called: {"tool": {tool}}'},
            "LoopTexts(guard='Already called: {\"tool\": {tool}}'): it is formatted with {tool}, and this one "
            "cannot be (it has no field '\"tool\"'); use only those names in braces, and double a brace meant as "
            "text: {{ and }}",
        ),
        (
            {"not_run_limit": "limit {limit:s}"},
            "LoopTexts(not_run_limit='limit {limit:s}'): it is formatted with {limit}, and this one cannot be "
            "(ValueError: Unknown format code 's' for object of type 'int'); use only those names in braces, and "
            "double a brace meant as text: {{ and }}",
        ),
        (
            {"image_why": {**EN.image_why, "size": "{bytes} is too large"}},
            "LoopTexts(image_why['size']='{bytes} is too large'): it is formatted with {size}, {limit}, and this "
            "one cannot be (it has no field 'bytes'); use only those names in braces, and double a brace meant as "
            "text: {{ and }}",
        ),
        (
            {"image_why": {"url": "not a URL"}},
            "LoopTexts(image_why={'url': 'not a URL'}): it must be a mapping with the keys 'url', 'data', 'format', "
            "'size', 'count'; start from EN.image_why, e.g. {**EN.image_why, 'size': '...'}",
        ),
        (
            {"unfinished": None},
            "LoopTexts(unfinished=None): it must be a str; give the text (dataclasses.replace(EN, unfinished=...))",
        ),
    ],
)
def test_texts_of_ones_own_are_checked_when_made(changed, message):
    import dataclasses

    from toolkit.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as raised:
        dataclasses.replace(EN, **changed)
    assert str(raised.value) == message


def test_texts_of_ones_own_that_format_are_taken():
    import dataclasses

    french = dataclasses.replace(EN, interrupted="Pas terminé : interrompu par {error}.", guard="{{déjà}} {tool!r}")
    assert french.guard.format(tool="t") == "{déjà} 't'"
    assert dataclasses.replace(ZH, guard_handover="{ 不格式化 }").guard_handover == "{ 不格式化 }"
