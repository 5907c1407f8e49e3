"""Issue #28: each finding of the desk's attack and stress run, reproduced, with its defence.

Every test starts a real watcher with a desk on 127.0.0.1 (clients use other loopback
addresses, 127.0.0.x, to be several devices); each reproduces one loss or break-in from the
issue and checks that it is now refused (and says why) or held.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from standgen.venue import Desk, venue_folder
from standgen.watch import ServeError, Watch
from tests.conftest import ROUND_HEADER
from tests.realnames import field
from tests.test_venue import (
    ROUND_2,
    Reply,
    _serve,
    call,
    code_of,
    csrf,
    desk_form,
    desk_path,
    enter,
    log,
    report,
    round_2,
    slips_path,
    valid,
    within,
)


@pytest.fixture
def venue(tree: Callable[..., Path]) -> Iterator[Watch]:
    root = tree({"ev/round-2.csv": ROUND_2})
    yield from _serve(root, self_report=True)


def call_from(watch: Watch, address: str, method: str, path: str,
              form: dict[str, str] | None = None,
              headers: dict[str, str] | None = None) -> Reply:
    """Send one request from the loopback ``address`` (another device at the venue)."""
    conn = http.client.HTTPConnection("127.0.0.1", watch.port, timeout=60,
                                      source_address=(address, 0))
    sent = {"Content-Type": "application/x-www-form-urlencoded"} if form else {}
    sent.update(headers or {})
    try:
        conn.request(method, path, body=urlencode(form).encode() if form else None,
                     headers=sent)
        reply = conn.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read().decode()
    finally:
        conn.close()


def report_from(watch: Watch, address: str, code: str, seat: int, **values: str) -> Reply:
    page = call_from(watch, address, "GET", "/__report/")[2]
    form = {"csrf": csrf(page), "code": code, "seat": str(seat), **values}
    return call_from(watch, address, "POST", "/__report/submit", form)


def path_of(watch: Watch) -> Path:
    return watch.events / "ev" / "round-2.csv"


# -- 1. a desk entry answered "saved" and a self-report in flight -----------------------

def test_1_a_report_in_flight_cannot_overwrite_a_saved_desk_entry(
        venue: Watch, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second player's report has passed its checks when the TO saves the table at
    the desk: the report is refused (the row changed), the desk's result stays."""
    desk = venue.desk
    assert isinstance(desk, Desk)
    code = code_of(venue, 1)
    assert report(venue, code, 1, result="0-1")[0] == 200
    real_apply = desk.apply
    replies: list[Reply] = []
    form = desk_form(venue, table="1", result="1-0", cp_1="5")  # the TO's page is open

    def apply(*args: Any, **kwargs: Any) -> Any:
        outcome = real_apply(*args, **kwargs)
        if kwargs.get("dry_run") and not replies:  # the report is in flight: the TO saves
            thread = threading.Thread(target=lambda: replies.append(
                call(venue, "POST", desk_path(venue) + "enter", form)))
            thread.start()
            within(20, lambda: ",1-0,5," in round_2(venue))
        return outcome

    monkeypatch.setattr(desk, "apply", apply)
    status, _, page = report(venue, code, 2, result="0-1")
    assert status == 409 and "entered this table" in page, venue.lines  # type: ignore[attr-defined]
    within(20, lambda: replies)
    assert replies[0][0] == 303
    assert "1,a,c,1-0,5,,,\n" in round_2(venue)
    assert [e["who"] for e in log(venue)] == ["desk"]


# -- 2. a header with spaces after the commas ------------------------------------------

