"""Exercises checked in the notebook: `check(id, answer)`, `hint(id)`, `solution(id)`.

An exercise is data: an id (`w6.truth_table`), its week, its kind (predict, write, fix,
build), a one-line task, the starter and solution code of its notebook cell, a hint, and a
checker. The checker receives the learner's answer and returns a `Verdict`; it runs the
learner's code against the package's own function on many inputs, or compares the learner's
prediction with what the package really does — never the text of the code.

`check()` turns that into a `CheckResult` a notebook shows (✓ / ✗ / "not attempted yet"):

- an answer still holding the starter's placeholder `...` (anywhere in a list, dict or
  tuple, or returned by a function) is *not attempted*: no exception, no hint; so is the other
  "not written yet" marker a learner may put there, `NotImplemented` (an answer, or returned)
  or `raise NotImplementedError` in their function (that class itself: a subclass, such as the error
  of `input()` where no one can answer, is their code failing);
- `check(id)` without an answer, or `check(answer, id)` the other way round, is a one-line
  error saying how to call it;
- a check that runs the learner's function, given anything else (a number, what a call of the
  function returned), is a failed try that says so — "answer with a function …, not 3" — as a
  wrong kind of answer is everywhere, not a crash;
- a failed try shows the checker's feedback (specific to the mistake) and the hint; a wrong
  prediction is told which part is wrong and, where the checker knows it, the misconception —
  never the value it should have been (else any first try, then the value read off the
  feedback, would pass);
- an exception in the learner's code (any `BaseException`: `exit()`, a class of their own) or
  raised by their answer inside a check is a failed try that names it, never a traceback; only
  Ctrl-C (`KeyboardInterrupt`) stops the cell;
- a check still running after `CHECK_LIMIT_S` seconds (or the fewer that `toolkit grade` sets in
  `TOOLKIT_CHECK_LIMIT_S`, to stop it before the cell's own limit) is
  stopped and is a failed try saying so: the notebook does not hang, and the cells after it run
  when a teacher grades it (seconds the learner's code had, `clock.Stopwatch`: not those a loaded
  host kept it waiting for a CPU; a SIGALRM timer, in the main thread, unless another one is running: a
  SIGALRM handler a learner's cell left behind, its alarm cancelled, is set aside and put back),
  even when the learner's code catches the stop (a bare `except:` in a retry loop): each line of
  theirs raises it again after the limit;
- an answer (or a value the learner's function returns) holding an instance of a learner's class
  whose `==` is not object's identity (its own `__eq__`, or one inherited from `UserList`, …) is a
  failed try: the checks compare with `==`, and such an object could claim to equal anything; a
  subclass of str, int, float, tuple, list, dict, set or frozenset that writes no `==` of its own (a
  `StrEnum`, an `IntEnum`, a `namedtuple`, `class OrderId(str): pass`) is the value it holds, read by
  its base's own code (`values.plain`);
- numpy's scalars and arrays and a pandas Series in an answer (or in what the learner's function
  returns) are read as the plain values they hold (`plain`): `np.int64(2)` is the number 2,
  `np.True_` is True, an array is a list, a Series the dict of its labels;
- an answer (or what the learner's function returns) holding more than `VALUES_LIMIT` values is a
  failed try saying so at once (`oversized` counts by lengths): reading it all would outlast the time
  limit, and the feedback would then blame a loop in code that ran in a blink;
- a build exercise's function that hands the work to the package's own implementation (the very
  function the check compares with, reached by any path: an import, a method, a class that runs
  it) is a failed try saying so (`own_work`): the exercise is to write the rule, and comparing the
  package with itself proves nothing;
- a build exercise's function that changes a value the check gave it (empties the terms, pops a key of the
  body, cuts the conversation in place) is a failed try saying what it changed (`left_as_given`), whatever it
  returned: its caller still holds that value (the keyword search scores every tool with one list of terms);
- no check runs on a package that code in the kernel has changed since `toolkit.exercises` was imported
  (`pristine`: a constant replaced, `toolkit.loop.run.COURSE = ...`, a function or a method, a pydantic
  model's default, a function's code): it would compare the answer with the changed package, which may
  agree with a wrong one (a learner "installing" their `returns_now` as
  `toolkit.loop.returns.should_return_immediately`, their code only compared with itself). The check says
  what was changed and to restart the kernel; so does one in which the learner's code changed the package,
  whatever the checker said (`reference` also refuses a build exercise's reference replaced before that);
- feedback quotes a value by its repr, or by what it is ("a function named helper") when the
  repr holds a memory address: the same answer always reads the same, in the notebook and in
  the grade report; a secret in it (a key pasted as the answer, or in what the learner's code
  raised) is masked first (`toolkit.tools.redact.scrub_secrets`: paths stay, a path may be the
  answer), so neither shows or saves it;
- a check runs with Python's default recursion limit at least (`RECURSION_FLOOR`), the kernel's own put back after:
  a cell that lowered it (`sys.setrecursionlimit(80)`) made every answer "contain itself";
- the kernel's working directory is the same after a check as before it: a learner's function
  that changes it (into the check's temporary folder, deleted at its end) does not break the
  relative paths of the cells after it;
- `check()` called from another thread than the kernel's main one (`asyncio.to_thread(check, ...)`, a thread of
  the learner's, a callback run on a thread of its own) is refused at once, in one line saying how to call it
  (`OFF_MAIN_THREAD`), where SIGALRM's time limit exists: it rings only in the main thread, so nothing could stop
  the learner's code there if it never ended, and the notebook (or the grader) would wait for ever;
- `solution(id)` shows the reference cell only when asked.

Each result also carries a JSON line (`application/vnd.toolkit.exercise+json`) that
`toolkit grade` reads from the executed notebook.

What a ✓ is worth. In the notebook a result shows as a box (its HTML, coloured by the verdict): a plain
`print("✓ w6.window: correct")` is a line of text without the box, so the view tells them apart; a cell that
displays HTML of its own can draw the box too, and in a text-only view the two read the same. What counts is
what `toolkit grade` records: under it each record check() makes is sealed with that run's key
(`toolkit.exercises.seal`), and a record the notebook's own code displays, copies or builds (a `CheckResult` of its
own, a `check` it defined, `LAST` filled by hand) has no such seal and is graded "not counted"; a check whose own
code the kernel changed (`core._check`, a week's checker, an exercise in the registry: `checks_changes`) fails
saying so, sealed.

Leaves out: storing progress between sessions (a result lives in the notebook's outputs), and
any defence against a learner set on faking a ✓: their code shares the kernel with the checks, so code that
digs the run's key out of the kernel's memory, plants a class in a trusted module under its name or changes a
container of the package in place can still pass — by code the teacher reads in the notebook.
"""

