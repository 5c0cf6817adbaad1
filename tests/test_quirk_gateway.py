"""Every notebook on gateways with one real provider's quirk each (`tests/quirk_gateway.py`): a
reasoning model's `<think>` text, DeepSeek's `reasoning_content` that must come back, `tools`
refused as Ollama / OpenRouter / llama.cpp refuse them, a strict server refusing `tool_choice`
and the other optional fields, no usage, arguments as an object, calls without ids or stream
`index`, `finish_reason: "function_call"`, a 429 on the first request, a model that never calls; Mistral's
9-character call ids, streams without `[DONE]`, a call to a tool that was not offered, a relay to
Gemini refusing `additionalProperties`; OpenRouter's SSE comments, Groq's 400 for a malformed call;
a model answering in Chinese, calling one tool more than asked, streaming one character a chunk, on a
server refusing the optional fields with OpenAI's 400; DashScope's `"finish_reason": "null"`, Azure's
content filter annotations, LiteLLM's extra fields, vLLM's empty `tool_calls` list, and DashScope's
refusal of a call not streamed until `enable_thinking` is false; LiteLLM's `thinking_blocks` for Claude that
must come back signed, and Groq refusing the `reasoning` field its replies carry; TGI shedding load (its
streamed error with its `error_type`, its 424), and Gemini's 429 whose wait is only its body's `retryDelay`;
a vLLM without its tool-call parser writing calls as `<tool_call>` text, and Qianfan's QPS limit in a 200,
on a llama.cpp that refuses tools with a stream; call ids written as numbers (NVIDIA NIM, LM Studio) on a server
whose streams carry sse-starlette's old `event: ping` keep-alives; a proxy gzipping every answer a second
time; calls written as text in a JSON code block after the thinking (llama3.2 on Ollama) or as a Python
list of calls (Llama 3.2's own format), one character a chunk; Llama 3.x's JSON calls after
`<|python_tag|>` joined by `;`, two at a time, one character a chunk; xAI refusing a tool result's `name`
on a relay to Gemini refusing a tool's `strict` (week 5 sends its tools strict), `$defs`, `$ref` and `const`,
that refuses a null text beside calls too.

Each quirk set runs all eleven notebooks in one kernel (~25 s each), so the test is opt-in like
the matrix: `TOOLKIT_MATRIX_TEST=1`. Covers: every code cell ends without an error, and no live
stream card says "not executed" for a call that ran.
"""

import os

import pytest

from tests.loopback import serving
from tests.notebook_runs import run_every_notebook
from tests.quirk_gateway import quirky

QUIRKS = [
    "think,no_tools_ollama",
    "reasoning,refuse_options,no_usage",
    "no_tools_openrouter,limited_once",
    "no_tools_llamacpp,never_calls",
    "object_args,no_ids,no_index,function_call",
    "mistral_ids,no_done,hallucinate,gemini_schema",
    "openrouter_comments,tool_use_failed",
    "functions_prefix,said_with_calls,other_model,usage_strings,gzip",
    "chinese,tiny_pieces,refuse_options_400,extra_call",
    "null_finish,azure_filter,litellm_fields,empty_calls,stream_thinking",
    "litellm_thinking",
    "groq_reasoning",
    "tgi_overloaded,gemini_retry_delay",
    "text_calls,qianfan_limited,stream_tools_refused",
    "numeric_ids,ping_events",
    "gzip_twice",
    "think,fenced_calls",
    "pythonic_calls,tiny_pieces",
    "joined_calls,extra_call,tiny_pieces",
    "xai_names,gemini_strict,gemini_refs,null_text_422",
]

pytestmark = pytest.mark.skipif(
    os.environ.get("TOOLKIT_MATRIX_TEST") != "1",
    reason="about 25 s per quirk set: set TOOLKIT_MATRIX_TEST=1 (CI runs it with the matrix)",
)


@pytest.mark.matrix
@pytest.mark.parametrize("quirks", QUIRKS)
def test_every_notebook_runs_to_the_end_on_a_quirky_gateway(quirks):
    with serving(quirky(*quirks.split(","))) as port:
        env = {"LLM_BASE_URL": f"http://127.0.0.1:{port}/v1", "LLM_API_KEY": "sk-quirky-key", "LLM_MODEL": "quirky"}
        failures, printed = run_every_notebook(env)
    assert failures == []
    streamed = [text for (name, _), text in printed.items() if name.startswith("04") and "done · finish reason" in text]
    assert streamed and not [text for text in streamed if "not executed" in text], streamed
    if "functions_prefix" in quirks:  # a call named `functions.query_order` runs query_order
        said = ("no tool named 'functions.", "没有名为 functions.")  # the loop's texts, in English and the course's
        unknown = [name for (name, _), text in printed.items() if any(s in text.lower() for s in said)]
        assert unknown == []
