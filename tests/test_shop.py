"""The shop's data and its three read-only tools: text for the model, "do not invent" at every
empty result, personal data masked."""

import datetime
import json
import re
import shutil

import pytest

from toolkit import data
from toolkit.course.shop import NOT_FOUND, Shop, load_shop, mask_address, mask_name, mask_phone, mask_text
from toolkit.course.validation import CATEGORIES, to_half_width, validate
from toolkit.errors import ConfigurationError

TODAY = datetime.date(2026, 10, 25)


@pytest.fixture(scope="module")
def shop() -> Shop:
    return load_shop(today=TODAY)


def run(shop, tool, **args):
    return shop.run(validate(tool, json.dumps(args, ensure_ascii=False), today=shop.today))


# --- the data -----------------------------------------------------------------------------------


def test_at_least_eight_orders_in_varied_states(shop):
    ids = [f"SN20261020000{i}" for i in range(1, 9)]
    assert set(ids) <= set(shop.orders)
    states = {shop.orders[i]["status"] for i in ids}
    assert {"待付款", "已付款，待发货", "已发货", "已签收", "已退款"} <= states
    assert {shop.orders[i]["category"] for i in ids} == set(CATEGORIES)


def test_logistics_exist_exactly_for_shipped_orders(shop):
    shipped = {k for k, o in shop.orders.items() if o["status"] in ("已发货", "已签收")}
    assert set(shop.shipments) == shipped
    assert all(s["events"] for s in shop.shipments.values())


def test_policies_cover_four_categories_with_one_expired(shop):
    assert {p["category"] for p in shop.policies} == set(CATEGORIES)
    expired = [p for p in shop.policies if p["to"] and p["to"] < TODAY.isoformat()]
    assert [p["id"] for p in expired] == ["CLOTHING-2025"]


def test_broken_data_is_a_configuration_error_naming_the_file(tmp_path):
    for name in ("orders.json", "logistics.json", "refund_policies.json"):
        shutil.copy(data.root() / name, tmp_path / name)
    with pytest.raises(ConfigurationError, match="orders.json"):
        (tmp_path / "orders.json").write_text("{", encoding="utf-8")
        load_shop(tmp_path)
    shutil.copy(data.root() / "orders.json", tmp_path / "orders.json")
    policies = json.loads((tmp_path / "refund_policies.json").read_text(encoding="utf-8"))
    policies["policies"][0]["category"] = "衣服"
    (tmp_path / "refund_policies.json").write_text(json.dumps(policies), encoding="utf-8")
    with pytest.raises(ConfigurationError, match="category '衣服', not one of"):
        load_shop(tmp_path)


# --- query_order ----------------------------------------------------------------------------------


def test_query_order_is_text_for_the_model(shop):
    assert run(shop, "query_order", orderId="SN202610200005") == (
        "订单号：SN202610200005\n状态：已签收\n商品：降噪蓝牙耳机 ×1（¥699.00）；耳机保护套 ×1（¥39.00）\n"
        "类别：数码\n实付金额：¥738.00\n付款日期：2026-10-15"
    )
    assert run(shop, "query_order", orderId="SN202610200003").endswith("付款日期：尚未付款")


def test_an_unknown_order_says_confirm_the_id(shop):
    assert run(shop, "query_order", orderId="SN209912319999") == (
        "订单不存在：订单号 SN209912319999 在系统中查不到。请向用户确认订单号是否正确（订单号是 SN 开头加 12 位数字）。"
    )
    assert run(shop, "query_logistics", orderId="SN209912319999") == NOT_FOUND.format(order_id="SN209912319999")


def test_query_order_shows_no_personal_data(shop):
    text = run(shop, "query_order", orderId="SN202610200001")
    assert "张" not in text and "文三路" not in text and "5678" not in text


# --- query_logistics -------------------------------------------------------------------------------


