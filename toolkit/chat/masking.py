"""Keeping the API key out of everything a learner sees or saves: URLs, logs, errors, cassettes.

`mask_url(url)` hides credentials embedded in a base URL (`https://user:pass@host/v1` →
`https://user:***@host/v1`, and the values of query parameters that name a credential, such as
`?api-key=…`, `?key=…` (Google's endpoint) or `?code=…` (an Azure Function): `secret_param`), and
a `#fragment` whole (`https://host/v1#token`: never sent, so it is no address, and a pasted token may hide there);
`mask_url_in(text, url)` does that to a text quoting the URL (an error), and masks its secrets there too.
`basic_credential(url)` is what such credentials become on the wire: httpx sends a URL's user
info as `Authorization: Basic <base64 of user:password>`, a secret in another spelling that the
client and the cassette mask as well.
`mask_key(text, key)` replaces every occurrence of the key in a text — a gateway's error body
may echo it ("Incorrect API key provided: sk-…") — with `***` plus its last four characters
when the key is long enough to keep them unguessable (as OpenAI's own messages do).
`mask_urls_in_logs(*names)` does to the log records of the HTTP libraries the package drives
what `mask_url` does to a URL (httpx logs every request's URL at INFO, password and query and
all), and masks the secrets in the rest (`redact.scrub_secrets`: httpcore's DEBUG records hold a
response's headers, the MCP SDK's the messages it sends and reads).

`mask_tokens(text)` hides the tokens of a well-known format (`toolkit.tools.token_formats`) in an
error's text: a relay passing its provider's error on may quote its own key for the provider,
which is not the learner's key, so `mask_key` does not know it.

Leaves out: other secrets that are not the key or the URL's credentials (the hardening work's
sanitiser covers secrets inside message texts).
"""

from __future__ import annotations

import base64
import functools
import json
import logging
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, unquote, unquote_plus, urlencode, urlsplit, urlunsplit

from toolkit.tools.redact import REDACTED, is_placeholder, is_secret_name, mask_secret, scrub_secrets
from toolkit.tools.token_formats import KNOWN_TOKENS, may_hold_token

MASK = "***"
_CREDENTIAL_PARAMS = frozenset({"code"})
"""Query names that carry a credential with no secret word in them: Azure Functions' function key
(`?code=`), which is also OAuth's authorization code."""


def secret_param(name: str) -> bool:
    """Whether a query parameter's (decoded) name labels a secret: one that `redact.is_secret_name`
    says so of (`key`, `api-key`, `access_token`, `pwd`, `sid`, `X-Amz-Signature`, …; digits at the
    end aside: `key2`), or one of `_CREDENTIAL_PARAMS`. Words that merely hold one (`monkey`,
    `author`, `passes`) are no labels."""
    return is_secret_name(name.rstrip("0123456789")) or name.lower() in _CREDENTIAL_PARAMS


class WholeSecret(str):
    """A secret shown as `***` alone (`masked_key`), never with its last four characters: a URL's
    password or lone user token, in each spelling, and the `Basic` credential that carries them (its
    base64 ends with the password's). Four characters of an API key of 40 or more tell which key it
    was; of a password they are a good part of it."""

    __slots__ = ()


_USERINFO = re.compile(r"(?<=://)([^/?#]*)@")
"""The user info of a URL that `urlsplit` refuses (a bad port, an unclosed `[`)."""
MIN_KEY = 4
"""Shorter "keys" (``x``, ``k``) are placeholders (`redact.is_placeholder`), not looked for across a
stream's pieces nor in a conversation's JSON."""


