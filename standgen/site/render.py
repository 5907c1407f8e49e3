"""The Jinja2 environment: one per build, templates loaded once, autoescaping on.

Templates are compiled when first used, and the compiled code is kept in Jinja2's
bytecode cache (a folder in the system's temporary directory, keyed by each template's
source), so a build that renders only a few pages does not compile every template.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

PAGE_TEMPLATES = (
    "home", "season", "event", "round", "player", "help", "history", "archive", "extra",
)


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
        )
        self._templates: dict[str, jinja2.Template] = {}

    def preload(self) -> None:
        """Compile every page template now (before worker processes fork, so they share it)."""
        for name in PAGE_TEMPLATES:
            self._template(name)

    def _template(self, name: str) -> jinja2.Template:
        template = self._templates.get(name)
        if template is None:
            template = self._templates[name] = self.env.get_template(f"{name}.html")
        return template

    def render(self, name: str, context: Any) -> bytes:
        """Return the page ``name`` rendered with ``context`` (available as ``page``), UTF-8."""
        return self._template(name).render(page=context).encode()
