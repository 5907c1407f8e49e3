"""The desk's and the self-report pages' HTTP side: requests, forms, answers."""

from __future__ import annotations

import errno
import hmac
import time
import traceback
from collections.abc import Mapping, Sequence
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from standgen.formats.base import Format
from standgen.load.rounds import ABSENT, BYE
from standgen.roundfile import RoundFile
from standgen.site.qr import qr_svg
from standgen.venue.desk import DeskCore
from standgen.venue.guard import (
    DESK_PREFIX,
    DESK_RESULTS,
    MAX_BODY,
    PLAYER_RESULTS,
    REPORT_PATH,
    SECURITY_HEADERS,
    SLIPS_PREFIX,
    Refusal,
    host_ok,
    normal_code,
    public_base,
    shown_code,
    to_int,
)
from standgen.venue.matches import (
    board_columns,
    enter_draft,
    match_context,
    refused_fields,
    team_info,
)
from standgen.venue.rounds import EventInfo, Outcome
from standgen.venue.terminal import announce


def _stat_columns(fmt: Format, header: Sequence[str]) -> list[dict[str, str]]:
    """Return the desk's stat fields the round file has a column for, each seat's."""
    return [{"id": f"{s.id}_{k}", "label": s.label, "seat": str(k)}
            for s in fmt.stats for k in (1, 2) if f"{s.id}_{k}" in header]


def _area(path: str) -> str:
    """Return which of the venue's areas ``path`` is in ("desk", "slips", "report"), or ""."""
    if path.startswith(DESK_PREFIX):
        return "desk"
    if path.startswith(SLIPS_PREFIX):
        return "slips"
    if path in ("/__report", REPORT_PATH) or path.startswith(REPORT_PATH):
        return "report"
    return ""


def _failed_entry(failed: tuple[int, Mapping[str, str], Outcome]) -> dict[str, Any]:
    """Return the desk page's values for a failed entry: its table, the problem of each
    field, and the problems that belong to no field."""
    table, _typed, outcome = failed
    return {"problem_table": table, "fields": outcome.fields,
            "problems": [p for p in outcome.problems if p not in outcome.fields.values()]}


