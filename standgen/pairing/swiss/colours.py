"""Colours in the Swiss system: a player's colour history and preference (FIDE C.04.3
A.6), the absolute colour rules (C.04.1 f-g, C.04.3 C.3), the unmet preferences
(C.12-C.13) and the colour allocation (C.04.3 E)."""

from __future__ import annotations

from collections.abc import Sequence

from standgen.model import GameKind
from standgen.records import Record

WHITE, BLACK = "w", "b"
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
STRENGTH_WORDS = {NONE: "none", MILD: "mild", STRONG: "strong", ABSOLUTE: "absolute"}


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


# A player's colour preference as one small integer ("kind"): 0 none, 1-3 White
# (mild, strong, absolute), 4-6 Black (mild, strong, absolute).
KINDS: tuple[tuple[str | None, int], ...] = (
    (None, NONE), (WHITE, MILD), (WHITE, STRONG), (WHITE, ABSOLUTE),
    (BLACK, MILD), (BLACK, STRONG), (BLACK, ABSOLUTE),
)


def kind_of(colours: Sequence[str]) -> int:
    """Return the index in :data:`KINDS` of a player's colour preference."""
    return KINDS.index(preference(colours))


def _clash(a: tuple[str | None, int], b: tuple[str | None, int]) -> bool:
    return a[1] == ABSOLUTE and b[1] == ABSOLUTE and a[0] == b[0]


def _unmet(a: tuple[str | None, int], b: tuple[str | None, int]) -> int:
    if a[0] is None or b[0] is None or a[0] != b[0]:
        return 0
    return 2 if min(a[1], b[1]) >= STRONG else 1


def colour_rule_clash(a: Sequence[str], b: Sequence[str]) -> bool:
    """Return whether two players both have an absolute preference for the same colour.

    FIDE C.04.3 C.3: such players shall not meet (one of them would break a rule).
    """
    return _clash(preference(a), preference(b))


def preference_cost(a: Sequence[str], b: Sequence[str]) -> int:
    """Return 0 if both colour preferences can be met, else 1, or 2 if both are strong.

    FIDE C.04.3 C.12-C.13: minimise players who do not get their colour preference,
    then those who do not get a strong one.
    """
    return _unmet(preference(a), preference(b))
