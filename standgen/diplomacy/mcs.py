"""Mean Comparison Scoring (seed 001): each result against the event's average for its power.

Game points p come from the draw-size rule (solo 420, draw 420 / draw size, else 0).
aveT is the average p of a power over every game of the event in which it was played;
s = p - aveT; Sc = the sum of a player's s; Pts = Sc / R, R the rounds the player played.
A drawn final board counts double and is one more round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from standgen.diplomacy.games import game_scores, is_board
from standgen.diplomacy.scoring import DRAW, MCS, POWERS
from standgen.model import Game, Round


@dataclass(frozen=True)
class PowerAverage:
    """A power over the event: games played (g), points total (T) and aveT = T / g."""

    power: str
    games: int
    total: float

    @property
    def average(self) -> float:
        return self.total / self.games if self.games else 0.0


@dataclass(frozen=True)
class PlayerScore:
    """A player's MCS: s per game (doubled for a drawn final), Sc, R and Pts."""

    s: tuple[float, ...]
    sc: float
    rounds: int

    @property
    def pts(self) -> float:
        return self.sc / self.rounds if self.rounds else 0.0


@dataclass(frozen=True)
class McsGame:
    """One player's game as MCS scores it."""

    round: int
    table: int
    player: str
    power: str
    centres: int
    p: float
    ave_t: float
    weight: int  # 2 on a drawn final board (seed 001), else 1

    @property
    def s(self) -> float:
        return self.weight * (self.p - self.ave_t)


@dataclass(frozen=True)
class McsTable:
    """Every game of the event under MCS, the power averages, and each player's score."""

    games: tuple[McsGame, ...]
    powers: Mapping[str, PowerAverage]
    players: Mapping[str, PlayerScore]


def power_averages(results: Iterable[tuple[str, float]]) -> dict[str, PowerAverage]:
    """Return aveT for each power from every (power, p) of the event.

    Seed 001, "When scoring the tournament" steps 1-2: "Find the total number of game
    points scored by each power in every game played - T"; "aveT = T/g, where g = number
    of games". A power never played has g = 0 and aveT 0.
    """
    totals = {power: 0.0 for power in POWERS}
    games = {power: 0 for power in POWERS}
    for power, p in results:
        totals[power] = totals.get(power, 0.0) + p
        games[power] = games.get(power, 0) + 1
    return {power: PowerAverage(power, games[power], totals[power]) for power in totals}


def player_score(games: Sequence[tuple[float, float]], weights: Sequence[int] = ()) -> PlayerScore:
    """Return s per game, Sc and Pts from each game's (p, aveT).

    Seed 001 steps 3-5: "calculate the difference between p ... and aveT; s"; "find the
    total of s across all games played - Sc"; "Divide Sc by the number of rounds played
    (R)". A drawn final counts double ("the score for the final would be doubled") and is
    one more round ("divided by 5 rounds" after four).
    """
    factors = list(weights) or [1] * len(games)
    s = tuple(w * (p - ave) for (p, ave), w in zip(games, factors, strict=True))
    return PlayerScore(s=s, sc=sum(s), rounds=len(games))


def mcs_table(rounds: Sequence[Round], options: Mapping[str, Any], final_round: int = 0,
              upto: int | None = None) -> McsTable:
    """Return the event's MCS table over the finished boards of rounds ``1..upto``.

    Seed 001: every game counts towards aveT, the final board included; a final that ends
    in a draw doubles its s. A sit-out is not a round played (R counts boards).
    """
    boards: list[tuple[int, Game, dict[str, float]]] = []
    for rnd in rounds:
        if upto is not None and rnd.number > upto:
            break
        for game in rnd.games:
            if is_board(game) and game.finished:
                boards.append((rnd.number, game, game_scores(game, MCS, options)))
    averages = power_averages(
        (seat.power, points[seat.player]) for _, game, points in boards for seat in game.seats
    )
    lines: list[McsGame] = []
    for number, game, points in boards:
        drawn_final = number == final_round and game.table == 1 and any(
            seat.result == DRAW for seat in game.seats)
        for seat in game.seats:
            lines.append(McsGame(
                round=number, table=game.table, player=seat.player, power=seat.power,
                centres=int(seat.stats.get("centres", 0)), p=points[seat.player],
                ave_t=averages[seat.power].average, weight=2 if drawn_final else 1,
            ))
    by_player: dict[str, list[McsGame]] = {}
    for line in lines:
        by_player.setdefault(line.player, []).append(line)
    players = {
        pid: player_score([(g.p, g.ave_t) for g in games], [g.weight for g in games])
        for pid, games in sorted(by_player.items())
    }
    return McsTable(tuple(lines), averages, players)
