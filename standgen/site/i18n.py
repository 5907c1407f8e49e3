"""The site in its players' language (issue #32): gettext catalogues, dates and numbers.

Each page is made and rendered with one language active: an event's pages in the
event's ``language`` (else its season's, else the site's), the pages above events in
the site's. Text standgen writes goes through :func:`gettext` (``_`` in templates,
Jinja2's i18n extension); names and TOs' text are never translated. English is the
message ids themselves, so an English site is what it was before languages.

The catalogues are ``standgen/locale/<lang>/LC_MESSAGES/standgen.po`` with their
compiled ``.mo`` beside them, committed, so a fresh ``pip install`` (editable or a
wheel) has them; ``scripts/i18n.py`` compiles them again after an edit. Dates and
numbers take the language's form from Babel's CLDR data (``14.03.2026``, ``0,5``).
"""

from __future__ import annotations

import datetime as dt
import gettext as gettext_module
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

LOCALE = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "standgen"
ENGLISH = "en"

_ACTIVE: ContextVar[str] = ContextVar("standgen_language", default=ENGLISH)


@cache
def _catalogue(language: str) -> gettext_module.NullTranslations:
    return gettext_module.translation(DOMAIN, localedir=str(LOCALE), languages=[language],
                                      fallback=True)


@cache
def catalogue_bytes(language: str) -> bytes:
    """Return the compiled catalogue of ``language`` as stored (b"" for English or a
    language without one): what templates translated on compiling depend on."""
    path = LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        return path.read_bytes()
    except OSError:
        return b""


def current() -> str:
    """Return the language of the page being made."""
    return _ACTIVE.get()


@contextmanager
def active(language: str) -> Iterator[None]:
    """Make and render pages in ``language`` meanwhile."""
    token = _ACTIVE.set(language or ENGLISH)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def gettext(message: str) -> str:
    """Return ``message`` in the active language (itself in English or untranslated)."""
    language = _ACTIVE.get()
    if language == ENGLISH or not message:  # "" would be the catalogue's header
        return message
    return _catalogue(language).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Return the singular or plural form for ``n`` in the active language."""
    language = _ACTIVE.get()
    if language == ENGLISH:
        return singular if n == 1 else plural
    return _catalogue(language).ngettext(singular, plural, n)


_ = gettext

# the messages of site_templates/assets/site.js, handed to it in a JSON block of each page
# not in English (base.html); the script fills in {name}, {query} and {number}
SCRIPT = (
    "No player matches \u201c{query}\u201d.",
    "{number} players match; the first 30:",
    "The search needs the site served from a web server.",
    "Following {name} in this browser. ",
    "Stop following",
    "Stop following {name}",
    "proposed",
    "in progress",
    "paired, not started",
    "The table is wider than the screen: swipe it sideways for more columns \u2192",
)


def script_messages() -> dict[str, str]:
    """Return the script's messages in the active language, by their English text."""
    return {message: gettext(message) for message in SCRIPT}


@dataclass(frozen=True)
class Text:
    """Text made once and shown in the language active when it is shown: messages with
    their ``{name}`` values, joined (an event's summary is made before its pages' language
    is known, and the pages above events may be in another)."""

    parts: tuple[tuple[str, tuple[tuple[str, object], ...]], ...]

    @classmethod
    def of(cls, message: str, **values: object) -> Text:
        """Return the text of one message and its values."""
        return cls(((message, tuple(sorted(values.items()))),))

    def __add__(self, other: Text) -> Text:
        return Text(self.parts + other.parts)

    def __str__(self) -> str:
        return "".join(gettext(message).format(**dict(values)) for message, values in self.parts)

    @property
    def english(self) -> str:
        """Return the text in English (what code compares)."""
        return "".join(message.format(**dict(values)) for message, values in self.parts)


def decimal(text: str) -> str:
    """Return a number written with "." in the active language's form ("0,5")."""
    language = _ACTIVE.get()
    if language == ENGLISH or "." not in text:
        return text
    return text.replace(".", _decimal_symbol(language))


@cache
def _decimal_symbol(language: str) -> str:
    from babel.numbers import get_decimal_symbol

    return str(get_decimal_symbol(language))


def localdate(value: str) -> str:
    """Return an ISO date (``2026-04-11``) as the active language writes it (as it is in
    English): the templates' ``localdate`` filter."""
    language = _ACTIVE.get()
    if language == ENGLISH or not value:
        return value
    return _localdate(language, value)


@lru_cache(maxsize=4096)
def _localdate(language: str, value: str) -> str:
    """Return :func:`localdate` in ``language`` (a list of 2,000 players has a few hundred
    dates: Babel's formatting is the costly part, once per date)."""
    with active(language):
        try:
            return date(dt.date.fromisoformat(value), value)
        except ValueError:
            return value


def date(value: dt.date, english: str) -> str:
    """Return a date in the active language's medium form, or ``english`` (the page's own
    English form) in English."""
    language = _ACTIVE.get()
    if language == ENGLISH:
        return english
    from babel.dates import format_date

    return str(format_date(value, format="medium", locale=language))
