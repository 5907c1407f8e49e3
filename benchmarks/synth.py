"""Seeded synthetic events for benchmarks: players, factions, ranks, ratings, results with
draws, byes, drops and forfeits, for every format; and archives of many events.

``make_event`` builds model objects in memory (for pairing and standings cases);
``write_event`` writes the same event as an events folder (for build cases);
``write_archive`` writes a tree of many events across years, with a season file per year.

Every random choice comes from ``random.Random(seed)``, so the same arguments give the
same bytes. ``pairing="real"`` pairs every round with the format's own rule (what a TO
would get from ``standgen pair``); ``pairing="fast"`` pairs two-player formats greedily
in score order without rematches (the same shape of data, much faster for large Swiss
events whose FIDE matching costs seconds a round).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import replace
from pathlib import Path

from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Player, Round, Seat
from standgen.pairing import core
from standgen.pairing.common import players_for_round
from standgen.roundfile import round_csv
from standgen.standings import compute_standings, format_of, pairing_input

FORMATS = ("steamroller", "swiss", "old-world", "mcmahon", "diplomacy")

FACTIONS = {
    "steamroller": ("Cygnar", "Khador", "Cryx", "Legion", "Skorne", "Trollbloods", "Circle",
                    "Retribution", "Mercenaries", "Minions", "Convergence", "Grymkin"),
    "old-world": ("Empire of Man", "Dwarfen Mountain Holds", "Kingdom of Bretonnia",
                  "Orc & Goblin Tribes", "Warriors of Chaos", "Beastmen Brayherds",
                  "Tomb Kings of Khemri", "Wood Elf Realms", "High Elf Realms"),
}
GO_RANKS = tuple(f"{k}k" for k in range(25, 0, -1)) + tuple(f"{d}d" for d in range(1, 7))
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def players(n: int, rng: random.Random, drop_rate: float = 0.03, rounds: int = 6,
            fmt: str = "steamroller") -> list[Player]:
    """Return ``n`` players with factions, clubs, ratings (Swiss), ranks (McMahon), drops."""
    people = []
    factions = FACTIONS.get(fmt, ())
    for k in range(n):
        dropped = rng.randint(1, max(rounds - 1, 1)) if rng.random() < drop_rate else None
        faction = rng.choice(factions) if factions else ""
        rating = float(rng.randint(1000, 2600)) if fmt in ("swiss", "steamroller") else None
        rank = GO_RANKS[min(len(GO_RANKS) - 1, int(rng.triangular(0, len(GO_RANKS), 18)))] \
            if fmt == "mcmahon" else ""
        people.append(Player(id=f"p{k:05d}", name=f"Player {k:05d}", faction=faction,
                             rating=rating, rank=rank, club=f"Club {k % 40}",
                             dropped_after=dropped))
    return people


def _two_player(game: Game, rng: random.Random, fmt: str, event: Event) -> Game:
    """Return a two-player game with a random result for ``fmt`` (forfeits, draws, stats)."""
    roll = rng.random()
    s1, s2 = game.seats
    if roll < 0.02:
        return replace(game, kind=GameKind.FORFEIT,
                       seats=(replace(s1, outcome=Outcome.WIN), replace(s2, outcome=Outcome.LOSS)))
    if fmt == "old-world":
        vp1, vp2 = float(rng.randint(200, 2400)), float(rng.randint(200, 2400))
        stats = ({"vp": vp1}, {"vp": vp2})
        outcomes = format_of(event).outcome_from_stats("", stats, event.config)  # type: ignore[misc]
        assert outcomes is not None
        return replace(game, seats=(replace(s1, outcome=outcomes[0], stats=stats[0]),
                                    replace(s2, outcome=outcomes[1], stats=stats[1])))
    draw_rate = {"swiss": 0.15, "mcmahon": 0.01}.get(fmt, 0.0)
    if roll < 0.02 + draw_rate:
        a = b = Outcome.DRAW
    elif roll < 0.58:
        a, b = Outcome.WIN, Outcome.LOSS
    else:
        a, b = Outcome.LOSS, Outcome.WIN
    st1: dict[str, float] = {}
    st2: dict[str, float] = {}
    if fmt == "steamroller":
        st1 = {"cp": float(rng.randint(0, 5)), "apd": float(rng.randint(0, 75))}
        st2 = {"cp": float(rng.randint(0, 5)), "apd": float(rng.randint(0, 75))}
    return replace(game, seats=(replace(s1, outcome=a, stats=st1),
                                replace(s2, outcome=b, stats=st2)))


def _board(game: Game, rng: random.Random) -> Game:
    """Return a Diplomacy board with centres summing to 34, a draw or (rarely) a solo."""
    n = len(game.seats)
    if rng.random() < 0.1:
        solo = rng.randrange(n)
        rest = _spread(34 - 18, n - 1, rng, allow_zero=True)
        centres = rest[:solo] + [18] + rest[solo:]
    else:
        centres = _spread(34, n, rng, allow_zero=True, cap=17)
    seats = []
    solo_won = any(c >= 18 for c in centres)
    for seat, c in zip(game.seats, centres, strict=True):
        if c >= 18:
            result, outcome = "solo", Outcome.WIN
        elif c == 0:
            result, outcome = "eliminated", Outcome.LOSS
        elif solo_won:
            result, outcome = "loss", Outcome.LOSS
        else:
            result, outcome = "draw", Outcome.DRAW
        stats: dict[str, float] = {"centres": float(c)}
        if c == 0:
            stats["eliminated_year"] = float(rng.randint(1903, 1908))
        seats.append(replace(seat, outcome=outcome, result=result, stats=stats))
    if sum(1 for s in seats if s.result == "draw") < 2 and not solo_won:
        return _board(game, rng)  # a one-power draw is a solo: draw again
    return replace(game, seats=tuple(seats))


def _spread(total: int, n: int, rng: random.Random, allow_zero: bool, cap: int = 34) -> list[int]:
    """Return ``n`` random non-negative integers summing to ``total``, each <= ``cap``."""
    while True:
        cuts = sorted(rng.randint(0, total) for _ in range(n - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        if max(parts) <= cap and (allow_zero or min(parts) > 0):
            return parts


def play(proposal_round: Round, rng: random.Random, fmt: str, event: Event) -> Round:
    """Return the round with random results (draws, forfeits, stats) filled in."""
    games = []
    for game in proposal_round.games:
        if game.kind in (GameKind.BYE, GameKind.ABSENT):
            outcome = Outcome.WIN if game.kind is GameKind.BYE else Outcome.LOSS
            games.append(replace(game, seats=tuple(replace(s, outcome=outcome)
                                                   for s in game.seats)))
        elif len(game.seats) > 2:
            games.append(_board(game, rng))
        else:
            games.append(_two_player(game, rng, fmt, event))
    return replace(proposal_round, games=tuple(games))


class Tally:
    """Scores, byes and meetings so far, kept up to date round by round (``fast`` pairing
    needs no standings)."""

    def __init__(self) -> None:
        self.scores: dict[str, float] = {}
        self.byes: set[str] = set()
        self.met: set[frozenset[str]] = set()

    def add(self, event: Event, rnd: Round) -> None:
        fmt = format_of(event)
        for game in rnd.games:
            for seat in game.seats:
                self.scores[seat.player] = (self.scores.get(seat.player, 0.0)
                                            + fmt.points(seat, game, event.config))
            if game.kind is GameKind.BYE:
                self.byes.update(game.players)
            if len(game.seats) == 2:
                self.met.add(frozenset(game.players))


def fast_round(event: Event, tally: Tally, number: int) -> Round:
    """Return round ``number`` paired greedily in score order: no rematch where the greedy
    procedure finds one (the core's written procedure), the lowest player without a bye
    gets the bye."""
    active = players_for_round(event, number)
    scores = tally.scores
    order = sorted(active, key=lambda p: (-scores.get(p.id, 0.0), p.id))
    bye = None
    if len(order) % 2:
        bye = next((k for k in range(len(order) - 1, -1, -1)
                    if order[k].id not in tally.byes), len(order) - 1)
    met = tally.met
    ids = [p.id for p in order]
    pairs, complete = core.procedure(len(order), lambda i, j: frozenset((ids[i], ids[j])) in met,
                                     bye)
    if not complete:  # dead end: pair the rest in order, rematches allowed
        used = {i for p in pairs for i in p} | ({bye} if bye is not None else set())
        rest = [k for k in range(len(order)) if k not in used]
        pairs += list(zip(rest[::2], rest[1::2], strict=True))
    games = [Game(number, t, (Seat(ids[i]), Seat(ids[j])))
             for t, (i, j) in enumerate(pairs, start=1)]
    if bye is not None:
        games.append(Game(number, len(games) + 1, (Seat(ids[bye]),), GameKind.BYE))
    return Round(number, tuple(games))


def config_for(fmt: str, n: int, rounds: int, seed: int, name: str,
               date: dt.date = dt.date(2026, 1, 1)) -> EventConfig:
    """Return the event configuration a synthetic event of ``fmt`` uses."""
    options: dict[str, object] = {}
    if fmt == "diplomacy":
        options = {"scoring": "mcs", "final_round": 0}
    return EventConfig(name=name, date=date, format=fmt, rounds=rounds, seed=seed,
                       options=options)


def make_event(n: int, rounds: int, fmt: str = "steamroller", seed: int = 1,
               pairing: str = "real", played: int | None = None) -> Event:
    """Return an event of ``n`` players with ``played`` (default ``rounds``) rounds played.

    ``rounds`` is the planned number of rounds (event.toml); pairing is the format's own
    (``real``) or the greedy score-order procedure (``fast``, two-player formats only).
    """
    rng = random.Random(f"{fmt}:{n}:{rounds}:{seed}")
    played = rounds if played is None else played
    config = config_for(fmt, n, rounds, seed, f"Synthetic {fmt} {n}")
    event = Event(path=(f"synthetic-{fmt}-{n}",), config=config,
                  players=tuple(players(n, rng, rounds=rounds, fmt=fmt)), rounds=())
    fmt_obj = format_of(event)
    fast = pairing == "fast" and fmt_obj.seats == 2
    tally = Tally()
    for number in range(1, played + 1):
        if fast:
            paired = fast_round(event, tally, number)
        else:
            paired = fmt_obj.pair(event, pairing_input(compute_standings(event)), number).round
        done = play(paired, rng, fmt, event)
        if fast:
            tally.add(event, done)
        event = replace(event, rounds=(*event.rounds, done))
    return event


def players_csv(event: Event) -> str:
    """Return players.csv for ``event`` with the columns its format uses."""
    fmt = event.config.format
    cols = ["id", "name", "club"]
    if fmt in FACTIONS:
        cols.append("faction")
    if fmt in ("swiss", "steamroller"):
        cols.append("rating")
    if fmt == "mcmahon":
        cols.append("rank")
    cols.append("dropped_after")
    lines = [",".join(cols)]
    for p in event.players:
        cells = {"id": p.id, "name": p.name, "club": p.club, "faction": p.faction,
                 "rating": "" if p.rating is None else str(int(p.rating)), "rank": p.rank,
                 "dropped_after": "" if p.dropped_after is None else str(p.dropped_after)}
        lines.append(",".join(cells[c] for c in cols))
    return "\n".join(lines) + "\n"


def event_toml(event: Event) -> str:
    """Return event.toml for ``event``."""
    cfg = event.config
    text = (f'name = "{cfg.name}"\ndate = {cfg.date.isoformat()}\nformat = "{cfg.format}"\n'
            f"rounds = {cfg.rounds}\nseed = {cfg.seed}\n")
    if cfg.options:
        text += "\n[options]\n" + "".join(
            f'{k} = "{v}"\n' if isinstance(v, str) else f"{k} = {v}\n"
            for k, v in cfg.options.items())
    return text


def write_event(event: Event, folder: Path) -> None:
    """Write ``event`` as an events folder (event.toml, players.csv, round-N.csv)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "event.toml").write_text(event_toml(event))
    (folder / "players.csv").write_text(players_csv(event))
    fmt = format_of(event)
    for rnd in event.rounds:
        (folder / f"round-{rnd.number}.csv").write_text(round_csv(fmt, rnd))


