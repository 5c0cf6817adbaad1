"""Chat messages as pydantic records, and their OpenAI chat-completions wire form.

Four roles: system, user, assistant (text and/or tool calls) and tool (a tool result).
`to_openai()` / `message_from_openai()` round-trip losslessly with the dicts the
chat-completions API sends and receives; a tool result's `attributes` are stored with
memory but never sent to the model. `TokenUsage` adds up with `+`.

A user message may carry images (`images`: `data:` or `http(s)://` URLs, see
`toolkit.chat.images`). Without images its wire `content` is the plain string, as before;
with images it is a list of content parts: one `text` part (left out when the text is empty),
then one `image_url` part per image, in the order given (a set of images, which has no order,
is refused). A list `content` from the wire is read back the same way: its `text` parts joined
by a newline, its `image_url` parts in order.

OpenAI's `developer` role (which replaces `system` for its newer models) is read as a
`SystemMessage`, and sent back as `system`, which every OpenAI-compatible gateway takes. A system,
developer or tool message's content may be a list of `text` parts (the only parts the API allows
there): their texts are joined by a newline. A reply's refusal sent as a `refusal` content part
is its `refusal`; a reply that answered in audio (`content: null`) has its `audio.transcript` as
its text.

Leaves out: audio and file parts, and any other part but `text` and `image_url` (refused with
a `ValueError`, not guessed at); tool results carry text only, which is why the loop sends a
tool's images in a user message of their own (`toolkit.loop.images`); an image part's `detail`
(read, then dropped: the provider's default applies); where text parts stood between image parts
(the text comes first); `name` (but a tool result's); a `custom` tool's call (free-form input), an
`UnsupportedCallError` naming the tool (this toolkit runs function tools). The legacy
`function_call` of a reply (older gateways answer `tools` with it) is read as one tool call
without an id, which the loop gives (as LangChain4j reads it); it is
never sent: the call goes back in `tool_calls`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from toolkit.chat.images import URL_PREFIXES
from toolkit.chat.reasoning_fields import one_reasoning
from toolkit.chat.sources import Source
from toolkit.errors import ConfigurationError, RecordError, a_kind_of
from toolkit.unicode import cut

FinishReason = str
"""Usually "stop", "tool_calls", "length" or "content_filter"; other values are kept as sent."""


class _Record(BaseModel):
    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True, extra="forbid")  # annotated: pyright --verifytypes
    # read every message type as partially unknown without it

    if not TYPE_CHECKING:  # type checkers keep pydantic's signature, which refuses positions too

        def __init__(self, /, *args: Any, **data: Any) -> None:
            """pydantic's `__init__` (the same one call), and a field given by position (LangChain's
            `HumanMessage("hi")`) a `TypeError` saying how to write it (`by_name`), not pydantic's
            "takes 1 positional argument but 2 were given"; a field missing or of the wrong kind
            (`UserMessage(content=5)`) a `RecordError`, pydantic's error in one line."""
            if args:
                raise TypeError(by_name(type(self), args, data))
            try:
                self.__pydantic_validator__.validate_python(data, self_instance=self)
            except ValidationError as exc:  # one line, still a ValidationError (`RecordError`)
                raise RecordError.of(exc, type(self).model_fields) from None

        __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]
        """pydantic's own `__init__` in all but the message: a record inside another one (a reply's
        message, its usage) is still made in pydantic-core, not through this Python call."""

    def __eq__(self, other: object) -> bool:
        """pydantic's equality, its common case first: two records of one of this module's own
        classes (not a subclass) with equal fields. Such a record has no private attributes and
        no extra fields, so its `__dict__` is what pydantic compares after checking those (some
        10k instructions in Python, 1k this way: the loop and memory compare messages often).
        Anything else, unequal records too, goes to pydantic (a test holds the two equal)."""
        if type(other) is type(self) and type(self) in _PLAIN_RECORDS and self.__dict__ == other.__dict__:
            return True
        return super().__eq__(other)


