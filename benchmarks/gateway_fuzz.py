"""Fuzz the embedded gateway with 10,000 malformed requests, in process; count 5xx and crashes.

Issue 14 ("Keep what holds"): the gateway answered every malformed request with a 200 or an
OpenAI-shaped 4xx. This script keeps that true at scale, on demand (CI keeps the smaller
hypothesis run in `tests/test_gateway_fuzz.py`). Requests go through `httpx` and
`InProcessTransport`, the path a notebook uses, from a seeded generator (same run, same
requests) mixing fourteen kinds:

    bytes      random bytes, sometimes a truncated valid body
    json       random JSON values
    mutated    a valid request with 1-3 nodes deleted or replaced by random JSON
    extra      a valid request with unexpected keys added to its objects
    deep       arrays/objects nested up to 5,000 levels, as a whole body or as `arguments`
    big        strings up to 200,000 characters in content, names and arguments
    text       odd text: lone surrogates, NUL, RTL marks, invalid UTF-8 bytes
    http       another method (HEAD and OPTIONS too), path, content type or mode header
    schema     tools whose `parameters` are no JSON Schema (`"type": "str"`, a parameter that is a
               string, `"required": true`, random values for the schema keywords), up to 200 of them
    nested     a value 1,000 deep (within orjson's 1,024 levels) where a check quotes it (`n`, `role`,
               `modalities`, a schema keyword), or a strict tool's schema nested that deep
    encoded    a compressed body: gzip in several members or with bytes after it, zlib or raw deflate,
               `br`, an unknown or stacked encoding, a member that inflates past the 64 MiB limit
    keywords   a tool parameter with hostile keywords: a catastrophic `pattern`, `patternProperties` or
               `propertyNames` (`^(a+)+$`, asked with 30 'a's and a '!'), an invalid regex, an unknown
               `format`, a negative `minLength`, an `enum` of 10,000 items or of mixed types, a
               `default` its own schema refuses; a forced call, sometimes strict
    numbers    a number no encoder writes, spliced into the text where a number (or any value) goes:
               `1e400`, `1e-400`, `-0`, `NaN`, `Infinity`, 5,000 digits, past 64 bits, `01`, `+1`, `.5`;
               in a sampling field, a message, the arguments' text or a tool's schema; or a key twice
               in one object (`"model"`, `"messages"`, `"role"`, `"tool_calls"`, ...), the second
               one's value hostile
    unicode    valid JSON holding hostile Unicode where a stranger's text goes (a tool's name, description
               and parameter names, the arguments' text and their values, a message's content, name and
               call id, the model): a lone surrogate written as the escape `\\ud800` (or `\\udfff\\ud800`, a
               pair the wrong way round), NUL, RTL and LTR overrides, zero-width joiners, a BOM, U+2028,
               a noncharacter (U+FFFF), up to 1 MB of combining marks on one letter (past the 256 KB cap:
               a real body that large)

Bounded: every body ≤ 256 KB (an `unicode` one ≤ 1.2 MB), and the run stops after `--seconds` (default 600) whatever the
count. Reported: status classes, 5xx, crashes (an exception out of the transport), 4xx bodies
that are not `{"error": {message, type, param, code}}` (a HEAD answer has no body), and "met" when
5xx = crashes = 0.

Run: `PYTHONPATH=. python benchmarks/gateway_fuzz.py [--requests 10000] [--seed 14]`
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import random
import time
import zlib
from typing import Any

import httpx

from toolkit.cli.arguments import positive
from toolkit.gateway.server import Gateway
from toolkit.gateway.transport import InProcessTransport

MAX_BODY = 256 * 1024
MAX_UNICODE_BODY = 1_300_000
"""An `unicode` body's cap: 180,000 combining marks written as escapes are about 1.1 MB."""
URL = "http://gateway/v1/chat/completions"
VALID: dict[str, Any] = {
    "model": "m",
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "query_order",
                "description": "查询订单",
                "parameters": {
                    "type": "object",
                    "properties": {"orderId": {"type": "string"}},
                    "required": ["orderId"],
                },
            },
        }
    ],
    "tool_choice": "auto",
    "messages": [
        {"role": "system", "content": "你是售后助手"},
        {"role": "user", "content": "帮我查一下订单 SN202610200001 现在到哪了？"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "query_order", "arguments": '{"orderId":"SN202610200001"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "订单号：SN202610200001\n状态：已发货"},
        {"role": "user", "content": "谢谢，那 SN202610200002 的物流呢"},
    ],
}
KEYS = ["role", "content", "tool_calls", "tool_call_id", "function", "arguments", "name", "tools", "tool_choice"]
KEYS += ["stream", "stream_options", "parallel_tool_calls", "model", "messages", "response_format", "n", "x"]
ODD = ["\ud800", "\x00", "\u202e", "\ufeff", "{", "}", '"', "\\", "SN202610200001", "物流", "退款", " " * 50]
KINDS = ["bytes", "json", "mutated", "extra", "deep", "big", "text", "http", "schema", "nested", "encoded", "keywords"]
KINDS += ["numbers", "unicode"]
SCHEMA_KEYS = ["type", "properties", "required", "enum", "items", "anyOf", "not", "additionalProperties", "$defs"]
SLIPS = ["str", "int", "float", "bool", "dict", "list", "any", "String", "", "function", "array"]
QUOTED = ["n", "modalities", "tool_choice", "response_format", "temperature", "metadata", "stop", "prediction"]
"""Fields whose checks quote a bad value in their error (the `nested` kind puts a deep value there)."""
ENCODINGS = ["gzip", "x-gzip", "deflate", "br", "zstd", "gzip, gzip", "identity", "GZIP", "compress", ""]
CATASTROPHIC = ["^(a+)+$", "(a|a)*b", "(x+x+)+y", "^(a|aa)+$", "(.*a){12}", "^([a-z]+)*$"]
"""Patterns whose backtracking is exponential (or n¹²) in Python's `re` on 30 'a's and a '!'."""
HOSTILE_KEYWORDS: list[tuple[str, Any]] = [
    ("pattern", "(["),
    ("pattern", "a{100000}"),
    ("pattern", "(?<=a)b"),
    ("pattern", 5),
    ("format", "no-such-format"),
    ("format", "date-time"),
    ("format", ["email"]),
    ("minLength", -5),
    ("maxLength", -1),
    ("minLength", 10**12),
    ("minLength", 2**64),
    ("minLength", 1.5),
    ("minItems", 10**9),
    ("minProperties", 10**9),
    ("minimum", 10),
    ("maximum", -10),
    ("multipleOf", 0),
    ("multipleOf", 1e-300),
    ("multipleOf", -3),
    ("enum", []),
    ("enum", [1, "a", None, [1], {"a": 1}, True, 1.5, 1e308]),
    ("const", {"a": [1, {"b": None}]}),
    ("default", {"not": "a string"}),
    ("default", 1e308),
    ("examples", "x"),
    ("uniqueItems", "yes"),
]
"""A string schema's keyword given a value no one tried: invalid, negative, impossible, of the wrong type."""
NUMBERS = ["1e400", "-1e400", "1e-400", "-0", "-0.0", "NaN", "Infinity", "-Infinity", "9" * 5000, "9" * 4301]
NUMBERS += ["1" + "0" * 400 + ".5", "18446744073709551616", "-9223372036854775809", "1.7976931348623157e308"]
NUMBERS += ["4.9e-324", "0." + "0" * 5000 + "1", "1E+2", "01", "1.", ".5", "+1", "0x10", "1_000", "1e", "--1"]
"""Number tokens strict JSON refuses, or reads into a value no encoder writes (infinity, 0 for 1e-400)."""
NUMBER_SLOTS = ["temperature", "top_p", "n", "max_tokens", "max_completion_tokens", "seed", "presence_penalty"]
NUMBER_SLOTS += ["frequency_penalty", "top_logprobs", "logprobs", "parallel_tool_calls", "stream", "model"]
"""Top-level fields a number token replaces (most take a number; a few take another type)."""
HOSTILE_UNICODE = ["\ud800", "\udfff\ud800", "\udc00", "\x00", "\u202e", "\u202d", "\u2066", "\u200d", "\u200b",
                   "\ufeff", "\u2028", "\uffff", "\U0001f600", "\u0301\u0301", "\U000e0001", "\x1b[31m"]  # fmt: skip
