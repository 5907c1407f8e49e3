"""Privacy (issue #32): players not published in full never reach any output file.

A site built with players published by initials, under a pseudonym or hidden is searched,
file by file and byte by byte, for each such player's name, id, club and rating, also as
JSON, HTML and URLs escape them and with accents folded.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import shutil
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from urllib.parse import quote

import pytest

from standgen.build import build
from standgen.eventday import edit_player
from standgen.load import load_tree
from standgen.privacy import initials

DEMO = Path(__file__).resolve().parent.parent / "events"
LEVELS = ("hidden", "initials", "pseudonym")


def fold(text: str) -> str:
    """Return ``text`` without accents, case-folded (what a search box would match)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c)).casefold()


def forms(text: str) -> set[str]:
    """Return every form in which ``text`` could appear in an output file, folded."""
    found = {text, html.escape(text), html.escape(text, quote=False),
             json.dumps(text)[1:-1], json.dumps(text, ensure_ascii=False)[1:-1],
             quote(text), quote(text, safe=""), text.replace(" ", "&nbsp;"),
             text.replace(" ", "\u00a0")}
    return {fold(f) for f in found} | {f.casefold() for f in found}


def output_texts(site: Path) -> Iterator[tuple[str, str]]:
    """Yield (path, folded text) of every file of the built site, names included."""
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if rel.startswith("help/"):
            continue  # standgen's own help pages: their examples use the demo's ids
        if path.is_file():
            data = path.read_bytes().decode("utf-8", "replace")
            yield rel, fold(data) + "\n" + data.casefold()
        yield rel + " (path)", fold(rel)


def leaks(site: Path, secrets: Mapping[str, Iterable[str]]) -> list[str]:
    """Return 'file: what' for each secret found in any output file."""
    patterns = {what: re.compile("|".join(re.escape(f) for f in sorted(forms(text)) if f))
                for what, texts in secrets.items() for text in texts}
    found = []
    for rel, text in output_texts(site):
        for what, pattern in patterns.items():
            if pattern.search(text):
                found.append(f"{rel}: {what}")
    return found


def number_pattern(value: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\d.,]){re.escape(value)}(?![\d])")


