"""Problems found in the input: values with a path, a line and a message."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, as ``path:line: message``.

    ``line`` is 1-based; a problem with a whole file (missing, unreadable) uses line 1.
    ``warning`` problems are printed but do not stop a build. A ``notice`` is a warning
    that asks nothing of the TO (a spreadsheet's byte-order mark, its ``;`` separators):
    the commands show it the first time a file is seen in that form, and the public
    problem box of ``watch`` never shows it (issue #27 item 3).
    """

    path: str
    line: int
    message: str
    warning: bool = False
    notice: bool = False

    def __str__(self) -> str:
        prefix = "warning: " if self.warning else ""
        return f"{self.path}:{self.line}: {prefix}{self.message}"


class InputError(Exception):
    """Raised with every problem found, so a TO sees all of them in one run."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(sorted(set(problems), key=_order))
        super().__init__("\n".join(str(p) for p in self.problems))


def _order(problem: Problem) -> tuple[str, int, str]:
    return (problem.path, problem.line, problem.message)


def errors_only(problems: Iterable[Problem]) -> list[Problem]:
    """Return the problems that stop a build (everything but warnings)."""
    return [p for p in problems if not p.warning]
