"""standgen's McMahon pairing against OpenGotha's own, round by round (issue #22).

The corpus (../shared/gotha-corpus, see its README) holds 30 tournaments of 12 to 150
players, 5 rounds each, every round paired by OpenGotha V3.51.02 with its McMahon
defaults. For each round r, standgen pairs the event as it stood after round r-1 and
must give OpenGotha's round: the same pairs, bye, handicaps and colours (colours of
equal colour balance included: OpenGotha's name hash is reproduced).

Where the pairs differ, OpenGotha's pairing must cost exactly what standgen's does under
OpenGotha's cost (``Tournament.costValue``): two maximum-weight matchings of equal
weight, between which OpenGotha's ``WeightedMatchLong`` and rustworkx break the tie
differently. ``TIES`` lists those rounds; any other round must be identical.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tests.gotha_corpus import before, load, replay, tournaments

# Rounds where standgen's pairs differ from OpenGotha's at exactly equal cost (measured).
TIES: dict[str, tuple[int, ...]] = {
    "n12-s1-a": (1, 4), "n12-s1-c": (1,), "n12-s2-b": (1,), "n12-s3-c": (1,),
    "n12-s4-b": (1,), "n20-s1-b": (1,), "n20-s2-a": (5,), "n20-s2-c": (1, 4, 5),
    "n20-s3-b": (1,), "n20-s4-c": (1,), "n40-s1-b": (1, 5), "n40-s2-a": (1,),
    "n40-s2-c": (1, 4), "n40-s3-b": (5,), "n40-s4-a": (5,), "n40-s4-c": (1, 2, 4),
    "n80-s1-b": (2, 3), "n80-s2-a": (1, 2, 3), "n80-s2-c": (1, 2, 3, 5), "n80-s3-b": (1,),
    "n150-s1-a": (1, 2, 3, 4, 5), "n150-s1-c": (1, 2, 3), "n150-s2-b": (1, 3, 4, 5),
    "n150-s3-a": (1, 2, 4), "n150-s3-c": (1, 2, 3, 5), "n150-s4-b": (1, 2),
}

FOLDERS = tournaments()
needs_corpus = pytest.mark.skipif(not FOLDERS, reason="the OpenGotha corpus is not here")


@needs_corpus
@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_rounds_are_opengothas(folder: Path) -> None:
    """Every round: OpenGotha's bye, colours and handicaps; its pairs, or a listed tie."""
    event, expected = load(folder)
    for number in range(1, len(expected["rounds"]) + 1):  # type: ignore[arg-type]
        got = replay(event, expected, number)
        where = f"{folder.name} round {number}"
        assert got.same_bye, f"{where}: bye differs"
        assert not got.handicaps_wrong, f"{where}: {got.handicaps_wrong} handicaps differ"
        assert not got.colours_wrong, f"{where}: {got.colours_wrong} colours differ"
        assert not got.tosses_wrong, f"{where}: {got.tosses_wrong} name-hash colours differ"
        assert got.ours >= got.theirs, f"{where}: standgen's matching is not maximal"
        if not got.same_pairs:
            assert got.tie, f"{where}: pairs differ, not at equal cost ({got.theirs - got.ours})"
            assert number in TIES.get(folder.name, ()), f"{where}: an unlisted tie"


@needs_corpus
def test_corpus_score() -> None:
    """The corpus as a whole: no round lost, ties only where listed."""
    identical = total = 0
    for folder in FOLDERS:
        event, expected = load(folder)
        for number in range(1, 6):
            got = replay(event, expected, number)
            total += 1
            identical += got.identical
            assert got.accepted, f"{folder.name} round {number}"
    listed = sum(len(v) for v in TIES.values())
    assert identical >= total - listed


@needs_corpus
def test_standgen_pair_command_gives_opengothas_round(tmp_path: Path) -> None:
    """The README's procedure through the command line: copy the folder without round 4
    and later, absent players dropped after round 3, ``standgen pair``; the new
    round-4.csv holds OpenGotha's games (n40-s2-a round 4 is not a tie)."""
    folder = next(f for f in FOLDERS if f.name == "n40-s2-a")
    event, expected = load(folder)
    want = expected["rounds"][3]  # type: ignore[index]
    target = tmp_path / folder.name
    target.mkdir()
    for name in ("event.toml", "round-1.csv", "round-2.csv", "round-3.csv"):
        (target / name).write_bytes((folder / name).read_bytes())
    state = before(event, 4, list(want["absent"]))
    lines = (folder / "players.csv").read_text().splitlines()
    head = lines[0].split(",")
    dropped = {p.id: p.dropped_after for p in state.players}
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        after = dropped[cells[0]]
        cells[head.index("dropped_after")] = "" if after is None else str(after)
        out.append(",".join(cells))
    (target / "players.csv").write_text("\n".join(out) + "\n")
    run = subprocess.run([sys.executable, "-m", "standgen", "pair", str(target), "--events",
                          str(tmp_path)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    rows = (target / "round-4.csv").read_text().splitlines()[1:]
    games = set()
    bye = None
    for row in rows:
        cells = row.split(",")
        if cells[2] == "BYE":
            bye = cells[1]
        else:
            games.add((cells[1], cells[2], int(cells[4] or 0)))
    assert games == {(w, b, h) for w, b, h in want["pairs"]}
    assert bye == want["bye"]


@needs_corpus
def test_split_and_random_covers_rounds_1_and_2() -> None:
    """OpenGotha's ``paiMaLastRoundForSeedSystem1 = 1`` counts rounds from 0 (its dialog
    shows "Earlier rounds up to round: 2"): round 2 is still split and random, sorted on
    rating. Seeding round 2 by split and slip instead loses OpenGotha's round 2 in many
    tournaments, so the default is what the corpus holds."""
    lost = 0
    for folder in FOLDERS:
        event, expected = load(folder)
        options = {**event.config.options, "seeding_first_rounds": 1}
        changed = replace(event, config=replace(event.config, options=options))
        lost += not replay(changed, expected, 2).accepted
        assert replay(event, expected, 2).accepted
    assert lost >= len(FOLDERS) // 4
