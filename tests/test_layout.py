"""The package's modules import one another without circles: each module can be read (and tested) after
the ones it imports, and moving one never drags its importers along.

Every `import` counts, also one inside a function (imported where used, to start fast) or under
`TYPE_CHECKING`: a circle through either is still a circle to a reader, and to import-linter. The
package's own `__init__` is left out: it names every public name lazily (`toolkit.X` imports the
module on first use) and imports nothing itself.

One circle is deliberate: `exercises.seal` gives a seal only to code called from `exercises.core`'s
`check`, so it must know that code, while `core` asks `seal` for the seal."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "toolkit"
DELIBERATE = [{"toolkit.exercises.core", "toolkit.exercises.seal"}]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, known: set[str]) -> set[str]:
    """The package's modules `path` imports (`from toolkit.a import b` is `toolkit.a.b` when that is a module, and
    `toolkit.a` itself when `b` is a name defined there)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            named = {f"{node.module}.{alias.name}" for alias in node.names}
            found |= named & known if named <= known else named | {node.module}  # the package, for a name of its own
    return {name for name in found if name in known and name != "toolkit"}


def graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in ROOT.rglob("*.py")}
    known = set(paths)
    return {name: imports(path, known) - {name} for name, path in paths.items() if name != "toolkit"}


def circles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, written iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_no_module_imports_one_that_imports_it_back():
    assert sorted(map(sorted, circles(graph()))) == sorted(map(sorted, DELIBERATE))


def test_the_circle_finder_finds_a_circle_through_a_function_level_import():
    """The check can fail: a circle of three, and one of two beside it, are both found; a chain is not a circle."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert sorted(map(sorted, circles(edges))) == [["a", "b", "c"], ["d", "e"]]
    assert imports(Path(__file__), {"toolkit.x"}) == set()
