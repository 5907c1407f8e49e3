"""Notices are shown once: the first time a file is seen in that form (issue #27 item 3).

A notice (:attr:`standgen.errors.Problem.notice`) asks nothing of the TO: "starts with a
byte-order mark ... nothing to do". Printed on every ``check`` and ``build`` of the day
it buries the warnings that do ask for something, so the commands print each notice the
first time they meet it for that file, and remember it in the user's cache folder
(:func:`standgen.site.markdown.cache_folder`; ``STANDGEN_CACHE=off`` shows every notice
every time). A cache that cannot be read or written shows the notice again: never an
error.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from standgen.errors import Problem
from standgen.site.markdown import cache_folder

STORE = "notices-seen.json"
KEEP = 20_000  # the most recent notices remembered


def first_seen(problems: Iterable[Problem]) -> list[Problem]:
    """Return ``problems`` without the notices shown before, in file and line order, and
    remember the notices among them."""
    ordered = sorted(set(problems), key=lambda p: (p.path, p.line, p.message))
    notices = {p: _key(p) for p in ordered if p.notice}
    folder = cache_folder()
    if not notices or folder is None:
        return ordered
    store = folder / STORE
    seen = _read(store)
    known = set(seen)
    shown = [p for p in ordered if not p.notice or notices[p] not in known]
    fresh = list(dict.fromkeys(key for key in notices.values() if key not in known))
    if fresh:
        _write(store, [*seen, *fresh][-KEEP:])
    return shown


def _key(problem: Problem) -> str:
    where = os.path.abspath(problem.path)
    return hashlib.sha256(f"{where}\0{problem.message}".encode()).hexdigest()[:24]


def _read(store: Path) -> list[str]:
    try:
        found = json.loads(store.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [k for k in found if isinstance(k, str)] if isinstance(found, list) else []


def _write(store: Path, keys: list[str]) -> None:
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        temporary = store.with_name(f".{store.name}.{os.getpid()}")
        temporary.write_text(json.dumps(keys), encoding="utf-8")
        temporary.replace(store)
    except OSError:
        pass
