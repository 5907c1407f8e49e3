"""The tournament model: frozen dataclasses built by ``load`` and read by every later stage.

A game has N seats (two for most formats, seven for a Diplomacy board), so no format
needs a model of its own. A bye or an absence is a game with one seat and no opponent.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType
from typing import Any

EMPTY: Mapping[str, Any] = MappingProxyType({})


def _empty() -> Mapping[str, Any]:
    return EMPTY


class Outcome(StrEnum):
    """What a seat got out of a game, before any format turns it into points."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class GameKind(StrEnum):
    """How a game came about.

    ``played``: over the board. ``forfeit``: decided without play (``+-``, ``-+``, ``--``).
    ``bye``: a pairing-allocated bye (``BYE``). ``absent``: the player did not play the
    round (``ABSENT``: a requested bye or an absence).
    """

    PLAYED = "played"
    FORFEIT = "forfeit"
    BYE = "bye"
    ABSENT = "absent"


# the site's languages (site.toml, season.toml, event.toml ``language``; docs/site.md)
LANGUAGES = ("en", "de", "fr", "es", "it", "nl", "pl", "cs", "ja")

# what the site may show of a player (players.csv ``publish``; docs/privacy.md)
PUBLISH_LEVELS = ("full", "initials", "pseudonym", "hidden")
# the levels a site or event may set as the default (a pseudonym is one player's own)
PUBLISH_DEFAULTS = ("full", "initials", "hidden")
# the events root's usual name (README, data contract section 1), as messages spell it
EVENTS_ROOT = "events"


@dataclass(frozen=True)
class Source:
    """Where a value came from, for messages: a path relative to the working folder."""

    path: str
    line: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Player:
    """One line of ``players.csv``."""

    id: str
    name: str
    faction: str = ""
    club: str = ""
    country: str = ""
    rank: str = ""
    mms_correction: int = 0
    rating: float | None = None
    dropped_after: int | None = None
    spare: bool = False
    source: Source = Source("")
    joined: int = 1  # the first round the player is in (a late entry joins after round 1)
    byes: tuple[int, ...] = ()  # rounds the player asked not to be paired in
    # what the site may show of the player (docs/privacy.md): "full", "initials",
    # "pseudonym" or "hidden"; "" takes the event's (or the site's) default
    publish: str = ""
    pseudonym: str = ""  # the name shown when ``publish`` is "pseudonym"
    # the TO's check of the army list: "", "submitted", "checked" or "needs-fix"
    list_check: str = ""
    team: str = ""  # the id of the player's team in this event (docs/teams.md), or ""

    def active_in(self, round_number: int) -> bool:
        """Return whether the player is in the event for ``round_number``: joined by
        then and not dropped before it."""
        return self.joined <= round_number and (
            self.dropped_after is None or round_number <= self.dropped_after)


@dataclass(frozen=True)
class Seat:
    """One player's place in a game.

    ``outcome`` is None while the game has no result. ``stats`` holds the format's stat
    columns (``cp``, ``apd``, ``vp``, ``centres`` ...). ``power`` is the Diplomacy power.
    """

    player: str
    outcome: Outcome | None = None
    stats: Mapping[str, float] = field(default_factory=_empty)
    power: str = ""
    result: str = ""  # the format's own per-seat result word (Diplomacy: solo/draw/loss/eliminated)


@dataclass(frozen=True)
class Game:
    """A table (two-player formats) or a board (Diplomacy) in one round."""

    round: int
    table: int
    seats: tuple[Seat, ...]
    kind: GameKind = GameKind.PLAYED
    # per-game columns such as Go ``handicap``, ``komi``
    extra: Mapping[str, float] = field(default_factory=_empty)
    source: Source = Source("")

    @cached_property
    def finished(self) -> bool:
        """Return whether every seat has a result."""
        return all(seat.outcome is not None for seat in self.seats)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.player for seat in self.seats)

    def seat_of(self, player: str) -> Seat:
        for seat in self.seats:
            if seat.player == player:
                return seat
        raise KeyError(player)

    def opponents_of(self, player: str) -> tuple[str, ...]:
        return tuple(seat.player for seat in self.seats if seat.player != player)


