"""FIDE Tournament Report File (TRF16, FIDE Handbook C.04 Annex 2): export and import.

Export writes the ``001`` player lines (start rank, sex, title, name, rating,
federation, FIDE number, birth date, points, rank, then one 10-column block per round:
opponent's start rank, colour, result) and the tournament lines ``012`` (name), ``022``
(city), ``042`` (start date), ``062`` (players), ``092`` (type), with the JaVaFo /
bbpPairings extensions ``XXR`` (planned rounds), ``XXC`` (``white1`` / ``black1``: the
top seed's colour in round 1) and ``XXS PAB=`` (points of the pairing-allocated bye).

Import reads the same and turns it into an event folder's files (event.toml,
players.csv, round-N.csv). Nothing here touches the file system.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from standgen import perf
from standgen.errors import InputError, Problem
from standgen.formats.roundrobin import ROUND_ROBIN
from standgen.load.files import slugify
from standgen.model import Event, Game, GameKind, Outcome
from standgen.pairing import acceleration
from standgen.pairing.common import ALL_ROUNDS, forbidden_entries
from standgen.pairing.dutch import BLACK as BLACK_
from standgen.pairing.dutch import WHITE as WHITE_
from standgen.pairing.dutch import Entrant, PairingState, RoundEntry
from standgen.pairing.dutch_swiss import virtual_points
from standgen.pairing.roundrobin import berger_round
from standgen.pairing.swiss import initial_colour, start_ranks
from standgen.records import counted_rounds
from standgen.roundfile import Form, render
from standgen.standings import Standings, compute_standings, format_of

if TYPE_CHECKING:
    from standgen.pipeline import EventReport

SWISS_TYPE = "Individual: Swiss-System"
ROUND_ROBIN_TYPE = "Individual: Round-Robin"
NEWLINE = "\r\n"  # TRF16 remark 1: each line ends with a carriage return
WINS, DRAWS, LOSSES = "1W+F", "=DH", "0L-Z "
PLAYED_CODES = "1=0WDL+-"


def _put(line: list[str], first: int, last: int, text: str, right: bool = False) -> None:
    """Write ``text`` into 1-based columns ``first..last`` of ``line`` (TRF16 positions)."""
    width = last - first + 1
    text = text[:width]
    text = text.rjust(width) if right else text.ljust(width)
    line[first - 1:last] = list(text)


def _number(value: float) -> str:
    return f"{value:.1f}"


def round_block(game: Game | None, player: str, ranks: Mapping[str, int]
                ) -> tuple[str, str, str]:
    """Return one round's (opponent, colour, result) for ``player``; TRF16 positions 92-99.

    Played: ``1`` / ``=`` / ``0``; forfeit: ``+`` / ``-``; pairing-allocated bye ``U``
    (``H`` or ``Z`` if it was scored as a draw or nothing); absent: ``F`` full-point,
    ``H`` half-point, ``Z`` zero-point bye; not in the round (dropped): blank.
    """
    if game is None:
        return "    ", " ", " "
    outcome = game.seat_of(player).outcome
    if len(game.seats) == 1:
        if game.kind is GameKind.BYE and outcome is Outcome.WIN:
            return "0000", "-", "U"
        return "0000", "-", "F" if outcome is Outcome.WIN else (
            "H" if outcome is Outcome.DRAW else "Z")
    colour = "w" if game.seats[0].player == player else "b"
    opponent = f"{ranks[game.opponents_of(player)[0]]:4d}"
    if game.kind is GameKind.FORFEIT:
        return opponent, colour, "+" if outcome is Outcome.WIN else "-"
    return opponent, colour, "1" if outcome is Outcome.WIN else (
        "=" if outcome is Outcome.DRAW else "0")


def export_event(event: Event, standings: Standings | None = None) -> str:
    """Return the event's complete rounds as TRF16 text (FIDE C.04 Annex 2).

    Points and ranks are those after the last complete round (``standings``, when the
    caller has them); a round in progress is left out. Sex, title, FIDE number and birth
    date are blank: players.csv has no columns for them.
    """
    complete = counted_rounds(event)
    if standings is None:
        standings = compute_standings(event, upto=complete)
    ranks = start_ranks(event)
    fmt = format_of(event)
    bye_points = float(fmt.option(event.config, "bye_points")) if any(
        o.key == "bye_points" for o in fmt.options) else 1.0
    config = event.config
    lines = [f"012 {config.name}"]
    if config.location:
        lines.append(f"022 {config.location}")
    lines.append(f"042 {config.date.strftime('%Y/%m/%d')}")
    lines.append(f"062 {len(event.players)}")
    lines.append(f"092 {ROUND_ROBIN_TYPE if format_of(event).round_robin else SWISS_TYPE}")
    row_of = {row.player.id: row for row in standings.rows}
    games: dict[tuple[int, str], Game] = {}
    for rnd in event.rounds:
        if rnd.number > complete:
            break
        for game in rnd.games:
            for pid in game.players:
                games[(rnd.number, pid)] = game
    for player in sorted(event.players, key=lambda p: ranks[p.id]):
        line = [" "] * (91 + 10 * complete)
        _put(line, 1, 3, "001")
        _put(line, 5, 8, str(ranks[player.id]), right=True)
        _put(line, 15, 47, player.name)
        if player.rating:
            _put(line, 49, 52, str(round(player.rating)), right=True)
        if re.fullmatch(r"[A-Za-z]{3}", player.country):
            _put(line, 54, 56, player.country.upper())
        row = row_of.get(player.id)
        _put(line, 81, 84, _number(row.score if row else 0.0), right=True)
        if row is not None:
            _put(line, 86, 89, str(row.rank), right=True)
        for number in range(1, complete + 1):
            opponent, colour, result = round_block(games.get((number, player.id)), player.id,
                                                   ranks)
            start = 92 + 10 * (number - 1)
            _put(line, start, start + 3, opponent)
            _put(line, start + 5, start + 5, colour)
            _put(line, start + 7, start + 7, result)
        lines.append("".join(line).rstrip())
    lines.append(f"XXR {standings.planned_rounds}")
    lines.append(f"XXC {'white1' if initial_colour(event) == 'w' else 'black1'}")
    if bye_points != 1.0:
        lines.append(f"XXS PAB={_number(bye_points)}")
    lines += _xxa_lines(event, ranks, standings.planned_rounds)
    lines += _forbidden_lines(forbidden_entries(event), ranks)
    return NEWLINE.join(lines) + NEWLINE


def _forbidden_lines(entries: Sequence[tuple[frozenset[str], tuple[int, int]]],
                     ranks: Mapping[str, int]) -> list[str]:
    """Return ``[options] forbidden`` as TRF records: ``XXP`` (JaVaFo, bbpPairings) for a
    group kept apart in every round, TRF-2026's ``260`` (first and last round, then the
    start ranks) for one kept apart in some rounds."""
    lines = []
    for group, (first, last) in entries:
        numbers = sorted(ranks[pid] for pid in group)
        if len(numbers) < 2:
            continue
        if (first, last) == ALL_ROUNDS:
            lines.append("XXP " + " ".join(str(n) for n in numbers))
        else:
            lines.append(f"260 {first:3d} {last:3d}" + "".join(f" {n:4d}" for n in numbers))
    return lines


def _xxa_lines(event: Event, ranks: Mapping[str, int], planned: int) -> list[str]:
    """Return an ``XXA`` line per player with virtual points (``[options] acceleration``,
    FIDE C.04.5.1), as JaVaFo and bbpPairings read them: each player's points before
    rounds 1, 2 ... of the accelerated rounds."""
    _, accelerated = acceleration.accelerated_rounds(planned)
    virtual = virtual_points(event, ranks, planned, accelerated)
    return [f"XXA {ranks[pid]:4d}" + "".join(f" {v:4.1f}" for v in points)
            for pid, points in sorted(virtual.items(), key=lambda item: ranks[item[0]])
            if any(points)]


def export_trf(report: EventReport) -> str:
    """Return the report's event as TRF16 text (see :func:`export_event`), with the
    report's standings after the last complete round when it has them."""
    event = report.event
    complete = counted_rounds(event)
    finished = [rnd.number for rnd in event.rounds if rnd.finished]
    standings = None
    if perf.enabled() and complete and finished[:complete] == list(range(1, complete + 1)):
        standings = report.by_round[complete - 1]  # compute_standings(event, upto=complete)
    return export_event(event, standings)


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


