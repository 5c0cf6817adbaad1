"""The environment a submission's kernel runs in: the grader's own, without what a learner's code
must not read (the LLM_* variables, any secret, by name or by value) or be changed by (the variables
that decide what a kernel imports as it starts), with the grading toolkit importable.

`toolkit grade` runs every submission in it, and `toolkit notebooks` runs the course's own notebooks
in it too (their outputs are stored and committed).

Leaves out: the files a submission may reach (`toolkit.exercises.grade` copies each into a folder of
its own) and the install's integrity (`grade.install_state`).
"""

from __future__ import annotations

import os
import site
import sysconfig
from collections.abc import Mapping
from pathlib import Path

import toolkit
from toolkit.tools.redact import is_secret_variable, scrub_secrets


def submission_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment a submission runs in: the grader's, without the `LLM_*` variables (offline),
    without any variable whose name labels a secret (`redact.is_secret_variable`: `…_KEY`,
    `…_TOKEN`, `…_PASSWORD`, …), and without any whose value holds one, whatever its name (what
    `redact.scrub_secrets` masks: `DATABASE_URL=postgres://user:password@…`, a proxy's password, a
    key): learners' code could otherwise read them and send them out.

    Nor may one submission's files reach the next one's kernel (`IMPORT_VARIABLES`): no inherited `PYTHONPATH`
    (a folder on it a notebook writes a `sitecustomize.py` or a module `toolkit` of its own into), no
    `PYTHONSTARTUP` or `JUPYTER_PATH`, and no user site-packages unless the toolkit is installed there
    (`PYTHONNOUSERSITE`: a `.pth` or `usercustomize.py` a notebook puts in `~/.local`; `grading_imports`); the
    kernel imports the toolkit that grades (`PYTHONPATH` is its folder, unless that is a site-packages folder) and
    writes no compiled files (`PYTHONDONTWRITEBYTECODE`)."""
    kept = {
        name: value
        for name, value in environ.items()
        if not name.startswith("LLM_")
        and not is_secret_variable(name)
        and scrub_secrets(value) == value
        and name not in IMPORT_VARIABLES
    }
    return {**kept, **grading_imports()}


IMPORT_VARIABLES = ("PYTHONPATH", "PYTHONSTARTUP", "PYTHONNOUSERSITE", "PYTHONDONTWRITEBYTECODE", "JUPYTER_PATH")
"""Variables that decide what a kernel imports or runs as it starts: the grader's are not passed on
(`grading_imports` sets its own)."""


def grading_imports() -> dict[str, str]:
    """The import variables of a submission's processes: no compiled files written, no user site-packages unless the
    grading toolkit is installed there (`pip install --user`: its dependencies and `.pth` files are there too), and
    the folder the toolkit is imported from on `PYTHONPATH` when the interpreter's own paths do not have it (a
    checkout run in place)."""
    root = toolkit_folder()
    on_path = root in {os.path.realpath(folder) for folder in site_folders()}
    return {
        "PYTHONDONTWRITEBYTECODE": "1",
        **({} if user_install() else {"PYTHONNOUSERSITE": "1"}),
        **({} if on_path else {"PYTHONPATH": root}),
    }


def toolkit_folder() -> str:
    """The folder the grading toolkit package is in (site-packages, or a checkout)."""
    return str(Path(toolkit.__file__).resolve().parent.parent)


def user_install() -> bool:
    """Whether the grading toolkit is installed in the user's site-packages (`pip install --user`)."""
    return toolkit_folder() == os.path.realpath(site.getusersitepackages())


def site_folders() -> list[str]:
    """The folders Python reads `.pth` files, `sitecustomize` and top-level modules from as it starts: the
    standard library's and each site-packages folder; the user's only where the toolkit is installed
    (`user_install`: else a submission runs without it)."""
    paths = sysconfig.get_paths()
    user = [site.getusersitepackages()] if user_install() else []
    folders = [paths["stdlib"], paths["platstdlib"], *site.getsitepackages(), *user]
    return [folder for folder in dict.fromkeys(folders) if os.path.isdir(folder)]
