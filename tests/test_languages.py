"""The site in its players' language (issue #32).

The demo (with a team column in one event, so that its team standings are shown) is
built in English and in each of the eight languages; on EVERY page of the translated
site (event, player, round, home, archive, season, history, bracket and the format's
pages) no English word is left, once the names and the TOs' text (every string of the
events' input files, event.md, army lists) are taken out. An English word is one of
standgen's message ids or a word of the English site's page of the same path that the
language's catalogue and dates do not use too. What is not checked is in
NOT_CHECKED and ALLOWED, each with its reason. Numbers and dates are in the language's
form. An English site is the one it was before languages (tests/test_site*.py compare
it).
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from fnmatch import fnmatch
from pathlib import Path

import pytest

from standgen.build import build
from standgen.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "events"
LANGUAGES = ("de", "fr", "es", "it", "nl", "pl", "cs", "ja")
# a word of three Latin letters or more, not part of a longer word ("téléphone" is not "phone")
WORD = re.compile(r"(?<![A-Za-z\u00c0-\u024f])[A-Za-z]{3,}(?![A-Za-z\u00c0-\u024f])")


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
    return ours - theirs - translated_words(language) - {
        "number", "planned", "result", "score", "note", "date", "time", "done", "games"}


def translated_words(language: str) -> set[str]:
    """Return the words the language's catalogue and its dates use ("Team" is German too,
    "may" a Spanish month)."""
    from babel.dates import get_day_names, get_month_names

    texts = [*catalogue(language).values()]
    for width in ("abbreviated", "wide"):
        texts += [*get_month_names(width, locale=language).values(),
                  *get_day_names(width, locale=language).values()]
    return {w.casefold() for text in texts for w in WORD.findall(text)}


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


# pages not checked, each with its reason (glob patterns of the site's paths)
NOT_CHECKED = {
    "help/*": "the TOs' help stays English, as the CLI does (docs/site.md); the players' "
              "help is checked: PLAYERS_HELP",
    "2026/*/lab/index.html": "the tiebreak lab is the TO's tool for choosing tiebreaks "
                             "(docs/tiebreaks.md), as the CLI English",
}
PLAYERS_HELP = ("help/players/index.html",  # docs/<language>/players.md
                "help/privacy/index.html")  # docs/<language>/privacy.md
# words left on purpose, each with its reason
ALLOWED = {
    "SoS": "the tiebreak's international abbreviation (Sum of Opponents' Scores, as EGD, "
           "WMH and chess software write it); its title gives the language's name",
    "SOSOS": "the tiebreak's international abbreviation (Sum of Opponents' SOS, EGD)",
    "Warhammer": "a game's name (Warhammer: The Old World)",
    "Warmachine": "a game's name (Warmachine & Hordes Steamroller)",
    "Hordes": "a game's name (Warmachine & Hordes Steamroller)",
    "Steamroller": "a game's name (Warmachine & Hordes Steamroller)",
    "Diplomacy": "a game's name",
    "Mean": "the Diplomacy scoring system's name (Mean Comparison Scoring)",
    "Comparison": "the Diplomacy scoring system's name (Mean Comparison Scoring)",
    "Scoring": "the Diplomacy scoring system's name (Mean Comparison Scoring)",
    "SODOS": "a tiebreak's international abbreviation (Sum of Defeated Opponents' Scores)",
    "SB": "Sonneborn-Berger's abbreviation, the same in every chess federation",
    "Sonneborn": "a tiebreak's name (Sonneborn-Berger)",
    "Berger": "a tiebreak's name (Sonneborn-Berger)",
    "Buchholz": "a tiebreak's name",
    "cut": "FIDE's name of the tiebreak in every language (Buchholz cut-1)",
    "Koya": "a tiebreak's name",
    "ARO": "FIDE's abbreviation (Average Rating of Opponents), the same in every language",
    "TPR": "FIDE's abbreviation (Tournament Performance Rating), the same in every language",
    "MMS": "the McMahon score's abbreviation (EGD)",
    "OpenSkill": "the rating model's name",
    "Plackett": "the rating model's name (Plackett-Luce)",
    "Luce": "the rating model's name (Plackett-Luce)",
    "TRF": "FIDE's file format's name, the same in every language",
    "EGD": "the European Go Database's name, the same in every language",
    "GDPR": "the EU regulation's abbreviation, as Italian, Czech and Japanese write it",
    "AVG": "the GDPR's Dutch abbreviation (Algemene verordening gegevensbescherming)",
    "system": "the Diplomacy scoring system's name, quoted (\"Mean Comparison Scoring "
              "system\")",
}
GAME_NAMES = ("Warhammer: The Old World", "Warmachine & Hordes Steamroller")
# services the privacy page names (where a site is hosted, whom to ask to drop old pages)
SERVICE_NAMES = ("GitHub Pages", "GitHub Actions", "GitHub", "Google", "Bing",
                 "Internet Archive")
EXAMPLE_NAMES = ("Björn", "Łukasz", "Ó Conchúir")  # the players' help: how search finds names
# words of a language that are English words too, on the players' help and the privacy
# page ("was" is German; git's words as every language's users write them: commit, forks)
GIT = {"commit", "forks"}
SHARED = {
    "de": {"code", "format", "pseudonym", "was", "minus", "plus",
           "archive", "branch", "person", "repository", *GIT},
    "fr": {"absences", "accents", "code", "pages", "type",
           "clones", "copies", "exports", "guide", "notes", "part", "public", *GIT},
    "es": {"clones", "real", *GIT},
    "it": {"account", "all", "club", "online", "privacy",  # "all'organizzazione"
           "branch", "file", "private", "repository", "commit"},
    "nl": {"account", "bye", "byes", "code", "details", "format", "model", "open", "plus",
           "privacy", "scan", "won",  # "won": won, the past of winnen
           "branch", "repository", *GIT},
    "pl": {"minus", "model", "one", "plus", "commit"},  # "one": they
    "cs": {"model", "online", "plus", "pseudonym", "commit"},
}


def with_teams(events: Path) -> None:
    """Give the Swiss event's players a team each (docs/teams.md)."""
    path = events / "2026" / "club-swiss" / "players.csv"
    rows = path.read_text(encoding="utf-8").splitlines()
    teams = ("Riverside A", "Knights B")
    rows = [rows[0] + ",team"] + [f"{row},{teams[i % 2]}" for i, row in enumerate(rows[1:])]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    built: dict[str, Path] = {}
    for language in ("en", *LANGUAGES):
        base = tmp_path_factory.mktemp(language)
        events = base / "events"
        shutil.copytree(DEMO, events)
        with_teams(events)
        (events / "site.toml").write_text(f'title = "Club"\nlanguage = "{language}"\n',
                                          encoding="utf-8")
        build(events, base / "site", jobs=1)
        built[language] = base
    return built