def by_name(cls: type[BaseModel], args: tuple[Any, ...], data: dict[str, Any]) -> str:
    """What to write instead of `cls(*args, **data)`: one value alone for a record with a `content`
    (not also given by name) is that content; otherwise the fields it needs, by name."""
    if len(args) == 1 and "content" in cls.model_fields and "content" not in data:
        shown = repr(args[0])
        fix = "content=" + cut(shown, 41)
    else:
        needed = [name for name, field in cls.model_fields.items() if field.is_required()]
        fix = ", ".join(f"{name}=..." for name in needed or cls.model_fields)
    return f"{cls.__name__} takes its fields by name, not by position: write {cls.__name__}({fix})"


class TurnMessage:
    """The base of the user, assistant and tool-result messages (not the system message): one
    `isinstance` test against it, made in pydantic-core for a whole list, is how memory checks
    a long conversation (`toolkit.memory.windows.turns_copy`). Nothing else may derive from
    it: a class that does must be a subclass of one of those three and not a system message."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if _TURN_CLASSES and (not issubclass(cls, _TURN_CLASSES) or issubclass(cls, SystemMessage)):
            raise TypeError(
                f"{cls.__name__}: only UserMessage, AssistantMessage and ToolResultMessage (and their "
                "subclasses) derive from TurnMessage; subclass one of them instead"
            )


_TURN_CLASSES: tuple[type, ...] = ()
"""Filled once the three classes exist (below): until then `TurnMessage` takes its subclasses as they come."""


class ToolCall(_Record):
    """One tool call the model asked for."""

    id: str
    """The id the tool result must echo back as `tool_call_id`."""
    name: str
    """The tool's name, exactly as the model wrote it (it may not exist)."""
    arguments: str = "{}"
    """The arguments as the model sent them: a JSON *string*, possibly invalid."""
    extra: dict[str, Any] = Field(default_factory=dict, exclude_if=lambda extra: not extra)
    """A provider's own fields on the call, beyond OpenAI's (Gemini's `extra_content`, holding
    the thought signature it wants back), sent back unchanged with the call."""

    def to_openai(self) -> dict[str, Any]:
        """The wire form. Empty `arguments` go out as `"{}"` (as pydantic-ai sends them): some
        gateways (DashScope, Vertex) refuse a history whose arguments are not JSON. Arguments
        that are text but not JSON go out as the model wrote them, as every peer sends them."""
        arguments = self.arguments if self.arguments.strip() else "{}"
        call = {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": arguments}}
        return {**self.extra, **call} if self.extra else call

    @classmethod
    def from_openai(cls, data: dict[str, Any]) -> ToolCall:
        """One call of a reply's `tool_calls`; a call or function that is not an object, or a call
        without a name (missing or null), is a `ValueError` saying so. An `id` written as a whole
        number (a JSON integer, not a boolean) is its digits: NVIDIA NIM (serving Kimi K2.5, GLM-5.1),
        MiniMax behind OpenRouter and LM Studio send call ids as numbers (anomalyco/opencode#19947,
        #25786; Kilo-Org/kilocode#5816), and the id goes back as text (`tool_call_id`)."""
        if not isinstance(data, dict):
            raise ValueError(f"a tool call is not an object: {data!r:.100}")
        fn = data.get("function") or {}
        if not isinstance(fn, dict):
            raise ValueError(f"a tool call's function is not an object: {fn!r:.100}")
        if fn.get("name") is None:
            raise custom_call_error(data) or ValueError(f"a tool call has no function name: {data!r:.100}")
        raw = fn.get("arguments")
        arguments = "{}" if raw is None else arguments_text(raw)  # null means none, as a missing key does
        extra = {key: value for key, value in data.items() if key not in OPENAI_CALL_KEYS}
        given = data.get("id") or ""  # some OpenAI-compatible servers send no id (or null, or ""): the loop gives one
        return cls(id=str(given) if type(given) is int else given, name=fn["name"], arguments=arguments, extra=extra)


class UnsupportedCallError(ValueError):
    """A tool call of a kind OpenAI defines but this toolkit does not run (a `custom` tool's): not a malformed one."""


def custom_call_error(data: Any) -> UnsupportedCallError | None:
    """The error for a call of a `custom` tool (free-form input: `{"type": "custom", "custom": {"name",
    "input"}}`, which OpenAI sends when it was offered one), naming it; None for any other call."""
    if not isinstance(data, dict) or data.get("type") != "custom":
        return None
    custom = data.get("custom")
    name = custom.get("name") if isinstance(custom, dict) else None
    return UnsupportedCallError(
        f"the model called {name!r}, a custom tool (free-form input, which OpenAI offers): this toolkit runs "
        "function tools only; send tools of type 'function'"
    )


OPENAI_CALL_KEYS = frozenset({"id", "type", "function", "index"})
"""What OpenAI's tool call (and a streamed delta of one) holds; anything else is a provider's own."""


def arguments_text(arguments: Any) -> str:
    """A call's `arguments` as the JSON string OpenAI sends; some gateways send an object (or a
    number, `null`, ...): it is written as JSON, so it stays readable."""
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False, sort_keys=True)


