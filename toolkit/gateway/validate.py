"""Checking a chat-completions request the way a strict gateway does, before any rule runs.

`check_request(request)` raises `RequestError` (HTTP 400, an OpenAI-style message, the
offending `param` and a `code`) for the first problem it finds: the body's shape, `model`,
`messages` (roles, content, tool calls), `tools`, `tool_choice`, the stream options, and —
as strict gateways such as OpenAI's do — a tool result that answers no earlier tool call, or a
tool call left without a result. It only reads; it never repairs.

Top-level fields OpenAI does not know are refused by name ("Unrecognized request argument
supplied: foo"), and so is the deprecated `functions` / `function_call` form, saying to send
`tools` (ignoring it would answer as if the model had no function); `max_tokens` /
`max_completion_tokens` (not both: OpenAI refuses the pair), `n` (at most 128), `stop` and
`response_format` are checked for type and range
(the gateway honours them, see `toolkit.gateway.shape`). Every tool's schema must be an object's
with no array lacking `items` (`toolkit.gateway.parameters`), and a strict tool's or strict
`json_schema`'s must keep strict mode's rules (`toolkit.gateway.strict`; a schema that is no JSON Schema at all, `toolkit.gateway.meta_schema`; a strict `json_schema`'s root
an object's too), or the 400 is OpenAI's "Invalid schema for function 'f': ...". `tool_choice` and `parallel_tool_calls` without `tools`
are refused, as OpenAI refuses them, and so are more than 128 tools and a tool description
over 1024 characters.

Content is a string or a list of parts: `text` parts anywhere, in assistant messages
`refusal` parts too (an assistant turn may also be a bare `refusal` with content null, as the
SDK sends a refused turn back), and in user messages only, `image_url` parts (`image_url.url` a string starting with `data:`, `http://` or `https://`, an
optional `detail` of auto / low / high) and `file` parts (`file_data` or `file_id`, as a PDF
is sent). The gateway checks an image's or a file's shape, never its bytes, and decides from
the text alone.

The sampling and bookkeeping fields (temperature, top_p, the penalties, seed, logprobs,
top_logprobs, user, store, metadata, logit_bias, service_tier, reasoning_effort, verbosity,
prompt_cache_key, safety_identifier, modalities, audio, prediction, web_search_options, ...) are
ignored, but checked for type and range first, as OpenAI does: `"temperature": "0.7"` works
nowhere, so not here either. So are the rules the API reference states between or inside them
(https://platform.openai.com/docs/api-reference/chat/create): `top_logprobs` only with
`logprobs: true`, a logit bias an integer from -100 to 100, modalities of "text" and "audio", a
prediction of type "content" holding a string or text parts. A seed, a token limit and `n` are
64-bit integers: an integer past 64 bits (which orjson reads as a float, its last digits lost) is out
of range, said as "an integer past 64 bits" (`past_64_bits`), never "a number" of the wrong type.

The stream options `include_usage` and `include_obfuscation` are booleans (the gateway never
obfuscates: its chunks carry no `obfuscation` field, as OpenAI's do not when it is false).

Leaves out: custom tools (free-form input), `input_audio` parts and the deprecated `function`
role, each refused as this gateway's limit (saying so, not as OpenAI's rule); what the ignored
fields would change; metadata's and logit_bias's size limits and logit_bias's keys; the values
of service_tier, reasoning_effort, verbosity and prompt_cache_retention (only their type: OpenAI
adds values, such as reasoning_effort "xhigh", faster than a list here would follow, and which it
takes depends on the model); the insides of audio and web_search_options; whether an image URL
really holds an image.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from toolkit.gateway.meta_schema import plain_parameters, schema_problem, shown_value
from toolkit.gateway.parameters import may_hold_arrays, parameters_problem
from toolkit.gateway.strict import strict_problem

ROLES = ("system", "developer", "user", "assistant", "tool")
TOOL_CHOICES = ("none", "auto", "required")
IMAGE_DETAILS = ("auto", "low", "high")
IMAGE_URL_PREFIXES = ("data:", "http://", "https://")
_TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_MESSAGE_NAME = re.compile(r"^[^\s<|\\/>]+$")
_MISSING = object()
KNOWN_FIELDS = frozenset(
    {
        "model", "messages", "tools", "tool_choice", "parallel_tool_calls", "stream", "stream_options",
        "max_tokens", "max_completion_tokens", "n", "stop", "response_format", "temperature", "top_p",
        "seed", "presence_penalty", "frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "user",
        "metadata", "store", "service_tier", "modalities", "audio", "prediction", "reasoning_effort",
        "web_search_options", "safety_identifier", "prompt_cache_key",
        "verbosity", "prompt_cache_retention", "prompt_cache_options", "moderation",
    }
)  # fmt: skip
"""The top-level fields of OpenAI's chat-completions request; anything else is a 400."""
_LEGACY = ("functions", "function_call")
"""OpenAI's deprecated function-calling fields: refused by name (null is fine), never ignored."""
MAX_STOP = 4
MAX_N = 128
INT64_MAX = 2**63 - 1
"""The largest integer a count, a limit or a seed may be (a 64-bit integer's)."""
MAX_TOOLS = 128
"""OpenAI's limit on the tools of one request (an agent with more offers a tool search instead)."""
MAX_DESCRIPTION = 1024
"""OpenAI's limit on a tool's description, in characters."""


