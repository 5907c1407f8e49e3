"""Elimination brackets: where each seed starts and where each winner and loser goes.

Magic Tournament Rules (MTR) 10.4, "Single-Elimination Rounds": the players of the cut
are paired by their final Swiss standings, 1v8, 4v5, 2v7, 3v6 in a top 8, then the
winners 1/8 v 4/5 and 2/7 v 3/6. A bracket whose size is not a power of two is padded
to the next one, and the missing seeds are byes, so the top seeds get the byes (a cut of
12 in a bracket of 16: seeds 1-4 go straight to the second round).
"""

from __future__ import annotations

from dataclasses import dataclass

WINNERS, LOSERS, FINAL, RESET, THIRD = "winners", "losers", "final", "reset", "third"


@dataclass(frozen=True)
class Slot:
    """Who plays in one side of a match: a seed, or the winner or loser of a match."""

    seed: int = 0  # 1 = the best Swiss rank; 0: not a seed slot
    winner_of: str = ""
    loser_of: str = ""

    def sources(self) -> tuple[str, ...]:
        return tuple(m for m in (self.winner_of, self.loser_of) if m)


@dataclass(frozen=True)
class Match:
    """One match of the bracket, played in stage round ``round`` (1 = the cut's first)."""

    id: str  # "W1-1": winners' round 1, match 1; "L2-1"; "F"; "F2" (a reset); "3rd"
    round: int
    a: Slot
    b: Slot
    section: str = WINNERS
    only_if_reset: bool = False  # the grand final's second game: played if the losers' side won


@dataclass(frozen=True)
class Bracket:
    """A bracket for ``players`` seeds: its matches in playing order."""

    kind: str  # "single" or "double"
    players: int
    size: int  # the next power of two: seeds past ``players`` are byes
    matches: tuple[Match, ...]

    @property
    def rounds(self) -> int:
        """Return how many stage rounds the bracket plays (a reset counted)."""
        return max(m.round for m in self.matches)

    def match(self, match_id: str) -> Match:
        return next(m for m in self.matches if m.id == match_id)


def bracket_size(players: int) -> int:
    """Return the next power of two at or above ``players`` (at least 2)."""
    size = 2
    while size < players:
        size *= 2
    return size


def seed_order(size: int) -> tuple[int, ...]:
    """Return the seeds of a ``size`` bracket top to bottom, pairs adjacent.

    The standard layout: each round's pairs add up to size + 1, and seed 1 meets seed 2 only
    in the final. MTR 10.4's top 8: 1, 8, 4, 5, 2, 7, 3, 6 ("1v8, 4v5, 2v7, 3v6"); top 16:
    1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11.
    """
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return tuple(order)


