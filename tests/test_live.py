"""The notebooks' live sections: a gateway failure is one readable line; the probe picks the route."""

import http.server
import json

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy
from toolkit.chat.messages import UserMessage
from toolkit.chat.switch import fake_client
from toolkit.course.live import course_model, explain, gateway_cell
from toolkit.course.prompt_protocol import PromptProtocol
from toolkit.errors import CallerError, TransientError

HELLO = [UserMessage(content="你好")]


def test_a_dead_gateway_is_one_line_naming_the_url(capsys):
    client = ChatClient("http://127.0.0.1:9/v1", "k", "m", retry=RetryPolicy(max_retries=0))
    with gateway_cell(client):
        client.chat(HELLO)
        print("not reached")
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("Cannot reach the gateway at http://127.0.0.1:9/v1 (")
    assert out[0].endswith("Check LLM_BASE_URL, or unset the LLM_* variables to use the embedded gateway.")
    assert out[0].count("Cannot reach the gateway") == 1  # the client's line, not wrapped in a second one


def test_a_timeout_without_its_cause_names_the_url_and_what_to_check():
    """Raised by hand (no httpx cause to say which timeout): the unreachable line, as before."""
    assert explain(TransientError("request timed out (ReadTimeout) after 1.0s"), fake_client()) == (
        "Cannot reach the gateway at http://fake-gateway.local/v1 (request timed out (ReadTimeout) after 1.0s). "
        "Check LLM_BASE_URL, or unset the LLM_* variables to use the embedded gateway."
    )


def test_a_read_timeout_says_the_gateway_is_slow_not_unreachable():
    def slow(request):
        raise httpx.ReadTimeout("timed out", request=request)

    client = ChatClient("http://gw.test/v1", "k", "m", transport=httpx.MockTransport(slow), timeout=1.0)
    client.retry = RetryPolicy(max_retries=0)
    try:
        client.chat(HELLO)
    except TransientError as error:
        assert explain(error, client) == (
            "The gateway at http://gw.test/v1 was reached but did not answer in time (request timed out "
            "(ReadTimeout) after 1.0s). A slow model (a reasoning model can think for minutes) needs a longer "
            "timeout, e.g. connect(timeout=120); or run the cell again."
        )
    else:
        raise AssertionError("no TransientError")


def test_a_rejected_tools_field_points_to_the_fallback(capsys):
    client = fake_client(mode="C")
    with gateway_cell(client):
        client.chat(HELLO, tools=[{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}])
    out = capsys.readouterr().out
    assert out.startswith("The gateway at http://fake-gateway.local/v1 rejects the `tools` field (HTTP 400")
    assert "week 3's prompt-protocol fallback" in out


def test_other_errors_name_their_kind():
    assert (
        explain(CallerError("HTTP 401: bad key", status=401))
        == "The gateway refused the key (HTTP 401). Check LLM_API_KEY."
    )
    assert (
        explain(TransientError("HTTP 503: busy", status=503))
        == "The gateway failed this cell: TransientError: HTTP 503: busy"
    )


def test_a_hostile_gateways_words_are_printed_on_one_line_as_seen():
    """Before: `explain` (what a notebook cell prints for a gateway failure) passed the gateway's message on as it
    came: an ANSI escape (`\\x1b[31m`, `\\x1b[2J`) coloured the learner's output, a right-to-left override read
    the line backwards. Now such a character is written as its code point, the line one line (`flat`)."""
    import json

    body = json.dumps({"error": {"message": "unknown field: tools\n\x1b[2J\u202ex"}})
    error = CallerError("HTTP 400: unknown field: tools \x1b[2J\u202ex", status=400, body=body)
    assert explain(error) == (
        "The gateway rejects the `tools` field (HTTP 400: unknown field: tools ⟨U+001B⟩[2J⟨U+202E⟩x). This cell "
        "needs native tool calling; week 3's prompt-protocol fallback works on such a gateway."
    )
    assert explain(CallerError("HTTP 404: \x1b[31mno such", status=404)) == (
        "The gateway failed this cell: CallerError: HTTP 404: ⟨U+001B⟩[31mno such"
    )


