"""The build: which events changed since the last build of the same output, and so
which build runs (full or incremental)."""

from __future__ import annotations

import os
import pickle
import shutil
import sqlite3
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

from standgen import perf
from standgen.armylists import moments_key
from standgen.builder.keycache import KeyCache
from standgen.builder.record import Built, Progress, invalidate, save
from standgen.builder.run import Run, Scope
from standgen.builder.scopes import Events, build_scopes
from standgen.builder.writers import Changes, StagingWriter
from standgen.buildstate import (
    VERSION,
    BuildState,
    EventPath,
    Stored,
    clean_new,
    folder_fingerprint,
    folder_signature,
    iter_files,
    output_identity,
    state_file,
    tree_hash,
)
from standgen.clock import now
from standgen.errors import InputError, Problem
from standgen.load import Found, find_events
from standgen.load.files import display
from standgen.load.inputs import EVENT_TOML, Entry
from standgen.memo import Memo
from standgen.model import EventsTree
from standgen.output import (
    clean_stale,
    exchange_into,
    place_problems,
    recover,
    writing,
)
from standgen.site.markdown import cache_folder
from standgen.site.renderer import SiteRenderer

Early = Callable[[Sequence[str]], None]  # told the files in place, after each early commit
INCREMENTAL_LIMIT = 8  # more changed event folders than this: a full (parallel) build
REMOVE_LATER = 4096  # files: a full build's old site this large is removed in the background


def build(
    events: Path, output: Path, docs: Path, templates: Path,
    progress: Progress | None = None, full: bool = False, jobs: int | None = None,
) -> Built:
    """Build the site of ``events`` into ``output``; raise InputError (nothing written) on
    any problem. ``full`` ignores the build state; ``jobs`` caps the worker processes."""
    refused = place_problems(output, (events, docs, templates))
    if refused:
        raise InputError(refused)
    with writing(output):
        return build_held(events, output, docs, templates, progress, full, jobs)


def build_held(
    events: Path, output: Path, docs: Path, templates: Path,
    progress: Progress | None = None, full: bool = False, jobs: int | None = None,
    track: bool = False, first: Early | None = None, touched: Collection[Path] = (),
) -> Built:
    """Build as :func:`build` does, for a caller that has checked the place of ``output``
    and holds its writing lock (``standgen watch`` holds it while it runs, and builds
    here into the folder it serves, as MkDocs' ``serve`` calls its ``build``).

    ``track`` fills :attr:`Built.changed` with the files written or removed; it renders
    in this process only (``jobs`` 1: no fork of a process running threads).

    ``first``: an incremental build puts the changed events' own pages (their standings,
    rounds, players) in place as soon as they are made, then calls ``first`` with the
    files in place so far, and makes the pages above events (seasons, histories, the
    club's) after. Before the events' other pages, it puts in place (and tells
    ``first``) the page and ``pairings.json`` of the rounds written and the event's
    ``standings.json``: the rounds whose files are among ``touched`` (the input files
    the caller saw change: the desk's write), else each changed event's newest. Bad
    input is still found before anything is written; only a failure after that point
    (a bug, a full disk) leaves the events' new pages with the others' old ones, and the
    build state stale, so the next build is a full one. ``standgen watch`` uses it to
    serve a result typed in at the desk before the club's pages are made again.
    """
    # this process keeps what it makes (every event's summary, for the pages above the
    # events): collections would walk it again and again while the workers need the CPU
    with perf.collector_paused():
        return _build(events, output, docs, templates, progress, full,
                      1 if track else jobs, track, first, touched)


