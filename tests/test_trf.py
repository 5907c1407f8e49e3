"""TRF16 (FIDE C.04 Annex 2): export, import, round trips, a file from other software."""

from __future__ import annotations

import random
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.build import import_trf
from standgen.cli import main
from standgen.errors import InputError
from standgen.formats.swiss import SWISS
from standgen.load import load_tree
from standgen.model import Event, Outcome, Player, Proposal, Round
from standgen.pairing.swiss import pair
from standgen.standings import compute_standings, pairing_input
from standgen.trf import export_event, parse_trf
from tests.build import make_event
from tests.test_swiss_pairing import play

SAMPLE = Path(__file__).parent / "data" / "sample.trf"

EVENT = """name = "Club Swiss"
date = 2026-05-02
format = "swiss"
rounds = 4
location = "Leeds"
"""
PLAYERS = """id,name,country,rating,dropped_after
ann,Ann Archer,ENG,2100,
bob,Bob Brown,SCO,1950,
cat,Cat Cole,,1800,2
dan,Dan Dune,WLS,,
eve,Eve Eden,ENG,1700,
"""
ROUNDS = {
    "round-1.csv": "table,player_1,player_2,result\n1,ann,dan,1-0\n2,eve,bob,draw\n"
                   "3,cat,BYE,\n",
    "round-2.csv": "table,player_1,player_2,result\n1,bob,ann,+-\n2,dan,cat,0-1\n"
                   "3,eve,ABSENT,draw\n",
    "round-3.csv": "table,player_1,player_2,result\n1,ann,eve,--\n2,bob,dan,0-1\n",
    "round-4.csv": "table,player_1,player_2,result\n1,dan,ann,\n2,eve,bob,\n",
}


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def only(root: Path) -> Event:
    (event,) = load_tree(root).events
    return event


