"""A randomised event day, run through the real CLI in-process (issue #27 item 6).

One seeded day: an event of one of the five formats with realistic names
(:mod:`tests.realnames`), paired and played round by round while a TO does what TOs do,
at random moments and in random order: results typed as spreadsheets type them, drops
(before and after the pairings are read out, and mid-round), late entries (a new row,
with or without ``joined``), requested byes, ``pair --redo``, corrected results of an
earlier round, ``status``, and spreadsheet re-saves of any file (a byte-order mark,
``;`` separators, CRLF line ends, Windows-1252 where the names allow it). Now and then
the TO makes a mistake (``pair`` with the round still paired, the events root instead
of the event, a misspelt name); the command must then exit 2 with one
``path:line: message`` whose advice, followed, works.

After every action ``check`` must pass (the files stay valid); at the end of the day the
standings must equal a recomputation from the files made here, independently of
standgen's loader (scores for chess and Steamroller, wins and draws for every
two-player format, every registered player listed), and, on days that ask for it, the
site builds.

``python -m tests.eventday_sim --days 5000`` runs many days (docs/reliability.md);
``tests/test_event_day_simulation.py`` runs 200 in CI.
"""

from __future__ import annotations

import argparse
import csv
import io
import random
import re
import shlex
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from click.testing import CliRunner

from standgen.cli import main
from tests.realnames import Person
from tests.realnames import field as real_field

if TYPE_CHECKING:
    from standgen.standings import Standings

FORMATS = ("steamroller", "old-world", "mcmahon", "swiss", "diplomacy")
TEAMS = ("Drużyna Łódź", "Équipe de France", "Team Ødegård", "O'Neill's Irregulars")
RANKS = ("5d", "3d", "1d", "1k", "3k", "6k", "10k", "15k")
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


LOG_LINES = 12  # the commands a failure shows
BUILD_EVERY = 10  # one day in ten builds the site


class DayFailed(AssertionError):
    """A property of the day does not hold; the message says which and the log shows how."""


@dataclass
class Form:
    """How a spreadsheet saved a CSV file: encoding, separator, line end."""

    encoding: str = "utf-8"
    delimiter: str = ","
    newline: str = "\n"


def read_table(path: Path) -> tuple[list[str], list[list[str]], Form]:
    """Return a CSV file's header, rows and form, read as a spreadsheet would."""
    data = path.read_bytes()
    form = Form()
    if data.startswith(b"\xef\xbb\xbf"):
        form.encoding, data = "utf-8-sig", data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text, form.encoding = data.decode("cp1252"), "cp1252"
    if "\r\n" in text:
        form.newline = "\r\n"
    first = text.split("\n", 1)[0]
    form.delimiter = "," if "," in first else (";" if ";" in first else ",")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=form.delimiter))
    return [c.strip() for c in rows[0]], [r for r in rows[1:] if r], form


def write_table(path: Path, header: list[str], rows: list[list[str]], form: Form) -> None:
    """Write a CSV file back in ``form`` (the spreadsheet's own way of saving it)."""
    out = io.StringIO()
    csv.writer(out, delimiter=form.delimiter, lineterminator=form.newline).writerows(
        [header, *rows])
    path.write_bytes(out.getvalue().encode(form.encoding))


