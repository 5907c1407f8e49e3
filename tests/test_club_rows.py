"""The rating list's rows written in Python (``standgen.site.club_rows``) are the bytes
the template's own row loop writes: in every language of the catalogues, with real and
hostile names, players of the same name, FIDE columns or none, any sign and size."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from markupsafe import Markup

from standgen.site import club_ratings, i18n
from standgen.site.club_ratings import FormatList, RatingListPage, RatingRow
from standgen.site.club_rows import games_html, rows_html
from standgen.site.contexts import Link, frame
from standgen.site.render import Templates
from tests.realnames import field

REPO = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", *sorted(p.name for p in (REPO / "standgen" / "locale").iterdir()
                           if p.is_dir()))
HOSTILE = ("<script>alert(1)</script>", 'Zoë "Z" O\'Neill & co', "a&amp;b", "{{ 7*7 }}")


def _rows(rng: random.Random, size: int, fide: bool) -> tuple[RatingRow, ...]:
    people = field(rng, size)
    rows = []
    for rank, person in enumerate(people, start=1):
        name = rng.choice(HOSTILE) if rng.random() < 0.1 else person.name
        mu = rng.uniform(-5, 60)
        sigma = rng.uniform(0.5, 8.4)
        fide_rating = float(rng.randint(1000, 2800)) if fide and rng.random() < 0.7 else None
        rows.append(RatingRow(
            rank, person.id, Link(name, f"../../players/{person.id}/index.html"),
            round(mu - 3 * sigma, 2), mu, sigma, rng.randint(1, 400),
            rng.choice(("2026-04-11", "2019-12-31", "")), "2026/open",
            round(rng.uniform(-9, 9), 2), fide_rating,
            None if fide_rating is None else round(rng.uniform(-40, 40), 1),
            f"{name} ({person.id})" if name == "Oliver Smith" else ""))
    return tuple(rows)


def _page(lists: tuple[FormatList, ...]) -> RatingListPage:
    page = frame("archive/2026/ratings/index.html", "Ratings", "ratings")
    rows = lists[0].rows
    return RatingListPage(page, "All events", rows, lists[0].fide, (), "ratings.json",
                          by_format=lists)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", range(3))
def test_python_rows_are_the_templates_rows(language: str, seed: int) -> None:
    rng = random.Random(f"{language}-{seed}")
    templates = Templates(REPO / "site_templates", fast=True)
    with i18n.active(language):
        plain = tuple(FormatList(fmt, fmt, _rows(rng, rng.randint(1, 60), fide), fide)
                      for fmt, fide in (("swiss", True), ("mcmahon", False)))
        written = tuple(replace(lst, html=rows_html(lst.rows, lst.fide)) for lst in plain)
        by_template = templates.render("club_ratings", _page(plain))
        by_python = templates.render("club_ratings", _page(written))
    assert by_python == by_template
    assert by_template.count(b"<tr>") == sum(len(lst.rows) for lst in plain) + 2
    assert b"<script>alert" not in by_template


def test_a_result_keeps_the_other_formats_lists_as_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A result typed into the newest event makes its own format's lists again; the lists
    of the other formats are the rows the last build wrote (``kept_lists``), and the site
    is still byte for byte a full render."""
    from benchmarks.synth import write_archive
    from standgen import build as lib
    from standgen.load import load_tree
    from standgen.site import club_pages, club_splice
    from tests.test_club_rebuild import dated, files_of, flip

    events = write_archive(tmp_path / "events", events=6, seed=4, low=10, high=18)
    out = tmp_path / "out"
    lib.build(events, out)
    kept: list[str] = []
    real_lists, real_kept = club_splice.kept_lists, club_pages.ClubInputs._kept

    def lists(page: bytes) -> dict[str, club_ratings.KeptRows]:
        found = real_lists(page)
        for fmt, rows in found.items():
            assert rows == _kept_rows(page, fmt)  # the one pass finds what each look finds
        assert found
        return found

    def spy(inputs: club_pages.ClubInputs, scope: Any) -> Any:
        made = real_kept(inputs, scope)
        if made is None:
            return None

        def kept_of(fmt: str) -> club_ratings.KeptRows | None:
            found = made(fmt)
            if found is not None:
                kept.append(fmt)
            return found
        return kept_of

    monkeypatch.setattr(club_splice, "kept_lists", lists)
    monkeypatch.setattr(club_pages.ClubInputs, "_kept", spy)
    flippable = [p.parent for p in events.glob("*/*/round-1.csv")
                 if p.parent.name.startswith(("swiss", "steamroller", "mcmahon"))]
    newest = max(flippable, key=lambda p: (dated(p), p.name))
    assert flip(newest, random.Random(4), last=True)
    assert lib.build(events, out).incremental
    fmt = newest.name.split("-")[0]
    assert kept and fmt not in kept
    assert files_of(out) == lib.render(load_tree(events))


def _games(rng: random.Random, size: int) -> tuple[club_ratings.RatedGame, ...]:
    names = [p.name for p in field(rng, 8)] + list(HOSTILE)
    games = []
    for _ in range(size):
        board = rng.random() < 0.2
        before = rng.uniform(-10, 40)
        after = before + rng.uniform(-3, 3)
        fide = round(rng.uniform(-20, 20), 1) if rng.random() < 0.5 else None
        games.append(club_ratings.RatedGame(
            rng.choice(("2026-04-11", "2019-12-31")),
            Link(rng.choice(names), f"../../../2026/open-{rng.randint(1, 9)}/index.html"),
            rng.randint(1, 9), ", ".join(rng.sample(names, 6 if board else 1)), board,
            rng.choice(("win", "loss", "draw", "solo win", "2-way draw", HOSTILE[0])),
            round(before, 2), round(after, 2), round(after - before, 2), fide))
    return tuple(games)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", range(2))
def test_python_rated_games_are_the_templates_rows(language: str, seed: int) -> None:
    rng = random.Random(f"games-{language}-{seed}")
    templates = Templates(REPO / "site_templates", fast=True)
    for fide in (False, True):
        games = _games(rng, rng.randint(1, 40))
        page = club_ratings.PlayerRatingsPage(
            frame("players/p1/ratings/index.html", "Zoë · ratings", "ratings"), "p1",
            "Zoë O'Neill", "12.5", "3 of 40", games, games, len(games), fide, Markup(""),
            "../index.html", "../../../archive/ratings/index.html", "ratings.json")
        with i18n.active(language):
            by_template = templates.render("club_player", page)
            by_python = templates.render(
                "club_player", replace(page, table_html=games_html(games, fide)))
        assert by_python == by_template
        assert by_template.count(b"<tr>") == len(games) + 1
        assert b"<script>alert" not in by_template


def _kept_rows(page: bytes, fmt: str) -> Any:
    """One format's list found on its own (what ``kept_lists`` finds of each in one pass)."""
    from standgen.site.club_ratings import KeptRows

    head = f'<h2 id="ratings-{fmt}">'.encode()
    if page.count(head) != 1:
        return None
    start = page.index(head) + len(head)
    body = page.find(b"<tbody>\n", start)
    end = page.find(b"</tbody>", body)
    after = page.find(b'<h2 id="', start)
    if body < 0 or end < 0 or 0 <= after < end:
        return None
    rows = page[body + len(b"<tbody>\n"):end].decode()
    return KeptRows(Markup(rows), 'data-label="FIDE"' in rows)
