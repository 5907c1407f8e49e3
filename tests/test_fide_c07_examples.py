"""FIDE C.07 (Play-Off and Tie-Break Regulations) worked examples, through the swiss format.

Sources
-------
- FIDE Handbook C.07, 2023 text, effective 1 September 2023 (1 April 2024 for every
  FIDE-rated event): https://handbook.fide.com/chapter/TieBreakRegulations2023 ; the
  2024 re-wording (no change to the definitions, fide.com/news/2849):
  https://handbook.fide.com/chapter/TieBreakRegulations082024 .
- FIDE Handbook C.07, 2026 text, approved by the FIDE Council on 2 February 2026,
  effective 1 March 2026: https://handbook.fide.com/chapter/TieBreakRegulations032026 .
  Its article 16.4 adds the cap on the dummy opponent ("However, it shall not exceed:
  16.4.1 the scheduled opponent's adjusted score (see Article 16.3), for unplayed rounds
  of categories 16.2.2 and 16.2.4 (forfeits); 16.4.2 the points awarded for a draw
  multiplied by the number of rounds in the tournament, for all other unplayed rounds").
  Without those two sub-articles the 2023 dummy simply has "the participant's own score".
  standgen picks the edition with the swiss option ``[options] fide_edition``.
- IA Mario Held, "Exercises in Tie-Breaking" (Rev. 2403220900, on C.07-2023, pp. 10-50),
  published by the FIDE Arbiters' Commission, https://arbiters.fide.com/news/9119 , and
  by FIDE TEC, https://tec.fide.com/2024/03/18/tie-break-exercise/ . No numeric worked
  example of C.07's own text could be retrieved (only the opening of the handbook pages
  is stored); Held's paper is FIDE's own set of worked examples for it. Its three
  crosstables (a 16-player 5-round Swiss, the same Swiss after 9
  rounds, a 6-player round robin) and its answers are taken from FIDE TEC's
  TieBreakServer, which carries them as test data: github.com/OttoMilvang/TieBreakServer
  ``tests/fixtures/held_swiss_5.trf``, ``held_swiss_9.trf``, ``held_round_robin.trf`` and
  ``tests/test_fide_held_individual_exercises.py`` (commit b411582b7e38). Exercises 1-5
  agree with a second transcription, github.com/marceljuenemann/tiebreak
  ``src/__tests__/tiebreak.test.ts`` ("should pass FIDE exercise 1 (2023)" ...).
- The 2026 values of the exercises are TieBreakServer's ``/V2`` expectations (FIDE TEC's
  reference implementation under the 2026 article 16.4; Held published 2023 answers
  only). Each 2026 value is worked by hand in the test that checks it.

Exercises not tested here, because standgen has no such tiebreak: 9 (AOB), 10 (FB),
18 (ARO cut-1), 21 (APRO), 22 (PTP), 29 (BPG), 30 (BWG), 31 (GE, 2026: REP) and 33
(PS cut-1).

The crosstables are imported with standgen's TRF importer (``import_trf``), loaded and
ranked like any event folder; tiebreak values are read from the standings rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from standgen import records
from standgen.build import import_trf
from standgen.load import load_tree
from standgen.standings import Standings, compute_standings
from standgen.tiebreaks import columns
from standgen.tiebreaks.fide import adjusted_score
from standgen.trf import parse_trf, player_ids
from tests.build import make_event

# --- the crosstables ----------------------------------------------------------------------
#
# One row per player: start rank, name, rating, points, then one block per round:
# "<opponent><colour><result>" (w / b; 1 = 0 played, + - forfeit) or, without an
# opponent, "-U" pairing-allocated bye, "-H" half-point bye, "-Z" zero-point bye; "." is
# an empty block (not in the event any more).

Row = tuple[int, str, int, float, str]

# Held, "Exercises in Tie-Breaking", crosstable of the 5-round Swiss (16 players).
#
#   No Name       Rtg   Pts  R1    R2    R3    R4    R5
HELD_SWISS_5: tuple[Row, ...] = (
    (1, "Alyx", 2200, 3.5, "9w1   13b=  2w=   15b1  4w="),
    (2, "Bruno", 2150, 4.0, "10b1  7w1   1b=   16w1  3b="),
    (3, "Charline", 2100, 3.5, "11w=  6b1   8w1   4b=   2w="),
    (4, "David", 2050, 3.5, "12b1  -H    13w1  3w=   1b="),
    (5, "Helene", 2000, 2.5, "13w0  15b0  11w1  7b=   10w1"),
    (6, "Franck", 1950, 3.0, "14b0  3w0   -U    10w1  8b1"),
    (7, "Genevieve", 1900, 1.5, "15w1  2b0   16b0  5w=   11b0"),
    (8, "Irina", 1850, 2.5, "16b=  14w1  3b0   13w1  6w0"),
    (9, "Jessica", 1800, 1.5, "1b0   10w0  -H    11b-  -U"),
    (10, "Lais", 1750, 1.0, "2w0   9b1   15w0  6b0   5b0"),
    (11, "Maria", 1700, 2.5, "3b=   16w0  5b0   9w+   7w1"),
    (12, "Nick", 1650, 2.0, "4w0   -U    14w+  -Z    -Z"),
    (13, "Opal", 1600, 1.5, "5b1   1w=   4b0   8b0   14w0"),
    (14, "Paul", 1550, 2.0, "6w1   8b0   12b-  -Z    13b1"),
    (15, "Reine", 1500, 2.0, "7b0   5w1   10b1  1w0   16b0"),
    (16, "Stephan", 1450, 3.5, "8w=   11b1  7w1   2b0   15w1"),
)

# Held, the same Swiss after 9 rounds (ratings as in TieBreakServer's held_swiss_9.trf,
# which differ from the 5-round table's).
HELD_SWISS_9: tuple[Row, ...] = (
    (1, "Alyx", 2150, 6.0, "9w1  13b= 2w=  15b1 4w=  6b=  3b=  16w= 8b1"),
    (2, "Bruno", 2130, 6.0, "10b1 7w1  1b=  16w1 3b1  4w=  6w0  15b= 5w="),
    (3, "Charline", 2200, 6.5, "11w= 6b1  8w1  4b=  2w0  16b1 1w=  14w1 10b1"),
    (4, "David", 2110, 6.0, "12b1 -H   13w1 3w=  1b=  2b=  16w= 6b=  15w1"),
    (5, "Helene", 1890, 4.0, "13w0 15b0 11w1 7b=  10w1 14b0 9b1  8w0  2b="),
    (6, "Franck", 2090, 6.0, "14b0 3w0  -U   10w1 8b1  1w=  2b1  4w=  16b1"),
    (7, "Genevieve", 1950, 4.5, "15w1 2b0  16b0 5w=  11b0 10b0 13w1 9w1  14b1"),
    (8, "Irina", 1930, 4.5, "16b= 14w1 3b0  13w1 6w0  11b= 15w= 5b1  1w0"),
    (9, "Jessica", 1790, 3.0, "1b0  10w0 -H   11b- -U   13b1 5w0  7b0  12w="),
    (10, "Lais", 1870, 4.0, "2w0  9b1  15w0 6b0  5b0  7w1  12b1 11w1 3w0"),
    (11, "Maria", 1810, 3.5, "3b=  16w0 5b0  9w+  7w1  8w=  14b0 10b0 13w="),
    (12, "Nick", 1770, 3.0, "4w0  -U   14w+ -Z   -Z   15b0 10w0 13b= 9b="),
    (13, "Opal", 1750, 2.5, "5b1  1w=  4b0  8b0  14w0 9w0  7b0  12w= 11b="),
    (14, "Paul", 1850, 4.0, "6w1  8b0  12b- -Z   13b1 5w1  11w1 3b0  7w0"),
    (15, "Reine", 1830, 4.0, "7b0  5w1  10b1 1w0  16b0 12w1 8b=  2w=  4b0"),
    (16, "Stephan", 1910, 4.5, "8w=  11b1 7w1  2b0  15w1 3w0  4b=  1b=  6w0"),
)

# Held, crosstable of the 6-player round robin (pre-determined pairings, 5 rounds).
# R4: Franck (5) lost by forfeit to Helene (6).
HELD_ROUND_ROBIN: tuple[Row, ...] = (
    (1, "Alyx", 2200, 3.5, "5w=  2w1  3b1  4w0  6b1"),
    (2, "Bruno", 2150, 3.5, "6w1  1b0  5w1  3w=  4b1"),
    (3, "Charline", 2100, 3.5, "4w1  6b1  1w0  2b=  5w1"),
    (4, "David", 2050, 1.5, "3b0  5b0  6w=  1b1  2w0"),
    (5, "Franck", 1950, 1.5, "1b=  4w1  2b0  6w-  3b0"),
    (6, "Helene", 2000, 1.5, "2b0  3w0  4b=  5b+  1w0"),
)


def _block(token: str) -> str:
    """Return one TRF16 round block (columns 92-99 of the first round)."""
    if token == ".":
        return " " * 8
    if token.startswith("-"):
        return f"0000 - {token[1]}"
    return f"{int(token[:-2]):4d} {token[-2]} {token[-1]}"


def trf(rows: Sequence[Row], rounds: int, kind: str = "") -> str:
    """Return a TRF16 file (FIDE C.04 Annex 2) of the crosstable ``rows``."""
    lines = ["012 FIDE C.07 Tie-Break Exercises (M. Held)", "042 2024/08/01",
             f"062 {len(rows)}"]
    if kind:
        lines.append(f"092 {kind}")
    for start, name, rating, points, blocks in rows:
        head = f"001 {start:4d}      {name:<33} {rating:4d} NOR {'':11} {'':10} {points:4.1f} "
        head += f"{start:4d}  "
        lines.append((head + "  ".join(_block(t) for t in blocks.split())).rstrip())
    lines.append(f"XXR {rounds}")
    return "\n".join(lines) + "\n"


SWISS_5 = trf(HELD_SWISS_5, 5)
SWISS_9 = trf(HELD_SWISS_9, 9)
ROUND_ROBIN = trf(HELD_ROUND_ROBIN, 5, "Individual: Round-Robin")
# Nick (12) withdrawn after round 3: his rounds 4 and 5 left empty instead of "0000 - Z"
# (C.07 16.1.1: "any round after a participant withdraws is a zero-point-bye").
SWISS_5_WITHDRAWN = trf(
    [(r[0], r[1], r[2], r[3], "4w0 -U 14w+ . .") if r[0] == 12 else r for r in HELD_SWISS_5],
    5,
)

Ranked = Callable[..., Standings]


@pytest.fixture(scope="module", params=["per-player", "columns"])
def ranked(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Ranked:
    """Return ``ranked(trf_text, tiebreaks, edition=None)``: the standings of the event
    import-trf writes from the text, with the tiebreaks and ``fide_edition`` added to its
    event.toml (computed once per module).

    Every exercise runs twice: with the per-player tiebreak functions, and with the
    whole-field values of :mod:`standgen.tiebreaks.columns` (which large events use),
    forced on for these small crosstables.
    """
    cache: dict[tuple[str, tuple[str, ...], str | None], Standings] = {}
    threshold = 0 if request.param == "columns" else 10**9

    def compute(text: str, tiebreaks: Sequence[str], edition: str | None = None) -> Standings:
        key = (text, tuple(tiebreaks), edition)
        if key not in cache:
            root = tmp_path_factory.mktemp("c07")
            (root / "held.trf").write_text(text, encoding="utf-8")
            folder = root / "events" / "held"
            import_trf(root / "held.trf", folder, root / "events")
            toml = folder / "event.toml"
            listed = ", ".join(f'"{t}"' for t in tiebreaks)
            extra = f'fide_edition = "{edition}"\n' if edition else ""
            toml.write_text(f"tiebreaks = [{listed}]\n" + toml.read_text() + extra)
            (event,) = load_tree(root / "events").events
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(columns, "MIN_ENTRIES", threshold)
                records._RECENT.clear()
                cache[key] = compute_standings(event)
                assert (columns._grid(cache[key].context) is not None) == (threshold == 0)
        return cache[key]

    return compute


def ids(text: str) -> Mapping[int, str]:
    """Return start rank -> standgen player id, as import-trf assigns them."""
    return player_ids(parse_trf(text, "held.trf").players)


def values(standings: Standings, text: str, tiebreak: str,
           players: Sequence[int] | None = None) -> dict[int, float]:
    """Return start rank -> the tiebreak's value, for ``players`` (default: all)."""
    by_rank = ids(text)
    wanted = players if players is not None else sorted(by_rank)
    out: dict[int, float] = {}
    for number in wanted:
        row = standings.row(by_rank[number])
        assert row is not None
        out[number] = row.values[tiebreak].value
    return out


