"""Output paths of every page, and relative links between them.

Every link is relative and names ``index.html`` explicitly, so the site works under a
project-site base path and from the local file system (data contract section 3).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

INDEX = "index.html"
STYLESHEET = "assets/style.css"
SCRIPT = "assets/site.js"


class Located(Protocol):
    """An event, or anything that knows an event's folder (its summary)."""

    @property
    def path(self) -> tuple[str, ...]: ...


def page(*folders: str) -> str:
    """Return the output path of the page of a folder: ``a/b/index.html``."""
    if "" in folders:  # empty names are left out
        folders = tuple(f for f in folders if f)
    return "/".join(folders) + "/" + INDEX if folders else INDEX


def event_page(event: Located) -> str:
    """Return the output path of an event's standings page."""
    return page(*event.path)


def event_file(event: Located, *parts: str) -> str:
    """Return the output path of a file below an event's folder."""
    return "/".join((*event.path, *parts))


def round_page(event: Located, number: int) -> str:
    """Return the output path of a round's pairings page."""
    return page(*event.path, f"round-{number}")


def player_page(event: Located, player: str) -> str:
    """Return the output path of a player's page in an event."""
    return page(*event.path, "players", player)


def help_page(slug: str) -> str:
    """Return the output path of the help page for ``docs/<slug>.md`` (``index``: help home)."""
    if slug in ("", "index"):
        return page("help")
    return page("help", *slug.split("/"))


def season_page(path: Sequence[str]) -> str:
    """Return the output path of a season's page."""
    return page(*path)


def relative(from_page: str, to_path: str) -> str:
    """Return the link from the page at ``from_page`` to the file at ``to_path``.

    Both are output paths from the site root, e.g. ``a/round-1/index.html`` ->
    ``a/players/bob/index.html`` gives ``../players/bob/index.html``.
    """
    depth = from_page.count("/")
    head = from_page.partition("/")[0]
    if not depth or not to_path.startswith(head + "/"):  # no folder in common
        return "../" * depth + to_path
    here = from_page.split("/")[:-1]
    there = to_path.split("/")
    common = 0
    while common < len(here) and common < len(there) - 1 and here[common] == there[common]:
        common += 1
    return "/".join([".."] * (len(here) - common) + there[common:])


def pages_in(from_page: str, folder: str) -> Callable[[str], str]:
    """Return the link from ``from_page`` to the page of each name in ``folder``: the same
    as ``relative(from_page, page(folder, name))``, quicker for many names (a player's
    history links to the history of everyone they ever met: hundreds of links a page).

    Every such link is one prefix, the name and ``/index.html``, but for the names of the
    folders ``from_page`` is itself in, which :func:`relative` links (``tests/test_links.py``)."""
    prefix = relative(from_page, page(folder, "\0")).rpartition("\0")[0]
    own = from_page.split("/")
    below = folder.split("/")
    inside = own[len(below)] if own[:len(below)] == below and len(own) > len(below) else None

    def link(name: str) -> str:
        if name == inside or not name:
            return relative(from_page, page(folder, name))
        return f"{prefix}{name}/{INDEX}"
    return link


def root_of(from_page: str) -> str:
    """Return the prefix from ``from_page`` to the site root: ``""``, ``../``, ``../../`` ..."""
    return "../" * from_page.count("/")



_SLUG = re.compile(r"[a-z0-9][a-z0-9-]*\Z")


def is_slug(name: str) -> bool:
    """Return whether ``name`` is a slug (``[a-z0-9][a-z0-9-]*``), safe as a folder name."""
    return bool(_SLUG.match(name))