def test_the_probe_routes_c_and_d_to_the_fallback_and_says_so():
    for mode, fallback in zip("ABCDE", [False, True, True, True, False], strict=True):
        model, why = course_model(fake_client(mode=mode))
        assert isinstance(model, PromptProtocol) == fallback, mode
        assert why.startswith(f"Probe verdict {mode} (")
        assert ("switched to the prompt-protocol fallback" in why) == fallback


def test_an_unclassified_gateway_is_kept_and_the_sentence_says_why():
    client = ChatClient("http://127.0.0.1:9/v1", "k", "m", retry=RetryPolicy(max_retries=0))
    model, why = course_model(client)
    assert model is client and why.startswith("The probe could not classify this gateway (no HTTP response")


def test_course_client_names_a_dead_gateway_and_goes_on_embedded(capsys, monkeypatch):
    from toolkit.course.live import course_client, on_embedded_gateway

    monkeypatch.setenv("LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("LLM_API_KEY", "k")
    monkeypatch.setenv("LLM_MODEL", "m")
    client = course_client()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "gateway: real gateway http://127.0.0.1:9/v1, model m"
    assert out[1].startswith("Cannot reach the gateway at http://127.0.0.1:9/v1 (ConnectError")
    assert out[2] == "gateway: embedded fake keyword gateway (in-process, mode A)"
    assert on_embedded_gateway(client) and on_embedded_gateway(PromptProtocol(client))


def test_course_client_keeps_a_gateway_that_answers(capsys, monkeypatch):
    from toolkit.course.live import course_client, on_embedded_gateway
    from toolkit.gateway.server import running_gateway

    with running_gateway(mode="A") as url:
        monkeypatch.setenv("LLM_BASE_URL", url)
        monkeypatch.setenv("LLM_API_KEY", "k")
        monkeypatch.setenv("LLM_MODEL", "m")
        client = course_client()
    assert capsys.readouterr().out == f"gateway: real gateway {url}, model m\n"
    assert not on_embedded_gateway(client)


def test_run_lines_say_what_happened_without_assuming_a_call():
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.course.live import run_lines
    from toolkit.loop.run import run_loop
    from toolkit.tools.decorator import tool

    @tool("Echo a word.")
    def echo(word: str) -> str:
        return word * 2

    answered = run_loop(ScriptedModel(["你好！"]), HELLO, tools=[echo])
    assert run_lines(answered) == [
        "model requests: 1 | finish: answer",
        "no tool call: the model answered directly",
        "answer: 你好！",
    ]
    called = run_loop(ScriptedModel([call("echo", word="ab"), "abab"]), HELLO, tools=[echo])
    assert run_lines(called)[1] == '→ echo({"word": "ab"}) → abab'


def test_run_lines_leave_a_reasoning_models_thinking_out_of_the_answer():
    """A reasoning model served without a parser writes `<think>…</think>` before its answer: the
    live cell printed "answer: The user asks… </think> 你好！", thinking and all."""
    from toolkit.chat.scripted import ScriptedModel
    from toolkit.course.live import run_lines
    from toolkit.loop.run import run_loop

    answered = run_loop(ScriptedModel(["<think>\n用户在打招呼，不用查订单。\n</think>\n\n你好！"]), HELLO)
    assert run_lines(answered)[-2:] == [
        "thinking: 13 characters between <think> tags, left out of the answer",
        "answer: 你好！",
    ]
    cut = run_loop(ScriptedModel(["<think>用户在问物流，我应该"]), HELLO)  # cut off while thinking
    assert run_lines(cut)[-1] == "answer: (none)"


def test_credentials_in_the_base_url_are_never_printed(capsys, monkeypatch):
    from toolkit.course.live import course_client

    monkeypatch.setenv("LLM_BASE_URL", "http://bob:s3cret-pass@127.0.0.1:9/v1")
    monkeypatch.setenv("LLM_API_KEY", "k")
    monkeypatch.setenv("LLM_MODEL", "m")
    client = course_client()
    with gateway_cell(ChatClient("http://bob:s3cret-pass@127.0.0.1:9/v1", "k", "m", retry=RetryPolicy(max_retries=0))):
        ChatClient("http://bob:s3cret-pass@127.0.0.1:9/v1", "k", "m", retry=RetryPolicy(max_retries=0)).chat(HELLO)
    out = capsys.readouterr().out
    assert "s3cret-pass" not in out and "Cannot reach the gateway at http://bob:***@127.0.0.1:9/v1" in out
    assert client is not None


def test_run_lines_print_no_secret_a_tool_returns_or_the_model_sends():
    """`run_lines` printed arguments, results and the answer raw: a tool that returns a key left
    it in the learner's saved notebook (the trace view scrubs the same texts)."""
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.course.live import run_lines
    from toolkit.loop.run import run_loop
    from toolkit.tools.decorator import tool

    key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"

    @tool("Read the settings.")
    def settings(section: str) -> str:
        return f"api key {key}"

    result = run_loop(ScriptedModel([call("settings", section=key), f"the key is {key}"]), HELLO, tools=[settings])
    lines = run_lines(result)
    assert not [line for line in lines if key in line]
    assert lines[1] == '→ settings({"section": "[REDACTED]"}) → api key [REDACTED]'


def test_run_lines_write_a_hostile_models_name_arguments_and_answer_on_their_lines_as_seen():
    """Before: a live model's tool name and arguments were printed as they came: a name holding a line break
    printed a line of its own (`answer: 已退款`, as if the run had answered so), a right-to-left override read
    the rest backwards, an ANSI escape coloured the learner's output. Now the name and arguments are written
    `flat` (line breaks as `\\n`, such characters as code points), the result and answer `showable`."""
    from toolkit.chat.scripted import ScriptedModel, call
    from toolkit.course.live import run_lines
    from toolkit.loop.records import LoopOptions
    from toolkit.loop.run import run_loop
    from toolkit.tools.execute import FEED_BACK_ALL

    name = "echo\nanswer: 已退款\u202e"
    script = [call(name, word="a\nb\x1b[31m"), "ok \u202e\x1b[2J"]
    result = run_loop(ScriptedModel(script), HELLO, tools=[], options=LoopOptions(policies=FEED_BACK_ALL))
    lines = run_lines(result)
    assert lines[1].startswith('→ echo\\nanswer: 已退款⟨U+202E⟩({"word": "a\\nb\\u001b[31m"}) (error) → ')
    assert lines[-1] == "answer: ok ⟨U+202E⟩⟨U+001B⟩[2J"
    assert len(lines) == 3


OPENROUTER_404 = (
    '{"error":{"message":"No endpoints found that support tool use. To learn more about provider routing, '
    'visit: https://openrouter.ai/docs/provider-routing","code":404}}'
)
LLAMA_CPP_500 = '{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}'


@pytest.mark.parametrize("status, body", [(404, OPENROUTER_404), (500, LLAMA_CPP_500)])
def test_a_gateway_refusing_tools_with_a_404_or_a_500_goes_to_the_fallback(status, body, capsys):
    """OpenRouter refuses tools for a model without them with a 404, llama.cpp's server without
    --jinja with a 500: the probe left them unclassified, the course stayed on native tools and
    every tool cell failed with "check LLM_BASE_URL" (404) or a bare HTTP 500."""
    from tests.loopback import refusing_tools, serving
    from toolkit.course.assistant import ask
    from toolkit.course.probe import PROBE_TOOLS

    with serving(refusing_tools(status, body)) as port:
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "k", "m", retry=RetryPolicy(max_retries=0))
        model, why = course_model(client)
        assert isinstance(model, PromptProtocol) and why.startswith("Probe verdict C (rejects tools)")
        result = ask(model, "帮我查一下订单 SN202610200001 的状态")
        assert [e.call.name for e in result.executions] == ["query_order"]
        with gateway_cell(client):
            client.chat(HELLO, tools=PROBE_TOOLS)
    message = json.loads(body)["error"]["message"]
    assert capsys.readouterr().out == (
        f"The gateway at http://127.0.0.1:{port}/v1 rejects the `tools` field (HTTP {status}: {message}). This cell "
        "needs native tool calling; week 3's prompt-protocol fallback works on such a gateway.\n"
    )


