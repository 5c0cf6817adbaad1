"""`toolkit` / `python -m toolkit`: one argparse program with a subcommand per tool.

Each subcommand lives in its own module of this package and has two functions:
`configure(parser)` adds its options, `run(args) -> int` does the work, importing the
mechanism it drives only then, so `--help` stays fast. `main()` turns every `ToolkitError` or
`OSError` that reaches it into one line on stderr and exit status 2, never a traceback; any
other exception too (its first line, and `TOOLKIT_DEBUG=1` shows the traceback). Ctrl-C is one
line and exit 130; a reader that closes the pipe early (`toolkit exercises | head -1`) ends the
command quietly with exit 141, as a shell tool does; a stdout closed from the start (`>&-`) that the
command meant to write to is one line and exit 2, as `ls >&-` is. A stdout whose encoding cannot write a
character (a C or latin-1 locale) writes it as a backslash escape (`toolkit.cli.streams`). A word of the
command line past `SHOWN_WORD` characters (a 1 MB paste) is shown by any error as its start and its length
(`words_cut`), not echoed whole.

Leaves out: shell completion.
"""

from __future__ import annotations

import argparse
import importlib
import os
import stat
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import Any, NoReturn

from toolkit import lazy_iri
from toolkit.cli.streams import DroppedOutput, tolerant_stdout
from toolkit.errors import ToolkitError
from toolkit.unicode import cut

DISTRIBUTION = "toolkit-course"
COMMANDS: dict[str, tuple[str, str]] = {
    "gateway": ("toolkit.cli.gateway", "run the fake keyword gateway over HTTP"),
    "tools": ("toolkit.cli.tools", "print the OpenAI tool specs of @tool functions or of MCP servers"),
    "probe": ("toolkit.cli.probe", "classify a gateway's tool support (A-E) from one raw exchange"),
    "drill": ("toolkit.cli.drill", "run the argument-validation drill (lenient in, strict out)"),
    "eval": ("toolkit.cli.eval", "run the tool-selection accuracy suite and write a CSV"),
    "mcp-server": ("toolkit.cli.mcp_server", "serve the week-3 e-commerce tools over MCP (stdio or HTTP)"),
    "notebooks": ("toolkit.cli.notebooks", "execute course notebooks in a fresh kernel and store them clean"),
    "exercises": ("toolkit.cli.exercises", "list the exercises; write the notebooks with solutions filled in"),
    "grade": ("toolkit.cli.grade", "run submitted notebooks and write one CSV row per exercise"),
}
"""Subcommand → (module, one-line help)."""


