"""`toolkit.loop.images`: a tool's images reach the model in one user message after the round's
tool results (issue 15 item 14; LangChain4j's `DefaultToolExecutor` turns a returned image into
multimodal content, and OpenAI's chat completions lets only a user message carry it)."""

import base64

import pytest

from toolkit.chat.messages import AssistantMessage, ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call, reset_call_ids
from toolkit.loop.images import pass_on_images
from toolkit.loop.run import COURSE, LoopOptions, run_loop
from toolkit.loop.texts import EN, ZH
from toolkit.memory.windows import ChatMemory
from toolkit.tools.decorator import tool
from toolkit.tools.execute import ToolOutput

PNG = "data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(1192)).decode()
GIF = "data:image/gif;base64,R0lGODlhAQABAAAAACw="


def result(images, content="a chart:", call_id="call_1", name="chart"):
    return ToolResultMessage(tool_call_id=call_id, tool_name=name, content=content, attributes={"images": images})


def test_images_go_in_one_user_message_and_the_result_points_to_it():
    results, message = pass_on_images([result([PNG, GIF])], EN)
    assert results[0].content == (
        "a chart:\n[images of this result passed on in the user message after the tool results: 2]"
    )
    assert results[0].attributes == {"images": [PNG, GIF]}  # what the tool returned is kept
    assert message == UserMessage(
        content="Images returned by tool call call_1 (chart): 2", images=(PNG, GIF), from_tool_calls=("call_1",)
    )


def test_results_without_images_are_untouched_and_no_message_is_made():
    plain = ToolResultMessage(tool_call_id="c", tool_name="t", content="ok")
    assert pass_on_images([plain, result([])], EN) == ([plain, result([])], None)
    assert pass_on_images([plain], EN) == ([plain], None)  # no attributes at all: decided at once
    other = ToolResultMessage(tool_call_id="c", tool_name="t", content="ok", attributes={"found_tools": ["x"]})
    assert pass_on_images([plain, other], EN) == ([plain, other], None)


@pytest.mark.parametrize(
    "image, why",
    [
        ("ftp://example.com/a.png", "not a data: or http(s):// URL"),
        (42, "not a data: or http(s):// URL"),
        ({"url": PNG}, "not a data: or http(s):// URL"),
        ("data:image/png;base64,not base64!", "not a base64 data: URL with a media type"),
        ("data:,hello", "not a base64 data: URL with a media type"),
        (
            "data:image/svg+xml;base64,PHN2Zy8+",
            "image/svg+xml is not a format chat models take (png, jpeg, gif, webp)",
        ),
    ],
)
def test_an_invalid_image_is_named_not_sent_and_nothing_raises(image, why):
    results, message = pass_on_images([result([GIF, image])], EN)
    assert results[0].content == (
        "a chart:\n[images of this result passed on in the user message after the tool results: 1]\n"
        f"[images of this result not passed on: image 2 ({why})]"
    )
    assert message is not None and message.images == (GIF,)


def test_the_caps_name_what_they_leave_out():
    results, message = pass_on_images([result([PNG, GIF]), result([GIF], call_id="call_2")], EN, max_image_bytes=1000)
    assert results[0].content == (
        "a chart:\n[images of this result passed on in the user message after the tool results: 1]\n"
        "[images of this result not passed on: image 1 (1.2 KB, over the limit of 1.0 KB)]"
    )
    assert message is not None and message.images == (GIF, GIF)
    results, message = pass_on_images([result([GIF, GIF]), result([GIF], call_id="call_2")], EN, max_images=1)
    assert [r.content.splitlines()[-1] for r in results] == [
        "[images of this result not passed on: image 2 (over the limit on images per round (1))]",
        "[images of this result not passed on: image 1 (over the limit on images per round (1))]",
    ]
    assert message is not None and message.content == "Images returned by tool call call_1 (chart): 1"


def test_all_dropped_makes_no_message_and_a_string_attribute_is_one_image():
    results, message = pass_on_images([result(["nope"], content="")], EN)
    assert message is None
    assert results[0].content == "[images of this result not passed on: image 1 (not a data: or http(s):// URL)]"
    _, message = pass_on_images([result("https://example.com/a.png")], EN)
    assert message is not None and message.images == ("https://example.com/a.png",)


def test_chinese_texts():
    results, message = pass_on_images([result([GIF, "x"])], ZH)
    assert results[0].content == (
        "a chart:\n[本结果的图片已放在工具结果之后的用户消息中：1 张]\n"
        "[本结果的以下图片没有传给模型：第 2 张（不是 data: 或 http(s):// 地址）]"
    )
    assert message is not None and message.content == "工具调用 call_1（chart）返回的图片：1 张"


@tool
def screenshot(page: str) -> ToolOutput:
    """Take a screenshot of a page."""
    return ToolOutput(f"{page}:", {"images": [PNG]})