def test_an_error_naming_only_the_model_is_not_read_as_refusing_tools():
    client = ChatClient("http://gw.test/v1", "k", "xlam-tool-7b")
    error = CallerError("HTTP 404: The model `xlam-tool-7b` does not exist — check LLM_BASE_URL", status=404)
    for shown in (client, PromptProtocol(client)):
        assert explain(error, shown) == (
            "The gateway at http://gw.test/v1 failed this cell: CallerError: HTTP 404: The model `xlam-tool-7b` does "
            "not exist — check LLM_BASE_URL"
        )


@pytest.mark.parametrize(
    "name, value, said",
    [
        (
            "LLM_BASE_URL",
            "api.openai.com/v1",
            "ChatClient: base_url 'api.openai.com/v1' is not an http(s) URL with a host; use one like "
            "http://127.0.0.1:8000/v1 or https://api.openai.com/v1 (check LLM_BASE_URL)",
        ),
        (
            "LLM_BASE_URL",
            "http://127.0.0.1:9/openai/v1/chat/completions/?api-version=2024-10-21",  # the endpoint a doc shows
            "connect(): LLM_BASE_URL 'http://127.0.0.1:9/openai/v1/chat/completions/?api-version=2024-10-21' ends in "
            "/chat/completions, which the client adds itself; set it to the part before: "
            "http://127.0.0.1:9/openai/v1?api-version=2024-10-21",
        ),
        (
            "LLM_API_KEY",
            "sk-secret-0123456789\nabcdef",
            "ChatClient: the API key has a character that cannot go in an HTTP header (U+000A at position 21 of "
            "27); API keys are printable ASCII: check LLM_API_KEY for a pasted quote, space or line break",
        ),
    ],
)
def test_course_client_names_a_misconfigured_gateway_and_goes_on_embedded(capsys, monkeypatch, name, value, said):
    """A mistyped LLM_BASE_URL or a key with a line break was a traceback in the first cell of
    every notebook, and each later cell a NameError: an unreachable gateway goes on embedded, so
    does one the variables cannot describe."""
    from toolkit.course.live import course_client, on_embedded_gateway

    for var, default in (("LLM_BASE_URL", "http://127.0.0.1:9/v1"), ("LLM_API_KEY", "k"), ("LLM_MODEL", "m")):
        monkeypatch.setenv(var, value if var == name else default)
    client = course_client()
    assert capsys.readouterr().out.splitlines() == [
        f"The LLM_* variables do not describe a gateway: {said} So that every cell still runs, this notebook "
        "continues on:",
        "gateway: embedded fake keyword gateway (in-process, mode A)",
    ]
    assert on_embedded_gateway(client)


