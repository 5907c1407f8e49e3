"""Markdown sanitising, help-page link rewriting, and the number formats."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from standgen.site import links
from standgen.site.i18n import active
from standgen.site.markdown import MarkdownRenderer, docs_link_rewrite
from standgen.site.numbers import display_number, display_numbers, json_number


def test_untrusted_markdown_keeps_formatting_and_drops_active_content() -> None:
    html = MarkdownRenderer().untrusted(
        "# Rules\n\n**Bring** two lists.\n\n"
        "<script>alert(1)</script>\n\n"
        "[x](javascript:alert(2)) [y](JAVASCRIPT:alert(3)) [z](data:text/html,hi)\n\n"
        '<a href="https://example.org/" onclick="alert(4)" style="color:red">ok</a>\n\n'
        '<iframe src="https://example.org"></iframe><img src="x" onerror="alert(5)">\n\n'
        "| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    assert "<h1>Rules</h1>" in html and "<strong>Bring</strong>" in html
    assert "<table>" in html
    lowered = html.lower()
    for bad in (
        "<script",
        "alert(1)",
        "javascript:",
        "data:",
        "onclick",
        "onerror",
        "style=",
        "<iframe",
        "<img",
    ):
        assert bad not in lowered, bad
    assert '<a href="https://example.org/" rel="nofollow noopener">ok</a>' in html


def test_empty_markdown_is_empty() -> None:
    assert MarkdownRenderer().untrusted("  \n") == ""


def test_help_links_between_md_files_become_page_links() -> None:
    page = links.help_page("formats/steamroller")
    rewrite = docs_link_rewrite("formats/steamroller", page, links.help_page, links.relative)
    assert rewrite("../tiebreaks/sos.md") == "../../tiebreaks/sos/index.html"
    assert rewrite("../pairing.md#the-guarantee") == "../../pairing/index.html#the-guarantee"
    assert rewrite("../index.md") == "../../index.html"
    assert rewrite("https://example.org/a.md") == "https://example.org/a.md"
    assert rewrite("#rounds") == "#rounds"
    html = MarkdownRenderer().help_page("See [SoS](../tiebreaks/sos.md).", rewrite)
    assert html == '<p>See <a href="../../tiebreaks/sos/index.html">SoS</a>.</p>'


def test_relative_links() -> None:
    assert links.relative("index.html", "a/b/index.html") == "a/b/index.html"
    assert links.relative("a/b/index.html", "index.html") == "../../index.html"
    assert (
        links.relative("a/b/round-1/index.html", "a/b/players/x/index.html")
        == "../players/x/index.html"
    )
    assert links.relative("a/b/index.html", "a/b/standings.json") == "standings.json"
    assert links.root_of("a/b/index.html") == "../../"


def test_numbers() -> None:
    assert json_number(3.0) == 3 and isinstance(json_number(3.0), int)
    assert json_number(20 / 6) == 3.3333
    assert json_number(2.99999999) == 3 and isinstance(json_number(2.99999999), int)
    assert json_number(-0.0) == 0 and math.copysign(1, json_number(-0.0)) == 1
    assert display_number(20 / 6) == "3.33"
    assert display_number(1 / 6) == "0.17"
    assert display_number(0.5) == "0.5"
    assert display_number(120.0) == "120"
    assert display_number(-0.0) == "0"
    assert display_number(-7) == "-7" and display_number(True) == "1"


@given(st.integers(min_value=-10**15, max_value=10**15))
def test_whole_numbers_show_the_same_as_int_or_float(value: int) -> None:
    assert display_number(value) == str(value)
    if abs(value) < 2**53:
        assert display_number(float(value)) == str(value)


@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                         st.floats(min_value=-100, max_value=100).map(lambda v: round(v, 2)),
                         st.integers(min_value=-10**6, max_value=10**6), st.booleans())),
       st.sampled_from(["en", "de", "fr", "pl"]))
def test_a_charts_numbers_show_as_each_number_alone(values: list[float], language: str) -> None:
    """``display_numbers`` (a chart's thousand points at once) is ``display_number`` of
    each, in every language."""
    with active(language):
        assert display_numbers(values) == [display_number(v) for v in values]


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False))
def test_json_numbers_round_to_four_places(value: float) -> None:
    number = json_number(value)
    assert abs(number - value) <= 0.00005 + 1e-9 * abs(value)
    if isinstance(number, float):
        assert len(repr(number).split(".")[1].split("e")[0]) <= 4
