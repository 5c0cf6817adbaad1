"""MCP servers as a tool source: `McpToolProvider` turns their tools into toolkit `Tool`s.

    time = McpClient.stdio("python", ["-m", "mcp_server_time"])
    provider = McpToolProvider([time, shop])             # several servers, one provider
    provider = rename_tools(filter_tools(provider, {"get_current_time"}), {"get_current_time": "now"})
    run_loop(model, messages, providers=[provider])

For every client, `provide()` lists the tools (cached by the client; listing has its own
deadline, `list_timeout`) and, per tool:

1. gives it a *wire name* the chat API accepts (`^[A-Za-z0-9_-]{1,64}$`): `files.read` →
   `files_read`; letters with accents lose them (`café` → `cafe`); other characters become
   their code point (`查询订单` → `u67e5u8be2u8ba2u5355`); a name that is still taken, by another
   tool of any of the provider's servers, gets `_2`, `_3` (two servers offering one name is a clash
   the loop refuses, naming the fix). Errors about a tool name both the wire name and the original;
   `provider.renamed` lists the tools renamed so, and the `toolkit.mcp` logger says so as a WARNING (a
   learner sees it: the trace names tools the server never listed), once per client and set of names,
   whatever the provider.
   A server listing one name twice is offered its first tool of that name only;
2. leaves out a tool whose `execution.taskSupport` is "required": MCP tasks are not supported
   here, and such a server refuses a plain call (-32601), so the model could never use it;
   translates `inputSchema` (`toolkit.mcp.schema`); a tool whose schema cannot be translated, or takes
   more than `MAX_SCHEMA_CHARS` characters of JSON (it would be sent with every request),
   (or whose translation fails in any other way), or that the SDK cannot read at all (no
   `inputSchema`, one that is no object: `McpClient.unreadable`), is left out, the others stay. What was left
   out, and why, is in `provider.left_out` (and the log), so a notebook can show it; so is a
   listing cut at `MAX_PAGES` pages, `MAX_TOOLS` tools or `MAX_LISTING_CHARS` characters in all, or at a
   `nextCursor` that cannot be given back (`1.5`, an object; `McpClient.listing_cut`, under
   `"server: (later pages)"`);
3. keeps MCP's `annotations`, `_meta` and `title` (`mcp_title`: the name a person reads, on one line of
   at most `MAX_TITLE_CHARS`, as the annotations' `title`), its `icons` (`mcp_icons`: those a view may
   show, `shown_icons`; a `_meta` of more than `MAX_META_CHARS` is not kept, said in `left_out`) — plus
   which server and which original name — in the spec's `metadata`, which the model never sees; a description longer than a chat API takes
   (`MAX_DESCRIPTION_CHARS`) is cut, and kept whole there (`mcp_description`); so is the tool's
   `outputSchema` (`mcp_output_schema`: `toolkit.mcp.server` serves it again);
4. binds an executor to the server and the tool's *original* name, so a renamed tool still
   calls the server under the name the server knows.

Servers are listed at once, each in a thread of its own. A server that cannot be reached, or
does not list its tools within `list_timeout`, is left
out (`fail_if_one_server_fails=False`, LangChain4j's `failIfOneServerFails` default), logged once, and not asked again
for `retry_after_s` seconds — a circuit breaker, so a dead server costs one timeout, not one
per call. After that it is tried again. A server whose connection went away (it crashed, an
HTTP server stopped) is connected to anew when it is asked for its tools (a stdio server is
started again): at once the first time, then once per `retry_after_s` while it stays down, so
one that comes back is used again without a new client. While a server is left out, `partial` is True. Ctrl-C
while servers connect or list is not a server's failure: it goes on to the caller at once, and
no server is left out for it.

The executor sends empty arguments as `{}`. It checks the model's arguments against the tool's
`inputSchema` first (`toolkit.mcp.schema.checked_arguments`): a wrong type or a missing field is the same
`ArgumentError` a local tool gives (through `policies.argument_error`, as a local tool's), and
nothing is sent; what the schema allows, or what cannot be read for sure, goes to the server,
which checks. A call past its deadline is cancelled and is an
*error* result saying the outcome is unknown: cancelling undoes nothing the server already
did. It advises calling again only when the tool's annotations say it is read-only or
idempotent; otherwise it says not to (a second call could, say, charge twice). A server that
went away during the call leaves the outcome just as unknown, and its error result says so in
the same words (`lost_text`); one already gone before the call sent nothing, and its error
result says the call was not sent. A result with `isError` becomes an error result: the model reads
its blocks as it would a success's (`structuredContent` when no block is for it), and the result keeps
what a success's keeps (`structured_content`, `for_user`, `resource_links`, its `images` for a model
that accepts them), so the machine-readable error (a code, the valid values) is there for code, a view
and `toolkit.mcp.server`.
Image content is passed on only when the chat model accepts images (`accepts_images=True`):
the result's `images` attribute holds it as data URLs, and the loop sends them to the model in
a user message after the round's tool results (`toolkit.loop.images`: a tool message carries
text only). Otherwise the result says the image was not passed on.

A secret the server was given (`env={"GITHUB_TOKEN": …}`, `--token …`, a URL's password) is
masked in what its tools answer (`McpClient.mask`): a server may echo them (server-everything's
`get-env` answers with its whole environment), and the model reads the result.

A result's text is cut to `max_result_chars` characters (`MAX_RESULT_CHARS`,
100,000, by default; None keeps it whole), and a line after the cut tells the model how long it was
and to ask for less: a server answering with 10 MB of text sent it all to the model, a request no
gateway takes (or one that is paid for). LangChain4j cuts nothing; Claude Code cuts an MCP result
at 25,000 tokens (`MAX_MCP_OUTPUT_TOKENS`), which is about as much.

Filtering, renaming, redescribing and always-visible marking are wrappers over any provider,
not options of this one: `toolkit.loop.wrappers`.

The model reads the content blocks; a result's `structuredContent` only when no block is for it
(`content: []`). A server writes the blocks for a reader, and MCP has a tool returning structured
content also return it as JSON in a text block (the SDK's own servers write a str or a list as
text, the value under "result"), so the two say the same. The value is kept in the result's
`structured_content` attribute (not sent to the model; code and a view may read it), so a server
whose blocks say something else (the orders behind 'Found 2 orders') loses nothing; it is kept
there when the model read it as text too (`content: []`), so code finds it in one place and
`toolkit.mcp.server` serves it again as structured content. A result's `_meta` is kept the same
way (`mcp_meta`, but for the keys MCP reserves for the session), never read by the model. openai-agents
reads the blocks too (`use_structured_content=False`, its default), and so does Claude Code;
pydantic-ai reads the structured value when every block is text.

A block whose `annotations.audience` is given without "assistant" (["user"]: a table to show, a
receipt) is for the user only (`for_model`): the model does not read it; its text (a note naming
any other block) is kept in the result's `for_user` attribute, which a conversation view shows. A
result wholly for the user tells the model so, rather than reading as empty.

An embedded resource that holds text (server-everything's `get-resource-reference`), or a blob
of a text type (`text/*`, JSON, XML, YAML…) that is UTF-8 or in the charset its type names (its
base64 in lines or not), is passed on: a line naming it (its
URI and MIME type), then its text, which counts towards `max_result_chars` as any other.

Binary data never reaches the model as text: a base64 data URL (in a text block, or as a
resource's URI) and a bare run of base64 (`without_blobs`) are named by their size instead, and an
image block whose MIME type is no image type, or whose data is not base64, is not passed on as an
image (`image_problem`); a resource's name, URI and MIME type are cut to a line's length.

Leaves out: resources, prompts and sampling; reconnecting during a run (a call to a server that
went away says it was not sent; the next `provide()` connects again); audio,
embedded binary resources (other blobs) and resource links in a result (each is named in the text, a
resource by its name and URI, a signed URL's secrets masked; none is read or passed on).
"""

