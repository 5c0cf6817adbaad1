"""A local server that cannot load the model for want of memory answers a 500 no retry changes: it was
retried twice (each a model load) and said `HTTP 500 (transient): …` with no fix."""

import httpx
import pytest
from test_client import Script, make

from toolkit.chat.client import RetryPolicy
from toolkit.chat.messages import UserMessage
from toolkit.chat.model_memory import MEMORY_HINT, too_big
from toolkit.errors import CallerError, TransientError

OLLAMA = "model requires more system memory (7.5 GiB) than is available (5.2 GiB)"


@pytest.mark.parametrize(
    "body",
    [
        {"error": OLLAMA},  # Ollama's native shape
        {"error": {"message": OLLAMA, "type": "api_error", "param": None, "code": None}},  # its /v1
    ],
)
def test_a_model_too_big_for_the_servers_memory_is_said_with_the_fix_not_retried(body):
    script = Script(httpx.Response(500, json=body))
    client, sleeps = make(script)
    with pytest.raises(CallerError) as caught:
        client.chat([UserMessage(content="hi")])
    assert len(script.requests) == 1 and sleeps == []
    assert str(caught.value) == f"HTTP 500: {OLLAMA} — {MEMORY_HINT}"


@pytest.mark.parametrize(
    "text, said",
    [
        (OLLAMA, True),
        ("model requires more GPU memory (12.0 GiB) than is available (8.0 GiB)", True),
        ("llama runner process has terminated: cudaMalloc failed: out of memory", True),
        ("failed to allocate CUDA0 buffer of size 4294967296", True),
        ('Failed to load model "qwen". Error: Model loading aborted due to insufficient system resources.', True),
        ("the server is out of capacity, try again", False),
        ("memory store unavailable", False),
        ("Internal Server Error", False),
    ],
)
def test_what_says_the_model_does_not_fit(text, said):
    assert too_big(text) is said


def test_another_500_is_still_retried():
    script = Script(httpx.Response(500, json={"error": "Internal Server Error"}), httpx.Response(500, json={}))
    client, _ = make(script, retry=RetryPolicy(max_retries=1))
    with pytest.raises(TransientError):
        client.chat([UserMessage(content="hi")])
    assert len(script.requests) == 2
