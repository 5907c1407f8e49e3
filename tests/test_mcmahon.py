"""Go McMahon: MMS from rank, bar and floor; seed 003's SODOS tables; OpenGotha's values.

``opengotha`` below transliterates OpenGotha's ``Tournament.fillBaseScoringInfo`` (the
``*X2`` integer arithmetic: MMS, SOSM, SOSMM1, SOSMM2, SDSM (SODOS), SSSM (SOSOS), with
the handicap correction of 4.2) so that standgen's numbers are compared with OpenGotha's
own procedure on fixed and random events.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.formats import FORMATS
from standgen.formats.mcmahon import MCMAHON, initial_mms, rank_value
from standgen.model import Event, EventConfig, Player
from standgen.standings import compute_standings
from standgen.tiebreaks import TIEBREAKS
from tests.build import make_event, player

Row = tuple[Any, ...]


def config(**options: Any) -> EventConfig:
    import datetime as dt

    return EventConfig("T", dt.date(2026, 1, 1), "mcmahon", options=options)


# --- ranks and the starting score ------------------------------------------------------


@pytest.mark.parametrize(("rank", "value"), [
    ("30k", -30), ("20k", -20), ("1k", -1), ("1d", 0), ("9d", 8), ("1p", 6), ("4p", 7),
    ("9p", 8),
])
def test_rank_value_is_opengotha_convertkdptoint(rank: str, value: int) -> None:
    assert rank_value(rank) == value


def test_default_zero_is_30k_20k_starts_on_10_and_1d_on_30() -> None:
    """Issue: "default 30k as in OpenGotha, so 20k = 10 and 1d = 30"."""
    assert initial_mms(player("a", rank="20k"), config()) == 10
    assert initial_mms(player("a", rank="1d"), config()) == 30


def test_bar_floor_and_correction() -> None:
    """OpenGotha ``Player.smms``: framed by floor and bar, then the manual correction."""
    cfg = config(bar="3d", floor="20k")
    assert initial_mms(player("a", rank="6d"), cfg) == initial_mms(player("b", rank="3d"), cfg)
    assert initial_mms(player("a", rank="3d"), cfg) == 32
    assert initial_mms(player("a", rank="25k"), cfg) == 10
    assert initial_mms(player("a", rank="6d", mms_correction=1), cfg) == 33
    assert initial_mms(player("a", rank="25k", mms_correction=-2), cfg) == 8


# --- seed 003: the origin problem of SODOS ---------------------------------------------


def seed003(zero: str) -> Any:
    """Seed 003's two players and their opponents' results, with four filler players.

    Alan (1d): Bob(1k)-, Cath(1d)+, Dave(1k)+. Juliet (1k): Karen(1d)+, Lionel(1k)+,
    Martin(1k)+. Wins: Bob 2, Cath 1, Dave 2, Karen 0, Lionel 2, Martin 2.
    """
    ranks = {"alan": "1d", "juliet": "1k", "bob": "1k", "cath": "1d", "dave": "1k",
             "karen": "1d", "lionel": "1k", "martin": "1k"}
    people = [player(p, rank=r) for p, r in ranks.items()]
    people += [player(f"f{k}", rank="5k") for k in range(1, 5)]
    rounds = [
        [("alan", "bob", "0-1"), ("juliet", "karen", "1-0"), ("cath", "f3", "1-0"),
         ("dave", "f4", "1-0"), ("lionel", "f1", "1-0"), ("martin", "f2", "1-0")],
        [("alan", "cath", "1-0"), ("juliet", "lionel", "1-0"), ("bob", "f1", "1-0"),
         ("dave", "f2", "1-0"), ("martin", "f3", "1-0"), ("karen", "f4", "0-1")],
        [("alan", "dave", "1-0"), ("juliet", "martin", "1-0"), ("lionel", "f1", "1-0"),
         ("bob", "f2", "0-1"), ("cath", "f3", "0-1"), ("karen", "f4", "0-1")],
    ]
    return make_event(people, rounds, fmt="mcmahon", rounds=3, tiebreaks=("sodos",),
                      options={"mms_zero": zero})


@pytest.mark.parametrize(("zero", "mms", "sodos"), [("1d", 2, 2), ("20k", 22, (62, 42))])
def test_seed003_sodos_uk_and_eu_scales(zero: str, mms: int, sodos: Any) -> None:
    """Seed 003: UK scale "Alan and Juliet ranked equal" with SoDoS 0+1+1 = 2 and 1+1 = 2;
    EU scale Juliet 20+21+21 = 62, Alan 21+21 = 42, both on MMS 22 (UK 2)."""
    standings = compute_standings(seed003(zero))
    alan, juliet = standings.row("alan"), standings.row("juliet")
    assert alan is not None and juliet is not None
    assert alan.score == juliet.score == mms
    juliet_sodos, alan_sodos = (sodos, sodos) if isinstance(sodos, int) else sodos
    assert juliet.values["sodos"].value == juliet_sodos
    assert alan.values["sodos"].value == alan_sodos
    if zero == "1d":
        assert alan.rank == juliet.rank  # "ranked equal and sharing any prize"
    else:
        assert juliet.rank < alan.rank  # "Juliet is ahead of Alan"


def test_seed003_opponents_initial_and_final_mms() -> None:
    """Seed 003's opponent tables: Bob(1k) UK -1 -> 1, EU 19 -> 21; Karen(1d) 0 -> 0, 20."""
    uk, eu = compute_standings(seed003("1d")), compute_standings(seed003("20k"))
    table = {"bob": (-1, 1, 19, 21), "cath": (0, 1, 20, 21), "dave": (-1, 1, 19, 21),
             "karen": (0, 0, 20, 20), "lionel": (-1, 1, 19, 21), "martin": (-1, 1, 19, 21)}
    for pid, (uk_start, uk_final, eu_start, eu_final) in table.items():
        who = uk.records[pid].player
        assert initial_mms(who, uk.event.config) == uk_start
        assert initial_mms(who, eu.event.config) == eu_start
        assert uk.context.scores[pid] == uk_final
        assert eu.context.scores[pid] == eu_final


