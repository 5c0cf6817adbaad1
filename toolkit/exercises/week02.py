"""Week 2 exercises: the backoff schedule, the three-way triage, Retry-After, a cut stream, timeouts.

An answer or a returned value that should be a number must be an int or a float — not a bool
(True is not 1 here) and not a string of digits. The timeout check runs the slow fault on the
in-process gateway with an injected `sleep`, so a 1-second timeout costs no real time.

Leaves out: timeouts of a stream between two chunks (the same read timeout; the notebook says so).
"""

from __future__ import annotations

import re
from typing import Any

from toolkit.exercises.answers import (
    as_list,
    counted,
    dict_answer_problem,
    made_a_list,
    misses,
    number_problem,
    one_of,
    printed,
    verdict_of,
)
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import (
    LearnerError,
    Verdict,
    answers_first,
    attempt,
    exercise,
    own_work,
    reference,
    right,
    wrong,
)
from toolkit.exercises.values import is_number, show


@exercise(
    "w2.backoff",
    2,
    "build",
    "write wait(attempt, retry_after) — seconds before the next attempt — and compare it with RetryPolicy().wait",
    starter="""
        from toolkit.exercises import check

        BACKOFF_S, MAX_BACKOFF_S, MAX_RETRY_AFTER_S = 0.5, 8.0, 30.0   # RetryPolicy's defaults


        def wait(attempt, retry_after):
            # attempt counts from 1; retry_after is the server's Retry-After in seconds, or None
            return ...


        check("w2.backoff", wait)
        """,
    solution="""
        from toolkit.exercises import check

        BACKOFF_S, MAX_BACKOFF_S, MAX_RETRY_AFTER_S = 0.5, 8.0, 30.0   # RetryPolicy's defaults


        def wait(attempt, retry_after):
            backoff = min(MAX_BACKOFF_S, BACKOFF_S * 2 ** (attempt - 1))
            if retry_after is None:
                return backoff
            return min(MAX_RETRY_AFTER_S, max(backoff, retry_after))


        check("w2.backoff", wait)
        """,
    hint="double from 0.5 s and cap at 8 s; a Retry-After is honoured but never shortens the backoff, "
    "and is capped at 30 s.",
)
def check_backoff(fn: Any) -> Verdict:
    from toolkit.chat.client import RetryPolicy

    rule = reference("toolkit.chat.client", "RetryPolicy", "wait")
    policy = RetryPolicy()
    cases = [(n, r) for n in range(1, 10) for r in (None, 0.0, 0.2, 1.0, 3.0, 7.5, 29.0, 45.0, 120.0)]
    cap = policy.max_retry_after_s

    def run(case: tuple[int, float | None]) -> Any:
        with own_work(rule):
            return attempt(fn, *case)

    for (n, r), got in answers_first(cases, run, settled=lambda got: got is None):  # never a number
        want = policy.wait(n, r)
        beyond = ""  # the week's text says the client raises here: say what wait() does instead
        if r is not None and r > cap:
            beyond = (
                f" — a Retry-After beyond {cap} s is capped at it: the retry loop raises before it asks, "
                "and wait() answers for callers that plan their own waits"
            )
        if isinstance(got, LearnerError):  # said with the call it failed on
            return wrong(f"wait({n}, {r}) raised {got}{beyond}")
        if not is_number(got):
            return wrong(
                f"wait({n}, {r}) returned {show(got)}; return the seconds as a number (an int or a float){beyond}"
                + ("" if beyond else printed(got))  # beyond the cap, a None is the refusal the week's text tells of
            )
        returned = show(got)  # as the function returned it: -1, not the -1.0 compared
        try:
            got = float(got)  # a Decimal or a Fraction as well
        except OverflowError:
            return wrong(
                f"wait({n}, {r}) returned {returned}, more than a float holds; return the seconds as a number "
                "(an int or a float)"
            )
        if not abs(got - want) <= 1e-9:  # written so that NaN is a miss, not a match
            if _varies(fn, n, r, got, rule):  # jitter: no number quoted, as it is another on each run
                return wrong(
                    f"wait({n}, {r}) gave another wait each time it was called with the same arguments: "
                    "RetryPolicy().wait keeps no state and adds no jitter — the same attempt and Retry-After always "
                    "wait the same (a count kept in a global changes between calls; so does a random number)"
                )
            why = ""
            if abs(got - want * 1000) <= 1e-6:  # want is never 0: the backoff starts at 0.5 s
                why = " — that is milliseconds: wait() returns seconds, as retry_after is given in"
            elif r is None and n == 1 and abs(got - 1.0) < 1e-9:
                why = " — the first attempt waits the base backoff itself; it doubles from the second attempt on"
            elif r is None and got > policy.max_backoff_s:
                why = f" — the backoff is capped at {policy.max_backoff_s} s"
            elif beyond and got > cap:
                why = f" — a Retry-After is honoured up to {cap} s, no longer"
            elif beyond:
                why = beyond
            elif r is not None and got < want and abs(got - r) < 1e-9:
                why = " — Retry-After never makes the wait shorter than the backoff: take the larger"
            elif r is not None and abs(got - policy.wait(n, None)) < 1e-9:
                why = " — you ignored the server's Retry-After"
            return wrong(f"wait({n}, {r}) returned {returned}, RetryPolicy().wait gives {want!r}{why}")
    return right(f"identical to RetryPolicy().wait on {len(cases)} inputs.")


