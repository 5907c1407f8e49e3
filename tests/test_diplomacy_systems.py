"""The Diplomacy scoring systems of issue #31 on their sources' worked examples.

Each expected number is worked out by hand from the published definition (the comment
shows the sum), never read back from the code. A source with no worked example of its
own is checked on the same end of game (F13 R12 G4 I4 T1, Austria out in 1905, England
in 1903) and on the invariants below.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.diplomacy.scoring import POWERS, BoardSeat
from standgen.diplomacy.systems import SYSTEMS

DOCS = Path(__file__).resolve().parent.parent / "docs"


def board(centres: Sequence[int], results: Sequence[str] | None = None,
          years: dict[str, int] | None = None, end: int | None = None) -> list[BoardSeat]:
    """Return a board in POWERS order (A E F G I R T); survivors draw unless told."""
    results = results or ["draw" if c else "eliminated" for c in centres]
    years = years or {}
    return [BoardSeat(p, c, r, years.get(p[0]), end)
            for p, c, r in zip(POWERS, centres, results, strict=True)]


def score(system: str, seats: Sequence[BoardSeat]) -> dict[str, float]:
    """Return the system's scores by power initial (A E F G I R T)."""
    values = SYSTEMS[system].score(seats, {})
    return {seat.power[0]: value for seat, value in zip(seats, values, strict=True)}


# The shared end of game: A0 (out 1905) E0 (out 1903) F13 G4 I4 R12 T1, ended 1908
GAME = board([0, 0, 13, 4, 4, 12, 1], years={"A": 1905, "E": 1903}, end=1908)


def solo(end: int = 1910) -> list[BoardSeat]:
    """A solo: France 18 in ``end``, E4 G4 R4 T4 alive, Austria and Italy out in 1905."""
    return board([0, 4, 18, 4, 0, 4, 4],
                 ["eliminated", "loss", "solo", "loss", "eliminated", "loss", "loss"],
                 years={"A": 1905, "I": 1905}, end=end)


def test_tribute_windy_city_weasels_game_398() -> None:
    """Windy City Weasels game #398 (the debut of Tribute): a five-way draw, France 13,
    Russia 12, Germany 4, Italy 4, Turkey 1, Austria and England out, scored France
    54.2, Russia 18.2, Germany and Italy 10.2, Turkey 7.2, Austria and England 0."""
    s = score("tribute", GAME)
    # 66 / 5 = 13.2 each; tribute 13 - 6 = 7 from each of the four others
    assert s == pytest.approx({"A": 0, "E": 0, "F": 13 + 13.2 + 4 * 7, "G": 4 + 13.2 - 7,
                               "I": 4 + 13.2 - 7, "R": 12 + 13.2 - 7, "T": 1 + 13.2 - 7})
    assert s["F"] == pytest.approx(54.2) and s["T"] == pytest.approx(7.2)


def test_tribute_cannot_exceed_the_draw_size_score_and_toppers_split_it() -> None:
    """World Diplomacy Wiki: "Tribute paid cannot exceed the draw size score"; "Tied
    board-toppers split the tribute equally"; a solo scores 100."""
    two_way = board([0, 17, 17, 0, 0, 0, 0])  # a shared top: no payer
    assert score("tribute", two_way)["E"] == pytest.approx(17 + 33)
    big = board([0, 0, 17, 0, 0, 16, 1])  # 3 survivors, 22 each; tribute 11 <= 22
    assert score("tribute", big)["F"] == pytest.approx(17 + 22 + 2 * 11)
    assert score("tribute", solo())["F"] == 100
    assert sum(score("tribute", solo()).values()) == 100


