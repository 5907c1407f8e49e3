"""Chess Swiss pairing on the shared matching core: score groups, folding, colours, byes.

The rules come from the FIDE Handbook: C.04.1 (basic rules for Swiss systems), C.04.2
(general handling rules) and the Dutch system C.04.3 (2017), whose criteria are
expressed as one cost per pair that the matching core minimises over the whole field.
It is an approximation of the Dutch system, not a certified FIDE implementation:
where the two differ the documentation (docs/formats/swiss.md) says how.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from standgen.model import Event, GameKind, Outcome, Player, Proposal
from standgen.pairing import core
from standgen.pairing.common import players_for_round, proposal, rng
from standgen.records import Record, have_met

if TYPE_CHECKING:
    from standgen.standings import Standings

WHITE, BLACK = "w", "b"
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
STRENGTH_WORDS = {NONE: "none", MILD: "mild", STRONG: "strong", ABSOLUTE: "absolute"}
START_ORDERS = ("rating", "file")
INITIAL_COLOURS = ("", "white", "black")


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


def colour_history(record: Record) -> tuple[str, ...]:
    """Return the colours of a player's games played over the board, in round order.

    FIDE C.04.2 D.5 (and C.04.3 A.6): games not played (byes, absences, forfeits) do
    not count for colours. ``player_1`` of a round file has White (data contract).
    """
    colours: list[str] = []
    for entry in record.entries:
        if entry.kind is GameKind.PLAYED and len(entry.game.seats) == 2:
            colours.append(WHITE if entry.game.seats[0].player == record.player.id else BLACK)
    return tuple(colours)


def preference(colours: Sequence[str]) -> tuple[str | None, int]:
    """Return a player's colour preference and its strength (NONE ... ABSOLUTE).

    FIDE C.04.3 A.6: absolute when the colour difference is above +1 or below -1, or
    the last two games had the same colour; strong when the difference is +1 or -1;
    mild when it is 0 (alternate from the last game); none before any game is played.
    """
    if not colours:
        return None, NONE
    difference = colours.count(WHITE) - colours.count(BLACK)
    other = BLACK if colours[-1] == WHITE else WHITE
    if difference > 1:
        return BLACK, ABSOLUTE
    if difference < -1:
        return WHITE, ABSOLUTE
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return other, ABSOLUTE
    if difference == 1:
        return BLACK, STRONG
    if difference == -1:
        return WHITE, STRONG
    return other, MILD


def breaks_colour_rules(colours: Sequence[str]) -> bool:
    """Return whether a colour sequence breaks an absolute rule.

    FIDE C.04.1 f-g (as C.04.3 C.3 applies them): no player's colour difference
    exceeds +2 or -2, and no player gets the same colour three times in a row.
    """
    difference = colours.count(WHITE) - colours.count(BLACK)
    three = any(colours[k] == colours[k + 1] == colours[k + 2] for k in range(len(colours) - 2))
    return abs(difference) > 2 or three


def high_gets_white(
    high: Sequence[str], low: Sequence[str], high_number: int, initial: str
) -> bool:
    """Return whether the higher-ranked player of a pair gets White.

    FIDE C.04.3 E (colour allocation): E.1 grant both preferences; E.2 grant the
    stronger one (two absolutes: the wider colour difference); E.3 alternate to the
    most recent round in which one had White and the other Black; E.4 grant the higher
    ranked player's preference; E.5 the higher ranked player gets the initial colour if
    his pairing number is odd, the other colour if it is even.
    """
    high_pref, high_strength = preference(high)
    low_pref, low_strength = preference(low)
    if high_pref is not None and high_pref != low_pref:
        return high_pref == WHITE
    if high_pref is None and low_pref is not None:
        return low_pref == BLACK
    if high_pref is not None:  # both prefer the same colour
        if high_strength != low_strength:
            return (high_pref == WHITE) == (high_strength > low_strength)
        if high_strength == ABSOLUTE:
            wide_high = abs(high.count(WHITE) - high.count(BLACK))
            wide_low = abs(low.count(WHITE) - low.count(BLACK))
            if wide_high != wide_low:
                return (high_pref == WHITE) == (wide_high > wide_low)
        for k in range(1, min(len(high), len(low)) + 1):
            if high[-k] != low[-k]:
                return high[-k] == BLACK
        return high_pref == WHITE
    return (high_number % 2 == 1) == (initial == WHITE)


def bye_eligible(record: Record) -> bool:
    """Return whether a player may still receive the pairing-allocated bye.

    FIDE C.04.1 c-d: not a player who already had the pairing-allocated bye or scored a
    point without playing (a forfeit win, or a full-point bye when absent).
    """
    for entry in record.entries:
        if entry.kind is GameKind.BYE:
            return False
        if entry.kind in (GameKind.FORFEIT, GameKind.ABSENT) and entry.outcome is Outcome.WIN:
            return False
    return True


@dataclass(frozen=True)
class Weights:
    """The cost levels, each above everything the levels below can add up to."""

    preference: int
    score: int
    colour_rule: int


def weights(n: int, round_number: int) -> Weights:
    """Return the cost levels for ``n`` players before ``round_number``."""
    preference = n * n + n + 1  # above the whole field's folding and float positions
    score = preference * (n + 1)  # above the whole field's colour preferences
    widest = 2 * max(round_number, 1)  # half points
    colour_rule = score * ((n // 2 + 1) * widest * widest + 1)
    return Weights(preference, score, colour_rule)


@dataclass(frozen=True)
class Field:
    """The players to pair, in the order the cost is written in."""

    order: tuple[Player, ...]
    scores: tuple[float, ...]
    numbers: tuple[int, ...]  # pairing numbers
    colours: tuple[tuple[str, ...], ...]
    eligible: tuple[bool, ...]  # may get the bye
    group_start: tuple[int, ...]
    group_end: tuple[int, ...]


def make_field(
    players: Sequence[Player], scores: Mapping[str, float], numbers: Mapping[str, int],
    records: Mapping[str, Record],
) -> Field:
    """Return the field in pairing order: score groups, then pairing number.

    FIDE C.04.3 A.2-A.3: players are ranked by score, then by pairing number, and
    each score group is one bracket.
    """
    order = sorted(players, key=lambda p: (-scores.get(p.id, 0.0), numbers[p.id]))
    pts = tuple(scores.get(p.id, 0.0) for p in order)
    start: list[int] = []
    end: list[int] = []
    for k, value in enumerate(pts):
        first = next(i for i in range(k + 1) if pts[i] == value)
        last = max(i for i in range(k, len(pts)) if pts[i] == value)
        start.append(first)
        end.append(last)
    return Field(
        order=tuple(order), scores=pts, numbers=tuple(numbers[p.id] for p in order),
        colours=tuple(colour_history(records[p.id]) for p in order),
        eligible=tuple(bye_eligible(records[p.id]) for p in order),
        group_start=tuple(start), group_end=tuple(end),
    )


def colour_rule_clash(a: Sequence[str], b: Sequence[str]) -> bool:
    """Return whether two players both have an absolute preference for the same colour.

    FIDE C.04.3 C.3: such players shall not meet (one of them would break a rule).
    """
    pa, sa = preference(a)
    pb, sb = preference(b)
    return sa == ABSOLUTE and sb == ABSOLUTE and pa == pb


def preference_cost(a: Sequence[str], b: Sequence[str]) -> int:
    """Return 0 if both colour preferences can be met, else 1, or 2 if both are strong.

    FIDE C.04.3 C.12-C.13: minimise players who do not get their colour preference,
    then those who do not get a strong one.
    """
    pa, sa = preference(a)
    pb, sb = preference(b)
    if pa is None or pb is None or pa != pb:
        return 0
    return 2 if min(sa, sb) >= STRONG else 1


def pair_cost(field: Field, w: Weights) -> core.Cost:
    """Return the cost of pairing positions ``i < j`` of the field.

    Levels, highest first: an absolute colour clash (C.04.3 C.3); the score difference
    squared, in half points (floats, C.5-C.7); an unmet colour preference (C.12-C.13);
    then the distance from the Dutch folding: in a score group of ``g`` players the
    ``k``-th meets the ``k + g // 2``-th (top half against bottom half, C.04.3 B.2), and
    a floater is the lowest of the higher group meeting the highest of the lower one.
    """

    def cost(i: int, j: int) -> int:
        a, b = field.colours[i], field.colours[j]
        gap = round(2 * abs(field.scores[i] - field.scores[j]))
        if gap == 0:
            size = field.group_end[i] - field.group_start[i] + 1
            fold = abs((j - i) - size // 2)
        else:
            fold = (field.group_end[i] - i) + (j - field.group_start[j])
        return (w.colour_rule * colour_rule_clash(a, b) + w.score * gap * gap
                + w.preference * preference_cost(a, b) + fold)

    return cost


def bye_cost(field: Field, w: Weights) -> core.ByeCost:
    """Return the cost of the bye for each position (None: they already had one).

    FIDE C.04.1 c: the pairing-allocated bye goes to a player of the lowest score
    group who has not had one, the lowest ranked first (C.04.3 A.2: highest pairing
    number of the lowest score). A higher score costs as a float of that size would.
    """
    n = len(field.order)
    eligible = [k for k in range(n) if field.eligible[k]]
    lowest = min((field.scores[k] for k in eligible), default=0.0)

    def cost(k: int) -> int | None:
        if not field.eligible[k]:
            return None
        gap = round(2 * (field.scores[k] - lowest))
        return w.score * gap * gap + (n - 1 - k)

    return cost


def pair(event: Event, standings: Standings, round_number: int) -> Proposal:
    """Return the proposed Swiss pairings for ``round_number``, White first at each table.

    FIDE C.04.1 (basic rules), C.04.3 (Dutch system criteria as costs): no rematch and
    no second bye while avoidable (C.04.1 b-d), no two players with the same absolute
    colour preference paired while avoidable, score groups with top half against bottom
    half, colour preferences, and colours allocated by C.04.3 E.
    """
    players = players_for_round(event, round_number)
    records = standings.records
    numbers = start_ranks(event)
    field = make_field(players, standings.context.scores, numbers, records)
    n = len(field.order)
    met = have_met(records)
    ids = [p.id for p in field.order]
    w = weights(n, round_number)
    result = core.pair(
        n, pair_cost(field, w), lambda i, j: frozenset((ids[i], ids[j])) in met,
        bye_cost(field, w) if n % 2 else None, use_procedure=False,
    )
    initial = initial_colour(event)
    white_first: dict[str, bool] = {}
    clashes = 0
    for i, j in result.pairs:
        high_white = high_gets_white(field.colours[i], field.colours[j], field.numbers[i],
                                     initial)
        white_first[ids[i]] = high_white
        given_i = (*field.colours[i], WHITE if high_white else BLACK)
        given_j = (*field.colours[j], BLACK if high_white else WHITE)
        clashes += breaks_colour_rules(given_i) and not breaks_colour_rules(field.colours[i])
        clashes += breaks_colour_rules(given_j) and not breaks_colour_rules(field.colours[j])
    notes = ["Swiss pairing: score groups, top half against bottom half, colours by "
             "FIDE C.04.3 (see the Swiss help page)."]
    if clashes:
        notes.append(f"{clashes} player(s) must break a colour rule (three in a row or a "
                     "colour difference above 2): no pairing avoids it.")
    # the whole field is matched by design: no "procedure dead-ended" note
    made = proposal(event, round_number, field.order, replace(result, method="procedure"),
                    notes)
    games = []
    for game in made.round.games:
        first = game.seats[0].player
        if len(game.seats) == 2 and not white_first.get(first, True):
            game = replace(game, seats=(game.seats[1], game.seats[0]))
        games.append(game)
    return Proposal(replace(made.round, games=tuple(games)), made.notes)
