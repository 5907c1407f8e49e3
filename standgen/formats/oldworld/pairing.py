"""Old World pairing (seed 002, "The Pairing of Players"): round 1 at random, then 1 v 2,
3 v 4 ... with seed 002's downward swap on a rematch (:mod:`standgen.pairing.adjacent`);
the spare player always meets the bottom of the standings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from standgen.formats.base import Proposal
from standgen.formats.oldworld.bands import is_number
from standgen.model import Event, EventConfig, Game, GameKind, Player, Round, Seat
from standgen.pairing import adjacent, core
from standgen.pairing.common import (
    kept_apart,
    players_for_round,
    proposal,
    rng,
    standings_order,
)
from standgen.pairing.state import PairingInput
from standgen.records import have_met


def planned_rounds(players: int, config: EventConfig) -> int:
    """Return 3: a one-day event's rounds (seed 002 sets no number; ``rounds`` overrides)."""
    return 3


def top_tables(players: int, config: EventConfig) -> int:
    """Return how many top tables never swap in the final round.

    Seed 002, "Subsequent Rounds": "usually the tables on which the top 10% of the players
    are playing": ``top_tables_percent`` of the paired field, rounded up, and the tables
    those players sit at.
    """
    percent = config.options.get("top_tables_percent", 10)
    if not is_number(percent):
        percent = 10
    top_players = math.ceil(Fraction(str(percent)) * players / 100)
    return math.ceil(top_players / 2)


def pair(event: Event, state: PairingInput, round_number: int) -> Proposal:
    """Return the proposed pairings for ``round_number`` (seed 002, "The Pairing of Players").

    "For the first round, players can be paired together randomly"; later rounds 1 v 2,
    3 v 4 ... by the standings with the swap rule; the spare player is "left out" and
    plays the bottom of the standings, or the next lowest who has not played the spare;
    without a spare that player "will instead receive a Bye".
    """
    players = players_for_round(event, round_number)
    spare = next((p for p in players if p.spare), None)
    field = [p for p in players if not p.spare]
    apart = kept_apart(event, round_number)  # team-mates (docs/teams.md): as if met
    if round_number == 1:
        return _first_round(event, field, spare, apart)
    order = standings_order(state, field, round_number, event)
    met = have_met(state.records) | apart
    notes: list[str] = []
    odd_one = None
    if len(order) % 2:
        odd_one, note = (_spare_opponent(order, spare, met) if spare is not None
                         else _bye_player(order, state))
        notes.extend(note)
    rest = [k for k in range(len(order)) if k != odd_one]

    def forbidden(i: int, j: int) -> bool:
        return frozenset((order[rest[i]].id, order[rest[j]].id)) in met

    protected = 0
    if round_number >= state.planned_rounds:
        protected = min(top_tables(len(order), event.config), len(rest) // 2)
    result = adjacent.pair(len(rest), forbidden, protected)
    stood = [t + 1 for t in range(protected) if forbidden(2 * t, 2 * t + 1)]
    notes += _final_round_notes(protected, stood)
    mapped = core.Pairing(tuple((rest[i], rest[j]) for i, j in result.pairs), None,
                          result.rematches, method=result.method)
    return _proposal(event, round_number, order, mapped, odd_one, spare, notes)


def _first_round(event: Event, field: Sequence[Player], spare: Player | None,
                 apart: frozenset[frozenset[str]]) -> Proposal:
    """Return round 1: "players can be paired together randomly" (a draw from the event's
    seed; seed 002, "The First Round"), team-mates' neighbours swapped as for a rematch."""
    order = list(field)
    rng(event, 1, "shuffle").shuffle(order)
    odd_one = len(order) - 1 if len(order) % 2 else None
    rest = [k for k in range(len(order)) if k != odd_one]
    result = core.Pairing(tuple((rest[k], rest[k + 1]) for k in range(0, len(rest), 2)),
                          None)
    notes = ["Round 1: a random draw from the event's seed (seed 002, \"The First Round\")."]
    if apart:  # the draw's neighbours, swapped as for a rematch where team-mates meet
        result = adjacent.pair(len(rest), lambda i, j: frozenset(
            (order[rest[i]].id, order[rest[j]].id)) in apart)
        result = core.Pairing(tuple((rest[i], rest[j]) for i, j in result.pairs), None,
                              result.rematches, 0, result.method)
        notes.append("Team-mates were kept apart (docs/teams.md).")
    return _proposal(event, 1, order, result, odd_one, spare, notes)


def _final_round_notes(protected: int, stood: Sequence[int]) -> list[str]:
    """Return the final round's notes: the top tables that never swap, and the rematches
    that stand there (seed 002)."""
    notes = []
    if protected:
        top = "top table never swaps" if protected == 1 else f"top {protected} tables never swap"
        notes.append(f"Final round: the {top} (seed 002).")
    if stood:
        notes.append(f"Rematch on {_tables(len(stood), stood)} stands: \"destiny has set "
                     "them across from one another one last time\" (seed 002).")
    return notes


def _tables(count: int, numbers: Sequence[int]) -> str:
    return ("table " if count == 1 else "tables ") + ", ".join(map(str, numbers))


def _spare_opponent(
    order: Sequence[Player], spare: Player, met: frozenset[frozenset[str]]
) -> tuple[int, list[str]]:
    """Return the position of the spare player's opponent: the bottom of the standings,
    or the next lowest who has not played the spare (seed 002, "Spare Player")."""
    for k in range(len(order) - 1, -1, -1):
        if frozenset((order[k].id, spare.id)) not in met:
            return k, []
    return len(order) - 1, ["Every player has played the spare player: the bottom of the "
                            "standings plays them again."]


def _bye_player(order: Sequence[Player], state: PairingInput) -> tuple[int, list[str]]:
    """Return the position of the bye: the player who would meet the spare, the lowest
    without a bye (seed 002, "Byes")."""
    for k in range(len(order) - 1, -1, -1):
        if state.records[order[k].id].byes == 0:
            return k, []
    return len(order) - 1, ["Every player has had a bye: the bottom of the standings gets a "
                            "second one."]


def _proposal(
    event: Event, round_number: int, order: list[Player], result: core.Pairing,
    odd_one: int | None, spare: Player | None, notes: list[str],
) -> Proposal:
    """Return the proposal: the spare plays ``odd_one`` (or sits out, ABSENT, on an even
    field); without a spare ``odd_one`` gets the bye."""
    seated = [*order, spare] if spare is not None else list(order)
    pairs = list(result.pairs)
    bye = odd_one
    if spare is not None and odd_one is not None:
        pairs.append((odd_one, len(order)))
        bye = None
        notes.append(f"The spare player {spare.name} plays {order[odd_one].name} "
                     "(seed 002, \"Spare Player\").")
    pairing = core.Pairing(tuple(sorted(pairs)), bye, result.rematches, method=result.method)
    made = proposal(event, round_number, seated, pairing, notes)
    if spare is None or odd_one is not None:
        return made
    rnd = made.round
    sits_out = Game(round_number, len(rnd.games) + 1, (Seat(spare.id),), GameKind.ABSENT,
                    source=rnd.source)
    note = (f"The field is even: the spare player {spare.name} does not play (ABSENT).",)
    return Proposal(Round(rnd.number, (*rnd.games, sits_out), rnd.source),
                    made.notes + note)
