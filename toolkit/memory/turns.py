"""Turn locks: two turns on one conversation never interleave, in one process or across processes.

`ChatMemory.lock` is held by whoever runs a whole exchange on a memory id (`iter_loop` holds it
until its generator finishes, `ai_service` around each call); `add`, `update`, `set` and
`clear` take it too, so a write from outside a turn waits for the turn to end; one by a tool of
the turn while its round's tools run is refused (it would come between the round's calls and
their results), but for adding a system message, which goes first (`write_hold`). It is the
*conversation's* lock, not the object's: every `ChatMemory` on the same store and id in this
process gets the same lock. A store may hand it out (`store.turn_lock(memory_id)`): an
`InMemoryStore` keeps one `TurnRLock` per id it has seen, for as long as the store lives
(the cheapest: the loop benchmark builds a memory per call); a `SqliteStore` takes its locks from
a process-wide registry keyed by its lock file's identity (device and inode) and the id (two stores
opened on one file share their locks, whatever the spelling of its path). Any other store's locks come from that registry too, keyed by
the store object's identity and the id. The registry holds its locks weakly: a lock goes when
the last memory using it does.

A turn is not a thread. An `iter_loop` generator holds the lock from its first step to its end,
and each step may run in another thread (a web server's thread pool streams it), its `close()`
too: each time the turn resumes, it makes the resuming thread the holder (`adopt()`), without
letting the lock go in between. A store's own `turn_lock` that returns a plain `threading.RLock`
(no `adopt`) keeps its turns to the thread that started them, as before.

Across processes (`SqliteStore`, the only store here that processes share), the outermost hold
of the lock also takes an exclusive POSIX record lock (`fcntl.lockf`) on one byte of a sidecar
file next to the database, `<database>-turn-lock`, at an offset taken from the memory id (62
bits of its SHA-256). A second process's turn on that id *waits* until the first one's ends, as
a second thread does; turns on other ids run in parallel. Why this mechanism:

- nothing is refused, so nothing has to be kept aside or retried, and the stored conversation is
  always one turn after another: valid for a strict gateway;
- the kernel drops a process's record locks when it exits, however it exits (a crash,
  `kill -9`), so no id stays locked after its holder is gone: no stale lock files to clean up,
  no lease timeouts to tune;
- one lock file for every id (a byte per id), not one file per id;
- checking the order at append time instead could only *detect* the interleaving: while the
  first turn's tool runs, its call is legitimately unanswered, so the second turn's question
  would have to be refused and retried by every caller;
- a sidecar file, not the database: SQLite holds its own record locks on the database file,
  and closing any other descriptor of that file would drop them.

Two ids whose offsets coincide (a chance of about n² in 2⁶³ for n ids) share one lock: their
turns wait for each other, nothing worse. Limits: a hard link to the database under another name
has a lock file of its own (SQLite warns against such links: its journal's name differs too);
the lock file must not be opened and closed by other code in the same process (closing any descriptor of a file drops the process's record
locks on it), nor deleted while processes use the database (like `-wal` and `-shm`: a process
that opened the old file and one that made a new one would not see each other); a file system without working record locks (some network shares) or a lock file
that cannot be opened raises `MemoryStoreError` when the memory is created or the turn starts.
The kernel may report a deadlock (EDEADLK) that is not one when several threads wait; the lock
then tries again after `RETRY_PAUSE` (a wait with a timeout polls at that pace too). Without
`fcntl` (Windows) the lock holds in one process only. After `fork`, the child starts with every
turn lock free (it holds no record locks; its parent's turns still hold theirs).

A turn waits as long as the turn before it runs, as it does for another thread: the loop and
`ai_service` wait without a timeout (`lock.acquire(timeout=...)` is there for callers who want one).
A Ctrl-C that ends such a wait says what was waited for: a turn's (`wait_for_turn`), and a learner's
write's (`ChatMemory.add`, `update`, `set`, `clear`: `write_hold`), which otherwise waits silently.
A Ctrl-C at any line of `acquire` or `release` leaves the lock taken or not, as the call raising says (a last
release stopped part-way is finished): never held by no one, which kept every later turn on the id waiting.
One as a hold's `__exit__` begins (Python acts on it as any Python function begins) keeps that hold: a turn lets go
as it ends of the holds taken in it and kept (`TurnRLock._turn`, counted per turn), and the package's own holds
outside a turn (`Held`: `ai_service`'s around its loop) are let go by the code that took them.
"""

