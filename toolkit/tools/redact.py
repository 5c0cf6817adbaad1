"""Sanitising exception text before a model (and whoever reads its transcript) sees it.

The seed warns that a tool's exception message goes to the model verbatim, database
connection string and all. `sanitize()` removes, in order:

1. stack traces (a `Traceback (most recent call last):` block keeps only its last line;
   stray `File "...", line N` lines go);
2. private-key blocks, credentials in URLs (`postgres://user:pw@host` → `postgres://[REDACTED]@host`),
   `Bearer` / `Basic` tokens;
3. values of secret-looking keys (`password=`, `api_key: `, `"client_secret": "..."`, `token=` ...);
4. tokens in well-known formats (OpenAI `sk-`, GitHub `ghp_`, Slack `xox?-`, AWS `AKIA`,
   Google `AIza`, JWTs) and any other long letters-and-digits run of 32+ characters
   (UUIDs are kept: they are usually ids the model needs);

then cuts the text to 500 characters. It errs towards removing too much.

Leaves out: personal data (names, phone numbers) — mask those where the data is produced.
"""

from __future__ import annotations

import re

REDACTED = "[REDACTED]"
LIMIT = 500

_FILE_LINE = re.compile(r'^\s*File "[^"]*", line \d+.*\n?(?:^    .*\n?)?', re.MULTILINE)
_PEM = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S)
_URL_CREDENTIALS = re.compile(r"\b([a-zA-Z][\w+.-]*://)[^/\s:@]*(?::[^/\s@]*)?@")
_AUTH_HEADER = re.compile(r"\b(Bearer|Basic|Token)\s+[\w.~+/=-]{6,}", re.IGNORECASE)
_SECRET_KEY = (
    r"[\w.-]*?(?:password|passwd|pwd|secret(?:[_-]?key)?|token|api[_-]?key|"
    r"access[_-]?key|private[_-]?key|credentials?|authorization)"
)
_KEY_VALUE = re.compile(rf"(\b{_SECRET_KEY}[\"']?\s*[=:]\s*)(\"[^\"]*\"|'[^']*'|[^\s,;&\"')]+)", re.IGNORECASE)
_KNOWN_TOKENS = re.compile(
    r"\bsk-[\w-]{16,}|\bgh[pousr]_\w{20,}|\bgithub_pat_\w{20,}|\bxox[abprs]-[\w-]{10,}"
    r"|\bAKIA[0-9A-Z]{16}\b|\bAIza[\w-]{35}|\beyJ[\w-]+\.[\w-]+\.[\w-]+"
)
_LONG_RUN = re.compile(r"[A-Za-z0-9+/_-]{32,}={0,2}")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def sanitize(text: str) -> str:
    """`text` without stack traces and secrets, at most `LIMIT` characters."""
    text = _drop_tracebacks(text)
    text = _PEM.sub(REDACTED, text)
    text = _URL_CREDENTIALS.sub(lambda m: f"{m.group(1)}{REDACTED}@", text)
    text = _AUTH_HEADER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    text = _KEY_VALUE.sub(lambda m: _keep_quotes(m.group(1), m.group(2)), text)
    text = _KNOWN_TOKENS.sub(REDACTED, text)
    text = _LONG_RUN.sub(_long_run, text)
    text = text.strip()
    return text if len(text) <= LIMIT else text[: LIMIT - 3] + "..."


def describe_exception(exc: BaseException) -> str:
    """An exception as one sanitised line: its message, or its class name if it has none."""
    message = str(exc).strip()
    if isinstance(exc, KeyError) or not message:
        message = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return sanitize(message)


def _drop_tracebacks(text: str) -> str:
    lines, out, in_trace = text.splitlines(), [], False
    for line in lines:
        if line.strip().startswith("Traceback (most recent call last)"):
            in_trace = True
        elif in_trace and (line.startswith(" ") or not line.strip()):
            continue
        else:
            in_trace = False
            out.append(line)
    return _FILE_LINE.sub("", "\n".join(out))


def _keep_quotes(key: str, value: str) -> str:
    if value.lower() in ("bearer", "basic", "token", REDACTED.lower()):  # already handled
        return key + value
    quote = value[0] if value[:1] in ("'", '"') else ""
    return f"{key}{quote}{REDACTED}{quote}"


def _long_run(match: re.Match[str]) -> str:
    token = match.group(0)
    if _UUID.fullmatch(token) or not re.search(r"\d", token) or not re.search(r"[A-Za-z]", token):
        return token
    return REDACTED
