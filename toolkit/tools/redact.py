"""Sanitising text before a model (or a trace, a cassette, a log) sees it.

A tool's exception message goes to the model verbatim (LangChain4j's default too), database
connection string and all. Two functions:

- `scrub(text)` removes secrets and file paths and changes nothing else (used for the trace
  view, cassettes and `client.exchanges`; `scrub(scrub(t)) == scrub(t)`, so a recorded request
  and the same request scrubbed at replay still match); `scrub_json` does it to every string
  of a request or response body; `scrub_secrets(text)` removes the secrets only (exercise
  feedback and grade rows, which name the learner's own paths);
- `sanitize(text)` also drops stack traces and long random-looking runs and cuts the text to
  `LIMIT` characters (used for what a failing tool tells the model).

`scrub` first shortens inline data (`data:image/png;base64,…` → `data:image/png;base64,[elided:
1,234 bytes, sha256 1a2b3c4d5e6f]`: a tool's image is neither kept whole in a cassette nor cut
into pieces by the rules below, and a secret hidden in it is gone), then removes, in order:

1. the values of secret-looking environment variables wherever they appear bare
   (`LLM_API_KEY`, `DB_PASS`, `…_TOKEN`, … with a value of 6+ characters);
2. private-key blocks (PEM, GnuPG's, SSH2's); credentials in URLs (`postgres://user:pw@host` → `postgres://[REDACTED]@host`);
   `Bearer` / `Basic` / `Token` credentials;
3. passwords on command lines and in SQL: `mysql -p<pw>` (also inside a `CalledProcessError`'s
   argument list), `--password <pw>` (`--pwd <pw>`, `-pw <pw>`), `IDENTIFIED BY '<pw>'`, `PASSWORD '<pw>'`;
4. cookie values (`Cookie: a=…; b=…`, `cookie session=…`);
5. values of labelled secrets: a name whose last part is a secret word (`DB_PASS=`, `SESSION_KEY=`,
   `signing_key: `, `"client_secret": "…"`; a bare `key` only before a value that looks like a secret,
   `_looks_secret`: `key: order_id` is data, or as a URL query's parameter, `?key=abc123`, whatever its
   length), and so in a JSON string, `\\"api_key\\": \\"…\\"`, as a raw
   body holds a model's JSON answer; `…?key=…&q=`, `X-Api-Key:` …; and percent-encoded, as a URL
   inside a query value writes them: `next=https%3A%2F%2Fapp%2Fcb%3Ftoken%3D…`). An unquoted value runs
   to the next space (to the next `&` inside a URL query), so `DB_PASS=Tr0ub4dor&3` goes whole;
   and in prose: `password is hunter2`, `secret key was 'Sup3r'`, `api token is …` (a value that is
   a plain lower-case word is kept: `password is incorrect` says what went wrong). Password's
   short forms count as it does (`pw=`, `DB_PWD:`, `pwd is …`), as a name part or a word of their
   own only: `upward:`, `npw=` and "password reset" are no labels; and in Chinese, Japanese and
   Korean (`CJK_SECRET_WORDS`): `数据库密码：hunter2`, `密钥＝…`, `密码是 hunter2`, `パスワードは …`,
   `비밀번호는 …`, `API_KEY：…` (a value that starts with a letter of these scripts is prose and
   is kept: `密码错误：密码长度不能少于8位`); and behind look-alike characters (`ＤＢ＿ＰＡＳＳ＝…`,
   `ａｐｉ＿ｋｅｙ：…`, `pass\u200bword=…`: the label read folded, the value masked where it stands);
6. tokens in well-known formats, the families of `toolkit.tools.token_formats` (OpenAI,
   Anthropic and OpenRouter `sk-`, SendGrid `SG.x.y`, GitHub `ghp_`/`github_pat_`, Slack `xox?-`,
   AWS `AKIA`, Google `AIza`, Stripe `sk_live_`, GitLab `glpat-`, Hugging Face `hf_`, npm `npm_`,
   PyPI `pypi-AgE…`, JWTs, …), in one pass; in a text outside ASCII also behind look-alike
   characters (full-width `ｓｋ－…`, Unicode hyphens, zero-width characters inside);
7. home-directory and absolute file paths, quoted or bare, POSIX and Windows, `file://` URLs,
   inside `File "…"` lines too: each becomes `<path>`; a `/…` right after an HTTP method word
   (`POST /v1/chat/completions`, a gateway's "not found") is a URL path and is kept.

`sanitize` then removes any other letters-and-digits run of 32+ characters (UUIDs are kept:
they are usually ids the model needs), and the memory address in a repr the text quotes
(`<Order object at 0x7f…>` → `<Order object>`: the same text every run, as a returned value's).
It errs towards removing too much.

Leaves out: personal data (names, phone numbers) — mask those where the data is produced; and
secrets with no label, no known format and no environment variable (a bare short password);
a secret written in Chinese, Japanese or Korean letters after a label (`密码：密码甲`). Text that
arrives in pieces: `toolkit.tools.redact_stream`.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from toolkit.errors import ToolkitError, a_or_an
from toolkit.tools.addresses import without_addresses
from toolkit.tools.token_formats import KNOWN_TOKENS as _KNOWN_TOKENS
from toolkit.tools.token_formats import folded_view, mask_lookalikes, may_fold, may_hold_token
from toolkit.unicode import cut, well_formed

REDACTED = "[REDACTED]"
PATH = "<path>"
LIMIT = 500
_READ_AT_MOST = 20_000
"""A message longer than this is cut (at a space) before it is sanitised."""

_SECRET_WORDS = frozenset(
    "pass password passwd pwd pw passphrase secret token key apikey auth authorization credential "
    "credentials cookie session sessionid sid signature sig privatekey jwt bearer otp dsn".split()
)
_NOT_SECRET_VARIABLES = frozenset({"PWD", "OLDPWD"})
_SECRET_ENDINGS = (
    *("password", "passwd", "secret", "token", "apikey", "passphrase", "privatekey"),
    *("appkey", "accesskey", "secretkey", "authkey", "sessionkey", "masterkey", "signkey", "signingkey"),
)
"""What a secret name's letters may end with, written as one word (`dbpassword`, `BAIDU_APPKEY`): the
"key" of an app, an access, a session... so written is as secret as `app_key` (while `monkey`, `hotkey`
are no keys at all)."""

_TRACEBACK = "Traceback (most recent call last)"
_FILE_LINE = re.compile(r'^[^\S\n]*+File "[^"]*", line \d+.*\n?(?:^    .*\n?)?', re.MULTILINE)
"""A traceback's `File "…", line N` line and its code line. Its leading blanks are read within the
line (`\\s*` read on across blank lines: from each line start to the next text, a cost of the square
of a run of blank lines, a second for 20,000 of them), and possessively."""
_PEM = re.compile(
    r"-{4,5} ?BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)? ?-{4,5}.*?(?:-{4,5} ?END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)? ?-{4,5}|\Z)",
    re.S,
)
"""A private-key block, to its END line (or the text's end): PEM (`-----BEGIN RSA PRIVATE KEY-----`,
`OPENSSH`, `ENCRYPTED`, …), GnuPG's `PGP PRIVATE KEY BLOCK` and SSH2's `---- BEGIN SSH2 ENCRYPTED
PRIVATE KEY ----` (RFC 4716)."""
_URL_CREDENTIALS = re.compile(r"(?<![\w+.-])([\w+.-]*://)[^/\s:@]*(?::[^/\s?#]*)?@")
"""`scheme://user:password@`, the password read to the last `@` before a `/`, `?`, `#` or blank (an
unencoded `@` in it, `P@ssw0rd`, as `urlsplit` reads it); tried once per run of scheme characters (each start inside a long
run used to scan to its end: quadratic), the scheme checked by `_SCHEME` (`_url_credentials`)."""
_SCHEME = re.compile(r"(?:^|(?<=[+.-]))[a-zA-Z]")
"""Where a scheme may start in such a run: a letter at a word's start (`\\b[a-zA-Z]`)."""
_AUTH_HEADER = re.compile(r"\b(Bearer|Basic|Token)\s+(?!\[REDACTED\])[\w.~+/=-]{6,}", re.IGNORECASE)
_COMMAND = re.compile(r"\b(?:mysql\w*|mariadb\w*|sshpass|mysqldump|mysqladmin)\b", re.IGNORECASE)
_DASH_P = re.compile(r"(?<=[\s'\"\[,(])-p(?!\[REDACTED\])[^\s'\",\]()]+")
_SSHPASS = re.compile(r"(\bsshpass\s+-p\s*)(?!\[REDACTED\])([^\s'\",\]()]+)")
_LONG_OPTION = re.compile(
    r"(-(?:-?(?:password|passwd|pass|token|secret|api-key|apikey|auth-token)|(?<![\w-]-)-?pwd?)(?:['\"]?,\s*['\"]?|\s+))(?!\[REDACTED\])(\"[^\"]*\"|'[^']*'|[^\s'\",\]()]+)",
    re.IGNORECASE,
)
"""`--password <pw>`, also as items of an argument list (`'--token', 'x'`); password's short forms
(`--pwd`, `-pw`, PuTTY's) only as an option of their own, never the end of a word (`use-pw`). The
pattern starts with its `-` (the engine looks for it in C): what comes before is checked after it."""
_SQL_PASSWORD = re.compile(
    r"\b(IDENTIFIED\s+(?:WITH\s+\w+\s+)?BY\s+|PASSWORD\s*\(\s*|PASSWORD\s+)(\"[^\"]*\"|'[^']*'|(?<=BY )[^\s;,)]+)",
    re.IGNORECASE,
)
_COOKIE = re.compile(r"\b((?:set-)?cookies?\b[ \t]*[:=]?[ \t]*)([^\n]*)", re.IGNORECASE)
_COOKIE_PAIR = re.compile(r"(?<![\w.$-])([\w.$-]+=)([^;,\s]+)")
_SEP_BACK_ESCAPED = re.compile(r"[=:][ \t]*([\"']?)(?:(?<=[\"'])\\)?([\w.-]+)")
"""`name=` / `"name":` read backward, on the reversed text: a separator (`=` or `:`), the blanks
before it, a closing quote or none (escaped or not: `\\"name\\":` is how a JSON string holds a JSON
text, a model's JSON answer in a raw response body), and the run of name characters before that, whole (the
engine looks for a separator in C, instead of trying a pattern at every position of the text).
Each separator has at most one such name before it, and no two overlap, so every one is found;
`_labelled` checks the opening quote and reads the name from the run's first letter or `_`."""
_SEP_BACK = re.compile(r"[=:][ \t]*([\"']?)([\w.-]+)")
"""`_SEP_BACK_ESCAPED` for a text without a backslash, the usual one: the same matches (its escaped
quote can match nothing there), a few percent quicker (`_label_spans` chooses; a test holds them equal)."""
_BLANKS = re.compile(r"[ \t]*")
_BEFORE_NAME = re.compile(r"[^A-Za-z_]*")
_VALUE_ESCAPED = re.compile(r"\\\"[^\"\n]*\\\"|\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'&]+(?:&(?![\w.-]+=)[^\s\"'&]*)*")
_VALUE = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'&]+(?:&(?![\w.-]+=)[^\s\"'&]*)*")
"""`_VALUE_ESCAPED` for a text without a backslash: the same matches (its first choice needs one)."""
_QUOTED_PATH = re.compile(r"([\"'])(?:~(?:[A-Za-z_][\w.-]*)?/|[A-Za-z]:[/\\]|\\\\|/(?=[^\"'\s/]))[^\"'\n]*\1")
_FILE_URL = re.compile(r"\bfile://[^\s\"'<>]*", re.IGNORECASE)
_NOT_AFTER = r"(?<![.:])"
"""A path ends before a colon or full stop that ends it: the sentence's (`database /tmp/m.db: disk I/O error`)."""
_PATH_BODY = r"[^\s/\\\"'<>|,;()\[\]]+(?:/[^\s/\\\"'<>|,;()\[\]]*)*"
_POSIX_PATH = re.compile(
    r"(?:/(?<![\w/\\:.~<>#-]/)|~(?<![\w/\\:.~<>#-]~)(?:[A-Za-z_][\w.-]*)?/)" + _PATH_BODY + _NOT_AFTER
)
"""A path at a `/` or `~` that follows no name or path character, nor `#` (a JSON pointer, `#/$defs/N`, or a
URL's fragment). The check of what comes before
is made after the `/` or `~` is read (`(?<!X/)` there is `(?<![X])` before it), so the pattern
starts with one of two characters and the engine looks for them in C instead of trying the
pattern at every position."""
_WINDOWS_PATH = re.compile(r"(?<![\w])(?:[A-Za-z]:|\\\\[\w.$-]+)\\[^\s\"'<>|,;()]*" + _NOT_AFTER)
_LONG_RUN = re.compile(r"[A-Za-z0-9+/_-]{32,}={0,2}")
_RUN_BYTES = bytes(ord("x") if re.fullmatch(r"[A-Za-z0-9+/_-]", chr(byte)) else ord(" ") for byte in range(256))
"""A `bytes.translate` table: `x` for a byte of `_LONG_RUN`'s letters (all ASCII), a space for
any other (the bytes of a character outside ASCII are all 0x80 or more)."""
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_DATA_URL = re.compile(r"\bdata:([\w.+-]+/[\w.+-]+)((?:;[\w.+-]+=[\w.+-]+)*);base64,([A-Za-z0-9+/]+={0,2})")
_NAME_PARTS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_PROSE_SECRET = re.compile(
    r"\b((?:p(?:assword|asswd|assphrase|wd?)|secret(?:[ _-]key)?|(?:api|access|private|signing)[ _-]?key"
    r"|(?:api|auth|access|refresh|bearer)[ _-]?token)\s+(?:was set to|is set to|is|was)\s+)"
    r"(\"[^\"\n]*\"|'[^'\n]*'|[^\s\"',;]+)",
    re.IGNORECASE,
)
_PLAIN_WORD = re.compile(r"[a-z]+")