class SystemMessage(_Record):
    """Instructions for the model."""

    role: Literal["system"] = "system"
    content: str

    def to_openai(self) -> dict[str, Any]:
        """The wire form: `{"role": "system", "content": ...}`."""
        return {"role": "system", "content": self.content}


def _ordered(images: Any) -> Any:
    """A set of images is refused, as `tools=` refuses a set of tools (`check_collection`): it is
    read in hash order, and a str's hash is salted per process, so the model would see the images
    in another order in each run. Runs only when images are given (a tuple or a list passes on
    a type test): a message without images pays nothing."""
    if type(images) is tuple or type(images) is list or not isinstance(images, (set, frozenset)):
        return images
    raise ValueError(
        f"UserMessage(images=...) takes a list, and got a {type(images).__name__}, which has no order: the "
        "model would be sent the images in another order in each process; give a list, in the order you want"
    )


class UserMessage(TurnMessage, _Record):
    """What the user said, and the images that go with it."""

    role: Literal["user"] = "user"
    content: str
    images: Annotated[tuple[str, ...], BeforeValidator(_ordered)] = Field(
        default=(), exclude_if=lambda images: not images
    )
    """Image URLs (`data:` or `http(s)://`), sent as `image_url` parts after the text."""
    from_tool_calls: tuple[str, ...] = Field(default=(), exclude_if=lambda ids: not ids)
    """Set when the loop wrote this message to carry images that these tool calls returned
    (tool results carry text only); never sent. Memory windows keep it with their round."""

    @model_validator(mode="before")
    @classmethod
    def _parts(cls, data: Any) -> Any:
        """A list `content` (the wire's content parts) becomes `content` and `images`."""
        if not isinstance(data, dict) or not isinstance(data.get("content"), list):
            return data
        if data.get("images"):
            raise ValueError("give images either as image_url parts of content or as images, not both")
        text, images = _split_parts(data["content"])
        return {**data, "content": text, "images": images}

    @field_validator("images")
    @classmethod
    def _urls(cls, images: tuple[str, ...]) -> tuple[str, ...]:
        for i, url in enumerate(images):
            if not url.startswith(URL_PREFIXES):
                raise ValueError(f"images[{i}] = {url[:40]!r} is not a data: URL or an http(s):// URL")
        return images

    def to_openai(self) -> dict[str, Any]:
        """The wire form: the text alone, or a list of text and image parts when the message carries images."""
        if not self.images:
            return {"role": "user", "content": self.content}
        parts: list[dict[str, Any]] = [{"type": "text", "text": self.content}] if self.content else []
        parts += [{"type": "image_url", "image_url": {"url": url}} for url in self.images]
        return {"role": "user", "content": parts}


def _split_parts(parts: list[Any], role: str = "user") -> tuple[str, list[str]]:
    """`(text, image URLs)` of a wire content list, its texts joined by a newline: a user message's
    `text` and `image_url` parts; a system, developer or tool message's `text` parts only (all OpenAI
    allows there). Any other part raises `ValueError`."""
    kinds = _USER_PART_KINDS if role == "user" else ("text",)
    texts: list[str] = []
    images: list[str] = []
    for i, part in enumerate(parts):
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text" and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif kind == "image_url" and kind in kinds and isinstance(part.get("image_url"), dict):
            images.append(part["image_url"].get("url"))
        else:
            allowed = _USER_PARTS if role == "user" else "{'type': 'text', 'text': ...}"
            raise ValueError(
                f"content[{i}] is {_describe_part(part, kinds)}: a {role} message's content parts may only be {allowed}"
            )
    return "\n".join(texts), images


