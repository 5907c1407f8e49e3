"""Work done by forked worker processes: the full build's events and history pages.

The one door to the workers. A job's shared inputs (the renderer with its compiled
templates, the events found, the staging writer) are far too large to pickle for each
task, so the workers inherit them: :class:`Forked` puts them in :data:`_SHARED` just
before the pool forks, and each task runs ``job(shared, item)`` with them
(:func:`_run`). Nothing else reads :data:`_SHARED`, and it is emptied when the pool
closes.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future

S = TypeVar("S")
R = TypeVar("R")

_SHARED: list[Any] = []  # the open pool's shared inputs, as the workers inherit them


def _run(job: Callable[[Any, Any], Any], item: Any) -> Any:
    """Run ``job`` on ``item`` with the shared inputs the worker inherited."""
    return job(_SHARED[-1], item)


class Forked(Generic[S]):
    """A pool of ``workers`` forked processes that inherit ``shared``.

    Submit every task at once (:meth:`map`): the workers fork at the first submission,
    with the garbage collector's objects frozen meanwhile, so the workers' collections
    leave the objects they share with this process alone (no copy-on-write of their
    pages; Python's ``gc.freeze`` documentation). Close it (:meth:`close`, also on an
    error) when the results are in.
    """

    def __init__(self, shared: S, workers: int) -> None:
        # imported here: a build that forks no workers (an incremental build of one
        # event, the demo) does without multiprocessing's start-up (about 15 ms)
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        if _SHARED:
            raise RuntimeError("one forked pool at a time")
        _SHARED.append(shared)
        self._pool = ProcessPoolExecutor(max_workers=workers,
                                         mp_context=multiprocessing.get_context("fork"))

    def map(self, job: Callable[[S, R], Any], items: Iterable[R]) -> list[Future[Any]]:
        """Submit ``job(shared, item)`` for every item; return the futures, in order."""
        gc.freeze()
        try:
            return [self._pool.submit(_run, job, item) for item in items]
        finally:
            gc.unfreeze()  # the workers have forked (at the first submission)

    def close(self) -> None:
        """Wait for the workers to end (cancelling tasks not started) and forget the
        shared inputs."""
        try:
            self._pool.shutdown(wait=True, cancel_futures=True)
        finally:
            _SHARED.clear()