from __future__ import annotations

import difflib
import html
import inspect
import itertools
import json
import logging
import re
import signal
import threading
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from toolkit.errors import RecordError, a_or_an
from toolkit.exercises import clock, seal
from toolkit.exercises.values import (
    ADDRESS,
    VALUES_LIMIT,
    oversized,
    plain,
    show,
    untrusted_class,
    untrusted_text,
)
from toolkit.tools.redact import scrub_secrets
from toolkit.unicode import cut
from toolkit.views.html import ACTING, NO_MATH

MIME = "application/vnd.toolkit.exercise+json"
KINDS = {
    "predict": "predict, then run",
    "write": "write it",
    "fix": "fix it",
    "build": "build it yourself, then compare",
}
NOT_ATTEMPTED = "not attempted"


class NotAttempted(Exception):
    """The answer still holds the starter's placeholder."""


class LearnerError(Exception):
    """The learner's code raised while a checker ran it."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(describe(error))
        self.error = error


class Untrusted(Exception):
    """The answer holds an object whose class decides `==` by its own code."""


class TooSlow(BaseException):
    """The check ran past `CHECK_LIMIT_S` (raised by the timer wherever the code then was)."""


class AsyncAnswer(Exception):
    """The learner's function is `async def`: what it returned is a coroutine that never ran."""


class Replaced(Exception):
    """A checker's reference is no longer the package's own: code in the kernel replaced it."""


class Borrowed(Exception):
    """The learner's function of a build exercise ran the package's own implementation of it."""


class TooBig(Exception):
    """The answer (or what the learner's function returned) holds more values than any answer needs."""


class ChangedInput(Exception):
    """The learner's function changed a value the check gave it (a list emptied, a key popped)."""


class NotAFunction(Exception):
    """A check that runs the learner's function was given something else (a number, a call's result)."""


@dataclass(frozen=True)
class Verdict:
    """A checker's answer: passed or not, and why."""

    passed: bool
    feedback: str = ""


def right(feedback: str = "") -> Verdict:
    return Verdict(True, feedback)


def wrong(feedback: str) -> Verdict:
    return Verdict(False, feedback)


@dataclass(frozen=True)
class Exercise:
    """One exercise: what to do, the code of its cell, and how it is checked."""

    id: str
    week: int
    kind: str
    task: str
    starter: str
    solution: str
    hint: str
    checker: Callable[[Any], Verdict]

    @property
    def kind_text(self) -> str:
        """The kind of the exercise in words, as the exercise list shows it."""
        return KINDS[self.kind]


@dataclass(frozen=True)
class CheckResult:
    """What `check()` shows: status, feedback, and the hint after a failed try."""

    id: str
    status: str
    """`passed`, `failed` or `not attempted`."""
    feedback: str
    hint: str = ""
    seal: str = field(default="", repr=False, compare=False)
    """Under `toolkit grade`, what tells the grade check() made this result in its run (`toolkit.exercises.seal`)."""
    undoes_pass: bool = field(default=False, repr=False, compare=False)
    """Whether this failed result replaced a pass of the same exercise in this kernel (`REPLACES_PASS`): the last
    check() of an exercise is the one `toolkit grade` counts."""

    @property
    def passed(self) -> bool:
        """Whether the answer was right."""
        return self.status == "passed"

    def record(self) -> dict[str, Any]:
        """The result as the notebook stores it for grading: exercise id, status, passed, feedback (and the
        seal, when `toolkit grade` runs the notebook)."""
        record = {"exercise": self.id, "status": self.status, "passed": self.passed, "feedback": self.feedback}
        return {**record, "seal": self.seal} if self.seal else record

    def text(self) -> str:
        """The result as plain text: the mark, the verdict, then the feedback and hint when there are."""
        mark = {"passed": "✓", "failed": "✗"}.get(self.status, "·")
        head = f"{mark} {self.id}: " + {
            "passed": "correct",
            "failed": "not yet",
            NOT_ATTEMPTED: "not attempted yet — replace the `...` and run the cell again",
        }.get(self.status, self.status)
        lines = [head]
        if self.feedback:
            lines.append("  " + self.feedback)
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        if self.status == "failed":
            lines.append(f'  (stuck? solution("{self.id}") shows one answer)')
        if self.undoes_pass:
            lines.append("  " + REPLACES_PASS.format(id=self.id))
        return "\n".join(lines)

    def html(self) -> str:
        """The result as the notebook shows it: `text()` in a box coloured by the verdict."""
        colour = {"passed": "#1a7f37", "failed": "#cf222e"}.get(self.status, "#57606a")
        body = html.escape(self.text()).replace("\n", "<br>")
        return (
            f'<div class="toolkit-exercise {NO_MATH}" style="border-left:4px solid {colour};padding:4px 10px;'
            f'font-family:var(--jp-code-font-family,monospace);white-space:pre-wrap">{body}</div>'
        )

    def _repr_mimebundle_(self, **_: Any) -> dict[str, Any]:
        return {"text/plain": self.text(), "text/html": self.html(), MIME: self.record()}

    def __repr__(self) -> str:
        return self.text()


