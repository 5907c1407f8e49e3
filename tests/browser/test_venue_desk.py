"""The venue desk in real Chromium on a 390-px phone screen: the TO enters a table's result."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from standgen.venue import Desk
from standgen.watch import Watch
from tests.conftest import ROUND_HEADER

ROUND_2 = ROUND_HEADER + "1,a,c,,,,,\n2,b,d,,,,,\n"


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """The browser emulating a 390 x 844 phone screen for one test."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    try:
        yield browser
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _serve_desk(root: Path) -> Iterator[Watch]:
    docs = root.parent / "help-docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Help\n")
    watch = Watch(root, port=0, log=lambda line: None, debounce=0.1, docs=docs)
    watch.desk = Desk(watch, self_report=True)
    with watch:
        yield watch


@pytest.fixture
def venue(tree: Callable[..., Path]) -> Iterator[Watch]:
    yield from _serve_desk(tree({"ev/round-2.csv": ROUND_2}))


def test_enter_a_result_on_a_phone(phone: Any, venue: Watch, screenshots: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    assert venue.desk is not None
    base = f"http://127.0.0.1:{venue.port}"
    phone.get(f"{base}/__desk/{venue.desk.token}/")
    assert phone.execute_script("return window.innerWidth") == 390
    overflow = phone.execute_script(
        "return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, "the desk scrolls sideways on a phone"
    form = phone.find_element(By.ID, "table-2")
    Select(form.find_element(By.NAME, "result")).select_by_value("0-1")
    for name, value in (("cp_1", "1"), ("cp_2", "4"), ("apd_1", "12"), ("apd_2", "33")):
        field = form.find_element(By.NAME, name)
        assert field.size["height"] >= 40, "touch targets are at least 40 px high"
        field.send_keys(value)
    phone.save_screenshot(str(screenshots / "venue-desk-phone.png"))
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(phone, 30).until(lambda d: d.find_elements(By.ID, "saved"))
    assert "Table 2 saved" in phone.find_element(By.ID, "saved").text
    assert "2,b,d,0-1,1,4,12,33\n" in (venue.events / "ev" / "round-2.csv").read_text()
    end = time.monotonic() + 5
    while True:
        with urllib.request.urlopen(f"{base}/ev/round-2/pairings.json", timeout=10) as reply:
            tables = json.loads(reply.read())["tables"]
        if [t["result"] for t in tables if t["table"] == 2] == ["0-1"]:
            break
        assert time.monotonic() < end, "the served page did not change"
        time.sleep(0.05)
    phone.get(f"{base}/ev/round-2/")
    assert "Dan" in phone.find_element(By.TAG_NAME, "body").text


def test_players_report_on_their_phones(phone: Any, venue: Watch, screenshots: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    assert venue.desk is not None
    base = f"http://127.0.0.1:{venue.port}"
    phone.get(f"{base}/__slips/{venue.desk.slips_token}/?event=ev&round=2")
    phone.save_screenshot(str(screenshots / "venue-slips-phone.png"))
    code = phone.find_elements(By.CSS_SELECTOR, ".slip .code")[0].text
    for seat in ("1", "2"):
        phone.get(f"{base}/__report/")
        phone.find_element(By.NAME, "code").send_keys(code.lower())
        phone.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(phone, 30).until(lambda d: d.find_elements(By.NAME, "seat"))
        phone.find_element(By.CSS_SELECTOR, f"input[name=seat][value='{seat}']").click()
        Select(phone.find_element(By.NAME, "result")).select_by_value("1-0")
        phone.find_element(By.NAME, "cp_1").send_keys("5")
        phone.find_element(By.NAME, "cp_2").send_keys("0")
        if seat == "2":
            phone.save_screenshot(str(screenshots / "venue-report-phone.png"))
        phone.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(phone, 30).until(lambda d: d.find_elements(By.ID, "done"))
        assert phone.execute_script(
            "return document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert "Both reports agree" in phone.find_element(By.ID, "done").text
    assert "1,a,c,1-0,5,0,," in (venue.events / "ev" / "round-2.csv").read_text()


def test_axe_finds_no_serious_violation_on_the_desk(
    phone: Any, venue: Watch, axe_source: str
) -> None:
    assert venue.desk is not None
    base = f"http://127.0.0.1:{venue.port}"
    failures = []
    for path in (f"/__desk/{venue.desk.token}/", f"/__slips/{venue.desk.slips_token}/",
                 "/__report/"):
        phone.get(base + path)
        phone.execute_script(axe_source)  # WebDriver scripts are not bound by the page's CSP
        result = phone.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']})"
            ".then(r => done(r.violations.map(v => [v.id, v.impact, v.nodes.length,"
            " v.nodes.slice(0, 3).map(n => n.target.join(' '))])))"
            ".catch(e => done([['axe-error', 'critical', 0, [String(e)]]]));"
        )
        failures += [f"{path}: {rule} ({impact}, {count}) {targets}"
                     for rule, impact, count, targets in result
                     if impact in ("serious", "critical")]
    assert not failures, "\n".join(failures)


def test_the_desk_with_long_accented_names_at_390_and_1280_px(
    browser: Any, tree: Callable[..., Path], screenshots: Path
) -> None:
    """Twelve tables of real names (40-character double-barrelled, two Oliver Smiths),
    one done, one refused entry: nothing scrolls sideways, the refused field shows its
    message beside it, and the done table is marked; screenshots at both widths."""
    import random

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.realnames import field

    people = field(random.Random(28), 24)
    players = "id,name,faction\n" + "".join(f'{p.id},"{p.name}",{p.faction}\n' for p in people)
    rows = "".join(f"{t},{people[2 * t - 2].id},{people[2 * t - 1].id},,,,,\n"
                   for t in range(1, 13))
    rows = rows.replace(f"1,{people[0].id},{people[1].id},,,,,",
                        f"1,{people[0].id},{people[1].id},1-0,3,1,40,20")
    root = tree({"ev/players.csv": players, "ev/round-1.csv": ROUND_HEADER + rows})
    for watch in _serve_desk(root):
        assert watch.desk is not None
        base = f"http://127.0.0.1:{watch.port}/__desk/{watch.desk.token}/"
        for width, height in ((390, 844), (1280, 900)):
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1,
                "mobile": width < 600})
            try:
                browser.get(base)
                form = browser.find_element(By.ID, "table-3")
                form.find_element(By.NAME, "cp_2").send_keys("seven")
                form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
                # the answer is a new page: wait for it (a loaded machine is slow to load)
                error = WebDriverWait(browser, 30).until(
                    lambda d: d.find_element(By.CSS_SELECTOR, "#table-3 p.error"))
                assert "control points of" in error.text and "whole number" in error.text
                assert browser.find_element(By.CSS_SELECTOR, "#table-3 [name=cp_2]"
                                            ).get_attribute("value") == "seven"
                assert "✓ done" in browser.find_element(By.ID, "table-1").text
                assert browser.execute_script(
                    "return document.documentElement.scrollWidth - window.innerWidth") <= 0
                browser.save_screenshot(str(screenshots / f"venue-desk-names-{width}.png"))
                browser.execute_script("document.getElementById('table-3').scrollIntoView()")
                browser.save_screenshot(str(screenshots / f"venue-desk-error-{width}.png"))
            finally:
                browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