def _build(
    events: Path, output: Path, docs: Path, templates: Path,
    progress: Progress | None, full: bool, jobs: int | None, track: bool,
    first: Early | None = None, touched: Collection[Path] = (),
) -> Built:
    output = output.absolute()
    if output.parent.is_dir():  # what killed builds left: staging folders, a journal
        clean_stale(output.parent, output.name)
        clean_new(output)
        recover(output)
    found = find_events(events)
    optimised = perf.enabled()
    key = _global_key(found, events, docs, templates)
    renderer = SiteRenderer(EventsTree(root=display(events), events=(), seasons=found.seasons,
                                       site=found.site), docs, templates, fast=optimised)
    now = time.time_ns()
    listed = _listed(found)
    signatures = {slugs: "" if not optimised else
                  folder_signature(folder, now, None if listed is None else listed[k])
                  for k, (folder, slugs) in enumerate(found.folders)}
    stored, stored_signatures = (_stored(output, key) if optimised and not full
                                 else (None, {}))
    prints = _fingerprints(found, stored or {}, signatures, stored_signatures)
    jobs = jobs if jobs is not None else (_cores() if optimised else 1)
    if stored is not None:
        changed = [k for k, (_, slugs) in enumerate(found.folders)
                   if slugs not in stored or stored[slugs].fingerprint != prints[k]]
        present = {slugs for _, slugs in found.folders}
        removed = [path for path in stored if path not in present]
        if len(changed) + len(removed) <= INCREMENTAL_LIMIT:
            run = Run(found, prints, renderer, Changes(output), progress, jobs, whole=False,
                      stored=stored, changed=changed, removed=removed,
                      touched=frozenset(path.absolute() for path in touched))
            return _update(run, output, key, signatures, first)
    return _whole(found, prints, output, renderer, key, progress, jobs, optimised,
                  signatures, track)


def _whole(
    found: Found, prints: Sequence[str], output: Path, renderer: SiteRenderer, key: str,
    progress: Progress | None, jobs: int, optimised: bool, signatures: Mapping[EventPath, str],
    track: bool,
) -> Built:
    """The full build: every scope made whole into a staging folder swapped in whole
    (unchanged files hard-linked from the old site, so they keep their modification
    time); any problem anywhere leaves ``output`` untouched."""
    parent = output.parent
    parent.mkdir(parents=True, exist_ok=True)
    clean_stale(parent, output.name)
    staging = parent / f".{output.name}.tmp-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    writer = StagingWriter(staging, output if output.is_dir() and optimised else None, track)
    run = Run(found, prints, renderer, writer, progress, jobs, whole=True, optimised=optimised)
    try:
        build_scopes(run)
        run.tell("writing", 0, 1)
        if track and output.is_dir():  # the files the new site no longer has
            writer.changed.extend(rel for rel in iter_files(output) if rel not in writer.seen)
        invalidate(output)
        removed = exchange_into(staging, output,
                                background=optimised and writer.files >= REMOVE_LATER)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    after: list[Problem] = []
    if not removed:
        after.append(Problem(display(output), 1, "the new site is in place, but the old one "
                             f"could not be deleted from {display(output.parent)}; the next "
                             "build deletes it", warning=True))
    if optimised:
        after += save(output, key, run.saved, (), full=True, signatures=signatures,
                      games=run.games, club=run.club, kept=run.kept)
    run.tell("done", 1, 1)
    warnings = tuple(p for p in run.problems if p.warning) + tuple(after)
    count = len(run.summaries)
    return Built(count, warnings, False, count, writer.written, tuple(sorted(writer.changed)))


def _update(run: Run, output: Path, key: str, signatures: Mapping[EventPath, str],
            first: Early | None = None) -> Built:
    """The incremental build: every scope updated from the build state, the changed
    files replaced through a journal (a page is always whole, and a build killed
    half-way is finished or undone by the next); with ``first``, the events' own pages
    in a first part (:func:`build_held`)."""
    writer = run.writer
    assert isinstance(writer, Changes)
    state = run.state = BuildState.open(state_file(output))

    def early() -> None:
        if first is not None:
            state.invalidate()  # the site is about to change: stale until saved
            writer.commit()
            first(writer.changed())

    def updated(scope: Scope) -> None:
        if isinstance(scope, Events):
            early()

    run.updated = updated
    run.early = early if first is not None else None
    try:
        build_scopes(run)
        state.invalidate()  # the site is about to change: stale until saved
    finally:
        state.close()
    writer.commit()
    after = save(output, key, run.saved, run.removed, full=False, signatures=signatures,
                 games=run.games, club=run.club, kept=run.kept)
    run.tell("done", 1, 1)
    warnings = tuple(p for p in run.problems if p.warning) + tuple(after)
    return Built(len(run.found.folders), warnings, True, len(run.saved), writer.count,
                 writer.changed())