def test_course_client_still_raises_for_its_own_options(monkeypatch):
    """An option given in code is the code's mistake, with or without the variables."""
    from toolkit.course.live import course_client
    from toolkit.errors import ConfigurationError

    monkeypatch.setenv("LLM_BASE_URL", "api.openai.com/v1")
    with pytest.raises(ConfigurationError, match="timeout must be"):
        course_client(timeout=-1)


def test_course_client_names_a_cassette_it_cannot_replay_and_goes_on_embedded(capsys, monkeypatch, tmp_path):
    from toolkit.course.live import course_client, on_embedded_gateway

    missing = tmp_path / "session.jsonl"
    monkeypatch.setenv("LLM_REPLAY", str(missing))
    client = course_client()
    assert capsys.readouterr().out.splitlines() == [
        f"The LLM_* variables do not describe a gateway: cassette {missing} cannot be read: No such file or "
        "directory (set by LLM_REPLAY: give a cassette LLM_RECORD wrote, or unset LLM_REPLAY) So that every cell "
        "still runs, this notebook continues on:",
        "gateway: embedded fake keyword gateway (in-process, mode A)",
    ]
    assert on_embedded_gateway(client)


def test_a_dead_loopback_gateway_is_unreachable_whatever_the_proxy_variables_say(monkeypatch):
    """Before: `unreachable()` asked the learner's `HTTP_PROXY` for a loopback URL; a proxy that answered
    anything (a 502 of its own) made a dead local gateway look reachable."""

    from loopback import closed_port, serving

    from toolkit.course.live import unreachable

    class Proxy(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(502)
            self.send_header("Content-Length", "0")
            self.end_headers()

    with serving(Proxy) as proxy, closed_port() as port:
        for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
            monkeypatch.setenv(name, f"http://127.0.0.1:{proxy}")
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        dead = ChatClient(f"http://127.0.0.1:{port}/v1", "sk-test", "m")
        assert (unreachable(dead) or "").startswith("ConnectError")


BLOCK_PAGE = "<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body></body></html>"
REGION = {
    "error": {"message": "Country, region, or territory not supported", "code": "unsupported_country_region_territory"}
}


@pytest.mark.parametrize(
    "status, body, said",
    [
        (
            403,
            BLOCK_PAGE,
            "The gateway at http://gw.test/v1 did not answer: a web page came back (HTTP 403: Attention Required! | "
            "Cloudflare (an HTML page)), from a proxy, firewall or sign-in page in front of it, not its key check. "
            "Check LLM_BASE_URL, and whether this network may reach the gateway.",
        ),
        (
            403,
            json.dumps(REGION),
            "The gateway at http://gw.test/v1 refused the request (HTTP 403: Country, region, or territory not "
            "supported). The key may not use this model, or the account, region or network is not allowed: check "
            "LLM_MODEL and what the key may do.",
        ),
        (
            401,
            json.dumps({"error": {"message": "Invalid API key"}}),
            "The gateway at http://gw.test/v1 refused the key (HTTP 401). Check LLM_API_KEY.",
        ),
    ],
)
def test_a_401_or_403_says_who_refused_and_blames_the_key_only_for_a_401(capsys, status, body, said):
    """Every 401 and 403 read "refused the key … Check LLM_API_KEY": a CDN's block page too, and
    OpenAI's refusal of a region, where the key is fine."""
    kind = "text/html" if body.startswith("<") else "application/json"
    answer = httpx.MockTransport(lambda r: httpx.Response(status, text=body, headers={"content-type": kind}))
    client = ChatClient("http://gw.test/v1", "k", "m", transport=answer)
    with gateway_cell(client):
        client.chat(HELLO)
    assert capsys.readouterr().out == said + "\n"


class JsonHandler(http.server.BaseHTTPRequestHandler):
    """A loopback gateway's handler: quiet, and `send(code, data)` answers with `data` as JSON."""

    def log_message(self, *args: object) -> None:
        pass

    def send(self, code: int, data: dict) -> None:
        raw = json.dumps(data).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


def _refusing(status: int, body: dict) -> type:
    """A gateway answering every request (`GET /models` too) with `status` and `body`."""

    class Handler(JsonHandler):
        def answer(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send(status, body)

        do_GET = do_POST = answer

    return Handler


WRONG_KEY = "sk-wrong-key-0123456789abcdef"


def _course_client_of(handler: type, model: str, monkeypatch) -> tuple[str, object]:
    """`course_client()` with LLM_* naming a loopback gateway served by `handler` (WRONG_KEY, `model`):
    the gateway's URL and the client the notebook would get."""
    from tests.loopback import serving
    from toolkit.course.live import course_client

    with serving(handler) as port:
        url = f"http://127.0.0.1:{port}/v1"
        monkeypatch.setenv("LLM_BASE_URL", url)
        monkeypatch.setenv("LLM_API_KEY", WRONG_KEY)
        monkeypatch.setenv("LLM_MODEL", model)
        return url, course_client()


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (  # OpenAI's, and the key echoed whole by a careless relay: masked
            401,
            {"error": {"message": f"Incorrect API key provided: {WRONG_KEY}.", "code": "invalid_api_key"}},
            "HTTP 401: Incorrect API key provided: ***cdef.",
        ),
        (  # Gemini's OpenAI-compatible endpoint says a wrong key with a 400
            400,
            [{"error": {"code": 400, "message": "API key not valid. Please pass a valid API key."}}],
            "HTTP 400: API key not valid. Please pass a valid API key.",
        ),
    ],
)
def test_course_client_names_a_refused_key_and_goes_on_embedded(capsys, monkeypatch, status, body, said):
    """A wrong LLM_API_KEY on a gateway that answers: the first cell that asked the model in weeks 0,
    1, 3 and 4 stopped the notebook with a CallerError traceback (and every later cell with a
    NameError). A keyed `GET /models` (free) names the refusal, and the notebook goes on embedded."""
    from toolkit.course.live import on_embedded_gateway

    url, client = _course_client_of(_refusing(status, body), "m", monkeypatch)
    assert capsys.readouterr().out.splitlines() == [
        f"gateway: real gateway {url}, model m",
        f"The gateway at {url} refused the key ({said}). Check LLM_API_KEY. "
        "So that every cell still runs, this notebook continues on:",
        "gateway: embedded fake keyword gateway (in-process, mode A)",
    ]
    assert on_embedded_gateway(client)


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (403, {"error": {"message": "Missing scopes: api.model.read", "type": "invalid_request_error"}}),
        (404, {"error": {"message": "Not Found"}}),
        (400, {"error": {"message": "Invalid parameter: model"}}),
        (500, {"error": {"message": "internal error"}}),
    ],
)
def test_course_client_keeps_a_gateway_whose_models_answer_says_nothing_about_the_key(
    capsys, monkeypatch, status, body
):
    """A key that may not list models (OpenAI's restricted keys: 403), a gateway without the route
    (404), any other answer: not a refused key, so the notebook stays on the learner's gateway."""
    from toolkit.course.live import on_embedded_gateway

    url, client = _course_client_of(_refusing(status, body), "m", monkeypatch)
    assert capsys.readouterr().out == f"gateway: real gateway {url}, model m\n"
    assert not on_embedded_gateway(client)


