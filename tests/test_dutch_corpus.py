"""The Dutch engine against bbpPairings 6.0.0 ``--dutch`` on the shared reference corpus.

The corpus (``shared/dutch-corpus/``, beside the repository; ``STANDGEN_DUTCH_CORPUS``
names another folder) holds 100 tournaments paired round by round by bbpPairings; its
README says how to use a file for round r: cut every player to the first r-1 rounds,
pair round r, compare with round r of the file (pairs, colours, the bye). Each round is
paired as ``standgen pair`` pairs it, through the product's one adapter into the engine
(:mod:`tests.dutch_trf`: the cut file imported as an event folder, its records turned into
the engine's input by :func:`standgen.pairing.dutch_swiss.pairing_state`).

By default the files of at most ``FAST_PLAYERS`` players run (54 of the 100);
``STANDGEN_DUTCH_FULL=1`` runs all 100 (about two minutes on a shared 2-core machine).
Each file is one test that fails naming the first round that differs.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from standgen.build import import_trf
from standgen.formats.swiss import SWISS
from standgen.load import load_tree
from standgen.pairing.swiss import start_ranks
from standgen.standings import compute_standings, pairing_input
from standgen.trf import Tournament, parse_trf
from tests.dutch_trf import cut, pair_from_trf

CORPUS = Path(os.environ.get("STANDGEN_DUTCH_CORPUS")
              or Path(__file__).resolve().parents[2] / "shared" / "dutch-corpus")
FULL = os.environ.get("STANDGEN_DUTCH_FULL", "") not in ("", "0")
FAST_PLAYERS = 70


def players_in(path: Path) -> int:
    found = re.search(r"-n(\d+)-", path.name)
    assert found, path.name
    return int(found.group(1))


FILES = sorted(CORPUS.glob("*.trf"), key=lambda p: (players_in(p), p.name)) if CORPUS.is_dir() \
    else []
CHOSEN = [p for p in FILES if FULL or players_in(p) <= FAST_PLAYERS]


def expected(tournament: Tournament, number: int) -> tuple[set[tuple[int, int]], int | None]:
    """Return round ``number`` of the file: (white, black) pairs and the bye."""
    pairs: set[tuple[int, int]] = set()
    bye = None
    for player in tournament.players:
        block = player.rounds[number - 1]
        if block.opponent == 0:
            if block.result == "U":
                bye = player.start_rank
        elif block.colour == "w":
            pairs.add((player.start_rank, block.opponent))
    return pairs, bye


def differing_rounds(path: Path) -> tuple[list[int], int]:
    """Return the rounds r >= 2 whose pairing differs from the file's, and how many."""
    text = path.read_text()
    tournament = parse_trf(text, path.name)
    rounds = max(len(p.rounds) for p in tournament.players)
    wrong = []
    for number in range(2, rounds + 1):
        got = pair_from_trf(text, number)
        if (set(got.pairs), got.bye) != expected(tournament, number):
            wrong.append(number)
    return wrong, rounds - 1


@pytest.mark.skipif(not FILES, reason=f"no Dutch corpus at {CORPUS}")
@pytest.mark.parametrize("path", CHOSEN, ids=[p.name for p in CHOSEN])
def test_rounds_match_bbppairings(path: Path) -> None:
    wrong, total = differing_rounds(path)
    assert not wrong, f"{path.name}: rounds {wrong} differ ({total - len(wrong)}/{total} same)"


@pytest.mark.skipif(not FILES, reason=f"no Dutch corpus at {CORPUS}")
def test_round_one_folds_the_field_as_bbppairings() -> None:
    """Round 1 (C.04.3 B: the top half against the bottom half; E.5 colours). The
    initial colour is read from round 1 itself, so this checks the pairs, the bye and
    the alternation of colours down the boards."""
    wrong = []
    for path in FILES:
        text = path.read_text()
        tournament = parse_trf(text, path.name)
        got = pair_from_trf(text, 1)
        if (set(got.pairs), got.bye) != expected(tournament, 1):
            wrong.append(path.name)
    assert not wrong


SMALL = [p for p in FILES if players_in(p) <= 20]
E2E = [p for p in SMALL if p.name.startswith("clean")][:2] + [
    p for p in SMALL if p.name.startswith("rtg")][:1]  # one with forfeits


@pytest.mark.skipif(not FILES, reason=f"no Dutch corpus at {CORPUS}")
@pytest.mark.parametrize("path", E2E, ids=[p.name for p in E2E])
def test_imported_event_pairs_as_bbppairings(path: Path, tmp_path: Path) -> None:
    """The whole path: ``import-trf`` of the file cut to r-1 rounds (CR line ends, no
    XXC: the initial colour comes from round 1), loaded as an event, paired by the swiss
    format's default engine, gives round r of the file."""
    text = path.read_text()
    tournament = parse_trf(text, path.name)
    rounds = max(len(p.rounds) for p in tournament.players)
    for number in range(2, rounds + 1):
        root = tmp_path / f"r{number}"
        root.mkdir()
        (root / "in.trf").write_text(cut(text, number - 1, rounds, absences=False),
                                     newline="")
        import_trf(root / "in.trf", root / "events" / "cut", root / "events")
        (event,) = load_tree(root / "events").events
        proposal = SWISS.pair(event, pairing_input(compute_standings(event)), number)
        numbers = start_ranks(event)
        pairs = {(numbers[g.seats[0].player], numbers[g.seats[1].player])
                 for g in proposal.round.games if len(g.seats) == 2}
        byes = [numbers[g.seats[0].player] for g in proposal.round.games if len(g.seats) == 1]
        assert (pairs, byes[0] if byes else None) == expected(tournament, number), number


GENERATED = sorted((Path(__file__).parent / "data" / "dutch-generated").glob("*.trf"))


@pytest.mark.parametrize("path", GENERATED, ids=[p.name for p in GENERATED])
def test_rounds_with_absences_match_bbppairings(path: Path) -> None:
    """Files with half-point byes and absences (tests/data/dutch-generated/README.md):
    every round, from the rounds before it and the absences known for it."""
    text = path.read_text()
    tournament = parse_trf(text, path.name)
    rounds = max(len(p.rounds) for p in tournament.players)
    absences = sum(1 for p in tournament.players for b in p.rounds
                   if b.opponent == 0 and b.result in "HZ")
    assert absences  # what these files are for
    wrong = []
    for number in range(1, rounds + 1):
        got = pair_from_trf(text, number)
        if (set(got.pairs), got.bye) != expected(tournament, number):
            wrong.append(number)
    assert not wrong, f"{path.name}: rounds {wrong} differ"


def test_the_corpus_file_names_give_the_field_size() -> None:
    assert players_in(Path("clean-064-n10-r6.trf")) == 10
    with pytest.raises(AssertionError):
        players_in(Path("notes.trf"))
