"""The help pages' Markdown cache: a hit gives the bytes a conversion gives, a bad cache
file is ignored, and ``STANDGEN_CACHE=off`` turns it off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from standgen.site.markdown import HtmlCache, MarkdownRenderer

TEXT = "# Title\n\nSee [pairing](pairing.md).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"


def same(link: str) -> str:
    return link


def test_a_cached_conversion_equals_a_fresh_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STANDGEN_CACHE", str(tmp_path))
    first = MarkdownRenderer()
    fresh = first.help_page(TEXT, same)
    first.save_cache()
    stored = json.loads((tmp_path / "help-markdown.json").read_text())
    assert len(stored) == 1
    again = MarkdownRenderer()
    assert again.help_page(TEXT, same) == fresh
    assert again._md is None  # read from the cache: Python-Markdown never ran
    assert "<table>" in fresh and 'href="pairing.md"' in fresh


def test_a_changed_text_is_converted_again_and_old_entries_are_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STANDGEN_CACHE", str(tmp_path))
    first = MarkdownRenderer()
    first.help_page(TEXT, same)
    first.save_cache()
    second = MarkdownRenderer()
    html = second.help_page(TEXT + "\nMore.\n", same)
    assert second._md is not None
    assert "<p>More.</p>" in html
    second.save_cache()
    assert len(json.loads((tmp_path / "help-markdown.json").read_text())) == 1


@pytest.mark.parametrize("content", ["not json", "[1, 2]", '{"k": 3}'])
def test_a_broken_cache_file_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str
) -> None:
    monkeypatch.setenv("STANDGEN_CACHE", str(tmp_path))
    (tmp_path / "help-markdown.json").write_text(content)
    renderer = MarkdownRenderer()
    assert "<h1>Title</h1>" in renderer.help_page(TEXT, same)
    renderer.save_cache()
    assert json.loads((tmp_path / "help-markdown.json").read_text())


def test_off_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STANDGEN_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    renderer = MarkdownRenderer()
    renderer.help_page(TEXT, same)
    renderer.save_cache()
    assert HtmlCache.open().path is None
    assert not any(tmp_path.rglob("*.json"))


def test_an_unwritable_cache_folder_does_not_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("STANDGEN_CACHE", str(blocker / "cache"))
    renderer = MarkdownRenderer()
    assert "<h1>Title</h1>" in renderer.help_page(TEXT, same)
    renderer.save_cache()  # no exception
