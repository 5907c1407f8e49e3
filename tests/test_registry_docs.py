"""The data contract's registry tables agree with the registries (issue #16).

docs/data-contract.md is what TOs and other people's scripts read; its lists of formats,
of bounded options and of commands are kept by hand for their wording, and checked here
against :data:`standgen.formats.FORMATS`, each :class:`standgen.formats.base.Option`'s
``bounds`` (and Diplomacy's), and the CLI's commands, so none can drift. (The tiebreak
ids table is checked against :data:`standgen.tiebreaks.TIEBREAKS` beside the tiebreaks.)
"""

from __future__ import annotations

import re
from pathlib import Path

from standgen.cli import main
from standgen.formats import FORMATS
from standgen.formats.base import EVERY_FORMAT_OPTIONS

CONTRACT = Path(__file__).resolve().parent.parent / "docs" / "data-contract.md"
# how the ranges table names each format's [options]
LABELS = {"mcmahon": "McMahon", "old-world": "Old World", "swiss": "Swiss",
          "diplomacy": "Diplomacy", "steamroller": "Steamroller", "": "every format's"}


def table_rows(heading: str) -> list[list[str]]:
    """Return the cells of the first table under ``heading`` in the data contract."""
    text = CONTRACT.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n")
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[2:]  # past the header and its rule


def test_the_format_row_lists_every_registered_format() -> None:
    (row,) = [r for r in table_rows("## event.toml") if r[0] == "`format`"]
    assert re.findall(r"`([a-z-]+)`", row[2]) == list(FORMATS)


def test_every_bounded_option_has_its_range_documented() -> None:
    rows = table_rows("## Values: ranges and limits")
    documented = {(r[0].split(" `[options]`")[0], key)
                  for r in rows if "`[options]`" in r[0]
                  for key in re.findall(r"`([a-z_]+)`", r[1].split(":")[0])}
    bounded = {(LABELS[f.id], o.key) for f in FORMATS.values() for o in f.options if o.bounds}
    bounded |= {(LABELS[""], o.key) for o in EVERY_FORMAT_OPTIONS if o.bounds}
    assert bounded - documented == set()
    assert {label for label, _ in documented} <= set(LABELS.values())


def test_every_command_is_in_the_commands_table() -> None:
    rows = table_rows("## Commands")
    documented = {re.match(r"`standgen ([a-z-]+)", r[0]).group(1)  # type: ignore[union-attr]
                  for r in rows}
    assert documented == set(main.commands)
