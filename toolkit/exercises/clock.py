"""The time a learner's code had: the seconds passed, less those its thread stood ready while the host ran others.

A time limit on a learner's code (one check, `core`; one cell, `worker`) counts with a `Stopwatch`: wall time,
so code that sleeps or waits for something that never comes is stopped, but not the time the thread was ready
to run and waited for a CPU (Linux's `/proc/<pid>/task/<tid>/schedstat`, its second field: the time spent on a
run queue). On a host shared by many jobs (a teacher grading while other work runs, a CI machine at load 15 on
2 cores) an honest cell that needs 0.7 s of CPU takes 5 s of wall time; counted on the wall clock it was
stopped as if it looped forever. Counted here it has its 0.7 s, and an endless loop is still stopped once it
has had the limit's seconds of CPU or of waiting of its own.

`toolkit grade`'s own limits on a submission (`grade._wait`: a notebook in which no cell finished for a cell's
limit and `grade.START_ALLOWANCE_S`, `grade.cell_wait_s`; a whole notebook's, `grade.notebook_limit_s`) count on
the same clock, for the worker and the kernel it starts (`Family`: their first threads' waiting, added up): the
run they limit is those two processes' work, and a whole notebook of honest cells, each given its waiting at
load, was otherwise cut at the sum of its cells' limits counted on the wall clock, for time it never had.

The waiting forgiven has a bound (`forgive`): past it the host is too loaded to wait for, and the wall clock
stops the code as before. The bounds nest, so each limit still comes before the one outside it: a check's
(`CHECK_FORGIVES_S`) before its cell's (`CELL_FORGIVES_S`), and that before `toolkit grade`'s on a cell that does
not stop (`RUN_FORGIVES_S` for each window between two finished cells, and for each cell in the whole notebook's;
as `CELL_FORGIVES_S` is below `grade.START_ALLOWANCE_S`, the nesting holds where `Family` sees the worker alone).

Leaves out: systems that do not say how long a thread waited for a CPU (macOS, Windows, a Linux without
schedstat): there a `Stopwatch` counts wall time, as before; a Linux that does not list a process's children
(`/proc/<pid>/task/<pid>/children`): there `Family` counts the worker's waiting alone. The processes a notebook's
code starts, and the kernel's threads other than its first, are not counted in `Family`. The time a thread waits for a lock, the GIL or
a process it started counts: that waiting is the code's own.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

CHECK_FORGIVES_S = 20.0
"""At most these seconds of waiting for a CPU are not counted in one check's limit (`core`)."""
CELL_FORGIVES_S = 40.0
"""At most these seconds of waiting for a CPU are not counted in one cell's limit (`worker`)."""
RUN_FORGIVES_S = 60.0
"""At most these seconds of the worker's and its kernel's waiting for a CPU are not counted in `toolkit grade`'s
wait for the next cell to finish (`grade.cell_wait_s`), and these for each cell in the whole notebook's limit
(`grade.notebook_limit_s`): a cell's (`CELL_FORGIVES_S`) and the worker's around it."""


def waited(pid: int | None = None, thread: int | None = None) -> float | None:
    """The seconds the thread `thread` (a native id) of process `pid` (this one when None; its first thread when
    `thread` is None) has spent ready to run but waiting for a CPU since it started; None when the system does
    not say (no such file, a process gone, a format not understood)."""
    where = f"/proc/{'self' if pid is None else pid}"
    path = f"{where}/task/{thread}/schedstat" if thread is not None else f"{where}/schedstat"
    try:
        with open(path, "rb") as file:
            fields = file.read(200).split()
        return int(fields[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def children(pid: int) -> list[int]:
    """The process ids of the children of process `pid` (its first thread's); none when the system does not say."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as file:
            return [int(child) for child in file.read(4096).split()]
    except (OSError, ValueError):
        return []


class Family:
    """The seconds process `pid` and its children (the worker and the kernel it starts) have waited for a CPU
    since this was made: their first threads' waiting (`waited`) added up, each child's counted from when it was
    first seen (`waited` is called every `grade.POLL_S`), and a child that has ended keeping what it waited."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.first: dict[int, float] = {}
        self.latest: dict[int, float] = {}

    def waited(self) -> float | None:
        """The seconds waited so far; None when the system does not say for `pid` itself."""
        for pid in (self.pid, *children(self.pid)):
            if (now := waited(pid)) is not None:
                self.first.setdefault(pid, now)
                self.latest[pid] = max(self.latest.get(pid, now), now)
        if self.pid not in self.first:
            return None
        return sum(self.latest[pid] - self.first[pid] for pid in self.latest)


class Stopwatch:
    """Seconds since it was made, less those the thread waited for a CPU meanwhile (`waited`), at most `forgive`
    of them, for the thread `thread` of process `pid` (as `waited` names them; `wall_only`: wall time, for a
    process not known; `reading`: another count of seconds waited, a `Family`'s): never more than the wall time,
    and never going back."""

    def __init__(
        self,
        pid: int | None = None,
        thread: int | None = None,
        *,
        forgive: float,
        wall_only: bool = False,
        reading: Callable[[], float | None] | None = None,
    ) -> None:
        self.forgive, self.wall_only = forgive, wall_only
        self.reading = reading if reading is not None else lambda: waited(pid, thread)
        self.start = time.monotonic()
        self.waited_at_start = None if wall_only else self.reading()
        self.last = 0.0

    def again(self) -> Stopwatch:
        """A new one from now, for the same thread."""
        return Stopwatch(forgive=self.forgive, wall_only=self.wall_only, reading=self.reading)

    def elapsed(self) -> float:
        return self.elapsed_at(self.reading() if self.waited_at_start is not None else None)

    def elapsed_at(self, now: float | None) -> float:
        """`elapsed`, given `now`: what `reading` says at this moment (unused when not read at the start)."""
        wall = time.monotonic() - self.start
        kept_waiting = 0.0 if now is None or self.waited_at_start is None else now - self.waited_at_start
        self.last = max(self.last, wall - min(max(0.0, kept_waiting), self.forgive))
        return self.last


def elapsed(*watches: Stopwatch) -> list[float]:
    """Each one's `elapsed`, a reading several of them share (one `Family`'s, the same bound method) read once:
    `toolkit grade` looks at its two every `grade.POLL_S`, and a `Family` reading is several files of `/proc`."""
    readings: dict[Callable[[], float | None], float | None] = {}
    spent = []
    for watch in watches:
        if watch.waited_at_start is not None and watch.reading not in readings:
            readings[watch.reading] = watch.reading()
        spent.append(watch.elapsed_at(readings.get(watch.reading) if watch.waited_at_start is not None else None))
    return spent


def this_thread(forgive: float) -> Stopwatch:
    """A `Stopwatch` for the thread that calls it (another thread may read it: the limit's guard does)."""
    import threading

    return Stopwatch(os.getpid(), threading.get_native_id(), forgive=forgive)
