"""The two setup files agree, and the public surface is what __init__ says it is."""
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


def _pyproject_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + project["optional-dependencies"]["test"]
    return {_name(r): r.replace(" ", "") for r in requirements}


def _conda_requirements() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    plain = [d for d in env["dependencies"] if isinstance(d, str)]
    return {_name(d): d.replace(" ", "") for d in plain if _name(d) not in {"python", "pip"}}


def test_environment_yml_matches_pyproject():
    assert _conda_requirements() == _pyproject_requirements()


def test_environment_yml_installs_the_package_and_python_version_agrees():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "-e ." in pip_section
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert f"python{requires}" in env["dependencies"]


def test_all_names_exist_and_nothing_public_is_missing():
    assert toolkit.__all__ == sorted(set(toolkit.__all__))
    for name in toolkit.__all__:
        assert getattr(toolkit, name) is getattr(importlib.import_module(f"toolkit.{toolkit._EXPORTS[name]}"), name)
    public = {n for n in dir(toolkit) if not n.startswith("_") and not isinstance(getattr(toolkit, n), type(toolkit))}
    assert public - {"annotations", "importlib", "Any"} == set(toolkit.__all__)


def test_no_public_name_is_shadowed_by_a_submodule():
    """A submodule named like an export (say `toolkit/connect.py` beside `connect()`) would replace
    the export on the package as soon as anything imports the submodule."""
    modules = {p.stem for p in (ROOT / "toolkit").glob("*.py")}
    assert modules & set(toolkit.__all__) == set()


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
