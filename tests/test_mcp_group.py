"""A stdio MCP server's own children (`toolkit.mcp.client.group_ended`): a server started by a shell script that
runs a helper in the background (`sleep 1000 &`, then `exec` the server), or a Python server that
spawns a subprocess, left them running after `close()`, the provider's close and the interpreter's
exit: the SDK stops the whole process group only when the server itself outlives its grace. They
end with the server now (SIGTERM, then SIGKILL), and nothing outside its group is touched."""

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider

STRANGER = str(Path(__file__).parent / "mcp_servers" / "stranger_server.py")
KILLED = (
    "MCP server 'kids' left processes of its own running after it stopped, and they ignored SIGTERM, so they were "
    "sent SIGKILL 0.4 s later; a server should end what it started when its stdin closes"
)


def _alive(pid: int) -> bool:
    """Running or stopped: not gone, nor a zombie (an orphan that died is reaped by init, at its pace)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _pids(path: Path) -> list[int]:
    return [int(word) for word in path.read_text().split()]


def _shell_server(tmp_path: Path) -> list[str]:
    """A shell script that starts two helpers in the background, one ignoring SIGTERM, then execs the server."""
    script = tmp_path / "server.sh"
    script.write_text(
        textwrap.dedent(f"""\
            #!/bin/sh
            sleep 1000 &
            echo $! >> "$PID_FILE"
            (trap '' TERM; sleep 1000; true) &
            echo $! >> "$PID_FILE"
            exec {sys.executable} {STRANGER} exit-in-call
            """)
    )
    script.chmod(0o755)
    return [str(script)]


def _python_server(tmp_path: Path) -> list[str]:
    """A Python server that spawns a subprocess and goes on serving."""
    spawn = (
        "import os, subprocess, sys; "
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(1000)']); "
        "open(os.environ['PID_FILE'], 'a').write(f'{child.pid}\\n'); "
        f"sys.argv = [{STRANGER!r}, 'exit-in-call']; "
        f"exec(open({STRANGER!r}).read())"
    )
    return [sys.executable, "-c", spawn]


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="counts processes in /proc")
@pytest.mark.parametrize("server", [_shell_server, _python_server])
@pytest.mark.parametrize("closing", ["client", "provider"])
def test_a_stdio_server_s_children_end_when_it_is_closed_and_nothing_else(
    tmp_path, server, closing, monkeypatch, caplog
):
    import mcp.client.stdio

    monkeypatch.setattr(mcp.client.stdio, "FORCE_KILL_TIMEOUT", 0.4)  # the grace before SIGKILL, kept short
    pid_file = tmp_path / "pids"
    command = server(tmp_path)
    client = McpClient.stdio(command[0], command[1:], env={"PID_FILE": str(pid_file)}, name="kids", connect_timeout=60)
    outsider = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"])  # in the test's group
    try:
        provider = McpToolProvider([client])
        assert [tool.name for tool in provider.provide()] == ["t"]
        children = _pids(pid_file)
        assert len(children) == (2 if server is _shell_server else 1)
        assert [pid for pid in children if _alive(pid)] == children
        with caplog.at_level("WARNING", logger="toolkit.mcp"):
            client.close() if closing == "client" else provider.close()
        assert [pid for pid in children if _alive(pid)] == []
        assert [r.getMessage() for r in caplog.records if r.name == "toolkit.mcp"] == (
            [KILLED] if server is _shell_server else []  # its second helper ignores SIGTERM
        )
        assert outsider.poll() is None  # not of the server's group: left alone
    finally:
        outsider.kill()
        outsider.wait()
        _kill(pid_file)


def _kill(pid_file: Path) -> None:
    """What a failing test left running."""
    for pid in _pids(pid_file) if pid_file.exists() else []:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="counts processes in /proc")
def test_a_stdio_server_s_children_end_when_the_interpreter_exits_without_close(tmp_path):
    """A kernel restarted (or a script that ends) without `close()`: its exit closes the client."""
    pid_file = tmp_path / "pids"
    script = (
        "import sys; from toolkit.mcp.client import McpClient; "
        "client = McpClient.stdio(sys.argv[1], [], env={'PID_FILE': sys.argv[2]}, connect_timeout=60); "
        "print([tool.name for tool in client.list_tools()])"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, *_shell_server(tmp_path), str(pid_file)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).parent.parent,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)},
    )
    assert (run.returncode, run.stdout) == (0, "['t']\n"), run.stderr
    try:
        assert [pid for pid in _pids(pid_file) if _alive(pid)] == []
    finally:
        _kill(pid_file)
