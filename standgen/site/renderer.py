"""The ``site`` stage: reports -> every output file of the published site, in memory.

:class:`SiteRenderer` renders the page types of the registry (:mod:`standgen.site.pages`)
one scope at a time; :func:`render_site` renders them all. They read only the templates
and the ``docs/`` Markdown; writing the files is the caller's job, so full builds,
incremental builds, ``watch`` and tests share one code path.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from pathlib import Path

from standgen.clubs.games import EventGames, event_games
from standgen.clubs.summary import ClubTables
from standgen.model import EventsTree
from standgen.pipeline import EventReport
from standgen.site import i18n, pages
from standgen.site.club_pages import ClubInputs, ClubSelection, InPlace
from standgen.site.contexts import DEVELOPER_DOCS, HelpDoc, Site, help_title
from standgen.site.history import Appearance
from standgen.site.history_splice import HistorySplice, LineChange
from standgen.site.markdown import IMAGE_SUFFIXES, MarkdownRenderer
from standgen.site.render import Templates
from standgen.site.scopes import (
    Depends,
    EventInputs,
    HelpInputs,
    ListInputs,
    PageType,
    PlayerInputs,
    SeasonInputs,
)
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
    """Return every Markdown file under ``docs_dir`` by slug (its path without ``.md``),
    but the pages for developers (``DEVELOPER_DOCS``: they stay in the repository)."""
    docs: dict[str, HelpDoc] = {}
    if not docs_dir.is_dir():
        return docs
    for path in sorted(docs_dir.rglob("*.md")):
        slug = path.relative_to(docs_dir).with_suffix("").as_posix()
        if slug in DEVELOPER_DOCS:
            continue
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
        self.templates = Templates(templates_dir, fast)
        self.templates_dir = templates_dir
        self.renderer = MarkdownRenderer(cache=fast)
        self.images = doc_images(docs_dir)
        self.site = Site(tree=tree, docs=load_docs(docs_dir), built=build_time(),
                         images=frozenset(self.images), fast=fast)

    def preload(self) -> None:
        """Compile every registered page type's template and make the Markdown renderer
        now (before workers fork)."""
        self.templates.preload(pages.templates())
        self.renderer.preload()

    def _render(self, page_type: PageType, inputs: object) -> Iterator[tuple[str, bytes]]:
        """Yield the files of one registered page type made from ``inputs``: a page in
        its language (made and rendered with it active), a data file (JSON, CSV, feeds,
        downloads) always as the data contract writes it."""
        template = page_type.template
        made_pages = iter(page_type.make(inputs))
        language = self.language_of(inputs) if template is not None else i18n.ENGLISH
        while True:
            with i18n.active(language):
                try:
                    path, made = next(made_pages)
                except StopIteration:
                    return
                # a page may come ready, as bytes (a rating page whose place alone moved)
                out = (made if template is None or isinstance(made, bytes)
                       else self.templates.render(template, made))
            yield path, out

    def language_of(self, inputs: object) -> str:
        """Return the language of the pages made from ``inputs``: an event's (event.toml,
        else the innermost season's, else the site's), a season's, else the site's."""
        tree = self.site.tree
        report = getattr(inputs, "report", None)
        season = getattr(inputs, "season", None)
        path: tuple[str, ...] = ()
        if report is not None:
            if report.event.config.language:
                return str(report.event.config.language)
            path = report.event.path
        elif season is not None:
            path = season.path + ("",)
        for depth in range(len(path) - 1, -1, -1):
            for found in tree.seasons:
                if found.path == path[:depth] and found.language:
                    return found.language
        return tree.site.language

    def scope_files(self, depends: Depends | str, inputs: object
                    ) -> Iterator[tuple[str, bytes]]:
        """Yield the files of every page type of the scope ``depends`` made from
        ``inputs`` (a scope added to the build's, :mod:`standgen.builder.scopes`, calls
        this with its name and its inputs)."""
        for page_type in pages.of(depends):
            yield from self._render(page_type, inputs)

    def event_files(self, report: EventReport) -> Iterator[tuple[str, bytes]]:
        """Yield every file below one event's folder (the ``EVENT`` page types: its page,
        JSON and CSV, feed, downloads, extra pages, round pages and player pages), from
        its published form (docs/privacy.md)."""
        yield from self.scope_files(Depends.EVENT,
                               EventInputs(self.site, self.renderer, report.public))

    def event_parts(self, report: EventReport, rounds: Collection[int]
                    ) -> tuple[Iterator[tuple[str, bytes]], Iterator[tuple[str, bytes]]]:
        """Return the files of :meth:`event_files` in two parts: first what a player
        reads for a result typed into the rounds ``rounds`` (their page and
        ``pairings.json``, the event's ``standings.json``: ``pages.FIRST_OF_ROUND`` and
        ``FIRST_OF_EVENT``), then every other file. What the pages share is made once."""
        inputs = EventInputs(self.site, self.renderer, report.public)
        first = inputs.with_rounds(lambda number: number in rounds)
        rest = inputs.with_rounds(lambda number: number not in rounds)

        def part(early: bool) -> Iterator[tuple[str, bytes]]:
            for page_type in pages.of(Depends.EVENT):
                if page_type.name in pages.FIRST_OF_ROUND:
                    yield from self._render(page_type, first if early else rest)
                elif (page_type.name in pages.FIRST_OF_EVENT) == early:
                    yield from self._render(page_type, inputs)
        return part(True), part(False)

    def list_files(self, events: Sequence[EventSummary], only: Collection[str] | None = None
                   ) -> Iterator[tuple[str, bytes]]:
        """Yield the pages that list every event: the ``SITE`` page types (home, archive;
        they read each event's head, ``EventSummary.head``), only those named in
        ``only``, when given."""
        inputs = ListInputs(self.site, self.renderer, events)
        for page_type in pages.of(Depends.SITE):
            if only is None or page_type.name in only:
                yield from self._render(page_type, inputs)

    def season_files(
        self, events: Sequence[EventSummary], seasons: Collection[tuple[str, ...]] | None = None,
    ) -> Iterator[tuple[str, bytes]]:
        """Yield the ``SEASON`` page types of each season (only those at ``seasons``, when
        given), from the summaries of ``events`` (those of the season's events whole)."""
        site = self.site
        for season in site.tree.seasons:
            if not season.path or (seasons is not None and season.path not in seasons):
                continue  # a season.toml at the events root: the home page is its page
            yield from self.scope_files(Depends.SEASON,
                                   SeasonInputs(site, self.renderer, season, events))

    def history_files(
        self, events: Sequence[EventSummary], only: Collection[str] | None = None
    ) -> Iterator[tuple[str, bytes]]:
        """Yield the ``PLAYER`` page types of each player (only those of ``only``, when
        given), by id."""
        by_id: dict[str, list[Appearance]] = {}
        for summary in events:
            for line in summary.players:
                if only is None or line.id in only:
                    by_id.setdefault(line.id, []).append((summary, line))
        for pid in sorted(by_id):
            yield from self.player_files(pid, by_id[pid])

    def player_files(self, pid: str, appearances: Sequence[Appearance]
                     ) -> Iterator[tuple[str, bytes]]:
        """Yield the ``PLAYER`` page types of one player, from their line in each event."""
        yield from self.scope_files(Depends.PLAYER, PlayerInputs(self.site, pid, appearances))

    def player_spliced(self, pid: str, changes: Sequence[LineChange],
                       written: Callable[[str], bytes | None]
                       ) -> list[tuple[str, bytes]] | None:
        """Return the ``PLAYER`` page types of one player made from the pages the last
        build wrote (``written``) and the lines that changed, each by its ``splice``;
        None when one of them cannot be (make them with :meth:`player_files`)."""
        files = []
        language = self.language_of(PlayerInputs(self.site, pid, ()))
        for page_type in pages.of(Depends.PLAYER):
            if page_type.splice is None or page_type.path is None:
                return None
            rel = page_type.path(pid)
            old = written(rel)
            if old is None:
                return None
            with i18n.active(language):
                made = page_type.splice(HistorySplice(pid, old, changes))
            if made is None:
                return None
            files.append((rel, made))
        return files

    @staticmethod
    def player_paths(pid: str) -> list[str]:
        """Return the files the ``PLAYER`` page types make for ``pid`` (to remove them
        when the player has no event left)."""
        return [page_type.path(pid) for page_type in pages.of(Depends.PLAYER)
                if page_type.path is not None]

    def club_files(self, parts: Sequence[EventGames], tables: ClubTables | None = None,
                   only: ClubSelection | None = None,
                   written: Callable[[str], bytes | None] | None = None,
                   in_place: InPlace | None = None,
                   ) -> Iterator[tuple[str, bytes]]:
        """Yield the ``CLUB`` page types (ratings and meta) from every event's games, or
        from the summaries a build kept (``tables``); only the pages of ``only``, when
        given (``written``: the pages as the last build wrote them, ``in_place``: the
        same, put right in place, see :class:`ClubInputs`)."""
        yield from self.scope_files(Depends.CLUB, ClubInputs(self.site, parts, tables, only,
                                                             written, in_place))

    def help_files(self) -> Iterator[tuple[str, bytes]]:
        """Yield the ``HELP`` page types: the help pages (``docs/``) and the assets."""
        yield from self.scope_files(Depends.HELP, HelpInputs(self.site, self.renderer, self.images,
                                                        self.templates_dir))
        self.renderer.save_cache()


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
    put(site.list_files(summaries))
    put(site.season_files(summaries))
    put(site.history_files(summaries))
    put(site.club_files([event_games(r, tree.seasons) for r in reports]))
    for report in reports:
        put(site.event_files(report))
    put(site.help_files())
    return dict(sorted(files.items()))