def read_players(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def mask_people(events: Path, levels: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """Set ``publish`` (and a pseudonym, a club and a rating no other text has) for the
    players of ``levels`` in every event; return each one's secrets by id."""
    secrets: dict[str, dict[str, str]] = {}
    for players in sorted(events.rglob("players.csv")):
        for row in read_players(players):
            pid = row["id"]
            if pid not in levels:
                continue
            n = len(secrets) + 1 if pid not in secrets else list(secrets).index(pid) + 1
            club = f"Quokkaclub {pid.upper()}"
            rating = str(3100 + n * 7)
            secrets[pid] = {"name": row["name"], "id": pid, "club": club, "rating": rating}
            cells = {"publish": levels[pid], "club": club}
            if "rating" in row:
                cells["rating"] = rating
            if levels[pid] == "pseudonym":
                cells["pseudonym"] = f"Masked Owl {n}"
            for column, value in cells.items():
                edit_player(players.parent, pid, column, lambda _, v=value: v)
    return secrets


def search(site: Path, secrets: Mapping[str, Mapping[str, str]]) -> list[str]:
    """Return every leak of the players' names, ids, clubs and ratings in ``site``."""
    texts = {f"{pid} {key}": [value] for pid, s in secrets.items()
             for key, value in s.items() if key in ("name", "club")}
    found = leaks(site, texts)
    id_patterns = {pid: re.compile(rf"(?<![a-z0-9-]){re.escape(pid)}(?![a-z0-9-])")
                   for pid in secrets}
    rating_patterns = {pid: number_pattern(s["rating"]) for pid, s in secrets.items()}
    for rel, text in output_texts(site):
        for pid, pattern in id_patterns.items():
            if pattern.search(text):
                found.append(f"{rel}: {pid} id")
        for pid, pattern in rating_patterns.items():
            if pattern.search(text):
                found.append(f"{rel}: {pid} rating")
    return found


def demo_copy(tmp_path: Path) -> Path:
    events = tmp_path / "events"
    shutil.copytree(DEMO, events)
    return events


def chosen(events: Path) -> dict[str, str]:
    """Return the players to mask: the second, third and fourth line of every event,
    hidden, by initials and under a pseudonym (each person once, archive-wide)."""
    levels: dict[str, str] = {}
    for players in sorted(events.rglob("players.csv")):
        for level, row in zip(LEVELS, read_players(players)[1:4], strict=False):
            levels.setdefault(row["id"], level)
    return levels


def test_initials() -> None:
    assert initials("Anna Kowalska") == "A. K."
    assert initials("Ó Conchúir") == "Ó. C."
    assert initials("Jean-Luc Picard") == "J. L. P."


def test_demo_site_with_masked_players_publishes_none_of_them(tmp_path: Path) -> None:
    events = demo_copy(tmp_path)
    levels = chosen(events)
    secrets = mask_people(events, levels)
    assert len(secrets) >= 10
    site = tmp_path / "site"
    build(events, site, jobs=1)
    assert search(site, secrets) == []
    # the published names are there: "Player N", initials, pseudonyms
    home = (site / "2026" / "club-swiss" / "index.html").read_text(encoding="utf-8")
    assert "Player 2" in home and "Masked Owl" in home


def test_site_default_hides_everyone(tmp_path: Path) -> None:
    events = demo_copy(tmp_path)
    (events / "site.toml").write_text('title = "Club"\npublish = "hidden"\n', encoding="utf-8")
    tree = load_tree(events)
    organisers = {e.config.organiser for e in tree.events}  # the TOs' own text
    secrets = {p.id: {"name": p.name, "id": p.id} for e in tree.events for p in e.players
               if p.name not in organisers}
    site = tmp_path / "site"
    build(events, site, jobs=1)
    found = leaks(site, {f"{pid} name": [s["name"]] for pid, s in secrets.items()})
    assert found == []


def test_event_default_overrides_site_default(tmp_path: Path) -> None:
    events = demo_copy(tmp_path)
    (events / "site.toml").write_text('publish = "hidden"\n', encoding="utf-8")
    toml = events / "2026" / "club-swiss" / "event.toml"
    toml.write_text('publish = "full"\n' + toml.read_text(encoding="utf-8"), encoding="utf-8")
    site = tmp_path / "site"
    build(events, site, jobs=1)
    page = (site / "2026" / "club-swiss" / "index.html").read_text(encoding="utf-8")
    assert "Helen Whitaker" in page
    page = (site / "2026" / "go-mcmahon" / "index.html").read_text(encoding="utf-8")
    assert "Kenji Mori" not in page and "Player 1" in page


def test_standings_unchanged_by_masking(tmp_path: Path) -> None:
    """Masking changes names and ids only: ranks, scores and tiebreaks stay."""
    plain = demo_copy(tmp_path / "a")
    masked = demo_copy(tmp_path / "b")
    mask_people(masked, dict.fromkeys(chosen(masked), "hidden"))
    for side in (plain, masked):
        build(side, side.parent / "site", jobs=1)
    for standings in sorted((plain.parent / "site").rglob("standings.json")):
        rel = standings.relative_to(plain.parent / "site")
        before = json.loads(standings.read_text(encoding="utf-8"))["standings"]
        after = json.loads((masked.parent / "site" / rel).read_text(encoding="utf-8"))
        if "club-swiss" in str(rel):
            continue  # its ratings were changed above: ARO and TPR differ by design
        assert sorted(rows(before)) == sorted(rows(after["standings"]))


def rows(standings: list[dict[str, object]]) -> list[str]:
    return [json.dumps([r["rank"], r["score"], r["tiebreaks"]]) for r in standings]


def test_bad_publish_values_are_problems(tmp_path: Path) -> None:
    from standgen.errors import InputError

    events = demo_copy(tmp_path)
    event = events / "2026" / "club-swiss"
    edit_player(event, "helen-w", "publish", lambda _: "secret")
    with pytest.raises(InputError, match="publish 'secret' must be one of"):
        build(events, tmp_path / "site", jobs=1)
    edit_player(event, "helen-w", "publish", lambda _: "pseudonym")
    with pytest.raises(InputError, match="needs the name to show"):
        build(events, tmp_path / "site", jobs=1)


def synthetic_archive(root: Path, events: int = 100) -> Path:
    """Write a small-field archive of ``events`` events (benchmarks/synth.py)."""
    from benchmarks.synth import write_archive

    return write_archive(root, events, seed=32, low=8, high=14)


def test_archive_with_masked_players_publishes_none_of_them(tmp_path: Path) -> None:
    """The same three people, masked in every event of a 100-event archive."""
    events = synthetic_archive(tmp_path / "events")
    secrets = mask_people(events, {"p00001": "hidden", "p00002": "initials",
                                   "p00003": "pseudonym"})
    site = tmp_path / "site"
    build(events, site, jobs=1)
    assert search(site, secrets) == []
    assert (site / "players" / "index.html").exists() or (site / "players").is_dir()


# ----- standgen forget ----------------------------------------------------------------


def ratings_of(site: Path) -> dict[str, object]:
    data = json.loads((site / "archive" / "ratings" / "ratings.json").read_text("utf-8"))
    # the rank moves with names among equal ratings; the Elo-style change counts the
    # opponents' published players.csv ratings only, and a forgotten one's is not
    return {r["id"]: {k: v for k, v in r.items() if k not in ("rank", "fide_change")}
            for r in data["ratings"]}


def standings_of(site: Path) -> dict[str, list[str]]:
    return {str(path.relative_to(site)): sorted(rows(json.loads(
        path.read_text(encoding="utf-8"))["standings"])) for path in site.rglob("standings.json")}


def forget_and_compare(tmp_path: Path, events: Path, who: str) -> None:
    """Forget ``who``; the site then holds nothing of them, and everyone else's
    standings and club ratings are as before."""
    from click.testing import CliRunner

    from standgen.cli import main

    tree = load_tree(events)
    people = [p for e in tree.events for p in e.players if p.id == who]
    secrets = {who: {"name": people[0].name, "id": who}}
    clubs = {p.club for p in people if p.club} - {
        p.club for e in tree.events for p in e.players if p.id != who}
    secrets[who].update({f"club {k}": c for k, c in enumerate(sorted(clubs))})
    before = tmp_path / "before"
    build(events, before, jobs=1)
    result = CliRunner().invoke(main, ["forget", who, "--events", str(events)])
    assert result.exit_code == 0, result.output
    assert "is now 'forgotten-" in result.output
    assert sum(1 for line in result.output.splitlines() if line.startswith("  ")) >= len(people)
    after = tmp_path / "after"
    build(events, after, jobs=1)
    texts = {f"{who} {key}": [value] for key, value in secrets[who].items() if key != "id"}
    assert leaks(after, texts) == []
    pattern = re.compile(rf"(?<![a-z0-9-]){re.escape(who)}(?![a-z0-9-])")
    assert [rel for rel, text in output_texts(after) if pattern.search(text)] == []
    # no event file names them either, other than the TOs' own text the command listed
    for path in events.rglob("*.csv"):
        assert not pattern.search(path.read_text(encoding="utf-8-sig")), path
    assert standings_of(before) == standings_of(after)
    old, new = ratings_of(before), ratings_of(after)
    gone = old.pop(who)
    assert old == {pid: r for pid, r in new.items() if pid in old}
    added = [r for pid, r in new.items() if pid not in old]
    assert len(added) == 1
    hidden = ("id", "name", "fide_rating")  # their players.csv rating is not published
    assert added[0]["fide_rating"] is None
    assert {k: v for k, v in added[0].items() if k not in hidden} == {
        k: v for k, v in gone.items() if k not in hidden}


def test_forget_on_the_demo(tmp_path: Path) -> None:
    """Dev Patel plays in four of the demo's events."""
    forget_and_compare(tmp_path, demo_copy(tmp_path), "dev-p")


def test_forget_in_an_archive(tmp_path: Path) -> None:
    """A player of every event of a 100-event archive."""
    forget_and_compare(tmp_path, synthetic_archive(tmp_path / "events"), "p00004")


def test_forget_names_an_unknown_player(tmp_path: Path) -> None:
    from standgen.errors import InputError
    from standgen.forget import forget

    with pytest.raises(InputError, match="no player"):
        forget(demo_copy(tmp_path), "nobody-here")