@dataclass
class Day:
    """One event day: the folder, the format, the random source and what happened."""

    seed: int
    root: Path
    rng: random.Random = field(init=False)
    fmt: str = field(init=False)
    folder: Path = field(init=False)
    log: list[str] = field(default_factory=list)
    people: list[Person] = field(default_factory=list)
    spare: list[Person] = field(default_factory=list)  # late entries still to come
    build: bool = False
    teams: random.Random | None = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        # teams on one day in four, from a source of their own (the other days, and the
        # seeds replayed by tests, play exactly as before)
        self.teams = random.Random(f"{self.seed}-teams") if self.seed % 4 == 1 else None
        self.fmt = self.rng.choice(FORMATS)
        self.folder = self.root / "2026" / "day-event"

    # -- the CLI -----------------------------------------------------------------------

    def cli(self, *args: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, list(args))
        out = result.output
        self.log.append(f"$ standgen {' '.join(shlex.quote(a) for a in args)} -> "
                        f"{result.exit_code}\n{out}")
        if result.exit_code not in (0, 2):
            raise DayFailed(f"exit {result.exit_code}: a bug\n{out}")
        if "Traceback" in out:
            raise DayFailed(f"a traceback\n{out}")
        return result.exit_code, out

    def ok(self, *args: str) -> str:
        code, out = self.cli(*args)
        if code != 0:
            raise DayFailed(f"standgen {' '.join(args)} failed\n{out}")
        return out

    def refused(self, *args: str) -> str:
        """Run a mistaken command: it must exit 2 with ``path:line: message`` lines."""
        code, out = self.cli(*args)
        if code != 2:
            raise DayFailed(f"standgen {' '.join(args)} should be refused\n{out}")
        problems = [line for line in out.splitlines()
                    if re.match(r"\S.*:\d+: ", line)]
        if not problems:
            raise DayFailed(f"no path:line: message\n{out}")
        return out

    def follow(self, out: str) -> str:
        """Run the standgen command a refusal advises (the advice, followed, works)."""
        found = re.search(r"(?:run:?|e\.g\.) standgen (.+?)(?: to |;| \(|$)", out, re.M)
        if not found:
            raise DayFailed(f"the refusal names no command to run\n{out}")
        code, said = self.cli(*shlex.split(found.group(1)))
        if code != 0 and "the event is over" not in said:  # over: a refusal of its own
            raise DayFailed(f"the advice, followed, failed\n{said}")
        return said

    # -- the event ---------------------------------------------------------------------

    def start(self) -> None:
        rng = self.rng
        self.ok("new", str(self.folder), "--format", self.fmt)
        toml = self.folder / "event.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace(
            "# rounds = ", f"rounds = {rng.choice((2, 3, 3, 4))} # ", 1), encoding="utf-8")
        size = rng.randint(8, 13) if self.fmt == "diplomacy" else rng.randint(4, 9)
        everyone = real_field(rng, size + 2)
        self.people, self.spare = everyone[:size], everyone[size:]
        header, _, form = read_table(self.folder / "players.csv")
        if self.teams:  # one day in four: a team column, team-mates kept apart (teams.md)
            header.append("team")
            apart = self.teams.choice(("round-1", "always", "no"))
            toml.write_text(toml.read_text(encoding="utf-8")
                            + f'\n[teams]\napart = "{apart}"\ncounted = 2\n', encoding="utf-8")
        write_table(self.folder / "players.csv", header,
                    [self.player_row(header, p, k) for k, p in enumerate(self.people)], form)

    def player_row(self, header: list[str], person: Person, k: int,
                   joined: str = "") -> list[str]:
        cells = {"id": person.id, "name": person.name, "faction": person.faction,
                 "club": person.club, "rating": str(2300 - 37 * k - self.rng.randint(0, 30)),
                 "rank": self.rng.choice(RANKS), "joined": joined,
                 "team": self.teams.choice(TEAMS) if self.teams else ""}
        return [cells.get(column, "") for column in header]

    def rounds(self) -> list[Path]:
        return sorted(self.folder.glob("round-*.csv"),
                      key=lambda p: int(p.stem.split("-")[1]))

    def last_round(self) -> tuple[Path | None, str]:
        """Return the last round file and its state: paired, started or complete."""
        files = self.rounds()
        if not files:
            return None, "none"
        header, rows, _ = read_table(files[-1])
        return files[-1], round_state(self.fmt, header, rows)

    # -- the actions -------------------------------------------------------------------

    def act(self) -> bool:
        """Do one random action; return False when the event is over."""
        path, state = self.last_round()
        choices: list[tuple[float, Callable[[], bool | None]]] = [
            (3.0 if state in ("paired", "started") else 0.0, self.enter_results),
            (3.0 if state in ("none", "complete") else 0.0, self.pair),
            (0.5, self.drop), (0.4, self.late_entry), (0.4, self.ask_bye),
            (0.6 if state == "paired" else 0.0, self.redo),
            (0.5 if len(self.rounds()) > 1 else 0.0, self.correct),
            (0.6, self.resave), (0.3, self.status), (0.3, self.mistake),
        ]
        weights = [w for w, _ in choices]
        action = self.rng.choices([a for _, a in choices], weights)[0]
        return action() is not False

    def pair(self) -> bool:
        code, out = self.cli("pair", str(self.folder))
        if code == 2 and "the event is over" in out:
            return False
        if code != 0:
            raise DayFailed(f"pair failed\n{out}")
        return True

    def redo(self) -> None:
        path, _ = self.last_round()
        assert path is not None
        code, out = self.cli("pair", str(self.folder), "--redo", path.stem.split("-")[1])
        if code == 2 and "the event is over" in out:  # a corrected result ended it: its own
            return                                     # refusal, with its own advice
        if code != 0:
            raise DayFailed(f"pair --redo failed\n{out}")

    def enter_results(self) -> bool | None:
        """Type results at some tables (all of them, half the time)."""
        path, state = self.last_round()
        assert path is not None
        if state == "paired":  # before the first result the TO heeds check's warnings
            said = self.ok("check", str(self.folder))
            if "the event is over" in said:
                return self.heed_over(said, path)
            redo = [line for line in said.splitlines() if "--redo" in line]
            if redo:
                self.follow(redo[0])
        header, rows, form = read_table(path)
        everything = self.rng.random() < 0.5
        if self.fmt == "diplomacy":
            enter_boards(self.rng, header, rows, everything)
        else:
            for row in rows:
                cells = dict(zip(header, row, strict=True))
                if cells["player_2"] in ("BYE", "ABSENT") or cells["result"] or (
                        "vp_1" in cells and cells["vp_1"]):
                    continue
                if everything or self.rng.random() < 0.5:
                    type_result(self.rng, self.fmt, header, row)
        write_table(path, header, rows, form)
        return None

    def heed_over(self, said: str, path: Path) -> bool:
        """The rounds before the paired one now end the event (a correction or a drop
        made a clear winner): do one of the two things the warning offers, as told.
        Return False when the TO ends the event."""
        if self.rng.random() < 0.5:
            if f"delete {path.name}" not in said:
                raise DayFailed(f"the warning does not say to delete {path.name}\n{said}")
            path.unlink()
            return False
        toml = self.folder / "event.toml"
        if "set clear_winner = false under [options]" in said:
            text = toml.read_text(encoding="utf-8")
            text = (text.replace("[options]\n", "[options]\nclear_winner = false\n", 1)
                    if "[options]\n" in text else text + "\n[options]\nclear_winner = false\n")
            toml.write_text(text, encoding="utf-8")
        elif "raise 'rounds'" in said:
            text = toml.read_text(encoding="utf-8")
            planned = int(re.search(r"^rounds = (\d+)", text, re.M).group(1))  # type: ignore[union-attr]
            toml.write_text(re.sub(r"^rounds = \d+", f"rounds = {planned + 1}", text,
                                   count=1, flags=re.M), encoding="utf-8")
        else:
            raise DayFailed(f"the warning names no way to play on\n{said}")
        line = next(line for line in said.splitlines() if "the event is over" in line)
        code, out = self.cli(*shlex.split(re.search(r"then run standgen (.+)$", line)
                                          .group(1)))  # type: ignore[union-attr]
        if code != 0:
            raise DayFailed(f"the advice, followed, failed\n{out}")
        return True

    def active(self) -> list[tuple[str, str]]:
        header, rows, _ = read_table(self.folder / "players.csv")
        at = {c: header.index(c) for c in ("id", "name", "dropped_after")}
        return [(r[at["id"]], r[at["name"]]) for r in rows if not r[at["dropped_after"]]]

    def drop(self) -> bool | None:
        players = self.active()
        if len(players) <= (8 if self.fmt == "diplomacy" else 3):
            return None
        pid, name = self.rng.choice(players)
        header, rows, _ = read_table(self.folder / "players.csv")
        names = [row[header.index("name")] for row in rows]  # dropped players too
        shared = names.count(name) > 1
        named = pid if shared or self.rng.random() < 0.5 else name
        out = self.ok("drop", str(self.folder), named)
        match = re.search(r"enter (\+-|-\+) there", out)
        if match:  # a game of theirs in a started round: the forfeit, as told
            path, _ = self.last_round()
            assert path is not None
            header, rows, form = read_table(path)
            for row in rows:
                cells = dict(zip(header, row, strict=True))
                if pid in (cells["player_1"], cells["player_2"]) and not cells["result"]:
                    row[header.index("result")] = match.group(1)
                    for column in ("vp_1", "vp_2"):
                        if column in header:
                            row[header.index(column)] = ""
            write_table(path, header, rows, form)
        if "the event is over" in out:
            path, _ = self.last_round()
            assert path is not None
            return self.heed_over(out, path)
        if "--redo" in out and self.rng.random() < 0.7:
            self.follow(out)
        return None

    def late_entry(self) -> None:
        if not self.spare:
            return
        person = self.spare.pop()
        header, rows, form = read_table(self.folder / "players.csv")
        path, state = self.last_round()
        number = int(path.stem.split("-")[1]) if path else 0
        joined = ""
        if self.rng.random() < 0.5:
            joined = str(number if state == "paired" else number + 1) if number else ""
        rows.append(self.player_row(header, person, len(rows), joined))
        write_table(self.folder / "players.csv", header, rows, form)
        if state == "paired" and self.rng.random() < 0.7:
            self.redo()

    def ask_bye(self) -> bool | None:
        path, state = self.last_round()
        number = int(path.stem.split("-")[1]) if path else 0
        target = number if state == "paired" else number + 1
        pid, _ = self.rng.choice(self.active())
        out = self.ok("bye", str(self.folder), pid, "--round", str(target))
        if "the event is over" in out and path is not None:
            return self.heed_over(out, path)
        if "--redo" in out and self.rng.random() < 0.7:
            self.follow(out)
        return None

    def correct(self) -> None:
        """Correct a result of an earlier round: swap a decided game's winner."""
        earlier = self.rounds()[:-1]
        path = self.rng.choice(earlier)
        header, rows, form = read_table(path)
        if self.fmt == "diplomacy":
            return
        swap = {"1-0": "0-1", "0-1": "1-0", "+-": "-+", "-+": "+-"}
        for row in self.rng.sample(rows, len(rows)):
            cells = dict(zip(header, row, strict=True))
            if cells["result"] in swap and cells["player_2"] not in ("BYE", "ABSENT"):
                row[header.index("result")] = swap[cells["result"]]
                if "vp_1" in header:
                    a, b = header.index("vp_1"), header.index("vp_2")
                    row[a], row[b] = row[b], row[a]
                break
        write_table(path, header, rows, form)
        out = self.ok("check", str(self.folder))
        stale = [line for line in out.splitlines() if "as paired is not the pairing" in line]
        if stale and self.rng.random() < 0.7:
            self.follow(stale[0])

    def resave(self) -> None:
        """Save a file again from a spreadsheet, in another form."""
        files = [self.folder / "players.csv", *self.rounds()]
        path = self.rng.choice(files)
        header, rows, form = read_table(path)
        text = "\n".join(",".join(r) for r in [header, *rows])
        choice = self.rng.choice(("utf-8-sig", "cp1252", "semicolon", "crlf", "utf-8"))
        if choice == "cp1252":
            try:
                text.encode("cp1252")
            except UnicodeEncodeError:
                choice = "utf-8-sig"  # Excel's CSV UTF-8, as a TO told to would
        if choice in ("utf-8-sig", "cp1252", "utf-8"):
            form.encoding = choice
        elif choice == "semicolon":
            form.delimiter = ";"
        else:
            form.newline = "\r\n"
        write_table(path, header, rows, form)

    def status(self) -> None:
        self.ok("status", str(self.root))

    def mistake(self) -> None:
        """A TO's slip: the refusal's advice, followed, must work."""
        path, state = self.last_round()
        kind = self.rng.choice(("root", "paired", "name"))
        if kind == "root":
            out = self.refused("pair", str(self.root))
            if state in ("none", "complete") and "standgen pair" in out:
                self.follow(out)
        elif kind == "paired" and state == "paired":
            self.follow(self.refused("pair", str(self.folder)))
        elif kind == "name":
            pid, _ = self.rng.choice(self.active())
            out = self.refused("bye", str(self.folder), pid + "x", "--round", "99")
            if f"did you mean '{pid}'" not in out:
                raise DayFailed(f"no near miss suggested\n{out}")

    # -- the properties ----------------------------------------------------------------

    def valid(self) -> None:
        self.ok("check", str(self.root))

    def finish(self) -> None:
        """Check the standings against the files and, on some days, build the site."""
        from standgen.build import check
        from standgen.standings import compute_standings

        tree = check(self.root)
        (event,) = tree.events
        standings = compute_standings(event)
        header, rows, _ = read_table(self.folder / "players.csv")
        ids = {row[header.index("id")] for row in rows}
        if {row.player.id for row in standings.rows} != ids:
            raise DayFailed("the standings do not list every player of players.csv")
        if self.fmt not in ("diplomacy", "old-world"):  # their points: bands and boards
            mine = recount(self.fmt, self.rounds())
            for row in standings.rows:
                counted = mine.get(row.player.id, Tally())
                theirs = (row.wins, row.draws)
                if self.fmt == "mcmahon":  # an absence before joining is its own outcome
                    theirs, counted.draws = (row.wins, 0), 0
                if (counted.wins, counted.draws) != theirs:
                    raise DayFailed(f"{row.player.id}: files give {counted}, standings "
                                    f"{theirs}")
                if self.fmt in ("swiss", "steamroller") and counted.score != row.score:
                    raise DayFailed(f"{row.player.id}: files give score {counted.score}, "
                                    f"standings {row.score}")
        if self.teams:
            check_teams(standings)
        if self.build:
            self.ok("build", str(self.root), "-o", str(self.root.parent / "site"))


