"""McMahon pairing as OpenGotha pairs it (issue #22): its cost model, bye and colours.

The model itself is :mod:`standgen.pairing.gotha`; this module reads the event into it
(players, scores, earlier games, ``[options]``), matches each pairing group by maximum
weight (rustworkx, exact on integers) and writes the proposal: White first, handicap and
komi per game, and a note per table saying which criterion decided it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from standgen.formats.mcmahon.scoring import (
    RANK,
    initial_mms,
    mms_zero,
    option,
    rank_value,
    total_mms,
)
from standgen.model import (
    Event,
    EventConfig,
    Game,
    GameKind,
    Outcome,
    Proposal,
    Round,
    Seat,
)
from standgen.pairing import gotha
from standgen.pairing.common import kept_apart, players_for_round
from standgen.pairing.state import PairingInput
from standgen.records import Entry, Record


def _rank_or(config: EventConfig, key: str, default: int) -> int:
    text = str(option(config, key) or "")
    return rank_value(text) if RANK.fullmatch(text) else default


def settings_of(event: Event, planned: int) -> gotha.Settings:
    """Return OpenGotha's pairing parameters from the event's ``[options]``.

    Each option is documented in docs/formats/mcmahon.md with its OpenGotha name
    (``PairingParameterSet``, ``HandicapParameterSet``); the defaults are OpenGotha's
    McMahon defaults (``initForMM``). ``seeding = "fold"`` or ``"slip"`` (standgen's
    earlier option) sets both seeding systems. Without ``[options] handicap`` every
    game is even (OpenGotha ``hdCeiling = 0``); the no-handicap threshold defaults to
    the bar (9d without one).
    """
    config = event.config

    def opt(key: str) -> Any:
        return option(config, key)

    bar = _rank_or(config, "bar", gotha.MAX_RANK)
    floor = _rank_or(config, "floor", gotha.MIN_RANK)
    first, later = str(opt("seeding_first")), str(opt("seeding_later"))
    if opt("seeding"):
        first = later = str(opt("seeding"))
    return gotha.Settings(
        bar=bar, floor=floor, zero=mms_zero(config), rounds=config.rounds or planned,
        random=gotha.MAX_RANDOM if opt("pairing_random") else 0,
        balance_wb=gotha.BALANCE_WB if opt("colour_balance") else 0,
        compensate_dudd=bool(opt("dudd_compensate")),
        dudd_upper=str(opt("draw_down_position")), dudd_lower=str(opt("draw_up_position")),
        # OpenGotha counts rounds from 0: "last round for system 1" = 1 is round 2 here
        last_round_system1=int(opt("seeding_first_rounds")) - 1,
        seed_system1=first, seed_system2=later,
        order_system1=str(opt("seeding_first_order")),
        order_system2=str(opt("seeding_later_order")),
        bar_threshold=bool(opt("secondary_bar")),
        rank_threshold=_rank_or(config, "secondary_rank", 0),
        wins_threshold=bool(opt("secondary_wins")),
        minimize_handicap=gotha.SCORE_DIFFERENCE if opt("minimize_handicap") else 0,
        country_factor=int(opt("geo_country")), club_factor=int(opt("geo_club")),
        hd_by_mms=bool(opt("handicap_by_mms")),
        hd_threshold=_rank_or(config, "handicap_threshold", bar),
        hd_correction=int(opt("handicap_correction")),
        hd_ceiling=int(opt("handicap_ceiling")) if opt("handicap") else 0,
    )


def _mms2(score: float, zero: int) -> int:
    """Return twice the MMS on OpenGotha's scale (0 at 30k) of a standgen MMS."""
    return round(2 * (score + zero - gotha.MIN_RANK))


