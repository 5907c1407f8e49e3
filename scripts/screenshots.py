#!/usr/bin/env python3
"""Screenshots of every page type of the demo site: phone (390 px), desktop (1280 px), print.

Re-run with::

    .venv/bin/python scripts/screenshots.py [--site FOLDER] [--out docs/screenshots]

It builds the demo (``events/``) into a temporary folder unless ``--site`` names a built
site, serves it on 127.0.0.1 and drives Debian's headless Chromium (``chromium`` and
``chromium-driver``) with Selenium. Print screenshots are taken with the print media
type emulated at A4 width. Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import base64
import functools
import http.server
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

# One page of each type (paths inside the built demo site), as docs/site.md shows them.
PAGES = {
    "home": "index.html",
    "season": "2026/index.html",
    "event": "2026/spring-steamroller/index.html",
    "round": "2026/spring-steamroller/round-3/index.html",
    "round-oldworld": "2026/old-world-open/round-3/index.html",
    "round-boards": "2026/diplomacy-open/round-4/index.html",
    "round-proposed": "2026/spring-steamroller/round-4/index.html",
    "slips": "2026/spring-steamroller/round-4/slips/index.html",
    "player": "2026/spring-steamroller/players/emma-w/index.html",
    "history": "players/dev-p/index.html",
    "extra": "2026/club-swiss/lab/index.html",
    "archive": "archive/index.html",
    "ratings": "archive/ratings/index.html",
    "meta": "archive/meta-steamroller/index.html",
    "ratings-player": "players/dev-p/ratings/index.html",
    "help": "help/tiebreaks/sos/index.html",
    "screen": "2026/spring-steamroller/round-4/index.html?screen",
    "followed": "2026/spring-steamroller/index.html",  # a reader who follows Dev Patel
}
FOLLOW = '{"id": "dev-p", "name": "Dev Patel"}'
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
PRINT = ("event", "round", "round-oldworld", "round-boards", "round-proposed", "slips", "player")
A4 = (794, 1123)  # A4 at 96 px an inch


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


def _driver(width: int, height: int) -> object:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--disable-dev-shm-usage", "--force-device-scale-factor=1",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='standgen-shots-')}",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def _full_page(
    driver: object, path: Path, width: int, height: int, screens: float
) -> None:
    """Save the top of the page, ``screens`` screens tall at most, ``width`` wide."""
    total = driver.execute_script("return document.documentElement.scrollHeight")  # type: ignore[attr-defined]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {  # type: ignore[attr-defined]
        "width": width, "height": min(int(total), int(height * screens)),
        "deviceScaleFactor": 1, "mobile": width < 600})
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {  # type: ignore[attr-defined]
        "format": path.suffix[1:], "captureBeyondViewport": False,
        **({"quality": 82} if path.suffix == ".webp" else {})})
    path.write_bytes(base64.b64decode(shot["data"]))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})  # type: ignore[attr-defined]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build events/)")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--only", help="comma-separated page keys")
    parser.add_argument("--screens", type=float, default=1.0,
                        help="how many screens of each page to keep (default 1)")
    parser.add_argument("--format", choices=("webp", "png"), default="webp")
    args = parser.parse_args()
    site = args.site
    if site is None:
        from standgen.build import build

        site = Path(tempfile.mkdtemp(prefix="standgen-demo-")) / "site"
        build(REPO / "events", site)
    args.out.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    only = set(args.only.split(",")) if args.only else set(PAGES)
    try:
        for size, (width, height) in SIZES.items():
            driver = _driver(width, height)
            try:
                for key, path in PAGES.items():
                    if key not in only:
                        continue
                    driver.get(base + path)  # type: ignore[attr-defined]
                    script = ("localStorage.setItem('standgen-follow', arguments[0])"
                              if key == "followed" else "localStorage.clear()")
                    driver.execute_script(script, FOLLOW)  # type: ignore[attr-defined]
                    if key == "followed":
                        driver.refresh()  # type: ignore[attr-defined]
                    if key == "screen":
                        time.sleep(2)  # the screen view has scrolled a little
                    _full_page(driver, args.out / f"{key}-{size}.{args.format}", width, height,
                               args.screens)
                    if size == "desktop" and key in PRINT:
                        driver.execute_cdp_cmd(  # type: ignore[attr-defined]
                            "Emulation.setEmulatedMedia", {"media": "print"})
                        printed = args.out / f"{key}-print.{args.format}"
                        _full_page(driver, printed, *A4, args.screens)
                        driver.execute_cdp_cmd(  # type: ignore[attr-defined]
                            "Emulation.setEmulatedMedia", {"media": ""})
            finally:
                driver.quit()  # type: ignore[attr-defined]
    finally:
        server.shutdown()
    print(f"Screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