class SolutionText:
    """A reference solution, shown as code."""

    def __init__(self, exercise: Exercise) -> None:
        self.exercise = exercise

    def text(self) -> str:
        """The solution as code, under a comment naming the exercise."""
        return f"# one solution of {self.exercise.id}\n{self.exercise.solution.rstrip()}"

    def _repr_mimebundle_(self, **_: Any) -> dict[str, str]:
        return {"text/plain": self.text(), "text/html": f"<pre>{html.escape(self.text())}</pre>"}

    def __repr__(self) -> str:
        return self.text()


_REGISTRY: dict[str, Exercise] = {}
_AS_REGISTERED: dict[str, tuple[Exercise, Any]] = {}
"""Each exercise as registered, with its checker's code: what a graded check compares the registry with."""
REPLACES_PASS = (
    "this replaces the ✓ {id} had earlier in this kernel: the last check() of an exercise is the one graded, "
    "so run the right answer last (or remove this try)"
)
"""Shown under a failed result that follows a pass of the same exercise (a second try below a solved cell): in the
notebook both marks show, and `toolkit grade`, running the notebook top to bottom, counts the last."""
LAST: dict[str, CheckResult] = {}
"""The latest result of each exercise checked in this process (tests read it; `toolkit grade`'s last cell
shows them): a "not attempted" one (the starter cell left below a solved copy) does not replace a tried answer's."""


def register(exercise: Exercise) -> Exercise:
    """Add an exercise; a duplicate id or an unknown kind is a developer error."""
    from toolkit.errors import ConfigurationError

    if exercise.id in _REGISTRY:
        raise ConfigurationError(f"register(): exercise id {exercise.id!r} is taken; give each exercise its own id.")
    if exercise.kind not in KINDS:
        raise ConfigurationError(
            f"register(): exercise {exercise.id!r} has kind {exercise.kind!r}; use one of {', '.join(KINDS)}."
        )
    _REGISTRY[exercise.id] = exercise
    _AS_REGISTERED[exercise.id] = (exercise, getattr(exercise.checker, "__code__", None))
    return exercise


def exercise(
    id: str, week: int, kind: str, task: str, *, starter: str, solution: str, hint: str
) -> Callable[[Callable[[Any], Verdict]], Callable[[Any], Verdict]]:
    """Decorator form of `register` for a checker function."""

    def wrap(checker: Callable[[Any], Verdict]) -> Callable[[Any], Verdict]:
        register(Exercise(id, week, kind, task, _dedent(starter), _dedent(solution), hint, checker))
        return checker

    return wrap


def _dedent(code: str) -> str:
    import textwrap

    return textwrap.dedent(code).strip("\n") + "\n"


def all_exercises() -> list[Exercise]:
    """Every exercise, by week then in the order registered."""
    from toolkit.exercises import catalog

    catalog.load()
    return sorted(_REGISTRY.values(), key=lambda e: e.week)


def get(exercise_id: str) -> Exercise:
    """The exercise with this id; an unknown id says which exist."""
    from toolkit.errors import ConfigurationError

    all_exercises()
    if not isinstance(exercise_id, str):
        raise ConfigurationError(
            f"no exercise {exercise_id!r}: an exercise id is a string such as 'w6.truth_table' (see the cell's check call)"
        )
    try:
        return _REGISTRY[exercise_id]
    except KeyError:
        raise ConfigurationError(_unknown_id_text(exercise_id)) from None


def _unknown_id_text(exercise_id: str) -> str:
    """No such exercise: the nearest id (a typo, another case, spaces), then the week's ids."""
    key = exercise_id.strip().casefold()
    folded = {i.casefold(): i for i in _REGISTRY}
    close = folded.get(key) or next(iter(difflib.get_close_matches(key, folded, n=1, cutoff=0.75)), None)
    nearest = folded[close] if close in folded else close
    week = key.split(".")[0]
    near = [i for i in _REGISTRY if i.split(".")[0] == week]
    if not near and nearest:
        near = [i for i in _REGISTRY if i.split(".")[0] == nearest.split(".")[0]]
    text = f"no exercise {exercise_id!r}" + (f" (did you mean {nearest!r}?)" if nearest else "")
    if near:
        return text + f"; this week's are: {', '.join(near)}"
    return text + f"; ids look like 'w6.truth_table': the weeks are w0 to w{max(e.week for e in _REGISTRY.values())}"


