"""Week 1 exercises: messages as records and wire JSON, the raw exchange, usage, keyword rules.

Leaves out: streaming (week 2 checks what a cut stream does).
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import TYPE_CHECKING, Any

from toolkit.exercises.answers import (
    as_list,
    dict_answer_problem,
    made_a_list,
    misses,
    printed,
    unquoted,
    verdict_of,
)
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import (
    LearnerError,
    Verdict,
    answers_first,
    attempt,
    exercise,
    left_as_given,
    own_work,
    reference,
    right,
    wrong,
)
from toolkit.exercises.values import show

if TYPE_CHECKING:
    from toolkit.chat.messages import TokenUsage

WIRE = [
    {"role": "system", "content": "你是一个电商售后助手，回答简短。"},
    {"role": "user", "content": "你好"},
    {"role": "assistant", "content": "您好！请问有什么可以帮您？"},
    {"role": "user", "content": "SN202610200001 发货了吗？"},
]
_WIRE = copy.deepcopy(WIRE)
"""The checker's own copy: a learner who changes WIRE (it is imported into the notebook) cannot change the truth."""


@exercise(
    "w1.records",
    1,
    "write",
    "write the four wire messages WIRE as toolkit records (SystemMessage, UserMessage, …)",
    starter="""
        from toolkit import AssistantMessage, SystemMessage, UserMessage
        from toolkit.exercises import check
        from toolkit.exercises.week01 import WIRE

        answer = [...]   # one record per message of WIRE, in order
        check("w1.records", answer)
        """,
    solution="""
        from toolkit import AssistantMessage, SystemMessage, UserMessage
        from toolkit.exercises import check
        from toolkit.exercises.week01 import WIRE

        answer = [SystemMessage(content=WIRE[0]["content"]), UserMessage(content=WIRE[1]["content"]),
                  AssistantMessage(content=WIRE[2]["content"]), UserMessage(content=WIRE[3]["content"])]
        check("w1.records", answer)
        """,
    hint="the `role` of each dict names the record class; `message_from_openai()` (from toolkit.chat.messages) is the package's own converter.",
)
def check_records(answer: Any) -> Verdict:
    message_from_openai = reference("toolkit.chat.messages", "message_from_openai")

    records = as_list(answer)
    if records is None:
        return wrong(f"answer with a list of records{made_a_list(answer)}")
    if len(records) != len(_WIRE):
        return wrong(f"WIRE has {len(_WIRE)} messages, your list has {len(records)}")
    for i, (record, wire) in enumerate(zip(records, _WIRE, strict=True), 1):
        expected = message_from_openai(wire)
        if type(record) is not type(expected):
            return wrong(
                f"message {i} has role {wire['role']!r}: that is {_a(type(expected).__name__)}, "
                f"you wrote {_written(record)}"
            )
        if record != expected:
            return wrong(
                f"message {i}: the record's wire form is {json.dumps(record.to_openai(), ensure_ascii=False)},"
                f" not {json.dumps(wire, ensure_ascii=False)}"
            )
    return right("each record's to_openai() is exactly the wire dict, and message_from_openai() goes back.")


def _written(value: Any) -> str:
    """What a learner put where a record goes, as said aloud: None, a class left uncalled (not its
    metaclass's name), or an instance by its class: a dict, a UserMessage."""
    if value is None:
        return "None"
    if isinstance(value, type):
        return f"the class {value.__name__} itself, not a record made with it"
    return _a(type(value).__name__)


def _a(name: str) -> str:
    """A class name with its article, as said aloud: an AssistantMessage, an int, a UserMessage."""
    return f"{'an' if name[:1].upper() in 'AEIO' else 'a'} {name}"


