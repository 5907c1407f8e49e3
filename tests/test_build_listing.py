"""What a rebuild does besides rendering (thirteenth session): each event folder listed
once a build, the innermost season of an event found by its folders, a format's meta
summed without a call a game; each the same as the reference way."""

from __future__ import annotations

import datetime as dt
import os
import random
import time
from pathlib import Path

from standgen import perf
from standgen.armylists import moments_key
from standgen.builder.core import _global_key
from standgen.buildstate import folder_signature
from standgen.clubs.meta_sums import _add_all, _Kahan
from standgen.load import find_events
from standgen.model import EventsTree, Season
from standgen.site import links
from standgen.site.contexts import Site


def _tree(root: Path) -> Path:
    for slug, toml in (("2024/spring", "date = 2024-03-01\nlists_public = \"event-start\"\n"),
                       ("2024/autumn", "date = 2024-10-01\n"),
                       ("open", "date = 2025-01-01\n")):
        folder = root / slug
        (folder / "lists").mkdir(parents=True)
        (folder / "event.toml").write_text(f"name = \"{slug}\"\nformat = \"swiss\"\n{toml}")
        (folder / "players.csv").write_text("id,name,faction\n")
        (folder / "lists" / "a.txt").write_text("list\n")
    (root / "2024" / "season.toml").write_text("name = \"2024\"\n")
    return root


def test_the_walks_listing_gives_the_signatures_and_moments_of_a_fresh_listing(
        tmp_path: Path) -> None:
    root = _tree(tmp_path / "events")
    found = find_events(root)
    assert len(found.listed) == len(found.folders) == 3
    later = time.time_ns() + 10 * 10**9  # no file is "racily clean"
    for (folder, _), listed in zip(found.folders, found.listed, strict=True):
        assert folder_signature(folder, later, listed) == folder_signature(folder, later)
    # a file edited in place (its folder's times unchanged) still changes the signature
    spring = root / "2024" / "spring"
    before = folder_signature(spring, later, find_events(root).listed[1])
    folder_times = os.stat(spring)
    (spring / "players.csv").write_text("id,name,faction\nc1,Anna,\n")
    os.utime(spring, ns=(folder_times.st_atime_ns, folder_times.st_mtime_ns))
    assert folder_signature(spring, later, find_events(root).listed[1]) != before
    tomls = [[e.path for e in listed if e.name == "event.toml"] for listed in found.listed]
    at = dt.datetime(2024, 3, 2, tzinfo=dt.UTC)
    folders = [folder for folder, _ in found.folders]
    assert moments_key(folders, at, tomls) == moments_key(folders, at)
    assert moments_key(folders, at)  # the spring event's lists are out
    docs, templates = tmp_path / "docs", tmp_path / "templates"
    fast = _global_key(found, root, docs, templates)
    with perf.straightforward():
        assert _global_key(found, root, docs, templates) == fast


def test_the_innermost_season_is_the_reference_ones() -> None:
    seasons = (Season(("a",), "A"), Season(("a", "b"), "AB"), Season((), "Root"),
               Season(("c", "d"), "CD"))
    tree = EventsTree(root="events", events=(), seasons=seasons)
    fast, slow = Site(tree, {}, fast=True), Site(tree, {}, fast=False)

    class At:
        def __init__(self, path: tuple[str, ...]) -> None:
            self.path = path

    for path in [("a", "x"), ("a", "b", "x"), ("a", "b"), ("a",), ("c", "x"),
                 ("c", "d", "e", "x"), ("z",), ()]:
        assert fast.season_of(At(path)) == slow.season_of(At(path)), path
    assert Site(EventsTree(root="e", events=()), {}).season_of(At(("a", "x"))) is None


def test_a_page_path_is_the_reference_join() -> None:
    for folders in [(), ("",), ("a",), ("a", ""), ("", "a", "b"), ("a", "b", "c")]:
        assert links.page(*folders) == "/".join((*(f for f in folders if f), links.INDEX))


def test_points_summed_at_once_are_kahans_sum_one_by_one() -> None:
    rng = random.Random(5)
    values = [rng.choice([0.0, 0.5, 1.0, 1 / 3, 2 / 7, 1e-9, 1e9]) for _ in range(5000)]
    one, all_at_once = _Kahan(), _Kahan()
    for k in range(0, len(values), 37):
        for value in values[k:k + 37]:
            one.add(value)
        _add_all(all_at_once, values[k:k + 37])
    assert (one.total, one.compensation, one.count) == (
        all_at_once.total, all_at_once.compensation, all_at_once.count)