def _varies(fn: Any, n: int, r: float | None, got: float, rule: Any) -> bool:
    """Whether the learner's wait() gives another wait when called again with the same arguments (jitter).
    A NaN is no wait to compare: never said to vary."""
    if got != got:
        return False
    for _ in range(3):
        try:
            with own_work(rule):
                again = attempt(fn, n, r)
            if not is_number(again) or float(again) != got:
                return is_number(again)
        except (LearnerError, OverflowError):
            return False
    return False


CASES = {
    "HTTP 429 (rate limited)": ("rate_limit", "A"),
    "HTTP 500 (server error)": ("server_error", "A"),
    "HTTP 400 (mode C rejects tools)": (None, "C"),
    "a body cut in half": ("truncate", "A"),
}
CHOICES = ("retried", "not retried", "bad response")


def triage(fault: str | None, mode: str) -> str:
    from toolkit.chat.client import RetryPolicy
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.switch import fake_client
    from toolkit.course.probe import PROBE_TOOLS, QUESTION
    from toolkit.errors import BadResponseError, CallerError, TransientError
    from toolkit.gateway.server import Gateway

    gateway = Gateway(mode=mode, faults=[fault] if fault else [])
    client = fake_client(gateway=gateway, retry=RetryPolicy(max_retries=1), sleep=lambda s: None)
    try:
        client.chat([UserMessage(content=QUESTION)], tools=PROBE_TOOLS)
    except BadResponseError:
        return "bad response"
    except CallerError:
        return "not retried"
    except TransientError:
        return "retried"
    return "retried" if len(client.exchanges) > 1 else "not retried"


@answer_exercise(
    "w2.triage",
    "sort four failures into 'retried', 'not retried' and 'bad response'",
    answer={
        "HTTP 429 (rate limited)": "retried",
        "HTTP 500 (server error)": "retried",
        "HTTP 400 (mode C rejects tools)": "not retried",
        "a body cut in half": "bad response",
    },
    comment='"retried", "not retried" or "bad response"',
    column=45,
    hint="a retry helps only when the same request can succeed later; a 4xx says the request itself is wrong.",
)
def check_triage(answer: Any) -> Verdict:
    if problem := dict_answer_problem(answer, CASES, CHOICES):
        return problem
    actual = {case: triage(fault, mode) for case, (fault, mode) in CASES.items()}
    found = misses(answer, actual, lambda case, said, real: f"{case}: the client's outcome is not {show(said)}")
    return verdict_of(
        found, "timeouts, 429 and 5xx are transient; other 4xx are the caller's; a broken body is a bad response."
    )


