"""The two setup files agree, and the public surface is what __init__ says it is."""
import re
import tomllib
from pathlib import Path

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
    assert sorted(toolkit.__all__) == sorted(set(toolkit.__all__))
    for name in toolkit.__all__:
        assert hasattr(toolkit, name), name
    public = {n for n, v in vars(toolkit).items()
              if not n.startswith("_") and not isinstance(v, type(toolkit))}
    assert public == set(toolkit.__all__)


def test_ci_runs_the_readme_test_command_verbatim():
    readme = (ROOT / "README.md").read_text()
    command = "python3 course.py test"
    assert f"\n{command}\n" in readme
    assert command in (ROOT / ".ci" / "run").read_text().splitlines()
