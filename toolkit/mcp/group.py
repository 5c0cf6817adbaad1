"""A stdio MCP server's process group, ended with the server (POSIX).

The MCP SDK starts a stdio server in a session of its own (`start_new_session`: its process group's
id is its pid) and ends the whole group only when the server outlives its grace after its stdin
closes. A server that exits at once, as it should, left its own children running: a shell script
that runs a helper in the background (`sleep 1000 &`) and then `exec`s the server, or a Python
server that spawned a subprocess. `group_ended(transport)` notes the pid of the process the SDK
starts inside `transport` and, once the transport has closed (the server stopped), ends what is
left of its group as the SDK would: SIGTERM, then SIGKILL after the SDK's `FORCE_KILL_TIMEOUT`
for members still there. Only that group is signalled: the caller's own processes are never in it.

On Windows the SDK's job object already ends a server's children with it: nothing is done there.
Should the SDK no longer start its servers through `_create_platform_compatible_process`, no pid is
noted and nothing is done (the SDK's own behaviour).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anyio
import mcp.client.stdio

POLL_S = 0.02
"""How often the group is looked at between SIGTERM and SIGKILL."""

_spawned: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("toolkit_mcp_spawned", default=None)
"""The pids of the servers started in this task's `group_ended` (None outside one)."""


def _noting_spawns() -> None:
    """Wrap the SDK's spawning function so that a `group_ended` around it learns the server's pid."""
    spawn = getattr(mcp.client.stdio, "_create_platform_compatible_process", None)
    if spawn is None or getattr(spawn, "toolkit_notes_pids", False):
        return

    async def noted(*args: Any, **kwargs: Any) -> Any:
        process = await spawn(*args, **kwargs)
        pids = _spawned.get()
        if pids is not None:
            pids.append(process.pid)
        return process

    noted.toolkit_notes_pids = True  # type: ignore[attr-defined]
    mcp.client.stdio._create_platform_compatible_process = noted  # noqa: SLF001


@contextlib.asynccontextmanager
async def group_ended(transport: Any, killed: Callable[[float], None]) -> AsyncIterator[Any]:
    """`transport`'s streams; when it has closed, the stdio server's process group is ended.
    `killed(grace)` is told when members outlived SIGTERM by `grace` seconds and were sent SIGKILL."""
    pids: list[int] = []
    token, opened = _spawned.set(pids), False
    try:
        async with transport as streams:
            _spawned.reset(token)  # the server is started: nothing more to note
            opened = True
            yield streams
    finally:
        if not opened:  # the transport failed to open
            _spawned.reset(token)
        with anyio.CancelScope(shield=True):
            for pid in pids:
                if grace := await end_group(pid):
                    killed(grace)


async def end_group(pgid: int) -> float:
    """SIGTERM to the process group `pgid`, SIGKILL to what is left of it after the SDK's grace:
    that grace if it came to SIGKILL, else 0."""
    if os.name != "posix" or not _signalled(pgid, signal.SIGTERM):
        return 0.0
    grace = getattr(mcp.client.stdio, "FORCE_KILL_TIMEOUT", 2.0)
    grace = float(grace) if isinstance(grace, int | float) else 2.0
    if await _ended_within(pgid, grace):
        return 0.0
    _signalled(pgid, signal.SIGKILL)
    await _ended_within(pgid, grace)  # a kill lands at once, but not before killpg returns
    return grace


async def _ended_within(pgid: int, seconds: float) -> bool:
    """Whether no member of the group runs any more within `seconds`."""
    with anyio.move_on_after(seconds):
        while _signalled(pgid, 0) and _running(pgid):
            await anyio.sleep(POLL_S)
        return True
    return False


def _signalled(pgid: int, sig: int) -> bool:
    """Send `sig` to the group; False once it has no member left (a group's id is not reused before)."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:  # no member is ours to signal (each changed user): nothing more can be done
        return False
    return True


def _running(pgid: int) -> bool:
    """Whether a member of the group is still running. A member that died is a zombie until init
    reaps it (a container's init may never do so): on Linux, /proc tells them apart; elsewhere each
    member that answers a signal counts as running."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return True
    for stat in proc.glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):  # it ended meanwhile
            state, _parent, group = stat.read_text().rsplit(")", 1)[1].split()[:3]
            if group == str(pgid) and state not in ("Z", "X"):
                return True
    return False


_noting_spawns()
