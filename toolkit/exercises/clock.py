"""The time a learner's code had: the seconds passed, less those its thread stood ready while the host ran others.

A time limit on a learner's code (one check, `core`; one cell, `worker`) counts with a `Stopwatch`: wall time,
so code that sleeps or waits for something that never comes is stopped, but not the time the thread was ready
to run and waited for a CPU (Linux's `/proc/<pid>/task/<tid>/schedstat`, its second field: the time spent on a
run queue). On a host shared by many jobs (a teacher grading while other work runs, a CI machine at load 15 on
2 cores) an honest cell that needs 0.7 s of CPU takes 5 s of wall time; counted on the wall clock it was
stopped as if it looped forever. Counted here it has its 0.7 s, and an endless loop is still stopped once it
has had the limit's seconds of CPU or of waiting of its own.

The waiting forgiven has a bound (`forgive`): past it the host is too loaded to wait for, and the wall clock
stops the code as before. The bounds nest, so each limit still comes before the one outside it: a check's
(`CHECK_FORGIVES_S`) before its cell's (`CELL_FORGIVES_S`), and that before `toolkit grade`'s own wall-clock
limit on a cell that does not stop (`grade.cell_wait_s`: the cell's limit and `grade.START_ALLOWANCE_S`).

Leaves out: systems that do not say how long a thread waited for a CPU (macOS, Windows, a Linux without
schedstat): there a `Stopwatch` counts wall time, as before. The time a thread waits for a lock, the GIL or
a process it started counts: that waiting is the code's own.
"""

from __future__ import annotations

import os
import time

CHECK_FORGIVES_S = 20.0
"""At most these seconds of waiting for a CPU are not counted in one check's limit (`core`)."""
CELL_FORGIVES_S = 40.0
"""At most these seconds of waiting for a CPU are not counted in one cell's limit (`worker`)."""


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


class Stopwatch:
    """Seconds since it was made, less those the thread waited for a CPU meanwhile (`waited`), at most `forgive`
    of them, for the thread `thread` of process `pid` (as `waited` names them; `wall_only`: wall time, for a
    process not known): never more than the wall time, and never going back."""

    def __init__(
        self, pid: int | None = None, thread: int | None = None, *, forgive: float, wall_only: bool = False
    ) -> None:
        self.pid, self.thread, self.forgive, self.wall_only = pid, thread, forgive, wall_only
        self.start = time.monotonic()
        self.waited_at_start = None if wall_only else waited(pid, thread)
        self.last = 0.0

    def again(self) -> Stopwatch:
        """A new one from now, for the same thread."""
        return Stopwatch(self.pid, self.thread, forgive=self.forgive, wall_only=self.wall_only)

    def elapsed(self) -> float:
        wall = time.monotonic() - self.start
        now = waited(self.pid, self.thread) if self.waited_at_start is not None else None
        kept_waiting = 0.0 if now is None or self.waited_at_start is None else now - self.waited_at_start
        self.last = max(self.last, wall - min(max(0.0, kept_waiting), self.forgive))
        return self.last


def this_thread(forgive: float) -> Stopwatch:
    """A `Stopwatch` for the thread that calls it (another thread may read it: the limit's guard does)."""
    import threading

    return Stopwatch(os.getpid(), threading.get_native_id(), forgive=forgive)
