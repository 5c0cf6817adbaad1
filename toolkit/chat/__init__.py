"""Talking to a chat model: messages, the HTTP client with retries and triage, SSE assembly,
the fake/real switch (`connect()`), cassettes, and the scripted model for tests.
"""