CJK_SECRET_WORDS = (
    *("验证码", "驗證碼", "授权码", "授權碼", "密码", "密碼", "口令", "密钥", "密鑰", "秘钥", "金鑰", "私钥", "私鑰"),
    *(
        "令牌",
        "凭证",
        "凭据",
        "憑證",
        "憑據",
        "パスワード",
        "暗証番号",
        "秘密鍵",
        "トークン",
        "비밀번호",
        "암호",
        "토큰",
    ),
)
"""Secret words of Chinese (simplified and traditional), Japanese and Korean: password, pass
phrase, key, private key, token, credential, one-time and authorisation codes. These scripts put
no space between words, so a label is secret when it *ends* with one (`数据库密码`, `新密码`),
and one that goes on is not (`密码错误`, `密码长度`)."""
_CJK_SEPARATORS = ("\uff1a", "\uff1d")  # full-width `：` and `＝`
_CJK_VERBS = (
    *("设置为", "設置為", "设为", "設為", "改为", "改為", "是", "为", "為"),
    *("は", "が", "는", "은", "이", "가"),
)
"""What says "is" between a secret word and its value: Chinese 是 / 为 (設為, 改为 …), and the
Japanese and Korean particles that mark a subject (`パスワードは`, `비밀번호는`)."""
_CJK_LETTERS = "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_CJK_QUOTES = {"\u201c": "\u201d", "\u300c": "\u300d", "\u300e": "\u300f"}  # “…” 「…」 『…』
_CJK_CLOSING_QUOTE = "[\"'\u201d\u300d\u300f]?"
_CJK_BLANKS = re.compile("[ \t\u3000]*")
_CJK_VALUE = re.compile(
    "(?![:=])(?:\"[^\"\n]*\"|'[^'\n]*'|\u201c[^\u201d\n]*\u201d|\u300c[^\u300d\n]*\u300d|\u300e[^\u300f\n]*\u300f"
    "|[^\\s\"'\u201c\u201d\u2018\u2019\u300c-\u300f\u3001\u3002\u300a\u300b\u3010\u3011\uff01\uff08\uff09\uff0c"
    "\uff1a\uff1b\uff1d\uff1f" + _CJK_LETTERS + "]+)"
)
"""A value after a label in these scripts: quoted (`"…"`, `'…'`, `“…”`, `「…」`, `『…』`), or a
run up to a blank, a quote, a Chinese punctuation mark or a letter of these scripts (a value
that starts with such a letter is prose, not a secret: `密码是必填项`, `パスワードが違います`)."""
_CJK_WORD_LABEL = re.compile(
    "(" + "|".join(CJK_SECRET_WORDS) + ")"
    f"({_CJK_CLOSING_QUOTE}{_CJK_BLANKS.pattern}"
    f"(?:([:=\uff1a\uff1d])|(?:{'|'.join(_CJK_VERBS)})(?:{_CJK_BLANKS.pattern}([:=\uff1a\uff1d]))?)"
    f"{_CJK_BLANKS.pattern})({_CJK_VALUE.pattern})"
)
"""A secret word of `CJK_SECRET_WORDS`, what says what it is, and its value (`_CJK_VALUE`): a
separator (`:`, `=`, full-width `：`, `＝`; blanks around it, a closing quote before it) or a
verb of `_CJK_VERBS` (`密码是 hunter2`)."""
_CJK_VERBS_BACK = "|".join(verb[::-1] for verb in _CJK_VERBS)
_CJK_NAME_BACK = re.compile(
    f"(:|=|\uff1a|\uff1d|{_CJK_VERBS_BACK})(?:{_CJK_BLANKS.pattern}({_CJK_VERBS_BACK}))?"
    f"{_CJK_BLANKS.pattern}({_CJK_CLOSING_QUOTE})([A-Za-z0-9_.-]+)"
)
"""A name in ASCII letters before a full-width separator or a verb (`API_KEY：…`, `token为 …`,
`app_secret为：…`), read backward on the reversed text as `_SEP_BACK` reads `name=`: a separator
or a verb (the engine looks for its first character in C; which of them say what the name is,
`_said_so` decides), a verb before a separator, the blanks and the closing quote before them,
and the whole run of name characters before those."""


