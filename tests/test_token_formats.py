"""Well-known token formats (`toolkit.tools.token_formats`): every family is masked by `scrub`, also
behind Unicode look-alikes, and ordinary text that merely resembles a token is left alone."""

import base64
import random
import unicodedata

import pytest

from toolkit.tools.redact import REDACTED, sanitize, scrub
from toolkit.tools.token_formats import (
    KNOWN_TOKENS,
    TOKEN_FAMILIES,
    TOKEN_HINTS,
    TOKEN_STARTS,
    mask_lookalikes,
    may_hold_token,
)

R = REDACTED
_RUN = "AbCdEf0123456789"

SAMPLES = {
    "OpenAI-style sk-": [
        "sk-proj-" + _RUN * 3,
        "sk-ant-api03-" + "a1" * 46 + "AA",
        "sk-or-v1-" + "0123456789abcdef" * 4,
    ],
    "SendGrid": ["SG.aBcDeFgHiJkLmNoPqRsTuV.0123456789abcdefghijKLMNOPQRstuvwxyzABCDEFG"],
    "GitHub": ["ghp_0123456789abcdefghijABCDEFGHIJKLMNOP", "gho_0123456789abcdefghijABCDEFGHIJKLMNOP"],
    "GitHub fine-grained": ["github_pat_11ABCDEFG0123456789_abcdefghijklmnop"],
    "Slack": ["xoxb-1234567890-1234567890123-AbCdEf0123", "xoxp-9876-5432-zyxwvutsrq", "xoxo-1234567890-12-abcdef01"],
    "Slack app-level": ["xapp-1-A0123456789-1234567890123-abcdef0123456789"],
    "AWS access key": ["AKIAABCDEFGHIJKLMNOP", "ASIAABCDEFGHIJKLMNOP"],
    "Google API key": ["AIzaSyA1234567890abcdefghijklmnopqrstuv"],
    "Stripe": ["sk_live_51HxYzAbCdEfGhIjKl", "rk_live_51HxYzAbCdEfGhIjKl", "sk_prod_51HxYzAbCdEfGhIjKl"],
    "Stripe webhook": ["whsec_" + _RUN * 2],
    "GitLab": ["glpat-abcdefghij0123456789", "gldt-abcdefghij0123456789", "glrt-abcdefghij0123456789"],
    "Hugging Face": ["hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"],
    "Hugging Face organisation": ["api_org_abcdefghijklmnopqrstuvwxyzABCDEFGH"],
    "npm": ["npm_" + "aB3" * 12],
    "PyPI": ["pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejAxMjM0NTY3ODkAAixbWyJwcm9qZWN0cyJd"],
    "Groq": ["gsk_" + _RUN * 3 + "ABCD"],
    "Perplexity": ["pplx-" + _RUN * 3],
    "JWT": ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2hlcmU"],
}
_ALL = [(family, token) for family, tokens in SAMPLES.items() for token in tokens]


def test_every_family_of_the_table_has_samples_here():
    assert set(SAMPLES) == {family for family, _, _ in TOKEN_FAMILIES}


@pytest.mark.parametrize(("family", "token"), _ALL)
def test_every_family_is_masked_in_a_sentence(family, token):
    assert scrub(f"the gateway said: key {token} was revoked.") == f"the gateway said: key {R} was revoked."
    assert scrub(token) == R
    assert scrub(f"令牌 {token} 无效") == f"令牌 {R} 无效"


@pytest.mark.parametrize(("family", "token"), _ALL)
def test_each_sample_holds_one_of_its_familys_starts(family, token):
    """`scrub` skips the pattern on a text holding none of `TOKEN_STARTS`: each token must hold one."""
    starts = next(s for f, s, _ in TOKEN_FAMILIES if f == family)
    assert any(start in token for start in starts)
    assert set(starts) <= set(TOKEN_STARTS)


