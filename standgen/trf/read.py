"""Reading a TRF16 file (FIDE Handbook C.04 Annex 2): its lines as a :class:`Tournament`,
and the format's codes."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from standgen.errors import InputError, Problem
from standgen.load.files import slugify, unique_slugs
from standgen.pairing.common import ALL_ROUNDS
from standgen.pairing.dutch import BLACK as BLACK_
from standgen.pairing.dutch import WHITE as WHITE_
from standgen.trf.teams import TEAM_RECORDS, TeamRecords

if TYPE_CHECKING:
    pass

SWISS_TYPE = "Individual: Swiss-System"
ROUND_ROBIN_TYPE = "Individual: Round-Robin"
NEWLINE = "\r\n"  # TRF16 remark 1: each line ends with a carriage return
WINS, DRAWS, LOSSES = "1W+F", "=DH", "0L-Z "
PLAYED_CODES = "1=0WDL+-"


# ----- import ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TrfRound:
    """One player's round block: opponent start rank (0: none), colour, result code."""

    opponent: int
    colour: str  # "w", "b" or "-"
    result: str  # upper case; " " for blank


@dataclass(frozen=True)
class TrfPlayer:
    """One ``001`` line."""

    start_rank: int
    name: str
    rating: int | None
    federation: str
    points: float | None
    rounds: tuple[TrfRound, ...]
    line: int
    extra: tuple[str, ...] = ()  # sex, title, FIDE number, birth date (not kept)


@dataclass(frozen=True)
class Tournament:
    """A parsed TRF file."""

    name: str
    city: str
    date: dt.date | None
    kind: str  # the 092 line
    planned: int | None  # XXR
    initial: str  # "white", "black" or "" (XXC)
    bye_points: float  # XXS PAB
    players: tuple[TrfPlayer, ...]
    warnings: tuple[Problem, ...] = field(default=())
    # XXA: virtual points by start rank, one per round from round 1 (FIDE C.04.5)
    accelerations: Mapping[int, tuple[float, ...]] = field(default_factory=dict)
    # XXP and 260: groups of start ranks who must not be paired with each other, with the
    # rounds it holds for (first, last; XXP: every round)
    forbidden: tuple[tuple[tuple[int, ...], tuple[int, int]], ...] = ()
    # TRF-2026's team records (310, 320, 362): a team file (standgen.trf.teams)
    teams: TeamRecords | None = None


NAME_COLUMNS = 33  # columns 15-47 of a 001 line (FIDE C.04 Annex 2)

# what the import does not carry into the event, by record (FIDE C.04 Annex 2, TRF-2026)
NOT_CARRIED = {
    "032": "federation", "052": "end date",
    "072": "number of rated players", "082": "number of teams", "102": "chief arbiter",
    "112": "deputy arbiters", "122": "time control", "132": "round dates",
    "013": "team", "250": "accelerated rounds", "299": "abnormal points assignments",
    "352": "colour sequence of the boards", "801": "team results summary",
    "802": "team results summary",
}


def _date(text: str) -> dt.date | None:
    """Return a TRF start date as FIDE's programs and lichess write it (``2026/02/14``,
    ``14.02.2026``, ``Feb 14, 2026`` ...), or None."""
    for pattern in ("%Y/%m/%d", "%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%y/%m/%d",
                    "%b %d, %Y", "%B %d, %Y", "%d %b %Y", "%d %B %Y"):
        try:
            return dt.datetime.strptime(text.strip(), pattern).date()
        except ValueError:
            continue
    return None


@dataclass
class _Header:
    """The tournament records read so far (one parse; see :func:`parse_trf`)."""

    name: str = ""
    city: str = ""
    date: dt.date | None = None
    kind: str = ""
    planned: int | None = None
    initial: str = ""
    bye_points: float = 1.0
    accelerations: dict[int, tuple[float, ...]] = field(default_factory=dict)
    forbidden: list[tuple[tuple[int, ...], tuple[int, int]]] = field(default_factory=list)


Bad = Callable[[str], None]


def _xxp(header: _Header, rest: str, bad: Bad) -> None:
    """XXP (JaVaFo, bbpPairings): start ranks of players who must not be paired with
    each other in any round."""
    words = rest.split()
    if len(words) < 2 or not all(w.isdigit() and int(w) > 0 for w in words):
        bad(f"XXP '{rest}' must be two or more start ranks, such as 'XXP 4 9'")
        return
    header.forbidden.append((tuple(int(w) for w in words), ALL_ROUNDS))


