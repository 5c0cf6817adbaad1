"""Run the tool-selection accuracy suite against the configured gateway and write a CSV.

    toolkit eval [--cases FILE] [--out FILE.csv] [--concurrency N] [--protocol tools|prompt]
                 [--timeout SECONDS]

Exit 0 when the pass line is met, 1 when not, 2 when every case failed on the gateway (nothing was
measured: a wrong URL, key or model, a gateway that refuses `tools`), as `probe` has it. An `--out`
that names the `--cases` file is refused before anything runs (the results would overwrite the
cases), one line and exit 2; so is an `--out` holding something else than an earlier eval's results
(`held_otherwise`: notes named by mistake, a link to `/etc/passwd`), which the CSV would replace. Cases the gateway failed are named on stderr with its message; a
gateway that rejects the `tools` field gets the advice `--protocol prompt`. `--timeout` (default 30)
is how long each request waits on the gateway, to connect and for each piece of its reply: a local
model on a CPU may need more; a request that times out is retried, as any transient failure.
Ctrl-C stops at once (a request still waiting is abandoned) and keeps what finished: the CSV
holds every case, those not finished with the verdict `not_run`; the report covers the
finished ones, stderr names the others, and the exit status is 130. SIGTERM (`kill`, a CI job's time
limit) and SIGHUP (the terminal closed) stop it the same way, with exit status 143 and 129.
The CSV is written before the report is printed: a reader that leaves early (`| head -1`) loses
no results; a CSV that cannot be written (a full disk) still leaves the report, then one line saying
so, and exit status 2. `--out -` (or `/dev/stdout`, or the file stdout goes to) puts the CSV alone on stdout and
the report on stderr: `toolkit eval --out - > results.csv` holds only CSV.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from toolkit.cli.arguments import day, held_otherwise, is_stdout, out_file, positive, text_file
from toolkit.cli.grade import Terminated, signals_stop
from toolkit.cli.probe import add_gateway_arguments, client_from_args
from toolkit.errors import ConfigurationError

if TYPE_CHECKING:
    from toolkit.course.accuracy import CaseResult, SuiteInterrupted


EXIT_STATUS = (
    "0 when the pass line is met, 1 when not, 2 when every case failed on the gateway or the CSV could "
    "not be written; 143 after SIGTERM, 129 after SIGHUP (as Ctrl-C: the CSV holds the finished cases)"
)
"""What `--help` says of this command's exit status, before what every command shares
(`toolkit.cli.main.SHARED_EXIT_STATUS`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cases",
        type=text_file,
        default=None,
        help="default: the course's 25 cases (accuracy_cases.csv in the course data: data/ in a checkout, toolkit/data/ in an installed package)",
    )
    parser.add_argument("--out", type=out_file, default="out/w3-tool-accuracy.csv", help="default: %(default)s")
    parser.add_argument("--concurrency", type=positive, default=4, help="parallel cases (default: 4)")
    parser.add_argument(
        "--protocol",
        choices=("tools", "prompt"),
        default="tools",
        help="native tools, or the prompt-protocol fallback for C/D gateways",
    )
    parser.add_argument("--today", type=day, default=None, help="the shop's today (yyyy-mm-dd; default: today)")
    add_gateway_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from toolkit.chat.client import RetryPolicy
    from toolkit.chat.switch import FAKE_BASE_URL, REPLAY_BASE_URL
    from toolkit.course.accuracy import SuiteInterrupted, load_cases, run_suite, summarize
    from toolkit.course.shop import load_shop

    if args.cases is not None and os.path.realpath(args.cases) == os.path.realpath(args.out):
        raise ConfigurationError(
            f"eval --out {args.out}: that is the --cases file, and the results would overwrite it; give "
            "another file, e.g. --out out/w3-tool-accuracy.csv"
        )
    if held := held_otherwise(args.out, _results_header):
        raise ConfigurationError(
            f"eval --out {args.out}: {held}, not a results CSV an earlier eval wrote, and the CSV would replace it; give "
            "another file, e.g. --out out/w3-tool-accuracy.csv, or move that one away first"
        )
    cases, client = load_cases(args.cases), client_from_args(args, RetryPolicy())
    model: Any = client
    if args.protocol == "prompt":
        from toolkit.course.prompt_protocol import PromptProtocol

        model = PromptProtocol(client)
    report = sys.stderr if is_stdout(args.out) else sys.stdout  # stdout may be the CSV's: it gets the CSV alone
    print(f"running {len(cases)} case{'' if len(cases) == 1 else 's'} against {model.describe()}", file=report)
    real = client.base_url not in (FAKE_BASE_URL, REPLAY_BASE_URL)
    try:
        with signals_stop():  # SIGTERM, SIGHUP: a `Terminated`, which stops the suite as Ctrl-C does
            results = run_suite(
                model,
                cases,
                load_shop(today=args.today),
                concurrency=max(1, args.concurrency),
                progress=_progress(time.perf_counter()) if real else None,
            )
    except SuiteInterrupted as stopped:
        written = _written_then_reported(stopped.results, args.out, report)
        print(interrupted_line(stopped), file=sys.stderr)
        if not written:
            return 2
        signal = stopped.__cause__
        return 128 + signal.number if isinstance(signal, Terminated) else 130
    if not _written_then_reported(results, args.out, report):
        return 2
    for line in failure_lines(results, args.protocol, client.model):
        print(line, file=sys.stderr)
    if all(r.verdict == "error" for r in results):  # nothing measured: the gateway, not the model, failed
        return 2
    return 0 if summarize(results).meets_pass_line else 1


