"""The command line: a thin layer over ``standgen.build`` (data contract section 2).

Exit codes: 0 ok, 1 internal error (a bug), 2 bad input (a clear message, nothing written).
"""

from __future__ import annotations

import errno
import os
import sqlite3
import sys
import time
import traceback
from collections.abc import Callable
from functools import partial, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from standgen import dataclass_code, perf
from standgen.errors import InputError, Problem

if TYPE_CHECKING:
    from standgen import build as lib
    from standgen import eventday as day
else:  # start-up imports only what the command uses: `standgen --help` loads no rules
    class _Later:
        """A module imported (by ``load``) when a command first reads one of its names."""

        def __init__(self, load: Callable[[], Any]) -> None:
            self._load = load
            self._module: Any = None

        def __getattr__(self, attr: str) -> Any:
            if self._module is None:  # the first read: the command's start-up imports
                with perf.start_up():
                    self._module = self._load()
            return getattr(self._module, attr)

    def _lib() -> Any:
        from standgen import build

        return build

    def _day() -> Any:
        from standgen import eventday

        return eventday

    lib, day = _Later(_lib), _Later(_day)

F = TypeVar("F", bound=Callable[..., Any])


def _report(problems: tuple[Problem, ...] | list[Problem]) -> int:
    """Print every problem in one stable order (file, line, message), each notice only the
    first time it is met (:mod:`standgen.notices`); return how many were printed."""
    from standgen.notices import first_seen

    shown = first_seen(problems)
    for problem in shown:
        click.echo(str(problem), err=True)
    return len(shown)


