"""Building small events directly from the model, for unit tests.

Rows are ``(player_1, player_2, result)`` or ``(player_1, player_2, result, stats)`` with
``stats`` a dict ``{"cp": (3, 1)}``; ``player_2`` may be ``BYE`` or ``ABSENT``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from standgen.formats import FORMATS
from standgen.model import Event, EventConfig, Game, GameKind, Player, Round, Seat
from standgen.results import RESULTS, UNPLAYED_RESULTS

Row = tuple[Any, ...]


def player(pid: str, **fields: Any) -> Player:
    return Player(id=pid, name=fields.pop("name", pid.title()), **fields)


def make_round(number: int, rows: Sequence[Row], fmt: str = "steamroller") -> Round:
    games = []
    for table, row in enumerate(rows, start=1):
        a, b, result = row[0], row[1], row[2]
        stats: Mapping[str, tuple[float, float]] = row[3] if len(row) > 3 else {}
        s1 = {k: float(v[0]) for k, v in stats.items()}
        s2 = {k: float(v[1]) for k, v in stats.items()}
        if b in ("BYE", "ABSENT"):
            kind = GameKind.BYE if b == "BYE" else GameKind.ABSENT
            default = FORMATS[fmt].bye_outcome if b == "BYE" else FORMATS[fmt].absent_outcome
            outcome = UNPLAYED_RESULTS.get(result, default)
            games.append(Game(number, table, (Seat(a, outcome, s1),), kind))
        elif result:
            o1, o2, kind = RESULTS[result]
            games.append(Game(number, table, (Seat(a, o1, s1), Seat(b, o2, s2)), kind))
        else:
            games.append(Game(number, table, (Seat(a, None, s1), Seat(b, None, s2))))
    return Round(number, tuple(games))


def make_event(
    players: Iterable[str | Player],
    round_rows: Sequence[Sequence[Row]],
    fmt: str = "steamroller",
    **config: Any,
) -> Event:
    people = tuple(p if isinstance(p, Player) else player(p) for p in players)
    cfg = EventConfig(
        name=config.pop("name", "Test Event"), date=dt.date(2026, 1, 1), format=fmt,
        seed=config.pop("seed", 1), **config,
    )
    return Event(
        path=("test",), config=cfg, players=people,
        rounds=tuple(make_round(k, rows, fmt) for k, rows in enumerate(round_rows, start=1)),
    )
