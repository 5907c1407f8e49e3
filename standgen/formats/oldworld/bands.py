"""Old World scoring (seed 002 and the event's band table): the VP difference of a game
falls in a band, which gives the result and each side's tournament points (TP)."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeGuard

from standgen.formats.base import number_problem
from standgen.memo import Memo
from standgen.model import EventConfig, Game, GameKind, Outcome, Seat

REFERENCE_SIZE = 2000  # the default band table is written for 2,000-point games
MAX_VP = 100_000  # the largest game_size and band 'from' (docs/formats/old-world.md)
MAX_TP = 1000  # the largest TP a band gives either side (and -MAX_TP the lowest)
MAX_BANDS = 50  # rows of a band table (every game result looks through them)
BAND_KEYS = ("from", "band", "loss", "winner", "loser")
# Old World Rankings' "standard Matched Play table" (help.oldworldrankings.com,
# "Scoring: Battle Results"): 0-300 Draw 3-3, 301-600 Minor 4-2, 601-950 Regular 5-1,
# 951 or more Crushing 6-0. Thresholds are for 2,000 points and scale with game_size.
DEFAULT_BANDS: tuple[Mapping[str, Any], ...] = (
    {"from": 0, "band": "Draw", "winner": 3, "loser": 3},
    {"from": 301, "band": "Minor victory", "loss": "Minor loss", "winner": 4, "loser": 2},
    {"from": 601, "band": "Regular victory", "loss": "Regular loss", "winner": 5, "loser": 1},
    {"from": 951, "band": "Crushing victory", "loss": "Crushing loss", "winner": 6,
     "loser": 0},
)


@dataclass(frozen=True)
class Band:
    """One row of the band table: VP differences from ``start`` up to the next band."""

    start: int
    name: str  # the result for the side with more VP ("Minor victory")
    loss: str  # ... and for the other side ("Minor loss"); the name again by default
    winner: float  # TP for the side with more VP
    loser: float

    @property
    def draw(self) -> bool:
        """Return whether the band is a draw: both sides score the same TP."""
        return self.winner == self.loser


# ----- the band table ------------------------------------------------------------------


def parse_bands(raw: object) -> tuple[tuple[Band, ...], list[str]]:
    """Return the band table read from ``[options] bands``, and what is wrong with it.

    The shape (documented in docs/formats/old-world.md) is a list of tables
    ``{ from = 301, band = "Minor victory", loss = "Minor loss", winner = 4, loser = 2 }``,
    lowest ``from`` first; the first starts at 0 and is a draw (equal VP is no win).
    """
    if not isinstance(raw, list) or not raw:
        return (), ["'bands' must be a list of tables such as "
                    '{ from = 0, band = "Draw", winner = 3, loser = 3 }']
    if len(raw) > MAX_BANDS:
        return (), [f"'bands' has {len(raw):,} bands; a table has at most {MAX_BANDS}"]
    errors: list[str] = []
    bands: list[Band] = []
    for k, row in enumerate(raw, start=1):
        band = _band(row, f"band {k}", errors)
        if band is not None:
            bands.append(band)
    if errors:
        return (), errors
    errors = _order_problems(bands)
    return (tuple(bands), errors) if not errors else ((), errors)


def _order_problems(bands: Sequence[Band]) -> list[str]:
    """Return what is wrong with the bands' order: the first starts at 0 and is a draw,
    each starts above the one before."""
    errors = []
    if bands[0].start != 0 or not bands[0].draw:
        errors.append("the first band must start at 0 and give both sides the same TP "
                      "(equal VP is a draw)")
    errors += [f"band '{after.name}' starts at {after.start}, not above "
               f"'{before.name}' ({before.start}); list bands lowest 'from' first"
               for before, after in zip(bands, bands[1:], strict=False)
               if after.start <= before.start]
    return errors


def _named(value: object) -> bool:
    """Return whether ``value`` is a name: a string with more than spaces."""
    return isinstance(value, str) and bool(value.strip())


def _tp_problem(winner: object, loser: object) -> str:
    """Return what is wrong with a band's TP for the winner and loser, or ""."""
    if (not is_number(winner) or not is_number(loser) or number_problem(winner, -MAX_TP, MAX_TP)
            or number_problem(loser, -MAX_TP, MAX_TP)):
        return (f"'winner' and 'loser' must be the TP each side scores, "
                f"numbers from {-MAX_TP:,} to {MAX_TP:,}")
    if winner < loser:
        return (f"'winner' ({winner}) is less than 'loser' ({loser}); "
                "the side with more VP scores at least as many TP")
    return ""


