"""A team match's games entered together at the desk (issue #34 item 5; docs/venue.md,
"Team matches at the desk").

In a team-vs-team event (docs/teams.md, "Team matches") the desk lists a round's matches
from its ``teams-round-N.csv`` and takes each match's draft in one form: ``size``
boards, each a player of team_1 against a player of team_2 (or one side fielded by
nobody: a forfeited board, the other player's BYE row won 1-0), optionally with the
result and the format's stats. The games are written together, one write of
``round-N.csv`` through :mod:`standgen.roundfile` (a new file gets the format's header),
after the checks of any entry (the loader's, which include the team check of
:mod:`standgen.teams.check`), and only if the match's rows still read as the page showed
them. Re-saving a draft replaces the match's rows while none of its games has a result.

Tables: match ``m``'s board ``b`` is table ``(m - 1) * size + b``, the numbering
``standgen pair`` gives a team bye's BYE rows (:mod:`standgen.teamday`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from standgen.errors import Problem
from standgen.load import load_event
from standgen.load.files import CONTROL, display
from standgen.load.rounds import ABSENT, BYE, columns, has_result
from standgen.model import Event, TeamMatch
from standgen.roundfile import (
    RoundFile,
    RoundFileRefused,
    RoundRow,
    editing,
    new_round_text,
    tag_of,
)
from standgen.teams.matches import team_of_players
from standgen.venue.entry import as_typed, no_result, stat_problems
from standgen.venue.guard import MAX_VALUE, Refusal, to_int
from standgen.venue.rounds import EventInfo, Outcome

if TYPE_CHECKING:
    from standgen.venue.desk import DeskCore

FORFEITED = "-"  # a board's side fielded by nobody: the board is forfeited
FORM_FIELDS = ("csrf", "event", "round", "match", "expect")
MAX_ID = 100  # characters of a player id sent by the form
_FLIPPED = {"1-0": "0-1", "0-1": "1-0", "+-": "-+", "-+": "+-"}
_STATUS = {"changed": 409, "locked": 409, "missing": 404, "unreadable": 400, "form": 400}


def board_table(match: int, size: int, board: int) -> int:
    """Return the table of ``board`` (1, 2 ...) of match ``match``: the boards of match 1
    are tables 1 .. size, of match 2 size + 1 .. 2 * size, and so on."""
    return (match - 1) * size + board


@dataclass(frozen=True)
class Roster:
    """A team as the match form offers it: its players in this round, in players.csv's
    order, each with the name the desk shows."""

    id: str
    name: str
    players: tuple[tuple[str, str], ...]

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(pid for pid, _ in self.players)


@dataclass(frozen=True)
class MatchState:
    """One team match of a round as the desk reads it now."""

    number: int
    team_1: Roster
    team_2: Roster | None  # None: the team bye
    size: int
    rows: tuple[RoundRow, ...]  # the match's rows of round-N.csv, in file order
    boards: tuple[dict[str, str], ...]  # each row as a board: team_1's side first
    results: int  # rows with a result
    locked: str  # why its draft can no longer be changed here, or ""

    @property
    def tag(self) -> str:
        """Return the digest a draft expects: the two teams and the match's rows."""
        sides = f"{self.team_1.id}|{self.team_2.id if self.team_2 else ''}"
        return tag_of("\n".join([sides, *(row.text for row in self.rows)]))

    @property
    def tables(self) -> tuple[int, int]:
        return (board_table(self.number, self.size, 1),
                board_table(self.number, self.size, self.size))


@dataclass(frozen=True)
class TeamState:
    """A team event loaded for the desk: the event, each player's team, the names the
    desk shows."""

    info: EventInfo
    event: Event
    names: Mapping[str, str]

    @property
    def teams(self) -> Mapping[str, str]:
        return team_of_players(self.event)

    def team_name(self, team: str) -> str:
        return next((t.name for t in self.event.teams if t.id == team), team)

    def roster(self, team: str, number: int) -> Roster:
        players = tuple((p.id, self.names.get(p.id, p.name)) for p in self.event.players
                        if p.team == team and p.active_in(number))
        return Roster(team, self.team_name(team), players)

    def team_matches(self, number: int) -> tuple[TeamMatch, ...]:
        found = [r for r in self.event.team_rounds if r.number == number]
        return found[0].matches if found else ()


