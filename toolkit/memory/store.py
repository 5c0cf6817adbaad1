"""A persistent chat-memory store on SQLite (stdlib `sqlite3`): conversations survive restarts.

One row per message: `(memory_id, seq, payload)`, the payload being the message's full JSON
(attributes such as `found_tools` and `activated_skill` included), written with sorted keys so a
restart reads back byte-identical data, and validated on load. The database runs in WAL mode;
one connection is shared by the threads of a process behind a lock, so concurrent writers on
different ids never mix, and other processes wait on SQLite's busy timeout.

A file that is not a database, a truncated one, or a row whose payload no longer parses raises
`MemoryStoreError` with the path (and id) and what to do, never a bare sqlite3 error.

Leaves out: migrations (the schema has a version row; a different version is refused) and
compaction of old conversations.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from pydantic import ValidationError

from toolkit.chat.messages import Message, dump_message, load_message
from toolkit.errors import MemoryStoreError

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
    memory_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (memory_id, seq)
);
"""


class SqliteStore:
    """`ChatMemoryStore` on one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        with self._guard("open"):
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=10.0, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
            self._check_version()

    def __repr__(self) -> str:
        return f"SqliteStore({str(self.path)!r})"

    def get(self, memory_id: str) -> list[Message]:
        with self._guard(f"read {memory_id!r} from"), self._lock:
            rows = self._db.execute(
                "SELECT seq, payload FROM messages WHERE memory_id = ? ORDER BY seq", (memory_id,)
            ).fetchall()
        return [self._load(memory_id, seq, payload) for seq, payload in rows]

    def set(self, memory_id: str, messages: Sequence[Message]) -> None:
        rows = [(memory_id, seq, _encode(m)) for seq, m in enumerate(messages)]
        with self._guard(f"write {memory_id!r} to"), self._lock, self._transaction():
            self._db.execute("DELETE FROM messages WHERE memory_id = ?", (memory_id,))
            self._db.executemany("INSERT INTO messages (memory_id, seq, payload) VALUES (?, ?, ?)", rows)

    def delete(self, memory_id: str) -> None:
        with self._guard(f"delete {memory_id!r} from"), self._lock:
            self._db.execute("DELETE FROM messages WHERE memory_id = ?", (memory_id,))

    def memory_ids(self) -> list[str]:
        with self._guard("list"), self._lock:
            return [r[0] for r in self._db.execute("SELECT DISTINCT memory_id FROM messages ORDER BY 1")]

    def close(self) -> None:
        self._db.close()

    # -- helpers ---------------------------------------------------------------------
    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        elif row[0] != str(SCHEMA_VERSION):
            raise MemoryStoreError(
                f"{self.path}: schema version {row[0]}, this toolkit reads "
                f"{SCHEMA_VERSION}; use a new file or migrate it"
            )

    def _load(self, memory_id: str, seq: int, payload: str) -> Message:
        try:
            return load_message(json.loads(payload))
        except (json.JSONDecodeError, ValidationError, TypeError) as exc:
            raise MemoryStoreError(
                f"{self.path}: message {seq} of memory id {memory_id!r} is not a valid message "
                f"({type(exc).__name__}); delete that id or restore the file from a backup"
            ) from exc

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise MemoryStoreError(
                f"cannot {action} memory database {self.path}: {exc} (the file may be corrupted or "
                "truncated; move it away to start a fresh one)"
            ) from exc


def _encode(message: Message) -> str:
    return json.dumps(dump_message(message), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