def test_opentribute_windy_city_weasels_simplified_formulas() -> None:
    """Windy City Weasels, OpenTribute: once every centre is owned, "Lone board-toppers:
    10 x centers; Non-topping survivors: 34 + 4 x centers - toppercenters; Eliminated
    players: 0"; a solo is 340."""
    s = score("opentribute", GAME)
    assert s == pytest.approx({"A": 0, "E": 0, "F": 10 * 13, "G": 34 + 4 * 4 - 13,
                               "I": 34 + 4 * 4 - 13, "R": 34 + 4 * 12 - 13,
                               "T": 34 + 4 * 1 - 13})
    # two toppers on 10: collected 0+0+2+4+4+7+... each receives 1/n^2 of it
    shared = score("opentribute", board([10, 10, 8, 6, 0, 0, 0]))
    collected = 0 + 0 + 2 + 4 + 10 + 10 + 10
    assert shared["A"] == shared["E"] == pytest.approx(34 + 30 + collected / 4)
    assert score("opentribute", solo())["F"] == 340


def test_carnage_dead_equal_shares_the_places_left() -> None:
    """dipvis "Carnage with dead equal": the webDiplomacy example R14 T7 F6 G4 E3 with
    Italy and Austria out share 2000 and 1000 whatever their years."""
    s = score("carnage-dead-equal",
              board([0, 3, 6, 4, 0, 14, 7], years={"A": 1905, "I": 1907}))
    assert s == {"R": 7014, "T": 6007, "F": 5006, "G": 4004, "E": 3003,
                 "I": 1500, "A": 1500}


def test_carnhik_boston_massacre_example() -> None:
    """Boston Massacre, "Scoring": "if the top player has 12 centers and the next player
    has 9 centers, they get an extra 900 points"; a shared top or a solo gets none."""
    s = score("carnhik", board([12, 9, 5, 4, 3, 1, 0], years={"T": 1906}))
    assert s == {"A": 7000 + 12 + 900, "E": 6009, "F": 5005, "G": 4004, "I": 3003,
                 "R": 2001, "T": 1000}
    shared = score("carnhik", board([9, 9, 5, 4, 3, 3, 1]))
    assert shared["A"] == shared["E"] == 6500 + 9
    assert score("carnhik", solo())["F"] == 28034


def test_c_diplo_namur_ndc_groningen_scale() -> None:
    """NDC Groningen: 1 Sc = 5, 2 = 9, 3 = 12, 4 = 14, 5 = 16, 6 = 18, then 1 each; 38,
    14, 7 for the top three split on ties; 1 for playing; a solo 85, the others 0. The
    WDD C-Diplo board A4 E0 F9 G7 I7 R3 T4 under Namur."""
    s = score("c-diplo-namur", board([4, 0, 9, 7, 7, 3, 4]))
    assert s == {"A": 1 + 14, "E": 1 + 0, "F": 1 + (18 + 3) + 38,
                 "G": 1 + (18 + 1) + (14 + 7) / 2, "I": 1 + 19 + 10.5, "R": 1 + 12,
                 "T": 1 + 14}
    assert score("c-diplo-namur", solo()) == {"A": 0, "E": 0, "F": 85, "G": 0, "I": 0,
                                              "R": 0, "T": 0}


def test_dixiecon_draw_values_and_places() -> None:
    """DixieCon: "a 2-way draw is worth 170 points each, plus the supply center points.
    Other common draw values are 130 for a 3-way and 106 for a 4-way"; ties split their
    places; "the first eliminated being 7th place"; 4 points per centre."""
    two = board([0, 16, 16, 1, 0, 1, 0],
                ["eliminated", "draw", "draw", "loss", "eliminated", "loss", "eliminated"],
                years={"A": 1905, "I": 1904, "T": 1906})
    s = score("dixiecon", two)
    assert s == {"E": 170 + 64, "F": 170 + 64, "G": (50 + 34) / 2 + 4,
                 "R": (50 + 34) / 2 + 4, "T": 20, "A": 10, "I": 0}
    three = score("dixiecon", board([0, 0, 10, 10, 10, 2, 2],
                                    ["eliminated", "eliminated", "draw", "draw", "draw",
                                     "loss", "loss"], years={"A": 1904, "E": 1906}))
    assert three["F"] == 130 + 40 and three["R"] == (34 + 20) / 2 + 8
    four = score("dixiecon", board([0, 0, 0, 8, 8, 9, 9]))
    assert four["G"] == pytest.approx(106 + 32)
    s = score("dixiecon", solo())
    # soloist first; E G R T share 2nd-5th on 4 centres; Austria and Italy out together
    assert s["F"] == 270 + 72 and s["E"] == (70 + 50 + 34 + 20) / 4 + 16
    assert s["A"] == s["I"] == (10 + 0) / 2


