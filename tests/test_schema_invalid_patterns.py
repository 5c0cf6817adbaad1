"""`Field(pattern=...)` that is no regular expression at all (`"(["`, `"a{2,1}"`, a lone `")"`): it was
told as a pattern Rust's engine cannot read for want of look-arounds ("… (it reads patterns with
Rust's regex engine, which has no look-around or backreferences). Fix: write the pattern without
them"), which has nothing to do with it. A pattern Python's `re` cannot compile either is told as
invalid, with Python's reason and the fix to correct it."""

from typing import Annotated

import pytest
from pydantic import Field

from toolkit.errors import ToolDefinitionError
from toolkit.tools.reflect import reflect


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        ("([", "unterminated character set at position 1"),
        ("a{2,1}", "min repeat greater than max repeat at position 2"),
        (")", "unbalanced parenthesis at position 0"),
    ],
)
def test_a_pattern_that_is_no_regular_expression_is_told_as_invalid(pattern, reason):
    def find(code: Annotated[str, Field(pattern=pattern)]) -> str:
        """Find it."""
        return code

    with pytest.raises(ToolDefinitionError) as info:
        reflect(find)
    assert str(info.value).endswith(
        f"parameter 'code': the pattern {pattern!r} is not a valid regular expression ({reason}). Fix: correct "
        "the pattern (JSON Schema's patterns are ECMA-262 regular expressions; test it with re.compile)"
    )
