"""A rating list after a result, from the rows the last build wrote (issue #33).

A result typed in re-rates the events from the one it is in (in the order rated, the
newest event alone when it is the newest) and nothing before: the row of a player who
played none of the events rated again shows the same name, rating, games, last game and
FIDE values as before, only perhaps at another place. So a list the result touches is
written from its rows as the last build wrote them (the page's ``<tr>`` rows of a
format's list, the lines of ``ratings.json``), each with its place put right, and only
the rows of the players of the events rated again are made anew.

That holds when the change is *steady* (:attr:`standgen.site.club_pages.ClubSelection.steady`):
every changed event was there at the last build and is now, with the same head (folder,
name, date, season, format), the same rated flag, the same players and names; so no event
joined or left a list, no name changed (a name told apart from another's, "Ann Lee
(p12)", stays as it was), and the players of each list are the same. Anything else, or
a page that is not as the template writes it, makes the list in full, as before.
``tests/test_club_rebuild.py`` compares the sites of such edits with a full render, and
``tests/test_club_splice.py`` the lists themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from markupsafe import Markup

from standgen.clubs.seat_digest import RatedSeats
from standgen.clubs.summary import ClubTables, EventPath
from standgen.site.club_json import game_rows, rating_rows
from standgen.site.club_ratings import KeptRows, Spliced, _rated_games_of, _rating_rows_of
from standgen.site.club_rows import RANK_CELL, rows_html
from standgen.site.club_scopes import json_beside, player_ratings_path
from standgen.site.contexts import Frame
from standgen.site.i18n import _

_AFTER_RANK = "</td>\n"  # ends the rank cell a row starts with
_HREF = '<a href="'
_JSON_ROW = '{"rank": '
_JSON_ID = ', "id": "'


def spliced_rows(old_lists: Mapping[str, KeptRows], old_json: bytes, tables: ClubTables,
                 scope: EventPath, page: Frame, fmt: str, hrefs: dict[str, str]
                 ) -> Spliced | None:
    """Return the rows of the list of ``fmt`` (``""``: every game, the ``ratings.json``
    lines) on the rating list ``page`` of ``scope`` after a steady change, from the
    page's lists (:func:`kept_lists`) and ``old_json`` as the last build wrote them;
    None: make it in full."""
    changed = changed_players(tables, scope, fmt)
    if changed is None:
        return None
    ranked = [line.player for line in tables.ratings(scope, fmt).listing]
    fide = tables.fide(scope, fmt)
    has_fide = any(fide.get(pid, (None, None))[1] is not None for pid in ranked)
    if not ranked:
        return None
    fresh_rows = _rating_rows_of(page, tables, scope, fmt, hrefs, only=changed)
    if not fmt:
        old = old_json_rows(old_json)
        lines = {row.id: line for row, line in zip(fresh_rows, rating_rows(fresh_rows),
                                                   strict=True)}
        json = None if old is None else spliced_json(ranked, old, lines)
        return None if json is None else Spliced(None, tuple(json), has_fide)
    kept = old_lists.get(fmt)
    if kept is None or kept.fide != has_fide:
        return None
    old = old_html_rows(str(kept.html))
    html = None if old is None else spliced_html(
        ranked, old, {row.id: str(rows_html((row,), has_fide)) for row in fresh_rows})
    return None if html is None else Spliced(Markup(html), None, has_fide)


def changed_players(tables: ClubTables, scope: EventPath, fmt: str) -> set[str] | None:
    """Return the players whose row in the list of ``fmt`` over ``scope`` can differ from
    the last build's: those of the events rated again (and of the FIDE rows of the changed
    events); None when a changed event of the list was not rated again (an event out of
    the ratings), so the rows cannot be told apart this way."""
    ratings = tables.ratings(scope, fmt)
    prefix = "/".join(scope) + "/" if scope else ""
    found: set[str] = set()
    for path in tables.changed:
        event = tables.event(path)
        if event is None or not event.head[0].startswith(prefix) or (
                fmt and event.head[4] != fmt):
            continue  # not in this list
        if path not in ratings.redone:
            return None
        found.update(row[3] for row in event.fide)
    for rated in ratings.events:
        if rated.path in ratings.redone:
            found.update(line[0] for line in rated.lines)
    return found


def old_html_rows(rows: str) -> dict[str, str] | None:
    """Return each player's ``<tr>`` row of a format's list (as ``rows_html`` writes
    them) without its rank cell, by id (read from the link to their page); None when
    the rows are not as written."""
    parts = rows.split("</tr>\n")
    if parts[-1]:
        return None
    found: dict[str, str] = {}
    for row in parts[:-1]:
        cut = row.find(_AFTER_RANK, len(RANK_CELL))
        start = row.find(_HREF, cut) + len(_HREF)
        end = row.find('"', start)
        if not row.startswith(RANK_CELL) or cut < 0 or start < len(_HREF) or end < 0:
            return None
        link = row[start:end].split("/")
        if len(link) < 3 or link[-1] != "index.html" or link[-2] in found:
            return None
        found[link[-2]] = row[cut:]
    return found


def spliced_html(ranked: Sequence[str], old: Mapping[str, str],
                 fresh: Mapping[str, str]) -> str | None:
    """Return the rows of ``ranked`` (ids, best first): each player's ``fresh`` row, or
    their ``old`` row at its new place; None when the list's players are not the old
    list's."""
    rows = _at_places(ranked, old, fresh, RANK_CELL, "</tr>\n")
    return None if rows is None else "".join(rows)