def single_elimination(players: int, third_place: bool = False) -> Bracket:
    """Return the single-elimination bracket of ``players`` seeds (MTR 10.4).

    Round 1 pairs adjacent seeds of :func:`seed_order`; each later match takes the winners
    of two adjacent matches. ``third_place``: the semi-finals' losers play for third in
    the final's round.
    """
    size = bracket_size(players)
    order = seed_order(size)
    matches = [Match(f"W1-{k + 1}", 1, Slot(seed=order[2 * k]), Slot(seed=order[2 * k + 1]))
               for k in range(size // 2)]
    previous = [m.id for m in matches]
    number = 1
    while len(previous) > 1:
        number += 1
        this = [Match(f"W{number}-{k + 1}", number, Slot(winner_of=previous[2 * k]),
                      Slot(winner_of=previous[2 * k + 1]))
                for k in range(len(previous) // 2)]
        if len(this) == 1:
            this = [Match("F", number, this[0].a, this[0].b, FINAL)]
            if third_place and len(previous) == 2:
                matches.append(Match("3rd", number, Slot(loser_of=previous[0]),
                                     Slot(loser_of=previous[1]), THIRD))
        matches.extend(this)
        previous = [m.id for m in this]
    return Bracket("single", players, size, tuple(sorted(matches, key=_playing_order)))


def double_elimination(players: int) -> Bracket:
    """Return the double-elimination bracket of ``players`` seeds.

    The winners' side is :func:`single_elimination`'s. A first loss drops a player to the
    losers' side: its first round pairs the losers of the winners' first round; then each
    round alternates between taking in the losers of the next winners' round (in reverse
    order, so early opponents do not meet again at once) and halving. The winners' and
    losers' champions meet in the grand final; if the losers' champion wins it, a second
    game decides (``only_if_reset``), so nobody is out after one loss.
    """
    size = bracket_size(players)
    winners = tuple(replace_section(m) for m in single_elimination(players).matches)
    by_round: dict[int, list[Match]] = {}
    for m in winners:
        by_round.setdefault(m.round, []).append(m)
    rounds_of = {m.id: m.round for m in winners}
    losers = _losers_side(by_round, rounds_of)
    # two players: the loser of the only match is the losers' champion
    champion = losers[-1].id if losers and size > 2 else ""
    grand, reset = _grand_final(by_round[max(by_round)][0], champion, rounds_of)
    matches = (*winners, *losers, grand, reset)
    return Bracket("double", players, size, tuple(sorted(matches, key=_playing_order)))


def _losers_side(by_round: dict[int, list[Match]], rounds_of: dict[str, int]) -> list[Match]:
    """Return the losers' side of a double-elimination bracket, its champion's match last:
    its first round pairs the losers of the winners' first round; then each round takes in
    the losers of the next winners' round (in reverse order every other round, so early
    opponents do not meet again at once) and, while more than one is left, halves.
    ``rounds_of`` gains each match's round: one after the later of its sources'."""
    losers: list[Match] = []

    def add(match_id: str, a: Slot, b: Slot) -> str:
        played = 1 + max(rounds_of[s] for s in a.sources() + b.sources())
        rounds_of[match_id] = played
        losers.append(Match(match_id, played, a, b, LOSERS))
        return match_id

    first = by_round[1]
    alive = [add(f"L1-{k + 1}", Slot(loser_of=first[2 * k].id),
                 Slot(loser_of=first[2 * k + 1].id)) for k in range(len(first) // 2)]
    number = 1
    for w in range(2, max(by_round) + 1):
        dropping = [m.id for m in by_round[w]]
        if w % 2 == 0:
            dropping.reverse()
        number += 1
        alive = [add(f"L{number}-{k + 1}", Slot(winner_of=alive[k]), Slot(loser_of=dropping[k]))
                 for k in range(len(alive))]
        if len(alive) > 1:
            number += 1
            alive = [add(f"L{number}-{k + 1}", Slot(winner_of=alive[2 * k]),
                         Slot(winner_of=alive[2 * k + 1])) for k in range(len(alive) // 2)]
    return losers


def _grand_final(final_w: Match, champion: str,
                 rounds_of: dict[str, int]) -> tuple[Match, Match]:
    """Return the grand final and its second game: the winners' champion (``final_w``'s
    winner) meets the losers' champion (``champion``'s winner, else ``final_w``'s loser in
    a bracket of two) after both are decided; the second game is played only if the
    losers' champion wins the first (``only_if_reset``)."""
    grand_round = 1 + max(rounds_of[final_w.id], rounds_of.get(champion, 0))
    lower = Slot(winner_of=champion) if champion else Slot(loser_of=final_w.id)
    grand = Match("GF", grand_round, Slot(winner_of=final_w.id), lower, FINAL)
    reset = Match("GF2", grand_round + 1, Slot(winner_of="GF"), Slot(loser_of="GF"), RESET,
                  only_if_reset=True)
    return grand, reset


def replace_section(match: Match) -> Match:
    """Return a winners'-side match of a double-elimination bracket (its final too)."""
    if match.section == FINAL:
        return Match(f"W{match.round}-1", match.round, match.a, match.b, WINNERS)
    return match


def _playing_order(match: Match) -> tuple[int, int, str]:
    sections = (WINNERS, LOSERS, THIRD, FINAL, RESET)
    return match.round, sections.index(match.section), match.id