def team_state(desk: DeskCore, info: EventInfo) -> tuple[TeamState | None, list[str]]:
    """Return the team event ``info`` loaded as the loader reads it, or None and its
    errors (the match form needs the teams, players and team pairings)."""
    problems: list[Problem] = []
    event = load_event(info.folder, info.slugs, problems, desk.watch.events)
    if event is None:
        return None, [str(p) for p in problems if not p.warning] or [
            f"{display(info.folder)}: the event cannot be read; run standgen check"]
    return TeamState(info, event, desk.names(info)), []


def _in_match(row: RoundRow, teams: Mapping[str, str], sides: set[str]) -> bool:
    """Return whether a row is a game of the match between ``sides`` (its players'
    teams are the two; a BYE row's player is of one of them)."""
    players = [row.cells.get(f"player_{k}", "") for k in (1, 2)]
    own = {teams.get(p, "") for p in players if p and p not in (BYE, ABSENT)}
    if not own or "" in own:
        return False
    return own <= sides if players[1] in (BYE, ABSENT) else own == sides


def _board(row: RoundRow, teams: Mapping[str, str], team_1: str) -> dict[str, str]:
    """Return a match's row as a board of the form: team_1's player (or FORFEITED) as
    player_1, the result and stats turned round when the file has team_2's first."""
    cells = dict(row.cells)
    p1, p2 = cells.get("player_1", ""), cells.get("player_2", "")
    if p2 in (BYE, ABSENT):
        mine = teams.get(p1) == team_1
        return {**cells, "player_1": p1 if mine else FORFEITED,
                "player_2": FORFEITED if mine else p1}
    if teams.get(p1) == team_1:
        return cells
    turned = {k[:-1] + ("2" if k.endswith("_1") else "1"): v for k, v in cells.items()
              if k.endswith(("_1", "_2"))}
    result = cells.get("result", "")
    return {**cells, **turned, "result": _FLIPPED.get(result, result)}


def matches_of(desk: DeskCore, state: TeamState, number: int,
               current: RoundFile | None) -> list[MatchState]:
    """Return round ``number``'s matches with their rows of ``current`` (None: no round
    file yet)."""
    rows = current.rows if current is not None else ()
    name = current.path.name if current is not None else f"round-{number}.csv"
    return [_match_state(desk, state, number, match, rows, name)
            for match in state.team_matches(number)]


def _match_state(desk: DeskCore, state: TeamState, number: int, match: TeamMatch,
                 rows: Sequence[RoundRow], name: str) -> MatchState:
    """Return one match with its rows among ``rows`` (of the round file ``name``)."""
    teams = state.teams
    sides = {match.team_1, match.team_2} - {""}
    mine = tuple(r for r in rows if _in_match(r, teams, sides))
    done = [r for r in mine if desk.finished(state.info, r)]
    boards = tuple(_board(r, teams, match.team_1) for r in _by_table(mine))
    team_2 = state.roster(match.team_2, number) if match.team_2 else None
    return MatchState(match.number, state.roster(match.team_1, number), team_2,
                      state.event.config.teams.size or 0, mine, boards, len(done),
                      _locked(match.number, done, name))


def _by_table(rows: Sequence[RoundRow]) -> list[RoundRow]:
    return sorted(rows, key=lambda r: r.table or 0)


def _locked(number: int, done: Sequence[RoundRow], name: str) -> str:
    """Return why match ``number``'s draft can no longer be changed at the desk (a game
    of it played has its result; a BYE row does not count), or ""."""
    played = _by_table([r for r in done if r.cells.get("player_2") not in (BYE, ABSENT)])
    if not played:
        return ""
    return (f"match {number} has results already (table {played[0].table}: "
            f"{played[0].cells.get('result') or 'entered'}); its draft can no longer be "
            f"changed at the desk: correct a result in its table's box, or the players in "
            f"{name}")


# -- the draft form ----------------------------------------------------------------------

@dataclass
class Draft:
    """A match form as read: the rows to write, and each field's problem."""

    rows: list[dict[str, str]] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)
    seen: dict[str, int] = field(default_factory=dict)  # player -> board

    def fail(self, name: str, message: str) -> None:
        self.fields.setdefault(name, message)