def test_not_shipped_yet_says_do_not_invent_a_trace(shop):
    assert run(shop, "query_logistics", orderId="SN202610200004") == (
        "订单 SN202610200004 当前状态为「已付款，待发货」，尚未发货，因此没有物流信息。"
        "请告知用户耐心等待，不要编造物流轨迹。"
    )
    cancelled = run(shop, "query_logistics", orderId="SN202610200007")
    assert "没有发货记录" in cancelled and "不要编造物流轨迹" in cancelled and "耐心等待" not in cancelled


def test_a_trace_masks_name_phone_and_address(shop):
    text = run(shop, "query_logistics", orderId="SN202610200001")
    assert text.splitlines()[:3] == [
        "订单号：SN202610200001",
        "物流状态：运输中",
        "最新轨迹：2026-10-22 06:40 【杭州】快件已到达 杭州转运中心，准备发往 杭州西湖营业部",
    ]
    assert "收件人：张*，138****5678" in text and "收货地址：浙江省杭州市西湖区****" in text
    assert "文三路" not in text and "13812345678" not in text


def test_no_raw_phone_number_or_street_ever_reaches_the_model(shop):
    for order_id, order in shop.orders.items():
        text = to_half_width(run(shop, "query_logistics", orderId=order_id))
        digits = re.sub(r"\D", "", to_half_width(order["recipient"]["phone"]))[-11:]
        assert digits not in re.sub(r"\D", "", text.replace("****", "|"))
        assert order["recipient"]["address"][-6:] not in text
        for event in shop.shipments.get(order_id, {}).get("events", []):
            assert not re.search(r"1\d{10}", to_half_width(mask_text(event["text"])))


def test_full_width_phone_numbers_are_masked_too(shop):
    text = run(shop, "query_logistics", orderId="SN202610200002")
    assert "139****4567" in text and "１３９" not in text
    courier = run(shop, "query_logistics", orderId="SN202610200005")
    assert "（电话 139****2222）" in courier and "１１１１" not in courier


@pytest.mark.parametrize(
    "phone, masked",
    [
        ("13812345678", "138****5678"),
        ("１３８１２３４５６７８", "138****5678"),
        ("138-1234-5678", "138****5678"),
        ("+86 138 1234 5678", "138****5678"),
        ("８６－１３８１２３４５６７８", "138****5678"),
        ("12345", "****"),
        ("0086 138 1234 5678", "138****5678"),  # was 008****5678
    ],
)
def test_mask_phone(phone, masked):
    assert mask_phone(phone) == masked


@pytest.mark.parametrize(
    "text, masked",
    [
        ("快递员 王师傅 13911112222 正在派送", "快递员 王师傅 139****2222 正在派送"),
        ("电话：１３９ １１１１ ２２２２。", "电话：139****2222。"),
        ("运单号 SF1408826617302，联系 +86-139-1111-2222", "运单号 SF1408826617302，联系 139****2222"),
        ("订单 SN202610200001 已发货", "订单 SN202610200001 已发货"),
        (
            "请联系 139.1111.2222 或 １３９．１１１１．２２２２",
            "请联系 139****2222 或 139****2222",
        ),  # dots: were shown whole
    ],
)
def test_mask_text_finds_phones_in_free_text_only(text, masked):
    assert mask_text(text) == masked


@pytest.mark.parametrize(
    "address, masked",
    [
        ("浙江省杭州市西湖区文三路 398 号 5 幢 1201 室", "浙江省杭州市西湖区****"),
        ("上海市浦东新区张江路 88 弄 6 号 401 室", "上海市浦东新区****"),
        ("新疆维吾尔自治区乌鲁木齐市天山区解放南路 1 号", "新疆维吾尔自治区乌鲁木齐市天山区****"),
        ("中关村大街 27 号", "****"),
        ("１２号楼", "****"),
        ("幸福小区 3 号楼 2 单元", "****"),  # a residential 小区 is not a district: it was kept
        ("阳光社区 5 栋", "****"),
        ("杭州市西湖区幸福小区 3 号楼", "杭州市西湖区****"),
    ],
)
def test_mask_address(address, masked):
    assert mask_address(address) == masked


