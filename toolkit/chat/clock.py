"""The run's clock: what "now" is for anything that ends up in a request, recorded and replayed.

A system prompt with today's date, the shop's "today", an omitted `asOf`: a run that reads the
clock sends different requests tomorrow, and a cassette recorded today would stop matching.
So everything that puts the date into a request asks `session_now()` / `session_today()`:

    LLM_REPLAY=cassette   the reading the recorded run made (if it made one)
    LLM_RECORD=cassette   the first reading of this run, written to the cassette as
                          {"clock": {"now": "…"}, "format": 1} and then frozen for the rest of the run
    neither               the real clock

Leaves out: time zones (naive local time, as `datetime.now()` gives it), clocks that must
advance during a recorded run (a recorded run sees one "now").
"""

from __future__ import annotations

import datetime as dt
import errno
import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path

from toolkit.chat.cassette import (
    PLAIN_FORMAT,
    RECORD_VAR,
    REPLAY_VAR,
    cassette_text,
    not_a_cassette,
    parse_clock,
)
from toolkit.chat.cassette_append import append_line, target
from toolkit.errors import CassetteError

_LOCK = threading.Lock()
_recorded: dict[Path, dt.datetime] = {}
_replayed: dict[tuple[Path, float], dt.datetime | None] = {}


def session_now(env: Mapping[str, str] | None = None) -> dt.datetime:
    """ "Now" for this run: replayed, recorded-then-frozen, or the real clock (see above)."""
    env = os.environ if env is None else env
    replay = env.get(REPLAY_VAR, "").strip()
    if replay:
        recorded = _replay_clock(Path(replay))
        if recorded is not None:
            return recorded
    record = env.get(RECORD_VAR, "").strip()
    if record:
        return _record_clock(Path(record))
    return dt.datetime.now()


def session_today(env: Mapping[str, str] | None = None) -> dt.date:
    """Today's date for this run (see `session_now`)."""
    return session_now(env).date()


def read_clock(path: Path) -> dt.datetime | None:
    """The clock reading a cassette holds (None if it holds none); a cassette that cannot be read (a
    folder, a pipe, over its cap: `toolkit.chat.cassette.cassette_text`) is a `CassetteError`."""
    for line in cassette_text(path).split("\n"):  # not `splitlines`: a body may hold U+2028
        if '"clock"' in line:
            entry = json.loads(line)
            if isinstance(entry, dict) and "clock" in entry:
                return parse_clock(entry["clock"])
    return None


def _replay_clock(path: Path) -> dt.datetime | None:
    try:
        key = (path.resolve(), path.stat().st_mtime)
    except (OSError, RuntimeError):  # no such file, or a link loop (`RuntimeError` before Python 3.13)
        return None
    with _LOCK:
        if key not in _replayed:
            try:
                _replayed[key] = read_clock(path)
            except (CassetteError, OSError, ValueError, KeyError, TypeError, RecursionError):
                _replayed[key] = None
        return _replayed[key]


def _record_clock(path: Path) -> dt.datetime:
    """The first reading of this run, written to the cassette at `path` (frozen once written); a
    cassette that cannot be written (a folder, a link loop) is a `CassetteError`, as for the exchanges."""
    try:
        key = path.resolve()
    except (OSError, RuntimeError):  # a link loop (`RuntimeError` before Python 3.13)
        raise _unrecordable(path, os.strerror(errno.ELOOP)) from None
    with _LOCK:
        if key not in _recorded:
            if problem := not_a_cassette(path):
                raise CassetteError(f"cannot record to {path} ({RECORD_VAR}): {problem}")
            now = dt.datetime.now()
            line = json.dumps({"clock": {"now": now.isoformat()}, "format": PLAIN_FORMAT})
            try:  # after a line a killed run cut short: a line of its own; never through a link swapped in since
                append_line(f"cannot record to {path} ({RECORD_VAR})", target(path), line, set())
            except OSError as exc:
                raise _unrecordable(path, exc.strerror or str(exc)) from None
            _recorded[key] = now
        return _recorded[key]


def _unrecordable(path: Path, why: str) -> CassetteError:
    return CassetteError(f"cannot record to {path} ({RECORD_VAR}): it cannot be written ({why})")