class Desk(DeskCore):
    """The results desk and the self-report pages of one ``standgen watch --venue``."""

    def announce(self) -> str:
        """Return what the terminal shows at start (:func:`standgen.venue.terminal.announce`)."""
        return announce(self)

    # -- HTTP ----------------------------------------------------------------------------

    def handle(self, request: BaseHTTPRequestHandler, method: str) -> bool:
        """Answer ``request`` if its path is the desk's or the reports'; return whether it was."""
        url = urlsplit(request.path)
        area = _area(url.path)
        if not area:
            return False
        client = request.client_address[0]
        try:
            self._admit(request, client)
            if area == "desk":
                self._desk(request, method, url.path[len(DESK_PREFIX):], url.query, client)
            elif area == "slips":
                self._slips(request, method, url.path[len(SLIPS_PREFIX):], url.query, client)
            else:
                self._reports(request, method, url.path, client)
        except Refusal as exc:
            self.send(request, exc.status, "message.html", {"title": _TITLES.get(
                exc.status, "Refused"), "messages": [exc.message], "back": ""},
                method == "HEAD", exc.retry_after)
        except Exception as exc:  # a bug or the machine: say so, keep serving
            self.watch.log("standgen: venue desk: internal error:\n" + traceback.format_exc())
            if not isinstance(exc, OSError) or exc.errno not in _GONE:
                self.send(request, 500, "message.html", {
                    "title": "Internal error", "back": "", "messages": [
                        "The desk failed (the terminal has the details); nothing was "
                        "changed unless the log says so. Reload and try again."]},
                    method == "HEAD")
        return True

    def _admit(self, request: BaseHTTPRequestHandler, client: str) -> None:
        """Refuse an address with too many failed attempts, and a request by host name
        (the desk is opened at the IP address standgen printed)."""
        wait = self.failures.blocked(client)
        if wait:
            raise Refusal(429, "Too many failed attempts from this address; wait a minute "
                          "and try again.", wait)
        if not host_ok(request.headers.get("Host", "")):
            raise Refusal(421, "Open the desk at the address standgen printed (an IP "
                          "address), not a host name.")

    def _fail(self, client: str) -> None:
        self.failures.hit(client)

    def _token_ok(self, given: str, token: str, client: str) -> None:
        if not hmac.compare_digest(given.encode("utf-8", "replace"), token.encode()):
            self._fail(client)
            raise Refusal(404, "No page here.")

    def _desk(self, request: BaseHTTPRequestHandler, method: str, rest: str, query: str,
              client: str) -> None:
        token, slash, page = rest.partition("/")
        self._token_ok(token, self.token, client)
        self.desk_clients[client] = time.monotonic()
        if not slash:
            self.redirect(request, f"{DESK_PREFIX}{self.token}/")
            return
        if method in ("GET", "HEAD"):
            args = _query(query)
            if page != "":
                raise Refusal(404, "No page here.")
            self.send(request, 200, "desk.html", self._desk_context(args), method == "HEAD")
            return
        form = self.form(request, client, "desk")
        if page == "match":
            self._draft(request, form, client)
            return
        if page != "enter":
            raise Refusal(404, "No page here.")
        self._enter(request, form, client)

    def _draft(self, request: BaseHTTPRequestHandler, form: Mapping[str, str],
               client: str) -> None:
        """Enter a team match's drafted games from the match form: back to the round at
        the match when saved (or unchanged), else the form with the problems by the fields
        and the values as typed."""
        event, number, match = form.get("event", ""), to_int(form.get("round")), to_int(
            form.get("match"))
        info = team_info(self, event, number)
        size = info.config.teams.size or 0 if info.config is not None else 0
        refused = refused_fields(form, size, board_columns(info, None))
        outcome = refused or enter_draft(self, event, number, match, form, client)
        if outcome.status == 200:
            what = "drafted" if outcome.changed else "draft_unchanged"
            query = urlencode({"event": event, "round": number, what: match})
            self.redirect(request, f"{DESK_PREFIX}{self.token}/?{query}#match-{match}")
            return
        args = {"event": event, "round": str(number)}
        typed = {} if outcome.status == 409 else form  # changed meanwhile: show it as it is
        context = self._desk_context(args, draft=(match, typed, outcome))
        self.send(request, outcome.status, "desk.html", context, False)

    def _enter(self, request: BaseHTTPRequestHandler, form: Mapping[str, str],
               client: str) -> None:
        """Enter a table's result from the desk's form: back to the round at that table
        when saved (or unchanged), else the desk page with the problems by the fields."""
        event, number, table = form.get("event", ""), to_int(form.get("round")), to_int(
            form.get("table"))
        info = self.event(event, number)
        values = {c: form[c] for c in info.columns() if c in form}
        outcome = self.apply(event, number, table, values, "desk", client,
                             expect=form.get("expect") or None,
                             pairing=form.get("pairing") or None)
        if outcome.status == 200:
            self.settled((event, number, table))
            what = "saved" if outcome.changed else "unchanged"
            query = urlencode({"event": event, "round": number, what: table,
                               **({"show": form["show"]} if form.get("show") == "open" else {})})
            self.redirect(request, f"{DESK_PREFIX}{self.token}/?{query}#table-{table}")
            return
        args = {"event": event, "round": str(number), "show": form.get("show", "")}
        context = self._desk_context(args, (table, values, outcome))
        self.send(request, outcome.status, "desk.html", context, False)

    def _desk_context(self, args: Mapping[str, str],
                      failed: tuple[int, Mapping[str, str], Outcome] | None = None,
                      draft: tuple[int, Mapping[str, str], Outcome] | None = None
                      ) -> dict[str, Any]:
        """Return the desk page: the events, the chosen round's tables (only the open ones
        with ``show=open``), and a failed entry's problems beside its fields, with the
        values as typed."""
        events = self.events()
        choices = [info for info in events.values() if info.two_player and info.desk_rounds]
        chosen = _chosen_event(events, choices, args.get("event", ""))
        context: dict[str, Any] = {
            "events": choices, "event": chosen, "round": 0, "tables": [], "columns": [],
            "csrf": self.csrf("desk"), "problems": [], "problem_table": 0, "fields": {},
            "saved": to_int(args.get("saved")), "unchanged": to_int(args.get("unchanged")),
            "self_report": self.self_report, "disputes": [], "recent": self.recent(),
            "results": DESK_RESULTS, "base": f"{DESK_PREFIX}{self.token}/",
            "slips": f"{SLIPS_PREFIX}{self.slips_token}/", "pairing": "",
            "skipped": [info for info in events.values() if not info.two_player],
            "derived": False, "show": "open" if args.get("show") == "open" else "all",
            "unreadable": [], "open_count": 0, "matches": [], "match_form": None,
            "team_problems": [], "draft_problems": [], "draft_fields": {}, "drafted": 0,
            "draft_unchanged": 0, "table_match": {},
        }
        if failed is not None:
            context.update(_failed_entry(failed))
        context["disputes"] = self._disputes(events)
        if chosen is None:
            return context
        return self._round_context(context, chosen, args, failed, draft)

    def _round_context(self, context: dict[str, Any], chosen: EventInfo,
                       args: Mapping[str, str],
                       failed: tuple[int, Mapping[str, str], Outcome] | None,
                       draft: tuple[int, Mapping[str, str], Outcome] | None = None
                       ) -> dict[str, Any]:
        """Return the desk page's ``context`` with the chosen round's tables (the last
        round unless ``args`` name another) and, in a team event, its matches, or why its
        file cannot be read."""
        number = to_int(args.get("round"))
        if number not in chosen.desk_rounds:
            number = chosen.desk_rounds[-1]
        context["round"] = number
        context["derived"] = chosen.fmt is not None and chosen.fmt.outcome_from_stats is not None
        try:
            current = self._round_with_matches(context, chosen, number, args, draft)
        except Refusal as exc:  # the round file cannot be read: say so, keep the links
            context["unreadable"] = [exc.message]
            return context
        if current is None:
            return context
        context["pairing"] = current.pairing_tag
        context["tables"], context["columns"] = self._tables(
            chosen, number, current, failed[:2] if failed is not None else None)
        context["open_count"] = sum(1 for t in context["tables"] if not t["done"])
        return context

    def _round_with_matches(self, context: dict[str, Any], chosen: EventInfo, number: int,
                            args: Mapping[str, str],
                            draft: tuple[int, Mapping[str, str], Outcome] | None
                            ) -> RoundFile | None:
        """Return round ``number``'s file (None before a team round's first game) and put
        a team round's matches into ``context``; raise Refusal when it cannot be read."""
        current = self.read(chosen, number) if number in chosen.rounds else None
        if chosen.team_matches and number in chosen.team_rounds:
            context.update(match_context(self, chosen, number, current, args, draft))
        return current

    def _tables(self, info: EventInfo, number: int, current: RoundFile,
                typed: tuple[int, Mapping[str, str]] | None = None
                ) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
        assert info.fmt is not None
        names = self.names(info)
        columns = _stat_columns(info.fmt, current.header)
        with self.lock:
            marks = dict(self.pending.marks)
            disputed = set(self.pending.disputes)
            waiting = {k: sorted(v) for k, v in self.pending.reports.items()}
        tables = []
        for table, row in sorted(current.tables.items()):
            p1, p2 = row.cells.get("player_1", ""), row.cells.get("player_2", "")
            single = p2 in (BYE, ABSENT)
            values = dict(row.cells)
            if typed is not None and typed[0] == table:
                values.update(typed[1])
            key = (info.path, number, table)
            tables.append({
                "table": table, "p1": names.get(p1, p1), "p2": names.get(p2, p2),
                "single": single, "row": values, "expect": row.tag,
                "done": self.finished(info, row), "result": row.cells.get("result", ""),
                "mark": marks.get(key, ""), "disputed": key in disputed,
                "waiting": waiting.get(key, []),
                "code": shown_code(self.row_code(info.path, number, row))
                if self.self_report and not single else ""})
        return tables, columns

    def _disputes(self, events: Mapping[str, EventInfo]) -> list[dict[str, Any]]:
        """Return the disagreements of tables still without a result (one entered in the
        file settles it too)."""
        with self.lock:
            disputes = dict(self.pending.disputes)
        shown = []
        for (event, number, table), (first, second) in sorted(disputes.items()):
            info = events.get(event)
            if info is not None and info.two_player:
                try:
                    row = self.read(info, number).row(table)
                except Refusal:
                    row = None
                if row is not None and (self.finished(info, row) or row.tag != first.row):
                    continue
            shown.append({"event": event, "name": info.name if info is not None else event,
                          "round": number, "table": table,
                          "reports": [dict(first.values), dict(second.values)]})
        return shown

    def _slips(self, request: BaseHTTPRequestHandler, method: str, rest: str, query: str,
               client: str) -> None:
        """Answer the slips page: its own address (never the desk's: a printed page's
        footer may show it), GET only, with self-reports only."""
        token, slash, page = rest.partition("/")
        self._token_ok(token, self.slips_token, client)
        if not self.self_report or method not in ("GET", "HEAD") or page != "":
            raise Refusal(404, "No page here.")
        if not slash:
            self.redirect(request, f"{SLIPS_PREFIX}{self.slips_token}/")
            return
        self.send(request, 200, "slips.html", self._slips_context(_query(query)),
                  method == "HEAD")

    def _slips_context(self, args: Mapping[str, str]) -> dict[str, Any]:
        """Return the slips page: one slip per table still open, each with the public
        report address (whatever address the desk was opened with) and a QR code that
        opens it with the table's code filled in."""
        context = self._desk_context(args)
        url = f"{public_base(self.watch)}{REPORT_PATH.lstrip('/')}"
        context["report_url"] = url
        context["base"] = f"{DESK_PREFIX}{self.token}/"
        for table in context["tables"]:
            if table["code"] and not table["done"]:
                link = f"{url}?{urlencode({'code': table['code'].replace('-', '')})}"
                table["qr"] = qr_svg(link, f"QR code: {url} with this table's code")
        return context

    def _reports(self, request: BaseHTTPRequestHandler, method: str, path: str,
                 client: str) -> None:
        if not self.self_report:
            raise Refusal(404, "Players do not report results here at this event; hand the "
                          "result slip to the TO.")
        page = path[len(REPORT_PATH):] if path.startswith(REPORT_PATH) else None
        if page is None:
            self.redirect(request, REPORT_PATH)
            return
        if method in ("GET", "HEAD"):
            if page != "":
                raise Refusal(404, "No page here.")
            prefill = normal_code(_query(urlsplit(request.path).query).get("code", ""))[:20]
            self.send(request, 200, "report.html", self._report_context(None, prefill),
                      method == "HEAD")
            return
        form = self.form(request, client, "report")
        typed = form.get("code", "")
        if not self.failures.hit(client):  # counted before the guess is evaluated
            raise Refusal(429, "Too many failed attempts from this address; wait a minute "
                          "and try again.", self.failures.blocked(client))
        found = self.find_code(typed)
        if found is None:
            context = self._report_context(None, typed)
            context["problems"] = ["No table of the current round has this code; check the "
                                   "code on your result slip."]
            self.send(request, 403, "report.html", context, False)
            return
        self.failures.give_back(client)  # the right code is no failure
        if page == "":
            self.send(request, 200, "report.html", self._report_context(found, typed), False)
            return
        if page != "submit":
            raise Refusal(404, "No page here.")
        self._submit(request, form, found, typed, client)

    def _submit(self, request: BaseHTTPRequestHandler, form: Mapping[str, str],
                found: tuple[EventInfo, int, int], typed: str, client: str) -> None:
        """Take a player's report of their table's result: who they are (seat 1 or 2)
        and the result, else the form again with what to choose."""
        info = found[0]
        seat = to_int(form.get("seat"))
        if seat not in (1, 2):
            context = self._report_context(found, typed)
            context["problems"] = ["Choose who you are."]
            self.send(request, 400, "report.html", context, False)
            return
        values = {c: form[c] for c in info.columns() if c in form}
        if values.get("result", "") not in PLAYER_RESULTS:
            context = self._report_context(found, typed)
            context["problems"] = ["Choose the result."]
            self.send(request, 400, "report.html", context, False)
            return
        status, what, problems = self.report(typed, seat, values, client)
        context = self._report_context(found, typed)
        context.update({"problems": problems, "done": what})
        self.send(request, status, "report.html", context, False)

    def _report_context(self, found: tuple[EventInfo, int, int] | None,
                        typed: str) -> dict[str, Any]:
        context: dict[str, Any] = {"csrf": self.csrf("report"), "code": typed, "problems": [],
                                   "done": "", "table": None, "columns": []}
        if found is None:
            return context
        info, number, table = found
        tables, columns = self._tables(info, number, self.read(info, number))
        chosen = [t for t in tables if t["table"] == table]
        if not chosen:
            return context
        context.update({"table": chosen[0], "columns": columns, "event": info.name,
                        "round": number, "results": PLAYER_RESULTS})
        return context

    # -- requests and answers --------------------------------------------------------------

    def form(self, request: BaseHTTPRequestHandler, client: str, scope: str) -> dict[str, str]:
        """Return a POSTed form's fields after the rate limit, size, Origin and CSRF checks."""
        if not self.posts.hit(client):
            raise Refusal(429, "Too many entries from this address in a minute; wait a "
                          "moment.", self.posts.window)
        body = _form_body(request)
        if _cross_site(request):
            self._fail(client)
            raise Refusal(403, "This form was sent from another site; nothing was changed.")
        form = _form_fields(body)
        if not self.csrf_ok(form.get("csrf", ""), scope):
            self._fail(client)
            raise Refusal(403, "The form has expired or did not come from this page; reload "
                          "the page and enter it again. Nothing was changed.")
        return form

    def send(self, request: BaseHTTPRequestHandler, status: int, template: str,
             context: Mapping[str, Any], head: bool, retry_after: float = 0.0) -> None:
        body = self.env.get_template(template).render(**context).encode()
        request.send_response(status)
        request.send_header("Content-Type", "text/html; charset=utf-8")
        request.send_header("Content-Length", str(len(body)))
        if retry_after:
            request.send_header("Retry-After", str(max(1, round(retry_after))))
        for name, value in SECURITY_HEADERS.items():
            request.send_header(name, value)
        request.end_headers()
        if not head:
            request.wfile.write(body)

    def redirect(self, request: BaseHTTPRequestHandler, location: str) -> None:
        request.send_response(303)
        request.send_header("Location", quote(location, safe="/?&=#%-_.~"))
        request.send_header("Content-Length", "0")
        for name, value in SECURITY_HEADERS.items():
            request.send_header(name, value)
        request.end_headers()


