"""The floors of standgen (issue #16, #30, docs/architecture.md): imports only go downwards.

Every import of every module under ``standgen/`` is read from its source: module level,
under ``TYPE_CHECKING``, inside functions, and the dynamic ones (``importlib.import_module``
and ``__import__`` of a ``standgen`` name; a dynamic import of a name the test cannot
read fails it). The graph must have no cycle, neither between modules nor between
packages, and no module may import a module of a higher floor, in the order

    model/errors -> rules -> pipeline -> site -> build/watch -> cli

The model and rules floors do no I/O: no file, folder, environment or console access
(:data:`IO_CALLS`, :data:`IO_ATTRIBUTES`, :data:`IO_MODULES`). A new module must be given
a floor in :data:`FLOORS` (the test says so when it is not). Each check is a function of
a package folder, so the tests at the end plant each kind of fault in a copy of the
package and see the check find it.
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "standgen"

ORDER = ("model", "rules", "pipeline", "site", "build", "cli")

# module name prefix -> floor; the longest matching prefix decides ("standgen" itself is
# matched exactly: a new top-level module must be given its own floor)
FLOORS: Mapping[str, str] = {
    "standgen": "model",  # the package itself: a docstring and the version
    "standgen.model": "model",
    "standgen.errors": "model",
    "standgen.tables": "model",  # plain tables a format hands to the site (no HTML)
    "standgen.memo": "model",  # the one bounded memo, off under perf.straightforward()
    "standgen.options": "model",  # Option: how a format declares a key of [options]
    "standgen.results": "model",  # result codes and score values (win 1, draw ½, loss 0)
    "standgen.spreadsheet": "model",  # the CSV-injection guard of every CSV written
    "standgen.records": "rules",
    "standgen.tiebreaks": "rules",
    "standgen.pairing": "rules",
    "standgen.formats": "rules",
    "standgen.diplomacy": "rules",
    "standgen.stages": "rules",
    "standgen.teams": "rules",
    "standgen.standings": "rules",
    "standgen.perf": "pipeline",
    "standgen.dataclass_code": "pipeline",  # dataclasses' compiled methods kept (start-up)
    "standgen.pipeline": "pipeline",
    "standgen.load": "pipeline",
    "standgen.roundfile": "pipeline",
    "standgen.audit": "pipeline",
    "standgen.trf": "pipeline",
    "standgen.egd": "pipeline",
    "standgen.privacy": "pipeline",
    "standgen.clock": "pipeline",
    "standgen.armylists": "pipeline",
    "standgen.site": "site",
    "standgen.clubs": "site",
    "standgen.build": "build",
    "standgen.commands": "build",  # one module per command
    "standgen.eventday": "build",
    "standgen.roundstates": "build",  # what pair, drop and bye do in each round state
    "standgen.teamday": "build",  # pair of a team event: team matches, then the draft
    "standgen.notices": "build",
    "standgen.builder": "build",
    "standgen.buildstate": "build",
    "standgen.output": "build",
    "standgen.watch": "build",
    "standgen.venue": "build",
    "standgen.forget": "build",
    "standgen.cli": "cli",
    "standgen.__main__": "cli",
    "standgen.entry": "cli",  # the command's entry: keeps bytecode, then the command line
}

# the floors that do no I/O, and what counts as I/O there
PURE_FLOORS = ("model", "rules")
IO_CALLS = frozenset({"open", "print", "input", "getenv", "putenv", "system", "popen"})
IO_ATTRIBUTES = frozenset({
    "read_text", "read_bytes", "write_text", "write_bytes", "open", "exists", "is_file",
    "is_dir", "iterdir", "glob", "rglob", "stat", "mkdir", "unlink", "rmdir", "touch",
    "environ", "getenv", "cwd", "home", "expanduser", "resolve",
})
IO_MODULES = frozenset({
    "os", "pathlib", "io", "shutil", "subprocess", "socket", "tempfile", "glob", "urllib",
    "http", "sqlite3", "sys", "builtins",
})
# the libraries a function may import when it runs, and why: the one list of them (issue
# #30, "visible doors"). Every other import is at the top of its module.
DEFERRED: Mapping[str, str] = {
    "pandas": "heavy: loads with the club's tables, not with every build",
    "numpy": "heavy: the array tiebreaks, only on large events",
    "rich": "heavy: the progress bar, only on a terminal",
    "segno": "heavy: QR codes, only for the desk's slips",
    "babel": "heavy: dates and numbers in a language other than English",
    "openskill": "heavy: the Plackett-Luce ratings, only for multi-seat club ratings",
    "markdown": "heavy: only when a page has Markdown",
    "markupsafe._speedups": "optional: MarkupSafe's C escaping, where compiled",
    "fcntl": "platform: POSIX file locks",
    "msvcrt": "platform: Windows file locks",
    "ctypes": "platform: renameat2 where Linux has it",
    "standgen.clubs.export": "loads pandas: only ``standgen export`` needs it",
    # issue #33, start-up of a build: each only on the path that uses it
    "multiprocessing": "start-up: only when a build forks workers (standgen/builder/forked.py)",
    "concurrent.futures": "start-up: only when a build forks workers",
    "rustworkx": "start-up: the matching, only when a round is paired",
    "standgen.pairing.dutch": "start-up: the Dutch engine, only when a Swiss round is paired "
                              "or audited",
    "standgen.trf": "start-up: only for a Swiss event's TRF download",
    **{f"standgen.commands.{name}": "start-up: standgen/build.py loads it when first read "
       "(``standgen build`` does without the TRF reader)"
       for name in ("check", "export", "import_trf", "new")},
    # start-up: the CLI loads a command's modules when the command runs (``standgen
    # --help`` loads no rules; standgen/cli.py)
    **{f"standgen.{name}": "start-up: standgen/cli.py loads it when a command runs"
       for name in ("build", "eventday", "watch", "venue", "forget", "notices", "clock")},
    "standgen.cli": "start-up: standgen/entry.py keeps Python's bytecode first, then loads "
                    "the command line (the one module compiled in every process)",
}
# modules another change will clean (issue #33 owns them); the test fails once one is
# clean, so that its line goes too
PENDING_DEFERRED = ("standgen/builder/core.py", "standgen/site/club_meta.py",
                    "standgen/site/club_pages.py", "standgen/site/club_ratings.py")
DYNAMIC = frozenset({"import_module", "__import__"})
UNREADABLE = "?"  # the target of a dynamic import whose name is not a literal


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Return every module of the package by dotted name."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _dynamic_target(node: ast.Call) -> str | None:
    """Return the module a call imports dynamically (:data:`UNREADABLE` if not a literal)."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in DYNAMIC:
        return None
    first = node.args[0] if node.args else None
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return UNREADABLE