_USER_PART_KINDS = ("text", "image_url")
_USER_PARTS = "{'type': 'text', 'text': ...} or {'type': 'image_url', 'image_url': {'url': ...}}"


def _describe_part(part: Any, kinds: tuple[str, ...]) -> str:
    """What a refused part is: not an object, a part of an allowed kind in the wrong shape, or another kind."""
    if not isinstance(part, dict):
        return f"not an object ({type(part).__name__})"
    kind = part.get("type")
    if kind in kinds:
        return f"a {kind!r} part without its {kind!r} field in the right shape"
    return f"a part of type {kind!r}"


class AssistantMessage(TurnMessage, _Record):
    """The model's reply: text, tool calls, or both."""

    role: Literal["assistant"] = "assistant"
    content: str | None = None
    """The text; `None` when the model only asked for tools."""
    tool_calls: tuple[ToolCall, ...] = ()
    """The calls requested, in the model's order."""
    extra: dict[str, Any] = Field(default_factory=dict, exclude_if=lambda extra: not extra)
    """The provider's fields that must go back with this message (`KEPT_ASSISTANT_FIELDS`). A
    field the message sends itself (`role`, `content`, `tool_calls`) or that belongs to another
    message (`tool_call_id`, the legacy `function_call`) is refused (`_own_fields`): sent from
    `extra`, it would replace the message's own."""
    refusal: str | None = Field(default=None, exclude_if=lambda refusal: refusal is None)
    """The model's refusal (OpenAI's `refusal`, sent instead of `content`), kept as it came."""

    @field_validator("extra")
    @classmethod
    def _own_fields(cls, extra: dict[str, Any]) -> dict[str, Any]:
        """Run only when `extra` is given (a reply with nothing to keep leaves it out, and pays
        nothing); a reply's holds only `KEPT_ASSISTANT_FIELDS`, one set test."""
        if extra and not _NOT_EXTRA.keys().isdisjoint(extra):
            raise ValueError(_not_extra_text(extra))
        return extra

    @property
    def has_tool_calls(self) -> bool:
        """Whether the model asked for at least one tool call."""
        return bool(self.tool_calls)

    @property
    def text(self) -> str | None:
        """What the model said: its `content`, or its refusal when it sent no content."""
        return self.content if self.content is not None else self.refusal

    def to_openai(self) -> dict[str, Any]:
        """The wire form. An assistant message needs `content` unless it has tool calls (OpenAI
        and strict gateways refuse `null` there): a reply with neither (a refusal, an empty
        reply) goes out with its refusal as the text, or `""`. The refusal field itself is not
        sent: not every gateway knows it."""
        content = self.content
        if content is None and not self.tool_calls:
            content = self.refusal or ""
        out: dict[str, Any] = {"role": "assistant", "content": content, **self.extra}
        if self.tool_calls:
            out["tool_calls"] = [c.to_openai() for c in self.tool_calls]
        return out

    @classmethod
    def from_openai(cls, data: dict[str, Any]) -> AssistantMessage:
        """A reply's `message` object; content given as parts keeps its text parts, joined; a content
        of "" beside a refusal or an audio transcript is none (a relay writing null as "": the reply
        is the refusal, or the transcript, as the same reply streamed reads). A dict
        nested past Python's recursion limit (built in code: JSON's reader stops near 1,000 levels)
        is a `ValueError` saying so, not the `RecursionError` of quoting or writing it."""
        try:
            return cls._from_openai(data)
        except RecursionError:
            raise ValueError(TOO_DEEP) from None

    @classmethod
    def _from_openai(cls, data: dict[str, Any]) -> AssistantMessage:
        listed = data.get("tool_calls") or ()
        if not isinstance(listed, (list, tuple)):
            if not one_call(listed):
                raise ValueError(f"tool_calls is not a list: {listed!r:.100}")
            listed = (listed,)  # one call written bare (text-generation-inference 2.x): a list of it
        calls = tuple(ToolCall.from_openai(c) for c in listed) or legacy_call(data.get("function_call"))
        extra = one_reasoning({key: data[key] for key in KEPT_ASSISTANT_FIELDS if data.get(key) not in (None, "", [])})
        if calls and "reasoning_content" in data and "reasoning_content" not in extra:
            extra = {**extra, **empty_reasoning(data["reasoning_content"])}
        raw = data.get("content")
        refusal = data.get("refusal")
        refusal = refusal if isinstance(refusal, str) and refusal else None
        if refusal is None and isinstance(raw, list):  # the refusal sent as a content part
            refusal = "".join(p["refusal"] for p in raw if _is_part(p, "refusal")) or None
        content = text_of(raw)
        if not content and isinstance(data.get("audio"), dict):  # an answer in audio: its words
            content = _transcript(data["audio"]) or content
        if content == "" and refusal is not None:  # a relay writing null as "": the refusal is the reply
            content = None  # (as streamed: an empty content delta adds no text)
        if extra:  # given only when it holds something: `{}` would be checked (`_own_fields`) for nothing
            return cls(content=content, tool_calls=calls, extra=extra, refusal=refusal)
        return cls(content=content, tool_calls=calls, refusal=refusal)