def reimport(text: str, root: Path) -> Event:
    """Return the event written by import-trf from ``text`` (a fresh events tree)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "in.trf").write_text(text, encoding="utf-8")
    import_trf(root / "in.trf", root / "events" / "back", root / "events")
    return only(root / "events")


def test_export_columns_follow_trf16(tmp_path: Path) -> None:
    root = write(tmp_path / "events", {"ev/event.toml": EVENT, "ev/players.csv": PLAYERS,
                                       **{f"ev/{k}": v for k, v in ROUNDS.items()}})
    text = export_event(only(root))
    lines = text.split("\r\n")
    assert lines[:5] == ["012 Club Swiss", "022 Leeds", "042 2026/05/02", "062 5",
                         "092 Individual: Swiss-System"]
    ann = next(line for line in lines if "Ann Archer" in line)
    assert ann[0:3] == "001" and ann[4:8] == "   1" and ann[14:47].rstrip() == "Ann Archer"
    assert ann[48:52] == "2100" and ann[53:56] == "ENG"
    # round 3 is the last complete round: a win, a forfeit loss, a double forfeit
    assert ann[80:84] == " 1.0"
    assert ann[91:99] == "   5 w 1" and ann[101:109] == "   2 b -" and ann[111:119] == "   4 w -"
    cat = next(line for line in lines if "Cat Cole" in line)
    assert cat[91:99] == "0000 - U" and cat[101:109] == "   5 b 1" and len(cat) == 109
    eve = next(line for line in lines if "Eve Eden" in line)
    assert eve[101:109] == "0000 - H"
    assert "XXR 4" in lines and any(line in ("XXC white1", "XXC black1") for line in lines)


def test_exported_file_imports_back_unchanged(tmp_path: Path) -> None:
    root = write(tmp_path / "events", {"ev/event.toml": EVENT, "ev/players.csv": PLAYERS,
                                       **{f"ev/{k}": v for k, v in ROUNDS.items()}})
    original = only(root)
    text = export_event(original)
    back = reimport(text, tmp_path / "copy")
    assert export_event(back) == text
    assert [p.name for p in back.players] == ["Ann Archer", "Bob Brown", "Cat Cole",
                                              "Eve Eden", "Dan Dune"]
    assert back.player_by_id["cat-cole"].dropped_after == 2
    assert back.config.rounds == 4 and back.config.location == "Leeds"
    before = compute_standings(original, upto=3)
    after = compute_standings(back)
    assert [(r.player.name, r.rank, r.score) for r in before.rows] == [
        (r.player.name, r.rank, r.score) for r in after.rows]


def test_bye_points_and_round_robin_travel(tmp_path: Path) -> None:
    toml = EVENT + '\n[options]\nbye_points = 0.5\npairing = "round-robin"\n'
    root = write(tmp_path / "events", {"ev/event.toml": toml, "ev/players.csv": PLAYERS,
                                       "ev/round-1.csv": ROUNDS["round-1.csv"]})
    text = export_event(only(root))
    assert "XXS PAB=0.5" in text and "092 Individual: Round-Robin" in text
    back = reimport(text, tmp_path / "copy")
    assert back.config.options["bye_points"] == 0.5
    assert back.config.options["pairing"] == "round-robin"
    assert export_event(back) == text


@settings(deadline=None, max_examples=15)
@given(st.integers(min_value=2, max_value=12), st.integers(min_value=1, max_value=6),
       st.integers(min_value=0, max_value=10**6))
def test_round_trip_of_simulated_events(n: int, rounds: int, seed: int) -> None:
    rnd = random.Random(seed)
    people = [Player(id=f"p{k}", name=f"Player {k:02d}", rating=float(rnd.randint(1000, 2400)),
                     country=rnd.choice(["ENG", "FRA", ""])) for k in range(n)]
    event = make_event(people, [], fmt=SWISS.id, seed=seed, rounds=rounds)
    played: list[Round] = []
    for number in range(1, rounds + 1):
        event = Event(path=event.path, config=event.config, players=event.players,
                      rounds=tuple(played))
        games = pair(event, pairing_input(compute_standings(event)), number).round.games
        played.append(play(number, games, rnd))
    event = Event(path=event.path, config=event.config, players=event.players,
                  rounds=tuple(played))
    text = export_event(event)
    with tempfile.TemporaryDirectory() as folder:
        assert export_event(reimport(text, Path(folder))) == text


# ----- a file from other software --------------------------------------------------------


def test_sample_from_other_software_imports_with_fide_tiebreaks(tmp_path: Path) -> None:
    """tests/data/sample.trf: 6 players, 3 rounds, CR LF lines, titles, FIDE numbers.

    By hand (every game played, so FIDE C.07 art. 16 changes nothing):
    Berg 3 (beat Eriksson 0.5, Andersen 2, Fischer 1.5): Buchholz 4, cut-1 3.5,
    Sonneborn-Berger 0.5 + 2 + 1.5 = 4, progressive 1 + 2 + 3 = 6.
    Andersen 2 (beat Dvorak 0.5, lost to Berg 3, beat Costa 1.5): Buchholz 5, cut-1 4.5,
    SB 0.5 + 1.5 = 2, progressive 1 + 1 + 2 = 4.
    Fischer 1.5 (drew Costa 1.5, beat Eriksson 0.5, lost to Berg 3): Buchholz 5, cut-1
    4.5, SB 0.75 + 0.5 = 1.25; Costa 1.5 (drew Fischer, beat Dvorak 0.5, lost to
    Andersen 2): Buchholz 4, cut-1 3.5, SB 1.25: Fischer ranks above Costa on cut-1.
    Eriksson 0.5 (Berg 3, Fischer 1.5, drew Dvorak 0.5): Buchholz 5, cut-1 4.5, SB 0.25;
    Dvorak 0.5 (Andersen 2, Costa 1.5, drew Eriksson): Buchholz 4, cut-1 3.5, SB 0.25.
    """
    runner = CliRunner()
    target = tmp_path / "events" / "2026" / "nordic"
    result = runner.invoke(main, ["import-trf", str(SAMPLE), str(target),
                                  "--events", str(tmp_path / "events")])
    assert result.exit_code == 0, result.output
    assert "are not imported" in result.output  # titles, FIDE numbers: said, not silent
    event = only(tmp_path / "events")
    assert event.config.name == "Nordic Spring Rapid Open" and event.config.rounds == 3
    standings = compute_standings(event)
    table = [(row.rank, row.player.name, row.score,
              *(row.values[t].value for t in ("sos-cut1", "sos", "sb", "cumulative")))
             for row in standings.rows]
    assert table == [
        (1, "Berg, Beate", 3.0, 3.5, 4.0, 4.0, 6.0),
        (2, "Andersen, Anders", 2.0, 4.5, 5.0, 2.0, 4.0),
        (3, "Fischer, Frank", 1.5, 4.5, 5.0, 1.25, 3.5),
        (4, "Costa, Carlos", 1.5, 3.5, 4.0, 1.25, 3.5),
        (5, "Eriksson, Elin", 0.5, 4.5, 5.0, 0.25, 0.5),
        (6, "Dvorak, David", 0.5, 3.5, 4.0, 0.25, 0.5),
    ]
    # standgen's export gives back the same results, points and ranks column by column
    original = {line[4:8]: line for line in SAMPLE.read_text().splitlines()
                if line.startswith("001")}
    for line in export_event(event).split("\r\n"):
        if line.startswith("001"):
            source = original[line[4:8]]
            assert line[14:56] == source[14:56] and line[80:] == source[80:]


def test_inconsistent_pairings_are_reported_with_the_line(tmp_path: Path) -> None:
    text = SAMPLE.read_text().replace("     4 w 1     2 b 0", "     4 b 1     2 b 0")
    (tmp_path / "bad.trf").write_text(text)
    with pytest.raises(InputError) as caught:
        import_trf(tmp_path / "bad.trf", tmp_path / "events" / "x", tmp_path / "events")
    assert "bad.trf:12: round 1: players 1 and 4 disagree" in str(caught.value)
    assert not (tmp_path / "events" / "x").exists()


@pytest.mark.parametrize("change, message", [
    (("     4 w 1", "     4 w 7"), "result '7'"),
    (("001    1 m", "001    X m"), "start rank 'X'"),
    (("042 2026/03/07", "042 March"), "start date 'March'"),
])
def test_bad_trf_lines(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    (tmp_path / "bad.trf").write_text(SAMPLE.read_text().replace(*change, 1))
    with pytest.raises(InputError) as caught:
        parse_trf((tmp_path / "bad.trf").read_text(), "bad.trf")
    assert message in str(caught.value)


def test_not_a_trf_file_and_an_existing_event(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no player lines"):
        parse_trf("hello\n", "x.trf")
    (tmp_path / "events" / "ev").mkdir(parents=True)
    (tmp_path / "events" / "ev" / "event.toml").write_text("")
    with pytest.raises(InputError, match="not empty"):
        import_trf(SAMPLE, tmp_path / "events" / "ev", tmp_path / "events")


@pytest.mark.parametrize("played", [3, 4])
def test_the_report_standings_give_the_same_file(played: int) -> None:
    from dataclasses import replace

    from benchmarks.synth import make_event as synthetic
    from standgen.pipeline import report
    from standgen.trf import export_trf

    event = synthetic(30, 5, "swiss", seed=5, played=played)
    if played == 4:  # round 4 in progress: its games without results
        last = event.rounds[-1]
        games = tuple(replace(g, seats=tuple(replace(s, outcome=None) for s in g.seats))
                      if k % 2 else g for k, g in enumerate(last.games))
        event = replace(event, rounds=(*event.rounds[:-1], replace(last, games=games)))
    assert export_trf(report(event)) == export_event(event)


def test_trf_2026_records_lichess_dates_and_latin1_files(tmp_path: Path) -> None:
    """Issue #17 item 4: ``142`` planned rounds, ``152`` initial colour, a lichess date,
    a Windows-1252 file read with a warning naming the encoding, and a warning for each
    record not carried (nothing dropped silently)."""
    from standgen.build import import_trf
    from standgen.trf import parse_trf

    text = ("012 Caf\u00e9 Open\n042 Feb 14, 2026\n092 FIDE_DUTCH_2025\n142 7\n152 B\n"
            "102 A. Arbiter\nXXA 1\n"
            "001    1      Alpha Ann                         2000                   "
            "0.0    1\n"
            "001    2      Beta Bob                          1900                   "
            "0.0    2\n")
    tournament = parse_trf(text, "t.trf")
    assert tournament.planned == 7 and tournament.initial == "black"
    assert tournament.date is not None and tournament.date.isoformat() == "2026-02-14"
    said = [str(w) for w in tournament.warnings]
    assert any("record 102 (chief arbiter) is not carried" in w for w in said)
    assert tournament.accelerations == {1: ()}  # XXA is read (issue #17: acceleration)
    trf = tmp_path / "latin.trf"
    trf.write_bytes(text.encode("cp1252"))
    imported = import_trf(trf, tmp_path / "events" / "cafe", tmp_path / "events")
    assert any("read as Windows-1252" in p.message for p in imported.warnings)
    assert any("XXA virtual points are not the Baku acceleration" in p.message
               for p in imported.warnings)
    toml = (tmp_path / "events" / "cafe" / "event.toml").read_text(encoding="utf-8")
    assert "Caf\u00e9 Open" in toml and "rounds = 7" in toml


def test_a_bad_152_record_is_named() -> None:
    from standgen.errors import InputError
    from standgen.trf import parse_trf

    with pytest.raises(InputError, match="152 'green' must be the initial colour"):
        parse_trf("152 green\n001    1      A A                               2000\n", "t.trf")


def pipeline_pair(event: Event, number: int) -> Proposal:
    """Return round ``number`` as ``standgen pair`` proposes it."""
    from standgen.pipeline import pair_round

    return pair_round(event, compute_standings(event), number)


def _paired_swiss(rounds: int, options: dict[str, object]) -> Event:
    """Return a six-player event of ``rounds`` rounds paired by its own rule, results by lot."""
    from standgen.pipeline import pair_round

    people = [Player(id=f"p{k}", name=f"Player {k}", rating=2000.0 - k) for k in range(6)]
    event = make_event(people, [], fmt="swiss", rounds=5)
    event = replace(event, config=replace(event.config, options=options))
    rnd = random.Random(3)
    for number in range(1, rounds + 1):
        proposal = pair_round(event, compute_standings(event), number)
        event = replace(event, rounds=(*event.rounds, play(number, proposal.round.games, rnd)))
    return event


def test_a_round_robin_without_its_092_line_is_recognised(tmp_path: Path) -> None:
    """Issue #17 item 4: a round robin is recognised from its games (Berger tables by
    start rank, FIDE C.05 Annex 1) when the file has no 092 line, and continues with the
    file's numbers; a Swiss is not mistaken for one."""
    from standgen.trf import event_files, is_round_robin

    robin = _paired_swiss(3, {"pairing": "round-robin", "start_order": "file"})
    text = "\n".join(line for line in export_event(robin).splitlines()
                     if not line.startswith("092"))
    tournament = parse_trf(text, "rr.trf")
    assert is_round_robin(tournament)
    files, _ = event_files(tournament, "rr.trf", "rr")
    assert 'pairing = "round-robin"' in files["event.toml"]
    back = reimport(text, tmp_path / "a")
    proposal = pipeline_pair(back, 4)
    expected = pipeline_pair(robin, 4)

    def names(event: Event, made: Proposal) -> set[frozenset[str]]:
        return {frozenset(event.player_by_id[p].name for p in g.players)
                for g in made.round.games}

    assert names(back, proposal) == names(robin, expected)
    swiss = _paired_swiss(3, {})
    plain = "\n".join(line for line in export_event(swiss).splitlines()
                      if not line.startswith("092"))
    assert not is_round_robin(parse_trf(plain, "swiss.trf"))