def check_teams(standings: Standings) -> None:
    """A team day's team standings, recounted from the players' rows: every player with
    a team in exactly one team, each team's score its best two players' scores."""
    from standgen.teams import team_standings

    teams = team_standings(standings)
    members = [row.player.id for team in teams for row in team.members]
    teamed = [row.player.id for row in standings.rows if row.player.team]
    if sorted(members) != sorted(teamed):
        raise DayFailed(f"team members {sorted(members)} are not the players with a team "
                        f"{sorted(teamed)}")
    for team in teams:
        best = sorted((row.score for row in team.members), reverse=True)[:2]
        if abs(sum(best) - team.score) > 1e-9:
            raise DayFailed(f"team {team.team.id}: score {team.score}, best two {best}")


def round_state(fmt: str, header: list[str], rows: list[list[str]]) -> str:
    """Return a round file's state as a TO sees it: paired, started or complete."""
    entered = done = 0
    games = 0
    if fmt == "diplomacy":
        boards: dict[str, bool] = {}
        for row in rows:
            cells = dict(zip(header, row, strict=True))
            if cells["board"]:
                boards[cells["board"]] = bool(cells["result"])
        games, entered = len(boards), sum(boards.values())
        done = entered
    else:
        for row in rows:
            cells = dict(zip(header, row, strict=True))
            if cells["player_2"] in ("BYE", "ABSENT"):
                continue
            games += 1
            has = bool(cells["result"]) or bool(cells.get("vp_1"))
            entered += has
            done += has
    if not entered:
        return "paired"
    return "complete" if done == games else "started"


