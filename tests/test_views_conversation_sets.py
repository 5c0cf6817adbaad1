"""`toolkit.views.conversation`: a hand-built message dict holding a set. The reason shown came from
an error text quoting the set's repr, in hash order: another text in each process (a saved
notebook's output changed on every run). The set is now named where it stands, not listed."""

import pytest

from toolkit.views.conversation import ConversationView, render_conversation_html, render_conversation_text

WORDS = frozenset({"alpha", "beta", "gamma", "delta", "epsilon"})
REASON = "{} is a set, which has no order and no JSON form: a message holds text, lists and objects"


@pytest.mark.parametrize(
    ("item", "where"),
    [
        ({"role": "assistant", "tool_calls": set(WORDS)}, "tool_calls"),
        ({"role": "assistant", "tool_calls": [set(WORDS)]}, "tool_calls[0]"),
        ({"role": "assistant", "tool_calls": [{"id": "c", "function": WORDS}]}, "tool_calls[0].function"),
        ({"role": set(WORDS), "content": "x"}, "role"),
        ({"role": "user", "content": set(WORDS)}, "content"),
    ],
)
def test_a_set_in_an_unreadable_dict_is_named_not_listed(item, where):
    raw = render_conversation_text([item]).split(") ", 1)[1]
    assert render_conversation_text([item]) == f"(not a message this view can read: {REASON.format(where)}) {raw}"
    assert REASON.format(where) in render_conversation_html([item])
    assert "'alpha'" not in ConversationView([item])._text


def test_a_dict_with_a_set_that_reads_as_a_message_is_shown_as_one():
    """Only a dict that fails to read is looked into: an unknown key holding a set is ignored, as before."""
    assert render_conversation_text([{"role": "user", "content": "hi", "tags": set(WORDS)}]) == "user: hi"
