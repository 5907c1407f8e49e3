"""round-N.csv for two-player formats (data contract section 1)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from standgen.errors import Problem, errors_only
from standgen.formats.base import Format
from standgen.load.files import Row, display, parse_int, parse_number, read_csv, suggest
from standgen.model import EventConfig, Game, GameKind, Outcome, Player, Round, Seat, Source
from standgen.results import ACCEPTED, RESULTS, UNPLAYED_RESULTS, normalise_result

BYE, ABSENT = "BYE", "ABSENT"
def columns(fmt: Format) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return the required and optional columns of the format's round files."""
    required = ["table", "player_1", "player_2", "result"]
    optional: list[str] = []
    for stat in fmt.stats:
        (required if stat.required else optional).extend((f"{stat.id}_1", f"{stat.id}_2"))
    optional.extend(fmt.game_columns)
    return tuple(required), tuple(optional)


def load_round(
    path: Path, number: int, fmt: Format, config: EventConfig,
    players: Mapping[str, Player], problems: list[Problem],
) -> Round | None:
    """Return one round file as a Round, or None; every problem is recorded."""
    required, optional = columns(fmt)
    start = len(problems)
    table = read_csv(path, required, optional, problems)
    if table is None:
        return None
    _, rows = table
    where = display(path)
    games: list[Game] = []
    tables: dict[int, int] = {}
    seen: dict[str, int] = {}
    respelt: list[tuple[int, str, str]] = []  # (line, as typed, as read)
    for row in rows:
        game = _game(row, number, fmt, config, players, where, problems, respelt)
        if game is None:
            continue
        if game.table in tables:
            problems.append(Problem(where, row.line, f"table {game.table} is already used on "
                                    f"line {tables[game.table]}; number each table once"))
        tables.setdefault(game.table, row.line)
        for pid in game.players:
            if pid in seen:
                problems.append(Problem(where, row.line, f"player '{pid}' is already in this "
                                        f"round on line {seen[pid]}; a player plays once a round"))
            seen.setdefault(pid, row.line)
        problems.extend(fmt.validate_game(game, config, where))
        games.append(game)
    if respelt:
        line, typed, read = respelt[0]
        more = f" and {len(respelt) - 1} more" if len(respelt) > 1 else ""
        problems.append(Problem(where, line, f"result '{typed}' read as '{read}'{more}; "
                                "nothing to do", warning=True, notice=True))
    if errors_only(problems[start:]):
        # a row that could not be read would also show up as players missing: say it once
        return None
    if not rows:
        problems.append(Problem(where, 1, "round file has no games; add one row per table"))
        return None
    return Round(number=number, games=tuple(sorted(games, key=lambda g: g.table)),
                 source=Source(where))


def _game(
    row: Row, number: int, fmt: Format, config: EventConfig,
    players: Mapping[str, Player], where: str, problems: list[Problem],
    respelt: list[tuple[int, str, str]] | None = None,
) -> Game | None:
    """Return one row as a Game, or None after recording why it is unusable (data contract
    section 1); a result typed in another spelling is noted in ``respelt``."""
    start = len(problems)

    def bad(message: str) -> None:
        problems.append(Problem(where, row.line, message))

    table = parse_int(row.get("table"))
    if table is None or table < 1:
        bad(f"table '{row.get('table')}' must be a whole number of 1 or more")
    p1, p2 = row.get("player_1"), row.get("player_2")
    _check_players(p1, p2, players, bad)
    stats = [_stats(row, seat, fmt, bad) for seat in (1, 2)]
    extra = {c: v for c in fmt.game_columns if (v := _number(row, c, bad, signed=True))
             is not None}
    raw = row.get("result")
    result = normalise_result(raw)
    if result != raw and raw.lower() != "draw" and respelt is not None:
        respelt.append((row.line, raw, result))
    if len(problems) > start:
        return None
    assert table is not None
    source = Source(where, row.line)
    if p2 in (BYE, ABSENT):
        return _unplayed(number, table, p1, p2, stats, extra, raw, result, fmt, source, bad)
    outcomes: tuple[Outcome | None, Outcome | None] = (None, None)
    kind = GameKind.PLAYED
    if result:
        if result not in RESULTS:
            bad(f"result '{raw}' is not one of: {ACCEPTED}")
            return None
        a, b, kind = RESULTS[result]
        outcomes = (a, b)
    elif fmt.outcome_from_stats is not None:
        derived = fmt.outcome_from_stats(result, stats, config)
        if derived is not None:
            outcomes = (derived[0], derived[1])
    return Game(number, table, (Seat(p1, outcomes[0], stats[0]), Seat(p2, outcomes[1], stats[1])),
                kind, extra, source)


