"""Byes teams ask for, through the CLI (issue #34; docs/teams.md, "Byes teams ask for").

The TO writes a team's requested bye in ``teams-round-N.csv`` before the round is paired
(a row with ``team_2`` empty and a ``result``: ``1-0``, ``draw`` or ``0-1``); ``standgen
pair`` then pairs round N without those teams (FIDE C.04.1 c, which C.04.6's preface
applies to teams: "the players to be paired"), keeps their rows, gives the pairing's bye
only to a team present, and ``--redo`` keeps them too. A chess team event (FIDE C.04.6)
and a wargame team event (the team Swiss on Wins) both do.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from standgen.eventday import load
from standgen.standings import compute_standings
from standgen.trf import export_event
from tests.test_team_c046 import chess_team_event, type_results
from tests.test_team_go import go_team_event
from tests.test_team_matches import rows_of, team_event, type_games
from tests.test_teams import cli

HEADER = "match,team_1,team_2,result\n"


def _ask(folder: Path, number: int, byes: list[tuple[str, str]]) -> None:
    """Write round ``number``'s teams-round file holding only the byes asked for."""
    (folder / f"teams-round-{number}.csv").write_text(
        HEADER + "".join(f"{k},{team},,{result}\n"
                         for k, (team, result) in enumerate(byes, start=1)),
        encoding="utf-8")


def _rows(folder: Path, number: int) -> list[tuple[str, str, str]]:
    return [(m["team_1"], m["team_2"], m.get("result") or "")
            for m in rows_of(folder / f"teams-round-{number}.csv")]


def _players(folder: Path, number: int) -> set[str]:
    return {p for g in rows_of(folder / f"round-{number}.csv")
            for p in (g["player_1"], g["player_2"]) if p != "BYE"}


def test_a_chess_team_that_asked_for_a_bye_is_not_paired(tmp_path: Path) -> None:
    folder = chess_team_event(tmp_path)
    _ask(folder, 1, [("c2", "draw")])
    code, out = cli("check", str(tmp_path / "events"))
    assert code == 0, out  # the request alone is a valid file
    code, out = cli("pair", str(folder))
    assert code == 0, out
    assert "bye asked for (draw): Paris" in out and "team bye" not in out
    rows = _rows(folder, 1)
    # four teams present (TPN 1, 3, 4, 5): one bracket, 1-4 and 3-5 (C.04.6 3.6.2)
    assert {frozenset(r[:2]) for r in rows if r[1]} == {frozenset({"c1", "c4"}),
                                                        frozenset({"c3", "c5"})}
    assert ("c2", "", "draw") in rows and len(rows) == 3
    assert not any(p.startswith("c2-") for p in _players(folder, 1))  # no games, no BYE
    assert all(g["player_2"] != "BYE" for g in rows_of(folder / "round-1.csv"))
    code, out = cli("check", str(tmp_path / "events"))
    assert code == 0 and "--redo" not in out, out
    # --redo keeps the requested bye
    code, out = cli("pair", str(folder), "--redo", "1")
    assert code == 0, out
    assert _rows(folder, 1) == rows


def test_the_pairing_allocated_bye_goes_to_a_team_present(tmp_path: Path) -> None:
    folder = chess_team_event(tmp_path)
    assert cli("pair", str(folder))[0] == 0
    assert ("c5", "", "") in _rows(folder, 1)  # round 1's PAB: the largest TPN (3.4.4)
    type_results(folder, 1)
    # round 2: Łódź and Stuttgart ask (a full point, none); three teams left, one PAB
    _ask(folder, 2, [("c1", "1-0"), ("c3", "0-1")])
    code, out = cli("pair", str(folder))
    assert code == 0, out
    rows = _rows(folder, 2)
    pab = [r[0] for r in rows if not r[1] and not r[2]]
    assert len(pab) == 1 and pab[0] not in {"c1", "c3", "c5"}  # c5 had it ([C2])
    assert ("c1", "", "1-0") in rows and ("c3", "", "0-1") in rows
    assert sum(1 for r in rows if r[1]) == 1
    byes = [g["player_1"] for g in rows_of(folder / "round-2.csv") if g["player_2"] == "BYE"]
    assert sorted(byes) == [f"{pab[0]}-{b}" for b in range(1, 5)]
    code, out = cli("check", str(tmp_path / "events"))
    assert code == 0 and "--redo" not in out, out