from __future__ import annotations

import _thread
import errno
import gc
import hashlib
import os
import sys
import threading
import time
import weakref
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, TypeVar

from toolkit.errors import ConfigurationError, MemoryStoreError
from toolkit.unicode import cut

LOCK_SUFFIX = "-turn-lock"
"""The sidecar lock file is the database's path with this appended: `memory.db-turn-lock`."""
RETRY_PAUSE = 0.01
"""Seconds between two tries for the lock file: after the kernel reports a (possibly false)
deadlock, and while a wait with a timeout polls."""


class TurnLockLike(Protocol):
    """What `ChatMemory.lock` is: a reentrant lock (`TurnRLock`, `TurnLock`, or a store's own
    `threading.RLock`). One with an `adopt()` method (the first two) lets an `iter_loop` turn be
    resumed in any thread; with a plain `threading.RLock`, in the thread that started it only."""

    def acquire(self, blocking: bool = ..., timeout: float = ...) -> bool: ...
    def release(self) -> None: ...
    def __enter__(self) -> Any: ...
    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> Any: ...


L = TypeVar("L")
_get_ident = _thread.get_ident

_REGISTRY: weakref.WeakValueDictionary[Hashable, Any] = weakref.WeakValueDictionary()
_REGISTRY_LOCK = threading.Lock()


def shared_lock(key: Hashable, make: Callable[[], L]) -> L:
    """The live lock registered under `key`, or `make()`'s, registered (weakly) under it."""
    with _REGISTRY_LOCK:
        lock = _REGISTRY.get(key)
        if lock is None:
            lock = make()
            _REGISTRY[key] = lock
        return lock


def store_turn_lock(store: object, memory_id: str) -> TurnLockLike:
    """The turn lock of `memory_id` in `store`: the store's own (`store.turn_lock(memory_id)`,
    e.g. `SqliteStore`'s, which holds across processes), else one per store object and id."""
    provide = getattr(store, "turn_lock", None)
    if provide is not None:
        return provide(memory_id)
    return shared_lock(("store", id(store), memory_id), lambda: StoreRLock(store))


SERVING = threading.local()
"""On a concurrent round's thread (`toolkit.loop.together`), or one running a call under a time
limit (`toolkit.loop.time_limit`: a list, emptied when the loop stops waiting): `owners`, the
threads whose rounds it runs a call for, innermost first (a turn they hold waits for the call
this thread runs)."""


def serving() -> tuple[int, ...]:
    """The threads waiting for the call this thread runs (a concurrent round's lane), innermost
    first; () elsewhere. A turn, or a write, that waited for a lock one of them holds would wait
    for it forever."""
    owners: tuple[int, ...] = getattr(SERVING, "owners", ())
    return owners


def _never() -> bool:
    return False


