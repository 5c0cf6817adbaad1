"""A persistent chat-memory store on SQLite (stdlib `sqlite3`): conversations survive restarts.

Layout (schema version 2):

    conversations(memory_id, first_seq, next_seq, system, system_checksum)
    messages(memory_id, seq, payload, checksum)      -- one row per message, seq contiguous

The system message in the first place lives on the conversation row (a new one replaces the old
in place); every other message is one row (a system message `set` or `update` put further on
too, kept where it was as `InMemoryStore` keeps it: a new system message replaces it as well, as
`with_system` does, and one a window leaves first becomes the conversation row's, as `evict` reads
it), appended with `seq = next_seq` in one `BEGIN IMMEDIATE` transaction,
so two processes appending to one id lose nothing and an append costs the same at 10 and at
1,000 messages. A window evicts from the front by raising `first_seq`: `append_in_window` reads
only the rows that leave and the current turn's (what it knows of a conversation, its tokens and
its tool results per call, it keeps while that conversation is as it was: see `_holds`),
so a windowed append costs the same at 10 and at 1,000 messages too. `get` keeps the list it
read (`CACHED_MESSAGES` in all) and reads again only after another connection or a write it
cannot follow changed the conversation; it reads in one snapshot. Another connection's write
to another conversation changes nothing kept: a conversation's rows only ever change by an
append or a drop from the front (its row's `first_seq`/`next_seq` move) or by a rewrite
(`set`, `delete`, an `update` that is not that shape), which every toolkit writer counts in
`meta` (`_REWRITES`), as the file's triggers count a row another program (the sqlite3 CLI)
changes or deletes (`_EDITS`). Each `get` is a new list of
the same frozen message records, as `InMemoryStore` gives. Payloads are the
message's full JSON (attributes included) with sorted keys, so a restart reads back
byte-identical data; text that UTF-8 cannot hold (a lone surrogate from `os.fsdecode`, the two
halves of an emoji that came in two chunks of a stream) is written with JSON `\\u` escapes,
losslessly, before anything reaches the database: such a payload starts with a blank and is read
back without joining two escapes into one character (`_UNJOINED`; the payloads before it are read
as they always were).
A tool result's `attributes` and an assistant message's `extra` fields are JSON too: a value
JSON cannot hold as it is (an object of one's own, bytes that are not UTF-8, NaN or infinity,
which would come back as None, a key with a lone surrogate) raises `ConfigurationError` naming
the message and the key, before anything is written (`toolkit.memory.storable`: `InMemoryStore`
refuses the same), as does a tool result that answers no earlier call (`toolkit.memory.answers`);
other values come back in their JSON form (a tuple or a set as a list, a date as its ISO text).

Each row's checksum (SHA-256 of id, seq and payload) is verified on load. A changed row, a
missing row (the seqs must run from `first_seq` to `next_seq - 1`), a conversation row whose
seqs are not whole numbers in order (nor below 2**62: `_SEQ_LIMIT`), a tool result that answers no earlier call, or a payload
that is not a message (not text, not JSON, nested too deeply to read) raises `MemoryStoreError` naming the path, the id
and the row. An id SQLite cannot store (a lone surrogate) raises `MemoryIdError`, anything but
messages `ConfigurationError`, both before the database is touched. A path starting with `~` is
in the home folder, as in a shell. A file that is not an SQLite database raises
`MemoryStoreError` on open and is left as it was (a 1-byte file, which SQLite takes for an empty
database, is refused before anything is written: `_check_header`; the file is never opened but
through SQLite, which keeps the locks of the process's other connections to it). A 0-byte file is a new, empty store (SQLite treats it so, and `touch
memory.db` is a common way to make one). A folder where the file or its `-wal` or `-shm` goes is named as such
(`_folder_problem`), and so is a device, a pipe or a socket (a link to `/dev/zero`: SQLite said "disk I/O error"). A file deleted or replaced under a running store (its
device and inode no longer the path's) is refused at the next use with `MemoryStoreError`, never
read from nor written to again (`_check_same_file`). A database of another program (tables or views, but no toolkit
schema version) raises `MemoryStoreError` on open and is left untouched. A store written by the
previous layout (version 1: no checksums) is migrated in place on open, in one transaction;
any other version is refused.

The database runs in WAL mode; one connection is shared by the threads of a process behind a
lock, and other processes wait on SQLite's busy timeout (`BUSY_TIMEOUT`; opening a new file too, see
`_switch_to_wal`). A forked child (multiprocessing's
default start on Linux) gets a connection and a lock of its own at the fork: SQLite forbids
using the parent's connection there, and a lock a parent thread held at the fork would never be
released in the child. A store sent to a process started with `spawn` (a worker's argument,
pickled) goes as its file and is opened there anew; a ":memory:" store cannot go
(`ConfigurationError`). That keeps each *write* whole; a *turn*
(several writes: the question, a tool call, its results, the answer) is kept whole by the turn
lock `turn_lock(memory_id)` gives every `ChatMemory` on this file and id, in every process: a
record lock on a sidecar file `<database>-turn-lock` (see `toolkit.memory.turns` for why). So
two workers or two browser tabs on one id take turns instead of mixing their rows into a
conversation no gateway accepts.

Leaves out: compaction of old conversations, and encryption at rest.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import json.scanner
import os
import re
import sqlite3
import stat
import threading
import time
import weakref
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic_core import ValidationError

from toolkit.chat.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolResultMessage,
    load_message,
)
from toolkit.errors import ConfigurationError, MemoryStoreError, article
from toolkit.memory.answers import answered, asked_ids, asks_for, names_call
from toolkit.memory.storable import dumped
from toolkit.memory.turns import (
    StoreRLock,
    TurnLockLike,
    file_turn_lock,
    may_write,
    read_only_folder,
    shared_lock,
)
from toolkit.memory.windows import (
    FIND,
    Joined,
    MessageWindow,
    TokenWindow,
    Window,
    _listed,
    _merged,
    check_memory_id,
    check_messages,
    check_window,
    last_user,
    running_change,
    shown,
    window_drop,
)
from toolkit.unicode import is_utf8

SCHEMA_VERSION = 2
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS conversations (
    memory_id TEXT PRIMARY KEY,
    first_seq INTEGER NOT NULL,
    next_seq INTEGER NOT NULL,
    system TEXT,
    system_checksum TEXT
);
CREATE TABLE IF NOT EXISTS messages (
    memory_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    checksum TEXT NOT NULL,
    PRIMARY KEY (memory_id, seq)
);
"""


@functools.cache
def _columns() -> dict[str, list[str]]:
    """Each table of `_SCHEMA` and its columns, in order (read from the schema itself, once)."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(_SCHEMA)
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: [row[1] for row in db.execute(f"PRAGMA table_info({table})")] for table in tables}
    finally:
        db.close()


_INDEX = """CREATE INDEX IF NOT EXISTS system_rows ON messages (memory_id, seq) WHERE instr(payload, '"role":"system"') > 0"""
"""Made on open when missing (a store from before it): skipped on a file opened read-only."""
_COUNT_REWRITE = (
    "INSERT INTO meta VALUES ('rewrites', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
)
_EDITS = (
    f"CREATE TRIGGER IF NOT EXISTS edited_rows AFTER UPDATE ON messages BEGIN {_COUNT_REWRITE}; END",
    "CREATE TRIGGER IF NOT EXISTS deleted_rows AFTER DELETE ON messages "
    "WHEN old.seq >= (SELECT first_seq FROM conversations WHERE memory_id = old.memory_id) "
    f"BEGIN {_COUNT_REWRITE}; END",
)
"""A row of a conversation changed or deleted by any program (the sqlite3 CLI, a script) counts as a
rewrite (`_REWRITES`), so a store holding the conversation reads it again (`_holds`). The toolkit
never updates a row, and moves a conversation's `first_seq` (or deletes its row) before it deletes
rows below it: its own front drops are not counted. Made on open when missing, as `_INDEX`."""
_SYSTEM_ROWS = """instr(payload, '"role":"system"') > 0"""
"""The rows that may hold a system message (the `system_rows` index: finding none costs the same
at any length); `json_extract` then says which do (a row whose attributes hold that text only looks like one)."""
_SYSTEM_ROW = -1
"""The seq the system message's checksum is computed with."""
_Stamp = tuple[int, str | None]
"""(`PRAGMA data_version`, the rewrites `meta` counts: `_REWRITES`), see `SqliteStore._stamp`."""
_REWRITES = "rewrites"
"""The `meta` key counting the rewrites of the file (see `SqliteStore._rewritten`): while it and
a conversation's row are as they were, so are its rows, whoever wrote to the file since."""


