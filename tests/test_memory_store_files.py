"""`SqliteStore` given a path that is no memory store: each is one typed line naming the path,
and the user's file is left exactly as it was."""

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.errors import MemoryStoreError
from toolkit.memory.store import SqliteStore

NOT_A_DATABASE = "file is not a database (the file may be corrupted or truncated; move it away to start a fresh one)"


@pytest.mark.parametrize("content", [b"\n", b"x", b"S", b"\x00", b"SQLite format 3", "记".encode()])
def test_a_short_file_that_is_not_a_database_is_refused_and_left_as_it_was(tmp_path, content):
    """Before: a 1-byte file (`echo > memory.db`) was taken for an empty database and written over."""
    path = tmp_path / "memory.db"
    path.write_bytes(content)
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path).append("u", [UserMessage(content="hi")])
    assert str(caught.value) == f"cannot open memory database {path}: {NOT_A_DATABASE}"
    assert path.read_bytes() == content


def test_an_empty_file_and_a_store_of_ours_still_open(tmp_path):
    path = tmp_path / "memory.db"
    path.touch()
    SqliteStore(path).append("u", [UserMessage(content="hi")])
    assert SqliteStore(path).get("u") == [UserMessage(content="hi")]


def test_an_empty_path_is_named_as_such_not_as_the_current_folder():
    """Before: "cannot open memory database .: unable to open database file (...)", a path never given."""
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore("")
    assert str(caught.value) == (
        "SqliteStore(''): the path is empty; name a file, e.g. 'memory.db' (or ':memory:' for a store that lives "
        "as long as this object)"
    )


def test_a_link_loop_is_a_typed_line_naming_the_path(tmp_path):
    """Before: `RuntimeError: Symlink loop from '…'` (Path.resolve), no MemoryStoreError and no hint."""
    loop = tmp_path / "memory.db"
    loop.symlink_to(loop)
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(loop)
    assert str(caught.value) == (
        f"cannot open memory database {loop}: a symbolic link loop (a link that names itself, at the end "
        "or on the way); point the link at a file, or give the file's own path"
    )
    assert loop.is_symlink()