def type_result(rng: random.Random, fmt: str, header: list[str], row: list[str]) -> None:
    """Type one table's result as a TO types it (spreadsheet spellings included)."""
    def put(column: str, value: str) -> None:
        if column in header:
            row[header.index(column)] = value

    if fmt == "old-world":
        vps = (rng.randint(0, 3000), rng.randint(0, 3000))
        put("vp_1", str(vps[0]))
        put("vp_2", str(vps[1]))
        return
    draw_ok = fmt == "swiss"
    result = rng.choices(("1-0", "0-1", "draw", "+-", "-+"),
                         (10, 10, 4 if draw_ok else 0, 1, 1))[0]
    spelt = {"1-0": ("1-0", "1:0", "1 – 0"), "0-1": ("0-1", "0:1"),
             "draw": ("draw", "½-½", "Draw")}.get(result, (result,))
    put("result", rng.choice(spelt))
    if fmt == "steamroller" and result in ("1-0", "0-1"):
        for column in ("cp_1", "cp_2"):
            put(column, str(rng.randint(0, 5)))
        for column in ("apd_1", "apd_2"):
            put(column, str(rng.randint(0, 75)))


def enter_boards(rng: random.Random, header: list[str], rows: list[list[str]],
                 everything: bool) -> None:
    """Finish some Diplomacy boards: centres for every power, a draw of the two largest."""
    boards: dict[str, list[list[str]]] = {}
    for row in rows:
        cells = dict(zip(header, row, strict=True))
        if cells["board"] and not cells["result"]:
            boards.setdefault(cells["board"], []).append(row)
    for seats in boards.values():
        if not everything and rng.random() < 0.5:
            continue
        centres = [rng.randint(1, 4) for _ in seats]
        top = sorted(range(len(seats)), key=lambda k: -centres[k])[:2]
        for k, row in enumerate(seats):
            row[header.index("centres")] = str(centres[k])
            row[header.index("result")] = "draw" if k in top else "loss"