BUSY_TIMEOUT = 30.0
"""Seconds a write (and opening the file) waits for another connection's write to end before it
raises `MemoryStoreError` ("database is locked")."""
WAL_RETRY_PAUSE = 0.005
"""Seconds between two tries to switch a new file to WAL mode (see `_switch_to_wal`)."""


def _switch_to_wal(db: sqlite3.Connection) -> None:
    """Put the database in WAL mode, waiting up to `BUSY_TIMEOUT` for other connections. SQLite
    answers the switch with "database is locked" at once, without its busy timeout, while another
    connection holds the file's write lock in the old mode: two processes opening a new file
    together (workers started at once) meet that. It is tried again after `WAL_RETRY_PAUSE`;
    once the file is in WAL mode the switch is a no-op and never waits."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if not getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY") or time.monotonic() >= deadline:
                raise
        _pause(WAL_RETRY_PAUSE)


def _check_header(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a file that holds something but not an SQLite database, before anything is written
    to it: SQLite refuses most such files itself, but takes a 1-byte file (`echo > memory.db`, a
    stray character) for an empty database (no page) and writes over it. A 0-byte file is a new
    store. Asked of SQLite (`PRAGMA page_count`), never read with `open()`: closing a descriptor
    of the file drops every POSIX lock this process holds on it, SQLite's for another store on the
    same file among them, and another process closing the database would then delete the `-wal`
    and `-shm` under that store (its later writes lost)."""
    try:
        found = os.stat(path)
    except OSError:  # missing (a new store) or not reachable: SQLite says
        return
    if not stat.S_ISREG(found.st_mode) or not found.st_size:  # a folder, a pipe, a new store: SQLite says
        return
    if db.execute("PRAGMA page_count").fetchone()[0] == 0:
        raise sqlite3.DatabaseError("file is not a database")


def _fspath(path: os.PathLike[Any]) -> object:
    """`os.fspath(path)`, or `path` itself when that fails or gives bytes (refused as it is)."""
    try:
        text = os.fspath(path)
    except Exception:
        return path
    return text if isinstance(text, str) else path


def _resolved(path: Path) -> Path:
    """`path` with its links followed; `MemoryStoreError` for a link loop (`Path.resolve` raises
    `RuntimeError` there before Python 3.13; from 3.13 on it gives the path as far as it got, which
    `os.stat` then refuses with `ELOOP`)."""
    try:
        resolved = path.resolve()
    except (RuntimeError, OSError) as exc:  # a loop, before Python 3.13
        raise _link_loop(path) from exc
    try:
        os.stat(resolved)
    except OSError as exc:  # missing (a new store) or not readable: SQLite says what it makes of it
        if exc.errno == errno.ELOOP:  # a loop, from Python 3.13 on
            raise _link_loop(path) from exc
    return resolved


def _link_loop(path: Path) -> MemoryStoreError:
    return MemoryStoreError(
        f"cannot open memory database {path}: a symbolic link loop (a link that names itself, at the end or "
        "on the way); point the link at a file, or give the file's own path"
    )


def _identity(path: Path | None) -> tuple[int, int] | None:
    """(device, inode) of the file at `path`, None when there is none."""
    try:
        found = os.stat(path) if path is not None else None
    except OSError:
        return None
    return None if found is None else (found.st_dev, found.st_ino)


def _folder_problem(path: Path, folder: Path) -> str | None:
    """What keeps SQLite from opening `path` in `folder`, if it is the folder: missing, or not
    writable for this user, or a folder where the database or its `-wal` or `-shm` file goes (None:
    something else, SQLite's own words say it)."""
    for each in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if os.path.isdir(each):
            return f"{each} is a folder, where SQLite needs a file; name another file for the store, or move the folder away"
        kind = _not_a_file(each)
        if kind is not None:  # SQLite said "disk I/O error", and advised a disk with room
            return f"{each} is {kind}, where SQLite needs a file; name another file for the store, or move it away"
    try:
        found = os.stat(folder)
    except OSError as exc:
        if exc.errno != errno.ENOENT:
            return None
        return (
            f"the folder {folder} does not exist; create it (Path({str(folder)!r}).mkdir(parents=True)), or name a "
            "file in a folder that exists"
        )
    if not stat.S_ISDIR(found.st_mode) or may_write(folder):
        return None
    return read_only_folder(folder, path)


_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)
"""What a path may be that is neither a file nor a folder (`_not_a_file`)."""


