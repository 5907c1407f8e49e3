"""What the site shows for a Diplomacy event: power statistics, awards, the final's top
seven, each player's games, and a seat's score on round pages (plain tables, no HTML)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from standgen.diplomacy.games import game_scores, is_board
from standgen.diplomacy.mcs import McsTable, mcs_table
from standgen.diplomacy.options import options_of, system_of
from standgen.diplomacy.points import (
    counting_weights,
    game_score_lines,
    game_weights,
    seat_points,
)
from standgen.diplomacy.scoring import DRAW, ELIMINATED, POWERS, SOLO
from standgen.formats.diplomacy import DIPLOMACY
from standgen.memo import Memo
from standgen.model import Event, EventConfig, Game, Seat
from standgen.site.formats.base import FormatViews
from standgen.site.i18n import decimal
from standgen.site.i18n import gettext as said
from standgen.tables import Cell, Page, Table

if TYPE_CHECKING:
    from standgen.pipeline import EventReport

SCORE_SHORT = DIPLOMACY.score_short
T = TypeVar("T")


def _num(value: float) -> str:
    rounded = round(value, 2)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.2f}".rstrip("0")


def _player_cell(report: EventReport, pid: str) -> Cell:
    player = report.event.player_by_id.get(pid)
    return Cell(player.name if player else pid, href=f"players/{pid}/index.html")


def _mcs(report: EventReport) -> McsTable:
    def make() -> McsTable:
        options = options_of(report.event.config)
        return mcs_table(report.event.rounds, options, int(options["final_round"]))

    return per_event("mcs", report.event, make)


_MEMO: Memo[tuple[str, int], tuple[object, Any]] = Memo(8)


def per_event(kind: str, event: Event, make: Callable[[], T]) -> T:
    """Return ``make()``, computed once per event (by identity) for all its pages: every
    player page of an MCS event shows a row of the same table (profiled: recomputing it
    made each page 14 ms). A few events are kept. The same value whether computed or
    kept: ``make`` reads only the event, which is frozen."""
    key = (kind, id(event))
    # holding the event keeps its id from being reused while it is kept
    hit = _MEMO.get(key, lambda: (event, make()))
    if hit[0] is not event:  # kept for an event gone since, whose id this one has
        hit = (event, make())
        _MEMO.put(key, hit)
    return cast(T, hit[1])


def _finished_boards(event: Event) -> list[Game]:
    return [g for r in event.rounds for g in r.games if is_board(g) and g.finished]


def power_statistics(report: EventReport) -> Sequence[Page]:
    """Return the power statistics page: games, solos, draws, eliminations, aveT per power.

    Seed 001 step 2: "Find the average of T for each power - aveT = T/g".
    """
    event = report.event
    system = system_of(event.config)
    options = options_of(event.config)
    averages = _mcs(report).powers
    rows: list[tuple[Cell, ...]] = []
    boards = _finished_boards(event)
    for power in POWERS:
        seats = [(g, s) for g in boards for s in g.seats if s.power == power]
        games = len(seats)
        centres = sum(s.stats.get("centres", 0.0) for _, s in seats)
        score = sum(game_scores(g, system, options)[s.player] for g, s in seats)
        rows.append((
            Cell(power), Cell(str(games), numeric=True),
            Cell(str(sum(1 for _, s in seats if s.result == SOLO)), numeric=True),
            Cell(str(sum(1 for _, s in seats if s.result == DRAW)), numeric=True),
            Cell(str(sum(1 for _, s in seats if s.result == ELIMINATED)), numeric=True),
            Cell(_num(centres / games) if games else "", numeric=True),
            Cell(_num(averages[power].total), numeric=True),
            Cell(_num(averages[power].average) if games else "", numeric=True),
            *(() if system.comparative else
              (Cell(_num(score / games) if games else "", numeric=True),)),
        ))
    table = Table(
        caption="Powers over every finished board",
        headers=("Power", "Games", "Solos", "Draws", "Eliminated", "Avg centres",
                 "T (game points)", "aveT",
                 *(() if system.comparative else (f"Avg score ({system.label})",))),
        rows=tuple(rows),
        note="T: draw-size game points (solo 420, draw 420 / draw size) summed over the "
             "power's games; aveT = T / games (\"Mean Comparison Scoring system\").",
    )
    return (Page("powers", "Power statistics", (table,),
                 intro="How each power fared across the event's boards."),)


def awards(report: EventReport) -> Sequence[Table]:
    """Return the event page's tables: best result per power, and the final's top seven.

    Seed 001 section 1: "If the tournament was awarding credits for 'Best England', 'Best
    France', etc ... look at who got the best s for each power! Any ties could be split by
    how many SCs they held at the end of the game in which they played that power."
    Under other systems the best game score counts, ties split the same way; results
    still tied share the award.
    """
    event = report.event
    system = system_of(event.config)
    options = options_of(event.config)
    averages = _mcs(report).powers
    rows: list[tuple[Cell, ...]] = []
    for power in POWERS:
        results = []
        for game in _finished_boards(event):
            for seat in game.seats:
                if seat.power == power:
                    value = game_scores(game, system, options)[seat.player]
                    if system.comparative:
                        value -= averages[power].average
                    results.append((value, seat.stats.get("centres", 0.0), game, seat))
        if not results:
            continue
        top = max((v, c) for v, c, _, _ in results)
        for value, centres, game, seat in sorted(results, key=lambda r: (r[2].round, r[2].table)):
            if (round(value, 9), centres) == (round(top[0], 9), top[1]):
                rows.append((Cell(said("Best {power}").format(power=power)),
                             _player_cell(report, seat.player),
                             Cell(said("Round {number}, board {table}").format(
                                 number=game.round, table=game.table)),
                             Cell(_num(centres), numeric=True), Cell(_num(value), numeric=True)))
    measure = "s" if system.comparative else "Score"
    tables = [Table("Best result per power", ("Award", "Player", "Game", "Centres", measure),
                    tuple(rows), note=said(
                        "Best {measure} with that power; ties split by the centres held in "
                        "that game (\"Mean Comparison Scoring system\"); still tied: shared."
                    ).format(measure=said(measure)))]
    final = final_table(report)
    if final is not None:
        tables.insert(0, final)
    return tuple(tables)


def final_table(report: EventReport) -> Table | None:
    """Return the finalists' own top-seven table, or None when no final has been played.

    Seed 001: "If the player managed to qualify for the final ... they could still win
    the tournament by winning the game"; "the player in the final that ended on the
    highest number of points across the tournament declared the winner"; "The entrants
    who played in the final would have a separate top seven table for themselves".
    """
    event = report.event
    final_round = int(options_of(event.config)["final_round"])
    final = next((g for r in event.rounds if r.number == final_round for g in r.games
                  if g.table == 1 and is_board(g) and g.finished), None)
    if final is None:
        return None
    scores = report.standings.context.scores
    order = sorted(final.seats, key=lambda s: (s.result != SOLO, -scores.get(s.player, 0.0),
                                               s.player))
    rows = tuple(
        (Cell(str(k), numeric=True), _player_cell(report, seat.player), Cell(seat.power),
         Cell(said(seat.result)), Cell(_num(scores.get(seat.player, 0.0)), numeric=True))
        for k, seat in enumerate(order, start=1)
    )
    return Table("Final board: the top seven", ("Place", "Player", "Power", "Result",
                                                SCORE_SHORT), rows,
                 note="A solo on the final board wins the event; otherwise the finalist "
                      "with the most points does. Finalists rank above every other player.")


def player_games(report: EventReport, player: str) -> Sequence[Table]:
    """Return the player page's game table: p, aveT and s per game under MCS (seed 001),
    the game score and whether it counts under the other systems."""
    event = report.event
    system = system_of(event.config)
    if system.comparative:
        table = _mcs(report)
        lines = [g for g in table.games if g.player == player]
        rows = tuple(
            (Cell(str(g.round), numeric=True), Cell(str(g.table), numeric=True), Cell(g.power),
             Cell(str(g.centres), numeric=True), Cell(_num(g.p), numeric=True),
             Cell(_num(g.ave_t), numeric=True),
             Cell(_num(g.s) + (said(" (x2, final)") if g.weight == 2 else ""), numeric=True))
            for g in lines
        )
        score = table.players.get(player)
        note = (said("No finished game yet.") if score is None else
                decimal(f"Sc = {_num(score.sc)}; R = {score.rounds}; {said('Pts')} = Sc / R = "
                        f"{_num(score.pts)}"))
        return (Table("Mean Comparison Scoring, game by game",
                      ("Round", "Board", "Power", "Centres", "p", "aveT", "s"), rows,
                      note=note),)
    scores = per_event("scores", event, lambda: game_score_lines(event, None))
    weights = per_event("weights", event, lambda: game_weights(event, scores))
    ladder = counting_weights(options_of(event.config))
    rows_other: list[tuple[Cell, ...]] = []
    for key in sorted(k for k in scores if k[2] == player):
        game = next(g for r in event.rounds if r.number == key[0] for g in r.games
                    if g.table == key[1])
        seat = game.seat_of(player)
        on_board = is_board(game)
        rows_other.append((
            Cell(str(key[0]), numeric=True), Cell(str(key[1]) if on_board else "", numeric=True),
            Cell(seat.power if on_board else said("sat out")),
            Cell(_num(seat.stats.get("centres", 0.0)) if on_board else "", numeric=True),
            Cell(said(seat.result) if on_board else ""), Cell(_num(scores[key]), numeric=True),
            Cell(_counted(weights.get(key, 1.0))),
        ))
    return (Table(said("{system}, game by game").format(system=said(system.label)),
                  ("Round", "Board", "Power", "Centres", "Result", "Score", "Counted"),
                  tuple(rows_other),
                  note=_counting_note(ladder)),)


def _counted(weight: float) -> str:
    """Return the Counted cell: yes (once), no, or the weight (x0.8, x2)."""
    if weight == 1:
        return said("yes")
    return said("no") if weight == 0 else f"x{_num(weight)}"


def _counting_note(ladder: Sequence[float] | None) -> str:
    """Return which games count, in words."""
    if ladder is None:
        return said("Every game counts.")
    if all(w == 1 for w in ladder):
        return said("The best {number} games count.").format(number=len(ladder))
    return said("The best games count with the weights {weights}, best first; the others do "
                "not count.").format(weights=", ".join(_num(w) for w in ladder))


def seat_cells(game: Game, seat: Seat, config: EventConfig) -> Sequence[str]:
    """Return a seat's game score for the round page (MCS: the game points p)."""
    if not game.finished:
        return ("",)
    return (_num(seat_points(seat, game, config)),)


VIEWS = FormatViews(event_tables=awards, player_tables=player_games, pages=power_statistics,
                    seat_headers=("Score",), seat_cells=seat_cells)
