"""A bounded memo: the one cache of computed values in standgen (issue #30).

A module that keeps values it has computed (the records over an event's rounds, a parsed
band table, a formatted number, an event's Diplomacy tables) keeps them in a
:class:`Memo` of a fixed size that forgets its oldest entry first. A memo is an
optimisation that must not change output: :func:`standgen.perf.straightforward` turns
every memo off (:func:`off`), so the reference code paths compute every value again.
It sits on the ground floor so that the rules may use it; the rules never read
:mod:`standgen.perf`, which flips the switch here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_on = [True]


def enabled() -> bool:
    """Return whether memos keep values (the default)."""
    return _on[0]


@contextmanager
def off() -> Iterator[None]:
    """Run the block with every memo off: each value computed when asked."""
    before = _on[0]
    _on[0] = False
    try:
        yield
    finally:
        _on[0] = before


class Memo(Generic[K, V]):
    """Return values by key, computing each once; at most ``size`` are kept, the oldest
    forgotten first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._table: dict[K, V] = {}

    def get(self, key: K, make: Callable[[], V]) -> V:
        """Return the value kept for ``key``, else ``make()`` (kept while memos are on)."""
        if not _on[0]:
            return make()
        table = self._table
        if key in table:
            return table[key]
        value = make()
        self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key`` (nothing while memos are off)."""
        if not _on[0]:
            return
        table = self._table
        table.pop(key, None)
        if len(table) >= self.size:
            del table[next(iter(table))]
        table[key] = value

    def clear(self) -> None:
        """Forget every value."""
        self._table.clear()
