"""The switch behind every optimisation that must not change output.

Memoised tiebreak work, the records fast path, parallel rendering and incremental
writes all check :func:`enabled`; :func:`straightforward` turns them off, so a test can
build the same events both ways and compare the bytes
(``tests/test_performance_equivalence.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_state = {"enabled": True}


def enabled() -> bool:
    """Return whether optimisations are on (the default)."""
    return _state["enabled"]


@contextmanager
def straightforward() -> Iterator[None]:
    """Run the block with every optimisation off: the unoptimised reference code paths."""
    before = _state["enabled"]
    _state["enabled"] = False
    try:
        yield
    finally:
        _state["enabled"] = before
