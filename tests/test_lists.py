"""Army lists revealed when the TO says (issue #32): ``lists_public`` with a fixed clock.

Until the moment no output file holds a list or its check state; from it the player
page shows the list and its check, and each round page the lists of its tables.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from standgen.build import build
from standgen.cli import main
from standgen.errors import InputError
from standgen.eventday import edit_player, status

DEMO = Path(__file__).resolve().parent.parent / "events" / "2026" / "spring-steamroller"
SECRET = "Quokka Stormwall battlegroup"  # a line no other file has
BEFORE, AFTER = "2026-03-14T08:59:00+00:00", "2026-03-14T09:00:00+00:00"


def event_tree(tmp_path: Path, lists_public: str, rounds: bool = True) -> Path:
    """Return an events root holding the demo Steamroller with ``lists_public`` set (a
    TOML value), two lists and check states."""
    events = tmp_path / "events"
    event = events / "2026" / "steamroller"
    shutil.copytree(DEMO, event)
    if not rounds:
        for path in event.glob("round-*.csv"):
            path.unlink()
    toml = event / "event.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("format =", f"lists_public = {lists_public}\nformat =", 1),
                    encoding="utf-8")
    (event / "lists" / "ben-o.md").write_text(f"**{SECRET}**\n\n- Sorscha\n",
                                              encoding="utf-8")
    edit_player(event, "ben-o", "list_check", lambda _: "needs-fix")
    edit_player(event, "anna-k", "list_check", lambda _: "checked")
    return events


def files_holding(site: Path, *texts: str) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()
                  and any(t.encode() in p.read_bytes() for t in texts))


def at(monkeypatch: pytest.MonkeyPatch, moment: str) -> None:
    monkeypatch.setenv("STANDGEN_NOW", moment)


CHECKS = ("List checked by the organiser", "asked for a change", "list-check")


def test_lists_stay_out_until_their_moment(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    events = event_tree(tmp_path, '"2026-03-14T09:00:00Z"')
    site = tmp_path / "site"
    at(monkeypatch, BEFORE)
    build(events, site, jobs=1)
    assert files_holding(site, SECRET, "Captain Victoria Haley", *CHECKS) == []
    at(monkeypatch, AFTER)  # the same output: the incremental build sees the moment pass
    build(events, site, jobs=1)
    shown = files_holding(site, SECRET)
    player = "2026/steamroller/players/ben-o/index.html"
    assert player in shown
    page = (site / player).read_text(encoding="utf-8")
    assert "The organiser asked for a change to this list" in page
    rounds = [p for p in shown if "/round-" in p]
    assert rounds, shown  # the round pages show each table's lists
    text = (site / rounds[0]).read_text(encoding="utf-8")
    assert 'id="army-lists"' in text and "#army-list" in text


def test_never(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = event_tree(tmp_path, '"never"')
    at(monkeypatch, "2030-01-01T00:00:00+00:00")
    build(events, tmp_path / "site", jobs=1)
    assert files_holding(tmp_path / "site", SECRET, "Captain Victoria Haley", *CHECKS) == []


def test_event_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = event_tree(tmp_path, '"event-start"')
    at(monkeypatch, "2026-03-13T23:59:59+00:00")
    build(events, tmp_path / "a", jobs=1)
    assert files_holding(tmp_path / "a", SECRET, *CHECKS) == []
    at(monkeypatch, "2026-03-14T00:00:00+00:00")
    build(events, tmp_path / "b", jobs=1)
    assert files_holding(tmp_path / "b", SECRET)


def test_round_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, "2030-01-01T00:00:00+00:00")
    events = event_tree(tmp_path / "a", '"round-1"', rounds=False)
    build(events, tmp_path / "a" / "site", jobs=1)  # round 1 only proposed: not paired
    assert files_holding(tmp_path / "a" / "site", SECRET, *CHECKS) == []
    events = event_tree(tmp_path / "b", '"round-1"')
    build(events, tmp_path / "b" / "site", jobs=1)
    assert files_holding(tmp_path / "b" / "site", SECRET)


def test_a_toml_date_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = event_tree(tmp_path, "2026-03-14T10:00:00+01:00")  # 09:00 UTC
    at(monkeypatch, BEFORE)
    build(events, tmp_path / "a", jobs=1)
    assert files_holding(tmp_path / "a", SECRET) == []
    result = CliRunner().invoke(main, ["build", str(events), "-o", str(tmp_path / "b"),
                                       "--now", "2026-03-14T09:00:00Z"])
    assert result.exit_code == 0, result.output
    assert files_holding(tmp_path / "b", SECRET)


def test_build_refuses_a_bad_now(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "events", "--now", "tomorrow"])
    assert result.exit_code == 2 and "ISO date and time" in result.output


def test_bad_values_are_problems(tmp_path: Path) -> None:
    events = event_tree(tmp_path, '"soon"')
    with pytest.raises(InputError, match="'lists_public' must be"):
        build(events, tmp_path / "site", jobs=1)
    event = events / "2026" / "steamroller"
    toml = event / "event.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('"soon"', '"never"'),
                    encoding="utf-8")
    edit_player(event, "ben-o", "list_check", lambda _: "ok")
    with pytest.raises(InputError, match="list_check 'ok' must be one of"):
        build(events, tmp_path / "site", jobs=1)


def test_status_tells_the_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = event_tree(tmp_path, '"2026-03-14T09:00:00Z"')
    at(monkeypatch, BEFORE)
    lines = status(events / "2026" / "steamroller")
    said = [line for line in lines if line.startswith("army lists:")]
    assert len(said) == 1
    assert "2 of" in said[0] and "1 checked" in said[0] and "1 needs-fix (ben-o)" in said[0]
    assert "public from 2026-03-14T09:00:00+00:00" in said[0]
    at(monkeypatch, AFTER)
    assert "public now" in status(events / "2026" / "steamroller")[-1]


def test_without_lists_public_lists_show_as_before(tmp_path: Path) -> None:
    """An event without ``lists_public`` shows a list as soon as its file is there, on
    the player page only (its pages as they were)."""
    events = tmp_path / "events"
    shutil.copytree(DEMO, events / "2026" / "steamroller")
    build(events, tmp_path / "site", jobs=1)
    shown = files_holding(tmp_path / "site", "Captain Victoria Haley")
    assert shown == ["2026/steamroller/players/anna-k/index.html"]
