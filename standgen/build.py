"""The library's entry points behind the CLI: every command, by the name scripts use.

Each command is its own module under :mod:`standgen.commands` (``build``, ``check``,
``new``, ``export``, ``import_trf``); the event-day commands are
:mod:`standgen.eventday`. This module names them together, so that ``cli.py`` and
scripts import one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from standgen.commands.build import DOCS as DOCS
from standgen.commands.build import TEMPLATES as TEMPLATES
from standgen.commands.build import Progress as Progress
from standgen.commands.build import build as build
from standgen.commands.build import render as render
from standgen.commands.build import shipped as shipped
from standgen.commands.build import tree_root as tree_root
from standgen.eventday import Paired as Paired  # the event-day commands' home
from standgen.eventday import drop_player as drop_player
from standgen.eventday import pair as pair
from standgen.eventday import request_bye as request_bye
from standgen.eventday import status as status

if TYPE_CHECKING:
    from standgen.commands.check import check as check
    from standgen.commands.export import export_club as export_club
    from standgen.commands.import_trf import Imported as Imported
    from standgen.commands.import_trf import import_trf as import_trf
    from standgen.commands.new import DAY_COLUMNS as DAY_COLUMNS
    from standgen.commands.new import new_event as new_event
else:  # imported when first read: `standgen build` does without the TRF reader
    def __getattr__(name: str) -> Any:
        """Return a command's name from its module, imported now (PEP 562)."""
        if name == "check":
            from standgen.commands import check as module
        elif name == "export_club":
            from standgen.commands import export as module
        elif name in ("Imported", "import_trf"):
            from standgen.commands import import_trf as module
        elif name in ("DAY_COLUMNS", "new_event"):
            from standgen.commands import new as module
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return getattr(module, name)
