"""Issue #33: a page whose place in the rating list alone moved is put right in place by
an incremental build (a few bytes written over the old ones through the journal,
``standgen.output.journal``), not written whole; the site is byte for byte the one
written whole (``perf.whole_pages()``) and a full render, and a change that fails or is
killed half-way is undone or finished like any other."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest

from benchmarks.synth import write_archive
from standgen import build as lib
from standgen import perf
from standgen.builder.writers import Changes
from standgen.load import load_tree
from standgen.output import apply_changes, journal, journal_file, recover
from standgen.output.journal import patch_of
from tests.test_club_rebuild import dated, files_of, flip


def test_patch_of_finds_the_one_short_run_that_differs() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        old = rng.randbytes(rng.randrange(1, 3000))
        new = bytearray(old)
        for _ in range(rng.randrange(1, 4)):
            new[rng.randrange(len(new))] = rng.randrange(256)
        patch = patch_of(old, bytes(new))
        if patch is None:
            assert old == bytes(new) or len(old) > 512  # equal, or differing too widely
            continue
        offset, was, now = patch
        assert len(was) == len(now) and was[:1] != now[:1] and was[-1:] != now[-1:]
        assert old[offset:offset + len(was)] == was
        assert old[:offset] + now + old[offset + len(was):] == bytes(new)
    assert patch_of(b"abc", b"abcd") is None and patch_of(b"abc", b"abc") is None
    assert patch_of(b"x" * 5000, b"y" + b"x" * 4998 + b"y") is None  # far apart


@pytest.mark.parametrize("seed", [5, 8])
def test_pages_put_right_in_place_equal_pages_written_whole(tmp_path: Path, seed: int,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    events = write_archive(tmp_path / "events", events=6, seed=seed, low=10, high=18,
                           pool=30)
    sites = {"in place": tmp_path / "a", "whole": tmp_path / "b"}
    for out in sites.values():
        lib.build(events, out)
    newest = max((p.parent for p in events.glob("*/*/round-1.csv")
                  if p.parent.name.startswith(("swiss", "steamroller", "mcmahon"))),
                 key=lambda p: (dated(p), p.name))
    rng = random.Random(seed)
    puts: list[str] = []
    real_put = journal._put

    def put(target: Path, offset: int, data: bytes) -> None:
        puts.append(target.name)
        real_put(target, offset, data)

    monkeypatch.setattr(journal, "_put", put)
    for _ in range(3):
        assert flip(newest, rng, last=True)
        assert lib.build(events, sites["in place"]).incremental
        with perf.whole_pages():
            assert lib.build(events, sites["whole"]).incremental
        reference = lib.render(load_tree(events))
        assert files_of(sites["in place"]) == files_of(sites["whole"]) == reference
    assert puts  # some pages were put right in place (none with whole_pages)


def page_site(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path / "out"
    pages = {f"p{k}/index.html": f"<p>{k} of 9 in the list</p>".encode() * 40
             for k in range(1, 4)}
    for rel, data in pages.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    return out, pages


def patches_of(pages: dict[str, bytes]) -> dict[str, tuple[tuple[int, bytes, bytes], bytes]]:
    found = {}
    for rel, data in pages.items():
        new = data.replace(b" of 9", b" of 8", 1)
        patch = patch_of(data, new)
        assert patch is not None
        found[rel] = (patch, new)
    return found


def test_a_page_with_another_link_is_written_whole(tmp_path: Path) -> None:
    out, pages = page_site(tmp_path)
    backup = tmp_path / "backup.html"
    os.link(out / "p1/index.html", backup)  # a backup made with hard links
    patches = patches_of(pages)
    assert apply_changes(out, {}, [], patches) == 3
    for rel, (_patch, new) in patches.items():
        assert (out / rel).read_bytes() == new
    assert backup.read_bytes() == pages["p1/index.html"]  # not changed with it
    assert not journal_file(out).exists()


def test_a_patch_that_fails_half_way_is_undone(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    out, pages = page_site(tmp_path)
    real_put = journal._put
    calls: list[int] = []

    def put(target: Path, offset: int, data: bytes) -> None:
        calls.append(offset)
        if len(calls) == 2:
            raise OSError("the disk is full")
        real_put(target, offset, data)

    monkeypatch.setattr(journal, "_put", put)
    with pytest.raises(OSError, match="full"):
        apply_changes(out, {"new.html": b"new"}, [], patches_of(pages))
    assert files_of(out) == pages
    assert not journal_file(out).exists()


def test_a_killed_change_with_patches_is_finished_by_recover(tmp_path: Path) -> None:
    out, pages = page_site(tmp_path)
    patches = patches_of(pages)
    changes = Changes(out)
    # killed after the journal said "commit", before any patch was applied
    entry = {"state": "commit", "writes": [], "removes": [],
             "patches": [[rel, offset, old.hex(), new.hex()]
                         for rel, ((offset, old, new), _page) in sorted(patches.items())]}
    journal_file(out).write_text(json.dumps(entry))
    (out / "p2/index.html").write_bytes(patches["p2/index.html"][1])  # one already put right
    recover(out)
    assert files_of(out) == {rel: new for rel, (_patch, new) in patches.items()}
    assert not journal_file(out).exists()
    # killed before "commit": nothing was applied, nothing to finish
    shutil.rmtree(out)
    out, pages = page_site(tmp_path)
    journal_file(out).write_text(json.dumps({**entry, "state": "prepare"}))
    recover(out)
    assert files_of(out) == pages
    assert changes.changed() == ()


def test_changes_put_a_pages_head_right_in_place(tmp_path: Path) -> None:
    out, pages = page_site(tmp_path)
    new = {rel: data.replace(b" of 9", b" of 8", 1) for rel, data in pages.items()}
    changes = Changes(out)
    head = changes.head("p1/index.html", 64)
    assert head == pages["p1/index.html"][:64]
    assert changes.patch("p1/index.html", head, new["p1/index.html"][:64])
    assert changes.head("p1/index.html", 64) is None  # put right already
    assert not changes.patch("p2/index.html", b"abc", b"abcd")  # not as long: whole
    changes.write([("p2/index.html", new["p2/index.html"])])
    assert not changes.patch("p2/index.html", b"a", b"b")  # written whole already
    assert changes.current("p1/index.html") == new["p1/index.html"]
    inode = (out / "p1/index.html").stat().st_ino
    assert changes.commit() == 2
    assert (out / "p1/index.html").stat().st_ino == inode  # the same file, put right
    assert changes.changed() == ("p1/index.html", "p2/index.html")
    assert files_of(out) == {**pages, **{r: new[r] for r in ("p1/index.html", "p2/index.html")}}
    with perf.whole_pages():
        other = Changes(out)
        head = other.head("p3/index.html", 64)
        assert head is not None
        assert not other.patch("p3/index.html", head, new["p3/index.html"][:64])
        assert not other.patches


def test_a_head_patch_of_a_page_with_another_link_is_written_whole(tmp_path: Path) -> None:
    out, pages = page_site(tmp_path)
    os.link(out / "p1/index.html", tmp_path / "backup.html")
    changes = Changes(out)
    head = changes.head("p1/index.html", 64)
    assert head is not None
    assert changes.patch("p1/index.html", head, head.replace(b" of 9", b" of 8", 1))
    changes.commit()
    assert (out / "p1/index.html").read_bytes() == pages["p1/index.html"].replace(
        b" of 9", b" of 8", 1)
    assert (tmp_path / "backup.html").read_bytes() == pages["p1/index.html"]


def test_a_patch_across_two_blocks_is_written_whole(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    old = b"a" * 4094 + b"1234" + b"a" * 100
    new = b"a" * 4094 + b"5678" + b"a" * 100
    (out / "index.html").write_bytes(old)
    inode = (out / "index.html").stat().st_ino
    patch = patch_of(old, new)
    assert patch == (4094, b"1234", b"5678")
    assert apply_changes(out, {}, [], {"index.html": (patch, new)}) == 1
    assert (out / "index.html").read_bytes() == new
    assert (out / "index.html").stat().st_ino != inode  # renamed over it, not in place