def gamers(event: Event, state: PairingInput, s: gotha.Settings) -> dict[str, gotha.Gamer]:
    """Return every registered player as OpenGotha's ``ScoredPlayer`` before the round.

    Placement is the MMS then the event's tiebreaks (OpenGotha's placement criteria,
    SOSM and SOSOSM by default). Colour balance is ``Pairing.wbBalance``: whites minus
    blacks over games without handicap, forfeits included (``player_1`` has White). A
    player without a rating gets OpenGotha's rating from rank (its players manager
    registers one so, ``Player.ratingFromRank``).
    """
    config = event.config
    scores = state.scores
    values = {pid: tuple(_number(row[t]) for t in state.tiebreaks if t in row)
              for pid, row in state.values.items()}
    out: dict[str, gotha.Gamer] = {}
    for player in event.players:
        record: Record = state.records[player.id]
        name, first = gotha.split_name(player.name)
        rank = rank_value(player.rank) if player.rank else gotha.MIN_RANK
        score = scores.get(player.id, 0.0)
        g = gotha.Gamer(
            id=player.id, name=name, first_name=first, rank=rank,
            rating=player.rating if player.rating is not None else gotha.rating_from_rank(rank),
            club=player.club, country=player.country,
            smms=round(initial_mms(player, config)) + s.zero - gotha.MIN_RANK,
            mms2=_mms2(score, s.zero), placement=(score, *values.get(player.id, ())),
            byes=record.byes)
        for entry in record.entries:
            _add_entry(g, entry, player.id)
        _add_history(g, record, config, s.zero)
        out[player.id] = g
    return out


def _add_history(g: gotha.Gamer, record: Record, config: EventConfig, zero: int) -> None:
    """Set the player's MMS before each round they met an opponent in (OpenGotha's
    scale: the score-difference part of a past pairing)."""
    for rnd, _ in g.opponents:
        before = replace(record, entries=tuple(e for e in record.entries if e.round < rnd))
        g.history[rnd] = _mms2(total_mms(before, config), zero) // 2


def _add_entry(g: gotha.Gamer, entry: Entry, player: str) -> None:
    """Count one of the player's entries into ``g``: an opponent met (played or forfeit),
    the colour of a game without handicap (``player_1`` has White), and twice the wins."""
    if entry.kind in (GameKind.PLAYED, GameKind.FORFEIT) and entry.opponent:
        g.met[entry.opponent] = g.met.get(entry.opponent, 0) + 1
        g.opponents.append((entry.round, entry.opponent))
        if not entry.game.extra.get("handicap", 0):
            g.wb += 1 if entry.game.seats[0].player == player else -1
    if entry.kind is GameKind.ABSENT:
        return
    if entry.seat.outcome is Outcome.WIN:
        g.wins2 += 2
    elif entry.seat.outcome is Outcome.DRAW:
        g.wins2 += 1


def _number(value: Any) -> float:
    return float(getattr(value, "value", value))


def match(f: gotha.Field, group: Sequence[gotha.Gamer]) -> list[tuple[int, int]]:
    """Return the pairs (positions in ``group``) of greatest total OpenGotha cost.

    OpenGotha ``Tournament.pairAGroup``: every pair's ``costValue`` (all positive), then
    a maximum-weight matching, which on a complete graph with positive weights pairs
    everyone. rustworkx's blossom matching works on Python integers, so the sums (about
    5·10^14 per pair) are exact. Between two matchings of exactly equal cost the
    choice may differ from OpenGotha's ``WeightedMatchLong``.
    """
    import rustworkx as rx  # here: a build, which pairs no round, does without it

    n = len(group)
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(gotha.pair_costs(f, group))
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return sorted((min(a, b), max(a, b)) for a, b in mate)


def pair_round(event: Event, state: PairingInput, round_number: int) -> Proposal:
    """Return the proposed round as OpenGotha's automatic pairing makes it.

    OpenGotha ``JFrGamesPair.btnPairActionPerformed``: the players to pair in score
    order; with an odd count, the bye by ``Tournament.chooseAByePlayer``; then
    ``Tournament.makeAutomaticPairing`` (pairing groups, ``fillPairingInfo``,
    ``costValue``, maximum-weight matching) and ``gameBetween`` per pair.

    One deviation: when OpenGotha's bye leaves only pairings with a rematch (OpenGotha
    then pairs it and warns the TO, ``JFrGamesPair``'s "already played" message), the
    next players in its bye order are tried (up to ``BYE_TRIES``), and the first bye
    that allows a round without a rematch is taken, with a note.
    """
    s = settings_of(event, state.planned_rounds)
    everyone = gamers(event, state, s)
    _as_met(everyone, kept_apart(event, round_number))  # team-mates (docs/teams.md)
    round0 = round_number - 1
    groups = gotha.fill_pairing_info(s, list(everyone.values()), round0)
    f = gotha.Field(s, round0, groups)
    order = gotha.score_order([everyone[p.id] for p in players_for_round(event, round_number)])
    candidates = gotha.bye_candidates(order)[:BYE_TRIES] if len(order) % 2 else [None]
    first: tuple[list[tuple[gotha.Gamer, gotha.Gamer]], gotha.Gamer | None] | None = None
    for bye in candidates:
        pairs = _pair_without(f, order, bye, round0)
        if first is None:
            first = pairs, bye
        if not any(p1.met.get(p2.id) for p1, p2 in pairs):
            moved = bye is not None and bye is not candidates[0]
            return _proposal(event, f, round_number, order, pairs, bye, moved)
    assert first is not None
    return _proposal(event, f, round_number, order, first[0], first[1], False)


