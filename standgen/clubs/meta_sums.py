"""The meta of each format as a sum over events, in plain Python (issue #33).

Each event's part (:class:`MetaPart`: per faction its wins, draws, losses, solos and
points, the matchups, the boards' power pairs and the format's breakdowns) is made once
from its rows (:func:`meta_part`); a format's meta over a scope's events is their parts
added up (:func:`format_meta`), so a changed event replaces its own part. Every number
equals the tidy table's (:mod:`standgen.clubs.meta`, pandas) exactly, the same floating
point operations in the same order (``tests/test_club_summary.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from standgen.clubs.fide import fide_expected
from standgen.clubs.games import EventGames
from standgen.clubs.rows import (
    COLOUR,
    FACTION,
    HANDICAP,
    KIND,
    OPP_FACTIONS,
    OPP_RANKS,
    OPP_RATINGS,
    OUTCOME,
    PLAYER,
    POINTS,
    RANK_,
    RATING,
    RESULT,
    ROUND,
    SEATS,
    TABLE,
    Row,
    club_rating,
    column_round,
    on_boards,
    rows_of,
)
from standgen.formats.mcmahon.scoring import RANK, rank_value


@dataclass
class _Kahan:
    """A float sum with Kahan's compensation, as pandas' grouped sums and means add."""

    total: float = 0.0
    compensation: float = 0.0
    count: int = 0

    def add(self, value: float) -> None:
        y = value - self.compensation
        t = self.total + y
        self.compensation = t - self.total - y
        self.total = t
        self.count += 1


# ----- the meta: sums per event -------------------------------------------------------------

@dataclass(frozen=True)
class Tally:
    """Games of one group and one side's wins and draws in them."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    points: float = 0.0  # a draw half

    def plus(self, other: Tally) -> Tally:
        return Tally(self.games + other.games, self.wins + other.wins,
                     self.draws + other.draws, self.points + other.points)


@dataclass(frozen=True)
class MetaPart:
    """One event's part of its format's meta: games over the board, per faction its
    results (with the points the format gave, in row order), the matchups, the boards'
    power pairs, and the format's breakdowns (Go: by rank difference and handicap;
    chess: colours, and by rating difference with FIDE's expected scores in order)."""

    games: int = 0
    factions: dict[str, tuple[int, int, int, int, int, tuple[float, ...]]] = field(
        default_factory=dict)  # faction -> games, wins, draws, losses, solos, points
    matchups: dict[tuple[str, str], tuple[int, float]] = field(default_factory=dict)
    boards: dict[tuple[str, str], tuple[int, float]] = field(default_factory=dict)
    differences: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    handicaps: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    colours: tuple[int, int, int] | None = None  # White's games, wins, draws
    bands: dict[int, tuple[int, int, int, tuple[float, ...]]] = field(default_factory=dict)


_VALUE = {"win": 1.0, "draw": 0.5, "loss": 0.0}
_BANDS = (0, 50, 100, 200, 300, 400)


def meta_part(part: EventGames) -> MetaPart:
    """Return one event's part of the meta of its format."""
    fmt = part.head[4]
    played = [row for row in rows_of(part) if row[KIND] == "played"]
    factions: dict[str, tuple[list[int], list[float]]] = {}
    for row in played:
        faction = str(row[FACTION])
        if not faction:
            continue
        counts, points = factions.setdefault(faction, ([0, 0, 0, 0, 0], []))
        outcome = row[OUTCOME]
        counts[0] += 1
        counts[1] += outcome == "win"
        counts[2] += outcome == "draw"
        counts[3] += outcome == "loss"
        counts[4] += row[RESULT] == "solo"
        points.append(float(row[POINTS]))
    matchups: dict[tuple[str, str], list[float]] = {}
    boards: dict[tuple[str, str], list[float]] = {}
    if on_boards(fmt):
        _board_pairs(played, boards)
    else:
        for row in played:
            if row[SEATS] == 2 and row[FACTION] != "" and row[OPP_FACTIONS] != "":
                cell = matchups.setdefault((str(row[FACTION]), str(row[OPP_FACTIONS])),
                                           [0, 0.0])
                cell[0] += 1
                value = _VALUE.get(str(row[OUTCOME]))
                if value is not None:  # pandas' sum leaves a missing value out
                    cell[1] += value
    part_meta = MetaPart(
        games=len({(row[ROUND], row[TABLE]) for row in played}),
        factions={f: (a, b, c, d, e, tuple(points))
                  for f, ([a, b, c, d, e], points) in factions.items()},
        matchups={k: (int(v[0]), v[1]) for k, v in matchups.items()},
        boards={k: (int(v[0]), v[1]) for k, v in boards.items()})
    firsts = _one_per_game(played)
    if club_rating(fmt) == "go":
        return _go(part_meta, firsts)
    if club_rating(fmt) == "fide":
        return _chess(part_meta, firsts)
    return part_meta