def has_placeholder(value: Any) -> bool:
    """True when `...` (or `NotImplemented`) is still somewhere in the answer (a list, tuple, set or dict)."""
    if value is Ellipsis or value is NotImplemented:
        return True
    if isinstance(value, Mapping):
        return any(has_placeholder(k) or has_placeholder(v) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(has_placeholder(v) for v in value)
    return False


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call the learner's function; a `...` it returns means "not attempted yet"."""
    value = call_learner(fn, *args, **kwargs)
    if oversized(value):
        raise TooBig(
            f"your function returned {a_or_an(type(value).__name__)} holding more than {VALUES_LIMIT:,} values; "
            "no answer here needs that many: return only what the task asks"
        )
    with _holding_itself(value):
        value = plain(value)
        placeholder, cls = has_placeholder(value), untrusted_class(value)
    if placeholder:
        raise NotAttempted
    if cls is not None:
        raise Untrusted(f"your function returned {untrusted_text(cls)}; return plain values or the package's objects")
    return value


@contextmanager
def _holding_itself(returned: Any) -> Iterator[None]:
    """`TooBig` when reading what the learner's function returned recurses without end (a list that holds
    itself): said of what it returned, not of "your answer", which is the function."""
    try:
        yield
    except RecursionError:
        raise TooBig(
            f"your function returned {a_or_an(type(returned).__name__)} that contains itself (or is nested "
            "thousands deep); return plain values"
        ) from None


def reference(module: str, *path: str) -> Any:
    """The package's `module.path…` (a function, or a method through its class) for a checker to
    compare with; `Replaced` when what is there now was written outside the package — the learner's
    code replaced it in this kernel, and comparing with it would compare their code with itself."""
    import importlib

    value: Any = importlib.import_module(module)
    for name in path:
        value = getattr(value, name)
    function = getattr(value, "__func__", value)  # a classmethod read from its class
    if str(getattr(function, "__module__", None) or "").split(".")[0] != "toolkit":
        name = ".".join((module, *path))
        raise Replaced(
            f"{name} is not the package's any more: code in this kernel replaced it with {show(value)}, "
            "so there is nothing to compare your answer with — restart the kernel and run the cells again"
        )
    return value


@contextmanager
def own_work(implementation: Any, about: str = "", *, helpers: tuple[Any, ...] = ()) -> Iterator[None]:
    """The learner's code run inside must not run `implementation` — the package's function (or
    method) the check compares with, a tuple of them (the function and the private helper that holds its rule, which a
    learner may import as well: `_count` beside `TokenUsage.from_openai`), or a module: any function of it — else
    `Borrowed` at the end, naming the one that ran,
    whatever the learner's code did with it (an exception it raised there, caught by the learner's
    own `except`, is seen too). `about` says what that is, after its name. `helpers` are functions of
    such a module that compute none of what the check compares (`clean_terms`, which the keyword score
    takes for granted): a learner may call them, and what runs inside them is not counted.

    Watched with a profile function (`sys.setprofile`) in the checking thread and in each thread started
    while it runs (`threading.setprofile`), and only where none is set (a profiler or a debugger keeps its
    own, and the check then does not watch). Code that turns the watch off (sets either profile function
    to another, or None) is `Borrowed` too: the check can no longer say it did not run the reference. A
    thread that was running before the check (a pool the learner made in an earlier cell) is not watched:
    Python 3.11 has no way to set its profile function."""
    import sys
    import types

    if isinstance(implementation, types.ModuleType):
        codes: frozenset[Any] = frozenset()
        files = frozenset({str(getattr(implementation, "__file__", None))})
        name, others = implementation.__name__, {}
    else:
        given = implementation if isinstance(implementation, tuple) else (implementation,)
        functions: list[Any] = [getattr(each, "__func__", each) for each in given]
        codes, files = frozenset(function.__code__ for function in functions), frozenset()
        name = functions[0].__qualname__
        others = {function.__code__: f"{function.__module__}.{function.__qualname__}" for function in functions[1:]}
    usable = sys.getprofile() is None and threading.getprofile() is None
    over = False
    ran: list[Any] = []
    allowed = frozenset(getattr(helper, "__func__", helper).__code__ for helper in helpers)
    label = f"{name} ({about})" if about else name

    def borrowed_text(code: Any = None) -> str:
        """What the learner is told, naming the watched function `code` is (the first one given when it is none)."""
        own = others.get(code, label)
        return (
            f"your code ran the package's own {own}, which this check compares with: build it yourself "
            "(write the rule in your function), then the check compares yours with it"
        )

    def entered(frame: Any) -> Any:
        """The code by which the learner's code entered the module: the outermost of the frames in it."""
        while frame.f_back is not None and frame.f_back.f_code.co_filename in files:
            frame = frame.f_back
        return frame.f_code

    def watch(frame: Any, event: str, arg: Any) -> None:
        if over:  # a thread started in the check and still running after it: no more watching there
            sys.setprofile(None)
            return
        if event == "call" and (frame.f_code in codes or frame.f_code.co_filename in files):
            if allowed and entered(frame) in allowed:
                return
            ran.append(frame.f_code)
            sys.setprofile(None)  # seen once is enough: the rest runs at full speed

    if usable:
        sys.setprofile(watch)
        threading.setprofile(watch)  # a thread the learner's code starts is watched too
    _WATCHED.append((codes, borrowed_text))
    turned_off = False
    try:
        yield
    finally:
        _WATCHED.pop()
        if usable:
            turned_off = not ran and (sys.getprofile() is not watch or threading.getprofile() is not watch)
        over = True
        if usable:
            sys.setprofile(None)
            threading.setprofile(None)
    if ran:
        raise Borrowed(borrowed_text(ran[0]))
    if turned_off:
        raise Borrowed(
            "your code turned off the check's watch (sys.setprofile or threading.setprofile), so the check cannot "
            f"see whether it ran the package's own {label}, which it compares with: leave the profiler as it is "
            "and write the rule in your function"
        )


_WATCHED: list[tuple[frozenset[Any], Callable[[Any], str]]] = []
"""The functions `own_work` watches now, each with what to say: `call_learner` refuses one given as the answer
itself (`RetryPolicy.wait` from its class, which fails to be called before the watch could see it run)."""


def _refuse_borrowed(fn: Any) -> None:
    """`Borrowed` when `fn` is a function `own_work` is watching (or a method of it)."""
    target = fn.__func__ if isinstance(fn, types.MethodType) else fn  # no learner's __getattr__ is asked
    for codes, borrowed in _WATCHED:
        if isinstance(target, types.FunctionType) and target.__code__ in codes:
            raise Borrowed(borrowed(target.__code__))


def call_learner(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call the learner's function; whatever it raises (but Ctrl-C) becomes a `LearnerError`."""
    if not callable(fn):  # the answer is the wrong kind of thing: say so as any check does, not as a crash
        raise NotAFunction(f"answer with a function (its name, without calling it), not {show(fn)}")
    _refuse_borrowed(fn)
    try:
        value = fn(*args, **kwargs)
    except (KeyboardInterrupt, TooSlow):  # Ctrl-C stops the cell, as everywhere else; the limit stops the check
        raise
    except BaseException as error:  # exit() or a BaseException of the learner's own is a failed try too
        if type(error) is NotImplementedError:  # the learner's "not written yet", like the starter's `...`; not
            raise NotAttempted from None  # a subclass (IPython's StdinNotImplementedError: input() in `toolkit grade`)
        raise LearnerError(error) from error
    if inspect.iscoroutine(value):  # close it: no "never awaited" warning under the cell
        value.close()
        raise AsyncAnswer("your function is `async def`: it returned a coroutine that never ran; write it with `def`")
    return value


def left_as_given(call: str, name: str, given: Any, passed: Any, why: str, shown: Callable[[Any], str] = show) -> None:
    """`ChangedInput` when `passed` — the copy of `given` that the learner's function `call` got as its argument
    `name` — is no longer equal to `given`: the function changed what it was given (`terms.pop()`,
    `body.pop("usage")`, `messages[:] = kept`). Whatever it returned, its caller still holds that value (the
    keyword search scores every tool with one list of terms), so it is wrong; `why` says who reads it again.
    A copy the function makes and changes, or a change it undoes before returning, is no change."""
    if given == passed:
        return
    before, after = shown(given), shown(passed)
    how = f": {before} became {after}" if before != after else " (inside its items)"
    raise ChangedInput(
        f"{call} changed the {name} it was given{how} — {why}; leave what your "
        "function is given as it was (change a copy of your own)"
    )


def items_of(value: Any, most: int) -> list[Any]:
    """The items of an iterable the learner's function returned, at most `most` + 1 of them: a
    generator that never ends is cut there, one that raises is the learner's error, and the items
    are checked like an answer (placeholder, classes with their own `==`). A str or a mapping is
    not a list of items: `TypeError`."""
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise TypeError(f"expected a list, got {show(value)}")
    read = call_learner(lambda: list(itertools.islice(value, most + 1)))
    with _holding_itself(value):
        items = [plain(item) for item in read]
        placeholder, cls = has_placeholder(items), untrusted_class(items)
    if placeholder:
        raise NotAttempted
    if cls is not None:
        raise Untrusted(f"your function returned {untrusted_text(cls)}; return plain values or the package's objects")
    return items


def answers_first(
    cases: Iterable[Any], run: Callable[[Any], Any], settled: Callable[[Any], bool] | None = None
) -> list[tuple[Any, Any]]:
    """Each case with what `run` (the learner's code on it) gave, for every case before the checker computes
    any expected value: while the learner's code runs, no expected answer is in a frame below it
    (`sys._getframe`, `inspect.stack()`) nor among the objects alive (`gc.get_objects()`) to be copied. The
    first case it raised on ends the list, with that `LearnerError` as what it gave; so does the first answer
    `settled` says the checker fails whatever the case (None where a number or a list is asked: a function that
    prints its answer), so a learner's `print` runs once, not once for each of hundreds of cases."""
    given: list[tuple[Any, Any]] = []
    for case in cases:
        try:
            given.append((case, got := run(case)))
        except LearnerError as error:
            given.append((case, error))
            break
        if settled is not None and settled(got):
            break
    return given


_MISSING: Any = object()


def check(exercise_id: str, answer: Any = _MISSING) -> CheckResult:
    """Check an answer: ✓, ✗ with feedback and a hint, or "not attempted yet"."""
    from toolkit.errors import ConfigurationError

    with _deep_enough():  # a kernel whose recursion limit a cell lowered
        all_exercises()
        if (
            isinstance(answer, str)
            and answer in _REGISTRY
            and not (isinstance(exercise_id, str) and exercise_id in _REGISTRY)
        ):
            raise ConfigurationError(
                f"check() takes the exercise id first, then your answer: check({answer!r}, {show(exercise_id)})"
            )
        ex = get(exercise_id)
        if answer is _MISSING:
            raise ConfigurationError(f"check({ex.id!r}) needs your answer too: check({ex.id!r}, answer)")
        if threading.current_thread() is not threading.main_thread() and hasattr(signal, "setitimer"):
            raise ConfigurationError(
                OFF_MAIN_THREAD.format(id=ex.id, thread=cut(repr(threading.current_thread().name), 60))
            )
        result = _check(ex, answer)
        if seal.armed():
            result = _sealed(result, ex)
        if result.status != NOT_ATTEMPTED or ex.id not in LAST or LAST[ex.id].status == NOT_ATTEMPTED:
            if result.status == "failed" and ex.id in LAST and LAST[ex.id].passed:
                result = replace(result, undoes_pass=True)
            LAST[ex.id] = result
        return result


RECURSION_FLOOR = 1000
"""The recursion limit a check runs with at least: Python's default. A cell that lowered the kernel's
(`sys.setrecursionlimit(80)`, trying recursion out) made every check, right answers too, say "your answer contains
itself (or is nested thousands deep)": the checks' own calls went past it."""


@contextmanager
def _deep_enough() -> Iterator[None]:
    """The kernel's recursion limit raised to `RECURSION_FLOOR` while a check runs, when a cell set it lower, and put
    back after (left at the floor when the kernel is too deep by then to take its own back: Python refuses it)."""
    import sys

    before = sys.getrecursionlimit()
    if before >= RECURSION_FLOOR:
        yield
        return
    sys.setrecursionlimit(RECURSION_FLOOR)
    try:
        yield
    finally:
        try:
            sys.setrecursionlimit(before)
        except RecursionError:
            pass


OFF_MAIN_THREAD = (
    "check({id!r}, ...) was called from the thread {thread}, and runs only in the kernel's main thread: its time "
    "limit (a SIGALRM timer) rings only there, so code of yours that never ended could not be stopped here; call "
    "check({id!r}, answer) in a cell, not in a thread (asyncio.to_thread, a thread of your own)"
)
"""The refusal of a check called from another thread than the main one (`check`); nothing of the answer ran."""


CHECKS_CHANGED = (
    "code in this kernel changed the checks: {where} is not the course's own any more, so this result could "
    "not be trusted — restart the kernel and run the cells again, leaving the checks as they are"
)


def _sealed(result: CheckResult, ex: Exercise) -> CheckResult:
    """Under `toolkit grade`: the result sealed (`toolkit.exercises.seal`), or, when code in the kernel changed the
    checks themselves (a checker, `core._check`, an exercise in the registry), a failed one saying so, sealed."""
    if found := checks_changes():
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        result = CheckResult(ex.id, "failed", CHECKS_CHANGED.format(where=found[0] + more), ex.hint)
    return replace(result, seal=seal.seal(result.id, result.status, result.passed, result.feedback))


def checks_changes() -> list[str]:
    """Where the checks' own modules (`pristine.checks_changes`), then the registry (an exercise replaced, its
    checker's code changed, one added or taken out), differ from what was imported and registered:
    `toolkit.exercises.core._check`, `toolkit.exercises.core._REGISTRY['w0.switch']`."""
    from toolkit.exercises import pristine

    registry = []
    for ex_id in sorted(_REGISTRY.keys() | _AS_REGISTERED.keys()):
        exercise, code = _AS_REGISTERED.get(ex_id, (None, None))
        now = _REGISTRY.get(ex_id)
        if now is None or now is not exercise or getattr(now.checker, "__code__", None) is not code:
            registry.append(f"{__name__}._REGISTRY[{ex_id!r}]")
    return pristine.checks_changes() + registry  # the modules' first: they name the very function changed


def _check(ex: Exercise, answer: Any) -> CheckResult:
    limit = check_limit()
    try:
        if oversized(answer):
            raise TooBig(
                f"your answer holds more than {VALUES_LIMIT:,} values; no answer here needs that many: "
                "answer with only what the task asks"
            )
        answer = plain(answer)
        if has_placeholder(answer):
            return CheckResult(ex.id, NOT_ATTEMPTED, f"task: {ex.task}")
        if (cls := untrusted_class(answer)) is not None:
            raise Untrusted(
                f"your answer holds {untrusted_text(cls)}; answer with plain values or the package's objects"
            )
        verdict = _checked(ex, answer, limit)
    except NotAttempted:
        return CheckResult(ex.id, NOT_ATTEMPTED, f"task: {ex.task}")
    except (Untrusted, Replaced, AsyncAnswer, NotAFunction, Borrowed, TooBig, ChangedInput) as error:
        verdict = wrong(str(error))
    except LearnerError as error:  # the learner's code raised: a failed try, never a traceback
        verdict = wrong(f"your code raised {error}")
    except RecursionError:  # a list that contains itself, or nesting no answer needs
        verdict = wrong("your answer contains itself (or is nested thousands deep); answer with plain values")
    except TooSlow:
        verdict = wrong(
            f"the check was stopped after {limit:g} s: does your code loop forever, or wait for something "
            "that never comes?"
        )
    except KeyboardInterrupt:  # Ctrl-C stops the cell, as everywhere else
        raise
    except BaseException as error:  # the answer made the package (or the check) fail: say so, no traceback
        verdict = wrong(_no_memory(error) or f"running your answer failed with {describe(error)}")
    feedback = _shortened(scrub_secrets(verdict.feedback))  # it may quote a key the learner answered with, or raised
    if verdict.passed:
        return CheckResult(ex.id, "passed", feedback)
    return CheckResult(ex.id, "failed", feedback, ex.hint)


def _checked(ex: Exercise, answer: Any, limit: float) -> Verdict:
    """The checker's verdict, run only on the package as it was imported, and `Replaced` instead of what the
    checker said (or raised) when the learner's code changed the package while it ran."""
    _unchanged("")
    try:
        with _quiet(), _same_directory(), _time_limit(limit):
            verdict = ex.checker(answer)
    except KeyboardInterrupt:
        raise
    except BaseException:
        _unchanged(" while the check ran")
        raise
    _unchanged(" while the check ran")
    return verdict


def _unchanged(when: str) -> None:
    """`Replaced` when code in the kernel has changed the package since it was imported (`pristine.changes`):
    the check would compare the learner's answer with the changed package, which may agree with a wrong one."""
    from toolkit.exercises import pristine

    if found := pristine.changes():
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        kind = pristine.kind(found[0])
        if kind != "package":  # Python's own `abs`, `json.dumps`: what the check and the package compute with
            what, them, are = (
                ("builtins", "them", "they are") if kind == pristine.BUILTINS else ("standard library", "it", "it is")
            )
            raise Replaced(
                f"code in this kernel changed Python's {what}{when}: {found[0]}{more} is not Python's own any "
                f"more, and the check computes with {them} — restart the kernel and run the cells again, leaving the "
                f"{what} as {are}"
            )
        raise Replaced(
            f"code in this kernel changed the package{when}: {found[0]}{more} is not the package's own any more, "
            "and the check compares your answer with the package as it was imported — restart the kernel and run "
            "the cells again, leaving the package as it is"
        )


CHECK_LIMIT_S = 30
"""Seconds one check may run; the slowest checker needs about 2."""
LIMIT_VARIABLE = "TOOLKIT_CHECK_LIMIT_S"


def check_limit() -> float:
    """`CHECK_LIMIT_S`, or fewer seconds when `TOOLKIT_CHECK_LIMIT_S` holds a smaller positive number."""
    import math
    import os

    try:
        wanted = float(os.environ.get(LIMIT_VARIABLE, ""))
    except ValueError:
        return CHECK_LIMIT_S
    return min(CHECK_LIMIT_S, wanted) if math.isfinite(wanted) and wanted > 0 else CHECK_LIMIT_S


AGAIN_S = 0.2
"""After the limit, how often the timer fires again while the learner's code still runs."""
EARLY_S = 0.01
"""A timer that rings with more than this left of the limit (by the seconds the code had, `clock.Stopwatch`) rang
early (the learner's own alarm, or a loaded host's wait for a CPU): it is set again for the time left."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise `TooSlow` in the main thread after `seconds`: a SIGALRM timer, set only where it can
    be (a Unix main thread) and where no other timer is running (`_free_alarm`). A handler some code
    installed for SIGALRM (a learner's own timeout in week 2, its alarm cancelled) is put back after.

    Code that catches it (a bare `except:` in a retry loop) is stopped too: from then on every
    line of the learner's code (below the check, outside the package, the standard library and the
    installed packages) raises it again (a trace function), and the timer fires again every
    `AGAIN_S` while such code is running; the package's own code, cleaning up after the learner's,
    is left to finish.

    Code that takes the timer away inside the check (`signal.alarm(0)`, a SIGALRM handler or `SIG_IGN` of its
    own) is stopped by a second guard (`_backstop`, a thread), which raises `TooSlow` in the main thread from
    then on; an alarm of the learner's own that rings before the limit is not taken for it (the timer is set
    again for the time left)."""
    import sys

    previous = _free_alarm()
    if previous is None:
        yield
        return
    fired: list[bool] = []
    tracing = sys.gettrace()
    watch = clock.this_thread(clock.CHECK_FORGIVES_S)  # the seconds the code had, not a loaded host's wait

    def again(frame: Any, event: str, arg: Any) -> Any:
        if not _is_learners(frame):
            return None
        if event in ("call", "line"):
            raise TooSlow
        return again

    def stop(signum: int, frame: Any) -> None:
        if not fired and (left := seconds - watch.elapsed()) > EARLY_S:  # early: the learner's own alarm, or a
            signal.setitimer(signal.ITIMER_REAL, left, AGAIN_S)  # loaded host that kept the code waiting for a CPU
            return
        first, learners = not fired, []
        fired.append(True)
        while frame is not None and frame.f_code is not _check.__code__:  # the frames below the check
            if _is_learners(frame):
                learners.append(frame)
            frame = frame.f_back
        if learners:
            sys.settrace(again)
            for each in learners:
                each.f_trace = again
        if first or learners:
            raise TooSlow

    signal.signal(signal.SIGALRM, stop)
    guard = _backstop(seconds, stop, watch)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds, AGAIN_S)  # in the `try`: a limit so short that it is
        yield  # reached as the timer is armed is cleaned up too
    finally:
        while True:  # the limit reached as the check ended: its `TooSlow` here would skip the clean-up
            try:
                guard.end()
                _disarm(bool(fired), tracing, previous)
                break
            except TooSlow:  # the check had finished: it is not stopped, and the clean-up is done again
                continue


class _backstop:
    """The limit's second guard: a thread that, from `seconds` + `AGAIN_S` on (counted by `watch`, the main
    thread's `clock.Stopwatch`) and every `AGAIN_S` after, raises `TooSlow` in the main thread
    (`PyThreadState_SetAsyncExc`) while the check runs and SIGALRM is no longer `handler`'s with its timer
    running — code in the check took them away. It lands at the next line of Python the main thread runs (not
    inside a blocking call, which only the signal interrupts). `end` stops it."""

    def __init__(self, seconds: float, handler: Any, watch: clock.Stopwatch) -> None:
        self.done, self.lock, self.main = threading.Event(), threading.Lock(), threading.get_ident()
        self.handler, self.watch = handler, watch
        threading.Thread(target=self._guard, args=(seconds,), daemon=True, name="toolkit-check-limit").start()

    def _guard(self, seconds: float) -> None:
        wait = seconds + AGAIN_S
        while not self.done.wait(wait):
            if (left := seconds + AGAIN_S - self.watch.elapsed()) > 0:  # a loaded host: the code has not had it yet
                wait = left
                continue
            with self.lock:
                if not self.done.is_set() and not self._timer_stands():
                    _raise_in(self.main, TooSlow)
            wait = AGAIN_S

    def _timer_stands(self) -> bool:
        return signal.getsignal(signal.SIGALRM) is self.handler and signal.getitimer(signal.ITIMER_REAL)[0] > 0

    def end(self) -> None:
        with self.lock:  # a raise the guard sent before lands at the next call here (`_time_limit` catches it there)
            self.done.set()


def _raise_in(thread: int, error: type[BaseException]) -> None:
    """Raise `error` in the thread `thread` at its next line of Python. (Never "withdraw" one with NULL: on 3.11
    that leaves the interpreter asking for pending work at every line, a signal handler re-entered without end.)"""
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(error))


