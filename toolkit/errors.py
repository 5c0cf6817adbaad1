"""Every exception toolkit raises, in one place.

Two audiences, two channels. Errors for the *developer* (misconfiguration) are raised at
registration time and name the function, the rule and the fix. Errors about the *model's*
behaviour usually never become exceptions at all: they go back to the model as tool results.
What is left are failures talking to the gateway, triaged three ways. The whole tree::

    ToolkitError
    ├── ConfigurationError            you wired something wrong; fix the code
    │   ├── ToolDefinitionError       a tool breaks a registration rule: names function, rule, fix
    │   ├── RecordError               a message record made with a wrong field (also pydantic's ValidationError)
    │   └── SchemaTranslationError    an MCP tool's schema cannot be offered to a model
    ├── ModelCallError                talking to the gateway failed
    │   ├── TransientError            timeout, connection drop, 429, 5xx (or a 200 naming one): retried, then raised
    │   ├── CallerError               any other 4xx: the request is wrong; never retried
    │   │   └── OutOfCreditError      a 402, or a 429 saying the account has no credit or quota left
    │   └── BadResponseError          200 but the body is unusable (not JSON, no choices, an empty reply, ...)
    │       ├── TruncatedStreamError  the SSE stream ended before [DONE]
    │       └── NotAStreamError       a stream request was answered with plain JSON
    ├── ToolCallError                 the model's tool call could not be run as asked
    │   ├── UnknownToolError          no tool has that name (the model hallucinated it)
    │   ├── ArgumentError             the arguments do not fit: field / received / expected
    │   │   └── ArgError              week 3's one-field form, in Chinese (参数校验失败 …)
    │   └── ToolExecutionError        the tool itself raised (only raised if a policy says so)
    ├── MaxRoundTripsError            the loop's bound was reached and the options say raise
    ├── OutputParsingError            a structured answer could not become the declared type
    ├── SearchArgumentError           the model's arguments to the tool-search tool are unusable
    ├── SkillError                    a skill or resource the model asked for does not exist
    ├── McpError                      an MCP request failed (JSON-RPC error)
    │   ├── McpConnectionError        the server cannot be reached, or went away
    │   └── McpTimeout                a request outlived its deadline; cancellation was sent
    ├── McpToolError                  the MCP server ran the tool and reported `isError`
    ├── MemoryStoreError              the memory database cannot be read or written as it is
    ├── MemoryIdError                 a memory id is None, empty or not a string (also a ValueError)
    ├── CassetteMismatch              a replayed request has no recording
    ├── CassetteError                 a cassette file cannot be read, or a line of it is not an exchange
    └── ScriptExhausted               a scripted model was asked for more turns than it has

A `ToolCallError` is raised only when an error policy says "fail fast"; otherwise its text
goes back to the model as a `ToolResultMessage(is_error=True)`.

In a notebook, a `ToolkitError` shows as one readable line plus a hint, not a traceback
(IPython's `_render_traceback_` hook); `%tb` right after shows the full chain.

Leaves out: exceptions that never leave their module (a parse step's private signal).
"""

from __future__ import annotations

import traceback
from asyncio import CancelledError
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic_core import PydanticCustomError, ValidationError

from toolkit.unicode import cut, escaped_surrogates

T = TypeVar("T")

TB_NOTE = "(%tb shows the full traceback)"


_CONTEXT: Any = BaseException.__dict__["__context__"]
"""`BaseException.__context__` (the attribute `ToolkitError.__context__` reads and writes through)."""


OWN_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit, CancelledError, GeneratorExit)
"""What a tool (or a compensation, or the iterator a tool returned) raising means it failed, fed back
as an execution error: an `Exception`; `SystemExit` (argparse, click, `sys.exit` in command-line
code); `asyncio.CancelledError` (its own async work cancelled inside `asyncio.run`: a thread is never
cancelled from outside, so it is never the turn's cancellation, `toolkit.loop.cancel`);
`GeneratorExit` (raised by its own code: a reader closing `iter_loop` throws it at the loop's own
`yield`, and the loop is never suspended while a tool runs, so one out of a tool is never the turn's;
`concurrent.futures` keeps it as the call's outcome too). `KeyboardInterrupt` is not: it propagates."""


