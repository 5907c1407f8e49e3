"""The club pages as page types of the registry (:mod:`standgen.site.pages`), issue #20.

Each function takes :class:`ClubInputs` and yields (output path, context) for its
template, or (output path, bytes) for its JSON, as every registered page type does. The
contexts are :mod:`standgen.site.club_contexts`'; the templates ``club_ratings``,
``club_meta`` and ``club_player``.

These pages read every event's games: a rating moves with every game of the archive, and
a season's meta counts all its events. None of the registry's scopes hands a context
function that (``SITE`` and ``SEASON`` give each event's summary; ``PLAYER`` one
player's lines), so they need a scope of their own, rendered again whenever an event's
games change, whose inputs are :class:`ClubInputs`: the site, and each event's part of
the games table (:class:`standgen.clubs.games.EventGames`, made by
:func:`standgen.clubs.games.event_games` from the event's report, small and picklable to
keep in the build state beside its summary). With that scope (``Depends.CLUB`` below),
the registry's lines are::

    PageType("club ratings", Depends.CLUB, club_pages.rating_lists, "club_ratings"),
    PageType("club ratings.json", Depends.CLUB, club_pages.rating_lists_json),
    PageType("club meta", Depends.CLUB, club_pages.metas, "club_meta"),
    PageType("club meta.json", Depends.CLUB, club_pages.metas_json),
    PageType("club player", Depends.CLUB, club_pages.player_ratings, "club_player"),
    PageType("club player.json", Depends.CLUB, club_pages.player_ratings_json),
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import TYPE_CHECKING, Protocol

from standgen.clubs.games import EventGames
from standgen.clubs.summary import ClubEvent, ClubTables, EventPath, Seat
from standgen.site import club_json, club_splice
from standgen.site.club_meta import MetaPage, meta_document, meta_pages_of
from standgen.site.club_ratings import (
    KeptRows,
    PlayerRatingsPage,
    RatingListPage,
    Spliced,
    player_ratings_pages_of,
    rating_list_page_of,
)
from standgen.site.club_scopes import (
    Scope,
    json_beside,
    meta_path,
    player_ratings_path,
    ratings_path,
    scopes,
)
from standgen.site.contexts import Frame, Site
from standgen.site.jsonout import dumps_rows

if TYPE_CHECKING:  # pandas loads only for the reference path (a site not ``fast``)
    from standgen.clubs.data import ClubData

ClubPage = RatingListPage | MetaPage | PlayerRatingsPage

Output = tuple[str, object]


@dataclass(frozen=True)
class ClubSelection:
    """The club pages an incremental build makes again (the others are as they were):
    the rating lists of ``lists`` (scopes' folders), the meta pages of ``metas`` (scope,
    format), the rating pages of ``players`` and the ``ratings.json`` of ``player_json``;
    ``listing``, the site's rating list (ids, best first) at the build before, gives the
    place a page of ``players`` not in ``player_json`` showed (its place alone moved);
    ``search``: whether the player search is made again (an event's name, date or
    players changed, or an event came or went); ``steady``: whether every changed event
    was there before and is now, with the same head, rated flag, players and names (a
    list is then made from the rows the last build wrote: :mod:`~standgen.site.club_splice`)."""

    lists: frozenset[tuple[str, ...]]
    metas: frozenset[tuple[tuple[str, ...], str]]
    players: frozenset[str]
    player_json: frozenset[str]
    listing: tuple[str, ...] | None = None
    search: bool = True
    steady: bool = False

    @property
    def moved(self) -> frozenset[str]:
        """The players whose rating page changed by their place in the list alone."""
        return self.players - self.player_json


# how much of a rating page :class:`ClubInputs` reads to put its place right in place:
# the template writes the place in the lead paragraph, before the chart and the games
HEAD = 8192


class InPlace(Protocol):
    """The site's pages as the last build wrote them, put right in place
    (:class:`standgen.builder.writers.Changes`)."""

    def head(self, rel: str, size: int) -> bytes | None:
        """Return the first ``size`` bytes of a page as it was (None: not there)."""

    def patch(self, rel: str, old: bytes, new: bytes) -> bool:
        """Put a page's first bytes ``old`` right as ``new`` in place; return whether it
        will be (else the page is written whole)."""


@dataclass(frozen=True)
class ClubInputs:
    """What the club pages are made from: the site and each event's part of the games
    table (or the summaries a build kept, ``given``); the archive's data (the ratings,
    the meta) is made once, when first asked for, and shared by every club page type of
    the build. ``only``: the pages to make (all of them without it); the player search
    (from :attr:`events`) is made in full when ``only.search``, and the build keeps
    every file it made.
    ``written`` reads a page as the last build wrote it (None: not there): a rating page
    whose place in the list alone moved is that page with its place put right
    (:func:`standgen.site.club_splice.placed_again`), not made again. With
    ``in_place``, such a page is not even read whole: its first :data:`HEAD` bytes,
    where the template writes the place, are put right in place (the place shown once
    there; the chart and the games below show no ``</strong>``, their text escaped)."""

    site: Site
    parts: Sequence[EventGames]
    given: ClubTables | None = None
    only: ClubSelection | None = None
    written: Callable[[str], bytes | None] | None = None
    in_place: InPlace | None = None

    @cached_property
    def club(self) -> ClubData:
        """The tidy table's data (pandas): the reference path, when the site is not
        ``fast`` (:func:`standgen.perf.straightforward`)."""
        from standgen.clubs.data import club_data_of

        return club_data_of(self.parts, self.site.fast)

    @property
    def events(self) -> Sequence[EventGames | ClubEvent]:
        """Every event's head and players (``head``, ``players``): the parts, or the
        summaries a build kept when it has no parts."""
        return self.parts if self.given is None else self.given.events

    @cached_property
    def tables(self) -> ClubTables:
        """The events' summaries (plain Python): the path of a ``fast`` site."""
        return self.given if self.given is not None else ClubTables(self.parts,
                                                                     self.site.fast)

    # each page's context is made once, for its page and for its JSON
    @cached_property
    def rating_lists(self) -> list[tuple[str, RatingListPage]]:
        if self.site.fast:
            lists = None if self.only is None else self.only.lists
            return [(page.frame.path, page) for page in
                    (rating_list_page_of(self.site, self.tables, scope, self._kept(scope),
                                         self._splice(scope))
                     for scope in scopes(self.site.tree)
                     if lists is None or scope.path in lists)]
        from standgen.site import club_contexts as cc

        return list(cc.rating_lists(self.site, self.club))

    def _kept(self, scope: Scope) -> Callable[[str], KeptRows | None] | None:
        """Return the format lists of ``scope``'s rating list page as the last build
        wrote them, for the formats none of whose events changed (the meta pages' rule:
        ``only.metas`` holds the others), or None (an incremental build's alone)."""
        lists = self._old_lists(scope)
        if lists is None or self.only is None:
            return None
        changed = self.only.metas

        def kept(fmt: str) -> KeptRows | None:
            return None if (scope.path, fmt) in changed else lists.get(fmt)
        return kept

    def _old_lists(self, scope: Scope) -> dict[str, KeptRows] | None:
        """Return the lists of the rating list page of ``scope`` as the last build wrote
        it (:func:`~standgen.site.club_splice.kept_lists`; None: no page, or a build that
        makes every page)."""
        if self.only is None or self.written is None:
            return None
        path = ratings_path(scope.path)
        if path not in self._read:
            page = self.written(path)
            self._read[path] = None if page is None else club_splice.kept_lists(page)
        return self._read[path]

    @cached_property
    def _read(self) -> dict[str, dict[str, KeptRows] | None]:
        return {}

    def _splice(self, scope: Scope
                ) -> Callable[[Frame, str, dict[str, str]], Spliced | None] | None:
        """Return how the lists of ``scope``'s rating list are made from the rows the last
        build wrote after a steady change (:func:`~standgen.site.club_splice.spliced_rows`),
        or None."""
        if self.only is None or not self.only.steady or self.written is None:
            return None
        lists = self._old_lists(scope)
        document = self.written(json_beside(ratings_path(scope.path), "ratings.json"))
        if lists is None or document is None:
            return None
        return partial(club_splice.spliced_rows, lists, document, self.tables, scope.path)

    @cached_property
    def metas(self) -> list[tuple[str, MetaPage]]:
        if self.site.fast:
            metas = None if self.only is None else self.only.metas
            return [(page.frame.path, page) for scope in scopes(self.site.tree)
                    for page in meta_pages_of(self.site, self.tables, scope, metas)]
        from standgen.site import club_contexts as cc

        return list(cc.metas(self.site, self.club))

    @cached_property
    def placed(self) -> dict[str, tuple[str, bytes | None]]:
        """The rating pages whose place alone moved, put right from the pages the last
        build wrote (by id; None: put right in place; a page not found as expected is
        made again instead)."""
        only, written = self.only, self.written
        if only is None or only.listing is None or written is None or not self.site.fast:
            return {}
        listing = self.tables.ratings(()).listing
        now = {line.player: k for k, line in enumerate(listing)}
        was = {pid: k for k, pid in enumerate(only.listing)}
        found: dict[str, tuple[str, bytes | None]] = {}
        for pid in sorted(only.moved & now.keys() & was.keys()):
            path = player_ratings_path(pid)
            places = (was[pid] + 1, len(was)), (now[pid] + 1, len(now))
            if self._put_right(path, *places):
                found[pid] = (path, None)
                continue
            new = _placed(written(path), *places)
            if new is not None:
                found[pid] = (path, new)
        return found

    def _put_right(self, path: str, was: tuple[int, int], now: tuple[int, int]) -> bool:
        """Return whether the page at ``path`` has its place put right in place."""
        if self.in_place is None:
            return False
        head = self.in_place.head(path, HEAD)
        new = None if head is None else club_splice.placed_again(head, was, now)
        return head is not None and new is not None and self.in_place.patch(path, head, new)

    @cached_property
    def player_ratings(self) -> list[tuple[str, PlayerRatingsPage]]:
        if self.site.fast:
            only = (None if self.only is None else
                    (self.only.players | self.only.player_json) - self.placed.keys())
            json_for = None if self.only is None else self.only.player_json
            written = self.written if self.only is not None and self.only.steady else None
            games_json = (None if written is None else
                          partial(club_splice.spliced_games, written, self.tables))
            return [(page.frame.path, page) for page in
                    player_ratings_pages_of(self.site, self.tables, only, json_for,
                                            games_json)]
        from standgen.site import club_contexts as cc

        return list(cc.player_ratings(self.site, self.club))


