"""The compiled matching (``standgen/pairing/_blossom.c``) against the Python class it
translates (``IncrementalMatching``): after every solve the same matching, the same
duals, the same blossoms and the same tight pairs, so the Dutch engine reads the same
decisions off either (issue #33). Random graphs with ties, weights past 600 bits,
zero and negative weights, removed vertices, ``keep_tight`` and a primed group."""

from __future__ import annotations

import os
import random

import pytest

from standgen.pairing import blossom
from standgen.pairing.blossom import IncrementalMatching

compiled = pytest.mark.skipif(not blossom.compiled_available() and not os.environ.get("CI"),
                              reason="the C extension was not built (no compiler)")


def test_the_extension_is_built_in_ci() -> None:
    """CI installs with a compiler: the compiled matching must be there."""
    if os.environ.get("CI"):
        assert blossom.compiled_available()


def test_without_the_extension_the_python_class_is_used(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.setattr(blossom, "_compiled", None)
    assert isinstance(blossom.incremental_matching(10), IncrementalMatching)
    assert isinstance(blossom.incremental_matching(10, compiled=False), IncrementalMatching)


def _same_state(py: IncrementalMatching, c: blossom.Matcher, n: int) -> None:
    from standgen.pairing._blossom import Matching
    assert isinstance(c, Matching)
    assert py.dual == c.duals()
    assert (py.inblossom, py.parent, py.base, py.scale) == c.structure()
    assert py.positive_blossoms() == c.positive_blossoms()
    for u in range(n):
        for v in range(u + 1, n):
            assert py.tight(u, v) == c.tight(u, v)


@compiled
@pytest.mark.parametrize("seed", range(8))
def test_compiled_matching_takes_the_same_steps(seed: int) -> None:
    rnd = random.Random(seed)
    for case in range(25):
        n = rnd.randint(2, 30)
        py = IncrementalMatching(n)
        c = blossom.incremental_matching(n)
        py.keep_tight = c.keep_tight = rnd.random() < 0.7
        if rnd.random() < 0.5:
            prime = sorted(rnd.sample(range(n), rnd.randint(1, n)))
            py.prime, c.prime = list(prime), list(prime)
        # a few values, as the Dutch engine's weights per kind of player: ties and blossoms
        values = [rnd.randint(1, 30) * (1 << rnd.choice([0, 64, 600])) + rnd.randint(0, 3)
                  for _ in range(rnd.randint(1, 6))]

        def weight(values: list[int] = values) -> int:
            r = rnd.random()
            if r < 0.1:
                return 0
            if r < 0.13:
                return -rnd.randint(1, 5)
            return rnd.choice(values) + rnd.choice([0, 0, 0, 1, 2, 3])

        pairs = [(u, v, weight()) for v in range(n) for u in range(v) if rnd.random() < 0.9]
        py.load(pairs)
        c.load(pairs)
        removed: set[int] = set()
        for step in range(8):
            if step:
                for _ in range(rnd.randint(1, 3)):
                    u = rnd.randrange(n)
                    if u in removed:
                        continue
                    for v in range(n):
                        if v != u and v not in removed and rnd.random() < 0.6:
                            w = weight()
                            py.set_weight(u, v, w)
                            c.set_weight(u, v, w)
                if rnd.random() < 0.4 and len(removed) < n - 1:
                    gone = rnd.choice([v for v in range(n) if v not in removed])
                    py.remove(gone)
                    c.remove(gone)
                    removed.add(gone)
            assert py.solve() == c.solve(), (seed, case, step)
            _same_state(py, c, n)


@compiled
def test_compiled_matching_widens_its_numbers() -> None:
    """Weights set after the first solve may need more limbs than the first ones."""
    py, c = IncrementalMatching(4), blossom.incremental_matching(4)
    for m in (py, c):
        m.load([(0, 1, 3), (1, 2, 5), (2, 3, 3)])
    assert py.solve() == c.solve()
    for m in (py, c):
        m.set_weight(1, 2, 1 << 3000)
        m.set_weight(0, 3, (1 << 3000) + 1)
    assert py.solve() == c.solve() == [3, 2, 1, 0]
    _same_state(py, c, 4)
