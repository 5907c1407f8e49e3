"""The format registry: ``format`` in event.toml -> :class:`Format`.

Adding a format is one module and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping

from standgen.formats.base import Format
from standgen.formats.steamroller import STEAMROLLER

FORMATS: Mapping[str, Format] = {f.id: f for f in (STEAMROLLER,)}

__all__ = ["FORMATS", "Format"]
