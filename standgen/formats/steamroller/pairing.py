"""Steamroller pairing (seed 004, "Pairings"): round 1 at random (byes drawn), then
within the TP piles, top down, without rematches, the bye to the lowest player who has
not had one, and the top two in the final round."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from standgen.formats.base import Proposal
from standgen.formats.steamroller.options import option
from standgen.model import Event, Player
from standgen.pairing import core
from standgen.pairing.common import (
    kept_apart,
    players_for_round,
    proposal,
    rng,
    standings_order,
)
from standgen.pairing.state import PairingInput
from standgen.records import have_met


def pair(event: Event, state: PairingInput, round_number: int) -> Proposal:
    """Return the proposed pairings for ``round_number`` (seed 004, "First Round" and
    "Second and Subsequent Matches", "Byes and Odd Numbers of Players")."""
    players = players_for_round(event, round_number)
    if round_number == 1:
        return _first_round(event, players)
    return _later_round(event, state, players, round_number)


def drawn_bye(event: Event, state: PairingInput, round_number: int) -> str | None:
    """Return the player the random draw gives the bye of ``round_number``, or None.

    The draw :func:`pair` makes first (seed 004, "Byes and Odd Numbers of Players"); the
    published bye is this player unless no pairing without a rematch keeps it.
    """
    players = players_for_round(event, round_number)
    if round_number == 1:
        pile, bye = _round_one_draw(event, players)
        return None if bye is None else pile[bye].id
    order = pile_order(event, state, players, round_number)
    scores = [state.scores.get(p.id, 0.0) for p in order]
    had_bye = [state.records[p.id].byes > 0 for p in order]
    found = _later_draw(event, round_number, scores, had_bye)
    return None if found is None else order[found].id


def _round_one_draw(event: Event, players: Sequence[Player]) -> tuple[list[Player], int | None]:
    """Return round 1's shuffled sheets and the position of the randomly drawn bye.

    Seed 004: "Shuffle all the tournament record sheets together"; "If a tournament
    begins with an odd number of players, the TO will randomly determine which player
    receives the bye". Both from the event's ``seed``.
    """
    pile = list(players)
    rng(event, 1, "shuffle").shuffle(pile)
    bye = rng(event, 1, "bye").randrange(len(pile)) if len(pile) % 2 else None
    return pile, bye


def _later_draw(
    event: Event, round_number: int, scores: Sequence[float], had_bye: Sequence[bool]
) -> int | None:
    """Return the position of the bye drawn for a later round (odd field), or None.

    Seed 004: "the TO will randomly determine which player receives the bye from the
    players with the lowest tournament point totals. The TO should ensure that the same
    player does not receive a bye more than once per event": drawn among the players
    without a bye on the lowest TP (among everyone when all have had one).
    """
    n = len(scores)
    if n % 2 == 0:
        return None
    eligible = [k for k in range(n) if not had_bye[k]] or list(range(n))
    lowest = min(scores[k] for k in eligible)
    pool = [k for k in eligible if scores[k] == lowest]
    return rng(event, round_number, "bye").choice(pool)


def _same_faction(a: Player, b: Player) -> bool:
    """Return whether two players play the same (non-empty) faction, case-insensitively."""
    return bool(a.faction) and a.faction.casefold() == b.faction.casefold()


def _first_round(event: Event, players: list[Player]) -> Proposal:
    """Return round 1: a seeded shuffle; each top sheet takes the first other faction.

    Seed 004, "First Round": "Shuffle all the tournament record sheets together. Take the
    top sheet ... look through the remaining sheets until reaching the first sheet from a
    different faction." Same faction only when no other remains: if the procedure ends
    with same-faction pairs, the matching core finds the fewest possible. The bye (odd
    field) is drawn at random first and is never moved: "If a tournament begins with an
    odd number of players, the TO will randomly determine which player receives the
    bye" (seed 004, "Byes and Odd Numbers of Players"); same-faction games "are
    perfectly legal", so a pairing with the drawn bye always exists.
    """
    pile, bye = _round_one_draw(event, players)
    members = [k for k in range(len(pile)) if k != bye]
    apart = kept_apart(event, 1)  # team-mates (docs/teams.md), as the factions are
    rest = _pair_members(
        members, cost=lambda i, j: j - i,
        forbidden=lambda i, j: _same_faction(pile[i], pile[j])
        or frozenset((pile[i].id, pile[j].id)) in apart,
    )
    result = core.Pairing(rest.pairs, bye, 0, 0, rest.method)
    notes = ["Round 1: seeded shuffle, different factions paired where possible (seed 004)."]
    if bye is not None:
        notes.append(f"The bye was drawn at random: {pile[bye].name} (seed 004).")
    if rest.rematches:
        kind = "same-faction or team-mate" if apart else "same-faction"
        notes.append(f"{rest.rematches} {kind} pairing(s) could not be avoided"
                     + (" with the drawn bye." if bye is not None else "."))
    return proposal(event, 1, pile, result, notes)


def _pair_members(
    members: Sequence[int],
    cost: core.Cost,
    forbidden: core.Forbidden,
    bye_cost: core.ByeCost | None = None,
    procedure_bye: int | None = None,
    use_procedure: bool = True,
) -> core.Pairing:
    """Return :func:`core.pair` of the positions ``members`` (ascending), as positions."""
    at = list(members)
    sub = core.pair(
        len(at),
        cost=lambda a, b: cost(at[a], at[b]),
        forbidden=lambda a, b: forbidden(at[a], at[b]),
        bye_cost=(lambda a: bye_cost(at[a])) if bye_cost is not None else None,
        procedure_bye=None if procedure_bye is None else at.index(procedure_bye),
        use_procedure=use_procedure,
    )
    return core.Pairing(
        tuple(sorted((at[a], at[b]) for a, b in sub.pairs)),
        None if sub.bye is None else at[sub.bye], sub.rematches, sub.repeat_byes, sub.method,
    )


def pile_order(
    event: Event, state: PairingInput, players: Sequence[Player], round_number: int
) -> list[Player]:
    """Return the sheets in TP piles, highest first, in the event's order inside a pile.

    Seed 004, "Second and Subsequent Matches": "sort the tournament record sheets into
    piles based on the number of tournament points, arranging them from highest point
    totals to lowest"; the seed gives no order inside a pile. ``[options] pile_order``:
    ``"standings"`` (default) puts a pile in standings order (tiebreaks included), then a
    seeded shuffle for exact ties; ``"random"`` shuffles each pile with the event's
    ``seed``, so the order cannot be played for.
    """
    if option(event.config, "pile_order") == "standings":
        return standings_order(state, players, round_number, event)
    shuffled = list(players)
    rng(event, round_number, "order").shuffle(shuffled)
    scores = state.scores
    return sorted(shuffled, key=lambda p: -scores.get(p.id, 0.0))


def _faction_counts(event: Event, state: PairingInput) -> dict[str, dict[str, int]]:
    """Return, per player, how often they have faced each faction (casefolded)."""
    faction = {p.id: p.faction.casefold() for p in event.players}
    faced: dict[str, dict[str, int]] = {}
    for pid, record in state.records.items():
        counts = faced.setdefault(pid, {})
        for entry in record.entries:
            for opponent in entry.opponents:
                name = faction.get(opponent, "")
                if name:
                    counts[name] = counts.get(name, 0) + 1
    return faced


def _unwanted(event: Event, state: PairingInput, order: Sequence[Player]
              ) -> tuple[Callable[[int, int], int], int]:
    """Return the faction criteria the event asks for, as a count per pair, and its most.

    Seed 004, "Second and Subsequent Matches": "Avoiding in-faction match-ups is an option
    that keeps matches closer to the story of the Iron Kingdoms, and avoiding having a
    player oppose the same faction repeatedly is an option to keep things fresh".
    ``avoid_same_faction`` counts 1 for a same-faction pair; ``avoid_repeat_faction``
    counts, for each of the two players, the earlier games against the other's faction.
    Both off: 0 for every pair.
    """
    config = event.config
    same = bool(option(config, "avoid_same_faction"))
    repeat = bool(option(config, "avoid_repeat_faction"))
    faced = _faction_counts(event, state) if repeat else {}
    most = (1 if same else 0) + (2 * max(
        (sum(c.values()) for c in faced.values()), default=0) if repeat else 0)

    def count(i: int, j: int) -> int:
        a, b = order[i], order[j]
        total = 1 if same and _same_faction(a, b) else 0
        if repeat:
            total += faced.get(a.id, {}).get(b.faction.casefold(), 0) if b.faction else 0
            total += faced.get(b.id, {}).get(a.faction.casefold(), 0) if a.faction else 0
        return total

    return count, most


def _faction_procedure(
    members: Sequence[int], scores: Sequence[float], forbidden: core.Forbidden,
    unwanted: Callable[[int, int], int],
) -> core.Pairing | None:
    """Return the sheet procedure with the faction criteria, or None where it cannot keep
    them.

    Seed 004: the criteria "must come after matching players with the same number of
    tournament points who have not already played one another". The top sheet looks at
    the highest pile holding a player it has not played and takes the first there the
    criteria accept; when none there is accepted (or nobody unmet is left), the written
    procedure has dead-ended and the matching takes over.
    """
    remaining = list(members)
    pairs: list[tuple[int, int]] = []
    while remaining:
        top = remaining.pop(0)
        unmet = [o for o in remaining if not forbidden(top, o)]
        if not unmet:
            return None
        pile = [o for o in unmet if scores[o] == scores[unmet[0]]]
        partner = next((o for o in pile if not unwanted(top, o)), None)
        if partner is None:
            return None
        remaining.remove(partner)
        pairs.append((top, partner))
    return core.Pairing(tuple(sorted(pairs)), None)


def _later_round(
    event: Event, state: PairingInput, players: list[Player], round_number: int
) -> Proposal:
    """Return a later round: score piles, top sheet takes the first opponent not yet played.

    Seed 004: "pair the last player against someone from the next-highest tournament
    point pile" for an odd pile; "the TO will randomly determine which player receives the
    bye from the players with the lowest tournament point totals"; "the same player does
    not receive a bye more than once". The drawn bye is fixed before the rest is paired;
    only when every pairing with it has a rematch that another bye avoids does the
    matching give the bye to someone else, and the round's notes say so. Final round:
    "The top two players will be paired" (see :func:`_top_two`).
    """
    order = pile_order(event, state, players, round_number)
    n = len(order)
    records = state.records
    met = have_met(records) | kept_apart(event, round_number)  # team-mates: as if met
    scores = [state.scores.get(p.id, 0.0) for p in order]
    had_bye = [records[p.id].byes > 0 for p in order]

    def forbidden(i: int, j: int) -> bool:
        return frozenset((order[i].id, order[j].id)) in met

    unwanted, most = _unwanted(event, state, order)
    factions = most > 0
    # Levels of closeness to the procedure: leaving one's TP pile outweighs the faction
    # criteria summed over every table, which outweigh any sum of positional distances
    # (at most n * n / 4); a bye above the lowest pile outweighs any pairing cost.
    faction_step = n * n + 1
    pile_step = (most * (n // 2 + 1) + 1) * faction_step if factions else faction_step
    gap_max = round(2 * (max(scores, default=0.0) - min(scores, default=0.0)))
    pair_max = gap_max * gap_max * pile_step + most * faction_step + n
    bye_step = (pair_max + 1) * (n // 2 + 1)

    def cost(i: int, j: int) -> int:
        gap = round(2 * abs(scores[i] - scores[j]))
        return gap * gap * pile_step + (unwanted(i, j) * faction_step if factions else 0) + (
            j - i)

    def pair_rest(members: list[int]) -> core.Pairing:
        """Pair an even list of positions: the procedure, then the matching."""
        if not factions:
            return _pair_members(members, cost, forbidden)
        found = _faction_procedure(members, scores, forbidden, unwanted)
        if found is not None:
            return found
        return _pair_members(members, cost, forbidden, use_procedure=False)

    bye = _later_draw(event, round_number, scores, had_bye)
    bye_cost = None
    if bye is not None:
        lowest = scores[bye]

        def bye_cost(k: int) -> int | None:
            if had_bye[k]:
                return None
            return 0 if k == bye else round(2 * (scores[k] - lowest)) * bye_step + (n - k)

    notes: list[str] = []
    members = [k for k in range(n) if k != bye]
    result: core.Pairing | None = None
    if round_number == state.planned_rounds and n >= 2:
        result, note = _top_two(order, state, members, bye, forbidden, pair_rest)
        notes.append(note)
    if result is None:
        rest = pair_rest(members)
        result = core.Pairing(rest.pairs, bye, rest.rematches,
                              int(bye is not None and had_bye[bye]), rest.method)
        if bye is not None and rest.rematches:
            moved = core.pair(n, cost, forbidden, bye_cost, procedure_bye=bye)
            if (moved.rematches, moved.repeat_byes) < (result.rematches, result.repeat_byes):
                notes.append(_bye_moved(order, bye, moved))
                result = moved
    if factions:
        notes += _factions_note(result, forbidden, unwanted)
    return proposal(event, round_number, order, result, notes)


def _bye_moved(order: Sequence[Player], bye: int, moved: core.Pairing) -> str:
    """Return the note of a drawn bye moved because every pairing with it has a rematch."""
    assert moved.bye is not None
    second = (", a second bye for them: every pairing without a rematch "
              "gives someone a second bye" if moved.repeat_byes else "")
    return (f"The bye was drawn for {order[bye].name}, but every pairing with "
            f"{order[bye].name} on the bye has a rematch: "
            f"{order[moved.bye].name} has the bye instead{second} (seed 004).")


def _factions_note(result: core.Pairing, forbidden: core.Forbidden,
                   unwanted: Callable[[int, int], int]) -> list[str]:
    """Return a note of the tables that meet the faction criteria they could not avoid."""
    left = sum(unwanted(i, j) > 0 for i, j in result.pairs if not forbidden(i, j))
    if not left:
        return []
    return [f"Faction options: {left} table(s) could not avoid the faction "
            "criteria without leaving a TP pile or a rematch (seed 004)."]


def _top_two_met(first: Player, second: Player, state: PairingInput) -> str:
    """Return the note of a final round whose top two met before (or are kept apart)."""
    met_in = next((e.round for e in state.records[first.id].entries
                   if second.id in e.opponents), None)
    when = f" in round {met_in}" if met_in is not None else ""
    return (f"Final round: {first.name} and {second.name}, first and second in "
            f"the standings, met{when}; seed 004 pairs the top two, but not as a "
            "rematch, so the TP piles pair them as usual.")


def _top_two(
    order: Sequence[Player], state: PairingInput, members: list[int], bye: int | None,
    forbidden: core.Forbidden, pair_rest: Callable[[list[int]], core.Pairing],
) -> tuple[core.Pairing | None, str]:
    """Return the final round with the first two of the standings paired, or None, and a
    note saying which.

    Seed 004, "Tournament Points and Standings": "The top two players will be paired
    during the final round of the tournament to determine the overall winner". standgen
    keeps "not already played" first: the top two are not paired when they have met,
    when one of them has the drawn bye, or when the rest of the field could then only be
    paired with a rematch; the note says why #1 plays someone else.
    """
    first, second = order[0], order[1]
    if forbidden(0, 1):
        return None, _top_two_met(first, second, state)
    if bye in (0, 1):
        assert bye is not None
        return None, (f"Final round: {order[bye].name}, in the top two, drew the bye, so "
                      "the top two do not play each other (seed 004).")
    rest = pair_rest([k for k in members if k > 1])
    if rest.rematches:
        return None, (f"Final round: pairing {first.name} with {second.name} would force a "
                      "rematch among the others, so the top two do not play each other "
                      "(seed 004).")
    result = core.Pairing(((0, 1), *rest.pairs), bye, 0,
                          int(bye is not None and state.records[order[bye].id].byes > 0),
                          rest.method)
    return result, "Final round: the top two of the standings play each other (seed 004)."