def _is_part(part: Any, kind: str) -> bool:
    """Whether `part` is a content part of type `kind` holding its string (`{"type": "refusal", "refusal": "..."}`)."""
    return isinstance(part, dict) and part.get("type") == kind and isinstance(part.get(kind), str)


def _transcript(audio: dict[str, Any]) -> str | None:
    """What a reply answered in audio (`modalities: ["text", "audio"]`) said: OpenAI sends
    `content: null` and the words in `audio.transcript` (None when there are none)."""
    transcript = audio.get("transcript")
    return transcript if isinstance(transcript, str) and transcript else None


def empty_reasoning(sent: Any) -> dict[str, Any]:
    """`{"reasoning_content": ""}` for a tool-call reply whose provider sent the field empty (`""`
    or null), else nothing. DeepSeek's thinking mode refuses (a 400) a history whose tool-call turn
    lacks `reasoning_content`, even one on which the model reasoned nothing: the field goes back
    empty. A reply without tool calls, or whose provider sends no such field, keeps none."""
    return {"reasoning_content": ""} if sent is None or sent == "" else {}


def one_call(value: Any) -> bool:
    """Whether `tool_calls` holds one call written as the object itself, not in a list (as
    text-generation-inference 2.x writes a reply's, and each streamed delta's)."""
    return isinstance(value, dict) and isinstance(value.get("function"), dict)


def legacy_call(function_call: Any) -> tuple[ToolCall, ...]:
    """A reply's legacy `function_call` (`{"name", "arguments"}`) as one tool call without an id;
    none when there is none (or it is not an object)."""
    if not isinstance(function_call, dict):
        return ()
    return (ToolCall.from_openai({"function": function_call}),)


_NOT_EXTRA = {
    "role": "an AssistantMessage is always sent as role 'assistant'; for another role build a SystemMessage, "
    "UserMessage or ToolResultMessage",
    "content": "give the text as AssistantMessage(content=...)",
    "tool_calls": "give the calls as AssistantMessage(tool_calls=(ToolCall(id=..., name=..., arguments=...), ...))",
    "function_call": "give the call as AssistantMessage(tool_calls=(ToolCall(id=..., name=..., arguments=...),))",
    "tool_call_id": "a tool's result answers a call: ToolResultMessage(tool_call_id=..., content=...)",
}
"""The wire fields an assistant message's `extra` may not hold, and what to write instead."""


def _not_extra_text(extra: dict[str, Any]) -> str:
    key = next(key for key in _NOT_EXTRA if key in extra)
    return (
        f"AssistantMessage(extra=...) holds {key!r}, a message's own wire field, which extra would set or replace "
        f"when the message is sent; extra is for a provider's own fields (e.g. 'reasoning_content'). Fix: "
        f"{_NOT_EXTRA[key]}"
    )


