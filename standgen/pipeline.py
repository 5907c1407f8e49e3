"""The pipeline between the two I/O ends: model -> standings -> next-round proposal.

``load`` reads the events tree; :func:`report` computes everything a page shows;
``site`` renders it. Nothing here reads or writes files.
"""

from __future__ import annotations

from dataclasses import dataclass

from standgen import perf
from standgen.diplomacy.games import ABSENT as ABSENT_RESULT
from standgen.model import Event, EventsTree, Outcome, Proposal, Seat
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
    """Return everything the site shows for one event."""
    standings = compute_standings(event, fast=perf.enabled())
    last = event.rounds[-1].number if event.rounds else 0
    by_round = tuple(
        # after the last round the standings are those over every game
        standings if r.number == last and perf.enabled()
        else compute_standings(event, upto=r.number, fast=perf.enabled())
        for r in event.rounds if r.finished
    )
    return EventReport(event, standings, by_round, propose(event, standings))


def reports(tree: EventsTree) -> tuple[EventReport, ...]:
    """Return the report of every event in the tree, in tree order."""
    return tuple(report(event) for event in tree.events)
