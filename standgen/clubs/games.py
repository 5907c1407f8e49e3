"""The archive as one tidy table: a row per player per game (issue #20).

Built from the model and the standings (never from the HTML), so everything a club looks
at across years (ratings, the meta of factions and powers, the exported workbook) is
grouped and pivoted from the same rows. A game's ``points`` are the points the format's
rule gave that seat (the standings' own records), so summing them per player and event
gives the standings score back; McMahon's score also counts the player's starting
McMahon score (``start``), as OpenGotha's MMS does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from standgen.model import Event, GameKind, Season
from standgen.pipeline import EventReport

COLUMNS = ("event", "event_name", "date", "season", "format", "round", "table", "kind",
           "player", "name", "faction", "rank", "rating", "colour", "opponents",
           "opponent_factions", "opponent_ranks", "opponent_ratings", "seats", "outcome",
           "result", "points", "start", "handicap")


def season_of(event: Event, seasons: Sequence[Season]) -> str:
    """Return the name of the innermost season holding ``event`` ("" when none does)."""
    inside = [s for s in seasons if event.path[: len(s.path)] == s.path
              and len(event.path) > len(s.path)]
    return max(inside, key=lambda s: len(s.path)).name if inside else ""


def games_frame(reports: Iterable[EventReport], seasons: Sequence[Season] = ()) -> pd.DataFrame:
    """Return the tidy table of every finished game of ``reports``: one row per seat.

    ``kind`` is played, forfeit, bye or absent; ``opponents`` (and their factions, ranks
    and ratings) are joined with ``;`` for Diplomacy's six opponents; ``colour`` is
    ``white``/``black`` where the format has colours (seat 1 plays White in chess and Go,
    data contract section 1); ``start`` is the player's starting score (McMahon's initial
    MMS, 0 elsewhere).
    """
    rows: list[dict[str, object]] = []
    for made in reports:
        rows.extend(_event_rows(made, seasons))
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    return frame.astype({"round": "int64", "table": "int64", "points": "float64",
                         "start": "float64", "seats": "int64"})


def _event_rows(made: EventReport, seasons: Sequence[Season]) -> list[dict[str, object]]:
    event = made.event
    fmt = made.standings.format
    players = event.player_by_id
    season = season_of(event, seasons)
    start = _starts(event)
    coloured = bool(fmt.seat_headers)
    date = event.config.date.isoformat()
    rows: list[tuple[tuple[int, int, str], dict[str, object]]] = []
    for record in made.standings.records.values():
        for entry in record.entries:
            game, seat = entry.game, entry.seat
            if not game.finished:
                continue
            player = players[seat.player]
            others = [(s, players[s.player]) for s in game.seats
                      if s.player != seat.player and s.player in players]
            white = coloured and len(game.seats) == 2
            rows.append(((game.round, game.table, player.id), {
                "event": event.slug, "event_name": event.config.name,
                "date": date, "season": season,
                "format": event.config.format, "round": game.round, "table": game.table,
                "kind": game.kind.value, "player": player.id, "name": player.name,
                "faction": seat.power or player.faction, "rank": player.rank,
                "rating": player.rating,
                "colour": ("white" if game.seats[0] is seat else "black") if white else "",
                "opponents": ";".join(o.id for _, o in others),
                "opponent_factions": ";".join(s.power or o.faction for s, o in others),
                "opponent_ranks": ";".join(o.rank for _, o in others),
                "opponent_ratings": ";".join("" if o.rating is None else f"{o.rating:g}"
                                             for _, o in others),
                "seats": len(game.seats),
                "outcome": seat.outcome.value if seat.outcome else "",
                "result": seat.result or (seat.outcome.value if seat.outcome else ""),
                "points": float(entry.points),
                "start": start.get(player.id, 0.0),
                "handicap": game.extra.get("handicap", 0.0)
                if game.kind is GameKind.PLAYED else 0.0,
            }))
    return [row for _, row in sorted(rows, key=lambda pair: pair[0])]


def _starts(event: Event) -> dict[str, float]:
    """Return each player's starting score: McMahon's initial MMS, else nothing."""
    if event.config.format != "mcmahon":
        return {}
    from standgen.formats.mcmahon import initial_mms

    return {p.id: float(initial_mms(p, event.config)) for p in event.players}
