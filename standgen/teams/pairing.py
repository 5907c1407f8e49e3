"""Team Swiss of a team-vs-team event (docs/teams.md, "Pairing the team matches").

What the wargame team championships publish of their pairing (sources read for issue
#34): UKTC, "Teams Explained: The Pairings Process" (uktc.events, 2025): "round
pairings are random in Round 1, then move into a win/loss bracket (winning teams play
winning teams)"; the WTC Committee's player pack (wmhwtc.wordpress.com, 2013-03-20,
"The Pairing System") describes only the captains' draft inside a match. We found no
published text of the WTC's team Swiss itself (rematch and bye rules), so the rest is the
standard team Swiss, as standgen's individual Swiss formats pair players:

1. Teams are ordered by Wins (matches won, a drawn match ½); inside each score group the
   order is a random draw from the event's ``seed`` (round 1 is one group: a random draw).
2. With an odd number of teams, the **team bye** goes to the lowest-ranked team (by the
   team standings: Wins, SoS, TP, stats) that has not had one and whose leaving still
   lets the others be paired without a rematch; it is a match won by every game. A bye
   the team asked for is not the team bye (it does not stop the team having it).
3. From the top, each team is paired with the next team it has not met; when that leads
   to a dead end the search backtracks, so no two teams meet twice while any pairing
   avoids it. When none does, the pairing with the fewest rematches is taken (searched
   the same way) and the notes name each rematch.
4. A team that asked for a bye this round (its row in ``teams-round-N.csv`` written
   before the round is paired: ``team_2`` empty and a ``result``) is not paired: the
   pairing is of the other teams, and the round's file keeps its row
   (:func:`requested_byes`; as FIDE C.04.1 c pairs "the players to be paired", and an
   earlier edition of the Handbook's Dutch rules, C.04.1 F.5, said "players known in
   advance not to play in a particular round are not paired in that round").

The search is exhaustive up to :data:`BUDGET` steps per attempt (enough for every field
tested, 64 teams included); past it the best pairing found so far is taken and the notes
say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from standgen.model import Event, TeamMatch, TeamRound
from standgen.pairing.common import rng
from standgen.teams.matches import team_match_standings

BUDGET = 200_000  # search steps per attempt (one bye candidate, one rematch allowance)


@dataclass(frozen=True)
class TeamPairing:
    """A proposed round of team matches and the notes that explain it (for the TO)."""

    round: TeamRound
    notes: tuple[str, ...]


def met_before(event: Event, number: int) -> set[frozenset[str]]:
    """Return the pairs of teams that met in a team round before ``number``."""
    return {frozenset((m.team_1, m.team_2)) for r in event.team_rounds if r.number < number
            for m in r.matches if m.team_2}


def had_bye(event: Event, number: int) -> set[str]:
    """Return the teams that had the pairing's team bye before round ``number`` (a bye a
    team asked for, a row with a ``result``, is none: C.04.1 d bars from the pairing-
    allocated bye only a team that had it or won by forfeit)."""
    return {m.team_1 for r in event.team_rounds if r.number < number
            for m in r.matches if not m.team_2 and not m.result}


def requested_byes(event: Event, number: int) -> tuple[TeamMatch, ...]:
    """Return the byes teams asked for in round ``number`` (rows with ``team_2`` empty
    and a ``result``: docs/teams.md, "Byes teams ask for"), in the file's order."""
    return tuple(m for r in event.team_rounds if r.number == number
                 for m in r.matches if not m.team_2 and m.result)


def pending(rnd: TeamRound) -> bool:
    """Return whether a team round holds nothing but byes teams asked for: written by the
    TO before the round is paired, for ``pair`` to complete."""
    return bool(rnd.matches) and all(not m.team_2 and m.result for m in rnd.matches)


def before_round(event: Event, number: int) -> Event:
    """Return the event as it stands when team round ``number`` is paired: its rounds
    before ``number`` and, of round ``number``, only the byes teams asked for."""
    asked = requested_byes(event, number)
    kept = tuple(r for r in event.team_rounds if r.number < number)
    if asked:
        kept += (TeamRound(number, asked, next(r.source for r in event.team_rounds
                                               if r.number == number)),)
    return replace(event, rounds=tuple(r for r in event.rounds if r.number < number),
                   team_rounds=kept)


def with_requested(number: int, pairs: Sequence[tuple[str, str]], bye: str,
                   asked: Sequence[TeamMatch]) -> TeamRound:
    """Return the round's file: the matches (numbered 1, 2 ...), then the byes teams
    asked for, as they were written, then the pairing's team bye."""
    matches = [TeamMatch(k, a, b) for k, (a, b) in enumerate(pairs, start=1)]
    matches += [TeamMatch(len(matches) + k, m.team_1, "", result=m.result)
                for k, m in enumerate(asked, start=1)]
    if bye:
        matches.append(TeamMatch(len(matches) + 1, bye, ""))
    return TeamRound(number, tuple(matches))