def _not_a_file(path: Path) -> str | None:
    """What `path` is when it is there but no file nor folder (a device, a pipe, a socket; a link
    to one named with its target, `/dev/zero`), else None."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), None)
    if kind is None or not os.path.islink(path):
        return kind
    return f"{kind} (a link to {os.path.realpath(path)})"


_pause = time.sleep
"""How `_switch_to_wal` waits (a test replaces it to release the lock it holds)."""


class SqliteStore:
    """`ChatMemoryStore` on one SQLite file (see the module docstring for layout and guarantees)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        given: object = path
        if isinstance(given, os.PathLike) and not isinstance(given, Path):
            given = _fspath(given)  # a PurePath, py.path.local: the text it stands for, as sqlite3.connect reads it
        if not isinstance(given, (str, Path)) or "\x00" in str(given):
            raise MemoryStoreError(
                f"SqliteStore({path!r}): the path must be a str or Path without NUL characters, e.g. 'memory.db'"
            )
        path = given
        if path == "":  # Path("") is ".", the current folder: the error would name a path never given
            raise MemoryStoreError(
                f"SqliteStore({path!r}): the path is empty; name a file, e.g. 'memory.db' (or ':memory:' for a "
                "store that lives as long as this object)"
            )
        self.path: Path = Path(path).expanduser()  # "~/memory.db" means the home folder, as in a shell
        self._lock: AbstractContextManager[Any] = threading.Lock()
        self._known: dict[str, _Known] = {}
        """Id -> what `append_in_window` knows of its conversation (see `_Known`)."""
        self._row_tokens: dict[str, tuple[Callable[[Message], int] | None, dict[str, int]]] = {}
        """Id -> (a `TokenWindow`'s count, each stored row's tokens by checksum)."""
        self._asked: dict[str, _Asked] = {}
        """Id -> the call ids its stored assistant messages ask for, as far as read (see `_Asked`)."""
        self._lists = _ReadCache()
        """The conversations `get` read (or a write of this store extended), not read again while
        nothing changed them (see `_ReadCache`)."""
        self._stamps: _Stamp | None = None
        """The last (`PRAGMA data_version`, rewrites) read (see `_stamp`)."""
        self._resolved = None if str(path) == ":memory:" else _resolved(self.path)
        self._closed = False
        self._identity: tuple[int, int] | None = None
        """(device, inode) of the file the connection opened: another one at the path (the file
        deleted or replaced) is refused (`_check_same_file`)."""
        with self._guard("open"), self._folder_said():
            self._db = self._connect()
            with self._transaction():
                self._prepare()
        _OPEN.add(self)

    @contextmanager
    def _folder_said(self) -> Iterator[None]:
        """Around opening: SQLite's answer when the folder does not exist, or when this user may not
        write it (SQLite makes the `-wal` and `-shm` files beside the database, even to read it:
        "attempt to write a readonly database" for a store only opened), said as that, naming it."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            problem = None if self._resolved is None else _folder_problem(self.path, self._resolved.parent)
            if problem is None:
                raise
            raise MemoryStoreError(f"cannot open memory database {self.path}: {problem}") from exc

    def _connect(self) -> sqlite3.Connection:
        where = self.path if self._resolved is None else self._resolved  # a forked child after os.chdir: this file
        db = sqlite3.connect(where, check_same_thread=False, timeout=BUSY_TIMEOUT, isolation_level=None)
        try:
            if self._resolved is not None:
                _check_header(db, self._resolved)
            _switch_to_wal(db)
        except BaseException:
            db.close()
            raise
        self._identity = None if self._resolved is None else _identity(self._resolved)
        return db

    def _check_same_file(self, action: str) -> None:
        """Refuse to use a connection whose file is no longer at the path (deleted, or replaced by
        another): its reads would answer from the old file, and its writes would be lost with it
        or, through the `-wal` file named after the path, land in the file there now. Its
        connection is never closed (`_NEVER_CLOSED`: closing could checkpoint into that file)."""
        if self._identity is None or self._closed or _identity(self._resolved) == self._identity:
            return
        if not any(db is self._db for db in _NEVER_CLOSED):
            _NEVER_CLOSED.append(self._db)
        raise MemoryStoreError(
            f"cannot {action} memory database {self.path}: the file was deleted or replaced since this store opened "
            f"it; nothing was read or written. Open it again to use the file there now: SqliteStore({str(self.path)!r})"
        )

    def _after_fork(self) -> None:
        """In a forked child: a lock of its own (a parent thread may have held this one at the
        fork, and no thread of the child would ever release it) and, for a file, a connection of
        its own (SQLite forbids using the parent's in the child: its file locks belong to the
        parent). What the parent knew of the conversations is dropped; its connection is kept
        unused (closing it here could touch the parent's files)."""
        self._lock = threading.Lock()
        self._stamps = None
        if self._resolved is None or self._closed:  # ":memory:": the child's own copy of the data
            return
        _NEVER_CLOSED.append(self._db)
        self._known.clear()
        self._row_tokens.clear()
        self._asked.clear()
        self._lists = _ReadCache()
        try:
            self._db = self._connect()
        except sqlite3.Error:  # the file is gone or unreadable: closed, as the first use says
            self._db = sqlite3.connect(":memory:")
            self._db.close()
            self._closed = True

    def __repr__(self) -> str:
        return f"SqliteStore({str(self.path)!r})"

    def __reduce__(self) -> tuple[type[SqliteStore], tuple[str]]:
        """Sent to another process (a `spawn` worker's argument) as its file: opened there anew,
        with a connection of its own, as a forked child gets one. ":memory:" cannot go."""
        if self._resolved is None:
            raise ConfigurationError(
                "SqliteStore(':memory:') cannot go to another process: its database lives in this one; give "
                "the processes a file to share, e.g. SqliteStore('memory.db')"
            )
        return (SqliteStore, (str(self._resolved),))

    def __copy__(self) -> SqliteStore:
        """`copy.copy`, as before `__reduce__`: the same connection, lock and caches."""
        clone = object.__new__(SqliteStore)
        clone.__dict__.update(self.__dict__)
        return clone

    def __deepcopy__(self, memo: dict[int, Any]) -> SqliteStore:
        """`copy.deepcopy`: a store on the same file, as `pickle` gives (the file is shared, not
        copied); for ":memory:", a new one holding a copy of its conversations, written apart from
        it from then on (where `pickle` refuses: the copy stays in this process)."""
        if self._resolved is not None:
            return SqliteStore(self._resolved)
        clone = SqliteStore(":memory:")
        with self._guard("copy"), self._lock:
            self._db.backup(clone._db)
        return clone

    def turn_lock(self, memory_id: str) -> TurnLockLike:
        """The lock a turn on `memory_id` holds: shared by every `ChatMemory` on this file and id, in
        this process and (a record lock on `<database>-turn-lock`) in every other one."""
        memory_id = check_memory_id(memory_id, "SqliteStore.turn_lock")
        if self._resolved is None:  # ":memory:": this connection's own database
            return shared_lock(("store", id(self), memory_id), lambda: StoreRLock(self))
        return file_turn_lock(self._resolved, memory_id)

    # -- ChatMemoryStore ---------------------------------------------------------------
    def get(self, memory_id: str) -> list[Message]:
        """The stored messages of `memory_id`, oldest first (`[]` for an unknown id)."""
        memory_id = check_memory_id(memory_id, "SqliteStore.get", stored=True)
        with self._guard(f"read {shown(memory_id)} from", memory_id), self._lock, self._reading():
            return list(self._current(memory_id))

    def set(self, memory_id: str, messages: Sequence[Message]) -> None:
        """Replace the messages of `memory_id` with `messages`, in one transaction."""
        memory_id = check_memory_id(memory_id, "SqliteStore.set")
        encoded = _encoded(answered(check_messages(messages, "SqliteStore.set"), "SqliteStore.set"), "SqliteStore.set")
        with self._guard(f"write {shown(memory_id)} to", memory_id), self._lock, self._transaction():
            self._forget(memory_id)
            self._write_all(memory_id, encoded)

    def append(self, memory_id: str, messages: Sequence[Message]) -> None:
        """Add `messages` at the end (a system message replaces the stored one): one transaction."""
        memory_id = check_memory_id(memory_id, "SqliteStore.append")
        if type(messages) is not list and type(messages) is not tuple:
            messages = _listed(messages, "SqliteStore.append")  # any iterable, read once, as `InMemoryStore` reads it
        encoded = _encoded(check_messages(messages, "SqliteStore.append"), "SqliteStore.append")
        with (
            self._forgotten_on_failure(memory_id),
            self._guard(f"append to {shown(memory_id)} in", memory_id),
            self._lock,
        ):
            with self._transaction():
                self._known.pop(memory_id, None)
                read = self._lists.take(memory_id)
                first, next_seq, system = self._conversation(memory_id)
                before = (first, next_seq, system)
                asked = self._stored_calls(memory_id, next_seq)
                answered([m for m, _ in encoded], "SqliteStore.append", asked.asks(self, memory_id, first))
                if _system(encoded) is not None and self._holds_system_rows(memory_id, first):
                    self._forget(memory_id)  # the new system message replaces those too, as `with_system` does
                    merged = _merged(self._read(memory_id), [m for m, _ in encoded])
                    self._write_all(memory_id, _encoded(merged, "SqliteStore.append"))
                    return
                rows: list[tuple[Message, str]] = []
                for message, payload in encoded:
                    if isinstance(message, SystemMessage):
                        system = payload
                    else:
                        self._insert(memory_id, next_seq, payload)
                        rows.append((message, payload))
                        next_seq += 1
                self._save_conversation(memory_id, first, next_seq, system)
                asked.appended(rows, next_seq)
                _remember(self._asked, memory_id, asked)
                self._extend_read(memory_id, read, before, 0, [p for _, p in rows], next_seq, system)

    def append_in_window(self, memory_id: str, messages: Sequence[Message], window: Window) -> bool:
        """Append `messages` (no system message among them) and raise `first_seq` past the rows
        `evict` would drop, in one transaction, reading only those rows and the current turn's.
        What it knows of a conversation (its tokens, its tool results per call) is kept between
        calls while nothing changed the conversation (`_holds`). `False`, with nothing
        written, when `window_drop` cannot say, when a tool result would lose its call, or when a
        row cannot be read: then `update` decides (and says why), as it always did. A new tool
        result that answers no call raises `ConfigurationError`, as `append` does."""
        memory_id = check_memory_id(memory_id, "SqliteStore.append_in_window")
        new = check_messages(messages, "SqliteStore.append_in_window")
        check_window(window, "SqliteStore.append_in_window")
        if type(window) not in (MessageWindow, TokenWindow):
            return False  # a window class of one's own: `update` weighs the whole conversation
        encoded = _encoded(new, "SqliteStore.append")  # as `append` says it, for `ChatMemory.add`
        with self._forgotten_on_failure(memory_id):
            return self._append_in_window(memory_id, new, encoded, window)

    def _append_in_window(
        self, memory_id: str, new: list[Message], encoded: list[tuple[Message, str]], window: Window
    ) -> bool:
        with self._guard(f"append to {shown(memory_id)} in", memory_id), self._lock, self._transaction():
            known = self._known.pop(memory_id, None)
            read = self._lists.take(memory_id)
            state = (self._stamp(), *self._conversation(memory_id))
            _, first, next_seq, system = state
            asked = self._stored_calls(memory_id, next_seq)
            answered(new, "SqliteStore.append", asked.asks(self, memory_id, first))  # refused as `append` refuses
            try:
                known, stored = self._knowledge(known, memory_id, state, window)
                rows: Sequence[Message] = (  # the rows `get` read, if nothing changed since
                    Joined(read.messages, 1 if system is not None else 0, ())
                    if read is not None and _holds(read.state, state)
                    else _Rows(self, memory_id, first, next_seq, known.rows)
                )
                new_system = _system(encoded)  # a new system message replaces the stored one
                if new_system is not None and self._holds_system_rows(memory_id, first):
                    return False  # and the later ones too (`with_system`): `update` rewrites them
                if new_system is not None and new_system != system:
                    if system is not None:
                        stored -= sum(window.weights([self._stored_system(memory_id, system)]))
                    stored += sum(window.weights([_parsed(new_system)]))
                    system = new_system
                turns: list[Message] = [m for m in new if not isinstance(m, SystemMessage)]
                encoded = [(m, p) for m, p in encoded if not isinstance(m, SystemMessage)]
                total = stored + sum(window.weights(turns))
                user = last_user(joined := Joined(rows, 0, turns), next_seq - first, turns, known.user_in(first))
                dropped = window_drop(joined, next_seq - first, total, window, user)
                if dropped is None or (dropped[1] and not turns):
                    return False  # a middle drop moves the question into another row's seq: only with new rows,
                    # so `next_seq` moves and another store's `_Asked` (kept while it stays) is read again
                front, middle, left = dropped
                leaving = [rows[i] for i in range(front)]
                question = self._question_row(memory_id, first + front) if middle else None
                if middle:
                    leaving += [rows[front + 1 + i] for i in range(middle)]
                    if question is None:
                        return False  # its row was changed outside toolkit: `update` reads it and says so
                if self._orphaned(memory_id, first + front + middle + bool(middle), leaving, turns, known.results):
                    return False
                head = rows[front] if system is None and front < next_seq - first else None
                promoted = _encode(head) if isinstance(head, SystemMessage) else None
            except (ConfigurationError, MemoryStoreError, ValueError, TypeError):  # a payload that is not a message
                return False
            kept_from = first + front + middle + (promoted is not None)  # a system row left first: the system's
            system = promoted if promoted is not None else system
            self._save_conversation(  # first: `_EDITS`
                memory_id, kept_from + (question is not None), next_seq + len(encoded), system
            )
            self._db.execute(
                "DELETE FROM messages WHERE memory_id = ? AND seq < ?", (memory_id, kept_from + bool(middle))
            )
            if question is not None:  # the question moves up beside the rounds kept after it
                self._insert(memory_id, kept_from, question)
                self._db.execute("UPDATE conversations SET first_seq = ? WHERE memory_id = ?", (kept_from, memory_id))
            for _, payload in encoded:
                self._insert(memory_id, next_seq, payload)
                next_seq += 1
            asked.appended(encoded, next_seq, kept_from)
            if question is not None:
                asked.left(leaving[front:], first + front + 1)
            _remember(self._asked, memory_id, asked)
            if promoted is None:  # else `get` reads the conversation again
                start = (first, next_seq - len(encoded), state[3])
                self._extend_read(
                    memory_id, read, start, front, [p for _, p in encoded], next_seq, system, middle=middle
                )
            known.moved(leaving, turns, left if isinstance(window, TokenWindow) else None)
            known.rows = rows.kept_from(kept_from + bool(middle)) if isinstance(rows, _Rows) else {}
            if question is not None and isinstance(rows, _Rows):
                known.rows[kept_from] = rows[front]
            known.state = (state[0], kept_from, next_seq, system)
            known.user = None if user is None else FIND if promoted is not None else kept_from + user - front
            _remember(self._known, memory_id, known)
            return True

    def update(self, memory_id: str, change: Callable[[list[Message]], list[Message]]) -> None:
        """Read, `change`, write back, in one transaction: evicted rows are deleted, new rows appended."""
        memory_id = check_memory_id(memory_id, "SqliteStore.update")
        with self._guard(f"update {shown(memory_id)} in", memory_id), self._lock, self._transaction():
            self._forget(memory_id)
            current = self._read(memory_id)
            with running_change(self, "SqliteStore.update", memory_id):
                result = change(list(current))
            changed = check_messages(result, "SqliteStore.update")
            encoded = _encoded(answered(changed, "SqliteStore.update"), "SqliteStore.update")
            self._write_changes(memory_id, current, encoded)

    def delete(self, memory_id: str) -> None:
        """Forget `memory_id` and its messages (an unknown id is no error)."""
        memory_id = check_memory_id(memory_id, "SqliteStore.delete", stored=True)
        with self._guard(f"delete {shown(memory_id)} from", memory_id), self._lock, self._transaction():
            self._forget(memory_id)
            self._rewritten()
            self._db.execute("DELETE FROM conversations WHERE memory_id = ?", (memory_id,))  # first: `_EDITS`
            self._db.execute("DELETE FROM messages WHERE memory_id = ?", (memory_id,))

    def memory_ids(self) -> list[str]:
        """Every stored conversation's id, sorted."""
        with self._guard("list"), self._lock:
            return [r[0] for r in self._db.execute("SELECT memory_id FROM conversations ORDER BY 1")]

    def close(self) -> None:
        """Close the connection once the read or write of any other thread in progress ends (one
        closed under it crashed the process); that thread's next use raises `MemoryStoreError`."""
        with self._lock:
            self._closed = True
            if not any(db is self._db for db in _NEVER_CLOSED):
                self._db.close()

    # -- reading -----------------------------------------------------------------------
    def _read(self, memory_id: str) -> list[Message]:
        first, next_seq, system = self._conversation(memory_id)
        rows = self._db.execute(
            "SELECT seq, payload, checksum FROM messages WHERE memory_id = ? ORDER BY seq", (memory_id,)
        ).fetchall()
        messages: list[Message] = []
        if system is not None:
            checksum = self._db.execute(
                "SELECT system_checksum FROM conversations WHERE memory_id = ?", (memory_id,)
            ).fetchone()[0]
            messages.append(self._load(memory_id, "system", _SYSTEM_ROW, system, checksum))
        seqs = [seq for seq, _, _ in rows]
        if len(seqs) != next_seq - first or seqs != list(range(first, next_seq)):
            present = set(seqs)
            missing = next((s for s in range(first, next_seq) if s not in present), None)
            if missing is None:
                missing = next(s for s in seqs if not (isinstance(s, int) and first <= s < next_seq))
            raise MemoryStoreError(
                f"{self.path}: memory id {shown(memory_id)}: row {missing} is missing or out of place (rows "
                f"{first}..{next_seq - 1} expected, found {len(rows)}); delete that id or restore the file"
            )
        messages += [self._load(memory_id, f"row {seq}", seq, payload, checksum) for seq, payload, checksum in rows]
        _check_results(self.path, memory_id, messages, first - (1 if system is not None else 0))
        return messages

    def _current(self, memory_id: str) -> list[Message]:
        """The conversation as `_read` gives it: the list read before when nothing changed it
        since (`_holds`), else read again."""
        read = self._lists.take(memory_id)
        state = (self._stamp(), *self._conversation(memory_id))
        if read is None or not _holds(read.state, state):
            read = _ReadList(state, self._read(memory_id))
        read.state = state
        self._lists.keep(memory_id, read)
        return read.messages

    def _extend_read(
        self,
        memory_id: str,
        read: _ReadList | None,
        before: tuple[int, int, str | None],
        leaving: int,
        payloads: list[str],
        next_seq: int,
        system: str | None,
        *,
        middle: int = 0,
    ) -> None:
        """After a write that dropped `leaving` rows from the front (and `middle` rows after the
        question that followed them, which moved up beside the rest: `window_drop`), appended the
        rows `payloads` and left `system` as the system payload: keep the list read before, so
        changed (in place: the cache's list is nobody else's, `get` copies it), if it was read in
        the state `before` (first_seq, next_seq, system) with nothing else written since."""
        now = (self._stamp(), *before)
        if read is None or not _holds(read.state, now):
            return
        try:
            new = [_parsed(p) for p in payloads]  # as a read would give them back
            replaced = _parsed(system) if system is not None and system != before[2] else None
        except (ValueError, TypeError):
            return
        messages = read.messages
        skip = 1 if before[2] is not None else 0
        if replaced is not None:  # a new system message: in place of the old one, or first
            if skip:
                messages[0] = replaced
            else:
                messages.insert(0, replaced)
                skip = 1
        del messages[skip + leaving + 1 : skip + leaving + 1 + middle]
        del messages[skip : skip + leaving]
        messages += new
        self._lists.keep(memory_id, _ReadList((now[0], before[0] + leaving + middle, next_seq, system), messages))

    @contextmanager
    def _forgotten_on_failure(self, memory_id: str) -> Iterator[None]:
        """Around a write that keeps what it learns: if it fails (a failed commit too), what was
        kept is not what the file holds, so it is dropped."""
        try:
            yield
        except ConfigurationError:  # refused before anything was written or kept
            raise
        except BaseException:
            with self._lock:
                self._forget(memory_id)
            raise

    def _forget(self, memory_id: str) -> None:
        """Drop what this store keeps of `memory_id`'s conversation (a write it cannot follow)."""
        self._known.pop(memory_id, None)
        self._asked.pop(memory_id, None)
        self._lists.take(memory_id)

    def _stored_calls(self, memory_id: str, next_seq: int) -> _Asked:
        """What this store knows of the call ids `memory_id`'s stored assistant messages ask for
        (taken out: the caller puts it back with `_remember` once its write is done), if it
        still holds (`_holds`: the conversation still ends at `next_seq`)."""
        state = (self._stamp(), next_seq)
        asked = self._asked.pop(memory_id, None)
        if asked is None or not _holds(asked.state, state):
            asked = _Asked(state, {}, next_seq)
        asked.state = state
        return asked

    def _stored_system(self, memory_id: str, system: str) -> Message:
        """The stored system message (its payload `system`), verified by its checksum."""
        checksum = self._db.execute(
            "SELECT system_checksum FROM conversations WHERE memory_id = ?", (memory_id,)
        ).fetchone()[0]
        return self._load(memory_id, "system", _SYSTEM_ROW, system, checksum)

    def _holds_system_rows(self, memory_id: str, first: int) -> bool:
        """Whether a system message is stored after the first place (`set` or `update` put it
        there, as `InMemoryStore` keeps it): a new system message must then replace it too."""
        row = self._db.execute(
            f"SELECT 1 FROM messages WHERE memory_id = ? AND seq >= ? AND {_SYSTEM_ROWS} AND json_valid(payload) "
            "AND json_extract(payload, '$.role') = 'system' LIMIT 1",
            (memory_id, first),
        ).fetchone()
        return row is not None

    def _stamp(self) -> _Stamp:
        """(`PRAGMA data_version`, the rewrites counted in `meta`): the count is read again only
        when another connection has written since it was last read (or this store rewrote)."""
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        if self._stamps is None or self._stamps[0] != version:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (_REWRITES,)).fetchone()
            self._stamps = (version, None if row is None else str(row[0]))
        return self._stamps

    def _rewritten(self) -> None:
        """Count a write that may change a conversation's rows in place (the rows from `first_seq`
        to `next_seq` hold other messages than before: a `set`, a `delete`, a rewrite): what another
        connection keeps of any conversation is then read again (`_holds`)."""
        self._db.execute(
            "INSERT INTO meta VALUES (?, '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
            (_REWRITES,),
        )
        self._stamps = None

    def _knowledge(
        self, known: _Known | None, memory_id: str, state: tuple[_Stamp, int, int, str | None], window: Window
    ) -> tuple[_Known, int]:
        """What `append_in_window` knows of the stored conversation, and its weight in `window`:
        `known` while the conversation is in the `state` it was known in, else read again (its
        tokens by rows' checksums, its tool results per call id by SQLite's JSON functions: no
        message is loaded)."""
        _, first, next_seq, system = state
        if known is None or not _holds(known.state, state):
            known = _Known(state, None, 0, self._results(memory_id, first))
        known.state = state
        if not isinstance(window, TokenWindow):
            known.count = None  # the tokens it knew are not kept up to date by this append
            return known, next_seq - first + (system is not None)
        if known.count is not window.count:
            known.count, known.tokens = window.count, self._tokens(memory_id, first, system, window)
        return known, known.tokens

    def _results(self, memory_id: str, first: int) -> dict[str, int]:
        """How many stored tool results answer each call id (a row that is not JSON counts as none;
        reading it back will say what is wrong with it). A payload holding a surrogate code point
        (`_UNJOINED`) is read in Python: SQLite's JSON functions would give its id as text that
        is not UTF-8 (a lone surrogate) or as other text (two escaped halves joined into one)."""
        tool = "AND json_valid(payload) AND json_extract(payload, '$.role') = 'tool'"
        rows = self._db.execute(
            "SELECT json_extract(payload, '$.tool_call_id'), COUNT(*) FROM messages WHERE memory_id = ? "
            f"AND seq >= ? AND substr(payload, 1, 1) != ? {tool} GROUP BY 1",
            (memory_id, first, _UNJOINED),
        )
        results = Counter({call_id: n for call_id, n in rows if isinstance(call_id, str)})
        unjoined = self._db.execute(
            f"SELECT seq, payload, checksum FROM messages WHERE memory_id = ? AND seq >= ? AND substr(payload, 1, 1) = ? "
            f"{tool}",
            (memory_id, first, _UNJOINED),
        )
        for seq, payload, checksum in unjoined:
            message = self._load(memory_id, f"row {seq}", seq, payload, checksum)
            if isinstance(message, ToolResultMessage):
                results[message.tool_call_id] += 1
        return dict(results)

    def _tokens(self, memory_id: str, first: int, system: str | None, window: TokenWindow) -> int:
        """The stored conversation's tokens under `window.count` (through `window.weights`, which
        checks what it gives): each row counted once and kept by its checksum (a checksum covers
        the id, the seq and the payload, so a kept count never belongs to other content), the
        system message counted each time."""
        count = window.count
        kept = self._row_tokens.pop(memory_id, (None, {}))
        seen = kept[1] if kept[0] is count else {}
        tokens: dict[str, int] = {}
        rows = self._db.execute(
            "SELECT seq, checksum FROM messages WHERE memory_id = ? AND seq >= ? ORDER BY seq", (memory_id, first)
        ).fetchall()
        for seq, checksum in rows:
            weight = seen.get(checksum)
            if weight is None:
                payload = self._db.execute(
                    "SELECT payload FROM messages WHERE memory_id = ? AND seq = ?", (memory_id, seq)
                ).fetchone()[0]
                weight = window.weights([self._load(memory_id, f"row {seq}", seq, payload, checksum)])[0]
            tokens[checksum] = weight
        _remember(self._row_tokens, memory_id, (count, tokens))
        total = sum(tokens.values())
        if system is not None:
            total += window.weights([self._stored_system(memory_id, system)])[0]
        return total

    def _question_row(self, memory_id: str, seq: int) -> str | None:
        """The payload of the row at `seq` (the user's question a middle drop keeps and moves up
        beside the rounds kept after it, `window_drop`), as stored; None when its checksum says it
        was changed outside toolkit."""
        row = self._db.execute(
            "SELECT payload, checksum FROM messages WHERE memory_id = ? AND seq = ?", (memory_id, seq)
        ).fetchone()
        if row is None or not isinstance(row[0], str) or row[1] != _checksum(memory_id, seq, row[0]):
            return None
        return str(row[0])

    def _orphaned(
        self, memory_id: str, kept_from: int, leaving: list[Message], new: list[Message], results: dict[str, int]
    ) -> bool:
        """Whether a kept or new tool result would answer a call that leaves with `leaving` (the
        store refuses to read such a conversation back). A call whose stored results all leave
        with it is fine unless a new message answers it first; otherwise the first kept row
        naming the call must be an assistant message asking for it again (a row that only
        mentions it, or a result, means no: then `update` decides)."""
        gone = Counter(m.tool_call_id for m in leaving if isinstance(m, ToolResultMessage))
        for call_id in asked_ids(leaving):
            first: Message | None = None
            if results.get(call_id, 0) > gone[call_id]:
                names = (_as_written(json.dumps(call_id, ensure_ascii=False)), json.dumps(call_id, ensure_ascii=True))
                row = self._db.execute(
                    "SELECT seq, payload, checksum FROM messages WHERE memory_id = ? AND seq >= ? "
                    "AND (instr(payload, ?) > 0 OR instr(payload, ?) > 0) ORDER BY seq LIMIT 1",
                    (memory_id, kept_from, *names),
                ).fetchone()
                if row is None:
                    return True  # the count and the rows disagree: let `update` read them
                first = self._load(memory_id, f"row {row[0]}", *row)
            else:
                first = next((m for m in new if names_call(m, call_id)), None)
            if first is not None and not asks_for(first, call_id):
                return True
        return False

    def _conversation(self, memory_id: str) -> tuple[int, int, str | None]:
        row = self._db.execute(
            "SELECT first_seq, next_seq, system FROM conversations WHERE memory_id = ?", (memory_id,)
        ).fetchone()
        if row is None:
            return 0, 0, None
        first, next_seq, system = row
        if not (type(first) is int and type(next_seq) is int and 0 <= first <= next_seq < _SEQ_LIMIT) or not (
            system is None or isinstance(system, str)
        ):
            raise MemoryStoreError(
                f"{self.path}: memory id {shown(memory_id)}: its conversation row was changed outside toolkit "
                f"(first_seq {first!r}, next_seq {next_seq!r}); delete that id or restore the file from a backup"
            )
        return first, next_seq, system

    def _load(self, memory_id: str, label: str, seq: int, payload: str, checksum: str) -> Message:
        if not isinstance(payload, str) or checksum != _checksum(memory_id, seq, payload):
            raise MemoryStoreError(
                f"{self.path}: memory id {shown(memory_id)}, {label}: the checksum does not match, the row was "
                "changed outside toolkit; delete that id or restore the file from a backup"
            )
        try:
            return _parsed(payload)
        except RecursionError as exc:  # another program's row, nested deeper than json reads (toolkit writes none)
            raise MemoryStoreError(
                f"{self.path}: memory id {shown(memory_id)}, {label} is not a valid message (nested too deeply to "
                "read); delete that id or restore the file from a backup"
            ) from exc
        except (ValueError, TypeError) as exc:  # not JSON, not a message, a number longer than json reads
            unknown = _not_known(exc, payload)
            if unknown is not None:  # whole, as a toolkit wrote it: never advise deleting it alone
                raise MemoryStoreError(
                    f"{self.path}: memory id {shown(memory_id)}, {label} holds a message this toolkit does not read "
                    f"({unknown}): its checksum is right, so a toolkit wrote it, maybe a newer one; read it with that "
                    "toolkit (pip install -U toolkit-course), or delete that id or restore the file from a backup. "
                    "The file was left as it was"
                ) from exc
            raise MemoryStoreError(
                f"{self.path}: memory id {shown(memory_id)}, {label} is not a valid message "
                f"({type(exc).__name__}); delete that id or restore the file from a backup"
            ) from exc

    # -- writing -----------------------------------------------------------------------
    def _insert(self, memory_id: str, seq: int, payload: str) -> None:
        self._db.execute(
            "INSERT INTO messages (memory_id, seq, payload, checksum) VALUES (?, ?, ?, ?)",
            (memory_id, seq, payload, _checksum(memory_id, seq, payload)),
        )

    def _save_conversation(self, memory_id: str, first: int, next_seq: int, system: str | None) -> None:
        checksum = None if system is None else _checksum(memory_id, _SYSTEM_ROW, system)
        self._db.execute(
            "INSERT INTO conversations (memory_id, first_seq, next_seq, system, system_checksum) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT(memory_id) DO UPDATE SET first_seq = excluded.first_seq, "
            "next_seq = excluded.next_seq, system = excluded.system, system_checksum = excluded.system_checksum",
            (memory_id, first, next_seq, system, checksum),
        )

    def _write_all(self, memory_id: str, encoded: list[tuple[Message, str]]) -> None:
        """`encoded` as it is: a system message in the first place on the conversation row, every
        other message (a later system message too) a row."""
        self._rewritten()
        self._db.execute("DELETE FROM conversations WHERE memory_id = ?", (memory_id,))  # first: `_EDITS`
        self._db.execute("DELETE FROM messages WHERE memory_id = ?", (memory_id,))
        system, rest = _split_system([p for _, p in encoded], encoded)
        for seq, payload in enumerate(rest):
            self._insert(memory_id, seq, payload)
        self._save_conversation(memory_id, 0, len(rest), system)

    def _write_changes(self, memory_id: str, current: list[Message], encoded: list[tuple[Message, str]]) -> None:
        """Delete evicted rows and append new ones when the change is that shape; else rewrite."""
        first, next_seq, stored_system = self._conversation(memory_id)
        old = [_encode(m) for m in current[1:]] if stored_system is not None else [_encode(m) for m in current]
        system, new = _split_system([p for _, p in encoded], encoded)
        dropped = _dropped(old, new)
        if len(new) < len(old) - dropped:
            self._write_all(memory_id, encoded)
            return
        added = new[len(old) - dropped :]
        self._save_conversation(memory_id, first + dropped, next_seq + len(added), system)  # first: `_EDITS`
        self._db.execute("DELETE FROM messages WHERE memory_id = ? AND seq < ?", (memory_id, first + dropped))
        for payload in added:
            self._insert(memory_id, next_seq, payload)
            next_seq += 1

    # -- schema ------------------------------------------------------------------------
    def _prepare(self) -> None:
        kinds = dict(self._db.execute("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')"))
        tables = {name for name, kind in kinds.items() if kind == "table"}
        version = None
        if "meta" in tables:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            version = None if row is None or row[0] is None else str(row[0])
        if version is None and set(kinds) - {"sqlite_sequence", "sqlite_stat1", "sqlite_stat4"}:
            # a view is another program's too: one named `messages` made the store fail on a write with
            # advice about permissions; any other let the store add its tables to that program's file
            what = " and ".join(f"{kind}s" for kind in ("table", "view") if kind in kinds.values())
            raise MemoryStoreError(
                f"{self.path}: an SQLite database of another program ({what}: {', '.join(sorted(kinds))}), not "
                "a memory store; it was left as it is. Give the memory a file of its own, e.g. 'memory.db'"
            )
        if version == "1" and "conversations" not in tables:
            self._migrate_from_1()
            return
        if version is not None and version != str(SCHEMA_VERSION):
            raise MemoryStoreError(
                f"{self.path}: schema version {version}, this toolkit reads {SCHEMA_VERSION} (and migrates 1); "
                "use a new file, or a toolkit that knows this version"
            )
        if version is not None:
            self._check_columns(tables)
        self._create()
        if version is None:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

    def _check_columns(self, tables: Collection[str]) -> None:
        """Refuse a store one of whose tables lacks a column the layout has (dropped or renamed by
        another program): every read failed with SQLite's "no such column" and advice about permissions."""
        for table, columns in _columns().items():
            if table not in tables:
                continue  # made again by `_create`, as on a new file
            found = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            missing = [column for column in columns if column not in found]
            if missing:
                raise MemoryStoreError(
                    f"{self.path}: the memory store's table {table} has no column {missing[0]} (another program "
                    "changed its layout); it was left as it is. Restore the file from a backup, or give the memory "
                    "a new file, e.g. 'memory.db'"
                )

    def _create(self) -> None:
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                self._db.execute(statement)
        try:
            for statement in (_INDEX, *_EDITS):
                self._db.execute(statement)
        except sqlite3.OperationalError as exc:
            if not getattr(exc, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
                raise  # a read-only file stays readable: `_holds_system_rows` then reads every row

    def _migrate_from_1(self) -> None:
        """Version 1 kept every message (system included) as a row and no checksums."""
        rows = self._db.execute("SELECT memory_id, seq, payload FROM messages ORDER BY memory_id, seq").fetchall()
        self._db.execute("ALTER TABLE messages RENAME TO messages_v1")
        self._create()
        by_id: dict[str, list[tuple[Message, str]]] = {}
        for memory_id, seq, payload in rows:
            if not isinstance(memory_id, str):  # version 1 took any id: `ChatMemory(b"u")` wrote a blob
                raise MemoryStoreError(
                    f"{self.path}: cannot migrate from version 1: memory id {shown(memory_id)} (row {seq}) is "
                    f"{type(memory_id).__name__}, not text, as memory ids are now; give its rows a text id or delete "
                    "them first, e.g. UPDATE messages SET memory_id = CAST(memory_id AS TEXT) WHERE typeof(memory_id) "
                    "= 'blob'"
                )
            try:
                message = _parsed(payload)
            except (ValueError, TypeError) as exc:  # not text, not UTF-8, not JSON, not a message
                raise MemoryStoreError(
                    f"{self.path}: cannot migrate from version 1: memory id {shown(memory_id)}, row {seq} is not a "
                    "valid message; repair or delete that row first"
                ) from exc
            by_id.setdefault(memory_id, []).append((message, payload))
        for memory_id, encoded in by_id.items():
            self._write_all(memory_id, encoded)
        self._db.execute("DROP TABLE messages_v1")
        self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:  # a failed COMMIT (a full disk) may leave it open
                self._db.execute("ROLLBACK")
            raise

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """One read snapshot: another process's commit cannot land between the conversation row
        and its messages."""
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            self._db.execute("COMMIT")

    def _read_only(self, exc: sqlite3.DatabaseError) -> bool:
        """Whether `exc` is SQLite refusing a write because this user may not write the file."""
        name = getattr(exc, "sqlite_errorname", "")
        return name.startswith("SQLITE_READONLY") and self._resolved is not None and not may_write(self._resolved)

    @contextmanager
    def _guard(self, action: str, memory_id: str | None = None) -> Iterator[None]:
        """SQLite's errors as `MemoryStoreError`, `action` saying what failed and the advice what
        to do; `memory_id`, the conversation `action` reads or writes (the file opened, so a damaged
        page there may hold its rows alone: the others are not given up for it, `_DAMAGED_ROWS`)."""
        self._check_same_file(action)
        try:
            yield
        except sqlite3.DatabaseError as exc:
            advice = next((text for kind, text in _ADVICE if isinstance(exc, kind)), _CORRUPTED)
            code = getattr(exc, "sqlite_errorname", "")
            if memory_id is not None and code == "SQLITE_CORRUPT":
                advice = _DAMAGED_ROWS.format(path=str(self.path))
            elif code.startswith("SQLITE_BUSY"):  # waited BUSY_TIMEOUT: the file is fine
                advice = _BUSY.format(seconds=f"{BUSY_TIMEOUT:g}")
            elif "decode to UTF-8" in str(exc):  # the file is readable; a row in it was edited by hand
                advice = _NOT_UTF8
            elif self._read_only(exc):
                advice = (
                    "the file is read-only for this user: it can be read, not written; to go on with it, copy it to "
                    f"a file you may write, e.g. shutil.copy({str(self.path)!r}, Path.home() / {self.path.name!r}), and "
                    "open the copy"
                )
            raise MemoryStoreError(f"cannot {action} memory database {self.path}: {exc} ({advice})") from exc


_CORRUPTED = "the file may be corrupted or truncated; move it away to start a fresh one"
_DAMAGED_ROWS = (
    "the file is damaged where this conversation's rows are; other conversations may still read: copy them to "
    "a new file (old, new = SqliteStore({path!r}), SqliteStore('recovered.db'); then new.set(i, old.get(i)) for "
    "each i in old.memory_ids() that reads), or move it away to start a fresh one"
)
"""The advice for a damaged page met reading or writing one conversation of a file that opened."""
_BUSY = (
    "another connection held the file's write lock for longer than {seconds} s (BUSY_TIMEOUT): another process "
    "writing to it, or a program holding it open in a transaction (a database browser); nothing was written: "
    "try again once it is done"
)
"""The advice for "database is locked" after waiting `BUSY_TIMEOUT`: nothing is wrong with the file."""
_NOT_UTF8 = "a row holds text that is not UTF-8, an edit made outside toolkit; delete that id or restore the file"
_ADVICE: tuple[tuple[type[sqlite3.DatabaseError], str], ...] = (
    (sqlite3.DataError, "a message is larger than SQLite stores (about 1 GB); nothing was written"),
    (sqlite3.ProgrammingError, "this store was closed; open a new SqliteStore"),
    (
        sqlite3.OperationalError,
        "check that the path names a file you may write, in a folder that exists, on a disk with room, not locked",
    ),
)
"""What to do about an SQLite error that is not a damaged file (the file is fine: don't move it away)."""


_OPEN: weakref.WeakSet[SqliteStore] = weakref.WeakSet()
"""The stores of this process, for `_after_fork_in_child`."""
_NEVER_CLOSED: list[sqlite3.Connection] = []
"""Connections kept, never used again nor closed (nor by the collector): a forked child's from its
parent, and those whose file was deleted or replaced under them (`_check_same_file`)."""


_SEQ_LIMIT = 2**62
"""No conversation's rows reach this seq (a billion messages a second for 146 years): a conversation
row past it was changed outside toolkit, and appending to it would pass SQLite's 64-bit integers."""


def _after_fork_in_child() -> None:
    for store in list(_OPEN):
        store._after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _holds(kept: tuple[Any, ...], now: tuple[Any, ...]) -> bool:
    """Whether what was kept in the state `kept` still holds in the state `now`: both are
    (`SqliteStore._stamp()`, then what the conversation's row says: first_seq, next_seq, ...).
    The row must be as it was, and either no other connection has written since (the same
    `PRAGMA data_version`: this store follows its own writes) or no rewrite was made since (the
    same count: then another connection's writes appended to, or dropped from the front of,
    other conversations or this one, which moves its row)."""
    return kept[1:] == now[1:] and (kept[0][0] == now[0][0] or kept[0][1] == now[0][1])


def _check_results(path: Path, memory_id: str, messages: Sequence[Message], first_row: int) -> None:
    """Every tool result answers a call of an earlier assistant message (or a window cut its call)."""
    asked: set[str] = set()
    for index, message in enumerate(messages):
        if isinstance(message, AssistantMessage):
            asked |= {c.id for c in message.tool_calls}
        elif isinstance(message, ToolResultMessage) and message.tool_call_id not in asked:
            raise MemoryStoreError(
                f"{path}: memory id {shown(memory_id)}, row {first_row + index}: tool result for call "
                f"{message.tool_call_id!r} answers no earlier call (a row was removed); delete that id or "
                "restore the file from a backup"
            )


@dataclass
class _Known:
    """What `append_in_window` knows of one stored conversation, true while the conversation is
    in `state` (see `_holds`) and no other method of this store has written it since: its tokens under `count` (the
    system message's included), and how many of its tool results answer each call id."""

    state: tuple[_Stamp, int, int, str | None]
    """(`SqliteStore._stamp()`, first_seq, next_seq, the system payload) it holds for."""
    count: Callable[[Message], int] | None
    tokens: int
    """The tokens under `count` (meaningless while `count` is None)."""
    results: dict[str, int]
    rows: dict[int, Message] = field(default_factory=dict)
    """The kept rows (by seq) the last append read (its front, the current turn back to the user's last
    message): read again by the next one, a 10 MB tool result in the turn was parsed and verified again
    on every append (`_Rows`)."""
    user: int | None = FIND
    """The seq of the user's last message (None: there is none; `FIND`: not known), so that a long turn
    is not read again on every append to find it (`last_user`)."""

    def user_in(self, first: int) -> int | None:
        """`user` as an index from `first`, the conversation's first seq (`FIND` when not known)."""
        return self.user if self.user is None or self.user == FIND else self.user - first

    def moved(self, leaving: list[Message], new: list[Message], tokens: int | None) -> None:
        """After `leaving` left and `new` came: `tokens` is the new total under `count` (None
        after a `MessageWindow` append: the tokens are counted again when a `TokenWindow` asks)."""
        if tokens is not None:
            self.tokens = tokens
        for message, step in [(m, -1) for m in leaving] + [(m, 1) for m in new]:
            if isinstance(message, ToolResultMessage):
                count = self.results.get(message.tool_call_id, 0) + step
                if count:
                    self.results[message.tool_call_id] = count
                else:  # no result of that call is left: its entry goes (else one per call ever made)
                    del self.results[message.tool_call_id]


@dataclass
class _Asked:
    """The call ids one conversation's stored assistant messages ask for, read from the end back
    as far as a tool result needed (so a result answering a call made long ago reads the rows
    between once, not on every append), kept while the conversation is in `state`
    (`SqliteStore._stamp()`, next_seq: see `_holds`) and no other method of this store wrote it."""

    state: tuple[_Stamp, int]
    calls: dict[str, int]
    """Call id -> the seq of the latest stored assistant message asking for it (read so far)."""
    low: int
    """The rows from this seq on have been read (rows this store appended since count as read)."""

    def asks(self, store: SqliteStore, memory_id: str, first: int) -> Callable[[str], bool]:
        """Whether a stored row from `first` on asks for a call id: what was read, then the rows
        before it, newest first, only as far as needed (each verified as `_read` verifies it)."""

        def asks(call_id: str) -> bool:
            seq = self.calls.get(call_id)
            if seq is not None and seq >= first:
                return True
            if self.low <= first:
                return False
            rows = store._db.execute(
                "SELECT seq, payload, checksum FROM messages WHERE memory_id = ? AND seq >= ? AND seq < ? "
                "ORDER BY seq DESC",
                (memory_id, first, self.low),
            )
            for seq, payload, checksum in rows:
                message = store._load(memory_id, f"row {seq}", seq, payload, checksum)
                self.low = seq
                if isinstance(message, AssistantMessage):
                    for call in message.tool_calls:
                        self.calls.setdefault(call.id, seq)  # read backwards: the first seen is the latest
                    if self.calls.get(call_id) == seq:
                        return True
            self.low = first
            return False

        return asks

    def left(self, messages: list[Message], seq: int) -> None:
        """`messages`, stored from `seq` on, left from the middle (`window_drop`): the calls only they
        asked for are forgotten (their seqs now hold other rows, the question moved up among them)."""
        for message in messages:
            if isinstance(message, AssistantMessage):
                for call in message.tool_calls:
                    if self.calls.get(call.id) == seq:
                        del self.calls[call.id]
            seq += 1

    def appended(self, rows: list[tuple[Message, str]], next_seq: int, first: int = 0) -> None:
        """After `rows` were stored, the last one at `next_seq - 1`, the first row kept at `first`
        (a window dropped those before it: the calls only they asked for are forgotten once they
        outnumber the rows kept, so what is known stays as small as the window, at O(1) a row)."""
        seq = next_seq - len(rows)
        for message, _ in rows:
            if isinstance(message, AssistantMessage):
                for call in message.tool_calls:
                    self.calls[call.id] = seq
            seq += 1
        self.state = (self.state[0], next_seq)
        if len(self.calls) > 2 * (next_seq - first) + 8:
            self.calls = {call_id: seq for call_id, seq in self.calls.items() if seq >= first}
            self.low = max(self.low, first)


CACHED_MESSAGES = 100_000
"""How many messages `get` keeps in all, over the conversations read most recently: a
conversation is read again only after another connection or a write this store cannot follow
changed it, or after it was left out to stay within this. The conversation read last is kept
even when it alone holds more (the others leave for it): the caller holds its messages anyway,
and without it each `get` of a conversation over the bound read and verified all of it again
(four times a loop turn)."""


@dataclass
class _ReadList:
    """A conversation as `_read` gave it, and the state it was read in: (`SqliteStore._stamp()`,
    first_seq, next_seq, the system payload)."""

    state: tuple[_Stamp, int, int, str | None]
    messages: list[Message]


class _ReadCache:
    """The `_ReadList`s of the conversations read most recently, `CACHED_MESSAGES` messages in all
    (or the last one alone, when it holds more)."""

    def __init__(self) -> None:
        self.lists: dict[str, _ReadList] = {}
        self.size = 0

    def take(self, memory_id: str) -> _ReadList | None:
        read = self.lists.pop(memory_id, None)
        if read is not None:
            self.size -= len(read.messages)
        return read

    def keep(self, memory_id: str, read: _ReadList) -> None:
        """Keep `read` as the most recent (the caller took the id's old one out first), the least
        recent others leaving while there are more than `CACHED_MESSAGES` messages."""
        self.lists[memory_id] = read
        self.size += len(read.messages)
        while self.size > CACHED_MESSAGES and len(self.lists) > 1:
            self.take(next(iter(self.lists)))


KNOWN_IDS = 1024
"""How many conversations `append_in_window` keeps what it knows of (the most recently
appended to): a server with many users does not grow without bound; the others are read again."""


def _remember(cache: dict[str, Any], memory_id: str, value: Any) -> None:
    """Put `memory_id` last in `cache` (popped before, so the order is by last use), dropping
    the least recently used id beyond `KNOWN_IDS`."""
    cache[memory_id] = value
    while len(cache) > KNOWN_IDS:
        del cache[next(iter(cache))]


class _Rows(Sequence[Message]):
    """The stored rows of one conversation, by index from `first_seq`, read 4 at a time as asked
    (each verified as `_read` verifies it), but those read before. A missing row raises
    `MemoryStoreError` when read."""

    CHUNK = 4

    def __init__(
        self, store: SqliteStore, memory_id: str, first: int, next_seq: int, known: dict[int, Message]
    ) -> None:
        self.store, self.memory_id, self.first, self.size = store, memory_id, first, next_seq - first
        self.read: dict[int, Message] = {seq - first: m for seq, m in known.items() if first <= seq < next_seq}
        """By index; the rows an earlier append read (`_Known.rows`) to begin with."""

    def kept_from(self, kept: int) -> dict[int, Message]:
        """The rows read, by seq, from seq `kept` on (those before it left)."""
        return {self.first + i: m for i, m in self.read.items() if self.first + i >= kept}

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: Any) -> Any:
        if not isinstance(index, int) or not 0 <= index < self.size:
            raise IndexError(index)
        if index not in self.read:
            chunk = index - index % self.CHUNK
            start, end = index, index + 1  # the rows of its chunk around it not read yet (each read once)
            while start > chunk and start - 1 not in self.read:
                start -= 1
            while end < min(chunk + self.CHUNK, self.size) and end not in self.read:
                end += 1
            rows = self.store._db.execute(
                "SELECT seq, payload, checksum FROM messages WHERE memory_id = ? AND seq >= ? AND seq < ? ORDER BY seq",
                (self.memory_id, self.first + start, self.first + end),
            ).fetchall()
            for seq, payload, checksum in rows:
                self.read[seq - self.first] = self.store._load(self.memory_id, f"row {seq}", seq, payload, checksum)
            if index not in self.read:
                raise MemoryStoreError(
                    f"{self.store.path}: memory id {shown(self.memory_id)}: row {self.first + index} is missing; "
                    "delete that id or restore the file"
                )
        return self.read[index]