def test_mask_name():
    assert [mask_name(n) for n in ("张伟", "欧阳晓明", "李", " 王芳 ")] == ["张*", "欧***", "李*", "王*"]


# --- query_refund_policy ---------------------------------------------------------------------------


def test_the_policy_in_force_today_by_default(shop):
    text = run(shop, "query_refund_policy", category="服装")
    assert text.splitlines()[0] == "类别：服装（2026-10-25 适用的政策 CLOTHING-2026）"
    assert "退货运费：" in text and "已过期" not in text


def test_an_expired_policy_still_answers_for_its_own_dates(shop):
    text = run(shop, "query_refund_policy", category="服装", asOf="2025-06-01")
    assert "CLOTHING-2025" in text and "签收后 15 天内可无理由退换" in text
    assert text.endswith("（该政策已过期，仅适用于当时的订单）")


def test_no_matching_policy_says_a_person_must_confirm(shop):
    assert run(shop, "query_refund_policy", category="家居", asOf="2026-02-01") == (
        "未找到匹配的政策：类别=家居，日期=2026-02-01。请如实告知用户「这个问题需要人工确认」，不要猜测政策内容。"
    )


# --- only validated arguments get in --------------------------------------------------------------


def test_tools_refuse_unvalidated_values(shop):
    with pytest.raises(TypeError, match=r"take a Validated value, not str.*validate\(tool, raw_arguments\)"):
        shop.query_order("SN202610200001")
    with pytest.raises(TypeError, match="not dict"):
        shop.run({"orderId": "SN202610200001"})
    with pytest.raises(TypeError, match="got a Validated for query_order"):
        shop.query_logistics(validate("query_order", '{"orderId": "SN202610200001"}'))


def test_a_data_file_over_its_cap_is_refused_unread_and_one_at_the_cap_is_read(tmp_path, monkeypatch):
    from toolkit.course import shop as shops

    for name in ("orders.json", "logistics.json", "refund_policies.json"):
        shutil.copy(data.root() / name, tmp_path / name)
    largest = max(tmp_path.glob("*.json"), key=lambda p: p.stat().st_size)
    size = largest.stat().st_size
    monkeypatch.setattr(shops, "MAX_DATA_BYTES", size - 1)
    with pytest.raises(ConfigurationError) as caught:
        load_shop(tmp_path)
    assert str(caught.value) == (
        f"load_shop(): cannot read {largest}: the file is {size} bytes, over the cap of {size - 1} bytes "
        "(toolkit.course.shop.MAX_DATA_BYTES). Fix: keep the shop's data to what its questions need, or pass a "
        "folder of smaller files"
    )
    monkeypatch.setattr(shops, "MAX_DATA_BYTES", size)
    assert load_shop(tmp_path, today="2026-10-25").orders


def test_the_recipients_name_and_address_inside_a_trace_event_are_masked_as_in_the_recipient_line(shop):
    """Before: a courier's '签收人：张伟' or '已送达 浙江省…1201 室' reached the model whole, beside '收件人：张*'."""
    order = shop.orders["SN202610200001"]
    name, address = order["recipient"]["name"], order["recipient"]["address"]
    shipment = dict(shop.shipments["SN202610200001"])
    shipment["events"] = [
        {"time": "2026-10-23 10:00", "text": f"【杭州】已签收，签收人：{name}，送达 {address}"},
        {"time": "2026-10-23 08:00", "text": f"【杭州】派送中，收件人 {name.strip()} 电话 13812345678"},
    ]
    other = Shop(shop.orders, {**shop.shipments, "SN202610200001": shipment}, shop.policies, TODAY)
    text = run(other, "query_logistics", orderId="SN202610200001")
    assert "- 2026-10-23 10:00 【杭州】已签收，签收人：张*，送达 浙江省杭州市西湖区****" in text
    assert "- 2026-10-23 08:00 【杭州】派送中，收件人 张* 电话 138****5678" in text
    assert name not in text and address not in text and "文三路" not in text
