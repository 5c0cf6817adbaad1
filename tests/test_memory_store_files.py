"""`SqliteStore` given a path that is no memory store: each is one typed line naming the path,
and the user's file is left exactly as it was."""

import os
import sqlite3

import pytest

from toolkit.chat.messages import UserMessage
from toolkit.errors import MemoryStoreError
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory

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


def _read_only_folder(path, folder, existing: bool) -> str:
    return (
        f"the folder {folder} is read-only for this user, and SQLite writes "
        f"beside the database (its -wal and -shm files; the turn lock's {path.name}-turn-lock); give the store a "
        f"file in a folder you may write, e.g. SqliteStore(Path.home() / {path.name!r})"
        + (" (copy this file there first to keep its conversations)" if existing else "")
    )


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes in any folder")
@pytest.mark.parametrize("existing", ["no", "closed", "open elsewhere"])
def test_a_store_in_a_folder_the_user_may_not_write_says_so_at_creation(tmp_path, existing):
    """A read-only course share: before, "attempt to write a readonly database" for a store only
    opened, or "unable to open database file (check that the path names a file you may write, in
    a folder that exists, ...)": guesses, never the folder. With the database open elsewhere (its
    -wal and -shm there), SQLite opens it and the turn lock file cannot be made: the same folder."""
    folder = (tmp_path / "share").resolve()
    folder.mkdir()
    path = folder / "memory.db"
    elsewhere = None
    if existing != "no":
        elsewhere = SqliteStore(path)
        elsewhere.append("u", [UserMessage(content="hi")])
        if existing == "closed":
            elsewhere.close()
    before = sorted(p.name for p in folder.iterdir())
    folder.chmod(0o555)
    try:
        with pytest.raises(MemoryStoreError) as caught:
            ChatMemory("u", store=SqliteStore(path))
        start = (
            f"cannot open the turn lock file {path}-turn-lock for memory id 'u': Permission denied ("
            if existing == "open elsewhere"
            else f"cannot open memory database {path}: "
        )
        end = ")" if existing == "open elsewhere" else ""
        assert str(caught.value) == start + _read_only_folder(path, folder, existing != "no") + end
        assert sorted(p.name for p in folder.iterdir()) == before
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize("error", ["unable to open database file", "attempt to write a readonly database"])
def test_a_folder_the_user_may_not_write_is_named_whatever_sqlite_answers(tmp_path, monkeypatch, error):
    """The same as the test above where it cannot run (as root, who writes in any folder): the
    folder is made one this user may not write, and SQLite answers as it does there."""
    import toolkit.memory.store as store_module

    folder = (tmp_path / "share").resolve()
    folder.mkdir()
    path = folder / "memory.db"

    def refused(*args, **kwargs):
        raise sqlite3.OperationalError(error)

    monkeypatch.setattr(store_module, "may_write", lambda where: where != folder)
    monkeypatch.setattr(sqlite3, "connect", refused)
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path)
    assert str(caught.value) == f"cannot open memory database {path}: " + _read_only_folder(path, folder, False)
    path.touch()  # a store there already: copied first, to keep it
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path)
    assert str(caught.value) == f"cannot open memory database {path}: " + _read_only_folder(path, folder, True)


@pytest.mark.parametrize("lock_file", ["missing", "another user's"])
def test_a_turn_lock_file_the_user_may_not_make_or_write_names_the_folder_or_the_file(tmp_path, monkeypatch, lock_file):
    """Before: "... Permission denied (...; the folder must be writable and its file system must
    support POSIX record locks ...)" for a folder that is writable and a lock file that is not."""
    import toolkit.memory.turns as turns_module

    folder = (tmp_path / "share").resolve()
    folder.mkdir()
    path = folder / "memory.db"
    store = SqliteStore(path)
    lock = folder / "memory.db-turn-lock"
    if lock_file == "another user's":
        lock.touch()
    open_file = os.open

    def refused(name, *args, **kwargs):
        if os.fspath(name) == str(lock):
            raise PermissionError(13, "Permission denied", str(lock))
        return open_file(name, *args, **kwargs)

    monkeypatch.setattr(turns_module, "may_write", lambda where: where != folder or lock_file != "missing")
    monkeypatch.setattr(os, "open", refused)
    with pytest.raises(MemoryStoreError) as caught:
        ChatMemory("u", store=store)
    advice = (
        _read_only_folder(path, folder, True)
        if lock_file == "missing"
        else "it keeps two processes' turns on one id apart, and this user may not write it: its owner can allow "
        f"it (chmod a+rw {lock}), or give the store a file in a folder of your own"
    )
    assert str(caught.value) == (
        f"cannot open the turn lock file {lock} for memory id 'u': Permission denied ({advice})"
    )


@pytest.mark.parametrize("folder", ["memory.db", "memory.db-wal", "memory.db-shm"])
def test_a_folder_where_the_store_or_its_wal_files_go_is_named(tmp_path, folder):
    """Before: "unable to open database file" (the database or its `-wal` a folder) or "attempt to write a
    readonly database" (its `-shm`), then "(check that the path names a file you may write, ...)"."""
    path = tmp_path.resolve() / "memory.db"
    (tmp_path / folder).mkdir()
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path)
    assert str(caught.value) == (
        f"cannot open memory database {path}: {path.parent / folder} is a folder, where SQLite needs a file; "
        f"name another file for the store, or move the folder away"
    )