def scrub(text: str) -> str:
    """`text` with secrets and file paths replaced, inline data shortened, nothing else changed.

    A step whose every pattern needs a character the text lacks is skipped (`@` for URL
    credentials, `-` for command lines, `=` or `:` for labels, `/` or `\\` for paths), and so
    is a step whose patterns each need a word the text lacks (`_may_hold`: `BEGIN` for a
    private key; `bearer`, `basic` or `token` for an authorisation header, …): the same text,
    without the cost (every error text of a loop went through some fifteen patterns)."""
    text, low = _without_secrets(text)
    return _paths(text, low) if "/" in text or "\\" in text else text


def scrub_secrets(text: str) -> str:
    """`scrub(text)` with its file paths kept: for a text shown to the person who wrote what it
    quotes (an exercise's feedback naming the paths a learner answered, a grade row), where a path
    is the point and only a secret must not show.

    A text it leaves as it is (of at most `PLAIN_KEPT_CHARS` characters) is remembered as such
    (`_PLAIN_SCRUBBED`) while `_secret_values` gives the same list: the same argument error comes back
    round after round (some 55,000 instructions to read, against a set's look-up). What is kept is
    the answer, which is the text: nothing `scrub_secrets` would have hidden. `tests/test_redact.py`
    holds it equal to `_without_secrets` over many generated texts and environment changes."""
    if type(text) is not str or len(text) > PLAIN_KEPT_CHARS:
        return _without_secrets(text)[0]
    values = _secret_values()
    plain = _PLAIN_SCRUBBED
    if plain[0] is values and text in plain[1]:
        return text
    answer = _without_secrets(text, values)[0]
    if answer == text:
        _keep_plain(_PLAIN_SCRUBBED, values, text)
    return answer


PLAIN_KEPT_CHARS = 2_000
"""The longest text `scrub_secrets` and `sanitize` remember as one they leave as it is."""
PLAIN_KEEP = 256
"""How many such texts each remembers at most (then all are forgotten)."""
_PLAIN_SCRUBBED: list[Any] = [None, set()]
"""The secret values (`_secret_values`' list) and the texts `scrub_secrets` leaves as they are under them."""


def _keep_plain(plain: list[Any], values: list[str], text: str) -> None:
    """Remember `text` in `plain` (`_PLAIN_SCRUBBED`, `_PLAIN_SANITIZED`) as left as it is under `values`:
    a new set when the values changed, or when the set holds `PLAIN_KEEP` texts."""
    texts = plain[1]
    if plain[0] is not values or len(texts) >= PLAIN_KEEP:
        texts = set()
        plain[0], plain[1] = values, texts  # (a reader between the two finds the new set empty, or the old
    texts.add(text)  # values with the new set: a miss either way)


def secrets_in(text: str) -> list[str]:
    """The pieces of `text` that `scrub_secrets` writes `[REDACTED]` in place of, in order (`[]`
    when it masks nothing): `Authorization: Bearer x` holds the secret `x`, which a program given
    that text may quote alone. The whole text when the pieces cannot be told apart (it changed
    beyond them: a data URL elided, two values masked side by side)."""
    masked = scrub_secrets(text)
    if masked == text:
        return []
    first, *kept = masked.split(REDACTED)
    if not text.startswith(first):
        return [text]
    pieces, at = [], len(first)
    for number, literal in enumerate(kept, 1):
        end = _piece_end(text, literal, at, last=number == len(kept))
        if end <= at:
            return [text]
        pieces.append(text[at:end])
        at = end + len(literal)
    return pieces


def _piece_end(text: str, literal: str, at: int, last: bool) -> int:
    """Where a masked piece that starts at `at` ends: before `literal`, the text kept after it (the
    text's end for the last), or -1 when `literal` is not there."""
    if last:
        return len(text) - len(literal) if text.endswith(literal) else -1
    return text.find(literal, at + 1) if literal else -1


def _without_secrets(text: str, values: list[str] | None = None) -> tuple[str, str]:
    """`scrub`'s steps before the paths: the text without its secrets, and its `_folded` form
    read before them (which `_paths` reads too); `values` the secret environment values (None:
    `_secret_values()`)."""
    if "base64," in text:
        text = _DATA_URL.sub(_elided, text)
    text = _environment_values(text, values)
    low = _folded(text)  # for `_may_hold`: read once, good for every step
    if "BEGIN" in text:
        text = _PEM.sub(REDACTED, text)
    if "@" in text:
        text = _URL_CREDENTIALS.sub(_url_credentials, text)
    if _may_hold(low, _AUTH_WORDS) and _AUTH_NEAR.search(low):
        text = _AUTH_HEADER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    if "-" in text and _may_hold(low, _COMMAND_WORDS):
        text = _command_lines(text)
    if _may_hold(low, _SQL_WORDS) and _SQL_NEAR.search(low):
        text = _SQL_PASSWORD.sub(lambda m: m.group(1) + _masked(m.group(2)), text)
    if _may_hold(low, _COOKIE_WORDS):
        text = _COOKIE.sub(_cookie, text)
    if "=" in text or ":" in text:
        text = _labelled(text)
    if "%" in text and _ENCODED.search(text):
        text = _labelled_encoded(text)
    folds = not text.isascii() and may_fold(text)  # look-alikes (`ｓｋ－`, `ＤＢ＿ＰＡＳＳ`): masks add none
    if not text.isascii():
        text = _cjk_labelled(text)
    if folds:
        text = _labelled_lookalikes(text)
    if _may_hold(low, _PROSE_WORDS) and _PROSE_NEAR.search(low):
        text = _PROSE_SECRET.sub(_prose_secret, text)
    if len(text) < _SHORT or may_hold_token(text):  # a short text: the pattern is quicker
        text = _KNOWN_TOKENS.sub(REDACTED, text)
    if folds:  # `ｓｋ－…`, `sk‑…`: a token behind look-alike characters
        text = mask_lookalikes(text, REDACTED)
    return text, low


