"""Structured output: a Python return type becomes a JSON Schema, and the answer becomes a value.

For a method declared `-> OrderSummary` (or `list[str]`, an enum, `bool`, `int` …):

1. the type's JSON Schema (pydantic) goes to the model, as `response_format` when the gateway
   supports it, or as instructions appended to the user message when it does not;
   non-object types are wrapped as `{"value": …}` because `response_format` wants an object;
2. the answer text is parsed tolerantly (code fences and chatter around one JSON object are
   stripped) and validated strictly with pydantic;
3. a failure gets one repair round (`repair_message`), then `OutputParsingError`.

Leaves out: streaming partial JSON, and grammar-constrained decoding.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from toolkit.errors import OutputParsingError

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


@dataclass(frozen=True)
class OutputType:
    """How one return type is asked for and read back."""

    type: Any

    @cached_property
    def wrapped(self) -> bool:
        return not (isinstance(self.type, type) and issubclass(self.type, BaseModel))

    @cached_property
    def adapter(self) -> TypeAdapter:
        return TypeAdapter(self.type)

    @cached_property
    def schema(self) -> dict[str, Any]:
        inner = self.adapter.json_schema()
        if not self.wrapped:
            return inner
        defs = inner.pop("$defs", None)
        outer: dict[str, Any] = {"type": "object", "properties": {"value": inner}, "required": ["value"]}
        return {**outer, "$defs": defs} if defs else outer

    @property
    def name(self) -> str:
        return getattr(self.type, "__name__", "answer").replace(" ", "_")[:64] or "answer"

    def response_format(self) -> dict[str, Any]:
        """The chat-completions `response_format` for this type."""
        return {"type": "json_schema", "json_schema": {"name": self.name, "schema": self.schema}}

    def instructions(self) -> str:
        """The same request as plain text, for gateways without `response_format`."""
        schema = json.dumps(self.schema, ensure_ascii=False, sort_keys=True)
        return f"Answer with one JSON object only, no other text. It must match this JSON Schema:\n{schema}"

    def parse(self, answer: str | None) -> Any:
        """The validated value, or `OutputParsingError` saying what is wrong."""
        text = answer or ""
        try:
            data = json.loads(extract_json(text))
        except ValueError:
            raise OutputParsingError("the answer is not a JSON object", answer=text) from None
        if self.wrapped:
            if not isinstance(data, dict) or "value" not in data:
                raise OutputParsingError('the answer has no "value" field', answer=text)
            data = data["value"]
        try:
            return self.adapter.validate_python(data)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in exc.errors(include_url=False)
            )
            raise OutputParsingError(f"the JSON does not match the schema ({problems})", answer=text) from None


def extract_json(text: str) -> str:
    """The JSON object inside `text`: a fenced block, else the outermost `{…}`, else the text."""
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1)
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if 0 <= start < end else text.strip()


def repair_message(error: OutputParsingError) -> str:
    return f"Your answer could not be used: {error}. Reply again with only the JSON object, matching the schema."
