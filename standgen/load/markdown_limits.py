"""Limits on untrusted Markdown (event.md, army lists, season descriptions), checked on loading.

Python-Markdown, which renders them (:mod:`standgen.site.markdown`), recurses once per
level of nesting and does work that grows with the square of some inputs: a list nested
600 deep raised ``RecursionError``, 20 KB of ``[`` took 28 s of CPU and 160 KB of headings
over 50 s (issue #15, item 12). Text within these limits renders in well under a second
(``tests/test_markdown_limits.py`` measures every adversarial kind at the limits); text
over them is refused with a message, by ``check`` and ``build`` alike:

* the whole text at most :data:`MAX_BYTES` (UTF-8);
* a block (the lines between two blank lines, which Python-Markdown parses as one) at
  most :data:`MAX_BLOCK_CHARS` characters, and the sum of the blocks' lengths squared at
  most that of one such block (Python-Markdown's work on a block, splitting off a line or
  an inline match at a time, grows with the square of its length);
* at most :data:`MAX_DEPTH` levels of nesting at the start of a line: each ``>`` and each
  list marker counts one, and so does every 4 columns of indentation (a tab is 4);
* the bracket scan at most :data:`MAX_BRACKET_SCAN` characters: the
  characters Python-Markdown's link parser reads, one at a time in Python, from every
  ``[`` or ``(`` to its matching ``]`` or ``)``, or to the end of the block when there is
  none;
* the tag scan at most :data:`MAX_TAG_SCAN` characters: what the HTML parser reads from
  every ``<`` to the end of its tag, comment or ``CDATA`` section, or to the end of the
  text when there is none (:func:`tag_scan`).

The limits are listed for users in docs/data-contract.md.
"""

from __future__ import annotations

import bisect
import re

from standgen.errors import Problem

MAX_BYTES = 32 * 1024
MAX_BLOCK_CHARS = 6000
MAX_DEPTH = 20
MAX_BRACKET_SCAN = 200_000
MAX_TAG_SCAN = 500_000

# the tokens of a line's nesting prefix: blanks, blockquote markers and list markers
_TOKEN = re.compile(r"(?:[ \t]+|>|[-*+](?=[ \t]|\Z)|[0-9]{1,9}[.)](?=[ \t]|\Z))")
_BRACKETS = (re.compile(r"[\[\]]"), re.compile(r"[()]"))
# what ends each kind of raw HTML the HTML parser looks for, most specific first
_TAG_ENDS = (("<![", "]]>"), ("<!--", "-->"), ("<", ">"))


def check_markdown(text: str, where: str, problems: list[Problem]) -> bool:
    """Return whether ``text`` is within the Markdown limits, recording a problem for the
    first limit it goes over (``where`` is the file's path as messages show it).

    The checks take time about linear in the text (n log n at most), so a refused file
    costs little more than reading it.
    """
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        problems.append(Problem(where, 1, f"Markdown text is {size:,} bytes, over the limit "
                                f"of {MAX_BYTES // 1024} KB; shorten it or link to a longer "
                                "document"))
        return False
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    work = scan = 0
    first = 0  # the index of the current block's first line
    for index, line in enumerate([*lines, ""]):
        if line.strip(" \t"):
            continue
        if index > first:
            block = "\n".join(lines[first:index])
            at = first + 1
            if len(block) > MAX_BLOCK_CHARS:
                return _refuse(problems, where, at, f"this block of Markdown (text between "
                               f"blank lines) is {len(block):,} characters, over the limit of "
                               f"{MAX_BLOCK_CHARS:,}; put blank lines between paragraphs")
            for number, text_line in enumerate(lines[first:index], start=at):
                depth = nesting(text_line)
                if depth > MAX_DEPTH:
                    return _refuse(problems, where, number, f"Markdown nested {depth} levels "
                                   "deep (lists, '>' quotes, indentation), over the limit of "
                                   f"{MAX_DEPTH}; flatten it")
            work += len(block) ** 2
            if work > MAX_BLOCK_CHARS ** 2:
                return _refuse(problems, where, at, "the long blocks of this Markdown (text "
                               "between blank lines) would take too long to render: the sum "
                               "of their lengths squared may reach that of one block of "
                               f"{MAX_BLOCK_CHARS:,} characters (or of four of "
                               f"{MAX_BLOCK_CHARS // 2:,} ...); put blank lines between "
                               "paragraphs")
            scan += bracket_scan(block)
            if scan > MAX_BRACKET_SCAN:
                return _refuse(problems, where, at, "too many unclosed '[' or '(' in this "
                               f"Markdown (a scan of over {MAX_BRACKET_SCAN:,} characters); "
                               "close each bracket, or write \\[ for a bracket that is text")
        first = index + 1
    scan = tag_scan(text)
    if scan > MAX_TAG_SCAN:
        return _refuse(problems, where, 1, "too many unclosed '<' in this Markdown (a scan of "
                       f"{scan:,} characters, over the limit of {MAX_TAG_SCAN:,}); close each "
                       "tag with '>', or write &lt; for a '<' that is text")
    return True


def _refuse(problems: list[Problem], where: str, line: int, message: str) -> bool:
    problems.append(Problem(where, line, message))
    return False


def nesting(line: str) -> int:
    """Return the nesting depth at the start of a line: one per ``>`` and list marker, and
    one per 4 columns of indentation (a tab counts 4; the blank that ends a marker or a
    ``>`` is not indentation)."""
    markers = columns = 0
    after_marker = False
    at = 0
    while token := _TOKEN.match(line, at):
        text = token.group()
        at = token.end()
        if text[0] in " \t":
            columns += text.count(" ") + 4 * text.count("\t") - after_marker
            after_marker = False
        else:
            markers += 1
            after_marker = True
    return markers + columns // 4


def tag_scan(text: str) -> int:
    """Return how many characters the HTML parser may read looking for the end of raw
    HTML: from each ``<`` to the next ``>`` (from ``<!--`` to ``-->``, from ``<![`` to
    ``]]>``), or to the end of the text when there is none.

    Python-Markdown's raw HTML preprocessor (``markdown.htmlparser``, on
    ``html.parser``) reads the whole text, not block by block, and searches from every
    ``<`` it meets for the end of the tag, comment or ``CDATA`` section; one left open
    is read to the end of the text.
    """
    ends = {end: [m.start() for m in re.finditer(re.escape(end), text)]
            for _, end in _TAG_ENDS}
    total = 0
    for match in re.finditer("<", text):
        at = match.start()
        end = next(e for start, e in _TAG_ENDS if text.startswith(start, at))
        found = ends[end]
        k = bisect.bisect_left(found, at)
        total += (found[k] if k < len(found) else len(text)) - at
    return total


def bracket_scan(block: str) -> int:
    """Return how many characters Python-Markdown's link parser may read one at a time in a
    block: from each ``[`` (and each ``(``) to its matching closer, or to the block's end.

    Python-Markdown ``inlinepatterns.LinkInlineProcessor.getText`` and ``getLink`` walk
    the text character by character counting nested brackets from every ``[`` and ``(``
    they try; an unclosed one is read to the end of the block.
    """
    total = 0
    for pattern in _BRACKETS:
        opened: list[int] = []
        for match in pattern.finditer(block):
            if match.group() in "[(":
                opened.append(match.start())
            elif opened:
                total += match.start() - opened.pop()
        total += sum(len(block) - at for at in opened)
    return total