class ToolkitError(Exception):
    """Base class of everything toolkit raises on purpose."""

    hint: str = ""
    """What to do about it, in one sentence; shown under the message in a notebook."""

    @property
    def __context__(self) -> BaseException | None:
        """The exception being handled when this one was raised; None when it was raised `from
        None`. IPython prints a plain traceback instead of `_render_traceback_` as soon as an
        exception group hides anywhere in the context chain, even a suppressed one, and anyio's
        task groups (the MCP SDK) raise them: a suppressed context is not shown anyway."""
        if self.__suppress_context__:
            return None
        return _CONTEXT.__get__(self)

    @__context__.setter
    def __context__(self, value: BaseException | None) -> None:
        _CONTEXT.__set__(self, value)

    def __str__(self) -> str:
        return _as_shown(self, super().__str__())

    def _render_traceback_(self) -> list[str]:
        """IPython's hook: `Name: message` and the hint instead of a traceback. Asked again
        for the same exception (that is what `%tb` does), the full chain.

        From then on the message (`str`, which the kernel sends as the error's value too) writes a lone surrogate it
        quotes (a model's argument, a file name read by `os.fsdecode`) as its escape (`\\ud800`): Jupyter dropped an
        error whose text UTF-8 cannot encode, so the cell showed nothing at all. Elsewhere the text is as it was
        (the command line writes a name's undecodable bytes back as they came)."""
        self._in_notebook = True
        if getattr(self, "_rendered", False):
            text = "".join(traceback.format_exception(self))
            return escaped_surrogates(text).rstrip("\n").split("\n")
        self._rendered = True
        lines = [f"{type(self).__name__}: {self}"]
        lines.append(f"Hint: {self.hint} {TB_NOTE}" if self.hint else TB_NOTE)
        return lines


def _as_shown(error: ToolkitError, text: str) -> str:
    """`text`, the message of `error`, with its lone surrogates escaped once IPython has shown it
    (`ToolkitError._render_traceback_`)."""
    return escaped_surrogates(text) if getattr(error, "_in_notebook", False) else text


class ConfigurationError(ToolkitError):
    """A developer mistake found at registration time (not the model's fault)."""

    hint = "Fix the code or setting the message names; nothing was sent to the model."


class RecordError(ValidationError, ConfigurationError):
    """A record made by hand (`UserMessage(content=5)`, a tool call whose name is a list) with a field
    missing, unknown or of the wrong kind: pydantic's `ValidationError` (its `errors()` and `title` as
    pydantic made them, so `except ValidationError` holds), whose text is one line naming the record,
    each field, what it was given and what is valid, not pydantic's many lines and link."""

    _line: str = ""

    @classmethod
    def of(cls, error: ValidationError, fields: Iterable[str], where: str = "") -> RecordError:
        """`error` (pydantic's, for the record whose fields are `fields`) as a `RecordError`; `where` (the
        function that read it) begins its line, before the record's name."""
        problems = error.errors(include_url=False)
        try:
            made = cls.from_exception_data(error.title, [_detail(problem) for problem in problems])
        except (KeyError, TypeError, ValueError):  # an error type of a validator's own: its words as a custom one
            custom = [
                {"type": PydanticCustomError(p["type"], p["msg"]), "loc": p["loc"], "input": p.get("input")}
                for p in problems
            ]
            made = cls.from_exception_data(error.title, custom)  # type: ignore[arg-type]
        named = error.title if error.title in _RECORD_NAMES or not where else ""  # not pydantic's "tagged-union[…]"
        start = ": ".join(part for part in (where, named) if part)
        made._line = f"{start}: " + "; ".join(_record_problem(problem, fields) for problem in problems)
        return made

    def __str__(self) -> str:
        return _as_shown(self, self._line or super().__str__())  # made otherwise than by `of`: pydantic's own text

    def __reduce__(self) -> tuple[Any, ...]:
        """pydantic's (the record's errors made again), and the line: a copy, or a `RecordError` pickled
        back from a worker process, reads the same."""
        return _with_line, (super().__reduce__(), self._line)


def _with_line(reduced: tuple[Any, tuple[Any, ...]], line: str) -> RecordError:
    """A `RecordError` made again from pydantic's `__reduce__`, with its line."""
    made: RecordError = reduced[0](*reduced[1])
    made._line = line
    return made


