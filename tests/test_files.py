"""`toolkit.files`: a file a stranger names is read only if it is a regular file (or, where a
reader takes one, a pipe) of at most the reader's cap, and never past the cap."""

import os
import threading

import pytest

from toolkit import files


class Refused(ValueError):
    """The error type a reader passes in (each reader keeps its own)."""


def read(path, cap, **more):
    return files.read_bytes(
        path, cap, where=f"things {path}", cap_name="CAP", fix="make it shorter", error=Refused, **more
    )


def refusal(path, cap, **more):
    with pytest.raises(Refused) as caught:
        read(path, cap, **more)
    return str(caught.value)


def test_a_file_of_exactly_the_cap_is_read_and_one_byte_more_is_refused_unread(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"x" * 10)
    assert read(path, 10) == b"x" * 10
    assert refusal(path, 9) == (
        f"things {path}: the file is 10 bytes, over the cap of 9 bytes (CAP). Fix: make it shorter"
    )


def test_a_file_that_grows_while_it_is_read_is_read_no_further_than_the_cap(tmp_path, monkeypatch):
    path = tmp_path / "f.txt"
    path.write_bytes(b"x" * 100)
    monkeypatch.setattr(files, "_kind", lambda fd: (os.fstat(fd).st_mode, 5))  # its size when it was looked at
    assert (
        refusal(path, 10) == f"things {path}: the file holds more than the cap of 10 bytes (CAP). Fix: make it shorter"
    )


def test_a_folder_a_pipe_or_a_device_is_refused_unread(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # reading it would wait for a writer forever, /dev/zero never ends
    for path in pipe, "/dev/zero", tmp_path:
        assert refusal(path, 10) == f"things {path}: not a regular file (a folder, a pipe or a device)"


def test_a_reader_that_takes_streams_reads_a_pipe_up_to_the_cap(tmp_path):
    for sent, cap in (b"a,b\n", 4), (b"a,b\n" * 3, 4):
        read_end, write_end = os.pipe()
        writer = threading.Thread(target=lambda data=sent, fd=write_end: (os.write(fd, data), os.close(fd)))
        writer.start()
        try:
            if len(sent) <= cap:
                assert read(f"/dev/fd/{read_end}", cap, streams=True) == sent
            else:
                assert refusal(f"/dev/fd/{read_end}", cap, streams=True) == (
                    f"things /dev/fd/{read_end}: the file holds more than the cap of 4 bytes (CAP). "
                    "Fix: make it shorter"
                )
        finally:
            writer.join()
            os.close(read_end)
    assert refusal("/dev/zero", 4, streams=True).startswith(
        "things /dev/zero: the file holds more than the cap of 4 bytes"
    )


def test_a_folder_is_an_os_error_for_a_reader_that_takes_streams(tmp_path):
    with pytest.raises(IsADirectoryError):
        read(tmp_path, 10, streams=True)


def test_a_missing_file_or_text_that_is_not_utf8_passes_through_for_the_reader_to_word(tmp_path):
    with pytest.raises(FileNotFoundError):
        read(tmp_path / "missing", 10)
    path = tmp_path / "gbk.txt"
    path.write_bytes("订单".encode("gbk"))
    with pytest.raises(UnicodeDecodeError):
        files.read_text(path, 10, where="w", cap_name="CAP", fix="f", error=Refused)


def test_first_line_reads_the_first_line_of_a_regular_file_within_its_bound(tmp_path):
    text = tmp_path / "t.txt"
    text.write_bytes(b"root:x:0:0\nsecond\n")
    link = tmp_path / "link"
    link.symlink_to(text)
    assert files.first_line(text, 100) == files.first_line(link, 100) == b"root:x:0:0"
    assert files.first_line(text, 4) == b"root"
    text.write_bytes(b"a" * 200_000)
    assert files.first_line(text, 150_000) == b"a" * 150_000
    assert files.first_line(tmp_path / "none", 10) is None
    assert files.first_line(tmp_path, 10) is None
    os.mkfifo(tmp_path / "fifo")
    assert files.first_line(tmp_path / "fifo", 10) is None  # no writer: no wait