def test_2_a_header_with_spaces_is_written_and_never_a_false_saved(
        tree: Callable[..., Path]) -> None:
    spaced = ROUND_2.replace(",", ", ", 7)
    root = tree({"ev/round-2.csv": spaced})
    for watch in _serve(root, self_report=True):
        status, headers, _ = enter(watch, table="1", result="1-0", cp_1="3")
        assert status == 303 and "saved=1" in headers["Location"]
        assert path_of(watch).read_text().splitlines()[1] == "1,a,c,1-0,3,,,"
        assert path_of(watch).read_text().splitlines()[0] == spaced.splitlines()[0]
        code = code_of(watch, 2)
        assert report(watch, code, 1, result="draw")[0] == 200
        status, _, page = report(watch, code, 2, result="draw")
        assert status == 200 and "Both reports agree" in page
        assert "2,b,d,draw,,,," in path_of(watch).read_text()
        status, headers, page = enter(watch, table="1", result="1-0", cp_1="3")  # again
        assert status == 303 and "unchanged=1" in headers["Location"]
        page = call(watch, "GET", headers["Location"])[2]
        assert "already read so; nothing was changed" in page and "Table 1 saved" not in page
        assert len(log(watch)) == 2 and valid(watch)


# -- 3. the TO's editor and a writer that writes in two parts --------------------------

@pytest.mark.parametrize("lock", [".~lock.round-2.csv#", ".round-2.csv.swp", "~$round-2.csv"])
def test_3_an_open_editor_stops_desk_entries_and_says_so(lock: str, venue: Watch) -> None:
    (path_of(venue).parent / lock).write_text("sam,laptop,pid;")
    status, _, page = enter(venue, table="1", result="1-0")
    assert status == 409 and "is open in an editor" in page and lock.replace("$", "$") in page
    assert ",1-0," not in round_2(venue) and log(venue) == []
    (path_of(venue).parent / lock).unlink()
    assert enter(venue, table="1", result="1-0")[0] == 303


def test_3_a_file_cut_short_by_a_writer_is_not_written_over(tree: Callable[..., Path]) -> None:
    """A writer truncates round-2.csv and writes it in two parts; the desk saves in
    between: refused (the tables on the page are not the file's), so no row is lost."""
    people = field(__import__("random").Random(28), 40)
    players = "id,name,faction\n" + "".join(f"{p.id},{p.name},{p.faction}\n" for p in people)
    rows = [f"{t},{people[2 * t - 2].id},{people[2 * t - 1].id},,,,," for t in range(1, 21)]
    text = ROUND_HEADER + "\n".join(rows) + "\n"
    root = tree({"ev/players.csv": players, "ev/round-1.csv": None, "ev/round-2.csv": None})
    (root / "ev" / "round-1.csv").write_text(text)
    for watch in _serve(root):
        path = root / "ev" / "round-1.csv"
        status, _, page = call(watch, "GET", desk_path(watch) + "?event=ev&round=1")
        assert status == 200
        forms = re.findall(r'name="(expect|pairing)" value="([^"]+)"', page)
        expect, pairing = forms[0][1], forms[1][1]
        with open(path, "r+", encoding="utf-8") as handle:  # the writer's first part
            handle.truncate(0)
            handle.write(ROUND_HEADER + "\n".join(rows[:5]) + "\n")
        time.sleep(0.6)
        form = {"csrf": csrf(page), "event": "ev", "round": "1", "table": "1",
                "result": "1-0", "expect": expect, "pairing": pairing}
        status, _, page = call(watch, "POST", desk_path(watch) + "enter", form)
        assert status == 409 and "tables or players of this round changed" in page
        with open(path, "a", encoding="utf-8") as handle:  # the writer's second part
            handle.write("\n".join(rows[5:]) + "\n")
        assert path.read_text() == text


# -- 4. two desks on one events folder ---------------------------------------------------

def test_4_a_second_desk_on_the_same_events_is_refused_with_pid_and_url(
        venue: Watch, tmp_path: Path) -> None:
    other = Watch(venue.events, port=0, log=lambda line: None, docs=tmp_path)
    with pytest.raises(ServeError) as refused:
        Desk(other)
    message = str(refused.value)
    assert f"pid {os.getpid()}" in message and f"http://127.0.0.1:{venue.port}/" in message
    assert "would lose each other's entries" in message
    assert venue.desk is not None and venue.desk.token not in message


def test_4_the_command_refuses_a_second_desk(venue: Watch) -> None:
    import subprocess
    import sys

    project = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-m", "standgen", "watch", str(venue.events),
                           "--venue", "127.0.0.1", "--port", "0"], cwd=project,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "another 'standgen watch --venue' serves" in done.stderr
    assert f"pid {os.getpid()}" in done.stderr and "Traceback" not in done.stderr


