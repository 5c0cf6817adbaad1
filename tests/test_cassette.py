import json
import os
import socket
import threading
from pathlib import Path

import httpx
import pytest

from toolkit.chat.cassette import RecordingTransport, ReplayTransport
from toolkit.chat.client import ChatClient
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import StreamDone, TextDelta
from toolkit.chat.switch import connect
from toolkit.errors import CallerError, CassetteError, CassetteMismatch, ConfigurationError
from toolkit.gateway.server import Gateway, running_gateway

QUESTION = [UserMessage(content="帮我查一下订单 SN202610200001 现在到哪了？")]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "query_order",
            "description": "查询订单",
            "parameters": {"type": "object", "properties": {"orderId": {"type": "string"}}, "required": ["orderId"]},
        },
    }
]


def record_session(path, gateway=None):
    """Talk to the real HTTP fake gateway through a recording transport; return what we saw."""
    with running_gateway(gateway=gateway or Gateway("A")) as base_url:
        client = ChatClient(base_url, "sk-SECRET-never-written", "fake-keyword", transport=RecordingTransport(path))
        plain = client.chat(QUESTION, tools=TOOLS)
        streamed = list(client.stream(QUESTION, tools=TOOLS))
        answer = client.chat([UserMessage(content="你好")])
    return plain, streamed, answer


def closed_port_url():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}/v1"  # nothing listens here any more


def test_replay_serves_exactly_what_was_recorded_with_the_network_closed(tmp_path):
    cassette = tmp_path / "session.jsonl"
    plain, streamed, answer = record_session(cassette)
    replay = ChatClient(closed_port_url(), "x", "fake-keyword", transport=ReplayTransport(cassette))
    assert replay.chat(QUESTION, tools=TOOLS) == plain
    replayed_stream = list(replay.stream(QUESTION, tools=TOOLS))
    assert replayed_stream == streamed
    assert isinstance(replayed_stream[-1], StreamDone)
    assert replay.chat([UserMessage(content="你好")]) == answer


def test_the_api_key_is_never_written(tmp_path):
    cassette = tmp_path / "session.jsonl"
    record_session(cassette)
    text = cassette.read_text()
    assert "SECRET" not in text and "authorization" not in text.lower()
    lines = [json.loads(line) for line in text.splitlines()]
    assert len(lines) == 3 and lines[1]["request"]["body"]["stream"] is True
    assert lines[1]["response"]["body"].rstrip().endswith("data: [DONE]")
    assert all(isinstance(line["elapsed_ms"], int) for line in lines)


def test_errors_are_recorded_and_replayed_too(tmp_path):
    cassette = tmp_path / "c.jsonl"
    with running_gateway(gateway=Gateway("C")) as base_url:
        client = ChatClient(base_url, "k", "m", transport=RecordingTransport(cassette))
        with pytest.raises(CallerError) as recorded:
            client.chat(QUESTION, tools=TOOLS)
    replay = ChatClient("http://x/v1", "k", "m", transport=ReplayTransport(cassette))
    with pytest.raises(CallerError) as replayed:
        replay.chat(QUESTION, tools=TOOLS)
    assert str(replayed.value) == str(recorded.value)


def test_a_request_nobody_recorded_fails_with_a_diff(tmp_path):
    cassette = tmp_path / "session.jsonl"
    record_session(cassette)
    replay = ChatClient("http://x/v1", "k", "fake-keyword", transport=ReplayTransport(cassette))
    with pytest.raises(CassetteMismatch) as info:
        replay.chat([UserMessage(content="帮我查一下订单 SN202610200002 现在到哪了？")], tools=TOOLS)
    message = str(info.value)
    assert message.startswith("cassette session.jsonl: no recording matches this request; nearest differs:")
    assert '-    "content": "帮我查一下订单 SN202610200001 现在到哪了？",' in message
    assert '+    "content": "帮我查一下订单 SN202610200002 现在到哪了？",' in message


def test_each_recording_is_served_once(tmp_path):
    cassette = tmp_path / "c.jsonl"
    record_session(cassette)
    transport = ReplayTransport(cassette)
    replay = ChatClient("http://x/v1", "k", "fake-keyword", transport=transport)
    replay.chat([UserMessage(content="你好")])
    with pytest.raises(CassetteMismatch) as info:
        replay.chat([UserMessage(content="你好")])
    assert str(info.value) == (
        "cassette c.jsonl: this request was already replayed 1 time (it was recorded once); "
        "this run sends it more often than the recorded run did"
    )
    assert transport.remaining == 2


