"""Round files: the one reader and the one writer of ``round-N.csv`` (issue #28).

Everything that reads a round file to change it (the venue desk, the players'
self-reports, ``pair``, ``bye``, ``drop``, the importers) reads it here, with the
loader's own tolerant reading (:func:`standgen.load.files.parse_csv`: a UTF-8 BOM,
Windows-1252, ``;`` or tab separators, spaces around cells and header names), and writes
it here, back in its own form: the same separator, line ends, BOM and encoding, one row
replaced and every other line byte for byte as it was (or refused, with a message saying
how to save the file so it can be written). Each write is atomic (written aside, then
renamed over the old file) and compare-and-swap: it happens only if the row (and, when
the caller asks, the whole file) still reads as the caller read it.

The API::

    current = read_round_file(path, fmt, problems)       # RoundFile | None
    row = current.row(3)                                  # RoundRow: cells, line, tag
    change = replace_row(path, fmt, 3, {"result": "1-0"}, expect=row.tag)
    change = remove_row(path, fmt, 3, expect=row.tag)     # e.g. a dropped player's row
    write_round(path, fmt, rnd)                           # a whole round (pair)
    with editing(path, fmt) as edit:                      # read, decide, write, one lock
        edit.current ... edit.write(text)

A refusal is a :class:`RoundFileRefused` holding ``path:line: message`` problems and a
``reason`` (``unreadable``, ``changed``, ``locked``, ``form``, ``missing``). The lock is a
thread lock per file plus, across processes, ``flock`` on the round file itself (checked
to still be the file at the path once held). Editors' lock and swap files (LibreOffice's
``.~lock.X#``, Vim's ``.X.swp``, Emacs's ``.#X``, Office's ``~$X``) refuse every write.
"""

from standgen.roundfile.edit import (
    Change,
    Editing,
    editing,
    editor_lock,
    remove_row,
    replace_row,
    write_round,
    write_team_round,
)
from standgen.roundfile.read import RoundFile, RoundRow, read_round_file
from standgen.roundfile.text import (
    BOM,
    TEAM_ROUND_HEADER,
    Form,
    RoundFileRefused,
    board_rows,
    boards_csv,
    encode,
    form_of,
    line_text,
    new_round_text,
    render,
    round_csv,
    round_rows,
    tag_of,
    team_round_csv,
)

__all__ = [
    "BOM", "TEAM_ROUND_HEADER", "Change", "Editing", "Form", "RoundFile", "RoundFileRefused",
    "RoundRow", "board_rows", "boards_csv", "editing", "editor_lock", "encode", "form_of",
    "line_text", "new_round_text", "read_round_file", "remove_row", "render",
    "replace_row", "round_csv", "round_rows", "tag_of", "team_round_csv", "write_round",
    "write_team_round",
]