# -- 5. Old World results entered as VP only --------------------------------------------

def test_5_a_vp_only_result_is_a_result(tmp_path: Path) -> None:
    project = Path(__file__).resolve().parent.parent
    root = tmp_path / "events"
    shutil.copytree(project / "events" / "2026" / "old-world-open", root / "ow")
    for watch in _serve(root, self_report=True):
        path = root / "ow" / "round-3.csv"
        before = path.read_text()
        assert "\n2,gus-t,kit-a,,755,1085\n" in before  # result empty, VP entered
        assert watch.desk is not None
        code = watch.desk.current_code("ow", 3, 2)
        assert code is not None
        status, _, page = report(watch, code, 1, result="1-0", vp_1="900", vp_2="100")
        assert status == 409 and "already entered" in page
        assert path.read_text() == before
        page = call(watch, "GET", desk_path(watch) + "?event=ow&round=3")[2]
        card = page[page.index('id="table-2"'):page.index('id="table-3"')]
        assert "✓ done" in card


# -- 6. after a re-pair ----------------------------------------------------------------

def test_6_old_slips_and_pending_reports_die_with_a_re_pair(venue: Watch) -> None:
    old = code_of(venue, 1)
    assert report(venue, old, 1, result="1-0")[0] == 200  # pending: a vs c
    path_of(venue).write_text(ROUND_HEADER + "1,a,b,,,,,\n2,c,d,,,,,\n")  # pair --redo
    status, _, page = report(venue, old, 2, result="1-0")
    assert status == 403 and "No table of the current round has this code" in page
    new = code_of(venue, 1)
    assert new != old
    status, _, page = report(venue, new, 2, result="1-0")
    assert status == 200 and "once your opponent reports" in page  # the old report is gone
    assert ",1-0," not in round_2(venue) and log(venue) == []


# -- 7. one slip holder, two addresses; a dispute ----------------------------------------

def test_7_both_seats_from_two_addresses_in_seconds_are_marked(venue: Watch) -> None:
    code = code_of(venue, 1)
    assert report_from(venue, "127.0.0.2", code, 1, result="1-0")[0] == 200
    status, _, page = report_from(venue, "127.0.0.3", code, 2, result="1-0")
    assert status == 200 and "Both reports agree" in page
    [entry] = log(venue)
    assert "within 10 seconds of each other" in entry["who"]
    assert "from one address" not in entry["who"]
    desk = call(venue, "GET", desk_path(venue))[2]
    assert "Check with the players: confirmed by both players within 10 seconds" in desk
    assert enter(venue, table="1", result="1-0", cp_1="1")[0] == 303  # the TO looked
    assert "Check with the players" not in call(venue, "GET", desk_path(venue))[2]


def test_7_a_disputed_table_is_frozen_until_the_desk_settles_it(venue: Watch) -> None:
    code = code_of(venue, 2)
    assert report(venue, code, 1, result="1-0")[0] == 200
    assert "Your reports differ" in report(venue, code, 2, result="0-1")[2]
    for seat, result in ((1, "0-1"), (2, "1-0"), (1, "1-0")):  # either side gives in
        status, _, page = report(venue, code, seat, result=result)
        assert status == 409 and "the TO decides" in page
    assert ",1-0," not in round_2(venue) and ",0-1," not in round_2(venue)
    assert log(venue) == []
    assert enter(venue, table="2", result="0-1")[0] == 303
    assert "2,b,d,0-1," in round_2(venue)


# -- 8. racing the code-guess limit ----------------------------------------------------

