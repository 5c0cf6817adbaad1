import pytest
from html_tree import Tree

from toolkit.chat.client import Exchange
from toolkit.chat.messages import UserMessage
from toolkit.chat.switch import fake_client
from toolkit.errors import ConfigurationError
from toolkit.views.display import Shown, show_exchange, show_response, show_table


def test_table_has_html_and_a_readable_text_fallback():
    shown = show_table([{"mode": "A", "calls": 1, "text": "<b>"}, {"mode": "B", "calls": 0, "text": "好"}], "modes")
    bundle = shown._repr_mimebundle_()
    assert set(bundle) == {"text/html", "text/plain"}
    assert bundle["text/plain"].splitlines()[0] == "modes"
    assert "mode calls text" in " ".join(bundle["text/plain"].splitlines()[1].split())
    assert "&lt;b&gt;" in bundle["text/html"]
    assert show_table([], "empty").text == "empty\n(no rows)"


def test_table_escapes_cells():
    html = show_table([{"x": "<script>alert(1)</script>"}]).html
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_exchange_shows_request_and_response_without_the_key():
    client = fake_client()
    client.chat([UserMessage(content="你好")])
    shown = show_exchange(client.exchanges[-1])
    assert isinstance(shown, Shown)
    assert shown.text.startswith("POST http://fake-gateway.local/v1/chat/completions (attempt 1) -> 200\nrequest: ")
    assert '"content": "你好"' in shown.text
    assert "not-needed" not in shown.text and "not-needed" not in shown.html
    assert "HTTP exchange" in shown.html and "response body" in shown.html


def test_an_exchange_with_no_answer_says_so():
    shown = show_exchange(Exchange("http://x/v1/chat/completions", {"model": "m"}, None, "<ReadTimeout>", 2))
    assert shown.text.splitlines()[0] == "POST http://x/v1/chat/completions (attempt 2) -> no answer"
    assert "timeout / no answer" in shown.html


def test_a_response_shows_its_finish_reason_and_a_transcript():
    from toolkit.views.display import show_response

    reply = fake_client().chat([UserMessage(content="你好")])
    shown = show_response(reply)
    assert "finish reason" in shown.html and "model response" in shown.html
    assert shown.text.startswith("assistant: ") and "tokens" in shown.text


def test_a_key_only_later_rows_have_is_a_column_too():
    """The columns were the first row's keys: a key only later rows had was silently dropped."""
    shown = show_table([{"tool": "a"}, {"tool": "b", "tokens": 51}, {"note": "<c>"}])
    assert shown.text.splitlines() == [
        "tool tokens note",
        "   a            ",
        "   b     51     ",
        "             <c>",
    ]
    assert [c.text() for c in Tree(shown.html).root.find_all("tk-th")] == ["tool", "tokens", "note"]


def test_a_row_that_is_not_a_dict_is_refused_with_the_fix():
    with pytest.raises(ConfigurationError) as raised:
        show_table([{"tool": "a"}, ("b", 51)])
    assert str(raised.value) == (
        "show_table(): row 2 is a tuple, not a dict. "
        'Fix: pass one dict per row, e.g. show_table([{"tool": "query_order", "tokens": 51}])'
    )
    assert show_table(iter([{"tool": "a"}])).text == "tool\n   a"  # any iterable of dicts
    for row, kind in ((1, "an int"), (None, "None"), ("x", "a str")):  # was "a int", "a NoneType"
        with pytest.raises(ConfigurationError) as raised:
            show_table([row])
        assert str(raised.value).startswith(f"show_table(): row 1 is {kind}, not a dict. ")


def test_the_text_table_keeps_accents_emoji_and_indic_text_in_line():
    """The text was laid out by pandas, which counts every code point a column (or two): a
    combining accent, a skin tone or a Devanagari vowel sign pushed its row's columns left."""
    shown = show_table(
        [{"name": "cafe\u0301", "n": 1}, {"name": "👍🏽", "n": 2}, {"name": "नमस्ते", "n": 3}, {"name": "查询", "n": 4}]
    )
    assert shown.text.splitlines() == ["name n", "cafe\u0301 1", "  👍🏽 2", "नमस्ते 3", "查询 4"]


def test_the_text_table_writes_line_breaks_and_tabs_out_and_a_row_without_keys_says_so():
    assert show_table([{"a": "x\ny\tz", "b": None}, {"a": "", "b": 1.5}]).text.splitlines() == [
        "      a    b",
        "x\\ny\\tz null",
        "         1.5",
    ]
    assert show_table([{}]).text == "(no columns)"