class RoundState(StrEnum):
    """Where a round stands on the day (docs/running-an-event.md, "Round states").

    ``proposed``: no file yet, the site shows the pairing standgen would make.
    ``paired``: the file is written and no result is entered (a bye or sit-out row the
    pairing gave is no entered result). ``started``: some results are entered.
    ``complete``: every table has a result and, in a team-vs-team event, every match of
    ``teams-round-N.csv`` has all its games (:attr:`Round.waiting` is 0).
    """

    PROPOSED = "proposed"
    PAIRED = "paired"
    STARTED = "started"
    COMPLETE = "complete"


@dataclass(frozen=True)
class Round:
    """One ``round-N.csv``."""

    number: int
    games: tuple[Game, ...]
    source: Source = Source("")
    # a team-vs-team event: the games its team matches still lack (drafted games not yet
    # typed in), set where the event is loaded (docs/teams.md, "Team matches"); 0 elsewhere
    waiting: int = 0

    @cached_property
    def finished(self) -> bool:
        """Return whether the round is complete: every game has its result and no game
        of its team matches is still to be typed in."""
        return not self.waiting and all(game.finished for game in self.games)

    @cached_property
    def started(self) -> bool:
        """Return whether any game of the round has a result."""
        return any(seat.outcome is not None for game in self.games for seat in game.seats)

    @cached_property
    def state(self) -> RoundState:
        """Return the round's state: paired (no result entered), started or complete."""
        entered = any(game.kind not in (GameKind.BYE, GameKind.ABSENT)
                      and any(seat.outcome is not None for seat in game.seats)
                      for game in self.games)
        if not entered:
            return RoundState.PAIRED
        return RoundState.COMPLETE if self.finished else RoundState.STARTED


@dataclass(frozen=True)
class Team:
    """One team of an event: ``teams.csv``'s row, or a ``team`` cell of players.csv when
    the event has no teams.csv (docs/teams.md)."""

    id: str
    name: str
    country: str = ""
    captain: str = ""  # a player id, or ""
    source: Source = Source("")


# [teams] apart: the rounds in which team-mates are kept apart (docs/teams.md)
TEAMS_APART = ("round-1", "always", "no")
# [teams] column: the players.csv column that names each player's team
TEAMS_COLUMNS = ("team", "club")


@dataclass(frozen=True)
class TeamRules:
    """``[teams]`` of event.toml, validated: how team-mates are paired and what a team's
    score is (docs/teams.md)."""

    apart: str = "round-1"  # one of TEAMS_APART
    counted: int | None = None  # the best N members' scores make the team's; None: all
    # the best N results (games) of its members, whoever played them, make the team's
    # score (a Diplomacy team trophy: docs/teams.md, "Team trophies of best results")
    best: int | None = None
    size: int | None = None  # the players a team should have; a warning names any other
    column: str = "team"  # the players.csv column naming a player's team: "team" or "club"
    # team-vs-team event (docs/teams.md, "Team matches"): teams play matches, paired in
    # teams-round-N.csv; each round-N.csv holds the games the captains drafted
    matches: bool = False
    # the match points of a match won, drawn, lost (FIDE C.07: 2/1/0), which the team
    # tie-breaks MP, BH:MP, EMGSB ... read (docs/teams.md, "Chess team tie-breaks")
    match_points: tuple[float, float, float] = (2.0, 1.0, 0.0)
    # the team tie-breaks after match points (registry ids, FIDE C.07) of a format ranking
    # teams by match points (Format.team_tiebreaks, the default; docs/teams.md, "Chess
    # team standings"); empty: the teams are ranked by Wins, SoS, TP (wargames)
    tiebreaks: tuple[str, ...] = ()


@dataclass(frozen=True)
class TeamMatch:
    """One row of ``teams-round-N.csv``: two teams matched in a round, or a team bye
    (``team_2`` empty) (docs/teams.md, "Team matches")."""

    number: int  # the match's number in its round (the file's ``match`` column)
    team_1: str  # a team id
    team_2: str  # a team id, or "" for a team bye
    source: Source = Source("")
    # the file's optional ``result`` column (docs/data-contract.md, teams-round-N.csv): on
    # a bye row a bye the team asked for (TRF-2026's 240), ``1-0`` a full point, ``draw``
    # half, ``0-1`` none; on a match row ``--``, a double forfeit (330 ``--``); "" else
    result: str = ""


