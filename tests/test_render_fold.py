"""Text translated on compiling is what the gettext call would have returned, to the byte.

``standgen.site.render`` replaces each ``_("literal")`` of a template by its translation
when it compiles the template for a language (``_Fold``); ``fast=False``
(``perf.straightforward()``) keeps the calls. Each message of every catalogue, and
messages made to trip the folding (``%%``, markup, a format left unfilled), render the
same both ways in every language, and a whole site in a translated language is the
same file for file.
"""

from __future__ import annotations

import gettext as gettext_module
import hashlib
import re
import shutil
from pathlib import Path

import pytest
from markupsafe import Markup

from standgen import build, perf
from standgen.load import load_tree
from standgen.site import i18n
from standgen.site.render import Templates

PROJECT = Path(__file__).resolve().parent.parent
LANGUAGES = sorted(p.name for p in (PROJECT / "standgen" / "locale").iterdir() if p.is_dir())
TRICKY = ["50%% of the games", "a & b <b>bold</b>", "", "'quoted' \"x\"", "{{ not jinja }}",
          "Standings", "back\\slash"]


def messages(language: str) -> list[str]:
    """Return the message ids of a language's compiled catalogue (plural forms left out:
    ``ngettext`` is never folded)."""
    with open(i18n.LOCALE / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo", "rb") as file:
        catalogue = gettext_module.GNUTranslations(file)
    # a message with values to fill in is called with them, and never folded; one with
    # a lone "%" is Python's (a template's would fail both ways)
    ids = [key for key in catalogue._catalog  # noqa: SLF001
           if isinstance(key, str) and key and "%(" not in key and _formats(key)]
    assert len(ids) > 100, language
    return ids


def _formats(text: str) -> bool:
    try:
        Markup(text) % {}
    except (TypeError, ValueError, KeyError):
        return False
    return True


def template_of(texts: list[str]) -> str:
    """Return a template printing ``_("text")`` for each text, one a line (as Jinja2
    string literals: quotes and backslashes escaped)."""
    def literal(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "".join("[{{ _(" + literal(text) + ") }}]\n" for text in texts)


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_each_message_renders_as_the_call_would(language: str, tmp_path: Path) -> None:
    texts = TRICKY + (messages(language) if language != "en" else messages("de"))
    (tmp_path / "all.html").write_text(template_of(texts), encoding="utf-8")
    folded, called = Templates(tmp_path, fast=True), Templates(tmp_path, fast=False)
    with i18n.active(language):
        fast = folded.render("all", None)
        slow = called.render("all", None)
        assert "_(" not in fast.decode()
    assert fast == slow
    with i18n.active(language):  # a message left unfilled fails both ways, as before
        (tmp_path / "unfilled.html").write_text('{{ _("Round %(n)s") }}', encoding="utf-8")
        for templates in (folded, called):
            with pytest.raises(KeyError):
                templates.render("unfilled", None)
    assert fast.count(b"\n") == len(texts)
    if language != "en":  # the translations are there, not the English
        assert fast != Templates(tmp_path, fast=True).render("all", None)


def test_a_translated_site_is_the_same_folded_or_not(tmp_path: Path) -> None:
    events = tmp_path / "events"
    shutil.copytree(PROJECT / "events", events)
    (events / "site.toml").write_text('title = "Club"\nlanguage = "de"\n', encoding="utf-8")
    fast = build.render(load_tree(events))
    with perf.straightforward():
        slow = build.render(load_tree(events))
    assert sorted(fast) == sorted(slow)
    differing = [p for p in fast if hashlib.sha256(fast[p]).digest()
                 != hashlib.sha256(slow[p]).digest()]
    assert differing == []
    assert any(b"Rangliste" in data for data in fast.values())


VALUE = re.compile(r"%\((\w+)\)")
FILLS = ("<b>&</b>", "Zoë O'Neill-Łukasz", 7, 2.5, "", "%(x)s", Markup("<i>safe</i>"))


def valued(language: str) -> list[str]:
    """Return the message ids with values to fill in (``%(name)s``) of a catalogue."""
    with open(i18n.LOCALE / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo", "rb") as file:
        catalogue = gettext_module.GNUTranslations(file)
    ids = [key for key in catalogue._catalog  # noqa: SLF001
           if isinstance(key, str) and VALUE.search(key)]
    assert len(ids) > 20, language
    return ids


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_each_message_with_values_renders_as_the_call_would(language: str,
                                                             tmp_path: Path) -> None:
    """``_("...%(name)s...", name=value)`` folds to the translation filled in at render
    time: the same bytes as the call, with values that need escaping, markup already
    safe, numbers and text that looks like a placeholder."""
    texts = valued(language if language != "en" else "de")
    lines = []
    for k, text in enumerate(texts):
        names = sorted(set(VALUE.findall(text)))
        fills = ", ".join(f"{name}=page[{(k + j) % len(FILLS)}]"
                          for j, name in enumerate(names))
        literal = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines.append("[{{ _(" + literal + ", " + fills + ") }}]\n")
    (tmp_path / "valued.html").write_text("".join(lines), encoding="utf-8")
    folded, called = Templates(tmp_path, fast=True), Templates(tmp_path, fast=False)
    with i18n.active(language):
        fast = folded.render("valued", list(FILLS))
        slow = called.render("valued", list(FILLS))
    assert fast == slow
    assert b"<b>&" not in fast and fast.count(b"\n") == len(texts)
    with i18n.active(language):  # a value left out fails both ways, as the call does
        (tmp_path / "short.html").write_text('{{ _("Round %(n)s", m=1) }}', encoding="utf-8")
        for templates in (folded, called):
            with pytest.raises(KeyError):
                templates.render("short", None)
