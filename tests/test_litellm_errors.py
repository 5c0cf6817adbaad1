"""A LiteLLM proxy's error wraps the provider's: `litellm.BadRequestError: OpenAIException - Error code: 400 -
{'error': {'message': …}}` then its router's context (`Received Model Group=…`). The learner reads one line: the
provider's own message, who said it, and the client's hint (docs.litellm.ai/docs/exception_mapping)."""

import json

import httpx
import pytest

from toolkit.chat.client import ChatClient, RetryPolicy, error_message
from toolkit.chat.litellm_errors import unwrapped
from toolkit.chat.messages import UserMessage
from toolkit.chat.sse import error_detail
from toolkit.errors import CallerError, TransientError

OPENAI_400 = (
    "litellm.BadRequestError: OpenAIException - Error code: 400 - {'error': {'message': \"Invalid "
    "'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern "
    "'^[a-zA-Z0-9_-]+$'.\", 'type': 'invalid_request_error', 'param': 'tools[0].function.name', 'code': "
    "'invalid_value'}}\nReceived Model Group=gpt-4o\nAvailable Model Group Fallbacks=None"
)
ANTHROPIC_400 = (
    'litellm.BadRequestError: AnthropicException - {"type":"error","error":{"type":"invalid_request_error",'
    '"message":"messages.1.content.0.tool_use.input: Input should be a valid dictionary"}}. Received Model '
    "Group=claude-sonnet\nAvailable Model Group Fallbacks=None"
)
BEDROCK_429 = (
    'litellm.RateLimitError: BedrockException - {"message":"Too many tokens, please wait before trying again."}. '
    "Received Model Group=anthropic.claude-sonnet-4\nAvailable Model Group Fallbacks=None\nError doing the "
    "fallback: list index out of range LiteLLM Retried: 1 times, LiteLLM Max Retries: 2"
)
ROUTER_400 = (
    "litellm.BadRequestError: You passed in model=MiniMax/MiniMax-M2.1. There are no healthy deployments for this "
    "modelNo fallback model group found for original model_group=MiniMax/MiniMax-M2.1. Fallbacks=[{'a': ['b']}]. "
    "Received Model Group=MiniMax/MiniMax-M2.1\nAvailable Model Group Fallbacks=None"
)


@pytest.mark.parametrize(
    "message, said",
    [
        (
            OPENAI_400,
            "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the "
            "pattern '^[a-zA-Z0-9_-]+$'. (OpenAI, through LiteLLM)",
        ),
        (
            ANTHROPIC_400,
            "messages.1.content.0.tool_use.input: Input should be a valid dictionary (Anthropic, through LiteLLM)",
        ),
        (BEDROCK_429, "Too many tokens, please wait before trying again. (Bedrock, through LiteLLM)"),
        (
            ROUTER_400,
            "You passed in model=MiniMax/MiniMax-M2.1. There are no healthy deployments for this model (LiteLLM)",
        ),
        (
            "litellm.AuthenticationError: AuthenticationError: OpenAIException - Incorrect API key provided: sk-ab***cd.",
            "Incorrect API key provided: sk-ab***cd. (OpenAI, through LiteLLM)",
        ),
        (  # a provider body cut short: its text, not a crash
            'litellm.BadRequestError: OllamaException - {"error": "model \'qwen3\' not found',
            '{"error": "model \'qwen3\' not found (Ollama, through LiteLLM)',
        ),
        (
            "litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError: OpenAIException "
            "- This model's maximum context length is 8192 tokens.",
            "This model's maximum context length is 8192 tokens. (OpenAI, through LiteLLM)",
        ),
        (
            "litellm.RateLimitError: No deployments available for selected model, Try again in 60 seconds. Passed "
            "model=gpt-4o. pre-call-checks=False, cooldown_list=[('abc', {'exception_received': '…'})]",
            "No deployments available for selected model, Try again in 60 seconds (LiteLLM)",
        ),
        ("Invalid model", "Invalid model"),  # not LiteLLM's: as it is
        ("litellm.: nothing", "litellm.: nothing"),
    ],
)
def test_a_litellm_message_is_read_down_to_the_providers_words(message, said):
    assert unwrapped(message) == said


def _client(status: int, message: str) -> ChatClient:
    body = {"error": {"message": message, "type": None, "param": None, "code": str(status)}}
    transport = httpx.MockTransport(lambda request: httpx.Response(status, json=body))
    return ChatClient("http://gw.test/v1", "sk-lite-key", "m", transport=transport, retry=RetryPolicy(max_retries=0))


def test_a_litellm_400_reaches_the_learner_as_one_readable_line_with_the_hint():
    """Before: `HTTP 400: litellm.BadRequestError: OpenAIException - Error code: 400 - {'error': {'message': …, 'type':
    …, 'param': …, 'code': …}} Received Model Group=gpt-4o Available Model Group Fallbacks=None — the gateway …`."""
    with pytest.raises(CallerError) as caught:
        _client(400, OPENAI_400).chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        "HTTP 400: Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches "
        "the pattern '^[a-zA-Z0-9_-]+$'. (OpenAI, through LiteLLM) — the gateway rejected the request body; fix it "
        "(not retried)"
    )


def test_a_litellm_429_says_the_providers_words_and_is_retried_as_before():
    with pytest.raises(TransientError) as caught:
        _client(429, BEDROCK_429).chat([UserMessage(content="hi")])
    assert str(caught.value) == (
        "HTTP 429 (transient): Too many tokens, please wait before trying again. (Bedrock, through LiteLLM)"
    )


def test_a_litellm_error_inside_a_stream_or_a_200_reads_the_same():
    assert error_detail({"message": ANTHROPIC_400, "code": "400"}) == (
        "messages.1.content.0.tool_use.input: Input should be a valid dictionary (Anthropic, through LiteLLM)"
    )
    assert error_message(json.dumps({"error": {"message": ANTHROPIC_400}})) == error_detail({"message": ANTHROPIC_400})