def test_every_start_holds_a_hint_so_may_hold_token_never_skips_a_token():
    """`scrub` and `mask_lookalikes` skip the pattern on a text for which `may_hold_token` is False."""
    assert [start for start in TOKEN_STARTS if not any(hint in start for hint in TOKEN_HINTS)] == []
    for _, token in _ALL:
        assert may_hold_token(f"key {token} was revoked")
        assert may_hold_token(f"订单查询失败，密钥{token}已失效。")
    assert not may_hold_token("HTTPSConnectionPool(host='api.example.com', port=443): Max retries exceeded")
    assert not may_hold_token("订单 SN202610200001 不存在")


def test_the_hints_grouped_by_a_character_are_the_hints_each_holding_its_groups_character():
    """`may_hold_token` looks for a group's hints only in a text holding the group's character."""
    from toolkit.tools.token_formats import HINTS_BY_CHARACTER

    grouped = [hint for _, hints in HINTS_BY_CHARACTER for hint in hints]
    assert sorted(grouped) == sorted(TOKEN_HINTS)
    assert [(char, hint) for char, hints in HINTS_BY_CHARACTER for hint in hints if char not in hint] == []


def test_may_hold_token_is_true_exactly_when_an_ascii_text_holds_a_hint():
    """The groups change nothing: on texts made of the hints, cut and whole, their characters and
    others, `may_hold_token` is True exactly when a hint is in the text."""
    pieces = [*TOKEN_HINTS, *(h[:-1] for h in TOKEN_HINTS), *(h[1:] for h in TOKEN_HINTS), *"_-JAGKXxqz.Phlg "]
    pieces += ["Invalid arguments for tool 'add':\n- a: got ", "expected an integer", "sk", "xo", "ey", "A"]
    for seed in range(3000):
        rng = random.Random(seed)
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12)))
        assert may_hold_token(text) == any(hint in text for hint in TOKEN_HINTS), text


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@pytest.mark.parametrize(("family", "token"), _ALL)
def test_a_token_written_in_full_width_letters_is_masked(family, token):
    disguised = _full_width(token)
    assert unicodedata.normalize("NFKC", disguised) == token
    assert scrub(f"key {disguised} was revoked") == f"key {R} was revoked"
    assert scrub(f"订单查询失败，密钥{disguised}已失效。") == f"订单查询失败，密钥{R}已失效。"


@pytest.mark.parametrize(
    "disguised",
    [
        "ｓｋ－ｐｒｏｊ－ＡｂＣｄＥｆ０１２３４５６７８９ｘｙｚ",  # full width, as an input method types it
        "ｓｋ-proj-AbCdEf0123456789xyz",  # full-width start only
        "sk\u2011proj-AbCdEf0123456789xyz",  # a non-breaking hyphen (models write it)
        "sk\u2212proj\u2010AbCdEf0123456789xyz",  # a minus sign and a hyphen
        "sk-proj-AbCdEf\u200b0123456789xyz",  # a zero-width space inside
        "sk-pr\u00adoj-AbCdEf0123456789xyz",  # a soft hyphen inside
        "\U0001d42c\U0001d424-proj-AbCdEf0123456789xyz",  # mathematical bold s and k
        "ｇｈｐ＿０１２３４５６７８９ａｂｃｄｅｆｇｈｉｊＡＢＣＤＥＦＧＨＩＪ",
        "ＡＫＩＡＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰ",
    ],
)
def test_a_token_behind_look_alike_characters_is_masked_and_nothing_else_changes(disguised):
    text = f"错误（代码４０１）：ｋｅｙ {disguised} 已被吊销，请联系管理员。"
    assert scrub(text) == f"错误（代码４０１）：ｋｅｙ {R} 已被吊销，请联系管理员。"
    assert sanitize(text) == f"错误（代码４０１）：ｋｅｙ {R} 已被吊销，请联系管理员。"
    assert scrub(scrub(text)) == scrub(text)


