"""Issue #34 item 5: a team match's games entered together at the venue desk.

Each test starts a real watcher with a desk on 127.0.0.1 (as tests/test_venue.py does;
other loopback addresses, 127.0.0.x, are other devices) on a team-vs-team Steamroller
event whose players' names come from many languages, and talks HTTP to it: the round's
matches, a match's draft written in one go (round-N.csv created with the format's
header), refused drafts that write nothing, a re-saved draft, the results entered per
table, the built site's matches, every guard of the desk's forms on the match form, and
a seeded day of several rounds paired by ``standgen pair`` ending with ``standgen
check`` clean.
"""

from __future__ import annotations

import html
import random
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from click.testing import CliRunner

from standgen.build import build
from standgen.cli import main
from standgen.errors import Problem
from standgen.load import load_event
from standgen.venue import FAIL_LIMIT
from standgen.venue.matches import board_table
from standgen.watch import Watch
from tests.test_venue import Reply, _serve, call, csrf, desk_path, log

EVENT = "2026/puchar-druzyn"
HEADER = "table,player_1,player_2,result,cp_1,cp_2,apd_1,apd_2\n"
EVENT_TOML = """name = "Puchar Drużyn 2026"
date = 2026-07-18
format = "steamroller"
rounds = {rounds}
seed = 34

[teams]
matches = true
size = 3
"""
TEAMS = """id,name,country,captain
pol,Drużyna Łódź,POL,
fra,Équipe de France « Les Pénitents »,FRA,
irl,Fianna O'Briens Éireann,IRL,
jpn,東京鉄騎団,JPN,
deu,Team Württemberg-Süd,DEU,
"""
# a 40-character double-barrelled name, apostrophes, two Oliver Smiths (of two teams)
LONG = "Maximiliane Schönberg-Wittelsbach Ořecha"
PLAYERS = f"""id,name,faction,team
zofia-w,Zofia Wiśniewska,Cygnar,pol
lukasz-z,Łukasz Żółkiewski,Khador,pol
oliver-s,Oliver Smith,Cryx,pol
helene-l,Hélène Lefèvre-Dupré,Protectorate,fra
noemie-g,Noémie Gaëlle Bénédicte,Convergence,fra
maxi-s,{LONG},Mercenaries,fra
dan-o,Dan O'Neill,Legion,irl
siobhan-n,Siobhán Ní Bhriain,Circle,irl
oliver-s2,Oliver Smith,Skorne,irl
haruto-s,佐藤 陽翔,Circle,jpn
yui-t,高橋 結衣,Skorne,jpn
ren-w,渡辺 蓮,Grymkin,jpn
jurgen-m,Jürgen Müller-Lüdenscheidt,Mercenaries,deu
gunther-b,Günther Baßler,Trollbloods,deu
anneliese-o,Anneliese Öztürk,Legion,deu
"""
FOUR_TEAMS = "".join(line + "\n" for line in PLAYERS.splitlines() if not line.endswith(",deu"))


def _files(players: str = FOUR_TEAMS, rounds: int = 3, **more: str) -> dict[str, str]:
    teams = TEAMS if players != FOUR_TEAMS else TEAMS.replace(
        "deu,Team Württemberg-Süd,DEU,\n", "")
    return {f"{EVENT}/event.toml": EVENT_TOML.format(rounds=rounds),
            f"{EVENT}/teams.csv": teams, f"{EVENT}/players.csv": players,
            **{f"{EVENT}/{name}": text for name, text in more.items()}}


@pytest.fixture
def venue(tree: Callable[..., Path]) -> Iterator[Watch]:
    """A desk on a team event of four teams of three, round 1's team matches paired
    (match 1: Łódź v France, match 2: Fianna v Tokyo), no game typed yet."""
    root = tree(_files(**{"teams-round-1.csv": "match,team_1,team_2\n1,pol,fra\n2,irl,jpn\n"}),
                base=False)
    yield from _serve(root, self_report=True)


