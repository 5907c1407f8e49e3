"""Cells safe to open in a spreadsheet: the one CSV-injection guard.

Names come from ``players.csv`` and are untrusted: a cell a spreadsheet would run as a
formula is prefixed with ``'`` (OWASP, "CSV Injection"). The site's CSV downloads
(:mod:`standgen.site.downloads`) and the club's export (:mod:`standgen.clubs.export`)
both write through :func:`neutralise`; it sits on the ground floor so that neither has
to borrow it from the other.
"""

from __future__ import annotations

import re
import unicodedata

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_RESULT_WORDS = ("+-", "-+", "--")  # forfeit results as round files write them
# a number as the site writes one (json_number), or with a plus sign: ASCII digits,
# an optional fraction and exponent; not "-Infinity", "-1_0", "-nan" or "-٣", which
# Python's float() reads
_PLAIN_NUMBER = re.compile(r"[-+]?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")


def neutralise(cell: str) -> str:
    """Return ``cell`` safe to open in a spreadsheet: ``'=1+1`` for ``=1+1``.

    OWASP, "CSV Injection": a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a
    carriage return is prefixed with ``'``; so is one starting with a compatibility form
    of those characters (full-width ``＝``, ``＋``, ``－``, ``＠``, small ``﹦`` ...: their
    NFKC form), which spreadsheets in East Asian locales read as the ASCII one. Plain
    numbers (``-2`` as a VP difference, ``-0.5``, ``+3.5``) and the forfeit results ``+-``, ``-+``,
    ``--`` are kept: neither runs as a formula.
    """
    if not cell:
        return cell
    first = unicodedata.normalize("NFKC", cell[0])[:1]
    if first in _FORMULA_START and not _PLAIN_NUMBER.match(cell) and cell not in _RESULT_WORDS:
        return "'" + cell
    return cell
