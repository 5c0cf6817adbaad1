"""A server that streams no reply when tools are offered, and that reply given as stream events.

llama.cpp's `llama-server` from its first tool calling (early 2025) until it learnt to stream tool
calls (May 2025) refused a request with both `tools` and `stream: true`: a 500 (some builds a 400)
`{"error": {"code": 500, "message": "Cannot use tools with stream", "type": "server_error"}}`. Builds
of that age are still what Jan, distro packages and pinned setups run. No retry changes a 500 of
that kind, and the same request not streamed is answered: `refuses_streamed_tools(text)` reads the
refusal, and the chat client then asks without streaming and gives the whole reply as the events a
stream of it would have held (`events_of`: its text in one piece, each call in one piece, its id
None when it has none, then `StreamDone`), and asks so from then on when tools go with a stream.

Leaves out: a server refusing tools altogether (`toolkit.chat.tool_refusal`), and a stream without
tools, which such a server streams.
"""

from __future__ import annotations

import re

from toolkit.chat.messages import ChatResponse
from toolkit.chat.sse import StreamDone, StreamEvent, TextDelta, ToolCallDelta

_REFUSED = re.compile(
    r"cannot use tools with stream"
    r"|\btools?\b[^.\n]{0,30}\b(?:(?:is|are) )?not supported (?:with|when|while|in) stream"
    r"|\bstream(?:ing)?\b[^.\n]{0,30}\b(?:(?:is|are) )?not supported (?:with|when|while) (?:tools|function call)",
    re.IGNORECASE,
)
"""Words refusing tools with a stream: llama.cpp's, and the same refusal said either way round."""

STREAM_TOOLS_HINT = (
    "the server streams no reply when tools are offered (llama.cpp's llama-server before May 2025): update it, "
    "or ask without streaming (not retried)"
)


def refuses_streamed_tools(text: str) -> bool:
    """Whether an error's message `text` refuses tools with a stream (see the module docstring)."""
    return bool(_REFUSED.search(text))


def events_of(response: ChatResponse) -> list[StreamEvent]:
    """The events a stream of `response` would hold: its text in one piece (none when empty), each
    tool call whole, in order, then `StreamDone(response)`."""
    message = response.message
    events: list[StreamEvent] = [TextDelta(message.content)] if message.content else []
    events += [  # a call without an id (a gateway's, or one read from text) streams without one, as such a stream does
        ToolCallDelta(index, call.id or None, call.name, call.arguments)
        for index, call in enumerate(message.tool_calls)
    ]
    events.append(StreamDone(response))
    return events
