"""Placeholder names: identifiers in any script; other words between double braces stay text."""

from toolkit.services.templates import fixed_clock, render, variables


def test_identifiers_in_any_script_are_placeholders():
    assert variables("{{订单号}} {{ 名前 }} {{ñame}} {{Σ_1}} {{order_id}}") == [
        "订单号",
        "名前",
        "ñame",
        "Σ_1",
        "order_id",
    ]
    assert render("订单 {{订单号}} / {{ 名前 }}", {"订单号": "SN1", "名前": "山田"}) == "订单 SN1 / 山田"
    # and words that are not identifiers stay as they are
    text = "{{a-b}} {{1st}} {{ two words }} {{}} {{订单.号}} {x} {{{y}}}"
    assert variables(text) == ["y"]
    assert render(text, {"y": "Y"}, fixed_clock("2026-10-20T10:00:00")) == (
        "{{a-b}} {{1st}} {{ two words }} {{}} {{订单.号}} {x} {Y}"
    )
    # a value's braces are never filled again
    assert render("{{q}} {{current_date}}", {"q": "{{current_date}} {{q}}"}, fixed_clock("2026-10-20T10:00:00")) == (
        "{{current_date}} {{q}} 2026-10-20"
    )
