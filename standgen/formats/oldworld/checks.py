"""Old World checks: a played game's VPs and result agree with the band table; the
event's options are valid."""

from __future__ import annotations

from standgen.errors import Problem
from standgen.formats.oldworld.bands import (
    band_for,
    bands_of,
    outcomes_of,
    parse_bands,
    vp_text,
    vps_of,
)
from standgen.model import Event, EventConfig, Game, GameKind, Outcome
from standgen.results import result_code


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
            return [Problem(path, line, f"result '{_code(outcomes)}' has no victory "
                            "points; enter vp_1 and vp_2 (the tournament points follow from "
                            "their difference)")]
        return []
    return _disagreement(game, config, outcomes, path)


def _disagreement(game: Game, config: EventConfig,
                  outcomes: tuple[Outcome | None, Outcome | None], path: str) -> list[Problem]:
    """Return a problem when a played game's result is not the one its VPs give under
    the band table (none without a table, VPs or result)."""
    line = game.source.line
    bands = bands_of(config)
    vps = vps_of([s.stats for s in game.seats])
    if not bands or vps is None or outcomes[0] is None:
        return []
    expected: tuple[Outcome | None, Outcome | None] = outcomes_of(vps, bands)
    if expected == outcomes:
        return []
    band = band_for(vps[0] - vps[1], bands)
    return [Problem(path, line, f"result '{_code(outcomes)}' disagrees with the "
                    f"victory points {vp_text(vps[0])}-{vp_text(vps[1])}: a difference of "
                    f"{vp_text(abs(vps[0] - vps[1]))} is a {band.name} (from {band.start}); "
                    f"write '{_code(expected)}', leave the result empty to derive it, or "
                    "correct vp_1/vp_2")]


def _code(outcomes: tuple[Outcome | None, Outcome | None]) -> str:
    """Return the code of a played game's outcomes, or ``?`` when none says them."""
    return result_code(outcomes, GameKind.PLAYED) or "?"


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
            problems.append(Problem(path, event.config.option_lines.get("bands", 1),
                                    f"option 'bands': {error}"))
    spares = [p for p in event.players if p.spare]
    for extra in spares[1:]:
        problems.append(Problem(extra.source.path, extra.source.line, f"'{extra.id}' is a "
                                f"second spare player (the first is '{spares[0].id}'); mark "
                                "one player spare = yes"))
    return problems