NAME_COLUMNS = 33  # columns 15-47 of a 001 line (FIDE C.04 Annex 2)

# what the import does not carry into the event, by record (FIDE C.04 Annex 2, TRF-2026)
NOT_CARRIED = {
    "032": "federation", "052": "end date",
    "072": "number of rated players", "082": "number of teams", "102": "chief arbiter",
    "112": "deputy arbiters", "122": "time control", "132": "round dates",
    "013": "team",
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
    (initial colour) and ``XXS``; each record of :data:`NOT_CARRIED` present gets a
    warning naming it, so nothing of the file is dropped silently (issue #17).
    """
    problems: list[Problem] = []
    header = _Header()
    players: list[TrfPlayer] = []
    unread: dict[str, int] = {}  # records not carried, with their first line
    count: tuple[int, str] | None = None  # record 062: its line and the number it gives
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        code, rest = line[:3], line[4:].strip()

        def bad(message: str, at: int = number) -> None:
            problems.append(Problem(where, at, message))

        if code == "001":
            player = _player(line, number, bad)
            if player is not None:
                players.append(player)
        elif code in _RECORDS:
            _RECORDS[code](header, rest, bad)
        elif code == "062":  # the number of players: the 001 lines say it
            count = (number, rest)
        elif code in NOT_CARRIED:
            unread.setdefault(code, number)
    warnings = [Problem(where, at, f"record {code} ({NOT_CARRIED[code]}) is not carried into "
                        "the event", warning=True)
                for code, at in sorted(unread.items(), key=lambda item: item[1])]
    if count is not None and count[1] != str(len(players)):
        warnings.append(Problem(where, count[0], f"record 062 says {count[1]} players but the "
                                f"file lists {len(players)} (001 lines); the 001 lines count",
                                warning=True))
    for player in players:
        if len(player.name) >= NAME_COLUMNS:
            warnings.append(Problem(where, player.line, f"'{player.name}' fills the "
                                    f"{NAME_COLUMNS} columns TRF gives a name and may be cut; "
                                    "check the name in players.csv", warning=True))
    problems += _player_problems(players, where)
    if any(p.extra for p in players):
        warnings.append(Problem(where, 1, "sex, title, FIDE number and birth date are not "
                                "imported (players.csv has no columns for them)", warning=True))
    if problems:
        raise InputError(problems)
    if not header.name:
        warnings.append(Problem(where, 1, "no tournament name (012); the event is named after "
                                "its folder", warning=True))
    return Tournament(header.name, header.city, header.date, header.kind, header.planned,
                      header.initial, header.bye_points,
                      tuple(sorted(players, key=lambda p: p.start_rank)), tuple(warnings),
                      dict(header.accelerations), tuple(header.forbidden))


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

    start = cols(5, 8)
    if not start.isdigit() or int(start) < 1:
        bad(f"start rank '{start}' (columns 5-8) must be a number from 1 to 9999")
        return None
    name = cols(15, 47)
    if not name:
        bad(f"player {start} has no name (columns 15-47)")
        return None
    rating_text = cols(49, 52)
    if rating_text and not rating_text.isdigit():
        bad(f"rating '{rating_text}' (columns 49-52) must be a whole number")
        return None
    points_text = cols(81, 84)
    points: float | None = None
    if points_text:
        try:
            points = float(points_text)
        except ValueError:
            bad(f"points '{points_text}' (columns 81-84) must be a number such as 4.5")
            return None
    rounds: list[TrfRound] = []
    position = 92
    while position <= len(line):
        block = line[position - 1:position + 7].ljust(8)
        opponent_text, colour, result = block[0:4].strip(), block[5].lower(), block[7].upper()
        if opponent_text and not opponent_text.isdigit():
            bad(f"round {len(rounds) + 1}: opponent '{opponent_text}' (columns {position}-"
                f"{position + 3}) must be a start rank or 0000")
            return None
        if colour not in "wb- ":
            bad(f"round {len(rounds) + 1}: colour '{colour}' (column {position + 5}) must be "
                "w, b or -")
            return None
        if result not in PLAYED_CODES + "HFUZ ":
            bad(f"round {len(rounds) + 1}: result '{result}' (column {position + 7}) must be "
                "one of 1 = 0 + - W D L H F U Z")
            return None
        rounds.append(TrfRound(int(opponent_text or 0), colour if colour in "wb" else "-",
                               result))
        position += 10
    extra = tuple(x for x in (cols(10, 10), cols(11, 13), cols(58, 68), cols(70, 79)) if x)
    return TrfPlayer(int(start), name, int(rating_text) if rating_text else None,
                     cols(54, 56), points, tuple(rounds), number, extra)


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
    ids: dict[int, str] = {}
    used: set[str] = {"bye", "absent"}
    for player in players:
        base = player_slug(player.name) or f"player-{player.start_rank}"
        candidate, k = base, 2
        while candidate in used:
            candidate, k = f"{base}-{k}", k + 1
        used.add(candidate)
        ids[player.start_rank] = candidate
    return ids


def _last_entry(player: TrfPlayer) -> int:
    """Return the last round with anything in it (trailing blank blocks: not in the event)."""
    last = 0
    for k, block in enumerate(player.rounds, start=1):
        if block.opponent or block.colour != "-" or block.result != " ":
            last = k
    return last


REQUESTED = {"H": "a half-point bye", "F": "a full-point bye", "Z": "a zero-point bye"}


def announced_round(players: Sequence[TrfPlayer]) -> int | None:
    """Return the round that holds only byes asked for ahead of pairing, or None.

    TRF-2026 (FIDE C.04 Annex 2) and the endorsed engines' input: a player who will not
    play the round about to be paired has a block ``0000 - H`` (half-point bye), ``F``
    (full point) or ``Z`` (zero) for it, while nobody has an opponent in it yet. Such a
    round is not played: it is the next one, and those blocks are requests for byes.
    """
    last = max((_last_entry(p) for p in players), default=0)
    if last == 0:
        return None
    blocks = [_block(p, last) for p in players if _last_entry(p) >= last]
    if all(b.opponent == 0 and b.result in REQUESTED for b in blocks):
        return last
    return None


def event_files(
    tournament: Tournament, where: str, folder_name: str
) -> tuple[dict[str, str], list[Problem]]:
    """Return the files of an event folder for the tournament (event.toml, players.csv,
    one round-N.csv per round) and warnings; raise InputError if pairings contradict.

    A game is read from both players' lines and must agree (opponents, opposite colours,
    matching results); ``player_1`` is the player with White. Trailing blank round
    blocks mean the player left the event (``dropped_after``); ``0000 - U`` is the
    pairing-allocated bye, ``H`` / ``F`` / ``Z`` (or blank) an absence scoring ½, 1, 0.
    A last round of nothing but ``H`` / ``F`` / ``Z`` blocks is the next round's requested
    byes (:func:`announced_round`): players.csv ``byes``, no round file.
    """
    players = tournament.players
    by_rank = {p.start_rank: p for p in players}
    ids = player_ids(players)
    announced = announced_round(players)
    rounds = max((_last_entry(p) for p in players), default=0)
    problems: list[Problem] = []
    warnings = _header_warnings(tournament, announced, where)
    if announced is not None:
        rounds = announced - 1
    scores = {p.start_rank: 0.0 for p in players}
    round_files: dict[str, str] = {}
    for number in range(1, rounds + 1):
        tables: list[tuple[tuple[float, int], list[str]]] = []
        alone: list[list[str]] = []
        done: set[int] = set()
        for player in players:
            if player.start_rank in done or _last_entry(player) < number:
                continue
            block = _block(player, number)
            me = ids[player.start_rank]
            if block.opponent == 0:
                alone.append([me, *_unpaired(block.result, tournament.bye_points)])
                continue
            other = by_rank.get(block.opponent)
            theirs = _block(other, number) if other is not None else None
            if other is None or theirs is None or theirs.opponent != player.start_rank:
                problems.append(Problem(where, player.line, f"round {number}: opponent "
                                        f"{block.opponent} does not list player "
                                        f"{player.start_rank} as opponent in that round"))
                continue
            result = _pair_result(block.result, theirs.result)
            if result is None or block.colour == theirs.colour != "-":
                problems.append(Problem(where, player.line, f"round {number}: players "
                                        f"{player.start_rank} and {other.start_rank} disagree "
                                        f"(colours {block.colour}/{theirs.colour}, results "
                                        f"{block.result.strip() or 'blank'}/"
                                        f"{theirs.result.strip() or 'blank'})"))
                continue
            done.update((player.start_rank, other.start_rank))
            if block.colour == "b" or (block.colour == "-" and theirs.colour == "w"):
                row = [ids[other.start_rank], me, _flip(result)]
            else:
                row = [me, ids[other.start_rank], result]
            key = (-max(scores[player.start_rank], scores[other.start_rank]),
                   min(player.start_rank, other.start_rank))
            tables.append((key, row))
        tables.sort(key=lambda t: t[0])
        round_files[f"round-{number}.csv"] = render(
            ["table", "player_1", "player_2", "result"],
            [[str(table), *row] for table, row in
             enumerate([r for _, r in tables] + alone, start=1)], Form())
        for player in players:
            if _last_entry(player) >= number:
                scores[player.start_rank] += _points(_block(player, number).result,
                                                     tournament.bye_points)
    if problems:
        raise InputError(problems)
    for player in players:
        if player.points is not None and abs(player.points - scores[player.start_rank]) > 1e-9:
            warnings.append(Problem(where, player.line, f"player {player.start_rank} has "
                                    f"{_number(player.points)} points in the file but "
                                    f"{_number(scores[player.start_rank])} from the results "
                                    "(another scoring system?); standgen counts 1 / ½ / 0",
                                    warning=True))
    files = {"event.toml": _event_toml(tournament, folder_name, announced or rounds, ids),
             "players.csv": _players_csv(tournament, ids, rounds, announced)}
    files.update(round_files)
    return files, warnings


def _block(player: TrfPlayer, number: int) -> TrfRound:
    if number <= len(player.rounds):
        return player.rounds[number - 1]
    return TrfRound(0, "-", " ")


def _unpaired(result: str, bye_points: float) -> list[str]:
    """Return ``[player_2, result]`` of a round without an opponent (BYE or ABSENT)."""
    if result == "U":
        return ["BYE", ""]
    scored = _points(result, bye_points)
    return ["ABSENT", "1-0" if scored == 1.0 else ("draw" if scored == 0.5 else "")]


def _pair_result(mine: str, theirs: str) -> str | None:
    """Return the round-file result seen from the first player, or None if they disagree."""
    table = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "draw",
             ("W", "L"): "1-0", ("L", "W"): "0-1", ("D", "D"): "draw",
             ("+", "-"): "+-", ("-", "+"): "-+", ("-", "-"): "--"}
    return table.get((mine, theirs))


def _flip(result: str) -> str:
    return {"1-0": "0-1", "0-1": "1-0", "+-": "-+", "-+": "+-"}.get(result, result)


def _event_toml(tournament: Tournament, folder_name: str, rounds: int,
                ids: Mapping[int, str]) -> str:
    name = tournament.name or folder_name.replace("-", " ").title()
    date = tournament.date or dt.date.today()
    lines = [f"name = {json.dumps(name, ensure_ascii=False)}", f"date = {date.isoformat()}",
             'format = "swiss"', f"rounds = {max(tournament.planned or 0, rounds, 1)}"]
    if tournament.city:
        lines.append(f"location = {json.dumps(tournament.city, ensure_ascii=False)}")
    lines += ["", "[options]", 'start_order = "file"  # pairing numbers: the TRF start ranks']
    initial = tournament.initial or _round_one_colour(tournament)
    if initial:
        lines.append(f'initial_colour = "{initial}"')
    if tournament.bye_points != 1.0:
        lines.append(f"bye_points = {tournament.bye_points}")
    if tournament.accelerations and is_baku(tournament):
        lines.append(f'acceleration = "{acceleration.BAKU}"')
    if tournament.forbidden:
        entries = ", ".join(_forbidden_toml(entry, ids) for entry in tournament.forbidden)
        lines.append(f"forbidden = [{entries}]")
    if is_round_robin(tournament):
        lines.append(f'pairing = "{ROUND_ROBIN}"')
    return "\n".join(lines) + "\n"


def is_round_robin(tournament: Tournament) -> bool:
    """Return whether the file is a round robin: its ``092`` line says so, or, without
    one, every round played pairs the players as the Berger tables do with the start
    ranks as pairing numbers (FIDE C.05 Annex 1), over two rounds or more.

    A Swiss pairs round 1 top half against bottom half, never as a Berger table does
    (1-n, 2-(n-1) ... against the table's n/2+1 - n/2 ...), so a file that follows the
    tables round after round is a round robin whose 092 line was left out.
    """
    if tournament.kind:
        return "robin" in tournament.kind.lower()
    players = tournament.players
    size = len(players) + len(players) % 2
    played = 0
    for number in range(1, size):
        pairs = {frozenset((p.start_rank, _block(p, number).opponent)) for p in players
                 if _block(p, number).opponent}
        if not pairs:
            break
        if not pairs <= {frozenset(pair) for pair in berger_round(size, number)}:
            return False
        played += 1
    ranks = sorted(p.start_rank for p in players)
    return played >= 2 and ranks == list(range(1, len(players) + 1))


def _forbidden_toml(entry: tuple[tuple[int, ...], tuple[int, int]], ids: Mapping[int, str]
                    ) -> str:
    """Return one ``[options] forbidden`` entry as TOML: a list of ids, or an inline
    table with its rounds."""
    group, rounds = entry
    players = json.dumps([ids[n] for n in group if n in ids], ensure_ascii=False)
    if rounds == ALL_ROUNDS:
        return players
    return f"{{ players = {players}, rounds = [{rounds[0]}, {rounds[1]}] }}"


def is_baku(tournament: Tournament) -> bool:
    """Return whether the file's ``XXA`` virtual points are FIDE C.04.5.1's Baku
    acceleration of its players: group A from the players paired in round 1 by start
    rank, over the planned rounds (``XXR`` / ``142``, else the file's rounds)."""
    planned = max(tournament.planned or 0, max((len(p.rounds) for p in tournament.players),
                                               default=0))
    numbers = {str(p.start_rank): p.start_rank for p in tournament.players}
    first = [str(p.start_rank) for p in tournament.players
             if p.rounds and (p.rounds[0].opponent or p.rounds[0].result == "U")]
    group = acceleration.group_a(numbers, first or list(numbers))
    _, accelerated = acceleration.accelerated_rounds(planned)

    def trimmed(points: Sequence[float]) -> tuple[float, ...]:
        points = list(points)
        while points and not points[-1]:
            points.pop()
        return tuple(points)

    return all(
        trimmed(tournament.accelerations.get(p.start_rank, ()))
        == trimmed(acceleration.accelerations(str(p.start_rank) in group, accelerated,
                                               planned))
        for p in tournament.players)


def _round_one_colour(tournament: Tournament) -> str:
    """Return "white" / "black" inferred from round 1 (:func:`inferred_initial_colour`)
    for a file without ``XXC`` (as bbpPairings writes it), "" if nobody played round 1."""
    if not any(p.rounds and p.rounds[0].opponent and p.rounds[0].colour in "wb"
               for p in tournament.players):
        return ""
    return "white" if inferred_initial_colour(tournament) == WHITE_ else "black"


def _players_csv(tournament: Tournament, ids: Mapping[int, str], rounds: int,
                 announced: int | None = None) -> str:
    """Return players.csv; ``announced``: the next round, whose requested byes (``H`` /
    ``F`` / ``Z`` blocks) go in the ``byes`` column."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "name", "country", "rating", "dropped_after",
                     *(["byes"] if announced else [])])
    for player in tournament.players:
        last = min(_last_entry(player), rounds)
        asked = announced is not None and _last_entry(player) >= announced
        writer.writerow([ids[player.start_rank], player.name, player.federation,
                         "" if player.rating is None else player.rating,
                         "" if last >= rounds else last,
                         *([announced if asked else ""] if announced else [])])
    return out.getvalue()


def _header_warnings(tournament: Tournament, announced: int | None, where: str
                     ) -> list[Problem]:
    """Return the parse's warnings, the next round's requested byes that do not score
    ½, and virtual points that are not the Baku acceleration."""
    warnings = list(tournament.warnings)
    if announced is not None:
        warnings += _requested_bye_warnings(tournament, announced, where)
    if tournament.accelerations and not is_baku(tournament):
        warnings.append(Problem(where, 1, "the XXA virtual points are not the Baku "
                                "acceleration (FIDE C.04.5.1) of this field, and standgen "
                                "has no other: they are not carried into the event",
                                warning=True))
    return warnings


def _requested_bye_warnings(tournament: Tournament, announced: int, where: str
                            ) -> list[Problem]:
    """Return a warning for each requested bye that does not score ½ (standgen's chess
    requested bye, the ``swiss`` format's ``requested_bye``)."""
    found = []
    for player in tournament.players:
        if _last_entry(player) < announced:
            continue
        code = _block(player, announced).result
        if code != "H":
            found.append(Problem(where, player.line, f"player {player.start_rank} asked for "
                                 f"{REQUESTED[code]} in round {announced} ({code}); standgen "
                                 "records a requested bye, which scores ½: after `standgen "
                                 "pair`, write the ABSENT row's result "
                                 f"({'1-0' if code == 'F' else 'empty'}) if your "
                                 "regulations say otherwise", warning=True))
    return found


# ----- pairing state (the Dutch engine's input) -----------------------------------------


def round_entry(block: TrfRound, bye_points: float = 1.0) -> RoundEntry:
    """Return one TRF round block as the Dutch engine's :class:`RoundEntry`.

    FIDE C.04 Annex 2 (TRF-2026 as bbpPairings reads it): a game is played over the
    board when it has an opponent, a colour and a result other than a forfeit (``+`` /
    ``-``); ``0000 - U`` is the pairing-allocated bye. A forfeit keeps its opponent and
    colour in the file but counts for neither (C.04.3 art. A.6, C.1).
    """
    played = block.opponent != 0 and block.colour in "wb" and block.result not in "+-"
    return RoundEntry(
        opponent=block.opponent or None,
        colour=block.colour if played else None,
        points=_points(block.result, bye_points),
        bye=block.opponent == 0 and block.result == "U",
        paired=block.opponent != 0 or block.result in "U+",
    )


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


def pairing_state(tournament: Tournament, rounds_done: int) -> PairingState:
    """Return the state before round ``rounds_done + 1``: every player's first
    ``rounds_done`` rounds, the planned rounds (``XXR``, else the file's rounds) and
    the initial colour (:func:`inferred_initial_colour`).

    Of the round to pair, only absences are read (as bbpPairings reads a file entered
    ahead): ``0000`` with ``H``, ``F``, ``Z`` or ``-`` leaves the player out of the
    pairing; anything else there (a pairing already made, a blank) is ignored.
    """
    total = max((len(p.rounds) for p in tournament.players), default=0)
    entrants = []
    for player in tournament.players:
        history = tuple(round_entry(_block(player, k), tournament.bye_points)
                        for k in range(1, rounds_done + 1))
        upcoming = _block(player, rounds_done + 1)
        absent = upcoming.opponent == 0 and upcoming.result in "HFZ-"
        entrants.append(Entrant(player.start_rank, history, not absent,
                                tournament.accelerations.get(player.start_rank, ())))
    return PairingState(tuple(entrants), tournament.planned or total,
                        inferred_initial_colour(tournament),
                        forbidden=tuple(frozenset(group) for group, (first, last)
                                        in tournament.forbidden
                                        if first <= rounds_done + 1 <= last))
