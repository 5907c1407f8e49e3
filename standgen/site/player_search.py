"""The home page's player search (issue #29): a small static index of every player.

``players/search.json`` lists every player of every event by name, with the link to
their history page and the events they played. The home page fetches it when a reader
starts to type (``assets/site.js``, which folds names as phone users type them); input
text is never written into a script file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from standgen.site.club_pages import ClubInputs, Output
from standgen.site.history import history_page_path

SEARCH_INDEX = "players/search.json"


def player_search(inputs: ClubInputs) -> Iterator[Output]:
    """Yield ``players/search.json``: every player (id, name, history page, events);
    nothing when the pages to make (``inputs.only``) leave it as it was."""
    if inputs.only is not None and not inputs.only.search:
        return
    events: dict[str, list[tuple[str, str]]] = {}
    names: dict[str, str] = {}
    for part in sorted(inputs.events, key=lambda p: (p.head[2], p.head[0])):
        for pid, name in part.players:
            names[pid] = name  # the newest event's spelling
            events.setdefault(pid, []).append((part.head[2], part.head[1]))
    players = [
        {"id": pid, "name": names[pid], "href": history_page_path(pid),
         "events": [name for _, name in sorted(events[pid], reverse=True)]}
        for pid in sorted(names, key=lambda p: (names[p].casefold(), p))
    ]
    text = json.dumps({"players": players}, ensure_ascii=False, sort_keys=True,
                      separators=(",", ":"))
    yield SEARCH_INDEX, (text + "\n").encode("utf-8")