def _query(query: str) -> dict[str, str]:
    """Return a query string's fields (the last of each); too many fields or a bad
    encoding is a plain 400, never a 500."""
    try:
        return {k: v[-1] for k, v in parse_qs(query, max_num_fields=20).items()}
    except ValueError as exc:
        raise Refusal(400, "This address has too many or unreadable fields; use the "
                      "desk's links.") from exc


_GONE = {errno.EPIPE, errno.ECONNRESET}  # the browser went away: nothing to answer
_TITLES = {400: "Not saved", 403: "Refused", 404: "Not found", 409: "Changed meanwhile",
           411: "Refused", 500: "Internal error",
           413: "Too large", 415: "Refused", 421: "Wrong address", 429: "Too many attempts"}




def _form_body(request: BaseHTTPRequestHandler) -> bytes:
    """Return a POSTed form's body: it must say its length (411), be at most
    :data:`MAX_BODY` bytes (413) and be URL-encoded, as the desk's page sends it (415)."""
    length = request.headers.get("Content-Length", "")
    if not length.isdigit():
        raise Refusal(411, "A form must say its length.")
    if int(length) > MAX_BODY:
        raise Refusal(413, "The form is too large.")
    body = request.rfile.read(int(length))
    if request.headers.get_content_type() != "application/x-www-form-urlencoded":
        raise Refusal(415, "Send the form from the desk's page.")
    return body


