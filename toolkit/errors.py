"""Every exception toolkit raises, in one place.

Two audiences, two channels. Errors for the *developer* (misconfiguration) are raised at
registration time and name the function, the rule and the fix. Errors about the *model's*
behaviour usually never become exceptions at all: they go back to the model as tool results.
What is left are failures talking to the gateway, triaged three ways::

    ToolkitError
    ├── ConfigurationError        you wired something wrong; fix the code
    └── ModelCallError            talking to the gateway failed
        ├── TransientError        timeout, connection drop, 429, 5xx: retried, then raised
        ├── CallerError           any other 4xx: the request is wrong; never retried
        └── BadResponseError      200 but the body is unusable (not JSON, no choices, ...)
            └── TruncatedStreamError  the SSE stream ended before [DONE]

Leaves out: errors of later mechanisms are added below their own heading.
"""
from __future__ import annotations


class ToolkitError(Exception):
    """Base class of everything toolkit raises on purpose."""


class ConfigurationError(ToolkitError):
    """A developer mistake found at registration time (not the model's fault)."""


class ModelCallError(ToolkitError):
    """A chat request did not produce a usable response."""

    def __init__(self, message: str, *, status: int | None = None, body: str = "",
                 attempts: int = 1) -> None:
        super().__init__(message)
        self.status = status
        """HTTP status, when there was one."""
        self.body = body
        """The raw response body (cut to 2,000 characters), for diagnosis."""
        self.attempts = attempts
        """How many requests were sent before giving up."""


class TransientError(ModelCallError):
    """Timeout, dropped connection, 429 or 5xx: worth retrying; raised once retries run out."""


class CallerError(ModelCallError):
    """A 4xx other than 429: the request itself is wrong; retrying cannot help."""


class BadResponseError(ModelCallError):
    """The gateway answered 200 but the body cannot be used."""


class TruncatedStreamError(BadResponseError):
    """A streamed response ended before `data: [DONE]`; nothing from it may be executed."""
