"""Markdown to safe HTML: event descriptions, army lists, season texts and the help pages.

Everything a TO or a player writes is untrusted. It is rendered with Python-Markdown and
then sanitised with nh3 (ammonia): no scripts, no styles, no iframes, no event handlers,
no ``javascript:`` (or any other non-web) URLs, no images (the site makes no external
requests); links get ``rel="nofollow noopener"``. The help pages (``docs/``, part of
standgen) may show their own PNG, JPEG and WebP files, which the build copies beside them.

Python-Markdown's time and recursion grow with some inputs; the untrusted texts are
checked against limits when they are loaded (:mod:`standgen.load.markdown_limits`), so
``check`` refuses what would be slow here, and a ``RecursionError`` that slips through
shows the text as written instead of failing the build.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import posixpath
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import nh3
from markupsafe import Markup

if TYPE_CHECKING:
    import markdown as md  # imported when first needed: a build of events without
    # Markdown whose help pages are cached (an incremental one) never loads it

_TAGS = frozenset(nh3.ALLOWED_TAGS) - {"img", "area", "map"}
_SCHEMES = frozenset({"http", "https", "mailto"})
_USER_REL = "nofollow noopener"

LinkRewrite = Callable[[str], str]


class MarkdownRenderer:
    """Renders Markdown with one Python-Markdown instance per build (it is reset per call),
    made when first needed: a build that renders no Markdown never pays for it.
    ``cache``: keep the help pages' conversions between builds (:class:`HtmlCache`)."""

    def __init__(self, cache: bool = True) -> None:
        self.cache = cache
        self._md: md.Markdown | None = None
        self._cache: HtmlCache | None = None

    def preload(self) -> None:
        """Make the Python-Markdown instance now (before workers fork: each would import
        its extensions again)."""
        if self._md is None:
            self._md = _markdown()

    def _html(self, text: str) -> str:
        if self._md is None:
            self._md = _markdown()
        self._md.reset()
        try:
            return str(self._md.convert(text))
        except RecursionError:
            # load refuses text nested deeper than its limits (load.markdown_limits), so
            # this is a defence only: the text is shown as it is rather than lost, and
            # the build does not fail (issue #15: nothing lost, nothing hung)
            self._md = None  # its state after the error is unknown: make a new one
            return f"<pre>{html.escape(text)}</pre>"

    def untrusted(self, text: str) -> Markup:
        """Return sanitised HTML for Markdown a TO or player wrote (event.md, army lists)."""
        if not text.strip():
            return Markup("")
        return Markup(sanitise(self._html(text)))

    def help_page(
        self, text: str, rewrite: LinkRewrite, images: LinkRewrite | None = None
    ) -> Markup:
        """Return sanitised HTML for a help page, its links to other ``.md`` files rewritten.

        The Markdown conversion of the help pages (the same ``docs/`` every build, a third
        of a small site's build time) is kept between builds: see :class:`HtmlCache`.
        """
        if self._cache is None:
            self._cache = HtmlCache.open() if self.cache else HtmlCache(None)
        html = self._cache.get(text)
        if html is None:
            html = self._cache.put(text, self._html(text))
        return Markup(sanitise(html, rel=None, rewrite=rewrite, images=images))

    def save_cache(self) -> None:
        """Keep this build's help page conversions for the next build (see HtmlCache)."""
        if self._cache is not None:
            self._cache.save()


def _markdown() -> md.Markdown:
    import markdown
    from markdown.extensions.fenced_code import FencedCodeExtension
    from markdown.extensions.sane_lists import SaneListExtension
    from markdown.extensions.tables import TableExtension

    # instances, not names: naming them makes Python-Markdown scan every installed
    # package's entry points (a tenth of a second)
    return markdown.Markdown(
        extensions=[TableExtension(), FencedCodeExtension(), SaneListExtension()],
        output_format="html",
    )


class HtmlCache:
    """Markdown → HTML conversions of the help pages, kept between builds.

    Python-Markdown's output is a function of the text, the library's version and the
    extensions this module configures, so the key is a SHA-256 over the three (this
    module's source stands for the configuration); the cached HTML is sanitised after
    it is read, like a fresh conversion. The cache is one JSON file in the user's cache
    folder (``$STANDGEN_CACHE``, else ``$XDG_CACHE_HOME/standgen`` or
    ``~/.cache/standgen``; ``STANDGEN_CACHE=off`` disables it), rewritten atomically with
    only the entries the last build used. A cache that cannot be read or written is
    ignored: it never fails a build, and never changes a byte of the site
    (``tests/test_performance_equivalence.py`` builds with and without it).
    """

    def __init__(self, path: Path | None, entries: dict[str, str] | None = None) -> None:
        self.path = path
        self._old = entries or {}
        self._used: dict[str, str] = {}
        self._salt = _salt()

    @classmethod
    def open(cls) -> HtmlCache:
        path = _cache_file()
        if path is None:
            return cls(None)
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            loaded = {}
        entries = loaded if isinstance(loaded, dict) else {}
        return cls(path, {k: v for k, v in entries.items()
                          if isinstance(k, str) and isinstance(v, str)})

    def _key(self, text: str) -> str:
        return hashlib.sha256(self._salt + text.encode("utf-8")).hexdigest()

    def get(self, text: str) -> str | None:
        key = self._key(text)
        html = self._used.get(key) or self._old.get(key)
        if html is not None:
            self._used[key] = html
        return html

    def put(self, text: str, html: str) -> str:
        self._used[self._key(text)] = html
        return html

    def save(self) -> None:
        if self.path is None or self._used == self._old:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            partial = self.path.with_name(f".{self.path.name}.{os.getpid()}")
            partial.write_text(json.dumps(self._used, sort_keys=True), encoding="utf-8")
            os.replace(partial, self.path)
            self._old = dict(self._used)
        except OSError:
            pass  # a read-only home: the next build converts again


