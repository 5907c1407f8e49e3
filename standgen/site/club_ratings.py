"""The club's rating pages (issue #20): the rating list of the site and of each season,
and each player's rating history, with the JSON beside each.

A season's list rates the season's own events from the start (every player at the
package's default rating); the site's list and the players' pages rate every event.
Sources: OpenSkill (openskill.py documentation: ``PlackettLuce``, ``ordinal``), FIDE
Rating Regulations B.02 (art. 8.3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from markupsafe import Markup

from standgen.clubs.seat_digest import RatedSeats, rated_games, rated_seats
from standgen.clubs.summary import ClubEvent, ClubTables, Seat, ordinal
from standgen.formats import FORMATS
from standgen.site import links
from standgen.site.club_charts import RatingPoint, rating_chart
from standgen.site.club_rows import games_html, rows_html
from standgen.site.club_scopes import (
    MODEL,
    Scope,
    crumbs,
    formats_played,
    json_beside,
    meta_path,
    player_ratings_path,
    ratings_path,
    rows_of,
    signed,
)
from standgen.site.contexts import Frame, Link, Site, frame
from standgen.site.history import history_page_path
from standgen.site.i18n import _, decimal
from standgen.site.numbers import display_number, json_number

if TYPE_CHECKING:  # pandas loads for the tidy table's reference path, not with a build
    import pandas as pd

    from standgen.clubs.data import ClubData

# ----- the rating list ----------------------------------------------------------------------

class RatingRow(NamedTuple):
    """A player in a rating list (a named tuple, not a dataclass: the site's and each
    season's lists, thousands of rows, are made again after each result, and a tuple is
    made in a fifth of the time)."""

    rank: int
    id: str
    player: Link  # their history page
    rating: float
    mu: float
    sigma: float
    games: int
    last: str  # the date of their last rated game
    last_event: str  # the event they were last rated in
    last_change: float  # their rating's change over that event
    fide_rating: float | None
    fide_change: float | None
    shown: str = ""  # the name told apart from another player's of the same name

    @property
    def rating_text(self) -> str:
        return f"{self.rating:.2f}"

    @property
    def change_text(self) -> str:
        return signed(self.last_change)

    @property
    def fide_text(self) -> str:
        return "" if self.fide_rating is None else display_number(self.fide_rating)

    @property
    def fide_change_text(self) -> str:
        return "" if self.fide_change is None else signed(self.fide_change, 1)


@dataclass(frozen=True)
class FormatList:
    """The rating list of one format: its players rated over its games only."""

    id: str
    label: str
    rows: tuple[RatingRow, ...]
    fide: bool  # some player has a FIDE rating change: show the FIDE columns
    html: Markup | None = None  # the rows as the template writes them (Site.fast), or None


@dataclass(frozen=True)
class RatingListPage:
    """A scope's rating list, best first, with links to the scope's meta pages.

    The page shows one list per format (``by_format``: a Go rating and a Steamroller
    rating do not rank players against each other); ``rows``, every game rated together,
    is ``ratings.json``'s list.
    """

    frame: Frame
    scope: str
    rows: tuple[RatingRow, ...]
    fide: bool  # some player has a FIDE rating change: show the FIDE columns
    meta: tuple[Link, ...]
    json: str
    model: str = MODEL
    by_format: tuple[FormatList, ...] = ()
    # ratings.json's rows written already, a line each (a list made from the rows the last
    # build wrote, :mod:`standgen.site.club_splice`; ``rows`` is then empty), or None
    json_rows: tuple[str, ...] | None = None


class Spliced(NamedTuple):
    """A list made from the rows the last build wrote (:mod:`standgen.site.club_splice`):
    a format's ``<tr>`` rows, or the lines of ``ratings.json``; whether a player of the
    list has a FIDE change."""

    html: Markup | None
    json: tuple[str, ...] | None
    fide: bool


def _rating_rows(page: Frame, data: ClubData) -> tuple[RatingRow, ...]:
    """Return the rating list of ``data``'s games, strongest first."""
    listing, changes = data.ratings
    last = _last_events(changes)
    fide = _fide_by_player(data.games)
    rows = []
    lines = list(rows_of(listing, "player name rating mu sigma games last"))
    seen = Counter(str(line.name) for line in lines)
    for rank, line in enumerate(lines, start=1):
        pid = str(line.player)
        event, change = last.get(pid, ("", 0.0))
        rating, fide_change = fide.get(pid, (None, None))
        shown = "" if seen[str(line.name)] == 1 else f"{line.name} ({pid})"
        rows.append(RatingRow(rank, pid, Link(str(line.name), page.href(history_page_path(pid))),
                              float(line.rating), float(line.mu), float(line.sigma),
                              int(line.games), str(line.last), event, change, rating,
                              fide_change, shown))
    return tuple(rows)


