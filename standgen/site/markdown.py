"""Markdown to safe HTML: event descriptions, army lists, season texts and the help pages.

Everything a TO or a player writes is untrusted. It is rendered with Python-Markdown and
then sanitised with nh3 (ammonia): no scripts, no styles, no iframes, no event handlers,
no ``javascript:`` (or any other non-web) URLs, no images (the site makes no external
requests); links get ``rel="nofollow noopener"``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

import markdown as md
import nh3
from markupsafe import Markup

_TAGS = frozenset(nh3.ALLOWED_TAGS) - {"img", "area", "map"}
_SCHEMES = frozenset({"http", "https", "mailto"})
_USER_REL = "nofollow noopener"

LinkRewrite = Callable[[str], str]


class MarkdownRenderer:
    """Renders Markdown with one Python-Markdown instance per build (it is reset per call),
    made when first needed: a build that renders no Markdown never pays for it."""

    def __init__(self) -> None:
        self._md: md.Markdown | None = None

    def _html(self, text: str) -> str:
        if self._md is None:
            from markdown.extensions.fenced_code import FencedCodeExtension
            from markdown.extensions.sane_lists import SaneListExtension
            from markdown.extensions.tables import TableExtension

            # instances, not names: naming them makes Python-Markdown scan every installed
            # package's entry points (a tenth of a second)
            self._md = md.Markdown(
                extensions=[TableExtension(), FencedCodeExtension(), SaneListExtension()],
                output_format="html",
            )
        self._md.reset()
        return str(self._md.convert(text))

    def untrusted(self, text: str) -> Markup:
        """Return sanitised HTML for Markdown a TO or player wrote (event.md, army lists)."""
        if not text.strip():
            return Markup("")
        return Markup(sanitise(self._html(text)))

    def help_page(self, text: str, rewrite: LinkRewrite) -> Markup:
        """Return sanitised HTML for a help page, its links to other ``.md`` files rewritten."""
        html = self._html(text)
        return Markup(sanitise(html, rel=None, rewrite=rewrite))


def sanitise(html: str, rel: str | None = _USER_REL, rewrite: LinkRewrite | None = None) -> str:
    """Return ``html`` with everything but plain formatting, tables and web links removed."""

    def attribute(tag: str, attr: str, value: str) -> str | None:
        if tag == "a" and attr == "href" and rewrite is not None:
            return rewrite(value)
        return value

    return nh3.clean(
        html,
        tags=set(_TAGS),
        clean_content_tags={"script", "style"},
        url_schemes=set(_SCHEMES),
        link_rel=rel,
        attribute_filter=attribute,
    )


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
