"""The chess team Swiss benchmark cases (issue #34): a 64-team, 5-board event paired by
FIDE C.04.6 (``standgen pair``, the whole process) and built after a round's results are
typed in (``standgen build``, the whole process). Both are CPU seconds of the child
process, the median of 5 or more runs, as issue #33's cases.

The event is generated once into ``benchmarks/.cache/`` by standgen itself: each round
paired by :func:`standgen.teamday.pair_team_round` and its results drawn from a seed.
"""

from __future__ import annotations

import csv
import io
import random
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

TEAMS, BOARDS, ROUNDS = 64, 5, 9
RESULTS = ("1-0", "0-1", "draw")


def _write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    path.write_text(out.getvalue(), encoding="utf-8")


def type_results(path: Path, draw: random.Random) -> None:
    """Type a result into every game of a round file without one (BYE rows kept)."""
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    header, body = rows[0], rows[1:]
    at, p2 = header.index("result"), header.index("player_2")
    for row in body:
        if not row[at] and row[p2] != "BYE":
            row[at] = draw.choice(RESULTS)
    _write_csv(path, header, body)


def _pair(folder: Path) -> None:
    from standgen.eventday import load
    from standgen.teamday import pair_team_round

    event, problems = load(folder)
    assert event is not None, [str(p) for p in problems]
    pair_team_round(folder, event)


def team_event(cache: Path, played: int, seed: int = 11) -> Path:
    """Return the cached chess team event (64 teams of 5, 9 rounds) with ``played``
    rounds paired and their results typed in, generating it the first time."""
    root = cache / f"team-swiss-{TEAMS}x{BOARDS}-r{played}"
    folder = root / "2026" / "team-swiss"
    if (root / ".complete").exists():
        return folder
    shutil.rmtree(root, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text(
        f'name = "Team Swiss"\ndate = 2026-05-02\nformat = "swiss"\nrounds = {ROUNDS}\n'
        f"seed = {seed}\n\n[teams]\nmatches = true\nsize = {BOARDS}\n", encoding="utf-8")
    _write_csv(folder / "teams.csv", ["id", "name"],
               [[f"t{k:02d}", f"Team {k:02d}"] for k in range(1, TEAMS + 1)])
    _write_csv(folder / "players.csv", ["id", "name", "rating", "team"],
               [[f"t{k:02d}-{b}", f"Player {k:02d}-{b}", str(2600 - 10 * k - b), f"t{k:02d}"]
                for k in range(1, TEAMS + 1) for b in range(1, BOARDS + 1)])
    draw = random.Random(seed)
    for number in range(1, played + 1):
        _pair(folder)
        type_results(folder / f"round-{number}.csv", draw)
    (root / ".complete").write_text("")
    return folder


def case_team_pair(cache: Path, played: int, repeat: int,
                   env: dict[str, str]) -> dict[str, float]:
    """Time ``python -m standgen pair`` of round ``played + 1`` of the team event: CPU
    seconds of the whole process, the median of at least 5 runs."""
    import resource

    folder = team_event(cache, played)
    targets = [folder / f"teams-round-{played + 1}.csv", folder / f"round-{played + 1}.csv"]

    def pair() -> float:
        for target in targets:
            target.unlink(missing_ok=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-m", "standgen", "pair", str(folder)], check=True,
                       capture_output=True, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)

    times = [pair() for _ in range(max(repeat, 5))]
    for target in targets:
        target.unlink(missing_ok=True)
    return {"time": statistics.median(times), "runs": len(times), "slowest": max(times)}


def case_team_build(cache: Path, played: int, repeat: int, build: Callable[[Path, Path], None],
                    cpu_of: Callable[[Callable[[], object]], float]) -> dict[str, float]:
    """Time ``standgen build`` after round ``played + 1``'s results are typed in (the site
    built before with the round paired): CPU seconds of the whole process, the median of
    at least 5 runs, each after the results were taken out and the site built again."""
    source = team_event(cache, played)
    events = cache / "team-swiss-build"
    output = cache / "out-team-swiss-build"
    shutil.rmtree(events, ignore_errors=True)
    shutil.rmtree(output, ignore_errors=True)
    shutil.copytree(source.parent.parent, events)
    folder = events / "2026" / "team-swiss"
    _pair(folder)
    path = folder / f"round-{played + 1}.csv"
    paired = path.read_text(encoding="utf-8")
    type_results(path, random.Random(played))
    typed = path.read_text(encoding="utf-8")
    times = []
    for _ in range(max(repeat, 5)):
        path.write_text(paired, encoding="utf-8")
        build(events, output)
        path.write_text(typed, encoding="utf-8")
        times.append(cpu_of(lambda: build(events, output)))
    return {"time": statistics.median(times), "runs": len(times), "slowest": max(times)}
