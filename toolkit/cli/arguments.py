"""Argument types shared by the subcommands: a bad value is argparse's one-line usage error.

`port` (0 to 65535; 0 = any free port), `count` (a whole number, at least 0), `positive` (a
whole number, at least 1), `seconds` (a finite number, at least 0), `positive_seconds` (a finite
number above 0, at most `LONGEST_WAIT_S`), `host` (a name or address to listen on, never blank: an empty host listens on
every interface), `text_file` (an input file that exists and is UTF-8 text of at most the cases'
cap; a pipe such as `<(command)` is left for the command to read once), `command_line` (a
shell-quoted command whose quotes close, naming a command), `mcp_url` (`McpClient`'s own rule and
words: `toolkit.mcp.client.url_problem`) and `base_url` (an http(s) URL with a host and a valid port),
each named masked when it is not right, `api_key` (printable ASCII, never
shown), `out_file` (a file that can be written: checked before a long run, not after it; a FIFO or
device only for permission, unopened; `-` for standard output, and `is_stdout` says whether a file
is it), `given_path` (an input path or folder, never blank: `Path("")` is the current folder)
and `whole` (a whole number within given bounds, for a subcommand's own type). Each
raises `argparse.ArgumentTypeError` with what is valid.

`cannot_listen` is the one line every server command (`gateway`, `mcp-server`) prints when its
port is taken (or cannot be had: a port below 1024, a host that is not this machine's), naming the
fix, with exit status 2 (the README: a mistake is one line on stderr and exit status 2).

Leaves out: anything argparse already checks (choices, required arguments).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import math
import os
import shlex
import stat
import sys
from collections.abc import Callable
from pathlib import Path

from toolkit.files import first_line, try_writing
from toolkit.unicode import cut


def cannot_listen(host: str, port: int, reason: OSError | str) -> int:
    """Say on stderr that `host:port` cannot be listened on, why and what to do, in one line worded the
    same by every server command; returns the exit status, 2."""
    why = reason if isinstance(reason, str) else (reason.strerror or str(reason))
    fix = "" if isinstance(reason, str) else _listen_fix(reason)
    print(f"error: cannot listen on {host}:{port}: {why}{fix and '; '}{fix}", file=sys.stderr)
    return 2


_OWN_ADDRESS = "give 127.0.0.1 (this machine only) or one of its own addresses"


def _listen_fix(error: OSError) -> str:
    """What to do when listening failed with `error` ("" when there is nothing the command line can change)."""
    import errno
    import socket

    if isinstance(error, socket.gaierror):
        return f"--host is no name this machine can look up: {_OWN_ADDRESS}"
    return {
        errno.EADDRINUSE: "stop the program that listens there, or give another --port (0 = any free one)",
        errno.EACCES: "a port below 1024 needs root: give one from 1024 up, or 0 (any free one)",
        errno.EADDRNOTAVAIL: f"--host is no address of this machine: {_OWN_ADDRESS}",
    }.get(error.errno or 0, "")


def port(text: str) -> int:
    """A TCP port number: 0 to 65535."""
    return whole(text, 0, "is not a port: use a whole number from 0 to 65535 (0 = any free)", most=65535)


def count(text: str) -> int:
    """A whole number, at least 0."""
    return whole(text, 0, "is not a count: use a whole number, 0 or more")


def positive(text: str) -> int:
    """A whole number, at least 1."""
    return whole(text, 1, "is not allowed here: use a whole number, 1 or more")


def whole(text: str, least: int, problem: str, most: float = math.inf) -> int:
    """A whole number from `least` to `most`; else `'text' problem` as argparse's usage error."""
    try:
        value = int(text)
    except ValueError:
        value = least - 1
    if not least <= value <= most:
        raise argparse.ArgumentTypeError(f"{text!r} {problem}")
    return value


def seconds(text: str) -> float:
    """A duration: a finite number of seconds, at least 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration: use a number of seconds, 0 or more")
    return value


def positive_seconds(text: str) -> float:
    """A time limit: a finite number of seconds, above 0 (0 would give up at once), at most
    `LONGEST_WAIT_S` (a socket given more raises OverflowError when it waits)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a time limit: use a number of seconds above 0, e.g. 10")
    if value > LONGEST_WAIT_S:
        raise argparse.ArgumentTypeError(
            f"{text!r} is too long a time limit: use at most {LONGEST_WAIT_S:,.0f} seconds (about 32 years)"
        )
    return value


LONGEST_WAIT_S = 1e9
"""The longest time limit taken (`toolkit.chat.client.LONGEST_SLEEP_S`): a socket waits at most
about 9.2e9 s (OverflowError: timestamp out of range for platform time_t)."""


