"""The venue desk of ``standgen watch --venue``: results typed into a browser (issue #19 item 5).

The TO opens ``/__desk/<token>/`` (the token is random, printed once to the terminal and
never written anywhere) and types a table's result and stats; with ``--self-report``,
players open ``/__report/`` and report their own table with the code printed on its
result slip; a result counts when both players' reports agree, and a disagreement is
shown to the TO. Every entry goes through the loader (:func:`standgen.load.load_event`
on a staging copy of the event folder), is written atomically into the round file while
no build runs, is appended to a log, and makes the watcher rebuild the pages.

Security (docs/venue.md): the desk token is compared in constant time; every change is a
POST with a CSRF token (an HMAC of a per-run key, a nonce and the time) and, when the
browser sends them, an ``Origin`` equal to the ``Host`` and no cross-site
``Sec-Fetch-Site``; the ``Host`` must be an IP address or ``localhost`` (no DNS
rebinding); table codes are 8 base32 characters (40 bits) derived with HMAC from a
secret kept beside the events folder (never in it, never in the site); each client
address gets 10 failed attempts a minute, then 429; POSTs are rate-limited as well.
"""


from standgen.venue.desk import DeskCore
from standgen.venue.guard import (
    CODE_LENGTH,
    DESK_PREFIX,
    FAIL_LIMIT,
    POST_LIMIT,
    REPORT_PATH,
    SLIPS_PREFIX,
    WINDOW,
    RateLimiter,
    Refusal,
    host_ok,
    load_secret,
    normal_code,
    shown_code,
    venue_folder,
)
from standgen.venue.pages import Desk
from standgen.venue.rounds import EventInfo, Outcome, Report
from standgen.venue.terminal import announce, check_address, lan_address, public_base

__all__ = [
    "CODE_LENGTH", "DESK_PREFIX", "FAIL_LIMIT", "POST_LIMIT", "REPORT_PATH", "SLIPS_PREFIX",
    "WINDOW", "Desk", "DeskCore", "EventInfo", "Outcome", "RateLimiter", "Refusal", "Report",
    "announce", "check_address", "host_ok", "lan_address", "load_secret", "normal_code",
    "public_base", "shown_code", "venue_folder",
]
