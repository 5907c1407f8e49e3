"""The ``site`` stage: reports -> every output file of the published site, in memory.

:func:`render_site` reads only the templates and the ``docs/`` Markdown; writing the
files is the caller's job, so builds, ``watch`` and tests share one code path.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from standgen.model import EventsTree
from standgen.pipeline import EventReport
from standgen.site import links
from standgen.site.contexts import HelpDoc, Site, help_title
from standgen.site.downloads import pairings_csv, standings_csv
from standgen.site.event_contexts import event_page, rounds_of
from standgen.site.feed import FEED, atom_feed, feed_path
from standgen.site.history import ARCHIVE, archive_page, player_histories
from standgen.site.hook_contexts import extra_page, extra_pages, format_downloads
from standgen.site.index_contexts import help_pages, home_page, season_page
from standgen.site.jsonout import dumps, pairings_document, standings_document
from standgen.site.markdown import MarkdownRenderer
from standgen.site.player_contexts import index_event, player_page
from standgen.site.render import Templates
from standgen.site.round_contexts import round_page
from standgen.site.stamp import build_time

__all__ = ["load_docs", "render_site"]


def load_docs(docs_dir: Path) -> dict[str, HelpDoc]:
    """Return every Markdown file under ``docs_dir`` by slug (its path without ``.md``)."""
    docs: dict[str, HelpDoc] = {}
    if not docs_dir.is_dir():
        return docs
    for path in sorted(docs_dir.rglob("*.md")):
        slug = path.relative_to(docs_dir).with_suffix("").as_posix()
        text = path.read_text(encoding="utf-8")
        docs[slug] = HelpDoc(slug, help_title(slug, text), text)
    return docs


def render_site(
    tree: EventsTree,
    reports: Sequence[EventReport],
    docs_dir: Path,
    templates_dir: Path,
) -> dict[str, bytes]:
    """Return every file of the site as relative POSIX path -> bytes, sorted by path.

    Data contract section 3: home, season pages, per event its page, ``standings.json``,
    round pages with ``pairings.json`` (the proposed round too) and player pages; plus
    the help pages from ``docs/`` and ``assets/``. Extensions (docs/site.md): CSV
    downloads, an Atom feed per event, the format's extra pages and downloads, each
    player's history across events (``players/<id>/``) and the archive by year.
    Same input (and ``SOURCE_DATE_EPOCH``), byte-identical output.
    """
    templates = Templates(templates_dir)
    renderer = MarkdownRenderer()
    site = Site(tree=tree, docs=load_docs(docs_dir), built=build_time())
    files: dict[str, bytes] = {}

    def put(path: str, content: bytes) -> None:
        if path in files:
            raise ValueError(f"two outputs at {path}")
        files[path] = content

    put(links.INDEX, templates.render("home", home_page(site, reports)))
    for season in tree.seasons:
        if not season.path:
            continue  # a season.toml at the events root: the home page is its page
        put(
            links.season_page(season.path),
            templates.render("season", season_page(site, season, reports, renderer)),
        )
    put(ARCHIVE, templates.render("archive", archive_page(reports)))
    for history in player_histories(site, reports):
        put(history.frame.path, templates.render("history", history))
    for report in reports:
        event = report.event
        extras = extra_pages(report)
        downloads = format_downloads(report)
        names = ["standings.json", "standings.csv", FEED, *downloads]
        front = event_page(site, report, renderer, [(p.slug, p.title) for p in extras], names)
        put(links.event_page(event), templates.render("event", front))
        put(
            links.event_file(event, "standings.json"),
            dumps(standings_document(event, report.standings)),
        )
        put(links.event_file(event, "standings.csv"), standings_csv(report.standings))
        put(feed_path(report), atom_feed(report, tree.site.site_url, site.built))
        for name, content in downloads.items():
            put(links.event_file(event, name), content)
        for extra in extras:
            context = extra_page(site, report, extra, site.event_crumbs(event), front.frame.stamp)
            put(context.frame.path, templates.render("extra", context))
        for rnd, proposed in rounds_of(report):
            put(
                links.round_page(event, rnd.number),
                templates.render("round", round_page(site, report, rnd, proposed)),
            )
            put(
                links.event_file(event, f"round-{rnd.number}", "pairings.json"),
                dumps(pairings_document(rnd, proposed)),
            )
            put(
                links.event_file(event, f"round-{rnd.number}", "pairings.csv"),
                pairings_csv(rnd, event.player_by_id),
            )
        index = index_event(report)
        for player in event.players:
            put(
                links.player_page(event, player.id),
                templates.render("player", player_page(site, report, player, index, renderer)),
            )
    for page in help_pages(site, renderer):
        put(page.frame.path, templates.render("help", page))
    for asset in sorted((templates_dir / "assets").rglob("*")):
        if asset.is_file():
            put(
                "assets/" + asset.relative_to(templates_dir / "assets").as_posix(),
                asset.read_bytes(),
            )
    return dict(sorted(files.items()))