def _placed(old: bytes | None, was: tuple[int, int], now: tuple[int, int]) -> bytes | None:
    return None if old is None else club_splice.placed_again(old, was, now)


def rating_lists(inputs: ClubInputs) -> Iterator[Output]:
    """The rating list of the site (``archive/ratings/``) and of every season."""
    yield from inputs.rating_lists


def metas(inputs: ClubInputs) -> Iterator[Output]:
    """The meta page of every format, site-wide and per season."""
    yield from inputs.metas


def player_ratings(inputs: ClubInputs) -> Iterator[Output]:
    """Every rated player's rating history (``players/<id>/ratings/``)."""
    players = None if inputs.only is None else inputs.only.players
    placed = inputs.placed
    for path, page in inputs.player_ratings:
        if players is None or page.id in players:
            yield path, page
    for path, placed_page in placed.values():
        if placed_page is not None:  # else put right in place
            yield path, placed_page


def rating_lists_json(inputs: ClubInputs) -> Iterator[Output]:
    """``ratings.json`` beside each rating list."""
    yield from _json(inputs, inputs.rating_lists)


def metas_json(inputs: ClubInputs) -> Iterator[Output]:
    """``meta.json`` beside each meta page."""
    yield from _json(inputs, inputs.metas)


def player_ratings_json(inputs: ClubInputs) -> Iterator[Output]:
    """``ratings.json`` beside each player's rating history."""
    players = None if inputs.only is None else inputs.only.player_json
    yield from _json(inputs, [(path, page) for path, page in inputs.player_ratings
                              if players is None or page.id in players])