class RequestError(Exception):
    """One problem with a request, in the shape of an OpenAI error body."""

    message: str
    """What is wrong (the error body's `message`)."""
    param: str | None
    """The request field at fault (`param`), or None."""
    code: str | None
    """OpenAI's error code (`code`), or None."""
    status: int
    """The HTTP status of the answer (400 unless told)."""

    def __init__(self, message: str, *, param: str | None = None, code: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.param, self.code, self.status = message, param, code, status


class CheckedTools(Protocol):
    """A request's `tools` already checked (`toolkit.gateway.toolset.ToolSet`)."""

    def raise_problem(self) -> None: ...


def check_request(request: Any, tools: CheckedTools | None = None) -> None:
    """Raise `RequestError` for the first thing wrong with `request`, else return None.

    `tools`: the request's `tools` list already checked (its problem is raised in its turn)."""
    if not isinstance(request, dict):
        raise RequestError(
            f"Invalid type for the request body: expected an object, but got {_kind(request)} instead.",
            code="invalid_type",
        )
    sampling = _known_fields(request)
    if not _required(request, "model", str):
        raise RequestError(
            "Invalid 'model': empty string. Expected a string with minimum length 1, but got an empty string "
            "instead. Any model name is accepted here; a real gateway wants one it serves.",
            param="model",
            code="invalid_value",
        )
    messages = _required(request, "messages", list)
    if not messages:
        raise RequestError(
            "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
            param="messages",
            code="empty_array",
        )
    if not all(map(_plain_message, messages)):  # the common case: every message plain, in one C loop
        for i, message in enumerate(messages):
            if not _plain_message(message):
                _check_message(message, f"messages[{i}]")
    if tools is None:
        check_tools(request.get("tools"))
    else:
        tools.raise_problem()
    if not (request.keys() <= _BARE_FIELDS and type(request.get("stream", False)) is bool):  # else none to check
        _check_tool_choice(request)
        _check_stream(request)
        _check_output_options(request)
    if sampling:
        _check_sampling(request)
    _check_tool_pairing(messages)


def _known_fields(request: dict) -> bool:
    """Refuse a field OpenAI does not know; say whether the request holds a sampling field (to check).
    The common case, known fields and none of those, is one set operation."""
    if request.keys() <= _COMMON_FIELDS:
        return False
    unknown = [key for key in request if key not in KNOWN_FIELDS and not (key in _LEGACY and request[key] is None)]
    legacy = next((key for key in unknown if key in _LEGACY), None)
    if legacy:
        raise RequestError(
            f"'{legacy}' (the deprecated function-calling form) is not supported by this gateway: send 'tools', each "
            'function as {"type": "function", "function": {...}}, and \'tool_choice\' instead.',
            param=legacy,
            code="unsupported_parameter",
        )
    if unknown:
        plural = "s" if len(unknown) > 1 else ""
        raise RequestError(
            f"Unrecognized request argument{plural} supplied: {', '.join(unknown)}",
            param=unknown[0],
            code="unknown_parameter",
        )
    return not _SAMPLING_FIELDS.isdisjoint(request.keys())


# --- messages --------------------------------------------------------------------------------


def _plain_message(message: Any) -> bool:
    """The common cases, recognised fast (each passes `_check_message`, a test holds it): a
    system / user / tool message with text content (a tool result with its call's id), an
    assistant message with text, or with tool calls whose fields are the strings they must be.
    Anything else goes through `_check_message`, which says what is wrong."""
    if type(message) is not dict:
        return False
    name = message.get("name")  # a tool result's is its tool's name, sent by many clients
    if name is not None and (type(name) is not str or not _MESSAGE_NAME.fullmatch(name)):
        return False
    role, content = message.get("role"), message.get("content")
    if role == "assistant":
        calls = message.get("tool_calls")
        if calls is None:
            return type(content) is str
        return (
            type(calls) is list
            and (type(content) is str or (content is None and len(calls) > 0))
            and all([_plain_call(call) for call in calls])
        )
    if type(content) is not str:
        return False
    return role in ("system", "user", "developer") or (role == "tool" and type(message.get("tool_call_id")) is str)


def _plain_call(call: Any) -> bool:
    if type(call) is not dict or type(call.get("id")) is not str or call.get("type") != "function":
        return False
    function = call.get("function")
    return type(function) is dict and type(function.get("name")) is str and type(function.get("arguments")) is str


def _check_message(message: Any, where: str) -> None:
    _expect(message, dict, where)
    role = _required(message, "role", str, where)
    if role == "function":  # OpenAI's deprecated form, which it still takes: this gateway's limit, said so
        raise RequestError(
            f"'{where}.role' 'function' (the deprecated function-calling form) is not supported by this gateway: "
            "send the result as a message with role 'tool' and the 'tool_call_id' of the call it answers.",
            param=f"{where}.role",
            code="unsupported_value",
        )
    if role not in ROLES:
        raise RequestError(
            f"Invalid value: {shown_value(role)}. Supported values are: 'system', 'developer', 'user', 'assistant', and 'tool'.",
            param=f"{where}.role",
            code="invalid_value",
        )
    if message.get("name") is not None:
        _check_name(message["name"], f"{where}.name")
    if role == "assistant":
        return _check_assistant(message, where)
    _check_content(_required(message, "content", (str, list), where), f"{where}.content", role)
    if role == "tool":
        if "tool_call_id" not in message:
            raise RequestError(
                "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
                param=f"{where}.tool_call_id",
                code="missing_required_parameter",
            )
        _expect(message["tool_call_id"], str, f"{where}.tool_call_id")


def _check_name(name: Any, where: str) -> None:
    """A message's `name`: no whitespace and none of `<|\\/>`, as OpenAI checks it (a display
    name such as "Support Agent" is refused there, so here too)."""
    if not _MESSAGE_NAME.fullmatch(_expect(name, str, where)):
        raise RequestError(
            f"Invalid '{where}': string does not match pattern. Expected a string that matches the pattern "
            f"'{_MESSAGE_NAME.pattern}'.",
            param=where,
            code="invalid_value",
        )


def _check_assistant(message: dict, where: str) -> None:
    """Text, tool calls, a refusal (as the SDK sends back a refused turn: content null) or an
    earlier audio answer, `audio: {"id": ...}` with no content, as OpenAI's audio guide sends it
    back (https://platform.openai.com/docs/guides/audio)."""
    content, calls, refusal = message.get("content"), message.get("tool_calls"), message.get("refusal")
    if calls is not None:
        _expect(calls, list, f"{where}.tool_calls")
        for i, call in enumerate(calls):
            _check_call(call, f"{where}.tool_calls[{i}]")
    if refusal is not None:
        _expect(refusal, str, f"{where}.refusal")
    audio = message.get("audio")
    if audio is not None:
        _required(_expect(audio, dict, f"{where}.audio"), "id", str, f"{where}.audio")
    if content is None and not calls and refusal is None and audio is None:
        if message.get("function_call") is not None:
            raise RequestError(
                f"'{where}.function_call' (the deprecated function-calling form) is not supported by this "
                "gateway: send the call in 'tool_calls', and its result as a message with role 'tool'.",
                param=f"{where}.function_call",
                code="unsupported_parameter",
            )
        raise RequestError(
            f"Invalid value for '{where}.content': expected a string, got null.",
            param=f"{where}.content",
            code="invalid_value",
        )
    if content is not None:
        _check_content(_expect(content, (str, list), f"{where}.content"), f"{where}.content", "assistant")


def _check_call(call: Any, where: str) -> None:
    _expect(call, dict, where)
    _required(call, "id", str, where)
    if _required(call, "type", str, where) != "function":
        _no_custom(call["type"], f"{where}.type")
        raise RequestError(
            f"Invalid value: {shown_value(call['type'])}. Supported values are: 'function'.",
            param=f"{where}.type",
            code="invalid_value",
        )
    function = _required(call, "function", dict, where)
    _required(function, "name", str, f"{where}.function")
    _required(function, "arguments", str, f"{where}.function")


def _check_content(content: str | list, where: str, role: str) -> None:
    if isinstance(content, str):
        return
    for i, part in enumerate(content):
        _expect(part, dict, f"{where}[{i}]")
        kind = part.get("type")
        if kind == "image_url":
            _check_image(part, f"{where}[{i}]", role)
            continue
        if kind == "file" and role == "user":
            _check_file(part, f"{where}[{i}]")
            continue
        if kind == "refusal" and role == "assistant":
            _required(part, "refusal", str, f"{where}[{i}]")
            continue
        if kind == "input_audio" and role == "user":  # OpenAI takes it (its audio models): this gateway's limit
            raise RequestError(
                "'input_audio' content parts (spoken input, which OpenAI takes) are not supported by this gateway: "
                "send what was said as a 'text' part.",
                param=f"{where}[{i}].type",
                code="unsupported_value",
            )
        if kind != "text":
            raise RequestError(
                f"Invalid value for '{where}[{i}].type': only {_PARTS.get(role, _TEXT_ONLY)} supported.",
                param=f"{where}[{i}].type",
                code="invalid_value",
            )
        _required(part, "text", str, f"{where}[{i}]")


_TEXT_ONLY = "'text' content parts are"
_PARTS = {
    "user": "'text', 'image_url' and 'file' content parts are",
    "assistant": "'text' and 'refusal' content parts are",
}


def _check_file(part: dict, where: str) -> None:
    """A `file` part (a PDF, say): `file_data` (a data URL) or `file_id`, and an optional `filename`,
    all strings. Its bytes are never read: the gateway decides from the text."""
    file = _required(part, "file", dict, where)
    for key in ("file_data", "file_id", "filename"):
        if file.get(key) is not None:
            _expect(file[key], str, f"{where}.file.{key}")
    if file.get("file_data") is None and file.get("file_id") is None:
        raise RequestError(
            f"Invalid '{where}.file': expected 'file_data' (a data URL) or 'file_id', but got neither.",
            param=f"{where}.file",
            code="invalid_value",
        )


def _check_image(part: dict, where: str, role: str) -> None:
    """An `image_url` part: only in user messages; a URL the provider can read; a known detail."""
    if role != "user":
        message = where.rsplit(".content", 1)[0]
        raise RequestError(
            f"Invalid '{message}': image URLs are only allowed for messages with role 'user', but this "
            f"message with role '{role}' contains an image URL.",
            param=f"{where}.type",
            code="invalid_value",
        )
    image = _required(part, "image_url", dict, where)
    url = _required(image, "url", str, f"{where}.image_url")
    if not url.startswith(IMAGE_URL_PREFIXES):
        raise RequestError(
            f"Invalid '{where}.image_url.url': expected a URL starting with 'data:', 'http://' or "
            f"'https://', but got {url[:40]!r} instead.",
            param=f"{where}.image_url.url",
            code="invalid_value",
        )
    detail = image.get("detail")
    if detail is not None and detail not in IMAGE_DETAILS:
        raise RequestError(
            f"Invalid value: {shown_value(detail)}. Supported values are: 'auto', 'low', and 'high'.",
            param=f"{where}.image_url.detail",
            code="invalid_value",
        )


def _check_tool_pairing(messages: list[dict]) -> None:
    """Every tool result answers a call of the assistant turn before it; every call is answered."""
    pending: dict[str, int] = {}
    for i, message in enumerate(messages):
        if message["role"] == "tool":
            call_id = message["tool_call_id"]
            if pending.pop(call_id, None) is None:
                raise RequestError(
                    "Invalid parameter: messages with role 'tool' must be a response to a "
                    "preceding message with 'tool_calls'. No earlier tool call with "
                    f"tool_call_id {call_id!r} is waiting for a result.",
                    param=f"messages[{i}].tool_call_id",
                    code="invalid_tool_call_id",
                )
            continue
        if pending:
            _no_unanswered(pending)
        if message["role"] == "assistant" and message.get("tool_calls"):  # else nothing is pending
            pending = {call["id"]: i for call in message["tool_calls"]}
    _no_unanswered(pending)


def _no_unanswered(pending: dict[str, int]) -> None:
    if pending:
        raise RequestError(
            "An assistant message with 'tool_calls' must be followed by tool messages responding "
            "to each 'tool_call_id'. The following tool_call_ids did not have response messages: " + ", ".join(pending),
            param=f"messages[{min(pending.values())}].tool_calls",
            code="invalid_tool_call_id",
        )


# --- tools, tool_choice, stream --------------------------------------------------------------


def check_tools(tools: Any, compact: bytes | None = None) -> None:
    """Raise `RequestError` for the first thing wrong with a request's `tools` (None is fine);
    `compact`, the list as compact JSON if the caller has it (`toolkit.gateway.toolset`), says at
    once whether any schema in it may be an array's."""
    if tools is None:
        return
    if not _expect(tools, list, "tools"):
        raise RequestError(
            "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
            param="tools",
            code="empty_array",
        )
    if len(tools) > MAX_TOOLS:
        raise RequestError(
            f"Invalid 'tools': array too long. Expected an array with maximum length {MAX_TOOLS}, but got an array "
            f"with length {len(tools)} instead.",
            param="tools",
            code="array_above_max_length",
        )
    arrays = b'"array"' in compact if compact is not None else may_hold_arrays(tools)
    for i, tool in enumerate(tools):
        if not _plain_tool(tool):
            _check_tool(tool, f"tools[{i}]")
        function = tool["function"]
        parameters = function.get("parameters")
        holds = type(parameters) is dict and arrays and may_hold_arrays(parameters)
        if function.get("strict") is True or (  # the usual schema (an object's, no array) passes in a few lookups
            type(parameters) is dict
            and (holds or parameters.get("type", "object") != "object" or not plain_parameters(parameters))
        ):
            _check_parameters(function, i, holds)


def _check_parameters(function: dict, i: int, arrays: bool) -> None:
    """A tool's schema keeps the rules OpenAI checks in every schema (`toolkit.gateway.parameters`),
    and a strict tool's strict mode's rules too (`toolkit.gateway.strict`)."""
    parameters = function.get("parameters")
    problem = schema_problem(parameters) if parameters is not None else None
    problem = problem or parameters_problem(parameters, arrays=arrays)
    if problem is None and function.get("strict") is True:  # none at all is an object without its rules
        problem = strict_problem(parameters if parameters is not None else _NO_PARAMETERS)
    if problem:
        raise RequestError(
            f"Invalid schema for function '{function['name']}': {problem}",
            param=f"tools[{i}].function.parameters",
            code="invalid_function_parameters",
        )


_NO_PARAMETERS = {"type": "object", "properties": {}}
"""What OpenAI reads a strict tool without `parameters` as: it answers "In context=(), 'additionalProperties'
is required to be supplied and to be false." (github.com/inngest/agent-kit/pull/66 quotes the 400)."""


def _plain_tool(tool: Any) -> bool:
    """The common case, recognised fast (anything else gets the careful check)."""
    function = tool.get("function") if type(tool) is dict else None
    return bool(
        type(function) is dict
        and tool.get("type") == "function"
        and type(function.get("name")) is str
        and _TOOL_NAME.fullmatch(function["name"])
        and type(function.get("description", "")) is str
        and len(function.get("description", "")) <= MAX_DESCRIPTION
        and type(function.get("parameters", {})) is dict
        and type(function.get("strict", False)) is bool
    )


def _check_tool(tool: Any, where: str) -> None:
    _expect(tool, dict, where)
    if _required(tool, "type", str, where) != "function":
        _no_custom(tool["type"], f"{where}.type")
        raise RequestError(
            f"Invalid value: {shown_value(tool['type'])}. Supported values are: 'function'.",
            param=f"{where}.type",
            code="invalid_value",
        )
    function = _required(tool, "function", dict, where)
    name = _required(function, "name", str, f"{where}.function")
    if not _TOOL_NAME.fullmatch(name):
        raise RequestError(
            f"Invalid '{where}.function.name': string does not match pattern. "
            "Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.",
            param=f"{where}.function.name",
            code="invalid_value",
        )
    for key, kind in (("description", str), ("parameters", dict), ("strict", bool)):
        if function.get(key) is not None:
            _expect(function[key], kind, f"{where}.function.{key}")
    if len(function.get("description") or "") > MAX_DESCRIPTION:
        raise RequestError(
            f"Invalid '{where}.function.description': string too long. Expected a string with maximum length "
            f"{MAX_DESCRIPTION}, but got a string with length {len(function['description'])} instead.",
            param=f"{where}.function.description",
            code="string_above_max_length",
        )


def _check_tool_choice(request: dict) -> None:
    choice = request.get("tool_choice")
    if choice is None:
        return
    if not request.get("tools"):
        raise RequestError(
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
            param="tool_choice",
            code="invalid_value",
        )
    if isinstance(choice, str) and choice not in TOOL_CHOICES:
        raise RequestError(
            f"Invalid value: {shown_value(choice)}. Supported values are: 'none', 'auto', and 'required'.",
            param="tool_choice",
            code="invalid_value",
        )
    if isinstance(choice, str):
        return
    _expect(choice, dict, "tool_choice")
    kind = _required(choice, "type", str, "tool_choice")
    if kind == "allowed_tools":
        return _check_allowed_tools(choice, request["tools"])
    if kind != "function":
        _no_custom(kind, "tool_choice.type")
        raise RequestError(
            f"Invalid value: {shown_value(choice['type'])}. Supported values are: 'function' and 'allowed_tools'.",
            param="tool_choice.type",
            code="invalid_value",
        )
    _check_named(choice, "tool_choice", request["tools"])


def _check_named(choice: dict, where: str, tools: list[dict]) -> None:
    """`{"type": "function", "function": {"name"}}` naming one of `tools`."""
    name = _required(_required(choice, "function", dict, where), "name", str, f"{where}.function")
    if name not in {t["function"]["name"] for t in tools}:
        raise RequestError(
            f"Invalid value for 'tool_choice': tool {name!r} is not among the 'tools' of this request.",
            param=f"{where}.function.name",
            code="invalid_value",
        )


def _check_allowed_tools(choice: dict, tools: list[dict]) -> None:
    """`{"type": "allowed_tools", "allowed_tools": {"mode": "auto" | "required", "tools": [named, ...]}}`."""
    allowed = _required(choice, "allowed_tools", dict, "tool_choice")
    mode = _required(allowed, "mode", str, "tool_choice.allowed_tools")
    if mode not in ("auto", "required"):
        raise RequestError(
            f"Invalid value: {shown_value(mode)}. Supported values are: 'auto' and 'required'.",
            param="tool_choice.allowed_tools.mode",
            code="invalid_value",
        )
    named = _required(allowed, "tools", list, "tool_choice.allowed_tools")
    if not named:
        raise RequestError(
            "Invalid 'tool_choice.allowed_tools.tools': empty array. Expected an array with minimum length 1, "
            "but got an empty array instead.",
            param="tool_choice.allowed_tools.tools",
            code="empty_array",
        )
    for i, entry in enumerate(named):
        where = f"tool_choice.allowed_tools.tools[{i}]"
        if _required(_expect(entry, dict, where), "type", str, where) != "function":
            raise RequestError(
                f"Invalid value: {shown_value(entry['type'])}. Supported values are: 'function'.",
                param=f"{where}.type",
                code="invalid_value",
            )
        _check_named(entry, where, tools)


def _no_custom(kind: str, param: str) -> None:
    """A `custom` tool, call or choice (free-form input, which OpenAI's chat completions take:
    https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools) is refused as this
    gateway's limit, not as an unknown value: "Supported values are: 'function'" read as OpenAI's rule."""
    if kind == "custom":
        raise RequestError(
            "'custom' tools (free-form input, which OpenAI takes) are not supported by this gateway: send "
            '\'function\' tools, each as {"type": "function", "function": {...}}.',
            param=param,
            code="unsupported_value",
        )


def _check_stream(request: dict) -> None:
    for key in ("stream", "parallel_tool_calls"):
        if request.get(key) is not None:
            _expect(request[key], bool, key)
    if request.get("parallel_tool_calls") is not None and not request.get("tools"):
        raise RequestError(
            "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
            param="parallel_tool_calls",
            code="invalid_value",
        )
    options = request.get("stream_options")
    if options is None:
        return
    if not request.get("stream"):
        raise RequestError(
            "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
            param="stream_options",
            code="invalid_value",
        )
    for key in ("include_usage", "include_obfuscation"):
        if _expect(options, dict, "stream_options").get(key) is not None:
            _expect(options[key], bool, f"stream_options.{key}")


# --- what the reply may look like: length, count, stop sequences, format ----------------------


def _check_output_options(request: dict) -> None:
    if _OUTPUT_FIELDS.isdisjoint(request.keys()):  # the common case: none of them given
        return
    for key in ("max_tokens", "max_completion_tokens", "n"):
        value = request.get(key)
        if value is not None and ((type(value) is not int and not past_64_bits(value)) or value < 1):
            raise RequestError(
                f"Invalid '{key}': expected an integer of at least 1, but got {_number(value)} instead.",
                param=key,
                code="invalid_value",
            )
        if value is not None and value > INT64_MAX:
            _out_of_range(key, value, int, "above maximum", f"<= {MAX_N if key == 'n' else INT64_MAX}")
    if request.get("max_tokens") is not None and request.get("max_completion_tokens") is not None:
        raise RequestError(  # OpenAI's own 400 (its newer name and the deprecated one: say one limit)
            "Setting 'max_tokens' and 'max_completion_tokens' at the same time is not supported.",
            param="max_tokens",
            code="invalid_parameter_combination",
        )
    if (request.get("n") or 1) > MAX_N:
        _out_of_range("n", request["n"], int, "above maximum", f"<= {MAX_N}")
    _check_stop(request.get("stop"))
    _check_response_format(request)


_OUTPUT_FIELDS = frozenset(("max_tokens", "max_completion_tokens", "n", "stop", "response_format"))


def _check_stop(stop: Any) -> None:
    if stop is None or isinstance(stop, str):
        return
    if not isinstance(stop, list) or not all(isinstance(s, str) for s in stop) or len(stop) > MAX_STOP:
        raise RequestError(
            f"Invalid 'stop': expected a string or an array of at most {MAX_STOP} strings.",
            param="stop",
            code="invalid_value",
        )


def _check_response_format(request: dict) -> None:
    fmt = request.get("response_format")
    if fmt is None:
        return
    kind = _required(_expect(fmt, dict, "response_format"), "type", str, "response_format")
    if kind not in ("text", "json_object", "json_schema"):
        raise RequestError(
            f"Invalid value: {shown_value(kind)}. Supported values are: 'text', 'json_object', and 'json_schema'.",
            param="response_format.type",
            code="invalid_value",
        )
    if kind == "json_schema":
        spec = _required(fmt, "json_schema", dict, "response_format")
        name = _required(spec, "name", str, "response_format.json_schema")
        if not _TOOL_NAME.fullmatch(name):
            raise RequestError(
                "Invalid 'response_format.json_schema.name': string does not match pattern. "
                "Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.",
                param="response_format.json_schema.name",
                code="invalid_value",
            )
        if spec.get("schema") is not None:
            _expect(spec["schema"], dict, "response_format.json_schema.schema")
        if spec.get("strict") is not None:
            _expect(spec["strict"], bool, "response_format.json_schema.strict")
        problem = schema_problem(spec["schema"]) if spec.get("schema") is not None else None
        if problem is None and spec.get("strict") is True:
            problem = _strict_format_problem(spec.get("schema") or {})
        if problem:
            raise RequestError(
                f"Invalid schema for response_format '{spec['name']}': {problem}",
                param="response_format",
                code="invalid_json_schema",
            )
    if kind == "json_object" and not any("json" in _text_of(m).lower() for m in request["messages"]):
        raise RequestError(
            "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
            param="messages",
            code="invalid_value",
        )


def _strict_format_problem(schema: dict) -> str | None:
    """What OpenAI refuses in a strict `json_schema`: a root that is not an object's (`"type": "array"`:
    wrap it in an object's property), then strict mode's rules. Without `strict` any root is taken,
    and answered with an instance of it (`toolkit.gateway.shape`)."""
    return parameters_problem(schema, arrays=False) or strict_problem(schema)  # arrays=False: the root's rule only


def _text_of(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


# --- sampling and bookkeeping fields: accepted and ignored, but only when OpenAI would take them ---

_NUMBER = (int, float)
_SAMPLING: dict[str, tuple[type | tuple[type, ...], float | None, float | None]] = {
    "temperature": (_NUMBER, 0, 2),
    "top_p": (_NUMBER, 0, 1),
    "presence_penalty": (_NUMBER, -2, 2),
    "frequency_penalty": (_NUMBER, -2, 2),
    "seed": (int, -INT64_MAX - 1, INT64_MAX),
    "logprobs": (bool, None, None),
    "top_logprobs": (int, 0, 20),
    "user": (str, None, None),
    "store": (bool, None, None),
    "metadata": (dict, None, None),
    "logit_bias": (dict, None, None),
    "service_tier": (str, None, None),
    "reasoning_effort": (str, None, None),
    "verbosity": (str, None, None),
    "prompt_cache_key": (str, None, None),
    "prompt_cache_retention": (str, None, None),
    "safety_identifier": (str, None, None),
    "modalities": (list, None, None),
    "audio": (dict, None, None),
    "prediction": (dict, None, None),
    "web_search_options": (dict, None, None),
}
"""Field → (JSON type, least, most), as OpenAI checks them (None: no bound); null is always fine."""
_SAMPLING_FIELDS = frozenset(_SAMPLING)
_COMMON_FIELDS = KNOWN_FIELDS - _SAMPLING_FIELDS
_BARE_FIELDS = frozenset(("model", "messages", "tools", "stream"))
"""Most requests' fields: with `stream` a boolean, none of `tool_choice`, the stream options and the
output options is there to check (`check_request`)."""
"""The known fields but the sampling ones: a request within them needs neither check (`_known_fields`)."""
_TYPE_NAMES = {
    int: "an integer", bool: "a boolean", str: "a string", dict: "an object", list: "an array", _NUMBER: "a number"
}  # fmt: skip
_LOGIT_BIAS = (int, -100, 100)
MODALITIES = ("text", "audio")


def _check_sampling(request: dict) -> None:
    """The fields of `_SAMPLING` the request holds, in its order, then the rules between and inside them."""
    for key, value in request.items():
        spec = _SAMPLING.get(key)
        if spec is not None and value is not None:
            _check_number_or_kind(key, value, spec)
    if request.get("top_logprobs") is not None and request.get("logprobs") is not True:
        raise RequestError(  # https://platform.openai.com/docs/api-reference/chat/create#chat-create-top_logprobs
            "Invalid value for 'top_logprobs': 'top_logprobs' is only allowed when 'logprobs' is true.",
            param="top_logprobs",
            code="invalid_value",
        )
    for key, item in (request.get("metadata") or {}).items():
        if not isinstance(item, str):
            _expect(item, str, f"metadata.{key}")
    for key, bias in (request.get("logit_bias") or {}).items():  # #chat-create-logit_bias: integers, -100 to 100
        _check_number_or_kind(f"logit_bias.{key}", bias, _LOGIT_BIAS)
    for i, modality in enumerate(request.get("modalities") or ()):
        if modality not in MODALITIES:
            raise RequestError(
                f"Invalid value: {shown_value(modality)}. Supported values are: 'text' and 'audio'.",
                param=f"modalities[{i}]",
                code="invalid_value",
            )
    if request.get("prediction") is not None:
        _check_prediction(request["prediction"])


def _check_number_or_kind(
    key: str, value: Any, spec: tuple[type | tuple[type, ...], float | None, float | None]
) -> None:
    kind, least, most = spec
    if not _is_a(value, kind) and not (kind is int and past_64_bits(value)):
        raise RequestError(
            f"Invalid type for '{key}': expected {_TYPE_NAMES[kind]}, but got {_kind(value)} instead.",
            param=key,
            code="invalid_type",
        )
    if least is not None and (value < least or (value < 0 and past_64_bits(value))):  # float(-2**63 - 1) == -2**63
        _out_of_range(key, value, kind, "below minimum", f">= {least}")
    if most is not None and value > most:
        _out_of_range(key, value, kind, "above maximum", f"<= {most}")


def _check_prediction(prediction: dict) -> None:
    """`{"type": "content", "content": a string or text parts}`, the one kind of predicted output
    (https://platform.openai.com/docs/api-reference/chat/create#chat-create-prediction)."""
    kind = _required(prediction, "type", str, "prediction")
    if kind != "content":
        raise RequestError(
            f"Invalid value: {shown_value(kind)}. Supported values are: 'content'.",
            param="prediction.type",
            code="invalid_value",
        )
    content = _required(prediction, "content", (str, list), "prediction")
    for i, part in enumerate(content if isinstance(content, list) else ()):
        where = f"prediction.content[{i}]"
        if _expect(part, dict, where).get("type") != "text":
            raise RequestError(
                f"Invalid value for '{where}.type': only {_TEXT_ONLY} supported.",
                param=f"{where}.type",
                code="invalid_value",
            )
        _required(part, "text", str, where)


def _is_a(value: Any, kind: type | tuple[type, ...]) -> bool:
    """`isinstance`, where a JSON true / false is a boolean only (not a number)."""
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def past_64_bits(value: Any) -> bool:
    """Whether `value` is what orjson reads an integer past 64 bits as (it keeps -2**63 to 2**64 - 1
    as ints, and makes a float of any other): a whole float out of that range."""
    return type(value) is float and abs(value) >= 2**63 and value.is_integer()


def _number(value: Any) -> str:
    """A number as an error shows what was sent: `repr`, but an integer past 64 bits said so (its float
    has lost its last digits: 18446744073709551621 reads 1.8446744073709552e+19)."""
    return "an integer past 64 bits" if past_64_bits(value) else shown_value(value)


def _out_of_range(key: str, value: float, kind: object, where: str, bound: str) -> None:
    noun = "integer" if kind is int else "decimal"
    raise RequestError(
        f"Invalid '{key}': {noun} {where} value. Expected a value {bound}, but got {_number(value)} instead.",
        param=key,
        code=f"{noun}_{where.replace(' ', '_').replace('imum', '')}_value",
    )


# --- small helpers ---------------------------------------------------------------------------


def _required(obj: dict, key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    value = obj.get(key, _MISSING)
    if type(value) is kind:  # the common case, fast
        return value
    param = f"{where}.{key}" if where else key
    if value is _MISSING:
        raise RequestError(f"Missing required parameter: '{param}'.", param=param, code="missing_required_parameter")
    return _expect(value, kind, param)


def _expect(value: Any, kind: type | tuple[type, ...], param: str) -> Any:
    if type(value) is kind:  # the common case, fast
        return value
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        wanted = " or ".join(_KIND_NAMES[k] for k in kinds)
        raise RequestError(
            f"Invalid type for '{param}': expected {wanted}, but got {_kind(value)} instead.",
            param=param,
            code="invalid_type",
        )
    return value


_KIND_NAMES = {str: "a string", list: "an array", dict: "an object", bool: "a boolean"}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return _KIND_NAMES.get(type(value), type(value).__name__)
