"""Warmachine & Hordes Steamroller (seed 004, Steamroller 2010; tiebreak essay seed 000)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from standgen.formats.base import Format, Option, Proposal, Stat, standard_points
from standgen.model import Event, EventConfig, Player
from standgen.pairing import core
from standgen.pairing.common import players_for_round, proposal, rng, standings_order
from standgen.records import have_met
from standgen.tiebreaks.base import TiebreakPolicy

if TYPE_CHECKING:
    from standgen.standings import Standings


def planned_rounds(players: int, config: EventConfig) -> int:
    """Return the rounds for a field of ``players``.

    Seed 004, "Steamroller Rules": 8 or fewer players 3 rounds, 9-16 4, 17-32 5; later
    Steamroller texts continue the doubling: 33-64 6, 65-128 7, more 8.
    """
    for limit, rounds in ((8, 3), (16, 4), (32, 5), (64, 6), (128, 7)):
        if players <= limit:
            return rounds
    return 8


def clear_winner(standings: Standings, rounds: int, config: EventConfig) -> bool:
    """Return whether exactly one player has more tournament points than everyone else.

    Seed 004: "The event will run until there is a clear winner ... Once a clear winner
    emerges, the event ends without additional matches"; Steamroller 2017: "until one
    player has more tournament points than any other player at the end of a round".
    ``[options] clear_winner = false`` plays every planned round.
    """
    if not STEAMROLLER.option(config, "clear_winner"):
        return False
    scores = sorted((row.score for row in standings.rows), reverse=True)
    return len(scores) == 1 or (len(scores) > 1 and scores[0] > scores[1])


def pair(event: Event, standings: Standings, round_number: int) -> Proposal:
    """Return the proposed pairings for ``round_number`` (seed 004, "First Round" and
    "Second and Subsequent Matches", "Byes and Odd Numbers of Players")."""
    players = players_for_round(event, round_number)
    if round_number == 1:
        return _first_round(event, players)
    return _later_round(event, standings, players, round_number)


def _first_round(event: Event, players: list[Player]) -> Proposal:
    """Return round 1: a seeded shuffle; each top sheet takes the first other faction.

    Seed 004, "First Round": "Shuffle all the tournament record sheets together. Take the
    top sheet ... look through the remaining sheets until reaching the first sheet from a
    different faction." Same faction only when no other remains: if the procedure ends
    with same-faction pairs, the matching core finds the fewest possible. The bye (odd
    field) is drawn at random first: "the TO will randomly determine which player
    receives the bye".
    """
    pile = list(players)
    rng(event, 1, "shuffle").shuffle(pile)
    bye = None
    if len(pile) % 2:
        bye = rng(event, 1, "bye").randrange(len(pile))

    def same_faction(i: int, j: int) -> bool:
        return bool(pile[i].faction) and pile[i].faction.casefold() == pile[j].faction.casefold()

    result = core.pair(
        len(pile),
        cost=lambda i, j: j - i,
        forbidden=same_faction,
        bye_cost=lambda i: 0 if i == bye else 1,
        procedure_bye=bye,
    )
    notes = ["Round 1: seeded shuffle, different factions paired where possible (seed 004)."]
    if result.rematches:
        notes.append(f"{result.rematches} same-faction pairing(s) could not be avoided.")
    return proposal(event, 1, pile, _without_rematch_counts(result), notes)


def _without_rematch_counts(result: core.Pairing) -> core.Pairing:
    """Return ``result`` without its forbidden-pair count (round 1 forbids factions)."""
    return core.Pairing(result.pairs, result.bye, 0, result.repeat_byes, result.method)


def _later_round(
    event: Event, standings: Standings, players: list[Player], round_number: int
) -> Proposal:
    """Return a later round: score piles, top sheet takes the first opponent not yet played.

    Seed 004: "pair the last player against someone from the next-highest tournament
    point pile" for an odd pile; "the TO will randomly determine which player receives the
    bye from the players with the lowest tournament point totals"; "the same player does
    not receive a bye more than once". Final round: "The top two players will be paired".
    """
    order = standings_order(standings, players, round_number, event)
    n = len(order)
    records = standings.records
    met = have_met(records)
    scores = [standings.context.scores.get(p.id, 0.0) for p in order]
    had_bye = [records[p.id].byes > 0 for p in order]

    def forbidden(i: int, j: int) -> bool:
        return frozenset((order[i].id, order[j].id)) in met

    # Levels of closeness to the procedure: leaving one's TP pile outweighs any sum of
    # positional distances (at most n * n / 4), and a bye above the lowest pile outweighs
    # any pairing cost, so the matching keeps "the bye from the players with the lowest
    # tournament point totals" whenever it can.
    pile_step = n * n + 1
    gap_max = round(2 * (max(scores, default=0.0) - min(scores, default=0.0)))
    bye_step = (gap_max * gap_max * pile_step + n + 1) * (n // 2 + 1)

    def cost(i: int, j: int) -> int:
        gap = round(2 * abs(scores[i] - scores[j]))
        return gap * gap * pile_step + (j - i)

    bye = None
    bye_cost = None
    lowest = min(scores, default=0.0)
    if n % 2:
        eligible = [k for k in range(n) if not had_bye[k]] or list(range(n))
        lowest = min(scores[k] for k in eligible)
        pool = [k for k in eligible if scores[k] == lowest]
        bye = rng(event, round_number, "bye").choice(pool)

        def bye_cost(k: int) -> int | None:
            if had_bye[k]:
                return None
            return 0 if k == bye else round(2 * (scores[k] - lowest)) * bye_step + (n - k)

    notes: list[str] = []
    final = round_number == standings.planned_rounds and n >= 2 and not forbidden(0, 1)
    if final and bye not in (0, 1):
        result = _pair_top_two(n, cost, forbidden, bye_cost, bye)
        if result is not None and (result.bye is None or scores[result.bye] == lowest):
            notes.append("Final round: the top two of the standings play each other (seed 004).")
            return proposal(event, round_number, order, result, notes)
    result = core.pair(n, cost, forbidden, bye_cost, procedure_bye=bye)
    return proposal(event, round_number, order, result, notes)


def _pair_top_two(
    n: int, cost: core.Cost, forbidden: core.Forbidden, bye_cost: core.ByeCost | None,
    bye: int | None,
) -> core.Pairing | None:
    """Return a pairing with positions 0 and 1 together, or None if the rest then needs a
    rematch or a second bye that another pairing avoids."""
    rest = core.pair(
        n - 2,
        cost=lambda i, j: cost(i + 2, j + 2),
        forbidden=lambda i, j: forbidden(i + 2, j + 2),
        bye_cost=(lambda k: bye_cost(k + 2)) if bye_cost else None,
        procedure_bye=None if bye is None else bye - 2,
    )
    if rest.rematches or rest.repeat_byes:
        return None
    pairs = ((0, 1), *((i + 2, j + 2) for i, j in rest.pairs))
    return core.Pairing(pairs, None if rest.bye is None else rest.bye + 2, method=rest.method)


STEAMROLLER = Format(
    id="steamroller",
    label="Warmachine & Hordes Steamroller",
    help="formats/steamroller",
    points=standard_points(win=1.0, draw=0.0, loss=0.0),
    planned_rounds=planned_rounds,
    pair=pair,
    policy=TiebreakPolicy(bye_is_opponent=False, forfeit_is_opponent=True),
    default_tiebreaks=("sos", "cp", "apd"),
    stats=(Stat("cp", "Control points"), Stat("apd", "Army points destroyed")),
    options=(
        Option("clear_winner", bool, True,
               "End the event early when one player has more TP than everyone else."),
    ),
    finished=clear_winner,
    score_label="Tournament points",
    score_short="TP",
)
