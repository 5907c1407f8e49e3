"""What the terminal shows when the venue desk starts: addresses, QR codes, the desk URL."""

from __future__ import annotations

import io
import ipaddress

from standgen.venue.desk import DeskCore
from standgen.venue.guard import DESK_PREFIX, REPORT_PATH, lan_address, public_base

__all__ = ["announce", "check_address", "lan_address", "public_base", "terminal_qr"]


def terminal_qr(url: str) -> str:
    """Return a QR code of ``url`` drawn with block characters for the terminal."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def check_address(address: str) -> str | None:
    """Return why ``--venue ADDRESS`` cannot be served on, or None for an IPv4 address.

    A host name is refused: the desk answers only requests whose ``Host`` is an address.
    """
    try:
        ipaddress.IPv4Address(address)
    except ValueError:
        return (f"--venue '{address}' is not an IPv4 address; give this computer's address "
                "on the venue's network (e.g. 192.168.1.20), 0.0.0.0 for every network, or "
                "127.0.0.1 to try the desk on this computer only")
    return None


def announce(desk: DeskCore) -> str:
    """Return what the terminal shows at start: the site's URL and QR code, the report page,
    and the desk's secret URL (printed here once, and nowhere else)."""
    base = public_base(desk.watch)
    lines = [f"Venue: the site is at {base}", terminal_qr(base).rstrip("\n")]
    if desk.self_report:
        lines.append(f"Players report results at {base}{REPORT_PATH.lstrip('/')} with the code "
                     "on their table's result slip (print the slips from the desk).")
    lines.append(f"Results desk (keep this address private; it is not printed again): "
                 f"{base}{DESK_PREFIX.lstrip('/')}{desk.token}/")
    lines.append(f"Every change is logged in {desk.log_path}.")
    return "\n".join(lines)
