"""The ``site`` floor: event reports -> every output file of the published site, in memory.

This package's ``__init__`` imports nothing, so its modules never import each other
through it (no import cycle): the entry points are :mod:`standgen.site.renderer`
(:class:`~standgen.site.renderer.SiteRenderer`, :func:`~standgen.site.renderer.render_site`)
and the page registry :mod:`standgen.site.pages`.
"""