def rating_list_page(site: Site, club: ClubData, scope: Scope) -> RatingListPage:
    """Return the rating list of ``scope``: OpenSkill over the scope's rated games, and
    one list per format over that format's games."""
    from standgen.clubs.data import ClubData as Data  # pandas: the reference path only

    data = club.within(scope.path)

    def rows_for(page: Frame, fmt: str) -> tuple[RatingRow, ...]:
        if not fmt:
            return _rating_rows(page, data)
        games = data.games[data.games["format"] == fmt]
        return _rating_rows(page, Data(games, data.opted_out, data.fast, data.people))

    return _list_page(site, scope, formats_played(data.games), rows_for)


def rating_list_page_of(site: Site, tables: ClubTables, scope: Scope,
                        kept: Callable[[str], KeptRows | None] | None = None,
                        splice: Callable[[Frame, str, dict[str, str]], Spliced | None]
                        | None = None) -> RatingListPage:
    """Return :func:`rating_list_page` from the events' summaries
    (:class:`standgen.clubs.summary.ClubTables`): the same page, without the tidy table.

    ``kept(format)`` gives a format's list as the last build wrote it, when none of the
    scope's events of that format changed since
    (:func:`standgen.site.club_splice.kept_lists`; None: make it).
    ``splice(page, format, links)`` makes a list from the rows the last build wrote
    (:func:`standgen.site.club_splice.spliced_rows`; None: make it in full)."""
    hrefs: dict[str, str] = {}  # a player's link, the same in each list of the page
    return _list_page(site, scope, tables.formats(scope.path),
                      lambda page, fmt: _rating_rows_of(page, tables, scope.path, fmt, hrefs),
                      kept, None if splice is None else
                      lambda page, fmt: splice(page, fmt, hrefs))


def _list_page(site: Site, scope: Scope, played: Sequence[str],
               rows_for: Callable[[Frame, str], tuple[RatingRow, ...]],
               kept: Callable[[str], KeptRows | None] | None = None,
               splice: Callable[[Frame, str], Spliced | None] | None = None
               ) -> RatingListPage:
    """Return the rating list page of ``scope`` from ``rows_for(page, format)``: the list
    of every game (format ``""``) and one list per format ``played`` (the list of
    ``kept(format)`` when it gives one, else of ``splice(page, format)``)."""
    path = ratings_path(scope.path)
    page = frame(path, _("{name} · ratings").format(name=_(scope.name)), "ratings",
                 crumbs(scope, site))
    spliced = None if splice is None else splice(page, "")
    rows = rows_for(page, "") if spliced is None else ()
    by_format = [found for found in (_format_list(site, page, fmt, rows_for, kept, splice)
                                     for fmt in played) if found is not None]
    meta = tuple(Link(FORMATS[f].label if f in FORMATS else f,
                      page.href(meta_path(scope.path, f))) for f in played)
    return RatingListPage(page, scope.name, rows,
                          any(r.fide_change is not None for r in rows) if spliced is None
                          else spliced.fide, meta,
                          page.href(json_beside(path, "ratings.json")),
                          by_format=tuple(by_format),
                          json_rows=None if spliced is None else spliced.json)


