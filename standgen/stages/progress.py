"""The cut as it is played: results read from the round files, the next round paired,
the final standings ordered.

Stage round r of the cut is event round ``after_round + r``; its round file holds the
cut's games as any round does (``player_1,player_2,result``; a bye as ``BYE``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from standgen.model import Event, Game, GameKind, Outcome, Proposal, Round, Seat
from standgen.stages.bracket import RESET, Bracket, Match, Slot

BYE = ""  # a slot a bye fills (a seed past the cut, or the loser of a walkover)


@dataclass(frozen=True)
class MatchState:
    """One match as far as the results go: its players (None: not known yet), its winner
    and loser once decided, the game it was played in, and whether it is not played."""

    match: Match
    a: str | None
    b: str | None
    winner: str | None = None
    loser: str | None = None
    game: Game | None = None
    walkover: bool = False  # a bye: one side (or both) is empty
    skipped: bool = False  # a grand final's second game that was not needed

    @property
    def decided(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True)
class BracketState:
    """The bracket, its seeds (player ids, seed 1 first) and every match's state."""

    bracket: Bracket
    seeds: tuple[str, ...]
    after_round: int
    matches: tuple[MatchState, ...]

    @property
    def finished(self) -> bool:
        return all(m.decided or m.skipped for m in self.matches)

    @property
    def champion(self) -> str | None:
        """Return the winner of the cut, once decided."""
        if not self.finished:
            return None
        final = [m for m in self.matches if m.match.section in ("final", RESET) and not m.skipped]
        return final[-1].winner if final else None

    def state(self, match_id: str) -> MatchState:
        return next(m for m in self.matches if m.match.id == match_id)

    def seed_of(self, player: str) -> int:
        return self.seeds.index(player) + 1


def play(bracket: Bracket, seeds: Sequence[str], after_round: int,
         rounds: Sequence[Round]) -> BracketState:
    """Return the bracket's state after the finished games of ``rounds``.

    Each match, in playing order, takes its players from its slots; a bye advances the
    other player unplayed; a played match is the game of its stage round between its two
    players, won by the seat whose outcome is a win. A grand final's second game is not
    played when the winners' side won the first.
    """
    by_round = {rnd.number: rnd for rnd in rounds}
    done: dict[str, MatchState] = {}
    for match in bracket.matches:
        a, b = _fill(match.a, seeds, done), _fill(match.b, seeds, done)
        if match.only_if_reset and _winners_side_won(done.get(match.b.loser_of)):
            done[match.id] = MatchState(match, a, b, skipped=True)
        else:
            done[match.id] = _match_state(match, a, b, by_round.get(after_round + match.round))
    return BracketState(bracket, tuple(seeds), after_round, tuple(done.values()))


def _winners_side_won(first: MatchState | None) -> bool:
    """Return whether the grand final's first game was won by the winners' side (its
    first player): then its second game is not played."""
    return first is not None and first.decided and first.winner == first.a


def _match_state(match: Match, a: str | None, b: str | None, rnd: Round | None) -> MatchState:
    """Return a match with players ``a`` and ``b``: waiting for one, a bye that advances
    the other unplayed, or the game of its stage round ``rnd`` between them."""
    if a is None or b is None:
        return MatchState(match, a, b)
    if a == BYE or b == BYE:
        return MatchState(match, a, b, b if a == BYE else a, BYE, walkover=True)
    game = _game(rnd, a, b)
    won = _winner(game)
    lost = None if won is None else (b if won == a else a)
    return MatchState(match, a, b, won, lost, game)


def _fill(slot: Slot, seeds: Sequence[str], done: Mapping[str, MatchState]) -> str | None:
    if slot.seed:
        return seeds[slot.seed - 1] if slot.seed <= len(seeds) else BYE
    source = done[slot.winner_of or slot.loser_of]
    return source.winner if slot.winner_of else source.loser


def _game(rnd: Round | None, a: str, b: str) -> Game | None:
    if rnd is None:
        return None
    return next((g for g in rnd.games if set(g.players) == {a, b}), None)


def _winner(game: Game | None) -> str | None:
    if game is None or not game.finished:
        return None
    return next((s.player for s in game.seats if s.outcome is Outcome.WIN), None)