def board_columns(info: EventInfo, header: Sequence[str] | None) -> list[str]:
    """Return the columns a board takes: the result and the format's stat columns the
    round file has (every one for a new file)."""
    assert info.fmt is not None
    if header is None:
        required, optional = columns(info.fmt)
        header = [*required, *optional]
    return ["result"] + [f"{s.id}_{k}" for s in info.fmt.stats for k in (1, 2)
                         if f"{s.id}_{k}" in header]


def refused_fields(form: Mapping[str, str], size: int, cols: Sequence[str]) -> Outcome | None:
    """Return the refusal of a form with a field the match form does not have (a board
    past ``size``, another column) or a value that is not one short line, or None."""
    allowed = set(FORM_FIELDS) | {f"b{b}_{c}" for b in range(1, size + 1)
                                  for c in ("player_1", "player_2", *cols)}
    for name, value in form.items():
        if name not in allowed:
            return Outcome(400, [_unknown_field(name, size)])
        limit = MAX_ID if name.endswith(("player_1", "player_2")) else MAX_VALUE
        if name != "csrf" and not _one_short_line(value, limit):
            return Outcome(400, [f"{name}: enter one short line (at most {limit} characters)"],
                           fields={name: "Enter one short line."})
    return None


def _unknown_field(name: str, size: int) -> str:
    """Return why a field the match form does not have is refused."""
    board = name.split("_", 1)[0]
    if board[:1] == "b" and board[1:].isdigit() and to_int(board[1:]) > size:
        return (f"a match has {size} boards ([teams] size in event.toml); board {board[1:]} "
                "cannot be entered")
    return f"'{name}' cannot be entered at the desk"


def _one_short_line(value: str, limit: int) -> bool:
    """Return whether ``value`` is one line of at most ``limit`` characters."""
    return (len(value) <= limit and not CONTROL.search(value)
            and not any(c in value for c in "\u2028\u2029\x85"))


def _side_problem(state: TeamState, match: MatchState, number: int, board: int,
                  side: int, pid: str, draft: Draft) -> str:
    """Return what is wrong with the player chosen for one side of a board, or "" (and
    remember the player's board)."""
    own = match.team_1 if side == 1 else match.team_2
    assert own is not None
    where = f"Board {board} (table {board_table(match.number, match.size, board)})"
    name = state.names.get(pid, pid)
    if not pid:
        return f"{where}: choose a player of {own.name} (or nobody: board forfeited)"
    if pid == FORFEITED:
        return ""
    if pid not in own.ids:
        return f"{where}: {_not_of(state, match, number, own, pid)}"
    if pid in draft.seen:
        return (f"{where}: {name} plays on board {draft.seen[pid]} already; each player "
                "plays one board of the match")
    draft.seen[pid] = board
    return ""


def _not_of(state: TeamState, match: MatchState, number: int, own: Roster, pid: str) -> str:
    """Return why ``pid`` cannot play for ``own`` in this match: no such player, not
    playing this round, a team-mate of the other side, a player of another match."""
    other = match.team_2 if own is match.team_1 else match.team_1
    assert other is not None and match.team_2 is not None
    name = state.names.get(pid, pid)
    team = state.teams.get(pid)
    if team is None:
        return f"no player '{pid}' in players.csv; choose one from the list"
    if team == own.id:
        return (f"{name} does not play in round {number} (dropped, or not joined yet); "
                f"choose another player of {own.name}")
    if team == other.id:
        return (f"{name} plays for {other.name}, team-mates never meet in a match; choose a "
                f"player of {own.name} on this side")
    return (f"{name} plays for {state.team_name(team)}, not in this match "
            f"({match.team_1.name} v {match.team_2.name}); choose a player of {own.name}")


def _game_problems(info: EventInfo, table: int, who: Mapping[int, str],
                   cells: Mapping[str, str]) -> dict[str, str]:
    """Return the problems of a board's result and stats by column, as a table's entry
    has them (a stat that is not a number, stats without a result)."""
    assert info.fmt is not None and info.config is not None
    found = stat_problems(info.fmt.stats, table, who, cells)
    stats = [s for s in info.fmt.stats if cells.get(f"{s.id}_1") or cells.get(f"{s.id}_2")]
    if not found and stats and not has_result(cells, info.fmt, info.config):
        found["result"] = no_result(table, stats, info.fmt.outcome_from_stats is not None)
    return found


