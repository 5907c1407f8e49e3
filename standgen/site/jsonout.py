"""``standings.json`` and ``pairings.json``, exactly as data contract section 3 lays them out."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from standgen.model import Event, GameKind, Player, Round
from standgen.privacy import level
from standgen.site.numbers import json_number
from standgen.site.results import result_of, seat_result
from standgen.standings import Standings
from standgen.teams import team_standings
from standgen.teams.ranking import TeamStandings
from standgen.teams.ranking import team_standings as ranked_team_standings
from standgen.teams.standings import TEAM_TIEBREAKS

PROPOSED = "proposed"
IN_PROGRESS = "in-progress"
COMPLETE = "complete"


def dumps(document: Any, fast: bool = True) -> bytes:
    """Return a JSON document as UTF-8 bytes: 2-space indent, key order kept, final newline.

    The text is ``json.dumps(document, ensure_ascii=False, indent=2)``, written by
    :func:`_write` (Python's own encoder leaves its C code for pure Python as soon as
    an indent is asked for; the documents here are small trees of dicts, lists, strings
    and numbers, written three times quicker in one recursive pass). Anything else (a
    key that is not a string, another type) goes to ``json.dumps`` itself; so does
    everything when not ``fast``.
    """
    if fast:
        out: list[str] = []
        try:
            _write(document, "\n", out)
        except _Unusual:
            pass
        else:
            out.append("\n")
            return "".join(out).encode()
    return (json.dumps(document, ensure_ascii=False, indent=2, sort_keys=False) + "\n").encode()


def _row_writer() -> Callable[[Any], str]:
    """Return ``json.dumps(value, ensure_ascii=False)`` as one function: the compiled
    encoder made once (``json.dumps`` with an argument makes a new encoder, in Python,
    at every call: most of the time of a short row), else ``json.dumps`` itself."""
    make = getattr(json.encoder, "c_make_encoder", None)  # CPython's _json, when compiled
    if make is None:
        return lambda value: json.dumps(value, ensure_ascii=False)
    default = json.JSONEncoder().default  # raises TypeError, as json.dumps does
    encode = make({}, default, json.encoder.encode_basestring, None, ": ", ", ", False,
                  False, True)
    return lambda value: "".join(encode(value, 0))


_row = _row_writer()


def dumps_rows(document: dict[str, Any], written: Mapping[str, Sequence[str]] | None = None
               ) -> bytes:
    """Return a JSON document of rows as UTF-8 bytes: as :func:`dumps` writes it, but each
    item of a list of objects (a game, a rating, a matchup) on one line of its own, as
    ``json.dumps(item, ensure_ascii=False)`` writes it (``", "`` and ``": "``).

    The club's JSON files (a player's ``ratings.json``: every rated game; a rating list;
    a meta) are thousands of such rows. Written a line a row, they are half the bytes and
    Python writes each row with its compiled encoder (the indented form is pure Python):
    the same JSON values, read the same by any JSON reader, and a row a line in a diff.

    ``written`` holds, by key, rows written already, a line each, as ``json.dumps`` of
    each would write it (:mod:`standgen.site.club_json`): the document's value there is
    then not read, unless no row is written (an empty list: ``[]``).
    """
    out = ["{"]
    first = True
    for key, value in document.items():
        out.append("\n  " if first else ",\n  ")
        first = False
        out.append(_string(key) + ": ")
        lines = None if written is None else written.get(key)
        if lines:
            out.append("[\n    " + ",\n    ".join(lines) + "\n  ]")
        elif (type(value) is list and value
                and all(type(item) is dict for item in value)):
            out.append("[\n    ")
            out.append(",\n    ".join(_row(item) for item in value))
            out.append("\n  ]")
        elif type(value) is dict and value and all(
                type(v) is list and v and all(type(i) is dict for i in v)
                for v in value.values()):
            out.append(_rows_of_dict(value))
        else:
            out.append(json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  "))
    out.append("\n}\n" if document else "}\n")
    return "".join(out).encode()


def _rows_of_dict(value: dict[str, list[dict[str, Any]]]) -> str:
    """Return an object of lists of rows (a meta's breakdowns by id) at the second level,
    each row on one line."""
    parts = []
    for key, rows in value.items():
        parts.append(_string(key) + ": [\n      "
                     + ",\n      ".join(_row(row) for row in rows)
                     + "\n    ]")
    return "{\n    " + ",\n    ".join(parts) + "\n  }"


class _Unusual(Exception):
    """A value :func:`_write` leaves to ``json.dumps``."""


_string = json.encoder.encode_basestring  # ensure_ascii=False: C where Python has it
_INFINITY = float("inf")


def _write(value: Any, newline: str, out: list[str]) -> None:
    """Append ``value`` as JSON to ``out``; ``newline`` is the line break and the indent
    of the current level (``json.dumps`` with ``indent=2``: items on their own lines,
    ``", "`` never used, ``": "`` after keys, ``[]`` and ``{}`` when empty)."""
    kind = type(value)
    if kind is str:
        out.append(_string(value))
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float:
        if value != value or value in (_INFINITY, -_INFINITY):
            raise _Unusual
        out.append(float.__repr__(value))
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif value is None:
        out.append("null")
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        first = True
        for key, item in value.items():
            if type(key) is not str:
                raise _Unusual
            out.append("{" + inner if first else "," + inner)
            first = False
            out.append(_string(key))
            out.append(": ")
            _write(item, inner, out)
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        first = True
        for item in value:
            out.append("[" + inner if first else "," + inner)
            first = False
            _write(item, inner, out)
        out.append(newline + "]")
    else:
        raise _Unusual


def standings_document(event: Event, standings: Standings) -> dict[str, Any]:
    """Return the ``standings.json`` document of an event (contract section 3); an event
    with teams also has ``"teams"`` (docs/teams.md)."""
    document = {
        "event": event.config.name,
        "format": event.config.format,
        "rounds_played": standings.rounds_complete,
        "finished": standings.finished,
        "tiebreaks": list(standings.tiebreaks),
        "standings": [
            {
                "rank": row.rank,
                "id": row.player.id,
                "name": row.player.name,
                "score": json_number(row.score),
                "tiebreaks": {tb: json_number(row.values[tb].value) for tb in standings.tiebreaks},
            }
            for row in standings.rows
        ],
    }
    if event.config.teams.matches:
        ranked = ranked_team_standings(event, tuple(s.id for s in standings.format.stats))
        document["team_tiebreaks"] = list(ranked.ids)
        document["teams"] = team_matches_document(event, ranked)
    elif event.teams:
        document["teams"] = teams_document(standings)
    return document


def team_matches_document(event: Event, ranked: TeamStandings) -> list[dict[str, Any]]:
    """Return standings.json's ``"teams"`` of a team-vs-team event (docs/teams.md, "Team
    matches"): the shape of ``"standings"`` (rank, id, name, ``score`` = Wins, tiebreaks
    by id: ``sos``, ``tp`` and the format's stats; a chess team event's ``score`` its
    match points and its C.07 team tie-breaks by id), with ``members``, ``counted``
    (every member counts) and ``unlisted`` as an individual event's teams have them."""
    rows = []
    for row in ranked.rows:
        members = [p for p in event.players if p.team == row.team.id]
        shown = [p.id for p in members if listed(p, event)]
        rows.append({
            "rank": row.rank,
            "id": row.team.id,
            "name": row.team.name,
            "score": json_number(row.score),
            "tiebreaks": {tb: json_number(v) for tb, v in zip(
                ranked.ids, row.values, strict=True)},
            "members": shown,
            "counted": shown,
            "unlisted": len(members) - len(shown),
            "matches": {"won": row.record[0], "drawn": row.record[1], "lost": row.record[2]},
        })
    return rows