_RECORD_NAMES = frozenset({"SystemMessage", "UserMessage", "AssistantMessage", "ToolResultMessage", "ToolCall"})
"""The records `where` is written before (a union of them has a title of pydantic's own)."""


def _detail(problem: Mapping[str, Any]) -> Any:
    """One of `ValidationError.errors()` as `from_exception_data` takes it back (its context kept)."""
    detail = {"type": problem["type"], "loc": problem["loc"], "input": problem.get("input")}
    return {**detail, "ctx": problem["ctx"]} if "ctx" in problem else detail


def _record_problem(problem: Mapping[str, Any], fields: Iterable[str]) -> str:
    """One problem of a record's fields in words: `content was given an int (5); it should be a valid
    string`; a missing or unknown field, or a check's own words (they say what was given)."""
    field = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in problem["loc"]).lstrip(".")
    kind, message, given = problem["type"], problem["msg"], problem.get("input")
    if kind == "missing":
        return f"{field} is required and was not given"
    if kind == "extra_forbidden":
        return f"{field} is not one of its fields ({', '.join(fields)})"
    if kind in ("value_error", "assertion_error"):
        said = message.split(", ", 1)[1] if ", " in message else message
        return f"{field}: {said}" if field else said
    if not field and not message.startswith("Input should "):  # a message of no known role: the union's words
        return message
    valid = "it should " + message[len("Input should ") :] if message.startswith("Input should ") else message
    shown = "None" if given is None else f"{a_kind_of(given)} ({cut(repr(given), 41)})"
    return f"{field or 'the record'} was given {shown}; {valid}"


class ModelCallError(ToolkitError):
    """A chat request did not produce a usable response."""

    def __init__(self, message: str, *, status: int | None = None, body: str = "", attempts: int = 1) -> None:
        super().__init__(message)
        self.status = status
        """HTTP status, when there was one; for an overload a gateway reported inside a 200, the
        status it names (502 for `{"error": {"code": 502, …}}`)."""
        self.body = body
        """The raw response body (cut to 2,000 characters), for diagnosis."""
        self.attempts = attempts
        """How many requests were sent before giving up."""


class TransientError(ModelCallError):
    """Timeout, dropped connection, 429 or 5xx: worth retrying; raised once retries run out."""

    retry_after: float | None = None
    """Seconds the gateway asked us to wait (its `Retry-After` header), when it said."""

    waited: float | None = None
    """Seconds slept between the attempts before giving up (the retry loop sets it), when known."""

    _hint: str | None = None

    @property
    def hint(self) -> str:
        """What happened and what to do, by `attempts`: a request that was not retried (a wait
        beyond the retry policy's cap, `max_retries=0`) does not read as retried."""
        if self._hint is not None:
            return self._hint
        if self.attempts > 1 and self.waited is not None:
            return (
                f"It was sent {self.attempts} times, waiting {round(self.waited, 1):g} s in all between them, "
                "before giving up; running the cell again later may work."
            )
        if self.attempts > 1:
            return (
                f"It was sent {self.attempts} times, with backoff between them, before giving up; "
                "running the cell again later may work."
            )
        return "It was not retried (1 request sent); running the cell again later may work."

    @hint.setter
    def hint(self, value: str) -> None:
        self._hint = value


class CallerError(ModelCallError):
    """A 4xx other than 429 (or a 429 that no wait will cure): the request itself is wrong, or
    the account; retrying cannot help."""

    def refuses(self, field: str) -> bool:
        """Whether this is a 400 naming the request's `field` (a gateway that does not know it), or
        a 422: a FastAPI server whose request model forbids extra fields says it so
        (`{"detail": [{"loc": ["body", "stream_options"], "msg": "Extra inputs are not permitted"}]}`),
        as `toolkit.course.probe` reads a refused `tools` field."""
        return self.status in (400, 422) and field in f"{self} {self.body}"


class OutOfCreditError(CallerError):
    """The account has no credit or quota left: a 402, or a 429 (or a 400 or a 403, or an error inside a
    200) that says so (`"code": "insufficient_quota"`, "余额不足"; `toolkit.chat.credit`). A rate
    limit passes, this does not: raised at once, never retried."""

    hint = (
        "The account behind the key has no credit or quota left, and waiting will not change that: "
        "add credit or raise the limit in the provider's billing settings, or use another key."
    )