_ROLES = "system, user, assistant, tool"


def _not_known(error: Exception, payload: str) -> str | None:
    """What a checksum-verified payload holds that this toolkit's messages do not (a role, or a
    field of a known role: a newer toolkit's message), said for the learner; None when it is
    something else (not JSON, not an object, a known field of the wrong kind)."""
    if not isinstance(error, ValidationError):
        return None
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    role = data.get("role") if isinstance(data, dict) else None
    first = error.errors()[0] if error.error_count() else None
    if not isinstance(role, str) or first is None:
        return None
    if first["type"] == "union_tag_invalid":
        return f"role {shown(role)}, not one of {_ROLES}"
    if first["type"] == "extra_forbidden" and len(first["loc"]) > 1:  # (role, field, ...): the field's place in it
        place = ".".join(map(str, first["loc"][1:]))
        return f"{article(role)} {role} message with a field {shown(place)} this toolkit does not know"
    return None


def _parsed(payload: object) -> Message:
    """The message a stored payload holds; `TypeError` or `ValueError` when it holds none."""
    if not isinstance(payload, str):
        raise TypeError(f"the payload is {type(payload).__name__}, not text")
    if payload[:1] == _UNJOINED:
        return load_message(_UNJOINED_DECODER.decode(payload))
    return load_message(json.loads(payload))