def _listing(models: list[str], status: int, body: dict) -> type:
    """A gateway whose `GET /models` lists `models` and that answers every chat request with
    `status` and `body`; the chat requests it got are kept in `Handler.posts`."""

    class Handler(JsonHandler):
        posts: list[dict] = []
        keyed_lists: int = 0
        """How many `GET /models` came with the key (the check that asks without it is `unreachable`)."""

        def do_GET(self) -> None:
            Handler.keyed_lists += WRONG_KEY in (self.headers.get("Authorization") or "")
            self.send(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in models]})

        def do_POST(self) -> None:
            Handler.posts.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send(status, body)

    return Handler


NOT_FOUND = {"error": {"message": "The model `gpt-4o-mni` does not exist or you do not have access to it.",
                       "type": "invalid_request_error", "code": "model_not_found"}}  # fmt: skip


@pytest.mark.parametrize(
    ("models", "listed"),
    [
        (["gpt-4o-mini", "gpt-4o"], "gpt-4o-mini, gpt-4o"),
        ([f"m{i}" for i in range(9)], "m0, m1, m2, m3, m4 and 4 more"),
    ],
)
def test_course_client_names_a_model_the_gateway_does_not_serve_and_goes_on_embedded(
    capsys, monkeypatch, models, listed
):
    """A mistyped LLM_MODEL on a gateway that answers: like a wrong key, the first cell that asked the
    model stopped weeks 0, 1, 3 and 4 with a CallerError traceback. A model missing from the
    gateway's list is confirmed with one request of one token, and its refusal named."""
    from toolkit.course.live import on_embedded_gateway

    handler = _listing(models, 404, NOT_FOUND)
    url, client = _course_client_of(handler, "gpt-4o-mni", monkeypatch)
    assert capsys.readouterr().out.splitlines() == [
        f"gateway: real gateway {url}, model gpt-4o-mni",
        f"The gateway at {url} refused the model gpt-4o-mni (HTTP 404: The model `gpt-4o-mni` does not exist or "
        f"you do not have access to it.). Check LLM_MODEL; the gateway lists {listed}. "
        "So that every cell still runs, this notebook continues on:",
        "gateway: embedded fake keyword gateway (in-process, mode A)",
    ]
    assert on_embedded_gateway(client)
    assert [p["max_tokens"] for p in handler.posts] == [1]
    assert handler.keyed_lists == 1  # one answer read for the key's check and the model's


