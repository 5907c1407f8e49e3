"""Browser tests: the built demo site served on 127.0.0.1, driven in headless Chromium.

Debian's ``chromium`` and ``chromium-driver`` are used (``.ci/run`` installs them under
CI); nothing is downloaded by Selenium. Without them the tests skip locally and fail
under CI (``CI=true``). axe-core comes from the npm registry (``npm pack axe-core@4``)
into ``.pytest_cache/axe-core/``, or from ``$AXE_CORE_JS``.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import subprocess
import tarfile
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = ("/usr/bin/chromium", "/usr/lib/chromium/chromium")
CHROMEDRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
AXE_CACHE = REPO / ".pytest_cache" / "axe-core"
UNDER_CI = os.environ.get("CI", "").lower() == "true"


def missing(reason: str) -> None:
    """Skip with ``reason`` locally; fail under CI, where the browser tests must run."""
    if UNDER_CI:
        pytest.fail(f"{reason} (CI=true: browser tests must run; .ci/run installs them)")
    pytest.skip(reason)


def _first(paths: tuple[str, ...]) -> str | None:
    return next((p for p in paths if os.access(p, os.X_OK)), None)


@pytest.fixture(scope="session")
def site_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the folder of the demo site, built from ``events/`` with the real build."""
    from standgen.build import build

    out = tmp_path_factory.mktemp("site") / "output"
    build(REPO / "events", out)
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


@pytest.fixture(scope="session")
def base_url(site_root: Path) -> Iterator[str]:
    """Return the address of the demo site, served on 127.0.0.1 at a free port."""
    with served(site_root) as url:
        yield url


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 at a free port while the block runs; give its address."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Return a headless Chromium WebDriver (Debian's packages; never a download)."""
    chromium, driver_path = _first(CHROMIUM), _first(CHROMEDRIVER)
    if chromium is None or driver_path is None:
        missing("Chromium and chromedriver are not installed "
                "(apt-get install chromium chromium-driver)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing("selenium is not installed (pip install -e '.[test]')")
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never download anything
    profile = tempfile.mkdtemp(prefix="standgen-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def axe_source() -> str:
    """Return axe-core's ``axe.min.js`` (``$AXE_CORE_JS``, the cache, or ``npm pack``)."""
    given = os.environ.get("AXE_CORE_JS")
    if given and Path(given).is_file():
        return Path(given).read_text(encoding="utf-8")
    cached = AXE_CACHE / "package" / "axe.min.js"
    if not cached.is_file() and shutil.which("npm"):
        AXE_CACHE.mkdir(parents=True, exist_ok=True)
        try:
            subprocess.run(["npm", "pack", "axe-core@4", "--pack-destination", str(AXE_CACHE)],
                           check=True, capture_output=True, timeout=180)
        except (subprocess.SubprocessError, OSError):
            pass
        for archive in sorted(AXE_CACHE.glob("axe-core-*.tgz")):
            with tarfile.open(archive) as tar:
                member = tar.getmember("package/axe.min.js")
                tar.extractall(AXE_CACHE, members=[member], filter="data")
    if not cached.is_file():
        missing("axe-core is not available (npm pack axe-core@4, or set AXE_CORE_JS)")
    return cached.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
