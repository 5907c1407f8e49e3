"""The club's pages (issue #20): rating lists, the meta of each format, each player's
rating history, and the JSON published beside each.

Every page is a pure function of :class:`ClubData` (the archive's tidy games table,
:mod:`standgen.clubs`) to a frozen context; numbers are formatted here, templates only
lay them out. The pages of a scope (the whole site, or one season) live below the
reserved ``archive/`` folder, so no event or season folder can take their names:

- ``archive/ratings/index.html``, ``archive/<season>/ratings/index.html``: the OpenSkill
  rating list (``ratings.json`` beside it);
- ``archive/meta-<format>/index.html``, ``archive/<season>/meta-<format>/index.html``:
  the format's meta (``meta.json`` beside it);
- ``players/<id>/ratings/index.html``: a player's rating change in every rated game and
  their rating history chart (``ratings.json`` beside it).

A season's list rates the season's own events from the start (every player at the
package's default rating); the site's list and the players' pages rate every event.
Sources: OpenSkill (openskill.py documentation: ``PlackettLuce``, ``ordinal``), FIDE
Rating Regulations B.02 (art. 8.1.2, 8.3), Wilson (1927) for the intervals.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
from markupsafe import Markup

from standgen.clubs.data import ClubData, club_data
from standgen.clubs.meta import board_matchups, faction_table, matchups, wilson
from standgen.clubs.ratings import fide_expected
from standgen.formats import FORMATS
from standgen.formats.mcmahon.scoring import RANK, rank_value
from standgen.model import EventsTree, Season
from standgen.site import links
from standgen.site.club_charts import RatingPoint, rating_chart
from standgen.site.contexts import Frame, Link, Site, frame
from standgen.site.history import ARCHIVE, history_page_path
from standgen.site.numbers import display_number, json_number

__all__ = ["ClubData", "club_data"]  # re-exported: what a build hands the pages

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


def _rows(frame: pd.DataFrame, columns: str) -> Iterator[Any]:
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

    def document(self) -> dict[str, Any]:
        return {"games": self.games, "score": json_number(self.score),
                "low": json_number(self.low), "high": json_number(self.high)}


def share(points: float, games: int) -> Share:
    """Return the share of ``points`` in ``games`` with its Wilson (1927) interval."""
    low, high = wilson(points, games)
    return Share(games, points / games if games else 0.0, low, high)


# ----- the rating list ----------------------------------------------------------------------

@dataclass(frozen=True)
class RatingRow:
    """A player in a rating list."""

    rank: int
    id: str
    player: Link  # their history page
    rating: float
    mu: float
    sigma: float
    games: int
    last: str  # the date of their last rated game
    last_event: str  # the event they were last rated in
    last_change: float  # their rating's change over that event
    fide_rating: float | None
    fide_change: float | None

    @property
    def rating_text(self) -> str:
        return f"{self.rating:.2f}"

    @property
    def change_text(self) -> str:
        return signed(self.last_change)

    @property
    def fide_text(self) -> str:
        return "" if self.fide_rating is None else display_number(self.fide_rating)

    @property
    def fide_change_text(self) -> str:
        return "" if self.fide_change is None else signed(self.fide_change, 1)


@dataclass(frozen=True)
class RatingListPage:
    """A scope's rating list, best first, with links to the scope's meta pages."""

    frame: Frame
    scope: str
    rows: tuple[RatingRow, ...]
    fide: bool  # some player has a FIDE rating change: show the FIDE columns
    meta: tuple[Link, ...]
    json: str
    model: str = MODEL


def _crumbs(scope: Scope, site: Site) -> list[tuple[str, str]]:
    if scope.path:
        season = next((s for s in site.tree.seasons if s.path == scope.path), None)
        if season is not None:
            return [(season.name, links.season_page(season.path))]
    return [("Archive", ARCHIVE)]


def _formats(games: pd.DataFrame) -> list[str]:
    return sorted(games.loc[games["kind"] == "played", "format"].unique().tolist())


def rating_list_page(site: Site, club: ClubData, scope: Scope) -> RatingListPage:
    """Return the rating list of ``scope``: OpenSkill over the scope's rated games."""
    path = ratings_path(scope.path)
    page = frame(path, f"{scope.name} · ratings", "ratings", _crumbs(scope, site))
    data = club.within(scope.path)
    listing, changes = data.ratings
    last = _last_events(changes)
    fide = _fide_by_player(data.games)
    rows = []
    for rank, line in enumerate(_rows(listing, "player name rating mu sigma games last"), start=1):
        pid = str(line.player)
        event, change = last.get(pid, ("", 0.0))
        rating, fide_change = fide.get(pid, (None, None))
        rows.append(RatingRow(rank, pid, Link(str(line.name), page.href(history_page_path(pid))),
                              float(line.rating), float(line.mu), float(line.sigma),
                              int(line.games), str(line.last), event, change, rating,
                              fide_change))
    meta = tuple(Link(FORMATS[f].label if f in FORMATS else f,
                      page.href(meta_path(scope.path, f))) for f in _formats(data.games))
    return RatingListPage(page, scope.name, tuple(rows),
                          any(r.fide_change is not None for r in rows), meta,
                          page.href(json_beside(path, "ratings.json")))


