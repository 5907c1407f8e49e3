"""Every HTML page of the demo site, and of the hostile test site, parses as strict HTML5."""

from __future__ import annotations

from pathlib import Path

import html5lib
import pytest

from tests.test_site import build, hostile_event, long_event, tied_event

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    from standgen.build import build as build_site

    out = tmp_path_factory.mktemp("demo") / "output"
    build_site(REPO / "events", out)
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
             if p.is_file()}
    files.update({f"test/{k}": v for k, v in build(tied_event(), long_event(),
                                                   hostile_event()).items()})
    return files


def test_every_page_is_strict_html5(demo: dict[str, bytes]) -> None:
    pages = [path for path in demo if path.endswith(".html")]
    assert len(pages) > 50
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    for path in pages:
        try:
            parser.parse(demo[path].decode())
        except html5lib.html5parser.ParseError as exc:
            raise AssertionError(f"{path}: {exc}") from exc


def test_ids_are_unique_on_every_page(demo: dict[str, bytes]) -> None:
    import re

    for path, content in demo.items():
        if path.endswith(".html"):
            ids = re.findall(r'\sid="([^"]+)"', content.decode())
            assert len(ids) == len(set(ids)), (path, sorted(i for i in ids if ids.count(i) > 1))
