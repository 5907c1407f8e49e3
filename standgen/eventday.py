"""The TO's event-day commands: ``pair``, ``drop``, ``bye`` and ``status`` (issue #27).

A round is *proposed* (no file yet), *paired* (its file written, no result entered),
*started* (some results) or *complete* (:class:`~standgen.model.RoundState`). What each
action does in each state is the table of docs/running-an-event.md, "Round states",
implemented once, here and in :mod:`standgen.roundstates` (its refusals and what the TO
is told):

- ``drop``: a paired round keeps the player's row until ``pair --redo`` pairs it again
  (the loader warns with that command meanwhile); in a started round the player stays
  in it, and a game of theirs without a result is the format's forfeit win for the
  opponent (the TO enters it).
- ``bye --round N``: for a round not started; in a paired round, ``pair --redo N`` then
  leaves the player out.
- a late entry (a new row, or ``joined``) joins the first round without results; a
  paired round takes them with ``pair --redo``.
- ``pair --redo N``: only the last round, only before any result is entered.

Every command takes an event folder or the events root (item 2): given the root,
``status`` tells every event's state, the others name the events to choose from.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from standgen.armylists import lists_shown, moment
from standgen.audit import over_before_paired_round
from standgen.clock import now
from standgen.errors import InputError, Problem
from standgen.load import find_events, load_event
from standgen.load.files import display, read_csv, read_text, suggest
from standgen.load.players import COLUMNS, load_players
from standgen.model import (
    EVENTS_ROOT,
    LIST_CHECKS,
    Event,
    Game,
    GameKind,
    Player,
    Round,
    RoundState,
)
from standgen.output import write_atomic
from standgen.pipeline import pair_round
from standgen.roundfile import RoundFileRefused, write_round
from standgen.roundstates import (
    check_not_paired,
    check_redo,
    default_drop_round,
    dropped_before,
    forfeit_to_enter,
    in_paired_round,
    refuse_bye_in_started_round,
    refuse_unfinished,
    seat_of,
)
from standgen.site.formats import views_of
from standgen.standings import Standings, compute_standings, format_of
from standgen.teamday import pair_team_round, team_status


def is_event_folder(folder: Path) -> bool:
    """Return whether ``folder`` holds an ``event.toml`` (in any case, as the loader
    finds it)."""
    try:
        return folder.is_dir() and any(p.name.lower() == "event.toml"
                                       for p in folder.iterdir())
    except OSError:
        return False


def events_root_of(event_dir: Path) -> Path | None:
    """Return the events root that holds ``event_dir``: the nearest folder above it named
    ``events`` (README, data contract section 1), or None."""
    for above in event_dir.resolve().parents:
        if above.name == EVENTS_ROOT:
            return _as_given(event_dir, above)
    return None


def is_one_event(path: Path) -> bool:
    """Return whether a command given ``path`` works on that one event: an event folder
    that is not itself named ``events`` (an events root holding an event.toml is the
    loader's own problem)."""
    return path.name != EVENTS_ROOT and is_event_folder(path)


def _as_given(event_dir: Path, root: Path) -> Path:
    """Return ``root`` relative to the working folder when ``event_dir`` was given so."""
    if event_dir.is_absolute():
        return root
    try:
        return root.relative_to(Path.cwd().resolve())
    except ValueError:
        return root


def event_slugs(event_dir: Path, events_root: Path | None = None) -> tuple[str, ...]:
    """Return the event's path of slugs below the events root (as ``build`` sees it, so
    the seed default is the same whatever folder a command is run from)."""
    for root in (events_root, events_root_of(event_dir)):
        if root is None:
            continue
        try:
            rel = event_dir.resolve().relative_to(root.resolve())
        except ValueError:
            continue
        if rel.parts:
            return tuple(rel.parts)
    return (event_dir.resolve().name,)


def event_folder(path: Path, command: str, extra: str = "") -> Path:
    """Return ``path`` when it is an event folder; raise InputError naming the events to
    choose from when it is the events root (or a folder of events), with the command
    that works."""
    if is_event_folder(path):
        return path
    if not path.is_dir():
        raise InputError([Problem(display(path), 1, "no such event folder; name a folder "
                                  "that holds an event.toml, e.g. events/2026/spring-open")])
    folders = _event_folders(path)
    if not folders:
        raise InputError([Problem(display(path), 1, "is not an event folder (no event.toml) "
                                  "and holds no events; create one with standgen new "
                                  f"{display(path / 'my-event')} --format FORMAT")])
    named = ", ".join(display(f) for f in folders[:5]) + (", ..." if len(folders) > 5 else "")
    example = f"standgen {command} {display(folders[0])}{extra}"
    return _raise(Problem(display(path), 1, f"holds {len(folders)} event(s), not one event; "
                          f"name the event folder, e.g. {example} (events: {named})"))


def _raise(problem: Problem) -> Path:
    raise InputError([problem])


def _event_folders(root: Path) -> list[Path]:
    """Return the event folders below ``root`` (a tree with problems still lists the
    folders it found)."""
    try:
        return [folder for folder, _ in find_events(root).folders]
    except InputError:
        return []


def load(event_dir: Path, events_root: Path | None = None, upto: int | None = None,
         ) -> tuple[Event, list[Problem]]:
    """Return the event in ``event_dir`` and its warnings; raise InputError on errors."""
    problems: list[Problem] = []
    event = load_event(event_dir, event_slugs(event_dir, events_root), problems, upto=upto)
    if event is None or any(not p.warning for p in problems):
        raise InputError(problems)
    return event, problems


@dataclass(frozen=True)
class Paired:
    """What ``pair`` wrote."""

    path: Path
    event: Event
    text: str
    notes: tuple[str, ...]
    round: Round  # the round written
    said: tuple[str, ...] = ()  # what the TO reads out, when not the round's tables


def pair(event_dir: Path, events_root: Path | None = None, force: bool = False,
         redo: int | None = None) -> Paired:
    """Write the next round file of the event in ``event_dir`` (or, with ``redo``, pair
    round ``redo`` again: the last round file, holding no result yet, is replaced, with
    whoever joined, dropped or asked for a bye since).

    Never overwrites a round file holding any result; refuses while the previous round
    has games without results unless ``force`` (which, on a round paired and not
    started, pairs it again as ``redo`` does). Raises InputError with the reason.
    """
    event_dir = event_folder(event_dir, "pair")
    event, _ = load(event_dir, events_root)
    if event.config.teams.matches:  # a team event pairs team matches (docs/teams.md)
        team = pair_team_round(event_dir, event, force, redo)
        return Paired(team.path, event, team.text, team.notes, team.round, team.said)
    last = event.rounds[-1] if event.rounds else None
    if redo is None and force and last is not None and last.state is RoundState.PAIRED:
        redo = last.number
    if redo is not None:
        check_redo(event_dir, event, last, redo)
        event, _ = load(event_dir, events_root, upto=redo - 1)
        last = event.rounds[-1] if event.rounds else None
    else:
        check_not_paired(event_dir, last)
    if last is not None and not last.finished and not force:
        refuse_unfinished(last)
    where = display(event_dir / "event.toml")
    standings = compute_standings(event)
    number = (last.number if last else 0) + 1
    if standings.finished and last is not None and last.finished:
        raise InputError([Problem(where, 1, over(event, standings.planned_rounds))])
    proposal = pair_round(event, standings, number)
    target = event_dir / f"round-{number}.csv"
    try:
        text = write_round(target, format_of(event), proposal.round)
    except RoundFileRefused as exc:
        raise InputError(exc.problems) from exc
    return Paired(target, event, text,
                  (*proposal.notes, *_sitout_hint(event, proposal.round)), proposal.round)


def over(event: Event, planned: int) -> str:
    """Return why no further round is paired, saying which option to change."""
    played = event.rounds[-1].number if event.rounds else 0
    if played < planned:  # Steamroller: a clear winner before the planned rounds
        return (f"the event is over after round {played} of {planned}: a clear winner "
                "(seed 004); to play on, set clear_winner = false under [options] in "
                "event.toml")
    return (f"the event is over: its {planned} planned rounds are played; raise 'rounds' in "
            "event.toml to play on")


def _sitout_hint(event: Event, rnd: Round) -> list[str]:
    """Return a hint for the TO (not the site) when a Diplomacy round leaves more than
    three players sitting out and the event does not let anyone play two boards."""
    if format_of(event).seats <= 2 or event.config.options.get("two_boards"):
        return []
    out = sum(1 for game in rnd.games if game.kind is GameKind.BYE)
    if out <= 3:
        return []
    return [f"Hint: {out} players sit out this round. [options.two_boards] in event.toml "
            "lets some players play two boards instead (see the Diplomacy help page)."]


def status(event_dir: Path, events_root: Path | None = None) -> list[str]:
    """Return the state of the event's current round: which tables have no result yet.

    Given the events root, return one such report for every event in it.
    """
    if not is_event_folder(event_dir) and event_dir.is_dir():
        folders = _event_folders(event_dir)
        if folders:
            lines: list[str] = []
            for folder in folders:
                lines.extend(status(folder, events_root))
            return lines
    event_dir = event_folder(event_dir, "status")
    event, warnings = load(event_dir, events_root)
    return _round_status(event_dir, event, warnings) + lists_status(event, now())


def lists_status(event: Event, at: dt.datetime) -> list[str]:
    """Return the TO's line on the event's army lists: how many are in, their check
    states (players.csv ``list_check``) and when they are public; none for an event
    without lists."""
    checks = {p.id: p.list_check for p in event.players if p.list_check}
    when = event.config.lists_public
    if not event.lists and not checks and not when:
        return []
    counts = {state: sorted(pid for pid, s in checks.items() if s == state)
              for state in LIST_CHECKS}
    parts = [f"{len(event.lists)} of {len(event.players)} in lists/"]
    parts += [f"{len(ids)} {state}" + (f" ({', '.join(ids)})" if state == "needs-fix" else "")
              for state, ids in counts.items() if ids]
    missing = sorted(p.id for p in event.players if p.id not in event.lists and not p.spare)
    if missing and len(missing) <= 10:
        parts.append("none from " + ", ".join(missing))
    return [f"army lists: {'; '.join(parts)}; {_lists_public(event, at)}"]


_LISTS_PUBLIC = {"never": "never public (lists_public = \"never\")",
                 "round-1": "public once round 1 is paired"}


def _lists_public(event: Event, at: dt.datetime) -> str:
    """Return when the army lists are public (event.toml ``lists_public``): now, never,
    once round 1 is paired, or from a moment."""
    when = event.config.lists_public
    if lists_shown(event, at):
        return "public now"
    if when in _LISTS_PUBLIC:
        return _LISTS_PUBLIC[when]
    at_time = moment(when, event.config.date)
    return f"public from {at_time.isoformat() if at_time else when}"


def _round_status(event_dir: Path, event: Event, warnings: Sequence[Problem]) -> list[str]:
    """Return :func:`status`'s lines on one event's current round."""
    if event.config.teams.matches:  # a team event: its matches (docs/teams.md)
        return team_status(event_dir, event)
    name = event.config.name
    standings = compute_standings(event)
    if not event.rounds:
        return [f"{name}: no round paired yet; run standgen pair {display(event_dir)}"]
    rnd = event.rounds[-1]
    redo = [str(p) for p in warnings if "--redo" in p.message]
    open_games = [g for g in _tables(rnd) if not g.finished]
    if rnd.state is RoundState.PAIRED:
        return _paired_round_status(event, rnd, open_games, redo)
    if not open_games:
        return _complete_round_status(event_dir, event, rnd, standings)
    lines = [f"{name}: round {rnd.number}, {len(open_games)} of "
             f"{_count(len(_tables(rnd)), _board(event))} without a result:"]
    shown = announce(event, replace(rnd, games=tuple(open_games)))
    return lines + shown[1:] + redo


def _paired_round_status(event: Event, rnd: Round, open_games: list[Game],
                         redo: list[str]) -> list[str]:
    """Return :func:`status`'s lines on a round paired and not started: its tables without
    a result and the warnings that say to pair it again (``redo``), or only that a
    correction or a drop ended the event before it (issue #27)."""
    name = event.config.name
    ended = over_before_paired_round(event)
    if ended:
        return [f"{name}: round {rnd.number} is paired and not started, but {ended}"]
    lines = [f"{name}: round {rnd.number} is paired and not started, "
             f"{_count(len(open_games), _board(event))} without a result:"]
    return lines + announce(event, replace(rnd, games=tuple(open_games)))[1:] + redo


def _complete_round_status(event_dir: Path, event: Event, rnd: Round,
                           standings: Standings) -> list[str]:
    """Return :func:`status`'s line on a round with every result: the event is over, or
    the next round is to be paired."""
    name = event.config.name
    if standings.finished:
        return [f"{name}: round {rnd.number} is complete and the event is over "
                f"({over(event, standings.planned_rounds)})"]
    return [f"{name}: round {rnd.number} is complete; run standgen pair "
            f"{display(event_dir)} for round {rnd.number + 1}"]


def _board(event: Event) -> str:
    """Return what the format calls a table: a board in Diplomacy."""
    return "board" if format_of(event).seats > 2 else "table"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _tables(rnd: Round) -> list[Game]:
    """Return the round's games that are played at a table (no byes, no absences)."""
    return [g for g in rnd.games if g.kind not in (GameKind.BYE, GameKind.ABSENT)]


def announce(event: Event, rnd: Round) -> list[str]:
    """Return the round as the TO reads it out: one line a table with both players
    (chess: White first, with ratings; Go: colours, ranks, handicap and komi; Diplomacy:
    each seat's power), then who has a bye and who is not paired, without a table
    number (they have none to go to)."""
    fmt = format_of(event)
    views = views_of(fmt)
    colour = (views.seat_headers.index("Colour") if "Colour" in views.seat_headers
              and views.seat_cells is not None else None)
    names = event.player_by_id
    board = _board(event)

    def who(game: Game, k: int) -> str:
        seat = game.seats[k]
        player = names.get(seat.player)
        name = player.name if player is not None else seat.player
        extra = [seat.power] if seat.power else []
        if colour is not None and views.seat_cells is not None and len(game.seats) == 2:
            extra.append(views.seat_cells(game, seat, event.config)[colour])
        if player is not None and not seat.power:
            extra.append(_strength(player))
        said = ", ".join(e for e in extra if e)
        return f"{said} {name}" if seat.power else (f"{name} ({said})" if said else name)

    lines = [f"Round {rnd.number}:"]
    played = sorted(_tables(rnd), key=lambda g: g.table)
    for game in played:
        order = range(len(game.seats))
        joiner = ", " if fmt.seats > 2 else " vs "
        line = f"  {board} {game.table}: " + joiner.join(who(game, k) for k in order)
        extras = [f"{column} {_number(value)}" for column, value in sorted(game.extra.items())
                  if column in fmt.game_columns and (value or column != "handicap")]
        lines.append(line + (", " + ", ".join(extras) if extras else ""))
    byes = [g for g in rnd.games if g.kind is GameKind.BYE]
    absent = [g for g in rnd.games if g.kind is GameKind.ABSENT]
    if byes:
        word = "sitting out" if fmt.seats > 2 else "bye"
        lines.append(f"  {word}: " + ", ".join(who(g, 0) for g in byes))
    if absent:
        lines.append("  not paired (asked for a bye, or absent): "
                     + ", ".join(who(g, 0) for g in absent))
    return lines


def _strength(player: Player) -> str:
    """Return what the TO says after a name: the faction, or the rating or Go rank."""
    if player.faction:
        return player.faction
    if player.rating is not None:
        return _number(player.rating)
    return player.rank


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def find_player(event_dir: Path, text: str) -> str:
    """Return the id of the player ``text`` names: an id, or a name (any case, spaces as
    typed) that only one player has, or only one who has not dropped. Raises InputError
    naming the ids to use when two players share the name, or a near miss when none
    matches."""
    problems: list[Problem] = []
    path = event_dir / "players.csv"
    players = load_players(path, problems) if path.is_file() else None
    if players is None:
        raise InputError(problems or [Problem(display(path), 1, "players.csv is missing")])
    if any(p.id == text for p in players):
        return text
    wanted = " ".join(text.split()).casefold()
    named = [p for p in players if " ".join(p.name.split()).casefold() == wanted]
    playing = [p for p in named if p.dropped_after is None]
    if len(named) == 1 or len(playing) == 1:  # the other of the name has dropped
        return (playing or named)[0].id
    if named:
        ids = " or ".join(f"'{p.id}' (line {p.source.line})" for p in named)
        raise InputError([Problem(display(path), named[0].source.line, f"{len(named)} players "
                                  f"are named '{text}'; name one by id: {ids}")])
    hint = suggest(text, [p.id for p in players]) or suggest(
        text, [p.name.casefold() for p in players])
    raise InputError([Problem(display(path), 1, f"no player '{text}' in players.csv (give "
                              "an id or a full name)" + hint)])


def edit_player(event_dir: Path, player_id: str, column: str,
                change: Callable[[str], str]) -> Path:
    """Set one cell of players.csv (``byes``, ``dropped_after``) for ``player_id`` and
    write the file back atomically; return its path. The file keeps its rows, columns,
    separator and line ends; it is written as UTF-8. Raises InputError when the player
    or the file is not there."""
    path = event_dir / "players.csv"
    ids = edit_cells(path, ("id", "name"), COLUMNS, "id", player_id, column, change)
    if ids is not None:
        raise InputError([Problem(display(path), 1, f"no player '{player_id}' in players.csv"
                                  + suggest(player_id, ids))])
    return path


def edit_cells(path: Path, required: tuple[str, ...], columns: tuple[str, ...], key: str,
               value: str, column: str, change: Callable[[str], str]) -> list[str] | None:
    """Set ``column`` of every row of a CSV file (players.csv, teams.csv) whose ``key``
    cell is ``value``, and write the file back atomically as :func:`edit_player` does.
    Return None when a row changed, else the ``key`` cells there are (for a near miss).
    Raises InputError when the file is missing or unreadable."""
    problems: list[Problem] = []
    table = read_csv(path, required, columns, problems) if path.is_file() else None
    text = read_text(path, problems, spreadsheet=True) if path.is_file() else None
    if table is None or text is None:
        raise InputError(problems or [Problem(display(path), 1, f"{path.name} is missing")])
    crlf = "\r\n" in text
    delimiter = next((d for d in (",", ";", "\t") if d in text.split("\n", 1)[0]), ",")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    header = [name.strip() for name in rows[0]]
    if column not in header:
        header.append(column)
        rows = [rows[0] + [column]] + [row + [""] for row in rows[1:] if row]
    at, where = header.index(column), header.index(key)
    hits = [row for row in rows[1:] if len(row) > where and row[where].strip() == value]
    if not hits:
        return [row[where].strip() for row in rows[1:] if len(row) > where]
    for row in hits:
        row[at] = change(row[at].strip())
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n" if crlf else "\n"
               ).writerows(rows)
    write_atomic(path, out.getvalue())
    return None


