"""round-N.csv for Diplomacy: one row per seat, seven seats per board (contract section 1).

Header ``board,player,power,centres,result`` and optional ``eliminated_year`` and
``end_year`` (the game year the board ended, read by the scoring systems that count
years survived). A player
who sits the round out has a row with an empty ``board`` and ``power`` = ``SITOUT``
(chosen by the TO or proposed by ``standgen pair``) or ``ABSENT`` (did not play).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from standgen.diplomacy.games import ABSENT as ABSENT_RESULT
from standgen.diplomacy.games import SITOUT as SITOUT_RESULT
from standgen.diplomacy.scoring import (
    DRAW,
    ELIMINATED,
    LOSS,
    POWERS,
    RESULTS,
    SOLO,
    TOTAL_CENTRES,
    WINNING_CENTRES,
)
from standgen.errors import Problem, errors_only
from standgen.formats.base import Format
from standgen.load.files import Row, display, parse_int, read_csv, suggest
from standgen.model import EventConfig, Game, GameKind, Outcome, Player, Round, Seat, Source

REQUIRED = ("board", "player", "power", "centres", "result")
OPTIONAL = ("eliminated_year", "end_year")
SITOUT, ABSENT = "SITOUT", "ABSENT"
SEATS = 7
OUTCOMES: Mapping[str, Outcome] = {
    SOLO: Outcome.WIN, DRAW: Outcome.DRAW, LOSS: Outcome.LOSS, ELIMINATED: Outcome.LOSS,
}


def load_boards(
    path: Path, number: int, fmt: Format, config: EventConfig,
    players: Mapping[str, Player], problems: list[Problem],
) -> Round | None:
    """Return a Diplomacy round file as a Round, or None; every problem is recorded.

    Contract section 1 and the issue: seven seats per board, each power once, centres
    0-34 summing to at most 34, exactly one ``solo`` or a consistent draw.
    """
    start = len(problems)
    table = read_csv(path, REQUIRED, OPTIONAL, problems)
    if table is None:
        return None
    _, rows = table
    where = display(path)
    boards, resting, unread = _seats(rows, players, where, problems)
    # a board with a row that could not be read is not checked as a whole: its seat count
    # and centres would only repeat that row's problem
    games = [_board(n, number, boards[n], where, problems) for n in sorted(boards)
             if n not in unread]
    after = max(boards, default=0)
    for k, (row, seat, kind) in enumerate(resting, start=1):
        games.append(Game(number, after + k, (seat,), kind, source=Source(where, row.line)))
    if errors_only(problems[start:]):
        return None  # players on unread rows would also show up as missing: say it once
    if not rows:
        problems.append(Problem(where, 1, "round file has no boards; add one row per seat"))
        return None
    _check_players(games, number, config, players, where, problems)
    if errors_only(problems[start:]):
        return None
    return Round(number=number, games=tuple(games), source=Source(where))


def _seats(
    rows: Sequence[Row], players: Mapping[str, Player], where: str, problems: list[Problem],
) -> tuple[dict[int, list[tuple[Row, Seat]]], list[tuple[Row, Seat, GameKind]], set[int | None]]:
    """Return the rows' seats by board, the sit-outs and absences (with their kind), and
    the boards of rows that could not be read."""
    boards: dict[int, list[tuple[Row, Seat]]] = {}
    resting: list[tuple[Row, Seat, GameKind]] = []
    unread: set[int | None] = set()
    for row in rows:
        parsed = _seat(row, players, where, problems)
        if parsed is None:
            unread.add(parse_int(row.get("board")))
            continue
        board, seat = parsed
        if board is None:
            kind = GameKind.BYE if seat.result == SITOUT_RESULT else GameKind.ABSENT
            resting.append((row, seat, kind))
        else:
            boards.setdefault(board, []).append((row, seat))
    return boards, resting, unread


def _seat(
    row: Row, players: Mapping[str, Player], where: str, problems: list[Problem]
) -> tuple[int | None, Seat] | None:
    """Return (board number or None for a sit-out, seat) of one row, or None."""
    start = len(problems)

    def bad(message: str) -> None:
        problems.append(Problem(where, row.line, message))

    pid = row.get("player")
    _check_player(pid, players, bad)
    raw_power = row.get("power")
    if raw_power.upper() in (SITOUT, ABSENT):
        return _resting_seat(row, pid, raw_power.upper(), bad, problems, start)
    board = parse_int(row.get("board"))
    if board is None or board < 1:
        bad(f"board '{row.get('board')}' must be a whole number of 1 or more (or the row "
            "says SITOUT or ABSENT in 'power')")
    power = _power(raw_power)
    if power is None:
        bad(f"power '{raw_power}' is not one of " + ", ".join(POWERS)
            + f", {SITOUT} or {ABSENT}" + suggest(raw_power, list(POWERS)))
    centres = _centres(row, bad)
    result = _result_word(row, bad)
    year = _eliminated_year(row, result, bad)
    last = _end_year(row, year, bad)
    if errors_only(problems[start:]):
        return None
    assert board is not None and power is not None
    stats = {key: float(value) for key, value in (("centres", centres),
                                                  ("eliminated_year", year),
                                                  ("end_year", last)) if value is not None}
    return board, Seat(pid, OUTCOMES.get(result), stats, power=power, result=result)


def _result_word(row: Row, bad: Callable[[str], None]) -> str:
    """Return a seat's result in lower case, recording one that is not a result word."""
    result = row.get("result").lower()
    if result and result not in RESULTS:
        bad(f"result '{row.get('result')}' is not one of: " + ", ".join(RESULTS)
            + " or empty (not finished)" + suggest(result, list(RESULTS)))
    return result


