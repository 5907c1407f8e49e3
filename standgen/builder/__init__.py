"""``standgen build``: the events tree -> the site folder, on every core, and incrementally.

The site is made scope by scope (:mod:`standgen.builder.scopes`: events, help, home and
archive, seasons, histories, the club's pages); a full build and an incremental one are
the same loop over the scopes, each made whole or updated.

Two ways to the same bytes (``tests/test_builder.py`` compares them with the in-memory
:func:`standgen.build.render`):

- **Full build.** Events are loaded, checked, ranked and rendered one at a time in
  worker processes (one per core), each writing its pages straight into a staging
  folder, so memory holds one event's pages per worker, never the whole site. The pages
  above events (home, seasons, archive, player histories) are rendered from each event's
  small summary. Any problem anywhere: the staging folder is dropped and ``output/``
  is untouched. Otherwise the staging folder is swapped in whole (MkDocs' serve loop),
  unchanged files hard-linked from the old site so they keep their modification time.
- **Incremental build.** With a build state from the last build of the same output
  (:mod:`standgen.buildstate`) and only a few event folders changed, only those events
  are loaded and rendered, and only the pages above events that show them (home,
  archive, their season, the histories of players whose line changed) are rendered
  again. Every changed event is checked before anything is written; then the files
  whose bytes changed are replaced through a journal (:func:`standgen.output.apply_changes`):
  a page is always whole, and a build killed half-way is finished or undone by the next.
"""

from standgen.builder.core import INCREMENTAL_LIMIT, build, build_held
from standgen.builder.record import Built, Progress

__all__ = ["INCREMENTAL_LIMIT", "Built", "Progress", "build", "build_held"]