class BadResponseError(ModelCallError):
    """The gateway answered 200 but the body cannot be used."""

    hint = "Check that LLM_BASE_URL points at an OpenAI-compatible /v1 endpoint."


class TruncatedStreamError(BadResponseError):
    """A streamed response ended before `data: [DONE]`; nothing from it may be executed."""

    hint = "Nothing from the cut stream was executed; running the cell again may work."


class NotAStreamError(BadResponseError):
    """The gateway ignored `stream: true` and answered with a plain JSON response."""

    hint = "This gateway does not stream: use chat() instead of stream(), or a gateway that streams."


# --- Tools: reflection and execution (toolkit.tools.decorator, .schema, .arguments, .execution) ---


class ToolDefinitionError(ConfigurationError):
    """A tool function or spec breaks a registration rule; raised before any model sees it."""

    def __init__(self, where: str, problem: str, fix: str) -> None:
        super().__init__(f"{where}: {problem}. Fix: {fix}")
        self.where = where
        """Which function (and parameter) is wrong, e.g. "@tool shop.search, parameter 'limit'"."""
        self.problem = problem
        """The rule that is broken, in one sentence."""
        self.fix = fix
        """What to change in the code."""


class ToolCallError(ToolkitError):
    """The model asked for a tool call that could not be carried out as asked."""

    hint = (
        "The model's call was wrong, not your code; to send such errors back to it instead of stopping, pass "
        "LoopOptions(policies=Policies(unknown_tool=report_unknown_tool, argument_error=report_argument_error))."
    )

    def __init__(self, message: str, *, tool_name: str) -> None:
        super().__init__(message)
        self.tool_name = tool_name
        """The tool name exactly as the model wrote it."""


NAME_SHOWN = 64
"""Characters of a tool name an error text shows (OpenAI's own limit on a tool name); a model can
write a name of any length, and the text it reads back stays short."""


def shown_name(name: str) -> str:
    """`name` as an error text shows it: at most `NAME_SHOWN` characters, `...` marking a cut."""
    return cut(name, NAME_SHOWN, "...")


def a_or_an(word: str) -> str:
    """`an int`, `a str`, `a UserMessage`, `an HTTPError`: the article a type name takes in an
    error text, by how the name is said (`article`)."""
    return f"{article(word)} {word}"


_SAID_LIKE_YOU = ("uni", "use", "usa", "usu", "uti", "uri", "uint", "ufunc", "eu", "one", "once")
"""Beginnings of words whose vowel is said as a consonant ("a Union", "a UserDict", "a one-off")."""
_LETTERS_SAID_FROM_A_VOWEL = "AEFHILMNORSX"
"""Capital letters whose name starts with a vowel sound: "an HTTPError", "an SSLError", "an MCPServer"."""


def article(word: str) -> str:
    """`a` or `an` for `word`: an acronym (two capitals first, as `HTTPError` or `UUID`) or a lone
    capital (`U`, `X2`) by the name of its first letter; another word by its first sound, its vowel letters read as vowels
    except for the beginnings said like "you" or "won" (`Union`, `UserMessage`, `one`). Leaves out
    a silent "h" (`hour`) and other words English spells against its sound."""
    if _said_by_letter(word):
        return "an" if word[0] in _LETTERS_SAID_FROM_A_VOWEL else "a"
    lower = word.lower()
    if lower.startswith(_SAID_LIKE_YOU):
        return "a"
    return "an" if lower[:1] in ("a", "e", "i", "o", "u") else "a"


def _said_by_letter(word: str) -> bool:
    """Whether `word` is said from the name of its first letter: an acronym (`HTTPError`), or a capital
    alone or before a digit or `_` (a learner's class `U`, `X2`)."""
    if not (word[:1].isascii() and word[:1].isupper()):
        return False
    return len(word) == 1 or (word[1].isupper() and word[1].isalpha()) or not word[1].isalpha()


def a_kind_of(value: Any) -> str:
    """What `value` is, in an error text: `None`, or its type with its article (`a dict`)."""
    return "None" if value is None else a_or_an(type(value).__name__)