def test_8_guesses_sent_at_once_are_counted_before_they_are_evaluated(venue: Watch) -> None:
    page = call_from(venue, "127.0.0.7", "GET", "/__report/")[2]
    token = csrf(page)
    real = code_of(venue, 1)
    results: list[int] = []

    def wave(codes: list[str]) -> None:
        socks = []
        for code in codes:  # every head first ...
            body = urlencode({"csrf": token, "code": code, "seat": "1", "result": "1-0"})
            sock = socket.create_connection(("127.0.0.1", venue.port), timeout=30,
                                            source_address=("127.0.0.7", 0))
            sock.sendall((f"POST /__report/submit HTTP/1.1\r\nHost: 127.0.0.1:{venue.port}\r\n"
                          "Content-Type: application/x-www-form-urlencoded\r\n"
                          f"Content-Length: {len(body)}\r\n\r\n").encode())
            socks.append((sock, body))
        for sock, body in socks:  # ... then every body
            try:
                sock.sendall(body.encode())
            except OSError:
                pass
        for sock, _ in socks:
            try:
                answer = sock.recv(64)
                results.append(int(answer.split()[1]) if answer else 0)
            except (OSError, IndexError, ValueError):
                results.append(0)
            sock.close()

    wrong = [f"{i:02d}".translate(str.maketrans("0123456789", "ABCDEFGHJK")) * 4
             for i in range(24)]
    for start in (0, 8, 16):
        wave(wrong[start:start + 8] if start < 16 else [*wrong[16:23], real])
    evaluated = results.count(403) + results.count(200)
    assert evaluated <= 10, results
    assert results[-1] in (429, 0) and log(venue, "report") == []


# -- 9. denial of service ----------------------------------------------------------------

def test_9_half_sent_requests_from_four_addresses_leave_room(
        venue: Watch, monkeypatch: pytest.MonkeyPatch) -> None:
    assert call(venue, "GET", desk_path(venue))[0] == 200  # the desk tablet (127.0.0.1)
    held = []
    try:
        for n in range(2, 6):
            for _ in range(128):
                try:
                    sock = socket.create_connection(("127.0.0.1", venue.port), timeout=5,
                                                    source_address=(f"127.0.0.{n}", 0))
                    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never finished
                    held.append(sock)
                except OSError:
                    pass
        time.sleep(0.3)
        started = time.monotonic()
        assert call_from(venue, "127.0.0.9", "GET", "/ev/")[0] == 200  # a phone
        assert call(venue, "GET", desk_path(venue))[0] == 200  # the desk
        assert time.monotonic() - started < 10
    finally:
        for sock in held:
            sock.close()


def test_9_a_trickled_head_times_out_and_large_heads_are_refused(
        venue: Watch, monkeypatch: pytest.MonkeyPatch) -> None:
    import standgen.watch.server as server

    monkeypatch.setattr(server, "HEAD_SECONDS", 1.0)
    sock = socket.create_connection(("127.0.0.1", venue.port), timeout=10)
    started = time.monotonic()
    sock.sendall(b"GET / HTTP/1.1\r\n")
    closed = False
    for _ in range(20):  # a header line every 0.3 s: each within the socket timeout
        try:
            sock.sendall(b"X-Slow: 1\r\n")
            if sock.recv(1, socket.MSG_DONTWAIT) == b"":
                closed = True
                break
        except BlockingIOError:
            pass
        except OSError:
            closed = True
            break
        time.sleep(0.3)
    sock.close()
    assert closed and time.monotonic() - started < 4
    big = socket.create_connection(("127.0.0.1", venue.port), timeout=10)
    big.sendall(b"GET / HTTP/1.1\r\n" + b"".join(b"X-Big-%d: %s\r\n" % (i, b"a" * 8000)
                                                   for i in range(3)) + b"\r\n")
    answer = big.recv(100)
    big.close()
    assert answer.startswith(b"HTTP/1.0 431")


# -- 10. the slips -----------------------------------------------------------------------

def test_10_slips_have_their_own_address_public_url_and_no_margins(venue: Watch) -> None:
    assert venue.desk is not None
    assert enter(venue, table="2", result="1-0")[0] == 303
    status, _, desk = call(venue, "GET", desk_path(venue))
    assert slips_path(venue) in desk
    status, _, page = call(venue, "GET", slips_path(venue) + "?event=ev&round=2",
                           headers={"Host": f"localhost:{venue.port}"})
    assert status == 200 and venue.desk.token not in page
    assert "@page{margin:0}" in page
    assert f"http://127.0.0.1:{venue.port}/__report/" in page and "localhost" not in page
    code = code_of(venue, 1)
    assert f"{code[:4]}-{code[4:]}" in page
    assert code_of(venue, 2)[:4] not in page  # table 2 is finished: no slip
    assert page.count('class="slip"') == 1
    prefilled = call(venue, "GET", f"/__report/?code={code}")[2]
    assert f'value="{code}"' in prefilled
    assert call(venue, "POST", slips_path(venue), {"a": "b"})[0] in (403, 404)
    assert call(venue, "GET", "/__slips/" + "x" * 32 + "/")[0] == 404


