"""The venue's guards: constants, table codes, the rate limiter, refusals, the Host check
and the venue secret."""

from __future__ import annotations

import ipaddress
import os
import secrets
import threading
import time
from collections import deque
from pathlib import Path

from standgen.errors import InputError, Problem
from standgen.load.files import display

DESK_PREFIX = "/__desk/"
REPORT_PATH = "/__report/"
CODE_LENGTH = 8  # base32 characters: 40 bits
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
PLAYER_RESULTS = ("1-0", "0-1", "draw")
DESK_RESULTS = ("1-0", "0-1", "draw", "+-", "-+", "--")

TableKey = tuple[str, int, int]  # event path, round, table


def venue_folder(events: Path) -> Path:
    """Return the folder of the venue secret and log: a hidden sibling of the events folder
    (``.events.standgen-venue/``), so neither the events tree nor the site ever holds it."""
    events = events.absolute()
    return events.parent / f".{events.name}.standgen-venue"


def normal_code(text: str) -> str:
    """Return a typed table code without spaces or dashes, in capitals; the digits 0, 1
    and 8, which base32 does not use, are read as the letters O, I and B they resemble."""
    typed = "".join(c for c in text.upper() if c not in " -\t")
    return typed.translate(str.maketrans("018", "OIB"))


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


