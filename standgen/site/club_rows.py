"""The rows of a rating list as HTML, written in Python: the quicker way to the bytes the
template's row loop writes (``site_templates/club_ratings.html``).

A club's rating list has a row per player who ever played a format, and a result typed
in moves places anywhere in it, so every row of every list is written again: at 1,000
events, 12 lists of about 2,000 rows, half the rating pages' cost. Jinja2 spends about
18 microseconds on a row (an attribute lookup, a filter call and an escape per cell);
this writes the same row with one f-string, the same escaping (MarkupSafe's) and the
same filters (:func:`standgen.site.i18n.decimal`, the ``localdate`` filter), in about a
sixth of that.

The template's loop stays the reference: a page made with ``Site.fast`` off carries no
HTML rows (``FormatList.html`` is None) and the template writes them itself;
``tests/test_club_rows.py`` renders lists both ways, in several languages, and requires
the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from markupsafe import Markup, escape

from standgen.site.contexts import Link
from standgen.site.i18n import decimal, gettext, localdate


class RatingRow(Protocol):
    """What a row shows (:class:`standgen.site.club_ratings.RatingRow`)."""

    @property
    def rank(self) -> int: ...
    @property
    def player(self) -> Link: ...
    @property
    def shown(self) -> str: ...
    @property
    def rating_text(self) -> str: ...
    @property
    def mu(self) -> float: ...
    @property
    def sigma(self) -> float: ...
    @property
    def games(self) -> int: ...
    @property
    def change_text(self) -> str: ...
    @property
    def last(self) -> str: ...
    @property
    def fide_text(self) -> str: ...
    @property
    def fide_change_text(self) -> str: ...


def _text_escape() -> Callable[[str], str]:
    """Return MarkupSafe's escaping of a ``str`` as a ``str``: its C function itself when
    compiled (``escape`` wraps it in two Python calls and a ``Markup``), else ``escape``."""
    try:
        from markupsafe._speedups import _escape_inner
    except ImportError:
        return lambda text: str(escape(text))
    return _escape_inner


escape_text = _text_escape()
_escape = escape_text
RANK_CELL = '<tr>\n<td class="num" data-key="rank">'  # a rating list's row starts so


def rows_html(rows: Sequence[RatingRow], fide: bool) -> Markup:
    """Return the ``<tr>`` rows of ``rows`` as the template's loop writes them, in the
    active language (``fide``: with the two FIDE columns).

    Names, links and dates are escaped as the template escapes them; numbers are written
    as they are: digits, a sign and the language's decimal symbol, nothing HTML escapes
    (the test renders every catalogue's language both ways)."""
    games = gettext("Games")  # the template's _("..."): a translation of ours, unescaped
    change = gettext("Last change")
    last = gettext("Last game")
    out = []
    for row in rows:
        player = row.player
        cells = (
            f'{RANK_CELL}{row.rank}</td>\n'
            f'<th scope="row" class="name grow" data-key="name"><a href="{_escape(player.href)}">'
            f'{_escape(row.shown or player.label)}</a></th>\n'
            f'<td class="num score" data-key="rating">{decimal(row.rating_text)}</td>\n'
            f'<td class="num" data-label="mu">{decimal(f"{row.mu:.2f}")}</td>\n'
            f'<td class="num" data-label="sigma">{decimal(f"{row.sigma:.2f}")}</td>\n'
            f'<td class="num" data-label="{games}">{row.games}</td>\n'
            f'<td class="num" data-label="{change}">{decimal(row.change_text)}</td>\n'
            f'<td data-label="{last}"><time datetime="{_escape(row.last)}">'
            f'{_escape(localdate(row.last))}</time></td>\n'
        )
        if fide:
            cells += (f'<td class="num" data-label="FIDE">{row.fide_text}</td>\n'
                      '<td class="num" data-label="FIDE ±">'
                      f'{decimal(row.fide_change_text)}</td>\n')
        out.append(cells + "</tr>\n")
    return Markup("".join(out))


class RatedGame(Protocol):
    """What a row of a player's rated games shows
    (:class:`standgen.site.club_ratings.RatedGame`)."""

    @property
    def date(self) -> str: ...
    @property
    def event(self) -> Link: ...
    @property
    def round(self) -> int: ...
    @property
    def opponents(self) -> str: ...
    @property
    def board(self) -> bool: ...
    @property
    def result(self) -> str: ...
    @property
    def before(self) -> float: ...
    @property
    def after(self) -> float: ...
    @property
    def change_text(self) -> str: ...
    @property
    def fide_text(self) -> str: ...


def games_html(games: Sequence[RatedGame], fide: bool) -> Markup:
    """Return the ``<tr>`` rows of a player's rated games as the rating page's template
    loop writes them (``site_templates/club_player.html``), in the active language
    (``fide``: with the FIDE column): a new round makes the pages of all its players
    again, each with up to 200 games (``tests/test_club_rows.py`` renders both ways)."""
    date, round_, before = gettext("Date"), gettext("Round"), gettext("Before")
    change, against = gettext("Change"), gettext("Against")
    out = []
    for game in games:
        event = game.event
        opponents = _escape(game.opponents)
        fide_cell = (f'<td class="num" data-label="FIDE ±">{decimal(game.fide_text)}</td>'
                     if fide else "")
        out.append(
            f'<tr>\n<td data-label="{date}"><time datetime="{_escape(game.date)}">'
            f'{_escape(localdate(game.date))}</time></td>\n'
            f'<td class="grow" data-key="event"><a href="{_escape(event.href)}">'
            f'{_escape(event.label)}</a></td>\n'
            f'<td class="num" data-label="{round_}">{game.round}</td>\n'
            f'<td data-key="result">{_escape(gettext(game.result))}</td>\n'
            f'<td class="num" data-label="{before}">{decimal(f"{game.before:.2f}")}</td>\n'
            '<td class="num score" data-key="rating"><span class="stack-only">→ </span>'
            f'{decimal(f"{game.after:.2f}")}</td>\n'
            f'<td class="num" data-label="{change}">{decimal(game.change_text)}</td>\n'
            f'{fide_cell}<td class="opponents-cell" data-label="{against}">'
            + (f'<span class="sub">{opponents}</span>' if game.board else opponents)
            + "</td>\n</tr>\n")
    return Markup("".join(out))