def _format_list(site: Site, page: Frame, fmt: str,
                 rows_for: Callable[[Frame, str], tuple[RatingRow, ...]],
                 kept: Callable[[str], KeptRows | None] | None,
                 splice: Callable[[Frame, str], Spliced | None] | None = None
                 ) -> FormatList | None:
    """Return the list of the format ``fmt`` on a rating list page (None: no rows)."""
    label = FORMATS[fmt].label if fmt in FORMATS else fmt
    was = kept(fmt) if kept is not None else None
    if was is not None:  # its rows as they were: not read again (``rows`` empty)
        return FormatList(fmt, label, (), was.fide, was.html)
    spliced = None if splice is None else splice(page, fmt)
    if spliced is not None and spliced.html is not None:  # the old rows, places put right
        return FormatList(fmt, label, (), spliced.fide, spliced.html)
    found = rows_for(page, fmt)
    if not found:
        return None
    fide = any(r.fide_change is not None for r in found)
    return FormatList(fmt, label, found, fide, rows_html(found, fide) if site.fast else None)


def _rating_rows_of(page: Frame, tables: ClubTables, scope: Sequence[str], fmt: str = "",
                    hrefs: dict[str, str] | None = None, only: Collection[str] | None = None
                    ) -> tuple[RatingRow, ...]:
    """Return :func:`_rating_rows` from the events' summaries: the scope's list (of the
    format ``fmt``'s games alone, when given), strongest first (``hrefs``: the links to
    players' pages made so far on ``page``, added to; ``only``: the rows of those
    players alone, at their places in the whole list)."""
    hrefs = {} if hrefs is None else hrefs
    fide = tables.fide(scope, fmt)
    listing = tables.ratings(scope, fmt).listing
    seen = Counter(line.name for line in listing)
    rows = []
    for rank, line in enumerate(listing, start=1):
        pid = line.player
        if only is not None and pid not in only:
            continue
        rating, fide_change = fide.get(pid, (None, None))
        shown = "" if seen[line.name] == 1 else f"{line.name} ({pid})"
        href = hrefs.get(pid)
        if href is None:
            href = hrefs[pid] = page.href(history_page_path(pid))
        rows.append(RatingRow(rank, pid, Link(line.name, href),
                              line.rating, line.mu, line.sigma, line.games, line.last,
                              line.last_event, line.last_change, rating, fide_change, shown))
    return tuple(rows)


def _last_events(changes: pd.DataFrame) -> dict[str, tuple[str, float]]:
    """Return each player's last rated event and their rating's change over it."""
    found: dict[str, tuple[str, float, float]] = {}  # player -> event, first before, after
    for event, player, before, after in zip(changes["event"].tolist(),
                                            changes["player"].tolist(),
                                            changes["before"].tolist(),
                                            changes["after"].tolist(), strict=True):
        seen = found.get(player)
        if seen is None or seen[0] != event:
            found[player] = (event, before, after)
        else:
            found[player] = (event, seen[1], after)
    return {p: (e, round(after - before, 2)) for p, (e, before, after) in found.items()}


def _fide_by_player(games: pd.DataFrame) -> dict[str, tuple[float | None, float | None]]:
    """Return each chess player's newest FIDE rating and the sum of their FIDE rating
    changes (FIDE B.02 art. 8.3) over ``games``."""
    rated = games[games["fide_change"].notna()]
    if rated.empty:
        return {}
    ordered = rated.sort_values(["date", "event", "round"], kind="stable")
    newest = ordered.groupby("player", sort=True)["rating"].last()
    total = ordered.groupby("player", sort=True)["fide_change"].sum()
    return {str(p): (float(newest[p]), round(float(total[p]), 1)) for p in newest.index}


def rating_list_document(page: RatingListPage, rows: bool = True) -> dict[str, Any]:
    """Return ``ratings.json`` of a rating list: the rows of the page, as numbers (an
    empty list without ``rows``: :func:`standgen.site.club_json.rating_list_json`)."""
    return {
        "scope": page.scope,
        "model": page.model,
        "ratings": [] if not rows else [
            {"rank": r.rank, "id": r.id, "name": r.player.label,
             "rating": json_number(r.rating), "mu": json_number(r.mu),
             "sigma": json_number(r.sigma), "games": r.games, "last_game": r.last,
             "last_event": r.last_event, "last_change": json_number(r.last_change),
             "fide_rating": None if r.fide_rating is None else json_number(r.fide_rating),
             "fide_change": None if r.fide_change is None else json_number(r.fide_change)}
            for r in page.rows
        ],
    }


# ----- a player's rating history ------------------------------------------------------------