KEPT_ASSISTANT_FIELDS = ("reasoning_content", "reasoning_details", "thinking_blocks", "reasoning", "extra_content")
"""Fields of an assistant message that providers want back on the next request: DeepSeek's (and
Moonshot's Kimi) `reasoning_content` in thinking mode with tool calls — without it the next
request is a 400, so a tool-call reply keeps it even empty (`empty_reasoning`) —, OpenRouter's
`reasoning_details`, LiteLLM's `thinking_blocks` (Claude's signed thinking), vLLM's and
Ollama's `reasoning`, unless the reply says it in `reasoning_details` too (`one_reasoning`), and
Gemini's `extra_content` on a reply without tool calls (`{"google": {"thought_signature": …}}`; a
tool call's goes back on the call, in its `extra`).
A gateway that refuses one (Groq refuses `reasoning` for a model without reasoning) is asked again
without it (`toolkit.chat.reasoning_fields`). Others are dropped."""


def text_of(content: Any) -> Any:
    """Text content as is; a list of parts (some gateways send one, in a reply or a streamed
    delta) → its text parts joined (None when it has none: a thinking part is not text)."""
    if not isinstance(content, list):
        return content
    texts = [
        p["text"] for p in content if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
    ]
    return "".join(texts) if texts else None


class ToolResultMessage(TurnMessage, _Record):
    """The result of one tool call, sent back to the model."""

    role: Literal["tool"] = "tool"
    tool_call_id: str
    """Echoes `ToolCall.id`; strict gateways reject a result that answers no call."""
    tool_name: str = ""
    """The tool that produced it. Sent as `name` when known: OpenAI's own function-calling guide
    does, and Gemini's OpenAI-compatible endpoint refuses a tool message without it (a 400)."""
    content: str
    """The text the model reads."""
    is_error: bool = False
    """True when `content` describes a failure (argument, execution, rollback)."""
    attributes: dict[str, Any] = Field(default_factory=dict)
    """Stored with memory, never sent: e.g. `found_tools`, `activated_skill`."""

    def to_openai(self) -> dict[str, Any]:
        """The wire form: role `tool`, the id of the call it answers, the content (and the tool's `name`, when known)."""
        out = {"role": "tool", "tool_call_id": self.tool_call_id, "content": self.content}
        if self.tool_name:
            out["name"] = self.tool_name
        return out


_TURN_CLASSES = (UserMessage, AssistantMessage, ToolResultMessage)

Message = Annotated[
    SystemMessage | UserMessage | AssistantMessage | ToolResultMessage,
    Field(discriminator="role"),
]
_MESSAGE = TypeAdapter(Message)


TOO_DEEP = "the message is nested too deep to read (past Python's recursion limit)"
"""`AssistantMessage.from_openai`'s error for a dict nested past Python's recursion limit."""


def message_from_openai(data: dict[str, Any]) -> Message:
    """Parse one chat-completions message dict into its record (a `ValueError`, pydantic's
    `ValidationError` among them, when it is not one)."""
    if not isinstance(data, Mapping):
        raise ValueError(
            "message_from_openai() reads one chat-completions message, a dict such as "
            f"{{'role': 'user', 'content': 'hi'}}; it was given {a_kind_of(data)}"
        )
    role = data.get("role")
    if role == "assistant":
        return AssistantMessage.from_openai(data)
    if role == "tool":  # only the fields given: one missing is pydantic's "Field required", named
        fields = {ours: data[wire] for wire, ours in _TOOL_FIELDS if wire in data}
        if isinstance(fields.get("content"), list):
            fields["content"] = _split_parts(fields["content"], "tool")[0]
        return _read(ToolResultMessage, fields)
    content = data.get("content")
    if role in _INSTRUCTION_ROLES:
        role, content = "system", _split_parts(content, role)[0] if isinstance(content, list) else content
    return _read(_BY_ROLE.get(role), {"role": role, "content": content})


def _read(cls: type[_Record] | None, fields: dict[str, Any]) -> Any:
    """`cls` made from the wire's `fields` (a message of no known role: the union says which roles there
    are), a field of the wrong kind a `RecordError`: one line, still pydantic's `ValidationError`."""
    try:
        return _MESSAGE.validate_python(fields) if cls is None else cls.model_validate(fields)
    except ValidationError as exc:
        raise RecordError.of(exc, () if cls is None else cls.model_fields, "message_from_openai") from None


