"""The site in its players' language (issue #32).

The demo is built in each of the eight languages; on every translated page type (the
round pages, with the frame every page shares) no English word of standgen's own text
is left, once the names and the TOs' text (every string of the events' input files) are
taken out; numbers and dates are in the language's form. An English site is the one it
was before languages (tests/test_site*.py compare it).
"""

from __future__ import annotations

import csv
import html
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from standgen.build import build
from standgen.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "events"
LANGUAGES = ("de", "fr", "es", "it", "nl", "pl", "cs", "ja")
WORD = re.compile(r"[A-Za-z]{3,}")


def catalogue(language: str) -> dict[str, str]:
    from babel.messages.pofile import read_po

    path = ROOT / "standgen" / "locale" / language / "LC_MESSAGES" / "standgen.po"
    with path.open("rb") as f:
        found = read_po(f)
    pairs: dict[str, str] = {}
    for message in found:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for msgid in ids:
            pairs[msgid] = " ".join(strings)
    return pairs


def english_words(language: str) -> set[str]:
    """Return the words of standgen's English text that the language does not share
    ("Table" is French too, "Komi" every language's)."""
    pairs = catalogue(language)
    ours = {w.casefold() for msgid in pairs for w in WORD.findall(msgid.replace("%(", " "))}
    theirs = {w.casefold() for text in pairs.values() for w in WORD.findall(text)}
    return ours - theirs - {"number", "planned", "result", "score", "note", "date", "time",
                            "done", "games"}


def input_strings(events: Path) -> set[str]:
    """Return every cell and value the TO wrote: names, factions, powers, event names."""
    found: set[str] = set()
    for path in events.rglob("*"):
        if path.suffix == ".csv":  # the rows, not the header (column names are ours)
            for row in list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))[1:]:
                found.update(cell.strip() for cell in row)
        elif path.suffix in (".toml", ".md"):
            for line in path.read_text(encoding="utf-8").splitlines():
                found.update(m.strip() for m in re.findall(r'"([^"]+)"', line))
                found.add(line.split("=", 1)[-1].strip().strip('"'))
    return {text for text in found if len(text) >= 3 and not text.isdigit()}


def visible(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<abbr title=\"([^\"]*)\"", r" \1 <abbr", page)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    built: dict[str, Path] = {}
    for language in LANGUAGES:
        base = tmp_path_factory.mktemp(language)
        events = base / "events"
        shutil.copytree(DEMO, events)
        (events / "site.toml").write_text(f'title = "Club"\nlanguage = "{language}"\n',
                                          encoding="utf-8")
        build(events, base / "site", jobs=1)
        built[language] = base
    return built


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_word_left_on_round_pages(sites: dict[str, Path], language: str) -> None:
    base = sites[language]
    theirs = sorted(input_strings(base / "events"), key=len, reverse=True)
    english = english_words(language)
    left: dict[str, set[str]] = {}
    pages = sorted((base / "site").glob("2026/*/round-*/index.html"))
    assert len(pages) >= 15
    for page in pages:
        text = visible(page.read_text(encoding="utf-8"))
        text = re.sub(r"\b[\w-]+\.(json|csv)\b", " ", text)  # the data contract's file names
        for value in theirs:
            text = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", " ", text)
        words = {w for w in WORD.findall(text) if w.casefold() in english}
        if words:
            left[str(page.relative_to(base))] = words
    assert left == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_numbers_and_dates_in_the_language(sites: dict[str, Path], language: str) -> None:
    from babel.numbers import get_decimal_symbol

    page = (sites[language] / "site" / "2026" / "club-swiss" / "round-3" / "index.html")
    text = page.read_text(encoding="utf-8")
    assert f'<html lang="{language}">' in text
    symbol = get_decimal_symbol(language)
    assert f"1{symbol}5" in visible(text)
    if symbol != ".":
        assert "1.5" not in visible(text)


def test_a_date_in_each_language_form() -> None:
    import datetime as dt

    from standgen.site import i18n

    day = dt.date(2026, 3, 14)
    with i18n.active("de"):
        assert i18n.date(day, "2026-03-14") == "14.03.2026"
    with i18n.active("en"):
        assert i18n.date(day, "2026-03-14") == "2026-03-14"
    with i18n.active("ja"):
        assert i18n.date(day, "2026-03-14") == "2026/03/14"


def test_event_language_overrides_the_site(tmp_path: Path) -> None:
    events = tmp_path / "events"
    shutil.copytree(DEMO, events)
    (events / "site.toml").write_text('language = "de"\n', encoding="utf-8")
    toml = events / "2026" / "go-mcmahon" / "event.toml"
    toml.write_text('language = "ja"\n' + toml.read_text(encoding="utf-8"), encoding="utf-8")
    build(events, tmp_path / "site", jobs=1)
    go = (tmp_path / "site/2026/go-mcmahon/round-1/index.html").read_text(encoding="utf-8")
    swiss = (tmp_path / "site/2026/club-swiss/round-1/index.html").read_text(encoding="utf-8")
    assert '<html lang="ja">' in go and "第1ラウンド" in go
    assert '<html lang="de">' in swiss and "Runde 1" in swiss


def test_an_unknown_language_is_a_problem(tmp_path: Path) -> None:
    events = tmp_path / "events"
    shutil.copytree(DEMO, events)
    (events / "site.toml").write_text('language = "xx"\n', encoding="utf-8")
    with pytest.raises(InputError, match="'language' 'xx' must be one of"):
        build(events, tmp_path / "site", jobs=1)


def test_compiled_catalogues_are_current() -> None:
    """The committed .mo files are the compiled .po files (scripts/i18n.py)."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "i18n.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


def test_a_hidden_player_is_named_in_the_language(tmp_path: Path) -> None:
    from standgen.eventday import edit_player

    events = tmp_path / "events"
    shutil.copytree(DEMO, events)
    (events / "site.toml").write_text('language = "de"\n', encoding="utf-8")
    edit_player(events / "2026" / "club-swiss", "tomas-k", "publish", lambda _: "hidden")
    build(events, tmp_path / "site", jobs=1)
    page = (tmp_path / "site/2026/club-swiss/round-1/index.html").read_text(encoding="utf-8")
    assert "Spieler 2" in page and "Player 2" not in page and "Tomas" not in page
