"""The switch behind every optimisation that must not change output.

Read by the pipeline and the build floor (the builder and the output folder), never by
the rules or the site:
the pipeline passes :func:`enabled` down to the standings as a parameter
(``compute_standings(event, fast=...)``, which the tiebreak ``Context`` carries:
memoised tiebreak work, shared records, the tiebreaks' fast paths); parallel rendering
and incremental writes check it themselves. :func:`straightforward` turns them off, so
a test can build the same events both ways and compare the bytes
(``tests/test_performance_equivalence.py``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

from standgen import memo

_state = {"enabled": True, "in_place": True}


def enabled() -> bool:
    """Return whether optimisations are on (the default)."""
    return _state["enabled"]


def in_place() -> bool:
    """Return whether an incremental build puts a page whose place in a rating list
    alone moved right in place, a few bytes written over the old ones
    (:meth:`standgen.builder.writers.Changes.patch`), instead of writing the page whole:
    on unless optimisations are off or within :func:`whole_pages`."""
    return _state["enabled"] and _state["in_place"]


@contextmanager
def whole_pages() -> Iterator[None]:
    """Run the block with every changed page written whole (:func:`in_place` off), the
    other optimisations as they are: an incremental build still runs, so a test can
    compare its site both ways."""
    before = _state["in_place"]
    _state["in_place"] = False
    try:
        yield
    finally:
        _state["in_place"] = before


@contextmanager
def straightforward() -> Iterator[None]:
    """Run the block with every optimisation off: the unoptimised reference code paths
    (every :class:`standgen.memo.Memo` computes each value again)."""
    before = _state["enabled"]
    _state["enabled"] = False
    try:
        with memo.off():
            yield
    finally:
        _state["enabled"] = before


@contextmanager
def collector_paused(*, freeze: bool = False) -> Iterator[None]:
    """Run the block with Python's cyclic garbage collector paused (if it was running).

    Ranking a large event allocates hundreds of thousands of small objects that live
    until the standings are dropped; each allocation burst triggers collections that
    walk every object already alive (the event's games and entries), which doubled the
    time of the 4,096-player standings. Reference counting still frees what dies; the
    few cycles made meanwhile (a lazy breakdown holds its context) wait for the next
    collection after the block. Nested use is harmless; with optimisations off it does
    nothing. ``freeze``: the objects alive at the block's end are frozen (:func:`start_up`).
    """
    if not enabled() or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        gc.enable()


def start_up() -> AbstractContextManager[None]:
    """Import a command's modules in the block: with the cyclic garbage collector paused,
    then the objects made so far (modules, classes, functions: nearly all alive until
    the process ends) frozen out of its reach (``gc.freeze``).

    Importing ``standgen.build`` makes some 55,000 tracked objects; the collections they
    set off walked them about 70 times (11 ms of a 160 ms start-up), and every later
    full collection would walk them again. A cycle freed meanwhile is never collected (a
    few hundred bytes at start-up). With optimisations off it does nothing.
    """
    return collector_paused(freeze=True)
