"""Warhammer: The Old World matched play (seed 002, "The Pairing of Players").

Scoring: each game records both sides' victory points (``vp_1,vp_2``); the VP difference
falls in a band of the event's band table (Draw ... Crushing victory), which gives the
result and each side's tournament points (TP). Pairing: round 1 at random, then 1 v 2,
3 v 4 ... with seed 002's downward swap on a rematch (:mod:`standgen.pairing.adjacent`);
the spare player always meets the bottom of the standings.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeGuard

from standgen.errors import Problem
from standgen.formats.base import Format, Option, Proposal, Stat, number_problem
from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Player, Round, Seat
from standgen.pairing import adjacent, core
from standgen.pairing.common import players_for_round, proposal, rng, standings_order
from standgen.pairing.state import PairingInput
from standgen.records import have_met
from standgen.tiebreaks.base import TiebreakPolicy

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
    if bands[0].start != 0 or not bands[0].draw:
        errors.append("the first band must start at 0 and give both sides the same TP "
                      "(equal VP is a draw)")
    for before, after in zip(bands, bands[1:], strict=False):
        if after.start <= before.start:
            errors.append(f"band '{after.name}' starts at {after.start}, not above "
                          f"'{before.name}' ({before.start}); list bands lowest 'from' first")
    return (tuple(bands), errors) if not errors else ((), errors)


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
    if not isinstance(name, str) or not name.strip():
        errors.append(f"{where}: 'band' must be the result's name in quotes")
    if not isinstance(loss, str) or not loss.strip():
        errors.append(f"{where}: 'loss' must be the losing side's result in quotes")
    if (not _is_number(winner) or not _is_number(loser) or number_problem(winner, -MAX_TP, MAX_TP)
            or number_problem(loser, -MAX_TP, MAX_TP)):
        errors.append(f"{where}: 'winner' and 'loser' must be the TP each side scores, "
                      f"numbers from {-MAX_TP:,} to {MAX_TP:,}")
    elif winner < loser:
        errors.append(f"{where}: 'winner' ({winner}) is less than 'loser' ({loser}); "
                      "the side with more VP scores at least as many TP")
    if len(errors) > start:
        return None
    assert _is_int(begin) and isinstance(name, str) and isinstance(loss, str)
    assert _is_number(winner) and _is_number(loser)
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
        key = repr(raw)  # TOML values: equal text, equal table
        bands = _PARSED.get(key)
        if bands is None:
            if len(_PARSED) > 256:
                _PARSED.clear()
            bands = _PARSED[key] = parse_bands(raw)[0]
        return bands
    return default_bands(game_size(config))


_PARSED: dict[str, tuple[Band, ...]] = {}  # repr of ``[options] bands`` -> the table


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
    return size if _is_int(size) and size > 0 else REFERENCE_SIZE


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


def _vps(stats: Sequence[Mapping[str, float]]) -> tuple[float, float] | None:
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
    vps, bands = _vps(stats), bands_of(config)
    if vps is None or not bands:
        return None
    return _outcomes(vps, bands)


def _outcomes(vps: tuple[float, float], bands: Sequence[Band]) -> tuple[Outcome, Outcome]:
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
    vps = _vps([s.stats for s in game.seats])
    if game.kind is GameKind.PLAYED and vps is not None:
        mine = _margin(seat, game, vps)
        band = band_for(mine, bands)
        return band.winner if mine > 0 or band.draw else band.loser
    if seat.outcome is Outcome.WIN:
        return top.winner if game.kind is not GameKind.PLAYED else _least_win(bands).winner
    if seat.outcome is Outcome.DRAW:
        return bands[0].winner
    return top.loser if game.kind is not GameKind.PLAYED else _least_win(bands).loser


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
    vps = _vps([s.stats for s in game.seats])
    if game.kind is GameKind.PLAYED and vps is not None:
        mine = _margin(seat, game, vps)
        band = band_for(mine, bands)
        return band.name if mine > 0 or band.draw else band.loss
    if seat.outcome is Outcome.DRAW:
        return bands[0].name
    top = crushing(bands)
    return top.name if seat.outcome is Outcome.WIN else top.loss


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# ----- validation ----------------------------------------------------------------------

_CODES: Mapping[tuple[Outcome | None, Outcome | None], str] = {
    (Outcome.WIN, Outcome.LOSS): "1-0", (Outcome.LOSS, Outcome.WIN): "0-1",
    (Outcome.DRAW, Outcome.DRAW): "draw",
}


def validate_game(game: Game, config: EventConfig, path: str) -> list[Problem]:
    """Return the problems of one played game: both VPs or none, and a result that agrees.

    Data contract, round files: "if both are given they must agree". A played result needs
    its VPs: the TP follow from their difference.
    """
    if game.kind is not GameKind.PLAYED or len(game.seats) != 2:
        return []
    line = game.source.line
    given = ["vp" in s.stats for s in game.seats]
    if any(given) and not all(given):
        return [Problem(path, line, "only one side's victory points are given; enter both "
                        "vp_1 and vp_2 (or neither while the game is unplayed)")]
    outcomes = (game.seats[0].outcome, game.seats[1].outcome)
    if not all(given):
        if outcomes[0] is not None:
            return [Problem(path, line, f"result '{_CODES.get(outcomes, '?')}' has no victory "
                            "points; enter vp_1 and vp_2 (the tournament points follow from "
                            "their difference)")]
        return []
    bands = bands_of(config)
    vps = _vps([s.stats for s in game.seats])
    if not bands or vps is None or outcomes[0] is None:
        return []
    expected: tuple[Outcome | None, Outcome | None] = _outcomes(vps, bands)
    if expected == outcomes:
        return []
    band = band_for(vps[0] - vps[1], bands)
    return [Problem(path, line, f"result '{_CODES.get(outcomes, '?')}' disagrees with the "
                    f"victory points {_number(vps[0])}-{_number(vps[1])}: a difference of "
                    f"{_number(abs(vps[0] - vps[1]))} is a {band.name} (from {band.start}); "
                    f"write '{_CODES[expected]}', leave the result empty to derive it, or "
                    "correct vp_1/vp_2")]


def validate_event(event: Event, path: str) -> list[Problem]:
    """Return the problems of the Old World options and the spare player.

    ``bands`` a valid band table (``game_size`` and ``top_tables_percent`` are checked
    against their bounds when event.toml is loaded); at most one spare player (seed 002,
    "Spare Player", speaks of "the spare player").
    """
    problems: list[Problem] = []
    options = event.config.options
    # game_size and top_tables_percent are in range (Option bounds, checked on loading)
    if "bands" in options:
        for error in parse_bands(options["bands"])[1]:
            problems.append(Problem(path, _line_of(path, "bands"), f"option 'bands': {error}"))
    spares = [p for p in event.players if p.spare]
    for extra in spares[1:]:
        problems.append(Problem(extra.source.path, extra.source.line, f"'{extra.id}' is a "
                                f"second spare player (the first is '{spares[0].id}'); mark "
                                "one player spare = yes"))
    return problems


def _line_of(path: str, key: str) -> int:
    """Return the line of event.toml that sets ``key``, or 1 (for messages only)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return 1
    for number, text in enumerate(lines, start=1):
        if text.strip().startswith((f"{key} ", f"{key}=")):
            return number
    return 1


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