def ranks(standings: Standings, text: str) -> dict[int, int]:
    by_rank = ids(text)
    out: dict[int, int] = {}
    for number, pid in sorted(by_rank.items()):
        row = standings.row(pid)
        assert row is not None
        out[number] = row.rank
    return out


def parts(standings: Standings, text: str, tiebreak: str, player: int
          ) -> list[tuple[int, float, bool]]:
    """Return (round, value, counted) of each part of a player's tiebreak value."""
    row = standings.row(ids(text)[player])
    assert row is not None
    return [(p.round, p.value, p.counted) for p in row.values[tiebreak].parts]


def only(table: Mapping[int, float], *players: int) -> dict[int, float]:
    return {p: table[p] for p in players}


def changed(table: Mapping[int, float], **new: float) -> dict[int, float]:
    return {**table, **{int(k.lstrip("p")): v for k, v in new.items()}}


# Held's answers (2023 text), start rank -> value; TieBreakServer's transcription.
BH = {1: 12.5, 2: 13.0, 3: 15.5, 4: 15.0, 5: 8.5, 6: 12.0, 7: 14.5, 8: 13.5, 9: 9.0,
      10: 13.0, 11: 13.5, 12: 11.5, 13: 14.0, 14: 11.0, 15: 12.0, 16: 12.5}
