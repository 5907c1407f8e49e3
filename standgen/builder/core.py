"""The build: which events changed since the last build of the same output, and so
which build runs (full or incremental)."""

from __future__ import annotations

import os
import pickle
import sqlite3
import time
from pathlib import Path

from standgen import perf
from standgen.armylists import moments_key
from standgen.builder.full import full_build
from standgen.builder.incremental import incremental_build
from standgen.builder.record import Built, Progress
from standgen.buildstate import (
    VERSION,
    BuildState,
    EventPath,
    Stored,
    clean_new,
    folder_fingerprint,
    folder_signature,
    output_identity,
    state_file,
    tree_hash,
)
from standgen.clock import now
from standgen.errors import InputError
from standgen.load import Found, find_events
from standgen.load.files import display
from standgen.model import EventsTree
from standgen.output import (
    clean_stale,
    place_problems,
    recover,
    writing,
)
from standgen.site.renderer import SiteRenderer

INCREMENTAL_LIMIT = 8  # more changed event folders than this: a full (parallel) build


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
    track: bool = False,
) -> Built:
    """Build as :func:`build` does, for a caller that has checked the place of ``output``
    and holds its writing lock (``standgen watch`` holds it while it runs, and builds
    here into the folder it serves, as MkDocs' ``serve`` calls its ``build``).

    ``track`` fills :attr:`Built.changed` with the files written or removed; it renders
    in this process only (``jobs`` 1: no fork of a process running threads).
    """
    # this process keeps what it makes (every event's summary, for the pages above the
    # events): collections would walk it again and again while the workers need the CPU
    with perf.collector_paused():
        return _build(events, output, docs, templates, progress, full,
                      1 if track else jobs, track)


def _build(
    events: Path, output: Path, docs: Path, templates: Path,
    progress: Progress | None, full: bool, jobs: int | None, track: bool,
) -> Built:
    output = output.absolute()
    if output.parent.is_dir():  # what killed builds left: staging folders, a journal
        clean_stale(output.parent, output.name)
        clean_new(output)
        recover(output)
    found = find_events(events)
    key = _global_key(found, events, docs, templates)
    optimised = perf.enabled()
    renderer = SiteRenderer(EventsTree(root=display(events), events=(), seasons=found.seasons,
                                       site=found.site), docs, templates, fast=optimised)
    now = time.time_ns()
    signatures = {slugs: folder_signature(folder, now) if optimised else ""
                  for folder, slugs in found.folders}
    stored, stored_signatures = (_stored(output, key) if optimised and not full
                                 else (None, {}))
    # a folder whose files' signature is the last build's keeps its fingerprint unread
    prints = [stored[slugs].fingerprint
              if stored is not None and slugs in stored and signatures[slugs]
              and stored_signatures.get(slugs) == signatures[slugs]
              else folder_fingerprint(folder)
              for folder, slugs in found.folders]
    if stored is not None:
        changed = [k for k, (_, slugs) in enumerate(found.folders)
                   if slugs not in stored or stored[slugs].fingerprint != prints[k]]
        present = {slugs for _, slugs in found.folders}
        removed = [path for path in stored if path not in present]
        if len(changed) + len(removed) <= INCREMENTAL_LIMIT:
            return incremental_build(found, prints, stored, changed, removed, output, renderer,
                                key, progress, signatures)
    return full_build(found, prints, output, renderer, key, progress,
                 jobs if jobs is not None else (_cores() if optimised else 1), optimised,
                 signatures, track)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _global_key(found: Found, events: Path, docs: Path, templates: Path) -> str:
    """Return the key over everything an event's pages depend on besides its own folder."""
    import hashlib

    digest = hashlib.sha256(VERSION.encode())
    package = Path(__file__).resolve().parent.parent  # standgen/
    for part in (tree_hash(package, (".py",)), tree_hash(docs), tree_hash(templates)):
        digest.update(part.encode())
    # problems and seasons name files as the events folder was given (events/... or an
    # absolute path): a build spelling it differently starts afresh
    digest.update(repr((display(events), found.seasons, found.site)).encode())
    digest.update(os.environ.get("SOURCE_DATE_EPOCH", "").encode())
    # army lists shown from a set time (issue #32): every moment passed renders anew
    digest.update(moments_key((folder for folder, _ in found.folders), now()).encode())
    return digest.hexdigest()


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


