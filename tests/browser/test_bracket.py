"""Issue #31: a bracket page reads on a 360-px phone and shows a round per column on a
laptop.

A 12-player event: three Swiss rounds, then a top-8 cut with a third-place match and
long names. At 360 x 740 the page never scrolls sideways, the winner is at the top and
every player's name of every match lies inside the viewport, the rounds one under the
other. At 1280 x 800 the rounds stand side by side, left to right.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import pytest

from standgen.errors import InputError
from tests.browser.conftest import served

EVENT = ('name = "Cut Cup"\ndate = 2026-05-01\nformat = "swiss"\nrounds = 6\nseed = 5\n\n'
         "[options.cut]\nafter_round = 3\ntop = 8\nthird_place = true\n")
NAMES = ["Anna-Maria Kowalczyk-Wiśniewska", "Bartholomew Featherstonehaugh",
         "Chiamaka Oluwaseun-Adebayo", "Dmitri Vladislavovich Rostropovich",
         "Eleanor Montgomery-Fitzwilliam", "Fatima Zahra Benkirane-Alaoui",
         "Gwendolyn Llewellyn-Pritchard", "Hiroshi Takahashi-Yamamoto", "Ines Vasconcelos",
         "Jürgen Müller-Lüdenscheidt", "Kwame Mensah-Bonsu", "Laleh Farahani-Mostofi"]


def _fill(text: str) -> str:
    """Enter every result: the lower player id wins (a ladder of scores)."""
    rows = list(csv.reader(io.StringIO(text)))
    head = rows[0]
    for row in rows[1:]:
        a, b = row[head.index("player_1")], row[head.index("player_2")]
        if b != "BYE":
            row[head.index("result")] = "1-0" if a < b else "0-1"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


@pytest.fixture(scope="module")
def bracket_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from standgen.build import build, pair

    root = tmp_path_factory.mktemp("cut") / "events"
    folder = root / "cup"
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text(EVENT, encoding="utf-8")
    (folder / "players.csv").write_text(
        "id,name\n" + "".join(f"p{k:02},{n}\n" for k, n in enumerate(NAMES)), encoding="utf-8")
    while True:
        try:
            paired = pair(folder, root)
        except InputError:  # the event is over
            break
        paired.path.write_text(_fill(paired.text), encoding="utf-8")
    site = root.parent / "site"
    build(root, site)
    with served(site) as url:
        yield url + "cup/bracket/index.html"


def _viewport(driver: Any, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


LAYOUT = """
const W = window.innerWidth;
const out = {scrolls: document.documentElement.scrollWidth > W + 1, bad: [], rounds: []};
document.querySelectorAll('.bracket-sides a').forEach((a) => {
  const r = a.getBoundingClientRect();
  if (r.width === 0 || r.left < -0.5 || r.right > W + 0.5) out.bad.push(a.textContent);
});
document.querySelectorAll('.bracket-round').forEach((s) => {
  const r = s.getBoundingClientRect();
  out.rounds.push([Math.round(r.left), Math.round(r.top)]);
});
const winner = document.querySelector('.bracket-winner');
out.winner = winner ? winner.textContent : '';
out.winnerTop = winner ? winner.getBoundingClientRect().top : -1;
out.firstRoundTop = out.rounds.length ? out.rounds[0][1] : -1;
return out;
"""


def test_a_bracket_reads_at_360_px_and_in_columns_at_1280(browser: Any,
                                                        bracket_url: str) -> None:
    try:
        _viewport(browser, 360, 740)
        browser.get(bracket_url)
        phone = browser.execute_script(LAYOUT)
        assert not phone["scrolls"], "the bracket page scrolls sideways at 360 px"
        assert phone["bad"] == [], f"names outside the 360-px viewport: {phone['bad']}"
        assert "Winner" in phone["winner"] and 0 <= phone["winnerTop"] < phone["firstRoundTop"]
        lefts = {left for left, _ in phone["rounds"]}
        tops = [top for _, top in phone["rounds"]]
        assert len(phone["rounds"]) >= 3 and len(lefts) == 1 and tops == sorted(tops)
        _viewport(browser, 1280, 800)
        browser.get(bracket_url)
        wide = browser.execute_script(LAYOUT)
        lefts_wide = [left for left, _ in wide["rounds"]]
        assert lefts_wide == sorted(lefts_wide) and len(set(lefts_wide)) == len(lefts_wide)
        assert wide["bad"] == [] and not wide["scrolls"]
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
