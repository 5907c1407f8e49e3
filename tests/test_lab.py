"""The tiebreak lab: one event ranked under several chains, moves against the default."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.model import Event
from standgen.pipeline import report
from standgen.site.lab import lab_chains, lab_page
from tests.build import make_event, player


def _three_one_players() -> Event:
    """a and b both go 3-1. a lost round 1, b round 4 (seed 000's comparison).

    a's opponents scored 2 (x1) + 1 (x2) + 0 + 0 = 3, b's 0 + 0 + 0 + 2 = 2: SoS ranks a
    first. Cumulative: a 0 + 1 + 2 + 3 = 6, b 1 + 2 + 3 + 3 = 9: b first.
    """
    rows = [
        [("a", "x1", "0-1"), ("b", "y1", "1-0")],
        [("a", "x2", "1-0"), ("b", "y2", "1-0")],
        [("a", "x3", "1-0"), ("b", "y3", "1-0"), ("x2", "y1", "1-0")],
        [("a", "x4", "1-0"), ("b", "x1", "0-1")],
    ]
    return make_event(["a", "b", "x1", "x2", "x3", "x4", "y1", "y2", "y3"], rows, rounds=4)


def _column(page_table, heading: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    k = page_table.headers.index(heading)
    return {row[0].text: row[k].text for row in page_table.rows}


def test_lab_shows_who_moves_under_cumulative() -> None:
    event = _three_one_players()
    page = lab_page(report(event))
    assert (page.slug, page.title) == ("lab", "Tiebreak lab")
    ranking = page.tables[0]
    assert ranking.headers == ("Player", "TP", "Default", "SoS first", "Cumulative",
                               "SODOS first", "Cut-1 first", "SoS-L for SoS")
    assert [row[0].text for row in ranking.rows[:2]] == ["A", "B"]
    assert _column(ranking, "Default")["A"] == "1"
    assert _column(ranking, "SoS first")["A"] == "1"  # Steamroller's default is SoS first
    cumulative = _column(ranking, "Cumulative")
    assert (cumulative["A"], cumulative["B"]) == ("2 ▼1", "1 ▲1")
    links = {row[0].text: row[0].href for row in ranking.rows}
    assert links["A"] == "players/a/index.html" and links["B"] == "players/b/index.html"
    # x1 (2 TP) is alone on its score: no chain moves it; its name links all the same
    assert _column(ranking, "Cumulative")["X1"] == "3" and links["X1"] == "players/x1/index.html"
    # the event itself is not changed
    assert event.config.tiebreaks == ()


def test_lab_chains_put_their_tiebreak_first_and_keep_the_rest() -> None:
    event = make_event(["a"], [], tiebreaks=("sos", "cp", "apd"))
    chains = {c.heading: c.tiebreaks for c in lab_chains(event)}
    assert chains == {
        "Default": ("sos", "cp", "apd"),
        "SoS first": ("sos", "cp", "apd"),
        "Cumulative": ("cumulative", "cumulative-sos"),
        "SODOS first": ("sodos", "sos", "cp", "apd"),
        "Cut-1 first": ("sos-cut1", "sos", "cp", "apd"),
        "SoS-L for SoS": ("sos-large", "cp", "apd"),  # Steamroller events only
    }
    swiss = make_event(["a"], [], fmt="swiss")
    assert "SoS-L for SoS" not in {c.heading for c in lab_chains(swiss)}
    no_sos = make_event(["a"], [], tiebreaks=("cp", "apd"))
    assert {c.heading: c.tiebreaks for c in lab_chains(no_sos)}["SoS-L for SoS"] == (
        "sos-large", "cp", "apd")
    legend = lab_page(report(make_event(["a", "b"], [[("a", "b", "1-0")]]))).tables[1]
    assert legend.rows[2][2].text == (
        "Cumulative (progressive) score, Cumulative strength of schedule")


@settings(deadline=None, max_examples=25)
@given(st.lists(st.sampled_from(("1-0", "0-1")), min_size=6, max_size=6),
       st.permutations(["a", "b", "c", "d", "e", "f"]))
def test_every_chain_ranks_every_player_once(results: list[str], order: list[str]) -> None:
    """Under any chain the ranks are standard competition ranks of the same players."""
    rows = [[(order[0], order[1], results[0]), (order[2], order[3], results[1]),
             (order[4], order[5], results[2])],
            [(order[0], order[2], results[3]), (order[1], order[4], results[4]),
             (order[3], order[5], results[5])]]
    page = lab_page(report(make_event(sorted(order), rows, rounds=3, name="Lab")))
    ranking = page.tables[0]
    assert len(ranking.rows) == 6
    for k in range(2, len(ranking.headers)):
        ranks = sorted(int(row[k].text.split()[0]) for row in ranking.rows)
        # 1, 2, 2, 4: each rank is its position, or shared with the one before
        assert all(rank == i + 1 or (i > 0 and rank == ranks[i - 1])
                   for i, rank in enumerate(ranks))
    assert all(row[0].href == f"players/{row[0].text.lower()}/index.html"
               for row in ranking.rows)  # every name links, moved or not


def test_lab_shows_large_event_sos_moving_a_dropouts_opponent() -> None:
    """Seed 000: a dropped opponent counts "1TP divided by the number of total games".

    3 rounds. d beats g1 and a, then drops on 2 TP. a (beat f1 and f2, 1 CP each) and b
    (beat f3 and f4, 5 CP each; lost to h, 1 TP) finish on 2 TP like d. SoS: d 2, a 2,
    b 1, so the default chain (SoS, CP) ranks a (2 CP), d (0 CP), b. Large-event SoS: d
    2 / 3, a 1 / 3 (d dropped: 1 TP over 3 games), b 1 / 3 (h: 1 / 3); a and b tie and
    b has more CP: d, b, a.
    """
    absent = [("f1", "ABSENT", ""), ("f2", "ABSENT", ""), ("f3", "ABSENT", ""),
              ("f4", "ABSENT", ""), ("g1", "ABSENT", ""), ("g2", "ABSENT", "")]
    rows = [
        [("a", "f1", "1-0", {"cp": (1, 0)}), ("b", "f3", "1-0", {"cp": (5, 0)}),
         ("d", "g1", "1-0"), ("h", "g2", "0-1"), absent[1], absent[3]],
        [("d", "a", "1-0"), ("h", "b", "1-0"), *absent],
        [("a", "f2", "1-0", {"cp": (1, 0)}), ("b", "f4", "1-0", {"cp": (5, 0)}),
         ("h", "ABSENT", ""), absent[0], absent[2], absent[4], absent[5]],
    ]
    people = ["a", "b", player("d", dropped_after=2), "h", "f1", "f2", "f3", "f4", "g1", "g2"]
    page = lab_page(report(make_event(people, rows, rounds=3)))
    ranking = page.tables[0]
    assert [row[0].text for row in ranking.rows[:3]] == ["A", "D", "B"]
    large = _column(ranking, "SoS-L for SoS")
    assert (large["D"], large["B"], large["A"]) == ("1 ▲1", "2 ▲1", "3 ▼2")