def _free_alarm() -> Any:
    """SIGALRM's handler when the limit may take the signal over, else None: a Unix main thread, and the
    default handler or (no timer running) one that code in the kernel installed and left (a learner's
    cell that timed its own calls and cancelled its alarm: without the limit, an endless loop after it
    hung the notebook, and when graded stopped every exercise after it). A handler set outside Python
    (None), or one whose timer is running, is not the limit's to take."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return None
    handler = signal.getsignal(signal.SIGALRM)
    if handler == signal.SIG_DFL or (handler is not None and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)):
        return handler
    return None


def _disarm(fired: bool, tracing: Any, previous: Any = signal.SIG_DFL) -> None:
    """Stop the limit's timer and give SIGALRM the handler it had before, `previous`; when the timer
    `fired` (it may have set its trace function), the trace function there was before, `tracing`."""
    import sys

    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)
    if fired:
        sys.settrace(tracing)


def _not_learners() -> tuple[str, ...]:
    import os
    import sysconfig

    folders = {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}  # …/toolkit
    folders |= {sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    return (*sorted(os.path.join(f, "") for f in folders if f), "<frozen ")


_NOT_LEARNERS = _not_learners()
"""Where code is not the learner's: the package, the standard library, installed packages."""


def _is_learners(frame: Any) -> bool:
    return not str(frame.f_code.co_filename).startswith(_NOT_LEARNERS)