def _at_places(ranked: Sequence[str], old: Mapping[str, str], fresh: Mapping[str, str],
               start: str, end: str = "") -> list[str] | None:
    """Return each player of ``ranked`` (ids, best first) as their ``fresh`` row, or as
    ``start``, their place, their ``old`` row and ``end``; None when the list's players
    are not the old list's."""
    if len(old) != len(ranked):
        return None
    out = []
    for rank, pid in enumerate(ranked, start=1):
        row = fresh.get(pid)
        if row is None:
            tail = old.get(pid)
            if tail is None:
                return None
            row = f"{start}{rank}{tail}{end}"
        out.append(row)
    return out


_ROWS = ",\n    "  # between two rows of a list, as ``dumps_rows`` writes it


def _list_span(document: bytes, key: str) -> tuple[str, int, int] | None:
    """Return a JSON document as ``dumps_rows`` writes it, decoded, and where the rows of
    its list ``key`` start and end (None: it does not hold the list once so, or empty)."""
    text = document.decode()
    start_of = f'\n  "{key}": [\n    '
    start = text.find(start_of)
    end = text.find("\n  ]", start)
    if start < 0 or end < 0 or text.count(start_of) != 1:
        return None
    return text, start + len(start_of), end


def _json_lines(document: bytes, key: str) -> list[str] | None:
    """Return the lines of the list ``key`` of a JSON document as ``dumps_rows`` writes
    it, a row a line (None: the document does not hold it once so, or it is empty)."""
    span = _list_span(document, key)
    return None if span is None else span[0][span[1]:span[2]].split(_ROWS)


def old_json_rows(document: bytes) -> dict[str, str] | None:
    """Return each line of a rating list's ``ratings.json`` (as ``dumps_rows`` writes
    it) from its ``, "id"`` on, by id; None when the file is not as written."""
    lines = _json_lines(document, "ratings")
    if lines is None:
        return None
    found: dict[str, str] = {}
    for line in lines:
        cut = line.find(_JSON_ID)
        close = line.find('"', cut + len(_JSON_ID))
        if not line.startswith(_JSON_ROW) or cut < 0 or close < 0:
            return None
        pid = line[cut + len(_JSON_ID):close]
        if pid in found:
            return None
        found[pid] = line[cut:]
    return found


def spliced_json(ranked: Sequence[str], old: Mapping[str, str],
                 fresh: Mapping[str, str]) -> list[str] | None:
    """Return the ``ratings.json`` lines of ``ranked`` (ids, best first): each player's
    ``fresh`` line, or their ``old`` line with its new rank; None when the list's
    players are not the old list's."""
    return _at_places(ranked, old, fresh, _JSON_ROW)


_LIST_HEAD = b'<h2 id="ratings-'


