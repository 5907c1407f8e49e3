"""``standgen watch --venue``: the results desk and self-reports, on 127.0.0.1 only.

Each test starts a real watcher with a desk on a free loopback port and talks HTTP to it;
the attacks (wrong token, no CSRF token, a foreign Origin, a host name, guessed table
codes, oversized forms) each end as docs/venue.md says, with the round file valid and
the log holding exactly the changes made.
"""

from __future__ import annotations

import http.client
import json
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from click.testing import CliRunner

from standgen.build import build
from standgen.cli import main
from standgen.errors import Problem
from standgen.load import load_event
from standgen.venue import (
    CODE_LENGTH,
    FAIL_LIMIT,
    Desk,
    RateLimiter,
    announce,
    host_ok,
    normal_code,
    shown_code,
    venue_folder,
)
from standgen.watch import Watch
from tests.conftest import PLAYERS, ROUND_HEADER

ROUND_2 = ROUND_HEADER + "1,a,c,,,,,\n2,b,d,,,,,\n"
Reply = tuple[int, dict[str, str], str]


@pytest.fixture
def venue(tree: Callable[..., Path]) -> Iterator[Watch]:
    """A watcher with the desk and self-reports on a 4-player event, round 2 unplayed."""
    root = tree({"ev/round-2.csv": ROUND_2})
    yield from _serve(root, self_report=True)


def _serve(root: Path, **options: Any) -> Iterator[Watch]:
    docs = root.parent / "help-docs"
    docs.mkdir(exist_ok=True)
    (docs / "index.md").write_text("# Help\n")
    lines: list[str] = []
    watch = Watch(root, port=0, log=lines.append, debounce=0.1, docs=docs)
    watch.lines = lines  # type: ignore[attr-defined]
    watch.desk = Desk(watch, **options)
    with watch:
        yield watch


def call(watch: Watch, method: str, path: str, form: dict[str, str] | None = None,
         headers: dict[str, str] | None = None, raw: bytes | None = None,
         address: str | None = None) -> Reply:
    source = (address, 0) if address else None
    conn = http.client.HTTPConnection("127.0.0.1", watch.port, timeout=60,
                                      source_address=source)
    sent = {"Content-Type": "application/x-www-form-urlencoded"} if form or raw else {}
    sent.update(headers or {})
    body = raw if raw is not None else (urlencode(form).encode() if form is not None else None)
    try:
        conn.request(method, path, body=body, headers=sent)
        reply = conn.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read().decode()
    finally:
        conn.close()


def desk_path(watch: Watch) -> str:
    assert watch.desk is not None
    return f"/__desk/{watch.desk.token}/"


def csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, page
    return found.group(1)


def desk_form(watch: Watch, **values: str) -> dict[str, str]:
    status, _, page = call(watch, "GET", desk_path(watch) + "?event=ev&round=2")
    assert status == 200
    return {"csrf": csrf(page), "event": "ev", "round": "2", **values}


def enter(watch: Watch, **values: str) -> Reply:
    return call(watch, "POST", desk_path(watch) + "enter", desk_form(watch, **values))


def round_2(watch: Watch) -> str:
    return (watch.events / "ev" / "round-2.csv").read_text()


def log(watch: Watch, kind: str = "change") -> list[dict[str, Any]]:
    assert watch.desk is not None
    if not watch.desk.log_path.exists():
        return []
    entries = [json.loads(line) for line in watch.desk.log_path.read_text().splitlines()]
    return [e for e in entries if e["kind"] == kind]


def valid(watch: Watch) -> bool:
    problems: list[Problem] = []
    event = load_event(watch.events / "ev", ("ev",), problems, watch.events)
    return event is not None and not [p for p in problems if not p.warning]


def page_results(watch: Watch) -> list[str]:
    """Return the Result cells of the served round-2 page."""
    status, _, page = call(watch, "GET", "/ev/round-2/")
    assert status == 200
    return [re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r'<td class="result">(.*?)</td>', page)]


