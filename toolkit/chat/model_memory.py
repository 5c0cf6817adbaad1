"""Whether a local server's error says the model does not fit in its machine's memory.

A local server loads the model at the first request for it, and a model larger than the memory left
fails there, with a 500 that no retry changes: Ollama's "model requires more system memory (7.5 GiB) than
is available (5.2 GiB)" (its native and OpenAI-compatible APIs alike; "…more GPU memory…" on a GPU), its
runner's "cudaMalloc failed: out of memory", llama.cpp's "failed to allocate CUDA0 buffer", LM Studio's
"Model loading aborted due to insufficient system resources". `too_big(text)` reads any of them; the fix
is a smaller model or more free memory (`MEMORY_HINT`), not a retry and not a corrected request.

Leaves out: a server running out of memory under load for one long request (vLLM preempts and goes on;
TGI answers its own overloaded error, retried).
"""

from __future__ import annotations

import re

_TOO_BIG = re.compile(
    r"requires more (?:system |gpu |video )?memory .{0,40}than is available"
    r"|cudaMalloc failed: out of memory|failed to allocate (?:cuda|metal|vulkan|rocm|cpu)\w* buffer"
    r"|model loading aborted due to insufficient system resources|not enough (?:system |gpu )?memory to load",
    re.IGNORECASE,
)

MEMORY_HINT = (
    "the server cannot load the model: it needs more memory than the machine has free; choose a smaller model "
    "(fewer parameters or a smaller quantisation, e.g. a 3B or a q4 one), close what holds memory, or give the "
    "model a shorter context (Ollama's num_ctx, llama.cpp's --ctx-size) (not retried)"
)


def too_big(text: str) -> bool:
    """Whether an error's message `text` says the model does not fit in the server's free memory."""
    return bool(_TOO_BIG.search(text))