# ----- rounds and pairing --------------------------------------------------------------


def planned_rounds(players: int, config: EventConfig) -> int:
    """Return 3: a one-day event's rounds (seed 002 sets no number; ``rounds`` overrides)."""
    return 3


def top_tables(players: int, config: EventConfig) -> int:
    """Return how many top tables never swap in the final round.

    Seed 002, "Subsequent Rounds": "usually the tables on which the top 10% of the players
    are playing": ``top_tables_percent`` of the paired field, rounded up, and the tables
    those players sit at.
    """
    percent = config.options.get("top_tables_percent", 10)
    if not _is_number(percent):
        percent = 10
    top_players = math.ceil(Fraction(str(percent)) * players / 100)
    return math.ceil(top_players / 2)


def pair(event: Event, state: PairingInput, round_number: int) -> Proposal:
    """Return the proposed pairings for ``round_number`` (seed 002, "The Pairing of Players").

    "For the first round, players can be paired together randomly"; later rounds 1 v 2,
    3 v 4 ... by the standings with the swap rule; the spare player is "left out" and
    plays the bottom of the standings, or the next lowest who has not played the spare;
    without a spare that player "will instead receive a Bye".
    """
    players = players_for_round(event, round_number)
    spare = next((p for p in players if p.spare), None)
    field = [p for p in players if not p.spare]
    if round_number == 1:
        order = list(field)
        rng(event, 1, "shuffle").shuffle(order)
        odd_one = len(order) - 1 if len(order) % 2 else None
        rest = [k for k in range(len(order)) if k != odd_one]
        result = core.Pairing(tuple((rest[k], rest[k + 1]) for k in range(0, len(rest), 2)),
                              None)
        notes = ["Round 1: a random draw from the event's seed (seed 002, \"The First Round\")."]
        return _proposal(event, round_number, order, result, odd_one, spare, notes)
    order = standings_order(state, field, round_number, event)
    met = have_met(state.records)
    notes = []
    odd_one = None
    if len(order) % 2:
        odd_one, note = (_spare_opponent(order, spare, met) if spare is not None
                         else _bye_player(order, state))
        notes.extend(note)
    rest = [k for k in range(len(order)) if k != odd_one]

    def forbidden(i: int, j: int) -> bool:
        return frozenset((order[rest[i]].id, order[rest[j]].id)) in met

    protected = 0
    if round_number >= state.planned_rounds:
        protected = min(top_tables(len(order), event.config), len(rest) // 2)
    result = adjacent.pair(len(rest), forbidden, protected)
    stood = [t + 1 for t in range(protected) if forbidden(2 * t, 2 * t + 1)]
    if protected:
        top = "top table never swaps" if protected == 1 else f"top {protected} tables never swap"
        notes.append(f"Final round: the {top} (seed 002).")
    if stood:
        notes.append(f"Rematch on {_tables(len(stood), stood)} stands: \"destiny has set "
                     "them across from one another one last time\" (seed 002).")
    mapped = core.Pairing(tuple((rest[i], rest[j]) for i, j in result.pairs), None,
                          result.rematches, method=result.method)
    return _proposal(event, round_number, order, mapped, odd_one, spare, notes)


def _tables(count: int, numbers: Sequence[int]) -> str:
    return ("table " if count == 1 else "tables ") + ", ".join(map(str, numbers))


def _spare_opponent(
    order: Sequence[Player], spare: Player, met: frozenset[frozenset[str]]
) -> tuple[int, list[str]]:
    """Return the position of the spare player's opponent: the bottom of the standings,
    or the next lowest who has not played the spare (seed 002, "Spare Player")."""
    for k in range(len(order) - 1, -1, -1):
        if frozenset((order[k].id, spare.id)) not in met:
            return k, []
    return len(order) - 1, ["Every player has played the spare player: the bottom of the "
                            "standings plays them again."]


def _bye_player(order: Sequence[Player], state: PairingInput) -> tuple[int, list[str]]:
    """Return the position of the bye: the player who would meet the spare, the lowest
    without a bye (seed 002, "Byes")."""
    for k in range(len(order) - 1, -1, -1):
        if state.records[order[k].id].byes == 0:
            return k, []
    return len(order) - 1, ["Every player has had a bye: the bottom of the standings gets a "
                            "second one."]


def _proposal(
    event: Event, round_number: int, order: list[Player], result: core.Pairing,
    odd_one: int | None, spare: Player | None, notes: list[str],
) -> Proposal:
    """Return the proposal: the spare plays ``odd_one`` (or sits out, ABSENT, on an even
    field); without a spare ``odd_one`` gets the bye."""
    seated = [*order, spare] if spare is not None else list(order)
    pairs = list(result.pairs)
    bye = odd_one
    if spare is not None and odd_one is not None:
        pairs.append((odd_one, len(order)))
        bye = None
        notes.append(f"The spare player {spare.name} plays {order[odd_one].name} "
                     "(seed 002, \"Spare Player\").")
    pairing = core.Pairing(tuple(sorted(pairs)), bye, result.rematches, method=result.method)
    made = proposal(event, round_number, seated, pairing, notes)
    if spare is None or odd_one is not None:
        return made
    rnd = made.round
    sits_out = Game(round_number, len(rnd.games) + 1, (Seat(spare.id),), GameKind.ABSENT,
                    source=rnd.source)
    note = (f"The field is even: the spare player {spare.name} does not play (ABSENT).",)
    return Proposal(Round(rnd.number, (*rnd.games, sits_out), rnd.source),
                    made.notes + note)


OLD_WORLD = Format(
    id="old-world",
    label="Warhammer: The Old World",
    help="formats/old-world",
    points=points,
    planned_rounds=planned_rounds,
    pair=pair,
    policy=TiebreakPolicy(bye_is_opponent=False, forfeit_is_opponent=True),
    default_tiebreaks=("wins", "vp-diff", "sos"),
    stats=(Stat("vp", "Victory points"),),
    options=(
        Option("game_size", int, REFERENCE_SIZE,
               "The points size of the games: a bye or concession scores this many VP, and "
               "the default band table scales with it.", bounds=(1, MAX_VP)),
        Option("bands", list, [dict(row) for row in DEFAULT_BANDS],
               "The band table: VP difference -> result and TP per side."),
        Option("top_tables_percent", (int, float), 10,
               "In the final round the tables of this top share of the field never swap.",
               bounds=(0, 100)),
    ),
    outcome_from_stats=outcome_from_stats,
    validate_game=validate_game,
    validate_event=validate_event,
    seat_stats=seat_stats,
    score_label="Tournament points",
    score_short="TP",
)
