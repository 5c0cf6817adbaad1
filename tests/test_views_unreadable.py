"""The conversation view given items it cannot read as messages: each is shown where it stood,
with the reason, and the rest of the conversation as usual — never a pydantic traceback.

Found as a stranger feeding the view OpenAI wire dicts from elsewhere: a message of the deprecated
`function` role, a tool result whose content holds an image part, a tool result
without `tool_call_id` (KeyError), `content: null` for a user, a plain string in the list."""

import pytest
from html_tree import Tree

from toolkit.views.conversation import ConversationView, one_line, render_conversation_html, render_conversation_text
from toolkit.views.html import pretty_json

GOOD_BEFORE = {"role": "user", "content": "where is SN1?"}
GOOD_AFTER = {"role": "assistant", "content": "on its way"}
ODD = [
    ({"role": "function", "name": "f", "content": "r"}, "Input tag 'function' found using 'role' does not match"),
    ({"role": "tool", "content": "r"}, "the 'tool_call_id' field is missing"),
    (
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "image_url", "image_url": {"url": "https://x"}}]},
        "content[0] is a part of type 'image_url'",
    ),
    ({"role": "user", "content": None}, "content: Input should be a valid string"),
    ("just a string", "a str, not a message record or an OpenAI message dict"),
]


def test_each_unreadable_item_is_a_warning_card_where_it_stood():
    for item, reason in ODD:
        html = render_conversation_html([GOOD_BEFORE, item, GOOD_AFTER])
        tree = Tree(html)
        titles = [c.find_all("tk-title")[0].text() for c in tree.find_all("tk-card")]
        assert titles[0] == "user" and titles[2] == "assistant", item
        assert titles[1].startswith("not a message this view can read") and reason in titles[1], item
        assert "tk-warn" in tree.find_all("tk-card")[1].classes


def test_each_unreadable_item_is_one_transcript_line_with_its_raw_value():
    for item, reason in ODD:
        lines = render_conversation_text([GOOD_BEFORE, item, GOOD_AFTER]).splitlines()
        assert lines[0] == "user: where is SN1?" and lines[2] == "assistant: on its way"
        assert lines[1].startswith(f"(not a message this view can read: {reason}"), item
    line = render_conversation_text([{"role": "function", "content": "be <brief>"}])
    assert line.endswith(') {"content": "be <brief>", "role": "function"}')
    assert "&lt;brief&gt;" in render_conversation_html([{"role": "function", "content": "be <brief>"}])


def test_the_widget_shows_them_too():
    view = ConversationView([GOOD_BEFORE, ODD[0][0]])
    assert view._repr_mimebundle_()["text/plain"].splitlines()[1].startswith("(not a message this view can read")


def test_nan_arguments_are_invalid_json_in_the_transcript_as_in_the_html():
    """The HTML badged `{"a": NaN}` "invalid JSON" while the transcript printed it as valid."""
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": NaN}'}}
    messages = [{"role": "assistant", "content": None, "tool_calls": [call]}]
    assert render_conversation_text(messages) == 'assistant → f({"a": NaN}) [invalid JSON]'
    assert "invalid JSON" in render_conversation_html(messages)
    assert (
        render_conversation_text(
            [{**messages[0], "tool_calls": [{**call, "function": {"name": "f", "arguments": "{}"}}]}]
        )
        == "assistant → f({})"
    )


def test_attributes_with_keys_of_mixed_types_render():
    """`attributes={"map": {1: "a", "b": 2}}` raised TypeError (sort_keys cannot compare int and str)."""
    from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage

    call = ToolCall(id="c1", name="f", arguments="{}")
    result = ToolResultMessage(tool_call_id="c1", tool_name="f", content="ok", attributes={"map": {1: "a", "b": 2}})
    html = render_conversation_html([AssistantMessage(tool_calls=(call,)), result])
    assert "{&quot;1&quot;: &quot;a&quot;, &quot;b&quot;: 2}" in html


def test_no_memory_address_reaches_a_view():
    """Objects JSON cannot write were shown with `default=str`: `<Foo object at 0x7f…>`, a
    different text on every run (attributes, table cells, code blocks)."""
    import re

    from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage
    from toolkit.views.display import show_table
    from toolkit.views.html import code_block

    class Foo:
        pass

    call = ToolCall(id="c1", name="f", arguments="{}")
    result = ToolResultMessage(tool_call_id="c1", tool_name="f", content="ok", attributes={"obj": Foo()})
    shown = [
        render_conversation_html([AssistantMessage(tool_calls=(call,)), result]),
        show_table([{"cell": Foo()}]).text,
        show_table([{"cell": Foo()}]).html,
        code_block({"value": Foo(), "tags": {"b", "a", "c"}}),
    ]
    assert [s for s in shown if re.search(r"0x[0-9a-fA-F]{4,}", s)] == []
    assert "Foo object&gt;" in shown[0] and "&quot;tags&quot;: [\n    &quot;a&quot;" in shown[3]


