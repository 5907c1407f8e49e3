"""CSV downloads of standings and pairings (the JSON files are in :mod:`jsonout`).

Names come from ``players.csv`` and are untrusted: a cell a spreadsheet would run as a
formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, or their
full-width forms) is prefixed with ``'`` (OWASP, "CSV Injection"; see
:func:`standgen.spreadsheet.neutralise`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence

from standgen.model import Game, GameKind, Player, Round
from standgen.site.numbers import json_number
from standgen.site.results import result_of, seat_result
from standgen.spreadsheet import neutralise as neutralise  # re-exported (clubs.export)
from standgen.standings import Standings


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """Return a CSV file (RFC 4180 line ends, UTF-8) with every cell neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([neutralise(h) for h in header])
    for row in rows:
        writer.writerow([neutralise(_text(cell)) for cell in row])
    return out.getvalue().encode()


def _text(cell: object) -> str:
    if cell is None:
        return ""
    if isinstance(cell, float | int) and not isinstance(cell, bool):
        return str(json_number(float(cell)))
    return str(cell)


def standings_csv(standings: Standings) -> bytes:
    """Return ``standings.csv``: rank, id, name, faction, score, tiebreaks, W, D, L."""
    header = ["rank", "id", "name", "faction", "score", *standings.tiebreaks,
              "wins", "draws", "losses"]
    rows = (
        [row.rank, row.player.id, row.player.name, row.player.faction, row.score,
         *(row.values[tb].value for tb in standings.tiebreaks), row.wins, row.draws, row.losses]
        for row in standings.rows
    )
    return csv_bytes(header, rows)


def pairings_csv(rnd: Round, players: Mapping[str, Player]) -> bytes:
    """Return a round's ``pairings.csv``: one row per table, or one per seat for boards.

    Two-player tables: ``table,player_1,name_1,faction_1,player_2,name_2,faction_2,result``
    (``player_2`` is ``BYE`` or ``ABSENT`` for a player alone). Boards of more than two
    seats: ``board,player,name,power,result``; a player sitting out has no board (the
    ``board`` cell is empty, as in the round file) and the result ``sitout``.
    """
    games = sorted(rnd.games, key=lambda g: g.table)
    if any(len(g.seats) > 2 for g in games):
        return csv_bytes(
            ["board", "player", "name", "power", "result"],
            (
                ["" if len(g.seats) == 1 else g.table, s.player, _name(players, s.player),
                 s.power or _faction(players, s.player), seat_result(s) or ""]
                for g in games
                for s in g.seats
            ),
        )
    return csv_bytes(
        ["table", "player_1", "name_1", "faction_1", "player_2", "name_2", "faction_2", "result"],
        (_two_player_row(g, players) for g in games),
    )


def _two_player_row(game: Game, players: Mapping[str, Player]) -> list[object]:
    one = game.seats[0].player
    row: list[object] = [game.table, one, _name(players, one), _faction(players, one)]
    if len(game.seats) == 1:
        word = "BYE" if game.kind is GameKind.BYE else "ABSENT"
        row += [word, "", ""]
    else:
        two = game.seats[1].player
        row += [two, _name(players, two), _faction(players, two)]
    row.append(result_of(game) or "")
    return row


def _name(players: Mapping[str, Player], pid: str) -> str:
    player = players.get(pid)
    return player.name if player is not None else pid


def _faction(players: Mapping[str, Player], pid: str) -> str:
    player = players.get(pid)
    return player.faction if player is not None else ""
