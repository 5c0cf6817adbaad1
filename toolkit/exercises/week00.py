"""Week 0 exercise: which gateway does `connect()` pick?

Leaves out: anything that needs a real gateway (the check never sends a request).
"""

from __future__ import annotations

from typing import Any

from toolkit.exercises.core import Verdict, exercise, right, wrong

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


@exercise(
    "w0.switch",
    0,
    "predict",
    "predict what connect() gives for three settings of the LLM_* variables: 'fake', 'real' or 'error'",
    starter="""
        from toolkit.exercises import check

        answer = {
            "no variables": ...,        # "fake", "real" or "error"
            "all three": ...,
            "only LLM_BASE_URL": ...,
        }
        check("w0.switch", answer)
        """,
    solution="""
        from toolkit.exercises import check

        answer = {
            "no variables": "fake",
            "all three": "real",
            "only LLM_BASE_URL": "error",
        }
        check("w0.switch", answer)
        """,
    hint="connect() never falls back quietly: half a configuration is a mistake, not a reason to use the fake.",
)
def check_switch(answer: Any) -> Verdict:
    if not isinstance(answer, dict) or set(answer) != set(CASES):
        return wrong(f"answer with a dict with exactly these keys: {', '.join(CASES)}")
    misses = []
    for case, env in CASES.items():
        actual = what_connect_does(env)
        if answer[case] != actual:
            misses.append(f"{case}: you said {answer[case]!r}, connect() gives {actual!r}")
    if not misses:
        return right("connect() is the one switch: nothing set → the embedded fake, all three → real, else an error.")
    return wrong("; ".join(misses))
