"""One home per rule (issue #30): a fact about a format is a field of its ``Format``.

No module outside ``standgen/formats/`` and ``standgen/site/formats/`` compares a
format's id (``fmt.id == "swiss"``, ``config.format in (...)``) or keys a table by it:
what such a check wants to know is a field of :class:`standgen.formats.base.Format`.
"""

from __future__ import annotations

import ast
from pathlib import Path

from standgen.formats import FORMATS

PACKAGE = Path(__file__).resolve().parent.parent / "standgen"
HOMES = ("formats", "site/formats")  # where a format's id may be spelt
# modules whose format-name checks another change will move (issue #33 owns clubs/ and
# the club pages); the fields they need are on Format: colours, ratings, starting_score,
# faction_label and seats. The test fails once one is clean, so that its line goes too.
PENDING: tuple[str, ...] = ()


def _names(node: ast.AST) -> list[str]:
    """Return the format ids spelt as string literals in ``node`` (a tuple or set too)."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [i.value for i in items
            if isinstance(i, ast.Constant) and isinstance(i.value, str) and i.value in FORMATS]


def format_name_checks(package: Path = PACKAGE) -> dict[str, list[str]]:
    """Return ``module -> ["line: id", ...]`` for each comparison with a format id and each
    table keyed by one, outside the formats' homes."""
    found: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package).as_posix()
        if where.startswith(tuple(f"{home}/" for home in HOMES)):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                spelt = [n for side in (node.left, *node.comparators) for n in _names(side)]
            elif isinstance(node, ast.Dict):
                spelt = [n for key in node.keys if key is not None for n in _names(key)]
            else:
                continue
            found.setdefault(where, []).extend(f"{node.lineno}: {n}" for n in spelt)
    return {where: lines for where, lines in found.items() if lines}


def test_no_format_name_is_compared_outside_the_formats() -> None:
    found = format_name_checks()
    assert {w: lines for w, lines in found.items() if w not in PENDING} == {}
    clean = [w for w in PENDING if w not in found]
    assert clean == [], f"no format name left: remove {clean} from PENDING"


def test_the_check_finds_a_planted_comparison(tmp_path: Path) -> None:
    (tmp_path / "audit.py").write_text('def f(event):\n    return event.config.format == '
                                       '"swiss" or event.config.format in ("mcmahon",)\n'
                                       'TABLE = {"old-world": 1}\n')
    assert {w: sorted(lines) for w, lines in format_name_checks(tmp_path).items()} == {
        "audit.py": ["2: mcmahon", "2: swiss", "3: old-world"]}


# the modules that read or write CSV: the loader's reader, the round files' writer, and
# others for other files (each says which); a round file is read and written only by the
# first two
CSV_HOMES = {
    "load/files.py": "the loader's reader of every CSV file, round files included",
    "roundfile/text.py": "the one writer of round files (and their reader, through "
                         "load/files)",
    "eventday.py": "players.csv: a column of one player changed (bye, drop)",
    "venue/desk.py": "players.csv: the names the desk shows",
    "trf/folder.py": "players.csv of an imported TRF (its round files go through roundfile)",
    "site/downloads.py": "the site's CSV downloads",
}
CSV_CALLS = ("reader", "DictReader", "writer", "DictWriter")


def csv_users(package: Path = PACKAGE) -> dict[str, list[int]]:
    """Return ``module -> lines`` of every ``csv.reader``/``DictReader``/``writer`` call."""
    found: dict[str, list[int]] = {}
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in CSV_CALLS and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "csv"):
                found.setdefault(path.relative_to(package).as_posix(), []).append(node.lineno)
    return found


def test_round_files_have_one_reader_and_one_writer() -> None:
    found = csv_users()
    assert {w: lines for w, lines in found.items() if w not in CSV_HOMES} == {}
    stale = [w for w in CSV_HOMES if w not in found]
    assert stale == [], f"no CSV left: remove {stale} from CSV_HOMES"


def test_the_csv_check_finds_a_planted_reader(tmp_path: Path) -> None:
    (tmp_path / "venue").mkdir()
    (tmp_path / "venue" / "rounds.py").write_text(
        "import csv\n\ndef rows(text):\n    return list(csv.DictReader(text.splitlines()))\n")
    assert csv_users(tmp_path) == {"venue/rounds.py": [4]}
