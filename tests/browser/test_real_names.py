"""Issue #29: players' phones with real names, 320 to 412 pixels wide.

An events tree of every format with the longest realistic names (tests/browser/realsite.py:
40-character double-barrelled names, long factions, diacritics, two "Oliver Smith"s) is
built with the real build and served on 127.0.0.1. On every page type at 320, 360, 390
and 412 px the columns each page type declares (``data-key`` cells: a round's table,
players and result; standings' rank, name and score; ...) of every row lie on screen and
inside their scrolling region, no two of them overlap, the page never scrolls sideways,
and axe-core finds no violation. Every find box and the site search find players typed
without accents, case or spaces, and say when nobody matches.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import served
from tests.browser.realsite import write_real_events
from tests.browser.test_phones import AXE, _viewport
from tests.realnames import FAMILY, GIVEN, LONG, fold

WIDTHS = (320, 360, 390, 412)

# page kind -> the columns a reader came for (the cells marked ``data-key``): each row of
# the page's main tables shows them on screen
DECLARED: dict[str, tuple[str, ...]] = {
    "round": ("table", "player", "result"),
    "event": ("rank", "name", "score"),
    "season": ("rank", "name", "score"),
    "player": ("round", "opponent", "result"),
    "history": ("event", "place", "score"),
    "ratings": ("rank", "name", "rating"),
    "player ratings": ("event", "result", "rating"),
    "meta": ("matchup", "share"),
}


@pytest.fixture(scope="module")
def real_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the built site of the real-names events tree."""
    from standgen.build import build

    base = tmp_path_factory.mktemp("real")
    events = write_real_events(base / "events")
    out = base / "output"
    build(events, out)
    return out


@pytest.fixture(scope="module")
def real_url(real_root: Path) -> Iterator[str]:
    with served(real_root) as url:
        yield url


@pytest.fixture
def viewport(browser: Any) -> Iterator[Any]:
    yield lambda width: _viewport(browser, width, 844)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def page_types(root: Path) -> dict[str, str]:
    """Return one page of each type (each format's event, rounds, player, extras)."""
    pages = {"home": "index.html", "season": "2026/index.html",
             "archive": "archive/index.html", "help": "help/index.html",
             "ratings": "archive/ratings/index.html"}
    for history in sorted((root / "players").glob("oliver-s*/index.html"))[:1]:
        pages["history"] = history.relative_to(root).as_posix()
        rating = history.parent / "ratings" / "index.html"
        if rating.is_file():
            pages["player ratings"] = rating.relative_to(root).as_posix()
    for meta in sorted((root / "archive").glob("meta-*/index.html")):
        pages[f"meta {meta.parent.name}"] = meta.relative_to(root).as_posix()
    for folder in sorted((root / "2026").glob("real-*")):
        fmt = folder.name.removeprefix("real-")
        pages[f"{fmt} event"] = f"2026/{folder.name}/index.html"
        for page in sorted(folder.glob("round-*/index.html")):
            pages[f"{fmt} round {page.parent.name}"] = page.relative_to(root).as_posix()
        players = sorted(folder.glob("players/*/index.html"))
        pages[f"{fmt} player"] = players[0].relative_to(root).as_posix()
        for extra in sorted(folder.glob("*/index.html")):
            if not extra.parent.name.startswith(("round-", "players")):
                pages[f"{fmt} {extra.parent.name}"] = extra.relative_to(root).as_posix()
    return pages


# Every declared cell of a shown row: on screen, inside its scrolling region, not
# overlapping another declared cell; the declared keys of the page type all present.
DECLARED_JS = """
const want = arguments[0];
const W = window.innerWidth;
const bad = [];
function shown(el) { return el.getClientRects().length > 0; }
function inside(el, what) {
  const r = el.getBoundingClientRect();
  let left = 0, right = W;
  const region = el.closest('.scroll');
  if (region) {
    const box = region.getBoundingClientRect();
    left = Math.max(left, box.left); right = Math.min(right, box.right);
  }
  if (r.width === 0 || r.left < left - 0.5 || r.right > right + 0.5) {
    bad.push(what + ' at ' + Math.round(r.left) + '..' + Math.round(r.right) + ' of ' + W);
  }
}
const rows = new Set();
document.querySelectorAll('main [data-key]').forEach((el) => {
  const row = el.closest('tr, li, .card') || el.parentNode;
  if (shown(el)) rows.add(row);
});
rows.forEach((row) => {
  const cells = Array.from(row.querySelectorAll('[data-key]')).filter(shown);
  const label = (cells.map((c) => c.textContent.trim()).join(' | ')).slice(0, 60);
  cells.forEach((c) => inside(c, c.dataset.key + ' "' + c.textContent.trim().slice(0, 30) + '"'));
  for (let i = 0; i < cells.length; i++) {
    for (let j = i + 1; j < cells.length; j++) {
      if (cells[i].contains(cells[j]) || cells[j].contains(cells[i])) continue;
      const a = cells[i].getBoundingClientRect(), b = cells[j].getBoundingClientRect();
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) bad.push('overlap ' + cells[i].dataset.key + '/' + cells[j].dataset.key +
                                   ' in ' + label);
    }
  }
});
if (want.length) {
  const keys = new Set(Array.from(document.querySelectorAll('main [data-key]')).filter(shown)
    .map((el) => el.dataset.key));
  want.forEach((k) => { if (!keys.has(k)) bad.push('no ' + k + ' column on screen'); });
}
document.querySelectorAll('main svg.chart').forEach((svg) => {
  if (!shown(svg)) return;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const text = svg.querySelector('text');
  const px = text ? parseFloat(getComputedStyle(text).fontSize) * scale : 12;
  if (px < 11.5) {
    bad.push('chart labels of ' + px.toFixed(1) + ' px: ' + svg.getAttribute('aria-label'));
  }
});
if (document.documentElement.scrollWidth > W) {
  bad.push('the page scrolls sideways: ' + document.documentElement.scrollWidth);
}
return bad;
"""