class RatedGame(NamedTuple):
    """One rated game of a player: their rating before and after it (a named tuple: a
    player's page makes one per rated game, thousands at a new round)."""

    date: str
    event: Link
    round: int
    opponents: str  # names, joined with ", " (a Diplomacy board's six)
    board: bool  # more than one opponent: the names wrap
    result: str
    before: float
    after: float
    change: float
    fide_change: float | None

    @property
    def change_text(self) -> str:
        return signed(self.change)

    @property
    def fide_text(self) -> str:
        return "" if self.fide_change is None else signed(self.fide_change, 1)


@dataclass(frozen=True)
class PlayerRatingsPage:
    """A player's rating across the site: now, game by game (newest first), and a chart."""

    frame: Frame
    id: str
    name: str
    rating: str  # now, "" if never rated
    rank: str  # "3 of 40" in the site's rating list
    # every rated game, newest first (ratings.json); only the table's when the build
    # writes the page without its ratings.json (the player's place moved, no game of
    # theirs changed: nothing computed that no file shows)
    games: tuple[RatedGame, ...]
    table: tuple[RatedGame, ...]  # the newest TABLE_GAMES, the page's table
    count: int  # how many rated games the player has
    fide: bool
    chart: Markup
    history: str  # their history page
    list: str  # the site's rating list
    json: str
    # the table's rows written in Python (:func:`standgen.site.club_rows.games_html`),
    # or None: the template writes them (the reference path, not ``Site.fast``)
    table_html: Markup | None = None
    # ratings.json's lines, every rated game (``games`` then holds the table's alone),
    # made from the file the last build wrote (:mod:`standgen.site.club_splice`; its lines
    # kept as they were are one item, joined as written), or None
    json_rows: tuple[str, ...] | None = None


# a player's ratings.json lines from the file the last build wrote: id, page, rated seats
GamesJson = Callable[[str, Frame, RatedSeats], "tuple[str, ...] | None"]


def player_ratings_pages(site: Site, club: ClubData) -> Iterator[PlayerRatingsPage]:
    """Yield the rating history page of every player of every event, by id (a player
    without a rated game too, so each history page can link to its player's)."""
    listing, changes = club.ratings
    games = dict(tuple(club.games.groupby("player", sort=False)))
    rated = dict(tuple(changes.groupby("player", sort=False)))
    for pid in sorted(club.people.keys() | games.keys()):
        yield player_ratings_page(site, club, pid, (
            games.get(pid, club.games.iloc[:0]), rated.get(pid, changes.iloc[:0]), listing))


PlayerRows = tuple["pd.DataFrame", "pd.DataFrame", "pd.DataFrame"]  # games, changes, list


def player_ratings_page(site: Site, club: ClubData, pid: str,
                        rows: PlayerRows | None = None) -> PlayerRatingsPage:
    """Return player ``pid``'s rating history (``rows``: their games and rating changes
    and the site's rating list, when the caller has grouped them already)."""
    if rows is None:
        listing, everyone = club.ratings
        rows = (club.games[club.games["player"] == pid], everyone[everyone["player"] == pid],
                listing)
    games, changes, listing = rows
    ranks = listing.index[listing["player"] == pid].tolist()
    name = (str(listing.at[ranks[0], "name"]) if ranks
            else str(games["name"].iloc[-1]) if len(games) else club.people.get(pid, pid))
    page = frame(player_ratings_path(pid), _("{name} · ratings").format(name=name), "ratings",
                 [(name, history_page_path(pid))])
    rated = _rated_games(page, games, changes, club.names)
    return _player_page(page, pid, name, rated,
                        _("{rank} of {count}").format(rank=ranks[0] + 1, count=len(listing))
                        if ranks else "", fast=site.fast)