def huge_int(value: int) -> str:
    """An int in an error text by its size, `<an int of N bits>`: for one past every float (more than 1,024
    bits), whose repr may be too long for Python to write (over 4,300 digits: `repr` raises ValueError)."""
    return f"<an int of {value.bit_length()} bits>"


def listed_of(items: object, kind: type[T], where: str, maker: str, noun: str = "item") -> list[T]:
    """`items` as a list of `kind`, or a `ConfigurationError` naming what `where` takes: the list `maker` returns
    (a readable line, not "'NoneType' object is not iterable", or "'int' object has no attribute …" when a view
    made of the wrong list is drawn). `noun` names one element in the error (`row 2 is …`)."""
    if isinstance(items, str | bytes | Mapping) or not isinstance(items, Iterable):
        raise ConfigurationError(
            f"{where}(): takes the list of {kind.__name__} {maker} returns, and got {a_kind_of(items)}"
        )
    listed = list(items)
    wrong = next((i for i, item in enumerate(listed) if not isinstance(item, kind)), None)
    if wrong is not None:
        raise ConfigurationError(
            f"{where}(): {noun} {wrong} is {a_kind_of(listed[wrong])}, not {a_or_an(kind.__name__)}; "
            f"pass what {maker} returns"
        )
    return listed


class UnknownToolError(ToolCallError):
    """The model called a tool name that does not exist."""

    def __init__(self, tool_name: str, available: list[str]) -> None:
        available = sorted(available)
        names = ", ".join(available) or "(none)"
        super().__init__(
            f"There is no tool named {shown_name(tool_name)!r}. Available tools: {names}.", tool_name=tool_name
        )
        self.available = available
        """The names the model could have used."""


@dataclass(frozen=True)
class ArgumentProblem:
    """One thing wrong with a call's arguments, written for the model to fix it."""

    field: str
    """Dotted path of the argument, e.g. `address.city` or `items[2]`; "" for the whole."""
    received: str
    """What the model sent, rendered short ("" when it sent nothing)."""
    expected: str
    """What would have been valid, e.g. `an integer` or `one of 'a', 'b'`."""
    kind: str = "invalid"
    """`invalid`, `missing`, `unknown` (a field the tool does not have), `not_json`, or `refused`
    (a validator of the tool's own said no: `expected` holds its reason)."""

    def __post_init__(self) -> None:  # a model can name a field of any length: the text stays short
        if len(self.field) > FIELD_SHOWN:
            object.__setattr__(self, "field", cut(self.field, FIELD_SHOWN, "..."))
        if len(self.expected) > EXPECTED_SHOWN:  # an enum of 10,000 values: the tool's schema lists them
            object.__setattr__(self, "expected", _shown_expected(self.expected))

    def line(self) -> str:
        """The problem as one line of the model-facing message."""
        if self.kind == "missing":
            return f"- {self.field}: missing, expected {self.expected}"
        if self.kind == "unknown" and self.expected:
            return f"- {self.field}: unknown field (got {self.received}), valid fields: {self.expected}"
        if self.kind == "unknown":
            return f"- {self.field}: unknown field (got {self.received}), remove it"
        if self.kind == "not_json":
            return f"- arguments: got {self.received}, expected {self.expected}"
        if self.kind == "refused" and not self.received:  # a reason given as text, for no one value
            return (
                f"- {self.field}: refused {self.expected}"
                if self.expected == NO_REASON
                else (f"- {self.field}: refused: {self.expected}")
            )
        if self.kind == "refused":
            return f"- {self.field}: got {self.received}, refused: {self.expected}"
        return f"- {self.field}: got {self.received}, expected {self.expected}"


FIELD_SHOWN = 120
"""Characters of a field's path an argument error shows."""
EXPECTED_SHOWN = 1_000
"""Characters of what is valid an argument error shows (`one of …` for an enum of 10,000 values: the
tool's schema, which the model was sent, lists them all)."""


