"""A catalogue of bad inputs (issue 9.1), each run through the real ``standgen build``.

Every case is a small events tree holding one valid event of each format plus one bad
change, and the exact ``path:line: message`` lines expected (paths relative to the
events root). For every case the build must exit 2, print no traceback, and leave an
existing output folder byte for byte as it was (no staging folder left either).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from standgen.cli import main
from standgen.model import EventsTree
from tests.conftest import EVENT_TOML, PLAYERS, ROUND_1, ROUND_HEADER

R = ROUND_HEADER
OW_TOML = 'name = "OW"\ndate = 2026-03-14\nformat = "old-world"\n'
OW_PLAYERS = "id,name,faction\na,Ann,Empire\nb,Bob,Dwarfs\nc,Cat,Orcs\nd,Dan,Elves\n"
OW_HEADER = "table,player_1,player_2,result,vp_1,vp_2\n"
OW_ROUND = OW_HEADER + "1,a,b,,1200,300\n2,c,d,draw,500,450\n"
GO_TOML = 'name = "Go"\ndate = 2026-03-14\nformat = "mcmahon"\n'
GO_PLAYERS = "id,name,rank,club\na,Ann,3d,X\nb,Bob,1k,Y\nc,Cat,5k,X\nd,Dan,10k,Z\n"
GO_HEADER = "table,player_1,player_2,result,handicap,komi\n"
GO_ROUND = GO_HEADER + "1,a,b,1-0,0,6.5\n2,c,d,0-1,0,6.5\n"
SW_TOML = 'name = "Sw"\ndate = 2026-03-14\nformat = "swiss"\nrounds = 3\n'
SW_PLAYERS = "id,name,rating\na,Ann,2000\nb,Bob,1900\nc,Cat,1800\nd,Dan,1700\n"
SW_ROUND = "table,player_1,player_2,result\n1,a,b,1-0\n2,c,d,draw\n"
DIP_TOML = 'name = "Dip"\ndate = 2026-03-14\nformat = "diplomacy"\nrounds = 2\n'
DIP_PLAYERS = "id,name\np1,P1\np2,P2\np3,P3\np4,P4\np5,P5\np6,P6\np7,P7\n"
DIP_HEADER = "board,player,power,centres,result,eliminated_year\n"
DIP_SEATS = [
    "1,p1,England,5,draw,", "1,p2,France,6,draw,", "1,p3,Germany,5,draw,",
    "1,p4,Italy,4,loss,", "1,p5,Austria,0,eliminated,1905", "1,p6,Russia,7,draw,",
    "1,p7,Turkey,7,draw,",
]


def dip(*replace: tuple[int, str], drop: int | None = None) -> str:
    """Return the Diplomacy round file with seat rows replaced (index, row) or dropped."""
    seats = list(DIP_SEATS)
    for index, row in replace:
        seats[index] = row
    if drop is not None:
        del seats[drop]
    return DIP_HEADER + "".join(s + "\n" for s in seats)


BASE: dict[str, str] = {
    "ev/event.toml": EVENT_TOML, "ev/players.csv": PLAYERS, "ev/round-1.csv": ROUND_1,
    "ow/event.toml": OW_TOML, "ow/players.csv": OW_PLAYERS, "ow/round-1.csv": OW_ROUND,
    "go/event.toml": GO_TOML, "go/players.csv": GO_PLAYERS, "go/round-1.csv": GO_ROUND,
    "sw/event.toml": SW_TOML, "sw/players.csv": SW_PLAYERS, "sw/round-1.csv": SW_ROUND,
    "dip/event.toml": DIP_TOML, "dip/players.csv": DIP_PLAYERS, "dip/round-1.csv": dip(),
}


@dataclass(frozen=True)
class Sparse:
    """A file of ``size`` bytes that takes no disk space (a hole): never to be read."""

    size: int


@dataclass(frozen=True)
class Link:
    """A symbolic link to a valid copy of the file kept outside the events folder."""

    content: str
    folder: bool = False


Content = str | bytes | Sparse | Link | None
MB = 1024 * 1024
LONG = "x" * 1001
HUGE_LINE = "y" * 200_000
PLAYERS_DROP = ("id,name,faction,dropped_after\na,Ann,Cygnar,\nb,Bob,Khador,\nc,Cat,Cryx,\n"
                "d,Dan,Legion,1\n")
UNKNOWN = ("no such id in players.csv (was it renamed or removed after this round was "
           "paired?); restore the id in players.csv or correct this row")
SPACES = "check the quotes"

CASES: list[tuple[str, dict[str, Content], list[str]]] = [
    # --- event.toml: syntax and types
    ("toml-syntax", {"ev/event.toml": 'name = "Test\ndate = 2026-03-14\n'},
     ["ev/event.toml:1: is not valid TOML (Illegal character '\\n'); strings need quotes, dates "
      'look like 2026-03-14']),
    ("toml-date-as-text", {"ev/event.toml": EVENT_TOML.replace("2026-03-14", '"14 March"')},
     ["ev/event.toml:2: 'date' is required and must be a date without quotes, e.g. date = "
      '2026-03-14']),
    ("toml-date-impossible", {"ev/event.toml": EVENT_TOML.replace("2026-03-14", "2026-02-30")},
     ['ev/event.toml:2: is not valid TOML (Invalid date or datetime); strings need quotes, dates '
      'look like 2026-03-14']),
    ("toml-unknown-format", {"ev/event.toml": EVENT_TOML.replace("steamroller", "chess")},
     ["ev/event.toml:3: unknown format 'chess' (did you mean 'swiss'?); use one of: "
      "diplomacy, mcmahon, old-world, "
      'steamroller, swiss']),
    ("toml-format-not-text", {"ev/event.toml": EVENT_TOML.replace('"steamroller"', "3")},
     ['ev/event.toml:3: unknown format 3; use one of: diplomacy, mcmahon, old-world, '
      'steamroller, swiss']),
    ("toml-name-missing", {"ev/event.toml": EVENT_TOML.replace('name = "Test"\n', "")},
     ['ev/event.toml:1: \'name\' is required: the event\'s title in quotes, e.g. name = "Spring '
      'Open"']),
    ("toml-name-blank", {"ev/event.toml": EVENT_TOML.replace('"Test"', '"   "')},
     ['ev/event.toml:1: \'name\' is required: the event\'s title in quotes, e.g. name = "Spring '
      'Open"']),
    ("toml-unknown-key", {"ev/event.toml": EVENT_TOML + 'organizer = "Sam"\n'},
     ["ev/event.toml:4: unknown key 'organizer'; did you mean 'organiser'?"]),
    ("toml-rounds-text", {"ev/event.toml": EVENT_TOML + 'rounds = "four"\n'},
     ["ev/event.toml:4: 'rounds' must be a whole number from 1 to 99"]),
    ("toml-rounds-zero", {"ev/event.toml": EVENT_TOML + "rounds = 0\n"},
     ["ev/event.toml:4: 'rounds' must be a whole number from 1 to 99"]),
    ("toml-rounds-bool", {"ev/event.toml": EVENT_TOML + "rounds = true\n"},
     ["ev/event.toml:4: 'rounds' must be a whole number from 1 to 99"]),
    ("toml-seed-float", {"ev/event.toml": EVENT_TOML + "seed = 1.5\n"},
     ["ev/event.toml:4: 'seed' must be a whole number"]),
    ("toml-tiebreaks-not-list", {"ev/event.toml": EVENT_TOML + 'tiebreaks = "sos"\n'},
     ["ev/event.toml:4: 'tiebreaks' must be a list of tiebreak ids in quotes"]),
    ("toml-tiebreak-unknown", {"ev/event.toml": EVENT_TOML + 'tiebreaks = ["sos", "sbb"]\n'},
     ["ev/event.toml:4: unknown tiebreak 'sbb'; did you mean 'sb'?"]),
    ("toml-scenarios-numbers", {"ev/event.toml": EVENT_TOML + "scenarios = [1, 2]\n"},
     ["ev/event.toml:4: 'scenarios' must be a list of names in quotes"]),
    ("toml-url-javascript", {"ev/event.toml": EVENT_TOML + 'url = "javascript:alert(1)"\n'},
     ["ev/event.toml:4: 'url' must start with http:// or https://"]),
    ("toml-location-number", {"ev/event.toml": EVENT_TOML + "location = 7\n"},
     ["ev/event.toml:4: 'location' must be text in quotes"]),
    ("toml-option-unknown", {"ev/event.toml": EVENT_TOML + "[options]\nclear_winer = false\n"},
     ["ev/event.toml:5: unknown option 'clear_winer' for format steamroller; did you mean "
      "'clear_winner'?"]),
    ("toml-option-type", {"ev/event.toml": EVENT_TOML + '[options]\nclear_winner = "no"\n'},
     ["ev/event.toml:5: option 'clear_winner' must be true or false"]),
    ("toml-empty", {"ev/event.toml": ""},
     ["ev/event.toml:1: 'date' is required and must be a date without quotes, e.g. date = "
      '2026-03-14',
      "ev/event.toml:1: 'format' is required: one of diplomacy, mcmahon, old-world, steamroller, "
      'swiss, in quotes, e.g. format = "steamroller"',
      'ev/event.toml:1: \'name\' is required: the event\'s title in quotes, e.g. name = "Spring '
      'Open"']),
    ("toml-utf16", {"ev/event.toml": EVENT_TOML.encode("utf-16")},
     ['ev/event.toml:1: file is UTF-16; save it as UTF-8 (CSV UTF-8 in spreadsheet programs)']),
    ("toml-latin1", {"ev/event.toml": EVENT_TOML.replace("Test", "F\u00eate").encode("latin-1")},
     ['ev/event.toml:1: byte 0xEA is not UTF-8 (Latin-1 or Windows encoding?); save the file as '
      'UTF-8']),
    ("toml-100mb", {"ev/event.toml": Sparse(100 * MB)},
     ['ev/event.toml:1: file is 104,857,600 bytes (100.0 MB), over the 10 MB limit; is this the '
      'right file?']),
    ("toml-symlink-outside", {"ev/event.toml": Link(EVENT_TOML)},
     ['ev/event.toml:1: is a symbolic link leading outside the events folder; replace it with '
      'the real file']),
    # --- players.csv
    ("players-missing", {"ev/players.csv": None},
     ['ev/players.csv:1: players.csv is missing; create it with the header id,name,faction']),
    ("players-empty", {"ev/players.csv": ""},
     ['ev/players.csv:1: file is empty; it needs a header row: id,name']),
    ("players-header-only", {"ev/players.csv": "id,name,faction\n", "ev/round-1.csv": None},
     ['ev/players.csv:1: no players; add one row per player under the header']),
    ("players-duplicate-id", {"ev/players.csv": PLAYERS + "a,Another,Cryx\n"},
     ["ev/players.csv:6: id 'a' is already used on line 2; ids must be unique"]),
    ("players-id-upper-case", {"ev/players.csv": PLAYERS + "Eve,Eve,Cryx\n"},
     ["ev/players.csv:6: id 'Eve' must be a slug: lower-case letters, digits and hyphens, "
      "starting with a letter or digit (e.g. 'anna-k')"]),
    ("players-id-slash", {"ev/players.csv": PLAYERS + "e/f,Eve,Cryx\n"},
     ["ev/players.csv:6: id 'e/f' must be a slug: lower-case letters, digits and hyphens, "
      "starting with a letter or digit (e.g. 'anna-k')"]),
    ("players-id-dotdot", {"ev/players.csv": PLAYERS + "..,Eve,Cryx\n"},
     ["ev/players.csv:6: id '..' must be a slug: lower-case letters, digits and hyphens, "
      "starting with a letter or digit (e.g. 'anna-k')"]),
    ("players-id-cyrillic-lookalike", {"ev/players.csv": PLAYERS + "\u0430nn,Ann Two,Cryx\n"},
     ["ev/players.csv:6: id 'аnn' must be a slug: lower-case letters, digits and hyphens, "
      "starting with a letter or digit (e.g. 'anna-k')"]),
    ("players-id-reserved", {"ev/players.csv": PLAYERS + "bye,Bye,Cryx\n"},
     ["ev/players.csv:6: id 'bye' is reserved (BYE / ABSENT); choose another"]),
    ("players-id-too-long", {"ev/players.csv": PLAYERS + "e" * 65 + ",Eve,Cryx\n"},
     ["ev/players.csv:6: id 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' "
      'must be a slug: lower-case letters, digits and hyphens, starting with a letter or digit '
      "(e.g. 'anna-k')"]),
    ("players-no-name", {"ev/players.csv": PLAYERS + "e,,Cryx\n"},
     ["ev/players.csv:6: player 'e' has no name; fill in the 'name' column"]),
    ("players-misspelt-column", {"ev/players.csv": PLAYERS.replace("faction", "factoin")},
     ["ev/players.csv:1: unknown column 'factoin'; did you mean 'faction'?"]),
    ("players-duplicate-column", {"ev/players.csv": "id,name,name\na,Ann,Ann\n"},
     ["ev/players.csv:1: column 'name' appears twice; keep one"]),
    ("players-no-name-column", {"ev/players.csv": "id,faction\na,Cygnar\n"},
     ["ev/players.csv:1: missing column(s) 'name'; the header must have id,name"]),
    ("players-dropped-after-text", {"ev/players.csv": PLAYERS_DROP.replace(",1\n", ",one\n")},
     ["ev/players.csv:5: dropped_after 'one' must be the number of the last round played (0 if "
      'the player never played)']),
    ("players-rating-negative", {"sw/players.csv": SW_PLAYERS.replace("1700", "-5")},
     ["sw/players.csv:5: rating '-5' must be a number of 0 or more"]),
    ("players-spare-maybe", {"ow/players.csv": "id,name,spare\na,Ann,maybe\nb,Bob,\nc,Cat,\n"
                             "d,Dan,\n"},
     ["ow/players.csv:2: spare 'maybe' must be 'yes' or empty"]),
    ("players-field-count", {"ev/players.csv": PLAYERS + "e,Eve\n"},
     ['ev/players.csv:6: has 2 fields but the header has 3; check the commas']),
    ("players-unclosed-quote", {"ev/players.csv": PLAYERS + 'e,"Eve,Cryx\n'},
     ['ev/players.csv:6: a quote opened in this row is never closed; check the quotes']),
    ("players-text-after-quote", {"ev/players.csv": PLAYERS + 'e,"Eve"x,Cryx\n'},
     ['ev/players.csv:6: is not valid CSV (\',\' expected after \'"\'); check the quotes']),
    ("players-blank-line", {"ev/players.csv": PLAYERS.replace("b,Bob", "\nb,Bob")},
     ['ev/players.csv:3: blank line; delete it']),
    ("players-utf16", {"ev/players.csv": PLAYERS.encode("utf-16")},
     ['ev/players.csv:1: file is UTF-16; save it as UTF-8 (CSV UTF-8 in spreadsheet programs)']),
    ("players-utf16-be-no-bom", {"ev/players.csv": b"\xfe\xff" + PLAYERS.encode("utf-16-be")},
     ['ev/players.csv:1: file is UTF-16; save it as UTF-8 (CSV UTF-8 in spreadsheet programs)']),
    ("players-not-windows-1252", {"ev/players.csv": PLAYERS.replace("Dan", "Dan \u2013 Jr")
                                  .encode("cp1252").replace(b"\x96", b"\x81")},
     ['ev/players.csv:5: byte 0x81 is not UTF-8 (Latin-1 or Windows encoding?); save the file as '
      'UTF-8']),
    ("players-nul-byte", {"ev/players.csv": PLAYERS.replace("Bob", "B\x00b")},
     ['ev/players.csv:3: file holds a NUL byte; is it a text file?']),
    ("players-mixed-line-ends", {"ev/players.csv": PLAYERS.replace("\n", "\r\n", 2)},
     ['ev/players.csv:3: line ends with LF but line 1 ends with CRLF (Windows); mixed line ends: '
      'save the file again from one program']),
    ("players-lone-cr", {"ev/players.csv": PLAYERS.replace("\n", "\r")},
     ['ev/players.csv:1: lines end with a lone CR (old Mac format); save the file as CSV UTF-8 '
      '(LF or CRLF line ends)']),
    ("players-long-cell", {"ev/players.csv": PLAYERS.replace("Cryx", LONG)},
     ["ev/players.csv:4: 'faction' is 1001 characters long, over the limit of 1000; shorten it"]),
    ("players-200k-line", {"ev/players.csv": PLAYERS.replace("Cryx", HUGE_LINE)},
     ['ev/players.csv:4: a cell is over 131,072 characters long (the limit is 1000); is a quote '
      'left open?']),
    ("players-100mb-sparse", {"ev/players.csv": Sparse(100 * MB)},
     ['ev/players.csv:1: file is 104,857,600 bytes (100.0 MB), over the 10 MB limit; is this the '
      'right file?']),
    ("players-just-over-limit", {"ev/players.csv": Sparse(10 * MB + 1)},
     ['ev/players.csv:1: file is 10,485,761 bytes (10.0 MB), over the 10 MB limit; is this the '
      'right file?']),
    ("players-symlink-outside", {"ev/players.csv": Link(PLAYERS)},
     ['ev/players.csv:1: is a symbolic link leading outside the events folder; replace it with '
      'the real file']),
    ("go-rank-invalid", {"go/players.csv": GO_PLAYERS.replace("10k", "40k")},
     ["go/players.csv:5: rank '40k' is not a Go rank; use 30k ... 1k, 1d ... 9d or 1p ... 9p"]),
    ("go-mms-correction-text", {"go/players.csv": "id,name,rank,mms_correction\na,Ann,3d,\n"
                                "b,Bob,1k,two\nc,Cat,5k,\nd,Dan,10k,\n"},
     ["go/players.csv:3: mms_correction 'two' must be a whole number such as 1 or -2"]),
    # --- round files, two-player formats
    ("round-unknown-player", {"ev/round-1.csv": R + "1,a,bob,1-0,3,1,40,20\n2,c,d,0-1,0,2,10,30\n"},
     ["ev/round-1.csv:2: unknown player id 'bob' in player_2: no such id in players.csv (was it "
      'renamed or removed after this round was paired?); restore the id in players.csv or '
      'correct this row']),
    ("round-orphaned-by-players-change", {"ev/players.csv": PLAYERS.replace(
        "d,Dan,Legion\n", "dan,Dan,Legion\n")},
     ["ev/round-1.csv:3: unknown player id 'd' in player_2: no such id in players.csv (was it "
      'renamed or removed after this round was paired?); restore the id in players.csv or '
      'correct this row']),
    ("round-player-twice", {"ev/round-1.csv": R + "1,a,b,1-0,,,,\n2,c,a,0-1,,,,\n3,d,BYE,,,,,\n"},
     ["ev/round-1.csv:3: player 'a' is already in this round on line 2; a player plays once a "
      'round']),
    ("round-same-player-both-sides", {"ev/round-1.csv": R + "1,a,a,1-0,,,,\n2,c,d,0-1,,,,\n"
                                      "3,b,BYE,,,,,\n"},
     ["ev/round-1.csv:2: player 'a' is on both sides of the table"]),
    ("round-table-twice", {"ev/round-1.csv": R + "1,a,b,1-0,,,,\n1,c,d,0-1,,,,\n"},
     ['ev/round-1.csv:3: table 1 is already used on line 2; number each table once']),
    ("round-table-zero", {"ev/round-1.csv": R + "0,a,b,1-0,,,,\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: table '0' must be a whole number of 1 or more"]),
    ("round-table-text", {"ev/round-1.csv": R + "one,a,b,1-0,,,,\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: table 'one' must be a whole number of 1 or more"]),
    ("round-result-unknown", {"ev/round-1.csv": R + "1,a,b,W,,,,\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: result 'W' is not one of: 1-0, 0-1, draw (or ½-½, 0.5-0.5), +-, -+, -- "
      'or empty']),
    ("round-both-players-win", {"ev/round-1.csv": R + "1,a,b,1-1,,,,\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: result '1-1' is not one of: 1-0, 0-1, draw (or ½-½, 0.5-0.5), +-, -+, "
      '-- or empty']),
    ("round-negative-stat", {"ev/round-1.csv": R + "1,a,b,1-0,-3,1,,\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: cp_1 '-3' cannot be negative"]),
    ("round-text-stat", {"ev/round-1.csv": R + "1,a,b,1-0,3,1,lots,\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: apd_1 'lots' must be a whole number"]),
    ("round-stat-overflow", {"ev/round-1.csv": R + "1,a,b,1-0,3,1,1" + "0" * 20 + ",\n"
                             "2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: apd_1 '100000000000000000000' must be a whole number"]),
    ("round-blank-line", {"ev/round-1.csv": R + "1,a,b,1-0,,,,\n\n2,c,d,0-1,,,,\n"},
     ['ev/round-1.csv:3: blank line; delete it']),
    ("round-field-count", {"ev/round-1.csv": R + "1,a,b,1-0\n2,c,d,0-1,,,,\n"},
     ['ev/round-1.csv:2: has 4 fields but the header has 8; check the commas']),
    ("round-missing-column", {"ev/round-1.csv": "table,player_1,player_2,cp_1,cp_2,apd_1,apd_2\n"
                              "1,a,b,,,,\n2,c,d,,,,\n"},
     ["ev/round-1.csv:1: missing column(s) 'result'; the header must have "
      'table,player_1,player_2,result,cp_1,cp_2,apd_1,apd_2']),
    ("round-empty-file", {"ev/round-1.csv": ""},
     ['ev/round-1.csv:1: file is empty; it needs a header row: '
      'table,player_1,player_2,result,cp_1,cp_2,apd_1,apd_2']),
    ("round-header-only", {"ev/round-1.csv": R},
     ['ev/round-1.csv:1: round file has no games; add one row per table']),
    # a player who has played and then has no row (a player with no row yet is a late entry)
    ("round-player-missing", {"ev/round-2.csv": R + "1,a,b,1-0,,,,\n"},
     ["ev/round-2.csv:1: player 'c' (ev/players.csv:4) is missing from this round; add them to a "
      'table, as BYE or ABSENT, or set dropped_after in players.csv',
      "ev/round-2.csv:1: player 'd' (ev/players.csv:5) is missing from this round; add them to a "
      'table, as BYE or ABSENT, or set dropped_after in players.csv']),
    ("round-joined-but-plays", {"ev/players.csv": PLAYERS.replace("\n", ",joined\n")
                                .replace("Dan,Legion,joined\n", "Dan,Legion,2\n")
                                .replace(",joined\n", ",\n").replace("faction,\n",
                                                                     "faction,joined\n")},
     ["ev/round-1.csv:3: player 'd' joined in round 2 (ev/players.csv:5) but is in round 1; "
      "remove the row or correct joined"]),
    ("players-joined-zero", {"ev/players.csv": PLAYERS.replace("\n", ",joined\n")
                             .replace("Dan,Legion,joined\n", "Dan,Legion,0\n")
                             .replace(",joined\n", ",\n").replace("faction,\n",
                                                                  "faction,joined\n")},
     ["ev/players.csv:5: joined '0' must be the number of the player's first round (1 or more)"]),
    ("round-empty-player", {"ev/round-1.csv": R + "1,a,,1-0,,,,\n2,c,d,0-1,,,,\n3,b,BYE,,,,,\n"},
     ['ev/round-1.csv:2: player_2 is empty; put a player id there']),
    ("round-bye-in-player-1", {"ev/round-1.csv": R + "1,a,b,1-0,,,,\n2,BYE,c,,,,,\n"
                               "3,d,BYE,,,,,\n"},
     ["ev/round-1.csv:3: BYE goes in player_2; put the player's id in player_1"]),
    ("round-bye-with-forfeit", {"ev/round-1.csv": R + "1,a,b,1-0,,,,\n2,c,BYE,+-,,,,\n"
                                "3,d,ABSENT,,,,,\n"},
     ["ev/round-1.csv:3: result '+-' cannot be given on a BYE row; use 1-0 (a win), draw, 0-1 "
      "(nothing) or leave it empty for the format's default"]),
    ("round-bye-with-opponent-stats", {"ev/round-1.csv": R + "1,a,b,1-0,,,,\n2,c,BYE,,,2,,\n"
                                       "3,d,ABSENT,,,,,\n"},
     ['ev/round-1.csv:3: a BYE row has no second player; leave the _2 columns empty']),
    ("round-result-for-dropped-player", {"ev/players.csv": PLAYERS_DROP,
                                         "ev/round-2.csv": R + "1,a,c,1-0,,,,\n2,b,d,1-0,,,,\n"},
     ["ev/round-2.csv:3: player 'd' dropped after round 1 (ev/players.csv:5) but is in round 2; "
      'remove the row or correct dropped_after']),
    ("round-gap", {"ev/round-3.csv": ROUND_1},
     ['ev/round-3.csv:1: round-2.csv is missing; round files must run 1, 2, 3 ... without gaps']),
    ("round-2-without-round-1", {"ev/round-1.csv": None, "ev/round-2.csv": ROUND_1},
     ['ev/round-2.csv:1: round-1.csv is missing; round files must run 1, 2, 3 ... without gaps']),
    ("round-beyond-planned", {"ev/event.toml": EVENT_TOML + "rounds = 1\n",
                              "ev/round-2.csv": R + "1,a,c,1-0,,,,\n2,b,d,1-0,,,,\n"},
     ["ev/round-2.csv:1: event.toml plans 1 rounds; raise 'rounds' or remove this file"]),
    ("round-file-misnamed", {"ev/round2.csv": ROUND_1},
     ["ev/round2.csv:1: unexpected file 'round2.csv'; round files are named round-1.csv, "
      'round-2.csv, ...']),
    ("round-zero-file", {"ev/round-0.csv": ROUND_1},
     ["ev/round-0.csv:1: unexpected file 'round-0.csv'; round files are named round-1.csv, "
      'round-2.csv, ...']),
    ("round-unclosed-quote", {"ev/round-1.csv": R + '1,a,"b,1-0,,,,\n2,c,d,0-1,,,,\n'},
     ['ev/round-1.csv:2: a quote opened in this row is never closed; check the quotes']),
    ("round-crlf-then-lf", {"ev/round-1.csv": ROUND_1.replace("\n", "\r\n", 2)},
     ['ev/round-1.csv:3: line ends with LF but line 1 ends with CRLF (Windows); mixed line ends: '
      'save the file again from one program']),
    ("round-lf-then-crlf", {"ev/round-1.csv": ROUND_1.replace("0-1,0,2,10,30\n",
                                                              "0-1,0,2,10,30\r\n")},
     ['ev/round-1.csv:3: line ends with CRLF (Windows) but line 1 ends with LF; mixed line ends: '
      'save the file again from one program']),
    ("round-utf16", {"ev/round-1.csv": ROUND_1.encode("utf-16")},
     ['ev/round-1.csv:1: file is UTF-16; save it as UTF-8 (CSV UTF-8 in spreadsheet programs)']),
    ("round-100mb-sparse", {"ev/round-1.csv": Sparse(100 * MB)},
     ['ev/round-1.csv:1: file is 104,857,600 bytes (100.0 MB), over the 10 MB limit; is this the '
      'right file?']),
    ("round-1gb-sparse", {"ev/round-1.csv": Sparse(1024 * MB)},
     ['ev/round-1.csv:1: file is 1,073,741,824 bytes (1024.0 MB), over the 10 MB limit; is this '
      'the right file?']),
    ("round-symlink-outside", {"ev/round-1.csv": Link(ROUND_1)},
     ['ev/round-1.csv:1: is a symbolic link leading outside the events folder; replace it with '
      'the real file']),
    ("round-long-cell", {"ev/round-1.csv": R + f"1,a,b,{LONG},,,,\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: 'result' is 1001 characters long, over the limit of 1000; shorten it"]),
    ("ow-result-disagrees-with-vp", {"ow/round-1.csv": OW_HEADER + "1,a,b,0-1,1200,300\n"
                                     "2,c,d,draw,500,450\n"},
     ["ow/round-1.csv:2: result '0-1' disagrees with the victory points 1200-300: a difference "
      "of 900 is a Regular victory (from 601); write '1-0', leave the result empty to derive it, "
      'or correct vp_1/vp_2']),
    ("ow-one-side-vp", {"ow/round-1.csv": OW_HEADER + "1,a,b,,1200,\n2,c,d,draw,500,450\n"},
     ["ow/round-1.csv:2: only one side's victory points are given; enter both vp_1 and vp_2 (or "
      'neither while the game is unplayed)']),
    ("ow-vp-text", {"ow/round-1.csv": OW_HEADER + "1,a,b,,lots,300\n2,c,d,draw,500,450\n"},
     ["ow/round-1.csv:2: vp_1 'lots' must be a whole number"]),
    ("go-handicap-text", {"go/round-1.csv": GO_HEADER + "1,a,b,1-0,two,6.5\n2,c,d,0-1,0,6.5\n"},
     ["go/round-1.csv:2: handicap 'two' must be a number"]),
    ("go-unknown-player", {"go/round-1.csv": GO_ROUND.replace("2,c,d", "2,c,e")},
     ["go/round-1.csv:3: unknown player id 'e' in player_2: no such id in players.csv (was it "
      'renamed or removed after this round was paired?); restore the id in players.csv or '
      'correct this row']),
    ("sw-result-unknown", {"sw/round-1.csv": SW_ROUND.replace("draw", "1/2")},
     ["sw/round-1.csv:3: result '1/2' is not one of: 1-0, 0-1, draw (or ½-½, 0.5-0.5), +-, -+, "
      '-- or empty']),
    ("sw-beyond-planned", {"sw/round-2.csv": SW_ROUND, "sw/round-3.csv": SW_ROUND,
                           "sw/round-4.csv": SW_ROUND},
     ["sw/round-4.csv:1: event.toml plans 3 rounds; raise 'rounds' or remove this file"]),
    # --- Diplomacy boards
    ("dip-two-solos", {"dip/round-1.csv": dip((0, "1,p1,England,17,solo,"),
                                              (1, "1,p2,France,16,solo,"),
                                              (2, "1,p3,Germany,1,loss,"),
                                              (3, "1,p4,Italy,0,eliminated,"),
                                              (5, "1,p6,Russia,0,eliminated,"),
                                              (6, "1,p7,Turkey,0,eliminated,"))},
     ['dip/round-1.csv:3: board 1: only one power can solo; the others lost']),
    ("dip-centres-over-34", {"dip/round-1.csv": dip((3, "1,p4,Italy,9,loss,"))},
     ['dip/round-1.csv:2: board 1: centres add up to 39; the map has 34']),
    ("dip-centres-35", {"dip/round-1.csv": dip((3, "1,p4,Italy,35,loss,"))},
     ["dip/round-1.csv:5: centres '35' must be a whole number from 0 to 34"]),
    ("dip-six-seats", {"dip/round-1.csv": dip(drop=3)},
     ['dip/round-1.csv:2: board 1: has 6 seats; a board has 7, one per power']),
    ("dip-power-twice", {"dip/round-1.csv": dip((3, "1,p4,France,4,loss,"))},
     ['dip/round-1.csv:2: board 1: no seat for Italy',
      'dip/round-1.csv:5: board 1: France is already played on line 3; each power once per board']),
    ("dip-unknown-power", {"dip/round-1.csv": dip((3, "1,p4,Itlay,4,loss,"))},
     ["dip/round-1.csv:5: power 'Itlay' is not one of Austria, England, France, Germany, Italy, "
      "Russia, Turkey, SITOUT or ABSENT; did you mean 'Italy'?"]),
    ("dip-eliminated-with-centres", {"dip/round-1.csv": dip((3, "1,p4,Italy,2,loss,"),
                                                              (4, "1,p5,Austria,2,eliminated,"))},
     ['dip/round-1.csv:6: board 1: Austria is eliminated but holds 2 centre(s); write 0 or '
      'change the result']),
    ("dip-solo-and-draw", {"dip/round-1.csv": dip((0, "1,p1,England,18,solo,"),
                                                  (1, "1,p2,France,1,draw,"),
                                                  (5, "1,p6,Russia,1,loss,"),
                                                  (6, "1,p7,Turkey,1,loss,"),
                                                  (2, "1,p3,Germany,1,loss,"))},
     ['dip/round-1.csv:3: board 1: a board with a solo has no draw; write loss (or eliminated) '
      'for everyone but the soloist']),
    ("dip-one-power-draw", {"dip/round-1.csv": dip((1, "1,p2,France,6,loss,"),
                                                   (2, "1,p3,Germany,5,loss,"),
                                                   (5, "1,p6,Russia,7,loss,"),
                                                   (6, "1,p7,Turkey,7,loss,"))},
     ['dip/round-1.csv:2: board 1: a finished board needs one solo or a draw of two or more '
      'powers (a one-power draw is a solo: write solo)']),
    ("dip-half-finished-board", {"dip/round-1.csv": dip((3, "1,p4,Italy,4,,"))},
     ["dip/round-1.csv:5: board 1: result is empty while other seats have one; fill every seat's "
      'result (or none while the game is on)']),
    ("dip-unknown-player", {"dip/round-1.csv": dip((3, "1,p9,Italy,4,loss,"))},
     ["dip/round-1.csv:5: unknown player id 'p9': no such id in players.csv (was it renamed or "
      'removed after this round was paired?); restore the id in players.csv or correct this row']),
    ("dip-result-for-dropped-player", {
        "dip/players.csv": DIP_PLAYERS.replace("id,name\n", "id,name,dropped_after\n")
        .replace("P1\n", "P1,\n").replace("P2\n", "P2,\n").replace("P3\n", "P3,\n")
        .replace("P4\n", "P4,\n").replace("P5\n", "P5,\n").replace("P6\n", "P6,\n")
        .replace("P7\n", "P7,1\n"),
        "dip/round-2.csv": dip()},
     ["dip/round-2.csv:2: player 'p7' dropped after round 1 (dip/players.csv:8) but is in round "
      '2; remove the row or correct dropped_after']),
    ("dip-eliminated-year-on-survivor", {"dip/round-1.csv": dip((3, "1,p4,Italy,4,loss,1903"))},
     ['dip/round-1.csv:5: eliminated_year is only for a power whose result is eliminated; clear '
      'it']),
    # --- event.md, army lists, folders, seasons
    ("event-md-latin1", {"ev/event.md": "# F\u00eate\n".encode("latin-1")},
     ['ev/event.md:1: byte 0xEA is not UTF-8 (Latin-1 or Windows encoding?); save the file as '
      'UTF-8']),
    ("event-md-100mb", {"ev/event.md": Sparse(100 * MB)},
     ['ev/event.md:1: file is 104,857,600 bytes (100.0 MB), over the 10 MB limit; is this the '
      'right file?']),
    ("event-md-symlink-outside", {"ev/event.md": Link("# Secret\n")},
     ['ev/event.md:1: is a symbolic link leading outside the events folder; replace it with the '
      'real file']),
    ("list-unknown-player", {"ev/lists/zed.md": "# List\n"},
     ["ev/lists/zed.md:1: no player 'zed' in players.csv; name the file after a player id"]),
    ("list-bad-name", {"ev/lists/a.txt": "List\n"},
     ['ev/lists/a.txt:1: army lists are named <player-id>.md']),
    ("lists-folder-symlink-outside", {"ev/lists": Link("List\n", folder=True)},
     ['ev/lists:1: is a symbolic link leading outside the events folder; replace it with the '
      'real file']),
    ("folder-not-a-slug", {"Spring Open/event.toml": EVENT_TOML},
     ["Spring Open:1: folder name 'Spring Open' is not a slug; use lower-case letters, digits "
      "and hyphens: rename it 'spring-open'"]),
    ("folder-cyrillic-lookalike", {"spring-\u043epen/event.toml": EVENT_TOML},
     ["spring-оpen:1: folder name 'spring-оpen' is not a slug; use lower-case letters, digits "
      'and hyphens']),
    ("folder-dots", {"a..b/event.toml": EVENT_TOML},
     ["a..b:1: folder name 'a..b' is not a slug; use lower-case letters, digits and hyphens: "
      "rename it 'a-b'"]),
    ("folder-reserved", {"assets/event.toml": EVENT_TOML},
     ["assets:1: folder name 'assets' is reserved for the site's own pages; rename it"]),
    ("folder-symlink-outside", {"linked": Link("", folder=True)},
     ['linked:1: is a symbolic link leading outside the events folder; replace it with the real '
      'file']),
    ("season-name-missing", {"season.toml": 'description = "x"\n'},
     ["season.toml:1: 'name' is required: the season's title in quotes"]),
    ("season-bad-toml", {"season.toml": "name = Club\n"},
     ['season.toml:1: is not valid TOML (Invalid value); strings need quotes, dates look like '
      '2026-03-14']),
    ("season-unknown-key", {"season.toml": 'name = "Club"\ndescriptoin = "x"\n'},
     ["season.toml:2: unknown key 'descriptoin'; did you mean 'description'?"]),
]


def write(root: Path, outside: Path, files: dict[str, Content]) -> None:
    """Write the base tree with ``files`` replacing, adding or (None) removing entries."""
    for rel, content in {**BASE, **files}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            continue
        if isinstance(content, Sparse):
            with open(path, "wb") as handle:
                handle.truncate(content.size)
        elif isinstance(content, Link):
            target = outside / rel.replace("/", "_")
            if content.folder:
                target.mkdir(parents=True)
                (target / "a.md").write_text(content.content)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(content.content)
            path.symlink_to(target, target_is_directory=content.folder)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")


def digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_catalogue_is_large_and_ids_unique() -> None:
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 80


def test_base_tree_builds(tmp_path: Path) -> None:
    root = tmp_path / "events"
    write(root, tmp_path / "outside", {})
    result = CliRunner().invoke(main, ["build", str(root), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output


@pytest.mark.parametrize(("name", "files", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_exits_2_with_exact_messages_and_output_untouched(
    tmp_path: Path, name: str, files: dict[str, Content], expected: list[str]
) -> None:
    root = tmp_path / "events"
    write(root, tmp_path / "outside", files)
    out = tmp_path / "output"
    (out / "ev").mkdir(parents=True)
    (out / "index.html").write_text("<p>the old site</p>")
    (out / "ev" / "standings.json").write_text("{}")
    before = digest(out)
    result = CliRunner().invoke(main, ["build", str(root), "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)  # sys.exit(2), not an escaped exception
    *lines, summary = result.stderr.splitlines()
    assert summary.endswith("problem(s) found; nothing was written.")
    got = [line.replace(root.as_posix() + "/", "").replace(root.as_posix(), ".")
           for line in lines]
    assert got == expected
    assert digest(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["events", "output"] + (
        ["outside"] if (tmp_path / "outside").exists() else [])


# --- line endings: Excel's uniform CRLF is accepted, mixed endings are refused above ---
def test_uniform_crlf_files_load_exactly_like_lf(tmp_path: Path) -> None:
    from standgen.load import load_tree

    lf, crlf = tmp_path / "lf", tmp_path / "crlf"
    write(lf, tmp_path / "outside", {})
    write(crlf, tmp_path / "outside", {rel: text.replace("\n", "\r\n")
                                       for rel, text in BASE.items()})
    assert (crlf / "ev/round-1.csv").read_bytes().count(b"\r\n") == 3
    a, b = load_tree(lf), load_tree(crlf)
    def players(tree: EventsTree) -> list[tuple[str, str, str, int]]:
        return [(p.id, p.name, p.faction, p.source.line) for e in tree.events for p in e.players]

    assert players(a) == players(b)
    assert [[g.seats for r in e.rounds for g in r.games] for e in a.events] == [
        [g.seats for r in e.rounds for g in r.games] for e in b.events]


def test_crlf_file_problems_name_the_right_line(tmp_path: Path) -> None:
    root = tmp_path / "events"
    write(root, tmp_path / "outside", {
        "ev/round-1.csv": (R + "1,a,b,1-0,3,1,40,20\n2,c,d,W,0,2,10,30\n").replace("\n", "\r\n")})
    result = CliRunner().invoke(main, ["check", str(root)])
    assert result.exit_code == 2
    assert f"{root.as_posix()}/ev/round-1.csv:3: result 'W' is not one of" in result.stderr
