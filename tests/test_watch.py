"""``standgen watch``: serve, rebuild on change, reload pages, show bad input on every page."""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from standgen.build import TEMPLATES
from standgen.errors import InputError
from standgen.load import load_tree
from standgen.load.inputs import is_litter
from standgen.pipeline import reports
from standgen.site.renderer import SiteRenderer, render_site
from standgen.watch import EVENTS_URL, ServeError, Watch
from tests.conftest import EVENT_TOML, PLAYERS, ROUND_1, ROUND_HEADER

PROJECT = Path(__file__).resolve().parent.parent
ROUND_PAGE = "ev/round-1/index.html"
INJECTED = re.compile(r'<div id="standgen-watch-problems".*?</ul></div>|'
                      r'<script src="/__standgen/live\.js" data-generation="\d+"></script>', re.S)


@contextmanager
def watching(root: Path, **options: object) -> Iterator[Watch]:
    """Run a watcher on ``root``, with the small help folder next to it (fast renders)."""
    lines: list[str] = []
    options = {"debounce": 0.1, **options}
    watch = Watch(root, port=0, log=lines.append,  # type: ignore[arg-type]
                  docs=help_docs(root), **options)
    watch.lines = lines  # type: ignore[attr-defined]
    with watch:
        yield watch


def get(url: str, method: str = "GET") -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def save(path: Path, text: str) -> None:
    """Write a file whole (as `standgen pair` does), so no build sees it half written."""
    tmp = path.with_name(f".{path.name}.swp")
    tmp.write_text(text)
    os.replace(tmp, path)


def until(condition: Callable[[], object], timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.03)


def rebuilt(watch: Watch, since: int) -> Callable[[], bool]:
    return lambda: watch.generation != since


def help_docs(root: Path) -> Path:
    docs = root.parent / "help-docs"
    if not docs.is_dir():
        docs.mkdir()
        (docs / "index.md").write_text("# Help\n\nHow to read the standings.\n")
    return docs


def site_now(root: Path) -> dict[str, bytes]:
    """The site as ``standgen build`` renders it from the files as they are now."""
    tree = load_tree(root)
    return render_site(tree, reports(tree), help_docs(root), TEMPLATES)


def expected_page(root: Path, rel: str) -> str:
    return site_now(root)[rel].decode()


def digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", [".round-1.csv.swp", ".round-1.csv.swx", "round-1.csv~",
                                  "4913", ".#round-1.csv", "#round-1.csv#", "x.tmp",
                                  ".~lock.round-1.csv#"])
def test_editor_litter_is_recognised(name: str) -> None:
    assert is_litter(name)


@pytest.mark.parametrize("name", ["round-1.csv", "players.csv", "event.toml", "event.md",
                                  "anna-k.md", "4914", "tmp.csv"])
def test_input_files_are_not_litter(name: str) -> None:
    assert not is_litter(name)


def test_edit_rebuilds_page_and_wakes_waiting_browsers(tree: Callable[..., Path]) -> None:
    root = tree({})
    with watching(root) as w:
        status, before = get(w.url + ROUND_PAGE)
        assert status == 200
        assert INJECTED.sub("", before) == expected_page(root, ROUND_PAGE)
        assert f'data-generation="{w.generation}"' in before
        assert "__standgen" not in (w.output / ROUND_PAGE).read_text()  # on disk: untouched
        generation = w.generation
        answer: list[str] = []
        poll = threading.Thread(target=lambda: answer.append(
            get(f"{w.url}{EVENTS_URL.lstrip('/')}?since={generation}")[1]))
        poll.start()
        time.sleep(0.2)
        assert not answer  # the long poll waits for a build
        started = time.monotonic()
        save(root / "ev/round-1.csv", ROUND_1.replace("1,a,b,1-0,3,1,40,20",
                                                            "1,a,b,0-1,1,3,20,40"))
        poll.join(5)
        assert answer and int(answer[0]) != generation
        assert time.monotonic() - started < 5.0
        status, after = get(w.url + ROUND_PAGE)
        assert after != before
        assert INJECTED.sub("", after) == expected_page(root, ROUND_PAGE)
        assert f'data-generation="{answer[0]}"' in after
        head, body = get(w.url + ROUND_PAGE, method="HEAD")
        assert head == 200 and body == ""
        status, _ = get(w.url + "ev/round-1")
        assert status == 200  # redirected to the folder's index page


