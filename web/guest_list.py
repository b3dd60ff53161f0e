"""A guest list as a host's file really is, read and looked over before anything is added.

Hosts export lists from Excel, Outlook, a phone or an old club database: comma,
semicolon (a European Excel) or tab separated (Excel's "Unicode text"), with or
without a header, in UTF-8 (with or without a byte-order mark), UTF-16, or
Windows-1252. The file is read in that order of likelihood:

- a byte-order mark says the encoding outright (UTF-8, UTF-16);
- otherwise strict UTF-8: bytes that are not Windows-1252 text by accident
  almost never decode as UTF-8, so a file that decodes is UTF-8;
- otherwise Windows-1252 (a superset of Latin-1's printable characters, which
  is what Western European Windows writes), and Latin-1 for the five bytes
  Windows-1252 leaves undefined.

A statistical detector (charset-normalizer) was weighed and not used: a list
of a few dozen short names gives it little text to guess from, while the order
above is exact for the encodings a host's files come in.

The delimiter is sniffed among comma, semicolon and tab; a first row naming a
name column ("name", "guest", "first name" + "last name", ...) is a header.
The preview sorts every row: new guests, exact duplicates (in the file or on
the list already), near-duplicates ("Ann Lee" / "ann lee" / "Ann  Lee": the
host decides each one) and refused rows, each with its reason.
"""
from __future__ import annotations

import codecs
import csv
import io
from dataclasses import dataclass

from hub.conductor.names import normal

NAME_LIMIT = 80   # the conductor's (hub/conductor/judge.py, BAD NAME)
NAME_HEADERS = ("name", "names", "guest", "guests", "full name", "guest name", "player", "nom", "naam", "navn",
                "namn", "nome", "nombre")
FIRST_HEADERS = ("first name", "first", "given name", "forename", "prénom", "vorname")
LAST_HEADERS = ("last name", "last", "surname", "family name", "nom de famille", "nachname")
DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}


@dataclass(frozen=True)
class Row:
    line: int            # the row's line in the file, as a spreadsheet numbers it
    name: str            # as it will be listed: spaces trimmed and single
    reason: str = ""     # why it is not simply added: the duplicate's or near-duplicate's other, or the refusal


@dataclass(frozen=True)
class Preview:
    encoding: str
    delimiter: str
    header: str          # the header row as read, "" if the file has none
    new: tuple[Row, ...]
    duplicates: tuple[Row, ...]
    near: tuple[Row, ...]
    refused: tuple[Row, ...]


def decode(data: bytes) -> tuple[str, str]:
    """The file's text and the name of its encoding (see the module's note for the order)."""
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):].decode("utf-8", errors="replace"), "UTF-8 with a byte-order mark"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace"), "UTF-16"
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "Latin-1"


def sniff(text: str) -> str:
    """The delimiter: comma, semicolon or tab; a one-column list has none, read as comma."""
    sample = "\n".join(text.splitlines()[:50])
    try:
        return csv.Sniffer().sniff(sample, delimiters="".join(DELIMITERS)).delimiter
    except csv.Error:
        # the sniffer gives up on ragged rows: the delimiter on most lines wins
        lines = [line for line in sample.splitlines() if line.strip()]
        best = max(DELIMITERS, key=lambda d: sum(d in line for line in lines))
        return best if any(best in line for line in lines) else ","


def name_columns(header: list[str]) -> tuple[int, ...] | None:
    """The name's column(s) if this row is a header: (name,) or (first, last)."""
    cells = [" ".join(c.split()).casefold() for c in header]
    for i, c in enumerate(cells):
        if c in NAME_HEADERS:
            return (i,)
    first = next((i for i, c in enumerate(cells) if c in FIRST_HEADERS), None)
    last = next((i for i, c in enumerate(cells) if c in LAST_HEADERS), None)
    if first is not None and last is not None:
        return (first, last)
    return None


def read(data: bytes) -> tuple[list[tuple[int, str, str]], dict]:
    """The file's rows as (line, name, the row as written) and how it was read
    ({encoding, delimiter, header})."""
    text, encoding = decode(data)
    delimiter = sniff(text)
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    numbered = [(i, r) for i, r in enumerate(rows, start=1) if any(c.strip() for c in r)]
    header, columns = "", (0,)
    if numbered and (found := name_columns(numbered[0][1])) is not None:
        header, columns = delimiter.join(numbered[0][1]), found
        numbered = numbered[1:]
    out = [(line, " ".join(" ".join(r[c] for c in columns if c < len(r)).split()), delimiter.join(r))
           for line, r in numbered]
    return out, {"encoding": encoding, "delimiter": DELIMITERS[delimiter], "header": header}


def sort(rows, listed, how: dict | None = None) -> Preview:
    """Rows (line, name, as written) sorted against each other and the guests `listed` already."""
    exact = {name: "already on the guest list" for name in listed}
    near = {normal(name): name for name in listed}
    new, duplicates, similar, refused = [], [], [], []
    for line, name, written in rows:
        if not name:
            refused.append(Row(line, written, "no name in the name column"))
        elif len(name) > NAME_LIMIT:
            refused.append(Row(line, name, f"longer than {NAME_LIMIT} characters"))
        elif name in exact:
            duplicates.append(Row(line, name, exact[name]))
        elif normal(name) in near:
            similar.append(Row(line, name, f"like {near[normal(name)]!r}"))
        else:
            new.append(Row(line, name))
            exact[name] = f"the same as line {line}"
            near[normal(name)] = name
    how = how or {}
    return Preview(how.get("encoding", ""), how.get("delimiter", ""), how.get("header", ""), tuple(new), tuple(duplicates),
                   tuple(similar), tuple(refused))


def preview(data: bytes, listed) -> Preview:
    """A guest list file, read and sorted against the guests `listed` already."""
    rows, how = read(data)
    return sort(rows, listed, how)
