"""Values read from TOML: numbers finite and in range, text without control characters.

One place for the checks every ``event.toml``, ``season.toml`` and ``site.toml`` value
goes through (issue #15, items 5 and 7; the ranges are listed in docs/data-contract.md):

* :func:`toml_problems` walks a parsed TOML document right after parsing (at most
  :data:`MAX_TOML_DEPTH` levels deep): no string (keys included) may hold a control
  character, the same characters the
  CSV loader refuses (:data:`standgen.load.files.CONTROL`), and no number may be
  ``inf`` or ``nan``. XML 1.0 (section 2.2, ``Char``) forbids the C0 controls and
  U+FFFE / U+FFFF, so they would make ``feed.xml`` ill-formed; none of the contract's
  fields needs one.
* :func:`number_problem` (defined beside :class:`standgen.formats.base.Option`, on the
  rules floor, and re-exported here) says what is wrong with a number outside its
  range; the event loader applies it to every format option that declares ``bounds``,
  the season and Diplomacy loaders to theirs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from standgen.errors import Problem
from standgen.formats.base import number_problem as number_problem  # the checker, re-exported
from standgen.load.files import CONTROL

# the CSV loader's control characters, and the two noncharacters XML 1.0 ``Char`` excludes
# (TOML's \uFFFE escape can write them)
LINE_CONTROL = re.compile(f"{CONTROL.pattern}|[\ufffe\uffff]")
# line breaks (LF, CRLF) and tabs are text in the keys that hold Markdown; a lone CR is not
TEXT_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]|\r(?!\n)")
# longest site_url: an address longer than this is a mistake, and a QR code (version 40,
# error correction M) holds 2,331 bytes at most, fewer in the version printed pairings need
MAX_URL_CHARS = 200

# the deepest nesting of lists and tables in a TOML file: standgen's deepest key is 3
# levels down ([options] bands = [{ from = 0 ... }]); checking stays far from Python's
# recursion limit
MAX_TOML_DEPTH = 20

KeyLine = Callable[[str], int]


def toml_problems(data: object, where: str, line_of: KeyLine, multiline: tuple[str, ...] = ()
                  ) -> list[Problem]:
    """Return a problem for each string holding a control character and each number that is
    ``inf`` or ``nan``, anywhere in a parsed TOML document.

    ``line_of(key)`` gives the line of a key, 1 when not found; a problem is reported on
    the line of the innermost key of the bad value that is found;
    top-level keys in ``multiline`` (Markdown such as season.toml's ``description``) may
    hold line breaks and tabs. Keys are checked like values.
    """
    problems: list[Problem] = []

    def walk(value: object, path: tuple[str, ...], lines: bool, depth: int) -> bool:
        """Record the problems of one value; return False when it is nested too deep."""
        name = ".".join(path)
        # the innermost key found at the start of a line (keys of inline tables are not)
        line = next((n for n in map(line_of, reversed(path)) if n > 1), 1)
        if depth > MAX_TOML_DEPTH:
            problems.append(Problem(where, line, f"'{name}' holds lists or tables nested more "
                                    f"than {MAX_TOML_DEPTH} levels deep; no key needs that"))
            return False
        if isinstance(value, str):
            bad = (TEXT_CONTROL if lines else LINE_CONTROL).search(value)
            if bad:
                problems.append(Problem(where, line, f"'{name}' holds the control character "
                                        f"U+{ord(bad.group()[0]):04X}; remove it (control "
                                        "characters are refused, typed or written as "
                                        "\\u escapes)"))
        elif isinstance(value, float) and not math.isfinite(value):
            problems.append(Problem(where, line, f"'{name}' is {value}; write a finite number "
                                    "(inf and nan are refused)"))
        elif isinstance(value, dict):
            for key, item in value.items():
                if LINE_CONTROL.search(key):
                    inside = f" in '{name}'" if path else ""
                    problems.append(Problem(where, line, f"a key{inside} holds a control "
                                            "character; remove it"))
                    continue
                if not walk(item, (*path, key), lines or (not path and key in multiline),
                            depth + 1):
                    return False
        elif isinstance(value, list):
            for item in value:
                if not walk(item, path, lines, depth + 1):
                    return False
        return True

    walk(data, (), False, 0)
    return problems