@pytest.mark.parametrize(
    ("model", "status", "posts"),
    [
        ("gpt-4o", 404, 0),  # listed: nothing asked
        ("my-deployment", 200, 1),  # not listed, yet served (a deployment's name, an alias)
        ("o3", 400, 1),  # not listed, and a 400 about something else than the model
    ],
)
def test_course_client_keeps_a_model_the_gateway_serves(capsys, monkeypatch, model, status, posts):
    from toolkit.course.live import on_embedded_gateway

    body = {"error": {"message": "Unsupported parameter: 'max_tokens' is not supported with this model."}}
    reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "h"}, "finish_reason": "length"}]}
    handler = _listing(["gpt-4o"], status, reply if status == 200 else body)
    url, client = _course_client_of(handler, model, monkeypatch)
    assert capsys.readouterr().out == f"gateway: real gateway {url}, model {model}\n"
    assert not on_embedded_gateway(client)
    assert len(handler.posts) == posts
    assert handler.keyed_lists == 1


@pytest.mark.parametrize(
    "finish, note",
    [
        (
            "length",
            'note: the answer is cut off (finish_reason "length": the model reached its token limit); raise '
            "max_tokens, or ask for a shorter answer",
        ),
        (
            "content_filter",
            'note: the answer is cut off (finish_reason "content_filter": the gateway\'s content filter stopped it); '
            "rephrase the request, or check the gateway's filter",
        ),
        (
            "model_length",  # Mistral's: the conversation filled the model's context window
            'note: the answer is cut off (finish_reason "model_length": the conversation filled the model\'s context '
            "window); shorten the conversation",
        ),
    ],
)
def test_run_lines_say_an_answer_cut_off_by_its_length_or_the_content_filter(finish, note):
    """Azure cuts an answer its filter flags midway (finish_reason "content_filter"): the live cell
    printed the part before as the whole answer, with no note, as it did before for "length"."""
    from toolkit.chat.messages import AssistantMessage, ChatResponse
    from toolkit.chat.scripted import ScriptedModel
    from toolkit.course.live import run_lines
    from toolkit.loop.run import run_loop

    cut = ChatResponse(message=AssistantMessage(content="Your order SN1 is"), finish_reason=finish)
    assert run_lines(run_loop(ScriptedModel([cut]), HELLO))[-2:] == ["answer: Your order SN1 is", note]