def test_bad_csv_shows_escaped_problems_on_every_page_until_fixed(
    tree: Callable[..., Path],
) -> None:
    root = tree({})
    with watching(root) as w:
        good = {rel: get(w.url + rel)[1] for rel in ("", ROUND_PAGE, "ev/players/a/")}
        generation = w.generation
        save(root / "ev/round-1.csv", ROUND_HEADER + "1,a,<b>,1-0,3,1,40,20\n"
                                             "2,c,d,0-1,0,2,10,30\n")
        until(rebuilt(w, generation))
        with pytest.raises(InputError) as bad:
            load_tree(root)
        lines = [html.escape(str(p)) for p in bad.value.problems]
        assert any("round-1.csv:2: unknown player id &#x27;&lt;b&gt;&#x27;" in line
                   for line in lines)
        for rel, page in good.items():
            status, shown = get(w.url + rel)
            assert status == 200
            banner = re.search(r'<div id="standgen-watch-problems".*?</div>', shown, re.S)
            assert banner is not None
            assert all(line in banner.group(0) for line in lines)
            assert "<b>" not in banner.group(0)
            assert INJECTED.sub("", shown) == INJECTED.sub("", page)  # the last good site
        status, missing = get(w.url + "ev/round-9/")
        assert status == 404 and lines[0] in missing and "live.js" in missing
        assert any("unknown player id '<b>'" in line for line in w.lines)  # type: ignore[attr-defined]
        generation = w.generation
        save(root / "ev/round-1.csv", ROUND_1)
        until(rebuilt(w, generation))
        assert "standgen-watch-problems" not in get(w.url + ROUND_PAGE)[1]


def test_editor_litter_and_identical_saves_do_not_reload(tree: Callable[..., Path]) -> None:
    root = tree({})
    with watching(root) as w:
        generation = w.generation
        for name in (".round-1.csv.swp", "round-1.csv~", "4913", ".~lock.round-1.csv#",
                     "#round-1.csv#", "notes.tmp"):
            (root / "ev" / name).write_text("junk")  # in place, as editors write them
        (root / "ev" / "4913").unlink()
        time.sleep(0.5)
        assert w.builds == 0 and w.generation == generation
        save(root / "ev/round-1.csv", ROUND_1)  # saved, bytes unchanged
        until(lambda: w.builds == 1)
        time.sleep(0.2)
        assert w.generation == generation and w.last_written == ()


def test_only_the_touched_event_is_recomputed_and_only_changed_files_written(
    tree: Callable[..., Path],
) -> None:
    root = tree({"ev2/event.toml": EVENT_TOML.replace("Test", "Other"),
                 "ev2/players.csv": PLAYERS, "ev2/round-1.csv": ROUND_1})
    with watching(root) as w:
        assert w.reports_computed == 2
        before = digests(w.output)
        generation = w.generation
        save(root / "ev/round-1.csv", ROUND_1.replace(",40,20", ",41,20"))
        until(rebuilt(w, generation))
        assert w.reports_computed == 3  # ev2 was not built again (an incremental build)
        after = digests(w.output)
        differ = {rel for rel in before.keys() | after.keys()
                  if before.get(rel) != after.get(rel)}
        assert differ and set(w.last_written) == differ
        assert not any(rel.startswith("ev2/") for rel in differ)
        assert after == digests_of(site_now(root))


def digests_of(files: dict[str, bytes]) -> dict[str, str]:
    return {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}


def test_survives_deleted_renamed_and_half_written_files(tree: Callable[..., Path]) -> None:
    root = tree({})
    with watching(root) as w:
        step = w.generation
        (root / "ev/round-1.csv").unlink()
        until(rebuilt(w, step))
        status, proposed = get(w.url + ROUND_PAGE)  # round 1 is now only proposed
        assert status == 200
        assert INJECTED.sub("", proposed) == expected_page(root, ROUND_PAGE)
        step = w.generation
        tmp = root / "ev/.round-1.csv.tmp-1"
        tmp.write_text(ROUND_1)
        os.replace(tmp, root / "ev/round-1.csv")  # how editors and `standgen pair` save
        until(rebuilt(w, step))
        assert INJECTED.sub("", get(w.url + ROUND_PAGE)[1]) == expected_page(root, ROUND_PAGE)
        step = w.generation
        save(root / "ev/round-1.csv", ROUND_HEADER + "1,a,b,1-")  # as a half-written save
        until(rebuilt(w, step))
        assert "standgen-watch-problems" in get(w.url + ROUND_PAGE)[1]
        step = w.generation
        save(root / "ev/round-1.csv", ROUND_1)
        until(rebuilt(w, step))
        assert "standgen-watch-problems" not in get(w.url + ROUND_PAGE)[1]
        step = w.generation
        (root / "ev").rename(root / "renamed")
        until(rebuilt(w, step))
        assert get(w.url + "renamed/round-1/")[0] == 200
        assert get(w.url + ROUND_PAGE)[0] == 404