# -- 11. an accented code; many query fields -----------------------------------------

def test_11_codes_outside_the_alphabet_are_wrong_guesses_not_500(venue: Watch) -> None:
    lines = venue.lines  # type: ignore[attr-defined]
    page = call(venue, "GET", "/__report/")[2]
    for typed in ("ÄBCDEFGH", "ＡＢＣＤＥＦＧＨ", "ABCDEFG\u0308", "٣٣٣٣٣٣٣٣"):
        status, _, _ = call(venue, "POST", "/__report/submit",
                            {"csrf": csrf(page), "code": typed, "seat": "1", "result": "1-0"})
        assert status == 403
    assert not any("Traceback" in line for line in lines)
    query = "&".join(f"f{i}=x" for i in range(30))
    assert call(venue, "GET", desk_path(venue) + "?" + query)[0] == 400
    assert call(venue, "GET", "/__report/?" + query)[0] == 400
    for _ in range(6):  # 4 + 6 = 10 failures, then blocked
        call(venue, "POST", "/__report/submit", {"csrf": csrf(page), "code": "ÉÉÉÉÉÉÉÉ",
                                                 "seat": "1", "result": "1-0"})
    assert call(venue, "GET", "/__report/")[0] == 429


# -- 12. round files as spreadsheets save them -------------------------------------------

SPREADSHEET = {
    "excel-utf8": b"\xef\xbb\xbf" + ROUND_2.replace("\n", "\r\n").encode(),
    "semicolons-cp1252": ROUND_2.replace(",", ";").encode("cp1252"),
    "tabs": ROUND_2.replace(",", "\t").encode(),
}


@pytest.mark.parametrize("form", list(SPREADSHEET))
def test_12_spreadsheet_round_files_work_at_the_desk_and_for_players(
        form: str, tree: Callable[..., Path]) -> None:
    data = SPREADSHEET[form]
    root = tree({"ev/round-2.csv": data})
    for watch in _serve(root, self_report=True):
        status, _, page = call(watch, "GET", desk_path(watch))
        assert status == 200 and "Table 2" in page
        assert enter(watch, table="1", result="1-0")[0] == 303
        code = code_of(watch, 2)
        assert report(watch, code, 1, result="draw")[0] == 200
        assert "Both reports agree" in report(watch, code, 2, result="draw")[2]
        after = path_of(watch).read_bytes()
        sep = b";" if b";" in data else b"\t" if b"\t" in data else b","
        end = b"\r\n" if b"\r\n" in data else b"\n"
        assert after == data.replace(sep.join([b"1", b"a", b"c", b"", b""]),
                                     sep.join([b"1", b"a", b"c", b"1-0", b""]), 1).replace(
            sep.join([b"2", b"b", b"d", b"", b""]), sep.join([b"2", b"b", b"d", b"draw", b""]),
            1)
        assert end in after and valid(watch)


def test_12_an_unreadable_first_event_keeps_the_desk_and_its_links(
        tree: Callable[..., Path]) -> None:
    root = tree({"a-first/event.toml": 'name = "A"\ndate = 2026-03-14\nformat = "swiss"\n',
                 "a-first/players.csv": "id,name\nx,X\ny,Y\n",
                 "a-first/round-1.csv": "table,player_1,player_2,result\n1,x,y,\"1-0\n",
                 "ev/round-2.csv": ROUND_2})
    for watch in _serve(root):
        status, _, page = call(watch, "GET", desk_path(watch))
        assert status == 200 and "cannot be read at the desk" in page
        assert "?event=ev" in page


# -- 13. localhost, '..', other digits, temporary copies ---------------------------------

