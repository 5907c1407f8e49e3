"""The venue's guards: constants, table codes, the rate limiter, refusals, the Host check
and the venue secret."""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
import threading
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING

from standgen.errors import InputError, Problem
from standgen.load.files import display
from standgen.results import FORFEIT_CODES, PLAYED_CODES

if TYPE_CHECKING:
    from standgen.watch import Watch

DESK_PREFIX = "/__desk/"
REPORT_PATH = "/__report/"
SLIPS_PREFIX = "/__slips/"  # + the slips token: printable, never the desk token
CODE_LENGTH = 8  # base32 characters: 40 bits
CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
FAIL_LIMIT = 10  # failed attempts (token, code, CSRF, origin) per client address ...
WINDOW = 60.0  # ... per this many seconds; then every desk and report request gets 429
POST_LIMIT = 300  # POSTs per client address per window (the desk and reports)
MAX_BODY = 16 * 1024  # bytes of a form
MAX_VALUE = 40  # characters of one entered value
CSRF_SECONDS = 12 * 3600  # a form is good for an event day
MAX_CLIENTS = 10_000  # addresses the rate limiter remembers (its memory is bounded)
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
                               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # "no-referrer" would make browsers send Origin: null
    "X-Content-Type-Options": "nosniff",
}
PLAYER_RESULTS = PLAYED_CODES
DESK_RESULTS = PLAYED_CODES + FORFEIT_CODES

TableKey = tuple[str, int, int]  # event path, round, table


def venue_folder(events: Path) -> Path:
    """Return the folder of the venue secret and log: a hidden sibling of the events folder
    (``.events.standgen-venue/``), so neither the events tree nor the site ever holds it."""
    events = events.resolve()  # ``events/2026/..`` is ``events``: never a folder inside it
    return events.parent / f".{events.name}.standgen-venue"


def normal_code(text: str) -> str:
    """Return a typed table code without spaces or dashes, in capitals; the digits 0, 1
    and 8, which base32 does not use, are read as the letters O, I and B they resemble."""
    typed = "".join(c for c in text.upper() if c not in " -\t")
    return typed.translate(str.maketrans("018", "OIB"))


def code_shape_ok(code: str) -> bool:
    """Return whether a normalised code could be a table code: ``CODE_LENGTH`` characters
    of the base32 alphabet (anything else is a wrong guess, never compared)."""
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)


def shown_code(code: str) -> str:
    """Return a code as printed on a slip: ``ABCD-EFGH``."""
    return f"{code[:4]}-{code[4:]}"


class RateLimiter:
    """Counts hits per key in a sliding window; memory is bounded by ``MAX_CLIENTS``."""

    def __init__(self, limit: int, window: float = WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        hits = self._hits.get(key)
        if hits is None:
            if len(self._hits) >= MAX_CLIENTS:
                self._hits.pop(next(iter(self._hits)))
            hits = self._hits[key] = deque()
        while hits and now - hits[0] >= self.window:
            hits.popleft()
        return hits

    def blocked(self, key: str) -> float:
        """Return the seconds until ``key`` may try again (0 when it may now)."""
        now = time.monotonic()
        with self._lock:
            hits = self._recent(key, now)
            if len(hits) < self.limit:
                return 0.0
            return max(0.0, self.window - (now - hits[0]))

    def hit(self, key: str) -> bool:
        """Count one hit; return whether ``key`` was still within its limit."""
        now = time.monotonic()
        with self._lock:
            hits = self._recent(key, now)
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            return True

    def give_back(self, key: str) -> None:
        """Take back one hit of ``key`` (a guess counted before it was evaluated that
        turned out right)."""
        with self._lock:
            hits = self._hits.get(key)
            if hits:
                hits.pop()


class Refusal(Exception):
    """A request ends with this HTTP status and message (and nothing changes)."""

    def __init__(self, status: int, message: str, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def to_int(text: str | None) -> int:
    return int(text) if text and text.isdigit() and len(text) < 7 else 0


def host_ok(host: str) -> bool:
    """Return whether a ``Host`` header names an IP address or localhost (with a port).

    A host name could be an attacker's, pointed at this address (DNS rebinding)."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]")
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def load_secret(folder: Path) -> bytes:
    """Return the venue secret in ``folder``, creating it (32 random bytes, mode 600).

    A new secret is written whole to a temporary file and linked into place, so a second
    desk starting at the same moment reads either no file or the whole one."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / "secret"
    if not path.exists():
        tmp = folder / f".secret.tmp-{os.getpid()}-{secrets.token_hex(4)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(32) + "\n")
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another desk made it first: use theirs
        finally:
            tmp.unlink(missing_ok=True)
    try:
        secret = bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (UnicodeDecodeError, ValueError):
        secret = b""
    if len(secret) != 32:
        raise InputError([Problem(display(path), 1, "the venue secret is damaged; delete the "
                                  "file (the table codes then change) and start again")])
    return secret




class EventsClaim:
    """The OS lock one desk holds on its events folder for its lifetime (``desk.lock`` in
    the venue folder, ``flock``): a second ``watch --venue`` on the same events is
    refused, with the first one's pid and address, instead of losing entries."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "desk.lock"
        self.fd: int | None = None

    def take(self, url: str) -> str | None:
        """Take the lock and record this process and ``url``; return None, or what holds
        it already (``pid N, URL``)."""
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            import fcntl
        except ImportError:  # Windows: no lock between processes
            self.fd = fd
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 1000).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            return holder
        self.fd = fd
        self.record(url)
        return None

    def record(self, url: str) -> None:
        """Write this process's pid and public ``url`` into the held lock file."""
        if self.fd is None:
            return
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"pid {os.getpid()}, {url}\n".encode(), 0)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the file ends the flock
            self.fd = None


def lan_address() -> str:
    """Return this computer's address on its network (for a URL when serving on 0.0.0.0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET: no packet is sent for UDP connect
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def public_base(watch: Watch) -> str:
    """Return the site's address as other devices reach it (never ``localhost``: slips
    and QR codes carry it whatever address the desk was opened with)."""
    host = watch.host
    if host in ("0.0.0.0", ""):
        host = lan_address()
    return f"http://{host}:{watch.port}/"