_UNJOINED = " "
"""The first character of a payload written with each surrogate code point as an escape of its
own and every other character as itself (`_encode`): JSON allows the blank before a value, so
any reader takes it, and `_parsed` reads it without joining two escapes into one character."""
_SURROGATE = re.compile("[\ud800-\udfff]")
_STRING_BODY = re.compile(r'([^"\\]*(?:\\.[^"\\]*)*)"', re.S)
"""A JSON string's text after its opening quote, up to its closing quote."""
_STRING_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|(.))", re.S)
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _unjoined_string(text: str, end: int, strict: bool = True) -> tuple[str, int]:
    """`json`'s string scanner, except that `\\ud83d\\ude00` is two code points, as written: the
    standard one joins such a pair of escapes into one character (U+1F600)."""
    found = _STRING_BODY.match(text, end)
    if found is None:
        raise json.JSONDecodeError("Unterminated string starting at", text, end - 1)
    return _STRING_ESCAPE.sub(_unescaped, found[1]), found.end()


def _unescaped(escape: re.Match[str]) -> str:
    if escape[1] is not None:
        return chr(int(escape[1], 16))
    if escape[2] not in _SIMPLE_ESCAPES:
        raise json.JSONDecodeError("Invalid \\escape", escape.string, escape.start())
    return _SIMPLE_ESCAPES[escape[2]]