"""Hostile Unicode: lone and reversed surrogates, NUL, bidi overrides and isolates, zero-width joiner and
space, BOM, a line separator, a noncharacter, an emoji, combining marks, a tag character, an ANSI escape."""
TWICE = ["model", "messages", "tools", "tool_choice", "stream", "n"]
"""Top-level keys the `numbers` kind writes twice."""


class Fuzzer:
    """Seeded generator of (method, path, headers, body)."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self._bomb: bytes | None = None

    def nested(self) -> bytes:
        """A value 1,000 deep (a list or an object) where a check quotes what it reads, or a strict schema."""
        r = self.r
        n = r.choice([100, 900, 1000, 1015])
        deep = "[" * n + "1" + "]" * n if r.random() < 0.5 else '{"a":' * n + "1" + "}" * n
        request = json.loads(json.dumps(VALID))
        roll = r.random()
        if roll < 0.4:
            request[r.choice(QUOTED)] = "@"
        elif roll < 0.55:
            request["messages"][r.randrange(len(request["messages"]))][r.choice(["role", "content", "name"])] = "@"
        elif roll < 0.75:
            parameters = request["tools"][0]["function"]["parameters"]
            parameters["properties"]["orderId"][r.choice(SCHEMA_KEYS)] = "@"
        else:  # a strict schema nested past Python's recursion limit
            n = r.choice([300, 1000, 1015])
            deep = '{"type":"array","items":' * n + r.choice(['{"type":"object"}', '{"type":"string"}']) + "}" * n
            function = request["tools"][0]["function"]
            function["strict"] = True
            function["parameters"] = {
                "type": "object",
                "properties": {"orderId": "@"},
                "required": ["orderId"],
                "additionalProperties": False,
            }
        return json.dumps(request, ensure_ascii=False).replace('"@"', deep).encode()

    def encoded(self) -> tuple[str, bytes]:
        """A Content-Encoding and a body compressed as it says, or not quite."""
        r = self.r
        valid = json.dumps(VALID, ensure_ascii=False).encode()
        cut = r.randrange(len(valid))
        roll = r.random()
        if roll < 0.25:  # several gzip members, maybe with an empty one between
            middle = gzip.compress(b"", mtime=0) * r.randint(0, 3)
            return "gzip", gzip.compress(valid[:cut], mtime=0) + middle + gzip.compress(valid[cut:], mtime=0)
        if roll < 0.4:  # bytes after the compressed data
            return r.choice(["gzip", "deflate"]), zlib.compress(valid) + r.randbytes(r.randint(1, 20))
        if roll < 0.55:  # raw deflate or zlib, as "deflate"
            squeezer = zlib.compressobj(wbits=r.choice([-zlib.MAX_WBITS, zlib.MAX_WBITS]))
            return "deflate", squeezer.compress(valid) + squeezer.flush()
        if roll < 0.7:  # a member that inflates past the body limit, after a small one
            return "gzip", gzip.compress(valid[:cut], mtime=0) + self.bomb()
        if roll < 0.8:  # very many empty members
            return "gzip", gzip.compress(b"", mtime=0) * r.choice([10, 65, 5000]) + gzip.compress(valid)
        return r.choice(ENCODINGS), r.choice([gzip.compress(valid), valid, r.randbytes(r.randint(0, 100))])

    def bomb(self) -> bytes:
        """One gzip member of 65 MiB of blanks (about 64 KB), made once."""
        if self._bomb is None:
            self._bomb = gzip.compress(b" " * (65 << 20), compresslevel=9, mtime=0)
        return self._bomb

    def value(self, depth: int = 0) -> Any:
        r = self.r
        choice = r.randrange(9 if depth < 3 else 6)
        if choice == 0:
            return None
        if choice == 1:
            return r.choice([True, False])
        if choice == 2:
            return r.choice([0, -1, 2**63, 1e308, -0.0, r.randint(-1000, 1000)])
        if choice in (3, 4, 5):
            return self.text(r.randint(0, 30))
        if choice in (6, 7):
            return [self.value(depth + 1) for _ in range(r.randint(0, 4))]
        return {
            self.text(r.randint(0, 8)) if r.random() < 0.5 else r.choice(KEYS): self.value(depth + 1)
            for _ in range(r.randint(0, 4))
        }

    def text(self, n: int) -> str:
        r = self.r
        return "".join(r.choice(ODD) if r.random() < 0.2 else chr(r.randint(32, 0x9FFF)) for _ in range(n))

    def mutate(self, value: Any, times: int) -> Any:
        for _ in range(times):
            value = self._mutate_once(value)
        return value

    def _mutate_once(self, value: Any) -> Any:
        r = self.r
        if not isinstance(value, (dict, list)) or not value or r.random() < 0.25:
            return self.value()
        copy: Any = dict(value) if isinstance(value, dict) else list(value)
        key = r.choice(list(copy)) if isinstance(copy, dict) else r.randrange(len(copy))
        roll = r.random()
        if roll < 0.5:
            copy[key] = self._mutate_once(copy[key])
        elif roll < 0.7:
            del copy[key]
        else:
            copy[key] = self.value()
        return copy

    def extra(self, value: Any) -> Any:
        if isinstance(value, dict):
            out = {k: self.extra(v) for k, v in value.items()}
            if self.r.random() < 0.3:
                out[self.r.choice(KEYS)] = self.value()
            return out
        if isinstance(value, list):
            return [self.extra(v) for v in value]
        return value

    def deep(self) -> bytes:
        n = self.r.choice([50, 500, 1000, 5000])
        nested = "[" * n + "]" * n if self.r.random() < 0.5 else '{"a":' * n + "1" + "}" * n
        if self.r.random() < 0.5:
            return nested.encode()
        request = json.loads(json.dumps(VALID))
        request["messages"][2]["tool_calls"][0]["function"]["arguments"] = nested
        return json.dumps(request).encode()

    def big(self) -> bytes:
        size = self.r.choice([10_000, 100_000, 200_000])
        request = json.loads(json.dumps(VALID))
        where = self.r.randrange(3)
        if where == 0:
            request["messages"][-1]["content"] = "订" * size
        elif where == 1:
            request["tools"][0]["function"]["name"] = "q" * size
        else:
            request["messages"][2]["tool_calls"][0]["function"]["arguments"] = '{"orderId":"' + "1" * size + '"}'
        return json.dumps(request, ensure_ascii=False).encode("utf-8", "surrogatepass")

    def schema(self) -> dict[str, Any]:
        """A tool's `parameters`: a valid one with a few of its schemas' keywords given a learner's slip
        (a Python type name, a parameter written as its type) or a random value."""
        r = self.r
        inner = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {"a": {"type": "string", "enum": ["x"]}, "b": {"type": "array", "items": inner}},
            "required": ["a"],
        }
        nodes = [schema, schema["properties"]["a"], schema["properties"]["b"], inner, inner["properties"]["q"]]
        for _ in range(r.randint(1, 3)):
            node = r.choice(nodes)
            roll = r.random()
            if roll < 0.3:
                node["type"] = r.choice(SLIPS) if r.random() < 0.7 else [r.choice(SLIPS), "null"]
            elif roll < 0.45 and isinstance(node.get("properties", {}), dict):
                node.setdefault("properties", {})[self.text(3)] = r.choice(SLIPS)
            elif roll < 0.55:
                node["required"] = r.choice([True, "a", ["a", "a"], [1]])
            else:
                node[r.choice(SCHEMA_KEYS)] = self.value()
        return schema

    def keywords(self) -> bytes:
        """A tool whose string parameter carries hostile keywords (a catastrophic `pattern` or
        `patternProperties`, an invalid regex, an unknown format, a negative length, an `enum` of
        10,000 items or of mixed types, a `default` its own schema refuses), asked with a user text
        of 30 'a's and a '!' (what a catastrophic pattern backtracks on) and a forced call."""
        r = self.r
        request = json.loads(json.dumps(VALID))
        request["messages"] = [{"role": "user", "content": r.choice(["a" * 30 + "!", "a" * 5000 + "!", "订单 aaaa"])}]
        request["tool_choice"] = r.choice(
            ["required", "auto", {"type": "function", "function": {"name": "query_order"}}]
        )
        parameters = request["tools"][0]["function"]["parameters"]
        field: dict[str, Any] = {"type": r.choice(["string", "integer", "array", "object", ["string", "null"]])}
        for _ in range(r.randint(1, 4)):
            roll = r.random()
            if roll < 0.25:
                field["pattern"] = r.choice(CATASTROPHIC)
            elif roll < 0.35:
                parameters["patternProperties"] = {r.choice(CATASTROPHIC): {"type": "string"}}
                parameters["additionalProperties"] = r.choice([False, {"type": "integer"}])
            elif roll < 0.45:
                field["propertyNames"] = {"pattern": r.choice(CATASTROPHIC)}
                field["minProperties"] = r.randint(0, 3)
            elif roll < 0.55:
                field["enum"] = r.choice([list(range(10_000)), [str(i) for i in range(10_000)], ["a" * 30 + "!"]])
            else:
                key, value = r.choice(HOSTILE_KEYWORDS)
                field[key] = value
        if r.random() < 0.3:
            request["tools"][0]["function"]["strict"] = True
            parameters["additionalProperties"] = False
        parameters["properties"]["orderId"] = field
        return _dump(request)

    def numbers(self) -> bytes:
        """The valid request with one number token no encoder writes where a value goes (`NUMBERS`), or
        with a key written twice in one object, the second value hostile (which one a reader keeps varies)."""
        r = self.r
        request = json.loads(json.dumps(VALID))
        token = r.choice(NUMBERS)
        roll = r.random()
        if roll < 0.3:
            request[r.choice(NUMBER_SLOTS)] = "@"
        elif roll < 0.45:
            message = request["messages"][r.randrange(len(request["messages"]))]
            message[r.choice(["content", "role", "name", "tool_call_id"])] = "@"
        elif roll < 0.6:  # inside the arguments' own text (a JSON string holding JSON)
            call = request["messages"][2]["tool_calls"][0]["function"]
            call["arguments"] = r.choice(['{"orderId":@}', '{"orderId":"SN202610200001","n":@}', "@", "[@]"])
            call["arguments"] = call["arguments"].replace("@", token)
            return _dump(request)
        elif roll < 0.75:
            field = request["tools"][0]["function"]["parameters"]["properties"]["orderId"]
            field[r.choice(["minimum", "maximum", "maxLength", "minLength", "multipleOf", "default", "const"])] = "@"
            if r.random() < 0.3:
                field["enum"] = ["SN202610200001", "@"]
        else:  # a key twice: the first value valid, the second hostile (a number token or a random value)
            key = r.choice(TWICE + ["role", "content", "tool_calls", "function", "arguments", "type"])
            second = token if r.random() < 0.5 else json.dumps(self.value(), ensure_ascii=False)
            text = _dump(request).decode("utf-8", "surrogatepass")
            if key in TWICE:
                text = text.replace("{", '{"' + key + '":' + second + ",", 1)  # the top level's own key first
            else:
                spot = text.find(f'"{key}": ', r.randrange(len(text) // 2))
                spot = text.find(f'"{key}": ') if spot < 0 else spot
                text = text[:spot] + f'"{key}": {second}, ' + text[spot:] if spot >= 0 else text
            return text.encode("utf-8", "surrogatepass")
        return _dump(request).replace(b'"@"', token.encode())

    def hostile_text(self) -> str:
        """A short run of `HOSTILE_UNICODE`, sometimes around a word the gateway reads, or a long
        run of combining marks on one letter (up to 1 MB of them written as escapes)."""
        r = self.r
        if r.random() < 0.1:
            return "a" + "\u0301" * r.choice([1_000, 50_000, 180_000])
        pieces = [r.choice(HOSTILE_UNICODE) for _ in range(r.randint(1, 6))]
        if r.random() < 0.5:
            pieces.insert(r.randrange(len(pieces) + 1), r.choice(["query_order", "SN202610200001", "物流", "orderId"]))
        return "".join(pieces)

    def unicode(self) -> bytes:
        """The valid request with hostile Unicode (`hostile_text`) in one or two places a stranger writes,
        escaped as JSON escapes it (`\\ud800` as six characters), or raw where it is UTF-8."""
        r = self.r
        request = json.loads(json.dumps(VALID))
        tool = request["tools"][0]["function"]
        call = request["messages"][2]["tool_calls"][0]
        for _ in range(r.randint(1, 2)):
            text = self.hostile_text()
            spot = r.randrange(10)
            if spot == 0:
                tool["name"] = call["function"]["name"] = text  # the call names the same tool
            elif spot == 1:
                tool["description"] = text
            elif spot == 2:
                tool["parameters"]["properties"] = {text: {"type": "string"}}
                tool["parameters"]["required"] = [text]
            elif spot == 3:
                call["function"]["arguments"] = json.dumps({"orderId": text})
            elif spot == 4:
                call["function"]["arguments"] = json.dumps({text: "SN202610200001"}, ensure_ascii=False)
            elif spot == 5:
                request["messages"][-1]["content"] = text
            elif spot == 6:
                call["id"] = request["messages"][3]["tool_call_id"] = text
            elif spot == 7:
                request["messages"][1]["name"] = text
            elif spot == 8:
                request["model"] = text
            else:
                next(iter(tool["parameters"]["properties"].values()))["enum"] = [text, "SN202610200001"]
        return json.dumps(request, ensure_ascii=r.random() < 0.5).encode("utf-8", "surrogatepass")

    def request(self, kind: str) -> tuple[str, str, dict[str, str], bytes]:
        r = self.r
        headers = {"content-type": "application/json"}
        if r.random() < 0.3:
            headers["x-fake-mode"] = r.choice(["A", "B", "C", "Z", ""])
        valid = json.dumps(VALID, ensure_ascii=False).encode()
        if kind == "bytes":
            body = valid[: r.randrange(len(valid))] if r.random() < 0.5 else r.randbytes(r.randint(0, 300))
        elif kind == "json":
            body = _dump(self.value())
        elif kind == "mutated":
            body = _dump(self.mutate(VALID, r.randint(1, 3)))
        elif kind == "extra":
            body = _dump(self.extra(VALID))
        elif kind == "deep":
            body = self.deep()
        elif kind == "big":
            body = self.big()
        elif kind == "nested":
            body = self.nested()
        elif kind == "keywords":
            body = self.keywords()
        elif kind == "numbers":
            body = self.numbers()
        elif kind == "unicode":
            return "POST", "/v1/chat/completions", headers, self.unicode()[:MAX_UNICODE_BODY]
        elif kind == "encoded":
            headers["content-encoding"], body = self.encoded()
        elif kind == "schema":
            request = json.loads(json.dumps(VALID))
            tool = request["tools"][0]
            request["tools"] = [
                {**tool, "function": {**tool["function"], "name": f"t{i}", "parameters": self.schema()}}
                for i in range(r.choice([1, 2, 20, 128, 129, 200]))
            ] + [tool]
            body = _dump(request)
        elif kind == "text":
            request = json.loads(json.dumps(VALID))
            request["messages"][-1]["content"] = self.text(r.randint(1, 200))
            body = _dump(request)
            if r.random() < 0.3:
                body = body.replace("物流".encode(), b"\xff\xfe")
        else:
            method = r.choice(["POST", "GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
            path = r.choice(["/v1/chat/completions", "/v1/models", "/", "/v1/chat/completions?x=1", "/v1/../etc"])
            headers["content-type"] = r.choice(
                ["application/json", "text/plain", "", "application/json; charset=latin-1"]
            )
            return method, path, headers, valid
        return "POST", "/v1/chat/completions", headers, body[:MAX_BODY]


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def well_formed_error(body: bytes) -> bool:
    try:
        error = json.loads(body)["error"]
        return set(error) == {"message", "type", "param", "code"} and bool(error["message"])
    except Exception:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=positive, default=10_000)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--seconds", type=float, default=600.0, help="stop after this long, whatever the count")
    args = parser.parse_args()
    fuzzer = Fuzzer(args.seed)
    client = httpx.Client(transport=InProcessTransport(Gateway()), timeout=30.0)
    statuses: collections.Counter[str] = collections.Counter()
    by_kind: collections.Counter[str] = collections.Counter()
    crashes: list[str] = []
    fives: list[str] = []
    shapeless = 0
    start = time.perf_counter()
    sent = 0
    for i in range(args.requests):
        if time.perf_counter() - start > args.seconds:
            break
        kind = KINDS[i % len(KINDS)]
        method, path, headers, body = fuzzer.request(kind)
        by_kind[kind] += 1
        sent += 1
        try:
            response = client.request(method, "http://gateway" + path, headers=headers, content=body)
            response.read()
        except Exception as exc:
            crashes.append(f"{kind}: {type(exc).__name__}: {str(exc)[:120]}")
            continue
        statuses[f"{response.status_code // 100}xx"] += 1
        if response.status_code >= 500:
            fives.append(f"{kind} {method} {path}: {response.status_code} {response.text[:120]}")
        elif response.status_code >= 400 and method != "HEAD" and not well_formed_error(response.content):
            shapeless += 1
    elapsed = time.perf_counter() - start
    print(f"requests sent: {sent:,} in {elapsed:.1f} s ({sent / elapsed:,.0f}/s), seed {args.seed}")
    print("by kind: " + ", ".join(f"{k} {by_kind[k]:,}" for k in KINDS))
    print("status classes: " + ", ".join(f"{k} {v:,}" for k, v in sorted(statuses.items())))
    print(f"5xx: {len(fives)}   crashes: {len(crashes)}   4xx without an OpenAI error body: {shapeless}")
    for line in (fives + crashes)[:10]:
        print("  " + line)
    ok = not fives and not crashes and sent >= args.requests
    print(f"target: {args.requests:,} requests, 0 5xx, 0 crashes — {'met' if ok else 'not met'}")


if __name__ == "__main__":
    main()