def _guarded(func: F) -> F:
    """Turn InputError into exit 2 with every problem, and a bug into exit 1."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except InputError as exc:
            _report(exc.problems)
            errors = sum(1 for p in exc.problems if not p.warning)
            writes = click.get_current_context().info_name != "check"
            click.echo(f"{errors} problem(s) found" + ("; nothing was written." if writes
                                                        else "; fix them and check again."),
                       err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            sys.exit(130)
        except (OSError, sqlite3.Error) as exc:  # the machine, not the files or standgen
            click.echo(f"standgen: {environment_message(exc)}", err=True)
            sys.exit(2)
        except Exception:  # a bug: say so plainly, keep the traceback for the report
            click.echo("standgen: internal error (a bug, not your files). Please report it "
                       "with this output:", err=True)
            click.echo(traceback.format_exc(), err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


_HINTS = {
    errno.ENOSPC: "the disk is full; free some space and run the command again",
    errno.EDQUOT: "the disk quota is used up; free some space and run the command again",
    errno.EROFS: "the file system is read-only; choose a writable folder (-o for the site)",
    errno.EACCES: "permission denied; check the folder's permissions or choose another "
                  "folder (-o for the site)",
    errno.EPERM: "the system does not permit it (an immutable or protected file?); check the "
                 "folder or choose another (-o for the site)",
    errno.EFBIG: "a file is over the system's size limit (ulimit -f); raise the limit",
    errno.EMFILE: "too many open files; raise the limit (ulimit -n) and run it again",
    errno.EIO: "an input/output error; is the disk failing or was it removed?",
    errno.ENOENT: "a file or folder vanished while standgen worked; run the command again",
}


def environment_message(exc: OSError | sqlite3.Error) -> str:
    """Return one line saying what the machine refused and what to do (issue #15 item 8)."""
    if isinstance(exc, sqlite3.Error):
        text = str(exc)
        hint = ("the disk is full; free some space and run it again" if "full" in text
                else "the build state next to the site folder cannot be written: is the "
                     "disk full, a size limit (ulimit -f) reached or the folder read-only? "
                     "Fix that, or delete the .standgen-state file, and run it again")
        return f"the build state: {text}: {hint}"
    where = os.fsdecode(exc.filename) if exc.filename is not None else "a file"
    hint = _HINTS.get(exc.errno or 0, "check the file and the disk, then run it again")
    return f"{where}: {exc.strerror or exc}: {hint}"


class _BuildProgress:
    """A rich progress bar for builds taking over a second; only on a terminal, not in CI."""

    DELAY = 1.0

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty() and not os.environ.get("CI")
        self.started = time.monotonic()
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> _BuildProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled or time.monotonic() - self.started < self.DELAY:
            return
        if self.bar is None:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self.bar = Progress(TextColumn("{task.description:<10}"), BarColumn(),
                                MofNCompleteColumn(), transient=True,
                                console=_rich_console())
            self.bar.start()
            self.task = self.bar.add_task(stage, total=total)
        labels = {"events": "events", "pages": "pages", "writing": "writing",
                  "done": "done"}
        self.bar.update(self.task, description=labels.get(stage, stage), completed=done,
                        total=total)


def _rich_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


@click.group()
@click.version_option(package_name="standgen")
def main() -> None:
    """standgen: tournament results in, a static site of standings and pairings out."""
    dataclass_code.install()  # before a command imports its modules: start-up


@main.command()
@click.argument("events", default="events", type=click.Path(path_type=Path))
@click.option("-o", "--output", default="output", type=click.Path(path_type=Path),
              help="Folder the site is written to (replaced whole).")
@click.option("--full", is_flag=True,
              help="Render every page, ignoring what the last build of OUTPUT left.")
@click.option("--now", "at", default=None, metavar="DATETIME", callback=lambda _c, _p, v: _now(v),
              help="Build as at this ISO date and time (army lists' lists_public); "
                   "default: SOURCE_DATE_EPOCH, else the clock.")
@_guarded
def build(events: Path, output: Path, full: bool, at: str | None) -> None:
    """Validate EVENTS, compute standings and pairings, and render the site."""
    with _BuildProgress() as progress:
        built = lib.build(events, output, progress, full=full)
    _report(list(built.warnings))
    how = (f" (incremental: {built.rebuilt} event(s) rendered, {built.written} file(s) "
           "changed)" if built.incremental else "")
    click.echo(f"Built {built.events} event(s) into {output}/{how}")


def _now(value: str | None) -> str | None:
    """Check ``--now`` and fix the build's time to it (:mod:`standgen.clock`: read from
    the environment, so the build's worker processes see it too)."""
    from standgen import clock

    if value is None:
        return None
    moment = clock.parse_moment(value)
    if moment is None:
        raise click.BadParameter(f"'{value}' is not an ISO date and time, such as "
                                 "2026-04-18T09:00:00+01:00")
    os.environ[clock.ENV] = moment.isoformat()
    return value


@main.command()
@click.argument("events", default="events", type=click.Path(path_type=Path))
@_guarded
def check(events: Path) -> None:
    """Validate EVENTS only; print every problem as path:line: message."""
    tree = lib.check(events)
    shown = _report(list(tree.warnings))
    said = (f"no errors, {shown} warning(s) above" if shown else "no problems")
    click.echo(f"{len(tree.events)} event(s) checked: {said}.")


@main.command()
@click.argument("event_dir", type=click.Path(path_type=Path))
@click.option("--events", "events_root", default=None, type=click.Path(path_type=Path),
              help="The events root (default: the folder named events above EVENT_DIR); "
                   "the seed default is derived from the path below it.")
@click.option("--force", is_flag=True,
              help="Pair although the last round has games without results, or re-pair a "
                   "round that has no results yet.")
@click.option("--redo", type=click.IntRange(1), default=None, metavar="N",
              help="Pair round N again (the last round file, before any result is entered), "
                   "with whoever joined, dropped or asked for a bye since.")
@click.option("--explain", is_flag=True,
              help="Also print how the pairing was reached (score groups, byes, the rule).")
@_guarded
def pair(event_dir: Path, events_root: Path | None, force: bool, redo: int | None,
         explain: bool) -> None:
    """Write the next round-N.csv of EVENT_DIR with pairings and empty results, and print
    what the TO reads out."""
    paired = day.pair(event_dir, events_root, force, redo)
    for line in paired.said or day.announce(paired.event, paired.round):
        click.echo(line)
    for note in paired.notes:
        if explain or note.startswith("Hint:"):
            click.echo(note)
    click.echo(f"Wrote {paired.path}")


@main.command()
@click.argument("event_dir", type=click.Path(path_type=Path))
@click.argument("player")
@click.option("--round", "round_number", type=click.IntRange(1), required=True,
              help="The round the player asks not to be paired in.")
@_guarded
def bye(event_dir: Path, player: str, round_number: int) -> None:
    """Record that PLAYER (an id, or a name only one player has) asks for a bye in a round
    (players.csv 'byes'): the pairing leaves them out and gives the format's requested bye
    (chess: half a point)."""
    path, said = day.request_bye(event_dir, player, round_number)
    click.echo(f"{player} asks for a bye in round {round_number}; wrote {path}")
    for line in said:
        click.echo(line)


@main.command()
@click.argument("event_dir", type=click.Path(path_type=Path))
@click.argument("player")
@click.option("--after", type=click.IntRange(0), default=None, metavar="N",
              help="The last round the player played (default: their last round with a "
                   "result).")
@click.option("--events", "events_root", default=None, type=click.Path(path_type=Path),
              help="The events root (default: the folder named events above EVENT_DIR).")
@_guarded
def drop(event_dir: Path, player: str, after: int | None, events_root: Path | None) -> None:
    """Drop PLAYER (an id, or a name only one player has) from the event (players.csv
    'dropped_after'): not paired again."""
    path, last, said = day.drop_player(event_dir, events_root, player, after)
    when = f"after round {last}" if last else "before round 1 (dropped_after 0)"
    click.echo(f"{player} dropped {when}; wrote {path}")
    for line in said:
        click.echo(line)


@main.command()
@click.argument("player")
@click.option("--events", "events_root", default="events", show_default=True,
              type=click.Path(path_type=Path), help="The events root.")
@_guarded
def forget(player: str, events_root: Path) -> None:
    """Remove PLAYER (an id, or a name only one id has) from every event: a new anonymous
    id everywhere, name and club gone, nothing of them published (docs/privacy.md)."""
    from standgen import forget as forgetting

    for line in forgetting.report_lines(forgetting.forget(events_root, player)):
        click.echo(line)


@main.command()
@click.argument("event_dir", default="events", type=click.Path(path_type=Path))
@click.option("--events", "events_root", default=None, type=click.Path(path_type=Path),
              help="The events root (default: the folder named events above EVENT_DIR).")
@_guarded
def status(event_dir: Path, events_root: Path | None) -> None:
    """List the tables of the current round that have no result yet (of every event, given
    the events root)."""
    for line in day.status(event_dir, events_root):
        click.echo(line)


@main.command()
@click.argument("events", default="events", type=click.Path(path_type=Path))
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port on 127.0.0.1 to serve on (0 picks a free one).")
@click.option("-o", "--output", default=None, type=click.Path(path_type=Path),
              help="Folder the site is written to (default: a temporary folder).")
@click.option("--open", "open_browser", is_flag=True, help="Open the site in a web browser.")
@click.option("--venue", metavar="ADDRESS", default=None,
              help="Serve on ADDRESS (0.0.0.0: every network of this computer; 127.0.0.1 to "
                   "try it) and add the results desk; see docs/venue.md.")
@click.option("--self-report", is_flag=True,
              help="With --venue: players report results with their table's code.")
@_guarded
def watch(events: Path, port: int, output: Path | None, open_browser: bool,
          venue: str | None, self_report: bool) -> None:
    """Serve the site on 127.0.0.1, rebuild on every change and reload open pages."""
    from standgen.watch import HOST, Attachment, ServeError, Watch, serve

    if self_report and venue is None:
        click.echo("standgen watch: --self-report needs --venue ADDRESS", err=True)
        sys.exit(2)
    attach: Callable[[Watch], Attachment] | None = None
    if venue is not None:  # the results desk, served beside the site
        from standgen.venue import Desk, check_address

        wrong = check_address(venue)
        if wrong:
            click.echo(f"standgen watch: {wrong}", err=True)
            sys.exit(2)
        attach = partial(Desk, self_report=self_report)
    try:
        serve(lib.tree_root(events), port, output, open_browser,
              log=lambda line: click.echo(line, err=True), say=click.echo,
              host=venue or HOST, attach=attach)
    except ServeError as exc:
        click.echo(f"standgen watch: {exc}", err=True)
        sys.exit(2)


@main.command()
@click.argument("event_dir", type=click.Path(path_type=Path))
@click.option("--format", "format_id", required=True, help="steamroller, old-world, mcmahon, "
              "swiss or diplomacy")
@click.option("--name", default=None, help="The event's title (default: from the folder name).")
@_guarded
def new(event_dir: Path, format_id: str, name: str | None) -> None:
    """Scaffold an event folder: event.toml, players.csv, event.md."""
    for path in lib.new_event(event_dir, format_id, name):
        click.echo(f"Wrote {path}")
    folder = event_dir.as_posix()
    click.echo(f"Next: fill in event.toml and players.csv (one row per player), then run "
               f"standgen check {folder} and standgen pair {folder}")


@main.command()
@click.argument("events", default="events", type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path),
              help="The file to write: .xlsx (a sheet a table), .csv or .parquet (the games "
                   "in it, the other tables beside it).")
@_guarded
def export(events: Path, output: Path) -> None:
    """Export every game, the standings, ratings and the meta of EVENTS for a spreadsheet."""
    for path in lib.export_club(lib.tree_root(events), output):
        click.echo(f"Wrote {path}")


@main.command("import-trf")
@click.argument("trf_file", type=click.Path(path_type=Path))
@click.argument("event_dir", type=click.Path(path_type=Path))
@click.option("--events", "events_root", default="events", type=click.Path(path_type=Path),
              help="The events root (the seed default is derived from the path below it).")
@_guarded
def import_trf(trf_file: Path, event_dir: Path, events_root: Path) -> None:
    """Write a swiss event folder EVENT_DIR from a FIDE TRF16 file."""
    imported = lib.import_trf(trf_file, event_dir, events_root)
    _report(list(imported.warnings))
    for path in imported.files:
        click.echo(f"Wrote {path}")
