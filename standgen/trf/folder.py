"""An event folder's files (event.toml, players.csv, round-N.csv) from a parsed TRF16
file; nothing here touches the file system."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from standgen.errors import InputError, Problem
from standgen.formats.roundrobin import ROUND_ROBIN
from standgen.pairing import acceleration
from standgen.pairing.common import ALL_ROUNDS
from standgen.pairing.dutch import WHITE as WHITE_
from standgen.pairing.roundrobin import berger_round
from standgen.roundfile import Form, render
from standgen.trf.export import _number
from standgen.trf.read import (
    Tournament,
    TrfPlayer,
    _block,
    _last_entry,
    _points,
    inferred_initial_colour,
    player_ids,
)
from standgen.trf.teams import team_files, team_of_ranks

if TYPE_CHECKING:
    pass

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
    round_rows: dict[int, tuple[list[list[str]], list[list[str]]]] = {}
    for number in range(1, rounds + 1):
        round_rows[number] = _round_rows(tournament, number, by_rank, ids, scores, where,
                                         problems)
        for player in players:
            if _last_entry(player) >= number:
                scores[player.start_rank] += _points(_block(player, number).result,
                                                     tournament.bye_points)
    if problems:
        raise InputError(problems)
    warnings += _points_warnings(players, scores, where)
    files = {"event.toml": _event_toml(tournament, folder_name, announced or rounds, ids),
             "players.csv": _players_csv(tournament, ids, rounds, announced,
                                         team_of_ranks(tournament.teams)
                                         if tournament.teams is not None else {})}
    files.update(_round_files(tournament, files, round_rows, ids))
    return files, warnings


def _round_files(tournament: Tournament, files: Mapping[str, str],
                 round_rows: dict[int, tuple[list[list[str]], list[list[str]]]],
                 ids: Mapping[int, str]) -> dict[str, str]:
    """Return each round-N.csv from its games and its rows without an opponent, and in a
    team file (TRF-2026's 310) the team files (:func:`standgen.trf.teams.team_files`)."""
    out = {}
    if tournament.teams is not None:
        out.update(team_files(tournament.teams, files, round_rows, ids))
    for number, (games, alone) in round_rows.items():
        out[f"round-{number}.csv"] = render(
            ["table", "player_1", "player_2", "result"],
            [[str(table), *row] for table, row in enumerate(games + alone, start=1)],
            Form())
    return out


def _round_rows(tournament: Tournament, number: int, by_rank: Mapping[int, TrfPlayer],
                ids: Mapping[int, str], scores: Mapping[int, float], where: str,
                problems: list[Problem]) -> tuple[list[list[str]], list[list[str]]]:
    """Return round ``number``'s rows: its games, each read from both players' lines, at
    tables by the higher score before the round, then the lower start rank; and the rows
    of the players without an opponent (BYE or ABSENT)."""
    tables: list[tuple[tuple[float, int], list[str]]] = []
    alone: list[list[str]] = []
    done: set[int] = set()
    for player in tournament.players:
        if player.start_rank in done or _last_entry(player) < number:
            continue
        block = _block(player, number)
        if block.opponent == 0:
            alone.append([ids[player.start_rank], *_unpaired(block.result,
                                                             tournament.bye_points)])
            continue
        other = by_rank.get(block.opponent)
        row = _game_row(player, other, number, ids, where, problems)
        if other is None or row is None:
            continue
        done.update((player.start_rank, other.start_rank))
        key = (-max(scores[player.start_rank], scores[other.start_rank]),
               min(player.start_rank, other.start_rank))
        tables.append((key, row))
    tables.sort(key=lambda t: t[0])
    return [r for _, r in tables], alone


def _game_row(player: TrfPlayer, other: TrfPlayer | None, number: int,
              ids: Mapping[int, str], where: str, problems: list[Problem]) -> list[str] | None:
    """Return a game's row (White first: ``player_1``, ``player_2``, result) as both
    players' lines give it, or None after recording that they contradict each other."""
    block = _block(player, number)
    theirs = _block(other, number) if other is not None else None
    if other is None or theirs is None or theirs.opponent != player.start_rank:
        problems.append(Problem(where, player.line, f"round {number}: opponent "
                                f"{block.opponent} does not list player "
                                f"{player.start_rank} as opponent in that round"))
        return None
    result = _pair_result(block.result, theirs.result)
    if result is None or block.colour == theirs.colour != "-":
        problems.append(Problem(where, player.line, f"round {number}: players "
                                f"{player.start_rank} and {other.start_rank} disagree "
                                f"(colours {block.colour}/{theirs.colour}, results "
                                f"{_shown(block.result)}/{_shown(theirs.result)})"))
        return None
    me = ids[player.start_rank]
    if block.colour == "b" or (block.colour == "-" and theirs.colour == "w"):
        return [ids[other.start_rank], me, _flip(result)]
    return [me, ids[other.start_rank], result]


def _shown(result: str) -> str:
    """Return a round block's result code for a message ("blank" for none)."""
    return result.strip() or "blank"


def _points_warnings(players: Sequence[TrfPlayer], scores: Mapping[int, float],
                     where: str) -> list[Problem]:
    """Return a warning for each player whose points in the file differ from the results'."""
    return [Problem(where, player.line, f"player {player.start_rank} has "
                    f"{_number(player.points)} points in the file but "
                    f"{_number(scores[player.start_rank])} from the results "
                    "(another scoring system?); standgen counts 1 / ½ / 0", warning=True)
            for player in players
            if player.points is not None
            and abs(player.points - scores[player.start_rank]) > 1e-9]


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
    lines += _options_toml(tournament, ids)
    return "\n".join(lines) + "\n"


def _options_toml(tournament: Tournament, ids: Mapping[int, str]) -> list[str]:
    """Return event.toml's ``[options]`` the file sets: the initial colour, the bye's
    points, Baku acceleration, forbidden pairs and round-robin pairing."""
    lines = []
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
    return lines


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
                 announced: int | None = None, teams: Mapping[int, str] | None = None,
                 ) -> str:
    """Return players.csv; ``announced``: the next round, whose requested byes (``H`` /
    ``F`` / ``Z`` blocks) go in the ``byes`` column; ``teams``: each start rank's team
    (a TRF-2026 team file), the ``team`` column."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "name", "country", "rating", "dropped_after",
                     *(["byes"] if announced else []), *(["team"] if teams else [])])
    for player in tournament.players:
        last = min(_last_entry(player), rounds)
        asked = announced is not None and _last_entry(player) >= announced
        writer.writerow([ids[player.start_rank], player.name, player.federation,
                         "" if player.rating is None else player.rating,
                         "" if last >= rounds else last,
                         *([announced if asked else ""] if announced else []),
                         *([teams.get(player.start_rank, "")] if teams else [])])
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