@contextmanager
def _same_directory() -> Iterator[None]:
    """The kernel's working directory as it was before the check: a learner's function that changes
    it (`os.chdir(root)` in make_skill) would otherwise leave the kernel in the check's temporary
    folder — deleted when the check ends, so every relative path in the cells after it fails."""
    import os

    try:
        before = os.getcwd()
    except OSError:  # already gone before the check: nothing to go back to
        yield
        return
    try:
        yield
    finally:
        try:
            os.chdir(before)
        except OSError:  # the learner's code deleted it: stay where it left the kernel
            pass


@contextmanager
def _quiet() -> Iterator[None]:
    """The package's warnings silenced while a checker runs the real thing (a hand-over, a skipped
    symlink): they are the check's own runs, not the learner's; a checker says what matters."""
    logger = logging.getLogger("toolkit")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


_UNSHOWABLE = re.compile(rf"[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]|{ACTING.pattern}")
"""A lone surrogate (a learner's message can hold one; sending it to the notebook fails), a control
character other than a tab: a line break too, as feedback is one line (a learner's error of several lines
broke out of the result's block), or another character that acts instead of being seen
(`toolkit.views.html.ACTING`: a right-to-left override read the feedback after it backwards)."""
FEEDBACK_LIMIT = 600
"""Feedback longer than this is cut (an answer's repr inside it can be any size)."""


