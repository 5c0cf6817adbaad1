"""Chat memory: windows that never orphan a tool result, and a SQLite store."""