def test_a_number_past_a_float_is_shown_as_the_model_wrote_it():
    """Before: `{"a": 1e400}` (valid JSON) was shown as `{"a": Infinity}` (not JSON), and an integer
    of 5,000 digits as "invalid JSON" (Python converts at most 4,300)."""
    big = "7" * 5000
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": f'{{"z": {big}, "b": -1E+400}}'}}
    messages = [{"role": "assistant", "content": None, "tool_calls": [call]}]
    assert render_conversation_text(messages).startswith('assistant → f({"b": -1E+400, "z": 7777777')
    assert "Infinity" not in render_conversation_html(messages) and "invalid JSON" not in render_conversation_html(
        messages
    )
    assert pretty_json('[1e400, 0.5, "\\u0000"]') == '[\n  1e400,\n  0.5,\n  "\\u0000"\n]'


def test_no_memory_address_reaches_a_view_from_a_key_or_a_value_given_to_a_helper():
    """A row's key that is an object became a column header with its address, `<Foo object at
    0x7f…>` (another on every run), in the text and the HTML; so did any object given to a helper."""
    from toolkit.views.display import show_table
    from toolkit.views.html import badge, escape

    class Foo:
        pass

    name = f"<{Foo.__module__}.{Foo.__qualname__} object>"
    shown = show_table([{Foo(): 1, 2: "b"}])
    assert shown.text == f"{name} 2\n" + " " * (len(name) - 1) + "1 b"
    assert f"{escape(name)}</th>" in shown.html
    assert escape(Foo()) == escape(name)
    assert f"{escape(name)}</span>" in badge(Foo())
    assert escape("a crash at 0x7f3a") == "a crash at 0x7f3a"  # text says what it says


@pytest.mark.parametrize("blank", ["", "  ", "\n"])
def test_blank_arguments_are_no_arguments_not_invalid_json(blank):
    """A gateway that sends `arguments: ""` for a tool without parameters got an "invalid JSON"
    badge on the call, though the executor reads blank arguments as none and runs it."""
    call = {"id": "c1", "type": "function", "function": {"name": "now", "arguments": blank}}
    messages = [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "10:00"},
    ]
    assert render_conversation_text(messages) == "assistant → now()\ntool[now]: 10:00"
    assert "invalid JSON" not in render_conversation_html(messages)


PNG_BYTES = bytes.fromhex("89504e470d0a1a0a") + bytes(3_000)


def _b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode()


def test_an_unreadable_message_shows_its_images_and_audio_as_markers_not_base64():
    """A user message with an image and an input_audio part (OpenAI's own form, which the toolkit
    does not read) was shown with the image's data URL and the audio's base64 whole in the raw value
    (a 5 MB image: 250,000 characters of base64 in the card and the transcript)."""
    audio = _b64(bytes(6_000))
    item = {
        "role": "user",
        "content": [
            {"type": "text", "text": "听一下"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64," + _b64(PNG_BYTES)}},
            {"type": "input_audio", "input_audio": {"data": audio, "format": "wav"}},
        ],
    }
    raw = (
        '{"content": [{"text": "听一下", "type": "text"}, {"image_url": {"url": "[image 1: image/png, 3.0 KB]"}, '
        '"type": "image_url"}, {"input_audio": {"data": "[base64 data: 8,000 characters]", "format": "wav"}, '
        '"type": "input_audio"}], "role": "user"}'
    )
    line = render_conversation_text([item])
    assert line.endswith(") " + one_line(raw)) and "iVBOR" not in line
    html = render_conversation_html([item])
    assert audio[:100] not in html and _b64(PNG_BYTES)[:100] not in html
    assert Tree(html).find_all("tk-code")[0].text() == pretty_json(raw)


def test_attribute_text_that_starts_with_data_is_shown_not_called_an_image():
    """Any attribute string starting with `data:` was written as an image marker: a note
    `data: 3 rows` read "[image 1: not a valid image URL]", an audio clip "[image 1: audio/wav, …]"."""
    from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage

    call = ToolCall(id="c1", name="f", arguments="{}")
    attributes = {
        "note": "data: 3 rows",
        "clip": "data:audio/wav;base64," + _b64(bytes(2_000)),
        "images": ["data:image/png;base64," + _b64(PNG_BYTES)],
        "raw": _b64(bytes(300)),
        "wrapped": "data:image/png;base64," + "\n".join(_b64(PNG_BYTES)[i : i + 76] for i in range(0, 4_012, 76)),
    }
    result = ToolResultMessage(tool_call_id="c1", tool_name="f", content="ok", attributes=attributes)
    html = render_conversation_html([AssistantMessage(tool_calls=(call,)), result])
    cells = [cell.text() for cell in Tree(html).find_all("tk-td")]
    assert cells == [
        '"[data: audio/wav, 2.0 KB]"',
        '["[image 1: image/png, 3.0 KB]"]',
        '"data: 3 rows"',
        '"[base64 data: 400 characters]"',
        '"[base64 data: 4,086 characters]"',
    ]


def test_long_words_without_punctuation_are_text_not_base64():
    """Words are separated by spaces, which base64 never has: a long run of them stays text."""
    from toolkit.chat.messages import AssistantMessage, ToolCall, ToolResultMessage

    words = "the parcel left the depot and is on its way " * 10
    call = ToolCall(id="c1", name="f", arguments="{}")
    result = ToolResultMessage(tool_call_id="c1", tool_name="f", content="ok", attributes={"note": words})
    html = render_conversation_html([AssistantMessage(tool_calls=(call,)), result])
    assert [cell.text() for cell in Tree(html).find_all("tk-td")] == [f'"{words}"']
