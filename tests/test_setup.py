"""The two setup files agree, and the public surface is what __init__ says it is."""

import ast
import importlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

import toolkit

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[]", requirement, maxsplit=1)[0].lower()


CONDA_NAMES = {"playwright": "playwright-python", "build": "python-build"}
"""PyPI name → conda-forge name, where they differ."""


def _pyproject_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    requirements = project["dependencies"] + extras["course"] + extras["test"]
    return {_name(r): r.replace(" ", "") for r in requirements if not r.startswith(project["name"])}


def _conda_requirements() -> dict[str, str]:
    """conda-forge packages (under their PyPI names) and the PyPI-only ones under `pip:`."""
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    from_pypi = {v: k for k, v in CONDA_NAMES.items()}
    plain = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = [d for d in next(d["pip"] for d in env["dependencies"] if isinstance(d, dict)) if not d.startswith("-")]
    out = {}
    for d in plain:
        name = _name(d)
        if name not in {"python", "pip"}:
            out[from_pypi.get(name, name)] = d.replace(" ", "").replace(name, from_pypi.get(name, name), 1)
    out.update({_name(d): d.replace(" ", "") for d in pip})
    return out


def test_environment_yml_matches_pyproject():
    assert _conda_requirements() == _pyproject_requirements()


def test_pypi_only_packages_are_under_pip():
    """conda-forge has no mcp 2.x, mcp-types, model2vec or mcp-server-time: conda would fail to solve."""
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    plain = {_name(d) for d in env["dependencies"] if isinstance(d, str)}
    assert plain & {"mcp", "mcp-types", "model2vec", "mcp-server-time", "playwright", "build"} == set()


def test_environment_yml_installs_the_package_and_python_version_agrees():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "-e ." in pip_section
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert f"python{requires}" in env["dependencies"]


def test_all_names_exist_and_nothing_public_is_missing():
    assert toolkit.__all__ == sorted(set(toolkit.__all__))
    for name in toolkit.__all__:
        assert getattr(toolkit, name) is getattr(importlib.import_module(toolkit._EXPORTS[name]), name)
    public = {n for n in dir(toolkit) if not n.startswith("_") and not isinstance(getattr(toolkit, n), type(toolkit))}
    assert public - {"annotations", "importlib", "Any", "TYPE_CHECKING"} == set(toolkit.__all__)


def test_typed_imports_all_and_lazy_table_agree():
    """The `TYPE_CHECKING` imports (what mypy and pyright see), `__all__` and the lazy table name the
    same objects from the same modules."""
    tree = ast.parse((ROOT / "toolkit" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    typed = {
        alias.asname or alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert typed == toolkit._EXPORTS
    assert sorted(typed) == toolkit.__all__


def test_no_public_name_is_shadowed_by_a_submodule():
    """A submodule named like an export (say `toolkit/connect.py` beside `connect()`) would replace
    the export on the package as soon as anything imports the submodule."""
    modules = {p.stem for p in (ROOT / "toolkit").glob("*.py")} | {
        p.name for p in (ROOT / "toolkit").iterdir() if p.is_dir()
    }
    assert modules & set(toolkit.__all__) == set()


def test_top_level_holds_only_the_core_modules():
    """Every mechanism lives in its subpackage; the top level keeps only these."""
    assert {p.name for p in (ROOT / "toolkit").glob("*.py")} == {"__init__.py", "__main__.py", "errors.py", "tokens.py"}


def test_importing_toolkit_loads_nothing_heavy():
    code = "import sys, toolkit; print(sorted(m for m in ('pandas', 'ipywidgets', 'httpx', 'mcp') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError, match="module 'toolkit' has no attribute 'nope'"):
        toolkit.nope


def test_ci_runs_the_readme_test_command_verbatim():
    readme = (ROOT / "README.md").read_text()
    command = "python3 course.py test"
    assert f"\n{command}\n" in readme
    assert command in (ROOT / ".ci" / "run").read_text().splitlines()
