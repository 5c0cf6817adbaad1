"""An empty cases file is said to be empty, not "columns are None" (both CSV readers)."""

import pytest

from toolkit.course import accuracy, drill
from toolkit.course.csv_header import found_header, header_fix
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


@pytest.mark.parametrize(("separator", "said"), [(";", "';'"), ("\t", "tabs"), ("|", "'|'")])
def test_a_header_separated_by_another_character_says_so(separator, said):
    """Before: "columns are ['id;group;…']" and "Fix the header row", of a header whose names were right."""
    header = [separator.join(["id", "group", "question"])]
    assert found_header(header) == f"the columns are separated by {said}, not commas"
    assert header_fix(header) == "Fix: save it as 'CSV UTF-8 (Comma delimited)'"
    assert header_fix(["id", "grp"]) == header_fix(None) == header_fix(["id"]) == "Fix the header row"


@pytest.mark.parametrize("load", [drill.load_cases, accuracy.load_cases])
def test_a_cases_file_separated_by_semicolons_says_how_to_save_it(tmp_path, load):
    path = tmp_path / "cases.csv"
    path.write_text("id;group;question\nN01;normal;你好\n", encoding="utf-8")
    with pytest.raises(ConfigurationError) as raised:
        load(path)
    assert str(raised.value).split(":", 1)[1].startswith(" the columns are separated by ';', not commas, expected ")
    assert str(raised.value).endswith(". Fix: save it as 'CSV UTF-8 (Comma delimited)'")