_INSTRUCTION_ROLES = ("system", "developer")
"""The roles read as a `SystemMessage`: OpenAI's `developer` replaces `system` for its newer models."""
_BY_ROLE: dict[Any, type[_Record]] = {"system": SystemMessage, "user": UserMessage}
"""The records `message_from_openai` reads by their role alone (an assistant's and a tool's have their own reading)."""


_TOOL_FIELDS = (("tool_call_id", "tool_call_id"), ("content", "content"), ("name", "tool_name"))
"""A tool message's wire fields and the `ToolResultMessage` fields they fill."""


def to_openai(messages: list[Message]) -> list[dict[str, Any]]:
    """The `messages` array of a chat-completions request."""
    return [m.to_openai() for m in messages]


def dump_message(message: Message) -> dict[str, Any]:
    """Everything, attributes and tool names included: the form memory stores."""
    return message.model_dump(mode="json")


def load_message(data: dict[str, Any]) -> Message:
    """Inverse of `dump_message`, validating as it goes."""
    return _MESSAGE.validate_python(data)


class TokenUsage(_Record):
    """Tokens counted by the gateway; `a + b` sums rounds of one call.

    A count the gateway did not report is None, never 0 ("not reported" in every view): a
    sum with an unreported part is unreported too. `TokenUsage()` is zero tokens (the start
    of a sum). A count is 0 or more: a negative one (`TokenUsage(input_tokens=-3)`) is a
    `ValidationError` naming the field (checked in pydantic-core: a reply's usage costs no more),
    as `from_openai` reads a gateway's negative count as not reported."""

    input_tokens: int | None = Field(default=0, ge=0)
    output_tokens: int | None = Field(default=0, ge=0)

    @property
    def total_tokens(self) -> int | None:
        """Input plus output tokens; `None` when either count was not reported."""
        return _plus(self.input_tokens, self.output_tokens)

    @property
    def reported(self) -> bool:
        """Whether both counts are known."""
        return self.input_tokens is not None and self.output_tokens is not None

    def __add__(self, other: TokenUsage) -> TokenUsage:
        if type(other) is not TokenUsage and not isinstance(other, TokenUsage):
            return NotImplemented  # `usage + 3`: Python's "unsupported operand" TypeError, not an AttributeError
        return TokenUsage(
            input_tokens=_plus(self.input_tokens, other.input_tokens),
            output_tokens=_plus(self.output_tokens, other.output_tokens),
        )

    def __radd__(self, other: object) -> TokenUsage:
        """`0 + usage`: so `sum(usages)` works without a start value, as it does for numbers."""
        if type(other) is int and other == 0:
            return self
        return NotImplemented

    @classmethod
    def total(cls, usages: Iterable[TokenUsage]) -> TokenUsage:
        """`sum(usages, TokenUsage())`, adding plain counts and building one record at the end."""
        input_tokens: int | None = 0
        output_tokens: int | None = 0
        for usage in usages:  # `_plus` written out: a loop's turn adds one record per round
            given_in, given_out = usage.input_tokens, usage.output_tokens
            input_tokens = None if input_tokens is None or given_in is None else input_tokens + given_in
            output_tokens = None if output_tokens is None or given_out is None else output_tokens + given_out
        return cls(input_tokens=input_tokens, output_tokens=output_tokens)

    @classmethod
    def from_openai(cls, data: dict[str, Any] | None) -> TokenUsage:
        """From an OpenAI `usage` object; a missing or non-integer count is None (not reported). A
        reasoning model's thinking counted beside `completion_tokens` (xAI's: its
        `completion_tokens_details.reasoning_tokens` is in `total_tokens` and not in
        `completion_tokens`, where OpenAI's is) is output too (`_beside`)."""
        data = data if isinstance(data, dict) else {}
        given_in, given_out = _count(data.get("prompt_tokens")), _count(data.get("completion_tokens"))
        total = data.get("total_tokens")
        if given_in is not None and given_out is not None and type(total) is int and total > given_in + given_out:
            given_out += _beside(data, total - given_in - given_out)  # the rare case: a total saying more
        return cls(input_tokens=given_in, output_tokens=given_out)

    def to_openai(self) -> dict[str, int | None]:
        """The wire form of `usage`: `prompt_tokens`, `completion_tokens` and `total_tokens` (`None` = not reported)."""
        return {
            "prompt_tokens": self.input_tokens,
            "completion_tokens": self.output_tokens,
            "total_tokens": self.total_tokens,
        }

    def line(self) -> str:
        """`input 12 · output 3 · total 15`, each count "not reported" when unknown."""
        return (
            f"input {tokens_text(self.input_tokens)} · output {tokens_text(self.output_tokens)} · "
            f"total {tokens_text(self.total_tokens)}"
        )

    def __str__(self) -> str:  # print(usage) reads as the views do; repr() keeps the fields
        return self.line()