def checked(site: Path) -> list[Path]:
    """Return the site's pages the test reads: every HTML page but NOT_CHECKED's."""
    pages = []
    for page in sorted(site.rglob("*.html")):
        path = page.relative_to(site).as_posix()
        if path in PLAYERS_HELP or not any(fnmatch(path, p) for p in NOT_CHECKED):
            pages.append(page)
    return pages


def words_left(text: str, theirs: Sequence[str], english: set[str]) -> set[str]:
    """Return the English words of ``text`` once the TOs' strings are taken out."""
    text = re.sub(r"\b[\w-]+\.(json|csv|trf|h9|ics|xml)\b", " ", text)  # data files
    for value in theirs:  # a name beside Japanese letters too ("Will Chenの戦績")
        text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])", " ", text)
    return {w for w in WORD.findall(text) if w.casefold() in english and w not in ALLOWED}


def page_text(page: Path) -> str:
    """Return a page's text without the TOs' own (event.md, a season's text)."""
    text = page.read_text(encoding="utf-8")
    text = re.sub(r'<div class="prose (description|army-list)">.*?</div>', " ", text,
                  flags=re.S)  # event.md and the players' army lists
    text = re.sub(r"<code>.*?</code>", " ", text, flags=re.S)  # what one types (`bjorn`)
    follow = re.search(r'<div class="follow-data" hidden>(.*?)</div>', text, flags=re.S)
    if follow:  # the script's lines for a followed player (the keys are the script's)
        lines = json.loads(html.unescape(follow.group(1)))["players"].values()
        text = text.replace(follow.group(0), html.escape(" ".join(lines)))
    return visible(text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_word_left_on_any_page(sites: dict[str, Path], language: str) -> None:
    base, english_site = sites[language], sites["en"] / "site"
    theirs = sorted(input_strings(base / "events") | {*GAME_NAMES, *SERVICE_NAMES,
                                                       *EXAMPLE_NAMES}, key=len,
                    reverse=True)
    ours = english_words(language) - SHARED.get(language, set())
    theirs_words = translated_words(language) | SHARED.get(language, set())
    left: dict[str, set[str]] = {}
    pages = checked(base / "site")
    assert len(pages) >= 170
    for page in pages:
        path = page.relative_to(base / "site")
        english = set(ours)
        twin = english_site / path
        if twin.is_file():  # the English page's own words (TOs' text taken out below)
            english |= {w.casefold() for w in words_left(page_text(twin), theirs, {
                w.casefold() for w in WORD.findall(page_text(twin))})} - theirs_words
        words = words_left(page_text(page), theirs, english)
        if words:
            left[path.as_posix()] = words
    assert left == {}


def test_the_checked_pages_include_every_kind(sites: dict[str, Path]) -> None:
    """Teams, a bracket, a format's page, a history and the players' help are checked."""
    site = sites["de"] / "site"
    paths = {p.relative_to(site).as_posix() for p in checked(site)}
    for path in ("index.html", "2026/index.html", "2026/club-swiss/index.html",
                 "2026/club-swiss/round-1/index.html", "2026/club-swiss/players/li-wei/index.html",
                 "2026/diplomacy-open/bracket/index.html", "2026/diplomacy-open/powers/index.html",
                 "players/li-wei/index.html", "archive/index.html", *PLAYERS_HELP):
        assert path in paths, path
    event = (site / "2026/club-swiss/index.html").read_text(encoding="utf-8")
    assert 'id="teams"' in event and "Riverside A" in event


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


def test_the_script_says_its_messages_in_the_language(sites: dict[str, Path]) -> None:
    """Every message of site.js is one the pages hand it, translated, in a JSON block
    (no request); an English page has no block (the script's own English)."""
    from standgen.site import i18n

    script = (ROOT / "site_templates" / "assets" / "site.js").read_text(encoding="utf-8")
    said = {json.loads(f'"{m}"') for m in re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', script)}
    assert said and said <= set(i18n.SCRIPT)
    assert not re.search(r'textContent = "[A-Za-z]', script)  # no English left in it
    english = (sites["en"] / "site" / "index.html").read_text(encoding="utf-8")
    assert "standgen-messages" not in english
    for language in LANGUAGES:
        page = (sites[language] / "site" / "2026" / "club-swiss" / "index.html")
        block = re.search(r'<script type="application/json" id="standgen-messages">(.*?)'
                          r"</script>", page.read_text(encoding="utf-8"), flags=re.S)
        assert block is not None, language
        messages = json.loads(block.group(1))
        assert set(messages) == set(i18n.SCRIPT)
        assert all(text != message for message, text in messages.items()), language
        for message, text in messages.items():
            assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", message))