def _shown_expected(expected: str) -> str:
    """`expected` in `EXPECTED_SHOWN` characters: cut after the last whole value of a list that fits
    (`one of 'a', 'b', …`), else where a character ends, saying how long it was."""
    note = f" (cut at {EXPECTED_SHOWN:,} of {len(expected):,} characters)"
    room = EXPECTED_SHOWN - len(note) - len(", …")
    end = expected.rfind(", ", 0, room + 1)
    if end > room // 2:
        return expected[:end] + ", …" + note
    return cut(expected, EXPECTED_SHOWN - len(note)) + note


PROBLEMS_SHOWN = 10
"""Problems an argument error lists; the rest are counted ("... and 3 more problems")."""


NO_REASON = "(the tool gave no reason)"


def _as_problems(problems: Sequence[ArgumentProblem | str] | str) -> list[ArgumentProblem]:
    """An `ArgumentError`'s problems, a reason given as text (or none at all) as one problem, and
    each reason of a list given as text as one (`["sku is required", "qty must be positive"]`: each
    was an `AttributeError` in the constructor, and the model read that): the model always reads a
    line saying what was refused."""
    if isinstance(problems, str) or not problems:
        return [_refused(problems if isinstance(problems, str) else "")]
    return [p if isinstance(p, ArgumentProblem) else _refused(p) for p in problems]


def _refused(reason: object) -> ArgumentProblem:
    """A reason the tool gave as text (anything else as its text) as one refused problem."""
    if not isinstance(reason, str):
        reason = _text_of(reason)
    return ArgumentProblem("arguments", "", reason if reason.strip() else NO_REASON, "refused")


def _text_of(value: object) -> str:
    """`str(value)`, or "" when that fails or is no str (an error's constructor must not raise)."""
    try:
        text = str(value)
    except Exception:
        return ""
    return text if type(text) is str else ""


class ArgumentError(ToolCallError):
    """The model's arguments cannot be turned into valid Python values. The message lists the
    first `PROBLEMS_SHOWN` problems and counts the rest: the model reads it back, and 20,000
    unknown keys must not come back as 20,000 lines."""

    def __init__(self, tool_name: str, problems: Sequence[ArgumentProblem | str] | str) -> None:
        """`problems` may be one reason as text (`ArgumentError("query_stock", "sku is required")`,
        as LangChain4j's `ToolArgumentsException(message)`), a list of such reasons (and problems),
        or [] when the tool gives none."""
        problems = _as_problems(problems)
        shown = [p.line() for p in problems[:PROBLEMS_SHOWN]]
        if len(problems) > PROBLEMS_SHOWN:
            more = len(problems) - PROBLEMS_SHOWN
            shown.append(f"- ... and {more} more problem{'s' if more > 1 else ''}")
        lines = "\n".join(shown)
        super().__init__(
            f"Invalid arguments for tool {tool_name!r}:\n{lines}\nFix the arguments and call {tool_name} again.",
            tool_name=tool_name,
        )
        self.problems: list[ArgumentProblem] = list(problems)
        """Every problem found: unknown fields first, then parameter by parameter."""

    @property
    def field(self) -> str:
        """The first problem's field."""
        return self.problems[0].field

    @property
    def received(self) -> str:
        """What the model sent for the first problem's field."""
        return self.problems[0].received

    @property
    def expected(self) -> str:
        """What the first problem's field should have been."""
        return self.problems[0].expected


class ToolExecutionError(ToolCallError):
    """The tool raised; `__cause__` is its exception, the message is already sanitised."""

    hint = (
        "Your tool raised. The default policy reports that to the model instead of stopping: "
        "Policies(execution_error=report_execution_error), from toolkit.tools.execute."
    )


REPAIR_ZH = (
    "参数校验失败。字段={field}，收到={received}。期望：{expected}。请修正参数后重新调用 {tool}；"
    "如果无法得到合法参数，请直接告诉用户需要他提供什么，不要再调用工具。"
)
"""The course's (week 3) model-facing text for one invalid argument, as the week-3 course words it but
for one label: the course puts its hint, a whole sentence ("订单号格式必须为 …。"), straight after 收到=…;
here the expected format is a phrase (the same `expected` the English text reads), so it follows 期望：."""


