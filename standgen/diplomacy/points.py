"""Tournament points from Diplomacy boards: game scores, best N, sit-outs, MCS."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
    round played and scores 0. Other systems: the game score times its weight from
    :func:`game_weights` (every game 1; ``best = N``: the N best 1, the others 0;
    ``weights``: the best game times the first weight, the second best times the second
    ...; the final board times ``final_weight``).
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
    weights = game_weights(event, scores)
    return {key: score * weights[key] for key, score in scores.items()}


def counting_weights(options: Mapping[str, Any]) -> tuple[float, ...] | None:
    """Return the weight of a player's best, second best ... game, or None (all count 1).

    ``[options] weights`` (WDC 2019, diplomed.free.fr "WDC 2019: official rules":
    "Qualification for Top board : Best score 100% + Second score 80% + Third score 40 %"
    is ``weights = [1, 0.8, 0.4]``), else ``best = N`` (N weights of 1); games past the
    list count 0.
    """
    listed = options.get("weights") or []
    if listed:
        return tuple(float(w) for w in listed)
    best = int(options.get("best", 0))
    return (1.0,) * best if best > 0 else None


def final_key(event: Event) -> tuple[int, int] | None:
    """Return (round, table) of the final board (board 1 of ``final_round``), or None."""
    final_round = int(options_of(event.config)["final_round"])
    return (final_round, 1) if final_round else None


def game_weights(event: Event, scores: Mapping[PointsKey, float]) -> dict[PointsKey, float]:
    """Return each game's weight in the tournament score (systems other than MCS).

    The final board's game counts ``final_weight`` times (seed 001: "the score for the
    final would be doubled" is ``final_weight = 2``; 1 by default) and is ranked with
    that weight among the player's games; then :func:`counting_weights` applies, best
    game first (equal scores: the earlier round first).
    """
    options = options_of(event.config)
    final = final_key(event)
    factor = float(options["final_weight"])
    ladder = counting_weights(options)
    weights: dict[PointsKey, float] = {}
    by_player: dict[str, list[tuple[PointsKey, float]]] = {}
    for key, score in scores.items():
        own = factor if final is not None and key[:2] == final else 1.0
        by_player.setdefault(key[2], []).append((key, score * own))
        weights[key] = own
    for games in by_player.values():
        ranked = sorted(games, key=lambda g: (-g[1], g[0][0], g[0][1]))
        for k, (key, _) in enumerate(ranked):
            if ladder is not None:
                weights[key] *= ladder[k] if k < len(ladder) else 0.0
    return weights


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
    """Return each finalist's standings group: higher groups rank first, others are 0.

    Seed 001: a finalist "could still win the tournament by winning the game"; "The
    entrants who played in the final would have a separate top seven table for
    themselves to prevent the final moving them down the tournament rankings". By default
    (``final_order = "total"``) a final soloist is group 2 and the other finalists group 1,
    ordered by their tournament score. ``final_order = "board"`` orders the finalists by
    their game score on the final board (WDC 2019 rules: "World Champion : 1st of the Top
    Board"), equal board scores by the tournament score. Empty until the final board
    (board 1 of ``[options] final_round``) has its result.
    """
    options = options_of(event.config)
    final_round = int(options["final_round"])
    if not final_round or (upto is not None and upto < final_round):
        return {}
    for rnd in event.rounds:
        if rnd.number != final_round:
            continue
        for game in rnd.games:
            if game.table == 1 and is_board(game) and game.finished:
                if options["final_order"] == "board":
                    scores = game_scores(game, system_of(event.config), options)
                    levels = sorted(set(scores.values()))
                    return {pid: 1 + levels.index(v) for pid, v in scores.items()}
                return {seat.player: 2 if seat.result == SOLO else 1 for seat in game.seats}
    return {}
