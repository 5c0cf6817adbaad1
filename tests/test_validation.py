"""Lenient in, strict out: what is normalised, what is rejected, and the exact text the model reads."""

import datetime
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.course.validation import (
    DATE_HINT,
    Rejected,
    Validated,
    normalize_category,
    normalize_date,
    normalize_order_id,
    to_half_width,
    validate,
)
from toolkit.errors import ArgError, ArgumentError, ConfigurationError, UnknownToolError

TODAY = datetime.date(2026, 10, 25)
ID = "SN202610200001"


def order(value) -> str:
    return json.dumps({"orderId": value}, ensure_ascii=False)


@pytest.mark.parametrize(
    "raw",
    [
        "SN202610200001 ",
        "  SN202610200001\t",
        "\u3000SN202610200001\u3000",
        "订单SN202610200001",
        "订单号SN202610200001",
        "订单号：SN202610200001",
        "订单号:SN202610200001",
        "订单号 : SN202610200001",
        "订单号是SN202610200001",
        "订单号为 SN202610200001",
        "订单：SN202610200001",
        "SN2026-1020-0001",
        "SN2026–1020—0001",
        "ＳＮ２０２６１０２００００１",
        "ＳＮ２０２６－１０２０－０００１",
        "sn202610200001",
        "Sn 2026 1020 0001",
        "SN2026\u30001020\u30000001",
        "订单号：ｓｎ２０２６ １０２０ ０００１",
    ],
)
def test_harmless_variation_is_normalised(raw):
    assert validate("query_order", order(raw))["orderId"] == ID
    assert normalize_order_id(raw) == ID


@pytest.mark.parametrize(
    "raw",
    [
        "202610200001",
        "SN2026102000011",
        "SN20261020001",
        "SN2026102OOOO1",
        "SNX02610200001",
        "SN202610200001,SN202610200002",
        "SN202610200001 SN202610200002",
        "订单号",
        "SN",
        "N202610200001",
        "SN２０２６１０２０００１",
        "订单号：202610200001",
        "SN-2026-1020-000",
        "S N202610200001x",
    ],
)
def test_anything_else_is_rejected_naming_orderid(raw):
    with pytest.raises(ArgError) as info:
        validate("query_order", order(raw))
    assert (info.value.field, info.value.received) == ("orderId", json.dumps(raw, ensure_ascii=False))


def test_the_error_text_is_written_for_the_model_field_received_expected():
    with pytest.raises(ArgError) as info:
        validate("query_order", order("订单号是202610200001"))
    assert str(info.value) == (
        '参数校验失败。字段=orderId，收到="订单号是202610200001"。期望：SN 开头加 12 位数字，例如 '
        "SN202610200001；请从用户的原话中找出完整的订单号，不要自己补位或猜测。请修正参数后重新调用 "
        "query_order；如果无法得到合法参数，请直接告诉用户需要他提供什么，不要再调用工具。"
    )
    assert isinstance(info.value, ArgumentError) and info.value.tool_name == "query_order"


@pytest.mark.parametrize(
    "raw, field, received, expected_start",
    [
        (
            '{"orderId": "SN202610200001", "refundAmount": 2999}',
            "refundAmount",
            "2999",
            "query_order 只接受字段 orderId；refundAmount 不是它的参数",
        ),
        ("{orderId:SN202610200001}", "arguments", "{orderId:SN202610200001}", "合法的 JSON 对象"),
        ('"SN202610200001"', "arguments", '"SN202610200001"', "一个 JSON 对象"),
        ('["SN202610200001"]', "arguments", '["SN202610200001"]', "一个 JSON 对象"),
        ("null", "arguments", "null", "一个 JSON 对象"),
        ("{}", "orderId", "（未提供）", "必填"),
        ("", "orderId", "（未提供）", "必填"),
        ('{"orderId": null}', "orderId", "null", "必填"),
        ('{"orderId": ""}', "orderId", '""', "必填"),
        ('{"orderId": "   "}', "orderId", '"   "', "必填"),
        ('{"orderId": 202610200001}', "orderId", "202610200001", "字符串"),
        ('{"orderId": ["SN202610200001"]}', "orderId", '["SN202610200001"]', "字符串"),
        (
            '{"orderId": "SN202610200001", "orderId": "SN202610200002"}',
            "orderId",
            '{"orderId": "SN202610200001", "orderId": "SN202610200002"}',
            "每个字段只能出现一次",
        ),
        ('{"orderId": NaN}', "arguments", '{"orderId": NaN}', "合法的 JSON 对象"),
        ("[" * 5000, "arguments", "[" * 59 + "…", "合法的 JSON 对象"),
    ],
)
def test_each_kind_of_invalid_input(raw, field, received, expected_start):
    with pytest.raises(ArgError) as info:
        validate("query_order", raw)
    assert (info.value.field, info.value.received) == (field, received)
    assert info.value.expected.startswith(expected_start), info.value.expected


