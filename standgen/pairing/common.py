"""Pieces every pairing rule needs: the seeded random source, who plays, score order."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import replace

from standgen.model import Event, Game, GameKind, Player, Proposal, Round, Seat
from standgen.pairing.core import Pairing
from standgen.pairing.state import PairingInput


def rng(event: Event, round_number: int, purpose: str) -> random.Random:
    """Return the random source for one choice, derived from the event's ``seed`` only.

    Seeding with a string is stable across runs and PYTHONHASHSEED values.
    """
    return random.Random(f"{event.config.seed}:{round_number}:{purpose}")


def players_for_round(event: Event, round_number: int) -> list[Player]:
    """Return the players to pair in ``round_number``: joined, not dropped before it, and
    not asking for a bye in it (players.csv ``byes``), in file order."""
    return [p for p in event.players
            if p.active_in(round_number) and round_number not in p.byes]


def with_requested_byes(event: Event, proposed: Proposal, absent: Seat) -> Proposal:
    """Return the proposal with an ``ABSENT`` row for each player who asked for a bye in
    its round (issue #19), numbered after its last table; ``absent`` is the seat such a
    row gives (its player left empty), with the format's award for a requested bye."""
    rnd = proposed.round
    asked = [p for p in event.players if p.active_in(rnd.number) and rnd.number in p.byes]
    if not asked:
        return proposed
    table = max((game.table for game in rnd.games), default=0)
    games = list(rnd.games)
    for k, player in enumerate(asked, start=1):
        games.append(Game(round=rnd.number, table=table + k,
                          seats=(replace(absent, player=player.id),),
                          kind=GameKind.ABSENT, source=rnd.source))
    names = ", ".join(p.name for p in asked)
    return Proposal(replace(rnd, games=tuple(games)),
                    notes=(*proposed.notes, f"Not paired, as they asked: {names}."))


def standings_order(
    state: PairingInput, players: Sequence[Player], round_number: int, event: Event
) -> list[Player]:
    """Return ``players`` by score, then standings rank, then a seeded shuffle for exact ties.

    Seed 004: "sort the tournament record sheets into piles based on the number of
    tournament points, arranging them from highest point totals to lowest"; the issue
    asks for standings order within a pile, then the seed.
    """
    shuffled = list(players)
    rng(event, round_number, "order").shuffle(shuffled)
    tiebreak = {p.id: k for k, p in enumerate(shuffled)}
    rank = state.ranks
    scores = state.scores
    return sorted(
        players,
        key=lambda p: (-scores.get(p.id, 0.0), rank.get(p.id, len(rank) + 1), tiebreak[p.id]),
    )


def proposal(
    event: Event,
    round_number: int,
    order: Sequence[Player],
    pairing: Pairing,
    notes: Sequence[str] = (),
) -> Proposal:
    """Return the proposed round: tables numbered from the top pairing down, the bye last."""
    games: list[Game] = []
    pairs = sorted(pairing.pairs)
    source = event.round_source(round_number)
    for table, (i, j) in enumerate(pairs, start=1):
        games.append(Game(round=round_number, table=table,
                          seats=(Seat(order[i].id), Seat(order[j].id)), source=source))
    if pairing.bye is not None:
        games.append(Game(round=round_number, table=len(pairs) + 1,
                          seats=(Seat(order[pairing.bye].id),), kind=GameKind.BYE,
                          source=source))
    all_notes = list(notes)
    if pairing.method != "procedure":
        all_notes.append(_matched(pairing.method))
    if pairing.rematches:
        all_notes.append(f"No pairing without a rematch exists: {pairing.rematches} rematch(es).")
    if pairing.repeat_byes:
        all_notes.append("No pairing gives the bye to a player who has not had one (the "
                         "others would have to meet again): a second bye was unavoidable.")
    return Proposal(Round(number=round_number, games=tuple(games), source=source),
                    notes=tuple(all_notes))


ALL_ROUNDS = (1, 99)


def forbidden_entries(event: Event) -> list[tuple[frozenset[str], tuple[int, int]]]:
    """Return ``[options] forbidden``: each group of player ids who must not meet, with
    the rounds it holds for (first, last; every round for a plain list). An entry is a
    list of ids, or ``{ players = [...], rounds = [first, last] }`` (checked when the
    event is loaded; ids not in the event are left out)."""
    known = {p.id for p in event.players}
    found = []
    for entry in event.config.options.get("forbidden", []):
        players, rounds = entry, ALL_ROUNDS
        if isinstance(entry, dict):
            players = entry.get("players", [])
            span = entry.get("rounds", list(ALL_ROUNDS))
            rounds = (int(span[0]), int(span[1]))
        if isinstance(players, list):
            found.append((frozenset(pid for pid in players if pid in known), rounds))
    return found


def forbidden_groups(event: Event, round_number: int) -> list[frozenset[str]]:
    """Return the groups of players who must not meet in ``round_number``: those of
    ``[options] forbidden`` that hold in it, then the teams (:func:`team_groups`)."""
    return [group for group, (first, last) in forbidden_entries(event)
            if first <= round_number <= last] + team_groups(event, round_number)


def team_entries(event: Event) -> list[tuple[frozenset[str], tuple[int, int]]]:
    """Return each team's members (two or more) with the rounds ``[teams] apart`` keeps
    them apart in (docs/teams.md): ``"round-1"`` (the default) round 1 only, ``"always"``
    every round, ``"no"`` none; in the shape of :func:`forbidden_entries`."""
    apart = event.config.teams.apart
    if not event.teams or apart == "no":
        return []
    rounds = (1, 1) if apart == "round-1" else ALL_ROUNDS
    members: dict[str, set[str]] = {}
    for player in event.players:
        if player.team:
            members.setdefault(player.team, set()).add(player.id)
    return [(frozenset(ids), rounds) for _, ids in sorted(members.items()) if len(ids) > 1]


def team_groups(event: Event, round_number: int) -> list[frozenset[str]]:
    """Return the teams whose members are kept apart in ``round_number``. Pairing treats
    them as if they had met (a rematch): avoided whenever a pairing without it exists,
    as BCP and the big team-led events keep team-mates apart in the first round."""
    return [group for group, (first, last) in team_entries(event)
            if first <= round_number <= last]


def kept_apart(event: Event, round_number: int) -> frozenset[frozenset[str]]:
    """Return every pair of players :func:`forbidden_groups` keeps apart in
    ``round_number``, for pairing rules that read past meetings as a set of pairs."""
    return frozenset(frozenset((a, b)) for group in forbidden_groups(event, round_number)
                     for a in group for b in group if a < b)


def _matched(method: str) -> str:
    """Return the note for a round the written procedure could not pair, in words a TO
    reads out if asked ("matching (last 4)": the last 4 players were matched)."""
    found = re.fullmatch(r"matching \(last (\d+)\)", method)
    who = (f"the last {found.group(1)} players" if found
           else "the field" if method == "matching (whole field)" else method)
    return (f"The rule's step-by-step procedure could not pair {who} (it dead-ended), so "
            "they were paired by the closest pairing that keeps its rules (see the pairing "
            "help page).")
