"""The time a learner's code had: wall time less its thread's wait for a CPU (Linux's schedstat), up to a bound."""

import os
import threading
import time

from toolkit.exercises import clock, grade


def test_waited_reads_this_threads_wait_for_a_cpu_or_says_it_cannot():
    here = clock.waited(os.getpid(), threading.get_native_id())
    assert here is None or here >= 0
    assert clock.waited(2**22 + 7) is None  # no such process: not known, never a crash


def test_a_stopwatch_counts_wall_time_less_the_waiting_up_to_its_bound_and_never_goes_back(monkeypatch):
    now, waiting = [100.0], [5.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    monkeypatch.setattr(clock, "waited", lambda *_: waiting[0])
    watch = clock.Stopwatch(1, forgive=3.0)
    now[0], waiting[0] = 104.0, 7.0  # 4 s passed, 2 of them waiting for a CPU
    assert watch.elapsed() == 2.0
    now[0], waiting[0] = 110.0, 12.0  # 10 s passed, 7 waiting: only 3 forgiven
    assert watch.elapsed() == 7.0
    waiting[0] = None  # the process is gone: not back in time
    assert watch.elapsed() == 10.0
    assert watch.again().elapsed() == 0.0
    assert clock.Stopwatch(1, forgive=3.0, wall_only=True).elapsed() == 0.0


def test_each_limits_forgiveness_ends_before_the_limit_outside_it():
    """A check's limit before its cell's, and the cell's before `toolkit grade` stops a cell that ignores its
    interrupt (`cell_wait_s`: the cell's limit and START_ALLOWANCE_S): else a loaded host turned a failed check
    into a stopped cell, or a stopped cell into a notebook killed with its later cells unrun."""
    assert 0 < clock.CHECK_FORGIVES_S < clock.CELL_FORGIVES_S < grade.START_ALLOWANCE_S
    assert clock.CELL_FORGIVES_S <= clock.RUN_FORGIVES_S  # grade's own limits forgive at least a cell's


def test_a_family_adds_up_the_waiting_of_a_process_and_its_children_each_from_when_first_seen(monkeypatch):
    """`toolkit grade` counts the worker's limits on the waiting of the worker and the kernel it starts: a kernel
    started later counts from when it is first seen, and one that has ended keeps what it waited."""
    waits, kids = {10: 1.0}, []
    monkeypatch.setattr(clock, "waited", lambda pid, thread=None: waits.get(pid))
    monkeypatch.setattr(clock, "children", lambda pid: list(kids))
    family = clock.Family(10)
    assert family.waited() == 0.0
    waits[10], waits[11] = 3.0, 50.0  # the kernel starts, with waiting of its own before it was seen
    kids.append(11)
    assert family.waited() == 2.0
    waits[11] = 54.0
    assert family.waited() == 6.0
    kids.clear()
    del waits[11]  # the kernel has ended
    assert family.waited() == 6.0
    assert clock.Family(12).waited() is None  # the system says nothing of it: a wall-time stopwatch


def test_children_lists_a_processes_children_or_none_when_not_known():
    assert all(isinstance(pid, int) for pid in clock.children(os.getpid()))
    assert clock.children(2**22 + 7) == []


def test_stopwatches_sharing_a_reading_read_it_once_and_each_counts_as_alone(monkeypatch):
    """`clock.elapsed`: `toolkit grade`'s two stopwatches on one `Family` read `/proc` once a poll, each answer the
    one its own `elapsed` gives; a wall-time one reads nothing."""
    now, reads = [100.0], []
    monkeypatch.setattr(time, "monotonic", lambda: now[0])

    def reading() -> float:
        reads.append(now[0])
        return now[0] / 2

    first = clock.Stopwatch(forgive=1.0, reading=reading)
    now[0] = 101.0
    second = clock.Stopwatch(forgive=10.0, reading=reading)
    wall = clock.Stopwatch(forgive=10.0, wall_only=True, reading=reading)
    reads.clear()
    now[0] = 110.0  # 10 s and 9 s passed, half of each waiting for a CPU
    assert clock.elapsed(first, second, wall) == [9.0, 4.5, 9.0]
    assert reads == [110.0]
    assert [first.elapsed(), second.elapsed()] == [9.0, 4.5] and len(reads) == 3
