"""McMahon pairing on the shared matching core, with OpenGotha's criteria in its order.

OpenGotha (``Tournament.costValue``, ``PairingParameterSet.initForMM``) weighs, from the
most important down: avoid a duplicate game (10^14), minimise the MMS difference (10^11),
avoid the same club / country (secondary criteria, weighted like the score difference),
seeding inside a group (5·10^6: split and fold by default, split and slip as an option),
then colour balance (10^6). Here each criterion is a level of one integer cost, each
level worth more than everything below it can add up to, and the core's whole-field
maximum-weight matching minimises it (rematches are the core's own top level).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from standgen.formats.mcmahon import MCMAHON, mms_zero, rank_value
from standgen.model import Event, Game, GameKind, Player, Proposal, Seat
from standgen.pairing import core
from standgen.pairing.common import players_for_round, proposal, rng
from standgen.records import Record, have_met

if TYPE_CHECKING:
    from standgen.standings import Standings


@dataclass(frozen=True)
class Seeded:
    """A player in pairing order: MMS, its group (0 = top) and place inside the group."""

    player: Player
    mms: float
    group: int
    place: int  # 0 = top of the group
    size: int  # players in the group


def pairing_order(event: Event, standings: Standings, players: Sequence[Player],
                  round_number: int) -> list[Player]:
    """Return the players by MMS, then standings rank, then Go rank and rating, then seed.

    OpenGotha orders a score group by its placement criteria, then rank and rating
    (``paiMaAdditionalPlacementCritSystem1 = RATING``); the seeded shuffle settles exact
    ties reproducibly.
    """
    shuffled = list(players)
    rng(event, round_number, "order").shuffle(shuffled)
    tie = {p.id: k for k, p in enumerate(shuffled)}
    rank = {row.player.id: row.rank for row in standings.rows}
    scores = standings.context.scores
    return sorted(players, key=lambda p: (
        -scores.get(p.id, 0.0), rank.get(p.id, len(rank) + 1),
        -rank_value(p.rank) if p.rank else 99, -(p.rating or 0.0), tie[p.id]))


def seeded(order: Sequence[Player], scores: dict[str, float]) -> list[Seeded]:
    """Return each player's MMS group (equal MMS) and place in it."""
    values = sorted({scores[p.id] for p in order}, reverse=True)
    group_of = {v: k for k, v in enumerate(values)}
    sizes = {v: sum(1 for p in order if scores[p.id] == v) for v in values}
    seen: dict[float, int] = {}
    out = []
    for p in order:
        v = scores[p.id]
        out.append(Seeded(p, v, group_of[v], seen.get(v, 0), sizes[v]))
        seen[v] = seen.get(v, 0) + 1
    return out


def bye_player(order: Sequence[Player], records: dict[str, Record]) -> int:
    """Return the position of the bye: the lowest-placed player who has had no bye.

    OpenGotha ``chooseAByePlayer``: the least ``rank + MMS + 1000 × byes so far``; the
    issue asks for the lowest placed without a bye. Everyone has had one: the lowest.
    """
    for k in range(len(order) - 1, -1, -1):
        if records[order[k].id].byes == 0:
            return k
    return len(order) - 1


def colour_balance(record: Record) -> int:
    """Return the player's whites minus blacks in even games played (player_1 has White)."""
    balance = 0
    for entry in record.entries:
        if entry.kind is not GameKind.PLAYED or entry.game.extra.get("handicap", 0):
            continue
        balance += 1 if entry.game.seats[0].player == record.player.id else -1
    return balance


def pair_cost(a: Seeded, b: Seeded, seeding: str, colours: tuple[int, int]) -> tuple[int, ...]:
    """Return a pair's cost, level by level: MMS gap, float, gap², geography, draw, seeding,
    colour.

    MMS difference in half points (OpenGotha main criterion 2); whether the pair crosses
    groups, so a float goes straight to the next group that needs it rather than through
    groups that are even; the squared difference, so that among equal totals several
    small mismatches beat one large one (OpenGotha's concave ``(1 - x)(1 + kx)`` score
    benefit, k = 0.5); club (2) and country (1) (OpenGotha ``paiSePreferMMSDiffRather
    ThanSameClub`` 3 > ``...SameCountry`` 1); across groups, the bottom of the upper group
    meets the top of the lower one (the draw-up / draw-down, OpenGotha main criterion 3,
    weighted above seeding); seeding: fold wants ``place_a + place_b = size - 1``, slip
    ``|place_a - place_b| = size / 2`` (OpenGotha main criterion 4); colours: 0 when the
    two owe opposite colours (OpenGotha base criterion 3).
    """
    gap = round(2 * abs(a.mms - b.mms))
    geo = 0
    if a.player.club and a.player.club.casefold() == b.player.club.casefold():
        geo += 2
    if a.player.country and a.player.country.casefold() == b.player.country.casefold():
        geo += 1
    seed = drawn = 0
    if a.group == b.group:
        if seeding == "slip":
            x = 2 * abs(a.place - b.place) - a.size
        else:
            x = a.place + b.place - (a.size - 1)
        seed = x * x
    else:
        upper, lower = (a, b) if a.group < b.group else (b, a)
        drawn = (upper.size - 1 - upper.place) + lower.place
    wa, wb = colours
    colour = 0 if wa * wb < 0 else 1 if (wa == 0 and abs(wb) >= 2) or (
        wb == 0 and abs(wa) >= 2) else 2
    return (gap, int(gap > 0), gap * gap, geo, drawn, seed, colour)