def _cross_site(request: BaseHTTPRequestHandler) -> bool:
    """Return whether a form came from another site: an Origin other than the desk's own
    host, or a browser's Sec-Fetch-Site saying cross-site."""
    host = request.headers.get("Host", "")
    origin = request.headers.get("Origin")
    fetch_site = request.headers.get("Sec-Fetch-Site", "")
    return (origin is not None and origin != f"http://{host}") or fetch_site == "cross-site"


def _form_fields(body: bytes) -> dict[str, str]:
    """Return a form's fields: UTF-8 and URL-encoded (else 400), each field once."""
    try:
        fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=64,
                          strict_parsing=False)
    except (UnicodeDecodeError, ValueError) as exc:
        raise Refusal(400, "The form could not be read.") from exc
    if any(len(v) != 1 for v in fields.values()):
        raise Refusal(400, "A field of the form was sent twice.")
    return {k: v[0] for k, v in fields.items()}


def _chosen_event(events: Mapping[str, EventInfo], choices: list[EventInfo],
                  name: str) -> EventInfo | None:
    """Return the desk's event: the one named, unless the desk does not enter it (not a
    two-player event, or no round yet), then the first it enters, if any."""
    chosen = events.get(name)
    if chosen in choices:
        return chosen
    return choices[0] if choices else None
