"""The club's meta pages (issue #20): per format and scope, each faction's (Diplomacy:
power's) results with their 95 % intervals, the matchup matrix, and the format's own
breakdowns (Go: rank difference and handicap; chess: colour and rating difference),
with ``meta.json`` beside each.

Sources: Wilson (1927) for the intervals; FIDE Rating Regulations B.02 art. 8.1.2 for
the expected score by rating difference; OpenGotha's rank integers for Go.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from standgen.clubs.fide import fide_expected
from standgen.clubs.intervals import wilson
from standgen.clubs.meta_sums import FormatMeta
from standgen.clubs.summary import ClubTables
from standgen.formats import FORMATS
from standgen.formats.mcmahon.scoring import RANK, rank_value
from standgen.site.club_scopes import (
    SMALL_SAMPLE,
    Scope,
    Share,
    crumbs,
    formats_played,
    json_beside,
    meta_path,
    ratings_path,
    rows_of,
    share,
)
from standgen.site.contexts import Frame, Link, Site, frame
from standgen.site.i18n import _
from standgen.site.numbers import display_number, json_number

if TYPE_CHECKING:  # pandas loads for the tidy table's reference path, not with a build
    import pandas as pd

    from standgen.clubs.data import ClubData

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

    @property
    def ranked(self) -> tuple[RankedMatchup, ...]:
        """Return every matchup once, from the side that scored at least half, the most
        one-sided first (the list phones show instead of the matrix)."""
        found = []
        for row in self.matrix:
            for against, cell in zip(self.columns, row.cells, strict=True):
                if cell.share is None or against == row.faction:
                    continue
                if cell.share.score > 0.5 or (cell.share.score == 0.5 and row.faction < against):
                    found.append(RankedMatchup(row.faction, against, cell.share))
        found.sort(key=lambda m: (-m.share.score, -m.share.games, m.faction, m.against))
        return tuple(found)


@dataclass(frozen=True)
class RankedMatchup:
    """One matchup of the ranked list: ``faction``'s score share against ``against``."""

    faction: str
    against: str
    share: Share


def meta_pages(site: Site, club: ClubData, scope: Scope) -> Iterator[MetaPage]:
    """Yield the meta page of every format played in ``scope``."""
    data = club.within(scope.path)
    formats = formats_played(data.games)
    for fmt in formats:
        yield meta_page(site, data, scope, fmt, formats)


def meta_page(site: Site, data: ClubData, scope: Scope, fmt: str,
              formats: Sequence[str] = ()) -> MetaPage:
    """Return the meta of format ``fmt`` over ``data`` (already the scope's games)."""
    from standgen.clubs.meta import faction_table

    games = data.games[data.games["format"] == fmt]
    played = games[games["kind"] == "played"]
    return _meta_page(site, scope, fmt, formats,
                      len(played.drop_duplicates(["event", "round", "table"])),
                      _faction_rows(faction_table(games)), _matrix(games, fmt),
                      _breakdowns(played, fmt))


def meta_pages_of(site: Site, tables: ClubTables, scope: Scope,
                  only: Collection[tuple[tuple[str, ...], str]] | None = None
                  ) -> Iterator[MetaPage]:
    """Yield :func:`meta_pages` from the events' summaries
    (:class:`standgen.clubs.summary.ClubTables`): the same pages, without the tidy table
    (only those of ``only``'s (scope, format), when given)."""
    formats = tables.formats(scope.path)
    for fmt in formats:
        if only is not None and (scope.path, fmt) not in only:
            continue
        yield meta_page_of(site, tables.meta(scope.path, fmt), scope, fmt, formats)


def meta_page_of(site: Site, meta: FormatMeta, scope: Scope, fmt: str,
                 formats: Sequence[str] = ()) -> MetaPage:
    """Return :func:`meta_page` from the sums of the scope's events (``meta``)."""
    factions = tuple(FactionRow(f.faction, f.wins, f.draws, f.losses,
                                share(f.wins + 0.5 * f.draws, f.games), f.solos, f.average)
                     for f in meta.factions)
    cells = {}
    for cell in meta.cells:
        low, high = wilson(cell.total, cell.games)
        cells[(cell.faction, cell.against)] = Share(cell.games, cell.score, round(low, 4),
                                                    round(high, 4))
    return _meta_page(site, scope, fmt, formats, meta.games, factions, _matrix_of(cells),
                      _breakdowns_of(meta, fmt))


def _meta_page(site: Site, scope: Scope, fmt: str, formats: Sequence[str], games: int,
               factions: tuple[FactionRow, ...],
               matrix: tuple[tuple[str, ...], tuple[MatrixRow, ...]],
               breakdowns: tuple[Breakdown, ...]) -> MetaPage:
    path = meta_path(scope.path, fmt)
    label = FORMATS[fmt].label if fmt in FORMATS else fmt
    page = frame(path, _("{scope} · {format} · meta").format(scope=_(scope.name), format=_(label)),
                 "meta", crumbs(scope, site))
    columns, rows = matrix
    return MetaPage(
        frame=page, scope=scope.name, format=fmt, format_label=label,
        what=FORMATS[fmt].faction_label if fmt in FORMATS else "Faction",
        games=games, factions=factions, diplomacy=_boards(fmt), columns=columns,
        matrix=rows, breakdowns=breakdowns,
        ratings=Link(_("%(scope)s: rating list") % {"scope": _(scope.name)},
                     page.href(ratings_path(scope.path))),
        others=tuple(Link(FORMATS[f].label if f in FORMATS else f,
                          page.href(meta_path(scope.path, f))) for f in formats if f != fmt),
        json=page.href(json_beside(path, "meta.json")),
    )