def player_ratings_pages_of(site: Site, tables: ClubTables,
                            only: Collection[str] | None = None,
                            json_for: Collection[str] | None = None,
                            games_json: GamesJson | None = None
                            ) -> Iterator[PlayerRatingsPage]:
    """Yield :func:`player_ratings_pages` from the events' summaries (only the players of
    ``only``, when given). A player not in ``json_for`` (when given) gets the games of
    the page's table alone: their ``ratings.json`` is not written, and the chart and the
    count come from the rated seats as they are; so does a player whose ``ratings.json``
    lines ``games_json(id, page, seats)`` gives (from the file the last build wrote,
    :func:`standgen.site.club_splice.spliced_games`)."""
    listing = tables.ratings(()).listing
    ranks = {line.player: (k, line.name) for k, line in enumerate(listing)}
    for pid in sorted(tables.people.keys() | tables.names.keys()):
        if only is not None and pid not in only:
            continue
        rank, name = ranks.get(pid, (None, ""))
        if rank is None:
            name = (tables.names[pid] if pid in tables.names
                    else tables.people.get(pid, pid))
        page = frame(player_ratings_path(pid), _("{name} · ratings").format(name=name), "ratings",
                     [(name, history_page_path(pid))])
        seats = rated_seats(tables, pid)
        whole = json_for is None or pid in json_for
        lines = games_json(pid, page, seats) if whole and games_json is not None else None
        short = not whole or lines is not None  # the table's games alone
        every = (seats.tail if short or len(seats.tail) == seats.games
                 else rated_games(tables, pid))
        rated = _rated_games_of(page, every[-TABLE_GAMES:] if short else every, tables.names)
        yield _player_page(page, pid, name, rated,
                           _("{rank} of {count}").format(rank=rank + 1, count=len(listing))
                           if rank is not None else "",
                           _chart_games_of(seats) if short else None, site.fast, lines)


@dataclass(frozen=True)
class KeptRows:
    """A format's list on a rating list page as the last build wrote it."""

    html: Markup  # its ``<tr>`` rows
    fide: bool  # with the FIDE columns


def _rated_games_of(page: Frame, games: Sequence[tuple[ClubEvent, Seat]],
                    names: dict[str, str]) -> list[RatedGame]:
    """Return :func:`_rated_games` from a player's rated seats, newest first."""
    rows = []
    events: dict[str, Link] = {}
    for event, (rnd, _table, _date, before, after, opponents, seats, result, fide) in games:
        slug = event.head[0]
        link = events.get(slug)
        if link is None:
            link = events[slug] = Link(event.head[1], page.href(links.page(*slug.split("/"))))
        old, new = ordinal(before), ordinal(after)
        rows.append(RatedGame(event.head[2], link, rnd,
                              ", ".join(names.get(o, o) for o in opponents.split(";") if o),
                              seats > 2, result, round(old, 2), round(new, 2),
                              round(new - old, 2), fide))
    rows.reverse()
    return rows


# a rated game as the chart reads it: event name, folder (or link), date, round, rating
ChartGame = tuple[str, str, str, int, float]


@dataclass(frozen=True)
class ChartGames:
    """What the chart and the page's head read of a player's rated games: the rating
    before the first, each game oldest first, their count, whether one has a FIDE change."""

    start: float
    games: tuple[ChartGame, ...]  # oldest first (each event's last alone: see count)
    fide: bool
    count: int  # every rated game (past CHART_GAMES, ``games`` has each event's last alone)


def _chart_games(newest_first: Sequence[RatedGame]) -> ChartGames:
    """Return :class:`ChartGames` of rated games (newest first)."""
    return ChartGames(newest_first[-1].before if newest_first else 0.0,
                      tuple((g.event.label, g.event.href, g.date, g.round, g.after)
                            for g in reversed(newest_first)),
                      any(g.fide_change is not None for g in newest_first), len(newest_first))


def _chart_games_of(seats: RatedSeats) -> ChartGames:
    """Return :class:`ChartGames` of a player's rated seats: :func:`_chart_games` of
    :func:`_rated_games_of` of them, without making each game (test_club_summary.py)."""
    if seats.first is None:
        return ChartGames(0.0, (), False, 0)
    start = round(ordinal(seats.first[1][3]), 2)
    shown = ([(event, seat[0], seat[4]) for event, seat in seats.tail]
             if seats.games <= CHART_GAMES else  # a point per event: its last game
             [(event, rnd, after) for event, _count, _fide, rnd, after in seats.events])
    return ChartGames(start, tuple((event.head[1], event.head[0], event.head[2], rnd,
                                    round(ordinal(after), 2)) for event, rnd, after in shown),
                      seats.fide, seats.games)