@answer_exercise(
    "w2.waits",
    "the gateway answers 429 twice with Retry-After: 2, then answers: which waits (in seconds) does the client make?",
    answer=[2.0, 2.0],
    comment="the list of waits, e.g. [0.5, 1.0]",
    hint="each wait is the larger of the backoff (0.5 s, then 1 s) and the server's Retry-After.",
)
def check_waits(answer: Any) -> Verdict:
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.switch import fake_client
    from toolkit.gateway.core import GatewayConfig
    from toolkit.gateway.server import Gateway

    waits: list[float] = []
    gateway = Gateway(config=GatewayConfig(retry_after_s=2), faults=["rate_limit", "rate_limit"])
    fake_client(gateway=gateway, sleep=waits.append).chat([UserMessage(content="你好")])
    listed = as_list(answer)
    if listed is None or not all(is_number(x) for x in listed):
        return wrong(f"answer with a list of numbers (ints or floats), e.g. [0.5, 1.0]{made_a_list(answer)}")
    answer = listed
    if (seconds := _floats(answer)) is None:
        return wrong("a wait in your list is larger than any float: answer with the seconds waited, e.g. [0.5, 1.0]")
    if seconds == waits:
        return right(f"waited {waits}: Retry-After (2 s) is longer than the backoff, so it wins both times.")
    if seconds == [0.5, 1.0]:
        return wrong("that is the backoff alone; the 429s carried Retry-After: 2, and the client honours it")
    if len(answer) != len(waits):
        count = f"{len(answer)} wait{'' if len(answer) == 1 else 's'}"
        return wrong(f"your list has {count}; the client waits once before each retry: how many are there?")
    if seconds == [wait * 1000 for wait in waits]:
        return wrong(
            f"{show(answer)} counts milliseconds; the client's waits (the backoff, Retry-After) are seconds: answer "
            "in seconds"
        )
    return _backoff_alone(answer, seconds, waits) or wrong(f"the client did not wait {show(answer)}")


def _backoff_alone(answer: list[Any], seconds: list[float], waits: list[float]) -> Verdict | None:
    """The ✗ for a list in which one wait, not the client's, is the backoff alone (`[0.5, 2]`: Retry-After honoured
    on one 429 and not the other); None when none is."""
    from toolkit.chat.client import RetryPolicy

    for n, (said, waited) in enumerate(zip(seconds, waits, strict=True), 1):
        if said != waited and said == RetryPolicy().wait(n, None):
            return wrong(
                f"your wait {n}, {show(answer[n - 1])} s, is the backoff alone; that 429 carried Retry-After: 2 too, "
                "and the client honours it"
            )
    return None


def _floats(numbers: list[Any]) -> list[float] | None:
    """The numbers as floats, or None when one is too large for a float (10**400 seconds)."""
    try:
        return [float(x) for x in numbers]
    except OverflowError:
        return None


@answer_exercise(
    "w2.truncated",
    "a streamed reply with a tool call is cut before [DONE]: how many tool calls reach your code?",
    answer=0,
    comment="a number",
    hint="a ToolCallDelta is a fragment; only a whole response (StreamDone) is executed.",
)
def check_truncated(answer: Any) -> Verdict:
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.sse import StreamDone, ToolCallDelta
    from toolkit.chat.switch import fake_client
    from toolkit.course.probe import PROBE_TOOLS, QUESTION
    from toolkit.errors import TruncatedStreamError
    from toolkit.gateway.server import Gateway

    executed: list[Any] = []
    fragments = 0
    client = fake_client(gateway=Gateway(faults=["truncate"]))
    try:
        for event in client.stream([UserMessage(content=QUESTION)], tools=PROBE_TOOLS):
            fragments += isinstance(event, ToolCallDelta)
            if isinstance(event, StreamDone):
                executed += event.response.message.tool_calls
    except TruncatedStreamError:
        pass
    if not is_number(answer):
        return wrong(f"answer with a number of tool calls, e.g. 3, not {show(answer)}")
    if problem := number_problem(answer):  # one too long to write out (10**5000): "not {answer}" would fail
        return problem
    if answer == len(executed):
        return right(f"{fragments} fragments arrived, {len(executed)} calls ran: TruncatedStreamError, nothing runs.")
    return wrong(
        f"not {answer}: {fragments} ToolCallDelta fragments arrived, but the stream raised TruncatedStreamError "
        "before StreamDone — and only a whole response is executed"
    )


def outcome_name(said: Any) -> Any:
    """An outcome named another way, as its class name: the exception class itself
    (`TransientError`, imported), the exception chat() raised (`except ModelCallError as error`),
    its dotted name (`toolkit.errors.TransientError`), or its name written as the class is called
    (`TransientError()`, as a `raise` writes it)."""
    if isinstance(said, type) and issubclass(said, BaseException):
        return said.__name__
    if isinstance(said, BaseException):
        return type(said).__name__
    if isinstance(said, str) and (name := re.fullmatch(r"([\w.]+)(\(\s*\))?", said.strip())):
        return name.group(1).rsplit(".", 1)[-1]
    return said


