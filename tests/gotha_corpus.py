"""Replays OpenGotha's reference pairings (/work/shared/gotha-corpus, ../shared/gotha-corpus).

For a tournament and a round r: the event with rounds 1..r-1, the players absent from
round r dropped after r-1 (the corpus README's procedure, done in memory), paired by
standgen; compared with OpenGotha's round r (``expected.json``). Where the pairs differ,
the round is a tie when OpenGotha's pairing costs exactly what standgen's does under
OpenGotha's own cost (``Tournament.costValue``), so either is OpenGotha's optimum.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from standgen.errors import Problem
from standgen.formats.mcmahon.pairing import gamers, pair_round, settings_of
from standgen.model import Event, GameKind
from standgen.pairing import gotha
from standgen.pairing.common import players_for_round
from standgen.standings import compute_standings, pairing_input

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "gotha-corpus"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/gotha-corpus")


def tournaments() -> list[Path]:
    """Return the corpus tournament folders, or none when the corpus is not there."""
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.iterdir() if (p / "expected.json").is_file())


def load(folder: Path) -> tuple[Event, dict[str, object]]:
    """Return the whole event (every round) and its expected.json."""
    from standgen.load import load_event

    problems: list[Problem] = []
    event = load_event(folder, (folder.name,), problems)
    assert event is not None, problems
    return event, json.loads((folder / "expected.json").read_text())


def before(event: Event, number: int, absent: list[str]) -> Event:
    """Return the event as it stood before round ``number``, the absent players dropped."""
    players = tuple(replace(p, dropped_after=number - 1) if p.id in absent else p
                    for p in event.players)
    return replace(event, players=players, rounds=event.rounds[:number - 1])


@dataclass(frozen=True)
class Outcome:
    """How standgen's round compares with OpenGotha's."""

    same_pairs: bool
    same_bye: bool
    colours_wrong: int  # games where OpenGotha's colour is not a coin toss and differs
    handicaps_wrong: int
    tosses_wrong: int  # equal balances: OpenGotha's name hash, reproduced here
    tie: bool  # pairs differ but cost exactly the same under OpenGotha's cost
    ours: int  # total cost of standgen's pairing
    theirs: int  # total cost of OpenGotha's pairing

    @property
    def identical(self) -> bool:
        return self.same_pairs and self.agreed

    @property
    def agreed(self) -> bool:
        """Same bye, and every game both programs made has the same colours and handicap."""
        return (self.same_bye and not self.colours_wrong and not self.handicaps_wrong
                and not self.tosses_wrong)

    @property
    def accepted(self) -> bool:
        return self.identical or (self.tie and self.agreed)


def replay(event: Event, expected: dict[str, object], number: int) -> Outcome:
    """Return how standgen's round ``number`` compares with OpenGotha's."""
    rounds = expected["rounds"]
    assert isinstance(rounds, list)
    want = rounds[number - 1]
    state = before(event, number, list(want["absent"]))
    standings = compute_standings(state)
    made = pair_round(state, pairing_input(standings), number)
    got_pairs: dict[frozenset[str], tuple[str, str, int]] = {}
    got_bye = None
    for game in made.round.games:
        if game.kind is GameKind.BYE:
            got_bye = game.players[0]
            continue
        white, black = game.players
        got_pairs[frozenset((white, black))] = (white, black, int(game.extra.get("handicap", 0)))
    exp_pairs = {frozenset((w, b)): (w, b, int(h)) for w, b, h in want["pairs"]}
    s = settings_of(state, standings.planned_rounds)
    everyone = gamers(state, pairing_input(standings), s)
    f = gotha.Field(s, number - 1, gotha.fill_pairing_info(s, list(everyone.values()),
                                                           number - 1))
    order = gotha.score_order([everyone[p.id] for p in players_for_round(state, number)])
    position = {p.id: k for k, p in enumerate(order)}

    def total(pairs: dict[frozenset[str], tuple[str, str, int]]) -> int:
        out = 0
        for w, b, _ in pairs.values():
            p1, p2 = sorted((everyone[w], everyone[b]), key=lambda p: position[p.id])
            out += gotha.cost(f, p1, p2)
        return out

    colours = handicaps = tosses = 0
    for key, (w, b, h) in exp_pairs.items():
        if key not in got_pairs:
            continue
        gw, _, gh = got_pairs[key]
        handicaps += gh != h
        toss = h == 0 and everyone[w].wb == everyone[b].wb
        colours += (gw != w) and not toss
        tosses += (gw != w) and toss
    ours, theirs = total(got_pairs), total(exp_pairs)
    same = set(got_pairs) == set(exp_pairs)
    return Outcome(same, got_bye == want["bye"], colours, handicaps, tosses,
                   not same and ours == theirs, ours, theirs)
