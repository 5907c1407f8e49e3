"""The Jinja2 environment: one per build, templates loaded once, autoescaping on."""

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
        )
        self._templates = {name: self.env.get_template(f"{name}.html") for name in PAGE_TEMPLATES}

    def render(self, name: str, context: Any) -> bytes:
        """Return the page ``name`` rendered with ``context`` (available as ``page``), UTF-8."""
        return self._templates[name].render(page=context).encode()
