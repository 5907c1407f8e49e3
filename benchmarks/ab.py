"""Before and after: what a TO waits for, with two versions of standgen side by side.

``python -m benchmarks.ab BEFORE [AFTER] [--events N] [--actions enter,round] [--repeat 5]``

Each version (a git revision; AFTER defaults to ``HEAD``) is copied out with ``git
archive`` and run from its copy (``python -m standgen`` in that folder imports that
copy), on its own copy of the benchmark's N-event archive (``benchmarks.run``'s
``archive_dir``), built in full once. Then for each action (``benchmarks.run.ACTIONS``)
and each run, each version in turn undoes the action, builds, acts and builds again; the
CPU seconds (user + system, the whole process and its workers) of that last build are
its time. The versions alternate run by run, so the machine's load, which on a shared
machine changes from minute to minute, falls on both alike: read the ratio of the
medians.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchmarks.run import ACTIONS, PROJECT, _action, _archive_arg, _machine_env, archive_dir


def _copy_out(revision: str, into: Path) -> None:
    """Write the files of ``revision`` a build reads into ``into``."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", revision, "standgen", "site_templates", "docs",
                              "pyproject.toml"], cwd=PROJECT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def _cpu(run: Callable[[], object]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


class Version:
    """One version of standgen, its copy of the archive and its site."""

    def __init__(self, name: str, revision: str, work: Path, events: int | str) -> None:
        self.name = name
        self.code = work / name / "code"
        self.events = work / name / "events"
        self.output = work / name / "site"
        self.aside = work / name / "aside"
        # each its own standgen cache: the help pages' Markdown is keyed by the code that
        # converts it, so two versions sharing one would throw each other's away
        self.cache = work / name / "cache"
        _copy_out(revision, self.code)
        shutil.copytree(archive_dir(events), self.events)
        self.aside.mkdir()

    def build(self) -> None:
        subprocess.run([sys.executable, "-m", "standgen", "build", str(self.events), "-o",
                        str(self.output)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL,
                       env={**_machine_env(None), "STANDGEN_CACHE": str(self.cache)},
                       cwd=self.code)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after", nargs="?", default="HEAD")
    parser.add_argument("--events", type=_archive_arg, default=100,
                        help="N events, or club-N: a club archive (benchmarks.run.CLUB)")
    parser.add_argument("--actions", default="enter,correct,round")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    actions = args.actions.split(",")
    unknown = [a for a in actions if a not in ACTIONS]
    if unknown:
        parser.error(f"unknown action {unknown[0]!r}; one of {', '.join(ACTIONS)}")
    with tempfile.TemporaryDirectory(prefix="standgen-ab-") as folder:
        work = Path(folder)
        versions = [Version("before", args.before, work, args.events),
                    Version("after", args.after, work, args.events)]
        for version in versions:
            print(f"{version.name}: full build {_cpu(version.build):.1f} CPU s", flush=True)
        for action in actions:
            times: dict[str, list[float]] = {v.name: [] for v in versions}
            moves = {v.name: _action(v.events, action, v.aside) for v in versions}
            for _ in range(args.repeat):
                for version in versions:
                    undo, do = moves[version.name]
                    undo()
                    version.build()
                    do()
                    times[version.name].append(_cpu(version.build))
            for version in versions:
                undo, _do = moves[version.name]
                if action.startswith("correct"):
                    undo()
                    version.build()
                found = times[version.name]
                print(f"{args.events} events, {ACTIONS[action]}: {version.name} "
                      f"median {statistics.median(found):.2f} CPU s (min {min(found):.2f}, "
                      f"max {max(found):.2f}, {len(found)} runs)", flush=True)


if __name__ == "__main__":
    main()
