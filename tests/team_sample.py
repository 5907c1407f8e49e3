"""A generated chess team event of the FIDE TEC team sample's shape (50 teams of 4 boards,
14 rounds; issue #34), for checking standgen's team scores and tie-breaks against FIDE
TEC's TieBreakServer without committing the TEC sample itself.

``write_team_sample(folder)`` writes the event folder (format ``swiss``, ``[teams]
matches = true``): teams ordered each round by match points then game points and paired
top down without rematches (standgen's team Swiss search), board 1's white to the team
with fewer whites there and colours alternating down the boards, each game's result drawn
from the rating difference with a fixed seed; one board and one whole match forfeited
(the second team fielding nobody there). The ``.trf`` standgen exports of it
is tests/data/team-sample/team-sample.trf; TieBreakServer's values for that file are
tests/data/team-sample/tiebreakserver.tsv. Run ``python -m tests.team_sample OUT``
to write both inputs again (the README beside them says how the values were made).
"""

from __future__ import annotations

import csv
import io
import random
import sys
from pathlib import Path

from standgen.teams.pairing import swiss

TEAMS, BOARDS, ROUNDS, SEED = 50, 4, 14, 2026
# the TEC sample's forfeits, one of each: (round, match index, board) where the second
# team fields nobody (a board won by forfeit, TRF "0000 - +"), and (round, match index)
# of a match the second team forfeits whole (TRF-2026's 330)
FORFEITED_BOARD, FORFEITED_MATCH = (5, 2, 4), (9, 6)
HERE = Path(__file__).resolve().parent / "data" / "team-sample"


def _write(path: Path, header: list[str], rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    path.write_text(out.getvalue(), encoding="utf-8")


def write_team_sample(folder: Path) -> Path:
    """Write the generated event into ``folder`` (created) and return it."""
    draw = random.Random(SEED)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "event.toml").write_text(
        'name = "Generated Team Swiss"\ndate = 2026-03-01\nformat = "swiss"\n'
        f"rounds = {ROUNDS}\nseed = {SEED}\n\n[teams]\nsize = {BOARDS}\nmatches = true\n",
        encoding="utf-8")
    teams = [f"t{k:02d}" for k in range(1, TEAMS + 1)]
    strength = {t: 2600 - 12 * k + draw.randint(-40, 40) for k, t in enumerate(teams)}
    _write(folder / "teams.csv", ["id", "name", "country"],
           [[t, f"Team {t[1:]}", "FID"] for t in teams])
    rating = {f"{t}-{b}": strength[t] + 60 - 30 * b + draw.randint(-25, 25)
              for t in teams for b in range(1, BOARDS + 1)}
    _write(folder / "players.csv", ["id", "name", "rating", "team"],
           [[p, f"Player {p}", str(r), p.split("-")[0]] for p, r in rating.items()])
    mp = dict.fromkeys(teams, 0)
    gp = dict.fromkeys(teams, 0.0)
    met: set[frozenset[str]] = set()
    colours = dict.fromkeys(teams, 0)  # board-1 whites minus blacks
    for number in range(1, ROUNDS + 1):
        order = sorted(teams, key=lambda t: (-mp[t], -gp[t], -strength[t]))
        pairs, _, _, _ = swiss(order, order, met, set())  # standgen's team Swiss search
        _write(folder / f"teams-round-{number}.csv", ["match", "team_1", "team_2"],
               [[str(k), a, b] for k, (a, b) in enumerate(pairs, start=1)])
        rows = []
        for k, (a, b) in enumerate(pairs):
            met.add(frozenset((a, b)))
            # the team with fewer whites on board 1 has white there (WBWB down the boards)
            first = a if (colours[a], number % 2) <= (colours[b], 0) else b
            colours[first] += 1
            colours[b if first == a else a] -= 1
            points = [0.0, 0.0]
            for board in range(1, BOARDS + 1):
                home, away = f"{a}-{board}", f"{b}-{board}"
                white, black = (home, away) if (board % 2) == (first == a) else (away, home)
                expected = 1 / (1 + 10 ** ((rating[black] - rating[white]) / 400))
                roll = draw.random()
                share = 1.0 if roll < expected - 0.2 else 0.5 if roll < expected + 0.2 else 0.0
                result = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[share]
                mine = share if white == home else 1 - share
                if (number, k, board) == FORFEITED_BOARD or (number, k) == FORFEITED_MATCH:
                    white, black, result, mine = home, "BYE", "1-0", 1.0
                rows.append([str(k * BOARDS + board), white, black, result])
                points[0] += mine
                points[1] += 1 - mine
            gp[a] += points[0]
            gp[b] += points[1]
            mp[a] += 2 if points[0] > points[1] else 1 if points[0] == points[1] else 0
            mp[b] += 2 if points[1] > points[0] else 1 if points[0] == points[1] else 0
        _write(folder / f"round-{number}.csv", ["table", "player_1", "player_2", "result"],
               rows)
    return folder


def sample_trf(folder: Path) -> str:
    """Return the ``.trf`` standgen writes of the generated event in ``folder``."""
    from standgen.load import load_event
    from standgen.trf import export_event

    problems: list[object] = []
    event = load_event(folder, ("2026", "team-sample"), problems)  # type: ignore[arg-type]
    assert event is not None, [str(p) for p in problems]
    return export_event(event)


if __name__ == "__main__":
    out = Path(sys.argv[1])
    write_team_sample(out / "event")
    (out / "team-sample.trf").write_text(sample_trf(out / "event"), encoding="utf-8")