class _Refusing:
    """A real gateway's client (for `refused_model`) whose `GET /models` lists `listed` and which refuses its model."""

    base_url = shown_url = "https://gw.test/v1"

    def __init__(self, model, listed):
        self.model, self.listed = model, listed

    def model_refused(self, answer=None):
        from toolkit.errors import CallerError

        return CallerError("HTTP 400: not a valid model ID", status=400), self.listed


OPENROUTER_IDS = [f"vendor{i}/model-{i}" for i in range(300)] + ["openai/gpt-4o-mini", "openai/gpt-4o"]


@pytest.mark.parametrize(
    ("model", "named"),
    [
        # OpenRouter lists 300+ models, newest first: the first five say nothing about a model named without
        # its vendor's prefix; the ones that look like it come first
        ("gpt-4o", "openai/gpt-4o, openai/gpt-4o-mini, vendor0/model-0, vendor1/model-1, vendor2/model-2 and 297 more"),
        (
            "GPT-4O-MINI",
            "openai/gpt-4o-mini, openai/gpt-4o, vendor0/model-0, vendor1/model-1, vendor2/model-2 and 297 more",
        ),
    ],
)
def test_a_refused_model_is_shown_the_listed_models_that_look_like_it_first(model, named):
    """Before: the first five of OpenRouter's list, whatever the model asked (x-ai/…, z-ai/… for "gpt-4o")."""
    from toolkit.course.live import refused_model

    line = refused_model(_Refusing(model, OPENROUTER_IDS))
    assert line == (
        f"The gateway at https://gw.test/v1 refused the model {model} (HTTP 400: not a valid model ID). "
        f"Check LLM_MODEL; the gateway lists {named}."
    )