def _last_events(changes: pd.DataFrame) -> dict[str, tuple[str, float]]:
    """Return each player's last rated event and their rating's change over it."""
    found: dict[str, tuple[str, float, float]] = {}  # player -> event, first before, after
    for event, player, before, after in zip(changes["event"].tolist(),
                                            changes["player"].tolist(),
                                            changes["before"].tolist(),
                                            changes["after"].tolist(), strict=True):
        seen = found.get(player)
        if seen is None or seen[0] != event:
            found[player] = (event, before, after)
        else:
            found[player] = (event, seen[1], after)
    return {p: (e, round(after - before, 2)) for p, (e, before, after) in found.items()}


def _fide_by_player(games: pd.DataFrame) -> dict[str, tuple[float | None, float | None]]:
    """Return each chess player's newest FIDE rating and the sum of their FIDE rating
    changes (FIDE B.02 art. 8.3) over ``games``."""
    rated = games[games["fide_change"].notna()]
    if rated.empty:
        return {}
    ordered = rated.sort_values(["date", "event", "round"], kind="stable")
    newest = ordered.groupby("player", sort=True)["rating"].last()
    total = ordered.groupby("player", sort=True)["fide_change"].sum()
    return {str(p): (float(newest[p]), round(float(total[p]), 1)) for p in newest.index}


def rating_list_document(page: RatingListPage) -> dict[str, Any]:
    """Return ``ratings.json`` of a rating list: the rows of the page, as numbers."""
    return {
        "scope": page.scope,
        "model": page.model,
        "ratings": [
            {"rank": r.rank, "id": r.id, "name": r.player.label,
             "rating": json_number(r.rating), "mu": json_number(r.mu),
             "sigma": json_number(r.sigma), "games": r.games, "last_game": r.last,
             "last_event": r.last_event, "last_change": json_number(r.last_change),
             "fide_rating": None if r.fide_rating is None else json_number(r.fide_rating),
             "fide_change": None if r.fide_change is None else json_number(r.fide_change)}
            for r in page.rows
        ],
    }


# ----- the meta of a format -----------------------------------------------------------------

@dataclass(frozen=True)
class FactionRow:
    """A faction's (Diplomacy: power's) games over the board."""

    faction: str
    wins: int
    draws: int
    losses: int
    share: Share
    solos: int
    average: float  # the points the event gave the seat, on average (Diplomacy's score)

    @property
    def average_text(self) -> str:
        return display_number(self.average)


@dataclass(frozen=True)
class MatrixCell:
    """The row faction's score share against the column faction; None: never met."""

    share: Share | None
    title: str


@dataclass(frozen=True)
class MatrixRow:
    faction: str
    cells: tuple[MatrixCell, ...]


@dataclass(frozen=True)
class BreakdownRow:
    """One line of a breakdown: a group of games and one side's results in them."""

    label: str
    wins: int
    draws: int
    losses: int
    share: Share
    expected: str = ""  # FIDE's expected score of the same side, where it applies


