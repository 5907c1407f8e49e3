from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis's per-example deadline is a timing test, and timings belong in benchmarks/:
# on a loaded machine it failed tests whose results were right (test_clubs, test_render,
# test_gotha_pairing). The properties are checked the same without it.
settings.register_profile("standgen", deadline=None)
settings.load_profile("standgen")

EVENT_TOML = 'name = "Test"\ndate = 2026-03-14\nformat = "steamroller"\n'
PLAYERS = "id,name,faction\na,Ann,Cygnar\nb,Bob,Khador\nc,Cat,Cryx\nd,Dan,Legion\n"
ROUND_HEADER = "table,player_1,player_2,result,cp_1,cp_2,apd_1,apd_2\n"
ROUND_1 = ROUND_HEADER + "1,a,b,1-0,3,1,40,20\n2,c,d,0-1,0,2,10,30\n"

Files = Mapping[str, str | bytes]


@pytest.fixture(autouse=True, scope="session")
def _help_markdown_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep the help pages' Markdown cache (site/markdown.py HtmlCache) out of ~/.cache."""
    import os

    os.environ["STANDGEN_CACHE"] = str(tmp_path_factory.mktemp("standgen-cache"))


@pytest.fixture
def tree(tmp_path: Path) -> Callable[[Files], Path]:
    """Return a function writing ``events/<path>`` files and returning the events root.

    Keys are paths below ``events/``; the default event ``ev`` is a valid 4-player
    Steamroller event with round 1 played, and each key replaces or adds a file.
    """

    def make(files: Files, base: bool = True) -> Path:
        root = tmp_path / "events"
        defaults: dict[str, str | bytes] = {
            "ev/event.toml": EVENT_TOML, "ev/players.csv": PLAYERS, "ev/round-1.csv": ROUND_1,
        } if base else {}
        for rel, content in {**defaults, **files}.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if content is None:
                continue
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        return root

    return make
