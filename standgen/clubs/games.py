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
from standgen.site.formats import views_of

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
    """Return the tidy table of every finished game of ``reports``: one row per seat,
    by event, round, table and player.

    ``kind`` is played, forfeit, bye or absent; ``opponents`` (and their factions, ranks
    and ratings) are joined with ``;`` for Diplomacy's six opponents; ``colour`` is
    ``white``/``black`` where the format has colours (seat 1 plays White in chess and Go,
    data contract section 1); ``start`` is the player's starting score (McMahon's initial
    MMS, 0 elsewhere).
    """
    columns: dict[str, list[object]] = {name: [] for name in COLUMNS}
    for made in reports:
        _event_rows(made, seasons, columns)
    frame = pd.DataFrame(columns).astype({"round": "int64", "table": "int64",
                                          "points": "float64", "start": "float64",
                                          "seats": "int64", "rating": "float64",
                                          "handicap": "float64"})
    return frame.sort_values(["event", "round", "table", "player"], kind="stable",
                             ignore_index=True)


def _event_rows(made: EventReport, seasons: Sequence[Season],
                columns: dict[str, list[object]]) -> None:
    """Append one event's rows to ``columns``."""
    event = made.event
    fmt = made.standings.format
    players = event.player_by_id
    season = season_of(event, seasons)
    start = _starts(event)
    coloured = bool(views_of(fmt).seat_headers)  # chess: player_1 has White
    date = event.config.date.isoformat()
    add = {name: columns[name].append for name in COLUMNS}
    for record in made.standings.records.values():
        for entry in record.entries:
            game, seat = entry.game, entry.seat
            if not game.finished:
                continue
            player = players[seat.player]
            others = [(s, players[s.player]) for s in game.seats
                      if s.player != seat.player and s.player in players]
            white = coloured and len(game.seats) == 2
            outcome = seat.outcome.value if seat.outcome else ""
            add["event"](event.slug)
            add["event_name"](event.config.name)
            add["date"](date)
            add["season"](season)
            add["format"](event.config.format)
            add["round"](game.round)
            add["table"](game.table)
            add["kind"](game.kind.value)
            add["player"](player.id)
            add["name"](player.name)
            add["faction"](seat.power or player.faction)
            add["rank"](player.rank)
            add["rating"](player.rating)
            add["colour"](("white" if game.seats[0] is seat else "black") if white else "")
            add["opponents"](";".join(o.id for _, o in others))
            add["opponent_factions"](";".join(s.power or o.faction for s, o in others))
            add["opponent_ranks"](";".join(o.rank for _, o in others))
            add["opponent_ratings"](";".join("" if o.rating is None else f"{o.rating:g}"
                                             for _, o in others))
            add["seats"](len(game.seats))
            add["outcome"](outcome)
            add["result"](seat.result or outcome)
            add["points"](float(entry.points))
            add["start"](start.get(player.id, 0.0))
            add["handicap"](game.extra.get("handicap", 0.0)
                            if game.kind is GameKind.PLAYED else 0.0)


def _starts(event: Event) -> dict[str, float]:
    """Return each player's starting score: McMahon's initial MMS, else nothing."""
    if event.config.format != "mcmahon":
        return {}
    from standgen.formats.mcmahon import initial_mms

    return {p.id: float(initial_mms(p, event.config)) for p in event.players}
