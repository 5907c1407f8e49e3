"""A player's history page made from the page the last build wrote
(``standgen.site.history_splice``) is the page made in full: on random histories with
real and hostile names, players of the same name, opponents renamed between events,
factions or none, in every language of the catalogues, after each kind of change a TO
makes (a result typed in, corrected, taken back, a new round, a pairing changed, a
rename); and after results typed into a club archive with real names the site is byte
for byte the full render, its histories made this way."""

from __future__ import annotations

import csv
import datetime as dt
import random
from pathlib import Path

import pytest

from benchmarks.synth import write_archive
from standgen import build as lib
from standgen.load import load_tree
from standgen.model import EventConfig
from standgen.site import i18n
from standgen.site.history import Appearance, history_page, history_page_path
from standgen.site.history_splice import HistorySplice, LineChange, spliced_history
from standgen.site.render import Templates
from standgen.site.renderer import SiteRenderer
from standgen.site.summary import EventSummary, PlayerLine
from tests.realnames import FACTIONS, Person, field
from tests.test_club_rebuild import dated, files_of, flip
from tests.test_table_rows import HOSTILE, LANGUAGES

REPO = Path(__file__).resolve().parents[1]
TEMPLATES = Templates(REPO / "site_templates", fast=True)
PID = "zoe-oneill"
KINDS = ("enter", "correct", "take-back", "round", "unpair", "rename", "faction",
         "opponent-renamed", "new-opponent")


def _event(index: int, rng: random.Random) -> EventSummary:
    name = rng.choice((f"Łódź Open {index} & Co", f"<b>Cup</b> {index}", HOSTILE[1]))
    date = dt.date(2020, 1, 1) + dt.timedelta(days=rng.randint(0, 2000))
    config = EventConfig(name=name, date=date, format="swiss")
    return EventSummary(("club", f"e-{index:03d}"), config, "", "", "", rng.randint(4, 48),
                        (), (), ())


def _line(rng: random.Random, name: str, faction: str, opponents: list[Person],
          size: int) -> PlayerLine:
    met = rng.sample(opponents, rng.randint(0, min(5, len(opponents))))
    meetings = tuple(
        (o.id, o.name if rng.random() > 0.05 else f"{o.name} (née {rng.choice(HOSTILE)})",
         rng.randint(0, 2))
        for o in met)
    counts = [sum(1 for m in meetings if m[2] == c) for c in range(3)]
    counts[0] += rng.random() < 0.2  # a bye
    rank = None if rng.random() < 0.1 else rng.randint(1, size)
    return PlayerLine(PID, name, faction, rank, rng.choice((0.0, 2.5, 4.0, 12.25, -1.0)),
                      (counts[0], counts[1], counts[2]), meetings)


def _with(line: PlayerLine, meetings: list[tuple[str, str, int]], **kw: object) -> PlayerLine:
    counts = [sum(1 for m in meetings if m[2] == c) for c in range(3)]
    return PlayerLine(line.id, str(kw.get("name", line.name)),
                      str(kw.get("faction", line.faction)), line.rank,
                      line.score + 1, (counts[0], counts[1], counts[2]), tuple(meetings))


def _changed(rng: random.Random, kind: str, line: PlayerLine, people: list[Person]
             ) -> PlayerLine:
    """Return ``line`` after the TO's change of ``kind``."""
    meetings = list(line.meetings)
    known = {o for o, _n, _c in meetings}
    others = [p for p in people if p.id not in known]
    if kind in ("enter", "round", "new-opponent") and others:
        fresh = others if kind != "enter" else people
        for person in rng.sample(fresh, 1 if kind != "round" else min(2, len(fresh))):
            meetings.append((person.id, person.name, rng.randint(0, 2)))
    elif kind == "correct" and meetings:
        at = rng.randrange(len(meetings))
        o, n, c = meetings[at]
        meetings[at] = (o, n, (c + 1) % 3)
    elif kind in ("take-back", "unpair") and meetings:
        meetings.pop(rng.randrange(len(meetings)))
    elif kind == "opponent-renamed" and meetings:
        o, n, c = meetings[0]
        meetings[0] = (o, n + " Jr.", c)
    return _with(line, meetings,
                 name=line.name + " II" if kind == "rename" else line.name,
                 faction=(line.faction or "Khador") + " Mercs" if kind == "faction"
                 else line.faction)


def _page(appearances: list[Appearance], language: str) -> bytes:
    with i18n.active(language):
        return TEMPLATES.render("history", history_page(PID, appearances, fast=True))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", range(6))