def test_world_classic_wiki_definition() -> None:
    """World Diplomacy Wiki: 10 per centre, 48 to the board-topper (shared equally), 30
    for survival and 1 per year survived in a non-solo game."""
    s = score("world-classic", GAME)
    assert s == {"F": 130 + 30 + 48, "R": 120 + 30, "G": 40 + 30, "I": 40 + 30,
                 "T": 10 + 30, "A": 1905 - 1901, "E": 1903 - 1901}
    shared = score("world-classic", board([0, 0, 12, 5, 5, 12, 0]))
    assert shared["F"] == shared["R"] == 120 + 30 + 24
    assert score("world-classic", solo())["F"] == 420
    assert sum(score("world-classic", solo()).values()) == 420


def test_bangkok_2022_wiki_definition() -> None:
    """World Diplomacy Wiki, "Bangkok 2022": 105 per centre; three 420-point pools (the
    top; the top and within 1; the top and within 2); 210 for survival; 35 a year
    survived, at most 210; a solo 1680 + 1890 + 420. The Bangkok family counts the
    elimination year ("players eliminated in 1905 receive 5yrs")."""
    s = score("bangkok-2022", GAME)
    assert s == pytest.approx({
        "F": 105 * 13 + 420 + 210 + 210 + 210 + 210,
        "R": 105 * 12 + 210 + 210 + 210 + 210,
        "G": 105 * 4 + 210 + 210, "I": 105 * 4 + 210 + 210, "T": 105 + 210 + 210,
        "A": 35 * 5, "E": 35 * 3})
    # the Bangkok 2020 wiki's domination shapes: 12, 11, 10 -> pools 1 / 2 / 3 ways
    shape = score("bangkok-2022", board([12, 11, 10, 1, 0, 0, 0], end=1906))
    assert shape["A"] - 105 * 12 - 420 == pytest.approx(420 + 210 + 140)
    assert shape["F"] - 105 * 10 - 420 == pytest.approx(140)
    assert score("bangkok-2022", solo())["F"] == 3990


def test_goff_daanz_definition() -> None:
    """DAANZ, "A Scoring System" (Andrew Goff): a solo 16800; 420 per centre, 1260 for
    the draw, three 420 pools; eliminated and losing players 140 a year survived (a year
    with a centre at its end and no 18-centre power)."""
    s = score("goff", GAME)
    assert s == {"F": 420 * 13 + 420 + 210 + 210 + 1260, "R": 420 * 12 + 210 + 210 + 1260,
                 "G": 420 * 4 + 1260, "I": 420 * 4 + 1260, "T": 420 + 1260,
                 "A": 140 * (1904 - 1900), "E": 140 * (1902 - 1900)}
    s = score("goff", solo(end=1910))
    assert s["F"] == 16800 and s["E"] == 140 * 9 and s["A"] == 140 * 4


def test_manorcon_published_text_counts_the_elimination_year() -> None:
    """ManorCon: P = S^2 + 4S + 16 for all seven (16 for the eliminated), survivors 100 P
    / B; "0.10 points for every year they played, including the year they were
    eliminated" (out in 1905: 0.5; dipvis gives 0.4); a solo 75, survivors scored as
    eliminated in the solo year."""
    s = score("manorcon", GAME)
    b = 237 + 208 + 48 + 48 + 21 + 16 + 16  # = 594
    assert s == pytest.approx({"F": 100 * 237 / b, "R": 100 * 208 / b, "G": 100 * 48 / b,
                               "I": 100 * 48 / b, "T": 100 * 21 / b, "A": 0.5, "E": 0.3})
    s = score("manorcon", solo(end=1908))
    assert s == pytest.approx({"F": 75, "E": 0.8, "G": 0.8, "R": 0.8, "T": 0.8,
                               "A": 0.5, "I": 0.5})


