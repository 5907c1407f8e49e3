"""A QR code for printed pairings, as inline SVG (segno, pure Python: no image files)."""

from __future__ import annotations

from markupsafe import Markup


def qr_svg(url: str, label: str) -> Markup:
    """Return an inline SVG QR code of ``url`` (error correction M), titled ``label``, or
    empty Markup (no QR code) when ``url`` does not fit in one.

    A QR code holds at most 2,331 bytes at error correction M (ISO/IEC 18004, version 40);
    segno raises ``DataOverflowError`` for more. load limits ``site_url`` to 200
    characters, but event folders add to the address, so the printed pairings go without
    a QR code rather than fail the build (issue #15).

    segno is imported here, not with the module: it imports ``xml.sax.saxutils`` and
    with it ``urllib.request`` (40 ms of every build's start), and only sites with a
    ``site_url`` print QR codes.
    """
    import segno
    from segno.encoder import DataOverflowError

    try:
        code = segno.make(url, error="m", micro=False)
    except DataOverflowError:
        return Markup("")
    svg = code.svg_inline(scale=4, omitsize=True, title=label, svgclass="qr-code",
                          lineclass=None, border=2)
    aria = str(Markup.escape(label))
    return Markup(svg.replace("<svg ", f'<svg role="img" aria-label="{aria}" ', 1))