_SHORT = 20
"""Below this many characters, `_KNOWN_TOKENS` is tried without looking for `may_hold_token` first
(callgrind: at 16 characters the two cost about the same, 6,000 instructions; at 48 the look
for the starts costs 7,600 and the pattern 14,300)."""
_AUTH_WORDS = ("bearer", "basic", "token")
"""What `_AUTH_HEADER` needs, one of them (lower-case, as `_may_hold` reads them)."""
_SQL_WORDS = ("identified", "password")
_COMMAND_WORDS = ("mysql", "mariadb", "sshpass", "-pass", "-token", "-secret", "-api", "-auth-token", "-pw")
"""What `_command_lines`' patterns need, one of them: `_COMMAND`'s programs (`-p<pw>` is masked
only on a line naming one; `_SSHPASS` needs `sshpass` as written), `_LONG_OPTION`'s options."""
_COOKIE_WORDS = ("cookie",)
_PROSE_WORDS = ("pass", "secret", "key", "token", "pw")
"""`password`, `passwd`, `passphrase`; `secret`; `… key`; `… token`; `pw`, `pwd` (last: the rarest)."""
_FILE_WORDS = ("file://",)
"""What `_FILE_URL` needs."""
_AUTH_NEAR = re.compile(r"(?:bearer|basic|token)\s")
_SQL_NEAR = re.compile(r"identified|password\s*[(\"']")
_PROSE_NEAR = re.compile(r"(?:password|passwd|passphrase|pwd?|secret|key|token)\s+(?:is|was)\s")
"""What a text's `_folded` form holds where `_AUTH_HEADER`, `_SQL_PASSWORD`, `_PROSE_SECRET`
match, each read after its words are found (case-sensitive patterns that start with a letter:
the engine looks for those in C): a word of the header and a blank; `IDENTIFIED`, or `PASSWORD`
before a parenthesis or a quote (a bare value is taken only after `BY `); the secret's last word,
blanks, `is` or `was`, and a blank. Folding keeps every blank, quote and parenthesis where it
was, and the steps before write none of these after such a word."""


def _may_hold(low: str, words: tuple[str, ...]) -> bool:
    """Whether a pattern of `re.IGNORECASE` that needs one of `words` (lower-case ASCII letters
    and punctuation, in a row) may match the text whose `_folded` form is `low`: exactly when
    `low` holds one of the words.

    `scrub` reads `low` once, before its steps: a step's replacements write ASCII text with no
    such word in it (`[REDACTED]`, `<path>`, a size and a hash), in brackets that no word runs
    across, so a word a later step needs was in the text before; a word a step removed only
    makes a later step run for nothing. (A plain loop: `any(map(low.__contains__, words))` calls
    each `__contains__` through a method wrapper, which costs more than the search on a short text.)"""
    for word in words:
        if word in low:
            return True
    return False


_ODD_LETTERS = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"))
"""The letters outside ASCII that `re.IGNORECASE` matches with an ASCII letter, other than the
Kelvin sign (whose `lower()` is `k`): `İ` and `ı` for `i`, `ſ` for `s` (`İ.lower()` is two
characters, `i` and a combining dot, which would split a word)."""


def _folded(text: str) -> str:
    """`text` with every character that `re.IGNORECASE` matches with an ASCII letter written as
    that letter in lower case, one character for one: where such a pattern matches a word, the
    folded text holds the word. (Other characters may fold to ASCII letters too; that only
    lets a step run for nothing.)"""
    if not text.isascii():
        for odd, plain in _ODD_LETTERS:
            if odd in text:
                text = text.replace(odd, plain)
    return text.lower()


def scrub_json(value: Any) -> Any:
    """A copy of a JSON-like value with every string scrubbed, and string values under secret names masked."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {
            k: REDACTED if isinstance(v, str) and v and isinstance(k, str) and _masks_field(k, v) else scrub_json(v)
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [scrub_json(v) for v in value]
    return value


def _masks_field(name: str, value: str) -> bool:
    """Whether the string `value` of the field `name` is masked whole: a secret name's, and under a
    bare `key` only one that looks like a secret (`_label_mask`)."""
    return _secret_name(name) and (not _bare_key(name) or _looks_secret(value))


def sanitize(text: str) -> str:
    """`text` without stack traces, secrets, paths and long random runs, at most `LIMIT` characters.

    `sanitized(text)`, remembered: it is a function of the text and of the secret environment
    variables' values alone, and a tool that fails fails again with the same text (a service that
    does not answer, round after round), each costing some 200,000 instructions to read. A text it
    leaves as it is (`out of stock`, up to `PLAIN_KEPT_CHARS` characters) is remembered in a set
    (`_PLAIN_SANITIZED`, as `scrub_secrets` remembers its own): found again by the text's own hash and
    an equality test, no digest made, and what is kept is the answer, nothing it would have hidden.
    Any other answer is kept under the text's BLAKE2b digest (32 bytes; never the text, which may hold
    a secret: some 6,000 instructions for a 250-character text, against 14,600 for SHA-256). Either is
    kept with the list of secret values read before it was made, and given again only while
    `_secret_values` gives that same list (it gives a new one whenever the environment changed, and
    the entry holds the old one, so no other list can have its identity); at most `SANITIZED_KEEP`
    answers and `PLAIN_KEEP` texts, then all forgotten. `tests/test_redact.py` holds it equal to
    `sanitized`."""
    if type(text) is not str:
        return sanitized(text)
    values = _secret_values()
    plain = _PLAIN_SANITIZED
    if plain[0] is values and text in plain[1]:
        return text
    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=32).digest()
    known = _SANITIZED.get(key)
    if known is not None and known[0] is values:
        return known[1]
    answer = sanitized(text)
    if answer == text and len(text) <= PLAIN_KEPT_CHARS:
        _keep_plain(_PLAIN_SANITIZED, values, text)
        return answer
    if len(_SANITIZED) >= SANITIZED_KEEP:
        _SANITIZED.clear()
    _SANITIZED[key] = (values, answer)
    return answer


def sanitized(text: str) -> str:
    """`sanitize(text)` read anew (the plain definition)."""
    return cut(cleaned(text), LIMIT, "...")


SANITIZED_KEEP = 256
"""How many texts' answers `sanitize` keeps at most."""
_SANITIZED: dict[bytes, tuple[list[str], str]] = {}
"""BLAKE2b digest of a text -> (the secret values it was read under, `sanitized(text)`)."""
_PLAIN_SANITIZED: list[Any] = [None, set()]
"""The secret values (`_secret_values`' list) and the texts `sanitize` leaves as they are under them."""


def cleaned(text: str) -> str:
    """`sanitize(text)` at its full length: for a text of one's own making that quotes an error
    (an error policy's), which is not cut, only cleaned."""
    text = without_addresses(scrub(_drop_tracebacks(text)))
    if _may_hold_long_run(text):
        text = _without_long_runs(text)
    return text.strip()


def _without_long_runs(text: str) -> str:
    """`text` with its long random-looking runs masked (`_LONG_RUN`); inside a URL path kept after an
    HTTP method word (`_URL_PATH`, as `_posix_path` keeps it) the run is read per segment (`_LONG_SEGMENT`):
    `/v1/chat/completions/chat/completions` is 38 such letters in a row, and no secret."""
    if "/" not in text or _URL_PATH.search(text) is None:
        return _LONG_RUN.sub(_long_run, text)
    pieces, at = [], 0
    for path in _URL_PATH.finditer(text):
        pieces += [_LONG_RUN.sub(_long_run, text[at : path.start(1)]), _LONG_SEGMENT.sub(_long_run, path.group(1))]
        at = path.end(1)
    return "".join(pieces) + _LONG_RUN.sub(_long_run, text[at:])


def _may_hold_long_run(text: str) -> bool:
    """Whether `text` holds what `_LONG_RUN` matches: 32 of its letters in a row. Looked for
    as 32 `x` in the text's UTF-8 bytes written through `_RUN_BYTES`, in C at a few instructions
    a byte (the pattern is tried at each letter, which reads on to the end of its word: some 60,000
    instructions for a 250-character error text). A shorter text has none."""
    return len(text) >= len(_RUN_OF_32) and _RUN_OF_32 in text.encode("utf-8", "surrogatepass").translate(_RUN_BYTES)