def test_byes_asked_for_the_next_round_are_requests(tmp_path: Path) -> None:
    """Issue #17 item 4: ``0000 - H`` / ``F`` / ``Z`` blocks of a round nobody has played
    yet are byes asked for the round about to be paired (TRF-2026), not a round played by
    a few with everyone else dropped."""
    from standgen.trf import announced_round, event_files

    event = _paired_swiss(2, {})
    lines = export_event(event).splitlines()
    starts = [k for k, line in enumerate(lines) if line.startswith("001")]
    lines[starts[0]] += "  0000 - H"
    lines[starts[1]] += "  0000 - F"
    tournament = parse_trf("\n".join(lines), "next.trf")
    assert announced_round(tournament.players) == 3
    files, warnings = event_files(tournament, "next.trf", "next")
    assert "round-3.csv" not in files and "round-2.csv" in files
    rows = files["players.csv"].splitlines()
    assert rows[0].endswith("dropped_after,byes")
    assert [row.split(",")[-2:] for row in rows[1:4]] == [["", "3"], ["", "3"], ["", ""]]
    assert any("a full-point bye in round 3 (F)" in w.message for w in warnings)
    back = reimport("\n".join(lines), tmp_path / "b")
    proposal = pipeline_pair(back, 3)
    absent = {g.players[0] for g in proposal.round.games if g.kind.name == "ABSENT"}
    assert absent == {"player-0", "player-1"}
    assert {g.seats[0].outcome for g in proposal.round.games
            if g.kind.name == "ABSENT"} == {Outcome.DRAW}


def test_a_round_robin_with_file_numbers_follows_players_csv() -> None:
    from standgen.pairing.roundrobin import berger_numbers

    event = _paired_swiss(0, {"pairing": "round-robin", "start_order": "file"})
    assert [p.id for p in berger_numbers(event)] == [p.id for p in event.players]