def _faction_rows(table: pd.DataFrame) -> tuple[FactionRow, ...]:
    return tuple(
        FactionRow(str(r.faction), int(r.wins), int(r.draws), int(r.losses),
                   share(int(r.wins) + 0.5 * int(r.draws), int(r.games)), int(r.solos),
                   float(r.average_points))
        for r in rows_of(table, "faction wins draws losses games solos average_points"))


def _matrix(games: pd.DataFrame, fmt: str) -> tuple[tuple[str, ...], tuple[MatrixRow, ...]]:
    """Return the matchup matrix: every faction that met another in a two-player game
    (Diplomacy: every power that shared a board with another), by name, as rows and
    columns; cells the row's score share (on a board: how often it finished above the
    column's power) and its games."""
    from standgen.clubs.meta import board_matchups, matchups

    long = board_matchups(games, fmt) if _boards(fmt) else matchups(games, fmt)
    if long.empty:
        return (), ()
    return _matrix_of({(str(r.faction), str(r.against)): Share(int(r.games), float(r.score),
                                                               float(r.low), float(r.high))
                       for r in rows_of(long, "faction against games score low high")})


def _matrix_of(cells: dict[tuple[str, str], Share]
               ) -> tuple[tuple[str, ...], tuple[MatrixRow, ...]]:
    if not cells:
        return (), ()
    names = tuple(sorted({f for f, _ in cells} | {a for _, a in cells},
                         key=lambda n: (n.casefold(), n)))
    rows = []
    for faction in names:
        row = []
        for against in names:
            found = cells.get((faction, against))
            if found is None:
                row.append(MatrixCell(None, _("{faction} never met {against}").format(
                    faction=faction, against=against)))
                continue
            row.append(MatrixCell(found, _(
                "{faction} against {against}: {share} of the points in {games} games (95% "
                "interval {interval})").format(faction=faction, against=against,
                                               share=found.text, games=found.games,
                                               interval=found.interval)))
        rows.append(MatrixRow(faction, tuple(row)))
    return names, tuple(rows)


_SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def _boards(fmt: str) -> bool:
    """Return whether the format ``fmt`` (an id) plays boards of more than two seats."""
    return fmt in FORMATS and FORMATS[fmt].seats > 2


def _rated(fmt: str) -> str:
    """Return the format's club rating kind (``Format.ratings``: "fide", "go" or "")."""
    return FORMATS[fmt].ratings if fmt in FORMATS else ""


def _breakdowns(played: pd.DataFrame, fmt: str) -> tuple[Breakdown, ...]:
    """Return the format's own breakdowns: Go by rank difference and handicap, chess by
    rating difference and colour."""
    if _rated(fmt) == "go":
        return _go_breakdowns(played)
    if _rated(fmt) == "fide":
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
    for row in rows_of(_one_per_game(played), "rank opponent_ranks outcome handicap"):
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
    for row in rows_of(games, "outcome colour rating opponent_ratings"):
        score = _SCORE.get(str(row.outcome), 0.0)
        white = score if row.colour == "white" else 1.0 - score
        colours["White"].append(white)
        colours["Black"].append(1.0 - white)
        theirs = str(row.opponent_ratings)
        if row.rating != row.rating or not theirs or ";" in theirs:
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


def _counts(label: str, counted: tuple[int, int, int], expected: str = "") -> BreakdownRow:
    games, wins, draws = counted
    return BreakdownRow(label, wins, draws, games - wins - draws,
                        share(wins + 0.5 * draws, games), expected)


def _breakdowns_of(meta: FormatMeta, fmt: str) -> tuple[Breakdown, ...]:
    """Return :func:`_breakdowns` from the sums of the scope's events."""
    found = []
    if _rated(fmt) == "go":
        if meta.differences:
            found.append(Breakdown(
                "rank-difference", "Results by rank difference", "Rank difference",
                "The stronger player's results",
                tuple(_counts("4 or more" if d == 4 else str(d), meta.differences[d])
                      for d in sorted(meta.differences))))
        if meta.handicaps:
            found.append(Breakdown(
                "handicap", "Results by handicap", "Handicap stones",
                "The stronger player's results",
                tuple(_counts("none" if h == 0 else str(h), meta.handicaps[h])
                      for h in sorted(meta.handicaps))))
    elif _rated(fmt) == "fide":
        if meta.colours is not None:
            games, wins, draws = meta.colours
            found.append(Breakdown("colour", "Results by colour", "Colour",
                                   "Each colour's results",
                                   (_counts("White", meta.colours),
                                    _counts("Black", (games, games - wins - draws, draws)))))
        if meta.bands:
            found.append(Breakdown(
                "rating-difference", "Results by rating difference", "Rating difference",
                "The higher-rated player's results",
                tuple(_counts(_BANDS[b][1], meta.bands[b][:3],
                              f"{round(100 * meta.bands[b][3] / meta.bands[b][0])}%")
                      for b in sorted(meta.bands)), expected=True))
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