def test_look_alikes_are_replaced_through_a_function_of_the_folded_match():
    text = "键 ｈｆ＿ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚＡＢＣＤ 过期"
    assert mask_lookalikes(text, lambda m: f"<{m.group(0)[:3]}>") == "键 <hf_> 过期"


def _image_base64() -> str:
    rng = random.Random(7)
    return base64.b64encode(bytes(rng.randrange(256) for _ in range(30_000))).decode()


ORDINARY = [
    "订单 SN202610200001 已发货，预计 10 月 22 日送达。",
    "commit 3f2c9a1b7d4e5f60718293a4b5c6d7e8f9012345 fixed it; see a1b2c3d",
    "request id 123e4567-e89b-12d3-a456-426614174000 (uuid4: 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f)",
    "这个技能（skill）需要 sklearn 和 hfile 读取器；先运行 npm_install 脚本，再用 hf_hub_download 下载模型。",
    "Use skills, skeletons and sketches; the npm_config_registry variable and pypi-server package.",
    "xoxo-hugs-and-kisses-from-all-of-us, the task-management-service-v2 and ask-the-support-team-first",
    "full-width order id ＳＮ２０２６１０２０００００１ and ｓｋｉｌｌ ｔｒｅｅ — “引号” 与 ‘单引号’",
    "密码错误：密码长度不能少于8位。请重新输入；如有疑问请联系客服 400-820-8820。",
    "AKIA is a prefix; AIza too; sk- alone; gh_ and hf_ and npm_ and glpat- without a key after them.",
    "a non\u2011breaking hyphen in prose, a soft\u00adhyphen and a zero\u200bwidth space change nothing",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_that_resembles_a_token_is_left_alone(text):
    assert scrub(text) == text


def test_base64_of_an_image_in_a_tool_result_is_left_alone():
    payload = _image_base64()
    text = f'{{"image": "{payload}", "caption": "包裹照片"}}'
    assert KNOWN_TOKENS.search(payload) is None
    assert scrub(text) == text
    assert mask_lookalikes(text, R) == text


_PIECES = [
    "sk-", "proj-", "AbCdEf0123456789", "ｓｋ", "－", "\u2011", "\u200b", "\u00ad", "ｇｈｐ＿", "hf_", "ＡＫＩＡ",
    "ABCDEFGH", "\U0001d42c", "ſ", "K", "订单", "，", "：", " ", "[REDACTED]", "glpat", "-", "npm_", "pypi-AgE",
    "０１２３４５６７８９", "ａｂｃｄｅｆｇｈｉｊ", "eyJ", ".", "xox", "b-", "1234567890",
]  # fmt: skip


def test_the_shortcuts_of_mask_lookalikes_skip_only_texts_without_a_disguised_token():
    """One normalisation and one search decide whether to fold character by character: what comes
    out is what the plain definition (`masked_in_view`, on every text) gives."""
    from toolkit.tools.token_formats import masked_in_view

    changed = 0
    for seed in range(3000):
        rng = random.Random(seed)
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 25)))
        plain = masked_in_view(text, R) if not text.isascii() else text
        assert mask_lookalikes(text, R) == plain, text
        changed += plain != text
    assert changed > 200


def test_every_character_that_folds_into_a_token_is_one_the_gate_looks_for():
    """`mask_lookalikes` folds a text only when it holds one of `_FOLDABLE`'s characters: all of
    Unicode is read to check that each character whose folded form could be (part of) a token is
    among them."""
    from toolkit.tools.token_formats import _FOLDABLE, _folded_char

    token_chars = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")
    missing = [
        f"U+{cp:04X}"
        for cp in range(0x80, 0x110000)
        if (0xD800 > cp or cp > 0xDFFF)
        and ((folded := _folded_char(chr(cp))) == "" or not token_chars.isdisjoint(folded))
        and _FOLDABLE.fullmatch(chr(cp)) is None
    ]
    assert missing == []
