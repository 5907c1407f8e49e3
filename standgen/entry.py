"""The ``standgen`` command's entry: the console script and ``python -m standgen``.

Python's compiled bytecode is kept even where ``PYTHONDONTWRITEBYTECODE`` (or ``-B``) is
set, as it is in many containers and CI images: pip compiles an installed package's
bytecode whatever that says, but an editable install (the README's ``pip install -e .``)
would compile standgen's 300 modules from source in every process, 0.4 to 0.5 CPU s of
every build, more than a result's whole rebuild (issue #33, docs/performance.md,
"Bytecode kept"). The flag is set before the command's modules are imported (this module
is the only one compiled each time); Python writes the bytecode beside the sources (or
under ``PYTHONPYCACHEPREFIX``) and skips it silently where it cannot write.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run the command line (:func:`standgen.cli.main`), keeping compiled bytecode."""
    sys.dont_write_bytecode = False
    from standgen.cli import main as command_line

    command_line()