def test_unknown_fields_are_reported_before_anything_else():
    with pytest.raises(ArgError) as info:
        validate("query_order", '{"refundAmount": 2999}')
    assert info.value.field == "refundAmount" and info.value.problems[0].kind == "unknown"


@pytest.mark.parametrize(
    "raw, expected",
    [
        ('{"category": "服装", "asOf": "2026-10-20"}', ("服装", "2026-10-20")),
        ('{"category": " 数码 "}', ("数码", "2026-10-25")),
        ('{"category": "生鲜", "asOf": null}', ("生鲜", "2026-10-25")),
        ('{"category": "家居", "asOf": "２０２６－１０－２０"}', ("家居", "2026-10-20")),
        ('{"category": "服装", "asOf": "2026/10/5"}', ("服装", "2026-10-05")),
        ('{"category": "服装", "asOf": "2026.10.05"}', ("服装", "2026-10-05")),
        ('{"category": "服装", "asOf": "2026年10月5日"}', ("服装", "2026-10-05")),
        ('{"category": "ｓ服装"}', None),
    ],
)
def test_refund_policy_arguments_and_the_injected_today(raw, expected):
    if expected is None:
        with pytest.raises(ArgError):
            validate("query_refund_policy", raw, today=TODAY)
        return
    v = validate("query_refund_policy", raw, today=TODAY)
    assert (v["category"], v["asOf"]) == expected


@pytest.mark.parametrize(
    "as_of, hint",
    [
        ("上个月", "yyyy-MM-dd 格式的具体日期"),
        ("昨天", "yyyy-MM-dd 格式的具体日期"),
        ("2026-10", "yyyy-MM-dd 格式的具体日期"),
        ("10/20/2026", "yyyy-MM-dd 格式的具体日期"),
        ("", "yyyy-MM-dd 格式的具体日期"),
        ("2026-02-30", "一个真实存在的日期"),
        ("2026-13-01", "一个真实存在的日期"),
        (20261020, "字符串"),
    ],
)
def test_vague_impossible_and_mistyped_dates_are_rejected(as_of, hint):
    with pytest.raises(ArgError) as info:
        validate("query_refund_policy", json.dumps({"category": "服装", "asOf": as_of}), today=TODAY)
    assert info.value.field == "asOf" and hint in info.value.expected


@pytest.mark.parametrize("category", ["衣服", "电器", "clothes", "", None])
def test_categories_are_never_guessed(category):
    with pytest.raises(ArgError) as info:
        validate("query_refund_policy", json.dumps({"category": category}))
    assert info.value.field == "category"


def test_only_validate_makes_a_validated_and_it_is_read_only():
    with pytest.raises(TypeError) as info:
        Validated("query_order", {"orderId": ID}, "{}")
    assert str(info.value) == (  # the function it names is one a learner can import
        "Validated(...) cannot be built by hand: only toolkit.course.validation.validate(tool, raw_arguments) "
        "makes one, so that no unchecked argument reaches a tool. Call validate() instead."
    )
    v = validate("query_order", order(ID))
    with pytest.raises(AttributeError):
        v.tool = "query_logistics"
    with pytest.raises(TypeError):
        v.values["orderId"] = "SN000000000000"
    assert v == validate("query_order", order(" " + ID)) and repr(v) == f"Validated(query_order, orderId='{ID}')"


def test_developer_mistakes_name_the_fix():
    with pytest.raises(UnknownToolError, match="Available tools: query_logistics, query_order"):
        validate("refund_order", "{}")
    with pytest.raises(ConfigurationError, match=r"raw must be the arguments \*string\*"):
        validate("query_order", {"orderId": ID})


def test_normalisers_directly():
    assert to_half_width("ＡＢＣ　１２３：－") == "ABC 123:-"
    assert normalize_category("\u3000家居 ") == "家居"
    assert normalize_date("2026年1月2号") == "2026-01-02"
    with pytest.raises(Rejected):
        normalize_date("下周一")


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40),
        st.builds(
            json.dumps,
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.text(max_size=15),
                lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                max_leaves=8,
            ),
        ),
    )
)
def test_no_input_crashes_validation(raw):
    for tool in ("query_order", "query_refund_policy"):
        try:
            v = validate(tool, raw, today=TODAY)
        except ArgError as exc:
            assert exc.field and exc.expected
        else:
            assert set(v.values) <= {"orderId", "category", "asOf"}


@pytest.mark.parametrize("as_of", ["", "   "])
def test_a_blank_optional_date_is_not_called_required(as_of):
    """Before: '期望：必填，yyyy-MM-dd …；不知道具体日期时请省略 asOf' — required, and to be left out, at once."""
    with pytest.raises(ArgError) as info:
        validate("query_refund_policy", json.dumps({"category": "服装", "asOf": as_of}), today=TODAY)
    assert (info.value.field, info.value.expected) == ("asOf", DATE_HINT)
