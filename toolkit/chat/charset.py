"""Which encoding a gateway's body is read in: what its bytes show, before what its label claims.

JSON travels as UTF-8 (RFC 8259; UTF-16 and UTF-32 are told by their byte-order mark or by the
zero bytes around the first ASCII character, as `json.loads` tells them from bytes), and so do
server-sent events (always UTF-8: EventSource ignores the label). A relay that labels its UTF-8
`charset=iso-8859-1` or `charset=gbk` (a Java or nginx default left in place) made httpx decode every
non-ASCII reply into mojibake, silently; the `openai` SDK reads the bytes and gets it right.
`body_encoding(content, label)` is the codec to read a body with: a byte-order mark, then UTF-16/32
by their zero bytes, then UTF-8 when the bytes are valid UTF-8, then the label when Python knows it;
None (httpx's own default, UTF-8 with replacement characters) when nothing fits.

Before its charset, a body's `Content-Encoding` is undone a piece at a time, so that what it
inflates to can be bounded. httpx undoes each piece that arrives inflated whole: 64 KB of gzip can
inflate to 64 MB in one step, a few hundred bytes of brotli to 64 MB, and a bound on the bytes that
arrived (`ChatClient.max_reply_bytes`) says nothing of what they inflate to (1 MB of gzip is 1 GB of
spaces). `inflated(pieces, names)` yields the decoded bytes of `pieces` in steps of about `STEP`
bytes, lazily, so its reader can stop at any bound; `undone(headers)` says which encodings of a
header it undoes: gzip, x-gzip, deflate, and br and zstd when httpx would (with the `brotli` or
`brotlicffi` package, `BROTLI`, or `zstandard`, `ZSTANDARD`, installed; the client does not ask for
them, a gateway may send them all the same); a name httpx does not know is skipped, as httpx skips
it. Bytes that do not fit their encoding raise `httpx.DecodingError` with the decoder's words, as
httpx's own decoders do; "deflate" is zlib-wrapped, or raw DEFLATE when its first bytes are not (as
httpx reads it). A brotli older than 1.2 cannot stop a step at a bound: a br body is then refused
(`OLD_BROTLI`), not inflated whole. A body still gzip once its header's encodings are undone (a
proxy that compressed it again and said so once, or a server that sends gzip with no header) is undone
too (`unwrapped`): its first bytes tell it, and no text begins with them.

Leaves out: guessing a legacy encoding the label does not name (a GBK body labelled nothing), and a
zlib, br or zstd body that no header names (zlib's two first bytes may begin a text; br has none).
"""

from __future__ import annotations

import codecs
import importlib
import itertools
import json
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import httpx

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16's: it starts with the same two bytes
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def body_encoding(content: bytes, label: str | None) -> str | None:
    """The codec to decode `content` with, given its `Content-Type` charset `label` (or None)."""
    for bom, codec in _BOMS:
        if content.startswith(bom):
            return codec
    if b"\x00" in content[:4]:  # JSON starts with an ASCII character: zero bytes beside it are UTF-16/32
        return json.detect_encoding(content[:4])
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        return _known(label)
    return "utf-8"


def _known(label: str | None) -> str | None:
    if not label:
        return None
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


READ_AT_MOST = "toolkit_max_reply_bytes"
"""The request extension saying how many bytes of the reply, inflated, its client reads at most
(`ChatClient.max_reply_bytes`): a recording transport tells a reply cut there from one its reader
left early (`toolkit.chat.cassette`)."""
STEP = 64 * 1024
"""The most bytes one step of inflating yields (brotli's steps may run a little past it)."""
ACCEPTED = "gzip, deflate"
"""The encodings the client asks for (`Accept-Encoding`): those `inflated` undoes without a package."""
_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}


def _module(*names: str) -> Any:
    """The first of the modules `names` that imports (as httpx looks for its decoders'), or None."""
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


