"""Week 0 exercise: which gateway does `connect()` pick?

Leaves out: anything that needs a real gateway (the check never sends a request).
"""

from __future__ import annotations

from typing import Any

from toolkit.exercises.answers import dict_answer_problem, misses, verdict_of
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import Verdict
from toolkit.exercises.values import show

CASES = {
    "no variables": {},
    "all three": {"LLM_BASE_URL": "https://gw.example/v1", "LLM_API_KEY": "placeholder", "LLM_MODEL": "m"},
    "only LLM_BASE_URL": {"LLM_BASE_URL": "https://gw.example/v1"},
}


def what_connect_does(env: dict[str, str]) -> str:
    from toolkit.chat.switch import connect
    from toolkit.errors import ConfigurationError

    try:
        client = connect(env=env)
    except ConfigurationError:
        return "error"
    kind = "real" if client.label.startswith("real") else "fake"
    client.close()
    return kind


@answer_exercise(
    "w0.switch",
    "predict what connect() gives for three settings of the LLM_* variables: 'fake', 'real' or 'error'",
    answer={"no variables": "fake", "all three": "real", "only LLM_BASE_URL": "error"},
    comment='"fake", "real" or "error"',
    column=32,
    hint="connect() never falls back quietly: half a configuration is a mistake, not a reason to use the fake.",
)
def check_switch(answer: Any) -> Verdict:
    if problem := dict_answer_problem(answer, CASES, ("fake", "real", "error")):
        return problem
    actual = {case: what_connect_does(env) for case, env in CASES.items()}
    found = misses(answer, actual, lambda case, said, real: f"{case}: connect() does not give {show(said)}")
    return verdict_of(
        found, "connect() is the one switch: nothing set → the embedded fake, all three → real, else an error."
    )
