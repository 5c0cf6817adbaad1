"""`toolkit.chat.days`: a day a person writes is read as YYYY-MM-DD only; other ISO spellings are named."""

import datetime

import pytest

from toolkit.chat.days import misread, read_as, read_day, read_moment


def test_a_day_written_yyyy_mm_dd_is_read_blanks_around_it_allowed():
    assert read_day(" 2026-10-25\n") == datetime.date(2026, 10, 25)
    assert read_moment("2026-10-25T09:30:00+08:00") == datetime.datetime.fromisoformat("2026-10-25T09:30:00+08:00")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("2026-W43-1", " (an ISO week date, for 2026-10-19)"),
        ("2026-W43", " (an ISO week date, for 2026-10-19)"),  # a week: Python reads its Monday
        ("20261025", " (a date without dashes, for 2026-10-25)"),
        ("2026-02-30", ""),
        ("٢٠٢٦-١٠-٢٠", ""),  # digits of another script: no day here, nor to Python
        ("next monday", ""),
    ],
)
def test_every_other_spelling_is_refused_and_what_python_reads_it_as_is_said(text, said):
    with pytest.raises(ValueError):
        read_day(text)
    with pytest.raises(ValueError):
        read_moment(text + "T10:00")
    assert misread(text) == said
    assert (read_as(text) is None) == (said == "")
