"""Why each table of a McMahon round was paired as it was, in words: the criterion
that decided it against the nearby tables (read from the pair costs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from standgen.pairing.gotha.costs import CRITERIA, SEED_LABELS, Field, cost_parts
from standgen.pairing.gotha.players import Gamer

COLOUR_WHY = {
    "handicap": "the stronger on MMS takes White and gives the handicap",
    "balance": "White to the player who has had fewer Whites",
    "toss": "equal colour history, OpenGotha's name hash decides",
}


CRITERION_WORDS = {
    "duplicate": "avoiding a rematch",
    "random": "OpenGotha's random term",
    "colour": "colour balance",
    "score": "MMS difference",
    "dudd": "the choice of who is drawn up or down",
    "seeding": "seeding",
    "handicap": "handicap",
    "geo": "avoiding club mates and compatriots",
}

NEIGHBOURS = 8  # tables either side compared with each table


def explain(f: Field, pairs: Sequence[tuple[Gamer, Gamer]],
            position: Mapping[str, int]) -> list[str]:
    """Return, per table, in a TO's words what the table is and which criterion decided it.

    OpenGotha shows the cost of a pair criterion by criterion (``JFrGamesPair``); here
    each table ``a``-``b`` is set against the other way to pair it with a nearby table
    ``c``-``d`` (``a``-``c`` and ``b``-``d``, or ``a``-``d`` and ``b``-``c``; the
    ``NEIGHBOURS`` tables either side in score order). The alternative losing least is
    the closest call, and the most important criterion (``costValue``'s order) on which
    it loses is the one that decided the table. ``position`` is each player's place in
    the score order (``costValue`` takes the earlier player first).
    """
    parts = [cost_parts(f, a, b) for a, b in pairs]
    out = []
    for t, (a, b) in enumerate(pairs):
        text = _describe(f, a, b, parts[t])
        best: tuple[int, str, int] | None = None
        tie: int | None = None
        for u in range(max(0, t - NEIGHBOURS), min(len(pairs), t + NEIGHBOURS + 1)):
            if u == t:
                continue
            c, d = pairs[u]
            for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
                alt = [cost_parts(f, *_ordered(x, position)),
                       cost_parts(f, *_ordered(y, position))]
                loss = {k: parts[t][k] + parts[u][k] - alt[0][k] - alt[1][k] for k in CRITERIA}
                total = sum(loss.values())
                if total == 0 and tie is None:
                    tie = u
                elif total > 0 and (best is None or total < best[0]):
                    decider = next(k for k in _IMPORTANCE if loss[k] > 0)
                    best = (total, decider, u)
        if best is not None:
            text += (f"; decided by {CRITERION_WORDS[best[1]]} (the closest alternative, "
                     f"swapping partners with table {best[2] + 1}, is worse on it)")
        if tie is not None:
            text += (f"; swapping partners with table {tie + 1} would cost exactly the same "
                     "(either is OpenGotha's best)")
        out.append(text)
    return out


# costValue's criteria, most important (heaviest) first
_IMPORTANCE = ("duplicate", "score", "geo", "handicap", "random", "dudd", "seeding", "colour")


def _ordered(pair: tuple[Gamer, Gamer], position: Mapping[str, int]) -> tuple[Gamer, Gamer]:
    """Return a pair as ``costValue`` takes it: the earlier player in score order first."""
    x, y = pair
    return (x, y) if position[x.id] < position[y.id] else (y, x)


def _describe(f: Field, p1: Gamer, p2: Gamer, parts: dict[str, int]) -> str:
    """Return what a table is: a rematch, a float, a pairing inside a group."""
    if not parts["duplicate"]:
        return "a rematch, which no other pairing avoided"
    words: list[str] = []
    gap = abs(p1.group - p2.group)
    if gap:
        upper, lower = (p1, p2) if p1.group < p2.group else (p2, p1)
        words.append(f"a float across {gap} MMS ({upper.id} drawn down, {lower.id} drawn up)")
        if parts["dudd"] >= 3 * (f.settings.dudd_weight // 5):
            words.append("it reverses an earlier draw")
    else:
        words.append(f"same MMS group, {SEED_LABELS[f.seed_system]} seeding "
                     f"(places {p1.inner + 1} and {p2.inner + 1} of {p1.group_size})")
    same = [what for what, a, b in (("club", p1.club, p2.club),
                                     ("country", p1.country, p2.country))
            if a and a.lower() == b.lower()]
    if same and f.settings.avoid_same_geo:
        words.append(f"same {' and '.join(same)} accepted")
    return "; ".join(words)
