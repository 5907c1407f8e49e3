"""What the build's key reads, kept between builds (buildstate.KeyCache): the hashes of
standgen's own trees, the same as hashing every file (tree_hash), and the event.toml files
without lists_public; never a kept one for a file written since."""

from __future__ import annotations

import datetime as dt
import os
import random
import time
from pathlib import Path

import pytest

from standgen.armylists import moments_key
from standgen.builder.keycache import KEY_CACHE, KeyCache
from standgen.buildstate import tree_hash


def later() -> int:
    """Return a look a minute from now: no file written so far is racy then."""
    return time.time_ns() + 60 * 10**9


def _random_tree(root: Path, rng: random.Random) -> None:
    """Files and folders with the names a tree may hold: suffixes, hidden files,
    ``__pycache__``, names sorting differently as paths and as strings, a link to a
    file and a link to a folder (not followed, as ``rglob`` does not)."""
    names = ["a.py", "b.txt", ".hidden.py", "z-y.py", "a b.py", "é.py", "x.py.bak", "README"]
    for depth in range(rng.randint(1, 3)):
        folder = root.joinpath(*[rng.choice(["sub", "sub-a", "sub.b", "__pycache__", "é"])
                                 for _ in range(depth)])
        folder.mkdir(parents=True, exist_ok=True)
        for name in rng.sample(names, rng.randint(1, len(names))):
            (folder / name).write_bytes(rng.randbytes(rng.randint(0, 64)))
    if (root / "a.py").exists():
        (root / "link.py").symlink_to(root / "a.py")
    if (root / "sub").is_dir():
        (root / "link-folder").symlink_to(root / "sub")


