"""The Dutch engine's colour allocation (FIDE C.04.3 art. E)."""

from __future__ import annotations

from standgen.pairing.dutch.state import _invert, _Player


def colour(player: _Player, opponent: _Player, initial: str) -> str:
    """Return the colour ``player`` gets against ``opponent`` (C.04.3 art. E).

    E.1 grant both preferences; E.2 grant the stronger preference (both absolute:
    the wider colour difference); E.3 alternate to the most recent round in which
    they had different colours; E.4 grant the higher ranked player's preference;
    E.5 the higher ranked player gets the initial colour if his pairing number is
    odd, the other one if even. As bbpPairings, E.3 compares the two players'
    played games backwards in step (unplayed rounds skipped on each side). ``initial``
    is the initial colour, drawn by lot before round 1 (E.5).
    """
    neutral = neutral_colour(player, opponent)
    if neutral is not None:
        return neutral
    player_higher = (player.score, -player.rank) > (opponent.score, -opponent.rank)
    if player.preference is None:
        if not player_higher:
            return initial if opponent.rank % 2 else _invert(initial)
        return _invert(initial) if player.rank % 2 else initial
    if not player_higher:
        assert opponent.preference is not None
        return _invert(opponent.preference)
    return player.preference


def neutral_colour(player: _Player, opponent: _Player) -> str | None:
    """E.1-E.3; None when they do not decide."""
    p, o = player.preference, opponent.preference
    if p != o or p is None or o is None:
        if p is not None:
            return p
        if o is not None:
            return _invert(o)
        return None
    if player.absolute and (player.imbalance > opponent.imbalance or not opponent.absolute):
        return p
    if opponent.absolute and (opponent.imbalance > player.imbalance or not player.absolute):
        return _invert(o)
    if player.strong and not opponent.strong:
        return p
    if opponent.strong and not player.strong:
        return _invert(o)
    mine, theirs = player.colours[::-1], opponent.colours[::-1]
    for a, b in zip(mine, theirs, strict=False):
        if a != b:
            return b
    return None
