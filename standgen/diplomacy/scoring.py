"""Game scoring systems: one finished board in, one game score per seat out.

Each system is a :class:`ScoringSystem` with a help page in ``docs/scoring/<id>.md``;
the registry is :data:`standgen.diplomacy.systems.SYSTEMS`. Adding a system is one module
under ``standgen/diplomacy/systems/`` and one registry line. This module holds the board
model, the shared helpers and the first five systems.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
TOTAL_CENTRES = 34
WINNING_CENTRES = 18
SOLO, DRAW, LOSS, ELIMINATED = "solo", "draw", "loss", "eliminated"
RESULTS = (SOLO, DRAW, LOSS, ELIMINATED)
FIRST_YEAR = 1901  # the first game year of Diplomacy


@dataclass(frozen=True)
class BoardSeat:
    """One power's end of game: centres held, result word, year eliminated (if known) and
    the game year the board ended (round file ``end_year``, if given)."""

    power: str
    centres: int
    result: str
    eliminated_year: int | None = None
    end_year: int | None = None


Board = Sequence[BoardSeat]
ScoreFn = Callable[[Board, Mapping[str, Any]], tuple[float, ...]]


@dataclass(frozen=True)
class ScoringSystem:
    """A registry entry: id (``[options] scoring``), label, help page, board scoring.

    ``comparative`` systems (MCS) turn game points into tournament points over the whole
    event; the others add game scores up (all games, or the best N).
    """

    id: str
    label: str
    help: str  # docs/<help>.md
    score: ScoreFn
    comparative: bool = False


def end_year(board: Board) -> int | None:
    """Return the game year the board ended (its seats' ``end_year``), or None."""
    years = [seat.end_year for seat in board if seat.end_year is not None]
    return max(years) if years else None


def soloist(board: Board) -> int | None:
    """Return the index of the seat that soloed, or None."""
    for k, seat in enumerate(board):
        if seat.result == SOLO:
            return k
    return None


def draw_size(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return draw-size scores: the soloist takes the pot, else draw members split it.

    Seed 001, "Game points": "A solo scores 420 pts; everyone else scores 0. Draws are
    scored by dividing 420 by the number of players in the draw." The pot is
    ``[options] pot`` (420 by default); survivors outside the draw score 0.
    """
    pot = float(options.get("pot", 420.0))
    solo = soloist(board)
    if solo is not None:
        return tuple(pot if k == solo else 0.0 for k in range(len(board)))
    members = sum(1 for seat in board if seat.result == DRAW)
    return tuple(pot / members if seat.result == DRAW and members else 0.0 for seat in board)


def sum_of_squares(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return Sum of Squares scores: 100 x centres squared / the board's sum of squares.

    Windy City Weasels house rules (2010) and dipvis ``GScoringSumOfSquares``: "For games
    ending in solos, the soloist will score 100 points. All other players will receive 0
    points"; otherwise "Points for player 1 = 100 * (P1 / S)" with P the square of the
    player's centres and S the sum over all seven powers.
    """
    solo = soloist(board)
    if solo is not None:
        return tuple(100.0 if k == solo else 0.0 for k in range(len(board)))
    squares = [seat.centres * seat.centres for seat in board]
    total = sum(squares)
    return tuple(100.0 * sq / total if total else 0.0 for sq in squares)


def shared_rank_points(keys: Sequence[float], points: Sequence[float]) -> tuple[float, ...]:
    """Return each seat's rank points, tied seats splitting the points of their places.

    ``keys``: higher is better. ``points``: for 1st, 2nd, ...; places past the list score 0.
    World Diplomacy Wiki, Carnage: "If two or more players share a rank, they split the
    points for those positions"; WDD, C-Diplo 100: "In case of tied, the players shared
    the points given for the rank".
    """
    order = sorted(range(len(keys)), key=lambda k: -keys[k])
    result = [0.0] * len(keys)
    place = 0
    while place < len(order):
        end = place
        while end + 1 < len(order) and keys[order[end + 1]] == keys[order[place]]:
            end += 1
        shared = sum(points[p] if p < len(points) else 0.0 for p in range(place, end + 1))
        for p in range(place, end + 1):
            result[order[p]] = shared / (end - place + 1)
        place = end + 1
    return tuple(result)


CARNAGE_PLACES = (7000.0, 6000.0, 5000.0, 4000.0, 3000.0, 2000.0, 1000.0)


def carnage(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return Carnage scores: place points 7000 ... 1000 plus one point per centre.

    World Diplomacy Wiki, "Carnage Scoring System": "Each game is worth 28,034 points. If
    you solo, you get them all, and every other player receives 0 points"; otherwise
    "players are ranked according to the number of supply centers they hold at EOG.
    Eliminated players are additionally ranked by the game-year that they were
    eliminated"; ties split the points of their places; "each player gets 1 point per
    supply center". Eliminated powers without an ``eliminated_year`` all share the places
    left (dipvis "Carnage with dead equal").
    """
    dead = [seat for seat in board if seat.centres == 0]
    return carnage_scores(board, dead_equal=any(s.eliminated_year is None for s in dead))


def carnage_scores(board: Board, dead_equal: bool) -> tuple[float, ...]:
    """Return Carnage scores, eliminated powers ranked by year or (``dead_equal``) sharing.

    See :func:`carnage`; with ``dead_equal`` every eliminated power shares the places left
    whatever its year (the "dead equal" variant).
    """
    solo = soloist(board)
    if solo is not None:
        total = sum(CARNAGE_PLACES) + TOTAL_CENTRES
        return tuple(total if k == solo else 0.0 for k in range(len(board)))

    def key(k: int) -> float:
        seat = board[k]
        if seat.centres > 0:
            return float(10_000 + seat.centres)  # every survivor above every eliminated power
        return 0.0 if dead_equal else float(seat.eliminated_year or 0)

    ranks = shared_rank_points([key(k) for k in range(len(board))], CARNAGE_PLACES)
    return tuple(ranks[k] + seat.centres for k, seat in enumerate(board))


C_DIPLO_PLACES = (38.0, 14.0, 7.0)


def c_diplo(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return C-Diplo 100 scores: 1 for playing, 1 per centre, 38/14/7 for the top three.

    World Diplomacy Database, "C-Diplo 100" (Bruno-Andre Giraudon): "The player who solos
    ... scores 100 points. The other player score no point"; otherwise "Each player scores
    1 point for participated. Each player scores 1 point per centre owned. The player who
    has the most centres scores 38 points. The second ... 14 points. The Third ... 7
    points. In case of tied, the players shared the points given for the rank."
    """
    solo = soloist(board)
    if solo is not None:
        return tuple(100.0 if k == solo else 0.0 for k in range(len(board)))
    ranks = shared_rank_points([float(seat.centres) for seat in board], C_DIPLO_PLACES)
    return tuple(1.0 + seat.centres + ranks[k] for k, seat in enumerate(board))


MCS = ScoringSystem("mcs", "Mean Comparison Scoring", "scoring/mcs", draw_size, comparative=True)
DRAW_SIZE = ScoringSystem("draw-size", "Draw size", "scoring/draw-size", draw_size)
SUM_OF_SQUARES = ScoringSystem("sum-of-squares", "Sum of Squares", "scoring/sum-of-squares",
                               sum_of_squares)
CARNAGE = ScoringSystem("carnage", "Carnage", "scoring/carnage", carnage)
C_DIPLO = ScoringSystem("c-diplo", "C-Diplo 100", "scoring/c-diplo", c_diplo)

