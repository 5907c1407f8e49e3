"""FIDE Tournament Report File (TRF16, FIDE Handbook C.04 Annex 2): export and import.

Export writes the ``001`` player lines (start rank, sex, title, name, rating,
federation, FIDE number, birth date, points, rank, then one 10-column block per round:
opponent's start rank, colour, result) and the tournament lines ``012`` (name), ``022``
(city), ``042`` (start date), ``062`` (players), ``092`` (type), with the JaVaFo /
bbpPairings extensions ``XXR`` (planned rounds), ``XXC`` (``white1`` / ``black1``: the
top seed's colour in round 1) and ``XXS PAB=`` (points of the pairing-allocated bye).

Import reads the same and turns it into an event folder's files (event.toml,
players.csv, round-N.csv). Nothing here touches the file system.

The package: :mod:`~standgen.trf.read` (the file as a :class:`Tournament`),
:mod:`~standgen.trf.export` and :mod:`~standgen.trf.folder` (an event folder's files);
this module names them all. A file is paired as an imported event is, through the swiss
format's one adapter into the Dutch engine (:mod:`standgen.pairing.dutch_swiss`).
"""

from __future__ import annotations

from standgen.trf.export import export_event as export_event
from standgen.trf.export import export_trf as export_trf
from standgen.trf.export import round_block as round_block
from standgen.trf.folder import REQUESTED as REQUESTED
from standgen.trf.folder import announced_round as announced_round
from standgen.trf.folder import event_files as event_files
from standgen.trf.folder import is_baku as is_baku
from standgen.trf.folder import is_round_robin as is_round_robin
from standgen.trf.read import DRAWS as DRAWS
from standgen.trf.read import LOSSES as LOSSES
from standgen.trf.read import NAME_COLUMNS as NAME_COLUMNS
from standgen.trf.read import NEWLINE as NEWLINE
from standgen.trf.read import NOT_CARRIED as NOT_CARRIED
from standgen.trf.read import PLAYED_CODES as PLAYED_CODES
from standgen.trf.read import ROUND_ROBIN_TYPE as ROUND_ROBIN_TYPE
from standgen.trf.read import SWISS_TYPE as SWISS_TYPE
from standgen.trf.read import WINS as WINS
from standgen.trf.read import Bad as Bad
from standgen.trf.read import Tournament as Tournament
from standgen.trf.read import TrfPlayer as TrfPlayer
from standgen.trf.read import TrfRound as TrfRound
from standgen.trf.read import inferred_initial_colour as inferred_initial_colour
from standgen.trf.read import parse_trf as parse_trf
from standgen.trf.read import player_ids as player_ids
from standgen.trf.read import player_slug as player_slug