@tool
def page_title(page: str) -> str:
    """The title of a page."""
    return f"{page}: Orders"


@pytest.fixture(autouse=True)
def _call_ids():
    reset_call_ids()


def test_the_loop_sends_the_images_after_all_the_rounds_results():
    """Tool messages must directly follow the assistant message that asked for them, so the
    image message comes after the last result of the round, not after the one with images."""
    model = ScriptedModel([[call("screenshot", page="home"), call("page_title", page="home")], "Done."])
    memory = ChatMemory("u1")
    outcome = run_loop(
        model, [UserMessage(content="Show me the home page")], tools=[screenshot, page_title], memory=memory
    )
    second = model.requests[1].messages
    assert [m.role for m in second] == ["user", "assistant", "tool", "tool", "user"]
    assert second[2].content == (
        "home:\n[images of this result passed on in the user message after the tool results: 1]"
    )
    carrier = second[4]
    assert carrier.to_openai() == {
        "role": "user",
        "content": [
            {"type": "text", "text": "Images returned by tool call call_1 (screenshot): 1"},
            {"type": "image_url", "image_url": {"url": PNG}},
        ],
    }
    assert outcome.rounds[0].images == carrier and outcome.rounds[1].images is None
    assert carrier in outcome.new_messages and memory.messages() == [*second, AssistantMessage(content="Done.")]
    assert outcome.rounds[0].executions[0].result.attributes == {"images": [PNG]}


def test_the_course_loop_writes_the_image_texts_in_chinese():
    model = ScriptedModel([call("screenshot", page="home"), "好的。"])
    run_loop(model, [UserMessage(content="看看首页")], tools=[screenshot], options=COURSE)
    assert model.requests[1].messages[-1].content == "工具调用 call_1（screenshot）返回的图片：1 张"


def test_the_loop_caps_follow_the_options():
    model = ScriptedModel([call("screenshot", page="home"), "Done."])
    run_loop(model, [UserMessage(content="x")], tools=[screenshot], options=LoopOptions(max_images=0))
    assert [m.role for m in model.requests[1].messages] == ["user", "assistant", "tool"]
    assert (
        model.requests[1]
        .messages[-1]
        .content.endswith("[images of this result not passed on: image 1 (over the limit on images per round (0))]")
    )


def test_views_show_markers_never_base64():
    from toolkit.views.conversation import render_conversation_html, render_conversation_text
    from toolkit.views.sequence import sequence_source
    from toolkit.views.trace import render_trace_html, render_trace_text

    model = ScriptedModel([call("screenshot", page="home"), "Done."])
    outcome = run_loop(model, [UserMessage(content="Show me the home page")], tools=[screenshot])
    marker = "[image 1: image/png, 1.2 KB]"
    assert render_conversation_text(outcome.messages).splitlines()[3] == f"user (images the tools returned): {marker}"
    assert "  images passed on from screenshot: " + marker in render_trace_text(outcome).splitlines()
    assert "U->>L: Show me the home page" in sequence_source(outcome)  # the question, not the image message
    payload = PNG.split(",", 1)[1][:40]
    for html in (render_conversation_html(outcome.messages), str(render_trace_html(outcome))):
        assert marker in html and payload not in html
    wire = [m.to_openai() for m in outcome.messages]  # a view of wire dicts reads the parts too
    assert (
        render_conversation_text(wire).splitlines()[3]
        == f"user: Images returned by tool call call_1 (screenshot): 1 {marker}"
    )
    assert render_conversation_text([UserMessage(content="", images=("https://example.com/a.png",))]) == (
        "user: [image 1: https://example.com/a.png]"
    )


def test_an_immediate_return_gives_the_caller_the_tools_own_text():
    from toolkit.tools.decorator import ReturnBehavior

    @tool(return_behavior=ReturnBehavior.IMMEDIATE)
    def snapshot(page: str) -> ToolOutput:
        """Take a snapshot and return it to the caller."""
        return ToolOutput(f"{page}:", {"images": [PNG]})

    model = ScriptedModel([call("snapshot", page="home")])
    outcome = run_loop(model, [UserMessage(content="snap")], tools=[snapshot])
    assert outcome.finish == "immediate"
    assert [(r.content, r.attributes) for r in outcome.immediate_results] == [("home:", {"images": [PNG]})]
    assert outcome.messages[-1].images == (PNG,)  # memory still holds what the model would see next turn


def test_the_scripted_model_counts_an_image_as_image_tokens_not_as_its_base64():
    from toolkit.chat.images import IMAGE_TOKENS

    def input_tokens(message):
        return ScriptedModel(["ok"]).chat([message]).usage.input_tokens

    big = "data:image/png;base64," + base64.b64encode(bytes(30_000)).decode()
    text = UserMessage(content="look")
    assert input_tokens(text.model_copy(update={"images": (big, GIF)})) == input_tokens(text) + 2 * IMAGE_TOKENS