@pytest.mark.parametrize(
    ("body", "ids"),
    [
        ('{"object": "list", "data": [{"id": "a"}, {"id": "b"}]}', ["a", "b"]),  # OpenAI's, OpenRouter's
        ('[{"id": "a", "object": "model", "type": "chat"}, {"id": "b"}, 3]', ["a", "b"]),  # Together's: a bare list
        ('{"models": [{"name": "a"}]}', []),  # Ollama's own /api/tags: no ids here
        ("<html>", []),
    ],
)
def test_the_model_ids_of_every_gateways_models_list(body, ids):
    from toolkit.chat.client import _model_ids

    assert _model_ids(200, body) == ids
    assert _model_ids(404, body) == []


def test_a_model_listed_under_googles_prefix_or_ollamas_tag_is_listed(monkeypatch):
    """Gemini's OpenAI endpoint lists `models/gemini-2.5-flash` and serves `gemini-2.5-flash`; Ollama lists
    `llama3.2:latest` and serves `llama3.2` (confirming it loaded the model: seconds, on a laptop): no request
    is spent confirming them (a model listed under another name is asked once, with one token)."""
    import httpx

    from toolkit.chat.client import ChatClient

    asked = []

    def direct(self, timeout):
        asked.append(self.model)
        return httpx.Client(transport=httpx.MockTransport(lambda request: httpx.Response(200, json={})))

    monkeypatch.setattr(ChatClient, "_direct", direct)
    listed = '{"object": "list", "data": [{"id": "models/gemini-2.5-flash"}, {"id": "llama3.2:latest"}]}'
    for model, confirmed in [("gemini-2.5-flash", []), ("llama3.2", []), ("gemini-2.5-pro", ["gemini-2.5-pro"])]:
        client = ChatClient("https://gw.test/v1beta/openai", "k" * 20, model)
        assert client.model_refused(answer=(200, listed)) is None and asked == confirmed


def _models_need_other_auth() -> type:
    """A gateway whose `GET /models` wants its own header (Anthropic's native models list: x-api-key) and
    answers a Bearer key 401, while its chat endpoint takes the key; the chat requests it got are kept."""

    class Handler(JsonHandler):
        posts: list[dict] = []

        def do_GET(self) -> None:
            error = {"type": "authentication_error", "message": "x-api-key header is required"}
            self.send(401, {"type": "error", "error": error})

        def do_POST(self) -> None:
            Handler.posts.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            message = {"role": "assistant", "content": "h"}
            self.send(200, {"choices": [{"index": 0, "message": message, "finish_reason": "length"}]})

    return Handler


def test_course_client_keeps_a_gateway_whose_models_list_alone_refuses_the_key(capsys, monkeypatch):
    """Before: a 401 from `GET /models` alone read as a refused key, and the notebook left a gateway whose chat
    endpoint takes it (a models list behind other auth, as Anthropic's). A 401 there is confirmed with one
    request of one token to the chat endpoint, which decides."""
    from toolkit.course.live import on_embedded_gateway

    handler = _models_need_other_auth()
    url, client = _course_client_of(handler, "m", monkeypatch)
    assert capsys.readouterr().out == f"gateway: real gateway {url}, model m\n"
    assert not on_embedded_gateway(client)
    assert [p["max_tokens"] for p in handler.posts] == [1]