def test_a_request_does_not_pair_past_an_unfinished_round(tmp_path: Path) -> None:
    folder = chess_team_event(tmp_path)
    assert cli("pair", str(folder))[0] == 0
    _ask(folder, 2, [("c1", "draw")])
    code, out = cli("status", str(folder))
    assert "round 2 is not paired yet, byes asked for: Łódź; run standgen pair" in out, out
    code, out = cli("pair", str(folder))
    assert code == 2 and "do not have all their games and results" in out, out
    assert _rows(folder, 2) == [("c1", "", "draw")]  # the request is left as written
    type_results(folder, 1)
    code, out = cli("pair", str(folder))
    assert code == 0, out
    assert ("c1", "", "draw") in _rows(folder, 2)
    assert not any(p.startswith("c1-") for p in _players(folder, 2))


def test_a_requested_bye_is_not_the_pairing_allocated_bye(tmp_path: Path) -> None:
    """A team that had a full-point bye it asked for may still get the PAB (C.04.6 [C2]
    bars only a team that had the PAB or won a match by forfeit)."""
    folder = chess_team_event(tmp_path, rounds=3)
    _ask(folder, 1, [("c5", "1-0")])
    assert cli("pair", str(folder))[0] == 0
    type_results(folder, 1, "½-½")
    assert cli("pair", str(folder))[0] == 0  # five teams: a PAB
    rows = _rows(folder, 2)
    # every team but c5 has 1 MP from a drawn match, c5 2 from its bye: the PAB goes to
    # the lowest score, most matches played, largest TPN: c4, not c5
    assert ("c4", "", "") in rows, rows


def test_a_wargame_team_that_asked_for_a_bye_is_not_paired(tmp_path: Path) -> None:
    folder = team_event(tmp_path, 5, 3)
    _ask(folder, 1, [("deu", "draw")])
    code, out = cli("pair", str(folder))
    assert code == 0, out
    assert "bye asked for (draw)" in out and "team bye:" not in out
    rows = _rows(folder, 1)
    assert ("deu", "", "draw") in rows and sum(1 for r in rows if r[1]) == 2
    assert "deu" not in {t for r in rows if r[1] for t in r[:2]}
    assert not (folder / "round-1.csv").exists()  # no team bye: nothing to write yet
    type_games(folder, 1)
    code, out = cli("check", str(tmp_path / "events"))
    assert code == 0, out
    # round 2: two teams ask; three left, the team bye to one of them
    _ask(folder, 2, [("pol", "1-0"), ("fra", "0-1")])
    code, out = cli("pair", str(folder))
    assert code == 0, out
    rows = _rows(folder, 2)
    bye = [r[0] for r in rows if not r[1] and not r[2]]
    assert len(bye) == 1 and bye[0] not in {"pol", "fra"}
    games = rows_of(folder / "round-2.csv")
    assert sorted(g["player_1"] for g in games) == [f"{bye[0]}-{k}" for k in (1, 2, 3)]
    assert [g["table"] for g in games] == ["4", "5", "6"]  # after the one match's games
    code, out = cli("pair", str(folder), "--redo", "2")
    assert code == 0, out
    assert ("pol", "", "1-0") in _rows(folder, 2) and ("fra", "", "0-1") in _rows(folder, 2)


def _pairable(teams: list[str], met: set[frozenset[str]], barred: set[str]) -> bool:
    """Return whether ``teams`` can be paired without a rematch, with a bye (odd) to a
    team not ``barred``: C.04.6's absolute criteria, by plain enumeration."""
    if len(teams) % 2:
        return any(_pairable([t for t in teams if t != bye], met, barred)
                   for bye in teams if bye not in barred)
    if not teams:
        return True
    top, rest = teams[0], teams[1:]
    return any(_pairable([t for t in rest if t != other], met, barred)
               for other in rest if frozenset((top, other)) not in met)