def _record_260(header: _Header, rest: str, bad: Bad) -> None:
    """TRF-2026's 260: the first and last round, then start ranks of players who must not
    be paired with each other in those rounds."""
    words = rest.split()
    if (len(words) < 4 or not all(w.isdigit() and int(w) > 0 for w in words)
            or int(words[0]) > int(words[1]) or int(words[1]) > 99):
        bad(f"260 '{rest}' must be the first and last round, then two or more start "
            "ranks, such as '260   3   5    4    9'")
        return
    header.forbidden.append((tuple(int(w) for w in words[2:]),
                             (int(words[0]), int(words[1]))))


def _xxa(header: _Header, rest: str, bad: Bad) -> None:
    """XXA (JaVaFo, bbpPairings): a start rank, then the player's virtual points for
    rounds 1, 2 ... (accelerated pairings, FIDE C.04.5)."""
    words = rest.split()
    try:
        number = int(words[0])
        points = tuple(float(w) for w in words[1:])
    except (IndexError, ValueError):
        bad(f"XXA '{rest}' must be a start rank and virtual points per round, such as "
            "'XXA    1  1.0  1.0  0.5'")
        return
    if number < 1 or any(not 0 <= v <= 99 for v in points):
        bad(f"XXA '{rest}': a start rank from 1 and virtual points from 0 to 99")
        return
    header.accelerations[number] = points


def _start_date(header: _Header, rest: str, bad: Bad) -> None:
    header.date = _date(rest)
    if header.date is None:
        bad(f"start date '{rest}' is not a date; write it as YYYY/MM/DD")


def _planned(header: _Header, rest: str, bad: Bad, code: str) -> None:
    """XXR (the JaVaFo record) or TRF-2026's 142: the planned rounds."""
    if not re.fullmatch(r"[1-9][0-9]?", rest):
        bad(f"{code} '{rest}' must be the number of rounds, 1 to 99")
    else:
        header.planned = int(rest)


def _xxc(header: _Header, rest: str, bad: Bad) -> None:
    """XXC: ``white1`` or ``black1``, the top seed's colour in round 1."""
    for word in rest.lower().split():
        if word in ("white1", "black1"):
            header.initial = "white" if word == "white1" else "black"


def _initial_colour(header: _Header, rest: str, bad: Bad) -> None:
    """TRF-2026's 152: the initial colour, W or B."""
    word = rest.lower()
    if word[:1] in ("w", "b") and word in ("w", "b", "white", "black"):
        header.initial = "white" if word.startswith("w") else "black"
    else:
        bad(f"152 '{rest}' must be the initial colour, W or B")


def _xxs(header: _Header, rest: str, bad: Bad) -> None:
    """XXS: the points of results; ``PAB`` is the pairing-allocated bye's."""
    for word in rest.upper().split():
        key, _, value = word.partition("=")
        if key == "PAB":
            if value not in ("0", "0.0", "0.5", "1", "1.0"):
                bad(f"XXS PAB={value}: the bye may score 1, 0.5 or 0")
            else:
                header.bye_points = float(value)


def _text(attribute: str) -> Callable[[_Header, str, Bad], None]:
    def read(header: _Header, rest: str, bad: Bad) -> None:
        setattr(header, attribute, rest)
    return read


# the tournament records read, by code (FIDE C.04 Annex 2; XX records: JaVaFo's)
_RECORDS: Mapping[str, Callable[[_Header, str, Bad], None]] = {
    "012": _text("name"), "022": _text("city"), "042": _start_date, "092": _text("kind"),
    "XXR": partial(_planned, code="XXR"), "142": partial(_planned, code="142"),
    "XXC": _xxc, "152": _initial_colour, "XXS": _xxs, "XXA": _xxa, "XXP": _xxp,
    "260": _record_260,
}