def _board_pairs(played: Sequence[Row],
                 boards: dict[tuple[str, str], list[float]]) -> None:
    """Add each ordered pair of powers at a board (more than two seats) and how the first
    finished against the second (above 1, level a half)."""
    tables: dict[tuple[object, object], list[Row]] = {}
    for row in played:
        if int(row[SEATS]) > 2 and row[FACTION] != "":
            tables.setdefault((row[ROUND], row[TABLE]), []).append(row)
    for seats in tables.values():
        for mine in seats:
            for other in seats:
                if mine[PLAYER] == other[PLAYER]:
                    continue
                cell = boards.setdefault((str(mine[FACTION]), str(other[FACTION])), [0, 0.0])
                cell[0] += 1
                a, b = float(mine[POINTS]), float(other[POINTS])
                cell[1] += (1.0 if a > b else 0.0) + 0.5 * (1.0 if a == b else 0.0)


def _one_per_game(played: Sequence[Row]) -> list[Row]:
    """Return each two-player game once: its first row (by round, table, player)."""
    seen: set[tuple[object, object]] = set()
    firsts = []
    for row in played:
        key = (row[ROUND], row[TABLE])
        if row[SEATS] == 2 and key not in seen:
            seen.add(key)
            firsts.append(row)
    return firsts


def _counted(scores: Iterable[float]) -> tuple[int, int, int]:
    scores = list(scores)
    return len(scores), sum(1 for s in scores if s == 1.0), sum(1 for s in scores if s == 0.5)


def _go(part: MetaPart, games: Sequence[Row]) -> MetaPart:
    by_difference: dict[int, list[float]] = {}
    by_handicap: dict[int, list[float]] = {}
    for row in games:
        mine, theirs = str(row[RANK_]), str(row[OPP_RANKS])
        if not (RANK.fullmatch(mine) and RANK.fullmatch(theirs)):
            continue
        difference = rank_value(mine) - rank_value(theirs)
        score = _VALUE.get(str(row[OUTCOME]), 0.0)
        stronger = score if difference >= 0 else 1.0 - score
        by_difference.setdefault(min(abs(difference), 4), []).append(stronger)
        by_handicap.setdefault(int(row[HANDICAP]), []).append(stronger)
    return MetaPart(part.games, part.factions, part.matchups, part.boards,
                    {k: _counted(v) for k, v in by_difference.items()},
                    {k: _counted(v) for k, v in by_handicap.items()})


def _chess(part: MetaPart, games: Sequence[Row]) -> MetaPart:
    whites: list[float] = []
    bands: dict[int, tuple[list[float], list[float]]] = {}
    for row in games:
        if row[COLOUR] == "":
            continue
        score = _VALUE.get(str(row[OUTCOME]), 0.0)
        whites.append(score if row[COLOUR] == "white" else 1.0 - score)
        theirs = str(row[OPP_RATINGS])
        if row[RATING] is None or not theirs or ";" in theirs:
            continue
        mine, other = float(row[RATING]), float(theirs)
        higher = score if mine >= other else 1.0 - score
        band = max(i for i, low in enumerate(_BANDS) if abs(mine - other) >= low)
        scores, expected = bands.setdefault(band, ([], []))
        scores.append(higher)
        expected.append(fide_expected(max(mine, other), min(mine, other)))
    return MetaPart(part.games, part.factions, part.matchups, part.boards,
                    colours=_counted(whites) if whites else None,
                    bands={b: (*_counted(s), tuple(e)) for b, (s, e) in bands.items()})


