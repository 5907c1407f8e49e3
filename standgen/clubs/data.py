"""The club's data, made once per build or export (issue #20): the archive's tidy games
table (:mod:`standgen.clubs.games`) with each chess game's FIDE rating change, the events
left out of the ratings (``rated = false``), and the site's OpenSkill ratings, computed
when first asked for (:mod:`standgen.clubs.ratings`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property

import pandas as pd

from standgen.clubs.games import EventGames, event_games, frame_of
from standgen.clubs.ratings import fide_changes, openskill_ratings
from standgen.model import EventsTree
from standgen.pipeline import EventReport


class ClubData:
    """The archive's games (the tidy table with each chess game's FIDE rating change),
    the events left out of the ratings and every player of every event (by id, with a
    name: those without a game too); the ratings are computed when first asked for."""

    def __init__(self, games: pd.DataFrame, opted_out: Iterable[str] = (),
                 fast: bool = True, people: Mapping[str, str] | None = None) -> None:
        self.games = games
        self.opted_out = tuple(sorted(opted_out))
        self.fast = fast  # the ratings' fast path (standgen.perf's switch, passed down)
        self.people = dict(people) if people is not None else self.names

    @cached_property
    def ratings(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Return (the rating list, each rated row's change): :func:`openskill_ratings`."""
        return openskill_ratings(self.games, self.opted_out, self.fast)

    @cached_property
    def names(self) -> dict[str, str]:
        """Return each player's name by id (as their last row, events by folder, spells it)."""
        return dict(zip(self.games["player"].tolist(), self.games["name"].tolist(),
                        strict=True))

    def within(self, path: Sequence[str]) -> ClubData:
        """Return the data of the events in the folder ``path`` (all of it for ``()``)."""
        if not path:
            return self
        prefix = "/".join(path) + "/"
        return ClubData(self.games[self.games["event"].str.startswith(prefix)],
                        self.opted_out, self.fast, self.people)


def club_data(reports: Iterable[EventReport], tree: EventsTree, fast: bool = True
              ) -> ClubData:
    """Return the club data of the events' reports (the games table is built once)."""
    return club_data_of([event_games(made, tree.seasons) for made in reports], fast)


def club_data_of(parts: Sequence[EventGames], fast: bool = True) -> ClubData:
    """Return the club data of each event's part of the games table
    (:func:`standgen.clubs.games.event_games`: what a build can keep between builds)."""
    games = frame_of(parts)
    games["fide_change"] = fide_changes(games)
    people = {pid: name for part in sorted(parts, key=lambda p: p.head[0])
              for pid, name in part.players}
    return ClubData(games, [p.head[0] for p in parts if not p.rated], fast, people)