def test_replay_matches_by_content_so_concurrent_runs_replay(tmp_path):
    cassette = tmp_path / "c.jsonl"
    questions = [f"订单 SN20261020000{i} 到哪了" for i in range(1, 7)]
    with running_gateway(gateway=Gateway("A")) as base_url:
        client = ChatClient(base_url, "k", "fake-keyword", transport=RecordingTransport(cassette))
        recorded = {q: client.chat([UserMessage(content=q)], tools=TOOLS) for q in questions}
    replay = ChatClient("http://x/v1", "k", "fake-keyword", transport=ReplayTransport(cassette))
    replayed = {}
    threads = [
        threading.Thread(target=lambda q=q: replayed.__setitem__(q, replay.chat([UserMessage(content=q)], tools=TOOLS)))
        for q in reversed(questions)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert replayed == recorded


def test_connect_records_and_replays_through_env_vars(tmp_path):
    cassette = tmp_path / "env.jsonl"
    with running_gateway(gateway=Gateway("A")) as base_url:
        live = connect(
            env={
                "LLM_BASE_URL": base_url,
                "LLM_API_KEY": "sk-live",
                "LLM_MODEL": "fake-keyword",
                "LLM_RECORD": str(cassette),
            }
        )
        assert live.describe().endswith(f"recording to {cassette}")
        first = live.chat(QUESTION, tools=TOOLS)
    replay = connect(env={"LLM_REPLAY": str(cassette)})
    assert replay.describe() == "replay of cassette env.jsonl, model fake-keyword"
    assert replay.chat(QUESTION, tools=TOOLS) == first


def test_recording_the_embedded_gateway_works_offline(tmp_path):
    cassette = tmp_path / "fake.jsonl"
    live = connect(env={"LLM_RECORD": str(cassette)})
    text = "".join(e.text for e in live.stream([UserMessage(content="你好")]) if isinstance(e, TextDelta))
    replay = connect(env={"LLM_REPLAY": str(cassette)})
    assert "".join(e.text for e in replay.stream([UserMessage(content="你好")]) if isinstance(e, TextDelta)) == text


def test_an_empty_cassette_is_a_configuration_error(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(ConfigurationError, match="the cassette is empty; record one with LLM_RECORD"):
        connect(env={"LLM_REPLAY": str(empty)})
    assert httpx  # the transports are plain httpx transports


def test_a_replayed_cassette_reproduces_a_recorded_eval_csv_exactly(tmp_path):
    import os
    import subprocess
    import sys

    cassette, recorded, replayed = tmp_path / "eval.jsonl", tmp_path / "recorded.csv", tmp_path / "replayed.csv"
    base = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    command = [sys.executable, "-m", "toolkit", "eval", "--today", "2026-10-25", "--concurrency", "4"]
    with running_gateway(gateway=Gateway("A")) as base_url:
        live = subprocess.run(
            command + ["--out", str(recorded)],
            capture_output=True,
            text=True,
            env={
                **base,
                "LLM_BASE_URL": base_url,
                "LLM_API_KEY": "sk-live-key-123",
                "LLM_MODEL": "fake-keyword",
                "LLM_RECORD": str(cassette),
            },
        )
    assert "wrote" in live.stdout, live.stderr
    offline = subprocess.run(
        command + ["--out", str(replayed)], capture_output=True, text=True, env={**base, "LLM_REPLAY": str(cassette)}
    )
    assert "replay of cassette eval.jsonl" in offline.stdout, offline.stderr
    assert replayed.read_bytes() == recorded.read_bytes()
    assert len(recorded.read_text().splitlines()) == 26
    assert "sk-live-key-123" not in cassette.read_text()


# --- replay anywhere, any day ------------------------------------------------------------------


def test_replay_does_not_depend_on_the_base_urls_path(tmp_path):
    cassette = tmp_path / "c.jsonl"
    with running_gateway(gateway=Gateway("A")) as base_url:
        client = ChatClient(base_url, "k", "fake-keyword", transport=RecordingTransport(cassette))
        recorded = client.chat(QUESTION, tools=TOOLS)
    assert json.loads(cassette.read_text().splitlines()[0])["request"]["path"] == "/chat/completions"
    for root in ("http://x/api/v1", "http://x", "https://gw.example/openai/deployments/v2"):
        replay = ChatClient(root, "k", "fake-keyword", transport=ReplayTransport(cassette))
        assert replay.chat(QUESTION, tools=TOOLS) == recorded


def test_an_old_cassette_with_absolute_paths_still_replays(tmp_path):
    cassette = tmp_path / "c.jsonl"
    with running_gateway(gateway=Gateway("A")) as base_url:
        client = ChatClient(base_url, "k", "fake-keyword", transport=RecordingTransport(cassette))
        recorded = client.chat(QUESTION, tools=TOOLS)
    line = json.loads(cassette.read_text())
    line["request"]["path"] = "/v1/chat/completions"
    cassette.write_text(json.dumps(line) + "\n")
    replay = ChatClient("http://x/api/v1", "k", "fake-keyword", transport=ReplayTransport(cassette))
    assert replay.chat(QUESTION, tools=TOOLS) == recorded


class EchoKey(httpx.BaseTransport):
    """A gateway that rejects the key and echoes it, as OpenAI's 401 does."""

    def handle_request(self, request):
        key = request.headers["authorization"].split(" ", 1)[1]
        body = {"error": {"message": f"Incorrect API key provided: {key}. You can find your API key at ..."}}
        return httpx.Response(401, json=body)


def test_a_key_the_gateway_echoes_is_never_written(tmp_path):
    cassette, key = tmp_path / "c.jsonl", "sk-proj-ABCDEFGHIJKLMNOP1234"
    client = ChatClient("http://gw/v1", key, "m", transport=RecordingTransport(cassette, EchoKey()))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    text = cassette.read_text()
    assert key not in text and "Incorrect API key provided: ***1234" in text
    assert key not in str(caught.value) and key not in repr(list(client.exchanges))


def test_the_clock_a_run_read_is_recorded_and_reused_on_replay(tmp_path, monkeypatch):
    from toolkit.chat.clock import session_now, session_today
    from toolkit.services.declare import system_message
    from toolkit.services.service import ai_service

    class Desk:
        @system_message("你是电商客服。今天是 {{current_date}}。")
        def ask(self, question: str) -> str: ...

    cassette = tmp_path / "dated.jsonl"
    monkeypatch.setenv("LLM_RECORD", str(cassette))
    live = ai_service(Desk, model=connect(env={"LLM_RECORD": str(cassette)}))
    answer = live.ask("你好")
    today = session_today().isoformat()
    assert session_now() == session_now()  # frozen for the recorded run
    monkeypatch.delenv("LLM_RECORD")
    # the same cassette, as if recorded on another day
    cassette.write_text(cassette.read_text().replace(today, "2020-02-29"))
    assert '"clock"' in cassette.read_text()
    monkeypatch.setenv("LLM_REPLAY", str(cassette))
    assert session_today().isoformat() == "2020-02-29"
    replayed = ai_service(Desk, model=connect(env={"LLM_REPLAY": str(cassette)}))
    assert replayed.ask("你好") == answer
    assert session_today(env={}) != session_today()  # without the cassette: the real clock


EXCHANGE = {
    "request": {"method": "POST", "path": "/chat/completions", "body": {"model": "m", "messages": []}},
    "response": {"status": 200, "content_type": "application/json", "retry_after": None, "body": "{}"},
    "elapsed_ms": 1,
}


def with_(part, **changes):
    return {**EXCHANGE, part: {**EXCHANGE[part], **changes}}


def _without(part, key):
    line = json.loads(json.dumps(EXCHANGE))
    del line[part][key]
    return line


@pytest.mark.parametrize(
    "line, problem",
    [
        (_without("response", "status"), "response has no status (a number)"),
        (_without("response", "body"), "response has no body (a string)"),
        (_without("request", "path"), "request has no path (a string)"),
        (_without("request", "body"), "request has no body"),
        (
            {k: v for k, v in EXCHANGE.items() if k != "request"},
            "an exchange without its request (the line has elapsed_ms, response)",
        ),
    ],
)
def test_a_cassette_line_missing_a_field_names_it_and_says_what_to_do(tmp_path, line, problem):
    """Before: a dropped field read "response needs status (a number), content_type and body (strings)"
    whichever was missing, and a line whose request was dropped was skipped without a word (replay then
    failed on a mismatch, far from the line)."""
    cassette = tmp_path / "session.jsonl"
    cassette.write_text(json.dumps(EXCHANGE) + "\n" + json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(CassetteError) as info:
        connect(env={"LLM_REPLAY": str(cassette)})
    assert str(info.value) == (
        f"cassette {cassette}, line 2: {problem}; put it back as it was recorded, or record the cassette again "
        f"(LLM_RECORD=<file>){SUFFIX}"
    )


@pytest.mark.parametrize(
    "line, problem",
    [
        (json.dumps(EXCHANGE)[:-30], "line 2: not JSON: "),
        ("[1, 2]", "line 2: not a JSON object but list"),
        ("null", "line 2: not a JSON object but NoneType"),
        ("[" * 100_000, "line 2: not JSON: '[[[["),
        (json.dumps({**EXCHANGE, "request": "POST /chat/completions"}), "line 2: request is not an object of method"),
        (json.dumps(with_("request", path=5)), "line 2: request path is not a string but int"),
        (json.dumps({"request": EXCHANGE["request"]}), "line 2: response is not an object of status, content_type"),
        (json.dumps(with_("response", status="200")), "line 2: response status is not a number but str"),
        (json.dumps(with_("response", body=None)), "line 2: response body is not a string but nothing"),
        (json.dumps(with_("response", retry_after=5)), "line 2: response retry_after is not a string"),
        (
            json.dumps(with_("response", status=-1)),
            "line 2: response status -1 is no HTTP status (three digits, 100 to 999)",
        ),
        (
            json.dumps(with_("response", status=99)),
            "line 2: response status 99 is no HTTP status (three digits, 100 to 999)",
        ),
        (
            json.dumps(with_("response", status=2000)),
            "line 2: response status 2000 is no HTTP status (three digits, 100 to 999)",
        ),
        (
            json.dumps(with_("response", status=10**30)),
            f"line 2: response status {10**30} is no HTTP status (three digits",
        ),
        (json.dumps({"clock": {"now": "yesterday"}}), 'line 2: the clock is not {"now": "<ISO date and time>"}'),
        (json.dumps(with_("response", body="a\ud83d")), "line 2: response body holds a lone surrogate"),
        # a key given twice (a hand edit): before, the last one was replayed without a word
        (
            json.dumps(EXCHANGE)[:-1] + ', "response": ' + json.dumps(with_("response", status=500)["response"]) + "}",
            "line 2: the key 'response' is given twice in one object; keep one (replay would silently use the last)",
        ),
        (
            json.dumps(EXCHANGE).replace('"status": 200', '"status": 200, "status": 503'),
            "line 2: the key 'status' is given twice in one object; keep one",
        ),
        (
            json.dumps(EXCHANGE).replace('"model": "m"', '"model": "m", "model": "gpt-4o"'),
            "line 2: the key 'model' is given twice in one object; keep one",
        ),
    ],
)
def test_a_corrupt_cassette_is_a_typed_error_naming_file_and_line_and_is_left_as_it_is(tmp_path, line, problem):
    cassette = tmp_path / "session.jsonl"
    cassette.write_text(json.dumps(EXCHANGE) + "\n" + line + "\n", encoding="utf-8")
    before = cassette.read_bytes()
    with pytest.raises(CassetteError) as info:
        connect(env={"LLM_REPLAY": str(cassette)})
    assert str(info.value).startswith(f"cassette {cassette}, {problem}")
    assert "\n" not in str(info.value)
    assert cassette.read_bytes() == before


def test_a_last_line_cut_short_says_so_and_what_to_do(tmp_path):
    """A run stopped while it wrote its last exchange (Ctrl-C, a full disk): before, "line 3: not JSON: '...'"
    and no word of the file ending there, nor of the two lines before it that still replay."""
    cassette = tmp_path / "session.jsonl"
    whole = json.dumps(EXCHANGE)
    cassette.write_text(whole + "\n" + whole + "\n" + whole[:40], encoding="utf-8")
    with pytest.raises(CassetteError) as info:
        connect(env={"LLM_REPLAY": str(cassette)})
    assert str(info.value) == (
        f"cassette {cassette}, line 3: not JSON, and the file ends inside it (a run stopped while writing it?): "
        f"{whole[:40]!r}; delete that line to replay the lines before it{SUFFIX}"
    )


def test_a_bad_last_line_that_ends_with_its_line_break_is_only_not_json(tmp_path):
    cassette = tmp_path / "session.jsonl"
    cassette.write_text(json.dumps(EXCHANGE) + "\n{oops}\n", encoding="utf-8")
    with pytest.raises(CassetteError) as info:
        connect(env={"LLM_REPLAY": str(cassette)})
    assert str(info.value) == f"cassette {cassette}, line 2: not JSON: '{{oops}}'{SUFFIX}"


SUFFIX = " (set by LLM_REPLAY: give a cassette LLM_RECORD wrote, or unset LLM_REPLAY)"


def test_a_cassette_saved_with_a_byte_order_mark_replays(tmp_path):
    """Notepad and other Windows editors save UTF-8 with a BOM: a cassette edited there still replays."""
    cassette = tmp_path / "session.jsonl"
    cassette.write_text("\ufeff" + json.dumps(EXCHANGE) + "\n", encoding="utf-8")
    replay = ReplayTransport(cassette)
    assert replay.exchanges[0]["response"]["status"] == 200
    response = replay.handle_request(
        httpx.Request("POST", "http://x/v1/chat/completions", json={"model": "m", "messages": []})
    )
    assert response.read() == b"{}"


def _readable_but_too_deep() -> str:
    """JSON nested so deep that `json.loads` reads it but a recursive walk of it cannot. Where that
    lies differs between Pythons (3.12 inlined comprehensions, and its json counts C frames)."""
    from toolkit.tools import redact

    for depth in (600, 1100, 1500):
        text = "[" * depth + "]" * depth
        try:
            value = json.loads(text)
        except RecursionError:
            break
        try:
            redact.scrub_json(value)
        except RecursionError:
            return text
    pytest.skip("on this Python every nesting json.loads reads can also be walked")


def test_a_request_body_nested_too_deep_to_read_is_a_typed_error(tmp_path):
    cassette = tmp_path / "session.jsonl"
    line = json.dumps(with_("request", body="NESTED")).replace('"NESTED"', _readable_but_too_deep())
    cassette.write_text(line + "\n")
    with pytest.raises(CassetteError, match=f"^cassette {cassette}: a request body nests too deeply to read$"):
        ReplayTransport(cassette)


@pytest.mark.parametrize("content", [b"\xff\xfe not text", None])
def test_a_cassette_that_cannot_be_read_is_a_typed_error_naming_it(tmp_path, content):
    cassette = tmp_path / "session.jsonl"
    if content is not None:
        cassette.write_bytes(content)
    reason = "it is not UTF-8 text" if content else "No such file or directory"
    with pytest.raises(CassetteError, match=f"^cassette {cassette} cannot be read: {reason}$"):
        ReplayTransport(cassette)


def test_a_cassette_that_is_a_pipe_a_device_or_a_folder_is_refused_unread(tmp_path):
    os.mkfifo(tmp_path / "pipe.jsonl")  # reading it would wait for a writer forever, /dev/zero never ends
    for cassette in tmp_path / "pipe.jsonl", Path("/dev/zero"), tmp_path:
        with pytest.raises(CassetteError) as caught:
            ReplayTransport(cassette)
        assert str(caught.value) == (
            f"cassette {cassette} cannot be read: not a regular file (a folder, a pipe or a device)"
        )


def test_a_cassette_whose_first_request_body_is_not_an_object_still_replays(tmp_path):
    cassette = tmp_path / "session.jsonl"
    cassette.write_text(json.dumps(with_("request", body="not json")) + "\n", encoding="utf-8")
    assert connect(env={"LLM_REPLAY": str(cassette)}).model == "unknown"


def test_recording_after_a_line_cut_short_starts_a_new_line(tmp_path):
    """A run killed mid-write leaves half a line; the next run's exchanges must not be glued to it."""
    cassette = tmp_path / "session.jsonl"
    cassette.write_text(json.dumps(EXCHANGE) + "\n" + json.dumps(EXCHANGE)[:40], encoding="utf-8")
    transport = RecordingTransport(cassette, httpx.MockTransport(lambda request: httpx.Response(200, json={})))
    httpx.Client(transport=transport).post("http://x/v1/chat/completions", json={"model": "m"}).read()
    lines = cassette.read_text(encoding="utf-8").splitlines()
    assert lines[1] == json.dumps(EXCHANGE)[:40] and json.loads(lines[2])["request"]["body"] == {"model": "m"}


def test_the_clock_recorded_after_a_line_cut_short_starts_a_new_line(tmp_path):
    """Before: the clock line was appended to the half line a killed run left, glued to it: the
    reading was lost with that line (deleted, as its error says), and a replay read today's date."""
    from toolkit.chat.clock import read_clock, session_now

    cassette = tmp_path / "killed.jsonl"
    cassette.write_text(json.dumps(EXCHANGE) + "\n" + json.dumps(EXCHANGE)[:40], encoding="utf-8")
    now = session_now({"LLM_RECORD": str(cassette)})
    lines = cassette.read_text(encoding="utf-8").split("\n")
    assert lines[1] == json.dumps(EXCHANGE)[:40] and lines[3] == ""
    assert json.loads(lines[2]) == {"clock": {"now": now.isoformat()}, "format": 1}
    cassette.write_text("\n".join(lines[:1] + lines[2:]), encoding="utf-8")  # the half line deleted
    assert read_clock(cassette) == now


def test_a_lone_surrogate_in_a_request_is_recorded_escaped_and_replays(tmp_path):
    cassette = tmp_path / "session.jsonl"
    transport = RecordingTransport(cassette, httpx.MockTransport(lambda request: httpx.Response(200, json={})))
    body = b'{"messages": [{"role": "assistant", "content": "a\\ud83d"}]}'
    httpx.Client(transport=transport).post("http://x/v1/chat/completions", content=body).read()
    assert "\\ud83d" in cassette.read_text(encoding="utf-8")
    replayed = httpx.Client(transport=ReplayTransport(cassette)).post("http://x/v1/chat/completions", content=body)
    assert replayed.json() == {}


def test_a_key_the_conversation_quotes_is_masked_in_the_recorded_request(tmp_path):
    """A gateway echoed the key (or a learner pasted it): the next request quotes it."""
    key = "sk-MARKER-not-a-real-key-0001"
    path = tmp_path / "c.jsonl"
    body = {"id": "x", "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}]}
    inner = httpx.MockTransport(lambda request: httpx.Response(200, json=body))
    client = ChatClient("http://gw.test/v1", key, "m", transport=RecordingTransport(path, inner))
    client.chat([UserMessage(content=f"my key is {key}")])
    assert key not in path.read_text()
    replayed = ChatClient("http://gw.test/v1", key, "m", transport=ReplayTransport(path))
    assert replayed.chat([UserMessage(content=f"my key is {key}")]).message.content == "ok"


@pytest.mark.parametrize("where", ["folder", "missing"])
def test_recording_to_a_folder_or_a_missing_folder_is_refused_before_any_request(tmp_path, where):
    path = tmp_path if where == "folder" else tmp_path / "nowhere" / "c.jsonl"
    problem = (
        f"it is a folder; name a file in it, e.g. {tmp_path / 'session.jsonl'}"
        if where == "folder"
        else f"the folder {tmp_path / 'nowhere'} does not exist; create it, or name a file in a folder that exists"
    )
    with pytest.raises(CassetteError) as caught:
        RecordingTransport(path)
    assert str(caught.value) == f"cannot record to {path} (LLM_RECORD): {problem}"


def test_a_key_the_gateway_echoes_json_escaped_is_never_written(tmp_path):
    """System.Text.Json escapes `+` (`\\u002B`) and PHP `/` (`\\/`): the raw body did not hold the key
    as written, so it went into the cassette and the error's body, and read back as the key."""
    cassette, key = tmp_path / "c.jsonl", "Ab3+Cd5/Ef7Gh9Ij1Kl3Mn5Op"
    escaped = key.replace("+", "\\u002B").replace("/", "\\/")
    body = '{"error":{"message":"Incorrect API key provided ' + escaped + '"}}'
    echo = httpx.MockTransport(
        lambda r: httpx.Response(401, content=body, headers={"content-type": "application/json"})
    )
    client = ChatClient("http://gw/v1", key, "m", transport=RecordingTransport(cassette, echo))
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    recorded = json.loads(cassette.read_text())["response"]["body"]
    assert json.loads(recorded) == {"error": {"message": "Incorrect API key provided ***n5Op"}}
    assert key not in json.dumps(json.loads(caught.value.body)) and escaped not in caught.value.body


def test_a_cassette_over_its_cap_is_refused_unread_and_one_at_the_cap_replays(tmp_path, monkeypatch):
    from toolkit.chat import cassette as cassettes

    cassette = tmp_path / "session.jsonl"
    cassette.write_text(json.dumps(with_("request", body="not json")) + "\n", encoding="utf-8")
    size = cassette.stat().st_size
    monkeypatch.setattr(cassettes, "MAX_CASSETTE_BYTES", size - 1)
    with pytest.raises(CassetteError) as caught:
        ReplayTransport(cassette)
    assert str(caught.value) == (
        f"cassette {cassette} cannot be read: the file is {size} bytes, over the cap of {size - 1} bytes "
        "(toolkit.chat.cassette.MAX_CASSETTE_BYTES). Fix: record shorter sessions, one cassette each "
        "(LLM_RECORD=another file)"
    )
    monkeypatch.setattr(cassettes, "MAX_CASSETTE_BYTES", size)
    ReplayTransport(cassette)


def test_the_clock_of_a_replayed_pipe_or_device_is_not_read(tmp_path):
    from toolkit.chat.clock import read_clock, session_now

    os.mkfifo(tmp_path / "pipe.jsonl")  # before: the clock read it whole, waiting for a writer forever
    for cassette in tmp_path / "pipe.jsonl", Path("/dev/zero"):
        with pytest.raises(CassetteError) as caught:
            read_clock(cassette)
        assert str(caught.value) == (
            f"cassette {cassette} cannot be read: not a regular file (a folder, a pipe or a device)"
        )
        assert session_now({"LLM_REPLAY": str(cassette)}).year >= 2026  # no recorded clock: today's


def test_a_secret_in_a_models_json_answer_is_kept_out_of_the_exchanges_and_the_cassette(tmp_path):
    """A JSON answer is a string inside the body, its quotes escaped; nothing else in this body is
    a secret, so the cassette's raw scrub is the only one it gets."""
    answer = json.dumps({"db_password": "Zq8Wm3Lp0Xv7", "order": "A1024"})
    reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}]}
    cassette = tmp_path / "c.jsonl"
    inner = httpx.MockTransport(lambda request: httpx.Response(200, json=reply))
    client = ChatClient("http://gw/v1", "sk-x", "m", transport=RecordingTransport(cassette, inner))
    assert client.chat(QUESTION).message.content == answer  # the learner's own reply is theirs to read
    assert "Zq8Wm3Lp0Xv7" not in cassette.read_text()
    assert client.exchanges[-1].response_text == (
        '{"choices":[{"index":0,"message":{"role":"assistant","content":"{\\"db_password\\": \\"[REDACTED]\\", '
        '\\"order\\": \\"A1024\\"}"},"finish_reason":"stop"}]}'
    )


class EchoHeader(httpx.BaseTransport):
    """A gateway that rejects the key in `header` and echoes it, as OpenAI's 401 does."""

    def __init__(self, header):
        self.header = header

    def handle_request(self, request):
        key = request.headers[self.header]
        body = {"error": {"message": f"Incorrect API key provided: {key}. You can find your API key at ..."}}
        return httpx.Response(401, json=body)


@pytest.mark.parametrize(
    ("header", "value", "key"),
    [
        ("api-key", "azure0123456789abcdefKEY9", "azure0123456789abcdefKEY9"),  # AzureOpenAI's only header
        ("x-api-key", "anthropic-private-key-5678", "anthropic-private-key-5678"),
        ("x-goog-api-key", "AIzaFAKEgooglekey00001234", "AIzaFAKEgooglekey00001234"),
        ("authorization", "Token tokenvalue00000004321", "tokenvalue00000004321"),
    ],
)
def test_a_key_in_any_credential_header_is_never_written_when_echoed(tmp_path, header, value, key):
    cassette = tmp_path / "c.jsonl"
    client = httpx.Client(transport=RecordingTransport(cassette, EchoHeader(header)), headers={header: value})
    request = {"model": "m", "messages": [{"role": "user", "content": f"my key is {key}"}]}
    assert client.post("http://gw/v1/chat/completions", json=request).status_code == 401
    text = cassette.read_text()
    assert (
        key not in text and f"Incorrect API key provided: {'Token ' * (header == 'authorization')}***{key[-4:]}" in text
    )
    assert json.loads(text)["request"]["body"]["messages"][0]["content"] == f"my key is ***{key[-4:]}"
    replay = httpx.Client(transport=ReplayTransport(cassette), headers={header: value})
    assert replay.post("http://elsewhere/v1/chat/completions", json=request).status_code == 401


def test_recording_where_no_file_can_be_made_is_refused_before_any_request(tmp_path):
    """Before: a link loop, or a folder that takes no new file (/proc), passed the check and the
    recording failed with a bare OSError after the (perhaps paid) request was sent."""
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    for path, problem in [
        (loop, "Too many levels of symbolic links"),
        (Path("/proc/session.jsonl"), "No such file or directory"),
    ]:
        with pytest.raises(CassetteError) as caught:
            RecordingTransport(path)
        assert str(caught.value) == f"cannot record to {path} (LLM_RECORD): it cannot be written ({problem})"
    later = tmp_path / "later.jsonl"
    link = tmp_path / "latest.jsonl"
    link.symlink_to(later)
    RecordingTransport(link)  # a link to a file still to be made: recording makes it
    assert not later.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["latest.jsonl", "loop.jsonl"]


def test_a_key_in_the_request_path_is_never_written_and_the_request_still_replays(tmp_path):
    """Before: the path was written as sent: a gateway that takes its key in the URL's path
    (`/u/<key>/v1/…`) had it in the cassette, and so had a token of a known format."""
    cassette, key = tmp_path / "c.jsonl", "gwkey-abcdefghijklmnop1234"
    token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    headers = {"Authorization": f"Bearer {key}"}
    urls = [f"http://gw/u/{key}/v1/responses", f"http://gw/t/{token}/v1/responses"]
    inner = httpx.MockTransport(lambda request: httpx.Response(200, json={"ok": 1}))
    client = httpx.Client(transport=RecordingTransport(cassette, inner), headers=headers)
    for url in urls:
        client.post(url, json={"a": 1}).read()
    text = cassette.read_text()
    assert key not in text and token not in text
    assert [json.loads(line)["request"]["path"] for line in text.splitlines()] == [
        "/u/***1234/v1/responses",
        "/t/[REDACTED]/v1/responses",
    ]
    replay = httpx.Client(transport=ReplayTransport(cassette), headers=headers)
    assert [replay.post(url, json={"a": 1}).json() for url in urls] == [{"ok": 1}, {"ok": 1}]


def test_recording_into_a_named_pipe_does_not_wait_for_a_writer(tmp_path):
    """Before: before each line the recorder opened the cassette to read its last byte, which for a
    FIFO (`mkfifo rec; cat rec & LLM_RECORD=rec …`) waits for a writer that never comes: the run hung."""
    fifo = tmp_path / "rec"
    os.mkfifo(fifo)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(fifo.read_text().splitlines()), daemon=True)
    reader.start()
    inner = httpx.MockTransport(lambda request: httpx.Response(200, json={"ok": 1}))
    recorded = threading.Thread(
        target=lambda: httpx.Client(transport=RecordingTransport(fifo, inner)).post("http://gw/v1/models").read(),
        daemon=True,
    )
    recorded.start()
    recorded.join(30)  # a guard against a hang, not a measure: it ends at once when the defect is gone
    reader.join(30)
    assert not recorded.is_alive() and len(lines) == 1 and json.loads(lines[0])["response"]["status"] == 200