def _band(row: object, where: str, errors: list[str]) -> Band | None:
    """Return one row of the band table as a Band, or None after adding what is wrong."""
    if not isinstance(row, dict):
        errors.append(f"{where} must be a table such as "
                      '{ from = 301, band = "Minor victory", winner = 4, loser = 2 }')
        return None
    start = len(errors)
    unknown = sorted(set(row) - set(BAND_KEYS))
    if unknown:
        errors.append(f"{where} has unknown key(s) {', '.join(unknown)}; "
                      f"keys are: {', '.join(BAND_KEYS)}")
    begin, name, loss = row.get("from"), row.get("band"), row.get("loss", row.get("band"))
    winner, loser = row.get("winner"), row.get("loser")
    if number_problem(begin, 0, MAX_VP, integer=True):
        errors.append(f"{where}: 'from' must be a whole number of VP from 0 to {MAX_VP:,}")
    if not _named(name):
        errors.append(f"{where}: 'band' must be the result's name in quotes")
    if not _named(loss):
        errors.append(f"{where}: 'loss' must be the losing side's result in quotes")
    wrong = _tp_problem(winner, loser)
    if wrong:
        errors.append(f"{where}: {wrong}")
    if len(errors) > start:
        return None
    assert is_int(begin) and isinstance(name, str) and isinstance(loss, str)
    assert is_number(winner) and is_number(loser)
    return Band(begin, name.strip(), loss.strip(), float(winner), float(loser))


def bands_of(config: EventConfig) -> tuple[Band, ...]:
    """Return the event's band table, or () when ``[options] bands`` is invalid.

    Seed 002 names the top band ("Crushing Victory"); the bands themselves are the TO's
    pack. Without ``bands`` the default table (Old World Rankings' standard table for
    2,000 points) applies with each ``from`` scaled by ``game_size`` / 2000, rounded up
    to a whole VP. A table given in event.toml is used as written.
    """
    if "bands" in config.options:
        raw = config.options["bands"]
        # TOML values: equal text, equal table
        return _PARSED.get(repr(raw), lambda: parse_bands(raw)[0])
    return default_bands(game_size(config))


_PARSED: Memo[str, tuple[Band, ...]] = Memo(256)  # repr of ``[options] bands`` -> the table


@functools.lru_cache(maxsize=64)
def default_bands(size: int) -> tuple[Band, ...]:
    """Return the default band table for games of ``size`` points: each ``from`` of the
    2,000-point table times ``size`` / 2000, rounded up to a whole VP."""
    bands, _ = parse_bands([dict(row) for row in DEFAULT_BANDS])
    return tuple(
        Band(math.ceil(Fraction(b.start * size, REFERENCE_SIZE)), b.name, b.loss, b.winner,
             b.loser)
        for b in bands
    )


def game_size(config: EventConfig) -> int:
    """Return the points size of the games (``[options] game_size``, default 2000)."""
    size = config.options.get("game_size", REFERENCE_SIZE)
    return size if is_int(size) and size > 0 else REFERENCE_SIZE


def band_for(difference: float, bands: Sequence[Band]) -> Band:
    """Return the band of a VP difference: the last band whose ``start`` it reaches."""
    chosen = bands[0]
    for band in bands:
        if abs(difference) >= band.start:
            chosen = band
    return chosen


def crushing(bands: Sequence[Band]) -> Band:
    """Return the top band, scored for a bye and a concession (seed 002, "Byes",
    "Concession": "counts as having won a Crushing Victory")."""
    return bands[-1]


# ----- results and tournament points ---------------------------------------------------


def vps_of(stats: Sequence[Mapping[str, float]]) -> tuple[float, float] | None:
    """Return a game's two VP totals (``vp_1``, ``vp_2``), or None when either is missing."""
    if len(stats) != 2 or "vp" not in stats[0] or "vp" not in stats[1]:
        return None
    return stats[0]["vp"], stats[1]["vp"]