_RUN_OF_32 = b"x" * 32


@dataclass(frozen=True)
class ExceptionSummary:
    """What the model may learn of an exception: its type's name and a sanitised message."""

    type_name: str
    message: str
    """Sanitised; empty when the exception has no message or its `__str__` misbehaves."""
    written_for_the_model: bool = False
    """True for toolkit's own errors (`ToolkitError`): their message is already the model's text."""

    def text(self) -> str:
        """`TypeName: message` for a tool's own exception (the type alone when it has no message);
        the message alone for toolkit's errors, whose text is written for the model."""
        return _summary_text(self.type_name, self.message, self.written_for_the_model)


def _summary_text(type_name: str, message: str, written_for_the_model: bool) -> str:
    """`ExceptionSummary.text()` of a summary with these fields."""
    if written_for_the_model and message:
        return message
    text = f"{type_name}: {message}" if message else type_name
    return cut(text, LIMIT, "...")


def summarize_exception(exc: BaseException) -> ExceptionSummary:
    """Type name and sanitised message; never raises, whatever the exception's `__str__` does."""
    return ExceptionSummary(_type_name(exc), sanitize(_message(exc)), isinstance(exc, ToolkitError))


def describe_exception(exc: BaseException) -> str:
    """An exception as one sanitised line: `summarize_exception(exc).text()`, without making the
    summary (every failing call of a loop is described)."""
    return _summary_text(_type_name(exc), sanitize(_message(exc)), isinstance(exc, ToolkitError))


def _type_name(exc: BaseException) -> str:
    try:
        name = type(exc).__name__
    except Exception:
        return "Exception"
    return name if isinstance(name, str) and name.isidentifier() else "Exception"


def _message(exc: BaseException, depth: int = 0) -> str:
    """`str(exc)`, or "" if it raises, recurses or returns something that is not text. An
    exception group's text names its first exceptions too (`_with_members`). A lone surrogate
    in it (a file name decoded with `surrogateescape`, half of an emoji from JSON) is U+FFFD
    (`toolkit.unicode.well_formed`): the line goes to a log, a raised error and memory, which
    UTF-8 cannot carry it to (a log file's handler printed "--- Logging error ---")."""
    try:
        message = exc.__str__()
    except (Exception, SystemExit):  # RecursionError included; SystemExit: code written for the command line
        return ""
    if type(message) is not str:
        return ""
    message = _read_part(message).strip()
    if isinstance(exc, BaseExceptionGroup) and depth < _GROUP_DEPTH:
        message = _read_part(_with_members(message, exc, depth))
    return well_formed(message)


def _read_part(message: str) -> str:
    """`message`, or its first `_READ_AT_MOST` characters cut at a space."""
    if len(message) <= _READ_AT_MOST:
        return message
    cut = message[:_READ_AT_MOST]
    return cut[: cut.rfind(" ")] if " " in cut else ""


_GROUP_SHOWN = 3
"""The exceptions of a group named in its text; the rest are counted."""
_GROUP_DEPTH = 3
"""How deep groups inside groups are named."""


def _with_members(message: str, group: BaseExceptionGroup[BaseException], depth: int) -> str:
    """`unhandled errors in a TaskGroup (1 sub-exception): ConnectError: …`: a group's own text
    says only how many it holds (anyio's and asyncio's TaskGroup wrap every failure so)."""
    members = group.exceptions
    if not isinstance(members, tuple):
        return message
    parts = [_member_text(member, depth + 1) for member in members[:_GROUP_SHOWN]]
    if len(members) > _GROUP_SHOWN:
        parts.append(f"and {len(members) - _GROUP_SHOWN} more")
    if not parts:
        return message
    return f"{message}: {'; '.join(parts)}" if message else "; ".join(parts)


def _member_text(exc: object, depth: int) -> str:
    if not isinstance(exc, BaseException):
        return a_or_an(type(exc).__name__)
    message = _message(exc, depth)
    return f"{_type_name(exc)}: {message}" if message else _type_name(exc)


def _drop_tracebacks(text: str) -> str:
    """`text` without `Traceback (most recent call last)` blocks and `File "…", line …` lines,
    its lines joined with `\\n`. Without a traceback's first line every line is kept, a printable
    text has one line, and without `File "` there is no such line: those steps are skipped."""
    if _TRACEBACK not in text:
        if not text.isprintable():  # every line break is unprintable: a printable text is one line
            text = "\n".join(text.splitlines())
        return _FILE_LINE.sub("", text) if 'File "' in text else text
    return drop_tracebacks_plainly(text)


def drop_tracebacks_plainly(text: str) -> str:
    """`_drop_tracebacks` by reading every line (the plain definition; a test holds them equal)."""
    lines, out, in_trace = text.splitlines(), [], False
    for line in lines:
        if line.strip().startswith(_TRACEBACK):
            in_trace = True
        elif in_trace and (line.startswith(" ") or not line.strip()):
            continue
        else:
            in_trace = False
            out.append(line)
    return _FILE_LINE.sub("", "\n".join(out))


def is_secret_name(name: str) -> bool:
    """Whether a variable, field or header name labels a secret: its last part is a secret word,
    or it ends with one of `CJK_SECRET_WORDS`."""
    if not name.isascii() and name.rstrip().endswith(CJK_SECRET_WORDS):
        return True  # `数据库密码`, `db密码`: these scripts write no space before the last word
    if name.isascii() and name.islower() and name.replace("_", "").isalnum():  # `order_id`: its parts split at `_`
        return name.rstrip("_").rpartition("_")[2] in _SECRET_WORDS or name.replace("_", "").endswith(_SECRET_ENDINGS)
    parts = [p.lower() for p in _NAME_PARTS.findall(name)]
    if not parts:
        return False
    joined = "".join(parts)
    return parts[-1] in _SECRET_WORDS or joined.endswith(_SECRET_ENDINGS)


def is_secret_variable(name: str) -> bool:
    """Whether an environment variable's name labels a secret (`is_secret_name`, except `PWD`)."""
    return name.upper() not in _NOT_SECRET_VARIABLES and is_secret_name(name)


_secret_variable = functools.lru_cache(maxsize=4096)(is_secret_variable)
_secret_name_kept = functools.lru_cache(maxsize=4096)(is_secret_name)
_KEPT_AT_MOST = 64
"""Names (and runs before a separator) longer than this are judged each time, not remembered:
each cache keeps 4,096 entries, so a text full of long names cannot make it hold much."""


def _secret_name(name: str) -> bool:
    """`is_secret_name`, worked out once per name (the same labels come back in every error text)."""
    return _secret_name_kept(name) if len(name) <= _KEPT_AT_MOST else is_secret_name(name)


def _environment_values(text: str, values: list[str] | None = None) -> str:
    """`text` with the value of every secret environment variable (`values`; None: `_secret_values()`)
    replaced (`mask_secret`: a placeholder, `LLM_API_KEY=none`, only where it stands as a credential)."""
    for value in _secret_values() if values is None else values:
        if value in text:
            text = mask_secret(text, value, REDACTED)
    return text


def _read_secret_values() -> list[str]:
    """The values of the secret environment variables, longest first (the plain definition)."""
    return sorted({v for k, v in os.environ.items() if v.strip() and _secret_variable(k)}, key=len, reverse=True)


_PLACEHOLDER_BELOW = 6
"""A secret shorter than this is a placeholder (`is_placeholder`), whatever it is made of."""
PLACEHOLDER_KEYS = frozenset(
    {"ollama", "empty", "none", "not-needed", "lm-studio", "sk-no-key-required", "no-key", "nokey", "dummy"}
    | {"sk-xxx", "sk-dummy", "anything", "placeholder", "not-used", "unused", "local", "api-key", "apikey"}
)
"""Keys that local gateways' documentation has a client send (Ollama's `ollama`, vLLM's `EMPTY`,
llama.cpp's `sk-no-key-required`, LM Studio's `lm-studio`, ...), lower-case: `is_placeholder`."""


