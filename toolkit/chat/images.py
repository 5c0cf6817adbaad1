"""Image URLs in chat messages: what one is, whether a chat model takes it, how to show it.

A chat-completions image is a URL: a `data:` URL carrying the bytes in base64
(`data:image/png;base64,iVBORw0…`) or an `http(s)://` address the provider fetches itself.
`inspect_image(url)` reads one without trusting it (anything may come back from a tool):

- its MIME type and decoded size for a data URL (the base64 is checked, not guessed at);
- `problem`: None when a chat model takes it, else why not — `url` (not a `data:` or
  `http(s)://` URL, or not a string at all), `data` (a data URL that is not base64 with a
  media type) or `format` (a media type other than PNG, JPEG, GIF and WebP, the formats
  OpenAI's vision input lists).

`image_marker(url, n)` is how views and transcripts show an image instead of its base64:
`[image 1: image/png, 1.2 KB]`, or `[image 2: https://example.com/a.png]`.

Leaves out: fetching http(s) images (their size and format are unknown here), decoding
pixels (the dimensions), and the provider's own limits on size and count (the loop has its own
caps: `toolkit.loop.images`).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from toolkit.unicode import cut

ACCEPTED_FORMATS = ("image/png", "image/jpeg", "image/gif", "image/webp")
"""The media types chat models take as image input (OpenAI: PNG, JPEG, WebP, non-animated GIF)."""
URL_PREFIXES = ("data:", "http://", "https://")
IMAGE_TOKENS = 85
"""Tokens one image is estimated at: OpenAI's cost of an image at `detail: low` (the base64
text is not what a model counts)."""
_DATA_URL = re.compile(r"data:([A-Za-z0-9.+-]+/[A-Za-z0-9.+-]+)((?:;[^;,]*)*?);base64,(.*)", re.S)
_MARKER_URL = 60
"""Characters of an http(s) URL shown in a marker."""


@dataclass(frozen=True)
class ImageInfo:
    """What `inspect_image` found out about one image URL."""

    url: str
    kind: str
    """`data`, `http`, or `invalid`."""
    mime: str | None = None
    """The media type of a data URL, lower-cased."""
    size: int | None = None
    """Decoded bytes of a data URL."""
    problem: str | None = None
    """None when a chat model takes it; else `url`, `data` or `format` (see the module docstring)."""


def inspect_image(url: object) -> ImageInfo:
    """Read one image URL (any value: a tool may return anything) without raising."""
    if not isinstance(url, str):
        return ImageInfo(repr(url)[:_MARKER_URL], "invalid", problem="url")
    if url.startswith(("http://", "https://")):
        return ImageInfo(url, "http")
    if not url.startswith("data:"):
        return ImageInfo(url, "invalid", problem="url")
    match = _DATA_URL.fullmatch(url)
    if match is None:
        return ImageInfo(url, "data", problem="data")
    mime, data = match.group(1).lower(), match.group(3)
    try:
        size = len(base64.b64decode(data, validate=True))
    except (binascii.Error, ValueError):
        return ImageInfo(url, "data", mime, problem="data")
    return ImageInfo(url, "data", mime, size, None if mime in ACCEPTED_FORMATS else "format")


def human_size(size: int) -> str:
    """`512 B`, `1.2 KB`, `3.4 MB` (decimal units, as file browsers show them)."""
    if size < 1000:
        return f"{size} B"
    if size < 1_000_000:
        return f"{size / 1000:.1f} KB"
    return f"{size / 1_000_000:.1f} MB"


def image_marker(url: object, number: int) -> str:
    """`[image 1: image/png, 1.2 KB]` — an image as a view shows it (never its base64)."""
    info = inspect_image(url)
    if info.kind == "http":
        shown = cut(info.url, _MARKER_URL)
        return f"[image {number}: {shown}]"
    if info.size is not None:
        return f"[image {number}: {info.mime}, {human_size(info.size)}]"
    return f"[image {number}: not a valid image URL]"
