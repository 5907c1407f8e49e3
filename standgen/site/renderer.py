"""The ``site`` stage: reports -> every output file of the published site, in memory.

:func:`render_site` reads only the templates and the ``docs/`` Markdown; writing the
files is the caller's job, so builds, ``watch`` and tests share one code path.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path

import standgen.site.links as links
from standgen.model import EventsTree
from standgen.pipeline import EventReport
from standgen.site.contexts import HelpDoc, Site, help_title
from standgen.site.downloads import pairings_csv, standings_csv
from standgen.site.event_contexts import event_page, rounds_of
from standgen.site.feed import FEED, atom_feed, feed_path
from standgen.site.history import ARCHIVE, archive_page, player_histories
from standgen.site.hook_contexts import extra_page, extra_pages, format_downloads
from standgen.site.index_contexts import help_pages, home_page, season_page
from standgen.site.jsonout import dumps, pairings_document, standings_document
from standgen.site.markdown import IMAGE_SUFFIXES, MarkdownRenderer, help_asset
from standgen.site.player_contexts import index_event, player_page
from standgen.site.render import Templates
from standgen.site.round_contexts import round_page, slips_page
from standgen.site.stamp import build_time
from standgen.site.summary import EventSummary, summarise

__all__ = ["SiteRenderer", "load_docs", "render_site"]


def doc_images(docs_dir: Path) -> dict[str, Path]:
    """Return every PNG, JPEG and WebP file under ``docs_dir`` by its path there (help pictures)."""
    if not docs_dir.is_dir():
        return {}
    return {
        path.relative_to(docs_dir).as_posix(): path
        for path in sorted(docs_dir.rglob("*"))
        if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES
    }


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


class SiteRenderer:
    """Renders the site's files, one part at a time, with what every page shares.

    One per build: the templates are compiled and the help pages' Markdown is read once.
    The parts are independent, so a build may render events in any order, in several
    processes, or only the events whose input changed (:mod:`standgen.buildstate`).
    """

    def __init__(self, tree: EventsTree, docs_dir: Path, templates_dir: Path,
                 fast: bool = True) -> None:
        self.templates = Templates(templates_dir)
        self.templates_dir = templates_dir
        self.renderer = MarkdownRenderer(cache=fast)
        self.images = doc_images(docs_dir)
        self.site = Site(tree=tree, docs=load_docs(docs_dir), built=build_time(),
                         images=frozenset(self.images), fast=fast)

    def event_files(self, report: EventReport) -> Iterator[tuple[str, bytes]]:
        """Yield every file below one event's folder: its page, JSON and CSV, feed,
        downloads, extra pages, round pages and player pages."""
        site, templates, renderer = self.site, self.templates, self.renderer
        event = report.event
        extras = extra_pages(report)
        downloads = format_downloads(report)
        names = ["standings.json", "standings.csv", FEED, *downloads]
        front = event_page(site, report, renderer, [(p.slug, p.title) for p in extras], names)
        yield links.event_page(event), templates.render("event", front)
        yield (links.event_file(event, "standings.json"),
               dumps(standings_document(event, report.standings), site.fast))
        yield links.event_file(event, "standings.csv"), standings_csv(report.standings)
        yield feed_path(report), atom_feed(report, site.tree.site.site_url, site.built)
        for name, content in downloads.items():
            yield links.event_file(event, name), content
        for extra in extras:
            context = extra_page(site, report, extra, site.event_crumbs(event), front.frame.stamp)
            yield context.frame.path, templates.render("extra", context)
        for rnd, proposed in rounds_of(report):
            yield (links.round_page(event, rnd.number),
                   templates.render("round", round_page(site, report, rnd, proposed)))
            slips = slips_page(site, report, rnd, proposed)
            yield slips.frame.path, templates.render("slips", slips)
            yield (links.event_file(event, f"round-{rnd.number}", "pairings.json"),
                   dumps(pairings_document(rnd, proposed), site.fast))
            yield (links.event_file(event, f"round-{rnd.number}", "pairings.csv"),
                   pairings_csv(rnd, event.player_by_id))
        index = index_event(report, site)
        for player in event.players:
            yield (links.player_page(event, player.id),
                   templates.render("player",
                                    player_page(site, report, player, index, renderer)))

    def index_files(
        self, events: Sequence[EventSummary], seasons: Collection[tuple[str, ...]] | None = None,
        lists: bool = True,
    ) -> Iterator[tuple[str, bytes]]:
        """Yield the pages that list events: home, season pages (only those at ``seasons``,
        when given) and the archive (home and archive only with ``lists``: they read
        each event's head, ``EventSummary.head``)."""
        site, templates = self.site, self.templates
        if lists:
            yield links.INDEX, templates.render("home", home_page(site, events))
        for season in site.tree.seasons:
            if not season.path or (seasons is not None and season.path not in seasons):
                continue  # a season.toml at the events root: the home page is its page
            yield (links.season_page(season.path),
                   templates.render("season",
                                    season_page(site, season, events, self.renderer)))
        if lists:
            yield ARCHIVE, templates.render("archive", archive_page(events))

    def history_files(
        self, events: Sequence[EventSummary], only: Collection[str] | None = None
    ) -> Iterator[tuple[str, bytes]]:
        """Yield each player's history page (only those of ``only``, when given)."""
        for history in player_histories(self.site, events, only):
            yield history.frame.path, self.templates.render("history", history)

    def help_files(self) -> Iterator[tuple[str, bytes]]:
        """Yield the help pages (``docs/``) and the assets."""
        for page in help_pages(self.site, self.renderer):
            yield page.frame.path, self.templates.render("help", page)
        self.renderer.save_cache()
        for name, path in self.images.items():
            yield help_asset(name), path.read_bytes()
        assets = self.templates_dir / "assets"
        for asset in sorted(assets.rglob("*")):
            if asset.is_file():
                yield "assets/" + asset.relative_to(assets).as_posix(), asset.read_bytes()


def render_site(
    tree: EventsTree,
    reports: Sequence[EventReport],
    docs_dir: Path,
    templates_dir: Path,
    fast: bool = True,
) -> dict[str, bytes]:
    """Return every file of the site as relative POSIX path -> bytes, sorted by path.

    Data contract section 3: home, season pages, per event its page, ``standings.json``,
    round pages with ``pairings.json`` (the proposed round too) and player pages; plus
    the help pages from ``docs/`` and ``assets/``. Extensions (docs/site.md): CSV
    downloads, an Atom feed per event, the format's extra pages and downloads, each
    player's history across events (``players/<id>/``) and the archive by year.
    Same input (and ``SOURCE_DATE_EPOCH``), byte-identical output, ``fast`` or not
    (the caller passes ``standgen.perf.enabled()``).
    """
    site = SiteRenderer(tree, docs_dir, templates_dir, fast)
    files: dict[str, bytes] = {}

    def put(parts: Iterable[tuple[str, bytes]]) -> None:
        for path, content in parts:
            if path in files:
                raise ValueError(f"two outputs at {path}")
            files[path] = content

    summaries = [summarise(report) for report in reports]
    put(site.index_files(summaries))
    put(site.history_files(summaries))
    for report in reports:
        put(site.event_files(report))
    put(site.help_files())
    return dict(sorted(files.items()))
