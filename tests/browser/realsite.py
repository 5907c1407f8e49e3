"""An events tree of every format with real names (tests/realnames.py), for the phone tests.

Each format's own pairing rule pairs every round (what ``standgen pair`` writes) and
random results fill them in (benchmarks/synth.py's ``play``), so the pages hold what real
events hold: the longest names, long factions, diacritics, two "Oliver Smith"s, a chess
requested bye, a late entry, a drop, forfeits, a finished event with a podium, a round in
progress and a proposed round. The same ``seed`` writes the same files.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
from dataclasses import replace
from pathlib import Path

from benchmarks.synth import config_for, event_toml, play
from benchmarks.synth import players as synth_players
from standgen.model import Event, GameKind, Round
from standgen.pipeline import pair_round
from standgen.roundfile import round_csv
from standgen.standings import compute_standings, format_of
from tests.realnames import field

# format -> (slug, players, rounds planned, rounds complete, next round: "partial",
# "proposed" or "")
PLAN = {
    "steamroller": ("real-steamroller", 23, 5, 2, "partial"),
    "swiss": ("real-swiss", 40, 5, 5, ""),
    "old-world": ("real-old-world", 17, 4, 2, "proposed"),
    "mcmahon": ("real-mcmahon", 21, 4, 4, ""),
    "diplomacy": ("real-diplomacy", 21, 3, 3, ""),
}
FACTION_FORMATS = ("steamroller", "old-world")


def real_event(fmt: str, seed: int) -> tuple[Event, str]:
    """Return the event of ``fmt`` with real names and what its next round file is."""
    slug, n, rounds, complete, then = PLAN[fmt]
    rng = random.Random(f"real:{fmt}:{seed}")
    people = field(rng, n)
    base = synth_players(n, rng, drop_rate=0.0, rounds=rounds, fmt=fmt)
    players = []
    for k, (person, player) in enumerate(zip(people, base, strict=True)):
        players.append(replace(
            player, id=person.id, name=person.name, club=person.club,
            faction=person.faction if fmt in FACTION_FORMATS else player.faction,
            byes=(2,) if fmt == "swiss" and k == 3 else (),
            joined=3 if fmt == "mcmahon" and k == n - 2 else 1,
            dropped_after=2 if fmt == "swiss" and k == 5 else None))
    config = replace(config_for(fmt, n, rounds, seed, f"Real names {fmt.title()} Open"),
                     date=dt.date(2026, 9, 1 + len(slug)))
    if fmt == "swiss":
        config = replace(config, options={"bye_points": 1.0})
    if fmt == "diplomacy":
        config = replace(config, options={"scoring": "mcs", "final_round": rounds})
    event = Event(path=("2026", slug), config=config, players=tuple(players), rounds=())
    for number in range(1, complete + (2 if then else 1)):
        paired = pair_round(event, compute_standings(event), number).round
        done = _keep_absent(paired, play(paired, rng, fmt, event))
        if number > complete:
            done = paired if then == "proposed" else _partial(done)
        event = replace(event, rounds=(*event.rounds, done))
    return event, then


def _keep_absent(paired: Round, done: Round) -> Round:
    """Return ``done`` with the requested byes as paired (the format's award, e.g. a
    chess half point), which ``play`` would score as an absence."""
    games = tuple(p if p.kind is GameKind.ABSENT else d
                  for p, d in zip(paired.games, done.games, strict=True))
    return Round(done.number, games)


def _partial(rnd: Round) -> Round:
    """Return ``rnd`` with the results of its second half of tables not yet in."""
    half = len(rnd.games) // 2
    games = tuple(g if k < half else replace(g, seats=tuple(
        replace(s, outcome=None, result="", stats={}) for s in g.seats))
        for k, g in enumerate(rnd.games))
    return Round(rnd.number, games)


def _players_csv(event: Event) -> str:
    fmt = event.config.format
    cols = ["id", "name", "club"]
    cols += ["faction"] if fmt in FACTION_FORMATS else []
    cols += ["rating"] if fmt in ("swiss", "steamroller") else []
    cols += ["rank"] if fmt == "mcmahon" else []
    cols += ["dropped_after", "joined", "byes"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(cols)
    for p in event.players:
        row = {"id": p.id, "name": p.name, "club": p.club, "faction": p.faction,
               "rating": "" if p.rating is None else str(int(p.rating)),
               "rank": p.rank, "joined": "" if p.joined == 1 else str(p.joined),
               "dropped_after": "" if p.dropped_after is None else str(p.dropped_after),
               "byes": " ".join(map(str, p.byes))}
        writer.writerow([row[c] for c in cols])
    return out.getvalue()


def write_real_events(root: Path, seed: int = 29) -> Path:
    """Write the events tree (one season, every format) under ``root``; return ``root``."""
    season = root / "2026"
    season.mkdir(parents=True, exist_ok=True)
    (root / "site.toml").write_text('title = "Łódź & Saint-Étienne Games Club"\n'
                                    'site_url = "https://games.example/events/"\n',
                                    encoding="utf-8")
    (season / "season.toml").write_text(
        'name = "Real names 2026"\ndescription = "Every format, as real fields name '
        'their players."\n', encoding="utf-8")
    for fmt in PLAN:
        event, _ = real_event(fmt, seed)
        folder = season / event.path[1]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "event.toml").write_text(event_toml(event), encoding="utf-8")
        (folder / "players.csv").write_text(_players_csv(event), encoding="utf-8")
        fmt_obj = format_of(event)
        for rnd in event.rounds:
            (folder / f"round-{rnd.number}.csv").write_text(round_csv(fmt_obj, rnd),
                                                            encoding="utf-8")
    return root
