"""The templates' quicker escaping (``standgen.site.render.ESCAPE``) is MarkupSafe's."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Any

import jinja2
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup, escape

from standgen.site.pages import templates as templates_of_registry
from standgen.site.render import ESCAPE, Templates

PROJECT = Path(__file__).resolve().parent.parent


class _Html:
    def __html__(self) -> str:
        return "<b>safe</b>"


class _Colour(enum.IntEnum):
    RED = 1


class _Text(str):
    def __str__(self) -> str:
        return "<i>"


values = st.one_of(
    st.text(), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
    st.text().map(Markup), st.just(_Html()), st.just(_Colour.RED),
    st.text().map(_Text),
)


@given(values)
def test_quick_escape_equals_markupsafe(value: Any) -> None:
    quick, reference = ESCAPE(value), escape(value)
    assert quick == reference
    assert type(quick) is Markup


def test_hostile_text_is_escaped() -> None:
    assert ESCAPE('<a href="x">\'&') == "&lt;a href=&#34;x&#34;&gt;&#39;&amp;"
    assert ESCAPE(Markup("<b>")) == "<b>"
    assert ESCAPE(-12) == "-12"


def test_page_templates_and_what_they_include_use_it(tmp_path: Path) -> None:
    templates = Templates(PROJECT / "site_templates")
    templates.preload(templates_of_registry())
    for name in ("player", "base", "_macros"):
        template = templates.env.get_template(f"{name}.html")
        assert template.root_render_func.__globals__["escape"] is ESCAPE
    # and a template still escapes what it prints
    (tmp_path / "t.html").write_text("{{ page }}|{{ 3 }}|{{ page ~ 1 }}")
    env = Templates(tmp_path).env
    assert isinstance(env.get_template("t.html"), jinja2.Template)
    assert env.get_template("t.html").render(page="<x>") == "&lt;x&gt;|3|&lt;x&gt;1"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4)
    | st.lists(inner, max_size=3).map(tuple),
    max_leaves=30,
)


@given(json_values)
def test_json_documents_are_written_as_json_dumps_writes_them(document: Any) -> None:
    import json

    from standgen.site.jsonout import dumps

    expected = (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode()
    assert dumps(document) == expected
    assert dumps(document, fast=False) == expected


def test_json_with_keys_that_are_not_strings_falls_back() -> None:
    from standgen.site.jsonout import dumps

    assert dumps({1: [True, None, 1.5], "é": {}}) == \
        b'{\n  "1": [\n    true,\n    null,\n    1.5\n  ],\n  "\xc3\xa9": {}\n}\n'


rows = st.lists(st.dictionaries(st.text(max_size=5), json_values, max_size=4), max_size=4)


@given(st.dictionaries(st.text(max_size=8), json_values | rows
                       | st.dictionaries(st.text(max_size=5), rows, max_size=3), max_size=5))
def test_club_json_a_row_a_line_holds_the_same_values(document: dict[str, Any]) -> None:
    import json
    import math

    from standgen.site.jsonout import dumps_rows

    text = dumps_rows(document).decode()
    assert text.endswith("\n")
    if all(not isinstance(v, float) or math.isfinite(v) for v in _leaves(document)):
        assert json.loads(text) == json.loads(json.dumps(document))  # tuples are lists
    else:  # NaN is not equal to itself: the same text as json.dumps writes, then
        assert json.dumps(json.loads(text)) == json.dumps(json.loads(json.dumps(document)))
    for value in document.values():  # each row of a list of objects is on one line
        if isinstance(value, list) and value and all(isinstance(i, dict) for i in value):
            lines = [line.rstrip(",") for line in text.split("\n")]
            for item in value:
                assert "    " + json.dumps(item, ensure_ascii=False) in lines


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, list | tuple):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def test_a_players_ratings_json_is_a_game_a_line() -> None:
    from standgen.site.jsonout import dumps_rows

    document = {"id": "zoe", "name": "Zoë O'Brien-Łukasiewicz", "model": "openskill",
                "games": [{"date": "2026-03-14", "round": 1, "after": 25.5},
                          {"date": "2026-03-14", "round": 2, "after": None}]}
    assert dumps_rows(document).decode() == (
        '{\n  "id": "zoe",\n  "name": "Zoë O\'Brien-Łukasiewicz",\n  "model": "openskill",\n'
        '  "games": [\n'
        '    {"date": "2026-03-14", "round": 1, "after": 25.5},\n'
        '    {"date": "2026-03-14", "round": 2, "after": null}\n'
        '  ]\n}\n')