def test_detour_national_world_cup_text() -> None:
    """National World Cup, Detour: 2 for surviving, 1 per centre, 4/3/2/1 for the first
    four with ties taking the lowest place's points, the lone leader's lead, scaled to
    100; then 0.25 a year survived for the eliminated, at most 2 (out in 1902: 0.25)."""
    s = score("detour", GAME)
    raw = {"F": 13 + 2 + 4 + 1, "R": 12 + 2 + 3, "G": 4 + 2 + 1, "I": 4 + 2 + 1,
           "T": 1 + 2 + 0}
    total = sum(raw.values())  # 54
    assert s == pytest.approx({**{p: 100 * r / total for p, r in raw.items()},
                               "A": 0.25 * 4, "E": 0.25 * 2})
    late = score("detour", board([0, 0, 13, 4, 4, 12, 1], years={"A": 1902, "E": 1912}))
    assert late["A"] == pytest.approx(0.25) and late["E"] == pytest.approx(2.0)
    # "a three time tied third place yield no point"
    tied = score("detour", board([0, 10, 10, 4, 4, 4, 2]))
    # E and F share 1st-2nd: 3 each; G I R share 3rd-5th: 0; T 6th: 0
    assert tied["E"] == pytest.approx(100 * (10 + 2 + 3) / (15 + 15 + 6 + 6 + 6 + 4))
    assert tied["G"] == pytest.approx(100 * (4 + 2 + 0) / 52)
    assert score("detour", solo()) == {"A": 0, "E": 0, "F": 110, "G": 0, "I": 0, "R": 0,
                                       "T": 0}


# --- invariants on boards no source worked out ---------------------------------------

ends = st.lists(st.integers(0, 12), min_size=7, max_size=7).filter(lambda c: 0 < sum(c) <= 34)


@settings(deadline=None, max_examples=60)
@given(ends, st.randoms(use_true_random=False))
def test_every_system_scores_the_power_not_the_seat(centres: list[int],
                                                    rand: random.Random) -> None:
    """Listing the seven powers in another order gives each the same score."""
    years = {p[0]: 1902 + k for k, p in enumerate(POWERS)}
    seats = board(centres, years=years, end=1910)
    order = list(range(7))
    rand.shuffle(order)
    for system in SYSTEMS.values():
        straight = system.score(seats, {})
        shuffled = system.score([seats[k] for k in order], {})
        assert [shuffled[order.index(k)] for k in range(7)] == pytest.approx(straight)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_soloist_outscores_everyone_on_the_board(system: str) -> None:
    s = score(system, solo())
    assert all(s["F"] > v for p, v in s.items() if p != "F")


def test_scaled_systems_keep_their_published_totals() -> None:
    """Detour's draws total 100 before the survival points; C-Diplo Namur's rank bonus
    and Carnage's places are handed out whole whatever the ties."""
    for centres in itertools.islice(itertools.product([0, 3, 5, 8], repeat=7), 0, 4000, 7):
        if not 0 < sum(centres) <= 34:
            continue
        seats = board(list(centres))
        assert sum(SYSTEMS["detour"].score(seats, {})) == pytest.approx(100)
        namur = SYSTEMS["c-diplo-namur"].score(seats, {})
        bonus = sum(namur) - 7 - sum(
            (0, 5, 9, 12, 14, 16, 18, 19, 20)[c] for c in centres)
        assert bonus == pytest.approx(38 + 14 + 7)


def test_every_system_has_a_help_page_with_its_source_and_example() -> None:
    """One registry line, one help page: docs/scoring/<id>.md names the id, a source and
    a worked example, and the Diplomacy page's table lists every system."""
    listing = (DOCS / "formats" / "diplomacy.md").read_text(encoding="utf-8")
    for system_id, system in SYSTEMS.items():
        assert system.help == f"scoring/{system_id}"
        text = (DOCS / f"{system.help}.md").read_text(encoding="utf-8")
        assert f'`scoring = "{system_id}"`' in text
        assert re.search(r"Sources?:", text), system_id
        assert "## Worked example" in text, system_id
        assert f"`{system_id}`" in listing, system_id
