"""Stages (issue #31): the cut after the Swiss, on the rules' own examples.

Magic Tournament Rules 10.4: a top 8 is paired 1v8, 4v5, 2v7, 3v6, then the winners of
1v8 and 4v5 meet, and those of 2v7 and 3v6; brackets are padded to the next power of two
with byes to the top seeds (a cut of 12: seeds 1-4 wait for round 2).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from standgen.build import pair
from standgen.errors import InputError
from standgen.load import load_tree
from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Player, Round, Seat
from standgen.stages.bracket import double_elimination, seed_order, single_elimination
from standgen.stages.cut import Cut, qualifiers
from standgen.stages.progress import cut_order, pair_cut_round, play
from standgen.standings import compute_standings, cut_state


def first_round_pairs(size: int) -> list[tuple[int, int]]:
    """Return the seeds of each first-round match of a single-elimination bracket."""
    return [(m.a.seed, m.b.seed) for m in single_elimination(size).matches if m.round == 1]


def test_mtr_10_4_top_8() -> None:
    """MTR 10.4: "1v8, 4v5, 2v7, 3v6", then "1/8 v 4/5" and "2/7 v 3/6"."""
    assert first_round_pairs(8) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    bracket = single_elimination(8)
    by_id = {m.id: m for m in bracket.matches}
    second = [m for m in bracket.matches if m.round == 2]
    assert [{by_id[m.a.winner_of].a.seed, by_id[m.b.winner_of].a.seed} for m in second] == [
        {1, 4}, {2, 3}]
    assert bracket.rounds == 3 and by_id["F"].round == 3


def test_standard_8_and_16_seed_layouts() -> None:
    """The standard layouts: every first-round pair adds up to size + 1, seeds 1 and 2 are
    in opposite halves, 1-4 in four quarters."""
    assert seed_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert seed_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    assert first_round_pairs(16) == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10),
                                     (3, 14), (6, 11)]
    for size in (4, 8, 16, 32, 64):
        order = seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(order[k] + order[k + 1] == size + 1 for k in range(0, size, 2))
        half = size // 2
        assert (1 in order[:half]) != (2 in order[:half])


def event_of(ids: Sequence[str], rounds: Sequence[Round] = ()) -> Event:
    config = EventConfig("Cut", dt.date(2026, 5, 1), "swiss")
    return Event(("cut",), config, tuple(Player(p, p.upper()) for p in ids), tuple(rounds))


def test_a_12_player_cut_gives_4_byes_to_seeds_1_to_4() -> None:
    seeds = [f"s{k:02}" for k in range(1, 13)]
    state = play(single_elimination(12), seeds, 5, [])
    proposal = pair_cut_round(event_of(seeds), state, 6)
    games = proposal.round.games
    byes = [g.players[0] for g in games if g.kind is GameKind.BYE]
    assert byes == ["s01", "s04", "s02", "s03"]
    assert [g.players for g in games if g.kind is GameKind.PLAYED] == [
        ("s08", "s09"), ("s05", "s12"), ("s07", "s10"), ("s06", "s11")]
    assert "seed 1, seed 4, seed 2, seed 3" in " ".join(proposal.notes)
    # round 2: seed 1 meets the winner of 8v9
    won = Round(6, tuple(Game(6, g.table, (Seat(g.players[0], Outcome.WIN),
                                           Seat(g.players[1], Outcome.LOSS)))
                         for g in games if g.kind is GameKind.PLAYED))
    after = play(single_elimination(12), seeds, 5, [won])
    second = pair_cut_round(event_of(seeds, [won]), after, 7).round.games
    assert [g.players for g in second] == [("s01", "s08"), ("s04", "s05"), ("s02", "s07"),
                                          ("s03", "s06")]


def result_round(number: int, winners: dict[tuple[str, str], str]) -> Round:
    return Round(number, tuple(
        Game(number, k, (Seat(a, Outcome.WIN if winners[(a, b)] == a else Outcome.LOSS),
                         Seat(b, Outcome.WIN if winners[(a, b)] == b else Outcome.LOSS)))
        for k, (a, b) in enumerate(winners, start=1)))


def run(bracket_of: Callable[[int], object], seeds: list[str], pick: Callable[[str, str], str],
        after: int = 3) -> tuple[list[Round], object]:
    """Play a bracket to its end, ``pick`` choosing each game's winner."""
    rounds: list[Round] = []
    bracket = bracket_of(len(seeds))
    number = after
    state = play(bracket, seeds, after, rounds)  # type: ignore[arg-type]
    while not state.finished:
        number += 1
        proposal = pair_cut_round(event_of(seeds, rounds), state, number)
        played = {g.players: pick(*g.players) for g in proposal.round.games
                  if g.kind is GameKind.PLAYED}
        rounds.append(result_round(number, played))
        state = play(bracket, seeds, after, rounds)  # type: ignore[arg-type]
    return rounds, state


