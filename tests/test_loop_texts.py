"""`toolkit.loop.texts`: the Chinese "expected …" phrases cover the argument checker's vocabulary."""

import pytest

from toolkit.loop.texts import EN, ZH, expected_zh
from toolkit.tools.arguments import _EXPECTED, _SIZES


@pytest.mark.parametrize(
    "english, chinese",
    [
        ("a string", "字符串"),
        ("an integer", "整数"),
        ("true or false", "true 或 false"),
        ("an integer or a string", "整数 或 字符串"),
        ('one of "shipped", "paid"', '以下之一："shipped", "paid"'),
        ("a number >= 1", "数字，且 >= 1"),
        ("a string of at most 12 characters", "至多 12 个字符的字符串"),
        ("a date like 2026-10-20", "日期，例如 2026-10-20"),
        ("SN 开头加 12 位数字", "SN 开头加 12 位数字"),  # already Chinese: unchanged
        ("a color, please", "a color, please"),  # unknown: unchanged, never garbled
    ],
)
def test_expected_phrases_in_chinese(english, chinese):
    assert expected_zh(english) == chinese


def test_every_phrase_the_checker_writes_has_a_chinese_form():
    sizes = [
        template.format(min_length=2, max_length=9, pattern="^SN", expected_schemes="'https'")
        for template in _SIZES.values()
    ]
    digits = "a number of at most 4300 digits"  # an integer longer than Python converts
    for phrase in [*_EXPECTED.values(), *sizes, digits]:
        assert expected_zh(phrase) != phrase or phrase == "null", phrase


def test_the_two_bundles_have_the_same_fields_in_every_template():
    for name in ("guard", "not_run_limit", "not_run", "interrupted", "unknown_tool", "rolled_back"):
        fields = lambda t: sorted(part.split("}")[0].split("!")[0] for part in t.split("{")[1:])  # noqa: E731
        assert fields(getattr(EN, name)) == fields(getattr(ZH, name)), name


def test_the_image_texts_have_the_same_fields_in_both_bundles():
    fields = lambda t: sorted(part.split("}")[0].split("!")[0] for part in t.split("{")[1:])  # noqa: E731
    for name in ("images_line", "images_pointer", "images_dropped", "image_item"):
        assert fields(getattr(EN, name)) == fields(getattr(ZH, name)), name
    assert EN.image_why.keys() == ZH.image_why.keys() == {"url", "data", "format", "size", "count"}
    for key in EN.image_why:
        assert fields(EN.image_why[key]) == fields(ZH.image_why[key]), key