def test_13_the_secret_stays_outside_an_events_path_with_dots(tmp_path: Path) -> None:
    events = tmp_path / "events"
    (events / "2026").mkdir(parents=True)
    folder = venue_folder(events / "2026" / "..")
    assert folder == tmp_path / ".events.standgen-venue"
    assert not folder.resolve().is_relative_to(events.resolve())


def test_13_digits_of_other_scripts_are_written_as_ascii(venue: Watch) -> None:
    assert enter(venue, table="1", result="1-0", cp_1="５", apd_1="٣٠")[0] == 303
    assert "1,a,c,1-0,5,,30,\n" in round_2(venue)


def test_13_no_copies_of_event_folders_are_left_in_the_temp_folder(
        venue: Watch, tmp_path: Path) -> None:
    import tempfile

    before = set(Path(tempfile.gettempdir()).glob("standgen-venue-*"))
    assert enter(venue, table="1", result="1-0")[0] == 303
    assert enter(venue, table="2", result="x")[0] == 400
    assert set(Path(tempfile.gettempdir()).glob("standgen-venue-*")) == before
    assert venue.desk is not None
    staging = venue.desk.folder / "staging"
    assert not staging.exists() or not any(staging.iterdir())
    (staging / "left-by-a-killed-desk").mkdir(parents=True)
    venue.desk.close()
    other = Watch(venue.events, port=0, log=lambda line: None, docs=tmp_path)
    Desk(other).close()  # a new desk clears what a killed one left
    assert not (staging / "left-by-a-killed-desk").exists()


# -- 14. the desk form as a TO uses it ----------------------------------------------------

def test_14_a_rejected_entry_keeps_typed_values_with_the_error_at_the_field(
        tree: Callable[..., Path]) -> None:
    players = "id,name,faction\na,Ann,Cygnar\nb,Bob,Khador\nc,Cat,Cryx\nd,Dan O'Neill,Legion\n"
    root = tree({"ev/players.csv": players, "ev/round-2.csv": ROUND_2})
    for watch in _serve(root):
        status, _, page = enter(watch, table="2", result="1-0", cp_1="3", cp_2="seven",
                                apd_1="41")
        assert status == 400
        card = page[page.index('id="table-2"'):]
        assert "Table 2: control points of Dan O&#39;Neill must be a whole number" in card
        assert 'name="cp_2" value="seven"' in card and 'name="apd_1" value="41"' in card
        assert 'name="cp_1" value="3"' in card and 'aria-invalid="true"' in card
        assert '<option value="1-0" selected>' in card
        assert "round-2.csv:3" not in page  # the TO's words, not the loader's
        status, _, page = enter(watch, table="1", cp_1="3", cp_2="1")  # no result
        assert status == 400 and "Table 1: choose the result" in page
        assert round_2(watch) == ROUND_2 and log(watch) == []


def test_14_open_filter_jump_links_and_done_tables(venue: Watch) -> None:
    assert enter(venue, table="1", result="1-0")[0] == 303
    page = call(venue, "GET", desk_path(venue) + "?event=ev&round=2")[2]
    assert "(1 of 2 open)" in page
    assert 'href="#table-1" class="done"' in page and 'href="#table-2" class="open"' in page
    assert 'class="table done" id="table-1"' in page and "✓ done: 1-0" in page
    page = call(venue, "GET", desk_path(venue) + "?event=ev&round=2&show=open")[2]
    assert 'id="table-1"' not in page and 'id="table-2"' in page
    assert "<strong>Open tables only</strong>" in page


# -- pending reports survive a restart ------------------------------------------------

def test_pending_reports_survive_a_restart(tree: Callable[..., Path]) -> None:
    root = tree({"ev/round-2.csv": ROUND_2})
    for watch in _serve(root, self_report=True):
        code = code_of(watch, 1)
        assert report(watch, code, 1, result="0-1")[0] == 200
        pending = venue_folder(root) / "pending.json"
        assert pending.stat().st_mode & 0o077 == 0 and code not in pending.read_text()
    for watch in _serve(root, self_report=True):
        status, _, page = report(watch, code, 2, result="0-1")
        assert status == 200 and "Both reports agree" in page
        assert "1,a,c,0-1," in round_2(watch)