def round_file(watch: Watch, number: int = 1) -> Path:
    return watch.events / EVENT / f"round-{number}.csv"


def text_of(watch: Watch, number: int = 1) -> str | None:
    path = round_file(watch, number)
    return path.read_text(encoding="utf-8") if path.exists() else None


def page(watch: Watch, number: int = 1, match: int | None = None,
         address: str | None = None) -> str:
    query = {"event": EVENT, "round": str(number), **({"match": str(match)} if match else {})}
    status, _, body = call(watch, "GET", desk_path(watch) + "?" + urlencode(query),
                           address=address)
    assert status == 200, body
    return body


def match_form(body: str, match: int) -> dict[str, str]:
    """Return the hidden fields of match ``match``'s form on a desk page."""
    found = re.search(rf'<form method="post" action="[^"]*match"[^>]*id="match-{match}">'
                      r"(.*?)</form>", body, re.S)
    assert found, body
    return {k: html.unescape(v) for k, v in
            re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', found.group(1))}


def boards_form(boards: list[tuple[str, str] | tuple[str, str, dict[str, str]]]
                ) -> dict[str, str]:
    """Return the board fields of a draft: (player_1, player_2[, values]) per board."""
    fields: dict[str, str] = {}
    for k, board in enumerate(boards, start=1):
        fields[f"b{k}_player_1"], fields[f"b{k}_player_2"] = board[0], board[1]
        for column, value in (board[2] if len(board) > 2 else {}).items():  # type: ignore[misc]
            fields[f"b{k}_{column}"] = value
    return fields


def draft(watch: Watch, match: int, boards: list[Any], number: int = 1,
          based: dict[str, str] | None = None, address: str | None = None,
          **extra: str) -> Reply:
    """Send match ``match``'s draft from a freshly loaded form (or from ``based``)."""
    hidden = based or match_form(page(watch, number, match, address), match)
    return call(watch, "POST", desk_path(watch) + "match",
                {**hidden, **boards_form(boards), **extra}, address=address)


def enter(watch: Watch, table: int, number: int = 1, address: str | None = None,
          **values: str) -> Reply:
    body = page(watch, number, address=address)
    return call(watch, "POST", desk_path(watch) + "enter",
                {"csrf": csrf(body), "event": EVENT, "round": str(number),
                 "table": str(table), **values}, address=address)


def problems_of(watch: Watch) -> list[Problem]:
    problems: list[Problem] = []
    load_event(watch.events / EVENT, tuple(EVENT.split("/")), problems, watch.events)
    return problems


def errors_of(watch: Watch) -> list[str]:
    return [str(p) for p in problems_of(watch) if not p.warning]


MATCH_1 = [("zofia-w", "helene-l"), ("lukasz-z", "maxi-s"), ("oliver-s", "noemie-g")]
MATCH_2 = [("dan-o", "haruto-s"), ("siobhan-n", "yui-t"), ("oliver-s2", "ren-w")]


# -- the matches and the form ------------------------------------------------------------

def test_a_team_round_without_a_round_file_lists_its_matches(venue: Watch) -> None:
    body = page(venue)
    assert text_of(venue) is None
    assert 'id="matches"' in body and "Match 1" in body and "Match 2" in body
    assert "Drużyna Łódź" in body and "東京鉄騎団" in body
    assert "Équipe de France « Les Pénitents »" in body  # as typed, escaped where needed
    assert "Fianna O&#39;Briens Éireann" in body and "Fianna O'Briens" not in body
    assert body.count("0 of 3</strong>") == 4  # drafted and results of both matches
    assert "Enter the draft" in body and 'name="b1_player_1"' not in body


def test_the_match_form_offers_each_teams_roster_by_name(venue: Watch) -> None:
    body = page(venue, match=2)
    form = re.search(r'id="match-2">(.*?)</form>', body, re.S)
    assert form is not None
    boards = re.findall(r'<fieldset class="board[^"]*" id="board-(\d)">', form.group(1))
    assert boards == ["1", "2", "3"]
    assert "table 4" in form.group(1) and "table 6" in form.group(1)  # (m-1)*size+b
    first = re.search(r'<select name="b1_player_1"[^>]*>(.*?)</select>', form.group(1), re.S)
    assert first is not None
    options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', first.group(1))
    assert options == [("", "choose a player"), ("dan-o", "Dan O&#39;Neill"),
                       ("siobhan-n", "Siobhán Ní Bhriain"),
                       ("oliver-s2", "Oliver Smith (oliver-s2)"),
                       ("-", "nobody: board forfeited")]
    other = page(venue, match=1)
    assert "Oliver Smith (oliver-s)" in other and LONG in other
    assert 'Control points<span class="vh">, 東京鉄騎団</span>' in body


# -- a draft written together ------------------------------------------------------------

def test_a_draft_creates_the_round_file_in_one_write(venue: Watch) -> None:
    status, headers, _ = draft(venue, 1, MATCH_1)
    assert status == 303 and headers["Location"].endswith("#match-1")
    assert text_of(venue) == HEADER + "1,zofia-w,helene-l,,,,,\n2,lukasz-z,maxi-s,,,,,\n" \
                                      "3,oliver-s,noemie-g,,,,,\n"
    [entry] = log(venue, "draft")
    assert (entry["event"], entry["round"], entry["match"], entry["tables"]) == (
        EVENT, 1, 1, [1, 2, 3])
    assert entry["old"] == [] and entry["new"][0]["player_1"] == "zofia-w"
    assert log(venue) == [] and errors_of(venue) == []
    body = page(venue)
    assert "3 of 3</strong>" in body and "Change the draft" in body
    assert "Match 1's games saved" not in body  # only after the redirect
    # match 2, with a result and stats on one board, lands after match 1's rows
    status, _, _ = draft(venue, 2, [("dan-o", "haruto-s", {"result": "0-1", "cp_1": "2",
                                                           "cp_2": "5", "apd_1": "15",
                                                           "apd_2": "40"}),
                                    *MATCH_2[1:]])
    assert status == 303
    assert text_of(venue) == HEADER + (
        "1,zofia-w,helene-l,,,,,\n2,lukasz-z,maxi-s,,,,,\n3,oliver-s,noemie-g,,,,,\n"
        "4,dan-o,haruto-s,0-1,2,5,15,40\n5,siobhan-n,yui-t,,,,,\n6,oliver-s2,ren-w,,,,,\n")
    assert [w for w in problems_of(venue) if w.warning] == []  # every match has its games


def test_the_saved_message_and_a_draft_that_reads_so_already(venue: Watch) -> None:
    status, headers, _ = draft(venue, 1, MATCH_1)
    location = headers["Location"]
    assert status == 303 and "drafted=1" in location
    assert "Match 1's games saved" in call(venue, "GET", location)[2]
    status, headers, _ = draft(venue, 1, MATCH_1)
    assert status == 303 and "draft_unchanged=1" in headers["Location"]
    assert len(log(venue, "draft")) == 1


def test_a_partial_draft_and_a_forfeited_board(venue: Watch) -> None:
    assert draft(venue, 1, MATCH_1[:2])[0] == 303
    assert text_of(venue) == HEADER + "1,zofia-w,helene-l,,,,,\n2,lukasz-z,maxi-s,,,,,\n"
    body = page(venue)
    assert "2 of 3</strong>" in body
    # France fields nobody on board 3: Oliver Smith's board is forfeited, won (a BYE row)
    assert draft(venue, 1, [*MATCH_1[:2], ("oliver-s", "-")])[0] == 303
    assert text_of(venue) == HEADER + "1,zofia-w,helene-l,,,,,\n2,lukasz-z,maxi-s,,,,,\n" \
                                      "3,oliver-s,BYE,1-0,,,,\n"
    assert errors_of(venue) == []


# -- refused drafts ----------------------------------------------------------------------

@pytest.mark.parametrize(("boards", "field", "words"), [
    ([("zofia-w", "helene-l"), ("zofia-w", "maxi-s")], "b2_player_1",
     "Zofia Wiśniewska plays on board 1 already"),
    ([("zofia-w", "dan-o")], "b1_player_2",
     "Dan O&#39;Neill plays for Fianna O&#39;Briens Éireann, not in this match"),
    ([("zofia-w", "lukasz-z")], "b1_player_2",
     "Łukasz Żółkiewski plays for Drużyna Łódź, team-mates never meet"),
    ([("zofia-w", "")], "b1_player_2", "choose a player of Équipe de France"),
    ([("nobody-x", "helene-l")], "b1_player_1", "no player &#39;nobody-x&#39;"),
    ([("-", "-")], "b1_player_1", "nobody plays on either side"),
    ([("zofia-w", "-", {"result": "1-0"})], "b1_result", "is forfeited"),
    ([("zofia-w", "helene-l", {"cp_1": "seven"})], "b1_cp_1",
     "control points of Zofia Wiśniewska must be a whole number"),
    ([("zofia-w", "helene-l", {"cp_1": "3"})], "b1_result", "choose the result"),
    ([], "b1_player_1", "choose the players of its boards"),
])
def test_a_refused_draft_says_why_beside_its_board_and_writes_nothing(
        venue: Watch, boards: list[Any], field: str, words: str) -> None:
    status, _, body = draft(venue, 1, boards)
    assert status == 400, body
    assert words in body
    assert f'aria-describedby="e-{field}"' in body and "were not saved" in body
    assert f'<fieldset class="board bad" id="board-{field[1]}">' in body
    assert text_of(venue) is None and log(venue, "draft") == []
    # the values stay as typed
    if boards and boards[0][0] == "zofia-w":
        assert re.search(r'<option value="zofia-w" selected>', body)


def test_fields_the_form_does_not_have_are_refused(venue: Watch) -> None:
    status, _, body = draft(venue, 1, MATCH_1, b4_player_1="zofia-w", b4_player_2="maxi-s")
    assert status == 400 and "a match has 3 boards" in body
    status, _, body = draft(venue, 1, MATCH_1, b1_table="9")
    assert status == 400 and "&#39;b1_table&#39; cannot be entered" in body
    status, _, body = draft(venue, 1, [("zofia-w", "helene-l", {"result": "x" * 41})])
    assert status == 400 and "one short line" in body
    status, _, body = call(venue, "POST", desk_path(venue) + "match",
                           {**match_form(page(venue, match=1), 1), "match": "7",
                            **boards_form(MATCH_1)})
    assert status == 404 and "no match 7" in body
    assert text_of(venue) is None and log(venue, "draft") == []


def test_a_stale_page_is_refused_after_another_desk_drafted(venue: Watch) -> None:
    stale = match_form(page(venue, match=1, address="127.0.0.2"), 1)
    assert draft(venue, 1, MATCH_1)[0] == 303  # the other desk
    before = text_of(venue)
    swapped = [("lukasz-z", "helene-l"), ("zofia-w", "maxi-s"), ("oliver-s", "noemie-g")]
    status, _, body = draft(venue, 1, swapped, based=stale, address="127.0.0.2")
    assert status == 409 and "changed since this page was loaded" in body
    # the form shows the match as the other desk saved it, to be checked
    assert re.search(r'name="b1_player_1">.*?<option value="zofia-w" selected>', body, re.S)
    assert text_of(venue) == before and len(log(venue, "draft")) == 1
    # and after a result typed into the file by hand
    fresh = match_form(page(venue, match=1), 1)
    round_file(venue).write_text(before.replace("1,zofia-w,helene-l,,", "1,zofia-w,helene-l,1-0,"),
                                 encoding="utf-8")
    status, _, body = draft(venue, 1, swapped, based=fresh)
    assert status == 409 and "1-0" in round_file(venue).read_text()


def test_a_draft_with_a_result_in_is_refused_say_so(venue: Watch) -> None:
    assert draft(venue, 1, MATCH_1)[0] == 303
    assert enter(venue, 2, result="0-1", cp_1="1", cp_2="3", apd_1="10", apd_2="30")[0] == 303
    body = page(venue, match=1)
    assert "Match 1 has results already (table 2: 0-1)" in body
    assert "Save match 1" not in body and "See the draft" in page(venue)
    before = text_of(venue)
    status, _, body = draft(venue, 1, [("lukasz-z", "helene-l"), ("zofia-w", "maxi-s"),
                                       ("oliver-s", "noemie-g")])
    assert status == 409 and "correct a result in its table" in body
    assert text_of(venue) == before


def test_a_table_held_by_another_row_is_named(venue: Watch) -> None:
    round_file(venue).write_text(HEADER + "2,dan-o,haruto-s,,,,,\n", encoding="utf-8")
    status, _, body = draft(venue, 1, MATCH_1)
    assert status == 400 and "table 2 holds another game" in body
    assert "renumber that row" in body


def test_an_open_editor_stops_a_draft(venue: Watch) -> None:
    assert draft(venue, 1, MATCH_1[:1])[0] == 303
    lock = round_file(venue).with_name(".~lock.round-1.csv#")
    lock.write_text("x")
    before = text_of(venue)
    status, _, body = draft(venue, 1, MATCH_1)
    assert status == 409 and "is open in an editor" in body and text_of(venue) == before
    lock.unlink()


# -- re-saving and results ---------------------------------------------------------------

def test_a_draft_saved_again_replaces_the_matchs_rows_only(venue: Watch) -> None:
    assert draft(venue, 2, MATCH_2)[0] == 303
    assert draft(venue, 1, MATCH_1)[0] == 303
    assert enter(venue, 4, result="1-0", cp_1="5", cp_2="0", apd_1="50", apd_2="10")[0] == 303
    again = [("oliver-s", "maxi-s"), ("zofia-w", "noemie-g"), ("lukasz-z", "helene-l")]
    assert draft(venue, 1, again)[0] == 303
    assert text_of(venue) == HEADER + (
        "1,oliver-s,maxi-s,,,,,\n2,zofia-w,noemie-g,,,,,\n3,lukasz-z,helene-l,,,,,\n"
        "4,dan-o,haruto-s,1-0,5,0,50,10\n5,siobhan-n,yui-t,,,,,\n6,oliver-s2,ren-w,,,,,\n")
    entries = log(venue, "draft")
    assert [e["match"] for e in entries] == [2, 1, 1]
    assert [r["player_1"] for r in entries[-1]["old"]] == ["zofia-w", "lukasz-z", "oliver-s"]
    # the form reads the rows back onto their boards
    body = page(venue, match=1)
    assert re.search(r'name="b1_player_1">.*?<option value="oliver-s" selected>', body, re.S)


def test_a_hand_typed_match_is_read_onto_the_form_team_1_first(venue: Watch) -> None:
    round_file(venue).write_text(HEADER + "7,helene-l,zofia-w,,,,,\n", encoding="utf-8")
    body = page(venue, match=1)
    assert re.search(r'name="b1_player_1">.*?<option value="zofia-w" selected>', body, re.S)
    assert re.search(r'name="b1_player_2">.*?<option value="helene-l" selected>', body, re.S)
    assert draft(venue, 1, MATCH_1)[0] == 303  # its row moves to the match's tables
    assert text_of(venue) == HEADER + "1,zofia-w,helene-l,,,,,\n2,lukasz-z,maxi-s,,,,,\n" \
                                      "3,oliver-s,noemie-g,,,,,\n"


def test_results_per_table_then_the_built_site_shows_the_match(venue: Watch,
                                                               tmp_path: Path) -> None:
    assert draft(venue, 1, MATCH_1)[0] == 303
    assert draft(venue, 2, MATCH_2)[0] == 303
    results = {1: "1-0", 2: "0-1", 3: "1-0", 4: "0-1", 5: "0-1", 6: "1-0"}
    for table, result in results.items():
        status, _, body = enter(venue, table, result=result, cp_1="2", cp_2="1", apd_1="20",
                                apd_2="10")
        assert status == 303, body
    assert len(log(venue)) == 6
    body = page(venue)
    assert body.count("3 of 3</strong>") == 4
    assert re.search(r'id="table-5">.*?<h3>Table 5 .*?&amp;match=2#match-2">match 2</a></h3>',
                     body, re.S)  # each table's box names its match
    assert problems_of(venue) == []
    out = tmp_path / "site"
    build(venue.events, out)
    round_page = (out / EVENT / "round-1" / "index.html").read_text(encoding="utf-8")
    block = round_page[round_page.index('id="team-matches"'):round_page.index('id="all-tables"')]
    assert "Drużyna Łódź" in block and "Équipe de France « Les Pénitents »" in block
    assert '<span class="score">2-1</span>' in block  # Łódź 2-1 France
    assert '<span class="score">1-2</span>' in block  # Fianna 1-2 Tokyo
    assert "Zofia Wiśniewska" in block and LONG in block and "Dan O&#39;Neill" in block
    assert block.count("<tr>") >= 6


# -- the guards --------------------------------------------------------------------------

def test_no_token_or_a_wrong_one_is_404(venue: Watch) -> None:
    fields = {**match_form(page(venue, match=1), 1), **boards_form(MATCH_1)}
    assert call(venue, "POST", "/__desk/match", fields)[0] == 404
    assert call(venue, "POST", "/__desk//match", fields)[0] == 404
    assert call(venue, "POST", "/__desk/" + "x" * 32 + "/match", fields)[0] == 404
    assert text_of(venue) is None and log(venue, "draft") == []


def test_missing_old_or_report_csrf_tokens_are_403(venue: Watch,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fields = {**match_form(page(venue, match=1), 1), **boards_form(MATCH_1)}
    path = desk_path(venue) + "match"
    assert call(venue, "POST", path, {k: v for k, v in fields.items() if k != "csrf"})[0] == 403
    assert call(venue, "POST", path, {**fields, "csrf": fields["csrf"][:-4] + "0000"})[0] == 403
    report_token = csrf(call(venue, "GET", "/__report/")[2])
    assert call(venue, "POST", path, {**fields, "csrf": report_token})[0] == 403
    import standgen.venue.desk as desk_module

    real = desk_module.time.time
    monkeypatch.setattr(desk_module.time, "time", lambda: real() + 13 * 3600)  # 13 h later
    assert call(venue, "POST", path, fields)[0] == 403
    monkeypatch.undo()
    assert text_of(venue) is None and log(venue, "draft") == []


def test_a_cross_site_post_and_odd_bodies_are_refused(venue: Watch) -> None:
    fields = {**match_form(page(venue, match=1), 1), **boards_form(MATCH_1)}
    path = desk_path(venue) + "match"
    assert call(venue, "POST", path, fields, {"Origin": "http://evil.example"})[0] == 403
    assert call(venue, "POST", path, fields, {"Sec-Fetch-Site": "cross-site"})[0] == 403
    assert call(venue, "POST", path, raw=b"b1_player_1=" + b"x" * 20000)[0] == 413
    assert call(venue, "POST", path, raw=urlencode(fields).encode(),
                headers={"Content-Type": "text/plain"})[0] == 415
    assert call(venue, "GET", path + "?" + urlencode(fields))[0] == 404  # GET changes nothing
    assert call(venue, "POST", path, raw=urlencode(fields).encode() + b"&csrf=x")[0] == 400
    assert text_of(venue) is None and log(venue, "draft") == []
    status, _, _ = call(venue, "POST", path, fields, {"Origin": f"http://127.0.0.1:{venue.port}"})
    assert status == 303 and len(log(venue, "draft")) == 1


def test_attacks_from_several_addresses_at_once_are_each_limited(venue: Watch) -> None:
    good = {**match_form(page(venue, match=1), 1), **boards_form(MATCH_1)}
    path = desk_path(venue) + "match"
    addresses = [f"127.0.0.{n}" for n in range(2, 6)]

    def attack(address: str) -> list[int]:
        forged = {**good, "csrf": good["csrf"][:-4] + "0000"}
        answers = [call(venue, "POST", path, forged, address=address)[0]
                   for _ in range(FAIL_LIMIT)]
        answers.append(call(venue, "POST", path, good, address=address)[0])  # now blocked
        answers.append(call(venue, "POST", "/__desk/" + "y" * 32 + "/match", good,
                            address=address)[0])
        return answers

    with ThreadPoolExecutor(len(addresses)) as pool:
        answers = list(pool.map(attack, addresses))
    for found in answers:
        assert found == [403] * FAIL_LIMIT + [429, 429], found
    assert text_of(venue) is None and log(venue, "draft") == []
    # the desk's own tablet is not blocked by them
    assert draft(venue, 1, MATCH_1)[0] == 303


def test_match_forms_trickled_from_several_addresses_are_cut_off(
        venue: Watch, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    import standgen.watch.server as server

    monkeypatch.setattr(server, "HEAD_SECONDS", 1.0)
    fields = urlencode({**match_form(page(venue, match=1), 1),
                        **boards_form(MATCH_1)}).encode()
    head = (f"POST {desk_path(venue)}match HTTP/1.1\r\nHost: 127.0.0.1:{venue.port}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(fields)}\r\n\r\n").encode()

    def trickle(address: str) -> float:
        sock = socket.create_connection(("127.0.0.1", venue.port), timeout=10,
                                        source_address=(address, 0))
        started = time.monotonic()
        try:
            sock.sendall(head)
            for k in range(len(fields) - 1):  # a byte every 0.2 s, the last never sent
                sock.sendall(fields[k:k + 1])
                time.sleep(0.2)
                if time.monotonic() - started > 6:
                    break
        except OSError:
            pass
        finally:
            sock.close()
        return time.monotonic() - started

    with ThreadPoolExecutor(3) as pool:
        took = list(pool.map(trickle, ["127.0.0.2", "127.0.0.3", "127.0.0.4"]))
    assert all(t < 5 for t in took), took
    assert text_of(venue) is None and log(venue, "draft") == []
    assert draft(venue, 1, MATCH_1)[0] == 303


def test_match_forms_are_rate_limited(tree: Callable[..., Path]) -> None:
    root = tree(_files(**{"teams-round-1.csv": "match,team_1,team_2\n1,pol,fra\n2,irl,jpn\n"}),
                base=False)
    for watch in _serve(root, post_limit=3):
        fields = {**match_form(page(watch, match=1), 1), **boards_form(MATCH_1)}
        statuses = [call(watch, "POST", desk_path(watch) + "match", fields)[0]
                    for _ in range(4)]
        assert statuses == [303, 409, 409, 429]  # a form is based on the rows it read


def test_the_match_pages_are_valid_html5(venue: Watch) -> None:
    import html5lib

    pages = [page(venue), page(venue, match=1), draft(venue, 1, [("zofia-w", "zofia-w")])[2]]
    draft(venue, 1, MATCH_1)
    pages.append(page(venue, match=1))
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    for text in pages:
        parser.parse(text)


# -- a day of rounds ---------------------------------------------------------------------

def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _open_matches(watch: Watch, number: int) -> list[int]:
    body = page(watch, number)
    return [int(m) for m in re.findall(r'&amp;match=(\d+)#match-\d+">Enter the draft', body)]


def _rosters(watch: Watch, number: int, match: int) -> tuple[dict[str, str], list[list[str]]]:
    body = page(watch, number, match)
    rosters = []
    for side in (1, 2):
        select = re.search(rf'<select name="b1_player_{side}"[^>]*>(.*?)</select>', body, re.S)
        assert select is not None
        rosters.append([v for v in re.findall(r'<option value="([^"]*)"', select.group(1))
                        if v not in ("", "-")])
    return match_form(body, match), rosters


def _draft_at_random(watch: Watch, number: int, match: int, rng: random.Random) -> list[int]:
    """Draft a match from its form's rosters (a team short of players forfeits the boards
    it cannot field); return the tables of its games to be played."""
    hidden, (one, two) = _rosters(watch, number, match)
    byes = {line.split(",")[1] for n in range(1, number)
            for line in (text_of(watch, n) or "").splitlines() if ",BYE," in line}
    for roster in (one, two):  # the TO gives a conceded board to a player without a bye
        rng.shuffle(roster)
        roster.sort(key=lambda pid: pid not in byes)
    boards = []
    for k in range(3):
        boards.append((one[k] if k < len(one) else "-", two[k] if k < len(two) else "-"))
    status, _, body = draft(watch, match, boards, number, based=hidden,
                            address=f"127.0.0.{rng.randint(2, 4)}")
    assert status == 303, body
    return [board_table(match, 3, k + 1) for k, b in enumerate(boards) if "-" not in b]


def test_a_seeded_day_of_rounds_at_the_desk_ends_check_clean(tree: Callable[..., Path]) -> None:
    rng = random.Random(3405)
    root = tree(_files(PLAYERS, rounds=3), base=False)
    event = root / EVENT
    for watch in _serve(root):
        for number in (1, 2, 3):
            said = _cli("pair", str(event), "--events", str(root))
            assert f"Round {number}, team matches" in said
            matches = _open_matches(watch, number)
            assert len(matches) == 2  # five teams: two matches and the team bye
            assert "Team bye" in page(watch, number)
            tables: list[int] = []
            order = matches[:]
            rng.shuffle(order)
            for match in order:  # drafts and results interleaved
                tables += _draft_at_random(watch, number, match, rng)
                rng.shuffle(tables)
                while tables and rng.random() < 0.6:
                    _result(watch, number, tables.pop(), rng)
            for table in tables:
                _result(watch, number, table, rng)
            assert _open_matches(watch, number) == []
            if number == 1:  # a player drops between rounds
                _cli("drop", str(event), "anneliese-o", "--events", str(root))
        assert len(log(watch, "draft")) == 6
    output = _cli("check", str(root))
    assert "1 event(s) checked: no problems" in output, output
    problems: list[Problem] = []
    loaded = load_event(event, tuple(EVENT.split("/")), problems, root)
    assert loaded is not None and problems == []
    # a board conceded at the desk (Anneliese dropped), to a player whose team had the
    # team bye, is no second bye: a BYE row in a team match is the team's matter
    conceded = [line for n in (2, 3) for line in (event / f"round-{n}.csv").read_text(
        encoding="utf-8").splitlines() if ",BYE,1-0," in line]  # pair writes "BYE,,"
    assert conceded, "the team short of a player (Anneliese dropped) conceded no board"
    assert [r.finished for r in loaded.rounds] == [True, True, True]


def _result(watch: Watch, number: int, table: int, rng: random.Random) -> None:
    result = rng.choice(["1-0", "0-1"])
    status, _, body = enter(watch, table, number, address=f"127.0.0.{rng.randint(2, 4)}",
                            result=result, cp_1=str(rng.randint(0, 5)),
                            cp_2=str(rng.randint(0, 5)), apd_1=str(rng.randint(0, 75)),
                            apd_2=str(rng.randint(0, 75)))
    assert status == 303, body