def parse_trf(text: str, where: str) -> Tournament:
    """Return the tournament in a TRF16 file; raise InputError naming each bad line.

    FIDE C.04 Annex 2: blank opponent, colour and result columns mean ``0000``, ``-``
    and ``Z``; letter codes are case-insensitive. Read: ``001``, ``012``, ``022``,
    ``042``, ``092``, ``XXR`` or TRF-2026's ``142`` (planned rounds), ``XXC`` or ``152``
    (initial colour), ``XXS`` and TRF-2026's team records ``310``, ``320``, ``362``
    (:mod:`standgen.trf.teams`); each record of :data:`NOT_CARRIED` present gets a
    warning naming it, so nothing of the file is dropped silently (issue #17).
    """
    problems: list[Problem] = []
    header = _Header()
    players: list[TrfPlayer] = []
    unread: dict[str, int] = {}  # records not carried, with their first line
    count: tuple[int, str] | None = None  # record 062: its line and the number it gives
    teams: TeamRecords | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        code, rest = line[:3], line[4:].strip()

        def bad(message: str, at: int = number) -> None:
            problems.append(Problem(where, at, message))

        if code == "001":
            player = _player(line, number, bad)
            if player is not None:
                players.append(player)
        elif code in TEAM_RECORDS:
            teams = teams or TeamRecords([])
            TEAM_RECORDS[code](teams, line if code != "362" else rest, bad)
        elif code in _RECORDS:
            _RECORDS[code](header, rest, bad)
        elif code == "062":  # the number of players: the 001 lines say it
            count = (number, rest)
        elif code in NOT_CARRIED:
            unread.setdefault(code, number)
    warnings = [Problem(where, at, f"record {code} ({NOT_CARRIED[code]}) is not carried into "
                        "the event", warning=True)
                for code, at in sorted(unread.items(), key=lambda item: item[1])]
    warnings += _count_and_names(players, count, where)
    problems += _player_problems(players, where)
    if any(p.extra for p in players):
        warnings.append(Problem(where, 1, "sex, title, FIDE number and birth date are not "
                                "imported (players.csv has no columns for them)", warning=True))
    if problems:
        raise InputError(problems)
    warnings += _team_forbidden(header, teams, where)
    if not header.name:
        warnings.append(Problem(where, 1, "no tournament name (012); the event is named after "
                                "its folder", warning=True))
    return Tournament(header.name, header.city, header.date, header.kind, header.planned,
                      header.initial, header.bye_points,
                      tuple(sorted(players, key=lambda p: p.start_rank)), tuple(warnings),
                      dict(header.accelerations), tuple(header.forbidden),
                      teams if teams is not None and teams.teams else None)


def _team_forbidden(header: _Header, teams: TeamRecords | None, where: str
                    ) -> list[Problem]:
    """Drop a team file's 260 records (they name teams not to be paired with each other,
    which standgen does not carry) from ``header`` and return the warning saying so."""
    if teams is None or not teams.teams or all(r == ALL_ROUNDS for _, r in header.forbidden):
        return []
    header.forbidden = [entry for entry in header.forbidden if entry[1] == ALL_ROUNDS]
    return [Problem(where, 1, "record 260 of a team file (teams not to be paired with "
                    "each other) is not carried into the event", warning=True)]


def _count_and_names(players: Sequence[TrfPlayer], count: tuple[int, str] | None,
                     where: str) -> list[Problem]:
    """Return a warning when record 062's number of players is not the 001 lines', and
    for each name that fills its columns (and may have been cut)."""
    warnings = []
    if count is not None and count[1] != str(len(players)):
        warnings.append(Problem(where, count[0], f"record 062 says {count[1]} players but the "
                                f"file lists {len(players)} (001 lines); the 001 lines count",
                                warning=True))
    warnings += [Problem(where, player.line, f"'{player.name}' fills the "
                         f"{NAME_COLUMNS} columns TRF gives a name and may be cut; "
                         "check the name in players.csv", warning=True)
                 for player in players if len(player.name) >= NAME_COLUMNS]
    return warnings


def _player_problems(players: Sequence[TrfPlayer], where: str) -> list[Problem]:
    """Return the problems of the player lines as a whole: none, or a start rank twice."""
    if not players:
        return [Problem(where, 1, "no player lines (001); is this a TRF file?")]
    problems = []
    seen: dict[int, int] = {}
    for player in players:
        if player.start_rank in seen:
            problems.append(Problem(where, player.line, f"start rank {player.start_rank} is "
                                    f"already used on line {seen[player.start_rank]}"))
        seen.setdefault(player.start_rank, player.line)
    return problems


