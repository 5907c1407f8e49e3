"""The chess team Swiss: FIDE C.04.6, Swiss Team Pairing System (approved by the Council
on 28 October 2025, applied from 1 February 2026; docs/teams.md, "Pairing a chess team
Swiss"). Pure functions over :class:`TeamState` values; :mod:`standgen.teams.c046_event`
builds them from an event.

What C.04.6 says, article by article, and where it is here:

- 1.1 TPN: the competition assigns each team a Tournament Pairing Number. standgen: the
  order of teams.csv (or of the teams' first players in players.csv) (1.1.2 leaves it
  to the competition).
- 1.2 score: the primary score is match points unless the competition declares game
  points (``[options] team_pairing_score``); the other one is the secondary score, used
  in colour allocation (4.2.2).
- 1.4 PAB: with an odd number of teams one team gets the pairing-allocated bye.
- 1.5 floater: a team that plays an opponent with a different score.
- 1.6 colour: a team had a colour in a match only if the match was played, and it is the
  colour its board-1 player was scheduled to play; CD = Whites - Blacks.
- 1.7 colour preferences: Type A (the default), Type B, or none, as the competition
  declares (``[options] team_colour_preferences``): :func:`preference`.
- 2.1 absolute criteria: [C1] no two teams meet twice; [C2] a team that had the PAB, or
  won a match by forfeit, does not get the PAB.
- 2.2 completion: [C3] a legal pairing exists for the teams not yet paired.
- 2.3 quality criteria, in descending priority: [C4] fewest upfloaters; [C5] their
  scores as high as possible (taken in ascending order); [C6] unless the following
  scoregroup is emptied by upfloating, upfloaters chosen so that [C1], [C3], [C4] can be
  met in the bracket where it is paired; [C7] except in the last two rounds, fewest
  upfloaters that were floaters in the previous round; [C8] fewest teams whose colour
  preference is not met; [C9] (Type B) fewest teams whose strong preference is not met;
  [C10] except in the last two rounds, fewest upfloaters' opponents that were floaters
  in the previous round.
- 3.3 the round: the PAB (3.4); then, from the top, the top scoregroup with its
  upfloaters (3.5) makes a bracket, paired by 3.6; colours last (Article 4).
- 3.4 the PAB: the team that leaves a legal pairing of the rest (3.4.1) with the lowest
  score (3.4.2), the most matches played (3.4.3), the largest TPN (3.4.4).
- 3.5 upfloaters: every team with a lower score than the top scoregroup may float up;
  the sets meeting [C4] and [C5] are each sorted by score (descending), then TPN (3.5.3),
  and ordered by their TPNs lexicographically (3.5.4); the first set giving a legal
  pairing and meeting [C6] and [C7] is taken (3.5.5).
- 3.6 the bracket: each pair's top member is its smaller TPN; a pairing's identifier is
  its top members' TPNs (ascending) then their bottom members' (3.6.2); the first
  pairing in identifier order that meets [C1], [C8], [C9], [C10] is taken (3.6.3-3.6.4).
- 4 colours: :func:`allocate`.

Readings where the text leaves a choice (docs/teams.md says them too):

- "the first set (pairing) that complies with [C6] and [C7] ([C8]-[C10])" reads a
  minimisation criterion as met when its count is the least any candidate reaches: the
  first candidate, in the article's order, of those reaching the least counts, in the
  criteria's order.
- [C5] is judged over the legal sets of the [C4]-minimal size (a set whose bracket or
  rest cannot be paired is no candidate).
- [C6] counts how many more upfloaters than the fewest its parity needs the bracket of
  the following scoregroup would need.
- 4.3.1's "odd TPN" is the TPN as given (the SPP's reading for late entries, a
  numbering of the teams present only, is not applied: a team that asked for a bye in
  the round is left out of the teams paired and keeps its number's gap).
- 3.3.3: when no pairing meets the absolute criteria the Chief Arbiter decides:
  :class:`NoLegalPairing` is raised and ``standgen pair`` says so.

The bracket's pairing (3.6) is one maximum-weight matching whose edge weights hold,
field above field, a perfect pairing, [C8], [C9], [C10], the top members' set and then
the bottom members in the top members' order, so that the heaviest matching is the
first pairing in identifier order among those with the least [C8]-[C10] counts (the
identifier order of two sets of top members of equal size is the order of their sums of
2^(n-1-i), i their place in the bracket). tests/test_team_c046.py checks it against a
plain enumeration of the articles on small fields.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from standgen.pairing.blossom import incremental_matching

WHITE, BLACK = "W", "B"
SYSTEM = "c046"  # Format.team_pairing of a format paired by this module
# event.toml's [options] keys of a chess team Swiss (declared and checked by the swiss
# format): the pairing score (1.2) and the colour preference type (1.7)
SCORE_OPTION = "team_pairing_score"
COLOUR_OPTION = "team_colour_preferences"


class NoLegalPairing(Exception):
    """No pairing of the round meets the absolute criteria (C.04.6 3.3.3: the Chief
    Arbiter decides)."""


def _empty() -> Mapping[int, str]:
    return {}


@dataclass(frozen=True)
class TeamState:
    """A team as C.04.6 pairs it: its TPN (1.1), primary and secondary score (1.2), the
    colour of each played match by round (1.6.1), the teams it met ([C1]), whether it may
    not get the PAB ([C2]), the matches it played (3.4.3) and whether it was a floater in
    the previous round (1.5; [C7], [C10])."""

    id: str
    tpn: int
    score: float
    secondary: float = 0.0
    colours: Mapping[int, str] = field(default_factory=_empty)
    opponents: frozenset[str] = frozenset()
    bye_barred: bool = False
    played: int = 0
    floater: bool = False

    @property
    def history(self) -> tuple[str, ...]:
        """Return the colours of the played matches in round order (1.6.1)."""
        return tuple(self.colours[r] for r in sorted(self.colours))

    @property
    def cd(self) -> int:
        """Return the colour difference: Whites minus Blacks (1.6.2)."""
        history = self.history
        return history.count(WHITE) - history.count(BLACK)


@dataclass(frozen=True)
class Settings:
    """What the competition declares and where the round is: the colour preference type
    (1.7), the initial-colour (4.1), whether this is the last round (1.7.2) or one of the
    last two ([C7], [C10])."""

    colour_type: str = "A"
    initial_colour: str = WHITE
    last_round: bool = False
    last_two: bool = False


@dataclass(frozen=True)
class Preference:
    """A colour preference (1.7): ``colour`` "" for none; ``strong`` (Type B 1.7.2;
    every Type A preference is of the one strength, counted strong)."""

    colour: str = ""
    strong: bool = False


@dataclass(frozen=True)
class RoundPairing:
    """A round paired by C.04.6: each match as (the team with White on board 1, the team
    with Black), the PAB ("" for none), and each bracket's teams and upfloaters."""

    matches: tuple[tuple[str, str], ...]
    bye: str
    brackets: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]


