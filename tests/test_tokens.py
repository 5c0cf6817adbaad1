import math

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.tokens import _WIDE, estimate_json_tokens, estimate_tokens


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


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.characters(codec="utf-8")
        | st.sampled_from("订单号。，ＳＮ\u3000\u9fff\uf900\ufaff\uff00\uffef\u2fff\ua000")
    )
)
def test_wide_characters_are_counted_as_matching_each_would(text):
    """`estimate_tokens` counts the wide characters from the runs between them: the same count
    as matching each wide character."""
    wide = len(_WIDE.findall(text))
    assert estimate_tokens(text) == wide + math.ceil((len(text) - wide) / 4)