TIMEOUT_OUTCOMES = ("answer", "TransientError", "CallerError", "BadResponseError", "ReadTimeout", "TimeoutError")


def timeout_run() -> tuple[int, str, list[float]]:
    """Two slow answers (5 s each), a 1 s timeout, one retry: requests sent, outcome, waits."""
    from toolkit.chat.client import RetryPolicy
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.switch import fake_client
    from toolkit.errors import ModelCallError
    from toolkit.gateway.server import Gateway

    waits: list[float] = []
    client = fake_client(
        gateway=Gateway(faults=["slow", "slow"]), timeout=1.0, retry=RetryPolicy(max_retries=1), sleep=waits.append
    )
    try:
        client.chat([UserMessage(content="你好")])
        outcome = "answer"
    except ModelCallError as error:
        outcome = type(error).__name__
    return len(client.exchanges), outcome, waits


@exercise(
    "w2.timeout",
    2,
    "predict",
    "the next two answers take 5 s each; timeout=1.0, max_retries=1: how many requests are sent, and how does "
    "chat() end?",
    starter="""
        from toolkit import UserMessage, fake_client
        from toolkit.chat.client import RetryPolicy
        from toolkit.exercises import check
        from toolkit.gateway.server import Gateway

        waits = []
        client = fake_client(gateway=Gateway(faults=["slow", "slow"]),   # the next two answers take 5 s each
                             timeout=1.0, retry=RetryPolicy(max_retries=1), sleep=waits.append)
        # predict first, then call client.chat([UserMessage(content="你好")]) and look at client.exchanges
        answer = {
            "requests sent": ...,   # a number
            "outcome": ...,         # "answer", or the name of the exception chat() raises
        }
        check("w2.timeout", answer)
        """,
    solution="""
        from toolkit import UserMessage, fake_client
        from toolkit.chat.client import RetryPolicy
        from toolkit.exercises import check
        from toolkit.gateway.server import Gateway

        waits = []
        client = fake_client(gateway=Gateway(faults=["slow", "slow"]),   # the next two answers take 5 s each
                             timeout=1.0, retry=RetryPolicy(max_retries=1), sleep=waits.append)
        answer = {
            "requests sent": 2,            # the first try and one retry, both cut off after 1 s
            "outcome": "TransientError",   # the retries ran out; a timeout is transient
        }
        check("w2.timeout", answer)
        """,
    hint="max_retries counts the tries after the first; each slow answer outlasts the 1 s timeout, and the "
    "client reports a timeout as one of its three kinds, not as httpx's own exception.",
)
def check_timeout(answer: Any) -> Verdict:
    if problem := dict_answer_problem(answer, ("requests sent", "outcome")):
        return problem
    named = outcome_name(answer["outcome"])  # in the case its misconception is written in, when it is one of them
    answer = {**answer, "outcome": one_of(named, (*TIMEOUT_OUTCOMES, "ModelCallError", "TimeoutException")) or named}
    sent, outcome, waits = timeout_run()

    def say(key: str, said: Any, real: Any) -> str:
        if key == "requests sent":
            why = ""
            if said == 1:
                why = " — a timeout is transient, so the client tries once more (max_retries=1)"
            elif said == 3:
                why = " — max_retries counts the retries after the first try, not the tries"
            if not is_number(said):
                return f"answer the requests sent with a number, not {show(said)}"
            return f"the client did not send {counted(said, 'request')}{why}"
        if said in ("ReadTimeout", "TimeoutError", "TimeoutException"):
            why = " — httpx's timeout is caught and raised as one of the client's own three kinds, once the retries run out"
        elif said == "answer":
            why = " — the second answer is slow too, and there is no third try"
        elif said == "ModelCallError":
            why = " — that is the base class of the client's three kinds; name the kind chat() raises (type(error).__name__)"
        elif said in ("CallerError", "BadResponseError"):
            why = " — nothing was wrong with the request or a response: the gateway was only slow"
        elif said not in TIMEOUT_OUTCOMES:
            why = " — use 'answer' or the class name of the exception chat() raises (type(error).__name__)"
        else:
            why = ""
        return f"chat() did not end with {show(said)}{why}"

    found = misses(answer, {"requests sent": sent, "outcome": outcome}, say)
    return verdict_of(
        found,
        f"{sent} requests, then {outcome}. The injected sleep recorded {waits}: 1 s of waiting for each slow "
        "answer and the 0.5 s backoff between them.",
    )
