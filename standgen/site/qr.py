"""A QR code for printed pairings, as inline SVG (segno, pure Python: no image files)."""

from __future__ import annotations

from markupsafe import Markup


def qr_svg(url: str, label: str) -> Markup:
    """Return an inline SVG QR code of ``url`` (error correction M), titled ``label``.

    segno is imported here, not with the module: it imports ``xml.sax.saxutils`` and
    with it ``urllib.request`` (40 ms of every build's start), and only sites with a
    ``site_url`` print QR codes.
    """
    import segno

    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(scale=4, omitsize=True, title=label, svgclass="qr-code",
                          lineclass=None, border=2)
    aria = str(Markup.escape(label))
    return Markup(svg.replace("<svg ", f'<svg role="img" aria-label="{aria}" ', 1))