def _json(inputs: ClubInputs, pages: Iterable[tuple[str, ClubPage]]) -> Iterator[Output]:
    """The JSON beside club pages, a row a line (:func:`dumps_rows`)."""
    for path, page in pages:
        if isinstance(page, RatingListPage):
            yield json_beside(path, "ratings.json"), club_json.rating_list_json(page)
        elif isinstance(page, MetaPage):
            yield json_beside(path, "meta.json"), dumps_rows(meta_document(page))
        else:
            yield json_beside(path, "ratings.json"), club_json.player_ratings_json(page)


def club_paths(site: Site, tables: ClubTables) -> set[str]:
    """Return the path of every club page and JSON file the pages of ``tables`` make."""
    found: set[str] = set()
    for scope in scopes(site.tree):
        found.add(ratings_path(scope.path))
        found.update(meta_path(scope.path, fmt) for fmt in tables.formats(scope.path))
    found.update(player_ratings_path(pid) for pid in tables.people.keys() | tables.names.keys())
    return found | {json_beside(path, "meta.json" if "/meta-" in path else "ratings.json")
                    for path in found}


def club_selection(site: Site, tables: ClubTables, before: Mapping[EventPath, ClubEvent],
                   changed: Collection[EventPath], listing: Sequence[str] | None,
                   seats_in: Callable[[EventPath], Mapping[str, tuple[Seat, ...]]]
                   ) -> ClubSelection:
    """Return the club pages whose content a change of the events ``changed`` (new,
    changed or removed since the build that kept ``before``, every event's summary then,
    ``listing``, its site rating list, and ``seats_in``, each event's rated seats per
    player) can have changed; the rest are as they were.

    - a scope's rating list, when one of its events changed;
    - a scope's meta of a format, when one of its events of that format changed (all of
      the scope's meta pages when the formats played changed: they link to each other);
    - a player's rating page and ``ratings.json``: when their rated games in an event
      rated again differ (or the event's name or date), they are new, or (everyone's)
      when a name changed (opponents are named on each page); the page alone when their
      place in the list (or its length) changed;
    - the player search, when an event's name, date or players changed, or it is new or
      gone (it lists every player's events by name and date).
    """
    touched = [scope.path for scope in scopes(site.tree)
               if any(_below(path, scope.path) for path in changed)]
    metas = {key for scope in touched for key in _metas_changed(tables, before, changed, scope)}
    site_ratings = tables.ratings(())
    games: set[str] = set()
    for path in site_ratings.redone | frozenset(changed):
        games.update(_games_changed(tables, before, path, seats_in(path)))
    everyone = tables.people.keys() | tables.names.keys()
    games.update(_named_again(tables, before, changed))
    pages = games | _moved_in_listing(listing, [line.player for line in site_ratings.listing])
    return ClubSelection(frozenset(touched), frozenset(metas), frozenset(pages & everyone),
                         frozenset(games & everyone),
                         None if listing is None else tuple(listing),
                         not all(_same_search(before.get(path), tables.event(path))
                                 for path in changed),
                         all(_steady(before.get(path), tables.event(path)) for path in changed))