def mask_url(url: str) -> str:
    """`url` with an embedded password (or a lone user token) and secret query values masked."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return _mask_unparsed(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user, has_password, _ = userinfo.partition(":")
        netloc = f"{user}:{MASK}@{host}" if has_password else f"{MASK}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(secret_param(k) for k, _ in pairs):
            query = urlencode([(k, MASK if secret_param(k) else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, MASK if parts.fragment else ""))


_URL = re.compile(r"\b[A-Za-z][\w+.-]*://[^\s\"'<>]+")
"""A URL in a text (a log line): a scheme, `://`, and everything up to a blank, a quote or a bracket."""


class _MaskedUrls(logging.Filter):
    """A log record with every URL in its message shown as `mask_url` shows it, and the secrets in
    the rest of it masked (`redact.scrub_secrets`): httpcore logs a response's headers at DEBUG, the
    MCP SDK every message it sends or reads (tool arguments and results as they are)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = masked_log_message(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True


def masked_log_message(message: str) -> str:
    """`message` with each URL shown as `_masked_log_url` shows it and the text between them through
    `redact.scrub_secrets` (which would write a URL's user info as `[REDACTED]@`, not `user:***@`)."""
    if "://" not in message:
        return scrub_secrets(message)
    pieces, end = [], 0
    for match in _URL.finditer(message):
        pieces += [scrub_secrets(message[end : match.start()]), _masked_log_url(match.group(0))]
        end = match.end()
    return "".join([*pieces, scrub_secrets(message[end:])])


_AUTHORITY = re.compile(r"[^:]*://[^/?#]*")
"""A URL's scheme and authority (its user info and host): what comes before its path."""


def _masked_log_url(url: str) -> str:
    """`url` as `mask_url` shows it, and what follows its host through `redact.scrub_secrets`:
    `mask_url` masks the values of secret-named parameters only, so a token inside another value
    (`next=https%3A%2F%2Fx%3Ftoken%3D…`, an encoded JSON `state`) would be shown. The values
    `mask_url` masked stay `***` (scrubbed, `api-key=***` would read `api-key=[REDACTED]`)."""
    masked = mask_url(url)
    authority = _AUTHORITY.match(masked)
    cut = authority.end() if authority else 0
    return masked[:cut] + MASK.join(scrub_secrets(piece) for piece in masked[cut:].split(MASK))


_MASKED_URLS = _MaskedUrls()
HTTPX_LOGGERS = (
    "httpx",
    *(f"httpcore.{part}" for part in ("connection", "http11", "http2", "proxy", "socks")),
)
"""The loggers of httpx and the httpcore under it (each of its modules logs under its own name)."""
HTTPX2_LOGGERS = ("httpx2", *(name.replace("httpcore", "httpcore2") for name in HTTPX_LOGGERS[1:]))
"""The same for httpx2, which the MCP SDK's HTTP client is."""


def mask_urls_in_logs(*names: str) -> None:
    """Mask the URLs and secrets in every record the loggers `names` log (each given the filter
    once). A logger's filter sees only the records logged on it, so each is named: `httpx`,
    `httpcore.http11`, `httpx2`, ..."""
    for name in names:
        logger = logging.getLogger(name)
        if _MASKED_URLS not in logger.filters:
            logger.addFilter(_MASKED_URLS)


def mask_url_in(text: str, url: str) -> str:
    """`text` with `url` shown as `mask_url` shows it, and every secret of `url` masked wherever
    it stands (an error may quote the URL, or only its token)."""
    text = text.replace(url, mask_url(url))
    for secret in url_secrets(url):
        text = mask_secret(text, secret, MASK)
    return text


def _mask_unparsed(url: str) -> str:
    """A URL that cannot be parsed, shown safely: its whole user info, query and fragment masked."""
    head, has_fragment, _ = _USERINFO.sub(f"{MASK}@", url).partition("#")
    head, has_query, _ = head.partition("?")
    return head + (f"?{MASK}" if has_query else "") + (f"#{MASK}" if has_fragment else "")


def url_secrets(url: str) -> list[str]:
    """The secrets embedded in `url`: its password (or lone user token) and secret query values,
    each decoded and, when the URL spells it otherwise (`%2B`, `+` for a space), as written too: a
    gateway that quotes the request's URL quotes it so. After the password comes the `Basic`
    credential an HTTP client sends for the user info (`basic_credential`): a server that echoes
    its `Authorization` header shows the password so."""
    try:
        parts = urlsplit(url)
    except ValueError:
        unparsed = _USERINFO.search(url)
        return _whole(
            _spellings([unparsed.group(1).partition(":")[2] or unparsed.group(1)], unquote) if unparsed else []
        )
    written = []
    if "@" in parts.netloc:
        user, has_password, password = parts.netloc.rsplit("@", 1)[0].partition(":")
        written.append(password if has_password else user)
    found = _spellings(written, unquote)
    basic = basic_credential(url) if found else None  # no user info to speak of (`https://@gw`): nothing sent
    found = _whole(found + ([basic] if basic else []))
    pairs = [pair.partition("=") for pair in parts.query.split("&")] if parts.query else []
    return found + _spellings([v for k, _, v in pairs if secret_param(unquote_plus(k))], unquote_plus)


def _whole(secrets: list[str]) -> list[str]:
    """`secrets` as `WholeSecret`s: shown as `***` alone."""
    return [WholeSecret(secret) for secret in secrets]


def _spellings(written: list[str], decode: Callable[[str], str]) -> list[str]:
    """Each of `written` decoded, then as written when that differs; empty ones left out."""
    found: list[str] = []
    for raw in written:
        found += [spelling for spelling in dict.fromkeys((decode(raw), raw)) if spelling]
    return found


def basic_credential(url: str) -> str | None:
    """The `Basic` credential httpx sends for the user info of `url` (base64 of `user:password`,
    each percent-decoded, as `httpx.BasicAuth` builds it), or None when `url` has none. It holds
    the password, readable by anyone who decodes it: an error's request, or a gateway that
    echoes its `Authorization` header, must not show it."""
    try:
        netloc = urlsplit(url).netloc
    except ValueError:
        return None
    if "@" not in netloc:
        return None
    user, _, password = netloc.rsplit("@", 1)[0].partition(":")
    return base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode("ascii")


def mask_key(text: str, key: str | None) -> str:
    """`text` with every occurrence of `key` masked (texts without it come back unchanged), as
    written and as a JSON body may escape it (`json_spellings`), then percent-encoded or in base64
    (`encoded_spellings`); a placeholder key (`none`, `EMPTY`, `ollama`: `redact.is_placeholder`)
    only where it stands as a credential (`redact.mask_secret`: `Bearer none`, `api_key=none`), not
    in "none of the tools"."""
    return _mask_encoded(_mask_written(text, key), key)


def _mask_written(text: str, key: str | None) -> str:
    """`mask_key` without the encoded spellings."""
    if not key:
        return text
    if is_placeholder(key):
        return mask_secret(text, key, masked_key(key))
    if key in text:
        text = text.replace(key, masked_key(key))
    if "\\" in text:  # a JSON body may spell the key with escapes
        shown = json.dumps(masked_key(key))[1:-1]
        text = json_spellings(key).sub(lambda _: shown, text)
    return text


def _mask_encoded(text: str, key: str | None) -> str:
    """`text` with `key`'s `encoded_spellings` masked (a placeholder's none: it is no credential there)."""
    if not key or is_placeholder(key):
        return text
    for spelling in encoded_spellings(key):  # as a URL or a form carries it, or in base64
        if spelling in text:
            text = text.replace(spelling, masked_key(key))
    return text


@functools.lru_cache(maxsize=64)
def encoded_spellings(key: str) -> tuple[str, ...]:
    """The other ways a text may spell `key`, longest first: percent-encoded (as a URL's query or a
    form carries it, a space as `%20` or `+`, a `/` kept or not) and in base64 (standard and URL-safe,
    with its padding and without). A gateway quoting the request's URL or a decoded header shows it so."""
    data = key.encode()
    found = [quote(key, safe=""), quote(key), quote_plus(key)]
    for encoded in (base64.b64encode(data).decode("ascii"), base64.urlsafe_b64encode(data).decode("ascii")):
        found += [encoded, encoded.rstrip("=")]
    return tuple(sorted((s for s in dict.fromkeys(found) if s != key), key=len, reverse=True))


@functools.lru_cache(maxsize=64)
def json_spellings(key: str) -> re.Pattern[str]:
    """The ways a JSON string may spell `key`: each character as itself or as `\\uXXXX` (hex in
    either case: .NET writes `+` as `\\u002B`), `/` also as `\\/` (PHP), `"` and `\\` escaped.
    A gateway's error body may echo the key so; read, it is the key."""
    parts = []
    for char in key:
        options = [re.escape(char)] if char not in '"\\' else []
        options += [re.escape(json.dumps(char)[1:-1]), _unicode_escape(char)]
        if char == "/":
            options.append(re.escape("\\/"))
        parts.append(f"(?:{'|'.join(dict.fromkeys(options))})")
    return re.compile("".join(parts))


def _unicode_escape(char: str) -> str:
    """A pattern for `char` written as `\\uXXXX` (a surrogate pair beyond U+FFFF), hex in either case."""
    written = f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else json.dumps(char)[1:-1]
    return "".join(f"[{c}{c.upper()}]" if c in "abcdef" else re.escape(c) for c in written)


def mask_keys(text: str, keys: Iterable[str | None]) -> str:
    """`text` with every occurrence of each of `keys` masked (`mask_key`): each as written first, then
    each encoded, so that a spelling a URL's secrets list themselves (`url_secrets`: the password as
    the URL writes it, the `Basic` credential) is masked as itself, not cut by another's encoding."""
    keys = list(keys)
    for key in keys:
        text = _mask_written(text, key)
    for key in keys:
        text = _mask_encoded(text, key)
    return text


def mask_json(value: Any, keys: Iterable[str | None]) -> Any:
    """`value` (parsed JSON) with every `keys` occurrence masked in every string, object keys
    included: a conversation may quote a key (a gateway echoed it, a learner pasted it)."""
    usable = [k for k in keys if k and len(k) >= MIN_KEY]
    return _masked_json(value, usable) if usable else value


def _masked_json(value: Any, keys: list[str]) -> Any:
    if isinstance(value, str):
        return mask_keys(value, keys)
    if isinstance(value, dict):
        return {_masked_json(k, keys): _masked_json(v, keys) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked_json(v, keys) for v in value]
    return value


def masked_key(key: str) -> str:
    """How a key is shown: `***` and, for a long key, its last four characters (not for a
    `WholeSecret`: a password, a `Basic` credential)."""
    return f"{MASK}{key[-4:]}" if len(key) >= 16 and not isinstance(key, WholeSecret) else MASK


def bearer_key(authorization: str | None) -> str | None:
    """The key of an `Authorization: Bearer …` header value (None if there is none)."""
    if not authorization:
        return None
    scheme, _, key = authorization.partition(" ")
    return key.strip() or None if scheme.lower() == "bearer" else None


def mask_tokens(text: str) -> str:
    """`text` with every token of a well-known format (`sk-…`, `ghp_…`, `AIza…`) replaced by
    `[REDACTED]`, as `toolkit.tools.redact` masks them; a masked form a gateway already wrote
    (`sk-proj-****abcd`) is no token, and stays."""
    return KNOWN_TOKENS.sub(REDACTED, text) if may_hold_token(text) else text


_AUTHORIZATION_HEADERS = frozenset({"authorization", "proxy-authorization"})
_SCHEMES = frozenset({"bearer", "basic", "token", "digest", "negotiate", "apikey"})
"""Authorization schemes: a header holding only one of them carries no key (masking the word would
change every text that says it)."""


def header_secrets(headers: Iterable[tuple[str, str]]) -> list[str]:
    """The secrets a request's headers carry: the credentials of an `Authorization` (or
    `Proxy-Authorization`) header, whatever its scheme (`Bearer`, `Token`, `Basic`, ...), and the
    value of every header whose name labels a secret (`redact.is_secret_name`: Azure's `api-key`,
    `x-api-key`, `x-goog-api-key`, `Ocp-Apim-Subscription-Key`, ...). A gateway may echo any of them."""
    found: list[str] = []
    for name, value in headers:
        if name.lower() in _AUTHORIZATION_HEADERS:
            scheme, _, credentials = value.strip().partition(" ")
            if credentials.strip() or scheme.lower() not in _SCHEMES:  # a scheme alone is no secret
                secret = credentials.strip() or scheme
                found.append(WholeSecret(secret) if scheme.lower() == "basic" else secret)  # base64 of a password
        elif is_secret_name(name):
            found.append(value.strip())
    return [secret for secret in dict.fromkeys(found) if secret]