def _as_met(everyone: Mapping[str, gotha.Gamer], apart: Iterable[frozenset[str]]) -> None:
    """Count each pair kept apart as having met once more."""
    for pair in apart:
        a, b = sorted(pair)
        if a in everyone and b in everyone:
            everyone[a].met[b] = everyone[a].met.get(b, 0) + 1
            everyone[b].met[a] = everyone[b].met.get(a, 0) + 1


BYE_TRIES = 8  # byes tried, in OpenGotha's order, before accepting a forced rematch


def _pair_without(f: gotha.Field, order: Sequence[gotha.Gamer], bye: gotha.Gamer | None,
                  round0: int) -> list[tuple[gotha.Gamer, gotha.Gamer]]:
    """Return OpenGotha's pairs of ``order`` without ``bye``, in score order.

    OpenGotha ``Tournament.makeAutomaticPairing``: pairing groups, each matched alone.
    """
    playing = [p for p in order if p is not bye]
    pairs: list[tuple[gotha.Gamer, gotha.Gamer]] = []
    for group in gotha.pairing_groups(playing, round0, f.settings):
        pairs += [(group[i], group[j]) for i, j in match(f, group)]
    position = {p.id: k for k, p in enumerate(order)}
    pairs.sort(key=lambda pq: position[pq[0].id])
    return pairs


def _proposal(event: Event, f: gotha.Field, round_number: int, order: Sequence[gotha.Gamer],
              pairs: Sequence[tuple[gotha.Gamer, gotha.Gamer]],
              bye: gotha.Gamer | None, moved: bool) -> Proposal:
    """Return the round: White first, handicap and komi, the bye last, a note per table."""
    config = event.config
    handicaps = bool(option(config, "handicap"))
    source = event.round_source(round_number)
    games: list[Game] = []
    notes: list[str] = []
    why_table = gotha.explain(f, pairs, {p.id: k for k, p in enumerate(order)})
    for table, (p1, p2) in enumerate(pairs, start=1):
        white, black, hd, why = gotha.game_between(f.settings, p1, p2)
        extra: dict[str, float] = {}
        if handicaps:
            komi = option(config, "handicap_komi" if hd else "komi")
            extra = {"handicap": float(hd), "komi": float(komi)}
        games.append(Game(round=round_number, table=table,
                          seats=(Seat(white.id), Seat(black.id)), source=source, extra=extra))
        notes.append(f"Table {table}: {why_table[table - 1]}; colours: "
                     f"{gotha.COLOUR_WHY[why]}.")
    if bye is not None:
        games.append(Game(round=round_number, table=len(pairs) + 1, seats=(Seat(bye.id),),
                          kind=GameKind.BYE, source=source))
        if moved:
            notes.append(f"Bye: {bye.id}, the next in OpenGotha's bye order (least rank + "
                         "2 × MMS + 1000 × byes so far): OpenGotha's first choice left only "
                         "pairings with a rematch.")
        else:
            notes.append(f"Bye: {bye.id}, the least rank + 2 × MMS + 1000 × byes so far "
                         "(OpenGotha's bye rule).")
    s = f.settings
    head = (f"Paired as OpenGotha's automatic pairing does: MMS groups, "
            f"{f.seed_system_label} seeding this round, drawn-down players from the "
            f"{s.dudd_upper} of their group and drawn-up ones from the {s.dudd_lower}.")
    return Proposal(Round(number=round_number, games=tuple(games), source=source),
                    notes=(head, *notes))

