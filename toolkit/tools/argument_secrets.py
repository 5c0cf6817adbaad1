"""An argument error's text with its secrets masked, and the package's own words kept.

An argument error goes back to the model through `redact.scrub_secrets` (a tool's own reason may
quote a library's message, connection string and all). Read whole, its standard lines look like
`name: value` pairs: for a parameter whose name labels a secret (`api_key`, `password`, `token`),
`- api_key: got 5.5, expected an integer` read `- api_key: [REDACTED] 5.5, expected an integer`,
the word `got` masked and the value the model sent shown. `masked_argument_text(error, text)`
keeps a text the scrubber leaves as it is (the common case, at the same cost as before); when it
masks something in the standard text, the text is written again problem by problem: a secret-named
field's value is `[REDACTED]` (a missing one stays `missing`), every other value and every reason
is scrubbed on its own, and the template (`got`, `missing`, `expected`, `unknown field`, `refused`)
is never touched.

Leaves out: a policy's text of its own (the course's `字段=…，收到=…`) and an `ArgumentError`
subclass that writes its text otherwise; those are scrubbed whole, as before.
"""

from __future__ import annotations

import re

from toolkit.errors import ArgumentError, ArgumentProblem
from toolkit.tools import redact

_PATH_PARTS = re.compile(r"[^.\[\]]+")
"""The names in a dotted field path (`creds.api_key`, `api_key[2]`): each run between dots and brackets."""


def masked_argument_text(error: BaseException, text: str) -> str:
    """`text`, the argument policy's text for `error`, with its secrets masked (see the module)."""
    scrubbed = redact.scrub_secrets(text)
    if scrubbed == text or not isinstance(error, ArgumentError):
        return scrubbed
    tool_name, problems = getattr(error, "tool_name", None), getattr(error, "problems", None)
    if not isinstance(tool_name, str) or not isinstance(problems, list):
        return scrubbed
    if text != str(ArgumentError(tool_name, problems)):  # not the standard text: scrubbed whole
        return scrubbed
    return str(ArgumentError(tool_name, [_masked(problem) for problem in problems]))


def _masked(problem: ArgumentProblem) -> ArgumentProblem:
    """`problem` with its value masked when its field names a secret, and each part scrubbed."""
    received = problem.received
    if received and problem.kind != "not_json" and secret_field(problem.field):
        received = redact.REDACTED
    scrub = redact.scrub_secrets
    return ArgumentProblem(scrub(problem.field), scrub(received), scrub(problem.expected), problem.kind)


def secret_field(field: str) -> bool:
    """Whether the last name of a field path (`api_key`, `creds.password`, `keys[0].token`) labels a secret."""
    names = [name for name in _PATH_PARTS.findall(field) if not name.isdigit()]
    return bool(names) and redact.is_secret_name(names[-1])