@dataclass(frozen=True)
class Breakdown:
    """Results grouped by what decided them: rank difference, handicap, rating, colour."""

    id: str
    caption: str  # the section's heading
    heading: str  # the first column's heading
    side: str  # the table's caption: whose results the rows count
    rows: tuple[BreakdownRow, ...]
    expected: bool = False


@dataclass(frozen=True)
class MetaPage:
    """The meta of one format in one scope."""

    frame: Frame
    scope: str
    format: str
    format_label: str
    what: str  # "Faction" or "Power"
    games: int  # games played over the board
    factions: tuple[FactionRow, ...]
    diplomacy: bool
    columns: tuple[str, ...]  # the matchup matrix's factions, by name
    matrix: tuple[MatrixRow, ...]
    breakdowns: tuple[Breakdown, ...]
    ratings: Link
    others: tuple[Link, ...]  # the scope's other formats
    json: str
    small: int = SMALL_SAMPLE


def meta_pages(site: Site, club: ClubData, scope: Scope) -> Iterator[MetaPage]:
    """Yield the meta page of every format played in ``scope``."""
    data = club.within(scope.path)
    formats = _formats(data.games)
    for fmt in formats:
        yield meta_page(site, data, scope, fmt, formats)


def meta_page(site: Site, data: ClubData, scope: Scope, fmt: str,
              formats: Sequence[str] = ()) -> MetaPage:
    """Return the meta of format ``fmt`` over ``data`` (already the scope's games)."""
    path = meta_path(scope.path, fmt)
    label = FORMATS[fmt].label if fmt in FORMATS else fmt
    page = frame(path, f"{scope.name} · {label} · meta", "meta", _crumbs(scope, site))
    games = data.games[data.games["format"] == fmt]
    played = games[games["kind"] == "played"]
    factions = _faction_rows(faction_table(games))
    columns, matrix = _matrix(games, fmt)
    return MetaPage(
        frame=page, scope=scope.name, format=fmt, format_label=label,
        what="Power" if fmt == "diplomacy" else "Faction",
        games=len(played.drop_duplicates(["event", "round", "table"])),
        factions=factions, diplomacy=fmt == "diplomacy", columns=columns, matrix=matrix,
        breakdowns=_breakdowns(played, fmt),
        ratings=Link(f"{scope.name}: rating list", page.href(ratings_path(scope.path))),
        others=tuple(Link(FORMATS[f].label if f in FORMATS else f,
                          page.href(meta_path(scope.path, f))) for f in formats if f != fmt),
        json=page.href(json_beside(path, "meta.json")),
    )


def _faction_rows(table: pd.DataFrame) -> tuple[FactionRow, ...]:
    return tuple(
        FactionRow(str(r.faction), int(r.wins), int(r.draws), int(r.losses),
                   share(int(r.wins) + 0.5 * int(r.draws), int(r.games)), int(r.solos),
                   float(r.average_points))
        for r in _rows(table, "faction wins draws losses games solos average_points"))


def _matrix(games: pd.DataFrame, fmt: str) -> tuple[tuple[str, ...], tuple[MatrixRow, ...]]:
    """Return the matchup matrix: every faction that met another in a two-player game
    (Diplomacy: every power that shared a board with another), by name, as rows and
    columns; cells the row's score share (on a board: how often it finished above the
    column's power) and its games."""
    long = board_matchups(games, fmt) if fmt == "diplomacy" else matchups(games, fmt)
    if long.empty:
        return (), ()
    names = tuple(sorted(set(long["faction"]) | set(long["against"]),
                         key=lambda n: (n.casefold(), n)))
    cells = {(str(r.faction), str(r.against)): share(float(r.score) * int(r.games),
                                                     int(r.games))
             for r in _rows(long, "faction against score games")}
    rows = []
    for faction in names:
        row = []
        for against in names:
            found = cells.get((faction, against))
            if found is None:
                row.append(MatrixCell(None, f"{faction} never met {against}"))
                continue
            row.append(MatrixCell(found, f"{faction} against {against}: {found.text} of the "
                                         f"points in {found.games} games (95% interval "
                                         f"{found.interval})"))
        rows.append(MatrixRow(faction, tuple(row)))
    return names, tuple(rows)


_SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def _breakdowns(played: pd.DataFrame, fmt: str) -> tuple[Breakdown, ...]:
    """Return the format's own breakdowns: Go by rank difference and handicap, chess by
    rating difference and colour."""
    if fmt == "mcmahon":
        return _go_breakdowns(played)
    if fmt == "swiss":
        return _chess_breakdowns(played)
    return ()


def _one_per_game(played: pd.DataFrame) -> pd.DataFrame:
    """Return each two-player game once: its first seat's row."""
    two = played[played["seats"] == 2]
    return two.drop_duplicates(["event", "round", "table"], keep="first")


def _tally(label: str, outcomes: Sequence[float], expected: str = "") -> BreakdownRow:
    wins = sum(1 for o in outcomes if o == 1.0)
    draws = sum(1 for o in outcomes if o == 0.5)
    return BreakdownRow(label, wins, draws, len(outcomes) - wins - draws,
                        share(wins + 0.5 * draws, len(outcomes)), expected)


def _go_breakdowns(played: pd.DataFrame) -> tuple[Breakdown, ...]:
    """Go: the stronger player's results by rank difference, and by handicap stones
    (ranks as OpenGotha's integers, 30k = -30 ... 9d = 8; equal ranks: the first seat)."""
    by_difference: dict[int, list[float]] = {}
    by_handicap: dict[int, list[float]] = {}
    for row in _rows(_one_per_game(played), "rank opponent_ranks outcome handicap"):
        mine, theirs = str(row.rank), str(row.opponent_ranks)
        if not (RANK.fullmatch(mine) and RANK.fullmatch(theirs)):
            continue
        difference = rank_value(mine) - rank_value(theirs)
        score = _SCORE.get(str(row.outcome), 0.0)
        stronger = score if difference >= 0 else 1.0 - score
        by_difference.setdefault(min(abs(difference), 4), []).append(stronger)
        by_handicap.setdefault(int(row.handicap), []).append(stronger)
    rows = []
    if by_difference:
        rows.append(Breakdown(
            "rank-difference", "Results by rank difference", "Rank difference",
            "The stronger player's results",
            tuple(_tally("4 or more" if d == 4 else str(d), by_difference[d])
                  for d in sorted(by_difference))))
    if by_handicap:
        rows.append(Breakdown(
            "handicap", "Results by handicap", "Handicap stones",
            "The stronger player's results",
            tuple(_tally("none" if h == 0 else str(h), by_handicap[h])
                  for h in sorted(by_handicap))))
    return tuple(rows)


_BANDS = ((0, "0–49"), (50, "50–99"), (100, "100–199"), (200, "200–299"), (300, "300–399"),
          (400, "400 or more"))


def _band(difference: float) -> int:
    return max(i for i, (low, _) in enumerate(_BANDS) if difference >= low)


def _chess_breakdowns(played: pd.DataFrame) -> tuple[Breakdown, ...]:
    """Chess: White's and Black's results, and the higher-rated player's by rating
    difference with FIDE's expected score for it (B.02 art. 8.1.2)."""
    games = _one_per_game(played)
    games = games[games["colour"] != ""]
    colours: dict[str, list[float]] = {"White": [], "Black": []}
    bands: dict[int, tuple[list[float], list[float]]] = {}
    for row in _rows(games, "outcome colour rating opponent_ratings"):
        score = _SCORE.get(str(row.outcome), 0.0)
        white = score if row.colour == "white" else 1.0 - score
        colours["White"].append(white)
        colours["Black"].append(1.0 - white)
        theirs = str(row.opponent_ratings)
        if pd.isna(row.rating) or not theirs or ";" in theirs:
            continue
        mine, other = float(row.rating), float(theirs)
        higher = score if mine >= other else 1.0 - score
        scores, expected = bands.setdefault(_band(abs(mine - other)), ([], []))
        scores.append(higher)
        expected.append(fide_expected(max(mine, other), min(mine, other)))
    found = []
    if games.shape[0]:
        found.append(Breakdown("colour", "Results by colour", "Colour", "Each colour's results",
                               tuple(_tally(c, s) for c, s in colours.items())))
    if bands:
        found.append(Breakdown(
            "rating-difference", "Results by rating difference", "Rating difference",
            "The higher-rated player's results",
            tuple(_tally(_BANDS[b][1], bands[b][0],
                         f"{round(100 * sum(bands[b][1]) / len(bands[b][1]))}%")
                  for b in sorted(bands)), expected=True))
    return tuple(found)


