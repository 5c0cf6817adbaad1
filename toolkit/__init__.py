"""toolkit: the mechanisms of LLM tool calling, small enough to read, tested enough to trust.

The names a learner needs are here; each mechanism lives in its own subpackage:

    toolkit/
      errors.py   every exception toolkit raises        tokens.py  the token estimate
      unicode.py  text that can leave the process       files.py   files read within a size cap
      lazy_iri.py jsonschema without its IRI grammar until an IRI is checked
      data/       finds the course data (checkout or wheel)
      chat/       messages, client, sse, switch (connect()), cassette, scripted
      gateway/    the fake keyword gateway: core, rules, decide, validate, wire, transport, server
      tools/      @tool, reflection, JSON schema, strict, arguments, coercion, execution, redact, lint
      loop/       the round-trip loop, its records, return rules, sagas, tool sources, wrappers
      memory/     windows and the SQLite store
      services/   the declarative AI service
      search/     tool search: keyword, vector, embeddings, catalogue
      mcp/        MCP servers as tool sources, and tools served over MCP
      skills/     Agent Skills
      course/     the week-3 case study: shop, assistant, validation, probe, drill, accuracy
      views/      notebook views and widgets
      exercises/  exercises checked in the notebook; grading submitted notebooks
      cli/        `toolkit SUBCOMMAND`

Every name below has its real type for mypy and pyright (the imports under `TYPE_CHECKING`),
while at run time each is imported on first use, so `import toolkit` loads neither pandas,
ipywidgets nor mcp, and `python -m toolkit --help` starts fast. We chose this over
`lazy_loader` with a `.pyi` stub: one file holds both the types and the laziness, with no extra
dependency, and a test keeps `__all__`, the typed imports and the lazy table in step.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolkit.chat.client import ChatClient as ChatClient
    from toolkit.chat.client import RetryPolicy as RetryPolicy
    from toolkit.chat.messages import AssistantMessage as AssistantMessage
    from toolkit.chat.messages import ChatResponse as ChatResponse
    from toolkit.chat.messages import SystemMessage as SystemMessage
    from toolkit.chat.messages import TokenUsage as TokenUsage
    from toolkit.chat.messages import ToolCall as ToolCall
    from toolkit.chat.messages import ToolResultMessage as ToolResultMessage
    from toolkit.chat.messages import UserMessage as UserMessage
    from toolkit.chat.model import ChatModel as ChatModel
    from toolkit.chat.scripted import ScriptedModel as ScriptedModel
    from toolkit.chat.scripted import call as call
    from toolkit.chat.scripted import reset_call_ids as reset_call_ids
    from toolkit.chat.switch import connect as connect
    from toolkit.chat.switch import fake_client as fake_client
    from toolkit.course.assistant import shop_registry as shop_registry
    from toolkit.course.shop import load_shop as load_shop
    from toolkit.course.validation import Validated as Validated
    from toolkit.course.validation import validate as validate
    from toolkit.errors import ArgumentError as ArgumentError
    from toolkit.errors import BadResponseError as BadResponseError
    from toolkit.errors import CallerError as CallerError
    from toolkit.errors import ConfigurationError as ConfigurationError
    from toolkit.errors import MaxRoundTripsError as MaxRoundTripsError
    from toolkit.errors import NotAStreamError as NotAStreamError
    from toolkit.errors import ToolkitError as ToolkitError
    from toolkit.errors import TransientError as TransientError
    from toolkit.errors import TruncatedStreamError as TruncatedStreamError
    from toolkit.errors import UnknownToolError as UnknownToolError
    from toolkit.gateway.server import Gateway as Gateway
    from toolkit.gateway.server import running_gateway as running_gateway
    from toolkit.loop.cancel import in_thread as in_thread
    from toolkit.loop.run import COURSE as COURSE
    from toolkit.loop.run import LoopOptions as LoopOptions
    from toolkit.loop.run import LoopResult as LoopResult
    from toolkit.loop.run import iter_loop as iter_loop
    from toolkit.loop.run import run_loop as run_loop
    from toolkit.loop.saga import ToolExecution as ToolExecution
    from toolkit.loop.saga import compensates as compensates
    from toolkit.loop.sources import StaticProvider as StaticProvider
    from toolkit.loop.sources import ToolRegistry as ToolRegistry
    from toolkit.mcp.client import McpClient as McpClient
    from toolkit.mcp.provider import McpToolProvider as McpToolProvider
    from toolkit.memory.store import SqliteStore as SqliteStore
    from toolkit.memory.windows import ChatMemory as ChatMemory
    from toolkit.memory.windows import MessageWindow as MessageWindow
    from toolkit.memory.windows import TokenWindow as TokenWindow
    from toolkit.search.keyword import KeywordSearch as KeywordSearch
    from toolkit.search.strategy import SearchStrategy as SearchStrategy
    from toolkit.search.tool import ToolSearch as ToolSearch
    from toolkit.search.vector import VectorSearch as VectorSearch
    from toolkit.services.declare import UserText as UserText
    from toolkit.services.declare import V as V
    from toolkit.services.declare import system_message as system_message
    from toolkit.services.declare import user_message as user_message
    from toolkit.services.results import Result as Result
    from toolkit.services.results import TokenStream as TokenStream
    from toolkit.services.service import ai_service as ai_service
    from toolkit.services.service import memory_per_id as memory_per_id
    from toolkit.skills.offer import Skills as Skills
    from toolkit.tools.decorator import InvocationContext as InvocationContext
    from toolkit.tools.decorator import MemoryId as MemoryId
    from toolkit.tools.decorator import Param as Param
    from toolkit.tools.decorator import ReturnBehavior as ReturnBehavior
    from toolkit.tools.decorator import tool as tool
    from toolkit.tools.execute import FEED_BACK_ALL as FEED_BACK_ALL
    from toolkit.tools.execute import Policies as Policies
    from toolkit.tools.execute import Tool as Tool
    from toolkit.tools.execute import ToolOutput as ToolOutput
    from toolkit.tools.execute import tools_from as tools_from
    from toolkit.tools.reflect import ToolSpec as ToolSpec
    from toolkit.views.conversation import ConversationView as ConversationView
    from toolkit.views.display import show_exchange as show_exchange
    from toolkit.views.display import show_table as show_table
    from toolkit.views.stream import StreamView as StreamView
    from toolkit.views.trace import TraceView as TraceView
    from toolkit.views.truth_table import TruthTableWidget as TruthTableWidget

__all__ = [
    "ArgumentError",
    "AssistantMessage",
    "BadResponseError",
    "COURSE",
    "CallerError",
    "ChatClient",
    "ChatMemory",
    "ChatModel",
    "ChatResponse",
    "ConfigurationError",
    "ConversationView",
    "FEED_BACK_ALL",
    "Gateway",
    "InvocationContext",
    "KeywordSearch",
    "LoopOptions",
    "LoopResult",
    "MaxRoundTripsError",
    "McpClient",
    "McpToolProvider",
    "MemoryId",
    "MessageWindow",
    "NotAStreamError",
    "Param",
    "Policies",
    "Result",
    "RetryPolicy",
    "ReturnBehavior",
    "ScriptedModel",
    "SearchStrategy",
    "Skills",
    "SqliteStore",
    "StaticProvider",
    "StreamView",
    "SystemMessage",
    "TokenStream",
    "TokenUsage",
    "TokenWindow",
    "Tool",
    "ToolCall",
    "ToolExecution",
    "ToolOutput",
    "ToolRegistry",
    "ToolResultMessage",
    "ToolSearch",
    "ToolSpec",
    "ToolkitError",
    "TraceView",
    "TransientError",
    "TruncatedStreamError",
    "TruthTableWidget",
    "UnknownToolError",
    "UserMessage",
    "UserText",
    "V",
    "Validated",
    "VectorSearch",
    "ai_service",
    "call",
    "compensates",
    "connect",
    "fake_client",
    "in_thread",
    "iter_loop",
    "load_shop",
    "memory_per_id",
    "reset_call_ids",
    "run_loop",
    "running_gateway",
    "shop_registry",
    "show_exchange",
    "show_table",
    "system_message",
    "tool",
    "tools_from",
    "user_message",
    "validate",
]

_EXPORTS: dict[str, str] = {
    "ArgumentError": "toolkit.errors",
    "AssistantMessage": "toolkit.chat.messages",
    "BadResponseError": "toolkit.errors",
    "COURSE": "toolkit.loop.run",
    "CallerError": "toolkit.errors",
    "ChatClient": "toolkit.chat.client",
    "RetryPolicy": "toolkit.chat.client",
    "ChatMemory": "toolkit.memory.windows",
    "ChatModel": "toolkit.chat.model",
    "ChatResponse": "toolkit.chat.messages",
    "ConfigurationError": "toolkit.errors",
    "ConversationView": "toolkit.views.conversation",
    "FEED_BACK_ALL": "toolkit.tools.execute",
    "Gateway": "toolkit.gateway.server",
    "InvocationContext": "toolkit.tools.decorator",
    "KeywordSearch": "toolkit.search.keyword",
    "LoopOptions": "toolkit.loop.run",
    "LoopResult": "toolkit.loop.run",
    "MaxRoundTripsError": "toolkit.errors",
    "McpClient": "toolkit.mcp.client",
    "McpToolProvider": "toolkit.mcp.provider",
    "MemoryId": "toolkit.tools.decorator",
    "MessageWindow": "toolkit.memory.windows",
    "Param": "toolkit.tools.decorator",
    "Policies": "toolkit.tools.execute",
    "Result": "toolkit.services.results",
    "ReturnBehavior": "toolkit.tools.decorator",
    "ScriptedModel": "toolkit.chat.scripted",
    "SearchStrategy": "toolkit.search.strategy",
    "Skills": "toolkit.skills.offer",
    "SqliteStore": "toolkit.memory.store",
    "StaticProvider": "toolkit.loop.sources",
    "StreamView": "toolkit.views.stream",
    "SystemMessage": "toolkit.chat.messages",
    "TokenStream": "toolkit.services.results",
    "TokenUsage": "toolkit.chat.messages",
    "TokenWindow": "toolkit.memory.windows",
    "Tool": "toolkit.tools.execute",
    "ToolCall": "toolkit.chat.messages",
    "ToolExecution": "toolkit.loop.saga",
    "ToolOutput": "toolkit.tools.execute",
    "ToolRegistry": "toolkit.loop.sources",
    "ToolResultMessage": "toolkit.chat.messages",
    "ToolSearch": "toolkit.search.tool",
    "ToolSpec": "toolkit.tools.reflect",
    "ToolkitError": "toolkit.errors",
    "TraceView": "toolkit.views.trace",
    "TransientError": "toolkit.errors",
    "TruncatedStreamError": "toolkit.errors",
    "NotAStreamError": "toolkit.errors",
    "TruthTableWidget": "toolkit.views.truth_table",
    "UnknownToolError": "toolkit.errors",
    "UserMessage": "toolkit.chat.messages",
    "UserText": "toolkit.services.declare",
    "V": "toolkit.services.declare",
    "Validated": "toolkit.course.validation",
    "VectorSearch": "toolkit.search.vector",
    "ai_service": "toolkit.services.service",
    "call": "toolkit.chat.scripted",
    "compensates": "toolkit.loop.saga",
    "connect": "toolkit.chat.switch",
    "fake_client": "toolkit.chat.switch",
    "in_thread": "toolkit.loop.cancel",
    "iter_loop": "toolkit.loop.run",
    "load_shop": "toolkit.course.shop",
    "memory_per_id": "toolkit.services.service",
    "reset_call_ids": "toolkit.chat.scripted",
    "run_loop": "toolkit.loop.run",
    "running_gateway": "toolkit.gateway.server",
    "shop_registry": "toolkit.course.assistant",
    "show_exchange": "toolkit.views.display",
    "show_table": "toolkit.views.display",
    "system_message": "toolkit.services.declare",
    "tool": "toolkit.tools.decorator",
    "tools_from": "toolkit.tools.execute",
    "user_message": "toolkit.services.declare",
    "validate": "toolkit.course.validation",
}
"""Public name → the module that defines it (imported on first use)."""

if not TYPE_CHECKING:  # hidden from type checkers, so a misspelt name is an error there

    def __getattr__(name: str) -> Any:
        if name not in _EXPORTS:
            raise AttributeError(f"module 'toolkit' has no attribute {name!r}")
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