def write_hold(
    lock: TurnLockLike, where: str, memory_id: str, harmless: Callable[[], bool] = _never
) -> AbstractContextManager[Any]:
    """What a write to memory (`where`, on `memory_id`) holds: `lock`, except in a thread that holds it already
    (a turn's tool, a saga's rewrite: nothing another thread's hold could leak), or on a concurrent
    round's thread whose own turn holds it (a tool adding a system message to its turn's memory, as a
    tool of a one-at-a-time round may): the turn's hold covers the write, where waiting for it would wait for
    the turn that waits for the tool. The store keeps its own writes apart. A lock without
    `_owner` (a store's own `threading.RLock`) cannot tell: it is taken.

    A write by the thread whose turn is suspended (an `iter_loop` generator between two events),
    or for it (a concurrent round's thread), is refused: the lock is reentrant, and the write would
    come between the turn's tool calls and their results, which a strict gateway refuses. So is
    one by a tool of the turn while the round's tools run (`TurnRLock.tools_running`), unless
    `harmless()` says it cannot break the round (an added system message goes first). A Ctrl-C while
    the write waits for another turn's hold says so (`_WriteHeld`)."""
    owners: tuple[int, ...] = getattr(SERVING, "owners", ())
    owner = getattr(lock, "_owner", None)
    waiting = owner is not None and owner in owners  # the holder waits for the call this thread runs
    if getattr(lock, "_suspended", False) and (owner == _get_ident() or waiting):
        gc.collect()  # a generator dropped in a reference cycle is closed (and its turn ended) only by this
        if getattr(lock, "_suspended", False):
            raise ConfigurationError(
                f"{where}: memory id {_shown_id(memory_id)}: a turn on it is still in progress in this thread (an "
                "iter_loop generator, or a streamed answer, not read to its end), and this write would come between "
                "its tool calls and their results; read it to the end or call its close() before writing to this "
                "memory"
            )
    if getattr(lock, "_tools", False) and (owner == _get_ident() or waiting) and not harmless():
        raise ConfigurationError(
            f"{where}: memory id {_shown_id(memory_id)}: a tool of the turn on it is running, and this write would "
            "come between the turn's tool calls and their results (or remove the calls), which a strict gateway "
            "refuses; give what the tool has to say in its result, or write to this memory after the turn (a "
            "SystemMessage may be added: it goes first)"
        )
    if waiting or owner == _get_ident():  # held for this thread already: a second hold would only be one to leak
        return nullcontext()  # (a Ctrl-C as its `__exit__` began kept it, and other threads' turns waited for ever)
    return _WriteHeld(lock, where, memory_id)


class TurnRLock:
    """A reentrant lock that a turn carries from thread to thread: `threading.RLock`'s behaviour
    (`with lock:`, `acquire()` / `release()` by the thread that holds it), plus `adopt()`.

    An `iter_loop` generator holds its memory's lock from its first step to its end, but each
    `next()` may run in another thread (a web server's thread pool: Starlette's streaming
    response, anyio's `iterate_in_threadpool`), and so may `close()`. A `threading.RLock` belongs
    to the thread that took it: the turn's next write to memory from another thread would wait
    for it forever. The turn calls `adopt()` each time it is resumed, which makes the calling
    thread the holder, its holds and all, without ever letting go of the lock in between: no
    other thread's turn can slip in (releasing and taking it again would let one in)."""

    __slots__ = ("_mutex", "_trying", "_owner", "_depth", "_suspended", "_tools", "_turn", "__weakref__")

    def __init__(self) -> None:
        self._use(threading.Lock())  # any thread may release a Lock: what makes `adopt` possible
        self._owner: int | None = None
        self._depth = 0
        self._suspended = False
        """Whether the turn holding it is suspended (`suspend`): its thread's writes are refused (`write_hold`)."""
        self._tools = False
        """Whether the turn holding it is running its round's tools (`tools_running`): their writes are refused."""
        self._turn: Any = None
        """The record of the turn running on it (`toolkit.loop.run._OneTurn`, set by that turn), None when none is:
        each hold taken and each let go while it runs (not suspended) counts on its `holds`, so that the turn
        lets go, as it ends, of holds taken in it and kept (a Ctrl-C as a `with memory.lock:`'s exit began, in a
        tool or the learner's code), and of those only: not of holds taken outside it, before or after."""

    def _use(self, mutex: Any) -> None:
        """Make `mutex` this lock's mutex, `_trying` its `acquire(False)` as an iterator. A turn lock takes its
        mutex in a `for` statement (`for got in self._trying: break`): its answer is stored in `got` by the
        same step that took it, where `got = mutex.acquire(False)` gives CPython a place to act on a Ctrl-C
        (it looks for one after each call of a C function) once the mutex is taken and before `got` is stored:
        the mutex was left held by no one. The holder is recorded before any other such place (a thread holding
        the mutex with no `_owner` is one letting go of it, with no place to stop before it has), so code that
        a Ctrl-C stopped in `release` knows exactly whether its own thread still holds the mutex: another
        thread may have taken it since, and letting it go would let go of that thread's hold."""
        self._mutex = mutex
        self._trying = iter(partial(mutex.acquire, False), None)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ({'held' if self._depth else 'free'})>"

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        me = _get_ident()
        if self._owner == me:
            self._depth += 1
            turn = self._turn
            if turn is not None and not self._suspended:  # taken in the turn running: its to let go as it ends
                turn.holds += 1
            return True
        got = False
        try:
            for got in self._trying if blocking is False else map(self._mutex.acquire, (blocking,), (timeout,)):  # noqa: B007
                break  # taken and `got` stored in one step (see `_use`)
            if got:
                self._owner, self._depth = me, 1
            return got
        except BaseException:  # a Ctrl-C as the mutex was taken: not taken (left held by no one, every turn waited)
            if got:
                self._let_go()
            raise

    __enter__ = acquire

    def release(self) -> None:
        me = _get_ident()
        if self._owner != me:
            raise RuntimeError("cannot release un-acquired lock")
        if self._depth > 1:
            self._depth -= 1  # and counted off the turn running in the same step: nothing stops in between
            turn = self._turn
            if turn is not None and turn.holds > 1 and not self._suspended:
                turn.holds -= 1
            return
        try:
            self._depth = 0
            self._owner = None
            self._mutex.release()
        except BaseException:  # a Ctrl-C between two of them: let go all the same, if not let go yet
            if self._still_held(me):
                self._let_go()
            raise

    def _still_held(self, me: int) -> bool:
        """Whether this thread (`me`), whose last `release` a Ctrl-C stopped, still holds the mutex: it is held,
        and by no other thread (one that took it since is its `_owner`, see `_use`)."""
        return self._owner == me or (self._owner is None and self._mutex.locked())

    def _let_go(self) -> None:
        """Let go of the mutex this thread holds (a hold taken, or a last release that a Ctrl-C stopped before its
        mutex was let go): the mutex held by no one would keep every later turn on the id waiting, and `_owner`
        kept, the holder's next hold taken without it."""
        self._depth, self._owner = 0, None
        self._mutex.release()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.release()

    def adopt(self) -> None:
        """Make the calling thread the holder of a held lock (every hold moves with it). Only the
        code that holds the lock for a turn calls it, when the turn resumes in a thread."""
        if self._depth:
            self._owner = _get_ident()
        self._suspended = False

    def tools_running(self, running: bool) -> None:
        """The turn holding the lock runs its round's tools (`running`), or has stopped: a write by
        one of them (its thread, or a concurrent round's) would come between the round's calls and
        their results (`write_hold` refuses it). Only the code that holds the lock for a turn calls it."""
        self._tools = running

    def suspend(self) -> None:
        """The turn holding the lock gives control back to its reader (an `iter_loop` generator
        yields an event) until it is resumed (`adopt`): a write by the holder in between is not
        the turn's. Only the code that holds the lock for a turn calls it."""
        self._suspended = True