def served_result(watch: Watch, table: int) -> str | None:
    status, _, text = call(watch, "GET", "/ev/round-2/pairings.json")
    if status != 200:
        return None
    found = [t for t in json.loads(text)["tables"] if t["table"] == table]
    return found[0]["result"] if found else None


def within(seconds: float, condition: Callable[[], object]) -> float:
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < seconds, f"not within {seconds} s"
        time.sleep(0.02)
    return time.monotonic() - start


def code_of(watch: Watch, table: int, number: int = 2) -> str:
    """Return a table's code as the desk derives it from the round file's players."""
    assert watch.desk is not None
    code = watch.desk.current_code("ev", number, table)
    assert code is not None
    return code


def slips_path(watch: Watch) -> str:
    assert watch.desk is not None
    return f"/__slips/{watch.desk.slips_token}/"


def report(watch: Watch, code: str, seat: int, **values: str) -> Reply:
    status, _, page = call(watch, "GET", "/__report/")
    assert status == 200
    form = {"csrf": csrf(page), "code": code, "seat": str(seat), **values}
    return call(watch, "POST", "/__report/submit", form)


# -- the desk ----------------------------------------------------------------------------

def test_desk_entry_changes_round_file_and_served_page_within_2_s(venue: Watch) -> None:
    assert served_result(venue, 1) is None and page_results(venue) == ["–", "–"]
    started = time.monotonic()
    status, headers, _ = enter(venue, table="1", result="1-0", cp_1="3", cp_2="1",
                               apd_1="30", apd_2="10")
    assert status == 303
    assert headers["Location"].startswith(desk_path(venue) + "?")
    assert "1,a,c,1-0,3,1,30,10\n" in round_2(venue)
    within(2.0 - (time.monotonic() - started), lambda: served_result(venue, 1) == "1-0"
           and page_results(venue)[0] == "1-0")
    assert page_results(venue)[1] == "–"
    [entry] = log(venue)
    assert (entry["event"], entry["round"], entry["table"], entry["who"]) == ("ev", 2, 1, "desk")
    assert entry["old"]["result"] == "" and entry["new"]["result"] == "1-0"
    assert entry["client"] == "127.0.0.1" and entry["time"].endswith("+00:00")
    assert valid(venue)


def test_desk_pages_carry_security_headers_and_no_live_script(venue: Watch) -> None:
    status, headers, page = call(venue, "GET", desk_path(venue))
    assert status == 200
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert "live.js" not in page and "<script" not in page
    assert "Table 1" in page and "Table 2" in page


def test_bad_result_gets_the_loaders_message_and_changes_nothing(venue: Watch) -> None:
    before = round_2(venue)
    status, _, page = enter(venue, table="2", result="2-0")
    assert status == 400
    assert "round-2.csv:3: result &#39;2-0&#39; is not one of" in page
    status, _, page = enter(venue, table="2", result="1-0", cp_1="x")
    assert status == 400 and "Table 2: control points of Bob must be a whole number" in page
    status, _, page = enter(venue, table="2", result="1-0", cp_1="1\n2")
    assert status == 400
    status, _, page = enter(venue, table="9", result="1-0")
    assert status == 404 and "no table 9" in page
    status, _, page = enter(venue, table="2", player_1="c")  # players cannot be changed
    assert status == 303  # only result and stats are taken from the form
    assert round_2(venue) == before and log(venue) == [] and valid(venue)


def test_an_event_broken_elsewhere_takes_good_entries_only(
        tree: Callable[..., Path]) -> None:
    """Problems already in other files do not block the desk; new ones do."""
    broken = ROUND_HEADER + "1,a,b,1-0,3,1,40,20\n2,c,d,0-1,0,2,10,x\n"
    root = tree({"ev/round-1.csv": broken, "ev/round-2.csv": ROUND_2})
    for watch in _serve(root):
        assert enter(watch, table="1", result="1-0")[0] == 303
        status, _, page = enter(watch, table="2", result="1-1")
        assert status == 400 and "round-2.csv:3: result" in page
        assert "round-1.csv" not in page
        assert len(log(watch)) == 1


