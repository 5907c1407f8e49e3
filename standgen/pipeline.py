"""The pipeline between the two I/O ends: model -> standings -> next-round proposal.

``load`` reads the events tree; :func:`report` computes everything a page shows;
``site`` renders it. Nothing here reads or writes files.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from standgen import armylists, clock, perf, privacy
from standgen.diplomacy.games import ABSENT as ABSENT_RESULT
from standgen.model import EMPTY, Event, EventsTree, Outcome, Proposal, Round, Seat
from standgen.pairing.common import with_requested_byes
from standgen.stages.progress import pair_cut_round
from standgen.standings import (
    Standings,
    compute_standings,
    cut_state,
    format_of,
    pairing_input,
)


@dataclass(frozen=True)
class EventReport:
    """An event's standings now, after each complete round, and its proposed next round."""

    event: Event
    standings: Standings  # every finished game counted
    by_round: tuple[Standings, ...]  # standings after round 1, 2, ... (complete rounds)
    proposal: Proposal | None  # the next round, when one is due and no round file exists
    # the report as the site shows it when a player is not published in full
    # (docs/privacy.md): published ids and names, no hidden club, rating or rank
    public_report: EventReport | None = None

    @property
    def public(self) -> EventReport:
        """Return the report the site renders: every published page, file and summary
        reads this one, never the report itself."""
        return self.public_report if self.public_report is not None else self


def next_round_number(event: Event, standings: Standings) -> int | None:
    """Return the round to pair next, or None (a round is in progress, or the event is over)."""
    if event.rounds and not event.rounds[-1].finished:
        return None
    if standings.finished:
        return None
    return (event.rounds[-1].number if event.rounds else 0) + 1


def propose(event: Event, standings: Standings) -> Proposal | None:
    """Return the proposed next round, or None when none is due or the event keeps it
    off the site until the TO pairs it (``[options] publish_next = false``)."""
    number = next_round_number(event, standings)
    if number is None or event.config.options.get("publish_next", True) is False:
        return None
    if event.config.teams.matches:  # the captains draft the games (docs/teams.md)
        return None
    return pair_round(event, standings, number)


def pair_round(event: Event, standings: Standings, number: int) -> Proposal:
    """Return round ``number`` as the event pairs it: the format's rule, or Berger tables
    when ``[options] pairing = "round-robin"`` (FIDE C.05 Annex 1); players who asked for
    a bye in it (players.csv ``byes``) are left out and get an ABSENT row (issue #19;
    not in a round robin, whose tables are fixed)."""
    fmt = format_of(event)
    state = cut_state(event) if number > 1 else None
    if state is not None and number > state.after_round:
        return pair_cut_round(event, state, number)  # issue #31: the cut after the Swiss
    proposed = fmt.pair(event, pairing_input(standings), number)
    if fmt.round_robin:
        return proposed
    absent = (Seat("", Outcome.LOSS, result=ABSENT_RESULT) if fmt.seats > 2
              else Seat("", fmt.requested_bye or fmt.absent_outcome))
    return with_requested_byes(event, proposed, absent)


def report(event: Event) -> EventReport:
    """Return everything the site shows for one event; with its published form as
    :attr:`EventReport.public` when a player is not published in full (docs/privacy.md)
    or the army lists are not public yet (``lists_public``, at :func:`clock.now`)."""
    made = _report(event)
    lists = armylists.lists_shown(event, clock.now())
    found = privacy.masks(event)
    if found is None:
        if lists:
            return made
        held = _without_lists(event)
        return replace(made, public_report=EventReport(
            held, _shown(made.standings, held), tuple(_shown(s, held) for s in made.by_round),
            made.proposal))
    computing, shown = privacy.masked_events(event, found)
    if not lists:
        computing, shown = _without_lists(computing), _without_lists(shown)
    inner = _report(computing, privacy.masked_proposal(made.proposal, event, found))
    public = EventReport(shown, _shown(inner.standings, shown),
                         tuple(_shown(s, shown) for s in inner.by_round), inner.proposal)
    return replace(made, public_report=public)


def _without_lists(event: Event) -> Event:
    """Return the event without its army lists and list-check states (not public yet)."""
    return replace(event, lists=EMPTY,
                   players=tuple(replace(p, list_check="") for p in event.players))


def _shown(standings: Standings, shown: Event) -> Standings:
    """Return standings computed from the masked event with the site's copy of each
    player (no hidden rating or rank) and of the event."""
    players = shown.player_by_id
    rows = tuple(replace(row, player=players[row.player.id]) for row in standings.rows)
    return replace(standings, event=shown, rows=rows)


_NOT_GIVEN = Proposal(Round(0, ()))


def _report(event: Event, proposal: Proposal | None = _NOT_GIVEN) -> EventReport:
    """Return the event's report; ``proposal``, when given, instead of its own."""
    standings = compute_standings(event, fast=perf.enabled())
    last = event.rounds[-1].number if event.rounds else 0
    by_round = tuple(
        # after the last round the standings are those over every game
        standings if r.number == last and perf.enabled()
        else compute_standings(event, upto=r.number, fast=perf.enabled())
        for r in event.rounds if r.finished
    )
    return EventReport(event, standings, by_round,
                       propose(event, standings) if proposal is _NOT_GIVEN else proposal)


def reports(tree: EventsTree) -> tuple[EventReport, ...]:
    """Return the report of every event in the tree, in tree order."""
    return tuple(report(event) for event in tree.events)
