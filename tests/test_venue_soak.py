"""Issue #28: the desk fuzzed with 10,000 generated requests, and soaked with 1,000+
operations of 40 phones, a desk tablet, a TO editing the file, a re-pair and a restart.

Requests are handed to the server's own request handler in this process (a connection
object that reads the request's bytes and keeps the answer's), so that ten thousand of
them take seconds: the handler parses the request line, headers and body exactly as it
does from a socket. Nothing listens on the network beyond the watcher's 127.0.0.1 port.
"""

from __future__ import annotations

import io
import json
import random
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest

from standgen.build import pair
from standgen.errors import Problem
from standgen.load import load_event
from standgen.venue import Desk
from standgen.venue.guard import Refusal
from standgen.watch import Watch
from standgen.watch.server import Handler
from tests.conftest import ROUND_HEADER
from tests.realnames import field
from tests.test_venue import ROUND_2, _serve


class _Connection:
    """A socket stand-in: ``makefile`` reads the request, ``sendall`` keeps the answer."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.sent = bytearray()

    def makefile(self, mode: str, *args: Any) -> Any:
        return io.BytesIO(self.data) if "r" in mode else io.BytesIO()

    def sendall(self, data: bytes) -> None:
        self.sent += data

    def settimeout(self, value: float | None) -> None:
        pass

    def setsockopt(self, *args: Any) -> None:
        pass


def handle(watch: Watch, data: bytes, address: str) -> tuple[int, str, str]:
    """Return (status, headers, body) of one raw request through the server's handler."""
    server = watch._server
    assert server is not None
    connection = _Connection(data)
    Handler(connection, (address, 40000), server, directory=str(watch.output))
    answer = bytes(connection.sent)
    head, _, body = answer.partition(b"\r\n\r\n")
    found = re.match(rb"HTTP/1\.[01] (\d{3})", head)
    return (int(found.group(1)) if found else 0), head.decode("latin-1"), body.decode(
        "utf-8", "replace")


def request(method: str, path: str, headers: dict[str, str] | None = None,
            body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in (headers or {}).items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "surrogateescape") + body


def form_request(path: str, form: dict[str, str], host: str) -> bytes:
    body = urlencode(form).encode()
    return request("POST", path, {"Host": host, "Content-Length": str(len(body)),
                                  "Content-Type": "application/x-www-form-urlencoded"}, body)


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    return found.group(1) if found else ""


def valid(watch: Watch, event: str = "ev") -> bool:
    problems: list[Problem] = []
    loaded = load_event(watch.events / event, (event,), problems, watch.events)
    return loaded is not None and not [p for p in problems if not p.warning]


# -- the fuzz test ---------------------------------------------------------------------

