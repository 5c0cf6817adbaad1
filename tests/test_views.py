import re

import pytest
from html_tree import Tree

from toolkit.chat.messages import (
    AssistantMessage,
    ChatResponse,
    SystemMessage,
    TokenUsage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    to_openai,
)
from toolkit.views.conversation import (
    ConversationView,
    HtmlView,
    pair_results,
    render_conversation_html,
    render_conversation_text,
    render_response_html,
)


def conversation():
    return [
        SystemMessage(content="你是电商客服。"),
        UserMessage(content="订单 SN202610200001 到哪了？<script>alert(1)</script>"),
        AssistantMessage(
            tool_calls=(
                ToolCall(id="call_1", name="query_logistics", arguments='{"orderId":"SN202610200001"}'),
                ToolCall(id="call_2", name="query_order", arguments="{orderId: SN1"),
            )
        ),
        ToolResultMessage(
            tool_call_id="call_1",
            tool_name="query_logistics",
            content="运输中，杭州转运中心",
            attributes={"found_tools": ["query_logistics"]},
        ),
        ToolResultMessage(tool_call_id="call_2", tool_name="query_order", is_error=True, content="参数不是合法 JSON"),
        ToolResultMessage(tool_call_id="call_9", tool_name="query_refund_policy", content="七天无理由"),
        AssistantMessage(content="您的包裹正在运输途中。"),
    ]


USAGE = TokenUsage(input_tokens=120, output_tokens=30)


def cards(tree):
    return tree.find_all("tk-card")


def title(card):
    return card.find_all("tk-title")[0].text()


def test_one_card_per_message_results_nested_under_their_calls():
    tree = Tree(render_conversation_html(conversation()))
    top = [c for c in cards(tree) if c not in sum((x.find_all("tk-card") for x in cards(tree)), [])]
    assert [title(c).split(" ")[0] for c in top] == ["system", "user", "assistant", "tool", "assistant"]
    calls = top[2].find_all("tk-card")
    assert [title(c) for c in calls] == [
        "tool call · query_logistics call_1",
        "tool result · query_logistics",
        "tool call · query_order call_2 invalid JSON",
        "tool result · query_order error",
    ]
    first_call = calls[0]
    assert [title(c) for c in first_call.find_all("tk-card")] == ["tool result · query_logistics"]


def test_script_is_escaped_and_chinese_is_kept():
    out = render_conversation_html(conversation())
    assert "<script>" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "订单 SN202610200001 到哪了？" in out and "运输中，杭州转运中心" in out
    assert "\\u" not in out and "&#" not in out


def test_valid_arguments_are_pretty_and_invalid_ones_raw_with_a_badge():
    tree = Tree(render_conversation_html(conversation()))
    codes = [n.text() for n in tree.find_all("tk-code")]
    assert codes == ['{\n  "orderId": "SN202610200001"\n}', "{orderId: SN1"]
    bad = [b for b in tree.find_all("tk-badge") if b.text() == "invalid JSON"]
    assert len(bad) == 1 and "tk-error" in bad[0].classes


def test_error_result_is_styled_as_an_error():
    tree = Tree(render_conversation_html(conversation()))
    errors = [title(c) for c in cards(tree) if "tk-error" in c.classes]
    assert errors == ["tool result · query_order error"]


def test_orphan_result_gets_its_own_card_and_a_warning():
    tree = Tree(render_conversation_html(conversation()))
    (orphan,) = [c for c in cards(tree) if "answers no tool call" in title(c)]
    assert "tk-warn" in orphan.classes
    assert title(orphan) == "tool result · query_refund_policy answers no tool call call_9"
    assert "七天无理由" in orphan.text()


def test_result_before_its_call_is_an_orphan():
    messages = [
        ToolResultMessage(tool_call_id="c1", content="early"),
        AssistantMessage(tool_calls=(ToolCall(id="c1", name="f"),)),
    ]
    assert pair_results(messages) == ({}, [0])
    assert "no result yet" in render_conversation_html(messages)


def test_a_reused_call_id_attaches_to_the_latest_call():
    call = ToolCall(id="call_1", name="query_order", arguments="{}")
    messages = [
        AssistantMessage(tool_calls=(call,)),
        ToolResultMessage(tool_call_id="call_1", content="a"),
        AssistantMessage(tool_calls=(call,)),
        ToolResultMessage(tool_call_id="call_1", content="b"),
    ]
    assert pair_results(messages) == ({(0, 0): [1], (2, 0): [3]}, [])


def test_attributes_are_small_and_marked_not_sent():
    tree = Tree(render_conversation_html(conversation()))
    (attrs,) = [n for n in tree.find_all("tk-small") if "attributes" in n.text()]
    assert attrs.text() == 'attributes not sent to the modelfound_tools["query_logistics"]'


def test_usage_totals_come_last():
    tree = Tree(render_conversation_html(conversation(), USAGE))
    last = cards(tree)[-1]
    assert title(last) == "token usage"
    assert [n.text() for n in last.find_all("tk-td")] == ["120", "30", "150"]
    assert "token usage" not in render_conversation_html(conversation())


def test_render_is_deterministic_and_independent_of_object_identity():
    first = render_conversation_html(conversation(), USAGE, title="W3")
    assert first == render_conversation_html(conversation(), USAGE, title="W3")
    assert not re.search(r"0x[0-9a-f]{6,}|\bid=", first)


def test_wire_dicts_render_like_records():
    records = [m for m in conversation() if not isinstance(m, ToolResultMessage)]
    assert render_conversation_html(to_openai(records)) == render_conversation_html(records)