class StoreRLock(TurnRLock):
    """A `TurnRLock` that keeps its store alive: while the lock is registered under the
    store's `id()`, no other store can be given that id (and so this lock)."""

    __slots__ = ("store",)

    store: object
    """The store this lock belongs to (held only to keep it, and so its `id()`, alive)."""

    def __init__(self, store: object) -> None:
        super().__init__()
        self.store = store


def file_turn_lock(database: Path, memory_id: str) -> TurnLock:
    """The turn lock of `memory_id` in the SQLite file `database` (an absolute, resolved path).

    Looked up by the lock file's identity (device and inode), not by its path: one file reached
    under two spellings (`memory.db` and `Memory.db` on a case-insensitive file system, as macOS
    and Windows have by default) gets one lock per id, and one descriptor in the process (a
    second one, closed, would drop the first one's record locks)."""
    offset = int.from_bytes(hashlib.sha256(memory_id.encode("utf-8")).digest()[:8], "big") >> 2
    with _REGISTRY_LOCK:
        file = _lock_file(Path(f"{database}{LOCK_SUFFIX}"), memory_id)
        key = ("sqlite", file.identity, offset)
        lock = _REGISTRY.get(key)
        if lock is None:
            lock = TurnLock(file, offset, memory_id)
            _REGISTRY[key] = lock
        return lock


def _lock_file(path: Path, memory_id: str) -> _LockFile:
    """The process's one open `_LockFile` of the file at `path` (opened, and so made, if none is):
    found by the identity of the file the path names, when it exists. Called under `_REGISTRY_LOCK`."""
    try:
        found = os.stat(path)
    except OSError:  # not made yet (or not reachable: opening it says why)
        file = None
    else:
        file = _REGISTRY.get(("lock file", (found.st_dev, found.st_ino)))
    if file is None:
        file = _LockFile(path, memory_id)
        _REGISTRY[("lock file", file.identity)] = file
    return file


