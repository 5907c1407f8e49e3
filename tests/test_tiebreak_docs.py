"""The docs' tiebreak tables list exactly the registered tiebreaks.

Adding a tiebreak is its module, one line in ``standgen.tiebreaks.TIEBREAKS`` and its
help page in ``docs/tiebreaks/``: these tests fail until the help page exists and the
tables that list tiebreak ids (docs/tiebreaks/index.md, the data contract's "Tiebreak
ids") name it, and when a table names an id the registry does not know.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from standgen.tiebreaks import TIEBREAKS

DOCS = Path(__file__).resolve().parent.parent / "docs"
# a table cell's link to a help page: [`sos`](tiebreaks/sos.md) or [Score](score.md)
LINK = re.compile(r"\[([^\]]*)\]\(((?:tiebreaks/)?([a-z0-9-]+)\.md)\)")


def table_rows(text: str) -> list[list[str]]:
    """Return the cells of every table row of a Markdown text (header and rule left out)."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if all(set(cell) <= {"-", ":"} for cell in cells) or cells[0] in ("id", "key"):
            continue
        rows.append(cells)
    return rows


def section(text: str, heading: str) -> str:
    """Return the text under a ``## heading`` up to the next heading of that level."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def test_every_registered_tiebreak_has_its_help_page() -> None:
    missing = [tb.id for tb in TIEBREAKS.values()
               if not (DOCS / "tiebreaks" / f"{tb.page}.md").is_file()]
    assert not missing, f"no help page in docs/tiebreaks/ for {missing}"


def test_the_tiebreak_index_lists_the_registry() -> None:
    """docs/tiebreaks/index.md: one row per registered tiebreak, in registry order, its
    id in the first cell and a link to its help page in the second."""
    rows = table_rows((DOCS / "tiebreaks" / "index.md").read_text(encoding="utf-8"))
    ids = [row[0].strip("`") for row in rows]
    assert ids == list(TIEBREAKS)
    for row, tb in zip(rows, TIEBREAKS.values(), strict=True):
        pages = [m.group(3) for m in LINK.finditer(row[1])]
        assert pages == [tb.page], f"{tb.id}: links to {pages}, help page is {tb.page}.md"


@pytest.mark.parametrize("doc", ["data-contract.md"])
def test_the_data_contract_lists_the_registry(doc: str) -> None:
    """The data contract's "Tiebreak ids" table names every registered id once, each
    linked to its help page, and no other id."""
    rows = table_rows(section((DOCS / doc).read_text(encoding="utf-8"), "Tiebreak ids"))
    named: list[str] = []
    for row in rows:
        for match in LINK.finditer(row[0]):
            tb_id = match.group(1).strip("`")
            named.append(tb_id)
            assert tb_id not in TIEBREAKS or match.group(3) == TIEBREAKS[tb_id].page, tb_id
    assert sorted(named) == sorted(TIEBREAKS), "ids named in the table vs the registry"
    assert len(named) == len(set(named))