def _shortened(text: str) -> str:
    """Feedback on one line without memory addresses (the grade report must not change between runs), with
    any character the kernel cannot send, a terminal would act on, or that breaks the line written as its
    escape, cut to the limit."""
    text = _UNSHOWABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), ADDRESS.sub("", text))
    return cut(text, FEEDBACK_LIMIT)


def _no_memory(error: BaseException) -> str:
    """What a check that found no memory left says (a MemoryError outside the learner's code, or no thread for its
    time limit): the kernel is full — under `toolkit grade`'s memory limit, a cell before kept a large value — not
    that the answer failed; "" for any other error."""
    if not isinstance(error, MemoryError) and not (
        isinstance(error, RuntimeError) and "can't start new thread" in str(error)
    ):
        return ""
    return (
        f"the check could not run ({describe(error)}): the kernel is out of memory — does a cell before this one keep "
        "a large value? Restart the kernel and run the cells again"
    )


def describe(error: BaseException) -> str:
    """`Type: message` of an exception, even one whose message itself fails or is huge; a pydantic
    `ValidationError` in one line (`Model: field: what is wrong; …`), without its input echoes and link."""
    try:
        message = _validation_line(error) or str(error)
    except KeyboardInterrupt:
        raise
    except BaseException:
        message = "(its message could not be shown)"
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def _validation_line(error: BaseException) -> str | None:
    """A pydantic `ValidationError` as one line, or None for any other exception."""
    from pydantic import ValidationError

    if not isinstance(error, ValidationError) or isinstance(error, RecordError):  # a RecordError's text is one line
        return None
    problems = [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" if e["loc"] else e["msg"] for e in error.errors()]
    return f"{error.title}: " + "; ".join(problems)


def hint(exercise_id: str) -> str:
    """The hint, on request."""
    return get(exercise_id).hint


def solution(exercise_id: str) -> SolutionText:
    """One reference solution — only when asked for."""
    return SolutionText(get(exercise_id))


def parse_record(data: Any) -> dict[str, Any] | None:
    """A check record from a notebook output's data (dict or JSON text), else None."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError:
            return None
    if isinstance(data, dict) and "exercise" in data and "status" in data:
        return data
    return None
