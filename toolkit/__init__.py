"""toolkit: the mechanisms of LLM tool calling, small enough to read, tested enough to trust."""
from toolkit.messages import (AssistantMessage, ChatResponse, SystemMessage, TokenUsage, ToolCall,
                              ToolResultMessage, UserMessage)

__all__ = [
    "AssistantMessage", "ChatResponse", "SystemMessage", "TokenUsage", "ToolCall",
    "ToolResultMessage", "UserMessage",
]