def _read_board(state: TeamState, match: MatchState, number: int, board: int,
                form: Mapping[str, str], cols: Sequence[str], draft: Draft) -> None:
    """Read one board of a match form into ``draft``: its row, or its problems."""
    key = f"b{board}_"
    table = board_table(match.number, match.size, board)
    chosen = [form.get(f"{key}player_{k}", "").strip() for k in (1, 2)]
    values, typed = _board_values(form, key, cols)
    if chosen == ["", ""]:
        if typed:
            draft.fail(f"{key}player_1", f"Board {board} (table {table}): choose its "
                       "players, or clear its result and stats")
        return
    if not _players_ok(state, match, number, board, chosen, draft):
        return
    if FORFEITED in chosen:
        _forfeited(state, board, table, chosen, typed, draft)
        return
    cells = {"table": str(table), "player_1": chosen[0], "player_2": chosen[1], **values}
    who = {k: state.names.get(pid, pid) for k, pid in enumerate(chosen, start=1)}
    for column, message in _game_problems(state.info, table, who, cells).items():
        draft.fail(key + column, message)
    draft.rows.append(cells)


def _board_values(form: Mapping[str, str], key: str, cols: Sequence[str]
                  ) -> tuple[dict[str, str], list[str]]:
    """Return a board's result and stats as typed (trimmed, ASCII digits) and the columns
    given a value."""
    values = as_typed({c: form.get(key + c, "") for c in cols})
    return values, [c for c, v in values.items() if v]


def _players_ok(state: TeamState, match: MatchState, number: int, board: int,
                chosen: Sequence[str], draft: Draft) -> bool:
    """Return whether both players of a board can play it; note each side's problem."""
    ok = True
    for side, pid in enumerate(chosen, start=1):
        wrong = _side_problem(state, match, number, board, side, pid, draft)
        if wrong:
            draft.fail(f"b{board}_player_{side}", wrong)
            ok = False
    return ok


def _forfeited(state: TeamState, board: int, table: int, chosen: Sequence[str],
               typed: Sequence[str], draft: Draft) -> None:
    """Read a board with one side fielded by nobody: the other player's BYE row, won."""
    key = f"b{board}_"
    if chosen[0] == chosen[1]:
        draft.fail(f"{key}player_1", f"Board {board} (table {table}): nobody plays on "
                   "either side; leave both players unchosen to leave the board out")
        return
    player = chosen[1] if chosen[0] == FORFEITED else chosen[0]
    if typed:
        draft.fail(key + typed[0], f"Board {board} (table {table}) is forfeited: "
                   f"{state.names.get(player, player)} wins it (a BYE row, 1-0); clear its "
                   "result and stats")
        return
    draft.rows.append({"table": str(table), "player_1": player, "player_2": BYE,
                       "result": "1-0"})


def read_draft(state: TeamState, match: MatchState, number: int, form: Mapping[str, str],
               cols: Sequence[str]) -> Draft:
    """Return a match form's rows (one per board with players) and its problems."""
    draft = Draft()
    for board in range(1, match.size + 1):
        _read_board(state, match, number, board, form, cols, draft)
    if not draft.rows and not draft.fields:
        draft.fail("b1_player_1", f"Match {match.number}: choose the players of its boards, "
                   "then save")
    return draft


def _taken(current: RoundFile | None, match: MatchState,
           rows: Sequence[Mapping[str, str]]) -> list[str]:
    """Return a problem for each board whose table another game of the round holds."""
    if current is None:
        return []
    mine = {row.line for row in match.rows}
    others = {row.table: row for row in current.rows if row.line not in mine}
    first, last = match.tables
    found = []
    for cells in rows:
        row = others.get(to_int(cells["table"]))
        if row is not None:
            found.append(f"{display(current.path)}:{row.line}: table {row.table} holds another "
                         f"game ('{row.text}'); match {match.number}'s boards are tables "
                         f"{first} to {last}: renumber that row in the file, then save the "
                         "draft again")
    return found


# -- entering a draft ----------------------------------------------------------------------

def team_info(desk: DeskCore, path: str, number: int) -> EventInfo:
    """Return the team event at ``path`` whose round ``number`` has team pairings."""
    info = desk.events(path).get(path)
    if info is None or not info.team_matches or number not in info.team_rounds:
        raise Refusal(404, "No such team round; choose a round of a team event from the "
                      "desk's list.")
    if not info.two_player:
        raise Refusal(400, f"{info.name}: event.toml cannot be read; correct it in the file")
    return info


