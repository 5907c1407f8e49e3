"""Compile the site's message catalogues: ``standgen/locale/*/LC_MESSAGES/standgen.po``
to the ``.mo`` files beside them (committed, so that a fresh install needs no step).

Run after editing a ``.po`` file: ``python scripts/i18n.py``. ``--check`` exits 1 when a
``.mo`` is not the compiled form of its ``.po`` (tests/test_languages.py runs it).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parent.parent / "standgen" / "locale"


def compiled(po: Path) -> bytes:
    """Return the ``.mo`` bytes of one catalogue."""
    with po.open("rb") as f:
        catalogue = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalogue)
    return out.getvalue()


def main(check: bool) -> int:
    stale = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/standgen.po")):
        mo = po.with_suffix(".mo")
        data = compiled(po)
        if mo.is_file() and mo.read_bytes() == data:
            continue
        stale.append(mo)
        if not check:
            mo.write_bytes(data)
    for mo in stale:
        print(("stale: " if check else "wrote ") + str(mo.relative_to(LOCALE.parent.parent)))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