@answer_exercise(
    "w1.usage_path",
    "where in the raw response body are the input tokens? answer a dotted path such as 'a.b'",
    answer="usage.prompt_tokens",
    comment='e.g. "choices.0.message" — the path to the number of input tokens',
    hint="read the body of one plain call (a stream's body is SSE lines, not JSON), at its end: `import json; "
    "from toolkit import UserMessage, fake_client; c = fake_client(); c.chat([UserMessage(content='你好')]); "
    "print(json.loads(c.exchanges[-1].response_text))`",
)
def check_usage_path(answer: Any) -> Verdict:
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.switch import fake_client

    client = fake_client()
    reply = client.chat([UserMessage(content="你好")])
    value: Any = json.loads(client.exchanges[-1].response_text)
    if not isinstance(answer, str) or not answer.strip():
        return wrong("answer with a dotted path as a string, e.g. 'usage.total_tokens'")
    answer = dotted(answer)
    walked: list[str] = []
    for part in answer.split("."):
        if isinstance(value, list) and part.isdecimal() and int(part) < len(value):  # not isdigit: int('²') fails
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return wrong(f"the body has no {part!r} {_there(walked, value)}")
        walked.append(part)
    if value == reply.usage.input_tokens and answer.endswith("prompt_tokens"):
        return right(f"the gateway reports {value} input tokens in `usage.prompt_tokens`; TokenUsage reads it.")
    if answer.endswith("completion_tokens"):
        return wrong("completion_tokens are the tokens the model wrote (output), not the ones it read")
    if answer.endswith("total_tokens"):
        return wrong("total_tokens is input + output; the input alone has its own key")
    if isinstance(value, dict):  # not its values: the input count beside its key would be the answer
        return wrong(f"{answer!r} is an object, not the input token count; its keys are {sorted(value)}")
    if isinstance(value, list):
        return wrong(
            f"{answer!r} is a list of {len(value)}, not the input token count; go on with an index from 0 to "
            f"{len(value) - 1}"
        )
    return wrong(f"that path holds {value!r}, not the input token count ({reply.usage.input_tokens})")


def dotted(path: str) -> str:
    """A path to a value of the body in the dotted form: spaces around it or its dots dropped, and
    the other ways of writing one read as it — JSONPath (`$.usage.prompt_tokens`), brackets
    (`usage["prompt_tokens"]`, `choices[0]`) and a JSON Pointer (`/usage/prompt_tokens`, its leading
    slash left out too); quotes or backticks around it, as a text writes a path, are not part of it."""
    text = unquoted(path)
    if "/" in text and "." not in text:
        text = text.replace("/", ".")
    text = _BRACKET.sub(lambda m: "." + "".join(g or "" for g in m.groups()), text)
    text = text.removeprefix("$")
    return ".".join(part.strip() for part in text.strip(".").split("."))


_BRACKET = re.compile(r"""\[(?:\s*'([^']*)'\s*|\s*"([^"]*)"\s*|([^\['"\]]*))\]""")
"""A bracketed key or index (`['usage']`, `["usage"]`, `[0]`, spaces inside kept for `dotted` to drop). No two
parts of it can take the same characters: with `\\s*` around a part that takes spaces too, a bracket then
thousands of spaces was tried every way of sharing them (cubic: 2,000 spaces took 9 s)."""


def _there(walked: list[str], value: Any) -> str:
    """Where a dotted path stopped, and what could follow there."""
    place = f"under {'.'.join(walked)!r}" if walked else "at the top level"
    if isinstance(value, dict):
        return f"{place}; the keys there are {sorted(value)}"
    if isinstance(value, list):
        return f"{place}; that is a list of {len(value)}, so use an index from 0 to {len(value) - 1}"
    return f"{place}; that is the value {value!r}, the path ends there"


