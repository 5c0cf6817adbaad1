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


_OTHER_PROCESS_WRITES_AND_CLOSES = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE meta SET value = value WHERE key = 'schema_version'")
db.execute("COMMIT")
db.close()
"""


def test_opening_a_second_store_on_a_file_keeps_the_first_ones_writes(tmp_path):
    """Before: the second `SqliteStore` read the file's header with `open()` and closed it, which
    dropped every POSIX lock this process held on the file (SQLite's among them). Another process
    closing the database then took itself for its last user and deleted `-wal` and `-shm` under
    the first store, whose later writes went to a file nobody else reads: lost."""
    import subprocess
    import sys

    path = tmp_path / "memory.db"
    first = SqliteStore(path)
    first.append("u", [UserMessage(content="one")])
    SqliteStore(path).get("u")  # a second store on the file: a request handler's, a notebook cell's
    subprocess.run([sys.executable, "-c", _OTHER_PROCESS_WRITES_AND_CLOSES, str(path)], check=True)
    first.append("u", [UserMessage(content="two")])
    read = "import sys; from toolkit.memory.store import SqliteStore; print([m.content for m in SqliteStore(sys.argv[1]).get('u')])"
    out = subprocess.run([sys.executable, "-c", read, str(path)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['one', 'two']"


def test_any_path_like_object_names_the_file_as_sqlite3_and_open_take_it(tmp_path):
    """Before: `SqliteStore(PurePosixPath(...))` or pytest's `tmpdir / 'm.db'` (os.PathLike, not
    Path) was refused with "the path must be a str or Path", where sqlite3.connect takes it."""
    from pathlib import PurePath

    class Located:  # a PathLike of one's own, as py.path.local is
        def __fspath__(self) -> str:
            return str(tmp_path / "m.db")

    SqliteStore(PurePath(tmp_path / "m.db")).append("u", [UserMessage(content="hi")])
    assert SqliteStore(Located()).get("u") == [UserMessage(content="hi")]
    assert SqliteStore(Located()).path == tmp_path / "m.db"
