"""The Jinja2 environment: one per build and language, templates loaded once,
autoescaping on.

Templates are compiled when first used, and the compiled code is kept in Jinja2's
bytecode cache (a folder in the system's temporary directory, keyed by each template's
source, and by the language and its catalogue when the text is translated on
compiling), so a build that renders only a few pages does not compile every template.

Translated on compiling: ``{{ _("Standings") }}`` with one literal and nothing to
fill in becomes the translated text itself in the compiled template of each language
(:class:`_Fold`), so a page does not call gettext at every such string (a third of a
page's rendering time). What the call would have returned is what is written, to the
byte (``tests/test_render_fold.py``); ``fast=False`` (``perf.straightforward()``)
keeps the calls.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, MutableMapping
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.visitor import NodeTransformer
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

FOLD_VERSION = "2"  # of :class:`_Fold`: part of the bytecode cache's key
GETTEXT_NAMES = ("_", "gettext")


class _Fold(NodeTransformer):
    """Replace each ``_("literal")`` (or ``gettext("literal")``) of a template by what
    Jinja2's i18n extension would return for it in ``language``. Its "new style" gettext
    returns ``Markup(translation) % values`` (``ext._make_new_gettext``), so:

    - called with nothing to fill in: the translated text, marked safe and put through
      ``%`` with no values (``%%`` becomes ``%``), a constant;
    - called with values by name (``_("Round %(n)s", n=...)``): ``Markup(translation) %
      {"n": ...}``, the translation a constant and the values filled in (and escaped by
      ``Markup``) at render time: the call, its context lookup and the catalogue lookup
      gone (a player page has ~20 of them).

    ``ngettext``, filters, and calls with positional values or ``*``/``**`` stay calls."""

    def __init__(self, language: str) -> None:
        self.language = language

    def visit_Call(self, node: nodes.Call) -> nodes.Node:  # noqa: N802 (Jinja2's naming)
        self.generic_visit(node)
        message = _literal_gettext(node)
        if message is None:
            return node
        with i18n.active(self.language):
            text = i18n.gettext(message)
        if node.kwargs:
            values = nodes.Dict([nodes.Pair(nodes.Const(keyword.key), keyword.value,
                                            lineno=node.lineno) for keyword in node.kwargs],
                                lineno=node.lineno)
            return nodes.Mod(nodes.MarkSafe(nodes.Const(text)), values, lineno=node.lineno)
        try:
            folded = Markup(text) % {}
        except (TypeError, ValueError, KeyError):  # as the call would: left to render time
            return node
        return nodes.MarkSafe(nodes.Const(str(folded)), lineno=node.lineno)


def _literal_gettext(node: nodes.Call) -> str | None:
    """Return the message of ``_("literal", name=...)`` (or ``gettext``), else None."""
    name, args = node.node, node.args
    if (isinstance(name, nodes.Name) and name.name in GETTEXT_NAMES
            and len(args) == 1 and isinstance(args[0], nodes.Const)
            and type(args[0].value) is str
            and node.dyn_args is None and node.dyn_kwargs is None):
        return args[0].value
    return None


class _Environment(jinja2.Environment):
    """An environment whose templates are translated into :attr:`language` on compiling
    when :attr:`fold` is set (:class:`_Fold`)."""

    language = i18n.ENGLISH
    fold = False

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        if not self.fold:
            return tree
        folded = _Fold(self.language).visit(tree)
        assert isinstance(folded, nodes.Template)
        return folded


def _cache_pattern(language: str, fold: bool) -> str:
    """Return the bytecode cache's file pattern of templates compiled for ``language``:
    keyed by the language, its catalogue's bytes and :data:`FOLD_VERSION`, so a changed
    translation or folding compiles again."""
    if not fold:
        return "__jinja2_%s.cache"
    digest = hashlib.sha256(f"{FOLD_VERSION}\0{language}\0".encode())
    digest.update(i18n.catalogue_bytes(language))
    return f"__jinja2_%s.{language}-{digest.hexdigest()[:16]}.cache"


class Templates:
    """Renders page contexts with the templates in ``site_templates/``, in the language
    active when a page is rendered."""

    def __init__(self, templates_dir: Path, fast: bool = True) -> None:
        self.templates_dir = templates_dir
        self.fast = fast
        self._envs: dict[str, jinja2.Environment] = {}
        self._templates: dict[tuple[str, str], jinja2.Template] = {}
        self.env = self._env(i18n.ENGLISH)

    def _env(self, language: str) -> jinja2.Environment:
        """Return the environment compiling templates for ``language``: one for every
        language when text is translated on compiling, else the English one for all."""
        if not self.fast:
            language = i18n.ENGLISH
        env = self._envs.get(language)
        if env is not None:
            return env
        env = _Environment(
            loader=jinja2.FileSystemLoader(str(self.templates_dir)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            auto_reload=False,
            bytecode_cache=jinja2.FileSystemBytecodeCache(
                pattern=_cache_pattern(language, self.fast)),
            extensions=["jinja2.ext.i18n"],
        )
        env.language = language
        env.fold = self.fast
        env.install_gettext_callables(  # type: ignore[attr-defined]
            i18n.gettext, i18n.ngettext, newstyle=True)
        env.globals["lang"] = i18n.current
        env.globals["script_messages"] = i18n.script_messages
        env.filters["localdate"] = i18n.localdate
        env.filters["translated"] = i18n.gettext  # text of ours held in a value, escaped
        env.filters["decimal"] = i18n.decimal  # "1.25" as "1,25" in German
        env.template_class = _Template
        self._envs[language] = env
        return env

    def preload(self, names: Iterable[str]) -> None:
        """Compile the templates ``names`` now (before worker processes fork, so they share
        them); the builder names every template of the page registry. Other languages'
        templates are compiled when a page in them is first rendered."""
        for name in names:
            self._template(name)

    def _template(self, name: str) -> jinja2.Template:
        language = i18n.current() if self.fast else i18n.ENGLISH
        template = self._templates.get((language, name))
        if template is None:
            template = self._templates[language, name] = (
                self._env(language).get_template(f"{name}.html"))
        return template

    def render(self, name: str, context: Any) -> bytes:
        """Return the page ``name`` rendered with ``context`` (available as ``page``), UTF-8."""
        return self._template(name).render(page=context).encode()