NOT_REPORTED = "not reported"


def tokens_text(count: int | None) -> str:
    """A token count for display: the number, or "not reported"."""
    return NOT_REPORTED if count is None else str(count)


def _plus(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _beside(usage: dict[str, Any], more: int) -> int:
    """The reasoning tokens `usage` counts beside its completion: its `reasoning_tokens` when its
    total exceeds prompt plus completion by just those; else 0 (a total off by anything else is
    the gateway's own arithmetic, not read)."""
    details = usage.get("completion_tokens_details")
    reasoning = details.get("reasoning_tokens") if isinstance(details, dict) else None
    return more if type(reasoning) is int and reasoning == more else 0


def _count(value: Any) -> int | None:
    """A token count: a whole number, 0 or more. JSON has one number type, so `12.0` is 12 (gateways
    that count in JavaScript or by a float sum send one); `12.5`, a bool, NaN or a negative number
    counts nothing (not reported)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value >= 0 else None
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    return None


class ChatResponse(_Record):
    """One model response: the message, why it stopped, what it cost."""

    message: AssistantMessage
    finish_reason: FinishReason | None = None
    """Why the model stopped, as the gateway said it."""
    usage: TokenUsage = TokenUsage()
    """Tokens this one response cost."""
    model: str = ""
    id: str = ""
    sources: tuple[Source, ...] = Field(default=(), exclude_if=lambda sources: not sources)
    """The web pages the answer cites, numbered as its text cites them (Perplexity's `search_results` or
    `citations`: `toolkit.chat.sources`); () from a gateway that names none. Never sent back."""


_PLAIN_RECORDS = frozenset(
    (ToolCall, SystemMessage, UserMessage, AssistantMessage, ToolResultMessage, TokenUsage, ChatResponse)
)
"""The records whose equality `_Record.__eq__` answers itself when they are equal (not subclasses)."""


MESSAGE_TYPES = (SystemMessage, UserMessage, AssistantMessage, ToolResultMessage)
"""The message records (a subclass of one is one too)."""


def given_conversation(messages: Any, where: str, *, alone: str, fix: str) -> Sequence[Message]:
    """A conversation given as something other than a list or a tuple: a `str` is one user
    message; another sequence is taken as it is; anything else (a dict: one message in the OpenAI
    format, bytes, `None`, a number) is a `ConfigurationError` saying what a str is read as
    (`alone`) and what to pass (`fix`)."""
    if isinstance(messages, str):
        return [UserMessage(content=messages)]
    if isinstance(messages, (bytes, bytearray, Mapping)) or not isinstance(messages, Sequence):
        raise ConfigurationError(
            f"{where}: expected a list of messages (or {alone} as a str), got {type(messages).__name__}; {fix}"
        )
    return messages


def misfit_error(messages: Sequence[Any], where: str, *, also: str = "") -> ConfigurationError | None:
    """The error naming the first item of `messages` that is not a message record (a dict, a str,
    the class `UserMessage` itself), or None when every one is: looked for only when writing the
    messages failed, so a good conversation is never scanned. `also` ends the fix (the loop's:
    " (or the question alone as a str)")."""
    for index, message in enumerate(messages):
        if isinstance(message, type) or not isinstance(message, MESSAGE_TYPES):
            kind = f"the class {message.__name__}" if isinstance(message, type) else type(message).__name__
            return ConfigurationError(
                f"{where}: message {index} ({kind}) is not a message record; pass SystemMessage, UserMessage, "
                f"AssistantMessage or ToolResultMessage records{also}"
            )
    return None