def has_result(cells: Mapping[str, str], fmt: Format, config: EventConfig) -> bool:
    """Return whether a round file row holds a result as the loader reads it.

    Something typed in ``result`` (even a spelling the loader refuses: the TO typed it),
    a BYE or ABSENT row (its outcome is the pairing's), or, for a format that derives the
    outcome from the stats (Old World: the VP), stats it can be derived from. Data contract
    section 1; issue #28 item 5: the ``result`` cell alone is not the answer.
    """
    if cells.get("result", "").strip() or cells.get("player_2", "").strip() in (BYE, ABSENT):
        return True
    if fmt.outcome_from_stats is None:
        return False
    ignored: list[str] = []
    row = Row(0, {k: v.strip() for k, v in cells.items()})
    stats = [_stats(row, seat, fmt, ignored.append) for seat in (1, 2)]
    return fmt.outcome_from_stats("", stats, config) is not None


def _check_players(
    p1: str, p2: str, players: Mapping[str, Player], bad: Callable[[str], None]
) -> None:
    """Record a row's empty, unknown or misplaced player ids (BYE and ABSENT go in
    player_2) and a player on both sides of the table (data contract section 1)."""
    for column, pid in (("player_1", p1), ("player_2", p2)):
        if pid in (BYE, ABSENT) and column == "player_2":
            continue
        if pid in (BYE, ABSENT):
            bad(f"{pid} goes in player_2; put the player's id in player_1")
        elif not pid:
            bad(f"{column} is empty; put a player id there")
        elif pid not in players:
            hint = suggest(pid, list(players))
            bad(f"unknown player id '{pid}' in {column}: no such id in players.csv (was it "
                "renamed or removed after this round was paired?); restore the id in "
                f"players.csv or correct this row{hint}")
    if p1 == p2 and p1:
        bad(f"player '{p1}' is on both sides of the table")


def _unplayed(
    number: int, table: int, p1: str, p2: str, stats: list[dict[str, float]],
    extra: dict[str, float], raw: str, result: str, fmt: Format, source: Source,
    bad: Callable[[str], None],
) -> Game | None:
    """Return a BYE or ABSENT row (``p2``) as a one-seat Game, or None after recording why
    not: such a row has no second player's columns, and its result is one of
    :data:`UNPLAYED_RESULTS` or empty for the format's default outcome."""
    if any(stats[1].values()):
        bad(f"a {p2} row has no second player; leave the _2 columns empty")
        return None
    kind = GameKind.BYE if p2 == BYE else GameKind.ABSENT
    if result and result not in UNPLAYED_RESULTS:
        bad(f"result '{raw}' cannot be given on a {p2} row; use 1-0 (a win), draw, 0-1 "
            "(nothing) or leave it empty for the format's default")
        return None
    outcome = UNPLAYED_RESULTS.get(result) or (
        fmt.bye_outcome if kind is GameKind.BYE else fmt.absent_outcome)
    return Game(number, table, (Seat(p1, outcome, stats[0]),), kind, extra, source)


def _stats(row: Row, seat: int, fmt: Format, bad: object) -> dict[str, float]:
    values: dict[str, float] = {}
    for stat in fmt.stats:
        value = _number(row, f"{stat.id}_{seat}", bad, integer=stat.integer)
        if value is not None:
            values[stat.id] = value
    return values


def _number(
    row: Row, column: str, bad: object, integer: bool = False, signed: bool = False
) -> float | None:
    text = row.get(column)
    if not text:
        return None
    value = parse_int(text) if integer else parse_number(text)
    assert callable(bad)
    if value is None:
        kind = "a whole number" if integer else "a number"
        bad(f"{column} '{text}' must be {kind}")
        return None
    if value < 0 and not signed:
        bad(f"{column} '{text}' cannot be negative")
        return None
    return float(value)

