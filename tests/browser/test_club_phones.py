"""Issue #20: the club pages (rating lists, meta pages, players' rating histories) on a
390-px phone and a 1280-px laptop, in headless Chromium.

The pages are those of the demo site as ``standgen build`` writes it, served on
127.0.0.1 (the browser tests' shared ``base_url``). At 390 px no page scrolls sideways
(wide tables, the matchup matrix first, scroll inside their own region); at 1280 px no
table is clipped; axe-core finds no serious or critical issue at either width.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.test_phones import AXE, CLIPPED, LAPTOP, PHONE, _viewport

PAGES = {
    "site ratings": "archive/ratings/index.html",
    "season ratings": "archive/2026/ratings/index.html",
    "steamroller meta": "archive/2026/meta-steamroller/index.html",
    "old-world meta": "archive/2026/meta-old-world/index.html",
    "swiss meta": "archive/2026/meta-swiss/index.html",
    "go meta": "archive/2026/meta-mcmahon/index.html",
    "diplomacy meta": "archive/2026/meta-diplomacy/index.html",
    "player ratings (boards)": "players/dev-p/ratings/index.html",
    "player ratings (chess)": "players/helen-w/ratings/index.html",
}


@pytest.fixture(scope="module")
def club_url(base_url: str) -> str:
    """The demo site as ``standgen build`` writes it (the club pages are in every build)."""
    return base_url


@pytest.fixture
def viewport(browser: Any) -> Iterator[Any]:
    yield lambda size: _viewport(browser, *size)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _width(driver: Any) -> tuple[int, int]:
    return (int(driver.execute_script("return document.documentElement.scrollWidth")),
            int(driver.execute_script("return window.innerWidth")))


IN_REGION = """
return Array.from(document.querySelectorAll('main table'))
  .filter((t) => !t.parentElement.classList.contains('scroll'))
  .map((t) => (t.caption ? t.caption.textContent : t.className));
"""


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["390", "1280"])
def test_club_pages_never_scroll_sideways_nor_clip_a_table(
    browser: Any, club_url: str, viewport: Any, size: tuple[int, int]
) -> None:
    viewport(size)
    failures: list[str] = []
    for key, path in PAGES.items():
        browser.get(club_url + path)
        scroll, inner = _width(browser)
        assert inner == size[0], key
        if scroll > inner:
            failures.append(f"{key}: the page scrolls sideways ({scroll}px at {inner}px)")
        failures += [f"{key}: table outside a scrolling region: {what}"
                     for what in browser.execute_script(IN_REGION)]
        if size == LAPTOP:
            failures += [f"{key}: {what}" for what in browser.execute_script(CLIPPED)]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["390", "1280"])
def test_club_pages_pass_axe(
    browser: Any, club_url: str, axe_source: str, viewport: Any, size: tuple[int, int]
) -> None:
    viewport(size)
    failures = []
    for key, path in PAGES.items():
        browser.get(club_url + path)
        browser.execute_script(axe_source)
        for rule, impact, count, targets in browser.execute_async_script(AXE):
            if impact in ("serious", "critical"):
                failures.append(f"{key}: {rule} ({impact}, {count}) {targets}")
    assert not failures, "\n".join(failures)