@pytest.mark.parametrize("seed", range(4))
def test_random_requests_leave_every_other_team_paired_once(tmp_path: Path,
                                                            seed: int) -> None:
    """Property: in every round, the teams that asked are in no match and keep their
    rows; every other team is in exactly one match or has the PAB; at most one PAB, to a
    team present that had none; and ``check`` stays clean."""
    rng = random.Random(seed)
    folder = chess_team_event(tmp_path, rounds=4)
    teams = [f"c{k}" for k in range(1, 6)]
    pabs: set[str] = set()
    met: set[frozenset[str]] = set()
    for number in range(1, 5):
        asked = [(t, rng.choice(["1-0", "draw", "0-1"]))
                 for t in rng.sample(teams, rng.randint(0, 2))]
        if asked:
            _ask(folder, number, asked)
        away = {t for t, _ in asked}
        code, out = cli("pair", str(folder))
        if code == 2 and "the Chief Arbiter decides" in out:  # 3.3.3, only when none is
            assert not _pairable([t for t in teams if t not in away], met, pabs), out
            return
        assert code == 0, out
        rows = _rows(folder, number)
        met |= {frozenset(r[:2]) for r in rows if r[1]}
        assert {(t, "", r) for t, r in asked} <= set(rows)
        paired = [t for r in rows if r[1] for t in r[:2]]
        pab = [r[0] for r in rows if not r[1] and not r[2]]
        assert not away & set(paired) and not away & set(pab)
        assert sorted(paired + pab) == sorted(set(teams) - away)
        assert len(pab) == (len(teams) - len(away)) % 2
        assert not set(pab) & pabs
        pabs |= set(pab)
        type_results(folder, number, rng.choice(["1-0", "0-1", "½-½"]))
        code, out = cli("check", str(tmp_path / "events"))
        assert code == 0 and "--redo" not in out, out


def test_a_format_that_does_not_pair_around_requests_keeps_them(tmp_path: Path) -> None:
    """A Go team event's pairing does not leave out the teams that asked for a bye yet:
    ``pair`` refuses, names them and says what to do, and the request is left as written
    (never lost by writing the round over it)."""
    folder = go_team_event(tmp_path)
    team = rows_of(folder / "teams.csv")[0]
    _ask(folder, 1, [(team["id"], "draw")])
    code, out = cli("pair", str(folder))
    assert code == 2, out
    assert "does not leave out the teams that asked for a bye yet" in out
    assert team["name"] in out and "teams-round-1.csv:1:" in out
    assert _rows(folder, 1) == [(team["id"], "", "draw")]


def test_a_request_before_pairing_travels_in_the_trf(tmp_path: Path) -> None:
    """The ``.trf`` of an event whose next round holds only byes asked for writes them
    as that round's ``240`` (as TRF-2026 writes requests before pairing); ``import-trf``
    of it writes that round's teams-round file holding only them, which ``pair``
    completes."""
    folder = chess_team_event(tmp_path)
    assert cli("pair", str(folder))[0] == 0
    type_results(folder, 1)
    _ask(folder, 2, [("c2", "1-0"), ("c4", "draw")])
    event, _ = load(folder)
    text = export_event(event, compute_standings(event))
    assert "240 F   2    2" in text.splitlines() and "240 H   2    4" in text.splitlines()
    trf = tmp_path / "asked.trf"
    trf.write_text(text, encoding="utf-8")
    again = tmp_path / "events" / "2026" / "again"
    code, out = cli("import-trf", str(trf), str(again))
    assert code == 0, out
    ids = {m["name"]: m["id"] for m in rows_of(again / "teams.csv")}
    assert _rows(again, 2) == [(ids["Paris"], "", "1-0"), (ids["東京"], "", "draw")]
    code, out = cli("pair", str(again))
    assert code == 0, out
    rows = _rows(again, 2)
    assert (ids["Paris"], "", "1-0") in rows and sum(1 for r in rows if r[1]) == 1
