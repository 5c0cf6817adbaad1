"""Whether a gateway's error says the request is longer than the model's context window.

Every provider says it in its own words, with a 400 (a 413 or 422 at some): OpenAI's and Groq's
`"code": "context_length_exceeded"` ("This model's maximum context length is 128000 tokens…", as
vLLM and DeepSeek word it too), llama.cpp's `"type": "exceed_context_size_error"` ("the request
exceeds the available context size"), text-generation-inference's "`inputs` tokens + `max_new_tokens`
must be <= 4096", Mistral's "too large for model with 32768 maximum context length", Anthropic's
(through a relay) "prompt is too long", Gemini's "The input token count (…) exceeds the maximum number
of tokens allowed", Moonshot's "Your request exceeded model token limit: 262144" (once "model max length
exceeded"), DashScope's "Range of input length should be [1, 30720]", Zhipu's "Prompt 超长" (code 1261),
Cohere's "too many tokens: total number of tokens in the prompt cannot exceed 4081" (or "size limit exceeded by
11326 tokens"; not its "too many tokens: max tokens must be …", which is the request's), vLLM's "The input (…
tokens) is longer than the model's context length", Anthropic's (its OpenAI-compatible endpoint too) "input
length and `max_tokens` exceed context limit", SambaNova's "… but the maximum supported sequence length is just
4096!", Cerebras' "Current length is 42328 while limit is 40000", DeepInfra's "Requested input length 99009
exceeds maximum input length 8192" (a 500: the client reads a 500's message for it too, as no retry makes the
conversation fit). `over_context(text)` reads any of them in an error
body; the fix is the same whatever the body's shape: a shorter conversation (`CONTEXT_HINT`), not a corrected
request.

Leaves out: a gateway that cuts the conversation itself without saying so (Ollama keeps the last
`num_ctx` tokens): nothing comes back to read.
"""

from __future__ import annotations

import re

_OVER = re.compile(
    r"context_length_exceeded|exceed_context_size|maximum context length|context (?:length|size|window)"
    r"(?: is)? exceeded|exceeds? (?:the )?(?:available |maximum )?context|prompt is too long"
    r"|too large for model with \d+ maximum context|input token count.{0,40}exceeds the maximum"
    r"|tokens \+ `?max_new_tokens`? must be <=|exceeded model token limit|model max length exceeded"
    r"|input length \d+ exceeds (?:the )?maximum input length"
    r"|too many tokens: (?:total number of tokens in the prompt|(?:minimal context could not be added to prompt \()?"
    r"size limit exceeded|multi-hop prompt is too long)|longer than the model's context length"
    r"|maximum supported sequence length is|current length is \d+ while limit is \d+"
    r"|range of input length should be|上下文长度|超出.{0,6}上下文|prompt\s*超长|输入.{0,6}(?:超长|过长)",
    re.IGNORECASE | re.DOTALL,
)

CONTEXT_HINT = (
    "the conversation is longer than the model's context window: start a new conversation or keep fewer "
    "messages (a memory window), shorten long tool results, or lower max_tokens (not retried)"
)


def over_context(text: str) -> bool:
    """Whether an error body `text` says the request does not fit the model's context window."""
    return bool(_OVER.search(text))