def _check_player(pid: str, players: Mapping[str, Player], bad: Callable[[str], None]) -> None:
    """Record a row whose player id is empty or not in players.csv (contract section 1)."""
    if not pid:
        bad("player is empty; put a player id there")
    elif pid not in players:
        bad(f"unknown player id '{pid}': no such id in players.csv (was it renamed or "
            "removed after this round was paired?); restore the id in players.csv or "
            "correct this row" + suggest(pid, list(players)))


def _resting_seat(
    row: Row, pid: str, kind: str, bad: Callable[[str], None], problems: list[Problem],
    start: int,
) -> tuple[None, Seat] | None:
    """Return (None, seat) of a SITOUT or ABSENT row, which has no board, or None when
    ``problems[start:]`` (this row's) hold an error."""
    for column in ("board", "centres", "result", "eliminated_year", "end_year"):
        if row.get(column):
            bad(f"a {kind} row has no board; leave '{column}' empty")
    if errors_only(problems[start:]):
        return None
    result = SITOUT_RESULT if kind == SITOUT else ABSENT_RESULT
    return None, Seat(pid, Outcome.LOSS, result=result)


def _centres(row: Row, bad: Callable[[str], None]) -> int | None:
    """Return a row's supply centres (0 to 34, or None when empty), recording a bad value."""
    centres = None
    if row.get("centres"):
        centres = parse_int(row.get("centres"))
        if centres is None or not 0 <= centres <= TOTAL_CENTRES:
            bad(f"centres '{row.get('centres')}' must be a whole number from 0 to "
                f"{TOTAL_CENTRES}")
    return centres


def _eliminated_year(row: Row, result: str, bad: Callable[[str], None]) -> int | None:
    """Return a row's eliminated_year (None when empty), recording a bad value or one on a
    power that was not eliminated."""
    year = _game_year(row, "eliminated_year", "a game year", bad)
    if year is not None and result != ELIMINATED:
        bad("eliminated_year is only for a power whose result is eliminated; clear it")
    return year


def _end_year(row: Row, eliminated: int | None, bad: Callable[[str], None]) -> int | None:
    """Return a row's end_year (None when empty), recording a bad value or one before the
    row's own eliminated_year."""
    year = _game_year(row, "end_year", "the game year the board ended", bad)
    if year is not None and eliminated is not None and eliminated > year:
        bad(f"eliminated_year {eliminated} is after the board's end_year {year}; "
            "correct one of them")
    return year


def _game_year(row: Row, column: str, what: str, bad: Callable[[str], None]) -> int | None:
    """Return a row's game year in ``column`` (None when empty or bad; a bad one recorded)."""
    if not row.get(column):
        return None
    year = parse_int(row.get(column))
    if year is None or not 1901 <= year <= 9999:
        bad(f"{column} '{row.get(column)}' must be {what} such as 1907")
        return None
    return year


def _power(text: str) -> str | None:
    for power in POWERS:
        if power.lower() == text.lower():
            return power
    return None


def _board(
    board: int, number: int, seats: list[tuple[Row, Seat]], where: str,
    problems: list[Problem],
) -> Game:
    """Return one board as a Game, recording what its whole-board checks find."""
    first = seats[0][0].line

    def bad(line: int, message: str) -> None:
        problems.append(Problem(where, line, f"board {board}: {message}"))

    if len(seats) != SEATS:
        bad(first, f"has {len(seats)} seats; a board has {SEATS}, one per power")
    by_power = _check_twice(seats, bad)
    missing = [p for p in POWERS if p not in by_power]
    if missing and len(seats) == SEATS:
        bad(first, "no seat for " + ", ".join(missing))
    total = sum(int(seat.stats.get("centres", 0)) for _, seat in seats)
    if total > TOTAL_CENTRES:
        bad(first, f"centres add up to {total}; the map has {TOTAL_CENTRES}")
    _check_results(seats, bad)
    return Game(number, board, tuple(seat for _, seat in seats),
                source=Source(where, first))