def kept_lists(page: bytes) -> dict[str, KeptRows]:
    """Return the rows of each format's list on a rating list page as the last build
    wrote it, by format: the lists the page shows once where the template puts them,
    found in one pass over the page (a site's page is megabytes).

    A format's list is a fold over the scope's events of that format alone (their games,
    names and FIDE changes), so when none of them changed
    (:func:`standgen.site.club_pages.club_selection`'s meta rule, the same events) its
    rows are the rows written last time: a result in a Go event leaves the chess list as
    it was; a changed list is made from them after a steady change (:func:`spliced_rows`).
    Names in the rows are escaped, so ``</tbody>`` and ``<h2`` only come from the
    template (``tests/test_club_rebuild.py`` compares such pages with a full build's).
    """
    heads: dict[str, list[int]] = {}
    at = page.find(_LIST_HEAD)
    while at >= 0:
        close = page.find(b'">', at)
        if close < 0:
            break
        heads.setdefault(page[at + len(_LIST_HEAD):close].decode(), []).append(at)
        at = page.find(_LIST_HEAD, close)
    found: dict[str, KeptRows] = {}
    for fmt, places in heads.items():
        start = places[0] + len(_LIST_HEAD) + len(fmt.encode()) + 2
        body = page.find(b"<tbody>\n", start)
        end = page.find(b"</tbody>", body)
        after = page.find(b'<h2 id="', start)
        if len(places) != 1 or body < 0 or end < 0 or 0 <= after < end:
            continue
        rows = page[body + len(b"<tbody>\n"):end].decode()
        found[fmt] = KeptRows(Markup(rows), 'data-label="FIDE"' in rows)
    return found


def spliced_games(old_json: Callable[[str], bytes | None], tables: ClubTables, pid: str,
                  page: Frame, seats: RatedSeats) -> tuple[str, ...] | None:
    """Return the lines of a player's ``ratings.json`` (every rated game, newest first)
    after a steady change, from the file the last build wrote (``old_json(path)``): their
    games in the events rated again (the newest: :attr:`ScopeRatings.redone` are those
    from the first changed event on, in the order rated) made anew, the others as they
    were, since neither their ratings nor their event's and opponents' names changed;
    those are one item, the file's lines as written (a regular's thousands of games are
    not split into lines and joined again). None when the file is not as written or its
    games before those are not the same as now (the newest and the oldest of them made
    again and compared)."""
    fresh = seats.fresh
    if fresh < 0:
        return None
    kept = seats.games - fresh  # the games before the first event rated again
    names = tables.names
    tail = seats.tail
    new = game_rows(_rated_games_of(page, tail[len(tail) - fresh:], names)) if fresh else []
    if not kept:
        return tuple(new)
    document = old_json(json_beside(player_ratings_path(pid), "ratings.json"))
    found = None if document is None else _oldest_lines(document, "games", kept)
    if found is None or seats.first is None:
        return None
    lines, newest, oldest = found
    if (game_rows(_rated_games_of(page, [tail[len(tail) - fresh - 1]], names))[0] != newest
            or game_rows(_rated_games_of(page, [seats.first], names))[0] != oldest):
        return None
    return (*new, lines)


def _oldest_lines(document: bytes, key: str, count: int) -> tuple[str, str, str] | None:
    """Return the last ``count`` lines of the list ``key`` of a JSON document as
    ``dumps_rows`` writes it, as written (one string), the first of them and the last;
    None when the document does not hold the list once so, or it has fewer lines. (No
    row holds a line break: each is ``json.dumps`` of one object.)"""
    span = _list_span(document, key)
    if span is None:
        return None
    text, start, end = span
    rows = text.count(_ROWS, start, end) + 1
    if rows < count:
        return None
    at = start
    for _row in range(rows - count):
        at = text.find(_ROWS, at, end) + len(_ROWS)
    after_first = text.find(_ROWS, at, end)
    before_last = text.rfind(_ROWS, at, end)
    return (text[at:end], text[at:end if after_first < 0 else after_first],
            text[at if before_last < 0 else before_last + len(_ROWS):end])


def placed_again(page: bytes, was: tuple[int, int], now: tuple[int, int]) -> bytes | None:
    """Return a player's rating page (as the last build wrote it) with their place in
    the site's rating list moved from ``was`` to ``now`` (place, length of the list), or
    None when the page does not show ``was`` once where the template puts it.

    The place is the one thing on the page that moves when a game of someone else's
    changes the list (their games, rating and opponents' names unchanged:
    :func:`standgen.site.club_pages.club_selection`); the template writes it as
    ``</strong>, {place sentence} <a href=``, the sentence as Jinja's ``_()`` makes it
    (the translation marked safe, the place escaped into it). Putting it right costs a
    read of the page, not its games, its chart and the template
    (``tests/test_club_rebuild.py`` compares such pages with a full build's).
    """
    def told(place: tuple[int, int]) -> bytes:
        text = _("{rank} of {count}").format(rank=place[0], count=place[1])
        sentence = Markup(_("%(rank)s in the")) % {"rank": text}
        return f"</strong>, {sentence} <a href=".encode()

    old = told(was)
    if page.count(old) != 1:
        return None
    return page.replace(old, told(now))
