"""Chess Swiss pairing on the shared matching core: score groups, folding, colours, byes.

The rules come from the FIDE Handbook: C.04.1 (basic rules for Swiss systems), C.04.2
(general handling rules) and the Dutch system C.04.3 (2017), whose criteria are
expressed as one cost per pair that the matching core minimises over the whole field
(up to EXACT_LIMIT players; a larger field is matched score group by score group on
candidate pairs, see pair_large, with the whole field as the exact last resort).
It is an approximation of the Dutch system, not a certified FIDE implementation:
where the two differ the documentation (docs/formats/swiss.md) says how.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from standgen.model import Event, Game, Proposal
from standgen.pairing import core
from standgen.pairing.common import forbidden_groups, players_for_round, proposal, rng
from standgen.pairing.state import PairingInput

# the tunables are read where they are defined (swiss.candidates, swiss.groups): set
# them there
from standgen.pairing.swiss.candidates import (
    ALIGNED,
    CROSS,
    FLOATERS,
    FULL_GROUP,
    NEAREST,
    WINDOW,
)
from standgen.pairing.swiss.colours import (
    ABSOLUTE,
    BLACK,
    KINDS,
    MILD,
    NONE,
    STRENGTH_WORDS,
    STRONG,
    WHITE,
    breaks_colour_rules,
    colour_history,
    colour_rule_clash,
    high_gets_white,
    kind_of,
    preference,
    preference_cost,
)
from standgen.pairing.swiss.field import (
    Field,
    Weights,
    bye_cost,
    bye_eligible,
    kind_costs,
    make_field,
    pair_cost,
    weights,
)
from standgen.pairing.swiss.groups import LOOKAHEAD, MAX_DENSITY, SLACK, pair_large
from standgen.records import Record

__all__ = [
    "ABSOLUTE", "ALIGNED", "BLACK", "CROSS", "EXACT_LIMIT", "FLOATERS", "FULL_GROUP",
    "INITIAL_COLOURS", "KINDS", "LOOKAHEAD", "MAX_DENSITY", "MILD", "NEAREST", "NONE",
    "SLACK", "START_ORDERS", "STRENGTH_WORDS", "STRONG", "WHITE", "WINDOW", "Field",
    "Weights", "breaks_colour_rules", "bye_cost", "bye_eligible", "colour_history",
    "colour_rule_clash", "high_gets_white", "initial_colour", "kind_costs", "kind_of",
    "make_field", "pair", "pair_cost", "pair_large", "preference", "preference_cost",
    "start_ranks", "weights",
]

START_ORDERS = ("rating", "file")
INITIAL_COLOURS = ("", "white", "black")

# A field of more than EXACT_LIMIT players is paired score group by score group on
# candidate pairs (see pair_large); up to it, the whole field is matched on every pair.
EXACT_LIMIT = 256


def start_ranks(event: Event) -> dict[str, int]:
    """Return each player's pairing number (TRF start rank), 1 for the top seed.

    FIDE C.04.2 (initial order): by rating, highest first. ``[options] start_order``:
    ``"rating"`` (default) sorts by rating, unrated players last, ties in players.csv
    order; ``"file"`` keeps players.csv order (an imported TRF file's start ranks).
    """
    players = list(event.players)
    if event.config.options.get("start_order", "rating") == "rating":
        players.sort(key=lambda p: -(p.rating or 0.0))
    return {p.id: k for k, p in enumerate(players, start=1)}


def initial_colour(event: Event) -> str:
    """Return the colour the top seed gets in round 1 (``w`` or ``b``).

    FIDE C.04.3 E.5 "initial-colour", drawn by lot before round 1: the event's seed
    draws it unless ``[options] initial_colour`` is ``"white"`` or ``"black"``.
    """
    chosen = event.config.options.get("initial_colour", "")
    if chosen in ("white", "black"):
        return WHITE if chosen == "white" else BLACK
    return rng(event, 1, "initial-colour").choice((WHITE, BLACK))


def pair(event: Event, state: PairingInput, round_number: int) -> Proposal:
    """Return the proposed Swiss pairings for ``round_number``, White first at each table.

    FIDE C.04.1 (basic rules), C.04.3 (Dutch system criteria as costs): no rematch and
    no second bye while avoidable (C.04.1 b-d), no two players with the same absolute
    colour preference paired while avoidable, score groups with top half against bottom
    half, colour preferences, and colours allocated by C.04.3 E.
    """
    players = players_for_round(event, round_number)
    records = state.records
    numbers = start_ranks(event)
    field = make_field(players, state.scores, numbers, records)
    n = len(field.order)
    ids = [p.id for p in field.order]
    opponents = _opponents(event, round_number, records, {pid: k for k, pid in enumerate(ids)})
    w = weights(n, round_number)
    result = pair_large(field, w, opponents) if n > EXACT_LIMIT else None
    if result is None:
        result = core.pair(
            n, pair_cost(field, w), lambda i, j: j in opponents[i],
            bye_cost(field, w) if n % 2 else None, use_procedure=False,
        )
    white_first, clashes = _colours(field, result.pairs, ids, initial_colour(event))
    notes = ["Swiss pairing: score groups, top half against bottom half, colours by "
             "FIDE C.04.3 (see the Swiss help page)."]
    if clashes:
        notes.append(f"{clashes} player(s) must break a colour rule (three in a row or a "
                     "colour difference above 2): no pairing avoids it.")
    # the whole field is matched by design: no "procedure dead-ended" note
    made = proposal(event, round_number, field.order, replace(result, method="procedure"),
                    notes)
    games = tuple(_white_first(game, white_first) for game in made.round.games)
    return Proposal(replace(made.round, games=games), made.notes)


def _opponents(event: Event, round_number: int, records: Mapping[str, Record],
               position: Mapping[str, int]) -> list[set[int]]:
    """Return, for each position in the field, the positions of the players it has met
    (C.04.1 b: no rematch), and of those the event keeps it apart from, as if met."""
    opponents: list[set[int]] = [set() for _ in range(len(position))]
    for pid, record in records.items():
        k = position.get(pid)
        if k is None:
            continue
        met = (position.get(o) for entry in record.entries for o in entry.opponents)
        for other in met:
            if other is not None:
                opponents[k].add(other)
                opponents[other].add(k)
    for group in forbidden_groups(event, round_number):  # as if they had met
        members = [position[pid] for pid in group if pid in position]
        for k in members:
            opponents[k].update(m for m in members if m != k)
    return opponents


def _colours(field: Field, pairs: Sequence[tuple[int, int]], ids: Sequence[str],
             initial: str) -> tuple[dict[str, bool], int]:
    """Return whether the first of each pair gets White (C.04.3 E), by their id, and how
    many players that makes break a colour rule they did not break before."""
    white_first: dict[str, bool] = {}
    clashes = 0
    for i, j in pairs:
        high_white = high_gets_white(field.colours[i], field.colours[j], field.numbers[i],
                                     initial)
        white_first[ids[i]] = high_white
        given_i = (*field.colours[i], WHITE if high_white else BLACK)
        given_j = (*field.colours[j], BLACK if high_white else WHITE)
        clashes += breaks_colour_rules(given_i) and not breaks_colour_rules(field.colours[i])
        clashes += breaks_colour_rules(given_j) and not breaks_colour_rules(field.colours[j])
    return white_first, clashes


def _white_first(game: Game, white_first: Mapping[str, bool]) -> Game:
    """Return ``game`` with White in the first seat."""
    first = game.seats[0].player
    if len(game.seats) == 2 and not white_first.get(first, True):
        return replace(game, seats=(game.seats[1], game.seats[0]))
    return game
