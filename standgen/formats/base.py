"""What a format declares: scoring, stat columns, default tiebreaks, pairing rule, rounds.

A format is one module that builds a :class:`Format` and one line in
``standgen.formats.FORMATS``. Nothing else in the pipeline knows a format by name.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from standgen.errors import Problem
from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Player, Seat
from standgen.model import Proposal as Proposal  # re-exported: formats return it
from standgen.options import Option as Option  # re-exported: formats declare them
from standgen.options import option_value as option_value  # re-exported
from standgen.pairing.state import PairingInput
from standgen.records import Record
from standgen.tiebreaks.base import TiebreakPolicy


@dataclass(frozen=True)
class Stat:
    """A per-seat stat column, written ``<id>_1``, ``<id>_2`` in a round file."""

    id: str
    label: str
    integer: bool = True
    required: bool = True  # the header must have the columns (values may be empty)


@dataclass(frozen=True)
class TiebreakSwap:
    """A tiebreak chain the tiebreak lab shows for a format: the event's own chain with
    tiebreak ``old`` replaced by ``new``."""

    label: str
    doc: str
    old: str
    new: str


PointsFn = Callable[[Seat, Game, EventConfig], float]
RoundsFn = Callable[[int, EventConfig], int]
FinishedFn = Callable[[PairingInput, int, EventConfig], bool]
PairFn = Callable[[Event, PairingInput, int], Proposal]
OutcomeFn = Callable[[str, Sequence[Mapping[str, float]], EventConfig], tuple[Outcome, ...] | None]
ValidateFn = Callable[[Game, EventConfig, str], list[Problem]]
ValidateEventFn = Callable[[Event, str], list[Problem]]
RankGroupsFn = Callable[[Event, int | None], Mapping[str, int]]


@dataclass(frozen=True)
class InRoundFinal:
    """A final played inside a round beside everyone else's games (issue #31: a stage of
    its own): the top ``players`` of the standings at table or board 1 of round
    ``round_of(config, planned rounds)`` (0: no final). ``rule``: the source's words."""

    label: str
    players: int
    rule: str
    round_of: Callable[[EventConfig, int], int]
SeatStatsFn = Callable[[Seat, Game, EventConfig], Mapping[str, float]]
EventPointsFn = Callable[[Event, int | None], Mapping[tuple[int, int, str], float]]


def _no_validation(game: Game, config: EventConfig, path: str) -> list[Problem]:
    return []


# [options] of every format: whether the site shows the proposed next round (issue #19)
PUBLISH_NEXT_OPTION = Option(
    "publish_next", bool, True,
    "Show the proposed next round on the site before the TO pairs it (true, default); "
    "false keeps it off the site until `standgen pair` writes the round file.",
)
RATED_OPTION = Option(
    "rated", bool, True,
    "Count the event's games in the club's ratings (true, default); false leaves it out "
    "(a casual or team event).",
)
UNRATED_RATING_OPTION = Option(
    "unrated_rating", (int, float), None,
    "The rating ARO and TPR give an unrated opponent, as the event's regulations say "
    "(FIDE C.07 art. 10); left out, ARO and TPR are dropped from the tiebreaks of an "
    "event with an unrated player.", bounds=(0, 4000),
)
EVERY_FORMAT_OPTIONS = (PUBLISH_NEXT_OPTION, RATED_OPTION, UNRATED_RATING_OPTION)


