"""Week 3's checks with other learners' code: a normalize() whose own half-width table covers only
the letters and digits of an id is told the full-width dash an input method types."""

import re

from toolkit.exercises import check

_LETTERS_AND_DIGITS = str.maketrans("０１２３４５６７８９ＳＮｓｎ", "0123456789SNsn")


def _normalize_letters_and_digits_only(raw):
    """Full-width digits and the letters of SN made ASCII, the rest of validation's rule kept: the full-width
    dash (－, U+FF0D) stays, and is no dash to the rule that drops dashes."""
    text = raw.translate(_LETTERS_AND_DIGITS).strip()
    text = re.sub(r"^订单号?\s*[:：是为]?\s*", "", text)
    text = re.sub(r"[\s\-\u2010-\u2015\u2212]", "", text.upper())
    return text if re.fullmatch(r"SN[0-9]{12}", text) else None


def test_a_normalize_that_makes_only_letters_and_digits_half_width_fails_on_a_full_width_dash():
    """Before: passed, 'agrees with validation on all 145 inputs' — no input had a full-width dash, which a
    Chinese input method types between full-width digits and validation reads as '-'."""
    result = check("w3.normalize", _normalize_letters_and_digits_only)
    assert (result.status, result.feedback) == (
        "failed",
        "normalize('ＳＮ２０２６－１０２０－０００１') returned None, validation accepts it as 'SN202610200001'",
    )
