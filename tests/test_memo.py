"""The one bounded memo (standgen.memo): kept values, the oldest forgotten first, none
kept under perf.straightforward()."""

from __future__ import annotations

import ast
from pathlib import Path

from standgen import perf
from standgen.memo import Memo

PACKAGE = Path(__file__).resolve().parent.parent / "standgen"
# module-level tables that are no cache, and why
NOT_CACHES = {
    "standgen/roundfile/edit.py": "_THREAD_LOCKS, a lock per round file: one forgotten while "
                             "held would let two writers in",
    "standgen/builder/forked.py": "_SHARED, the open pool's inputs the forked workers "
                                  "inherit: set and emptied by Forked only",
}
# module-level tables another change will move (the test fails once one is gone):
PENDING = {
    "standgen/site/contexts.py": "_SHOWN, the shown names of an event (the site's page "
                                 "contexts change with issue #32)",
}


def test_a_memo_keeps_at_most_its_size_and_forgets_the_oldest() -> None:
    made: list[int] = []
    memo: Memo[int, int] = Memo(2)

    def square(n: int) -> int:
        return memo.get(n, lambda: made.append(n) or n * n)

    assert [square(2), square(3), square(2)] == [4, 9, 4]
    assert made == [2, 3]
    square(4)  # forgets 2, the oldest
    assert square(3) == 9 and made == [2, 3, 4]
    assert square(2) == 4 and made == [2, 3, 4, 2]


def test_straightforward_turns_every_memo_off() -> None:
    made: list[int] = []
    memo: Memo[str, int] = Memo(4)
    with perf.straightforward():
        memo.get("a", lambda: made.append(1) or 1)
        memo.get("a", lambda: made.append(1) or 1)
    assert made == [1, 1]
    memo.get("a", lambda: made.append(1) or 1)
    memo.get("a", lambda: made.append(1) or 1)
    assert made == [1, 1, 1]


def test_no_module_keeps_a_hand_made_cache() -> None:
    """A module-level dict or list that a function fills is a cache of its own: use Memo.

    Found by its shape: a module-level name bound to ``{}`` or ``[]`` (annotated or not)
    that a function of the module assigns into, appends or inserts to.
    """
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        empties = set()
        for node in tree.body:
            target, value = ((node.target, node.value) if isinstance(node, ast.AnnAssign)
                             else (node.targets[0], node.value) if isinstance(node, ast.Assign)
                             else (None, None))
            if (isinstance(target, ast.Name) and isinstance(value, ast.Dict | ast.List)
                    and not (value.keys if isinstance(value, ast.Dict) else value.elts)):
                empties.add(target.id)
        for node in ast.walk(tree):
            filled = None
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
                filled = node.value
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("append", "insert", "setdefault", "update")):
                filled = node.func.value
            if isinstance(filled, ast.Name) and filled.id in empties:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {filled.id}")
    assert [f for f in found if not f.startswith((*PENDING, *NOT_CACHES))] == []
    gone = [p for p in PENDING if not any(f.startswith(p) for f in found)]
    assert gone == [], f"remove {gone} from PENDING"