def test_a_store_in_a_folder_that_does_not_exist_names_the_folder(tmp_path):
    """Before: "unable to open database file (check that the path names a file you may write, in a
    folder that exists, on a disk with room, not locked)", the folder never named."""
    path = tmp_path.resolve() / "nowhere" / "memory.db"
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path)
    assert str(caught.value) == (
        f"cannot open memory database {path}: the folder {path.parent} does not exist; create it "
        f"(Path({str(path.parent)!r}).mkdir(parents=True)), or name a file in a folder that exists"
    )
    assert not path.parent.exists()


def _moved_line(action: str, path) -> str:
    return (
        f"cannot {action} memory database {path}: the file was deleted or replaced since this store opened it; "
        f"nothing was read or written. Open it again to use the file there now: SqliteStore({str(path)!r})"
    )


def test_a_store_whose_file_was_deleted_refuses_instead_of_writing_to_a_ghost(tmp_path):
    """Before: after `rm memory.db` the running kernel went on appending to the deleted file (its
    data lost at exit) and answering from it, while a new store on the path saw an empty memory."""
    path = tmp_path / "memory.db"
    store = SqliteStore(path)
    store.append("u", [UserMessage(content="hi")])
    os.remove(path)
    with pytest.raises(MemoryStoreError) as caught:
        store.append("u", [UserMessage(content="lost?")])
    assert str(caught.value) == _moved_line("append to 'u' in", path)
    with pytest.raises(MemoryStoreError) as caught:
        ChatMemory("u", store=store).messages()
    assert str(caught.value) == _moved_line("read 'u' from", path)
    fresh = SqliteStore(path)
    fresh.append("u", [UserMessage(content="a new start")])
    assert fresh.get("u") == [UserMessage(content="a new start")] == SqliteStore(path).get("u")
    store.close()
    assert fresh.get("u") == [UserMessage(content="a new start")]


def test_a_store_whose_file_was_replaced_never_answers_from_the_old_one(tmp_path):
    path, other = tmp_path / "memory.db", tmp_path / "other.db"
    store = SqliteStore(path)
    store.append("u", [UserMessage(content="old")])
    assert store.get("u") == [UserMessage(content="old")]
    replacement = SqliteStore(other)
    replacement.append("u", [UserMessage(content="replacement")])
    replacement.close()
    os.replace(other, path)
    for action, call in [
        ("read 'u' from", lambda: store.get("u")),
        ("write 'u' to", lambda: store.set("u", [])),
        ("delete 'u' from", lambda: store.delete("u")),
        ("list", store.memory_ids),
    ]:
        with pytest.raises(MemoryStoreError) as caught:
            call()
        assert str(caught.value) == _moved_line(action, path)


def test_a_write_to_a_file_the_user_may_not_write_says_so_and_reads_still_work(tmp_path, monkeypatch):
    """A course's example memory shipped read-only (chmod 444) in a folder the learner may write:
    SQLite opens it for reading, and a write was 'attempt to write a readonly database (check that
    the path names a file you may write, in a folder that exists, on a disk with room, not
    locked)'. As root (who writes any file) the file is opened read-only as SQLite opens it then."""
    import toolkit.memory.store as store_module

    path = (tmp_path / "memory.db").resolve()
    store = SqliteStore(path)
    store.append("u", [UserMessage(content="hi")])
    store._db.close()
    store._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
    monkeypatch.setattr(store_module, "may_write", lambda where: where != path)
    assert ChatMemory("u", store=store).messages() == [UserMessage(content="hi")]
    with pytest.raises(MemoryStoreError) as caught:
        ChatMemory("u", store=store).add(UserMessage(content="more"))
    assert str(caught.value) == (
        f"cannot append to 'u' in memory database {path}: attempt to write a readonly database (the file is "
        "read-only for this user: it can be read, not written; to go on with it, copy it to a file you may "
        f"write, e.g. shutil.copy({str(path)!r}, Path.home() / 'memory.db'), and open the copy)"
    )
    assert store.get("u") == [UserMessage(content="hi")]


@pytest.mark.parametrize(
    "make, kind",
    [
        (lambda path: os.symlink("/dev/zero", path), "a character device (a link to /dev/zero)"),
        (lambda path: os.symlink("/dev/null", path), "a character device (a link to /dev/null)"),
        (os.mkfifo, "a named pipe (FIFO)"),
    ],
    ids=["dev-zero", "dev-null", "fifo"],
)
def test_a_device_or_a_pipe_where_the_store_goes_is_named(tmp_path, make, kind):
    """Before: "disk I/O error (check that the path names a file you may write, … on a disk with room …)"."""
    path = tmp_path.resolve() / "memory.db"
    make(str(path))
    with pytest.raises(MemoryStoreError) as caught:
        SqliteStore(path)
    assert str(caught.value) == (
        f"cannot open memory database {path}: {path} is {kind}, where SQLite needs a file; name another file for "
        "the store, or move it away"
    )
