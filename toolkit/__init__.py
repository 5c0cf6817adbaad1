"""toolkit: the mechanisms of LLM tool calling, small enough to read, tested enough to trust.

The names a learner needs are here; everything else lives in its own module, one idea each
(`toolkit.loop`, `toolkit.schema`, `toolkit.gateway`, …). Names are imported on first use, so
`python -m toolkit …` starts fast and `import toolkit` does not load pandas or ipywidgets until
a view is asked for.
"""
from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    **dict.fromkeys(['ChatClient'], "client"),
    **dict.fromkeys(['connect', 'fake_client'], "switch"),
    **dict.fromkeys(['UserText', 'V', 'system_message', 'user_message'], "declare"),
    **dict.fromkeys([
        'InvocationContext', 'MemoryId', 'Param', 'ReturnBehavior', 'tool'],
        "decorator"),
    **dict.fromkeys(['show_exchange', 'show_table'], "display"),
    **dict.fromkeys([
        'ArgumentError', 'BadResponseError', 'CallerError', 'ConfigurationError',
        'ToolkitError', 'TransientError', 'TruncatedStreamError', 'UnknownToolError'],
        "errors"),
    **dict.fromkeys(['FEED_BACK_ALL', 'Policies', 'Tool', 'ToolOutput', 'tools_from'], "execution"),
    **dict.fromkeys(['Gateway', 'running_gateway'], "gateway_server"),
    **dict.fromkeys([
        'COURSE', 'LoopOptions', 'LoopResult', 'MaxRoundTripsError', 'iter_loop', 'run_loop'],
        "loop"),
    **dict.fromkeys(['ChatMemory', 'MessageWindow', 'TokenWindow'], "memory"),
    **dict.fromkeys(['SqliteStore'], "memory_store"),
    **dict.fromkeys([
        'AssistantMessage', 'ChatResponse', 'SystemMessage', 'TokenUsage', 'ToolCall',
        'ToolResultMessage', 'UserMessage'],
        "messages"),
    **dict.fromkeys(['ToolExecution', 'compensates'], "saga"),
    **dict.fromkeys(['ToolSpec'], "schema"),
    **dict.fromkeys(['ToolSearch'], "search"),
    **dict.fromkeys(['KeywordSearch'], "search_keyword"),
    **dict.fromkeys(['VectorSearch'], "search_vector"),
    **dict.fromkeys(['McpClient'], "mcp_client"),
    **dict.fromkeys(['McpToolProvider'], "mcp_provider"),
    **dict.fromkeys(['Skills'], "skills_tools"),
    **dict.fromkeys(['ScriptedModel', 'call', 'reset_call_ids'], "scripted"),
    **dict.fromkeys(['Result', 'TokenStream', 'ai_service', 'memory_per_id'], "service"),
    **dict.fromkeys(['load_shop'], "shop"),
    **dict.fromkeys(['StreamView'], "stream_view"),
    **dict.fromkeys(['shop_registry'], "support"),
    **dict.fromkeys(['StaticProvider', 'ToolRegistry'], "toolset"),
    **dict.fromkeys(['TraceView'], "trace_view"),
    **dict.fromkeys(['TruthTableWidget'], "truth_table_view"),
    **dict.fromkeys(['Validated', 'validate'], "validation"),
    **dict.fromkeys(['ConversationView'], "views"),
}
"""Public name → the module (under `toolkit.`) that defines it."""

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'toolkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"toolkit.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
