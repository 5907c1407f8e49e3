"""The floors of standgen (issue #16, docs/architecture.md): imports only go downwards.

Every import of every module under ``standgen/`` is read from its source: module level,
under ``TYPE_CHECKING`` and inside functions alike (an import inside a function is still
a dependency, only a later one). The graph must have no cycle at all, and no module may
import a module of a higher floor, in the order

    model/errors -> rules -> pipeline -> site -> build/watch -> cli

A new module must be given a floor in :data:`FLOORS` (the test says so when it is not).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "standgen"

ORDER = ("model", "rules", "pipeline", "site", "build", "cli")

# module name prefix -> floor; the longest matching prefix decides
FLOORS: Mapping[str, str] = {
    "standgen": "model",  # the package itself: a docstring and the version
    "standgen.model": "model",
    "standgen.errors": "model",
    "standgen.tables": "model",  # plain tables a format hands to the site (no HTML)
    "standgen.records": "rules",
    "standgen.tiebreaks": "rules",
    "standgen.pairing": "rules",
    "standgen.formats": "rules",
    "standgen.diplomacy": "rules",
    "standgen.stages": "rules",
    "standgen.standings": "rules",
    "standgen.perf": "pipeline",
    "standgen.pipeline": "pipeline",
    "standgen.load": "pipeline",
    "standgen.roundfile": "pipeline",
    "standgen.audit": "pipeline",
    "standgen.trf": "pipeline",
    "standgen.egd": "pipeline",
    "standgen.privacy": "pipeline",
    "standgen.site": "site",
    "standgen.lab": "site",
    "standgen.clubs": "site",
    "standgen.build": "build",
    "standgen.eventday": "build",
    "standgen.notices": "build",
    "standgen.builder": "build",
    "standgen.buildstate": "build",
    "standgen.output": "build",
    "standgen.watch": "build",
    "standgen.venue": "build",
    "standgen.forget": "build",
    "standgen.cli": "cli",
    "standgen.__main__": "cli",
}


def modules() -> dict[str, Path]:
    """Return every module of the package by dotted name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: Mapping[str, Path]) -> Iterator[tuple[str, int]]:
    """Yield (module, line) for every standgen module that ``name`` imports, anywhere."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # ``from pkg import mod`` imports the submodule; ``from mod import name`` not
            targets = [f"{module}.{alias.name}" for alias in node.names
                       if f"{module}.{alias.name}" in known] or [module]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target.startswith("standgen") and target != name:
                yield target, node.lineno


def floor_of(name: str) -> str | None:
    """Return the floor of a module: that of its longest prefix in :data:`FLOORS`."""
    probe = name
    while probe:
        if probe in FLOORS:
            return FLOORS[probe]
        probe = probe.rpartition(".")[0]
    return None


def graph() -> dict[str, dict[str, int]]:
    """Return module -> {imported module: first line} for the whole package."""
    known = modules()
    edges: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        found: dict[str, int] = {}
        for target, line in imports(name, path, known):
            found.setdefault(target, line)
        edges[name] = found
    return edges


def cycles(edges: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """Return the strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_module_has_a_floor() -> None:
    missing = [name for name in modules() if floor_of(name) is None]
    assert missing == [], f"give these modules a floor in FLOORS: {missing}"


def test_no_import_goes_up_a_floor() -> None:
    known = modules()
    upward = []
    for name, targets in graph().items():
        mine = ORDER.index(floor_of(name) or "cli")
        for target, line in targets.items():
            theirs = ORDER.index(floor_of(target) or "cli")
            if theirs > mine:
                where = known[name].relative_to(PACKAGE.parent)
                upward.append(f"{where}:{line}: {name} ({ORDER[mine]}) imports {target} "
                              f"({ORDER[theirs]})")
    assert upward == [], "\n".join(upward)


def test_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_the_walk_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The walker itself: module level, TYPE_CHECKING, inside a function, relative."""
    pkg = tmp_path / "standgen"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\n"
                              "if TYPE_CHECKING:\n    from standgen.b import X\n"
                              "def f():\n    from . import c\n")
    (pkg / "b.py").write_text("import standgen.sub.d\n")
    (pkg / "c.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .d import thing\n")
    (pkg / "sub" / "d.py").write_text("from ..a import f\n")
    known = {"standgen": pkg / "__init__.py", "standgen.a": pkg / "a.py",
             "standgen.b": pkg / "b.py", "standgen.c": pkg / "c.py",
             "standgen.sub": pkg / "sub" / "__init__.py",
             "standgen.sub.d": pkg / "sub" / "d.py"}
    edges = {name: dict(imports(name, path, known)) for name, path in known.items()}
    assert set(edges["standgen.a"]) == {"standgen.b", "standgen.c"}
    assert set(edges["standgen.b"]) == {"standgen.sub.d"}
    assert set(edges["standgen.sub"]) == {"standgen.sub.d"}
    assert set(edges["standgen.sub.d"]) == {"standgen.a"}
    assert cycles(edges) == [["standgen.a", "standgen.b", "standgen.sub.d"]]


@pytest.mark.parametrize("name", ["standgen.formats.swiss", "standgen.site.render"])
def test_floor_of_uses_the_longest_prefix(name: str) -> None:
    assert floor_of(name) == ("rules" if "formats" in name else "site")