def test_final_standings_by_round_out_then_swiss_rank() -> None:
    """The issue: "final standings order the cut players by the round they went out, then
    by their Swiss rank". Seed 8 beats seed 1, then loses the semi-final."""
    seeds = [f"s{k}" for k in range(1, 9)]

    def pick(a: str, b: str) -> str:
        return "s8" if "s8" in (a, b) and "s4" not in (a, b) else min(a, b)

    _, state = run(single_elimination, seeds, pick)
    swiss = [*seeds, "x1", "x2"]
    order = cut_order(state, swiss)  # type: ignore[arg-type]
    # final s2 beats s4? no: the final is s4 (beat s8) v s2; min("s2","s4") = s2 wins
    assert order[:2] == ("s2", "s4")
    assert order[2:4] == ("s3", "s8")  # semi-final losers by Swiss rank
    assert order[4:8] == ("s1", "s5", "s6", "s7")  # quarter-final losers by Swiss rank
    assert order[8:] == ("x1", "x2")


def test_third_place_match_orders_the_semi_final_losers() -> None:
    seeds = [f"s{k}" for k in range(1, 9)]
    _, state = run(lambda n: single_elimination(n, third_place=True), seeds,
                   lambda a, b: "s4" if "s4" in (a, b) and "s1" not in (a, b) else min(a, b))
    order = cut_order(state, seeds)  # type: ignore[arg-type]
    # semis: s1 v s4 -> s1; s2 v s3 -> s2. Third place: s4 beats s3 (s4 wins unless v s1)
    assert order[:4] == ("s1", "s2", "s4", "s3")


def test_double_elimination_nobody_is_out_after_one_loss() -> None:
    seeds = ["a", "b", "c", "d"]
    losses: dict[str, int] = {}

    met: list[str] = []

    def pick(x: str, y: str) -> str:  # d beats a the first time they meet, not after
        if {x, y} == {"a", "d"}:
            met.append("ad")
            return "d" if len(met) == 1 else "a"
        return min(x, y)

    rounds, state = run(double_elimination, seeds, pick)
    for rnd in rounds:
        for g in rnd.games:
            loser = next(s.player for s in g.seats if s.outcome is Outcome.LOSS)
            losses[loser] = losses.get(loser, 0) + 1
            assert losses[loser] <= 2
    # a lost to d in round 1, won the losers' side, then beat d twice in the grand finals
    assert state.champion == "a"  # type: ignore[attr-defined]
    assert state.state("GF2").skipped is False  # type: ignore[attr-defined]
    assert sorted(v for k, v in losses.items() if k != "a") == [2, 2, 2]


def test_the_grand_final_reset_is_not_played_when_the_winners_side_wins() -> None:
    seeds = ["a", "b", "c", "d"]
    rounds, state = run(double_elimination, seeds, min)
    assert state.champion == "a" and state.state("GF2").skipped  # type: ignore[attr-defined]
    assert len(rounds) == double_elimination(4).rounds - 1


def test_who_goes_through_and_the_tie_at_the_cut_line() -> None:
    order = ["a", "b", "c", "d", "e"]
    scores = {"a": 4.0, "b": 3.0, "c": 3.0, "d": 3.0, "e": 1.0}
    ranks = {"a": 1, "b": 2, "c": 3, "d": 3, "e": 5}  # c and d tied on every tiebreak
    assert qualifiers(Cut(3, top=2), order, scores, ranks) == ("a", "b")
    assert qualifiers(Cut(3, top=3), order, scores, ranks) == ("a", "b", "c", "d")
    assert qualifiers(Cut(3, top=2, ties="score"), order, scores, ranks) == (
        "a", "b", "c", "d")
    assert qualifiers(Cut(3, min_score=3), order, scores, ranks) == ("a", "b", "c", "d")


EVENT = 'name = "Cut"\ndate = 2026-05-01\nformat = "swiss"\nrounds = 6\nseed = 3\n'