def _other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def preference(team: TeamState, settings: Settings) -> Preference:
    """Return a team's colour preference (C.04.6 1.7). Type A (1.7.1): White when CD < -1,
    or CD is 0 or -1 and its last two played matches were with Black; Black symmetrically;
    else none. Type B (1.7.2): those are strong; a mild preference for White when CD = -1,
    or CD = 0 and the last played match was with Black (not when pairing the last round);
    Black symmetrically; none before the first match. "none": no preferences."""
    history = team.history
    if settings.colour_type == "none" or not history:
        return Preference()
    strong = _strong(history, team.cd)
    if strong or settings.colour_type == "A":
        return Preference(strong, bool(strong))
    return _mild(history, team.cd, settings.last_round)


def _strong(history: tuple[str, ...], cd: int) -> str:
    """Return the colour of a Type A preference, a Type B strong one (1.7.1, 1.7.2), or
    "": White when CD < -1, or CD is 0 or -1 after Black in the last two played matches;
    Black symmetrically."""
    if cd < -1 or (cd in (0, -1) and history[-2:] == (BLACK, BLACK)):
        return WHITE
    if cd > 1 or (cd in (0, 1) and history[-2:] == (WHITE, WHITE)):
        return BLACK
    return ""


def _mild(history: tuple[str, ...], cd: int, last_round: bool) -> Preference:
    """Return a Type B mild preference (1.7.2): White when CD = -1, or CD = 0 after Black
    in the last played match (none when pairing the last round); Black symmetrically."""
    if cd:
        return Preference(WHITE if cd < 0 else BLACK)
    return Preference() if last_round else Preference(_other(history[-1]))