def version() -> str:
    """The installed distribution's version (from package metadata)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage error also names a word of the command line that starts with `-` and
    is a path there (`grade -sub.ipynb`): argparse read it as an option, and said only "the following
    arguments are required" or "expected one argument"."""

    def __init__(self, *args: Any, words: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.words = list(words)

    def error(self, message: str) -> NoReturn:
        super().error(words_cut(message + dash_path_hint(self.words), self.words))


class Paragraphs(argparse.HelpFormatter):
    """argparse's help, each paragraph of a description or epilog (text between blank lines) wrapped on its own:
    a command's examples and its exit statuses stay apart."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n\n".join(super(Paragraphs, self)._fill_text(part, width, indent) for part in text.split("\n\n"))


SHOWN_WORD = 200
"""How many characters of a word of the command line an error shows (`words_cut`); past it, its length."""
SHOWN_ERROR = 4000
"""How many characters of an error's text are shown at most (`words_cut`)."""


def words_cut(text: str, words: Sequence[str]) -> str:
    """`text` with each of `words` (the command line) longer than `SHOWN_WORD` shown as its start and its
    length, and each word's line breaks, NULs and escape sequences as escapes (`_escaped`), the whole cut to
    `SHOWN_ERROR` characters: a 1 MB argument (a paste gone wrong) was echoed whole in its error, a megabyte
    of stderr; with line breaks in it, thousands of lines for one mistake."""
    for word in {w for w in words if len(w) > SHOWN_WORD or not w.isprintable()}:
        if word in text:
            start = _escaped(cut(word, SHOWN_WORD, ""))
            text = text.replace(word, start if len(word) <= SHOWN_WORD else f"{start}… ({len(word):,} characters)")
    if len(text) > SHOWN_ERROR:
        text = f"{cut(text, SHOWN_ERROR, '')}… ({len(text):,} characters in all)"
    return text


def _escaped(word: str) -> str:
    """`word` with each character a terminal would not print as itself (a line break, a NUL, an escape
    sequence's ESC) written as Python writes it: a word of the command line stays on its error's line."""
    if word.isprintable():
        return word
    return "".join(c if c.isprintable() or "\ud800" <= c <= "\udfff" else repr(c)[1:-1] for c in word)


def dash_path_hint(words: Sequence[str]) -> str:
    """How to give the first of `words` that starts with `-` and is a path here ("" when none is)."""
    path = next((w for w in words if w.startswith("-") and w != "-" and os.path.lexists(w)), None)
    if path is None:
        return ""
    return f" ({path!r} is a path here: write it ./{path}, as a word that starts with '-' is read as an option)"


def build_parser(
    prog: str = "toolkit", command: str | None = None, words: Sequence[str] = ()
) -> argparse.ArgumentParser:
    """The program; `command`'s subparser gets all its options (the others only their name and help,
    so running one subcommand imports nothing of the others). `words`, the command line, is for the
    usage error's hint (`Parser`)."""
    parser = Parser(
        prog=prog, description="toolkit: the course's command-line tools for LLM tool calling.", words=words
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")  # its parsers are Parser too
    for name, (module, about) in COMMANDS.items():
        child = sub.add_parser(name, help=about, description=about, formatter_class=Paragraphs)
        child.words = parser.words
        if name == command:
            configured = importlib.import_module(module)
            child.description = (configured.__doc__ or about).split("\n\n")[0].strip()
            status = f"exit status: {configured.EXIT_STATUS}; {SHARED_EXIT_STATUS}"
            examples = getattr(configured, "EXAMPLES", "")  # a command's examples, when it has some: a paragraph
            child.epilog = f"examples: {examples}\n\n{status}" if examples else status
            configured.configure(child)
            child.set_defaults(run=configured.run)
    return parser


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Parse, run, and answer any error with one readable line (exit 2). Parsing is inside too (an
    argument check can wait on a FIFO or read a large file: Ctrl-C there is the same one line), and
    so is the flush of stdout (`--help | :` meets the closed pipe there, not in the interpreter's
    last flush, which would print its own "Exception ignored" and exit 120)."""
    if argv is None:  # this process's own command line: jsonschema's IRI grammar built only if an IRI is checked
        lazy_iri.defer()
    argv = list(sys.argv[1:] if argv is None else argv)
    tolerant_stdout()  # a terminal that cannot show Chinese gets escapes, not a UnicodeEncodeError half way
    closed = sys.stdout is None  # started with stdout closed (`>&-`)
    if closed:
        sys.stdout = DroppedOutput()
    long = [word for word in argv if len(word) > SHOWN_WORD]
    stderr = sys.stderr
    if long and stderr is not None:  # what any command says of such a word, shown shortened (`words_cut`)
        sys.stderr = WordsCut(stderr, long)
    try:
        return _run_and_flush(argv, prog or _prog())
    finally:
        if closed:
            sys.stdout = None
        if sys.stderr is not stderr and isinstance(sys.stderr, WordsCut):
            sys.stderr = stderr


class WordsCut:
    """A stream that writes to `stream` each text with the long `words` of the command line in it shortened
    (`words_cut`): set as stderr while a command line holding such a word runs, so that every command's error
    (one of its own, argparse's) shows a start of it, not a megabyte."""

    def __init__(self, stream: Any, words: Sequence[str]) -> None:
        self.stream = stream
        self.words = words

    def write(self, text: str) -> int:
        return self.stream.write(words_cut(text, self.words) if len(text) > SHOWN_WORD else text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _run_and_flush(argv: list[str], prog: str) -> int:
    try:
        try:
            return _parse_and_run(argv, prog)
        finally:  # argparse's SystemExit (--help, --version, a usage error) flushes here too
            _flush_stdout()
    except BrokenPipeError as exc:
        if not _stdout_is_a_pipe():
            print(f"error: {shown(str(exc))}", file=sys.stderr)
            return 2
        _silence_stdout()
        return 141
    except (ToolkitError, OSError) as exc:
        print(f"error: {shown(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        return 130
    except Exception as exc:  # a defect, or input nothing above foresaw: still one line
        if os.environ.get(DEBUG_VARIABLE):
            raise
        print(
            f"error: {type(exc).__name__}: {shown(_first_line(exc))} (set {DEBUG_VARIABLE}=1 for the traceback)",
            file=sys.stderr,
        )
        return 2


def shown(text: str) -> str:
    """`text` with every character a terminal would not print as itself, but a line break, escaped as
    Python writes it (`\\x1b`, `\\r`, `\\u2028`): a file name holding an escape sequence is shown, not run
    by the terminal (a title set, a line overwritten). Line breaks stay: some errors are a diff on
    purpose (a cassette's nearest recording). Printable text (Chinese too) is left as it is, and so are
    surrogates: a name's bytes read in a C locale, which stderr writes back as they came (`streams`)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\n" or "\ud800" <= c <= "\udfff" else repr(c)[1:-1] for c in text)


def command_of(argv: Sequence[str]) -> str | None:
    """The subcommand a command line runs: its first word that names one."""
    return next((a for a in argv if a in COMMANDS), None)


def _parse_and_run(argv: list[str], prog: str) -> int:
    parser = build_parser(prog, command_of(argv), argv)
    if not argv:
        parser.print_help(sys.stderr)
        return 2
    args = parser.parse_args(argv)
    return int(args.run(args) or 0)


SHARED_EXIT_STATUS = (
    "a mistake is one line on stderr and 2; 130 after Ctrl-C; 141 when what reads stdout stopped early (e.g. head)."
)
"""The exit statuses every command has (`main`), which each `--help` ends with after its own `EXIT_STATUS`."""
CLOSED_STDOUT = (
    "stdout is closed (>&-), so the command's output was dropped (files it writes are written); "
    "give it an open stdout, or >/dev/null to drop the output on purpose"
)
DEBUG_VARIABLE = "TOOLKIT_DEBUG"
INTERRUPTED = "interrupted (Ctrl-C): stopped"
"""What stderr says when Ctrl-C stopped a command (exit status 130)."""


def _first_line(exc: BaseException) -> str:
    """The first line of an exception nothing foresaw, its secrets masked (`redact.scrub_secrets`: it
    may quote a URL's password or a header; the paths it names are kept), cut at 300 characters."""
    from toolkit.tools.redact import scrub_secrets  # imported where used: starting the command stays fast

    try:
        text = str(exc)
    except Exception:  # an exception whose message itself fails
        return "(no message)"
    lines = text.strip().splitlines()
    return (scrub_secrets(lines[0])[:300] if lines else "") or "(no message)"


def _stdout_is_a_pipe() -> bool:
    try:
        return stat.S_ISFIFO(os.fstat(sys.stdout.fileno()).st_mode)
    except (OSError, ValueError):  # no real file behind stdout (a test's capture)
        return False


def _flush_stdout() -> None:
    """Flush stdout; output it cannot take (a full disk) is said once and then dropped, so the
    interpreter's last flush does not fail on it again."""
    if isinstance(sys.stdout, DroppedOutput):  # started with stdout closed (`>&-`)
        if sys.stdout.dropped and sys.exc_info()[0] in (None, SystemExit):  # else that error is the one to say
            raise OSError(CLOSED_STDOUT)
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError:
        _silence_stdout()
        raise


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush finds no closed pipe to complain about."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _prog() -> str:
    return "python -m toolkit" if sys.argv and sys.argv[0].endswith("__main__.py") else "toolkit"
