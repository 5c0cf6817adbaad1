"""The notebooks' live sections: cells that talk to whatever gateway `connect()` gave.

Two helpers keep every notebook running top to bottom on any gateway — the learner's own, the
embedded one in any mode A–E, or one that is down:

- `gateway_cell(client)` wraps the cells that send requests. A `ModelCallError` inside it is
  printed as one readable line with what to do (check `LLM_BASE_URL`, the key, a longer timeout
  for a gateway that was reached but is slow, or use the prompt-protocol fallback — not for a
  400 about the history's tool-call messages, which a gateway with tools gives too), and the
  notebook goes on. Nothing after such a cell depends on it.
- `course_model(client)` probes the gateway (week 3's probe) and returns the model the course
  should use: the client itself when tool calling works (A, E), the prompt-protocol fallback
  when the probe advises it (B, C, D), with one sentence saying which and why. A reply without
  a tool call (B, D) is one sample of a model that may only sometimes skip its tools: it is
  probed again (three tries in all) before the course switches.

Leaves out: retrying (the client already did), and deciding for the learner on a gateway the
probe cannot classify (it stays as it is, and the sentence says so).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from toolkit.chat.client import PAGE_REFUSAL_HINT, PROXY_REFUSED, UNREACHABLE, URL_AUTH_HINT, error_message
from toolkit.chat.proxies import direct_mounts
from toolkit.chat.thinking import split_thinking
from toolkit.course.probe import rejects_tools
from toolkit.errors import (
    CallerError,
    CassetteError,
    ConfigurationError,
    ModelCallError,
    OutOfCreditError,
    TransientError,
)
from toolkit.tools.redact import scrub
from toolkit.unicode import cut, unescaped
from toolkit.views.html import flat, flat_name, showable

FALLBACK_VERDICTS = ("B", "C", "D")
"""Probe verdicts whose advice is the prompt-protocol fallback."""
SAMPLED_VERDICTS = ("B", "D")
"""Verdicts read from one reply with no tool call: a real model that only sometimes skips its
tools gives them too, so `course_model` probes again before it switches to the fallback."""
PROBE_TRIES = 3


def explain(error: ModelCallError, client: Any = None) -> str:
    """The error as one line for a learner: what happened, then what to do. The gateway's words in it are
    written as a view writes them (`flat`): a control character (an ANSI escape) or a bidi override as its
    code point, a line break as `\\n`."""
    return flat(_explained(error, client))


def _explained(error: ModelCallError, client: Any) -> str:
    """`explain`'s line, with the gateway's words as they came."""
    url = _shown_url(client)
    where = f" at {url}" if url else ""
    first = str(error).splitlines()[0] if str(error) else type(error).__name__
    if isinstance(error, TransientError) and error.status is None:
        if _says_unreachable(error):
            return first  # the client's own line already names the URL, the reason and what to check
        if _too_slow(error):
            return SLOW.format(url=url or "the configured URL", reason=first)
        return UNREACHABLE.format(url=url or "the configured URL", reason=first)
    if isinstance(error, OutOfCreditError):
        return f"The gateway{where} says the account is out of credit or quota: {first}"
    if isinstance(error, CallerError) and first.startswith(PROXY_REFUSED):
        return first  # the proxy's status, not the gateway's: the client's own line names the proxy and the fix
    if isinstance(error, CallerError) and error.status in (401, 403) and URL_AUTH_HINT in first:
        return (
            f"The gateway{where} refused the user and password in LLM_BASE_URL (HTTP {error.status}; httpx sends "
            "them as Basic auth in place of LLM_API_KEY). Check them, or take them out of LLM_BASE_URL to send "
            "LLM_API_KEY."
        )
    if isinstance(error, CallerError) and error.status in (401, 403):
        return _refused(error, where, first)
    if isinstance(error, CallerError) and error.status in (400, 422) and _HISTORY.search(str(error)):
        return HISTORY.format(where=where, reason=first)
    said = error_message(error.body) if error.body else first  # the gateway's words, without the client's hint
    if rejects_tools(error.status, said, _model_name(client)):
        return (
            f"The gateway{where} rejects the `tools` field ({f'HTTP {error.status}: {said}' if error.body else first})."
            " This cell needs native tool calling; week 3's prompt-protocol fallback works on such a gateway."
        )
    return f"The gateway{where} failed this cell: {type(error).__name__}: {first}"


def _refused(error: CallerError, where: str, first: str) -> str:
    """A 401 or 403 in one line, saying who refused: a web page in front of the gateway (a CDN's block
    page, a proxy's sign-in: `PAGE_REFUSAL_HINT`), the gateway refusing the key (401), or refusing
    the request for what the key, account, region or network may do (403)."""
    said = error_message(error.body) if error.body else ""
    if PAGE_REFUSAL_HINT in first:
        return (
            f"The gateway{where} did not answer: a web page came back (HTTP {error.status}: {said}), from a proxy, "
            "firewall or sign-in page in front of it, not its key check. Check LLM_BASE_URL, and whether this "
            "network may reach the gateway."
        )
    if error.status == 403:
        return (
            f"The gateway{where} refused the request (HTTP 403{f': {said}' if said else ''}). The key may not use "
            "this model, or the account, region or network is not allowed: check LLM_MODEL and what the key may do."
        )
    return f"The gateway{where} refused the key (HTTP {error.status}). Check LLM_API_KEY."


_HISTORY = re.compile(
    r"tool[ _-]?call[ _-]?ids?\b|tool[ _-]?calls\b|tool_use|role\W{0,3}tool\b|messages\[\d+\]", re.IGNORECASE
)
"""An error about the conversation's tool-call messages (their ids, their order), not the `tools` field."""

HISTORY = (
    "The gateway{where} refused the conversation's tool-call messages ({reason}): it takes tools, but has its "
    "own rules for the history (the form of a call id, which message may follow which). Not a reason for the "
    "prompt-protocol fallback: start the conversation again, and report it if it repeats."
)


def _shown_url(client: Any) -> str | None:
    """The client's base URL as it may be printed (credentials masked, `ChatClient.shown_url`); a
    `PromptProtocol`'s is its wrapped client's."""
    for each in (client, getattr(client, "model", None)):
        url = getattr(each, "shown_url", None) or getattr(each, "base_url", None)
        if url:
            return url
    return None


def _model_name(client: Any) -> str:
    """The model `client` asks for (a `PromptProtocol`'s: its wrapped client's), or ""."""
    model = getattr(client, "model", "")
    model = model if isinstance(model, str) else getattr(model, "model", "")
    return model if isinstance(model, str) else ""


def _says_unreachable(error: TransientError) -> bool:
    """True when the client raised `error` for a connection that failed (not a timeout): its
    message is then a complete line, `toolkit.chat.client.unreachable()`'s (or the one saying that
    an answer broke off)."""
    cause = error.__cause__
    return isinstance(cause, httpx.TransportError) and not isinstance(cause, httpx.TimeoutException)


def _too_slow(error: TransientError) -> bool:
    """True when the gateway was reached but did not answer in time (a read or write timeout;
    a connect timeout means it could not be reached)."""
    return isinstance(error.__cause__, (httpx.ReadTimeout, httpx.WriteTimeout))


SLOW = (
    "The gateway at {url} was reached but did not answer in time ({reason}). A slow model (a reasoning "
    "model can think for minutes) needs a longer timeout, e.g. connect(timeout=120); or run the cell again."
)


@contextmanager
def gateway_cell(client: Any = None) -> Iterator[None]:
    """Run a notebook cell's requests; a gateway failure is printed as one line, not raised."""
    try:
        yield
    except ModelCallError as error:
        print(explain(error, client))


def course_model(client: Any, result: Any = None) -> tuple[Any, str]:
    """(model to use, one sentence why): the client, or `PromptProtocol(client)` when the probe
    says native tool calling cannot be trusted. `result` is a `ProbeResult` (probed if None).
    A verdict from a reply without a tool call (B, D) is probed again, up to `PROBE_TRIES` in
    all: one tool call among them means native tool calling works (the model skipped it once)."""
    from toolkit.course.probe import probe
    from toolkit.course.prompt_protocol import PromptProtocol

    result = probe(client) if result is None else result
    tries = 1
    while result.verdict in SAMPLED_VERDICTS and tries < PROBE_TRIES:
        again, tries = probe(client), tries + 1
        if again.verdict is not None and again.verdict not in FALLBACK_VERDICTS:
            return client, (
                f"Probe verdict {again.verdict} ({again.label}) on try {tries} of {PROBE_TRIES} "
                "(the first reply had no tool call: this model sometimes answers without its tools): "
                "the course uses native tool calling."
            )
    if result.verdict is None:
        return client, f"The probe could not classify this gateway ({result.reason}); the course uses it as it is."
    name = result.label
    if result.verdict in FALLBACK_VERDICTS:
        return PromptProtocol(client), (
            f"Probe verdict {result.verdict} ({name}): the course switched to the prompt-protocol fallback "
            "by itself — tools are described in the system prompt and the call is read from the reply."
        )
    return client, f"Probe verdict {result.verdict} ({name}): the course uses native tool calling."


def course_client(**options: Any) -> Any:
    """`connect()`, saying which gateway it is; a configured gateway that cannot be reached, that
    refuses the key (`refused_key`) or does not serve the model (`refused_model`), or that the
    `LLM_*` variables cannot describe (a URL without http://, a key with a line break, one variable
    of three, a cassette that cannot be read), is named, with what to check, and the notebook goes
    on with the embedded gateway instead. A mistake in `options` (the code's) is raised."""
    from toolkit.chat.switch import connect, fake_client

    try:
        client = connect(**options)
    except (ConfigurationError, CassetteError) as error:
        client = connect(env={}, **options)  # the same options without the variables: raises if they are at fault
        print(
            f"The LLM_* variables do not describe a gateway: {error}",
            "So that every cell still runs, this notebook continues on:",
        )
        print("gateway:", client.describe())
        return client
    print("gateway:", client.describe())
    problem = unreachable(client)
    if problem is not None:
        problem = UNREACHABLE.format(url=_shown_url(client), reason=client.scrub(problem))
    else:
        answer = _models_answer(client)  # read once for both checks
        problem = refused_key(client, answer) or refused_model(client, answer)
    if problem is None:
        return client
    print(problem, "So that every cell still runs, this notebook continues on:")
    client = fake_client()
    print("gateway:", client.describe())
    return client


def _models_answer(client: Any) -> tuple[int | None, str] | None:
    """A real gateway's answer to `GET …/models` with the key (`ChatClient.models_answer`), else None."""
    read = _real_gateways(client, "models_answer")
    return None if read is None else read()


def _real_gateways(client: Any, name: str) -> Any:
    """`client`'s method `name` when it talks to a real gateway (not the embedded or a replay), else None."""
    from toolkit.chat.switch import FAKE_BASE_URL, REPLAY_BASE_URL

    if getattr(client, "base_url", None) in (FAKE_BASE_URL, REPLAY_BASE_URL):
        return None
    return getattr(client, name, None)


def refused_key(client: Any, answer: tuple[int | None, str] | None = None) -> str | None:
    """One line when a real gateway refuses the client's key (`ChatClient.key_refused`), else None.
    Asked before the first cell that needs the model: a wrong key stopped weeks 0, 1, 3 and 4 there.
    `answer`: the gateway's `models_answer()`, if already read."""
    check = _real_gateways(client, "key_refused")
    if check is None:
        return None
    refusal = check(answer=answer)
    return None if refusal is None else KEY_REFUSED.format(url=_shown_url(client), reason=str(refusal))


KEY_REFUSED = "The gateway at {url} refused the key ({reason}). Check LLM_API_KEY."
"""`course_client`'s line for a key the gateway refuses before any model is asked."""


def refused_model(client: Any, answer: tuple[int | None, str] | None = None) -> str | None:
    """One line when a real gateway does not serve the client's model (`ChatClient.model_refused`),
    naming a few it lists (those like the model first: `alike_first`), else None. `answer`: the gateway's `models_answer()`, if already read."""
    check = _real_gateways(client, "model_refused")
    if check is None:
        return None
    refused = check(answer=answer)
    if refused is None:
        return None
    refusal, listed = refused
    names = [" ".join(name.split())[:80] for name in alike_first(client.model, listed)[:LISTED]]  # each on this line
    shown = ", ".join(names) + (f" and {len(listed) - LISTED} more" if len(listed) > LISTED else "")
    return MODEL_REFUSED.format(url=_shown_url(client), model=client.model, reason=str(refusal), listed=shown)


LISTED = 5
"""How many of the gateway's models `refused_model` names."""


def alike_first(model: str, listed: list[str]) -> list[str]:
    """`listed` with the ids that look like `model` first, the likest first (its name without a
    vendor's prefix, in any case, against theirs: OpenRouter's `openai/gpt-4o` for "gpt-4o"), then
    the others in the gateway's order. OpenRouter lists some 300 models, newest first: its first
    five say nothing about the model asked."""
    asked = model.rsplit("/", 1)[-1].lower()
    likeness = {name: _likeness(asked, name.rsplit("/", 1)[-1][:200].lower()) for name in listed}
    alike = sorted((name for name in listed if likeness[name] >= ALIKE), key=lambda name: -likeness[name])
    return alike + [name for name in listed if likeness[name] < ALIKE]


def _likeness(asked: str, name: str) -> float:
    """How alike two model names are, 0 to 1 (difflib's ratio; 1 for the same name)."""
    return difflib.SequenceMatcher(None, asked, name, autojunk=False).ratio()


ALIKE = 0.6
"""The likeness from which a listed model is named first (difflib's own cutoff for a close match)."""
MODEL_REFUSED = (
    "The gateway at {url} refused the model {model} ({reason}). Check LLM_MODEL; the gateway lists {listed}."
)
"""`course_client`'s line for a model the gateway does not serve."""


def on_embedded_gateway(client: Any) -> bool:
    """True when `client` (or the client a fallback wraps) talks to the embedded fake gateway."""
    from toolkit.chat.switch import FAKE_BASE_URL

    inner = getattr(client, "model", client)
    return getattr(client, "base_url", getattr(inner, "base_url", None)) == FAKE_BASE_URL


def unreachable(client: Any, timeout: float = 5.0) -> str | None:
    """Why a real gateway cannot be reached (None when it answers anything at all, or is not a
    network gateway). One `GET …/models` without the key: free, and it never sends a secret."""
    from toolkit.chat.switch import FAKE_BASE_URL, REPLAY_BASE_URL

    base = getattr(client, "base_url", None)
    if not base or base in (FAKE_BASE_URL, REPLAY_BASE_URL):
        return None
    try:
        with httpx.Client(timeout=timeout, mounts=direct_mounts(base)) as http:  # a loopback one: not via a proxy
            http.get(f"{base}/models")
    except httpx.TransportError as error:
        return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return None


def run_lines(result: Any) -> list[str]:
    """What a loop run did on a live gateway, never assuming a call: each model request, each
    call with its arguments (escapes written as characters) and result (cut short), then how it
    finished and the answer (a reasoning model's `<think>` text counted, not shown as the answer:
    `toolkit.chat.thinking`), with a note when the gateway cut the answer off; secrets and paths
    scrubbed as in the trace view (the output is saved in the learner's notebook). What the model
    sent is written as a view writes it: a call on its line (`flat`, a name cut at `NAME_CHARS`), a
    control character or a bidi override as its code point (`showable`)."""
    lines = [f"model requests: {len(result.rounds)} | finish: {result.finish}"]
    executions = [e for r in result.rounds for e in r.executions]
    if not executions:
        lines.append("no tool call: the model answered directly")
    for e in executions:
        flag = " (error)" if e.result.is_error else ""
        text = showable(" ".join(scrub(str(e.result.content)).split()))
        call = f"{flat_name(e.call.name)}({flat(scrub(unescaped(e.call.arguments)))})"  # a model's: on the line
        lines.append(f"→ {call}{flag} → {cut(text, 100, mark='')}")
    thinking, answer = split_thinking(result.answer or "")  # a reasoning model without a parser writes both
    if thinking.strip():
        lines.append(f"thinking: {len(thinking.strip())} characters between <think> tags, left out of the answer")
    said = showable(" ".join(scrub(answer.strip() or "(none)").split()))
    lines.append(f"answer: {cut(said, 200, mark='')}")
    if result.rounds and result.rounds[-1].finish_reason in CUT_OFF_BY:
        lines.append(CUT_OFF_BY[result.rounds[-1].finish_reason])
    return lines


CUT_OFF = (
    'note: the answer is cut off (finish_reason "length": the model reached its token limit); '
    "raise max_tokens, or ask for a shorter answer"
)
"""Said under a run whose last reply the gateway cut off: a real gateway does, the loop takes it as the answer."""
FILTERED_OFF = (
    'note: the answer is cut off (finish_reason "content_filter": the gateway\'s content filter stopped it); '
    "rephrase the request, or check the gateway's filter"
)
"""Said under a run whose last reply the gateway's content filter stopped midway (Azure OpenAI's)."""
WINDOW_OFF = (
    'note: the answer is cut off (finish_reason "model_length": the conversation filled the model\'s context '
    "window); shorten the conversation"
)
"""Said under a run whose last reply filled the model's context window (Mistral's finish_reason)."""
CUT_OFF_BY = {"length": CUT_OFF, "content_filter": FILTERED_OFF, "model_length": WINDOW_OFF}
"""The note for each `finish_reason` that cuts an answer off."""


def show_run(result: Any) -> None:
    """Print `run_lines(result)`."""
    print("\n".join(run_lines(result)))
