"""The Dutch engine's rules on their own small examples (FIDE C.04.3; the lettered
article numbers, as in standgen.pairing.dutch)."""

from __future__ import annotations

import pytest

from standgen.pairing.dutch import (
    BLACK,
    WHITE,
    DutchPairing,
    Entrant,
    NoValidPairing,
    PairingState,
    RoundEntry,
    colour_facts,
    pair_dutch,
)


def games(*colours: str | None) -> tuple[RoundEntry, ...]:
    """A history of games against opponent 99 (``None``: a forfeit win, not played)."""
    return tuple(RoundEntry(99, c, 1.0) for c in colours)


@pytest.mark.parametrize("colours, expected", [
    ((), (None, 0, None, False)),                         # no game: no preference
    (("w",), (BLACK, 1, None, True)),                     # difference +1: strong
    (("w", "b"), (WHITE, 0, None, False)),                # difference 0: mild, alternate
    (("w", "w"), (BLACK, 2, WHITE, False)),               # +2 and twice White: absolute
    (("b", "w", "w"), (BLACK, 1, WHITE, False)),          # same colour twice: absolute
    (("w", None, "w"), (BLACK, 2, WHITE, False)),         # the forfeit is skipped
    (("b", "b", "w"), (WHITE, 1, None, True)),
])
def test_colour_preferences_a6(colours: tuple[str | None, ...],
                               expected: tuple[str | None, int, str | None, bool]) -> None:
    """A.6: absolute above +1 / below -1 or the same colour in the last two games
    played; strong at +1 / -1; mild at 0; games not played do not count."""
    assert colour_facts(games(*colours)) == expected


def state(histories: dict[int, tuple[RoundEntry, ...]], rounds: int = 5,
          absent: tuple[int, ...] = (), initial: str = WHITE) -> PairingState:
    return PairingState(tuple(Entrant(k, h, k not in absent) for k, h in histories.items()),
                        rounds, initial)


def test_round_one_folds_top_half_against_bottom_half_with_alternating_colours() -> None:
    """B (S1 against S2) and E.5: the higher player gets the initial colour with an odd
    pairing number, the other one with an even one; the bye to the lowest (C.4)."""
    made = pair_dutch(state({k: () for k in range(1, 8)}))
    assert made == DutchPairing(((1, 4), (5, 2), (3, 6)), 7)
    black_first = pair_dutch(state({k: () for k in range(1, 7)}, initial=BLACK))
    assert black_first == DutchPairing(((4, 1), (2, 5), (6, 3)), None)


def test_e5_counts_effective_pairing_numbers() -> None:
    """E.5 with player 2 absent from round 1 (as bbpPairings: the pairing numbers are
    those of the players present, so 3 is the second and gets Black)."""
    made = pair_dutch(state({k: () for k in range(1, 6)}, absent=(2,)))
    assert made == DutchPairing(((1, 4), (5, 3)), None)


def test_a_forfeit_is_not_a_meeting_c1() -> None:
    """C.1: two players whose game was forfeited may be paired again; a game played
    over the board may not (then no pairing exists for two players)."""
    forfeit = {1: (RoundEntry(2, None, 1.0),), 2: (RoundEntry(1, None, 0.0),)}
    assert pair_dutch(state(forfeit)).pairs in (((1, 2),), ((2, 1),))
    played = {1: (RoundEntry(2, WHITE, 1.0),), 2: (RoundEntry(1, BLACK, 0.0),)}
    with pytest.raises(NoValidPairing):
        pair_dutch(state(played))


def test_the_bye_goes_to_an_eligible_player_of_the_lowest_score() -> None:
    """C.2 and C.4: player 3 (lowest score) already had the bye; the bye goes to the
    lowest-scored player who may have it."""
    histories = {
        1: (RoundEntry(2, WHITE, 1.0),),
        2: (RoundEntry(1, BLACK, 0.0),),
        3: (RoundEntry(None, None, 0.0, bye=True),),  # a bye scored 0 here
    }
    made = pair_dutch(state(histories))
    assert made.bye == 2 and set(made.pairs) <= {(1, 3), (3, 1)}


def test_absolute_colour_clash_only_for_topscorers_in_the_last_round_c3() -> None:
    """C.3: two players who both must have White are not paired, except in the last
    round when one is a topscorer (A.7: above half the maximum score)."""
    both_black = (RoundEntry(9, BLACK, 1.0), RoundEntry(9, BLACK, 1.0))
    losers = (RoundEntry(9, WHITE, 0.0), RoundEntry(9, BLACK, 0.0))
    histories = {1: both_black, 2: both_black, 3: losers, 4: losers}
    early = pair_dutch(state(histories, rounds=5))
    assert {frozenset(p) for p in early.pairs} == {frozenset((1, 3)), frozenset((2, 4))}
    last = pair_dutch(state(histories, rounds=3))
    assert {frozenset(p) for p in last.pairs} == {frozenset((1, 2)), frozenset((3, 4))}


def test_no_one_or_one_player_to_pair() -> None:
    """Everyone absent: an empty round; one player present: the bye (C.04.1 c)."""
    played = {1: (RoundEntry(2, WHITE, 1.0),), 2: (RoundEntry(1, BLACK, 0.0),)}
    assert pair_dutch(state(played, absent=(1, 2))) == DutchPairing((), None)
    assert pair_dutch(state(played, absent=(1,))) == DutchPairing((), 2)
