"""Issue #18: the printed pairing sheets (by table, by name) and result slips, as PDFs.

Chromium prints each page to PDF (DevTools ``Page.printToPDF``, the CSS page size: A4);
``pdftotext`` (Debian's poppler-utils) reads the words back with their boxes. Every
column's text of the sheets and slips is in the PDF, the table heads repeat on every
page, and the body type is at least 14 pt.
"""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import WebDriverException

from tests.browser.conftest import missing

FORMATS = ("club-swiss", "go-mcmahon", "spring-steamroller", "old-world-open", "diplomacy-open")
# pdftotext's word boxes span the font's ascent and descent: about 1.16 em for DejaVu
# Sans and 1.15 for Liberation Sans. 14 pt type gives boxes of 15.4 pt at the least.
MIN_BOX = 14 * 1.1


def _rounds(root: Path, event: str) -> list[str]:
    folder = root / "2026" / event
    found = sorted(folder.glob("round-*/index.html"), key=lambda p: int(p.parent.name[6:]))
    return [p.relative_to(root).as_posix() for p in found]


def _pdf(browser: Any, url: str, out: Path) -> Path:
    if shutil.which("pdftotext") is None:
        missing("pdftotext is not installed (apt-get install poppler-utils)")
    browser.get(url)
    for attempt in range(3):
        try:
            data = browser.execute_cdp_cmd("Page.printToPDF",
                                           {"preferCSSPageSize": True})["data"]
            break
        except WebDriverException as exc:  # headless Chromium's rare "Printing failed"
            if "Printing failed" not in str(exc) or attempt == 2:
                raise
            browser.get(url)
    out.write_bytes(base64.b64decode(data))
    return out


def _pages(pdf: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout
    return text.split("\f")


def _boxes(pdf: Path) -> list[tuple[str, float]]:
    xml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True,
                         capture_output=True, text=True).stdout
    return [(word, float(y2) - float(y1)) for y1, y2, word in re.findall(
        r'<word xMin="[^"]+" yMin="([^"]+)" xMax="[^"]+" yMax="([^"]+)">([^<]*)</word>', xml)]


def _printed_cells(browser: Any, selector: str) -> list[str]:
    """Return the text of every cell of the tables at ``selector`` as print lays them out."""
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        cells = browser.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]))"
            ".flatMap(t => Array.from(t.querySelectorAll('th, td')))"
            ".filter(c => c.getClientRects().length > 0)"
            ".map(c => c.innerText.trim())", selector)
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    return [str(c) for c in cells]


def _unescape(word: str) -> str:
    return word.replace("&amp;", "&").replace("&apos;", "'").replace("&quot;", '"') \
        .replace("&lt;", "<").replace("&gt;", ">").replace("&#39;", "'")


def _check(cells: list[str], pdf: Path, names: list[str]) -> list[str]:
    pages = _pages(pdf)
    words = set(" ".join(pages).split())
    failures = [f"{pdf.name}: {token!r} (of {cell!r}) is not in the PDF"
                for cell in cells for token in cell.split() if token not in words]
    boxes = {}
    for word, height in _boxes(pdf):
        word = _unescape(word)
        boxes[word] = min(height, boxes.get(word, height))
    for name in names:
        for token in name.split():
            if token in boxes and boxes[token] < MIN_BOX:
                failures.append(f"{pdf.name}: {token!r} is {boxes[token] / 1.16:.1f} pt")
    return failures


@pytest.mark.parametrize("event", FORMATS)
def test_pairing_sheets_print_every_column_at_14pt(
    browser: Any, base_url: str, site_root: Path, tmp_path: Path, event: str
) -> None:
    failures: list[str] = []
    for path in _rounds(site_root, event):
        browser.get(base_url + path)
        cells = _printed_cells(browser, "table.sheet, table.pairings, table.by-name")
        names = _printed_cells(browser, "table.by-name")[3::3]
        assert cells and names, path
        pdf = _pdf(browser, base_url + path, tmp_path / (path.replace("/", "-") + ".pdf"))
        failures += _check(cells, pdf, names)
        # The sheets' heads repeat on every page that continues a table.
        for number, page in enumerate(_pages(pdf)[1:], start=2):
            if any(name in page for name in names) and "Player" not in page:
                failures.append(f"{path}: page {number} has players but no table head")
    assert not failures, "\n".join(failures[:40])


@pytest.mark.parametrize("event", FORMATS)
def test_result_slips_print_players_tables_and_boxes(
    browser: Any, base_url: str, site_root: Path, tmp_path: Path, event: str
) -> None:
    path = _rounds(site_root, event)[-1].replace("index.html", "slips/index.html")
    browser.get(base_url + path)
    cells = _printed_cells(browser, "table.slip-table")
    headings = browser.execute_script(
        "return Array.from(document.querySelectorAll('.slip h2')).map(h => h.textContent)")
    names = [str(n) for n in browser.execute_script(
        "return Array.from(document.querySelectorAll('.slip-table tbody th'))"
        ".map(th => th.firstChild.textContent.trim())")]
    assert headings and names, path
    assert all(re.match(r"(Table|Board) \d+ · Round \d+ · ", str(h)) for h in headings)
    pdf = _pdf(browser, base_url + path, tmp_path / "slips.pdf")
    failures = _check(cells + [str(h) for h in headings], pdf, names)
    assert not failures, "\n".join(failures[:40])