def _fingerprints(
    found: Found, stored: Mapping[EventPath, Stored], signatures: Mapping[EventPath, str],
    stored_signatures: Mapping[EventPath, str],
) -> list[str]:
    """Return each event folder's fingerprint: a folder whose files' signature is the
    last build's keeps the fingerprint the state has, unread."""
    return [stored[slugs].fingerprint
            if slugs in stored and signatures[slugs]
            and stored_signatures.get(slugs) == signatures[slugs]
            else folder_fingerprint(folder)
            for folder, slugs in found.folders]


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _global_key(found: Found, events: Path, docs: Path, templates: Path) -> str:
    """Return the key over everything an event's pages depend on besides its own folder."""
    import hashlib

    digest = hashlib.sha256(VERSION.encode())
    kept = KeyCache.open(cache_folder() if perf.enabled() else None)
    for part in (code_hash(kept), kept.tree_hash(docs), kept.tree_hash(templates)):
        digest.update(part.encode())
    # problems and seasons name files as the events folder was given (events/... or an
    # absolute path): a build spelling it differently starts afresh
    digest.update(repr((display(events), found.seasons, found.site)).encode())
    digest.update(os.environ.get("SOURCE_DATE_EPOCH", "").encode())
    # army lists shown from a set time (issue #32): every moment passed renders anew
    digest.update(_moments(found, kept).encode())
    kept.save()
    return digest.hexdigest()


def _moments(found: Found, kept: KeyCache) -> str:
    """Return the army lists' moments passed (:func:`moments_key`), reading no
    ``event.toml`` that ``kept`` knows does not mention them."""
    listed = _listed(found)
    folders = (folder for folder, _ in found.folders)
    if listed is None:
        return moments_key(folders, now())
    marks: dict[Path, Entry] = {}
    tomls: list[list[Path]] = []
    for entries in listed:
        tomls.append([])
        for entry in entries:
            if entry.name.lower() == EVENT_TOML and not kept.quiet(entry.where, entry.st):
                marks[entry.path] = entry
                tomls[-1].append(entry.path)
    return moments_key(
        folders, now(), tomls,
        heard=lambda path, said: kept.heard(marks[path].where, marks[path].st, said))


def _listed(found: Found) -> Sequence[Sequence[Entry]] | None:
    """Return each event folder's own entries as the walk listed them (optimised), else
    None: each folder is listed again where it is read."""
    if perf.enabled() and len(found.listed) == len(found.folders):
        return found.listed
    return None


def code_hash(trees: KeyCache | None = None) -> str:
    """Return the hash of standgen's code (its ``.py`` files), once per process when
    optimised: the code a process runs is the code it loaded, and ``standgen watch``
    builds again and again in one process (40 ms a build, before a desk's result shows).
    ``trees``: the hashes kept between processes (:class:`KeyCache`)."""
    if not perf.enabled():
        return tree_hash(_CODE, (".py",))
    return _CODE_HASH.get(_CODE, lambda: (trees or KeyCache(None)).tree_hash(_CODE, (".py",)))


_CODE = Path(__file__).resolve().parent.parent  # standgen/
_CODE_HASH: Memo[Path, str] = Memo(1)  # the code this process runs: hashed once


def _stored(output: Path, key: str
            ) -> tuple[dict[EventPath, Stored] | None, dict[EventPath, str]]:
    """Return the stored events and folder signatures when the state describes this
    output and key, else (None, {})."""
    path = state_file(output)
    if not path.is_file() or not output.is_dir():
        return None, {}
    try:
        state = BuildState.open(path)
        try:
            if (state.meta("version") != VERSION or state.meta("key") != key
                    or state.meta("output") != output_identity(output)):
                return None, {}
            return state.events(), state.signatures()
        finally:
            state.close()
    except (sqlite3.Error, OSError, pickle.UnpicklingError, EOFError):
        return None, {}  # a damaged state file: a full build writes a new one