BH_C1 = {1: 11.0, 2: 12.0, 3: 13.0, 4: 11.5, 5: 7.5, 6: 11.0, 7: 12.5, 8: 12.0, 9: 7.5,
         10: 11.5, 11: 12.0, 12: 9.5, 13: 12.0, 14: 9.0, 15: 11.0, 16: 11.0}
SB = {1: 8.00, 2: 9.50, 3: 10.50, 4: 9.75, 5: 4.25, 6: 6.50, 7: 3.25, 8: 5.25, 9: 2.25,
      10: 1.50, 11: 5.75, 12: 4.00, 13: 4.25, 14: 4.50, 15: 3.50, 16: 7.25}
SB_C1 = {1: 7.25, 2: 8.50, 3: 9.25, 4: 8.00, 5: 3.25, 6: 5.50, 7: 1.25, 8: 3.75, 9: 2.25,
         10: 0.00, 11: 4.25, 12: 4.00, 13: 4.25, 14: 3.00, 15: 2.50, 16: 5.75}
ARO = {1: 1820, 2: 1880, 3: 1940, 4: 1888, 5: 1690, 6: 1813, 7: 1760, 8: 1730, 9: 1975,
       10: 1880, 11: 1863, 12: 2050, 13: 1930, 14: 1800, 15: 1860, 16: 1820}
TPR = {1: 1969, 2: 2120, 3: 2089, 4: 2081, 5: 1690, 6: 1813, 7: 1611, 8: 1730, 9: 1175,
       10: 1640, 11: 1776, 12: 1250, 13: 1781, 14: 1925, 15: 1788, 16: 1969}
WIN = {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 3, 7: 1, 8: 2, 9: 1, 10: 1, 11: 2, 12: 2, 13: 1,
       14: 2, 15: 2, 16: 3}
WON = {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1, 8: 2, 9: 0, 10: 1, 11: 1, 12: 0, 13: 1,
       14: 2, 15: 2, 16: 3}
PS = {1: 11.0, 2: 13.0, 3: 11.0, 4: 11.5, 5: 5.0, 6: 6.0, 7: 6.0, 8: 8.5, 9: 2.5,
      10: 4.0, 11: 5.5, 12: 7.0, 13: 7.0, 14: 6.0, 15: 7.0, 16: 10.5}

# The same under the 2026 text: TieBreakServer's /V2 answers (BH and BH-C1 for the
# exercises' players, SB and SB-C1 for everyone). Only David (4), Franck (6) and Maria
# (11) have a dummy the 2026 caps lower; Franck is in no Buchholz exercise, so his BH
# 11.5 and BH-C1 10.5 (Paul 2 + Charline 3.5 + PAB dummy 2.5 + Irina 2.5, Lais's 1 cut)
# are worked by hand.
BH_2026 = changed(BH, p4=14.0, p6=11.5, p11=12.5)
BH_C1_2026 = changed(BH_C1, p6=10.5, p11=11.0)
SB_2026 = changed(SB, p4=9.25, p6=6.00, p11=4.75)
SB_C1_2026 = changed(SB_C1, p4=7.75, p6=5.00, p11=3.25)

