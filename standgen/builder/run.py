"""One build's shared record (:class:`Run`) and what a scope is (:class:`Scope`): the
scopes of :mod:`standgen.builder.scopes` each take the run, make their part of the site
and hand their results to the scopes after them through it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from standgen.builder.record import Progress
from standgen.builder.writers import Changes, StagingWriter
from standgen.buildstate import BuildState, EventPath, Stored
from standgen.clubs.games import EventGames
from standgen.clubs.summary import ClubKept
from standgen.errors import Problem
from standgen.load import Found
from standgen.site.renderer import SiteRenderer
from standgen.site.summary import EventSummary

Join = Callable[[], None]  # waits for a scope's forked work and takes its results in


@dataclass
class Run:
    """One build: what it reads, where it writes, and what its scopes hand each other.

    A full build (``whole``) writes into a :class:`StagingWriter`; an incremental one
    into :class:`Changes` of the live site, with the build state of the last build
    (``state``, ``stored``) and the event folders ``changed`` and ``removed`` since.
    """

    found: Found
    prints: Sequence[str]  # each event folder's fingerprint, in ``found.folders`` order
    renderer: SiteRenderer
    writer: StagingWriter | Changes
    progress: Progress | None
    jobs: int
    whole: bool
    optimised: bool = True
    stored: Mapping[EventPath, Stored] = field(default_factory=dict)
    changed: Sequence[int] = ()
    removed: Sequence[EventPath] = ()
    state: BuildState | None = None
    # the event scope's results: every event's summary and games (a full build), or
    # those of the events loaded again (an incremental one); the problems of every event
    summaries: dict[EventPath, EventSummary] = field(default_factory=dict)
    games: dict[EventPath, EventGames] = field(default_factory=dict)
    saved: list[tuple[str, EventSummary | None, Sequence[Problem]]] = field(default_factory=list)
    problems: Sequence[Problem] = ()
    # the club scope's: the club pages' paths and the numbers to keep (when made again)
    club: Iterable[str] | None = None
    kept: ClubKept | None = None
    # called after each scope an incremental build updated (``standgen watch`` commits
    # the events' own pages first)
    updated: Callable[[Scope], None] | None = None
    # ``standgen watch``: commits the files written so far (an incremental build's round
    # pages of a result typed in, before the event's other pages), and the input files
    # it saw change (their rounds' pages go first)
    early: Callable[[], None] | None = None
    touched: frozenset[Path] = frozenset()

    @property
    def root(self) -> Path:
        return Path(self.renderer.site.tree.root)

    def tell(self, stage: str, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(stage, done, total)

    def the_state(self) -> BuildState:
        if self.state is None:
            raise RuntimeError("an incremental build without its build state")
        return self.state

    def listing(self) -> list[EventSummary]:
        """Every event's summary (a full build), or its head at least (an incremental
        one: :meth:`heads`), in the events' order."""
        return list(self.summaries.values()) if self.whole else self.heads()

    def heads(self) -> list[EventSummary]:
        """Every event's summary: the new one of an event loaded again, else the head the
        state kept (an incremental build)."""
        return [self.summaries.get(slugs) or self.stored[slugs].head
                for _, slugs in self.found.folders]


class Scope:
    """A part of the site: its page types (``depends`` in the page registry), what it
    reads (``reads``: the scopes whose results it needs first), and how it is made."""

    name: ClassVar[str]
    reads: ClassVar[frozenset[str]] = frozenset()

    def whole(self, run: Run) -> Join | None:
        """Make every page of the scope (a full build); return a join when the work goes
        on in forked processes."""
        raise NotImplementedError

    def update(self, run: Run) -> None:
        """Make again the pages of the scope that the changes made stale (an incremental
        build), and remove those gone."""
        raise NotImplementedError
