"""Issue #18: "follow a player" (this browser only) and the venue's screen (``?screen``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

EVENT = "2026/spring-steamroller/"


def test_follow_a_player_highlights_them_and_leads_with_their_table(
    browser: Any, base_url: str, site_root: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(base_url + EVENT + "players/dev-p/index.html")
    try:
        button = browser.find_element(By.CSS_SELECTOR, "button[data-follow-name]")
        assert button.is_displayed() and "follow Dev Patel" in button.text
        button.click()
        WebDriverWait(browser, 5).until(
            lambda d: "Stop following" in d.find_element(
                By.CSS_SELECTOR, "button[data-follow-name]").text)
        stored = browser.execute_script("return localStorage.getItem('standgen-follow')")
        assert stored == '{"id":"dev-p","name":"Dev Patel"}'

        browser.get(base_url + EVENT + "index.html")
        lead = browser.find_element(By.CSS_SELECTOR, "[data-follow-lead]")
        assert lead.is_displayed()
        assert "Round 4: table 4 against Anna Kowalski (Cygnar)" in lead.text
        assert "proposed" in lead.text
        mine = browser.find_elements(By.CSS_SELECTOR, "table.standings tr.me")
        assert len(mine) == 1 and "Dev Patel" in mine[0].text

        browser.get(base_url + EVENT + "round-3/index.html")
        rows = browser.find_elements(By.CSS_SELECTOR, "table.pairings tr.me")
        assert len(rows) == 1 and "Dev Patel" in rows[0].text

        browser.get(base_url + "index.html")
        WebDriverWait(browser, 5).until(
            lambda d: "Spring Steamroller: Round 4: table 4 against Anna Kowalski"
            in d.find_element(By.CSS_SELECTOR, "[data-follow-lead]").text)
        browser.find_element(By.CSS_SELECTOR, "[data-follow-lead] button").click()
        WebDriverWait(browser, 5).until(
            lambda d: d.execute_script("return localStorage.getItem('standgen-follow')") is None)
        browser.get(base_url + EVENT + "index.html")
        assert not browser.find_element(By.CSS_SELECTOR, "[data-follow-lead]").is_displayed()
        assert not browser.find_elements(By.CSS_SELECTOR, "tr.me")
    finally:
        browser.execute_script("localStorage.clear()")


def test_screen_view_is_large_and_scrolls_itself(browser: Any, base_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 500)
    try:
        for page in ("round-3/index.html", "index.html"):
            browser.get(base_url + EVENT + page + "?screen")
            assert browser.execute_script(
                "return document.documentElement.classList.contains('screen')")
            assert not browser.find_element(By.CSS_SELECTOR, "header.site").is_displayed()
            size = browser.execute_script(
                "return parseFloat(getComputedStyle(document.body).fontSize)")
            assert size >= 20
            time.sleep(1.5)
            assert browser.execute_script("return window.scrollY") > 0, page
    finally:
        browser.set_window_size(1280, 900)
