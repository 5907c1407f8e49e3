"""The tiebreak lab: the same results ranked under several tiebreak chains, side by side.

Issue 3 item 4. Each chain re-ranks the event's standings with
:func:`standgen.standings.rerank` (the event with its ``tiebreaks`` replaced); the page
shows each player's rank under every chain and how far they move against the event's own
chain.
"""

from __future__ import annotations

from dataclasses import dataclass

from standgen.model import Event
from standgen.pipeline import EventReport
from standgen.site.contexts import shown_names_of
from standgen.standings import format_of, rerank, tiebreak_chain
from standgen.tables import Cell, Page, Table
from standgen.tiebreaks import TIEBREAKS


@dataclass(frozen=True)
class Chain:
    """A tiebreak chain the lab compares: a column heading, what it is, its ids."""

    heading: str
    about: str
    tiebreaks: tuple[str, ...]


def _first(first: str, default: tuple[str, ...]) -> tuple[str, ...]:
    return (first, *(t for t in default if t != first))


def lab_chains(event: Event) -> tuple[Chain, ...]:
    """Return the chains the lab compares: the event's own first, then the alternatives.

    SoS first; seed 000's proposal (cumulative score, then cumulative SoS); SODOS first
    (seed 003's discussion); Buchholz cut-1 first (FIDE C.07 art. 14.1); then the
    format's own (``Format.lab_swaps``: for Steamroller, seed 000's large-event SoS in
    place of SoS, "Large events often use sos-large instead of sos": a dropped opponent
    counts 1 TP over the total games).
    Each alternative keeps the event's other tiebreaks behind its first one.
    """
    default = tiebreak_chain(event)
    chains: tuple[Chain, ...] = (
        Chain("Default", "the event's own chain", default),
        Chain("SoS first", "strength of schedule first", _first("sos", default)),
        Chain("Cumulative", "the proposal of \"Life Isn't Fair to Losers\": cumulative "
              "score, then cumulative SoS",
              ("cumulative", "cumulative-sos")),
        Chain("SODOS first", "sum of defeated opponents' scores first",
              _first("sodos", default)),
        Chain("Cut-1 first", "Buchholz cut-1 first", _first("sos-cut1", default)),
    )
    chains += tuple(Chain(swap.label, swap.doc, _instead(swap.old, swap.new, default))
                    for swap in format_of(event).lab_swaps)
    return chains


def _instead(old: str, new: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """Return ``default`` with ``old`` replaced by ``new``; ``new`` first if ``old`` is absent."""
    if old not in default:
        return _first(new, default)
    return tuple(new if t == old else t for t in default if t != new)


def _moved(rank: int, default: int) -> str:
    if rank < default:
        return f"{rank} ▲{default - rank}"
    if rank > default:
        return f"{rank} ▼{rank - default}"
    return str(rank)


def _score(value: float) -> str:
    return f"{value:g}"


def lab_page(report: EventReport) -> Page:
    """Return the "Tiebreak lab" page: ranks under each chain, moves against the default.

    Rows follow the default standings; a chain's cell is the rank with ▲ / ▼ and the
    places gained or lost; players who move under any chain link to their page.
    """
    event = report.event
    chains = lab_chains(event)
    default = report.standings
    ranks: list[dict[str, int]] = [{row.player.id: row.rank for row in default.rows}]
    for chain in chains[1:]:
        standings = rerank(default, chain.tiebreaks)
        ranks.append({row.player.id: row.rank for row in standings.rows})
    rows: list[tuple[Cell, ...]] = []
    moved_count = 0
    names = shown_names_of(event)
    for row in default.rows:
        pid = row.player.id
        mine = [r[pid] for r in ranks]
        moved = any(rank != mine[0] for rank in mine)
        moved_count += moved
        name = Cell(names.get(pid, row.player.name), href=f"players/{pid}/index.html")
        cells = [name, Cell(_score(row.score), numeric=True)]
        cells.extend(Cell(_moved(rank, mine[0]), numeric=True) for rank in mine)
        rows.append(tuple(cells))
    ranking = Table(
        caption="Rank under each tiebreak chain",
        headers=("Player", default.format.score_short, *(c.heading for c in chains)),
        rows=tuple(rows),
        note=(f"{moved_count} of {len(rows)} players move under some chain. ▲ places gained, "
              "▼ places lost against the default chain. Each name links to the player's page."),
    )
    legend = Table(
        caption="Chains compared",
        headers=("Chain", "What it is", "Tiebreaks in order"),
        rows=tuple(
            (Cell(c.heading), Cell(c.about),
             Cell(", ".join(TIEBREAKS[t].label for t in c.tiebreaks) or "score only"))
            for c in chains
        ),
    )
    intro = ("The same results ranked under several tiebreak chains. Players level on "
             f"{default.format.score_label.lower()} are ordered by each chain in turn; "
             "the event's standings use the default chain.")
    return Page(slug="lab", title="Tiebreak lab", tables=(ranking, legend), intro=intro)