class TurnLock(TurnRLock):
    """A reentrant lock whose outermost hold also holds a byte of a lock file across processes.

    `with lock:`, or `acquire()` / `release()` from one thread, as with `threading.RLock`. With
    `blocking=False` it never waits; with a `timeout`, it waits at most that long in all. A turn
    carries it from thread to thread as it carries a `TurnRLock` (`adopt`: the record lock is the
    process's, so it stays held).
    """

    __slots__ = ("_file", "_memory_id", "_offset")

    def __init__(self, file: _LockFile, offset: int, memory_id: str) -> None:
        super().__init__()
        self._file, self._offset, self._memory_id = file, offset, memory_id

    def __repr__(self) -> str:
        state = "held" if self._depth else "free"
        return f"<TurnLock {_shown_id(self._memory_id)} in {self._file.path} ({state})>"

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        me = threading.get_ident()
        if self._owner == me:
            self._depth += 1
            turn = self._turn
            if turn is not None and not self._suspended:  # counted as `TurnRLock.acquire` counts it
                turn.holds += 1
            return True
        deadline = time.monotonic() + timeout if blocking and timeout >= 0 else None
        got = taken = False
        try:
            for got in self._trying if blocking is False else map(self._mutex.acquire, (blocking,), (timeout,)):  # noqa: B007
                break  # taken and `got` stored in one step (see `TurnRLock._use`)
            if got:
                self._owner = me  # its holder recorded before the byte is waited for (see `TurnRLock._use`)
                taken = self._file.lock(self._offset, self._memory_id, blocking, deadline)
                if taken:
                    self._depth = 1
                else:
                    self._owner = None
                    self._mutex.release()
            return got and taken
        except BaseException:  # the lock file failed, or a Ctrl-C came in between: not taken (nor held by no one)
            if got and self._still_held(me):
                self._let_go()  # the byte let go too: it may have been taken
            raise

    __enter__ = acquire  # `TurnRLock.__enter__` is `TurnRLock.acquire`, not this one

    def release(self) -> None:
        me = threading.get_ident()
        if self._owner != me:
            raise RuntimeError("cannot release un-acquired lock")
        if self._depth > 1:
            self._depth -= 1  # and counted off the turn running in the same step: nothing stops in between
            turn = self._turn
            if turn is not None and turn.holds > 1 and not self._suspended:
                turn.holds -= 1
            return
        try:
            self._file.unlock(self._offset)  # first: once `_owner` is None, nothing may stop before the mutex is let go
            self._depth, self._owner = 0, None
            self._mutex.release()
        except BaseException:  # the lock file failed, or a Ctrl-C came in between: the mutex is let go all the same
            if self._still_held(me):
                self._let_go()
            raise

    def _let_go(self) -> None:
        """`TurnRLock._let_go`, the byte of the lock file let go too (again: letting go of a byte not held is
        harmless; a failure to is the one raised already)."""
        try:
            self._file.unlock(self._offset)
        except OSError:
            pass
        super()._let_go()

    def _forget(self) -> None:
        """In a forked child: free (the child holds no record locks, and only its forking thread runs)."""
        self._use(threading.Lock())
        self._owner, self._depth, self._suspended, self._tools, self._turn = None, 0, False, False, None