def _check_twice(seats: Sequence[tuple[Row, Seat]],
                 bad: Callable[[int, str], None]) -> dict[str, int]:
    """Record a power played twice on a board, or a player seated twice; return the line
    each power is first played on."""
    by_power: dict[str, int] = {}
    by_player: dict[str, int] = {}
    for row, seat in seats:
        if seat.power in by_power:
            bad(row.line, f"{seat.power} is already played on line {by_power[seat.power]}; "
                "each power once per board")
        by_power.setdefault(seat.power, row.line)
        if seat.player in by_player:
            bad(row.line, f"player '{seat.player}' already sits on line "
                f"{by_player[seat.player]}; a player has one seat per board")
        by_player.setdefault(seat.player, row.line)
    return by_power


def _check_results(seats: Sequence[tuple[Row, Seat]],
                   bad: Callable[[int, str], None]) -> None:
    """Record a board with some seats' results empty; check a finished board's."""
    results = [seat.result for _, seat in seats]
    if any(results) and not all(results):
        line = next(row.line for row, seat in seats if not seat.result)
        bad(line, "result is empty while other seats have one; fill every seat's result "
            "(or none while the game is on)")
    elif all(results):
        _check_result(seats, bad)


def _check_result(seats: Sequence[tuple[Row, Seat]], bad: Callable[[int, str], None]) -> None:
    """Record what is inconsistent in a finished board's results and centres."""
    for row, seat in seats:
        _check_centres(row, seat, bad)
    solos = [(row, seat) for row, seat in seats if seat.result == SOLO]
    draws = [(row, seat) for row, seat in seats if seat.result == DRAW]
    if len(solos) > 1:
        bad(solos[1][0].line, "only one power can solo; the others lost")
    elif solos:
        _check_solo(seats, solos[0], draws, bad)
    elif len(draws) < 2:
        line = draws[0][0].line if draws else seats[0][0].line
        bad(line, "a finished board needs one solo or a draw of two or more powers "
            "(a one-power draw is a solo: write solo)")


def _check_centres(row: Row, seat: Seat, bad: Callable[[int, str], None]) -> None:
    """Record a finished seat's centres at odds with its result (eliminated holds none,
    a power with none is eliminated, 18 or more is a solo)."""
    if "centres" not in seat.stats:
        bad(row.line, "centres is empty; a finished board needs every power's centres")
        return
    centres = int(seat.stats["centres"])
    if seat.result == ELIMINATED and centres:
        bad(row.line, f"{seat.power} is eliminated but holds {centres} centre(s); "
            "write 0 or change the result")
    elif centres == 0 and seat.result != ELIMINATED:
        bad(row.line, f"{seat.power} holds no centre; its result is eliminated")
    if centres >= WINNING_CENTRES and seat.result != SOLO:
        bad(row.line, f"{seat.power} holds {centres} centres, a solo victory; its result "
            "is solo")


def _check_solo(seats: Sequence[tuple[Row, Seat]], solo: tuple[Row, Seat],
                draws: Sequence[tuple[Row, Seat]], bad: Callable[[int, str], None]) -> None:
    """Record a draw beside a solo, and a soloist not holding the most centres."""
    if draws:
        bad(draws[0][0].line, "a board with a solo has no draw; write loss (or "
            "eliminated) for everyone but the soloist")
    row, seat = solo
    top = max(int(s.stats.get("centres", 0)) for r, s in seats if s is not seat)
    if int(seat.stats.get("centres", 0)) <= top:
        bad(row.line, f"{seat.power} soloed but another power holds as many centres; "
            "check the centres")


def _check_players(
    games: Sequence[Game], number: int, config: EventConfig,
    players: Mapping[str, Player], where: str, problems: list[Problem],
) -> None:
    """Record players seated twice without the TO's two-board choice (players missing,
    dropped or not joined yet: :func:`standgen.load.late.complete_rounds`)."""
    doubles = config.options.get("two_boards", {})
    allowed = doubles.get(str(number), []) if isinstance(doubles, dict) else []
    seen: dict[str, Game] = {}
    for game in games:
        line = game.source.line
        for pid in game.players:
            if pid in seen:
                other = seen[pid]
                twice_ok = (pid in allowed and game.kind is GameKind.PLAYED
                            and other.kind is GameKind.PLAYED)
                if not twice_ok:
                    problems.append(Problem(where, line, f"player '{pid}' is already in this "
                                            f"round on line {other.source.line}; a player "
                                            "plays one board a round unless [options."
                                            f"two_boards] lists them for round {number}"))
            seen.setdefault(pid, game)
