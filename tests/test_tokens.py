from toolkit.tokens import estimate_json_tokens, estimate_tokens


def test_cjk_characters_count_one_each():
    assert estimate_tokens("订单号") == 3
    assert estimate_tokens("ＳＮ") == 2  # full-width forms are wide too


def test_other_text_counts_a_token_per_four_characters_rounded_up():
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("查 SN202610200001") == 1 + 4


def test_json_is_counted_compact_and_sorted():
    assert estimate_json_tokens({"b": 1, "a": "中"}) == estimate_tokens('{"a":"中","b":1}')
