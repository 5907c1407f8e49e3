"""``standgen export``: the club's data in its own hands (issue #20).

One workbook (``.xlsx``: a sheet each), or a set of ``.csv`` or ``.parquet`` files (the
named file holds the games; the other tables sit beside it as ``NAME.standings.csv`` and
so on), chosen by the file's extension:

- ``games``: the tidy table, a row per player per game (:mod:`standgen.clubs.games`);
- ``standings``: every event's final standings;
- ``ratings``: the OpenSkill rating list, and ``rating_changes`` per game;
- ``meta``: each faction's (power's) games, score share and 95 % interval;
- ``matchups``: faction against faction.

Text from the events is untrusted: every text cell of a spreadsheet file (CSV, XLSX) is
neutralised against formulas as the site's CSV downloads are (OWASP "CSV Injection").
Files are written to a temporary name and renamed, so a failed export leaves no half file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

import pandas as pd

from standgen.clubs.data import club_data
from standgen.clubs.meta import faction_table, matchups
from standgen.errors import InputError, Problem
from standgen.model import EventsTree
from standgen.pipeline import EventReport, report
from standgen.spreadsheet import neutralise

FORMATS = (".xlsx", ".csv", ".parquet")


def club_tables(tree: EventsTree, reports: tuple[EventReport, ...] | None = None,
                fast: bool = True) -> dict[str, pd.DataFrame]:
    """Return every table of the export by sheet name, from the loaded tree; ``fast``:
    the fast paths (the caller passes ``standgen.perf.enabled()``)."""
    made = reports if reports is not None else tuple(report(e) for e in tree.events)
    data = club_data(made, tree, fast)
    games = data.games
    listing, changes = data.ratings
    standings = pd.DataFrame(
        [{"event": m.event.slug, "event_name": m.event.config.name,
          "date": m.event.config.date.isoformat(), "format": m.event.config.format,
          "rank": row.rank, "player": row.player.id, "name": row.player.name,
          "faction": row.player.faction, "score": float(row.score)}
         for m in made for row in m.standings.rows],
        columns=["event", "event_name", "date", "format", "rank", "player", "name",
                 "faction", "score"])
    long = pd.concat([matchups(games, fmt).assign(format=fmt)
                      for fmt in sorted(games["format"].unique().tolist())] or [pd.DataFrame()],
                     ignore_index=True)
    return {"games": games, "standings": standings, "ratings": listing,
            "rating_changes": changes, "meta": faction_table(games), "matchups": long}


def export(tables: Mapping[str, pd.DataFrame], target: Path) -> list[Path]:
    """Write ``tables`` to ``target`` as its extension says; return the files written.

    Raises InputError for an extension it does not write.
    """
    suffix = target.suffix.lower()
    if suffix not in FORMATS:
        raise InputError([Problem(target.as_posix(), 1, f"cannot export to '{suffix or 'no'}'"
                                  " files; name a .xlsx, .csv or .parquet file")])
    target.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".xlsx":
        _atomic(target, lambda tmp: _xlsx(tables, tmp))
        return [target]
    written = []
    for name, table in tables.items():
        path = target if name == "games" else target.with_name(
            f"{target.stem}.{name}{suffix}")
        _atomic(path, _writer(table, suffix))
        written.append(path)
    return written


def _writer(table: pd.DataFrame, suffix: str) -> Callable[[Path], object]:
    """Return the function writing ``table`` to a path as a ``suffix`` file."""
    def write(path: Path) -> object:
        if suffix == ".csv":
            return _safe(table).to_csv(path, index=False)
        return table.to_parquet(path, index=False)

    return write


def _xlsx(tables: Mapping[str, pd.DataFrame], path: Path) -> None:
    with pd.ExcelWriter(path, engine="openpyxl") as book:
        for name, table in tables.items():
            _safe(table).to_excel(book, sheet_name=name[:31], index=False)


def _safe(table: pd.DataFrame) -> pd.DataFrame:
    """Return ``table`` with every text cell neutralised against spreadsheet formulas."""
    safe = table.copy()
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = [neutralise(v) if isinstance(v, str) else v for v in safe[column]]
    return safe


def _atomic(path: Path, write: Callable[[Path], object]) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}{path.suffix}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