def listed(player: Player, event: Event) -> bool:
    """Return whether a team's page and standings.json name ``player`` as a member: only
    a player published in full, as the club is (docs/privacy.md); the others count for
    their team without being named."""
    return level(player, event) == "full"


def teams_document(standings: Standings) -> list[dict[str, Any]]:
    """Return standings.json's ``"teams"``: a list in the shape of ``"standings"`` (rank,
    id, name, score, tiebreaks by id) with each team's ``members`` (player ids, best
    placed first), which of them are ``counted``, and how many members are ``unlisted``
    (not published in full: :func:`listed`)."""
    event = standings.event
    return [
        {
            "rank": team.rank,
            "id": team.team.id,
            "name": team.team.name,
            "score": json_number(team.score),
            "tiebreaks": dict(zip(TEAM_TIEBREAKS, (json_number(team.all), team.best),
                                  strict=True)),
            "members": [r.player.id for r in team.members if listed(r.player, event)],
            "counted": [r.player.id for r in team.counted if listed(r.player, event)],
            "unlisted": sum(1 for r in team.members if not listed(r.player, event)),
        }
        for team in team_standings(standings)
    ]


def round_status(rnd: Round, proposed: bool) -> str:
    """Return ``proposed``, ``in-progress`` or ``complete`` (contract section 3)."""
    if proposed:
        return PROPOSED
    return COMPLETE if rnd.finished else IN_PROGRESS


def pairings_document(rnd: Round, proposed: bool) -> dict[str, Any]:
    """Return the ``pairings.json`` document of a round (contract section 3).

    A ``BYE`` row is not a table: its player goes into ``bye`` (the lowest table's, should
    a round hold two, as Diplomacy sit-outs can) and every such player into ``byes``, an
    extension of the contract. An ``ABSENT`` row is left out. A game with more than two seats
    (a Diplomacy board) lists ``seats`` with each player's power and, once finished, the
    seat's result word.
    """
    byes: list[str] = []
    tables: list[dict[str, Any]] = []
    for game in sorted(rnd.games, key=lambda g: g.table):
        if game.kind is GameKind.BYE:
            byes.append(game.seats[0].player)
            continue
        if game.kind is GameKind.ABSENT:
            continue
        table: dict[str, Any] = {"table": game.table}
        if len(game.seats) > 2:
            table["seats"] = [
                _seat(seat.player, seat.power, seat_result(seat)) for seat in game.seats
            ]
        else:
            table["players"] = [seat.player for seat in game.seats]
        table["result"] = result_of(game)
        tables.append(table)
    return {
        "round": rnd.number,
        "status": round_status(rnd, proposed),
        "bye": byes[0] if byes else None,
        "byes": byes,
        "tables": tables,
    }


def _seat(player: str, power: str, result: str | None) -> dict[str, Any]:
    seat: dict[str, Any] = {"player": player, "power": power}
    if result is not None:
        seat["result"] = result
    return seat
