"""An Atom feed per event (RFC 4287): an entry when a round's pairings are published and
another when its results are complete.

Feed readers notice new entries by id, so each (round, pairings | results) has its own.
Times come from the input, never the clock: ``SOURCE_DATE_EPOCH`` when set, else the
event's date at midnight UTC (see :mod:`standgen.site.stamp`).
"""

from __future__ import annotations

import datetime as dt

import standgen.site.links as links
from standgen.pipeline import EventReport
from standgen.site.event_contexts import scenario_of

FEED = "feed.xml"


def escape(text: str) -> str:
    """Escape ``&``, ``<`` and ``>`` for XML text (as ``xml.sax.saxutils.escape``, whose
    module pulls in ``urllib.request``: 60 ms of every build's start-up)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """Return ``text`` escaped and quoted as an XML attribute value (as
    ``xml.sax.saxutils.quoteattr``)."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' in text:
        if "'" in text:
            return '"' + text.replace('"', "&quot;") + '"'
        return "'" + text + "'"
    return '"' + text + '"'


def feed_path(report: EventReport) -> str:
    """Return the output path of the event's feed."""
    return links.event_file(report.event, FEED)


def _time(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _urn(*parts: str) -> str:
    return "urn:standgen:" + ":".join(parts)


def atom_feed(report: EventReport, site_url: str, built: dt.datetime | None) -> bytes:
    """Return the event's Atom feed; links are absolute when ``site_url`` is configured."""
    event = report.event
    config = event.config
    when = built or dt.datetime.combine(config.date, dt.time(), tzinfo=dt.UTC)
    here = feed_path(report)

    def href(target: str) -> str:
        return site_url + target if site_url else links.relative(here, target)

    alternate = href(links.event_page(event))
    event_id = site_url + links.event_page(event) if site_url else _urn(*event.path)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"<title>{escape(config.name)}</title>",
        f"<subtitle>{escape('Pairings and results, round by round')}</subtitle>",
        f"<id>{escape(event_id)}</id>",
        f"<updated>{_time(when)}</updated>",
        f"<author><name>{escape(config.organiser or 'standgen')}</name></author>",
        f'<link rel="alternate" type="text/html" href={quoteattr(alternate)}/>',
    ]
    if site_url:
        self_link = quoteattr(site_url + here)
        lines.append(f'<link rel="self" type="application/atom+xml" href={self_link}/>')
    lines.append('<generator>standgen</generator>')
    entries: list[tuple[str, str, str]] = []
    for rnd in event.rounds:
        scenario = scenario_of(event, rnd.number)
        extra = f" Scenario: {scenario}." if scenario else ""
        tables = sum(1 for g in rnd.games if len(g.seats) > 1)
        entries.append((f"round-{rnd.number}:pairings", f"Round {rnd.number} pairings",
                        f"Round {rnd.number} is paired: {tables} tables.{extra}"))
        if rnd.finished:
            entries.append((f"round-{rnd.number}:results", f"Round {rnd.number} results",
                            f"Every result of round {rnd.number} is in; standings updated."))
    for key, title, summary in reversed(entries):
        round_part, what = key.split(":")
        page = links.round_page(event, int(round_part.removeprefix("round-")))
        entry_id = f"{site_url}{page}#{what}" if site_url else _urn(*event.path, round_part, what)
        lines += [
            "<entry>",
            f"<title>{escape(title)}</title>",
            f"<id>{escape(entry_id)}</id>",
            f"<updated>{_time(when)}</updated>",
            f'<link rel="alternate" type="text/html" href={quoteattr(href(page))}/>',
            f"<summary>{escape(summary)}</summary>",
            "</entry>",
        ]
    lines.append("</feed>")
    return ("\n".join(lines) + "\n").encode()