def enter_draft(desk: DeskCore, path: str, number: int, match: int,
                form: Mapping[str, str], client: str) -> Outcome:
    """Write a match's drafted games together: under the round file's lock (no build runs
    meanwhile) compare the match's rows with what the page read (``expect``), check the
    draft and the file it makes with the loader, write it, log it and rebuild. Nothing
    is written unless the outcome is 200 with ``changed``."""
    try:
        info = team_info(desk, path, number)
    except Refusal as exc:
        return Outcome(exc.status, [exc.message])
    target = info.round_file(number)
    assert info.fmt is not None
    desk._settle(target)
    with desk.watch.build_lock:
        try:
            with editing(target, info.fmt, missing_ok=True) as edit:
                outcome = _draft_held(desk, info, number, match, form, client, edit)
        except RoundFileRefused as exc:
            return Outcome(_STATUS.get(exc.reason, 400), [str(p) for p in exc.problems])
        except OSError as exc:
            return Outcome(500, [f"{display(target)}:1: cannot be written ({exc.strerror}); "
                                 "nothing was changed"])
    if outcome.changed:
        desk.watch.notice(str(target), urgent=True)
    return outcome


def _draft_held(desk: DeskCore, info: EventInfo, number: int, match: int,
                form: Mapping[str, str], client: str, edit: Any) -> Outcome:
    """Check and write a match's draft with the round file held (``edit``)."""
    current: RoundFile | None = edit.current
    state, problems = team_state(desk, info)
    if state is None:
        return Outcome(400, [*problems, "correct the event's files first; the desk enters "
                             "a match's games only into an event it can read"])
    found = _draftable(desk, state, number, match, current, form.get("expect", ""))
    if isinstance(found, Outcome):
        return found
    cols = board_columns(info, current.header if current is not None else None)
    draft = read_draft(state, found, number, form, cols)
    if draft.fields:
        return Outcome(400, list(draft.fields.values()), fields=draft.fields)
    taken = _taken(current, found, draft.rows)
    if taken:
        return Outcome(400, taken)
    assert info.fmt is not None
    text = (new_round_text(info.fmt, draft.rows) if current is None else
            current.with_rows({row.line for row in found.rows}, draft.rows))
    fresh = desk._check(info, edit.path.name, text)
    if fresh:
        return Outcome(400, fresh)
    return _write_draft(desk, info, number, found, draft, client, edit, text)


def _draftable(desk: DeskCore, state: TeamState, number: int, match: int,
               current: RoundFile | None, expect: str) -> MatchState | Outcome:
    """Return the match to draft, or the refusal: no such match, the team bye, its rows
    changed since the page was loaded (``expect``), a result already in."""
    chosen = [m for m in matches_of(desk, state, number, current) if m.number == match]
    where = display(state.info.round_file(number))
    if not chosen:
        return Outcome(404, [f"round {number} has no match {match} to draft"])
    if chosen[0].team_2 is None:
        return Outcome(404, [f"match {match} is the team bye: standgen pair wrote its BYE "
                             "rows; there is nothing to draft"])
    if expect != chosen[0].tag:
        return Outcome(409, [f"{where}:1: match {match}'s games changed since this page was "
                             "loaded (another desk, or the file); nothing was written: "
                             "check the match below and enter the draft again"])
    if chosen[0].locked:
        return Outcome(409, [f"{where}:1: {chosen[0].locked}"])
    return chosen[0]


def _write_draft(desk: DeskCore, info: EventInfo, number: int, match: MatchState,
                 draft: Draft, client: str, edit: Any, text: str) -> Outcome:
    """Write a checked draft and log it; a change the log cannot take is undone."""
    if edit.current is None and os.path.lexists(edit.path):
        return Outcome(409, [f"{display(edit.path)}:1: was made meanwhile (another program); "
                             "nothing was written: reload the desk and enter the draft again"])
    old = [dict(row.cells) for row in match.rows]
    if not edit.write(text):
        return Outcome(200, old=_flat(old), new=_flat(draft.rows))
    desk._remember(edit.path)
    entry = {"kind": "draft", "event": info.path, "round": number, "match": match.number,
             "tables": [to_int(c["table"]) for c in draft.rows], "old": old,
             "new": draft.rows, "who": "desk", "client": client}
    try:
        desk._log(entry)
    except OSError as exc:
        if edit.current is None:
            edit.path.unlink(missing_ok=True)
        else:
            desk._undo(info, edit, edit.current)
        return Outcome(500, [f"{display(desk.log_path)}:1: cannot be appended to "
                             f"({exc.strerror}); the draft was undone"])
    return Outcome(200, changed=True, old=_flat(old), new=_flat(draft.rows))