def kind_of(key: str) -> str:
    """Return the page kind of a key of :func:`page_types` ("swiss round round-2": round)."""
    if " round " in key:
        return "round"
    if key in DECLARED:
        return key
    last = key.split(" ")[-1]
    return "meta" if key.startswith("meta ") else last


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_keeps_its_declared_columns_on_screen(
    browser: Any, real_url: str, real_root: Path, viewport: Any, width: int
) -> None:
    viewport(width)
    failures: list[str] = []
    for key, path in page_types(real_root).items():
        browser.get(real_url + path)
        assert browser.execute_script("return window.innerWidth") == width
        want = list(DECLARED.get(kind_of(key), ()))
        failures += [f"{key}: {what}" for what in browser.execute_script(DECLARED_JS, want)]
    assert not failures, "\n".join(failures[:60])


def one_of_each(pages: dict[str, str]) -> dict[str, str]:
    """Return the pages with one round page per format (the newest)."""
    rounds = {key.split(" round ")[0]: key for key in pages if " round " in key}
    keep = set(rounds.values())
    return {k: v for k, v in pages.items() if " round " not in k or k in keep}


@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_no_violation(
    browser: Any, real_url: str, real_root: Path, axe_source: str, viewport: Any, width: int
) -> None:
    viewport(width)
    failures = []
    pages = one_of_each(page_types(real_root))
    if width in (360, 390):  # the same layout as 320 and 412: one page of each kind
        kinds: dict[str, str] = {}
        for key in pages:
            kinds.setdefault(kind_of(key), key)
        pages = {key: pages[key] for key in kinds.values()}
    for key, path in pages.items():
        browser.get(real_url + path)
        browser.execute_script(axe_source)
        for rule, impact, count, targets in browser.execute_async_script(AXE):
            failures.append(f"{key} {path}: {rule} ({impact}, {count}) {targets}")
    assert not failures, "\n".join(failures)


NAMES = sorted({*GIVEN, *FAMILY, *LONG, "Łukasz Dąbrowski", "Søren Østergaard", "Straße"})


def test_the_pages_fold_names_as_tests_realnames_does(
    browser: Any, real_url: str
) -> None:
    browser.get(real_url + "index.html")
    folded = browser.execute_script(
        "return arguments[0].map((n) => window.standgenFold(n))", NAMES)
    assert folded == [fold(n) for n in NAMES]
    assert fold("Björn") == "bjorn" and fold("Straße") == "strasse"


def _typed(name: str) -> str:
    """Return ``name`` as a phone user types it: folded, without spaces or hyphens."""
    return "".join(c for c in fold(name) if c.isalnum())


FIND_BOX = """
const box = document.querySelector('input[data-filter]');
return box ? Array.from(document.querySelectorAll(
  'table[data-filterable] .name a')).map((a) => a.textContent) : null;
"""
VISIBLE = """
return Array.from(document.querySelectorAll('table[data-filterable] .name a'))
  .filter((a) => a.getClientRects().length).map((a) => a.textContent);
"""


def test_every_find_box_finds_names_typed_without_accents(
    browser: Any, real_url: str, real_root: Path
) -> None:
    from selenium.webdriver.common.by import By

    checked = 0
    for key, path in page_types(real_root).items():
        browser.get(real_url + path)
        names = browser.execute_script(FIND_BOX)
        if not names:
            continue
        target = max(names, key=lambda n: (sum(c != f for c, f in zip(n, fold(n), strict=False))
                                           + (" " in n), len(n)))
        box = browser.find_element(By.CSS_SELECTOR, "input[data-filter]")
        box.send_keys(_typed(target))
        visible = browser.execute_script(VISIBLE)
        assert target in visible, f"{key}: typing {_typed(target)!r} hides {target}"
        assert len(set(visible)) < len(set(names)), key
        box.clear()
        box.send_keys("zzzq")
        message = browser.find_element(By.CSS_SELECTOR, ".no-match").text
        assert message == "No player matches \u201czzzq\u201d.", key
        checked += 1
    assert checked >= 10


def test_the_home_page_search_finds_every_kind_of_name(
    browser: Any, real_url: str, real_root: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(real_url + "index.html")
    box = browser.find_element(By.CSS_SELECTOR, "#site-search")
    players = None
    for name in ("Björn", "Łukasz", "Søren", "Straße", "Ó Conchúir", "Olúwaṣeun",
                 "Nowakowska-Wiśniewska", "Oliver Smith"):
        box.clear()
        box.send_keys(_typed(name))
        WebDriverWait(browser, 10).until(lambda d: d.execute_script(
            "return !!document.querySelector('[data-site-search][data-loaded]')"))
        if players is None:
            players = [p["name"] for p in json.loads(
                (real_root / "players" / "search.json").read_text(encoding="utf-8"))["players"]]
        box.send_keys(" ")  # the list shows once the index is in
        shown = browser.execute_script(
            "return Array.from(document.querySelectorAll('.search-results a'))"
            ".map((a) => a.textContent)")
        want = [p for p in players if _typed(name) in _typed(p)]
        assert want and shown == want[:30], name
        first = browser.find_element(By.CSS_SELECTOR, ".search-results a")
        assert first.get_attribute("href").endswith("/index.html")
    box.clear()
    box.send_keys("zzzq")
    assert browser.find_element(By.CSS_SELECTOR, ".site-search .no-match").text == \
        "No player matches \u201czzzq\u201d."