def may_meet(a: TeamState, b: TeamState) -> bool:
    """[C1] (C.04.6 2.1.1): two teams shall not play against each other more than once."""
    return b.id not in a.opponents and a.id not in b.opponents


def first_team(a: TeamState, b: TeamState) -> TeamState:
    """Return the pair's first-team (C.04.6 4.2): the higher score (4.2.1), the higher
    secondary score (4.2.2), the smaller TPN (4.2.3)."""
    return min((a, b), key=lambda t: (-t.score, -t.secondary, t.tpn))


def allocate(a: TeamState, b: TeamState, settings: Settings) -> tuple[TeamState, TeamState]:
    """Return the pair as (White on board 1, Black) by C.04.6 4.3, in descending
    priority: 4.3.1 both yet to play: the first-team takes the initial-colour when its
    TPN is odd, else the other; 4.3.2 only one preference: granted; 4.3.3 opposite
    preferences: both granted; 4.3.4 (Type B) only one strong preference: granted; 4.3.5
    the lower CD gets White; 4.3.6 alternate from the most recent round in which one had
    White and the other Black; 4.3.7 the first-team's preference; 4.3.8 the first-team
    alternates from its last played match; 4.3.9 the other team alternates from its
    last played match."""
    first = first_team(a, b)
    second = b if first is a else a
    colour = _first_colour(first, second, settings)
    return (first, second) if colour == WHITE else (second, first)


def _first_colour(first: TeamState, second: TeamState, settings: Settings) -> str:
    """Return the first-team's colour by 4.3 (see :func:`allocate`)."""
    if not first.colours and not second.colours:  # 4.3.1
        return settings.initial_colour if first.tpn % 2 else _other(settings.initial_colour)
    pf, ps = preference(first, settings), preference(second, settings)
    return _by_preference(pf, ps, settings) or _by_history(first, second, pf)


def _by_history(first: TeamState, second: TeamState, pf: Preference) -> str:
    """Return the first-team's colour by 4.3.5-4.3.9 (see :func:`allocate`)."""
    if first.cd != second.cd:  # 4.3.5
        return WHITE if first.cd < second.cd else BLACK
    for rnd in sorted(set(first.colours) & set(second.colours), reverse=True):  # 4.3.6
        if first.colours[rnd] != second.colours[rnd]:
            return _other(first.colours[rnd])
    if pf.colour:  # 4.3.7
        return pf.colour
    if first.history:  # 4.3.8
        return _other(first.history[-1])
    return second.history[-1]  # 4.3.9 (one of them has played: else 4.3.1)


def _by_preference(pf: Preference, ps: Preference, settings: Settings) -> str:
    """Return the first-team's colour by 4.3.2-4.3.4, or "" when they do not decide."""
    if not (pf.colour and ps.colour):  # 4.3.2
        return pf.colour or (_other(ps.colour) if ps.colour else "")
    if pf.colour != ps.colour:  # 4.3.3
        return pf.colour
    if settings.colour_type == "B" and pf.strong != ps.strong:  # 4.3.4
        return pf.colour if pf.strong else _other(ps.colour)
    return ""


