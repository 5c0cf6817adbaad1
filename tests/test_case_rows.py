"""A cases CSV a stranger hands over, read by the drill and by the accuracy suite: a file that
cannot be read, is not UTF-8, holds a huge field or a row longer than its header is one
`ConfigurationError` naming the file (and the line), never a raw error or fields silently dropped."""

import pytest

from toolkit.course import accuracy, drill
from toolkit.errors import ConfigurationError

READERS = {
    "drill cases": (drill, "id,tool,arguments,expect,expect_field,expect_value", "D01,query_order,{},ok,orderId,订单"),
    "accuracy cases": (accuracy, "id,group,question,expect_tool,expect_order_id", "N01,normal,你好,,"),
}


def error_of(what, path):
    with pytest.raises(ConfigurationError) as info:
        READERS[what][0].load_cases(path)
    return str(info.value)


@pytest.mark.parametrize("what", READERS)
def test_a_file_saved_in_another_encoding_says_how_to_save_it(tmp_path, what):
    _, header, row = READERS[what]
    path = tmp_path / "cases.csv"
    path.write_bytes(f"{header}\n{row}\n".encode("gbk"))  # Excel's "CSV" on a Chinese Windows
    assert (
        error_of(what, path)
        == f"{what} {path}: the file is not UTF-8 text. Fix: save it as 'CSV UTF-8 (Comma delimited)'"
    )


@pytest.mark.parametrize("what", READERS)
def test_a_row_longer_than_the_header_names_its_line(tmp_path, what):
    _, header, row = READERS[what]
    path = tmp_path / "cases.csv"
    path.write_text(f"{header}\n{row}\n{row},one,two\n", encoding="utf-8")
    columns = header.count(",") + 1
    assert error_of(what, path) == (
        f"{what} {path}, line 3: {columns + 2} fields, the header has {columns}. Fix: put double quotes around a "
        "value that holds a comma"
    )


@pytest.mark.parametrize("what", READERS)
def test_a_field_over_the_csv_limit_names_its_line(tmp_path, what):
    _, header, row = READERS[what]
    path = tmp_path / "cases.csv"
    path.write_text(f'{header}\n{row}\n{row},"{"x" * 200_000}"\n', encoding="utf-8")
    assert error_of(what, path) == f"{what} {path}, line 3: field larger than field limit (131072). Fix that row"


@pytest.mark.parametrize("what", READERS)
def test_a_missing_file_or_a_folder_names_the_file(tmp_path, what):
    assert error_of(what, tmp_path / "nope.csv") == (
        f"{what} {tmp_path / 'nope.csv'}: cannot read the file (No such file or directory)"
    )
    assert error_of(what, tmp_path) == f"{what} {tmp_path}: cannot read the file (Is a directory)"


@pytest.mark.parametrize("what", READERS)
def test_a_file_over_the_cap_is_refused_unread_and_one_at_the_cap_is_read(tmp_path, monkeypatch, what):
    from toolkit.course import case_rows

    _, header, row = READERS[what]
    path = tmp_path / "cases.csv"
    path.write_text(f"{header}\n{row}\n", encoding="utf-8")
    size = path.stat().st_size
    monkeypatch.setattr(case_rows, "MAX_CASES_BYTES", size - 1)
    assert error_of(what, path) == (
        f"{what} {path}: the file is {size} bytes, over the cap of {size - 1} bytes "
        "(toolkit.course.case_rows.MAX_CASES_BYTES). Fix: split the cases into several files"
    )
    monkeypatch.setattr(case_rows, "MAX_CASES_BYTES", size)
    assert len(READERS[what][0].load_cases(path)) == 1


@pytest.mark.parametrize("what", READERS)
def test_a_pipe_is_read_only_up_to_the_cap(monkeypatch, what):
    import os
    import threading

    from toolkit.course import case_rows

    _, header, row = READERS[what]
    sent = f"{header}\n{row}\n".encode()
    monkeypatch.setattr(case_rows, "MAX_CASES_BYTES", len(sent) - 1)
    read_end, write_end = os.pipe()
    writer = threading.Thread(target=lambda: (os.write(write_end, sent), os.close(write_end)))
    writer.start()
    try:
        assert error_of(what, f"/dev/fd/{read_end}") == (
            f"{what} /dev/fd/{read_end}: the file holds more than the cap of {len(sent) - 1} bytes "
            "(toolkit.course.case_rows.MAX_CASES_BYTES). Fix: split the cases into several files"
        )
    finally:
        writer.join()
        os.close(read_end)


def test_an_error_names_the_line_its_row_starts_on_past_blank_lines_and_quoted_line_breaks(tmp_path):
    """Before: the row's place among the rows ('line 3'), blank lines and a question's own line breaks not counted."""
    path = tmp_path / "cases.csv"
    header = "id,group,question,expect_tool,expect_order_id"
    path.write_text(f'{header}\n\nN01,normal,"第一行\n第二行",,\n\nN02,norml,你好,,\n', encoding="utf-8")
    assert error_of("accuracy cases", path) == (
        f"accuracy cases {path}, line 6 (N02): group 'norml' is not one of normal, edge, no_call. Fix that row"
    )
    path.write_text(f'{header}\nN01,normal,"a\nb",,\nN02,normal,"c\nd",,,x\n', encoding="utf-8")
    assert error_of("accuracy cases", path).startswith(f"accuracy cases {path}, line 4: 6 fields, the header has 5.")
    path.write_text("id,tool,arguments,expect,expect_field,expect_value\n\n\nD01,query_order,{},maybe,orderId,\n")
    assert error_of("drill cases", path) == (
        f"drill cases {path}, line 4 (D01): expect is 'maybe', not ok or reject. Fix that row"
    )


@pytest.mark.parametrize("what", READERS)
def test_a_row_shorter_than_the_header_names_its_line(tmp_path, what):
    """Before: the missing fields were read as empty: 'N01,normal,帮我查 SN…' became a question that needs no tool."""
    _, header, row = READERS[what]
    path = tmp_path / "cases.csv"
    short = ",".join(row.split(",")[:3])
    path.write_text(f"{header}\n{row}\n{short}\n", encoding="utf-8")
    columns = header.count(",") + 1
    assert error_of(what, path) == (
        f"{what} {path}, line 3: 3 fields, the header has {columns}. Fix: give the row every field "
        "(an empty one is nothing between two commas)"
    )


def test_a_row_may_leave_out_the_optional_expect_args_at_its_end(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text("id,group,question,expect_tool,expect_order_id,expect_args\nN01,normal,你好,,\n", encoding="utf-8")
    assert [c.id for c in accuracy.load_cases(path)] == ["N01"]