EDITIONS = ("2023", "2026")


# --- the crosstable itself ----------------------------------------------------------------


@pytest.mark.parametrize("text, rows", [(SWISS_5, HELD_SWISS_5), (SWISS_9, HELD_SWISS_9),
                                        (ROUND_ROBIN, HELD_ROUND_ROBIN),
                                        (SWISS_5_WITHDRAWN, HELD_SWISS_5)],
                         ids=["swiss-5", "swiss-9", "round-robin", "swiss-5-withdrawn"])
def test_crosstables_import_with_the_papers_scores(
    ranked: Ranked, text: str, rows: Sequence[Row]
) -> None:
    """Held's crosstables: every player's points as the paper prints them (1 / ½ / 0, a
    pairing-allocated bye scores 1, a half-point bye ½, a zero-point bye 0)."""
    standings = ranked(text, ["sos"])
    by_rank = ids(text)
    got: dict[int, float] = {}
    for number, pid in by_rank.items():
        row = standings.row(pid)
        assert row is not None
        got[number] = row.score
    assert got == {r[0]: r[3] for r in rows}


def test_withdrawn_player_is_imported_as_dropped(ranked: Ranked) -> None:
    """Nick's empty rounds 4 and 5 make him a player who left after round 3."""
    event = ranked(SWISS_5_WITHDRAWN, ["sos"]).event
    assert event.player_by_id[ids(SWISS_5_WITHDRAWN)[12]].dropped_after == 3
    entered = ranked(SWISS_5, ["sos"]).event
    assert entered.player_by_id[ids(SWISS_5)[12]].dropped_after is None


# --- art. 16.3: the participant's score as their opponents read it -------------------------


@pytest.mark.parametrize("text", [SWISS_5, SWISS_5_WITHDRAWN], ids=["zero-point-byes",
                                                                     "withdrawn"])
def test_art16_3_adjusted_scores(ranked: Ranked, text: str) -> None:
    """C.07 art. 16.2 / 16.3 on Held's 5-round Swiss (any edition).

    16.3.1: categories 16.2.1-16.2.4 count the points awarded; 16.3.2: "Unplayed rounds of
    category 16.2.5 [requested byes that are either followed only by VURs or in the last
    round of a tournament] are evaluated as draws".

    - Nick (12): 0, PAB 1 (16.2.1), forfeit win 1 (16.2.2), zero-point byes in R4 and R5
      (or withdrawn: "any round after a participant withdraws is a zero-point-bye",
      16.1.1), followed only by VURs: 16.2.5, draws. Adjusted 0 + 1 + 1 + ½ + ½ = 3.
    - Paul (14): forfeit loss in R3 (16.2.4: 0), zero-point bye in R4 followed by a game
      (16.2.3: 0). Adjusted = his 2 points.
    - Jessica (9): half-point bye in R3 followed by R5's pairing-allocated bye, which is
      not a VUR (16.2.3: ½), forfeit loss R4 (0), PAB R5 (1). Adjusted = her 1.5.
    - David (4): half-point bye in R2 followed by games (16.2.3). Adjusted = his 3.5.
    """
    standings = ranked(text, ["sos"])
    by_rank = ids(text)
    got = {n: adjusted_score(standings.context, by_rank[n]).value for n in (4, 9, 12, 14)}
    assert got == {4: 3.5, 9: 1.5, 12: 3.0, 14: 2.0}


# --- Buchholz (art. 8.1) with art. 16 -------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_exercises_1_2_buchholz_of_games_played(ranked: Ranked, edition: str) -> None:
    """Held exercises 1 and 2 (BH, C.07 art. 8.1: "The sum of the scores of each of the
    opponents of a participant"): Bruno (2), Alyx (1) and Charline (3) played every round.

    Bruno: Lais 1 + Genevieve 1.5 + Alyx 3.5 + Stephan 3.5 + Charline 3.5 = 13.
    Alyx 12.5; Charline 15.5 (her R1 opponent Maria won R4 by forfeit: counted as
    awarded, 16.3.1). No unplayed round of their own: both editions agree.
    """
    got = values(ranked(SWISS_5, ["sos"], edition), SWISS_5, "sos", [2, 1, 3])
    assert got == only(BH, 2, 1, 3) == {2: 13.0, 1: 12.5, 3: 15.5}


@pytest.mark.parametrize("edition, expected", [
    ("2023", only(BH, 5, 8, 11)), ("2026", only(BH_2026, 5, 8, 11))])
def test_exercise_3_buchholz_forfeit_win(
    ranked: Ranked, edition: str, expected: dict[int, float]
) -> None:
    """Held exercise 3 (BH of Helene 5, Irina 8, Maria 11; all on 2.5 points).

    Maria won R4 by forfeit against Jessica. C.07 art. 16.4 (2023): the round is a game
    against a dummy whose score is Maria's own, 2.5: BH = Charline 3.5 + Stephan 3.5 +
    Helene 2.5 + dummy 2.5 + Genevieve 1.5 = 13.5. 2026 (16.4.1): the dummy of a forfeit
    may not exceed the scheduled opponent's adjusted score, Jessica's 1.5: 12.5.
    Helene 8.5 and Irina 13.5 (Paul, her R2 opponent, counts his own 2: 16.3.1) played
    every round.
    """
    got = values(ranked(SWISS_5, ["sos"], edition), SWISS_5, "sos", [5, 8, 11])
    assert got == expected
    assert expected[11] == {"2023": 13.5, "2026": 12.5}[edition]


@pytest.mark.parametrize("edition, expected", [
    ("2023", only(BH, 1, 3, 4, 16)), ("2026", only(BH_2026, 1, 3, 4, 16))])
