"""The players' pending reports, disputes and marks, kept on disk beside the secret.

``pending.json`` in the venue folder (mode 600), written whole aside and renamed, so a
restart of the desk (or a killed one) keeps every report a player was told is waiting.
A damaged file is set aside as ``pending.json.damaged`` and the desk starts empty: the
log still holds every report.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

from standgen.venue.guard import TableKey
from standgen.venue.rounds import Report


class Pending:
    """Pending reports, disputes and marks by table, saved on every change."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "pending.json"
        self.reports: dict[TableKey, dict[int, Report]] = {}
        self.disputes: dict[TableKey, tuple[Report, Report]] = {}
        self.marks: dict[TableKey, str] = {}  # a table saved from reports that needs a look
        self._lock = threading.Lock()
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            for entry in data.get("reports", []):
                key = _key(entry["table"])
                self.reports.setdefault(key, {})[int(entry["seat"])] = _report(entry)
            for entry in data.get("disputes", []):
                first, second = (_report(r) for r in entry["reports"])
                self.disputes[_key(entry["table"])] = (first, second)
            for entry in data.get("marks", []):
                self.marks[_key(entry["table"])] = str(entry["why"])
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError):
            self.reports, self.disputes, self.marks = {}, {}, {}
            try:
                os.replace(self.path, self.path.with_name("pending.json.damaged"))
            except OSError:
                pass

    def save(self) -> None:
        """Write the file whole: aside, flushed to the disk, renamed over the old one."""
        data: dict[str, Any] = {
            "reports": [{"table": list(k), "seat": s, **_plain(r)}
                        for k, seats in sorted(self.reports.items())
                        for s, r in sorted(seats.items())],
            "disputes": [{"table": list(k), "reports": [_plain(a), _plain(b)]}
                         for k, (a, b) in sorted(self.disputes.items())],
            "marks": [{"table": list(k), "why": why} for k, why in sorted(self.marks.items())],
        }
        text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        with self._lock:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            tmp = self.path.with_name(f".pending.json.tmp-{os.getpid()}-{id(self)}")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, self.path)
            finally:
                tmp.unlink(missing_ok=True)

    def forget(self, key: TableKey) -> bool:
        """Drop a table's reports and dispute; return whether there were any."""
        found = self.reports.pop(key, None) is not None
        return self.disputes.pop(key, None) is not None or found


def _key(value: Any) -> TableKey:
    event, number, table = value
    return str(event), int(number), int(table)


def _plain(report: Report) -> dict[str, Any]:
    data = asdict(report)
    data["values"] = dict(report.values)
    return data


def _report(entry: dict[str, Any]) -> Report:
    return Report(int(entry["seat"]), tuple(sorted((str(k), str(v)) for k, v in
                                                   dict(entry["values"]).items())),
                  str(entry["client"]), float(entry.get("time", 0.0)), str(entry.get("row", "")))
