"""standgen: a static-site publisher for game tournaments.

The pipeline runs one way: ``load`` (events tree -> model) -> ``formats`` ->
``tiebreaks`` -> ``standings`` -> ``pairing`` -> ``site``.

Python's compiled bytecode is kept even where ``PYTHONDONTWRITEBYTECODE`` (or ``-B``) is
set, as it is in many containers and CI images: pip compiles an installed package's
bytecode whatever that says, but an editable install (the README's ``pip install -e .``)
compiles standgen's 300 modules from source in every process that does not keep it,
0.4 to 0.5 CPU s of every build, more than a result's whole rebuild (issue #33,
docs/performance.md, "Bytecode kept"). Python writes it beside the sources (or under
``PYTHONPYCACHEPREFIX``), and skips it silently where it cannot write.
"""

import sys as _sys

_sys.dont_write_bytecode = False

__version__ = "0.1.0"