def test_the_clock_of_a_cassette_that_cannot_be_recorded_or_read_is_a_typed_error_or_the_real_clock(tmp_path):
    """Before: `session_today()` raised a bare `RuntimeError: Symlink loop from …` for a link loop in
    LLM_RECORD or LLM_REPLAY, and `IsADirectoryError` for a folder in LLM_RECORD."""
    from toolkit.chat.clock import session_today

    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    for path, why in [(loop, "Too many levels of symbolic links"), (tmp_path, "Is a directory")]:
        with pytest.raises(CassetteError) as caught:
            session_today(env={"LLM_RECORD": str(path)})
        assert str(caught.value) == f"cannot record to {path} (LLM_RECORD): it cannot be written ({why})"
    assert session_today(env={"LLM_REPLAY": str(loop)}) == session_today(env={})  # connect() says why


VCR_CASSETTE = {
    "interactions": [
        {
            "request": {"body": "{}", "method": "POST", "uri": "https://api.openai.com/v1/chat/completions"},
            "response": {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": {"string": "{}"}},
        }
    ],
    "version": 1,
}


@pytest.mark.parametrize(
    "text, problem",
    [
        (
            json.dumps(VCR_CASSETTE),
            'holds no exchange: none of its 1 line has a "request" (line 1 has interactions, version)',
        ),
        (
            json.dumps({"log": {"version": "1.2", "entries": []}}) + "\n" + json.dumps({"log": {}}),
            'holds no exchange: none of its 2 lines has a "request" (line 1 has log)',
        ),
        (json.dumps(VCR_CASSETTE, indent=2), "is one JSON document over 22 lines, not one exchange per line"),
    ],
    ids=["vcr-json", "har", "vcr-json-indented"],
)
def test_a_cassette_of_another_tool_is_refused_as_such_not_as_empty(tmp_path, text, problem):
    """VCR.py's JSON cassette (or a HAR file) read as "the cassette is empty", or "line 1: not JSON: '{'"."""
    cassette = tmp_path / "vcr.json"
    cassette.write_text(text, encoding="utf-8")
    said = (
        f"cassette {cassette} {problem}: it is not a toolkit cassette (JSON Lines, as LLM_RECORD writes them); "
        "one recorded with another tool (VCR.py, a HAR file) cannot be replayed: record one with LLM_RECORD"
    )
    named = (
        " (set by LLM_REPLAY: give a cassette LLM_RECORD wrote, or unset LLM_REPLAY)"  # `connect` names the variable
    )
    for replay, told in (
        (lambda: connect(env={"LLM_REPLAY": str(cassette)}), said + named),
        (lambda: ReplayTransport(cassette), said),
    ):
        with pytest.raises(CassetteError) as info:
            replay()
        assert str(info.value) == told
        assert (
            info.value.hint == "No line of it is to fix: record the session with LLM_RECORD=..., or unset LLM_REPLAY."
        )


def test_every_line_says_the_cassette_format_it_was_written_in(tmp_path, monkeypatch):
    from toolkit.chat.clock import session_today

    cassette = tmp_path / "session.jsonl"
    record_session(cassette)
    monkeypatch.setenv("LLM_RECORD", str(tmp_path / "dated.jsonl"))
    session_today()
    lines = [json.loads(line) for line in (*cassette.read_text().splitlines(), (tmp_path / "dated.jsonl").read_text())]
    assert [line["format"] for line in lines] == [1, 1, 1, 1]


@pytest.mark.parametrize(
    "line, problem",
    [
        (
            {**EXCHANGE, "format": 3},
            "line 2: written in cassette format 3, by a newer toolkit; this one reads format 2: upgrade toolkit-course "
            "(pip install -U toolkit-course), or record the cassette again with this one",
        ),
        (
            {"clock": {"now": "2026-10-20T09:00:00"}, "format": 7},
            "line 2: written in cassette format 7, by a newer toolkit; this one reads format 2",
        ),
        (
            {**EXCHANGE, "format": "1"},
            "line 2: format '1' is no cassette format (a whole number, 1 or 2 for this toolkit)",
        ),
        ({**EXCHANGE, "format": 0}, "line 2: format 0 is no cassette format (a whole number, 1 or 2 for this toolkit)"),
    ],
)
def test_a_cassette_from_a_newer_toolkit_is_refused_naming_its_format(tmp_path, line, problem):
    """Lines of a format this toolkit does not know were read as its own (or refused as "corrupt")."""
    cassette = tmp_path / "session.jsonl"
    cassette.write_text(json.dumps(EXCHANGE) + "\n" + json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(CassetteError) as info:
        connect(env={"LLM_REPLAY": str(cassette)})
    assert str(info.value).startswith(f"cassette {cassette}, {problem}")


def test_a_placeholder_key_leaves_the_words_it_spells_in_the_cassette_and_its_replay(tmp_path):
    """With a local gateway's key `none`, the cassette wrote "*** of the tools" for the model's
    answer and `"tool_choice": "***"`, and replayed that to the learner; an echo of the key as a
    credential is still masked."""
    said = "none of the tools fit; echo: Authorization: Bearer none"
    reply = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": said}}]}
    cassette = tmp_path / "c.jsonl"
    gateway = httpx.MockTransport(lambda request: httpx.Response(200, json=reply))
    client = ChatClient("http://gw/v1", "none", "m", transport=RecordingTransport(cassette, gateway))
    assert client.chat([UserMessage(content="none?")], tools=TOOLS, tool_choice="none").message.content == said
    recorded = json.loads(cassette.read_text())
    assert recorded["request"]["body"]["tool_choice"] == "none"
    assert recorded["request"]["body"]["messages"][0]["content"] == "none?"
    assert "none of the tools fit; echo: Authorization: Bearer ***" in recorded["response"]["body"]
    replay = ChatClient(closed_port_url(), "none", "m", transport=ReplayTransport(cassette))
    replayed = replay.chat([UserMessage(content="none?")], tools=TOOLS, tool_choice="none").message.content
    assert replayed == "none of the tools fit; echo: Authorization: Bearer ***"


def test_a_base_url_password_a_gateway_echoes_is_written_without_its_last_characters(tmp_path):
    password = "Secr3t-passw0rd-long"

    def said(request):
        return httpx.Response(401, json={"error": {"message": f"{request.headers['authorization']} {password}"}})

    cassette = tmp_path / "c.jsonl"
    client = ChatClient(
        f"http://bob:{password}@gw/v1", "sk-abc", "m", transport=RecordingTransport(cassette, httpx.MockTransport(said))
    )
    with pytest.raises(CallerError) as caught:
        client.chat(QUESTION)
    assert str(caught.value).startswith("HTTP 401: Basic *** *** — ")
    assert json.loads(json.loads(cassette.read_text())["response"]["body"])["error"]["message"] == "Basic *** ***"