def pair_teams(event: Event, number: int, stat_ids: tuple[str, ...]) -> TeamPairing:
    """Return round ``number``'s team matches by the rules above (``stat_ids``: the
    format's stats, the last team tiebreaks)."""
    asked = requested_byes(event, number)
    away = {m.team_1 for m in asked}
    standings = [row for row in team_match_standings(event, stat_ids, upto=number - 1)
                 if row.team.id not in away]
    order = _drawn_order(event, number, [(row.wins, row.team.id) for row in standings])
    ranked = [row.team.id for row in standings]
    pairs, bye, rematches, complete = swiss(order, ranked, met_before(event, number),
                                            had_bye(event, number))
    names = {t.id: t.name for t in event.teams}
    notes = [f"Round {number}: team Swiss on Wins, random draw inside each score group "
             "from the event's seed; no two teams meet twice while avoidable."]
    notes.extend(asked_notes(names, asked))
    notes.extend(search_notes(names, bye, rematches, complete))
    return TeamPairing(with_requested(number, pairs, bye, asked), tuple(notes))


def search_notes(names: dict[str, str], bye: str, rematches: Sequence[tuple[str, str]],
                 complete: bool) -> list[str]:
    """Return the notes of a team Swiss's search (:func:`swiss`) for the TO: the team
    bye, each rematch no pairing avoids, and a search stopped at its step limit."""
    notes = []
    if bye:
        notes.append(f"Team bye: {names.get(bye, bye)} (the lowest-ranked team without one); "
                     "each of its players has a BYE row in the round file.")
    notes.extend(f"Rematch: {names.get(a, a)} v {names.get(b, b)} (no pairing avoids it)."
                 for a, b in rematches)
    if not complete:
        notes.append("The search for a pairing without rematches stopped at its step limit; "
                     "check the pairings before the round starts.")
    return notes


def _drawn_order(event: Event, number: int, scored: list[tuple[float, str]]) -> list[str]:
    """Return the teams by score groups, highest first, each drawn by lot from the
    event's seed (round 1: one group)."""
    draw = rng(event, number, "team-swiss")
    groups: dict[float, list[str]] = {}
    for score, team in scored:
        groups.setdefault(score, []).append(team)
    order: list[str] = []
    for score in sorted(groups, reverse=True):
        group = sorted(groups[score])
        draw.shuffle(group)
        order.extend(group)
    return order


def pairing_bye(matches: Sequence[TeamMatch]) -> str:
    """Return the team with the pairing's team bye in a round's matches ("" for none):
    a row without ``team_2`` and without a ``result`` (a bye asked for has one)."""
    return next((m.team_1 for m in matches if not m.team_2 and not m.result), "")


def asked_notes(names: dict[str, str], asked: Sequence[TeamMatch]) -> list[str]:
    """Return the notes naming the byes teams asked for, left out of the pairing."""
    what = {"1-0": "a full-point bye", "draw": "a half-point bye", "0-1": "a zero-point bye"}
    return [f"Not paired: {names.get(m.team_1, m.team_1)} asked for "
            f"{what.get(m.result, m.result)} (its row is kept)." for m in asked]


def swiss(
    order: Sequence[str], ranked: Sequence[str], met: set[frozenset[str]], byes: set[str],
) -> tuple[list[tuple[str, str]], str, list[tuple[str, str]], bool]:
    """Return the pairs (in ``order``), the bye team ("" for none), the rematches among
    the pairs, and whether every search finished inside its budget.

    ``order`` is the pairing order (score groups, drawn inside), ``ranked`` the standings
    order (the bye goes to its lowest team without one), ``met`` the pairs already played,
    ``byes`` the teams that had a bye. The fewest rematches win, then the lowest bye."""
    candidates = [""]
    if len(order) % 2:
        bottom = list(reversed(ranked))
        candidates = [t for t in bottom if t not in byes] or bottom
    complete = True
    for allowed in range(len(order) // 2 + 1):
        for bye in candidates:
            rest = [t for t in order if t != bye]
            found, finished = _search(rest, met, allowed)
            complete = complete and finished
            if found is not None:
                rematches = [(a, b) for a, b in found if frozenset((a, b)) in met]
                return found, bye, rematches, complete
    rest = [t for t in order if t != candidates[0]]  # unreachable: allowed covers all
    return [(rest[k], rest[k + 1]) for k in range(0, len(rest) - 1, 2)], candidates[0], [], False


def _search(order: Sequence[str], met: set[frozenset[str]],
            allowed: int) -> tuple[list[tuple[str, str]] | None, bool]:
    """Return pairs of every team in ``order`` with at most ``allowed`` rematches, top
    first, each team with the first partner below it that leads to a whole pairing; None
    when there is none. The second value is False when the step budget ran out."""
    steps = 0

    def go(left: list[str], allowed: int) -> list[tuple[str, str]] | None:
        nonlocal steps
        if not left:
            return []
        steps += 1
        if steps > BUDGET:
            return None
        top, others = left[0], left[1:]
        for k, partner in enumerate(others):
            cost = 1 if frozenset((top, partner)) in met else 0
            if cost > allowed:
                continue
            below = go(others[:k] + others[k + 1:], allowed - cost)
            if below is not None:
                return [(top, partner), *below]
        return None

    found = go(list(order), allowed)
    return found, steps <= BUDGET
