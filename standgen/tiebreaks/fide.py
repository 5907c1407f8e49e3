"""FIDE C.07 article 16: unplayed rounds in tie-breaks, as a :class:`TiebreakPolicy`.

A format that ranks by FIDE's tie-break regulations uses :data:`FIDE_POLICY`. The
edition comes from the event's ``[options] fide_edition`` (``"2023"`` or ``"2026"``),
default the policy's (the newer). What it does:

- forfeits are unplayed rounds (art. 16): the forfeit's opponent is not an opponent;
- a round a player is missing from (withdrawn) is a voluntary unplayed round scoring 0;
- an opponent's score is adjusted (art. 16.3): the requested byes and absences after
  their last round that was not voluntary (a withdrawal, a bye in the last round)
  count as draws;
- a player's own unplayed round counts for Buchholz and Sonneborn-Berger as a game
  against a dummy opponent with the player's own score (art. 16.4); the 2026 amendment
  caps it: for a forfeit at the scheduled opponent's adjusted score, otherwise at a
  draw in every round of the event;
- low cuts take voluntary unplayed rounds first (art. 16.5).

A round robin (pre-determined pairings) uses :func:`round_robin_policy` instead: art.
15.2 treats its forfeits as regular games, except in the rating-based tie-breaks (art.
10: ARO and TPR count games played over the board only) and for forfeit losses in the
Type B tie-breaks of art. 7 (WIN counts rounds scored as a win, WON games won over the
board: neither reads a forfeit loss).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from standgen.model import Event, GameKind, Outcome
from standgen.tiebreaks.base import Context, Part, TiebreakPolicy, Value

if TYPE_CHECKING:
    from standgen.records import Entry

EDITIONS = ("2023", "2026")
DEFAULT_EDITION = "2026"


def edition_of(event: Event, default: str = DEFAULT_EDITION) -> str:
    """Return the event's FIDE C.07 edition: ``[options] fide_edition`` or ``default``.

    An integer (``fide_edition = 2023``) is accepted; an unknown edition falls back to
    ``default`` (a format validating its options reports it first).
    """
    chosen = str(event.config.options.get("fide_edition", default))
    return chosen if chosen in EDITIONS else default


def adjusted_score(ctx: Context, player: str) -> Value:
    """Return a player's score as their opponents' tie-breaks read it.

    FIDE C.07 art. 16.3: every round counts the points it gave, except the unplayed
    rounds without an opponent (requested byes, absences, a withdrawal's rounds) after
    the player's last round that was not voluntary: those count as draws.
    """
    rounds = _adjusted_rounds(ctx, player)
    draw = ctx.policy.draw_points

    def parts() -> list[Part]:
        return [Part(e.round, None, draw, note=f"{_name(e)} after the last round played: a draw")
                if drawn else Part(e.round, e.opponent, e.points) for e, drawn in rounds]

    return Value(_total(rounds, draw), build=parts)


def _adjusted_rounds(ctx: Context, player: str) -> list[tuple[Entry, bool]]:
    """Return each of the player's rounds and whether art. 16.3 counts it as a draw."""
    entries = ctx.entries(player)
    voluntary = ctx.policy.voluntary
    last = max((e.round for e in entries if not voluntary(e)), default=0)
    return [(e, e.round > last and not e.opponents) for e in entries]


def _name(entry: Entry) -> str:
    return "withdrawn" if entry.seat.result == "withdrawn" else entry.kind.value


def opponent_score(ctx: Context, opponent: str) -> float:
    """Return an opponent's adjusted score (art. 16.3), computed once per context."""
    return ctx.shared("fide-adjusted-score", opponent, _adjusted_total)


def _adjusted_total(ctx: Context, player: str) -> float:
    """Return ``adjusted_score(ctx, player).value``, without making its breakdown."""
    return _total(_adjusted_rounds(ctx, player), ctx.policy.draw_points)


def _total(rounds: list[tuple[Entry, bool]], draw: float) -> float:
    return sum(draw if drawn else e.points for e, drawn in rounds)


def dummy_score(ctx: Context, player: str, entry: Entry) -> float:
    """Return the score of the dummy opponent of an unplayed round.

    FIDE C.07 art. 16.4 (2023): the participant's own score. The 2026 amendment caps it
    at the scheduled opponent's adjusted score for a forfeit (16.4.1), otherwise at the
    points of a draw times the rounds of the event (16.4.2).
    """
    own = ctx.score(player)
    if edition_of(ctx.event, ctx.policy.edition) == "2023":
        return own
    if entry.kind is GameKind.FORFEIT and entry.opponent is not None:
        return min(own, opponent_score(ctx, entry.opponent))
    return min(own, ctx.policy.draw_points * max(ctx.planned_rounds, ctx.rounds_counted))


FIDE_POLICY = TiebreakPolicy(
    bye_is_opponent=False,
    forfeit_is_opponent=False,
    dummy_opponent=True,
    unplayed_opponent_score=dummy_score,
    opponent_score=opponent_score,
    cut_unplayed_first=True,
    missing_rounds_unplayed=True,
    edition=DEFAULT_EDITION,
    win_points=1.0,
    draw_points=0.5,
    share_from_points=True,
)


def round_robin_voluntary(entry: Entry) -> bool:
    """Return whether a round robin's round is a voluntary unplayed round.

    FIDE C.07 art. 15.2: with pre-determined pairings a forfeit is a regular game, so a
    forfeit loss is not voluntary; a requested bye or a withdrawal's rounds (outside art.
    15.2, which knows no other unplayed round) stay voluntary as in a Swiss (art. 16.1).
    """
    return entry.kind is GameKind.ABSENT and entry.outcome is not Outcome.WIN


def round_robin_policy(policy: TiebreakPolicy = FIDE_POLICY) -> TiebreakPolicy:
    """Return the FIDE ``policy`` for a tournament with pre-determined pairings.

    FIDE C.07 art. 15.2: "In tournaments with pre-determined pairings, forfeit wins or
    losses (the only possible unplayed rounds) are treated as regular games or matches,
    except that all forfeits in ratings-based tie-breaks (see Article 10) and forfeit
    losses in Type B tie-breaks (see Article 7) remain unplayed rounds." So a forfeit's
    scheduled opponent is an opponent for Buchholz, Sonneborn-Berger, Koya and direct
    encounter (art. 6.1.1 excludes only forfeits "not covered by Article 15.2"), and a
    forfeit loss is no voluntary unplayed round for the cuts. ARO and TPR read games
    played over the board whatever the policy, and so does WON (7.2, "games won over
    the board"). Byes (an odd field) and withdrawals keep article 16's treatment.
    """
    return replace(policy, forfeit_is_opponent=True, voluntary=round_robin_voluntary)


def fide_policy(edition: str = DEFAULT_EDITION) -> TiebreakPolicy:
    """Return the FIDE policy whose default edition is ``edition`` (an event option wins)."""
    if edition not in EDITIONS:
        raise ValueError(f"unknown FIDE C.07 edition {edition!r}; use one of {EDITIONS}")
    return replace(FIDE_POLICY, edition=edition)