def _fuzz_requests(rng: random.Random, desk: Desk, host: str, codes: list[str],
                   tokens: dict[str, str]) -> bytes:
    """Return one generated request: a method, a path, headers and a body, good in parts
    and bad in others, so that the checks are reached at every depth."""
    token = desk.token if rng.random() < 0.6 else rng.choice(
        [desk.token[:-1], desk.token.upper(), "..", "%2e%2e%2f", "é" * 32, ""])
    paths = [f"/__desk/{token}/", f"/__desk/{token}/enter", f"/__desk/{token}",
             "/__report/", "/__report/submit", "/__report", f"/__slips/{desk.slips_token}/",
             f"/__slips/{token}/", "/__desk/", "/__report/../__desk/", "/__report/%00",
             f"/__desk/{token}/?" + "&".join(f"f{i}=x" for i in range(rng.randint(0, 40))),
             f"/__desk/{token}/?event=ev&round={rng.choice(['1', '2', '-1', '９', 'x' * 30])}"
             f"&show={rng.choice(['open', 'all', '<b>'])}&saved={rng.randint(-5, 99)}",
             f"/__report/?code={quote(rng.choice(codes + ['ÄBCDEFGH', '%', '']))}",
             "/__desk/" + "a" * rng.randint(0, 3000)]
    method = rng.choice(["GET", "POST", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS",
                         "GE T", "post"])
    path = rng.choice(paths)
    headers: dict[str, str] = {}
    if rng.random() < 0.9:
        headers["Host"] = rng.choice([host, host, "localhost:1", "evil.example", "",
                                      "[::1]:80", "127.0.0.1:" + "9" * 30, "ä"])
    if rng.random() < 0.2:
        headers["Origin"] = rng.choice([f"http://{host}", "http://evil.example", "null"])
    if rng.random() < 0.1:
        headers["Sec-Fetch-Site"] = rng.choice(["cross-site", "same-origin"])
    fields: dict[str, str] = {}
    if rng.random() < 0.8:
        fields["csrf"] = rng.choice([tokens["desk"], tokens["report"], "a.1.b", "", "é.٣.x"])
    fields.update({"event": rng.choice(["ev", "nope", "../ev", "ev/../ev"]),
                   "round": rng.choice(["2", "1", "0", "٢", "99999999999"]),
                   "table": rng.choice(["1", "2", "3", "-1", "١", ""]),
                   "expect": rng.choice(["", "0" * 16, "x"]),
                   "code": rng.choice(codes + ["ÄBCDEFGH", "ＡＢＣＤＥＦＧＨ", "", "x" * 100]),
                   "seat": rng.choice(["1", "2", "3", ""]),
                   "result": rng.choice(["1-0", "0-1", "draw", "+-", "", "2-0", "<b>x</b>",
                                         "1\n0", "½-½", "１-０"]),
                   "cp_1": rng.choice(["", "3", "seven", "-1", "５", "1e9", "\u2028"]),
                   "apd_2": rng.choice(["", "20", "x" * 50])})
    fields = {k: v for k, v in fields.items() if rng.random() < 0.85}
    encoding = rng.choice(["utf-8", "utf-8", "utf-8", "latin-1", "utf-16"])
    body = urlencode(fields, encoding=encoding, errors="replace").encode("ascii")
    if rng.random() < 0.05:
        body = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 300)))
    if rng.random() < 0.02:
        body = b"a=" + b"x" * rng.choice([17000, 70000])
    length = rng.choice([str(len(body))] * 8 + ["", "-1", "99999999", "abc", "1" * 30,
                                                "٣"])
    if length:
        headers["Content-Length"] = length
    headers["Content-Type"] = rng.choice(["application/x-www-form-urlencoded"] * 6 + [
        "text/plain", "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded; charset=latin-1", ""])
    if rng.random() < 0.03:
        headers["Transfer-Encoding"] = "chunked"
    if rng.random() < 0.02:
        headers["X-Big"] = "h" * rng.choice([1000, 20000])
    return request(method, path, headers, body[:max(0, int(length))] if length.isdigit()
                   and int(length) < 100000 else body)


def test_fuzz_10000_requests_never_500_and_the_round_file_stays_valid(
        tree: Callable[..., Path]) -> None:
    root = tree({"ev/round-2.csv": ROUND_2})
    for watch in _serve(root, self_report=True):
        desk = watch.desk
        assert isinstance(desk, Desk)
        host = f"127.0.0.1:{watch.port}"
        path = root / "ev" / "round-2.csv"
        rng = random.Random(2028)
        codes = [c for c in (desk.current_code("ev", 2, t) for t in (1, 2)) if c]
        statuses: dict[int, int] = {}
        last = path.read_bytes()
        tokens = {"desk": "", "report": ""}
        for i in range(10_000):
            if i % 500 == 0:  # fresh, valid form tokens now and then, as pages give them
                tokens = {"desk": desk.csrf("desk"), "report": desk.csrf("report")}
            data = _fuzz_requests(rng, desk, host, codes, tokens)
            status, _, body = handle(watch, data, f"127.{i % 7}.{(i // 7) % 250}.{i % 250 + 1}")
            statuses[status] = statuses.get(status, 0) + 1
            assert status != 500 and "Traceback" not in body, data[:300]
            now = path.read_bytes()
            if now != last:
                assert valid(watch), (data[:300], now)
                last = now
        lines = watch.lines  # type: ignore[attr-defined]
        assert not any("Traceback" in line or "internal error" in line for line in lines)
        assert sum(statuses.values()) == 10_000
        assert statuses.get(303, 0) > 0 and statuses.get(200, 0) > 0  # deep paths reached
        assert 0 not in statuses  # every request got an answer
        assert valid(watch)


