"""The commands of standgen, one module each (as MkDocs' ``mkdocs/commands/``).

``build`` (and the site's shipped templates and help), ``check``, ``new``, ``export`` and
``import_trf`` are here; the event-day commands (``pair``, ``bye``, ``drop``, ``status``)
are :mod:`standgen.eventday`, ``forget`` is :mod:`standgen.forget` and ``watch`` is
:mod:`standgen.watch`. :mod:`standgen.build` names them all for the CLI and for scripts;
``standgen/cli.py`` only parses and prints.
"""