@dataclass
class Tally:
    """A player's wins, draws, losses and chess / Steamroller score, from the files (an
    absence a late entry had before their first round has no row: it adds nothing)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0


def recount(fmt: str, files: list[Path]) -> dict[str, Tally]:
    """Return each player's tally from the round files (the data contract's result
    codes, read here without standgen's loader)."""
    tallies: dict[str, Tally] = {}
    outcome = {"1-0": ("w", "l"), "0-1": ("l", "w"), "draw": ("d", "d"), "+-": ("w", "l"),
               "-+": ("l", "w"), "--": ("l", "l")}
    for path in files:
        header, rows, _ = read_table(path)
        for row in rows:
            cells = dict(zip(header, row, strict=True))
            result = spelling(cells["result"])
            one, two = cells["player_1"], cells["player_2"]
            if two == "BYE":
                marks = [(one, {"draw": "d", "0-1": "l"}.get(result, "w"))]
            elif two == "ABSENT":
                marks = [(one, {"draw": "d", "1-0": "w"}.get(result, "l"))]
            elif result in outcome:
                marks = list(zip((one, two), outcome[result], strict=True))
            elif fmt == "old-world" and cells.get("vp_1"):
                continue  # the band decides: counted by standgen only
            else:
                continue
            for pid, mark in marks:
                tally = tallies.setdefault(pid, Tally())
                if mark == "w":
                    tally.wins += 1
                    tally.score += 1.0
                elif mark == "d":
                    tally.draws += 1
                    tally.score += 0.5 if fmt == "swiss" else 0.0
                else:
                    tally.losses += 1
    return tallies


