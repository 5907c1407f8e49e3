"""Round robin by Berger tables, for any two-player format (``[options] pairing``; the
format's round-robin form is :mod:`standgen.formats.roundrobin`).

FIDE Handbook C.05 Annex 1 ("Berger Tables for Round-Robin Tournaments"): each
player meets every other once; with an odd field a dummy player makes the field even
and whoever is drawn against the dummy has a bye that round.
"""

from __future__ import annotations

from standgen.model import Event, Game, GameKind, Player, Proposal, Round, Seat
from standgen.pairing.common import rng
from standgen.pairing.state import PairingInput


def planned_rounds(players: int) -> int:
    """Return a round robin's rounds: n - 1 for an even field, n for an odd one.

    FIDE C.05 Annex 1: an odd field is made even with a dummy player (a bye each round).
    """
    if players < 2:
        return 1
    return players - 1 if players % 2 == 0 else players


def berger_round(n: int, round_number: int) -> list[tuple[int, int]]:
    """Return round ``round_number`` of the Berger table for ``n`` players (n even).

    Pairs are (White, Black) as 1-based Berger numbers, board 1 first; FIDE C.05
    Annex 1. Player ``n`` is fixed: they meet the player ``p`` with
    ``2p = round + 1 (mod n - 1)``, with Black in odd rounds and White in even ones.
    Board ``k`` pairs ``p + (k - 1)`` (White) with ``p - (k - 1)`` (mod n - 1), which
    reproduces the published tables (round 1 of 8: 1-8, 2-7, 3-6, 4-5; round 2: 8-5,
    6-4, 7-3, 1-2).
    """
    if n < 2 or n % 2:
        raise ValueError("a Berger table needs an even number of players")
    rounds = n - 1
    if not 1 <= round_number <= rounds:
        raise ValueError(f"a Berger table for {n} players has rounds 1 to {rounds}")
    if n == 2:
        return [(1, 2)]
    m = n - 1
    partner = next(p for p in range(1, n) if (2 * p - (round_number + 1)) % m == 0)
    pairs = [(partner, n) if round_number % 2 else (n, partner)]

    def wrap(value: int) -> int:
        return (value - 1) % m + 1

    for k in range(2, n // 2 + 1):
        pairs.append((wrap(partner + k - 1), wrap(partner - (k - 1))))
    return pairs


def berger_numbers(event: Event) -> list[Player]:
    """Return the players in Berger-number order: drawn by lot with the event's seed, or
    players.csv order with ``[options] start_order = "file"`` (numbers already drawn, as
    in a TRF file's start ranks).

    FIDE C.05 (General Regulations for round robins): pairing numbers are drawn by lot.
    Players who join late cannot enter a round robin; the draw covers every player in
    players.csv (spare players included), so later drops do not change anyone's number.
    """
    players = list(event.players)
    if event.config.options.get("start_order") != "file":
        rng(event, 0, "berger").shuffle(players)
    return players


def pair(event: Event, state: PairingInput, round_number: int) -> Proposal:
    """Return round ``round_number`` of the event's round robin (FIDE C.05 Annex 1).

    A game against the dummy (odd field) or against a player who has dropped becomes a
    bye for the other player; a game between two dropped players is left out.
    """
    players = berger_numbers(event)
    size = len(players) + len(players) % 2
    source = event.round_source(round_number)
    notes = [f"Round robin, Berger table for {size} players (FIDE C.05 Annex 1)."]
    if round_number > size - 1:
        notes.append(f"Every player has met every other after {size - 1} rounds: this round "
                     f"repeats round {(round_number - 1) % (size - 1) + 1} of the table, with "
                     "colours reversed in every second cycle (a double round robin).")
    cycle = (round_number - 1) // (size - 1)
    table_round = (round_number - 1) % (size - 1) + 1
    games: list[Game] = []
    byes: list[str] = []
    for white, black in berger_round(size, table_round):
        if cycle % 2:
            white, black = black, white
        a = players[white - 1] if white <= len(players) else None
        b = players[black - 1] if black <= len(players) else None
        active = [p for p in (a, b) if p is not None and p.active_in(round_number)]
        if len(active) == 2:
            games.append(Game(round_number, len(games) + 1,
                              (Seat(active[0].id), Seat(active[1].id)), source=source))
        elif len(active) == 1:
            byes.append(active[0].id)
    for player in byes:
        games.append(Game(round_number, len(games) + 1, (Seat(player),), GameKind.BYE,
                          source=source))
    return Proposal(Round(number=round_number, games=tuple(games), source=source),
                    notes=tuple(notes))
