"""What ``standgen check`` says about the rules, beyond the files' syntax (issue #19 item 3).

A round file a TO edited by hand may break what the pairing rule would never do. These
are warnings, with the row, never refusals: a TO may have a reason (a late swap at the
venue), and the published standings stay correct either way.

- **Rematches**: two players meeting again (seed 004: "no player will play the same
  opponent twice"; FIDE C.04.1 b: "two players shall not play against each other more
  than once"). A forfeit is not a game played (FIDE C.04.1 b), so it is no rematch.
  Old World's final round keeps its top tables' rematches by rule (seed 002) and is left
  out.
- **Players kept apart**: a game between two players ``[options] forbidden`` keeps apart
  in that round (the Swiss format's forbidden pairs).
- **Second byes**: a player given the pairing-allocated bye twice (seed 004: "no player
  will receive more than one bye"; FIDE C.04.1 c).
- **Not the Dutch system's pairing** (:func:`deviations`, issue #17): a Swiss round
  file that differs from what the FIDE Dutch system pairs from the rounds before it.
- **A bye not at the bottom**: every format here gives the bye to a player of the lowest
  score group among those who have had none (seed 004: "the player with the lowest
  tournament points who has not already received a bye"; FIDE C.04.3 A.5 "the player
  ... in the lowest score group"; OpenGotha's bye to the lowest MMS). Round 1's bye is
  drawn by lot or by rating, so it is not checked.
- **Empty stats**: a finished game whose format stats (Steamroller CP and APD, Old World
  VP) are left empty counts them as 0.
- **Results still missing** in a round that has some: the standings count only finished
  games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from standgen.errors import Problem
from standgen.formats.base import Stat
from standgen.load.late import redo_hint
from standgen.model import Event, Game, GameKind, Round, RoundState, TeamMatch
from standgen.pairing.common import forbidden_groups, team_groups
from standgen.pairing.dutch_swiss import (
    ENGINE_OPTION,
    STANDGEN,
    first_difference,
    pairing_state,
    to_round,
)
from standgen.pipeline import pair_round
from standgen.stages.cut import cut_of
from standgen.standings import Standings, compute_standings, format_of, pairing_input
from standgen.teams import c046
from standgen.teams.pairing import before_round
from standgen.teams.propose import propose_team_round, writes_boards
from standgen.tiebreaks.ratings import (
    RATING_TIEBREAKS,
    rating_tiebreaks_dropped,
    unrated_players,
)


def audit(event: Event, by_round: Sequence[Standings] = ()) -> list[Problem]:
    """Return warnings for rematches, second byes, byes not given at the bottom, empty
    stats and missing results in the event's round files. ``by_round``: the standings
    after each complete round, where the caller has them already (else computed)."""
    after = {s.rounds_complete: s for s in by_round}
    found: list[Problem] = _rating_tiebreaks(event) + _team_sizes(event)
    met: dict[frozenset[str], int] = {}
    byes: dict[str, int] = {}
    planned = (compute_standings(event).planned_rounds
               if format_of(event).final_round_rematches and event.rounds else 0)
    # a Diplomacy sit-out is no bye: it may recur; nor is a player's BYE row in a team
    # match (the team's bye, or a board the other team left empty: the team's matter)
    multi = format_of(event).seats > 2 or event.config.teams.matches
    cut = cut_of(event.config)  # a cut's rounds (issue #31) follow the bracket, not these rules
    for rnd in event.rounds:
        if cut is not None and rnd.number > cut.after_round:
            found.extend(_empty_stats(event, rnd.games))
            continue
        final = rnd.number == planned and format_of(event).final_round_rematches
        found.extend(_rematches_and_byes(rnd, met, byes, final, multi))
        found.extend(_forbidden_met(event, rnd))
        if rnd.number > 1 and format_of(event).seats == 2 and not event.config.teams.matches:
            found.extend(_bye_at_the_bottom(event, rnd, byes, after.get(rnd.number - 1)))
        found.extend(_empty_stats(event, rnd.games))
    found.extend(_results_missing(event))
    return found


def _rematches_and_byes(rnd: Round, met: dict[frozenset[str], int], byes: dict[str, int],
                        final: bool, multi: bool) -> list[Problem]:
    """Return a warning for each rematch (none in a final round whose format allows
    them) and each second bye (none for a sit-out of a multi-seat game) in ``rnd``;
    ``met`` and ``byes`` (the round of each first meeting and bye) are kept up to date."""
    found = []
    for game in rnd.games:
        if game.kind is GameKind.PLAYED and len(game.seats) == 2:
            pair = frozenset(game.players)
            if pair in met and not final:
                a, b = sorted(pair)
                found.append(_at(game, f"'{a}' and '{b}' already met in round "
                             f"{met[pair]}: a rematch; pair them with others unless "
                             "no other pairing exists"))
            met.setdefault(pair, rnd.number)
        elif game.kind is GameKind.BYE and len(game.seats) == 1 and not multi:
            pid = game.players[0]
            if pid in byes:
                found.append(_at(game, f"'{pid}' gets a second bye (the first in round "
                             f"{byes[pid]}); give it to a player without one if any"))
            byes.setdefault(pid, rnd.number)
    return found


def _results_missing(event: Event) -> list[Problem]:
    """Return a warning naming the tables without a result in the last round, once it
    has started (a round just paired: nothing to say)."""
    if not event.rounds or event.rounds[-1].finished:
        return []
    last = event.rounds[-1]
    if last.state is not RoundState.STARTED:
        return []
    tables = [str(g.table) for g in last.games if not g.finished]
    return [Problem(last.source.path, 1, f"round {last.number}: table(s) "
                    f"{', '.join(tables)} have no result yet (standgen status "
                    "lists them)", warning=True)]


def _rating_tiebreaks(event: Event) -> list[Problem]:
    """Return a warning when ARO or TPR leave the tie-break list for an unrated player
    (FIDE C.07 art. 10; :func:`standgen.tiebreaks.ratings.rating_tiebreaks_dropped`),
    at that player's row."""
    chain = event.config.tiebreaks or format_of(event).default_tiebreaks
    asked = [t for t in chain if t in RATING_TIEBREAKS]
    if not asked or not rating_tiebreaks_dropped(event):
        return []
    unrated = unrated_players(event)
    first, count = event.player_by_id[unrated[0]], len(unrated)
    return [Problem(first.source.path, first.source.line,
                    f"'{first.id}'{f' and {count - 1} more' if count > 1 else ''} "
                    f"{'have' if count > 1 else 'has'} no rating, so {' and '.join(asked)} "
                    "leave the tiebreaks (FIDE C.07 art. 10); give a rating, or write the "
                    "rating your regulations give unrated players as [options] "
                    "unrated_rating", warning=True)]


