"""The Dutch engine's input and output: the pairing state (each player's pairing number
and history) and the round it pairs, and what the engine derives about each player to
pair (FIDE C.04.3 art. A.2-A.7: score, colour preference, floats, bye eligibility)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

WHITE, BLACK = "w", "b"
DOWN, UP, NONE = "D", "U", ""


class NoValidPairing(Exception):
    """No pairing satisfies the absolute criteria (C.04.3 art. C.1-C.3)."""


@dataclass(frozen=True)
class RoundEntry:
    """One player's past round.

    ``opponent`` is the opponent's pairing number (None without one); ``colour`` is
    ``"w"`` / ``"b"`` for a game played over the board and None otherwise; ``points``
    what the round scored (a forfeit win 1, the pairing-allocated bye its value);
    ``bye`` marks the pairing-allocated bye (C.04.1 art. c); ``paired`` is False for a
    round the player was not paired in (absent, a requested bye).
    """

    opponent: int | None
    colour: str | None
    points: float
    bye: bool = False
    paired: bool = True

    @property
    def played(self) -> bool:
        """Whether the game was played over the board (C.04.3 art. A.6 counts only
        those for colours; C.04.1 art. b: forfeits are not 'played')."""
        return self.colour is not None and self.opponent is not None


@dataclass(frozen=True)
class Entrant:
    """A player of the tournament: pairing number (1 is the top seed, C.04.2 art. C)
    and history, one :class:`RoundEntry` per round played so far."""

    number: int
    history: tuple[RoundEntry, ...]
    active: bool = True  # paired this round (False: withdrawn or absent)


@dataclass(frozen=True)
class PairingState:
    """What the Dutch engine needs to pair the next round.

    ``entrants`` are every player of the tournament (the inactive ones still count as
    opponents: their scores decide past floats); ``rounds`` is the tournament's
    planned number of rounds (C.04.3 art. A.7: topscorers, art. C.3: last round);
    ``initial_colour`` is drawn by lot before round 1 (art. E.5).
    """

    entrants: tuple[Entrant, ...]
    rounds: int
    initial_colour: str = WHITE
    win_points: float = 1.0
    draw_points: float = 0.5

    @property
    def played_rounds(self) -> int:
        return max((len(e.history) for e in self.entrants), default=0)


@dataclass(frozen=True)
class DutchPairing:
    """A round: ``pairs`` as (white, black) pairing numbers, top board first, and the
    pairing-allocated bye (a pairing number) or None."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


@dataclass
class _Player:
    """Derived facts about one player to pair (C.04.3 art. A.2-A.7)."""

    number: int
    rank: int  # 0-based order of pairing numbers among the players to pair
    score: float
    entry: Entrant
    played_games: int = 0
    colours: list[str] = field(default_factory=list)
    preference: str | None = None
    imbalance: int = 0
    repeated: str | None = None  # the colour of the last two games, when the same
    strong: bool = False
    eligible: bool = True
    floats: tuple[str, str] = (NONE, NONE)  # last round, two rounds before

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        return self.absolute_imbalance or self.repeated is not None


def _invert(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def colour_facts(history: Sequence[RoundEntry]) -> tuple[str | None, int, str | None, bool]:
    """Return (preference, colour difference, repeated colour, strong) from the games
    played over the board.

    C.04.3 art. A.6: absolute when the colour difference is above +1 or below -1, or
    the same colour was played in the last two games; strong when the difference is +1
    or -1; mild when it is 0 (the opposite of the last game); none before any game.
    Unplayed games are skipped (art. A.6: "games not played do not count"). As in
    bbpPairings, "the last two games" are the last two played games, whatever lies
    between them.
    """
    white = black = consecutive = 0
    last: str | None = None
    for entry in history:
        if not entry.played:
            continue
        assert entry.colour is not None
        if entry.colour == WHITE:
            white += 1
        else:
            black += 1
        consecutive = consecutive + 1 if consecutive and entry.colour == last else 1
        last = entry.colour
    lower = BLACK if white > black else WHITE
    imbalance = abs(white - black)
    if imbalance > 1:
        preference: str | None = lower
    elif consecutive > 1:
        assert last is not None
        preference = _invert(last)
    elif imbalance > 0:
        preference = lower
    elif consecutive:
        assert last is not None
        preference = _invert(last)
    else:
        preference = None
    repeated = last if consecutive > 1 else None
    absolute = imbalance > 1 or repeated is not None
    return preference, imbalance, repeated, (not absolute) and imbalance > 0


def _score(entry: Entrant, rounds: int) -> float:
    return sum(r.points for r in entry.history[:rounds])


def _float(entry: Entrant, back: int, played: int, by_number: dict[int, Entrant]) -> str:
    """Return the float of a player ``back`` rounds before the one being paired.

    C.04.3 A.4 (2025 art. 1.4.2-1.4.3): the higher ranked of two players with different
    scores gets a downfloat, the lower an upfloat; a player who scores more than a
    loss without playing (the bye, a forfeit win) also gets a downfloat. Scores are
    those before that round.
    """
    index = played - back
    if index < 0 or index >= len(entry.history):
        return NONE
    match = entry.history[index]
    if not match.played:
        return DOWN if match.points > 0 else NONE
    assert match.opponent is not None
    mine = _score(entry, index)
    other = by_number.get(match.opponent)
    theirs = _score(other, index) if other is not None else mine
    return DOWN if mine > theirs else UP if mine < theirs else NONE


def _eligible_for_bye(entry: Entrant, win: float) -> bool:
    """C.04.1 art. c (2025): no pairing-allocated bye for a player who already had one,
    or who scored a win's points without playing (a forfeit win, a full-point bye)."""
    for match in entry.history:
        if not match.played and (match.points >= win or match.bye):
            return False
    return True


def _players(state: PairingState) -> list[_Player]:
    """Return the players to pair, by score then pairing number (C.04.3 A.2, 2025 art.
    1.2)."""
    played = state.played_rounds
    by_number = {e.number: e for e in state.entrants}
    everyone = sorted(state.entrants, key=lambda e: e.number)
    out: list[_Player] = []
    rank = -1
    for entry in everyone:
        # the effective pairing number (A.2, E.5) counts the players to pair and those
        # paired in an earlier round, not one absent from the start (as bbpPairings)
        if entry.active or any(m.paired for m in entry.history):
            rank += 1
        if not entry.active:
            continue
        p = _Player(entry.number, rank, _score(entry, played), entry)
        p.colours = [m.colour for m in entry.history if m.played and m.colour is not None]
        p.played_games = len(p.colours)
        p.preference, p.imbalance, p.repeated, p.strong = colour_facts(entry.history)
        p.eligible = _eligible_for_bye(entry, state.win_points)
        p.floats = (_float(entry, 1, played, by_number), _float(entry, 2, played, by_number))
        out.append(p)
    out.sort(key=lambda p: (-p.score, p.rank))
    return out