class ArgError(ArgumentError):
    """One invalid argument, as the model reads it: 参数校验失败。字段=…，收到=…。期望：…"""

    def __init__(self, tool: str, field: str, received: str, expected: str, kind: str = "invalid"):
        super().__init__(tool, [ArgumentProblem(field, received, expected, kind)])

    def __str__(self) -> str:
        text = REPAIR_ZH.format(field=self.field, received=self.received, expected=self.expected, tool=self.tool_name)
        return _as_shown(self, text)


# --- The loop, services, search, skills ---


_LIMIT_HINT = (
    "Look at the calls it repeated (the loop's trace); raise LoopOptions({option}=...), or end with a "
    'hand-over instead: LoopOptions(on_limit="handover").'
)


class MaxRoundTripsError(ToolkitError):
    """The model kept asking for tools beyond `max_round_trips` (or `max_model_requests`: `option`)."""

    hint = _LIMIT_HINT.format(option="max_round_trips")

    def __init__(self, message: str, *, option: str = "max_round_trips") -> None:
        super().__init__(message)
        self.hint = _LIMIT_HINT.format(option=option)
        """What to do, naming the limit that was reached."""


class OutputParsingError(ToolkitError):
    """The model's answer could not be turned into the declared return type."""

    def __init__(self, message: str, *, answer: str, answers: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.answer = answer
        """The text that failed to parse (the last one tried)."""
        self.answers: tuple[str, ...] = answers or (answer,)
        """Every answer tried, first to last (the first answer, then the repair round's)."""

    hint = (
        "The error's .answers holds what the model wrote; a simpler return type, or a system message "
        "describing the fields, helps it answer in shape."
    )


class SearchArgumentError(ToolkitError):
    """The model's arguments to the search tool are unusable; the text goes back to the model."""


class SkillError(ToolkitError):
    """The model asked for a skill or resource that does not exist; the text lists what does."""


# --- MCP ---


class McpError(ToolkitError):
    """An MCP request failed: the server answered with a JSON-RPC error (e.g. unknown tool)."""

    hint = "The message is the MCP server's own; check the tool name and arguments against its listing."

    code: int | None = None
    """The server's JSON-RPC error code, when it answered with one (-32602: invalid params, or a tool it no
    longer lists); None for an error of another kind."""


class McpConnectionError(McpError):
    """The MCP server could not be reached, or went away."""

    hint = "Run the server's command (or open its URL) on its own to see why it does not start or answer."


class McpTimeout(McpError):
    """A request outlived its deadline; the server was told to cancel it."""

    hint = "The server is slow or stuck; give it more time (McpToolProvider(timeout=...)) or check what it waits for."


class McpToolError(ToolkitError):
    """The server ran the tool and reported a failure (`isError: true`); the text is the server's.
    `result_attributes` is what the failed result keeps beside the text the model reads (the
    result's `structuredContent`, its blocks for the user only: `toolkit.mcp.provider`)."""

    hint = "The tool itself failed on the server; the text is the server's own."

    def __init__(self, message: str, result_attributes: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.result_attributes: dict[str, Any] = dict(result_attributes or {})

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.result_attributes))


class SchemaTranslationError(ConfigurationError):
    """An MCP tool's schema cannot be turned into one the model can use."""


# --- Memory, cassettes, scripted models ---


class MemoryStoreError(ToolkitError):
    """The memory database cannot be read or written as it is."""

    hint = "Check the database file the message names: its path, its permissions, and what else uses it."


class MemoryIdError(ToolkitError, ValueError):
    """A memory id is None, empty or not a string: conversations would merge, so it is refused."""

    hint = 'Give each conversation an id of its own, e.g. memory_id="user-42".'


class CassetteMismatch(ToolkitError):
    """A replayed request has no recording; the message shows how it differs."""

    hint = "This run differs from the recording: record it again (LLM_RECORD=...) or unset LLM_REPLAY."


class CassetteError(ToolkitError):
    """A cassette file cannot be read, or one of its lines is not a recorded exchange; the
    message names the file (and the line). The file is left as it is."""

    hint = "Fix or delete the line it names, or record the cassette again (LLM_RECORD=...)."


class ScriptExhausted(ToolkitError):
    """The model was asked for more turns than its script has."""

    hint = (
        "Each turn answers one request: if you ran a cell again, run the cell that makes the model again; "
        "else add a turn (text for an answer, call(...) for a tool call). model.requests shows each request."
    )