def _team_sizes(event: Event) -> list[Problem]:
    """Return a warning for each team whose players are not ``[teams] size`` (a team
    entered short, or a player typed into the wrong team; docs/teams.md). A chess team
    (a format paired by FIDE C.04.6) or a Go team, whose boards ``pair`` seats, may have
    reserves: only fewer than ``size`` warns (its last boards are forfeited)."""
    size = event.config.teams.size
    if size is None:
        return []
    reserves = writes_boards(format_of(event))
    count: dict[str, int] = {}
    for player in event.players:
        if player.team:
            count[player.team] = count.get(player.team, 0) + 1
    return [Problem(team.source.path, team.source.line, f"team '{team.id}' has "
                    f"{count.get(team.id, 0)} player(s) and [teams] size is {size}; check "
                    "the 'team' cells in players.csv", warning=True)
            for team in event.teams if count.get(team.id, 0) < size
            or (count.get(team.id, 0) > size and not reserves)]


def _forbidden_met(event: Event, rnd: Round) -> list[Problem]:
    """Return a warning for each game of the round between two players ``[options]
    forbidden`` keeps apart in it (a round file written by hand)."""
    teams = team_groups(event, rnd.number)
    groups = [g for g in forbidden_groups(event, rnd.number) if g not in teams]
    found = []
    for game in rnd.games:
        if len(game.seats) != 2:
            continue
        a, b = game.players[:2]
        if any({a, b} <= group for group in groups):
            found.append(_at(game, f"'{a}' and '{b}' are kept apart by [options] forbidden "
                                   f"in round {rnd.number}; pair them with others"))
        elif any({a, b} <= group for group in teams):
            team = event.player_by_id[a].team
            found.append(_at(game, f"'{a}' and '{b}' are team-mates (team '{team}'), kept "
                                   f"apart in round {rnd.number} by [teams] apart; pair them "
                                   "with others where the field allows it"))
    return found


def _at(game: Game, message: str) -> Problem:
    return Problem(game.source.path, game.source.line, message, warning=True)


def _bye_at_the_bottom(event: Event, rnd: Round, byes: dict[str, int],
                       standings: Standings | None) -> list[Problem]:
    """Return a warning when the round's bye went to a player above the lowest score of
    the players who could have had it (in the round, no earlier bye)."""
    given = [g for g in rnd.games if g.kind is GameKind.BYE]
    if len(given) != 1:
        return []
    game = given[0]
    pid = game.players[0]
    if standings is None:
        standings = compute_standings(event, upto=rnd.number - 1)
    scores = standings.context.scores
    eligible = _bye_eligible(rnd, byes)
    if not eligible:
        return []
    lowest = min(scores.get(p, 0.0) for p in eligible)
    mine = scores.get(pid, 0.0)
    if mine <= lowest:
        return []
    below = sorted(p for p in eligible if scores.get(p, 0.0) == lowest)
    return [_at(game, f"the bye went to '{pid}' on {_num(mine)}, but {_names(below)} had "
                f"{_num(lowest)} and no bye yet; the bye goes to the lowest score")]