def test_exercise_4_buchholz_half_point_bye_and_withdrawn_opponent(
    ranked: Ranked, edition: str, expected: dict[int, float]
) -> None:
    """Held exercise 4 (BH of Alyx 1, Charline 3, David 4, Stephan 16; all on 3.5).

    David: R1 beat Nick, whose R4 and R5 zero-point byes count as draws (16.3.2): Nick
    3; R2 half-point bye, a dummy with David's own 3.5 (16.4, 2023); then Opal 1.5,
    Charline 3.5, Alyx 3.5: BH 15. 2026 (16.4.2): the dummy of a bye may not exceed a
    draw in every round, ½ × 5 = 2.5: BH 14.
    """
    got = values(ranked(SWISS_5, ["sos"], edition), SWISS_5, "sos", [1, 3, 4, 16])
    assert got == expected
    bye = {"2023": 3.5, "2026": 2.5}[edition]
    assert parts(ranked(SWISS_5, ["sos"], edition), SWISS_5, "sos", 4) == [
        (1, 3.0, True), (2, bye, True), (3, 1.5, True), (4, 3.5, True), (5, 3.5, True)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_dummy_opponent_2023_text_versus_2026_cap(ranked: Ranked, edition: str) -> None:
    """C.07 art. 16.4, 2023 text against the 2026 amendment, on Held's 5-round Swiss.

    The unplayed rounds' dummies (2023: own score; 2026: capped):

    - Franck (6, 3 points), pairing-allocated bye R3: 3 / min(3, ½ × 5) = 2.5 (16.4.2);
    - Maria (11, 2.5), forfeit win R4: 2.5 / min(2.5, Jessica's 1.5) = 1.5 (16.4.1);
    - Nick (12, 2), PAB R2, forfeit win R3 (Paul's adjusted 2), zero-point byes R4, R5:
      2 everywhere in both editions (no cap below his own score).

    Franck's full Buchholz: 2023 12, 2026 11.5 (TieBreakServer /V2). The swiss format's
    default edition is 2026.
    """
    standings = ranked(SWISS_5, ["sos"], edition)
    capped = edition == "2026"
    assert parts(standings, SWISS_5, "sos", 6)[2] == (3, 2.5 if capped else 3.0, True)
    assert parts(standings, SWISS_5, "sos", 11)[3] == (4, 1.5 if capped else 2.5, True)
    assert [v for _, v, _ in parts(standings, SWISS_5, "sos", 12)] == [3.5, 2, 2, 2, 2]
    assert values(standings, SWISS_5, "sos") == (BH_2026 if capped else BH)
    default = ranked(SWISS_5, ["sos"])
    assert values(default, SWISS_5, "sos") == BH_2026


# --- Buchholz cut-1 (art. 14.1) and the cut-1 exception (art. 16.5) -------------------------


@pytest.mark.parametrize("edition, expected", [
    ("2023", only(BH_C1, 5, 8, 11)), ("2026", only(BH_C1_2026, 5, 8, 11))])
def test_exercise_5_buchholz_cut1(
    ranked: Ranked, edition: str, expected: dict[int, float]
) -> None:
    """Held exercise 5 (BH-C1, C.07 art. 14.1.1: "exclude the opponent's lowest score").

    Helene 8.5 - Lais 1 = 7.5; Irina 13.5 - Opal 1.5 = 12; Maria's forfeit win is not a
    VUR (16.1.2), so Genevieve's 1.5 is cut: 2023 13.5 - 1.5 = 12, 2026 12.5 - 1.5 = 11.
    """
    got = values(ranked(SWISS_5, ["sos-cut1"], edition), SWISS_5, "sos-cut1", [5, 8, 11])
    assert got == expected


@pytest.mark.parametrize("edition", EDITIONS)
def test_exercise_6_buchholz_cut1_cuts_a_voluntary_unplayed_round(
    ranked: Ranked, edition: str
) -> None:
    """Held exercise 6 (BH-C1 of Genevieve 7, Jessica 9, Opal 13).

    Jessica: Alyx 3.5, Lais 1, half-point bye R3 (VUR), forfeit loss R4 (VUR), PAB R5 -
    the three unplayed rounds a dummy with her own 1.5 (2026: no cap bites): BH 9.
    C.07 art. 16.5.1: "the lowest contribution coming from such rounds shall be cut, as
    long as such contribution is not lower than the least significant value" (Lais's 1):
    a 1.5 VUR is cut, not Lais: 7.5. Genevieve 12.5 and Opal 12 cut their lowest opponent.
    """
    standings = ranked(SWISS_5, ["sos-cut1"], edition)
    assert values(standings, SWISS_5, "sos-cut1", [7, 9, 13]) == only(BH_C1, 7, 9, 13)
    cut = [r for r, _, counted in parts(standings, SWISS_5, "sos-cut1", 9) if not counted]
    assert cut == [3]  # the earlier of the two VURs worth 1.5


@pytest.mark.parametrize("edition", EDITIONS)
def test_exercise_7_buchholz_cut1_cuts_the_half_point_bye_first(
    ranked: Ranked, edition: str
) -> None:
    """Held exercise 7 (BH-C1 of Alyx 1, Charline 3, David 4, Stephan 16).

    David's R2 half-point bye is a VUR; its dummy (2023: 3.5; 2026: 2.5) is cut although
    Opal's 1.5 is the least significant value (16.5.1; for Buchholz "cut the lowest
    contribution coming from a VUR"): 2023 15 - 3.5 = 11.5, 2026 14 - 2.5 = 11.5.
    """
    standings = ranked(SWISS_5, ["sos-cut1"], edition)
    assert values(standings, SWISS_5, "sos-cut1", [1, 3, 4, 16]) == only(BH_C1, 1, 3, 4, 16)
    assert [r for r, _, c in parts(standings, SWISS_5, "sos-cut1", 4) if not c] == [2]


@pytest.mark.parametrize("text", [SWISS_5, SWISS_5_WITHDRAWN], ids=["zero-point-byes",
                                                                     "withdrawn"])
@pytest.mark.parametrize("edition", EDITIONS)
def test_exercise_8_buchholz_cut1_zero_point_byes_and_forfeit_loss(
    ranked: Ranked, text: str, edition: str
) -> None:
    """Held exercise 8 (BH-C1 of Nick 12, Paul 14, Reine 15; all on 2 points).

    Nick: David 3.5, PAB R2, forfeit win R3, zero-point byes R4, R5 (or withdrawn after
    R3): four dummies with his own 2; BH 11.5; cut-1 cuts a VUR (R4): 9.5.
    Paul: Franck 3, Irina 2.5, forfeit loss R3 and zero-point bye R4 (both VURs, dummy
    2), Opal 1.5: BH 11; cut-1 cuts the VUR of R3, not Opal's 1.5: 9.
    Reine played every round: Genevieve 1.5 + Helene 2.5 + Lais 1 + Alyx 3.5 + Stephan
    3.5 = 12; cut-1 cuts Lais: 11.
    """
    standings = ranked(text, ["sos", "sos-cut1"], edition)
    assert values(standings, text, "sos", [12, 14, 15]) == only(BH, 12, 14, 15)
    assert values(standings, text, "sos-cut1", [12, 14, 15]) == only(BH_C1, 12, 14, 15)
    assert [r for r, _, c in parts(standings, text, "sos-cut1", 12) if not c] == [4]
    assert [r for r, _, c in parts(standings, text, "sos-cut1", 14) if not c] == [3]


@pytest.mark.parametrize("edition", EDITIONS)
def test_buchholz_and_cut1_of_the_whole_field(ranked: Ranked, edition: str) -> None:
    """Held exercises 1-8 together: every player's BH and BH-C1 (TieBreakServer lists
    Held's answers for all 16; 2026: /V2)."""
    standings = ranked(SWISS_5, ["sos", "sos-cut1"], edition)
    new = edition == "2026"
    assert values(standings, SWISS_5, "sos") == (BH_2026 if new else BH)
    assert values(standings, SWISS_5, "sos-cut1") == (BH_C1_2026 if new else BH_C1)


# --- Sonneborn-Berger (art. 9.1) ------------------------------------------------------------


@pytest.mark.parametrize("edition, expected", [("2023", SB), ("2026", SB_2026)])
def test_exercises_11_12_sonneborn_berger(
    ranked: Ranked, edition: str, expected: dict[int, float]
) -> None:
    """Held exercises 11 (SB of 1, 3, 4, 16) and 12 (everyone). C.07 art. 9.1: "adding,
    for each round, a value given by multiplying the final score of the opponents by the
    points scored against them"; art. 16.4 for the unplayed rounds.

    David (4): Nick 3 × 1 + dummy × ½ (half-point bye) + Opal 1.5 × 1 + Charline 3.5 × ½
    + Alyx 3.5 × ½: 2023 (dummy 3.5) 9.75, 2026 (dummy 2.5) 9.25.
    Franck (6): 0 + 0 + PAB dummy × 1 + Lais 1 + Irina 2.5: 2023 (3) 6.5, 2026 (2.5) 6.
    Maria (11): Charline 3.5 × ½ + 0 + 0 + forfeit-win dummy × 1 + Genevieve 1.5: 2023
    (2.5) 5.75, 2026 (1.5) 4.75.
    Jessica (9): 0 + 0 + dummy 1.5 × ½ + 0 (forfeit loss) + dummy 1.5 × 1 = 2.25.
    """
    standings = ranked(SWISS_5, ["sb"], edition)
    assert values(standings, SWISS_5, "sb", [1, 3, 4, 16]) == only(expected, 1, 3, 4, 16)
    assert values(standings, SWISS_5, "sb") == expected


@pytest.mark.parametrize("edition, expected", [("2023", SB_C1), ("2026", SB_C1_2026)])
def test_exercise_13_sonneborn_berger_cut1(
    ranked: Ranked, edition: str, expected: dict[int, float]
) -> None:
    """Held exercise 13 (SB-C1, everyone). C.07 art. 14.1.1: "exclude the contribution
    (product) associated with the opponent with the lowest score - if there is more than
    one such opponent, exclude the lowest contribution associated with them"; art. 16.5.

    David (4): the half-point bye's contribution (2023: 3.5 × ½ = 1.75; 2026: 1.25) is
    the lowest VUR contribution and not lower than the least significant value (Opal's
    1.5 × 1), so it is cut: 2023 9.75 - 1.75 = 8, 2026 9.25 - 1.5 = 7.75 (the 2026 VUR,
    1.25, is lower than Opal's 1.5, so Opal's contribution goes). Lais (10): 1.5 - Jessica's
    1.5 = 0.
    """
    standings = ranked(SWISS_5, ["sb-cut1"], edition)
    assert values(standings, SWISS_5, "sb-cut1") == expected


# --- round robin: SB, SB-C1, Koya (exercises 14-16) ----------------------------------------


def test_exercises_14_16_round_robin_sb_and_koya(ranked: Ranked) -> None:
    """Held exercises 14 (SB), 15 (SB-C1) and 16 (Koya, C.07 art. 9.2: "The number of
    points achieved against all participants who have scored at least 50% of the maximum
    possible tournament score") on the 6-player round robin.

    Alyx: Franck 1.5 × ½ + Bruno 3.5 + Charline 3.5 + 0 + Helene 1.5 = 9.25; her lowest
    opponents (1.5) are David (0), Franck (0.75), Helene (1.5): the lowest contribution,
    David's 0, is cut: 9.25. Koya (at least 2.5 of 5: Alyx, Bruno, Charline): Alyx
    scored Bruno 1 + Charline 1 = 2.
    In a round robin the R4 forfeit (Helene won) counts as a game (art. 15.2); here the
    values agree either way.
    """
    standings = ranked(ROUND_ROBIN, ["sb", "sb-cut1", "koya"])
    assert values(standings, ROUND_ROBIN, "sb") == {
        1: 9.25, 2: 6.25, 3: 6.25, 4: 4.25, 5: 3.25, 6: 2.25}
    assert values(standings, ROUND_ROBIN, "sb-cut1") == {
        1: 9.25, 2: 4.75, 3: 4.75, 4: 4.25, 5: 3.25, 6: 1.50}
    assert values(standings, ROUND_ROBIN, "koya") == {
        1: 2.0, 2: 0.5, 3: 0.5, 4: 1.0, 5: 0.5, 6: 0.0}


# --- ARO (art. 10.1) and TPR (art. 10.2): exercises 17, 19, 20 -----------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_exercises_17_19_20_aro_and_tpr(ranked: Ranked, edition: str) -> None:
    """Held exercises 17 (ARO), 19 (TPR of 2, 6, 12) and 20 (TPR, everyone).

    C.07 art. 10.1 (ARO): "The average of the ratings of the opponents played over the
    board, rounded to the nearest whole number (0.5 rounded up)"; 10.2 (TPR): ARO plus the
    rating difference of the fractional score in those games (FIDE B.02 table 8.1a).
    Jessica (9) played Alyx 2200 and Lais 1750 only (a half-point bye, a forfeit loss, a
    PAB): ARO 1975, 0 of 2: TPR 1975 - 800 = 1175. Nick (12) played David 2050 only:
    ARO 2050, TPR 1250. David (4): (1650 + 1600 + 2100 + 2200) / 4 = 1887.5 -> 1888.
    Unplayed rounds do not depend on the edition.
    """
    standings = ranked(SWISS_5, ["aro", "tpr"], edition)
    assert values(standings, SWISS_5, "aro") == ARO
    assert values(standings, SWISS_5, "tpr", [2, 6, 12]) == {2: 2120, 6: 1813, 12: 1250}
    assert values(standings, SWISS_5, "tpr") == TPR


# --- wins (art. 7.1), games won (art. 7.2), progressive score (art. 7.5) -------------------


def test_exercises_27_28_wins_and_games_won(ranked: Ranked) -> None:
    """Held exercises 27 (WIN) and 28 (WON). C.07 art. 7.1: "The number of rounds where a
    participant obtains, with or without playing, as many points as awarded for a win";
    7.2: "The number of games won over the board".

    Franck (6): 2 games won + PAB: WIN 3, WON 2. Maria (11): 1 game + forfeit win: 2 / 1.
    Nick (12): PAB + forfeit win: WIN 2, WON 0. Jessica (9): PAB only: 1 / 0. David's
    half-point bye is not a win.
    """
    standings = ranked(SWISS_5, ["wins", "won"])
    assert values(standings, SWISS_5, "wins") == WIN
    assert values(standings, SWISS_5, "won") == WON


def test_exercise_32_progressive_score(ranked: Ranked) -> None:
    """Held exercise 32 (PS). C.07 art. 7.5: "After each round a participant has a certain
    tournament score. This tie-break is calculated adding the score of the participant at
    the end of each round." Byes and forfeits count their points.

    Bruno: 1 + 2 + 2.5 + 3.5 + 4 = 13; Nick: 0 + 1 + 2 + 2 + 2 = 7; Jessica: 0 + 0 + 0.5
    + 0.5 + 1.5 = 2.5.
    """
    standings = ranked(SWISS_5, ["cumulative"])
    assert values(standings, SWISS_5, "cumulative") == PS


# --- direct encounter (art. 6): exercises 23-26 ---------------------------------------------


def test_exercises_23_24_direct_encounter_swiss_5(ranked: Ranked) -> None:
    """Held exercises 23 and 24 (ranking by points, then DE).

    C.07 art. 6.3: "In Swiss tournaments, if the tied participants have not played all
    the games against each other, but one of them will be alone at the top of the
    separate standings whatever the outcome of the missing games, that participant is
    ranked first". 23: Alyx, Charline, David, Stephan (3.5): nobody is alone on top,
    all share 2nd. 24: Helene, Irina, Maria (2.5): Helene beat Maria, Irina met neither,
    so Irina could still reach 1: all share 7th.
    """
    got = ranks(ranked(SWISS_5, ["direct"]), SWISS_5)
    assert only(got, 1, 3, 4, 16) == {1: 2, 3: 2, 4: 2, 16: 2}
    assert only(got, 5, 8, 11) == {5: 7, 8: 7, 11: 7}


def test_exercise_25_direct_encounter_swiss_9(ranked: Ranked) -> None:
    """Held exercise 25 (ranking by points, then DE, after 9 rounds). Maria's R4 forfeit
    win against Jessica and Nick's R3 forfeit win against Paul are not games (art. 6.1.1:
    "forfeit wins or losses not covered by Article 15.2 are excluded")."""
    got = ranks(ranked(SWISS_9, ["direct"]), SWISS_9)
    assert got == {1: 3, 2: 5, 3: 1, 4: 3, 5: 9, 6: 2, 7: 6, 8: 6, 9: 14, 10: 9, 11: 13,
                   12: 14, 13: 16, 14: 9, 15: 9, 16: 6}


def test_exercise_26_direct_encounter_round_robin_all_met(ranked: Ranked) -> None:
    """Held exercise 26, the 3.5 group (C.07 art. 6.2): Alyx beat Bruno and Charline, who
    drew: Alyx 1st, Bruno and Charline share 2nd."""
    got = ranks(ranked(ROUND_ROBIN, ["direct"]), ROUND_ROBIN)
    assert only(got, 1, 2, 3) == {1: 1, 2: 2, 3: 2}


def test_exercise_26_direct_encounter_round_robin_forfeit(ranked: Ranked) -> None:
    """Held exercise 26, the 1.5 group: David, Franck, Helene.

    Franck beat David (R2), David drew Helene (R3), Helene won R4 by forfeit against
    Franck. C.07 art. 15.2: "In tournaments with pre-determined pairings, forfeit wins or
    losses (the only possible unplayed rounds) are treated as regular games or matches,
    except that all forfeits in ratings-based tie-breaks (see Article 10) and forfeit
    losses in Type B tie-breaks (see Article 7) remain unplayed rounds"; art. 6.1.1
    excludes only forfeits "not covered by Article 15.2". DE points: Helene 1.5, Franck
    1, David 0.5, everyone met: Helene 4th, Franck 5th, David 6th. (Leaving the forfeit
    out, as in a Swiss, Franck and Helene "did not meet" and all three would share 4th;
    the swiss format picks the art. 15.2 policy for ``pairing = "round-robin"``.)
    """
    got = ranks(ranked(ROUND_ROBIN, ["direct"]), ROUND_ROBIN)
    assert only(got, 4, 5, 6) == {4: 6, 5: 5, 6: 4}


# --- withdrawn player: the same answers ---------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_withdrawn_player_reads_as_zero_point_byes(ranked: Ranked, edition: str) -> None:
    """C.07 art. 16.1.1: "any round after a participant withdraws is a zero-point-bye".
    Nick leaving after round 3 (empty rounds 4 and 5) gives every player exactly the
    Buchholz, cut-1, SB and SB-C1 of Held's crosstable, where those rounds are entered as
    zero-point byes."""
    chain = ["sos", "sos-cut1", "sb", "sb-cut1"]
    left = ranked(SWISS_5_WITHDRAWN, chain, edition)
    byes = ranked(SWISS_5, chain, edition)
    for tiebreak in chain:
        assert values(left, SWISS_5_WITHDRAWN, tiebreak) == values(byes, SWISS_5, tiebreak)
    assert [(r, v) for r, v, _ in parts(left, SWISS_5_WITHDRAWN, "sos", 12)][3:] == [
        (4, 2.0), (5, 2.0)]


# --- art. 16.5.1 for Sonneborn-Berger: the rule's own explanation --------------------------

# A 4-round Swiss built for the clause "For Sonneborn-Berger, after determining: 1. the
# lowest contribution coming from a VUR 2. the least significant value (see 14.1.1.d and
# 14.1.2) cut the higher of these two values" (C.07 2026, art. 16.5.1). Not one of Held's
# exercises: it is needed because only the 2026 caps can give two VURs different dummies.
#
#   R1  X +:- P (forfeit)   A 0-1 C     B = D
#   R2  P half-point bye    X = C       B 1-0 A     D pairing-allocated bye
#   R3  P 1-0 A             X 1-0 D     B 0-1 C
#   R4  P 1-0 B             X 0-1 C     A = D
#
#   final: C 3.5, P 2.5, X 2.5, D 2, B 1.5, A 0.5
SB_CUT_ROWS = [
    [("X", "P", "+-"), ("A", "C", "0-1"), ("B", "D", "draw")],
    [("P", "ABSENT", "draw"), ("X", "C", "draw"), ("B", "A", "1-0"), ("D", "BYE", "1-0")],
    [("P", "A", "1-0"), ("X", "D", "1-0"), ("B", "C", "0-1")],
    [("P", "B", "1-0"), ("X", "C", "0-1"), ("A", "D", "draw")],
]


@pytest.mark.parametrize("edition, sb, cut", [("2023", 3.25, 2.75), ("2026", 3.0, 2.5)])
def test_art16_5_1_sonneborn_berger_cut_compares_the_lowest_vur_contribution(
    edition: str, sb: float, cut: float
) -> None:
    """P (2.5): R1 forfeit loss (VUR), R2 half-point bye followed by games (VUR, 16.2.3),
    beat A (0.5) and B (1.5).

    2026 dummies (16.4): R1 min(2.5, X's adjusted 2.5) = 2.5, contribution 2.5 × 0 = 0;
    R2 min(2.5, ½ × 4) = 2, contribution 2 × ½ = 1. SB = 0 + 1 + 0.5 + 1.5 = 3. The lowest
    VUR contribution is R1's 0; the least significant value is A's 0.5 (the opponent with
    the lowest score); "cut the higher of these two values": A's 0.5. SB-C1 = 2.5.
    (Cutting R2's 1, the VUR whose dummy scores least, would give 2.)
    2023: both dummies 2.5: SB = 0 + 1.25 + 0.5 + 1.5 = 3.25; R1's 0 against A's 0.5:
    A is cut, SB-C1 = 2.75.
    """
    event = make_event(list("PXABCD"), SB_CUT_ROWS, fmt="swiss", rounds=4,
                       tiebreaks=("sb", "sb-cut1"), options={"fide_edition": edition})
    standings = compute_standings(event)
    assert {r.player.id: r.score for r in standings.rows} == {
        "C": 3.5, "P": 2.5, "X": 2.5, "D": 2.0, "B": 1.5, "A": 0.5}
    row = standings.row("P")
    assert row is not None
    assert row.values["sb"].value == sb
    assert row.values["sb-cut1"].value == cut
    assert [p.opponent for p in row.values["sb-cut1"].parts if not p.counted] == ["A"]