def imports(name: str, path: Path, known: Mapping[str, Path]) -> Iterator[tuple[str, int]]:
    """Yield (module, line) for every standgen module that ``name`` imports, anywhere.

    A dynamic import whose name is not a literal yields :data:`UNREADABLE`.
    """
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
        elif isinstance(node, ast.Call) and (dynamic := _dynamic_target(node)) is not None:
            if dynamic == UNREADABLE:
                yield UNREADABLE, node.lineno
                continue
            targets = [dynamic]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target.startswith("standgen") and target != name:
                yield target, node.lineno


def floor_of(name: str) -> str | None:
    """Return the floor of a module: that of its longest prefix in :data:`FLOORS`."""
    if name == "standgen":
        return FLOORS[name]
    probe = name
    while probe != "standgen" and probe:
        if probe in FLOORS:
            return FLOORS[probe]
        probe = probe.rpartition(".")[0]
    return None


def graph(package: Path = PACKAGE) -> dict[str, dict[str, int]]:
    """Return module -> {imported module: first line} for the whole package."""
    known = modules(package)
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


def package_edges(edges: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """Return the graph between the top-level parts of standgen (``standgen.site``, ...).

    Two modules of different parts that import each other only through modules of those
    parts are a cycle here, though no module imports itself.
    """
    def part(name: str) -> str:
        return ".".join(name.split(".")[:2])

    collapsed: dict[str, dict[str, int]] = {}
    for name, targets in edges.items():
        mine = collapsed.setdefault(part(name), {})
        for target, line in targets.items():
            if part(target) != part(name) and target != UNREADABLE and name != "standgen":
                mine.setdefault(part(target), line)
    return collapsed


def unfloored(package: Path = PACKAGE) -> list[str]:
    """Return the modules that have no floor."""
    return [name for name in modules(package) if floor_of(name) is None]


def upward(package: Path = PACKAGE) -> list[str]:
    """Return ``path:line: ...`` for every import that goes up a floor or cannot be read."""
    known = modules(package)
    found = []
    for name, targets in graph(package).items():
        mine = ORDER.index(floor_of(name) or "cli")
        where = known[name].relative_to(package.parent)
        for target, line in targets.items():
            if target == UNREADABLE:
                found.append(f"{where}:{line}: {name} imports a module by a name the "
                             "floors test cannot read; import it by its literal name")
                continue
            theirs = ORDER.index(floor_of(target) or "cli")
            if theirs > mine:
                found.append(f"{where}:{line}: {name} ({ORDER[mine]}) imports {target} "
                             f"({ORDER[theirs]})")
    return found


def io_on_pure_floors(package: Path = PACKAGE) -> list[str]:
    """Return ``path:line: ...`` for each file, folder or environment access below pipeline."""
    found = []
    for name, path in modules(package).items():
        if floor_of(name) not in PURE_FLOORS:
            continue
        where = path.relative_to(package.parent)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            what = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                what = node.func.id if node.func.id in IO_CALLS else None
            elif isinstance(node, ast.Attribute) and node.attr in IO_ATTRIBUTES:
                what = node.attr
            elif isinstance(node, ast.Import | ast.ImportFrom):
                heads = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if not node.level else [])
                what = next((h for h in heads if h.split(".")[0] in IO_MODULES), None)
            if what:
                found.append(f"{where}:{node.lineno}: {name} ({floor_of(name)}) does I/O "
                             f"({what}); hand it the value from the pipeline floor")
    return found