class _UnjoinedDecoder(json.JSONDecoder):
    """`json.JSONDecoder` reading strings with `_unjoined_string` (its pure-Python scanner: the C
    one has no such choice). Keys are read as usual: no stored key holds a surrogate."""

    def __init__(self) -> None:
        super().__init__()
        self.parse_string = _unjoined_string
        self.scan_once = json.scanner.py_make_scanner(self)  # type: ignore[attr-defined]  # typeshed leaves it out


_UNJOINED_DECODER = _UnjoinedDecoder()


def _split_system(payloads: list[str], encoded: list[tuple[Message, str]]) -> tuple[str | None, list[str]]:
    """The payload of the system message in the first place (None if the first is no system
    message) and the payloads of the rows after it: a later system message stays where it is."""
    if encoded and isinstance(encoded[0][0], SystemMessage):
        return payloads[0], payloads[1:]
    return None, payloads


def _system(encoded: list[tuple[Message, str]]) -> str | None:
    """The payload of the conversation's system message (the last one given goes first)."""
    return next((p for m, p in reversed(encoded) if isinstance(m, SystemMessage)), None)


def _checksum(memory_id: str, seq: int, payload: str) -> str:
    data = json.dumps([memory_id, seq, payload], ensure_ascii=True).encode("ascii")
    return hashlib.sha256(data).hexdigest()[:32]