def test_check_warns_about_sodos_with_several_groups() -> None:
    """Issue: "check warns when an event ranks by sodos with more than one McMahon group"."""
    assert MCMAHON.validate_event is not None
    problems = MCMAHON.validate_event(seed003("20k"), "ev/event.toml")
    assert [p.warning for p in problems] == [True]
    assert "sodos" in problems[0].message
    single = make_event([player(p, rank="3k") for p in "abcd"], [], fmt="mcmahon",
                        tiebreaks=("sodos",))
    assert MCMAHON.validate_event(single, "ev/event.toml") == []


def test_rank_is_required() -> None:
    event = make_event([player("a", rank="3k"), player("b")], [], fmt="mcmahon")
    assert MCMAHON.validate_event is not None
    problems = MCMAHON.validate_event(event, "ev/event.toml")
    assert len(problems) == 1 and not problems[0].warning
    assert "'b' has no rank" in problems[0].message


# --- OpenGotha's procedure, transliterated ---------------------------------------------

RESULT_X2 = {"1-0": (2, 0), "0-1": (0, 2), "draw": (1, 1), "+-": (2, 0), "-+": (0, 2),
             "--": (0, 0)}


def opengotha(
    people: Sequence[Player], rounds: Sequence[Sequence[Row]], options: Mapping[str, Any]
) -> dict[str, dict[str, float]]:
    """Return MMS, SOS, SOS-1, SOS-2, SOSOS and SODOS per player as OpenGotha computes them.

    ``Tournament.fillBaseScoringInfo``: 1) participation (PAIRED / BYE / ABSENT), 2) mmsX2
    from ``2 * smms`` plus 2 / 1 per win / jigo and the rounded-down bye and absence
    points, 4.2) ``osmX2[rr] = 2 * smms`` for an unpaired round else the opponent's
    mmsX2, ``+ 2 * handicap`` when the player was White and ``- 2 * handicap`` when Black,
    ``sdsX4 += osmX2 * wX2``, SOSMM1 / SOSMM2 drop the lowest one / two ``osmX2``, 5)
    ``sssmX2 += 2 * smms * (r + 1)`` unpaired, else the opponent's sosmX2. White is
    player_1; a row's optional 4th element is the handicap (stones White gave).

    One OpenGotha quirk is not copied: after exactly two rounds 4.2 computes SOSMM1 as the
    larger ``osmX2`` but never stores it (``setSOSMM1X2`` sits in the 3-rounds-or-more
    branch), so OpenGotha shows SOS-1 = 0 there; this returns the computed value, as
    standgen does (the NBW variant in 4.1 stores it).
    """
    cfg = config(**options)
    smms = {p.id: int(initial_mms(p, cfg)) for p in people}
    bye2 = int(2 * options.get("bye_points", 1))
    absent2 = int(2 * options.get("absent_points", 0.5))
    round_down = options.get("round_down", True)
    n_rounds = len(rounds)
    # per player and round: (opponent, wX2, +2 * handicap as White / -2 * handicap as Black)
    games: dict[str, list[tuple[str, int, int] | str]] = {p.id: [] for p in people}
    for rows in rounds:
        for row in rows:
            a, b, result = row[:3]
            if b in ("BYE", "ABSENT"):
                games[a].append(b)
                continue
            hd2 = 2 * int(row[3]) if len(row) > 3 else 0
            wa, wb = RESULT_X2[result]
            games[a].append((b, wa, hd2))
            games[b].append((a, wb, -hd2))
    mms2: dict[str, int] = {}
    for pid, seq in games.items():
        played = sum(g[1] for g in seq if isinstance(g, tuple))
        unpaired = sum(bye2 if g == "BYE" else absent2 for g in seq if isinstance(g, str))
        if round_down:
            unpaired = (unpaired // 2) * 2
        mms2[pid] = 2 * smms[pid] + played + unpaired
    osm: dict[str, list[int]] = {}
    sds4: dict[str, int] = {}
    for pid, seq in games.items():
        osm[pid] = [2 * smms[pid] if isinstance(g, str) else mms2[g[0]] + g[2] for g in seq]
        sds4[pid] = sum((mms2[g[0]] + g[2]) * g[1] for g in seq if isinstance(g, tuple))
    sos2 = {pid: sum(v) for pid, v in osm.items()}
    sss2 = {pid: sum(2 * smms[pid] * n_rounds if isinstance(g, str) else sos2[g[0]]
                     for g in seq) for pid, seq in games.items()}
    cut2 = {pid: sum(v) - min(v) if len(v) > 1 else 0 for pid, v in osm.items()}
    cut2x2 = {pid: sum(sorted(v)[2:]) if len(v) > 2 else 0 for pid, v in osm.items()}
    return {pid: {"score": mms2[pid] / 2, "sos": sos2[pid] / 2, "sosos": sss2[pid] / 2,
                  "sodos": sds4[pid] / 4, "sos-cut1": cut2[pid] / 2,
                  "sos-cut2": cut2x2[pid] / 2} for pid in games}


def go_event(
    people: Sequence[Player], rounds: Sequence[Sequence[Row]], options: Mapping[str, Any]
) -> Event:
    """Return a McMahon event from rows ``(white, black, result[, handicap])``.

    The handicap goes in the game's ``handicap`` column (``Game.extra``), as a round file's
    ``handicap`` column does; rows without one are even games with no column.
    """
    event = make_event(people, [[row[:3] for row in rows] for rows in rounds], fmt="mcmahon",
                       rounds=max(1, len(rounds)), options=dict(options))
    played = []
    for rnd, rows in zip(event.rounds, rounds, strict=True):
        games = tuple(
            replace(game, extra={"handicap": float(row[3]), "komi": 0.5 if row[3] else 7.5})
            if len(row) > 3 else game
            for game, row in zip(rnd.games, rows, strict=True)
        )
        played.append(replace(rnd, games=games))
    return replace(event, rounds=tuple(played))


def standgen_values(event: Any) -> dict[str, dict[str, float]]:
    standings = compute_standings(event)
    out: dict[str, dict[str, float]] = {}
    for pid in standings.records:
        values = {"score": standings.context.scores[pid]}
        for tb in ("sos", "sosos", "sodos", "sos-cut1", "sos-cut2"):
            values[tb] = TIEBREAKS[tb].compute(standings.context, pid).value
        out[pid] = values
    return out


FIXED_PEOPLE = [
    player("ann", rank="5d"), player("ben", rank="3d"), player("cat", rank="1d"),
    player("dan", rank="2k"), player("eve", rank="8k"), player("fay", rank="25k"),
    player("gus", rank="15k", mms_correction=1),
]
FIXED_OPTIONS = {"bar": "3d", "floor": "20k"}
FIXED_ROUNDS: list[list[Row]] = [
    [("ann", "ben", "1-0"), ("cat", "dan", "draw"), ("eve", "fay", "0-1"), ("gus", "BYE", "")],
    [("ann", "cat", "0-1"), ("ben", "gus", "+-"), ("dan", "eve", "1-0"), ("fay", "ABSENT", "")],
    [("ann", "dan", "1-0"), ("cat", "gus", "1-0"), ("ben", "fay", "1-0"), ("eve", "ABSENT", "")],
]


def fixed_event(**extra: Any) -> Any:
    return make_event(FIXED_PEOPLE, FIXED_ROUNDS, fmt="mcmahon", rounds=3,
                      options={**FIXED_OPTIONS, **extra})


def test_opengotha_fixed_event_by_hand() -> None:
    """A 7-player event with a bar (3d), a floor (20k), a bye, a jigo and two absences.

    Starting MMS (zero 30k): ann 5d -> bar 3d = 32, ben 32, cat 30, dan 28, eve 22,
    fay 25k -> floor 20k = 10, gus 15k = 15 + 1 = 16. Gus's bye scores 1; Fay's and Eve's
    single absence ½ each rounds down to 0 (``genRoundDownNBWMMS``).
    """
    values = standgen_values(fixed_event())
    assert values["ann"]["score"] == 32 + 2
    assert values["gus"]["score"] == 16 + 1  # bye 1, forfeit loss 0, loss 0
    assert values["fay"]["score"] == 10 + 1  # win, absence ½ rounded down, loss
    assert values["eve"]["score"] == 22  # losses and an absence rounded down
    assert values["cat"]["score"] == 30 + 2.5
    # Gus's bye counts as a game against his own starting MMS (16) in SOS:
    # 16 + ben (32, lost to ann, forfeit win, win = 34) + cat 32.5
    assert values["gus"]["sos"] == 16 + 34 + 32.5


@pytest.mark.parametrize("tiebreak", ["score", "sos", "sosos", "sos-cut1", "sos-cut2"])
def test_opengotha_fixed_event(tiebreak: str) -> None:
    ours, theirs = standgen_values(fixed_event()), opengotha(
        FIXED_PEOPLE, FIXED_ROUNDS, FIXED_OPTIONS)
    assert {p: v[tiebreak] for p, v in ours.items()} == {
        p: v[tiebreak] for p, v in theirs.items()}


def test_opengotha_fixed_event_sodos_with_unpaired_rounds() -> None:
    ours, theirs = standgen_values(fixed_event()), opengotha(
        FIXED_PEOPLE, FIXED_ROUNDS, FIXED_OPTIONS)
    assert {p: v["sodos"] for p, v in ours.items()} == {
        p: v["sodos"] for p, v in theirs.items()}


def test_round_down_off_keeps_half_points() -> None:
    values = standgen_values(fixed_event(round_down=False))
    assert values["eve"]["score"] == 22.5
    assert values["fay"]["score"] == 11.5


RANKS = ["25k", "15k", "8k", "2k", "1d", "3d", "6d"]


@st.composite
def mcmahon_events(draw: st.DrawFn) -> tuple[list[Player], list[list[Row]], dict[str, Any],
                                             bool]:
    n = draw(st.integers(4, 9))
    people = [player(f"p{k}", rank=draw(st.sampled_from(RANKS)),
                     mms_correction=draw(st.sampled_from([0, 0, 1, -1]))) for k in range(n)]
    rng = random.Random(draw(st.integers(0, 10**6)))
    unpaired_allowed = draw(st.booleans())
    handicaps = draw(st.booleans())
    rounds: list[list[Row]] = []
    for _ in range(draw(st.integers(1, 4))):
        ids = [p.id for p in people]
        rng.shuffle(ids)
        rows: list[Row] = []
        if unpaired_allowed and rng.random() < 0.5:
            rows.append((ids.pop(), "ABSENT", ""))
        if len(ids) % 2:
            rows.append((ids.pop(), "BYE", "") if unpaired_allowed else (ids.pop(), "ABSENT", ""))
        while ids:
            a, b = ids.pop(), ids.pop()
            row: Row = (a, b, rng.choice(["1-0", "0-1", "draw", "+-", "-+", "1-0"]))
            if handicaps:  # White (player_1) gives the stones; 0 is an even game
                row += (rng.choice([0, 0, 1, 2, 3, 5, 9]),)
            rows.append(row)
        rounds.append(rows)
    if not unpaired_allowed:
        rounds = [[r for r in rows if r[1] not in ("BYE", "ABSENT")] for rows in rounds]
        people = [p for p in people if all(
            any(p.id in r[:2] for r in rows) for rows in rounds)]
        rounds = [[r for r in rows if r[0] in {p.id for p in people}
                   and r[1] in {p.id for p in people}] for rows in rounds]
    options: dict[str, Any] = {
        "mms_zero": draw(st.sampled_from(["30k", "20k", "1d"])),
        "round_down": draw(st.booleans()),
        "bye_points": draw(st.sampled_from([1, 0.5, 0])),
        "absent_points": draw(st.sampled_from([0.5, 0, 1])),
    }
    if draw(st.booleans()):
        options["bar"] = draw(st.sampled_from(["1d", "3d", "2k"]))
    if draw(st.booleans()):
        options["floor"] = draw(st.sampled_from(["20k", "10k"]))
    return people, rounds, options, unpaired_allowed


@settings(deadline=None, max_examples=60)
@given(mcmahon_events())
def test_opengotha_random_events(case: tuple[list[Player], list[list[Row]],
                                             dict[str, Any], bool]) -> None:
    """MMS, SOS, SOS-1, SOS-2, SOSOS and SODOS equal OpenGotha's on random events (with
    byes and absences: OpenGotha's SODOS adds 0 for an unpaired round; with handicap
    games: OpenGotha corrects the opponent's MMS by the stones)."""
    people, rounds, options, unpaired = case
    if len(people) < 2:
        return
    event = go_event(people, rounds, options)
    ours, theirs = standgen_values(event), opengotha(people, rounds, options)
    checked = ["score", "sos", "sosos", "sos-cut1", "sos-cut2", "sodos"]
    for tiebreak in checked:
        assert {p: v[tiebreak] for p, v in ours.items()} == pytest.approx(
            {p: v[tiebreak] for p, v in theirs.items()}), tiebreak


# --- handicap games: OpenGotha corrects the opponent's MMS in SOS ---------------------

HANDICAP_PEOPLE = [player("ann", rank="1d"), player("bob", rank="3k"),
                   player("cat", rank="5k"), player("dan", rank="5k")]
# (White, Black, result, stones White gave)
HANDICAP_ROUNDS: list[list[Row]] = [
    [("ann", "bob", "1-0", 2), ("cat", "dan", "1-0", 0)],
    [("ann", "cat", "0-1", 4), ("bob", "dan", "1-0", 1)],
]


def handicap_standings() -> Any:
    return compute_standings(go_event(HANDICAP_PEOPLE, HANDICAP_ROUNDS, {"handicap": True}))


def test_handicap_corrects_sos_by_hand() -> None:
    """OpenGotha ``fillBaseScoringInfo`` 4.2: ``osmX2 += 2 * handicap`` for White,
    ``-= 2 * handicap`` for Black.

    Starting MMS (zero 30k): ann 30, bob 27, cat 25, dan 25; final: ann 31, bob 28,
    cat 27, dan 25. Ann gave 2 stones to Bob and 4 to Cat: her opponents count 28 + 2 and
    27 + 4, SOS 61 (55 without the correction). Bob took 2 from Ann (31 − 2) and gave 1
    to Dan (25 + 1): 55. Cat: Dan 25 (even) + Ann 31 − 4 = 52. Dan: Cat 27 + Bob 28 − 1
    = 54. SODOS weighs the corrected score: Ann beat Bob, 30; Cat beat Dan and Ann,
    25 + 27 = 52; Bob beat Dan, 26. SOSOS sums the opponents' corrected SOS: Ann
    55 + 52 = 107. SOS-1 (two rounds) keeps the higher: Ann 31.
    """
    ctx = handicap_standings().context

    def value(tb: str, pid: str) -> float:
        return TIEBREAKS[tb].compute(ctx, pid).value

    assert {p: ctx.scores[p] for p in "ann bob cat dan".split()} == {
        "ann": 31, "bob": 28, "cat": 27, "dan": 25}
    assert {p: value("sos", p) for p in "ann bob cat dan".split()} == {
        "ann": 61, "bob": 55, "cat": 52, "dan": 54}
    assert {p: value("sodos", p) for p in "ann bob cat dan".split()} == {
        "ann": 30, "bob": 26, "cat": 52, "dan": 0}
    assert value("sosos", "ann") == 55 + 52
    assert value("sos-cut1", "ann") == 31
    assert value("sos-cut1", "bob") == 29  # 31 − 2 is higher than 25 + 1


def test_handicap_event_equals_opengotha() -> None:
    ours = standgen_values(go_event(HANDICAP_PEOPLE, HANDICAP_ROUNDS, {"handicap": True}))
    theirs = opengotha(HANDICAP_PEOPLE, HANDICAP_ROUNDS, {"handicap": True})
    assert ours == theirs


def test_handicap_correction_shows_in_the_breakdown() -> None:
    """The player page names the correction in each game's part."""
    from standgen.site.player_contexts import breakdown

    ctx = handicap_standings().context
    names = {p.id: p.name for p in HANDICAP_PEOPLE}

    def text(tb: str, pid: str) -> str:
        return breakdown("X", tb, "", TIEBREAKS[tb].compute(ctx, pid), names).text

    assert text("sos", "ann") == ("X 61 = 30 (Bob, R1, 28 + 2 handicap as White) + "
                                  "31 (Cat, R2, 27 + 4 handicap as White)")
    assert text("sos", "cat") == "X 52 = 25 (Dan, R1) + 27 (Ann, R2, 31 − 4 handicap as Black)"
    assert text("sodos", "ann") == ("X 30 = 30 (Bob, R1, won: (28 + 2 handicap as White) × 1)"
                                    " + 0 (Cat, R2, lost: (27 + 4 handicap as White) × 0)")
    assert text("sos-cut1", "bob") == (
        "X 29 = 29 (Ann, R1, 31 − 2 handicap as Black) + "
        "[cut: 26 (Dan, R2, 25 + 1 handicap as White; cut: least significant)] lowest 1 cut")


def test_handicap_forfeit_is_corrected_and_byes_are_not() -> None:
    """A forfeit is a paired game in OpenGotha (corrected); a bye's virtual opponent on the
    player's starting MMS has no game and no handicap."""
    people = [player("ann", rank="1d"), player("bob", rank="5k"), player("cat", rank="5k")]
    rounds: list[list[Row]] = [[("ann", "bob", "+-", 3), ("cat", "BYE", "")]]
    ctx = compute_standings(go_event(people, rounds, {})).context
    parts = TIEBREAKS["sos"].compute(ctx, "bob").parts
    assert [(p.value, p.note) for p in parts] == [(31 - 3, "forfeit; 31 − 3 handicap as Black")]
    assert TIEBREAKS["sos"].compute(ctx, "cat").value == 25  # own starting MMS, no correction
    assert opengotha(people, rounds, {})["bob"]["sos"] == 28


def test_even_games_and_other_formats_have_no_correction() -> None:
    """A handicap of 0 changes nothing, and only McMahon's policy corrects per game."""
    even = [[row[:3] + (0,) for row in rows] for rows in HANDICAP_ROUNDS]
    with_zero = standgen_values(go_event(HANDICAP_PEOPLE, even, {}))
    without = standgen_values(go_event(
        HANDICAP_PEOPLE, [[row[:3] for row in rows] for rows in HANDICAP_ROUNDS], {}))
    assert with_zero == without
    assert with_zero["ann"]["sos"] == 55
    assert [fid for fid, fmt in FORMATS.items()
            if fmt.policy.game_adjustment is not None] == ["mcmahon"]


def test_cumulative_starts_from_the_starting_mms_as_opengotha_cussm() -> None:
    """OpenGotha CUSSM sums the McMahon score after each round, starting MMS included."""
    people = [player("dan", rank="1d"), player("kim", rank="1d")]
    rows = [[("dan", "kim", "1-0")], [("dan", "kim", "0-1")]]
    event = make_event(people, rows, fmt="mcmahon", rounds=2)
    ctx = compute_standings(event).context
    # 1d starts on 30 (zero at 30k): dan 31 after round 1, 31 after round 2
    assert TIEBREAKS["cumulative"].compute(ctx, "dan").value == 31 + 31
    assert TIEBREAKS["cumulative"].compute(ctx, "kim").value == 30 + 31


def test_player_pages_show_the_running_mcmahon_score() -> None:
    """The player page's running score and chart count from the starting MMS."""
    from standgen.pipeline import report
    from standgen.site.player_contexts import running_scores

    people = [player("dan", rank="1d"), player("kim", rank="2k")]
    rows = [[("dan", "kim", "1-0")], [("dan", "kim", "0-1")]]
    r = report(make_event(people, rows, fmt="mcmahon", rounds=2))
    assert running_scores(r, "dan") == [(1, 31.0), (2, 31.0)]
    assert running_scores(r, "kim") == [(1, 28.0), (2, 29.0)]