def _player(line: str, number: int, bad: object) -> TrfPlayer | None:
    """Return one ``001`` line, or None after reporting what is wrong with it."""
    assert callable(bad)

    def cols(first: int, last: int) -> str:
        return line[first - 1:last].strip()

    start, name, rating_text, points_text = cols(5, 8), cols(15, 47), cols(49, 52), cols(81, 84)
    points = _float(points_text)
    wrong = _player_problem(start, name, rating_text, points_text, points)
    if wrong:
        bad(wrong)
        return None
    rounds = _round_blocks(line, bad)
    if rounds is None:
        return None
    extra = tuple(x for x in (cols(10, 10), cols(11, 13), cols(58, 68), cols(70, 79)) if x)
    return TrfPlayer(int(start), name, int(rating_text) if rating_text else None,
                     cols(54, 56), points, tuple(rounds), number, extra)


def _player_problem(start: str, name: str, rating_text: str, points_text: str,
                    points: float | None) -> str:
    """Return the first thing wrong with a ``001`` line's start rank, name, rating and
    points, or ""."""
    if not start.isdigit() or int(start) < 1:
        return f"start rank '{start}' (columns 5-8) must be a number from 1 to 9999"
    if not name:
        return f"player {start} has no name (columns 15-47)"
    if rating_text and not rating_text.isdigit():
        return f"rating '{rating_text}' (columns 49-52) must be a whole number"
    if points_text and points is None:
        return f"points '{points_text}' (columns 81-84) must be a number such as 4.5"
    return ""


def _float(text: str) -> float | None:
    """Return ``text`` as Python reads a number, or None (for "" too)."""
    try:
        return float(text) if text else None
    except ValueError:
        return None


def _round_blocks(line: str, bad: Callable[[str], None]) -> list[TrfRound] | None:
    """Return the round blocks of a ``001`` line (from column 92, ten columns each), or
    None after reporting the first that is wrong."""
    rounds: list[TrfRound] = []
    position = 92
    while position <= len(line):
        block = line[position - 1:position + 7].ljust(8)
        opponent_text, colour, result = block[0:4].strip(), block[5].lower(), block[7].upper()
        wrong = _block_problem(opponent_text, colour, result, position)
        if wrong:
            bad(f"round {len(rounds) + 1}: {wrong}")
            return None
        rounds.append(TrfRound(int(opponent_text or 0), colour if colour in "wb" else "-",
                               result))
        position += 10
    return rounds


def _block_problem(opponent: str, colour: str, result: str, position: int) -> str:
    """Return what is wrong with a round block at column ``position``, or ""."""
    if opponent and not opponent.isdigit():
        return (f"opponent '{opponent}' (columns {position}-{position + 3}) must be a start "
                "rank or 0000")
    if colour not in "wb- ":
        return f"colour '{colour}' (column {position + 5}) must be w, b or -"
    if result not in PLAYED_CODES + "HFUZ ":
        return (f"result '{result}' (column {position + 7}) must be one of "
                "1 = 0 + - W D L H F U Z")
    return ""


def _points(result: str, bye_points: float) -> float:
    if result == "U":
        return bye_points
    if result in WINS:
        return 1.0
    return 0.5 if result in DRAWS else 0.0


def player_slug(name: str) -> str:
    """Return a player id from a name: ASCII letters and digits joined by hyphens, at
    most 60 characters (:func:`standgen.load.files.slugify`)."""
    return slugify(name)[:60].strip("-")


def player_ids(players: Sequence[TrfPlayer]) -> dict[int, str]:
    """Return a unique slug id per start rank, from the names (``-2``, ``-3`` on clashes)."""
    return unique_slugs(((p.start_rank, p.name) for p in players), "player",
                        {"bye", "absent"})


def _last_entry(player: TrfPlayer) -> int:
    """Return the last round with anything in it (trailing blank blocks: not in the event)."""
    last = 0
    for k, block in enumerate(player.rounds, start=1):
        if block.opponent or block.colour != "-" or block.result != " ":
            last = k
    return last


def _block(player: TrfPlayer, number: int) -> TrfRound:
    if number <= len(player.rounds):
        return player.rounds[number - 1]
    return TrfRound(0, "-", " ")



def inferred_initial_colour(tournament: Tournament) -> str:
    """Return ``w`` or ``b``: the ``XXC`` record, else the colour of the best-ranked
    player paired in round 1 (the top seed, or, if he was absent, the first player
    present: the players absent from the start do not count in the pairing numbers
    of C.04.3 E.5, as bbpPairings numbers them). White when nothing tells."""
    if tournament.initial:
        return WHITE_ if tournament.initial == "white" else BLACK_
    for player in tournament.players:
        if player.rounds and player.rounds[0].colour in "wb" and player.rounds[0].opponent:
            return player.rounds[0].colour
    return WHITE_
