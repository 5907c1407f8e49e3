"""A generated chess team event of the FIDE TEC team sample's shape (50 teams of 4 boards
and a reserve, 14 rounds; issue #34), for checking standgen's team scores and tie-breaks
against FIDE TEC's TieBreakServer without committing the TEC sample itself.

``write_team_sample(folder)`` writes the event folder (format ``swiss``, ``[teams]
matches = true``): teams ordered each round by match points then game points and paired
top down without rematches (standgen's team Swiss search), board 1's white to the team
with fewer whites there and colours alternating down the boards, each game's result drawn
from the rating difference with a fixed seed. It has what the TEC sample has: a reserve
in each team (one of its five players sits out each round), byes teams asked for (a full
point and half a point, TRF-2026's 240), the pairing's team bye when the teams to pair
are odd (its players' BYE rows at ``bye_points = 0.5``: a drawn match, as the sample's
320), one board and one whole match forfeited (the second team fielding nobody there),
a double forfeit (330 ``--``), a team absent from a round and a team that withdraws (no
match and no bye: rounds without an opponent, which C.07 art. 16.3 counts as draws for
the teams it met). The ``.trf`` standgen exports of it is
tests/data/team-sample/team-sample.trf; TieBreakServer's values for that file are
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

TEAMS, BOARDS, PLAYERS, ROUNDS, SEED = 50, 4, 5, 14, 2026
# the TEC sample's forfeits, one of each: (round, match index, board) where the second
# team fields nobody (a board won by forfeit, TRF "0000 - +"), (round, match index) of a
# match the second team forfeits whole (TRF-2026's 330) and of one both forfeit (330 --)
FORFEITED_BOARD, FORFEITED_MATCH, DOUBLE_FORFEIT = (5, 2, 4), (9, 6), (11, 8)
# the byes teams asked for (TRF-2026's 240 F and H): round -> (team number, result)
REQUESTED = {2: [(7, "1-0")], 3: [(12, "draw"), (40, "draw")],
             6: [(3, "1-0"), (26, "draw")], 9: [(45, "1-0")], 12: [(20, "draw")]}
# a team absent from a round (no match, no bye: zero points), and one that withdraws
ABSENT, WITHDRAWN = (5, 31), (48, 11)  # (round, team), (team, its last round)
BYE_GAME_POINTS = {"1-0": 1.0, "draw": 0.5}
HERE = Path(__file__).resolve().parent / "data" / "team-sample"


def _write(path: Path, header: list[str], rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    path.write_text(out.getvalue(), encoding="utf-8")


def _team(k: int) -> str:
    return f"t{k:02d}"


def _playing(number: int) -> list[str]:
    """Return the teams paired in round ``number``: not those with a requested bye, the
    absent team or the withdrawn team."""
    out = {_team(k) for k in range(1, TEAMS + 1)}
    out -= {_team(k) for k, _ in REQUESTED.get(number, ())}
    if number == ABSENT[0]:
        out.discard(_team(ABSENT[1]))
    if number > WITHDRAWN[1]:
        out.discard(_team(WITHDRAWN[0]))
    return sorted(out)


def _lineup(team: str, number: int) -> list[str]:
    """Return the team's players on boards 1-4 in round ``number``: one of its five sits
    out, the reserve (its fifth) in most rounds, board 1 or board 3's player in some."""
    out = {0: 1, 3: 3}.get((int(team[1:]) + number) % 7, PLAYERS)
    return [f"{team}-{b}" for b in range(1, PLAYERS + 1) if b != out]