def _results_header(cells: list[str]) -> bool:
    """Whether `cells` are the header of an eval's CSV, this toolkit's or an earlier one's (`id` first, a `verdict`)."""
    return cells[:1] == ["id"] and "verdict" in cells


def _written_then_reported(results: list[CaseResult], out: Path, report: TextIO) -> bool:
    """Write the CSV, then print the report and where the CSV went; whether the CSV was written. The CSV
    comes first (stdout may be a closed pipe: a reader that left, `| head`, loses no results); one that
    cannot be written (a full disk) still leaves the report, and one line saying so, not an error alone."""
    from toolkit.course.accuracy import report_lines

    try:
        written = _write(results, out)
    except BrokenPipeError:  # the CSV's own stdout closed: `main` ends quietly
        raise
    except OSError as exc:
        print("\n".join(report_lines(results)), file=report)
        print(
            f"error: the CSV was not written to {out} ({exc.strerror or exc}): the results are only in the report "
            "above; make room or give another --out, then run again (a CSV there before is left as it was)",
            file=sys.stderr,
        )
        return False
    print("\n".join(report_lines(results)), file=report)
    print(f"wrote {written}", file=report)
    return True


def _write(results: list[CaseResult], out: Path) -> str:
    """Write the CSV to `out`, or through stdout when `out` is it (`is_stdout`); what was written, for the report."""
    from toolkit.course.accuracy import csv_text, write_csv

    if is_stdout(out):
        sys.stdout.write(csv_text(results))
        sys.stdout.flush()
        return "the CSV to stdout"
    return str(write_csv(results, out))


def interrupted_line(stopped: SuiteInterrupted) -> str:
    """What stderr says when Ctrl-C (or SIGTERM, SIGHUP) stopped the suite: how many finished, which were not run."""
    missing = [r.case.id for r in stopped.not_run]
    signal = stopped.__cause__
    how = f"stopped ({signal.name})" if isinstance(signal, Terminated) else "interrupted (Ctrl-C)"
    return (
        f"{how}: {len(stopped.finished)} of {len(stopped.results)} "
        f"case{'' if len(stopped.results) == 1 else 's'} finished; "
        f"not run: {', '.join(missing) or 'none'} (verdict not_run in the CSV)"
    )


def failure_lines(results: list[CaseResult], protocol: str, model: str = "") -> list[str]:
    """What stderr says when the gateway failed cases: how many, the first cause (`flat`: on the line, a
    control character or a bidi override in the gateway's text as its code point), what to try (the prompt
    protocol for a refused `tools` field, a longer --timeout for a timeout)."""
    from toolkit.views.html import flat

    failed = [r for r in results if r.verdict == "error"]
    if not failed:
        return []
    cases = f"case{'' if len(results) == 1 else 's'}"
    lines = [f"{len(failed)} of {len(results)} {cases} failed on the gateway: {flat(failed[0].error)}"]
    if protocol == "tools" and rejects_tools(failed[0].error, model):
        lines.append(
            "the gateway rejects the `tools` field: rerun with --protocol prompt (the prompt-protocol fallback)"
        )
    elif _TIMED_OUT.match(failed[0].error):
        lines.append(TIMED_OUT_ADVICE)
    return lines


_TIMED_OUT = re.compile(r"TransientError: request timed out \(\w+\) after ")
"""A case's error text for a request that waited out the client's timeout (`ChatClient`'s words)."""
TIMED_OUT_ADVICE = (
    "the gateway did not answer within --timeout: if it is slow rather than stuck (a local model on a CPU), "
    "rerun with a longer one, e.g. --timeout 120"
)


def rejects_tools(error: str, model: str = "") -> bool:
    """An error that refuses the tools field, by the probe's rule for verdict C
    (`toolkit.course.probe.rejects_tools`: a 400, OpenRouter's 404, llama.cpp's 500, ...); `error`
    is a case's `error` text, `ErrorType: HTTP 404: message — hint`."""
    from toolkit.course.probe import rejects_tools as refusal

    said = _HTTP_ERROR.match(error)
    return said is not None and refusal(int(said["status"]), said["message"], model)


_HTTP_ERROR = re.compile(r"\w+: HTTP (?P<status>\d{3})(?: \(transient\))?: (?P<message>.*?)(?: — .*)?$", re.S)
"""A case's error text for an HTTP error: its status and the gateway's message (the client's hint left out)."""


def _progress(start: float) -> Callable[[int, int, CaseResult], None]:
    def show(done: int, total: int, result: CaseResult) -> None:
        elapsed = time.perf_counter() - start
        print(f"[{done:>2}/{total}] {result.case.id} {result.verdict} ({elapsed:.1f}s)", file=sys.stderr, flush=True)

    return show