def _metas_changed(tables: ClubTables, before: Mapping[EventPath, ClubEvent],
                   changed: Collection[EventPath], scope: EventPath
                   ) -> set[tuple[EventPath, str]]:
    """Return the meta pages (scope, format) of ``scope`` (a scope one of the events
    ``changed`` is below) whose content the change can have changed: the meta of each
    format one of its changed events was or is of; every one of the scope's meta pages
    when the formats played in it changed, since the meta pages link to each other
    (:func:`club_selection`'s second rule)."""
    formats = tables.formats(scope)
    if _formats_then(before, scope) != formats:
        return {(scope, fmt) for fmt in formats}
    return {(scope, event.head[4]) for path in changed
            for event in (before.get(path), tables.event(path))
            if event is not None and _below(path, scope) and event.head[4] in formats}


def _formats_then(before: Mapping[EventPath, ClubEvent], scope: EventPath) -> list[str]:
    """Return the formats played in ``scope`` at the build that kept ``before``, sorted
    as :meth:`ClubTables.formats` gives them now."""
    prefix = "/".join(scope) + "/" if scope else ""
    return sorted({e.head[4] for e in before.values()
                   if e.played and e.head[0].startswith(prefix)})


def _games_changed(tables: ClubTables, before: Mapping[EventPath, ClubEvent],
                   path: EventPath, old: Mapping[str, tuple[Seat, ...]]) -> set[str]:
    """Return the players whose rated games in the event ``path`` (rated again, or
    changed) differ from ``old``, its rated seats per player at the build before, or
    every player of the event, then or now, when its name or date changed (each game on
    a rating page names its event and date): :func:`club_selection`'s third rule, the
    rating page and ``ratings.json`` both."""
    site_ratings = tables.ratings(())
    new: dict[str, list[Seat]] = {}
    for rated in site_ratings.events:
        if rated.path == path and path in site_ratings.redone:
            for seat in rated.seats:
                new.setdefault(seat[2], []).append(seat)
    old_event, new_event = before.get(path), tables.event(path)
    same_head = (old_event is not None and new_event is not None
                 and old_event.head[:3] == new_event.head[:3])
    return {pid for pid in old.keys() | new.keys()
            if not same_head or old.get(pid) != tuple(new.get(pid, ()))}


