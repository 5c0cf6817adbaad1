"""`toolkit.gateway.decide`'s shortcuts give what the long way gives."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolkit.course.accuracy import load_cases
from toolkit.gateway.decide import _conversation_facts, _last_order_id
from toolkit.gateway.rules import find_order_id, load_rules, read_text

RULES = load_rules()
QUESTIONS = [case.question for case in load_cases()]
turns = st.lists(
    st.tuples(
        st.sampled_from(["user", "assistant", "tool", "system"]), st.sampled_from(QUESTIONS) | st.text(max_size=20)
    ),
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(turns)
def test_the_last_order_id_is_the_one_the_conversation_facts_hold(turns):
    messages = [{"role": role, "content": text} for role, text in turns]
    assert _last_order_id(messages, RULES) == _conversation_facts(messages, RULES)[0].order_id


def test_find_order_id_is_the_order_id_read_text_finds():
    for text in [*QUESTIONS, "", "SN2026102000011", "xSN202610200001", "两个 SN202610200001 SN202610200002"]:
        assert find_order_id(text, RULES) == read_text(text, RULES).order_id


def test_a_mention_is_found_where_the_plain_search_finds_it():
    """`_mention` is one regular-expression search; the plain search tried each occurrence in turn."""
    for seed in range(300):  # one test, many cases (a test each cost more to collect than to run)
        import random

        from toolkit.gateway.decide import _mention

        def plain(text, name):
            def ident(ch):
                return ch != "" and ch.isascii() and (ch.isalnum() or ch in "_-")

            start = text.find(name)
            while start != -1:
                end = start + len(name)
                if not ident(text[start - 1 : start]) and not ident(text[end : end + 1]):
                    return end
                start = text.find(name, start + 1)
            return None

        rng = random.Random(seed)
        pieces = ["a", "ab", "_", "-", " ", "查", "é", "1", ".", "(", "{", "\n", "Ab"]
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 20)))
        name = "".join(rng.choice(["a", "b", "_", "-", "A", "1", ".", "查"]) for _ in range(rng.randrange(0, 4)))
        assert _mention(text, name) == plain(text, name)


def _plain_summarise(result, rules):
    """`summarise` as it was first written: every line split into sentences, each one searched."""
    from toolkit.gateway.decide import _SENTENCE_END, json_items

    kept = []
    items = json_items(result)
    if items:  # a JSON object or array: its items, each kept whole
        for item in items:
            if item.strip():
                kept.append(item.strip().rstrip("。；;"))
            if len(kept) == rules.summary_lines:
                break
        return "；".join(kept) or "没有返回任何内容"
    for line in result.splitlines():
        sentences = [s for s in _SENTENCE_END.split(line.strip()) if s.strip() and not rules.drop_sentences.search(s)]
        if sentences:
            kept.append("".join(sentences).strip().rstrip("。；;"))
        if len(kept) == rules.summary_lines:
            break
    return "；".join(kept) or "没有返回任何内容"


WORDS = ["请勿编造", "不要编造", "不要猜测", "状态：已发货", "单号", "ok"]
PIECES = [*WORDS, "。", "！", "?", "；", ";", " ", "\t", "\n", "\r\n"]
DROPS = [None, "不要编造|请告知用户", "^状态", "单号$", "\\bok", "(?<=。)单号", "。 ", "a|。"]


@settings(max_examples=500, deadline=None)
@example(result="x\n状态：已发货", drop="^状态", lines=3)  # a line starts with it, the result does not
@example(result='["", "ok。", 1]', drop=None, lines=1)  # a JSON array: its items
@given(
    result=st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=12).map("".join),
    drop=st.sampled_from(DROPS),
    lines=st.integers(-1, 4),
)
def test_a_summary_is_what_splitting_every_line_into_sentences_gives(result, drop, lines):
    """A line the local `drop_sentences` does not match is kept whole, without splitting it."""
    import dataclasses
    import re
    from unittest import mock

    from toolkit.gateway import decide
    from toolkit.gateway.decide import summarise

    rules = dataclasses.replace(RULES, summary_lines=lines)
    if drop is not None:
        rules = dataclasses.replace(rules, drop_sentences=re.compile(drop))
    assert summarise(result, rules) == _plain_summarise(result, rules)
    with mock.patch.object(decide, "_SEARCHED_WHOLE", 0):  # a long result: not searched whole first
        assert summarise(result, rules) == _plain_summarise(result, rules)


ANSWER_WORDS = [w for a in RULES.answers for w in a.words or ()]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*ANSWER_WORDS, *PIECES]) | st.text(max_size=3), max_size=10).map("".join))
def test_the_answer_template_is_the_first_whose_words_the_result_holds(result):
    """`_template` looks for each `[[answer]]`'s words with `in`: the template its regex gives."""
    from toolkit.gateway.decide import _template, _template_plainly

    assert ANSWER_WORDS  # the course's rules have answers made of words
    assert _template(result, RULES) == _template_plainly(result, RULES)
    for word in ANSWER_WORDS:
        assert _template(result + word, RULES) == _template_plainly(result + word, RULES)