ROUNDS = {"steamroller": 5, "swiss": 7, "old-world": 5, "mcmahon": 5, "diplomacy": 3}
MIX = ("steamroller", "steamroller", "swiss", "swiss", "old-world", "mcmahon", "diplomacy")


def archive_plan(events: int, seed: int = 7, low: int = 32, high: int = 256,
                 first_year: int = 2016) -> list[tuple[int, str, str, int]]:
    """Return (year, slug, format, players) for each event of an archive, years ascending."""
    rng = random.Random(f"archive:{events}:{seed}")
    years = max(1, min(11, events // 10))
    plan = []
    for k in range(events):
        year = first_year + k * years // events
        fmt = MIX[rng.randrange(len(MIX))]
        n = rng.randint(low, high)
        if fmt == "diplomacy":
            n = max(7, n // 7 * 7)
        plan.append((year, f"{fmt}-{k:04d}", fmt, n))
    return plan


def archive_event(year: int, slug: str, fmt: str, n: int, seed: int) -> Event:
    """Return one archive event (real pairing except Swiss and McMahon: ``fast``)."""
    event = make_event(n, ROUNDS[fmt], fmt, seed=seed,
                       pairing="fast" if fmt in ("swiss", "mcmahon") else "real")
    day = dt.date(year, 1 + seed % 12, 1 + seed % 28)
    config = replace(event.config, name=f"{fmt.title()} open {seed}", date=day)
    return replace(event, path=(str(year), slug), config=config)


def pooled(event: Event, pool: int, rng: random.Random) -> Event:
    """Return ``event`` with its players drawn from a club of ``pool`` people.

    Person ``k`` comes to an event with a weight of ``1 / (k + 20)``: a few regulars play
    a third of the events, most people a handful, as in a real club (the plain archive
    gives every event the same ids ``p00000``..., so its first players play every event:
    the worst case for histories and rating pages)."""
    weights = [1 / (k + 20) for k in range(pool)]
    chosen: dict[str, None] = {}
    while len(chosen) < len(event.players):
        for k in rng.choices(range(pool), weights, k=len(event.players)):
            chosen.setdefault(f"c{k:05d}", None)
            if len(chosen) == len(event.players):
                break
    new_id = dict(zip((p.id for p in event.players), chosen, strict=True))
    players = tuple(replace(p, id=new_id[p.id], name=f"Member {new_id[p.id][1:]}")
                    for p in event.players)
    rounds = tuple(
        replace(rnd, games=tuple(
            replace(game, seats=tuple(replace(seat, player=new_id.get(seat.player, seat.player))
                                      for seat in game.seats))
            for game in rnd.games))
        for rnd in event.rounds)
    return replace(event, players=players, rounds=rounds)


def write_archive(root: Path, events: int, seed: int = 7, low: int = 32,
                  high: int = 256, pool: int = 0) -> Path:
    """Write an archive of ``events`` events under ``root`` (one folder per year with a
    season.toml) and return ``root``. Skipped when ``root/.complete`` says it is done.
    ``pool`` > 0 draws each event's players from a club of that many people
    (:func:`pooled`)."""
    stamp = root / ".complete"
    if stamp.exists():
        return root
    plan = archive_plan(events, seed, low, high)
    for k, (year, slug, fmt, n) in enumerate(plan):
        ydir = root / str(year)
        if not (ydir / "season.toml").exists():
            ydir.mkdir(parents=True, exist_ok=True)
            (ydir / "season.toml").write_text(f'name = "Synthetic season {year}"\n')
        event = archive_event(year, slug, fmt, n, seed * 100_000 + k)
        if pool:
            event = pooled(event, pool, random.Random(f"pool:{seed}:{k}"))
        write_event(event, ydir / slug)
    stamp.write_text(f"{events} {seed} {low} {high} {pool}\n")
    return root