def fill(text: str, pick: Callable[[str, str], str] = min) -> str:
    rows = list(csv.reader(io.StringIO(text)))
    head = rows[0]
    for row in rows[1:]:
        a, b = row[head.index("player_1")], row[head.index("player_2")]
        if b != "BYE":
            row[head.index("result")] = "1-0" if pick(a, b) == a else "0-1"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def test_standgen_pair_runs_a_top_8_cut_after_three_swiss_rounds(
    tree: Callable[..., Path],
) -> None:
    players = "id,name\n" + "".join(f"p{k:02},P{k:02}\n" for k in range(10))
    root = tree({"cut/event.toml": EVENT + "\n[options.cut]\nafter_round = 3\ntop = 8\n",
                 "cut/players.csv": players}, base=False)
    folder = root / "cut"
    for _ in range(3):
        paired = pair(folder, root)
        paired.path.write_text(fill(paired.text), encoding="utf-8")
    event = load_tree(root).events[0]
    swiss = [row.player.id for row in compute_standings(event, upto=3).rows]
    state = cut_state(event)
    assert state is not None and state.seeds == tuple(swiss[:8])
    paired = pair(folder, root)  # round 4: the quarter-finals
    s = swiss
    assert [g.players for g in paired.round.games] == [
        (s[0], s[7]), (s[3], s[4]), (s[1], s[6]), (s[2], s[5])]
    for _ in range(2):
        paired.path.write_text(fill(paired.text, pick=lambda a, b: a), encoding="utf-8")
        paired = pair(folder, root)
    assert [g.players for g in paired.round.games] == [(s[0], s[1])]  # the final
    paired.path.write_text(fill(paired.text, pick=lambda a, b: b), encoding="utf-8")
    final = compute_standings(load_tree(root).events[0])
    assert final.finished
    assert [r.player.id for r in final.rows][:4] == [s[1], s[0], s[2], s[3]]
    assert [r.rank for r in final.rows][:8] == list(range(1, 9))
    # the Swiss scores stop at round 3: the cut's games do not count in them
    assert final.context.scores == compute_standings(event, upto=3).context.scores
    with pytest.raises(InputError, match="event is over"):
        pair(folder, root)


@pytest.mark.parametrize(("cut", "line", "expected"), [
    ("after_round = 3\n", 7, "needs one of top = N"),
    ("after_round = 3\ntop = 1\n", 9, "top must be a whole number from 2"),
    ("after_round = 6\ntop = 4\n", 8, "leaves no round for the cut"),
    ('after_round = 3\ntop = 4\nbracket = "triple"\n', 10, "bracket 'triple' is unknown"),
    ('after_round = 3\ntop = 4\nbracket = "double"\nthird_place = true\n', 11,
     "third_place is for a single-elimination"),
    ("after_round = 3\ntop = 4\nsize = 4\n", 10, "has no key 'size'"),
])
def test_bad_cut_options_name_the_line_and_what_to_do(
    tree: Callable[..., Path], cut: str, line: int, expected: str,
) -> None:
    root = tree({"cut/event.toml": EVENT + "\n[options.cut]\n" + cut,
                 "cut/players.csv": "id,name\na,A\nb,B\n"}, base=False)
    with pytest.raises(InputError) as info:
        load_tree(root)
    (problem,) = info.value.problems
    assert problem.line == line and expected in problem.message
    assert problem.path.endswith("cut/event.toml")


def test_the_bracket_page_and_json_and_the_event_page_link(tree: Callable[..., Path],
                                                           tmp_path: Path) -> None:
    """Issue #31: bracket pages, "the winner at the top of the event page, JSON beside
    them"; the demo's Diplomacy top board is a stage with the same page."""
    import json
    import shutil

    from standgen.build import build

    players = "id,name\n" + "".join(f"p{k:02},P{k:02}\n" for k in range(6))
    root = tree({"cut/event.toml": EVENT + "\n[options.cut]\nafter_round = 2\ntop = 4\n",
                 "cut/players.csv": players}, base=False)
    for _ in range(4):
        paired = pair(root / "cut", root)
        paired.path.write_text(fill(paired.text), encoding="utf-8")
    shutil.copytree(Path(__file__).resolve().parent.parent / "events" / "2026" / "diplomacy-open",
                    root / "dip")
    site = tmp_path / "site"
    build(root, site)
    document = json.loads((site / "cut" / "bracket.json").read_text(encoding="utf-8"))
    standings = compute_standings(load_tree(root).events[0])
    winner = standings.rows[0].player
    assert document["kind"] == "single" and document["winner"]["id"] == winner.id
    assert [r["round"] for r in document["rounds"]] == [3, 4]
    assert [len(r["matches"]) for r in document["rounds"]] == [2, 1]
    event_html = (site / "cut" / "index.html").read_text(encoding="utf-8")
    assert f'href="bracket/index.html">Winner: {winner.name} (top 4 cut)</a>' in event_html
    page = (site / "cut" / "bracket" / "index.html").read_text(encoding="utf-8")
    assert page.index("bracket-winner") < page.index("bracket-round")
    top_board = json.loads((site / "dip" / "bracket.json").read_text(encoding="utf-8"))
    assert top_board["kind"] == "in-round final" and top_board["title"] == "Top board"
    (final,) = top_board["rounds"]
    assert final["round"] == 4 and len(final["matches"][0]["players"]) == 7
    assert top_board["winner"]["id"] == compute_standings(
        load_tree(root).events[1]).rows[0].player.id