# ----- a format's meta in a scope: the parts added up ---------------------------------------

@dataclass(frozen=True)
class FactionLine:
    faction: str
    games: int
    wins: int
    draws: int
    losses: int
    solos: int
    average: float  # rounded to 3 places as the column path rounds


@dataclass(frozen=True)
class Cell:
    faction: str
    against: str
    games: int
    score: float  # rounded to 4 places as the column path rounds
    total: float


@dataclass(frozen=True)
class FormatMeta:
    """One format's meta over a scope's events."""

    games: int
    factions: tuple[FactionLine, ...]  # best score share first
    cells: tuple[Cell, ...]  # the matchups (Diplomacy: the boards' power pairs)
    differences: dict[int, tuple[int, int, int]]
    handicaps: dict[int, tuple[int, int, int]]
    colours: tuple[int, int, int] | None
    bands: dict[int, tuple[int, int, int, float]]  # ..., the sum of expected scores


def format_meta(parts: Sequence[MetaPart], diplomacy: bool) -> FormatMeta:
    """Return the meta of one format from its events' parts, events by folder."""
    factions: dict[str, tuple[list[int], _Kahan]] = {}
    for part in parts:
        for faction, (*counted, points) in part.factions.items():
            counts, kahan = factions.setdefault(faction, ([0, 0, 0, 0, 0], _Kahan()))
            for k in range(5):
                counts[k] += counted[k]
            _add_all(kahan, points)
    lines = []
    for faction, ([games, wins, draws, losses, solos], kahan) in factions.items():
        lines.append(FactionLine(faction, games, wins, draws, losses, solos,
                                 column_round(kahan.total / kahan.count, 3)))
    lines.sort(key=lambda f: (-column_round((f.wins + 0.5 * f.draws) / f.games, 4), f.faction))
    cells: dict[tuple[str, str], list[float]] = {}
    for part in parts:
        for key, (games, total) in (part.boards if diplomacy else part.matchups).items():
            cell = cells.setdefault(key, [0, 0.0])
            cell[0] += games
            cell[1] += total
    differences: dict[int, tuple[int, int, int]] = {}
    handicaps: dict[int, tuple[int, int, int]] = {}
    colours: tuple[int, int, int] | None = None
    bands: dict[int, tuple[int, int, int, list[float]]] = {}
    for part in parts:
        _add(differences, part.differences)
        _add(handicaps, part.handicaps)
        if part.colours is not None:
            colours = part.colours if colours is None else _plus(colours, part.colours)
        for band, (n, wins, draws, expected) in part.bands.items():
            held = bands.get(band)
            if held is None:
                bands[band] = (n, wins, draws, list(expected))
            else:  # the expected scores in the same order, extended in place
                held[3].extend(expected)
                bands[band] = (*_plus(held[:3], (n, wins, draws)), held[3])
    return FormatMeta(
        sum(part.games for part in parts), tuple(lines),
        tuple(Cell(f, a, int(n), column_round(t / n, 4), t)
              for (f, a), (n, t) in sorted(cells.items())),
        differences, handicaps, colours,
        {b: (n, w, d, sum(e)) for b, (n, w, d, e) in bands.items()})


def _add_all(kahan: _Kahan, values: Sequence[float]) -> None:
    """:meth:`_Kahan.add` each value in turn: the same operations, without a call each
    (a site's meta adds every game's points, 50,000 at 1,000 club events)."""
    total, compensation = kahan.total, kahan.compensation
    for value in values:
        y = value - compensation
        t = total + y
        compensation = t - total - y
        total = t
    kahan.total, kahan.compensation = total, compensation
    kahan.count += len(values)


def _plus(a: Sequence[int], b: Sequence[int]) -> tuple[int, int, int]:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _add(into: dict[int, tuple[int, int, int]], part: Mapping[int, tuple[int, int, int]]
         ) -> None:
    for key, value in part.items():
        held = into.get(key)
        into[key] = value if held is None else _plus(held, value)
