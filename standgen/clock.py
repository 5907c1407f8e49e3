"""The build's notion of "now" (docs/data-contract.md, ``lists_public``).

Army lists appear from a moment the TO sets, so a build depends on the time. To keep
builds reproducible the time can be fixed: ``STANDGEN_NOW`` (an ISO date and time, as
``standgen build --now`` sets it), else ``SOURCE_DATE_EPOCH`` (seconds since 1970, the
reproducible-builds convention the site's stamp already follows), else the clock. Read
from the environment, so worker processes see the same time as the build that forked
them.
"""

from __future__ import annotations

import datetime as dt
import os

ENV = "STANDGEN_NOW"


def parse_moment(text: str) -> dt.datetime | None:
    """Return an ISO date and time (``2026-04-18T09:30``, with an offset or without: then
    UTC) as an aware datetime, or None when it is not one."""
    try:
        moment = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def now() -> dt.datetime:
    """Return the build's "now", aware (see the module's docstring)."""
    fixed = os.environ.get(ENV, "")
    if fixed:
        moment = parse_moment(fixed)
        if moment is not None:
            return moment
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.strip().isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.UTC)
    return dt.datetime.now(dt.UTC)