def meta_document(page: MetaPage) -> dict[str, Any]:
    """Return ``meta.json`` of a meta page: every table of the page, as numbers."""
    def tally(row: BreakdownRow) -> dict[str, Any]:
        return {"group": row.label, "wins": row.wins, "draws": row.draws,
                "losses": row.losses, **row.share.document()}

    return {
        "scope": page.scope,
        "format": page.format,
        "games": page.games,
        "factions": [
            {"faction": f.faction, "wins": f.wins, "draws": f.draws, "losses": f.losses,
             **f.share.document(), "solos": f.solos, "average_points": json_number(f.average)}
            for f in page.factions
        ],
        "matchups": [
            {"faction": row.faction, "against": against, **cell.share.document()}
            for row in page.matrix for against, cell in zip(page.columns, row.cells,
                                                           strict=True)
            if cell.share is not None
        ],
        "breakdowns": {b.id: [tally(r) for r in b.rows] for b in page.breakdowns},
    }


# ----- a player's rating history ------------------------------------------------------------

@dataclass(frozen=True)
class RatedGame:
    """One rated game of a player: their rating before and after it."""

    date: str
    event: Link
    round: int
    opponents: str  # names, joined with ", " (a Diplomacy board's six)
    board: bool  # more than one opponent: the names wrap
    result: str
    before: float
    after: float
    change: float
    fide_change: float | None

    @property
    def change_text(self) -> str:
        return signed(self.change)

    @property
    def fide_text(self) -> str:
        return "" if self.fide_change is None else signed(self.fide_change, 1)


@dataclass(frozen=True)
class PlayerRatingsPage:
    """A player's rating across the site: now, game by game (newest first), and a chart."""

    frame: Frame
    id: str
    name: str
    rating: str  # now, "" if never rated
    rank: str  # "3 of 40" in the site's rating list
    games: tuple[RatedGame, ...]  # every rated game, newest first (ratings.json)
    table: tuple[RatedGame, ...]  # the newest TABLE_GAMES, the page's table
    fide: bool
    chart: Markup
    history: str  # their history page
    list: str  # the site's rating list
    json: str


def player_ratings_pages(site: Site, club: ClubData) -> Iterator[PlayerRatingsPage]:
    """Yield the rating history page of every rated player, by id."""
    listing, changes = club.ratings
    games = dict(tuple(club.games.groupby("player", sort=False)))
    for pid, mine in changes.groupby("player", sort=True):
        yield player_ratings_page(site, club, str(pid), (games[pid], mine, listing))


PlayerRows = tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]  # games, changes, rating list


def player_ratings_page(site: Site, club: ClubData, pid: str,
                        rows: PlayerRows | None = None) -> PlayerRatingsPage:
    """Return player ``pid``'s rating history (``rows``: their games and rating changes
    and the site's rating list, when the caller has grouped them already)."""
    if rows is None:
        listing, everyone = club.ratings
        rows = (club.games[club.games["player"] == pid], everyone[everyone["player"] == pid],
                listing)
    games, changes, listing = rows
    path = player_ratings_path(pid)
    ranks = listing.index[listing["player"] == pid].tolist()
    name = (str(listing.at[ranks[0], "name"]) if ranks
            else str(games["name"].iloc[-1]) if len(games) else pid)
    page = frame(path, f"{name} · ratings", "ratings", [(name, history_page_path(pid))])
    rated = _rated_games(page, games, changes, club.names)
    points, unit = _chart_points(rated)
    return PlayerRatingsPage(
        frame=page, id=pid, name=name,
        rating=f"{rated[0].after:.2f}" if rated else "",
        rank=f"{ranks[0] + 1} of {len(listing)}" if ranks else "",
        games=tuple(rated), table=tuple(rated[:TABLE_GAMES]),
        fide=any(r.fide_change is not None for r in rated),
        chart=rating_chart(points, f"Rating of {name} after each {unit}", unit),
        history=page.href(history_page_path(pid)), list=page.href(ratings_path(())),
        json=page.href(json_beside(path, "ratings.json")))