def _player_page(page: Frame, pid: str, name: str, rated: list[RatedGame], rank: str,
                 chart: ChartGames | None = None, fast: bool = False,
                 json_rows: tuple[str, ...] | None = None) -> PlayerRatingsPage:
    """Return a player's rating page from their rated games (newest first): all of them,
    or the table's alone with ``chart`` made from all of them; ``fast`` (``Site.fast``):
    with the table's rows written in Python; ``json_rows``: ``ratings.json``'s lines."""
    path = page.path
    made = _chart_games(rated) if chart is None else chart
    points, unit = _chart_points(made)
    table = tuple(rated[:TABLE_GAMES])
    return PlayerRatingsPage(
        frame=page, id=pid, name=name,
        rating=decimal(f"{made.games[-1][4]:.2f}") if made.games else "",
        rank=rank,
        games=tuple(rated), table=table, count=made.count, fide=made.fide,
        chart=rating_chart(points, _("Rating of {name} after each game").format(name=name)
                           if unit == "game" else
                           _("Rating of {name} after each event").format(name=name), unit),
        history=page.href(history_page_path(pid)), list=page.href(ratings_path(())),
        json=page.href(json_beside(path, "ratings.json")),
        table_html=games_html(table, made.fide) if fast else None, json_rows=json_rows)


def _rated_games(page: Frame, games: pd.DataFrame, changes: pd.DataFrame,
                 names: dict[str, str]) -> list[RatedGame]:
    """Return the player's rated games, newest first."""
    details = {(str(g.event), int(g.round), int(g.table)): g
               for g in rows_of(games, "event round table date event_name opponents "
                              "fide_change seats result")}
    rows = []
    events: dict[str, Link] = {}
    for change in rows_of(changes, "event round table before after change"):
        game = details[(str(change.event), int(change.round), int(change.table))]
        opponents = ", ".join(names.get(o, o) for o in str(game.opponents).split(";") if o)
        fide = None if game.fide_change != game.fide_change else float(game.fide_change)
        event = events.get(game.event)
        if event is None:
            event = events[game.event] = Link(str(game.event_name), page.href(
                links.page(*str(game.event).split("/"))))
        rows.append(RatedGame(
            str(game.date), event, int(game.round), opponents, int(game.seats) > 2,
            str(game.result), float(change.before), float(change.after),
            float(change.change), fide))
    rows.reverse()
    return rows


CHART_GAMES = 200  # more rated games than this: the chart has a point per event
TABLE_GAMES = 200  # the page's table lists the newest games; ratings.json has them all


def _chart_points(made: ChartGames) -> tuple[list[RatingPoint], str]:
    """Return the rating before the first rated game, then after each game (after each
    event's last game, for more than :data:`CHART_GAMES` games), oldest first, and what
    a point is."""
    if not made.games:
        return [], "game"
    label, _folder, date, _round, _after = made.games[0]
    points = [RatingPoint(_("Before {event} ({date})").format(event=label, date=date),
                          made.start)]
    if made.count <= CHART_GAMES:
        points += [RatingPoint(_("{event}, round {number} ({date})").format(
                               event=label, number=number, date=date), after)
                   for label, _folder, date, number, after in made.games]
        return points, "game"
    for game, following in zip(made.games, [*made.games[1:], None], strict=True):
        if following is None or following[1] != game[1]:
            points.append(RatingPoint(f"{game[0]} ({game[2]})", game[4]))
    return points, "event"


def player_ratings_document(page: PlayerRatingsPage, games: bool = True) -> dict[str, Any]:
    """Return ``ratings.json`` of a player: every rated game, newest first (an empty list
    without ``games``: :func:`standgen.site.club_json.player_ratings_json`)."""
    return {
        "id": page.id,
        "name": page.name,
        "model": MODEL,
        "games": [] if not games else [
            {"date": g.date, "event": g.event.label, "round": g.round,
             "opponents": g.opponents, "result": g.result, "before": json_number(g.before),
             "after": json_number(g.after), "change": json_number(g.change),
             "fide_change": None if g.fide_change is None else json_number(g.fide_change)}
            for g in page.games
        ],
    }