def test_empty_conversation():
    assert "(no messages)" in render_conversation_html([])
    assert render_conversation_text([]) == "(no messages)"


def test_transcript():
    assert render_conversation_text(conversation(), USAGE) == "\n".join(
        [
            "system: 你是电商客服。",
            "user: 订单 SN202610200001 到哪了？<script>alert(1)</script>",
            'assistant → query_logistics({"orderId": "SN202610200001"})',
            "assistant → query_order({orderId: SN1) [invalid JSON]",
            "tool[query_logistics]: 运输中，杭州转运中心",
            "tool[query_order] error: 参数不是合法 JSON",
            "tool[query_refund_policy] (answers no tool call): 七天无理由",
            "assistant: 您的包裹正在运输途中。",
            "tokens: input 120, output 30, total 150",
        ]
    )


def test_transcript_shortens_long_text_and_names_results_by_their_call():
    messages = [
        AssistantMessage(tool_calls=(ToolCall(id="c", name="query_order"),)),
        ToolResultMessage(tool_call_id="c", content="第一行\n第二行 " + "很长" * 200),
    ]
    lines = render_conversation_text(messages).split("\n")
    assert lines[0] == "assistant → query_order({})"
    assert lines[1].startswith("tool[query_order]: 第一行 第二行 很长")
    assert lines[1].endswith("…") and len(lines[1]) == len("tool[query_order]: ") + 200


def test_response_view():
    message = AssistantMessage(tool_calls=(ToolCall(id="call_1", name="query_order", arguments="{}"),))
    response = ChatResponse(
        message=message,
        finish_reason="tool_calls",
        model="fake-keyword",
        usage=TokenUsage(input_tokens=10, output_tokens=5),
        id="chatcmpl-123",
    )
    out = render_response_html(response)
    tree = Tree(out)
    assert [n.text() for n in tree.find_all("tk-th")] == ["finish reason", "model", "tokens"]
    assert [n.text() for n in tree.find_all("tk-td")] == [
        "tool_calls",
        "fake-keyword",
        "input 10 · output 5 · total 15",
    ]
    assert "no result yet" not in out and "chatcmpl-123" not in out
    assert out == render_response_html(response)


def test_widget_bundle_carries_html_and_a_deterministic_transcript():
    view = ConversationView(conversation(), USAGE)
    bundle = view._repr_mimebundle_()
    assert bundle["text/html"] == view.value == render_conversation_html(conversation(), USAGE)
    assert bundle["text/plain"] == render_conversation_text(conversation(), USAGE)
    model_id = bundle["application/vnd.jupyter.widget-view+json"]["model_id"]
    for text in (bundle["text/html"], bundle["text/plain"]):
        assert model_id not in text and not re.search(r"0x[0-9a-f]{6,}", text)


def test_widget_updates():
    view = ConversationView(title="live")
    assert "(no messages)" in view.value and ">live<" in view.value
    view.update(conversation()[:2])
    assert "订单 SN202610200001" in view.value and ">live<" in view.value
    assert view._repr_mimebundle_()["text/plain"].startswith("system: 你是电商客服。\nuser: ")


def test_html_view_is_reusable():
    view = HtmlView("<b>x</b>", "x")
    view.show("<i>y</i>", "y")
    bundle = view._repr_mimebundle_()
    assert (bundle["text/html"], bundle["text/plain"]) == ("<i>y</i>", "y")


@pytest.mark.parametrize("finish,kind", [("stop", "tk-ok"), ("length", "tk-warn"), (None, "tk-info")])
def test_finish_reason_badge(finish, kind):
    response = ChatResponse(message=AssistantMessage(content="hi"), finish_reason=finish)
    (b,) = Tree(render_response_html(response)).find_all("tk-badge")
    assert kind in b.classes and b.text() == (finish or "none")


def test_a_refusal_is_shown_as_one_not_as_an_empty_reply():
    refused = AssistantMessage(refusal="I can't help with that.")
    messages = [UserMessage(content="q"), refused]
    assert render_conversation_text(messages).splitlines()[-1] == "assistant (refusal): I can't help with that."
    html = render_conversation_html(messages)
    assert "I can&#x27;t help with that." in html or "I can't help with that." in html
    assert "(empty reply)" not in html


def test_calls_sharing_an_id_in_one_message_get_one_result_each():
    """A gateway that sends no ids (or `call_0` for every call): both results went under the last
    call, the first said "no result yet", and the transcript named result A after the last tool."""
    for same in ("", "call_0"):
        messages = [
            AssistantMessage(
                tool_calls=(
                    ToolCall(id=same, name="query_order", arguments="{}"),
                    ToolCall(id=same, name="query_logistics", arguments="{}"),
                )
            ),
            ToolResultMessage(tool_call_id=same, content="A"),
            ToolResultMessage(tool_call_id=same, content="B"),
        ]
        assert pair_results(messages) == ({(0, 0): [1], (0, 1): [2]}, [])
        assert render_conversation_text(messages).splitlines()[2:] == [
            "tool[query_order]: A",
            "tool[query_logistics]: B",
        ]
        assert "no result yet" not in render_conversation_html(messages)
    named = [
        messages[0],
        ToolResultMessage(tool_call_id="call_0", tool_name="query_logistics", content="B"),
        ToolResultMessage(tool_call_id="call_0", tool_name="query_order", content="A"),
        ToolResultMessage(tool_call_id="call_0", content="again"),  # past them: the last call
    ]
    assert pair_results(named) == ({(0, 1): [1, 3], (0, 0): [2]}, [])