def test_help_page_edits_rebuild_too(tree: Callable[..., Path]) -> None:
    root = tree({})
    with watching(root) as w:
        step = w.generation
        save(help_docs(root) / "index.md", "# Help\n\nRead the standings top down.\n")
        until(rebuilt(w, step))
        assert "top down" in get(w.url + "help/")[1]


def test_a_bug_is_shown_on_the_page_and_the_server_keeps_serving(
    tree: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tree({})
    with watching(root) as w:
        good = get(w.url + ROUND_PAGE)[1]

        def broken(*args: object) -> dict[str, bytes]:
            raise RuntimeError("boom <here>")

        monkeypatch.setattr(SiteRenderer, "event_files", broken)
        monkeypatch.setattr(SiteRenderer, "event_parts", broken)  # the round's pages first
        step = w.generation
        save(root / "ev/round-1.csv", ROUND_1.replace(",40,20", ",42,20"))
        until(rebuilt(w, step))
        shown = get(w.url + ROUND_PAGE)[1]
        assert "RuntimeError: boom &lt;here&gt;" in shown and "a bug" in shown
        assert INJECTED.sub("", shown) == INJECTED.sub("", good)
        assert any("Traceback" in line for line in w.lines)  # type: ignore[attr-defined]
        monkeypatch.undo()
        step = w.generation
        save(root / "ev/round-1.csv", ROUND_1)
        until(rebuilt(w, step))
        assert "standgen-watch-problems" not in get(w.url + ROUND_PAGE)[1]


def test_bad_input_at_start_serves_the_problems_then_the_site(tree: Callable[..., Path]) -> None:
    root = tree({"ev/round-1.csv": ROUND_HEADER + "1,a,zed,1-0,3,1,40,20\n"})
    with watching(root) as w:
        status, page = get(w.url)
        assert status == 404 and "unknown player id &#x27;zed&#x27;" in page
        step = w.generation
        save(root / "ev/round-1.csv", ROUND_1)
        until(rebuilt(w, step))
        status, page = get(w.url + ROUND_PAGE)
        assert status == 200 and "standgen-watch-problems" not in page


def test_stop_ends_long_polls_and_idle_connections_and_joins_threads(
    tree: Callable[..., Path],
) -> None:
    root = tree({})
    threads_before = set(threading.enumerate())
    with watching(root) as w:
        output = w.output
        poll = threading.Thread(target=get, args=(f"{w.url}{EVENTS_URL[1:]}?since={w.generation}",))
        poll.start()
        idle = socket.create_connection(("127.0.0.1", w.port))  # connects, never asks
        time.sleep(0.2)
        started = time.monotonic()
    assert time.monotonic() - started < 3
    poll.join(5)
    idle.close()
    assert not poll.is_alive()
    assert set(threading.enumerate()) == threads_before
    assert not output.exists()  # the temporary site is removed


def test_refuses_unsafe_output_and_busy_port(tree: Callable[..., Path], tmp_path: Path) -> None:
    root = tree({})
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes/todo.txt").write_text("keep me")
    for output in (tmp_path, tmp_path / "notes"):
        with pytest.raises(ServeError):
            Watch(root, port=0, output=output).start()
    assert (tmp_path / "notes/todo.txt").read_text() == "keep me"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        refused = Watch(root, port=busy.getsockname()[1], docs=help_docs(root))
        with pytest.raises(ServeError, match="--port"):
            refused.start()
    assert not refused.output.exists()  # its temporary site is removed
    with pytest.raises(InputError, match="events folder not found"):
        Watch(tmp_path / "nowhere", port=0).start()


def test_output_folder_holds_exactly_the_site(tree: Callable[..., Path], tmp_path: Path) -> None:
    root = tree({})
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("old")
    (out / "stale").mkdir()
    (out / "stale/index.html").write_text("old")
    with watching(root, output=out):
        assert digests(out) == digests_of(site_now(root))
    assert (out / "index.html").is_file()  # an output folder the TO named is kept


def test_cli_serves_until_interrupted(tree: Callable[..., Path]) -> None:
    root = tree({})
    proc = subprocess.Popen([sys.executable, "-m", "standgen", "watch", str(root), "--port", "0"],
                            cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, line
        assert get(found.group(0) + ROUND_PAGE)[0] == 200
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert "Stopped." in out and "Traceback" not in err


def test_cli_documents_watch_options() -> None:
    from click.testing import CliRunner

    from standgen.cli import main

    result = CliRunner().invoke(main, ["watch", "--help"])
    assert result.exit_code == 0
    for option in ("--port", "--output", "--open"):
        assert option in result.stdout
    assert "standgen watch" in (PROJECT / "docs/watch.md").read_text()


def test_the_temporary_site_and_its_build_state_are_removed_at_stop(
    tree: Callable[..., Path]
) -> None:
    """Without -o, watch builds (as standgen build does) into a temporary folder, with the
    build state, lock and journal beside it: none of them outlives the watcher."""
    root = tree({})
    with watching(root) as w:
        output = w.output
        step = w.generation
        save(root / "ev/round-1.csv", ROUND_1.replace(",40,20", ",41,20"))
        until(rebuilt(w, step))
        assert w.last_written and (output / ROUND_PAGE).is_file()
        assert (output.parent / f".{output.name}.standgen-state.sqlite").is_file()
    assert not output.exists()
    assert not list(output.parent.glob(f".{output.name}.*"))


def test_the_round_written_is_served_before_the_events_other_pages_are_made(
    tree: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A result typed into round 1 of a two-round event: the page and pairings.json of
    round 1 (the file written, not the newest round) and the event's standings.json are
    served while the event's other pages (its player pages, held back here) are still
    being made, the front page and round 2 as before; the desk may write again meanwhile
    (the build has read its files); the site then ends as a full build's."""
    from standgen.site import pages

    release = threading.Event()
    held = threading.Event()
    player_page = pages.player_page

    def slow(*args: object, **kwargs: object) -> object:
        held.set()
        assert release.wait(30)
        return player_page(*args, **kwargs)  # type: ignore[arg-type]

    root = tree({"ev/round-2.csv": ROUND_HEADER + "1,a,d,1-0,3,1,40,20\n2,b,c,0-1,0,2,10,30\n"})
    with watching(root, debounce=5.0) as w:
        before = digests(w.output)
        monkeypatch.setattr(pages, "player_page", slow)
        path = root / "ev" / "round-1.csv"
        save(path, ROUND_1.replace("1,a,b,1-0", "1,a,b,0-1"))
        assert w.notice(str(path), urgent=True)
        until(held.is_set, timeout=10)
        served = {rel: hashlib.sha256(get(w.url + rel)[1].encode()).hexdigest()
                  for rel in ("ev/round-1/pairings.json", "ev/standings.json")}
        assert w.building and w.build_lock.acquire(blocking=False)  # the desk may write
        w.build_lock.release()
        now = digests(w.output)
        assert now["ev/index.html"] == before["ev/index.html"]  # not made yet
        assert now["ev/round-2/index.html"] == before["ev/round-2/index.html"]
        release.set()
        until(lambda: not w.building and not w.pending, timeout=30)
        full = digests_of(site_now(root))
        assert served == {rel: full[rel] for rel in served}
        assert now["ev/round-1/index.html"] == full["ev/round-1/index.html"]
        assert full["ev/index.html"] != before["ev/index.html"]
        assert {rel: digest for rel, digest in digests(w.output).items()
                if not rel.startswith("help/")} == {
            rel: digest for rel, digest in full.items() if not rel.startswith("help/")}


def test_a_desk_write_is_served_before_the_pages_above_events_are_made(
    tree: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A complete write noticed as urgent (the desk's) builds without the debounce, and
    the event's own pages are served as soon as they are in place, while the pages above
    events (held back here) are still being made; the site then ends as a full build's,
    and the file watcher's own event for the same write is not counted again."""
    from standgen.builder import scopes

    release = threading.Event()
    held = threading.Event()
    club = scopes.Club.update

    def slow(self: scopes.Club, run: scopes.Run) -> None:
        held.set()
        assert release.wait(30)
        club(self, run)

    root = tree({})
    with watching(root, debounce=5.0) as w:  # a debounce no test waits for
        monkeypatch.setattr(scopes.Club, "update", slow)
        path = root / "ev" / "round-1.csv"
        save(path, ROUND_1.replace("1,a,b,1-0", "1,a,b,0-1"))
        started = time.monotonic()
        assert w.notice(str(path), urgent=True)
        until(held.is_set, timeout=10)
        assert time.monotonic() - started < 5.0  # no debounce
        status, data = get(w.url + "ev/round-1/pairings.json")
        assert status == 200
        tables = {t["table"]: t["result"] for t in json.loads(data)["tables"]}
        assert tables[1] == "0-1"  # the new result, served
        assert w.building  # the club's pages are still being made
        release.set()
        until(lambda: not w.building and not w.pending, timeout=30)
        assert not w.notice(str(path))  # the watcher's event for the desk's own write
        assert {rel: digest for rel, digest in digests(w.output).items()
                if not rel.startswith("help/")} == {
            rel: hashlib.sha256(data).hexdigest() for rel, data in site_now(root).items()
            if not rel.startswith("help/")}