# -- the soak test ---------------------------------------------------------------------

class Phone:
    """One player's phone: reports their table; keeps its form token until refused."""

    def __init__(self, watch: Watch, address: str) -> None:
        self.watch = watch
        self.address = address
        self.token = ""

    def send(self, data: bytes) -> tuple[int, str, str]:
        return handle(self.watch, data, self.address)

    def report(self, host: str, code: str, seat: int, values: dict[str, str]
               ) -> tuple[int, str, str]:
        if not self.token:
            self.token = csrf_of(self.send(request("GET", "/__report/", {"Host": host}))[2])
        answer = self.send(form_request("/__report/submit", {"csrf": self.token, "code": code,
                                                             "seat": str(seat), **values},
                                        host))
        if answer[0] == 403 and "expired" in answer[2]:
            self.token = ""  # the desk restarted: reload the page, as a player would
        return answer


REASONS = ("already entered", "No page here", "no longer in the round",
           "No table of the current round", "reports disagree", "is open in an editor",
           "changed since", "TO entered this table", "expired", "round-1.csv:",
           "Too many", "the TO decides", "choose the result", "tables or players")


def said_why(body: str) -> bool:
    return any(reason in body for reason in REASONS)


@pytest.fixture
def soaked(tree: Callable[..., Path]) -> Iterator[Watch]:
    """Two events: "ev" (40 players, 20 tables) and "ev2" (8 players, to be re-paired)."""
    people = field(random.Random(40), 48)
    players = "id,name,faction\n" + "".join(f'{p.id},"{p.name}",{p.faction}\n'
                                           for p in people[:40])
    ids = [p.id for p in people]
    rows = "".join(f"{t},{ids[2 * t - 2]},{ids[2 * t - 1]},,,,,\n" for t in range(1, 21))
    other = "".join(f"{t},{ids[40 + 2 * t - 2]},{ids[40 + 2 * t - 1]},,,,,\n"
                    for t in range(1, 5))
    players_2 = "id,name,faction\n" + "".join(f'{p.id},"{p.name}",{p.faction}\n'
                                             for p in people[40:])
    root = tree({"ev/players.csv": players, "ev/round-1.csv": ROUND_HEADER + rows,
                 "ev2/event.toml": 'name = "Two"\ndate = 2026-03-14\nformat = "steamroller"\n'
                 "seed = 3\n", "ev2/players.csv": players_2,
                 "ev2/round-1.csv": ROUND_HEADER + other})
    yield from _serve(root, self_report=True, fail_limit=1000, post_limit=100000)