def is_placeholder(secret: str) -> bool:
    """Whether a configured secret is a placeholder that ordinary text holds as a word or a number:
    shorter than `_PLACEHOLDER_BELOW` characters (`none`, `x`, `EMPTY`), digits only (`1234`), or
    one of `PLACEHOLDER_KEYS` (in any case). Masking one wherever it stands would mask `none` in
    "none of the tools", so it is masked only where it stands as a credential (`mask_secret`);
    any other secret (`hunter2`, `token-abc123`, a real key) is masked wherever it stands."""
    bare = secret.strip()
    return len(bare) < _PLACEHOLDER_BELOW or bare.isdigit() or bare.lower() in PLACEHOLDER_KEYS


def mask_secret(text: str, secret: str, mask: str = REDACTED) -> str:
    """`text` with `secret` (a configured key, a secret variable's value) replaced by `mask`: wherever
    it stands, or, a placeholder (`is_placeholder`), only where it stands whole as a credential
    (`_credential_at`): after an authorization scheme (`Bearer none`), after a secret name and `:` or
    `=` (`api-key: none`, `"api_key": "none"`, `?key=none`) or an option named so (`--api-key none`,
    `'--token', 'none'` in an argument list), as a URL's password or user (`://user:none@`, `://none@`)."""
    if not secret or secret not in text:
        return text
    if not is_placeholder(secret):
        return text.replace(secret, mask)
    return _credential_at(secret).sub(lambda match: _as_credential(match, len(secret), mask), text)


@functools.lru_cache(maxsize=64)
def _credential_at(secret: str) -> re.Pattern[str]:
    """Where `secret` may stand whole as a credential (`mask_secret`; `_as_credential` checks the name
    before a separator, and the `@` after a URL's user info)."""
    return re.compile(
        r"(?:(?i:\b(?:bearer|basic|token|apikey)[ \t]+)"
        r"|(?<![\w.-])(?P<option>--?)?(?P<name>[A-Za-z_][\w.-]*)"
        r"(?:\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?|(?(option)(?:[ \t]+|[\"'],[ \t]*[\"'])|(?!)))"
        r"|(?P<url>://(?:[^/\s:@]*:)?))" + re.escape(secret) + r"(?![\w-])"
    )


def _as_credential(match: re.Match[str], length: int, mask: str) -> str:
    """The match of `_credential_at` with its secret (its last `length` characters) masked where it
    stands as a credential: after a secret name (`is_secret_name`), before a URL's `@`."""
    name, url, whole = match.group("name"), match.group("url"), match.group(0)
    if name is not None and not _secret_name(name):
        return whole
    if url is not None and not match.string.startswith("@", match.end()):
        return whole
    return whole[: len(whole) - length] + mask


_seen: tuple[dict[Any, Any] | None, list[str]] = (None, [])
"""The environment last read (a copy of its raw mapping) and its secret values."""


def _secret_values() -> list[str]:
    """`_read_secret_values()`, read again only when the environment changed: reading it decodes every
    variable (tens of microseconds), and every error text of a loop is scrubbed. A new list each time
    it is read (`sanitize` and `scrub_secrets` tell an answer made under other values by the list's
    identity). The raw mapping of `os.environ` (bytes on POSIX), compared in C with a copy of it as
    last read (some 6,000 instructions for 36 variables), tells whether it changed, however it was
    changed (through `os.environ`, a mapping put in its place, its private `_data`); where it cannot
    be read, the environment is read each time. (Making `os.environ` tell its own changes would need
    its class replaced in every program that imports the package: not done.)"""
    global _seen
    raw = getattr(os.environ, "_data", None)
    seen, snapshot = _seen, None
    if type(raw) is dict:
        if raw == seen[0]:
            return seen[1]
        snapshot = dict(raw)  # before reading: a change made meanwhile is seen next time
    values = _read_secret_values()
    if snapshot is not None:
        _seen = (snapshot, values)
    return values


def _masked(value: str) -> str:
    if value == REDACTED or value.strip("'\"") == REDACTED:
        return value
    quote = value[0] if value[:1] in ("'", '"') and len(value) > 1 and value[-1] == value[0] else ""
    return f"{quote}{REDACTED}{quote}"


def _command_lines(text: str) -> str:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _COMMAND.search(line):
            line = _DASH_P.sub(f"-p{REDACTED}", line)
        line = _SSHPASS.sub(lambda m: m.group(1) + REDACTED, line)
        lines[i] = _LONG_OPTION.sub(lambda m: m.group(1) + _masked(m.group(2)), line)
    return "\n".join(lines)


def _cookie(match: re.Match[str]) -> str:
    head, tail = match.group(1), match.group(2)
    if "=" in tail:
        return head + _COOKIE_PAIR.sub(
            lambda m: m.group(1) + (m.group(2) if m.group(2) == REDACTED else REDACTED), tail
        )
    first = tail.split(" ", 1)
    if not any(c in head for c in ":=") or not first[0] or first[0] == REDACTED:
        return match.group(0)
    return head + REDACTED + (" " + first[1] if len(first) > 1 else "")


def _url_credentials(match: re.Match[str]) -> str:
    """`scheme://[REDACTED]@`, when the run before `://` holds a scheme (`_SCHEME`)."""
    if _SCHEME.search(match.group(1)) is None:
        return match.group(0)
    return f"{match.group(1)}{REDACTED}@"


def _labelled(text: str) -> str:
    """Mask the value after every `name=` / `name:` whose name labels a secret (`_label_spans`)."""
    return _replaced(text, _label_spans(text))


