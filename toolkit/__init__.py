"""toolkit: the mechanisms of LLM tool calling, small enough to read, tested enough to trust.

The names a learner needs are here; everything else lives in its own module, one idea each
(`toolkit.loop`, `toolkit.schema`, `toolkit.gateway`, …).
"""
from toolkit.client import ChatClient
from toolkit.connect import connect, fake_client
from toolkit.declare import UserText, V, system_message, user_message
from toolkit.decorator import InvocationContext, MemoryId, Param, ReturnBehavior, tool
from toolkit.errors import (ArgumentError, BadResponseError, CallerError, ConfigurationError, ToolkitError,
                            TransientError, TruncatedStreamError, UnknownToolError)
from toolkit.execution import FEED_BACK_ALL, Policies, Tool, tools_from
from toolkit.loop import COURSE, LoopOptions, LoopResult, MaxRoundTripsError, iter_loop, run_loop
from toolkit.memory import ChatMemory, MessageWindow, TokenWindow
from toolkit.memory_store import SqliteStore
from toolkit.messages import (AssistantMessage, ChatResponse, SystemMessage, TokenUsage, ToolCall,
                              ToolResultMessage, UserMessage)
from toolkit.saga import ToolExecution, compensates
from toolkit.schema import ToolSpec
from toolkit.scripted import ScriptedModel, call, reset_call_ids
from toolkit.service import Result, TokenStream, ai_service, memory_per_id
from toolkit.toolset import StaticProvider, ToolRegistry

__all__ = [
    "ArgumentError", "AssistantMessage", "BadResponseError", "COURSE", "CallerError", "ChatClient",
    "ChatMemory", "ChatResponse", "ConfigurationError", "FEED_BACK_ALL", "InvocationContext", "LoopOptions",
    "LoopResult", "MaxRoundTripsError", "MemoryId", "MessageWindow", "Param", "Policies", "Result",
    "ReturnBehavior", "ScriptedModel", "SqliteStore", "StaticProvider", "SystemMessage", "TokenStream",
    "TokenUsage", "TokenWindow", "Tool", "ToolCall", "ToolExecution", "ToolRegistry", "ToolResultMessage",
    "ToolSpec", "ToolkitError", "TransientError", "TruncatedStreamError", "UnknownToolError", "UserMessage",
    "UserText", "V", "ai_service", "call", "compensates", "connect", "fake_client", "iter_loop",
    "memory_per_id", "reset_call_ids", "run_loop", "system_message", "tool", "tools_from", "user_message",
]