def _named_again(tables: ClubTables, before: Mapping[EventPath, ClubEvent],
                 changed: Collection[EventPath]) -> set[str]:
    """Return the players whose rating page and ``ratings.json`` a change of names makes
    again: everyone when a name changed (opponents are named on each page), else the
    players who are new and those named otherwise in an event of ``changed`` (their
    page's title is their name in the newest event they were rated in, which need not
    be the one the names by folder take) (:func:`club_selection`'s third rule). None
    when every event of ``changed`` is there before and now with the same players and
    names (the others are as they were)."""
    if all(_same_names(before.get(path), tables.event(path)) for path in changed):
        return set()
    old_names = {pid: name for e in sorted(before.values(), key=lambda e: e.head[0])
                 for pid, name in e.names}
    old_people = {pid: name for e in sorted(before.values(), key=lambda e: e.head[0])
                  for pid, name in e.people}
    everyone = tables.people.keys() | tables.names.keys()
    if old_names != tables.names or old_people != tables.people:
        return set(everyone)
    renamed = _renamed(tables, before, changed)  # a page's own name: the newest rated event's
    return set(everyone - (old_people.keys() | old_names.keys())) | (renamed & everyone)


def _renamed(tables: ClubTables, before: Mapping[EventPath, ClubEvent],
             changed: Collection[EventPath]) -> set[str]:
    """Return the players named otherwise (or there only once) in an event of
    ``changed``, then and now."""
    found: set[str] = set()
    for path in changed:
        old, new = before.get(path), tables.event(path)
        for then, now in (((old.names if old else ()), (new.names if new else ())),
                          ((old.people if old else ()), (new.people if new else ()))):
            was, are = dict(then), dict(now)
            found.update(pid for pid in was.keys() | are.keys() if was.get(pid) != are.get(pid))
    return found


def _same_names(old: ClubEvent | None, new: ClubEvent | None) -> bool:
    """Return whether an event is there before and now with the same players and names."""
    return (old is not None and new is not None
            and (old.names, old.people) == (new.names, new.people))


def _steady(old: ClubEvent | None, new: ClubEvent | None) -> bool:
    """Return whether an event is there before and now with the same head, rated flag,
    players and names (:attr:`ClubSelection.steady`)."""
    return (old is not None and new is not None and old.head == new.head
            and old.rated == new.rated and _same_names(old, new))


def _same_search(old: ClubEvent | None, new: ClubEvent | None) -> bool:
    """Return whether an event is there before and now with the same name, date and
    players (what the player search shows of it)."""
    return (old is not None and new is not None and old.head[1:3] == new.head[1:3]
            and old.players == new.players)


def _moved_in_listing(listing: Sequence[str] | None, ranked: Sequence[str]) -> set[str]:
    """Return the players whose rating page (not its JSON) shows a new place in the site
    rating list: those whose place in ``ranked`` differs from ``listing``, the list at
    the build before, or everyone listed when its length changed or it is not known
    (:func:`club_selection`'s last rule)."""
    if listing is None or len(listing) != len(ranked):
        return set(ranked)
    was = {pid: k for k, pid in enumerate(listing)}
    return {pid for k, pid in enumerate(ranked) if was.get(pid) != k}


def _below(path: EventPath, folder: EventPath) -> bool:
    return len(path) > len(folder) and path[: len(folder)] == folder