def test_a_huge_integer_in_a_cell_or_a_header_is_named_by_its_digits():
    shown = show_table([{"n": 10**5000, 10**4400: "key"}])
    assert shown.text.splitlines()[0].split()[-4:] == ["integer", "of", "4,401", "digits)"]
    assert shown.text.splitlines()[1].split() == ['"…(an', "integer", "of", "5,001", 'digits)"', "key"]


def test_a_table_of_a_hundred_thousand_rows_shows_the_first_and_last_and_says_what_it_left_out():
    """show_table drew every row: 100,000 rows made 21 MB of HTML (and 10 s)."""
    from toolkit.views.html import SHOWN_ITEMS

    shown = show_table([{"row": i} for i in range(100_000)])
    note = (
        f"… {100_000 - SHOWN_ITEMS:,} rows not shown: rows {SHOWN_ITEMS // 2 + 1:,} to {100_000 - SHOWN_ITEMS // 2:,}"
    )
    lines = shown.text.splitlines()
    assert len(lines) == 1 + SHOWN_ITEMS + 1 and lines[SHOWN_ITEMS // 2 + 1] == note
    assert lines[SHOWN_ITEMS // 2].split() == [str(SHOWN_ITEMS // 2 - 1)]
    assert lines[-1].split() == ["99999"]
    assert note in Tree(shown.html).root.text() and len(shown.html) < 400 * SHOWN_ITEMS


@pytest.mark.parametrize("given, kind", [(None, "None"), ("hi", "a str"), ([], "a list")])
def test_show_response_of_something_else_is_one_readable_line(given, kind):
    """show_response(None) raised "'NoneType' object has no attribute 'finish_reason'"."""
    with pytest.raises(ConfigurationError) as caught:
        show_response(given)
    assert str(caught.value) == (
        f"show_response(): takes one ChatResponse (what client.chat(...) returns), and got {kind}; "
        "for a list of messages use ConversationView(messages), for a loop's result TraceView(result)"
    )


def test_an_exchange_shows_the_images_it_sent_as_markers_not_base64():
    """A request carrying an image (a user message's data URL) was shown with its base64 whole, in
    the HTML and the text (a 5 MB photo: 250,000 characters of base64 in each)."""
    import base64

    png = base64.b64encode(bytes.fromhex("89504e470d0a1a0a") + bytes(3_000)).decode()
    part = {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png}"}}
    request = {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": "看图"}, part]}]}
    shown = show_exchange(Exchange("http://x/v1/chat/completions", request, 200, '{"ok": true}', 1))
    assert png[:100] not in shown.html and png[:100] not in shown.text
    assert shown.text.splitlines()[1] == (
        'request: {"messages": [{"content": [{"text": "看图", "type": "text"}, {"image_url": {"url": '
        '"[image 1: image/png, 3.0 KB]"}, "type": "image_url"}], "role": "user"}], "model": "m"}'
    )
    assert "[image 1: image/png, 3.0 KB]" in shown.html


def test_one_huge_cell_does_not_pad_every_row_of_the_text_table():
    """One tool result of 1 MB among 1,000 rows padded every other row to its width: a 250 MB
    text/plain (each row SHOWN_CHARS columns wide). A column is padded to PADDED_COLUMNS at most; a
    wider cell is written whole (cut at SHOWN_CHARS) and pushes the rest of its own line right."""
    from toolkit.views.display import PADDED_COLUMNS
    from toolkit.views.html import SHOWN_CHARS

    wide = "x" * (PADDED_COLUMNS + 100)
    assert show_table([{"a": wide, "b": 1}, {"a": "y", "b": 22}]).text.split("\n") == [
        " " * (PADDED_COLUMNS - 1) + "a  b",
        wide + "  1",
        " " * (PADDED_COLUMNS - 1) + "y 22",
    ]
    rows = [{"tool": "big", "result": "x" * 1_000_000}] + [{"tool": f"t{i}", "result": "ok"} for i in range(999)]
    text = show_table(rows).text
    assert len(text) < SHOWN_CHARS + 1_000 * (PADDED_COLUMNS + 10)
    assert text.split("\n")[2] == "  t0" + " " * (PADDED_COLUMNS - 1) + "ok"  # padded to PADDED_COLUMNS, not 250,000