def test_a_spliced_history_is_the_page_made_in_full(language: str, seed: int) -> None:
    rng = random.Random(f"splice-{language}-{seed}")
    people = field(rng, 30)
    factions = seed % 2 == 0
    spliced = 0
    for _ in range(12):
        events = [_event(k, rng) for k in range(rng.randint(1, 30))]
        lines = {e.path: _line(rng, "Zoë O'Neill", rng.choice(FACTIONS) if factions else "",
                               people, e.field) for e in events}
        old = _page([(e, lines[e.path]) for e in events], language)
        kind = rng.choice(KINDS)
        newest = sorted(events, key=lambda e: (e.config.date, e.path))[-1]
        touched = ([newest] if rng.random() < 0.6
                   else rng.sample(events, rng.randint(1, min(3, len(events)))))
        changes = [LineChange(e, lines[e.path], _changed(rng, kind, lines[e.path], people))
                   for e in touched]
        changes = [c for c in changes if c.old != c.new]
        for change in changes:
            lines[change.summary.path] = change.new
        with i18n.active(language):
            made = spliced_history(HistorySplice(PID, old, changes))
        full = _page([(e, lines[e.path]) for e in events], language)
        if made is not None:
            assert made == full
            spliced += 1
        assert made is None or kind not in ("rename", "faction")
    assert spliced  # the test is not only of the cases made in full


@pytest.mark.parametrize("seed", range(40))
def test_a_result_typed_in_is_spliced(seed: int) -> None:
    """The everyday case is never made in full: a result typed into the player's newest
    event against an opponent they met before under the same name, or never met."""
    rng = random.Random(seed)
    people = field(rng, 12)
    events = [_event(k, rng) for k in range(rng.randint(1, 20))]
    lines = {e.path: _line(rng, "Zoë O'Neill", "", people, e.field) for e in events}
    lines = {p: PlayerLine(PID, line.name, "", line.rank, line.score, line.counts,
                           tuple((o, next(q.name for q in people if q.id == o), c)
                                 for o, _n, c in line.meetings))
             for p, line in lines.items()}  # every opponent under their one name
    newest = max(events, key=lambda e: (e.config.date, e.path))
    if not any(line.meetings for line in lines.values()):  # a head-to-head table to put right
        lines[newest.path] = _with(lines[newest.path], [(people[0].id, people[0].name, 1)])
    old = _page([(e, lines[e.path]) for e in events], "en")
    opponent = rng.choice(people)
    line = lines[newest.path]
    new = _with(line, [*line.meetings, (opponent.id, opponent.name, rng.randint(0, 2))])
    made = spliced_history(HistorySplice(PID, old, [LineChange(newest, line, new)]))
    lines[newest.path] = new
    assert made == _page([(e, lines[e.path]) for e in events], "en")


def test_a_page_not_as_the_template_writes_it_is_made_in_full() -> None:
    rng = random.Random(3)
    people = field(rng, 8)
    events = [_event(k, rng) for k in range(5)]
    lines = {e.path: _line(rng, "Zoë", "", people, e.field) for e in events}
    old = _page([(e, lines[e.path]) for e in events], "en")
    event = events[0]
    change = LineChange(event, lines[event.path], _with(lines[event.path], []))
    for broken in (b"", old.replace(b"<tbody>", b"<tbody >"),
                   old.replace(b'class="num">', b'class="num" >', 1),
                   old.replace(b"<strong>", b"<strong>x", 1), b"\xff" + old):
        assert spliced_history(HistorySplice(PID, broken, [change])) is None


def _real_names(events: Path, seed: int) -> None:
    """Give the archive's players real names (the same person the same name in every
    event; two people of one name; a hostile name)."""
    rng = random.Random(seed)
    ids = sorted({row["id"] for path in events.glob("*/*/players.csv")
                  for row in csv.DictReader(path.read_text(encoding="utf-8").splitlines())})
    names = {pid: person.name for pid, person in zip(ids, field(rng, len(ids)), strict=True)}
    names[ids[1]] = HOSTILE[1]
    for path in events.glob("*/*/players.csv"):
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows({**row, "name": names[row["id"]]} for row in rows)


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    used: list[str] = []
    real = SiteRenderer.player_spliced

    def spy(self: SiteRenderer, pid: str, *args: object) -> object:
        made = real(self, pid, *args)  # type: ignore[arg-type]
        used.append(pid if made is not None else "")
        return made

    monkeypatch.setattr(SiteRenderer, "player_spliced", spy)
    return used


@pytest.mark.parametrize("seed", [3, 8])
def test_results_typed_into_a_club_archive_splice_its_histories(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    events = write_archive(tmp_path / "events", events=6, seed=seed, low=10, high=16,
                           pool=24)
    _real_names(events, seed)
    out = tmp_path / "out"
    lib.build(events, out)
    used = _spy(monkeypatch)
    rng = random.Random(seed)
    by_date = sorted((p.parent for p in events.glob("*/*/round-1.csv")
                      if p.parent.name.startswith(("swiss", "steamroller", "mcmahon"))),
                     key=lambda p: (dated(p), p.name))
    for folder, last in ((by_date[-1], True), (by_date[0], False), (by_date[-1], True)):
        used.clear()
        assert flip(folder, rng, last=last)
        assert lib.build(events, out).incremental
        assert [pid for pid in used if pid], "no history was spliced"
        for pid in used:
            if pid:
                assert (out / history_page_path(pid)).is_file()
        assert files_of(out) == lib.render(load_tree(events))