def outcome_from_stats(
    result: str, stats: Sequence[Mapping[str, float]], config: EventConfig
) -> tuple[Outcome, ...] | None:
    """Return the result the VPs give (win/loss or draw by band), or None without both VPs.

    Data contract, round files: "the result may be left empty and is then derived from
    the VP difference". A band with equal TP for both sides is a draw.
    """
    vps, bands = vps_of(stats), bands_of(config)
    if vps is None or not bands:
        return None
    return outcomes_of(vps, bands)


def outcomes_of(vps: tuple[float, float], bands: Sequence[Band]) -> tuple[Outcome, Outcome]:
    """Return both sides' outcomes from their VPs: a draw when the difference falls in a
    drawn band, else a win for the side with more VPs."""
    if band_for(vps[0] - vps[1], bands).draw:
        return Outcome.DRAW, Outcome.DRAW
    return (Outcome.WIN, Outcome.LOSS) if vps[0] > vps[1] else (Outcome.LOSS, Outcome.WIN)


def points(seat: Seat, game: Game, config: EventConfig) -> float:
    """Return the TP a seat scores: the band of the game's VP difference, per side.

    A bye and a concession score the top band ("a Bye counts as having won a Crushing
    Victory", seed 002, "Byes"; "their opponent is considered to have won a Crushing
    Victory", "Concession"); the conceding side, a double forfeit and an absence scored
    as a loss get the top band's loser TP. An absence given ``draw`` scores the draw band.
    """
    bands = bands_of(config) or default_bands(REFERENCE_SIZE)  # invalid: check says so
    top = crushing(bands)
    vps = vps_of([s.stats for s in game.seats])
    if game.kind is GameKind.PLAYED and vps is not None:
        mine = _margin(seat, game, vps)
        band = band_for(mine, bands)
        return band.winner if mine > 0 or band.draw else band.loser
    if seat.outcome is Outcome.DRAW:
        return bands[0].winner
    band = top if game.kind is not GameKind.PLAYED else _least_win(bands)
    return band.winner if seat.outcome is Outcome.WIN else band.loser


def _margin(seat: Seat, game: Game, vps: tuple[float, float]) -> float:
    """Return the seat's VP minus the opponent's."""
    return vps[0] - vps[1] if seat.player == game.seats[0].player else vps[1] - vps[0]


def _least_win(bands: Sequence[Band]) -> Band:
    """Return the lowest winning band (a played result without VPs, which ``check`` rejects)."""
    return next((b for b in bands if not b.draw), bands[-1])


def seat_stats(seat: Seat, game: Game, config: EventConfig) -> Mapping[str, float]:
    """Return a seat's stats as tiebreaks count them: a bye or concession win scores VP =
    game size (seed 002, "Byes", "Concession": "counts as having won a number of VP equal
    to the size of the games being played"). A conceding side keeps the VP written (none: 0).
    """
    if game.kind is GameKind.PLAYED:
        return seat.stats
    if seat.outcome is Outcome.WIN:
        return {**seat.stats, "vp": float(game_size(config))}
    return {**seat.stats, "vp": seat.stats.get("vp", 0.0)}


def band_name(seat: Seat, game: Game, config: EventConfig) -> str:
    """Return the seat's result in the band's words ("Minor victory", "Minor loss", "Draw")."""
    bands = bands_of(config)
    if seat.outcome is None or not bands:
        return ""
    vps = vps_of([s.stats for s in game.seats])
    if game.kind is GameKind.PLAYED and vps is not None:
        mine = _margin(seat, game, vps)
        band = band_for(mine, bands)
        return band.name if mine > 0 or band.draw else band.loss
    if seat.outcome is Outcome.DRAW:
        return bands[0].name
    top = crushing(bands)
    return top.name if seat.outcome is Outcome.WIN else top.loss


def vp_text(value: float) -> str:
    """Return a VP or TP number as a round page and a message show it (``1250``, ``2.5``)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def is_int(value: object) -> TypeGuard[int]:
    """Return whether a TOML value is an integer (``true`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[int | float]:
    """Return whether a TOML value is a number (``true`` is not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)
