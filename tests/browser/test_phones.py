"""Issue #18: every page readable on a 390-px phone, a laptop and a projector.

At 390 x 844 (a phone) on every page type of every demo format: the page never scrolls
sideways; on round pages the table number and both players' names of every pairing lie
inside the viewport, on standings the rank, name and score of every row do, and so they
do after filtering by a name. At 1280 x 800 and 1920 x 1080 no table is clipped (every
scrolling region is as wide as its table). axe-core finds no serious or critical issue at
390 px nor at 1280 px.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FORMATS = ("club-swiss", "go-mcmahon", "spring-steamroller", "old-world-open", "diplomacy-open")
PHONE = (390, 844)
LAPTOP = (1280, 800)
PROJECTOR = (1920, 1080)


def demo_pages(root: Path) -> dict[str, str]:
    """Return every page type of every demo format, by a readable key (paths from root)."""
    pages = {"home": "index.html", "season": "2026/index.html",
             "archive": "archive/index.html", "help": "help/index.html"}
    history = sorted((root / "players").glob("*/index.html"))
    if history:
        pages["history"] = history[0].relative_to(root).as_posix()
    tiebreak = sorted((root / "help" / "tiebreaks").glob("*/index.html"))
    if tiebreak:
        pages["help-tiebreak"] = tiebreak[0].relative_to(root).as_posix()
    for event in FORMATS:
        folder = root / "2026" / event
        pages[f"{event} event"] = f"2026/{event}/index.html"
        for page in sorted(folder.glob("round-*/index.html")):
            pages[f"{event} {page.parent.name}"] = page.relative_to(root).as_posix()
        slips = sorted(folder.glob("round-*/slips/index.html"))
        pages[f"{event} slips"] = slips[-1].relative_to(root).as_posix()
        player = sorted(folder.glob("players/*/index.html"))[0]
        pages[f"{event} player"] = player.relative_to(root).as_posix()
        for extra in sorted(folder.glob("*/index.html")):
            if not extra.parent.name.startswith(("round-", "players")):
                pages[f"{event} {extra.parent.name}"] = extra.relative_to(root).as_posix()
    return pages


def one_of_each(pages: dict[str, str]) -> dict[str, str]:
    """Return the pages with one round page per format (the last: proposed or newest)."""
    rounds: dict[str, str] = {}
    for key in pages:
        if " round-" in key:
            rounds[key.split(" ")[0]] = key
    keep = set(rounds.values())
    return {k: v for k, v in pages.items() if " round-" not in k or k in keep}


@pytest.fixture
def sized(browser: Any) -> Iterator[Any]:
    yield browser
    browser.set_window_size(1280, 900)


def _viewport(driver: Any, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


@pytest.fixture
def viewport(browser: Any) -> Iterator[Any]:
    yield lambda size: _viewport(browser, *size)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# Every essential cell that is not wholly inside both the viewport and its scrolling region.
OUTSIDE = """
const W = window.innerWidth;
const bad = [];
function check(el, what) {
  if (!el) { bad.push(what + ': missing'); return; }
  const r = el.getBoundingClientRect();
  let right = W;
  const region = el.closest('.scroll');
  if (region) right = Math.min(right, region.getBoundingClientRect().right);
  if (r.width === 0 || r.left < -0.5 || r.right > right + 0.5) {
    bad.push(what + ' at ' + Math.round(r.left) + '..' + Math.round(r.right) + ' of ' + W);
  }
}
function shown(el) { return !el.hidden && !(el.parentNode && el.parentNode.hidden); }
document.querySelectorAll('table.pairings:not(.boards) tbody tr').forEach((tr, i) => {
  if (!shown(tr)) return;
  check(tr.querySelector('.table-no'), 'pairing ' + i + ' table number');
  tr.querySelectorAll('td.name a').forEach((a) => check(a, 'pairing ' + i + ' ' + a.textContent));
});
document.querySelectorAll('table.boards tbody').forEach((body, i) => {
  if (body.hidden) return;
  check(body.querySelector('.board-head th'), 'board ' + i + ' heading');
  body.querySelectorAll('tr:not([hidden]) td.name a').forEach((a) => check(a, a.textContent));
});
document.querySelectorAll('table.standings tbody tr, table.leaderboard tbody tr')
    .forEach((tr, i) => {
  if (!shown(tr)) return;
  check(tr.querySelector('.stick-rank'), 'standings row ' + i + ' rank');
  check(tr.querySelector('.stick-name a'), 'standings row ' + i + ' name');
  check(tr.querySelector('.stick-score'), 'standings row ' + i + ' score');
});
return bad;
"""

CLIPPED = """
const bad = [];
document.querySelectorAll('.scroll, .chart-figure').forEach((region) => {
  if (region.offsetParent === null) return;
  if (region.scrollWidth > region.clientWidth + 1) {
    const what = region.querySelector('caption, figcaption');
    bad.push((what ? what.textContent.trim().slice(0, 40) : region.className) +
             ': ' + region.scrollWidth + ' > ' + region.clientWidth);
  }
});
// No empty column anywhere: each column of a shown table has text in some row (slips
// are boxes to fill in; rows with merged cells are left out of the count).
document.querySelectorAll('main table:not(.slip-table)').forEach((table) => {
  if (table.offsetParent === null || !table.tHead) return;
  const heads = Array.from(table.tHead.rows[table.tHead.rows.length - 1].cells)
    .filter((th) => getComputedStyle(th).display !== 'none');
  if (Array.from(table.tHead.rows[0].cells).some((c) => c.colSpan > 1)) return;
  const filled = heads.map(() => false);
  Array.from(table.tBodies).forEach((body) => Array.from(body.rows).forEach((row) => {
    const cells = Array.from(row.cells).filter((c) => getComputedStyle(c).display !== 'none');
    if (cells.some((c) => c.colSpan > 1 || c.rowSpan > 1) || cells.length !== heads.length) return;
    cells.forEach((cell, i) => { if (cell.textContent.trim()) filled[i] = true; });
  }));
  heads.forEach((th, i) => {
    if (!filled[i]) bad.push('empty column ' + th.textContent.trim() + ' in ' +
      (table.caption ? table.caption.textContent.trim() : table.className));
  });
});
document.querySelectorAll('svg.chart text').forEach((text) => {
  const box = text.getBBox();
  const view = text.ownerSVGElement.viewBox.baseVal;
  if (box.x < -0.5 || box.x + box.width > view.width + 0.5) {
    bad.push('chart label cut: ' + text.textContent);
  }
});
return bad;
"""


def _page_width(driver: Any) -> tuple[int, int]:
    return (int(driver.execute_script("return document.documentElement.scrollWidth")),
            int(driver.execute_script("return window.innerWidth")))


def test_phone_pages_keep_players_tables_and_scores_on_screen(
    browser: Any, base_url: str, site_root: Path, viewport: Any, screenshots: Path
) -> None:
    viewport(PHONE)
    failures: list[str] = []
    pages = demo_pages(site_root)
    assert sum(" round-" in k for k in pages) >= 10
    for key, path in pages.items():
        browser.get(base_url + path)
        scroll, inner = _page_width(browser)
        assert inner == PHONE[0], f"{key}: {inner}px wide"
        if scroll > inner:
            failures.append(f"{key}: the page scrolls sideways ({scroll}px at {inner}px)")
        failures += [f"{key}: {what}" for what in browser.execute_script(OUTSIDE)]
    assert not failures, "\n".join(failures)


def test_phone_pages_keep_their_layout_when_filtered(
    browser: Any, base_url: str, site_root: Path, viewport: Any
) -> None:
    from selenium.webdriver.common.by import By

    viewport(PHONE)
    failures: list[str] = []
    for key, path in one_of_each(demo_pages(site_root)).items():
        if " round-" not in key and not key.endswith(" event"):
            continue
        browser.get(base_url + path)
        boxes = browser.find_elements(By.CSS_SELECTOR, "input[data-filter]")
        assert boxes, key
        names = browser.execute_script(
            "return Array.from(document.querySelectorAll("
            "'table.pairings td.name a, table.standings th.name a')).map(a => a.textContent)")
        target = str(names[-1])
        boxes[0].send_keys(target[:5])
        visible = browser.execute_script(
            "return Array.from(document.querySelectorAll("
            "'table.pairings td.name a, table.standings th.name a'))"
            ".filter(a => a.getClientRects().length).map(a => a.textContent)")
        assert target in visible, key
        assert len(visible) < len(names), key
        failures += [f"{key} filtered: {what}" for what in browser.execute_script(OUTSIDE)]
        scroll, inner = _page_width(browser)
        if scroll > inner:
            failures.append(f"{key} filtered: the page scrolls sideways")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("size", [LAPTOP, PROJECTOR], ids=["1280", "1920"])
def test_wide_screens_clip_no_table(
    browser: Any, base_url: str, site_root: Path, viewport: Any, size: tuple[int, int]
) -> None:
    viewport(size)
    failures: list[str] = []
    for key, path in demo_pages(site_root).items():
        browser.get(base_url + path)
        failures += [f"{key}: {what}" for what in browser.execute_script(CLIPPED)]
        scroll, inner = _page_width(browser)
        if scroll > inner:
            failures.append(f"{key}: the page scrolls sideways ({scroll}px at {inner}px)")
    assert not failures, "\n".join(failures)


AXE = (
    "const done = arguments[arguments.length - 1];"
    "axe.run(document, {resultTypes: ['violations']})"
    ".then(r => done(r.violations.map(v => [v.id, v.impact, v.nodes.length,"
    " v.nodes.slice(0, 3).map(n => n.target.join(' '))])))"
    ".catch(e => done([['axe-error', 'critical', 0, [String(e)]]]));"
)


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["390", "1280"])
def test_axe_at_phone_and_laptop_width(
    browser: Any, base_url: str, site_root: Path, axe_source: str, viewport: Any,
    size: tuple[int, int],
) -> None:
    viewport(size)
    failures = []
    pages = one_of_each(demo_pages(site_root))
    pages["screen round"] = "2026/spring-steamroller/round-4/index.html?screen"
    pages["screen standings"] = "2026/spring-steamroller/index.html?screen"
    pages["followed event"] = "2026/spring-steamroller/index.html"
    for key, path in pages.items():
        browser.get(base_url + path)
        if key == "followed event":  # a reader who follows Dev Patel: lead line, highlight
            browser.execute_script("localStorage.setItem('standgen-follow', arguments[0])",
                                   '{"id": "dev-p", "name": "Dev Patel"}')
            browser.refresh()
            assert browser.execute_script("return document.querySelectorAll('tr.me').length")
        browser.execute_script(axe_source)
        for rule, impact, count, targets in browser.execute_async_script(AXE):
            if impact in ("serious", "critical"):
                failures.append(f"{key} {path}: {rule} ({impact}, {count}) {targets}")
    browser.execute_script("localStorage.clear()")
    assert not failures, "\n".join(failures)