def _flat(rows: Sequence[Mapping[str, str]]) -> dict[str, str]:
    """Return rows as one mapping for :class:`Outcome` (table -> "player_1 v player_2")."""
    return {r.get("table", ""): f"{r.get('player_1', '')} v {r.get('player_2', '')}"
            for r in rows}


# -- the desk page -------------------------------------------------------------------------

def match_context(desk: DeskCore, info: EventInfo, number: int, current: RoundFile | None,
                  args: Mapping[str, str],
                  failed: tuple[int, Mapping[str, str], Outcome] | None) -> dict[str, Any]:
    """Return the desk page's team match values for round ``number``: the matches, the
    chosen match's form (``match`` in ``args``, or the draft that failed, with its
    values as typed and each problem beside its field)."""
    context: dict[str, Any] = {
        "team_problems": [], "matches": [], "match_form": None, "draft_problems": [],
        "draft_fields": {}, "drafted": to_int(args.get("drafted")),
        "draft_unchanged": to_int(args.get("draft_unchanged")), "table_match": {}}
    wanted, typed = to_int(args.get("match")), None
    if failed is not None:
        wanted, typed = failed[0], failed[1] or None
        context.update(_failed_draft(failed[2]))
    state, problems = team_state(desk, info)
    if state is None:
        context["team_problems"] = problems
        return context
    found = matches_of(desk, state, number, current)
    context["matches"] = [_listed(m) for m in found]
    context["table_match"] = _match_of_tables(found)
    chosen = [m for m in found if m.number == wanted and m.team_2 is not None]
    if chosen:
        cols = board_columns(info, current.header if current is not None else None)
        context["match_form"] = _form_view(info, chosen[0], cols, typed)
    return context


def _match_of_tables(found: Sequence[MatchState]) -> dict[int | None, int]:
    """Return the match of each table of the round file (each table's box names it)."""
    return {row.table: match.number for match in found for row in match.rows}


def _failed_draft(outcome: Outcome) -> dict[str, Any]:
    """Return the desk page's values of a refused draft: each field's problem, and the
    problems that belong to no field."""
    return {"draft_fields": outcome.fields,
            "draft_problems": [p for p in outcome.problems if p not in outcome.fields.values()]}


def _listed(match: MatchState) -> dict[str, Any]:
    """Return a match as the desk's list shows it."""
    return {"number": match.number, "name_1": match.team_1.name,
            "name_2": match.team_2.name if match.team_2 else "", "bye": match.team_2 is None,
            "drafted": len(match.rows), "results": match.results, "size": match.size,
            "locked": bool(match.locked), "tables": match.tables}


def _form_view(info: EventInfo, match: MatchState, cols: Sequence[str],
               typed: Mapping[str, str] | None) -> dict[str, Any]:
    """Return the match form: a board per game of ``size``, filled with the match's rows
    (or the values as typed when a draft was refused)."""
    assert info.fmt is not None and match.team_2 is not None
    labels = {f"{s.id}_{k}": (s.label, str(k)) for s in info.fmt.stats for k in (1, 2)}
    boards = []
    for board in range(1, match.size + 1):
        if typed is not None:
            values = {c: typed.get(f"b{board}_{c}", "")
                      for c in ("player_1", "player_2", *cols)}
        else:
            values = dict(match.boards[board - 1]) if board <= len(match.boards) else {}
        boards.append({"board": board, "table": board_table(match.number, match.size, board),
                       "values": values})
    return {"number": match.number, "team_1": match.team_1, "team_2": match.team_2,
            "size": match.size, "expect": match.tag, "locked": match.locked,
            "boards": boards, "tables": match.tables,
            "columns": [{"id": c, "label": labels[c][0], "seat": labels[c][1]}
                        for c in cols if c in labels],
            "forfeited": FORFEITED}