from __future__ import annotations

import base64
import codecs
import concurrent.futures
import json
import logging
import re
import time
import unicodedata
import weakref
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_types import (
    INVALID_PARAMS,
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)
from mcp_types import Tool as McpTool

from toolkit.chat.masking import mask_url
from toolkit.chat.messages import ToolCall
from toolkit.errors import (
    ArgumentError,
    McpConnectionError,
    McpError,
    McpTimeout,
    McpToolError,
    SchemaTranslationError,
    ToolDefinitionError,
)
from toolkit.loop.images import IMAGES
from toolkit.loop.result_size import MAX_RESULT_CHARS, cut_result
from toolkit.loop.sources import ProviderRequest
from toolkit.loop.wrappers import always_visible, filter_tools, map_tools, rename_tools
from toolkit.mcp.client import McpClient, McpConnectionLost, check_seconds, describe
from toolkit.mcp.schema import CHECKED_BY_SERVER, checked_arguments, translate_schema
from toolkit.memory.storable import attributes_problem
from toolkit.tools.arguments import parse_arguments
from toolkit.tools.decorator import InvocationContext, a_or_an
from toolkit.tools.execute import Tool, ToolOutput
from toolkit.tools.redact import describe_exception, elided_data_urls
from toolkit.tools.reflect import ToolSpec
from toolkit.unicode import cut

__all__ = [
    "FOR_USER_ATTRIBUTE",
    "IMAGES_ATTRIBUTE",
    "MAX_DESCRIPTION_CHARS",
    "MAX_ICON_CHARS",
    "MAX_META_CHARS",
    "MAX_RESULT_CHARS",
    "MAX_TITLE_CHARS",
    "META_ATTRIBUTE",
    "RESOURCE_LINKS_ATTRIBUTE",
    "STRUCTURED_ATTRIBUTE",
    "McpExecutor",
    "McpToolProvider",
    "always_visible",
    "cut_text",
    "filter_tools",
    "for_model",
    "map_tools",
    "openai_name",
    "original_name",
    "rename_tools",
    "reserved_key",
    "lost_text",
    "result_text",
    "timeout_text",
    "tool_from_mcp",
    "user_only_texts",
    "wire_names",
]

log: logging.Logger = logging.getLogger("toolkit.mcp")

MAX_LOGGED_LEFT_OUT = 10
"""How many tools of one server one `provide()` logs as left out, each in a line; one more line counts
the rest (a server of 10,000 tools without an `inputSchema` wrote 10,000 lines). `left_out` lists all."""
_SHOWN_NAMES = 3
"""The renamed tools the log line names at most."""
_TOLD_KEPT = 256
"""The sets of renamed tools one client remembers having told."""
_TOLD: weakref.WeakKeyDictionary[Any, set[frozenset[tuple[str, str]]]] = weakref.WeakKeyDictionary()
"""Per client, the sets of renamed tools already told: each is told once whatever the provider (a notebook
makes several over one client, and a line per provider said the same thing again and again)."""
MAX_DESCRIPTION_CHARS = 1024
"""How long a tool's description the model is given may be: OpenAI's limit (the embedded gateway keeps
it too), past which every request offering the tool is refused. A server's longer one is cut, with "…",
and kept whole in the spec's metadata (`mcp_description`)."""
IMAGES_ATTRIBUTE = IMAGES
"""Result attribute holding a tool's images as data URLs, when the chat model accepts images."""
STRUCTURED_ATTRIBUTE = "structured_content"
"""Result attribute holding a result's `structuredContent` (`McpExecutor`): code and a view read it
there, whether the model read the content blocks or the value's JSON."""
FOR_USER_ATTRIBUTE = "for_user"
"""Result attribute holding the content a server marked for the user only (`annotations.audience`
["user"]), as text: the model does not read it (`for_model`), a view shows it."""
META_ATTRIBUTE = "mcp_meta"
"""Result attribute holding a result's `_meta` (what a server tells its client beside the content: a
widget's state, a trace id), masked; the model never reads it, and `toolkit.mcp.server` serves it again."""
RESOURCE_LINKS_ATTRIBUTE = "resource_links"
"""Result attribute holding a result's `resource_link` blocks, as MCP writes them (the model reads
a line naming each): `toolkit.mcp.server` serves them again as links."""
_INVALID_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]")
_MAX_NAME = 64


def _try_list(client: McpClient, timeout: float) -> list[McpTool] | McpError:
    """The client's tools, or why not (an unforeseen exception too: it costs this server alone). A
    connection known to be gone (the server crashed, an HTTP server stopped) is closed first, so the
    listing connects anew (a stdio server is started again)."""
    if getattr(client, "gone", ""):  # a stand-in client may have no such attribute
        client.close()
    try:
        return client.list_tools(timeout=timeout)
    except McpError as exc:
        return exc
    except Exception as exc:  # noqa: BLE001 - unforeseen (an SDK's defect, a stand-in's): this server alone
        return McpError(f"MCP server {client.name!r} could not be listed: {describe_exception(exc)}")  # sanitised


def timeout_text(seconds: float, annotations: Mapping[str, Any] | None) -> str:
    """What the model reads when a call outlived its deadline (the outcome is unknown)."""
    return _unknown_outcome(f"no answer within {seconds:g} s, so the call was cancelled", annotations)


