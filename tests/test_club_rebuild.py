"""Issue #33: an incremental build resumes the club's ratings from the first changed event
and makes again only the club pages whose numbers changed, and its site is byte for byte
the straightforward in-memory render, after random edits a TO makes to a random archive:
results typed in, corrected or taken back in the newest and the oldest event, a player
renamed, a date moved, an event left out of the ratings, an event removed and added."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from benchmarks.synth import write_archive
from standgen import build as lib
from standgen.load import load_tree

RESULT = re.compile(r"^(\d+,[^,\n]+,[^,\n]+,)(1-0|0-1)(,[^\n]*)?$", re.MULTILINE)


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def flip(folder: Path, rng: random.Random, last: bool) -> bool:
    """Flip one 1-0/0-1 result in the event's first or last round; False if none."""
    rounds = sorted(folder.glob("round-*.csv"), key=lambda p: int(p.stem.split("-")[1]))
    target = rounds[-1] if last else rounds[0]
    text = target.read_text()
    found = list(RESULT.finditer(text))
    if not found:
        return False
    match = rng.choice(found)
    new = "0-1" if match.group(2) == "1-0" else "1-0"
    target.write_text(text[:match.start(2)] + new + text[match.end(2):])
    return True


def apply_edit(edit: str, events: Path, rng: random.Random, by_date: list[Path],
               aside: Path, last: bool = True) -> Path:
    """Make one of the edits a TO makes to ``events``, whose event folders with results
    are ``by_date`` (oldest first); return the folder moved to ``aside`` ("remove")."""
    if edit == "newest":
        assert flip(by_date[-1], rng, last=last)
    elif edit == "oldest":
        assert flip(by_date[0], rng, last=False)
    elif edit == "rename":
        players = rng.choice(sorted(by_date)) / "players.csv"
        text = players.read_text()
        players.write_text(text.replace("Player 0000", "Renamed 0000", 1))
    elif edit == "date":
        toml = rng.choice(sorted(by_date)) / "event.toml"
        toml.write_text(re.sub(r"^date = \d{4}", "date = 2015", toml.read_text(),
                               count=1, flags=re.M))
    elif edit == "unrated":
        toml = rng.choice(sorted(by_date)) / "event.toml"
        text = toml.read_text()
        toml.write_text(text + ("rated = false\n" if "[options]" in text
                                else "\n[options]\nrated = false\n"))
    else:
        gone = rng.choice(sorted(events.glob("*/*/event.toml"))).parent
        shutil.move(gone, aside)
        return gone
    return events


def built_archive(root: Path, seed: int, pool: int, events: int, high: int
                  ) -> tuple[Path, Path, list[Path]]:
    """Write a random archive under ``root``, build it in full; return its events, its
    site and its event folders with results (oldest first)."""
    folder = write_archive(root / "events", events=events, seed=seed, low=10, high=high,
                           pool=pool)
    out = root / "out"
    lib.build(folder, out)
    flippable = sorted(p.parent for p in folder.glob("*/*/round-1.csv")
                       if p.parent.name.startswith(("swiss", "steamroller", "mcmahon")))
    assert flippable
    return folder, out, sorted(flippable, key=lambda p: (dated(p), p.name))


def dated(folder: Path) -> str:
    return re.search(r"^date = (\S+)", (folder / "event.toml").read_text(), re.M).group(1)


@pytest.mark.parametrize(("seed", "pool"), [(4, 0), (9, 0), (5, 30)])
def test_random_edits_rebuild_the_club_pages_as_a_full_render(tmp_path: Path,
                                                               seed: int, pool: int) -> None:
    """``pool``: each event's players drawn from a club of that many people (who come and
    go, so places in the lists move for players whose games did not change)."""
    events, out, by_date = built_archive(tmp_path, seed, pool, events=6, high=18)
    rng = random.Random(seed)
    edits = ["newest", "oldest", "rename", "date", "unrated", "remove"]
    rng.shuffle(edits)
    aside = tmp_path / "aside"
    for edit in ["newest", *edits]:
        gone = apply_edit(edit, events, rng, by_date, aside)
        built = lib.build(events, out)
        assert built.incremental, edit
        assert files_of(out) == lib.render(load_tree(events)), edit
        if edit == "remove":
            shutil.move(aside, gone)
            built = lib.build(events, out)
            assert files_of(out) == lib.render(load_tree(events)), "added back"


def test_the_player_search_is_made_again_only_when_names_dates_or_players_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A result typed in leaves ``players/search.json`` as it was, unmade (it lists each
    player's events by name and date); the event renamed makes it again; both sites are
    the full render's."""
    from standgen.site import player_search

    events = write_archive(tmp_path / "events", events=4, seed=3, low=10, high=14)
    out = tmp_path / "out"
    lib.build(events, out)
    made: list[str] = []
    real = player_search.history_page_path

    def counted(pid: str) -> str:
        made.append(pid)
        return real(pid)

    monkeypatch.setattr(player_search, "history_page_path", counted)
    flippable = sorted(p.parent for p in events.glob("*/*/round-1.csv")
                       if p.parent.name.startswith(("swiss", "steamroller", "mcmahon")))
    newest = max(flippable, key=lambda p: (dated(p), p.name))
    assert flip(newest, random.Random(3), last=True)
    assert lib.build(events, out).incremental
    assert not made
    assert files_of(out) == lib.render(load_tree(events))
    toml = newest / "event.toml"
    toml.write_text(re.sub(r'^name = "', 'name = "Renamed ', toml.read_text(), count=1,
                           flags=re.M))
    assert lib.build(events, out).incremental
    assert made
    assert files_of(out) == lib.render(load_tree(events))


@pytest.mark.parametrize("seed", [3, 8])
def test_a_player_renamed_in_the_newest_event_has_their_new_name_on_their_rating_page(
        tmp_path: Path, seed: int) -> None:
    """A rating page's title is the player's name in the newest event they were rated
    in, which need not be the event the names by folder take: renamed there, their
    page and ``ratings.json`` are made again (found by the scan helper, seed 3)."""
    events = write_archive(tmp_path / "events", events=4, seed=seed, low=10, high=14)
    out = tmp_path / "out"
    lib.build(events, out)
    by_date = sorted((p.parent for p in events.glob("*/*/event.toml")),
                     key=lambda p: (dated(p), p.name))
    for event in reversed(by_date):
        players = event / "players.csv"
        text = players.read_text()
        if "Player 0000" in text:
            players.write_text(text.replace("Player 0000", "Renamed 0000", 1))
            break
    else:
        pytest.fail("no event with a player to rename")
    assert lib.build(events, out).incremental
    assert files_of(out) == lib.render(load_tree(events))
    assert any(b"Renamed 0000" in data for path, data in files_of(out).items()
               if path.endswith("/ratings/index.html") and path.startswith("players/"))