@dataclass(frozen=True)
class TeamRound:
    """``teams-round-N.csv``: the team matches of round N, as ``standgen pair`` wrote
    them before the individual games were drafted."""

    number: int
    matches: tuple[TeamMatch, ...]
    source: Source = Source("")


@dataclass(frozen=True)
class EventConfig:
    """``event.toml``, validated."""

    name: str
    date: dt.date
    format: str
    rounds: int | None = None
    seed: int = 0
    tiebreaks: tuple[str, ...] = ()
    scenarios: tuple[str, ...] = ()
    location: str = ""
    organiser: str = ""
    url: str = ""
    options: Mapping[str, Any] = field(default_factory=_empty)
    # the default of players.csv's ``publish`` column (docs/privacy.md): event.toml's
    # ``publish``, else site.toml's, else "full"
    publish: str = "full"
    # the line of event.toml that sets each key of [options], for messages
    option_lines: Mapping[str, int] = field(default_factory=_empty, compare=False, repr=False)
    # when army lists (lists/<id>.md) appear on the site: "" (as soon as the file is
    # there), "event-start", "round-1", "never", or an ISO date and time with its offset
    lists_public: str = ""
    teams: TeamRules = TeamRules()
    language: str = ""  # the event's pages' language; "" takes the season's or the site's


# players.csv ``list_check``: the TO's check of a player's army list
LIST_CHECKS = ("submitted", "checked", "needs-fix")


@dataclass(frozen=True)
class Event:
    """One event folder: its config, players and rounds, as loaded and validated."""

    path: tuple[str, ...]  # slugs from the events root, e.g. ("2026", "spring-open")
    config: EventConfig
    players: tuple[Player, ...]
    rounds: tuple[Round, ...]
    description: str = ""  # event.md, untrusted Markdown
    lists: Mapping[str, str] = field(default_factory=_empty)  # player id -> Markdown list
    source: Source = Source("")
    teams: tuple[Team, ...] = ()  # the event's teams, in teams.csv (or first-seen) order
    team_rounds: tuple[TeamRound, ...] = ()  # teams-round-N.csv of a team-vs-team event

    @property
    def slug(self) -> str:
        return "/".join(self.path)

    def round_source(self, number: int) -> Source:
        """Return where round ``number``'s file is, as a proposal names it in messages:
        ``events/<path>/round-<number>.csv`` (the one place that spells it)."""
        return Source("/".join((EVENTS_ROOT, *self.path, f"round-{number}.csv")))

    @cached_property
    def player_by_id(self) -> Mapping[str, Player]:
        return MappingProxyType({p.id: p for p in self.players})


@dataclass(frozen=True)
class Season:
    """A folder with ``season.toml``: every event below it belongs to the season."""

    path: tuple[str, ...]
    name: str
    description: str = ""
    points: Mapping[str, Any] = field(default_factory=_empty)
    source: Source = Source("")
    language: str = ""  # its events' and its page's language; "" takes the site's


@dataclass(frozen=True)
class SiteConfig:
    """``site.toml`` at the events root (optional): the published site's title and address."""

    title: str = "Events"
    site_url: str = ""  # absolute http(s) address of the published site, ending in "/"
    publish: str = "full"  # every event's default of players.csv's ``publish`` column
    language: str = "en"  # the site's language (docs/site.md, "Languages")


@dataclass(frozen=True)
class Proposal:
    """The next round as a pairing rule proposes it (a Round whose games have no result)."""

    round: Round
    notes: tuple[str, ...] = ()  # shown on the round page: how the pairing was reached


@dataclass(frozen=True)
class EventsTree:
    """Everything under the events root."""

    root: str
    events: tuple[Event, ...]
    seasons: tuple[Season, ...] = ()
    warnings: tuple[Any, ...] = field(default=())
    site: SiteConfig = field(default_factory=SiteConfig)