def request_bye(event_dir: Path, player: str, round_number: int,
                events_root: Path | None = None) -> tuple[Path, list[str]]:
    """Record that ``player`` (an id or a unique name) asks not to be paired in
    ``round_number`` (players.csv ``byes``); the pairing gives them the format's requested
    bye (chess: half a point). Return the file written and what it means for the round
    already paired. Refused for a round that has started."""
    event_dir = event_folder(event_dir, "bye", f" PLAYER --round {round_number}")
    player_id = find_player(event_dir, player)
    event, _ = load(event_dir, events_root)
    rnd = next((r for r in event.rounds if r.number == round_number), None)
    if rnd is not None and rnd.state is not RoundState.PAIRED:
        refuse_bye_in_started_round(rnd, player_id)

    def add(cell: str) -> str:
        rounds = {int(r) for r in cell.replace(",", " ").split() if r.isdigit()}
        return " ".join(str(r) for r in sorted(rounds | {round_number}))

    path = edit_player(event_dir, player_id, "byes", add)
    game = seat_of(rnd, player_id) if rnd is not None else None
    if game is None or game.kind is GameKind.ABSENT:
        return path, []
    at = f"{'board' if len(game.seats) > 2 else 'table'} {game.table}"
    return path, [in_paired_round(event, event_dir, player_id, at)]


def drop_player(event_dir: Path, events_root: Path | None, player: str,
                after: int | None = None) -> tuple[Path, int, list[str]]:
    """Set ``dropped_after`` of ``player`` (an id or a unique name); return the file, the
    round and what the drop means for the round in play.

    The default round: the last round with a result entered (a round paired and not
    started does not count: ``pair --redo`` takes the player out of it); in a started
    round, that round (the player is in it; a game of theirs without a result is the
    format's forfeit win for the opponent, entered by the TO)."""
    event_dir = event_folder(event_dir, "drop", " PLAYER")
    player_id = find_player(event_dir, player)
    event, _ = load(event_dir, events_root)
    last = event.rounds[-1] if event.rounds else None
    if after is None:
        after = default_drop_round(event, player_id)
    said: list[str] = []
    if last is not None and last.number > after:
        said += dropped_before(event, event_dir, player_id, last)
    elif last is not None and last.number == after and last.state is RoundState.STARTED:
        said += forfeit_to_enter(last, player_id)
    path = edit_player(event_dir, player_id, "dropped_after", lambda _: str(after))
    return path, after, said