class _LockFile:
    """One open descriptor of a lock file per process, shared by its `TurnLock`s: closing a second
    descriptor of the file would drop every record lock the process holds on it."""

    path: Path
    """The lock file."""
    fd: int
    """Its open descriptor (-1 where none is opened: Windows)."""
    identity: Hashable
    """(device, inode) of the open file; its path where none is opened."""

    def __init__(self, path: Path, memory_id: str) -> None:
        self.path = path
        self.fd = -1
        self.identity = ("path", str(path))
        if sys.platform == "win32":  # no fcntl: in-process only (see the module docstring)
            return
        try:
            self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
            opened = os.fstat(self.fd)
        except OSError as exc:
            raise _failed(path, memory_id, "open", exc) from exc
        self.identity = (opened.st_dev, opened.st_ino)

    def __del__(self) -> None:
        if self.fd >= 0:
            try:
                os.close(self.fd)
            except OSError:
                pass

    def lock(self, offset: int, memory_id: str, blocking: bool, deadline: float | None) -> bool:
        """Take byte `offset`: wait for it (until `deadline` if one is given), or not at all."""
        if sys.platform == "win32" or self.fd < 0:
            return True
        import fcntl

        wait = blocking and deadline is None
        while True:
            try:
                fcntl.lockf(self.fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset)
                return True
            except OSError as exc:
                busy = exc.errno in (errno.EACCES, errno.EAGAIN)
                if not busy and exc.errno != errno.EDEADLK:  # with threads, deadlock reports can be false
                    raise _failed(self.path, memory_id, "lock", exc) from exc
                if busy and (not blocking or (deadline is not None and time.monotonic() >= deadline)):
                    return False
            time.sleep(RETRY_PAUSE)

    def unlock(self, offset: int) -> None:
        if sys.platform == "win32" or self.fd < 0:
            return
        import fcntl

        fcntl.lockf(self.fd, fcntl.LOCK_UN, 1, offset)


def wait_for_turn(lock: TurnLockLike, memory_id: str) -> bool:
    """`lock.acquire()` for a turn on `memory_id` that must wait for the turn before it (the loop and
    `ai_service` wait without a timeout); a Ctrl-C while it waits says what it waited for, and what
    keeps a turn running that long (a call that hangs, whose task was cancelled: `in_thread`). True
    (taken), so that a caller notes it in the same line as it asks."""
    try:
        return lock.acquire()
    except KeyboardInterrupt as exc:
        exc.add_note(WAITED_NOTE.format(id=_shown_id(memory_id)))
        raise


WAITED_NOTE = (
    "this turn had not begun: it was waiting for the turn before it on memory id {id} to end (one turn at a time "
    "on a memory id), and nothing of it was stored or sent; that turn is still running, in another thread or "
    "process (a turn whose task was cancelled runs on until the call it runs returns): a call that may hang can "
    "be given a time limit, LoopOptions(tool_timeout=30), which answers it after 30 s and lets its turn end"
)
"""Noted on a Ctrl-C that ended a turn's wait for the memory id's turn lock (`wait_for_turn`)."""


WRITE_WAITED_NOTE = (
    "{where} had not written: it was waiting for the turn on memory id {id} to end (a write from outside a turn "
    "waits for the turn running on its memory id), and nothing of it was stored; that turn is still running, in "
    "another thread or process (a turn whose task was cancelled runs on until the call it runs returns): a call "
    "that may hang can be given a time limit, LoopOptions(tool_timeout=30), which answers it after 30 s and lets "
    "its turn end"
)
"""Noted on a Ctrl-C that ended a write's wait for the memory id's turn lock (`_WriteHeld`), as a
turn's wait is told (`WAITED_NOTE`)."""


class Held:
    """`with lock:` that knows whether its hold is still taken (`held`): `let_go()`, called as an exception goes
    through the `with`, lets go of a hold that a Ctrl-C as its `__exit__` began kept. Python acts on a Ctrl-C as
    any Python function begins, `__exit__` too: the hold was kept, and every other thread's turn on the id waited
    for ever. For a hold taken outside a turn (inside one, the turn lets go of what it kept as it ends)."""

    __slots__ = ("lock", "held")

    def __init__(self, lock: TurnLockLike) -> None:
        self.lock, self.held = lock, False

    def __enter__(self) -> None:
        self.lock.acquire()
        self.held = True  # a turn lock's `acquire` returns to here with nowhere to stop in between

    def __exit__(self, *exc: Any) -> None:
        lock = self.lock
        if isinstance(lock, TurnRLock):  # its `release` is Python's: stopped, it has let go of nothing or of all
            lock.release()
            self.held = False
        else:  # a C lock's `release` is done once called: Python may stop after it, never in it
            self.held = False
            lock.release()

    def let_go(self) -> None:
        """After an exception through the `with`: let go of its hold if it is still taken (a Ctrl-C as its
        `__exit__` began, or as the lock's `release` began). A release that let go of the lock (its holder is no
        longer this thread) is not done again, nor is one of a lock this thread no longer holds."""
        lock = self.lock
        if self.held and (lock._owner == _get_ident() if isinstance(lock, TurnRLock) else _is_owned(lock)):
            self.held = False
            lock.release()


