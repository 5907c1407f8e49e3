"""A rating list made from the rows the last build wrote (``standgen.site.club_splice``):
its rows parsed back are the rows written, a list put together from old rows at new
places and fresh rows is the list written in full, and after a result typed in (a
steady change) a club archive's site, with players of the same name and chess players'
FIDE columns, is byte for byte the full render, its lists and its players'
``ratings.json`` made that way; after a rename none is."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from benchmarks.synth import write_archive
from standgen import build as lib
from standgen.clubs.seat_digest import RatedSeats
from standgen.load import load_tree
from standgen.site import club_splice
from standgen.site.club_json import rating_rows
from standgen.site.club_ratings import RatingRow
from standgen.site.club_rows import rows_html
from standgen.site.contexts import Link
from standgen.site.jsonout import dumps_rows
from tests.realnames import field
from tests.test_club_rebuild import dated, files_of, flip

HOSTILE = ('Zoë "Z" O\'Neill', "</tr>\n<tr>", 'a"b', "players/x/index.html")


def _rows(rng: random.Random, ids: list[str], fide: bool) -> list[RatingRow]:
    people = {p.id: p.name for p in field(rng, len(ids))}
    names = list(people.values()) + list(HOSTILE)
    rows = []
    for rank, pid in enumerate(ids, start=1):
        name = rng.choice(names)
        fide_rating = float(rng.randint(1000, 2800)) if fide and rng.random() < 0.5 else None
        rows.append(RatingRow(
            rank, pid, Link(name, f"../../players/{pid}/index.html"),
            round(rng.uniform(-10, 40), 2), round(rng.uniform(0, 50), 4),
            round(rng.uniform(0.5, 8), 4), rng.randint(1, 300), "2026-04-11", "2026/open",
            round(rng.uniform(-5, 5), 2), fide_rating,
            None if fide_rating is None else round(rng.uniform(-30, 30), 1),
            f"{name} ({pid})" if rng.random() < 0.1 else ""))
    return rows


def _reranked(rng: random.Random, rows: list[RatingRow], fresh: set[str]
              ) -> list[RatingRow]:
    """Return the list in a new order, the rows of ``fresh`` with new values."""
    order = rows[:]
    rng.shuffle(order)
    out = []
    for rank, row in enumerate(order, start=1):
        if row.id in fresh:
            row = row._replace(rating=round(row.rating + 1.5, 2), games=row.games + 1)
        out.append(row._replace(rank=rank))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_old_rows_at_new_places_and_fresh_rows_are_the_list_written_in_full(
        seed: int) -> None:
    rng = random.Random(seed)
    ids = [f"p{k:03d}" for k in range(rng.randint(1, 80))]
    fide = rng.random() < 0.5
    before = _rows(rng, ids, fide)
    fresh = set(rng.sample(ids, rng.randint(0, len(ids))))
    after = _reranked(rng, before, fresh)
    ranked = [row.id for row in after]

    old = club_splice.old_html_rows(str(rows_html(before, fide)))
    assert old is not None and old.keys() == set(ids)
    html = club_splice.spliced_html(
        ranked, old, {r.id: str(rows_html((r,), fide)) for r in after if r.id in fresh})
    assert html == str(rows_html(after, fide))

    document = ('{\n  "scope": "All events",\n  "model": "m",\n  "ratings": [\n    '
                + ",\n    ".join(rating_rows(before)) + "\n  ]\n}\n").encode()
    lines = club_splice.old_json_rows(document)
    assert lines is not None and lines.keys() == set(ids)
    fresh_lines = dict(zip(ranked, rating_rows(after), strict=True))
    spliced = club_splice.spliced_json(
        ranked, lines, {pid: line for pid, line in fresh_lines.items() if pid in fresh})
    assert spliced == rating_rows(after)


def test_a_list_whose_players_changed_is_not_spliced() -> None:
    rng = random.Random(1)
    before = _rows(rng, ["a", "b", "c"], False)
    old = club_splice.old_html_rows(str(rows_html(before, False)))
    assert old is not None
    assert club_splice.spliced_html(["a", "b", "d"], old, {}) is None
    assert club_splice.spliced_html(["a", "b"], old, {}) is None
    assert club_splice.old_html_rows("<tr>\n<td>1</td>\n</tr>\n") is None
    assert club_splice.old_json_rows(b'{\n  "ratings": []\n}\n') is None


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    used: list[str] = []
    real, real_games = club_splice.spliced_rows, club_splice.spliced_games

    def spy(*args: object, **kwargs: object) -> club_splice.Spliced | None:
        found = real(*args, **kwargs)  # type: ignore[arg-type]
        if found is not None:
            used.append("json" if found.json is not None else "html")
        return found

    def games(*args: object, **kwargs: object) -> tuple[str, ...] | None:
        found = real_games(*args, **kwargs)  # type: ignore[arg-type]
        seats = args[-1]
        assert isinstance(seats, RatedSeats)
        if found is not None and len(found) > seats.fresh:  # lines kept as they were
            used.append("games")
        return found

    monkeypatch.setattr(club_splice, "spliced_rows", spy)
    monkeypatch.setattr(club_splice, "spliced_games", games)
    return used


@pytest.mark.parametrize(("seed", "pool"), [(2, 0), (6, 25)])
def test_a_result_typed_in_splices_the_lists_and_the_site_is_a_full_render(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, pool: int) -> None:
    events = write_archive(tmp_path / "events", events=6, seed=seed, low=10, high=16,
                           pool=pool)
    by_date = sorted((p.parent for p in events.glob("*/*/event.toml")),
                     key=lambda p: (dated(p), p.name))
    # two players of one name in the oldest event: their rows tell them apart
    players = by_date[0] / "players.csv"
    lines = players.read_text().splitlines()
    second = lines[2].split(",")
    second[1] = lines[1].split(",")[1]
    players.write_text("\n".join([*lines[:2], ",".join(second), *lines[3:]]) + "\n")
    out = tmp_path / "out"
    lib.build(events, out)
    used = _spy(monkeypatch)
    rng = random.Random(seed)
    newest = next(p for p in reversed(by_date)
                  if p.name.startswith(("swiss", "steamroller", "mcmahon")))
    assert flip(newest, rng, last=True)
    assert lib.build(events, out).incremental
    assert "json" in used and "html" in used and "games" in used
    assert files_of(out) == lib.render(load_tree(events))
    oldest = next(p for p in by_date
                  if p.name.startswith(("swiss", "steamroller", "mcmahon")))
    assert flip(oldest, rng, last=False)  # the oldest: most rows fresh
    assert lib.build(events, out).incremental
    assert files_of(out) == lib.render(load_tree(events))


def test_a_rename_makes_the_lists_in_full(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    events = write_archive(tmp_path / "events", events=4, seed=5, low=10, high=14)
    out = tmp_path / "out"
    lib.build(events, out)
    newest = max((p.parent for p in events.glob("*/*/event.toml")),
                 key=lambda p: (dated(p), p.name))
    players = newest / "players.csv"
    text = players.read_text()
    first = text.splitlines()[1].split(",")
    players.write_text(text.replace(f",{first[1]},", f",{first[1]} Renamed,", 1))
    used = _spy(monkeypatch)
    assert lib.build(events, out).incremental
    assert not used
    assert files_of(out) == lib.render(load_tree(events))


def test_the_oldest_lines_of_a_list_are_its_lines_as_written() -> None:
    """A player's ``ratings.json`` games kept as they were are read as one run of lines:
    the run, its first and its last line are those the lines split apart give, whatever
    the rows hold (line breaks, the rows' own separator, brackets, quotes)."""
    rng = random.Random(4)
    texts = ['a",\n    "b', "\n  ]", "Zoë O'Neill", "{[]}", "\\", ",\n    "]
    for _ in range(300):
        rows = [json.dumps({"k": k, "s": rng.choice(texts)}, ensure_ascii=False)
                for k in range(rng.randint(1, 25))]
        document = dumps_rows({"id": "p1", "games": []}, {"games": rows})
        count = rng.randint(1, len(rows) + 1)
        found = club_splice._oldest_lines(document, "games", count)
        if count > len(rows):
            assert found is None
            continue
        assert found == (",\n    ".join(rows[-count:]), rows[-count], rows[-1])
    assert club_splice._oldest_lines(b'{\n  "games": []\n}\n', "games", 1) is None