def day(text: str) -> datetime.date:
    """A calendar day written yyyy-mm-dd (e.g. 2026-10-25; `toolkit.chat.days.read_day`: not an ISO week date)."""
    from toolkit.chat.days import misread, read_as, read_day

    try:
        return read_day(text)
    except ValueError:
        found = read_as(text)
        example = found[1].isoformat() if found else "2026-10-25"
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a day{misread(text)}: use yyyy-mm-dd, e.g. {example}"
        ) from None


def host(text: str) -> str:
    """A host name or address to listen on; blank is refused (it would mean every interface), and so is
    a name the socket cannot encode to look it up (`gw..example.com`, a right-to-left mark): it was
    "TypeError: encoding of hostname failed" when listening. An IPv6 address (a ':') is the socket's."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a host: give a name or address, e.g. 127.0.0.1 (a blank host listens on every interface)"
        )
    if ":" not in text:
        from toolkit.chat.client import host_problem  # here: building the parser for `--help` stays fast

        if problem := host_problem(text):
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a host {problem}; give a name or address, e.g. 127.0.0.1"
            )
    return text


def text_file(text: str) -> str:
    """An existing cases file of UTF-8 text, at most `toolkit.course.case_rows.MAX_CASES_BYTES` (read
    once to check). A pipe (`<(command)`, `/dev/stdin` fed
    by `|`) is not read here: it can be read only once, by the command."""
    _no_nul(text)
    try:
        mode = os.stat(text).st_mode
    except OSError as exc:
        if text == "-":  # as `--out -` is standard output; no file of that name is here
            raise argparse.ArgumentTypeError(
                "'-' is no file: to read the cases from standard input, give --cases /dev/stdin"
            ) from None
        raise argparse.ArgumentTypeError(f"{text!r} cannot be read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise argparse.ArgumentTypeError(f"{text!r} cannot be read: Is a directory")
    if not stat.S_ISREG(mode):
        return text
    from toolkit import files  # imported here: building the parser for `--help` stays fast
    from toolkit.course import case_rows

    try:
        files.read_text(
            text,
            case_rows.MAX_CASES_BYTES,
            where=repr(text),
            cap_name="toolkit.course.case_rows.MAX_CASES_BYTES",
            fix="split the cases into several files",
            error=argparse.ArgumentTypeError,
        )
    except UnicodeDecodeError as exc:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at position {exc.start}); save it as UTF-8"
        ) from None
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} cannot be read: {exc.strerror or exc}") from None
    return text


def _no_nul(text: str) -> None:
    """Refuse a path holding a NUL, which no file name can (the system calls raise a bare ValueError,
    which argparse words as "invalid out_file value")."""
    if "\x00" in text:
        raise argparse.ArgumentTypeError(
            f"{text!r} holds a NUL character (\\x00), which no file name can: give the name without it"
        )


def given_path(text: str) -> Path:
    """A path given on the command line (a file or folder to read, a folder to write), never blank:
    `Path("")` is `.`, so an unset shell variable (`toolkit grade "$SUBMISSIONS"`) would grade, or
    write into, the folder the command runs in. Only spaces is blank too, unless a file has that name."""
    _no_nul(text)
    if not text.strip() and not os.path.lexists(text):
        raise argparse.ArgumentTypeError(f"{text!r} is blank: give a path (an empty one would be the current folder)")
    return Path(text)


STDOUT = Path("-")
"""`--out -`: the command's standard output (`is_stdout`)."""


def out_file(text: str) -> Path:
    """A file to write: not blank, not a folder (nor a name ending in `/`), no file standing where a
    folder on its way must be, and one this user can really create (or open for writing) — tried
    here, leaving nothing behind.
    `-` is standard output (`STDOUT`), as for most command-line tools."""
    if text == "-":
        return STDOUT
    _no_nul(text)
    try:
        return _writable_out(text, Path(text))
    except OSError as exc:  # a name the system refuses to look at (too long: ENAMETOOLONG), said as the write's
        raise argparse.ArgumentTypeError(f"{text!r} cannot be written: {exc.strerror or exc}") from None


def _writable_out(text: str, path: Path) -> Path:
    """`out_file`'s checks, in order; an `OSError` from looking at the path passes through."""
    if not text.strip() or path.is_dir():
        raise argparse.ArgumentTypeError(
            f"{text!r} is {'blank' if not text.strip() else 'a folder'}: give a file name, e.g. out/results.csv"
        )
    if text.endswith(("/", os.sep)):  # `Path` drops the slash: `results/` would be written as a file `results`
        raise argparse.ArgumentTypeError(
            f"{text!r} ends in '/', so it names a folder, and there is no such folder: give a file name, e.g. "
            f"{text}results.csv"
        )
    blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise argparse.ArgumentTypeError(f"{text!r} cannot be written: {blocking} is a file, not a folder")
    try_writing(path)
    return path


