"""Two FIDE C.07 rules as FIDE's reference program (TieBreakServer) applies them (issue #17
item 5): rating-based tie-breaks and unrated players (art. 10), and the 2026 cap on an
unplayed round's dummy opponent in standings shown before the last round (art. 16.4.2).
"""

from __future__ import annotations

from dataclasses import replace

from standgen.audit import audit
from standgen.model import Event
from standgen.standings import compute_standings, tiebreak_chain
from standgen.tiebreaks import TIEBREAKS
from tests.build import make_event, player

ROUNDS = [
    [("a", "b", "1-0"), ("c", "u", "draw")],
    [("a", "c", "draw"), ("u", "b", "1-0")],
]


def chess(ratings: dict[str, float | None], **options: object) -> Event:
    people = [player(pid, rating=rating) for pid, rating in ratings.items()]
    event = make_event(people, ROUNDS, fmt="swiss", tiebreaks=("aro", "tpr", "sos"))
    return replace(event, config=replace(event.config, options=dict(options)))


RATED = {"a": 2000.0, "b": 1800.0, "c": 1900.0, "u": 1700.0}


def test_rated_fields_keep_aro_and_tpr() -> None:
    event = chess(RATED)
    assert tiebreak_chain(event) == ("aro", "tpr", "sos")
    standings = compute_standings(event)
    row = standings.row("a")
    assert row is not None and row.values["aro"].value == 1850.0  # (1800 + 1900) / 2
    assert audit(event) == []


def test_an_unrated_player_drops_aro_and_tpr_with_a_warning() -> None:
    """C.07 art. 10: rating-based tie-breaks "must be dropped from the tournament
    tie-break list when unrated players are present, unless detailed rules on the
    handling of unrated players are included in the tournament regulations"."""
    event = chess({**RATED, "u": None})
    assert tiebreak_chain(event) == ("sos",)
    assert set(compute_standings(event).tiebreaks) == {"sos"}
    (warning,) = audit(event)
    assert warning.warning and "'u' has no rating, so aro and tpr leave the tiebreaks" in (
        warning.message)


def test_the_regulations_rating_for_unrated_players_counts() -> None:
    """With ``[options] unrated_rating`` the tie-breaks stay, the unrated opponent
    counting at that rating (TieBreakServer's ``--unrated``); the fast path agrees."""
    event = chess({**RATED, "u": None}, unrated_rating=1000)
    assert tiebreak_chain(event) == ("aro", "tpr", "sos")
    standings = compute_standings(event)
    c = standings.row("c")
    assert c is not None and c.values["aro"].value == 1500.0  # (1000 + 2000) / 2
    assert TIEBREAKS["aro"].fast is not None and TIEBREAKS["tpr"].fast is not None
    slow = compute_standings(event, fast=False)
    for pid in RATED:
        row, reference = standings.row(pid), slow.row(pid)
        assert row is not None and reference is not None
        assert row.values["aro"].value == reference.values["aro"].value
        assert row.values["tpr"].value == reference.values["tpr"].value
    assert audit(event) == []


def test_the_2026_cap_counts_the_rounds_played_so_far() -> None:
    """C.07 art. 16.4.2 (2026): a dummy opponent scores at most a draw in every round.
    Before the last round the reference counts the rounds played so far: after round 3
    of 7 the cap is 1.5 points, not 3.5. Player p won rounds 1 and 2 and was absent in
    round 3, so the dummy opponent of round 3 has min(2, 1.5) = 1.5."""
    people = [player(pid, rating=2000.0 - k) for k, pid in enumerate("pqrstu")]
    rounds = [
        [("p", "q", "1-0"), ("r", "s", "1-0"), ("t", "u", "1-0")],
        [("p", "r", "1-0"), ("q", "t", "1-0"), ("s", "u", "1-0")],
        [("p", "ABSENT", "0-1"), ("q", "r", "1-0"), ("s", "t", "1-0"), ("u", "BYE", "1-0")],
    ]
    event = make_event(people, rounds, fmt="swiss", rounds=7, tiebreaks=("sos",))
    row = compute_standings(event).row("p")
    assert row is not None
    parts = {part.round: part.value for part in row.values["sos"].parts}
    assert parts[3] == 1.5