def imports_in_functions(package: Path = PACKAGE) -> list[str]:
    """Return ``path:line: module`` for each import inside a function that is not of a
    :data:`DEFERRED` library."""
    found = []
    for path in modules(package).values():
        where = path.relative_to(package.parent)
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    heads = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):  # ``from a import b``: a.b
                    module = ("." * node.level) + (node.module or "")
                    heads = [f"{module}.{alias.name}" for alias in node.names]
                else:
                    continue
                found.extend(f"{where}:{node.lineno}: {head}" for head in heads
                             if not any(head == lib or head.startswith(lib + ".")
                                        for lib in DEFERRED))
    return sorted(set(found))


def test_every_module_has_a_floor() -> None:
    assert unfloored() == [], f"give these modules a floor in FLOORS: {unfloored()}"


def test_no_import_goes_up_a_floor() -> None:
    found = upward()
    assert found == [], "\n".join(found)


def test_no_import_cycle() -> None:
    assert cycles(graph()) == []


# package cycles another change will break, each with the reason it is still here; the
# test fails once one is gone, so that its line goes too
PENDING_PACKAGE_CYCLES: tuple[list[str], ...] = ()


def test_no_package_cycle() -> None:
    found = cycles(package_edges(graph()))
    assert [c for c in found if c not in PENDING_PACKAGE_CYCLES] == []
    gone = [c for c in PENDING_PACKAGE_CYCLES if c not in found]
    assert gone == [], f"no longer a cycle: remove {gone} from PENDING_PACKAGE_CYCLES"


def test_no_io_on_the_model_and_rules_floors() -> None:
    found = io_on_pure_floors()
    assert found == [], "\n".join(found)


