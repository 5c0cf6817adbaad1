"""An empty cases file is said to be empty, not "columns are None" (both CSV readers)."""

import pytest

from toolkit.course import accuracy, drill
from toolkit.course.csv_header import found_header
from toolkit.errors import ConfigurationError


def test_found_header_names_the_columns_or_the_missing_header_row():
    assert found_header(["id", "group"]) == "columns are ['id', 'group']"
    assert found_header(None) == "the file is empty (no header row)"


@pytest.mark.parametrize(
    ("load", "expected"),
    [
        (drill.load_cases, "drill cases {}: the file is empty (no header row), expected " + ",".join(drill.COLUMNS)),
        (accuracy.load_cases, "accuracy cases {}: the file is empty (no header row), expected "),
    ],
)
def test_an_empty_cases_file_is_said_to_be_empty(tmp_path, load, expected):
    """Before: 'columns are None, expected ...' (what `csv.DictReader.fieldnames` is for an empty file)."""
    path = tmp_path / "cases.csv"
    path.write_text("", encoding="utf-8")
    with pytest.raises(ConfigurationError) as raised:
        load(path)
    assert str(raised.value).startswith(expected.format(path))
    assert str(raised.value).endswith(". Fix the header row")