def test_soak_40_phones_a_desk_hand_edits_a_re_pair_and_a_restart(soaked: Watch) -> None:
    watch = soaked
    root = watch.events
    rng = random.Random(4028)
    truth = {t: rng.choice(["1-0", "0-1", "draw"]) for t in range(1, 21)}
    host = f"127.0.0.1:{watch.port}"
    path = root / "ev" / "round-1.csv"
    saved: list[tuple[str, int, dict[str, str]]] = []  # (who, table, values) answered saved
    refusals: list[tuple[int, str]] = []
    answers: list[int] = []
    lock = threading.Lock()
    desk_ref: list[Desk] = [watch.desk]  # type: ignore[list-item]

    def code(event: str, table: int, number: int = 1) -> str:
        """The code on a table's slip: printed before the round, so read again when the
        TO's editor is saving the round file in place (empty for that moment)."""
        for _ in range(200):
            try:
                found = desk_ref[0].current_code(event, number, table)
            except Refusal:
                threading.Event().wait(0.01)
                continue
            assert found is not None
            return found
        raise AssertionError(f"{event} round {number} unreadable for 2 s")

    def note(answer: tuple[int, str, str]) -> None:
        with lock:
            answers.append(answer[0])
            if answer[0] >= 400:
                refusals.append((answer[0], answer[2]))

    def phone_life(n: int) -> None:
        phone = Phone(watch, f"127.0.{n // 200}.{n % 200 + 2}")
        table, seat = n // 2 + 1, n % 2 + 1
        if table > 18:  # the TO's own tables, edited by hand
            table = 1 + n % 18
        for step in range(22):
            result = truth[table] if rng.random() > 0.08 else "draw"
            values = {"result": result, "cp_1": str(step % 5)} if step % 3 else {
                "result": result}
            answer = phone.report(host, code("ev", table), seat, values)
            note(answer)
            if answer[0] == 200 and "Both reports agree" in answer[2]:
                with lock:
                    saved.append(("phones", table, values))

    def desk_life() -> None:
        for step in range(200):
            desk = desk_ref[0]
            base = f"/__desk/{desk.token}/"
            page = handle(watch, request("GET", base + "?event=ev&round=1",
                                         {"Host": host}), "127.0.0.1")
            note(page)
            table = rng.randint(1, 18)
            found = re.search(rf'id="table-{table}">(.*?)</form>', page[2], re.S)
            if found is None:
                continue
            hidden = dict(re.findall(r'name="(expect|pairing)" value="([^"]+)"',
                                     found.group(1)))
            values = {"result": truth[table], "apd_1": str(step)}
            answer = handle(watch, form_request(base + "enter", {
                "csrf": csrf_of(page[2]), "event": "ev", "round": "1",
                "table": str(table), **hidden, **values}, host), "127.0.0.1")
            note(answer)
            if answer[0] == 303 and "saved=" in answer[1]:
                with lock:
                    saved.append(("desk", table, values))

    def hand_edits() -> None:
        for step in range(30):
            lockfile = path.with_name(f".~lock.{path.name}#")
            lockfile.write_text("TO,laptop;")
            threading.Event().wait(0.2)  # the TO types; a desk write in flight lands
            text = path.read_text()
            table = 19 + step % 2
            text = re.sub(rf"(?m)^{table},([^,]*),([^,]*),[^,]*,[^,]*,",
                          rf"{table},\1,\2,1-0,{step},", text)
            path.write_text(text)  # the editor's save: in place
            lockfile.unlink()
            with lock:
                answers.append(0)
            threading.Event().wait(0.02)

    def re_pair_and_restart() -> None:
        phone = Phone(watch, "127.3.0.2")
        old = code("ev2", 1)
        note(phone.report(host, old, 1, {"result": "1-0"}))  # pending, then re-paired
        pair(root / "ev2", root, redo=1)
        answer = phone.report(host, old, 2, {"result": "1-0"})
        note(answer)
        assert answer[0] == 403  # the old slip's code is dead
        desk_ref[0].close()  # the desk restarts
        desk_ref[0] = watch.desk = Desk(watch, self_report=True, fail_limit=1000,
                                        post_limit=100000)
        for table in (1, 2):
            for seat in (1, 2):
                note(phone.report(host, code("ev2", table), seat, {"result": "0-1"}))

    threads = [threading.Thread(target=phone_life, args=(n,)) for n in range(40)]
    threads += [threading.Thread(target=desk_life), threading.Thread(target=hand_edits)]
    for thread in threads:
        thread.start()
    re_pair_and_restart()
    for thread in threads:
        thread.join()
    desk = desk_ref[0]
    assert len(answers) >= 1000
    errors = [line for line in watch.lines if "Traceback" in line]  # type: ignore[attr-defined]
    assert 500 not in answers and not errors, errors[:2]
    unexplained = [(status, re.sub(r"<[^>]+>|\s+", " ", body.split("</style>")[-1])[:300])
                   for status, body in refusals if not said_why(body)]
    assert not unexplained, unexplained[:3]
    # every result answered "saved" is in the log, and each table's changes form one
    # chain (old = the previous new): no saved result was overwritten unseen
    entries = [json.loads(line) for line in desk.log_path.read_text().splitlines()]
    changes = [e for e in entries if e.get("kind") == "change" and e.get("event") == "ev"]
    for who, table, values in saved:
        assert any(e["table"] == table and all(e["new"].get(k) == v
                                               for k, v in values.items())
                   for e in changes), (who, table, values)
    final = {int(line.split(",")[0]): line for line in path.read_text().splitlines()[1:]}
    for table in range(1, 19):
        mine = [e for e in changes if e["table"] == table]
        for before, after in zip(mine, mine[1:], strict=False):
            assert after["old"] == before["new"], table
        if mine:
            assert final[table] == ",".join(mine[-1]["new"].values()), table
    assert valid(watch) and valid(watch, "ev2")
