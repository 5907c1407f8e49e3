"""What the site may show of each player (players.csv ``publish``; docs/privacy.md).

A player is published in ``full`` (name, id, club, country, rating, rank), by
``initials``, under a ``pseudonym``, or ``hidden`` as "Player 17" (their line in
players.csv). Anyone not in full gets a published id that says nothing of the real one,
and their club, country, rating, rank and (hidden) army list are left out.

The pipeline computes an event twice when someone is not published in full: once as it
is (what ``check``, ``pair`` and the TO's commands read) and once with the published ids
and names, for the site. The second computation keeps the ratings and ranks, so every
tiebreak and rank comes out the same; only the site's copy of each player (the event's
players, the standings' rows) loses them. The proposed round is the real one, renamed:
pairing rules may order players by id, and the site must show what ``standgen pair``
will write.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from standgen.model import Event, Game, Player, Proposal, Round

# [options] keys that hold player ids (Diplomacy: round number -> ids)
_ID_OPTIONS = ("sit_out", "two_boards")


@dataclass(frozen=True)
class Masks:
    """The published id and name of each player not published in full, by real id."""

    ids: Mapping[str, str]
    names: Mapping[str, str]
    hidden: frozenset[str]  # real ids of the players shown as "Player N"


def level(player: Player, event: Event) -> str:
    """Return the player's publication level: their own, else the event's default."""
    return player.publish or event.config.publish or "full"


def initials(name: str) -> str:
    """Return a name's initials: "Anna Kowalska" -> "A. K.", "Ó Conchúir" -> "Ó. C."."""
    parts = [part for part in name.replace("-", " ").split() if part[:1].isalnum()]
    return " ".join(f"{part[0].upper()}." for part in parts) or "?"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:10]


def masks(event: Event) -> Masks | None:
    """Return the event's masks, or None when every player is published in full."""
    ids: dict[str, str] = {}
    names: dict[str, str] = {}
    hidden: set[str] = set()
    real = {p.id for p in event.players}
    for number, player in enumerate(event.players, 1):
        shown = level(player, event)
        if shown == "full":
            continue
        if shown == "pseudonym":
            # one pseudonym is one published person across the archive
            new = "pseudonym-" + _digest(" ".join(player.pseudonym.casefold().split()))
            names[player.id] = player.pseudonym
        else:
            # from the event and the line only: nothing to test a guessed real id against
            new = "player-" + _digest(event.slug, str(number))
            names[player.id] = initials(player.name) if shown == "initials" else f"Player {number}"
            if shown == "hidden":
                hidden.add(player.id)
        while new in real or new in ids.values():
            new += "-x"
        ids[player.id] = new
    if not ids:
        return None
    return Masks(MappingProxyType(ids), MappingProxyType(names), frozenset(hidden))


def _player(player: Player, found: Masks, keep: bool) -> Player:
    """Return ``player`` as published; ``keep`` keeps the rating and rank the tiebreaks
    and scores read (the copy the standings are computed from)."""
    if player.id not in found.ids:
        return player
    return replace(player, id=found.ids[player.id], name=found.names[player.id], club="",
                   country="", rating=player.rating if keep else None,
                   rank=player.rank if keep else "", pseudonym="",
                   publish="hidden" if player.id in found.hidden else player.publish,
                   list_check="" if player.id in found.hidden else player.list_check)


def _game(game: Game, found: Masks) -> Game:
    seats = tuple(replace(seat, player=found.ids.get(seat.player, seat.player))
                  for seat in game.seats)
    return replace(game, seats=seats)


def _round(rnd: Round, found: Masks) -> Round:
    return replace(rnd, games=tuple(_game(game, found) for game in rnd.games))


def _options(options: Mapping[str, Any], found: Masks) -> Mapping[str, Any]:
    changed = dict(options)
    for key in _ID_OPTIONS:
        value = options.get(key)
        if isinstance(value, dict):
            changed[key] = {r: [found.ids.get(p, p) if isinstance(p, str) else p for p in ids]
                            if isinstance(ids, list) else ids for r, ids in value.items()}
    return changed


def masked_events(event: Event, found: Masks) -> tuple[Event, Event]:
    """Return the event to compute the site's standings from (published ids and names,
    real ratings and ranks) and the event the site shows (neither)."""
    lists = {found.ids.get(pid, pid): text for pid, text in event.lists.items()
             if pid not in found.hidden}
    config = replace(event.config, options=_options(event.config.options, found))
    computing = replace(event, config=config,
                        players=tuple(_player(p, found, True) for p in event.players),
                        rounds=tuple(_round(r, found) for r in event.rounds),
                        lists=MappingProxyType(lists))
    shown = replace(computing, players=tuple(_player(p, found, False) for p in event.players))
    return computing, shown


def masked_proposal(proposal: Proposal | None, event: Event, found: Masks
                    ) -> Proposal | None:
    """Return the proposed round with the published ids and names (its notes too)."""
    if proposal is None:
        return None
    real_names = {p.id: p.name for p in event.players}
    notes = tuple(_note(note, real_names, found) for note in proposal.notes)
    return replace(proposal, round=_round(proposal.round, found), notes=notes)


def _note(note: str, real_names: Mapping[str, str], found: Masks) -> str:
    """Return a pairing note with every masked player's name and id replaced (notes
    name players either way: "The bye was drawn at random: Anna K.", "Bye: anna-k")."""
    for real in sorted(found.ids, key=lambda pid: -len(real_names.get(pid, ""))):
        name = real_names.get(real, "")
        if name:
            note = note.replace(name, found.names[real])
    for real, new in found.ids.items():
        note = re.sub(rf"(?<![a-z0-9-]){re.escape(real)}(?![a-z0-9-])", new, note)
    return note