def _replaced(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """`text` with each `(start, end, replacement)` of `spans` (left to right) put in its place; a
    span that starts inside the one before is skipped. No span: `text` itself."""
    out, pos = [], 0
    for start, end, replacement in spans:
        if start >= pos:
            out += [text[pos:start], replacement]
            pos = end
    return "".join(out) + text[pos:] if out else text


_ENCODED = re.compile(r"%(?:3[dDaAfF]|2[02367])")
"""`=`, `:`, `?`, a blank, `"`, `&` and `'` percent-encoded: what a label and its value are written with
inside a URL that is itself a query value (`next=https%3A%2F%2Fapp%2Fcb%3Ftoken%3D…`) or a form field."""


def _labelled_encoded(text: str) -> str:
    """Mask the values `_labelled` finds once `_ENCODED` characters are read decoded (`token%3D…`,
    `%22password%22%3A%20%22…%22`): each value found in that view replaced in the text, where its
    characters came from, its quotes written as they were."""
    view, starts, ends = _decoded_view(text)
    spans = []
    for start, end, masked in _label_spans(view):
        first, last = starts[start], ends[end - 1]
        if masked[:1] in "\"'" and text[first] == "%":  # an encoded quote stays encoded
            masked = text[first : first + 3] + masked[1:-1] + text[last - 3 : last]
        spans.append((first, last, masked))
    return _replaced(text, spans)


def _decoded_view(text: str) -> tuple[str, list[int], list[int]]:
    """`text` with each `_ENCODED` character decoded, and for each character of that view where its
    characters in `text` start and end."""
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for match in _ENCODED.finditer(text):
        i = match.start()
        pieces += [text[pos:i], chr(int(text[i + 1 : i + 3], 16))]
        starts += [*range(pos, i), i]
        ends += [*range(pos + 1, i + 1), i + 3]
        pos = i + 3
    pieces.append(text[pos:])
    starts += range(pos, len(text))
    ends += range(pos + 1, len(text) + 1)
    return "".join(pieces), starts, ends


def _labelled_lookalikes(text: str) -> str:
    """Mask the values `_labelled`, then `_cjk_names`, find only once look-alike characters are
    folded (`folded_view`: `ａｐｉ＿ｋｅｙ＝…`, `ＤＢ＿ＰＡＳＳ：…`, `pass\u200bword=…`): each value found in the
    folded view is replaced in the text, where its characters came from. A text where nothing folds
    is returned at once."""
    folded = folded_view(text)
    for spans_of in (_label_spans, _cjk_name_spans):
        if folded is None:
            return text
        view, origin = folded
        spans = [(origin[start], origin[end - 1] + 1, masked) for start, end, masked in spans_of(view)]
        if spans:  # the text changes: its view is read again for the next step
            text = _replaced(text, spans)
            folded = folded_view(text)
    return text


def _label_spans(text: str) -> list[tuple[int, int, str]]:
    """Where `_labelled` masks `text`: `(start, end, masked value)` of each value after a `name=` /
    `name:` whose name labels a secret, left to right. A name starts with a letter or `_`: in a run
    such as `123abc=`, it is `abc`; a quoted one (`"name":`, the same quote on both sides) must
    start so. The separators are found from the right (`_SEP_BACK` on the reversed text), those
    after a secret name kept, and read from the left."""
    if "\\" in text:  # an escaped quote, as a JSON text inside a JSON string has: `\\"name\\": \\"…\\"`
        return _label_spans_with(text, _SEP_BACK_ESCAPED, _VALUE_ESCAPED)
    return _label_spans_with(text, _SEP_BACK, _VALUE)


def _label_spans_with(text: str, separators: re.Pattern[str], values: re.Pattern[str]) -> list[tuple[int, int, str]]:
    """`_label_spans(text)`, the separators read backward with `separators`, the values with `values`."""
    backward = text[::-1]
    if not _any_secret_run(backward, separators):  # in C, the usual case: no secret name
        return []
    end, pos = len(text), 0
    spans: list[tuple[int, int, str]] = []
    for match in reversed([m for m in separators.finditer(backward) if _secret_run(m.groups())]):
        quote, start = match.group(1), end - match.end()
        if quote:
            if start == 0 or text[start - 1] != quote:
                continue
            start -= 1
        if start < pos:
            continue
        blanks = _BLANKS.match(text, end - match.start())  # after the separator
        after = blanks.end() if blanks else end - match.start()
        value = values.match(text, after)
        if value is None:
            continue
        in_query = not quote and text[start - 1 : start] in _QUERY_STARTS and text[end - 1 - match.start()] == "="
        masked = _label_mask(_run_name(match.group(2)[::-1]), value.group(0), in_query)
        if masked is None:
            continue
        spans.append((after, value.end(), masked))
        pos = value.end()
    return spans


def _one_separator_each(separators: re.Pattern[str]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """`separators` (which starts with the class `[=:]`) as one pattern per separator character."""
    assert separators.pattern.startswith("[=:]")
    return tuple((sep, re.compile(sep + separators.pattern[len("[=:]") :])) for sep in (":", "="))


_EACH_SEPARATOR = {separators: _one_separator_each(separators) for separators in (_SEP_BACK, _SEP_BACK_ESCAPED)}
"""`_SEP_BACK` and `_SEP_BACK_ESCAPED` split by their first character (`_any_secret_run`)."""


def _any_secret_run(backward: str, separators: re.Pattern[str]) -> bool:
    """`any(map(_secret_run, separators.findall(backward)))`: whether a separator of the reversed
    text follows a secret name. Read with one pattern per separator character, each only where that
    character is: the engine finds a pattern's literal first character with a quick scan, while a
    class of two (`[=:]`) is tested at every position, at some 100 instructions each (11,300 for a
    110-character argument error, against 6,000). The same runs are found: a match holds one
    separator, its first character (blanks, a quote, a backslash and name characters follow it, none
    of them a separator), so no match of one character hides one of the other, and each pattern
    finds every match of its own (`tests/test_redact.py` holds the two equal)."""
    for sep, pattern in _EACH_SEPARATOR[separators]:
        if sep in backward and any(map(_secret_run, pattern.findall(backward))):
            return True
    return False


def _secret_run(found: tuple[str, ...]) -> bool:
    """Whether a run of name characters before a separator labels a secret; `found` is the
    closing quote (or "") and the run read backward, as `_SEP_BACK` gives them. The name, from
    the run's first letter or `_`, must (`is_secret_name`), and a quoted run must start with
    it. Worked out once per run (up to `_KEPT_AT_MOST` characters): the same labels come back
    in every error text."""
    return _secret_run_kept(found) if len(found[1]) <= _KEPT_AT_MOST else _judged_run(found)


def _judged_run(found: tuple[str, ...]) -> bool:
    quote, reversed_run = found
    run = reversed_run[::-1]
    name = _run_name(run)
    return bool(name) and not (quote and name != run) and _secret_name(name)


def _run_name(run: str) -> str:
    """The name in a run of name characters before a separator: from its first letter or `_`."""
    letter = _BEFORE_NAME.match(run)  # `*`: always a match
    return run[letter.end() :] if letter else run


_QUERY_STARTS = ("?", "&")
"""What comes before a parameter of a URL's query (or a form body): `?key=`, `&key=`."""


def _label_mask(name: str, value: str, in_query: bool = False) -> str | None:
    """The masked value after the secret label `name` (`_mask_value`), or None to leave it: a bare
    `key` (`key:`, `"key":`, `primary key:`) names a field, a sort key or a row as often as a secret,
    so its value is masked only when it looks like one (`_looks_secret`); `api_key`, `SESSION_KEY`
    say which key they hold, and mask whatever follows. So does `key` as a parameter of a URL's query
    (`in_query`: `?key=abc123`, `&key=`), where it is the API key (Google's, Gemini's), whatever its
    length."""
    if _bare_key(name) and not in_query and not _looks_secret(value):
        return None
    return _mask_value(value)


def _bare_key(name: str) -> bool:
    """Whether a secret name is `key` alone (`key`, `KEY`, `_key`): it names a field, a sort key or a
    row as often as a secret, so only a value that looks like one is masked (`_looks_secret`)."""
    return name.lower().strip("_") == "key"


_SECRET_AT = 8
"""From this length, a value mixing three kinds of characters looks like a secret (`_looks_secret`)."""
_RANDOM_AT = 24
"""From this length, a run of letters and digits looks like a secret (a hex digest, a base64 key)."""
_WORD_JOINS = "_.-"


def _looks_secret(value: str) -> bool:
    """Whether a value (quoted or not) looks like a secret rather than data: a token of a known
    format; or one run, no blanks, of at least `_SECRET_AT` characters mixing three kinds (lower-case,
    upper-case, digits, symbols other than the `_ . -` that join an identifier's words:
    `Tr0ub4dor&3`, `Zx9Qp2Lm7Rt4Vb8N`); or of at least `_RANDOM_AT` letters and digits, both. An
    identifier (`order_id`, `user.name`, `SN202610200001`), a word or a number is data."""
    bare = value.strip("\\\"'").rstrip(".,;:)]}")
    if not bare or any(c.isspace() for c in bare):
        return False
    if _KNOWN_TOKENS.search(bare):
        return True
    lower, upper, digit = any(c.islower() for c in bare), any(c.isupper() for c in bare), any(c.isdigit() for c in bare)
    symbol = any(not c.isalnum() and c not in _WORD_JOINS for c in bare)
    if len(bare) >= _SECRET_AT and lower + upper + digit + symbol >= 3:
        return True
    return len(bare) >= _RANDOM_AT and bare.isalnum() and digit and (lower or upper)


_secret_run_kept = functools.lru_cache(maxsize=4096)(_judged_run)


def _cjk_labelled(text: str) -> str:
    """Mask the values labelled in Chinese, Japanese or Korean: after a secret word
    (`_CJK_WORD_LABEL`), then after a secret name in ASCII letters and a full-width separator or
    a verb (`_cjk_names`). (Each pattern starts with a character the engine looks for in C: that
    costs less than looking for each word first.)"""
    return _cjk_names(_CJK_WORD_LABEL.sub(_cjk_word_labelled, text))


def _cjk_word_labelled(match: re.Match[str]) -> str:
    """`密码：hunter2` → `密码：[REDACTED]`."""
    word, between, separator, separator_after_verb, value = match.groups()
    masked = _cjk_masked(value, after_separator=separator is not None or separator_after_verb is not None)
    return match.group(0) if masked is None else word + between + masked


def _cjk_names(text: str) -> str:
    """`API_KEY：x1` → `API_KEY：[REDACTED]`, `token为 x1` → `token为 [REDACTED]` (`_cjk_name_spans`)."""
    return _replaced(text, _cjk_name_spans(text))


def _cjk_name_spans(text: str) -> list[tuple[int, int, str]]:
    """Where `_cjk_names` masks `text`, as `(start, end, masked value)`: after each full-width
    separator or verb with a secret name before it (`_CJK_NAME_BACK`, `_secret_run`), read from the
    left; a match that starts inside the one before is skipped, as a pattern tried from the left
    would skip it (the plain definition, in the tests: the same pattern read forward)."""
    backward, end = text[::-1], len(text)
    if _CJK_NAME_BACK.search(backward) is None:  # the usual case, in C
        return []
    found = [m for m in _CJK_NAME_BACK.finditer(backward) if _said_so(m) and _secret_run(_quoted_run(m))]
    spans: list[tuple[int, int, str]] = []
    pos = 0
    for match in reversed(found):
        if end - match.end() < pos:
            continue
        after = _CJK_BLANKS.match(text, end - match.start())
        value = _CJK_VALUE.match(text, after.end()) if after else None
        if value is None:
            continue
        separator = match.group(1) in _ALL_SEPARATORS
        masked = _cjk_masked(value.group(0), after_separator=separator)
        if masked is None:
            continue
        spans.append((value.start(), value.end(), masked))
        pos = value.end()
    return spans


_ALL_SEPARATORS = frozenset((":", "=", *_CJK_SEPARATORS))


def _said_so(match: re.Match[str]) -> bool:
    """Whether a `_CJK_NAME_BACK` match says what the name is: a full-width separator (a verb
    before it or not), an ASCII one after a verb (`token是: …`; right after the name it is
    `_labelled`'s), or a verb alone (not two in a row)."""
    first, verb = match.group(1), match.group(2)
    if first in _CJK_SEPARATORS:
        return True
    return verb is not None if first in _ALL_SEPARATORS else verb is None


def _quoted_run(match: re.Match[str]) -> tuple[str, str]:
    """The closing quote (`'` or `"`, else "") and the reversed run, as `_secret_run` reads them."""
    quote = match.group(3)
    return (quote if quote in ("'", '"') else "", match.group(4))


def _cjk_masked(value: str, *, after_separator: bool) -> str | None:
    """`_mask_value`, with the quotes of these scripts kept as `'` and `"` are; after a verb, a
    plain lower-case word is kept, as `_prose_secret` keeps it (`token为expired`)."""
    if not after_separator and _PLAIN_WORD.fullmatch(value.rstrip(".")):
        return None
    closing = _CJK_QUOTES.get(value[:1])
    if closing is not None and len(value) > 1 and value[-1] == closing:
        return None if REDACTED in value else value[0] + REDACTED + closing
    return _mask_value(value)


def _prose_secret(match: re.Match[str]) -> str:
    """`password is hunter2` → `password is [REDACTED]`; a plain lower-case word is kept, since
    it says what went wrong (`password is incorrect`, `api token was expired`)."""
    value = match.group(2)
    if _PLAIN_WORD.fullmatch(value.rstrip(".")):
        return match.group(0)
    masked = _mask_value(value)  # None for a value already masked
    return match.group(0) if masked is None else match.group(1) + masked


def _mask_value(value: str) -> str | None:
    """The masked value (trailing punctuation kept), or None to leave it."""
    if value.lower() in ("bearer", "basic", "token") or REDACTED in value:
        return None
    if value[:1] in ("'", '"'):
        return _masked(value)
    if value[:2] == '\\"':  # quoted inside a JSON string: `\\"…\\"`
        return f'\\"{REDACTED}\\"'
    end = len(value)
    while end > 0 and value[end - 1] in ".,;:)]}":
        end -= 1
    return None if end == 0 else REDACTED + value[end:]


def elided_data_urls(text: str) -> str:
    """`text` with each base64 data URL's payload replaced by its decoded size and a short hash
    (`data:image/png;base64,[elided: 1,024 bytes, sha256 …]`), as `scrub` writes them; nothing else changed."""
    return _DATA_URL.sub(_elided, text) if "base64," in text else text


def _elided(match: re.Match[str]) -> str:
    """A data URL's payload replaced by its decoded size and a short hash (the same data, the same text)."""
    payload = match.group(3)
    size = len(payload) * 3 // 4 - payload.count("=")
    digest = hashlib.sha256(payload.encode("ascii")).hexdigest()[:12]
    return f"data:{match.group(1)}{match.group(2)};base64,[elided: {size:,} bytes, sha256 {digest}]"


def _paths(text: str, low: str) -> str:
    """File paths → `<path>`: `file://` URLs, quoted paths, Windows paths, POSIX paths, in turn,
    each skipped on a text without what it needs (`file://` as `_may_hold` reads `low`, a
    quote, a backslash, a slash). Base64 data (`_BASE64_BLOB`) is no path: only the text around
    it is read."""
    if len(text) >= len(_RUN_OF_BLOB) and _RUN_OF_BLOB in text.encode("utf-8", "surrogatepass").translate(_RUN_BYTES):
        blobs = [m for m in _BASE64_BLOB.finditer(text) if len(m.group(0)) % 4 == 0]
        if blobs:
            starts, ends = [0, *(m.end() for m in blobs)], [*(m.start() for m in blobs), len(text)]
            kept = [m.group(0) for m in blobs] + [""]
            return "".join(_paths_in(text[a:b], low) + blob for a, b, blob in zip(starts, ends, kept, strict=True))
    return _paths_in(text, low)


_BASE64_BLOB = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{200,}+={0,2}(?![A-Za-z0-9+/=])")
"""Base64 data a tool returned bare (an image in a JSON result, no `data:` URL), 200 characters
or more; `_paths` also asks that its length be a multiple of 4, as base64's always is. Its `/`
made paths of it (`"/9j/4AAQ…"`, a JPEG, became `"<path>"`; `…+/cHw…` cut the rest away). A
path that long of these letters alone (no `.`, `-`, `_` or blank) is not one a person writes."""
_RUN_OF_BLOB = b"x" * 200
"""What a `_BASE64_BLOB` leaves in the text's bytes written through `_RUN_BYTES` (whose letters
hold base64's): looked for in C before the pattern is tried."""


def _paths_in(text: str, low: str) -> str:
    """`_paths` on a text with no base64 data in it."""
    if _may_hold(low, _FILE_WORDS):
        text = _FILE_URL.sub(PATH, text)
    if '"' in text or "'" in text:
        text = _QUOTED_PATH.sub(lambda m: f"{m.group(1)}{PATH}{m.group(1)}", text)
    if "\\" in text:
        text = _WINDOWS_PATH.sub(PATH, text)
    return _POSIX_PATH.sub(_posix_path, text) if "/" in text else text


def _posix_path(match: re.Match[str]) -> str:
    """`<path>` for a POSIX path, or the match itself when it is a URL path: a `/…` right after an HTTP
    method word (`POST /v1/chat/completions … Did you mean POST /v1/chat/completions`, a gateway's 404,
    reads as it was; its query's secret values were masked by the label steps before)."""
    start = match.start()
    if match.string[start] == "/" and _HTTP_METHOD_BEFORE.search(match.string, max(0, start - _METHOD_WINDOW), start):
        return match.group(0)
    return PATH


_HTTP_METHOD = r"(?<![\w-])(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]{1,8}"
_HTTP_METHOD_BEFORE = re.compile(_HTTP_METHOD + r"\Z")
"""An HTTP method word, upper case and whole (`REPOST`, `X-GET` are none), and the blanks after it, at the
end of what is read (`_posix_path` reads the `_METHOD_WINDOW` characters before a path)."""
_URL_PATH = re.compile(_HTTP_METHOD + "(/" + _PATH_BODY + ")")
"""A URL path after an HTTP method word: where `_posix_path` keeps a path."""
_LONG_SEGMENT = re.compile(r"[A-Za-z0-9+_-]{32,}={0,2}")
"""`_LONG_RUN` within one segment of a URL path (no `/`)."""
_METHOD_WINDOW = len("OPTIONS") + 8


def _long_run(match: re.Match[str]) -> str:
    token = match.group(0)
    if _UUID.fullmatch(token) or not re.search(r"\d", token) or not re.search(r"[A-Za-z]", token):
        return token
    return REDACTED
