"""Issue #18 on the site floor, without a browser: the demo's pages and CSV files, the
help pages' pictures, the stamp, the home page's events in progress."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from standgen.load import load_tree
from standgen.pipeline import reports
from standgen.site.markdown import MarkdownRenderer, docs_image_rewrite, sanitise
from standgen.site.renderer import render_site
from standgen.site.stamp import stamp
from tests.test_site import DOCS, TEMPLATES

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def demo() -> dict[str, bytes]:
    tree = load_tree(REPO / "events")
    return render_site(tree, reports(tree), DOCS, TEMPLATES)


def page(site: dict[str, bytes], path: str) -> str:
    return site[path].decode("utf-8")


def test_proposed_round_speaks_to_players(demo: dict[str, bytes]) -> None:
    text = page(demo, "2026/spring-steamroller/round-4/index.html")
    assert "Proposed pairings: this is who plays whom in round 4" in text
    assert "organiser may still change them" in text
    for jargon in ("standgen pair", "round-4.csv", "seed 0", "dead-ended", "matching ("):
        assert jargon not in text


def test_pairings_show_scores_ratings_and_ranks_as_the_format_has_them(
    demo: dict[str, bytes],
) -> None:
    chess = page(demo, "2026/club-swiss/round-5/index.html")
    assert '<abbr title="Rating">Rtg</abbr>' in chess
    assert '<abbr title="Points before this round">Pts so far</abbr>' in chess
    assert ">Faction</th>" not in chess  # nobody has one: no empty column
    go = page(demo, "2026/go-mcmahon/round-4/index.html")
    assert '<abbr title="Rank">Rank</abbr>' in go and ">Faction</th>" not in go
    go_standings = page(demo, "2026/go-mcmahon/index.html")
    assert '<th scope="col" data-sort="text">Rank</th>' in go_standings
    assert "Faction</th>" not in go_standings
    chess_standings = page(demo, "2026/club-swiss/index.html")
    assert '<abbr title="Rating">Rtg</abbr>' in chess_standings
    # a pairing's row carries each player's details for narrow screens
    steamroller = page(demo, "2026/spring-steamroller/round-3/index.html")
    assert re.search(r'<a href="../players/emma-w/index.html">Emma Walsh</a>'
                     r'<span class="sub"> Cygnar · \d+ TP so far · \d+ CP · \d+ APD</span>',
                     steamroller)


def test_diplomacy_sit_outs_have_no_board(demo: dict[str, bytes]) -> None:
    rows = page(demo, "2026/diplomacy-open/round-4/pairings.csv").splitlines()
    assert rows[0] == "board,player,name,power,result"
    sitting = [r for r in rows if r.endswith(",sitout")]
    assert sitting and all(r.startswith(",") for r in sitting)
    html = page(demo, "2026/diplomacy-open/round-4/index.html")
    assert "Sitting out this round" in html
    assert "Board 4" not in html and "Board 5" not in html


def test_result_slips_for_every_round(demo: dict[str, bytes]) -> None:
    slips = page(demo, "2026/old-world-open/round-3/slips/index.html")
    assert slips.count('<section class="slip"') == 6
    assert '<abbr title="Victory points">VP</abbr>' in slips or ">VP<" in slips
    assert 'href="slips/index.html"' in page(demo, "2026/old-world-open/round-3/index.html")


def test_home_leads_with_the_event_being_played(demo: dict[str, bytes]) -> None:
    home = page(demo, "index.html")
    now = home[home.index('<h2 id="now">'):home.index('<h2 id="events">')]
    assert "Spring Steamroller" in now and "Round 4 pairings" in now
    assert "Old World Open" not in now
    footer = home[home.index('<footer'):]
    assert "Spring Steamroller" in footer  # the stamp names the event in progress


def test_stamp_has_date_and_time_from_the_input_only() -> None:
    when = dt.datetime(2026, 3, 14, 14, 53, tzinfo=dt.UTC)
    assert stamp("round 3 complete", when) == \
        "Last updated 2026-03-14 at 14:53 UTC: round 3 complete"
    assert stamp("round 3 complete", None) == "Last updated: round 3 complete"
    assert stamp("", when) == "Last updated 2026-03-14 at 14:53 UTC"


def test_help_pages_show_only_their_own_pictures() -> None:
    rewrite = docs_image_rewrite("site", "help/site/index.html", lambda s: f"help/{s}/index.html",
                                 lambda a, b: "../" + b.removeprefix("help/"),
                                 {"screenshots/a.png"}.__contains__)
    html = ('<p><img alt="A" src="screenshots/a.png"><img alt="B" src="https://x.test/b.png">'
            '<img alt="C" src="../../etc/c.png"><img alt="D" src="screenshots/missing.png">'
            '<img alt="E" src="screenshots/a.png" onerror="alert(1)"></p>')
    clean = sanitise(html, rel=None, images=rewrite)
    assert clean.count("<img") == 2 and 'src="../screenshots/a.png"' in clean
    assert "x.test" not in clean and "etc" not in clean and "onerror" not in clean
    # what a TO or player writes never shows a picture
    untrusted = MarkdownRenderer().untrusted("![x](screenshots/a.png) ![y](https://x.test/y.png)")
    assert "<img" not in untrusted


def test_docs_site_pictures_are_published(demo: dict[str, bytes]) -> None:
    help_page = page(demo, "help/site/index.html")
    pictures = re.findall(r'<img[^>]*src="([^"]+)"', help_page)
    assert pictures, "docs/site.md shows screenshots"
    for src in pictures:
        target = "help/" + src.removeprefix("../")
        assert target in demo, src


def test_slips_carry_the_round_pages_qr_code_with_a_site_url() -> None:
    from dataclasses import replace

    tree = load_tree(REPO / "events")
    tree = replace(tree, site=replace(tree.site, site_url="https://club.example/"))
    site = render_site(tree, reports(tree), DOCS, TEMPLATES)
    slips = page(site, "2026/spring-steamroller/round-4/slips/index.html")
    label = "QR code: round 4, https://club.example/2026/spring-steamroller/round-4/index.html"
    assert slips.count(f'aria-label="{label}"') == slips.count('<section class="slip"') == 5
