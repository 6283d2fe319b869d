"""Reading rule texts as real files come: BOMs, UTF-8/UTF-16/cp1252, LF/CRLF/CR line ends.

Owns decoding and line-end normalisation only. The decoded text is kept as written
(apostrophes, non-breaking spaces); folding for matching lives in `judge.normalize`.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from pathlib import Path

from judge.errors import SourceError

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class DecodedText:
    """A source file's text with `\\n` line ends, and the encoding it was read with."""

    text: str
    encoding: str


def decode(data: bytes, *, path: str = "<texte>") -> DecodedText:
    """Decode bytes by BOM, then UTF-16 without BOM (told by where its NUL bytes are), then
    strict UTF-8, then cp1252."""
    encoding = _detect(data, path)
    if encoding is None:
        raise SourceError(path, "encodage non reconnu (ni UTF-8, ni UTF-16, ni cp1252)")
    start = 0
    for bom, name in _BOMS:
        if name == encoding and data.startswith(bom):
            start = len(bom)
    name = "utf-8" if encoding == "utf-8-sig" else encoding
    text = data[start:].decode(name)
    if "\x00" in text:
        raise SourceError(path, "fichier binaire (octet nul), pas un texte de règles")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return DecodedText(text=text, encoding=encoding)


def _detect(data: bytes, path: str) -> str | None:
    for bom, name in _BOMS:
        if data.startswith(bom):
            try:
                data[len(bom):].decode("utf-8" if name == "utf-8-sig" else name)
            except UnicodeDecodeError:
                return None
            return name
    utf16 = utf16_byte_order(data)
    if utf16 is not None:
        _check_utf16(data, utf16, path)
        return utf16
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return None


_SAMPLE = 4096


def utf16_byte_order(data: bytes) -> str | None:
    """The byte order of BOM-less UTF-16, told by its NUL bytes: a Latin letter's other byte
    is NUL, after it (odd offsets: little-endian) or before it (even offsets: big-endian).
    None unless the first bytes have NULs in at least a fifth of the places of one side and
    hardly any on the other (no text of rules in UTF-8 or cp1252 has a NUL)."""
    sample = data[:_SAMPLE]
    if len(sample) < 4:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    if max(even, odd) < len(sample) // 10 or min(even, odd) * 20 > max(even, odd):
        return None
    return "utf-16-le" if odd else "utf-16-be"


def _check_utf16(data: bytes, encoding: str, path: str) -> None:
    """A clear error where BOM-less UTF-16 cannot be read whole: a byte lost (NULs on the
    other side from some point on: a copy through a tool that read it as bytes of text; or an
    odd length) or an invalid character."""
    other_side = 0 if encoding == "utf-16-le" else 1
    shifted = re.search(b"\x00{3}", data[other_side::2])  # three characters in a row
    if shifted:
        raise SourceError(path, f"UTF-16 sans BOM abîmé : un octet perdu avant l'octet "
                                f"{2 * shifted.start() + other_side} (la suite est décalée d'un octet ; "
                                "copie passée par un outil de texte ?) : reprendre le fichier d'origine")
    if len(data) % 2:
        raise SourceError(path, f"UTF-16 sans BOM abîmé : nombre d'octets impair ({len(data)})")
    try:
        data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise SourceError(path, f"UTF-16 sans BOM illisible à l'octet {exc.start} ({exc.reason})") from None


def read_text(path: str | Path) -> DecodedText:
    """Read and decode a rule text file (a regular file of at most `MAX_RULE_TEXT_BYTES`);
    unreadable files raise `SourceError` in French."""
    from judge.inputs import MAX_RULE_TEXT_BYTES, InputError, read_regular

    try:
        data = read_regular(str(path), MAX_RULE_TEXT_BYTES)
    except InputError as exc:
        raise SourceError(str(path), exc.reason) from None
    return decode(data, path=str(path))
