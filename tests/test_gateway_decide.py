"""`toolkit.gateway.decide`'s shortcuts give what the long way gives."""

from hypothesis import given, settings
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
