"""Well-known token formats: a table of families with their documented shapes, one pattern for
all of them, and finding them behind Unicode look-alikes.

- `TOKEN_FAMILIES`: `(family, starts, pattern)` rows; `starts` are literal texts one of which
  every token of the family holds (a text with none of them holds no such token: `scrub` skips
  the pattern on it);
- `KNOWN_TOKENS`: the rows' patterns as one alternation, so a text is read once, not once per
  family; `TOKEN_STARTS`: every row's starts; `may_hold_token`: whether a text holds one of them;
- `mask_lookalikes(text, mask)`: the tokens written with characters that look like ASCII ones —
  full-width forms (`ｓｋ－ｐｒｏｊ…`, what a Chinese input method types in full-width mode),
  mathematical letters (`𝐬𝐤-…`), any other form NFKC folds to ASCII, Unicode hyphens (`‐`, `‑`,
  `−`) and invisible characters inside a token (zero-width space, soft hyphen) — replaced by
  `mask`, and nothing else changed.

Leaves out: tokens with no fixed start (Mistral's and Azure's keys are bare random runs: only
their labels or the environment give them away) and letters of other scripts that merely look
alike (Cyrillic `ѕ` for `s`: NFKC keeps them, and so does this).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

TOKEN_FAMILIES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    # Shapes as the issuers document them, or as gitleaks' rules write them
    # (https://github.com/gitleaks/gitleaks, config/gitleaks.toml). A length is a lower bound, so
    # a key that grows keeps matching; a start inside an ASCII word (`task-…`, `ahf_…`) is none
    # (`KNOWN_TOKENS`).
    # OpenAI (`sk-…`, `sk-proj-…`, `sk-svcacct-…`), Anthropic (`sk-ant-api03-…`), OpenRouter
    # (`sk-or-v1-…`), DeepSeek and most OpenAI-compatible gateways: `sk-` and a random run.
    ("OpenAI-style sk-", ("sk-",), r"sk-[\w-]{16,}"),
    ("SendGrid", ("SG.",), r"SG\.[\w-]{8,}\.[\w-]{8,}"),
    ("GitHub", ("gh",), r"gh[pousr]_\w{20,}"),
    ("GitHub fine-grained", ("github_pat_",), r"github_pat_\w{20,}"),
    # Slack: bot, user, app (legacy), refresh, config and workspace tokens start with their digits;
    # `xoxo-` (legacy) only as digits and dashes, so "xoxo-hugs-…" is a word, not a token.
    ("Slack", ("xox",), r"xox[abeprs]-[\w-]{10,}|xoxo-\d+-[\w-]{8,}"),
    ("Slack app-level", ("xapp-",), r"xapp-\d-[\w-]{10,}"),
    ("AWS access key", ("AKIA", "ASIA"), r"(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("Google API key", ("AIza",), r"AIza[\w-]{30,}"),
    # Stripe: secret `sk_`, restricted `rk_`, publishable `pk_`; live, test and prod; webhook secrets.
    ("Stripe", ("k_live_", "k_test_", "k_prod_"), r"[rsp]k_(?:live|test|prod)_\w{16,}"),
    ("Stripe webhook", ("whsec_",), r"whsec_[A-Za-z0-9]{24,}"),
    # GitLab: personal, deploy, runner, pipeline-trigger, feed, incoming-mail, OAuth-app, SCIM,
    # agent, feature-flag tokens.
    (
        "GitLab",
        ("glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glimt-", "gloas-", "glsoat-", "glagent-", "glffct-"),
        r"gl(?:pat|dt|rt|ptt|ft|imt|oas|soat|agent|ffct)-[\w-]{20,}",
    ),
    ("Hugging Face", ("hf_",), r"hf_[A-Za-z0-9]{30,}"),
    ("Hugging Face organisation", ("api_org_",), r"api_org_[A-Za-z0-9]{30,}"),
    ("npm", ("npm_",), r"npm_[A-Za-z0-9]{36,}"),
    # PyPI (and TestPyPI) upload tokens: a macaroon, base64 that starts `AgE`.
    ("PyPI", ("pypi-AgE",), r"pypi-AgE[\w-]{50,}"),
    ("Groq", ("gsk_",), r"gsk_[A-Za-z0-9]{32,}"),
    ("Perplexity", ("pplx-",), r"pplx-[A-Za-z0-9]{40,}"),
    ("JWT", ("eyJ",), r"eyJ[\w-]+\.[\w-]+\.[\w-]*"),
)
"""The families `scrub` knows: `(family, starts, pattern)`. Patterns are case-sensitive."""

KNOWN_TOKENS = re.compile("|".join(rf"\b(?:{pattern})" for _, _, pattern in TOKEN_FAMILIES), re.ASCII)
"""Every row's pattern, read in ASCII (`\\w` is `[A-Za-z0-9_]`): a token starts after no ASCII
letter, digit or `_` (every start is a letter: `\\b` says that), and ends at the first character
outside its shape. (With Unicode's `\\w`, Chinese, which puts no blank around a key, hid the
start of `密钥sk-…` and was taken as the key's end: `sk-…已失效` lost `已失效`. A look-behind
instead of `\\b` costs fifty times as much: the engine tries it at every position.)"""
TOKEN_STARTS = tuple(start for _, starts, _ in TOKEN_FAMILIES for start in starts)


TOKEN_HINTS = (
    *("sk-", "SG.", "gh", "github_pat_", "xox", "xapp-", "AKIA", "ASIA", "AIza", "k_"),
    *("whsec_", "gl", "hf_", "api_org_", "npm_", "pypi-AgE", "pplx-", "eyJ"),
)
"""Texts one of which every start in `TOKEN_STARTS` holds (`gh` for `ghp_`, `gho_`, …,
`gl` for GitLab's ten, `k_` for Stripe's and Groq's `gsk_`; a test holds every start to one): a
text with none of them holds no token (`may_hold_token`)."""


def may_hold_token(text: str) -> bool:
    """Whether `text` may hold a `KNOWN_TOKENS` token: an ASCII text holds one of `TOKEN_HINTS`
    (eighteen substring searches in C, some 21,000 instructions for a 250-character error text,
    against 43,000 for one search of `TOKEN_START`, which the engine tries at each letter); any
    other text, one of `TOKEN_STARTS` (`TOKEN_START`: there a substring search first widens each
    hint to the text's width, and the pattern costs less than half as much)."""
    if text.isascii():
        for char, hints in HINTS_BY_CHARACTER:  # a hint's character first: one quick scan for a group of them
            if char in text:
                for hint in hints:
                    if hint in text:
                        return True
        return False
    return TOKEN_START.search(text) is not None


_RARE_FIRST = "_-JAGKXxqz.Ph"
"""Characters an error text seldom holds, the rarest first: each hint is looked for only in a text
that holds its first one of these (or its last character)."""


def _by_character(hints: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`hints` grouped by a character each of its group holds (`_RARE_FIRST`'s first in it, else its last)."""
    groups: dict[str, list[str]] = {}
    for hint in hints:
        char = next((c for c in _RARE_FIRST if c in hint), hint[-1])
        groups.setdefault(char, []).append(hint)
    return tuple((char, tuple(group)) for char, group in groups.items())


HINTS_BY_CHARACTER = _by_character(TOKEN_HINTS)
"""`TOKEN_HINTS` grouped by one character that each hint of a group holds: a text without that
character holds none of them, and one scan for a character (a `memchr`) costs less than one for a
hint, so `may_hold_token` looks for a group's hints only in a text that holds its character (an
argument error of 110 characters: 12,500 instructions for the eighteen hints, then some 5,000).
`tests/test_token_formats.py` holds the groups to the hints, and `may_hold_token` to every hint read."""


def _trie(words: list[str]) -> str:
    """A pattern matching any of `words` (none empty), their common starts written once:
    `gl(?:dt\\-|pat\\-)` for `gldt-` and `glpat-`, so the engine tries fewer branches at each letter."""
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(word[0], []).append(word[1:])
    branches = [re.escape(first) + ("" if "" in rests else _trie(rests)) for first, rests in sorted(groups.items())]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


TOKEN_START = re.compile(_trie(list(TOKEN_STARTS)))
"""Any of `TOKEN_STARTS` (`may_hold_token` on a text outside ASCII)."""


_HYPHENS = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
_FOLDS = str.maketrans({**dict.fromkeys(_HYPHENS, "-"), **dict.fromkeys(_INVISIBLE)})
"""Unicode hyphens and dashes → `-`; invisible characters (soft hyphen, zero-width space and
joiners, word joiner, byte-order mark) → nothing. NFKC keeps all of these as they are."""


_FOLDABLE = re.compile(
    "[\u00aa\u00b2\u00b3\u00b9\u00ba\u00bc-\u00be\u0132\u0133\u013f\u0140\u0149\u017f\u01c4-\u01cc"
    "\u01f1-\u01f3\u02b0-\u02e3\u1d2c-\u1dbb\u1e9a\u2024-\u2026\u2070-\u209c\u20a8\u2100-\u2189"
    "\u2460-\u24ea\u2c7c\u2c7d\u3250-\u33ff\ua7f2-\ua7f4\ufb00-\ufb06\ufe19-\ufe63"
    "\uff0d\uff0e\uff10-\uff19\uff21-\uff3a\uff3f\uff41-\uff5a\U000107a5\U0001d400-\U0001d7ff"
    f"\U0001f100-\U0001f190\U0001fbf0-\U0001fbf9{_HYPHENS}{_INVISIBLE}]"
)
"""Every character outside ASCII whose folded form (`_folded_char`) holds a letter, digit, `_`,
`-` or `.`, or is empty (a test reads all of Unicode to hold this): superscripts, letter-like
symbols (`K`, `℡`), circled and squared letters (`ⓐ`, `㎏`), ligatures, full-width letters and
digits, mathematical letters, hyphens, invisible characters. A text with none of them is its own
folded form as far as a token can tell (full-width `：`, `，`, `（` are not among them: Chinese
prose skips the fold)."""


def mask_lookalikes(text: str, mask: str | Callable[[re.Match[str]], str]) -> str:
    """`text` with each token that is one only once its look-alikes are folded (`_folded_char`)
    replaced by `mask` (a text, or a function of the match in the folded text). An ASCII text
    is returned as it is; so is one that holds no token even folded (one normalisation and one
    search, in C, the usual case)."""
    if text.isascii() or _FOLDABLE.search(text) is None:
        return text
    folded = unicodedata.normalize("NFKC", text).translate(_FOLDS)
    if not may_hold_token(folded) or KNOWN_TOKENS.search(folded) is None:
        return text
    return masked_in_view(text, mask)


def may_fold(text: str) -> bool:
    """Whether any character of `text` is a look-alike that folds (`_FOLDABLE`; one search in C)."""
    return _FOLDABLE.search(text) is not None


def folded_view(text: str) -> tuple[str, list[int]] | None:
    """`text` with each look-alike character (`_FOLDABLE`) folded as a token's letters read it
    (`_folded_char`: `ＤＢ＿ＰＡＳＳ` → `DB_PASS`, `pass\u200bword` → `password`), every other character
    kept (`：`, `＝`, `，` stay full-width, as Chinese prose writes them); and, for each character of
    that view, the index of the character of `text` it came from. `None` when nothing in `text`
    folds (every ASCII text, most Chinese prose)."""
    if text.isascii() or _FOLDABLE.search(text) is None:
        return None
    pieces: list[str] = []
    origin: list[int] = []
    pos = 0
    for match in _FOLDABLE.finditer(text):
        i = match.start()
        folded = _folded_char(text[i])
        pieces += [text[pos:i], folded]
        origin += [*range(pos, i), *[i] * len(folded)]
        pos = i + 1
    pieces.append(text[pos:])
    origin += range(pos, len(text))
    return "".join(pieces), origin


def masked_in_view(text: str, mask: str | Callable[[re.Match[str]], str]) -> str:
    """`mask_lookalikes` without its shortcuts (the plain definition): the text folded character by
    character, each token found in that view replaced in the text, where its characters came from."""
    chars, origin = _folded_with_origins(text)
    view = "".join(chars)
    out, pos = [], 0
    for match in KNOWN_TOKENS.finditer(view):
        start, end = origin[match.start()], origin[match.end() - 1] + 1
        if start < pos:
            continue
        out += [text[pos:start], mask if isinstance(mask, str) else mask(match)]
        pos = end
    return "".join(out) + text[pos:] if out else text


def _folded_with_origins(text: str) -> tuple[list[str], list[int]]:
    """The text folded character by character (`_folded_char`), and for each folded character
    the index of the character of `text` it came from."""
    chars: list[str] = []
    origin: list[int] = []
    for i, char in enumerate(text):
        folded = _folded_char(char)
        chars.extend(folded)
        origin.extend([i] * len(folded))
    return chars, origin


def _folded_char(char: str) -> str:
    """One character as a token's letters read it: ASCII as it is, a hyphen as `-`, an invisible
    character as nothing, any other as NFKC writes it (`ｓ` → `s`, `𝐬` → `s`, `ﬁ` → `fi`)."""
    if char.isascii():
        return char
    return unicodedata.normalize("NFKC", char).translate(_FOLDS)