def pair_costs(a: TeamState, b: TeamState, top_score: float,
               settings: Settings) -> tuple[int, int, int]:
    """Return what pairing ``a`` with ``b`` adds to [C8], [C9] and [C10] (C.04.6 2.3.5-
    2.3.7) in a bracket whose top scoregroup has ``top_score``: a team whose preference
    is not met (both want the same colour: one of them), a strong one not met (Type B:
    both strong for the same colour; one strong and one mild: the strong is granted,
    4.3.4), and each upfloater's opponent that was a floater in the previous round
    (none in the last two rounds)."""
    pa, pb = preference(a, settings), preference(b, settings)
    clash = bool(pa.colour) and pa.colour == pb.colour
    c9 = int(clash and settings.colour_type == "B" and pa.strong and pb.strong)
    c10 = 0
    if not settings.last_two:
        c10 = int(a.score < top_score and b.floater) + int(b.score < top_score and a.floater)
    return int(clash), c9, c10


# ----- matchings ----------------------------------------------------------------------

def _perfect(teams: Sequence[TeamState]) -> bool:
    """Return whether ``teams`` can all be paired without a rematch ([C1])."""
    n = len(teams)
    if n % 2:
        return False
    if n == 0:
        return True
    edges = [(i, j, 1) for j in range(n) for i in range(j) if may_meet(teams[i], teams[j])]
    if len(edges) < n // 2:
        return False
    if n == 2:
        return True
    matcher = incremental_matching(n, bits=8)
    matcher.load(edges)
    return all(v >= 0 for v in matcher.solve())


def pair_bracket(bracket: Sequence[TeamState], settings: Settings) -> list[tuple[TeamState,
                                                                              TeamState]]:
    """Return the pairing of a bracket by C.04.6 3.6: of the pairings without a rematch
    ([C1]) with the least [C8], then [C9], then [C10] counts, the first in identifier
    order (3.6.2-3.6.4); each pair as (top member, bottom member). Raise NoLegalPairing
    when the bracket cannot be paired."""
    teams = sorted(bracket, key=lambda t: t.tpn)
    n = len(teams)
    if n == 0:
        return []
    edges, unit = _bracket_edges(teams, settings)
    if n == 2:
        if not edges:
            raise NoLegalPairing
        return [(teams[0], teams[1])]
    matcher = incremental_matching(n, bits=unit.bit_length() + 8)
    matcher.load(edges)
    mate = matcher.solve()
    if any(v < 0 for v in mate):
        raise NoLegalPairing
    return [(teams[i], teams[mate[i]]) for i in range(n) if i < mate[i]]


def _bracket_edges(teams: Sequence[TeamState],
                   settings: Settings) -> tuple[list[tuple[int, int, int]], int]:
    """Return the bracket's edges (``teams`` by TPN; no edge for a rematch) weighted, field
    above field: one pair, [C8], [C9], [C10] (each met), the top member's place (2^(n-1-i)),
    the bottom member's (the digit n-1-j at the top member's place, base n); and the unit
    of the highest field."""
    n, half = len(teams), len(teams) // 2
    top_score = max(t.score for t in teams)
    bottoms = n ** n
    c10_unit = bottoms << n
    c9_unit = c10_unit * (n + 1)
    c8_unit = c9_unit * (half + 1)
    card_unit = c8_unit * (half + 1)
    edges = []
    for i, j in itertools.combinations(range(n), 2):
        if may_meet(teams[i], teams[j]):
            c8, c9, c10 = pair_costs(teams[i], teams[j], top_score, settings)
            edges.append((i, j, card_unit + (1 - c8) * c8_unit + (1 - c9) * c9_unit
                          + (2 - c10) * c10_unit + (1 << (n - 1 - i)) * bottoms
                          + (n - 1 - j) * n ** (n - 1 - i)))
    return edges, card_unit


