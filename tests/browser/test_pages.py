"""The demo site in real Chromium: navigation, sorting, filtering, phone width, axe-core."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any


def page_types(root: Path) -> dict[str, str]:
    """Return one page of each kind in the built site, by kind (paths from the root)."""
    pages = sorted(p.relative_to(root).as_posix() for p in root.rglob("index.html"))
    patterns = {
        "home": r"index\.html",
        "season": r"[^/]+/index\.html",
        "event": r"[^/]+/[^/]+/index\.html",
        "round": r".+/round-\d+/index\.html",
        "player": r".+/[^/]+/players/[^/]+/index\.html",
        "history": r"players/[^/]+/index\.html",
        "archive": r"archive/index\.html",
        "help": r"help/tiebreaks/[^/]+/index\.html",
        "extra": r".+/lab/index\.html",
    }
    site_folders = ("players/", "help/", "archive/")
    found: dict[str, str] = {}
    for kind, pattern in patterns.items():
        own = kind in ("history", "help", "archive")
        for page in pages:
            if re.fullmatch(pattern, page) and own == page.startswith(site_folders):
                found[kind] = page
                break
    return found


def open_page(driver: Any, url: str) -> None:
    driver.get(url)
    driver.execute_script("return document.readyState")


def test_navigate_home_to_tiebreak_breakdown(
    browser: Any, base_url: str, screenshots: Path
) -> None:
    from selenium.webdriver.common.by import By

    open_page(browser, base_url + "index.html")
    browser.save_screenshot(str(screenshots / "home.png"))
    browser.find_element(By.CSS_SELECTOR, "main .items a[href$='/index.html']").click()
    if browser.find_elements(By.CSS_SELECTOR, "body.page-season"):
        browser.find_element(By.CSS_SELECTOR, "#events + ul a").click()
    assert browser.find_elements(By.CSS_SELECTOR, "body.page-event"), browser.current_url
    browser.save_screenshot(str(screenshots / "event.png"))
    browser.find_element(By.CSS_SELECTOR, "ol.rounds a").click()
    assert browser.find_elements(By.CSS_SELECTOR, "body.page-round")
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("Round 1")
    browser.save_screenshot(str(screenshots / "round.png"))
    nxt = browser.find_elements(By.CSS_SELECTOR, ".pager a[rel=next]")
    if nxt:
        nxt[0].click()
        assert browser.find_element(By.TAG_NAME, "h1").text.startswith("Round 2")
    browser.find_element(By.CSS_SELECTOR, "table.pairings td.name a").click()
    assert browser.find_elements(By.CSS_SELECTOR, "body.page-player")
    browser.save_screenshot(str(screenshots / "player.png"))
    items = browser.find_elements(By.CSS_SELECTOR, "ul.breakdowns li")
    assert items, "the player page shows each tiebreak's breakdown"
    assert all("=" in item.text for item in items)
    link = items[0].find_elements(By.CSS_SELECTOR, "a")
    if link:
        link[0].click()
        assert browser.find_elements(By.CSS_SELECTOR, "body.page-help")
        browser.save_screenshot(str(screenshots / "tiebreak-help.png"))


def _column(driver: Any, table: str, index: int) -> list[str]:
    return [str(v) for v in driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0] + ' tbody tr'))"
        ".filter(r => !r.hidden).map(r => r.cells[arguments[1]].textContent.trim())",
        table, index)]


def test_sort_a_column(browser: Any, base_url: str, site_root: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    open_page(browser, base_url + page_types(site_root)["event"])
    headers = browser.find_elements(By.CSS_SELECTOR, "table.standings thead th")
    sorted_now = [h for h in headers if h.get_attribute("aria-sort")]
    assert len(sorted_now) == 1 and sorted_now[0].get_attribute("aria-sort") == "ascending"
    player = next(i for i, h in enumerate(headers) if h.text.strip() == "Player")
    button = headers[player].find_element(By.CSS_SELECTOR, "button.sort")
    button.send_keys(Keys.ENTER)  # keyboard: a real button, reachable with Tab
    names = _column(browser, "table.standings", player)
    assert names == sorted(names, key=str.casefold)
    assert headers[player].get_attribute("aria-sort") == "ascending"
    assert [h.get_attribute("aria-sort") for h in headers].count(None) == len(headers) - 1
    button.click()
    assert headers[player].get_attribute("aria-sort") == "descending"
    assert _column(browser, "table.standings", player) == list(reversed(names))
    score = 2  # rank, player, score: the columns a phone always shows come first
    headers[score].find_element(By.CSS_SELECTOR, "button.sort").click()
    values = [float(v) for v in _column(browser, "table.standings", score)]
    assert values == sorted(values, reverse=True)
    assert headers[score].get_attribute("aria-sort") == "descending"


def test_filter_a_name(browser: Any, base_url: str, site_root: Path) -> None:
    from selenium.webdriver.common.by import By

    open_page(browser, base_url + page_types(site_root)["event"])
    box = browser.find_element(By.CSS_SELECTOR, "input[data-filter]")
    assert box.is_displayed()
    names = _column(browser, "table.standings", 1)
    target = names[-1]
    box.send_keys(target[:4])
    shown = _column(browser, "table.standings", 1)
    assert target in shown
    assert all(target[:4].casefold() in n.casefold() for n in shown)
    assert len(shown) < len(names)
    box.clear()
    box.send_keys(" ")  # the input event fires; a blank query shows everyone again
    assert len(_column(browser, "table.standings", 1)) == len(names)


PHONE = (360, 740)


def test_phone_width_has_no_horizontal_page_scroll(
    browser: Any, base_url: str, site_root: Path, screenshots: Path
) -> None:
    browser.set_window_size(*PHONE)
    try:
        width = browser.execute_script("return window.innerWidth")
        for kind, path in page_types(site_root).items():
            open_page(browser, base_url + path)
            scroll = browser.execute_script("return document.documentElement.scrollWidth")
            inner = browser.execute_script("return window.innerWidth")
            assert scroll <= inner, f"{kind} page {path}: {scroll}px wide at {inner}px"
            browser.save_screenshot(str(screenshots / f"phone-{kind}.png"))
        assert width <= 400
    finally:
        browser.set_window_size(1280, 900)


def test_axe_finds_no_serious_violation(
    browser: Any, base_url: str, site_root: Path, axe_source: str, screenshots: Path
) -> None:
    failures = []
    for kind, path in page_types(site_root).items():
        open_page(browser, base_url + path)
        browser.save_screenshot(str(screenshots / f"{kind}.png"))
        browser.execute_script(axe_source)
        result = browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']})"
            ".then(r => done(r.violations.map(v => [v.id, v.impact, v.nodes.length,"
            " v.nodes.slice(0, 3).map(n => n.target.join(' '))])))"
            ".catch(e => done([['axe-error', 'critical', 0, [String(e)]]]));"
        )
        for rule, impact, count, targets in result:
            if impact in ("serious", "critical"):
                failures.append(f"{kind} {path}: {rule} ({impact}, {count}) {targets}")
    assert not failures, "\n".join(failures)


def test_print_media_shows_pairings_large(browser: Any, base_url: str, site_root: Path) -> None:
    from selenium.webdriver.common.by import By

    open_page(browser, base_url + page_types(site_root)["round"])
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        nav = browser.find_elements(By.CSS_SELECTOR, "header.site")
        assert not nav[0].is_displayed()
        size = browser.execute_script(
            "return parseFloat(getComputedStyle(document.querySelector('.table-no')).fontSize)")
        assert size >= 20  # 18pt table numbers
        first = browser.execute_script(
            "return document.querySelector('table.pairings thead th').textContent.trim()")
        assert first in ("Table", "Board")
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