def _encoded(messages: Sequence[Message], where: str = "SqliteStore") -> list[tuple[Message, str]]:
    """Every message with its payload, computed before anything is written; `ConfigurationError`
    naming `where` and the message for one whose free-form fields JSON cannot hold as they are."""
    return [(m, _encode(m, where, index)) for index, m in enumerate(messages)]


def _encode(message: Message, where: str = "SqliteStore", index: int = 0) -> str:
    data = dumped(message, where, index)
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    written = _as_written(text)
    return text if written is text else _UNJOINED + written  # a surrogate: read back alone (`_UNJOINED`)


def _as_written(text: str) -> str:
    """JSON `text` as a payload holds it: `text` itself, or (a surrogate code point in it, which
    UTF-8 cannot hold) with each surrogate as an escape of its own."""
    if is_utf8(text):
        return text
    return _SURROGATE.sub(lambda found: f"\\u{ord(found[0]):04x}", text)


def _dropped(old: list[str], new: list[str]) -> int:
    """The fewest rows to drop from the front of `old` so that what is left starts `new` (all
    of them, at worst): the smallest `k` with `new[: len(old) - k] == old[k:]`, i.e. `old`'s
    longest end that starts `new`, found as Knuth-Morris-Pratt finds it: each row compared a
    bounded number of times, however the conversation repeats itself (comparing the whole tail
    for each row equal to `new`'s first was quadratic when many were)."""
    borders = _borders(new)
    matched = 0  # how many of `new`'s first rows the rows of `old` read so far end with
    for row in old:
        while matched and (matched == len(new) or row != new[matched]):
            matched = borders[matched - 1]
        if matched < len(new) and row == new[matched]:
            matched += 1
    return len(old) - matched


def _borders(rows: list[str]) -> list[int]:
    """For each `i`, the length of the longest proper start of `rows[: i + 1]` that also ends it."""
    borders = [0] * len(rows)
    length = 0
    for i in range(1, len(rows)):
        while length and rows[i] != rows[length]:
            length = borders[length - 1]
        if rows[i] == rows[length]:
            length += 1
        borders[i] = length
    return borders
