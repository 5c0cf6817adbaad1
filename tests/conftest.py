"""Fixtures shared by test modules."""

from __future__ import annotations

import gc
import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("OMP_NUM_THREADS", "1")
"""One compute thread for torch (the `embeddings` extra's MiniLM) in each test process and the kernels it
starts: pytest-xdist already runs one worker per core, and torch's default of a thread per core in every
worker made them spin against each other (the full-MiniLM test: 43 s of CPU, 14 s with one thread). Read
when torch is imported, so it is set here, before any test imports it; a value already set is kept."""

UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("untimed", **UNTIMED)
settings.register_profile("deterministic", **UNTIMED, derandomize=True)
settings.load_profile("untimed")
# No property test is timed: Hypothesis's default deadline (200 ms an example) and its too-slow health
# check are timed assertions, and on two loaded cores an example of `test_the_sums_add_up` took longer
# and failed the run.
if os.environ.get("TOOLKIT_DETERMINISTIC_TESTS"):
    # CI (`.ci/run`): the same examples every run, so a rare case found at random cannot turn one
    # submission red and the next green. A run without it explores anew, as a developer's does.
    settings.load_profile("deterministic")


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as a terminal gives it, whoever started the suite: a shell without job control starts a
    background job (`pytest ... &` in a CI script) with SIGINT ignored, and its children inherit that.
    The tests that press Ctrl-C (in this process, or in a `toolkit` child) then saw nothing happen
    (no KeyboardInterrupt; the child ran to its 30 s timeout)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """What collection built (the test modules, toolkit and its libraries, ~800,000 objects a worker)
    moved out of the collector's sight (`gc.freeze()`) after each node is collected. Each full
    collection walked all of it again: 34 of them while collecting (9.4-10.6 s of CPU in each xdist
    worker, 1.7 s so) and every one a test's `gc.collect()` or the allocation counts start (0.45 s
    each, 10 us so). What a test makes is collected as before; what frees it is reference counting and
    the same collections over the objects made since, so a test of what the collector frees (a
    generator in a reference cycle) sees the same. The cost: a cycle left over from collection is
    never freed."""
    gc.freeze()


HEAVIEST_FIRST = (
    "tests/test_browser.py",
    "tests/test_exercises_grade.py",
    "tests/test_exercises_grade_fair.py",
    "tests/test_search_keyword.py",
    "tests/test_mcp.py",
    "tests/test_exercises_core_hostile.py",
    "tests/test_mcp_server_lines.py",
    "tests/test_embeddings.py",
    "tests/test_tools_cli.py",
    "tests/test_exercises_grade_isolation.py",
    "tests/test_fast_schema_properties.py",
    "tests/test_mcp_http_hostile.py",
    "tests/test_live.py",
    "tests/test_mcp_strangers.py",
    "tests/test_exercises_checkers_learners.py",
    "tests/test_cli_eval_paths.py",
    "tests/test_client_proxies.py",
    "tests/test_gateway_ascii_match.py",
    "notebooks/09_week9_mcp.ipynb",
    "tests/test_benchmarks_help.py",
    "tests/test_cli_main.py",
    "tests/test_exercises_grade_weeks.py",
    "tests/test_exercises_worker.py",
    "tests/test_loop_one_turn.py",
    "tests/test_exercises_answer_forms.py",
    "tests/test_eval_interrupt.py",
    "tests/test_mcp_interrupts.py",
    "tests/test_cli_mcp_server.py",
)
"""The test files that take longest, longest first (per-file sums of `--junitxml` times on 2 cores,
2026-12-06, forty-third session). With `--dist=loadfile --no-loadscope-reorder` (course.py) pytest-xdist hands files out in
collection order, which `pytest_collection_modifyitems` makes this order, then the rest as collected:
the long files start first, so none is left to one worker at the end while the others wait. A file
missing here, or one that grew, only costs that balance; refresh the list from a run's
`--junitxml` when the slowest files change."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each file of `HEAVIEST_FIRST` first, in its order, then the others as collected; a file's tests
    keep their own order (a stable sort on the file's rank)."""
    rank = {path: n for n, path in enumerate(HEAVIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


@pytest.fixture
def memory_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder in RAM where there is one (/dev/shm): a test's thousands of SQLite commits then
    cost no disk flush. The files are the same SQLite files."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(dir=shm, prefix="toolkit-test-") as folder:
        yield Path(folder)


@pytest.fixture
def deadline(request: pytest.FixtureRequest) -> Iterator[None]:
    """A watchdog, not a measure: code that should return in milliseconds raises `TimeoutError` after
    `seconds` (default 10; `@pytest.mark.parametrize("deadline", [30], indirect=True)` for another)
    instead of hanging the test run. SIGALRM: the main thread, on POSIX."""
    seconds = getattr(request, "param", 10)

    def stop(*_: object) -> None:
        raise TimeoutError(f"did not return within {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="session", autouse=True)
def generous_mcp_deadlines() -> Iterator[None]:
    """An MCP server has 120 s, not 10, to start and to list its tools in a test that does not give
    its own deadline: CI runs the suite with `-n 2` on two cores, and a stdio server's Python (the
    SDK's imports, toolkit's for the shop) took longer than 10 s to start there, so a test about
    something else failed as "cannot reach MCP server" or found the server left out. A test about
    these deadlines gives its own (`connect_timeout=…`, `list_timeout=…`); the library's defaults
    are unchanged. Session-wide, so a module's fixture that opens a client gets it too."""
    from toolkit.cli import tools as tools_command
    from toolkit.exercises import pristine
    from toolkit.mcp.client import McpClient
    from toolkit.mcp.provider import McpToolProvider

    with pytest.MonkeyPatch.context() as patch:
        for cls, keyword in ((McpClient, "connect_timeout"), (McpToolProvider, "list_timeout")):
            defaults = cls.__init__.__kwdefaults__
            assert defaults is not None and keyword in defaults, f"{cls.__name__}({keyword}=…) has no default"
            patch.setitem(defaults, keyword, 120.0)
        # `toolkit tools --mcp-stdio CMD` run in-process passes its own 10 s to both: a loaded CI worker took
        # longer to start `python -m toolkit mcp-server`, and a test of the strict rendering failed as
        # "cannot reach MCP server ... no answer within 10 s" (a test about --timeout gives its own)
        patch.setattr(tools_command, "MCP_TIMEOUT_S", 120.0)
        pristine.again()  # these are the package's defaults in this session: no check takes them for a learner's
        yield
    pristine.again()