BROTLI: Any = _module("brotli", "brotlicffi")
"""The brotli bindings httpx would undo `br` with (None: it, and `undone`, skip `br`)."""
ZSTANDARD: Any = _module("zstandard")
"""The `zstandard` package httpx would undo `zstd` with (None: it, and `undone`, skip `zstd`)."""
OLD_BROTLI = (
    "it is compressed as br, and the brotli package installed cannot undo it a step at a time within "
    "ChatClient.max_reply_bytes (brotli or brotlicffi 1.2 or later can)"
)


def undone(headers: httpx.Headers) -> list[str]:
    """The encodings `headers` name that `inflated` undoes, in the order they were applied (none:
    identity). Each is taken off the reply's headers by its reader, for httpx not to undo it again."""
    names = [value.strip().lower() for value in headers.get_list("content-encoding", split_commas=True)]
    return [name for name in names if name in _WBITS or _decoders().get(name) is not None]


def left_undone(headers: httpx.Headers) -> list[str]:
    """The compressions `headers` name that `inflated` cannot undo: br or zstd without its package,
    or one no package here undoes (`compress`). A name of no compression (`utf-8`, `none`: a
    misconfigured server's, over a plain body) is none, as httpx skips it."""
    names = [value.strip().lower() for value in headers.get_list("content-encoding", split_commas=True)]
    done = undone(headers)
    return [name for name in names if name in _COMPRESSIONS and name not in done]


_COMPRESSIONS = frozenset({"br", "zstd", "compress", "x-compress", "pack200-gzip", "aes128gcm", "dcb", "dcz"})
"""The registered content codings (IANA's HTTP Content Coding Registry) that compress or encrypt,
beyond those `inflated` undoes without a package."""


PACKAGES = {"br": "brotli", "zstd": "zstandard"}
"""The package that lets `inflated` undo an encoding it otherwise cannot."""


def _decoders() -> dict[str, Any]:
    return {"br": BROTLI, "zstd": ZSTANDARD}


def inflated(pieces: Iterable[bytes], names: list[str]) -> Iterator[bytes]:
    """`pieces` with the encodings `names` undone (the last applied first), in steps of at most `STEP`
    bytes, then any gzip they turn out to be still (`unwrapped`). The first piece is read at the call,
    the rest as they are asked for."""
    for name in reversed(names):
        pieces = _decoder(name)(pieces)
    pieces = iter(pieces)
    first = next(pieces, b"")
    if len(first) > 2 and not first.startswith(GZIP_MAGIC):  # every answer but a gzip's: told by one piece
        return itertools.chain((first,), pieces)
    return unwrapped(itertools.chain((first,), pieces))


GZIP_MAGIC = b"\x1f\x8b\x08"
"""How a gzip member begins (RFC 1952: ID1, ID2, CM deflate). No UTF-8 text begins so (0x8b only
continues a character), so no JSON, event stream or page is taken for gzip."""
HIDDEN_LAYERS = 2
"""How many layers of gzip no header names `unwrapped` undoes (a proxy compressing again is one)."""


def unwrapped(pieces: Iterator[bytes]) -> Iterator[bytes]:
    """`pieces` with the gzip they still are undone: a body compressed again on its way and declared
    once (a proxy gzipping a gzip answer and keeping one `Content-Encoding: gzip`: drpcorg/nodecore#268,
    apex/up#278) or compressed with no header at all (apache/trafficcontrol#1737). Its bytes are read
    as JSON or events only after that; gzip's CRC-32 holds each member whole, so nothing is guessed.
    Past `HIDDEN_LAYERS` it is refused (a file made to inflate to itself would never end)."""
    for layer in range(HIDDEN_LAYERS + 1):
        taken: tuple[bytes, ...] = ()  # the pieces it takes to hold the magic's length, passed on as they came
        head = b""
        for piece in pieces:
            taken += (piece,)
            head += piece[:3]
            if head[2:]:
                break
        pieces = itertools.chain(taken, pieces)
        if not head.startswith(GZIP_MAGIC):
            break
        if layer == HIDDEN_LAYERS:
            raise httpx.DecodingError(
                f"the body is still gzip after undoing {layer} layers of gzip its headers did not name"
            )
        pieces = _Inflater("gzip").inflate(pieces)
    return pieces


