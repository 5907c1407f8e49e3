"""Reading input files safely: size limit, UTF-8 only, CSV rows with their line numbers."""

from __future__ import annotations

import csv
import difflib
import io
import os
import re
import stat
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from standgen.errors import Problem

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_CELL_CHARS = 1000
SLUG = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
# line breaks inside a cell would break the one-line ``path:line: message`` of every
# problem that quotes the cell, and no field of the contract needs one
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def display(path: Path) -> str:
    """Return the path as messages show it (as the user named the events folder)."""
    return path.as_posix()


FILE, FOLDER = "a regular file", "a folder"


def kind_of(mode: int) -> str:
    """Return what a ``stat`` mode is, as messages name it ("a pipe", "a folder", ...)."""
    if stat.S_ISREG(mode):
        return FILE
    if stat.S_ISDIR(mode):
        return FOLDER
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a file"


class NotRegularFile(OSError):
    """Raised by :func:`read_regular` for a path that is not a regular file."""


def read_regular(path: Path | str, limit: int | None = None) -> bytes:
    """Return the bytes of a regular file (at most ``limit`` + 1 of them, if given).

    Never blocks on a pipe (FIFO): the file is opened non-blocking, which returns at once
    even for a FIFO, and ``fstat`` of the opened file must say "regular file", else
    :class:`NotRegularFile` is raised. Callers ``stat`` first and never get this far with
    a FIFO; this guards against one swapped in between (issue #15 item 3).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(f"{path} is not a regular file")
        with open(fd, "rb", closefd=False) as handle:
            return handle.read() if limit is None else handle.read(limit + 1)
    finally:
        os.close(fd)


def read_text(path: Path, problems: list[Problem], spreadsheet: bool = False) -> str | None:
    """Return a file's text, or None after recording why it cannot be used.

    Refuses anything but a regular file without opening it (a FIFO would block the read
    for ever), files over the size limit without reading them, byte-order marks, UTF-16,
    NUL bytes and anything that is not UTF-8, naming the line of the first bad byte.
    A ``spreadsheet`` file (a CSV file) is read as spreadsheet programs save it (issue
    #19): a UTF-8 byte-order mark (Excel's "CSV UTF-8") is dropped, and bytes that are
    not UTF-8 are read as Windows-1252 (Excel's plain "CSV" on Windows), each with a
    warning naming the file; UTF-16 is still refused.
    """
    where = display(path)
    data = _read_bytes(path, where, problems)
    if data is None:
        return None
    return _decode(data, where, problems, spreadsheet)


def _read_bytes(path: Path, where: str, problems: list[Problem]) -> bytes | None:
    """Return a file's bytes, or None after recording why they cannot be read.

    The first half of :func:`read_text`: anything but a regular file is refused without
    opening it, a file over the size limit without reading it.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        problems.append(Problem(where, 1, f"cannot be read ({exc.strerror}); check the file"))
        return None
    mode, size = st.st_mode, st.st_size
    if stat.S_ISDIR(mode):
        problems.append(Problem(where, 1, "is a folder, not a file; rename or remove it"))
        return None
    if not stat.S_ISREG(mode):
        problems.append(Problem(where, 1, f"is not a regular file ({kind_of(mode)}); remove it"))
        return None
    if size > MAX_FILE_BYTES:
        problems.append(Problem(where, 1, f"file is {size:,} bytes ({size / 1048576:.1f} MB), "
                                f"over the {MAX_FILE_BYTES // 1048576} MB limit; is this the "
                                "right file?"))
        return None
    try:
        data = read_regular(path, MAX_FILE_BYTES)
    except NotRegularFile:
        problems.append(Problem(where, 1, "was replaced by something that is not a regular "
                                "file while it was read; save it again as a file"))
        return None
    except OSError as exc:
        problems.append(Problem(where, 1, f"cannot be read ({exc.strerror}); check the file"))
        return None
    if len(data) > MAX_FILE_BYTES:
        problems.append(Problem(where, 1, f"file grew over the {MAX_FILE_BYTES // 1048576} MB "
                                "limit while it was read; is this the right file?"))
        return None
    return data


def _decode(data: bytes, where: str, problems: list[Problem], spreadsheet: bool) -> str | None:
    """Return a file's bytes as text, or None after recording why they are not text.

    The second half of :func:`read_text`: UTF-16, byte-order marks (but in a
    ``spreadsheet`` file), NUL bytes and bytes that are not UTF-8 (Windows-1252 in a
    ``spreadsheet`` file, issue #19).
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        problems.append(Problem(where, 1, "file is UTF-16; save it as UTF-8 (CSV UTF-8 in "
                                "spreadsheet programs)"))
        return None
    if data.startswith(b"\xef\xbb\xbf"):
        if not spreadsheet:
            problems.append(Problem(where, 1, "file starts with a byte-order mark (BOM); save "
                                    "it as UTF-8 without BOM"))
            return None
        data = data[3:]
        problems.append(Problem(where, 1, "starts with a byte-order mark (Excel's CSV UTF-8); "
                                "read as UTF-8, nothing to do", warning=True, notice=True))
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        problems.append(Problem(where, line, "file holds a NUL byte; is it a text file?"))
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        if spreadsheet:
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError:
                pass
            else:
                problems.append(Problem(where, line, "is not UTF-8: read as Windows-1252 "
                                        "(Excel's plain CSV, older programs); nothing to do "
                                        "while no name shows a '?'", warning=True,
                                        notice=True))
                return text
        problems.append(Problem(where, line, f"byte 0x{data[exc.start]:02X} is not UTF-8 "
                                "(Latin-1 or Windows encoding?); save the file as UTF-8"))
        return None


@dataclass(frozen=True)
class Row:
    """A CSV data row: its line number and its cells by column name."""

    line: int
    cells: dict[str, str]

    def get(self, column: str) -> str:
        return self.cells.get(column, "")


def suggest(word: str, choices: Sequence[str]) -> str:
    """Return ``; did you mean 'x'?`` for a near miss (in any case), spelt as the choice
    is, or an empty string."""
    spelt: dict[str, str] = {}
    for choice in choices:
        spelt.setdefault(choice.lower(), choice)
    close = difflib.get_close_matches(word.strip().lower(), list(spelt), n=1, cutoff=0.6)
    return f"; did you mean '{spelt[close[0]]}'?" if close else ""


def slugify(name: str) -> str:
    """Return a slug made from ``name``: ASCII letters and digits joined by hyphens,
    accents dropped (a player id from a name, a folder name to suggest)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def unique_slugs(named: Iterable[tuple[int, str]], fallback: str, used: set[str],
                 width: int = 60) -> dict[int, str]:
    """Return a unique slug id per number from each name (``-2``, ``-3`` on clashes;
    ``<fallback>-<number>`` for a name without a letter or digit), none in ``used``."""
    ids: dict[int, str] = {}
    taken = set(used)
    for number, name in named:
        base = slugify(name)[:width].strip("-") or f"{fallback}-{number}"
        candidate, k = base, 2
        while candidate in taken:
            candidate, k = f"{base}-{k}", k + 1
        taken.add(candidate)
        ids[number] = candidate
    return ids


def slug_for(name: str) -> str:
    """Return the slug to suggest for a folder ``name``, or "" when it holds a letter of
    another script (a Cyrillic look-alike: no good guess)."""
    folded = unicodedata.normalize("NFKD", name)
    if any(c.isalpha() and not c.isascii() and not unicodedata.combining(c)
           and unicodedata.normalize("NFKD", c).encode("ascii", "ignore") == b""
           for c in folded):
        return ""
    return slugify(name)


def read_csv(
    path: Path,
    required: Sequence[str],
    optional: Sequence[str],
    problems: list[Problem],
) -> tuple[list[str], list[Row]] | None:
    """Return the header and rows of a CSV file, or None if it cannot be used at all.

    Checks the header (missing, unknown, misspelt, duplicate columns), blank lines,
    field counts and over-long cells; every problem is recorded. Reads the file as a
    spreadsheet saves it (:func:`read_text`), with ``;`` or tab as the separator where
    the header has no comma, and removes spaces around cells, each with a warning.
    """
    text = read_text(path, problems, spreadsheet=True)
    if text is None:
        return None
    return parse_csv(text, display(path), required, optional, problems)


def read_spreadsheet(path: Path, problems: list[Problem]) -> tuple[bytes, str] | None:
    """Return a CSV file's bytes and its text as :func:`read_text` reads a spreadsheet's
    file, from one read (so the two always agree), or None after recording why not."""
    where = display(path)
    data = _read_bytes(path, where, problems)
    if data is None:
        return None
    text = _decode(data, where, problems, spreadsheet=True)
    return None if text is None else (data, text)


def empty_file(path: Path) -> bool:
    """Return whether ``path`` is a file of no bytes (False when it cannot be read)."""
    try:
        return path.stat().st_size == 0
    except OSError:
        return False


def parse_csv(
    text: str,
    where: str,
    required: Sequence[str],
    optional: Sequence[str],
    problems: list[Problem],
) -> tuple[list[str], list[Row]] | None:
    """Return the header and rows of a CSV file's ``text``, as :func:`read_csv` does."""
    if not _uniform_line_ends(text, where, problems):
        return None
    delimiter = _delimiter(text, where, problems)
    spaced: list[tuple[int, str]] = []  # (line, column) of cells that had spaces around
    known = list(required) + [c for c in optional if c not in required]
    if not text.strip():
        problems.append(Problem(where, 1, "file is empty; it needs a header row: "
                                + ",".join(required)))
        return None
    lines = list(_rows(text, where, problems, delimiter))
    if not lines:
        return None
    header_line, header = lines[0]
    if any(name != name.strip() for name in header):
        spaced.append((header_line, "the header"))
        header = [name.strip() for name in header]
    if not _header_ok(header, header_line, required, known, where, problems):
        return None
    rows: list[Row] = []
    for line, cells in lines[1:]:
        row = _data_row(line, cells, header, where, problems, spaced)
        if row is not None:
            rows.append(row)
    if spaced:
        first_line, first = spaced[0]
        more = f" and {len(spaced) - 1} more" if len(spaced) > 1 else ""
        problems.append(Problem(where, first_line, f"spaces around cells were removed ("
                                f"'{first}' on this line{more}); nothing to do", warning=True,
                                notice=True))
    return header, rows


def _header_ok(
    header: list[str], header_line: int, required: Sequence[str], known: list[str],
    where: str, problems: list[Problem],
) -> bool:
    """Return whether a CSV header is usable, recording each control character, duplicate,
    unknown (with a near miss suggested) and missing column name."""
    ok = True
    seen: set[str] = set()
    for name in header:
        if CONTROL.search(name):
            problems.append(Problem(where, header_line, "a column name holds a line break or "
                                    "control character; is a quote left open?"))
            ok = False
        elif name in seen:
            problems.append(Problem(where, header_line, f"column '{name}' appears twice; "
                                    "keep one"))
            ok = False
        elif name not in known:
            problems.append(Problem(where, header_line, f"unknown column '{name}'"
                                    + (suggest(name, known) or "; columns are: "
                                       + ",".join(known))))
            ok = False
        seen.add(name)
    missing = [c for c in required if c not in header]
    if missing:
        problems.append(Problem(where, header_line, "missing column(s) "
                                + ", ".join(f"'{c}'" for c in missing)
                                + "; the header must have " + ",".join(required)))
        ok = False
    return ok


def _data_row(
    line: int, cells: list[str], header: list[str], where: str, problems: list[Problem],
    spaced: list[tuple[int, str]],
) -> Row | None:
    """Return one CSV record as a Row, or None after recording why it is unusable.

    A blank line, a field count other than the header's, a cell holding a line break or
    control character or over :data:`MAX_CELL_CHARS` long are refused; cells with spaces
    around are noted in ``spaced`` (line, column) and stripped.
    """
    if not cells:
        problems.append(Problem(where, line, "blank line; delete it"))
        return None
    if len(cells) != len(header):
        problems.append(Problem(where, line, f"has {len(cells)} fields but the header has "
                                f"{len(header)}; check the commas"))
        return None
    bad = False
    for name, cell in zip(header, cells, strict=True):
        if CONTROL.search(cell):
            problems.append(Problem(where, line, f"'{name}' holds a line break or control "
                                    "character; keep each cell on one line (is a quote "
                                    "left open?)"))
            bad = True
        elif len(cell) > MAX_CELL_CHARS:
            problems.append(Problem(where, line, f"'{name}' is {len(cell)} characters long, "
                                    f"over the limit of {MAX_CELL_CHARS}; shorten it"))
            bad = True
        elif cell != cell.strip():
            spaced.append((line, name))
    if bad:
        return None
    return Row(line, {name: cell.strip() for name, cell in zip(header, cells, strict=True)})


def _delimiter(text: str, where: str, problems: list[Problem]) -> str:
    """Return the header line's column separator: ``,``, or ``;`` or a tab where the
    header has no comma (Excel saves ``;`` where the decimal mark is a comma), with a
    warning saying so."""
    header = text.split("\n", 1)[0]
    if "," in header:
        return ","
    found = max((";", "\t"), key=header.count)
    if not header.count(found):
        return ","
    name = "semicolons" if found == ";" else "tabs"
    problems.append(Problem(where, 1, f"columns are separated by {name} (as spreadsheets save "
                            "CSV in many countries): read as such, nothing to do",
                            warning=True, notice=True))
    return found


LINE_END = re.compile(r"\r\n|\r|\n")
LINE_END_NAMES = {"\r\n": "CRLF (Windows)", "\n": "LF", "\r": "a lone CR (old Mac)"}


def _uniform_line_ends(text: str, where: str, problems: list[Problem]) -> bool:
    """Return whether every line ends the same way: all LF, or all CRLF as Excel writes.

    Mixed endings and lone CRs are refused: spreadsheets and the csv module count such
    lines differently, so line numbers in messages would point at the wrong row.
    """
    if "\r" not in text:
        return True
    ends = LINE_END.finditer(text)
    first = next(ends).group()
    if first == "\r":
        problems.append(Problem(where, 1, "lines end with a lone CR (old Mac format); save the "
                                "file as CSV UTF-8 (LF or CRLF line ends)"))
        return False
    for line, end in enumerate(ends, start=2):
        if end.group() != first:
            problems.append(Problem(where, line, f"line ends with {LINE_END_NAMES[end.group()]} "
                                    f"but line 1 ends with {LINE_END_NAMES[first]}; mixed line "
                                    "ends: save the file again from one program"))
            return False
    return True


def _rows(text: str, where: str, problems: list[Problem],
          delimiter: str = ",") -> Iterator[tuple[int, list[str]]]:
    """Yield (first line number, cells) for each CSV record."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter)
    line = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if "field larger than field limit" in str(exc):
                problems.append(Problem(where, line, f"a cell is over {csv.field_size_limit():,} "
                                        f"characters long (the limit is {MAX_CELL_CHARS}); "
                                        "is a quote left open?"))
                return
            if "unexpected end of data" in str(exc):
                problems.append(Problem(where, line, "a quote opened in this row is never "
                                        "closed; check the quotes"))
                return
            problems.append(Problem(where, line, f"is not valid CSV ({exc}); check the quotes"))
            return
        yield line, cells
        line = reader.line_num + 1


def parse_int(text: str) -> int | None:
    """Return ``text`` as a whole number, or None."""
    if re.fullmatch(r"[+-]?\d{1,12}", text):
        return int(text)
    return None


def parse_number(text: str) -> float | None:
    """Return ``text`` as a finite decimal number, or None."""
    if re.fullmatch(r"[+-]?(\d{1,12}(\.\d{1,6})?|\.\d{1,6})", text):
        return float(text)
    return None


def delimiter_of(text: str) -> str:
    """Return the column separator the loader reads ``text`` with (``,``, ``;`` or a tab)."""
    return _delimiter(text, "", [])