def _before_pairing(event: Event, rnd: Round) -> Event:
    """Return the event as it was when ``rnd`` was paired: the rounds before it, and the
    players with an ``ABSENT`` row in it as having asked not to be paired in it."""
    absent = {g.players[0] for g in rnd.games if g.kind is GameKind.ABSENT}
    return replace(event, rounds=tuple(r for r in event.rounds if r.number < rnd.number),
                   players=tuple(replace(p, byes=(*p.byes, rnd.number))
                                 if p.id in absent else p for p in event.players))


def _bye_eligible(rnd: Round, byes: Mapping[str, int]) -> list[str]:
    """Return the players who could have had the round's bye: paired in it (a game, a
    forfeit or the bye) and without a bye in an earlier round."""
    paired = {p for g in rnd.games if g.kind in (GameKind.PLAYED, GameKind.FORFEIT, GameKind.BYE)
              for p in g.players}
    return [p for p in paired if byes.get(p, rnd.number) >= rnd.number]


def _empty_stats(event: Event, games: Iterable[Game]) -> list[Problem]:
    fmt = format_of(event)
    if not fmt.stats:
        return []
    empty = [g for g in games if g.kind is GameKind.PLAYED and g.finished
             and _stat_missing(g, fmt.stats)]
    if not empty:
        return []
    labels = "/".join(stat.label for stat in fmt.stats)
    more = f" and {len(empty) - 1} more" if len(empty) > 1 else ""
    return [_at(empty[0], f"table {empty[0].table}{more}: {labels} left empty count as 0; "
                "enter them")]


def _stat_missing(game: Game, stats: Sequence[Stat]) -> bool:
    """Return whether a seat of ``game`` has no value for one of the format's stats."""
    return any(stat.id not in seat.stats for seat in game.seats for stat in stats)


def _num(value: float) -> str:
    return f"{value:g}"


def _names(ids: list[str]) -> str:
    shown = ", ".join(f"'{p}'" for p in ids[:3])
    return shown + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")


def deviations(event: Event) -> list[Problem]:
    """Return, for each round file of a Swiss event, a warning naming the first
    difference from the pairing the Dutch system gives from the rounds before it (issue
    #17: what FIDE's free pairing checkers tell an arbiter; the TO may still edit a
    round, so this warns and never refuses).

    Checked only where the Dutch engine pairs the event (``pairing_engine`` not
    "standgen", no round robin). Players with an ``ABSENT`` row in a round are not
    paired in it, as an arbiter enters them before pairing.
    """
    chosen = event.config.options.get(ENGINE_OPTION)
    fmt = format_of(event)
    if (chosen == STANDGEN or not fmt.dutch_deviation_check or fmt.round_robin
            or event.config.teams.matches):  # a team event's boards follow its matches
        return []
    from standgen.pairing.dutch import NoValidPairing, pair_dutch  # a Swiss event's only

    found: list[Problem] = []
    for rnd in event.rounds:
        before = _before_pairing(event, rnd)
        standings = compute_standings(before)
        try:
            made = pair_dutch(pairing_state(before, pairing_input(standings), rnd.number))
        except NoValidPairing:
            continue
        difference = first_difference(to_round(before, rnd.number, made), rnd, event)
        if difference:
            found.append(Problem(rnd.source.path, 1, f"round {rnd.number} is not the Dutch "
                                 f"system's pairing: {difference} (FIDE C.04.3; a TO may "
                                 "still change a round: this is a warning)", warning=True))
    return found


def stale_pairing(event: Event) -> list[Problem]:
    """Return a warning when the last round is paired and not started and the pairing
    standgen makes now from the rounds before it is another (issue #27: a result of an
    earlier round corrected after the next round was paired), naming ``pair --redo``.

    Only the pairs are compared, and only when the same players are in the round (a drop,
    a late entry or a bye asked since is the loader's own warning, with the same advice).
    """
    if event.config.teams.matches:
        return stale_team_round(event)
    if not event.rounds or event.rounds[-1].state is not RoundState.PAIRED:
        return []
    last = event.rounds[-1]
    asked = _byes_asked_but_paired(event, last)
    if asked:
        return asked
    before = replace(event, rounds=event.rounds[:-1])
    if before.rounds and not before.rounds[-1].finished:
        return []
    ended = over_before_paired_round(event)
    if ended:  # e.g. a corrected result made a clear winner (seed 004)
        return [Problem(last.source.path, 1, f"round {last.number} is paired, but {ended}",
                        warning=True)]
    standings = compute_standings(before)
    made = pair_round(before, standings, last.number).round
    tables = _tables_changed(last, made)
    if not tables:
        return []
    return [Problem(last.source.path, 1, f"round {last.number} as paired is not the pairing "
                    "the files give now (table(s) "
                    f"{', '.join(str(t) for t in tables)} would change): was a result of an "
                    f"earlier round corrected? To pair it again run {redo_hint(last)}; to keep "
                    "it, nothing to do", warning=True)]