def _decoder(name: str) -> Callable[[Iterable[bytes]], Iterator[bytes]]:
    if name == "br":
        return _unbrotli
    if name == "zstd":
        return _unzstd
    return _Inflater(name).inflate


def _unbrotli(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """`pieces` of brotli undone, about `STEP` bytes a step: after a step that stopped at the bound,
    the decompressor is asked again with no input until it yields nothing more."""
    decompressor = BROTLI.Decompressor()
    for piece in pieces:
        while out := _brotli_step(decompressor, piece):
            piece = b""
            yield out


def _brotli_step(decompressor: Any, data: bytes) -> bytes:
    try:
        out: bytes = decompressor.process(data, output_buffer_limit=STEP)
    except TypeError as exc:  # brotli < 1.2: no output_buffer_limit
        raise httpx.DecodingError(OLD_BROTLI) from exc
    except BROTLI.error as exc:
        raise httpx.DecodingError(str(exc)) from exc
    return out


def _unzstd(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """`pieces` of zstd undone, at most `STEP` bytes a step, frame after frame (as httpx reads them)."""
    reader = ZSTANDARD.ZstdDecompressor().stream_reader(
        _Source(pieces), read_size=STEP, read_across_frames=True, closefd=False
    )
    while True:
        try:
            out: bytes = reader.read(STEP)
        except ZSTANDARD.ZstdError as exc:
            raise httpx.DecodingError(str(exc)) from exc
        if not out:
            return
        yield out


class _Source:
    """`pieces` as a file a decompressor reads from (`read`: the next piece, b"" at the end)."""

    def __init__(self, pieces: Iterable[bytes]) -> None:
        self.pieces = iter(pieces)

    def read(self, size: int = -1) -> bytes:
        return next((piece for piece in self.pieces if piece), b"")


class _Inflater:
    """One encoding undone (`inflate`). A gzip body may be several members one after the other (RFC
    1952; a relay that compresses each event on its own sends them so): each is undone in turn, and
    bytes after a member that start no other are left, as httpx leaves what follows its one member."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.inflater = zlib.decompressobj(_WBITS[name])
        self.first = True
        self.after = False
        """Whether the member being read follows another (then bytes that start none are left)."""

    def inflate(self, pieces: Iterable[bytes]) -> Iterator[bytes]:
        for piece in pieces:
            yield from self._steps(piece)
        try:
            rest = self.inflater.flush()
        except zlib.error as exc:  # pragma: no cover - zlib reports a bad stream in decompress
            raise httpx.DecodingError(str(exc)) from exc
        if rest:
            yield rest

    def _steps(self, data: bytes) -> Iterator[bytes]:
        while True:
            try:
                out = self.inflater.decompress(data, STEP)
            except zlib.error as exc:
                if self.after:  # what follows the last member is no member: left
                    return
                if not (self.first and self.name == "deflate"):
                    raise httpx.DecodingError(str(exc)) from exc
                self.inflater = zlib.decompressobj(-zlib.MAX_WBITS)  # raw DEFLATE, as some servers send
                self.first = False
                continue
            self.first = self.first and not data
            self.after = self.after and not out
            data = self.inflater.unconsumed_tail
            if out:
                yield out
            if self.inflater.eof and self.inflater.unused_data and self.name != "deflate":
                data = self.inflater.unused_data  # the next member
                self.inflater, self.after = zlib.decompressobj(_WBITS[self.name]), True
                continue
            if self.inflater.eof or (not data and len(out) < STEP):  # else more may be pending
                return