def _plain_found_by_results(messages, offered, rules):
    """`_found_by_results` as first written: the unruled tools, not called since the user spoke,
    that the results mention."""
    from toolkit.gateway.decide import (
        Decision,
        _called_since_user,
        _conversation_facts,
        _generic_calls,
        _mention,
        _system_text,
        _trailing_results,
        _unruled,
    )

    unruled = _unruled(offered, rules)
    if not unruled:
        return None
    results = "\n".join(_trailing_results(messages))
    called = _called_since_user(messages)
    named = {n: info for n, info in unruled.items() if n not in called and _mention(results, n) is not None}
    if not named:
        return None
    facts, text = _conversation_facts(messages, rules)
    calls = _generic_calls(text, named, facts, rules, _system_text(messages))
    return Decision(calls=calls, order_id=facts.order_id) if calls else None


TOOL_NAMES = ["query_order", "get_weather", "search_tools", "get_weather_v2", "send_email"]


@settings(max_examples=300, deadline=None)
@example(names=["get_weather", "send_email"], called=["get_weather"], results=[["get_weather"]], question="weather")
@given(
    names=st.lists(st.sampled_from(TOOL_NAMES), min_size=1, max_size=4, unique=True),
    called=st.lists(st.sampled_from(TOOL_NAMES), max_size=2),
    results=st.lists(st.lists(st.sampled_from([*TOOL_NAMES, " ", "x", "-", "weather", "。"]), max_size=5), max_size=3),
    question=st.sampled_from(
        ["weather", "what is the weather in Paris?", "send an email", "查一下订单 SN202610200001", ""]
    ),
)
def test_the_tools_results_name_are_found_as_the_plain_way_finds_them(names, called, results, question):
    from toolkit.gateway.decide import _found_by_results
    from toolkit.gateway.toolset import prepare

    tools = [{"type": "function", "function": {"name": n, "description": f"{n} tool"}} for n in names]
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": "{}"}} for i, n in enumerate(called)
    ]
    messages = [{"role": "user", "content": question}, {"role": "assistant", "content": None, "tool_calls": calls}]
    messages += [{"role": "tool", "tool_call_id": "c0", "content": "".join(r)} for r in results or [[]]]
    prepared = prepare(tools)
    expected = _plain_found_by_results(messages, prepared.offered, RULES)
    assert _found_by_results(messages, prepared.offered, RULES, prepared) == expected
    assert _found_by_results(messages, dict(prepared.offered), RULES) == expected


JSON_RESULTS = [
    # mcp-server-time's convert_time, as week 9 shows it: each top-level key an item, an object's fields key=value
    (
        '{\n  "source": {\n    "timezone": "UTC",\n    "datetime": "2026-12-06T12:00:00+00:00",\n    "is_dst": false\n'
        '  },\n  "target": {\n    "timezone": "Asia/Tokyo"\n  },\n  "time_difference": "+9.0h"\n}',
        "source: timezone=UTC, datetime=2026-12-06T12:00:00+00:00, is_dst=false；target: timezone=Asia/Tokyo；"
        "time_difference: +9.0h",
    ),
    (
        '{"tool": "cancel_order", "ok": true, "arguments": {"order_id": "SO-10023"}}',
        "tool: cancel_order；ok: true；arguments: order_id=SO-10023",
    ),
    ('[{"city": "北京", "temp": 21.5}, [1, [2]], null, "晴"]', "city=北京, temp=21.5；1, [2]；null"),
    ('{"a": {}, "b": [], "c": "x。"}', "a: {}；b: []；c: x"),
    # not a JSON object or array: read by lines, as before
    ("{not json}\nsecond", "{not json}；second"),
    ('"a string"', '"a string"'),
    ("[]", "[]"),
]


@pytest.mark.parametrize(("result", "summary"), JSON_RESULTS)
def test_a_json_result_is_summarised_by_its_items_not_its_lines(result, summary):
    """Read by lines, a pretty-printed object answered "为您查到：{；"source": {；"timezone": "UTC",。"."""
    from toolkit.gateway.decide import summarise

    assert summarise(result, RULES) == summary
