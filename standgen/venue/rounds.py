"""What the desk knows of events, entries and reports (round files are read and written
by :mod:`standgen.roundfile`, the loader's one reader and writer)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from standgen.formats.base import Format
from standgen.model import EventConfig


@dataclass(frozen=True)
class EventInfo:
    """One event folder as the desk lists it."""

    path: str  # slugs joined with "/"
    slugs: tuple[str, ...]
    folder: Path
    name: str
    fmt: Format | None  # None while event.toml cannot be read
    rounds: tuple[int, ...]
    files: tuple[Path, ...] = ()  # each round's file, as the loader found it
    config: EventConfig | None = None
    team_rounds: tuple[int, ...] = ()  # a team event's rounds with a teams-round-N.csv

    def round_file(self, number: int) -> Path:
        """Return round ``number``'s file (``round-3.CSV`` where it is spelt so)."""
        found = dict(zip(self.rounds, self.files, strict=False))
        return found.get(number, self.folder / f"round-{number}.csv")

    @property
    def desk_rounds(self) -> tuple[int, ...]:
        """Return the rounds the desk lists: each with a round file and, in a team event,
        each with its team pairings (a round file is made by its first match's games)."""
        return tuple(sorted({*self.rounds, *(self.team_rounds if self.team_matches else ())}))

    @property
    def team_matches(self) -> bool:
        """Return whether the event is a team-vs-team event (``[teams] matches``)."""
        return self.config is not None and self.config.teams.matches

    @property
    def two_player(self) -> bool:
        return self.fmt is not None and self.fmt.seats == 2 and self.config is not None

    def columns(self) -> list[str]:
        """Return the columns the desk may change: ``result`` and the stat columns."""
        assert self.fmt is not None
        return ["result"] + [f"{s.id}_{k}" for s in self.fmt.stats for k in (1, 2)]


@dataclass(frozen=True)
class Report:
    """One player's report of their table, bound to the table's row as it read then
    (``row``: :attr:`standgen.roundfile.RoundRow.tag`): a changed row drops it."""

    seat: int
    values: tuple[tuple[str, str], ...]
    client: str
    time: float = 0.0  # seconds since the epoch
    row: str = ""


@dataclass
class Outcome:
    """What became of an entry: ``status`` 200 when done (``changed`` says whether the file
    changed), otherwise the HTTP status and the problems (``fields``: the problem of each
    form field, in the TO's words)."""

    status: int = 200
    problems: list[str] = field(default_factory=list)
    changed: bool = False
    old: dict[str, str] = field(default_factory=dict)
    new: dict[str, str] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