def stale_team_round(event: Event) -> list[Problem]:
    """Return a warning when a team event's last team round is paired and not started
    (no game drafted; a chess or Go team round, whose boards pair writes: no result) and
    the team pairing its format makes now from the rounds before it has other matches (a
    result of an earlier round corrected after the next was paired), naming ``pair
    --redo``; the individual pairing of its boards is no concern (they follow the
    matches)."""
    if not event.team_rounds:
        return []
    last = event.team_rounds[-1]
    chess = writes_boards(format_of(event))
    for rnd in event.rounds:
        if rnd.number == last.number and any(
                g.kind is not GameKind.BYE and (not chess or any(
                    s.outcome is not None for s in g.seats)) for g in rnd.games):
            return []  # under way
    before = before_round(event, last.number)  # its byes teams asked for kept
    try:
        made = propose_team_round(before, last.number)
    except c046.NoLegalPairing:
        return []
    changed = sorted(m.number for m in last.matches
                     if _teams_of(m) not in {_teams_of(n) for n in made.round.matches})
    if not changed:
        return []
    folder = PurePosixPath(last.source.path).parent
    return [Problem(last.source.path, 1, f"team round {last.number} as paired is not the "
                    f"pairing the files give now (match(es) {', '.join(map(str, changed))} "
                    "would change): was a result of an earlier round corrected? To pair it "
                    f"again run standgen pair {folder} --redo {last.number}; to keep it, "
                    "nothing to do", warning=True)]


def _teams_of(match: TeamMatch) -> frozenset[str]:
    return frozenset(t for t in (match.team_1, match.team_2) if t)


def _byes_asked_but_paired(event: Event, last: Round) -> list[Problem]:
    """Return a warning naming the players paired in ``last`` who asked for a bye in it."""
    asked = sorted(p.id for p in event.players if last.number in p.byes and any(
        p.id in g.players and g.kind is not GameKind.ABSENT for g in last.games))
    if not asked:
        return []
    return [Problem(last.source.path, 1, f"{', '.join(repr(a) for a in asked)} asked for "
                    f"a bye in round {last.number} but {'is' if len(asked) == 1 else 'are'} "
                    f"paired in it; to pair it again without them run {redo_hint(last)}",
                    warning=True)]


def _tables_changed(last: Round, made: Round) -> list[int]:
    """Return the tables of ``last`` whose pair the pairing ``made`` now does not have
    (none when the two seat different players: then it is not the same round)."""
    if _who(made) != _who(last):
        return []
    changed = {_pair(g) for g in last.games} - {_pair(g) for g in made.games}
    return sorted(g.table for g in last.games if _pair(g) in changed)


def over_before_paired_round(event: Event) -> str | None:
    """Return why the event's last round, paired and not started, is not needed (the
    rounds before it, as they are now, end the event: a clear winner by Steamroller's
    seed 004, "the tournament ends when only one player remains undefeated", after a
    result was corrected or a player dropped), with the two ways on; None otherwise.

    The advice names no ``pair --redo`` alone, which refuses while the event is over."""
    if not event.rounds or event.rounds[-1].state is not RoundState.PAIRED:
        return None
    last = event.rounds[-1]
    before = replace(event, rounds=event.rounds[:-1])
    if before.rounds and not before.rounds[-1].finished:
        return None
    standings = compute_standings(before)
    if not standings.finished:
        return None
    played, planned = last.number - 1, standings.planned_rounds
    play_on = ("set clear_winner = false under [options] in event.toml" if played < planned
               else "raise 'rounds' in event.toml")
    why = "a clear winner, seed 004" if played < planned else "its planned rounds are played"
    folder = PurePosixPath(last.source.path).parent
    return (f"with the results as they are now the event is over after round {played} of "
            f"{planned} ({why}): delete round-{last.number}.csv to end the event there; or, "
            f"to play round {last.number} all the same, {play_on}, then run standgen pair "
            f"{folder} --redo {last.number}")


def _who(rnd: Round) -> frozenset[str]:
    return frozenset(pid for game in rnd.games for pid in game.players)


def _pair(game: Game) -> tuple[frozenset[str], GameKind]:
    """Return who plays whom at a table (or who has a bye or is left out)."""
    return frozenset(game.players), game.kind