@dataclass(frozen=True)
class Format:
    """Everything the pipeline needs to know about one tournament format."""

    id: str
    label: str
    help: str  # slug of its page in docs/ (docs/<help>.md)
    points: PointsFn  # tournament points a seat earns from a finished game
    planned_rounds: RoundsFn  # (active player count, config) -> rounds
    pair: PairFn  # (event, the pairing state after the last round, round number) -> Proposal
    policy: TiebreakPolicy
    default_tiebreaks: tuple[str, ...]
    stats: tuple[Stat, ...] = ()
    game_columns: tuple[str, ...] = ()  # optional per-game columns (Go ``handicap``, ``komi``)
    seats: int = 2
    # seat 1 plays White and seat 2 Black (chess, Go): colours count in pairing, and the
    # club's games table and the round pages show them
    colours: bool = False
    # the columns ``standgen new`` writes at the head of players.csv (the event-day
    # columns follow them)
    player_columns: tuple[str, ...] = ("id", "name", "faction", "club", "country")
    # a rematch in the last planned round is the rule, not a pairing fault (Old World,
    # seed 002): ``check`` does not warn of it
    final_round_rematches: bool = False
    # ``check`` compares each round with the Dutch engine's pairing (issue #17: the chess
    # Swiss, unless ``pairing_engine = "standgen"`` or a round robin)
    dutch_deviation_check: bool = False
    # the club's rating of the format's games: "fide" (FIDE Elo, chess), "go" (Go ranks
    # and handicaps) or "" (the faction meta only)
    ratings: str = ""
    # the score a player starts the event with (McMahon's initial MMS), for the club's
    # games table; None: nothing
    starting_score: Callable[[Player, EventConfig], float] | None = None
    faction_label: str = "Faction"  # what a player's side is called ("Power": Diplomacy)
    # other tiebreak chains the tiebreak lab shows for this format
    lab_swaps: tuple[TiebreakSwap, ...] = ()
    options: tuple[Option, ...] = ()
    finished: FinishedFn | None = None  # extra "event is over" rule (Steamroller clear winner)
    outcome_from_stats: OutcomeFn | None = None  # derive a result left empty (Old World VP)
    validate_game: ValidateFn = _no_validation
    score_label: str = "Score"
    score_short: str = "Pts"
    bye_outcome: Outcome = Outcome.WIN  # what an empty result on a BYE row awards
    absent_outcome: Outcome = Outcome.LOSS  # ... and on an ABSENT row
    # what a bye the player asked for (players.csv ``byes``) awards; None: as an absence
    requested_bye: Outcome | None = None
    # a seat's stats as tiebreaks count them (Old World: a bye scores VP = game size);
    # default: the stats in the round file
    seat_stats: SeatStatsFn | None = None
    # points that depend on the whole event (Diplomacy MCS compares each result with every
    # game of the same power): (event, upto) -> points by (round, table, player) of each
    # finished seat in rounds 1..upto; replaces ``points`` when set
    event_points: EventPointsFn | None = None
    # groups ranked above everyone else whatever their score (Diplomacy finalists, seed
    # 001: "a separate top seven table"): player id -> group, higher first, default 0
    rank_groups: RankGroupsFn | None = None
    in_round_final: InRoundFinal | None = None  # Steamroller's top two, Diplomacy's top board
    # whole-event checks after loading (e.g. a warning about SODOS with McMahon groups);
    # the str is the event.toml path for messages
    validate_event: ValidateEventFn | None = None
    # the primary score from a player's record (default: the sum of points); McMahon adds
    # the starting score and OpenGotha's rounding of bye / absence points
    total_score: Callable[[Record, EventConfig], float] | None = None
    # what changes when the event is paired as a round robin (``[options] pairing =
    # "round-robin"``, standgen.formats.roundrobin): a chess round robin counts forfeits
    # as games (FIDE C.07 art. 15.2) and does not use Buchholz (art. 8)
    in_round_robin: Callable[[Format], Format] | None = None
    round_robin: bool = False  # this is the round-robin form of the format
    # a team-vs-team event of this format ranks its teams by match points, then these team
    # tie-breaks (FIDE C.07; the default of [teams] tiebreaks); empty: by Wins, SoS, TP
    team_tiebreaks: tuple[str, ...] = ()
    # how a team-vs-team event of this format pairs its team matches: "c046" (FIDE C.04.6,
    # standgen.teams.c046: chess; ``pair`` writes each match's boards and colours too) or
    # "" (the team Swiss on Wins, standgen.teams.pairing: the captains draft the games)
    team_pairing: str = ""
    # what a team event of this format calls its score (``"score"``), its team
    # tie-breaks (by id), its standings (``"heading"``) and how a match scores (``"note"``,
    # the sentence above the tie-breaks), where not the chess team's words (FIDE C.07's
    # codes and names): key -> (short heading, text); Go's team points and board points
    # (the EGC team tournament's words)
    team_labels: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def tiebreak_policy(self, event: Event) -> TiebreakPolicy:
        """Return the tiebreak policy for ``event`` (the format's; a round robin's is
        its own format, :func:`standgen.formats.format_of`)."""
        return self.policy

    def option(self, config: EventConfig, key: str) -> Any:
        """Return the event's value of option ``key``, or the format's default."""
        return option_value(self.options, config, key)


def number_problem(value: object, low: float, high: float, integer: bool = False) -> str | None:
    """Return what a value must be ("a whole number from 1 to 99"), or None when it is one.

    ``bool`` is not a number here (TOML ``true`` is not 1); ``inf`` and ``nan`` are never
    in range. The checker of :attr:`Option.bounds` (standgen.load.values applies it to
    every option when event.toml is loaded), and of a format's own tables.
    """
    wanted = f"{'a whole number' if integer else 'a number'} from {_show(low)} to {_show(high)}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return wanted
    if integer and not isinstance(value, int):
        return wanted
    if not math.isfinite(value) or not low <= value <= high:
        return wanted
    return None


def _show(bound: float) -> str:
    if float(bound).is_integer():
        return f"{int(bound):,}"
    return f"{bound:g}"


def standard_points(win: float, draw: float, loss: float) -> PointsFn:
    """Return a points function: ``win``/``draw``/``loss`` points, whatever the game kind."""

    def points(seat: Seat, game: Game, config: EventConfig) -> float:
        if seat.outcome is Outcome.WIN:
            return win
        if seat.outcome is Outcome.DRAW:
            return draw
        return loss

    return points


def is_unplayed(game: Game) -> bool:
    """Return whether a game was not played over the board (bye, absence, forfeit)."""
    return game.kind is not GameKind.PLAYED