def _rated_games(page: Frame, games: pd.DataFrame, changes: pd.DataFrame,
                 names: dict[str, str]) -> list[RatedGame]:
    """Return the player's rated games, newest first."""
    details = {(str(g.event), int(g.round), int(g.table)): g
               for g in _rows(games, "event round table date event_name opponents "
                              "fide_change seats result")}
    rows = []
    events: dict[str, Link] = {}
    for change in _rows(changes, "event round table before after change"):
        game = details[(str(change.event), int(change.round), int(change.table))]
        opponents = ", ".join(names.get(o, o) for o in str(game.opponents).split(";") if o)
        fide = None if pd.isna(game.fide_change) else float(game.fide_change)
        event = events.get(game.event)
        if event is None:
            event = events[game.event] = Link(str(game.event_name), page.href(
                links.page(*str(game.event).split("/"))))
        rows.append(RatedGame(
            str(game.date), event, int(game.round), opponents, int(game.seats) > 2,
            str(game.result), float(change.before), float(change.after),
            float(change.change), fide))
    rows.reverse()
    return rows


CHART_GAMES = 200  # more rated games than this: the chart has a point per event
TABLE_GAMES = 200  # the page's table lists the newest games; ratings.json has them all


def _chart_points(newest_first: Sequence[RatedGame]) -> tuple[list[RatingPoint], str]:
    """Return the rating before the first rated game, then after each game (after each
    event's last game, for more than :data:`CHART_GAMES` games), oldest first, and what
    a point is."""
    if not newest_first:
        return [], "game"
    first = newest_first[-1]
    points = [RatingPoint(f"Before {first.event.label} ({first.date})", first.before)]
    oldest_first = list(reversed(newest_first))
    if len(oldest_first) <= CHART_GAMES:
        points += [RatingPoint(f"{g.event.label}, round {g.round} ({g.date})", g.after)
                   for g in oldest_first]
        return points, "game"
    for game, following in zip(oldest_first, [*oldest_first[1:], None], strict=True):
        if following is None or following.event.href != game.event.href:
            points.append(RatingPoint(f"{game.event.label} ({game.date})", game.after))
    return points, "event"


def player_ratings_document(page: PlayerRatingsPage) -> dict[str, Any]:
    """Return ``ratings.json`` of a player: every rated game, newest first."""
    return {
        "id": page.id,
        "name": page.name,
        "model": MODEL,
        "games": [
            {"date": g.date, "event": g.event.label, "round": g.round,
             "opponents": g.opponents, "result": g.result, "before": json_number(g.before),
             "after": json_number(g.after), "change": json_number(g.change),
             "fide_change": None if g.fide_change is None else json_number(g.fide_change)}
            for g in page.games
        ],
    }


# ----- every club page of a build: (output path, context) and (output path, JSON) ----------

TEMPLATES = {"ratings": "club_ratings", "meta": "club_meta", "player": "club_player"}


def rating_lists(site: Site, club: ClubData) -> Iterator[tuple[str, RatingListPage]]:
    """Yield the rating list of the site and of every season."""
    for scope in scopes(site.tree):
        page = rating_list_page(site, club, scope)
        yield page.frame.path, page


def metas(site: Site, club: ClubData) -> Iterator[tuple[str, MetaPage]]:
    """Yield the meta page of every format of the site and of every season."""
    for scope in scopes(site.tree):
        for page in meta_pages(site, club, scope):
            yield page.frame.path, page


def player_ratings(site: Site, club: ClubData) -> Iterator[tuple[str, PlayerRatingsPage]]:
    """Yield every rated player's rating history."""
    for page in player_ratings_pages(site, club):
        yield page.frame.path, page


ClubPage = RatingListPage | MetaPage | PlayerRatingsPage


def club_json(pages: Iterable[tuple[str, ClubPage]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield the JSON document published beside each page, by its output path."""
    for path, page in pages:
        if isinstance(page, RatingListPage):
            yield json_beside(path, "ratings.json"), rating_list_document(page)
        elif isinstance(page, MetaPage):
            yield json_beside(path, "meta.json"), meta_document(page)
        else:
            yield json_beside(path, "ratings.json"), player_ratings_document(page)
