"""Run the argument-validation drill (lenient in, strict out): each raw argument string either
normalised or rejected with the model-facing message. Exit 0 when every case passes.

    toolkit drill [--cases FILE] [--today yyyy-mm-dd]
"""

from __future__ import annotations

import argparse

from toolkit.cli.arguments import day, text_file

EXIT_STATUS = "0 when every case passes, 1 when one fails"
"""What `--help` says of this command's exit status, before what every command shares
(`toolkit.cli.main.SHARED_EXIT_STATUS`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cases",
        type=text_file,
        default=None,
        help="default: the course's drill cases (drill_cases.csv in the course data: data/ in a checkout, toolkit/data/ in an installed package)",
    )
    parser.add_argument(
        "--today",
        type=day,
        default=None,
        help="the date an omitted asOf defaults to (yyyy-mm-dd; default: today)",
    )


def run(args: argparse.Namespace) -> int:
    from toolkit.chat.clock import session_today
    from toolkit.course.drill import load_cases, run_drill, summary_lines

    outcomes = run_drill(load_cases(args.cases), args.today or session_today())
    for outcome in outcomes:
        print(outcome.line())
    print("\n".join(summary_lines(outcomes)))
    return 0 if all(o.passed for o in outcomes) else 1