def combine(levels: Sequence[Sequence[int]], pairs: int) -> list[int]:
    """Return each cost tuple as one integer; each level outweighs the sum of all below."""
    width = len(levels[0]) if levels else 0
    maxima = [max((c[k] for c in levels), default=0) for k in range(width)]
    units = [1] * width
    for k in range(width - 2, -1, -1):
        below = units[k + 1] * (maxima[k + 1] + 1) * pairs
        units[k] = below + 1
    return [sum(c[k] * units[k] for k in range(width)) for c in levels]


def handicap_of(white_mms: float, black_mms: float, config_event: Event) -> int:
    """Return the handicap stones for a game, White being the stronger on MMS.

    OpenGotha ``Tournament.gameBetween`` with ``hdBasedOnMMS``: each MMS read as a rank
    (MMS + zero), capped at the no-handicap threshold (here the bar: at and above it
    games are even), difference lowered by ``handicap_correction`` (default 1) towards 0,
    capped at ``handicap_ceiling`` (default 9).
    """
    config = config_event.config
    zero = mms_zero(config)
    bar = MCMAHON.option(config, "bar")
    threshold = rank_value(bar) if bar else 8
    strong = min(int(white_mms // 1) + zero, threshold)
    weak = min(int(black_mms // 1) + zero, threshold)
    hd = strong - weak - int(MCMAHON.option(config, "handicap_correction"))
    return max(0, min(hd, int(MCMAHON.option(config, "handicap_ceiling"))))


def pair_round(event: Event, standings: Standings, round_number: int) -> Proposal:
    """Return the proposed round: no rematch, MMS groups, fold / slip, geography, colours.

    Byes go to the lowest-placed player without one (moved only if keeping it forces a
    rematch). Then White, handicap and komi per game (:func:`_colours`).
    """
    players = players_for_round(event, round_number)
    order = pairing_order(event, standings, players, round_number)
    records = dict(standings.records)
    scores = {p.id: standings.context.scores.get(p.id, 0.0) for p in order}
    seeds = seeded(order, scores)
    met = have_met(records)
    seeding = str(MCMAHON.option(event.config, "seeding"))
    balance = [colour_balance(records[p.id]) for p in order]
    n = len(order)
    raw = {(i, j): pair_cost(seeds[i], seeds[j], seeding, (balance[i], balance[j]))
           for i in range(n) for j in range(i + 1, n)}
    keys = sorted(raw)
    flat = dict(zip(keys, combine([raw[k] for k in keys], max(1, n // 2)), strict=True))

    def forbidden(i: int, j: int) -> bool:
        return frozenset((order[i].id, order[j].id)) in met

    def cost(i: int, j: int) -> int:
        return flat[(min(i, j), max(i, j))]

    notes = [f"McMahon groups by MMS; split and {seeding} inside a group (OpenGotha)."]
    if n % 2 == 0:
        result = core.pair(n, cost, forbidden, use_procedure=False)
    else:
        result = _pair_with_bye(n, cost, forbidden, bye_player(order, records), records, order)
    made = proposal(event, round_number, order, result, notes)
    kept = tuple(note for note in made.notes if "procedure dead-ended" not in note)
    return _colours(event, replace(made, notes=kept), scores, records, round_number)


def _pair_with_bye(n: int, cost: core.Cost, forbidden: core.Forbidden, bye: int,
                   records: dict[str, Record], order: Sequence[Player]) -> core.Pairing:
    """Return the pairing with the bye fixed; else the core chooses it (no second bye)."""
    rest = [k for k in range(n) if k != bye]
    inner = core.pair(n - 1, lambda i, j: cost(rest[i], rest[j]),
                      lambda i, j: forbidden(rest[i], rest[j]), use_procedure=False)
    if inner.rematches == 0:
        return core.Pairing(tuple((rest[i], rest[j]) for i, j in inner.pairs), bye,
                            method=inner.method)
    top = max((cost(i, j) for i in range(n) for j in range(i + 1, n)), default=0) + 1

    def bye_cost(k: int) -> int | None:
        if records[order[k].id].byes:
            return None
        return (n - 1 - k) * top * n

    return core.pair(n, cost, forbidden, bye_cost, use_procedure=False)


def _colours(event: Event, made: Proposal, scores: dict[str, float],
             records: dict[str, Record], round_number: int) -> Proposal:
    """Return the proposal with White (player_1), handicap and komi set per game.

    With ``[options] handicap`` the stronger on MMS takes White and gives the handicap;
    an even game goes to colour balance: the player with more whites takes Black
    (OpenGotha ``gameBetween``), equal balance is a seeded draw.
    """
    config = event.config
    handicaps = bool(MCMAHON.option(config, "handicap"))
    games: list[Game] = []
    for game in made.round.games:
        if game.kind is not GameKind.PLAYED or len(game.seats) != 2:
            games.append(game)
            continue
        a, b = game.players
        hd = 0
        if handicaps:
            strong, weak = (a, b) if scores[a] >= scores[b] else (b, a)
            hd = handicap_of(scores[strong], scores[weak], event)
        if hd > 0:
            white, black = strong, weak
        else:
            wa, wb = colour_balance(records[a]), colour_balance(records[b])
            if wa != wb:
                white, black = (b, a) if wa > wb else (a, b)
            else:
                coin = rng(event, round_number, f"colour:{a}:{b}").random() < 0.5
                white, black = (a, b) if coin else (b, a)
        extra: dict[str, float] = {}
        if handicaps:
            komi = MCMAHON.option(config, "handicap_komi" if hd else "komi")
            extra = {"handicap": float(hd), "komi": float(komi)}
        games.append(replace(game, seats=(Seat(white), Seat(black)), extra=extra))
    return replace(made, round=replace(made.round, games=tuple(games)))
