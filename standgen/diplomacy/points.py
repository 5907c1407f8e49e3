"""Tournament points from Diplomacy boards: game scores, best N, sit-outs, MCS."""

from __future__ import annotations

from collections.abc import Mapping

from standgen.diplomacy.games import SITOUT, game_scores, is_board
from standgen.diplomacy.mcs import mcs_table
from standgen.diplomacy.options import options_of, system_of
from standgen.diplomacy.scoring import SOLO
from standgen.model import Event, EventConfig, Game, Seat

PointsKey = tuple[int, int, str]  # (round, table, player)


def seat_points(seat: Seat, game: Game, config: EventConfig) -> float:
    """Return a seat's game score on its own board (MCS: the game points p).

    Used only where no whole-event table exists; the pipeline uses :func:`event_points`.
    """
    if not is_board(game):
        return float(options_of(config)["sitout_score"]) if seat.result == SITOUT else 0.0
    return game_scores(game, system_of(config), options_of(config))[seat.player]


def event_points(event: Event, upto: int | None) -> Mapping[PointsKey, float]:
    """Return each finished seat's tournament points, by (round, table, player).

    MCS (seed 001): s / R, so a player's points add up to Pts = Sc / R; a sit-out is not a
    round played and scores 0. Other systems: the game score; a sit-out scores
    ``sitout_score``, an absence 0; with ``best = N`` only the N best games count (the
    others score 0 here and are shown as not counted on the player page).
    """
    config = event.config
    options = options_of(config)
    system = system_of(config)
    points: dict[PointsKey, float] = {}
    if system.comparative:
        table = mcs_table(event.rounds, options, int(options["final_round"]), upto)
        for line in table.games:
            rounds = table.players[line.player].rounds
            points[(line.round, line.table, line.player)] = line.s / rounds
        return points
    scores = game_score_lines(event, upto)
    best = int(options["best"])
    by_player: dict[str, list[tuple[PointsKey, float]]] = {}
    for key, score in scores.items():
        by_player.setdefault(key[2], []).append((key, score))
    for games in by_player.values():
        ranked = sorted(games, key=lambda g: (-g[1], g[0][0], g[0][1]))
        for k, (key, score) in enumerate(ranked):
            points[key] = score if best <= 0 or k < best else 0.0
    return points


def game_score_lines(event: Event, upto: int | None) -> dict[PointsKey, float]:
    """Return every finished seat's game score (sit-outs: ``sitout_score``; absences: 0)."""
    options = options_of(event.config)
    system = system_of(event.config)
    scores: dict[PointsKey, float] = {}
    for rnd in event.rounds:
        if upto is not None and rnd.number > upto:
            break
        for game in rnd.games:
            if not game.finished:
                continue
            if is_board(game):
                for pid, score in game_scores(game, system, options).items():
                    scores[(rnd.number, game.table, pid)] = score
            else:
                for seat in game.seats:
                    value = float(options["sitout_score"]) if seat.result == SITOUT else 0.0
                    scores[(rnd.number, game.table, seat.player)] = value
    return scores


def final_groups(event: Event, upto: int | None = None) -> dict[str, int]:
    """Return each finalist's standings group: 2 for a final soloist, 1 for the others.

    Seed 001: a finalist "could still win the tournament by winning the game"; "The
    entrants who played in the final would have a separate top seven table for
    themselves to prevent the final moving them down the tournament rankings". Players
    not in the group map rank below every finalist (group 0). Empty until the final
    board (board 1 of ``[options] final_round``) has its result.
    """
    final_round = int(options_of(event.config)["final_round"])
    if not final_round or (upto is not None and upto < final_round):
        return {}
    for rnd in event.rounds:
        if rnd.number != final_round:
            continue
        for game in rnd.games:
            if game.table == 1 and is_board(game) and game.finished:
                return {seat.player: 2 if seat.result == SOLO else 1 for seat in game.seats}
    return {}