def _salt() -> bytes:
    import markdown

    source = Path(__file__).read_bytes()
    return hashlib.sha256(markdown.__version__.encode() + b"\0" + source).digest()


def cache_folder() -> Path | None:
    """Return the user's standgen cache folder (``$STANDGEN_CACHE``, else
    ``$XDG_CACHE_HOME/standgen`` or ``~/.cache/standgen``), or None when
    ``STANDGEN_CACHE=off``."""
    chosen = os.environ.get("STANDGEN_CACHE", "")
    if chosen.lower() == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "standgen"


def _cache_file() -> Path | None:
    folder = cache_folder()
    return folder / "help-markdown.json" if folder is not None else None


def sanitise(
    html: str, rel: str | None = _USER_REL, rewrite: LinkRewrite | None = None,
    images: LinkRewrite | None = None,
) -> str:
    """Return ``html`` with everything but plain formatting, tables and web links removed.

    ``images`` (help pages only) keeps ``<img>`` whose ``src`` it maps to a local file's
    link; it returns ``""`` for any other source, and that image is dropped.
    """

    def attribute(tag: str, attr: str, value: str) -> str | None:
        if tag == "a" and attr == "href" and rewrite is not None:
            return rewrite(value)
        if tag == "img" and attr == "src":
            return (images(value) or None) if images is not None else None
        return value

    tags = set(_TAGS)
    attributes = {tag: set(names) for tag, names in nh3.ALLOWED_ATTRIBUTES.items()}
    if images is not None:
        tags.add("img")
        attributes["img"] = {"src", "alt", "title", "width", "height"}
    cleaned = nh3.clean(
        html,
        tags=tags,
        attributes=attributes,
        clean_content_tags={"script", "style"},
        url_schemes=set(_SCHEMES),
        link_rel=rel,
        attribute_filter=attribute,
    )
    if images is not None:  # an image whose source was refused is removed, alt and all
        cleaned = _NO_SOURCE.sub("", cleaned)
    return cleaned


_NO_SOURCE = re.compile(r"<img(?![^>]*\ssrc=)[^>]*>")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")


def docs_image_rewrite(
    page_slug: str, page_path: str, help_path: Callable[[str], str],
    relative: Callable[[str, str], str], exists: Callable[[str], bool],
) -> LinkRewrite:
    """Return the rewrite of a help page's image: ``screenshots/x.png`` beside
    ``docs/<page_slug>.md`` -> the relative link to its copy in the site's help folder.

    Only PNG, JPEG and WebP files inside ``docs/`` that ``exists`` are kept (``""`` otherwise).
    """
    folder = posixpath.dirname(page_slug)

    def rewrite(src: str) -> str:
        if ":" in src or src.startswith(("/", "\\")) or "?" in src or "#" in src:
            return ""
        target = posixpath.normpath(posixpath.join(folder, src))
        if target.startswith("../") or not target.lower().endswith(IMAGE_SUFFIXES):
            return ""
        if not exists(target):
            return ""
        return relative(page_path, help_asset(target))

    return rewrite


def help_asset(docs_path: str) -> str:
    """Return the output path of the file ``docs/<docs_path>`` (an image of a help page)."""
    return "help/" + docs_path


def docs_link_rewrite(
    page_slug: str,
    page_path: str,
    help_path: Callable[[str], str],
    relative: Callable[[str, str], str],
) -> LinkRewrite:
    """Return a rewrite of links between help pages: ``../tiebreaks/sos.md#x`` on the page of
    ``docs/<page_slug>.md`` -> the relative link to that page's ``index.html``.

    Links that are not relative links to ``.md`` files are kept as they are, so the docs
    read the same on GitHub and on the site.
    """
    folder = posixpath.dirname(page_slug)

    def rewrite(href: str) -> str:
        target, _, fragment = href.partition("#")
        if not target.endswith(".md") or ":" in target or target.startswith("/"):
            return href
        slug = posixpath.normpath(posixpath.join(folder, target))[: -len(".md")]
        if slug.startswith("../"):
            return href
        link = relative(page_path, help_path(slug))
        return f"{link}#{fragment}" if fragment else link

    return rewrite