def pair_cut_round(event: Event, state: BracketState, round_number: int) -> Proposal:
    """Return cut round ``round_number``: each match of its stage round whose players are
    known, the better seed first, tables in bracket order; a bye as a one-seat BYE game.

    MTR 10.4: the cut is paired by the final Swiss standings, 1v8, 4v5, 2v7, 3v6, then
    the winners of 1v8 and 4v5, of 2v7 and 3v6; the top seeds get the byes.
    """
    stage_round = round_number - state.after_round
    source = event.round_source(round_number)
    games: list[Game] = []
    byes: list[str] = []
    waiting: list[str] = []
    for m in state.matches:
        if m.match.round != stage_round or m.skipped:
            continue
        if m.a is None or m.b is None:
            waiting.append(m.match.id)
            continue
        real = _real_players(state, m.a, m.b)
        if len(real) == 2:
            games.append(Game(round_number, len(games) + 1,
                              (Seat(real[0]), Seat(real[1])), source=source))
        elif real:
            byes.append(real[0])
    for player in byes:
        games.append(Game(round_number, len(games) + 1, (Seat(player),), kind=GameKind.BYE,
                          source=source))
    return Proposal(Round(round_number, tuple(games), source),
                    _cut_notes(state, stage_round, byes, waiting))


def _real_players(state: BracketState, a: str, b: str) -> list[str]:
    """Return a match's players who are not a bye, the better seed first."""
    return sorted((p for p in (a, b) if p != BYE), key=state.seed_of)


def _cut_notes(state: BracketState, stage_round: int, byes: Sequence[str],
               waiting: Sequence[str]) -> tuple[str, ...]:
    """Return a cut round's notes: the bracket and its seeding (MTR 10.4), the byes to
    the top seeds, and the matches not paired yet."""
    notes = [f"Cut round {stage_round} of {state.bracket.rounds}: the "
             f"{state.bracket.kind}-elimination bracket of {len(state.seeds)}, seeded by the "
             f"Swiss standings after round {state.after_round} (MTR 10.4)."]
    if byes:
        notes.append("Byes to the top seeds: " + ", ".join(
            f"seed {state.seed_of(p)}" for p in byes) + ".")
    if waiting:
        notes.append("Not paired yet (a result is missing): " + ", ".join(waiting) + ".")
    return tuple(notes)


def cut_order(state: BracketState, swiss_order: Sequence[str]) -> tuple[str, ...]:
    """Return the final standings' order: the cut's players by the round they went out
    (the champion first, still playing above those out), then by Swiss rank; then every
    other player in Swiss order.

    The issue's rule: "final standings order the cut players by the round they went out,
    then by their Swiss rank". A third-place match puts its winner above its loser; a
    double-elimination player is out at their second loss.
    """
    swiss = {pid: k for k, pid in enumerate(swiss_order)}
    final_round = state.bracket.rounds + 1
    out_round = _out_rounds(state)
    champion = state.champion
    if champion:
        out_round[champion] = (final_round + 1, 0)
    key = {pid: out_round.get(pid, (final_round, 0)) for pid in state.seeds}
    ranked = sorted(state.seeds, key=lambda p: (-key[p][0], -key[p][1], swiss[p]))
    rest = [p for p in swiss_order if p not in key]
    return (*ranked, *rest)


def _out(state: BracketState, m: MatchState, losses: int) -> bool:
    """Return whether a match's loser is out: at once in a single-elimination bracket or
    the grand final's second game, at their second loss in a double-elimination one."""
    return state.bracket.kind == "single" or losses >= 2 or m.match.section == RESET


def _out_rounds(state: BracketState) -> dict[str, tuple[int, int]]:
    """Return the round each player went out in, and their place among those out in it
    (a third-place match's winner above its loser, the final's loser above both)."""
    out_round: dict[str, tuple[int, int]] = {}
    losses: dict[str, int] = {}
    for m in state.matches:
        if not m.decided or m.walkover or m.loser is None:
            continue
        losses[m.loser] = losses.get(m.loser, 0) + 1
        out = _out(state, m, losses[m.loser])
        if m.match.section == "third":
            out_round[m.loser] = (m.match.round, 0)
            out_round[m.winner or ""] = (m.match.round, 1)
        elif out and m.loser not in out_round:
            # the final's loser is second, above a third-place match played beside it
            out_round[m.loser] = (m.match.round, 2 if m.match.section in ("final", RESET) else 0)
    return out_round
