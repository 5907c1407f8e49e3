"""What the terminal shows when the venue desk starts: addresses, QR codes, the desk URL."""

from __future__ import annotations

import io
import ipaddress
from typing import TYPE_CHECKING

from standgen.venue.desk import DeskCore
from standgen.venue.guard import DESK_PREFIX, REPORT_PATH

if TYPE_CHECKING:
    from standgen.watch import Watch


def lan_address() -> str:
    """Return this computer's address on its network (for a URL when serving on 0.0.0.0)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET: no packet is sent for UDP connect
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


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


def public_base(watch: Watch) -> str:
    """Return the site's address as other devices reach it."""
    host = watch.host
    if host in ("0.0.0.0", ""):
        host = lan_address()
    return f"http://{host}:{watch.port}/"


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