def test_a_linked_round_file_is_not_replaced(tree: Callable[..., Path]) -> None:
    root = tree({"ev/round-2.csv": None, "shared/round-2.csv": ROUND_2})
    (root / "ev" / "round-2.csv").symlink_to(root / "shared" / "round-2.csv")
    for watch in _serve(root):
        status, _, page = enter(watch, table="1", result="1-0")
        assert status == 400 and "symbolic link" in page
        assert (root / "ev" / "round-2.csv").is_symlink() and log(watch) == []


def test_a_log_that_cannot_be_written_undoes_the_entry(venue: Watch,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert venue.desk is not None
    before = round_2(venue)

    def full(entry: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(venue.desk, "_log", full)
    status, _, page = enter(venue, table="1", result="1-0")
    assert status == 500 and "the entry was undone" in page
    assert round_2(venue) == before


def test_a_bug_is_a_500_page_not_a_dropped_connection(venue: Watch,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert venue.desk is not None

    def broken() -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(venue.desk, "events", broken)
    status, _, page = call(venue, "GET", desk_path(venue))
    assert status == 500 and "boom" not in page and "Internal error" in page
    assert any("RuntimeError: boom" in line for line in venue.lines)  # type: ignore[attr-defined]


def test_a_stale_form_is_refused_with_409(venue: Watch) -> None:
    form = desk_form(venue, table="1", result="1-0")
    status, _, page = call(venue, "GET", desk_path(venue) + "?event=ev&round=2")
    expect = re.findall(r'name="expect" value="([^"]+)"', page)[0]
    assert enter(venue, table="1", result="0-1")[0] == 303
    status, _, page = call(venue, "POST", desk_path(venue) + "enter", {**form, "expect": expect})
    assert status == 409 and "changed since this page was loaded" in page
    assert "1,a,c,0-1," in round_2(venue) and len(log(venue)) == 1


def test_no_write_while_a_build_runs(venue: Watch) -> None:
    form = desk_form(venue, table="1", result="1-0")
    replies: list[Reply] = []
    with venue.build_lock:  # as the builder holds it until its first pages are in place
        thread = threading.Thread(target=lambda: replies.append(
            call(venue, "POST", desk_path(venue) + "enter", form)))
        thread.start()
        time.sleep(0.4)
        assert ",1-0," not in round_2(venue) and not replies
    thread.join(30)
    assert replies[0][0] == 303 and ",1-0," in round_2(venue)


def test_100_concurrent_entries(venue: Watch) -> None:
    """Every entry is applied whole, one at a time: the file stays valid, the log has one
    line per entry, and each line's old row is the previous line's new row."""
    form = desk_form(venue)

    def one(i: int) -> int:
        table = 1 + i % 2
        values = {"table": str(table), "result": ("1-0", "0-1", "draw")[i % 3],
                  "cp_1": str(i % 5), "cp_2": "0", "apd_1": str(i), "apd_2": "7"}
        return call(venue, "POST", desk_path(venue) + "enter", {**form, **values})[0]

    with ThreadPoolExecutor(max_workers=100) as pool:
        statuses = list(pool.map(one, range(100)))
    assert statuses == [303] * 100
    entries = log(venue)
    assert len(entries) == 100  # every entry changes its row (apd_1 differs each time)
    rows = {1: "", 2: ""}
    for entry in entries:
        assert entry["old"]["result"] == rows[entry["table"]]
        rows[entry["table"]] = entry["new"]["result"]
        assert entry["who"] == "desk"
    last = {t: [e for e in entries if e["table"] == t][-1]["new"] for t in (1, 2)}
    text = round_2(venue)
    for row in last.values():
        assert ",".join(row.values()) + "\n" in text
    assert valid(venue)
    within(5.0, lambda: served_result(venue, 1) == last[1]["result"])


@pytest.mark.parametrize("event", ["club-swiss", "go-mcmahon", "old-world-open",
                                   "spring-steamroller"])
def test_every_two_player_demo_format_at_the_desk(event: str, tmp_path: Path) -> None:
    """The last round's table 1 of each demo event gets the other result (Old World: the
    format refuses it, then an empty one); every other cell (McMahon's handicap and komi,
    the stats) and every other line stay as they were."""
    import shutil

    project = Path(__file__).resolve().parent.parent
    root = tmp_path / "events"
    shutil.copytree(project / "events", root)
    folder = root / "2026" / event
    last = max(folder.glob("round-*.csv"), key=lambda p: int(p.stem.split("-")[1]))
    before = last.read_text().splitlines()
    header, first = before[0].split(","), before[1].split(",")
    result = "0-1" if first[3] == "1-0" else "1-0"
    for watch in _serve(root):
        status, _, page = call(watch, "GET", desk_path(watch) + f"?event=2026/{event}")
        form = {"csrf": csrf(page), "event": f"2026/{event}", "round": last.stem[6:],
                "table": first[0], "result": result}
        status, _, page = call(watch, "POST", desk_path(watch) + "enter", form)
        if event == "old-world-open":  # the format's own rule: the VP decide the result
            assert status == 400 and "write &#39;draw&#39;, leave the result empty" in page
            assert last.read_text().splitlines() == before
            form["result"] = result = ""  # empty: Old World derives it from the VP
            status, _, page = call(watch, "POST", desk_path(watch) + "enter", form)
        assert status == 303, re.findall(r"<code>(.*?)</code>", page)
        after = last.read_text().splitlines()
        assert after[0] == before[0] and after[2:] == before[2:]
        changed = dict(zip(header, after[1].split(","), strict=True))
        assert changed == {**dict(zip(header, first, strict=True)), "result": result}
        status, _, page = call(watch, "GET", desk_path(watch))
        assert "Not at the desk" in page and "Diplomacy" in page
        form = {**form, "event": "2026/diplomacy-open", "round": "1", "table": "1"}
        status, _, page = call(watch, "POST", desk_path(watch) + "enter", form)
        assert status == 400 and "two-player results only" in page


# -- attacks on the desk -----------------------------------------------------------------

def test_wrong_token_is_404_and_the_11th_failure_429(venue: Watch) -> None:
    for _ in range(FAIL_LIMIT):
        status, _, _ = call(venue, "GET", f"/__desk/{secrets.token_urlsafe(24)}/")
        assert status == 404
    status, headers, _ = call(venue, "GET", f"/__desk/{secrets.token_urlsafe(24)}/")
    assert status == 429 and int(headers["Retry-After"]) >= 1
    # the address is blocked for the desk and the reports, even with the right token ...
    assert call(venue, "GET", desk_path(venue))[0] == 429
    assert call(venue, "GET", "/__report/")[0] == 429
    # ... but the public site is still served
    assert call(venue, "GET", "/ev/")[0] == 200


def test_near_misses_of_the_token_are_404(venue: Watch) -> None:
    assert venue.desk is not None
    token = venue.desk.token
    for wrong in (token[:-1], token + "x", token.swapcase(), "", "%2e%2e", token[:8]):
        assert call(venue, "GET", f"/__desk/{wrong}/")[0] == 404, wrong
    assert call(venue, "GET", f"/__desk/{token}/../{token}/")[0] == 404
    assert call(venue, "GET", f"/__desk/{token}")[0] == 303  # only adds the slash


def test_the_token_is_checked_on_posts_too(venue: Watch) -> None:
    form = desk_form(venue, table="1", result="1-0")
    status, _, _ = call(venue, "POST", f"/__desk/{secrets.token_urlsafe(24)}/enter", form)
    assert status == 404 and ",1-0," not in round_2(venue)


def test_missing_or_forged_csrf_token_is_403_and_changes_nothing(venue: Watch) -> None:
    form = desk_form(venue, table="1", result="1-0")
    path = desk_path(venue) + "enter"
    without = {k: v for k, v in form.items() if k != "csrf"}
    assert call(venue, "POST", path, without)[0] == 403
    forged = {**form, "csrf": form["csrf"][:-4] + "0000"}
    assert call(venue, "POST", path, forged)[0] == 403
    assert desk_form(venue)["csrf"] != form["csrf"]  # a fresh token on every page
    report_form = {**form, "csrf": csrf(call(venue, "GET", "/__report/")[2])}
    assert call(venue, "POST", path, report_form)[0] == 403  # a report token is not a desk one
    assert ",1-0," not in round_2(venue) and log(venue) == []


def test_a_form_from_another_site_is_403(venue: Watch) -> None:
    form = desk_form(venue, table="1", result="1-0")
    path = desk_path(venue) + "enter"
    status, _, _ = call(venue, "POST", path, form, {"Origin": "http://evil.example"})
    assert status == 403
    status, _, _ = call(venue, "POST", path, form, {"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    status, _, _ = call(venue, "POST", path, form,
                        {"Origin": f"http://127.0.0.1:{venue.port}"})
    assert status == 303 and len(log(venue)) == 1


def test_a_host_name_is_refused_against_dns_rebinding(venue: Watch) -> None:
    status, _, page = call(venue, "GET", desk_path(venue),
                           headers={"Host": f"rebind.evil.example:{venue.port}"})
    assert status == 421 and venue.desk is not None and venue.desk.token not in page
    assert host_ok(f"127.0.0.1:{venue.port}") and host_ok("localhost:8000")
    assert host_ok("[::1]:8000") and host_ok("192.168.1.20:8000")
    assert not host_ok("desk.example:8000") and not host_ok("")


def test_oversized_odd_or_get_changes_are_refused(venue: Watch) -> None:
    path = desk_path(venue) + "enter"
    assert call(venue, "POST", path, raw=b"a=" + b"x" * 20000)[0] == 413
    form = desk_form(venue, table="1", result="1-0")
    assert call(venue, "POST", path, raw=urlencode(form).encode(),
                headers={"Content-Type": "text/plain"})[0] == 415
    assert call(venue, "GET", path + "?" + urlencode(form))[0] == 404  # GET changes nothing
    assert call(venue, "POST", "/ev/", form)[0] == 405
    assert log(venue) == [] and ",1-0," not in round_2(venue)


def test_posts_are_rate_limited(tree: Callable[..., Path]) -> None:
    root = tree({"ev/round-2.csv": ROUND_2})
    for watch in _serve(root, post_limit=3):
        form = desk_form(watch, table="1", result="1-0")
        statuses = [call(watch, "POST", desk_path(watch) + "enter", form)[0] for _ in range(4)]
        assert statuses == [303, 303, 303, 429]


# -- self-reports ------------------------------------------------------------------------

def test_two_agreeing_reports_save_the_result(venue: Watch) -> None:
    code = code_of(venue, 2)
    assert len(code) == CODE_LENGTH
    started = time.monotonic()
    status, _, page = report(venue, code, 1, result="0-1", cp_1="1", cp_2="3")
    assert status == 200 and "once your opponent reports" in page
    assert ",0-1," not in round_2(venue)
    typed = f"{code[:4].lower()}-{code[4:]}"  # as typed from the slip
    status, _, page = report(venue, typed, 2, result="0-1", cp_1="1", cp_2="3")
    assert status == 200 and "Both reports agree" in page
    assert "2,b,d,0-1,1,3,,\n" in round_2(venue)
    within(2.0 - (time.monotonic() - started), lambda: served_result(venue, 2) == "0-1"
           and page_results(venue)[1] == "0-1")
    [entry] = log(venue)
    assert entry["who"] == (f"table {code} (both players from one address and within 10 "
                            "seconds of each other)")
    assert len(log(venue, "report")) == 2 and valid(venue)
    status, _, page = report(venue, code, 1, result="1-0")
    assert status == 409 and "already entered" in page


def test_concurrent_reports_save_each_table_once(venue: Watch) -> None:
    page = call(venue, "GET", "/__report/")[2]
    token = csrf(page)
    jobs = [(table, seat) for table in (1, 2) for seat in (1, 2)] * 5

    def one(job: tuple[int, int]) -> int:
        # each seat is its own phone (address), tapping "send" five times at once; from
        # one address, more than FAIL_LIMIT guesses in flight at once would be 429, since
        # a guess counts as failed until its code is checked (a loaded machine gets there)
        table, seat = job
        form = {"csrf": token, "code": code_of(venue, table), "seat": str(seat),
                "result": "1-0", "cp_1": "2", "cp_2": "1"}
        return call(venue, "POST", "/__report/submit", form,
                    address=f"127.0.0.{20 + 2 * table + seat}")[0]

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(pool.map(one, jobs))
    assert set(statuses) <= {200, 409}  # 409: the table was saved by then
    entries = log(venue)
    assert sorted(e["table"] for e in entries) == [1, 2]
    assert "1,a,c,1-0,2,1,,\n2,b,d,1-0,2,1,,\n" in round_2(venue) and valid(venue)


def test_disagreeing_reports_go_to_the_desk(venue: Watch) -> None:
    code = code_of(venue, 1)
    before = round_2(venue)
    assert report(venue, code, 1, result="1-0")[0] == 200
    status, _, page = report(venue, code, 2, result="0-1")
    assert status == 200 and "Your reports differ" in page
    assert round_2(venue) == before and log(venue) == []
    [dispute] = log(venue, "dispute")
    assert dispute["reports"] == [{"result": "1-0"}, {"result": "0-1"}]
    desk = call(venue, "GET", desk_path(venue))[2]
    assert "Reports that disagree" in desk and "table 1" in desk
    assert enter(venue, table="1", result="1-0")[0] == 303  # the TO decides
    assert "Reports that disagree" not in call(venue, "GET", desk_path(venue))[2]
    assert any("reports disagree" in line for line in venue.lines)  # type: ignore[attr-defined]


def test_a_result_saved_in_the_file_settles_a_dispute(venue: Watch) -> None:
    code = code_of(venue, 2)
    assert report(venue, code, 1, result="1-0")[0] == 200
    assert report(venue, code, 2, result="0-1")[0] == 200
    assert "Reports that disagree" in call(venue, "GET", desk_path(venue))[2]
    (venue.events / "ev" / "round-2.csv").write_text(ROUND_2.replace("2,b,d,,", "2,b,d,1-0,"))
    assert "Reports that disagree" not in call(venue, "GET", desk_path(venue))[2]


def test_a_bad_report_gets_the_loaders_message(venue: Watch) -> None:
    code = code_of(venue, 1)
    status, _, page = report(venue, code, 1, result="1-0", cp_1="-4")
    assert status == 400 and "cannot be negative" in page
    assert report(venue, code, 1, result="5-0")[0] == 400
    assert report(venue, code, 3, result="1-0")[0] == 400
    assert log(venue, "report") == [] and log(venue) == []


def test_guessed_table_codes_are_refused_then_rate_limited(venue: Watch) -> None:
    assert CODE_LENGTH * 5 >= 40  # bits: 10 guesses a minute cannot find one
    page = call(venue, "GET", "/__report/")[2]
    for _ in range(FAIL_LIMIT):
        guess = secrets.token_hex(4).upper()
        status, _, text = call(venue, "POST", "/__report/submit",
                               {"csrf": csrf(page), "code": guess, "seat": "1",
                                "result": "1-0"})
        assert status == 403 and "No table of the current round has this code" in text
    real = code_of(venue, 1)
    status, _, _ = call(venue, "POST", "/__report/submit",
                        {"csrf": csrf(page), "code": real, "seat": "1", "result": "1-0"})
    assert status == 429
    assert log(venue, "report") == [] and ",1-0," not in round_2(venue)


def test_codes_are_per_table_and_only_for_the_last_round(venue: Watch) -> None:
    assert venue.desk is not None
    codes = {code_of(venue, t, n) for t in (1, 2) for n in (1, 2)}
    assert len(codes) == 4
    assert venue.desk.find_code(code_of(venue, 1, number=1)) is None
    found = venue.desk.find_code(normal_code(" " + code_of(venue, 2).lower()))
    assert found is not None and found[1:] == (2, 2)
    assert normal_code("ob-i0 18") == "OBIOIB"  # digits base32 lacks read as look-alikes
    assert venue.desk.code("ev", 2, 1) == code_of(venue, 1)  # players read from the file
    assert venue.desk.code("ev", 2, 1, "a", "c") == code_of(venue, 1)
    assert venue.desk.code("ev", 2, 1, "c", "a") != code_of(venue, 1)


def test_slips_list_the_codes_on_the_desk_only(venue: Watch) -> None:
    status, _, page = call(venue, "GET", slips_path(venue) + "?event=ev&round=2")
    code = code_of(venue, 1)
    assert status == 200 and f"{code[:4]}-{code[4:]}" in page
    assert call(venue, "GET", desk_path(venue) + "slips?event=ev&round=2")[0] == 404
    assert f"http://127.0.0.1:{venue.port}/__report/" in page and "<svg" in page
    assert code[:4] not in call(venue, "GET", "/__report/")[2]


def test_without_self_report_there_is_no_report_page(tree: Callable[..., Path]) -> None:
    root = tree({"ev/round-2.csv": ROUND_2})
    for watch in _serve(root):
        assert call(watch, "GET", "/__report/")[0] == 404
        assert call(watch, "GET", slips_path(watch))[0] == 404
        page = call(watch, "GET", desk_path(watch))[2]
        assert "Table 1" in page and code_of(watch, 1)[:4] not in page


# -- what is kept where --------------------------------------------------------------------

def test_build_and_watch_never_publish_the_desk_codes_or_log(venue: Watch,
                                                             tmp_path: Path) -> None:
    assert venue.desk is not None
    assert report(venue, code_of(venue, 1), 1, result="1-0")[0] == 200
    assert enter(venue, table="2", result="0-1")[0] == 303
    folder = venue_folder(venue.events)
    assert (folder / "secret").stat().st_mode & 0o077 == 0
    assert not folder.is_relative_to(venue.events)
    out = tmp_path / "site"
    build(venue.events, out)
    secrets_seen = [venue.desk.token, code_of(venue, 1), code_of(venue, 2),
                    shown_code(code_of(venue, 1)), 'name="csrf"', '"client": "127.0.0.1"',
                    (folder / "secret").read_text().strip()]  # (help pages explain the desk)
    for site in (out, venue.output):
        for path in site.rglob("*"):
            if path.is_file():
                data = path.read_bytes()
                for secret in secrets_seen:
                    assert secret.encode() not in data, (path, secret)


def test_announce_prints_the_url_qr_and_desk_once(venue: Watch) -> None:
    assert venue.desk is not None
    text = announce(venue.desk)
    assert text.count(venue.desk.token) == 1
    assert f"http://127.0.0.1:{venue.port}/" in text and "█" in text
    assert "/__report/" in text


def test_the_command_prints_the_desk_once_and_takes_entries(
        tree: Callable[..., Path]) -> None:
    """``standgen watch --venue 127.0.0.1 --self-report`` end to end, as a TO runs it."""
    import queue
    import signal
    import subprocess
    import sys

    root = tree({"ev/round-2.csv": ROUND_2})
    project = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "standgen", "watch", str(root), "--venue",
                             "127.0.0.1", "--port", "0", "--self-report"], cwd=project,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout or ()],
                              daemon=True)
    reader.start()
    printed = []
    try:
        while not printed or "Results desk" not in printed[-1]:
            printed.append(lines.get(timeout=30))
        found = re.search(r"http://127\.0\.0\.1:(\d+)(/__desk/[^/]+/)", printed[-1])
        assert found, printed
        port, path = int(found.group(1)), found.group(2)
        assert any("█" in line for line in printed)  # the QR code
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", path)
        page = conn.getresponse().read().decode()
        form = {"csrf": csrf(page), "event": "ev", "round": "2", "table": "1", "result": "1-0"}
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("POST", path + "enter", urlencode(form),
                     {"Content-Type": "application/x-www-form-urlencoded"})
        assert conn.getresponse().status == 303
        assert "1,a,c,1-0," in (root / "ev" / "round-2.csv").read_text()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        reader.join(5)
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.stderr.close()
        proc.stdout.close()
    while not lines.empty():
        printed.append(lines.get())
    everything = "".join(printed)
    assert "Stopped." in everything
    assert everything.count(found.group(2).strip("/").split("/")[1]) == 1  # printed once
    assert proc.returncode == 0 and "Traceback" not in err
    assert (venue_folder(root) / "log.jsonl").read_text().count('"kind": "change"') == 1


def test_cli_self_report_needs_venue(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["watch", str(tmp_path), "--self-report"])
    assert result.exit_code == 2 and "--self-report needs --venue" in result.output


def test_cli_refuses_a_host_name(tmp_path: Path) -> None:
    (tmp_path / "events").mkdir()
    result = CliRunner().invoke(main, ["watch", str(tmp_path / "events"), "--venue",
                                       "desk.example", "--port", "0"])
    assert result.exit_code == 2 and "is not an IPv4 address" in result.output


def test_names_and_entries_are_escaped(tree: Callable[..., Path]) -> None:
    players = PLAYERS.replace("Ann", "<script>alert(1)</script>")
    root = tree({"ev/players.csv": players, "ev/round-2.csv": ROUND_2})
    for watch in _serve(root, self_report=True):
        page = call(watch, "GET", desk_path(watch))[2]
        assert "<script>alert" not in page and "&lt;script&gt;alert(1)" in page
        status, _, page = enter(watch, table="1", result="<b>x</b>")
        assert status == 400 and "<b>x</b>" not in page and "&lt;b&gt;x" in page
        status, _, page = report(watch, code_of(watch, 1), 1, result="1-0", cp_1="<i>")
        assert status == 400 and "<i>" not in page


def test_one_address_cannot_hold_every_connection(venue: Watch,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    import standgen.watch.server as watch_module

    monkeypatch.setattr(watch_module, "MAX_PER_ADDRESS", 5)
    idle = [socket.create_connection(("127.0.0.1", venue.port), timeout=10) for _ in range(6)]
    try:
        idle[-1].settimeout(5)
        assert idle[-1].recv(1) == b""  # the sixth is closed at once, unanswered
    finally:
        for connection in idle:
            connection.close()

    def answered() -> bool:
        try:  # the idle connections' threads end as soon as they see the close
            return call(venue, "GET", "/ev/")[0] == 200
        except (ConnectionError, http.client.HTTPException):
            return False

    within(10.0, answered)


def test_desk_and_report_pages_are_valid_html5(venue: Watch) -> None:
    import html5lib

    code = code_of(venue, 1)
    pages = [call(venue, "GET", desk_path(venue))[2],
             call(venue, "GET", slips_path(venue) + "?event=ev&round=2")[2],
             enter(venue, table="1", result="bad")[2],
             call(venue, "GET", "/__report/")[2],
             report(venue, code, 1, result="1-0")[2],
             call(venue, "GET", f"/__desk/{secrets.token_urlsafe(24)}/")[2]]
    page = call(venue, "GET", "/__report/")[2]
    pages.append(call(venue, "POST", "/__report/", {"csrf": csrf(page), "code": code})[2])
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    for text in pages:
        assert text.startswith("<!doctype html>")
        parser.parse(text)


def test_rate_limiter_window() -> None:
    limiter = RateLimiter(2, window=0.2)
    assert limiter.hit("a") and limiter.hit("a") and not limiter.hit("a")
    assert limiter.blocked("a") > 0 and not limiter.blocked("b")
    time.sleep(0.25)
    assert limiter.blocked("a") == 0 and limiter.hit("a")


def test_a_round_file_saved_in_place_is_read_again_once_saved(venue: Watch) -> None:
    """An editor saving round-2.csv in place empties it for a moment: the desk reads it
    again then and shows the round, not the advice for an empty file; a file left empty
    gets that advice."""
    path = venue.events / "ev" / "round-2.csv"
    path.write_text("")
    timer = threading.Timer(0.2, lambda: path.write_text(ROUND_2))
    timer.start()
    try:
        status, _, page = call(venue, "GET", desk_path(venue) + "?event=ev&round=2")
    finally:
        timer.join()
    assert status == 200 and "header row" not in page
    assert 'name="csrf"' in page
    path.write_text("")
    status, _, page = call(venue, "GET", desk_path(venue) + "?event=ev&round=2")
    assert "round-2.csv:1: file is empty; it needs a header row" in page, page