def write_team_sample(folder: Path) -> Path:
    """Write the generated event into ``folder`` (created) and return it."""
    draw = random.Random(SEED)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "event.toml").write_text(
        'name = "Generated Team Swiss"\ndate = 2026-03-01\nformat = "swiss"\n'
        f"rounds = {ROUNDS}\nseed = {SEED}\n\n[options]\nbye_points = 0.5\n\n"
        f"[teams]\nsize = {BOARDS}\nmatches = true\n", encoding="utf-8")
    teams = [_team(k) for k in range(1, TEAMS + 1)]
    strength = {t: 2600 - 12 * k + draw.randint(-40, 40) for k, t in enumerate(teams)}
    _write(folder / "teams.csv", ["id", "name", "country"],
           [[t, f"Team {t[1:]}", "FID"] for t in teams])
    rating = {f"{t}-{b}": strength[t] + 60 - 30 * b + draw.randint(-25, 25)
              for t in teams for b in range(1, PLAYERS + 1)}
    withdrawn = _team(WITHDRAWN[0])
    _write(folder / "players.csv", ["id", "name", "rating", "team", "dropped_after"],
           [[p, f"Player {p}", str(r), p.split("-")[0],
             str(WITHDRAWN[1]) if p.startswith(withdrawn) else ""]
            for p, r in rating.items()])
    mp = dict.fromkeys(teams, 0)
    gp = dict.fromkeys(teams, 0.0)
    met: set[frozenset[str]] = set()
    byes: set[str] = set()
    colours = dict.fromkeys(teams, 0)  # board-1 whites minus blacks
    for number in range(1, ROUNDS + 1):
        playing = _playing(number)
        order = sorted(playing, key=lambda t: (-mp[t], -gp[t], -strength[t]))
        pairs, bye, _, _ = swiss(order, order, met, byes)  # standgen's team Swiss search
        rows: list[list[str]] = []
        for k, (a, b) in enumerate(pairs):
            if (number, k) == DOUBLE_FORFEIT:
                continue
            met.add(frozenset((a, b)))
            points = _match(number, k, a, b, colours, rating, draw, rows)
            gp[a] += points
            gp[b] += BOARDS - points
            mp[a] += 2 if 2 * points > BOARDS else 1 if 2 * points == BOARDS else 0
            mp[b] += 2 if 2 * points < BOARDS else 1 if 2 * points == BOARDS else 0
        matches = [[a, b, "--" if (number, k) == DOUBLE_FORFEIT else ""]
                   for k, (a, b) in enumerate(pairs)]
        for team, result in ((_team(k), r) for k, r in REQUESTED.get(number, ())):
            matches.append([team, "", result])
            mp[team] += {"1-0": 2, "draw": 1}[result]
            gp[team] += BYE_GAME_POINTS[result] * BOARDS
        if bye:
            byes.add(bye)
            matches.append([bye, "", ""])
            rows += [[f"{p}", "BYE", ""] for p in _lineup(bye, number)]
            mp[bye] += 1
            gp[bye] += BOARDS / 2
        _write(folder / f"teams-round-{number}.csv", ["match", "team_1", "team_2", "result"],
               [[str(k), *m] for k, m in enumerate(matches, start=1)])
        _write(folder / f"round-{number}.csv", ["table", "player_1", "player_2", "result"],
               [[str(k), *row] for k, row in enumerate(rows, start=1)])
    return folder


def _match(number: int, k: int, a: str, b: str, colours: dict[str, int],
           rating: dict[str, int], draw: random.Random, rows: list[list[str]]) -> float:
    """Add the games of match ``k`` of round ``number`` to ``rows``; return ``a``'s game
    points (the board forfeited, the match forfeited whole: won by ``a``)."""
    # the team with fewer whites on board 1 has white there (WBWB down the boards)
    first = a if (colours[a], number % 2) <= (colours[b], 0) else b
    colours[first] += 1
    colours[b if first == a else a] -= 1
    points = 0.0
    for board, (home, away) in enumerate(zip(_lineup(a, number), _lineup(b, number),
                                             strict=True), start=1):
        white, black = (home, away) if (board % 2) == (first == a) else (away, home)
        expected = 1 / (1 + 10 ** ((rating[black] - rating[white]) / 400))
        roll = draw.random()
        share = 1.0 if roll < expected - 0.2 else 0.5 if roll < expected + 0.2 else 0.0
        result = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[share]
        mine = share if white == home else 1 - share
        if (number, k, board) == FORFEITED_BOARD or (number, k) == FORFEITED_MATCH:
            white, black, result, mine = home, "BYE", "1-0", 1.0
        rows.append([white, black, result])
        points += mine
    return points


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
