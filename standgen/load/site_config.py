"""``site.toml`` at the events root, and the ``[points]`` table of every ``season.toml``.

Both are optional. ``site.toml`` names the site (``title``) and where it is published
(``site_url``: makes feed links absolute and puts a QR code on printed pairings). A
season's ``[points]`` says how placings score towards the season leaderboard
(docs/seasons.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from standgen.errors import Problem
from standgen.load.config import (
    key_line,
    language_problem,
    publish_problem,
    read_toml,
    unknown_keys,
)
from standgen.load.files import display, read_text, suggest
from standgen.load.values import MAX_URL_CHARS, number_problem
from standgen.model import LANGUAGES, PUBLISH_DEFAULTS, Season, SiteConfig

SITE_KEYS = ("title", "site_url", "publish", "language")
POINTS_KEYS = ("placings", "participation", "best")
# [points] ranges (docs/seasons.md): a season's totals stay exact and far from overflowing
MAX_PLACINGS = 1000
MAX_SEASON_POINTS = 1_000_000
MAX_BEST = 10_000
# top-level output folders the site writes itself (help/ and assets/ are checked in load)
SITE_FOLDERS = ("players", "archive")


def load_site(root: Path, seasons: Sequence[Season], problems: list[Problem]) -> SiteConfig:
    """Return ``site.toml`` as a SiteConfig (defaults when absent), recording every problem.

    Also checks each season's ``[points]`` and that no top-level folder takes a name the
    site uses for its own pages (``players/``, ``archive/``).
    """
    for name in SITE_FOLDERS:
        if (root / name).is_dir():
            problems.append(Problem(display(root / name), 1, f"folder name '{name}' is reserved "
                                    "for the site's own pages; rename it"))
    for season in seasons:
        problems.extend(check_points(season))
    path = root / "site.toml"
    if not path.is_file():
        return SiteConfig()
    parsed = read_toml(path, problems)
    if parsed is None:
        return SiteConfig()
    data, text = parsed
    where = display(path)
    start = len(problems)
    problems.extend(unknown_keys(data, text, SITE_KEYS, where))
    title = data.get("title", SiteConfig.title)
    if not isinstance(title, str) or not title.strip():
        problems.append(Problem(where, key_line(text, "title"),
                                "'title' must be text in quotes, e.g. title = \"Club events\""))
    url = data.get("site_url", "")
    if not isinstance(url, str) or (url and not _web_address(url)):
        problems.append(Problem(where, key_line(text, "site_url"), "'site_url' must be the "
                                "site's full address, e.g. site_url = \"https://club.example/\""))
    elif len(url) > MAX_URL_CHARS:
        problems.append(Problem(where, key_line(text, "site_url"), f"'site_url' is {len(url):,} "
                                f"characters long, over the limit of {MAX_URL_CHARS}; give the "
                                "site's address, e.g. site_url = \"https://club.example/\""))
    publish = data.get("publish", SiteConfig.publish)
    if publish not in PUBLISH_DEFAULTS:
        problems.append(Problem(where, key_line(text, "publish"),
                                publish_problem("publish", publish)))
    language = data.get("language", SiteConfig.language)
    if language not in LANGUAGES:
        problems.append(Problem(where, key_line(text, "language"), language_problem(language)))
    if len(problems) > start:
        return SiteConfig()
    assert isinstance(title, str) and isinstance(url, str) and isinstance(publish, str)
    if url and not url.endswith("/"):
        url += "/"
    return SiteConfig(title=title.strip(), site_url=url, publish=publish, language=language)


def site_publish(root: Path) -> str:
    """Return site.toml's ``publish`` default for every event under ``root`` ("full"
    without one; a wrong value is :func:`load_site`'s problem, and then "hidden": a build
    that goes on anyway publishes less, never more)."""
    path = root / "site.toml"
    if not path.is_file():
        return SiteConfig.publish
    parsed = read_toml(path, [])
    if parsed is None:
        return "hidden"
    value = parsed[0].get("publish", SiteConfig.publish)
    return value if isinstance(value, str) and value in PUBLISH_DEFAULTS else "hidden"


def _web_address(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not any(
        c.isspace() or c in "\"'<>" for c in url
    )


def check_points(season: Season) -> list[Problem]:
    """Return the problems of a season's ``[points]`` table (docs/seasons.md)."""
    points = season.points
    if not points:
        return []
    where = season.source.path
    problems: list[Problem] = []
    text = ""
    if where:
        text = read_text(Path(where), []) or ""

    def bad(key: str, message: str) -> None:
        problems.append(Problem(where, key_line(text, key), message))

    for key in points:
        if key not in POINTS_KEYS:
            bad(key, f"unknown key '{key}' in [points]" + (suggest(key, POINTS_KEYS)
                or "; keys are: " + ", ".join(POINTS_KEYS)))
    placings = points.get("placings", [])
    if (not isinstance(placings, list) or len(placings) > MAX_PLACINGS
            or any(number_problem(p, 0, MAX_SEASON_POINTS) for p in placings)):
        bad("placings", "'placings' must be a list of points for 1st, 2nd, 3rd ... (at most "
            f"{MAX_PLACINGS:,} places, each 0 to {MAX_SEASON_POINTS:,} points), "
            "e.g. placings = [25, 18, 15, 12, 10]")
    participation = points.get("participation", 0)
    if number_problem(participation, 0, MAX_SEASON_POINTS):
        bad("participation", "'participation' must be a number of points every ranked player "
            f"gets per event, from 0 to {MAX_SEASON_POINTS:,}")
    best = points.get("best")
    if best is not None and number_problem(best, 1, MAX_BEST, integer=True):
        bad("best", f"'best' must be a whole number of events (1 to {MAX_BEST:,}) that count; "
            "leave it out to count every event")
    return problems