@pytest.mark.parametrize("seed", range(12))
def test_the_kept_hash_is_the_hash_of_every_file(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    tree = tmp_path / "tree"
    tree.mkdir()
    _random_tree(tree, rng)
    cache = tmp_path / "cache"
    for suffixes in ((), (".py",)):
        first = KeyCache.open(cache)
        first._now = later()  # noqa: SLF001 - nothing racy
        made = first.tree_hash(tree, suffixes)
        first.save()
        again = KeyCache.open(cache)
        again._now = later()  # noqa: SLF001
        assert made == again.tree_hash(tree, suffixes) == tree_hash(tree, suffixes)
    assert (cache / KEY_CACHE).is_file()


def test_a_file_written_since_is_hashed_again_though_its_size_and_time_are_kept(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "tree"
    (tree / "deep").mkdir(parents=True)
    page = tree / "deep" / "page.md"
    page.write_text("one", encoding="utf-8")
    cache = tmp_path / "cache"
    kept = KeyCache.open(cache)
    kept._now = later()  # noqa: SLF001
    before = kept.tree_hash(tree)
    kept.save()
    st = page.stat()
    page.write_text("two", encoding="utf-8")  # same size
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the old modification time
    again = KeyCache.open(cache)
    again._now = later()  # noqa: SLF001
    after = again.tree_hash(tree)
    assert after != before
    assert after == tree_hash(tree)


def test_a_racy_tree_is_not_kept(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.html").write_text("now", encoding="utf-8")
    kept = KeyCache.open(tmp_path / "cache")  # the look is now: the file is racy
    assert kept.tree_hash(tree) == tree_hash(tree)
    kept.save()
    assert not (tmp_path / "cache" / KEY_CACHE).exists()


@pytest.mark.parametrize("content", [b"", b"not json", b"[1, 2]", b'{"trees": [1, 2]}',
                                     b'{"trees": {"x": ["a", "b", "c"]}, "quiet": [1]}',
                                     b'{"quiet": {"x": 1}, "trees": {"y": [1, 2]}}'])
def test_a_broken_cache_is_ignored(tmp_path: Path, content: bytes) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.py").write_text("x = 1\n", encoding="utf-8")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / KEY_CACHE).write_bytes(content)
    kept = KeyCache.open(cache)
    kept._now = later()  # noqa: SLF001
    assert kept.tree_hash(tree) == tree_hash(tree)
    kept.save()
    assert KeyCache.open(cache).tree_hash(tree) == tree_hash(tree)


def test_a_wrong_kept_hash_for_another_signature_is_not_used(tmp_path: Path) -> None:
    """A kept hash counts only for the signature it was kept with."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.py").write_text("x = 1\n", encoding="utf-8")
    cache = tmp_path / "cache"
    name = f"{tree.resolve()}\0"
    kept = KeyCache(cache / KEY_CACHE, {"trees": {name: ["another signature", "f" * 64]}},
                    later())
    assert kept.tree_hash(tree) == tree_hash(tree)


def test_without_a_cache_folder_nothing_is_kept(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.py").write_text("x = 1\n", encoding="utf-8")
    kept = KeyCache.open(None)
    assert kept.tree_hash(tree) == tree_hash(tree)
    kept.save()
    assert list(tmp_path.iterdir()) == [tree]


def test_a_missing_tree_hashes_as_nothing(tmp_path: Path) -> None:
    kept = KeyCache.open(tmp_path / "cache")
    assert kept.tree_hash(tmp_path / "absent") == tree_hash(tmp_path / "absent")


def _archive(root: Path, rng: random.Random) -> list[Path]:
    """Event folders, some with a time-set lists_public (passed or not), some without."""
    folders = []
    for k in range(12):
        folder = root / f"event-{k:02d}"
        folder.mkdir(parents=True)
        lines = [f'name = "Event {k}"', 'format = "steamroller"', "date = 2026-03-0" + str(
            1 + k % 9)]
        choice = rng.choice(["none", "passed", "later", "word"])
        if choice == "passed":
            lines.append('lists_public = "2026-01-01T10:00:00Z"')
        elif choice == "later":
            lines.append('lists_public = "2099-01-01T10:00:00Z"')
        elif choice == "word":
            lines.append('# lists_public is not set here')
        (folder / ("Event.toml" if k % 5 == 0 else "event.toml")).write_text(
            "\n".join(lines) + "\n", encoding="utf-8")
        folders.append(folder)
    return folders


def _moments_kept(folders: list[Path], cache: Path, at: dt.datetime) -> str:
    kept = KeyCache.open(cache)
    kept._now = later()  # noqa: SLF001 - nothing racy
    marks = {}
    tomls = []
    for folder in folders:
        found = [p for p in folder.iterdir() if p.name.lower() == "event.toml"
                 and not kept.quiet(str(p), p.stat())]
        for path in found:
            marks[path] = path.stat()
        tomls.append(found)
    key = moments_key(folders, at, tomls,
                      heard=lambda path, said: kept.heard(str(path), marks[path], said))
    kept.save()
    return key


@pytest.mark.parametrize("seed", range(8))
def test_the_moments_read_through_the_cache_are_the_moments(tmp_path: Path, seed: int) -> None:
    """Read through the kept quiet files, again and after each file is rewritten (a
    quiet one given lists_public with its old size and modification time kept), the
    moments are what reading every file gives."""
    rng = random.Random(seed)
    folders = _archive(tmp_path / "events", rng)
    cache = tmp_path / "cache"
    at = dt.datetime(2026, 6, 1, tzinfo=dt.UTC)
    assert _moments_kept(folders, cache, at) == moments_key(folders, at)
    assert _moments_kept(folders, cache, at) == moments_key(folders, at)
    for folder in rng.sample(folders, 4):
        toml = next(p for p in folder.iterdir() if p.name.lower() == "event.toml")
        st = toml.stat()
        text = toml.read_text(encoding="utf-8")
        if "lists_public =" in text:
            text = text.replace("lists_public =", "#ists_public =")
        else:
            text = text.replace('format = "steamroller"', 'lists_public="2026-01-01"')
        toml.write_text(text, encoding="utf-8")
        os.utime(toml, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert _moments_kept(folders, cache, at) == moments_key(folders, at)
    assert _moments_kept(folders, cache, at) == moments_key(folders, at)


def test_a_quiet_file_is_not_read_again(tmp_path: Path) -> None:
    folders = _archive(tmp_path / "events", random.Random(3))
    cache = tmp_path / "cache"
    at = dt.datetime(2026, 6, 1, tzinfo=dt.UTC)
    _moments_kept(folders, cache, at)
    kept = KeyCache.open(cache)
    kept._now = later()  # noqa: SLF001
    quiet = [p for folder in folders for p in folder.iterdir()
             if kept.quiet(str(p), p.stat())]
    assert quiet == [p for folder in folders for p in folder.iterdir()
                     if "lists_public" not in p.read_text(encoding="utf-8")]
    assert quiet