def spelling(typed: str) -> str:
    text = "".join(typed.split()).replace(":", "-").replace("–", "-").replace("½", "0.5")
    if text.lower() == "draw" or text == "0.5-0.5":
        return "draw"
    return text


def run_day(seed: int, base: Path, build_every: int = BUILD_EVERY) -> Day:
    """Run one event day; raise DayFailed (with the day's log) when a property fails.
    Every ``build_every``-th seed also builds the site at the end of the day."""
    root = base / f"day-{seed}" / "events"
    root.mkdir(parents=True)
    day = Day(seed, root)
    day.build = seed % build_every == 0
    try:
        day.start()
        for _ in range(60):
            if not day.act():
                break
            day.valid()
        day.finish()
    except DayFailed as exc:
        raise DayFailed(f"seed {seed} ({day.fmt}): {exc}\n--- the day so far:\n"
                        + "\n".join(day.log[-LOG_LINES:])) from None
    return day


def main_run(argv: list[str] | None = None) -> int:
    """Run many days and print how many failed (``--days``, ``--first``)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--days", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--build-every", type=int, default=BUILD_EVERY)
    parser.add_argument("--base", default=None, help="folder for the days' files "
                        "(default: a temporary folder; /dev/shm spares the disk)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    failed = 0
    with tempfile.TemporaryDirectory(dir=args.base) as base:
        for seed in range(args.first, args.first + args.days):
            try:
                day = run_day(seed, Path(base), args.build_every)
                shutil.rmtree(day.root.parent, ignore_errors=True)
            except Exception as exc:  # noqa: BLE001  every failure is counted and shown
                failed += 1
                print(f"FAILED {exc if isinstance(exc, DayFailed) else traceback.format_exc()}",
                      flush=True)
            if (seed - args.first + 1) % 100 == 0:
                print(f"{seed - args.first + 1} days, {failed} failed, "
                      f"{time.monotonic() - started:.0f} s", flush=True)
    print(f"{args.days} days (seeds {args.first}-{args.first + args.days - 1}): {failed} "
          f"failed in {time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main_run())
