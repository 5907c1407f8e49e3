"""What the club's pages share (issue #20): their scopes (the whole site, or one season),
their output paths, the score shares with their intervals, and how numbers and rows are
read from the club's tables.

The pages of a scope live below the reserved ``archive/`` folder, so no event or season
folder can take their names: ``archive[/<season>]/ratings/``, ``archive[/<season>]/
meta-<format>/``; a player's rating history is ``players/<id>/ratings/``. Sources:
OpenSkill (openskill.py documentation: ``PlackettLuce``, ``ordinal``), Wilson (1927).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from standgen.clubs.intervals import wilson
from standgen.model import EventsTree, Season
from standgen.site import links
from standgen.site.contexts import Site
from standgen.site.i18n import _
from standgen.site.numbers import json_number

if TYPE_CHECKING:  # pandas loads when a club page is made, not with every build
    import pandas as pd

SMALL_SAMPLE = 10  # fewer games than this: the share is shown greyed, with its n
MODEL = ("OpenSkill Plackett-Luce (openskill package defaults: mu 25, sigma 25/3, "
         "beta 25/6, tau 25/300); rating = mu - 3 sigma")


@dataclass(frozen=True)
class Scope:
    """What a list covers: the whole site (``path`` empty) or one season's folder."""

    path: tuple[str, ...]
    name: str


def scopes(tree: EventsTree) -> tuple[Scope, ...]:
    """Return the site's scope and each season's (a season at the events root is the
    site itself)."""
    return (Scope((), "All events"),
            *(Scope(s.path, s.name) for s in tree.seasons if s.path))


def season_scope(season: Season) -> Scope:
    """Return the scope of a season's pages."""
    return Scope(season.path, season.name)


def ratings_path(scope: Sequence[str]) -> str:
    """Return the output path of a scope's rating list."""
    return links.page("archive", *scope, "ratings")


def meta_path(scope: Sequence[str], fmt: str) -> str:
    """Return the output path of a scope's meta page of the format ``fmt``."""
    return links.page("archive", *scope, f"meta-{fmt}")


def player_ratings_path(player: str) -> str:
    """Return the output path of a player's rating history (ids are validated slugs)."""
    return links.page("players", player, "ratings")


def json_beside(path: str, name: str) -> str:
    """Return the output path of the JSON file ``name`` beside the page at ``path``."""
    return path.rpartition("/")[0] + "/" + name


def signed(value: float, digits: int = 2) -> str:
    """Return a rating change for a page, to ``digits`` places: ``+1.25``, ``-0.40``,
    ``0.00`` (never ``-0.00``)."""
    rounded = round(value, digits)
    if rounded == 0:
        return f"{0:.{digits}f}"
    return f"{rounded:+.{digits}f}"


def rows_of(frame: pd.DataFrame, columns: str) -> Iterator[Any]:
    """Yield ``frame``'s rows as named tuples of the space-separated ``columns``: as
    ``itertuples``, but a column at a time (``tolist``), not an Arrow string a time."""
    row = namedtuple("row", columns.split())  # type: ignore[misc]
    return map(row._make, zip(*(frame[c].tolist() for c in columns.split()), strict=True))


# ----- shares: a score share and how sure we are of it --------------------------------------

@dataclass(frozen=True)
class Share:
    """A score share (a draw half a win) over ``games``, with its 95 % Wilson interval."""

    games: int
    score: float
    low: float
    high: float

    @property
    def text(self) -> str:
        return f"{round(100 * self.score)}%"

    @property
    def interval(self) -> str:
        return f"{round(100 * self.low)}–{round(100 * self.high)}%"

    @property
    def small(self) -> bool:
        return self.games < SMALL_SAMPLE

    @property
    def shade(self) -> str:
        """Return the share's step on the matrix's colour scale: ``lo2`` (35% or less)
        ``lo1``, ``mid`` (45-55%), ``hi1``, ``hi2`` (65% or more)."""
        for bound, step in ((0.35, "lo2"), (0.45, "lo1"), (0.55, "mid"), (0.65, "hi1")):
            if self.score < bound or (step == "mid" and self.score <= bound):
                return step
        return "hi2"

    def document(self) -> dict[str, Any]:
        return {"games": self.games, "score": json_number(self.score),
                "low": json_number(self.low), "high": json_number(self.high)}


def share(points: float, games: int) -> Share:
    """Return the share of ``points`` in ``games`` with its Wilson (1927) interval."""
    low, high = wilson(points, games)
    return Share(games, points / games if games else 0.0, low, high)


def crumbs(scope: Scope, site: Site) -> list[tuple[str, str]]:
    """Return the breadcrumbs of a scope's page: its season's page, or the archive."""
    if scope.path:
        season = next((s for s in site.tree.seasons if s.path == scope.path), None)
        if season is not None:
            return [(season.name, links.season_page(season.path))]
    return [(_("Archive"), links.page("archive"))]  # the archive page (site.history.ARCHIVE)


def formats_played(games: pd.DataFrame) -> list[str]:
    """Return the formats of the games played over the board, by id."""
    return sorted(games.loc[games["kind"] == "played", "format"].unique().tolist())

