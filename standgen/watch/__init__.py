"""``standgen watch``: serve the site on 127.0.0.1, rebuild on change, reload the browser.

Data contract section 2. Modelled on MkDocs' ``livereload`` and ``commands/serve.py``:
file events are debounced, a request waits while a build is pending or running, and open
pages long-poll ``/__standgen/events`` and reload when the build generation changes.

Bad input never takes the site down: the last good build stays on disk and every HTML
page is served with the problems (``path:line: message``) in a banner until a build
succeeds. Every build is ``standgen build``'s own (:func:`standgen.builder.build_held`,
into the served folder, as MkDocs' ``serve`` calls ``build()``): its build state does the
"only what changed" work (Lektor's idea: content hashes, not mtimes), so only the events
whose files changed are loaded and rendered again, and only files whose bytes changed are
written. A build that fails writes nothing, so the last good site stays.
"""

from standgen.watch.core import DEBOUNCE, HOST, ServeError, Watch, serve
from standgen.watch.server import (
    EVENTS_URL,
    LIVE_JS,
    SCRIPT_URL,
    Attachment,
    same_site_location,
)

__all__ = ["DEBOUNCE", "EVENTS_URL", "HOST", "LIVE_JS", "SCRIPT_URL", "Attachment",
           "ServeError", "Watch", "same_site_location", "serve"]