def lost_text(server: str, reason: str, annotations: Mapping[str, Any] | None) -> str:
    """What the model reads when the server went away during a call (the outcome is unknown)."""
    return _unknown_outcome(f"MCP server {server!r} went away during the call ({reason})", annotations)


def _unknown_outcome(what: str, annotations: Mapping[str, Any] | None) -> str:
    """`what` happened; the outcome is unknown; whether calling again is safe (from the annotations)."""
    annotations = annotations or {}
    head = f"{what}. Its outcome is unknown: the server may have done the work already"
    if annotations.get("readOnlyHint") is True:
        return head + ". The tool only reads, so calling it again is safe."
    if annotations.get("idempotentHint") is True:
        return head + ". The tool is idempotent, so calling it again with the same arguments is safe."
    return (
        head + ". Do not call it again: it is not marked read-only or idempotent, so a second call "
        "could do the work twice. Tell the user the outcome is unknown and must be checked."
    )


@dataclass
class _Down:
    """A server left out: until when, and why (for the log and `left_out`)."""

    until: float
    reason: str


class McpToolProvider:
    """The tools of one or more MCP servers (see the module docstring)."""

    dynamic = False

    def __init__(
        self,
        clients: Sequence[McpClient],
        *,
        fail_if_one_server_fails: bool = False,
        timeout: float = 30.0,
        list_timeout: float = 10.0,
        retry_after_s: float = 60.0,
        accepts_images: bool = False,
        max_result_chars: int | None = MAX_RESULT_CHARS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clients: list[McpClient] = _checked_clients(clients)
        for keyword, seconds in (("timeout", timeout), ("list_timeout", list_timeout)):
            check_seconds("McpToolProvider", keyword, seconds)
        check_seconds("McpToolProvider", "retry_after_s", retry_after_s, zero=True)
        check_max_result_chars(max_result_chars)
        if isinstance(clock, type) or not callable(clock):
            raise ToolDefinitionError(
                f"McpToolProvider(clock={clock!r:.40})",
                "clock is a function of no arguments returning seconds",
                "leave it out (time.monotonic), or give one, e.g. clock=time.monotonic",
            )
        self.fail_if_one_server_fails = fail_if_one_server_fails
        """True: a server that cannot be reached raises instead of being skipped."""
        self.timeout = timeout
        """Seconds one tool call may take before it is cancelled."""
        self.list_timeout = list_timeout
        """Seconds listing one server's tools may take (connecting has the client's own deadline)."""
        self.retry_after_s = retry_after_s
        """Seconds a server that failed is left out before it is asked again."""
        self.accepts_images = accepts_images
        """True when the chat model accepts images: image content is passed on, not described."""
        self.max_result_chars = max_result_chars
        """How many characters of a result the model reads at most (None: all); a line says what was cut."""
        self.left_out: dict[str, str] = {}
        """What the last `provide()` left out: `"server"` or `"server: tool"` → why."""
        self.renamed: dict[str, str] = {}
        """The tools the last `provide()` offered under another name: `"server: original"` → the name the
        model calls (the chat API takes `^[A-Za-z0-9_-]{1,64}$` only; step 1)."""
        self._told_renamed: set[tuple[str, frozenset[tuple[str, str]]]] = set()
        self._logged_left_out: dict[str, int] = {}
        """How many tools of each server the running `provide()` left out (`_leave_out`)."""
        """What this provider told of clients that cannot be remembered weakly (`_TOLD`): a stand-in's."""
        self._clock = clock
        self._down: dict[int, _Down] = {}

    def __repr__(self) -> str:
        """Its clients (a notebook shows it; the default held a memory address)."""
        return f"McpToolProvider([{', '.join(map(repr, self.clients))}])"

    @property
    def partial(self) -> bool:
        """True when the last `provide()` left a whole server out (its tools are missing)."""
        return any(":" not in key for key in self.left_out)

    def provide(self, request: ProviderRequest = ProviderRequest(())) -> list[Tool]:
        """The tools of every server, translated; what had to be left out is in `left_out` (and `partial`)."""
        tools: list[Tool] = []
        self.left_out, self._logged_left_out = {}, {}
        listings = list(zip(self.clients, self._list_all(), strict=True))
        taken = {t.name: t.name for _, listed in listings for t in listed or () if openai_name(t.name) == t.name}
        for client, listed in listings:
            if listed is not None:
                if cut := getattr(client, "listing_cut", ""):  # more than a listing reads: logged first
                    self._leave_out(client, "(later pages)", cut)
                for name, reason in getattr(client, "unreadable", {}).items():  # the SDK could not read them
                    self._leave_out(client, name, reason)
                tools += self._translate(client, self._first_of_each_name(client, listed), taken)
        self._tell_left_out()
        self._tell_renamed(tools)
        return tools

    def _tell_renamed(self, tools: list[Tool]) -> None:
        """Fill `renamed`, and warn once per server and set of names, in one line, which names the model
        calls in place of the server's (the model reads the new name only; a trace shows it)."""
        by_server: dict[str, list[tuple[str, str]]] = {}
        for tool in tools:
            original = original_name(tool)
            if original != tool.name:
                server = str(tool.spec.metadata.get("mcp_server", ""))
                by_server.setdefault(server, []).append((original, tool.name))
        self.renamed = {
            f"{server}: {original}": wire for server, pairs in by_server.items() for original, wire in pairs
        }
        clients = {client.name: client for client in self.clients}
        for server, pairs in by_server.items():
            if not self._first_told(clients.get(server), server, frozenset(pairs)):
                continue
            shown = ", ".join(f"{cut(original, 40, '...')!r} as {wire!r}" for original, wire in pairs[:_SHOWN_NAMES])
            more = f" and {len(pairs) - _SHOWN_NAMES:,} more" if len(pairs) > _SHOWN_NAMES else ""
            log.warning(  # a learner sees it (Python shows WARNING and above by default): the trace has other names
                "MCP server %r names %s the chat API does not take (it takes ^[A-Za-z0-9_-]{1,64}$); the model "
                "calls %s%s (provider.renamed lists them)",
                server,
                "a tool" if len(pairs) == 1 else f"{len(pairs):,} tools",
                shown,
                more,
            )

    def _first_told(self, client: Any, server: str, pairs: frozenset[tuple[str, str]]) -> bool:
        """Whether `client` (of `server`) renaming `pairs` is told for the first time (and note it told)."""
        try:
            told = _TOLD.setdefault(client, set())
        except TypeError:  # None, or a stand-in that cannot be weakly referred to: this provider remembers it
            told = {names for name, names in self._told_renamed if name == server}
            if pairs in told:
                return False
            if len(self._told_renamed) >= _TOLD_KEPT:
                self._told_renamed.clear()
            self._told_renamed.add((server, pairs))
            return True
        if pairs in told:
            return False
        if len(told) >= _TOLD_KEPT:
            told.clear()
        told.add(pairs)
        return True

    def _first_of_each_name(self, client: McpClient, listed: list[McpTool]) -> list[McpTool]:
        """The first tool of each name; later ones with that name are left out (step 1)."""
        for name, count in Counter(t.name for t in listed).items():
            if count > 1:
                reason = (
                    f"MCP server {client.name!r} lists a tool named {name!r} {count} times; only the first is offered"
                )
                self._leave_out(client, name, reason, key=f"{client.name}: {name} (listed again)")
        first: dict[str, McpTool] = {}
        for mcp_tool in listed:
            first.setdefault(mcp_tool.name, mcp_tool)
        return list(first.values())

    def _translate(self, client: McpClient, listed: list[McpTool], taken: dict[str, str]) -> list[Tool]:
        """Each tool as a toolkit `Tool`; one that cannot be translated is left out, the others stay.
        A made wire name steps around `taken` (wire → original: the names the provider's servers offer
        as they are, and those made for the servers before), to which this server's are added."""
        tools: list[Tool] = []
        wires = wire_names([t.name for t in listed], taken)
        for original, wire in wires.items():
            taken.setdefault(wire, original)
        for mcp_tool in listed:
            if _task_support(mcp_tool) == "required":  # answered with -32601 unless called as a task
                reason = (
                    f"MCP tool {mcp_tool.name!r} of server {client.name!r} runs only as a task (its "
                    'execution.taskSupport is "required"), and this client calls tools directly, so every call '
                    "would fail; it is not offered"
                )
                self._leave_out(client, mcp_tool.name, reason)
                continue
            try:
                wire = wires[mcp_tool.name]
                tool = tool_from_mcp(client, mcp_tool, self.timeout, wire, self.accepts_images, self.max_result_chars)
                tools.append(tool)
                if size := meta_too_long(mcp_tool.meta):
                    reason = (
                        f"MCP tool {mcp_tool.name!r} of server {client.name!r}: its _meta takes {size:,} characters "
                        f"of JSON, more than MAX_META_CHARS ({MAX_META_CHARS:,}); the tool is offered without it"
                    )
                    self._leave_out(client, f"{mcp_tool.name} (_meta)", reason)
            except SchemaTranslationError as exc:
                self._leave_out(client, mcp_tool.name, str(exc))
            except Exception as exc:  # noqa: BLE001 - a defect on one stranger's tool must not cost the others
                reason = f"MCP tool {mcp_tool.name!r} of server {client.name!r} cannot be offered: {describe(exc)}"
                self._leave_out(client, mcp_tool.name, reason)
        return tools

    def _leave_out(self, client: McpClient, name: str, reason: str, key: str | None = None) -> None:
        """Record (and log) why one tool is not offered; `key` defaults to `"server: tool"`. The log names
        `MAX_LOGGED_LEFT_OUT` tools of one server in one `provide()`; `_tell_left_out` counts the rest."""
        self.left_out[key or f"{client.name}: {name}"] = reason
        logged = self._logged_left_out[client.name] = self._logged_left_out.get(client.name, 0) + 1
        if logged <= MAX_LOGGED_LEFT_OUT:
            log.warning("MCP tool %r of server %r left out: %s", name, client.name, reason)

    def _tell_left_out(self) -> None:
        """One line per server more tools were left out of than the log named (`_leave_out`)."""
        for server, count in self._logged_left_out.items():
            if count > MAX_LOGGED_LEFT_OUT:
                log.warning(
                    "MCP server %r: %s more tools left out (provider.left_out lists each, and why)",
                    server,
                    f"{count - MAX_LOGGED_LEFT_OUT:,}",
                )
        self._logged_left_out = {}

    def _list_all(self) -> list[list[McpTool] | None]:
        """Every client's tools (None: left out). Servers are asked at once, each in a thread of
        its own, so two dead servers cost one timeout, not two; results are handled in order."""
        now = self._clock()
        due = [c for c in self.clients if not self._circuit_open(c, now)]
        outcomes: dict[int, list[McpTool] | McpError] = {}
        if len(due) == 1:
            outcomes[id(due[0])] = _try_list(due[0], self.list_timeout)
        elif due:
            pool = concurrent.futures.ThreadPoolExecutor(len(due), thread_name_prefix="mcp-list")
            try:
                for client, outcome in zip(due, pool.map(lambda c: _try_list(c, self.list_timeout), due), strict=True):
                    outcomes[id(client)] = outcome
            except BaseException:  # Ctrl-C: goes on at once (no server is left out for it)
                pool.shutdown(wait=False, cancel_futures=True)
                for client in due:  # the threads still connecting stop too
                    abandon = getattr(client, "abandon_connecting", None)
                    if abandon is not None:
                        abandon()
                raise
            pool.shutdown()
        return [self._settle(c, outcomes.get(id(c)), now) for c in self.clients]

    def _circuit_open(self, client: McpClient, now: float) -> bool:
        down = self._down.get(id(client))
        return down is not None and now < down.until

    def _settle(self, client: McpClient, outcome: list[McpTool] | McpError | None, now: float) -> list[McpTool] | None:
        """Record what one listing gave: tools, a new or continued outage, or an open circuit."""
        down = self._down.get(id(client))
        if outcome is None:  # not asked: the circuit is open
            reason = down.reason if down else f"MCP server {client.name!r} is left out"
            self.left_out[client.name] = reason
            if self.fail_if_one_server_fails:
                raise McpConnectionError(reason)
            return None
        if isinstance(outcome, McpError):
            reason = f"{outcome} (left out for {self.retry_after_s:g} s, then tried again)"
            self._down[id(client)] = _Down(now + self.retry_after_s, reason)
            self.left_out[client.name] = reason
            if self.fail_if_one_server_fails:
                raise outcome  # the caller reports it: no log line saying the same
            if down is None:  # log once per outage, not once per call
                log.warning("MCP server %r left out: %s", client.name, reason)
            return None
        if down is not None:
            log.warning("MCP server %r answers again; its tools are back", client.name)
            del self._down[id(client)]
        return outcome

    def evict_tool_list_cache(self) -> None:
        """Ask every server for its tools again on the next `provide()` (dead ones included)."""
        self._down.clear()
        for client in self.clients:
            client.evict_tool_list_cache()

    def close(self) -> None:
        """Close every client, all at once: a stdio server that does not exit when its stdin
        closes costs the SDK's grace periods (up to 4 s) once, not once per server."""
        if len(self.clients) < 2:
            for client in self.clients:
                client.close()
            return
        with concurrent.futures.ThreadPoolExecutor(len(self.clients), thread_name_prefix="mcp-close") as pool:
            list(pool.map(lambda client: client.close(), self.clients))


def _task_support(mcp_tool: McpTool) -> str | None:
    """The tool's `execution.taskSupport` ("forbidden", "optional", "required"; None when not said)."""
    support = getattr(getattr(mcp_tool, "execution", None), "task_support", None)
    return support if isinstance(support, str) else None


def _checked_clients(clients: Any) -> list[McpClient]:
    """`McpToolProvider`'s clients as a list, each one a client (it has `list_tools`): a
    client given alone, a command line or a server object fail here, not at the first call."""
    alone = callable(getattr(clients, "list_tools", None))
    if isinstance(clients, set | frozenset):  # the servers' tools would be offered in another order per process
        raise ToolDefinitionError(
            f"McpToolProvider({type(clients).__name__} object)",
            f"McpToolProvider takes a list of McpClient objects, and got a {type(clients).__name__}, which has no "
            "order: the servers' tools would be offered in another order in each process",
            "give a list, in the order you want",
        )
    if alone or isinstance(clients, (str, bytes, Mapping)) or not isinstance(clients, Iterable):
        kind = type(clients).__name__
        raise ToolDefinitionError(
            f"McpToolProvider({kind} object)",
            f"McpToolProvider takes a list of McpClient objects, and got {a_or_an(kind)}",
            "put it in a list: McpToolProvider([client])",
        )
    clients = list(clients)  # a generator is read once, here
    for client in clients:
        if isinstance(client, type):  # the class has list_tools too: it would fail at the first call
            raise ToolDefinitionError(
                f"McpToolProvider([{client.__name__}])",
                "that is the class, not a client",
                "make a client: McpClient(server), McpClient.stdio(...) or McpClient.http(url)",
            )
        if not callable(getattr(client, "list_tools", None)):
            kind = type(client).__name__
            fix = (
                f"make a client of it: McpClient.from_command_line({client!r})"
                if isinstance(client, str)
                else "make a client of it: McpClient(server), McpClient.stdio(...) or McpClient.http(url)"
            )
            raise ToolDefinitionError(f"McpToolProvider([{kind} object])", f"{a_or_an(kind)} is not an MCP client", fix)
    _check_names(clients)
    return clients


def _check_names(clients: list[McpClient]) -> None:
    """Each client once, and no two of one name: a provider tells its servers apart by name
    (`left_out`, errors, tool metadata), and two of one name shared one `left_out` entry."""
    given: set[int] = set()
    names: set[str] = set()
    for client in clients:
        name = getattr(client, "name", None)
        where = f"McpToolProvider([..., {name!r}, {name!r}])"
        if id(client) in given:
            raise ToolDefinitionError(where, f"the client {name!r} is given twice", "give each client once")
        given.add(id(client))
        if name in names:
            raise ToolDefinitionError(
                where,
                f"two clients are named {name!r}, and a provider tells its servers apart by name (left_out, "
                "errors, tool metadata)",
                f"name them apart, e.g. McpClient(..., name='{name}_2')",
            )
        if isinstance(name, str):
            names.add(name)


def tool_from_mcp(
    client: McpClient,
    mcp_tool: McpTool,
    timeout: float = 30.0,
    name: str | None = None,
    accepts_images: bool = False,
    max_result_chars: int | None = MAX_RESULT_CHARS,
) -> Tool:
    """One MCP tool as a toolkit `Tool` (steps 1–4 of the module docstring)."""
    where = f"MCP tool {mcp_tool.name!r} of server {client.name!r}"
    metadata: dict[str, Any] = {"mcp_server": client.name, "mcp_name": mcp_tool.name}
    if isinstance(mcp_tool.title, str) and mcp_tool.title.strip():  # the name a person reads (`toolkit.mcp.server`)
        metadata["mcp_title"] = _line(mcp_tool.title, MAX_TITLE_CHARS)
    if mcp_tool.annotations is not None:
        metadata["annotations"] = mcp_tool.annotations.model_dump(by_alias=True, exclude_none=True)
        if isinstance(title := metadata["annotations"].get("title"), str):
            metadata["annotations"]["title"] = _line(title, MAX_TITLE_CHARS)
    if icons := shown_icons(mcp_tool.icons):  # what a person sees of the tool (`toolkit.mcp.server`)
        metadata["mcp_icons"] = icons
    if mcp_tool.meta and not meta_too_long(mcp_tool.meta):
        metadata["_meta"] = dict(mcp_tool.meta)
    if mcp_tool.output_schema is not None:  # served again with the tool (`toolkit.mcp.server`)
        metadata["mcp_output_schema"] = dict(mcp_tool.output_schema)
    description = mcp_tool.description or ""
    if len(description) > MAX_DESCRIPTION_CHARS:  # every request of the run was refused with HTTP 400
        metadata["mcp_description"] = description
        description = cut(description, MAX_DESCRIPTION_CHARS)
    spec = ToolSpec(
        name=name or openai_name(mcp_tool.name),
        description=description,
        parameters=translate_schema(mcp_tool.input_schema, where),
        metadata=metadata,
    )
    annotations = metadata.get("annotations", {})
    checked_there = (mcp_tool.meta or {}).get(CHECKED_BY_SERVER) is True
    schema = None if checked_there else mcp_tool.input_schema
    executor = McpExecutor(client, mcp_tool.name, timeout, annotations, accepts_images, max_result_chars, schema)
    source = f"MCP server {client.name!r}"
    if spec.name != mcp_tool.name:
        source += f" (its tool {mcp_tool.name!r})"
    return Tool(spec, executor, source)


MAX_TITLE_CHARS = 200
"""The characters of a tool's `title` (and its annotations' `title`) kept at most, on one line: the name a
person reads (a stranger's was a megabyte, or many lines, kept whole and served so again)."""


MAX_META_CHARS = 100_000
"""The characters of JSON a tool's `_meta` takes at most to be kept in its metadata (and served again by
`toolkit.mcp.server`): a stranger's of a megabyte was kept whole. A longer one is not kept, said in
`left_out` under `server: tool (_meta)`."""


def meta_too_long(meta: Any) -> int:
    """How many characters of JSON `meta` takes when that is more than `MAX_META_CHARS` (else 0)."""
    try:
        size = len(json.dumps(meta, ensure_ascii=False, default=str))
    except (TypeError, ValueError, RecursionError):
        return 0
    return size if size > MAX_META_CHARS else 0


MAX_ICON_CHARS = 100_000
"""The characters of one icon's JSON kept at most (an image's data URI of about 75 kB)."""
_ICON_SOURCES = re.compile(r"(https://|data:image/)", re.IGNORECASE)


def shown_icons(icons: Any) -> list[dict[str, Any]]:
    """A listed tool's `icons` as JSON objects a person's view may show (and `toolkit.mcp.server` serves
    again): each whose `src` is an https URL or an image's data URI, in at most `MAX_ICON_CHARS`. One
    that could run or read what is not the server's (`javascript:`, `file:`, `http:`) is not kept."""
    kept: list[dict[str, Any]] = []
    for icon in icons if isinstance(icons, list) else []:
        src = getattr(icon, "src", None)
        if not isinstance(src, str) or not _ICON_SOURCES.match(src) or len(src) > MAX_ICON_CHARS:
            continue
        shown = icon.model_dump(by_alias=True, mode="json", exclude_none=True)
        if len(json.dumps(shown, ensure_ascii=False)) <= MAX_ICON_CHARS:
            kept.append(shown)
    return kept


def openai_name(name: str) -> str:
    """An MCP tool name the chat API accepts (step 1 of the module docstring, without suffixes)."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    wire = "".join(c if c.isascii() else f"u{ord(c):04x}" for c in plain)
    wire = _INVALID_NAME_CHARS.sub("_", wire) or "_"
    if len(wire) > _MAX_NAME:  # cut, keeping names that differ only at the end apart
        wire = f"{wire[: _MAX_NAME - 9]}_{zlib.crc32(name.encode()):08x}"
    return wire


def wire_names(names: Sequence[str], others: Mapping[str, str] | None = None) -> dict[str, str]:
    """original → wire name for one server's tools, unique among them (`_2`, `_3` on a clash).

    A name the chat API accepts as it is keeps it, whatever the order of the list: a name made
    from another (`files.read` → `files_read`) never takes it from the tool really called that, nor
    from a tool of another server in the same provider with another name (`others`: wire → original).
    Made names that meet are numbered in the order of the original names, not of the listing: a server
    that lists `a.b` and `a b` in another order (a map's order, a tool added or listed anew) gives each
    the wire name it had, so a conversation's `a_b` calls the same tool whenever it is resumed.
    The same name on two servers is the same wire name: a clash the loop refuses, naming the fix."""
    others = others or {}
    own = {name for name in names if openai_name(name) == name}
    taken = set(own)
    out: dict[str, str] = {name: name for name in names if name in own}
    for name in sorted(names):
        if name in out:
            continue
        wire, n = openai_name(name), 1
        while wire in taken or others.get(wire, name) != name:
            n += 1
            suffix = f"_{n}"
            wire = openai_name(name)[: _MAX_NAME - len(suffix)] + suffix
        taken.add(wire)
        out[name] = wire
    return out


def original_name(tool: Tool) -> str:
    """The name the MCP server knows the tool by (for other tools: its name)."""
    return str(tool.spec.metadata.get("mcp_name", tool.name))


GONE_LISTING_S = 10.0
"""Seconds a listing asked after a call answered -32602 may take (`McpExecutor._gone`) at most."""


@dataclass(frozen=True)
class McpExecutor:
    """Runs calls to one MCP tool, always under the name the server gave it."""

    client: McpClient
    name: str
    """The tool's original name on the server."""
    timeout: float = 30.0
    annotations: Mapping[str, Any] = field(default_factory=dict)
    """The tool's MCP annotations (say whether calling again after a timeout is safe)."""
    accepts_images: bool = False
    max_result_chars: int | None = MAX_RESULT_CHARS
    """How many characters of a result the model reads at most (None: all)."""
    schema: Mapping[str, Any] | None = None
    """The tool's `inputSchema` as the server gave it: the arguments are checked against it before
    they are sent (`toolkit.mcp.schema.checked_arguments`); None checks nothing."""

    def __call__(self, call: ToolCall, context: InvocationContext) -> ToolOutput:
        text = call.arguments.strip()
        arguments = {} if text in ("", "null") else parse_arguments(call.name, text)
        if self.schema is not None:
            arguments, problems = checked_arguments(self.schema, arguments)
            if problems:
                raise ArgumentError(call.name, problems)
        try:
            result = self.client.call_tool(self.name, arguments, timeout=self.timeout)
        except McpTimeout:
            raise McpToolError(timeout_text(self.timeout, self.annotations)) from None
        except McpConnectionLost as exc:
            raise McpToolError(lost_text(self.client.name, exc.reason, self.annotations)) from None
        except McpConnectionError as exc:
            raise McpToolError(str(exc)) from None
        except McpError as exc:  # a JSON-RPC error ("Unknown tool: files.read"): it may name the tool too
            gone = self._gone() if exc.code == INVALID_PARAMS else ""
            raise McpToolError(str(exc) + _server_name_note(str(exc), self.name, call.name) + gone) from None
        except Exception as exc:  # the SDK's own checks ("Invalid structured content returned by tool files.read")
            text = describe_exception(exc)
            raise McpToolError(text + _server_name_note(text, self.name, call.name)) from exc
        text = self._masked(result_text(result, self.accepts_images))
        if result.is_error:
            text = text if text.strip() else "the server reported an error without a message"  # cut later
            raise McpToolError(text + _server_name_note(text, self.name, call.name), self._attributes(result))
        return ToolOutput(cut_text(text, self.max_result_chars), self._attributes(result))

    def _gone(self) -> str:
        """After a call answered -32602 (MCP's unknown tool, or invalid arguments): the sentence saying the
        server no longer lists this tool, when a listing asked now says so ("" when it lists it, or
        cannot say: not listed in time, or cut). The model was still offered it, and called it again."""
        try:
            listed = self.client.list_tools(timeout=min(self.timeout, GONE_LISTING_S))
        except McpError:
            return ""
        if self.client.listing_cut or self.name in self.client.unreadable or any(t.name == self.name for t in listed):
            return ""
        return (
            f". MCP server {self.client.name!r} no longer offers this tool (its tools changed after they were "
            "offered): do not call it again"
        )

    def _attributes(self, result: CallToolResult) -> dict[str, Any]:
        """What a result keeps beside the text the model reads, an error's as a success's: its images
        for a model that accepts them, the blocks for the user only, the `structuredContent`, the
        resource links (masked, cut as the text is)."""
        attributes: dict[str, Any] = {}
        images = (
            [b for b in result.content if isinstance(b, ImageContent) and for_model(b) and not image_problem(b)]
            if self.accepts_images
            else []
        )
        if images:
            attributes[IMAGES_ATTRIBUTE] = [
                f"data:{b.mime_type.strip()};base64,{_WHITESPACE.sub('', b.data)}" for b in images
            ]
        if for_user := [cut_text(self._masked(text), self.max_result_chars) for text in user_only_texts(result)]:
            attributes[FOR_USER_ATTRIBUTE] = for_user
        if (structured := self._structured(result)) is not None:
            attributes[STRUCTURED_ATTRIBUTE] = structured
        if links := self._links(result):
            attributes[RESOURCE_LINKS_ATTRIBUTE] = links
        if (meta := self._meta(result)) is not None:
            attributes[META_ATTRIBUTE] = meta
        return attributes

    def _meta(self, result: CallToolResult) -> dict[str, Any] | None:
        """The result's `_meta` but for the keys MCP reserves (`reserved_key`), masked as the text is; None
        when nothing is left, or when it is longer than `max_result_chars` or not storable as it is (NaN)."""
        value = result.meta
        if not value or not isinstance(value, dict):
            return None
        value = {key: v for key, v in value.items() if not (isinstance(key, str) and reserved_key(key))}
        if not value:
            return None
        text = self._masked(json.dumps(value, ensure_ascii=False))
        if self.max_result_chars is not None and len(text) > self.max_result_chars:
            return None
        try:
            kept = json.loads(text)
        except ValueError:  # a mask that broke the JSON
            return None
        return kept if isinstance(kept, dict) and attributes_problem({META_ATTRIBUTE: kept}) is None else None

    def _structured(self, result: CallToolResult) -> Any:
        """The result's `structuredContent` (None when it has none), whether the model read it or
        the blocks: masked as the text is; past `max_result_chars` (or not storable as it is: NaN)
        its JSON, cut."""
        value = result.structured_content
        if value is None:
            return None
        text = self._masked(json.dumps(value, ensure_ascii=False))
        try:
            kept = json.loads(text)
        except ValueError:  # a mask that broke the JSON: the text
            kept = text
        too_long = self.max_result_chars is not None and len(text) > self.max_result_chars
        if too_long or attributes_problem({STRUCTURED_ATTRIBUTE: kept}) is not None:
            return cut_text(text, self.max_result_chars)
        return kept

    def _links(self, result: CallToolResult) -> list[Any]:
        """The result's `resource_link` blocks as JSON objects, their secrets masked (a token in a URI),
        the first of them whose JSON takes `max_result_chars` in all (20,000 links were kept whole, 1.7 MB
        stored with memory and served again, while the model read the first 100,000 characters)."""
        links = [b for b in result.content if isinstance(b, ResourceLink)]
        if not links:
            return []
        kept: list[Any] = []
        left = self.max_result_chars
        for block in links:
            text = self._masked(
                json.dumps(block.model_dump(by_alias=True, mode="json", exclude_none=True), ensure_ascii=False)
            )
            if left is not None and len(text) > left:
                break
            try:
                kept.append(json.loads(text))
            except ValueError:  # a mask that broke the JSON: that link not kept
                continue
            left = None if left is None else left - len(text)
        return kept

    def _masked(self, text: str) -> str:
        """`text` with the secrets the server was given masked (`McpClient.mask`; a client without it: as is)."""
        mask = getattr(self.client, "mask", None)
        return mask(text) if callable(mask) else text


def reserved_key(key: str) -> bool:
    """Whether a `_meta` key is one MCP reserves for itself (a prefix whose second label is
    `modelcontextprotocol` or `mcp`: `io.modelcontextprotocol/serverInfo`, `…/related-task`): they belong
    to the session (the SDK stamps each result of a 2026-07-28 server with its `serverInfo`), not to the
    tool's answer."""
    prefix, slash, _ = key.partition("/")
    labels = prefix.split(".")
    return bool(slash) and len(labels) > 1 and labels[1] in ("modelcontextprotocol", "mcp")


def cut_text(text: str, limit: int | None) -> str:
    """`text`'s first `limit` characters and a line telling the model what was cut (`text` when it is
    not longer): the loop's cut and note (`toolkit.loop.result_size.cut_result`), so the loop does not
    cut an MCP result again."""
    return cut_result(text, limit)


def check_max_result_chars(limit: Any, where: str = "McpToolProvider") -> None:
    """A whole number above 0, or None; anything else refused where it is given (`where`: the callable)."""
    if limit is None or (isinstance(limit, int) and not isinstance(limit, bool) and limit > 0):
        return
    raise ToolDefinitionError(
        f"{where}(max_result_chars={limit!r:.40})",
        "max_result_chars is how many characters of a tool's result the model reads at most, a whole number "
        "above 0, or None for all of them",
        "give one, e.g. max_result_chars=100_000",
    )


def _server_name_note(text: str, server_name: str, called: str) -> str:
    """A note for an error text that names the tool as the server knows it, when the model knows
    it by another name (a wire name, `rename_tools`): the model can only call the name it was
    given. The server's words stay as they are (a name may also be an ordinary word in them)."""
    if server_name == called or not re.search(rf"(?<![A-Za-z0-9_]){re.escape(server_name)}(?![A-Za-z0-9_])", text):
        return ""
    return f"\n(The server calls this tool {server_name!r}; call it as {called!r}.)"


def result_text(result: CallToolResult, accepts_images: bool = False) -> str:
    """What the model reads: the blocks meant for it (`for_model`: the text blocks, a note for each
    other block), or the structured value; a note when every block is for the user only. Binary
    data written into the text is named by its size (`without_blobs`)."""
    parts = [_block_text(block, accepts_images) for block in result.content if for_model(block)]
    if not parts and result.structured_content is not None:
        return without_blobs(json.dumps(result.structured_content, ensure_ascii=False))
    if not parts and result.content:
        blocks = f"{len(result.content)} content block{'' if len(result.content) == 1 else 's'}"
        return f'[the result is for the user only (its audience is "user"), so it is not shown here: {blocks}]'
    return without_blobs("\n".join(parts))


BLOB_CHARS = 4096
"""How long a run of base64 in a result's text must be to be named by its size instead (`without_blobs`)."""
_BARE_BASE64 = re.compile(rf"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{{{BLOB_CHARS},}}+={{0,2}}(?![A-Za-z0-9+/=])")
_CLASSES = (re.compile("[A-Z]"), re.compile("[a-z]"), re.compile("[0-9]"))


def without_blobs(text: str) -> str:
    """`text` with the binary data a server wrote into it named by its size: a base64 data URL's
    payload (`data:image/png;base64,[elided: 1,024 bytes, sha256 …]`), and a bare run of base64 of
    `BLOB_CHARS` characters or more (an image or a PDF in a JSON result). The model cannot read
    either, and a megabyte of it crowded out the rest of the result (`max_result_chars`). A run is
    base64 only when its length is a multiple of 4 and it mixes upper case, lower case and digits:
    a DNA sequence (upper case alone) or a long hex digest (no upper case) stays."""
    text = elided_data_urls(text)
    return _BARE_BASE64.sub(_bare_elided, text) if len(text) >= BLOB_CHARS else text


def _bare_elided(found: re.Match[str]) -> str:
    run = found.group()
    if len(run) % 4 or not all(kind.search(run) for kind in _CLASSES):
        return run
    size = len(run) * 3 // 4 - run.count("=")
    return f"[elided: {len(run):,} characters of base64, about {size:,} bytes]"


def for_model(block: Any) -> bool:
    """Whether the model reads `block`: MCP's `annotations.audience` says who content is for, and a
    block whose audience is given without "assistant" (["user"]) is for the user only. No audience
    (or an empty one) says nothing: the block is for both."""
    audience = getattr(getattr(block, "annotations", None), "audience", None)
    return not audience or "assistant" in audience


def user_only_texts(result: CallToolResult) -> list[str]:
    """The blocks the model does not read (`for_model`), as text: kept on the result (`FOR_USER_ATTRIBUTE`)."""
    return [
        f"[{_named(block)}]" if isinstance(block, ImageContent) else without_blobs(_block_text(block, False))
        for block in result.content
        if not for_model(block)
    ]


def _block_text(block: Any, accepts_images: bool) -> str:
    return block.text if isinstance(block, TextContent) else _describe_block(block, accepts_images)


def _named(block: Any) -> str:
    """A block's kind, with a resource's name and URI and its MIME type when it has them."""
    kind = getattr(block, "type", type(block).__name__)
    resource = getattr(block, "resource", None)
    mime = getattr(block, "mime_type", None) or getattr(resource, "mime_type", None)
    uri = getattr(block, "uri", None) or getattr(resource, "uri", None)
    name = getattr(block, "name", None)
    named = [
        _line(str(name), 80) if name else None,
        _line(mask_url(elided_data_urls(str(uri))), 200) if uri else None,  # no signed URL's secret, no data
        _line(str(mime), 80) if mime else None,
    ]
    return f"{kind} ({', '.join(n for n in named if n)})" if any(named) else kind


_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def _line(text: str, limit: int) -> str:
    """A stranger's name, URI or MIME type on one line of at most `limit` characters: each run of line
    breaks, tabs or other control characters a space (a name's line break wrote a line of its own in the
    note, which read as the result). Only a few times `limit` characters are read."""
    return cut(" ".join(_BREAKS.sub(" ", text[: 4 * limit]).split()), limit)


def _describe_block(block: Any, accepts_images: bool) -> str:
    """A block that is not text, named: its kind, a resource's name and URI (what a resource link
    says: without them its result was lost; its description follows), its MIME type; an embedded
    text resource's text follows its name."""
    resource = getattr(block, "resource", None)
    mime = getattr(block, "mime_type", None) or getattr(resource, "mime_type", None)
    what = _named(block)
    if isinstance(block, ImageContent):
        if accepts_images and (problem := image_problem(block)):
            return f"[{what} not passed on: {problem}]"
        if accepts_images:
            return f"[{what} attached]"
        return f"[{what} not passed on: this chat model does not accept images]"
    if isinstance(block, ResourceLink):
        description = (block.description or "").strip()
        described = f"; its description: {description}" if description else ""
        return f"[{what}: a link to a resource, not read{described}]"
    if isinstance(block, EmbeddedResource) and (text := _resource_text(resource, mime)) is not None:
        return f"[{what}]\n{text}"  # the result itself, sent inline: nothing to read
    return f"[{what} content not shown]"


_IMAGE_TYPE = re.compile(r"image/[\w.+-]{1,60}", re.IGNORECASE)


def image_problem(block: ImageContent) -> str:
    """Why an image block cannot be passed on to the model as an image ("" when it can): a MIME type
    that is no image type (`text/html`, 5,000 characters), data that is not base64."""
    if not _IMAGE_TYPE.fullmatch(block.mime_type.strip()):
        return "its MIME type is not an image type"
    try:
        _unbased(block.data)
    except ValueError:
        return "its data is not base64"
    return ""


_TEXT_APPLICATIONS = re.compile(r"application/([\w.+-]*\+)?(json|xml|yaml|x-yaml|javascript|x-sh|sql|csv)(;.*)?")


def _resource_text(resource: Any, mime: str | None) -> str | None:
    """An embedded resource's text: its `text`, or a `blob` of a text type (`text/plain`,
    `application/json`, `…+xml`) that is UTF-8 (or in the charset its type names); None for any
    other blob (bytes are not shown)."""
    if isinstance(resource, TextResourceContents):
        return resource.text
    kind = (mime or "").strip().lower()
    if not isinstance(resource, BlobResourceContents) or not (
        kind.startswith("text/") or _TEXT_APPLICATIONS.fullmatch(kind)
    ):
        return None
    try:
        return _unbased(resource.blob).decode(_charset(kind))
    except ValueError:  # not base64, or not in its charset (a UnicodeDecodeError is a ValueError)
        return None


_WHITESPACE = re.compile(r"\s+")
_CHARSET = re.compile(r";\s*charset\s*=\s*\"?([\w.:-]+)")


def _unbased(blob: str) -> bytes:
    """A blob's bytes: base64 as MCP writes it, or in lines (Python's `base64.encodebytes`, a MIME
    encoder; pydantic-ai's client reads them too); ValueError for what is not base64."""
    return base64.b64decode(_WHITESPACE.sub("", blob), validate=True)


def _charset(mime: str) -> str:
    """The charset a text type names (`text/plain; charset=iso-8859-1`), if Python knows it; else UTF-8."""
    named = _CHARSET.search(mime)
    if named is None:
        return "utf-8"
    try:
        return codecs.lookup(named.group(1)).name
    except LookupError:
        return "utf-8"