def _is_owned(lock: Any) -> bool:
    """Whether this thread holds `lock`, a store's own lock (`threading.RLock` tells; one that cannot: no)."""
    owned = getattr(lock, "_is_owned", None)
    return bool(owned()) if owned is not None else False


class TurnHeld(Held):
    """`Held` for a turn on `memory_id` (`ai_service` around its loop), its wait `wait_for_turn`'s."""

    __slots__ = ("memory_id",)

    def __init__(self, lock: TurnLockLike, memory_id: str) -> None:
        super().__init__(lock)
        self.memory_id = memory_id

    def __enter__(self) -> None:
        if not self.lock.acquire(False):
            wait_for_turn(self.lock, self.memory_id)
        self.held = True


class _WriteHeld(Held):
    """`with` a write's hold on `lock`: a Ctrl-C that ends its wait for the turn holding it (the
    write had not begun) carries `WRITE_WAITED_NOTE`, as a turn's wait is told (`wait_for_turn`);
    one inside the write (in the store) is not noted. The write lets go of a hold a Ctrl-C as its
    `__exit__` began kept (`let_go`)."""

    __slots__ = ("memory_id", "where")

    def __init__(self, lock: TurnLockLike, where: str, memory_id: str) -> None:
        super().__init__(lock)
        self.where, self.memory_id = where, memory_id

    def __enter__(self) -> None:
        try:
            self.lock.__enter__()
        except KeyboardInterrupt as interrupt:
            interrupt.add_note(WRITE_WAITED_NOTE.format(where=self.where, id=_shown_id(self.memory_id)))
            raise
        self.held = True


def let_go(hold: AbstractContextManager[Any]) -> None:
    """After an exception through `with hold:` (`write_hold`'s): let go of a hold a Ctrl-C as its `__exit__` began
    kept (`Held.let_go`); nothing for a hold that takes none."""
    if type(hold) is _WriteHeld:
        hold.let_go()


def _shown_id(memory_id: str) -> str:
    """`repr(memory_id)` cut to 80 characters, as `toolkit.memory.windows.shown` cuts it (which
    imports this module): an error stays one short line whatever the id's length."""
    return cut(repr(memory_id), 80)


def _failed(path: Path, memory_id: str, action: str, exc: OSError) -> MemoryStoreError:
    return MemoryStoreError(
        f"cannot {action} the turn lock file {path} for memory id {_shown_id(memory_id)}: {exc.strerror or exc} "
        f"({_lock_advice(path, exc)})"
    )


def _lock_advice(path: Path, exc: OSError) -> str:
    """What to do about a lock file that cannot be opened or locked: the folder named when this
    user may not write it, the file when it is another user's; else what the lock file needs."""
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        if not os.path.lexists(path) and not may_write(path.parent):
            return read_only_folder(path.parent, path.with_name(path.name.removesuffix(LOCK_SUFFIX)))
        if os.path.lexists(path):
            return (
                "it keeps two processes' turns on one id apart, and this user may not write it: its owner can "
                f"allow it (chmod a+rw {path}), or give the store a file in a folder of your own"
            )
    return (
        "it keeps two processes' turns on one id apart; the folder must be writable and its file system must "
        "support POSIX record locks, as a local disk does"
    )


def may_write(path: Path) -> bool:
    """Whether this user may write the file `path`, or make files in the folder `path` (`os.access`;
    a test says no where root may)."""
    return os.access(path, os.W_OK)


def read_only_folder(folder: Path, database: Path) -> str:
    """What a memory database in `folder`, which this user may not write, needs, and the fix."""
    keep = " (copy this file there first to keep its conversations)" if os.path.exists(database) else ""
    return (
        f"the folder {folder} is read-only for this user, and SQLite writes beside the database (its -wal and -shm "
        f"files; the turn lock's {database.name}{LOCK_SUFFIX}); give the store a file in a folder you may write, "
        f"e.g. SqliteStore(Path.home() / {database.name!r}){keep}"
    )


def _after_fork_in_child() -> None:
    for value in list(_REGISTRY.values()):
        if isinstance(value, TurnLock):
            value._forget()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