def is_stdout(path: Path) -> bool:
    """Whether writing `path` writes this process's standard output: `-`, or the file stdout is
    (`/dev/stdout`, `/dev/fd/1`, or the very file stdout was redirected to). Opened a second time,
    such a file is emptied and written over from its start, under what stdout writes: a command
    writes it through stdout instead, and says the rest on stderr."""
    if path == STDOUT:
        return True
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):  # no such file yet, or no real file behind stdout
        return False


def held_otherwise(path: Path, fits: Callable[[list[str]], bool]) -> str:
    """What the file `path` names holds, said in a few words, when a command that replaces it whole with a CSV
    would lose it: its first row is not a header `fits` takes (an earlier run's CSV, which the command writes
    over on purpose). "" when it fits, is empty, or no regular file is there (none yet, stdout, a pipe).
    Before: `toolkit eval --out notes.txt`, or an `--out` that is a link to `/etc/passwd` in a run as root,
    replaced the file with the CSV."""
    try:
        head = None if path == STDOUT else first_line(path, _HEADER_BYTES)
    except OSError:  # not readable: `out_file` found it writable, and it is no earlier CSV this can tell
        head = b"\xff"
    text = (head or b"").decode("utf-8-sig", "replace").rstrip("\r")
    if not text.strip() or fits(next(csv.reader([text]), [])):
        return ""
    target = os.path.realpath(path)
    linked = f"the link names {target}; " if target != os.path.abspath(path) else ""
    return f"it holds something else ({linked}its first line is {cut(text, 40, '...')!r})"


_HEADER_BYTES = 4096
"""The bytes of a file's first line `held_otherwise` reads at most."""


def command_line(text: str) -> str:
    """A shell-quoted command line that splits (its quotes close) into at least a command; kept as text."""
    if "\x00" in text:  # the system call raised a bare "embedded null byte" when the server was started
        raise argparse.ArgumentTypeError(
            f"{text!r} holds a NUL character (\\x00), which no command line can: give the command without it"
        )
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not a command line: {str(exc).lower()}") from None
    if not words:
        raise argparse.ArgumentTypeError(
            f'{text!r} is not a command line: it names no command; give one, e.g. --mcp-stdio "python -m toolkit mcp-server"'
        )
    return text


def mcp_url(text: str) -> str:
    """A streamable-HTTP MCP endpoint, checked by `McpClient`'s own rule (`toolkit.mcp.client.url_problem`),
    said in its words, the URL's credentials masked: the flag took URLs the client then refused."""
    from toolkit.mcp.client import shown_url, url_problem

    if problem := url_problem(text):
        raise argparse.ArgumentTypeError(
            f"{shown_url(text)!r}: the URL{problem}; give the server's endpoint, e.g. http://127.0.0.1:8765/mcp "
            "(a command that starts a server is --mcp-stdio)"
        )
    return text


def base_url(text: str) -> str:
    """A gateway's base URL (`http_url`): the flag's own words, not `LLM_BASE_URL`'s."""
    return http_url(
        text,
        "give the gateway's base URL, e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1",
        "https://api.openai.com/v1",
    )


def api_key(text: str) -> str:
    """An API key that can go in an HTTP header once the spaces around it are dropped (as `connect` drops
    them): printable ASCII. A bad one is named by the character and its place, never shown."""
    key = text.strip()
    bad = next(((i, ch) for i, ch in enumerate(key) if not " " <= ch <= "~"), None)
    if bad is not None:
        raise argparse.ArgumentTypeError(
            f"the key has a character that cannot go in an HTTP header (U+{ord(bad[1]):04X} at position {bad[0] + 1} "
            f"of {len(key)}); API keys are printable ASCII: check it for a pasted quote or line break"
        )
    return text


def http_url(text: str, fix: str, example: str) -> str:
    """`text` as given if it is an http(s) URL with a host and a port from 1 to 65535; else the usage
    error saying so and `fix` (or `example`, for the port), the URL's credentials masked (`user:***@`,
    `?token=***`)."""
    import httpx

    from toolkit.chat.masking import mask_url

    try:
        parsed: httpx.URL | None = httpx.URL(text)
    except (httpx.InvalidURL, ValueError):
        parsed = None
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.host:
        raise argparse.ArgumentTypeError(f"{mask_url(text)!r} is not an http(s) URL with a host: {fix}")
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise argparse.ArgumentTypeError(
            f"{mask_url(text)!r} has port {parsed.port}: a port is 1 to 65535, e.g. {example}"
        )
    return text
