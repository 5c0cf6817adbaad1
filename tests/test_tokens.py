import math

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit import tokens
from toolkit.tokens import _WIDE, array_tokens, estimate_json_tokens, estimate_tokens, json_counts, text_counts


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


def test_the_table_counts_every_code_point_as_the_regex_does():
    """`_count_wide_table` (long texts) against the definition, each of the 1,114,112 code points
    once (lone surrogates and characters past U+FFFF included), in blocks of 4,096."""
    for start in range(0, 0x110000, 4096):
        block = "".join(map(chr, range(start, start + 4096)))
        assert tokens._count_wide_table(block) == tokens._count_wide_runs(block) == len(_WIDE.findall(block)), hex(
            start
        )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.characters(codec="utf-8") | st.sampled_from("订单号。，ＳＮ\u3000\u9fff\uf900\uffef\U0001f600")
        ),
        min_size=1,
    ),
    st.integers(min_value=0, max_value=600),
)
def test_a_long_text_is_counted_as_the_definition_counts_it(pieces, repeat):
    text = "".join(pieces) * (1 + repeat // max(1, len("".join(pieces))))
    assert tokens._count_wide(text) == tokens._count_wide_runs(text)
    assert text_counts(text)[0] == len(_WIDE.findall(text))


def test_the_table_is_used_from_the_long_threshold_on(monkeypatch):
    used = []
    monkeypatch.setattr(tokens, "_count_wide_table", lambda text: used.append(len(text)) or 0)
    tokens._count_wide("中" * (tokens._LONG - 1))
    tokens._count_wide("中" * tokens._LONG)
    assert used == [tokens._LONG]


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from('订单，ＳＮ"\\\n\x00\x1f\u2028')),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_JSON, max_size=6))
def test_an_array_is_counted_from_its_items_counts(items):
    """`array_tokens` of the items' `json_counts` added up is `estimate_json_tokens` of the list:
    what lets a scripted model count a growing conversation without writing it again."""
    counts = [json_counts(item) for item in items]
    wide, narrow = sum(w for w, _ in counts), sum(n for _, n in counts)
    assert array_tokens(wide, narrow, len(items)) == estimate_json_tokens(items)


def test_an_empty_array_and_one_item():
    assert array_tokens(0, 0, 0) == estimate_json_tokens([]) == 1
    assert array_tokens(*json_counts("订单"), 1) == estimate_json_tokens(["订单"]) == 2 + 1


def test_text_counts_are_what_estimate_tokens_reads():
    assert text_counts("订单 SN") == (2, 3)
    assert text_counts("") == (0, 0)


def test_korean_counts_one_token_per_character_as_chinese_and_japanese_do():
    """Before: Hangul was not among the wide characters, so "안녕하세요" (5 syllables) was 2 tokens
    and a `TokenWindow` kept about four times the Korean text it was sized for."""
    assert estimate_tokens("안녕하세요") == 5
    assert estimate_tokens("ᄀᄂ") == 2  # Hangul Jamo (U+1100 block)
    assert estimate_tokens("ꥠힰ") == 2  # Jamo extended A and B
    assert estimate_tokens("주문 SN2026") == 2 + 2  # a syllable each, then " SN2026" as other text
    assert tokens._count_wide_table("안녕" * 300) == 600


def test_an_ideograph_past_the_first_plane_counts_one_token_as_the_others_do():
    """Before: `𠮷` (U+20BB7, in names) and the other ideographs of extensions B on counted a quarter."""
    assert estimate_tokens("𠮷野家") == 3
    assert estimate_tokens("\U0002a6d6\U00030000") == 2
    assert tokens._count_wide_table("𠮷" * 600) == 600
    assert estimate_tokens("😀😀😀😀") == 1  # an emoji is no CJK character: a quarter, as before
