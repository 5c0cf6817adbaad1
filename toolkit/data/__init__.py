"""Where the course data lives: one resolver for a checkout, an editable install and a wheel.

The data (shop orders, gateway rules, cases, prompts, skills, the tool catalogue, the small
embedding model) is edited in `data/` at the top of the repository. The wheel carries the same
files as package data in this folder (`toolkit/data/`), so `path("orders.json")` finds them in
an installed wheel (through `importlib.resources`) and in a checkout alike. Nothing here reads a
file: modules call `path()` when they need one, never at import time.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from toolkit.errors import ConfigurationError

_MARKER = "gateway_rules.toml"


def root() -> Path:
    """The folder holding the course data: the wheel's copy if present, else the checkout's."""
    packaged = Path(str(files("toolkit.data")))
    if (packaged / _MARKER).is_file():
        return packaged
    checkout = packaged.parent.parent / "data"
    if (checkout / _MARKER).is_file():
        return checkout
    raise ConfigurationError(
        f"toolkit.data.root(): no course data found in {packaged} or {checkout}. "
        "Reinstall the package (the wheel carries the data), or run from a checkout of the course."
    )


def path(*parts: str) -> Path:
    """One file or folder of the course data, e.g. `path("skills")` or `path("models", "x")`."""
    return root().joinpath(*parts)