@pytest.mark.parametrize("size", [4, 8])
@pytest.mark.parametrize("reset", [False, True])
def test_double_elimination_labels_the_grand_final_and_its_reset(size: int,
                                                                 reset: bool) -> None:
    """The grand final ("final") and its second game ("reset") are named by their section,
    not looked up among the winners' and losers' sides (a KeyError('final') on main)."""
    from standgen.site.stages import _match_label, _round_title

    seeds = [f"s{k}" for k in range(1, size + 1)]
    _, state = run(double_elimination, seeds, losers_side_wins() if reset else min)
    labels = {m.match.id: _match_label(state, m)  # type: ignore[attr-defined]
              for m in state.matches}  # type: ignore[attr-defined]
    assert labels["GF"] == "Grand final"
    assert labels["GF2"] == "Grand final, second game"
    assert state.state("GF2").skipped is (not reset)  # type: ignore[attr-defined]
    assert labels["W1-1"] == "Winners' side, match 1"
    assert labels["L1-1"] == "Losers' side, match 1"
    grand = state.state("GF").match.round  # type: ignore[attr-defined]
    assert _round_title(state, grand) == "grand final"  # type: ignore[arg-type]
    assert _round_title(state, grand + 1) == "grand final, second game"  # type: ignore[arg-type]


def losers_side_wins() -> Callable[[str, str], str]:
    """Return a pick for a double-elimination bracket whose grand final needs its second
    game: a player with one loss beats one with none (the losers' side champion wins the
    grand final), otherwise the first in order wins."""
    lost: set[str] = set()

    def pick(a: str, b: str) -> str:
        winner = a if (a in lost) > (b in lost) else b if (b in lost) > (a in lost) else min(a, b)
        lost.add(b if winner == a else a)
        return winner

    return pick


def double_cut_site(tree: Callable[..., Path], tmp_path: Path, size: int, reset: bool,
                    language: str) -> Path:
    """Play a double-elimination cut of ``size`` to its end through ``standgen pair`` and
    build it with ``standgen build``: with ``reset`` the losers' side wins the grand
    final, so its second game is played (``losers_side_wins``)."""
    from click.testing import CliRunner

    from standgen.cli import main

    swiss = 3
    rounds = swiss + double_elimination(size).rounds
    players = "id,name\n" + "".join(f"p{k:02},P{k:02}\n" for k in range(size + 2))
    event = EVENT.replace("rounds = 6", f"rounds = {rounds}")
    root = tree({"cut/event.toml": event + f'\n[options.cut]\nafter_round = {swiss}\n'
                 f'top = {size}\nbracket = "double"\n',
                 "cut/players.csv": players,
                 "site.toml": f'title = "Club"\nlanguage = "{language}"\n'}, base=False)
    cut_pick = losers_side_wins() if reset else min
    for number in range(1, rounds + 1):
        if compute_standings(load_tree(root).events[0]).finished:
            break
        paired = pair(root / "cut", root)
        paired.path.write_text(fill(paired.text, cut_pick if number > swiss else min),
                               encoding="utf-8")
    state = cut_state(load_tree(root).events[0])
    assert state is not None and state.finished
    assert state.state("GF2").skipped is (not reset)
    site = tmp_path / f"site-{language}"
    result = CliRunner().invoke(main, ["build", str(root), "-o", str(site)])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "KeyError" not in result.output
    return site


@pytest.mark.parametrize("size", [4, 8])
@pytest.mark.parametrize("reset", [False, True])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_double_elimination_cut_builds_its_grand_final_and_reset(
    tree: Callable[..., Path], tmp_path: Path, size: int, reset: bool, language: str,
) -> None:
    """`standgen build` of a double-elimination cut played to the grand final (and its
    second game when the losers' side wins the first): the bracket page names both, in
    English and in a translated site, and the JSON beside it has every round."""
    import json

    site = double_cut_site(tree, tmp_path, size, reset, language)
    page = (site / "cut" / "bracket" / "index.html").read_text(encoding="utf-8")
    assert "Grand final</p>" in page or "Grand final <span" in page
    assert ("Grand final, second game" in page) is reset
    assert "Traceback" not in page
    document = json.loads((site / "cut" / "bracket.json").read_text(encoding="utf-8"))
    assert document["kind"] == "double"
    played = double_elimination(size).rounds - (0 if reset else 1)
    assert len(document["rounds"]) == played
    labels = [m["label"] for r in document["rounds"] for m in r["matches"]]
    assert labels.count("Grand final") == 1
    assert labels.count("Grand final, second game") == (1 if reset else 0)
