"""The value a choice's description names as its default is the choice's value when the user names none.

An `enum` field the text points at no value of took the enum's first value: "open a ticket called Printer jammed" to
a `priority` of low, medium, high described "Priority, default medium" was a low-priority ticket. A model reads the
description and takes medium. `described_choice(values, description)` is the value the description names after
"default", "defaults to", "default:" or 默认, written plainly or in quotes ("default medium", "(default: 'medium')",
默认为 medium), compared without case; None when it names none or one that is no value of the enum.
Left out: a default named by its position ("the first") or in other words ("normally medium").
"""

from __future__ import annotations

import re
from typing import Any

_DEFAULT = re.compile(
    r"(?i)(?:(?<![a-z])defaults?(?:\s+(?:to|is|value\s+is))?\s*[:：=]?|默认(?:为|是|值为|值是)?[:：]?)\s*"
    r"['\"‘“「`]?([^\s'\"’”」`,.;:()，。；）]{1,40})"
)
_MAX_READ = 1_000


def described_choice(values: list[Any], description: Any) -> Any:
    """The one of `values` the `description` names as the default, or None (the usual case: no description)."""
    if type(description) is not str or not description:
        return None
    for match in _DEFAULT.finditer(description[:_MAX_READ]):
        said = match.group(1).lower()
        found = next((v for v in values if type(v) is str and v.lower() == said), None)
        if found is not None:
            return found
    return None