# ----- upfloaters (3.5) ---------------------------------------------------------------

def _score_groups(teams: Sequence[TeamState]) -> list[list[TeamState]]:
    """Return the teams in scoregroups, highest score first, each by TPN."""
    scores = sorted({t.score for t in teams}, reverse=True)
    return [sorted((t for t in teams if t.score == s), key=lambda t: t.tpn) for s in scores]


def _profiles(sizes: Sequence[int], k: int) -> Iterator[tuple[int, ...]]:
    """Yield how many teams each scoregroup (highest first) gives to a set of ``k``, best
    [C5] first: the fewest from the lowest scoregroup, then from the next lowest ... (the
    scores, taken in ascending order, as high as possible: C.04.6 2.3.2)."""
    def go(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i < 0:
            if left == 0:
                yield ()
            return
        for count in range(max(0, left - sum(sizes[:i])), min(sizes[i], left) + 1):
            for rest in go(i - 1, left - count):
                yield (*rest, count)
    yield from go(len(sizes) - 1, k)


def candidate_sets(others: Sequence[TeamState],
                   k: int) -> Iterator[Iterator[tuple[TeamState, ...]]]:
    """Yield, [C5] profile by profile (best first), the sets of ``k`` upfloaters of that
    profile, each sorted by score (descending) then TPN (3.5.3), in the lexicographic
    order of their TPNs (3.5.4)."""
    groups = _score_groups(others)
    for counts in _profiles([len(g) for g in groups], k):
        combos = [itertools.combinations(g, c) for g, c in zip(groups, counts, strict=True)]
        yield (tuple(itertools.chain.from_iterable(p)) for p in itertools.product(*combos))


class _Round:
    """One round's pairing (C.04.6 3.3), with the answers of [C1]/[C3] checks kept."""

    def __init__(self, teams: Sequence[TeamState], settings: Settings) -> None:
        self.teams = list(teams)
        self.settings = settings
        self.known: dict[frozenset[str], bool] = {}

    def perfect(self, teams: Sequence[TeamState]) -> bool:
        key = frozenset(t.id for t in teams)
        if key not in self.known:
            self.known[key] = _perfect(teams)
        return self.known[key]

    def legal(self, residents: Sequence[TeamState], chosen: Sequence[TeamState],
              others: Sequence[TeamState]) -> bool:
        """Return whether the bracket of ``residents`` and ``chosen`` can be paired and the
        teams left after it too ([C1], [C3])."""
        ids = {t.id for t in chosen}
        return (self.perfect([*residents, *chosen])
                and self.perfect([t for t in others if t.id not in ids]))

    def needed(self, residents: Sequence[TeamState], others: Sequence[TeamState]) -> int:
        """Return the fewest upfloaters a bracket of ``residents`` needs ([C4]); raise
        NoLegalPairing when no set makes it legal."""
        for k in range(len(residents) % 2, len(others) + 1, 2):
            for sets in candidate_sets(others, k):
                if any(self.legal(residents, s, others) for s in sets):
                    return k
        raise NoLegalPairing

    def c6(self, chosen: Sequence[TeamState], others: Sequence[TeamState]) -> int:
        """Return [C6]'s count for a set: how many more upfloaters than its parity needs
        the following scoregroup's bracket would need; 0 when upfloating emptied it."""
        ids = {t.id for t in chosen}
        rest = [t for t in others if t.id not in ids]
        following = max((t.score for t in others), default=None)
        residents = [t for t in rest if t.score == following]
        if not residents:
            return 0
        try:
            return self.needed(residents, rest[len(residents):]) - len(residents) % 2
        except NoLegalPairing:
            return len(rest)

    def c7(self, chosen: Sequence[TeamState]) -> int:
        """Return [C7]'s count: upfloaters that were floaters in the previous round (0 in
        the last two rounds)."""
        return 0 if self.settings.last_two else sum(t.floater for t in chosen)

    def upfloaters(self, residents: Sequence[TeamState],
                   others: Sequence[TeamState]) -> tuple[TeamState, ...]:
        """Return the upfloaters of the top scoregroup ``residents`` (3.5): the fewest
        ([C4]), the best [C5] profile of the legal sets, then the least [C6], then [C7]
        counts, then the first in 3.5.4's order."""
        for k in range(len(residents) % 2, len(others) + 1, 2):
            for sets in candidate_sets(others, k):
                best = self._best_of(residents, sets, others)
                if best is not None:
                    return best
        raise NoLegalPairing

    def _best_of(self, residents: Sequence[TeamState],
                 sets: Iterator[tuple[TeamState, ...]],
                 others: Sequence[TeamState]) -> tuple[TeamState, ...] | None:
        """Return the legal set of one [C5] profile with the least ([C6], [C7]) counts,
        the first in 3.5.4's order among them; None when none is legal."""
        best: tuple[tuple[int, int], tuple[TeamState, ...]] | None = None
        for chosen in sets:
            if not self.legal(residents, chosen, others):
                continue
            key = (self.c6(chosen, others), self.c7(chosen))
            if best is None or key < best[0]:
                best = (key, chosen)
            if key == (0, 0):
                break
        return None if best is None else best[1]

    def bye(self) -> TeamState | None:
        """Return the PAB (3.4): of the teams that may have it ([C2]), the first by lowest
        score, most matches played, largest TPN whose leaving lets the rest be paired
        (3.4.1); None with an even number of teams."""
        if len(self.teams) % 2 == 0:
            return None
        order = sorted((t for t in self.teams if not t.bye_barred),
                       key=lambda t: (t.score, -t.played, -t.tpn))
        for team in order:
            if self.perfect([t for t in self.teams if t.id != team.id]):
                return team
        raise NoLegalPairing

    def pair(self) -> RoundPairing:
        """Return the round's pairing (3.3.2): the PAB, the brackets top down, colours."""
        bye = self.bye()
        left = sorted((t for t in self.teams if t is not bye), key=lambda t: (-t.score, t.tpn))
        pairs, brackets = self.brackets(left)
        coloured = sorted((allocate(a, b, self.settings) for a, b in pairs), key=_match_order)
        return RoundPairing(tuple((w.id, b.id) for w, b in coloured),
                            bye.id if bye else "", tuple(brackets))

    def brackets(self, left: list[TeamState]) -> tuple[
            list[tuple[TeamState, TeamState]], list[tuple[tuple[str, ...], tuple[str, ...]]]]:
        """Return the pairs of the teams ``left`` (by score, then TPN), bracket after
        bracket from the top (3.3.2), and each bracket's residents and upfloaters."""
        pairs: list[tuple[TeamState, TeamState]] = []
        brackets: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        while left:
            residents = [t for t in left if t.score == left[0].score]
            ups = self.upfloaters(residents, left[len(residents):])
            pairs += pair_bracket([*residents, *ups], self.settings)
            brackets.append((tuple(t.id for t in residents), tuple(t.id for t in ups)))
            left = [t for t in left[len(residents):] if t not in ups]
        return pairs, brackets


def _match_order(pair: tuple[TeamState, TeamState]) -> tuple[float, float, int]:
    """Return a match's place in the published list: the higher score of its teams, the
    sum of their scores, the smaller TPN (as C.04.3's publication order for players)."""
    a, b = pair
    return (-max(a.score, b.score), -(a.score + b.score), min(a.tpn, b.tpn))


def pair_round(teams: Sequence[TeamState], settings: Settings) -> RoundPairing:
    """Return the round's team pairing by C.04.6 (see the module's docstring); raise
    NoLegalPairing when the absolute criteria cannot be met (3.3.3)."""
    return _Round(teams, settings).pair()
