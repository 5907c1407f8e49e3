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
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING

from standgen.formats import FORMATS
from standgen.model import Event, GameKind, Outcome, Season, Seat
from standgen.pipeline import EventReport

if TYPE_CHECKING:  # pandas loads when a table is made, not with every build
    import pandas as pd

Row = tuple[object, ...]
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
    return frame_of(event_games(made, seasons) for made in reports)


@dataclass(frozen=True)
class EventGames:
    """One event's part of the tidy table: its own columns once, a row per seat.

    Small and picklable, so a build can keep each event's part between builds (as it
    keeps summaries) and make the archive's table with :func:`frame_of`, no report needed.
    """

    head: tuple[str, str, str, str, str]  # event, event_name, date, season, format
    rows: tuple[Row, ...]  # the columns of _ROW, by round, table, player
    rated: bool = True  # False: ``rated = false`` under [options], left out of ratings
    path: tuple[str, ...] = ()  # the event's folder (what a build state keys it by)
    players: tuple[tuple[str, str], ...] = ()  # players.csv's (id, name), games or none


def event_games(made: EventReport, seasons: Sequence[Season] = ()) -> EventGames:
    """Return one event's part of the tidy table, as published (docs/privacy.md)."""
    made = made.public
    event = made.event
    rows = _event_rows(made)
    rows.sort(key=_ORDER)  # stable: by round, table, player
    return EventGames((event.slug, event.config.name, event.config.date.isoformat(),
                       season_of(event, seasons), event.config.format), tuple(rows),
                      event.config.options.get("rated", True) is not False, event.path,
                      tuple((p.id, p.name) for p in event.players))


def frame_of(parts: Iterable[EventGames]) -> pd.DataFrame:
    """Return the tidy table of the events' parts, events by folder."""
    columns: dict[str, list[object]] = {name: [] for name in COLUMNS}
    for part in sorted(parts, key=lambda p: p.head[0]):
        for name, value in zip(COLUMNS[:5], part.head, strict=True):
            columns[name].extend([value] * len(part.rows))
        for name, values in zip(_ROW, zip(*part.rows, strict=True) if part.rows else
                                ((),) * len(_ROW), strict=True):
            columns[name].extend(values)
    import pandas as pd

    return pd.DataFrame(columns).astype({"round": "int64", "table": "int64",
                                         "points": "float64", "start": "float64",
                                         "seats": "int64", "rating": "float64",
                                         "handicap": "float64"})


# the columns of :func:`_event_rows`' rows (the others are the event's own)
_ROW = COLUMNS[5:]
_ORDER = itemgetter(0, 1, 3)  # round, table, player
_OUTCOME = {outcome: outcome.value for outcome in Outcome}
_KIND = {kind: kind.value for kind in GameKind}
_NOBODY = ("", "", "", "")


def _event_rows(made: EventReport) -> list[Row]:
    """Return one event's rows (the columns of :data:`_ROW`), as its records hold them."""
    event = made.event
    coloured = made.standings.format.colours  # chess and Go: seat 1 plays White
    start = _starts(event)
    people = {p.id: (p.id, p.name, p.faction, p.rank, p.rating,
                     "" if p.rating is None else f"{p.rating:g}") for p in event.players}
    rows: list[Row] = []
    append = rows.append
    for record in made.standings.records.values():
        for entry in record.entries:
            game, seat = entry.game, entry.seat
            if not game.finished:
                continue
            pid, name, faction, rank, rating, _ = people[seat.player]
            seats = game.seats
            if len(seats) == 2:  # the common case, without joining
                other = seats[1] if seats[0].player == pid else seats[0]
                them = people.get(other.player)
                opponents = (_NOBODY if them is None or other.player == pid
                             else (them[0], other.power or them[2], them[3], them[5]))
            else:
                opponents = _opponents(seats, seat, people)
            outcome = _OUTCOME.get(seat.outcome, "")  # type: ignore[arg-type]
            kind = game.kind
            colour = ""
            if coloured and len(seats) == 2:
                colour = "white" if seats[0] is seat else "black"
            append((game.round, game.table, _KIND[kind], pid, name, seat.power or faction,
                    rank, rating, colour, *opponents, len(seats), outcome,
                    seat.result or outcome, float(entry.points), start.get(pid, 0.0),
                    game.extra.get("handicap", 0.0) if kind is GameKind.PLAYED else 0.0))
    return rows


def _opponents(seats: Sequence[Seat], seat: Seat,
               people: dict[str, tuple[str, str, str, str, float | None, str]]
               ) -> tuple[str, str, str, str]:
    """Return the ids, factions (powers), ranks and ratings of ``seat``'s opponents at a
    board, each joined with ``;`` (players missing from players.csv left out)."""
    others = [(s, people[s.player]) for s in seats
              if s.player != seat.player and s.player in people]
    return (";".join(o[0] for _, o in others), ";".join(s.power or o[2] for s, o in others),
            ";".join(o[3] for _, o in others), ";".join(o[5] for _, o in others))


def _starts(event: Event) -> dict[str, float]:
    """Return each player's starting score (the format's ``starting_score``: McMahon's
    initial MMS), else nothing."""
    start = FORMATS[event.config.format].starting_score
    if start is None:
        return {}
    return {p.id: float(start(p, event.config)) for p in event.players}