@exercise(
    "w1.usage_build",
    1,
    "build",
    "write usage_from_body(body) → TokenUsage from a response body, as TokenUsage.from_openai does",
    starter="""
        from toolkit import TokenUsage
        from toolkit.exercises import check


        def usage_from_body(body):
            return ...   # a TokenUsage read from body["usage"] (it may be missing or null)


        check("w1.usage_build", usage_from_body)
        """,
    solution="""
        from toolkit import TokenUsage
        from toolkit.exercises import check


        def usage_from_body(body):
            usage = body.get("usage") or {}

            def count(value):  # a count the gateway did not send (or sent broken) is not reported
                if isinstance(value, float) and value.is_integer():
                    value = int(value)  # JSON has one number type: 12.0 is the count 12
                return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None

            return TokenUsage(input_tokens=count(usage.get("prompt_tokens")),
                              output_tokens=count(usage.get("completion_tokens")))


        check("w1.usage_build", usage_from_body)
        """,
    hint="a gateway may send no `usage`, `usage: null`, or a usage without completion_tokens: a count it did "
    'not send is None ("not reported"), never 0 — and so is one it sent broken (negative, or not a whole number; '
    "12.0 is a whole number: JSON has one number type).",
)
def check_usage_build(fn: Any) -> Verdict:
    from toolkit.chat.messages import TokenUsage

    from_openai = reference("toolkit.chat.messages", "TokenUsage", "from_openai")
    counted = reference("toolkit.chat.messages", "_count")  # the rule itself: a learner may import it too
    rng = random.Random(1)
    bodies: list[dict[str, Any]] = [{}, {"usage": None}, {"usage": {}}, {"usage": {"prompt_tokens": 7}}]
    for _ in range(40):
        p, c = rng.randint(0, 5000), rng.randint(0, 900)
        bodies.append({"usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}})
    for _ in range(2):  # a reported zero is a count (a reply cut at once); a null count was not reported
        p = rng.randint(1, 5000)
        bodies += [
            {"usage": {"prompt_tokens": p, "completion_tokens": 0, "total_tokens": p}},
            {"usage": {"prompt_tokens": 0, "completion_tokens": p, "total_tokens": p}},
            {"usage": {"prompt_tokens": p, "completion_tokens": None, "total_tokens": None}},
            {"usage": {"prompt_tokens": None, "completion_tokens": p, "total_tokens": None}},
        ]
    for _ in range(2):  # a broken count (negative, or not a whole number) is not reported either: it is not a count
        p, c = rng.randint(1, 5000), rng.randint(1, 900)
        bodies += [
            {"usage": {"prompt_tokens": p, "completion_tokens": -1, "total_tokens": p - 1}},
            {"usage": {"prompt_tokens": str(p), "completion_tokens": c, "total_tokens": p + c}},
            {"usage": {"prompt_tokens": p, "completion_tokens": c + 0.5, "total_tokens": p + c + 0.5}},
        ]
    p = rng.randint(1, 5000)  # JSON's true is no count, though Python's bool is an int
    bodies.append({"usage": {"prompt_tokens": p, "completion_tokens": True, "total_tokens": p + 1}})
    p, c = rng.randint(1, 5000), rng.randint(1, 900)  # JSON has one number type: a count may come as 12.0
    bodies += [
        {"usage": {"prompt_tokens": float(p), "completion_tokens": c, "total_tokens": float(p + c)}},
        {"usage": {"prompt_tokens": p, "completion_tokens": float(c), "total_tokens": float(p + c)}},
    ]

    def run(body: dict[str, Any]) -> Any:
        given = copy.deepcopy(body)  # a copy: emptying it must not change the expected answer
        with own_work((from_openai, counted)):
            got = attempt(fn, given)
        left_as_given("usage_from_body(body)", "body", body, given, "its caller may read that body again")
        return got

    for body, got in answers_first(bodies, run, settled=lambda got: got is None):  # never a TokenUsage
        want = from_openai(body.get("usage"))
        if isinstance(got, LearnerError):  # said with the body it failed on: a null usage is the usual one
            if broken := _broken_counts(body, want):
                return wrong(
                    f"for usage {json.dumps(body['usage'])} your code raised {got}{_broken_tip(broken, body['usage'])}"
                )
            return wrong(f"for {json.dumps(body)} your code raised {got}")
        if not isinstance(got, TokenUsage):
            return wrong(
                f"for {json.dumps(body)} you returned {show(got)}, not a TokenUsage: return "
                f"TokenUsage(input_tokens=..., output_tokens=...){printed(got)}"
            )
        if got != want:
            if not body.get("usage"):
                return wrong(
                    f"for {json.dumps(body)} you returned {show(got)}: with no usage reported, each count is None "
                    '("not reported"), not 0 — a zero would claim the request was free'
                )
            tip = " — 0 is a count the gateway reported, not a missing one" if 0 in body["usage"].values() else ""
            if broken := _broken_counts(body, want):
                tip = _broken_tip(broken, body["usage"])
            elif whole := _whole_floats(body["usage"], got, want):
                tip = _whole_float_tip(whole, body["usage"])
            return wrong(f"for usage {json.dumps(body['usage'])} you returned {show(got)}, expected {want!r}{tip}")
    return right(
        f"same as TokenUsage.from_openai on {len(bodies)} bodies, including missing and null usage, zero, null, "
        "whole-float and broken counts."
    )


def _broken_counts(body: dict[str, Any], read: TokenUsage) -> list[str]:
    """The counts of `body`'s usage that a gateway sent broken: given (not None) but `read` (what
    `TokenUsage.from_openai` made of them) says not reported (a count is a whole number, 0 or more)."""
    usage = body.get("usage") or {}
    fields = (("prompt_tokens", read.input_tokens), ("completion_tokens", read.output_tokens))
    return [key for key, value in fields if usage.get(key) is not None and value is None]


def _whole_floats(usage: dict[str, Any], got: TokenUsage, want: TokenUsage) -> list[str]:
    """The counts of `usage` sent as a whole float (12.0) that `want` (from_openai) counts and `got` left out."""
    fields = (
        ("prompt_tokens", got.input_tokens, want.input_tokens),
        ("completion_tokens", got.output_tokens, want.output_tokens),
    )
    return [
        key for key, mine, theirs in fields if isinstance(usage.get(key), float) and mine is None and theirs is not None
    ]


def _whole_float_tip(keys: list[str], usage: dict[str, Any]) -> str:
    """Why the first of `keys` (a count sent as 12.0) is a count: JSON writes every number one way."""
    key = keys[0]
    value = usage[key]
    return (
        f" — {key} is {value!r}, a whole number: JSON has one number type, so a gateway that counts in JavaScript "
        f"sends {value!r} for {int(value)}, and from_openai reads it as that count"
    )


def _broken_tip(keys: list[str], usage: dict[str, Any]) -> str:
    said = " and ".join(keys)
    bools = [json.dumps(usage[key]) for key in keys if isinstance(usage[key], bool)]
    return (
        f" — {said} is not a count (a whole number, 0 or more): a broken count is not reported (None), as "
        "from_openai reads it"
        + (
            f"; {' and '.join(dict.fromkeys(bools))} is a bool, which Python's isinstance(…, int) accepts"
            if bools
            else ""
        )
    )


QUESTIONS = ("SN202610200004 发货了吗？", "数码产品能不能退？", "你好", "订单 SN202610200001 付了多少钱？")


@answer_exercise(
    "w1.keyword_rules",
    "predict which tool the fake model calls (or None) for four questions when week 3's tools are offered",
    answer={
        "SN202610200004 发货了吗？": "query_logistics",
        "数码产品能不能退？": "query_refund_policy",
        "你好": None,
        "订单 SN202610200001 付了多少钱？": "query_order",
    },
    comment='"query_order", "query_logistics", "query_refund_policy" or None',
    column=42,
    imports=["from toolkit.exercises.week01 import QUESTIONS"],
    hint="look for each question's words among the `keywords` of the [[intent]] tables in gateway_rules.toml "
    "(a match calls that intent's `tool`); for an order id that no intent's words match, read [fallback].",
)
def check_keyword_rules(answer: Any) -> Verdict:
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.switch import fake_client
    from toolkit.course.assistant import TOOL_SPECS

    offered = [spec["function"]["name"] for spec in TOOL_SPECS]
    if problem := dict_answer_problem(
        answer, QUESTIONS, (*offered, None), expected="a dict with the four questions as keys"
    ):
        return problem
    client = fake_client()

    def called(question: str) -> str | None:
        calls = client.chat([UserMessage(content=question)], tools=TOOL_SPECS).message.tool_calls
        return calls[0].name if calls else None

    actual = {q: called(q) for q in QUESTIONS}
    found = misses(answer, actual, lambda q, said, real: f"{q} → the fake model does not call {show(said)}")
    return verdict_of(
        found, "the keyword rules are data (gateway_rules.toml): you can read what the fake model will do."
    )
