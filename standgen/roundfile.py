"""Writing round files: the proposed pairings as ``round-N.csv`` with empty results."""

from __future__ import annotations

import csv
import io

from standgen.formats.base import Format
from standgen.load.boards import boards_csv
from standgen.load.rounds import ABSENT, BYE, columns, result_code
from standgen.model import GameKind, Round


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def round_csv(fmt: Format, rnd: Round) -> str:
    """Return the CSV text of a two-player round: pairings, results where known, stats."""
    if fmt.seats > 2:
        return boards_csv(rnd)
    required, optional = columns(fmt)
    header = list(required) + list(optional)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for game in rnd.games:
        cells = {c: "" for c in header}
        cells["table"] = str(game.table)
        cells["player_1"] = game.seats[0].player
        if game.kind in (GameKind.BYE, GameKind.ABSENT):
            cells["player_2"] = BYE if game.kind is GameKind.BYE else ABSENT
        else:
            cells["player_2"] = game.seats[1].player
        cells["result"] = result_code(tuple(s.outcome for s in game.seats), game.kind)
        for k, seat in enumerate(game.seats, start=1):
            for stat, value in seat.stats.items():
                if f"{stat}_{k}" in cells:
                    cells[f"{stat}_{k}"] = _number(value)
        for column, value in game.extra.items():
            if column in cells:
                cells[column] = _number(value)
        writer.writerow([cells[c] for c in header])
    return out.getvalue()