def test_imports_inside_functions_are_only_of_deferred_libraries() -> None:
    found = imports_in_functions()
    assert [f for f in found if not f.startswith(PENDING_DEFERRED)] == []
    clean = [p for p in PENDING_DEFERRED if not any(f.startswith(p) for f in found)]
    assert clean == [], f"no import inside a function left: remove {clean} from PENDING"


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


# planted faults: each check must find its fault in a copy of the package


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a copy of the package's sources (no compiled files), made once."""
    copy = tmp_path_factory.mktemp("pristine") / "standgen"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so",
                                                                 "*.c", "*.pyi"))
    return copy


@pytest.fixture()
def copy(pristine: Path, tmp_path: Path) -> Path:
    """Return a fresh copy of the package to plant a fault in."""
    target = tmp_path / "standgen"
    shutil.copytree(pristine, target)
    return target


def _plant(package: Path, module: str, text: str) -> None:
    """Append ``text`` to a module of the copy (``records.py``, ``site/links.py``...)."""
    path = package / module
    path.write_text(path.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")


def test_the_copy_is_clean(pristine: Path) -> None:
    assert upward(pristine) == upward()
    assert unfloored(pristine) == []


@pytest.mark.parametrize("text", [
    'import importlib\n\ndef f():\n    return importlib.import_module("standgen.site.links")',
    'from importlib import import_module\nX = import_module("standgen.build")',
    'def f():\n    return __import__("standgen.site.links")',
    'import importlib\nNAME = "standgen." + "site"\nX = importlib.import_module(NAME)',
])
def test_a_planted_dynamic_import_upward_fails(copy: Path, text: str) -> None:
    _plant(copy, "records.py", text)
    assert any(line.startswith("standgen/records.py:") for line in upward(copy))


def test_a_planted_package_cycle_without_a_module_cycle_fails(copy: Path) -> None:
    (copy / "tiebreaks" / "planted_a.py").write_text("from standgen.pairing import core\n")
    (copy / "pairing" / "planted_b.py").write_text("from standgen.tiebreaks import base\n")
    assert not any("standgen.tiebreaks.planted_a" in c for c in cycles(graph(copy)))
    assert ["standgen.pairing", "standgen.tiebreaks"] in cycles(package_edges(graph(copy)))


@pytest.mark.parametrize("text", [
    'def f(path):\n    return open(path).read()',
    'from pathlib import Path\n\ndef f(path):\n    return Path(path).read_text()',
    'def f(path):\n    return path.read_bytes()',
    'def f(path):\n    return path.exists()',
    'import os\nDEBUG = os.environ.get("DEBUG")',
    'from os import environ\nDEBUG = environ.get("DEBUG")',
])
def test_planted_io_on_the_rules_floor_fails(copy: Path, text: str) -> None:
    _plant(copy, "formats/swiss.py", text)
    assert any(line.startswith("standgen/formats/swiss.py:")
               for line in io_on_pure_floors(copy))


def test_io_on_the_pipeline_floor_is_allowed(copy: Path) -> None:
    _plant(copy, "pipeline.py", 'def f(path):\n    return open(path).read()')
    assert not any("pipeline.py" in line for line in io_on_pure_floors(copy))


def test_a_planted_import_inside_a_function_fails(copy: Path) -> None:
    _plant(copy, "audit.py", "def f():\n    from standgen import records\n    return records")
    _plant(copy, "site/qr.py", "def g():\n    import numpy\n    return numpy")
    found = imports_in_functions(copy)
    assert any(f.startswith("standgen/audit.py:") and f.endswith("standgen.records") for f in found)
    assert not any(f.startswith("standgen/site/qr.py:") and "numpy" in f for f in found)


def test_a_planted_module_without_a_floor_fails(copy: Path) -> None:
    (copy / "helpers.py").write_text('"""A module nobody gave a floor."""\n')
    assert unfloored(copy) == ["standgen.helpers"]
