"""The Jinja2 environment: one per build, templates loaded once, autoescaping on.

Templates are compiled when first used, and the compiled code is kept in Jinja2's
bytecode cache (a folder in the system's temporary directory, keyed by each template's
source), so a build that renders only a few pages does not compile every template.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, MutableMapping
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from standgen.site import i18n


def _quick_escape() -> Callable[[Any], Markup]:
    """Return ``markupsafe.escape``, quicker for the two kinds of value a page prints most.

    Every ``{{ value }}`` of an autoescaping template calls ``escape``: half a million
    calls for an archive of 25 events. MarkupSafe 3 does the escaping itself in C but
    wraps it in two Python calls (``escape``, then ``Markup.__new__``); for a ``str`` and
    an ``int`` this makes the same ``Markup`` with one. Anything else (``Markup``, objects
    with ``__html__``, floats, None) goes to ``escape`` itself. Without MarkupSafe's C
    escaping (another version, or none compiled), ``escape`` is used for everything.
    ``tests/test_site_html.py`` checks the two give equal results.
    """
    try:
        from markupsafe._speedups import _escape_inner
    except ImportError:
        return escape
    make = str.__new__

    def quick(value: Any) -> Markup:
        kind = type(value)
        if kind is str:
            return make(Markup, _escape_inner(value))
        if kind is int:
            return make(Markup, str(value))  # digits and "-": nothing to escape
        return escape(value)

    return quick


ESCAPE = _quick_escape()


class _Template(jinja2.Template):
    """A template whose output expressions use :data:`ESCAPE`.

    Jinja2 compiles ``{{ value }}`` to ``escape(value)``, ``escape`` being a global of
    the template's compiled module (imported from ``jinja2.runtime``, which imports
    MarkupSafe's); the module's namespace is handed over here, once per template load,
    and only that template's name is replaced: nothing global changes.
    """

    @classmethod
    def _from_namespace(
        cls, environment: jinja2.Environment, namespace: MutableMapping[str, Any],
        globals: MutableMapping[str, Any],
    ) -> jinja2.Template:
        if namespace.get("escape") is escape:
            namespace["escape"] = ESCAPE
        return super()._from_namespace(environment, namespace, globals)

def _localdate(value: str) -> str:
    """Return an ISO date (``2026-04-11``) as the page's language writes it (as it is in
    English)."""
    if i18n.current() == i18n.ENGLISH or not value:
        return value
    try:
        return i18n.date(dt.date.fromisoformat(value), value)
    except ValueError:
        return value


class Templates:
    """Renders page contexts with the templates in ``site_templates/``."""

    def __init__(self, templates_dir: Path) -> None:
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(templates_dir)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            auto_reload=False,
            bytecode_cache=jinja2.FileSystemBytecodeCache(),
            extensions=["jinja2.ext.i18n"],
        )
        self.env.install_gettext_callables(  # type: ignore[attr-defined]
            i18n.gettext, i18n.ngettext, newstyle=True)
        self.env.globals["lang"] = i18n.current
        self.env.globals["script_messages"] = i18n.script_messages
        self.env.filters["localdate"] = _localdate
        self.env.filters["translated"] = i18n.gettext  # text of ours held in a value, escaped
        self.env.filters["decimal"] = i18n.decimal  # "1.25" as "1,25" in German
        self.env.template_class = _Template
        self._templates: dict[str, jinja2.Template] = {}

    def preload(self, names: Iterable[str]) -> None:
        """Compile the templates ``names`` now (before worker processes fork, so they share
        them); the builder names every template of the page registry."""
        for name in names:
            self._template(name)

    def _template(self, name: str) -> jinja2.Template:
        template = self._templates.get(name)
        if template is None:
            template = self._templates[name] = self.env.get_template(f"{name}.html")
        return template

    def render(self, name: str, context: Any) -> bytes:
        """Return the page ``name`` rendered with ``context`` (available as ``page``), UTF-8."""
        return self._template(name).render(page=context).encode()
